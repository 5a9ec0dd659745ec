"""toguz.solve: the same results, margins and lines as `toguz solve --json` (the C++ solver)."""
import pytest
import toguz

STUDY1 = "0,0,0,1,x,1,3,2,1/0,0,2,2,0,0,0,0,0 78 72 w 40"  # docs/tables.md, study 1


@pytest.mark.parametrize("text, result, margin, line", [
    # `toguz solve --position ... --json` printed these.
    (STUDY1, 1, 2, [6, 4, 4, 3, 7, 1, 7, 4, 8, 5, 8, 1, 9]),
    ("0,0,0,0,0,0,0,0,0/1,1,0,0,0,0,0,0,0 80 80 w", -1, -2, []),  # no move: over already
    ("0,0,0,0,1/0,0,0,0,1 24 24 w", -1, None, [5, 1]),  # a repetition decides the margin
])
def test_results_equal_the_command_line(text, result, margin, line):
    s = toguz.solve(toguz.Position(text))
    assert s["proven"] and s["result"] == result and s["margin"] == margin and s["line"] == line
    assert s["margin_needs_repetition"] == (margin is None)
    assert s["nodes"] > 0 and not s["line_cut"]


def test_the_line_ends_the_game_with_the_result():
    s = toguz.solve(toguz.Position(STUDY1), margin=False)
    assert s["proven"] and s["result"] == 1 and s["margin"] is None
    game = toguz.Game(STUDY1)
    for hole in s["line"]:
        game.play(hole)
    assert game.over and game.result == "1-0"


def test_a_game_is_solved_from_its_current_position():
    game = toguz.Game(STUDY1)
    game.play(6)  # the first move of the winning line: Black to move, and Black loses
    s = toguz.solve(game)
    assert s["proven"] and s["result"] == -1 and s["margin"] == -2


def test_limits_leave_it_unproven():
    s = toguz.solve(toguz.Position("x,0,2,3,4,8,0,0,2/0,9,0,0,1,5,2,3,2 66 55 w 40"), max_nodes=1000)
    assert not s["proven"] and s["result"] is None and s["margin"] is None


def test_bad_arguments():
    with pytest.raises(TypeError):
        toguz.solve("0,0,0,0,1/0,0,0,0,1 24 24 w")
    with pytest.raises(ValueError):
        toguz.solve(toguz.Position(STUDY1), hash_log2=40)
    with pytest.raises(ValueError):
        toguz.solve(toguz.Position(STUDY1), time_ms=-1)
    with pytest.raises(ValueError, match="no table files"):
        toguz.solve(toguz.Position(STUDY1), tables="/nonexistent-folder")
