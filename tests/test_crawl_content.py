"""Content, not names (issue 11, item 7): what the bytes are decides how they are read, and malformed input is
a one-line answer, never a traceback or a retry loop.

- bytes that are not text (a binary renamed ``.html``, or served as text/html) are refused by sniffing;
- Sphinx ``_sources/*.txt`` copies of pages are recognised as reST source copies of the rendered page;
- a server that drops the connection without an answer (httpx ``RemoteProtocolError``) is not retried;
- the embedded-corpus server answers ``/%00`` with 400;
- a seeds file that includes itself, or a wrong type in its ``[crawl]`` table, is a one-line error."""

import http.client

import pytest
from conftest import run_shijie
from siteserver import Reply, Site, html

from pipeline.corpus_server import serve_folder
from pipeline.crawl import CrawlSettings, crawl
from pipeline.errors import DataError
from pipeline.extract import UnsupportedType, extract
from pipeline.seeds import load_seeds_file, parse_seeds
from pipeline.store import open_db

BINARIES = {
    "png": b"\x89PNG\r\n\x1a\n" + bytes(200),
    "gzip": b"\x1f\x8b\x08\x00" + bytes(range(256)),
    "zip": b"PK\x03\x04" + bytes(range(256)),
    "elf": b"\x7fELF\x02\x01\x01" + bytes(200),
    "jpeg": b"\xff\xd8\xff\xe0\x00\x10JFIF" + bytes(range(200, 256)) * 4,
    "controls": bytes(range(1, 32)) * 40,
}


def quick(**overrides) -> CrawlSettings:
    return CrawlSettings(**{"delay": 0.0, "backoff_base": 0.05, "rng_seed": 1, **overrides})


@pytest.mark.parametrize("kind", sorted(BINARIES))
def test_binary_bytes_declared_as_text_are_refused(kind):
    for ctype, url in (
        ("text/html", "http://h/x.html"),
        ("text/plain", "http://h/x.txt"),
        ("text/markdown", "http://h/x.md"),
    ):
        with pytest.raises(UnsupportedType, match="binary"):
            extract(BINARIES[kind], ctype, url)


def test_text_with_a_few_control_characters_is_still_text():
    page = b"<p>Tabs\tand form feeds\f and an ESC \x1b$B of ISO-2022-JP</p>"
    (doc,) = extract(page, "text/html", "http://h/").documents
    assert "Tabs and form feeds" in doc.text


def test_a_pdf_served_as_html_is_read_as_a_pdf():
    from pdfmaker import text_pdf

    (doc,) = extract(text_pdf([["Roofline model"]]), "text/html", "http://h/roofline").documents
    assert doc.kind == "pdf" and doc.title == "Roofline model"


def test_a_binary_renamed_html_is_refused_in_a_crawl(db_path, tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "image.html").write_bytes(BINARIES["png"])
    (folder / "real.html").write_text(html("Real page", "coalesced loads"))
    site = Site()
    site.page("/", html("home", links=["/disguised.html"]))
    site.route("/disguised.html", Reply(body=BINARIES["zip"]))
    db = open_db(db_path)
    local = crawl(db, [str(folder)], quick())
    with site.serve() as base:
        remote = crawl(db, [base + "/"], quick())
    assert local.stored == 1 and local.skipped == {"type": 1}
    assert remote.stored == 1 and remote.skipped == {"type": 1}
    assert db.execute("SELECT count(*) FROM documents").fetchone()[0] == 2


SOURCE = b"""=============================
 CUDA kernels for the curious
=============================

Occupancy
---------

A kernel's occupancy is bounded by registers.

.. code-block:: cuda

   __global__ void k() {}
"""


def test_sphinx_source_copies_are_recognised():
    url = "https://docs.example.org/en/latest/_sources/user/kernels.rst.txt"
    (doc,) = extract(SOURCE, "text/plain", url).documents
    assert doc.title == "CUDA kernels for the curious"
    assert doc.headings == ["CUDA kernels for the curious", "Occupancy"]
    assert doc.metadata["source_copy_of"] == "https://docs.example.org/en/latest/user/kernels.html"
    (old,) = extract(SOURCE, "text/plain", "https://docs.example.org/_sources/intro.txt").documents
    assert old.metadata["source_copy_of"] == "https://docs.example.org/intro.html"
    (plain,) = extract(SOURCE, "text/plain", "https://example.org/notes.txt").documents
    assert "source_copy_of" not in plain.metadata


def test_a_server_that_drops_the_connection_is_not_retried(db_path):
    def drop(request):
        raise ConnectionAbortedError("the handler dies without answering")

    site = Site()
    site.page("/", html("home", links=["/drops"]))
    site.route("/drops", drop)
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(max_attempts=4))
    assert len(site.hits("/drops")) == 1 and stats.retries == 0
    assert stats.errors_by_reason == {"protocol": 1}
    assert "RemoteProtocolError" in db.execute("SELECT error FROM fetch_errors").fetchone()[0]


def test_the_corpus_server_answers_a_nul_or_overlong_path_with_400(tmp_path):
    (tmp_path / "index.html").write_text(html("home"))
    with serve_folder(tmp_path) as base:
        host, port = base.removeprefix("http://").split(":")
        for path in ("/%00", "/a%00b/index.html", "/%2e%2e/%00", "/" + "a" * 5000, "/trap/" + "b" * 5000):
            conn = http.client.HTTPConnection(host, int(port), timeout=10)
            conn.request("GET", path)
            response = conn.getresponse()
            assert response.status == 400, path
            response.read()
            conn.close()
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        conn.request("GET", "/")
        assert conn.getresponse().status == 200  # the server is still up


def test_a_seeds_file_that_includes_itself_is_a_one_line_error(tmp_path):
    seeds = tmp_path / "seeds.toml"
    seeds.write_text('[[seed]]\npath = "seeds.toml"\n')
    with pytest.raises(DataError, match="includes itself"):
        parse_seeds([str(seeds)])
    other = tmp_path / "other.toml"
    other.write_text('[[seed]]\npath = "loop.toml"\n')
    (tmp_path / "loop.toml").write_text('[[seed]]\npath = "other.toml"\n')
    with pytest.raises(DataError, match="includes itself"):
        parse_seeds([str(other)])
    result = run_shijie("crawl", str(seeds), "--db", str(tmp_path / "x.db"))
    assert result.returncode == 1 and "includes itself" in result.stderr
    assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "table, words",
    [
        ('max_pages = "ten"', "max_pages must be an integer, not 'ten'"),
        ("delay = true", "delay must be a number, not true"),
        ('allow_hosts = "docs.example.org"', "allow_hosts must be a list of strings"),
        ("recrawl = 1", "recrawl must be true or false, not 1"),
        ("max_pages = 1.5", "max_pages must be an integer, not 1.5"),
        ("max_depth = -1", "max_depth must be ≥ 0, not -1"),
    ],
)
def test_a_wrong_type_in_the_crawl_table_is_a_one_line_error(tmp_path, table, words):
    seeds = tmp_path / "seeds.toml"
    seeds.write_text(f'[crawl]\n{table}\n\n[[seed]]\nurl = "http://127.0.0.1:9/"\n')
    with pytest.raises(DataError, match="seeds file"):
        load_seeds_file(seeds)
    result = run_shijie("crawl", str(seeds), "--db", str(tmp_path / "x.db"))
    assert result.returncode == 1 and words in result.stderr, result.stderr
    assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.stderr


def test_a_seed_list_that_is_not_a_list_is_a_one_line_error(tmp_path):
    seeds = tmp_path / "seeds.toml"
    seeds.write_text("seed = 5\n")
    with pytest.raises(DataError, match=r"\[\[seed\]\]"):
        load_seeds_file(seeds)


def test_malformed_host_names_are_not_usable_urls(db_path):
    from pipeline import urls

    for bad in ("http://xn--/x", "http://exa mple.com/", "http://%00.test/", "http://ex<a>.test/", "http://a..b/"):
        assert urls.canonical(bad) is None, bad
    assert urls.canonical("http://Bücher.example/") == "http://xn--bcher-kva.example/"
    assert urls.canonical("http://a_b.test/") == "http://a_b.test/"  # underscores occur in real host names
    site = Site()
    site.page("/", html("home", links=["http://xn--/x", "http://exa mple.com/", "/fine"]))
    site.page("/fine", html("fine"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(allow_hosts=["xn--", "exa mple.com"]))
    assert stats.stored == 2 and stats.errors == 0 and stats.skipped_robots == 0
