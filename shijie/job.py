"""The whole job, as ``shijie run`` does it: crawl the embedded corpus → score → curate → mastery → learn
Operator Adaptation → invoke it on FusedAttentionBackward → write the report.

Each step calls the same library function its own command calls, and keeps that function's ``--json``
output, so the results dict handed to ``shijie.report`` is exactly what the individual commands print.
State lives in the database: run it again on the same db and the crawl resumes (conditional requests,
no document stored twice), scoring and curation update in place, the skill is re-learned.

    from shijie.job import run_job
    results = run_job("shijie.db", "shijie-report", on_stage=print)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

SKILL = "operator-adaptation"
OP = "FusedAttentionBackward"


def _noop(stage: str, message: str) -> None:
    pass


def run_job(
    db: str | Path | None,
    out_dir: str | Path,
    *,
    device: str = "auto",
    lang: str = "en",
    benchmark: bool | None = None,
    on_stage: Callable[[str, str], None] = _noop,
    on_crawl_progress: Callable | None = None,
    on_phase: Callable[[str], None] | None = None,
) -> dict:
    """Runs every stage and writes the report; returns the results dict (with ``report``: its path).

    ``on_stage(stage, message)`` hears each stage start and finish; ``benchmark`` None means: benchmark
    when the skill runs on a CUDA device.
    """
    from pipeline.store import open_db, resolve_path
    from shijie.report import write_report

    database = open_db(db)
    timings: dict[str, float] = {}
    results: dict = {
        "lang": lang,
        "generated_at": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "db": str(resolve_path(db)),
        "timings": timings,
    }

    def timed(stage: str, start_message: str, work: Callable[[], tuple[object, str]]):
        on_stage(stage, start_message)
        started = time.perf_counter()
        value, done_message = work()
        timings[stage] = round(time.perf_counter() - started, 3)
        on_stage(stage, f"{done_message} ({timings[stage]:.1f} s)")
        return value

    def crawl() -> tuple[dict, str]:
        from pipeline.crawl import CrawlSettings, crawl_embedded

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

    results["crawl"] = timed("crawl", "crawling the embedded corpus on 127.0.0.1", crawl)

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

    results["curate"] = timed("curate", "keeping the best, indexing for search", curate)
    results["documents"] = documents

    from pipeline.query import domains, mastery

    current = mastery(database)
    results["mastery"] = {"overall": current.overall, "domains": dict(current.domains)}
    results["domain_titles"] = {d.id: {"en": d.title, "zh": d.title_zh} for d in domains()}
    on_stage("mastery", f"domain mastery {current.overall:.1%}")

    from skills.learning import invoke, learn, list_skills
    from skills.registry import discover

    registry = discover()

    def learn_skill() -> tuple[dict, str]:
        result = learn(database, registry, SKILL, on_phase=on_phase or (lambda key: None))
        return result, f"{result['title']} Lv.{result['level']}"

    results["learn"] = timed("learn", f"learning {SKILL} from the curated corpus", learn_skill)
    results["skills"] = list_skills(database, registry)

    def invoke_skill() -> tuple[dict, str]:
        from skills.operator_adaptation.skill import cuda_status

        run_benchmark = benchmark if benchmark is not None else device != "cpu" and cuda_status()[0]
        result = invoke(database, registry, SKILL, op=OP, device=device, benchmark=run_benchmark)
        checks = result.get("validation") or []
        passed = sum(1 for row in checks if row.get("passed"))
        return result, (
            f"{OP} on {result.get('device_name') or result.get('device')}: "
            f"{passed}/{len(checks)} validation cases passed"
        )

    results["invoke"] = timed("invoke", f"invoking {SKILL} on {OP} (device {device})", invoke_skill)
    results["device"] = results["invoke"].get("device")

    def report() -> tuple[Path, str]:
        path = write_report(results, out_dir)
        return path, str(path)

    results["report"] = str(timed("report", "writing the report", report))
    return results
