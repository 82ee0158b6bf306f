"""FlashAttention-2 forward and backward, tile by tile, in NumPy: the algorithm of the Triton kernel, on a CPU.

The Triton kernel (``_triton_attention.py``) and this module run the same schedule, so the CPU path checks
the algorithm itself, not a different formula that happens to agree:

* forward (Dao 2023, Alg. 1): one program per BLOCK_M rows of Q walks the BLOCK_N blocks of K, V with an
  online softmax (running max ``m``, running sum ``l``) and saves only ``O`` and the row log-sum-exp
  ``lse = m + log(l)``: no N x N matrix is ever stored.
* backward (Dao 2023, Alg. 2, split as in the Triton tutorial 06-fused-attention):
  - ``delta = rowsum(dO * O)`` (one pass over the rows), which equals ``rowsum(P * dP)``;
  - the dK/dV pass: a program owns a BLOCK_N block of K, V and loops over the BLOCK_M blocks of Q, dO,
    lse, delta; it recomputes ``P = exp(S - lse)`` from the saved lse, then
    ``dV += P^T dO``, ``dP = dO V^T``, ``dS = P * (dP - delta)``, ``dK += dS^T Q * scale``;
  - the dQ pass: a program owns a BLOCK_M block of Q and loops over the BLOCK_N blocks of K, V:
    ``dQ += dS K * scale`` (the kernel may use fp32 atomics instead; the arithmetic is the same).
* causal (top-left aligned, as ``torch.nn.functional.scaled_dot_product_attention(is_causal=True)``):
  blocks entirely above the diagonal are skipped, the diagonal blocks are masked element-wise.
* sequence lengths need not be multiples of the block: the last block is partial.

Tensors are (batch, heads, seq, head_dim); the batch and head axes are vectorized, the tiling runs over
the sequence axes. Accumulation is float32 (as in the kernel) whatever the input dtype; ``reference_*``
is the unfused float64 formula the tiles are checked against.

Run ``python numpy_backward.py`` for a demo on random inputs of awkward sizes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ACC = np.float32  # the accumulator type of the kernel


@dataclass(frozen=True)
class ForwardResult:
    out: np.ndarray  # (B, H, M, D), the input dtype
    lse: np.ndarray  # (B, H, M) float32, natural-log log-sum-exp of the scaled scores per row


@dataclass(frozen=True)
class Gradients:
    dq: np.ndarray
    dk: np.ndarray
    dv: np.ndarray


def _scale(scale: float | None, head_dim: int) -> float:
    return 1.0 / np.sqrt(head_dim) if scale is None else float(scale)


def _causal_mask(rows: range, cols: range) -> np.ndarray:
    """True where attention is not allowed: key position after query position (top-left alignment)."""
    return np.arange(cols.start, cols.stop)[None, :] > np.arange(rows.start, rows.stop)[:, None]


def _blocks(length: int, block: int) -> list[range]:
    return [range(start, min(start + block, length)) for start in range(0, length, block)]


def _fully_masked(rows: range, cols: range) -> bool:
    # every key of the block comes after every query of the block
    return cols.start > rows.stop - 1


def flash_forward(q, k, v, is_causal=False, scale=None, block_m=64, block_n=64) -> ForwardResult:
    """Tiled forward with online softmax; returns O and the row log-sum-exp (the only saved statistics)."""
    *lead, m_len, d = q.shape
    n_len = k.shape[-2]
    sm_scale = _scale(scale, d)
    out = np.empty(q.shape, dtype=q.dtype)
    lse = np.empty((*lead, m_len), dtype=ACC)
    for rows in _blocks(m_len, block_m):
        q_tile = q[..., rows.start : rows.stop, :].astype(ACC)
        row_max = np.full((*lead, len(rows)), -np.inf, dtype=ACC)
        row_sum = np.zeros((*lead, len(rows)), dtype=ACC)
        acc = np.zeros((*lead, len(rows), d), dtype=ACC)
        for cols in _blocks(n_len, block_n):
            if is_causal and _fully_masked(rows, cols):
                break  # later column blocks are further right of the diagonal
            k_tile = k[..., cols.start : cols.stop, :].astype(ACC)
            v_tile = v[..., cols.start : cols.stop, :].astype(ACC)
            s = (q_tile @ np.swapaxes(k_tile, -1, -2)) * ACC(sm_scale)
            if is_causal:
                s = np.where(_causal_mask(rows, cols), -np.inf, s)
            new_max = np.maximum(row_max, s.max(axis=-1))
            # rescale what was accumulated under the old max: exp(m_old - m_new)
            correction = np.exp(row_max - new_max)
            p = np.exp(s - new_max[..., None])
            row_sum = row_sum * correction + p.sum(axis=-1)
            acc = acc * correction[..., None] + p @ v_tile
            row_max = new_max
        out[..., rows.start : rows.stop, :] = (acc / row_sum[..., None]).astype(q.dtype)
        lse[..., rows.start : rows.stop] = row_max + np.log(row_sum)
    return ForwardResult(out=out, lse=lse)


def flash_backward(q, k, v, out, lse, d_out, is_causal=False, scale=None, block_m=64, block_n=64) -> Gradients:
    """Tiled backward: delta pass, dK/dV pass over K blocks, dQ pass over Q blocks; P recomputed from lse."""
    *lead, m_len, d = q.shape
    n_len = k.shape[-2]
    sm_scale = ACC(_scale(scale, d))
    # delta is rowsum(dO * O) == rowsum(P * dP): it lets dS be formed one tile at a time
    delta = (d_out.astype(ACC) * out.astype(ACC)).sum(axis=-1)

    def tile(rows: range, cols: range):
        """Recompute P and dS for one (rows, cols) tile; both (..., len(rows), len(cols)), float32."""
        q_tile = q[..., rows.start : rows.stop, :].astype(ACC)
        do_tile = d_out[..., rows.start : rows.stop, :].astype(ACC)
        k_tile = k[..., cols.start : cols.stop, :].astype(ACC)
        v_tile = v[..., cols.start : cols.stop, :].astype(ACC)
        s = (q_tile @ np.swapaxes(k_tile, -1, -2)) * sm_scale
        p = np.exp(s - lse[..., rows.start : rows.stop, None])
        if is_causal:
            p = np.where(_causal_mask(rows, cols), ACC(0), p)
        dp = do_tile @ np.swapaxes(v_tile, -1, -2)
        ds = p * (dp - delta[..., rows.start : rows.stop, None])
        return q_tile, do_tile, k_tile, p, ds

    dk = np.empty(k.shape, dtype=k.dtype)
    dv = np.empty(v.shape, dtype=v.dtype)
    for cols in _blocks(n_len, block_n):  # one dK/dV program per K, V block
        dk_acc = np.zeros((*lead, len(cols), d), dtype=ACC)
        dv_acc = np.zeros((*lead, len(cols), d), dtype=ACC)
        for rows in _blocks(m_len, block_m):
            if is_causal and _fully_masked(rows, cols):
                continue  # Q rows before this K block see none of it
            q_tile, do_tile, _, p, ds = tile(rows, cols)
            dv_acc += np.swapaxes(p, -1, -2) @ do_tile
            dk_acc += np.swapaxes(ds, -1, -2) @ q_tile
        dk[..., cols.start : cols.stop, :] = (dk_acc * sm_scale).astype(k.dtype)
        dv[..., cols.start : cols.stop, :] = dv_acc.astype(v.dtype)

    dq = np.empty(q.shape, dtype=q.dtype)
    for rows in _blocks(m_len, block_m):  # one dQ program per Q block
        dq_acc = np.zeros((*lead, len(rows), d), dtype=ACC)
        for cols in _blocks(n_len, block_n):
            if is_causal and _fully_masked(rows, cols):
                break
            _, _, k_tile, _, ds = tile(rows, cols)
            dq_acc += ds @ k_tile
        dq[..., rows.start : rows.stop, :] = (dq_acc * sm_scale).astype(q.dtype)
    return Gradients(dq=dq, dk=dk, dv=dv)


def reference_forward(q, k, v, is_causal=False, scale=None) -> np.ndarray:
    """Unfused float64 attention: materializes the N x N scores and probabilities."""
    q, k, v = (x.astype(np.float64) for x in (q, k, v))
    s = (q @ np.swapaxes(k, -1, -2)) * _scale(scale, q.shape[-1])
    if is_causal:
        s = np.where(_causal_mask(range(q.shape[-2]), range(k.shape[-2])), -np.inf, s)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    return p @ v


def reference_backward(q, k, v, d_out, is_causal=False, scale=None) -> Gradients:
    """Unfused float64 gradients of softmax(Q K^T * scale) V, the textbook way."""
    q, k, v, d_out = (x.astype(np.float64) for x in (q, k, v, d_out))
    sm_scale = _scale(scale, q.shape[-1])
    s = (q @ np.swapaxes(k, -1, -2)) * sm_scale
    if is_causal:
        s = np.where(_causal_mask(range(q.shape[-2]), range(k.shape[-2])), -np.inf, s)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    dv = np.swapaxes(p, -1, -2) @ d_out
    dp = d_out @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (p * dp).sum(axis=-1, keepdims=True))  # softmax Jacobian applied row by row
    dq = ds @ k * sm_scale
    dk = np.swapaxes(ds, -1, -2) @ q * sm_scale
    return Gradients(dq=dq, dk=dk, dv=dv)


def relative_error(actual: np.ndarray, expected: np.ndarray) -> float:
    """max |actual - expected| / max |expected|: one number per tensor, insensitive to tiny entries."""
    expected = expected.astype(np.float64)
    denominator = float(np.abs(expected).max()) or 1.0
    return float(np.abs(actual.astype(np.float64) - expected).max()) / denominator


@dataclass(frozen=True)
class Case:
    batch: int
    heads: int
    seq: int
    head_dim: int
    causal: bool
    dtype: str = "float32"
    block_m: int = 64
    block_n: int = 64


# Awkward on purpose: sequence lengths that are not multiples of the block, a single partial block,
# head dims that are not powers of two.
DEFAULT_CASES = (
    Case(batch=2, heads=3, seq=200, head_dim=64, causal=False),
    Case(batch=2, heads=3, seq=200, head_dim=64, causal=True),
    Case(batch=1, heads=2, seq=77, head_dim=48, causal=True, block_m=32, block_n=64),
    Case(batch=1, heads=2, seq=130, head_dim=128, causal=False, dtype="float16", block_m=64, block_n=32),
)

# float32 tiles differ from float64 by reassociation only; float16 inputs and outputs round to 11 bits
TOLERANCE = {"float32": 1e-4, "float16": 1e-2}


def validate(case: Case, seed: int = 0) -> dict:
    """Runs the tiled forward + backward on random inputs and compares every output with float64."""
    rng = np.random.default_rng(seed)
    shape = (case.batch, case.heads, case.seq, case.head_dim)
    q, k, v, d_out = (rng.standard_normal(shape).astype(case.dtype) for _ in range(4))
    blocks = dict(block_m=case.block_m, block_n=case.block_n)
    fwd = flash_forward(q, k, v, is_causal=case.causal, **blocks)
    grads = flash_backward(q, k, v, fwd.out, fwd.lse, d_out, is_causal=case.causal, **blocks)
    ref_out = reference_forward(q, k, v, is_causal=case.causal)
    ref = reference_backward(q, k, v, d_out, is_causal=case.causal)
    errors = {
        "out": relative_error(fwd.out, ref_out),
        "dq": relative_error(grads.dq, ref.dq),
        "dk": relative_error(grads.dk, ref.dk),
        "dv": relative_error(grads.dv, ref.dv),
    }
    tolerance = TOLERANCE[case.dtype]
    return {
        "impl": "numpy-tiled",
        "batch": case.batch,
        "heads": case.heads,
        "seq": case.seq,
        "head_dim": case.head_dim,
        "causal": case.causal,
        "dtype": case.dtype,
        "block_m": case.block_m,
        "block_n": case.block_n,
        "rel_err": errors,
        "tolerance": tolerance,
        "passed": all(error <= tolerance for error in errors.values()),
    }


def main() -> None:
    for case in DEFAULT_CASES:
        row = validate(case)
        errs = "  ".join(f"{name}={value:.2e}" for name, value in row["rel_err"].items())
        verdict = "ok" if row["passed"] else "FAIL"
        print(
            f"B={case.batch} H={case.heads} N={case.seq} D={case.head_dim} causal={case.causal} "
            f"{case.dtype}: {errs}  {verdict}"
        )


if __name__ == "__main__":
    main()
