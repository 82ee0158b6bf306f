"""Full-text search over the kept documents: how text is indexed, the index rebuild, BM25 queries.

Two FTS5 tables (see ``schema``): ``documents_fts`` holds each kept document whole (rowid = documents.id,
title and body), ``passages_fts`` its paragraph-sized passages (``split_passages``). SQLite's unicode61
tokenizer splits on spaces and punctuation, and Chinese has neither between words, so text is indexed with
every CJK character standing alone (``fts_text``) and a query matches a run of CJK characters as a phrase
of single characters (``fts_query``); ``display_text`` undoes the spacing in what is shown. Ranking is
BM25, with a document's title weighing 5 times its body.

These are our own FTS5 tables rather than sqlite-utils' ``enable_fts``/``search``: those index a table's
stored columns through triggers, while we index a transformed text (CJK spaced) and passages that have no
table of their own, and rank with column weights and snippets that ``search`` does not expose.
"""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING

from ..terms import CJK

if TYPE_CHECKING:
    from sqlite_utils import Database
PASSAGE_MIN_CHARS = 300  # shorter paragraphs join the next one: a heading alone answers nothing
PASSAGE_MAX_CHARS = 1500  # longer ones are cut at a sentence end
TITLE_WEIGHT = 5.0  # bm25 column weight of documents_fts.title (body: 1.0)


def fts_text(text: str) -> str:
    """Text as it is indexed: CJK characters stand alone so each is a token."""
    return CJK.sub(lambda m: f" {m.group(0)} ", text)


def display_text(indexed: str) -> str:
    """Undo ``fts_text`` in a snippet (where [match] markers may sit next to the characters)."""
    cjk = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    text = re.sub(rf"(?<=[{cjk}]) +(?=[{cjk}\[\]])|(?<=[{cjk}\[\]]) +(?=[{cjk}])", "", indexed)
    text = re.sub(rf"(?<=[^\s{cjk}]) {{2}}(?=[{cjk}])|(?<=[{cjk}]) {{2}}(?=[^\s{cjk}])", " ", text)
    return text.strip()


def fts_query(query: str, operator: str = "AND") -> str:
    """A safe FTS5 query: each word quoted, each run of CJK characters a phrase of single characters."""
    parts = []
    for run in re.findall(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[^\W_]+(?:_[^\W_]+)*", query):
        parts.append('"' + (" ".join(run) if CJK.match(run) else run) + '"')
    return f" {operator} ".join(parts)


def split_passages(text: str) -> list[str]:
    passages: list[str] = []
    buffer = ""
    for paragraph in re.split(r"\n\s*\n", text or ""):
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        buffer = f"{buffer}\n\n{paragraph}" if buffer else paragraph
        if len(buffer) >= PASSAGE_MIN_CHARS:
            passages.extend(_cut(buffer))
            buffer = ""
    if buffer:
        if passages and len(passages[-1]) + len(buffer) <= PASSAGE_MAX_CHARS:
            passages[-1] = f"{passages[-1]}\n\n{buffer}"
        else:
            passages.append(buffer)
    return passages


def _cut(text: str) -> list[str]:
    pieces = []
    while len(text) > PASSAGE_MAX_CHARS:
        window = text[:PASSAGE_MAX_CHARS]
        end = max(window.rfind(". "), window.rfind("。"), window.rfind("\n"))
        end = end + 1 if end > PASSAGE_MIN_CHARS else PASSAGE_MAX_CHARS
        pieces.append(text[:end].strip())
        text = text[end:].strip()
    if text:
        pieces.append(text)
    return pieces


def rebuild_index(db: Database) -> None:
    """Rebuilds both FTS indexes from the kept documents (inside the caller's transaction).

    FTS5 deletes by writing delete markers that later merges drop; after emptying the tables, 'optimize'
    merges them away at once, or every curation would leave the previous index behind as dead weight
    (measured: 4.2 MB of it on 865 documents after one restore and one discard)."""
    conn = db.conn
    conn.execute("DELETE FROM documents_fts")
    conn.execute("DELETE FROM passages_fts")
    conn.execute("INSERT INTO documents_fts (documents_fts) VALUES ('optimize')")
    conn.execute("INSERT INTO passages_fts (passages_fts) VALUES ('optimize')")
    cursor = conn.execute("SELECT id, title, text FROM documents WHERE status = 'kept' AND text IS NOT NULL")
    for doc_id, title, text in cursor.fetchall():
        conn.execute(
            "INSERT INTO documents_fts (rowid, title, body) VALUES (?, ?, ?)",
            (doc_id, fts_text(title or ""), fts_text(text)),
        )
        conn.executemany(
            "INSERT INTO passages_fts (body, document_id, ordinal) VALUES (?, ?, ?)",
            [(fts_text(p), doc_id, n) for n, p in enumerate(split_passages(text))],
        )


def match_documents(db: Database, query: str, limit: int) -> list[tuple]:
    """(id, url, title, snippet with [matches], bm25 rank, domains JSON) of kept documents matching all
    words of ``query`` (any word when none match all), best first; the snippet is still ``fts_text``."""
    sql = (
        f"SELECT f.rowid, d.url, d.title, snippet(documents_fts, 1, '[', ']', '…', 24),"
        f" bm25(documents_fts, {TITLE_WEIGHT}, 1.0), s.domains"
        " FROM documents_fts f JOIN documents d ON d.id = f.rowid JOIN scores s ON s.document_id = d.id"
        f" WHERE documents_fts MATCH ? ORDER BY bm25(documents_fts, {TITLE_WEIGHT}, 1.0) LIMIT ?"
    )
    return _match(db, sql, query, limit)


def match_passages(
    db: Database,
    query: str,
    limit: int,
    *,
    domain: str | None = None,
    min_coverage: float = 0.0,
    operator: str | None = None,
) -> list[tuple]:
    """(document id, url, title, passage body, bm25 rank, domains JSON, value) of passages matching
    ``query``, best first; with ``domain``, only from documents covering at least ``min_coverage`` of it.
    ``operator`` None: all words, falling back to any word; "OR": any word."""
    sql = (
        "SELECT p.document_id, d.url, d.title, p.body, bm25(passages_fts), s.domains, s.value"
        " FROM passages_fts p JOIN documents d ON d.id = p.document_id JOIN scores s ON s.document_id = d.id"
        " WHERE passages_fts MATCH ?"
        + (" AND coalesce(json_extract(s.domains, ?), 0) >= ?" if domain else "")
        + " ORDER BY bm25(passages_fts) LIMIT ?"
    )
    extra = (f'$."{domain}"', min_coverage) if domain else ()
    return _match(db, sql, query, limit, extra, operator)


def _match(
    db: Database, sql: str, query: str, limit: int, extra: tuple = (), operator: str | None = None
) -> list[tuple]:
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
