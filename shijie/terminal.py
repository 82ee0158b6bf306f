"""What people see on the terminal for the results two renderers share: a skill's ``Invocation``, what
``Learned`` gave, the skills list, and the panels that end ``shijie run``. The HTML report renders the same
objects (``shijie.report``); the words come from ``shijie.text``.

Each function prints to a rich ``Console`` (``Output.human``: stdout for people, stderr under ``--json``).

Crawled text is data, never markup or control codes. Everything a page wrote (titles, snippets, URLs, reasons
that quote it) reaches the terminal through ``safe`` (inside rich markup and table cells) or ``plain`` (a
``rich.text.Text``, never parsed): both drop escape sequences (clear screen, window titles, hyperlinks),
C0/C1 control characters and bidirectional overrides, and ``safe`` escapes rich markup, so a title reading
``[/b]`` or ``[link=http://…]`` prints as those characters. ``highlighted`` shows a search snippet with its
matches styled (and still bracketed, so they stay visible without colour). Widths are display cells
(``rich.cells``): a CJK character takes two.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len, set_cell_size
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from shijie.text import CATALOGUE, Lang, acquired_panel, document_panel, mastery_panel, say
from skills.protocol import Invocation

if TYPE_CHECKING:
    from rich.console import Console

    from shijie.job import RunResult
    from skills.learning import Learned

STATUS_STYLE = {"learned": "green", "learnable": "yellow", "locked": "red", "broken": "bold red"}
TOP_PANELS = 5  # documents whose panel ends shijie run
MATCH_STYLE = "bold yellow"  # a search term inside a snippet

# -- crawled text, made safe to print -------------------------------------------------------------------

_ESCAPES = re.compile(
    r"""
      \x1b\[[0-?]*[ -/]*[@-~]?                        # CSI: colours, cursor moves, clear screen
    | \x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?  # OSC/DCS/SOS/PM/APC: window title, hyperlinks
    | \x1b[ -/]*[0-~]?                               # any other escape, and a lone ESC
    | \x9b[0-?]*[ -/]*[@-~]?                          # 8-bit CSI
    | [\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?  # 8-bit string commands
    """,
    re.VERBOSE,
)
# C0 and C1 controls but tab and newline, DEL, and the bidirectional marks and overrides that reorder a line
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_BLANKS = re.compile(r"\s+")


def clean(value: object, *, one_line: bool = True) -> str:
    """``value`` as text a terminal shows as it is: escape sequences and control characters removed; with
    ``one_line``, every run of white space (newlines included) one space."""
    text = _CONTROLS.sub("", _ESCAPES.sub("", "" if value is None else str(value)))
    return _BLANKS.sub(" ", text).strip() if one_line else text.replace("\t", "    ")


def fit(text: str, width: int | None) -> str:
    """``text`` cut to ``width`` display cells (a CJK character is two), ending in "…" when cut."""
    if width is None or cell_len(text) <= width:
        return text
    return set_cell_size(text, max(width - 1, 0)).rstrip() + "…"


def safe(value: object, width: int | None = None, *, one_line: bool = True) -> str:
    """Crawled text for rich markup and table cells: cleaned (``clean``), cut to ``width`` cells, escaped."""
    return escape(fit(clean(value, one_line=one_line), width))


def plain(value: object, width: int | None = None, *, one_line: bool = True, style: str = "") -> Text:
    """Crawled text as a ``rich.text.Text``: cleaned and cut like ``safe``, never read as markup."""
    return Text(fit(clean(value, one_line=one_line), width), style=style)


def highlighted(text: str, marks: tuple[tuple[int, int], ...] | list[tuple[int, int]] = ()) -> Text:
    """A snippet on one flowing line whose ``marks`` (character spans of ``text``, the query's matches) are
    styled."""

    def flow(piece: str) -> str:
        return _BLANKS.sub(" ", clean(piece, one_line=False))

    out = Text()
    at = 0
    for start, end in sorted(marks):
        if start < at:
            continue
        out.append(flow(text[at:start]))
        out.append(flow(text[start:end]), style=MATCH_STYLE)
        at = end
    out.append(flow(text[at:]))
    return out


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` display cells (``str.ljust`` counts a CJK character as one)."""
    return text + " " * max(width - cell_len(text), 0)


def validation_line(invocation: Invocation, lang: Lang = Lang.en) -> str:
    """``FusedAttentionBackward on CPU (NumPy): 4/4 validation cases passed``."""
    passed, run = invocation.checks()
    device = invocation.device_name or invocation.device
    return say("invoke.validated", lang, op=invocation.op, device=device, passed=passed, run=run)


def domain_titles(lang: Lang) -> dict[str, str]:
    """Domain id → its title in ``lang``."""
    from pipeline.query import domains

    return {d.id: (d.title_zh if lang == Lang.zh else d.title) for d in domains()}


def step_title(step: dict[str, Any], lang: Lang) -> str:
    return step["title_zh"] if lang == Lang.zh else step["title"]


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


# -- shijie skills invoke ------------------------------------------------------------------------------


def tuned_configs_table(rows: list[dict]) -> Table:
    """The autotuner's picks (``fused_attention.chosen_configs()``): one row per kernel and shape class, with the
    winner's fastest round, its spread over the rounds and the runner-up (``tuner.Tuner.race``)."""
    table = Table(title="Tile configurations chosen by the autotuner (cached per shape class)")
    for column in ("kernel", "shape class", "config", "ms", "rounds, spread", "runner-up ms"):
        table.add_column(column)
    for row in rows:
        ms, runner_up = row.get("ms"), row.get("runner_up")
        rounds = f"{row['rounds']}, {row.get('spread', 0.0):.1%}" if row.get("rounds") else "-"
        table.add_row(
            row["kernel"],
            row["shape_class"],
            str(row.get("config")),
            "-" if ms is None else f"{ms:.3f}",
            rounds,
            f"{runner_up['ms']:.3f}" if runner_up else "-",
        )
    return table


def _plan(console: Console, plan: dict[str, Any]) -> None:
    target = plan["target"]
    console.print(
        f"\n[bold]Tile plan[/bold] for {safe(target['full_name'])} ({safe(target['arch'])}, {target['sm_count']} SMs,"
        f" warp {target['warp_size']}, {target['smem_per_block_kib']:g} KiB smem/block)"
    )
    table = Table()
    table.add_column("")
    kernels = plan["kernels"]
    for name in kernels:
        table.add_column(f"{name} pass", justify="right")
    fields = {
        "BLOCK_M x BLOCK_N": lambda k: f"{k['block_m']} x {k['block_n']}",
        "warps, stages": lambda k: f"{k['num_warps']}, {k['num_stages']}",
        "shared memory / block": lambda k: f"{k['smem_bytes'] / 1024:.1f} of {k['smem_limit'] / 1024:.0f} KiB",
        "registers / thread": lambda k: f"{k['registers_per_thread']} of {k['register_limit']}",
        "registers / block": lambda k: str(k["registers_per_block"]),
        "blocks, warps / SM": lambda k: f"{k['blocks_per_sm']}, {k['warps_per_sm']} ({k['occupancy']:.0%})",
        "limited by": lambda k: k["limited_by"],
        "configs that fit": lambda k: str(k["candidates"]),
    }
    for label, render in fields.items():
        table.add_row(label, *(render(k) for k in kernels.values()))
    console.print(table)
    hbm, problem = plan["hbm"], plan["problem"]
    console.print(
        f"HBM traffic (B={problem['batch']} H={problem['heads']} N={problem['seq']} D={problem['head_dim']}"
        f" causal={problem['causal']} {problem['dtype']}): fused {hbm['fused_bytes'] / 1e9:.2f} GB,"
        f" unfused {hbm['unfused_bytes'] / 1e9:.2f} GB ({hbm['unfused_over_fused']}x);"
        f" arithmetic intensity {plan['arithmetic_intensity']['fused']} FLOP/B fused vs ridge point"
        f" {plan['ridge_point']} FLOP/B: {plan['bound']}-bound"
    )
    work = plan.get("work")
    if work:
        line = (
            f"Work: GQA group {work['gqa_group']} ({work['kv_heads']} kv heads; {work['dkdv_programs']} dK/dV programs"
            f" of {work['dkdv_query_heads_per_program']} query heads, {work['dkdv_waves']} waves),"
            f" visible fraction {work['visible_fraction']:.3f} (window {tuple(work['window'])})"
        )
        if "varlen" in work:
            varlen = work["varlen"]
            line += (
                f"; {varlen['sequences']} packed sequences, {varlen['total_tokens']} tokens"
                f" (padded: {varlen['padded_tokens']}), {varlen['padding_work_avoided']:.0%} of the padded work avoided"
            )
        console.print(line)


def _dq_strategies(console: Console, strategies: dict[str, dict[str, Any]]) -> None:
    console.print("dQ strategies:")
    for name, figures in strategies.items():
        if figures.get("fits") is False:
            console.print(f"  {name}: does not fit ({figures['why']})")
            continue
        config = figures.get("dq_config") or figures.get("dkdv_config")
        console.print(
            f"  {name}: {config}; backward matmuls {figures['backward_matmul_flops'] / 1e12:.2f} TFLOP,"
            f" dQ HBM {figures['dq_hbm_bytes'] / 1e9:.3f} GB, L2 atomics {figures['l2_atomic_bytes'] / 1e9:.2f} GB,"
            f" {'deterministic' if figures['deterministic'] else 'not deterministic'}"
        )


def _validation(console: Console, rows: list[dict[str, Any]], device_name: str | None) -> None:
    impls = ", ".join(sorted({str(row["impl"]) for row in rows}))
    console.print(f"\n[bold]Validation[/bold] of {impls} on {device_name}: {rows[0]['error_kind']}")
    table = Table()
    for column in ("case", "dtype", "out", "dQ", "dK", "dV", "ok"):
        table.add_column(column)
    for row in rows:
        errors = row["errors"]
        case = f"B{row.get('batch')} H{row.get('heads')} N{row.get('seq')} D{row.get('head_dim')}" + (
            " causal" if row.get("causal") else ""
        )
        if row.get("feature", "plain") != "plain":
            case += f" [{row['feature']}]"
        passed = "[green]yes[/green]" if row.get("passed") else "[red]NO[/red]"
        table.add_row(
            case,
            str(row.get("dtype")),
            *(f"{errors[key]:.1e}" if key in errors else "-" for key in ("out", "dq", "dk", "dv")),
            passed,
        )
    console.print(table)


def _benchmark(console: Console, rows: list[dict[str, Any]], summary: dict[str, Any] | None) -> None:
    table = Table(title="Benchmark")
    columns = ("head_dim", "causal", "seq", "batch", "heads", "impl", "ms", "tflops", "peak_extra_gib", "note")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(f"{row[c]:.3f}" if isinstance(row.get(c), float) else str(row.get(c, "")) for c in columns))
    console.print(table)
    if summary and summary.get("geomean_vs_baseline"):
        console.print(
            f"ours vs {summary['baseline']}: {summary['geomean_vs_baseline']:.2f}x geometric mean over"
            f" {summary['points']} points; behind at: {'; '.join(summary['ours_behind']) or 'none'}"
        )


def _capabilities(console: Console, rows: list[dict[str, Any]]) -> None:
    table = Table(title="Capabilities")
    for column in ("capability", "use", "validated", "evidence"):
        table.add_column(column)
    marks = {True: "[green]yes[/green]", False: "[red]NO[/red]", None: "-"}
    for row in rows:
        table.add_row(row["capability"], row["use"], marks[row["validated"]], row["evidence"])
    console.print(table)


def invocation(console: Console, result: Invocation, lang: Lang) -> None:
    """Adaptation list, tile plan, dQ strategies, validation, tuned configs, benchmark, knowledge used."""
    console.print(f"[bold]{say('invoke.adaptation', lang)}[/bold]")
    for item in result.adaptation_list:
        mark = (
            f"[green]{say('invoke.adapted', lang)}[/green]"
            if item.adapted
            else f"[red]{say('invoke.not_adapted', lang)}[/red]"
        )
        colour = "green" if item.adapted else "red"
        console.print(f"  [{colour}]{safe(item.op)}[/{colour}]  {mark}")
    if not result.adapted:  # the first note says why
        for note in result.notes or []:
            console.print(f"[red]{safe(note)}[/red]")
    if result.plan:
        _plan(console, result.plan)
    if result.extras.get("dq_strategies"):
        _dq_strategies(console, result.extras["dq_strategies"])
    if result.extras.get("capabilities"):
        _capabilities(console, result.extras["capabilities"])
    if result.validation:
        _validation(console, result.validation, result.device_name)
    if result.extras.get("tuned_configs"):
        console.print(tuned_configs_table(result.extras["tuned_configs"]))
    if result.benchmark:
        _benchmark(console, result.benchmark, result.extras.get("benchmark_summary"))
    console.print(f"\n[bold]{say('invoke.knowledge', lang)}[/bold]")
    for step in result.knowledge:
        console.print(f"  {step['step']}. {safe(step_title(step, lang))}")
        for passage in step["passages"]:
            console.print(f"     [dim]{safe(passage['url'])}[/dim]  {safe(passage['title'])}")
        if not step["passages"]:
            console.print(f"     [dim]{say('invoke.no_passage', lang)}[/dim]")
    remarks = (result.notes or []) if result.adapted else []  # otherwise printed in red above
    for note in remarks:
        console.print(f"[yellow]{say('invoke.note', lang)}[/yellow] {safe(note)}")


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
