"""shijie show takes a document as the user has it at hand: a path as typed (relative, ~, trailing slash), a
URL in another spelling (http for https, no trailing slash, upper-case host, no scheme), and prints the
extracted text with --text."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_shijie
from tests.reader_corpus import build

NOTE = "# Warp shuffles\n\nA warp shuffle moves registers between the 32 lanes of a warp without shared memory.\n"


@pytest.fixture(scope="module")
def crawled(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    notes = home / "notes"
    notes.mkdir()
    (notes / "shuffles.md").write_text(NOTE * 5, encoding="utf-8")
    (notes / "tiles.md").write_text("# Tiles\n\nTiles of K and V sit in shared memory for the warp.\n" * 5)
    db = home / "shijie.db"
    ids = build(db)
    for args in (("crawl", str(notes)), ("score",)):
        result = run_shijie(*args, "--db", str(db))
        assert result.returncode == 0, result.stderr[-2000:]
    return home, db, ids


def shown(db, doc, **kwargs):
    result = run_shijie("show", doc, "--json", "--db", str(db), **kwargs)
    assert result.returncode == 0, (doc, result.stderr)
    return json.loads(result.stdout)


def test_a_crawled_file_by_the_path_as_typed(crawled, monkeypatch):
    home, db, _ = crawled
    monkeypatch.setenv("HOME", str(home))
    expected = (home / "notes" / "shuffles.md").resolve().as_uri()
    for typed, cwd in (
        ("notes/shuffles.md", home),
        ("./notes/shuffles.md", home),
        ("../notes/shuffles.md", home / "notes"),
        ("shuffles.md/", home / "notes"),
        ("~/notes/shuffles.md", None),
        (str(home / "notes" / "shuffles.md"), None),
        (expected, None),
    ):
        assert shown(db, typed, cwd=cwd)["url"] == expected, typed


def test_a_url_in_another_spelling(crawled):
    _, db, ids = crawled
    for typed, name in (
        ("https://gpu.example.com/guides/shared-memory/", "guide"),
        ("https://gpu.example.com/guides/shared-memory", "guide"),
        ("HTTPS://GPU.Example.com:443/guides/shared-memory/#top", "guide"),
        ("http://gpu.example.com/guides/streams.html", "streams"),
        ("gpu.example.com/guides/streams.html", "streams"),
        (str(ids["arxiv"]), "arxiv"),
    ):
        assert shown(db, typed)["id"] == ids[name], typed


def test_an_unknown_document_is_one_line(crawled):
    home, db, _ = crawled
    result = run_shijie("show", "notes/missing.md", "--db", str(db), cwd=home)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "error: no document 'notes/missing.md' (give an id, a URL or a path; shijie list shows them)"
    )


def test_text_prints_the_extracted_text(crawled):
    home, db, _ = crawled
    data = shown(db, "notes/shuffles.md", cwd=home)
    assert data["id"] and "text" not in data
    with_text = json.loads(
        run_shijie("show", "notes/shuffles.md", "--text", "--json", "--db", str(db), cwd=home).stdout
    )
    assert with_text["text"].count("A warp shuffle moves registers") == 5
    result = run_shijie("show", "notes/shuffles.md", "--text", "--db", str(db), cwd=home)
    assert result.returncode == 0 and "A warp shuffle moves registers between the 32 lanes" in result.stdout
