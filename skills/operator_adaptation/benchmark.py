"""Backward-pass speed of our fused attention next to the kernels users would otherwise run.

    from skills.operator_adaptation.benchmark import run_benchmark, format_table
    rows = run_benchmark()          # the standard grid, every implementation, on the current CUDA device
    print(format_table(rows))

The standard grid (FlashAttention's benchmark shape): bf16; head_dim 64 and 128; seq 1k..16k;
batch = 16k / seq and heads = 2048 / head_dim, so every point holds the same number of tokens.
Implementations: ours, PyTorch SDPA's FlashAttention-2, cuDNN and memory-efficient backends,
FlexAttention (torch.compile'd; at 2k and 8k only, since every shape compiles anew) and the unfused math
path (skipped where its N x N intermediates would not fit comfortably or would take minutes; the row says so).

FLOPs are counted as FlashAttention counts them: forward 4·B·H·N²·d (half if causal), backward 2.5x the
forward. Time is ``triton.testing.do_bench``'s median of the backward alone (forward graph retained), after
warm-up, which also runs our tile tuning. Peak extra memory is the allocator's peak during one forward +
backward minus what was allocated before it (the inputs and dO).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

HEAD_DIMS = (64, 128)
SEQ_LENS = (1024, 2048, 4096, 8192, 16384)
TOKENS = 16384
HIDDEN = 2048
# The math path materializes several B·H·N² tensors; beyond this many score elements it is skipped.
MATH_MAX_SCORES = 2**31
# FlexAttention compiles anew for every shape (tens of seconds each): measured at two lengths, as in the issue.
FLEX_SEQS = (2048, 8192)


@dataclass(frozen=True)
class Point:
    head_dim: int
    causal: bool
    seq: int
    batch: int
    heads: int


STANDARD_GRID = [
    Point(d, causal, n, TOKENS // n, HIDDEN // d) for d in HEAD_DIMS for causal in (False, True) for n in SEQ_LENS
]
IMPLEMENTATIONS = ("ours", "cudnn", "sdpa_flash", "efficient", "flex", "math")


def backward_flops(p: Point) -> float:
    forward = 4.0 * p.batch * p.heads * p.seq * p.seq * p.head_dim
    if p.causal:
        forward /= 2
    return 2.5 * forward


def _sdpa(backend):
    from torch.nn.attention import sdpa_kernel
    from torch.nn.functional import scaled_dot_product_attention

    def run(q, k, v, causal):
        with sdpa_kernel(backend):
            return scaled_dot_product_attention(q, k, v, is_causal=causal)

    return run


_FLEX = {}


def _flex(q, k, v, causal):
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    if "fn" not in _FLEX:
        import torch._functorch.config as functorch_config

        # compiled backwards otherwise donate their saved buffers and refuse retain_graph, which the timing
        # loop needs (seen on torch 2.11: "compiled with non-empty donated buffers")
        functorch_config.donated_buffer = False
        _FLEX["fn"] = torch.compile(flex_attention)
    mask = None
    if causal:
        key = (q.shape[2], q.device)
        if key not in _FLEX:
            _FLEX[key] = create_block_mask(
                lambda b, h, qi, ki: qi >= ki, None, None, q.shape[2], q.shape[2], device=q.device
            )
        mask = _FLEX[key]
    return _FLEX["fn"](q, k, v, block_mask=mask)


def _ours(q, k, v, causal):
    from .fused_attention import attention

    return attention(q, k, v, is_causal=causal)


def _runner(impl: str):
    from torch.nn.attention import SDPBackend

    return {
        "ours": _ours,
        "cudnn": _sdpa(SDPBackend.CUDNN_ATTENTION),
        "sdpa_flash": _sdpa(SDPBackend.FLASH_ATTENTION),
        "efficient": _sdpa(SDPBackend.EFFICIENT_ATTENTION),
        "flex": _flex,
        "math": _sdpa(SDPBackend.MATH),
    }[impl]


def _skip_reason(impl: str, p: Point) -> str | None:
    if impl == "flex" and p.seq not in FLEX_SEQS:
        return f"skipped: FlexAttention is compiled per shape; measured at seq {' and '.join(map(str, FLEX_SEQS))} only"
    if impl == "math":
        scores = p.batch * p.heads * p.seq * p.seq
        if scores > MATH_MAX_SCORES:
            gib = scores * 2 / 2**30
            return f"skipped: unfused math would materialize several {gib:.0f} GiB N x N tensors"
    return None


def measure(impl: str, p: Point, dtype=torch.bfloat16, device="cuda", warmup_ms: int = 25, rep_ms: int = 100) -> dict:
    """One row: backward median ms and TFLOP/s of ``impl`` at ``p``, and its peak extra memory."""
    import triton

    row = {
        "head_dim": p.head_dim,
        "causal": p.causal,
        "seq": p.seq,
        "batch": p.batch,
        "heads": p.heads,
        "impl": impl,
        "ms": None,
        "tflops": None,
        "peak_extra_gib": None,
        "note": "",
    }
    reason = _skip_reason(impl, p)
    if reason:
        row["note"] = reason
        return row
    run = _runner(impl)
    gen = torch.Generator(device=device).manual_seed(p.seq * 1000 + p.head_dim)
    shape = (p.batch, p.heads, p.seq, p.head_dim)
    q, k, v = (torch.randn(shape, device=device, generator=gen, dtype=dtype).requires_grad_() for _ in range(3))
    do = torch.randn(shape, device=device, generator=gen, dtype=dtype)
    try:
        out = run(q, k, v, p.causal)  # compiles / tunes; the graph kept for the timed backwards
        out.backward(do, retain_graph=True)
        torch.cuda.synchronize()
        ms = triton.testing.do_bench(
            lambda: out.backward(do, retain_graph=True),
            warmup=warmup_ms,
            rep=rep_ms,
            grad_to_none=[q, k, v],
            return_mode="median",
        )
        del out
        q.grad = k.grad = v.grad = None
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        before = torch.cuda.memory_allocated()
        out = run(q, k, v, p.causal)
        out.backward(do)
        torch.cuda.synchronize()
        row["peak_extra_gib"] = round((torch.cuda.max_memory_allocated() - before) / 2**30, 3)
    except Exception as error:  # a backend that refuses the shape, OOM, a compile failure: noted, not fatal
        row["note"] = f"failed: {str(error).splitlines()[0][:120]}"
        return row
    finally:
        del q, k, v, do
        torch.cuda.empty_cache()
    row["ms"] = round(ms, 4)
    row["tflops"] = round(backward_flops(p) / (ms * 1e-3) / 1e12, 1)
    return row


def _print_progress(row: dict) -> None:
    import sys

    speed = f"{row['tflops']:.1f} TFLOP/s" if row["tflops"] else row["note"]
    print(
        f"benchmark: d{row['head_dim']} {'causal' if row['causal'] else 'full'} seq {row['seq']} "
        f"{row['impl']}: {speed}",
        file=sys.stderr,
        flush=True,
    )


def run_benchmark(
    grid=STANDARD_GRID, impls=IMPLEMENTATIONS, dtype=torch.bfloat16, device="cuda", progress=_print_progress
) -> list[dict]:
    """Every (point, implementation) of ``grid``; ``progress(row)`` after each one (default: a line on stderr,
    since the whole grid takes minutes)."""
    rows = []
    for p in grid:
        for impl in impls:
            row = measure(impl, p, dtype, device)
            rows.append(row)
            if progress:
                progress(row)
    return rows


def summary(rows: list[dict], baseline: str = "cudnn") -> dict:
    """Geometric mean of ours / baseline over the points where both ran, and the points where ours loses."""
    by_point: dict[tuple, dict[str, float]] = {}
    for row in rows:
        if row["tflops"]:
            by_point.setdefault((row["head_dim"], row["causal"], row["seq"]), {})[row["impl"]] = row["tflops"]
    ratios = [t["ours"] / t[baseline] for t in by_point.values() if "ours" in t and baseline in t]
    behind = sorted(
        f"d{d} {'causal' if c else 'full'} {n}: {other} {t[other]:.0f} > ours {t['ours']:.0f}"
        for (d, c, n), t in by_point.items()
        if "ours" in t
        for other in t
        if other != "ours" and t[other] > t["ours"]
    )
    geomean = math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None
    return {"baseline": baseline, "geomean_vs_baseline": geomean, "points": len(ratios), "ours_behind": behind}


def format_table(rows: list[dict]) -> str:
    """Backward TFLOP/s, one line per grid point, one column per implementation; memory in GiB below."""
    impls = [i for i in IMPLEMENTATIONS if any(r["impl"] == i for r in rows)]
    points = sorted({(r["head_dim"], r["causal"], r["seq"], r["batch"], r["heads"]) for r in rows})
    cell = {(r["head_dim"], r["causal"], r["seq"], r["impl"]): r for r in rows}
    head = f"{'d':>4} {'causal':>6} {'seq':>6} {'B':>3} {'H':>3} | " + " ".join(f"{i:>10}" for i in impls)
    lines = ["backward TFLOP/s (bf16; FLOPs = 2.5 x 4·B·H·N²·d, halved if causal)", head, "-" * len(head)]
    mem_lines = ["peak extra memory, GiB", head, "-" * len(head)]
    for d, c, n, b, h in points:
        label = f"{d:>4} {'yes' if c else 'no':>6} {n:>6} {b:>3} {h:>3} | "
        speed, mem = [], []
        for i in impls:
            r = cell.get((d, c, n, i))
            speed.append(f"{r['tflops']:>10.1f}" if r and r["tflops"] else f"{'-':>10}")
            mem.append(f"{r['peak_extra_gib']:>10.2f}" if r and r["peak_extra_gib"] is not None else f"{'-':>10}")
        lines.append(label + " ".join(speed))
        mem_lines.append(label + " ".join(mem))
    notes = sorted({f"{r['impl']}: {r['note']}" for r in rows if r["note"]})
    s = summary(rows)
    tail = []
    if s["geomean_vs_baseline"]:
        tail.append(f"geomean ours / cuDNN over {s['points']} points: {s['geomean_vs_baseline']:.3f}x")
    tail += [f"behind: {b}" for b in s["ours_behind"]]
    return "\n".join(lines + [""] + mem_lines + [""] + notes + tail)
