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

Index arithmetic lives once, in helpers every kernel calls (as FlashAttention's ``BlockInfo`` and
``SeqlenInfo``): ``_program_head`` (which batch and head a program serves), ``_head_matrix`` (one head's
(N, D) matrix as a tuple: pointer to row 0, row stride, column stride), ``_tile``/``_tile_t`` (pointers to a
block of it), ``_key_blocks``/``_query_blocks`` (which blocks a program visits, split into mask-free and
masked ranges) and ``_visible``/``_visible_t`` (which score entries count: where sliding windows and causal
alignment belong). Arguments travel bundled, so a call shows only what differs: a kernel's strides as one
tuple (each tensor's four strides, in the order of its pointer arguments: the flattened argument list, and
so the compiled code, is the one the unbundled kernels had), its compile-time constants as one ``cfg``
(``Constants``, made by ``constants()``).

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
the compiled code is the plain one. ``INTERPRETED`` says which of the two this process got: Triton decides
when the kernels are defined (at import), from ``TRITON_INTERPRET``.
"""

from __future__ import annotations

from typing import NamedTuple

import triton
import triton.language as tl


class Constants(NamedTuple):
    """A launch's compile-time constants, passed to every kernel as one argument ``cfg`` (each distinct value
    compiles its own kernel). Make them with ``constants()``, which wraps each value as a ``tl.constexpr``."""

    HEAD_DIM: tl.constexpr  # the head dimension of q, k, v
    D_PAD: tl.constexpr  # the head dimension computed with: a power of two >= 16
    EVEN_D: tl.constexpr  # HEAD_DIM == D_PAD: no column masks
    BLOCK_M: tl.constexpr  # query rows per tile
    BLOCK_N: tl.constexpr  # key rows per tile
    CAUSAL: tl.constexpr  # query i sees keys j <= i
    FUSED_DQ: tl.constexpr  # the dK/dV kernel also adds dQ into an fp32 buffer
    DQ_TMA: tl.constexpr  # ... with one bulk reduce-add per tile through a tensor descriptor
    LOAD_TMA: tl.constexpr  # full tiles of the backward fetched through tensor descriptors
    INTERPRETER: tl.constexpr  # Triton's CPU interpreter: exact dot operands, rounded bf16 casts


def constants(
    head_dim: int,
    d_pad: int,
    block_m: int,
    block_n: int = 0,
    causal: bool = False,
    fused_dq: bool = False,
    dq_tma: bool = False,
    load_tma: bool = False,
) -> Constants:
    """The Constants of one launch; EVEN_D and INTERPRETER follow from the others and from this process."""
    values = (head_dim, d_pad, head_dim == d_pad, block_m, block_n, causal, fused_dq, dq_tma, load_tma, INTERPRETED)
    return Constants(*(tl.constexpr(value) for value in values))


@triton.jit
def _mma(a, b, acc, INTERPRETER: tl.constexpr):
    """acc + a @ b with fp32 accumulation."""
    if INTERPRETER:
        a = a.to(tl.float32)
        b = b.to(tl.float32)
    return tl.dot(a, b, acc)


# Triton decides at each @triton.jit whether this process interprets the kernels (TRITON_INTERPRET=1)
INTERPRETED = not isinstance(_mma, triton.runtime.JITFunction)


@triton.jit
def _cast(x, dtype: tl.constexpr, INTERPRETER: tl.constexpr):
    """x.to(dtype), rounding to nearest even also where the interpreter would truncate to bf16."""
    if INTERPRETER and dtype == tl.bfloat16:
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


# ------------------------------------------------------------------------- index arithmetic, once for all


@triton.jit
def _program_head(H):
    """(batch, head, batch*head) of this program: axis 1 of every grid runs over batch*head."""
    bh = tl.program_id(1)
    return bh // H, bh % H, bh


@triton.jit
def _head_matrix(T, strides, b, h):
    """One head's (N, D) matrix of a (B, H, N, D) tensor: (pointer to row 0, row stride, column stride)."""
    return T + (b.to(tl.int64) * strides[0] + h.to(tl.int64) * strides[1]), strides[2], strides[3]


@triton.jit
def _head_rows(T, bh, N):
    """One head's row of a (B*H, N) fp32 buffer of row statistics (LSE, delta)."""
    return T + bh.to(tl.int64) * N


@triton.jit
def _tile(m, rows, cols):
    """Pointers to m[rows, cols] of a head matrix: a (len(rows), len(cols)) tile."""
    return m[0] + rows[:, None] * m[1] + cols[None, :] * m[2]


@triton.jit
def _tile_t(m, rows, cols):
    """Pointers to m[rows, cols] of a head matrix, transposed: a (len(cols), len(rows)) tile."""
    return m[0] + rows[None, :] * m[1] + cols[:, None] * m[2]


@triton.jit
def _key_blocks(start_m, N_K, cfg):
    """Keys the query block at start_m visits: [0, free_end) in full blocks without masks, then
    [free_end, masked_end) masked (the causal diagonal and the ragged tail)."""
    full_k = (N_K // cfg.BLOCK_N) * cfg.BLOCK_N
    if cfg.CAUSAL:
        free_end = tl.minimum(start_m, full_k)  # keys < start_m are visible to every row of the block
        masked_end = tl.minimum(N_K, start_m + cfg.BLOCK_M)
    else:
        free_end = full_k
        masked_end = N_K
    return free_end, masked_end


@triton.jit
def _query_blocks(start_n, N_Q, cfg):
    """Queries the key block at start_n visits: with CAUSAL first [start_n, diag_end) masked (rows before start_n
    see none of these keys, rows start_n .. start_n+BLOCK_N straddle the diagonal); then [free_start, free_end)
    in full blocks without masks; then [free_end, N_Q) masked (the ragged tail)."""
    full_q = (N_Q // cfg.BLOCK_M) * cfg.BLOCK_M
    if cfg.CAUSAL:
        diag_end = tl.minimum(start_n + cfg.BLOCK_N, N_Q)
        free_start = start_n + cfg.BLOCK_N
    else:
        diag_end = start_n  # no diagonal block
        free_start = 0
    free_end = tl.maximum(free_start, full_q)
    return diag_end, free_start, free_end


@triton.jit
def _visible(offs_m, offs_n, N_K, CAUSAL: tl.constexpr):
    """Which entries of a (BLOCK_M, BLOCK_N) score block count: keys before N_K and, with CAUSAL, keys at or
    before their query (top-left aligned, as SDPA). Rows past the last query are computed and never stored."""
    keep = (offs_n < N_K)[None, :]
    if CAUSAL:
        keep = keep & (offs_n[None, :] <= offs_m[:, None])
    return keep


@triton.jit
def _visible_t(offs_m, offs_n, N_Q, N_K, CAUSAL: tl.constexpr):
    """_visible for a transposed (BLOCK_N, BLOCK_M) block, which also drops queries past N_Q: the dK/dV kernel
    sums over queries."""
    keep = (offs_n < N_K)[:, None] & (offs_m < N_Q)[None, :]
    if CAUSAL:
        keep = keep & (offs_m[None, :] >= offs_n[:, None])
    return keep


# --------------------------------------------------------------------------------------------- forward


@triton.jit
def _attn_fwd_blocks(acc, l_i, m_i, q, K, V, offs_m, start, end, N_K, qk_scale, cfg, MASKED: tl.constexpr):
    """The online softmax over the key blocks in [start, end): acc, l_i, m_i updated."""
    offs_d = tl.arange(0, cfg.D_PAD)
    d_ok = offs_d < cfg.HEAD_DIM
    for start_n in range(start, end, cfg.BLOCK_N):
        offs_n = start_n + tl.arange(0, cfg.BLOCK_N)
        kv_mask = d_ok[:, None]
        if MASKED:
            kv_mask = kv_mask & (offs_n < N_K)[None, :]
        kT = _load(_tile_t(K, offs_n, offs_d), kv_mask, MASKED or not cfg.EVEN_D)  # (D, BN)
        qk = _mma(q, kT, tl.zeros([cfg.BLOCK_M, cfg.BLOCK_N], tl.float32), cfg.INTERPRETER) * qk_scale  # log2 units
        if MASKED:
            qk = tl.where(_visible(offs_m, offs_n, N_K, cfg.CAUSAL), qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)  # rescales what was accumulated under the old running max
        l_i = l_i * alpha + tl.sum(p, 1)
        v = _load(_tile(V, offs_n, offs_d), tl.trans(kv_mask), MASKED or not cfg.EVEN_D)
        acc = _mma(_cast(p, v.dtype, cfg.INTERPRETER), v, acc * alpha[:, None], cfg.INTERPRETER)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _check(cfg, OWNS_KEY_BLOCK: tl.constexpr):
    """The invariants every kernel relies on."""
    if OWNS_KEY_BLOCK:  # a program steps through query blocks: the causal diagonal starts on a query-block boundary
        tl.static_assert(cfg.BLOCK_N % cfg.BLOCK_M == 0)
    else:  # a program owns a query block: the causal diagonal starts on a key-block boundary
        tl.static_assert(cfg.BLOCK_M % cfg.BLOCK_N == 0)
    tl.static_assert(cfg.D_PAD >= cfg.HEAD_DIM)
    tl.static_assert(cfg.EVEN_D == (cfg.HEAD_DIM == cfg.D_PAD))


@triton.jit
def _attn_fwd(Q, K, V, O, LSE, qk_scale, strides, H, N_Q, N_K, cfg):
    _check(cfg, OWNS_KEY_BLOCK=False)
    pid_m = tl.cdiv(N_Q, cfg.BLOCK_M) - 1 - tl.program_id(0)  # causal: the longest rows start first
    b, h, bh = _program_head(H)
    q_strides, k_strides, v_strides, o_strides = strides
    Q, K = _head_matrix(Q, q_strides, b, h), _head_matrix(K, k_strides, b, h)
    V, O = _head_matrix(V, v_strides, b, h), _head_matrix(O, o_strides, b, h)
    LSE = _head_rows(LSE, bh, N_Q)

    start_m = pid_m * cfg.BLOCK_M
    offs_m = start_m + tl.arange(0, cfg.BLOCK_M)
    offs_d = tl.arange(0, cfg.D_PAD)
    io_mask = (offs_m < N_Q)[:, None] & (offs_d < cfg.HEAD_DIM)[None, :]
    q = tl.load(_tile(Q, offs_m, offs_d), mask=io_mask, other=0.0)  # (BM, D)

    m_i = tl.full([cfg.BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([cfg.BLOCK_M], tl.float32)
    acc = tl.zeros([cfg.BLOCK_M, cfg.D_PAD], tl.float32)
    free_end, masked_end = _key_blocks(start_m, N_K, cfg)
    acc, l_i, m_i = _attn_fwd_blocks(acc, l_i, m_i, q, K, V, offs_m, 0, free_end, N_K, qk_scale, cfg, MASKED=False)
    acc, l_i, m_i = _attn_fwd_blocks(
        acc, l_i, m_i, q, K, V, offs_m, free_end, masked_end, N_K, qk_scale, cfg, MASKED=True
    )
    acc = acc / l_i[:, None]
    tl.store(LSE + offs_m, m_i + tl.math.log2(l_i), mask=offs_m < N_Q)  # LSE in log2 units
    tl.store(_tile(O, offs_m, offs_d), _cast(acc, O[0].dtype.element_ty, cfg.INTERPRETER), mask=io_mask)


# -------------------------------------------------------------------------------------------- backward


@triton.jit
def _attn_bwd_preprocess(O, DO, DELTA, strides, H, N_Q, cfg):
    b, h, bh = _program_head(H)
    offs_m = tl.program_id(0) * cfg.BLOCK_M + tl.arange(0, cfg.BLOCK_M)
    offs_d = tl.arange(0, cfg.D_PAD)
    mask = (offs_m < N_Q)[:, None] & (offs_d < cfg.HEAD_DIM)[None, :]
    o = tl.load(_tile(_head_matrix(O, strides[0], b, h), offs_m, offs_d), mask=mask, other=0.0).to(tl.float32)
    do = tl.load(_tile(_head_matrix(DO, strides[1], b, h), offs_m, offs_d), mask=mask, other=0.0).to(tl.float32)
    tl.store(_head_rows(DELTA, bh, N_Q) + offs_m, tl.sum(o * do, 1), mask=offs_m < N_Q)  # delta = rowsum(dO * O)


@triton.jit
def _attn_bwd_dkdv_blocks(
    dk, dv, k, v, queries, offs_n, start, end, N_Q, N_K, qk_scale, sm_scale, cfg, MASKED: tl.constexpr
):
    """dK, dV accumulated over the query blocks in [start, end), and with FUSED_DQ each block's dQ share added."""
    Q, DO, DQ, LSE, DELTA, Q_DESC, DO_DESC, DQ_DESC, b, h, bh = queries
    offs_d = tl.arange(0, cfg.D_PAD)
    d_ok = offs_d < cfg.HEAD_DIM
    for start_m in range(start, end, cfg.BLOCK_M):
        offs_m = start_m + tl.arange(0, cfg.BLOCK_M)
        q_mask = d_ok[:, None]
        if MASKED:
            q_mask = q_mask & (offs_m < N_Q)[None, :]
            lse = tl.load(LSE + offs_m, mask=offs_m < N_Q, other=float("inf"))  # inf: rows past the end get P = 0
            delta = tl.load(DELTA + offs_m, mask=offs_m < N_Q, other=0.0)
        else:
            lse = tl.load(LSE + offs_m)
            delta = tl.load(DELTA + offs_m)
        if cfg.LOAD_TMA and not MASKED:  # full blocks: the copy engine brings the tiles (padding columns zero)
            qT = tl.trans(tl.reshape(Q_DESC.load([b, h, start_m, 0]), [cfg.BLOCK_M, cfg.D_PAD]))  # (D, BM)
            do = tl.reshape(DO_DESC.load([b, h, start_m, 0]), [cfg.BLOCK_M, cfg.D_PAD])
        else:
            qT = _load(_tile_t(Q, offs_m, offs_d), q_mask, MASKED or not cfg.EVEN_D)
            do = _load(_tile(DO, offs_m, offs_d), tl.trans(q_mask), MASKED or not cfg.EVEN_D)
        qkT = _mma(k, qT, tl.zeros([cfg.BLOCK_N, cfg.BLOCK_M], tl.float32), cfg.INTERPRETER) * qk_scale  # (BN, BM)
        pT = tl.math.exp2(qkT - lse[None, :])
        if MASKED:
            pT = tl.where(_visible_t(offs_m, offs_n, N_Q, N_K, cfg.CAUSAL), pT, 0.0)
        dv = _mma(_cast(pT, do.dtype, cfg.INTERPRETER), do, dv, cfg.INTERPRETER)  # dV += P^T dO
        dpT = _mma(v, tl.trans(do), tl.zeros([cfg.BLOCK_N, cfg.BLOCK_M], tl.float32), cfg.INTERPRETER)  # dP^T = V dO^T
        dsT = _cast(pT * (dpT - delta[None, :]), qT.dtype, cfg.INTERPRETER)  # dS = P * (dP - delta)
        dk = _mma(dsT, tl.trans(qT), dk, cfg.INTERPRETER)  # dK += dS^T Q (scale applied once at the end)
        if cfg.FUSED_DQ:  # dQ += scale * dS K, summed over key blocks in fp32
            dq = _mma(tl.trans(dsT), k, tl.zeros([cfg.BLOCK_M, cfg.D_PAD], tl.float32), cfg.INTERPRETER) * sm_scale
            if cfg.DQ_TMA:  # one bulk reduce-add by the copy engine (rows past N_Q are clipped by the descriptor)
                DQ_DESC.atomic_add([bh, start_m, 0], tl.reshape(dq, [1, cfg.BLOCK_M, cfg.D_PAD]))
            else:
                tl.atomic_add(_tile(DQ, offs_m, offs_d), dq, mask=(offs_m < N_Q)[:, None], sem="relaxed")
    return dk, dv


@triton.jit
def _attn_bwd_dkdv(
    Q, K, V, DO, DK, DV, DQ, Q_DESC, DO_DESC, DQ_DESC, LSE, DELTA, qk_scale, sm_scale, strides, H, N_Q, N_K, cfg
):
    _check(cfg, OWNS_KEY_BLOCK=True)
    b, h, bh = _program_head(H)
    q_strides, k_strides, v_strides, do_strides, dk_strides, dv_strides, dq_strides = strides
    Q, K = _head_matrix(Q, q_strides, b, h), _head_matrix(K, k_strides, b, h)
    V, DO = _head_matrix(V, v_strides, b, h), _head_matrix(DO, do_strides, b, h)
    DK, DV = _head_matrix(DK, dk_strides, b, h), _head_matrix(DV, dv_strides, b, h)
    DQ, LSE, DELTA = _head_matrix(DQ, dq_strides, b, h), _head_rows(LSE, bh, N_Q), _head_rows(DELTA, bh, N_Q)
    # what each query block's step reads (Q, dO, LSE, delta) and adds into (dQ), with the descriptors' coordinates
    queries = (Q, DO, DQ, LSE, DELTA, Q_DESC, DO_DESC, DQ_DESC, b, h, bh)

    start_n = tl.program_id(0) * cfg.BLOCK_N
    offs_n = start_n + tl.arange(0, cfg.BLOCK_N)
    offs_d = tl.arange(0, cfg.D_PAD)
    io_mask = (offs_n < N_K)[:, None] & (offs_d < cfg.HEAD_DIM)[None, :]
    k = tl.load(_tile(K, offs_n, offs_d), mask=io_mask, other=0.0)  # (BN, D)
    v = tl.load(_tile(V, offs_n, offs_d), mask=io_mask, other=0.0)
    dk = tl.zeros([cfg.BLOCK_N, cfg.D_PAD], tl.float32)
    dv = tl.zeros([cfg.BLOCK_N, cfg.D_PAD], tl.float32)
    diag_end, free_start, free_end = _query_blocks(start_n, N_Q, cfg)
    if cfg.CAUSAL:
        dk, dv = _attn_bwd_dkdv_blocks(
            dk, dv, k, v, queries, offs_n, start_n, diag_end, N_Q, N_K, qk_scale, sm_scale, cfg, MASKED=True
        )
    dk, dv = _attn_bwd_dkdv_blocks(
        dk, dv, k, v, queries, offs_n, free_start, free_end, N_Q, N_K, qk_scale, sm_scale, cfg, MASKED=False
    )
    dk, dv = _attn_bwd_dkdv_blocks(
        dk, dv, k, v, queries, offs_n, free_end, N_Q, N_Q, N_K, qk_scale, sm_scale, cfg, MASKED=True
    )
    dk *= sm_scale  # dK = scale * dS^T Q
    tl.store(_tile(DK, offs_n, offs_d), _cast(dk, DK[0].dtype.element_ty, cfg.INTERPRETER), mask=io_mask)
    tl.store(_tile(DV, offs_n, offs_d), _cast(dv, DV[0].dtype.element_ty, cfg.INTERPRETER), mask=io_mask)


@triton.jit
def _attn_bwd_dq_blocks(dq, q, do, lse, delta, keys, offs_m, start, end, N_K, qk_scale, cfg, MASKED: tl.constexpr):
    """dQ accumulated over the key blocks in [start, end)."""
    K, V, K_DESC, V_DESC, b, h = keys
    offs_d = tl.arange(0, cfg.D_PAD)
    d_ok = offs_d < cfg.HEAD_DIM
    for start_n in range(start, end, cfg.BLOCK_N):
        offs_n = start_n + tl.arange(0, cfg.BLOCK_N)
        kv_mask = d_ok[:, None]
        if MASKED:
            kv_mask = kv_mask & (offs_n < N_K)[None, :]
        if cfg.LOAD_TMA and not MASKED:  # full blocks: the copy engine brings the tiles (padding columns zero)
            kT = tl.trans(tl.reshape(K_DESC.load([b, h, start_n, 0]), [cfg.BLOCK_N, cfg.D_PAD]))  # (D, BN)
            vT = tl.trans(tl.reshape(V_DESC.load([b, h, start_n, 0]), [cfg.BLOCK_N, cfg.D_PAD]))
        else:
            kT = _load(_tile_t(K, offs_n, offs_d), kv_mask, MASKED or not cfg.EVEN_D)
            vT = _load(_tile_t(V, offs_n, offs_d), kv_mask, MASKED or not cfg.EVEN_D)
        qk = _mma(q, kT, tl.zeros([cfg.BLOCK_M, cfg.BLOCK_N], tl.float32), cfg.INTERPRETER) * qk_scale
        p = tl.math.exp2(qk - lse[:, None])
        if MASKED:
            p = tl.where(_visible(offs_m, offs_n, N_K, cfg.CAUSAL), p, 0.0)
        dp = _mma(do, vT, tl.zeros([cfg.BLOCK_M, cfg.BLOCK_N], tl.float32), cfg.INTERPRETER)  # dP = dO V^T
        ds = _cast(p * (dp - delta[:, None]), kT.dtype, cfg.INTERPRETER)  # dS = P * (dP - delta)
        dq = _mma(ds, tl.trans(kT), dq, cfg.INTERPRETER)  # dQ += dS K (scale applied once at the end)
    return dq


@triton.jit
def _attn_bwd_dq(Q, K, V, DO, DQ, K_DESC, V_DESC, LSE, DELTA, qk_scale, sm_scale, strides, H, N_Q, N_K, cfg):
    _check(cfg, OWNS_KEY_BLOCK=False)
    pid_m = tl.cdiv(N_Q, cfg.BLOCK_M) - 1 - tl.program_id(0)  # causal: the longest rows start first
    b, h, bh = _program_head(H)
    q_strides, k_strides, v_strides, do_strides, dq_strides = strides
    Q, K = _head_matrix(Q, q_strides, b, h), _head_matrix(K, k_strides, b, h)
    V, DO = _head_matrix(V, v_strides, b, h), _head_matrix(DO, do_strides, b, h)
    DQ, LSE, DELTA = _head_matrix(DQ, dq_strides, b, h), _head_rows(LSE, bh, N_Q), _head_rows(DELTA, bh, N_Q)
    keys = (K, V, K_DESC, V_DESC, b, h)  # what each key block's step reads, with the descriptors' coordinates

    start_m = pid_m * cfg.BLOCK_M
    offs_m = start_m + tl.arange(0, cfg.BLOCK_M)
    offs_d = tl.arange(0, cfg.D_PAD)
    row_ok = offs_m < N_Q
    io_mask = row_ok[:, None] & (offs_d < cfg.HEAD_DIM)[None, :]
    q = tl.load(_tile(Q, offs_m, offs_d), mask=io_mask, other=0.0)  # (BM, D)
    do = tl.load(_tile(DO, offs_m, offs_d), mask=io_mask, other=0.0)
    lse = tl.load(LSE + offs_m, mask=row_ok, other=float("inf"))  # inf: rows past the end get P = 0
    delta = tl.load(DELTA + offs_m, mask=row_ok, other=0.0)
    dq = tl.zeros([cfg.BLOCK_M, cfg.D_PAD], tl.float32)
    free_end, masked_end = _key_blocks(start_m, N_K, cfg)
    dq = _attn_bwd_dq_blocks(dq, q, do, lse, delta, keys, offs_m, 0, free_end, N_K, qk_scale, cfg, MASKED=False)
    dq = _attn_bwd_dq_blocks(dq, q, do, lse, delta, keys, offs_m, free_end, masked_end, N_K, qk_scale, cfg, MASKED=True)
    dq *= sm_scale  # dQ = scale * dS K
    tl.store(_tile(DQ, offs_m, offs_d), _cast(dq, DQ[0].dtype.element_ty, cfg.INTERPRETER), mask=io_mask)
