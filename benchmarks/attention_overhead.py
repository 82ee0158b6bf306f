"""Where a training step's attention time goes: device time against host time, ours and SDPA, at the shape of
benchmarks/train_gpt.py (batch 8, 8 query heads over 2 kv heads, seq 2048, head_dim 64, causal, bf16, the
(B, N, H, D) projections seen through ``transpose(1, 2)``).

    PYTHONPATH=. python3 benchmarks/attention_overhead.py [--stacks | --cprofile]

For each implementation: the wall time of forward + backward (CUDA events, median of do_bench: the device's
time when the host keeps ahead, else the host's), the host time of issuing them (wall clock over many calls
without a sync, divided by the calls: when it reaches the wall time, the GPU waits for Python), the device
time of the kernels alone (torch.profiler's CUDA activity, summed per call), and the top host-side costs of
one call from torch.profiler.
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


def cprofile(calls: int = 200) -> None:
    """Where ours spends host time, by Python function: cProfile over ``calls`` forward + backward calls (its
    own overhead inflates small functions; read the shares, not the microseconds)."""
    import cProfile
    import io
    import pstats

    run = step(IMPLS["ours"])
    for _ in range(5):
        run()
    torch.cuda.synchronize()
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for _ in range(calls):
        run()
    profiler.disable()
    torch.cuda.synchronize()
    print(f"cProfile: {(time.perf_counter() - started) * 1e3 / calls:.3f} ms per forward + backward under the profiler")
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(30)
        print(out.getvalue())


def kernel_time(run, calls: int = 20) -> tuple[float, dict[str, float]]:
    """Milliseconds of device time per call summed over the kernels the call launches (the GPU's own work,
    whether or not the host keeps it fed), and per kernel name."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            run()
        torch.cuda.synchronize()
    per: dict[str, float] = {}
    for event in prof.key_averages():
        us = getattr(event, "device_time_total", None)
        if us is None:
            us = getattr(event, "cuda_time_total", 0.0)
        if us and event.device_type is not None and "cuda" in str(event.device_type).lower():
            per[event.key] = us / 1e3 / calls
    return sum(per.values()), per


def main() -> None:
    import sys

    if "--stacks" in sys.argv:
        stacks()
        return
    if "--cprofile" in sys.argv:
        cprofile()
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
        kernels_ms, per_kernel = kernel_time(run)
        print(f"--- {name}: device time of its kernels per forward + backward (torch.profiler, CUDA)")
        for kernel, ms in sorted(per_kernel.items(), key=lambda kv: -kv[1])[:10]:
            print(f"  {ms * 1e3:8.1f} us  {kernel[:100]}")
        rows.append((name, device_ms, host_ms, kernels_ms))
    print(f"{'impl':<6} {'wall ms':>10} {'host ms/call':>13} {'kernels ms':>11}")
    for name, device_ms, host_ms, kernels_ms in rows:
        print(f"{name:<6} {device_ms:>10.3f} {host_ms:>13.3f} {kernels_ms:>11.3f}")


if __name__ == "__main__":
    main()
