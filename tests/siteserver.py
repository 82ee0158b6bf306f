"""A small configurable web site on loopback for the crawl tests: real sockets, real HTTP/1.1.

    site = Site()
    site.page("/", "<a href='/a'>a</a>")
    site.route("/busy", lambda req: Reply(429, headers={"Retry-After": "1"}) if req.count == 1 else Reply(body=b"ok"))
    with site.serve() as base:
        ...
    site.hits("/busy")  # request times and headers, as the server saw them

Each path gets a fixed ``Reply`` or a function of the ``Request`` (which knows how many times that path
was asked for); a key ending in ``*`` answers every path under it. A reply can drip its body slowly (``drip_s`` between bytes) to play a stalled server.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str | None = "text/html"
    drip_s: float | None = None  # seconds between single bytes of the body


@dataclass
class Request:
    path: str  # with the query string
    headers: dict[str, str]
    count: int  # 1 for the first request to this path
    at: float  # time.monotonic()


class Site:
    def __init__(self, host: str = "127.0.0.1", latency_s: float = 0.0):
        self.host = host
        self.latency_s = latency_s
        self.routes: dict[str, Reply | Callable[[Request], Reply]] = {}
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self.base = ""

    def page(self, path: str, html: str | bytes, **kwargs) -> None:
        self.routes[path] = Reply(body=html.encode() if isinstance(html, str) else html, **kwargs)

    def route(self, path: str, reply: Reply | Callable[[Request], Reply]) -> None:
        self.routes[path] = reply

    def hits(self, path: str) -> list[Request]:
        return [r for r in self.requests if r.path == path]

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        with self._lock:
            count = sum(1 for r in self.requests if r.path == handler.path) + 1
            request = Request(handler.path, {k.lower(): v for k, v in handler.headers.items()}, count, time.monotonic())
            self.requests.append(request)
        if self.latency_s:
            time.sleep(self.latency_s)
        path = urlsplit(handler.path).path
        route = (
            self.routes.get(handler.path)
            or self.routes.get(path)
            or next((r for key, r in self.routes.items() if key.endswith("*") and path.startswith(key[:-1])), None)
        )
        reply = Reply(404, b"not found") if route is None else route(request) if callable(route) else route
        try:
            handler.send_response(reply.status)
            if reply.content_type and reply.status != 304:
                handler.send_header("Content-Type", reply.content_type)
            for name, value in reply.headers.items():
                handler.send_header(name, value)
            handler.send_header("Content-Length", str(len(reply.body)))
            handler.end_headers()
            if reply.drip_s is None:
                handler.wfile.write(reply.body)
            else:
                for i in range(len(reply.body)):
                    handler.wfile.write(reply.body[i : i + 1])
                    handler.wfile.flush()
                    time.sleep(reply.drip_s)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the crawler gave up on this response, as it should

    @contextmanager
    def serve(self) -> Iterator[str]:
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                site._handle(self)

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer((self.host, 0), Handler)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        thread.start()
        self.base = f"http://{self.host}:{server.server_address[1]}"
        try:
            yield self.base
        finally:
            server.shutdown()
            server.server_close()


def html(title: str, body: str = "", links: list[str] = ()) -> str:
    anchors = " ".join(f'<a href="{href}">{href}</a>' for href in links)
    return f"<html><head><title>{title}</title></head><body><main><h1>{title}</h1><p>{body or title}</p>{anchors}</main></body></html>"
