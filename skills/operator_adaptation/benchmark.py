"""Backward-pass speed of our fused attention next to the kernels users would otherwise run.

    from skills.operator_adaptation.benchmark import run_benchmark, format_table
    rows = run_benchmark()          # the standard grid, every implementation, on the current CUDA device
    print(format_table(rows))

    python -m skills.operator_adaptation.benchmark [--impls ours,cudnn] [--seqs 2048,8192] [--json rows.json]

(the command line needs only torch and triton, not shijie's other dependencies: the device machines' case).

The standard grid (FlashAttention's benchmark shape): bf16; head_dim 64 and 128; seq 1k..16k;
batch = 16k / seq and heads = 2048 / head_dim, so every point holds the same number of tokens.

Implementations (``IMPLEMENTATIONS``; ``SHIJIE_BENCH_IMPLS=ours,cudnn,...`` runs a subset):

* ``ours``: the public ``attention``, i.e. what a user gets: on sm90 the CuTe DSL backward where the ``cute``
  extra is importable and it takes the problem, else the Gluon one, the portable Triton kernels elsewhere
  (``launch.backward_backend``; the row's ``backend`` says which ran, and the table a line under it);
* ``ours_hopper``: our forward, then the Gluon Hopper backward called directly (a note where the device is not
  sm90 or the kernel does not take the problem);
* ``ours_cute``: our forward, then the CuTe DSL Hopper backward called directly (a note where the device is
  not sm90, the extra is not importable or the kernel does not take the problem);
* ``ours_portable``: our forward, then the portable Triton backward even on sm90 (the tuned one);
* PyTorch SDPA's cuDNN, FlashAttention-2 and memory-efficient backends and its unfused math path (skipped
  where its N x N intermediates would not fit comfortably or would take minutes; the row says so);
* ``flex``: FlexAttention, at 2k and 8k only (every shape compiles anew, tens of seconds each). Measured as
  a plain harness would: compiled once per shape (a fresh ``torch.compile(..., dynamic=False)`` per shape:
  one compiled function reused across shapes recompiles, turns dynamic after the first recompile and falls
  back to eager past Dynamo's recompile limit, which is how an earlier version of this file under-reported
  it, 233 against 308 TFLOP/s at d128 causal 2k), its block mask built before, both outside the timed
  region (only the backward is timed, as for everyone);
* ``fa4``: FlashAttention-4's CuTe-DSL kernels (``flash_attn.cute``, the ``flash-attn-4`` package) when
  importable: it is not installed on the H200 machines, whose image has no registry access, and its
  wheels (``nvidia-cutlass-dsl`` and three more, one of 92 MB) are not carried; the row then says so.

FLOPs are counted as FlashAttention counts them: forward 4·B·H·N²·d (half if causal), backward 2.5x the
forward. Time is ``triton.testing.do_bench``'s median of the backward alone (forward graph retained), after
warm-up, which also runs our tile tuning. Peak extra memory is the allocator's peak during one forward +
backward minus what was allocated before it (the inputs and dO).
"""

from __future__ import annotations

import functools
import inspect
import math
import os
from collections import Counter
from dataclasses import dataclass
from typing import Any

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
IMPLEMENTATIONS = (
    "ours",
    "ours_hopper",
    "ours_cute",
    "ours_portable",
    "cudnn",
    "fa4",
    "sdpa_flash",
    "flex",
    "efficient",
    "math",
)


def selected_implementations(environ=os.environ) -> tuple[str, ...]:
    """IMPLEMENTATIONS, or the subset ``SHIJIE_BENCH_IMPLS`` names (comma-separated, in the standard order)."""
    chosen = environ.get("SHIJIE_BENCH_IMPLS")
    if not chosen:
        return IMPLEMENTATIONS
    names = {name.strip() for name in chosen.split(",") if name.strip()}
    unknown = sorted(names - set(IMPLEMENTATIONS))
    if unknown:
        raise ValueError(f"SHIJIE_BENCH_IMPLS: unknown {', '.join(unknown)}; known: {', '.join(IMPLEMENTATIONS)}")
    return tuple(name for name in IMPLEMENTATIONS if name in names)


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


def _flex_prepared(q: torch.Tensor, causal: bool):
    """A FlexAttention call for this shape: compiled anew (dynamic=False) and its block mask built now, so
    that ``measure``'s untimed first call does the compiling and the timed backwards run the kernels alone."""
    import torch._functorch.config as functorch_config
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    # compiled backwards otherwise donate their saved buffers and refuse retain_graph, which the timing
    # loop needs (seen on torch 2.11: "compiled with non-empty donated buffers")
    functorch_config.donated_buffer = False
    compiled = torch.compile(flex_attention, dynamic=False)
    n = q.shape[2]
    mask = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None, n, n, device=q.device) if causal else None

    def run(q, k, v, causal):
        return compiled(q, k, v, block_mask=mask)

    return run


def _fa4_module():
    """FlashAttention-4's CuTe-DSL interface, or None when it is not installed."""
    try:
        from flash_attn.cute import flash_attn_func
    except Exception:  # not installed, or its CUDA libraries are missing: the row says so
        return None
    return flash_attn_func


def _fa4(q, k, v, causal):
    """FA4 takes (batch, seq, heads, head_dim): transposed views in, the output transposed back."""
    flash_attn_func = _fa4_module()
    out = flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), causal=causal)
    out = out[0] if isinstance(out, tuple) else out
    return out.transpose(1, 2)


def _ours(q, k, v, causal):
    from .fused_attention import attention

    return attention(q, k, v, is_causal=causal)


class _OursWith(torch.autograd.Function):
    """Our forward, then one chosen backward: the Hopper kernel called directly, or the portable kernels."""

    @staticmethod
    def forward(ctx: Any, q, k, v, causal: bool, which: str):
        from . import launch

        scale = 1.0 / math.sqrt(q.shape[-1])
        o, lse = launch.forward(q, k, v, causal, scale)
        ctx.save_for_backward(q, k, v, o, lse)
        ctx.causal, ctx.scale, ctx.which = causal, scale, which
        return o

    @staticmethod
    def backward(ctx: Any, do):
        from . import launch

        q, k, v, o, lse = ctx.saved_tensors
        if ctx.which == "hopper":
            from ._hopper_attention import hopper_backward

            dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
            hopper_backward(q, k, v, o, lse, do, ctx.causal, ctx.scale, dq, dk, dv)
        elif ctx.which == "cute":
            dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
            launch._cute_module().backward(q, k, v, o, lse, do, dq, dk, dv, causal=ctx.causal, scale=ctx.scale)
        else:  # where launch dispatches to Hopper itself, it takes portable=True to stay off that path
            options: dict[str, Any] = (
                {"portable": True} if "portable" in inspect.signature(launch.backward).parameters else {}
            )
            dq, dk, dv = launch.backward(q, k, v, o, lse, do, ctx.causal, ctx.scale, **options)
        return dq, dk, dv, None, None


def _ours_hopper(q, k, v, causal):
    return _OursWith.apply(q, k, v, causal, "hopper")


def _ours_cute(q, k, v, causal):
    return _OursWith.apply(q, k, v, causal, "cute")


def _ours_portable(q, k, v, causal):
    return _OursWith.apply(q, k, v, causal, "portable")


def _runner(impl: str, p: Point, q: torch.Tensor):
    from torch.nn.attention import SDPBackend

    if impl == "flex":
        return _flex_prepared(q, p.causal)
    return {
        "ours": _ours,
        "ours_hopper": _ours_hopper,
        "ours_cute": _ours_cute,
        "ours_portable": _ours_portable,
        "cudnn": _sdpa(SDPBackend.CUDNN_ATTENTION),
        "fa4": _fa4,
        "sdpa_flash": _sdpa(SDPBackend.FLASH_ATTENTION),
        "efficient": _sdpa(SDPBackend.EFFICIENT_ATTENTION),
        "math": _sdpa(SDPBackend.MATH),
    }[impl]


def _hopper_takes(p: Point, dtype, device) -> str | None:
    """Why the Hopper backward does not take this point (None: it does)."""
    if torch.device(device).type != "cuda" or torch.cuda.get_device_capability(device) != (9, 0):
        return "skipped: the Hopper backward needs an sm90 device"
    from ._hopper_attention import hopper_supported

    x = torch.empty((p.batch, p.heads, 8, p.head_dim), device=device, dtype=dtype)  # shape and strides only
    if not hopper_supported(x, x, x, causal=p.causal, bottom_right=False, window=None, deterministic=False,
                            varlen=False):  # fmt: skip
        return f"skipped: the Hopper backward does not take head_dim {p.head_dim} / {dtype}"
    return None


def _cute_takes(p: Point, dtype, device) -> str | None:
    """Why the CuTe DSL backward does not take this point (None: it does)."""
    reason = _hopper_takes(p, dtype, device)
    if reason:
        return reason.replace("the Hopper backward", "the CuTe backward")
    from . import launch

    cute = launch._cute_module()
    if cute is None:
        return "skipped: the cute extra (nvidia-cutlass-dsl) is not importable"
    x = torch.empty((p.batch, p.heads, p.seq, p.head_dim), device=device, dtype=dtype)
    why = cute.supported(x, x, x, causal=p.causal)
    return f"skipped: the CuTe backward does not take it: {why}" if why else None


def _skip_reason(impl: str, p: Point, dtype=torch.bfloat16, device="cuda") -> str | None:
    if impl == "fa4" and _fa4_module() is None:
        return "skipped: flash_attn.cute (FlashAttention-4, package flash-attn-4) is not installed"
    if impl == "ours_hopper":
        return _hopper_takes(p, dtype, device)
    if impl == "ours_cute":
        return _cute_takes(p, dtype, device)
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
        "backend": None,
    }
    reason = _skip_reason(impl, p, dtype, device)
    if reason:
        row["note"] = reason
        return row
    gen = torch.Generator(device=device).manual_seed(p.seq * 1000 + p.head_dim)
    shape = (p.batch, p.heads, p.seq, p.head_dim)
    q, k, v = (torch.randn(shape, device=device, generator=gen, dtype=dtype).requires_grad_() for _ in range(3))
    do = torch.randn(shape, device=device, generator=gen, dtype=dtype)
    if impl == "ours":  # which backward the dispatch gives this point
        from .launch import backward_backend

        row["backend"] = backward_backend(q, k, v, p.causal)
    try:
        run = _runner(impl, p, q)  # FlexAttention: compiled for this shape, its block mask built
        out = run(q, k, v, p.causal)  # compiles / tunes; the graph kept for the timed backwards
        out.backward(do, retain_graph=True)
        torch.cuda.synchronize()
        ms = triton.testing.do_bench(
            functools.partial(out.backward, do, retain_graph=True),
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
    grid=STANDARD_GRID, impls=None, dtype=torch.bfloat16, device="cuda", progress=_print_progress
) -> list[dict]:
    """Every (point, implementation) of ``grid`` (``impls``: default ``selected_implementations()``);
    ``progress(row)`` after each one (default: a line on stderr, since the whole grid takes minutes)."""
    impls = selected_implementations() if impls is None else impls
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

    def geomean(impl: str) -> tuple[float | None, int]:
        ratios = [t[impl] / t[baseline] for t in by_point.values() if impl in t and baseline in t]
        return (math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None), len(ratios)

    behind = sorted(
        f"d{d} {'causal' if c else 'full'} {n}: {other} {t[other]:.0f} > ours {t['ours']:.0f}"
        for (d, c, n), t in by_point.items()
        if "ours" in t
        for other in t
        if not other.startswith("ours") and t[other] > t["ours"]  # our own paths are not competitors
    )
    ours, points = geomean("ours")
    per_impl = {impl: geomean(impl)[0] for impl in IMPLEMENTATIONS if impl != baseline}
    return {
        "baseline": baseline,
        "geomean_vs_baseline": ours,
        "points": points,
        "ours_behind": behind,
        "geomean_by_impl": {impl: round(g, 3) for impl, g in per_impl.items() if g is not None},
    }


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
    ran = Counter(r.get("backend") for r in rows if r["impl"] == "ours" and r.get("backend"))
    if ran:
        notes.append("ours: the backward ran by " + ", ".join(f"{b} at {n} points" for b, n in sorted(ran.items())))
    s = summary(rows)
    tail = []
    if s["geomean_vs_baseline"]:
        tail.append(f"geomean ours / cuDNN over {s['points']} points: {s['geomean_vs_baseline']:.3f}x")
    others = ", ".join(f"{impl} {g:.3f}x" for impl, g in s["geomean_by_impl"].items() if impl != "ours")
    if others:
        tail.append(f"geomean / cuDNN where both ran: {others}")
    tail += [f"behind: {b}" for b in s["ours_behind"]]
    return "\n".join([*lines, "", *mem_lines, "", *notes, *tail])


def main(argv: list[str] | None = None) -> int:
    import argparse
    import json

    ap = argparse.ArgumentParser(description="Backward TFLOP/s of ours and the other kernels on the standard grid")
    ap.add_argument("--impls", default=None, help="comma-separated (default: SHIJIE_BENCH_IMPLS, else all)")
    ap.add_argument("--seqs", default=None, help="comma-separated sequence lengths of the grid (default: all)")
    ap.add_argument("--json", default=None, help="also write the rows here")
    args = ap.parse_args(argv)
    impls = selected_implementations({"SHIJIE_BENCH_IMPLS": args.impls} if args.impls else os.environ)
    seqs = {int(n) for n in args.seqs.split(",")} if args.seqs else set(SEQ_LENS)
    rows = run_benchmark([p for p in STANDARD_GRID if p.seq in seqs], impls)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, f)
    print(format_table(rows), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
