"""``shijie run``: the whole job on the embedded corpus, ending with the panels and the report's path."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.markup import escape

from shijie import terminal
from shijie.options import DbOpt, DeviceOpt, JsonOpt, LangOpt, output
from shijie.text import Lang, learning_panel
from skills.protocol import Device

if TYPE_CHECKING:
    from rich.console import Console
    from rich.status import Status

    from pipeline.crawl import CrawlStats

OutOpt = Annotated[str, typer.Option("--out", help="Folder for report.html (created if needed).")]
BenchmarkOpt = Annotated[
    Optional[bool],
    typer.Option(
        "--benchmark/--no-benchmark",
        help="Benchmark against the vendor kernels (default: on when a CUDA GPU is used).",
        show_default=False,
    ),
]


def run(
    out: OutOpt = "shijie-report",
    device: DeviceOpt = Device.auto,
    benchmark: BenchmarkOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Crawl the embedded corpus, score, curate, learn Operator Adaptation, adapt FusedAttentionBackward, report.

    Offline: the command serves the corpus on 127.0.0.1 itself. Again on the same db it resumes and updates.

    Example: shijie run --out shijie-report --device cpu --lang zh
    """
    from pipeline.errors import UsageError
    from shijie.job import run_job

    show = output(as_json, lang)
    if Path(out).exists() and not Path(out).is_dir():
        raise UsageError(f"--out {out} is a file; give a folder for the report")
    if device == Device.cuda:
        from skills.operator_adaptation.skill import cuda_status

        usable, detail = cuda_status()
        if not usable:  # say so now, not after the crawl
            raise UsageError(f"--device cuda: {detail}; use --device cpu or auto")
    progress = _StageProgress(show.err)
    results = run_job(
        db,
        out,
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
