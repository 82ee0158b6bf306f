"""Full-text search: how text is indexed, keeping the index in step with the documents, and BM25 queries.

Two FTS5 tables (see ``schema``). ``documents_fts`` holds every document that has text, whatever its
curation state (rowid = documents.id; title, body, and ``version``, unindexed, that says which text was
indexed), kept in step by ``sync_documents`` (curation calls it, and so does a search, cheaply: it only
compares ids and versions). ``passages_fts`` holds the paragraph-sized passages (``split_passages``) of the
kept documents only: the skills read it, and it is rebuilt by curation (``rebuild_index``). What goes into
them, and how a query reads, is ``search_text``'s: indexed text (``fts_text``), passages, the query syntax.

Ranking is BM25 (k1 = 1.2, b = 0.75, a title weighing ``TITLE_WEIGHT`` times the body), with Lucene's
non-negative idf, log(1 + (N - n + 0.5) / (n + 0.5)). FTS5's own ``bm25()`` clamps the idf of a term that
is in more than half the documents to 1e-6, so on a small corpus about attention, "attention" scored every
document 0.0; its per-term part is recovered exactly (bm25 / its idf) and weighed by the Lucene idf.

These are our own FTS5 tables rather than sqlite-utils' ``enable_fts``/``search``: those index a table's
stored columns through triggers, while we index a transformed text (CJK spaced, camel case split) and
passages that have no table of their own, and rank with column weights, snippets and an idf that
``search`` does not expose.
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import archive
from .schema import DOCUMENTS_FTS
from .search_text import CLOSE, OPEN, SearchQuery, fts_query, fts_text, split_passages
from .search_text import MAX_QUERY_CHARS as MAX_QUERY_CHARS  # re-exported: tests and callers read it here

if TYPE_CHECKING:
    from collections.abc import Collection

    from sqlite_utils import Database

TITLE_WEIGHT = 5.0  # bm25 column weight of documents_fts.title (body: 1.0)
SNIPPET_TOKENS = 24
INDEX_FORMAT = 2  # part of every row's version: a change to fts_text re-indexes every document once


# -- keeping the index in step -------------------------------------------------------------------------


def _version(content_hash: str, title: str | None) -> str:
    return f"{INDEX_FORMAT}:{content_hash}:{hashlib.sha1((title or '').encode('utf-8')).hexdigest()[:12]}"


def _ensure_layout(db: Database) -> None:
    """An index from before ``version`` existed (it held only kept documents) is made anew."""
    columns = [row[1] for row in db.conn.execute("PRAGMA table_info(documents_fts)")]
    if columns != ["title", "body", "version"]:
        db.conn.execute("DROP TABLE IF EXISTS documents_fts")
        db.conn.execute(DOCUMENTS_FTS)


def sync_documents(db: Database) -> int:
    """Indexes every document with text that is not indexed as it now reads, and drops the rows of
    documents that have no text any more; returns how many rows changed. Commits (a savepoint inside the
    caller's transaction)."""
    with db.atomic():
        _ensure_layout(db)
        indexed = dict(db.conn.execute("SELECT rowid, version FROM documents_fts").fetchall())
        current = {
            doc_id: _version(content_hash, title)
            for doc_id, content_hash, title in db.conn.execute(
                "SELECT id, content_hash, title FROM documents WHERE text IS NOT NULL OR archive IS NOT NULL"
            )
        }
        stale = [doc_id for doc_id, version in indexed.items() if current.get(doc_id) != version]
        missing = [doc_id for doc_id, version in current.items() if indexed.get(doc_id) != version]
        db.conn.executemany("DELETE FROM documents_fts WHERE rowid = ?", [(i,) for i in stale])
        for doc_id in missing:
            title, text, blob = db.conn.execute(
                "SELECT title, text, archive FROM documents WHERE id = ?", (doc_id,)
            ).fetchone()
            if text is None:  # discarded by curation: its content lives in the archive
                text = archive.unpack(blob)[0]
            db.conn.execute(
                "INSERT INTO documents_fts (rowid, title, body, version) VALUES (?, ?, ?, ?)",
                (doc_id, fts_text(title or ""), fts_text(text), current[doc_id]),
            )
    return len(stale) + len(missing)


def try_sync_documents(db: Database) -> bool:
    """``sync_documents`` where the database can be written; False on a read-only one (its search then
    reads the index as the last writer left it)."""
    try:
        sync_documents(db)
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc) or "read-only" in str(exc):
            return False
        raise
    return True


def unindexed_documents(db: Database) -> int:
    """Documents with text the search index does not hold (crawled since the last sync)."""
    try:
        return db.conn.execute(
            "SELECT count(*) FROM documents d WHERE (d.text IS NOT NULL OR d.archive IS NOT NULL)"
            " AND NOT EXISTS (SELECT 1 FROM documents_fts f WHERE f.rowid = d.id)"
        ).fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def rebuild_index(db: Database) -> None:
    """Brings the documents index in step with every document's content (discarded ones too) and rebuilds the
    kept passages (inside the caller's transaction).

    FTS5 deletes by writing delete markers that later merges drop; after emptying the passages, 'optimize'
    merges them away at once, or every curation would leave the previous index behind as dead weight
    (measured: 4.2 MB of it on 865 documents after one restore and one discard)."""
    sync_documents(db)
    conn = db.conn
    conn.execute("DELETE FROM passages_fts")
    conn.execute("INSERT INTO documents_fts (documents_fts) VALUES ('optimize')")
    conn.execute("INSERT INTO passages_fts (passages_fts) VALUES ('optimize')")
    cursor = conn.execute("SELECT id, text FROM documents WHERE status = 'kept' AND text IS NOT NULL")
    for doc_id, text in cursor.fetchall():
        conn.executemany(
            "INSERT INTO passages_fts (body, document_id, ordinal) VALUES (?, ?, ?)",
            [(fts_text(p), doc_id, n) for n, p in enumerate(split_passages(text))],
        )


# -- matching documents --------------------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentMatch:
    id: int
    url: str
    title: str | None
    status: str
    snippet: str  # fts_text with OPEN/CLOSE around matches; display_text makes it readable
    score: float  # BM25 with a non-negative idf (module docstring)
    value: int | None  # None: not scored yet
    domains: dict[str, float]
    all_terms: bool  # False: no document had every term, these have some (the query's fallback)


def _lucene_idf(total: int, hits: int) -> float:
    return math.log(1 + (total - hits + 0.5) / (hits + 0.5))


def _fts5_idf(total: int, hits: int) -> float:
    idf = math.log((total - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0 else 1e-6  # what fts5_aux.c's bm25 does


def match_documents(
    db: Database, query: SearchQuery, limit: int, statuses: Collection[str] | None = None
) -> list[DocumentMatch]:
    """The ``limit`` best documents matching ``query`` (every group; when none does, any), kept documents
    first, then by BM25; ``statuses`` (kept, discarded, active) limits the documents considered."""
    conn = db.conn
    weights = f"{TITLE_WEIGHT}, 1.0, 0.0"
    where_status = ""
    params: tuple = ()
    if statuses:
        where_status = f" AND d.status IN ({', '.join('?' * len(statuses))})"
        params = tuple(statuses)
    operators = ("AND", "OR") if len(query.groups) > 1 else ("AND",)
    try:
        for operator in operators:
            expression = query.expression(operator)
            candidates = {
                row[0]: row[1]
                for row in conn.execute(
                    "SELECT f.rowid, d.status FROM documents_fts f JOIN documents d ON d.id = f.rowid"
                    " WHERE documents_fts MATCH ?" + where_status,
                    (expression, *params),
                )
            }
            if candidates:
                break
        else:
            return []
        total = conn.execute("SELECT count(*) FROM documents_fts").fetchone()[0]
        scores = dict.fromkeys(candidates, 0.0)
        for phrase in query.phrases:
            # every document with the phrase, filtered here: a rowid constraint next to MATCH makes FTS5 run the
            # phrase once per rowid (20k candidates took 19 s; this, 0.3 s)
            ranks = conn.execute(
                f"SELECT rowid, bm25(documents_fts, {weights}) FROM documents_fts WHERE documents_fts MATCH ?",
                (phrase,),
            ).fetchall()
            weight = _lucene_idf(total, len(ranks)) / _fts5_idf(total, len(ranks))
            for doc_id, rank in ranks:
                if doc_id in scores:
                    scores[doc_id] += -rank * weight
        best = sorted(scores, key=lambda i: (candidates[i] != "kept", -scores[i], i))[:limit]
        rows = conn.execute(
            f"SELECT f.rowid, d.url, d.title, d.status, snippet(documents_fts, 1, ?, ?, '…', {SNIPPET_TOKENS}),"
            " s.value, s.domains FROM documents_fts f JOIN documents d ON d.id = f.rowid"
            " LEFT JOIN scores s ON s.document_id = d.id"
            " WHERE documents_fts MATCH ? AND f.rowid IN (SELECT value FROM json_each(?))",
            (OPEN, CLOSE, expression, json.dumps(best)),
        ).fetchall()
    except sqlite3.OperationalError as exc:  # an FTS table missing in a database older than curation
        if "no such table" in str(exc):
            return []
        raise
    found = {
        row[0]: DocumentMatch(
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            round(scores[row[0]], 4),
            row[5],
            json.loads(row[6]) if row[6] else {},
            operator == "AND",
        )
        for row in rows
    }
    return [found[i] for i in best if i in found]


def match_passages(
    db: Database,
    query: str,
    limit: int,
    *,
    domain: str | None = None,
    min_coverage: float = 0.0,
    operator: str | None = None,
) -> list[tuple]:
    """(document id, url, title, passage body, bm25 rank, domains JSON, value) of passages of kept documents
    matching ``query``, best first; with ``domain``, only from documents covering at least ``min_coverage``
    of it. ``operator`` None: all words, falling back to any word; "OR": any word."""
    sql = (
        "SELECT p.document_id, d.url, d.title, p.body, bm25(passages_fts), s.domains, s.value"
        " FROM passages_fts p JOIN documents d ON d.id = p.document_id JOIN scores s ON s.document_id = d.id"
        " WHERE passages_fts MATCH ? AND d.status = 'kept'"
        + (" AND coalesce(json_extract(s.domains, ?), 0) >= ?" if domain else "")
        + " ORDER BY bm25(passages_fts) LIMIT ?"
    )
    extra = (f'$."{domain}"', min_coverage) if domain else ()
    for op in (operator,) if operator else ("AND", "OR"):
        try:
            rows = db.conn.execute(sql, (fts_query(query, op), *extra, limit)).fetchall()
        except sqlite3.OperationalError as exc:  # an FTS table missing in a database older than curation
            if "no such table" in str(exc):
                return []
            raise
        if rows:
            return rows
    return []
