"""``shijie run``: the whole job on the embedded corpus, ending with the panels and the report's path."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from shijie.options import DbOpt, JsonOpt, LangOpt, output

OutOpt = Annotated[str, typer.Option("--out", help="Folder for report.html (created if needed).")]
DeviceOpt = Annotated[str, typer.Option("--device", help="Where the skill runs its kernel: auto, cpu or cuda.")]
BenchmarkOpt = Annotated[
    Optional[bool],
    typer.Option(
        "--benchmark/--no-benchmark",
        help="Benchmark against the vendor kernels (default: on when a CUDA GPU is used).",
        show_default=False,
    ),
]
TOP_PANELS = 5


def run(
    out: OutOpt = "shijie-report",
    device: DeviceOpt = "auto",
    benchmark: BenchmarkOpt = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Crawl the embedded corpus, score, curate, learn Operator Adaptation, adapt FusedAttentionBackward, report.

    Offline: the command serves the corpus on 127.0.0.1 itself. Again on the same db it resumes and updates.

    Example: shijie run --out shijie-report --device cpu --lang zh
    """
    from pipeline.errors import UsageError
    from shijie.job import run_job
    from skills.learning import PANELS

    show = output(as_json, lang)
    if device not in ("auto", "cpu", "cuda"):
        raise UsageError(f"--device must be auto, cpu or cuda, not {device!r}")
    if Path(out).exists() and not Path(out).is_dir():
        raise UsageError(f"--out {out} is a file; give a folder for the report")
    if device == "cuda":
        from skills.operator_adaptation.skill import cuda_status

        usable, detail = cuda_status()
        if not usable:  # say so now, not after the crawl
            raise UsageError(f"--device cuda: {detail}; use --device cpu or auto")
    err = show.err
    progress = _StageProgress(err)
    # a plain function, not the bound method: the crawl deep-copies its settings, the console holds locks
    on_crawl = lambda stats: progress.crawl(stats)  # noqa: E731
    results = run_job(
        db,
        out,
        device=device,
        lang=lang,
        benchmark=benchmark,
        on_stage=progress.stage,
        on_crawl_progress=on_crawl,
        on_phase=lambda key: progress.line(f"        {escape(PANELS[lang][key])}"),
    )
    show.emit(results)
    _panel_summary(show.human, results, lang)


class _StageProgress:
    """One line per stage start and finish on stderr; on a terminal, a spinner while a stage runs (with the
    crawl's live counts), so the wait is never silent."""

    def __init__(self, console):
        self.console = console
        self.status = None
        self.running: str | None = None

    def stage(self, stage: str, message: str) -> None:
        starting = self.running != stage
        self._stop()
        self.line(f"[bold cyan]{stage:>7}[/bold cyan] {escape(message)}")
        if starting and self.console.is_terminal and stage != "mastery":
            self.running = stage
            self.status = self.console.status(f"{stage}…")
            self.status.start()

    def crawl(self, stats) -> None:
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


def _panel_summary(console, results: dict, lang: str) -> None:
    from pipeline import panels
    from shijie.report import learned_skill
    from skills.learning import PANELS

    console.print()
    for doc in results["documents"][:TOP_PANELS]:
        panel = panels.document_panel(doc["value"], doc["relevance"], doc["redundancy"], lang)
        console.print(f"{panel}  {doc['title'][:70]}", markup=False, soft_wrap=True)
    console.print(panels.mastery_panel(results["mastery"]["overall"], lang), markup=False)
    skill = learned_skill(results)
    if skill:
        title = (skill.get("title_zh") or skill["title"]) if lang == "zh" else skill["title"]
        console.print(
            PANELS[lang]["acquired"].format(title=title, level=skill["level"]), markup=False, style="bold green"
        )
    invoke = results["invoke"]
    checks = invoke.get("validation") or []
    failed = [row for row in checks if not row.get("passed")]
    console.print(
        f"{invoke['op']} on {invoke.get('device_name') or invoke.get('device')}: "
        f"{len(checks) - len(failed)}/{len(checks)} validation cases passed"
        + (f", {len(invoke['benchmark'])} benchmark rows" if invoke.get("benchmark") else ""),
        markup=False,
        soft_wrap=True,
        style="red" if failed else None,
    )
    console.print(f"report: {results['report']}", markup=False, soft_wrap=True, style="bold")
