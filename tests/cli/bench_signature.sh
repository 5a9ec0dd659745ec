# `toguz bench`: the node count of the fixed search workload equals the signature kept in
# bench/bench-signature.txt. A change to the search's behaviour changes the count: update the
# file with the new number and end the commit message with "Bench: N".
# Usage: bash bench_signature.sh <path-to-toguz> <tests-dir>
set -u
TOGUZ=$1
TESTS=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

expected=$(tr -d ' \r\n' < "$TESTS/../bench/bench-signature.txt")
out=$("$TOGUZ" bench) || fail "bench exit status"
got=$(echo "$out" | sed -n 's/^Nodes searched: \([0-9]*\)$/\1/p')
[ -n "$got" ] || fail "no 'Nodes searched: N' line in:
$out"
echo "$out" | grep -qE '^Nodes/second: [0-9]+$' || fail "no 'Nodes/second: R' line"
[ "$got" = "$expected" ] || fail "bench signature: got $got, expected $expected (bench/bench-signature.txt)"

# The same workload twice gives the same count (the search is deterministic).
again=$("$TOGUZ" bench --depth 6 | sed -n 's/^Nodes searched: //p')
again2=$("$TOGUZ" bench --depth 6 | sed -n 's/^Nodes searched: //p')
[ -n "$again" ] && [ "$again" = "$again2" ] || fail "bench --depth 6 not reproducible: $again vs $again2"

# Bad arguments are refused with a non-zero status.
"$TOGUZ" bench --depth 0 >/dev/null 2>&1 && fail "--depth 0 accepted"

[ $fails -eq 0 ] && echo "bench_signature: all passed ($got nodes)"
exit $fails
