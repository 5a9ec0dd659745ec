#!/bin/bash
# toguz solve: the JSON shape (exact keys and order), the text form, errors; and
# toguz tables build/verify on a tiny K. Usage: solve.sh <toguz> <tests-dir>
set -u
toguz=$1
fail() { echo "FAIL: $*"; exit 1; }
study1="0,0,0,1,x,1,3,2,1/0,0,2,2,0,0,0,0,0 78 72 w 40"

out=$("$toguz" solve --position "$study1" --json) || fail "solve --json exited $?"
[[ $out =~ ^\{\"result\":\"win\",\"margin\":[0-9]+,\"line\":\[[0-9,]+\],\"nodes\":[0-9]+,\"time_ms\":[0-9]+\}$ ]] \
  || fail "json shape: $out"

out=$("$toguz" solve --position "$study1") || fail "solve text exited $?"
grep -q "^White to move: win (margin +" <<<"$out" || fail "text: $out"
grep -q "^line: " <<<"$out" || fail "text line: $out"

# Two threads (--threads): the same result and margin as one (lines and nodes may differ).
a=$("$toguz" solve --position "$study1" --json --threads 2) || fail "solve --threads 2 exited $?"
b=$("$toguz" solve --position "$study1" --json)
[ "${a%%,\"line\"*}" = "${b%%,\"line\"*}" ] || fail "--threads 2: $a, one thread: $b"
"$toguz" solve --position "$study1" --threads 0 >/dev/null 2>&1 && fail "--threads 0 accepted"

# Many positions: one JSON line each, from a file (position strings or JSON lines) or stdin;
# '#' lines skipped; a bad line named with its number (exit 2) while the others are solved.
list=$(mktemp)
printf '# two positions\n%s\n{"position":"%s","result":"win"}\n' "$study1" "$study1" >"$list"
out=$("$toguz" solve --positions "$list" --result-only) || fail "--positions exited $?"
[ "$(grep -c '^{"position":"0,0,0,1,x,1,3,2,1/0,0,2,2,0,0,0,0,0 78 72 w 40","result":"win","margin":null,"line":\[' <<<"$out")" -eq 2 ] \
  || fail "--positions: $out"
out=$("$toguz" solve --positions - --json <"$list") || fail "--positions - exited $?"
[ "$(grep -c '"result":"win","margin":[0-9]' <<<"$out")" -eq 2 ] || fail "--positions -: $out"
printf '%s\n1,2/3 0 0 w\n' "$study1" >"$list"
err=$("$toguz" solve --positions "$list" --result-only 2>&1 >/dev/null)
[ $? -eq 2 ] || fail "bad line: exit code"
grep -q "line 2: " <<<"$err" || fail "bad line message: $err"
# The plain minimax gives the same margin.
printf '%s\n' "0,0,0,0,0,0,0,1,1/0,x,0,0,0,0,0,0,1 80 79 w" >"$list"
a=$("$toguz" solve --positions "$list" --plain | sed 's/.*"margin":\([-0-9]*\).*/\1/')
b=$("$toguz" solve --positions "$list" --json | sed 's/.*"margin":\([-0-9]*\).*/\1/')
[ -n "$a" ] && [ "$a" = "$b" ] || fail "--plain margin $a, solver $b"
# The recipe: the same positions every time, and those of the committed set.
a=$("$toguz" solve --generate 5 --seed 1 --stones 12-18)
[ "$a" = "$(grep '^{' "$2/data/endgames-12-18.jsonl" | head -5 | sed 's/{"position":"\([^"]*\)".*/\1/')" ] \
  || fail "--generate: $a"
"$toguz" solve --generate 5 --stones 12 >/dev/null 2>&1 && fail "--stones 12 accepted"
rm -f "$list"

# Not provable in 1 ms: a clear message and exit 3.
err=$("$toguz" solve --position "x,0,2,3,4,8,0,0,2/0,9,0,0,1,5,2,3,2 66 55 w 40" --time 1 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] || fail "time limit exit code $rc"
grep -q "not proven within 1 ms" <<<"$err" || fail "time limit message: $err"

# A node limit: the same, deterministically (study 3 is not proven in 5000 nodes).
err=$("$toguz" solve --position "x,0,2,3,4,8,0,0,2/0,9,0,0,1,5,2,3,2 66 55 w 40" --nodes 5000 2>&1 >/dev/null)
rc=$?
[ $rc -eq 3 ] || fail "node limit exit code $rc"
grep -q "not proven within 0 ms / 5000 nodes" <<<"$err" || fail "node limit message: $err"

# A bad position names the field.
err=$("$toguz" solve --position "1,2,3/4,5,6 0 0 w" 2>&1 >/dev/null)
rc=$?
[ $rc -ne 0 ] || fail "bad position accepted"
grep -q "toguz solve:" <<<"$err" || fail "bad position message: $err"

# Tables: build K=3 for one position's configurations, verify, solve with them.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pos="0,0,0,0,0,0,0,0,1/0,x,0,0,0,0,0,0,1 80 80 w"
"$toguz" tables build --stones 3 --dir "$dir" --position "$pos" >/dev/null 2>&1 || fail "tables build"
[ "$(ls "$dir" | wc -l)" -eq 16 ] || fail "expected 16 table files, got $(ls "$dir")"
"$toguz" tables verify --stones 3 --dir "$dir" --position "$pos" >/dev/null 2>&1 || fail "tables verify"
a=$("$toguz" solve --position "$pos" --json --tables "$dir" | sed 's/,"nodes".*//')
b=$("$toguz" solve --position "$pos" --json | sed 's/,"nodes".*//')
[ "$a" = "$b" ] || fail "with tables: $a, without: $b"
# analyze --tables: the proven result in words with its line, and the JSON "proven" member.
# The margin shown must be the one toguz solve proves without tables.
m=$("$toguz" solve --position "$pos" --json | sed 's/.*"margin":\([-0-9]*\).*/\1/')
out=$("$toguz" analyze --position "$pos" --depth 4 --tables "$dir") || fail "analyze --tables exited $?"
if [ "$m" -gt 0 ]; then want="White wins by $m"; elif [ "$m" -lt 0 ]; then want="Black wins by ${m#-}"; else want="draw"; fi
grep -q "^proven: $want[ :]" <<<"$out" || fail "analyze text (want '$want'): $out"
out=$("$toguz" analyze --position "$pos" --depth 4 --tables "$dir" --json) || fail "analyze --tables --json exited $?"
grep -q "\"proven\":{\"result\":\"[a-z]*\",\"winner\":[a-z\"]*,\"margin\":$m,\"line\":\[" <<<"$out" || fail "analyze json: $out"
# A win: "White wins by 4" (White 80 + 3 stones on the board against 79).
out=$("$toguz" analyze --position "0,0,0,0,0,0,0,1,1/0,x,0,0,0,0,0,0,1 80 79 w" --depth 4 --tables "$dir") || fail "analyze win exited $?"
grep -q "^proven: White wins by 4: 89 " <<<"$out" || fail "analyze win text: $out"
err=$("$toguz" analyze --position "$pos" --depth 2 --tables /nonexistent-dir 2>&1 >/dev/null)
[ $? -ne 0 ] || fail "analyze with a missing tables dir accepted"
grep -q "no table files" <<<"$err" || fail "missing tables message: $err"

# UGI: TablesDir offered, accepted, and a bad folder answered with an error.
out=$(printf 'ugi\nsetoption name TablesDir value %s\nposition fen %s\ngo depth 2\nsetoption name TablesDir value /nonexistent-dir\nquit\n' "$dir" "$pos" | "$toguz" ugi)
grep -q "^option name TablesDir type string" <<<"$out" || fail "ugi option: $out"
grep -q "^bestmove [1-9]" <<<"$out" || fail "ugi bestmove with tables: $out"
grep -q "^info string error setoption TablesDir: no table files" <<<"$out" || fail "ugi bad TablesDir: $out"
echo ok
