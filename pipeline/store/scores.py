"""Scores and labels: what ``pipeline.score`` computed for each document, and the user's good/bad marks.

``write_scores`` replaces the scores of the documents it is given, all in one transaction (sqlite-utils'
``upsert_all`` inside ``db.atomic()``: a batch insert with ON CONFLICT, one savepoint per batch). Each row
is the ``scores`` table's columns (``Scores.columns()`` plus the document id, topic and time). ``document_scores`` reads one row back (for ``shijie show``);
``kept_concepts`` reads what mastery is computed from. Labels come from ``shijie mark`` and feed the next
scoring's label model.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from .curation import HAS_CONTENT

if TYPE_CHECKING:
    from sqlite_utils import Database


@dataclass(frozen=True)
class Scores:
    """The figures scoring gives one document, as ``scores`` holds them (``domains``, ``components`` decoded)."""

    value: int
    relevance: str
    relevance_score: float
    redundancy: str
    redundancy_score: float
    duplicate_of: int | None
    domains: dict[str, float]
    components: dict[str, Any]

    def columns(self) -> dict[str, Any]:
        """These figures as ``scores`` columns, the JSON ones encoded."""
        return {
            **{f.name: getattr(self, f.name) for f in fields(Scores)},
            "domains": json.dumps(self.domains),
            "components": json.dumps(self.components, ensure_ascii=False),
        }


@dataclass(frozen=True)
class ScoredDocument(Scores):
    """What scoring returns for one document: its figures, and which document it is."""

    id: int
    url: str
    title: str
    duplicate_of_url: str | None

    def as_json(self) -> dict[str, Any]:
        """The object ``shijie score --json`` lists (DESIGN.md's keys, and the type)."""
        return {
            "id": self.id,
            "url": self.url,
            "title": self.title,
            "value": self.value,
            "relevance": self.relevance,
            "relevance_score": self.relevance_score,
            "redundancy": self.redundancy,
            "redundancy_score": self.redundancy_score,
            "duplicate_of": self.duplicate_of_url,
            "duplicate_of_id": self.duplicate_of,
            "type": (self.components.get("type") or {}).get("type"),
            "domains": self.domains,
        }


@dataclass(frozen=True)
class StoredScore(Scores):
    document_id: int
    topic: str
    scored_at: float


def write_scores(db: Database, rows: Iterable[dict[str, Any]]) -> None:
    """Inserts or replaces one ``scores`` row per dict (keys: the table's columns)."""
    with db.atomic():
        db.table("scores").upsert_all(rows, pk="document_id")


def document_scores(db: Database, document_id: int) -> StoredScore | None:
    """The scores on file for one document; None when it was never scored."""
    row = next(db.table("scores").rows_where("document_id = ?", [document_id]), None)
    if row is None:
        return None
    return StoredScore(**{**row, "domains": json.loads(row["domains"]), "components": json.loads(row["components"])})


def unscored_documents(db: Database) -> int:
    """Documents with content (discarded ones too) that have no score, or one older than their content
    (crawled again since)."""
    return db.conn.execute(
        "SELECT count(*) FROM documents d LEFT JOIN scores s ON s.document_id = d.id"
        f" WHERE {HAS_CONTENT} AND (s.document_id IS NULL OR s.scored_at < d.fetched_at)"
    ).fetchone()[0]


def kept_concepts(
    db: Database, ids: Collection[int] | None = None
) -> Iterator[tuple[dict[str, dict[str, int]], float]]:
    """(concept counts by domain, depth 0..1) of every kept document: what mastery is computed from. With
    ``ids``, of those documents instead (the corpus a curation would keep)."""
    rows: Iterable[tuple[str]]
    if ids is None:
        rows = db.conn.execute(
            "SELECT s.components FROM scores s JOIN documents d ON d.id = s.document_id WHERE d.status = 'kept'"
        )
    else:
        wanted = set(ids)
        rows = ((c,) for i, c in db.conn.execute("SELECT document_id, components FROM scores") if i in wanted)
    for (components,) in rows:
        parsed = json.loads(components)
        yield parsed.get("concepts", {}), parsed.get("depth", {}).get("score", 0.0)


def mark_document(db: Database, document_id: int, label: str) -> None:
    """Records the user's ``label`` (good | bad) for a document, replacing an earlier one."""
    db.table("labels").upsert({"document_id": document_id, "label": label, "at": time.time()}, pk="document_id")


def document_labels(db: Database) -> dict[int, str]:
    """document id -> label, for every marked document."""
    return dict(db.conn.execute("SELECT document_id, label FROM labels").fetchall())


def label_counts(db: Database) -> dict[str, int]:
    """label -> how many documents carry it (labels nobody used are absent)."""
    return dict(db.conn.execute("SELECT label, count(*) FROM labels GROUP BY label").fetchall())
