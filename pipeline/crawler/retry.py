"""When a failed request is tried again, how long it waits, and when it is given up.

``RetryPolicy.failed(entry, status, error, retryable, retry_after, host)`` ends or re-queues a failure:

- retryable failures are transport errors and timeouts (``FetchError.retryable``), 429 and every 5xx;
  other 4xx, bodies too large or too slow, unreadable content and redirect errors are not;
- a retryable failure goes back to the queue until ``Retry-After`` when the answer has one (delta-seconds
  or an HTTP date, ``parse_retry_after``), else for an exponential backoff with full jitter
  (``backoff_seconds``: uniform in [c/2, c], c = min(backoff_cap, backoff_base·2^(attempt-1)));
- a 429 or 503 also pauses its whole host until then, and hands back the host's claimed entries (the
  server said it is overloaded: no other request of ours should reach it sooner);
- given up (an error for this run, logged in ``fetch_errors``): a failure that is not retryable, the
  ``max_attempts``-th attempt, or a ``Retry-After`` longer than ``max_retry_after`` (said in the error);
- given up before it is tried again (``exhausted``, asked when an entry is claimed): an entry whose tries,
  those a killed crawl left unfinished included (``Frontier.resume`` counts them), reached ``max_attempts``.
  One document that makes the crawl process die — while it is fetched or read — is given up after
  ``max_attempts`` crawls, instead of killing every resumed crawl (``interrupted``).

Settings read: ``max_attempts``, ``backoff_base``, ``backoff_cap``, ``max_retry_after``; ``rng_seed`` seeds the
jitter (tests).
"""

from __future__ import annotations

import email.utils
import random
import time

from ..store import Entry
from .hosts import HostState
from .ledger import ErrorReason, Ledger
from .settings import CrawlSettings

HOST_PAUSING = frozenset({429, 503})


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP-date), None if absent/invalid."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def backoff_seconds(attempt: int, base: float, cap: float, rng: random.Random | None = None) -> float:
    """Exponential backoff with full jitter: uniform in [base·2^(attempt-1)/2, base·2^(attempt-1)], capped."""
    ceiling = min(cap, base * (2 ** max(0, attempt - 1)))
    return (rng or random).uniform(ceiling / 2, ceiling)


class RetryPolicy:
    def __init__(self, settings: CrawlSettings, ledger: Ledger):
        self.settings = settings
        self.ledger = ledger
        self.rng = random.Random(settings.rng_seed)

    def failed(
        self,
        entry: Entry,
        status: int | None,
        error: str,
        retryable: bool,
        retry_after: str | None = None,
        host: HostState | None = None,
        reason: ErrorReason | None = None,
    ) -> bool:
        """Re-queues or gives up ``entry`` (``status`` None: no answer; ``reason`` None: the status is the reason);
        True when it will be tried again."""
        s = self.settings
        attempt = entry.attempts + 1
        wait = parse_retry_after(retry_after)
        if wait is not None and wait > s.max_retry_after:
            retryable, error = False, f"{error}, Retry-After {wait:.0f} s is longer than {s.max_retry_after:g} s"
        if not retryable or attempt >= s.max_attempts:
            self.ledger.give_up(entry, status, error, reason)
            return False
        if wait is None:
            wait = backoff_seconds(attempt, s.backoff_base, s.backoff_cap, self.rng)
        until = time.time() + wait
        if host is not None and status in HOST_PAUSING:
            self.ledger.requeue(host.pause(until), host.paused_until)
        self.ledger.retry(entry, until, error)
        return True

    def exhausted(self, entry: Entry) -> bool:
        """Gives ``entry`` up when its tries reached ``max_attempts`` (the last ones interrupted); True if it did."""
        if entry.attempts < self.settings.max_attempts:
            return False
        self.ledger.give_up(
            entry,
            None,
            f"given up after {entry.attempts} attempts, the last interrupted: a crawl stopped while fetching or reading it",
            ErrorReason.INTERRUPTED,
        )
        return True
