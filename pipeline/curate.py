"""Curation: keep the best documents, discard the rest, index what is kept for full-text search.

``curate(db, min_value)`` decides on every scored document (those an earlier curation discarded too): one
representative per group of copies, then the value cut.

- A document scoring labelled a repeat (redundancy "high") points at the copy preferred over it
  (``duplicate_of``: the rendered page over its source copy, the newer version, the newer date, the more
  complete text; ``pipeline.vision.copies``). Curation follows that chain to its root, the copy no other
  copy is preferred over, and discards the repeat: "repeats document R". Never by value order: an old
  version that happens to score higher does not push out the current page.
- Every other document (a root, or one that repeats nothing) is kept when its value is at least
  ``min_value``. A root below the cut is discarded for its value, and its repeats with it.

Curation is a state, not a deletion: a discarded document keeps its text, headings and code (compressed,
``pipeline.store.archive``) and its URLs (and their aliases) go into ``discarded`` so a later crawl skips
them; curating again at a lower threshold keeps it again, text and all. ``dry_run`` decides the same way
and writes nothing: the result lists what would change. The kept documents are indexed in FTS5 twice:
whole (``documents_fts``, for ``shijie search``) and cut into paragraph-sized passages (``passages_fts``,
for the skills' ``passages()``); both rank by BM25 (``pipeline.store.fts``).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from . import coverage
from .errors import EmptyCorpusError, UsageError
from .store import Candidate, Discard, active_documents, apply_curation, curation_candidates, unscored_documents

if TYPE_CHECKING:
    from .store import Database

DEFAULT_MIN_VALUE = 40


@dataclass(frozen=True)
class Change:
    """A document whose state a curation changes (``before`` → ``after``: active | kept | discarded)."""

    id: int
    url: str
    title: str | None
    value: int
    before: str
    after: str
    reason: str  # why it is discarded, or "value V ≥ M" for one kept


@dataclass(frozen=True)
class CurationResult:
    kept: int
    discarded: int
    mastery: dict  # {"overall": 0..1, "domains": {...}}
    discarded_ids: tuple[int, ...] = ()
    changes: tuple[Change, ...] = ()  # every document whose state changed (or, dry run, would change)
    dry_run: bool = False

    @property
    def restored(self) -> int:
        """Documents an earlier curation discarded that this one keeps again."""
        return sum(1 for c in self.changes if c.before == "discarded" and c.after == "kept")

    def as_json(self) -> dict[str, Any]:
        return {
            "kept": self.kept,
            "discarded": self.discarded,
            "mastery": self.mastery,
            "dry_run": self.dry_run,
            "restored": self.restored,
            "changes": [asdict(c) for c in self.changes],
        }


def curate(db: Database, min_value: int = DEFAULT_MIN_VALUE, *, dry_run: bool = False) -> CurationResult:
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
    changes: list[Change] = []
    candidates = curation_candidates(db)
    root_of = representatives(candidates)
    for doc in candidates:
        root = root_of.get(doc.id)
        reason = ""
        if root is not None:
            reason = f"repeats document {root}"
        elif doc.value < min_value:
            reason = f"value {doc.value} below {min_value}"
        if reason:
            dropped.append(Discard(doc.id, doc.url, doc.final_url, doc.value, reason))
        else:
            kept.append(doc.id)
            kept_set.add(doc.id)
        after = "discarded" if reason else "kept"
        if doc.status != after:
            why = reason or f"value {doc.value} ≥ {min_value}"
            changes.append(Change(doc.id, doc.url, doc.title, doc.value, doc.status, after, why))

    if dry_run:
        result = coverage.mastery(db, kept_set)
    else:
        apply_curation(db, kept, dropped, time.time())
        result = coverage.mastery(db)
    return CurationResult(
        kept=len(kept),
        discarded=len(dropped),
        mastery={"overall": result.overall, "domains": result.domains},
        discarded_ids=tuple(d.id for d in dropped),
        changes=tuple(changes),
        dry_run=dry_run,
    )


def representatives(candidates: list[Candidate]) -> dict[int, int]:
    """Each repeat (redundancy "high", its ``duplicate_of`` among the candidates) → the root of its chain: the
    first copy along ``duplicate_of`` that repeats nothing itself. The preference is an order, so chains end;
    should one come back on itself (a database edited by hand), its lowest id stands for the group."""
    known = {c.id for c in candidates}
    repeats = {c.id: c.duplicate_of for c in candidates if c.redundancy == "high" and c.duplicate_of in known}
    roots: dict[int, int] = {}
    for start, current in repeats.items():
        path = [start]
        while current in repeats and current not in path:
            path.append(current)
            current = repeats[current]
        if current in path:
            current = min(path[path.index(current) :])
        roots[start] = current
    return {doc: root for doc, root in roots.items() if root != doc}
