"""Reads `toguz selfplay` files (docs/selfplay-format.md) with NumPy alone, and turns records
into the network's inputs (src/search/nnue.h). No toguz module needed: the trainer runs from
a plain checkout."""
import numpy as np

MAGIC = b"TGZSELFP"
VERSION = 1
RECORD = np.dtype([
    ("holes", "u1", 18), ("kazna", "u1", 2), ("tuz", "u1", 2), ("side", "u1"), ("n", "u1"),
    ("rules", "u1"), ("result", "i1"), ("proven", "u1"), ("best_move", "u1"),
    ("score", "<i2"), ("ply", "<u2"), ("move_number", "<u2"), ("final_margin", "<i2"),
    ("game", "<u4"), ("game_plies", "<u2"), ("reserved", "<u2"), ("nodes", "<u4"),
])
assert RECORD.itemsize == 48

# The inputs (src/search/nnue.h): 22 one-hot slots per view.
HOLE_BUCKETS, KAZNA_BUCKETS, TUZ_BUCKETS, SLOTS = 32, 83, 10, 22
KAZNA_BASE = 18 * HOLE_BUCKETS
TUZ_BASE = KAZNA_BASE + 2 * KAZNA_BUCKETS
FEATURES = TUZ_BASE + 2 * TUZ_BUCKETS


def read_selfplay(path):
    """All records of one file as a structured array (fields as in docs/selfplay-format.md).
    Raises ValueError on another magic, version or record size, or a truncated file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a toguz self-play file (expected the magic TGZSELFP)")
    version, size = np.frombuffer(data[8:16], "<u4")
    if version != VERSION or size != RECORD.itemsize:
        raise ValueError(f"{path}: version {version}, record size {size}; expected 1 and 48")
    if (len(data) - 16) % 48:
        raise ValueError(f"{path}: truncated")
    return np.frombuffer(data[16:], RECORD)


def slots(recs, view):
    """The active input of each slot, int64 [len(recs), 22], from `view`'s side (0 White,
    1 Black; an array gives one view per record)."""
    view = np.broadcast_to(np.asarray(view), (len(recs),))
    white, black = recs["holes"][:, :9].astype(np.int64), recs["holes"][:, 9:].astype(np.int64)
    own = np.where(view[:, None] == 0, white, black)
    opp = np.where(view[:, None] == 0, black, white)
    k = recs["kazna"].astype(np.int64)
    t = recs["tuz"].astype(np.int64)
    own_k, opp_k = np.where(view == 0, k[:, 0], k[:, 1]), np.where(view == 0, k[:, 1], k[:, 0])
    own_t, opp_t = np.where(view == 0, t[:, 0], t[:, 1]), np.where(view == 0, t[:, 1], t[:, 0])
    base = np.arange(18, dtype=np.int64) * HOLE_BUCKETS
    out = np.empty((len(recs), SLOTS), np.int64)
    out[:, :18] = base + np.minimum(np.concatenate([own, opp], 1), HOLE_BUCKETS - 1)
    out[:, 18] = KAZNA_BASE + np.minimum(own_k, KAZNA_BUCKETS - 1)
    out[:, 19] = KAZNA_BASE + KAZNA_BUCKETS + np.minimum(opp_k, KAZNA_BUCKETS - 1)
    out[:, 20] = TUZ_BASE + own_t
    out[:, 21] = TUZ_BASE + TUZ_BUCKETS + opp_t
    return out


def for_side_to_move(recs):
    """Score (cp), result (1 win, 0.5 draw, 0 loss) and final margin (stones), all for the
    side to move of each record."""
    sign = np.where(recs["side"] == 0, 1, -1)
    result = (recs["result"].astype(np.float32) * sign + 1) / 2
    margin = recs["final_margin"].astype(np.float32) * sign
    return recs["score"].astype(np.float32), result, margin
