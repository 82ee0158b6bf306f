"""Curation: keep the best documents, discard the rest, index what is kept for full-text search.

``curate(db, min_value)`` walks the scored documents best first and keeps a document when its value is at
least ``min_value`` and it does not repeat a document already kept (one representative per group of
near-duplicates: scoring's redundancy label is "high" and the document it repeats, or the one that stands
for that document's group, is kept). A discarded document loses its text, headings and code; its URLs (and
their aliases) go into ``discarded`` so a later crawl skips them. The kept documents are indexed in FTS5
twice: whole (``documents_fts``, for ``shijie search``) and cut into paragraph-sized passages
(``passages_fts``, for the skills' ``passages()``); both rank by BM25 (``pipeline.store.fts``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import coverage
from .errors import EmptyCorpusError, UsageError
from .store import Discard, active_documents, apply_curation, curation_candidates, unscored_documents

if TYPE_CHECKING:
    from .store import Database

DEFAULT_MIN_VALUE = 40


@dataclass(frozen=True)
class CurationResult:
    kept: int
    discarded: int
    mastery: dict  # {"overall": 0..1, "domains": {...}}
    discarded_ids: tuple[int, ...] = ()

    def as_json(self) -> dict:
        return {"kept": self.kept, "discarded": self.discarded, "mastery": self.mastery}


def curate(db: Database, min_value: int = DEFAULT_MIN_VALUE) -> CurationResult:
    if not 0 <= min_value <= 100:
        raise UsageError(f"must be between 0 and 100, not {min_value}", field="min_value")
    if active_documents(db) == 0:
        raise EmptyCorpusError("no documents to curate: crawl and score first (shijie crawl, shijie score)")
    unscored = unscored_documents(db)
    if unscored:
        raise UsageError(f"{unscored} document(s) crawled since the last scoring: run shijie score first")

    kept: list[int] = []
    kept_set: set[int] = set()
    dropped: list[Discard] = []
    represented_by: dict[int | None, int] = {}  # a dropped repeat → the kept document that stands for its group
    for doc in curation_candidates(db):
        original = represented_by.get(doc.duplicate_of, doc.duplicate_of)  # B repeats C which repeats kept A: A
        if doc.value < min_value:
            dropped.append(Discard(doc.id, doc.url, doc.final_url, doc.value, f"value {doc.value} below {min_value}"))
        elif doc.redundancy == "high" and original in kept_set:
            represented_by[doc.id] = original
            dropped.append(Discard(doc.id, doc.url, doc.final_url, doc.value, f"repeats document {original}"))
        else:
            kept.append(doc.id)
            kept_set.add(doc.id)

    apply_curation(db, kept, dropped, time.time())
    result = coverage.mastery(db)
    return CurationResult(
        kept=len(kept),
        discarded=len(dropped),
        mastery={"overall": result.overall, "domains": result.domains},
        discarded_ids=tuple(d.id for d in dropped),
    )
