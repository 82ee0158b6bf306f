"""Two crawls on one database (issue 11, item 5): one at a time.

The first crawl holds an OS lock on ``<db>.lock`` (``fcntl.flock``) for as long as it runs; a second crawl on the
same database stops at once with a one-line error naming the first one's pid. The kernel drops the lock when its
process dies, so a crawl killed with SIGKILL leaves nothing behind: the next crawl takes the lock and resumes."""

import os
import signal
import subprocess
import sys
import threading
import time

from conftest import REPO, run_shijie
from siteserver import Reply, Site, html

from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db


def slow_site(gate: threading.Event | None = None) -> Site:
    """40 pages at 0.2 s each; with a ``gate``, each page is held until the test sets it (at most 15 s, under the
    crawler's 20 s read timeout), so the first crawl outlasts whatever the test does meanwhile, however slow the
    machine is."""
    site = Site(latency_s=0.2)
    site.page("/", html("home", links=[f"/p/{i}" for i in range(40)]))
    for i in range(40):
        reply = Reply(body=html(f"page {i}", f"distinct text {i}").encode())
        site.route(f"/p/{i}", reply if gate is None else held(reply, gate))
    return site


def held(reply: Reply, gate: threading.Event):
    def answer(request):
        gate.wait(15)
        return reply

    return answer


def start(argv: list[str]) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_fetches(site: Site, n: int) -> None:
    deadline = time.monotonic() + 60
    while len([r for r in site.requests if r.path.startswith("/p/")]) < n and time.monotonic() < deadline:
        time.sleep(0.02)


def test_a_second_crawl_on_the_same_database_is_refused_naming_the_first(db_path):
    gate = threading.Event()  # the first crawl's pages are held until the second crawl has been answered
    site = slow_site(gate)
    with site.serve() as base:
        argv = [sys.executable, "-m", "shijie", "crawl", base + "/", "--db", str(db_path), "--delay", "0", "--json"]
        first = start(argv)
        try:
            wait_for_fetches(site, 2)
            second = run_shijie("crawl", base + "/", "--db", str(db_path), "--delay", "0")
            gate.set()
            assert second.returncode == 1, second.stderr
            assert second.stderr.strip().count("\n") == 0 and "Traceback" not in second.stderr
            assert f"pid {first.pid}" in second.stderr and "--db" in second.stderr
            assert first.wait(timeout=120) == 0, first.stderr.read()
        finally:
            gate.set()
            first.kill()
    # nothing was fetched twice: the second crawl never started
    assert max(len(site.hits(f"/p/{i}")) for i in range(40)) == 1
    assert open_db(db_path).execute("SELECT count(*) FROM crawl_runs").fetchone()[0] == 1


def test_a_killed_crawl_leaves_no_lock_behind(db_path):
    site = slow_site()
    with site.serve() as base:
        argv = [sys.executable, "-m", "shijie", "crawl", base + "/", "--db", str(db_path), "--delay", "0", "--json"]
        first = start(argv)
        wait_for_fetches(site, 2)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        stats = crawl(open_db(db_path), [base + "/"], CrawlSettings(delay=0))
    assert stats.resumed and stats.errors == 0
    assert open_db(db_path).execute("SELECT count(*) FROM documents").fetchone()[0] == 41


def test_the_lock_is_taken_in_the_library_too(db_path):
    """A library call and a CLI crawl meet the same lock (here: the library's crawl is the first).

    The library's crawl is held on its pages until the CLI's has answered: on a loaded machine the CLI's start-up
    (a new interpreter and its imports) once outlasted the whole slow site, the first crawl had let the lock go, and
    the second crawled instead of being refused."""
    import threading

    site = slow_site()
    released = threading.Event()
    pages = {f"/p/{i}": site.routes[f"/p/{i}"] for i in range(40)}

    def held(request):
        released.wait(120)
        return pages[request.path]

    for path in pages:
        site.route(path, held)
    with site.serve() as base:
        result = {}
        worker = threading.Thread(
            target=lambda: result.setdefault("stats", crawl(open_db(db_path), [base + "/"], CrawlSettings(delay=0)))
        )
        worker.start()
        wait_for_fetches(site, 2)
        second = run_shijie("crawl", base + "/", "--db", str(db_path), "--delay", "0")
        released.set()
        worker.join(timeout=120)
    assert second.returncode == 1 and f"pid {os.getpid()}" in second.stderr
    assert result["stats"].stored == 41
