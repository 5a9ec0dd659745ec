# Drives `toguz play` with scripted sessions on stdin and checks the transcript and the saved
# records. Usage: bash play_session.sh <path-to-toguz> <tests-dir>
set -u
TOGUZ=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

# expect NAME FILE TEXT: FILE contains the fixed string TEXT.
expect() {
  if ! grep -qF -- "$3" "$2"; then
    echo "FAIL [$1]: expected to find: $3"
    fails=$((fails + 1))
  fi
}
# reject NAME FILE TEXT: FILE does not contain TEXT.
reject() {
  if grep -qF -- "$3" "$2"; then
    echo "FAIL [$1]: did not expect: $3"
    fails=$((fails + 1))
  fi
}

# 1. Two players: moves, illegal input of every kind, undo, a notation move that does not match,
#    save, then the end of input (autosave).
printf '%s\n' 6 5 10 0 hello 65 undo 7 64 13 "save $work/saved.pgn" 1 help |
  TOGUZ_AUTOSAVE="$work/auto.pgn" "$TOGUZ" play --vs human >"$work/out1.txt" 2>&1
rc=$?
[ $rc -eq 0 ] || { echo "FAIL [session 1]: exit status $rc"; fails=$((fails + 1)); }
o="$work/out1.txt"
expect s1 "$o" "White plays 65(10)"
expect s1 "$o" "Illegal: hole 5 is empty. Try again."
expect s1 "$o" "Illegal: no hole 10 (holes are 1..9). Try again."
expect s1 "$o" "Illegal: no hole 0 (holes are 1..9). Try again."
expect s1 "$o" "Not a move or command: 'hello'"
expect s1 "$o" "Black plays 65(10)"
expect s1 "$o" "Took back 1 move."
expect s1 "$o" "Black plays 76(2)"
expect s1 "$o" "'13' does not match hole 1: last stone falls in hole 1, not 3 (expected 11). Try again."
expect s1 "$o" "Illegal: hole 6 is empty. Try again."
expect s1 "$o" "Game saved to $work/saved.pgn (2 plies)."
expect s1 "$o" "White plays 11"
expect s1 "$o" "  1. 65(10) 76(2) 2. 11"
expect s1 "$o" "undo        take back your last move"
expect s1 "$o" "End of input."
expect s1 "$o" "Game saved to $work/auto.pgn (3 plies)."
# The board after 1. 65(10) is drawn from Black's seat (the mover's).
expect s1 "$o" "|  10 |  10 |  10 |  10 |   0 |   9 |   9 |   9 |   9 |  Black  kazna   0  <- to move"
expect s1-saved "$work/saved.pgn" '[Result "*"]'
expect s1-saved "$work/saved.pgn" "1. 65(10) 76(2) *"
expect s1-auto "$work/auto.pgn" "1. 65(10) 76(2) 2. 11 *"

# 2. Load the autosave and go on; a bad load keeps the game; quit saves.
printf '%s\n' "load $work/nothere.pgn" "load $work/auto.pgn" 9 quit |
  TOGUZ_AUTOSAVE="$work/auto2.pgn" "$TOGUZ" play --vs human >"$work/out2.txt" 2>&1
o="$work/out2.txt"
expect s2 "$o" "load: cannot open $work/nothere.pgn."
expect s2 "$o" "Loaded $work/auto.pgn (3 plies)."
expect s2 "$o" "Black plays 9"
expect s2 "$o" "Game saved to $work/auto2.pgn (4 plies)."
reject s2 "$o" "End of input."
expect s2-auto "$work/auto2.pgn" "1. 65(10) 76(2) 2. 11 9"

# 3. A record with a FEN and tuzes: the opponent's tuz cannot be played; a record with a bad
#    token is refused with the line, ply and reason.
cat >"$work/tuz.pgn" <<'EOF'
[Event "tuz"]
[FEN "9,9,9,9,x,9,9,9,9/9,9,x,9,9,9,9,9,9 9 9 w 1"]

*
EOF
cat >"$work/bad.pgn" <<'EOF'
[Event "bad"]

1. 65(10) 99 *
EOF
printf '%s\n' "load $work/bad.pgn" "load $work/tuz.pgn" 5 |
  TOGUZ_AUTOSAVE="$work/auto3.pgn" "$TOGUZ" play --vs human >"$work/out3.txt" 2>&1
o="$work/out3.txt"
expect s3 "$o" "load: $work/bad.pgn: game 1, line 3: ply 2, token '99'"
expect s3 "$o" "The current game is kept."
expect s3 "$o" "Loaded $work/tuz.pgn (0 plies)."
expect s3 "$o" "Illegal: hole 5 is the opponent's tuz. Try again."
expect s3 "$o" "X = tuz: White owns Black's 3, Black owns White's 5"
expect s3-auto "$work/auto3.pgn" '[FEN "9,9,9,9,x,9,9,9,9/9,9,x,9,9,9,9,9,9 9 9 w 1"]'

# 4. Against the computer as Black: it opens, undo takes back its reply with our move, and
#    there is nothing to undo before our first move. (No first White move reaches Black's
#    hole 5, so it is always playable whatever the engine chose.)
printf '%s\n' undo 5 undo |
  TOGUZ_AUTOSAVE="$work/auto4.pgn" "$TOGUZ" play --vs engine --color black --skill 1 --movetime 50 \
    --variant bestemshi >"$work/out4.txt" 2>&1
o="$work/out4.txt"
expect s4 "$o" "You play Black, the computer White (skill 1)."
expect s4 "$o" "Computer (White) plays"
expect s4 "$o" "Nothing to undo."
expect s4 "$o" "Took back 2 moves."
expect s4 "$o" "Game saved to $work/auto4.pgn (1 ply)."
expect s4-auto "$work/auto4.pgn" '[Variant "bestemshi"]'
expect s4-auto "$work/auto4.pgn" '[White "toguz (skill 1)"]'

# 5. A game played to the end announces the result; moves after it are refused.
for i in $(seq 1 200); do echo $(((i * 7) % 5 + 1)); done |
  TOGUZ_AUTOSAVE="$work/auto5.pgn" "$TOGUZ" play --vs human --variant bestemshi >"$work/out5.txt" 2>&1
o="$work/out5.txt"
expect s5 "$o" "Result: Black wins 18-28 (decided: a kazna holds more than 25)"
expect s5 "$o" "Illegal: the game is over"
expect s5-auto "$work/auto5.pgn" '[Result "0-1"]'

# 6. Bad options are refused with a non-zero status.
if "$TOGUZ" play --skill 99 </dev/null >/dev/null 2>&1; then
  echo "FAIL [options]: --skill 99 accepted"
  fails=$((fails + 1))
fi

if [ $fails -ne 0 ]; then
  echo "$fails check(s) failed; transcripts:"
  for f in "$work"/out*.txt; do echo "== $f"; cat "$f"; done
  exit 1
fi
echo "play_session: all checks passed"
