"""VecEnv: zero-copy views, masks, rewards and auto-reset checked against the Game referee."""
import numpy as np
import pytest
import toguz
from conftest import holes, load_json, load_jsonl


def expected_obs(pos):
    n = pos.n
    holes = np.array([pos.holes(0), pos.holes(1)], dtype=np.int32)
    tuz = np.zeros((2, n), dtype=np.int8)
    if pos.tuz(0):
        tuz[1, pos.tuz(0) - 1] = 1  # White's tuz is on Black's row
    if pos.tuz(1):
        tuz[0, pos.tuz(1) - 1] = 1
    mask = np.zeros(n, dtype=bool)
    for h in pos.legal_moves():
        mask[h - 1] = True
    return holes, np.array(pos.kaznas, dtype=np.int32), tuz, pos.side_to_move, mask


def check_slot(env, b, pos):
    holes, kaznas, tuz, side, mask = expected_obs(pos)
    assert np.array_equal(env.holes[b], holes)
    assert np.array_equal(env.kaznas[b], kaznas)
    assert np.array_equal(env.tuz[b], tuz)
    assert env.side_to_move[b] == side
    assert np.array_equal(env.legal_mask[b], mask)
    assert env.legal_bits[b] == sum(1 << i for i in range(len(mask)) if mask[i])


def test_shapes_dtypes_and_start():
    env = toguz.VecEnv(3, variant="kozdatu")
    assert env.batch == 3 and env.n == 7 and env.num_actions == 7
    assert env.holes.shape == (3, 2, 7) and env.holes.dtype == np.int32
    assert env.kaznas.shape == (3, 2) and env.tuz.shape == (3, 2, 7) and env.tuz.dtype == np.int8
    assert env.side_to_move.shape == (3,) and env.legal_mask.dtype == np.bool_
    assert env.legal_bits.shape == (3,) and env.legal_bits.dtype == np.uint32
    assert (env.legal_bits == 0x7F).all()
    assert (env.holes == 7).all() and (env.kaznas == 0).all() and env.legal_mask.all()
    assert not env.holes.flags.writeable


def test_zero_copy_views_follow_the_steps():
    env = toguz.VecEnv(8, seed=3)
    holes, mask, kaznas = env.holes, env.legal_mask, env.kaznas
    ptr = holes.__array_interface__["data"][0]
    before = holes.copy()
    env.step(np.full(8, 5))  # hole 6 everywhere: 65(10)
    assert env.holes.__array_interface__["data"][0] == ptr
    assert env.legal_mask.__array_interface__["data"][0] == mask.__array_interface__["data"][0]
    assert not np.array_equal(holes, before)  # the old array object shows the new state
    assert (kaznas[:, 0] == 10).all() and (env.side_to_move == 1).all()
    assert str(env.position(0)) == "9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1"
    del env
    assert holes.sum() > 0  # the views keep the env alive


@pytest.mark.parametrize("variant, tuz", [("standard", None), ("kozdatu", None), ("bestemshi", None),
                                          ("bestemshi", True)])
def test_random_play_matches_the_referee(variant, tuz):
    env = toguz.VecEnv(16, variant=variant, tuz=tuz, seed=11)
    games = [toguz.Game(variant=variant, tuz=tuz) for _ in range(16)]
    finished = 0
    reasons = set()
    for _ in range(600):
        for b in range(16):
            check_slot(env, b, games[b].position)
        actions = env.random_actions()
        movers = env.side_to_move.copy()
        assert all(env.legal_mask[b, actions[b]] for b in range(16))
        reward, done = env.step(actions)
        for b in range(16):
            games[b].play(int(actions[b]) + 1)
            g = games[b]
            assert done[b] == g.over
            if g.over:
                finished += 1
                reasons.add(g.end_reason)
                res = g.result
                winner = {"1-0": 0, "0-1": 1, "1/2-1/2": -1}[res]
                assert env.winner[b] == winner
                assert tuple(env.final_score[b]) == g.score()
                assert env.episode_length[b] == g.ply_count
                assert reward[b] == (0 if winner < 0 else (1 if winner == movers[b] else -1))
                games[b] = toguz.Game(variant=variant, tuz=tuz)
                assert env.plies[b] == 0
            else:
                assert reward[b] == 0 and env.winner[b] == -2 and env.plies[b] == g.ply_count
    assert finished > 0
    assert reasons <= {"decided", "no-move", "repetition"}


def test_repetition_game_ends_in_a_draw():
    entry = load_json("repetition-game.json")
    env = toguz.VecEnv(2)
    moves = holes(entry["moves"])
    for i, h in enumerate(moves):
        reward, done = env.step(np.array([h - 1, h - 1]))
        assert done.all() == (i == len(moves) - 1)
    assert (reward == 0).all() and (env.winner == -1).all() and (env.episode_length == 218).all()
    assert tuple(env.final_score[0]) == tuple(entry["score"])
    assert (env.holes == 9).all()  # auto-reset


def test_decided_game_rewards_the_mover():
    entry = load_jsonl("end-cases.jsonl")[0]  # White passes 81 with the last move
    env = toguz.VecEnv(1)
    for h in holes(entry["moves"]):
        reward, done = env.step(np.array([h - 1]))
    assert done[0] and reward[0] == 1.0 and env.winner[0] == 0
    assert list(env.final_score[0]) == entry["score"]


def test_seed_determinism_and_reset():
    def run(seed):
        env = toguz.VecEnv(32, seed=seed, random_start_plies=4)
        start = env.holes.copy()
        out = []
        for _ in range(200):
            r, d = env.step(env.random_actions())
            out.append((env.holes.copy(), r.copy(), d.copy()))
        return env, start, out

    env_a, start_a, a = run(5)
    _, start_b, b = run(5)
    _, start_c, c = run(6)
    assert np.array_equal(start_a, start_b) and not np.array_equal(start_a, start_c)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    assert any(not np.array_equal(x[0], y[0]) for x, y in zip(a, c))
    assert (env_a.plies >= 0).all()
    env_a.reset(5)
    assert np.array_equal(env_a.holes, start_a) and (env_a.plies == 4).all() and not env_a.done.any()


def test_illegal_action_raises_and_changes_nothing():
    env = toguz.VecEnv(2)
    env.step(np.array([5, 5]))  # 65(10): Black's hole 5 is emptied by the capture
    before = env.holes.copy()
    assert not env.legal_mask[1, 4]
    with pytest.raises(ValueError, match="illegal action 4 in game 1 \\(the hole is empty\\)"):
        env.step(np.array([1, 4]))
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.array([1, 9]))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([1, 2, 3]))
    assert np.array_equal(env.holes, before)
    env.step(np.array([1, 1], dtype=np.int8))  # any integer dtype
    assert not np.array_equal(env.holes, before)


def test_changed_or_stale_random_actions_are_still_checked():
    # step() passes the actions random_actions() returned without testing each (they are
    # legal); the array is the caller's, so a changed one must still be refused, and so must a
    # stale one (returned before the last step).
    env = toguz.VecEnv(4, seed=2)
    env.step(np.array([5, 5, 5, 5]))  # 65(10): Black's hole 5 is emptied everywhere
    actions = env.random_actions()
    before = env.holes.copy()
    changed = actions.copy()
    changed[2] = 4
    with pytest.raises(ValueError, match="illegal action 4 in game 2 \\(the hole is empty\\)"):
        env.step(changed)
    assert np.array_equal(env.holes, before)
    env.step(actions)  # unchanged: legal
    for _ in range(1000):
        actions = env.random_actions()
        env.step(actions)
        if not env.legal_mask[np.arange(4), actions].all():
            break
    else:
        raise AssertionError("no stale action became illegal")
    before = env.holes.copy()
    with pytest.raises(ValueError, match="illegal action"):
        env.step(actions)
    assert np.array_equal(env.holes, before)

def test_bad_arguments():
    with pytest.raises(ValueError):
        toguz.VecEnv(0)
    with pytest.raises(ValueError, match="unknown variant"):
        toguz.VecEnv(1, variant="x")


@pytest.mark.parametrize("variant", ["standard", "kozdatu", "bestemshi"])
@pytest.mark.parametrize("start_plies", [2, 0])
def test_threads_give_the_same_games(variant, start_plies):
    # 200 games: chunks of 64, 64, 64 and 8 shared by the threads; random start plies make
    # the restarts draw from the generator, which must happen in the same order (without
    # them each thread restarts the games it finished).
    def run(threads):
        env = toguz.VecEnv(200, variant=variant, seed=21, random_start_plies=start_plies,
                           num_threads=threads)
        rng = np.random.default_rng(4)
        out, ends = [], 0
        for i in range(400):
            # Half the steps from the env's own sampler, half from NumPy over legal_bits.
            if i % 2:
                actions = env.random_actions()
            else:
                legal = [np.flatnonzero(row) for row in env.legal_mask]
                actions = np.array([rng.choice(a) for a in legal])
            reward, done = env.step(actions)
            ends += int(done.sum())
            out.append([a.copy() for a in (env.holes, env.kaznas, env.tuz, env.side_to_move, env.legal_mask,
                                           env.legal_bits, reward, done, env.winner, env.final_score,
                                           env.episode_length, env.plies)])
        return env.num_threads, ends, out

    one_threads, ends, one = run(1)
    assert one_threads == 1 and ends > 0
    for threads in (2, 3):
        used, ends_t, many = run(threads)
        assert used == threads and ends_t == ends
        for step, (x, y) in enumerate(zip(one, many)):
            assert all(np.array_equal(a, b) for a, b in zip(x, y)), (threads, step)


def test_num_threads_argument():
    assert toguz.VecEnv(1000, num_threads=4).num_threads == 4
    assert toguz.VecEnv(100, num_threads=4).num_threads == 1  # at most one thread per 64 games
    assert toguz.VecEnv(1024, num_threads=0).num_threads >= 1  # 0: one per CPU
    with pytest.raises(ValueError, match="num_threads"):
        toguz.VecEnv(8, num_threads=-1)


class SplitMix64:
    """The env's sampler in Python: SplitMix64, a uniform index by multiply-shift, the k-th legal action."""

    def __init__(self, seed):
        self.state = seed

    def next(self):
        m = (1 << 64) - 1
        self.state = (self.state + 0x9E3779B97F4A7C15) & m
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        return z ^ (z >> 31)

    def actions(self, legal_bits, n):
        out = []
        for bits in legal_bits.tolist():
            legal = [i for i in range(n) if bits >> i & 1]
            out.append(legal[self.next() * len(legal) >> 64])
        return out


@pytest.mark.parametrize("threads", [1, 2])
def test_random_actions_follow_the_seeded_sampler(threads):
    # step() draws the next random actions ahead after a step that random_actions() followed;
    # whatever the order of calls, random_actions() must give the sampler's next draws.
    env = toguz.VecEnv(130, variant="standard", seed=3, num_threads=threads)
    ref = SplitMix64(3)
    rng = np.random.default_rng(1)
    for i in range(300):
        if i % 50 == 49:
            env.reset(i)
            ref = SplitMix64(i)
        if i % 7 == 3:  # actions from elsewhere: the env's sampler is not drawn
            actions = np.array([rng.choice(np.flatnonzero(row)) for row in env.legal_mask])
        else:
            for _ in range(1 + (i % 5 == 1)):  # sometimes twice in a row
                actions = env.random_actions()
                assert actions.tolist() == ref.actions(env.legal_bits, env.n), i
        env.step(actions)
