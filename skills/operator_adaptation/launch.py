"""Launchers of the attention kernels: tiles from the device's profile, picks from the tuner, grids and arguments.

    o, lse = forward(q, k, v, causal, sm_scale)                  # (B, H, N, D) tensors; lse in log2 units
    dq, dk, dv = backward(q, k, v, o, lse, do, causal, sm_scale)

Beyond SDPA's problem, as keyword arguments of both: ``window=(left, right)`` (FlashAttention's window_size:
key j is seen by query i when j - (i + shift) lies in [-left, right], -1 = unbounded; causal is right = 0),
``bottom_right=True`` (the diagonal shifted by n_k - n_q: shift = n_k - n_q, else 0), ``varlen=Varlen(...)``
(packed (total, heads, head_dim) tensors located by cu_seqlens; lse then (heads, total)), and for ``backward``
``deterministic=True`` (no atomics: the split-dQ strategy only). k and v may have fewer heads than q (grouped-
query attention): q head h reads kv head h // (heads / kv_heads), and the dK/dV kernel sums the group's
query heads itself.

Tiles: ``tile_candidates`` asks the tile planner (``tile_plan.launch_candidates``) for the device's profile
(``hardware.device_profile``: shipped, or built from the device's properties), giving it the tiles measured
to win on an H200 (``MEASURED_WINNERS``). Under Triton's interpreter each kernel gets one small tile
(``INTERPRETER_TILE``): at test sizes it still runs every loop (mask-free, causal diagonal, ragged tail).

dQ strategies (``tuner.STRATEGIES``): ``split_dq``, a second kernel recomputing S and dP per query block (7 matrix
products, no atomics); ``fused_dq``, the dK/dV kernel adding dS K into an fp32 dQ with per-element atomics (5
products); ``fused_dq_tma``, the same with one bulk reduce-add per tile (Hopper's copy engine). The tuner
times each on its own tiles, then the whole backwards, and keeps the fastest per shape class.

The Hopper path: on an sm90 device ``backward`` hands the problem to the CuTe DSL backward
(``_cute_attention.backward``) when the ``cute`` extra is importable and both it and the Gluon kernel take the
problem, else to ``_hopper_attention.hopper_backward`` (the Gluon kernel) whenever its ``hopper_supported``
accepts it, and runs the portable kernels otherwise (and always with ``portable=True``). The CuTe kernel is the
faster (1.13x Gluon, 1.06x cuDNN over the standard grid on the H200, docs/perf.md "the dQ-writer warp") and the
narrower: MHA with equal lengths that are multiples of 128, head_dim 64 or 128, contiguous q, k, v, dk, dv; GQA,
unequal or ragged lengths and strided views go to Gluon, exactly as before. Both modules are imported only
there (``backward_backend`` says which one a problem gets).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import torch
import triton

from . import _triton_attention as kernels
from .hardware import HardwareProfile, device_profile
from .tile_plan import launch_candidates, padded_head_dim
from .tuner import Tuner, default_tuner

LOG2_E = 1.4426950408889634  # 1/ln(2): exp(x) = exp2(x * log2(e))
INTERPRETER = kernels.INTERPRETED  # Triton's CPU interpreter runs the kernels (TRITON_INTERPRET=1)
PRE_BLOCK = 64  # query rows per program of the delta pre-pass

# (BLOCK_M, BLOCK_N, num_warps, num_stages), keyed by tile_plan's kernel names; BLOCK_M is the query tile,
# BLOCK_N the key tile in every kernel. First in each list: what the tuner picked most often on an H200.
MEASURED_WINNERS = {
    "fwd": ((64, 64, 4, 3), (128, 64, 4, 3), (128, 128, 8, 3), (64, 32, 4, 2)),
    "dkdv": (
        (32, 64, 4, 2),
        (64, 64, 4, 3),
        (32, 128, 4, 3),
        (64, 128, 8, 3),
        (64, 128, 8, 2),
        (32, 64, 8, 2),
        (16, 32, 4, 2),
    ),
    "dkdv_atomic": ((32, 128, 8, 2), (64, 128, 8, 2), (64, 64, 8, 2), (64, 64, 4, 3), (32, 64, 4, 2), (16, 32, 4, 2)),
    "dq": ((128, 64, 8, 3), (64, 64, 4, 3), (128, 32, 4, 3), (64, 32, 4, 2), (32, 32, 4, 2)),
}
INTERPRETER_TILE = {"fwd": (32, 16), "dkdv": (16, 32), "dkdv_atomic": (16, 32), "dq": (32, 16)}


# ------------------------------------------------------------------------------------------ the device


@functools.cache
def _profile(index: int) -> HardwareProfile:
    """The profile of CUDA device ``index`` (shipped, or built from its properties), once per device."""
    return device_profile(torch.cuda.get_device_properties(index))


@functools.cache
def _cuda_facts(index: int) -> tuple[tuple[int, int], str]:
    """(compute capability, name) of CUDA device ``index``, read once: they are asked on every call, and four
    property look-ups per forward + backward were ~5% of the eager path's host time on the H200's host (cProfile,
    docs/perf.md "Host overhead and the grid again")."""
    properties = torch.cuda.get_device_properties(index)
    return (properties.major, properties.minor), properties.name


def _capability(device: torch.device) -> tuple[int, int]:
    return _cuda_facts(device.index if device.index is not None else torch.cuda.current_device())[0]


def device_name(device: torch.device) -> str:
    if device.type != "cuda":
        return "interpreter"
    return _cuda_facts(device.index if device.index is not None else torch.cuda.current_device())[1]


def _config(tile: tuple[int, int, int, int]) -> dict:
    bm, bn, warps, stages = tile
    return {"BLOCK_M": bm, "BLOCK_N": bn, "num_warps": warps, "num_stages": stages}


@functools.cache
def _planned(profile_index: int, kernel: str, d_pad: int, dtype: str) -> tuple:
    profile = _profile(profile_index)
    return tuple(launch_candidates(profile, kernel, d_pad, dtype, MEASURED_WINNERS[kernel]))


def tile_candidates(kernel: str, d_pad: int, device: torch.device, dtype=torch.bfloat16) -> list[dict]:
    """Tile configurations the tuner times for one kernel (tile_plan's names: fwd, dkdv, dkdv_atomic, dq)."""
    if INTERPRETER:
        bm, bn = INTERPRETER_TILE[kernel]
        return [{"BLOCK_M": bm, "BLOCK_N": bn, "num_warps": 4, "num_stages": 1}]
    index = device.index if device.index is not None else torch.cuda.current_device()
    tiles = _planned(index, kernel, d_pad, "fp16" if dtype == torch.float16 else "bf16")
    if not tiles:
        profile = _profile(index)
        raise RuntimeError(
            f"attention: no {kernel} tile fits {profile.full_name} for head_dim {d_pad}"
            f" ({profile.smem_per_block_kib:g} KiB shared memory per block)"
        )
    return [_config(tile) for tile in tiles]


def tma_loads_ok(*tensors) -> bool:
    """Whether the backward may fetch tiles through tensor descriptors: sm_90+ (or the interpreter, which
    emulates them), last dimension contiguous, other strides and the base 16-byte aligned."""
    t0 = tensors[0]
    if t0.device.type == "cuda" and _capability(t0.device)[0] < 9:
        return False
    for t in tensors:
        if t.stride(-1) != 1 or t.data_ptr() % 16:
            return False
        if any((s * t.element_size()) % 16 for s in t.stride()[:-1]):
            return False
    return True


def _tile_descriptor(t, rows: int, d_pad: int):
    """A (B, H, N, D) descriptor fetching (1, 1, rows, d_pad) tiles; columns past D read as zero."""
    from triton.tools.tensor_descriptor import TensorDescriptor

    return TensorDescriptor(t, list(t.shape), list(t.stride()), [1, 1, rows, d_pad])


def _launch(config: dict) -> dict:
    """The launch options of a tile configuration."""
    return {"num_warps": config["num_warps"], "num_stages": config["num_stages"]}


# ----------------------------------------------------------------------------------------------- problems

# A window bound that never binds: larger than any sequence, small enough that row + shift + bound stays in int32
UNBOUNDED = 1 << 30


class Varlen(NamedTuple):
    """Packed variable-length sequences, FlashAttention's convention: sequence b is rows cu_seqlens_q[b] ..
    cu_seqlens_q[b+1] of q (and cu_seqlens_k of k, v); int32 tensors of batch + 1 entries on the device."""

    cu_seqlens_q: torch.Tensor
    cu_seqlens_k: torch.Tensor
    max_seqlen_q: int
    max_seqlen_k: int


class Mask(NamedTuple):
    """Which scores count, as the kernels take it: the two window bounds (each limited or not, ``bounds`` the
    limits; causal is a right limit of 0) and the diagonal's alignment."""

    limit_left: bool
    limit_right: bool
    bounds: tuple[int, int]
    bottom_right: bool


def mask(causal: bool, window: tuple[int, int] | None = None, bottom_right: bool = False) -> Mask:
    """The kernels' Mask of a (causal, window, alignment) request; window bounds of -1 are unbounded."""
    left, right = window if window is not None else (-1, -1)
    if causal:
        right = 0 if right < 0 else min(right, 0)
    return Mask(left >= 0, right >= 0, (left if left >= 0 else UNBOUNDED, right if right >= 0 else UNBOUNDED),
                bool(bottom_right))  # fmt: skip


class _Problem(NamedTuple):
    """The launch geometry shared by every kernel of one call."""

    batch: int  # batch entries of the kernel view (1 with varlen)
    sequences: int  # programs' batch dimension: sequences (varlen) or batch entries
    heads: int
    kv_heads: int
    n_q: int  # longest query sequence
    n_k: int
    rows_q: int  # rows of the LSE/delta buffers per head
    head_dim: int


def _kernel_view(t: torch.Tensor, varlen: Varlen | None) -> torch.Tensor:
    """The (B, H, N, D) view the kernels index: packed (total, H, D) varlen tensors become (1, H, total, D)."""
    return t.unsqueeze(0).transpose(1, 2) if varlen is not None else t


def _problem(q4: torch.Tensor, k4: torch.Tensor, varlen: Varlen | None) -> _Problem:
    batch, heads, rows_q, head_dim = q4.shape
    if varlen is None:
        return _Problem(batch, batch, heads, k4.shape[1], rows_q, k4.shape[2], rows_q, head_dim)
    sequences = varlen.cu_seqlens_q.shape[0] - 1
    return _Problem(1, sequences, heads, k4.shape[1], varlen.max_seqlen_q, varlen.max_seqlen_k, rows_q, head_dim)


def _seqs(p: _Problem, varlen: Varlen | None) -> tuple:
    """The kernels' sequence description: (cu_seqlens_q, cu_seqlens_k, N_Q, N_K, ROWS_Q)."""
    if varlen is None:
        return (None, None, p.n_q, p.n_k, p.rows_q)
    return (varlen.cu_seqlens_q, varlen.cu_seqlens_k, p.n_q, p.n_k, p.rows_q)


def _kernel_bounds(m: Mask) -> tuple:
    """The window bounds as the kernels take them: a bound of 0 (causal's right edge) or one that does not apply
    is a compile-time constant, so the plain and causal kernels fold it away; other bounds are runtime ints (one
    compiled kernel serves every window size)."""
    return tuple(
        triton.language.constexpr(0) if bound == 0 or not limited else bound
        for bound, limited in zip(m.bounds, (m.limit_left, m.limit_right), strict=True)
    )


def _shape_key(tuner: Tuner, device: torch.device, dtype, p: _Problem, m: Mask, varlen: Varlen | None) -> str:
    """The tuner's shape class, refined by what changes a kernel's work per program: the GQA group (the dK/dV
    program loops over it), a window's span (it bounds the loops) and varlen. Causal keeps the tuner's own
    name; the suffixes go before the tuner's "|small" marker, which must stay last."""
    causal = m.limit_right and not m.limit_left and m.bounds[1] == 0
    key = tuner.shape_class(device_name(device), dtype, p.head_dim, causal, p.n_q, p.n_k, p.sequences * p.heads)
    small = key.endswith("|small")
    key = key.removesuffix("|small")
    if p.heads != p.kv_heads:
        key += f"|g{p.heads // p.kv_heads}"
    if m.limit_left or (m.limit_right and not causal):
        span = sum(bound for bound, limited in zip(m.bounds, (m.limit_left, m.limit_right), strict=True) if limited) + 1
        key += f"|w{1 << (span - 1).bit_length()}"
    if varlen is not None:
        key += "|varlen"
    return key + ("|small" if small else "")


# ----------------------------------------------------------------------------------------------- forward


def forward(
    q, k, v, causal: bool, sm_scale: float, o=None, lse=None, tuner: Tuner | None = None, *,
    window: tuple[int, int] | None = None, bottom_right: bool = False, varlen: Varlen | None = None,
):  # fmt: skip
    """O and the base-2 row LSE; ``o``/``lse`` may be given (kernel_check passes poisoned buffers)."""
    tuner = tuner or default_tuner()
    m = mask(causal, window, bottom_right)
    q4, k4, v4 = (_kernel_view(t, varlen) for t in (q, k, v))
    p = _problem(q4, k4, varlen)
    d_pad = padded_head_dim(p.head_dim)
    if o is None:
        o = torch.empty(q.shape, device=q.device, dtype=q.dtype)
    if lse is None:
        lse = torch.empty(q4.shape[:3] if varlen is None else (p.heads, p.rows_q), device=q.device, dtype=torch.float32)
    o4 = _kernel_view(o, varlen)
    strides = (q4.stride(), k4.stride(), v4.stride(), o4.stride())
    seqs = _seqs(p, varlen)

    def launch(config):
        cfg = kernels.constants(
            p.head_dim, d_pad, config["BLOCK_M"], config["BLOCK_N"], m.limit_right, m.limit_left, m.bottom_right,
            varlen is not None, p.heads // p.kv_heads,
        )  # fmt: skip
        grid = (triton.cdiv(p.n_q, config["BLOCK_M"]), p.sequences * p.heads)
        kernels._attn_fwd[grid](
            q4, k4, v4, o4, lse, sm_scale * LOG2_E, strides, seqs, _kernel_bounds(m), p.heads, cfg,
            **_launch(config),
        )  # fmt: skip

    key = _shape_key(tuner, q.device, q.dtype, p, m, varlen)
    launch(tuner.pick("fwd", key, tile_candidates("fwd", d_pad, q.device, q.dtype), launch))
    return o, lse


# ---------------------------------------------------------------------------------------------- backward


def _sm90(device: torch.device) -> bool:
    return device.type == "cuda" and _capability(device) == (9, 0)


def _hopper_module():
    """The Gluon sm90 backward, imported only on an sm90 device (Gluon does not run in the interpreter)."""
    from . import _hopper_attention

    return _hopper_attention


@functools.cache
def _cute_module():
    """The CuTe DSL sm90 backward, or None where the ``cute`` extra (nvidia-cutlass-dsl) cannot be imported;
    tried once, and only on an sm90 device whose problem the Gluon kernel takes."""
    try:
        from . import _cute_attention
    except Exception:  # not installed, or its CUDA libraries missing: the Gluon kernel serves
        return None
    return _cute_attention


def _cute_takes(q, k, v, causal: bool, m: Mask, dq, dk, dv):
    """The CuTe module when it takes a problem the Gluon kernel took (its contract: ``supported(q, k, v, *,
    causal, bottom_right, dq, dk, dv)`` returns None or why not), else None."""
    cute = _cute_module()
    if cute is None:
        return None
    why = cute.supported(q, k, v, causal=bool(causal), bottom_right=m.bottom_right, dq=dq, dk=dk, dv=dv)
    return cute if why is None else None


def backward_backend(q, k, v, causal: bool, *, window: tuple[int, int] | None = None, bottom_right: bool = False,
                     varlen: Varlen | None = None, deterministic: bool = False, dq=None, dk=None,
                     dv=None) -> str:  # fmt: skip
    """Which backward ``backward`` runs for this problem: "cute", "gluon" or "portable" (dq, dk, dv: the output
    buffers a caller gives, None when ``backward`` makes them, which are contiguous like q, k and v)."""
    m = mask(causal, window, bottom_right)
    if _hopper(q, k, v, causal, m, window, deterministic, varlen) is None:
        return "portable"
    dq, dk, dv = (t if b is None else b for t, b in ((q, dq), (k, dk), (v, dv)))
    return "cute" if _cute_takes(q, k, v, causal, m, dq, dk, dv) is not None else "gluon"


def _hopper(q, k, v, causal: bool, m: Mask, window, deterministic: bool, varlen: Varlen | None):
    """The Hopper module when it takes this problem (the contract: ``hopper_supported(q, k, v, *, causal,
    bottom_right, window, deterministic, varlen)``), else None."""
    if not _sm90(q.device):
        return None
    hopper = _hopper_module()
    window = None if window is None or tuple(window) == (-1, -1) else (int(window[0]), int(window[1]))
    supported = hopper.hopper_supported(
        q, k, v, causal=bool(causal), bottom_right=m.bottom_right, window=window, deterministic=bool(deterministic),
        varlen=varlen is not None,
    )  # fmt: skip
    return hopper if supported else None


def strategies(device: torch.device, tuner: Tuner, deterministic: bool = False) -> list[str]:
    """dQ strategies this device can run, best guess first: the bulk reduce-add needs Hopper's copy engine;
    a deterministic backward has only the split one (no atomics, a fixed summation order)."""
    if deterministic:
        return ["split_dq"]
    if tuner.options.dq_strategy:
        return [tuner.options.dq_strategy]
    if device.type != "cuda":
        return ["fused_dq"]
    if _capability(device)[0] >= 9:
        return ["split_dq", "fused_dq_tma"]  # per-element atomics measured 1.1-1.5x slower than split on an H200
    return ["fused_dq", "split_dq"]


def backward(
    q, k, v, o, lse, do, causal: bool, sm_scale: float, dq=None, dk=None, dv=None, tuner=None, *,
    window: tuple[int, int] | None = None, bottom_right: bool = False, varlen: Varlen | None = None,
    deterministic: bool = False, portable: bool = False,
):  # fmt: skip
    """dQ, dK, dV; the three may be given (kernel_check passes poisoned buffers). ``portable``: never the
    Hopper path (comparisons, and the checks of the portable kernels on an sm90 device)."""
    m = mask(causal, window, bottom_right)
    dk = torch.empty(k.shape, device=q.device, dtype=q.dtype) if dk is None else dk
    dv = torch.empty(v.shape, device=q.device, dtype=q.dtype) if dv is None else dv
    dq = torch.empty(q.shape, device=q.device, dtype=q.dtype) if dq is None else dq
    hopper = None if portable else _hopper(q, k, v, causal, m, window, deterministic, varlen)
    if hopper is not None:
        cute = _cute_takes(q, k, v, causal, m, dq, dk, dv)
        if cute is not None:
            cute.backward(q, k, v, o, lse, do, dq, dk, dv, causal=bool(causal), scale=sm_scale)
        else:
            hopper.hopper_backward(q, k, v, o, lse, do, bool(causal), sm_scale, dq, dk, dv,
                                   bottom_right=m.bottom_right)  # fmt: skip
        return dq, dk, dv
    tuner = tuner or default_tuner()
    q4, k4, v4, o4, do4, dq4, dk4, dv4 = (_kernel_view(t, varlen) for t in (q, k, v, o, do, dq, dk, dv))
    p = _problem(q4, k4, varlen)
    d_pad = padded_head_dim(p.head_dim)
    group = p.heads // p.kv_heads
    seqs = _seqs(p, varlen)
    delta = torch.empty(lse.shape, device=q.device, dtype=torch.float32)
    kernels._attn_bwd_preprocess[(triton.cdiv(p.rows_q, PRE_BLOCK), p.batch * p.heads)](
        o4, do4, delta, (o4.stride(), do4.stride()), p.heads, p.rows_q, kernels.constants(p.head_dim, d_pad, PRE_BLOCK)
    )
    # the fp32 dQ buffer (B*H, ROWS_Q, D_PAD) the fused strategies add into, made only if one runs
    dq_acc: list[torch.Tensor] = []
    load_tma = tuner.options.tma_loads and tma_loads_ok(q4, k4, v4, do4)

    def descriptor(t, rows: int):
        return _tile_descriptor(t, rows, d_pad) if load_tma else None

    scales = (sm_scale * LOG2_E, sm_scale)
    flags = (m.limit_right, m.limit_left, m.bottom_right, varlen is not None, group)

    def launch_dkdv(config, strategy: str):
        bm, bn = config["BLOCK_M"], config["BLOCK_N"]
        fused, tma = strategy != "split_dq", strategy == "fused_dq_tma"
        dq_desc = None
        if fused:
            if not dq_acc:
                dq_acc.append(torch.empty((p.batch * p.heads, p.rows_q, d_pad), device=q.device, dtype=torch.float32))
            dq_acc[0].zero_()
            if tma:
                from triton.tools.tensor_descriptor import TensorDescriptor

                dq_desc = TensorDescriptor.from_tensor(dq_acc[0], [1, bm, d_pad])
        target = dq_acc[0] if fused else dq4
        target_strides = (p.rows_q * d_pad * p.heads, p.rows_q * d_pad, d_pad, 1) if fused else dq4.stride()
        strides = (q4.stride(), k4.stride(), v4.stride(), do4.stride(), dk4.stride(), dv4.stride(), target_strides)
        cfg = kernels.constants(p.head_dim, d_pad, bm, bn, *flags, fused, tma, load_tma)
        kernels._attn_bwd_dkdv[(triton.cdiv(p.n_k, bn), p.sequences * p.kv_heads)](
            q4, k4, v4, do4, dk4, dv4, target, descriptor(q4, bm), descriptor(do4, bm), dq_desc, lse, delta, *scales,
            strides, seqs, _kernel_bounds(m), p.kv_heads, cfg, **_launch(config),
        )  # fmt: skip

    def launch_dq(config):
        bm, bn = config["BLOCK_M"], config["BLOCK_N"]
        strides = (q4.stride(), k4.stride(), v4.stride(), do4.stride(), dq4.stride())
        cfg = kernels.constants(p.head_dim, d_pad, bm, bn, *flags, load_tma=load_tma)
        kernels._attn_bwd_dq[(triton.cdiv(p.n_q, bm), p.sequences * p.heads)](
            q4, k4, v4, do4, dq4, descriptor(k4, bn), descriptor(v4, bn), lse, delta, *scales,
            strides, seqs, _kernel_bounds(m), p.heads, cfg, **_launch(config),
        )  # fmt: skip

    def prepare(strategy: str):
        """Tunes the strategy's kernels; returns its choice and a run of the whole backward with it."""
        if strategy == "split_dq":
            dkdv = tuner.pick("dkdv", key, candidates("dkdv"), lambda c: launch_dkdv(c, strategy))
            dq_config = tuner.pick("dq", key, candidates("dq"), launch_dq)

            def run():
                launch_dkdv(dkdv, strategy)
                launch_dq(dq_config)

            return {"strategy": strategy, "dkdv": dkdv, "dq": dq_config}, run
        dkdv = tuner.pick(f"dkdv_{strategy}", key, candidates("dkdv_atomic"), lambda c: launch_dkdv(c, strategy))
        return {"strategy": strategy, "dkdv": dkdv}, lambda: launch_dkdv(dkdv, strategy)

    def candidates(kernel: str) -> list[dict]:
        return tile_candidates(kernel, d_pad, q.device, q.dtype)

    key = _shape_key(tuner, q.device, q.dtype, p, m, varlen)
    options = {
        strategy: functools.partial(prepare, strategy) for strategy in strategies(q.device, tuner, deterministic)
    }
    choice = tuner.pick_strategy("bwd", key, options)
    launch_dkdv(choice["dkdv"], choice["strategy"])
    if choice["strategy"] == "split_dq":
        launch_dq(choice["dq"])
    else:
        dq4.copy_(dq_acc[0].view(p.batch, p.heads, p.rows_q, d_pad)[..., : p.head_dim])
    return dq, dk, dv
