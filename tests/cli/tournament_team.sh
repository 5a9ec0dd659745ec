#!/usr/bin/env bash
# toguz tournament team: a three-team round robin on two boards kept in a state file (teams and
# rosters, a captain's lineup with a reserve, a short lineup whose empty board is a forfeit,
# results with typed moves, standings, board prizes, the TGK file), its games rated by
# `toguz ratings compute` with the changes worked out below, its exchange file (TRF) imported
# back, and the errors.
set -u
toguz="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.bash"
t() { "$toguz" tournament team "$@"; }
ev="$tmp/team.json"

t new "$ev" --system round-robin --boards 2 --event "Кубок <команд>" --date 2026.12.01
check "new: exit status" 0 "$?"
t add-team "$ev" Astana && t add-team "$ev" "Almaty & Co" && t add-team "$ev" Shymkent &&
  t add "$ev" Astana "Eleusiz Nurlan" --rating 2100 --title MS &&
  t add "$ev" 1 "Aktayev Serik" --rating 2000 &&
  t add "$ev" 1 "Reserve Astana" --rating 1900 &&
  t add "$ev" 2 "Бекет Арман" --rating 2050 && t add "$ev" 2 "Кали Айдана" --rating 1950 &&
  t add "$ev" 3 "Сапарбеков Сәбит" --rating 2000 && t add "$ev" 3 "Жаңа Ойыншы" --rating 1900
check "add: exit status" 0 "$?"
err=$(t add "$ev" 3 "Бекет Арман" 2>&1)
check "add twice: message" "toguz tournament: 'Бекет Арман' is already in Almaty & Co" "$err"

# Round 1 (Berger, three teams): Astana rests; Shymkent brings one player, so board 2 is
# Almaty's by forfeit (Almaty is first-named: Black on board 2).
out=$(t pair "$ev")
check "round 1: exit status" 0 "$?"
out=$(t lineup "$ev" Shymkent 1)
check "round 1: lineup" "Round 1 of 3
Match  Board  First-named         Colour  Result  Second-named
    1         Almaty & Co                 1-0     Shymkent
           1  Бекет Арман (2050)  W               Сапарбеков Сәбит (2000)
           2  Кали Айдана (1950)  B       +-      -
              Astana                      bye" "$out"
err=$(t result "$ev" 1 2 1-0 2>&1)
check "empty board: exit status" "1" "$?"
check "empty board: message" "toguz tournament: board 2 has no player on one side or both: it is -+" "$err"
err=$(t result "$ev" 1 1 1-0 --moves "1. 65 87 2. 55 99(12) 3. 34(21)" 2>&1)
check "bad move: message" "toguz tournament: round 1, match 1, board 1: move 3 (White), '34(21)': the mover's kazna is 22 after the move, not 21 (expected 34 (22))" "$err"
t result "$ev" 1 1 1-0 --moves "1. 65 87 2. 55 99 3. 34 35 4. 34 89 5. 91 45 6. 48 92 7. 62 78 8. 91 58 9. 15"
check "result with moves: exit status" 0 "$?"

# Round 2: Astana - Almaty with Astana's reserve on board 2; round 3: Shymkent - Astana.
out=$(t pair "$ev")
check "round 2: pairings" "Round 2 of 3
Match  Board  First-named               Colour  Result  Second-named
    1         Astana                                    Almaty & Co
           1  MS Eleusiz Nurlan (2100)  W               Бекет Арман (2050)
           2  Aktayev Serik (2000)      B               Кали Айдана (1950)
              Shymkent                          bye" "$out"
err=$(t lineup "$ev" Astana 3 1 2>&1)
check "lineup order: message" "toguz tournament: the lineup must follow the roster order, each player once" "$err"
t lineup "$ev" Astana 1 "Reserve Astana" >/dev/null && t result "$ev" 1 1 1/2 && t result "$ev" 1 2 0-1
check "round 2 results: exit status" 0 "$?"
t pair "$ev" >/dev/null && t result "$ev" 1 1 0-1 && t result "$ev" 1 2 1-0
check "round 3 results: exit status" 0 "$?"
err=$(t pair "$ev" 2>&1)
check "every round paired: message" "toguz tournament: every round (3) has been paired" "$err"

# Astana 2 + 2 match points (1.5 + 2 board points), Almaty 2 + 0 (2 + 0.5), Shymkent 0.
out=$(t standings "$ev")
check "standings" "Standings after round 3 of 3
Rank  Team         MP   BP  DE  TSB
   1  Astana        4  3.5   0    3
   2  Almaty & Co   2  2.5   0    2
   3  Shymkent      0    0   0    0" "$out"
out=$(t boards "$ev")
check "boards" "Board 1
Rank  Name                      Team         Pts  Boards  Games   %
   1  MS Eleusiz Nurlan (2100)  Astana       1.5       2      2  75
   2  Бекет Арман (2050)        Almaty & Co  1.5       2      2  75
   3  Сапарбеков Сәбит (2000)   Shymkent       0       2      2   0

Board 2
Rank  Name                   Team         Pts  Boards  Games    %
   1  Aktayev Serik (2000)   Astana         1       1      1  100
   2  Reserve Astana (1900)  Astana         1       1      1  100
   3  Кали Айдана (1950)     Almaty & Co    1       2      1   50
   4  Жаңа Ойыншы (1900)     Shymkent       0       1      1    0

Players
Team         No  Name              R1   R2   R3   Pts
Astana        1  Eleusiz Nurlan         1w=  1b1  1.5
Astana        2  Aktayev Serik               2w1    1
Astana        3  Reserve Astana         2b1         1
Almaty & Co   1  Бекет Арман       1w1  1b=       1.5
Almaty & Co   2  Кали Айдана       2b+  2w0         1
Shymkent      1  Сапарбеков Сәбит  1b0       1w0    0
Shymkent      2  Жаңа Ойыншы                 2b0    0" "$out"

# Five games (the empty board is none) between the named players, rated with K 20:
# Бекет 2050 beat Сапарбеков 2000 (E = 0.571463, +8.57) and drew Eleusiz 2100 (E = 0.428537,
#   +1.43): +10 -> 2060. Eleusiz: -1.43, and +7.20 against Сапарбеков (E = 0.640065): +6.
# Сапарбеков: -8.57 - 7.20 = -15.77 -> -16. Reserve 1900 beat Кали 1950: +-11.43 -> +11, -11.
# Aktayev 2000 beat Жаңа 1900: +-7.20 -> +7, -7.
t export "$ev" -o "$tmp/team.tgk"
check "export: exit status" 0 "$?"
check "export: games" 5 "$(grep -c '^\[White ' "$tmp/team.tgk")"
check "export: teams" 2 "$(grep -c '^\[WhiteTeam "Almaty & Co"\]' "$tmp/team.tgk")"
printf '%s\n' "number,name,region,title,before,change,after,games,id" \
  "1,Eleusiz Nurlan,,MS,2100,0,2100,50," "2,Aktayev Serik,,,2000,0,2000,50," \
  "3,Reserve Astana,,,1900,0,1900,50," "4,Бекет Арман,,,2050,0,2050,50," \
  "5,Кали Айдана,,,1950,0,1950,50," "6,Сапарбеков Сәбит,,,2000,0,2000,50," \
  "7,Жаңа Ойыншы,,,1900,0,1900,50," >"$tmp/list.csv"
"$toguz" ratings compute "$tmp/team.tgk" --list "$tmp/list.csv" --out "$tmp/out" >/dev/null
check "ratings: exit status" 0 "$?"
check "ratings: list" "number,name,region,title,before,change,after,games,id
1,Eleusiz Nurlan,,MS,2100,+6,2106,52,
2,Бекет Арман,,,2050,+10,2060,52,
3,Aktayev Serik,,,2000,+7,2007,51,
4,Сапарбеков Сәбит,,,2000,-16,1984,52,
5,Кали Айдана,,,1950,-11,1939,51,
6,Reserve Astana,,,1900,+11,1911,51,
7,Жаңа Ойыншы,,,1900,-7,1893,51," "$(cat "$tmp/out/list.csv")"

# The exchange file (TRF): written, imported into a new state file, written again the same; the
# imported event's standings are the original's.
t withdraw "$ev" Shymkent >/dev/null && t trf "$ev" -o "$tmp/team.trf"
check "trf: exit status" 0 "$?"
check "trf: team line" "013 Astana                             1    2    3" \
  "$(grep '^013 Astana' "$tmp/team.trf")"
check "trf: withdrawn team" "XXQ 3" "$(grep '^XXQ' "$tmp/team.trf")"
t import "$tmp/team.trf" "$tmp/imported.json"
check "import: exit status" 0 "$?"
check "import: the same file" "$(cat "$tmp/team.trf")" "$(t trf "$tmp/imported.json")"
check "import: standings" "$(t standings "$ev")" "$(t standings "$tmp/imported.json")"
t import "$tmp/team.trf" "$tmp/imported.json" 2>/dev/null
check "import over a file: exit status" 2 "$?"
sed 's/^XXB 2/XXB 0/' "$tmp/team.trf" >"$tmp/bad.trf"
err=$(t import "$tmp/bad.trf" "$tmp/bad.json" 2>&1)
check "import refused: message" \
  "toguz tournament: $tmp/bad.trf: line 10, XXB: expected a number from 1 to 100, found '0'" "$err"

err=$(t lineup "$ev" Nowhere 1 2>&1)
check "no team: message" "toguz tournament: no team 'Nowhere' (a name as entered, or 1 to 3)" "$err"
err=$(t new "$ev" --system swiss 2>&1)
check "swiss without rounds: message" "toguz tournament: a Swiss needs --rounds" "$err"
exit $fail
