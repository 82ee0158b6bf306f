"""Every hostile case of issue 11 in one crawl: does it finish, what did it record, how much memory did it take?

    python benchmarks/hostile_crawl.py [--extract-timeout 10]

A loopback site (an asyncio server in its own process, responses prebuilt) links from its home page to:

- poison charsets: ``<meta charset="hex">``, and ``rot13``, ``base64``, ``zlib``, ``bz2``, ``idna``, ``punycode``,
  ``undefined`` in the Content-Type header;
- PDFs built by ``tests/pdfmaker.py``: 20,000 nested arrays (RecursionError in pypdf), an object stream that is
  not one (an assertion in pypdf), 400 pages sharing one 2.7 MB content stream (70 KB → ~1 GB of text), a 30 MB
  content stream of operators (seconds of parsing that never looks at the clock);
- a 9 MB page of 450,000 small scripts (the old noise filter: quadratic), five pages of 340,000 links each,
  forty 100 KB links, a gzip bomb (64 MB of zeros in 64 KB), a binary served as text/html, a redirect loop, and
  a path whose server drops the connection without an answer.

The crawl is a library call (``pipeline.crawl.crawl``) in a subprocess; its summed resident memory with its
extraction workers is sampled every 20 ms from /proc (``crawl_bench.TreeSampler``). Also timed alone: extracting
the 9 MB noise page in this process. Prints the stats and a markdown row for docs/perf.md.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "benchmarks"))

from crawl_bench import TreeSampler  # noqa: E402
from pdfmaker import nested_arrays_pdf, objstm_assert_pdf, operators_pdf, shared_stream_pdf  # noqa: E402

DROP = b"<drop>"  # the server closes the connection without answering


def _response(status: str, body: bytes, ctype: str, extra: str = "") -> bytes:
    head = f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n{extra}Connection: keep-alive\r\n\r\n"
    return head.encode() + body


def build_site() -> dict[bytes, bytes]:
    html = "text/html"
    pages: dict[str, bytes] = {
        "/meta-hex.html": _response("200 OK", b'<meta charset="hex"><title>hex</title><p>declared hex</p>', html),
        "/pdf/nested.pdf": _response("200 OK", nested_arrays_pdf(), "application/pdf"),
        "/pdf/assert.pdf": _response("200 OK", objstm_assert_pdf(), "application/pdf"),
        "/pdf/bomb.pdf": _response("200 OK", shared_stream_pdf(pages=400, lines=40_000), "application/pdf"),
        "/pdf/operators.pdf": _response("200 OK", operators_pdf(30), "application/pdf"),
        "/noise.html": _response(
            "200 OK",
            ("<html><body><main><p>" + "<script>s</script>w " * 450_000 + "</p></main></body></html>").encode(),
            html,
        ),
        "/gzip-bomb.html": _response(
            "200 OK", gzip.compress(b"\0" * (64 * 1024 * 1024), compresslevel=9), html, "Content-Encoding: gzip\r\n"
        ),
        "/image.html": _response("200 OK", b"\x89PNG\r\n\x1a\n" + bytes(5000), html),
        "/loop/a": _response("302 Found", b"", "text/plain", "Location: /loop/b\r\n"),
        "/loop/b": _response("302 Found", b"", "text/plain", "Location: /loop/a\r\n"),
        "/drops": DROP,
        "/robots.txt": _response("200 OK", b"User-agent: *\nAllow: /\n", "text/plain"),
    }
    for charset in ("rot13", "base64", "zlib", "bz2", "idna", "punycode", "undefined"):
        pages[f"/charset/{charset}.html"] = _response(
            "200 OK", f"<p>{charset}</p>".encode(), f"{html}; charset={charset}"
        )
    for i in range(5):
        links = "".join(f'<a href="/many/{i}/{j}">x</a>' for j in range(340_000))
        page = f"<html><body><h1>links page {i}</h1>{links}</body></html>"
        pages[f"/links/{i}.html"] = _response("200 OK", page.encode(), html)
    long_links = "".join(f'<a href="/trap/{i}/{"x" * 100_000}">t</a>' for i in range(40))
    pages["/long.html"] = _response("200 OK", f"<html><body>{long_links}</body></html>".encode(), html)
    home = "".join(f'<a href="{path}">{path}</a>' for path in pages if path != "/robots.txt")
    pages["/"] = _response("200 OK", f"<html><body><main><h1>hostile</h1>{home}</main></body></html>".encode(), html)
    return {path.encode(): response for path, response in pages.items()}


def serve(port_file: str) -> None:
    site = build_site()
    not_found = _response("404 Not Found", b"not found", "text/plain")

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1]
                response = site.get(path, not_found)
                if response is DROP:
                    break
                writer.write(response)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=256)
        Path(port_file).write_text(str(server.sockets[0].getsockname()[1]))
        async with server:
            await server.serve_forever()

    asyncio.run(main())


CRAWL = """
import json, sys
from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db
base, db, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
stats = crawl(open_db(db), [base + "/"], CrawlSettings(delay=0, concurrency=8, per_host=4, extract_timeout=timeout,
                                                       max_attempts=2, backoff_base=0.1, max_pages=200))
print(json.dumps(stats.to_json()))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extract-timeout", type=float, default=10.0)
    parser.add_argument("--serve", metavar="PORT_FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return

    from pipeline.extract import extract

    noise = ("<html><body><main><p>" + "<script>s</script>w " * 450_000 + "</p></main></body></html>").encode()
    start = time.perf_counter()
    extract(noise, "text/html", "http://h/noise.html")
    noise_s = time.perf_counter() - start

    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        port_file = Path(tmp) / "port"
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port_file)])
        try:
            for _ in range(600):
                if port_file.exists() and port_file.read_text():
                    break
                time.sleep(0.05)
            base = f"http://127.0.0.1:{port_file.read_text()}"
            env = {**os.environ, "PYTHONPATH": str(REPO)}
            start = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-c", CRAWL, base, str(Path(tmp) / "h.db"), str(args.extract_timeout)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
            )
            sampler = TreeSampler(proc.pid)
            out, err = proc.communicate()
            tree_mib = sampler.stop()
            wall = time.perf_counter() - start
            largest_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024  # the server is not reaped yet
        finally:
            server.terminate()
            server.wait(timeout=10)
    if proc.returncode != 0:
        raise SystemExit(f"the crawl failed ({proc.returncode}):\n{err.decode()[-3000:]}")
    stats = json.loads(out)
    keep = ("fetched", "stored", "errors", "errors_by_reason", "skipped", "truncated", "caps", "elapsed_s")
    print(json.dumps({k: stats[k] for k in keep}, indent=1))
    print(f"\n9 MB noise page extracted alone: {noise_s:.1f} s")
    print(
        "\n| crawl wall s | pages fetched | stored | errors | peak RSS, crawler + workers (MiB) | largest process (MiB) |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    print(f"| {wall:.1f} | {stats['fetched']} | {stats['stored']} | {stats['errors']} | {tree_mib} | {largest_mib} |")


if __name__ == "__main__":
    main()
