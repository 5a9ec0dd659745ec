#!/usr/bin/env bash
# toguz ratings: a small season (tests/data/ratings: a list of four, a January cup in TGK with a
# forfeit, a February open in PGN with a player found by his federation id and a newcomer, a
# March blitz whose "Ахметов Д." the officer settles) rated with the numbers worked out below,
# the print pages, the names report, an April event exported by `toguz tournament` rated from
# the new list, and the errors that name the file, line and field.
set -u
toguz="$1"
tests="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/check.bash"
d="$tests/data/ratings"
events=("$d/cup.tgk" "$d/open.pgn")

out=$("$toguz" ratings profile)
check "profile: exit status" 0 "$?"
check "profile: K" "k_new = 40  # K for a new player" "$(grep '^k_new =' <<<"$out")"

# Before the officer settles the names: "Ахметов Д." is a new player, reported with
# "Ахметов Дамир" (an initial); the forfeit is not rated.
out=$("$toguz" ratings names "${events[@]}" --list "$d/list.csv" --profile "$d/profile.txt")
check "names: exit status" 0 "$?"
check "names: report" "games rated: 7
games skipped: 1
players: 6
players rated: 5
first ratings: 1
events: 3
periods: 3
ambiguous name groups: 1
skipped $d/cup.tgk:33: forfeit
group 1: initial
  Ахметов Д.  (1 games: Blitz)
  Ахметов Дамир @ Астана  (3 games: (list); Кубок <Астаны>; Open)" "$out"

# January: Ахметов 2000 - Бекет 1900 1-0: E = 1 / (1 + 10^(-100/400)) = 0.640065, +-7.20;
#   Ахметов - Кали 1800 1/2: E = 0.759747, Ахметов 20 * -0.259747 = -5.19, Кали (10 games,
#   K 40) +10.39; Бекет - Кали 0-1: Бекет -12.80, Кали +25.60.
#   Ахметов +2.00 -> 2002, Бекет -20.00 -> 1880, Кали +35.99 -> 1836.
# February: Eleusiz (KZ-4, 2450, K 10) - Кали 1836 0-1: 614 counts as 400, E = 0.909091:
#   Eleusiz -9.09 -> 2441, Кали +36.36 -> 1872. Жаңа Ойыншы beats Ахметов and draws Бекет:
#   Ra = (2002 + 1880) / 2 = 1941, p = 0.75, dp = 400 log10(3) = 190.85 -> 2132.
# March: Ахметов 2002 - Бекет 1880 1-0: E = 1 / (1 + 10^(-122/400)) = 0.668695,
#   +-20 * 0.331305 = 6.63 -> 2009 and 1873.
out=$("$toguz" ratings compute "${events[@]}" --list "$d/list.csv" --profile "$d/profile.txt" \
  --names "$d/names.txt" --out "$tmp/out" --heading "Рейтинг <2026>")
check "compute: exit status" 0 "$?"
check "compute: summary" "games rated: 7
games skipped: 1
players: 5
players rated: 5
first ratings: 1
events: 3
periods: 3
ambiguous name groups: 0" "$out"
check "compute: list" "number,name,region,title,before,change,after,games,id
1,Eleusiz Nurlan,Almaty,GM,2450,-9,2441,101,KZ-4
2,Жаңа Ойыншы,,,,0,2132,2,
3,Ахметов Дамир,Астана,МС,2000,+9,2009,53,
4,Бекет Арман,Алматы,,1900,-27,1873,53,
5,Кали Айдана,Шымкент,,1800,+72,1872,13," "$(cat "$tmp/out/list.csv")"
check "compute: list reads back" "" "$("$toguz" ratings names "${events[@]}" --list "$tmp/out/list.csv" >/dev/null; echo)"

for lang in kk ky ru en; do
  check "html $lang: lang" 1 "$(grep -c "<html lang=\"$lang\">" "$tmp/out/list.$lang.html")"
  check "html $lang: escaped heading" 1 "$(grep -c '<h1>Рейтинг &lt;2026&gt;</h1>' "$tmp/out/list.$lang.html")"
done
check "html ru: header" 1 "$(grep -c '<th>Рейтинг после</th>' "$tmp/out/list.ru.html")"
check "html kk: header" 1 "$(grep -c '<th>Жаңа рейтинг</th>' "$tmp/out/list.kk.html")"

check "events: Кали in the cup" 1 \
  "$(grep -cE '^Кали Айдана \(Шымкент\) +1800 +2 +1\.5 +0\.60 +40 +\+35\.99 +1950 +-$' "$tmp/out/events.txt")"
check "history: Ахметов's March game" 1 \
  "$(grep -cE '^2026-03 +Blitz +2026\.03\.01 +Бекет Арман +1880 +1\.0 +0\.67 +20 +\+6\.63$' "$tmp/out/history.txt")"
check "history: the newcomer's first game" 1 \
  "$(grep -cE '^2026-02 +Open +2026\.02\.06 +Ахметов Дамир +2002 +1\.0 +toward a first rating$' "$tmp/out/history.txt")"
check "json: players" 5 "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["players"]))' "$tmp/out/season.json")"

# April: the new list is the current one, and the event is what `toguz tournament export`
# writes (names without a region: each fits one player of the list). Ахметов 2009 (K 20) beats
# Жаңа Ойыншы 2132 (2 games, K 40): E = 1 / (1 + 10^(123/400)) = 0.330039, Ахметов
# +20 * 0.669961 = +13.40 -> 2022, Жаңа Ойыншы -40 * 0.669961 = -26.80 -> 2105. Бекет 1873 and
# Кали 1872 draw: E = 0.501439, -0.03 and +0.06, both round to 0.
ev="$tmp/april.json"
"$toguz" tournament new "$ev" --system round-robin --event "Кубок РК" --date 2026.04.02 >/dev/null &&
  for p in "Ахметов Дамир" "Бекет Арман" "Кали Айдана" "Жаңа Ойыншы"; do
    "$toguz" tournament add "$ev" "$p" >/dev/null
  done &&
  "$toguz" tournament pair "$ev" >/dev/null &&
  "$toguz" tournament result "$ev" 1 1-0 >/dev/null &&
  "$toguz" tournament result "$ev" 2 1/2-1/2 >/dev/null &&
  "$toguz" tournament export "$ev" > "$tmp/april.tgk"
check "april: the event's TGK" 0 "$?"
check "april: pairings" "[White \"Ахметов Дамир\"]
[Black \"Жаңа Ойыншы\"]
[White \"Бекет Арман\"]
[Black \"Кали Айдана\"]" "$(grep -E '^\[(White|Black) ' "$tmp/april.tgk")"
"$toguz" ratings compute "$tmp/april.tgk" --list "$tmp/out/list.csv" --out "$tmp/april" >/dev/null
check "april: exit status" 0 "$?"
check "april: list" "number,name,region,title,before,change,after,games,id
1,Eleusiz Nurlan,Almaty,GM,2441,0,2441,101,KZ-4
2,Жаңа Ойыншы,,,2132,-27,2105,3,
3,Ахметов Дамир,Астана,МС,2009,+13,2022,54,
4,Бекет Арман,Алматы,,1873,0,1873,54,
5,Кали Айдана,Шымкент,,1872,0,1872,14," "$(cat "$tmp/april/list.csv")"

# Errors: the file, the line and the field.
printf 'name,after\nA,1900\nB,19x0\n' > "$tmp/bad.csv"
err=$("$toguz" ratings compute "${events[@]}" --list "$tmp/bad.csv" --out "$tmp/x" 2>&1)
check "bad list: exit status" 1 "$?"
check "bad list: message" "toguz ratings: $tmp/bad.csv: line 3, after: expected a whole number, got '19x0'" "$err"
printf 'k_new = 40\nk_normal = twenty\n' > "$tmp/bad.txt"
err=$("$toguz" ratings profile "$tmp/bad.txt" 2>&1)
check "bad profile: exit status" 1 "$?"
check "bad profile: message" "toguz ratings: $tmp/bad.txt: line 2, k_normal: expected a whole number, got 'twenty'" "$err"
err=$("$toguz" ratings names "$tmp/missing.tgk" 2>&1)
check "missing file: exit status" 2 "$?"

exit $fail
