"""Launchers of the attention kernels: tiles from the device's profile, picks from the tuner, grids and arguments.

    o, lse = forward(q, k, v, causal, sm_scale)                  # (B, H, N, D) tensors; lse in log2 units
    dq, dk, dv = backward(q, k, v, o, lse, do, causal, sm_scale)

Tiles: ``tile_candidates`` asks the tile planner (``tile_plan.launch_candidates``) for the device's profile
(``hardware.device_profile``: shipped, or built from the device's properties), giving it the tiles measured
to win on an H200 (``MEASURED_WINNERS``). Under Triton's interpreter each kernel gets one small tile
(``INTERPRETER_TILE``): at test sizes it still runs every loop (mask-free, causal diagonal, ragged tail).

dQ strategies (``tuner.STRATEGIES``): ``split_dq``, a second kernel recomputing S and dP per query block (7 matrix
products, no atomics); ``fused_dq``, the dK/dV kernel adding dS K into an fp32 dQ with per-element atomics (5
products); ``fused_dq_tma``, the same with one bulk reduce-add per tile (Hopper's copy engine). The tuner
times each on its own tiles, then the whole backwards, and keeps the fastest per shape class.
"""

from __future__ import annotations

import functools

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


def device_name(device: torch.device) -> str:
    return torch.cuda.get_device_name(device) if device.type == "cuda" else "interpreter"


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


def strategies(device: torch.device, tuner: Tuner) -> list[str]:
    """dQ strategies this device can run, best guess first: the bulk reduce-add needs Hopper's copy engine."""
    if tuner.options.dq_strategy:
        return [tuner.options.dq_strategy]
    if device.type != "cuda":
        return ["fused_dq"]
    if torch.cuda.get_device_capability(device)[0] >= 9:
        return ["split_dq", "fused_dq_tma"]  # per-element atomics measured 1.1-1.5x slower than split on an H200
    return ["fused_dq", "split_dq"]


def tma_loads_ok(*tensors) -> bool:
    """Whether the backward may fetch tiles through tensor descriptors: sm_90+ (or the interpreter, which
    emulates them), last dimension contiguous, other strides and the base 16-byte aligned."""
    t0 = tensors[0]
    if t0.device.type == "cuda" and torch.cuda.get_device_capability(t0.device)[0] < 9:
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


# ----------------------------------------------------------------------------------------------- forward


def forward(q, k, v, causal: bool, sm_scale: float, o=None, lse=None, tuner: Tuner | None = None):
    """O and the base-2 row LSE; ``o``/``lse`` may be given (kernel_check passes poisoned buffers)."""
    tuner = tuner or default_tuner()
    batch, heads, n_q, head_dim = q.shape
    n_k = k.shape[2]
    d_pad = padded_head_dim(head_dim)
    if o is None:
        o = torch.empty((batch, heads, n_q, head_dim), device=q.device, dtype=q.dtype)
    if lse is None:
        lse = torch.empty((batch, heads, n_q), device=q.device, dtype=torch.float32)
    strides = (q.stride(), k.stride(), v.stride(), o.stride())

    def launch(config):
        cfg = kernels.constants(head_dim, d_pad, config["BLOCK_M"], config["BLOCK_N"], causal)
        grid = (triton.cdiv(n_q, config["BLOCK_M"]), batch * heads)
        kernels._attn_fwd[grid](q, k, v, o, lse, sm_scale * LOG2_E, strides, heads, n_q, n_k, cfg, **_launch(config))

    key = tuner.shape_class(device_name(q.device), q.dtype, head_dim, causal, n_q, n_k, batch * heads)
    launch(tuner.pick("fwd", key, tile_candidates("fwd", d_pad, q.device, q.dtype), launch))
    return o, lse


# ---------------------------------------------------------------------------------------------- backward


def backward(q, k, v, o, lse, do, causal: bool, sm_scale: float, dq=None, dk=None, dv=None, tuner=None):
    """dQ, dK, dV; the three may be given (kernel_check passes poisoned buffers)."""
    tuner = tuner or default_tuner()
    batch, heads, n_q, head_dim = q.shape
    n_k = k.shape[2]
    d_pad = padded_head_dim(head_dim)
    delta = torch.empty((batch, heads, n_q), device=q.device, dtype=torch.float32)
    kernels._attn_bwd_preprocess[(triton.cdiv(n_q, PRE_BLOCK), batch * heads)](
        o, do, delta, (o.stride(), do.stride()), heads, n_q, kernels.constants(head_dim, d_pad, PRE_BLOCK)
    )
    dk = torch.empty((batch, heads, n_k, head_dim), device=q.device, dtype=q.dtype) if dk is None else dk
    dv = torch.empty((batch, heads, n_k, head_dim), device=q.device, dtype=q.dtype) if dv is None else dv
    dq = torch.empty((batch, heads, n_q, head_dim), device=q.device, dtype=q.dtype) if dq is None else dq
    # the fp32 dQ buffer (B*H, N_Q, D_PAD) the fused strategies add into, made only if one runs
    dq_acc: list[torch.Tensor] = []
    load_tma = tuner.options.tma_loads and tma_loads_ok(q, k, v, do)
    descriptor = lambda t, rows: _tile_descriptor(t, rows, d_pad) if load_tma else None
    scales = (sm_scale * LOG2_E, sm_scale)

    def launch_dkdv(config, strategy: str):
        bm, bn = config["BLOCK_M"], config["BLOCK_N"]
        fused, tma = strategy != "split_dq", strategy == "fused_dq_tma"
        dq_desc = None
        if fused:
            if not dq_acc:
                dq_acc.append(torch.empty((batch * heads, n_q, d_pad), device=q.device, dtype=torch.float32))
            dq_acc[0].zero_()
            if tma:
                from triton.tools.tensor_descriptor import TensorDescriptor

                dq_desc = TensorDescriptor.from_tensor(dq_acc[0], [1, bm, d_pad])
        target = dq_acc[0] if fused else dq
        target_strides = (n_q * d_pad * heads, n_q * d_pad, d_pad, 1) if fused else dq.stride()
        strides = (q.stride(), k.stride(), v.stride(), do.stride(), dk.stride(), dv.stride(), target_strides)
        cfg = kernels.constants(head_dim, d_pad, bm, bn, causal, fused, tma, load_tma)
        kernels._attn_bwd_dkdv[(triton.cdiv(n_k, bn), batch * heads)](
            q, k, v, do, dk, dv, target, descriptor(q, bm), descriptor(do, bm), dq_desc, lse, delta, *scales,
            strides, heads, n_q, n_k, cfg, **_launch(config),
        )  # fmt: skip

    def launch_dq(config):
        bm, bn = config["BLOCK_M"], config["BLOCK_N"]
        strides = (q.stride(), k.stride(), v.stride(), do.stride(), dq.stride())
        cfg = kernels.constants(head_dim, d_pad, bm, bn, causal, load_tma=load_tma)
        kernels._attn_bwd_dq[(triton.cdiv(n_q, bm), batch * heads)](
            q, k, v, do, dq, descriptor(k, bn), descriptor(v, bn), lse, delta, *scales,
            strides, heads, n_q, n_k, cfg, **_launch(config),
        )  # fmt: skip

    def prepare(strategy: str):
        """Tunes the strategy's kernels; returns its choice and a run of the whole backward with it."""
        if strategy == "split_dq":
            dkdv = tuner.pick("dkdv", key, candidates("dkdv"), lambda c: launch_dkdv(c, strategy))
            dq_config = tuner.pick("dq", key, candidates("dq"), launch_dq)
            run = lambda: (launch_dkdv(dkdv, strategy), launch_dq(dq_config))
            return {"strategy": strategy, "dkdv": dkdv, "dq": dq_config}, run
        dkdv = tuner.pick(f"dkdv_{strategy}", key, candidates("dkdv_atomic"), lambda c: launch_dkdv(c, strategy))
        return {"strategy": strategy, "dkdv": dkdv}, lambda: launch_dkdv(dkdv, strategy)

    candidates = lambda kernel: tile_candidates(kernel, d_pad, q.device, q.dtype)
    key = tuner.shape_class(device_name(q.device), q.dtype, head_dim, causal, n_q, n_k, batch * heads)
    options = {strategy: functools.partial(prepare, strategy) for strategy in strategies(q.device, tuner)}
    choice = tuner.pick_strategy("bwd", key, options)
    launch_dkdv(choice["dkdv"], choice["strategy"])
    if choice["strategy"] == "split_dq":
        launch_dq(choice["dq"])
    else:
        dq.copy_(dq_acc[0].view(batch, heads, n_q, d_pad)[..., :head_dim])
    return dq, dk, dv
