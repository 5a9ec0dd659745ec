"""perft equals the tables of tests/data (the same figures the C++ tests check)."""
import pytest
import toguz
from conftest import load_json

PERFT = load_json("perft.json")
LIMIT = 500_000  # leaves: keep every case well under a second


def cases():
    for name, rules in [("standard", {}), ("kozdatu", {"tuz": False}), ("bestemshi", {"tuz": False}),
                        ("bestemshi_play_out", {"tuz": False, "play_out": True})]:
        entry = PERFT[name]
        start = entry.get("position", PERFT.get(name.split("_")[0], {}).get("position"))
        for depth, leaves in enumerate(entry["leaves_by_depth"], start=1):
            if leaves <= LIMIT:
                yield pytest.param(start, rules, depth, leaves, id=f"{name}-{depth}")


@pytest.mark.parametrize("start, rules, depth, leaves", list(cases()))
def test_perft_tables(start, rules, depth, leaves):
    assert toguz.perft(toguz.Position(start, **rules), depth) == leaves


def test_perft_positions():
    for entry in load_json("perft-positions.json"):
        pos = toguz.Position(entry["position"])
        for depth, leaves in enumerate(entry["leaves_by_depth"][:4], start=1):
            assert toguz.perft(pos, depth) == leaves, (entry["position"], depth)


def test_perft_divide_and_depth_zero():
    start = toguz.Position()
    divide = toguz.perft_divide(start, 3)
    assert [h for h, _ in divide] == list(range(1, 10))
    assert sum(n for _, n in divide) == 613
    assert toguz.perft(start, 0) == 1
    with pytest.raises(ValueError):
        toguz.perft(start, -1)
