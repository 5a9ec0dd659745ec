#!/bin/bash
# toguz serve --config FILE (docs/operations.md "Configuration"): the file sets the port and the
# database, the log says which file and values are used (the token masked), the environment
# (TOGUZ_DATABASE_URL) wins over the file and the command line over both, and an unknown key or
# section is refused with its line named. A worker's file is checked the same way.
# Usage: config.sh <toguz> <tests-dir>
set -u
toguz=$1
fail() { echo "FAIL: $*"; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; exit 1; }
command -v python3 >/dev/null || { echo "SKIPPED: no python3"; exit 77; }
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Starts `toguz serve "$@"` in the background and waits (10 s at most) for its "listening" line.
start() {
  "$toguz" serve "$@" >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 100); do
    grep -q "listening on" "$tmp/out" && return 0
    kill -0 "$pid" 2>/dev/null || fail "serve exited: $(cat "$tmp/err")"
    sleep 0.1
  done
  fail "serve did not listen within 10 s: $(cat "$tmp/err")"
}
stop() { kill "$pid"; wait "$pid"; pid=; }

port=$(free_port)
cat >"$tmp/toguz.conf" <<EOF
# the site
port = $port   
; comments either way
[serve]
db = "$tmp/file.db"
workers = 2
no-mining = true
metrics-token = not-in-the-log
smtp-password = nor-this-one
log-format = json
[worker]
threads = 3
EOF

# The file's port and database.
start --config "$tmp/toguz.conf" --studies "" --puzzles ""
grep -q "listening on http://127.0.0.1:$port/" "$tmp/out" || fail "not on port $port: $(cat "$tmp/out")"
[ -f "$tmp/file.db" ] || fail "the file's database was not made"
python3 -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:$port/api/ready').status == 200 else 1)" \
  || fail "not ready on the file's port"
stop
# The log says which file and which values, as JSON lines, the token masked.
grep -q "\"message\":\"configuration: $tmp/toguz.conf\"" "$tmp/err" || fail "no file named: $(cat "$tmp/err")"
grep -q "port = $port (file)" "$tmp/err" || fail "port not logged: $(cat "$tmp/err")"
grep -q "workers = 2 (file)" "$tmp/err" || fail "workers not logged"
grep -q "metrics-token = \*\*\* (file)" "$tmp/err" || fail "token not masked"
grep -q "not-in-the-log" "$tmp/err" && fail "the token is in the log"
grep -q "smtp-password = \*\*\* (file)" "$tmp/err" || fail "SMTP password not masked"
grep -q "nor-this-one" "$tmp/err" && fail "the SMTP password is in the log"

# The environment wins over the file; the command line over both.
TOGUZ_DATABASE_URL="$tmp/env.db" start --config "$tmp/toguz.conf" --studies "" --puzzles ""
stop
[ -f "$tmp/env.db" ] || fail "TOGUZ_DATABASE_URL did not win over the file"
port2=$(free_port)
TOGUZ_DATABASE_URL="$tmp/env.db" start --config "$tmp/toguz.conf" --port "$port2" --db "$tmp/cmd.db" --studies "" --puzzles ""
grep -q "listening on http://127.0.0.1:$port2/" "$tmp/out" || fail "--port did not win over the file"
stop
[ -f "$tmp/cmd.db" ] || fail "--db did not win over the environment"

# An unknown key is refused with its line; so is an unknown section, and a value its option
# refuses.
# refused CONTENT EXPECTED [COMMAND]: `toguz COMMAND --config F` (serve by default) with F
# holding CONTENT exits non-zero saying EXPECTED, F standing for the file's path.
refused() {
  printf "$1" >"$tmp/bad.conf"
  local out
  out=$("$toguz" "${3:-serve}" --config "$tmp/bad.conf" 2>&1) && fail "taken: $1"
  [[ "$out" == *"${2//F/$tmp/bad.conf}"* ]] || fail "for '$1' expected '$2', got: $out"
}
refused '[serve]\nport = 8080\ncolour = white\n' "F:3: unknown key 'colour' in [serve]"
refused 'port = 8080\n[serv]\n' "F:2: unknown section [serv]"
refused '[worker]\nthreads = 3\nport = 1\n' "F:3: unknown key 'port' in [worker]"
refused 'workers = 999\n' "F:1: workers = 999"
refused 'port = 1\nport = 2\n' "F:2: 'port' given twice"
refused 'just words\n' "F:1: expected key = value"
refused '[serve]\ncolour = white\n' "F:2: unknown key 'colour' in [serve]" worker
echo "config: all passed"
