#!/bin/bash
# toguz admin (docs/accounts.md "Moderation") on a SQLite file: grant and revoke the moderator
# role, list and resolve reports, mark and close an account (and undo), void a game's rating
# changes; an unknown account, game or report is named with exit 1; a missing operand is a
# usage error (not 0 nor 1). Then backup and restore of the file (docs/operations.md "Backups").
# The accounts, a rated game and a report are put in the file with sqlite3 after the first
# command made its schema. Usage: admin.sh <toguz> <tests-dir>
set -u
toguz=$1
fail() { echo "FAIL: $*"; exit 1; }
command -v sqlite3 >/dev/null || { echo "SKIPPED: no sqlite3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/t.db
admin() { "$toguz" admin --db "$db" "$@"; }
q() { sqlite3 "$db" "$1"; }

out=$(admin reports) || fail "reports on a new file exited $?"
[ "$out" = "no reports" ] || fail "reports on a new file: $out"
q "INSERT INTO users (id, username, username_key, password_hash, created_ms) VALUES
   (1, 'Aigerim', 'aigerim', 'h', 0), (2, 'Bolat', 'bolat', 'h', 0);
   INSERT INTO sessions (token_hash, user_id, expires_ms) VALUES ('s1', 2, 9999999999999),
   ('s2', 1, 9999999999999);
   INSERT INTO reports (target, reporter, about, game_id, reason, created_ms) VALUES
   (2, 1, 0, 'g1', 'resigns at once', 1764892800000),
   (2, 0, 1, 'g1', 'feeding: 5 rated losses (3 by resignation) to the same account in 7 days', 1764896400000);
   INSERT INTO games (id, mode, variant, tuz, play_out, start_position, white_name, black_name,
   white_token, black_token, invite, white_seated, black_seated, engine_side, level,
   clock_initial_ms, clock_increment_ms, white_ms, black_ms, status, winner, reason, score,
   moves, created_ms, updated_ms, white_user, black_user, rated, speed) VALUES
   ('g1', 'online', 'standard', 1, 0, '', 'Aigerim', 'Bolat', '', '', '', 1, 1, -1, 0, 180000,
   0, 0, 0, 'over', 'white', 'resign', '', 4, 1000, 2000, 1, 2, 1, 'blitz');
   INSERT INTO rating_changes VALUES ('g1', 1, 'blitz', 1500, 1662.3, 350, 290.3, 2000),
   ('g1', 2, 'blitz', 1500, 1337.7, 350, 290.3, 2000);
   INSERT INTO ratings VALUES (1, 'blitz', 1662.3, 290.3, 0.06, 1, 2000),
   (2, 'blitz', 1337.7, 290.3, 0.06, 1, 2000);"

expected="#2 flag 2025-12-05T01:00:00Z Bolat about Aigerim game g1: feeding: 5 rated losses (3 by resignation) to the same account in 7 days
#1 report 2025-12-05T00:00:00Z Bolat by Aigerim game g1: resigns at once"
out=$(admin reports) || fail "reports exited $?"
[ "$out" = "$expected" ] || fail "reports: $out"

out=$(admin grant aigerim) || fail "grant exited $?"
[ "$out" = "grant: aigerim" ] || fail "grant: $out"
[ "$(q 'SELECT moderator FROM account_standing WHERE user_id = 1')" = 1 ] || fail "not granted"
admin revoke Aigerim >/dev/null || fail "revoke exited $?"
[ "$(q 'SELECT moderator FROM account_standing WHERE user_id = 1')" = 0 ] || fail "not revoked"

admin mark Bolat >/dev/null || fail "mark exited $?"
[ "$(q 'SELECT marked FROM account_standing WHERE user_id = 2')" = 1 ] || fail "not marked"
out=$(admin mark Bolat --undo) || fail "mark --undo exited $?"
[ "$out" = "mark undone: Bolat" ] || fail "mark --undo: $out"
[ "$(q 'SELECT marked FROM account_standing WHERE user_id = 2')" = 0 ] || fail "still marked"

admin close Bolat >/dev/null || fail "close exited $?"
[ "$(q 'SELECT closed FROM account_standing WHERE user_id = 2')" = 1 ] || fail "not closed"
[ "$(q 'SELECT token_hash FROM sessions ORDER BY token_hash')" = s2 ] || fail "sessions not ended"

out=$(admin void g1) || fail "void exited $?"
[ "$out" = "void: g1" ] || fail "void: $out"
[ "$(q 'SELECT COUNT(*) FROM ratings')" = 0 ] || fail "ratings left after the void"
[ "$(q 'SELECT COUNT(*) FROM rating_changes')" = 0 ] || fail "changes left after the void"
[ "$(q "SELECT rated FROM games WHERE id = 'g1'")" = 0 ] || fail "game still rated"
err=$(admin void g1 2>&1) && fail "a second void exited 0"
[ "$err" = "toguz admin: game g1 changed no rating" ] || fail "second void: $err"

admin resolve 2 >/dev/null || fail "resolve exited $?"
out=$(admin reports)
[ "$out" = "$(sed -n 2p <<<"$expected")" ] || fail "reports after resolve: $out"
[ "$(admin reports --all | head -1)" = "$(sed -n 1p <<<"$expected") (resolved)" ] ||
  fail "reports --all: $(admin reports --all)"

err=$(admin mark Nobody 2>&1)
[ $? -eq 1 ] || fail "unknown account: exit code"
[ "$err" = "toguz admin: no such account: Nobody" ] || fail "unknown account: $err"
err=$(admin void nothing 2>&1)
[ $? -eq 1 ] || fail "unknown game: exit code"
[ "$err" = "toguz admin: no such game: nothing" ] || fail "unknown game: $err"
err=$(admin resolve 99 2>&1)
[ $? -eq 1 ] || fail "unknown report: exit code"
[ "$err" = "toguz admin: no such report: 99" ] || fail "unknown report: $err"
admin mark >/dev/null 2>&1
rc=$?
[ $rc -gt 1 ] || fail "mark without an account: exit code $rc"

# backup and restore (docs/operations.md "Backups"): a checked copy, never over a file; the
# restored file is the database as it was at the backup.
out=$(admin backup "$tmp/copy.db") || fail "backup exited $?"
[[ "$out" =~ ^"backup: $tmp/copy.db (schema "[0-9]+", 1 games, 0 moves)"$ ]] || fail "backup: $out"
err=$(admin backup "$tmp/copy.db" 2>&1) && fail "a backup over an existing file"
[ "$err" = "toguz admin: $tmp/copy.db: exists; a backup makes a new file" ] || fail "backup over: $err"
q "DELETE FROM games"
out=$("$toguz" admin --db "$db" restore "$tmp/copy.db") || fail "restore exited $?"
[ "$(q 'SELECT id FROM games')" = g1 ] || fail "restore did not bring the game back"
err=$("$toguz" admin --db "$tmp/new.db" restore "$tmp/nothing.db" 2>&1) && fail "restore of no file"
[ "$err" = "toguz admin: $tmp/nothing.db: no such file" ] || fail "restore of no file: $err"
err=$("$toguz" admin --db postgresql://u@h/d backup "$tmp/pg.sql" 2>&1) && fail "pg backup"
[[ "$err" == *"pg_dump"* ]] || fail "pg backup: $err"
echo PASS
