"""``shijie run`` end to end, as a newcomer runs it: a real subprocess, the embedded corpus served on
127.0.0.1, a fresh database and output folder; then the same again on the same database."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from conftest import run_shijie

from shijie.report.browser import Chromium, find_chromium

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("run")
    db, out = tmp / "shijie.db", tmp / "report"
    result = run_shijie("run", "--db", str(db), "--out", str(out), "--device", "cpu", "--json")
    assert result.returncode == 0, result.stderr[-3000:]
    return db, out, result


def _counts(db: Path) -> dict:
    with sqlite3.connect(db) as conn:
        return {
            "documents": conn.execute("SELECT count(*) FROM documents").fetchone()[0],
            "distinct_urls": conn.execute("SELECT count(DISTINCT url) FROM documents").fetchone()[0],
            "frontier": conn.execute("SELECT count(*) FROM frontier").fetchone()[0],
            "scores": conn.execute("SELECT count(*) FROM scores").fetchone()[0],
            "packs": conn.execute("SELECT count(*) FROM knowledge_packs").fetchone()[0],
        }


def test_json_is_one_document_with_every_stage(first_run):
    _, out, result = first_run
    results = json.loads(result.stdout)  # exactly one JSON document on stdout
    for key in ("crawl", "documents", "curate", "mastery", "learn", "skills", "invoke", "report", "timings"):
        assert key in results, key
    assert results["crawl"]["stored"] > 10
    assert results["curate"]["kept"] > 0 and results["mastery"]["overall"] > 0
    invoke = results["invoke"]
    assert invoke["op"] == "FusedAttentionBackward" and invoke["device"] == "cpu"
    assert invoke["validation"] and all(row["passed"] for row in invoke["validation"])
    assert Path(results["report"]) == out / "report.html"


def test_progress_on_stderr(first_run):
    _, _, result = first_run
    for stage in ("crawl", "score", "curate", "learn", "invoke", "report"):
        assert stage in result.stderr
    assert "[Recognizing skill structure…]" in result.stderr


def test_report_has_the_whole_story(first_run):
    _, out, result = first_run
    page = (out / "report.html").read_text(encoding="utf-8")
    results = json.loads(result.stdout)
    top = results["documents"][0]
    assert f"[Value: {top['value']}] [Relevance: {top['relevance']}] [Redundancy: {top['redundancy']}]" in page
    assert f"[Domain mastery: {100 * results['mastery']['overall']:.1f}%]" in page
    assert '<section id="mastery">' in page and "GPU architecture" in page  # the bar chart, domain titles
    assert "Validation against the float64 reference" in page and "relative vs float64" in page
    assert '<section id="knowledge">' in page and "Topics → passages → adaptation steps" in page
    assert "Memory hierarchy of the target" in page
    assert "Benchmark: not run" in page  # CPU run: said so, no fake table
    assert "<script" not in page


def test_report_in_a_real_browser(first_run, tmp_path):
    if find_chromium() is None:
        pytest.skip("chromium is not installed (apt-get install chromium); the browser checks need it")
    _, out, _ = first_run
    with Chromium(width=1280, height=1000) as browser:
        loaded = browser.open(out / "report.html")
        assert loaded.errors == []
        charts = browser.evaluate(
            "Array.from(document.querySelectorAll('svg.chart')).map(s => {const b = s.getBoundingClientRect();"
            " return [b.width, b.height, s.querySelectorAll('.bar, .node, .tile').length]})"
        )
        assert len(charts) >= 4  # value spread, mastery, concept graph, memory hierarchy
        assert all(w > 100 and h > 50 and marks > 0 for w, h, marks in charts), charts
        shot = browser.screenshot(tmp_path / "report.png")
        assert shot.read_bytes()[:4] == b"\x89PNG"


def test_second_run_on_the_same_db_resumes_without_duplicates(first_run):
    db, out, _ = first_run
    before = _counts(db)
    result = run_shijie("run", "--db", str(db), "--out", str(out), "--device", "cpu")
    assert result.returncode == 0, result.stderr[-3000:]
    after = _counts(db)
    assert after["documents"] == before["documents"] == after["distinct_urls"]
    assert after["frontier"] == before["frontier"]
    assert after["packs"] == before["packs"] == 1
    # the finished crawl was re-checked with conditional requests: every page answered 304
    checked = re.search(r"crawl (\d+) fetched \((\d+) unchanged since the last run\), 0 new documents", result.stderr)
    assert checked and int(checked.group(1)) == int(checked.group(2)) > 0, result.stderr
    # ends with the panels and the report's path
    tail = result.stdout.strip().splitlines()
    assert tail[-1] == f"report: {out / 'report.html'}"
    assert any(line.startswith("[Domain mastery: ") for line in tail)
    assert any(line.startswith("[Operator Adaptation Lv.") for line in tail)


def test_bad_device_is_a_one_line_error(tmp_path):
    result = run_shijie("run", "--db", str(tmp_path / "x.db"), "--device", "tpu")
    assert result.returncode == 1
    assert result.stderr.strip() == "error: --device must be auto, cpu or cuda, not 'tpu'"


def test_out_that_is_a_file_is_a_one_line_error(tmp_path):
    taken = tmp_path / "report.txt"
    taken.write_text("not a folder")
    result = run_shijie("run", "--db", str(tmp_path / "x.db"), "--out", str(taken))
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: --out {taken} is a file; give a folder"
    assert not (tmp_path / "x.db").exists()


def test_cuda_without_a_gpu_fails_before_the_crawl(tmp_path):
    from skills.operator_adaptation.skill import cuda_status

    usable, detail = cuda_status()
    if usable:
        pytest.skip("this machine has a CUDA device")
    result = run_shijie("run", "--db", str(tmp_path / "x.db"), "--device", "cuda")
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: --device cuda: {detail}; use --device cpu or auto"
    assert not (tmp_path / "x.db").exists()
