"""Shared fixtures: a fresh database file per test, the CLI run as users run it, the kernels validated on the CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

# Triton takes the interpreter decision once per function, when @triton.jit runs: its own library functions
# (tl.cdiv, tl.max, ...) at `import triton`, ours when their module is imported. A test module that set the
# variable itself came too late whenever another one had imported triton first (tests/test_hopper_attention.py
# collected before tests/test_attention_compile.py broke its opcheck), so it is set here, before pytest imports
# any test module: the whole test process interprets. The device checks run in subprocesses without it.
os.environ["TRITON_INTERPRET"] = "1"

# What a developer's shell or a CI service may export that changes what the tests see, dropped for the test process
# and the CLI subprocesses it starts: rich's and typer's terminal (a narrow COLUMNS wraps the tables the CLI tests
# read, FORCE_COLOR and GITHUB_ACTIONS put escape codes in them) and shijie's own knobs (the default database, the
# tuner's forced dQ strategy and loads, the benchmark's implementations, the arXiv endpoint). A test that wants one
# sets it itself (monkeypatch.setenv, a subprocess's env). SHIJIE_VISION_CACHE stays: it says where the real
# documents of the Vision tests are.
for _name in (
    *("COLUMNS", "LINES", "JUPYTER_COLUMNS", "JUPYTER_LINES", "TERMINAL_WIDTH", "FORCE_COLOR", "NO_COLOR", "PY_COLORS"),
    *("TTY_COMPATIBLE", "TTY_INTERACTIVE", "GITHUB_ACTIONS", "_TYPER_FORCE_DISABLE_TERMINAL"),
    *("SHIJIE_DB", "SHIJIE_ATTN_DQ", "SHIJIE_ATTN_TMA_LOADS", "SHIJIE_BENCH_IMPLS", "SHIJIE_ARXIV_API"),
):
    os.environ.pop(_name, None)

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "shijie.db"


class Cli:
    """Runs ``shijie`` in-process (fast) and parses ``--json`` output."""

    def __init__(self, db: Path):
        self.db = db
        self.runner = CliRunner()

    def __call__(self, *args: str, expect: int = 0):
        from shijie.cli import app

        argv = [*args, "--db", str(self.db)] if "--db" not in args else list(args)
        result = self.runner.invoke(app, argv, catch_exceptions=False)
        assert result.exit_code == expect, (result.exit_code, result.output)
        return result

    def json(self, *args: str):
        result = self(*args, "--json")
        return json.loads(result.stdout)


@pytest.fixture
def cli(db_path: Path) -> Cli:
    return Cli(db_path)


def run_shijie(*args: str, timeout: float = 300, **kwargs) -> subprocess.CompletedProcess:
    """Runs ``python -m shijie`` in a real subprocess with this checkout on the path."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run(
        [sys.executable, "-m", "shijie", *args], capture_output=True, text=True, timeout=timeout, env=env, **kwargs
    )


def validate_on_cpu(cases: list, dtype, strategy: str, seed: int) -> list[dict]:
    """``kernel_check.validate`` of ``cases`` under Triton's interpreter, with a fresh tuner using ``strategy``
    for dQ; asserts every case ran, came out finite and within twice PyTorch's own error."""
    from skills.operator_adaptation import kernel_check
    from skills.operator_adaptation.tuner import Tuner

    rows = kernel_check.validate("cpu", dtype, cases, seed=seed, tuner=Tuner(None, dq_strategy=strategy))
    assert len(rows) == len(cases)
    for row in rows:
        assert all(row[f"{name}_nonfinite"] == 0 for name in kernel_check.GRADS), row
        assert row["ok"], row
    return rows
