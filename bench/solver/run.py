#!/usr/bin/env python3
"""The solver benchmark: the distribution of `toguz solve` over the endgame sets
(tests/data/endgames-*.jsonl), result only and with the margin, for this build beside a
baseline (docs/tables.md, "Endgame sets").

  bench/solver/run.py [--baseline-rev REV | --baseline BIN] [--nodes N] [--sets F ...] [TOGUZ]

TOGUZ defaults to build/toguz. --baseline-rev builds REV (e.g. HEAD~1) once in
/tmp/toguz-solver-<sha> (a detached git worktree, Release build) and runs it too; each set and
mode runs the baseline, then this build, so a loaded machine slows both alike. Prints per set
and mode: positions proven, CPU ms and nodes per position (median, 90th percentile, max).
CPU ms is the solve's process CPU time (wall time swings with the machine's load). A
baseline without `--positions` (before it existed) is run one position at a time.
"""
import argparse, json, os, resource, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def build_baseline(rev):
    sha = subprocess.check_output(["git", "-C", ROOT, "rev-parse", "--short", rev], text=True).strip()
    d = f"/tmp/toguz-solver-{sha}"
    binary = f"{d}/build/toguz"
    if not os.path.exists(binary):
        if not os.path.isdir(d):
            subprocess.check_call(["git", "-C", ROOT, "worktree", "add", "--detach", d, sha],
                                  stdout=subprocess.DEVNULL)
        subprocess.check_call(["cmake", "-S", d, "-B", f"{d}/build", "-G", "Ninja",
                               "-DCMAKE_BUILD_TYPE=Release", "-DTOGUZ_TESTS=OFF",
                               "-DTOGUZ_BENCH=OFF", "-DTOGUZ_PYTHON=OFF"], stdout=subprocess.DEVNULL)
        subprocess.check_call(["ninja", "-C", f"{d}/build", "toguz"], stdout=subprocess.DEVNULL)
    return binary


def positions(path):
    with open(path) as f:
        return [json.loads(l)["position"] for l in f if l.startswith("{")]


def child_cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def run(binary, path, flags):
    """One JSON row per position: result, margin, nodes, cpu_ms."""
    p = subprocess.run([binary, "solve", "--positions", path] + flags, capture_output=True, text=True)
    if p.returncode in (0, 3):
        return [json.loads(l) for l in p.stdout.splitlines()]
    rows = []  # a binary without --positions: one process per position
    for pos in positions(path):
        c0 = child_cpu_ms()
        q = subprocess.run([binary, "solve", "--position", pos] + flags, capture_output=True, text=True)
        row = json.loads(q.stdout) if q.returncode == 0 else {"result": None, "margin": None,
                                                             "nodes": 0, "time_ms": 0}
        if q.returncode != 0:  # "not proven ... (N nodes)" on stderr
            row["nodes"] = int(q.stderr.rsplit("(", 1)[-1].split()[0]) if "(" in q.stderr else 0
        row["cpu_ms"] = round(child_cpu_ms() - c0)
        rows.append(row)
    return rows


def quantile(xs, f):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(f * len(xs)))] if xs else 0


def summary(label, rows):
    proven = sum(r["result"] is not None for r in rows)
    margins = sum(r.get("margin") is not None for r in rows)
    cpu = [r.get("cpu_ms", r["time_ms"]) for r in rows]
    nodes = [r["nodes"] for r in rows]
    print(f"  {label:<8} proven {proven}/{len(rows)} (margin {margins})  cpu_ms median "
          f"{quantile(cpu, .5)} p90 {quantile(cpu, .9)} max {max(cpu)}  nodes median "
          f"{quantile(nodes, .5)} p90 {quantile(nodes, .9)} max {max(nodes)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("toguz", nargs="?", default=f"{ROOT}/build/toguz")
    ap.add_argument("--baseline")
    ap.add_argument("--baseline-rev")
    ap.add_argument("--nodes", type=int, default=0, help="node limit per position (0 = none)")
    ap.add_argument("--sets", nargs="+", default=[f"{ROOT}/tests/data/endgames-6-11.jsonl",
                                                  f"{ROOT}/tests/data/endgames-12-18.jsonl"])
    ap.add_argument("--modes", nargs="+", default=["result", "margin"])
    a = ap.parse_args()
    baseline = build_baseline(a.baseline_rev) if a.baseline_rev else a.baseline
    for path in a.sets:
        for mode in a.modes:
            flags = ["--json", "--nodes", str(a.nodes)] + (["--result-only"] if mode == "result" else [])
            print(f"{os.path.basename(path)} {mode}", flush=True)
            if baseline:
                summary("baseline", run(baseline, path, flags))
            summary("this", run(a.toguz, path, flags))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
