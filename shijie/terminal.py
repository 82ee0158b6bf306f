"""What people see on the terminal for the results two renderers share: what ``Learned`` gave, the skills
list, the panels that end ``shijie run``, the reader's verbs (score, show, search, list), and a skill's
``Invocation`` (drawn by ``shijie.invoke_view``, re-exported here). The HTML report renders the same objects
(``shijie.report``); the words come from ``shijie.text``.

Each function prints to a rich ``Console`` (``Output.human``: stdout for people, stderr under ``--json``).

Crawled text is data, never markup or control codes: it reaches the terminal only through
``shijie.printable`` (``safe`` inside rich markup and table cells, ``plain`` as a ``Text`` never parsed,
``highlighted`` for a search snippet), whose functions are re-exported here for the commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from shijie.invoke_view import invocation as invocation  # re-exported, as the commands print through this module
from shijie.invoke_view import step_title
from shijie.invoke_view import tuned_configs_table as tuned_configs_table
from shijie.printable import clean, highlighted, pad, plain, safe
from shijie.printable import fit as fit
from shijie.text import CATALOGUE, Lang, acquired_panel, document_panel, mastery_panel, say
from skills.protocol import Invocation

if TYPE_CHECKING:
    from rich.console import Console

    from shijie.job import RunResult
    from skills.learning import Learned

STATUS_STYLE = {"learned": "green", "learnable": "yellow", "locked": "red", "broken": "bold red"}
TOP_PANELS = 5  # documents whose panel ends shijie run


def validation_line(invocation: Invocation, lang: Lang = Lang.en) -> str:
    """``FusedAttentionBackward on CPU (NumPy): 4/4 validation cases passed``."""
    passed, run = invocation.checks()
    device = invocation.device_name or invocation.device
    return say("invoke.validated", lang, op=invocation.op, device=device, passed=passed, run=run)


def domain_titles(lang: Lang) -> dict[str, str]:
    """Domain id → its title in ``lang``."""
    from pipeline.query import domains

    return {d.id: (d.title_zh if lang == Lang.zh else d.title) for d in domains()}


# -- shijie skills list --------------------------------------------------------------------------------


def _needs(row: dict[str, Any], lang: Lang) -> str:
    if row["status"] == "broken":
        return safe("; ".join(map(str, row.get("problems") or [])))
    if row["status"] == "locked":
        return say("skills.short", lang, n=len(row["shortfalls"]))
    if row["status"] == "learnable":
        return say("skills.ready", lang, name=safe(row["name"]))
    if row["attainable_level"] > row["level"]:
        return say("skills.relearn", lang, level=row["attainable_level"])
    above = {int(level): threshold for level, threshold in row["levels"].items() if int(level) > row["level"]}
    if not above:
        return say("skills.top", lang)
    level = min(above)
    return say(
        "skills.next_level", lang, level=level, threshold=f"{above[level]:.0%}", now=f"{row['required_mastery']:.1%}"
    )


def skills_table(console: Console, rows: list[dict[str, Any]], lang: Lang) -> None:
    table = Table(title=say("skills.title", lang))
    table.add_column(say("skills.name", lang), no_wrap=True)
    for key in ("col.title", "skills.level", "col.status", "skills.needs"):
        table.add_column(say(key, lang))
    for row in rows:
        title = row.get("title_zh") or row["title"] if lang == Lang.zh else row["title"]
        level = f"Lv.{row['level']}" if row["level"] else "-"
        style = STATUS_STYLE.get(row["status"], "")
        status = say(f"status.{row['status']}", lang) if f"status.{row['status']}" in CATALOGUE else row["status"]
        table.add_row(safe(row["name"]), safe(title), level, f"[{style}]{safe(status)}[/]", _needs(row, lang))
    console.print(table)
    titles = domain_titles(lang)
    for row in rows:
        if row["status"] == "locked":
            console.print(f"[red]{say('skills.locked_intro', lang, name=safe(row['name']))}[/red]")
            for domain, gap in row["shortfalls"].items():
                have, need = row["requires"][domain] - gap, row["requires"][domain]
                name = safe(titles.get(domain, domain) if lang == Lang.zh else domain)
                console.print(
                    "  "
                    + say(
                        "skills.shortfall", lang, domain=name, have=f"{have:.1%}", need=f"{need:.1%}", gap=f"{gap:.1%}"
                    )
                )


# -- shijie skills learn -------------------------------------------------------------------------------


def learned(console: Console, result: Learned, lang: Lang) -> None:
    pack = result.pack
    titles = domain_titles(lang)
    topics = Table(title=say("skills.topics", lang, n=pack["documents"]))
    for column in ("#", say("skills.label", lang), say("skills.domain", lang), say("skills.documents", lang)):
        topics.add_column(column)
    topics.add_column(say("skills.passages", lang))
    for topic in pack["topics"]:
        topics.add_row(
            str(topic["id"]),
            safe(", ".join(topic["label"])),
            safe(titles.get(topic["domain"], topic["domain"])) if topic["domain"] else "-",
            str(len(topic["documents"])),
            str(len(topic["passages"])),
        )
    console.print(topics)
    path = Table(title=say("skills.path", lang))
    for key in ("skills.step", "col.title", "skills.sources"):
        path.add_column(say(key, lang))
    for step in pack["path"]:
        sources = "\n".join(safe(p["url"]) for p in step["passages"]) or "-"
        path.add_row(str(step["step"]), safe(step_title(step, lang)), sources)
    console.print(path)


# -- the end of shijie run -----------------------------------------------------------------------------


def run_summary(console: Console, results: RunResult, lang: Lang) -> None:
    """The top documents' panels, the mastery panel, the acquired panel, the validation, the report's path."""
    console.print()
    for doc in results.documents[:TOP_PANELS]:
        panel = document_panel(doc["value"], doc["relevance"], doc["redundancy"], lang)
        console.print(f"{escape(panel)}  {safe(doc['title'], 70)}", soft_wrap=True)
    mastery = results.overall_mastery()
    if mastery:
        console.print(mastery_panel(mastery["overall"], lang), markup=False)
    skill = results.acquired()
    if skill:
        panel = acquired_panel(clean(skill.title), clean(skill.title_zh) or None, skill.level, lang)
        console.print(panel, markup=False, style="bold green")
    if results.invoke:
        passed, run = results.invoke.checks()
        benchmark = results.invoke.benchmark
        console.print(
            validation_line(results.invoke, lang) + (f", {len(benchmark)} benchmark rows" if benchmark else ""),
            markup=False,
            soft_wrap=True,
            style="red" if passed < run else None,
        )
    console.print(say("report.wrote", lang, path=results.report), markup=False, soft_wrap=True, style="bold")


# -- the reader's verbs: score, show, search, list -----------------------------------------------------

TITLE_CELLS = 70  # a title's width in tables and lists, in display cells


def status_text(status: str | None, lang: Lang) -> str:
    key = f"status.{status}"
    return say(key, lang) if key in CATALOGUE else clean(status or "-")


def kind_text(kind: str | None, lang: Lang) -> str:
    key = f"kind.{kind}"
    return say(key, lang) if key in CATALOGUE else clean(kind or "-")


def score_table(console: Console, scored: list[Any], topic: str, limit: int, lang: Lang) -> None:
    """``shijie score``: the ranking, best first (``limit`` rows)."""
    from shijie.text import level_text

    table = Table(title=safe(say("score.title", lang, n=len(scored), topic=topic)))
    for key in ("col.id", "col.value", "col.relevance", "col.redundancy", "col.title"):
        table.add_column(say(key, lang))
    for s in scored[:limit]:
        repeats = f" → {s.duplicate_of}" if s.duplicate_of else ""
        table.add_row(
            str(s.id),
            str(s.value),
            level_text(s.relevance, lang),
            level_text(s.redundancy, lang) + repeats,
            safe(s.title, TITLE_CELLS),
        )
    console.print(table)


def document_view(console: Console, shown: dict[str, Any], lang: Lang) -> None:
    """``shijie show``: title, address, panel, and the reasons behind each figure (``shijie.explain``)."""
    from shijie.explain import reasons

    colon = say("punct.colon", lang)
    console.print(f"[bold]{safe(shown['title'] or shown['url'])}[/bold]")
    console.print(f"{safe(shown['link'])} {say('punct.paren', lang, text=status_text(shown['status'], lang))}")
    console.print(escape(shown["panel"]))
    for line in reasons(shown, lang):
        lead = "  " * line.indent + (
            f"{escape(line.heading)}{colon}" if line.heading and line.text else escape(line.heading)
        )
        console.print(lead + safe(line.text, one_line=True), soft_wrap=True)
    titles = domain_titles(lang)
    covered = ", ".join(f"{safe(titles.get(k, k))} {v:.2f}" for k, v in shown["domains"].items() if v > 0)
    console.print(f"{say('show.domains', lang)}{colon}{covered or '-'}")


def document_text(console: Console, text: str | None, lang: Lang) -> None:
    """``shijie show --text``: the extracted text, as data."""
    if text is None:
        console.print(say("show.no_text", lang))
        return
    console.print(plain(text, one_line=False), soft_wrap=True)


def search_hits(console: Console, hits: list[Any], lang: Lang, link: Any = None) -> None:
    """``shijie search``: id, title, score and state, the address (``link``: the one that outlives the run),
    and the snippet with its matches styled."""
    for hit in hits:
        state = "" if hit.status == "kept" else f"  [dim]{status_text(hit.status, lang)}[/dim]"
        console.print(f"[bold]{hit.document_id}[/bold] {safe(hit.title, TITLE_CELLS)}  ({hit.score:.2f}){state}")
        console.print(f"  [dim]{safe(link(hit.url) if link else hit.url)}[/dim]")
        console.print(Text("  ").append_text(highlighted(hit.text, hit.marks)))
        console.print()


def documents_table(console: Console, rows: list[Any], total: int, lang: Lang) -> None:
    """``shijie list``: one row per document."""
    from shijie.text import level_text

    table = Table(title=say("list.title", lang, shown=len(rows), total=total))
    for key in ("col.id", "col.value", "col.relevance", "col.type", "col.status", "col.host", "col.title"):
        table.add_column(say(key, lang), justify="right" if key in ("col.id", "col.value") else "left")
    for row in rows:
        table.add_row(
            str(row["id"]),
            "-" if row["value"] is None else str(row["value"]),
            level_text(row["relevance"], lang) if row["relevance"] else "-",
            kind_text(row["type"], lang),
            status_text(row["status"], lang),
            safe(row["host"]),
            safe(row["title"] or row["url"], TITLE_CELLS),
        )
    console.print(table)


def mastery_lines(console: Console, mastery: dict[str, Any], lang: Lang) -> None:
    """The mastery panel and a bar per domain, the names aligned by display width."""
    titles = domain_titles(lang)
    console.print(escape(mastery_panel(mastery["overall"], lang)))
    width = max((cell_len(t) for t in titles.values()), default=10)
    for domain_id, share in mastery["domains"].items():
        bar = "█" * round(share * 30)
        console.print(f"  {escape(pad(clean(titles.get(domain_id, domain_id)), width))} {bar:<30} {100 * share:5.1f}%")
