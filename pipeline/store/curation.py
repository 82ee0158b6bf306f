"""Curation's state: which documents are kept, which discarded and why, and the URLs a crawl must skip.

Curation is a state, never a deletion. ``curation_candidates`` lists every scored document that has its
content (plain or archived), best first, with what curation decides on and where each stands now.
``apply_curation`` writes a decision in one transaction:

- a discarded document moves its text, headings and code into its compressed archive (``store.archive``),
  and its URL, final URL and aliases go into ``discarded`` (a later crawl skips them);
- a kept document that was discarded gets its text back from the archive, and its URLs leave ``discarded``
  (with the crawl's frontier entries skipped as discarded, which a re-crawl may fetch again);
- the FTS indexes are rebuilt from the kept documents.

So curating again at another threshold restores what an earlier curation discarded. Only documents whose
text an older shijie purged (before layout 1: no text, no archive) cannot come back; their URLs stay in
``discarded``. ``discarded_urls`` is what the crawl reads back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import archive, fts

if TYPE_CHECKING:
    from sqlite_utils import Database

# a document whose content is still stored, in plain form or archived
HAS_CONTENT = "(d.text IS NOT NULL OR d.archive IS NOT NULL)"


@dataclass(frozen=True)
class Candidate:
    id: int
    url: str
    final_url: str | None
    title: str | None
    status: str  # where it stands now: active | kept | discarded
    value: int
    redundancy: str  # the label scoring gave it: high | low
    duplicate_of: int | None


@dataclass(frozen=True)
class Discard:
    id: int
    url: str
    final_url: str | None
    value: int
    reason: str


def curation_candidates(db: Database) -> list[Candidate]:
    """Scored documents that have their content, by value, then relevance, then id."""
    rows = db.conn.execute(
        "SELECT d.id, d.url, d.final_url, d.title, d.status, s.value, s.redundancy, s.duplicate_of FROM documents d"
        f" JOIN scores s ON s.document_id = d.id WHERE {HAS_CONTENT}"
        " ORDER BY s.value DESC, s.relevance_score DESC, d.id"
    ).fetchall()
    return [Candidate(*row) for row in rows]


def apply_curation(db: Database, kept: Iterable[int], dropped: Iterable[Discard], at: float) -> None:
    """Marks ``kept`` kept (restoring any that were discarded), discards ``dropped`` (content archived, URLs
    remembered), rebuilds the FTS indexes; all in one transaction."""
    conn = db.conn
    kept = list(kept)
    remembered: list[dict] = []  # in order: a URL two discarded documents share keeps the later reason
    with db.atomic():
        for doc in dropped:
            for url in _urls_of(db, doc.id, doc.url, doc.final_url):
                remembered.append({"url": url, "reason": doc.reason, "value": doc.value, "at": at})
            row = conn.execute("SELECT text, headings, code_blocks FROM documents WHERE id = ?", (doc.id,)).fetchone()
            if row is not None and row[0] is not None:
                conn.execute(
                    "UPDATE documents SET status = 'discarded', archive = ?, text = NULL, headings = NULL,"
                    " code_blocks = NULL WHERE id = ?",
                    (archive.pack(*row), doc.id),
                )
            else:  # already archived
                conn.execute("UPDATE documents SET status = 'discarded' WHERE id = ?", (doc.id,))
        for doc_id in kept:
            row = conn.execute("SELECT url, final_url, archive FROM documents WHERE id = ?", (doc_id,)).fetchone()
            if row is None:
                continue
            url, final_url, blob = row
            if blob is not None:
                text, headings, code_blocks = archive.unpack(blob)
                conn.execute(
                    "UPDATE documents SET text = ?, headings = ?, code_blocks = ?, archive = NULL WHERE id = ?",
                    (text, headings, code_blocks, doc_id),
                )
            urls = _urls_of(db, doc_id, url, final_url)
            conn.executemany("DELETE FROM discarded WHERE url = ?", [(u,) for u in urls])
            # the crawl skipped them while they were discarded; now a re-crawl may fetch them again
            conn.executemany(
                "UPDATE frontier SET status = 'done', skip_reason = NULL"
                " WHERE url = ? AND status = 'skipped' AND skip_reason = 'discarded'",
                [(u,) for u in urls],
            )
            conn.execute("UPDATE documents SET status = 'kept' WHERE id = ?", (doc_id,))
        db.table("discarded").upsert_all(remembered, pk="url")
        fts.rebuild_index(db)


def _urls_of(db: Database, doc_id: int, url: str, final_url: str | None) -> list[str]:
    """A document's URL, final URL and aliases, each once."""
    aliases = [u for (u,) in db.conn.execute("SELECT url FROM url_aliases WHERE document_id = ?", (doc_id,))]
    return [u for u in dict.fromkeys([url, final_url, *aliases]) if u]


def discarded_urls(db: Database) -> set[str]:
    return {row[0] for row in db.conn.execute("SELECT url FROM discarded")}
