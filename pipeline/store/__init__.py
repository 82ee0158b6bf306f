"""The one data layer: the only code in shijie that speaks SQL.

Every stage reads and writes the database through this package, and nothing outside it runs a query: the
crawl through ``Frontier``, scoring through ``scoring_rows`` / ``write_scores``, curation through
``curation_candidates`` / ``apply_curation`` and the FTS index, the query API and the CLI through lookups
(``find_document``, ``document_scores``, ``has_kept_documents``, ``match_passages``, ...), the skills
through the knowledge packs. The handle every function takes is a ``sqlite_utils.Database`` (``open_db``).

    schema       the tables, grouped by the stage that owns them; column comments are the contract
    connection   open_db / open_existing / resolve_path: where the database lives, ours or not, WAL, the schema made sure
                 of; read-only opens; storage_error: what a SQLite failure means for the user's data
    frontier     the crawl's durable state and the transaction that groups its writes (Entry, Frontier)
    runs         crawl runs: seeds, settings, stats; an unfinished one is resumed
    documents    storing a document and its aliases; finding one by id or URL; the rows stages read
    scores       scores written and read back; the user's good/bad labels
    curation     kept and discarded documents (a state: discarded text is archived, never dropped), the
                 discarded URLs a crawl skips
    archive      the compressed form of a discarded document's text
    fts          full-text search: CJK-aware indexing, the index rebuild, BM25 matches
    packs        knowledge packs, one per skill
    contents     what a database holds besides the embedded demo (shijie run never mixes the two)

Where sqlite-utils fits, it is used: batch upserts (scores, the discarded URLs, labels, packs) and row
reads by table. The crawl's hot path (one long transaction with explicit BEGIN and grouped commits) and
every join stay plain SQL: sqlite-utils' insert helpers open a transaction (or savepoint) of their own per
call. Functions that write say whether they commit: the crawl's writers run inside the frontier's open
transaction, every other writer commits its work as one transaction (``db.atomic()``).
"""

from typing import TYPE_CHECKING, Any

from .connection import DEFAULT_DB, open_db, open_existing, resolve_path, storage_error
from .contents import demo_origin, non_demo_documents
from .curation import Candidate, Discard, apply_curation, curation_candidates, discarded_urls
from .documents import (
    SORTS,
    TYPE_SQL,
    CuratedDocument,
    DocumentFilter,
    DocumentRef,
    DocumentRow,
    Fetched,
    active_documents,
    curated_documents,
    document_content,
    document_text,
    document_type,
    documents_total,
    find_by_urls,
    find_document,
    has_kept_documents,
    list_documents,
    scored_documents,
    scoring_rows,
    status_counts,
    store_document,
)
from .frontier import Entry, Frontier
from .fts import (
    DocumentMatch,
    match_documents,
    match_passages,
    rebuild_index,
    sync_documents,
    try_sync_documents,
    unindexed_documents,
)
from .packs import StoredPack, learned_levels, load_pack, save_pack
from .runs import last_crawl_stats, served_origins
from .scores import (
    ScoredDocument,
    Scores,
    StoredScore,
    document_labels,
    document_scores,
    kept_concepts,
    label_counts,
    mark_document,
    unscored_documents,
    write_scores,
)
from .search_text import CLOSE, OPEN, SearchQuery, display_text, fts_query, fts_text, parse_search, split_passages

if TYPE_CHECKING:
    from sqlite_utils import Database


def __getattr__(name: str) -> Any:
    # sqlite-utils imports numpy when it is installed (~0.2 s): importing the store for a query must not
    if name == "Database":
        from sqlite_utils import Database

        return Database
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CLOSE",
    "DEFAULT_DB",
    "OPEN",
    "SORTS",
    "TYPE_SQL",
    "Candidate",
    "CuratedDocument",
    "Database",
    "Discard",
    "DocumentFilter",
    "DocumentMatch",
    "DocumentRef",
    "DocumentRow",
    "Entry",
    "Fetched",
    "Frontier",
    "ScoredDocument",
    "Scores",
    "SearchQuery",
    "StoredPack",
    "StoredScore",
    "active_documents",
    "apply_curation",
    "curated_documents",
    "curation_candidates",
    "demo_origin",
    "discarded_urls",
    "display_text",
    "document_content",
    "document_labels",
    "document_scores",
    "document_text",
    "document_type",
    "documents_total",
    "find_by_urls",
    "find_document",
    "fts_query",
    "fts_text",
    "has_kept_documents",
    "kept_concepts",
    "label_counts",
    "last_crawl_stats",
    "learned_levels",
    "list_documents",
    "load_pack",
    "mark_document",
    "match_documents",
    "match_passages",
    "non_demo_documents",
    "open_db",
    "open_existing",
    "parse_search",
    "rebuild_index",
    "resolve_path",
    "save_pack",
    "scored_documents",
    "scoring_rows",
    "served_origins",
    "split_passages",
    "status_counts",
    "storage_error",
    "store_document",
    "sync_documents",
    "try_sync_documents",
    "unindexed_documents",
    "unscored_documents",
    "write_scores",
]
