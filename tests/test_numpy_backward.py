"""The NumPy tiled FlashAttention-2 forward/backward against the unfused float64 reference."""

from __future__ import annotations

import numpy as np
import pytest

from skills.operator_adaptation import numpy_backward as nb


def _inputs(rng, batch, heads, seq_q, seq_k, head_dim, dtype="float32"):
    q = rng.standard_normal((batch, heads, seq_q, head_dim)).astype(dtype)
    k = rng.standard_normal((batch, heads, seq_k, head_dim)).astype(dtype)
    v = rng.standard_normal((batch, heads, seq_k, head_dim)).astype(dtype)
    d_out = rng.standard_normal((batch, heads, seq_q, head_dim)).astype(dtype)
    return q, k, v, d_out


# sequence lengths that are not multiples of the block, a single row, blocks of different shapes
@pytest.mark.parametrize(
    "seq, head_dim, block_m, block_n",
    [
        (1, 16, 16, 16),
        (17, 24, 16, 32),
        (100, 40, 32, 16),
        (129, 64, 64, 64),
        (203, 72, 64, 32),
    ],
)
@pytest.mark.parametrize("causal", [False, True])
def test_tiled_matches_float64(seq, head_dim, block_m, block_n, causal):
    rng = np.random.default_rng(seq * 7 + head_dim)
    q, k, v, d_out = _inputs(rng, 2, 3, seq, seq, head_dim)
    fwd = nb.flash_forward(q, k, v, is_causal=causal, block_m=block_m, block_n=block_n)
    grads = nb.flash_backward(q, k, v, fwd.out, fwd.lse, d_out, is_causal=causal, block_m=block_m, block_n=block_n)
    ref = nb.reference_backward(q, k, v, d_out, is_causal=causal)
    assert nb.relative_error(fwd.out, nb.reference_forward(q, k, v, is_causal=causal)) < 1e-5
    for name in ("dq", "dk", "dv"):
        assert nb.relative_error(getattr(grads, name), getattr(ref, name)) < 1e-5, name


def test_lse_is_the_row_logsumexp():
    rng = np.random.default_rng(1)
    q, k, v, _ = _inputs(rng, 1, 2, 70, 70, 32)
    fwd = nb.flash_forward(q, k, v, is_causal=True, block_m=16, block_n=32)
    s = (q.astype(np.float64) @ np.swapaxes(k, -1, -2).astype(np.float64)) / np.sqrt(32)
    s = np.where(np.triu(np.ones((70, 70), bool), 1), -np.inf, s)
    expected = np.log(np.exp(s - s.max(-1, keepdims=True)).sum(-1)) + s.max(-1)
    np.testing.assert_allclose(fwd.lse, expected, rtol=1e-5, atol=1e-5)


def test_different_query_and_key_lengths_with_explicit_scale():
    rng = np.random.default_rng(2)
    q, k, v, d_out = _inputs(rng, 1, 2, 45, 77, 32)
    fwd = nb.flash_forward(q, k, v, scale=0.3, block_m=32, block_n=16)
    grads = nb.flash_backward(q, k, v, fwd.out, fwd.lse, d_out, scale=0.3, block_m=32, block_n=16)
    ref = nb.reference_backward(q, k, v, d_out, scale=0.3)
    for name in ("dq", "dk", "dv"):
        assert nb.relative_error(getattr(grads, name), getattr(ref, name)) < 1e-5, name


def test_reference_backward_matches_finite_differences():
    # the float64 reference is the yardstick, so check it against the definition of a gradient
    rng = np.random.default_rng(3)
    q, k, v, d_out = (x.astype(np.float64) for x in _inputs(rng, 1, 1, 6, 6, 4))
    ref = nb.reference_backward(q, k, v, d_out, is_causal=True)
    eps = 1e-6
    for name, tensor, grad in (("q", q, ref.dq), ("k", k, ref.dk), ("v", v, ref.dv)):
        numeric = np.zeros_like(tensor)
        for index in np.ndindex(tensor.shape):
            saved = tensor[index]
            tensor[index] = saved + eps
            plus = (nb.reference_forward(q, k, v, is_causal=True) * d_out).sum()
            tensor[index] = saved - eps
            minus = (nb.reference_forward(q, k, v, is_causal=True) * d_out).sum()
            tensor[index] = saved
            numeric[index] = (plus - minus) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, rtol=1e-5, atol=1e-7, err_msg=name)


def test_backward_really_uses_the_saved_statistics():
    # P is recomputed from the saved lse and delta from O: wrong statistics must give wrong gradients
    rng = np.random.default_rng(4)
    q, k, v, d_out = _inputs(rng, 1, 1, 40, 40, 16)
    fwd = nb.flash_forward(q, k, v)
    ref = nb.reference_backward(q, k, v, d_out)
    shifted = nb.flash_backward(q, k, v, fwd.out, fwd.lse + 0.1, d_out)
    assert nb.relative_error(shifted.dv, ref.dv) > 0.05
    wrong_out = nb.flash_backward(q, k, v, fwd.out * 1.1, fwd.lse, d_out)
    assert nb.relative_error(wrong_out.dq, ref.dq) > 1e-3


def test_validate_reports_every_error_and_passes_the_default_cases():
    rows = [nb.validate(case) for case in nb.DEFAULT_CASES]
    assert {row["causal"] for row in rows} == {True, False}
    assert any(row["seq"] % row["block_m"] for row in rows)
    for row in rows:
        assert set(row["rel_err"]) == {"out", "dq", "dk", "dv"}
        assert row["passed"], row
    fp16 = next(row for row in rows if row["dtype"] == "float16")
    assert 0 < max(fp16["rel_err"].values()) < fp16["tolerance"]
