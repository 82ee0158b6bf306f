"""DNS rebinding (issue 11, item 3): the crawler connects only to addresses it checked.

A name that answers a public address when the host is checked and 127.0.0.1 when the connection is made must
never reach loopback: every connection resolves the name itself, checks every address, and connects to the
address it checked (Host header and TLS name stay the name). Also 6to4, Teredo, NAT64 and site-local forms of
private addresses are private."""

import socket

import pytest
from siteserver import Site, html

from pipeline import urls
from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db

PUBLIC = "93.184.216.34"


def quick(**overrides) -> CrawlSettings:
    return CrawlSettings(**{"delay": 0.0, "backoff_base": 0.05, "rng_seed": 1, "max_attempts": 1, **overrides})


@pytest.fixture
def rebinding_dns(monkeypatch):
    """The system resolver, as a rebinding DNS server would answer ``rebind.test``: a public address the
    first time, 127.0.0.1 every time after. Other names resolve as usual."""
    real = socket.getaddrinfo
    asked: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        name = host.decode() if isinstance(host, bytes) else host
        if name != "rebind.test":
            return real(host, port, *args, **kwargs)
        asked.append(name)
        address = PUBLIC if len(asked) == 1 else "127.0.0.1"
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, port or 0))]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return asked


def test_a_name_that_rebinds_to_loopback_never_reaches_it(db_path, rebinding_dns):
    site = Site()
    with site.serve() as base:
        port = base.rsplit(":", 1)[1]
        site.page("/", html("home", links=[f"http://rebind.test:{port}/secret"]))
        site.page("/secret", html("internal admin page"))
        db = open_db(db_path)
        stats = crawl(db, [base + "/"], quick(allow_hosts=["rebind.test"]))
    assert len(rebinding_dns) >= 2  # checked first (public), then asked again to connect (loopback)
    assert site.hits("/secret") == [] and not [r for r in site.requests if "rebind" in r.headers.get("host", "")]
    assert db.execute("SELECT count(*) FROM documents WHERE text LIKE '%internal admin%'").fetchone()[0] == 0
    assert db.execute("SELECT skip_reason FROM frontier WHERE url LIKE '%/secret'").fetchone()[0] == "unsafe"
    assert stats.skipped["unsafe"] == 1


def test_connections_go_to_the_address_the_crawl_resolved(db_path):
    """The seed's name is known only to the crawl's resolver: the page is fetched from the address it gave, with
    the name in the Host header (a seed's host may be private: the user asked for it)."""
    site = Site()
    with site.serve() as base:
        port = base.rsplit(":", 1)[1]
        site.page("/", html("docs home", "served under a name only the crawl resolves"))
        db = open_db(db_path)
        stats = crawl(
            db,
            [f"http://docs.rebind.test:{port}/"],
            quick(),
            resolver=lambda name: ["127.0.0.1"] if name == "docs.rebind.test" else [],
        )
    assert stats.stored == 1 and stats.errors == 0
    assert {r.headers["host"] for r in site.requests} == {f"docs.rebind.test:{port}"}


def test_a_name_that_resolves_to_private_and_public_addresses_is_refused_at_connect(db_path):
    """Checked when the host is met and again at every connection: a resolver that adds a private address later
    (a second A record) is refused when the connection is made."""
    answers = iter([[PUBLIC], [PUBLIC, "127.0.0.1"]])
    site = Site()
    with site.serve() as base:
        port = base.rsplit(":", 1)[1]
        site.page("/", html("home", links=[f"http://mixed.test:{port}/inside"]))
        site.page("/inside", html("inside"))
        db = open_db(db_path)
        crawl(
            db,
            [base + "/"],
            quick(allow_hosts=["mixed.test"]),
            resolver=lambda name: next(answers, ["127.0.0.1"]) if name == "mixed.test" else [],
        )
    assert site.hits("/inside") == []
    assert db.execute("SELECT skip_reason FROM frontier WHERE url LIKE '%/inside'").fetchone()[0] == "unsafe"


@pytest.mark.parametrize(
    "address",
    [
        "2002:7f00:1::",  # 6to4 of 127.0.0.1
        "2002:a00:8::1",  # 6to4 of 10.0.0.8
        "2002:c0a8:101::",  # 6to4 of 192.168.1.1
        "fec0::1",  # site-local
        "fed0::5",  # site-local
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo, client 127.0.0.1
        "64:ff9b::a00:8",  # NAT64 of 10.0.0.8
        "::ffff:10.0.0.8",  # IPv4-mapped
    ],
)
def test_private_addresses_embedded_in_ipv6_are_private(address):
    assert urls.is_private_host(f"[{address}]", resolve=False)
    assert urls.is_private_host("x.test", lambda name: [address])


def test_public_addresses_embedded_in_ipv6_stay_public():
    for address in ("2002:5db8:d822::1", "64:ff9b::5db8:d822", "2606:4700::1111"):
        assert not urls.is_private_host(f"[{address}]", resolve=False), address
