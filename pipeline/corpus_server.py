"""Serves a folder over HTTP on 127.0.0.1, in a background thread, the way a static web host would.

    with serve_folder(corpus_dir()) as base:     # base = "http://127.0.0.1:PORT"
        crawl(db, [base + "/"], settings)

- ETag (a hash of the bytes) and Last-Modified (the file's mtime) on every file, and 304 for a matching
  If-None-Match / If-Modified-Since, so re-crawls are conditional end to end;
- content types from the extension (``.md`` → text/markdown, ``.atom`` → application/atom+xml);
- a folder answers with its ``index.html`` (``/a`` redirects to ``/a/`` first, like Apache and nginx);
  no directory listings;
- the trap rule: any path under ``/trap/`` that is not a file answers with ``trap/index.html``, so relative
  links in that page lead to ever deeper URLs: an endless site the crawler must bound;
- nothing outside the folder is ever served (paths are resolved and checked); a path the file system refuses
  (a NUL byte, ``/%00``; a name too long) is a 400, not a handler that dies without an answer.
"""

from __future__ import annotations

import email.utils
import hashlib
import mimetypes
import posixpath
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

# No charset parameter: pages declare their own (a GBK page says so in its <meta>), the reader sniffs the rest.
_TYPES = {
    ".html": "text/html",
    ".htm": "text/html",
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".atom": "application/atom+xml",
    ".xml": "application/xml",
    ".pdf": "application/pdf",
    ".json": "application/json",
}
TRAP_PREFIX = "/trap/"


def content_type_for(path: Path) -> str:
    return _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


class _Handler(BaseHTTPRequestHandler):
    server_version = "shijie-corpus/0.1"
    protocol_version = "HTTP/1.1"
    root: Path

    def log_message(self, format, *args):  # quiet: the crawl has its own progress display
        pass

    def do_HEAD(self):
        self._serve(send_body=False)

    def do_GET(self):
        self._serve(send_body=True)

    def _resolve(self, url_path: str) -> Path | None:
        parts = [p for p in posixpath.normpath(unquote(url_path)).split("/") if p not in ("", ".", "..")]
        candidate = self.root.joinpath(*parts).resolve()
        if candidate != self.root and self.root not in candidate.parents:
            return None
        return candidate

    def _serve(self, send_body: bool) -> None:
        url_path = urlsplit(self.path).path or "/"
        try:
            self._serve_path(url_path, send_body)
        except (OSError, ValueError):  # a name the file system refuses: a NUL byte, too long, not encodable
            self._send(HTTPStatus.BAD_REQUEST, b"bad request\n", "text/plain", send_body)

    def _serve_path(self, url_path: str, send_body: bool) -> None:
        target = self._resolve(url_path)
        if target is not None and target.is_dir():
            if not url_path.endswith("/"):
                return self._send(
                    HTTPStatus.MOVED_PERMANENTLY, b"", "text/plain", send_body, {"Location": url_path + "/"}
                )
            target = target / "index.html"
        if (target is None or not target.is_file()) and url_path.startswith(TRAP_PREFIX):
            target = self.root / "trap" / "index.html"
        if target is None or not target.is_file():
            return self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain", send_body)
        body = target.read_bytes()
        etag = '"' + hashlib.sha1(body).hexdigest()[:20] + '"'
        last_modified = email.utils.formatdate(int(target.stat().st_mtime), usegmt=True)
        headers = {"ETag": etag, "Last-Modified": last_modified}
        if self._not_modified(etag, int(target.stat().st_mtime)):
            return self._send(HTTPStatus.NOT_MODIFIED, b"", None, send_body, headers)
        self._send(HTTPStatus.OK, body, content_type_for(target), send_body, headers)

    def _not_modified(self, etag: str, mtime: int) -> bool:
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:
            return etag in [tag.strip() for tag in if_none_match.split(",")] or if_none_match.strip() == "*"
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                return mtime <= email.utils.parsedate_to_datetime(since).timestamp()
            except (TypeError, ValueError):
                return False
        return False

    def _send(self, status, body: bytes, ctype: str | None, send_body: bool, headers: dict | None = None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if ctype:
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body and body:
            self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def _bind(handler, host: str, port: int) -> _Server:
    if port:
        try:
            return _Server((host, port), handler)
        except OSError:
            pass  # the preferred port is taken: any free one will do
    return _Server((host, 0), handler)


@contextmanager
def serve_folder(folder: str | Path, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serves ``folder`` until the block ends; yields its base URL (no trailing slash).

    ``port`` is a preference (a resumed crawl asks for the port it used before); 0 or a taken port means
    any free port.
    """
    root = Path(folder).resolve()
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a folder")
    handler = type("CorpusHandler", (_Handler,), {"root": root})
    server = _bind(handler, host, port)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        bound_port = server.server_address[1]
        yield f"http://{host}:{bound_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]
