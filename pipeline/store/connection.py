"""Opening the database: where it lives, how the connection is set up, the schema made sure of.

The path comes from ``--db``, else ``$SHIJIE_DB``, else ``./shijie.db``: never the package. ``open_db``
turns on WAL with synchronous=NORMAL (a crawl killed with SIGKILL loses nothing committed; a commit is an
append to the WAL, no fsync) and foreign keys, creates the schema on first use, and returns the typed
handle every stage takes, a ``sqlite_utils.Database``.

Opening is three steps, each its own function: where (``_check_location``), how (``_connect``), what
(``_claim``: is the file ours, and its schema). The two ways to open differ in exactly these steps:

    step        open_db(db)                           open_db(db, read_only=True)
    where       a file in an existing folder;         the file must exist: nothing is ever created
                created when missing
    how         WAL, synchronous=NORMAL, foreign      query_only: no statement can write; in a read-only
                keys                                  location, opened as immutable when no WAL is pending
    what        ours (stamped or old), or new:        ours: read as it is (an old layout is not upgraded)
                tables made sure of, stamp written

Another program's SQLite file (``schema.identify``) is refused by both before anything is written: not a
table, not a pragma, not the WAL switch, so its bytes stay as they were. Write commands use the first way,
read commands (``mastery``, ``show``, ``search``, ``skills list``...) the second, so a mistyped ``--db``
creates nothing and a database on a read-only disk can still be read.

``storage_error`` turns what SQLite raises while a command runs (a full disk, a damaged file, a read-only
location, a busy database) into one ``StorageError`` line that says what happened to the user's data.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import StorageError, UsageError
from . import schema

if TYPE_CHECKING:
    from sqlite_utils import Database

DEFAULT_DB = "shijie.db"


def resolve_path(db: str | os.PathLike[str] | None) -> Path:
    return Path(db or os.environ.get("SHIJIE_DB") or DEFAULT_DB)


def open_db(db: str | os.PathLike[str] | None = None, *, read_only: bool = False) -> Database:
    """Open the database at ``db`` / $SHIJIE_DB / ./shijie.db: creating it if needed, or, ``read_only``,
    only if it exists, never writing to it."""
    from sqlite_utils import Database  # here, not above: it imports numpy, which a query never needs

    path = resolve_path(db)
    _check_location(path, read_only)
    conn = _connect(path, read_only)
    try:
        _claim(conn, path, read_only)
    except BaseException:
        conn.close()
        raise
    return Database(conn)


def open_existing(db: str | os.PathLike[str] | None = None) -> Database:
    """An existing database, never created: writable where its file and folder allow (so a reader can keep a
    derived index such as search's in step), else read-only."""
    path = resolve_path(db)
    _check_location(path, read_only=True)
    return open_db(db, read_only=_read_only_location(path))


def _check_location(path: Path, read_only: bool) -> None:
    if path.is_dir():
        raise UsageError(f"{path} is a folder, not a database file", field="db")
    if not path.parent.exists():
        raise UsageError(f"{path}: folder {path.parent} does not exist", field="db")
    if read_only and not path.exists():
        raise UsageError(
            f"{path}: no such database (check the path; shijie crawl creates one, shijie run fills one)", field="db"
        )


def _connect(path: Path, read_only: bool) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(path, timeout=30)
        if not read_only:
            # before any write: another program's file must not even be switched to WAL
            _refuse_foreign(conn, path)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            return conn
        conn.execute("PRAGMA query_only=ON")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError as exc:
            # A WAL database in a folder we cannot write: SQLite cannot make its -shm file. With no WAL
            # pending, the file alone is the whole database and can be read as immutable.
            if _errorname(exc) != "SQLITE_CANTOPEN" or Path(f"{path}-wal").exists():
                raise
            conn.close()
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True, timeout=30)
            conn.execute("PRAGMA query_only=ON")
        return conn
    except sqlite3.Error as exc:
        raise storage_error(exc, path) from None
    except UnicodeDecodeError:  # SQLite's message quoted bytes of a damaged schema page, which are not text
        raise storage_error(sqlite3.DatabaseError("database disk image is malformed"), path) from None


def _refuse_foreign(conn: sqlite3.Connection, path: Path) -> schema.Identity:
    identity = schema.identify(conn)
    if identity == schema.Identity.foreign:
        raise StorageError(
            f"{path} is another program's SQLite database, not shijie's: left untouched; give another --db",
            field="db",
        )
    if identity == schema.Identity.newer:
        raise StorageError(f"{path} was written by a newer shijie: upgrade shijie to use it", field="db")
    return identity


def _claim(conn: sqlite3.Connection, path: Path, read_only: bool) -> None:
    try:
        if read_only:
            if _refuse_foreign(conn, path) == schema.Identity.new:
                raise StorageError(f"{path} is an empty database: nothing to read yet (shijie crawl fills it)")
        else:
            schema.create(conn)
    except sqlite3.Error as exc:
        raise storage_error(exc, path) from None


def _read_only_location(path: Path) -> bool:
    """The file exists, and it or its folder cannot be written (access() answers EROFS even to root)."""
    return path.exists() and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))


def _errorname(exc: sqlite3.Error) -> str:
    return getattr(exc, "sqlite_errorname", "") or ""


def storage_error(exc: sqlite3.Error, path: str | os.PathLike[str] | None = None) -> StorageError:
    """The one line that says what a SQLite failure on the database at ``path`` means for the user's data.

    SQLite rolls back the statement (and for a full disk or an I/O error, the transaction) that failed, so
    whatever was committed before is still there; the line says so where it matters."""
    name = _errorname(exc)
    where = str(path) if path is not None else "the database"
    text = str(exc)
    if name == "SQLITE_CANTOPEN" and path is not None and _read_only_location(Path(path)):
        name = "SQLITE_READONLY"  # a WAL database whose -shm file cannot be made: the folder is read-only
    if name == "SQLITE_FULL" or "disk is full" in text:
        message = (
            f"{where}: the disk is full; what was stored before is kept: free some space and run the command again"
        )
    elif name.startswith("SQLITE_IOERR"):
        message = (
            f"{where}: the disk could not be written or read ({text}: full, or failing); what was committed"
            " before is kept: free some space or check the disk, then run the command again"
        )
    elif name.startswith("SQLITE_CORRUPT") or "malformed" in text:
        message = (
            f"{where} is damaged ({text}); shijie changed nothing: restore a backup, or recover what is left"
            f" with: sqlite3 {where} .recover | sqlite3 recovered.db"
        )
    elif name == "SQLITE_NOTADB" or "not a database" in text:
        message = f"{where} is not a SQLite database (or it is encrypted or damaged): left untouched; give another --db"
    elif name.startswith("SQLITE_READONLY") or "readonly database" in text:
        message = (
            f"{where} cannot be written here (a read-only file or folder): this command writes to the database;"
            " commands that only read it (mastery, show, search, skills list) still work"
        )
    elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        message = f"{where} is busy: another shijie is writing to it; run the command again when that one ends"
    elif name.startswith("SQLITE_CANTOPEN"):
        message = f"{where} cannot be opened ({text}): check that the file and its folder can be read"
    elif "no such table" in text or "no such column" in text:
        message = (
            f"{where} lacks part of shijie's schema ({text}): it was made by an older shijie; a command that"
            " writes (shijie score) brings it up to date"
        )
    else:
        message = f"{where}: {text}"
    return StorageError(message, field="db")
