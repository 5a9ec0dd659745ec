#!/usr/bin/env bash
# toguz tournament: a five-player Swiss kept in a state file (players, pairings, results with
# typed moves checked by the referee, standings, crosstable, the HTML page, the TGK file read
# back by toguz convert, the exchange file written and read back), a four-player round robin's crosstable, and the errors.
set -u
toguz="$1"
tests="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.bash"
t() { "$toguz" tournament "$@"; }
ev="$tmp/ev.json"

t new "$ev" --system swiss --rounds 3 --event "Кубок <РК>" --site "Astana, KZ" --date 2026.12.01
check "new: exit status" 0 "$?"
t add "$ev" "Eleusiz, Nurlan" --rating 2200 --title GM &&
  t add "$ev" "Aktayev, Serik" --rating 2100 --id 41007 --federation KAZ &&
  t add "$ev" "Кажгалиев Темірлан" --rating 2050 --title MS &&
  t add "$ev" "Сапарбеков Сәбит" --rating 1990 &&
  t add "$ev" "Smith & Sons"
check "add: exit status" 0 "$?"

out=$(t pair "$ev")
check "round 1: exit status" 0 "$?"
check "round 1: pairings" "Round 1 of 3
Board  White                      Pts  Result  Black                         Pts
    1  GM Eleusiz, Nurlan (2200)    0          MS Кажгалиев Темірлан (2050)    0
    2  Сапарбеков Сәбит (1990)      0          Aktayev, Serik (2100)           0
       Smith & Sons                 0  bye" "$out"

# The master game's moves as typed on the scoresheet; then a typo the referee names.
t result "$ev" 1 1-0 --moves "1. 65 87 2. 55 99 3. 34 35 4. 34 89 5. 91 45 6. 48 92 7. 62 78 8. 91 58 9. 15"
check "moves: exit status" 0 "$?"
err=$(t result "$ev" 2 0-1 --moves "1. 65 87 2. 55 99(12) 3. 34(21)" 2>&1)
check "bad move: exit status" 1 "$?"
check "bad move: message" "toguz tournament: round 1, board 2: move 3 (White), '34(21)': the mover's kazna is 22 after the move, not 21 (expected 34 (22))" "$err"
err=$(t pair "$ev" 2>&1)
check "pair early: exit status" 1 "$?"
check "pair early: message" "toguz tournament: round 1 still has boards without a result" "$err"
t result "$ev" 2 1/2-1/2

out=$(t pair "$ev")
check "round 2: pairings" "Round 2 of 3
Board  White                         Pts  Result  Black                      Pts
    1  Aktayev, Serik (2100)         0.5          GM Eleusiz, Nurlan (2200)    1
    2  Smith & Sons                    1          Сапарбеков Сәбит (1990)    0.5
       MS Кажгалиев Темірлан (2050)    0  bye" "$out"
t result "$ev" 1 0-1 && t result "$ev" 2 1-0f --keep
check "round 2 results: exit status" 0 "$?"
out=$(t pair "$ev")
check "round 3: pairings" "Round 3 of 3
Board  White                         Pts  Result  Black                  Pts
    1  GM Eleusiz, Nurlan (2200)       2          Smith & Sons             2
    2  MS Кажгалиев Темірлан (2050)    1          Aktayev, Serik (2100)  0.5
       Сапарбеков Сәбит (1990)       0.5  bye" "$out"
t result "$ev" 1 1/2 && t result "$ev" 2 0-1
# Worked by hand: Smith & Sons had a bye, a forfeit win and a draw with Eleusiz: Buchholz
# 2.5 + 2.5 + 2.5 (his own score for the two unplayed rounds), cut 1 5, SB 2.5 + 2.5 + 1.25.
out=$(t standings "$ev")
check "standings" "Standings after round 3 of 3
Rank  Name                   Rating  Pts  BH-1   BH    SB  W  DE
   1  Smith & Sons                   2.5     5  7.5  6.25  0   0
   2  GM Eleusiz, Nurlan       2200  2.5     4    5  3.75  2   0
   3  Aktayev, Serik           2100  1.5     4    5  1.75  1   0
   4  Сапарбеков Сәбит         1990  1.5     3  4.5  2.25  0   0
   5  MS Кажгалиев Темірлан    2050    1     4    5     1  0   0

Crosstable
No  Name                Pts  1    2    3
 1  Smith & Sons        2.5  bye  4w+  2b=
 2  Eleusiz, Nurlan     2.5  5w1  3b1  1w=
 3  Aktayev, Serik      1.5  4b=  2w0  5b1
 4  Сапарбеков Сәбит    1.5  3w=  1b-  bye
 5  Кажгалиев Темірлан    1  2b0  bye  3w0" "$out"
out=$(t pairings "$ev" --round 2)
check "pairings of round 2" "Round 2 of 3
Board  White                         Pts  Result  Black                      Pts
    1  Aktayev, Serik (2100)         0.5  0-1     GM Eleusiz, Nurlan (2200)    1
    2  Smith & Sons                    1  +-      Сапарбеков Сәбит (1990)    0.5
       MS Кажгалиев Темірлан (2050)    0  bye" "$out"

# The print-friendly page: every name escaped.
t standings "$ev" --html -o "$tmp/standings.html"
check "html: exit status" 0 "$?"
check "html: names escaped" "2 2 0" "$(grep -c 'Smith &amp; Sons' "$tmp/standings.html") $(grep -c 'Кубок &lt;РК&gt;' "$tmp/standings.html") $(grep -c 'Smith & Sons\|<РК>' "$tmp/standings.html")"
t pairings "$ev" --html | grep -q '<td>Smith &amp; Sons</td>'
check "html pairings: escaped" 0 "$?"

# The event as one TGK file: the federation's tags, and every game replays under the referee.
t export "$ev" -o "$tmp/ev.tgk"
check "export: exit status" 0 "$?"
check "export: first record" '[Event "Кубок <РК>"]
[Site "Astana, KZ"]
[Date "2026.12.01"]
[Round "1"]
[White "Eleusiz, Nurlan"]
[Black "Кажгалиев Темірлан"]
[Result "1-0"]
[WhiteELO "2200"]
[BlackELO "2050"]
[WhiteTitle "GM"]
[BlackTitle "MS"]

1. 65 87
2. 55 99
3. 34 35
4. 34 89
5. 91 45
6. 48 92
7. 62 78
8. 91 58
9. 15' "$(sed -n 1,21p "$tmp/ev.tgk")"
check "export: games" 6 "$(grep -c '^\[Round ' "$tmp/ev.tgk")"
check "export: the federation id" "$(grep -c 'Aktayev' "$tmp/ev.tgk")" "$(grep -c '^\[\(White\|Black\)FedId "41007"\]' "$tmp/ev.tgk")"
check "export: forfeit" 1 "$(grep -c '^\[Termination "forfeit"\]' "$tmp/ev.tgk")"
"$toguz" convert "$tmp/ev.tgk" --to tgk >/dev/null
check "export: the records replay" 0 "$?"

# The exchange file: written, read back into a new state file, the same standings and the
# same file again; a damaged one refused with its line and field.
t trf "$ev" -o "$tmp/ev.trf"
check "trf: exit status" 0 "$?"
check "trf: a player's line" "001    3  MS  Кажгалиев Темірлан                2050" \
  "$(grep -m1 'Кажгалиев' "$tmp/ev.trf" | python3 -c 'import sys; print(sys.stdin.read()[:52])')"
t from-trf "$tmp/ev.trf" "$tmp/back.json"
check "from-trf: exit status" 0 "$?"
check "from-trf: the same standings" "$(t standings "$ev")" "$(t standings "$tmp/back.json")"
check "from-trf: the same file" "$(cat "$tmp/ev.trf")" "$(t trf "$tmp/back.json")"
sed 's/^\(001    2.\{40\}\)..../\1 9x9/' "$tmp/ev.trf" >"$tmp/bad.trf"
check "from-trf: refused" "toguz tournament: $tmp/bad.trf: line 10, rating (columns 49-52): expected a number, found '9x9'" \
  "$(t from-trf "$tmp/bad.trf" "$tmp/bad.json" 2>&1)"

# A round robin of four: Berger pairings and the crosstable by opponent.
rr="$tmp/rr.json"
t new "$rr" --system round-robin --event "Club" --tiebreaks sb,de
for n in Anna Bolat Chen Dana; do t add "$rr" "$n"; done
out=$(t pair "$rr")
check "rr round 1" "Round 1 of 3
Board  White  Pts  Result  Black  Pts
    1  Anna     0          Dana     0
    2  Bolat    0          Chen     0" "$out"
t result "$rr" 1 1-0 && t result "$rr" 2 0-1 && t pair "$rr" >/dev/null &&
  t result "$rr" 1 1/2 && t result "$rr" 2 0-1 && t pair "$rr" >/dev/null &&
  t result "$rr" 1 1-0 && t result "$rr" 2 1-0
check "rr results: exit status" 0 "$?"
out=$(t standings "$rr")
check "rr standings" "Standings after round 3 of 3
Rank  Name   Rating  Pts    SB  DE
   1  Chen           2.5  3.25   0
   2  Bolat            2   1.5   0
   3  Anna             1   0.5   0
   4  Dana           0.5  1.25   0

Crosstable
No  Name   Pts  1  2  3  4
 1  Chen   2.5  x  1  1  =
 2  Bolat    2  0  x  1  1
 3  Anna     1  0  0  x  1
 4  Dana   0.5  =  0  0  x" "$out"
err=$(t pair "$rr" 2>&1)
check "rr over: exit status" 1 "$?"
check "rr over: message" "toguz tournament: every round (3) has been paired" "$err"

# A game the board decided (0-1 at 56-82, a random game of the test data): another result, or a
# move after the end, is refused and the state file is left as it was.
moves=$(head -1 "$tests/data/random-games.jsonl" | sed 's/^{"moves": "\([^"]*\)".*/\1/')
before=$(cat "$rr")
err=$(t result "$rr" 1 1-0 --round 1 --moves "$moves" 2>&1)
check "contradicted result: exit status" 1 "$?"
check "contradicted result: message" "toguz tournament: round 1, board 1: the recorded result 1-0 contradicts the end of the game: decided, 56-82, so 0-1" "$err"
err=$(t result "$rr" 1 0-1 --round 1 --moves "$moves 5" 2>&1)
check "move after the end: message" "toguz tournament: round 1, board 1: move 60 (Black), '5': move after the end of the game (decided after ply 119)" "$err"
check "refused: state unchanged" "$before" "$(cat "$rr")"

# Errors: a state file with a bad field, an unknown board, a bad result, a late entry.
printf '{"format":"toguz-tournament 1","event":"","site":"","date":"","system":"swiss","rounds":3,"tiebreaks":[],"players":[{"name":"A","rating":"high","title":""}],"played":[]}' >"$tmp/bad.json"
err=$(t standings "$tmp/bad.json" 2>&1)
check "bad state: exit status" 1 "$?"
check "bad state: message" "toguz tournament: $tmp/bad.json: players[0].rating: expected an integer from 0 to 9999" "$err"
err=$(t result "$rr" 3 1-0 2>&1)
check "bad board: message" "toguz tournament: board 3: round 3 has boards 1 to 2" "$err"
err=$(t result "$rr" 1 2-0 2>&1)
check "bad result: message" "toguz tournament: result '2-0': expected 1-0, 0-1, 1/2-1/2, 1-0f, 0-1f, 0-0f or *" "$err"
err=$(t add "$rr" Emil 2>&1)
check "late entry: message" "toguz tournament: players are entered before round 1 is paired" "$err"
err=$(t new "$rr" --system swiss --rounds 2 2>&1)
check "new over a file: exit status" 2 "$?"
err=$(t new "$tmp/x.json" --system swiss 2>&1)
check "swiss without rounds: message" "toguz tournament: a Swiss needs --rounds" "$err"
err=$(t new "$tmp/y.json" --system round-robin --rounds 2 2>&1)
check "round robin with rounds: message" "toguz tournament: a round robin has the rounds of its Berger table; --rounds is for a Swiss" "$err"

# Names are cleaned as the server cleans them: bidi controls (RLO, LRI, PDI), zero-width and
# control characters are gone from the state file, the pages and the TGK; a state file edited
# by hand is cleaned when read.
bd="$tmp/bidi.json"
t new "$bd" --system round-robin --event $'Cup\xe2\x80\xae<x>\xe2\x80\x8b' --site $'Astana\x1b[31m'
t add "$bd" $'\xe2\x80\xaeevil\xe2\x81\xa6name\xe2\x81\xa9' --title $'G\xe2\x80\x8dM' && t add "$bd" $'Bo\xe2\x80\x8blat\r\nX'
check "bidi: adds" 0 "$?"
err=$(t add "$bd" $'\xe2\x80\x8b\xe2\x81\xa7' 2>&1)
check "bidi: an invisible name is empty" "toguz tournament: the name is empty" "$err"
t pair "$bd" >/dev/null && t result "$bd" 1 1-0 && t export "$bd" -o "$tmp/bidi.tgk" &&
  t standings "$bd" --html -o "$tmp/bidi.html"
check "bidi: export" 0 "$?"
# Byte strings, so the check needs no UTF-8 locale.
bad=(-e $'\xe2\x80\xae' -e $'\xe2\x81\xa6' -e $'\xe2\x81\xa9' -e $'\xe2\x80\x8b' -e $'\xe2\x80\x8d' -e $'\x1b' -e $'\r')
check "bidi: none left" "0 0 0" "$(grep -cF "${bad[@]}" "$bd") $(grep -cF "${bad[@]}" "$tmp/bidi.tgk") $(grep -cF "${bad[@]}" "$tmp/bidi.html")"
check "bidi: tgk names" '[Event "Cup<x>"]
[Site "Astana[31m"]
[White "evilname"]
[Black "Bolat X"]
[WhiteTitle "GM"]' "$(grep '^\[\(Event\|Site\|White\|Black\|WhiteTitle\) ' "$tmp/bidi.tgk")"
grep -q '<td>GM evilname</td>' "$tmp/bidi.html"
check "bidi: html" 0 "$?"
sed -i $'s/"evilname"/"Eve\xe2\x80\xae\xe2\x80\x8dlyn"/' "$bd"
check "bidi: hand-edited file read clean" "1  Evelyn" "$(t standings "$bd" | grep -o '1  Evelyn')"
# The arbiter's decisions: a requested half-point bye within the limit, a forbidden pair kept
# apart, a forfeit withdrawing the absent player, the settings in the exchange file.
ab="$tmp/arb.json"
t new "$ab" --system swiss --rounds 3 --max-half-byes 1 --accelerated 1 --tiebreaks median,w
for p in Ana Bek Cem Dan Eva Fil; do t add "$ab" "$p" || exit 1; done
t bye "$ab" Ana --round 1 && t forbid "$ab" Bek 3
check "arbiter: bye and forbid" 0 "$?"
err=$(t bye "$ab" Ana --round 2 2>&1)
check "arbiter: over the limit" "toguz tournament: at most 1 half-point byes a player in this event" "$err"
err=$(t bye "$ab" Bek --round 3 2>&1)
check "arbiter: last round" "toguz tournament: no half-point bye in the last round in this event" "$err"
out=$(t pair "$ab")
check "arbiter: the bye in the pairings" 1 "$(grep -c 'Ana .* ½ bye' <<<"$out")"
check "arbiter: forbidden pair apart" 0 "$(grep -c 'Bek.*Cem\|Cem.*Bek' <<<"$out")"
out=$(t result "$ab" 1 1-0f)
check "arbiter: forfeit withdraws" 1 "$(grep -c ': withdrawn (absent' <<<"$out")"
t result "$ab" 2 0-0f --keep
check "arbiter: results" 0 "$?"
check "arbiter: withdrawn in the state" 1 "$(grep -o '"withdrawn":true' "$ab" | wc -l)"
trf=$(t trf "$ab")
check "arbiter: exchange file" "XXT BH-M1 W
XXH 1 0
XXP 2 3" "$(grep '^XX[THWP]' <<<"$trf")"
err=$(t forbid "$rr" 1 2 2>&1)
check "arbiter: round robin refuses forbidden pairs" "toguz tournament: a round robin's table is fixed: it cannot keep two players apart" "$err"
exit $fail
