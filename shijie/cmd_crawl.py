"""The crawl stage's command: ``shijie crawl``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from pipeline.crawl import CrawlSettings, CrawlStats, crawl_embedded
from pipeline.crawl import crawl as run_crawl
from pipeline.seeds import load_seeds_file
from pipeline.store import open_db
from shijie.options import DbOpt, JsonOpt, LangOpt, output
from shijie.output import Output
from shijie.text import Lang, reason_text, say

SeedsArg = Annotated[
    list[str] | None,
    typer.Argument(
        help="URL, local file or folder, arxiv:QUERY, or a seeds file (.toml). None: the embedded corpus.",
        show_default=False,
    ),
]
MaxPagesOpt = Annotated[
    int | None, typer.Option("--max-pages", help="Stop after this many requests in this crawl [1000].")
]
MaxDepthOpt = Annotated[int | None, typer.Option("--max-depth", help="Links followed from a seed [4].")]
ConcurrencyOpt = Annotated[int | None, typer.Option("--concurrency", help="Requests in flight in all [8].")]
PerHostOpt = Annotated[int | None, typer.Option("--per-host", help="Requests in flight to one host [2].")]
DelayOpt = Annotated[
    float | None,
    typer.Option(
        "--delay",
        help="Seconds between requests to one host; robots.txt Crawl-delay can raise it [1; 0 for the embedded corpus].",
    ),
]
AllowHostOpt = Annotated[
    list[str] | None,
    typer.Option("--allow-host", help="Also follow links to this host (repeatable; .example.org admits subdomains)."),
]
RecrawlOpt = Annotated[
    bool,
    typer.Option("--recrawl", help="Fetch finished pages again (conditional requests: unchanged pages cost a 304)."),
]


def _settings(seeds: list[str], given: dict[str, Any], embedded: bool) -> CrawlSettings:
    defaults: dict[str, Any] = {}
    for seed in seeds:
        if seed.endswith(".toml") and Path(seed).is_file():
            defaults.update(load_seeds_file(Path(seed))[1])  # checked there, name by name
    if embedded:
        defaults.setdefault("delay", 0.0)  # we serve it ourselves, from this process
    merged = {**defaults, **{k: v for k, v in given.items() if v is not None}}
    if "allow_hosts" in defaults and given.get("allow_hosts"):
        merged["allow_hosts"] = list(defaults["allow_hosts"]) + list(given["allow_hosts"])
    return CrawlSettings(**merged)


def crawl(
    seeds: SeedsArg = None,
    max_pages: MaxPagesOpt = None,
    max_depth: MaxDepthOpt = None,
    concurrency: ConcurrencyOpt = None,
    per_host: PerHostOpt = None,
    delay: DelayOpt = None,
    allow_host: AllowHostOpt = None,
    recrawl: RecrawlOpt = False,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Crawl seeds politely into the database; resumes an unfinished crawl there. No seed: the embedded corpus.

    Run again on the same --db, a crawl that was killed continues where it stopped; a finished one fetches
    only what is still queued (--recrawl: every page again, with conditional requests). robots.txt,
    Crawl-delay and Retry-After are always obeyed; links never lead off the seeds' hosts (see --allow-host)
    or into private networks.

    Example: shijie crawl https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/ arxiv:'flash attention' --max-pages 200
    """
    out = output(as_json, lang)
    seeds = list(seeds or [])
    given = {
        "max_pages": max_pages,
        "max_depth": max_depth,
        "concurrency": concurrency,
        "per_host": per_host,
        "delay": delay,
        "allow_hosts": allow_host or None,
        "recrawl": recrawl or None,
    }
    database = open_db(db)
    settings = _settings(seeds, given, embedded=not seeds)
    with _progress(out, settings) as on_progress:
        if seeds:
            stats = run_crawl(database, seeds, settings, on_progress=on_progress)
        else:
            stats = crawl_embedded(database, settings, on_progress=on_progress)
    out.emit(stats.to_json())
    if not as_json:
        _summary(out, stats, settings)


class _progress:
    """A rich progress bar on stderr (pages, rate, errors, queue); silent when stderr is not a terminal."""

    def __init__(self, out: Output, settings: CrawlSettings):
        self.console = out.err
        self.settings = settings
        self.bar: Any = None

    def __enter__(self):
        if not self.console.is_terminal:
            return None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = self.bar = Progress(
            TextColumn("crawl"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(
                "{task.fields[rate]:>6.1f} pages/s · {task.fields[errors]} errors · {task.fields[queue]} queued"
            ),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
        )
        bar.start()
        self.task = bar.add_task("crawl", total=self.settings.max_pages, rate=0.0, errors=0, queue=0)

        def update(stats: CrawlStats) -> None:
            bar.update(
                self.task, completed=stats.fetched, rate=stats.pages_per_s, errors=stats.errors, queue=stats.queued
            )

        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False


def _summary(out: Output, stats: CrawlStats, settings: CrawlSettings) -> None:
    from rich.table import Table

    def label(key: str, **values: object) -> str:
        return say(f"crawl.{key}", out.lang, **values)

    caps = {
        "links_per_page": settings.max_links_per_page,
        "frontier_per_host": settings.max_frontier_per_host,
        "frontier": settings.max_frontier,
    }

    table = Table(title=label("title") + (label("resumed") if stats.resumed else ""), show_header=False)
    table.add_column("what")
    table.add_column("count", justify="right")
    rows = [
        (label("fetched"), stats.fetched),
        (label("stored"), stats.stored),
        (label("updated"), stats.updated),
        (label("duplicates"), stats.duplicates),
        (label("not_modified"), stats.not_modified),
        (label("robots"), stats.skipped_robots),
        *((f"{label('skipped')}: {reason}", n) for reason, n in sorted(stats.skipped.items()) if reason != "robots"),
        (label("retries"), stats.retries),
        (label("errors"), stats.errors),
        *(
            (label("error_reason", reason=reason_text(reason, out.lang)), n)
            for reason, n in sorted(stats.errors_by_reason.items())
        ),
        *(((label("truncated"), stats.truncated),) if stats.truncated else ()),
        *((label(f"cap.{cap}", n=caps.get(cap, "?")), n) for cap, n in sorted(stats.caps.items())),
        (label("queued"), stats.queued),
        (label("documents"), stats.documents_total),
        (label("elapsed"), f"{stats.elapsed_s:.1f} s ({stats.pages_per_s:.1f} {label('rate')})"),
    ]
    for what, count in rows:
        table.add_row(what, str(count))
    out.human.print(table)
    if stats.stopped == "max_pages":
        out.human.print(label("stopped.max_pages", max_pages=settings.max_pages, queued=stats.queued))
