"""The whole attention backward in CuTe DSL (issue 13): compiled without a GPU, checked and timed on one beside the
Gluon backward and cuDNN.

    # here, no GPU: compile every variant for sm_90a and report registers, spills, wgmma/TMA/barrier counts
    python benchmarks/cute_backward.py --compile-only
    # on the H200: correctness against float64, then the standard grid
    PYTHONUNBUFFERED=1 python benchmarks/cute_backward.py --check --bench [--grid full|quick] [--out DIR]
    # host time per call on a tiny problem: TVM-FFI vs the DLPack call path vs Gluon, and the pieces
    PYTHONUNBUFFERED=1 python benchmarks/cute_backward.py --overhead
    # one launch of each variant and of Gluon for ncu (d64, non-causal, seq 8192; the --bench inputs)
    ncu --clock-control none --profile-from-start off -k 'regex:kernel_cutlass|_attn_bwd_hopper' --section ... \
        python benchmarks/cute_backward.py --once 64,0,8192 --variants base,dense

Needs the ``nvidia-cutlass-dsl`` wheels (extra ``cute``); the GPU modes also torch and triton, and
``skills/operator_adaptation/_hopper_attention.py`` (the pre- and post-pass the CuTe backward reuses, and the Gluon
column), loaded by path with the helpers of ``benchmarks/hopper_attention.py``: shijie's package is not imported.

Correctness (``--check``): fresh random inputs per case (bf16 and fp16, d64/d128, causal top-left or not, lengths
that are multiples of 128: the kernel's contract); O and the base-2 LSE from a float64 forward; dq, dk, dv
poisoned with NaN before the call. Error = ||g - g64|| / ||g64|| per gradient next to PyTorch's own same-dtype
backward (SDPA math) on the same inputs; a case passes when ours is finite and at most 2x PyTorch's.

Speed (``--bench``): the standard grid (head_dim 64/128 x seq 1k-16k x causal or not, batch = 16k/seq, heads =
2048/head_dim, bf16), O and LSE from SDPA's flash forward. FLOPs as FlashAttention counts them (2.5 x 4·B·H·N²·d,
halved when causal); ``do_bench`` medians (warmup 10 ms, rep 60 ms, as ``benchmarks/hopper_attention.py``).
``cute`` = ``_cute_attention.backward`` (the Gluon pre-pass, the CuTe kernel, the post-pass: ``_cute_post`` for the
default register-order accumulator; ``VARIANTS`` names the other options), ``gluon`` =
``hopper_backward`` with main's default config (its pre-pass, kernel and post-pass), both called directly;
``cudnn`` = the autograd backward of SDPA's cuDNN backend with the graph retained (as
``skills/operator_adaptation/benchmark.py`` times it). ``max|cute-gluon|``: the largest relative difference of
dq, dk, dv between the two on the timed inputs.
"""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOG2E = 1.4426950408889634
SWZ = {"dq_regs": False}  # KCUTE3's dQ flush: the math warps stage a 128-byte-swizzled tile and issue its reduce-add
VARIANTS = {  # name -> _cute_attention.backward keyword arguments (the first one named is the table's `cute`)
    "base": {},  # the default: register-order dQ staging, two buffers, a dQ-writer warp's bulk reduce (KCUTE4)
    "regs1": {"dq_bufs": 1},  # the same with one staging buffer
    "dlpack": {"ffi": False},  # the default kernel called through the DSL's DLPack path, not TVM-FFI
    "swz": SWZ,
    "dense": {**SWZ, "dq_swizzle": False},  # the staging tile with dense rows (KCUTE2's base)
    "wr": {**SWZ, "dq_writer": True, "dq_bufs": 1},  # the swizzled tile handed to the dQ-writer warp, 1 buffer
    "wr2": {**SWZ, "dq_writer": True},  # the same, two buffers
    "dkf": {**SWZ, "dk_first": True},  # dK issued before the dS^T exchange's barrier
    "defer": {**SWZ, "defer_dq": True},  # each dQ flushed behind the next step's S^T, dP^T
    "dkf_defer": {**SWZ, "dk_first": True, "defer_dq": True},
}


def _modules():
    """(the CuTe module, benchmarks/hopper_attention as hb); the Gluon module is registered under its own name so
    that the CuTe module's pre/post-pass import finds the one hb loaded (one Triton JIT cache, not two)."""
    sys.path.insert(0, str(HERE))
    import hopper_attention as hb

    sys.modules.setdefault("_hopper_attention", hb.ha)
    sys.path.insert(0, str(HERE.parent / "skills" / "operator_adaptation"))
    import _cute_attention

    return _cute_attention, hb


def check(ca, hb, log, variants=("base",)) -> bool:
    import torch
    from cute_dkdv import CHECK_CASES, check_inputs, check_line

    ok_all = True
    cases = [*CHECK_CASES, (1, 2, 128, 64, True, "bfloat16")]  # one key tile: the shortest causal loop
    for case, q, k, v, do, scale, o64, lse2, ref, errt in check_inputs(hb, cases, 4321):
        for name in variants:
            grads = [torch.full_like(t, float("nan")) for t in (q, k, v)]
            try:
                ca.backward(q, k, v, o64.to(q.dtype), lse2.contiguous(), do, *grads, causal=case[4], scale=scale,
                            **VARIANTS[name])  # fmt: skip
                torch.cuda.synchronize()
            except Exception as error:  # a compile or launch failure fails this case, not the run
                print(f"check raised {type(error).__name__}: {str(error)[:300]}", flush=True)
            errs = {i: hb.rel(g, r) for i, (g, r) in enumerate(zip(grads, ref, strict=True))}
            finite = all(torch.isfinite(g).all().item() for g in grads)
            ok = finite and all(errs[i] <= 2 * errt[i] + 1e-6 for i in range(3))
            ok_all &= ok
            line = check_line(f"{name} ", case, errs, errt, ok)
            print(line, flush=True)
            log.write(line + "\n")
    return ok_all


def _point(ca, hb, d: int, causal: bool, n: int, variants=("base",)) -> dict:
    import torch
    from cute_dkdv import bench_inputs
    from triton.testing import do_bench

    b, h, scale, q, k, v, do, o, lse2 = bench_inputs(d, causal, n)
    flops = 2.5 * 4.0 * b * h * n * n * d / (2 if causal else 1)
    row = {"d": d, "causal": causal, "seq": n, "batch": b, "heads": h}
    mine = [torch.empty_like(t) for t in (q, k, v)]
    theirs = [torch.empty_like(t) for t in (q, k, v)]
    for name in variants:
        try:

            def run_cute(kw=VARIANTS[name]):
                ca.backward(q, k, v, o, lse2, do, *mine, causal=causal, scale=scale, **kw)

            run_cute()
            torch.cuda.synchronize()
            tf = round(flops / do_bench(run_cute, warmup=10, rep=60, return_mode="median") / 1e9, 1)
            row[name] = tf
            if name == variants[0]:
                row["cute"] = tf
        except Exception as error:
            print(
                f"cute {name} d{d} causal={causal} n{n} raised {type(error).__name__}: {str(error)[:300]}", flush=True
            )
    try:

        def run_gluon():
            hb.ha.hopper_backward(q, k, v, o, lse2, do, causal, scale, *theirs)

        run_gluon()
        torch.cuda.synchronize()
        row["gluon"] = round(flops / do_bench(run_gluon, warmup=10, rep=60, return_mode="median") / 1e9, 1)
        if "cute" in row:
            row["max_rel_diff"] = float(f"{max(hb.rel(a, c.double()) for a, c in zip(mine, theirs, strict=True)):.2e}")
    except Exception as error:
        print(f"gluon d{d} causal={causal} n{n} raised {type(error).__name__}: {str(error)[:300]}", flush=True)
    try:
        row["cudnn"] = hb._cudnn_tflops(q, k, v, do, causal, flops, 10, 60)
    except Exception as error:
        print(f"cudnn d{d} causal={causal} n{n} raised {type(error).__name__}: {str(error)[:300]}", flush=True)
    return row


def _geomean(rows, a: str, b: str) -> str:
    ratios = [r[a] / r[b] for r in rows if r.get(a) and r.get(b)]
    if not ratios:
        return f"geomean {a} / {b}: no points"
    g = math.exp(sum(map(math.log, ratios)) / len(ratios))
    return f"geomean {a} / {b} = {g:.3f} over {len(ratios)} (min {min(ratios):.3f}, max {max(ratios):.3f})"


def table(rows, variants=("base",)) -> str:
    nan = float("nan")
    lines = [
        f"{'d':>4} {'causal':>6} {'seq':>6} | {'cute':>7} {'gluon':>7} {'cudnn':>7} | "
        f"{'cute/gluon':>10} {'cute/cudnn':>10} {'gluon/cudnn':>11} {'max|cute-gluon|':>16}"
    ]
    for r in rows:
        c, g, n = r.get("cute", nan), r.get("gluon", nan), r.get("cudnn", nan)
        lines.append(
            f"{r['d']:>4} {('yes' if r['causal'] else 'no'):>6} {r['seq']:>6} | {c:>7.1f} {g:>7.1f} {n:>7.1f} | "
            f"{c / g:>10.3f} {c / n:>10.3f} {g / n:>11.3f} {r.get('max_rel_diff', nan):>16.2e}"
        )
    lines += [_geomean(rows, "cute", "gluon"), _geomean(rows, "cute", "cudnn"), _geomean(rows, "gluon", "cudnn")]
    for name in variants[1:]:
        lines.append(f"  variant {name}: " + _geomean(rows, name, "gluon"))
        for d in (64, 128):
            lines.append(f"    d{d}: " + _geomean([r for r in rows if r["d"] == d], name, "gluon"))
    for causal in (False, True):
        sub = [r for r in rows if r["causal"] == causal]
        lines.append(f"  {'causal' if causal else 'full'}: " + _geomean(sub, "cute", "gluon"))
    return "\n".join(lines)


def once(ca, hb, d: int, causal: bool, n: int, variants) -> None:
    """For ``ncu --profile-from-start off``: each named CuTe variant's backward and then Gluon's, compiled and run
    twice first, then once each inside one cudaProfilerStart/Stop range (pre-pass, kernel, post-pass each), on
    the --bench grid's inputs for (d, causal, n)."""
    import torch
    from cute_dkdv import bench_inputs

    b, h, scale, q, k, v, do, o, lse2 = bench_inputs(d, causal, n)
    grads = [torch.empty_like(t) for t in (q, k, v)]
    calls: list[tuple[str, Callable[[], object]]] = [
        (
            name,
            functools.partial(ca.backward, q, k, v, o, lse2, do, *grads, causal=causal, scale=scale, **VARIANTS[name]),
        )
        for name in variants
    ]
    calls.append(("gluon", functools.partial(hb.ha.hopper_backward, q, k, v, o, lse2, do, causal, scale, *grads)))
    for _, fn in calls:
        fn()
        fn()
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    for name, fn in calls:
        torch.cuda.nvtx.range_push(name)
        fn()
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    torch.cuda.profiler.stop()
    print(f"once d{d} causal={causal} n{n} b{b} h{h}: {', '.join(name for name, _ in calls)}", flush=True)


def _overhead_pieces(ca, hb, d: int) -> dict:
    """The calls ``overhead`` times at head_dim d, on one (1, 1, 128, d) problem."""
    import torch

    shape = (1, 1, 128, d)
    q, k, v, do, o = (torch.randn(shape, device="cuda", dtype=torch.bfloat16) for _ in range(5))
    lse2 = torch.randn((1, 1, 128), device="cuda")
    g = [torch.empty_like(t) for t in (q, k, v)]
    acc = torch.zeros(shape, device="cuda")
    pad = torch.empty(128, device="cuda")
    ha = hb.ha
    return {
        "cute ffi": lambda: ca.backward(q, k, v, o, lse2, do, *g, causal=True, scale=0.1, ffi=True),
        "cute dlpack": lambda: ca.backward(q, k, v, o, lse2, do, *g, causal=True, scale=0.1, ffi=False),
        "gluon": lambda: ha.hopper_backward(q, k, v, o, lse2, do, True, 0.1, *g),
        "pre-pass": lambda: ha._bwd_pre[(2, 1)](o, do, lse2, pad, pad, acc, *o.stride()[:3], *do.stride()[:3], 1, 128,
                                                128, HEAD_DIM=d, BLOCK=64, ZERO_DQ=True, num_warps=4),
        "post-pass": lambda: ca._post().post_regs(acc, g[0], 0.1),
        "9 DLPack views": lambda: [ca._view(t) for t in (q, k, v, do, *g, acc)],
        "9 torch views": lambda: ca._views(q, k, v, do, pad, pad, g[1], g[2], acc),
    }  # fmt: skip


def overhead(ca, hb, log, calls: int = 200) -> None:
    """Host time per backward call where the GPU has almost nothing to do (batch 1, one head, seq 128): the CuTe
    backward called through TVM-FFI and through the DSL's DLPack path, the Gluon backward, and the pieces of the
    CuTe call (the two Triton passes, the views); microseconds per call, ``calls`` calls after three warm-ups."""
    import time

    import torch

    for d in (64, 128):
        for name, fn in _overhead_pieces(ca, hb, d).items():
            try:
                for _ in range(3):
                    fn()
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                for _ in range(calls):
                    fn()
                torch.cuda.synchronize()
                line = f"overhead d{d} {name}: {(time.perf_counter() - t0) / calls * 1e6:.1f} us/call"
            except Exception as error:
                line = f"overhead d{d} {name}: raised {type(error).__name__}: {str(error)[:200]}"
            print(line, flush=True)
            log.write(line + "\n")


def main(argv=None) -> int:
    sys.path.insert(0, str(HERE))
    from cute_dkdv import base_parser

    ap = base_parser(__doc__)
    ap.add_argument("--no-cute", action="store_true", help="time Gluon and cuDNN only (the CuTe check failed)")
    ap.add_argument("--variants", default="base", help=f"comma-separated CuTe variants, of {', '.join(VARIANTS)}")
    ap.add_argument("--overhead", action="store_true", help="host time per call on a tiny problem")
    ap.add_argument("--once", metavar="D,CAUSAL,N", help="run each variant and Gluon once for ncu, e.g. 64,0,8192")
    args = ap.parse_args(argv)
    if args.compile_only:
        sys.path.insert(0, str(HERE))
        import cute_dkdv

        variants = [(d, c) for d in (64, 128) for c in (False, True)]
        failed = 0
        for name in args.variants.split(","):
            failed += cute_dkdv.compile_only(variants, 2, with_dq=True, **VARIANTS[name])
        return 1 if failed else 0
    if not (args.check or args.bench or args.once or args.overhead):
        ap.error("nothing to do: give --compile-only, --check, --bench, --overhead and/or --once")
    import torch

    ca, hb = _modules()
    if args.once:
        d, causal, n = (int(x) for x in args.once.split(","))
        once(ca, hb, d, bool(causal), n, tuple(args.variants.split(",")))
        if not (args.check or args.bench):
            return 0
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ok = True
    with open(out / "cute_backward.log", "a") as log:
        if args.check:
            ok = check(ca, hb, log, tuple(args.variants.split(",")))
            print(f"check: {'all PASS' if ok else 'FAILED'}", flush=True)
        if args.overhead:
            overhead(ca, hb, log)
        if args.bench:
            seqs = (1024, 2048, 4096, 8192, 16384) if args.grid == "full" else (2048, 8192)
            rows = []
            for d in (64, 128):
                for causal in (False, True):
                    for n in seqs:
                        row = _point(ca, hb, d, causal, n, () if args.no_cute else tuple(args.variants.split(",")))
                        torch.cuda.empty_cache()
                        rows.append(row)
                        print(json.dumps(row), flush=True)
            (out / "cute_backward.json").write_text(json.dumps(rows, indent=1))
            text = table(rows, tuple(args.variants.split(",")))
            log.write(text + "\n")
            print(text, flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
