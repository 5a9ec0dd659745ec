#!/usr/bin/python3
"""Trains the evaluation network (src/search/nnue.h) on `toguz selfplay` files and writes it
in the format src/search/nnue.cpp reads (docs/nnue.md).

  /usr/bin/python3 train/nnue.py --data sp.bin [more.bin] --out src/search/nets/toguz.nnue

Deterministic for the same data, seed and options (one CPU thread). The held-out set is a
fixed tenth of the games (never single plies of a game also trained on). Target, for the side
to move: 0.5 * sigmoid(score / K) + 0.25 * result + 0.25 * sigmoid(100 * margin / K), with
K = 800 centi-stones per logit (the scale `toguz tune` fitted); the network's output times K
is the evaluation in centi-stones. Loss: mean squared error between sigmoid(output) and the
target."""
import argparse
import json
import struct
import sys
import time

import numpy as np
import torch

sys.path.insert(0, __import__("os").path.dirname(__file__))
import selfplay_data as sd  # noqa: E402

K = 800.0
HIDDEN = 128
QA, QB = 255, 64
W1_CLIP = 1.98  # |w| * 255 * 23 inputs stays inside int16
BLEND = (0.5, 0.25, 0.25)  # score, result, margin


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ft = torch.nn.EmbeddingBag(sd.FEATURES, HIDDEN, mode="sum")
        self.ft_bias = torch.nn.Parameter(torch.zeros(HIDDEN))
        self.out = torch.nn.Linear(2 * HIDDEN, 1)
        torch.nn.init.normal_(self.ft.weight, 0.0, 0.1)
        torch.nn.init.normal_(self.out.weight, 0.0, 0.05)
        torch.nn.init.zeros_(self.out.bias)

    def forward(self, own, opp):
        a = torch.clamp(self.ft(own) + self.ft_bias, 0.0, 1.0)
        b = torch.clamp(self.ft(opp) + self.ft_bias, 0.0, 1.0)
        return self.out(torch.cat([a, b], 1)).squeeze(1)

    def clip(self):
        with torch.no_grad():
            self.ft.weight.clamp_(-W1_CLIP, W1_CLIP)
            self.ft_bias.clamp_(-W1_CLIP, W1_CLIP)


def load(paths):
    """Every record of the files (standard rules only) with a game id unique across files."""
    parts, ids = [], []
    for i, p in enumerate(paths):
        r = sd.read_selfplay(p)
        r = r[(r["n"] == 9) & ((r["rules"] & 1) == 1)]
        parts.append(r)
        ids.append(r["game"].astype(np.int64) + (i << 32))
    return np.concatenate(parts), np.concatenate(ids)


def tensors(recs):
    score, result, margin = sd.for_side_to_move(recs)
    sig = lambda x: 1 / (1 + np.exp(-np.clip(x, -60, 60)))  # noqa: E731
    target = BLEND[0] * sig(score / K) + BLEND[1] * result + BLEND[2] * sig(100 * margin / K)
    side = recs["side"].astype(np.int64)
    return (torch.from_numpy(sd.slots(recs, side)), torch.from_numpy(sd.slots(recs, 1 - side)),
            torch.from_numpy(target.astype(np.float32)), torch.from_numpy(result.astype(np.float32)))


def held_out_games(ids, seed):
    """True for the records of the held-out tenth of the games (chosen by game, with the seed)."""
    games = np.unique(ids)
    rng = np.random.default_rng(seed)
    held = games[rng.random(len(games)) < 0.1]
    return np.isin(ids, held)


def evaluate(net, data, batch=65536):
    """Mean squared error against the target, and the cross-entropy of sigmoid(output) against
    the game result alone (a second, target-independent check)."""
    own, opp, target, result = data
    mse = ce = 0.0
    with torch.no_grad():
        for i in range(0, len(target), batch):
            p = torch.sigmoid(net(own[i:i + batch], opp[i:i + batch]))
            mse += float(((p - target[i:i + batch]) ** 2).sum())
            pc = p.clamp(1e-6, 1 - 1e-6)
            r = result[i:i + batch]
            ce += float(-(r * pc.log() + (1 - r) * (1 - pc).log()).sum())
    return mse / len(target), ce / len(target)


def train(net, data, held, epochs, batch, lr, seed, log, out=None):
    """Adam with a cosine schedule; returns the held-out figures of the best epoch and leaves
    its weights in `net` (also written to `out` after each better epoch, so a cut-short run
    leaves a usable net)."""
    own, opp, target, _ = data
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    gen = torch.Generator().manual_seed(seed)
    best = None
    for epoch in range(epochs):
        perm = torch.randperm(len(target), generator=gen)
        total = 0.0
        for i in range(0, len(perm), batch):
            idx = perm[i:i + batch]
            p = torch.sigmoid(net(own[idx], opp[idx]))
            loss = ((p - target[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            net.clip()
            total += float(loss) * len(idx)
        sched.step()
        mse, ce = evaluate(net, held)
        log(f"epoch {epoch + 1}/{epochs}: train mse {total / len(target):.6f}, "
            f"held-out mse {mse:.6f}, result cross-entropy {ce:.5f}")
        if best is None or mse < best[0]:
            best = (mse, ce, epoch + 1, {k: v.clone() for k, v in net.state_dict().items()})
            if out:
                write_net(out, *quantise(net))
    net.load_state_dict(best[3])
    return best[:3]


def quantise(net):
    w1 = np.round(net.ft.weight.detach().numpy() * QA).astype("<i2")
    b1 = np.round(net.ft_bias.detach().numpy() * QA).astype("<i2")
    w2 = np.round(net.out.weight.detach().numpy().reshape(2, HIDDEN) * QB).astype("<i2")
    b2 = int(round(float(net.out.bias.detach()[0]) * QA * QB))
    return w1, b1, w2, b2


def write_net(path, w1, b1, w2, b2):
    """The file of docs/nnue.md: magic, version, inputs, hidden, scale, output bias, then the
    first-layer bias, its weights input by input, the output weights (little-endian)."""
    with open(path, "wb") as f:
        f.write(b"TGZNNUE1" + struct.pack("<IIIii", 1, sd.FEATURES, HIDDEN, int(K), b2))
        f.write(b1.tobytes() + w1.tobytes() + w2.tobytes())


def quantised_eval(w1, b1, w2, b2, own, opp):
    """The integer evaluation exactly as src/search/nnue.cpp computes it (centi-stones)."""
    acc = lambda s: b1.astype(np.int64) + w1[s].astype(np.int64).sum(1)  # noqa: E731
    a, b = np.clip(acc(own), 0, QA), np.clip(acc(opp), 0, QA)
    raw = a @ w2[0].astype(np.int64) + b @ w2[1].astype(np.int64) + b2
    return np.clip(np.trunc(raw * int(K) / (QA * QB)), -19999, 19999)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=8192)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--report", help="write the held-out figures here (JSON)")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    start = time.time()
    log = lambda m: print(f"[{time.time() - start:7.1f}s] {m}", flush=True)  # noqa: E731
    recs, ids = load(args.data)
    held_mask = held_out_games(ids, args.seed)
    log(f"{len(recs)} positions of {len(np.unique(ids))} games; held out "
        f"{int(held_mask.sum())} positions of {len(np.unique(ids[held_mask]))} games")
    train_data, held = tensors(recs[~held_mask]), tensors(recs[held_mask])
    net = Net()
    base_mse, base_ce = evaluate(lambda a, b: torch.zeros(len(a)), held)
    mse, ce, epoch = train(net, train_data, held, args.epochs, args.batch, args.lr, args.seed, log,
                           args.out)
    q = quantise(net)
    write_net(args.out, *q)
    # The quantised net against the float one on the held-out positions (centi-stones).
    n = min(20000, len(held[0]))
    qe = quantised_eval(*q, held[0][:n].numpy(), held[1][:n].numpy())
    with torch.no_grad():
        fe = net(held[0][:n], held[1][:n]).numpy() * K
    report = {
        "positions": int(len(recs)), "held_out_positions": int(held_mask.sum()),
        "best_epoch": epoch, "held_out_mse": mse, "held_out_result_cross_entropy": ce,
        "constant_0.5_mse": base_mse, "constant_0.5_result_cross_entropy": base_ce,
        "quantisation_mean_abs_error_cp": float(np.abs(qe - fe).mean()),
        "seconds": round(time.time() - start, 1), "blend": BLEND, "K": K, "seed": args.seed,
    }
    log(json.dumps(report))
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
