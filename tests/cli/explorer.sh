#!/usr/bin/env bash
# toguz explorer build / query on a small hand-made record: the build summary and the skipped
# game, the table, the JSON, the filters, --moves, and clear errors on a bad index.
set -u
toguz="$1"
tests="$2"
source "$(dirname "${BASH_SOURCE[0]}")/check.bash"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
small="$tests/data/explorer/small.pgn"

out=$("$toguz" explorer build "$small" -o "$dir/small.idx" 2>"$dir/err")
check "build: exit status" 0 "$?"
check "build: summary" "Indexed 4 games (1 skipped): 10 entries, 464 bytes," "${out% in *}"
check "build: skipped game" "toguz explorer build: $small: game 5 skipped: line 44: ply 1, token '76(12)': the mover's kazna is 10 after the move, not 12 (expected 76 (10))" "$(cat "$dir/err")"

out=$("$toguz" explorer query "$dir/small.idx")
check "query: exit status" 0 "$?"
check "query: table" "Position: 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1
Games: 4 of 4 indexed; results from White's view: White wins 1, draws 1, Black wins 1
Move       Games   White    Draw   Black  Rating
76(10)         3   33.3%    0.0%   33.3%    1800
43(10)         1    0.0%  100.0%    0.0%       -" "$out"

out=$("$toguz" explorer query "$dir/small.idx" --moves "76 87" --json)
check "query --moves --json" '{"position":"10,10,10,10,10,10,0,10,10/10,10,10,10,10,0,9,1,10 10 2 w 2","games":2,"moves":[{"hole":6,"move":"66","games":1,"white_wins":0,"draws":0,"black_wins":1,"average_rating":1600},{"hole":9,"move":"99","games":1,"white_wins":1,"draws":0,"black_wins":0,"average_rating":1600}]}' "$out"

out=$("$toguz" explorer query "$dir/small.idx" --json --min-rating 1700)
check "query --min-rating" '{"position":"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1","games":1,"moves":[{"hole":7,"move":"76(10)","games":1,"white_wins":0,"draws":0,"black_wins":0,"average_rating":2100}]}' "$out"
out=$("$toguz" explorer query "$dir/small.idx" --json --from-year 2025 --to-year 2025)
check "query --from-year --to-year" '{"position":"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1","games":2,"moves":[{"hole":4,"move":"43(10)","games":1,"white_wins":0,"draws":1,"black_wins":0,"average_rating":null},{"hole":7,"move":"76(10)","games":1,"white_wins":0,"draws":0,"black_wins":1,"average_rating":1600}]}' "$out"
out=$("$toguz" explorer query "$dir/small.idx" --json --position "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 1")
check "query: a position never reached" '{"position":"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 1","games":0,"moves":[]}' "$out"

# --eval: the engine's score of each move (one search over all moves, depth 4, White's view;
# the same as toguz analyze --moves 76 87 --depth 4 --multipv 9 gives for 66 and 99).
out=$("$toguz" explorer query "$dir/small.idx" --moves "76 87" --json --eval 4)
check "query --eval --json" '{"position":"10,10,10,10,10,10,0,10,10/10,10,10,10,10,0,9,1,10 10 2 w 2","games":2,"moves":[{"hole":6,"move":"66","games":1,"white_wins":0,"draws":0,"black_wins":1,"average_rating":1600,"eval":{"cp":465,"proven":false}},{"hole":9,"move":"99","games":1,"white_wins":1,"draws":0,"black_wins":0,"average_rating":1600,"eval":{"cp":445,"proven":false}}]}' "$out"
out=$("$toguz" explorer query "$dir/small.idx" --moves 76 --eval 4 | tail -2)
check "query --eval: Black to move, White's view" "87(2)          2   50.0%    0.0%   50.0%    1600    +4.45
55(10)         1    0.0%    0.0%    0.0%    2100    +9.00" "$out"

err=$("$toguz" explorer query "$dir/small.idx" --moves "76 q" 2>&1 >/dev/null)
check "bad --moves: exit status" 2 "$?"
check "bad --moves: message" "toguz explorer query: --moves token 2 'q': expected a move: a hole digit 1-9, then optionally the landing hole, X/x, (n)" "$err"

head -c 100 "$dir/small.idx" >"$dir/short.idx"
err=$("$toguz" explorer query "$dir/short.idx" 2>&1 >/dev/null)
check "truncated: exit status" 2 "$?"
check "truncated: message" "toguz explorer query: $dir/short.idx: truncated or damaged: the header says 10 entries (464 bytes), the file has 100 bytes" "$err"
err=$("$toguz" explorer query "$small" 2>&1 >/dev/null)
check "not an index: exit status" 2 "$?"
check "not an index: message" "toguz explorer query: $small: not an explorer index (the file does not start with TOGUZEXP)" "$err"
exit $fail
