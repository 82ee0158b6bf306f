"""What extracting in worker processes costs per page: the crawl benchmark's pages, inline vs through ``Workers``.

    python benchmarks/extract_workers_bench.py [--pages 5000] [--workers 1 2] [--repeat 3]

The pages are ``crawl_bench.build_site``'s (~2.5 KB of HTML each). "inline" calls ``pipeline.extract.extract`` on
each page in this process; "workers N" sends the same pages through ``pipeline.crawler.workers.Workers(N)`` from an
event loop, 16 documents in flight (the crawl's default concurrency is 8, the benchmark's 16). Reported: wall
seconds, CPU seconds of this process and of the workers (``RUSAGE_CHILDREN`` after they end), and the overhead per
page = (total CPU - inline CPU) / pages, which is what the 2-core crawl pays, and the worker start-up in it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from crawl_bench import build_site

from pipeline.crawler.workers import Workers
from pipeline.extract import Limits, extract


def cpu() -> tuple[float, float]:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def inline(pages: list[tuple[str, bytes]], limits: Limits) -> dict:
    start, (own, kids) = time.perf_counter(), cpu()
    for url, body in pages:
        extract(body, "text/html", url, limits)
    own2, kids2 = cpu()
    return {"how": "inline", "wall_s": time.perf_counter() - start, "cpu_s": own2 - own, "workers_cpu_s": kids2 - kids}


async def through_workers(pages: list[tuple[str, bytes]], limits: Limits, count: int, in_flight: int) -> dict:
    workers = Workers(count, memory_mb=384)
    queue = list(reversed(pages))
    start, (own, kids) = time.perf_counter(), cpu()

    async def feed() -> None:
        while queue:
            url, body = queue.pop()
            await workers.extract(body, "text/html", url, limits)

    await asyncio.gather(*(feed() for _ in range(in_flight)))
    await workers.aclose()
    own2, kids2 = cpu()
    return {
        "how": f"workers {count}",
        "wall_s": time.perf_counter() - start,
        "cpu_s": own2 - own,
        "workers_cpu_s": kids2 - kids,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    site = build_site(args.pages)
    pages = [(f"http://127.0.0.1/{path.decode()}", body) for path, body in site.items() if path.endswith(b".html")]
    limits = Limits(max_links=2000, seconds=60.0)
    rows = []
    for _ in range(args.repeat):
        rows.append(inline(pages, limits))
        for count in args.workers:
            rows.append(asyncio.run(through_workers(pages, limits, count, in_flight=16)))
    base = min(r["cpu_s"] for r in rows if r["how"] == "inline")
    print(f"\n{len(pages)} pages, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}\n")
    print("| extraction | wall s | CPU s (this process) | CPU s (workers) | total CPU µs / page | overhead µs / page |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        total = r["cpu_s"] + r["workers_cpu_s"]
        print(
            f"| {r['how']} | {r['wall_s']:.2f} | {r['cpu_s']:.2f} | {r['workers_cpu_s']:.2f} | "
            f"{1e6 * total / len(pages):.0f} | {1e6 * (total - base) / len(pages):.0f} |"
        )


if __name__ == "__main__":
    main()
