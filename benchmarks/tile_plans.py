"""Tile plans of the FlashAttention-2 backward for every shipped hardware profile, as one table.

    python benchmarks/tile_plans.py [--seq 4096] [--batch 4] [--heads 16]

For each profile and head dimension: the chosen dK/dV and dQ configs (BLOCK_M x BLOCK_N, warps, stages),
shared memory per block against the limit, registers per thread, programs and warps per SM, HBM bytes
of the whole backward fused vs unfused, arithmetic intensity against the ridge point. No GPU needed:
the planner works from the profiles alone, which is the point (l100 is a spec sheet).
"""

from __future__ import annotations

import argparse
import time

from skills.operator_adaptation.hardware import shipped_profiles
from skills.operator_adaptation.tile_plan import Problem, plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seq", type=int, default=4096)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--heads", type=int, default=16)
    args = parser.parse_args()
    header = (
        f"{'target':7} {'D':>4} {'pass':5} {'tile':>9} {'w,s':>4} {'smem KiB':>13} {'regs':>8} "
        f"{'blk/SM':>6} {'fused GB':>9} {'unfused GB':>10} {'AI':>6} {'ridge':>6} {'fits':>5} {'plan ms':>7}"
    )
    print(header)
    print("-" * len(header))
    for name in shipped_profiles():
        for head_dim in (64, 128, 256):
            problem = Problem(batch=args.batch, heads=args.heads, seq=args.seq, head_dim=head_dim, causal=True)
            started = time.perf_counter()
            try:
                result = plan(name, problem)
            except Exception as exc:  # a head dim that fits nowhere on this target is a row, not a crash
                print(f"{name:7} {head_dim:>4} {'-':5} {str(exc)[:80]}")
                continue
            elapsed = (time.perf_counter() - started) * 1000
            hbm = result["hbm"]
            for kernel, k in result["kernels"].items():
                print(
                    f"{name:7} {head_dim:>4} {kernel:5} {k['block_m']:>4}x{k['block_n']:<4} "
                    f"{k['num_warps']},{k['num_stages']:<2} {k['smem_bytes'] / 1024:>6.1f}/{k['smem_limit'] / 1024:<6.0f} "
                    f"{k['registers_per_thread']:>3}/{k['register_limit']:<4} {k['blocks_per_sm']:>6} "
                    f"{hbm['fused_bytes'] / 1e9:>9.2f} {hbm['unfused_bytes'] / 1e9:>10.2f} "
                    f"{result['arithmetic_intensity']['fused']:>6.0f} {result['ridge_point']:>6.0f} "
                    f"{k['candidates']:>5} {elapsed:>7.1f}"
                )


if __name__ == "__main__":
    main()
