"""Presentation on top: one catalogue of words, choices as enums, library errors that name the input they are
about and a CLI that names its flag in the same one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pipeline.choices import Label, Level, choose
from pipeline.errors import FIELD, UsageError
from shijie.text import CATALOGUE, Lang, acquired_panel, learning_panel, level_text, say, words
from skills.protocol import Device, Phase
from tests.conftest import REPO, run_shijie


def placeholders(template: str) -> list[str]:
    return sorted(re.findall(r"\{(\w+)\}", template))


def test_every_entry_has_both_languages_with_the_same_placeholders():
    for key, (english, chinese) in CATALOGUE.items():
        assert english.strip() and chinese.strip(), key
        assert placeholders(english) == placeholders(chinese), key


def test_every_phase_level_and_section_has_its_words():
    for phase in Phase:
        assert learning_panel(phase, Lang.en).startswith("[") and learning_panel(phase, Lang.zh).startswith("【")
    assert [learning_panel(phase, Lang.zh) for phase in Phase] == [
        "【技能结构识别中】",
        "【知识片段整理中】",
        "【推理路径压缩中】",
    ]
    assert {level_text(level, Lang.zh) for level in Level} == {"高", "中", "低"}
    assert level_text("unheard-of", Lang.zh) == "unheard-of"  # shown as it is, never a KeyError
    assert acquired_panel("Operator Adaptation", "算子适配", 2, Lang.zh) == "【算子适配 Lv.2，已习得】"
    assert acquired_panel("Operator Adaptation", None, 1, Lang.zh) == "【Operator Adaptation Lv.1，已习得】"
    report = words("report", Lang.zh)
    assert report["title"] == "视界 报告" and "report.title" not in report
    assert say("crawl.rate", "zh") == "页/秒" and say("crawl.rate") == "pages/s"


def test_no_panel_words_below_the_cli():
    # pipeline/ and skills/ report ids (Level.high, Phase.paths); only shijie/ turns them into words
    chinese = {
        piece.strip("【】（）：，")
        for key, (_, zh) in CATALOGUE.items()
        if key.startswith(("panel.", "crawl."))  # report headings are words a skill may use in its own content
        for piece in re.split(r"\{\w+\}", zh)
        if re.search(r"[\u4e00-\u9fff]", piece)
    }
    english = {CATALOGUE[f"panel.{phase}"][0].strip("[]") for phase in Phase}  # the others are common words
    fragments = chinese | english
    assert "推理路径压缩中" in fragments and "Recognizing skill structure…" in fragments
    for package in ("pipeline", "skills"):
        for path in (REPO / package).rglob("*.py"):
            source = path.read_text(encoding="utf-8")
            found = [piece for piece in fragments if piece in source]
            assert not found, (path, found)


def test_choices_are_enums_that_serialize_as_their_words():
    assert choose(Label, "good", "label") is Label.good
    assert choose(Device, Device.cuda, "device") is Device.cuda
    assert json.dumps({"relevance": Level.high, "device": Device.cpu}) == '{"relevance": "high", "device": "cpu"}'
    with pytest.raises(UsageError) as info:
        choose(Device, "tpu", "device")
    assert (info.value.field, str(info.value)) == ("device", "device must be auto, cpu or cuda, not 'tpu'")
    with pytest.raises(UsageError, match="must be en or zh, not 3"):
        choose(Lang, 3, "lang")


def test_an_error_names_its_field_and_a_front_end_its_own_name():
    error = UsageError(f"cuda: no GPU; use {FIELD} cpu", field="device")
    assert str(error) == "device cuda: no GPU; use device cpu"
    error.shown_as = "--device"
    assert str(error) == "--device cuda: no GPU; use --device cpu"
    assert str(UsageError("nothing to crawl")) == "nothing to crawl"


def test_library_errors_name_fields_and_the_cli_names_flags(tmp_path: Path, cli):
    from pipeline.curate import curate
    from pipeline.store import open_db

    with pytest.raises(UsageError) as info:
        curate(open_db(tmp_path / "lib.db"), 200)
    assert str(info.value) == "min_value must be between 0 and 100, not 200"
    with pytest.raises(UsageError) as info:  # in-process, as the CLI runs it
        cli("curate", "--min-value", "200")
    assert str(info.value) == "--min-value must be between 0 and 100, not 200"
    folder = tmp_path / "a-folder"
    folder.mkdir()
    result = run_shijie("mastery", "--db", str(folder))
    assert (result.returncode, result.stderr.strip()) == (1, f"error: --db {folder} is a folder, not a database file")


@pytest.mark.parametrize(
    "args, line",
    [
        (["mastery", "--lang", "fr"], "error: --lang must be en or zh, not 'fr'"),
        (["mark", "1", "meh"], "error: label must be good or bad, not 'meh'"),
        (["skills", "invoke", "operator-adaptation", "--op", "X", "--device", "gpu"], None),
    ],
)
def test_a_choice_outside_its_enum_is_one_line(tmp_path: Path, args, line):
    result = run_shijie(*args, "--db", str(tmp_path / "x.db"))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.strip() == (line or "error: --device must be auto, cpu or cuda, not 'gpu'")
    assert not (tmp_path / "x.db").exists()  # refused before anything was opened


def test_flags_come_from_the_command_that_ran():
    from shijie.docs import walk
    from shijie.options import flag

    commands = {" ".join(path[1:]): command for path, command, _ in walk()}
    assert flag(commands["crawl"], "max_pages") == "--max-pages"
    assert flag(commands["mark"], "label") == "label"  # an argument keeps its name
    assert flag(commands["skills invoke"], "device") == "--device"
    assert flag(commands["mastery"], "min_value") == "--min-value"  # not an input of this command
