"""Game and records: the referee's end, score and result on the vectors; records in and out."""
import pytest
import toguz
from conftest import DATA, holes, load_json, load_jsonl


def play_all(moves, **rules):
    g = toguz.Game(**rules)
    for h in holes(moves):
        assert not g.over
        g.play(h)
    return g


def check_end(g, entry):
    assert g.over and g.ply_count == entry["plies"]
    assert g.end_reason == entry["end"]
    assert list(g.score()) == entry["score"]
    assert g.result == entry["result"]
    assert str(g.position) == entry["position"]
    assert g.legal_moves() == []


@pytest.mark.parametrize("entry", load_jsonl("random-games.jsonl"), ids=lambda e: str(e["plies"]))
def test_random_games(entry):
    check_end(play_all(entry["moves"]), entry)
    check_end(play_all(entry["play_out"]["moves"], play_out=True), entry["play_out"])


@pytest.mark.parametrize("entry", load_jsonl("end-cases.jsonl"), ids=lambda e: e["case"][:40])
def test_end_cases(entry):
    check_end(play_all(entry["moves"]), entry)


def test_repetition_game():
    entry = load_json("repetition-game.json")
    g = play_all(entry["moves"])
    check_end(g, entry)
    assert g.outcome() == "repetition" and g.repetition_count == 3
    g.undo()
    assert not g.over and g.result == "*" and g.repetition_count == 2


def test_illegal_and_finished_play_leave_the_game():
    g = toguz.Game()
    g.play(6)
    with pytest.raises(ValueError, match="no hole"):
        g.play(0)
    assert g.ply_count == 1
    entry = load_jsonl("end-cases.jsonl")[0]
    done = play_all(entry["moves"])
    with pytest.raises(ValueError, match="over"):
        done.play(done.position.legal_moves()[0] if done.position.legal_moves() else 1)


def test_master_game_record_replay_and_rewrite():
    text = (DATA / "master-game.pgn").read_text(encoding="utf-8")
    records = toguz.read_records(text)
    assert len(records) == 1
    rec = records[0]
    assert rec.tag("White") == "Eleusiz, Nurlan" and rec.result_token == "1-0"
    assert rec.tokens == load_json("master-game.json")["moves"]
    game, error = toguz.replay_record(rec)
    assert error is None
    expected = load_json("master-game.json")["positions_after_each_ply"]
    assert [str(game.position_at(i)) for i in range(game.ply_count + 1)] == expected
    # Black resigned: the recorded result stands though the board did not end the game.
    assert game.result == "1-0" and game.end_reason == "resignation" and game.outcome() == "ongoing"
    again = toguz.read_records(game.to_record(rec.tags))[0]
    assert again.tokens == rec.tokens and again.tag("Black") == "Aktayev, Serik"
    tgk = toguz.write_record(game, {"White": "a", "Black": "b"}, style="tgk")
    assert "\n1. 65 87\n2. 55 99\n" in tgk and "(" not in tgk.split("\n\n")[1]
    assert toguz.Game.from_record(tgk).holes_played == game.holes_played


def test_replay_reports_bad_token():
    text = '[White "a"]\n[Black "b"]\n\n1. 65(10) 87 2. 55 99(13) *\n'
    game, error = toguz.replay_record(toguz.read_records(text)[0])
    assert error is not None and error.ply == 4 and error.token == "99(13)" and error.line == 4
    assert game.ply_count == 3
    with pytest.raises(ValueError, match="99\\(13\\)"):
        toguz.Game.from_record(text)


def test_play_token_checks_the_notation():
    g = toguz.Game()
    assert g.play_token("65(10)").captured == 10
    with pytest.raises(ValueError):
        g.play_token("88")  # hole 8 lands elsewhere
    assert g.ply_count == 1
    g.play_token("87")
    assert [m.notation() for m in g.moves] == ["65(10)", "87"]


def test_non_standard_game_record_carries_its_rules():
    g = toguz.Game(variant="kozdatu", tuz=True)
    for h in [1, 2, 3]:
        g.play(h)
    text = g.to_record({"White": "w", "Black": "b"})
    assert '[Variant "kozdatu"]' in text and "tuz" in text
    back = toguz.Game.from_record(text)
    assert back.position == g.position and back.position.tuz_allowed


def test_set_result_undo_and_copy():
    g = toguz.Game("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1")
    g.play(1)
    h = g.copy()
    g.set_result("0-1", "resignation")
    assert g.over and g.result == "0-1" and g.end_reason == "resignation"
    assert not h.over and h.result == "*"
    assert g.undo() and not g.over and g.ply_count == 0
    assert not g.undo()
    with pytest.raises(ValueError):
        g.set_result("2-0")


def test_reader_reports_bad_games_and_goes_on():
    text = '[Event "a"]\n[White "x]\n\n1. 65 87 1-0\n\n[Event "b"]\n[Result "0-1"]\n\n1. 76 98 0-1\n'
    records = toguz.read_records(text)
    assert [r.number for r in records] == [1, 2]
    assert records[1].error is None and records[1].tokens == ["76", "98"]
    error = records[0].error
    assert (error.game, error.line, error.column) == (1, 2, 8)
    message = ("game 1, line 2, column 8: tag: expected [Name \"value\"], the closing '\"' of the value"
               " is missing in '[White \"x]'")
    assert str(error) == message
    game, replay_error = toguz.replay_record(records[0])
    assert str(replay_error) == message
    with pytest.raises(ValueError, match="game 1, line 2, column 8"):
        toguz.Game.from_record(text)


def test_reader_messages_for_text_that_is_not_a_record():
    for text, message in [("", "empty input"), ("<!DOCTYPE html><html>", "an HTML page"),
                          (b"ab\0cd", "binary data")]:
        with pytest.raises(toguz.ParseError, match=message):
            toguz.read_records(text)


def test_windows_1251_is_read_and_said_so():
    data = '[White "Иван"]\n\n1. 65 *\n'.encode("cp1251")
    with pytest.warns(UserWarning, match="read as Windows-1251"):
        records = toguz.read_records(data)
    assert records[0].tag("White") == "Иван"


def test_truncated_game_warns_or_fails_when_strict():
    text = '[Event "a"]\n\n1. 65(10) 87 2. 55'
    assert toguz.read_records(text)[0].unterminated
    with pytest.warns(UserWarning, match="game 1, line 3: ply 3, token '55': .*truncated"):
        assert toguz.Game.from_record(text).ply_count == 3
    with pytest.raises(ValueError, match="truncated"):
        toguz.Game.from_record(text, strict=True)


def test_fen_startpos_tag():
    game = toguz.Game.from_record('[FEN "startpos"]\n\n1. 65(10) *\n')
    assert game.ply_count == 1 and game.start == toguz.Game().start
