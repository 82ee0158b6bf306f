"""Tile plan for the FlashAttention-2 kernels on a GPU known only from its hardware profile: the one resource model.

A profile (``hardware.py``: a shipped spec sheet, or one built from the device's properties) is all the
planner reads, so it plans for a card nobody here has touched (a dry run), and the launcher of the Triton
kernels asks it which tiles to time on the real device (``launch_candidates``).

The kernel structure it plans for (the Triton tutorial 06-fused-attention split, and Dao 2023, Alg. 2):

* ``dkdv``: a program owns a BLOCK_N block of K and V and loops over the BLOCK_M blocks of Q, dO, lse and
  delta; it keeps the dK, dV accumulators (fp32) in registers and streams Q, dO through shared memory
  ``num_stages`` deep. ``dkdv_atomic`` also adds each tile's share of dQ into an fp32 buffer.
* ``dq``: a separate pass; a program owns a BLOCK_M block of Q, dO and loops over the BLOCK_N blocks
  of K, V, accumulating dQ in registers (no fp32 atomics, so the result is deterministic).
* ``fwd``: owns a query block and streams K, V like ``dq``, and is modelled as ``dq`` (which counts one
  more (BLOCK_M, D) tile and one more score tile than the forward keeps: it errs toward fitting less).

Resource model, per program (stated so a reader can check it by hand):

* the head dimension is padded as the kernels pad it (``padded_head_dim``: a power of two, at least 16).
* shared memory = the streamed tiles x num_stages + the resident tiles + one (BLOCK_M x BLOCK_N) 16-bit
  tile (P or dS re-laid-out as a matrix-instruction operand); rows of lse/delta in fp32.
* registers per thread = (fp32 accumulators + two live fp32 score tiles) / threads + 32 for addresses
  and loop state, rounded up to 8 (the allocation granule). Above the per-thread limit the kernel would
  spill, so such configs do not fit.
* occupancy = min over smem, registers, threads and the block limit of the programs one SM holds.

What the launcher times (``launch_candidates``): the configurations measured to win on some shape that the
profile fits and that keep at most ``SPILL_FREE_VALUES`` live fp32 values per thread (``live_values``: the
forward's own count, one score tile, not the dq model's; Triton keeps more live than the model counts, and
bigger tiles were measured to spill on an H200), then the plan's own first choice, all among tiles the kernel
can step through (the inner block divides the outer one, so the causal diagonal starts on a block boundary).

HBM traffic of the whole backward for a problem (B, H, N, D):

* fused: Q, K, V, O, dO read, dQ, dK, dV written, lse and delta (fp32 rows); the dK/dV pass re-reads
  Q, dO per K block and the dQ pass K, V per Q block. Those re-reads hit L2 when the heads in flight
  fit in it (the planner checks), otherwise they are counted as HBM traffic.
* unfused (the textbook backward): the same N x D tensors plus at least 7 N x N matrices of traffic
  (P read twice, dP written and read, dS written and read twice).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

try:
    from .hardware import HardwareProfile, UsageError, load_profile
except ImportError:  # run as a script (an exported skill's scripts/ folder): hardware.py lies beside it
    from hardware import HardwareProfile, UsageError, load_profile  # type: ignore[no-redef]

ELEMENT_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4}
ROW_STAT_BYTES = 4  # lse and delta are fp32 per row
ADDRESS_REGISTERS = 32  # pointers, offsets, loop counters, masks: a typical Triton kernel's overhead
REGISTER_GRANULE = 8
BLOCK_SIZES = (16, 32, 64, 128)
WARP_COUNTS = (1, 2, 4, 8)  # what Triton kernels launch with in practice
STAGE_COUNTS = (1, 2, 3, 4, 5)
MIN_TILE_PER_WARP = 128  # score-tile elements per warp: one m16n8 matrix instruction (the autotuner picked 16x32 tiles with 4 warps for D=256 on an H200)
FULL_TILE = 128 * 64  # beyond this many score elements a bigger tile no longer shortens the loop much
MIN_HEAD_DIM_PAD = 16  # tl.dot takes no inner dimension below 16
# Live fp32 values per thread (live_values / threads) above which a preferred config is not timed: the dK/dV
# kernel's bigger tiles spilled on an H200 (docs/perf.md, step 1).
SPILL_FREE_VALUES = 160
# kernel -> whether a program owns a key block (and steps through query blocks) rather than a query block
OWNS_KEY_BLOCK = {"fwd": False, "dkdv": True, "dkdv_atomic": True, "dq": False}


@dataclass(frozen=True)
class Problem:
    """The attention problem a plan is for. Beyond (batch, heads, seq, head_dim, causal): ``kv_heads`` fewer than
    ``heads`` is grouped-query attention (K, V and dK, dV per kv head; the dK/dV program sums its group's query
    heads), ``window`` (left, right) a sliding window around the diagonal (-1 unbounded; causal caps right at 0),
    ``seqlens`` packed variable-length sequences (self-attention; ``batch`` and ``seq`` are then the count and
    the longest)."""

    batch: int = 4
    heads: int = 16
    seq: int = 4096
    head_dim: int = 128
    causal: bool = True
    dtype: str = "bf16"
    kv_heads: int | None = None
    window: tuple[int, ...] = (-1, -1)  # (left, right)
    seqlens: tuple[int, ...] | None = None

    def __post_init__(self):
        if self.dtype not in ELEMENT_BYTES:
            raise UsageError(f"dtype must be one of {', '.join(ELEMENT_BYTES)}, not {self.dtype!r}")
        if min(self.batch, self.heads, self.seq, self.head_dim) < 1:
            raise UsageError("batch, heads, seq and head_dim must be positive")
        if self.kv_heads is not None and (self.kv_heads < 1 or self.heads % self.kv_heads):
            raise UsageError(f"must divide the {self.heads} heads, not {self.kv_heads}", field="kv_heads")
        if len(self.window) != 2 or min(self.window) < -1:
            raise UsageError(f"must be left,right, each >= -1 (-1: unbounded), not {self.window}", field="window")
        if self.seqlens is not None:
            if not self.seqlens or min(self.seqlens) < 1:
                raise UsageError(f"must be positive sequence lengths, not {self.seqlens}", field="seqlens")
            object.__setattr__(self, "batch", len(self.seqlens))
            object.__setattr__(self, "seq", max(self.seqlens))

    @property
    def group(self) -> int:
        """Query heads per kv head (1: multi-head attention)."""
        return self.heads // (self.kv_heads or self.heads)

    @property
    def lengths(self) -> tuple[int, ...]:
        """Every sequence's length: the packed ones, or batch x seq."""
        return self.seqlens if self.seqlens is not None else (self.seq,) * self.batch

    def visible_pairs(self, n: int) -> int:
        """(query, key) pairs a sequence of n tokens computes under the causal mask and the window: row i sees
        keys max(0, i - left) .. min(n - 1, i + right), summed in closed form."""
        left, right = self.window
        if self.causal:
            right = 0 if right < 0 else min(right, 0)
        r = n - 1 if right < 0 else min(right, n - 1)
        l = n if left < 0 else min(left, n)  # noqa: E741 -- the window's left bound, as FlashAttention names it
        upper = (n - r) * (n - r - 1) // 2 + r * (n - r) + r * (n - 1)  # sum of min(n - 1, i + r)
        lower = (n - l) * (n - l - 1) // 2  # sum of max(0, i - l)
        return upper - lower + n

    def visible_fraction(self) -> float:
        """Computed pairs over the full n^2 of every sequence (1.0: no mask; ~0.5: causal)."""
        return sum(self.visible_pairs(n) for n in self.lengths) / sum(n * n for n in self.lengths)


@dataclass(frozen=True)
class TileConfig:
    """One launch configuration of one pass and what it costs on the profile."""

    kernel: str  # "dkdv" | "dq"
    block_m: int
    block_n: int
    num_warps: int
    num_stages: int
    threads: int
    smem_bytes: int
    smem_limit: int
    registers_per_thread: int
    register_limit: int
    registers_per_block: int
    blocks_per_sm: int
    warps_per_sm: int
    occupancy: float  # resident threads / max threads per SM
    limited_by: str  # which resource caps blocks_per_sm
    tile_intensity: float  # FLOPs per byte streamed in per loop iteration

    def as_dict(self) -> dict:
        return asdict(self)


def padded_head_dim(head_dim: int) -> int:
    """The head dimension the kernels compute with: a power of two (tl.arange), at least MIN_HEAD_DIM_PAD."""
    return max(MIN_HEAD_DIM_PAD, 1 << (head_dim - 1).bit_length())


def nests(kernel: str, block_m: int, block_n: int) -> bool:
    """Whether the kernel can step through the inner blocks: the inner block size divides the outer one."""
    return block_n % block_m == 0 if OWNS_KEY_BLOCK[kernel] else block_m % block_n == 0


def live_values(kernel: str, block_m: int, block_n: int, head_dim: int) -> int:
    """fp32 values one program keeps in registers: its accumulators and the score tiles alive at once."""
    d = padded_head_dim(head_dim)
    if kernel == "fwd":
        return block_m * d + block_m * block_n  # O, and S turned into P in place
    accumulators = block_m * d if kernel == "dq" else 2 * block_n * d  # dQ; or dK, dV
    if kernel == "dkdv_atomic":  # + each tile's dQ contribution dS K, added to global fp32 dQ atomically
        accumulators += block_m * d
    return accumulators + 2 * block_m * block_n  # + two live score tiles (S/P and dP/dS)


def _resources(kernel: str, block_m: int, block_n: int, stages: int, head_dim: int, elem: int):
    """Bytes of shared memory, fp32 registers (whole program) and the per-iteration FLOPs and bytes."""
    d = padded_head_dim(head_dim)
    operand_tile = block_m * block_n * elem  # P or dS as a 16-bit matrix operand
    if kernel in ("dkdv", "dkdv_atomic"):
        resident = 2 * block_n * d * elem  # K, V
        streamed = 2 * block_m * d * elem + 2 * block_m * ROW_STAT_BYTES  # Q, dO, lse, delta
        flops = (5 if kernel == "dkdv_atomic" else 4) * 2 * block_m * block_n * d  # S^T, dP^T, dV, dK (, dQ)
    else:  # dq, and fwd modelled as dq
        kernel = "dq"
        resident = 2 * block_m * d * elem + 2 * block_m * ROW_STAT_BYTES  # Q, dO, lse, delta
        streamed = 2 * block_n * d * elem  # K, V
        flops = 3 * 2 * block_m * block_n * d  # S, dP, dQ
    smem = resident + stages * streamed + operand_tile
    return smem, live_values(kernel, block_m, block_n, head_dim), flops, streamed


def evaluate(
    profile: HardwareProfile,
    kernel: str,
    block_m: int,
    block_n: int,
    num_warps: int,
    num_stages: int,
    head_dim: int,
    dtype: str = "bf16",
) -> TileConfig | None:
    """The config's budget on the profile, or None if it does not fit (smem, registers, threads)."""
    elem = ELEMENT_BYTES[dtype]
    threads = num_warps * profile.warp_size
    if threads > profile.max_threads_per_block:
        return None
    if min(block_m, block_n) < profile.mma_min_dim:
        return None
    if num_warps * MIN_TILE_PER_WARP > block_m * block_n:
        return None  # too little of the score tile per warp: warps would idle between matrix instructions
    smem, registers, flops, streamed = _resources(kernel, block_m, block_n, num_stages, head_dim, elem)
    smem_block = smem + int(profile.smem_reserved_per_block_kib * 1024)
    if smem > profile.smem_per_block:
        return None
    per_thread = math.ceil(registers / threads) + ADDRESS_REGISTERS
    per_thread = math.ceil(per_thread / REGISTER_GRANULE) * REGISTER_GRANULE
    if per_thread > profile.max_registers_per_thread:
        return None  # would spill to local memory
    registers_per_block = per_thread * threads
    limits = {
        "shared memory": profile.smem_per_sm // smem_block,
        "registers": profile.registers_per_sm // registers_per_block,
        "threads": profile.max_threads_per_sm // threads,
        "block limit": profile.max_blocks_per_sm,
    }
    limited_by = min(limits, key=lambda name: limits[name])
    blocks = limits[limited_by]
    if blocks < 1:
        return None
    return TileConfig(
        kernel=kernel,
        block_m=block_m,
        block_n=block_n,
        num_warps=num_warps,
        num_stages=num_stages,
        threads=threads,
        smem_bytes=smem,
        smem_limit=profile.smem_per_block,
        registers_per_thread=per_thread,
        register_limit=profile.max_registers_per_thread,
        registers_per_block=registers_per_block,
        blocks_per_sm=blocks,
        warps_per_sm=blocks * num_warps,
        occupancy=round(blocks * threads / profile.max_threads_per_sm, 4),
        limited_by=limited_by,
        tile_intensity=round(flops / streamed, 2),
    )


def candidates(profile: HardwareProfile, head_dim: int, kernel: str = "dkdv", dtype: str = "bf16") -> list[TileConfig]:
    """Every (BLOCK_M, BLOCK_N, num_warps, num_stages) that fits the profile, best first."""
    if kernel not in OWNS_KEY_BLOCK:
        raise UsageError(f"kernel must be one of {', '.join(OWNS_KEY_BLOCK)}, not {kernel!r}")
    fitting = [
        config
        for block_m in BLOCK_SIZES
        for block_n in BLOCK_SIZES
        for warps in WARP_COUNTS
        for stages in STAGE_COUNTS
        if (config := evaluate(profile, kernel, block_m, block_n, warps, stages, head_dim, dtype)) is not None
    ]
    ridge = profile.ridge_point(dtype)
    max_warps = profile.max_threads_per_sm // profile.warp_size

    def rank(config: TileConfig):
        # 1. reuse each streamed byte enough to reach the ridge point (beyond it more reuse buys nothing);
        # 2. keep enough warps resident to hide latency (a quarter of the SM's warp slots is plenty for
        #    matrix-instruction kernels); 3. a score tile big enough that the loop is not all overhead;
        # 4. pipeline the loads (2-3 stages), not deeper than needed; 5. the smaller footprint.
        return (
            -min(config.tile_intensity, ridge),
            -min(config.warps_per_sm, max_warps // 4),
            -min(config.block_m * config.block_n, FULL_TILE),
            -min(config.num_stages, 3),
            config.smem_bytes,
        )

    return sorted(fitting, key=rank)


def int_list(text: str, field: str) -> tuple[int, ...]:
    """'512,1024' -> (512, 1024): how a command line writes a window or packed sequence lengths."""
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise UsageError(f"must be integers separated by commas, not {text!r}", field=field) from None


Tile = tuple[int, int, int, int]  # (BLOCK_M, BLOCK_N, num_warps, num_stages)


def launch_candidates(
    profile: HardwareProfile, kernel: str, head_dim: int, dtype: str = "bf16", preferred: tuple[Tile, ...] = ()
) -> list[Tile]:
    """The tiles the autotuner times for one of the Triton kernels: ``preferred`` ones (measured winners, best
    first) that fit the profile within SPILL_FREE_VALUES, then the plan's first choice; all nesting."""
    fitting = {
        (c.block_m, c.block_n, c.num_warps, c.num_stages): c
        for c in candidates(profile, head_dim, kernel, dtype)
        if nests(kernel, c.block_m, c.block_n)
    }  # best first: dicts keep the plan's order

    def spill_free(block_m: int, block_n: int, warps: int, _stages: int) -> bool:
        return live_values(kernel, block_m, block_n, head_dim) <= SPILL_FREE_VALUES * warps * profile.warp_size

    chosen = [tile for tile in preferred if tile in fitting and spill_free(*tile)]
    best = next(iter(fitting), None)
    if best is not None and best not in chosen:
        chosen.append(best)
    return chosen


def hbm_traffic(profile: HardwareProfile, problem: Problem, dkdv: TileConfig, dq: TileConfig) -> dict:
    """Bytes the whole backward moves to and from HBM, fused (this plan) and unfused. Query-side tensors (Q, O,
    dO, dQ, the LSE and delta rows) count per query head, K, V, dK, dV per kv head (GQA reads them once per
    group); re-reads scale with the visible fraction (windows and causal skip blocks); sequences are summed."""
    d, elem = problem.head_dim, ELEMENT_BYTES[problem.dtype]
    heads, kv_heads = problem.heads, problem.heads // problem.group
    visible = problem.visible_fraction()
    compulsory = rereads = working_set = unfused = 0.0
    programs_in_flight = profile.sm_count * dkdv.blocks_per_sm
    for n in problem.lengths:
        matrix = n * d * elem  # one (N, D) tensor of one head
        rows = n * ROW_STAT_BYTES
        # delta pre-pass (O, dO in, delta out); dK/dV pass (Q, dO, lse, delta per query head; K, V in and dK, dV
        # out per kv head); dQ pass (Q, dO, lse, delta in, dQ out per query head; K, V per kv head, the group's
        # other reads from L2)
        compulsory += heads * (2 * matrix + rows) + heads * (2 * matrix + 2 * rows) + kv_heads * 4 * matrix
        compulsory += heads * (2 * matrix + 2 * rows + matrix) + kv_heads * 2 * matrix
        k_blocks, q_blocks = math.ceil(n / dkdv.block_n), math.ceil(n / dq.block_m)
        rereads += heads * ((k_blocks - 1) * (2 * matrix + 2 * rows) + (q_blocks - 1) * 2 * matrix) * visible
        # re-reads stay in L2 when every head in flight keeps its streamed tensors there
        heads_in_flight = min(heads * len(problem.lengths), math.ceil(programs_in_flight / k_blocks) * problem.group)
        working_set = max(working_set, heads_in_flight * (2 * matrix + 2 * rows))
        # textbook backward: Q, dO read, dQ written per query head, K, V read and dK, dV written per kv head, and
        # P, dP, dS through HBM (a window masks them but they are still materialized)
        unfused += heads * (3 * matrix + 7 * n * n * elem) + kv_heads * 4 * matrix
    l2_bytes = int(profile.l2_mib * 1024 * 1024)
    fused_no_l2 = compulsory + rereads
    fused = compulsory if working_set <= l2_bytes else fused_no_l2
    return {
        "fused_bytes": int(fused),
        "fused_bytes_no_l2": int(fused_no_l2),
        "unfused_bytes": int(unfused),
        "unfused_over_fused": round(unfused / fused, 2),
        "l2_working_set_bytes": int(working_set),
        "l2_bytes": l2_bytes,
        "rereads_in_l2": working_set <= l2_bytes,
    }


def dq_strategies(profile: HardwareProfile, problem: Problem, dq: TileConfig) -> dict:
    """The two ways to get dQ, side by side: a separate pass (this plan's ``dq`` kernel) or fp32 atomics.

    The separate pass recomputes S and dP (7 matmuls of 2*N*N*D in all, deterministic). Atomics compute
    dQ's share in the dK/dV program (5 matmuls), at the price of a zeroed fp32 dQ buffer, one
    read-modify-write of a BLOCK_M x D fp32 tile in L2 per (K block, Q block) pair, a conversion pass,
    and a summation order that changes from run to run. Which wins depends on how the L2 handles the
    atomics, which this model does not know: the autotuner measures both.
    """
    heads, kv_heads = problem.heads, problem.heads // problem.group
    d, elem = problem.head_dim, ELEMENT_BYTES[problem.dtype]
    tokens = sum(problem.lengths)
    matmul = sum(2 * problem.visible_pairs(n) * d for n in problem.lengths)  # one product, one head, all sequences
    visible = problem.visible_fraction()
    # Q, dO, lse, delta in and dQ out per query head; K, V in per kv head
    separate_pass = heads * (3 * tokens * d * elem + 2 * tokens * ROW_STAT_BYTES) + kv_heads * 2 * tokens * d * elem
    result = {
        "separate": {
            "dq_config": f"{dq.block_m}x{dq.block_n}, {dq.num_warps} warps, {dq.num_stages} stages",
            "backward_matmul_flops": int(heads * 7 * matmul),
            "dq_hbm_bytes": int(separate_pass),
            "l2_atomic_bytes": 0,
            "deterministic": True,  # the one attention(..., deterministic=True) runs
        }
    }
    fitting = candidates(profile, problem.head_dim, "dkdv_atomic", problem.dtype)
    if fitting:
        best = fitting[0]
        l2_atomics = sum(math.ceil(n / best.block_n) * visible * 2 * n * d * 4 for n in problem.lengths)
        result["atomic"] = {
            "dkdv_config": f"{best.block_m}x{best.block_n}, {best.num_warps} warps, {best.num_stages} stages",
            "registers_per_thread": best.registers_per_thread,
            "backward_matmul_flops": int(heads * 5 * matmul),
            # zero the fp32 buffer, write it back from L2, read it in the conversion pass, write dQ
            "dq_hbm_bytes": int(heads * (3 * tokens * d * 4 + tokens * d * elem)),
            "l2_atomic_bytes": int(heads * l2_atomics),
            "deterministic": False,
        }
    else:
        result["atomic"] = {
            "fits": False,
            "why": "no dK/dV tile with a dQ accumulator fits the registers and shared memory",
        }
    return result


def work(profile: HardwareProfile, problem: Problem, dkdv: TileConfig, dq: TileConfig) -> dict:
    """What the features do to the kernels' work: the GQA group (the dK/dV grid has one program per kv head, each
    summing ``group`` query heads: fewer, longer programs), the window's and causal mask's visible fraction (the
    blocks the loops skip), and for packed sequences the tokens and score pairs padding to the longest would add."""
    kv_heads = problem.heads // problem.group
    key_blocks = sum(math.ceil(n / dkdv.block_n) for n in problem.lengths)
    query_blocks = sum(math.ceil(n / dq.block_m) for n in problem.lengths)
    dkdv_programs, dq_programs = key_blocks * kv_heads, query_blocks * problem.heads
    full_pairs = sum(n * n for n in problem.lengths)
    result = {
        "gqa_group": problem.group,
        "kv_heads": kv_heads,
        "window": list(problem.window),
        "visible_fraction": round(problem.visible_fraction(), 4),
        "pairs_skipped_by_masks": int(full_pairs - sum(problem.visible_pairs(n) for n in problem.lengths)),
        "dkdv_programs": dkdv_programs,
        "dkdv_query_heads_per_program": problem.group,
        "dkdv_waves": round(dkdv_programs / (profile.sm_count * dkdv.blocks_per_sm), 2),
        "dq_programs": dq_programs,
        "dq_waves": round(dq_programs / (profile.sm_count * dq.blocks_per_sm), 2),
        "kv_bytes_saved_by_gqa": int((problem.heads - kv_heads) * 4 * sum(problem.lengths) * problem.head_dim
                                     * ELEMENT_BYTES[problem.dtype]),  # K, V read and dK, dV written once a group
    }  # fmt: skip
    if problem.seqlens is not None:
        padded_pairs = len(problem.lengths) * problem.seq * problem.seq
        result["varlen"] = {
            "sequences": len(problem.lengths),
            "total_tokens": sum(problem.lengths),
            "padded_tokens": len(problem.lengths) * problem.seq,
            "score_pairs": full_pairs,
            "padded_score_pairs": padded_pairs,
            "padding_work_avoided": round(1 - full_pairs / padded_pairs, 4),
        }
    return result


def plan(profile: HardwareProfile | str, problem: Problem | None = None) -> dict:
    """The chosen configs of both passes, their budgets, the HBM traffic and where the kernel sits on the roofline."""
    if not isinstance(profile, HardwareProfile):
        profile = load_profile(profile)
    problem = problem or Problem()
    chosen = {}
    for kernel in ("dkdv", "dq"):
        fitting = candidates(profile, problem.head_dim, kernel, problem.dtype)
        if not fitting:
            raise UsageError(
                f"no {kernel} tile fits {profile.name} for head_dim {problem.head_dim} ({problem.dtype}):"
                f" {profile.smem_per_block_kib:g} KiB shared memory and {profile.max_registers_per_thread}"
                " registers per thread are too few"
            )
        chosen[kernel] = (fitting[0], len(fitting))
    traffic = hbm_traffic(profile, problem, chosen["dkdv"][0], chosen["dq"][0])
    # five matmuls of 2*D FLOPs per visible (query, key) pair and query head: S recomputed, dV, dP, dK, dQ (the dq
    # pass recomputes S and dP too)
    flops = problem.heads * 5 * 2 * problem.head_dim * sum(problem.visible_pairs(n) for n in problem.lengths)
    ridge = profile.ridge_point(problem.dtype)
    fused_intensity = flops / traffic["fused_bytes"]
    return {
        "target": {
            "name": profile.name,
            "full_name": profile.full_name,
            "vendor": profile.vendor,
            "arch": profile.arch,
            "compute_capability": profile.compute_capability,
            "sm_count": profile.sm_count,
            "warp_size": profile.warp_size,
            "smem_per_block_kib": profile.smem_per_block_kib,
            "registers_per_sm": profile.registers_per_sm,
            "hbm_bandwidth_gbs": profile.hbm_bandwidth_gbs,
            "dense_tflops": profile.dense_tflops,
            "matrix_instructions": profile.matrix_instructions,
        },
        "problem": asdict(problem),
        "kernels": {kernel: {**config.as_dict(), "candidates": count} for kernel, (config, count) in chosen.items()},
        "hbm": traffic,
        "flops": int(flops),
        "arithmetic_intensity": {
            "fused": round(fused_intensity, 1),
            "unfused": round(flops / traffic["unfused_bytes"], 1),
        },
        "ridge_point": round(ridge, 1),
        "bound": "compute" if fused_intensity >= ridge else "memory",
        "work": work(profile, problem, chosen["dkdv"][0], chosen["dq"][0]),
    }


def main() -> None:
    import argparse
    import json

    parser = argparse.ArgumentParser(description="Tile plan of the FlashAttention-2 backward for a hardware profile.")
    parser.add_argument("profile", help="shipped profile name (h100, h200, a100, l100) or a .toml path")
    parser.add_argument("--head-dim", type=int, default=128)
    parser.add_argument("--seq", type=int, default=4096)
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--heads", type=int, default=16)
    parser.add_argument("--no-causal", action="store_true")
    parser.add_argument("--kv-heads", type=int, default=None, help="fewer than --heads: grouped-query attention")
    parser.add_argument("--window", default="-1,-1", help="left,right sliding window (-1: unbounded)")
    parser.add_argument("--seqlens", default=None, help="packed sequence lengths, e.g. 2048,100,700")
    parser.add_argument("--dtype", default="bf16", choices=sorted(ELEMENT_BYTES))
    args = parser.parse_args()
    problem = Problem(
        batch=args.batch,
        heads=args.heads,
        seq=args.seq,
        head_dim=args.head_dim,
        causal=not args.no_causal,
        dtype=args.dtype,
        kv_heads=args.kv_heads,
        window=int_list(args.window, "window"),
        seqlens=int_list(args.seqlens, "seqlens") if args.seqlens else None,
    )
    print(json.dumps(plan(args.profile, problem), indent=2))


if __name__ == "__main__":
    main()
