"""The ``shijie`` command: a thin skin over ``pipeline`` and ``skills``.

Each ``shijie/cmd_*.py`` module holds the commands of one stage, each a few lines around one library
call; this module only assembles them. User mistakes raise ``ShijieError`` and end as one line on stderr
with exit code 1 (an error about one input names its flag: ``shijie.options.Group``); usage errors exit 2
(click); Ctrl-C exits 130 with the command line that resumes the work.

With ``--json`` every error is one JSON object on stdout instead, with the same exit code::

    {"error": "--min-value must be between 0 and 100, not 200", "field": "--min-value", "kind": "usage"}

``error`` is the line a person would read, ``field`` the flag or argument it is about (null when none),
``kind`` one of usage | data | empty | storage | missing-extra | interrupted (``resume``: the command line
to run again) | arguments (click's own usage errors, exit 2).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import typer

from pipeline.errors import DataError, EmptyCorpusError, MissingExtraError, ShijieError, StorageError
from shijie import __version__, cmd_crawl, cmd_read, cmd_run, cmd_score, cmd_skills
from shijie.options import Group, Interrupted, command_line
from shijie.terminal import clean
from shijie.text import lang_in, say, translate

# click's base of the usage errors it prints itself (typer vendors click from 0.29 on: found, not imported)
ClickException: Any = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")

app = typer.Typer(
    cls=Group,
    help="shijie (视界): crawl, score and curate GPU kernel optimization literature, and turn it into skills.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# -- commands, one line per command module (keep this list sorted by stage) ---------------------------
app.command("crawl")(cmd_crawl.crawl)
app.command("score")(cmd_score.score)
app.command("show")(cmd_score.show)
app.command("mark")(cmd_score.mark)
app.command("curate")(cmd_score.curate)
app.command("mastery")(cmd_score.mastery)
app.command("search")(cmd_read.search)
app.command("list")(cmd_read.list_)
app.command("ls", hidden=True, help="Alias of shijie list.")(cmd_read.list_)
app.command("export")(cmd_read.export)
app.command("report")(cmd_read.report)
app.add_typer(cmd_skills.skills_app, name="skills")
app.command("run")(cmd_run.run)


def _version(value: bool) -> None:
    if value:
        print(f"shijie {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_version, is_eager=True
    ),
) -> None:
    """shijie (视界): crawl, score and curate GPU kernel optimization literature, and turn it into skills."""


def main() -> None:
    as_json = wants_json(sys.argv[1:])
    try:
        result = app(standalone_mode=False)
    except ShijieError as exc:
        _fail(exc, as_json)
    except ClickException as exc:  # click's own usage errors: a bad flag, a missing argument
        if not as_json:
            from typer import rich_utils

            rich_utils.rich_format_error(exc)
            sys.exit(exc.exit_code)
        param = getattr(exc, "param", None)
        field = (param.opts[0] if param.opts else param.name) if param is not None else None
        _emit_error({"error": exc.format_message(), "field": field, "kind": "arguments"}, exc.exit_code)
    except typer.Abort:  # end of input at a prompt
        _fail(Interrupted(command_line()), as_json)
    except KeyboardInterrupt:  # outside any command (while options were read)
        _fail(Interrupted(command_line()), as_json)
    sys.exit(result if isinstance(result, int) else 0)


def wants_json(argv: list[str]) -> bool:
    """``--json`` among the options (not after ``--``, where it would be a seed's name)."""
    return "--json" in (argv[: argv.index("--")] if "--" in argv else argv)


_KINDS: list[tuple[type[ShijieError], str]] = [
    (Interrupted, "interrupted"),
    (StorageError, "storage"),
    (EmptyCorpusError, "empty"),
    (DataError, "data"),
    (MissingExtraError, "missing-extra"),
]


def _fail(exc: ShijieError, as_json: bool) -> None:
    if not as_json:
        lang = lang_in(sys.argv[1:])
        print(say("error.prefix", lang) + translate(clean(str(exc)), lang), file=sys.stderr)
        sys.exit(exc.exit_code)
    kind = next((name for cls, name in _KINDS if isinstance(exc, cls)), "usage")
    payload: dict[str, Any] = {"error": str(exc), "field": exc.shown_as or exc.field, "kind": kind}
    if isinstance(exc, Interrupted):
        payload["resume"] = exc.resume
    _emit_error(payload, exc.exit_code)


def _emit_error(payload: dict[str, Any], code: int) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    sys.exit(code)
