"""The query API the skills read: the curated corpus as passages, documents, domains and mastery.

``db`` is what ``pipeline.store.open_db`` returns. Everything here reads; nothing writes. Before any
curation these answer with empty lists and zero mastery, never an error. The SQL behind it is
``pipeline.store`` (documents, fts); mastery is ``pipeline.coverage``'s one definition.

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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .coverage import Mastery, mastery
from .errors import UsageError
from .store import CuratedDocument, curated_documents, display_text, fts_query, match_documents, match_passages
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
    "search",
]

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


def domains() -> list[Domain]:
    return list(load_taxonomy())


def search(db: Database, query: str, limit: int = 10) -> list[Passage]:
    """Kept documents matching all words of ``query`` (any word when none match all), best BM25 first."""
    if not fts_query(query):
        raise UsageError("the search query needs at least one word")
    rows = match_documents(db, query, limit)
    return [
        Passage(i, u, t or u, display_text(snip), round(-rank, 4), json.loads(dm)) for i, u, t, snip, rank, dm in rows
    ]


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
