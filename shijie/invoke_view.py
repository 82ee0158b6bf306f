"""``shijie skills invoke`` on the terminal: what a skill's ``Invocation`` says, section by section.

``invocation(console, result, lang)`` prints the adaptation list (and, when the skill could not adapt, why),
the tile plan, the dQ strategies, the device's capabilities, the validation cases, the autotuner's picks
(``tuned_configs_table``), the benchmark rows, and the knowledge each step drew on. The HTML report renders
the same ``Invocation`` (``shijie.report``). Crawled text (passage titles and URLs, notes) goes through
``shijie.printable.safe``; the kernel's own figures are numbers the skill computed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table

from shijie.printable import safe
from shijie.text import Lang, say
from skills.protocol import Invocation

if TYPE_CHECKING:
    from rich.console import Console


def step_title(step: dict[str, Any], lang: Lang) -> str:
    """A learning step's title in ``lang`` (the knowledge pack carries both)."""
    return step["title_zh"] if lang == Lang.zh else step["title"]


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
