"""Crawl runs: one row of ``crawl_runs`` per ``shijie crawl`` invocation that started fresh.

A run records its seeds and settings when it starts and its ``--json`` stats when it finishes; a run with no
``finished_at`` is one a killed crawl left behind, and the next crawl resumes it. The writers here run
inside the caller's transaction and never commit: the frontier calls them through its own methods, which
group them with the rest of the crawl's writes.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlite_utils import Database


def unfinished_run(db: Database) -> dict[str, Any] | None:
    """The latest run that never finished: {"id", "seeds", "settings"}; None when every run finished."""
    row = db.conn.execute(
        "SELECT id, seeds, settings FROM crawl_runs WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return None if row is None else {"id": row[0], "seeds": json.loads(row[1]), "settings": json.loads(row[2])}


def last_run_settings(db: Database) -> dict[str, Any] | None:
    row = db.conn.execute("SELECT settings FROM crawl_runs ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else json.loads(row[0])


def start_run(db: Database, seeds: list[str], settings: dict[str, Any]) -> int:
    cursor = db.conn.execute(
        "INSERT INTO crawl_runs (started_at, seeds, settings) VALUES (?, ?, ?)",
        (time.time(), json.dumps(seeds), json.dumps(settings, default=str)),
    )
    assert cursor.lastrowid is not None  # an INSERT into a rowid table always sets it
    return cursor.lastrowid


def update_run_settings(db: Database, run_id: int, settings: dict[str, Any]) -> None:
    db.conn.execute("UPDATE crawl_runs SET settings = ? WHERE id = ?", (json.dumps(settings, default=str), run_id))


def set_run_seeds(db: Database, run_id: int, seeds: list[str]) -> None:
    db.conn.execute("UPDATE crawl_runs SET seeds = ? WHERE id = ?", (json.dumps(seeds), run_id))


def finish_run(db: Database, run_id: int, stats: dict[str, Any]) -> None:
    db.conn.execute(
        "UPDATE crawl_runs SET finished_at = ?, stats = ? WHERE id = ?",
        (time.time(), json.dumps(stats, default=str), run_id),
    )


def served_origins(db: Database) -> list[str]:
    """Every origin the embedded corpus was served on in this database, the latest first."""
    found: list[str] = []
    for (settings,) in db.conn.execute("SELECT settings FROM crawl_runs ORDER BY id DESC"):
        try:
            origin = json.loads(settings or "{}").get("served_origin")
        except (ValueError, AttributeError):
            continue
        if isinstance(origin, str) and origin and origin not in found:
            found.append(origin)
    return found


def last_crawl_stats(db: Database) -> dict[str, Any] | None:
    """The ``--json`` stats of the latest crawl run that finished; None before any did."""
    row = db.conn.execute(
        "SELECT stats FROM crawl_runs WHERE finished_at IS NOT NULL AND stats IS NOT NULL ORDER BY id DESC LIMIT 1"
    ).fetchone()
    return None if row is None else json.loads(row[0])
