"""The crawl's durable state in SQLite: the frontier, and the transaction its documents, errors and runs share.

Crash safety comes from one rule: every change a finished fetch makes (its document or alias, the links it
found, its own status) is written in the same transaction, and a transaction is only ever committed whole.
The crawl keeps one transaction open and commits it every ``commit_every`` writes or ``commit_interval``
seconds (WAL with synchronous=NORMAL: a commit is an append to the WAL, no fsync), so a SIGKILL loses at most
the last tenth of a second of work, and that work is simply redone on resume:

- claimed entries are marked ``fetching``, and a claim is committed at once (a batch of claims, one commit), so
  an entry a killed crawl was fetching or reading is known as such; ``resume()`` turns every ``fetching`` back
  into ``queued`` and counts the interrupted try in ``attempts`` (the retry policy gives an entry up after
  ``max_attempts``: one document that kills the crawl cannot make every resumed crawl die on it). An entry
  that was finished but not yet committed when the crawl died counts an interrupted try too: the short
  ``commit_interval`` keeps that window to a tenth of a second (a busy crawl commits every ``commit_every``
  writes long before; an idle one commits rarely either way);
- a document is looked up by URL and by content hash (both UNIQUE) before it is written, so a page fetched
  again after a crash, or the same content under another URL, never makes a second row (the second URL goes
  to ``url_aliases`` and counts as a duplicate; see ``pipeline.store.documents``).

The frontier knows its size, per host and in all (``size``, ``host_size``: kept in memory, loaded with the
``seen`` set), for the crawl's bounds. A refused URL longer than the crawl keeps whole is stored by its hash
(``hashed_url``: ``sha256:…``), in the table and in ``seen`` alike.

Documents and runs are written by ``pipeline.store.documents`` and ``pipeline.store.runs``; the methods
here call them inside the frontier's open transaction and count their writes toward the next commit. This
is the hot path of the crawl, so it stays plain SQL on the connection: sqlite-utils' helpers would each
run a statement (or a savepoint) of their own per row.

All access happens on the crawl's event-loop thread; nothing here is async.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Unpack

from . import curation, documents, runs

if TYPE_CHECKING:
    from sqlite_utils import Database

    from ..extract import Document


def hashed_url(url: str) -> str:
    """How a refused URL too long to keep is stored: ``sha256:`` and the hex digest of its UTF-8 bytes."""
    return "sha256:" + hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()


INTERRUPTED = "interrupted: a crawl stopped while fetching or reading it"


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
        WHERE status = 'queued' AND next_try <= ? AND kind != 'file' {exclude}
        ORDER BY depth, rowid LIMIT ?
    ) f
) WHERE host_rank <= ? ORDER BY depth, host_rank, rid LIMIT ?
"""


class Frontier:
    def __init__(self, db: Database, commit_every: int = 256, commit_interval: float = 0.1):
        self.db = db
        self.conn: sqlite3.Connection = db.conn
        self.commit_every = commit_every
        self.commit_interval = commit_interval
        self._writes = 0
        self._last_commit = time.monotonic()
        self.finished_fetches = 0  # entries this process finished after a request (the run's page budget)
        self.seen: set[str] = set()
        self.discarded: set[str] = set()
        self.rows_by_host: Counter[str] = Counter()
        self.reload_seen()

    # -- transactions ------------------------------------------------------------------------------------

    def _begin(self) -> None:
        if not self.conn.in_transaction:
            self.conn.execute("BEGIN")

    def _write(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Cursor:
        self._begin()
        self._writes += 1
        return self.conn.execute(sql, params)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """Runs another store module's writes inside the open transaction, counting the rows they change."""
        self._begin()
        before = self.conn.total_changes
        yield
        self._writes += self.conn.total_changes - before

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
        return runs.unfinished_run(self.db)

    def last_run_settings(self) -> dict[str, Any] | None:
        return runs.last_run_settings(self.db)

    def start_run(self, seeds: list[str], settings: dict[str, Any]) -> int:
        with self._writing():
            run_id = runs.start_run(self.db, seeds, settings)
        self.commit()
        return run_id

    def update_run_settings(self, run_id: int, settings: dict[str, Any]) -> None:
        with self._writing():
            runs.update_run_settings(self.db, run_id, settings)

    def set_run_seeds(self, run_id: int, seeds: list[str]) -> None:
        """A resumed run records the seeds it now crawls (inside the open transaction)."""
        with self._writing():
            runs.set_run_seeds(self.db, run_id, seeds)

    def finish_run(self, run_id: int, stats: dict[str, Any]) -> None:
        with self._writing():
            runs.finish_run(self.db, run_id, stats)
        self.commit()

    def resume(self) -> int:
        """Entries a killed crawl left 'fetching' go back to 'queued', the interrupted try counted in ``attempts``;
        returns how many."""
        count = self._write(
            "UPDATE frontier SET status = 'queued', attempts = attempts + 1, last_error = ? WHERE status = 'fetching'",
            (INTERRUPTED,),
        ).rowcount
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
        self.reload_seen()
        return moved

    def reload_seen(self) -> None:
        """Re-reads the URLs already in the frontier (and its size per host), and those curation discarded."""
        self.seen = set()
        self.rows_by_host = Counter()
        for url, host in self.conn.execute("SELECT url, host FROM frontier"):
            self.seen.add(url)
            self.rows_by_host[host] += 1
        self.discarded = curation.discarded_urls(self.db)

    @property
    def size(self) -> int:
        """Rows in the frontier, every status."""
        return len(self.seen)

    def host_size(self, host: str) -> int:
        return self.rows_by_host[host]

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
        """Adds ``url`` (or a refused URL's ``hashed_url``) unless already known; True when it was new."""
        if url in self.seen:
            return False
        self.seen.add(url)
        self.rows_by_host[host] += 1
        self._write(
            "INSERT OR IGNORE INTO frontier (url, host, depth, parent, status, skip_reason, last_error, kind,"
            " discovered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (url, host, depth, parent, status, skip_reason, last_error, kind, time.time()),
        )
        return True

    def claim(self, limit: int, per_host: int, exclude_hosts: Collection[str] = ()) -> list[Entry]:
        """Marks up to ``limit`` ready entries 'fetching' (at most ``per_host`` per host, shallow first), and commits
        (see the module docstring: a killed crawl's entries must be known as interrupted)."""
        exclude = ""
        params: list[Any] = [time.time()]
        if exclude_hosts:
            exclude = f"AND host NOT IN ({','.join('?' * len(exclude_hosts))})"
            params += list(exclude_hosts)
        scan = max(1024, 16 * limit)
        rows = self.conn.execute(_CLAIM.format(exclude=exclude), (*params, scan, per_host, limit)).fetchall()
        entries = [Entry(*row) for row in rows]
        if entries:
            self._begin()
            self.conn.executemany("UPDATE frontier SET status = 'fetching' WHERE url = ?", [(e.url,) for e in entries])
            self.commit()
        return entries

    def mark_fetching(self, url: str, fresh: bool) -> None:
        """A local file about to be read (``fresh``: read anew, its count of tries starts again)."""
        self._write(
            "UPDATE frontier SET status = 'fetching', attempts = CASE WHEN ? THEN 0 ELSE attempts END WHERE url = ?",
            (fresh, url),
        )

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

    def file_state(self, url: str) -> tuple[str, str | None, int] | None:
        """(status, last_modified, attempts) of ``url``'s frontier row; None when the frontier does not hold it."""
        row = self.conn.execute("SELECT status, last_modified, attempts FROM frontier WHERE url = ?", (url,)).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def pages_done(self, run_id: int) -> int:
        return self.conn.execute("SELECT count(*) FROM frontier WHERE fetched_run = ?", (run_id,)).fetchone()[0]

    def queued(self) -> int:
        """Entries still to fetch (local files are read from their seeds, not from the queue)."""
        return self.conn.execute(
            "SELECT count(*) FROM frontier WHERE status IN ('queued', 'fetching') AND kind != 'file'"
        ).fetchone()[0]

    def next_wakeup(self) -> float | None:
        """Epoch time of the earliest queued entry (None: nothing queued)."""
        row = self.conn.execute(
            "SELECT min(next_try) FROM frontier WHERE status = 'queued' AND kind != 'file'"
        ).fetchone()
        return row[0]

    # -- documents -------------------------------------------------------------------------------------------

    def store_document(self, url: str, doc: Document, **fetched: Unpack[documents.Fetched]) -> str:
        """Writes ``doc`` fetched from ``url`` in the open transaction (``documents.store_document``)."""
        with self._writing():
            return documents.store_document(self.db, url, doc, **fetched)

    def documents_total(self) -> int:
        return documents.documents_total(self.db)
