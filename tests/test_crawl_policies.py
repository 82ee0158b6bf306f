"""Each crawl policy alone, on a real frontier in a real SQLite file: scope, redirects, retry, arXiv paging, ledger."""

import asyncio
import time

import pytest

from pipeline import urls
from pipeline.crawler import arxiv
from pipeline.crawler.hosts import HostState
from pipeline.crawler.ledger import CrawlStats, Ledger, Outcome, SkipReason
from pipeline.crawler.redirects import Redirects
from pipeline.crawler.retry import RetryPolicy
from pipeline.crawler.scope import Scope
from pipeline.crawler.settings import CrawlSettings
from pipeline.extract import Document, Extraction
from pipeline.store import Frontier
from pipeline.store import open_db

SEED = "docs.example.org"


def never(name):
    raise AssertionError(f"{name} must not be resolved here")


@pytest.fixture
def frontier(db_path):
    return Frontier(open_db(db_path))


def claimed(frontier, *paths, depth=0, kind="page", host=SEED):
    for path in paths:
        frontier.add(f"http://{host}{path}", host, depth, None, kind=kind)
    return frontier.claim(len(paths), len(paths))


def row(frontier, url):
    return frontier.conn.execute(
        "SELECT status, skip_reason, last_error, attempts, next_try FROM frontier WHERE url = ?", (url,)
    ).fetchone()


def test_scope_judges_in_order_safety_allow_list_depth_traps_discards():
    discarded = {"http://docs.example.org/gone"}
    scope = Scope(CrawlSettings(max_depth=2), {SEED, "127.0.0.1:8000"}, discarded, resolver=never)
    judge = scope.judge
    assert judge("file:///etc/passwd", 0, check_scope=False) == SkipReason.UNSAFE
    assert judge("http://127.0.0.2/x", 1) == SkipReason.UNSAFE  # private by spelling, before offsite
    assert judge("http://[::1]/x", 1) == SkipReason.UNSAFE
    assert judge("http://127.0.0.1:8000/x", 1) is None  # a seed's host may be private
    assert judge("http://elsewhere.example/x", 1) == SkipReason.OFFSITE
    assert judge("http://elsewhere.example/x", 0, check_scope=False) is None
    assert judge("http://docs.example.org/x", 3) == SkipReason.DEPTH
    assert judge("http://docs.example.org/x", 3, check_scope=False) is None
    assert judge("http://docs.example.org/a/a/a/", 1) == SkipReason.TRAP
    assert judge("http://docs.example.org/" + "x" * 600, 1) == SkipReason.TRAP
    assert judge("http://docs.example.org/gone", 1) == SkipReason.DISCARDED
    discarded.add("http://docs.example.org/later")  # the frontier's set is read live
    assert scope.is_discarded("http://docs.example.org/later")
    scope.admit("elsewhere.example")
    assert judge("http://elsewhere.example/x", 1) is None


def test_scope_resolves_names_off_the_loop_but_never_a_seeds_host():
    scope = Scope(CrawlSettings(), {SEED}, set(), resolver=lambda name: {"intranet.test": ["10.0.0.8"]}.get(name, []))
    assert asyncio.run(scope.leads_private("intranet.test"))
    assert not asyncio.run(scope.leads_private("public.test"))
    assert not asyncio.run(Scope(CrawlSettings(), {SEED}, set(), resolver=never).leads_private(SEED))
    # by spelling alone, a name is never private and nothing is resolved
    assert not urls.is_private_host("intranet.test", never, resolve=False)
    assert urls.is_private_host("api.localhost:8080", never, resolve=False)


def test_redirects_count_hops_and_a_moved_seed_takes_its_host_into_scope(frontier):
    stats = CrawlStats()
    ledger = Ledger(frontier, 1, stats)
    scope = Scope(CrawlSettings(), {SEED}, set())
    redirects = Redirects(2, scope, ledger)
    (seed,) = claimed(frontier, "/")
    assert redirects.follow(seed, 301, "https://moved.example/docs/") == "https://moved.example/docs/"
    assert scope.allowed("moved.example")
    assert row(frontier, seed.url)[:3] == ("done", "redirect", "301 → https://moved.example/docs/")
    # a chain below the seed: hop 1, hop 2, then the third is refused
    hop0, hop1, hop2 = claimed(frontier, "/a", "/b", "/c", depth=1)
    assert redirects.follow(hop0, 302, "/b") == hop1.url
    assert redirects.follow(hop1, 302, "/c") == hop2.url
    assert redirects.follow(hop2, 302, "/d") is None
    assert row(frontier, hop2.url)[:3] == ("error", None, "more than 2 redirects")
    assert not scope.allowed("elsewhere.example")  # only depth-0 pages move the scope
    (bare,) = claimed(frontier, "/bare", depth=1)
    assert redirects.follow(bare, 307, None) is None
    assert row(frontier, bare.url)[2] == "HTTP 307 without Location"
    assert stats.errors == 2


def test_retry_waits_pauses_the_host_on_429_and_503_and_gives_up(frontier):
    settings = CrawlSettings(max_attempts=3, backoff_base=10.0, max_retry_after=60.0, rng_seed=1)
    stats = CrawlStats()
    policy = RetryPolicy(settings, Ledger(frontier, 1, stats))
    busy, queued_a, queued_b = claimed(frontier, "/busy", "/a", "/b")
    host = HostState(SEED, delay=0.0, slots=2)
    host.queue.extend([queued_a, queued_b])
    before = time.time()
    assert policy.failed(busy, 503, "HTTP 503", True, "30", host)
    status, _, error, attempts, next_try = row(frontier, busy.url)
    assert (status, error, attempts) == ("queued", "HTTP 503", 1) and before + 29 <= next_try <= time.time() + 30
    assert not host.queue and host.paused_until == pytest.approx(next_try)
    assert row(frontier, queued_a.url)[0] == "queued" and row(frontier, queued_a.url)[4] == host.paused_until
    # no Retry-After: backoff within [base/2, base] for the first attempt; a 500 does not pause the host
    (flaky,) = claimed(frontier, "/flaky")
    host.paused_until = 0.0
    assert policy.failed(flaky, 500, "HTTP 500", True, None, host)
    assert host.paused_until == 0.0 and before + 5 <= row(frontier, flaky.url)[4] <= time.time() + 10
    # given up: too long a Retry-After, the last attempt, a failure that is not retryable
    (patient,) = claimed(frontier, "/patient")
    assert not policy.failed(patient, 429, "HTTP 429", True, "7200", host)
    assert row(frontier, patient.url)[2] == "HTTP 429, Retry-After 7200 s is longer than 60 s"
    (tired,) = claimed(frontier, "/tired")
    tired.attempts = 2
    assert not policy.failed(tired, None, "ConnectError", True)
    assert row(frontier, tired.url)[:3] == ("error", None, "ConnectError")
    (gone,) = claimed(frontier, "/gone")
    assert not policy.failed(gone, 404, "HTTP 404", False)
    assert (stats.retries, stats.errors) == (2, 3)
    errors = frontier.conn.execute("SELECT url, status FROM fetch_errors ORDER BY id").fetchall()
    assert errors == [(patient.url, 429), (tired.url, None), (gone.url, 404)]


def test_arxiv_paging_stops_at_the_total_the_cap_or_an_empty_page():
    api = "http://127.0.0.1:9/api/query"
    page = Extraction([Document("arxiv", "t", "text")], paging={"total_results": 120})
    first = arxiv.query_url(api, "all:flash attention", 0, 50)
    second = arxiv.next_page(first, page, max_results=200)
    assert second == arxiv.query_url(api, "all:flash attention", 50, 50)
    third = arxiv.next_page(second, page, max_results=200)
    assert arxiv.next_page(third, page, max_results=200) is None  # 150 ≥ 120 results
    assert arxiv.next_page(first, page, max_results=50) is None  # the cap
    assert arxiv.next_page(first, Extraction([], paging={"total_results": 120}), max_results=200) is None
    assert arxiv.next_page(api + "?start=x", page, max_results=200) is None
    assert arxiv.api_host(api) == "127.0.0.1:9"


def test_ledger_writes_and_counts_each_end_in_one_place(frontier):
    stats = CrawlStats()
    ledger = Ledger(frontier, 7, stats)
    robots, typed, done = claimed(frontier, "/r", "/t", "/d")
    ledger.skip(robots, SkipReason.ROBOTS, "robots.txt unavailable (503)", fetched=False)
    ledger.skip(typed, SkipReason.TYPE, "content type application/zip is not read", fetched=True)
    ledger.count(SkipReason.DEPTH)
    ledger.done(done, etag='"v1"')
    for outcome in (Outcome.STORED, Outcome.DUPLICATE, Outcome.REPLACED, Outcome.UPDATED, Outcome.UNCHANGED):
        ledger.stored(outcome)
    assert ledger.skipped() == {"robots": 1, "type": 1, "depth": 1}
    assert all(type(key) is str for key in ledger.skipped())
    assert (stats.stored, stats.duplicates, stats.updated) == (1, 1, 2)
    assert row(frontier, robots.url)[:4] == ("skipped", "robots", "robots.txt unavailable (503)", 0)
    assert row(frontier, typed.url)[:2] == ("skipped", "type") and row(frontier, typed.url)[3] == 1
    assert frontier.pages_done(7) == 2  # the type skip and the done entry spent a request, robots did not
