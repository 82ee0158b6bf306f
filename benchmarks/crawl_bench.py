"""Crawl throughput: ``shijie crawl`` against Scrapy on the same generated site, same limits.

    python benchmarks/crawl_bench.py [--pages 5000] [--concurrency 16 64] [--repeat 1]

A site of ``--pages`` distinct HTML pages (~2 KB of text each, 8 links per page: a binary tree so every page
is reachable, plus 6 pseudo-random links) and a robots.txt is served on 127.0.0.1 by an asyncio server in a
separate process (responses prebuilt, HTTP/1.1 keep-alive), so the server is not the bottleneck.

Each crawler runs in its own subprocess with politeness delays off, robots.txt obeyed, the same page cap,
the same total and per-host concurrency:

- shijie: ``python -m shijie crawl URL --delay 0 --concurrency C --per-host C --max-pages N --max-depth 100``
  (extracts main text, stores every document in SQLite); and the same crawl as a ``pipeline.crawl.crawl()``
  library call, which shows the crawler's own memory without the CLI's other imports (scikit-learn);
- Scrapy: a spider with ``CONCURRENT_REQUESTS = CONCURRENT_REQUESTS_PER_DOMAIN = C``, ``DOWNLOAD_DELAY = 0``,
  ``ROBOTSTXT_OBEY``, ``CLOSESPIDER_PAGECOUNT = N``, that follows every link and yields title + text items
  (dropped: no storage).

pages/s = responses / the crawler's own crawl time (shijie: ``elapsed_s``; Scrapy: from its ``start_time``
stat to spider_closed); peak RSS and CPU seconds (user + system, start-up included) from ``os.wait4`` on
the crawler's process: on a shared machine CPU seconds per page is the steadier figure. shijie extracts in
worker processes: their CPU time is in the crawler's (``wait4`` counts children it waited for), and "tree
RSS" is the peak of the crawler's and its workers' resident memory summed, sampled every 20 ms from /proc
(``ru_maxrss`` is the largest single process). Prints a markdown table for docs/perf.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORDS = [
    *("warp", "tile", "shared", "memory", "register", "occupancy", "latency", "bandwidth", "kernel", "launch"),
    *("block", "thread", "grid", "coalesced", "bank", "conflict", "pipeline", "tensor", "core", "accumulate"),
    *("softmax", "attention", "backward", "gradient"),
]


# -- the site ----------------------------------------------------------------------------------------------


def build_site(pages: int, seed: int = 7) -> dict[bytes, bytes]:
    rng = random.Random(seed)
    site: dict[bytes, bytes] = {}
    for i in range(pages):
        links = [j for j in (2 * i + 1, 2 * i + 2) if j < pages] + [rng.randrange(pages) for _ in range(6)]
        paragraphs = "".join(
            f"<p>{' '.join(rng.choice(WORDS) for _ in range(60))} (page {i}, paragraph {k})</p>" for k in range(5)
        )
        nav = "".join(f'<li><a href="/p/{j}.html">page {j}</a></li>' for j in links)
        body = (
            f"<!doctype html><html><head><title>Page {i}</title><script>var t={i};</script></head><body>"
            f"<nav><ul>{nav}</ul></nav><main><h1>Page {i}</h1>{paragraphs}<pre>for k in range({i}):\n"
            f"    acc += a[k]</pre></main><footer>footer</footer></body></html>"
        ).encode()
        site[f"/p/{i}.html".encode()] = body
    site[b"/robots.txt"] = b"User-agent: *\nDisallow: /private/\n"
    return site


def _response(status: bytes, body: bytes, ctype: bytes) -> bytes:
    return (
        b"HTTP/1.1 "
        + status
        + b"\r\nContent-Type: "
        + ctype
        + b"\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\nConnection: keep-alive\r\n\r\n"
        + body
    )


def serve(port_file: str, pages: int) -> None:
    """The site server (runs in its own process): prebuilt responses, keep-alive, pipelining-safe."""
    site = build_site(pages)
    ready = {
        path: _response(b"200 OK", body, b"text/plain" if path.endswith(b".txt") else b"text/html")
        for path, body in site.items()
    }
    not_found = _response(b"404 Not Found", b"not found", b"text/plain")

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1]
                writer.write(ready.get(path, not_found))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=1024)
        Path(port_file).write_text(str(server.sockets[0].getsockname()[1]))
        async with server:
            await server.serve_forever()

    asyncio.run(main())


# -- the crawlers ------------------------------------------------------------------------------------------

SCRAPY_SPIDER = """
import json, sys
import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerProcess

base, pages, concurrency, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

class Site(scrapy.Spider):
    name = "bench"
    start_urls = [base + "/p/0.html"]

    def parse(self, response):
        yield {"url": response.url, "title": response.css("title::text").get(),
               "text": " ".join(response.xpath("//main//text()").getall())}
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse)

process = CrawlerProcess(settings={
    "CONCURRENT_REQUESTS": concurrency, "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency, "DOWNLOAD_DELAY": 0,
    "ROBOTSTXT_OBEY": True, "CLOSESPIDER_PAGECOUNT": pages, "DEPTH_LIMIT": 100, "LOG_LEVEL": "ERROR",
    "TELNETCONSOLE_ENABLED": False, "AUTOTHROTTLE_ENABLED": False, "HTTPCACHE_ENABLED": False,
    "USER_AGENT": "scrapy-bench", "REQUEST_FINGERPRINTER_IMPLEMENTATION": "2.7",
})
crawler = process.create_crawler(Site)

def closed(spider):
    from datetime import datetime, timezone
    stats = crawler.stats.get_stats()
    elapsed = (datetime.now(timezone.utc) - stats["start_time"]).total_seconds()
    json.dump({"responses": stats.get("response_received_count", 0), "elapsed_s": elapsed}, open(out, "w"))

crawler.signals.connect(closed, signal=signals.spider_closed)
process.crawl(crawler)
process.start()
"""


def tree_rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants, in KiB (0 once it is gone)."""
    total = 0
    try:
        with open(f"/proc/{pid}/status") as status:
            total += next((int(line.split()[1]) for line in status if line.startswith("VmRSS:")), 0)
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            total += sum(tree_rss_kib(int(child)) for child in children.read().split())
    except (OSError, ValueError):
        pass
    return total


class TreeSampler:
    """Samples a process tree's summed RSS every ``every`` seconds in a thread; ``peak_mib`` after ``stop``."""

    def __init__(self, pid: int, every: float = 0.02):
        self.pid, self.every, self.peak = pid, every, 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._done.wait(self.every):
            self.peak = max(self.peak, tree_rss_kib(self.pid))

    def stop(self) -> int:
        self._done.set()
        self._thread.join()
        return self.peak // 1024


def run_measured(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, int, float, str, int]:
    """Runs ``argv``; returns (wall s, peak RSS MiB, CPU s (user + system) of that process and the children it
    waited for, stdout, peak tree RSS MiB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    sampler = TreeSampler(proc.pid)
    stdout = proc.stdout.read().decode()
    stderr = proc.stderr.read().decode()
    tree = sampler.stop()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:4]} failed ({proc.returncode}):\n{stderr[-2000:]}")
    return time.perf_counter() - start, usage.ru_maxrss // 1024, usage.ru_utime + usage.ru_stime, stdout, tree


def bench_shijie(base: str, pages: int, concurrency: int, workdir: Path) -> dict:
    db = workdir / f"shijie-{concurrency}-{time.time_ns()}.db"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    wall, rss, cpu, out, tree = run_measured(
        [
            sys.executable,
            "-m",
            "shijie",
            "crawl",
            base + "/p/0.html",
            "--db",
            str(db),
            "--delay",
            "0",
            "--concurrency",
            str(concurrency),
            "--per-host",
            str(concurrency),
            "--max-pages",
            str(pages),
            "--max-depth",
            "100",
            "--json",
        ],
        env,
    )
    stats = json.loads(out)
    return {
        "crawler": "shijie",
        "concurrency": concurrency,
        "pages": stats["fetched"],
        "stored": stats["stored"],
        "crawl_s": stats["elapsed_s"],
        "wall_s": wall,
        "rss_mib": rss,
        "tree_rss_mib": tree,
        "cpu_s": cpu,
    }


LIBRARY_CALL = """
import json, sys
from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db
base, db, pages, concurrency = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
stats = crawl(open_db(db), [base + "/p/0.html"], CrawlSettings(delay=0, concurrency=concurrency, per_host=concurrency,
                                                               max_pages=pages, max_depth=100))
print(json.dumps(stats.to_json()))
"""


def bench_shijie_library(base: str, pages: int, concurrency: int, workdir: Path) -> dict:
    """The same crawl as a library call: what the crawler itself costs, without the CLI's other imports."""
    db = workdir / f"lib-{concurrency}-{time.time_ns()}.db"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    wall, rss, cpu, out, tree = run_measured(
        [sys.executable, "-c", LIBRARY_CALL, base, str(db), str(pages), str(concurrency)], env
    )
    stats = json.loads(out)
    return {
        "crawler": "shijie (library)",
        "concurrency": concurrency,
        "pages": stats["fetched"],
        "stored": stats["stored"],
        "crawl_s": stats["elapsed_s"],
        "wall_s": wall,
        "rss_mib": rss,
        "tree_rss_mib": tree,
        "cpu_s": cpu,
    }


def bench_scrapy(base: str, pages: int, concurrency: int, workdir: Path) -> dict:
    script = workdir / "scrapy_bench_spider.py"
    script.write_text(SCRAPY_SPIDER)
    out = workdir / f"scrapy-{concurrency}.json"
    wall, rss, cpu, _, tree = run_measured([sys.executable, str(script), base, str(pages), str(concurrency), str(out)])
    stats = json.loads(out.read_text())
    return {
        "crawler": "scrapy",
        "concurrency": concurrency,
        "pages": stats["responses"],
        "stored": 0,
        "crawl_s": stats["elapsed_s"],
        "wall_s": wall,
        "rss_mib": rss,
        "tree_rss_mib": tree,
        "cpu_s": cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", choices=["shijie", "scrapy"], default=None)
    parser.add_argument("--serve", metavar="PORT_FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.pages)
        return

    with tempfile.TemporaryDirectory(prefix="crawl-bench-") as tmp:
        workdir = Path(tmp)
        port_file = workdir / "port"
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port_file), "--pages", str(args.pages)])
        try:
            for _ in range(200):
                if port_file.exists() and port_file.read_text():
                    break
                time.sleep(0.05)
            base = f"http://127.0.0.1:{port_file.read_text()}"
            rows = []
            for concurrency in args.concurrency:
                for _ in range(args.repeat):
                    for name, bench in (
                        ("shijie", bench_shijie),
                        ("shijie", bench_shijie_library),
                        ("scrapy", bench_scrapy),
                    ):
                        if args.only in (None, name):
                            rows.append(bench(base, args.pages, concurrency, workdir))
                            print(json.dumps(rows[-1]), file=sys.stderr)
        finally:
            server.terminate()
            server.wait(timeout=10)

    print(f"\n{args.pages}-page site on 127.0.0.1, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}\n")
    print(
        "| crawler | concurrency | pages | stored | crawl s | pages/s | wall s | CPU s (process) | peak RSS MiB"
        " | peak tree RSS MiB |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['crawler']} | {r['concurrency']} | {r['pages']} | {r['stored']} | {r['crawl_s']:.1f} | "
            f"{r['pages'] / r['crawl_s']:.0f} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | {r['rss_mib']} | "
            f"{r['tree_rss_mib']} |"
        )


if __name__ == "__main__":
    main()
