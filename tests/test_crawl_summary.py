"""An honest summary (issue 11, item 6): what stopped the crawl, what failed and why, in the table and --json.

- a crawl that stops at ``--max-pages`` with work left says so and how to continue (``stopped``);
- a host that cannot be reached is an error with its reason (``errors_by_reason``), not "skipped by robots.txt";
- files skipped for their type do not spend the page budget, and a folder is walked as the crawl goes."""

import os

from siteserver import Reply, Site, html

from pipeline.corpus_server import free_port
from pipeline.crawl import CrawlSettings, crawl
from pipeline.store import open_db


def quick(**overrides) -> CrawlSettings:
    return CrawlSettings(**{"delay": 0.0, "backoff_base": 0.05, "rng_seed": 1, **overrides})


def test_a_max_pages_stop_says_so_and_how_to_continue(cli):
    site = Site()
    site.page("/", html("home", links=[f"/p/{i}" for i in range(10)]))
    site.route("/p/*", lambda req: Reply(body=html(f"page {req.path}").encode()))
    with site.serve() as base:
        stats = cli.json("crawl", base + "/", "--delay", "0", "--max-pages", "4")
        assert stats["stopped"] == "max_pages" and stats["queued"] == 7
        human = cli("crawl", base + "/", "--delay", "0", "--max-pages", "4")
        assert "--max-pages 4" in human.stdout and "run the same command again" in human.stdout
        zh = cli("crawl", base + "/", "--delay", "0", "--max-pages", "2", "--lang", "zh")
        assert "--max-pages 2" in zh.stdout and "再次运行" in zh.stdout
        done = cli.json("crawl", base + "/", "--delay", "0")
    assert done["stopped"] is None and done["queued"] == 0 and done["stored"] == 1


def test_an_unreachable_host_is_an_error_with_its_reason_not_a_robots_skip(db_path):
    closed = f"http://127.0.0.1:{free_port()}"
    db = open_db(db_path)
    stats = crawl(db, [closed + "/", closed + "/other"], quick(max_attempts=1))
    assert stats.skipped_robots == 0 and stats.skipped.get("robots") is None
    assert stats.errors == 2 and stats.errors_by_reason == {"unreachable": 2}
    errors = [e for (e,) in db.execute("SELECT error FROM fetch_errors")]
    assert all("ConnectError" in e and "robots" not in e for e in errors), errors


def test_errors_are_listed_by_reason_in_json_and_the_table(cli):
    site = Site()
    site.page("/", html("home", links=["/gone", "/also-gone", "/broken", "/big"]))
    site.route("/broken", Reply(500))
    site.route("/big", Reply(body=b"<p>" + b"x" * 3_000_000 + b"</p>"))
    with site.serve() as base:
        seeds = cli.db.with_name("seeds.toml")
        seeds.write_text(f'[crawl]\ndelay = 0\nmax_attempts = 1\nmax_bytes = 1000000\n\n[[seed]]\nurl = "{base}/"\n')
        stats = cli.json("crawl", str(seeds))
        for key in ("fetched", "stored", "skipped_robots", "errors", "duplicates", "elapsed_s"):
            assert key in stats
        assert stats["errors"] == 4
        assert stats["errors_by_reason"] == {"HTTP 404": 2, "HTTP 500": 1, "too large": 1}
        table = cli("crawl", str(seeds), "--db", str(cli.db.with_name("t.db"))).stdout
    assert "HTTP 404" in table and "too large" in table


def test_files_skipped_for_their_type_do_not_spend_the_page_budget(db_path, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(20):
        (folder / f"a{i:02}.bin").write_bytes(bytes(range(256)))
        (folder / f"b{i:02}.png.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(300))  # binary, named .html
    (folder / "c1.md").write_text("# One\n\nfirst note\n")
    (folder / "c2.md").write_text("# Two\n\nsecond note\n")
    stats = crawl(open_db(db_path), [str(folder)], quick(max_pages=2))
    assert stats.stored == 2 and stats.skipped == {"type": 40} and stats.stopped is None


def test_a_folder_is_walked_as_the_crawl_goes(db_path, tmp_path, monkeypatch):
    """``shijie crawl /usr --max-pages 5`` reads its five files without listing all of /usr first."""
    tree = tmp_path / "tree"
    for d in range(200):
        folder = tree / f"d{d:03}"
        folder.mkdir(parents=True)
        (folder / "note.md").write_text(f"# Note {d}\n\ntext {d}\n")
    listed: list[str] = []
    real_scandir = os.scandir

    def scandir(path="."):
        listed.append(os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    stats = crawl(open_db(db_path), [str(tree)], quick(max_pages=5))
    monkeypatch.undo()
    assert stats.stored == 5 and stats.stopped == "max_pages"
    assert len(listed) <= 10, len(listed)  # the root and the few folders read, not all 200
