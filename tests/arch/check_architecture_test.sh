#!/usr/bin/env bash
# The architecture check itself: it passes on this tree, and it fails, naming the file and the
# missing row, on a copy of the map with a folder's row removed and on an include its row does
# not allow.
set -euo pipefail
root=${1:?usage: check_architecture_test.sh <repo root>}
check=$root/tests/arch/check_architecture.py
python3 "$check" "$root"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs" "$tmp/src/rules" "$tmp/src/search" "$tmp/src/extra" "$tmp/src/site/games" \
  "$tmp/src/site/lobby"
cat > "$tmp/docs/architecture.md" <<'MD'
| folder | owns | may use |
|---|---|---|
| `src/rules` (`r`) | the rules | the standard library only |
| `src/search` (`s`) | the search | rules |
| `src/site` (`t`) | the kit | rules |
| `src/site/games` | rooms | site |
| `src/site/lobby` | the lobby | site, site/games |
MD
echo '#include "rules/position.h"' > "$tmp/src/search/a.cpp"
echo '#include "search/engine.h"' > "$tmp/src/rules/b.cpp"
echo 'int extra;' > "$tmp/src/extra/c.cpp"
echo '#include "rules/text.h"' > "$tmp/src/site/kit.h"
printf '#include "site/kit.h"\n#include "site/lobby/lobby.h"\n' > "$tmp/src/site/games/room.cpp"
printf '#include "site/kit.h"\n#include "site/games/room.h"\n' > "$tmp/src/site/lobby/lobby.cpp"
if out=$(python3 "$check" "$tmp"); then
  echo "FAIL: the check passed a tree that breaks the map"; exit 1
fi
grep -q 'src/extra: no row' <<<"$out" || { echo "FAIL: missing row not named: $out"; exit 1; }
grep -q 'src/rules/b.cpp:1: includes search/engine.h' <<<"$out" || { echo "FAIL: bad include not named: $out"; exit 1; }
grep -q 'src/site/games/room.cpp:2: includes site/lobby/lobby.h' <<<"$out" ||
  { echo "FAIL: a feature using a later one not named: $out"; exit 1; }
grep -q 'src/search/a.cpp\|src/site/lobby\|room.cpp:1' <<<"$out" &&
  { echo "FAIL: an allowed include was reported: $out"; exit 1; }
echo "architecture check: passes here, fails on a broken map"
