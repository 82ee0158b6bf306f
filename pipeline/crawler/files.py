"""Local files and folders as seeds: read from disk, never served over HTTP.

``await LocalFiles.crawl(paths, pages_done)`` reads each file (a folder: every file below it, skipping hidden
names at any level) into the frontier as a ``kind = "file"`` entry at depth 0, its URL the canonical ``file:``
URI of its resolved path, and its modification time (``st_mtime_ns``) as ``last_modified``:

- a folder is walked as the crawl goes (``walk``: ``os.walk``, names sorted within each folder), never listed
  whole first: ``shijie crawl /usr --max-pages 5`` reads its five files at once;
- a file done before with the same modification time is not read again (unless ``recrawl``);
- the type comes from the name (``extract.kind_for_path``) and is checked on the content (``extract``
  refuses bytes that are not text under a text name). A file skipped for its type — by name, by content, or
  not a regular file (a FIFO would block the read forever) — is counted (``type``) but spends no page budget;
  one skipped by name is not even stored;
- a file over ``max_bytes``, or that cannot be read (permissions, a broken link, gone since it was listed), is
  an error (``file``);
- it is read in an extraction worker, within the same budgets as a fetched page (``Reader.read``);
- an entry a killed crawl was reading counts the try (``Frontier.resume``); after ``max_attempts`` it is given
  up (``interrupted``), as for pages;
- links inside local files are not followed (``file:`` links never are; web links from a file would leave
  the seeds' scope);
- it stops when the run's page budget (``max_pages``, counted by ``pages_done()``) is spent, saying so
  (``stats.stopped``) when files were left; each file read counts as fetched.

It runs on the crawl's event loop before the HTTP requests, committing as the frontier's batching says (and
after marking each file ``fetching``, so a crawl killed while reading it knows which).

Settings read: ``max_pages``, ``max_bytes``, ``max_attempts``, ``recrawl``.
"""

from __future__ import annotations

import itertools
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from .. import urls
from ..extract import kind_for_path
from ..store import Entry, Frontier
from .ledger import ErrorReason, Ledger, SkipReason
from .reading import Reader
from .settings import CrawlSettings

KIND = "file"
LOOK_AHEAD = 100


def walk(paths: list[Path]) -> Iterator[Path]:
    """Every file named, or below a folder named, as the walk reaches it; hidden names below a folder are left
    out; folders are not followed through symbolic links (a link loop would never end)."""
    for path in paths:
        if not path.is_dir():
            yield path
            continue
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in sorted(names):
                if not name.startswith("."):
                    yield Path(folder, name)


class LocalFiles:
    def __init__(self, settings: CrawlSettings, frontier: Frontier, ledger: Ledger, reader: Reader):
        self.settings = settings
        self.frontier = frontier
        self.ledger = ledger
        self.reader = reader

    async def crawl(self, paths: list[Path], pages_done: Callable[[], int]) -> None:
        files = walk(paths)
        for path in files:
            if pages_done() >= self.settings.max_pages:
                if self._more_to_read(path, files):
                    self.ledger.stats.stopped = "max_pages"
                break
            await self.read(path)
            self.frontier.maybe_commit()

    @staticmethod
    def _more_to_read(path: Path, files: Iterator[Path]) -> bool:
        """Whether a file we would read is left: ``path`` or one of the next ``LOOK_AHEAD`` files has a name we
        read (looking further would list the rest of the tree)."""
        for candidate in itertools.chain([path], itertools.islice(files, LOOK_AHEAD)):
            if kind_for_path(candidate.name) is not None:
                return True
        return False

    async def read(self, path: Path) -> None:
        s = self.settings
        content_type = kind_for_path(path.name)
        if content_type is None:
            self.ledger.count(SkipReason.TYPE)  # by its name: not stored, no budget spent
            return
        url = urls.canonical(Path(os.path.realpath(path)).as_uri())
        assert url is not None  # a file: URI of an absolute path always has a canonical form
        entry = Entry(url, "", 0, KIND, 0, None, None, None)
        try:
            info = path.stat()
        except OSError as exc:
            self._start(url, None)
            self.ledger.give_up(entry, None, f"cannot be read ({exc.strerror or exc})", ErrorReason.FILE)
            return
        stamp = str(info.st_mtime_ns)
        known = self.frontier.file_state(url)
        if known is not None and known[:2] == ("done", stamp) and not s.recrawl:
            return
        self._start(url, known)
        if known is not None and known[0] == "queued":  # left fetching by a killed crawl (or never finished)
            entry.attempts = known[2]
            if entry.attempts >= s.max_attempts:
                self.ledger.give_up(
                    entry,
                    None,
                    f"given up after {entry.attempts} attempts, the last interrupted: a crawl stopped while reading it",
                    ErrorReason.INTERRUPTED,
                )
                return
        if not stat.S_ISREG(info.st_mode):
            self.ledger.skip(entry, SkipReason.TYPE, "not a regular file", fetched=False)
            return
        if info.st_size > s.max_bytes:
            self.ledger.give_up(entry, None, f"file larger than {s.max_bytes} bytes", ErrorReason.FILE)
            return
        try:
            body = path.read_bytes()
        except OSError as exc:
            self.ledger.give_up(entry, None, f"cannot be read ({exc.strerror or exc})", ErrorReason.FILE)
            return
        self.ledger.stats.fetched += 1
        extraction = await self.reader.read(entry, body, content_type, None)
        if extraction is None:
            return
        self.reader.keep(
            entry, extraction, final_url=None, content_type=content_type, size=len(body), etag=None, last_modified=stamp
        )
        self.ledger.done(entry, last_modified=stamp, error=self.reader.note(extraction))

    def _start(self, url: str, known: tuple[str, str | None, int] | None) -> None:
        """Marks the file ``fetching`` and commits: a crawl killed while reading it must know which it was."""
        if known is None:
            self.frontier.add(url, "", 0, None, kind=KIND, status="fetching")
        else:  # a file read again (changed, or --recrawl) starts its count of tries anew; an interrupted one not
            self.frontier.mark_fetching(url, fresh=known[0] != "queued")
        self.frontier.commit()
