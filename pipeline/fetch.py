"""One HTTP request, bounded in every direction: time, bytes on the wire, bytes after decompression.

``fetch_once`` never follows redirects (the crawl does, so each hop passes the same safety and allow-list
checks) and reads the body as raw bytes, decompressing gzip/deflate itself with ``max_length`` so a
compression bomb stops at ``max_bytes`` of output instead of expanding a whole network chunk in memory.
A server that drips bytes slowly is cut off by a wall-clock budget for the whole response, which a
per-read timeout alone cannot do.

    FetchError            (message, retryable)
     ├── transport        connect/read timeouts, refused or reset connections: retryable
     ├── too large        Content-Length or the (decompressed) body over max_bytes: not retryable
     ├── too slow         the whole response took longer than the budget: not retryable
     └── bad encoding     a Content-Encoding we do not decode, or a corrupt stream: not retryable
"""

from __future__ import annotations

import asyncio
import zlib
from dataclasses import dataclass

import httpx

USER_AGENT = "shijie/0.1 (+https://github.com/shijie-project/shijie)"

REDIRECTS = frozenset({301, 302, 303, 307, 308})
ACCEPT = "text/html,application/xhtml+xml,application/pdf,application/atom+xml,text/plain,text/markdown;q=0.9,*/*;q=0.1"


class FetchError(Exception):
    def __init__(self, message: str, retryable: bool):
        super().__init__(message)
        self.retryable = retryable


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
                raise FetchError("corrupt compressed body", retryable=False) from None
            self._first = False
            self.produced += len(chunk)
            out += chunk
            if self.produced > self.limit:
                raise FetchError(f"body larger than {self.limit} bytes after decompression", retryable=False)
            data = self._d.unconsumed_tail
            if self._d.eof and self._d.unused_data:  # concatenated gzip members
                data = self._d.unused_data
                self._d = zlib.decompressobj(self._wbits)
        return bytes(out)


def make_client(connections: int, connect_timeout: float, read_timeout: float, ssl_context=None) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        verify=ssl_context if ssl_context is not None else True,
        headers={"User-Agent": USER_AGENT, "Accept": ACCEPT, "Accept-Encoding": "gzip, deflate"},
        timeout=httpx.Timeout(connect=connect_timeout, read=read_timeout, write=read_timeout, pool=None),
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
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

    def __init__(self, concurrency: int, connect_timeout: float, read_timeout: float):
        count = max(1, -(-concurrency // self.CONNECTIONS_PER_CLIENT))
        shared_tls = httpx.create_ssl_context()  # loading the CA bundle once, not once per client
        self.clients = [
            make_client(self.CONNECTIONS_PER_CLIENT + 1, connect_timeout, read_timeout, shared_tls)
            for _ in range(count)
        ]
        self.busy = [0] * count

    def acquire(self) -> int:
        index = min(range(len(self.clients)), key=self.busy.__getitem__)
        self.busy[index] += 1
        return index

    def release(self, index: int) -> None:
        self.busy[index] -= 1

    async def fetch(self, url: str, **kwargs) -> "Response":
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
                    raise FetchError(f"Content-Length {length} over the {max_bytes}-byte cap", retryable=False)
                encoding = response.headers.get("content-encoding", "identity").strip().lower()
                if encoding in ("", "identity"):
                    inflater = None
                elif encoding in ("gzip", "x-gzip", "deflate"):
                    inflater = _Inflater(encoding, max_bytes)
                else:
                    raise FetchError(f"Content-Encoding {encoding!r} is not decoded", retryable=False)
                body = bytearray()
                wire = 0
                async for chunk in response.aiter_raw():
                    wire += len(chunk)
                    if wire > max_bytes:
                        raise FetchError(f"body larger than {max_bytes} bytes", retryable=False)
                    body += inflater.feed(chunk) if inflater else chunk
                return Response(url, response.status_code, response.headers, bytes(body), wire)
    except TimeoutError:
        raise FetchError(f"response not complete within {budget_s:g} s", retryable=False) from None
    except httpx.TimeoutException as exc:
        raise FetchError(f"timeout ({exc.__class__.__name__})", retryable=True) from None
    except (httpx.TransportError, httpx.DecodingError) as exc:
        raise FetchError(f"{exc.__class__.__name__}: {exc}".rstrip(": "), retryable=True) from None
