"""toguz.read_selfplay: a file written by hand to docs/selfplay-format.md reads back field by field."""
import struct

import numpy as np
import pytest

import toguz

HEADER = b"TGZSELFP" + struct.pack("<II", 1, 48)


def record(holes, kazna, tuz, side, n, rules, result, proven, best, score, ply, move_number, margin, game,
           game_plies, nodes):
    data = bytes(holes) + bytes(kazna) + bytes(tuz) + struct.pack(
        "<BBBbBBhHHhIHHI", side, n, rules, result, proven, best, score, ply, move_number, margin, game,
        game_plies, 0, nodes)
    assert len(data) == 48
    return data


START = [9] * 18


def test_read_selfplay_fields(tmp_path):
    path = tmp_path / "sp.bin"
    later = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 0, 14, 15, 16, 17, 5]
    assert sum(later) == 136
    path.write_bytes(HEADER + record(START, [0, 0], [0, 0], 0, 9, 1, -1, 0, 7, 35, 8, 5, -12, 3, 120, 5000)
                     + record(later, [20, 6], [0, 4], 1, 9, 3, 1, 1, 2, -30990, 65535, 33, 4, 70000, 401,
                              123456789))
    d = toguz.read_selfplay(str(path))
    assert set(d) == {"holes", "kazna", "tuz", "side", "n", "rules", "result", "proven", "best_move", "score",
                      "ply", "move_number", "final_margin", "game", "game_plies", "nodes"}
    assert d["holes"].shape == (2, 18) and d["holes"].dtype == np.uint8
    assert d["holes"][0].tolist() == START and d["holes"][1].tolist() == later
    assert d["kazna"].tolist() == [[0, 0], [20, 6]]
    assert d["tuz"].tolist() == [[0, 0], [0, 4]]
    assert d["side"].tolist() == [0, 1]
    assert d["n"].tolist() == [9, 9]
    assert d["rules"].tolist() == [1, 3]
    assert d["result"].dtype == np.int8 and d["result"].tolist() == [-1, 1]
    assert d["proven"].dtype == np.bool_ and d["proven"].tolist() == [False, True]
    assert d["best_move"].tolist() == [7, 2]
    assert d["score"].dtype == np.int16 and d["score"].tolist() == [35, -30990]
    assert d["ply"].tolist() == [8, 65535]
    assert d["move_number"].tolist() == [5, 33]
    assert d["final_margin"].tolist() == [-12, 4]
    assert d["game"].dtype == np.uint32 and d["game"].tolist() == [3, 70000]
    assert d["game_plies"].tolist() == [120, 401]
    assert d["nodes"].tolist() == [5000, 123456789]


def test_read_selfplay_empty_and_bad(tmp_path):
    path = tmp_path / "sp.bin"
    path.write_bytes(HEADER)
    d = toguz.read_selfplay(str(path))
    assert d["holes"].shape == (0, 18) and d["score"].shape == (0,)
    path.write_bytes(b"not a self-play file at all")
    with pytest.raises(ValueError, match="not a toguz self-play file"):
        toguz.read_selfplay(str(path))
    path.write_bytes(b"TGZSELFP" + struct.pack("<II", 2, 48))
    with pytest.raises(ValueError, match="version 2, expected 1"):
        toguz.read_selfplay(str(path))
    path.write_bytes(HEADER + bytes(50))
    with pytest.raises(ValueError, match="truncated"):
        toguz.read_selfplay(str(path))
    with pytest.raises(FileNotFoundError):
        toguz.read_selfplay(str(tmp_path / "missing.bin"))
