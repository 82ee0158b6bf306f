"""Hopper (sm90) attention backward in NVIDIA's CuTe DSL: issue 13's kernel, the sm90 dispatch's first choice.

Two entry points: ``dkdv`` (the dK/dV kernel alone, the first prototype) and ``backward`` (the whole backward: the
same kernel with dQ, ``with_dq=True``, between the Gluon backward's own pre-pass and post-pass). Optional and lazy:
this module imports ``cutlass`` (the ``nvidia-cutlass-dsl`` wheels, extra ``cute`` in pyproject.toml) at import
time, so nothing imports it except ``benchmarks/cute_dkdv.py``, ``benchmarks/cute_backward.py`` and the sm90
dispatch (``launch._cute_module``, inside a function, only on an sm90 device whose problem the Gluon kernel takes
too); ``pipeline/``, the CPU path and the Triton/Gluon kernels never do (a CPU test checks that). Written after
reading FlashAttention-4's ``flash_bwd_sm90.py``, FlashAttention-3's ``hopper/`` backward and CUTLASS's CuTe DSL
Hopper examples (the FMHA forward and the dense GEMM); the code is ours.

What it computes (the 4 products of the dK/dV half of the attention backward, and with ``with_dq`` the fifth),
base-2 exponentials with ``qk_scale = scale * log2(e)`` and the LSE given in base-2 units (as the Triton/Gluon
forwards store it):

    P^T  = exp2(qk_scale * K Q^T - LSE)          dP^T = V dO^T
    dV  += P^T dO                                 dS^T = P^T * (dP^T - delta),   delta = rowsum(dO * O)
    dK  += dS^T Q        (x scale at the end)     dQ  += dS K  (per key tile, reduce-added; x scale in the post-pass)

Structure (FlashAttention-3's, the same as our Gluon kernel's ``_hopper_attention.py`` so that the two languages
are compared on one design): one CTA per (128-key tile, batch*head), key tiles fastest in the grid; 3 warpgroups:
warpgroup 0 is the producer (its registers cut to 24 by ``setmaxnreg``; one warp issues every TMA load), warpgroups
1 and 2 do the math (240 registers each), each owning 64 of the 128 keys. K and V are loaded once into shared
memory (their own mbarrier); Q, dO and the per-row LSE and delta of each 64-row query tile go through a ring of
``stages`` shared-memory stages guarded by full/empty mbarriers (CUTLASS's ``PipelineTmaAsync``: the TMA's
transaction count completes "full", one arrive per consumer warp completes "empty"). S^T and dP^T are computed
transposed (keys on the rows), so P^T and dS^T leave the wgmma accumulators in the register layout of a wgmma A
operand: dV += P^T dO and dK += dS^T Q take A from registers (no shared-memory round trip) and B (dO^T, Q^T) from
the same shared-memory tiles read through a transposed (MN-major) view. Per query tile and warpgroup: S^T and dP^T
issued back to back (async), P^T computed while dP^T runs, dV issued async, dS^T computed while dV runs, then dK.
dK and dV stay in registers (fp32) until the end; the epilogue scales dK, converts both and writes each
warpgroup's 64 x d share through its own half of the K/V shared-memory tiles and one TMA store; the warpgroup's 128
threads meet at a named barrier (``bar.sync id, 128``) there, so neither the producer warp nor the other
warpgroup is stalled: the kind of barrier Gluon 3.6 does not expose. The dK/dV kernel alone needs no exchange
between the two math warpgroups (each owns its keys and reads only its half of K and V).

dQ (``with_dq``) needs that exchange: dQ's rows are queries and its sum runs over all 128 keys, half of them in
each math warpgroup. Each warpgroup writes its dS^T (64 keys x 64 queries, bf16/fp16) into its half of a
double-buffered shared tile laid out as the M-major A operand of dQ = dS K (``tSsdS``: the S^T accumulator's own
partition of the transposed view, so the stores are the accumulator's registers in order), fences the async proxy
and meets the other math warpgroup at named barrier 3 (256 threads; the producer warp never waits). Then each
computes d/2 columns of the 64 x d dQ tile over both halves (the dQ MMA's atom layout is (1, 2, 1): warpgroup w
takes columns w*d/2..; B = K through an MN-major transposed view of its shared tile) and hands its fp32 share to
the dQ writer (``dq_regs``, the default; FlashAttention-3's structure): it syncs on the staging buffer's "empty"
named barrier (10 + 2 buf + w, 160 threads), stores the accumulator in its register order (thread t's 16-byte
vector j at float (j * 128 + t) * 4 of the share: one warp's STS.128 covers 512 contiguous bytes, conflict-free),
fences the async proxy and arrives, without waiting, at the buffer's "full" barrier (6 + 2 buf + w). Warp 1 of the
producer warpgroup, the dQ writer, syncs on "full", adds the whole share (8 or 16 KiB) into the fp32 accumulator
by one plain bulk reduce (``cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32``, inline PTX: the DSL
wraps only the tensor form), waits for the copy engine's read and arrives at "empty". The accumulator holds each
64-row tile in that register order, so the post-pass un-permutes it (``_cute_post``). Two staging buffers per
warpgroup (``dq_bufs``; at d128 that is 226 of the 227 KiB a block may have), so the math warps rarely wait.
Earlier flushes stay as options (``dq_regs=False``): the math warps stage a 128-byte-swizzled (``dq_swizzle``) or
dense tile and issue a TMA reduce-add (``CopyReduceBulkTensorTileS2GOp``) behind their own named barrier (4 + w),
or hand that tile to the writer warp (``dq_writer``). Double buffering of dS^T makes one exchange barrier per step
enough: a warpgroup rewrites buffer b two steps later, after the next step's barrier, which the other reaches only
after its dQ product of this step completed. The loop issues S^T, dP^T; P^T; dV; dS^T -> shared; barrier 3; dQ
then dK (async); dQ staged while dK runs. After the loop barrier 3 once more (the epilogue stages dK in the K tile
the other warpgroup's last dQ product reads). Causal CTAs start longest first (``heavy_first``: the Gluon kernel's
``_program_tile`` order, heads in chunks of one wave, key tiles slowest inside a chunk); the grid keeps key tiles
fastest. ``dk_first`` (dK issued before the exchange) and ``defer_dq`` (each dQ flushed behind the next step's S^T,
dP^T) are measured variants of the swizzled flush, both slower. ``backward`` calls the compiled kernel through
TVM-FFI where ``apache-tvm-ffi`` is importable (``ffi_available``): the DSL's default call path (nine DLPack views
and its argument marshalling per call) cost more host time than the kernel's GPU time at the grid's short causal
points.

Measured on one H200 (docs/perf.md, "The other route: CuTe DSL dK/dV prototype", "the whole backward", "where its
dQ time goes", "the dQ-writer warp"): the dK/dV kernel alone is 1.09x our Gluon dK/dV kernel like for like; the
whole backward with the math warps flushing dQ was 0.952x the Gluon backward (dense staging), then 1.000x
(swizzled, 8 points); with the dQ writer and the register-order staging it is 1.13x the Gluon backward over the
standard grid (``benchmarks/cute_backward.py``; 1.07-1.26x at every point), and through the users' path (the
in-tool benchmark, TVM-FFI) 1.06x cuDNN (1.01-1.12x at every point) against Gluon's 0.95x. Every check passes (dq,
dk, dv at 1.4-1.5x PyTorch's same-dtype error, bf16 and fp16). Compiles for sm_90a without a GPU
(``benchmarks/cute_backward.py --compile-only``): no CTA barrier in the main loop, no spills in the default kernel
(the swizzled flush keeps 11 staging addresses on the stack at d128).

Contract: q, k, v, do of shape (batch, heads, seq, head_dim), contiguous and 16-byte aligned, bf16 or fp16,
head_dim 64 or 128, the same number of heads and the same length for queries and keys (MHA), the length a multiple
of 128 (no ragged tiles: TMA would zero-fill them but the kernel does not mask keys past the end); causal is
top-left (query i sees keys j <= i; with equal lengths that is bottom-right too). ``dkdv``: lse_log2 and delta
(batch*heads, seq) fp32, contiguous; dk, dv written. ``backward``: o and the base-2 LSE (batch, heads, seq) of the
forward; dq (any strides), dk, dv (contiguous) written (``supported`` says what it refuses).
"""

from __future__ import annotations

import math
from typing import Any

import cuda.bindings.driver as cuda
import cutlass
import cutlass.cute as cute
import cutlass.pipeline as pipeline
import cutlass.utils as utils
import cutlass.utils.hopper_helpers as sm90_utils
from cutlass import Float32, Int32, const_expr
from cutlass._mlir.dialects import llvm
from cutlass.cute.nvgpu import cpasync, warpgroup
from cutlass.cutlass_dsl import dsl_user_op

LOG2E = math.log2(math.e)
_TRACE_LAYOUTS = False  # print the fragments' layouts while tracing (a debugging aid for the register-A regrouping)


@dsl_user_op
def _bulk_reduce_add_f32(gmem_ptr, smem_ptr, nbytes: int, *, loc=None, ip=None) -> None:
    """``cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32``: nbytes (a multiple of 16, both addresses
    16-byte aligned) of fp32 from shared memory added element-wise into global memory by the copy engine, tracked
    by the issuing thread's bulk group (the DSL wraps only the tensor form). One thread issues it."""
    llvm.inline_asm(
        None,
        [
            gmem_ptr.toint(loc=loc, ip=ip).ir_value(loc=loc, ip=ip),
            smem_ptr.toint(loc=loc, ip=ip).ir_value(loc=loc, ip=ip),
            Int32(nbytes).ir_value(loc=loc, ip=ip),
        ],
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], $2;",
        "l,r,r,~{memory}",
        has_side_effects=True,
        asm_dialect=0,
        loc=loc,
        ip=ip,
    )


class DkDvSm90:
    """The dK/dV kernel, or with ``with_dq`` the whole backward's kernel, for one (head_dim, causal, dtype, tile_m,
    stages, schedule); ``__call__`` is the host side that ``cute.compile`` traces (tensors in the (seq, head_dim,
    batch*heads) view, see ``dkdv`` and ``backward``)."""

    tile_n = 128  # keys per CTA: 64 per math warpgroup
    rows_per_wg = 64

    def __init__(
        self,
        head_dim: int,
        causal: bool,
        dtype=cutlass.BFloat16,
        tile_m: int = 64,
        stages: int = 2,
        mma_regs: int = 240,
        producer_regs: int = 24,
        with_dq: bool = False,
        heavy_first: bool = True,
        dk_first: bool = False,
        defer_dq: bool = False,
        dq_swizzle: bool = True,
        dq_writer: bool = False,
        dq_regs: bool = True,
        dq_bufs: int | None = None,
    ):
        if head_dim not in (64, 128):
            raise ValueError(f"DkDvSm90: head_dim {head_dim} not in (64, 128)")
        if tile_m not in (64, 128):
            raise ValueError(f"DkDvSm90: tile_m {tile_m} not in (64, 128)")
        self.d = head_dim
        self.causal = causal
        self.dtype = dtype
        self.tile_m = tile_m
        self.stages = stages
        self.mma_regs = mma_regs
        self.producer_regs = producer_regs
        self.with_dq = with_dq
        self.heavy_first = heavy_first
        self.dk_first = dk_first  # dK issued before the dS^T exchange (its barrier wait hidden behind dK)
        self.defer_dq = defer_dq  # each step's dQ flushed in the next step, behind its S^T, dP^T products
        # the fp32 dQ staging tile 128-byte swizzled (32-float columns blocks, rows 128 bytes apart, XOR-permuted
        # 16-byte chunks) rather than dense rows 128 or 256 bytes apart, whose accumulator-layout stores put the 8
        # rows one store instruction touches on the same banks (ncu: 4x the ideal store wavefronts, 2x swizzled)
        self.dq_swizzle = dq_swizzle
        # FlashAttention-3's dQ hand-off: the math warps store their share, fence and `bar.arrive` a named barrier;
        # warp 1 of the producer warpgroup (the dQ writer) syncs on it, issues the reduce-add, waits for its read
        # and arrives at the buffer's "empty" barrier, which the math warps sync on before they store into it again
        # (`dq_bufs` staging buffers, 1 or 2). `dq_regs` (implies the writer): each thread stores its fp32 share
        # in its register order (16-byte vectors, a warp's store 512 contiguous bytes: conflict-free) and the
        # writer adds the whole share by one plain bulk reduce (`cp.reduce.async.bulk...add.f32`) into an
        # accumulator laid out the same way; ``backward``'s post-pass un-permutes it (``_post_regs``)
        self.dq_writer = dq_writer or dq_regs
        self.dq_regs = dq_regs
        if dq_bufs is None:  # two where the writer frees them (d128: 226 KiB of the 227 a block may have), else one
            dq_bufs = 2 if self.dq_writer else 1
        if dq_bufs not in (1, 2) or (dq_bufs == 2 and not self.dq_writer):
            raise ValueError(f"DkDvSm90: dq_bufs {dq_bufs}: 1, or 2 with the dQ writer")
        if self.dq_writer and (dk_first or defer_dq):
            raise ValueError("DkDvSm90: the dQ writer is not combined with dk_first or defer_dq")
        self.dq_bufs = dq_bufs
        self.threads = 384

    # ----------------------------------------------------------------------------------------------- host side
    @cute.jit
    def __call__(
        self,
        mQ: cute.Tensor,
        mK: cute.Tensor,
        mV: cute.Tensor,
        mdO: cute.Tensor,
        mLSE: cute.Tensor,
        mDelta: cute.Tensor,
        mdK: cute.Tensor,
        mdV: cute.Tensor,
        mdQ: cute.Tensor,
        scale_log2: Float32,
        scale: Float32,
        chunk: Int32,
        stream: cuda.CUstream,
    ):
        d, tm, tn, rw = self.d, self.tile_m, self.tile_n, self.rows_per_wg
        dt = self.dtype
        row = utils.LayoutEnum.ROW_MAJOR
        # K, V: two (64, d) halves, d contiguous, one per math warpgroup: the A operand (M = keys, K = d) of
        # S^T = K Q^T and dP^T = V dO^T; each half is later the staging tile of that warpgroup's dK/dV store
        kv_layout = sm90_utils.make_smem_layout_a(row, (rw, tm, d), dt, 2)
        # Q, dO: (tile_m, d) per stage, d contiguous: the B operand (N = queries, K = d) of S^T and dP^T, and,
        # read through a transposed view, the MN-major B operand (N = d, K = queries) of dK and dV
        q_layout = sm90_utils.make_smem_layout_b(row, (tn, tm, d), dt, self.stages)

        mma_SdP = sm90_utils.make_trivial_tiled_mma(
            dt, dt, warpgroup.OperandMajorMode.K, warpgroup.OperandMajorMode.K, Float32, (1, 1, 1), (rw, tm)
        )
        mma_dKV = sm90_utils.make_trivial_tiled_mma(
            dt,
            dt,
            warpgroup.OperandMajorMode.K,
            warpgroup.OperandMajorMode.MN,
            Float32,
            (1, 1, 1),
            (rw, d),
            warpgroup.OperandSource.RMEM,
        )

        g2s = cpasync.CopyBulkTensorTileG2SOp()
        kv_one = cute.slice_(kv_layout, (None, None, 0))
        q_one = cute.slice_(q_layout, (None, None, 0))
        tma_K, tK = cpasync.make_tiled_tma_atom(g2s, mK, kv_one, (rw, d))
        tma_V, tV = cpasync.make_tiled_tma_atom(g2s, mV, kv_one, (rw, d))
        tma_Q, tQ = cpasync.make_tiled_tma_atom(g2s, mQ, q_one, (tm, d))
        tma_dO, tdO = cpasync.make_tiled_tma_atom(g2s, mdO, q_one, (tm, d))
        vec_layout = cute.make_layout((tm,))
        tma_LSE, tLSE = cpasync.make_tiled_tma_atom(g2s, mLSE, vec_layout, (tm,))
        tma_D, tD = cpasync.make_tiled_tma_atom(g2s, mDelta, vec_layout, (tm,))
        s2g = cpasync.CopyBulkTensorTileS2GOp()
        tma_dK, tdK = cpasync.make_tiled_tma_atom(s2g, mdK, kv_one, (rw, d))
        tma_dV, tdV = cpasync.make_tiled_tma_atom(s2g, mdV, kv_one, (rw, d))

        # dQ (with_dq): dS^T goes to shared memory in the layout of an M-major (queries contiguous) A operand of
        # dQ = dS K, (tile_m, 64 keys) per warpgroup half, two buffers of two halves (index buf * 2 + half); the
        # two math warpgroups then split dQ's head_dim (atom layout (1, 2, 1)), each reading both halves of dS
        # and of K (K through an MN-major transposed view of its shared tile), so each adds d/2 columns of the
        # full 128-key sum into the fp32 accumulator by one TMA reduce-add from its own dense (tile_m, d/2) tile
        ds_layout = sm90_utils.make_smem_layout_a(utils.LayoutEnum.COL_MAJOR, (tm, d, rw), dt, 4)
        mma_dQ = sm90_utils.make_trivial_tiled_mma(
            dt, dt, warpgroup.OperandMajorMode.MN, warpgroup.OperandMajorMode.MN, Float32, (1, 2, 1), (tm, d // 2)
        )
        tma_dQ, tdQ = tma_dK, tdK  # placeholders when dQ is not computed (never used then)
        if const_expr(self.with_dq and self.dq_regs):
            tdQ = mdQ  # the writer's plain bulk reduce takes addresses, not a TMA descriptor
        elif const_expr(self.with_dq):
            dq_staged = self._dq_staged()
            dq_half = cute.slice_(dq_staged, (None, None, 0))
            tma_dQ, tdQ = cpasync.make_tiled_tma_atom(
                cpasync.CopyReduceBulkTensorTileS2GOp(), mdQ, dq_half, (tm, d // 2)
            )
        ds_elems = cute.cosize(ds_layout) if self.with_dq else 8
        dq_elems = tm * d * self.dq_bufs if self.with_dq else 4

        self.kv_bytes = 4 * cute.size_in_bytes(dt, kv_one)  # K and V, two halves each
        self.q_bytes = 2 * cute.size_in_bytes(dt, q_one) + 2 * tm * 4
        stages = self.stages

        @cute.struct
        class Smem:
            kv_bar: cute.struct.MemRange[cutlass.Int64, 2]
            q_bar: cute.struct.MemRange[cutlass.Int64, stages * 2]
            sLSE: cute.struct.Align[cute.struct.MemRange[Float32, tm * stages], 128]
            sDelta: cute.struct.Align[cute.struct.MemRange[Float32, tm * stages], 128]
            sK: cute.struct.Align[cute.struct.MemRange[dt, cute.cosize(kv_layout)], 1024]
            sV: cute.struct.Align[cute.struct.MemRange[dt, cute.cosize(kv_layout)], 1024]
            sQ: cute.struct.Align[cute.struct.MemRange[dt, cute.cosize(q_layout)], 1024]
            sdO: cute.struct.Align[cute.struct.MemRange[dt, cute.cosize(q_layout)], 1024]
            sdS: cute.struct.Align[cute.struct.MemRange[dt, ds_elems], 1024]
            sdQ: cute.struct.Align[cute.struct.MemRange[Float32, dq_elems], 1024]

        self.Smem = Smem
        n_blocks = cute.ceil_div(cute.size(mK.shape[0]), tn)
        self.kernel(
            tQ,
            tK,
            tV,
            tdO,
            tLSE,
            tD,
            tdK,
            tdV,
            tdQ,
            tma_Q,
            tma_K,
            tma_V,
            tma_dO,
            tma_LSE,
            tma_D,
            tma_dK,
            tma_dV,
            tma_dQ,
            mma_SdP,
            mma_dKV,
            mma_dQ,
            kv_layout,
            q_layout,
            ds_layout,
            scale_log2,
            scale,
            chunk,
        ).launch(
            grid=[n_blocks, cute.size(mK.shape[2]), 1], block=[self.threads, 1, 1], stream=stream, min_blocks_per_mp=1
        )

    # --------------------------------------------------------------------------------------------- device side
    @cute.kernel
    def kernel(
        self,
        mQ: cute.Tensor,
        mK: cute.Tensor,
        mV: cute.Tensor,
        mdO: cute.Tensor,
        mLSE: cute.Tensor,
        mDelta: cute.Tensor,
        mdK: cute.Tensor,
        mdV: cute.Tensor,
        mdQ: cute.Tensor,
        tma_Q: cute.CopyAtom,
        tma_K: cute.CopyAtom,
        tma_V: cute.CopyAtom,
        tma_dO: cute.CopyAtom,
        tma_LSE: cute.CopyAtom,
        tma_D: cute.CopyAtom,
        tma_dK: cute.CopyAtom,
        tma_dV: cute.CopyAtom,
        tma_dQ: cute.CopyAtom,
        mma_SdP: cute.TiledMma,
        mma_dKV: cute.TiledMma,
        mma_dQ: cute.TiledMma,
        kv_layout: cute.ComposedLayout,
        q_layout: cute.ComposedLayout,
        ds_layout: cute.ComposedLayout,
        scale_log2: Float32,
        scale: Float32,
        chunk: Int32,
    ):
        tm, tn = self.tile_m, self.tile_n
        tidx, _, _ = cute.arch.thread_idx()
        n_block, bh, _ = cute.arch.block_idx()
        if const_expr(self.causal and self.heavy_first):
            # longest first, as the Gluon kernel's _program_tile: heads in chunks of `chunk` (about one wave of
            # CTAs), key tiles slowest inside a chunk, so the first key tiles of every head in the chunk (the most
            # query tiles under a top-left causal mask) start first and the short ones fill the tail
            n_kt, n_bh, _ = cute.arch.grid_dim()
            pid = bh * n_kt + n_block
            first = (pid // (chunk * n_kt)) * chunk
            width = cutlass.min(chunk, n_bh - first)
            r = pid - first * n_kt
            n_block = r // width
            bh = first + r % width
        warp_idx = cute.arch.make_warp_uniform(cute.arch.warp_idx())
        wg_idx = cute.arch.make_warp_uniform(tidx // 128)

        if warp_idx == 0:
            for atom in (tma_Q, tma_K, tma_V, tma_dO, tma_LSE, tma_D, tma_dK, tma_dV, tma_dQ):
                cpasync.prefetch_descriptor(atom)

        smem = utils.SmemAllocator()
        st = smem.allocate(self.Smem)
        producer = pipeline.CooperativeGroup(pipeline.Agent.Thread, 1)
        consumers = pipeline.CooperativeGroup(pipeline.Agent.Thread, 8)  # one arrive per math warp
        kv_pipe = pipeline.PipelineTmaAsync.create(
            barrier_storage=st.kv_bar.data_ptr(),
            num_stages=1,
            producer_group=producer,
            consumer_group=consumers,
            tx_count=self.kv_bytes,
            defer_sync=True,
        )
        q_pipe = pipeline.PipelineTmaAsync.create(
            barrier_storage=st.q_bar.data_ptr(),
            num_stages=self.stages,
            producer_group=producer,
            consumer_group=consumers,
            tx_count=self.q_bytes,
            defer_sync=False,
        )

        sK = st.sK.get_tensor(kv_layout.outer, swizzle=kv_layout.inner)
        sV = st.sV.get_tensor(kv_layout.outer, swizzle=kv_layout.inner)
        sQ = st.sQ.get_tensor(q_layout.outer, swizzle=q_layout.inner)
        sdO = st.sdO.get_tensor(q_layout.outer, swizzle=q_layout.inner)
        sLSE = st.sLSE.get_tensor(cute.make_layout((tm, self.stages)))
        sDelta = st.sDelta.get_tensor(cute.make_layout((tm, self.stages)))

        # the query tiles this key tile sees: all, or (causal, top-left) those at or below its first key
        n_q_blocks = cute.ceil_div(cute.size(mQ.shape[0]), tm)
        m_lo = Int32(0)
        if const_expr(self.causal):
            m_lo = (n_block * tn) // tm

        gmem = (mQ, mK, mV, mdO, mLSE, mDelta)
        smem = (sQ, sK, sV, sdO, sLSE, sDelta)
        tile = (n_block, bh, m_lo, n_q_blocks)
        if wg_idx == 0:
            cute.arch.setmaxregister_decrease(self.producer_regs)
            if const_expr(self.with_dq and self.dq_writer):  # noqa: SIM102 (a constexpr test, then a dynamic one)
                if warp_idx == 1:
                    self.write_dq(mdQ, tma_dQ, st, bh, m_lo, n_q_blocks)
            if warp_idx == 0:
                self.produce(gmem, smem, (tma_Q, tma_K, tma_V, tma_dO, tma_LSE, tma_D), kv_pipe, q_pipe, tile)
        else:
            cute.arch.setmaxregister_increase(self.mma_regs)
            self.consume((mma_SdP, mma_dKV, mma_dQ), (mdK, mdV, mdQ), smem, (tma_dK, tma_dV, tma_dQ), st, ds_layout,
                         kv_pipe, q_pipe, tile, wg_idx - 1, tidx % 128, scale_log2, scale)  # fmt: skip

    @cute.jit
    def produce(self, gmem, smem, tmas, kv_pipe, q_pipe, tile):
        """The producer warp: K and V once, then Q, dO, LSE, delta of every query tile this key tile sees through
        the ``stages``-deep ring. ``gmem``, ``smem``, ``tmas``: the (Q, K, V, dO, LSE, delta) global tensors,
        shared tiles and TMA atoms; ``tile``: (n_block, bh, m_lo, n_q_blocks)."""
        mQ, mK, mV, mdO, mLSE, mDelta = gmem
        sQ, sK, sV, sdO, sLSE, sDelta = smem
        tma_Q, tma_K, tma_V, tma_dO, tma_LSE, tma_D = tmas
        n_block, bh, m_lo, n_q_blocks = tile
        d, tm = self.d, self.tile_m
        gK = cute.local_tile(mK[None, None, bh], (self.rows_per_wg, d), (None, 0))
        gV = cute.local_tile(mV[None, None, bh], (self.rows_per_wg, d), (None, 0))
        gQ = cute.local_tile(mQ[None, None, bh], (tm, d), (None, 0))
        gdO = cute.local_tile(mdO[None, None, bh], (tm, d), (None, 0))
        gLSE = cute.local_tile(mLSE[None, bh], (tm,), (None,))
        gD = cute.local_tile(mDelta[None, bh], (tm,), (None,))
        one = cute.make_layout(1)
        tKs, tKg = cpasync.tma_partition(tma_K, 0, one, cute.group_modes(sK, 0, 2), cute.group_modes(gK, 0, 2))
        tVs, tVg = cpasync.tma_partition(tma_V, 0, one, cute.group_modes(sV, 0, 2), cute.group_modes(gV, 0, 2))
        tQs, tQg = cpasync.tma_partition(tma_Q, 0, one, cute.group_modes(sQ, 0, 2), cute.group_modes(gQ, 0, 2))
        tOs, tOg = cpasync.tma_partition(tma_dO, 0, one, cute.group_modes(sdO, 0, 2), cute.group_modes(gdO, 0, 2))
        tLs, tLg = cpasync.tma_partition(tma_LSE, 0, one, cute.group_modes(sLSE, 0, 1), cute.group_modes(gLSE, 0, 1))
        tDs, tDg = cpasync.tma_partition(tma_D, 0, one, cute.group_modes(sDelta, 0, 1), cute.group_modes(gD, 0, 1))

        kv_state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Producer, 1)
        kv_pipe.producer_acquire(kv_state)
        bar = kv_pipe.producer_get_barrier(kv_state)
        for half in cutlass.range_constexpr(2):
            cute.copy(tma_K, tKg[(None, n_block * 2 + half)], tKs[(None, half)], tma_bar_ptr=bar)
            cute.copy(tma_V, tVg[(None, n_block * 2 + half)], tVs[(None, half)], tma_bar_ptr=bar)

        state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Producer, self.stages)
        for m_block in cutlass.range(m_lo, n_q_blocks, unroll=1):
            q_pipe.producer_acquire(state)
            bar = q_pipe.producer_get_barrier(state)
            s = state.index
            cute.copy(tma_Q, tQg[(None, m_block)], tQs[(None, s)], tma_bar_ptr=bar)
            cute.copy(tma_LSE, tLg[(None, m_block)], tLs[(None, s)], tma_bar_ptr=bar)
            cute.copy(tma_dO, tOg[(None, m_block)], tOs[(None, s)], tma_bar_ptr=bar)
            cute.copy(tma_D, tDg[(None, m_block)], tDs[(None, s)], tma_bar_ptr=bar)
            state.advance()
        q_pipe.producer_tail(state)

    @staticmethod
    @cute.jit
    def _gemm(tiled_mma, acc, a, b, zero_init: cutlass.Constexpr[bool]):
        """acc (+)= a b over the k blocks of a (A fragment: (MMA, MMA_M, MMA_K)) and b."""
        for k in cutlass.range_constexpr(cute.size(a, mode=[2])):
            if const_expr(zero_init):
                tiled_mma.set(warpgroup.Field.ACCUMULATE, k != 0)
            cute.gemm(tiled_mma, acc, a[None, None, k], b[None, None, k], acc)

    def _dq_staged(self):
        """The fp32 dQ staging tile's layout, (tile_m, d/2, buf*2 + wg): dense rows, or with ``dq_swizzle``
        128-byte-swizzled atoms of 8 rows x 32 floats stacked along the rows first, so that each 32-column block of
        a warpgroup's share is one contiguous (tile_m, 32) TMA box (1 at d64, 2 at d128). With ``dq_regs``:
        (thread, (4, d/16), wg, buf), each thread's d/4 values in its register order as 16-byte vectors, vector j
        of thread t at float (j * 128 + t) * 4 of its warpgroup's share (``_post_regs`` inverts it)."""
        tm, d, bufs = self.tile_m, self.d, self.dq_bufs
        if self.dq_regs:
            return cute.make_layout((128, (4, d // 16), 2, bufs), stride=(4, (1, 512), tm * d // 2, tm * d))
        if self.dq_swizzle:
            return sm90_utils.make_smem_layout_epi(Float32, utils.LayoutEnum.ROW_MAJOR, (tm, d // 2), 2 * bufs)
        return cute.make_layout((tm, d // 2, 2 * bufs), stride=(d // 2, 1, tm * d // 2))

    def _dq_smem(self, st):
        """The staging tile (``_dq_staged``) as a tensor over the kernel's shared memory."""
        dq_staged = self._dq_staged()  # made here again: a layout made on the host side cannot be used here
        if const_expr(self.dq_swizzle and not self.dq_regs):
            return st.sdQ.get_tensor(dq_staged.outer, swizzle=dq_staged.inner)
        return st.sdQ.get_tensor(dq_staged)

    @cute.jit
    def write_dq(self, mdQ, tma_dQ, st, bh, m_lo, n_q_blocks):
        """The dQ writer (warp 1 of the producer warpgroup): per query tile and math warpgroup, wait for the
        staged share (named barrier 6 + 2 * buf + wg, the math warpgroup's 128 threads `bar.arrive` it), add it
        into the fp32 accumulator (TMA reduce-add of the swizzled tile, or with ``dq_regs`` one plain bulk
        reduce of the register-order share), and once the copy engine has read it hand the buffer back (named
        barrier 10 + 2 * buf + wg, which the math warpgroup syncs on before it stores there again). Each buffer
        starts free (one arrive up front) and is not handed back after its last use, so every barrier phase is
        completed exactly once by both sides."""
        tm, d, bufs = self.tile_m, self.d, self.dq_bufs
        share = tm * d // 2  # floats of one warpgroup's share of a query tile's dQ
        sdQ_all = self._dq_smem(st)
        unit = cute.make_layout(1)
        if const_expr(not self.dq_regs):
            tQs, tQg0 = cpasync.tma_partition(
                tma_dQ,
                0,
                unit,
                cute.group_modes(sdQ_all, 0, 2),
                cute.group_modes(cute.local_tile(mdQ[None, None, bh], (tm, d // 2), (None, 0)), 0, 2),
            )
            _, tQg1 = cpasync.tma_partition(
                tma_dQ,
                0,
                unit,
                cute.group_modes(sdQ_all, 0, 2),
                cute.group_modes(cute.local_tile(mdQ[None, None, bh], (tm, d // 2), (None, 1)), 0, 2),
            )
        for b in cutlass.range_constexpr(bufs):
            for w in cutlass.range_constexpr(2):
                cute.arch.barrier_arrive(barrier_id=10 + 2 * b + w, number_of_threads=160)
        for m_block in cutlass.range(m_lo, n_q_blocks, unroll=1):
            buf = (m_block - m_lo) % bufs if bufs > 1 else 0
            for w in cutlass.range_constexpr(2):
                cute.arch.barrier(barrier_id=6 + 2 * buf + w, number_of_threads=160)
                if const_expr(self.dq_regs):
                    src = st.sdQ.data_ptr() + (buf * 2 + w) * share
                    dst = mdQ.iterator + (cute.crd2idx((m_block * tm, 0, bh), mdQ.layout) + w * share)
                    with cute.arch.elect_one():
                        _bulk_reduce_add_f32(dst, src, share * 4)
                else:
                    cute.copy(tma_dQ, tQs[(None, buf * 2 + w)], (tQg0 if w == 0 else tQg1)[(None, m_block)])
                cute.arch.cp_async_bulk_commit_group()
            for w in cutlass.range_constexpr(2):
                cute.arch.cp_async_bulk_wait_group(1 - w, read=True)
                if m_block + bufs < n_q_blocks:
                    cute.arch.barrier_arrive(barrier_id=10 + 2 * buf + w, number_of_threads=160)
        cute.arch.cp_async_bulk_wait_group(0, read=True)

    @staticmethod
    @cute.jit
    def _stage_dq(acc, dst, buf, wg):
        """The math warpgroup's side of the dQ writer: wait until buffer ``buf`` is free, store this thread's
        share of acc_dQ (``acc``, a view matching ``dst``), fence the async proxy and arrive (without waiting) at
        the barrier the writer syncs on."""
        cute.arch.barrier(barrier_id=10 + 2 * buf + wg, number_of_threads=160)
        cute.autovec_copy(acc, dst)
        cute.arch.fence_proxy("async.shared", space="cta")
        cute.arch.barrier_arrive(barrier_id=6 + 2 * buf + wg, number_of_threads=160)

    @staticmethod
    @cute.jit
    def _flush_dq(acc_dQ, tdQsdQ, tma_dQ, tQs, tQg, m_block, wg, tid):
        """acc_dQ (this warpgroup's d/2 columns of one query tile's dQ share) -> its fp32 staging tile -> one TMA
        reduce-add into the accumulator rows of ``m_block``. The warpgroup's own named barrier (4 + wg, 128
        threads) orders the previous reduce's read of the tile (waited for by the issuing warp), the writes, and
        the next reduce; nothing outside the warpgroup waits."""
        if tid < 32:
            cute.arch.cp_async_bulk_wait_group(0, read=True)
        cute.arch.barrier(barrier_id=4 + wg, number_of_threads=128)
        cute.autovec_copy(acc_dQ, tdQsdQ)
        cute.arch.fence_proxy("async.shared", space="cta")
        cute.arch.barrier(barrier_id=4 + wg, number_of_threads=128)
        if tid < 32:
            cute.copy(tma_dQ, tQs, tQg[(None, m_block)])
            cute.arch.cp_async_bulk_commit_group()

    @staticmethod
    def _as_a_operand(acc_layout, k_blocks: int):
        """The register layout that reads a 16-bit copy of a wgmma fp32 accumulator (64 x N per warpgroup) as the
        A operand of the next wgmma (64 x K with K = N). An m64nNk16 accumulator gives each thread, per 8-column
        group j, values (row r, cols 8j+2t..+1) and (row r+8, same cols); the A fragment of k block kb wants
        (r, 2t..), (r+8, 2t..), (r, 2t+8..), (r+8, 2t+8..) of columns 16kb..16kb+15: column groups 2kb and 2kb+1
        in order. So the same registers, regrouped ((2, 2, 2), 1, N/16), are the A operand."""
        del acc_layout
        return cute.make_layout(((2, 2, 2), 1, k_blocks), stride=((1, 2, 4), 0, 8))

    @cute.jit
    def consume(self, mmas, outs, smem, tmas, st, ds_layout, kv_pipe, q_pipe, tile, wg, tid, scale_log2, scale):
        """A math warpgroup (``wg`` 0 or 1, thread ``tid`` of 128): its 64 keys' dK, dV over the query tiles, and
        with ``with_dq`` its half of each tile's dQ. ``mmas``: the (S/dP, dK/dV, dQ) tiled MMAs; ``outs``: the
        (dK, dV, dQ) global tensors, ``tmas`` their TMA atoms; ``smem``: the (Q, K, V, dO, LSE, delta) shared
        tiles; ``tile``: (n_block, bh, m_lo, n_q_blocks)."""
        mma_SdP, mma_dKV, mma_dQ = mmas
        mdK, mdV, mdQ = outs
        sQ, sK, sV, sdO, sLSE, sDelta = smem
        tma_dK, tma_dV, tma_dQ = tmas
        n_block, bh, m_lo, n_q_blocks = tile
        d, tm, tn, rw = self.d, self.tile_m, self.tile_n, self.rows_per_wg
        dt = self.dtype
        thr_SdP = mma_SdP.get_slice(tid)
        thr_dKV = mma_dKV.get_slice(tid)

        # this warpgroup's 64 keys of K and V
        sK_w = sK[None, None, wg]
        sV_w = sV[None, None, wg]
        # transposed views (d, tile_m, stages) of the Q and dO stages: B of dK += dS^T Q and dV += P^T dO
        sQt = cute.make_tensor(sQ.iterator, cute.select(sQ.layout, mode=[1, 0, 2]))
        sdOt = cute.make_tensor(sdO.iterator, cute.select(sdO.layout, mode=[1, 0, 2]))

        tSrK = thr_SdP.make_fragment_A(thr_SdP.partition_A(sK_w))
        tSrQ = thr_SdP.make_fragment_B(thr_SdP.partition_B(sQ))
        tPrV = thr_SdP.make_fragment_A(thr_SdP.partition_A(sV_w))
        tPrdO = thr_SdP.make_fragment_B(thr_SdP.partition_B(sdO))
        tVrdOt = thr_dKV.make_fragment_B(thr_dKV.partition_B(sdOt))
        tKrQt = thr_dKV.make_fragment_B(thr_dKV.partition_B(sQt))

        acc_shape_S = thr_SdP.partition_shape_C((rw, tm))
        acc_dV = thr_dKV.make_fragment_C(thr_dKV.partition_shape_C((rw, d)))
        acc_dK = thr_dKV.make_fragment_C(thr_dKV.partition_shape_C((rw, d)))
        acc_dV.fill(0.0)
        acc_dK.fill(0.0)
        # (row, col) of every accumulator element of S^T: row = key within this warpgroup's 64, col = query
        cS = thr_SdP.partition_C(cute.make_identity_tensor((rw, tm)))
        a_layout = self._as_a_operand(None, tm // 16)
        if const_expr(_TRACE_LAYOUTS):
            print(
                "acc_S",
                cute.make_fragment_like(thr_SdP.make_fragment_C(acc_shape_S)).layout,
                "A",
                a_layout,
                "acc_dK",
                acc_dK.layout,
                "tKrQt",
                tKrQt.layout,
                "tVrdOt",
                tVrdOt.layout,
            )
        key0 = n_block * tn + wg * rw

        # the epilogue's staging tiles (this warpgroup's halves of sK, sV) and their partitions, made before the
        # main loop: the loop sets the MMAs' accumulate flag, and values derived from them there cannot escape it
        tdKsdK = thr_dKV.partition_C(sK_w)
        tdVsdV = thr_dKV.partition_C(sV_w)
        mma_dKV.set(warpgroup.Field.ACCUMULATE, True)  # dK, dV accumulate over the query tiles from zero

        if const_expr(self.with_dq):
            unit = cute.make_layout(1)
            thr_dQ = mma_dQ.get_slice(wg * 128 + tid)  # the two math warpgroups split dQ's columns
            sdS = st.sdS.get_tensor(ds_layout.outer, swizzle=ds_layout.inner)  # (tile_m, 64 keys, buf*2+half)
            sdSt = cute.make_tensor(sdS.iterator, cute.select(sdS.layout, mode=[1, 0, 2]))  # (64 keys, tile_m, 4)
            tSsdS = thr_SdP.partition_C(sdSt)  # where this thread's dS^T accumulator elements go
            sKt = cute.make_tensor(sK.iterator, cute.select(sK.layout, mode=[1, 0, 2]))  # (d, 64 keys, half)
            tQrdS = thr_dQ.make_fragment_A(thr_dQ.partition_A(sdS))
            tQrK = thr_dQ.make_fragment_B(thr_dQ.partition_B(sKt))
            acc_shape_dQ = thr_dQ.partition_shape_C((tm, d))
            # made once: each step's product starts from zero (its first wgmma does not accumulate); with defer_dq
            # it lives on to the next step's flush
            acc_dQ = thr_dQ.make_fragment_C(acc_shape_dQ)
            # the fp32 staging tile: (tile_m, d) with each warpgroup's d/2 columns its own region (dense, or
            # swizzled: self.dq_swizzle), (tile_m, d/2, buf*2 + wg) seen as (tile_m, (d/2, buf*2 + wg)) by the MMA's
            # partition (one MMA tile per buffer); dq_regs: (thread, (4, d/16), wg, buf), acc_dQ's registers in
            # order (its layout is ((2, 2, d/16), 1, 1) with strides (1, 2, 4): register v is value (v % 4, v // 4))
            sdQ_all = self._dq_smem(st)
            if const_expr(self.dq_regs):
                if const_expr(_TRACE_LAYOUTS):
                    print("acc_dQ", acc_dQ.layout, "tv_C", mma_dQ.tv_layout_C)
                acc_dQv = cute.make_tensor(acc_dQ.iterator, cute.make_layout((4, d // 16)))
                tdQsdQ = sdQ_all[tid, None, wg, None]
            else:
                tdQsdQ = thr_dQ.partition_C(cute.group_modes(sdQ_all, 1, 3))
                acc_dQv = acc_dQ[None, 0, 0]
            if const_expr(not self.dq_writer):
                sdQ_w = sdQ_all[None, None, wg]
                gdQ = cute.local_tile(mdQ[None, None, bh], (tm, d // 2), (None, wg))
                tQs, tQg = cpasync.tma_partition(
                    tma_dQ, 0, unit, cute.group_modes(sdQ_w, 0, 2), cute.group_modes(gdQ, 0, 2)
                )

        kv_state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Consumer, 1)
        kv_pipe.consumer_wait(kv_state)
        state = pipeline.make_pipeline_state(pipeline.PipelineUserType.Consumer, self.stages)
        for m_block in cutlass.range(m_lo, n_q_blocks, unroll=1):
            q_pipe.consumer_wait(state)
            s = state.index
            acc_S = thr_SdP.make_fragment_C(acc_shape_S)
            acc_dP = thr_SdP.make_fragment_C(acc_shape_S)
            warpgroup.fence()
            self._gemm(mma_SdP, acc_S, tSrK, tSrQ[None, None, None, s], True)
            warpgroup.commit_group()
            self._gemm(mma_SdP, acc_dP, tPrV, tPrdO[None, None, None, s], True)
            warpgroup.commit_group()
            if const_expr(self.with_dq and self.defer_dq):  # noqa: SIM102 (a constexpr test, then a dynamic one)
                if m_block > m_lo:  # the previous step's dQ, while this step's S^T, dP^T run
                    self._flush_dq(acc_dQ, tdQsdQ, tma_dQ, tQs, tQg, m_block - 1, wg, tid)

            # P^T = exp2(qk_scale * S^T - LSE[query]); causal: zero where query < key
            warpgroup.wait_group(1)
            q0 = m_block * tm
            masked = False
            if const_expr(self.causal):
                masked = q0 < key0 + rw
            for i in cutlass.range_constexpr(cute.size(acc_S)):
                col = cS[i][1]
                p = cute.math.exp2(acc_S[i] * scale_log2 - sLSE[col, s], fastmath=True)
                if const_expr(self.causal):  # noqa: SIM102
                    # nested, not `and`: the DSL stages each dynamic `if` as a branch
                    if masked:  # noqa: SIM102
                        if q0 + col < key0 + cS[i][0]:
                            p = Float32(0.0)
                acc_S[i] = p
            rP = cute.make_rmem_tensor(a_layout, dt)
            cute.make_tensor(rP.iterator, acc_S.layout).store(acc_S.load().to(dt))

            warpgroup.wait_group(0)
            warpgroup.fence()
            self._gemm(mma_dKV, acc_dV, rP, tVrdOt[None, None, None, s], False)
            warpgroup.commit_group()
            # dS^T = P^T * (dP^T - delta[query])
            for i in cutlass.range_constexpr(cute.size(acc_dP)):
                acc_dP[i] = acc_S[i] * (acc_dP[i] - sDelta[cS[i][1], s])
            rdS = cute.make_rmem_tensor(a_layout, dt)
            rdS_c = cute.make_tensor(rdS.iterator, acc_dP.layout)
            rdS_c.store(acc_dP.load().to(dt))
            if const_expr(self.with_dq and self.dk_first):
                warpgroup.fence()
                self._gemm(mma_dKV, acc_dK, rdS, tKrQt[None, None, None, s], False)
                warpgroup.commit_group()
            if const_expr(self.with_dq):
                # dS^T to this warpgroup's half of buffer `buf`, then both warpgroups meet (bar.sync 3, 256: the
                # producer warp is not part of it). Double-buffered, one barrier per step suffices: a warpgroup
                # rewrites buffer `buf` two steps later, after the next step's barrier, which the other one reaches
                # only once its dQ product of this step has completed (wait_group(0) below)
                buf = (m_block - m_lo) % 2
                cute.autovec_copy(rdS_c, tSsdS[None, None, None, buf * 2 + wg])
                cute.arch.fence_proxy("async.shared", space="cta")
                cute.arch.barrier(barrier_id=3, number_of_threads=256)
                warpgroup.fence()
                for half in cutlass.range_constexpr(2):  # dQ[:, my d/2] = sum over the 128 keys of dS K
                    for kb in cutlass.range_constexpr(cute.size(tQrdS, mode=[2])):
                        mma_dQ.set(warpgroup.Field.ACCUMULATE, half != 0 or kb != 0)
                        cute.gemm(
                            mma_dQ,
                            acc_dQ,
                            tQrdS[None, None, kb, buf * 2 + half],
                            tQrK[None, None, kb, half],
                            acc_dQ,
                        )
                warpgroup.commit_group()
            if const_expr(not (self.with_dq and self.dk_first)):
                warpgroup.fence()
                self._gemm(mma_dKV, acc_dK, rdS, tKrQt[None, None, None, s], False)
                warpgroup.commit_group()
            if const_expr(self.with_dq and self.dk_first):
                warpgroup.wait_group(0)  # dK (older) and dQ done: the stage goes back before the flush
                q_pipe.consumer_release(state)
                if const_expr(not self.defer_dq):
                    self._flush_dq(acc_dQ, tdQsdQ, tma_dQ, tQs, tQg, m_block, wg, tid)
            else:
                if const_expr(self.with_dq and self.dq_writer):
                    # dQ (committed before dK, so done first) -> this warpgroup's staging buffer, handed to the
                    # dQ writer by a non-blocking arrive, while dK still runs
                    warpgroup.wait_group(1)
                    buf = (m_block - m_lo) % self.dq_bufs if self.dq_bufs > 1 else 0
                    if const_expr(self.dq_regs):
                        self._stage_dq(acc_dQv, tdQsdQ[None, buf], buf, wg)
                    else:
                        self._stage_dq(acc_dQv, tdQsdQ[None, 0, buf], buf, wg)
                elif const_expr(self.with_dq and not self.defer_dq):
                    # dQ (committed before dK, so done first) -> this warpgroup's fp32 staging tile -> one TMA
                    # reduce-add, while dK still runs
                    warpgroup.wait_group(1)
                    self._flush_dq(acc_dQ, tdQsdQ, tma_dQ, tQs, tQg, m_block, wg, tid)
                warpgroup.wait_group(0)
                q_pipe.consumer_release(state)
            state.advance()

        if const_expr(self.with_dq and self.defer_dq):
            self._flush_dq(acc_dQ, tdQsdQ, tma_dQ, tQs, tQg, n_q_blocks - 1, wg, tid)
        if const_expr(self.with_dq):
            # the epilogue below stages dK, dV in this warpgroup's halves of sK, sV, which the other warpgroup's
            # last dQ product reads (K): both warpgroups finish their loops first
            cute.arch.barrier(barrier_id=3, number_of_threads=256)

        # epilogue: each warpgroup writes its own 64 x d share of dK and dV through its half of sK and sV (which
        # only it has read), then one of its threads issues the TMA stores; the named barrier (one per
        # warpgroup, 128 threads) orders the shared-memory writes before the store without a CTA-wide barrier
        acc_dK.store(acc_dK.load() * scale)
        epilogue = ((acc_dK, tdKsdK, sK_w, tma_dK, mdK), (acc_dV, tdVsdV, sV_w, tma_dV, mdV))
        for i in cutlass.range_constexpr(2):
            acc, staged = epilogue[i][0], epilogue[i][1]
            r = cute.make_rmem_tensor_like(acc, dt)
            r.store(acc.load().to(dt))
            cute.autovec_copy(r, staged)
        cute.arch.fence_proxy("async.shared", space="cta")
        cute.arch.barrier(barrier_id=1 + wg, number_of_threads=128)
        if tid < 32:
            one = cute.make_layout(1)
            for i in cutlass.range_constexpr(2):
                s_w, tma, m = epilogue[i][2], epilogue[i][3], epilogue[i][4]
                g = cute.local_tile(m[None, None, bh], (rw, d), (n_block * (tn // rw) + wg, 0))
                ts, tg = cpasync.tma_partition(tma, 0, one, cute.group_modes(s_w, 0, 2), cute.group_modes(g, 0, 2))
                cute.copy(tma, ts, tg)
            cute.arch.cp_async_bulk_commit_group()
            cute.arch.cp_async_bulk_wait_group(0, read=True)


def _view(t):
    """(batch, heads, seq, d) contiguous -> the kernel's (seq, d, batch*heads) view, as a CuTe tensor."""
    from cutlass.cute.runtime import from_dlpack

    b, h, n, d = t.shape
    return from_dlpack(t.detach().reshape(b * h, n, d).permute(1, 2, 0), assumed_align=16)


_COMPILED: dict = {}


def _vec(t, bh: int, n: int):
    """A (batch*heads * n,) or (batch, heads, n) fp32 vector -> the kernel's (n, batch*heads) view."""
    from cutlass.cute.runtime import from_dlpack

    return from_dlpack(t.detach().view(bh, n).t(), assumed_align=16)


def _chunk(q, n_key_tiles: int) -> int:
    """Heads per chunk of the heavy-first causal order: about one wave of CTAs (the Gluon launcher's choice)."""
    import torch

    sms = torch.cuda.get_device_properties(q.device).multi_processor_count
    return max(1, sms // n_key_tiles)


def _compiled(key, make, args, scale, chunk, stream):
    fn = _COMPILED.get(key)
    if fn is None:
        fn = cute.compile(make(), *args, Float32(scale * LOG2E), Float32(scale), Int32(chunk), stream)
        _COMPILED[key] = fn
    return fn


def dkdv_args(q, k, v, do, lse_log2, delta, dk, dv) -> list:
    """The CuTe tensors of a dK/dV-only launch (the dQ slot holds dk's view: never touched without dQ)."""
    b, h, n, _ = q.shape
    return (
        [_view(t) for t in (q, k, v, do)]
        + [_vec(lse_log2, b * h, n), _vec(delta, b * h, n)]
        + [
            _view(dk),
            _view(dv),
            _view(dk),
        ]
    )


def dkdv(q, k, v, do, lse_log2, delta, dk, dv, *, causal: bool, scale: float, tile_m: int = 64, stages: int = 2):
    """dk, dv of the attention (q, k, v) for the upstream gradient do, given the forward's base-2 LSE and
    delta = rowsum(do * o), both (batch*heads, seq) fp32. Compiles once per (dtype, head_dim, causal, tile_m,
    stages, shapes) and caches."""
    import torch

    b, h, n, d = q.shape
    if n % DkDvSm90.tile_n:
        raise ValueError(f"dkdv: seq {n} is not a multiple of {DkDvSm90.tile_n} (the prototype has no ragged tiles)")
    dtype = {torch.bfloat16: cutlass.BFloat16, torch.float16: cutlass.Float16}[q.dtype]
    args = dkdv_args(q, k, v, do, lse_log2, delta, dk, dv)
    stream = cuda.CUstream(torch.cuda.current_stream().cuda_stream)
    chunk = _chunk(q, n // DkDvSm90.tile_n)
    key = (q.dtype, d, causal, tile_m, stages, b, h, n)
    fn = _compiled(key, lambda: DkDvSm90(d, causal, dtype, tile_m, stages), args, scale, chunk, stream)
    fn(*args, Float32(scale * LOG2E), Float32(scale), Int32(chunk), stream)


def _gluon_passes():
    """The Gluon backward's pre-pass (LSE copy, delta, zeroed fp32 dQ accumulator) and post-pass (dQ = scale x
    the accumulator, cast): ``_hopper_attention``, as a package sibling or, loaded by path (the benchmarks),
    top-level."""
    try:
        from . import _hopper_attention as ha
    except ImportError:
        import _hopper_attention as ha
    return ha


def _post():
    """``_cute_post`` (the register-order dQ post-pass), as a package sibling or, loaded by path, top-level."""
    try:
        from . import _cute_post
    except ImportError:
        import _cute_post
    return _cute_post


def supported(q, k, v, *, causal: bool, bottom_right: bool = False, dq=None, dk=None, dv=None) -> str | None:
    """None when ``backward`` takes these inputs (and writes the given dq, dk, dv), else why not: the kernel's
    contract (module docstring). Bottom-right causal is top-left here: the lengths are equal."""
    import torch

    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        return "q, k, v must be 4-d with the same shape (MHA, equal lengths)"
    if q.device.type != "cuda":
        return f"device {q.device}: the kernel runs on an sm90 GPU"
    if q.dtype not in (torch.bfloat16, torch.float16) or k.dtype != q.dtype or v.dtype != q.dtype:
        return f"dtype {q.dtype}: bf16 or fp16"
    if q.shape[-1] not in (64, 128):
        return f"head_dim {q.shape[-1]} (64 or 128)"
    if q.shape[2] % DkDvSm90.tile_n:
        return f"seq {q.shape[2]} is not a multiple of {DkDvSm90.tile_n}"
    if not all(t.is_contiguous() for t in (q, k, v)):
        return "q, k, v must be contiguous"
    if any(t is not None and t.data_ptr() % 16 for t in (q, k, v, dk, dv)):
        return "q, k, v, dk, dv must start 16-byte aligned (TMA)"
    if dq is not None and (dq.shape != q.shape or dq.stride(-1) != 1):
        return "dq must be shaped like q with a last stride of 1 (the post-pass writes rows)"
    if any(t is not None and not (t.is_contiguous() and t.shape == q.shape) for t in (dk, dv)):
        return (
            "dk and dv must be contiguous, shaped like q (the kernel writes them through TMA; dq may have any strides)"
        )
    return None


def ffi_available() -> bool:
    """Whether ``apache-tvm-ffi`` is importable: ``backward`` then compiles its kernel with ``--enable-tvm-ffi``
    and calls it with torch tensors on the current stream (a few microseconds), instead of converting nine
    DLPack views and marshalling them per call (the DSL's default path, whose host time exceeded the kernel's
    at the grid's short causal points, docs/perf.md "the dQ-writer warp")."""
    import importlib.util
    import os

    if os.environ.get("SHIJIE_CUTE_FFI", "1") == "0":  # the DLPack path forced (comparisons, a broken install)
        return False
    return importlib.util.find_spec("tvm_ffi") is not None


def _compile_ffi(kernel, dtype, b: int, h: int, n: int, d: int, scale: float, chunk: int):
    """``kernel`` compiled for TVM-FFI calls: fake tensors with the layouts of ``_views`` (static, so a call
    with other strides or a misaligned pointer is refused by TVM-FFI's checks) and the caller's current stream."""
    from cutlass.cute.runtime import make_fake_stream, make_fake_tensor

    bh = b * h

    def view(dt):
        return make_fake_tensor(dt, (n, d, bh), (d, 1, n * d), assumed_align=16)

    def vec():
        return make_fake_tensor(Float32, (n, bh), (1, n), assumed_align=16)

    args = [view(dtype) for _ in range(4)] + [vec(), vec(), view(dtype), view(dtype), view(Float32)]
    return cute.compile(kernel, *args, Float32(scale * LOG2E), Float32(scale), Int32(chunk),
                        make_fake_stream(use_tvm_ffi_env_stream=True), options="--enable-tvm-ffi")  # fmt: skip


def _views(q, k, v, do, lse_pad, delta_pad, dk, dv, dq_acc) -> list:
    """The kernel's torch views: (seq, d, batch*heads) of the 4-d tensors, (seq, batch*heads) of the vectors."""
    b, h, n, d = q.shape
    out = [t.detach().reshape(b * h, n, d).permute(1, 2, 0) for t in (q, k, v, do)]
    out += [t.view(b * h, n).t() for t in (lse_pad, delta_pad)]
    return out + [t.detach().reshape(b * h, n, d).permute(1, 2, 0) for t in (dk, dv, dq_acc)]


def backward(q, k, v, o, lse_log2, do, dq, dk, dv, *, causal: bool, scale: float, stages: int = 2,
             heavy_first: bool = True, dk_first: bool = False, defer_dq: bool = False,
             dq_swizzle: bool = True, dq_writer: bool = False, dq_regs: bool = True,
             dq_bufs: int | None = None, ffi: bool | None = None) -> None:  # fmt: skip
    """The whole attention backward: writes dq, dk, dv (contiguous, shaped like q) given the forward's o and its
    base-2 LSE (batch, heads, seq) fp32. Three launches: the Gluon backward's pre-pass (delta = rowsum(dO * O),
    the LSE copied, the fp32 dQ accumulator zeroed), the CuTe kernel (dK, dV written, dQ reduce-added into the
    accumulator) and the post-pass (dq = scale x accumulator, cast; ``_cute_post`` for the register-order
    accumulator). Compiles once per (dtype, head_dim, causal, options, shapes) and caches. ``ffi``: call the
    kernel through TVM-FFI (default: where ``ffi_available``)."""
    import torch
    import triton

    why = supported(q, k, v, causal=causal, dq=dq, dk=dk, dv=dv)
    if why:
        raise ValueError(f"cute backward: {why}")
    ha = _gluon_passes()
    b, h, n, d = q.shape
    tm = 64
    do = do if do.is_contiguous() else do.contiguous()
    lse_log2 = lse_log2.contiguous()
    lse_pad = torch.empty((b * h * n,), device=q.device, dtype=torch.float32)
    delta_pad = torch.empty_like(lse_pad)
    dq_acc = torch.empty((b, h, n, d), device=q.device, dtype=torch.float32)
    ha._bwd_pre[(n // tm, b * h)](o, do, lse_log2, lse_pad, delta_pad, dq_acc, o.stride(0), o.stride(1), o.stride(2),
                                  do.stride(0), do.stride(1), do.stride(2), h, n, n, HEAD_DIM=d, BLOCK=tm,
                                  ZERO_DQ=True, num_warps=4)  # fmt: skip
    dtype = {torch.bfloat16: cutlass.BFloat16, torch.float16: cutlass.Float16}[q.dtype]
    chunk = _chunk(q, n // DkDvSm90.tile_n)
    options: dict[str, Any] = {"heavy_first": heavy_first, "dk_first": dk_first, "defer_dq": defer_dq,
                               "dq_swizzle": dq_swizzle, "dq_writer": dq_writer, "dq_regs": dq_regs,
                               "dq_bufs": dq_bufs}  # fmt: skip
    ffi = ffi_available() if ffi is None else ffi
    key = ("bwd", q.dtype, d, causal, stages, *options.values(), ffi, b, h, n)
    if ffi:
        fn = _COMPILED.get(key)
        if fn is None:
            kernel = DkDvSm90(d, causal, dtype, 64, stages, with_dq=True, **options)
            fn = _COMPILED[key] = _compile_ffi(kernel, dtype, b, h, n, d, scale, chunk)
        fn(*_views(q, k, v, do, lse_pad, delta_pad, dk, dv, dq_acc), scale * LOG2E, scale, chunk)
    else:
        args = [_view(t) for t in (q, k, v, do)] + [_vec(lse_pad, b * h, n), _vec(delta_pad, b * h, n)]
        args += [_view(dk), _view(dv), _view(dq_acc)]
        stream = cuda.CUstream(torch.cuda.current_stream().cuda_stream)
        fn = _compiled(key, lambda: DkDvSm90(d, causal, dtype, 64, stages, with_dq=True, **options), args, scale,
                       chunk, stream)  # fmt: skip
        fn(*args, Float32(scale * LOG2E), Float32(scale), Int32(chunk), stream)
    if dq_regs:
        _post().post_regs(dq_acc, dq, scale)
    else:
        ha._bwd_post[(triton.cdiv(n, 64), b * h)](dq_acc, dq, dq.stride(0), dq.stride(1), dq.stride(2), h, n, scale,
                                                  HEAD_DIM=d, BLOCK=64, num_warps=4)  # fmt: skip
