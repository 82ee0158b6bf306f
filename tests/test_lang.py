"""--lang zh reaches everything a reader reads (headers, reasons, states, errors), CJK text lines up by display
width, and shijie --version answers."""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len

from shijie import __version__
from shijie.text import Lang, translate
from tests.conftest import run_shijie
from tests.reader_corpus import build_curated


@pytest.fixture(scope="module")
def curated(tmp_path_factory):
    db = tmp_path_factory.mktemp("zh") / "shijie.db"
    return db, build_curated(db)


def zh(db, *args: str, code: int = 0):
    result = run_shijie(*args, "--lang", "zh", "--db", str(db))
    assert result.returncode == code, result.stderr
    return result


def test_version():
    result = run_shijie("--version")
    assert (result.returncode, result.stdout.strip()) == (0, f"shijie {__version__}")


def test_tables_and_states_in_chinese(curated):
    db, ids = curated
    score = zh(db, "score", "--limit", "3").stdout
    assert f"已按“operator-adaptation”为 {len(ids)} 篇资料评分" in score  # discarded documents are scored too
    for header in ("编号", "价值", "相关性", "重复", "标题"):
        assert header in score
    assert "high" not in score and "高" in score
    listed = zh(db, "list").stdout
    assert "共 13 篇资料，显示 13 篇" in listed and "保留" in listed and "舍弃" in listed and "论文" in listed
    skills = zh(db, "skills", "list").stdout
    assert "未解锁" in skills and "名称" in skills and "还需" in skills and "locked" not in skills
    curate = zh(db, "mastery").stdout
    assert "【当前领域掌握度：" in curate


def test_show_reasons_in_chinese(curated):
    db, ids = curated
    out = zh(db, "show", str(ids["arxiv"])).stdout
    for words in (
        "【资料价值：",
        "（保留）",
        "类型：论文",
        "相关性 ",
        "主题画像 ",
        "主题术语 ",
        "找到的术语：",
        "价值构成 ",
        "已标注资料的平均值",
        "形式：",
        " 词；",
        "不重复任何更应保留的副本",
    ):
        assert words in out, (words, out)
    assert "块）" in out and "code blocks" not in out and "repeats" not in out and "average" not in out


def test_errors_in_chinese(curated):
    db, _ = curated
    result = zh(db, "show", "999", code=1)
    assert result.stderr.strip() == "错误：没有资料 '999'（请给出编号、网址或路径；shijie list 可列出全部）"
    result = zh(db, "curate", "--min-value", "200", code=1)
    assert result.stderr.strip() == "错误：--min-value 须在 0 到 100 之间，而不是 200"
    result = zh(db, "search", "warp", "--limit", "0", code=1)
    assert result.stderr.strip() == "错误：--limit 须在 1 到 1000 之间，而不是 0"
    assert zh(db, "search", "quantum").stdout.strip() == "没有资料匹配 'quantum'"


def test_cjk_lines_up_by_display_width(curated):
    db, _ = curated
    lines = [line for line in zh(db, "mastery").stdout.splitlines() if line.endswith("%") and "【" not in line]
    assert len(lines) == 7
    assert len({cell_len(line) for line in lines}) == 1  # str.ljust counted a CJK character as one cell
    assert len({cell_len(line.split("%")[0].rsplit(" ", 1)[0].rstrip("█ ")) for line in lines}) > 1
    shares = {cell_len(line[: line.index(line.strip().split()[-1])]) for line in lines}
    assert len(shares) == 1


def test_translate_leaves_lines_it_does_not_know():
    assert translate("346 words", Lang.zh) == "346 词"
    assert translate("346 words", Lang.en) == "346 words"
    assert translate("something new from the scorer", Lang.zh) == "something new from the scorer"
    assert json.loads(json.dumps(translate("cues: arXiv record", Lang.zh))) == "特征：arXiv record"
