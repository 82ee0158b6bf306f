"""``shijie skills``: list, learn, invoke and export skills (a thin skin over ``skills.learning``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.table import Table

from shijie.options import DbOpt, JsonOpt, LangOpt, output

if TYPE_CHECKING:
    from pipeline.store import Database
    from skills.registry import Registry

skills_app = typer.Typer(
    help="Skills learned from the curated corpus: list, learn, invoke, export.", no_args_is_help=True
)

STATUS_STYLE = {"learned": "green", "learnable": "yellow", "locked": "red", "broken": "bold red"}


def _context(db: str | None) -> tuple[Database, Registry]:
    from pipeline.store import open_db
    from skills.registry import discover

    return open_db(db), discover()


@skills_app.command("list")
def list_(db: DbOpt = None, as_json: JsonOpt = False, lang: LangOpt = "en") -> None:
    """Every skill: level, status (locked / learnable / learned), and what a locked one still needs.

    Example: shijie skills list
    """
    from skills.learning import list_skills

    out = output(as_json, lang)
    database, registry = _context(db)
    rows = list_skills(database, registry)
    if as_json:
        out.emit(rows)
        return
    table = Table(title="Skills" if lang == "en" else "技能")
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
        title = row.get("title_zh", row["title"]) if lang == "zh" else row["title"]
        level = f"Lv.{row['level']}" if row["level"] else "-"
        style = STATUS_STYLE[row["status"]]
        table.add_row(row["name"], title, level, f"[{style}]{row['status']}[/{style}]", needs)
    out.human.print(table)
    for row in rows:
        if row["status"] == "locked":
            out.human.print(f"[red]{row['name']}[/red] is locked; mastery it still needs:")
            for domain, gap in row["shortfalls"].items():
                have = row["requires"][domain] - gap
                out.human.print(f"  {domain} {have:.1%} of {row['requires'][domain]:.1%} (+{gap:.1%})")


@skills_app.command("learn")
def learn(
    name: Annotated[str, typer.Argument(help="Skill name, e.g. operator-adaptation.")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Builds the skill's knowledge pack from the curated corpus (refused while the skill is locked).

    Example: shijie skills learn operator-adaptation
    """
    from skills.learning import PANELS, acquired_panel, learn as learn_skill

    out = output(as_json, lang)
    database, registry = _context(db)
    result = learn_skill(database, registry, name, on_phase=lambda key: out.err.print(PANELS[lang][key]))
    entry = registry.get(name)
    if as_json:
        out.emit(result)
    else:
        pack = result["pack"]
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
        out.human.print(topics)
        path = Table(title="Adaptation path")
        for column in ("step", "title", "sources"):
            path.add_column(column)
        for step in pack["path"]:
            title = step["title_zh"] if lang == "zh" else step["title"]
            path.add_row(str(step["step"]), title, "\n".join(p["url"] for p in step["passages"]) or "-")
        out.human.print(path)
    out.err.print(
        f"[bold green]{acquired_panel(entry.manifest.title, entry.manifest.title_zh, result['level'], lang)}[/bold green]"
    )


def tuned_configs_table(rows: list[dict]) -> Table:
    """The autotuner's picks (``fused_attention.chosen_configs()``): one row per kernel and shape class."""
    table = Table(title="Tile configurations chosen by the autotuner (cached per shape class)")
    for column in ("kernel", "shape class", "config", "ms"):
        table.add_column(column)
    for row in rows:
        ms = row.get("ms")
        table.add_row(row["kernel"], row["shape_class"], str(row.get("config")), "-" if ms is None else f"{ms:.3f}")
    return table


def _render_invoke(out, result: dict, lang: str) -> None:
    console = out.human
    console.print("[bold]Adaptation list[/bold]")
    for item in result["adaptation_list"]:
        mark = "[green]✓ adapted[/green]" if item["adapted"] else "[red]✗ not adapted: plan only[/red]"
        colour = "green" if item["adapted"] else "red"
        console.print(f"  [{colour}]{item['op']}[/{colour}]  {mark}")
    if result.get("note"):
        console.print(f"[red]{result['note']}[/red]")
    plan = result["plan"]
    if plan:
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
    strategies = result.get("dq_strategies")
    if strategies:
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
    if result["validation"]:
        impls = ", ".join(sorted({str(row["impl"]) for row in result["validation"]}))
        kind = result["validation"][0]["error_kind"]
        console.print(f"\n[bold]Validation[/bold] of {impls} on {result['device_name']}: {kind}")
        table = Table()
        for column in ("case", "dtype", "out", "dQ", "dK", "dV", "ok"):
            table.add_column(column)
        for row in result["validation"]:
            errors = row["errors"]
            case = f"B{row.get('batch')} H{row.get('heads')} N{row.get('seq')} D{row.get('head_dim')}" + (
                " causal" if row.get("causal") else ""
            )
            passed = "[green]yes[/green]" if row.get("passed") else "[red]NO[/red]"
            table.add_row(
                case,
                str(row.get("dtype")),
                *(f"{errors[key]:.1e}" if key in errors else "-" for key in ("out", "dq", "dk", "dv")),
                passed,
            )
        console.print(table)
    if result.get("tuned_configs"):
        console.print(tuned_configs_table(result["tuned_configs"]))
    if result["benchmark"]:
        table = Table(title="Benchmark")
        columns = ("head_dim", "causal", "seq", "batch", "heads", "impl", "ms", "tflops", "peak_extra_gib", "note")
        for column in columns:
            table.add_column(column)
        for row in result["benchmark"]:
            table.add_row(*(f"{row[c]:.3f}" if isinstance(row.get(c), float) else str(row.get(c, "")) for c in columns))
        console.print(table)
        summary = result.get("benchmark_summary")
        if summary and summary.get("geomean_vs_baseline"):
            console.print(
                f"ours vs {summary['baseline']}: {summary['geomean_vs_baseline']:.2f}x geometric mean over"
                f" {summary['points']} points; behind at: {'; '.join(summary['ours_behind']) or 'none'}"
            )
    console.print("\n[bold]Knowledge used[/bold]")
    for step in result["knowledge"]:
        title = step["title_zh"] if lang == "zh" else step["title"]
        console.print(f"  {step['step']}. {title}")
        for passage in step["passages"]:
            console.print(f"     [dim]{passage['url']}[/dim]  {passage['title']}")
        if not step["passages"]:
            console.print("     [dim](no passage found in the curated corpus)[/dim]")
    for note in result.get("notes") or []:
        console.print(f"[yellow]note:[/yellow] {note}")


@skills_app.command("invoke")
def invoke(
    name: Annotated[str, typer.Argument(help="Skill name, e.g. operator-adaptation.")],
    op: Annotated[str, typer.Option("--op", help="Operator to adapt, e.g. FusedAttentionBackward.")],
    device: Annotated[str, typer.Option("--device", help="auto, cpu or cuda.")] = "auto",
    target: Annotated[
        Optional[str], typer.Option("--target", help="Hardware profile (h100, h200, a100, l100) or a .toml path.")
    ] = None,
    benchmark: Annotated[
        bool, typer.Option("--benchmark", help="Measure the Triton kernel against the vendor kernels (CUDA).")
    ] = False,
    seq: Annotated[int, typer.Option("--seq", help="Sequence length the tile plan's traffic is computed for.")] = 4096,
    head_dim: Annotated[int, typer.Option("--head-dim", help="Head dimension to plan for.")] = 128,
    causal: Annotated[bool, typer.Option("--causal/--no-causal", help="Plan for causal attention.")] = True,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Runs a learned skill on an operator: adaptation list, tile plan, validation, sources.

    Example: shijie skills invoke operator-adaptation --op FusedAttentionBackward --target l100
    """
    from skills.learning import invoke as invoke_skill
    from skills.operator_adaptation.tile_plan import Problem

    out = output(as_json, lang)
    database, registry = _context(db)
    problem = Problem(seq=seq, head_dim=head_dim, causal=causal)
    result = invoke_skill(
        database, registry, name, op=op, device=device, target=target, benchmark=benchmark, problem=problem
    )
    if as_json:
        out.emit(result)
    else:
        _render_invoke(out, result, lang)


@skills_app.command("export")
def export(
    name: Annotated[str, typer.Argument(help="Skill name, e.g. operator-adaptation.")],
    directory: Annotated[Path, typer.Argument(help="Folder to write the skill folder into.")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Writes a learned skill as an Agent Skills folder: SKILL.md, references/ (the knowledge pack), scripts/.

    Example: shijie skills export operator-adaptation ./agent-skills
    """
    from skills.export import export_skill
    from skills.learning import stored_pack

    out = output(as_json, lang)
    database, registry = _context(db)
    entry, stored = stored_pack(database, registry, name)
    folder = export_skill(entry, stored, directory)
    files = sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())
    if as_json:
        out.emit({"skill": entry.name, "folder": str(folder), "files": files})
    else:
        out.human.print(f"wrote {folder} ({len(files)} files)")
