"""One crawl per database at a time: an OS lock on a file beside the database.

Two crawls on one database resumed each other's work: a seed one of them marked unsafe was lost, and most pages
were fetched twice, at twice the rate a host allows. ``crawl_lock(db)`` holds an exclusive ``fcntl.flock`` on
``<database>.lock`` for as long as the crawl runs, and writes its pid there. A second crawl on the same database
does not wait: it raises ``UsageError`` at once, naming the first one's pid (read from the file).

The lock belongs to the open file, so the kernel drops it when the process ends, however it ends: a crawl killed
with SIGKILL leaves a lock file with a stale pid in it, but no lock, and the next crawl takes it (and resumes
the killed crawl's run). The file itself is left in place: removing it would let a third process lock a new
file of the same name while a second still holds the old one. A database in memory has nothing beside it and no
lock. POSIX only (``fcntl``), like the rest of the crawler's process handling.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UsageError

if TYPE_CHECKING:
    from sqlite_utils import Database


def database_file(db: Database) -> Path | None:
    """The file of ``db``'s main database, None when it lives in memory."""
    for _, name, file in db.conn.execute("PRAGMA database_list"):
        if name == "main":
            return Path(file) if file else None
    return None


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


@contextlib.contextmanager
def crawl_lock(db: Database) -> Iterator[None]:
    """Holds the crawl lock of ``db`` until the block ends; raises UsageError when another process holds it."""
    database = database_file(db)
    if database is None:
        yield
        return
    path = lock_path(database)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            raise UsageError(
                f"{database} is being crawled by another process (pid {holder}): wait for it to finish, or stop it",
                field="db",
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)
