#!/usr/bin/env bash
# toguz replay --json: records (a resignation, a decided game, a no-move game, a bad count) and
# bare move lists (with --play-out, and a line with an illegal move). Golden output; exit status.
set -u
toguz="$1"
tests="$2"
source "$(dirname "${BASH_SOURCE[0]}")/check.bash"

out=$("$toguz" replay --json "$tests/data/cli/replay-games.pgn" 2>/tmp/toguz-replay-err.$$)
rc=$?
check "records: exit status" 1 "$rc"
check "records: output" '{"plies":17,"end":null,"score":[56,32],"result":"1-0","position":"1,15,3,3,3,3,18,1,2/1,1,3,2,0,12,2,2,2 56 32 b 9"}
{"plies":193,"end":"decided","score":[82,79],"result":"1-0","position":"x,0,0,0,1,0,0,0,0/0,0,0,x,0,0,0,0,0 82 79 b 97"}
{"plies":148,"end":"no-move","score":[76,86],"result":"0-1","position":"x,0,0,0,0,0,0,0,0/1,x,1,0,1,1,1,1,3 76 77 w 75"}
{"game":4,"ply":15,"token":"91(55)","line":59,"error":"line 59: the mover'"'"'s kazna is 54 after the move, not 55 (expected 91 (54))"}' "$out"
check "records: summary on stderr" "toguz replay: 1 of 4 games are bad" "$(cat /tmp/toguz-replay-err.$$)"
rm -f /tmp/toguz-replay-err.$$

# Bare move lists from standard input: the first random game played out, a line with a word
# that is not a move, and a short unfinished game (blank lines skipped).
moves=$(head -1 "$tests/data/random-games.jsonl" | sed 's/.*"play_out": {"moves": "\([0-9 ]*\)".*/\1/')
out=$(printf '%s\n\n6 4 9 q\n1 1\n' "$moves" | "$toguz" replay --json --play-out - 2>/dev/null)
rc=$?
check "moves: exit status" 1 "$rc"
check "moves: output" '{"plies":203,"end":"no-move","score":[66,96],"result":"0-1","position":"1,0,1,1,1,x,0,0,0/0,0,0,0,0,0,0,0,0 62 96 b 102"}
{"game":2,"ply":4,"token":"q","line":3,"error":"line 3: not a move: expected a move: a hole digit 1-9, then optionally the landing hole, X/x, (n)"}
{"plies":2,"end":null,"score":[0,0],"result":"*","position":"1,10,10,10,10,10,10,10,10/1,10,10,10,10,10,10,10,10 0 0 w 2"}' "$out"

# All good: exit status 0.
out=$(printf '6 4\n' | "$toguz" replay --json)
check "good: exit status" 0 "$?"
check "good: output" '{"plies":2,"end":null,"score":[10,10],"result":"*","position":"10,10,10,0,9,1,10,10,10/10,10,10,1,1,10,10,10,10 10 10 w 2"}' "$out"

# Without --json: the board, the position and the result; errors named in plain words.
out=$("$toguz" replay "$tests/data/master-game.pgn")
check "plain: exit status" 0 "$?"
check "plain: result line" "Result: 1-0 (resignation, 56-32, 17 plies)" "$(echo "$out" | grep '^Result')"
check "plain: position line" "Position: 1,15,3,3,3,3,18,1,2/1,1,3,2,0,12,2,2,2 56 32 b 9" "$(echo "$out" | grep '^Position')"
out=$(printf '6 5\n' | "$toguz" replay 2>/dev/null)
check "plain: bad exit" 1 "$?"
check "plain: bad message" "Game 1: error at line 1: ply 2, token '5': illegal move: hole 5 is empty" "$(echo "$out" | head -1)"

# A game that cannot be read does not stop the others: one error line per bad game (game,
# line, column), one result line per good game, exit status 1.
out=$(printf '[Event "a"]\n[Result "1-0"]\n\n1. 65 87 1-0\n\n[Event "b"\n[Result "1-0"]\n\n1. 65 87 1-0\n\n[Event "c"]\n[Result "0-1"]\n\n1. 76 {open\n\n[FEN "startpos"]\n[Result "0-1"]\n\n1. 76 98 0-1\n' | "$toguz" replay --json 2>/tmp/toguz-replay-err.$$)
check "bad tag: exit status" 1 "$?"
check "bad tag: output" '{"plies":2,"end":null,"score":[10,0],"result":"1-0","position":"10,10,10,10,10,2,11,10,10/10,10,10,10,0,9,9,1,10 10 0 w 2"}
{"game":2,"ply":0,"token":"","line":6,"error":"line 6, column 11: tag: expected [Name \"value\"], the closing '"']'"' is missing in '"'"'[Event \"b\"'"'"'"}
{"game":3,"ply":0,"token":"{","line":14,"error":"line 14, column 7: comment: '"'{'"' is not closed: expected '"'}'"' before the tag line at line 16"}
{"plies":2,"end":null,"score":[10,0],"result":"0-1","position":"10,10,10,10,10,10,2,11,10/10,10,10,10,10,0,9,9,1 10 0 w 2"}' "$out"
check "bad tag: summary" "toguz replay: 2 of 4 games are bad" "$(cat /tmp/toguz-replay-err.$$)"

# A last game cut off inside its moves: a warning naming it (exit 0), an error with --strict.
cut=$(printf '[Event "a"]\n[Result "1-0"]\n\n1. 65(10) 87 2. 55 99(12) 3.')
out=$(echo "$cut" | "$toguz" replay --json 2>/tmp/toguz-replay-err.$$)
check "truncated: exit status" 0 "$?"
check "truncated: warning" "toguz replay: -: warning: game 1, line 4: ply 4, token '99(12)': the input ends inside the game's moves, with no result token and the game not over on the board: the record looks truncated (expected 1-0, 0-1, 1/2-1/2 or * after the moves)" "$(cat /tmp/toguz-replay-err.$$)"
out=$(echo "$cut" | "$toguz" replay --json --strict 2>/dev/null)
check "truncated --strict: exit status" 1 "$?"
check "truncated --strict: output" '{"game":1,"ply":4,"token":"99(12)","line":4,"error":"line 4: the input ends inside the game'"'"'s moves, with no result token and the game not over on the board: the record looks truncated (expected 1-0, 0-1, 1/2-1/2 or * after the moves)"}' "$out"

# Input that is not a record: one message each, exit status 1.
for input in empty html binary; do
  case $input in
    empty) bytes='\n  \n'; message='empty input: no game record (expected PGN or TGK text: tag lines such as [Event "..."], then the moves)' ;;
    html) bytes='<!DOCTYPE html>\n<html><body>[Event "x"]</body></html>\n'; message='not a game record: an HTML page; save the PGN or TGK text itself, not the web page around it' ;;
    binary) bytes='PK\003\004\000\000'; message='not a game record: binary data (a NUL byte at line 1, byte 5)' ;;
  esac
  err=$(printf "$bytes" | "$toguz" replay --json 2>&1 >/dev/null)
  check "$input: exit status" 1 "$?"
  check "$input: message" "toguz replay: -: $message" "$err"
done

# Windows-1251 names are read and the program says so.
out=$(printf '[White "\310\342\340\355"]\n[Result "*"]\n\n1. 65 *\n' | "$toguz" replay 2>/tmp/toguz-replay-err.$$)
check "cp1251: exit status" 0 "$?"
check "cp1251: name" "Game 1: Иван - ?" "$(echo "$out" | head -1)"
check "cp1251: note" "toguz replay: -: the text is not UTF-8 (byte at line 1, byte 9); read as Windows-1251" "$(cat /tmp/toguz-replay-err.$$)"
rm -f /tmp/toguz-replay-err.$$
exit $fail
