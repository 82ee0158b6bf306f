"""The README stays true: its CLI reference is the commands' --help, every command has help with a runnable
example, and the Quick start block is exactly the two commands CI and newcomers run."""

from __future__ import annotations

import re

import pytest
import typer

from shijie import docs

README_TEXT = docs.README.read_text(encoding="utf-8")
COMMANDS = [(path, command) for path, command, _ in docs.walk()]
LEAVES = [(path, command) for path, command in COMMANDS if not docs.is_group(command)]


def _ids(items):
    return [" ".join(path) for path, _ in items]


def test_readme_cli_reference_matches_help():
    assert docs.readme_reference() == docs.cli_reference(), "README's CLI reference is stale: python -m shijie.docs"


def test_cli_reference_covers_every_command():
    reference = docs.readme_reference()
    for path, _ in COMMANDS:
        assert f"### `{' '.join(path)}`" in reference


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=_ids(COMMANDS))
def test_every_command_has_help(path, command):
    assert (command.help or "").strip(), f"{' '.join(path)} has no help text (its docstring)"


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=_ids(LEAVES))
def test_every_option_and_argument_has_help(path, command):
    missing = [param.name for param in command.params if not (getattr(param, "help", None) or "").strip()]
    assert not missing, f"{' '.join(path)}: no help for {', '.join(missing)}"


@pytest.mark.parametrize(("path", "command"), LEAVES, ids=_ids(LEAVES))
def test_every_command_help_has_a_runnable_example(path, command):
    found = docs.examples(command, path)
    assert found, f"{' '.join(path)}: its help needs an example line starting with '{' '.join(path)}'"
    for example in found:
        docs.parse_example(example)  # the real parser accepts it: options exist, values have the right types


def test_parse_example_rejects_a_wrong_example():
    path, _ = LEAVES[0]
    with pytest.raises(typer.TyperException, match="no-such-option"):
        docs.parse_example(" ".join(path) + " --no-such-option")


def test_check_mode_reports_drift(tmp_path):
    stale = tmp_path / "README.md"
    stale.write_text(f"# x\n\n{docs.START}\nold text\n{docs.END}\n", encoding="utf-8")
    assert docs.main(["--check", "--readme", str(stale)]) == 1
    assert docs.main(["--readme", str(stale)]) == 0
    assert docs.main(["--check", "--readme", str(stale)]) == 0
    assert f"### `{' '.join(LEAVES[0][0])}`" in stale.read_text(encoding="utf-8")


def quick_start_commands(text: str) -> list[str]:
    block = re.search(r"## Quick start.*?```[a-z]*\n(.*?)```", text, re.S)
    assert block, "README has no ## Quick start code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quick_start_is_exactly_two_commands():
    commands = quick_start_commands(README_TEXT)
    assert len(commands) == 2, commands
    assert commands[0] == "pip install -e . && shijie run"
    assert "pytest" in commands[1]  # .ci/run executes this line as the test command


def test_readme_sections_a_newcomer_needs():
    for heading in (
        "## Quick start",
        "## Point it at real sources",
        "## Run on a GPU",
        "## Architecture",
        "## Performance log",
        "## CLI reference",
    ):
        assert heading in README_TEXT
    screenshot = docs.README.parent / "docs" / "report.png"
    assert "docs/report.png" in README_TEXT and screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "docs/perf.md" in README_TEXT
