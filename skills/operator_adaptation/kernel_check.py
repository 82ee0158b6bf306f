"""Correctness check of the fused attention kernels, the FlashAttention test convention.

For each case: fresh random inputs (normal, never zeros), a float64 reference, and PyTorch's own
same-dtype math attention (softmax(q k^T * scale) v as PyTorch ops in bf16/fp16) as the yardstick. For out, dq, dk and dv the kernel's
largest absolute error against the float64 reference must be at most twice the yardstick's (plus an
absolute 1e-5 for gradients that are exactly zero). Outputs are poisoned with NaN before the run,
so a NaN left afterwards means an element was never written or came out NaN; either fails the case.

    from skills.operator_adaptation.kernel_check import validate, SMALL_CASES
    rows = validate("cuda", torch.bfloat16, SMALL_CASES)   # one dict per case, "ok" says pass or fail
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass

import torch

from . import launch
from .tuner import Tuner

ALLOWED_RATIO = 2.0
# A gradient that is exactly zero in float64 (one key: the softmax is constant) keeps rounding noise in
# both implementations; this floor lets such noise pass without loosening any other case.
ABSOLUTE_FLOOR = 1e-5
GRADS = ("out", "dq", "dk", "dv")


@dataclass(frozen=True)
class Case:
    batch: int
    heads: int
    seq_q: int
    head_dim: int
    causal: bool
    seq_k: int | None = None  # None: same as seq_q
    layout: str = "bhsd"  # "bshd": made (batch, seq, heads, dim) and transposed, so strides are not contiguous

    @property
    def keys(self) -> int:
        return self.seq_q if self.seq_k is None else self.seq_k


# Small enough for Triton's CPU interpreter, yet every loop runs: odd lengths, tails, diagonal, padding.
SMALL_CASES = [
    Case(1, 4, 67, 64, True),
    Case(1, 4, 67, 64, False, layout="bshd"),
    Case(4, 2, 17, 16, True),
    Case(1, 1, 1, 16, False),
    Case(1, 1, 1, 16, True),
    Case(1, 4, 45, 40, True, seq_k=80),
    Case(1, 2, 70, 96, False, seq_k=33, layout="bshd"),
]

# Device sizes: the standard grid's head dims, ragged lengths, the largest head dim, causal and not.
DEVICE_CASES = [
    Case(2, 4, 1000, 64, True),
    Case(2, 4, 1000, 64, False, layout="bshd"),
    Case(2, 4, 2048, 128, True),
    Case(2, 4, 1537, 128, False),
    Case(1, 3, 777, 256, True),
    Case(1, 3, 300, 40, False, seq_k=513),
    Case(3, 2, 129, 96, True, layout="bshd"),
]


def _random(case: Case, seq: int, dtype, device, generator) -> torch.Tensor:
    if case.layout == "bshd":
        t = torch.randn(case.batch, seq, case.heads, case.head_dim, generator=generator, device=device)
        return t.to(dtype).transpose(1, 2)  # (B, H, S, D) view with the strides of (B, S, H, D)
    return torch.randn(case.batch, case.heads, seq, case.head_dim, generator=generator, device=device).to(dtype)


def _torch_attention(q, k, v, causal: bool, scale: float) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """Attention as plain PyTorch ops in the inputs' dtype, with gradients: each op rounds to that dtype.

    This is the composition SDPA's MATH backend runs on CUDA; written out because on the CPU that backend
    computes reduced-precision inputs in fp32, which would not be the same-dtype yardstick. float64 inputs
    give the reference.
    """
    leaves = [t.detach().requires_grad_() for t in (q, k, v)]
    qq, kk, vv = leaves
    scores = (qq @ kk.transpose(-2, -1)) * scale
    if causal:  # top-left aligned, as SDPA: query i sees keys j <= i
        visible = torch.ones(q.shape[2], k.shape[2], dtype=torch.bool, device=q.device).tril()
        scores = scores.masked_fill(~visible, float("-inf"))
    out = torch.softmax(scores, dim=-1) @ vv
    return out, leaves


def _max_err(a: torch.Tensor, ref: torch.Tensor) -> float:
    return (a.double() - ref).abs().max().item()


def check_case(case: Case, device, dtype, seed: int | None = None, tuner: Tuner | None = None) -> dict:
    """One case: the four errors of ours and of PyTorch's same-dtype math, and whether ours passes (``tuner``:
    the one that picks the tiles and the dQ strategy; None, the default one)."""
    seed = int.from_bytes(os.urandom(4), "little") if seed is None else seed
    generator = torch.Generator(device=device).manual_seed(seed)
    q = _random(case, case.seq_q, dtype, device, generator)
    k = _random(case, case.keys, dtype, device, generator)
    v = _random(case, case.keys, dtype, device, generator)
    do = _random(case, case.seq_q, dtype, device, generator)
    scale = 1.0 / math.sqrt(case.head_dim)

    # ours, on NaN-poisoned outputs: any NaN left means unwritten or computed as NaN
    shape_q = (case.batch, case.heads, case.seq_q, case.head_dim)
    shape_k = (case.batch, case.heads, case.keys, case.head_dim)
    o = torch.full(shape_q, math.nan, dtype=dtype, device=device)
    lse = torch.full(shape_q[:3], math.nan, dtype=torch.float32, device=device)
    dq = torch.full(shape_q, math.nan, dtype=dtype, device=device)
    dk = torch.full(shape_k, math.nan, dtype=dtype, device=device)
    dv = torch.full(shape_k, math.nan, dtype=dtype, device=device)
    launch.forward(q, k, v, case.causal, scale, o=o, lse=lse, tuner=tuner)
    launch.backward(q, k, v, o, lse, do, case.causal, scale, dq=dq, dk=dk, dv=dv, tuner=tuner)
    ours = {"out": o, "dq": dq, "dk": dk, "dv": dv}

    ref_out, ref_leaves = _torch_attention(q.double(), k.double(), v.double(), case.causal, scale)
    ref_out.backward(do.double())
    ref = {"out": ref_out.detach(), **{n: t.grad for n, t in zip(("dq", "dk", "dv"), ref_leaves)}}
    pt_out, pt_leaves = _torch_attention(q, k, v, case.causal, scale)
    pt_out.backward(do)
    pt = {"out": pt_out.detach(), **{n: t.grad for n, t in zip(("dq", "dk", "dv"), pt_leaves)}}

    row = {
        **asdict(case),
        "seq_k": case.keys,
        "dtype": str(dtype).removeprefix("torch."),
        "device": str(device),
        "seed": seed,
    }
    ok = True
    for name in GRADS:
        bad = int((~torch.isfinite(ours[name])).sum().item())
        ours_err = _max_err(ours[name], ref[name])
        torch_err = _max_err(pt[name], ref[name])
        passed = bad == 0 and ours_err <= ALLOWED_RATIO * torch_err + ABSOLUTE_FLOOR
        row[f"{name}_err"] = ours_err
        row[f"{name}_torch_err"] = torch_err
        row[f"{name}_nonfinite"] = bad
        ok = ok and passed
    row["ok"] = ok
    return row


def validate(
    device="cuda", dtype=torch.bfloat16, cases=None, seed: int | None = None, tuner: Tuner | None = None
) -> list[dict]:
    """Checks every case (default: SMALL_CASES on cpu, DEVICE_CASES elsewhere); one row per case.

    Without ``seed`` every case draws fresh inputs from the OS's entropy (the seed is in the row, so a
    failure can be replayed); tests pass a seed so that CI sees the same inputs each run.
    """
    device = torch.device(device)
    if cases is None:
        cases = SMALL_CASES if device.type == "cpu" else DEVICE_CASES
    return [check_case(case, device, dtype, None if seed is None else seed + i, tuner) for i, case in enumerate(cases)]
