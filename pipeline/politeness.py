"""How hard the crawl may press on each host: robots.txt, delays, slots, and backing off.

- robots.txt is parsed by protego (Scrapy's parser: wildcards, Allow/Disallow precedence by longest match,
  Crawl-delay, Request-rate). A robots.txt answering 4xx means "no rules"; 5xx or unreachable means "crawl
  nothing there for now" (RFC 9309 §2.3.1.3/4).
- Each host has a delay between request starts (``max(settings delay, Crawl-delay)``) and a number of
  concurrent slots.
- 429 and 503 (and other 5xx, timeouts) push the entry back: ``Retry-After`` when the server says so (seconds
  or an HTTP date), else exponential backoff with full jitter; a 429/503 also pauses the whole host.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from protego import Protego

USER_AGENT = "shijie/0.1 (+https://github.com/shijie-project/shijie)"
ROBOTS_AGENT = "shijie"


@dataclass
class Robots:
    """The parsed robots.txt of one host (None rules: everything allowed)."""

    rules: Protego | None = None
    disallow_all: bool = False
    note: str = ""

    @classmethod
    def from_response(cls, status: int | None, body: bytes) -> Robots:
        if status is None or status >= 500 or status == 429:  # 429: the server is overloaded, not "no rules"
            return cls(disallow_all=True, note=f"robots.txt unavailable ({status or 'no answer'})")
        if status >= 400 or status < 200:
            return cls(note=f"robots.txt answered {status}: no rules")
        try:
            return cls(rules=Protego.parse(body.decode("utf-8", errors="replace")))
        except Exception as exc:  # a robots.txt protego cannot read is treated as no rules, like Scrapy
            return cls(note=f"robots.txt unreadable ({exc.__class__.__name__}): no rules")

    def allows(self, url: str) -> bool:
        if self.disallow_all:
            return False
        return self.rules is None or self.rules.can_fetch(url, ROBOTS_AGENT)

    def crawl_delay(self) -> float:
        if self.rules is None:
            return 0.0
        delay = self.rules.crawl_delay(ROBOTS_AGENT) or 0.0
        rate = self.rules.request_rate(ROBOTS_AGENT)
        if rate and rate.requests:
            delay = max(delay, rate.seconds / rate.requests)
        return float(delay)


@dataclass
class HostState:
    """Per-host bookkeeping used by the scheduler (in memory; the frontier in SQLite is the durable part)."""

    host: str
    delay: float
    slots: int
    robots: Robots | None = None
    private_ok: bool = True  # set once the host's addresses are checked
    checked: bool = False
    active: int = 0
    next_start: float = 0.0  # monotonic time of the earliest next request start
    paused_until: float = 0.0  # wall-clock epoch, from Retry-After / backoff
    queue: deque = field(default_factory=deque)  # claimed entries waiting for a slot
    init_task: Any = None  # the address check + robots.txt fetch, run once before the first request

    def ready(self, now_mono: float, now_wall: float) -> bool:
        return self.active < self.slots and self.next_start <= now_mono and self.paused_until <= now_wall

    def started(self, now_mono: float) -> None:
        self.active += 1
        self.next_start = now_mono + self.delay


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
