"""Options shared by several commands (``--db``, ``--json``, ``--lang``, ``--device``), declared once, and how
the CLI names the inputs that library errors talk about.

A choice (``--lang``, ``--device``, ``shijie mark``'s label) is a ``StrEnum``: the help lists its values
(``<en|zh>``), and a value outside them is the same one-line error as any other user error (exit 1), e.g.
``--lang must be en or zh, not 'fr'``.

Library errors name the input they are about by its library name (``UsageError(..., field="min_value")``);
``Group`` puts the flag of the command being run in its place, so the line reads ``--min-value must be …``.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any, Optional, TypeVar

import typer
from typer.core import TyperGroup

from pipeline.choices import choose
from pipeline.errors import ShijieError
from shijie.output import Output
from shijie.text import Lang
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


DbOpt = Annotated[
    Optional[str], typer.Option("--db", envvar="SHIJIE_DB", help="SQLite database file (default ./shijie.db).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout, nothing else.")]
LangOpt = Annotated[
    Lang, typer.Option("--lang", parser=choice(Lang, "--lang"), help="Language of the panels and headings.")
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


class Group(TyperGroup):
    """A ``shijie`` command group (the root and ``skills``): a library error about one input names it as the
    command that ran calls it. The innermost group names it first; the groups around it leave it be."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except ShijieError as error:
            if error.field and error.shown_as is None:
                name = ctx.invoked_subcommand
                error.shown_as = flag(self.get_command(ctx, name) if name else self, error.field)
            raise
