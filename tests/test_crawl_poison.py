"""Poison documents (issue 11, item 1): no page or PDF can crash the crawl or wedge its database.

A charset label that names a codec which is not a text encoding (hex, rot13, base64, zlib, bz2 → LookupError;
idna, punycode, undefined → UnicodeError) is ignored; a PDF that sends pypdf into a RecursionError or an
assertion is that document's recorded error; an entry that killed crawls left ``fetching`` again and again is
given up after ``max_attempts``, so a resumed crawl cannot die on it forever."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import REPO
from pdfmaker import nested_arrays_pdf, objstm_assert_pdf, text_pdf
from siteserver import Reply, Site, html

from pipeline.crawl import CrawlSettings, crawl
from pipeline.extract import decode, extract
from pipeline.store import open_db

NOT_TEXT = ["hex", "rot13", "base64", "zlib", "bz2", "idna", "punycode", "undefined", "uu", "quopri", "utf-7"]


def quick(**overrides) -> CrawlSettings:
    return CrawlSettings(**{"delay": 0.0, "backoff_base": 0.05, "rng_seed": 1, **overrides})


@pytest.mark.parametrize("label", NOT_TEXT)
def test_charset_labels_that_are_not_text_encodings_are_ignored(label):
    page = f'<html><head><meta charset="{label}"><title>Tiles</title></head><body><p>Café tiles</p></body></html>'
    (doc,) = extract(page.encode("utf-8"), "text/html", "http://h/").documents
    assert "Café tiles" in doc.text and doc.metadata["encoding"] == "utf-8"
    (doc,) = extract(b"<p>plain</p>", f"text/html; charset={label}", "http://h/").documents
    assert doc.text == "plain"
    (doc,) = extract(b"notes\n", f"text/plain; charset={label}", "http://h/a.txt").documents
    assert doc.text == "notes"
    assert decode(b"abc", label) == ("abc", "utf-8")


def test_real_text_encodings_are_still_honoured():
    for label, text in (
        ("koi8-r", "Привет"),
        ("shift_jis", "共有メモリ"),
        ("windows-1251", "Привет"),
        ("big5", "記憶體"),
    ):
        (doc,) = extract(f"<p>{text}</p>".encode(label), f"text/html; charset={label}", "http://h/").documents
        assert doc.text == text, label


def test_poison_pages_are_recorded_and_the_crawl_goes_on(db_path):
    site = Site()
    poison = {
        "/meta-hex.html": Reply(body=b'<meta charset="hex"><title>hex</title><p>declared hex</p>'),
        "/rot13.html": Reply(body=b"<p>header rot13</p>", content_type="text/html; charset=rot13"),
        "/idna.html": Reply(body=b"<p>header idna</p>", content_type="text/html; charset=idna"),
        "/nested.pdf": Reply(body=nested_arrays_pdf(), content_type="application/pdf"),
        "/assert.pdf": Reply(body=objstm_assert_pdf(), content_type="application/pdf"),
        "/fine.pdf": Reply(
            body=text_pdf([["Roofline model", "Intensity bounds throughput."]]), content_type="application/pdf"
        ),
    }
    for path, reply in poison.items():
        site.route(path, reply)
    site.page("/", html("home", links=list(poison)))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick())
    texts = {url.removeprefix(base): text for url, text in db.execute("SELECT url, text FROM documents")}
    assert texts["/meta-hex.html"].endswith("declared hex") and texts["/rot13.html"] == "header rot13"
    assert texts["/idna.html"] == "header idna" and "Intensity bounds throughput." in texts["/fine.pdf"]
    errors = dict(db.execute("SELECT url, error FROM fetch_errors").fetchall())
    assert set(errors) == {base + "/nested.pdf", base + "/assert.pdf"}
    assert "RecursionError" in errors[base + "/nested.pdf"] and "AssertionError" in errors[base + "/assert.pdf"]
    assert stats.errors == 2 and stats.errors_by_reason == {"unreadable": 2}
    assert db.execute("SELECT count(*) FROM frontier WHERE status = 'fetching'").fetchone()[0] == 0
    # each poison was asked for once: an extraction failure is not retried
    assert all(len(site.hits(path)) == 1 for path in poison)


def _count(db_path, sql):
    with sqlite3.connect(db_path, timeout=10) as conn:
        return conn.execute(sql).fetchone()[0]


def test_an_entry_that_killed_crawls_left_fetching_is_given_up(db_path, tmp_path):
    """The crawl process dies (SIGKILL) while the same page is being read, twice; the third crawl gives that
    page up instead of reading it again, and finishes."""
    site = Site()
    site.page("/", html("home", links=["/stuck.html", "/fine.html"]))
    site.route("/stuck.html", Reply(body=b"<p>" + b"s" * 4000 + b"</p>", drip_s=0.01))  # ~40 s to read
    site.page("/fine.html", html("fine"))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with site.serve() as base:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(f'[crawl]\ndelay = 0\nmax_attempts = 2\nresponse_budget = 120\n\n[[seed]]\nurl = "{base}/"\n')
        argv = [sys.executable, "-m", "shijie", "crawl", str(seeds), "--db", str(db_path), "--json"]
        for kill in (1, 2):
            proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            deadline = time.monotonic() + 60
            while len(site.hits("/stuck.html")) < kill and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(1.0)  # the page is being read; what finished before is committed
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
            assert len(site.hits("/stuck.html")) == kill
        third = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert third.returncode == 0, third.stderr
    stats = json.loads(third.stdout)
    assert len(site.hits("/stuck.html")) == 2  # not asked a third time
    assert stats["errors_by_reason"] == {"interrupted": 1}
    status, error = (
        sqlite3.connect(db_path)
        .execute("SELECT status, last_error FROM frontier WHERE url LIKE '%/stuck.html'")
        .fetchone()
    )
    assert status == "error" and "interrupted" in error
    assert _count(db_path, "SELECT count(*) FROM documents WHERE url LIKE '%/fine.html'") == 1
