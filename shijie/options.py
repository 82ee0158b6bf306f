"""Options every command takes (``--db``, ``--json``, ``--lang``), declared once."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from shijie.output import Output

DbOpt = Annotated[
    Optional[str], typer.Option("--db", envvar="SHIJIE_DB", help="SQLite database file (default ./shijie.db).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout, nothing else.")]
LangOpt = Annotated[str, typer.Option("--lang", help="Panel language: en or zh.")]


def output(as_json: bool, lang: str = "en") -> Output:
    return Output(as_json=as_json, lang=lang)
