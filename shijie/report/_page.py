"""Assembles the one-file HTML report: sections in the order of the pipeline, pictures inline."""

from __future__ import annotations

from typing import Any

from shijie.job import RunResult
from shijie.text import (
    CATALOGUE,
    Lang,
    acquired_panel,
    document_panel,
    learning_panel,
    mastery_panel,
    say,
    words,
)
from skills.protocol import Invocation, Phase

from . import _svg, _views
from ._html import cell, kv_table, link, number, rows_table
from ._svg import esc

TOP_DOCUMENTS = 12  # shown open; the rest are folded
# No script may run in the report, whatever slipped through: the policy allows inline styles and nothing else.
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

STYLE = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif;
       margin: 0; color: #1d1d1f; background: #fafafa; line-height: 1.45; }
header { background: #0b1f33; color: #fff; padding: 18px 32px; }
header h1 { margin: 0 0 4px; font-size: 24px; }
header .meta { color: #b8c7d9; font-size: 13px; }
main { max-width: 1080px; margin: 0 auto; padding: 8px 24px 48px; }
section { background: #fff; border: 1px solid #e3e3e3; border-radius: 8px; padding: 14px 20px; margin: 18px 0; }
h2 { font-size: 19px; margin: 4px 0 12px; }
h3 { font-size: 15px; margin: 16px 0 8px; }
.panel { font-family: ui-monospace, "SFMono-Regular", Menlo, "Noto Sans Mono CJK SC", monospace;
         font-size: 13px; white-space: nowrap; }
.panels .panel { display: inline-block; background: #eef4fb; border: 1px solid #c9dcf0; border-radius: 4px;
                 padding: 3px 8px; margin: 2px 6px 2px 0; }
.acquired { background: #e7f6ec !important; border-color: #9bd3ae !important; }
table { border-collapse: collapse; font-size: 13px; }
table.rows { width: 100%; }
table.rows th, table.rows td { border-bottom: 1px solid #eee; padding: 4px 8px; text-align: left; vertical-align: top; }
table.rows th { background: #f5f5f5; }
table.kv th { text-align: left; padding: 2px 10px 2px 0; color: #555; font-weight: 600; vertical-align: top; }
table.kv td { padding: 2px 0; }
table.compact { font-size: 12px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.title a { color: #0b4f8a; text-decoration: none; }
.documents td.title { max-width: 330px; overflow-wrap: anywhere; }
.documents td { overflow-wrap: anywhere; }
.url { color: #777; font-size: 11px; word-break: break-all; }
.reasons { color: #444; font-size: 12px; }
.muted { color: #888; }
.small { font-size: 13px; }
.ok, .green { color: #0a7a32; font-weight: 600; }
.bad, .red { color: #b3261e; font-weight: 600; }
tr.fail td { background: #fdecea; }
tr.discarded td { color: #999; }
.scroll { overflow-x: auto; }
.cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 12px 0 4px; }
.card { border: 1px solid #e3e3e3; border-radius: 6px; padding: 6px 12px; min-width: 92px; background: #fcfcfd; }
.card .figure { font-size: 20px; font-weight: 700; color: #0b1f33; }
.card .what { font-size: 12px; color: #666; }
details summary { cursor: pointer; color: #0b4f8a; margin: 8px 0; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; }
svg.chart { max-width: 100%; height: auto; background: #fff; }
ol.steps li { margin-bottom: 6px; }
.passage { color: #555; font-size: 12px; }
"""


def build_html(results: RunResult) -> str:
    lang = results.lang
    w = words("report", lang)
    sections = [
        _summary(results, w, lang),
        _mastery(results, w, lang),
        _documents(results, w, lang),
        _skills(results, w, lang),
        _knowledge(results, w, lang),
        _invocation(results.invoke, w),
    ]
    meta = " · ".join(esc(x) for x in (results.generated_at, results.db, f"device: {results.device or '?'}") if x)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{"zh-CN" if lang == Lang.zh else "en"}"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(w['title'])}</title><style>{STYLE}</style></head><body>"
        f'<header><h1>{esc(w["title"])}</h1><div class="meta">{meta}</div></header>'
        f"<main>{''.join(s for s in sections if s)}</main></body></html>\n"
    )


def _section(ident: str, heading: str, body: str) -> str:
    return f'<section id="{ident}"><h2>{esc(heading)}</h2>{body}</section>'


def _summary(results: RunResult, w: dict, lang: Lang) -> str:
    panels = []
    mastery = results.overall_mastery()
    if mastery:
        panels.append(mastery_panel(float(mastery.get("overall", 0.0)), lang))
    skill = results.acquired()
    if skill:
        panels.append(acquired_panel(skill.title, skill.title_zh, skill.level, lang))
    body = (
        '<div class="panels">'
        + "".join(f'<span class="panel{" acquired" if i == 1 else ""}">{esc(p)}</span>' for i, p in enumerate(panels))
        + "</div>"
    )
    cards: list[tuple[str, str]] = []
    crawl = results.crawl or {}
    for key in ("fetched", "stored", "duplicates", "skipped_robots", "errors"):
        if key in crawl:
            cards.append((number(crawl[key]), w["stat_" + key]))
    curate = results.curate or {}
    for key in ("kept", "discarded"):
        if key in curate:
            cards.append((number(curate[key]), w["stat_" + key]))
    invoke = results.invoke
    if invoke and invoke.checks()[1]:
        passed, run = invoke.checks()
        device = invoke.device_name or invoke.device or ""
        cards.append((f"{passed}/{run}", w["stat_validated"].format(op=invoke.op, device=device)))
    if cards:
        body += (
            '<div class="cards">'
            + "".join(
                f'<div class="card"><div class="figure">{esc(figure)}</div><div class="what">{esc(what)}</div></div>'
                for figure, what in cards
            )
            + "</div>"
        )
    timings = results.timings
    if timings:
        total = sum(float(v) for v in timings.values())
        body += (
            f'<p class="muted small">{esc(w["timings"])}: '
            + " · ".join(f"{esc(k)} {float(v):.1f} s" for k, v in timings.items())
            + f" · {esc(w['total'])} {total:.1f} s</p>"
        )
    return _section("summary", w["summary"], body)


def _documents(results: RunResult, w: dict, lang: Lang) -> str:
    docs = results.documents
    if not docs:
        return ""
    titles = results.domain_titles
    by_id = {d.get("id"): d for d in docs}
    body = _svg.value_histogram([int(d.get("value", 0)) for d in docs], title=w["value_spread"])
    rows = []
    for rank, doc in enumerate(docs, 1):
        domains = sorted((doc.get("domains") or {}).items(), key=lambda kv: -float(kv[1] or 0))[:3]
        domain_text = ", ".join(f"{_domain_title(k, titles, lang)} {float(v):.2f}" for k, v in domains if v)
        status = doc.get("status")
        klass = ' class="discarded"' if status == "discarded" else ""
        rows.append(
            f'<tr{klass}><td class="num">{rank}</td>'
            f'<td class="title">{link(doc.get("url"), doc.get("title") or doc.get("url"))}'
            f'<div class="url">{esc(doc.get("url", ""))}</div></td>'
            f'<td><span class="panel">{esc(_panel(doc, lang))}</span>'
            f'<div class="reasons">{_reasons(doc, by_id, w, lang)}</div></td>'
            f"<td>{esc(domain_text)}</td><td>{esc(_status(status, lang))}</td></tr>"
        )
    head = (
        f"<thead><tr><th>#</th><th>{esc(w['document'])}</th><th>{esc(w['panel'])}</th>"
        f"<th>{esc(w['domains'])}</th><th>{esc(w['status'])}</th></tr></thead>"
    )
    body += f'<table class="rows documents">{head}<tbody>{"".join(rows[:TOP_DOCUMENTS])}</tbody></table>'
    if len(rows) > TOP_DOCUMENTS:
        # the rest folded away with plain HTML (<details> needs no script)
        body += (
            f"<details><summary>{esc(w['all_documents'].format(n=len(rows)))}</summary>"
            f'<table class="rows documents">{head}<tbody>{"".join(rows[TOP_DOCUMENTS:])}</tbody></table>'
            "</details>"
        )
    return _section("documents", w["documents"], body)


def _panel(doc: dict, lang: Lang) -> str:
    return document_panel(doc.get("value", 0), doc.get("relevance", "low"), doc.get("redundancy", "low"), lang)


def _status(status: str | None, lang: Lang) -> str:
    key = f"status.{status}"
    return say(key, lang) if status and key in CATALOGUE else status or ""


REASON_LINES = 8  # the first lines of the Vision's reasons a report shows per document (shijie show has all)


def _reasons(doc: dict, by_id: dict, w: dict, lang: Lang = Lang.en) -> str:
    """The figures behind the panel, one short line each, in the words ``shijie show`` uses (shijie.explain):
    the type, the relevance and its terms, what it repeats and why that copy is kept, the value's largest
    contributions."""
    from shijie.explain import reasons

    c = doc.get("components") or {}
    uniqueness = c.get("uniqueness") or {}
    dup = doc.get("duplicate_of")
    shown = {
        **doc,
        "duplicate_of_id": uniqueness.get("duplicate_of") or (dup if isinstance(dup, int) else None),
        "duplicate_of_link": by_id.get(dup, {}).get("url", dup) if isinstance(dup, int) else dup,
        "topic": doc.get("topic") or "",
    }
    colon = say("punct.colon", lang)
    lines = []
    for line in reasons(shown, lang)[:REASON_LINES]:
        text = f"{line.heading}{colon}{line.text}" if line.heading and line.text else line.heading or line.text
        if text:
            lines.append(text)
    return "".join(f"<div>{esc(_svg.clip(line, 200))}</div>" for line in lines)


def _domain_title(key: str, titles: dict, lang: str) -> str:
    entry = titles.get(key)
    if isinstance(entry, dict):
        return entry.get("zh" if lang == "zh" else "en") or key
    if isinstance(entry, str):
        return entry
    return key.replace("_", " ")


def _mastery(results: RunResult, w: dict, lang: Lang) -> str:
    mastery = results.overall_mastery()
    if not mastery:
        return ""
    titles = results.domain_titles
    items = [(_domain_title(k, titles, lang), float(v or 0)) for k, v in (mastery.get("domains") or {}).items()]
    overall = float(mastery.get("overall", 0.0))
    body = f'<div class="panels"><span class="panel">{esc(mastery_panel(overall, lang))}</span></div>'
    body += _svg.bar_chart(items, title=w["mastery"], overall=overall, overall_label=w["overall"])
    return _section("mastery", w["mastery"], body)


def _skills(results: RunResult, w: dict, lang: Lang) -> str:
    skills = results.skills
    if not skills and not results.learn:
        return ""
    body = ""
    if results.learn:
        panels = [learning_panel(phase, lang) for phase in Phase]
        skill = results.acquired()
        if skill:
            panels.append(acquired_panel(skill.title, skill.title_zh, skill.level, lang))
        body += (
            '<div class="panels">'
            + "".join(
                f'<span class="panel{" acquired" if i == 3 else ""}">{esc(p)}</span>' for i, p in enumerate(panels)
            )
            + "</div>"
        )
    if skills:
        body += rows_table(skills, ["name", "title", "level", "status", "requires"])
    return _section("skills", w["skills"], body)


def _knowledge(results: RunResult, w: dict, lang: Lang) -> str:
    pack = results.learn.pack if results.learn else None
    steps = (results.invoke.knowledge if results.invoke else None) or (pack or {}).get("path")
    if not pack and not steps:
        return ""
    graph = _views.knowledge_graph(pack or steps, lang)
    body = ""
    if graph.topics or graph.steps:
        headings = (w["graph_topics"], w["graph_passages"], w["graph_steps"])
        body += _svg.concept_graph(graph, title=w["graph"], headings=headings)
    if steps:
        items = []
        for step in steps:
            title = (step.get("title_zh") if lang == Lang.zh else None) or step.get("title", "")
            sources = "".join(
                f'<div class="passage">{link(p.get("url"), p.get("title") or p.get("url"))}'
                f"{': ' + esc(_svg.clip(p.get('excerpt', ''), 240)) if p.get('excerpt') else ''}</div>"
                for p in step.get("passages") or []
                if isinstance(p, dict)
            )
            items.append(f"<li><strong>{esc(title)}</strong>{sources}</li>")
        body += f'<h3>{esc(w["steps"])}</h3><ol class="steps">{"".join(items)}</ol>'
    return _section("knowledge", w["knowledge"], body)


def _invocation(invoke: Invocation | None, w: dict) -> str:
    if not invoke:
        return ""
    facts: dict[str, Any] = {"skill": invoke.skill, "level": invoke.level, "op": invoke.op}
    facts |= {"device": invoke.device, "device_name": invoke.device_name}
    facts = {key: value for key, value in facts.items() if value is not None}
    body = kv_table(facts | {"target": invoke.target})
    if invoke.adaptation_list:
        items = [
            f'<span class="panel {"green" if item.adapted else "red"}">{"✓" if item.adapted else "✗"} {esc(item.op)}</span>'
            for item in invoke.adaptation_list
        ]
        body += f'<h3>{esc(w["adaptation"])}</h3><div class="panels">{"".join(items)}</div>'
    for note in invoke.notes or []:  # when nothing was adapted, they say why
        body += f'<p class="{"muted small" if invoke.adapted else "red"}">{esc(note)}</p>'
    plan = invoke.plan
    if isinstance(plan, dict) and plan:
        levels, groups = _views.memory_view(plan)
        body += f"<h3>{esc(w['plan'])}</h3>"
        body += _svg.memory_hierarchy(levels, groups, title=w["hierarchy"])
        kernels = plan.get("kernels") or {}
        if kernels:
            body += rows_table(
                [{"pass": name, **{k: v for k, v in cfg.items() if k != "kernel"}} for name, cfg in kernels.items()]
            )
        body += kv_table(_views.plan_facts(plan))
    validation = invoke.validation
    if validation:
        rows, kinds = _views.validation_rows(validation)
        body += f"<h3>{esc(w['validation'])}</h3>"
        body += rows_table(rows, row_class=lambda r: "fail" if _views.passed(r) is False else "")
        if kinds:
            body += f'<p class="muted small">{esc(w["error_kinds"])}: {esc("; ".join(kinds))}</p>'

    body += _benchmark(invoke.benchmark, w)
    # whatever else the skill reports (dQ strategies, tuned configs, benchmark summary, ...) is shown as
    # plain tables rather than dropped
    for key, value in invoke.extras.items():
        if value not in (None, "", [], {}):
            body += f"<h3>{esc(key.replace('_', ' '))}</h3>" + cell(value)
    return _section("invoke", w["invoke"], body)


def _benchmark(benchmark: Any, w: dict) -> str:
    rows = _views.benchmark_rows(benchmark)
    if not rows:
        return f'<h3>{esc(w["benchmark"])}</h3><p class="muted small">{esc(w["no_gpu"])}</p>'
    panels = _views.benchmark_series(benchmark)
    top = max((y for series in panels.values() for points in series.values() for _, y in points), default=None)
    charts = "".join(
        _svg.line_plot(series, title=panel, x_label=w["seq"], y_label=w["tflops"], highlight="ours", y_max=top)
        for panel, series in panels.items()
    )
    pivot, notes = _views.benchmark_pivot(benchmark)
    notes_html = "".join(f'<div class="muted small">{esc(note)}</div>' for note in notes)
    if len(notes) > 3:
        notes_html = f"<details><summary>{len(notes)} notes</summary>{notes_html}</details>"
    return f'<h3>{esc(w["benchmark"])}</h3><div class="charts">{charts}</div>' + rows_table(pivot) + notes_html


__all__ = ["build_html"]
