"""The CuTe DSL dK/dV prototype (issue 13, the other route): compiled without a GPU, checked and timed on one.

    # here, no GPU: compile every variant for sm_90a and report registers, spills, wgmma count
    python benchmarks/cute_dkdv.py --compile-only
    # on the H200: correctness against float64, then speed beside the Gluon kernel's dK/dV-only work
    PYTHONUNBUFFERED=1 python benchmarks/cute_dkdv.py --check --bench [--grid full|quick] [--out DIR]

Needs the ``nvidia-cutlass-dsl`` wheels (extra ``cute``); the GPU modes also torch and triton, and, for the Gluon
column, ``skills/operator_adaptation/_hopper_attention.py`` (loaded by path with the helpers of
``benchmarks/hopper_attention.py``, so neither shijie's package nor its dependencies are imported).

Correctness (``--check``): fresh random inputs per case (bf16 and fp16, d64/d128, causal or not, lengths that are
multiples of 128: the prototype's contract); O and the base-2 LSE from a float64 forward, delta = rowsum(dO * O)
from it; dk and dv poisoned with NaN before the call. Error = ||g - g64|| / ||g64|| next to PyTorch's own
same-dtype backward (SDPA math) on the same inputs; a case passes when ours is finite and at most 2x PyTorch's.

Speed (``--bench``): d64/d128 x seq 1k/4k/16k x causal or not, batch = 16k/seq, heads = 2048/d, bf16, inputs from
SDPA's flash forward (its LSE, converted to base 2), ``triton.testing.do_bench`` medians. TFLOP/s of the kernel's
own work, the 4 products of dK/dV: 8·B·H·N²·d, halved when causal (the figure our Gluon prototype was given in
docs/perf.md). ``cute`` is the CuTe kernel alone (LSE and delta computed before, outside the timing); ``gluon`` is
``hopper_backward(fuse_dq=False)`` (its pre-pass, which pads LSE and computes delta, and its kernel); ``gluon-k``
subtracts the pre-pass timed alone, i.e. the Gluon kernel like for like. ``max|cute-gluon|`` is the largest
relative difference of dk and dv between the two on the timed inputs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
LOG2E = 1.4426950408889634


def _kernel_module():
    sys.path.insert(0, str(ROOT / "skills" / "operator_adaptation"))
    import _cute_attention  # by path: the shijie package is not imported

    return _cute_attention


def _cuobjdump() -> str | None:
    """A cuobjdump: $CUOBJDUMP, the toolkit's, or the one Triton's wheel carries."""
    import shutil

    found = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump")
    if found:
        return found
    try:
        import triton

        cand = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
        return str(cand) if cand.exists() else None
    except ImportError:
        return None


def compile_only(variants, stages: int = 2, with_dq: bool = False, **options) -> int:
    """Compile each (head_dim, causal) for sm_90a with fake tensors (no GPU, no driver call) and report what
    ptxas made of it (``with_dq``: the whole-backward kernel, dQ reduce-added too). Returns the number of
    variants that failed to compile."""
    os.environ.setdefault("CUTE_DSL_ARCH", "sm_90a")
    import cuda.bindings.driver as cuda
    import cutlass
    import cutlass.cute as cute
    from cutlass import Float32, Int32
    from cutlass.cute.runtime import make_fake_tensor

    ca = _kernel_module()
    tool = _cuobjdump()
    failed = 0
    n, bh = 1024, 16
    for d, causal in variants:
        tag = f"{'bwd' if with_dq else 'dkdv'} d{d} causal={causal} stages={stages} {options or ''}"
        dump = Path(tempfile.mkdtemp(prefix=f"cute_{'bwd' if with_dq else 'dkdv'}_d{d}_{'c' if causal else 'f'}_"))
        qv = [make_fake_tensor(cutlass.BFloat16, (n, d, bh), (d, 1, n * d), assumed_align=16) for _ in range(4)]
        vec = [make_fake_tensor(Float32, (n, bh), (1, n), assumed_align=16) for _ in range(2)]
        out = [make_fake_tensor(cutlass.BFloat16, (n, d, bh), (d, 1, n * d), assumed_align=16) for _ in range(2)]
        out.append(
            make_fake_tensor(Float32 if with_dq else cutlass.BFloat16, (n, d, bh), (d, 1, n * d), assumed_align=16)
        )
        t0 = time.time()
        try:
            cute.compile(
                ca.DkDvSm90(d, causal, stages=stages, with_dq=with_dq, **options),
                *qv,
                *vec,
                *out,
                Float32(0.1),
                Float32(0.1),
                Int32(8),
                cuda.CUstream(0),
                options=f"--gpu-arch=sm_90a --keep-ptx --keep-cubin --dump-dir={dump}",
            )
        except Exception as error:  # report and go on: one variant's failure is a result
            failed += 1
            print(f"{tag}: compile FAILED: {type(error).__name__}: {str(error)[:2000]}")
            continue
        secs = time.time() - t0
        ptx = next(dump.glob("*.ptx"), None)
        cubin = next(dump.glob("*.cubin"), None)
        text = ptx.read_text() if ptx else ""
        usage = "-"
        if tool and cubin:
            res = subprocess.run([tool, "--dump-resource-usage", str(cubin)], capture_output=True, text=True)
            usage = " ".join(w for w in res.stdout.split() if w.split(":")[0] in ("REG", "STACK", "LOCAL", "SHARED"))
        print(
            f"{tag}: compiled for sm_90a in {secs:.1f}s; {usage}; "
            f"wgmma {text.count('wgmma.mma_async')}, TMA {text.count('cp.async.bulk.tensor')}, "
            f"setmaxnreg {text.count('setmaxnreg')}, bar.sync {text.count('bar.sync')}, "
            f"reduce {text.count('cp.reduce.async.bulk.tensor')}"
        )
    return failed


def _views(ca, q, k, v, do, lse2, delta, dk, dv):
    return ca.dkdv_args(q, k, v, do, lse2, delta, dk, dv)


# the check cases of both CuTe benchmarks: (batch, heads, seq, head_dim, causal, dtype name); multiples of 128
CHECK_CASES = [
    (2, 3, 1024, 128, False, "bfloat16"),
    (2, 3, 1024, 128, True, "bfloat16"),
    (1, 2, 2048, 64, True, "bfloat16"),
    (2, 2, 384, 64, False, "bfloat16"),
    (1, 4, 256, 128, True, "bfloat16"),
    (2, 2, 512, 64, True, "bfloat16"),
    (1, 2, 1024, 128, True, "float16"),
    (1, 2, 640, 64, False, "float16"),
]


def check_inputs(hb, cases, seed: int):
    """Per case, fresh random inputs and what they are judged by: yields (case, q, k, v, do, scale, o64, lse2,
    ref, errt), ref the float64 gradients and errt PyTorch's same-dtype errors against them (hb.rel)."""
    import torch

    gen = torch.Generator(device="cuda").manual_seed(seed)
    for b, h, n, d, causal, dtype_name in cases:
        dtype = getattr(torch, dtype_name)
        q, k, v, do = (torch.randn((b, h, n, d), device="cuda", dtype=dtype, generator=gen) for _ in range(4))
        scale = 1.0 / math.sqrt(d)
        o64, lse2, ref = hb.reference(q, k, v, do, causal, scale)
        theirs = hb.torch_same_dtype(q, k, v, do, causal, scale)
        errt = [hb.rel(g, r) for g, r in zip(theirs, ref, strict=True)]
        yield (b, h, n, d, causal, dtype_name), q, k, v, do, scale, o64, lse2, ref, errt


def check_line(tag: str, case, errs: dict, errt, ok: bool) -> str:
    """One check's report line: the errors of the gradients in ``errs`` (index 0-2 -> dq, dk, dv) / PyTorch's."""
    b, h, n, d, causal, dtype_name = case
    return (
        f"check {tag}{dtype_name} b{b} h{h} n{n} d{d} {'causal' if causal else 'full'}: "
        + " ".join(f"d{'qkv'[i]} {e:.2e}/{errt[i]:.2e}" for i, e in errs.items())
        + f" {'PASS' if ok else 'FAIL'}"
    )


def bench_inputs(d: int, causal: bool, n: int):
    """The timed inputs of a standard-grid point, seeded by (n, d): (batch, heads, scale, q, k, v, do, o, lse2),
    O and the base-2 LSE from SDPA's flash forward."""
    import torch

    b, h = 16384 // n, 2048 // d
    scale = 1.0 / math.sqrt(d)
    gen = torch.Generator(device="cuda").manual_seed(n + d)
    q, k, v, do = (torch.randn((b, h, n, d), device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(4))
    o, lse = torch.ops.aten._scaled_dot_product_flash_attention(q, k, v, 0.0, causal, False, scale=scale)[:2]
    return b, h, scale, q, k, v, do, o, (lse.float() * LOG2E).contiguous()


def check(ca, hb, log) -> bool:
    import torch

    ok_all = True
    for case, q, k, v, do, scale, o64, lse2, ref, errt in check_inputs(hb, CHECK_CASES, 1234):
        causal = case[4]
        delta = (do.double() * o64).sum(-1).float().contiguous()
        dk = torch.full_like(k, float("nan"))
        dv = torch.full_like(v, float("nan"))
        try:
            ca.dkdv(q, k, v, do, lse2.contiguous(), delta, dk, dv, causal=causal, scale=scale)
            torch.cuda.synchronize()
        except Exception as error:  # a compile or launch failure fails this case, not the run
            print(f"check raised {type(error).__name__}: {str(error)[:300]}", flush=True)
        errs = {i: hb.rel(g, ref[i]) for i, g in ((1, dk), (2, dv))}
        finite = all(torch.isfinite(g).all().item() for g in (dk, dv))
        ok = finite and all(errs[i] <= 2 * errt[i] + 1e-6 for i in (1, 2))
        ok_all &= ok
        line = check_line("", case, errs, errt, ok)
        print(line, flush=True)
        log.write(line + "\n")
    return ok_all


def _point(ca, hb, d: int, causal: bool, n: int, stages: int = 2, gluon: bool = True, profile: bool = False) -> dict:
    """One grid point: the CuTe kernel, then the Gluon dK/dV-only backward and its pre-pass, on the same inputs.
    ``profile``: each kernel launched once and nothing timed (for ncu, which replays the launches it profiles)."""
    import cuda.bindings.driver as cuda
    import torch
    from cutlass import Float32, Int32
    from triton.testing import do_bench

    ha = hb.ha
    b, h, scale, q, k, v, do, o, lse2 = bench_inputs(d, causal, n)
    delta = (do.float() * o.float()).sum(-1).contiguous()
    flops = 8.0 * b * h * n * n * d * (0.5 if causal else 1.0)
    dk, dv = torch.empty_like(k), torch.empty_like(v)
    t0 = time.time()
    ca.dkdv(q, k, v, do, lse2, delta, dk, dv, causal=causal, scale=scale, stages=stages)  # compiles once, cached
    torch.cuda.synchronize()
    row = {"d": d, "causal": causal, "seq": n, "batch": b, "heads": h, "compile_s": round(time.time() - t0, 1)}
    if profile:
        ha = hb.ha
        gdq, gdk, gdv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        ha.hopper_backward(q, k, v, o, lse2.view(b, h, n), do, causal, scale, gdq, gdk, gdv, fuse_dq=False)
        torch.cuda.synchronize()
        return row
    fn = ca._COMPILED[(q.dtype, d, causal, 64, stages, b, h, n)]
    args = _views(ca, q, k, v, do, lse2, delta, dk, dv)  # built once: the timed call is the compiled launch alone
    stream = cuda.CUstream(torch.cuda.current_stream().cuda_stream)
    sl2, sc, chunk = Float32(scale * LOG2E), Float32(scale), Int32(ca._chunk(q, n // ca.DkDvSm90.tile_n))
    ms = do_bench(lambda: fn(*args, sl2, sc, chunk, stream), warmup=50, rep=300, return_mode="median")
    row["cute_tflops"] = round(flops / ms / 1e9, 1)
    if not gluon:
        return row
    try:
        gdq, gdk, gdv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
        lse3 = lse2.view(b, h, n)

        def gluon():
            ha.hopper_backward(q, k, v, o, lse3, do, causal, scale, gdq, gdk, gdv, fuse_dq=False)

        gluon()
        torch.cuda.synchronize()
        ms_g = do_bench(gluon, warmup=50, rep=300, return_mode="median")
        bm = ha.default_config(d)["block_rows"] or ha.block_m(d)
        n_pad = -(-n // bm) * bm
        lse_pad = torch.empty((b * h * n_pad,), device="cuda", dtype=torch.float32)
        delta_pad = torch.empty_like(lse_pad)

        def pre():  # hopper_backward's pre-pass alone, launched as it launches it (fuse_dq=False)
            ha._bwd_pre[(n_pad // bm, b * h)](
                o,
                do,
                lse3,
                lse_pad,
                delta_pad,
                delta_pad,
                o.stride(0),
                o.stride(1),
                o.stride(2),
                do.stride(0),
                do.stride(1),
                do.stride(2),
                h,
                n,
                n_pad,
                HEAD_DIM=d,
                BLOCK=bm,
                ZERO_DQ=False,
                num_warps=4,
            )

        ms_pre = do_bench(pre, warmup=50, rep=300, return_mode="median")
        diff = max(hb.rel(dk, gdk.double()), hb.rel(dv, gdv.double()))
        row.update(
            gluon_tflops=round(flops / ms_g / 1e9, 1),
            gluon_kernel_tflops=round(flops / (ms_g - ms_pre) / 1e9, 1),
            max_rel_diff=float(f"{diff:.2e}"),
        )
    except Exception as error:  # the Gluon column is a comparison, not the subject
        print(f"gluon d{d} causal={causal} n{n} raised {type(error).__name__}: {str(error)[:200]}", flush=True)
    return row


def bench(ca, hb, kind, log, stages: int = 2, gluon: bool = True) -> list[dict]:
    import torch

    seqs = (1024, 4096, 16384) if kind == "full" else (4096,)
    rows = []
    header = (
        f"{'d':>4} {'causal':>6} {'seq':>6} | {'cute':>8} {'gluon':>8} {'gluon-k':>8} | "
        f"{'cute/gluon-k':>12} {'max|cute-gluon|':>16}"
    )
    print(header, flush=True)
    log.write(header + "\n")
    for d in (64, 128):
        for causal in (False, True):
            for n in seqs:
                row = _point(ca, hb, d, causal, n, stages, gluon)
                torch.cuda.empty_cache()
                rows.append(row)
                nan = float("nan")
                gk = row.get("gluon_kernel_tflops", nan)
                line = (
                    f"{d:>4} {('yes' if causal else 'no'):>6} {n:>6} | {row['cute_tflops']:>8.1f} "
                    f"{row.get('gluon_tflops', nan):>8.1f} {gk:>8.1f} | {row['cute_tflops'] / gk:>12.3f} "
                    f"{row.get('max_rel_diff', nan):>16.2e}"
                )
                print(line, flush=True)
                log.write(line + "\n")
    ratios = [r["cute_tflops"] / r["gluon_kernel_tflops"] for r in rows if "gluon_kernel_tflops" in r]
    if ratios:
        line = f"geomean cute / gluon-k = {math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f} over {len(ratios)}"
        print(line, flush=True)
        log.write(line + "\n")
    return rows


def base_parser(doc: str) -> argparse.ArgumentParser:
    """The options both CuTe benchmarks take: --compile-only, --check, --bench, --grid, --out."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--compile-only", action="store_true", help="compile for sm_90a here, no GPU needed")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--grid", choices=("full", "quick"), default="full")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    return ap


def main(argv=None) -> int:
    ap = base_parser(__doc__)
    ap.add_argument("--stages", type=int, default=2, help="Q/dO shared-memory stages of the CuTe kernel")
    ap.add_argument("--no-gluon", action="store_true", help="time the CuTe kernel alone")
    ap.add_argument("--profile", action="store_true", help="d128, 16k, non-causal: each kernel once, for ncu")
    args = ap.parse_args(argv)
    variants = [(d, c) for d in (64, 128) for c in (False, True)]
    if args.compile_only:
        return 1 if compile_only(variants, args.stages) else 0
    if not (args.check or args.bench or args.profile):
        ap.error("nothing to do: give --compile-only, --check, --bench and/or --profile")
    sys.path.insert(0, str(HERE))
    import hopper_attention as hb  # float64 reference, PyTorch's same-dtype backward, the Gluon module

    ca = _kernel_module()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ok = True
    with open(out / "cute_dkdv.log", "w") as log:
        if args.check:
            ok = check(ca, hb, log)
            print(f"check: {'all PASS' if ok else 'FAILED'}", flush=True)
        if args.bench:
            rows = bench(ca, hb, args.grid, log, args.stages, not args.no_gluon)
            (out / "cute_dkdv.json").write_text(json.dumps(rows, indent=1))
        if args.profile:
            _point(ca, hb, 128, False, 16384, args.stages, profile=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
