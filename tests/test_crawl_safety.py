"""Hostile or broken servers: redirect loops, compression bombs, slow drips, binary content, link traps,
and links that try to lead the crawler into the local network."""

import gzip
import zlib

from siteserver import Reply, Site, html

from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db


def quick(**overrides) -> CrawlSettings:
    return CrawlSettings(**{"delay": 0.0, "backoff_base": 0.05, "rng_seed": 1, **overrides})


def rows(db, sql, *args):
    return db.execute(sql, args).fetchall()


def test_redirect_loop_ends(db_path):
    site = Site()
    site.page("/", html("home", links=["/loop/a"]))
    site.route("/loop/a", Reply(302, headers={"Location": "/loop/b"}))
    site.route("/loop/b", Reply(301, headers={"Location": "/loop/a"}))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick())
    assert len(site.hits("/loop/a")) == 1 and len(site.hits("/loop/b")) == 1
    assert stats.stored == 1 and stats.queued == 0


def test_redirect_chain_is_capped(db_path):
    site = Site()
    for i in range(20):
        site.route(f"/r/{i}", Reply(302, headers={"Location": f"/r/{i + 1}"}))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/r/0"], quick(max_redirects=3))
    assert [r.path for r in site.requests if r.path != "/robots.txt"] == ["/r/0", "/r/1", "/r/2", "/r/3"]
    assert stats.errors == 1
    assert "more than 3 redirects" in rows(db, "SELECT error FROM fetch_errors")[0][0]


def test_redirect_into_loopback_from_a_public_seed_is_refused(db_path):
    """The seed is on 127.0.0.2; a redirect to 127.0.0.1 (another loopback host, even allow-listed) is unsafe."""
    victim = Site("127.0.0.1")
    victim.page("/admin", html("admin secrets"))
    site = Site("127.0.0.2")
    with victim.serve() as victim_base, site.serve() as base:
        site.page("/", html("home", links=["/go", victim_base + "/admin"]))
        site.route("/go", Reply(302, headers={"Location": victim_base + "/admin?via=redirect"}))
        db = open_db(db_path)
        stats = crawl(db, [base + "/"], quick(allow_hosts=[victim_base.split("//")[1]]))
    assert victim.requests == []  # nothing ever reached the other host
    skipped = dict(rows(db, "SELECT url, skip_reason FROM frontier WHERE status = 'skipped'"))
    assert skipped == {victim_base + "/admin": "unsafe", victim_base + "/admin?via=redirect": "unsafe"}
    assert stats.skipped["unsafe"] == 2


def test_names_resolving_to_private_addresses_are_refused(db_path):
    """A host name (here: one the test's resolver maps into 10/8) is checked where it leads before any request."""
    site = Site()
    site.page("/", html("home", links=["http://intranet.example.test/secret"]))
    db = open_db(db_path)
    with site.serve() as base:
        crawl(
            db,
            [base + "/"],
            quick(allow_hosts=["intranet.example.test"]),
            resolver=lambda name: ["10.0.0.8"] if name == "intranet.example.test" else [],
        )
    assert rows(db, "SELECT skip_reason FROM frontier WHERE url LIKE 'http://intranet%'") == [("unsafe",)]


def test_allow_list_keeps_the_crawl_on_its_hosts(db_path):
    from pipeline import urls
    from pipeline.crawler.scope import Scope

    site = Site()
    site.page("/", html("home", links=["http://elsewhere.example/page", "https://docs.example.org/x"]))
    db = open_db(db_path)
    with site.serve() as base:
        crawl(db, [base + "/"], quick())
    assert set(rows(db, "SELECT url, skip_reason FROM frontier WHERE skip_reason IS NOT NULL")) == {
        ("http://elsewhere.example/page", "offsite"),
        ("https://docs.example.org/x", "offsite"),
    }
    scope = Scope(quick(allow_hosts=[".example.org", "elsewhere.example"]), {urls.host_of(base + "/")}, set())
    assert scope.allowed("docs.example.org") and scope.allowed("example.org")
    assert scope.allowed("elsewhere.example:8080") and not scope.allowed("badexample.org")
    assert not scope.allowed("sub.elsewhere.example")


def test_file_links_are_never_followed(db_path):
    site = Site()
    site.page("/", html("home", links=["file:///etc/passwd"]))
    db = open_db(db_path)
    with site.serve() as base:
        crawl(db, [base + "/"], quick())
    assert rows(db, "SELECT url, skip_reason FROM frontier WHERE url LIKE 'file:%'") == [
        ("file:///etc/passwd", "unsafe")
    ]


def test_gzip_bomb_stops_at_the_cap(db_path):
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9)  # 64 MiB of zeros in ~64 KiB
    assert len(bomb) < 100_000
    site = Site()
    site.page("/", html("home", links=["/bomb", "/deflated"]))
    site.route("/bomb", Reply(body=bomb, headers={"Content-Encoding": "gzip"}))
    site.route(
        "/deflated",
        Reply(
            body=zlib.compress(html("fine", "small deflated page").encode()), headers={"Content-Encoding": "deflate"}
        ),
    )
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(max_bytes=1024 * 1024))
    errors = dict(rows(db, "SELECT url, error FROM fetch_errors"))
    assert "after decompression" in errors[base + "/bomb"]
    assert stats.stored == 2  # home and the deflated page
    assert "small deflated page" in rows(db, "SELECT text FROM documents WHERE url = ?", base + "/deflated")[0][0]


def test_oversized_body_is_cut(db_path):
    site = Site()
    site.route("/", Reply(body=b"<p>" + b"x" * 300_000 + b"</p>"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(max_bytes=100_000))
    assert stats.errors == 1 and stats.stored == 0


def test_slow_drip_is_cut_by_the_response_budget(db_path):
    site = Site()
    site.page("/", html("home", links=["/drip", "/fast"]))
    site.route("/drip", Reply(body=b"<p>" + b"z" * 200 + b"</p>", drip_s=0.05))  # ~10 s in all
    site.page("/fast", html("fast"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(response_budget=1.0, read_timeout=5.0))
    assert "within 1 s" in rows(db, "SELECT error FROM fetch_errors WHERE url LIKE '%/drip'")[0][0]
    assert stats.stored == 2 and stats.errors == 1


def test_binary_content_is_recorded_and_skipped(db_path):
    site = Site()
    site.page("/", html("home", links=["/img.png", "/blob", "/data.bin"]))
    site.route("/img.png", Reply(body=b"\x89PNG\r\n\x1a\n" + bytes(500), content_type="image/png"))
    site.route("/blob", Reply(body=bytes(range(256)) * 4, content_type=None))
    site.route("/data.bin", Reply(body=bytes(range(256)) * 4, content_type="application/octet-stream"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick())
    assert stats.skipped["type"] == 3 and stats.stored == 1
    assert {r[0] for r in rows(db, "SELECT skip_reason FROM frontier WHERE url != ?", base + "/")} == {"type"}


def test_malformed_and_non_utf8_pages_are_stored(db_path):
    site = Site()
    site.page(
        "/",
        "<html><body><div><p>Broken <b>markup<div><table><tr><td>cell</p></span>"
        + "".join(f'<a href="/p{i}">' for i in range(2)),
    )
    site.route("/p0", Reply(body='<meta charset="gbk"><p>共享内存分块</p>'.encode("gbk")))
    site.route("/p1", Reply(body="<p>Mémoire partagée</p>".encode("cp1252"), content_type="text/html"))
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick())
    texts = [t for (t,) in rows(db, "SELECT text FROM documents")]
    assert stats.stored == 3 and stats.errors == 0
    assert any("共享内存分块" in t for t in texts) and any("Mémoire partagée" in t for t in texts)
    assert any("cell" in t for t in texts)


def test_infinite_link_trap_is_bounded(db_path):
    site = Site()
    site.page("/", html("home", links=["/trap/"]))
    # every path under /trap/ answers, linking to fresh deeper paths: an endless site
    site.route(
        "/trap/*", lambda req: Reply(body=html(f"trap {req.path}", links=["a/", "b/", f"{len(req.path)}/"]).encode())
    )
    db = open_db(db_path)
    with site.serve() as base:
        stats = crawl(db, [base + "/"], quick(max_depth=4, max_pages=500))
    assert rows(db, "SELECT max(depth) FROM frontier WHERE status = 'done'")[0][0] == 4
    assert stats.fetched < 100 and stats.queued == 0
    assert stats.skipped["depth"] > 0 and stats.skipped["trap"] > 0  # depth and repeated segments both bite
