"""analyze: plain Python results from the engine."""
import pytest
import toguz


def test_analyze_depth_multipv():
    pos = toguz.Position()
    out = toguz.analyze(pos, depth=4, multipv=3)
    assert out["best_move"] in pos.legal_moves()
    assert [line["multipv"] for line in out["lines"]] == [1, 2, 3]
    firsts = [line["pv"][0] for line in out["lines"]]
    assert len(set(firsts)) == 3 and firsts[0] == out["best_move"]
    for line in out["lines"]:
        assert line["depth"] == 4 and isinstance(line["score_cp"], int)
        p = pos.copy()
        for h in line["pv"]:
            p.play(h)  # every pv is a legal line
    scores = [line["score_cp"] for line in out["lines"]]
    assert scores == sorted(scores, reverse=True)


def test_analyze_game_over_and_limits():
    g = toguz.Game("x,0,0,0,1,0,0,0,0/0,0,0,x,0,0,0,0,0 82 79 b 97")
    assert g.over
    out = toguz.analyze(g, depth=3)
    assert out["best_move"] is None and out["lines"][0]["proven"] and out["lines"][0]["result"] == -1
    assert out["lines"][0]["margin"] == -3
    nodes = toguz.analyze(toguz.Position(), nodes=2000)
    assert nodes["best_move"] in range(1, 10) and nodes["nodes"] > 0
    with pytest.raises(ValueError, match="limit"):
        toguz.analyze(toguz.Position())


def test_analyze_finds_a_proven_end():
    # Black to move and every move loses at once? Use a near-end position: a win is proven.
    pos = toguz.Position("0,0,0,0,0,0,0,1,0/x,0,0,0,0,0,0,0,1 80 80 w 70")
    out = toguz.analyze(pos, depth=6)
    line = out["lines"][0]
    assert line["proven"] and line["result"] in (-1, 0, 1) and line["plies"] is not None


def test_engine_object_plays_a_game():
    engine = toguz.Engine(hash_mb=8, skill=20)
    assert engine.hash_mb == 8 and engine.threads == 1 and engine.skill == 20
    game = toguz.Game()
    for _ in range(6):
        move = engine.best_move(game, depth=3)
        assert move in game.legal_moves()
        game.play(move)
    out = engine.analyze(game.position, nodes=500, multipv=2)
    assert len(out["lines"]) == 2
    engine.new_game()
    over = toguz.Game("x,0,0,0,1,0,0,0,0/0,0,0,x,0,0,0,0,0 82 79 b 97")
    assert engine.best_move(over, depth=2) is None
    with pytest.raises(ValueError, match="skill"):
        toguz.Engine(skill=0)
    with pytest.raises(TypeError):
        engine.analyze("not a position", depth=1)


def test_ctrl_c_stops_a_long_search():
    import os
    import signal
    import threading
    import time

    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        toguz.analyze(toguz.Position(), movetime_ms=20_000)
    timer.join()
    assert time.monotonic() - start < 5


def test_lines_have_the_shape_of_the_cli_json():
    # docs/web-protocol.md "Scores and lines": the same fields as `toguz analyze --json`, then
    # the earlier flat names kept for one release.
    out = toguz.analyze(toguz.Position(), depth=3, multipv=2)
    line = out["lines"][0]
    assert list(line) == ["multipv", "depth", "seldepth", "nodes", "pv", "pv_notation", "score",
                          "score_cp", "proven", "result", "plies", "margin"]
    assert list(line["score"]) == ["cp", "white_cp", "proven", "table", "wdl"]
    assert sum(line["score"]["wdl"]) == 1000
    assert line["score"]["white_cp"] == line["score"]["cp"] == line["score_cp"]  # White to move
    assert line["score"]["proven"] is None and line["proven"] is False
    assert len(line["pv_notation"]) == len(line["pv"]) and line["pv_notation"][0][0] == str(line["pv"][0])
    black = toguz.Position()
    black.play(out["best_move"])
    after = toguz.analyze(black, depth=3)["lines"][0]["score"]
    assert after["white_cp"] == -after["cp"]


def test_a_proven_line_in_both_shapes():
    g = toguz.Game("x,0,0,0,1,0,0,0,0/0,0,0,x,0,0,0,0,0 82 79 b 97")
    line = toguz.analyze(g, depth=3)["lines"][0]
    assert line["score"]["proven"] == {"result": "loss", "margin": -3, "plies": 0}
    assert line["proven"] is True and line["result"] == -1 and line["margin"] == -3
