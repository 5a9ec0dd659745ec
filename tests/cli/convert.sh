#!/usr/bin/env bash
# toguz convert: PlayOK PGN -> TGK -> PlayOK PGN (golden), bare move lists, and a file with a bad
# game (exit status 1, the error named, nothing written).
set -u
toguz="$1"
tests="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.bash"
tags='[Event "Kazakhstan"]
[Site "Aktau"]
[Date "2006"]
[White "Eleusiz, Nurlan"]
[Black "Aktayev, Serik"]
[Result "1-0"]
'
tgk="$tags
1. 65 87
2. 55 99
3. 34 35
4. 34 89
5. 91 45
6. 48 92
7. 62 78
8. 91 58
9. 15"
pgn="$tags
1. 65(10) 87 2. 55 99(12) 3. 34(22) 35(16) 4. 34 89 5. 91
45 6. 48(24) 92 7. 62(38) 78(32) 8. 91(54) 58 9. 15(56) 1-0"

"$toguz" convert "$tests/data/master-game.pgn" --to tgk -o "$tmp/master.tgk"
check "to tgk: exit status" 0 "$?"
check "to tgk: text" "$tgk" "$(cat "$tmp/master.tgk")"
out=$("$toguz" convert "$tmp/master.tgk" --to pgn)
check "back to pgn: exit status" 0 "$?"
check "back to pgn: text" "$pgn" "$out"

# CRLF input from standard input, and bare move lists.
out=$(printf '6 4\r\n9\r\n' | "$toguz" convert - --to pgn)
check "moves: text" '[Result "*"]

1. 65(10) 44(10) *

[Result "*"]

1. 98(10) *' "$out"

# A bad game: every error named, nothing written, exit status 1.
err=$("$toguz" convert "$tests/data/cli/replay-games.pgn" --to tgk -o "$tmp/bad.tgk" 2>&1)
check "bad: exit status" 1 "$?"
check "bad: message" "toguz convert: $tests/data/cli/replay-games.pgn: game 4, line 59: ply 15, token '91(55)': the mover's kazna is 54 after the move, not 55 (expected 91 (54))
toguz convert: 1 of 4 games are bad; nothing written" "$err"
check "bad: nothing written" no "$([[ -e "$tmp/bad.tgk" ]] && echo yes || echo no)"

# Zero-move games (forfeits before the first move) stay games of their own through TGK.
zero='[Event "forfeit"]
[Result "1-0"]

1-0

[Event "played"]
[Result "0-1"]

1. 76(10) 98 0-1'
echo "$zero" > "$tmp/zero.pgn"
out=$("$toguz" convert "$tmp/zero.pgn" --to tgk)
check "zero to tgk: text" '[Event "forfeit"]
[Result "1-0"]

1-0

[Event "played"]
[Result "0-1"]

1. 76 98' "$out"
check "zero back to pgn: text" "$zero" "$(echo "$out" | "$toguz" convert - --to pgn)"

# The same messages as replay: input that is not a record, a truncated last game (--strict).
err=$(printf '<html><body>x</body></html>' | "$toguz" convert - --to pgn 2>&1)
check "html: exit status" 1 "$?"
check "html: message" "toguz convert: -: not a game record: an HTML page; save the PGN or TGK text itself, not the web page around it" "$err"
err=$(printf '[Event "a"]\n\n1. 65 87 2. 55' | "$toguz" convert - --to tgk --strict 2>&1)
check "truncated --strict: exit status" 1 "$?"
check "truncated --strict: message" "toguz convert: -: game 1, line 3: ply 3, token '55': the input ends inside the game's moves, with no result token and the game not over on the board: the record looks truncated (expected 1-0, 0-1, 1/2-1/2 or * after the moves)
toguz convert: 1 of 1 games are bad; nothing written" "$err"

# Usage errors: --to is required and checked.
"$toguz" convert "$tests/data/master-game.pgn" >/dev/null 2>&1
check "no --to: exit status" 1 $(( $? != 0 ))
"$toguz" convert "$tests/data/master-game.pgn" --to xml >/dev/null 2>&1
check "bad --to: exit status" 1 $(( $? != 0 ))
exit $fail
