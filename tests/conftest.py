"""Shared fixtures: a fresh database file per test, and the CLI run as users run it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

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
