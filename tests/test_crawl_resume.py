"""Kill -9 in the middle of a real ``python -m shijie crawl`` and resume; re-crawls; duplicates; discarded."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from conftest import REPO
from siteserver import Reply, Site, html

from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db

PAGES = 60


def chain_site(latency_s: float) -> Site:
    """Page i links to pages 2i+1 and 2i+2: a tree of PAGES distinct pages."""
    site = Site(latency_s=latency_s)
    for i in range(PAGES):
        links = [f"/p/{j}.html" for j in (2 * i + 1, 2 * i + 2) if j < PAGES]
        site.page(f"/p/{i}.html", html(f"page {i}", f"distinct body number {i}", links))
    return site


def count(db_path, sql):
    with sqlite3.connect(db_path, timeout=10) as conn:
        return conn.execute(sql).fetchone()[0]


def test_kill_9_mid_crawl_then_resume(db_path):
    site = chain_site(latency_s=0.05)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with site.serve() as base:
        argv = [
            sys.executable,
            "-m",
            "shijie",
            "crawl",
            base + "/p/0.html",
            "--db",
            str(db_path),
            "--delay",
            "0",
            "--concurrency",
            "2",
            "--max-depth",
            "10",
            "--json",
        ]
        proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if (
                db_path.exists()
                and count(db_path, "SELECT count(*) FROM sqlite_master WHERE name='documents'")
                and count(db_path, "SELECT count(*) FROM documents") >= 15
            ):
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        stored_at_kill = count(db_path, "SELECT count(*) FROM documents")
        assert 15 <= stored_at_kill < PAGES, stored_at_kill  # killed mid-crawl
        assert count(db_path, "SELECT count(*) FROM crawl_runs WHERE finished_at IS NULL") == 1

        resumed = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    stats = json.loads(resumed.stdout)
    assert stats["resumed"] is True and stats["errors"] == 0
    assert count(db_path, "SELECT count(*) FROM documents") == PAGES
    assert count(db_path, "SELECT count(DISTINCT url) FROM documents") == PAGES
    assert count(db_path, "SELECT count(*) FROM url_aliases") == 0
    assert count(db_path, "SELECT count(*) FROM frontier WHERE status != 'done'") == 0
    assert count(db_path, "SELECT count(*) FROM frontier") == PAGES
    assert stats["stored"] == PAGES - stored_at_kill  # each page stored by exactly one of the two processes
    # only pages in flight (or not yet committed) at the kill were asked for twice
    page_hits = [len(site.hits(f"/p/{i}.html")) for i in range(PAGES)]
    assert min(page_hits) == 1 and max(page_hits) <= 2
    assert sum(h - 1 for h in page_hits) <= 30
    assert count(db_path, "SELECT count(*) FROM crawl_runs") == 1


def test_page_cap_counts_across_a_resume_and_extends_on_request(db_path):
    site = chain_site(latency_s=0)
    db = open_db(db_path)
    with site.serve() as base:
        first = crawl(db, [base + "/p/0.html"], CrawlSettings(delay=0, max_pages=10, max_depth=10))
        assert first.fetched == 10 and first.queued > 0
        second = crawl(db, [base + "/p/0.html"], CrawlSettings(delay=0, max_pages=1000, max_depth=10))
    assert second.stored == PAGES - 10 and second.queued == 0
    assert db.execute("SELECT count(*) FROM documents").fetchone()[0] == PAGES


def test_recrawl_sends_conditional_requests(db_path):
    site = Site()
    site.route(
        "/",
        lambda req: (
            Reply(304)
            if req.headers.get("if-none-match") == '"v1"'
            else Reply(body=html("home", links=["/dated"]).encode(), headers={"ETag": '"v1"'})
        ),
    )
    stamp = "Wed, 21 Oct 2015 07:28:00 GMT"
    site.route(
        "/dated",
        lambda req: (
            Reply(304)
            if req.headers.get("if-modified-since") == stamp
            else Reply(body=html("dated").encode(), headers={"Last-Modified": stamp})
        ),
    )
    db = open_db(db_path)
    with site.serve() as base:
        crawl(db, [base + "/"], CrawlSettings(delay=0))
        again = crawl(db, [base + "/"], CrawlSettings(delay=0, recrawl=True))
    assert again.not_modified == 2 and again.stored == 0
    assert db.execute("SELECT count(*) FROM documents").fetchone()[0] == 2  # the 304 kept both documents
    assert site.hits("/")[1].headers["if-none-match"] == '"v1"'


def test_same_content_under_two_urls_is_stored_once(db_path):
    site = Site()
    body = html("lecture 3", "warp-level reductions with shuffles")
    site.page("/", html("home", links=["/a/lecture3.html", "/mirror/lecture3.html"]))
    site.page("/a/lecture3.html", body)
    site.page("/mirror/lecture3.html", body)
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], CrawlSettings(delay=0))
    assert stats.stored == 2 and stats.duplicates == 1
    ((alias, doc_url),) = db.execute(
        "SELECT a.url, d.url FROM url_aliases a JOIN documents d ON d.id = a.document_id"
    ).fetchall()
    assert {alias, doc_url} == {base + "/a/lecture3.html", base + "/mirror/lecture3.html"}


def test_discarded_urls_are_skipped(db_path):
    site = Site()
    site.page("/", html("home", links=["/dropped.html", "/kept.html"]))
    site.page("/dropped.html", html("dropped"))
    site.page("/kept.html", html("kept"))
    db = open_db(db_path)
    with site.serve() as base:
        db["discarded"].insert({"url": base + "/dropped.html", "reason": "low value", "value": 3, "at": 0})
        stats = crawl(db, [base + "/"], CrawlSettings(delay=0))
    assert not site.hits("/dropped.html") and stats.skipped["discarded"] == 1


def test_recrawl_updates_a_changed_page_in_place(db_path):
    versions = {"text": "first version of the occupancy notes"}
    site = Site()
    site.route("/", lambda req: Reply(body=html("notes", versions["text"]).encode()))
    db = open_db(db_path)
    with site.serve() as base:
        crawl(db, [base + "/"], CrawlSettings(delay=0))
        (doc_id,) = db.execute("SELECT id FROM documents").fetchone()
        versions["text"] = "second version: occupancy is limited by registers"
        again = crawl(db, [base + "/"], CrawlSettings(delay=0, recrawl=True))
    assert again.updated == 1 and again.stored == 0
    assert db.execute("SELECT id, text LIKE '%second version%' FROM documents").fetchall() == [(doc_id, 1)]


def test_local_files_are_read_again_only_when_changed(db_path, tmp_path):
    note = tmp_path / "note.md"
    note.write_text("# Tiling\n\nfirst text\n")
    db = open_db(db_path)
    first = crawl(db, [str(note)], CrawlSettings())
    same = crawl(db, [str(note)], CrawlSettings())
    note.write_text("# Tiling\n\nsecond text, longer\n")
    changed = crawl(db, [str(note)], CrawlSettings())
    assert (first.stored, same.fetched, changed.updated) == (1, 0, 1)
    assert "second text" in db.execute("SELECT text FROM documents").fetchone()[0]
