#!/bin/bash
# toguz match driven from the command line: the built `toguz ugi` as an external engine,
# a misbehaving engine that must lose by forfeit, resume after an interruption, SPRT stop,
# PGN output, and clear errors. Usage: match.sh <toguz> <tests-dir>
set -u
TOGUZ=$1
DATA=$2/data/match
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
check() {  # check NAME CONDITION-COMMAND...
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
has() { grep -q -- "$2" "$1"; }

# 1. The builtin engine against `toguz ugi` over pipes: fixed nodes, so every game is decided
#    on the board (no forfeit) and the summary is complete.
"$TOGUZ" match --engine builtin option.Hash=8 --engine "cmd=$TOGUZ" arg=ugi name=ugi-engine option.Hash=8 \
  --nodes 300 --pairs 2 --openings "$DATA/openings.txt" --json >"$TMP/ugi.json" 2>"$TMP/ugi.err"
check "ugi match exits 0" test $? -eq 0
check "ugi match: 4 games" has "$TMP/ugi.json" '"games":4,'
check "ugi match: no forfeits" has "$TMP/ugi.json" '"forfeits":{"engine1":{},"engine2":{}}'
check "ugi match: complete" has "$TMP/ugi.json" '"complete":true'
check "ugi match: engine names" has "$TMP/ugi.json" '"engines":\["builtin","ugi-engine"\]'
check "progress: a plain line per pair" test "$(grep -c '^pair ' "$TMP/ugi.err")" -eq 2

# 2. The same engine (same nodes) through UGI and in-process: every pair is split 1-1.
check "ugi vs builtin at equal nodes: pentanomial 0,0,2,0,0" has "$TMP/ugi.json" '"pentanomial":\[0,0,2,0,0\]'

# 3. An engine that answers the handshake, then plays hole 10: it loses every game by forfeit,
#    and the record says so.
"$TOGUZ" match --engine builtin --engine cmd=sh "arg=$DATA/ugi-illegal.sh" --nodes 200 --pairs 1 \
  --openings "$DATA/openings.txt" --pgn "$TMP/illegal.pgn" >"$TMP/illegal.out" 2>&1
check "illegal: exits 0" test $? -eq 0
check "illegal: 2-0" has "$TMP/illegal.out" 'Score of builtin vs illegal-mover: 2 - 0 - 0'
check "illegal: forfeits counted" has "$TMP/illegal.out" 'Forfeits by illegal-mover: illegal move 2'
check "illegal: PGN termination" test "$(grep -c '\[Termination "illegal move"\]' "$TMP/illegal.pgn")" -eq 2
check "illegal: PGN detail" has "$TMP/illegal.pgn" "TerminationDetails \"illegal-mover: bestmove '10'"

# 4. An engine that exits when asked to move loses by crash.
"$TOGUZ" match --engine builtin --engine cmd=sh "arg=$DATA/ugi-exit.sh" --nodes 200 --pairs 1 \
  --openings "$DATA/openings.txt" --json >"$TMP/crash.json" 2>/dev/null
check "crash: recorded" has "$TMP/crash.json" '"engine2":{"crash":2}'
check "crash: wdl" has "$TMP/crash.json" '"wdl":\[2,0,0\]'

# 5. Resume: 3 pairs played as 1 + 2 runs give the totals of one uninterrupted run.
args=(--engine builtin --engine builtin skill=0 --nodes 200 --pairs 3 --seed 7 --plies 4 --balance-depth 2)
"$TOGUZ" match "${args[@]}" --json >"$TMP/full.json" 2>/dev/null
"$TOGUZ" match "${args[@]}" --resume "$TMP/state.json" --max-pairs 1 --json >"$TMP/part.json" 2>/dev/null
check "resume: first run stops after 1 pair" has "$TMP/part.json" '"pairs":1,'
check "resume: first run incomplete" has "$TMP/part.json" '"complete":false'
"$TOGUZ" match --resume "$TMP/state.json" --json >"$TMP/rest.json" 2>/dev/null
check "resume: same totals as one run" diff "$TMP/full.json" "$TMP/rest.json"
"$TOGUZ" match --engine builtin --engine builtin --nodes 999 --resume "$TMP/state.json" \
  >/dev/null 2>"$TMP/other.err"
check "resume: other settings refused" test $? -ne 0
check "resume: says why" has "$TMP/other.err" 'has other settings than this command line'

# 6. SPRT stops early: the engine against a random mover is accepted as stronger.
"$TOGUZ" match --engine builtin --engine builtin skill=0 --nodes 200 --pairs 100 --plies 4 \
  --balance-depth 2 --sprt elo0=0 elo1=50 --json >"$TMP/sprt.json" 2>/dev/null
check "sprt: H1" has "$TMP/sprt.json" '"sprt":"H1"'
check "sprt: stopped early" bash -c "! grep -q '\"games\":200,' '$TMP/sprt.json'"

# 7. Errors are named and exit non-zero.
"$TOGUZ" match --engine builtin --nodes 10 >/dev/null 2>"$TMP/e1"
check "one engine: exit non-zero" test $? -ne 0
check "one engine: message" has "$TMP/e1" 'expected exactly two --engine, got 1'
"$TOGUZ" match --engine builtin --engine builtin depth=x --nodes 10 >/dev/null 2>"$TMP/e2"
check "bad key: message" has "$TMP/e2" "'depth=x': expected depth=D"
"$TOGUZ" match --engine builtin --engine cmd=sh "arg=$DATA/ugi-no-handshake.sh" --nodes 10 \
  --handshake-ms 200 --openings "$DATA/openings.txt" >/dev/null 2>"$TMP/e3"
check "no handshake: exit non-zero" test $? -ne 0
check "no handshake: message" has "$TMP/e3" 'no ugiok within 200 ms'

exit $fails
