"""Issue 14's features of the Triton attention, run by Triton's CPU interpreter (TRITON_INTERPRET=1).

GQA/MQA, sliding windows, bottom-right causal alignment, packed variable-length sequences and the deterministic
backward: checked by kernel_check's rule (within 2x of PyTorch's same-dtype error vs float64, NaN-poisoned
outputs), and against SDPA itself with an explicit boolean mask where SDPA can express the problem. Then the
public entries: SDPA's GQA semantics and errors, attention_varlen against one call per sequence, and the
bad-argument errors.
"""

import math

import pytest
from conftest import validate_on_cpu

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

import torch.nn.functional as F  # noqa: E402

from skills.operator_adaptation import attention, attention_varlen, kernel_check, launch  # noqa: E402
from skills.operator_adaptation.tuner import Tuner  # noqa: E402


@pytest.mark.parametrize(
    "dtype, strategy",
    [(torch.bfloat16, "fused_dq"), (torch.float16, "split_dq")],
    ids=["bf16-fused-dq", "fp16-split-dq"],
)
def test_features_within_twice_pytorch_error(dtype, strategy):
    rows = validate_on_cpu(kernel_check.SMALL_FEATURE_CASES, dtype, strategy, seed=4321)
    assert all(row["repeat_bitwise_equal"] for row in rows if row["deterministic"])


def _leaves(*shapes, dtype=torch.bfloat16, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(*shape, generator=gen).to(dtype).requires_grad_() for shape in shapes]


def _sdpa64(q, k, v, **kwargs):
    """SDPA itself in float64 (its math path on the CPU): an independent reference, gradients included."""
    leaves = [t.detach().double().requires_grad_() for t in (q, k, v)]
    return F.scaled_dot_product_attention(*leaves, **kwargs), leaves


def _rel(a, b):
    return ((a.double() - b).norm() / b.norm()).item()


def _assert_matches(ours, ours_leaves, ref, ref_leaves, tol=2e-2):
    ours.backward(torch.ones_like(ours))
    ref.backward(torch.ones_like(ref))
    assert _rel(ours, ref) < tol
    for mine, theirs in zip(ours_leaves, ref_leaves, strict=True):
        assert mine.grad.shape == theirs.shape
        assert _rel(mine.grad, theirs.grad) < tol


# ------------------------------------------------------------------------------------------------------ GQA


def test_gqa_is_sdpa_enable_gqa():
    q, k, v = _leaves((2, 6, 23, 32), (2, 2, 23, 32), (2, 2, 23, 32))
    ref, ref_leaves = _sdpa64(q, k, v, is_causal=True, enable_gqa=True)
    _assert_matches(attention(q, k, v, is_causal=True, enable_gqa=True), (q, k, v), ref, ref_leaves)


def test_mqa_with_strided_inputs():
    gen = torch.Generator().manual_seed(2)
    q = torch.randn(1, 19, 4, 16, generator=gen).to(torch.float16).transpose(1, 2).requires_grad_()
    k = torch.randn(1, 30, 1, 16, generator=gen).to(torch.float16).transpose(1, 2).requires_grad_()
    v = torch.randn(1, 30, 1, 16, generator=gen).to(torch.float16).transpose(1, 2).requires_grad_()
    ref, ref_leaves = _sdpa64(q, k, v, enable_gqa=True)
    _assert_matches(attention(q, k, v, enable_gqa=True), (q, k, v), ref, ref_leaves, tol=5e-3)


def test_gqa_reduces_dk_dv_in_the_kernel(monkeypatch):
    # no copy of K, V per query head (SDPA's math path repeats them), and the dK/dV kernel runs one program per kv
    # head: its grid's second axis is batch x kv heads
    def refuse(*args, **kwargs):
        raise AssertionError("repeat_interleave called: K and V were copied per query head")

    monkeypatch.setattr(torch.Tensor, "repeat_interleave", refuse)
    monkeypatch.setattr(torch, "repeat_interleave", refuse)
    grids = []
    real = launch.kernels._attn_bwd_dkdv

    class Recording:
        def __getitem__(self, grid):
            grids.append(grid)
            return real[grid]

    monkeypatch.setattr(launch.kernels, "_attn_bwd_dkdv", Recording())
    q, k, v = _leaves((3, 8, 16, 16), (3, 2, 16, 16), (3, 2, 16, 16))
    attention(q, k, v, enable_gqa=True).sum().backward()
    assert grids and all(grid[1] == 3 * 2 for grid in grids)
    assert k.grad.shape == (3, 2, 16, 16)


def test_mismatched_heads_are_sdpa_error():
    q, k, v = _leaves((1, 8, 4, 16), (1, 2, 4, 16), (1, 2, 4, 16))
    with pytest.raises(RuntimeError) as sdpa_error:
        F.scaled_dot_product_attention(q, k, v)
    with pytest.raises(RuntimeError) as ours:
        attention(q, k, v)
    assert str(ours.value).startswith(str(sdpa_error.value)) and "enable_gqa=True" in str(ours.value)
    k3, v3 = _leaves((1, 3, 4, 16), (1, 3, 4, 16))
    with pytest.raises(RuntimeError, match="must divide"):
        attention(q, k3, v3, enable_gqa=True)


# --------------------------------------------------------------------------------------- windows, alignment


@pytest.mark.parametrize(
    "n_q, n_k, causal, window, align",
    [
        (40, 40, False, (7, 3), "top_left"),
        (40, 40, True, (12, -1), "top_left"),
        (20, 50, True, (-1, -1), "bottom_right"),
        (20, 50, False, (5, 5), "bottom_right"),
        (33, 21, False, (-1, 0), "top_left"),
    ],
    ids=["window-7-3", "causal-window-12", "bottom-right-causal", "bottom-right-window", "right-0-is-causal"],
)
def test_masks_match_sdpa_with_the_same_boolean_mask(n_q, n_k, causal, window, align):
    q, k, v = _leaves((1, 2, n_q, 32), (1, 2, n_k, 32), (1, 2, n_k, 32), seed=n_q + n_k)
    visible = kernel_check.visible_keys(n_q, n_k, causal, window, align == "bottom_right")
    assert visible.any(dim=1).all()  # SDPA gives NaN for a row that sees nothing: those are tested apart
    ref, ref_leaves = _sdpa64(q, k, v, attn_mask=visible)
    out = attention(q, k, v, is_causal=causal, window=window, causal_align=align)
    _assert_matches(out, (q, k, v), ref, ref_leaves)


def test_window_semantics_by_hand():
    # window (1, 0): query i sees keys i-1 and i; with equal keys' values the output is their softmax mix
    q, k, v = (t.detach() for t in _leaves((1, 1, 6, 16), (1, 1, 6, 16), (1, 1, 6, 16), dtype=torch.float16))
    out = attention(q, k, v, window=(1, 0)).double()
    scale = 1 / math.sqrt(16)
    for i in range(6):
        keys = range(max(0, i - 1), i + 1)
        scores = torch.stack([(q[0, 0, i].double() @ k[0, 0, j].double()) * scale for j in keys])
        expected = (torch.softmax(scores, 0)[:, None] * torch.stack([v[0, 0, j].double() for j in keys])).sum(0)
        assert torch.allclose(out[0, 0, i], expected, atol=2e-3)


def test_top_left_and_bottom_right_differ_when_lengths_differ():
    q, k, v = (t.detach() for t in _leaves((1, 2, 8, 16), (1, 2, 24, 16), (1, 2, 24, 16)))
    top_left = attention(q, k, v, is_causal=True)
    ref, _ = _sdpa64(q, k, v, is_causal=True)  # SDPA's is_causal is top-left
    assert _rel(top_left, ref) < 2e-2
    bottom_right = attention(q, k, v, is_causal=True, causal_align="bottom_right")
    assert _rel(bottom_right, ref) > 0.1
    chunked = attention(q, k, v, is_causal=True, causal_align="bottom_right")  # the last query sees every key
    full, _ = _sdpa64(q[:, :, -1:], k, v)
    assert _rel(chunked[:, :, -1:], full) < 2e-2


def test_rows_that_see_no_key_give_zero():
    # bottom-right with more queries than keys: the first n_q - n_k queries see nothing (FlashAttention's 0)
    q, k, v = _leaves((1, 2, 30, 16), (1, 2, 10, 16), (1, 2, 10, 16))
    out = attention(q, k, v, is_causal=True, causal_align="bottom_right")
    out.sum().backward()
    assert torch.isfinite(out).all() and torch.isfinite(q.grad).all()
    assert out[:, :, :20].abs().max() == 0 and q.grad[:, :, :20].abs().max() == 0
    ref, _ = _sdpa64(q[:, :, 20:], k, v, is_causal=True)  # the rest is plain causal on the last 10 rows
    assert _rel(out[:, :, 20:], ref) < 2e-2


# ------------------------------------------------------------------------------------------------- varlen


def _packed(lengths, heads, head_dim, dtype=torch.bfloat16, seed=0):
    gen = torch.Generator().manual_seed(seed)
    t = torch.randn(sum(lengths), heads, head_dim, generator=gen).to(dtype).requires_grad_()
    cu = torch.tensor([0, *torch.tensor(lengths).cumsum(0).tolist()], dtype=torch.int32)
    return t, cu


@pytest.mark.parametrize("causal", [True, False], ids=["causal", "full"])
def test_varlen_equals_one_call_per_sequence(causal):
    lengths_q, lengths_k = [13, 1, 40, 22], [13, 9, 40, 30]
    q, cu_q = _packed(lengths_q, 4, 32, seed=1)
    k, cu_k = _packed(lengths_k, 2, 32, seed=2)
    v, _ = _packed(lengths_k, 2, 32, seed=3)
    out = attention_varlen(q, k, v, cu_q, cu_k, max(lengths_q), max(lengths_k), is_causal=causal, enable_gqa=True)
    assert out.shape == q.shape
    grad_out = torch.randn(out.shape, generator=torch.Generator().manual_seed(4)).to(out.dtype)
    out.backward(grad_out)
    bhsd = lambda t: t.transpose(0, 1).unsqueeze(0)  # noqa: E731
    for b in range(len(lengths_q)):
        rows_q, rows_k = slice(cu_q[b], cu_q[b + 1]), slice(cu_k[b], cu_k[b + 1])
        qs, ks, vs = (bhsd(t[rows]).detach().requires_grad_() for t, rows in ((q, rows_q), (k, rows_k), (v, rows_k)))
        one = attention(qs, ks, vs, is_causal=causal, enable_gqa=True, causal_align="bottom_right")
        one.backward(bhsd(grad_out[rows_q]))
        assert torch.equal(bhsd(out[rows_q]), one)  # the same kernels and tiles: the same bits
        for packed, rows, single in ((q, rows_q, qs), (k, rows_k, ks), (v, rows_k, vs)):
            assert _rel(bhsd(packed.grad[rows]), single.grad.double()) < 1e-2


def test_varlen_bad_lengths_are_refused():
    q, cu = _packed([5, 7], 2, 16)
    with pytest.raises(ValueError, match="int32"):
        attention_varlen(q, q, q, cu.long(), cu, 7, 7)
    with pytest.raises(ValueError, match="rise from 0 to the 12 tokens"):
        attention_varlen(q, q, q, torch.tensor([0, 5, 11], dtype=torch.int32), cu, 7, 7)
    with pytest.raises(ValueError, match="longer than max_seqlen_q=6"):
        attention_varlen(q, q, q, cu, cu, 6, 7)
    with pytest.raises(ValueError, match="rank 3"):
        attention_varlen(q[None], q[None], q[None], cu, cu, 7, 7)
    with pytest.raises(ValueError, match="empty input"):
        attention_varlen(q[:0], q, q, torch.tensor([0, 0], dtype=torch.int32), cu[[0, 2]], 0, 12)


# ------------------------------------------------------------------------------------- deterministic


def test_deterministic_backward_is_bitwise_repeatable_and_atomic_free():
    q, k, v = _leaves((1, 4, 40, 32), (1, 2, 40, 32), (1, 2, 40, 32))
    grads = []
    for _ in range(2):
        for t in (q, k, v):
            t.grad = None
        attention(q, k, v, is_causal=True, enable_gqa=True, deterministic=True).sum().backward()
        grads.append([t.grad.clone() for t in (q, k, v)])
    assert all(torch.equal(a, b) for a, b in zip(*grads, strict=True))
    # whatever the tuner or the environment would pick, the deterministic backward has no atomics
    forced = Tuner(None, dq_strategy="fused_dq")
    assert launch.strategies(torch.device("cpu"), forced, deterministic=True) == ["split_dq"]
    assert launch.strategies(torch.device("cpu"), forced) == ["fused_dq"]


# ------------------------------------------------------------------------------------------- bad options


@pytest.mark.parametrize(
    "options, words",
    [
        ({"window": (3,)}, "window must be"),
        ({"window": (-2, 4)}, "window must be"),
        ({"window": (1.5, 2)}, "window must be"),
        ({"causal_align": "diagonal"}, "causal_align"),
        ({"scale": float("nan")}, "scale"),
    ],
    ids=["window-length", "window-negative", "window-float", "align", "scale"],
)
def test_bad_options_are_refused(options, words):
    q, k, v = (t.detach() for t in _leaves((1, 1, 4, 16), (1, 1, 4, 16), (1, 1, 4, 16)))
    with pytest.raises(ValueError, match=words):
        attention(q, k, v, **options)
