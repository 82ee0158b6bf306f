"""The one SQLite database: frontier, documents, scores, curation and knowledge packs.

Every stage reads and writes through this module. ``open_db`` creates the schema on first use, turns on
WAL (a crawl killed with SIGKILL loses nothing committed) and returns a ``sqlite_utils.Database``.

The database path comes from ``--db``, else ``$SHIJIE_DB``, else ``./shijie.db``: never the package.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import sqlite_utils

from .errors import UsageError

DEFAULT_DB = "shijie.db"

# Tables are grouped by the stage that owns them. Columns are the contract between stages.
SCHEMA = """
-- crawl ------------------------------------------------------------------------------------------
CREATE TABLE IF NOT EXISTS frontier (
    url          TEXT PRIMARY KEY,      -- canonical URL
    host         TEXT NOT NULL,
    depth        INTEGER NOT NULL DEFAULT 0,
    parent       TEXT,                  -- URL of the page that linked here (NULL for seeds)
    status       TEXT NOT NULL DEFAULT 'queued',  -- queued | fetching | done | error | skipped
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_try     REAL NOT NULL DEFAULT 0,         -- epoch seconds; backoff and Retry-After land here
    last_error   TEXT,
    skip_reason  TEXT,                  -- robots | offsite | unsafe | type | discarded | depth | trap | empty
    discovered_at REAL NOT NULL,
    kind         TEXT NOT NULL DEFAULT 'page',    -- page | arxiv-api | file
    fetched_run  INTEGER,               -- crawl_runs.id of the run that finished it (the run's page count)
    etag         TEXT,                  -- validators of its last 200, sent back as If-None-Match / -Modified-Since
    last_modified TEXT
);
CREATE INDEX IF NOT EXISTS frontier_ready ON frontier(status, next_try);
CREATE INDEX IF NOT EXISTS frontier_run ON frontier(fetched_run);
CREATE INDEX IF NOT EXISTS frontier_claim ON frontier(status, depth);  -- claim: shallow first

CREATE TABLE IF NOT EXISTS documents (
    id            INTEGER PRIMARY KEY,
    url           TEXT NOT NULL UNIQUE,  -- canonical URL it was first stored under
    final_url     TEXT,                  -- after redirects
    title         TEXT,
    kind          TEXT NOT NULL,         -- html | pdf | text | markdown | arxiv
    content_type  TEXT,
    text          TEXT,                  -- clean main text; NULL once curation purges it
    headings      TEXT,                  -- JSON list of strings
    code_blocks   TEXT,                  -- JSON list of strings
    metadata      TEXT,                  -- JSON: authors, arxiv id and version, published, ...
    content_hash  TEXT NOT NULL UNIQUE,  -- sha256 of the clean text: one row per content
    byte_size     INTEGER,
    etag          TEXT,
    last_modified TEXT,
    depth         INTEGER,
    fetched_at    REAL NOT NULL,
    status        TEXT NOT NULL DEFAULT 'active'  -- active | kept | discarded
);

-- other URLs whose content equals a stored document
CREATE TABLE IF NOT EXISTS url_aliases (
    url          TEXT PRIMARY KEY,
    document_id  INTEGER NOT NULL REFERENCES documents(id)
);

CREATE TABLE IF NOT EXISTS fetch_errors (
    id      INTEGER PRIMARY KEY,
    url     TEXT NOT NULL,
    at      REAL NOT NULL,
    status  INTEGER,                    -- HTTP status, NULL for transport errors
    error   TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS crawl_runs (
    id          INTEGER PRIMARY KEY,
    started_at  REAL NOT NULL,
    finished_at REAL,
    seeds       TEXT NOT NULL,          -- JSON list
    settings    TEXT NOT NULL,          -- JSON
    stats       TEXT                    -- JSON, the --json summary
);

-- score ------------------------------------------------------------------------------------------
CREATE TABLE IF NOT EXISTS scores (
    document_id      INTEGER PRIMARY KEY REFERENCES documents(id),
    value            INTEGER NOT NULL,
    relevance        TEXT NOT NULL,     -- high | medium | low
    relevance_score  REAL NOT NULL,
    redundancy       TEXT NOT NULL,     -- high | low
    redundancy_score REAL NOT NULL,
    duplicate_of     INTEGER REFERENCES documents(id),
    domains          TEXT NOT NULL,     -- JSON {domain: 0..1}
    components       TEXT NOT NULL,     -- JSON: the value's parts and the reasons behind them
    topic            TEXT NOT NULL,
    scored_at        REAL NOT NULL
);

CREATE TABLE IF NOT EXISTS labels (
    document_id  INTEGER PRIMARY KEY REFERENCES documents(id),
    label        TEXT NOT NULL CHECK (label IN ('good', 'bad')),
    at           REAL NOT NULL
);

-- curate -----------------------------------------------------------------------------------------
-- URLs whose documents curation dropped: the text is gone, the URL stays so a later crawl skips it
CREATE TABLE IF NOT EXISTS discarded (
    url          TEXT PRIMARY KEY,
    reason       TEXT NOT NULL,
    value        INTEGER,
    at           REAL NOT NULL
);

-- full-text search over the kept documents (rowid = documents.id) and over their paragraph-sized
-- passages. Chinese has no spaces, so curation writes CJK characters space-separated and queries match
-- them as phrases (pipeline.curate.fts_text / fts_query).
CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(
    title, body, tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
    body, document_id UNINDEXED, ordinal UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2'
);

-- skills -----------------------------------------------------------------------------------------
CREATE TABLE IF NOT EXISTS knowledge_packs (
    skill        TEXT PRIMARY KEY,
    level        INTEGER NOT NULL,
    built_at     REAL NOT NULL,
    mastery      TEXT NOT NULL,         -- JSON: the mastery it was built at
    pack         TEXT NOT NULL          -- JSON: topics, passages, adaptation path
);
"""


def resolve_path(db: str | os.PathLike | None) -> Path:
    return Path(db or os.environ.get("SHIJIE_DB") or DEFAULT_DB)


def open_db(db: str | os.PathLike | None = None) -> sqlite_utils.Database:
    """Open (creating if needed) the database at ``db`` / $SHIJIE_DB / ./shijie.db."""
    path = resolve_path(db)
    if path.exists() and path.is_dir():
        raise UsageError(f"{path} is a folder, not a database file", field="db")
    if not path.parent.exists():
        raise UsageError(f"{path}: folder {path.parent} does not exist", field="db")
    try:
        conn = sqlite3.connect(path, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.executescript(SCHEMA)
    except sqlite3.DatabaseError as exc:
        raise UsageError(f"{path} is not a shijie database ({exc})", field="db") from None
    return sqlite_utils.Database(conn)
