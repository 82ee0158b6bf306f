"""Options shared by several commands (``--db``, ``--json``, ``--lang``, ``--device``), declared once, and how
the CLI names the inputs that library errors talk about.

A choice (``--lang``, ``--device``, ``shijie mark``'s label) is a ``StrEnum``: the help lists its values
(``<en|zh>``), and a value outside them is the same one-line error as any other user error (exit 1), e.g.
``--lang must be en or zh, not 'fr'``.

Library errors name the input they are about by its library name (``UsageError(..., field="min_value")``);
``Group`` puts the flag of the command being run in its place, so the line reads ``--min-value must be …``.
It also turns what would otherwise end a command with a traceback into the same kind of line: a SQLite
failure on the database (full disk, damaged file, read-only location: ``pipeline.store.storage_error``,
naming the ``--db`` the command was given), a file that cannot be read or written (the path and the
system's reason) and Ctrl-C (``Interrupted``, which names the command line that resumes the work).
"""

from __future__ import annotations

import shlex
import sqlite3
import sys
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperGroup

from pipeline.choices import choose
from pipeline.errors import ShijieError, StorageError
from shijie.output import Output
from shijie.text import Lang, say
from skills.protocol import Device

E = TypeVar("E", bound=StrEnum)


def choice(kind: type[E], shown_as: str) -> Callable[[Any], E]:
    """A typer ``parser`` reading a member of ``kind``; its error names the input as ``shown_as``."""

    def parse(value: Any) -> E:
        try:
            return choose(kind, value, shown_as.lstrip("-").replace("-", "_"))
        except ShijieError as error:
            error.shown_as = shown_as
            raise

    return parse


def _remember_db(ctx: typer.Context, value: str | None) -> str | None:
    # the database a SQLite error is about, for Group; ``meta`` is shared by every context of one command line
    ctx.meta["shijie.db"] = value
    return value


DbOpt = Annotated[
    str | None,
    typer.Option("--db", envvar="SHIJIE_DB", callback=_remember_db, help="SQLite database file (default ./shijie.db)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout, nothing else.")]


def _remember_lang(ctx: typer.Context, value: Lang) -> Lang:
    ctx.meta["shijie.lang"] = value  # the language of a line Group writes (Ctrl-C)
    return value


LangOpt = Annotated[
    Lang,
    typer.Option(
        "--lang",
        parser=choice(Lang, "--lang"),
        callback=_remember_lang,
        help="Language of the panels and headings.",
    ),
]
DeviceOpt = Annotated[
    Device,
    typer.Option(
        "--device",
        parser=choice(Device, "--device"),
        help="Where the skill runs its kernel (auto: CUDA when it is usable).",
    ),
]


def output(as_json: bool, lang: Lang = Lang.en) -> Output:
    return Output(as_json=as_json, lang=lang)


def flag(command: Any, field: str) -> str:
    """How ``command`` calls the input a library names ``field``: its option (``--min-value``), its argument's
    name, or, for an input the command does not take itself, the flag that input has elsewhere."""
    for param in getattr(command, "params", []):
        if param.name == field:
            return param.opts[0] if param.param_type_name == "option" else param.name
    return "--" + field.replace("_", "-")


class Interrupted(ShijieError):
    """Ctrl-C: what was committed stays; ``resume`` is the command line that carries on."""

    exit_code = 130

    def __init__(self, resume: str, lang: Lang = Lang.en):
        super().__init__(say("safe.interrupted", lang, command=resume))
        self.resume = resume


def command_line(argv: list[str] | None = None) -> str:
    """The command line that was run, as a user would type it again."""
    return shlex.join(["shijie", *(sys.argv[1:] if argv is None else argv)])


class Group(TyperGroup):
    """A ``shijie`` command group (the root and ``skills``): a library error about one input names it as the
    command that ran calls it. The innermost group names it first; the groups around it leave it be."""

    def invoke(self, ctx: Any) -> Any:
        try:
            try:
                return super().invoke(ctx)
            except sqlite3.Error as exc:
                from pipeline.store import resolve_path, storage_error

                raise storage_error(exc, resolve_path(ctx.meta.get("shijie.db"))) from None
            except KeyboardInterrupt:
                raise Interrupted(command_line(), _lang(ctx)) from None
            except OSError as exc:
                if exc.filename is None:  # not a file the user named or a command writes: a bug to see whole
                    raise
                raise StorageError(f"{exc.filename}: {exc.strerror or exc}") from None
        except ShijieError as error:
            if error.field and error.shown_as is None:
                name = ctx.invoked_subcommand
                error.shown_as = flag(self.get_command(ctx, name) if name else self, error.field)
            raise


def _lang(ctx: Any) -> Lang:
    try:
        return Lang(ctx.meta.get("shijie.lang") or Lang.en)
    except ValueError:
        return Lang.en
