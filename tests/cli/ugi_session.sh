# `toguz ugi`: scripted sessions against the real binary: handshake, position + go, queries,
# bad input, isready answered while a search runs, and go without a usable limit answering by
# itself (live coprocesses, not pipes).
# Usage: bash ugi_session.sh <path-to-toguz> <tests-dir>
set -u
TOGUZ=$1
DOC=$2/../docs/ugi.md
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# 1. A whole script piped in at once.
out=$(printf '%s\n' \
  "ugi" \
  "isready" \
  "setoption name MultiPV value 2" \
  "position startpos moves 6" \
  "query p1turn" \
  "go depth 5" \
  "isready" \
  "setoption name MultiPV value 1" \
  "position fen 0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 81 w" \
  "query gameover" \
  "query result" \
  "go depth 3" \
  "position fen 0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,0 80 81 w" \
  "go depth 4" \
  "frobnicate" \
  "position startpos moves 10" \
  "quit" | timeout 60 "$TOGUZ" ugi)
status=$?
[ $status -eq 0 ] || fail "exit status $status"
echo "$out" | grep -qxF "id name toguz $("$TOGUZ" --version | sed 's/^toguz //')" || fail "id name line"
echo "$out" | grep -qxF "ugiok" || fail "ugiok"
[ "$(echo "$out" | grep -cxF readyok)" = 2 ] || fail "two readyok"
echo "$out" | grep -qxF "option name Variant type combo default standard var standard var kozdatu var bestemshi" ||
  fail "Variant option"
[ "$(echo "$out" | grep -c '^info depth 5 seldepth [0-9]* multipv [12] score cp -\{0,1\}[0-9]* wdl [0-9]* [0-9]* [0-9]* nodes [0-9]* nps [0-9]* time [0-9]* pv [1-9]')" = 2 ] ||
  fail "two depth-5 lines with multipv 1 and 2:
$out"
responses=$(echo "$out" | grep '^response' | tr '\n' ' ')
[ "$responses" = "response false response true response p2win " ] || fail "responses: $responses"
bests=$(echo "$out" | grep '^bestmove' | tr '\n' ' ')
echo "$bests" | grep -qE '^bestmove [1-9] bestmove 0000 bestmove 9 $' || fail "bestmoves: $bests"
echo "$out" | grep -qxF "info string error go: the game is over (no-move, 0-1); no move" || fail "game-over error"
echo "$out" | grep -qF " score mate -2 " || fail "proven loss as mate -2"
echo "$out" | grep -qxF "info string error unknown command: frobnicate" || fail "unknown command error"
echo "$out" | grep -qF "info string error position: move 1 '10': not a hole number 1..9" || fail "bad move error"

# 2. isready while "go infinite" runs, then stop, in a live session.
coproc UGI { timeout 60 "$TOGUZ" ugi; }
# bash unsets UGI_PID as soon as the coprocess ends, which may be before `wait`: keep a copy.
ugi_pid=$UGI_PID
echo "position startpos" >&"${UGI[1]}"
echo "go infinite" >&"${UGI[1]}"
sleep 0.3
echo "isready" >&"${UGI[1]}"
got=""
while IFS= read -r -t 20 line <&"${UGI[0]}"; do
  case $line in
    readyok) got=ready; break ;;
    bestmove*) got=early; break ;;
  esac
done
[ "$got" = ready ] || fail "readyok during the infinite search (got '$got')"
echo "stop" >&"${UGI[1]}"
best=""
while IFS= read -r -t 20 line <&"${UGI[0]}"; do
  case $line in bestmove*) best=$line; break ;; esac
done
echo "$best" | grep -qE '^bestmove [1-9]$' || fail "bestmove after stop (got '$best')"
echo "quit" >&"${UGI[1]}"
wait "$ugi_pid" || fail "exit status after quit"

# 3. Only "go infinite" waits for stop: every go without a usable limit answers by itself
# (stdin stays open and no stop is sent), after an info string saying why.
coproc UGI { timeout 30 "$TOGUZ" ugi; }
ugi_pid=$UGI_PID
echo "position startpos" >&"${UGI[1]}"
for g in "go" "go p2time 60000 p2inc 100" "go depth 0" "go movetime 0" "go depth 5000" \
  "go nodes 99999999999999999999"; do
  [ -n "${UGI[1]:-}" ] || { fail "the session ended before '$g'"; break; }
  echo "$g" >&"${UGI[1]}"
  note="" best="" errs=""
  while IFS= read -r -t 10 line <&"${UGI[0]}"; do
    case $line in
      "info string go: no usable limit ("*) note=$line ;;
      "info string error"*) errs="$errs$line|" ;;
      bestmove*) best=$line; break ;;
    esac
  done
  echo "$best" | grep -qE '^bestmove [1-9]$' || fail "'$g' answered no bestmove within 10 s"
  case $note in *"searching 1000 ms ('go infinite' searches until stop)") ;; *) fail "'$g' note: '$note'" ;; esac
  case $g in
    "go depth 5000") [ "$errs" = "info string error go: 'depth' value '5000' is out of range 0..1000|" ] ||
      fail "depth range error: $errs" ;;
    "go nodes 9"*) [ "$errs" = "info string error go: 'nodes' value '99999999999999999999' is out of range 0..4611686018427387904|" ] ||
      fail "nodes range error: $errs" ;;
    *) [ -z "$errs" ] || fail "'$g' errors: $errs" ;;
  esac
done
[ -n "${UGI[1]:-}" ] && echo "quit" >&"${UGI[1]}"
wait "$ugi_pid" || fail "exit status after quit (limitless go)"

# 4. A huge increment (from 715,827,883 ms up, 3x overflows an int) plans the 25% cap of the
# clock (500 ms of 2 s), not a wrapped-around 1 ms at depth 1: the search runs at least the
# 3/5 of 0.7 x 500 ms after which no new iteration starts, and goes past depth 3.
t0=$(date +%s%N)
out=$(printf 'position startpos\ngo p1time 2000 p2time 2000 p1inc 1000000000 p2inc 715827883\n' |
  timeout 30 "$TOGUZ" ugi)
ms=$((($(date +%s%N) - t0) / 1000000))
last=$(echo "$out" | grep '^info depth ' | tail -1)
depth=$(echo "$last" | sed 's/^info depth \([0-9]*\) .*/\1/')
[ "${depth:-0}" -ge 4 ] && [ "$ms" -ge 200 ] ||
  fail "huge increment: last info '$last' after $ms ms (want depth >= 4, at least 200 ms)"
echo "$out" | grep -qE '^bestmove [1-9]$' || fail "huge increment: no bestmove"

# 5. A refused position leaves no position, as a referee runner sees it (cutegames' generic
# mode sends position + query after each move): gameover ends the game instead of answering
# for the position before, and go answers no move, until a valid position arrives.
out=$(printf '%s\n' "position startpos moves 6" "position startpos moves 6 0000" "query gameover" \
  "query result" "go depth 3" "position startpos moves 6" "query gameover" "query p1turn" |
  timeout 30 "$TOGUZ" ugi)
responses=$(echo "$out" | grep '^response' | tr '\n' ' ')
[ "$responses" = "response true response none response false response false " ] ||
  fail "responses after a refused position: $responses"
echo "$out" | grep -qxF "info string error position: move 2 '0000': not a hole number 1..9 (no position until a valid position command)" ||
  fail "refused position error: $out"
echo "$out" | grep -qxF "info string error go: no position (the last position command was refused); no move" ||
  fail "go without a position: $out"
[ "$(echo "$out" | grep '^bestmove')" = "bestmove 0000" ] || fail "go without a position answers bestmove 0000"

# 6. A result from the endgame tables is a known result: "score mate N" (N plies to the
# position the tables hold), not a centi-stone score of 200 stones. `toguz match` reads it
# as one (its PGN comments mark mates "+M<plies>/<depth>").
tb=$(mktemp -d)
trap 'rm -rf "$tb"' EXIT
"$TOGUZ" tables build --stones 3 --dir "$tb" --position "0,0,0,0,0,0,0,0,1/0,x,0,0,0,0,0,0,1 80 80 w" \
  >/dev/null 2>&1 || fail "tables build"
won="0,0,0,0,0,0,0,1,1/0,x,0,0,0,0,0,0,1 80 79 w"
out=$(printf 'setoption name TablesDir value %s\nposition fen %s\ngo depth 3\nposition fen %s\ngo depth 3\n' \
  "$tb" "$won" "0,0,0,0,0,0,0,1,1/0,x,0,0,0,0,0,0,1 79 80 b" | timeout 30 "$TOGUZ" ugi)
[ "$(echo "$out" | grep -c '^info depth 3 .* score mate 1 .* pv 8$')" = 1 ] || fail "table win as mate 1: $out"
[ "$(echo "$out" | grep -c '^info depth 3 .* score mate -1 .* pv 9$')" = 1 ] || fail "table loss as mate -1: $out"
echo "$out" | grep -q ' score cp ' && fail "a table result as cp: $out"
echo "$won" >"$tb/openings.txt"
"$TOGUZ" match --engine "cmd=$TOGUZ" arg=ugi name=tables "option.TablesDir=$tb" --engine builtin \
  --depth 3 --pairs 1 --openings "$tb/openings.txt" --pgn "$tb/m.pgn" >/dev/null 2>&1 ||
  fail "match with tables exited $?"
# Game 1: the UGI engine is White (a table win, hole 8); game 2: Black (a table loss).
grep -q '^1\. 89 {+M1/3 ' "$tb/m.pgn" && grep -q '^1\. 89 {[^}]*} 91 {-M1/3 ' "$tb/m.pgn" ||
  fail "match PGN shows the UGI engine's table results as +M1/3 and -M1/3: $(cat "$tb/m.pgn")"

# 7. docs/ugi.md agrees with the engine: its option table with the handshake (type, range or
# values, default), its Skill table with the depth each level searches, and what it says of
# case and of Variant resetting the position.
while read -r line; do
  set -- $line
  name=$3 type=$5 def=$7
  shift 7
  case $type in
    spin) want="spin $2..$4" ;;
    combo) vars=$(echo "$*" | sed 's/var //g; s/ /, /g'); want="combo $vars" ;;
    *) want=$type ;;
  esac
  [ "$def" = "<empty>" ] && def='`<empty>`'
  grep -qF "| \`$name\` | $want | $def |" "$DOC" || fail "docs/ugi.md option row for $name: want '| \`$name\` | $want | $def |'"
done < <(printf 'ugi\nquit\n' | "$TOGUZ" ugi | grep '^option ')
depths=$(grep '^| depth |' "$DOC" | tr -d ' ' | tr '|' ' ' | sed 's/^ *depth *//')
[ "$(echo $depths | wc -w)" = 19 ] || fail "docs/ugi.md Skill table: 19 depths, got '$depths'"
script="position startpos"
for l in $(seq 1 19); do script="$script
setoption name Skill value $l
position startpos
go depth 100"; done
got=$(echo "$script" | timeout 60 "$TOGUZ" ugi | awk '/^info depth/ {d = $3} /^bestmove/ {printf "%s ", d}')
[ "$got" = "$(echo $depths) " ] || fail "Skill depths: engine '$got', docs/ugi.md '$(echo $depths) '"
out=$(printf '%s\n' "setoption name VARIANT value KozDatu" "position startpos moves 6" "query p1turn" \
  "setoption name variant value KOZDATU" "query p1turn" "position startpos moves 8" \
  "setoption name playout value TRUE" "setoption name tuz value Off" | timeout 30 "$TOGUZ" ugi)
[ "$(echo "$out" | grep '^response' | tr '\n' ' ')" = "response false response true " ] ||
  fail "case-insensitive Variant, and setting it resets the position: $out"
[ "$(echo "$out" | grep -c '^info string error')" = 1 ] && echo "$out" | grep -qF "not a hole number 1..7" ||
  fail "kozdatu set by 'KozDatu' (hole 8 refused), PlayOut TRUE and Tuz Off taken: $out"
# Every go answers exactly one bestmove, also when searches end at once and the next command is
# already waiting on the input (a read must not flush the output under the search's writes).
gos=8000
got=$(for _ in $(seq $gos); do printf 'position startpos moves 9 6 3\ngo nodes 1\n'; done |
  timeout 120 "$TOGUZ" ugi | grep -c '^bestmove')
[ "$got" = $gos ] || fail "$gos searches of one node: $got bestmove lines"

[ $fails -eq 0 ] && echo "ugi_session: all passed"
exit $fails
