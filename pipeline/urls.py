"""URL canonicalization and the address-safety rule.

``canonical(url)`` gives one spelling per resource, so the frontier sees ``HTTP://Docs.X.org:80/a/?b=2&a=1#top``
and ``http://docs.x.org/a?a=1&b=2`` as one entry: lower-case scheme and host, no default port, no fragment,
sorted query, ``.``/``..`` resolved, percent-encoding normalized (unreserved characters decoded, the rest
upper-case hex), and an empty path written ``/`` (``http://h`` and ``http://h/`` are equal). A trailing slash
elsewhere is kept: ``/a/`` and ``/a`` can be different resources, and relative links resolve differently
under them; when a server says they are equal it redirects, and the crawl records the alias.

A host name must be one a resolver can be asked about: letters, digits, ``-``, ``_`` and dots between non-empty
labels (an IDN is written in its ``xn--`` form); anything else (``exa mple.com``, ``%00.test``, ``xn--``) is not a
usable URL. Canonical forms are cached (pages link to the same URLs over and over), but never for URLs longer than
``CACHED_LENGTH``: a page of 100 KB links must not fill the cache with them.

``is_private_host(host)`` is the safety half: loopback, private, link-local, site-local, reserved and multicast
addresses, and the IPv6 forms that carry an IPv4 address (IPv4-mapped, 6to4 ``2002::/16``, Teredo, NAT64
``64:ff9b::/96``: judged by the IPv4 address inside), ``localhost``, and names that resolve to such addresses.
A crawl follows a link to such a host only when that host is itself a seed's host (see
``pipeline.crawler.scope``), and connects only to addresses it checked (``pipeline.fetch``); ``file:`` and
other schemes never.
"""

from __future__ import annotations

import functools
import ipaddress
import posixpath
import re
import socket
from collections.abc import Callable
from urllib.parse import SplitResult, quote, unquote, urljoin, urlsplit, urlunsplit

DEFAULT_PORTS = {"http": 80, "https": 443}
WEB_SCHEMES = frozenset(DEFAULT_PORTS)

# RFC 3986 unreserved characters never need escaping; everything else that is escaped stays escaped.
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_PCT = re.compile(r"%([0-9A-Fa-f]{2})")
# Characters left alone when re-quoting a path or query component (already-valid URL syntax).
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"

Resolver = Callable[[str], list[str]]
CACHED_LENGTH = 2048
_HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")


def _normalize_escapes(component: str, safe: str) -> str:
    def fix(match: re.Match) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in _UNRESERVED else "%" + match.group(1).upper()

    # Quote what is not valid in a URL (spaces, non-ASCII), keeping existing escapes, then normalize them.
    return _PCT.sub(fix, quote(component, safe=safe))


def _normalize_path(path: str) -> str:
    if not path:
        return "/"
    trailing = path.endswith(("/", "/.", "/.."))
    path = posixpath.normpath(path)  # resolves . and .. (and collapses //)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    if path == ".":
        path = "/"
    if trailing and not path.endswith("/"):
        path += "/"
    return _normalize_escapes(path, _PATH_SAFE)


def _normalize_query(query: str) -> str:
    if not query:
        return ""
    # Sort the pairs, normalize each part's escapes; a bare key (``?print``) stays without ``=``.
    parts = [_normalize_escapes(p, "=:@!$'()*+,;/?-._~%") for p in query.split("&") if p]
    return "&".join(sorted(parts))


def canonical(url: str, base: str | None = None) -> str | None:
    """The canonical form of ``url`` (resolved against ``base``), or None when it is not a usable URL."""
    url = url.strip()
    if base is not None:
        try:
            url = urljoin(base, url)
        except ValueError:
            return None
    if len(url) > CACHED_LENGTH:
        return _canonical_absolute.__wrapped__(url)
    return _canonical_absolute(url)


@functools.lru_cache(maxsize=65536)  # pages link to the same URLs over and over (navigation, siblings)
def _canonical_absolute(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme == "file":
        return urlunsplit(("file", "", _normalize_escapes(unquote(parts.path) or "/", _PATH_SAFE), "", ""))
    if scheme not in WEB_SCHEMES or not parts.hostname:
        return None
    host = parts.hostname.lower().rstrip(".")
    try:
        host = host.encode("idna").decode("ascii") if not host.isascii() else host
        if "xn--" in host:
            host.encode("ascii").decode("idna")  # an A-label that does not decode is no name (httpx refuses it)
    except UnicodeError:
        return None
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    elif not _HOST_NAME.fullmatch(host):
        return None
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    return urlunsplit(SplitResult(scheme, netloc, _normalize_path(parts.path), _normalize_query(parts.query), ""))


def host_of(url: str) -> str:
    """``host[:port]`` of a canonical URL: the unit of politeness and of the allow-list."""
    return urlsplit(url).netloc


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def hostname_of(host: str) -> str:
    """``host[:port]`` → the bare host name or IP literal (without brackets)."""
    if host.startswith("["):
        return host[1 : host.index("]")]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries to: IPv4-mapped, 6to4, Teredo (its client), NAT64."""
    if ip.ipv4_mapped:
        return ip.ipv4_mapped
    if ip.sixtofour:
        return ip.sixtofour
    if ip.teredo:
        return ip.teredo[1]
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def is_private_address(address: str) -> bool:
    """True for an IP address (``fe80::1%eth0`` too) the crawler must not reach unless a seed names it; False for
    anything that is not an IP address."""
    try:
        ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        inner = _embedded_ipv4(ip)
        if inner is not None:
            return is_private_address(str(inner))
        if ip.is_site_local:
            return True
    return (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
        or (isinstance(ip, ipaddress.IPv4Address) and ip in ipaddress.IPv4Network("100.64.0.0/10"))  # CGNAT
    )


def system_resolver(name: str) -> list[str]:
    """Every address ``name`` resolves to (empty when it does not resolve)."""
    try:
        return sorted({str(info[4][0]) for info in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)})
    except (OSError, UnicodeError):
        return []


def is_private_host(host: str, resolver: Resolver | None = None, *, resolve: bool = True) -> bool:
    """True when ``host`` (``name[:port]``) is, or resolves to, a non-public address: the one safety check.

    IP literals are judged as written; ``localhost`` and ``*.localhost`` always count as loopback. Other names:
    with ``resolve`` (the default) they are resolved with ``resolver`` (default: the system's) and are private
    if any address is, and a name that does not resolve is not private (the fetch will fail on its own);
    with ``resolve=False`` the answer is by spelling alone, at once and without DNS, and a name is not private.
    """
    name = hostname_of(host).lower()
    try:
        ipaddress.ip_address(name)
        return is_private_address(name)
    except ValueError:
        pass
    if name == "localhost" or name.endswith(".localhost"):
        return True
    return resolve and any(is_private_address(a) for a in (resolver or system_resolver)(name))


def trap_reason(url: str, max_length: int = 512, max_segment_repeats: int = 2) -> str | None:
    """Why ``url`` looks like a crawler trap (too long, a path segment repeated), else None."""
    if len(url) > max_length:
        return f"URL longer than {max_length} characters"
    segments = [s for s in urlsplit(url).path.split("/") if s]
    seen: dict[str, int] = {}
    for segment in segments:
        seen[segment] = seen.get(segment, 0) + 1
        if seen[segment] > max_segment_repeats:
            return f"path segment {segment!r} repeated more than {max_segment_repeats} times"
    return None
