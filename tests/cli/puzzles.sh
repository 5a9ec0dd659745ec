#!/bin/bash
# toguz puzzles build: the puzzles of a tiny record (golden), a bad game reported by number, the
# resume of a finished build, and the error for other options. Usage: puzzles.sh <toguz> <tests-dir>
# After a change to the search, the golden is made again with:
#   toguz puzzles build tests/data/puzzles/tiny.pgn -o tests/data/puzzles/tiny.jsonl --depth 4 --skip 2
# and reviewed by eye (then tiny.jsonl.state is removed).
set -u
toguz=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$(cd "$2" && pwd)/data/puzzles
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$data/tiny.pgn" "$tmp/tiny.pgn"
cd "$tmp"

err=$("$toguz" puzzles build tiny.pgn -o out.jsonl --depth 4 --skip 2 --progress 2>&1) || fail "build exited $?: $err"
diff -u "$data/tiny.jsonl" out.jsonl || fail "puzzles differ from the golden"
grep -q "^toguz puzzles: tiny.pgn: game 2, line 15: ply 4, token '99(13)'" <<<"$err" || fail "bad game note: $err"
grep -q "^games 2/2, puzzles [0-9]*, duplicates 0, bad games 1" <<<"$err" || fail "progress: $err"
[ -f out.jsonl.state ] || fail "no state file"

# A finished build run again: nothing mined, the same file.
err=$("$toguz" puzzles build tiny.pgn -o out.jsonl --depth 4 --skip 2 2>&1) || fail "rebuild exited $?: $err"
grep -q "resuming after 2 games" <<<"$err" || fail "resume note: $err"
diff -q "$data/tiny.jsonl" out.jsonl >/dev/null || fail "rebuild changed the file"

# Other options with the same output: exit 2 and a message naming the state file.
err=$("$toguz" puzzles build tiny.pgn -o out.jsonl --depth 5 --skip 2 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "other options exit code $rc"
grep -q "out.jsonl.state: made from other records or options" <<<"$err" || fail "options message: $err"

# The puzzles searched again, deeper: all hold. A line that is not a puzzle is named, exit 1.
out=$("$toguz" puzzles check out.jsonl --depth 6) || fail "check exited $?: $out"
[ "$out" = "2/2 hold at depth 6; 0/0 proven again" ] || fail "check: $out"
{ cat out.jsonl; echo '{"position":"1,2/3,4 0 0 w"}'; } > bad.jsonl
out=$("$toguz" puzzles check bad.jsonl --depth 6)
[ $? -eq 1 ] || fail "check of a bad line: exit code"
grep -q "^bad.jsonl: line 3: not a puzzle line: no \"side\" member" <<<"$out" || fail "check bad line: $out"

# Not a record: a clear error naming the file.
echo "<html></html>" > page.pgn
err=$("$toguz" puzzles build page.pgn -o page.jsonl 2>&1)
[ $? -eq 2 ] || fail "html accepted"
grep -q "^toguz puzzles: page.pgn: " <<<"$err" || fail "html message: $err"
echo ok
