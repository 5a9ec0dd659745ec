#!/usr/bin/env python3
"""Speed of toguz.VecEnv driven from Python, against a plain pure-Python environment.

Both environments play B random games at once with auto-reset, the random legal actions
chosen in Python: for VecEnv with NumPy over its legal-move views (two ways: lookup tables
indexed by the `legal_bits` masks, and argmax of random numbers over the boolean mask) or by
its own seeded sampler (`random_actions()`, also with the batch stepped on several threads:
`num_threads`); for the pure-Python one with `random.choice`. The pure-Python
rules are checked against the C++ ones on a few thousand random steps first (every observation,
legal mask, reward and done flag), so the two play the same games.

VecEnv's step() writes every game's observation (holes, kaznas, tuz one-hot, side to move) and
legal mask (bools and bits) at every step. The pure-Python env is measured two ways: with
step_observed(), which like a gym-style env returns every game's observation and legal mask
(plain lists, built by observation() and legal()) and whose driver picks from those masks: the
like-for-like comparison; and with step() alone, which only plays the moves (the driver asks
legal() for the mover's holes; no observation is built): a cheaper baseline, so a larger ratio.
Both ratios are printed.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_env.py [--batch 1024] [--seconds 3] [--threads 2]

A benchmark, not a test: the figures depend on the machine (docs/python.md has ours).
"""
import argparse
import os
import pathlib
import random
import sys
import time

import numpy as np

try:
    import toguz
except ImportError:  # run from the repository without PYTHONPATH: try the default build folder
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "build" / "python"))
    import toguz


class PyVecEnv:
    """A straightforward pure-Python statement of docs/rules.md with VecEnv's conventions: B games,
    actions 0..N-1, reward +1/0/-1 for the mover at a game's end, auto-reset."""

    def __init__(self, batch, n=9, tuz_allowed=True, play_out=False):
        self.batch, self.n, self.tuz_allowed, self.play_out = batch, n, tuz_allowed, play_out
        self.games = [self.new_game() for _ in range(batch)]

    def new_game(self):
        # board: White's holes 0..n-1 then Black's n..2n-1 (sowing order); tuz[s] = index or -1.
        g = {"board": [self.n] * (2 * self.n), "kazna": [0, 0], "tuz": [-1, -1], "side": 0, "seen": {}}
        self.remember(g)
        return g

    @staticmethod
    def key(g):
        return (tuple(g["board"]), g["kazna"][0], g["kazna"][1], g["side"])

    def remember(self, g):
        k = self.key(g)
        g["seen"][k] = g["seen"].get(k, 0) + 1
        return g["seen"][k]

    def legal(self, g):
        n, side = self.n, g["side"]
        return [i for i in range(n) if g["board"][side * n + i] > 0]

    def play(self, g, action):
        """Plays hole action+1; returns None while the game goes on, else (white, black, how)."""
        n, board, kazna, tuz, side = self.n, g["board"], g["kazna"], g["tuz"], g["side"]
        size = 2 * n
        start = side * n + action
        stones = board[start]
        board[start] = 0
        pos = start if stones > 1 else (start + 1) % size
        for i in range(stones):
            if i > 0:
                pos = (pos + 1) % size
            if pos == tuz[0]:
                kazna[0] += 1
            elif pos == tuz[1]:
                kazna[1] += 1
            else:
                board[pos] += 1
        if pos != tuz[0] and pos != tuz[1] and pos // n != side:
            count = board[pos]
            if count % 2 == 0:
                kazna[side] += count
                board[pos] = 0
            elif (count == 3 and self.tuz_allowed and tuz[side] < 0 and pos % n != n - 1
                  and (tuz[1 - side] < 0 or tuz[1 - side] % n != pos % n)):
                tuz[side] = pos
                kazna[side] += 3
                board[pos] = 0
        side = g["side"] = 1 - side
        if not self.play_out and (kazna[0] > n * n or kazna[1] > n * n):
            return kazna[0], kazna[1], "decided"
        if sum(board[side * n:(side + 1) * n]) == 0:
            rest = sum(board)
            final = [kazna[0], kazna[1]]
            final[1 - side] += rest
            return final[0], final[1], "no-move"
        if tuz[0] < 0 and tuz[1] < 0 and self.remember(g) >= 3:
            return kazna[0], kazna[1], "repetition"
        return None

    def step(self, actions):
        rewards, dones = [0.0] * self.batch, [False] * self.batch
        for b, a in enumerate(actions):
            g = self.games[b]
            mover = g["side"]
            end = self.play(g, a)
            if end is not None:
                white, black, how = end
                winner = -1 if how == "repetition" or white == black else (0 if white > black else 1)
                rewards[b] = 0.0 if winner < 0 else (1.0 if winner == mover else -1.0)
                dones[b] = True
                self.games[b] = self.new_game()
        return rewards, dones

    def step_observed(self, actions):
        """step() as a gym-style env gives it: also every game's observation and legal mask
        (after the step, so a finished game shows the new one), as lists."""
        rewards, dones = self.step(actions)
        observations = [self.observation(b) for b in range(self.batch)]
        masks = [self.legal_mask(b) for b in range(self.batch)]
        return observations, masks, rewards, dones

    def legal_mask(self, b):
        """[N] bools: action i (hole i+1) is legal in game b."""
        mask = [False] * self.n
        for a in self.legal(self.games[b]):
            mask[a] = True
        return mask

    def observation(self, b):
        g, n = self.games[b], self.n
        holes = [[0 if i == g["tuz"][1] else g["board"][i] for i in range(n)],
                 [0 if n + i == g["tuz"][0] else g["board"][n + i] for i in range(n)]]
        tuz = [[0] * n, [0] * n]
        for owner in (0, 1):
            if g["tuz"][owner] >= 0:
                tuz[g["tuz"][owner] // n][g["tuz"][owner] % n] = 1
        return holes, list(g["kazna"]), tuz, g["side"]


def check_against_cpp(batch=8, steps=3000, seed=7):
    """Same random actions into both; every observation, reward and done flag must agree."""
    for variant, n, tuz in [("standard", 9, True), ("kozdatu", 7, False), ("bestemshi", 5, False)]:
        env = toguz.VecEnv(batch, variant=variant, seed=seed)
        ref = PyVecEnv(batch, n=n, tuz_allowed=tuz)
        ends = 0
        for step in range(steps):
            for b in range(batch):
                holes, kazna, tuzs, side = ref.observation(b)
                assert env.holes[b].tolist() == holes, (variant, step, b)
                assert env.kaznas[b].tolist() == kazna and env.tuz[b].tolist() == tuzs
                assert env.side_to_move[b] == side
                assert [i for i in range(n) if env.legal_mask[b, i]] == ref.legal(ref.games[b])
            actions = env.random_actions()
            observations, masks, rewards, dones = ref.step_observed(actions.tolist())
            r, d = env.step(actions)
            assert r.tolist() == rewards and d.tolist() == dones, (variant, step)
            for b, (holes, kazna, tuzs, side) in enumerate(observations):  # what step_observed gave
                assert env.holes[b].tolist() == holes and env.kaznas[b].tolist() == kazna
                assert env.tuz[b].tolist() == tuzs and env.side_to_move[b] == side
                assert env.legal_mask[b].tolist() == masks[b], (variant, step, b)
            ends += sum(dones)
        print(f"check: {variant}: {steps} steps x {batch} games, {ends} game ends: C++ and Python agree")


class Meter:
    """Steps counted against wall-clock time and this process's CPU time: on a shared machine
    the CPU rate is the steadier one, and the slices of the two environments alternate so that
    both see the same load."""

    def __init__(self):
        self.steps, self.wall, self.cpu = 0, 0.0, 0.0

    def run(self, seconds, one_step, batch):
        w0, c0 = time.perf_counter(), time.process_time()
        while time.perf_counter() - w0 < seconds:
            for _ in range(10):
                one_step()
            self.steps += 10 * batch
        self.wall += time.perf_counter() - w0
        self.cpu += time.process_time() - c0

    def rates(self):
        return self.steps / self.wall, self.steps / self.cpu


def mask_tables(n):
    """For every legal-move bit mask m < 2^n: the number of legal actions and the k-th of them."""
    count = np.array([bin(m).count("1") for m in range(1 << n)], dtype=np.int64)
    kth = np.zeros((1 << n, n), dtype=np.int64)
    for m in range(1 << n):
        actions = [i for i in range(n) if m >> i & 1]
        kth[m, :len(actions)] = actions
    return count, kth


def bench(batch, seconds, threads, rounds=5, seed=1):
    env = toguz.VecEnv(batch, seed=seed)
    env_threads = toguz.VecEnv(batch, seed=seed, num_threads=threads)
    rng = np.random.default_rng(seed)
    mask, bits = env.legal_mask, env.legal_bits  # views: they follow the steps
    count, kth = mask_tables(env.n)
    ref = PyVecEnv(batch)
    rnd = random.Random(seed)
    ref_obs = PyVecEnv(batch)
    rnd_obs = random.Random(seed)
    masks = [ref_obs.legal_mask(b) for b in range(batch)]  # what the last step_observed returned

    def numpy_bits_step():  # uniform among legal: the k-th legal action, k < count, by table
        env.step(kth[bits, (rng.random(batch) * count[bits]).astype(np.int64)])

    def numpy_argmax_step():  # uniform among legal: the largest of random numbers on legal holes
        env.step(np.argmax(rng.random(mask.shape) * mask, axis=1))

    def cpp_step():
        env.step(env.random_actions())

    def cpp_threads_step():
        env_threads.step(env_threads.random_actions())

    def python_step():  # plays the moves only: no observation is built
        ref.step([rnd.choice(ref.legal(g)) for g in ref.games])

    def python_observed_step():  # like VecEnv: every game's observation and mask, picks from the masks
        nonlocal masks
        actions = [rnd_obs.choice([i for i, legal in enumerate(m) if legal]) for m in masks]
        _, masks, _, _ = ref_obs.step_observed(actions)

    drivers = {"numpy_bits": numpy_bits_step, "numpy_argmax": numpy_argmax_step, "cpp": cpp_step,
               "cpp_threads": cpp_threads_step, "python_obs": python_observed_step,
               "python": python_step}
    meters = {k: Meter() for k in drivers}
    for _ in range(rounds):
        for k, f in drivers.items():
            meters[k].run(seconds / rounds, f, batch)
    return {k: m.rates() for k, m in meters.items()}, env_threads.num_threads


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="num_threads of the threaded VecEnv (default: the CPUs)")
    ap.add_argument("--no-check", action="store_true", help="skip the C++ / Python agreement check")
    args = ap.parse_args()
    if not args.no_check:
        check_against_cpp()
    r, threads = bench(args.batch, args.seconds, args.threads)
    rows = [("numpy_bits", "VecEnv, NumPy picks (legal_bits tables)"),
            ("numpy_argmax", "VecEnv, NumPy picks (argmax over mask)"),
            ("cpp", "VecEnv, random_actions()"),
            ("cpp_threads", f"VecEnv, random_actions(), {threads} threads"),
            ("python_obs", "pure Python, observations + masks"),
            ("python", "pure Python, play only")]
    print(f"batch {args.batch}: env steps/s (wall clock, per CPU second of this process, all threads)")
    for key, name in rows:
        wall, cpu = r[key]
        print(f"  {name:42s} {wall / 1e6:8.3f} M   {cpu / 1e6:8.3f} M")
    for base, what in [("python_obs", "pure Python with observations + masks (like for like)"),
                       ("python", "pure Python playing only (no observations)")]:
        print(f"ratios to {what}:")
        for key, name in rows[:4]:
            print(f"  {name:42s} {r[key][0] / r[base][0]:5.0f}x wall, {r[key][1] / r[base][1]:5.0f}x CPU")

if __name__ == "__main__":
    main()
