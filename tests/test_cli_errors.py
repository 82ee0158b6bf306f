"""Errors as a script sees them: with ``--json`` every error is one JSON object on stdout with the exit code
it has without ``--json``; Ctrl-C says which command resumes the work, and that command does. Real
subprocesses, a real loopback site."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, run_shijie
from siteserver import Site, html

from pipeline.store import open_db


@pytest.fixture
def empty_db(tmp_path) -> Path:
    path = tmp_path / "shijie.db"
    open_db(path).conn.close()
    return path


def cases(tmp_path: Path, db: Path) -> list[tuple[list[str], int, str, str | None]]:
    """(argv, exit code, kind, field) for errors of every kind a user meets."""
    profile = tmp_path / "profile.toml"
    profile.write_text("text = [unclosed\n")
    numbers = tmp_path / "numbers"
    numbers.mkdir()
    (numbers / "table.txt").write_text(" ".join(str(n) for n in range(500)))
    return [
        (["curate", "--min-value", "200", "--db", str(db)], 1, "usage", "--min-value"),
        (["curate", "--min-value", "abc", "--db", str(db)], 2, "arguments", "--min-value"),
        (["crawl", "--no-such-flag", "--db", str(db)], 2, "arguments", None),
        (["show", "12345", "--db", str(db)], 1, "usage", None),
        (["score", "--db", str(db)], 1, "empty", None),
        (["score", "--profile", str(profile), "--db", str(db)], 1, "data", None),
        (["mastery", "--db", str(tmp_path / "typo.db")], 1, "usage", "--db"),
        (["mastery", "--db", str(tmp_path)], 1, "usage", "--db"),
        (["mastery", "--lang", "fr", "--db", str(db)], 1, "usage", "--lang"),
        (["skills", "learn", "telepathy", "--db", str(db)], 1, "usage", None),
    ]


def test_every_error_under_json_is_one_object_on_stdout_with_the_same_exit_code(tmp_path, empty_db):
    for argv, code, kind, field in cases(tmp_path, empty_db):
        plain = run_shijie(*argv)
        assert plain.returncode == code and plain.stdout == "", (argv, plain.stdout, plain.stderr)
        assert "Traceback" not in plain.stderr
        result = run_shijie(*argv, "--json")
        assert result.returncode == code, (argv, result.stderr)
        assert result.stdout.count("\n") == 1, (argv, result.stdout)  # one line: one JSON document
        error = json.loads(result.stdout)
        assert (error["kind"], error["field"]) == (kind, field), (argv, error)
        assert error["error"] and "Traceback" not in result.stderr
        if code == 1:  # the same line a person reads
            assert plain.stderr.strip() == f"error: {error['error']}"


def test_a_seed_named_json_after_the_separator_is_not_the_flag(tmp_path, empty_db):
    result = run_shijie("crawl", "--db", str(empty_db), "--", "--json")
    assert result.returncode == 1 and result.stdout == "" and result.stderr.startswith("error: ")


def test_an_empty_vocabulary_is_a_clear_message(tmp_path):
    db = tmp_path / "numbers.db"
    folder = tmp_path / "tables"
    folder.mkdir()
    for i in range(3):
        (folder / f"t{i}.txt").write_text(" ".join(str(n * (i + 1)) for n in range(400)))
    assert run_shijie("crawl", str(folder), "--db", str(db)).returncode == 0
    result = run_shijie("score", "--db", str(db))
    assert result.returncode == 1 and "IndexError" not in result.stderr
    assert result.stderr.strip() == (
        "error: nothing to score: the 3 document(s) hold no words, only numbers, symbols or stop words;"
        " crawl documents with text"
    )


def slow_site(pages: int) -> Site:
    site = Site(latency_s=0.2)
    paths = [f"/p{i}" for i in range(pages)]
    site.page("/", html("Index", "Kernel notes.", links=paths))
    for path in paths:
        site.page(path, html(f"Note {path}", f"Warp tiling note {path}. " * 30))
    return site


def interrupt(argv: list[str], site: Site) -> subprocess.CompletedProcess:
    """Runs ``shijie argv`` and presses Ctrl-C (SIGINT) once the site has answered a few requests."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(  # SIGINT as a terminal delivers it, even where the runner ignores it (nohup, &)
        [sys.executable, "-m", "shijie", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    while len(site.requests) < 3 and process.poll() is None:
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.mark.parametrize("as_json", [False, True], ids=["human", "json"])
def test_ctrl_c_says_how_to_resume_and_that_command_resumes(tmp_path, as_json):
    site = slow_site(12)
    db = tmp_path / "shijie.db"
    with site.serve() as base:
        argv = ["crawl", base + "/", "--delay", "0", "--db", str(db), *(["--json"] if as_json else [])]
        stopped = interrupt(argv, site)
        assert stopped.returncode == 130, stopped.stderr
        if as_json:
            error = json.loads(stopped.stdout)
            assert error["kind"] == "interrupted" and stopped.stderr == ""
            resume = error["resume"]
        else:
            (line,) = stopped.stderr.strip().splitlines()
            assert line.startswith("error: interrupted: what was already stored is kept; to resume, run: ")
            resume = line.split("to resume, run: ", 1)[1]
        assert resume == shlex.join(["shijie", *argv])
        program, *rest = shlex.split(resume)
        assert program == "shijie"
        resumed = run_shijie(*rest, *([] if as_json else ["--json"]))
        assert resumed.returncode == 0, resumed.stderr
        stats = json.loads(resumed.stdout)
        assert stats["resumed"] is True and stats["documents_total"] == 13


def test_ctrl_c_in_zh_says_it_in_chinese(tmp_path):
    site = slow_site(8)
    with site.serve() as base:
        stopped = interrupt(["crawl", base + "/", "--delay", "0", "--db", str(tmp_path / "x.db"), "--lang", "zh"], site)
    assert stopped.returncode == 130 and "已中断" in stopped.stderr and "shijie crawl" in stopped.stderr


def test_one_key_for_remarks_across_results(tmp_path):
    # Invocation results speak of remarks as "notes" only (a list); "note" was the same concept, twice
    from skills.protocol import Invocation

    old = Invocation.from_json({"op": "Softmax", "adapted": False, "note": "not adapted", "notes": ["x"]})
    assert old.notes == ["not adapted", "x"] and "note" not in old.to_json() and "note" not in old.extras
    fresh = Invocation(op="Softmax", adapted=False, adaptation_list=[], knowledge=[], notes=["why"])
    assert "note" not in fresh.to_json() and fresh.to_json()["notes"] == ["why"]
