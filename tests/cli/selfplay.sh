#!/bin/bash
# toguz selfplay and toguz tune: the file's header and size (docs/selfplay-format.md), the same
# file at any concurrency, tune's report, and clear errors on bad input.
# Usage: selfplay.sh <toguz> <tests-dir>
set -u
toguz=$1
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$toguz" selfplay --games 3 --nodes 300 --seed 2 --out "$tmp/a.bin") || fail "selfplay exited $?"
n=$(sed -n 's/^Positions: //p' <<<"$out")
[ -n "$n" ] && [ "$n" -gt 0 ] || fail "no 'Positions: N' in: $out"
grep -q '^Games: 3$' <<<"$out" || fail "games line: $out"
[ "$(head -c 8 "$tmp/a.bin")" = TGZSELFP ] || fail "magic"
[ "$(od -An -tu4 -j8 -N8 "$tmp/a.bin" | tr -s ' ')" = " 1 48" ] || fail "version/record size: $(od -An -tu4 -j8 -N8 "$tmp/a.bin")"
[ "$(stat -c %s "$tmp/a.bin")" = $((16 + 48 * n)) ] || fail "size $(stat -c %s "$tmp/a.bin") for $n positions"
"$toguz" selfplay --games 3 --nodes 300 --seed 2 --out "$tmp/b.bin" --concurrency 2 >/dev/null || fail "concurrency 2"
cmp -s "$tmp/a.bin" "$tmp/b.bin" || fail "concurrency changed the file"
"$toguz" selfplay --games 3 --nodes 300 --seed 3 --out "$tmp/c.bin" >/dev/null || fail "seed 3"
cmp -s "$tmp/a.bin" "$tmp/c.bin" && fail "another seed gave the same file"
# The evaluation: the default is the network; classic plays other games (a first net's data).
"$toguz" selfplay --games 3 --nodes 300 --seed 2 --eval nnue --out "$tmp/n.bin" >/dev/null || fail "eval nnue"
cmp -s "$tmp/a.bin" "$tmp/n.bin" || fail "--eval nnue differs from the default"
"$toguz" selfplay --games 3 --nodes 300 --seed 2 --eval classic --out "$tmp/k.bin" >/dev/null || fail "eval classic"
cmp -s "$tmp/a.bin" "$tmp/k.bin" && fail "--eval classic played the network's games"
"$toguz" selfplay --games 1 --eval deep --out "$tmp/x.bin" 2>"$tmp/err" && fail "an unknown evaluation was taken"
grep -q "expected classic or nnue, not 'deep'" "$tmp/err" || fail "eval message: $(cat "$tmp/err")"

# Resume: a run of 2 games whose last write was cut short (a partial record), resumed to 3
# games, is the file of one run of 3; resuming a finished run adds nothing; a file that is not
# self-play data is refused.
"$toguz" selfplay --games 2 --nodes 300 --seed 2 --out "$tmp/r.bin" >/dev/null || fail "2 games"
printf 'partial' >>"$tmp/r.bin"
"$toguz" selfplay --games 3 --nodes 300 --seed 2 --out "$tmp/r.bin" --resume >/dev/null || fail "resume exited $?"
cmp -s "$tmp/a.bin" "$tmp/r.bin" || fail "resumed file differs from one run"
"$toguz" selfplay --games 3 --nodes 300 --seed 2 --out "$tmp/r.bin" --resume >/dev/null || fail "resume of a finished run"
cmp -s "$tmp/a.bin" "$tmp/r.bin" || fail "resuming a finished run changed the file"
echo "not data" >"$tmp/notdata.bin"
"$toguz" selfplay --games 3 --nodes 300 --out "$tmp/notdata.bin" --resume 2>"$tmp/err" && fail "resumed a non-data file"
grep -q "cannot resume" "$tmp/err" || fail "resume message: $(cat "$tmp/err")"

out=$("$toguz" tune --data "$tmp/a.bin" "$tmp/c.bin" --out "$tmp/w.txt") || fail "tune exited $?"
grep -Eq '^Loss: fitted [0-9.]+, current [0-9.]+$' <<<"$out" || fail "tune loss line: $out"
grep -q '^kazna 100$' "$tmp/w.txt" || fail "weights file: $(cat "$tmp/w.txt")"
[ "$(wc -l <"$tmp/w.txt")" = 6 ] || fail "weights file lines: $(cat "$tmp/w.txt")"
out=$("$toguz" tune --data "$tmp/a.bin" --features kazna,tuz) || fail "tune --features exited $?"
grep -q '^row 0$' <<<"$out" || fail "row not fitted should be 0: $out"

# Errors: an unknown feature, a file that is not self-play data, a truncated one.
"$toguz" tune --data "$tmp/a.bin" --features kazna,speed 2>"$tmp/err" && fail "unknown feature accepted"
grep -q "unknown feature 'speed'" "$tmp/err" || fail "feature message: $(cat "$tmp/err")"
echo "not data" >"$tmp/bad.bin"
"$toguz" tune --data "$tmp/bad.bin" 2>"$tmp/err" && fail "bad file accepted"
grep -q "bad.bin: not a toguz self-play file" "$tmp/err" || fail "bad file message: $(cat "$tmp/err")"
head -c 100 "$tmp/a.bin" >"$tmp/short.bin"
"$toguz" tune --data "$tmp/short.bin" 2>"$tmp/err" && fail "truncated file accepted"
grep -q "truncated" "$tmp/err" || fail "truncated message: $(cat "$tmp/err")"
"$toguz" selfplay --games 1 --nodes 100 --out "$tmp/no/such/dir.bin" 2>"$tmp/err" && fail "unwritable out accepted"
grep -q "cannot write" "$tmp/err" || fail "unwritable message: $(cat "$tmp/err")"
echo "selfplay: ok"
