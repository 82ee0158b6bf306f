"""Curation: keep the best documents, discard the rest, index what is kept for full-text search.

``curate(db, min_value)`` walks the scored documents best first and keeps a document when its value is at
least ``min_value`` and it does not repeat a document already kept (one representative per group of
near-duplicates). A discarded document loses its text, headings and code; its URLs (and their aliases)
go into ``discarded`` so a later crawl skips them. The kept documents are indexed in FTS5 twice: whole
(``documents_fts``, for ``shijie search``) and cut into paragraph-sized passages (``passages_fts``, for the
skills' ``passages()``); both rank by BM25.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass

from . import coverage
from .errors import EmptyCorpusError, UsageError
from .score import redundancy_label
from .taxonomy import load_taxonomy
from .terms import CJK

DEFAULT_MIN_VALUE = 40
PASSAGE_MIN_CHARS = 300  # shorter paragraphs join the next one: a heading alone answers nothing
PASSAGE_MAX_CHARS = 1500  # longer ones are cut at a sentence end


@dataclass(frozen=True)
class CurationResult:
    kept: int
    discarded: int
    mastery: dict  # {"overall": 0..1, "domains": {...}}
    discarded_ids: tuple[int, ...] = ()

    def as_json(self) -> dict:
        return {"kept": self.kept, "discarded": self.discarded, "mastery": self.mastery}


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


def curate(db, min_value: int = DEFAULT_MIN_VALUE) -> CurationResult:
    if not 0 <= min_value <= 100:
        raise UsageError(f"must be between 0 and 100, not {min_value}", field="min_value")
    active = db.conn.execute(
        "SELECT count(*) FROM documents WHERE text IS NOT NULL AND status != 'discarded'"
    ).fetchone()[0]
    if active == 0:
        raise EmptyCorpusError("no documents to curate: crawl and score first (shijie crawl, shijie score)")
    unscored = db.conn.execute(
        "SELECT count(*) FROM documents d LEFT JOIN scores s ON s.document_id = d.id"
        " WHERE d.text IS NOT NULL AND d.status != 'discarded' AND (s.document_id IS NULL OR s.scored_at < d.fetched_at)"
    ).fetchone()[0]
    if unscored:
        raise UsageError(f"{unscored} document(s) crawled since the last scoring: run shijie score first")

    rows = db.conn.execute(
        "SELECT d.id, d.url, d.final_url, s.value, s.redundancy_score, s.duplicate_of FROM documents d"
        " JOIN scores s ON s.document_id = d.id WHERE d.text IS NOT NULL AND d.status != 'discarded'"
        " ORDER BY s.value DESC, s.relevance_score DESC, d.id"
    ).fetchall()
    kept: list[int] = []
    kept_set: set[int] = set()
    dropped: list[tuple[int, str, str | None, int, str]] = []
    represented_by: dict[int, int] = {}  # a dropped repeat → the kept document that stands for its group
    for doc_id, url, final_url, value, redundancy_score, duplicate_of in rows:
        original = represented_by.get(duplicate_of, duplicate_of)  # B repeats C which repeats kept A: A
        if value < min_value:
            dropped.append((doc_id, url, final_url, value, f"value {value} below {min_value}"))
        elif redundancy_label(redundancy_score) == "high" and original in kept_set:
            represented_by[doc_id] = original
            dropped.append((doc_id, url, final_url, value, f"repeats document {original}"))
        else:
            kept.append(doc_id)
            kept_set.add(doc_id)

    now = time.time()
    with db.conn:
        for doc_id, url, final_url, value, reason in dropped:
            aliases = [u for (u,) in db.conn.execute("SELECT url FROM url_aliases WHERE document_id = ?", (doc_id,))]
            for u in dict.fromkeys([url, final_url, *aliases]):
                if u:
                    db.conn.execute(
                        "INSERT OR REPLACE INTO discarded (url, reason, value, at) VALUES (?, ?, ?, ?)",
                        (u, reason, value, now),
                    )
            db.conn.execute(
                "UPDATE documents SET status = 'discarded', text = NULL, headings = NULL, code_blocks = NULL"
                " WHERE id = ?",
                (doc_id,),
            )
        db.conn.executemany("UPDATE documents SET status = 'kept' WHERE id = ?", [(i,) for i in kept])
        _index(db)
    from .query import mastery  # the one definition of mastery, shared with the skills

    result = mastery(db)
    return CurationResult(
        kept=len(kept),
        discarded=len(dropped),
        mastery={"overall": result.overall, "domains": result.domains},
        discarded_ids=tuple(d[0] for d in dropped),
    )


def _index(db) -> None:
    """Rebuilds both FTS indexes from the kept documents (inside the caller's transaction)."""
    db.conn.execute("DELETE FROM documents_fts")
    db.conn.execute("DELETE FROM passages_fts")
    cursor = db.conn.execute("SELECT id, title, text FROM documents WHERE status = 'kept' AND text IS NOT NULL")
    for doc_id, title, text in cursor.fetchall():
        db.conn.execute(
            "INSERT INTO documents_fts (rowid, title, body) VALUES (?, ?, ?)",
            (doc_id, fts_text(title or ""), fts_text(text)),
        )
        db.conn.executemany(
            "INSERT INTO passages_fts (body, document_id, ordinal) VALUES (?, ?, ?)",
            [(fts_text(p), doc_id, n) for n, p in enumerate(split_passages(text))],
        )


def kept_concepts(db):
    """(concept counts by domain, depth) of every kept document: what mastery is computed from."""
    for (components,) in db.conn.execute(
        "SELECT s.components FROM scores s JOIN documents d ON d.id = s.document_id WHERE d.status = 'kept'"
    ):
        parsed = json.loads(components)
        yield parsed.get("concepts", {}), parsed.get("depth", {}).get("score", 0.0)


def domain_mastery(db) -> dict[str, float]:
    return coverage.mastery(kept_concepts(db), load_taxonomy())
