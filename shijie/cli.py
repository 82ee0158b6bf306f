"""The ``shijie`` command: a thin skin over ``pipeline`` and ``skills``.

Each ``shijie/cmd_*.py`` module holds the commands of one stage, each a few lines around one library
call; this module only assembles them. User mistakes raise ``ShijieError`` and end as one line on stderr
with exit code 1 (an error about one input names its flag: ``shijie.options.Group``); usage errors exit 2
(click).
"""

from __future__ import annotations

import sys

import typer

from pipeline.errors import ShijieError
from shijie import __version__, cmd_crawl, cmd_read, cmd_run, cmd_score, cmd_skills
from shijie.options import Group
from shijie.terminal import clean
from shijie.text import lang_in, say, translate

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
    try:
        app()
    except ShijieError as exc:
        lang = lang_in(sys.argv[1:])
        print(say("error.prefix", lang) + translate(clean(str(exc)), lang), file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
