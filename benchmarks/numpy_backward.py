"""Speed of the NumPy tiled FlashAttention-2 forward + backward on the CPU, against the unfused float64 math.

    python benchmarks/numpy_backward.py

The NumPy path is the CPU stand-in for the Triton kernel (same tile schedule), so its speed matters
only for `shijie skills invoke --device cpu`; this table shows what a size costs and how the block
size trades Python loop overhead against the size of each matrix product.
"""

from __future__ import annotations

import time

import numpy as np

from skills.operator_adaptation import numpy_backward as nb


def timed(fn, repeat=3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def row(rng: np.random.Generator, n: int, d: int, causal: bool, block: int) -> str:
    b, h = 1, 4
    q, k, v, do = (rng.standard_normal((b, h, n, d)).astype(np.float32) for _ in range(4))

    def tiled():
        fwd = nb.flash_forward(q, k, v, is_causal=causal, block_m=block, block_n=block)
        return fwd, nb.flash_backward(q, k, v, fwd.out, fwd.lse, do, is_causal=causal, block_m=block, block_n=block)

    seconds = timed(tiled)
    reference_seconds = timed(lambda: nb.reference_backward(q, k, v, do, is_causal=causal), repeat=1)
    _, grads = tiled()
    ref = nb.reference_backward(q, k, v, do, is_causal=causal)
    error = max(nb.relative_error(getattr(grads, name), getattr(ref, name)) for name in ("dq", "dk", "dv"))
    visible = (n + 1) / (2 * n) if causal else 1.0
    # the usual count: forward 2 matmuls, backward 5 (the dQ pass recomputing S and dP is not counted)
    flops = b * h * (4 + 10) * n * n * d * visible
    return (
        f"{b:>2} {h:>2} {n:>5} {d:>4} {causal!s:>6} {block:>7} {seconds:>8.3f} {flops / seconds / 1e9:>8.1f} "
        f"{reference_seconds:>14.3f} {error:>11.1e}"
    )


def main() -> None:
    print(
        f"{'B':>2} {'H':>2} {'N':>5} {'D':>4} {'causal':>6} {'block':>7} {'tiled s':>8} {'GFLOP/s':>8} "
        f"{'fp64 unfused s':>14} {'max rel err':>11}"
    )
    rng = np.random.default_rng(0)
    for n, d, causal, block in [
        (512, 64, False, 64),
        (512, 64, True, 64),
        (1024, 64, True, 64),
        (1024, 64, True, 128),
        (1024, 128, False, 128),
        (2048, 64, True, 128),
    ]:
        print(row(rng, n, d, causal, block))


if __name__ == "__main__":
    main()
