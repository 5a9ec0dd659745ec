"""Position: strings in and out, accessors, play, end checks (against tests/data vectors)."""
import copy
import pickle

import pytest
import toguz
from conftest import load_json

START = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1"


def test_start_position():
    p = toguz.Position()
    assert str(p) == START
    assert p == toguz.Position.start()
    assert p.n == 9 and p.variant == "standard" and p.tuz_allowed and not p.play_out
    assert p.side_to_move == toguz.WHITE and p.move_number == 1
    assert p.kaznas == (0, 0) and p.tuz(0) == 0 and p.tuz(1) == 0 and not p.any_tuz
    assert p.legal_moves() == list(range(1, 10)) and p.legal_mask == 0x1FF
    assert p.outcome() == "ongoing" and p.final_score() == (0, 0)
    assert repr(p) == f"Position('{START}')"


def test_children_variants_start_without_tuz():
    k = toguz.Position.start("kozdatu")
    assert str(k) == "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w 1" and not k.tuz_allowed
    b = toguz.Position.start("bestemshi", tuz=True, play_out=True)
    assert b.n == 5 and b.tuz_allowed and b.play_out
    assert repr(b) == "Position('5,5,5,5,5/5,5,5,5,5 0 0 w 1', tuz=True, play_out=True)"
    with pytest.raises(ValueError, match="unknown variant"):
        toguz.Position.start("chess")


def test_master_game_positions_and_tokens():
    data = load_json("master-game.json")
    pos = toguz.Position()
    expected = data["positions_after_each_ply"]
    assert str(pos) == expected[0]
    for token, after in zip(data["moves"], expected[1:]):
        info = pos.play(int(token[0]))
        assert info.notation() == token
        assert str(pos) == after
        assert pos.consistent()
        assert toguz.Position(after) == pos


def test_move_info_fields():
    p = toguz.Position()
    info = p.play(6)  # 65(10): lands in Black's hole 5, which now holds 10: captured
    assert (info.hole, info.last_hole, info.last_row, info.captured) == (6, 5, 1, 10)
    assert not info.tuz_made and info.kazna_after == 10 and info.kazna_changed
    assert info.notation("tgk") == "65" and info.notation("book") == "65 (10)"
    d = info.to_dict()
    assert d["hole"] == 6 and d["captured"] == 10 and d["notation"] == "65(10)"


def test_tuz_accessors_and_parse():
    p = toguz.Position("1,10,3,4,9,3,5,1,3/x,2,6,10,1,2,3,8,2 59 30 w 16")
    assert p.tuz(toguz.WHITE) == 1 and p.tuz(toguz.BLACK) == 0 and p.any_tuz
    assert p.stones(1, 1) == 0 and p.holes(1)[:3] == [0, 2, 6]
    assert p.kazna(0) == 59 and p.kazna(1) == 30 and p.move_number == 16
    # Runs of spaces are accepted; the writer uses single spaces.
    assert str(toguz.Position("1,10,3,4,9,3,5,1,3/x,2,6,10,1,2,3,8,2  59 30 w")) == \
        "1,10,3,4,9,3,5,1,3/x,2,6,10,1,2,3,8,2 59 30 w 1"


@pytest.mark.parametrize("text, field", [
    ("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 q 1", "side"),
    ("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 1 0 w 1", "stones"),
    ("9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1", "holes"),
])
def test_bad_position_strings_name_the_field(text, field):
    with pytest.raises(toguz.ParseError, match=field):
        toguz.Position(text)
    with pytest.raises(ValueError):  # ParseError is a ValueError
        toguz.Position(text)


def test_illegal_play_raises_and_leaves_position():
    p = toguz.Position("1,10,3,4,9,3,5,1,3/x,2,6,10,1,2,3,8,2 59 30 w 16")
    p.play(3)
    before = str(p)
    assert p.side_to_move == 1 and 1 not in p.legal_moves()  # Black's hole 1 is White's tuz
    with pytest.raises(ValueError, match="tuz"):
        p.play(1)
    with pytest.raises(ValueError, match="no hole"):
        p.play(10)
    assert str(p) == before


def test_after_copy_pickle_and_key():
    p = toguz.Position()
    q = p.after(6)
    assert str(p) == START and q != p
    assert q.key != p.key and toguz.Position(str(q)).key == q.key
    c = copy.copy(q)
    c.play(1)
    assert c != q
    k = toguz.Position.start("kozdatu", tuz=True)
    assert pickle.loads(pickle.dumps(k)) == k and copy.deepcopy(k) == k


def test_finished_position_refuses_moves():
    # A kazna above 81: decided; the final score is the kaznas as they stand.
    p = toguz.Position("x,0,0,0,1,0,0,0,0/0,0,0,x,0,0,0,0,0 82 79 b 97")
    assert p.outcome() == "decided" and p.final_score() == (82, 79)
    assert p.legal_moves() == [] and not p.is_legal(1)
    with pytest.raises(ValueError, match="over"):
        p.play(5)
