"""``crawl(db, seeds, settings) -> CrawlStats``: a focused, polite, resumable crawler.

Seeds are URLs, local files or folders (read directly, never over HTTP), ``arxiv:QUERY`` (the arXiv API,
paged, one request per 3 s at most) and seeds files (``*.toml``, see ``data/seeds.toml``); ``pipeline.seeds``
reads them.

How a crawl runs: the frontier in SQLite is the source of truth (see ``pipeline.store.frontier``). This module is
the scheduler: one asyncio loop claims ready entries in batches, keeps a small queue per host, and starts a
request for a host only when the host is checked, has a free slot, its delay since the last start has passed
and it is not paused. Each finished request's outcome (document, links, status) is written in the frontier's
open transaction. What may be fetched, when, and what an answer becomes are policies of ``pipeline.crawler``,
each a small module with its contract in its docstring:

    scope       where a link may lead: allow-list, depth, traps, private addresses (at every connection
                too), discarded URLs
    bounds      how much one page or host can make the crawl hold: links per page, the frontier's size
    hosts       per-host pace and pauses, the address check and robots.txt before a host's first request
    robots      robots.txt: fetched once per host, what it allows, Crawl-delay; a host that cannot be reached
    retry       what is tried again, Retry-After and backoff, the 429/503 host pause, when to give up
    redirects   a 3xx is queued as a link, hop by hop; a moved seed's host joins the scope
    reading     a body → extraction → documents stored → links to follow
    workers     extraction in worker processes: off the loop, within time and memory, killable
    files       local files and folders, read from disk as the walk reaches them
    arxiv       arXiv API searches: query URLs, paging, the API's pace
    ledger      how each entry ends (done, skipped, retried, given up), written and counted in one place
    settings    CrawlSettings: every knob, as plain data, and what a wrong value is

One crawl per database at a time (``store.lock``: an OS lock beside the database file, which the kernel drops
when the process dies); a second crawl on the same database stops at once, naming the first one's pid.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import sqlite_utils

from . import urls
from .crawler import arxiv
from .crawler.bounds import Bounds
from .crawler.files import LocalFiles
from .crawler.hosts import Hosts, HostState
from .crawler.ledger import CrawlStats, ErrorReason, Ledger, SkipReason
from .crawler.reading import Reader
from .crawler.redirects import Redirects
from .crawler.retry import RetryPolicy
from .crawler.scope import Scope
from .crawler.settings import CrawlSettings, setting_problem
from .crawler.workers import Workers
from .errors import UsageError
from .fetch import REDIRECTS, ClientPool, FetchError, Response
from .seeds import Seeds, parse_seeds
from .store import Entry, Frontier
from .store.frontier import hashed_url
from .store.lock import crawl_lock

__all__ = ["CrawlSettings", "CrawlStats", "Crawler", "crawl", "crawl_embedded"]

ProgressCallback = Callable[[CrawlStats], None]


class Crawler:
    """The scheduler of one run (``run_id``) over ``frontier``; ``crawl()`` sets the run up and calls ``run()``."""

    def __init__(
        self,
        frontier: Frontier,
        seeds: Seeds,
        settings: CrawlSettings,
        run_id: int,
        *,
        resolver: urls.Resolver | None = None,
        on_progress: ProgressCallback | None = None,
    ):
        self.settings = settings
        self.frontier = frontier
        self.stats = CrawlStats(run_id=run_id)
        self.on_progress = on_progress
        self.api_host = arxiv.api_host(settings.arxiv_api) if seeds.arxiv else None
        seed_hosts = {urls.host_of(u) for u in seeds.urls} | ({self.api_host} if self.api_host else set())
        self.ledger = Ledger(frontier, run_id, self.stats)
        self.scope = Scope(settings, seed_hosts, frontier.discarded, resolver)
        self.bounds = Bounds(settings, frontier, self.ledger)
        self.retry = RetryPolicy(settings, self.ledger)
        self.redirects = Redirects(settings.max_redirects, self.scope, self.ledger)
        self.workers = Workers(settings.extract_workers, settings.extract_memory_mb)
        self.reader = Reader(frontier, self.ledger, self.workers, settings.limits(), self.bounds)
        self.pages_base = frontier.pages_done(run_id)  # requests a resumed run had already finished
        self._inflight = 0
        self._claim_wanted = True
        self._started = time.monotonic()
        self._last_progress = 0.0

    @property
    def pages_done(self) -> int:
        return self.pages_base + self.frontier.finished_fetches

    def discover(
        self, raw: str, base: str | None, depth: int, parent: str | None, kind: str = "page", check_scope: bool = True
    ) -> None:
        """Queues a link, or records why not (``Scope.judge``, ``Bounds``)."""
        if self.bounds.too_long_to_read(raw):
            self._refuse_long(raw, base, depth, parent)
            return
        url = urls.canonical(raw, base)
        if url is None:
            return
        if self.bounds.too_long_to_keep(url):
            self._refuse_long(url, base, depth, parent)
            return
        if url in self.frontier.seen:
            return
        reason = self.scope.judge(url, depth, check_scope=check_scope)
        if reason:
            self.ledger.count(reason)
            if reason == SkipReason.DEPTH:
                return  # counted, not stored: a trap would fill the frontier with them
        host = urls.host_of(url)
        if check_scope:
            cap = self.bounds.full(host)
            if cap:
                self.ledger.capped(cap)
                return
        self.frontier.add(
            url,
            host,
            depth,
            parent,
            kind=kind,
            status="skipped" if reason else "queued",
            skip_reason=reason,
        )
        if not reason:
            self._claim_wanted = True

    def _refuse_long(self, url: str, base: str | None, depth: int, parent: str | None) -> None:
        """A trap URL too long to keep: counted once, stored by its hash (``Bounds``)."""
        key = hashed_url(url)
        if key in self.frontier.seen:
            return
        self.ledger.count(SkipReason.TRAP)
        host = urls.host_of(base) if base else ""
        if self.bounds.full(host) is None:
            error = f"URL of {len(url)} characters (longer than {self.settings.max_url_length})"
            self.frontier.add(key, host, depth, parent, status="skipped", skip_reason=SkipReason.TRAP, last_error=error)

    # -- one request ---------------------------------------------------------------------------------------

    async def process(self, entry: Entry, state: HostState) -> None:
        try:
            await self._process(entry, state)
        finally:
            state.active -= 1

    async def _process(self, entry: Entry, state: HostState) -> None:
        s = self.settings
        headers = {}
        if entry.etag:
            headers["If-None-Match"] = entry.etag
        if entry.last_modified:
            headers["If-Modified-Since"] = entry.last_modified
        try:
            response = await self.http.fetch(
                entry.url, max_bytes=s.max_bytes, budget_s=s.response_budget, headers=headers or None
            )
        except FetchError as exc:
            if exc.reason == "unsafe":  # the name led to a private address when connecting (DNS rebinding)
                self.ledger.skip(entry, SkipReason.UNSAFE, str(exc), fetched=False)
            else:
                self._claim_wanted |= self.retry.failed(
                    entry, None, str(exc), exc.retryable, reason=ErrorReason(exc.reason)
                )
            return
        self.stats.fetched += 1
        self.stats.bytes += response.wire_bytes
        status = response.status
        if status == 304:
            self.stats.not_modified += 1
            self.ledger.done(entry)
        elif status in REDIRECTS:
            target = self.redirects.follow(entry, status, response.headers.get("location"))
            if target:
                self.discover(target, None, entry.depth, entry.url, kind=entry.kind, check_scope=entry.depth > 0)
        elif status == 429 or status >= 500:
            retry_after = response.headers.get("retry-after")
            self._claim_wanted |= self.retry.failed(entry, status, f"HTTP {status}", True, retry_after, state)
        elif 200 <= status < 300:
            await self._document(entry, response)
        else:
            self.retry.failed(entry, status, f"HTTP {status}", False)

    async def _document(self, entry: Entry, response: Response) -> None:
        ctype = response.headers.get("content-type")
        extraction = await self.reader.read(entry, response.body, ctype, response.status)
        if extraction is None:
            return
        etag = response.headers.get("etag")
        last_modified = response.headers.get("last-modified")
        outcomes = self.reader.keep(
            entry,
            extraction,
            final_url=response.url,
            content_type=ctype,
            size=len(response.body),
            etag=etag,
            last_modified=last_modified,
        )
        if entry.kind == arxiv.KIND:
            following = arxiv.next_page(entry.url, extraction, self.settings.arxiv_max_results)
            if following:
                self.discover(following, None, 0, entry.url, kind=arxiv.KIND, check_scope=False)
        else:
            for link in self.reader.links(entry, extraction, outcomes):
                self.discover(link, entry.url, entry.depth + 1, entry.url)
        self.ledger.done(entry, etag=etag, last_modified=last_modified, error=self.reader.note(extraction))

    # -- the loop ------------------------------------------------------------------------------------------

    def _progress(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.on_progress and (force or now - self._last_progress >= 0.2):
            self._last_progress = now
            self.fill_stats()
            self.on_progress(self.stats)

    def fill_stats(self) -> None:
        self.stats.elapsed_s = round(time.monotonic() - self._started, 3)
        self.stats.skipped = self.ledger.skipped()
        self.stats.skipped_robots = self.ledger.skips.get(SkipReason.ROBOTS, 0)
        self.stats.inflight = self._inflight
        self.stats.queued = self.frontier.queued()
        self.stats.pages_per_s = round(self.stats.fetched / self.stats.elapsed_s, 1) if self.stats.elapsed_s else 0.0

    def _start(self, state: HostState, now_m: float, now_w: float, budget: int, tasks: set[asyncio.Task]) -> int:
        """Starts what may start on ``state``'s host within ``budget`` requests; returns how many started."""
        started = 0
        while state.queue and started < budget and len(tasks) < self.settings.concurrency and state.ready(now_m, now_w):
            entry = state.queue.popleft()
            refused = state.refusal(entry)
            if refused and refused.error:
                self.ledger.give_up(entry, None, refused.note or str(refused.error), refused.error)
                continue
            if refused and refused.skip:
                self.ledger.skip(entry, refused.skip, refused.note, fetched=False)
                continue
            state.started(now_m)
            tasks.add(asyncio.ensure_future(self.process(entry, state)))
            started += 1
        return started

    def _claim(self, budget: int) -> bool:
        """Claims up to ``budget`` entries into the hosts' queues; True when any was claimed."""
        s = self.settings
        buffer_per_host = max(4, 2 * s.per_host)
        full = [st.host for st in self.hosts if len(st.queue) >= buffer_per_host]
        claimed = self.frontier.claim(min(budget, 4 * s.concurrency), buffer_per_host, full)
        self._claim_wanted = False
        for entry in claimed:
            if self.scope.is_discarded(entry.url):  # since it was queued
                self.ledger.skip(entry, SkipReason.DISCARDED, fetched=False)
            elif not self.retry.exhausted(entry):
                self.hosts.get(entry.host).queue.append(entry)
        return bool(claimed)

    async def run_http(self) -> None:
        s = self.settings
        tasks: set[asyncio.Task] = set()
        next_claim = 0.0
        try:
            while True:
                now_m, now_w = time.monotonic(), time.time()
                budget = s.max_pages - self.pages_done - len(tasks)
                # 1. start what may start
                for state in self.hosts:
                    if state.queue and state.checked:
                        budget -= self._start(state, now_m, now_w, budget, tasks)
                # 2. claim more when there is room and something may be ready
                buffered = self.hosts.buffered()
                if budget > buffered and len(tasks) < s.concurrency and (self._claim_wanted or now_m >= next_claim):
                    next_claim = now_m + 0.25
                    if self._claim(budget - buffered):
                        continue
                # 3. done?
                if not tasks and not self.hosts.buffered():
                    if budget <= 0:
                        if self.frontier.queued():
                            self.stats.stopped = "max_pages"
                        break
                    wake = self.frontier.next_wakeup()
                    if wake is None:
                        break
                    self.frontier.commit()
                    await asyncio.sleep(min(max(wake - time.time(), 0.01), 1.0))
                    self._claim_wanted = True
                    continue
                # 4. wait for a request to finish or a host to become ready
                timeout = self.hosts.wait_s(now_m, now_w)
                if tasks:
                    done, _ = await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
                    for task in done:
                        tasks.discard(task)
                        task.result()  # a bug in the crawler must surface, not vanish
                else:
                    await asyncio.sleep(timeout)
                self._inflight = len(tasks)
                self.frontier.maybe_commit()
                self._progress()
        finally:
            for task in tasks:
                task.cancel()
            # Entries claimed but never started go back to the queue (a cap or an error ended the run).
            self.ledger.requeue(self.hosts.close(), 0)
            self.frontier.commit()

    async def run(self, paths: list[Path], fetch: Callable[[], bool]) -> CrawlStats:
        """Reads the local ``paths``, then runs the HTTP loop if ``fetch()`` says there is anything to fetch; the
        extraction workers end with the run."""
        s = self.settings
        try:
            if paths:
                files = LocalFiles(s, self.frontier, self.ledger, self.reader)
                await files.crawl(paths, lambda: self.pages_done)
                self.frontier.commit()
            if fetch():
                self.http = ClientPool(s.concurrency, s.connect_timeout, s.read_timeout, self.scope.addresses)
                self.hosts = Hosts(s, self.scope, self.http, self.api_host)
                try:
                    await self.run_http()
                finally:
                    await self.http.aclose()
        finally:
            await self.workers.aclose()
        return self.stats


def crawl(
    db: sqlite_utils.Database,
    seeds: list[str],
    settings: CrawlSettings | None = None,
    *,
    resolver: urls.Resolver | None = None,
    on_progress: ProgressCallback | None = None,
) -> CrawlStats:
    """Crawls ``seeds`` into ``db``, resuming an unfinished crawl there; returns this invocation's stats.

    ``resolver`` maps a host name to its addresses for the private-address check (default: the system's);
    ``on_progress`` is called with the stats as the crawl goes (at most every 0.2 s) and once at the end.
    """
    settings = settings or CrawlSettings()
    for name, value in settings.to_json().items():
        problem = setting_problem(name, value)
        if problem:
            raise UsageError(problem, field=name)
    with crawl_lock(db):
        return _crawl(db, seeds, settings, resolver, on_progress)


def _crawl(
    db: sqlite_utils.Database,
    seeds: list[str],
    settings: CrawlSettings,
    resolver: urls.Resolver | None,
    on_progress: ProgressCallback | None,
) -> CrawlStats:
    frontier = Frontier(db)
    previous = frontier.unfinished_run()
    last = frontier.last_run_settings() or {}
    if settings.served_origin and last.get("served_origin") and last["served_origin"] != settings.served_origin:
        frontier.rebase_origin(last["served_origin"], settings.served_origin)
        if previous:
            previous["seeds"] = [s.replace(last["served_origin"], settings.served_origin, 1) for s in previous["seeds"]]
    all_seeds = list(dict.fromkeys((previous["seeds"] if previous else []) + list(seeds)))
    parsed = parse_seeds(all_seeds)
    if not (parsed.urls or parsed.paths or parsed.arxiv):
        raise UsageError("nothing to crawl: give a URL, a path, arxiv:QUERY or a seeds file")
    if previous:
        run_id = previous["id"]
        frontier.resume()
        frontier.update_run_settings(run_id, settings.to_json())
        frontier.set_run_seeds(run_id, all_seeds)
    else:
        run_id = frontier.start_run(all_seeds, settings.to_json())
        if settings.recrawl:
            frontier.requeue_finished()
            frontier.reload_seen()
    crawler = Crawler(frontier, parsed, settings, run_id, resolver=resolver, on_progress=on_progress)
    stats = crawler.stats
    stats.resumed = previous is not None
    for url in parsed.urls:
        crawler.discover(url, None, 0, None, check_scope=False)
    for query in parsed.arxiv:
        first = arxiv.query_url(settings.arxiv_api, query, 0, settings.arxiv_page_size)
        crawler.discover(first, None, 0, None, kind=arxiv.KIND, check_scope=False)
    frontier.commit()
    asyncio.run(crawler.run(parsed.paths, fetch=lambda: bool(parsed.urls or parsed.arxiv or frontier.queued())))
    crawler.fill_stats()
    stats.queued = frontier.queued()
    stats.documents_total = frontier.documents_total()
    frontier.finish_run(run_id, stats.to_json())
    crawler._progress(force=True)
    return stats


def crawl_embedded(
    db: sqlite_utils.Database,
    settings: CrawlSettings | None = None,
    *,
    resolver: urls.Resolver | None = None,
    on_progress: ProgressCallback | None = None,
) -> CrawlStats:
    """Serves the embedded corpus (``data/corpus``) on 127.0.0.1 and crawls it. The previous run's port is
    taken again when free, so a resumed or repeated crawl sees the same URLs, not a second copy of the site."""
    from .corpus_server import serve_folder
    from .resources import corpus_dir

    settings = settings or CrawlSettings(delay=0.0)  # we are the server: no politeness delay needed
    folder = corpus_dir()
    if not folder.is_dir():
        raise UsageError(f"the embedded corpus is missing ({folder}); give a seed instead")
    previous = (Frontier(db).last_run_settings() or {}).get("served_origin") or ""
    with serve_folder(folder, port=urlsplit(previous).port or 0) as base:
        settings.served_origin = base
        return crawl(db, [base + "/"], settings, resolver=resolver, on_progress=on_progress)
