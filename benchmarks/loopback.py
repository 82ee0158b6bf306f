"""The crawl benchmarks' site: prebuilt HTTP/1.1 responses served on 127.0.0.1 by an asyncio server in a process
of its own, so the server is never the bottleneck (keep-alive, pipelining-safe: a response is bytes ready to write).

    # in the benchmark script, which runs the server when called with --serve PORT_FILE:
    if args.serve:
        serve(args.serve, {b"/": response("200 OK", b"<p>hi</p>", "text/html")})
        return
    with server_process([sys.executable, __file__, "--serve", str(port_file)], port_file) as base:
        ...  # base is "http://127.0.0.1:PORT"

A path whose response is ``DROP`` gets its connection closed without an answer.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DROP = b"<drop>"


def response(status: str, body: bytes, content_type: str, extra_headers: str = "") -> bytes:
    """A whole response; ``extra_headers`` are CRLF-terminated header lines."""
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
        f"{extra_headers}Connection: keep-alive\r\n\r\n"
    )
    return head.encode() + body


def serve(port_file: str, site: dict[bytes, bytes], backlog: int = 1024) -> None:
    """Serves ``site`` (path -> prebuilt response) until killed; writes the port to ``port_file`` once listening."""
    not_found = response("404 Not Found", b"not found", "text/plain")

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                ready = site.get(head.split(b" ", 2)[1], not_found)
                if ready is DROP:
                    break
                writer.write(ready)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=backlog)
        Path(port_file).write_text(str(server.sockets[0].getsockname()[1]))
        async with server:
            await server.serve_forever()

    asyncio.run(main())


@contextmanager
def server_process(argv: list[str], port_file: Path, start_s: float = 10.0) -> Iterator[str]:
    """Runs the server command ``argv`` (which calls ``serve`` with ``port_file``); yields its base URL once it
    listens (or after ``start_s``: building a large site takes a while), and stops it on exit."""
    server = subprocess.Popen(argv)
    try:
        deadline = time.monotonic() + start_s
        while time.monotonic() < deadline and not (port_file.exists() and port_file.read_text()):
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port_file.read_text()}"
    finally:
        server.terminate()
        server.wait(timeout=10)
