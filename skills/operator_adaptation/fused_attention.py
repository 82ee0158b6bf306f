"""Fused scaled-dot-product attention with a fused backward, in Triton.

    from skills.operator_adaptation import attention
    out = attention(q, k, v, is_causal=True)      # q, k, v: (batch, heads, seq, head_dim), bf16 or fp16
    out.sum().backward()

The argument names and layout are those of ``torch.nn.functional.scaled_dot_product_attention``. The forward
keeps only O and the per-row log-sum-exp for the backward (O(N) extra memory, not O(N^2)). This module checks
arguments and is the autograd entry; ``launch`` picks tiles and launches the kernels of ``_triton_attention``.

Tile configurations: the candidates are planned from the device's hardware profile (``tile_plan``: shared
memory, register file), then timed on the device the first time a shape class is seen, together with the
way dQ is produced (separate kernel or fused with reduce-adds), by a ``tuner.Tuner``: the winner is kept in
memory and in a JSON file in the user's cache directory, and ``chosen_configs()`` lists what was picked.
Under ``TRITON_INTERPRET=1`` (CPU), and for problems too small to be worth timing, the first candidate is
used untimed.

Causal masking is aligned top-left, as in SDPA: query row i sees key columns j <= i.
"""

from __future__ import annotations

import math

import torch

from . import launch
from .tuner import default_tuner

SUPPORTED_DTYPES = (torch.bfloat16, torch.float16)
MAX_HEAD_DIM = 256


# ------------------------------------------------------------------------------------------- argument checks


def _check_inputs(q, k, v, scale) -> None:
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"attention: {name} must be a torch.Tensor, got {type(t).__name__}")
        if t.dim() != 4:
            raise ValueError(
                f"attention: {name} must have rank 4 (batch, heads, seq, head_dim), got shape {tuple(t.shape)}"
            )
        if t.dtype not in SUPPORTED_DTYPES:
            raise TypeError(
                f"attention: {name} has dtype {t.dtype}; the kernel takes torch.bfloat16 or torch.float16 "
                "(fp32 would run the tensor cores in tf32 and lose fp32 accuracy: cast with .to(torch.bfloat16) "
                "or use torch.nn.functional.scaled_dot_product_attention)"
            )
    if not (q.dtype == k.dtype == v.dtype):
        raise TypeError(f"attention: q, k, v must share one dtype, got {q.dtype}, {k.dtype}, {v.dtype}")
    if not (q.device == k.device == v.device):
        raise ValueError(f"attention: q, k, v must be on one device, got {q.device}, {k.device}, {v.device}")
    if q.device.type != "cuda" and not (q.device.type == "cpu" and launch.INTERPRETER):
        raise ValueError(
            f"attention: tensors are on {q.device}; the kernel needs a CUDA device "
            "(on the CPU it runs only in Triton's interpreter: set TRITON_INTERPRET=1 before importing triton)"
        )
    batch, heads, _, head_dim = q.shape
    if k.shape != v.shape:
        raise ValueError(f"attention: k and v must have the same shape, got {tuple(k.shape)} and {tuple(v.shape)}")
    if k.shape[0] != batch or k.shape[1] != heads or k.shape[3] != head_dim:
        raise ValueError(
            f"attention: q {tuple(q.shape)} and k {tuple(k.shape)} must agree in batch, heads and head_dim "
            "(only the sequence length may differ)"
        )
    if not 1 <= head_dim <= MAX_HEAD_DIM:
        raise ValueError(f"attention: head_dim must be between 1 and {MAX_HEAD_DIM}, got {head_dim}")
    if q.shape[2] < 1 or k.shape[2] < 1 or batch < 1 or heads < 1:
        raise ValueError(f"attention: empty input, q {tuple(q.shape)}, k {tuple(k.shape)}")
    if scale is not None and (not isinstance(scale, (int, float)) or not math.isfinite(scale)):
        raise ValueError(f"attention: scale must be a finite number or None, got {scale!r}")


# --------------------------------------------------------------------------------------------- public API


def chosen_configs() -> list[dict]:
    """Every tile configuration the default tuner picked so far: one dict per (kernel, shape class)."""
    return default_tuner().chosen_configs()


class _FusedAttention(torch.autograd.Function):
    @staticmethod
    def forward(ctx, q, k, v, is_causal: bool, sm_scale: float):
        o, lse = launch.forward(q, k, v, is_causal, sm_scale)
        ctx.save_for_backward(q, k, v, o, lse)  # O and the row LSE: O(N) extra, never the N x N matrix
        ctx.is_causal = is_causal
        ctx.sm_scale = sm_scale
        return o

    @staticmethod
    def backward(ctx, do):
        q, k, v, o, lse = ctx.saved_tensors
        dq, dk, dv = launch.backward(q, k, v, o, lse, do, ctx.is_causal, ctx.sm_scale)
        return dq, dk, dv, None, None


def attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, is_causal: bool = False, scale: float | None = None
) -> torch.Tensor:
    """softmax(scale * q @ k^T [causal mask]) @ v for (batch, heads, seq, head_dim) bf16/fp16 tensors.

    Same arguments as ``torch.nn.functional.scaled_dot_product_attention`` (``scale`` defaults to
    1/sqrt(head_dim); ``is_causal`` masks key j > query i). q and k/v may have different sequence lengths;
    any strides are accepted. Differentiable in q, k and v.
    """
    _check_inputs(q, k, v, scale)
    sm_scale = float(scale) if scale is not None else 1.0 / math.sqrt(q.shape[-1])
    return _FusedAttention.apply(q, k, v, bool(is_causal), sm_scale)
