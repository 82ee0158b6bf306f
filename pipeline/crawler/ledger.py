"""The crawl's ledger: how each entry ends, written to the frontier and counted into ``CrawlStats``, in one place.

Every policy ends an entry through a ``Ledger`` call, never by writing the frontier itself, so the counts of
a run and the rows of the frontier cannot disagree:

- ``done(entry)``: fetched and handled (a document stored, a 304, a redirect followed);
- ``skip(entry, reason)``: not fetched, or fetched and not read; counted under ``stats.skipped[reason]``
  (``robots`` also as ``skipped_robots``). ``fetched`` says whether a request (or a file read) was spent;
- ``count(reason)``: a reason counted with no entry to end (a link too deep is never stored; an empty page
  or the links of a duplicate end ``done``);
- ``retry(entry, at)``: back to the queue until ``at`` (epoch seconds), ``stats.retries``;
- ``give_up(entry, status, error, reason)``: an error for this run, logged in ``fetch_errors``, counted in
  ``stats.errors`` and under its reason in ``stats.errors_by_reason`` (``ErrorReason``, or ``HTTP 404`` for
  an answer that is the error);
- ``stored(outcome)``: what writing one document did (``Outcome``), counted as stored, duplicate or updated;
- ``cut(note)``: a document kept cut by an extraction budget (``stats.truncated``);
- ``capped(cap, n)``: ``n`` links not taken because a frontier bound bit (``Cap``, ``stats.caps``).

The values of ``SkipReason``, ``ErrorReason``, ``Cap`` and ``Outcome`` are the strings found in the database
(``frontier.skip_reason``) and in ``shijie crawl --json`` (``skipped``, ``errors_by_reason``, ``caps``); they
are ``StrEnum`` so they are those strings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from ..store import Entry, Frontier


class SkipReason(StrEnum):
    ROBOTS = "robots"  # robots.txt disallows it, or robots.txt could not be read (RFC 9309: crawl nothing)
    OFFSITE = "offsite"  # its host is not on the allow-list
    UNSAFE = "unsafe"  # file: link, or a host that is or resolves to a private address
    TYPE = "type"  # a content type (or file extension) we do not read
    DISCARDED = "discarded"  # curated out by the user: never fetched again
    DEPTH = "depth"  # more links from a seed than max_depth (counted, not stored)
    TRAP = "trap"  # a URL too long or with a repeated path segment
    EMPTY = "empty"  # fetched, no text in it (counted; the entry is done)
    LINKS_OF_DUPLICATE = "links of duplicate"  # a page exactly like a stored one: its links are not followed
    REDIRECT = "redirect"  # not a skip: marks a done entry that answered a redirect (never counted)


class ErrorReason(StrEnum):
    """Why an entry was given up, when no HTTP status says it (``HTTP 404`` does)."""

    UNREACHABLE = "unreachable"  # no connection: the name does not resolve, refused, connect timeout
    TIMEOUT = "timeout"  # connected, but no answer within read_timeout
    TOO_SLOW = "too slow"  # the whole answer took longer than response_budget (a slow drip)
    TRANSPORT = "transport"  # the connection broke mid-answer
    TOO_LARGE = "too large"  # over max_bytes
    PROTOCOL = "protocol"  # not an HTTP answer: the server dropped the connection, a malformed response
    BAD_ENCODING = "bad encoding"  # a Content-Encoding we do not decode, a corrupt compressed body
    REDIRECTS = "redirects"  # too many, or without a Location
    UNREADABLE = "unreadable"  # the body is of a type we read but could not be read
    EXTRACTION_KILLED = "extraction killed"  # the extraction worker ran out of time or memory, or died
    INTERRUPTED = "interrupted"  # max_attempts crawls stopped (killed) while fetching or reading it
    FILE = "file"  # a local file that cannot be read (permissions, vanished, too large)


class Cap(StrEnum):
    """A frontier bound that bit (``pipeline.crawler.bounds``)."""

    LINKS_PER_PAGE = "links_per_page"
    FRONTIER_PER_HOST = "frontier_per_host"
    FRONTIER = "frontier"


class Outcome(StrEnum):
    """What writing one document did (``Frontier.store_document``'s answer)."""

    STORED = "stored"
    DUPLICATE = "duplicate"  # the content of another document under a new URL: an alias
    UPDATED = "updated"
    REPLACED = "replaced"  # a newer arXiv version
    UNCHANGED = "unchanged"


@dataclass
class CrawlStats:
    fetched: int = 0
    stored: int = 0
    skipped_robots: int = 0
    errors: int = 0
    duplicates: int = 0
    elapsed_s: float = 0.0
    not_modified: int = 0
    updated: int = 0
    retries: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    queued: int = 0
    inflight: int = 0
    documents_total: int = 0
    run_id: int = 0
    resumed: bool = False
    pages_per_s: float = 0.0
    bytes: int = 0
    errors_by_reason: dict[str, int] = field(default_factory=dict)
    truncated: int = 0  # documents kept cut by an extraction budget (each says so in metadata["truncated"])
    caps: dict[str, int] = field(default_factory=dict)  # links not taken, by the bound that bit
    stopped: str | None = None  # "max_pages" when the page budget ended the run with work left

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Ledger:
    def __init__(self, frontier: Frontier, run_id: int, stats: CrawlStats):
        self.frontier = frontier
        self.run_id = run_id
        self.stats = stats
        self.skips: Counter[SkipReason] = Counter()

    def count(self, reason: SkipReason) -> None:
        self.skips[reason] += 1

    def done(self, entry: Entry, **details: Any) -> None:
        """``details``: ``etag``, ``last_modified``, ``skip_reason``, ``error`` as ``Frontier.finish`` takes them."""
        self.frontier.finish(entry, self.run_id, **details)

    def skip(self, entry: Entry, reason: SkipReason, error: str | None = None, *, fetched: bool) -> None:
        self.skips[reason] += 1
        self.frontier.finish(entry, self.run_id, status="skipped", skip_reason=reason, error=error, fetched=fetched)

    def retry(self, entry: Entry, at: float, error: str) -> None:
        self.frontier.retry(entry, at, error)
        self.stats.retries += 1

    def requeue(self, entries: list[Entry], at: float) -> None:
        """Claimed entries handed back unstarted (their attempts unchanged)."""
        if entries:
            self.frontier.unclaim(entries, at)

    def give_up(self, entry: Entry, status: int | None, error: str, reason: ErrorReason | None = None) -> None:
        """``status`` None: no answer came (a transport error, a local file): no request counts as spent.
        ``reason`` None: the answer's status is the reason (``HTTP 404``)."""
        self.stats.errors += 1
        key = str(reason) if reason is not None else f"HTTP {status}" if status is not None else "other"
        self.stats.errors_by_reason[key] = self.stats.errors_by_reason.get(key, 0) + 1
        self.frontier.record_error(entry.url, status, error)
        self.frontier.finish(entry, self.run_id, status="error", error=error, fetched=status is not None)

    def cut(self) -> None:
        self.stats.truncated += 1

    def capped(self, cap: Cap, n: int = 1) -> None:
        if n:
            self.stats.caps[str(cap)] = self.stats.caps.get(str(cap), 0) + n

    def stored(self, outcome: Outcome) -> None:
        if outcome == Outcome.STORED:
            self.stats.stored += 1
        elif outcome == Outcome.DUPLICATE:
            self.stats.duplicates += 1
        elif outcome in (Outcome.UPDATED, Outcome.REPLACED):
            self.stats.updated += 1

    def skipped(self) -> dict[str, int]:
        """The skip counts as plain strings (for ``CrawlStats.skipped``)."""
        return {str(reason): n for reason, n in self.skips.items()}
