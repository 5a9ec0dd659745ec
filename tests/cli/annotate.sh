#!/bin/bash
# toguz annotate: the golden annotated master game at a node limit (deterministic), what it
# writes reads back as the same game, --out with the summary, and bad input.
# The golden file follows the search: a commit that changes `toguz bench` regenerates it with
#   TOGUZ_UPDATE_GOLDEN=1 bash tests/cli/annotate.sh build/toguz tests
# Usage: annotate.sh <toguz> <tests-dir>
set -u
toguz=$1
tests=$2
fail() { echo "FAIL: $*"; exit 1; }
golden=$tests/data/annotate/master-game-5000.pgn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$toguz" annotate "$tests/data/master-game.pgn" --nodes 5000 >"$tmp/out.pgn" || fail "annotate exited $?"
if [ "${TOGUZ_UPDATE_GOLDEN:-}" = 1 ]; then cp "$tmp/out.pgn" "$golden"; fi
diff -u "$golden" "$tmp/out.pgn" || fail "annotated game differs from $golden"

# Marks and comments are there, and the summary counts the marks of each side.
grep -q '^\[Annotator "toguz .*, 5000 nodes per position"\]$' "$tmp/out.pgn" || fail "Annotator tag"
grep -q '^{White (Eleusiz, Nurlan): 9 moves, average loss' "$tmp/out.pgn" || fail "White summary"
grep -q '^{Black (Aktayev, Serik): 8 moves, average loss' "$tmp/out.pgn" || fail "Black summary"
grep -Eq '[0-9](\([0-9]+\))?X?\?\?? \{[+-][0-9]+\.[0-9]{2}; best ' "$tmp/out.pgn" || fail "no marked move with its best move"

# The annotated record replays to the same game as the original.
a=$("$toguz" replay "$tests/data/master-game.pgn" | grep '^Position:') || fail "replay original"
b=$("$toguz" replay "$tmp/out.pgn" | grep '^Position:') || fail "replay annotated"
[ "$a" = "$b" ] || fail "annotated game replays to '$b', not '$a'"

# --out: the record goes to the file, the summary to stdout; the same text as before.
sum=$("$toguz" annotate "$tests/data/master-game.pgn" --nodes 5000 --out "$tmp/file.pgn") || fail "--out exited $?"
cmp -s "$tmp/file.pgn" "$tmp/out.pgn" || fail "--out file differs from standard output"
[ "$(echo "$sum" | wc -l)" = 2 ] && echo "$sum" | grep -q '^White (Eleusiz, Nurlan): 9 moves' \
  || fail "summary on stdout: $sum"

# TGK output: one move number per line, the marks kept.
"$toguz" annotate "$tests/data/master-game.pgn" --nodes 5000 --tgk >"$tmp/out.tgk" || fail "--tgk exited $?"
grep -Eq '^1\. 65[?!]* \{' "$tmp/out.tgk" || fail "tgk first move: $(head -12 "$tmp/out.tgk")"

# Bad input: a missing file and an illegal move are clear errors with a non-zero status.
"$toguz" annotate "$tmp/none.pgn" --nodes 100 2>"$tmp/err" && fail "missing file accepted"
grep -q "none.pgn" "$tmp/err" || fail "missing file message: $(cat "$tmp/err")"
printf '[Event "x"]\n\n1. 65(10) 65(10) 19 1-0\n' >"$tmp/bad.pgn"
"$toguz" annotate "$tmp/bad.pgn" --nodes 100 2>"$tmp/err"
[ $? = 1 ] || fail "illegal move: status"
grep -q "bad.pgn: game 1, line 3: ply 3, token .19.: last stone falls in hole 1, not 9" "$tmp/err" || fail "illegal move message: $(cat "$tmp/err")"
# The same messages as replay and convert: a game that cannot be read, empty input.
printf '[Event "x]\n\n1. 65 87 1-0\n' >"$tmp/tag.pgn"
"$toguz" annotate "$tmp/tag.pgn" --nodes 100 2>"$tmp/err" && fail "bad tag accepted"
[ "$(cat "$tmp/err")" = "toguz annotate: $tmp/tag.pgn: game 1, line 1, column 8: tag: expected [Name \"value\"], the closing '\"' of the value is missing in '[Event \"x]'" ] \
  || fail "bad tag message: $(cat "$tmp/err")"
printf '' | "$toguz" annotate - --nodes 100 2>"$tmp/err" && fail "empty input accepted"
grep -q "^toguz annotate: -: empty input: no game record" "$tmp/err" || fail "empty input message: $(cat "$tmp/err")"
echo "annotate: ok"
