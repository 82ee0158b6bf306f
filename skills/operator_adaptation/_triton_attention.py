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
- ``_attn_bwd_dkdv``       one program per (key block, batch*kv head): dK and dV, iterating over the query heads
                           of its kv head's group and, for each, over query blocks (grouped-query attention is
                           reduced here, in registers: no copies of K, V per query head, no second pass).
                           With ``FUSED_DQ`` it also adds its share of dQ into an fp32 buffer (FlashAttention-2's
                           strategy: 5 matrix products per block pair instead of 7), either with per-element
                           atomics or, with ``DQ_TMA`` (Hopper), one bulk reduce-add of the tile through a tensor
                           descriptor, as FlashAttention-3 does.
- ``_attn_bwd_dq``         one program per (query block, batch*head): dQ, iterating over key blocks (the
                           Triton-tutorial strategy: no atomics, QK^T and dO V^T computed twice). Without
                           ``FUSED_DQ`` the whole backward has no atomics and a fixed summation order: the
                           deterministic backward.

Which scores count (FlashAttention's conventions): query row i of a sequence of n_q queries and n_k keys has
its own key, the diagonal, at i + shift, where shift = 0 aligned top-left (SDPA's ``is_causal``) and
shift = n_k - n_q aligned bottom-right (``BOTTOM_RIGHT``, FlashAttention's causal). It sees key j when
j - (i + shift) lies in [-left, right]; ``LIMIT_LEFT``/``LIMIT_RIGHT`` say whether each bound exists (causal is
LIMIT_RIGHT with right = 0; a sliding window sets either or both). A row that sees no key (bottom-right with
n_q > n_k, a window past the end) gets O = 0 and LSE = +inf, so its backward is P = 0: FlashAttention's rule.

Variable-length batches (``VARLEN``, FlashAttention's varlen convention): the tensors are packed
(total_tokens, heads, head_dim) and handed to the kernels as (1, heads, total_tokens, head_dim) views;
sequence b owns rows cu_seqlens[b] .. cu_seqlens[b+1]. The grid covers the longest sequence; programs past
their own sequence's end return at once, so no padding is computed.

Index arithmetic lives once, in helpers every kernel calls (as FlashAttention's ``BlockInfo`` and
``SeqlenInfo``): ``_program_head`` (which batch and head a program serves, and the kv head of its GQA group),
``_sequence`` (where its sequence starts and how long it is: varlen or not), ``_head_matrix`` (one head's
(N, D) matrix as a tuple: pointer to row 0, row stride, column stride), ``_head_rows`` (its LSE/delta row),
``_tile``/``_tile_t`` (pointers to a block of it), ``_key_blocks``/``_query_blocks`` (which blocks a program
visits: a masked range, a mask-free range of full blocks, a masked range; windows shrink them) and
``_visible``/``_visible_t`` (which score entries count). Arguments travel bundled, so a call shows only what
differs: a kernel's strides as one tuple (each tensor's four strides, in the order of its pointer arguments:
the flattened argument list, and so the compiled code, is the one the unbundled kernels had), the sequence
description ``seqs`` = (cu_seqlens_q, cu_seqlens_k, N_Q, N_K, ROWS_Q) (None for the offsets without varlen;
N_Q, N_K the lengths, or the longest ones with varlen; ROWS_Q the rows of the LSE/delta buffers), the window
``bounds`` = (left, right) and the compile-time constants as one ``cfg`` (``Constants``, made by
``constants()``).

With ``LOAD_TMA`` the backward kernels fetch their streamed tiles of full blocks through tensor
descriptors (Hopper's copy engine; any strides that are 16-byte aligned), so no registers go to addresses
and masks there; the masked blocks keep ordinary loads.

Exponentials are base 2 (``exp2``) with the scale folded into ``qk_scale = scale * log2(e)``; the stored
LSE is in those base-2 units. All accumulation is fp32. Sequence tails (any length) and head dims that are
not a power of two (padded to ``D_PAD`` with masks) are handled with masked loads: each loop is split into
mask-free full blocks and masked ones (the diagonal, window edges and the ragged tail).

``INTERPRETER`` is set only under Triton's CPU interpreter (``TRITON_INTERPRET=1``, used by the CI tests),
which differs from the GPU in two ways that would make the tests see other numerics: its ``tl.dot`` on bf16
operands multiplies the raw 16-bit patterns, and its fp32 -> bf16 cast truncates instead of rounding to
nearest even. Under the flag, dot operands are widened to fp32 first (bf16 x bf16 products are exact in
fp32, so the function is unchanged) and bf16 casts round by hand (``_cast``). On a GPU the flag is off and
the compiled code is the plain one. ``INTERPRETED`` says which of the two this process got: Triton decides
when the kernels are defined (at import), from ``TRITON_INTERPRET``.
"""

from __future__ import annotations

import functools
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
    LIMIT_RIGHT: tl.constexpr  # keys past diagonal + right are masked (causal: right = 0)
    LIMIT_LEFT: tl.constexpr  # keys before diagonal - left are masked (a sliding window)
    BOTTOM_RIGHT: tl.constexpr  # the diagonal of row i is key i + n_k - n_q (else key i)
    VARLEN: tl.constexpr  # packed sequences located by cu_seqlens
    GROUP: tl.constexpr  # query heads per kv head (grouped-query attention; 1: multi-head)
    FUSED_DQ: tl.constexpr  # the dK/dV kernel also adds dQ into an fp32 buffer
    DQ_TMA: tl.constexpr  # ... with one bulk reduce-add per tile through a tensor descriptor
    LOAD_TMA: tl.constexpr  # full tiles of the backward fetched through tensor descriptors
    INTERPRETER: tl.constexpr  # Triton's CPU interpreter: exact dot operands, rounded bf16 casts


@functools.lru_cache(maxsize=None, typed=True)  # the same few per process: made once, not 14 constexprs a launch
def constants(
    head_dim: int,
    d_pad: int,
    block_m: int,
    block_n: int = 0,
    limit_right: bool = False,
    limit_left: bool = False,
    bottom_right: bool = False,
    varlen: bool = False,
    group: int = 1,
    fused_dq: bool = False,
    dq_tma: bool = False,
    load_tma: bool = False,
) -> Constants:
    """The Constants of one launch; EVEN_D and INTERPRETER follow from the others and from this process."""
    values = (
        head_dim,
        d_pad,
        head_dim == d_pad,
        block_m,
        block_n,
        limit_right,
        limit_left,
        bottom_right,
        varlen,
        group,
        fused_dq,
        dq_tma,
        load_tma,
        INTERPRETED,
    )
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
def _program_head(H, GROUP: tl.constexpr):
    """(batch, head, kv head) of this program: axis 1 of every grid runs over batch*heads; a group of GROUP
    query heads shares one kv head (GQA; GROUP = 1 is multi-head attention)."""
    bh = tl.program_id(1)
    h = bh % H
    return bh // H, h, h // GROUP


@triton.jit
def _sequence(seqs, b, cfg):
    """Where batch entry b's sequence lives: (batch index into the tensors, first query row, first key row,
    query count, key count, shift of the diagonal). With VARLEN the tensors are one packed batch entry and
    cu_seqlens locate the rows; the diagonal of query i is key i + shift."""
    CU_Q, CU_K, N_Q, N_K, _ = seqs
    if cfg.VARLEN:
        q0 = tl.load(CU_Q + b)
        k0 = tl.load(CU_K + b)
        n_q = tl.load(CU_Q + b + 1) - q0
        n_k = tl.load(CU_K + b + 1) - k0
        tb = 0
    else:
        q0 = 0
        k0 = 0
        n_q = N_Q
        n_k = N_K
        tb = b
    shift = n_k - n_q if cfg.BOTTOM_RIGHT else 0
    return tb, q0, k0, n_q, n_k, shift


@triton.jit
def _head_matrix(T, strides, b, h, row0):
    """One head's (N, D) matrix of a (B, H, N, D) tensor from row row0 on: (pointer to it, row stride, column
    stride)."""
    offset = (
        tl.cast(b, tl.int64) * strides[0] + tl.cast(h, tl.int64) * strides[1] + tl.cast(row0, tl.int64) * strides[2]
    )
    return T + offset, strides[2], strides[3]


@triton.jit
def _head_rows(T, b, h, H, ROWS, row0):
    """One head's row statistics (LSE, delta) from row row0 on, in a (B, H, ROWS) fp32 buffer."""
    return T + (tl.cast(b, tl.int64) * H + h) * ROWS + row0


@triton.jit
def _tile(m, rows, cols):
    """Pointers to m[rows, cols] of a head matrix: a (len(rows), len(cols)) tile."""
    return m[0] + rows[:, None] * m[1] + cols[None, :] * m[2]


@triton.jit
def _tile_t(m, rows, cols):
    """Pointers to m[rows, cols] of a head matrix, transposed: a (len(cols), len(rows)) tile."""
    return m[0] + rows[None, :] * m[1] + cols[:, None] * m[2]


@triton.jit
def _key_blocks(start_m, n_k, shift, bounds, cfg):
    """Keys the query block at start_m visits, as three ranges: [lo, free_start) masked (the window's left
    edge), [free_start, free_end) full blocks every row of the block sees whole (no masks), [free_end, hi)
    masked (the diagonal or the window's right edge, and the ragged tail). Row r sees keys
    [r + shift - left, r + shift + right]; blocks are BLOCK_N-aligned. (Values are clamped at 0 before they are
    divided: integer division truncates on the GPU.)"""
    left, right = bounds
    full_k = (n_k // cfg.BLOCK_N) * cfg.BLOCK_N
    lo = 0
    free_start = 0
    if cfg.LIMIT_LEFT:
        lo = (tl.maximum(start_m + shift - left, 0) // cfg.BLOCK_N) * cfg.BLOCK_N  # the first row's first key
        last_row_first = tl.maximum(start_m + cfg.BLOCK_M - 1 + shift - left, 0)
        free_start = tl.minimum(tl.cdiv(last_row_first, cfg.BLOCK_N) * cfg.BLOCK_N, full_k)
    free_end = full_k
    hi = n_k
    if cfg.LIMIT_RIGHT:
        first_row_end = tl.maximum(start_m + shift + right + 1, 0)  # past the first row's last key
        free_end = tl.minimum((first_row_end // cfg.BLOCK_N) * cfg.BLOCK_N, full_k)
        hi = tl.minimum(n_k, start_m + cfg.BLOCK_M + shift + right)  # past the last row's last key
    free_end = tl.maximum(free_start, free_end)
    return lo, free_start, free_end, hi


@triton.jit
def _query_blocks(start_n, n_q, shift, bounds, cfg):
    """Queries the key block at start_n visits, as three ranges like _key_blocks': [lo, free_start) masked (the
    diagonal or the window's right edge), [free_start, free_end) full blocks that see every key of the block,
    [free_end, hi) masked (the window's left edge and the ragged tail). Key j is seen by rows
    [j - shift - right, j - shift + left]; blocks are BLOCK_M-aligned."""
    left, right = bounds
    full_q = (n_q // cfg.BLOCK_M) * cfg.BLOCK_M
    lo = 0
    free_start = 0
    if cfg.LIMIT_RIGHT:
        lo = (tl.maximum(start_n - shift - right, 0) // cfg.BLOCK_M) * cfg.BLOCK_M  # first row seeing the first key
        last_key_first_row = tl.maximum(start_n + cfg.BLOCK_N - 1 - shift - right, 0)
        free_start = tl.minimum(tl.cdiv(last_key_first_row, cfg.BLOCK_M) * cfg.BLOCK_M, full_q)
    free_end = full_q
    hi = n_q
    if cfg.LIMIT_LEFT:
        first_key_end = tl.maximum(start_n - shift + left + 1, 0)  # past the last row seeing the first key
        free_end = tl.minimum((first_key_end // cfg.BLOCK_M) * cfg.BLOCK_M, full_q)
        hi = tl.minimum(n_q, start_n + cfg.BLOCK_N + left - shift)  # past the last row seeing the last key
    free_end = tl.maximum(free_start, free_end)
    return lo, free_start, free_end, hi


@triton.jit
def _visible(offs_m, offs_n, n_k, shift, bounds, cfg):
    """Which entries of a (BLOCK_M, BLOCK_N) score block count: keys before n_k within each row's window
    [row + shift - left, row + shift + right]. Rows past the last query are computed and never stored."""
    keep = (offs_n < n_k)[None, :]
    diag = offs_m[:, None] + shift
    if cfg.LIMIT_RIGHT:
        keep = keep & (offs_n[None, :] <= diag + bounds[1])
    if cfg.LIMIT_LEFT:
        keep = keep & (offs_n[None, :] >= diag - bounds[0])
    return keep


@triton.jit
def _visible_t(offs_m, offs_n, n_q, n_k, shift, bounds, cfg):
    """_visible for a transposed (BLOCK_N, BLOCK_M) block, which also drops queries past n_q: the dK/dV kernel
    sums over queries."""
    keep = (offs_n < n_k)[:, None] & (offs_m < n_q)[None, :]
    diag = offs_m[None, :] + shift
    if cfg.LIMIT_RIGHT:
        keep = keep & (offs_n[:, None] <= diag + bounds[1])
    if cfg.LIMIT_LEFT:
        keep = keep & (offs_n[:, None] >= diag - bounds[0])
    return keep


# --------------------------------------------------------------------------------------------- forward


@triton.jit
def _attn_fwd_blocks(
    acc, l_i, m_i, q, K, V, offs_m, start, end, n_k, shift, bounds, qk_scale, cfg, MASKED: tl.constexpr
):
    """The online softmax over the key blocks in [start, end): acc, l_i, m_i updated."""
    offs_d = tl.arange(0, cfg.D_PAD)
    d_ok = offs_d < cfg.HEAD_DIM
    for start_n in range(start, end, cfg.BLOCK_N):
        offs_n = start_n + tl.arange(0, cfg.BLOCK_N)
        kv_mask = d_ok[:, None]
        if MASKED:
            kv_mask = kv_mask & (offs_n < n_k)[None, :]
        kT = _load(_tile_t(K, offs_n, offs_d), kv_mask, MASKED or not cfg.EVEN_D)  # (D, BN)
        qk = _mma(q, kT, tl.zeros([cfg.BLOCK_M, cfg.BLOCK_N], tl.float32), cfg.INTERPRETER) * qk_scale  # log2 units
        if MASKED:
            qk = tl.where(_visible(offs_m, offs_n, n_k, shift, bounds, cfg), qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        m_sub = m_ij
        if MASKED:  # a row that has seen no key yet keeps m = -inf; it subtracts 0 instead (exp2(-inf) = 0, no NaN)
            m_sub = tl.where(m_ij == float("-inf"), 0.0, m_ij)
        p = tl.math.exp2(qk - m_sub[:, None])
        alpha = tl.math.exp2(m_i - m_sub)  # rescales what was accumulated under the old running max
        l_i = l_i * alpha + tl.sum(p, 1)
        v = _load(_tile(V, offs_n, offs_d), tl.trans(kv_mask), MASKED or not cfg.EVEN_D)
        acc = _mma(_cast(p, v.dtype, cfg.INTERPRETER), v, acc * alpha[:, None], cfg.INTERPRETER)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _check(cfg, OWNS_KEY_BLOCK: tl.constexpr):
    """The invariants every kernel relies on."""
    if OWNS_KEY_BLOCK:  # a program steps through query blocks: block edges of one size are edges of the other
        tl.static_assert(cfg.BLOCK_N % cfg.BLOCK_M == 0)
    else:
        tl.static_assert(cfg.BLOCK_M % cfg.BLOCK_N == 0)
    tl.static_assert(cfg.D_PAD >= cfg.HEAD_DIM)
    tl.static_assert((cfg.HEAD_DIM == cfg.D_PAD) == cfg.EVEN_D)


@triton.jit
def _attn_fwd(Q, K, V, O, LSE, qk_scale, strides, seqs, bounds, H, cfg):
    _check(cfg, OWNS_KEY_BLOCK=False)
    pid_m = tl.cdiv(seqs[2], cfg.BLOCK_M) - 1 - tl.program_id(0)  # causal: the longest rows start first
    b, h, hk = _program_head(H, cfg.GROUP)
    tb, q0, k0, n_q, n_k, shift = _sequence(seqs, b, cfg)
    start_m = pid_m * cfg.BLOCK_M
    if start_m >= n_q:  # varlen: past this sequence's end
        return
    q_strides, k_strides, v_strides, o_strides = strides
    Q, K = _head_matrix(Q, q_strides, tb, h, q0), _head_matrix(K, k_strides, tb, hk, k0)
    V, O = _head_matrix(V, v_strides, tb, hk, k0), _head_matrix(O, o_strides, tb, h, q0)
    LSE = _head_rows(LSE, tb, h, H, seqs[4], q0)

    offs_m = start_m + tl.arange(0, cfg.BLOCK_M)
    offs_d = tl.arange(0, cfg.D_PAD)
    io_mask = (offs_m < n_q)[:, None] & (offs_d < cfg.HEAD_DIM)[None, :]
    q = tl.load(_tile(Q, offs_m, offs_d), mask=io_mask, other=0.0)  # (BM, D)

    m_i = tl.full([cfg.BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([cfg.BLOCK_M], tl.float32)
    acc = tl.zeros([cfg.BLOCK_M, cfg.D_PAD], tl.float32)
    lo, free_start, free_end, hi = _key_blocks(start_m, n_k, shift, bounds, cfg)
    if cfg.LIMIT_LEFT:  # only a window's left edge makes masked blocks before the mask-free ones
        acc, l_i, m_i = _attn_fwd_blocks(
            acc, l_i, m_i, q, K, V, offs_m, lo, tl.minimum(free_start, hi), n_k, shift, bounds, qk_scale, cfg,
            MASKED=True,
        )  # fmt: skip
    acc, l_i, m_i = _attn_fwd_blocks(
        acc, l_i, m_i, q, K, V, offs_m, free_start, free_end, n_k, shift, bounds, qk_scale, cfg, MASKED=False
    )
    acc, l_i, m_i = _attn_fwd_blocks(
        acc, l_i, m_i, q, K, V, offs_m, free_end, hi, n_k, shift, bounds, qk_scale, cfg, MASKED=True
    )
    seen = l_i > 0  # a row that sees no key: O = 0, LSE = +inf (its backward then has P = 0)
    l_i = tl.where(seen, l_i, 1.0)
    acc = acc / l_i[:, None]
    lse = tl.where(seen, m_i + tl.math.log2(l_i), float("inf"))  # LSE in log2 units
    tl.store(LSE + offs_m, lse, mask=offs_m < n_q)
    tl.store(_tile(O, offs_m, offs_d), _cast(acc, O[0].dtype.element_ty, cfg.INTERPRETER), mask=io_mask)


# -------------------------------------------------------------------------------------------- backward


@triton.jit
def _attn_bwd_preprocess(O, DO, DELTA, strides, H, N_Q, cfg):
    """delta over every row of a (B, H, N_Q) problem (with varlen: the packed rows as one batch entry)."""
    b, h, _ = _program_head(H, 1)
    offs_m = tl.program_id(0) * cfg.BLOCK_M + tl.arange(0, cfg.BLOCK_M)
    offs_d = tl.arange(0, cfg.D_PAD)
    mask = (offs_m < N_Q)[:, None] & (offs_d < cfg.HEAD_DIM)[None, :]
    O, DO = _head_matrix(O, strides[0], b, h, 0), _head_matrix(DO, strides[1], b, h, 0)
    o = tl.load(_tile(O, offs_m, offs_d), mask=mask, other=0.0).to(tl.float32)
    do = tl.load(_tile(DO, offs_m, offs_d), mask=mask, other=0.0).to(tl.float32)
    delta = tl.sum(o * do, 1)  # delta = rowsum(dO * O)
    tl.store(_head_rows(DELTA, b, h, H, N_Q, 0) + offs_m, delta, mask=offs_m < N_Q)


@triton.jit
def _attn_bwd_dkdv_blocks(
    dk, dv, k, v, queries, offs_n, start, end, n_q, n_k, shift, bounds, qk_scale, sm_scale, cfg, MASKED: tl.constexpr
):
    """dK, dV accumulated over the query blocks in [start, end), and with FUSED_DQ each block's dQ share added."""
    Q, DO, DQ, LSE, DELTA, Q_DESC, DO_DESC, DQ_DESC, tb, h, q0, dq_row = queries
    offs_d = tl.arange(0, cfg.D_PAD)
    d_ok = offs_d < cfg.HEAD_DIM
    for start_m in range(start, end, cfg.BLOCK_M):
        offs_m = start_m + tl.arange(0, cfg.BLOCK_M)
        q_mask = d_ok[:, None]
        if MASKED:
            q_mask = q_mask & (offs_m < n_q)[None, :]
            lse = tl.load(LSE + offs_m, mask=offs_m < n_q, other=float("inf"))  # inf: rows past the end get P = 0
            delta = tl.load(DELTA + offs_m, mask=offs_m < n_q, other=0.0)
        else:
            lse = tl.load(LSE + offs_m)
            delta = tl.load(DELTA + offs_m)
        if cfg.LOAD_TMA and not MASKED:  # full blocks: the copy engine brings the tiles (padding columns zero)
            qT = tl.trans(tl.reshape(Q_DESC.load([tb, h, q0 + start_m, 0]), [cfg.BLOCK_M, cfg.D_PAD]))  # (D, BM)
            do = tl.reshape(DO_DESC.load([tb, h, q0 + start_m, 0]), [cfg.BLOCK_M, cfg.D_PAD])
        else:
            qT = _load(_tile_t(Q, offs_m, offs_d), q_mask, MASKED or not cfg.EVEN_D)
            do = _load(_tile(DO, offs_m, offs_d), tl.trans(q_mask), MASKED or not cfg.EVEN_D)
        qkT = _mma(k, qT, tl.zeros([cfg.BLOCK_N, cfg.BLOCK_M], tl.float32), cfg.INTERPRETER) * qk_scale  # (BN, BM)
        pT = tl.math.exp2(qkT - lse[None, :])
        if MASKED:
            pT = tl.where(_visible_t(offs_m, offs_n, n_q, n_k, shift, bounds, cfg), pT, 0.0)
        dv = _mma(_cast(pT, do.dtype, cfg.INTERPRETER), do, dv, cfg.INTERPRETER)  # dV += P^T dO
        dpT = _mma(v, tl.trans(do), tl.zeros([cfg.BLOCK_N, cfg.BLOCK_M], tl.float32), cfg.INTERPRETER)  # dP^T = V dO^T
        dsT = _cast(pT * (dpT - delta[None, :]), qT.dtype, cfg.INTERPRETER)  # dS = P * (dP - delta)
        dk = _mma(dsT, tl.trans(qT), dk, cfg.INTERPRETER)  # dK += dS^T Q (scale applied once at the end)
        if cfg.FUSED_DQ:  # dQ += scale * dS K, summed over key blocks in fp32
            dq = _mma(tl.trans(dsT), k, tl.zeros([cfg.BLOCK_M, cfg.D_PAD], tl.float32), cfg.INTERPRETER) * sm_scale
            if cfg.DQ_TMA:  # one bulk reduce-add by the copy engine (rows past the buffer are clipped)
                DQ_DESC.atomic_add([dq_row, q0 + start_m, 0], tl.reshape(dq, [1, cfg.BLOCK_M, cfg.D_PAD]))
            else:
                tl.atomic_add(_tile(DQ, offs_m, offs_d), dq, mask=(offs_m < n_q)[:, None], sem="relaxed")
    return dk, dv


@triton.jit
def _attn_bwd_dkdv_head(
    dk, dv, k, v, h, Q, DO, DQ, Q_DESC, DO_DESC, DQ_DESC, LSE, DELTA, strides, seqs, bounds, ranges, offs_n,
    tb, q0, n_q, n_k, shift, H, qk_scale, sm_scale, cfg,
):  # fmt: skip
    """dK, dV accumulated over the query blocks of query head h that see this program's keys."""
    q_strides, _, _, do_strides, _, _, dq_strides = strides
    lo, free_start, free_end, hi = ranges
    Q, DO = _head_matrix(Q, q_strides, tb, h, q0), _head_matrix(DO, do_strides, tb, h, q0)
    DQ = _head_matrix(DQ, dq_strides, tb, h, q0)
    LSE, DELTA = _head_rows(LSE, tb, h, H, seqs[4], q0), _head_rows(DELTA, tb, h, H, seqs[4], q0)
    # what each query block's step reads (Q, dO, LSE, delta) and adds into (dQ), with the descriptors' coordinates
    queries = (Q, DO, DQ, LSE, DELTA, Q_DESC, DO_DESC, DQ_DESC, tb, h, q0, tb * H + h)
    if cfg.LIMIT_RIGHT:  # only the diagonal or a window's right edge makes masked blocks before the free ones
        dk, dv = _attn_bwd_dkdv_blocks(
            dk, dv, k, v, queries, offs_n, lo, tl.minimum(free_start, hi), n_q, n_k, shift, bounds,
            qk_scale, sm_scale, cfg, MASKED=True,
        )  # fmt: skip
    dk, dv = _attn_bwd_dkdv_blocks(
        dk, dv, k, v, queries, offs_n, free_start, free_end, n_q, n_k, shift, bounds, qk_scale, sm_scale, cfg,
        MASKED=False,
    )  # fmt: skip
    dk, dv = _attn_bwd_dkdv_blocks(
        dk, dv, k, v, queries, offs_n, free_end, hi, n_q, n_k, shift, bounds, qk_scale, sm_scale, cfg, MASKED=True
    )
    return dk, dv


@triton.jit
def _attn_bwd_dkdv(
    Q, K, V, DO, DK, DV, DQ, Q_DESC, DO_DESC, DQ_DESC, LSE, DELTA, qk_scale, sm_scale, strides, seqs, bounds,
    H_KV, cfg,
):  # fmt: skip
    _check(cfg, OWNS_KEY_BLOCK=True)
    b, hk, _ = _program_head(H_KV, 1)  # a program per kv head: it sums over the GROUP query heads that share it
    tb, q0, k0, n_q, n_k, shift = _sequence(seqs, b, cfg)
    start_n = tl.program_id(0) * cfg.BLOCK_N
    if start_n >= n_k:  # varlen: past this sequence's end
        return
    _, k_strides, v_strides, _, dk_strides, dv_strides, _ = strides
    K, V = _head_matrix(K, k_strides, tb, hk, k0), _head_matrix(V, v_strides, tb, hk, k0)
    DK, DV = _head_matrix(DK, dk_strides, tb, hk, k0), _head_matrix(DV, dv_strides, tb, hk, k0)

    offs_n = start_n + tl.arange(0, cfg.BLOCK_N)
    offs_d = tl.arange(0, cfg.D_PAD)
    io_mask = (offs_n < n_k)[:, None] & (offs_d < cfg.HEAD_DIM)[None, :]
    k = tl.load(_tile(K, offs_n, offs_d), mask=io_mask, other=0.0)  # (BN, D)
    v = tl.load(_tile(V, offs_n, offs_d), mask=io_mask, other=0.0)
    dk = tl.zeros([cfg.BLOCK_N, cfg.D_PAD], tl.float32)
    dv = tl.zeros([cfg.BLOCK_N, cfg.D_PAD], tl.float32)
    lo, free_start, free_end, hi = _query_blocks(start_n, n_q, shift, bounds, cfg)
    ranges = (lo, free_start, free_end, hi)
    if cfg.GROUP == 1:
        dk, dv = _attn_bwd_dkdv_head(
            dk,
            dv,
            k,
            v,
            hk,
            Q,
            DO,
            DQ,
            Q_DESC,
            DO_DESC,
            DQ_DESC,
            LSE,
            DELTA,
            strides,
            seqs,
            bounds,
            ranges,
            offs_n,
            tb,
            q0,
            n_q,
            n_k,
            shift,
            H_KV,
            qk_scale,
            sm_scale,
            cfg,
        )
    else:
        for g in range(cfg.GROUP):  # the query heads of this kv head, in a fixed order
            dk, dv = _attn_bwd_dkdv_head(
                dk,
                dv,
                k,
                v,
                hk * cfg.GROUP + g,
                Q,
                DO,
                DQ,
                Q_DESC,
                DO_DESC,
                DQ_DESC,
                LSE,
                DELTA,
                strides,
                seqs,
                bounds,
                ranges,
                offs_n,
                tb,
                q0,
                n_q,
                n_k,
                shift,
                H_KV * cfg.GROUP,
                qk_scale,
                sm_scale,
                cfg,
            )
    dk *= sm_scale  # dK = scale * dS^T Q
    tl.store(_tile(DK, offs_n, offs_d), _cast(dk, DK[0].dtype.element_ty, cfg.INTERPRETER), mask=io_mask)
    tl.store(_tile(DV, offs_n, offs_d), _cast(dv, DV[0].dtype.element_ty, cfg.INTERPRETER), mask=io_mask)


@triton.jit
def _attn_bwd_dq_blocks(
    dq, q, do, lse, delta, keys, offs_m, start, end, n_k, shift, bounds, qk_scale, cfg, MASKED: tl.constexpr
):
    """dQ accumulated over the key blocks in [start, end)."""
    K, V, K_DESC, V_DESC, tb, hk, k0 = keys
    offs_d = tl.arange(0, cfg.D_PAD)
    d_ok = offs_d < cfg.HEAD_DIM
    for start_n in range(start, end, cfg.BLOCK_N):
        offs_n = start_n + tl.arange(0, cfg.BLOCK_N)
        kv_mask = d_ok[:, None]
        if MASKED:
            kv_mask = kv_mask & (offs_n < n_k)[None, :]
        if cfg.LOAD_TMA and not MASKED:  # full blocks: the copy engine brings the tiles (padding columns zero)
            kT = tl.trans(tl.reshape(K_DESC.load([tb, hk, k0 + start_n, 0]), [cfg.BLOCK_N, cfg.D_PAD]))  # (D, BN)
            vT = tl.trans(tl.reshape(V_DESC.load([tb, hk, k0 + start_n, 0]), [cfg.BLOCK_N, cfg.D_PAD]))
        else:
            kT = _load(_tile_t(K, offs_n, offs_d), kv_mask, MASKED or not cfg.EVEN_D)
            vT = _load(_tile_t(V, offs_n, offs_d), kv_mask, MASKED or not cfg.EVEN_D)
        qk = _mma(q, kT, tl.zeros([cfg.BLOCK_M, cfg.BLOCK_N], tl.float32), cfg.INTERPRETER) * qk_scale
        p = tl.math.exp2(qk - lse[:, None])
        if MASKED:
            p = tl.where(_visible(offs_m, offs_n, n_k, shift, bounds, cfg), p, 0.0)
        dp = _mma(do, vT, tl.zeros([cfg.BLOCK_M, cfg.BLOCK_N], tl.float32), cfg.INTERPRETER)  # dP = dO V^T
        ds = _cast(p * (dp - delta[:, None]), kT.dtype, cfg.INTERPRETER)  # dS = P * (dP - delta)
        dq = _mma(ds, tl.trans(kT), dq, cfg.INTERPRETER)  # dQ += dS K (scale applied once at the end)
    return dq


@triton.jit
def _attn_bwd_dq(Q, K, V, DO, DQ, K_DESC, V_DESC, LSE, DELTA, qk_scale, sm_scale, strides, seqs, bounds, H, cfg):
    _check(cfg, OWNS_KEY_BLOCK=False)
    pid_m = tl.cdiv(seqs[2], cfg.BLOCK_M) - 1 - tl.program_id(0)  # causal: the longest rows start first
    b, h, hk = _program_head(H, cfg.GROUP)
    tb, q0, k0, n_q, n_k, shift = _sequence(seqs, b, cfg)
    start_m = pid_m * cfg.BLOCK_M
    if start_m >= n_q:  # varlen: past this sequence's end
        return
    q_strides, k_strides, v_strides, do_strides, dq_strides = strides
    Q, K = _head_matrix(Q, q_strides, tb, h, q0), _head_matrix(K, k_strides, tb, hk, k0)
    V, DO = _head_matrix(V, v_strides, tb, hk, k0), _head_matrix(DO, do_strides, tb, h, q0)
    DQ = _head_matrix(DQ, dq_strides, tb, h, q0)
    LSE, DELTA = _head_rows(LSE, tb, h, H, seqs[4], q0), _head_rows(DELTA, tb, h, H, seqs[4], q0)
    keys = (K, V, K_DESC, V_DESC, tb, hk, k0)  # what each key block's step reads, with the descriptors' coordinates

    offs_m = start_m + tl.arange(0, cfg.BLOCK_M)
    offs_d = tl.arange(0, cfg.D_PAD)
    row_ok = offs_m < n_q
    io_mask = row_ok[:, None] & (offs_d < cfg.HEAD_DIM)[None, :]
    q = tl.load(_tile(Q, offs_m, offs_d), mask=io_mask, other=0.0)  # (BM, D)
    do = tl.load(_tile(DO, offs_m, offs_d), mask=io_mask, other=0.0)
    lse = tl.load(LSE + offs_m, mask=row_ok, other=float("inf"))  # inf: rows past the end get P = 0
    delta = tl.load(DELTA + offs_m, mask=row_ok, other=0.0)
    dq = tl.zeros([cfg.BLOCK_M, cfg.D_PAD], tl.float32)
    lo, free_start, free_end, hi = _key_blocks(start_m, n_k, shift, bounds, cfg)
    if cfg.LIMIT_LEFT:  # only a window's left edge makes masked blocks before the mask-free ones
        dq = _attn_bwd_dq_blocks(
            dq, q, do, lse, delta, keys, offs_m, lo, tl.minimum(free_start, hi), n_k, shift, bounds, qk_scale, cfg,
            MASKED=True,
        )  # fmt: skip
    dq = _attn_bwd_dq_blocks(
        dq, q, do, lse, delta, keys, offs_m, free_start, free_end, n_k, shift, bounds, qk_scale, cfg, MASKED=False
    )
    dq = _attn_bwd_dq_blocks(
        dq, q, do, lse, delta, keys, offs_m, free_end, hi, n_k, shift, bounds, qk_scale, cfg, MASKED=True
    )
    dq *= sm_scale  # dQ = scale * dS K
    tl.store(_tile(DQ, offs_m, offs_d), _cast(dq, DQ[0].dtype.element_ty, cfg.INTERPRETER), mask=io_mask)
