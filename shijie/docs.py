"""The README's CLI reference, generated from the commands' own ``--help``, so the two never drift.

    python -m shijie.docs            # rewrites README.md between the cli-reference markers
    python -m shijie.docs --check    # exit 1 when README.md is out of date (tests/test_docs.py does this too)

The help is rendered by click's plain formatter at a fixed width (the terminal's rich boxes are decoration
over the same text), one block per command, in the order the commands are registered.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

START, END = "<!-- cli-reference:start -->", "<!-- cli-reference:end -->"
WIDTH = 120  # wide enough that most example lines stay whole (copy-pasteable)
README = Path(__file__).resolve().parent.parent / "README.md"


def root_command() -> Any:
    from shijie.cli import app

    return typer.main.get_command(app)


def walk(
    command: Any | None = None, path: tuple[str, ...] = ("shijie",), parent: Any | None = None
) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    """Every command with its path (``("shijie", "skills", "list")``) and a help context, root first."""
    command = command or root_command()
    # typer ships its own copy of click, so duck typing rather than isinstance(click.Group)
    ctx = command.context_class(
        command, info_name=path[-1], parent=parent, terminal_width=WIDTH, max_content_width=WIDTH
    )
    yield path, command, ctx
    if is_group(command):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from walk(sub, (*path, name), ctx)


def is_group(command) -> bool:
    return hasattr(command, "list_commands")


def plain_help(command: Any, ctx: Any) -> str:
    # typer renders with rich when it is installed; the reference wants click's plain text of the same help
    previous = getattr(command, "rich_markup_mode", None)
    if hasattr(command, "rich_markup_mode"):
        command.rich_markup_mode = None
    try:
        text = command.get_help(ctx)
    finally:
        if hasattr(command, "rich_markup_mode"):
            command.rich_markup_mode = previous
    return "\n".join(line.rstrip() for line in text.splitlines()).strip()


def cli_reference() -> str:
    blocks = []
    for path, command, ctx in walk():
        blocks.append(f"### `{' '.join(path)}`\n\n```text\n{plain_help(command, ctx)}\n```\n")
    return "\n".join(blocks)


def examples(command: Any, path: tuple[str, ...]) -> list[str]:
    """The example command lines in a command's help: after ``Example:`` (on that line or the lines below
    it) or after a ``$`` prompt, starting with the command's own full name."""
    prefix = " ".join(path)
    found: list[str] = []
    in_block = False
    for raw in (command.help or "").splitlines():
        line = raw.strip().lstrip("\b").strip()
        heading = re.match(r"(?i)examples?:\s*(.*)$", line)
        if heading:
            line, in_block = heading.group(1), True
        elif line.startswith("$"):
            line = line[1:].strip()
        elif not in_block:
            continue
        if not line:
            in_block = in_block and not found
            continue
        if line == prefix or line.startswith(prefix + " "):
            found.append(line)
    return found


def parse_example(example: str) -> None:
    """Parses an example through the real command line parser (without running it); raises on a bad one."""
    argv = shlex.split(example)[1:]
    command: Any = root_command()
    ctx = command.make_context("shijie", argv)
    while is_group(command):
        rest = (
            [*ctx._protected_args, *ctx.args] if hasattr(ctx, "_protected_args") else [*ctx.protected_args, *ctx.args]
        )
        if not rest:
            return
        name, sub, rest = command.resolve_command(ctx, rest)
        command, ctx = sub, sub.make_context(name, rest, parent=ctx)


def update_readme(readme: Path = README) -> bool:
    """Rewrites the reference section; returns True when the file changed."""
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{readme} has no {START} … {END} section")
    new = re.sub(
        re.escape(START) + r".*?" + re.escape(END), lambda _: f"{START}\n{cli_reference()}{END}", text, flags=re.S
    )
    if new != text:
        readme.write_text(new, encoding="utf-8")
    return new != text


def readme_reference(readme: Path = README) -> str:
    text = readme.read_text(encoding="utf-8")
    match = re.search(re.escape(START) + r"\n(.*?)" + re.escape(END), text, re.S)
    return match.group(1) if match else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate the README's CLI reference from --help.")
    parser.add_argument("--check", action="store_true", help="only check; exit 1 when README.md is stale")
    parser.add_argument("--readme", type=Path, default=README)
    args = parser.parse_args(argv)
    if args.check:
        stale = readme_reference(args.readme) != cli_reference()
        print(
            f"{args.readme}: CLI reference {'is stale: run python -m shijie.docs' if stale else 'is up to date'}",
            file=sys.stderr,
        )
        return 1 if stale else 0
    changed = update_readme(args.readme)
    print(f"{args.readme}: CLI reference {'rewritten' if changed else 'already up to date'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
