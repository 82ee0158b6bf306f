"""One device session for the fused attention kernel: ceilings, correctness, then the backward sweep.

    cd <repo> && PYTHONPATH=. python3 benchmarks/attention_device.py --impls ours,cudnn,sdpa_flash --out /tmp/log

1. the two ceilings of the card as found: device-to-device copy bandwidth and a bf16 8192^3 matrix product
   (random data); 2. kernel_check.validate on the device cases (bf16 and fp16); 3. run_benchmark over the
   standard grid (or a subset) for the chosen implementations; 4. the tile configurations the tuner chose.
Everything goes to <out>/attention_device.json; the table is printed last.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import torch
import triton

from skills.operator_adaptation import benchmark, fused_attention, kernel_check


def copy_tb_per_s() -> float:
    x = torch.randn(2**29, device="cuda", dtype=torch.bfloat16)  # 1 GiB, far beyond L2
    y = torch.empty_like(x)
    ms = triton.testing.do_bench(lambda: y.copy_(x), return_mode="median")
    return 2 * x.numel() * 2 / (ms * 1e-3) / 1e12


def bf16_matmul_tflops() -> float:
    a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
    ms = triton.testing.do_bench(lambda: a @ b, return_mode="median")
    return 2 * 8192**3 / (ms * 1e-3) / 1e12


def ceilings() -> dict:
    # each measurement's tensors are freed when its function returns; the cache goes back before the sweep
    copy_tbs = copy_tb_per_s()
    mm_tflops = bf16_matmul_tflops()
    torch.cuda.empty_cache()
    return {"copy_tb_per_s": round(copy_tbs, 2), "bf16_matmul_tflops": round(mm_tflops, 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--impls", default=",".join(benchmark.IMPLEMENTATIONS))
    parser.add_argument("--head-dims", default="64,128")
    parser.add_argument("--seqs", default="1024,2048,4096,8192,16384")
    parser.add_argument("--validate-dtypes", default="bfloat16,float16", help="'' to skip validation")
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    args = parser.parse_args()
    log: dict = {
        "torch": torch.__version__,
        "triton": triton.__version__,
        "device": torch.cuda.get_device_name(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def save():
        (out / "attention_device.json").write_text(json.dumps(log, indent=1))

    log["ceilings"] = ceilings()
    print("ceilings", log["ceilings"], flush=True)
    save()

    head_dims = {int(d) for d in args.head_dims.split(",")}
    seqs = {int(n) for n in args.seqs.split(",")}
    grid = [p for p in benchmark.STANDARD_GRID if p.head_dim in head_dims and p.seq in seqs]
    t0 = time.time()
    rows = benchmark.run_benchmark(
        grid, args.impls.split(","), progress=lambda r: print("bench", json.dumps(r), flush=True)
    )
    log["benchmark"] = rows
    log["benchmark_s"] = round(time.time() - t0, 1)
    log["chosen"] = fused_attention.chosen_configs()
    save()

    if args.validate_dtypes:
        t0 = time.time()
        log["validate"] = []
        for dtype in [getattr(torch, name) for name in args.validate_dtypes.split(",")]:
            for row in kernel_check.validate("cuda", dtype):
                log["validate"].append(row)
                print("validate", json.dumps(row), flush=True)
        log["validate_s"] = round(time.time() - t0, 1)
        log["chosen"] = fused_attention.chosen_configs()
        save()

    for row in log["chosen"]:
        print(
            "chosen", row["kernel"], row["shape_class"], json.dumps(row["config"]), row.get("ms"), row.get("tried", "")
        )
    if "validate" in log:
        failed = [r for r in log["validate"] if not r["ok"]]
        print(f"validate: {len(log['validate']) - len(failed)}/{len(log['validate'])} cases pass", flush=True)
        for r in failed:
            print("FAILED", json.dumps(r))
    print("ceilings", log["ceilings"])
    print(benchmark.format_table(rows))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
