"""Curation is a state, not a deletion: what ``curate`` discards keeps its text, headings and code, a curation
at another threshold brings it back, ``--dry-run`` changes nothing, and no crawl or re-crawl loses it, while a
discarded URL still keeps a crawl from fetching it. The CLI in real subprocesses, a real loopback site."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from conftest import run_shijie
from own_notes import notes
from siteserver import Site, html


def shijie(*args: str, db: Path):
    result = run_shijie(*args, "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def contents(db: Path) -> dict[int, tuple]:
    """Every document's stored content, wherever it lives now (plain, or in the archive)."""
    from pipeline.store import document_content, open_db

    database = open_db(db, read_only=True)
    try:
        ids = [i for (i,) in database.conn.execute("SELECT id FROM documents")]
        return {i: document_content(database, i) for i in ids}
    finally:
        database.conn.close()


def statuses(db: Path) -> dict[int, tuple[str, bool]]:
    with sqlite3.connect(db) as conn:
        return {i: (s, t is not None) for i, s, t in conn.execute("SELECT id, status, text FROM documents")}


def dump(db: Path) -> str:
    """The database's logical content (a read leaves it as it was, even if SQLite checkpoints its WAL)."""
    with sqlite3.connect(db) as conn:
        return hashlib.sha256("\n".join(conn.iterdump()).encode()).hexdigest()


def test_discarded_documents_keep_their_text_and_a_lower_threshold_restores_them(tmp_path):
    db = tmp_path / "shijie.db"
    shijie("crawl", str(notes(tmp_path / "notes", 12)), db=db)
    shijie("score", db=db)
    crawled = contents(db)
    assert all(text and '"Code"' in headings and "__global__" in code for text, headings, code in crawled.values())

    everything_out = shijie("curate", "--min-value", "100", db=db)
    assert everything_out["kept"] == 0 and everything_out["discarded"] == 12
    assert set(statuses(db).values()) == {("discarded", False)}  # out of the text column...
    assert contents(db) == crawled  # ...but every byte kept, in the archive
    assert run_shijie("search", "warp", "--db", str(db)).returncode == 1  # nothing curated to search

    back = shijie("curate", "--min-value", "0", db=db)
    assert back["kept"] == 12 and back["restored"] == 12
    assert {c["before"] + "→" + c["after"] for c in back["changes"]} == {"discarded→kept"}
    assert set(statuses(db).values()) == {("kept", True)} and contents(db) == crawled
    hits = shijie("search", "warp tiling", db=db)
    assert hits  # indexed again for search
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM discarded").fetchone()[0] == 0  # no URL left to skip
        assert conn.execute("SELECT count(*) FROM documents WHERE archive IS NOT NULL").fetchone()[0] == 0


def test_a_rescoring_after_curation_scores_the_discarded_documents_too(tmp_path):
    db = tmp_path / "shijie.db"
    shijie("crawl", str(notes(tmp_path / "notes", 6)), db=db)
    first = {row["id"]: row["value"] for row in shijie("score", db=db)}
    shijie("curate", "--min-value", "100", db=db)
    again = {row["id"]: row["value"] for row in shijie("score", db=db)}
    assert again == first  # the same corpus, the same figures: curation did not shrink it


def test_dry_run_shows_what_would_change_and_changes_nothing(tmp_path):
    db = tmp_path / "shijie.db"
    shijie("crawl", str(notes(tmp_path / "notes", 8)), db=db)
    shijie("score", db=db)
    kept = shijie("curate", "--min-value", "0", db=db)
    before = dump(db)
    preview = shijie("curate", "--min-value", "100", "--dry-run", db=db)
    assert preview["dry_run"] is True and preview["kept"] == 0 and preview["discarded"] == kept["kept"]
    assert len(preview["changes"]) == 8
    assert all(c["before"] == "kept" and c["after"] == "discarded" for c in preview["changes"])
    assert all(c["reason"].startswith("value ") and c["url"].startswith("file:") for c in preview["changes"])
    assert preview["mastery"]["overall"] == 0.0  # the mastery the curation would leave
    human = run_shijie("curate", "--min-value", "100", "--dry-run", "--db", str(db))
    assert human.returncode == 0 and "dry run, nothing changed: would keep 0, discard 8" in human.stdout
    assert "kept → discarded" in human.stdout
    assert dump(db) == before
    assert set(statuses(db).values()) == {("kept", True)}


def test_crawls_and_recrawls_never_lose_a_discarded_document_and_skip_its_url(tmp_path):
    site = Site()
    pages = [f"/p{i}" for i in range(5)]
    site.page("/", html("Index of kernel notes", "Links to notes on tiling.", links=pages))
    for i, path in enumerate(pages):
        site.page(path, html(f"Kernel note {i}", f"Shared memory tiling note {i}: pad by one. " * 40))
    db = tmp_path / "shijie.db"
    with site.serve() as base:
        shijie("crawl", base + "/", "--delay", "0", db=db)
        shijie("score", db=db)
        shijie("curate", "--min-value", "100", db=db)
        crawled = contents(db)
        hits = {path: len(site.hits(path)) for path in pages}

        again = shijie("crawl", base + "/", "--delay", "0", "--recrawl", db=db)
        assert again["skipped"].get("discarded", 0) >= len(pages)  # still never fetched again...
        assert {path: len(site.hits(path)) for path in pages} == hits
        assert contents(db) == crawled  # ...and never lost
        assert set(statuses(db).values()) == {("discarded", False)}

        shijie("curate", "--min-value", "0", db=db)  # kept again: the crawl may fetch them again
        assert contents(db) == crawled
        shijie("crawl", base + "/", "--delay", "0", "--recrawl", db=db)
        assert all(len(site.hits(path)) == hits[path] + 1 for path in pages)
        assert contents(db) == crawled and set(statuses(db).values()) == {("kept", True)}


def test_a_discarded_file_crawled_again_with_new_text_stays_discarded_until_curated(tmp_path):
    folder = notes(tmp_path / "notes", 3)
    db = tmp_path / "shijie.db"
    shijie("crawl", str(folder), db=db)
    shijie("score", db=db)
    shijie("curate", "--min-value", "100", db=db)
    (folder / "note001.md").write_text("# Note 1 rewritten\n\nWarp shuffles replace shared memory here.\n")
    shijie("crawl", str(folder), "--recrawl", db=db)
    assert set(statuses(db).values()) == {("discarded", False)}  # new content archived, still discarded
    assert any("Warp shuffles" in text for text, _, _ in contents(db).values())
    shijie("score", db=db)
    shijie("curate", "--min-value", "0", db=db)
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT text FROM documents WHERE url LIKE '%note001.md'").fetchone()
    assert "Warp shuffles" in text and "Note 1 rewritten" in text
