"""Hopper (sm90) attention backward in Gluon: wgmma on 128-key tiles, TMA loads, dQ by TMA reduce-add.

The portable Triton kernel (``_triton_attention.py``) stays the path for every other GPU and for the CPU
interpreter; this module is imported lazily, only when a CUDA device of compute capability 9.0 is present
(Gluon does not run under ``TRITON_INTERPRET=1``). Written for Triton 3.6's ``triton.experimental.gluon``,
after reading the structure of FlashAttention-3's Hopper backward (Shah et al., 2024), FlashAttention-4's
CuTe-DSL sm90 backward and ThunderKittens' H100 backward; the code is ours.

Math (base-2 exponentials, ``qk_scale = scale * log2(e)``, LSE in those base-2 units, as the portable
forward stores it):

    P^T  = exp2(qk_scale * K Q^T - LSE)          dP^T = V dO^T
    dV  += P^T dO                                 dS^T = P^T * (dP^T - delta),  delta = rowsum(dO * O)
    dK  += dS^T Q        (x scale at the end)     dQ  += dS K  (per key tile; x scale in the post-pass)

Work decomposition: one program per (batch*head, key tile of BLOCK_N = 128 keys); it keeps K, V in shared
memory and dK, dV in registers and walks the query tiles of BLOCK_M rows that see its keys. Everything is
computed transposed (keys on the rows, FlashAttention-3's ``SdP_swapAB``), so P^T and dS^T come out of the
wgmma accumulators in exactly the register layout wgmma wants for a register A operand: dV += P^T dO and
dK += dS^T Q take them from registers with no shared-memory round trip (``convert_layout`` is asserted
trivial). dQ needs dS (not its transpose) as the A operand, so dS^T is written once to shared memory and
read back transposed by the wgmma descriptor. With ``FUSE_DQ`` the program's dQ share of each query tile,
BLOCK_M x D fp32, goes to an fp32 accumulator in global memory by one TMA bulk reduce-add
(``cp.reduce.async.bulk.tensor .add``, FlashAttention-3's strategy); the post-pass scales and casts it.

Per query tile, 5 wgmma products of 2 x BLOCK_N x BLOCK_M x D each: S^T, dP^T (both async, so the
exponentials of P^T overlap dP^T), dV (async, overlaps dS^T), dK and dQ. Two warpgroups (8 warps) split every
product along its rows: each holds 64 keys of S^T, dP^T, dK, dV. With ``WS`` (the default) a producer warp
(24 registers; the math warps get 240 by ``setmaxnreg``) issues the TMA loads of each query tile's Q, dO,
LSE, delta into a ring of ``STAGES`` shared-memory stages on mbarriers, FlashAttention-3's structure; without
it the math warps prefetch ``STAGES - 1`` tiles ahead themselves. The programs of one head's key tiles run
side by side (key tiles fastest in the grid) and visit their unmasked query tiles rotated by the key tile, so
they share Q, dO and the dQ accumulator in L2 without reduce-adding into the same rows at once.

Measured on one H200 (docs/perf.md, "Hopper path (issue 13)" and "continued"): 0.933x cuDNN's backward over the
standard grid (geomean; 0.86x-1.01x; it was 0.925x before the causal programs went longest first), above
FlexAttention at every point measured, GQA 4:1 within 3% of MHA per FLOP, dK/dV alone at up to 614 TFLOP/s of real
work (the portable dK/dV kernel: 492). The plateau is Triton's register allocation (128-row query tiles, FA3's
d64 choice, spill under 240 registers) and synchronisation: the math warps wait at CTA barriers where FA3 only
arrives on named barriers (ncu, d128: tensor pipe 59% busy, a third of the stall cycles at CTA barriers; removing
the one barrier the compiler added around the stage release measured neutral).

Layouts the caller must give (``hopper_supported`` checks q, k, v): tensors of shape (batch, heads, seq,
head_dim), bf16 or fp16 (both validated on the device), q, k, v with last stride 1, other strides and base pointers
16-byte aligned (TMA's rules; do, dk, dv that break them go through contiguous copies, o and dq are accessed by
pointers with any strides); k, v may have fewer heads than q when they divide them (GQA/MQA: one program per
(key tile, batch x kv head) walks the query tiles of each of its ``GROUP`` q heads in turn, so dK, dV are summed
over the group in registers, with no copies of k, v and no extra launch); head_dim 64 or 128; lse (batch, q heads,
n_q) fp32 in base-2 units. Any sequence lengths, n_q and n_k may differ; causal is aligned top-left (SDPA's
``is_causal``: query i sees keys j <= i) or bottom-right (FlashAttention's: j <= i + n_k - n_q; rows that see
no key get dq = 0). TMA zero-fills rows past the end on loads and clips them on stores and reduce-adds; the
kernel masks keys past the end, and queries past the end get P = 0 from the pre-pass, which copies the LSE into
rows padded to a whole number of query tiles with +inf (TMA boxes must start 16-byte aligned in their innermost
dimension: a 1-d box at row ``bh * n_q`` faults with "illegal instruction" when n_q is odd, seen on the device).
Not handled (``hopper_supported`` says False): sliding windows, packed variable-length batches, a deterministic
backward.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import torch
import triton
import triton.language as tl
from triton._C.libtriton import ir
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language._core import builtin
from triton.experimental.gluon.language.nvidia.hopper import (
    fence_async_shared,
    mbarrier,
    tma,
    warpgroup_mma,
    warpgroup_mma_init,
    warpgroup_mma_wait,
)
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

LOG2E = 1.4426950408889634
BLOCK_N = 128  # keys per program: the wgmma M of S^T, dP^T, dK, dV (two warpgroups x 64 rows)
_BN = gl.constexpr(BLOCK_N)
NUM_WARPS = 8


@builtin
def _tma_reduce_add(tensor_desc, coord, src, _semantic=None):
    """global[box at coord] += shared ``src`` by the copy engine (Triton 3.6's Gluon exposes the op in its
    builder but not in ``tma``); completion is tracked like a TMA store, by ``tma.store_wait``."""
    coord = _semantic._convert_to_ir_values(coord, require_i64=False)
    _semantic.builder.create_async_tma_reduce(ir.DESCRIPTOR_REDUCE_KIND.ADD, tensor_desc.handle, coord, src.handle)


@gluon.constexpr_function
def _mma_layout(rows, cols, num_warps):
    """wgmma accumulator layout of a rows x cols tile over ``num_warps`` warps: warps down the rows first
    (16 rows each, a warpgroup = 64 rows), the rest across the columns; the widest instruction N that fits."""
    wm = min(num_warps, rows // 16)
    wn = num_warps // wm
    n = cols // wn
    while n > 256 or (cols // wn) % n != 0:
        n -= 8
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[wm, wn], instr_shape=[16, n, 16])


@gluon.jit
def _issue_q_tile(descs, smem, bar, b, h, bh, N_PAD, q_tile, stage, pred, BLOCK_M: gl.constexpr):
    """TMA loads of one query tile's Q, dO (4-d boxes: rows past the head's end come back as zeros) and its
    LSE, delta (1-d boxes of the padded (batch*heads, N_PAD) vectors) into ``stage``, completing on ``bar``."""
    q_desc, do_desc, lse_desc, delta_desc = descs
    q_smem, do_smem, lse_smem, delta_smem = smem
    nbytes: gl.constexpr = (q_desc.block_type.nbytes + do_desc.block_type.nbytes + lse_desc.block_type.nbytes
                            + delta_desc.block_type.nbytes)
    row = q_tile * BLOCK_M
    mbarrier.expect(bar, nbytes, pred=pred)
    tma.async_copy_global_to_shared(q_desc, [b, h, row, 0], bar, q_smem.index(stage), pred=pred)
    tma.async_copy_global_to_shared(do_desc, [b, h, row, 0], bar, do_smem.index(stage), pred=pred)
    tma.async_copy_global_to_shared(lse_desc, [bh * N_PAD + row], bar, lse_smem.index(stage), pred=pred)
    tma.async_copy_global_to_shared(delta_desc, [bh * N_PAD + row], bar, delta_smem.index(stage), pred=pred)


@gluon.jit
def _q_tile_of(j, sched):
    """The query tile of step ``j`` of one q head: the masked tiles (causal diagonal) first in order, then the
    unmasked ones rotated by the key tile, so the programs of one head reduce-add into different dQ rows at a time
    (measured neutral on the H200, within 2%: the reduce-adds were not contending; kept since it costs nothing)."""
    q_lo, mask_end, n_q_tiles, rot = sched
    n_mask = mask_end - q_lo
    cnt = gl.maximum(n_q_tiles - mask_end, 1)
    return gl.where(j < n_mask, q_lo + j, mask_end + (j - n_mask + rot) % cnt)


@gluon.jit
def _head_tile_of(j, sched, hk, GROUP):
    """(q head, query tile) of the program's step ``j``: the q heads of the kv head ``hk``'s group one after the
    other (GQA: ``GROUP`` q heads share one k/v head; dK, dV sum over all of them in registers), each walking its
    query tiles as ``_q_tile_of`` orders them."""
    n_per = gl.maximum(sched[2] - sched[0], 1)
    g = j // n_per
    return hk * GROUP + g, _q_tile_of(j - g * n_per, sched)


@gluon.jit
def _flush_dq(dq, dq_desc, dq_smem, b, h, q_tile, j, release, BLOCK_M: gl.constexpr, HEAD_DIM: gl.constexpr,
              EARLY_RELEASE: gl.constexpr):
    """dQ share of step j -> fp32 shared buffer j % DQ_BUFS -> one TMA reduce-add into the accumulator. The
    buffer's previous reduce (step j - DQ_BUFS) was waited for (tma.store_wait) before a barrier every warp has
    passed. With EARLY_RELEASE the query-tile stage is handed back to the producer (``release``: its ``empty``
    mbarrier) right after this function's barrier: an mbarrier arrive needs every warp past a barrier first,
    and placed here it shares ours instead of the compiler adding one of its own after the reduce-add."""
    DQ_BUFS: gl.constexpr = dq_smem.shape[0]
    dq4 = dq_smem.index(j % DQ_BUFS)
    dq4.reshape([BLOCK_M, HEAD_DIM]).store(dq)
    fence_async_shared()
    gl.thread_barrier()
    if EARLY_RELEASE:
        mbarrier.arrive(release)
    _tma_reduce_add(dq_desc, [b, h, q_tile * BLOCK_M, 0], dq4)


@gluon.jit
def _step(dk, dv, dq_tok, prev, j, jj, hq, sched, heads, k_start, causal_off, descs, smem, full, empty, dq_desc,
          k2, v2, ds_smem, dq_smem, qk_scale, N_K, N_PAD, HEAD_DIM: gl.constexpr, BLOCK_M: gl.constexpr,
          CAUSAL: gl.constexpr, MASK: gl.constexpr, FUSE_DQ: gl.constexpr, DEFER_DQ: gl.constexpr,
          WS: gl.constexpr, EARLY_RELEASE: gl.constexpr, num_warps: gl.constexpr):
    """Step j of the program (step jj of q head hq): dK, dV accumulate. With FUSE_DQ the step's dQ share is
    reduce-added into the fp32 buffer; with DEFER_DQ that happens one step later, after the next step's S^T, dP^T
    products are issued, so the dQ product, its shared-memory store and the reduce overlap the tensor cores' next
    work (``prev``: the (query tile, q head) whose dQ is pending)."""
    BN: gl.constexpr = _BN
    s_layout: gl.constexpr = _mma_layout(BN, BLOCK_M, num_warps)
    kv_layout: gl.constexpr = _mma_layout(BN, HEAD_DIM, num_warps)
    dq_layout: gl.constexpr = _mma_layout(BLOCK_M, HEAD_DIM, num_warps)
    a_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=kv_layout, k_width=2)
    col_layout: gl.constexpr = gl.SliceLayout(0, s_layout)
    q_smem, do_smem, lse_smem, delta_smem = smem
    dtype: gl.constexpr = q_smem.dtype
    b, hk, H, GROUP = heads

    q_tile = _q_tile_of(jj, sched)
    STAGES: gl.constexpr = q_smem.shape[0]
    stage = j % STAGES
    if not WS:
        # prefetch STAGES - 1 tiles ahead, into the stage the last step used: every warp finished reading it
        # (the wgmma waits of the last step precede the barrier that ends it)
        n_steps = GROUP * (sched[2] - sched[0])
        ahead = j + STAGES - 1
        h_a, t_a = _head_tile_of(ahead, sched, hk, GROUP)
        _issue_q_tile(descs, smem, full.index(ahead % STAGES), b, h_a, b * H + h_a, N_PAD, t_a,
                      ahead % STAGES, ahead < n_steps, BLOCK_M)
    mbarrier.wait(full.index(stage), (j // STAGES) & 1)
    q2 = q_smem.index(stage).reshape([BLOCK_M, HEAD_DIM])
    do2 = do_smem.index(stage).reshape([BLOCK_M, HEAD_DIM])

    zero_s = gl.zeros([BN, BLOCK_M], gl.float32, s_layout)
    s_tok = warpgroup_mma(k2, q2.permute((1, 0)), zero_s, use_acc=False, is_async=True)
    dp_tok = warpgroup_mma(v2, do2.permute((1, 0)), zero_s, use_acc=False, is_async=True)
    if DEFER_DQ:
        dq_prev = warpgroup_mma_wait(num_outstanding=2, deps=(dq_tok,))  # the last step's dQ; S^T, dP^T run on
        if j > 0:
            _flush_dq(dq_prev, dq_desc, dq_smem, b, prev[1], prev[0], j - 1, empty.index(0), BLOCK_M, HEAD_DIM,
                      False)
    lse = lse_smem.index(stage).load(col_layout)
    s_t = warpgroup_mma_wait(num_outstanding=1, deps=(s_tok,))
    # queries past the end have LSE = +inf (the pre-pass pads it), so P = 0 there with no mask
    p_t = gl.exp2(s_t * qk_scale - lse[None, :])
    if MASK:  # causal diagonal, padded keys of a ragged last key tile
        rows = k_start + gl.arange(0, BN, layout=gl.SliceLayout(1, s_layout))
        ok = (rows < N_K)[:, None]
        if CAUSAL:  # key r is seen by query c when r <= c + causal_off (0: top-left, n_k - n_q: bottom-right)
            cols = q_tile * BLOCK_M + gl.arange(0, BLOCK_M, layout=col_layout)
            ok = ok & (cols[None, :] + causal_off >= rows[:, None])
        p_t = gl.where(ok, p_t, 0.0)
    p_a = gl.convert_layout(p_t.to(dtype), a_layout, assert_trivial=True)
    dv_tok = warpgroup_mma(p_a, do2, dv, is_async=True)
    delta = delta_smem.index(stage).load(col_layout)
    dp_t = warpgroup_mma_wait(num_outstanding=1, deps=(dp_tok,))
    ds_t = (p_t * (dp_t - delta[None, :])).to(dtype)
    ds_a = gl.convert_layout(ds_t, a_layout, assert_trivial=True)
    dk_tok = warpgroup_mma(ds_a, q2, dk, is_async=True)
    # with EARLY_RELEASE the stage goes back to the producer inside _flush_dq, under its barrier
    # EARLY_RELEASE: the stage goes back to the producer under _flush_dq's barrier (see hopper_backward)
    released: gl.constexpr = FUSE_DQ and (not DEFER_DQ) and WS and EARLY_RELEASE
    if FUSE_DQ:
        ds_smem.store(ds_t)
        fence_async_shared()
        tma.store_wait(dq_smem.shape[0] - 1)  # the reduce-add that last used this step's dQ buffer has read it
        gl.thread_barrier()
        zero_q = gl.zeros([BLOCK_M, HEAD_DIM], gl.float32, dq_layout)
        dq_tok = warpgroup_mma(ds_smem.permute((1, 0)), k2, zero_q, use_acc=False, is_async=True)
        if DEFER_DQ:
            dv, dk = warpgroup_mma_wait(num_outstanding=1, deps=(dv_tok, dk_tok))
            gl.thread_barrier()  # every warp done with this stage's Q, dO
        else:
            dv, dk, dq = warpgroup_mma_wait(num_outstanding=0, deps=(dv_tok, dk_tok, dq_tok))
            # its barrier: every warp is done with the stage too
            _flush_dq(dq, dq_desc, dq_smem, b, hq, q_tile, j, empty.index(stage), BLOCK_M, HEAD_DIM, released)
    else:
        dv, dk = warpgroup_mma_wait(num_outstanding=0, deps=(dv_tok, dk_tok))
        gl.thread_barrier()
    if WS and not released:
        mbarrier.arrive(empty.index(stage))  # one arrival (thread 0), after a barrier: all warps done with it
    if DEFER_DQ:
        prev = (q_tile, hq)
    return dk, dv, dq_tok, prev  # unchanged unless deferred: nothing extra is carried from step to step


@gluon.jit
def _consumer(descs, out_descs, smem, k4, v4, ds_smem, dq_smem, full, empty, kv_bar, heads, k_start, causal_off,
              sched, qk_scale, sm_scale, N_K, N_PAD, HEAD_DIM: gl.constexpr, BLOCK_M: gl.constexpr,
              CAUSAL: gl.constexpr, FUSE_DQ: gl.constexpr, DEFER_DQ: gl.constexpr, WS: gl.constexpr,
              EARLY_RELEASE: gl.constexpr, num_warps: gl.constexpr):
    """The two math warpgroups: every product and the softmax-gradient algebra; dK, dV stay in registers and sum
    over the kv head's group of q heads."""
    BN: gl.constexpr = _BN
    kv_layout: gl.constexpr = _mma_layout(BN, HEAD_DIM, num_warps)
    dq_layout: gl.constexpr = _mma_layout(BLOCK_M, HEAD_DIM, num_warps)
    dk_desc, dv_desc, dq_desc = out_descs
    dtype: gl.constexpr = k4.dtype
    b, hk, _, GROUP = heads
    q_lo, mask_end, n_q_tiles, _ = sched
    n_per = n_q_tiles - q_lo
    mbarrier.wait(kv_bar, 0)
    k2 = k4.reshape([BN, HEAD_DIM])
    v2 = v4.reshape([BN, HEAD_DIM])
    dk = gl.zeros([BN, HEAD_DIM], gl.float32, kv_layout)
    dv = gl.zeros([BN, HEAD_DIM], gl.float32, kv_layout)
    dq_tok = warpgroup_mma_init(gl.zeros([BLOCK_M, HEAD_DIM], gl.float32, dq_layout))
    prev = (q_lo, hk * GROUP)
    for g in range(GROUP):
        hq = hk * GROUP + g
        for jj in range(mask_end - q_lo):
            dk, dv, dq_tok, prev = _step(dk, dv, dq_tok, prev, g * n_per + jj, jj, hq, sched, heads, k_start,
                                         causal_off, descs, smem, full, empty, dq_desc, k2, v2, ds_smem, dq_smem,
                                         qk_scale, N_K, N_PAD, HEAD_DIM, BLOCK_M, CAUSAL, True, FUSE_DQ, DEFER_DQ,
                                         WS, EARLY_RELEASE, num_warps)
        for jj in range(mask_end - q_lo, n_per):
            dk, dv, dq_tok, prev = _step(dk, dv, dq_tok, prev, g * n_per + jj, jj, hq, sched, heads, k_start,
                                         causal_off, descs, smem, full, empty, dq_desc, k2, v2, ds_smem, dq_smem,
                                         qk_scale, N_K, N_PAD, HEAD_DIM, BLOCK_M, CAUSAL, False, FUSE_DQ, DEFER_DQ,
                                         WS, EARLY_RELEASE, num_warps)
    if DEFER_DQ:
        n_steps = GROUP * n_per
        dq_last = warpgroup_mma_wait(num_outstanding=0, deps=(dq_tok,))
        if n_steps > 0:
            tma.store_wait(dq_smem.shape[0] - 1)
            gl.thread_barrier()
            _flush_dq(dq_last, dq_desc, dq_smem, b, prev[1], prev[0], n_steps - 1, empty.index(0), BLOCK_M,
                      HEAD_DIM, False)

    # epilogue: K and V are no longer read (the last step's barrier follows its wgmma waits): their shared
    # memory stages dK (scaled) and dV for the TMA stores, which clip rows past the end
    k2.store((dk * sm_scale).to(dtype))
    v2.store(dv.to(dtype))
    fence_async_shared()
    gl.thread_barrier()
    tma.async_copy_shared_to_global(dk_desc, [b, hk, k_start, 0], k4)
    tma.async_copy_shared_to_global(dv_desc, [b, hk, k_start, 0], v4)
    tma.store_wait(0)


@gluon.jit
def _producer(descs, kv_descs, smem, k4, v4, full, empty, kv_bar, heads, k_start, sched, N_PAD,
              BLOCK_M: gl.constexpr):
    """One warp: K, V once, then each step's Q, dO, LSE, delta (the group's q heads in turn) into a free stage."""
    k_desc, v_desc = kv_descs
    b, hk, H, GROUP = heads
    mbarrier.expect(kv_bar, k_desc.block_type.nbytes + v_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(k_desc, [b, hk, k_start, 0], kv_bar, k4)
    tma.async_copy_global_to_shared(v_desc, [b, hk, k_start, 0], kv_bar, v4)
    STAGES: gl.constexpr = smem[0].shape[0]
    for j in range(GROUP * (sched[2] - sched[0])):
        stage = j % STAGES
        hq, q_tile = _head_tile_of(j, sched, hk, GROUP)
        mbarrier.wait(empty.index(stage), ((j // STAGES) & 1) ^ 1)  # a fresh barrier passes parity 1 at once
        _issue_q_tile(descs, smem, full.index(stage), b, hq, b * H + hq, N_PAD, q_tile, stage, True, BLOCK_M)


@gluon.jit
def _program_tile(CHUNK, HEAVY_FIRST: gl.constexpr):
    """(key tile, batch x kv head) of this program. Key tiles fastest: the programs running together are the key
    tiles of one or a few heads, which share their Q, dO reads and their dQ accumulator in L2 (heads fastest spread
    them over 132 heads at seq 1k, more than L2 holds: measured 2x slower there). With HEAVY_FIRST (causal) the
    heads go in chunks of CHUNK, about as many programs as SMs, and inside a chunk the key tiles go slowest: the
    first key tiles of every head in the chunk (the most query tiles under a causal mask) start first and the
    short ones fill the tail, where head by head a late head's longest program would start last."""
    kb = gl.program_id(0)
    bhk = gl.program_id(1)
    if HEAVY_FIRST:
        n_kt = gl.num_programs(0)
        pid = bhk * n_kt + kb  # launch order: axis 0 fastest
        span = CHUNK * n_kt
        first = (pid // span) * CHUNK
        width = gl.minimum(CHUNK, gl.num_programs(1) - first)  # the last chunk may hold fewer heads
        r = pid - first * n_kt
        kb = r // width
        bhk = first + r % width
    return kb, bhk


@gluon.jit(do_not_specialize=["H", "N_Q", "N_K", "CAUSAL_OFF", "CHUNK"])  # one compile per (d, causal, group, variant)
def _attn_bwd_hopper(q_desc, k_desc, v_desc, do_desc, lse_desc, delta_desc, dk_desc, dv_desc, dq_desc,
                     qk_scale, sm_scale, H, N_Q, N_K, CAUSAL_OFF, CHUNK, GROUP: gl.constexpr,
                     HEAD_DIM: gl.constexpr, BLOCK_M: gl.constexpr, CAUSAL: gl.constexpr,
                     FUSE_DQ: gl.constexpr, DEFER_DQ: gl.constexpr, WS: gl.constexpr, STAGES: gl.constexpr,
                     DQ_BUFS: gl.constexpr, EARLY_RELEASE: gl.constexpr, HEAVY_FIRST: gl.constexpr,
                     num_warps: gl.constexpr):
    BN: gl.constexpr = _BN
    dtype: gl.constexpr = q_desc.dtype

    # batch x kv head; H // GROUP kv heads, each serving GROUP q heads. GROUP is a compile-time constant: with 1
    # (no GQA) the loop over the group folds away and the kernel is the MHA one (a run-time group loop cost d128
    # 32 more bytes of spilled registers, by the sm90 report)
    kb, bhk = _program_tile(CHUNK, HEAVY_FIRST and CAUSAL)
    H_KV = H // GROUP
    b = bhk // H_KV
    hk = bhk % H_KV
    k_start = kb * BN

    k4 = gl.allocate_shared_memory(dtype, k_desc.block_type.shape, k_desc.layout)
    v4 = gl.allocate_shared_memory(dtype, v_desc.block_type.shape, v_desc.layout)
    q_smem = gl.allocate_shared_memory(dtype, [STAGES] + q_desc.block_type.shape, q_desc.layout)  # noqa: RUF005 (no starred lists in Gluon)
    do_smem = gl.allocate_shared_memory(dtype, [STAGES] + do_desc.block_type.shape, do_desc.layout)  # noqa: RUF005 (no starred lists in Gluon)
    lse_smem = gl.allocate_shared_memory(gl.float32, [STAGES] + lse_desc.block_type.shape, lse_desc.layout)  # noqa: RUF005 (no starred lists in Gluon)
    delta_smem = gl.allocate_shared_memory(gl.float32, [STAGES] + delta_desc.block_type.shape, delta_desc.layout)  # noqa: RUF005 (no starred lists in Gluon)
    ds_layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BN, BLOCK_M], dtype)
    ds_smem = gl.allocate_shared_memory(dtype, [BN, BLOCK_M], ds_layout)
    if FUSE_DQ:
        dq_smem = gl.allocate_shared_memory(gl.float32, [DQ_BUFS] + dq_desc.block_type.shape, dq_desc.layout)  # noqa: RUF005 (no starred lists in Gluon)
    else:
        dq_smem = ds_smem
    full = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    kv_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    for i in gl.static_range(STAGES):
        mbarrier.init(full.index(i), count=1)
        mbarrier.init(empty.index(i), count=1)
    mbarrier.init(kv_bar, count=1)
    fence_async_shared()

    n_q_tiles = gl.cdiv(N_Q, BLOCK_M)
    n_pad = n_q_tiles * BLOCK_M  # row length of the padded LSE / delta
    if CAUSAL:
        # query c sees key r when r <= c + CAUSAL_OFF: the first tile holding a query that sees the first key,
        # and the first tile whose every query sees every key of this tile (clamped: the offset may be negative)
        q_lo = gl.minimum(gl.maximum(k_start - CAUSAL_OFF, 0) // BLOCK_M, n_q_tiles)
        mask_end = gl.minimum(gl.cdiv(gl.maximum(k_start + BN - 1 - CAUSAL_OFF, 0), BLOCK_M), n_q_tiles)
    else:
        q_lo = 0
        mask_end = q_lo
    if k_start + BN > N_K:
        mask_end = n_q_tiles  # the ragged last key tile masks its padded keys in every step
    n_k_tiles = gl.cdiv(N_K, BN)
    rot = (kb * gl.maximum(n_q_tiles - mask_end, 1)) // n_k_tiles
    sched = (q_lo, mask_end, n_q_tiles, rot)
    heads = (b, hk, H, GROUP)

    descs = (q_desc, do_desc, lse_desc, delta_desc)
    smem = (q_smem, do_smem, lse_smem, delta_smem)
    out_descs = (dk_desc, dv_desc, dq_desc)
    if WS:
        gl.warp_specialize([
            (_consumer, (descs, out_descs, smem, k4, v4, ds_smem, dq_smem, full, empty, kv_bar, heads, k_start,
                         CAUSAL_OFF, sched, qk_scale, sm_scale, N_K, n_pad, HEAD_DIM, BLOCK_M, CAUSAL, FUSE_DQ,
                         DEFER_DQ, WS, EARLY_RELEASE, num_warps)),
            (_producer, (descs, (k_desc, v_desc), smem, k4, v4, full, empty, kv_bar, heads, k_start, sched,
                         n_pad, BLOCK_M)),
        ], [1], [24])
    else:
        mbarrier.expect(kv_bar, k_desc.block_type.nbytes + v_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(k_desc, [b, hk, k_start, 0], kv_bar, k4)
        tma.async_copy_global_to_shared(v_desc, [b, hk, k_start, 0], kv_bar, v4)
        n_steps = GROUP * (n_q_tiles - q_lo)
        for i in gl.static_range(STAGES - 1):
            h_i, t_i = _head_tile_of(i, sched, hk, GROUP)
            _issue_q_tile(descs, smem, full.index(i), b, h_i, b * H + h_i, n_pad, t_i, i, i < n_steps, BLOCK_M)
        _consumer(descs, out_descs, smem, k4, v4, ds_smem, dq_smem, full, empty, kv_bar, heads, k_start, CAUSAL_OFF,
                  sched, qk_scale, sm_scale, N_K, n_pad, HEAD_DIM, BLOCK_M, CAUSAL, FUSE_DQ, DEFER_DQ, WS,
                  EARLY_RELEASE, num_warps)


# ------------------------------------------------------------------------------------- pre- and post-pass


@triton.jit
def _bwd_pre(OUT, DO, LSE, LSE_PAD, DELTA_PAD, DQ_ACC, stride_ob, stride_oh, stride_om, stride_dob, stride_doh,
             stride_dom, H, N_Q, N_PAD, HEAD_DIM: tl.constexpr, BLOCK: tl.constexpr, ZERO_DQ: tl.constexpr):
    """delta = rowsum(dO * O) in fp32 and a copy of the LSE, both in rows of N_PAD (a multiple of the kernel's
    query tile, so every TMA box starts 16-byte aligned and stays in its head) padded with delta = 0 and
    LSE = +inf (P = 0 for queries past the end); with ZERO_DQ, zeros of the fp32 dQ accumulator's rows."""
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    d = tl.arange(0, HEAD_DIM)
    in_rows = rows < N_Q
    m = in_rows[:, None]
    o = tl.load(OUT + b * stride_ob + h * stride_oh + rows[:, None] * stride_om + d[None, :], mask=m, other=0.0)
    do = tl.load(DO + b * stride_dob + h * stride_doh + rows[:, None] * stride_dom + d[None, :], mask=m, other=0.0)
    delta = tl.sum(o.to(tl.float32) * do.to(tl.float32), 1)
    lse = tl.load(LSE + bh.to(tl.int64) * N_Q + rows, mask=in_rows, other=float("inf"))
    tl.store(DELTA_PAD + bh.to(tl.int64) * N_PAD + rows, tl.where(in_rows, delta, 0.0), mask=rows < N_PAD)
    tl.store(LSE_PAD + bh.to(tl.int64) * N_PAD + rows, lse, mask=rows < N_PAD)
    if ZERO_DQ:
        acc = DQ_ACC + bh.to(tl.int64) * N_Q * HEAD_DIM + rows[:, None] * HEAD_DIM + d[None, :]
        tl.store(acc, tl.zeros([BLOCK, HEAD_DIM], tl.float32), mask=m)


@triton.jit
def _bwd_post(DQ_ACC, DQ, stride_qb, stride_qh, stride_qm, H, N_Q, sm_scale,
              HEAD_DIM: tl.constexpr, BLOCK: tl.constexpr):
    """dQ = scale * the fp32 accumulator, cast to dQ's dtype (any strides, last one 1)."""
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    d = tl.arange(0, HEAD_DIM)
    m = (rows < N_Q)[:, None]
    acc = tl.load(DQ_ACC + bh.to(tl.int64) * N_Q * HEAD_DIM + rows[:, None] * HEAD_DIM + d[None, :], mask=m)
    tl.store(DQ + b * stride_qb + h * stride_qh + rows[:, None] * stride_qm + d[None, :],
             (acc * sm_scale).to(DQ.dtype.element_ty), mask=m)


# ------------------------------------------------------------------------------------------- launchers


def block_m(head_dim: int) -> int:
    """Query rows per step: 64. FlashAttention-3's sm90 backward takes 128 at d64, but with Triton's register
    allocation that tile spills under the 240-register budget of warp specialization (measured on the H200:
    0.60x cuDNN at d64 with 128 rows against 0.91x with 64)."""
    return 64


def default_config(head_dim: int) -> dict:
    """The measured best on the H200 (docs/perf.md, "Hopper path (issue 13)"): warp-specialized, dQ reduce-added
    in the same kernel; three query-tile stages where shared memory allows (d64), two at d128; causal programs
    longest first (+3% on the causal half of the grid, and GQA 4:1 causal from 0.90x to 0.97x of MHA per FLOP).
    ``early_release`` measured neutral (within the +-2% run-to-run spread, both ways in two runs); kept on at d128
    because the heavy-first measurement ran with it."""
    return {"fuse_dq": True, "warp_specialize": True, "defer_dq": False, "block_rows": 64,
            "stages": 3 if head_dim <= 64 else 2, "dq_buffers": 2, "early_release": head_dim > 64,
            "heavy_first": True}


# dtypes checked on the H200 against float64 (benchmarks/hopper_attention.py --check, 2026-11-30: bf16 and fp16,
# 22 cases each way: GQA/MQA, bottom-right causal, odd and unequal lengths, strided views)
VALIDATED_DTYPES = (torch.bfloat16, torch.float16)


_GL_DTYPES = {torch.bfloat16: gl.bfloat16, torch.float16: gl.float16, torch.float32: gl.float32}


@functools.cache
def _smem_layout(block: tuple[int, ...], dtype: torch.dtype) -> gl.NVMMASharedLayout:
    """The shared-memory layout (swizzle) of a TMA box: a function of the box and the dtype alone, so made once
    (building it costs ~10 us of Python: docs/perf.md, "Host overhead and the grid again")."""
    return gl.NVMMASharedLayout.get_default_for(list(block), _GL_DTYPES[dtype])


def _desc(t: torch.Tensor, rows: int, checked: bool = False) -> TensorDescriptor:
    """A TMA descriptor over a 4-d (batch, heads, seq, head_dim) tensor with (1, 1, rows, head_dim) boxes, or over
    a 1-d vector with (rows,) boxes.

    Made without ``TensorDescriptor.__init__``, whose checks cost more than the rest of the descriptor: the ones
    that can fail for our tensors (base and strides 16-byte aligned, last stride 1, no empty dimension) are made
    here, the others (rank, box shape, layout type) hold by construction. The object is the same class with the
    same fields, so Triton specialises and encodes it as before (the CUtensorMap itself is encoded by Triton's
    launcher at each launch, from ``base.data_ptr()``, shape and strides: nothing here outlives the call).
    ``checked``: the caller has seen ``_tma_ok(t)`` already."""
    if not (checked or _tma_ok(t)) or min(t.shape) < 1:
        raise ValueError(f"hopper_backward: a TMA descriptor needs 16-byte aligned, non-empty tensors with last "
                         f"stride 1, got shape {tuple(t.shape)}, strides {t.stride()}")  # fmt: skip
    block = (rows,) if t.dim() == 1 else (1, 1, rows, t.shape[-1])
    if not _DESC_FAST:  # a Triton whose descriptor has other required fields: its own constructor
        return TensorDescriptor(t, list(t.shape), list(t.stride()), list(block), _smem_layout(block, t.dtype))
    desc = object.__new__(TensorDescriptor)
    desc.__dict__.update(_DESC_DEFAULTS)  # padding "zero" (and, in later Tritons, their new fields' defaults)
    desc.base, desc.shape, desc.strides = t, list(t.shape), list(t.stride())
    desc.block_shape, desc.layout = list(block), _smem_layout(block, t.dtype)
    return desc


_DESC_DEFAULTS = {f.name: f.default for f in dataclasses.fields(TensorDescriptor) if f.default is not dataclasses.MISSING}
_DESC_FAST = {f.name for f in dataclasses.fields(TensorDescriptor)} - set(_DESC_DEFAULTS) == {
    "base", "shape", "strides", "block_shape", "layout"}  # fmt: skip


def hopper_supported(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool, bottom_right: bool,
                     window: tuple[int, int] | None, deterministic: bool, varlen: bool) -> bool:
    """True when ``hopper_backward`` takes these inputs (``hopper_unsupported`` says why not)."""
    return hopper_unsupported(q, k, v, causal=causal, bottom_right=bottom_right, window=window,
                              deterministic=deterministic, varlen=varlen) is None


def hopper_unsupported(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, *, causal: bool, bottom_right: bool,
                       window: tuple[int, int] | None, deterministic: bool, varlen: bool) -> str | None:
    """None when ``hopper_backward`` takes these inputs, else the first reason it does not. Taken: a validated
    dtype (bf16, fp16); head_dim 64 or 128; 4-d (batch, heads, seq, head_dim) q and k, v with k/v heads dividing
    q heads (GQA/MQA); last stride 1, other strides and base pointers 16-byte aligned; causal masking either way,
    aligned top-left or bottom-right, or none; an sm90 CUDA device (checked last, so that the rest can be asked
    on any machine). Not handled: a sliding window, packed variable-length batches, a deterministic backward
    (dQ is summed by reduce-adds in whatever order the key tiles finish)."""
    del causal, bottom_right  # both alignments and no mask are handled
    if window is not None:
        return "sliding windows are not handled"
    if deterministic:
        return "not deterministic: dQ is summed by reduce-adds in completion order"
    if varlen:
        return "packed variable-length batches are not handled"
    tensors = (q, k, v)
    if not all(isinstance(t, torch.Tensor) and t.dim() == 4 for t in tensors):
        return "q, k, v must be 4-d (batch, heads, seq, head_dim) tensors"
    if q.dtype not in VALIDATED_DTYPES or k.dtype != q.dtype or v.dtype != q.dtype:
        return f"dtype {q.dtype}/{k.dtype}/{v.dtype}: one of {', '.join(map(str, VALIDATED_DTYPES))} for all three"
    if q.shape[-1] not in (64, 128) or k.shape[-1] != q.shape[-1] or v.shape != k.shape:
        return f"head_dim {q.shape[-1]} (64 or 128, k and v alike)"
    if k.shape[0] != q.shape[0] or k.shape[1] < 1 or q.shape[1] % k.shape[1]:
        return f"{q.shape[1]} q heads over {k.shape[1]} k/v heads (k/v heads must divide q heads, same batch)"
    if not all(_tma_ok(t) for t in tensors):
        return "strides or base pointers not 16-byte aligned (last stride must be 1)"
    if not _on_sm90(*tensors):
        return "needs an sm90 CUDA device"
    return None


def _on_sm90(*tensors: torch.Tensor) -> bool:
    """Whether the tensors live on an sm90 CUDA device (the first one's device is asked)."""
    if not all(t.is_cuda for t in tensors):
        return False
    device = tensors[0].device
    return _device_facts(device.index if device.index is not None else torch.cuda.current_device())[0] == (9, 0)


@functools.cache
def _device_facts(index: int) -> tuple[tuple[int, int], int]:
    """(compute capability, SM count) of CUDA device ``index``, read once (asked on every backward)."""
    properties = torch.cuda.get_device_properties(index)
    return (properties.major, properties.minor), properties.multi_processor_count


def _num_sms(device: torch.device) -> int:
    return _device_facts(device.index if device.index is not None else torch.cuda.current_device())[1]


def _tma_ok(t: torch.Tensor) -> bool:
    """Last stride 1, base pointer and other strides 16-byte aligned (TMA's rules)."""
    strides = t.stride()
    if strides[-1] != 1 or t.data_ptr() % 16:
        return False
    size = t.element_size()
    return all(stride * size % 16 == 0 for stride in strides[:-1])


# Compiled handles of the main kernel, keyed by everything Triton specialises it on (``_launch_main``)
_COMPILED: dict[tuple, Any] = {}  # triton.compiler.CompiledKernel
_INT32 = (-(2**31), 2**31 - 1)


def _launch_main(grid, dtype: torch.dtype, descs: list, scalars: tuple, constexprs: dict) -> None:
    """Launches ``_attn_bwd_hopper``: through Triton's JIT the first time per key, then through the compiled
    kernel's handle (``CompiledKernel[grid](*args)``), which skips the JIT's argument binding, specialisation
    and cache-key hashing (~30 us per call, most of it the layouts' repr of nine descriptors).

    Safe because the key holds everything the JIT would specialise this kernel on: the descriptors' type
    (dtype: q's, or fp32 for LSE, delta and the dQ accumulator; box: from HEAD_DIM and BLOCK_M; layout: from
    both), the floats (never specialised), the ints (``do_not_specialize``: only each one's width, i32 or i64), the
    constexprs, num_warps, the current device, and the JIT's debug and instrumentation settings. The handle
    holds no tensor: each launch passes this call's descriptors, and Triton's launcher encodes their
    CUtensorMaps from this call's pointers, shapes and strides."""
    from triton import knobs
    from triton.runtime import driver

    device = driver.active.get_current_device()
    wide = tuple(not _INT32[0] <= i <= _INT32[1] for i in scalars[2:])  # which ints the JIT would make i64
    key = (device, dtype, tuple(constexprs.values()), wide, knobs.runtime.debug,
           knobs.compilation.instrumentation_mode)  # fmt: skip
    kernel = _COMPILED.get(key)
    if kernel is None:
        _COMPILED[key] = _attn_bwd_hopper[grid](*descs, *scalars, **constexprs, num_warps=NUM_WARPS)
        return
    kernel[(*grid, 1)](*descs, *scalars, *constexprs.values(), NUM_WARPS)  # every parameter, in order (num_warps last)


def hopper_backward(q, k, v, o, lse, do, causal: bool, sm_scale: float, dq, dk, dv, *, bottom_right: bool = False,
                    **config) -> None:
    """Writes dq, dk, dv (preallocated, same shapes as q, k, v; any TMA-legal strides) for the attention whose
    forward gave o and lse (base-2 LSE, (batch, q heads, n_q) fp32). k and v may have fewer heads than q (GQA: q
    head h reads k/v head h // (q heads / kv heads)); dk, dv of a kv head are summed over its q heads inside the
    kernel. ``bottom_right`` aligns the causal mask to the end (query i sees keys j <= i + n_k - n_q,
    FlashAttention's convention; rows that see no key get dq = 0 whatever their LSE); otherwise top-left (SDPA's
    ``is_causal``).

    Config (any left out takes ``default_config(head_dim)``): with ``fuse_dq=False`` only dk and dv are written
    (the dK/dV kernel alone: the prototype's measurement). ``warp_specialize`` gives the TMA loads to a producer
    warp (FlashAttention-3's structure) instead of the math warps; ``defer_dq`` overlaps each step's dQ product and
    reduce-add with the next step's products; ``stages`` query tiles in flight; ``dq_buffers`` fp32 dQ staging
    buffers; ``early_release`` hands a query-tile stage back under the dQ barrier (one CTA barrier fewer per
    step); ``heavy_first`` orders causal programs longest first within chunks of heads (see ``_program_tile``).
    Extra memory: the fp32 dQ accumulator (batch, q heads, n_q, head_dim) and two padded fp32 vectors
    (LSE copy, delta) of one value per query row."""
    cfg = {**default_config(q.shape[-1]), **config}
    fuse_dq, warp_specialize, defer_dq = cfg["fuse_dq"], cfg["warp_specialize"], cfg["defer_dq"]
    block_rows, stages, dq_buffers = cfg["block_rows"], cfg["stages"], cfg["dq_buffers"]
    batch, heads, n_q, head_dim = q.shape
    kv_heads, n_k = k.shape[1], k.shape[2]
    if heads % kv_heads:
        raise ValueError(f"hopper_backward: q has {heads} heads, not a multiple of k/v's {kv_heads}")
    bm = block_rows or block_m(head_dim)
    do = do if _tma_ok(do) else do.contiguous()  # read by TMA; o and dq go through pointers (any strides)
    dk_out, dv_out = dk, dv
    dk = dk if _tma_ok(dk) else torch.empty_like(dk, memory_format=torch.contiguous_format)
    dv = dv if _tma_ok(dv) else torch.empty_like(dv, memory_format=torch.contiguous_format)
    n_pad = triton.cdiv(n_q, bm) * bm
    lse = lse.contiguous()
    lse_pad = torch.empty((batch * heads * n_pad,), device=q.device, dtype=torch.float32)
    delta_pad = torch.empty((batch * heads * n_pad,), device=q.device, dtype=torch.float32)
    dq_acc = torch.empty((batch, heads, n_q, head_dim), device=q.device, dtype=torch.float32) if fuse_dq else None
    grid_pre = (n_pad // bm, batch * heads)
    _bwd_pre[grid_pre](o, do, lse, lse_pad, delta_pad, dq_acc if dq_acc is not None else delta_pad, o.stride(0),
                       o.stride(1), o.stride(2), do.stride(0), do.stride(1), do.stride(2), heads, n_q, n_pad,
                       HEAD_DIM=head_dim, BLOCK=bm, ZERO_DQ=fuse_dq, num_warps=4)
    # do, dk, dv were made TMA-legal above, the padded vectors and the accumulator are fresh allocations: only q, k
    # and v are checked here (hopper_supported asked the same, but hopper_backward is also called directly)
    descs = [_desc(q, bm), _desc(k, BLOCK_N), _desc(v, BLOCK_N), _desc(do, bm, True), _desc(lse_pad, bm, True),
             _desc(delta_pad, bm, True), _desc(dk, BLOCK_N, True), _desc(dv, BLOCK_N, True)]
    descs.append(_desc(dq_acc, bm, True) if dq_acc is not None else descs[0])
    causal_off = n_k - n_q if (causal and bottom_right) else 0
    grid = (triton.cdiv(n_k, BLOCK_N), batch * kv_heads)
    chunk = max(1, _num_sms(q.device) // grid[0])  # heads per chunk of the heavy-first order: one wave of programs
    constexprs = {"GROUP": heads // kv_heads, "HEAD_DIM": head_dim, "BLOCK_M": bm, "CAUSAL": bool(causal),
                  "FUSE_DQ": bool(fuse_dq), "DEFER_DQ": bool(fuse_dq and defer_dq), "WS": bool(warp_specialize),
                  "STAGES": stages, "DQ_BUFS": dq_buffers, "EARLY_RELEASE": bool(cfg["early_release"]),
                  "HEAVY_FIRST": bool(cfg["heavy_first"])}  # fmt: skip
    _launch_main(grid, q.dtype, descs, (sm_scale * LOG2E, sm_scale, heads, n_q, n_k, causal_off, chunk), constexprs)
    if dq_acc is not None:
        post_block = 64
        _bwd_post[(triton.cdiv(n_q, post_block), batch * heads)](
            dq_acc, dq, dq.stride(0), dq.stride(1), dq.stride(2), heads, n_q, sm_scale,
            HEAD_DIM=head_dim, BLOCK=post_block, num_warps=4)
    if dk is not dk_out:
        dk_out.copy_(dk)
    if dv is not dv_out:
        dv_out.copy_(dv)
