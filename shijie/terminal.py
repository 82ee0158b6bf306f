"""What people see on the terminal for the results two renderers share: a skill's ``Invocation``, what
``Learned`` gave, the skills list, and the panels that end ``shijie run``. The HTML report renders the same
objects (``shijie.report``); the words come from ``shijie.text``.

Each function prints to a rich ``Console`` (``Output.human``: stdout for people, stderr under ``--json``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table

from shijie.text import Lang, acquired_panel, document_panel, mastery_panel, say
from skills.protocol import Invocation

if TYPE_CHECKING:
    from rich.console import Console

    from shijie.job import RunResult
    from skills.learning import Learned

STATUS_STYLE = {"learned": "green", "learnable": "yellow", "locked": "red", "broken": "bold red"}
TOP_PANELS = 5  # documents whose panel ends shijie run


def validation_line(invocation: Invocation) -> str:
    """``FusedAttentionBackward on CPU (NumPy): 4/4 validation cases passed``."""
    passed, run = invocation.checks()
    return f"{invocation.op} on {invocation.device_name or invocation.device}: {passed}/{run} validation cases passed"


def step_title(step: dict[str, Any], lang: Lang) -> str:
    return step["title_zh"] if lang == Lang.zh else step["title"]


# -- shijie skills list --------------------------------------------------------------------------------


def skills_table(console: Console, rows: list[dict[str, Any]], lang: Lang) -> None:
    table = Table(title=say("skills.title", lang))
    table.add_column("name", no_wrap=True)
    for column in ("title", "level", "status", "needs"):
        table.add_column(column)
    for row in rows:
        if row["status"] == "broken":
            needs = "; ".join(row["problems"])
        elif row["status"] == "locked":
            needs = f"{len(row['shortfalls'])} domain(s) short, see below"
        else:
            above = {int(level): threshold for level, threshold in row["levels"].items() if int(level) > row["level"]}
            needs = (
                f"Lv.{min(above)} at {above[min(above)]:.0%} mean required mastery (now {row['required_mastery']:.1%})"
                if above
                else "top level"
            )
            if row["status"] == "learnable":
                needs = f"ready: shijie skills learn {row['name']}"
            elif row["attainable_level"] > row["level"]:
                needs = f"mastery now supports Lv.{row['attainable_level']}: learn it again"
        title = row.get("title_zh", row["title"]) if lang == Lang.zh else row["title"]
        level = f"Lv.{row['level']}" if row["level"] else "-"
        style = STATUS_STYLE[row["status"]]
        table.add_row(row["name"], title, level, f"[{style}]{row['status']}[/{style}]", needs)
    console.print(table)
    for row in rows:
        if row["status"] == "locked":
            console.print(f"[red]{row['name']}[/red] is locked; mastery it still needs:")
            for domain, gap in row["shortfalls"].items():
                have = row["requires"][domain] - gap
                console.print(f"  {domain} {have:.1%} of {row['requires'][domain]:.1%} (+{gap:.1%})")


# -- shijie skills learn -------------------------------------------------------------------------------


def learned(console: Console, result: Learned, lang: Lang) -> None:
    pack = result.pack
    topics = Table(title=f"Topics ({pack['documents']} curated documents)")
    for column in ("#", "label", "domain", "documents", "passages"):
        topics.add_column(column)
    for topic in pack["topics"]:
        topics.add_row(
            str(topic["id"]),
            ", ".join(topic["label"]),
            topic["domain"] or "-",
            str(len(topic["documents"])),
            str(len(topic["passages"])),
        )
    console.print(topics)
    path = Table(title="Adaptation path")
    for column in ("step", "title", "sources"):
        path.add_column(column)
    for step in pack["path"]:
        path.add_row(str(step["step"]), step_title(step, lang), "\n".join(p["url"] for p in step["passages"]) or "-")
    console.print(path)


# -- shijie skills invoke ------------------------------------------------------------------------------


def tuned_configs_table(rows: list[dict]) -> Table:
    """The autotuner's picks (``fused_attention.chosen_configs()``): one row per kernel and shape class."""
    table = Table(title="Tile configurations chosen by the autotuner (cached per shape class)")
    for column in ("kernel", "shape class", "config", "ms"):
        table.add_column(column)
    for row in rows:
        ms = row.get("ms")
        table.add_row(row["kernel"], row["shape_class"], str(row.get("config")), "-" if ms is None else f"{ms:.3f}")
    return table


def _plan(console: Console, plan: dict[str, Any]) -> None:
    target = plan["target"]
    console.print(
        f"\n[bold]Tile plan[/bold] for {target['full_name']} ({target['arch']}, {target['sm_count']} SMs,"
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
    console.print("[bold]Adaptation list[/bold]")
    for item in result.adaptation_list:
        mark = "[green]✓ adapted[/green]" if item.adapted else "[red]✗ not adapted: plan only[/red]"
        colour = "green" if item.adapted else "red"
        console.print(f"  [{colour}]{item.op}[/{colour}]  {mark}")
    if result.note:
        console.print(f"[red]{result.note}[/red]")
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
    console.print("\n[bold]Knowledge used[/bold]")
    for step in result.knowledge:
        console.print(f"  {step['step']}. {step_title(step, lang)}")
        for passage in step["passages"]:
            console.print(f"     [dim]{passage['url']}[/dim]  {passage['title']}")
        if not step["passages"]:
            console.print("     [dim](no passage found in the curated corpus)[/dim]")
    for note in result.notes or []:
        console.print(f"[yellow]note:[/yellow] {note}")


# -- the end of shijie run -----------------------------------------------------------------------------


def run_summary(console: Console, results: RunResult, lang: Lang) -> None:
    """The top documents' panels, the mastery panel, the acquired panel, the validation, the report's path."""
    console.print()
    for doc in results.documents[:TOP_PANELS]:
        panel = document_panel(doc["value"], doc["relevance"], doc["redundancy"], lang)
        console.print(f"{panel}  {doc['title'][:70]}", markup=False, soft_wrap=True)
    mastery = results.overall_mastery()
    if mastery:
        console.print(mastery_panel(mastery["overall"], lang), markup=False)
    skill = results.acquired()
    if skill:
        console.print(acquired_panel(skill.title, skill.title_zh, skill.level, lang), markup=False, style="bold green")
    if results.invoke:
        passed, run = results.invoke.checks()
        benchmark = results.invoke.benchmark
        console.print(
            validation_line(results.invoke) + (f", {len(benchmark)} benchmark rows" if benchmark else ""),
            markup=False,
            soft_wrap=True,
            style="red" if passed < run else None,
        )
    console.print(f"report: {results.report}", markup=False, soft_wrap=True, style="bold")
