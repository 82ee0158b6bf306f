"""Crawled text is data, never markup or control codes: hostile titles stored in a real database, printed by
the real CLI (with colour forced on, as on a terminal), come out as the characters they are."""

from __future__ import annotations

import re

import pytest

from shijie.terminal import clean, highlighted, plain, safe
from tests.conftest import run_shijie
from tests.reader_corpus import HOSTILE_LINK, HOSTILE_MARKUP, build

SGR = re.compile(r"\x1b\[[0-9;]*m")  # the colours rich itself writes


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    db = tmp_path_factory.mktemp("hostile") / "shijie.db"
    ids = build(db)
    for args in (("score",), ("curate", "--min-value", "15")):
        result = run_shijie(*args, "--db", str(db))
        assert result.returncode == 0, result.stderr[-2000:]
    return db, ids


def shijie(monkeypatch, *args: str) -> str:
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich writes styles and hyperlinks as to a terminal
    monkeypatch.setenv("COLUMNS", "200")
    result = run_shijie(*args)
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    for code in ("\x1b]", "\x1b[2J", "\x07", "\x9b", "\u202e"):  # window title, hyperlink, clear screen, bidi
        assert code not in out, (code, out[:2000])
    assert "\x1b" not in SGR.sub("", out), out[:2000]
    return SGR.sub("", out)


def test_score_show_and_list_print_hostile_titles_as_text(corpus, monkeypatch):
    db, ids = corpus
    for args in (("score", "--limit", "20"), ("list",)):
        out = shijie(monkeypatch, *args, "--db", str(db))
        assert "[/b] and [bold red]styles[/]" in out and ":warning:" in out and "⚠" not in out
        assert "[link=http://evil.example/]click me[/link]" in out
        assert "Clear screen title reversed" in out  # the codes gone, the words kept
    for name, title in (("markup", HOSTILE_MARKUP), ("link", HOSTILE_LINK)):
        out = shijie(monkeypatch, "show", str(ids[name]), "--db", str(db))
        assert out.splitlines()[0] == title


def test_show_text_strips_escapes_from_the_body(corpus, monkeypatch):
    db, ids = corpus
    out = shijie(monkeypatch, "show", str(ids["escapes"]), "--text", "--db", str(db))
    assert "Escapes in the text: red and " in out and "occupancy notes." in out
    assert "window title" not in out  # an OSC sequence goes whole, its text with it


def test_search_keeps_its_matches_visible_and_dotted_names_whole(corpus, monkeypatch):
    db, _ids = corpus
    out = shijie(monkeypatch, "search", "shared", "--db", str(db))
    assert "numba.cuda.[shared].array" in out  # rich read "[shared]" as a style tag and printed numba.cuda..array
    assert "[Shared] memory bank conflicts" in out
    out = shijie(monkeypatch, "search", "warp tuning", "--all", "--db", str(db))
    assert "[link=http://evil.example/]click me[/link] warp tuning" in out


def test_clean_safe_and_highlighted_are_the_one_rule():
    assert clean("a\x1b[2Jb\x1b]0;title\x07c\x1b]8;;http://x\x1b\\d\x1b]8;;\x1b\\e") == "abcde"
    assert clean("x\x9b31my\u202ez\x00\rw\ttab\nline") == "xyzw tab line"
    assert clean("keep\nlines\tand tabs", one_line=False) == "keep\nlinesand tabs".replace("lines", "lines    ")
    assert safe("[/b] [link=http://e]x[/link]") == r"\[/b] \[link=http://e]x\[/link]"
    assert safe("共享内存优化笔记", 9) == "共享内存…"  # cut by display cells, two per CJK character
    assert plain("[bold]x[/bold]").plain == "[bold]x[/bold]"
    text = highlighted("a [warp] \x1b[2Jb", ((2, 8),))
    assert text.plain == "a [warp] b" and [(s.start, s.end) for s in text.spans] == [(2, 8)]
