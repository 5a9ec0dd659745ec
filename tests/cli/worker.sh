#!/bin/bash
# toguz worker (docs/cluster.md): against a redis-server of its own, an engine-move job and a
# review job come back legal and complete; a worker killed (-9) in the middle of a review
# leaves the job to a second worker, which completes it; a worker serves again after Redis
# restarted empty; a job longer than the idle time stays with its live worker; SIGTERM stops a worker cleanly; a Redis that is not there is a clear error.
# Usage: worker.sh <toguz> <tests-dir>
set -u
toguz=$1
tests=$2
fail() {
  echo "FAIL: $*"
  for f in "$tmp"/*.log; do echo "--- $f"; tail -20 "$f"; done
  exit 1
}
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! command -v redis-server >/dev/null; then
  [ "${TOGUZ_SKIP_REDIS:-}" = 1 ] && { echo "SKIPPED: no redis-server (TOGUZ_SKIP_REDIS=1)"; exit 77; }
  echo "FAIL: redis-server is not on PATH: run scripts/install-deps (it installs redis-server) or set TOGUZ_SKIP_REDIS=1"
  exit 1
fi
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { "$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Not there: a clear error, exit 1.
port=$(free_port)
out=$("$toguz" worker --redis "redis://127.0.0.1:$port" 2>&1) && fail "worker without redis exited 0"
# (the settings it starts with come first, one line each)
[ "$(tail -n 1 <<<"$out")" = "toguz worker: redis at 127.0.0.1:$port/0: Connection refused" ] || fail "no-redis message: $out"

rc() { redis-cli -p "$port" "$@"; }
# Another test may take the same free port first: then try another.
for _ in 1 2 3 4 5; do
  port=$(free_port)
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" \
    --logfile "$tmp/redis.log" &
  redis=$!
  for _ in $(seq 200); do
    [ "$(rc ping 2>/dev/null)" = PONG ] && break
    kill -0 "$redis" 2>/dev/null || break
    sleep 0.05
  done
  kill -0 "$redis" 2>/dev/null && [ "$(rc ping 2>/dev/null)" = PONG ] && break
done
pids+=($redis)
[ "$(rc ping)" = PONG ] || fail "redis-server did not start"
url="redis://127.0.0.1:$port"
results=toguz:results:clitest

submit() { rc XADD toguz:jobs '*' job "$1" >/dev/null || fail "XADD $1"; }
# The final result of job $1 (waits up to $2 seconds).
wait_result() {
  local deadline=$((SECONDS + $2)) line
  while [ $SECONDS -lt $deadline ]; do
    line=$(rc --raw XRANGE "$results" - + | grep -F "{\"job\":\"$1\"," | grep -F '"done":true' | head -1)
    [ -n "$line" ] && { echo "$line"; return 0; }
    sleep 0.1
  done
  return 1
}

# The master game of tests/data: its holes and the position after it.
read -r holes position < <("$py" - "$tests/data/master-game.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(json.dumps([int(m[0]) for m in d["moves"]]).replace(" ", ""), d["positions_after_each_ply"][-1])
PY
)
plies=$("$py" -c "import json,sys; print(len(json.loads(sys.argv[1])))" "$holes")

"$toguz" worker --redis "$url" --threads 2 --claim-idle-ms 1500 2>"$tmp/a.log" &
a=$!
pids+=($a)

# An engine move from the position the master game reached, and a review of that game.
submit "{\"id\":\"m1\",\"kind\":\"move\",\"game\":\"g1\",\"generation\":$plies,\"reply\":\"$results\",\"start\":\"$position\",\"limits\":{\"depth\":6,\"level\":20}}"
submit "{\"id\":\"r1\",\"kind\":\"review\",\"game\":\"g1\",\"generation\":$plies,\"reply\":\"$results\",\"moves\":$holes,\"limits\":{\"nodes\":3000}}"
move=$(wait_result m1 60) || fail "no result for the move job"
review=$(wait_result r1 60) || fail "no result for the review job"
"$py" - "$move" "$position" "$plies" <<'PY' || fail "move result: $move"
import json, sys
r = json.loads(sys.argv[1])
assert r["kind"] == "move" and r["game"] == "g1" and r["generation"] == int(sys.argv[3]), r
assert "error" not in r, r
hole = r["analysis"]["bestmove"]
rows, _, _, side = sys.argv[2].split()[:4]
row = rows.split("/")[0 if side == "w" else 1].split(",")
assert hole in range(1, len(row) + 1) and row[hole - 1] not in ("0", "x", "X"), (hole, row)
assert r["analysis"]["depth"] == 6 and r["analysis"]["lines"][0]["pv"][0] == hole, r
assert r["resign"] in (True, False) and r["accepts_draw"] in (True, False), r
PY
"$py" - "$review" "$holes" <<'PY' || fail "review result: $review"
import json, sys
r = json.loads(sys.argv[1])
holes = json.loads(sys.argv[2])
moves = r["review"]["moves"]
assert [m["hole"] for m in moves] == holes, moves
assert [m["ply"] for m in moves] == list(range(1, len(holes) + 1)), moves
p = r["review"]["players"]
assert p["white"]["moves"] + p["black"]["moves"] == len(holes), p
PY
[ "$(rc XPENDING toguz:jobs workers | head -1)" = 0 ] || fail "jobs left pending: $(rc XPENDING toguz:jobs workers)"
grep -q "job .* m1 (move, game g1 generation $plies): done in" "$tmp/a.log" || fail "log line for m1"

# A long review (streamed, so its progress shows the worker is in the middle of it); the
# worker is killed with -9 then: a second worker takes the job over after the idle time.
kill -TERM "$a"
wait "$a" || fail "worker exit status $? after SIGTERM"
grep -q "SIGTERM, stopping" "$tmp/a.log" || fail "no stop line"
"$toguz" worker --redis "$url" --claim-idle-ms 1500 2>"$tmp/b.log" &
b=$!
pids+=($b)
submit "{\"id\":\"r2\",\"kind\":\"review\",\"game\":\"g2\",\"generation\":1,\"reply\":\"$results\",\"moves\":$holes,\"stream\":true,\"limits\":{\"nodes\":150000}}"
for _ in $(seq 600); do
  rc --raw XRANGE "$results" - + | grep -F '{"job":"r2",' | grep -qF '"done":false' && break
  sleep 0.05
done
rc --raw XRANGE "$results" - + | grep -F '{"job":"r2",' | grep -qF '"done":false' ||
  fail "no progress of r2"
rc --raw XRANGE "$results" - + | grep -F '{"job":"r2",' | grep -qF '"done":true' &&
  fail "r2 finished before the kill: make the review longer"
kill -9 "$b"
wait "$b" 2>/dev/null
"$toguz" worker --redis "$url" --claim-idle-ms 1500 2>"$tmp/c.log" &
c=$!
pids+=($c)
review=$(wait_result r2 300) || fail "no result for r2 after the kill"
"$py" - "$review" "$holes" "$c" <<'PY' || fail "taken-over review: $review"
import json, sys
r = json.loads(sys.argv[1])
holes = json.loads(sys.argv[2])
assert [m["hole"] for m in r["review"]["moves"]] == holes, r
assert r["worker"].endswith("-%s-0" % sys.argv[3]), r["worker"]
PY
grep -q "job .* r2 (review, game g2 generation 1, delivery 2): done in" "$tmp/c.log" ||
  fail "no takeover line in the second worker's log"
[ "$(rc XPENDING toguz:jobs workers | head -1)" = 0 ] || fail "r2 left pending"
# Redis restarts empty: the worker reconnects, makes the group again and serves the next job.
kill -9 "$redis"
wait "$redis" 2>/dev/null
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp" \
  --logfile "$tmp/redis.log" &
redis=$!
pids+=($redis)
for _ in $(seq 200); do [ "$(rc ping 2>/dev/null)" = PONG ] && break; sleep 0.05; done
submit "{\"id\":\"m2\",\"kind\":\"move\",\"game\":\"g3\",\"generation\":0,\"reply\":\"$results\",\"limits\":{\"depth\":2}}"
wait_result m2 60 >/dev/null || fail "no result for m2 after Redis restarted"
# A job that runs longer than the idle time is kept fresh by its worker: a second live worker
# never takes it over.
"$toguz" worker --redis "$url" --claim-idle-ms 1000 2>"$tmp/d.log" &
d=$!
pids+=($d)
submit "{\"id\":\"r3\",\"kind\":\"review\",\"game\":\"g4\",\"generation\":1,\"reply\":\"$results\",\"moves\":$holes,\"limits\":{\"nodes\":2000000}}"
wait_result r3 300 >/dev/null || fail "no result for r3"
grep -h "r3 (review" "$tmp/c.log" "$tmp/d.log" | grep -q "done in [0-9]\{4,\} ms" ||
  fail "r3 took under a second: make it longer"
grep -h "r3 (review" "$tmp/c.log" "$tmp/d.log" | grep -q "delivery" && fail "r3 was taken over"
[ "$(rc --raw XRANGE "$results" - + | grep -cF '{"job":"r3",')" = 1 ] || fail "r3 answered twice"
for p in "$c" "$d"; do
  kill -TERM "$p"
  wait "$p" || fail "worker exit status $? after SIGTERM"
done
exit 0
