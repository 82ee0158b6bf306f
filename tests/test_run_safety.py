"""``shijie run`` on a user's database: the embedded demo never goes into one that holds other documents,
``run SEED…`` does the whole job on the user's own sources, and a report folder that cannot be written is
a one-line error before any work. The CLI in real subprocesses, on real files."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
from conftest import REPO, run_shijie
from locations import read_only_folder
from own_notes import notes

from pipeline.crawl import crawl_embedded
from pipeline.store import non_demo_documents, open_db


def dump(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return hashlib.sha256("\n".join(conn.iterdump()).encode()).hexdigest()


def test_the_demo_is_refused_on_a_database_holding_the_users_documents(tmp_path):
    db = tmp_path / "mine.db"
    crawled = run_shijie("crawl", str(notes(tmp_path / "papers", 3)), "--db", str(db))
    assert crawled.returncode == 0, crawled.stderr
    before = dump(db)
    result = run_shijie("run", "--db", str(db), "--out", str(tmp_path / "report"), "--device", "cpu")
    assert result.returncode == 1 and result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"error: {db} holds 3 document(s) that are not the embedded demo")
    assert f"shijie run SEED… --db {db}" in line and "shijie run --db demo.db" in line
    assert dump(db) == before  # not a page crawled, not a document curated
    assert not (tmp_path / "report").exists()
    as_json = run_shijie("run", "--db", str(db), "--device", "cpu", "--json")
    assert as_json.returncode == 1 and "not the embedded demo" in json.loads(as_json.stdout)["error"]


def test_a_database_holding_the_demo_alone_may_take_the_demo_again(tmp_path):
    db = open_db(tmp_path / "demo.db")
    assert non_demo_documents(db) == 0  # empty
    stats = crawl_embedded(db)
    assert stats.stored > 10 and non_demo_documents(db) == 0  # the demo alone, its arXiv entries included
    crawl_embedded(db)  # served again (another port: every URL moves with it)
    assert non_demo_documents(db) == 0
    from pipeline.crawl import crawl

    crawl(db, [str(notes(tmp_path / "papers", 2))])
    assert non_demo_documents(db) == 2


@pytest.mark.slow
def test_run_with_seeds_does_the_whole_job_on_the_users_sources(tmp_path):
    db, out = tmp_path / "mine.db", tmp_path / "report"
    sources = REPO / "data" / "corpus"  # read as the user's own folder of files, not served as the demo
    result = run_shijie("run", str(sources), "--db", str(db), "--out", str(out), "--device", "cpu", "--json")
    assert result.returncode == 0, result.stderr[-3000:]
    job = json.loads(result.stdout)
    assert job["crawl"]["stored"] > 10 and job["curate"]["kept"] > 0
    assert job["learn"]["level"] >= 1 and all(row["passed"] for row in job["invoke"]["validation"])
    assert Path(job["report"]) == out / "report.html" and (out / "report.html").exists()
    with sqlite3.connect(db) as conn:
        urls = [url for (url,) in conn.execute("SELECT url FROM documents")]
    # the user's files (and the arXiv entries of the Atom feed among them), no demo served on loopback mixed in
    assert sum(url.startswith("file:") for url in urls) > 10
    assert all(url.startswith(("file:", "https://arxiv.org/")) for url in urls)


def test_run_with_seeds_whose_mastery_leaves_the_skill_locked_still_reports(tmp_path):
    garden = tmp_path / "garden"
    garden.mkdir()
    for name in ("tomatoes", "roses", "compost"):
        (garden / f"{name}.md").write_text(f"# {name}\n\nWater the {name} in the morning; mulch in summer.\n" * 5)
    db, out = tmp_path / "garden.db", tmp_path / "report"
    result = run_shijie("run", str(garden), "--db", str(db), "--out", str(out), "--device", "cpu", "--json")
    assert result.returncode == 0, result.stderr[-3000:]
    job = json.loads(result.stdout)
    assert job["learn"] is None and job["invoke"] is None and (out / "report.html").exists()
    assert "operator-adaptation is still locked" in result.stderr


def test_an_unwritable_report_folder_fails_before_any_work(tmp_path):
    with read_only_folder(tmp_path, []) as locked:
        db = tmp_path / "new.db"
        result = run_shijie("run", "--db", str(db), "--out", str(locked / "report"), "--device", "cpu")
        assert result.returncode == 1 and result.stdout == ""
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith(f"error: --out {locked / 'report'} cannot be written (")
        assert not db.exists()  # refused before the database was even opened
        as_json = run_shijie("run", "--db", str(db), "--out", str(locked), "--json")
        assert as_json.returncode == 1 and json.loads(as_json.stdout)["kind"] == "usage"
        open_db(db).conn.close()
        exported = run_shijie("skills", "export", "operator-adaptation", str(locked), "--db", str(db))
        assert exported.returncode == 1
        (line,) = exported.stderr.strip().splitlines()
        assert line.startswith(f"error: directory {locked} cannot be written (")
