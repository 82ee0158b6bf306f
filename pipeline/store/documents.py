"""Documents: storing what the crawl extracted, finding one by any of its URLs, and the rows stages read.

Storing (``store_document``) is keyed twice, by the canonical URL and by the sha256 of the clean text (both
UNIQUE in ``documents``): the same URL with new content updates its row (an arXiv entry only for a newer
version), the same content under a new URL becomes an alias in ``url_aliases``, never a second row. It runs
inside the caller's transaction and never commits (the frontier groups it with the fetch's other writes).

A document curation discarded keeps its content, compressed in ``archive`` (``store.archive``): new
content for it (a re-crawl, a newer arXiv version) is archived too, so it stays discarded until a curation
keeps it again.

Lookups: ``find_document`` resolves what a user types (an id, the URL, the final URL after redirects, or an
alias; ``find_by_urls`` the first of several spellings, ``pipeline.links.typed_forms``); ``scoring_rows``
streams what the scorer reads (every document with content, discarded ones unpacked); ``curated_documents``
is the kept corpus; ``document_content`` is one document's text, headings and code wherever they live now
(plain, or archived by curation) and ``document_text`` its text alone; ``list_documents`` browses them all,
filtered and sorted (``DocumentFilter``: what ``shijie list`` and ``shijie export`` take).

A document's type is the Vision's (``components.type.type``) where its scores have one, else the source kind
scoring recognised (``components.source.kind``): ``TYPE_SQL`` is the one place that reads it.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from . import archive

if TYPE_CHECKING:
    from sqlite_utils import Database

    from ..extract import Document

# documents whose content is stored, in plain form or (discarded) archived; only an older shijie's curation
# purged text (before layout 1)
_HAS_CONTENT = "(text IS NOT NULL OR archive IS NOT NULL)"


@dataclass(frozen=True)
class DocumentRef:
    id: int
    url: str
    title: str | None
    status: str  # active | kept | discarded


@dataclass(frozen=True)
class CuratedDocument:
    id: int
    url: str
    title: str
    text: str
    value: int
    domains: dict[str, float]


class Fetched(TypedDict):
    """What the crawl knows of a fetch besides the extracted document."""

    final_url: str | None  # after redirects
    content_type: str | None
    byte_size: int
    etag: str | None
    last_modified: str | None
    depth: int


def store_document(db: Database, url: str, doc: Document, **fetched: Unpack[Fetched]) -> str:
    """Writes ``doc`` fetched from ``url``; returns stored | duplicate | updated | replaced | unchanged."""
    conn = db.conn
    identity = doc.url or url
    content_hash = hashlib.sha256(doc.text.encode("utf-8")).hexdigest()
    etag, last_modified = fetched["etag"], fetched["last_modified"]
    fields: dict[str, Any] = {
        "final_url": fetched["final_url"],
        "title": doc.title,
        "kind": doc.kind,
        "content_type": fetched["content_type"],
        "text": doc.text,
        "headings": json.dumps(doc.headings, ensure_ascii=False),
        "code_blocks": json.dumps(doc.code_blocks, ensure_ascii=False),
        "metadata": json.dumps(doc.metadata, ensure_ascii=False),
        "content_hash": content_hash,
        "byte_size": fetched["byte_size"],
        "etag": etag,
        "last_modified": last_modified,
        "depth": fetched["depth"],
        "fetched_at": time.time(),
    }
    row = conn.execute("SELECT id, content_hash, metadata, status FROM documents WHERE url = ?", (identity,)).fetchone()
    holder = conn.execute("SELECT id FROM documents WHERE content_hash = ?", (content_hash,)).fetchone()
    if row is not None:
        doc_id, old_hash, old_meta, status = row
        if doc.kind == "arxiv":
            old_version = json.loads(old_meta or "{}").get("version", 0)
            if doc.metadata.get("version", 0) <= old_version:
                return "unchanged"
        elif old_hash == content_hash:
            conn.execute(
                "UPDATE documents SET etag = ?, last_modified = ?, fetched_at = ? WHERE id = ?",
                (etag, last_modified, fields["fetched_at"], doc_id),
            )
            return "unchanged"
        if holder is not None and holder[0] != doc_id:
            return "unchanged"  # its new content is another document's: keep the old text, no second row
        if status == "discarded":  # stays discarded, its new content archived, until a curation keeps it
            packed = archive.pack(doc.text, fields["headings"], fields["code_blocks"])
            fields |= {"archive": packed, "text": None, "headings": None, "code_blocks": None}
        assignments = ", ".join(f"{name} = :{name}" for name in fields)
        conn.execute(f"UPDATE documents SET {assignments} WHERE id = :id", {**fields, "id": doc_id})
        return "replaced" if doc.kind == "arxiv" else "updated"
    if holder is not None:
        known = conn.execute("SELECT document_id FROM url_aliases WHERE url = ?", (identity,)).fetchone()
        if known is not None:
            return "unchanged"
        conn.execute("INSERT OR IGNORE INTO url_aliases (url, document_id) VALUES (?, ?)", (identity, holder[0]))
        return "duplicate"
    columns = ["url", *fields]
    conn.execute(
        f"INSERT INTO documents ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        (identity, *fields.values()),
    )
    return "stored"


def find_document(db: Database, ref: str) -> DocumentRef | None:
    """The document ``ref`` names: an id (digits), else its URL, its final URL or one of its aliases."""
    row = None
    if ref.isdigit():
        row = db.conn.execute("SELECT id, url, title, status FROM documents WHERE id = ?", (int(ref),)).fetchone()
    if row is None:
        row = db.conn.execute(
            "SELECT id, url, title, status FROM documents WHERE url = ? OR final_url = ?"
            " UNION SELECT d.id, d.url, d.title, d.status FROM url_aliases a JOIN documents d ON d.id = a.document_id"
            " WHERE a.url = ?",
            (ref, ref, ref),
        ).fetchone()
    return None if row is None else DocumentRef(*row)


def find_by_urls(db: Database, urls: list[str]) -> DocumentRef | None:
    """The document the first of ``urls`` that names one names (``find_document`` on each in turn)."""
    for url in urls:
        found = find_document(db, url)
        if found is not None:
            return found
    return None


def document_content(db: Database, doc_id: int) -> tuple[str, str | None, str | None] | None:
    """(text, headings JSON, code blocks JSON) of one document wherever its content lives now: plain, or
    in the archive of a discarded document. None for an unknown id, or one whose text an older shijie's
    curation purged (before layout 1)."""
    row = db.conn.execute("SELECT text, headings, code_blocks, archive FROM documents WHERE id = ?", (doc_id,))
    found = row.fetchone()
    if found is None:
        return None
    text, headings, code_blocks, blob = found
    if text is not None:
        return text, headings, code_blocks
    return None if blob is None else archive.unpack(blob)


def document_text(db: Database, document_id: int) -> str | None:
    """The extracted text of one document, discarded ones included; None when it has none (an older
    shijie's curation purged it, or it never had)."""
    content = document_content(db, document_id)
    return None if content is None else content[0]


def documents_total(db: Database) -> int:
    """Every stored document, discarded ones included."""
    return db.conn.execute("SELECT count(*) FROM documents").fetchone()[0]


def active_documents(db: Database) -> int:
    """How many documents have their content, discarded ones included (what scoring and curation work on)."""
    return db.conn.execute(f"SELECT count(*) FROM documents WHERE {_HAS_CONTENT}").fetchone()[0]


def has_kept_documents(db: Database) -> bool:
    return db.conn.execute("SELECT 1 FROM documents WHERE status = 'kept' LIMIT 1").fetchone() is not None


def scoring_rows(db: Database, batch: int) -> Iterator[tuple]:
    """(id, url, title, kind, text, headings, code_blocks, metadata) of every document with content (a
    discarded one unpacked from its archive), by id, read ``batch`` rows per round trip so no more than a
    batch of texts is in memory at once."""
    cursor = db.conn.execute(
        "SELECT id, url, title, kind, text, headings, code_blocks, metadata, archive FROM documents"
        f" WHERE {_HAS_CONTENT} ORDER BY id"
    )
    while rows := cursor.fetchmany(batch):
        for *row, blob in rows:
            if row[4] is None:
                row[4:7] = archive.unpack(blob)
            yield tuple(row)


def curated_documents(db: Database) -> list[CuratedDocument]:
    """Every kept document, best first."""
    cursor = db.conn.execute(
        "SELECT d.id, d.url, d.title, d.text, s.value, s.domains FROM documents d"
        " JOIN scores s ON s.document_id = d.id WHERE d.status = 'kept' AND d.text IS NOT NULL"
        " ORDER BY s.value DESC, d.id"
    )
    return [CuratedDocument(i, u, t or u, x, v, json.loads(dm)) for i, u, t, x, v, dm in cursor]


# -- browsing ------------------------------------------------------------------------------------------

TYPE_SQL = (
    "coalesce(json_extract(s.components, '$.type.type'),"
    " CASE json_type(s.components, '$.type') WHEN 'text' THEN json_extract(s.components, '$.type') END,"
    " json_extract(s.components, '$.source.kind'))"
)
# sort key -> (SQL expression, descending by default)
SORTS: dict[str, tuple[str, bool]] = {
    "value": ("s.value", True),
    "relevance": ("s.relevance_score", True),
    "redundancy": ("s.redundancy_score", True),
    "title": ("lower(coalesce(d.title, d.url))", False),
    "id": ("d.id", False),
    "fetched": ("d.fetched_at", True),
    "type": ("type", False),
    "status": ("d.status", False),
    "domain": ("coalesce(json_extract(s.domains, :domain_path), 0)", True),
}


@dataclass(frozen=True)
class DocumentFilter:
    """Which documents ``list_documents`` returns, and in which order. Empty tuples and None: no filter."""

    relevance: tuple[str, ...] = ()  # high | medium | low
    min_value: int | None = None
    max_value: int | None = None
    types: tuple[str, ...] = ()
    domain: str | None = None  # with min_coverage: documents covering at least that much of it
    min_coverage: float = 0.0
    statuses: tuple[str, ...] = ()  # kept | discarded | active
    sort: str = "value"
    reverse: bool = False  # the other direction than the key's natural one


@dataclass(frozen=True)
class DocumentRow:
    id: int
    url: str
    final_url: str | None
    title: str | None
    kind: str
    status: str
    fetched_at: float
    metadata: dict[str, Any]
    value: int | None  # None: not scored yet
    relevance: str | None
    relevance_score: float | None
    redundancy: str | None
    redundancy_score: float | None
    duplicate_of: int | None
    domains: dict[str, float]
    type: str | None


def list_documents(db: Database, where: DocumentFilter) -> Iterator[DocumentRow]:
    """Every document ``where`` admits, in its order (unscored documents last on score keys)."""
    clauses: list[str] = ["1"]
    params: dict[str, object] = {"domain_path": f'$."{where.domain}"' if where.domain else "$.none"}
    for name, sql, values in (
        ("relevance", "s.relevance", where.relevance),
        ("status", "d.status", where.statuses),
        ("type", TYPE_SQL, where.types),
    ):
        if values:
            names = [f"{name}{n}" for n in range(len(values))]
            clauses.append(f"{sql} IN ({', '.join(':' + n for n in names)})")
            params.update(zip(names, values, strict=True))
    if where.min_value is not None:
        clauses.append("s.value >= :min_value")
        params["min_value"] = where.min_value
    if where.max_value is not None:
        clauses.append("s.value <= :max_value")
        params["max_value"] = where.max_value
    if where.domain:
        clauses.append("coalesce(json_extract(s.domains, :domain_path), 0) >= :min_coverage")
        params["min_coverage"] = where.min_coverage
    key, descending = SORTS[where.sort]
    direction = "DESC" if descending != where.reverse else "ASC"
    # the inner query names its columns; the order is read from them (``type`` is computed once)
    cursor = db.conn.execute(
        "SELECT * FROM (SELECT d.id, d.url, d.final_url, d.title, d.kind, d.status, d.fetched_at, d.metadata,"
        " s.value, s.relevance, s.relevance_score, s.redundancy, s.redundancy_score, s.duplicate_of, s.domains,"
        f" {TYPE_SQL} AS type FROM documents d LEFT JOIN scores s ON s.document_id = d.id"
        f" WHERE {' AND '.join(clauses)}) AS d"
        f" ORDER BY {key.replace('s.', 'd.')} {direction} NULLS LAST, d.id",
        params,
    )
    for row in cursor:
        (doc_id, url, final_url, title, kind, status, fetched_at, metadata, value) = row[:9]
        relevance, rel_score, redundancy, red_score, duplicate_of, domains, doc_type = row[9:]
        yield DocumentRow(
            doc_id,
            url,
            final_url,
            title,
            kind,
            status,
            fetched_at,
            json.loads(metadata or "{}"),
            value,
            relevance,
            rel_score,
            redundancy,
            red_score,
            duplicate_of,
            json.loads(domains) if domains else {},
            doc_type,
        )


def document_type(db: Database, document_id: int) -> str | None:
    """One document's type (``TYPE_SQL``); None when it is not scored."""
    row = db.conn.execute(f"SELECT {TYPE_SQL} FROM scores s WHERE s.document_id = ?", (document_id,)).fetchone()
    return None if row is None else row[0]


def scored_documents(db: Database) -> list[dict[str, Any]]:
    """Every scored document as ``shijie score --json`` gives it, with its ``components`` and ``status``, best
    first (what a report of the database shows)."""
    cursor = db.conn.execute(
        "SELECT d.id, d.url, d.title, d.status, s.value, s.relevance, s.relevance_score, s.redundancy,"
        " s.redundancy_score, dup.url, s.domains, s.components FROM documents d"
        " JOIN scores s ON s.document_id = d.id LEFT JOIN documents dup ON dup.id = s.duplicate_of"
        " ORDER BY s.value DESC, s.relevance_score DESC, d.id"
    )
    names = ("id", "url", "title", "status", "value", "relevance", "relevance_score", "redundancy")
    rows = []
    for row in cursor:
        item = dict(zip(names, row[:8], strict=True))
        item["redundancy_score"], item["duplicate_of"] = row[8], row[9]
        item["domains"], item["components"] = json.loads(row[10]), json.loads(row[11])
        item["title"] = item["title"] or item["url"]
        rows.append(item)
    return rows


def status_counts(db: Database) -> dict[str, int]:
    """status (active | kept | discarded) -> how many documents are in it."""
    return dict(db.conn.execute("SELECT status, count(*) FROM documents GROUP BY status").fetchall())
