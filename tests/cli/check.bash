# Sourced by the CLI test scripts: check NAME EXPECTED ACTUAL prints a diff and sets fail=1 when
# the two differ.
fail=0
check() {  # name expected actual
  if [[ "$2" != "$3" ]]; then
    echo "FAIL $1"
    diff <(echo "$2") <(echo "$3")
    fail=1
  fi
}
