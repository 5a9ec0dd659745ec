#!/usr/bin/env python3
"""Random mover against the engine: a few games with colours alternating, each printed with
its result.

    PYTHONPATH=build/python /usr/bin/python3 examples/random_vs_engine.py [--games 4] [--depth 4]
"""
import argparse
import pathlib
import random
import sys

try:
    import toguz
except ImportError:  # run from the repository without PYTHONPATH: try the default build folder
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "build" / "python"))
    import toguz


def random_player(rng):
    return lambda game: rng.choice(game.legal_moves())


def engine_player(depth):
    engine = toguz.Engine()  # one engine for the whole run: its hash table carries over
    return lambda game: engine.best_move(game, depth=depth)


def play(white, black):
    game = toguz.Game()
    while not game.over:
        player = white if game.position.side_to_move == toguz.WHITE else black
        game.play(player(game))
    return game


def main():
    ap = argparse.ArgumentParser(description="random vs engine games")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--depth", type=int, default=4, help="engine search depth per move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn", action="store_true", help="print every game's record too")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    name, strong = f"engine(depth {args.depth})", engine_player(args.depth)
    points = 0.0
    for i in range(args.games):
        strong_is_white = i % 2 == 0
        white, black = (strong, random_player(rng)) if strong_is_white else (random_player(rng), strong)
        game = play(white, black)
        names = (name, "random") if strong_is_white else ("random", name)
        w, b = game.score()
        print(f"game {i + 1}: {names[0]} - {names[1]}  {game.result}  ({game.end_reason}, {w}-{b}, "
              f"{game.ply_count} plies)")
        if args.pgn:
            print(game.to_record({"White": names[0], "Black": names[1]}))
        points += {"1-0": 1.0, "0-1": 0.0}.get(game.result, 0.5) if strong_is_white else \
            {"1-0": 0.0, "0-1": 1.0}.get(game.result, 0.5)
    print(f"{name} scored {points:g} / {args.games} against random")


if __name__ == "__main__":
    main()
