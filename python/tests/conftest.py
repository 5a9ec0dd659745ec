"""Shared fixtures: the test vectors (TOGUZ_TEST_DATA, else the repository's tests/data)."""
import json
import os
import pathlib

import pytest

try:
    import toguz  # noqa: F401  (the module under test: <build>/python on PYTHONPATH)
except ImportError as error:
    raise pytest.UsageError(f"cannot import toguz ({error}): build it first (ninja -C <build> python) "
                            "and put <build>/python on PYTHONPATH") from error

DATA = pathlib.Path(os.environ.get("TOGUZ_TEST_DATA",
                                   pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"))


def load_json(name):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def load_jsonl(name):
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def holes(moves):
    return [int(h) for h in moves.split()]


@pytest.fixture(scope="session")
def data_dir():
    return DATA
