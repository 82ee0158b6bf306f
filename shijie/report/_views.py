"""Turns the stages' ``--json`` outputs into what the pictures draw.

This is the only module that knows the inner keys of ``skills invoke``'s plan, validation, benchmark and
knowledge, so when a stage grows a key, one function here follows.
"""

from __future__ import annotations

from typing import Any

from ._svg import Budget, ConceptGraph, GraphNode, MemoryLevel, Tile, TileGroup, clip, human_bytes

MAX_TOPICS, MAX_PASSAGES, MAX_STEPS = 8, 16, 10


def first(d: dict, *keys: str, default: Any = None) -> Any:
    for key in keys:
        if isinstance(d, dict) and d.get(key) not in (None, ""):
            return d[key]
    return default


# -- knowledge pack → concept graph ---------------------------------------------------------------------


def _passage_key(passage: Any) -> str:
    # a passage is known by its document and its first words: the same passage cited by a topic and a step
    # is one node with two edges
    if isinstance(passage, dict):
        where = first(passage, "document_id", "url", default="")
        return f"p:{where}#{' '.join(str(first(passage, 'excerpt', 'text', default='')).split())[:80]}"
    return f"p:{passage}"


def _passage_node(passage: Any) -> GraphNode:
    if not isinstance(passage, dict):
        return GraphNode(_passage_key(passage), str(passage), str(passage))
    title = first(passage, "title", "url", default="passage")
    excerpt = " ".join(str(first(passage, "excerpt", "text", default="")).split())
    detail = " · ".join(str(x) for x in (title, passage.get("url"), clip(excerpt, 300)) if x)
    return GraphNode(_passage_key(passage), str(title), detail)


def _number_repeated_labels(nodes: list[GraphNode]) -> None:
    # several passages often come from one document: "Hopper guide (2/3)" tells them apart
    totals: dict[str, int] = {}
    for node in nodes:
        totals[node.label] = totals.get(node.label, 0) + 1
    seen: dict[str, int] = {}
    for node in nodes:
        if totals[node.label] > 1:
            seen[node.label] = seen.get(node.label, 0) + 1
            node.label = f"({seen[node.label]}/{totals[node.label]}) {node.label}"


def _label(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def knowledge_graph(pack: dict | list | None, lang: str = "en") -> ConceptGraph:
    """Topics → passages → steps from a knowledge pack (``skills learn``'s ``pack``: ``topics``, each with its
    ``label`` terms and ``passages``, and a ``path`` of steps with the ``passages`` behind them) or from
    invoke's ``knowledge`` (the steps alone)."""
    graph = ConceptGraph()
    if not pack:
        return graph
    if isinstance(pack, list):
        pack = {"path": pack}
    passages: dict[str, GraphNode] = {}
    topic_edges: list[tuple[str, str]] = []
    step_edges: list[tuple[str, str]] = []
    for index, topic in enumerate(pack.get("topics") or []):
        key = f"t:{topic.get('id', index)}"
        domain = topic.get("domain")
        graph.topics.append(
            GraphNode(
                key, _label(topic.get("label", key)), f"{_label(topic.get('label', ''))} ({domain})" if domain else ""
            )
        )
        for passage in topic.get("passages") or []:
            node = _passage_node(passage)
            passages.setdefault(node.key, node)
            topic_edges.append((key, node.key))
    for index, step in enumerate(pack.get("path") or []):
        key = f"s:{step.get('id', index)}"
        title = (step.get("title_zh") if lang == "zh" else None) or step.get("title", key)
        graph.steps.append(GraphNode(key, f"{step.get('step', index + 1)}. {title}", str(step.get("query") or title)))
        for passage in step.get("passages") or []:
            node = _passage_node(passage)
            passages.setdefault(node.key, node)
            step_edges.append((node.key, key))
    # keep the picture readable: the first topics and steps, and the passages that connect them
    graph.hidden["topics"] = max(0, len(graph.topics) - MAX_TOPICS)
    graph.hidden["steps"] = max(0, len(graph.steps) - MAX_STEPS)
    graph.topics, graph.steps = graph.topics[:MAX_TOPICS], graph.steps[:MAX_STEPS]
    kept_t, kept_s = {t.key for t in graph.topics}, {s.key for s in graph.steps}
    # the bridges (passages cited by a topic and by a step) first, then each topic's and each step's
    # next passage in turn, so every node keeps at least one edge when passages must be left out
    cited_t = {p for t, p in topic_edges if t in kept_t}
    cited_s = {p for p, s in step_edges if s in kept_s}
    ordered = [k for k in passages if k in cited_t and k in cited_s]
    per_node: dict[str, list[str]] = {}
    for t, p in topic_edges:
        if t in kept_t:
            per_node.setdefault(t, []).append(p)
    for p, s_key in step_edges:
        if s_key in kept_s:
            per_node.setdefault(s_key, []).append(p)
    for round_ in range(max((len(v) for v in per_node.values()), default=0)):
        for cited in per_node.values():
            if round_ < len(cited) and cited[round_] not in ordered:
                ordered.append(cited[round_])
    ordered += [k for k in passages if k not in ordered]
    graph.passages = [passages[k] for k in ordered[:MAX_PASSAGES]]
    _number_repeated_labels(graph.passages)
    graph.hidden["passages"] = max(0, len(passages) - MAX_PASSAGES)
    kept_p = {p.key for p in graph.passages}
    graph.edges = [(t, p) for t, p in dict.fromkeys(topic_edges) if p in kept_p and t in kept_t]
    graph.edges += [(p, s) for p, s in dict.fromkeys(step_edges) if p in kept_p and s in kept_s]
    return graph


# -- tile plan → memory hierarchy -----------------------------------------------------------------------

PASS_TITLES = {"dkdv": "dK/dV pass", "dq": "dQ pass"}


def memory_view(plan: dict) -> tuple[list[MemoryLevel], list[TileGroup]]:
    """The plan of ``skills.operator_adaptation.tile_plan.plan`` as four levels with their budgets (HBM
    traffic fused vs unfused, the L2 working set, shared memory and registers per pass) and each pass's
    tiles (``target``, ``problem``, ``kernels``, ``hbm`` keys)."""
    target = plan.get("target") or {}
    problem = plan.get("problem") or {}
    kernels = plan.get("kernels") or {}
    hbm = plan.get("hbm") or {}
    d = problem.get("head_dim", "d")
    dtype = problem.get("dtype", "")

    def kib(n: float) -> str:
        return human_bytes(n)

    levels = []
    hbm_budgets = []
    if hbm.get("fused_bytes") and hbm.get("unfused_bytes"):
        unfused = float(hbm["unfused_bytes"])
        hbm_budgets = [
            Budget("fused", hbm["fused_bytes"] / unfused, kib(hbm["fused_bytes"])),
            Budget("unfused", 1.0, kib(unfused)),
        ]
    shape = " × ".join(str(problem[k]) for k in ("batch", "heads", "seq", "head_dim") if k in problem)
    levels.append(
        MemoryLevel(
            "HBM",
            " · ".join(
                x
                for x in (
                    target.get("full_name") or target.get("name"),
                    f"{target['hbm_bandwidth_gbs']:g} GB/s" if target.get("hbm_bandwidth_gbs") else "",
                )
                if x
            ),
            f"Q, K, V, O, dO in; dQ, dK, dV out ({shape} {dtype})".replace("( ", "("),
            hbm_budgets,
        )
    )
    l2_budgets = []
    if hbm.get("l2_bytes") and hbm.get("l2_working_set_bytes") is not None:
        l2_budgets = [
            Budget(
                "re-read set",
                hbm["l2_working_set_bytes"] / hbm["l2_bytes"],
                f"{kib(hbm['l2_working_set_bytes'])} of {kib(hbm['l2_bytes'])}",
            )
        ]
    stays = hbm.get("rereads_in_l2")
    levels.append(
        MemoryLevel(
            "L2",
            kib(hbm["l2_bytes"]) if hbm.get("l2_bytes") else "",
            "tiles re-read by later programs " + ("stay here" if stays else "spill to HBM" if stays is False else ""),
            l2_budgets,
        )
    )
    smem, regs = [], []
    for name, k in kernels.items():
        label = PASS_TITLES.get(name, name)
        if k.get("smem_bytes") is not None and k.get("smem_limit"):
            smem.append(
                Budget(label, k["smem_bytes"] / k["smem_limit"], f"{kib(k['smem_bytes'])} of {kib(k['smem_limit'])}")
            )
        if k.get("registers_per_thread") is not None and k.get("register_limit"):
            regs.append(
                Budget(
                    label,
                    k["registers_per_thread"] / k["register_limit"],
                    f"{k['registers_per_thread']} of {k['register_limit']} per thread",
                )
            )
    per_block = f"{target['smem_per_block_kib']:g} KiB per block" if target.get("smem_per_block_kib") else ""
    levels.append(MemoryLevel("Shared memory", per_block, "resident and streamed tiles, P/dS operand tile", smem))
    per_sm = f"{target['registers_per_sm']:,} per SM" if target.get("registers_per_sm") else ""
    levels.append(MemoryLevel("Registers", per_sm, "fp32 accumulators and the live score tiles", regs))
    groups = []
    for name, k in kernels.items():
        bm, bn = k.get("block_m"), k.get("block_n")
        if not (isinstance(bm, int) and isinstance(bn, int) and isinstance(d, int)):
            continue
        stages = f"×{k['num_stages']}" if k.get("num_stages", 1) > 1 else ""
        if name == "dkdv":
            tiles = [
                Tile("K, V", bn, d, "resident"),
                Tile("Q, dO", bm, d, stages),
                Tile("P, dS", bm, bn),
                Tile("dK, dV acc", bn, d, "fp32"),
            ]
        elif name == "dq":
            tiles = [
                Tile("Q, dO", bm, d, "resident"),
                Tile("K, V", bn, d, stages),
                Tile("P, dS", bm, bn),
                Tile("dQ acc", bm, d, "fp32"),
            ]
        else:
            tiles = [Tile("M×N", bm, bn)]
        title = (
            f"{PASS_TITLES.get(name, name)}: BLOCK_M {bm}, BLOCK_N {bn}, {k.get('num_warps', '?')} warps, "
            f"{k.get('num_stages', '?')} stages, {k.get('blocks_per_sm', '?')}/SM"
        )
        groups.append(TileGroup(title, tiles))
    return levels, groups


def plan_facts(plan: dict) -> dict:
    """The plan's headline figures for the table under the picture."""
    facts = {}
    for key in ("flops", "ridge_point", "bound"):
        if key in plan:
            facts[key.replace("_", " ")] = plan[key]
    for key, value in (plan.get("arithmetic_intensity") or {}).items():
        facts[f"FLOPs/byte, {key}"] = value
    for key, value in (plan.get("hbm") or {}).items():
        facts[f"HBM: {key.replace('_', ' ')}"] = value
    for key, value in plan.items():
        if key not in ("target", "problem", "kernels", "hbm", "flops", "ridge_point", "bound", "arithmetic_intensity"):
            facts[key] = value
    return facts


# -- validation and benchmark ---------------------------------------------------------------------------


TENSORS = ("out", "dq", "dk", "dv")


def validation_rows(validation: Any) -> tuple[list[dict], list[str]]:
    """One concise row per checked case, whether from the NumPy path (``rel_err`` per tensor, a
    ``tolerance``) or the Triton path (``<t>_err`` next to PyTorch's own ``<t>_torch_err``): the shape, and
    per tensor our error (PyTorch's in brackets, where measured); and the kinds of error reported."""
    if isinstance(validation, dict):
        validation = [validation]
    rows, kinds = [], []
    for case in validation or []:
        if not isinstance(case, dict):
            continue
        seq = first(case, "seq", "seq_q")
        shape = f"B{case.get('batch', '?')} H{case.get('heads', '?')} N{seq} D{case.get('head_dim', '?')}"
        if case.get("seq_k") not in (None, seq):
            shape += f" Nk{case['seq_k']}"
        if case.get("layout") not in (None, "bhsd"):
            shape += f" {case['layout']}"
        row = {"impl": case.get("impl"), "dtype": case.get("dtype"), "shape": shape, "causal": case.get("causal")}
        errors = case.get("errors") or case.get("rel_err") or {k: case.get(f"{k}_err") for k in TENSORS}
        for tensor in TENSORS:
            ours, theirs = errors.get(tensor), case.get(f"{tensor}_torch_err")
            if ours is None:
                continue
            cell = f"{ours:.1e}" + (f" ({theirs:.1e})" if isinstance(theirs, (int, float)) else "")
            if case.get(f"{tensor}_nonfinite"):
                cell += f", {case[f'{tensor}_nonfinite']} non-finite"
            row[tensor] = cell
        if case.get("tolerance") is not None:
            row["tolerance"] = case["tolerance"]
        row["passed"] = first(case, "passed", "ok")
        rows.append(row)
        kind = case.get("error_kind") or ("relative vs float64" if case.get("rel_err") else None)
        if kind and kind not in kinds:
            kinds.append(kind)
    return rows, kinds


def passed(row: dict) -> bool | None:
    for key in ("ok", "passed", "pass"):
        if isinstance(row.get(key), bool):
            return row[key]
    return None


def benchmark_series(benchmark: Any) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """{panel title (head_dim, causal): {implementation: [(seq, TFLOP/s)]}} from the benchmark's rows (one per
    shape and implementation: ``head_dim``, ``causal``, ``seq``, ``impl``, ``tflops``; None when skipped)."""
    panels: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for row in benchmark_rows(benchmark):
        seq, tflops = row.get("seq"), row.get("tflops")
        if not isinstance(seq, (int, float)) or not isinstance(tflops, (int, float)):
            continue
        panel = f"head_dim {row.get('head_dim', '?')}, {'causal' if row.get('causal') else 'non-causal'}"
        panels.setdefault(panel, {}).setdefault(str(row.get("impl")), []).append((float(seq), float(tflops)))
    return panels


def benchmark_rows(benchmark: Any) -> list[dict]:
    return [row for row in benchmark or [] if isinstance(row, dict)] if isinstance(benchmark, list) else []


def benchmark_pivot(benchmark: Any) -> tuple[list[dict], list[str]]:
    """One row per shape (head_dim, causal, seq) with the TFLOP/s of every implementation side by side and
    ours over the best other one; and the notes (skipped points, with why)."""
    rows = benchmark_rows(benchmark)
    table: dict[tuple, dict] = {}
    notes = []
    for row in rows:
        key = (row.get("head_dim"), bool(row.get("causal")), row.get("seq"))
        entry = table.setdefault(
            key,
            {"head_dim": key[0], "causal": key[1], "seq": key[2], "batch": row.get("batch"), "heads": row.get("heads")},
        )
        entry[str(row.get("impl"))] = row.get("tflops")
        if row.get("note"):
            notes.append(
                f"{row.get('impl')} at head_dim {key[0]}, {'causal' if key[1] else 'non-causal'}, "
                f"seq {key[2]}: {row['note']}"
            )
    for entry in table.values():
        ours = entry.get("ours")
        others = [
            v
            for k, v in entry.items()
            if k not in ("ours", "head_dim", "causal", "seq", "batch", "heads")
            and isinstance(v, (int, float))
            and not isinstance(v, bool)
        ]
        if isinstance(ours, (int, float)) and others:
            entry["ours / best other"] = round(ours / max(others), 2)
    ordered = sorted(
        table.values(),
        key=lambda e: (e["head_dim"] if isinstance(e["head_dim"], int) else 0, e["causal"], e["seq"] or 0),
    )
    return ordered, notes
