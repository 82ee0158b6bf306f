"""Where a training step's attention time goes: device time against host time, ours and SDPA, at the shape of
benchmarks/train_gpt.py (batch 8, 8 query heads over 2 kv heads, seq 2048, head_dim 64, causal, bf16, the
(B, N, H, D) projections seen through ``transpose(1, 2)``).

    PYTHONPATH=. python3 benchmarks/attention_overhead.py

For each implementation: the device time of forward + backward (CUDA events, median of do_bench), the host
time of issuing them (wall clock over many calls without a sync, divided by the calls: when it exceeds the
device time, the GPU waits for Python), and the top host-side costs of one call from torch.profiler.
"""

from __future__ import annotations

import time

import torch
import torch.nn.functional as F
import triton.testing

from skills.operator_adaptation.fused_attention import attention

B, H, KV, N, D = 8, 8, 2, 2048, 64


def inputs():
    x = torch.randn(B, N, H + 2 * KV, D, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    q, k, v = x[:, :, :H], x[:, :, H : H + KV], x[:, :, H + KV :]
    return x, q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)


def step(impl):
    x, q, k, v = inputs()
    g = torch.randn(B, H, N, D, device="cuda", dtype=torch.bfloat16).transpose(1, 2).contiguous().transpose(1, 2)

    def run():
        y = impl(q, k, v)
        (gq,) = torch.autograd.grad(y, (x,), g)
        return gq

    return run


IMPLS = {
    "ours": lambda q, k, v: attention(q, k, v, is_causal=True, enable_gqa=True),
    "sdpa": lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True),
}


def stacks() -> None:
    """Where ours spends host time: torch.profiler with Python stacks, grouped by the innermost frames."""
    run = step(IMPLS["ours"])
    run()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], with_stack=True) as prof:
        for _ in range(3):
            run()
        torch.cuda.synchronize()
    print(
        prof.key_averages(group_by_stack_n=6).table(
            sort_by="self_cpu_time_total", row_limit=8, max_name_column_width=60
        )
    )


def main() -> None:
    import sys

    if "--stacks" in sys.argv:
        stacks()
        return
    rows = []
    for name, impl in IMPLS.items():
        run = step(impl)
        for _ in range(3):
            run()
        torch.cuda.synchronize()
        device_ms = triton.testing.do_bench(run, return_mode="median")
        calls = 50
        started = time.perf_counter()
        for _ in range(calls):
            run()
        host_ms = (time.perf_counter() - started) * 1e3 / calls
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            run()
            torch.cuda.synchronize()
        print(f"--- {name}: host-side costs of one forward + backward")
        print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=12))
        rows.append((name, device_ms, host_ms))
    print(f"{'impl':<6} {'device ms':>10} {'host ms/call':>13}")
    for name, device_ms, host_ms in rows:
        print(f"{name:<6} {device_ms:>10.3f} {host_ms:>13.3f}")


if __name__ == "__main__":
    main()
