"""The query API the skills read: the curated corpus as passages, documents, domains and mastery.

``db`` is what ``pipeline.store.open_db`` returns. Everything here reads; nothing writes. Before any
curation these answer with empty lists and zero mastery, never an error. The SQL behind it is
``pipeline.store`` (documents, fts); mastery is ``pipeline.coverage``'s one definition.

    domains()                       the seven domains of data/taxonomy.toml
    mastery(db)                     overall and per-domain mastery of the kept corpus (0..1)
    curated_documents(db)           every kept document, best first
    search(db, query, limit, statuses)
                                    documents by BM25 (kept ones first; ``statuses`` None: every
                                    document with text), text = a snippet with [matches] marked
    resolve_document(db, typed)     the document an id, URL, path or shijie-corpus: reference names
    passages(db, query, limit, domain)
                                    the best paragraph-sized passages of kept documents for a query,
                                    optionally only from documents that cover ``domain``
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .coverage import Mastery, mastery
from .errors import UsageError
from .store import (
    CLOSE,
    OPEN,
    CuratedDocument,
    DocumentRef,
    curated_documents,
    display_text,
    find_by_urls,
    fts_query,
    match_documents,
    match_passages,
    parse_search,
    served_origins,
    try_sync_documents,
)
from .taxonomy import Domain, load_taxonomy

if TYPE_CHECKING:
    from .store import Database

__all__ = [
    "CuratedDocument",
    "Domain",
    "Mastery",
    "Passage",
    "curated_documents",
    "domains",
    "mastery",
    "passages",
    "resolve_document",
    "search",
]

MAX_RESULTS = 1000  # search(limit=...) at most
DOMAIN_MIN_COVERAGE = 0.2  # passages(domain=...) reads documents covering at least this much of the domain
PER_DOCUMENT = 2  # passages() returns at most this many passages of one document


@dataclass(frozen=True)
class Passage:
    """A search hit or a passage. ``text`` is a snippet whose matches are bracketed (``[warp] shuffles``);
    ``marks`` are those brackets' spans in ``text`` (a bracket a page wrote itself is not one)."""

    document_id: int
    url: str
    title: str
    text: str
    score: float
    domains: dict[str, float]
    status: str = "kept"
    value: int | None = None
    marks: tuple[tuple[int, int], ...] = ()
    all_terms: bool = True  # False: no document had every term of the query; this one has some


def domains() -> list[Domain]:
    return list(load_taxonomy())


def marked(snippet: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A snippet with OPEN/CLOSE markers → its text with the matches in brackets, and their spans."""
    out: list[str] = []
    marks: list[tuple[int, int]] = []
    length, start = 0, -1
    for char in snippet:
        if char == OPEN and start < 0:
            start = length
            char = "["
        elif char == CLOSE and start >= 0:
            marks.append((start, length + 1))
            start = -1
            char = "]"
        elif char in (OPEN, CLOSE):
            continue
        out.append(char)
        length += 1
    return "".join(out), tuple(marks)


def search(db: Database, query: str, limit: int = 10, statuses: list[str] | None = None) -> list[Passage]:
    """Documents matching every term of ``query`` (any term when none matches them all), kept documents
    first, best BM25 first; ``statuses`` (kept, discarded, active) limits them, None: every document with
    text. The query language is ``pipeline.store.fts``'s: ``"a phrase"``, ``prefix*``, ``-excluded``, ``OR``.
    The index is brought in step with the documents first (where the database can be written)."""
    if not 1 <= limit <= MAX_RESULTS:
        raise UsageError(f"must be between 1 and {MAX_RESULTS}, not {limit}", field="limit")
    parsed = parse_search(query)
    try_sync_documents(db)
    hits = []
    for match in match_documents(db, parsed, limit, statuses):
        text, marks = marked(display_text(match.snippet))
        hits.append(
            Passage(
                match.id,
                match.url,
                match.title or match.url,
                text,
                match.score,
                match.domains,
                match.status,
                match.value,
                marks,
                match.all_terms,
            )
        )
    return hits


def resolve_document(db: Database, typed: str) -> DocumentRef | None:
    """The document ``typed`` names, as a user types it (``pipeline.links.typed_forms``)."""
    from .links import Links, typed_forms

    return find_by_urls(db, typed_forms(typed, Links(tuple(served_origins(db)))))


def passages(db: Database, query: str, limit: int = 5, domain: str | None = None) -> list[Passage]:
    """The best passages for ``query``; ``domain`` limits them to documents that cover that domain."""
    known = {d.id: d for d in load_taxonomy()}
    if domain is not None and domain not in known:
        raise UsageError(f"unknown domain {domain!r}; domains: {', '.join(known)}")
    operator = None
    if not fts_query(query):
        if domain is None:
            raise UsageError("passages() needs a query or a domain")
        query = " ".join(known[domain].concepts)  # the domain's own vocabulary is the query
        operator = "OR"
    rows = match_passages(db, query, limit * 10, domain=domain, min_coverage=DOMAIN_MIN_COVERAGE, operator=operator)
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
