"""One HTTP request, bounded in every direction: time, bytes on the wire, bytes after decompression.

``fetch_once`` never follows redirects (the crawl does, so each hop passes the same safety and allow-list
checks) and reads the body as raw bytes, decompressing gzip/deflate itself with ``max_length`` so a
compression bomb stops at ``max_bytes`` of output instead of expanding a whole network chunk in memory.
A server that drips bytes slowly is cut off by a wall-clock budget for the whole response, which a
per-read timeout alone cannot do.

Connections go only to addresses the crawl checked. httpx would resolve a host name itself, after the crawl's
check resolved it: a DNS server that answers a public address first and 127.0.0.1 next (DNS rebinding) would
lead the request into the local network. So the clients' connection pools take a network backend that asks
``addresses(host, port)`` — the crawl's policy, ``Scope.addresses``: resolve, check every address, raise
``UnsafeAddress`` — at every new connection and connects to the address it answered; the Host header and the
TLS server name (and certificate check) stay the URL's name. Environment proxies are not used: through a proxy,
the proxy would resolve the name.

    FetchError            (message, retryable, reason)
     ├── unreachable      the name does not resolve, connection refused, connect timeout: retryable
     ├── timeout          connected, no answer in time (read/write timeouts): retryable
     ├── transport        a connection reset mid-answer: retryable
     ├── protocol         not HTTP: the server dropped the connection without an answer, a malformed answer,
     │                    a URL the client cannot send: not retryable (it answers the same every time)
     ├── unsafe           the name resolves to a private address at connect time: not retryable
     ├── too large        Content-Length or the (decompressed) body over max_bytes: not retryable
     ├── too slow         the whole response took longer than the budget: not retryable
     └── bad encoding     a Content-Encoding we do not decode, or a corrupt stream: not retryable
"""

from __future__ import annotations

import asyncio
import ipaddress
import ssl
import zlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

import httpcore
import httpx

USER_AGENT = "shijie/0.1 (+https://github.com/shijie-project/shijie)"

REDIRECTS = frozenset({301, 302, 303, 307, 308})
ACCEPT = "text/html,application/xhtml+xml,application/pdf,application/atom+xml,text/plain,text/markdown;q=0.9,*/*;q=0.1"


class FetchError(Exception):
    def __init__(self, message: str, retryable: bool, reason: str = "transport"):
        super().__init__(message)
        self.retryable = retryable
        self.reason = (
            reason  # unreachable | timeout | transport | protocol | unsafe | too large | too slow | bad encoding
        )


class UnsafeAddress(Exception):
    """Raised by an ``AddressCheck``: the host leads to an address the crawl must not connect to."""


# (host, port) → the addresses to connect to, in order; raises UnsafeAddress.
AddressCheck = Callable[[str, int], Awaitable[list[str]]]


class _CheckedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to the addresses ``check`` answered for the host."""

    def __init__(self, check: AddressCheck):
        self._check = check
        self._inner = httpcore.AnyIOBackend()  # what httpcore picks under asyncio

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                addresses = await self._check(host, port)
        except TimeoutError:
            raise httpcore.ConnectTimeout(f"resolving {host} took longer than {timeout:g} s") from None
        if not addresses:
            raise httpcore.ConnectError(f"{host} does not resolve")
        failure: Exception | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(address, port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("the crawler does not use unix sockets")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


async def system_addresses(host: str, port: int) -> list[str]:
    """The default ``AddressCheck``: every address of ``host`` (no policy; the crawl passes its own)."""
    from .urls import system_resolver

    try:
        ipaddress.ip_address(host)
        return [host]
    except ValueError:
        return await asyncio.to_thread(system_resolver, host)


@dataclass
class Response:
    url: str
    status: int
    headers: httpx.Headers
    body: bytes
    wire_bytes: int


class _Inflater:
    """Incremental gzip/zlib/raw-deflate decoder that never produces more than ``limit`` bytes in total."""

    def __init__(self, encoding: str, limit: int):
        self.limit = limit
        self.produced = 0
        self.encoding = encoding
        # 47 = 32 + 15: zlib picks gzip or zlib framing from the header.
        self._wbits = 47 if encoding in ("gzip", "x-gzip") else 15
        self._d = zlib.decompressobj(self._wbits)
        self._first = True

    def feed(self, data: bytes) -> bytes:
        out = bytearray()
        while data:
            try:
                chunk = self._d.decompress(data, self.limit - self.produced + 1)
            except zlib.error:
                if self._first and self.encoding == "deflate" and self._wbits == 15:
                    # Some servers send raw deflate under "deflate": retry without the zlib header.
                    self._wbits, self._d = -15, zlib.decompressobj(-15)
                    continue
                raise FetchError("corrupt compressed body", retryable=False, reason="bad encoding") from None
            self._first = False
            self.produced += len(chunk)
            out += chunk
            if self.produced > self.limit:
                raise FetchError(
                    f"body larger than {self.limit} bytes after decompression", retryable=False, reason="too large"
                )
            data = self._d.unconsumed_tail
            if self._d.eof and self._d.unused_data:  # concatenated gzip members
                data = self._d.unused_data
                self._d = zlib.decompressobj(self._wbits)
        return bytes(out)


def make_client(
    connections: int,
    connect_timeout: float,
    read_timeout: float,
    ssl_context: ssl.SSLContext | None = None,
    addresses: AddressCheck = system_addresses,
) -> httpx.AsyncClient:
    ssl_context = ssl_context or httpx.create_ssl_context()
    transport = httpx.AsyncHTTPTransport(verify=ssl_context)
    # httpx takes no network backend; its transport keeps its httpcore pool in ``_pool``, built here the way
    # httpx builds it, with the checked backend (tests/test_crawl_rebinding.py fails if this stops working).
    transport._pool = httpcore.AsyncConnectionPool(
        ssl_context=ssl_context,
        max_connections=connections,
        max_keepalive_connections=connections,
        keepalive_expiry=5.0,
        network_backend=_CheckedBackend(addresses),
    )
    return httpx.AsyncClient(
        transport=transport,
        headers={"User-Agent": USER_AGENT, "Accept": ACCEPT, "Accept-Encoding": "gzip, deflate"},
        timeout=httpx.Timeout(connect=connect_timeout, read=read_timeout, write=read_timeout, pool=None),
        follow_redirects=False,
    )


class ClientPool:
    """Several small httpx clients instead of one big one.

    httpcore's connection pool scans every connection (with a socket-readability syscall each) on every
    request and every response close, so one pool of C connections costs O(C) per request; at C = 64 that
    was a third of the crawl's CPU time. Clients of ``CONNECTIONS_PER_CLIENT`` connections each, handed out
    least-busy first, keep that cost constant.
    """

    CONNECTIONS_PER_CLIENT = 4

    def __init__(
        self, concurrency: int, connect_timeout: float, read_timeout: float, addresses: AddressCheck = system_addresses
    ):
        count = max(1, -(-concurrency // self.CONNECTIONS_PER_CLIENT))
        shared_tls = httpx.create_ssl_context()  # loading the CA bundle once, not once per client
        self.clients = [
            make_client(self.CONNECTIONS_PER_CLIENT + 1, connect_timeout, read_timeout, shared_tls, addresses)
            for _ in range(count)
        ]
        self.busy = [0] * count

    def acquire(self) -> int:
        index = min(range(len(self.clients)), key=self.busy.__getitem__)
        self.busy[index] += 1
        return index

    def release(self, index: int) -> None:
        self.busy[index] -= 1

    async def fetch(self, url: str, **kwargs: Any) -> Response:
        index = self.acquire()
        try:
            return await fetch_once(self.clients[index], url, **kwargs)
        finally:
            self.release(index)

    async def aclose(self) -> None:
        for client in self.clients:
            await client.aclose()


async def fetch_once(
    client: httpx.AsyncClient,
    url: str,
    *,
    max_bytes: int,
    budget_s: float,
    headers: dict[str, str] | None = None,
    read_body: bool = True,
) -> Response:
    """GET ``url`` once. Non-2xx answers come back with an empty body (only the status and headers matter)."""
    try:
        async with asyncio.timeout(budget_s):
            async with client.stream("GET", url, headers=headers) as response:
                if not (200 <= response.status_code < 300) or not read_body:
                    return Response(url, response.status_code, response.headers, b"", 0)
                length = response.headers.get("content-length")
                if length and length.isdigit() and int(length) > max_bytes:
                    raise FetchError(
                        f"Content-Length {length} over the {max_bytes}-byte cap", retryable=False, reason="too large"
                    )
                encoding = response.headers.get("content-encoding", "identity").strip().lower()
                if encoding in ("", "identity"):
                    inflater = None
                elif encoding in ("gzip", "x-gzip", "deflate"):
                    inflater = _Inflater(encoding, max_bytes)
                else:
                    raise FetchError(
                        f"Content-Encoding {encoding!r} is not decoded", retryable=False, reason="bad encoding"
                    )
                body = bytearray()
                wire = 0
                async for chunk in response.aiter_raw():
                    wire += len(chunk)
                    if wire > max_bytes:
                        raise FetchError(f"body larger than {max_bytes} bytes", retryable=False, reason="too large")
                    body += inflater.feed(chunk) if inflater else chunk
                return Response(url, response.status_code, response.headers, bytes(body), wire)
    except TimeoutError:
        raise FetchError(f"response not complete within {budget_s:g} s", retryable=False, reason="too slow") from None
    except UnsafeAddress as exc:
        raise FetchError(str(exc), retryable=False, reason="unsafe") from None
    except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
        raise FetchError(_describe(exc), retryable=True, reason="unreachable") from None
    except httpx.TimeoutException as exc:
        raise FetchError(f"timeout ({exc.__class__.__name__})", retryable=True, reason="timeout") from None
    except (httpx.ProtocolError, httpx.UnsupportedProtocol, httpx.InvalidURL, UnicodeError) as exc:
        raise FetchError(_describe(exc), retryable=False, reason="protocol") from None
    except (httpx.TransportError, httpx.DecodingError) as exc:
        raise FetchError(_describe(exc), retryable=True) from None


def _describe(exc: Exception) -> str:
    return f"{exc.__class__.__name__}: {exc}".rstrip(": ")
