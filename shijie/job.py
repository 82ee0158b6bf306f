"""The whole job, as ``shijie run`` does it: crawl → score → curate → mastery → learn Operator Adaptation →
invoke it on FusedAttentionBackward → write the report.

What it crawls: the user's seeds (URLs, files and folders, ``arxiv:QUERY``, seeds files) when given, else
the embedded demo corpus. The demo only ever goes into a database that is empty or holds the demo alone
(``pipeline.store.non_demo_documents``): a database holding anything else is refused before any work,
with a line saying how to run on one's own sources instead. When the corpus' mastery leaves the skill
locked, the job says so and the report goes without the learn and invoke sections.

Each step calls the same library function its own command calls, and keeps that function's result, so the
``RunResult`` handed to ``shijie.report`` holds exactly what the individual commands print with ``--json``.
State lives in the database: run it again on the same db and the crawl resumes (conditional requests,
no document stored twice), scoring and curation update in place (curation discards, it never deletes),
the skill is re-learned.

    from shijie.job import run_job
    results = run_job("shijie.db", "shijie-report", on_stage=print)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pipeline.errors import UsageError
from pipeline.links import Links, map_links
from shijie.text import Lang, say
from skills.learning import Learned
from skills.protocol import Device, Invocation, Phase

if TYPE_CHECKING:
    from pipeline.crawl import CrawlSettings

T = TypeVar("T")

SKILL = "operator-adaptation"
OP = "FusedAttentionBackward"


@dataclass(frozen=True)
class Acquired:
    """The skill a run learned, as its acquired panel names it."""

    name: str
    title: str
    title_zh: str | None
    level: int


@dataclass
class RunResult:
    """What ``shijie run`` did, stage by stage; ``to_json()`` is ``shijie run --json``.

    Each part is its stage's own result, as that stage's command gives it with ``--json``: ``crawl``,
    ``curate``, ``mastery`` (``{"overall", "domains"}``), ``skills`` (the rows of ``skills list``) and
    ``documents`` (``score``'s rows, each with its ``components`` and a ``status`` kept|discarded) as their
    dicts; ``learn`` and ``invoke`` as the dataclasses the terminal and the report both render. A part that
    is missing is None or empty, and the report leaves its section out.
    """

    lang: Lang = Lang.en
    generated_at: str = ""
    db: str = ""
    timings: dict[str, float] = field(default_factory=dict)
    crawl: dict[str, Any] | None = None
    curate: dict[str, Any] | None = None
    documents: list[dict[str, Any]] = field(default_factory=list)
    mastery: dict[str, Any] | None = None
    domain_titles: dict[str, dict[str, str]] = field(default_factory=dict)  # {domain: {"en": .., "zh": ..}}
    learn: Learned | None = None
    skills: list[dict[str, Any]] = field(default_factory=list)
    invoke: Invocation | None = None
    device: Device | None = None
    report: str | None = None  # the report's path, once written

    def overall_mastery(self) -> dict[str, Any] | None:
        """The mastery after curation: ``mastery``, or the one ``curate`` reported."""
        return self.mastery or (self.curate or {}).get("mastery")

    def acquired(self) -> Acquired | None:
        """The skill this run learned: ``learn``'s result completed by its ``skills list`` row (``title_zh``)."""
        learn = self.learn
        name = learn.skill if learn else self.invoke.skill if self.invoke else ""
        listed = next((row for row in self.skills if row.get("name") == name), {})
        level = (learn.level if learn else 0) or (listed.get("level") if listed.get("status") == "learned" else 0)
        if not level:
            return None
        title = (learn.title if learn else "") or listed.get("title") or name
        return Acquired(name, title, listed.get("title_zh"), int(level))

    def to_json(self) -> dict[str, Any]:
        return {
            "lang": self.lang,
            "generated_at": self.generated_at,
            "db": self.db,
            "timings": self.timings,
            "crawl": self.crawl,
            "curate": self.curate,
            "documents": self.documents,
            "mastery": self.mastery,
            "domain_titles": self.domain_titles,
            "learn": self.learn.to_json() if self.learn else None,
            "skills": self.skills,
            "invoke": self.invoke.to_json() if self.invoke else None,
            "device": self.device,
            "report": self.report,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunResult:
        """Reads ``to_json()``'s dict (or any part of it) back."""
        learn, invoke, device = data.get("learn"), data.get("invoke"), data.get("device")
        return cls(
            lang=Lang(data.get("lang") or Lang.en),
            generated_at=str(data.get("generated_at") or ""),
            db=str(data.get("db") or ""),
            timings=dict(data.get("timings") or {}),
            crawl=data.get("crawl"),
            curate=data.get("curate"),
            documents=list(data.get("documents") or []),
            mastery=data.get("mastery"),
            domain_titles=dict(data.get("domain_titles") or {}),
            learn=Learned.from_json(learn) if learn else None,
            skills=list(data.get("skills") or []),
            invoke=Invocation.from_json(invoke) if invoke else None,
            device=Device(device) if device else None,
            report=data.get("report"),
        )


def with_stable_links(results: RunResult, links: Links) -> RunResult:
    """A copy of ``results`` whose document and passage URLs outlive the run (``pipeline.links``): what the
    report is written from."""
    data = map_links(results.to_json(), links.stable)
    copy = RunResult.from_json(data)
    copy.report = results.report
    return copy


def database_result(db: str | Path | None, lang: Lang = Lang.en) -> RunResult:
    """What a database holds, as the parts of a ``RunResult`` (for ``shijie report`` on any database): the
    last crawl's stats, every scored document with its reasons and state, the curation counts, mastery, the
    skills and the packs learned. Nothing is run; a part the database does not have stays empty."""
    from pipeline.query import domains, mastery
    from pipeline.store import last_crawl_stats, load_pack, open_db, resolve_path, scored_documents, status_counts
    from skills.learning import list_skills
    from skills.registry import discover

    database = open_db(db, read_only=True)
    counts = status_counts(database)
    current = mastery(database)
    results = RunResult(
        lang=lang,
        generated_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        db=str(resolve_path(db)),
        crawl=last_crawl_stats(database),
        documents=scored_documents(database),
        mastery={"overall": current.overall, "domains": dict(current.domains)},
        domain_titles={d.id: {"en": d.title, "zh": d.title_zh} for d in domains()},
    )
    if counts.get("kept") or counts.get("discarded"):
        results.curate = {"kept": counts.get("kept", 0), "discarded": counts.get("discarded", 0)}
    registry = discover()
    results.skills = list_skills(database, registry)
    for row in results.skills:
        stored = load_pack(database, row["name"]) if row["status"] == "learned" else None
        if stored is not None:
            results.learn = Learned(
                skill=row["name"], title=row["title"], level=stored.level, mastery=stored.mastery, pack=stored.pack
            )
            break
    return results


def _noop(stage: str, message: str) -> None:
    pass


def run_job(
    db: str | Path | None,
    out_dir: str | Path,
    *,
    seeds: list[str] | None = None,
    crawl_settings: CrawlSettings | None = None,
    device: Device = Device.auto,
    lang: Lang = Lang.en,
    benchmark: bool | None = None,
    on_stage: Callable[[str, str], None] = _noop,
    on_crawl_progress: Callable | None = None,
    on_phase: Callable[[Phase], None] | None = None,
) -> RunResult:
    """Runs every stage and writes the report; returns what each did (with ``report``: its path).

    ``seeds`` (crawled with ``crawl_settings``): the user's sources; none: the embedded demo, refused on a
    database holding other documents. ``on_stage(stage, message)`` hears each stage start and finish;
    ``benchmark`` None means: benchmark when the skill runs on a CUDA device.
    """
    from pipeline.store import non_demo_documents, open_db, resolve_path

    database = open_db(db)
    if not seeds:
        others = non_demo_documents(database)
        if others:
            raise UsageError(say("safe.demo_refused", lang, db=resolve_path(db), n=others))
    timings: dict[str, float] = {}
    results = RunResult(
        lang=lang,
        generated_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        db=str(resolve_path(db)),
        timings=timings,
    )

    def timed(stage: str, start_message: str, work: Callable[[], tuple[T, str]]) -> T:
        on_stage(stage, start_message)
        started = time.perf_counter()
        value, done_message = work()
        timings[stage] = round(time.perf_counter() - started, 3)
        on_stage(stage, f"{done_message} ({timings[stage]:.1f} s)")
        return value

    def crawl() -> tuple[dict, str]:
        from pipeline.crawl import CrawlSettings, crawl_embedded
        from pipeline.crawl import crawl as crawl_seeds

        if seeds:
            settings = crawl_settings or CrawlSettings()
            stats = crawl_seeds(database, seeds, settings, on_progress=on_crawl_progress).to_json()
        else:
            # we serve the corpus ourselves: no politeness delay; a finished earlier crawl is re-checked with
            # conditional requests (unchanged pages answer 304), an interrupted one resumes
            settings = CrawlSettings(delay=0.0, recrawl=True)
            stats = crawl_embedded(database, settings, on_progress=on_crawl_progress).to_json()
        return stats, (
            f"{stats['fetched']} fetched ({stats.get('not_modified', 0)} unchanged since the last run),"
            f" {stats['stored']} new documents, {stats.get('updated', 0)} updated,"
            f" {stats['duplicates']} duplicates, {stats['skipped_robots']} skipped by robots.txt,"
            f" {stats['errors']} errors"
        )

    where = f"crawling {len(seeds)} seed(s)" if seeds else "crawling the embedded corpus on 127.0.0.1"
    results.crawl = timed("crawl", where, crawl)

    def score() -> tuple[list, str]:
        from pipeline.profile import default_profile
        from pipeline.score import score_corpus

        scored = score_corpus(database, default_profile())
        documents = [{**s.as_json(), "components": s.components} for s in scored]
        high = sum(1 for d in documents if d["relevance"] == "high")
        return documents, f"{len(documents)} documents scored, {high} of high relevance"

    documents = timed("score", "scoring every document (TF-IDF, relevance, redundancy, value)", score)

    def curate() -> tuple[dict, str]:
        from pipeline.curate import curate as curate_corpus

        result = curate_corpus(database)
        discarded = set(result.discarded_ids)
        for doc in documents:
            doc["status"] = "discarded" if doc["id"] in discarded else "kept"
        return result.as_json(), f"{result.kept} kept, {result.discarded} discarded"

    results.curate = timed("curate", "keeping the best, indexing for search", curate)
    results.documents = documents

    from pipeline.query import domains, mastery

    current = mastery(database)
    results.mastery = {"overall": current.overall, "domains": dict(current.domains)}
    results.domain_titles = {d.id: {"en": d.title, "zh": d.title_zh} for d in domains()}
    on_stage("mastery", f"domain mastery {current.overall:.1%}")

    from skills.learning import invoke, learn, list_skills
    from skills.registry import discover

    registry = discover()
    results.skills = list_skills(database, registry)
    if next((row["status"] for row in results.skills if row["name"] == SKILL), None) == "locked":
        on_stage("learn", say("safe.skill_locked", lang, skill=SKILL))
        return _report(database, results, out_dir, timed)

    def learn_skill() -> tuple[Learned, str]:
        result = learn(database, registry, SKILL, on_phase=on_phase or (lambda phase: None))
        return result, f"{result.title} Lv.{result.level}"

    results.learn = timed("learn", f"learning {SKILL} from the curated corpus", learn_skill)
    results.skills = list_skills(database, registry)

    def invoke_skill() -> tuple[Invocation, str]:
        from shijie.terminal import validation_line
        from skills.operator_adaptation.skill import cuda_status

        run_benchmark = benchmark if benchmark is not None else device != Device.cpu and cuda_status()[0]
        result = invoke(database, registry, SKILL, op=OP, device=device, benchmark=run_benchmark)
        return result, validation_line(result, lang)

    results.invoke = timed("invoke", f"invoking {SKILL} on {OP} (device {device})", invoke_skill)
    results.device = results.invoke.device
    return _report(database, results, out_dir, timed)


def _report(database: Database, results: RunResult, out_dir: str | Path, timed: Callable) -> RunResult:
    from shijie.report import write_report

    def report() -> tuple[Path, str]:
        from pipeline.store import served_origins

        path = write_report(with_stable_links(results, Links(tuple(served_origins(database)))), out_dir)
        return path, str(path)

    results.report = str(timed("report", "writing the report", report))
    return results
