"""``shijie run``: the whole job, on the user's seeds or the embedded demo, ending with the panels and the
report's path. Everything that can be checked before the crawl is: the report folder can be written, the
device is usable, the demo would not mix into a database holding other documents (``shijie.job``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from shijie import terminal
from shijie.cmd_crawl import MaxPagesOpt, SeedsArg
from shijie.options import DbOpt, DeviceOpt, JsonOpt, LangOpt, output
from shijie.text import Lang, learning_panel
from skills.protocol import Device

if TYPE_CHECKING:
    from rich.console import Console
    from rich.status import Status

    from pipeline.crawl import CrawlStats

OutOpt = Annotated[str, typer.Option("--out", help="Folder for report.html (created if needed).")]
BenchmarkOpt = Annotated[
    bool | None,
    typer.Option(
        "--benchmark/--no-benchmark",
        help="Benchmark against the vendor kernels (default: on when a CUDA GPU is used).",
        show_default=False,
    ),
]


def run(
    seeds: SeedsArg = None,
    max_pages: MaxPagesOpt = None,
    out: OutOpt = "shijie-report",
    device: DeviceOpt = Device.auto,
    benchmark: BenchmarkOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Crawl, score, curate, learn Operator Adaptation, adapt FusedAttentionBackward, write the report.

    With seeds (as shijie crawl takes them) the job runs on your sources, in --db. Without, on the embedded
    demo corpus, offline (served on 127.0.0.1), and only into a database that is new or holds the demo alone:
    a database with other documents is refused before any work. Curation discards, it never deletes. Again on
    the same db it resumes and updates.

    Example: shijie run ~/papers/ --db mine.db --out mine-report
    """
    from pipeline.errors import UsageError
    from shijie.folders import writable_folder
    from shijie.job import run_job

    show = output(as_json, lang)
    writable_folder(out, "--out", lang)
    if device == Device.cuda:
        from skills.operator_adaptation.skill import cuda_status

        usable, detail = cuda_status()
        if not usable:  # say so now, not after the crawl
            raise UsageError(f"--device cuda: {detail}; use --device cpu or auto")
    progress = _StageProgress(show.err)
    crawl_settings = None
    if seeds:
        from shijie.cmd_crawl import _settings

        crawl_settings = _settings(list(seeds), {"max_pages": max_pages}, embedded=False)
    results = run_job(
        db,
        out,
        seeds=list(seeds or []),
        crawl_settings=crawl_settings,
        device=device,
        lang=lang,
        benchmark=benchmark,
        on_stage=progress.stage,
        on_crawl_progress=progress.crawl,
        on_phase=lambda phase: progress.line(f"        {escape(learning_panel(phase, lang))}"),
    )
    show.emit(results.to_json())
    terminal.run_summary(show.human, results, lang)


class _StageProgress:
    """One line per stage start and finish on stderr; on a terminal, a spinner while a stage runs (with the
    crawl's live counts), so the wait is never silent."""

    def __init__(self, console: Console):
        self.console = console
        self.status: Status | None = None
        self.running: str | None = None

    def stage(self, stage: str, message: str) -> None:
        starting = self.running != stage
        self._stop()
        self.line(f"[bold cyan]{stage:>7}[/bold cyan] {escape(message)}")
        if starting and self.console.is_terminal and stage != "mastery":
            self.running = stage
            self.status = self.console.status(f"{stage}…")
            self.status.start()

    def crawl(self, stats: CrawlStats) -> None:
        if self.status is not None:
            self.status.update(
                f"crawl: {stats.fetched} fetched · {stats.stored} stored · {stats.queued} queued"
                f" · {stats.errors} errors"
            )

    def line(self, text: str) -> None:
        self.console.print(text, soft_wrap=True)

    def _stop(self) -> None:
        if self.status is not None:
            self.status.stop()
        self.status, self.running = None, None
