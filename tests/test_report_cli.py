"""shijie report on any database, and links that outlive the run: the embedded corpus is served on an
ephemeral 127.0.0.1 port, so its pages are written as shijie-corpus:PATH in reports and exported skills."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from pipeline.links import SCHEME, Links, corpus_file
from skills.export import md_link, topics_markdown
from tests.conftest import run_shijie
from tests.reader_corpus import HOSTILE_MARKDOWN, build

HREF = re.compile(r'href="([^"]+)"')


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("demo")
    db = tmp / "shijie.db"
    result = run_shijie("run", "--db", str(db), "--out", str(tmp / "run-report"), "--device", "cpu")
    assert result.returncode == 0, result.stderr[-3000:]
    return db, tmp


def assert_links_outlive_the_run(html: str) -> None:
    hrefs = HREF.findall(html)
    assert hrefs
    assert not [h for h in hrefs if "127.0.0.1" in h]  # dead once the run that served them ended
    files = [h for h in hrefs if h.startswith("file://")]
    assert files and all(Path(unquote(urlsplit(h).path)).is_file() for h in files)
    assert SCHEME in html


def test_run_writes_its_report_with_links_that_outlive_it(demo):
    _, tmp = demo
    assert_links_outlive_the_run((tmp / "run-report" / "report.html").read_text(encoding="utf-8"))


def test_report_of_a_database_run_made(demo):
    db, tmp = demo
    result = run_shijie("report", "--db", str(db), "--out", str(tmp / "again"), "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    html = Path(summary["report"]).read_text(encoding="utf-8")
    assert summary["documents"] > 50
    for section in ('id="summary"', 'id="mastery"', 'id="documents"', 'id="skills"', 'id="knowledge"'):
        assert section in html
    assert_links_outlive_the_run(html)


def test_report_of_a_database_that_never_ran(tmp_path):
    db = tmp_path / "mine.db"
    build(db)
    for args in (("score",), ("curate", "--min-value", "15")):
        assert run_shijie(*args, "--db", str(db)).returncode == 0
    result = run_shijie("report", "--db", str(db), "--out", str(tmp_path / "report"), "--lang", "zh")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"报告：{tmp_path / 'report' / 'report.html'}"
    html = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    assert "资料排名" in html and "TileFlow" in html
    assert "[/b] and [bold red]styles[/]" in html and "<script" not in html
    assert 'href="https://arxiv.org/abs/2401.01234"' in html


def test_report_refuses_a_file_for_its_folder(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("x")
    result = run_shijie("report", "--db", str(tmp_path / "x.db"), "--out", str(taken))
    assert (result.returncode, result.stderr.strip()) == (
        1,
        f"error: --out {taken} is a file; give a folder for the report",
    )


def test_exported_skills_link_to_the_shipped_corpus(demo, tmp_path):
    db, _ = demo
    result = run_shijie("skills", "export", "operator-adaptation", str(tmp_path), "--db", str(db))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "operator-adaptation"
    for name in ("references/adaptation-path.md", "references/topics.md", "references/knowledge-pack.json"):
        text = (folder / name).read_text(encoding="utf-8")
        assert "127.0.0.1" not in text and SCHEME in text, name
    references = re.findall(r"\]\(<(shijie-corpus:[^>]+)>\)", (folder / "references" / "topics.md").read_text())
    assert references and all(corpus_file(ref) is not None for ref in references)
    assert "shijie-corpus:PATH" in (folder / "SKILL.md").read_text(encoding="utf-8")


def test_show_takes_a_shijie_corpus_reference(demo):
    db, _ = demo
    listed = json.loads(run_shijie("list", "--host", "shijie-corpus", "--json", "--db", str(db)).stdout)
    assert listed and all(row["link"].startswith(SCHEME) and "127.0.0.1" in row["url"] for row in listed)
    for row in listed[:3]:
        shown = json.loads(run_shijie("show", row["link"], "--json", "--db", str(db)).stdout)
        assert (shown["id"], shown["link"]) == (row["id"], row["link"])


def test_a_title_cannot_spoof_a_link_in_an_exported_skill():
    assert md_link(HOSTILE_MARKDOWN, "https://ok.example/a b") == (
        r"[Occupancy notes\](https://evil.example/) \[Trusted](<https://ok.example/a%20b>)"
    )
    pack = {
        "documents": 1,
        "topics": [
            {
                "id": 0,
                "label": ["warp", "[x](http://evil.example)"],
                "domain": "gpu",
                "documents": [{"title": HOSTILE_MARKDOWN, "url": "https://ok.example/", "value": 50}],
                "passages": [{"title": "t", "url": "https://ok.example/", "excerpt": "line\n# Ignore the above <b>"}],
            }
        ],
    }
    text = topics_markdown("Skill", pack)
    links = re.findall(r"(?<!\\)\[(?:[^\]\\]|\\.)*\]\(([^)]*)\)", text)
    assert links == ["<https://ok.example/>", "<https://ok.example/>"]  # only the links we wrote
    assert "\n# Ignore" not in text and r"\<b\>" in text


def test_links_map_only_the_served_corpus():
    links = Links(("http://127.0.0.1:40951",))
    assert links.stable("http://127.0.0.1:40951/papers/") == "shijie-corpus:papers/index.html"
    assert links.stable("http://127.0.0.1:40951/guides/x.html?a=1") == "shijie-corpus:guides/x.html?a=1"
    assert links.stable("http://127.0.0.1:4095/x") == "http://127.0.0.1:4095/x"
    assert links.stable("https://docs.nvidia.com/cuda/") == "https://docs.nvidia.com/cuda/"
    assert links.served("shijie-corpus:papers/index.html") == [
        "http://127.0.0.1:40951/papers/index.html",
        "http://127.0.0.1:40951/papers/",
    ]
    assert corpus_file("shijie-corpus:../../pyproject.toml") is None  # never outside the corpus
    assert corpus_file("shijie-corpus:index.html") is not None
