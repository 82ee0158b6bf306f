"""The crawl's durable state in SQLite: the frontier, the documents it produced, aliases, errors and runs.

Crash safety comes from one rule: every change a finished fetch makes (its document or alias, the links it
found, its own status) is written in the same transaction, and a transaction is only ever committed whole.
The crawl keeps one transaction open and commits it every ``commit_every`` writes or ``commit_interval``
seconds (WAL with synchronous=NORMAL: a commit is an append to the WAL, no fsync), so a SIGKILL loses at most
the last fraction of a second of work, and that work is simply redone on resume:

- claimed entries are marked ``fetching``; ``resume()`` turns every ``fetching`` back into ``queued``;
- a document is looked up by URL and by content hash (both UNIQUE) before it is written, so a page fetched
  again after a crash, or the same content under another URL, never makes a second row (the second URL goes
  to ``url_aliases`` and counts as a duplicate).

All access happens on the crawl's event-loop thread; nothing here is async.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from .extract import Document


@dataclass
class Entry:
    url: str
    host: str
    depth: int
    kind: str
    attempts: int
    etag: str | None
    last_modified: str | None
    parent: str | None


# Shallow first, at most ``per_host`` per host. The inner scan walks the (status, depth) index and stops after
# a bounded number of rows, so a claim costs the same with 200 or 200,000 URLs queued; hosts whose in-memory
# queue is already full are excluded, so the next claim reaches past a host that dominates the front.
_CLAIM = """
SELECT url, host, depth, kind, attempts, etag, last_modified, parent FROM (
    SELECT f.*, ROW_NUMBER() OVER (PARTITION BY host ORDER BY depth, rid) AS host_rank FROM (
        SELECT rowid AS rid, * FROM frontier INDEXED BY frontier_claim
        WHERE status = 'queued' AND next_try <= ? {exclude}
        ORDER BY depth, rowid LIMIT ?
    ) f
) WHERE host_rank <= ? ORDER BY depth, host_rank, rid LIMIT ?
"""


class Frontier:
    def __init__(self, db: sqlite_utils.Database, commit_every: int = 256, commit_interval: float = 0.5):
        self.db = db
        self.conn: sqlite3.Connection = db.conn
        self.commit_every = commit_every
        self.commit_interval = commit_interval
        self._writes = 0
        self._last_commit = time.monotonic()
        self.finished_fetches = 0  # entries this process finished after a request (the run's page budget)
        self.seen: set[str] = {row[0] for row in self.conn.execute("SELECT url FROM frontier")}
        self.discarded: set[str] = {row[0] for row in self.conn.execute("SELECT url FROM discarded")}

    # -- transactions ------------------------------------------------------------------------------------

    def _write(self, sql: str, params: tuple | dict = ()) -> sqlite3.Cursor:
        if not self.conn.in_transaction:
            self.conn.execute("BEGIN")
        self._writes += 1
        return self.conn.execute(sql, params)

    def maybe_commit(self) -> None:
        if self._writes >= self.commit_every or (
            self._writes and time.monotonic() - self._last_commit >= self.commit_interval
        ):
            self.commit()

    def commit(self) -> None:
        if self.conn.in_transaction:
            self.conn.commit()
        self._writes = 0
        self._last_commit = time.monotonic()

    # -- runs ----------------------------------------------------------------------------------------------

    def unfinished_run(self) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT id, seeds, settings FROM crawl_runs WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return None if row is None else {"id": row[0], "seeds": json.loads(row[1]), "settings": json.loads(row[2])}

    def last_run_settings(self) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT settings FROM crawl_runs ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else json.loads(row[0])

    def start_run(self, seeds: list[str], settings: dict[str, Any]) -> int:
        cursor = self._write(
            "INSERT INTO crawl_runs (started_at, seeds, settings) VALUES (?, ?, ?)",
            (time.time(), json.dumps(seeds), json.dumps(settings, default=str)),
        )
        self.commit()
        return int(cursor.lastrowid)

    def update_run_settings(self, run_id: int, settings: dict[str, Any]) -> None:
        self._write("UPDATE crawl_runs SET settings = ? WHERE id = ?", (json.dumps(settings, default=str), run_id))

    def finish_run(self, run_id: int, stats: dict[str, Any]) -> None:
        self._write(
            "UPDATE crawl_runs SET finished_at = ?, stats = ? WHERE id = ?",
            (time.time(), json.dumps(stats, default=str), run_id),
        )
        self.commit()

    def resume(self) -> int:
        """Entries a killed crawl left 'fetching' go back to 'queued'; returns how many."""
        count = self._write("UPDATE frontier SET status = 'queued' WHERE status = 'fetching'").rowcount
        self.commit()
        return count

    def requeue_finished(self) -> int:
        """For a re-crawl: pages done or failed before are fetched again (conditionally, where possible)."""
        count = self._write(
            "UPDATE frontier SET status = 'queued', attempts = 0, next_try = 0, fetched_run = NULL"
            " WHERE status IN ('done', 'error')"
        ).rowcount
        self.commit()
        return count

    def rebase_origin(self, old: str, new: str) -> int:
        """The embedded corpus is served on a new port: rewrite every URL under ``old`` to ``new``."""
        if old == new:
            return 0
        new_host = new.split("://", 1)[1]
        like = old.replace("%", r"\%").replace("_", r"\_") + "/%"
        moved = 0
        for table, column in (
            ("frontier", "url"),
            ("documents", "url"),
            ("documents", "final_url"),
            ("url_aliases", "url"),
            ("fetch_errors", "url"),
            ("discarded", "url"),
            ("frontier", "parent"),
        ):
            sql = f"UPDATE {table} SET {column} = ? || substr({column}, ?) WHERE {column} LIKE ? ESCAPE '\\'"
            moved += self._write(sql, (new, len(old) + 1, like)).rowcount
        self._write(
            "UPDATE frontier SET host = ? WHERE url LIKE ? ESCAPE '\\'",
            (new_host, new.replace("%", r"\%").replace("_", r"\_") + "/%"),
        )
        self.commit()
        self.seen = {row[0] for row in self.conn.execute("SELECT url FROM frontier")}
        self.discarded = {row[0] for row in self.conn.execute("SELECT url FROM discarded")}
        return moved

    # -- the frontier ----------------------------------------------------------------------------------------

    def add(
        self,
        url: str,
        host: str,
        depth: int,
        parent: str | None,
        kind: str = "page",
        status: str = "queued",
        skip_reason: str | None = None,
        last_error: str | None = None,
    ) -> bool:
        """Adds ``url`` unless already known; True when it was new."""
        if url in self.seen:
            return False
        self.seen.add(url)
        self._write(
            "INSERT OR IGNORE INTO frontier (url, host, depth, parent, status, skip_reason, last_error, kind,"
            " discovered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (url, host, depth, parent, status, skip_reason, last_error, kind, time.time()),
        )
        return True

    def claim(self, limit: int, per_host: int, exclude_hosts: list[str] = ()) -> list[Entry]:
        """Marks up to ``limit`` ready entries 'fetching' (at most ``per_host`` per host, shallow first)."""
        exclude = ""
        params: list[Any] = [time.time()]
        if exclude_hosts:
            exclude = f"AND host NOT IN ({','.join('?' * len(exclude_hosts))})"
            params += list(exclude_hosts)
        scan = max(1024, 16 * limit)
        rows = self.conn.execute(_CLAIM.format(exclude=exclude), (*params, scan, per_host, limit)).fetchall()
        entries = [Entry(*row) for row in rows]
        if entries:
            if not self.conn.in_transaction:
                self.conn.execute("BEGIN")
            self.conn.executemany("UPDATE frontier SET status = 'fetching' WHERE url = ?", [(e.url,) for e in entries])
            self._writes += len(entries)
        return entries

    def unclaim(self, entries: list[Entry], next_try: float) -> None:
        for entry in entries:
            self._write("UPDATE frontier SET status = 'queued', next_try = ? WHERE url = ?", (next_try, entry.url))

    def finish(
        self,
        entry: Entry,
        run_id: int,
        status: str = "done",
        skip_reason: str | None = None,
        error: str | None = None,
        etag: str | None = None,
        last_modified: str | None = None,
        fetched: bool = True,
    ) -> None:
        self._write(
            "UPDATE frontier SET status = ?, skip_reason = ?, last_error = ?, attempts = attempts + ?,"
            " fetched_run = ?, etag = COALESCE(?, etag), last_modified = COALESCE(?, last_modified)"
            " WHERE url = ?",
            (status, skip_reason, error, int(fetched), run_id if fetched else None, etag, last_modified, entry.url),
        )
        self.finished_fetches += int(fetched)

    def retry(self, entry: Entry, next_try: float, error: str) -> None:
        self._write(
            "UPDATE frontier SET status = 'queued', attempts = attempts + 1, next_try = ?, last_error = ?"
            " WHERE url = ?",
            (next_try, error, entry.url),
        )

    def record_error(self, url: str, status: int | None, error: str) -> None:
        self._write(
            "INSERT INTO fetch_errors (url, at, status, error) VALUES (?, ?, ?, ?)", (url, time.time(), status, error)
        )

    def pages_done(self, run_id: int) -> int:
        return self.conn.execute("SELECT count(*) FROM frontier WHERE fetched_run = ?", (run_id,)).fetchone()[0]

    def queued(self) -> int:
        return self.conn.execute("SELECT count(*) FROM frontier WHERE status IN ('queued', 'fetching')").fetchone()[0]

    def next_wakeup(self) -> float | None:
        """Epoch time of the earliest queued entry (None: nothing queued)."""
        row = self.conn.execute("SELECT min(next_try) FROM frontier WHERE status = 'queued'").fetchone()
        return row[0]

    # -- documents -------------------------------------------------------------------------------------------

    def store_document(
        self,
        url: str,
        doc: Document,
        *,
        final_url: str | None,
        content_type: str | None,
        byte_size: int,
        etag: str | None,
        last_modified: str | None,
        depth: int,
    ) -> str:
        """Writes ``doc`` fetched from ``url``; returns stored | duplicate | updated | replaced | unchanged."""
        identity = doc.url or url
        content_hash = hashlib.sha256(doc.text.encode("utf-8")).hexdigest()
        fields = {
            "final_url": final_url,
            "title": doc.title,
            "kind": doc.kind,
            "content_type": content_type,
            "text": doc.text,
            "headings": json.dumps(doc.headings, ensure_ascii=False),
            "code_blocks": json.dumps(doc.code_blocks, ensure_ascii=False),
            "metadata": json.dumps(doc.metadata, ensure_ascii=False),
            "content_hash": content_hash,
            "byte_size": byte_size,
            "etag": etag,
            "last_modified": last_modified,
            "depth": depth,
            "fetched_at": time.time(),
        }
        row = self.conn.execute(
            "SELECT id, content_hash, metadata FROM documents WHERE url = ?", (identity,)
        ).fetchone()
        holder = self.conn.execute("SELECT id FROM documents WHERE content_hash = ?", (content_hash,)).fetchone()
        if row is not None:
            doc_id, old_hash, old_meta = row
            if doc.kind == "arxiv":
                old_version = json.loads(old_meta or "{}").get("version", 0)
                if doc.metadata.get("version", 0) <= old_version:
                    return "unchanged"
            elif old_hash == content_hash:
                self._write(
                    "UPDATE documents SET etag = ?, last_modified = ?, fetched_at = ? WHERE id = ?",
                    (etag, last_modified, fields["fetched_at"], doc_id),
                )
                return "unchanged"
            if holder is not None and holder[0] != doc_id:
                return "unchanged"  # its new content is another document's: keep the old text, no second row
            assignments = ", ".join(f"{name} = :{name}" for name in fields)
            self._write(f"UPDATE documents SET {assignments} WHERE id = :id", {**fields, "id": doc_id})
            return "replaced" if doc.kind == "arxiv" else "updated"
        if holder is not None:
            known = self.conn.execute("SELECT document_id FROM url_aliases WHERE url = ?", (identity,)).fetchone()
            if known is not None:
                return "unchanged"
            self._write("INSERT OR IGNORE INTO url_aliases (url, document_id) VALUES (?, ?)", (identity, holder[0]))
            return "duplicate"
        columns = ["url", *fields]
        self._write(
            f"INSERT INTO documents ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
            (identity, *fields.values()),
        )
        return "stored"

    # -- what the crawl asks besides entries -----------------------------------------------------------------

    def set_run_seeds(self, run_id: int, seeds: list[str]) -> None:
        """A resumed run's seeds: the unfinished run's and the new ones."""
        self._write("UPDATE crawl_runs SET seeds = ? WHERE id = ?", (json.dumps(seeds), run_id))

    def file_state(self, url: str) -> tuple[str, str | None] | None:
        """(status, last_modified) of the entry for ``url``, None when there is none."""
        row = self.conn.execute("SELECT status, last_modified FROM frontier WHERE url = ?", (url,)).fetchone()
        return None if row is None else (row[0], row[1])

    def reload_seen(self) -> None:
        """Reads ``seen`` and ``discarded`` again from the tables (after a change made in bulk)."""
        self.seen = {row[0] for row in self.conn.execute("SELECT url FROM frontier")}
        self.discarded = {row[0] for row in self.conn.execute("SELECT url FROM discarded")}

    def documents_total(self) -> int:
        return self.conn.execute("SELECT count(*) FROM documents").fetchone()[0]
