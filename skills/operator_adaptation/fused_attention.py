"""Fused scaled-dot-product attention with a fused backward, in Triton: a drop-in for training.

    from skills.operator_adaptation import attention
    out = attention(q, k, v, is_causal=True, enable_gqa=True)   # q: (batch, heads, seq, head_dim), bf16 or fp16
    model = torch.compile(model, fullgraph=True)                # traces through: registered custom operators

The argument names and layout are those of ``torch.nn.functional.scaled_dot_product_attention``, and so is
grouped-query attention (``enable_gqa=True``: k and v have heads dividing q's heads; q head h reads kv head
h // (heads / kv_heads); without it, mismatched heads are SDPA's error). Beyond SDPA, as keyword arguments
(FlashAttention's conventions): ``window=(left, right)`` a sliding window around the diagonal (-1 unbounded;
query i sees key j when j - (i + shift) lies in [-left, right]), ``causal_align="top_left"`` (SDPA's is_causal:
shift = 0, query i sees keys j <= i) or ``"bottom_right"`` (FlashAttention's: shift = n_k - n_q, the last
query sees the last key: a query chunk appended to a longer key history), and ``deterministic=True`` (a
backward without atomics and with a fixed summation order: bitwise the same gradients on every run, at the
cost of recomputing S and dP for dQ). A row that sees no key gives 0.

``attention_varlen`` takes packed variable-length batches as FlashAttention's varlen API does:
(total_tokens, heads, head_dim) tensors, int32 ``cu_seqlens_q``/``cu_seqlens_k`` (batch + 1 cumulative
lengths) and the longest lengths ``max_seqlen_q``/``max_seqlen_k``; no padding is computed. Its causal
alignment defaults to bottom-right, as FlashAttention's varlen function aligns it.

The forward keeps only O and the per-row log-sum-exp for the backward (O(N) extra memory, not O(N^2)). Both
passes are PyTorch custom operators (``torch.ops.shijie.attention_forward`` / ``attention_backward``) with
fake implementations and a registered autograd formula, so ``torch.compile(fullgraph=True)`` traces through
them without a graph break and ``torch.library.opcheck`` passes; the tile tuner runs only inside the
operators' real implementations, never while a graph is traced. Outside a trace ``attention()`` calls the same
implementations through a plain ``torch.autograd.Function`` (``_EagerAttention``): the operators' eager dispatch
cost more host time than the launches themselves (docs/perf.md, "Host overhead and the grid again"). This module checks arguments (as plain
Python on shapes and dtypes, which Dynamo traces) and registers the operators; ``launch`` picks tiles and
launches the kernels of ``_triton_attention`` (and, on sm90, the Hopper backward).

Tile configurations: the candidates are planned from the device's hardware profile (``tile_plan``: shared
memory, register file), then timed on the device the first time a shape class is seen, together with the
way dQ is produced (separate kernel or fused with reduce-adds), by a ``tuner.Tuner``: the winner is kept in
memory and in a JSON file in the user's cache directory, and ``chosen_configs()`` lists what was picked.
Under ``TRITON_INTERPRET=1`` (CPU), and for problems too small to be worth timing, the first candidate is
used untimed. A deterministic backward is deterministic for a given tile choice: the tuner keeps its picks,
so one process (and one cache file) gives the same bits each run.
"""

from __future__ import annotations

import itertools
import math

import torch

from . import launch
from .tuner import default_tuner

SUPPORTED_DTYPES = (torch.bfloat16, torch.float16)
MAX_HEAD_DIM = 256
CAUSAL_ALIGNMENTS = ("top_left", "bottom_right")


# ------------------------------------------------------------------------------------------- argument checks


def _check_tensors(q, k, v, rank: int, layout: str, enable_gqa: bool, entry: str = "attention") -> None:
    """Types, ranks, dtypes, devices and heads of q, k, v: heads at dim -2 of ``layout`` 'bhsd' ... or 'thd'."""
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{entry}: {name} must be a torch.Tensor, got {type(t).__name__}")
        if t.dim() != rank:
            raise ValueError(f"{entry}: {name} must have rank {rank} {layout}, got shape {tuple(t.shape)}")
        if t.dtype not in SUPPORTED_DTYPES:
            raise TypeError(
                f"{entry}: {name} has dtype {t.dtype}; the kernel takes torch.bfloat16 or torch.float16 "
                "(fp32 would run the tensor cores in tf32 and lose fp32 accuracy: cast with .to(torch.bfloat16) "
                "or use torch.nn.functional.scaled_dot_product_attention)"
            )
    if not (q.dtype == k.dtype == v.dtype):
        raise TypeError(f"{entry}: q, k, v must share one dtype, got {q.dtype}, {k.dtype}, {v.dtype}")
    if not (q.device == k.device == v.device):
        raise ValueError(f"{entry}: q, k, v must be on one device, got {q.device}, {k.device}, {v.device}")
    if q.device.type != "cuda" and not (q.device.type == "cpu" and launch.INTERPRETER):
        raise ValueError(
            f"{entry}: tensors are on {q.device}; the kernel needs a CUDA device "
            "(on the CPU it runs only in Triton's interpreter: set TRITON_INTERPRET=1 before importing triton)"
        )
    if k.shape != v.shape:
        raise ValueError(f"{entry}: k and v must have the same shape, got {tuple(k.shape)} and {tuple(v.shape)}")
    head_dim, heads, kv_heads = q.shape[-1], q.shape[-3 if rank == 4 else -2], k.shape[-3 if rank == 4 else -2]
    if k.shape[-1] != head_dim:
        raise ValueError(f"{entry}: q {tuple(q.shape)} and k {tuple(k.shape)} must agree in head_dim")
    if heads != kv_heads:
        if not enable_gqa:  # SDPA's own words for this case (its math path broadcasting q @ k^T)
            raise RuntimeError(
                f"The size of tensor a ({heads}) must match the size of tensor b ({kv_heads}) at non-singleton "
                f"dimension {rank - 3} ({entry}: q has {heads} heads, k and v {kv_heads}; "
                "pass enable_gqa=True for grouped-query attention)"
            )
        if kv_heads < 1 or heads % kv_heads:
            raise RuntimeError(
                f"{entry}: with enable_gqa the number of heads of k and v ({kv_heads}) must divide the number "
                f"of heads of q ({heads})"
            )
    if not 1 <= head_dim <= MAX_HEAD_DIM:
        raise ValueError(f"{entry}: head_dim must be between 1 and {MAX_HEAD_DIM}, got {head_dim}")
    if min(q.shape[:-1]) < 1 or min(k.shape[:-1]) < 1:
        raise ValueError(f"{entry}: empty input, q {tuple(q.shape)}, k {tuple(k.shape)}")


def _check_options(scale, window, causal_align: str, entry: str) -> tuple[int, int]:
    """scale, window and causal_align; returns the window as two ints (-1: unbounded)."""
    if scale is not None and (
        isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale)
    ):
        raise ValueError(f"{entry}: scale must be a finite number or None, got {scale!r}")
    if causal_align not in CAUSAL_ALIGNMENTS:
        raise ValueError(f"{entry}: causal_align must be 'top_left' or 'bottom_right', got {causal_align!r}")
    if window is None:
        return -1, -1
    if (
        not isinstance(window, (tuple, list))
        or len(window) != 2
        or not all(isinstance(w, int) and not isinstance(w, bool) and w >= -1 for w in window)
    ):
        raise ValueError(f"{entry}: window must be (left, right), two ints >= -1 (-1: unbounded), got {window!r}")
    return int(window[0]), int(window[1])


def _check_seqlens(cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, q, k) -> None:
    """What can be checked without reading the device: types, shapes, devices (the values are checked by the
    forward operator, ``_check_seqlen_values``)."""
    for name, cu in (("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_k", cu_seqlens_k)):
        if not isinstance(cu, torch.Tensor) or cu.dtype != torch.int32 or cu.dim() != 1 or cu.shape[0] < 2:
            raise ValueError(
                f"attention_varlen: {name} must be a 1-d torch.int32 tensor of batch + 1 cumulative lengths, got "
                + (f"{cu.dtype} of shape {tuple(cu.shape)}" if isinstance(cu, torch.Tensor) else type(cu).__name__)
            )
        if cu.device != q.device:
            raise ValueError(f"attention_varlen: {name} is on {cu.device}, q on {q.device}: put both on one device")
    if cu_seqlens_q.shape != cu_seqlens_k.shape:
        raise ValueError(
            f"attention_varlen: cu_seqlens_q and cu_seqlens_k must have one entry per sequence + 1 each, got "
            f"{cu_seqlens_q.shape[0]} and {cu_seqlens_k.shape[0]}"
        )
    for name, value in (("max_seqlen_q", max_seqlen_q), ("max_seqlen_k", max_seqlen_k)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"attention_varlen: {name} must be an int >= 0, got {value!r}")


def _check_seqlen_values(cu_seqlens_q, cu_seqlens_k, max_seqlen_q: int, max_seqlen_k: int, q, k) -> None:
    """The cumulative lengths start at 0, never decrease, end at the tensors' token counts, and no sequence is
    longer than its max_seqlen (a longer one would leave rows unwritten). Reads the two small tensors once."""
    for name, cu, total, longest in (
        ("cu_seqlens_q", cu_seqlens_q, q.shape[0], max_seqlen_q),
        ("cu_seqlens_k", cu_seqlens_k, k.shape[0], max_seqlen_k),
    ):
        offsets = cu.tolist()
        lengths = [b - a for a, b in itertools.pairwise(offsets)]
        if offsets[0] != 0 or min(lengths) < 0 or offsets[-1] != total:
            raise ValueError(
                f"attention_varlen: {name} must rise from 0 to the {total} tokens of its tensor, got {offsets[:8]}"
                + (" ..." if len(offsets) > 8 else "")
            )
        if max(lengths) > longest:
            suffix = name.removeprefix("cu_seqlens_")
            raise ValueError(
                f"attention_varlen: a sequence of {max(lengths)} tokens is longer than max_seqlen_{suffix}={longest}"
            )


# ------------------------------------------------------------------------------------- custom operators


def _varlen(cu_seqlens_q, cu_seqlens_k, max_seqlen_q: int, max_seqlen_k: int) -> launch.Varlen | None:
    if cu_seqlens_q is None or cu_seqlens_k is None:
        return None
    return launch.Varlen(cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k)


@torch.library.custom_op("shijie::attention_forward", mutates_args=())
def _forward_op(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    cu_seqlens_q: torch.Tensor | None,
    cu_seqlens_k: torch.Tensor | None,
    max_seqlen_q: int,
    max_seqlen_k: int,
    causal: bool,
    scale: float,
    window_left: int,
    window_right: int,
    bottom_right: bool,
    deterministic: bool,
) -> tuple[torch.Tensor, torch.Tensor]:
    """(O, row LSE in log2 units): LSE (batch, heads, n_q), or (heads, total_q) for packed sequences.
    ``deterministic`` only travels to the backward."""
    return _forward_impl(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, causal, scale,
                         window_left, window_right, bottom_right, deterministic)  # fmt: skip


def _forward_impl(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, causal, scale, window_left,
                  window_right, bottom_right, deterministic):  # fmt: skip
    """What both paths run (the operator's real implementation, and the eager autograd.Function)."""
    varlen = _varlen(cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k)
    if varlen is not None:
        _check_seqlen_values(cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, q, k)
    window = (window_left, window_right)
    return launch.forward(q, k, v, causal, scale, window=window, bottom_right=bottom_right, varlen=varlen)


@_forward_op.register_fake
def _forward_fake(q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, *_):
    lse_shape = (q.shape[1], q.shape[0]) if cu_seqlens_q is not None else q.shape[:3]
    return q.new_empty(q.shape), q.new_empty(lse_shape, dtype=torch.float32)


@torch.library.custom_op("shijie::attention_backward", mutates_args=())
def _backward_op(
    do: torch.Tensor,
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    o: torch.Tensor,
    lse: torch.Tensor,
    cu_seqlens_q: torch.Tensor | None,
    cu_seqlens_k: torch.Tensor | None,
    max_seqlen_q: int,
    max_seqlen_k: int,
    causal: bool,
    scale: float,
    window_left: int,
    window_right: int,
    bottom_right: bool,
    deterministic: bool,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(dQ, dK, dV) of the forward that gave o and lse."""
    return _backward_impl(do, q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, causal,
                          scale, window_left, window_right, bottom_right, deterministic)  # fmt: skip


def _backward_impl(do, q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, causal, scale,
                   window_left, window_right, bottom_right, deterministic):  # fmt: skip
    varlen = _varlen(cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k)
    return launch.backward(
        q, k, v, o, lse, do, causal, scale, window=(window_left, window_right), bottom_right=bottom_right,
        varlen=varlen, deterministic=deterministic,
    )  # fmt: skip


@_backward_op.register_fake
def _backward_fake(do, q, k, v, *_):
    return q.new_empty(q.shape), k.new_empty(k.shape), v.new_empty(v.shape)


def _setup_context(ctx, inputs, output) -> None:
    q, k, v, cu_seqlens_q, cu_seqlens_k, *options = inputs
    o, lse = output
    ctx.save_for_backward(q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k)  # O and the row LSE: never the N x N matrix
    ctx.options = options
    ctx.mark_non_differentiable(lse)


def _backward(ctx, do, _dlse):
    q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k = ctx.saved_tensors
    dq, dk, dv = torch.ops.shijie.attention_backward(do, q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k, *ctx.options)
    return dq, dk, dv, *([None] * (2 + len(ctx.options)))


torch.library.register_autograd("shijie::attention_forward", _backward, setup_context=_setup_context)


class _EagerAttention(torch.autograd.Function):
    """The eager path: the same launchers as the operators above, with the same arguments (so the same bits),
    called from a plain autograd.Function. Outside a trace a custom operator only adds dispatch: schema
    parsing of the arguments, their defaults filled in, the aliasing checks, a Dynamo-disabled frame, the
    autograd wrapper (measured: benchmarks/attention_host.py, docs/perf.md "Host overhead and the grid
    again"), and a zero LSE gradient made for every backward. ``attention()`` takes this path unless
    ``torch.compiler.is_compiling()``, so traced graphs still hold the operators."""

    @staticmethod
    def forward(ctx, q, k, v, cu_seqlens_q, cu_seqlens_k, *options):
        o, lse = _forward_impl(q, k, v, cu_seqlens_q, cu_seqlens_k, *options)
        ctx.save_for_backward(q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k)
        ctx.options = options
        return o

    @staticmethod
    def backward(ctx, do):
        q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k = ctx.saved_tensors
        dq, dk, dv = _backward_impl(do, q, k, v, o, lse, cu_seqlens_q, cu_seqlens_k, *ctx.options)
        return dq, dk, dv, *([None] * (2 + len(ctx.options)))


def _attention(*args) -> torch.Tensor:
    """O of the attention: through the custom operator while torch.compile traces, else the eager path."""
    if torch.compiler.is_compiling():
        return torch.ops.shijie.attention_forward(*args)[0]
    return _EagerAttention.apply(*args)


# --------------------------------------------------------------------------------------------- public API


def chosen_configs() -> list[dict]:
    """Every tile configuration the default tuner picked so far: one dict per (kernel, shape class)."""
    return default_tuner().chosen_configs()


def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
    *,
    window: tuple[int, int] | None = None,
    causal_align: str = "top_left",
    deterministic: bool = False,
) -> torch.Tensor:
    """softmax(scale * q @ k^T [mask]) @ v for (batch, heads, seq, head_dim) bf16/fp16 tensors.

    Same arguments as ``torch.nn.functional.scaled_dot_product_attention`` (``scale`` defaults to
    1/sqrt(head_dim); ``is_causal`` masks keys past each query's diagonal; ``enable_gqa`` lets k, v have fewer
    heads, dividing q's). Beyond them: ``window=(left, right)`` (-1 unbounded), ``causal_align`` ("top_left",
    SDPA's, or "bottom_right", FlashAttention's), ``deterministic`` (bitwise-reproducible gradients). q and
    k/v may have different sequence lengths; any strides are accepted. Differentiable in q, k and v.
    """
    _check_tensors(q, k, v, 4, "(batch, heads, seq, head_dim)", enable_gqa)
    if k.shape[0] != q.shape[0]:
        raise ValueError(f"attention: q {tuple(q.shape)} and k {tuple(k.shape)} must agree in batch")
    left, right = _check_options(scale, window, causal_align, "attention")
    sm_scale = float(scale) if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    return _attention(
        q, k, v, None, None, q.shape[2], k.shape[2], bool(is_causal), sm_scale, left, right,
        causal_align == "bottom_right", bool(deterministic),
    )  # fmt: skip


def attention_varlen(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    cu_seqlens_q: torch.Tensor,
    cu_seqlens_k: torch.Tensor,
    max_seqlen_q: int,
    max_seqlen_k: int,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
    *,
    window: tuple[int, int] | None = None,
    causal_align: str = "bottom_right",
    deterministic: bool = False,
) -> torch.Tensor:
    """Attention over packed sequences: q (total_q, heads, head_dim), k and v (total_k, kv_heads, head_dim);
    sequence b is rows cu_seqlens_q[b]:cu_seqlens_q[b+1] of q and cu_seqlens_k[b]:cu_seqlens_k[b+1] of k and v
    (int32, batch + 1 entries each, as FlashAttention's ``flash_attn_varlen_func``); ``max_seqlen_*`` the longest
    lengths. Each sequence attends only to itself; the masks apply per sequence, aligned bottom-right by
    default (FlashAttention's varlen convention; "top_left" for SDPA's). Returns (total_q, heads, head_dim).
    """
    _check_tensors(q, k, v, 3, "(total_tokens, heads, head_dim)", enable_gqa, "attention_varlen")
    _check_seqlens(cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, q, k)
    left, right = _check_options(scale, window, causal_align, "attention_varlen")
    sm_scale = float(scale) if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    return _attention(
        q, k, v, cu_seqlens_q, cu_seqlens_k, int(max_seqlen_q), int(max_seqlen_k), bool(is_causal), sm_scale,
        left, right, causal_align == "bottom_right", bool(deterministic),
    )  # fmt: skip
