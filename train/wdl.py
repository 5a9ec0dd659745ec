#!/usr/bin/python3
"""Fits the win/draw/loss model of src/search/wdl.h on the scores and final results of
`toguz selfplay` files, and states its calibration on held-out games (docs/nnue.md).

  /usr/bin/python3 train/wdl.py --data sp.bin [more.bin]

Model, for the side to move with a heuristic score s (centi-stones):
  P(win) = sigmoid((s - a) / b),  P(loss) = sigmoid((-s - a) / b),  P(draw) = 1 - the two
(a >= 0: the draw band). Fitted by maximum likelihood on nine tenths of the games (chosen by
game with the seed); the calibration error is measured on the other tenth: positions binned by
predicted expected score (P(win) + P(draw) / 2) in ten equal-width bins, the mean |predicted -
observed| weighted by the bin's size (expected calibration error), and the same for P(win)."""
import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
import selfplay_data as sd  # noqa: E402


def model(s, a, b):
    pw = torch.sigmoid((s - a) / b)
    pl = torch.sigmoid((-s - a) / b)
    return pw, torch.clamp(1 - pw - pl, min=1e-9), pl


def fit(s, outcome, steps=600):
    """a, b by maximum likelihood (Adam on the log parameters)."""
    la = torch.tensor(np.log(20.0), requires_grad=True)
    lb = torch.tensor(np.log(300.0), requires_grad=True)
    opt = torch.optim.Adam([la, lb], lr=0.05)
    for _ in range(steps):
        pw, pd, pl = model(s, la.exp(), lb.exp())
        p = torch.stack([pl, pd, pw], 1).gather(1, outcome[:, None]).squeeze(1)
        loss = -torch.log(p.clamp(min=1e-9)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return float(la.exp()), float(lb.exp()), float(loss)


def ece(pred, observed, bins=10):
    idx = np.minimum((pred * bins).astype(int), bins - 1)
    err = 0.0
    table = []
    for k in range(bins):
        m = idx == k
        if m.any():
            err += m.sum() * abs(pred[m].mean() - observed[m].mean())
            table.append((k / bins, int(m.sum()), float(pred[m].mean()), float(observed[m].mean())))
    return err / len(pred), table


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--report", help="write the fit and its calibration here (JSON)")
    args = ap.parse_args()
    parts, ids = [], []
    for i, p in enumerate(args.data):
        r = sd.read_selfplay(p)
        r = r[(r["proven"] == 0) & (np.abs(r["score"]) < 20000)]
        parts.append(r)
        ids.append(r["game"].astype(np.int64) + (i << 32))
    recs, ids = np.concatenate(parts), np.concatenate(ids)
    score, result, _ = sd.for_side_to_move(recs)
    outcome = np.rint(result * 2).astype(np.int64)  # 0 loss, 1 draw, 2 win
    games = np.unique(ids)
    held_games = games[np.random.default_rng(args.seed).random(len(games)) < 0.1]
    held = np.isin(ids, held_games)
    s = torch.from_numpy(score)
    a, b, nll = fit(s[~held], torch.from_numpy(outcome[~held]))
    with torch.no_grad():
        pw, pd, pl = (x.numpy() for x in model(s[held], a, b))
    exp_err, table = ece(pw + pd / 2, result[held])
    win_err, _ = ece(pw, (outcome[held] == 2).astype(float))
    report = {
        "a": round(a, 1), "b": round(b, 1), "train_nll": round(nll, 5),
        "positions": int(len(recs)), "held_out_positions": int(held.sum()),
        "held_out_games": int(len(held_games)),
        "draw_rate": float((outcome == 1).mean()),
        "held_out_ece_expected_score": round(float(exp_err), 4),
        "held_out_ece_win": round(float(win_err), 4),
        "bins_expected_score": table,
    }
    print(json.dumps(report, indent=1))
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
