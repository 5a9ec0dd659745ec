"""The examples/ scripts run and print what they promise."""
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_random_vs_engine_prints_results():
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "random_vs_engine.py"), "--games", "2",
                          "--depth", "2"], capture_output=True, text=True, timeout=60, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 3
    for line in lines[:2]:
        assert re.match(r"game \d: \S+.* - .*  (1-0|0-1|1/2-1/2)  \((decided|no-move|repetition), \d+-\d+, \d+ plies\)$",
                        line), line
    assert re.match(r".* scored [0-9.]+ / 2 against random$", lines[2])
