"""The schema: every table of the one database, grouped by the stage that owns it.

The column comments are the contract between stages: the crawl writes ``frontier``, ``documents``,
``url_aliases``, ``fetch_errors`` and ``crawl_runs``; scoring writes ``scores`` (reading ``labels``, which
``shijie mark`` writes); curation writes ``discarded``, the documents' status and the two FTS5 indexes;
learning writes ``knowledge_packs``. ``create`` is idempotent (CREATE ... IF NOT EXISTS): an older
database gains the tables it lacks and keeps its rows.
"""

from __future__ import annotations

import sqlite3

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


def create(conn: sqlite3.Connection) -> None:
    """Creates whatever tables and indexes ``conn``'s database lacks."""
    conn.executescript(SCHEMA)
