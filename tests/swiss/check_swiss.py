#!/usr/bin/env python3
"""An independent check of the Swiss pairing against the rules written in docs/tournaments.md
("Swiss (Dutch system)"), not a port of swiss.cpp: the scores, colours, meetings, byes and
Baku virtual points are recomputed here from each event's raw rounds, and the existence of a
pairing is decided by a brute-force search for a perfect matching.

For every round of every simulated event (tests/swiss/swiss_sim.cpp) it checks:
  absolute: each player taking part is paired once or has the pairing's bye; no forbidden pair
    meets; the bye never goes to a player who had one or a forfeit win; a requested bye is within
    the event's limits; and the pairing keeps every criterion of the strictest level at which a
    pairing exists (level 0: no rematch, colour difference within -2..+2, no three same colours
    in a row; 1: the three-in-a-row rule relaxed; 2: rematches allowed; 3: colours ignored);
  quality: the bye goes to the lowest-ranked eligible player whose removal leaves the others
    pairable; each board's colours are those of the colour rules; the boards are in order.
Exit status 1 when any absolute criterion is broken, or when fewer boards and byes than the
documented threshold (99.8 %) agree with the quality rules.

    python3 tests/swiss/check_swiss.py --sim build/tests/swiss_sim --events 5000
"""
import argparse
import json
import subprocess
import sys
import time

RESULTS = {  # half points for White, Black; whether played over the board
    "1-0": (2, 0, True), "0-1": (0, 2, True), "1/2-1/2": (1, 1, True),
    "+-": (2, 0, False), "-+": (0, 2, False), "--": (0, 0, False), "*": (0, 0, True),
}
AGREEMENT_THRESHOLD = 0.998


def perfect_matching_exists(nodes, allowed):
    """Whether `nodes` can all be paired with pairs allowed(a, b): backtracking on the player
    with the fewest partners left, remembering the sets that failed."""
    idx = {p: i for i, p in enumerate(nodes)}
    nb = [0] * len(nodes)
    for a in nodes:
        for b in nodes:
            if a != b and allowed(a, b):
                nb[idx[a]] |= 1 << idx[b]
    failed = set()

    def rec(mask):
        if mask == 0:
            return True
        if mask in failed:
            return False
        best, best_deg = -1, 99
        m = mask
        while m:
            low = m & -m
            i = low.bit_length() - 1
            deg = bin(nb[i] & mask).count("1")
            if deg < best_deg:
                best, best_deg = i, deg
                if deg <= 1:
                    break
            m ^= low
        if best_deg == 0:
            failed.add(mask)
            return False
        rest = mask & ~(1 << best)
        cand = nb[best] & rest
        while cand:
            low = cand & -cand
            if rec(rest & ~low):
                return True
            cand ^= low
        failed.add(mask)
        return False

    return len(nodes) % 2 == 0 and rec((1 << len(nodes)) - 1)


class History:
    """What the rounds before round `r` say about every player."""

    def __init__(self, ev, r):
        n = len(ev["players"])
        self.score = [0] * n
        self.colours = [[] for _ in range(n)]  # games over the board
        self.by_round = [["-"] * r for _ in range(n)]
        self.met = set()
        self.had_bye = [False] * n
        self.half_byes = [0] * n
        for k, rd in enumerate(ev["played"][:r]):
            for b in rd["boards"]:
                w, bl = b["white"], b["black"]
                pw, pb, over_board = RESULTS[b["result"]]
                self.score[w] += pw
                self.score[bl] += pb
                if over_board:
                    self.colours[w].append("W")
                    self.colours[bl].append("B")
                    self.by_round[w][k] = "W"
                    self.by_round[bl][k] = "B"
                    self.met.add((min(w, bl), max(w, bl)))
                if b["result"] == "+-":
                    self.had_bye[w] = True
                if b["result"] == "-+":
                    self.had_bye[bl] = True
            for p in rd["byes"]:
                self.score[p] += 2
                self.had_bye[p] = True
            for p in rd.get("half_byes", []):
                self.score[p] += 1
                self.half_byes[p] += 1

    def cd(self, p):
        return sum(1 if c == "W" else -1 for c in self.colours[p])

    def preference(self, p):
        """(strength, colour): 3 absolute, 2 strong, 1 mild, 0 none."""
        c = self.colours[p]
        if not c:
            return 0, None
        cd, last = self.cd(p), c[-1]
        other = "B" if last == "W" else "W"
        if cd > 1:
            return 3, "B"
        if cd < -1:
            return 3, "W"
        if len(c) >= 2 and c[-2] == last:
            return 3, other
        if cd == 1:
            return 2, "B"
        if cd == -1:
            return 2, "W"
        return 1, other


def pairing_numbers(players):
    order = sorted(range(len(players)), key=lambda i: (
        -players[i]["rating"], players[i]["title"] == "", players[i]["name"]))
    pno = [0] * len(players)
    for k, i in enumerate(order):
        pno[i] = k + 1
    return pno


def virtual_points(ev, rnd, pno):
    """The Baku virtual points (half points) of each player for round `rnd` (1-based)."""
    acc, n = ev.get("accelerated_rounds", 0), len(ev["players"])
    if rnd > acc:
        return [0] * n
    bonus = 2 if rnd <= (acc + 1) // 2 else 1
    group_a = min(n, 2 * ((n + 3) // 4))
    return [bonus if pno[p] <= group_a else 0 for p in range(n)]


class RoundCheck:
    def __init__(self, ev, r, pno, withdrawn_before):
        self.ev, self.r, self.pno = ev, r, pno
        self.h = History(ev, r)
        virt = virtual_points(ev, r + 1, pno)
        self.score = [s + v for s, v in zip(self.h.score, virt)]
        self.forbidden = {tuple(sorted(p)) for p in ev.get("forbidden", [])}
        rd = ev["played"][r]
        self.requested = set(rd.get("half_byes", [])) | set(rd.get("zero_byes", []))
        self.taking_part = [p for p in range(len(ev["players"]))
                            if p not in withdrawn_before and p not in self.requested]

    def rank_key(self, p):
        return (-self.score[p], self.pno[p])

    def colour_ok(self, p, c, level):
        if level >= 3:
            return True
        cd = self.h.cd(p) + (1 if c == "W" else -1)
        if cd > 2 or cd < -2:
            return False
        cols = self.h.colours[p]
        return not (level == 0 and len(cols) >= 2 and cols[-1] == c and cols[-2] == c)

    def allowed(self, a, b, level):
        if (min(a, b), max(a, b)) in self.forbidden:
            return False
        if level < 2 and (min(a, b), max(a, b)) in self.h.met:
            return False
        return ((self.colour_ok(a, "W", level) and self.colour_ok(b, "B", level)) or
                (self.colour_ok(a, "B", level) and self.colour_ok(b, "W", level)))

    def expected_bye(self, level):
        """The bye the rules give at `level`: None when none is needed, -1 when no pairing
        exists at that level, else the player."""
        players = self.taking_part
        ok = lambda a, b: self.allowed(a, b, level)
        if len(players) % 2 == 0:
            return None if perfect_matching_exists(players, ok) else -1
        for p in sorted(players, key=self.rank_key, reverse=True):
            if self.h.had_bye[p]:
                continue
            if perfect_matching_exists([q for q in players if q != p], ok):
                return p
        return -1

    def colour_of_rules(self, a, b, level):
        """Whether a (ranked above b) gets White by the colour rules (docs rule 7)."""
        (sa, ca), (sb, cb) = self.h.preference(a), self.h.preference(b)
        if sa == 0 and sb == 0:
            a_white = self.pno[a] % 2 == 1
        elif sb == 0:
            a_white = ca == "W"
        elif sa == 0:
            a_white = cb == "B"
        elif ca != cb:
            a_white = ca == "W"
        elif sa != sb or (sa == 3 and abs(self.h.cd(a)) != abs(self.h.cd(b))):
            a_stronger = sa > sb if sa != sb else abs(self.h.cd(a)) > abs(self.h.cd(b))
            a_white = ca == "W" if a_stronger else cb == "B"
        else:
            a_white = ca == "W"
            ra, rb = self.h.by_round[a], self.h.by_round[b]
            for k in range(len(ra) - 1, -1, -1):
                if ra[k] != "-" and rb[k] != "-" and ra[k] != rb[k]:
                    a_white = ra[k] == "B"
                    break
        if a_white:
            ok = self.colour_ok(a, "W", level) and self.colour_ok(b, "B", level)
        else:
            ok = self.colour_ok(a, "B", level) and self.colour_ok(b, "W", level)
        return a_white if ok else not a_white


def check_event(ev, stats, problems, event_no):
    pno = pairing_numbers(ev["players"])
    withdrawn_final = {i for i, p in enumerate(ev["players"]) if p.get("withdrawn")}
    gone = set()  # withdrawn after losing a board by forfeit: not paired from then on
    forfeited = set()  # lost a board by forfeit so far
    half_total = [0] * len(ev["players"])
    last = ev["rounds"]

    def fail(r, what):
        problems.append(f"event {event_no}, round {r + 1}: {what}")

    for r, rd in enumerate(ev["played"]):
        in_round = {p for b in rd["boards"] for p in (b["white"], b["black"])} | set(rd["byes"])
        requested = set(rd.get("half_byes", [])) | set(rd.get("zero_byes", []))
        for p in range(len(ev["players"])):
            if p in in_round or p in requested or p in gone:
                continue
            if p in withdrawn_final and p in forfeited:
                gone.add(p)
            else:
                fail(r, f"player {p} is left out without a forfeit that withdrew him")
        c = RoundCheck(ev, r, pno, gone)
        stats["rounds"] += 1
        for p in rd.get("half_byes", []):
            half_total[p] += 1
            if half_total[p] > ev.get("max_half_byes", 2):
                fail(r, f"player {p} has more half-point byes than the limit")
            if r + 1 == last and not ev.get("half_bye_last_round", False):
                fail(r, f"player {p} has a half-point bye in the last round")
        seen = {}
        for b in rd["boards"]:
            for p in (b["white"], b["black"]):
                seen[p] = seen.get(p, 0) + 1
        for p in rd["byes"]:
            seen[p] = seen.get(p, 0) + 1
        for p in c.taking_part:
            if seen.get(p, 0) != 1:
                fail(r, f"player {p} is paired {seen.get(p, 0)} times")
        for p in seen:
            if p not in c.taking_part:
                fail(r, f"player {p} is paired but withdrew or asked for a bye")
        for b in rd["boards"]:
            if b["result"] in ("+-", "--"):
                forfeited.add(b["black"])
            if b["result"] in ("-+", "--"):
                forfeited.add(b["white"])
        level, bye = 0, -1
        while level <= 3:
            bye = c.expected_bye(level)
            if bye != -1:
                break
            level += 1
        stats["levels"][level] += 1
        got_bye = rd["byes"][0] if rd["byes"] else None
        if len(rd["byes"]) > 1:
            fail(r, "more than one pairing bye")
        if got_bye is not None and c.h.had_bye[got_bye]:
            fail(r, f"player {got_bye} gets a second bye (or a bye after a forfeit win)")
        stats["byes"] += got_bye is not None
        if got_bye != bye:
            stats["bye_disagree"] += 1
            problems.append(f"quality: event {event_no}, round {r + 1}: the bye went to "
                            f"{got_bye}, the rules give it to {bye}")
        keys = []
        for b in rd["boards"]:
            w, bl = b["white"], b["black"]
            if (min(w, bl), max(w, bl)) in c.forbidden:
                fail(r, f"forbidden pair {w}-{bl} paired")
            if not (c.colour_ok(w, "W", level) and c.colour_ok(bl, "B", level)) or \
                    not c.allowed(w, bl, level):
                fail(r, f"board {w}-{bl} breaks a criterion of level {level}")
            a, o = (w, bl) if c.rank_key(w) < c.rank_key(bl) else (bl, w)
            stats["boards"] += 1
            if c.colour_of_rules(a, o, level) != (a == w):
                stats["colour_disagree"] += 1
            hi, lo = max(c.score[w], c.score[bl]), min(c.score[w], c.score[bl])
            keys.append((-hi, -(hi + lo), min(c.rank_key(w), c.rank_key(bl))))
        if keys != sorted(keys):
            stats["order_disagree"] += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sim", required=True, help="the swiss_sim binary")
    ap.add_argument("--events", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    start = time.time()
    out = subprocess.run([args.sim, str(args.events), str(args.seed)], check=True,
                         capture_output=True, text=True).stdout
    stats = {"rounds": 0, "boards": 0, "byes": 0, "bye_disagree": 0, "colour_disagree": 0,
             "order_disagree": 0, "levels": [0, 0, 0, 0, 0], "failed": 0}
    problems = []
    events = [json.loads(line) for line in out.splitlines()]
    for k, ev in enumerate(events):
        if ev.get("failed"):
            stats["failed"] += 1
        check_event(ev, stats, problems, k)
    absolute = [p for p in problems if not p.startswith("quality")]
    checked = stats["boards"] + stats["byes"] + stats["rounds"]
    disagree = stats["colour_disagree"] + stats["bye_disagree"] + stats["order_disagree"]
    agreement = 1 - disagree / max(1, checked)
    events_agreeing = len(events) - len({p.split(",")[0] for p in problems})
    print(f"{len(events)} events, {stats['rounds']} rounds, {stats['boards']} boards, "
          f"{stats['byes']} byes; stopped early (no pairing): {stats['failed']}")
    print(f"rounds by strictest level with a pairing (0..3, none): {stats['levels']}")
    print(f"absolute criteria broken: {len(absolute)}")
    print(f"quality: colours differ on {stats['colour_disagree']} boards, byes on "
          f"{stats['bye_disagree']}, board order in {stats['order_disagree']} rounds; "
          f"agreement {100 * agreement:.2f} % (threshold {100 * AGREEMENT_THRESHOLD:.1f} %)")
    print(f"events without any finding: {events_agreeing} of {len(events)}")
    print(f"time {time.time() - start:.1f} s")
    for p in (problems if args.verbose else absolute)[:20]:
        print(p)
    return 1 if absolute or agreement < AGREEMENT_THRESHOLD else 0


if __name__ == "__main__":
    sys.exit(main())
