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

import itertools
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
    kv_heads: int | None = None  # fewer than heads: grouped-query attention (1: multi-query)
    window: tuple[int, int] = (-1, -1)  # (left, right) around the diagonal, -1 unbounded
    bottom_right: bool = False  # the diagonal of query i is key i + seq_k - seq_q (FlashAttention's causal)
    # varlen: (seq_q, seq_k) of each packed sequence (batch, seq_q and seq_k are then unused); layout "bshd" is
    # the packed (total, heads, dim) tensor itself, "bhsd" a transposed (heads, total, dim) one
    seqlens: tuple[tuple[int, int], ...] | None = None
    deterministic: bool = False  # the backward runs twice and must give the same bits

    @property
    def keys(self) -> int:
        return self.seq_q if self.seq_k is None else self.seq_k

    @property
    def group_heads(self) -> int:
        return self.heads if self.kv_heads is None else self.kv_heads

    @property
    def feature(self) -> str:
        """What the case exercises beyond plain attention, for tables: gqa, window, bottom-right, varlen, ..."""
        names = []
        if self.group_heads != self.heads:
            names.append("mqa" if self.group_heads == 1 else f"gqa {self.heads}:{self.group_heads}")
        if self.window != (-1, -1):
            names.append(f"window {self.window[0]},{self.window[1]}")
        if self.bottom_right:
            names.append("bottom-right")
        if self.seqlens is not None:
            names.append(f"varlen x{len(self.seqlens)}")
        if self.deterministic:
            names.append("deterministic")
        return ", ".join(names) or "plain"


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

# The features beyond SDPA's plain problem, at interpreter sizes: every block range of the window arithmetic
# (left edge, mask-free middle, right edge), rows that see no key, empty and ragged packed sequences.
SMALL_FEATURE_CASES = [
    Case(1, 4, 37, 32, True, kv_heads=2),
    Case(2, 3, 20, 16, False, kv_heads=1, layout="bshd"),
    Case(1, 2, 70, 32, False, window=(20, 5)),
    Case(1, 2, 50, 16, True, window=(16, -1), kv_heads=1),
    Case(1, 2, 30, 32, True, seq_k=75, bottom_right=True),
    Case(1, 2, 45, 16, True, seq_k=20, bottom_right=True, layout="bshd"),
    Case(0, 2, 0, 32, True, seqlens=((17, 17), (40, 40), (1, 1), (0, 6), (33, 33))),
    Case(
        0,
        4,
        0,
        16,
        True,
        kv_heads=2,
        seqlens=((10, 25), (31, 7), (16, 16)),
        bottom_right=True,
        window=(8, -1),
        layout="bhsd",
    ),
    Case(1, 4, 40, 32, True, kv_heads=2, deterministic=True),
    Case(0, 2, 0, 16, False, seqlens=((19, 30), (33, 17)), window=(6, 9), deterministic=True),
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

# The features at device sizes: a Llama-style GQA 4:1 and MQA, sliding windows, chunked prefill (a query chunk
# aligned bottom-right against a longer key history), a packed batch of ragged documents, the deterministic backward.
DEVICE_FEATURE_CASES = [
    Case(2, 16, 1024, 128, True, kv_heads=4),
    Case(2, 8, 1537, 64, False, kv_heads=1, layout="bshd"),
    Case(1, 8, 2048, 128, True, window=(256, -1), kv_heads=2),
    Case(2, 4, 1000, 64, False, window=(100, 100)),
    Case(2, 8, 500, 128, True, seq_k=1537, bottom_right=True, kv_heads=2),
    Case(0, 8, 0, 128, True, kv_heads=2, seqlens=((1000, 1000), (37, 37), (2048, 2048), (513, 513), (1, 1))),
    Case(0, 4, 0, 64, False, seqlens=((300, 700), (1200, 64), (777, 777)), window=(128, 32), layout="bhsd"),
    Case(2, 8, 1024, 128, True, kv_heads=2, deterministic=True),
]


def _random(case: Case, seq: int, dtype, device, generator, heads: int | None = None) -> torch.Tensor:
    heads = case.heads if heads is None else heads
    if case.seqlens is not None:  # packed: seq is the total length
        if case.layout == "bhsd":
            t = torch.randn(heads, seq, case.head_dim, generator=generator, device=device)
            return t.to(dtype).transpose(0, 1)  # (total, H, D) view with the strides of (H, total, D)
        return torch.randn(seq, heads, case.head_dim, generator=generator, device=device).to(dtype)
    if case.layout == "bshd":
        t = torch.randn(case.batch, seq, heads, case.head_dim, generator=generator, device=device)
        return t.to(dtype).transpose(1, 2)  # (B, H, S, D) view with the strides of (B, S, H, D)
    return torch.randn(case.batch, heads, seq, case.head_dim, generator=generator, device=device).to(dtype)


def visible_keys(n_q: int, n_k: int, causal: bool, window=(-1, -1), bottom_right: bool = False, device=None):
    """The (n_q, n_k) boolean matrix of the scores that count: query i sees key j when j - (i + shift) lies in
    [-left, right] (shift = n_k - n_q bottom-right, else 0; -1 unbounded; causal caps right at 0)."""
    left, right = window
    if causal:
        right = 0 if right < 0 else min(right, 0)
    rows = torch.arange(n_q, device=device)[:, None]
    offset = torch.arange(n_k, device=device)[None, :] - rows - (n_k - n_q if bottom_right else 0)
    keep = torch.ones(n_q, n_k, dtype=torch.bool, device=device)
    if right >= 0:
        keep &= offset <= right
    if left >= 0:
        keep &= offset >= -left
    return keep


def _torch_attention(
    q, k, v, causal: bool, scale: float, window=(-1, -1), bottom_right: bool = False
) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """Attention as plain PyTorch ops in the inputs' dtype, with gradients: each op rounds to that dtype.

    This is the composition SDPA's MATH backend runs on CUDA; written out because on the CPU that backend
    computes reduced-precision inputs in fp32, which would not be the same-dtype yardstick. float64 inputs
    give the reference. k, v with fewer heads are repeated over their query heads (SDPA's enable_gqa); a row
    that sees no key gives 0 (FlashAttention's rule; softmax over nothing would be NaN).
    """
    leaves = [t.detach().requires_grad_() for t in (q, k, v)]
    qq, kk, vv = leaves
    group = q.shape[1] // k.shape[1]
    if group > 1:
        kk, vv = kk.repeat_interleave(group, dim=1), vv.repeat_interleave(group, dim=1)
    scores = (qq @ kk.transpose(-2, -1)) * scale
    visible = visible_keys(q.shape[2], k.shape[2], causal, window, bottom_right, q.device)
    empty = ~visible.any(dim=1, keepdim=True)  # rows that see no key
    if not visible.all():
        scores = scores.masked_fill(~visible, float("-inf"))
    if empty.any():
        probs = torch.softmax(scores.masked_fill(empty, 0.0), dim=-1).masked_fill(empty, 0.0)
    else:
        probs = torch.softmax(scores, dim=-1)
    out = probs @ vv
    return out, leaves


def _max_err(a: torch.Tensor, ref: torch.Tensor) -> float:
    return (a.double() - ref).abs().max().item() if a.numel() else 0.0


def _sequences(case: Case) -> list[tuple[int, int]]:
    return list(case.seqlens) if case.seqlens is not None else [(case.seq_q, case.keys)]


def _per_sequence(case: Case, q, k, v, do, run) -> dict[str, torch.Tensor]:
    """``run(q, k, v)`` -> (out, [q, k, v leaves]) on each sequence as a (B, H, N, D) problem, backward with do;
    out, dq, dk, dv in the case's layout (packed for varlen)."""
    if case.seqlens is None:
        out, leaves = run(q, k, v)
        out.backward(do)
        return {"out": out.detach(), **{n: t.grad for n, t in zip(("dq", "dk", "dv"), leaves, strict=True)}}
    parts: dict[str, list[torch.Tensor]] = {"out": [], "dq": [], "dk": [], "dv": []}
    q_start = k_start = 0

    def as_bhsd(t: torch.Tensor) -> torch.Tensor:  # (n, H, D) -> (1, H, n, D)
        return t.transpose(0, 1).unsqueeze(0)

    for n_q, n_k in case.seqlens:
        rows_q, rows_k = slice(q_start, q_start + n_q), slice(k_start, k_start + n_k)
        out, leaves = run(as_bhsd(q[rows_q]), as_bhsd(k[rows_k]), as_bhsd(v[rows_k]))
        out.backward(as_bhsd(do[rows_q]))
        for name, t in zip(("out", "dq", "dk", "dv"), (out.detach(), *(leaf.grad for leaf in leaves)), strict=True):
            parts[name].append(t.squeeze(0).transpose(0, 1))
        q_start, k_start = q_start + n_q, k_start + n_k
    return {name: torch.cat(ts) for name, ts in parts.items()}


def check_case(
    case: Case, device, dtype, seed: int | None = None, tuner: Tuner | None = None, portable: bool = False
) -> dict:
    """One case: the four errors of ours and of PyTorch's same-dtype math, and whether ours passes (``tuner``:
    the one that picks the tiles and the dQ strategy; None, the default one; ``portable``: never the Hopper
    path). A deterministic case runs its backward twice and also needs the same bits both times."""
    seed = int.from_bytes(os.urandom(4), "little") if seed is None else seed
    generator = torch.Generator(device=device).manual_seed(seed)
    sequences = _sequences(case)
    total_q, total_k = sum(n for n, _ in sequences), sum(n for _, n in sequences)
    varlen = None
    if case.seqlens is not None:

        def offsets(lengths: list[int]) -> torch.Tensor:
            return torch.tensor([0, *itertools.accumulate(lengths)], dtype=torch.int32, device=device)

        varlen = launch.Varlen(
            offsets([n for n, _ in sequences]), offsets([n for _, n in sequences]),
            max(n for n, _ in sequences), max(n for _, n in sequences),
        )  # fmt: skip
        seq_q, seq_k = total_q, total_k
    else:
        seq_q, seq_k = case.seq_q, case.keys
    q = _random(case, seq_q, dtype, device, generator)
    k = _random(case, seq_k, dtype, device, generator, case.group_heads)
    v = _random(case, seq_k, dtype, device, generator, case.group_heads)
    do = _random(case, seq_q, dtype, device, generator)
    scale = 1.0 / math.sqrt(case.head_dim)

    # ours, on NaN-poisoned outputs: any NaN left means unwritten or computed as NaN
    def poisoned(t: torch.Tensor, dtype=dtype) -> torch.Tensor:
        return torch.full(t.shape, math.nan, dtype=dtype, device=device)

    o = poisoned(q)
    lse = torch.full((case.heads, total_q) if varlen else q.shape[:3], math.nan, dtype=torch.float32, device=device)
    dq, dk, dv = poisoned(q), poisoned(k), poisoned(v)
    launch.forward(
        q, k, v, case.causal, scale, o=o, lse=lse, tuner=tuner, window=case.window, bottom_right=case.bottom_right,
        varlen=varlen,
    )  # fmt: skip

    def backward(dq, dk, dv) -> None:
        launch.backward(
            q, k, v, o, lse, do, case.causal, scale, dq=dq, dk=dk, dv=dv, tuner=tuner, portable=portable,
            deterministic=case.deterministic, window=case.window, bottom_right=case.bottom_right,
            varlen=varlen,
        )  # fmt: skip

    backward(dq, dk, dv)
    ours = {"out": o, "dq": dq, "dk": dk, "dv": dv}
    repeat_equal = None
    if case.deterministic:
        again = [poisoned(t) for t in (q, k, v)]
        backward(*again)
        repeat_equal = all(torch.equal(a, b) for a, b in zip(again, (dq, dk, dv), strict=True))

    def torch_attention(q, k, v):
        return _torch_attention(q, k, v, case.causal, scale, case.window, case.bottom_right)

    ref = _per_sequence(case, q.double(), k.double(), v.double(), do.double(), torch_attention)
    pt = _per_sequence(case, q, k, v, do, torch_attention)

    row = {
        **asdict(case),
        "seq_k": case.keys,
        "feature": case.feature,
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
    if repeat_equal is not None:
        row["repeat_bitwise_equal"] = repeat_equal
        ok = ok and repeat_equal
    row["ok"] = ok
    return row


def validate(
    device="cuda",
    dtype=torch.bfloat16,
    cases=None,
    seed: int | None = None,
    tuner: Tuner | None = None,
    portable: bool = False,
) -> list[dict]:
    """Checks every case (default: SMALL_CASES on cpu, DEVICE_CASES elsewhere); one row per case.

    Without ``seed`` every case draws fresh inputs from the OS's entropy (the seed is in the row, so a
    failure can be replayed); tests pass a seed so that CI sees the same inputs each run.
    """
    device = torch.device(device)
    if cases is None:
        cases = SMALL_CASES if device.type == "cpu" else DEVICE_CASES
    return [
        check_case(case, device, dtype, None if seed is None else seed + i, tuner, portable)
        for i, case in enumerate(cases)
    ]


def compile_check(device="cuda", dtype=torch.bfloat16, backend: str = "aot_eager") -> dict:
    """torch.compile(fullgraph=True) over a small GQA attention block: graph breaks (torch._dynamo's explain)
    and the compiled forward and gradients against eager; ``ok`` when there is no break and they agree."""
    import torch._dynamo

    from .fused_attention import attention

    class Block(torch.nn.Module):
        def __init__(self, dim: int = 128, heads: int = 4, kv_heads: int = 2):
            super().__init__()
            self.heads, self.kv_heads, self.head_dim = heads, kv_heads, dim // heads
            self.q = torch.nn.Linear(dim, dim, bias=False)
            self.kv = torch.nn.Linear(dim, 2 * kv_heads * self.head_dim, bias=False)

        def forward(self, x):
            b, n, _ = x.shape
            q = self.q(x).view(b, n, self.heads, self.head_dim).transpose(1, 2)
            k, v = self.kv(x).view(b, n, 2, self.kv_heads, self.head_dim).permute(2, 0, 3, 1, 4)
            out = attention(q, k, v, is_causal=True, enable_gqa=True)
            return out.transpose(1, 2).reshape(b, n, -1)

    torch._dynamo.reset()
    generator = torch.Generator(device=device).manual_seed(0)
    block = Block().to(device=device, dtype=dtype)
    x = torch.randn(2, 100, 128, generator=generator, device=device).to(dtype)
    breaks = torch._dynamo.explain(block)(x).graph_break_count
    eager = block(x)
    eager.float().square().sum().backward()

    def gradients() -> list[torch.Tensor]:
        return [torch.zeros_like(p) if p.grad is None else p.grad.detach().clone() for p in block.parameters()]

    eager_grads = gradients()
    block.zero_grad()
    compiled = torch.compile(block, fullgraph=True, backend=backend)(x)
    compiled.float().square().sum().backward()
    out_diff = (compiled.float() - eager.float()).abs().max().item()
    grad_diff = max((g.float() - e.float()).abs().max().item() for g, e in zip(gradients(), eager_grads, strict=True))
    scale = max(g.float().abs().max().item() for g in eager_grads)
    ok = breaks == 0 and out_diff <= 2e-2 and grad_diff <= 2e-2 * max(scale, 1.0)
    return {"backend": backend, "graph_breaks": breaks, "out_max_diff": out_diff, "grad_max_diff": grad_diff, "ok": ok}
