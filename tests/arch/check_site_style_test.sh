#!/usr/bin/env bash
# The site's style check itself: it passes on this tree; on a fabricated tree it names a
# function body over 80 lines (free, out-of-class member, inline in a class) and a state
# compared with a string literal, and passes what is not one: long namespace, class and
# initializer bodies, braces inside literals and comments, a message's type compared with a
# literal, and folders outside the site's.
set -euo pipefail
root=${1:?usage: check_site_style_test.sh <repo root>}
check=$root/tests/arch/check_site_style.py
python3 "$check" "$root"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/site/games" "$tmp/src/net" "$tmp/src/rules"

# $1 lines of `x += N;`, one statement a line.
statements() { for ((i = 0; i < $1; i++)); do echo "  x += $i;"; done; }

{
  echo 'namespace toguz::site {'
  echo 'int too_long(int x) {'          # line 2: 90 lines from { to }
  statements 88
  echo '}'
  echo 'int just_fits(int x) {'         # line 92: 80 lines
  statements 78
  echo '}'
  echo '}  // namespace toguz::site'
} > "$tmp/src/site/long.cpp"

{
  echo 'void Room::play(int x) {'       # line 1: 85 lines, braces in literals and comments
  echo '  const char* s = "}}}"; char c = '"'"'}'"'"'; // }'
  echo '  /* } } */ auto f = [&] {'
  statements 40
  echo '  };'
  echo '  const char* r = R"(})";'
  statements 39
  echo '}'
} > "$tmp/src/site/games/room.cpp"

{
  echo 'struct Table {'
  echo '  int rows[100] = {'            # an initializer, not a function
  for ((i = 0; i < 100; i++)); do echo "    $i,"; done
  echo '  };'
  echo '  int inline_long(int x) const {'  # line 104: 82 lines
  statements 80
  echo '  }'
  echo '};'
} > "$tmp/src/net/table.h"

cat > "$tmp/src/site/games/states.cpp" <<'CPP'
bool playing(const Room& room, const std::string& state) {
  if (state == "playing") return true;
  if ("over" != room->status) return false;
  if (room.game_phase() == "opening") return true;
  if (msg.at("mode") == "online") return true;
  const std::string type = text_of(msg, "type");
  if (type == "move") return true;
  return std::string(room.result) == "draw";
}
CPP

{
  echo 'int rules_may_be_long(int x) {'  # not a site folder
  statements 100
  echo '}'
} > "$tmp/src/rules/rules.cpp"

if out=$(python3 "$check" "$tmp"); then
  echo "FAIL: the check passed a tree with long functions and states compared with strings"
  exit 1
fi
expect() { grep -qF -- "$1" <<<"$out" || { echo "FAIL: not reported: $1"; echo "$out"; exit 1; }; }
expect 'src/site/long.cpp:2: function too_long has a body of 90 lines'
expect 'src/site/games/room.cpp:1: function Room::play has a body of 85 lines'
expect 'src/net/table.h:104: function inline_long has a body of 82 lines'
expect 'src/site/games/states.cpp:2: state `state` compared with the string "playing"'
expect 'src/site/games/states.cpp:3: state `room -> status` compared with the string "over"'
expect 'src/site/games/states.cpp:4: state `room . game_phase ( )`'
expect 'src/site/games/states.cpp:5: state `msg . at ( "mode" )`'
expect 'src/site/games/states.cpp:8: state `std :: string ( room . result )`'
expect 'site style: 4 files, 8 offences'
if grep -E 'just_fits|Table|rules\.cpp|lambda|states\.cpp:7' <<<"$out"; then
  echo "FAIL: something that keeps the rules was reported"; echo "$out"; exit 1
fi
echo "site style check: passes here, fails on long functions and states compared with strings"
