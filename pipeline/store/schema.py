"""The schema: every table of the one database, grouped by the stage that owns it.

The column comments are the contract between stages: the crawl writes ``frontier``, ``documents``,
``url_aliases``, ``fetch_errors`` and ``crawl_runs``; scoring writes ``scores`` (reading ``labels``, which
``shijie mark`` writes); curation writes ``discarded``, the documents' status and the two FTS5 indexes;
learning writes ``knowledge_packs``. ``create`` is idempotent (CREATE ... IF NOT EXISTS): an older
database gains the tables it lacks and keeps its rows.

Which databases are ours: ``create`` stamps the file with ``PRAGMA application_id`` (``APPLICATION_ID``,
"shij") and ``PRAGMA user_version`` (``LAYOUT``, the layout of this schema), the way SQLite means files to
say what they are. ``identify`` reads the stamp back before anything is written; a shijie database made
before the stamp existed has none and is recognised by its tables (``documents`` with our columns, and
``frontier``). Anything else with tables in it is another program's file, and shijie leaves it alone.
"""

from __future__ import annotations

import sqlite3
from enum import StrEnum

APPLICATION_ID = 0x7368696A  # "shij": what ``PRAGMA application_id`` holds in every shijie database
LAYOUT = 1  # ``PRAGMA user_version``: this schema's layout; 0 in databases made before the stamp

# the search index of every document with text; ``version`` (unindexed) says which text a row holds
DOCUMENTS_FTS = """CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(
    title, body, version UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2'
);"""

# Change a column only together with every stage that reads it.
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
    text          TEXT,                  -- clean main text (kept when curation discards the document;
                                         -- NULL only in databases whose curation purged it, before layout 1)
    headings      TEXT,                  -- JSON list of strings
    code_blocks   TEXT,                  -- JSON list of strings
    metadata      TEXT,                  -- JSON: authors, arxiv id and version, published, ...
    content_hash  TEXT NOT NULL UNIQUE,  -- sha256 of the clean text: one row per content
    byte_size     INTEGER,
    etag          TEXT,
    last_modified TEXT,
    depth         INTEGER,
    fetched_at    REAL NOT NULL,
    status        TEXT NOT NULL DEFAULT 'active',  -- active | kept | discarded
    archive       BLOB                   -- a discarded document's text, headings and code, zlib (store.archive)
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
-- URLs of the documents the last curation discarded (the documents keep their text): a crawl skips them,
-- a curation that keeps them again takes them out
CREATE TABLE IF NOT EXISTS discarded (
    url          TEXT PRIMARY KEY,
    reason       TEXT NOT NULL,
    value        INTEGER,
    at           REAL NOT NULL
);

-- full-text search over every document with text (rowid = documents.id) and over the paragraph-sized
-- passages of the kept ones. Chinese has no spaces, so CJK characters are written space-separated and
-- queries match them as phrases; camel-case words are written with their parts in front
-- (pipeline.store.fts: fts_text, parse_search).
{documents_fts}
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
""".replace("{documents_fts}", DOCUMENTS_FTS)


class Identity(StrEnum):
    """What a database file is to shijie (``identify``)."""

    new = "new"  # no tables yet: ours to create
    ours = "ours"  # stamped by shijie, this layout or an older one
    unstamped = "unstamped"  # a shijie database from before the stamp, recognised by its tables
    newer = "newer"  # stamped by a newer shijie, with a layout this one does not know
    foreign = "foreign"  # another program's database


# the tables and columns every shijie database has had since the first release
_OURS_SINCE_ALWAYS = {"documents": {"url", "content_hash", "fetched_at"}, "frontier": {"url", "host", "status"}}


def identify(conn: sqlite3.Connection) -> Identity:
    """Reads ``conn``'s stamp (and, without one, its tables); writes nothing."""
    application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    layout = conn.execute("PRAGMA user_version").fetchone()[0]
    if application_id == APPLICATION_ID:
        return Identity.newer if layout > LAYOUT else Identity.ours
    if application_id != 0:
        return Identity.foreign
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    if not tables:
        return Identity.new if layout == 0 else Identity.foreign
    for table, columns in _OURS_SINCE_ALWAYS.items():
        if table not in tables or not columns <= {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}:
            return Identity.foreign
    return Identity.unstamped


# columns added to tables an older database already has (CREATE TABLE IF NOT EXISTS leaves those as they are)
ADDED_COLUMNS = {"documents": {"archive": "BLOB"}}


def create(conn: sqlite3.Connection) -> None:
    """Creates whatever tables, columns and indexes ``conn``'s database lacks, and stamps it as shijie's."""
    conn.executescript(SCHEMA)
    for table, columns in ADDED_COLUMNS.items():
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        for name, declaration in columns.items():
            if name not in present:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {name} {declaration}")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {LAYOUT}")
    conn.commit()
