"""Frontier bounds (issue 11, item 4): what one page or one host can make the crawl hold is capped, and the
summary says when a cap bit.

- links taken from one page: ``max_links_per_page`` (distinct links, in page order);
- rows in the frontier for one host and in all: ``max_frontier_per_host``, ``max_frontier``;
- a URL refused as too long is kept only as its hash: never whole in the table, the ``seen`` set or the
  canonicalization cache."""

import gc
import tracemalloc

from siteserver import Reply, Site, html

from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import Frontier, open_db


def quick(**overrides) -> CrawlSettings:
    return CrawlSettings(**{"delay": 0.0, "backoff_base": 0.05, "rng_seed": 1, **overrides})


def link_page(count: int, prefix: str = "/l/", times: int = 1, then: tuple[int, str] | None = None) -> bytes:
    """A page of ``count`` links ``{prefix}{i}``, written ``times`` times over, then ``then`` = (count, prefix)."""
    anchors = "".join(f'<a href="{prefix}{i}">{i}</a>' for i in range(count)) * times
    if then:
        anchors += "".join(f'<a href="{then[1]}{i}">{i}</a>' for i in range(then[0]))
    return f"<html><body>{anchors}</body></html>".encode()


def test_links_taken_per_page_are_capped(db_path):
    site = Site()
    site.route("/", Reply(body=link_page(5_000, times=2)))  # 5,000 distinct links, each twice
    site.route("/l/*", Reply(body=html("leaf").encode()))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(max_links_per_page=100, max_pages=1))
    assert db.execute("SELECT count(*) FROM frontier").fetchone()[0] == 1 + 100
    assert stats.caps == {"links_per_page": 4_900}
    assert db.execute("SELECT max(url) FROM frontier WHERE depth = 1").fetchone()[0].endswith("/l/99")


def test_the_frontier_is_capped_per_host_and_in_all(db_path):
    site = Site()
    site.route("/", Reply(body=link_page(300, then=(300, "http://other.test/o/"))))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(
            db,
            [base + "/"],
            quick(max_frontier_per_host=50, max_frontier=120, max_pages=1, allow_hosts=["other.test"]),
        )
    per_host = dict(db.execute("SELECT host, count(*) FROM frontier GROUP BY host").fetchall())
    assert per_host[base.split("//")[1]] == 50 and per_host["other.test"] == 50
    assert stats.caps == {"frontier_per_host": 251 + 250}
    with site.serve() as base:
        stats = crawl(open_db(db_path.with_name("b.db")), [base + "/"], quick(max_frontier=120, max_pages=1))
    assert stats.caps == {"frontier": 600 - 119}


def test_the_summary_says_a_cap_bit(cli):
    site = Site()
    site.route("/", Reply(body=link_page(50)))
    with site.serve() as base:
        seeds = cli.db.with_name("seeds.toml")
        seeds.write_text(f'[crawl]\nmax_links_per_page = 10\nmax_pages = 1\ndelay = 0\n\n[[seed]]\nurl = "{base}/"\n')
        result = cli("crawl", str(seeds))
        zh = cli("crawl", str(seeds), "--lang", "zh", "--db", str(cli.db.with_name("zh.db")))
    assert "links beyond 10 per page" in result.stdout and "40" in result.stdout
    assert "每页链接上限" in zh.stdout


def test_long_urls_are_kept_only_by_their_hash(db_path):
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        site = Site()
        long_links = [f"/trap/{i}/" + "x" * 100_000 for i in range(40)]
        site.route("/", Reply(body=html("home", links=[*long_links, "/p1"]).encode()))
        site.route("/p1", Reply(body=html("p1", links=[*long_links, "/p2"]).encode()))  # the same links again
        site.route("/p2", Reply(body=html("p2").encode()))
        db = open_db(db_path)
        with site.serve() as base:
            stats = crawl(db, [base + "/"], quick())
        del site, long_links
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert stats.stored == 3 and stats.skipped["trap"] == 40  # counted once each, though linked twice
    assert db.execute("SELECT max(length(url)) FROM frontier").fetchone()[0] <= 512
    assert (
        db.execute("SELECT count(*) FROM frontier WHERE url LIKE 'sha256:%' AND skip_reason = 'trap'").fetchone()[0]
        == 40
    )
    assert max(len(url) for url in Frontier(db).seen) <= 512
    assert kept < 2_000_000, kept  # 40 x 100 KB would be 4 MB in any cache that held them
