#!/bin/bash
# toguz analyze: the JSON shape (checked with a JSON parser), multi-PV, a finished position, a
# proven endgame, --moves tokens and a bad token. Usage: analyze.sh <toguz> <tests-dir>
set -u
toguz=$1
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3

# Shape: exact keys in order, types, and multipv 3 gives 3 lines with distinct first moves.
out=$("$toguz" analyze --depth 6 --multipv 3 --json) || fail "analyze --json exited $?"
"$py" - "$out" <<'PY' || fail "json: $out"
import json, sys
d = json.loads(sys.argv[1])
assert list(d) == ["depth", "seldepth", "nodes", "nps", "time_ms", "bestmove", "lines"], list(d)
assert d["depth"] == 6 and d["seldepth"] >= 6 and d["nodes"] > 0, d
assert d["bestmove"] in range(1, 10), d
lines = d["lines"]
assert len(lines) == 3, lines
# docs/web-protocol.md "Scores and lines", then the earlier names kept for one release.
for rank, l in enumerate(lines, 1):
    assert list(l) == ["multipv", "depth", "seldepth", "nodes", "pv", "pv_notation", "score",
                       "score_cp", "proven"], l
    assert l["multipv"] == rank and l["depth"] == 6 and l["nodes"] > 0, l
    s = l["score"]
    assert list(s) == ["cp", "white_cp", "proven", "table", "wdl"], s
    assert len(s["wdl"]) == 3 and sum(s["wdl"]) == 1000, s
    assert isinstance(s["cp"], int) and s["white_cp"] == s["cp"], s  # White to move
    assert s["proven"] is None and s["table"] is None, s
    assert l["score_cp"] == s["cp"] and l["proven"] is None, l
    assert len(l["pv"]) >= 1 and all(h in range(1, 10) for h in l["pv"]), l
    assert len(l["pv_notation"]) == len(l["pv"]) and l["pv_notation"][0][0] == str(l["pv"][0]), l
assert len({l["pv"][0] for l in lines}) == 3, lines
assert lines[0]["pv"][0] == d["bestmove"], d
assert lines[0]["score"]["cp"] >= lines[1]["score"]["cp"] >= lines[2]["score"]["cp"], lines
PY

# Text: ranked lines in notation with score and depth.
out=$("$toguz" analyze --depth 4 --multipv 2) || fail "analyze text exited $?"
grep -q "^White to move" <<<"$out" || fail "text header: $out"
grep -Eq "^1\. [+-][0-9]+\.[0-9]{2}  depth 4  [1-9][0-9]" <<<"$out" || fail "text line 1: $out"
grep -Eq "^2\. " <<<"$out" || fail "text line 2: $out"

# A finished position (White has 82): no move, a proven result with its margin.
out=$("$toguz" analyze --position "0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,0,1 82 78 w" --json --depth 3) \
  || fail "finished exited $?"
"$py" - "$out" <<'PY' || fail "finished json: $out"
import json, sys
d = json.loads(sys.argv[1])
assert d["bestmove"] is None, d
l = d["lines"][0]
assert l["score"]["proven"] == {"result": "win", "margin": 4, "plies": 0}, l
assert l["score_cp"] is None and l["proven"] == l["score"]["proven"], l
assert l["pv"] == [] and l["pv_notation"] == [], l
PY

# A proven endgame: study 1 (White wins) at depth 20.
study1="0,0,0,1,x,1,3,2,1/0,0,2,2,0,0,0,0,0 78 72 w 40"
out=$("$toguz" analyze --position "$study1" --depth 20 --json) || fail "study 1 exited $?"
"$py" - "$out" <<'PY' || fail "study 1: $out"
import json, sys
d = json.loads(sys.argv[1])
l = d["lines"][0]
p = l["score"]["proven"]
assert p["result"] == "win" and p["plies"] > 0 and p["margin"] is None, l
assert l["score"]["cp"] == 31000 - p["plies"] == l["score"]["white_cp"], l
assert l["score_cp"] is None and l["proven"] == p, l
PY

# --moves: holes and notation tokens give the same position; Black to move after one move.
a=$("$toguz" analyze --moves 7 --depth 3 --json | sed 's/,"nodes".*//') || fail "--moves hole"
b=$("$toguz" analyze --moves 76 --depth 3 --json | sed 's/,"nodes".*//') || fail "--moves token"
[ "$a" = "$b" ] && [ -n "$a" ] || fail "hole vs token: '$a' vs '$b'"
"$toguz" analyze --moves 7 --depth 2 | grep -q "^Black to move" || fail "Black to move after --moves 7"

# A bad token: a clear error naming it, non-zero exit.
for bad in 75 zz 0; do
  err=$("$toguz" analyze --moves 7 "$bad" --depth 2 2>&1 >/dev/null)
  rc=$?
  [ $rc -ne 0 ] || fail "bad token '$bad' accepted"
  grep -q "toguz analyze: --moves token 2 '$bad'" <<<"$err" || fail "bad token '$bad' message: $err"
done
echo ok
