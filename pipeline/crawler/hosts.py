"""Per-host state: pace (delay, slots), pauses, the address check and robots.txt, met once per host.

``Hosts.get(host)`` makes a host's ``HostState`` the first time the scheduler claims one of its entries, and
starts its check at once, in the background: where the name leads (``Scope.leads_private``; not for seeds'
hosts) and then its robots.txt (``robots.fetch_robots``; not for the arXiv API). Until ``checked`` no
request starts there; a check that fails for any reason leaves the host checked and closed (robots
``disallow_all`` with the reason as note), never unchecked, or its entries would wait forever. Once checked,
``HostState.refusal(entry)`` says why an entry may not be requested there: a skip, ``unsafe`` (the name leads
to a private address, when the host was met or when the robots.txt connection was made) or ``robots``
(robots.txt disallows a page, or answered 5xx/429: its note says why); or an error, when the host could not be
reached at all (the robots.txt request got no answer: ``unreachable``, ``timeout``…, with the message).

A host's pace: ``delay`` seconds between request starts (``max(delay, robots Crawl-delay or Request-rate)``,
the latter capped at ``max_crawl_delay``; the robots.txt request counts as the first start) and ``slots``
requests at once (``per_host``). The arXiv API host: ``max(delay, arxiv_delay)`` and one slot. ``pause``
holds the whole host until an epoch time (a 429/503, see ``pipeline.crawler.retry``) and hands back its
queued entries.

All of this is in memory, for one run; the frontier in SQLite is the durable part.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from .. import urls
from ..fetch import ClientPool
from ..store import Entry
from . import arxiv
from .ledger import ErrorReason, SkipReason
from .robots import Robots, fetch_robots
from .scope import Scope
from .settings import CrawlSettings


@dataclass(frozen=True)
class Refusal:
    """Why an entry may not be requested from its host: a skip (``skip``) or an error (``error``), and a note."""

    skip: SkipReason | None = None
    error: ErrorReason | None = None
    note: str | None = None


@dataclass
class HostState:
    host: str
    delay: float
    slots: int
    robots: Robots | None = None
    private_ok: bool = True  # set once the host's addresses are checked
    checked: bool = False
    active: int = 0
    next_start: float = 0.0  # monotonic time of the earliest next request start
    paused_until: float = 0.0  # wall-clock epoch, from Retry-After / backoff
    queue: deque[Entry] = field(default_factory=deque)  # claimed entries waiting for a slot
    init_task: asyncio.Future | None = None  # the address check + robots.txt fetch, run once

    def ready(self, now_mono: float, now_wall: float) -> bool:
        return self.active < self.slots and self.next_start <= now_mono and self.paused_until <= now_wall

    def started(self, now_mono: float) -> None:
        self.active += 1
        self.next_start = now_mono + self.delay

    def refusal(self, entry: Entry) -> Refusal | None:
        """Why ``entry`` may not be requested from this checked host, None when it may."""
        if not self.private_ok:
            return Refusal(skip=SkipReason.UNSAFE, note="host resolves to a private address")
        if self.robots is not None and self.robots.unsafe:
            return Refusal(skip=SkipReason.UNSAFE, note=self.robots.unsafe)
        if self.robots is not None and self.robots.unreachable:
            reason, message = self.robots.unreachable
            return Refusal(error=ErrorReason(reason), note=f"host cannot be reached: {message}")
        if self.robots is not None and entry.kind == "page" and not self.robots.allows(entry.url):
            return Refusal(skip=SkipReason.ROBOTS, note=self.robots.note or None)
        return None

    def pause(self, until: float) -> list[Entry]:
        """Holds the host until ``until`` (epoch); returns its queued entries, taken off the queue."""
        self.paused_until = max(self.paused_until, until)
        taken = list(self.queue)
        self.queue.clear()
        return taken


class Hosts:
    def __init__(self, settings: CrawlSettings, scope: Scope, http: ClientPool, api_host: str | None):
        self.settings = settings
        self.scope = scope
        self.http = http
        self.api_host = api_host  # the arXiv API's host when there is an arxiv: seed
        self.states: dict[str, HostState] = {}

    def __iter__(self) -> Iterator[HostState]:
        return iter(list(self.states.values()))

    def get(self, host: str) -> HostState:
        state = self.states.get(host)
        if state is None:
            s = self.settings
            if host == self.api_host:
                state = HostState(host, delay=max(s.delay, s.arxiv_delay), slots=arxiv.SLOTS)
            else:
                state = HostState(host, delay=s.delay, slots=max(1, s.per_host))
            self.states[host] = state
            state.init_task = asyncio.ensure_future(self._init(state))
        return state

    def buffered(self) -> int:
        """Claimed entries waiting in the hosts' queues."""
        return sum(len(state.queue) for state in self.states.values())

    def wait_s(self, now_mono: float, now_wall: float) -> float:
        """How long until a host with queued entries may start one (its delay or pause ends; 0.25 s at most)."""
        timeout = 0.25
        for st in self.states.values():
            if st.queue and st.checked and st.active < st.slots:
                timeout = min(timeout, max(st.next_start - now_mono, st.paused_until - now_wall, 0.002))
            elif st.queue and not st.checked:
                timeout = min(timeout, 0.01)
        return timeout

    def close(self) -> list[Entry]:
        """End of the run: stops unfinished checks; returns the entries still queued (taken off)."""
        leftover = [entry for state in self.states.values() for entry in state.queue]
        for state in self.states.values():
            state.queue.clear()
            if state.init_task is not None and not state.init_task.done():
                state.init_task.cancel()
        return leftover

    async def _init(self, state: HostState) -> None:
        try:
            await self._check(state)
        except Exception as exc:  # never leave a host unchecked: its entries would wait forever
            state.robots = Robots(disallow_all=True, note=f"host check failed ({exc.__class__.__name__}: {exc})")
        state.checked = True

    async def _check(self, state: HostState) -> None:
        state.private_ok = not await self.scope.leads_private(state.host)
        if state.private_ok and state.host != self.api_host:
            asked_at = time.monotonic()
            # The host's scheme is the one of the entry that brought it here (claimed before this runs).
            origin = urls.origin_of(state.queue[0].url) if state.queue else f"http://{state.host}"
            state.robots = await fetch_robots(
                self.http,
                origin,
                self.scope,
                max_redirects=self.settings.max_redirects,
                response_budget=self.settings.response_budget,
            )
            crawl_delay = min(state.robots.crawl_delay(), self.settings.max_crawl_delay)
            state.delay = max(state.delay, crawl_delay)
            state.next_start = asked_at + state.delay  # the robots.txt request counts as the host's first
