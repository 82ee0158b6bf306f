"""Device script for the Hopper (sm90) attention backward: correctness against float64, then speed next to cuDNN.

    PYTHONUNBUFFERED=1 python benchmarks/hopper_attention.py [--check] [--bench] [--variants fused_ws,dkdv_ws]
                                                             [--grid full|quick] [--out DIR]

Imports only torch, triton and the kernel module (so it also runs from a bare copy of the two files, as on the
device machine, where shijie's own dependencies may be missing).

Correctness (``--check``): fresh random inputs per case (odd lengths, unequal query/key lengths, strided views,
causal aligned top-left or bottom-right or not, GQA/MQA with fewer k/v heads, bf16 and fp16); O and the base-2
LSE come from a float64 forward; the outputs are poisoned with NaN before the call. Error = ||g - g64|| / ||g64||
per gradient, next to PyTorch's own same-dtype backward (SDPA math backend, ``enable_gqa``, an explicit mask for
bottom-right) on the same inputs; a case passes when ours is finite and at most 2x PyTorch's error. Query rows
that see no key (bottom-right with n_q > n_k) have dq = 0 in the reference; PyTorch's baseline is taken on the
rows that see keys.

Speed (``--bench``): the issue's standard grid (head_dim 64/128 x seq 1k-16k x causal or not, batch = 16k/seq,
heads = 2048/head_dim, bf16), backward only, ``triton.testing.do_bench`` median. FLOPs as FlashAttention counts
them: 2.5 x 4·B·H·N²·d, halved when causal. cuDNN is timed the way skills/operator_adaptation/benchmark.py times
it (autograd backward of SDPA's cudnn backend with the graph retained). The dK/dV-only variant is also given in
TFLOP/s of its real work (4 of the 5 products: 8·B·H·N²·d, halved when causal), to compare with the portable
dK/dV kernel's figure in docs/perf.md.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import sys
import time

import torch
import triton


def _load_kernel_module():
    """The kernel file itself, by path (a bare copy beside this script, as on the device machine, or the
    repository's), so that neither shijie's package nor its dependencies are imported."""
    import importlib.util
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for path in (
        here / "_hopper_attention.py",
        here.parent / "skills" / "operator_adaptation" / "_hopper_attention.py",
    ):
        if path.exists():
            spec = importlib.util.spec_from_file_location("_hopper_attention", path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    raise ImportError("_hopper_attention.py is neither beside this script nor in skills/operator_adaptation/")


ha = _load_kernel_module()

LOG2E = 1.4426950408889634
VARIANTS = {  # name -> hopper_backward keyword arguments
    "fused_ws": {"fuse_dq": True, "warp_specialize": True},
    "fused_nows": {"fuse_dq": True, "warp_specialize": False},
    "dkdv_ws": {"fuse_dq": False, "warp_specialize": True},
    "dkdv_nows": {"fuse_dq": False, "warp_specialize": False},
    "fused_ws_defer": {"fuse_dq": True, "warp_specialize": True, "defer_dq": True},
    "fused_nows_defer": {"fuse_dq": True, "warp_specialize": False, "defer_dq": True},
    "fused_ws_m64": {"fuse_dq": True, "warp_specialize": True, "block_rows": 64},
    "fused_nows_defer_m64": {"fuse_dq": True, "warp_specialize": False, "defer_dq": True, "block_rows": 64},
    "fused_ws_m64_s3": {"fuse_dq": True, "warp_specialize": True, "block_rows": 64, "stages": 3},
    "fused_nows_defer_m64_s3": {
        "fuse_dq": True,
        "warp_specialize": False,
        "defer_dq": True,
        "block_rows": 64,
        "stages": 3,
    },
    "s3_dq1": {"stages": 3, "dq_buffers": 1},  # three Q/dO stages; room made at d128 by one dQ staging buffer
    "auto": {},  # default_config(head_dim): what the integration gets
    "er": {"early_release": True},  # the query-tile stage released under the dQ barrier: 3 CTA barriers a step, not 4
    "er0": {"early_release": False},
    "hf": {"heavy_first": True},  # causal: longest programs first, in chunks of heads (one wave of programs each)
    "hf0": {"heavy_first": False},  # head by head, as before
}
ONLY_D64 = {"fused_ws_m64", "fused_nows_defer_m64", "fused_ws_m64_s3", "fused_nows_defer_m64_s3"}  # d128 has them


def _visible(n_q, n_k, causal, bottom_right, device):
    """Boolean (n_q, n_k): query i sees key j (causal: j <= i, or j <= i + n_k - n_q bottom-right)."""
    if not causal:
        return torch.ones(n_q, n_k, dtype=torch.bool, device=device)
    return torch.ones(n_q, n_k, dtype=torch.bool, device=device).tril(n_k - n_q if bottom_right else 0)


def reference(q, k, v, do, causal, scale, bottom_right=False):
    """float64 O, base-2 LSE and gradients; k, v may have fewer heads (GQA: repeated, their gradients summed back
    by autograd); rows that see no key get O = 0, LSE = -inf and no gradient."""
    group = q.shape[1] // k.shape[1]
    q64, k64, v64 = (t.detach().double().requires_grad_() for t in (q, k, v))
    kk, vv = (t.repeat_interleave(group, dim=1) for t in (k64, v64))
    s = (q64 @ kk.transpose(-1, -2)) * scale
    seen = _visible(s.shape[-2], s.shape[-1], causal, bottom_right, q.device)
    empty = ~seen.any(-1, keepdim=True)  # rows with no key: a softmax of zeros, then zeroed (no NaN anywhere)
    s = s.masked_fill(~seen, float("-inf")).masked_fill(empty, 0.0)
    p = torch.softmax(s, -1).masked_fill(empty, 0.0)
    lse = torch.logsumexp(s, -1).masked_fill(empty[..., 0], float("-inf"))
    o = p @ vv
    o.backward(do.double())
    return o.detach(), (lse * LOG2E).float().detach(), (q64.grad, k64.grad, v64.grad)


def torch_same_dtype(q, k, v, do, causal, scale, bottom_right=False):
    """PyTorch's own backward in the inputs' dtype (SDPA math); for bottom-right with n_q > n_k on the rows that
    see keys (the others have zero gradients)."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    n_q, n_k = q.shape[2], k.shape[2]
    skip = max(n_q - n_k, 0) if (causal and bottom_right) else 0
    qq, kk, vv = (t.detach().clone().requires_grad_() for t in (q, k, v))
    mask = _visible(n_q, n_k, causal, bottom_right, q.device)[skip:] if (causal and bottom_right) else None
    with sdpa_kernel(SDPBackend.MATH):
        o = torch.nn.functional.scaled_dot_product_attention(
            qq[:, :, skip:],
            kk,
            vv,
            attn_mask=mask,
            is_causal=causal and mask is None,
            scale=scale,
            enable_gqa=k.shape[1] != q.shape[1],
        )
    o.backward(do[:, :, skip:])
    return qq.grad, kk.grad, vv.grad


def rel(a, b):
    a = a.double()
    return (torch.linalg.vector_norm(a - b) / torch.linalg.vector_norm(b)).item()


def make(shape_q, shape_k, dtype, strided, gen):
    """q, k, v, do: k and v of shape_k (fewer heads under GQA); strided ones are (batch, seq, heads, d) views."""

    def one(shape):
        if strided:  # (batch, seq, heads, d) memory viewed as (batch, heads, seq, d)
            b, h, n, d = shape
            return torch.randn((b, n, h, d), device="cuda", dtype=dtype, generator=gen).transpose(1, 2)
        return torch.randn(shape, device="cuda", dtype=dtype, generator=gen)

    return one(shape_q), one(shape_k), one(shape_k), one(shape_q)


# (batch, heads, kv heads, n_q, n_k, head_dim, causal, strided, bottom_right, dtype)
BF, FP = torch.bfloat16, torch.float16
CASES = [
    (2, 3, 3, 1024, 1024, 128, False, False, False, BF),
    (2, 3, 3, 1024, 1024, 128, True, False, False, BF),
    (1, 2, 2, 1537, 1537, 128, True, False, False, BF),
    (1, 2, 2, 1537, 1537, 128, False, True, False, BF),
    (2, 2, 2, 384, 384, 64, False, False, False, BF),
    (2, 2, 2, 384, 384, 64, True, True, False, BF),
    (1, 3, 3, 1000, 1000, 64, True, False, False, BF),
    (1, 2, 2, 700, 1300, 64, False, False, False, BF),
    (1, 2, 2, 1300, 700, 128, True, False, False, BF),
    (1, 1, 1, 70, 70, 64, True, False, False, BF),
    # GQA / MQA (issue 14): dK, dV of a kv head summed over its q heads inside the kernel
    (2, 8, 2, 1024, 1024, 128, True, False, False, BF),
    (1, 8, 1, 1000, 1000, 64, True, False, False, BF),
    (2, 8, 2, 777, 777, 128, False, True, False, BF),
    (1, 4, 1, 1537, 1537, 64, False, False, False, BF),
    # bottom-right causal (chunked prefill: fewer queries than keys; and more queries than keys)
    (1, 4, 4, 300, 1300, 128, True, False, True, BF),
    (2, 8, 2, 512, 2048, 64, True, False, True, BF),
    (1, 2, 2, 1300, 700, 64, True, False, True, BF),
    (1, 4, 1, 1100, 1100, 128, True, True, True, BF),
    # fp16
    (2, 3, 3, 1024, 1024, 128, True, False, False, FP),
    (1, 2, 2, 1537, 1537, 64, False, True, False, FP),
    (2, 8, 2, 700, 1300, 128, True, False, True, FP),
    (1, 4, 1, 1000, 1000, 64, True, False, False, FP),
]


def check(variants, log) -> bool:
    """Every case x variant; returns whether all passed. Per dtype, the verdict is printed last (``fp16 ok``)."""
    ok_all = True
    ok_dtype: dict[str, bool] = {}
    gen = torch.Generator(device="cuda").manual_seed(1234)
    for b, h, hkv, n_q, n_k, d, causal, strided, bottom_right, dtype in CASES:
        q, k, v, do = make((b, h, n_q, d), (b, hkv, n_k, d), dtype, strided, gen)
        scale = 1.0 / math.sqrt(d)
        o64, lse, ref = reference(q, k, v, do, causal, scale, bottom_right)
        o = o64.to(dtype)
        if strided:
            o = o.transpose(1, 2).contiguous().transpose(1, 2)
        theirs = torch_same_dtype(q, k, v, do, causal, scale, bottom_right)
        err_t = [rel(g, r[:, :, -g.shape[2] :]) for g, r in zip(theirs, ref, strict=True)]
        validated, ha.VALIDATED_DTYPES = ha.VALIDATED_DTYPES, (torch.bfloat16, torch.float16)
        supported = ha.hopper_supported(
            q, k, v, causal=causal, bottom_right=bottom_right, window=None, deterministic=False, varlen=False
        )  # the contract apart from the dtype
        ha.VALIDATED_DTYPES = validated
        for name in variants:
            kw = VARIANTS[name]
            if name in ONLY_D64 and d != 64:
                continue
            grads = [torch.full_like(t, float("nan")) for t in (q, k, v)]
            try:
                ha.hopper_backward(q, k, v, o, lse, do, causal, scale, *grads, bottom_right=bottom_right, **kw)
                torch.cuda.synchronize()
            except Exception as error:  # a compile or launch failure fails this case, not the run
                print(f"check {name} raised {type(error).__name__}: {str(error).splitlines()[:1]}", flush=True)
            which = range(3) if kw.get("fuse_dq", True) else range(1, 3)
            errs = {i: rel(grads[i], ref[i]) for i in which}
            finite = all(torch.isfinite(grads[i]).all().item() for i in which)
            ok = finite and all(errs[i] <= 2 * err_t[i] + 1e-6 for i in which)
            ok_all &= ok
            key = str(dtype).removeprefix("torch.")
            ok_dtype[key] = ok_dtype.get(key, True) and ok
            line = (
                f"check {key} b{b} h{h}/{hkv} q{n_q} k{n_k} d{d} "
                f"{('causal-br' if bottom_right else 'causal') if causal else 'full'}"
                f"{' strided' if strided else ''} {name}: "
                + " ".join(f"{'qkv'[i]} {errs[i]:.2e}/{err_t[i]:.2e}" for i in which)
                + f" supported={supported} {'PASS' if ok else 'FAIL'}"
            )
            print(line, flush=True)
            log.write(line + "\n")
    for key, ok in ok_dtype.items():
        line = f"check {key}: {'ok' if ok else 'FAILED'}"
        print(line, flush=True)
        log.write(line + "\n")
    return ok_all


def grid(kind):
    seqs = (1024, 2048, 4096, 8192, 16384) if kind == "full" else (2048, 8192)
    return [(d, c, n, 16384 // n, 2048 // d) for d in (64, 128) for c in (False, True) for n in seqs]


def _flex_tflops(q, k, v, do, causal, flops, warmup, rep):
    """FlexAttention measured plainly: compiled anew for this shape (dynamic=False: one compiled function reused
    across shapes recompiles, turns dynamic and falls back to eager past Dynamo's recompile limit) and its block
    mask built outside the timed region, then its autograd backward timed like cuDNN's."""
    import torch._functorch.config as functorch_config
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention

    functorch_config.donated_buffer = False  # retain_graph for the timing loop
    compiled = torch.compile(flex_attention, dynamic=False)
    n = q.shape[2]
    mask = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None, n, n, device="cuda") if causal else None
    for t in (q, k, v):
        t.grad = None
    out = compiled(q, k, v, block_mask=mask)
    out.backward(do, retain_graph=True)
    return round(flops / _backward_ms(out, do, [q, k, v], warmup, rep) / 1e9, 1)


def _backward_ms(out, do, inputs, warmup, rep):
    """Median ms of ``out.backward(do)`` alone: the graph kept between calls, the inputs' gradients cleared."""
    backward = functools.partial(out.backward, do, retain_graph=True)
    return triton.testing.do_bench(backward, warmup=warmup, rep=rep, grad_to_none=inputs, return_mode="median")


def _cudnn_tflops(q, k, v, do, causal, flops, warmup, rep, enable_gqa=False):
    """The backward of SDPA's cuDNN backend on leaf copies of q, k, v, timed as ours is."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        out = torch.nn.functional.scaled_dot_product_attention(qg, kg, vg, is_causal=causal, enable_gqa=enable_gqa)
    out.backward(do, retain_graph=True)
    return round(flops / _backward_ms(out, do, [qg, kg, vg], warmup, rep) / 1e9, 1)


def bench(variants, kind, rows, warmup=10, rep=60, flex=False):
    for d, causal, n, b, h in grid(kind):
        gen = torch.Generator(device="cuda").manual_seed(n + d)
        shape = (b, h, n, d)
        q, k, v, do = (torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(4))
        scale = 1.0 / math.sqrt(d)
        o, lse = torch.ops.aten._scaled_dot_product_flash_attention(q, k, v, 0.0, causal, False, scale=scale)[:2]
        lse2 = (lse.float() * LOG2E).contiguous()
        flops = 2.5 * 4.0 * b * h * n * n * d / (2 if causal else 1)
        row = {"d": d, "causal": causal, "seq": n, "batch": b, "heads": h}
        grads = [torch.empty_like(t) for t in (q, k, v)]
        for name in variants:
            kw = VARIANTS[name]
            if name in ONLY_D64 and d != 64:
                continue
            fn = functools.partial(ha.hopper_backward, q, k, v, o, lse2, do, causal, scale, *grads, **kw)
            fn()
            ms = triton.testing.do_bench(fn, warmup=warmup, rep=rep, return_mode="median")
            row[name] = round(flops / ms / 1e9, 1)
            if not kw.get("fuse_dq", True):
                row[name + "_real"] = round(flops * 0.8 / ms / 1e9, 1)  # 4 of 5 products
            if name == variants[0]:
                torch.cuda.synchronize()
                torch.cuda.reset_peak_memory_stats()
                before = torch.cuda.memory_allocated()
                o2, lse_n = torch.ops.aten._scaled_dot_product_flash_attention(
                    q, k, v, 0.0, causal, False, scale=scale
                )[:2]
                g2 = [torch.empty_like(t) for t in (q, k, v)]
                ha.hopper_backward(q, k, v, o2, (lse_n * LOG2E).contiguous(), do, causal, scale, *g2, **kw)
                torch.cuda.synchronize()
                row["mem_ours_gib"] = round((torch.cuda.max_memory_allocated() - before) / 2**30, 3)
                del o2, lse_n, g2
        row["cudnn"] = _cudnn_tflops(q, k, v, do, causal, flops, warmup, rep)
        if flex and n in (2048, 8192):
            qg, kg, vg = (t.clone().requires_grad_() for t in (q, k, v))
            row["flex"] = _flex_tflops(qg, kg, vg, do, causal, flops, warmup, rep)
            del qg, kg, vg
        rows.append(row)
        print(json.dumps(row), flush=True)
        del q, k, v, do, o, lse, lse2, grads
        torch.cuda.empty_cache()


def bench_gqa(variant, rows, warmup=10, rep=60):
    """GQA 4:1 next to MHA with as many q heads (same FLOPs): TFLOP/s of ours and of cuDNN (``enable_gqa``; 0 where
    it refuses), d128, 16 q heads, seq 4k, batch 4, causal or not (issue 14: within 5% of MHA per FLOP)."""
    b, h, n, d = 4, 16, 4096, 128
    for causal in (False, True):
        for hkv in (h, h // 4):
            gen = torch.Generator(device="cuda").manual_seed(hkv)
            q, do = (torch.randn((b, h, n, d), device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
            k, v = (torch.randn((b, hkv, n, d), device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(2))
            scale = d**-0.5
            kk, vv = (t.repeat_interleave(h // hkv, 1) for t in (k, v))
            o, lse = torch.ops.aten._scaled_dot_product_flash_attention(q, kk, vv, 0.0, causal, False, scale=scale)[:2]
            lse2 = (lse.float() * LOG2E).contiguous()
            flops = 2.5 * 4.0 * b * h * n * n * d / (2 if causal else 1)
            grads = [torch.empty_like(t) for t in (q, k, v)]
            fn = functools.partial(ha.hopper_backward, q, k, v, o, lse2, do, causal, scale, *grads, **VARIANTS[variant])
            fn()
            ms = triton.testing.do_bench(fn, warmup=warmup, rep=rep, return_mode="median")
            row = {"gqa": f"{h}/{hkv}", "causal": causal, "seq": n, "d": d, variant: round(flops / ms / 1e9, 1)}
            try:
                row["cudnn"] = _cudnn_tflops(q, k, v, do, causal, flops, warmup, rep, enable_gqa=hkv != h)
            except RuntimeError as error:
                print(f"cudnn refused gqa {h}/{hkv}: {str(error).splitlines()[:1]}", flush=True)
                row["cudnn"] = 0.0
            rows.append(row)
            print(json.dumps(row), flush=True)
            del q, k, v, do, o, lse, lse2, grads, kk, vv
            torch.cuda.empty_cache()


def table(rows, variants):
    cols = []
    for name in variants:
        cols.append(name)
        if not VARIANTS[name].get("fuse_dq", True):
            cols.append(name + "_real")
    cols.append("cudnn")
    if any("flex" in r for r in rows):
        cols.append("flex")
    head = f"{'d':>4} {'causal':>6} {'seq':>6} | " + " ".join(f"{c[-13:]:>13}" for c in cols)
    lines = ["backward TFLOP/s (bf16, FA count; *_real = dK/dV kernel's own 4 products)", head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r['d']:>4} {'yes' if r['causal'] else 'no':>6} {r['seq']:>6} | "
            + " ".join(f"{r.get(c, float('nan')):>13.1f}" for c in cols)
            + (f"  mem {r['mem_ours_gib']:.3f} GiB" if "mem_ours_gib" in r else "")
        )
    for name in variants:
        if VARIANTS[name].get("fuse_dq", True):
            ratios = [r[name] / r["cudnn"] for r in rows if name in r]
            g = math.exp(sum(map(math.log, ratios)) / len(ratios))
            lines.append(f"geomean {name} / cudnn = {g:.3f}  (min {min(ratios):.3f}, max {max(ratios):.3f})")
            behind = [
                f"d{r['d']}{'c' if r['causal'] else ''}/{r['seq']}" for r in rows if "flex" in r and r[name] < r["flex"]
            ]
            if any("flex" in r for r in rows):
                lines.append(f"  {name} below flex at: {', '.join(behind) or 'none'}")
    return "\n".join(lines)


def breakdown(d: int, causal: bool, n: int, calls: int = 20) -> str:
    """Per-kernel device time (mean over ``calls`` backwards, after a warm-up) of the default Hopper backward at one
    point of the standard grid, next to cuDNN's whole backward and the busy fraction of the call's wall time."""
    from torch.profiler import ProfilerActivity, profile

    b, h = 16384 // n, 2048 // d
    q, k, v, do = (torch.randn((b, h, n, d), device="cuda", dtype=torch.bfloat16) for _ in range(4))
    o, lse = torch.ops.aten._scaled_dot_product_flash_attention(q, k, v, 0.0, causal, False, scale=d**-0.5)[:2]
    lse2 = (lse * LOG2E).contiguous()
    grads = [torch.empty_like(t) for t in (q, k, v)]
    for _ in range(3):
        ha.hopper_backward(q, k, v, o, lse2, do, causal, d**-0.5, *grads)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            ha.hopper_backward(q, k, v, o, lse2, do, causal, d**-0.5, *grads)
        torch.cuda.synchronize()
    per = {}
    for event in prof.key_averages():
        if event.device_type is not None and "cuda" in str(event.device_type).lower():
            per[event.key] = getattr(event, "device_time_total", getattr(event, "cuda_time_total", 0)) / calls
    flops = 2.5 * 4 * b * h * n * n * d / (2 if causal else 1)
    total = sum(per.values())
    lines = [f"breakdown d{d} {'causal' if causal else 'full'} {n}: kernels {total:.1f} us per backward "
             f"({flops / total / 1e6:.1f} TFLOP/s on device time alone)"]  # fmt: skip
    for name, us in sorted(per.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {us:8.1f} us  {name[:90]}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--variants", default="fused_ws,fused_nows,dkdv_ws")
    ap.add_argument("--check-variants", default=None)
    ap.add_argument("--grid", default="full")
    ap.add_argument("--flex", action="store_true", help="also FlexAttention at seq 2k and 8k (compiles per shape)")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--gqa", default=None, help="variants: also time GQA 4:1 next to MHA (d128, 4k)")
    ap.add_argument("--once", default=None, help="d,causal,seq,variant: one backward call (for a profiler)")
    ap.add_argument("--breakdown", default=None,
                    help="d,causal,seq[;...]: device time of each kernel of one backward (pre-pass, kernel, "
                         "post-pass) and of the whole call, from torch.profiler")  # fmt: skip
    args = ap.parse_args()
    if args.breakdown:
        for point in args.breakdown.split(";"):
            d, c, n = (int(x) for x in point.split(","))
            print(breakdown(d, bool(c), n), flush=True)
        return 0
    if args.once:
        d, c, n, name = args.once.split(",")
        d, c, n = int(d), bool(int(c)), int(n)
        q, k, v, do = (
            torch.randn((16384 // n, 2048 // d, n, d), device="cuda", dtype=torch.bfloat16) for _ in range(4)
        )
        o, lse = torch.ops.aten._scaled_dot_product_flash_attention(q, k, v, 0.0, c, False, scale=d**-0.5)[:2]
        grads = [torch.empty_like(t) for t in (q, k, v)]
        for _ in range(2):
            ha.hopper_backward(q, k, v, o, (lse * LOG2E).contiguous(), do, c, d**-0.5, *grads, **VARIANTS[name])
        torch.cuda.synchronize()
        return 0
    variants = args.variants.split(",")
    print(torch.cuda.get_device_name(), torch.__version__, triton.__version__, flush=True)
    ok = True
    with open(os.path.join(args.out, "hopper_log.txt"), "w") as log:
        if args.check:
            t0 = time.time()
            ok = check((args.check_variants or args.variants).split(","), log)
            print(f"check: {'all pass' if ok else 'FAILURES'} ({time.time() - t0:.0f} s)", flush=True)
        if args.bench:
            rows = []
            t0 = time.time()
            try:
                bench(variants, args.grid, rows, flex=args.flex)
            finally:
                text = table(rows, variants) if rows else "no rows"
                log.write(text + "\n")
                with open(os.path.join(args.out, "hopper_rows.json"), "w") as f:
                    json.dump(rows, f)
                print(f"bench: {time.time() - t0:.0f} s", flush=True)
                print(text, flush=True)
        if args.gqa:
            gqa_rows: list[dict] = []
            for name in args.gqa.split(","):
                bench_gqa(name, gqa_rows)
            with open(os.path.join(args.out, "hopper_gqa.json"), "w") as f:
                json.dump(gqa_rows, f)
            for r in gqa_rows:
                name = next(k for k in r if k in VARIANTS)
                line = f"gqa {r['gqa']:>5} {'causal' if r['causal'] else 'full':>6} {name}: {r[name]:7.1f}  cudnn {r['cudnn']:7.1f}"
                print(line, flush=True)
                log.write(line + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
