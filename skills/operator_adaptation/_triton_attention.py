"""Triton kernels for fused scaled-dot-product attention, forward and backward.

Algorithm: FlashAttention-2 (Dao, "FlashAttention-2: Faster Attention with Better Parallelism and Work
Partitioning", 2023), built on FlashAttention (Dao, Fu, Ermon, Rudra, Ré, "FlashAttention: Fast and
Memory-Efficient Exact Attention with IO-Awareness", NeurIPS 2022). The softmax is computed online
(Milakov & Gimelshein, "Online normalizer calculation for softmax", 2018), so the N x N score matrix never
reaches device memory. The forward pass writes O and the per-row log-sum-exp (LSE); the backward pass
recomputes the probabilities P = exp(S - LSE) block by block from Q, K and the saved LSE:

    S  = scale * Q K^T            P  = exp(S - LSE)           O  = P V
    dV = P^T dO                   dP = dO V^T                 dS = P * (dP - delta),  delta = rowsum(dO * O)
    dQ = scale * dS K             dK = scale * dS^T Q

Kernels (layout (batch, heads, seq, head_dim), any strides):
- ``_attn_fwd``            one program per (query block, batch*head): O and LSE.
- ``_attn_bwd_preprocess`` delta = rowsum(dO * O), one fp32 value per query row.
- ``_attn_bwd_dkdv``       one program per (key block, batch*head): dK and dV, iterating over query blocks.
                           With ``FUSED_DQ`` it also adds its share of dQ into an fp32 buffer (FlashAttention-2's
                           strategy: 5 matrix products per block pair instead of 7), either with per-element
                           atomics or, with ``DQ_TMA`` (Hopper), one bulk reduce-add of the tile through a tensor
                           descriptor, as FlashAttention-3 does.
- ``_attn_bwd_dq``         one program per (query block, batch*head): dQ, iterating over key blocks (the
                           Triton-tutorial strategy: no atomics, QK^T and dO V^T computed twice).

With ``LOAD_TMA`` the backward kernels fetch their streamed tiles of full blocks through tensor
descriptors (Hopper's copy engine; any strides that are 16-byte aligned), so no registers go to addresses
and masks there; the masked blocks keep ordinary loads.

Exponentials are base 2 (``exp2``) with the scale folded into ``qk_scale = scale * log2(e)``; the stored
LSE is in those base-2 units. All accumulation is fp32. Sequence tails (any length) and head dims that are
not a power of two (padded to ``D_PAD`` with masks) are handled with masked loads: each loop is split into
a mask-free part over full blocks and a masked part for the causal diagonal and the ragged tail.

``INTERPRETER`` is set only under Triton's CPU interpreter (``TRITON_INTERPRET=1``, used by the CI tests),
which differs from the GPU in two ways that would make the tests see other numerics: its ``tl.dot`` on bf16
operands multiplies the raw 16-bit patterns, and its fp32 -> bf16 cast truncates instead of rounding to
nearest even. Under the flag, dot operands are widened to fp32 first (bf16 x bf16 products are exact in
fp32, so the function is unchanged) and bf16 casts round by hand (``_cast``). On a GPU the flag is off and
the compiled code is the plain one.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def _mma(a, b, acc, INTERPRETER: tl.constexpr):
    """acc + a @ b with fp32 accumulation."""
    if INTERPRETER:
        a = a.to(tl.float32)
        b = b.to(tl.float32)
    return tl.dot(a, b, acc)


@triton.jit
def _cast(x, dtype: tl.constexpr, INTERPRETER: tl.constexpr):
    """x.to(dtype), rounding to nearest even also where the interpreter would truncate to bf16."""
    if INTERPRETER:
        if dtype == tl.bfloat16:
            bits = x.to(tl.uint32, bitcast=True)
            bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000  # round the low 16 bits away, ties to even
            x = bits.to(tl.float32, bitcast=True)
    return x.to(dtype)


@triton.jit
def _load(ptrs, mask, USE_MASK: tl.constexpr):
    """A tile load that carries no mask at all where the caller knows the tile is in bounds."""
    if USE_MASK:
        return tl.load(ptrs, mask=mask, other=0.0)
    else:
        return tl.load(ptrs)


# --------------------------------------------------------------------------------------------- forward


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, K, V, stride_kn, stride_kd, stride_vn, stride_vd,
                    offs_m, offs_d, start, end, N_K, qk_scale,
                    HEAD_DIM: tl.constexpr, D_PAD: tl.constexpr, BLOCK_N: tl.constexpr, EVEN_D: tl.constexpr,
                    CAUSAL: tl.constexpr, MASKED: tl.constexpr, INTERPRETER: tl.constexpr):
    d_ok = offs_d < HEAD_DIM
    for start_n in range(start, end, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = d_ok[:, None]
        if MASKED:
            kv_mask = kv_mask & (offs_n < N_K)[None, :]
        kT = _load(K + offs_n[None, :] * stride_kn + offs_d[:, None] * stride_kd, kv_mask, MASKED or not EVEN_D)  # (D, BN)
        qk = _mma(q, kT, tl.zeros([q.shape[0], BLOCK_N], tl.float32), INTERPRETER) * qk_scale  # log2 units
        if MASKED:
            keep = (offs_n < N_K)[None, :]
            if CAUSAL:
                keep = keep & (offs_n[None, :] <= offs_m[:, None])
            qk = tl.where(keep, qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)  # rescales what was accumulated under the old running max
        l_i = l_i * alpha + tl.sum(p, 1)
        v = _load(V + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd, tl.trans(kv_mask), MASKED or not EVEN_D)
        acc = _mma(_cast(p, v.dtype, INTERPRETER), v, acc * alpha[:, None], INTERPRETER)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, O, LSE, qk_scale,
              stride_qb, stride_qh, stride_qm, stride_qd,
              stride_kb, stride_kh, stride_kn, stride_kd,
              stride_vb, stride_vh, stride_vn, stride_vd,
              stride_ob, stride_oh, stride_om, stride_od,
              H, N_Q, N_K,
              HEAD_DIM: tl.constexpr, D_PAD: tl.constexpr, EVEN_D: tl.constexpr,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              CAUSAL: tl.constexpr, INTERPRETER: tl.constexpr):
    tl.static_assert(BLOCK_M % BLOCK_N == 0)  # the causal diagonal starts on a key-block boundary
    tl.static_assert(D_PAD >= HEAD_DIM)
    tl.static_assert(EVEN_D == (HEAD_DIM == D_PAD))
    num_m = tl.cdiv(N_Q, BLOCK_M)
    pid_m = num_m - 1 - tl.program_id(0)  # causal: the longest rows start first
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    Q += b * stride_qb + h * stride_qh
    K += b * stride_kb + h * stride_kh
    V += b * stride_vb + h * stride_vh
    O += b * stride_ob + h * stride_oh
    LSE += bh.to(tl.int64) * N_Q

    start_m = pid_m * BLOCK_M
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D_PAD)
    io_mask = (offs_m < N_Q)[:, None] & (offs_d < HEAD_DIM)[None, :]
    q = tl.load(Q + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd, mask=io_mask, other=0.0)  # (BM, D)

    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, D_PAD], tl.float32)
    full_k = (N_K // BLOCK_N) * BLOCK_N
    if CAUSAL:
        free_end = tl.minimum(start_m, full_k)  # keys < start_m are visible to every row of the block
        masked_end = tl.minimum(N_K, start_m + BLOCK_M)
    else:
        free_end = full_k
        masked_end = N_K
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K, V, stride_kn, stride_kd, stride_vn, stride_vd,
                                    offs_m, offs_d, 0, free_end, N_K, qk_scale,
                                    HEAD_DIM, D_PAD, BLOCK_N, EVEN_D, CAUSAL, False, INTERPRETER)
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K, V, stride_kn, stride_kd, stride_vn, stride_vd,
                                    offs_m, offs_d, free_end, masked_end, N_K, qk_scale,
                                    HEAD_DIM, D_PAD, BLOCK_N, EVEN_D, CAUSAL, True, INTERPRETER)
    acc = acc / l_i[:, None]
    tl.store(LSE + offs_m, m_i + tl.math.log2(l_i), mask=offs_m < N_Q)  # LSE in log2 units
    tl.store(O + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od, _cast(acc, O.dtype.element_ty, INTERPRETER),
             mask=io_mask)


# -------------------------------------------------------------------------------------------- backward


@triton.jit
def _attn_bwd_preprocess(O, DO, DELTA,
                         stride_ob, stride_oh, stride_om, stride_od,
                         stride_dob, stride_doh, stride_dom, stride_dod,
                         H, N_Q,
                         HEAD_DIM: tl.constexpr, D_PAD: tl.constexpr, BLOCK_M: tl.constexpr):
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D_PAD)
    mask = (offs_m < N_Q)[:, None] & (offs_d < HEAD_DIM)[None, :]
    o = tl.load(O + b * stride_ob + h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od,
                mask=mask, other=0.0).to(tl.float32)
    do = tl.load(DO + b * stride_dob + h * stride_doh + offs_m[:, None] * stride_dom + offs_d[None, :] * stride_dod,
                 mask=mask, other=0.0).to(tl.float32)
    tl.store(DELTA + bh.to(tl.int64) * N_Q + offs_m, tl.sum(o * do, 1), mask=offs_m < N_Q)  # delta = rowsum(dO * O)


@triton.jit
def _attn_bwd_dkdv_inner(dk, dv, k, v, Q, DO, DQ, Q_DESC, DO_DESC, DQ_DESC, bh, b_idx, h_idx, LSE, DELTA,
                         stride_qm, stride_qd, stride_dom, stride_dod, stride_dqm, stride_dqd,
                         offs_n, offs_d, start, end, N_Q, N_K, qk_scale, sm_scale,
                         HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, EVEN_D: tl.constexpr, CAUSAL: tl.constexpr,
                         MASKED: tl.constexpr, FUSED_DQ: tl.constexpr, DQ_TMA: tl.constexpr,
                         LOAD_TMA: tl.constexpr, INTERPRETER: tl.constexpr):
    d_ok = offs_d < HEAD_DIM
    for start_m in range(start, end, BLOCK_M):
        offs_m = start_m + tl.arange(0, BLOCK_M)
        q_mask = d_ok[:, None]
        if MASKED:
            q_mask = q_mask & (offs_m < N_Q)[None, :]
            lse = tl.load(LSE + offs_m, mask=offs_m < N_Q, other=float("inf"))  # inf: rows past the end get P = 0
            delta = tl.load(DELTA + offs_m, mask=offs_m < N_Q, other=0.0)
        else:
            lse = tl.load(LSE + offs_m)
            delta = tl.load(DELTA + offs_m)
        if LOAD_TMA and not MASKED:  # full blocks: the copy engine brings the tiles (padding columns zero)
            qT = tl.trans(tl.reshape(Q_DESC.load([b_idx, h_idx, start_m, 0]), [BLOCK_M, k.shape[1]]))  # (D, BM)
            do = tl.reshape(DO_DESC.load([b_idx, h_idx, start_m, 0]), [BLOCK_M, k.shape[1]])
        else:
            qT = _load(Q + offs_m[None, :] * stride_qm + offs_d[:, None] * stride_qd, q_mask, MASKED or not EVEN_D)
            do = _load(DO + offs_m[:, None] * stride_dom + offs_d[None, :] * stride_dod, tl.trans(q_mask),
                       MASKED or not EVEN_D)
        qkT = _mma(k, qT, tl.zeros([k.shape[0], BLOCK_M], tl.float32), INTERPRETER) * qk_scale  # (BN, BM), log2 units
        pT = tl.math.exp2(qkT - lse[None, :])
        if MASKED:
            keep = (offs_n < N_K)[:, None] & (offs_m < N_Q)[None, :]
            if CAUSAL:
                keep = keep & (offs_m[None, :] >= offs_n[:, None])
            pT = tl.where(keep, pT, 0.0)
        dv = _mma(_cast(pT, do.dtype, INTERPRETER), do, dv, INTERPRETER)  # dV += P^T dO
        dpT = _mma(v, tl.trans(do), tl.zeros([k.shape[0], BLOCK_M], tl.float32), INTERPRETER)  # dP^T = V dO^T
        dsT = _cast(pT * (dpT - delta[None, :]), qT.dtype, INTERPRETER)  # dS = P * (dP - delta)
        dk = _mma(dsT, tl.trans(qT), dk, INTERPRETER)  # dK += dS^T Q (scale applied once at the end)
        if FUSED_DQ:  # dQ += scale * dS K, summed over key blocks in fp32
            dq = _mma(tl.trans(dsT), k, tl.zeros([BLOCK_M, k.shape[1]], tl.float32), INTERPRETER) * sm_scale
            if DQ_TMA:  # one bulk reduce-add by the copy engine (rows past N_Q are clipped by the descriptor)
                DQ_DESC.atomic_add([bh, start_m, 0], tl.reshape(dq, [1, BLOCK_M, k.shape[1]]))
            else:
                tl.atomic_add(DQ + offs_m[:, None] * stride_dqm + offs_d[None, :] * stride_dqd, dq,
                              mask=(offs_m < N_Q)[:, None], sem="relaxed")
    return dk, dv


@triton.jit
def _attn_bwd_dkdv(Q, K, V, DO, DK, DV, DQ, Q_DESC, DO_DESC, DQ_DESC, LSE, DELTA, qk_scale, sm_scale,
                   stride_qb, stride_qh, stride_qm, stride_qd,
                   stride_kb, stride_kh, stride_kn, stride_kd,
                   stride_vb, stride_vh, stride_vn, stride_vd,
                   stride_dob, stride_doh, stride_dom, stride_dod,
                   stride_dkb, stride_dkh, stride_dkn, stride_dkd,
                   stride_dvb, stride_dvh, stride_dvn, stride_dvd,
                   stride_dqb, stride_dqh, stride_dqm, stride_dqd,
                   H, N_Q, N_K,
                   HEAD_DIM: tl.constexpr, D_PAD: tl.constexpr, EVEN_D: tl.constexpr,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   CAUSAL: tl.constexpr, FUSED_DQ: tl.constexpr, DQ_TMA: tl.constexpr, LOAD_TMA: tl.constexpr,
                   INTERPRETER: tl.constexpr):
    tl.static_assert(BLOCK_N % BLOCK_M == 0)  # the causal diagonal starts on a query-block boundary
    tl.static_assert(D_PAD >= HEAD_DIM)
    tl.static_assert(EVEN_D == (HEAD_DIM == D_PAD))
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    Q += b * stride_qb + h * stride_qh
    K += b * stride_kb + h * stride_kh
    V += b * stride_vb + h * stride_vh
    DO += b * stride_dob + h * stride_doh
    DK += b * stride_dkb + h * stride_dkh
    DV += b * stride_dvb + h * stride_dvh
    DQ += b * stride_dqb + h * stride_dqh
    LSE += bh.to(tl.int64) * N_Q
    DELTA += bh.to(tl.int64) * N_Q

    start_n = tl.program_id(0) * BLOCK_N
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D_PAD)
    io_mask = (offs_n < N_K)[:, None] & (offs_d < HEAD_DIM)[None, :]
    k = tl.load(K + offs_n[:, None] * stride_kn + offs_d[None, :] * stride_kd, mask=io_mask, other=0.0)  # (BN, D)
    v = tl.load(V + offs_n[:, None] * stride_vn + offs_d[None, :] * stride_vd, mask=io_mask, other=0.0)
    dk = tl.zeros([BLOCK_N, D_PAD], tl.float32)
    dv = tl.zeros([BLOCK_N, D_PAD], tl.float32)
    full_q = (N_Q // BLOCK_M) * BLOCK_M
    if CAUSAL:
        # rows start_n .. start_n+BLOCK_N straddle the diagonal; rows before start_n see none of these keys
        diag_end = tl.minimum(start_n + BLOCK_N, N_Q)
        dk, dv = _attn_bwd_dkdv_inner(dk, dv, k, v, Q, DO, DQ, Q_DESC, DO_DESC, DQ_DESC, bh, bh // H, bh % H, LSE, DELTA,
                                      stride_qm, stride_qd, stride_dom, stride_dod, stride_dqm, stride_dqd,
                                      offs_n, offs_d, start_n, diag_end, N_Q, N_K, qk_scale, sm_scale,
                                      HEAD_DIM, BLOCK_M, EVEN_D, CAUSAL, True, FUSED_DQ, DQ_TMA, LOAD_TMA, INTERPRETER)
        free_start = start_n + BLOCK_N
    else:
        free_start = 0
    free_end = tl.maximum(free_start, full_q)
    dk, dv = _attn_bwd_dkdv_inner(dk, dv, k, v, Q, DO, DQ, Q_DESC, DO_DESC, DQ_DESC, bh, bh // H, bh % H, LSE, DELTA,
                                  stride_qm, stride_qd, stride_dom, stride_dod, stride_dqm, stride_dqd,
                                  offs_n, offs_d, free_start, free_end, N_Q, N_K, qk_scale, sm_scale,
                                  HEAD_DIM, BLOCK_M, EVEN_D, CAUSAL, False, FUSED_DQ, DQ_TMA, LOAD_TMA, INTERPRETER)
    dk, dv = _attn_bwd_dkdv_inner(dk, dv, k, v, Q, DO, DQ, Q_DESC, DO_DESC, DQ_DESC, bh, bh // H, bh % H, LSE, DELTA,
                                  stride_qm, stride_qd, stride_dom, stride_dod, stride_dqm, stride_dqd,
                                  offs_n, offs_d, free_end, N_Q, N_Q, N_K, qk_scale, sm_scale,
                                  HEAD_DIM, BLOCK_M, EVEN_D, CAUSAL, True, FUSED_DQ, DQ_TMA, LOAD_TMA, INTERPRETER)
    dk *= sm_scale  # dK = scale * dS^T Q
    tl.store(DK + offs_n[:, None] * stride_dkn + offs_d[None, :] * stride_dkd, _cast(dk, DK.dtype.element_ty, INTERPRETER),
             mask=io_mask)
    tl.store(DV + offs_n[:, None] * stride_dvn + offs_d[None, :] * stride_dvd, _cast(dv, DV.dtype.element_ty, INTERPRETER),
             mask=io_mask)


@triton.jit
def _attn_bwd_dq_inner(dq, q, do, lse, delta, K, V, K_DESC, V_DESC, b_idx, h_idx,
                       stride_kn, stride_kd, stride_vn, stride_vd, offs_m, offs_d, start, end, N_K, qk_scale,
                       HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, EVEN_D: tl.constexpr, CAUSAL: tl.constexpr,
                       MASKED: tl.constexpr, LOAD_TMA: tl.constexpr, INTERPRETER: tl.constexpr):
    d_ok = offs_d < HEAD_DIM
    for start_n in range(start, end, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = d_ok[:, None]
        if MASKED:
            kv_mask = kv_mask & (offs_n < N_K)[None, :]
        if LOAD_TMA and not MASKED:  # full blocks: the copy engine brings the tiles (padding columns zero)
            kT = tl.trans(tl.reshape(K_DESC.load([b_idx, h_idx, start_n, 0]), [BLOCK_N, q.shape[1]]))  # (D, BN)
            vT = tl.trans(tl.reshape(V_DESC.load([b_idx, h_idx, start_n, 0]), [BLOCK_N, q.shape[1]]))
        else:
            kT = _load(K + offs_n[None, :] * stride_kn + offs_d[:, None] * stride_kd, kv_mask, MASKED or not EVEN_D)
            vT = _load(V + offs_n[None, :] * stride_vn + offs_d[:, None] * stride_vd, kv_mask, MASKED or not EVEN_D)
        qk = _mma(q, kT, tl.zeros([q.shape[0], BLOCK_N], tl.float32), INTERPRETER) * qk_scale
        p = tl.math.exp2(qk - lse[:, None])
        if MASKED:
            keep = (offs_n < N_K)[None, :]
            if CAUSAL:
                keep = keep & (offs_n[None, :] <= offs_m[:, None])
            p = tl.where(keep, p, 0.0)
        dp = _mma(do, vT, tl.zeros([q.shape[0], BLOCK_N], tl.float32), INTERPRETER)  # dP = dO V^T
        ds = _cast(p * (dp - delta[:, None]), kT.dtype, INTERPRETER)  # dS = P * (dP - delta)
        dq = _mma(ds, tl.trans(kT), dq, INTERPRETER)  # dQ += dS K (scale applied once at the end)
    return dq


@triton.jit
def _attn_bwd_dq(Q, K, V, DO, DQ, K_DESC, V_DESC, LSE, DELTA, qk_scale, sm_scale,
                 stride_qb, stride_qh, stride_qm, stride_qd,
                 stride_kb, stride_kh, stride_kn, stride_kd,
                 stride_vb, stride_vh, stride_vn, stride_vd,
                 stride_dob, stride_doh, stride_dom, stride_dod,
                 stride_dqb, stride_dqh, stride_dqm, stride_dqd,
                 H, N_Q, N_K,
                 HEAD_DIM: tl.constexpr, D_PAD: tl.constexpr, EVEN_D: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 CAUSAL: tl.constexpr, LOAD_TMA: tl.constexpr, INTERPRETER: tl.constexpr):
    tl.static_assert(BLOCK_M % BLOCK_N == 0)  # the causal diagonal starts on a key-block boundary
    tl.static_assert(D_PAD >= HEAD_DIM)
    tl.static_assert(EVEN_D == (HEAD_DIM == D_PAD))
    num_m = tl.cdiv(N_Q, BLOCK_M)
    pid_m = num_m - 1 - tl.program_id(0)  # causal: the longest rows start first
    bh = tl.program_id(1)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    Q += b * stride_qb + h * stride_qh
    K += b * stride_kb + h * stride_kh
    V += b * stride_vb + h * stride_vh
    DO += b * stride_dob + h * stride_doh
    DQ += b * stride_dqb + h * stride_dqh
    LSE += bh.to(tl.int64) * N_Q
    DELTA += bh.to(tl.int64) * N_Q

    start_m = pid_m * BLOCK_M
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D_PAD)
    row_ok = offs_m < N_Q
    io_mask = row_ok[:, None] & (offs_d < HEAD_DIM)[None, :]
    q = tl.load(Q + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd, mask=io_mask, other=0.0)  # (BM, D)
    do = tl.load(DO + offs_m[:, None] * stride_dom + offs_d[None, :] * stride_dod, mask=io_mask, other=0.0)
    lse = tl.load(LSE + offs_m, mask=row_ok, other=float("inf"))  # inf: rows past the end get P = 0
    delta = tl.load(DELTA + offs_m, mask=row_ok, other=0.0)
    dq = tl.zeros([BLOCK_M, D_PAD], tl.float32)
    full_k = (N_K // BLOCK_N) * BLOCK_N
    if CAUSAL:
        free_end = tl.minimum(start_m, full_k)
        masked_end = tl.minimum(N_K, start_m + BLOCK_M)
    else:
        free_end = full_k
        masked_end = N_K
    dq = _attn_bwd_dq_inner(dq, q, do, lse, delta, K, V, K_DESC, V_DESC, bh // H, bh % H,
                            stride_kn, stride_kd, stride_vn, stride_vd,
                            offs_m, offs_d, 0, free_end, N_K, qk_scale,
                            HEAD_DIM, BLOCK_N, EVEN_D, CAUSAL, False, LOAD_TMA, INTERPRETER)
    dq = _attn_bwd_dq_inner(dq, q, do, lse, delta, K, V, K_DESC, V_DESC, bh // H, bh % H,
                            stride_kn, stride_kd, stride_vn, stride_vd,
                            offs_m, offs_d, free_end, masked_end, N_K, qk_scale,
                            HEAD_DIM, BLOCK_N, EVEN_D, CAUSAL, True, LOAD_TMA, INTERPRETER)
    dq *= sm_scale  # dQ = scale * dS K
    tl.store(DQ + offs_m[:, None] * stride_dqm + offs_d[None, :] * stride_dqd, _cast(dq, DQ.dtype.element_ty, INTERPRETER),
             mask=io_mask)


# Triton decided at the decorators above whether this process interprets the kernels (TRITON_INTERPRET=1).
INTERPRETED = not isinstance(_attn_fwd, triton.runtime.JITFunction)
