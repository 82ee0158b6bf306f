"""The ``shijie`` command: a thin skin over ``pipeline`` and ``skills``.

Every command is a few lines around one library call. User mistakes raise ``ShijieError`` and end as one
line on stderr with exit code 1; usage errors exit 2 (typer/click).
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from pipeline.errors import ShijieError
from shijie.output import Output

app = typer.Typer(
    help="shijie (视界): crawl, score and curate GPU kernel optimization literature, and turn it into skills.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DbOpt = Annotated[
    Optional[str], typer.Option("--db", envvar="SHIJIE_DB", help="SQLite database file (default ./shijie.db).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout, nothing else.")]
LangOpt = Annotated[str, typer.Option("--lang", help="Panel language: en or zh.")]


def output(as_json: bool, lang: str) -> Output:
    return Output(as_json=as_json, lang=lang)


# -- commands ---------------------------------------------------------------------------------------


# -- entry point ------------------------------------------------------------------------------------


def main() -> None:
    try:
        app()
    except ShijieError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
