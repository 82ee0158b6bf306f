"""``crawl(db, seeds, settings) -> CrawlStats``: a focused, polite, resumable crawler.

Seeds are URLs, local files or folders (read directly, never over HTTP), ``arxiv:QUERY`` (the arXiv API,
paged, one request per 3 s at most) and seeds files (``*.toml``, see ``data/seeds.toml``); ``pipeline.seeds``
reads them.

How a crawl runs: the frontier in SQLite is the source of truth (see ``pipeline.frontier``). One asyncio
loop claims ready entries in batches, keeps a small queue per host, and starts a request for a host only
when the host has a free slot, its delay since the last start has passed and it is not paused by a 429/503.
Each finished request writes its outcome (document, links, status) in the frontier's open transaction.

Where a link may lead: http(s) only; a host on the allow-list (the seeds' hosts plus ``allow_hosts``; an
entry ``.example.org`` admits its subdomains); never a loopback/private/link-local address unless that very
host is a seed's host (so a page cannot steer the crawler into the local network). Link traps are bounded
by depth, URL length, repeated path segments, and by not following the links of a page whose content is
exactly a page already stored (a catch-all server answering every path with one page). Redirects are not followed inside a request: the target is
queued like a link (same checks, its own politeness slot), with at most ``max_redirects`` hops in a chain.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import sqlite_utils

from . import urls
from .errors import UsageError
from .extract import Unreadable, UnsupportedType, extract, kind_for_path
from .fetch import REDIRECTS, ClientPool, FetchError
from .frontier import Entry, Frontier
from .politeness import HostState, Robots, backoff_seconds, parse_retry_after
from .seeds import Seeds, arxiv_api, arxiv_query_url, load_seeds_file, parse_seeds  # noqa: F401 (re-exported)


@dataclass
class CrawlSettings:
    max_pages: int = 1000  # requests that finish in this run (a resumed run keeps counting)
    max_depth: int = 4
    concurrency: int = 8
    per_host: int = 2  # concurrent requests to one host
    delay: float = 1.0  # seconds between request starts on one host (robots Crawl-delay may raise it)
    allow_hosts: list[str] = field(default_factory=list)
    recrawl: bool = False  # fetch finished pages again (conditional requests)
    max_bytes: int = 10 * 1024 * 1024
    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    response_budget: float = 60.0  # wall-clock seconds for a whole response (slow-drip servers)
    max_redirects: int = 5
    max_attempts: int = 4
    backoff_base: float = 2.0
    backoff_cap: float = 300.0
    max_retry_after: float = 3600.0  # a longer Retry-After gives the entry up for this run
    max_crawl_delay: float = 60.0
    max_url_length: int = 512
    max_segment_repeats: int = 2
    arxiv_api: str = field(default_factory=arxiv_api)
    arxiv_delay: float = 3.0
    arxiv_page_size: int = 50
    arxiv_max_results: int = 200
    served_origin: str | None = None  # set when crawling the embedded corpus served on loopback
    resolver: Callable[[str], list[str]] | None = None  # host name → addresses (tests; default: system)
    on_progress: Callable[[CrawlStats], None] | None = None
    rng_seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        # not asdict(): it deep-copies every field first, and the callbacks may hold locks (a rich console)
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("resolver", "on_progress")}


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


# -- the crawler -----------------------------------------------------------------------------------------


class Crawler:
    def __init__(self, db: sqlite_utils.Database, seeds: Seeds, settings: CrawlSettings):
        self.settings = settings
        self.seeds = seeds
        self.frontier = Frontier(db)
        self.stats = CrawlStats()
        self.rng = random.Random(settings.rng_seed)
        self.hosts: dict[str, HostState] = {}
        self.skips: Counter[str] = Counter()
        api_host = urls.host_of(urls.canonical(settings.arxiv_api) or settings.arxiv_api)
        self.api_host = api_host
        self.seed_hosts = {urls.host_of(u) for u in seeds.urls} | ({api_host} if seeds.arxiv else set())
        self.allowed_exact = set(self.seed_hosts)
        self.allowed_suffixes: list[str] = []
        for host in settings.allow_hosts:
            host = host.strip().lower()
            (self.allowed_suffixes.append(host) if host.startswith(".") else self.allowed_exact.add(host))
        self.run_id = 0
        self.pages_base = 0  # requests a resumed run had already finished
        self._hop_counts: dict[str, int] = {}  # redirect target → hops from the first URL of its chain
        self._inflight = 0
        self._claim_wanted = True
        self._started = time.monotonic()
        self._last_progress = 0.0

    @property
    def pages_done(self) -> int:
        return self.pages_base + self.frontier.finished_fetches

    # -- policy --------------------------------------------------------------------------------------------

    def allowed(self, host: str) -> bool:
        if host in self.allowed_exact or urls.hostname_of(host) in self.allowed_exact:
            return True
        name = urls.hostname_of(host)
        return any(name.endswith(suffix) or name == suffix[1:] for suffix in self.allowed_suffixes)

    def _literal_private(self, host: str) -> bool:
        """Private by its spelling alone (IP literal, localhost): decided at once, no resolver needed."""
        name = urls.hostname_of(host).lower()
        if name == "localhost" or name.endswith(".localhost"):
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return urls.is_private_host(host)

    def discover(
        self, raw: str, base: str | None, depth: int, parent: str | None, kind: str = "page", check_scope: bool = True
    ) -> str | None:
        """Queues a link (or records why not); returns its canonical URL."""
        url = urls.canonical(raw, base)
        if url is None or url in self.frontier.seen:
            return url
        if url.startswith("file:"):
            reason = "unsafe"
            host = ""
        else:
            host = urls.host_of(url)
            reason = None
            if host not in self.seed_hosts and self._literal_private(host):
                reason = "unsafe"
            elif check_scope and not self.allowed(host):
                reason = "offsite"
            elif check_scope and depth > self.settings.max_depth:
                reason = "depth"
            elif urls.trap_reason(url, self.settings.max_url_length, self.settings.max_segment_repeats):
                reason = "trap"
            elif url in self.frontier.discarded:
                reason = "discarded"
        if reason:
            self.skips[reason] += 1
            if reason == "depth":
                return url  # counted, not stored: a trap would fill the frontier with them
        self.frontier.add(
            url, host, depth, parent, kind=kind, status="skipped" if reason else "queued", skip_reason=reason
        )
        if not reason:
            self._claim_wanted = True
        return url

    # -- hosts ---------------------------------------------------------------------------------------------

    def host_state(self, host: str) -> HostState:
        state = self.hosts.get(host)
        if state is None:
            s = self.settings
            if host == self.api_host and self.seeds.arxiv:
                state = HostState(host, delay=max(s.delay, s.arxiv_delay), slots=1)
            else:
                state = HostState(host, delay=s.delay, slots=max(1, s.per_host))
            self.hosts[host] = state
            state.init_task = asyncio.ensure_future(self._init_host(state))
        return state

    async def _init_host(self, state: HostState) -> None:
        """Checks where the host's name leads, then reads its robots.txt (before any page request)."""
        try:
            await self._check_host(state)
        except Exception as exc:  # never leave a host unchecked: its entries would wait forever
            state.robots = Robots(disallow_all=True, note=f"host check failed ({exc.__class__.__name__}: {exc})")
        state.checked = True

    async def _check_host(self, state: HostState) -> None:
        host = state.host
        if host not in self.seed_hosts:
            resolver = self.settings.resolver
            private = await asyncio.to_thread(urls.is_private_host, host, resolver)
            state.private_ok = not private
        if state.private_ok and not (host == self.api_host and self.seeds.arxiv):
            asked_at = time.monotonic()
            state.robots = await self._fetch_robots(state)
            crawl_delay = min(state.robots.crawl_delay(), self.settings.max_crawl_delay)
            state.delay = max(state.delay, crawl_delay)
            state.next_start = asked_at + state.delay  # the robots.txt request counts as the host's first

    async def _fetch_robots(self, state: HostState) -> Robots:
        # The host's scheme is the one of the entry that brought it here (claimed before this runs).
        origin = urls.origin_of(state.queue[0].url) if state.queue else f"http://{state.host}"
        url = f"{origin}/robots.txt"
        for _ in range(self.settings.max_redirects + 1):
            try:
                response = await self.http.fetch(
                    url, max_bytes=512 * 1024, budget_s=min(30.0, self.settings.response_budget)
                )
            except FetchError as exc:
                return Robots.from_response(None, f"{exc}".encode())
            if response.status in REDIRECTS and response.headers.get("location"):
                target = urls.canonical(response.headers["location"], url)
                if target is None or target.startswith("file:"):
                    return Robots()
                target_host = urls.host_of(target)
                if target_host not in self.seed_hosts and await asyncio.to_thread(
                    urls.is_private_host, target_host, self.settings.resolver
                ):
                    return Robots()
                url = target
                continue
            return Robots.from_response(response.status, response.body)
        return Robots()

    # -- one entry -------------------------------------------------------------------------------------------

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
            self._failed(entry, None, str(exc), exc.retryable)
            return
        self.stats.fetched += 1
        self.stats.bytes += response.wire_bytes
        status = response.status
        if status == 304:
            self.stats.not_modified += 1
            self.frontier.finish(entry, self.run_id)
        elif status in REDIRECTS:
            self._redirect(entry, response)
        elif status == 429 or status >= 500:
            self._failed(entry, status, f"HTTP {status}", True, response.headers.get("retry-after"), state)
        elif 200 <= status < 300:
            await self._document(entry, response)
        else:
            self._failed(entry, status, f"HTTP {status}", False)

    def _failed(
        self,
        entry: Entry,
        status: int | None,
        error: str,
        retryable: bool,
        retry_after: str | None = None,
        state: HostState | None = None,
    ) -> None:
        s = self.settings
        attempt = entry.attempts + 1
        wait = parse_retry_after(retry_after)
        if wait is not None and wait > s.max_retry_after:
            retryable, error = False, f"{error}, Retry-After {wait:.0f} s is longer than {s.max_retry_after:g} s"
        if retryable and attempt < s.max_attempts:
            if wait is None:
                wait = backoff_seconds(attempt, s.backoff_base, s.backoff_cap, self.rng)
            until = time.time() + wait
            if state is not None and status in (429, 503):
                # The host says it is overloaded: pause it whole, and hand its queued entries back.
                state.paused_until = max(state.paused_until, until)
                if state.queue:
                    self.frontier.unclaim(list(state.queue), state.paused_until)
                    state.queue.clear()
            self.frontier.retry(entry, until, error)
            self.stats.retries += 1
            self._claim_wanted = True
            return
        self.stats.errors += 1
        self.frontier.record_error(entry.url, status, error)
        self.frontier.finish(entry, self.run_id, status="error", error=error, fetched=status is not None)

    def _redirect(self, entry: Entry, response) -> None:
        location = response.headers.get("location")
        hops = self._hops(entry)
        if not location:
            self._failed(entry, response.status, f"HTTP {response.status} without Location", False)
            return
        if hops >= self.settings.max_redirects:
            self._failed(entry, response.status, f"more than {self.settings.max_redirects} redirects", False)
            return
        target = urls.canonical(location, entry.url)
        if target and entry.depth == 0 and entry.kind == "page" and not target.startswith("file:"):
            self.allowed_exact.add(urls.host_of(target))  # a seed that moved: its new host is in scope
        if target:
            self._hop_counts[target] = hops + 1
            self.discover(target, None, entry.depth, entry.url, kind=entry.kind, check_scope=entry.depth > 0)
        self.frontier.finish(entry, self.run_id, skip_reason="redirect", error=f"{response.status} → {target}")

    def _hops(self, entry: Entry) -> int:
        return self._hop_counts.get(entry.url, 0)

    async def _document(self, entry: Entry, response) -> None:
        body = response.body
        ctype = response.headers.get("content-type")
        try:
            if body[:5] == b"%PDF-" or "pdf" in (ctype or ""):
                extraction = await asyncio.to_thread(extract, body, ctype, entry.url)
            else:
                extraction = extract(body, ctype, entry.url)
        except UnsupportedType as exc:
            self.skips["type"] += 1
            self.frontier.finish(entry, self.run_id, status="skipped", skip_reason="type", error=str(exc))
            return
        except Unreadable as exc:
            self._failed(entry, response.status, str(exc), False)
            return
        etag = response.headers.get("etag")
        last_modified = response.headers.get("last-modified")
        outcomes = self._store(entry, extraction, response.url, ctype, len(body), etag, last_modified)
        if entry.kind == "arxiv-api":
            self._next_arxiv_page(entry, extraction)
        elif outcomes == ["duplicate"]:
            # Exactly the content of a page we have, under a new URL: its links are that page's links (or,
            # relative, the same links one level deeper: how a calendar or catch-all trap grows). Not followed.
            self.skips["links of duplicate"] += 1
        elif extraction.follow:
            for link in extraction.links:
                self.discover(link, entry.url, entry.depth + 1, entry.url)
        self.frontier.finish(entry, self.run_id, etag=etag, last_modified=last_modified)

    def _store(self, entry: Entry, extraction, final_url, ctype, size, etag, last_modified) -> list[str]:
        outcomes: list[str] = []
        if not extraction.documents or all(not d.text.strip() for d in extraction.documents):
            if entry.kind != "arxiv-api":
                self.skips["empty"] += 1
            return outcomes
        for doc in extraction.documents:
            if not doc.text.strip():
                continue
            outcome = self.frontier.store_document(
                entry.url,
                doc,
                final_url=final_url,
                content_type=ctype,
                byte_size=size,
                etag=etag if doc.url is None else None,
                last_modified=last_modified if doc.url is None else None,
                depth=entry.depth,
            )
            outcomes.append(outcome)
            if outcome == "stored":
                self.stats.stored += 1
            elif outcome == "duplicate":
                self.stats.duplicates += 1
            elif outcome in ("updated", "replaced"):
                self.stats.updated += 1
        return outcomes

    def _next_arxiv_page(self, entry: Entry, extraction) -> None:
        query = parse_qs(urlsplit(entry.url).query)
        paging = extraction.paging
        try:
            start = int(query["start"][0])
            size = int(query["max_results"][0])
            search = query["search_query"][0]
        except (KeyError, ValueError, IndexError):
            return
        if not paging or not extraction.documents:
            return
        following = start + size
        if following < min(paging["total_results"], self.settings.arxiv_max_results):
            api = entry.url.split("?", 1)[0]
            self.discover(
                arxiv_query_url(api, search, following, size), None, 0, entry.url, kind="arxiv-api", check_scope=False
            )

    # -- local files ---------------------------------------------------------------------------------------

    def crawl_paths(self, paths: list[Path]) -> None:
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
        for path in files:
            if self.pages_done >= self.settings.max_pages:
                break
            url = urls.canonical(path.resolve().as_uri())
            stamp = str(path.stat().st_mtime_ns)
            row = self.frontier.conn.execute(
                "SELECT status, last_modified FROM frontier WHERE url = ?", (url,)
            ).fetchone()
            if row is not None and row[0] == "done" and row[1] == stamp and not self.settings.recrawl:
                continue
            if row is None:
                self.frontier.add(url, "", 0, None, kind="file", status="fetching")
            entry = Entry(url, "", 0, "file", 0, None, None, None)
            ctype = kind_for_path(path.name)
            if ctype is None:
                self.skips["type"] += 1
                self.frontier.finish(
                    entry,
                    self.run_id,
                    status="skipped",
                    skip_reason="type",
                    error=f"{path.suffix or 'no extension'} files are not read",
                )
                continue
            if path.stat().st_size > self.settings.max_bytes:
                self._failed(entry, None, f"file larger than {self.settings.max_bytes} bytes", False)
                continue
            body = path.read_bytes()
            self.stats.fetched += 1
            try:
                extraction = extract(body, ctype, url)
            except UnsupportedType as exc:
                self.skips["type"] += 1
                self.frontier.finish(entry, self.run_id, status="skipped", skip_reason="type", error=str(exc))
                continue
            except Unreadable as exc:
                self._failed(entry, None, str(exc), False)
                continue
            self._store(entry, extraction, None, ctype, len(body), None, stamp)
            self.frontier.finish(entry, self.run_id, last_modified=stamp)
            self.frontier.maybe_commit()

    # -- the loop ------------------------------------------------------------------------------------------

    def _progress(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.settings.on_progress and (force or now - self._last_progress >= 0.2):
            self._last_progress = now
            self._fill_stats()
            self.settings.on_progress(self.stats)

    def _fill_stats(self) -> None:
        self.stats.elapsed_s = round(time.monotonic() - self._started, 3)
        self.stats.skipped = dict(self.skips)
        self.stats.skipped_robots = self.skips.get("robots", 0)
        self.stats.inflight = self._inflight
        self.stats.queued = self.frontier.queued()
        self.stats.pages_per_s = round(self.stats.fetched / self.stats.elapsed_s, 1) if self.stats.elapsed_s else 0.0

    async def run_http(self) -> None:
        s = self.settings
        tasks: set[asyncio.Task] = set()
        buffer_per_host = max(4, 2 * s.per_host)
        next_claim = 0.0
        try:
            while True:
                now_m, now_w = time.monotonic(), time.time()
                budget = s.max_pages - self.pages_done - len(tasks)
                # 1. start what may start
                for state in list(self.hosts.values()):
                    if not state.queue or not state.checked:
                        continue
                    while state.queue and budget > 0 and len(tasks) < s.concurrency and state.ready(now_m, now_w):
                        entry = state.queue.popleft()
                        if not state.private_ok:
                            self.skips["unsafe"] += 1
                            self.frontier.finish(
                                entry,
                                self.run_id,
                                status="skipped",
                                skip_reason="unsafe",
                                error="host resolves to a private address",
                                fetched=False,
                            )
                            continue
                        if state.robots is not None and entry.kind == "page" and not state.robots.allows(entry.url):
                            self.skips["robots"] += 1
                            self.frontier.finish(
                                entry,
                                self.run_id,
                                status="skipped",
                                skip_reason="robots",
                                error=state.robots.note or None,
                                fetched=False,
                            )
                            continue
                        state.started(now_m)
                        tasks.add(asyncio.ensure_future(self.process(entry, state)))
                        budget -= 1
                # 2. claim more when there is room and something may be ready
                buffered = sum(len(st.queue) for st in self.hosts.values())
                if budget > buffered and len(tasks) < s.concurrency and (self._claim_wanted or now_m >= next_claim):
                    full = [h for h, st in self.hosts.items() if len(st.queue) >= buffer_per_host]
                    claimed = self.frontier.claim(min(budget - buffered, 4 * s.concurrency), buffer_per_host, full)
                    self._claim_wanted = False
                    next_claim = now_m + 0.25
                    for entry in claimed:
                        if entry.url in self.frontier.discarded:
                            self.skips["discarded"] += 1
                            self.frontier.finish(
                                entry, self.run_id, status="skipped", skip_reason="discarded", fetched=False
                            )
                        else:
                            self.host_state(entry.host).queue.append(entry)
                    if claimed:
                        continue
                # 3. done?
                if not tasks and not any(st.queue for st in self.hosts.values()):
                    if budget <= 0:
                        break
                    wake = self.frontier.next_wakeup()
                    if wake is None:
                        break
                    self.frontier.commit()
                    await asyncio.sleep(min(max(wake - time.time(), 0.01), 1.0))
                    self._claim_wanted = True
                    continue
                # 4. wait for a request to finish or a host to become ready
                timeout = 0.25
                for st in self.hosts.values():
                    if st.queue and st.checked and st.active < st.slots:
                        timeout = min(timeout, max(st.next_start - now_m, st.paused_until - now_w, 0.002))
                    elif st.queue and not st.checked:
                        timeout = min(timeout, 0.01)
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
            leftover = [e for st in self.hosts.values() for e in st.queue]
            if leftover:
                self.frontier.unclaim(leftover, 0)
            for st in self.hosts.values():
                st.queue.clear()
                task = getattr(st, "init_task", None)
                if task is not None and not task.done():
                    task.cancel()
            self.frontier.commit()

    async def run(self) -> CrawlStats:
        self.http = ClientPool(self.settings.concurrency, self.settings.connect_timeout, self.settings.read_timeout)
        try:
            await self.run_http()
        finally:
            await self.http.aclose()
        return self.stats


def crawl(db: sqlite_utils.Database, seeds: list[str], settings: CrawlSettings | None = None) -> CrawlStats:
    """Crawls ``seeds`` into ``db``, resuming an unfinished crawl there; returns this invocation's stats."""
    settings = settings or CrawlSettings()
    for name, least in (("max_pages", 0), ("max_depth", 0), ("concurrency", 1), ("per_host", 1), ("delay", 0)):
        if getattr(settings, name) < least:
            raise UsageError(f"must be ≥ {least}, not {getattr(settings, name)}", field=name)
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
    crawler = Crawler(db, parsed, settings)
    frontier = crawler.frontier
    if previous:
        crawler.run_id = previous["id"]
        crawler.stats.resumed = True
        frontier.resume()
        frontier.update_run_settings(crawler.run_id, settings.to_json())
        frontier._write("UPDATE crawl_runs SET seeds = ? WHERE id = ?", (json.dumps(all_seeds), crawler.run_id))
    else:
        crawler.run_id = frontier.start_run(all_seeds, settings.to_json())
        if settings.recrawl:
            frontier.requeue_finished()
            frontier.seen = {row[0] for row in frontier.conn.execute("SELECT url FROM frontier")}
    crawler.stats.run_id = crawler.run_id
    crawler.pages_base = frontier.pages_done(crawler.run_id)
    for url in parsed.urls:
        crawler.discover(url, None, 0, None, check_scope=False)
    for query in parsed.arxiv:
        url = arxiv_query_url(settings.arxiv_api, query, 0, settings.arxiv_page_size)
        crawler.discover(url, None, 0, None, kind="arxiv-api", check_scope=False)
    frontier.commit()
    crawler.crawl_paths(parsed.paths)
    frontier.commit()
    if parsed.urls or parsed.arxiv or frontier.queued():
        asyncio.run(crawler.run())
    crawler._fill_stats()
    stats = crawler.stats
    stats.queued = frontier.queued()
    stats.documents_total = db.execute("SELECT count(*) FROM documents").fetchone()[0]
    frontier.finish_run(crawler.run_id, stats.to_json())
    crawler._progress(force=True)
    return stats


def crawl_embedded(db: sqlite_utils.Database, settings: CrawlSettings | None = None) -> CrawlStats:
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
        return crawl(db, [base + "/"], settings)
