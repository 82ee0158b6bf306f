"""The query API the skills read: the curated corpus as passages, documents, domains and mastery.

``db`` is what ``pipeline.store.open_db`` returns. Everything here reads; nothing writes. Before any
curation these answer with empty lists and zero mastery, never an error.

    domains()                       the seven domains of data/taxonomy.toml
    mastery(db)                     overall and per-domain mastery of the kept corpus (0..1)
    curated_documents(db)           every kept document, best first
    search(db, query, limit)        kept documents by BM25, text = a snippet with [matches] marked
    passages(db, query, limit, domain)
                                    the best paragraph-sized passages of kept documents for a query,
                                    optionally only from documents that cover ``domain``
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

from . import coverage
from .curate import display_text, domain_mastery, fts_query
from .errors import UsageError
from .taxonomy import Domain, load_taxonomy  # Domain is part of this API too

DOMAIN_MIN_COVERAGE = 0.2  # passages(domain=...) reads documents covering at least this much of the domain
PER_DOCUMENT = 2  # passages() returns at most this many passages of one document


@dataclass(frozen=True)
class Passage:
    document_id: int
    url: str
    title: str
    text: str
    score: float
    domains: dict[str, float]


@dataclass(frozen=True)
class Mastery:
    overall: float
    domains: dict[str, float]


@dataclass(frozen=True)
class CuratedDocument:
    id: int
    url: str
    title: str
    text: str
    value: int
    domains: dict[str, float]


def domains() -> list[Domain]:
    return list(load_taxonomy())


def mastery(db) -> Mastery:
    per_domain = domain_mastery(db)
    return Mastery(coverage.overall(per_domain), per_domain)


def curated_documents(db) -> list[CuratedDocument]:
    rows = db.conn.execute(
        "SELECT d.id, d.url, d.title, d.text, s.value, s.domains FROM documents d"
        " JOIN scores s ON s.document_id = d.id WHERE d.status = 'kept' AND d.text IS NOT NULL"
        " ORDER BY s.value DESC, d.id"
    ).fetchall()
    return [CuratedDocument(i, u, t or u, x, v, json.loads(dm)) for i, u, t, x, v, dm in rows]


def search(db, query: str, limit: int = 10) -> list[Passage]:
    """Kept documents matching all words of ``query`` (any word when none match all), best BM25 first."""
    if not fts_query(query):
        raise UsageError("the search query needs at least one word")
    sql = (
        "SELECT f.rowid, d.url, d.title, snippet(documents_fts, 1, '[', ']', '…', 24), bm25(documents_fts, 5.0, 1.0),"
        " s.domains FROM documents_fts f JOIN documents d ON d.id = f.rowid JOIN scores s ON s.document_id = d.id"
        " WHERE documents_fts MATCH ? ORDER BY bm25(documents_fts, 5.0, 1.0) LIMIT ?"
    )
    rows = _match(db, sql, query, limit)
    return [
        Passage(i, u, t or u, display_text(snip), round(-rank, 4), json.loads(dm)) for i, u, t, snip, rank, dm in rows
    ]


def passages(db, query: str, limit: int = 5, domain: str | None = None) -> list[Passage]:
    """The best passages for ``query``; ``domain`` limits them to documents that cover that domain."""
    known = {d.id: d for d in load_taxonomy()}
    if domain is not None and domain not in known:
        raise UsageError(f"unknown domain {domain!r}; domains: {', '.join(known)}")
    if not fts_query(query):
        if domain is None:
            raise UsageError("passages() needs a query or a domain")
        query = " ".join(known[domain].concepts)  # the domain's own vocabulary is the query
        operator = "OR"
    else:
        operator = None
    sql = (
        "SELECT p.document_id, d.url, d.title, p.body, bm25(passages_fts), s.domains, s.value"
        " FROM passages_fts p JOIN documents d ON d.id = p.document_id JOIN scores s ON s.document_id = d.id"
        " WHERE passages_fts MATCH ?"
        + (" AND coalesce(json_extract(s.domains, ?), 0) >= ?" if domain else "")
        + " ORDER BY bm25(passages_fts) LIMIT ?"
    )
    extra = (f'$."{domain}"', DOMAIN_MIN_COVERAGE) if domain else ()
    rows = _match(db, sql, query, limit * 10, extra, operator)
    ranked = []
    for doc_id, url, title, body, rank, dm, value in rows:
        # BM25 says how well the passage answers; the document's value breaks near-ties toward better sources
        ranked.append((-rank * (0.75 + value / 400), doc_id, url, title, body, dm))
    ranked.sort(key=lambda r: (-r[0], r[1]))
    out: list[Passage] = []
    per_doc: dict[int, int] = {}
    for score, doc_id, url, title, body, dm in ranked:
        if per_doc.get(doc_id, 0) >= PER_DOCUMENT:
            continue
        per_doc[doc_id] = per_doc.get(doc_id, 0) + 1
        out.append(Passage(doc_id, url, title or url, display_text(body), round(score, 4), json.loads(dm)))
        if len(out) == limit:
            break
    return out


def _match(db, sql: str, query: str, limit: int, extra: tuple = (), operator: str | None = None) -> list[tuple]:
    """Runs ``sql`` with all words required, falling back to any word."""
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
