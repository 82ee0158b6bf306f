"""Local files and folders as seeds: read from disk, never served over HTTP.

``LocalFiles.crawl(paths, pages_done)`` reads each file (a folder: every file below it, sorted, skipping
hidden names at any level) into the frontier as a ``kind = "file"`` entry at depth 0, its URL the canonical
``file:`` URI of its resolved path, and its modification time (``st_mtime_ns``) as ``last_modified``:

- a file done before with the same modification time is not read again (unless ``recrawl``);
- the type comes from the name (``extract.kind_for_path``), and text types are also checked by content; a
  type we do not read is skipped (``type``), a file over ``max_bytes`` or unreadable is an error;
- links inside local files are not followed (``file:`` links never are; web links from a file would leave
  the seeds' scope);
- it stops when the run's page budget (``max_pages``, counted by ``pages_done()``) is spent; each file read
  counts as fetched.

It runs before the HTTP loop, on the caller's thread, committing as the frontier's batching says.

Settings read: ``max_pages``, ``max_bytes``, ``recrawl``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .. import urls
from ..extract import kind_for_path
from ..store import Entry, Frontier
from .ledger import Ledger, SkipReason
from .reading import Reader
from .settings import CrawlSettings

KIND = "file"


def walk(paths: list[Path]) -> list[Path]:
    """Every file named or below a folder named, in order; hidden names below a folder are left out."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and not any(part.startswith(".") for part in p.relative_to(path).parts)
            )
        else:
            files.append(path)
    return files


class LocalFiles:
    def __init__(self, settings: CrawlSettings, frontier: Frontier, ledger: Ledger, reader: Reader):
        self.settings = settings
        self.frontier = frontier
        self.ledger = ledger
        self.reader = reader

    def crawl(self, paths: list[Path], pages_done: Callable[[], int]) -> None:
        for path in walk(paths):
            if pages_done() >= self.settings.max_pages:
                break
            self.read(path)
            self.frontier.maybe_commit()

    def read(self, path: Path) -> None:
        s = self.settings
        url = urls.canonical(path.resolve().as_uri())
        assert url is not None  # a file: URI of an absolute path always has a canonical form
        stamp = str(path.stat().st_mtime_ns)
        known = self.frontier.file_state(url)
        if known is not None and known == ("done", stamp) and not s.recrawl:
            return
        if known is None:
            self.frontier.add(url, "", 0, None, kind=KIND, status="fetching")
        entry = Entry(url, "", 0, KIND, 0, None, None, None)
        content_type = kind_for_path(path.name)
        if content_type is None:
            self.ledger.skip(
                entry, SkipReason.TYPE, f"{path.suffix or 'no extension'} files are not read", fetched=True
            )
            return
        if path.stat().st_size > s.max_bytes:
            self.ledger.give_up(entry, None, f"file larger than {s.max_bytes} bytes")
            return
        body = path.read_bytes()
        self.ledger.stats.fetched += 1
        extraction = self.reader.read_file(entry, body, content_type)
        if extraction is None:
            return
        self.reader.keep(
            entry, extraction, final_url=None, content_type=content_type, size=len(body), etag=None, last_modified=stamp
        )
        self.ledger.done(entry, last_modified=stamp)
