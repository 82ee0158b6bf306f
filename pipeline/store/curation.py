"""Curation's state: which documents are kept, which discarded and why, and the URLs a crawl must skip.

``curation_candidates`` lists the scored documents with text, best first, with what curation decides on.
``apply_curation`` writes a decision in one transaction: each discarded document loses its text, headings
and code, and its URL, final URL and aliases go into ``discarded`` (a later crawl skips them); the kept
ones are marked kept; the FTS indexes are rebuilt from the kept documents. ``discarded_urls`` is what the
crawl reads back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import fts

if TYPE_CHECKING:
    from sqlite_utils import Database


@dataclass(frozen=True)
class Candidate:
    id: int
    url: str
    final_url: str | None
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
    """Scored documents that still have text, by value, then relevance, then id."""
    rows = db.conn.execute(
        "SELECT d.id, d.url, d.final_url, s.value, s.redundancy, s.duplicate_of FROM documents d"
        " JOIN scores s ON s.document_id = d.id WHERE d.text IS NOT NULL AND d.status != 'discarded'"
        " ORDER BY s.value DESC, s.relevance_score DESC, d.id"
    ).fetchall()
    return [Candidate(*row) for row in rows]


def apply_curation(db: Database, kept: Iterable[int], dropped: Iterable[Discard], at: float) -> None:
    """Marks ``kept`` kept, discards ``dropped`` (text purged, URLs remembered), rebuilds the FTS indexes."""
    remembered: list[dict] = []  # in order: a URL two discarded documents share keeps the later reason
    with db.atomic():
        for doc in dropped:
            aliases = [u for (u,) in db.conn.execute("SELECT url FROM url_aliases WHERE document_id = ?", (doc.id,))]
            for url in dict.fromkeys([doc.url, doc.final_url, *aliases]):
                if url:
                    remembered.append({"url": url, "reason": doc.reason, "value": doc.value, "at": at})
            db.conn.execute(
                "UPDATE documents SET status = 'discarded', text = NULL, headings = NULL, code_blocks = NULL"
                " WHERE id = ?",
                (doc.id,),
            )
        db.table("discarded").upsert_all(remembered, pk="url")
        db.conn.executemany("UPDATE documents SET status = 'kept' WHERE id = ?", [(i,) for i in kept])
        fts.rebuild_index(db)


def discarded_urls(db: Database) -> set[str]:
    return {row[0] for row in db.conn.execute("SELECT url FROM discarded")}
