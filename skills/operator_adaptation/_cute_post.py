"""The dQ post-pass of the CuTe backward's register-order accumulator (``_cute_attention.DkDvSm90(dq_regs=True)``).

Kept apart from ``_cute_attention`` (which imports the CuTe DSL) so that it runs, and is tested, with Triton alone
(``TRITON_INTERPRET=1`` on the CPU). Contract: ``dq_acc`` is the fp32 accumulator of shape (batch, heads, seq, d),
seq a multiple of 64, d 64 or 128, whose every 64-row query tile (64 x d floats, the same place as in a row-major
accumulator) holds that tile in the register order of the two math warpgroups' m64n(d/2) wgmma accumulators:
warpgroup w's share (columns w*d/2 ..) at float w * 32d of the tile, thread t's 16-byte vector j at float
(j * 128 + t) * 4 of the share. The vector holds the thread's values 4j .. 4j+3, which by the wgmma accumulator
fragment (CuTe's tv layout ((4, 8, 4), (2, 2, d/16)) : ((128, 1, 16), (64, 8, 512)) over the column-major 64 x d/2
tile) are rows r, r, r+8, r+8 and columns c, c+1, c, c+1 with r = 16 * (t // 32) + (t % 32) // 4 and
c = 8j + 2 * (t % 4). So element (r, c) of the tile, with w = c // (d/2) and c' = c % (d/2), is at float

    w * 32d + ((c' // 8) * 128 + 32 * (r // 16) + 4 * (r % 8) + (c' % 8) // 2) * 4 + c' % 2 + 2 * ((r % 16) // 8)

``post_regs`` writes dq = scale x that, cast to dq's dtype (any strides, last one 1): one program per (64-row tile,
batch*head), like the Gluon backward's ``_bwd_post`` for the row-major accumulator.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def _post_regs(DQ_ACC, DQ, stride_qb, stride_qh, stride_qm, H, N, sm_scale, HEAD_DIM: tl.constexpr):
    bh = tl.program_id(1)
    tile = tl.program_id(0)
    b = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    r = tl.arange(0, 64)[:, None]
    c = tl.arange(0, HEAD_DIM)[None, :]
    half: tl.constexpr = HEAD_DIM // 2
    w = c // half
    cc = c % half
    thread = 32 * (r // 16) + 4 * (r % 8) + (cc % 8) // 2
    off = w * (64 * half) + ((cc // 8) * 128 + thread) * 4 + cc % 2 + 2 * ((r % 16) // 8)
    acc = tl.load(DQ_ACC + (bh.to(tl.int64) * N + tile * 64) * HEAD_DIM + off)
    rows = tile * 64 + r
    tl.store(DQ + b * stride_qb + h * stride_qh + rows * stride_qm + c, (acc * sm_scale).to(DQ.dtype.element_ty))


def post_regs(dq_acc, dq, scale: float) -> None:
    """dq (batch, heads, seq, d) = scale x the register-order accumulator dq_acc (module docstring)."""
    b, h, n, d = dq.shape
    if n % 64 or d not in (64, 128) or tuple(dq_acc.shape) != (b, h, n, d) or not dq_acc.is_contiguous():
        raise ValueError(f"post_regs: dq_acc {tuple(dq_acc.shape)} for dq {tuple(dq.shape)}: seq % 64, d 64/128")
    if dq.stride(3) != 1:
        raise ValueError("post_regs: dq's last stride must be 1")
    _post_regs[(n // 64, b * h)](dq_acc, dq, dq.stride(0), dq.stride(1), dq.stride(2), h, n, scale, HEAD_DIM=d,
                                 num_warps=4)  # fmt: skip
