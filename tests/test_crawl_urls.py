"""URL canonicalization, the private-address rule and trap detection."""

import pytest

from pipeline.urls import canonical, host_of, is_private_host, trap_reason


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("HTTP://Docs.Example.ORG:80/a/?b=2&a=1#top", "http://docs.example.org/a/?a=1&b=2"),
        ("https://example.org:443", "https://example.org/"),
        ("http://example.org:8080/x", "http://example.org:8080/x"),
        ("http://example.org/a/./b/../c", "http://example.org/a/c"),
        ("http://example.org/%7euser/a%2fb", "http://example.org/~user/a%2Fb"),
        ("http://example.org/caf\u00e9 menu", "http://example.org/caf%C3%A9%20menu"),
        ("http://example.org/x?", "http://example.org/x"),
        ("http://example.org/x?print&b=1", "http://example.org/x?b=1&print"),
    ],
)
def test_canonical_forms(raw, expected):
    assert canonical(raw) == expected


def test_equal_urls_meet_and_different_ones_do_not():
    assert canonical("http://h/a?x=1&y=2") == canonical("http://H:80/a?y=2&x=1#frag")
    assert canonical("http://h/a/") != canonical("http://h/a")  # may differ; the server's redirect decides


def test_relative_links_and_unusable_schemes():
    assert canonical("../b.html#s", "http://h/docs/x/a.html") == "http://h/docs/b.html"
    for raw in ("mailto:a@b.org", "javascript:void(0)", "ftp://h/x", "http://", "http://[bad"):
        assert canonical(raw) is None
    assert canonical("file:///etc/passwd").startswith("file:")


def test_private_hosts():
    for host in (
        "127.0.0.1",
        "127.0.0.2:8080",
        "10.1.2.3",
        "192.168.0.1",
        "169.254.169.254",
        "[::1]:80",
        "localhost",
        "api.localhost",
        "0.0.0.0",
        "[::ffff:127.0.0.1]",
        "100.64.0.1",
    ):
        assert is_private_host(host, resolver=lambda name: []), host
    assert not is_private_host("93.184.216.34")
    # a public-looking name that resolves into the private network is private
    assert is_private_host("intranet.example.com", resolver=lambda name: ["93.184.216.34", "10.0.0.7"])
    assert not is_private_host("docs.example.com", resolver=lambda name: ["93.184.216.34"])


def test_trap_reasons():
    assert trap_reason("http://h/a/b/c/") is None
    assert "repeated" in trap_reason("http://h/x/a/x/b/x/")
    assert "longer" in trap_reason("http://h/" + "a" * 600)
    assert host_of("http://h:81/x") == "h:81"
