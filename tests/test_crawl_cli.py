"""``shijie crawl`` as users call it: the --json contract, seeds files, local paths, one-line errors."""

import json

from conftest import run_shijie
from siteserver import Site, html

from pipeline.resources import data_dir
from pipeline.seeds import load_seeds_file, parse_seeds


def test_json_contract_and_local_folder(cli, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# Bank conflicts\n\nPad the tile by one column.\n")
    (notes / "b.html").write_text(html("Coalescing", "Adjacent threads, adjacent addresses."))
    (notes / "c.bin").write_bytes(bytes(range(256)))
    stats = cli.json("crawl", str(notes))
    for key in ("fetched", "stored", "skipped_robots", "errors", "duplicates", "elapsed_s"):
        assert key in stats
    assert stats["stored"] == 2 and stats["skipped"] == {"type": 1}
    again = cli.json("crawl", str(notes))  # unchanged files are not read again
    assert again["fetched"] == 0 and again["stored"] == 0


def test_human_output_is_a_summary_table(cli):
    site = Site()
    site.page("/", html("home"))
    with site.serve() as base:
        result = cli("crawl", base + "/", "--delay", "0")
    assert "stored (new documents)" in result.stdout and "fetched" in result.stdout
    zh = cli("crawl", base + "/", "--delay", "0", "--lang", "zh")
    assert "新存入文档" in zh.stdout and "stored" not in zh.stdout


def test_user_errors_are_one_line(tmp_path):
    bad_seed = run_shijie("crawl", "no-such-thing", "--db", str(tmp_path / "x.db"))
    assert bad_seed.returncode == 1 and bad_seed.stderr.strip().count("\n") == 0
    assert "no-such-thing" in bad_seed.stderr and "Traceback" not in bad_seed.stderr
    broken = tmp_path / "seeds.toml"
    broken.write_text("[[seed]]\nurl = \n")
    result = run_shijie("crawl", str(broken), "--db", str(tmp_path / "x.db"))
    assert result.returncode == 1 and "seeds file" in result.stderr and "Traceback" not in result.stderr


def test_shipped_seeds_file_parses():
    seeds, defaults = load_seeds_file(data_dir() / "seeds.toml")
    parsed = parse_seeds(seeds)
    assert len(parsed.urls) >= 5 and len(parsed.arxiv) >= 2 and defaults["delay"] >= 1.0
    assert all(url.startswith("https://") for url in parsed.urls)


def test_seeds_file_settings_apply(tmp_path):
    site = Site()
    site.page("/", html("home", links=["/a", "/b", "/c"]))
    for path in "abc":
        site.page(f"/{path}", html(path))
    with site.serve() as base:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(f'[crawl]\nmax_pages = 2\ndelay = 0\n\n[[seed]]\nurl = "{base}/"\n')
        result = run_shijie("crawl", str(seeds), "--db", str(tmp_path / "s.db"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["fetched"] == 2
