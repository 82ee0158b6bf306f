"""Issue 14 on the device: every feature validated, GQA timed against MHA per FLOP, windows and varlen timed.

    cd <repo> && PYTHONPATH=. python3 benchmarks/attention_features_device.py --out $OUT

1. ``validate``: kernel_check's DEVICE_CASES and DEVICE_FEATURE_CASES (GQA, MQA, windows, bottom-right, varlen,
   deterministic), bf16 and fp16, through the public dispatch (on sm90 the Hopper backward where it accepts the
   problem) and again with ``portable=True`` (the Triton kernels alone); the 2x-of-PyTorch rule, NaN-poisoned
   outputs, the deterministic cases run twice for bitwise equality.
2. ``compile``: kernel_check.compile_check with inductor and aot_eager: torch.compile(fullgraph=True) over a GQA
   block, graph breaks counted, compiled against eager.
3. ``gqa``: forward and backward time of GQA (kv heads = heads / 4 by default; --groups 4,8 adds more) against
   MHA with the same query heads, so the same FLOPs: the issue's goal is GQA within 5% of MHA per FLOP. The
   backward is timed through the dispatch and through the portable kernels. Default: seq 4096, causal, head_dim
   64 and 128, batch 16k / seq and heads 2048 / head_dim as the standard grid (each new shape class is tuned
   once, outside the timing: the defaults keep the tuning to a few minutes).
4. ``features``: a sliding window of 1024 keys against full causal (TFLOP/s on the pairs each computes), a packed
   varlen batch against the same sequences padded to the longest, the deterministic backward against the
   default; at the GQA part's d128 point, whose tile picks they reuse.
Everything goes to <out>/attention_features.json as it is measured; a summary is printed last.
FLOPs as FlashAttention counts them: forward 4·B·H·pairs·d over the visible (query, key) pairs, backward 2.5x.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import torch
import triton
import triton.testing

from skills.operator_adaptation import fused_attention, kernel_check, launch
from skills.operator_adaptation.tile_plan import Problem

DEVICE = torch.device("cuda")  # --smoke: the CPU under Triton's interpreter, to run this script's code in CI

# the sizes of the features part: on the device, and for --smoke
SIZES = {
    # the GQA part's d128 point (batch 4, 16 heads, 4 kv heads, seq 4096): its tile picks are reused here
    "device": {"batch": 4, "seq": 4096, "window": 1023, "heads": 16, "kv_heads": 4, "head_dim": 128,
               "lengths": [4096, 3000, 2500, 2048, 1500, 1200, 1024, 500, 300, 200, 50]},
    "smoke": {"batch": 1, "seq": 64, "window": 15, "heads": 4, "kv_heads": 1, "head_dim": 16, "lengths": [40, 17, 5]},
}  # fmt: skip


def _bench(fn) -> float:
    if DEVICE.type != "cuda":  # --smoke: one timed run is enough to exercise the code
        started = time.perf_counter()
        fn()
        return (time.perf_counter() - started) * 1e3
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


def _inputs(batch, heads, kv_heads, seq, head_dim, generator):
    def make(h: int) -> torch.Tensor:
        return torch.randn(batch, h, seq, head_dim, device=DEVICE, generator=generator).to(torch.bfloat16)

    return make(heads), make(kv_heads), make(kv_heads), make(heads)


def time_problem(batch, heads, kv_heads, seq, head_dim, causal, window=None, deterministic=False) -> dict:
    """Forward, backward (dispatch) and backward (portable) of one problem: ms and TFLOP/s."""
    generator = torch.Generator(device=DEVICE).manual_seed(0)
    q, k, v, do = _inputs(batch, heads, kv_heads, seq, head_dim, generator)
    scale = head_dim**-0.5
    pairs = Problem(seq=seq, causal=causal, window=window or (-1, -1)).visible_pairs(seq)
    forward_flops = 4.0 * batch * heads * pairs * head_dim
    o, lse = launch.forward(q, k, v, causal, scale, window=window)
    row = {"batch": batch, "heads": heads, "kv_heads": kv_heads, "seq": seq, "head_dim": head_dim, "causal": causal,
           "window": window, "deterministic": deterministic}  # fmt: skip
    timings = {
        "fwd": lambda: launch.forward(q, k, v, causal, scale, window=window),
        "bwd": lambda: launch.backward(q, k, v, o, lse, do, causal, scale, window=window, deterministic=deterministic),
        "bwd_portable": lambda: launch.backward(
            q, k, v, o, lse, do, causal, scale, window=window, deterministic=deterministic, portable=True
        ),
    }
    for name, fn in timings.items():
        fn()  # the tuner's first timing happens here, outside the measurement
        ms = _bench(fn)
        flops = forward_flops * (1.0 if name == "fwd" else 2.5)
        row[f"{name}_ms"] = round(ms, 4)
        row[f"{name}_tflops"] = round(flops / (ms * 1e-3) / 1e12, 1)
    return row


def gqa_vs_mha(head_dims, seqs, groups, causals, tokens: int = 16384, hidden: int = 2048) -> list[dict]:
    """GQA/MQA against MHA with the same query heads (tokens and hidden size per point as the standard grid)."""
    rows = []
    for head_dim in head_dims:
        heads = hidden // head_dim
        for seq in seqs:
            batch = max(1, tokens // seq)
            for causal in causals:
                mha = time_problem(batch, heads, heads, seq, head_dim, causal)
                rows.append({**mha, "group": 1})
                print("gqa", json.dumps(rows[-1]), flush=True)
                for group in groups:
                    kv_heads = max(1, heads // group)
                    row = time_problem(batch, heads, kv_heads, seq, head_dim, causal)
                    row["group"] = heads // kv_heads
                    for name in ("fwd", "bwd", "bwd_portable"):  # same FLOPs: per-FLOP speed is the time ratio
                        row[f"{name}_vs_mha"] = round(mha[f"{name}_ms"] / row[f"{name}_ms"], 3)
                    rows.append(row)
                    print("gqa", json.dumps(row), flush=True)
    return rows


def features(size: dict) -> dict:
    """Windows, varlen and the deterministic backward, each next to what it replaces."""
    out: dict = {}
    heads, kv_heads, head_dim, seq = size["heads"], size["kv_heads"], size["head_dim"], size["seq"]
    full = time_problem(size["batch"], heads, kv_heads, seq, head_dim, True)
    window = time_problem(size["batch"], heads, kv_heads, seq, head_dim, True, window=(size["window"], -1))
    out["window"] = {"left": size["window"], "causal": full, "window": window,
                     "fwd_speedup": round(full["fwd_ms"] / window["fwd_ms"], 2),
                     "bwd_speedup": round(full["bwd_ms"] / window["bwd_ms"], 2)}  # fmt: skip
    print("window", json.dumps(out["window"]), flush=True)

    # varlen: documents of ragged lengths against the same documents padded to the longest (what SDPA needs)
    generator = torch.Generator(device=DEVICE).manual_seed(1)
    lengths = size["lengths"]
    total = sum(lengths)
    q = torch.randn(total, heads, head_dim, device=DEVICE, generator=generator).to(torch.bfloat16)
    k = torch.randn(total, kv_heads, head_dim, device=DEVICE, generator=generator).to(torch.bfloat16)
    v = torch.randn_like(k)
    cu = torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()], dtype=torch.int32, device=DEVICE)
    varlen = launch.Varlen(cu, cu, max(lengths), max(lengths))
    scale = head_dim**-0.5
    o, lse = launch.forward(q, k, v, True, scale, varlen=varlen)
    do = torch.randn_like(o)
    fwd = lambda: launch.forward(q, k, v, True, scale, varlen=varlen)  # noqa: E731
    bwd = lambda: launch.backward(q, k, v, o, lse, do, True, scale, varlen=varlen)  # noqa: E731
    fwd(), bwd()
    padded = time_problem(len(lengths), heads, kv_heads, max(lengths), head_dim, True)
    pairs = sum(n * (n + 1) // 2 for n in lengths)
    varlen_row = {"lengths": lengths, "fwd_ms": round(_bench(fwd), 4), "bwd_ms": round(_bench(bwd), 4)}
    varlen_row["fwd_tflops"] = round(4.0 * heads * pairs * head_dim / (varlen_row["fwd_ms"] * 1e-3) / 1e12, 1)
    varlen_row["bwd_tflops"] = round(10.0 * heads * pairs * head_dim / (varlen_row["bwd_ms"] * 1e-3) / 1e12, 1)
    out["varlen"] = {"packed": varlen_row, "padded": padded,
                     "fwd_speedup": round(padded["fwd_ms"] / varlen_row["fwd_ms"], 2),
                     "bwd_speedup": round(padded["bwd_ms"] / varlen_row["bwd_ms"], 2)}  # fmt: skip
    print("varlen", json.dumps(out["varlen"]), flush=True)

    default = full  # the deterministic backward against the default one, same problem
    deterministic = time_problem(size["batch"], heads, kv_heads, seq, head_dim, True, deterministic=True)
    out["deterministic"] = {"default": default, "deterministic": deterministic,
                            "bwd_cost": round(deterministic["bwd_ms"] / default["bwd_ms"], 3)}  # fmt: skip
    print("deterministic", json.dumps(out["deterministic"]), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--parts", default="validate,compile,gqa,features")
    parser.add_argument("--head-dims", default="64,128")
    parser.add_argument("--seqs", default="4096")
    parser.add_argument("--groups", default="4", help="query heads per kv head to time against MHA")
    parser.add_argument("--causal", default="1", help="1, 0 or 1,0: causal, full or both in the GQA part")
    parser.add_argument("--validate-dtypes", default="bfloat16,float16")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes on the CPU (TRITON_INTERPRET=1): the CI check")
    args = parser.parse_args()
    global DEVICE
    if args.smoke:
        DEVICE = torch.device("cpu")
        args.head_dims, args.seqs, args.groups = "16", "64", "2"
    parts = set(args.parts.split(","))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log: dict = {
        "torch": torch.__version__,
        "triton": triton.__version__,
        "device": torch.cuda.get_device_name() if DEVICE.type == "cuda" else "cpu (Triton interpreter)",
        "capability": list(torch.cuda.get_device_capability()) if DEVICE.type == "cuda" else None,
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }

    def save():
        (out / "attention_features.json").write_text(json.dumps(log, indent=1))

    summary = []
    if "validate" in parts:
        t0 = time.time()
        cases = kernel_check.DEVICE_CASES + kernel_check.DEVICE_FEATURE_CASES
        if args.smoke:
            cases = kernel_check.SMALL_FEATURE_CASES[:3]
        sm90 = DEVICE.type == "cuda" and torch.cuda.get_device_capability() == (9, 0)
        log["validate"] = []
        for portable in (False, True) if sm90 else (True,):
            for dtype in [getattr(torch, name) for name in args.validate_dtypes.split(",")]:
                seed = 0 if args.smoke else None  # the device run draws fresh inputs (their seeds are in the rows)
                for row in kernel_check.validate(DEVICE, dtype, cases, seed=seed, portable=portable):
                    row["path"] = "portable" if portable else "dispatch"
                    log["validate"].append(row)
                    print("validate", json.dumps(row), flush=True)
                save()
        failed = [r for r in log["validate"] if not r["ok"]]
        log["validate_s"] = round(time.time() - t0, 1)
        summary.append(f"validate: {len(log['validate']) - len(failed)}/{len(log['validate'])} cases pass")
        summary += [f"  FAILED {r['path']} {r['dtype']} {r['feature']}: {json.dumps(r)}" for r in failed]
    if "compile" in parts:
        backends = ("aot_eager",) if args.smoke else ("inductor", "aot_eager")
        log["compile"] = [kernel_check.compile_check(DEVICE, backend=b) for b in backends]
        save()
        summary += [f"compile {c['backend']}: {c['graph_breaks']} graph breaks, ok={c['ok']}" for c in log["compile"]]
    if "gqa" in parts:
        t0 = time.time()
        log["gqa"] = gqa_vs_mha(
            [int(d) for d in args.head_dims.split(",")],
            [int(n) for n in args.seqs.split(",")],
            [int(g) for g in args.groups.split(",")],
            [c == "1" for c in args.causal.split(",")],
            *((128, 64) if args.smoke else ()),
        )
        log["gqa_s"] = round(time.time() - t0, 1)
        save()
        for name in ("fwd", "bwd", "bwd_portable"):
            ratios = [r[f"{name}_vs_mha"] for r in log["gqa"] if r["group"] > 1]
            geomean = statistics.geometric_mean(ratios)
            summary.append(f"GQA/MQA vs MHA per FLOP, {name}: geomean {geomean:.3f}, min {min(ratios):.3f}")
    if "features" in parts:
        log["features"] = features(SIZES["smoke" if args.smoke else "device"])
        save()
        f = log["features"]
        summary.append(
            f"window {f['window']['left']} vs causal: fwd {f['window']['fwd_speedup']}x, bwd {f['window']['bwd_speedup']}x"
        )
        summary.append(f"varlen vs padded: fwd {f['varlen']['fwd_speedup']}x, bwd {f['varlen']['bwd_speedup']}x")
        summary.append(f"deterministic backward costs {f['deterministic']['bwd_cost']}x the default")
    log["chosen"] = fused_attention.chosen_configs()
    save()
    print("\n".join(summary))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
