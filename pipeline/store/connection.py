"""Opening the database: where it lives, how the connection is set up, the schema made sure of.

The path comes from ``--db``, else ``$SHIJIE_DB``, else ``./shijie.db``: never the package. ``open_db``
turns on WAL with synchronous=NORMAL (a crawl killed with SIGKILL loses nothing committed; a commit is an
append to the WAL, no fsync) and foreign keys, creates the schema on first use, and returns the typed
handle every stage takes, a ``sqlite_utils.Database``.

Opening is three steps, each its own function: where (``_check_location``: a file in an existing folder),
how (``_connect``: the connection and its pragmas), what (``schema.create``: the tables). A read-only way
to open a database differs in exactly these steps.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError
from . import schema

if TYPE_CHECKING:
    from sqlite_utils import Database

DEFAULT_DB = "shijie.db"


def resolve_path(db: str | os.PathLike[str] | None) -> Path:
    return Path(db or os.environ.get("SHIJIE_DB") or DEFAULT_DB)


def open_db(db: str | os.PathLike[str] | None = None) -> Database:
    """Open (creating if needed) the database at ``db`` / $SHIJIE_DB / ./shijie.db."""
    from sqlite_utils import Database  # here, not above: it imports numpy, which a query never needs

    path = resolve_path(db)
    _check_location(path)
    try:
        conn = _connect(path)
        schema.create(conn)
    except sqlite3.DatabaseError as exc:
        raise UsageError(f"{path} is not a shijie database ({exc})", field="db") from None
    return Database(conn)


def _check_location(path: Path) -> None:
    if path.exists() and path.is_dir():
        raise UsageError(f"{path} is a folder, not a database file", field="db")
    if not path.parent.exists():
        raise UsageError(f"{path}: folder {path.parent} does not exist", field="db")


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn
