# `toguz show`: the drawing, --seat, --svg, and bad positions refused with the field named.
# Usage: bash show.sh <path-to-toguz> <tests-dir>
set -u
TOGUZ=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

out=$("$TOGUZ" show --position "9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1" --seat black) || fail "show exit status"
expected='9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1
      9     8     7     6     5     4     3     2     1
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |  10 |  10 |  10 |   1 |   9 |   9 |   9 |   9 |   9 |  White  kazna  10
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
  |  10 |  10 |  10 |  10 |   0 |   9 |   9 |   9 |   9 |  Black  kazna   0  <- to move
  +-----+-----+-----+-----+-----+-----+-----+-----+-----+
      1     2     3     4     5     6     7     8     9'
[ "$out" = "$expected" ] || fail "drawing from Black's seat:
$out"

# Default: the variant's start.
"$TOGUZ" show --variant kozdatu | grep -qF "|   7 |   7 |   7 |   7 |   7 |   7 |   7 |  White  kazna   0  <- to move" ||
  fail "kozdatu start"

# --svg writes a complete document.
"$TOGUZ" show --position "12,0,3,1,x,9,20,1,2/9,0,x,15,4,9,9,13,0 37 18 b 14" --svg "$work/b.svg" >/dev/null ||
  fail "--svg exit status"
head -c 4 "$work/b.svg" | grep -qF "<svg" || fail "svg start"
tail -n 1 "$work/b.svg" | grep -qxF "</svg>" || fail "svg end"
grep -qF "Black to move" "$work/b.svg" || fail "svg caption"

# Bad positions: non-zero exit, message naming the field.
check_bad() {  # position, expected message part, [extra args]
  local pos=$1 msg=$2
  shift 2
  if "$TOGUZ" show --position "$pos" "$@" >/dev/null 2>"$work/err"; then
    fail "accepted bad position '$pos'"
  elif ! grep -qF -- "$msg" "$work/err"; then
    fail "message for '$pos': got '$(cat "$work/err")', expected '$msg'"
  fi
}
check_bad "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 g" "side: expected 'w' or 'b', got 'g'"
check_bad "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 q w" "Black kazna: expected a number, got 'q'"
check_bad "9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w" "White holes: expected 9, 7 or 5 comma-separated counts, got 8"
check_bad "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 1 0 w" "stones sum to 163, expected 162"
check_bad "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w" "variant kozdatu has rows of 7 holes" --variant kozdatu
check_bad "5,5,5,5,x/5,5,5,5,5 5 0 w" "White holes: 'x' (a tuz) but tuz is off in bestemshi rules"

if [ $fails -ne 0 ]; then echo "$fails check(s) failed"; exit 1; fi
echo "show: all checks passed"
