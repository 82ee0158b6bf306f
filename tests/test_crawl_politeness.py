"""Politeness against a real HTTP server on loopback: robots.txt, Crawl-delay, Retry-After, backoff, UA."""

import email.utils
import time

from siteserver import Reply, Site, html

from pipeline.crawl import CrawlSettings, crawl
from pipeline.crawler.retry import backoff_seconds, parse_retry_after
from pipeline.fetch import USER_AGENT
from pipeline.store import open_db


def quick(**overrides) -> CrawlSettings:
    return CrawlSettings(**{"delay": 0.0, "backoff_base": 0.05, "rng_seed": 1, **overrides})


def frontier(db):
    return {
        url: (status, reason) for url, status, reason in db.execute("SELECT url, status, skip_reason FROM frontier")
    }


def test_robots_rules_are_obeyed(db_path):
    site = Site()
    site.page(
        "/robots.txt",
        "User-agent: *\nDisallow: /private/\nAllow: /private/open.html\n"
        "\nUser-agent: shijie\nDisallow: /no-shijie/\nDisallow: /private/\nAllow: /private/open.html\n",
        content_type="text/plain",
    )
    site.page("/", html("home", links=["/private/secret.html", "/private/open.html", "/no-shijie/x.html", "/ok.html"]))
    for path in ("/private/secret.html", "/private/open.html", "/no-shijie/x.html", "/ok.html"):
        site.page(path, html(path))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick())
    assert stats.skipped_robots == 2
    assert not site.hits("/private/secret.html") and not site.hits("/no-shijie/x.html")
    assert site.hits("/private/open.html") and site.hits("/ok.html")
    state = frontier(db)
    assert state[base + "/private/secret.html"] == ("skipped", "robots")
    assert site.requests[0].path == "/robots.txt"  # asked before any page
    assert all(r.headers["user-agent"] == USER_AGENT for r in site.requests)


def test_robots_unavailable_means_crawl_nothing_there(db_path):
    site = Site()
    site.route("/robots.txt", Reply(503, b"down"))
    site.page("/", html("home"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick())
    assert stats.skipped_robots == 1 and stats.stored == 0 and not site.hits("/")


def test_robots_missing_means_no_rules(db_path):
    site = Site()  # /robots.txt answers 404
    site.page("/", html("home", links=["/private/x.html"]))
    site.page("/private/x.html", html("x"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick())
    assert stats.skipped_robots == 0 and stats.stored == 2


def test_crawl_delay_spaces_requests(db_path):
    site = Site()
    site.page("/robots.txt", "User-agent: *\nCrawl-delay: 1\n", content_type="text/plain")
    site.page("/", html("home", links=["/1", "/2", "/3"]))
    for i in range(1, 4):
        site.page(f"/{i}", html(f"page {i}"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(per_host=4, concurrency=4))
    assert stats.stored == 4
    starts = [r.at for r in site.requests]  # robots.txt, then the four pages
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert len(gaps) == 4 and min(gaps) >= 0.75, gaps  # per-host slots do not override Crawl-delay


def test_429_with_retry_after_pauses_the_host(db_path):
    site = Site()
    site.route(
        "/",
        lambda req: (
            Reply(429, b"slow down", headers={"Retry-After": "1"})
            if req.count == 1
            else Reply(body=html("home").encode())
        ),
    )
    site.page("/other", html("other"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/", base + "/other"], quick(per_host=1))
    first, second = site.hits("/")
    assert second.at - first.at >= 0.75  # Retry-After honoured (backoff alone would be 0.05 s)
    # the whole host waited, not only the URL that got the 429 (it was next in line, 0 s delay)
    assert site.hits("/other")[0].at - first.at >= 0.75
    assert stats.retries == 1 and stats.stored == 2 and stats.errors == 0


def test_retry_after_as_http_date(db_path):
    when = email.utils.formatdate(time.time() + 2, usegmt=True)
    site = Site()
    site.route(
        "/",
        lambda req: Reply(503, headers={"Retry-After": when}) if req.count == 1 else Reply(body=html("home").encode()),
    )
    db = open_db(db_path)
    with site.serve() as base:
        crawl(db, [base + "/"], quick())
    first, second = site.hits("/")
    assert second.at - first.at >= 0.75  # an HTTP date one to two seconds ahead (second resolution)


def test_503_then_success_with_backoff(db_path):
    site = Site()
    site.route("/", lambda req: Reply(503, b"busy") if req.count <= 2 else Reply(body=html("home").encode()))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick())
    assert len(site.hits("/")) == 3 and stats.retries == 2 and stats.stored == 1 and stats.errors == 0
    assert db.execute("SELECT attempts FROM frontier WHERE url = ?", (base + "/",)).fetchone()[0] == 3


def test_gives_up_after_max_attempts_and_records_the_error(db_path):
    site = Site()
    site.route("/", Reply(500, b"broken"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(max_attempts=3))
    assert len(site.hits("/")) == 3 and stats.errors == 1
    assert db.execute("SELECT status, error FROM fetch_errors").fetchall() == [(500, "HTTP 500")]


def test_retry_after_parsing_and_backoff_bounds():
    assert parse_retry_after("120") == 120
    assert 59 <= parse_retry_after(email.utils.formatdate(1000060, usegmt=True), now=1000000) <= 60
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None
    for attempt in range(1, 8):
        wait = backoff_seconds(attempt, base=1.0, cap=10.0)
        ceiling = min(10.0, 2 ** (attempt - 1))
        assert ceiling / 2 <= wait <= ceiling
