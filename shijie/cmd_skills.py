"""``shijie skills``: list, learn, invoke and export skills (a thin skin over ``skills.learning``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from shijie import terminal
from shijie.options import DbOpt, DeviceOpt, Group, JsonOpt, LangOpt, output
from shijie.text import Lang, acquired_panel, learning_panel, say
from skills.protocol import Device

if TYPE_CHECKING:
    from pipeline.store import Database
    from skills.registry import Registry

skills_app = typer.Typer(
    cls=Group, help="Skills learned from the curated corpus: list, learn, invoke, export.", no_args_is_help=True
)


def _context(db: str | None, read_only: bool = True) -> tuple[Database, Registry]:
    from pipeline.store import open_db
    from skills.registry import discover

    return open_db(db, read_only=read_only), discover()


@skills_app.command("list")
def list_(db: DbOpt = None, as_json: JsonOpt = False, lang: LangOpt = Lang.en) -> None:
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
    terminal.skills_table(out.human, rows, lang)


@skills_app.command("learn")
def learn(
    name: Annotated[str, typer.Argument(help="Skill name, e.g. operator-adaptation.")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Builds the skill's knowledge pack from the curated corpus (refused while the skill is locked).

    Example: shijie skills learn operator-adaptation
    """
    from skills.learning import learn as learn_skill

    out = output(as_json, lang)
    database, registry = _context(db, read_only=False)
    result = learn_skill(
        database, registry, name, on_phase=lambda phase: out.err.print(learning_panel(phase, lang), markup=False)
    )
    manifest = registry.get(name).manifest
    assert manifest is not None  # get() returns only a working skill, whose manifest parsed
    if as_json:
        out.emit(result.to_json())
    else:
        terminal.learned(out.human, result, lang)
    panel = acquired_panel(manifest.title, manifest.title_zh, result.level, lang)
    out.err.print(terminal.plain(panel, style="bold green"))


@skills_app.command("invoke")
def invoke(
    name: Annotated[str, typer.Argument(help="Skill name, e.g. operator-adaptation.")],
    op: Annotated[str, typer.Option("--op", help="Operator to adapt, e.g. FusedAttentionBackward.")],
    device: DeviceOpt = Device.auto,
    target: Annotated[
        str | None, typer.Option("--target", help="Hardware profile (h100, h200, a100, l100) or a .toml path.")
    ] = None,
    benchmark: Annotated[
        bool, typer.Option("--benchmark", help="Measure the Triton kernel against the vendor kernels (CUDA).")
    ] = False,
    seq: Annotated[int, typer.Option("--seq", help="Sequence length the tile plan's traffic is computed for.")] = 4096,
    head_dim: Annotated[int, typer.Option("--head-dim", help="Head dimension to plan for.")] = 128,
    causal: Annotated[bool, typer.Option("--causal/--no-causal", help="Plan for causal attention.")] = True,
    heads: Annotated[int, typer.Option("--heads", help="Query heads to plan for.")] = 16,
    kv_heads: Annotated[
        int | None, typer.Option("--kv-heads", help="Key/value heads, fewer than --heads: grouped-query attention.")
    ] = None,
    window: Annotated[
        str | None, typer.Option("--window", help="Sliding window LEFT,RIGHT around the diagonal (-1: unbounded).")
    ] = None,
    seqlens: Annotated[
        str | None, typer.Option("--seqlens", help="Packed variable-length sequences, e.g. 2048,100,700.")
    ] = None,
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Runs a learned skill on an operator: adaptation list, tile plan, validation, sources.

    Example: shijie skills invoke operator-adaptation --op FusedAttentionBackward --target l100 --kv-heads 4
    """
    from skills.learning import invoke as invoke_skill
    from skills.operator_adaptation.tile_plan import Problem, int_list

    out = output(as_json, lang)
    database, registry = _context(db)
    problem = Problem(
        seq=seq,
        head_dim=head_dim,
        causal=causal,
        heads=heads,
        kv_heads=kv_heads,
        window=int_list(window, "window") if window else (-1, -1),
        seqlens=int_list(seqlens, "seqlens") if seqlens else None,
    )
    result = invoke_skill(
        database, registry, name, op=op, device=device, target=target, benchmark=benchmark, problem=problem
    )
    if as_json:
        out.emit(result.to_json())
    else:
        terminal.invocation(out.human, result, lang)


@skills_app.command("export")
def export(
    name: Annotated[str, typer.Argument(help="Skill name, e.g. operator-adaptation.")],
    directory: Annotated[Path, typer.Argument(help="Folder to write the skill folder into.")],
    db: DbOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = Lang.en,
) -> None:
    """Writes a learned skill as an Agent Skills folder: SKILL.md, references/ (the knowledge pack), scripts/.

    Example: shijie skills export operator-adaptation ./agent-skills
    """
    from pipeline.links import Links
    from pipeline.store import served_origins
    from shijie.folders import writable_folder
    from skills.export import export_skill
    from skills.learning import stored_pack

    out = output(as_json, lang)
    writable_folder(directory, "directory", lang)  # before anything is read or written
    database, registry = _context(db)
    entry, stored = stored_pack(database, registry, name)
    folder = export_skill(entry, stored, directory, link=Links(tuple(served_origins(database))).stable)
    files = sorted(str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file())
    if as_json:
        out.emit({"skill": entry.name, "folder": str(folder), "files": files})
    else:
        out.human.print(say("skills.wrote", lang, folder=terminal.safe(folder), n=len(files)), soft_wrap=True)
