"""The crawl's ledger: how each entry ends, written to the frontier and counted into ``CrawlStats``, in one place.

Every policy ends an entry through a ``Ledger`` call, never by writing the frontier itself, so the counts of
a run and the rows of the frontier cannot disagree:

- ``done(entry)``: fetched and handled (a document stored, a 304, a redirect followed);
- ``skip(entry, reason)``: not fetched, or fetched and not read; counted under ``stats.skipped[reason]``
  (``robots`` also as ``skipped_robots``). ``fetched`` says whether a request (or a file read) was spent;
- ``count(reason)``: a reason counted with no entry to end (a link too deep is never stored; an empty page
  or the links of a duplicate end ``done``);
- ``retry(entry, at)``: back to the queue until ``at`` (epoch seconds), ``stats.retries``;
- ``give_up(entry, status, error)``: an error for this run, logged in ``fetch_errors``, ``stats.errors``;
- ``stored(outcome)``: what writing one document did (``Outcome``), counted as stored, duplicate or updated.

The values of ``SkipReason`` and ``Outcome`` are the strings found in the database (``frontier.skip_reason``)
and in ``shijie crawl --json`` (``skipped``); they are ``StrEnum`` so they are those strings.
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

    def give_up(self, entry: Entry, status: int | None, error: str) -> None:
        """``status`` None: no answer came (a transport error, a local file): no request counts as spent."""
        self.stats.errors += 1
        self.frontier.record_error(entry.url, status, error)
        self.frontier.finish(entry, self.run_id, status="error", error=error, fetched=status is not None)

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
