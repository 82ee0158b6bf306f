"""The ``shijie run`` report: one self-contained HTML file that shows the whole job.

No network at view time: the CSS is inline, the charts are SVG drawn by ``_svg``, and there is no
JavaScript at all (a Content-Security-Policy forbids any). Every crawled string is escaped.

Input: a ``shijie.job.RunResult`` (what ``run_job`` returns), or its ``to_json()`` dict (``shijie run
--json``), whose parts are the stages' ``--json`` outputs::

    {
      "lang": "en" | "zh",
      "generated_at": "2026-11-30 05:40 UTC", "db": "shijie.db", "device": "cpu",
      "timings": {stage: seconds},
      "crawl":   crawl --json            {"fetched", "stored", "skipped_robots", "errors", "duplicates", ...}
      "documents": score --json          [{"id", "url", "title", "value", "relevance", "redundancy", ...}]
                                         (ranked; optional "status" kept|discarded, "components", "top_terms")
      "curate":  curate --json           {"kept", "discarded", "mastery"}
      "mastery": mastery --json          {"overall", "domains": {domain: 0..1}}
      "domain_titles": {domain: {"en": title, "zh": title_zh}}
      "skills":  skills list --json      [{"name", "title", "level", "status", "requires"}]
      "learn":   skills learn --json     {"skill", "title", "level", "pack": {...}}       (skills.learning.Learned)
      "invoke":  skills invoke --json    {"skill", "op", "device", "target", "plan", "validation",
                                          "benchmark", "knowledge"}                      (skills.protocol.Invocation)
    }

Every key is optional; a section whose data is missing is left out. The words are ``shijie.text``'s, the
same the terminal shows.

    from shijie.report import write_report
    path = write_report(results, "shijie-report")      # → shijie-report/report.html
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from shijie.job import RunResult

from ._page import build_html

REPORT_NAME = "report.html"


def build_report(results: RunResult | Mapping[str, Any]) -> str:
    """The report as one HTML string."""
    return build_html(results if isinstance(results, RunResult) else RunResult.from_json(results))


def write_report(results: RunResult | Mapping[str, Any], out_dir: str | os.PathLike) -> Path:
    """Writes ``report.html`` into ``out_dir`` (created if needed), atomically, and returns its path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / REPORT_NAME
    tmp = path.with_suffix(".html.tmp")
    tmp.write_text(build_report(results), encoding="utf-8")
    os.replace(tmp, path)  # a reader never sees half a report
    return path


__all__ = ["REPORT_NAME", "build_report", "write_report"]
