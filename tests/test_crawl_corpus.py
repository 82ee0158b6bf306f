"""The embedded corpus served on loopback and crawled through real HTTP, as ``shijie crawl`` does with no seed."""

import json
import socket
import sqlite3
from urllib.parse import urlsplit

import httpx
import pytest

from pipeline.corpus_server import serve_folder
from pipeline.resources import corpus_dir


@pytest.fixture(scope="module")
def crawled(tmp_path_factory):
    from conftest import Cli

    db = tmp_path_factory.mktemp("corpus") / "shijie.db"
    stats = Cli(db).json("crawl")
    return stats, sqlite3.connect(db)


def test_default_crawl_stores_the_corpus(crawled):
    stats, conn = crawled
    assert stats["errors"] == 0 and stats["queued"] == 0 and stats["stored"] == stats["documents_total"] >= 40
    kinds = dict(conn.execute("SELECT kind, count(*) FROM documents GROUP BY kind").fetchall())
    assert kinds["pdf"] == 1 and kinds["markdown"] == 1 and kinds["text"] == 1 and kinds["arxiv"] >= 5


def test_robots_disallowed_pages_are_never_fetched(crawled):
    stats, conn = crawled
    assert stats["skipped_robots"] == 2
    assert conn.execute("SELECT count(*) FROM documents WHERE url LIKE '%/private/%'").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM documents WHERE text LIKE '%ignored robots.txt%'").fetchone()[0] == 0


def test_trap_is_bounded(crawled):
    _, conn = crawled
    trap_fetches = conn.execute(
        "SELECT count(*) FROM frontier WHERE url LIKE '%/trap/%' AND status = 'done'"
    ).fetchone()[0]
    assert 1 <= trap_fetches <= 20
    assert conn.execute("SELECT count(*) FROM documents WHERE url LIKE '%/trap/%'").fetchone()[0] == 1


def test_exact_duplicate_is_stored_once(crawled):
    stats, conn = crawled
    rows = conn.execute(
        "SELECT a.url, d.url FROM url_aliases a JOIN documents d ON d.id = a.document_id"
        " WHERE a.url LIKE '%hunting-nans%'"
    ).fetchall()
    assert len(rows) == 1 and {urlsplit(u).path.split("/")[1] for u in rows[0]} == {"archive", "blog"}
    assert conn.execute("SELECT count(*) FROM documents WHERE url LIKE '%hunting-nans%'").fetchone()[0] == 1
    assert stats["duplicates"] >= 1


def test_pdf_atom_and_encodings(crawled):
    _, conn = crawled
    title, text = conn.execute("SELECT title, text FROM documents WHERE kind = 'pdf'").fetchone()
    assert "Log-Sum-Exp" in title and "log-sum-exp" in text.lower()
    meta = json.loads(
        conn.execute("SELECT metadata FROM documents WHERE url = 'https://arxiv.org/abs/2401.01234'").fetchone()[0]
    )
    assert meta["version"] == 2 and meta["authors"] and meta["pdf_url"]  # v2 replaced v1
    legacy = conn.execute("SELECT text FROM documents WHERE url LIKE '%streams-events-contexts%'").fetchone()[0]
    assert "µ" in legacy and "\ufffd" not in legacy  # windows-1252, read as such
    zh = conn.execute("SELECT title FROM documents WHERE url LIKE '%/zh/%'").fetchone()[0]
    assert "共享内存" in zh
    for marker in ("loadComments", "_hmt", "window.recipeCard", "slidesUrl"):  # inline <script> bodies
        assert conn.execute("SELECT count(*) FROM documents WHERE text LIKE ?", (f"%{marker}%",)).fetchone()[0] == 0


def test_resume_after_the_corpus_moved_to_another_port(cli, db_path):
    first = cli.json("crawl", "--max-pages", "12")
    conn = sqlite3.connect(db_path)
    origin = json.loads(conn.execute("SELECT settings FROM crawl_runs").fetchone()[0])["served_origin"]
    with socket.socket() as blocker:  # the old port is taken now: the corpus comes up elsewhere
        blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        blocker.bind(("127.0.0.1", urlsplit(origin).port))
        blocker.listen()
        second = cli.json("crawl")
    new_origin = json.loads(conn.execute("SELECT settings FROM crawl_runs ORDER BY id DESC").fetchone()[0])[
        "served_origin"
    ]
    assert new_origin != origin
    assert conn.execute("SELECT count(*) FROM frontier WHERE url LIKE ?", (origin + "/%",)).fetchone()[0] == 0
    assert first["stored"] + second["stored"] == conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    assert second["fetched"] > 0 and second["errors"] == 0


def test_corpus_server_conditional_requests_types_and_trap():
    with serve_folder(corpus_dir()) as base, httpx.Client(base_url=base) as client:
        page = client.get("/index.html")
        assert page.status_code == 200 and page.headers["content-type"] == "text/html"
        assert client.get("/index.html", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
        assert (
            client.get("/index.html", headers={"If-Modified-Since": page.headers["last-modified"]}).status_code == 304
        )
        assert client.get("/papers/lse-online-softmax-note.pdf").headers["content-type"] == "application/pdf"
        assert client.get("/notes/validating-kernels.md").headers["content-type"] == "text/markdown"
        trap = client.get("/trap/2031/12/day/9/")
        assert trap.status_code == 200 and trap.content == (corpus_dir() / "trap" / "index.html").read_bytes()
        assert client.get("/guides").status_code == 301 and client.get("/guides").headers["location"] == "/guides/"
        assert client.get("/no/such/page.html").status_code == 404
        assert client.get("/%2e%2e/%2e%2e/etc/passwd").status_code == 404
