"""Tile plan for the FlashAttention-2 backward on a GPU known only from its hardware profile.

A profile (``data/hardware/*.toml``: SM count, shared memory per SM and per block, registers, warp width,
bandwidth, dense rates) is all the planner reads, so it plans for a card nobody here has touched (a
dry run) and the autotuner of the Triton kernel confirms on the real device (``candidates()`` is the
list it searches).

The kernel structure it plans for (the Triton tutorial 06-fused-attention split, and Dao 2023, Alg. 2):

* ``dkdv``: a program owns a BLOCK_N block of K and V and loops over the BLOCK_M blocks of Q, dO, lse and
  delta; it keeps the dK, dV accumulators (fp32) in registers and streams Q, dO through shared memory
  ``num_stages`` deep.
* ``dq``: a separate pass; a program owns a BLOCK_M block of Q, dO and loops over the BLOCK_N blocks
  of K, V, accumulating dQ in registers (no fp32 atomics, so the result is deterministic).

Resource model, per program (stated so a reader can check it by hand):

* shared memory = the streamed tiles x num_stages + the resident tiles + one (BLOCK_M x BLOCK_N) 16-bit
  tile (P or dS re-laid-out as a matrix-instruction operand); rows of lse/delta in fp32.
* registers per thread = (fp32 accumulators + two live fp32 score tiles) / threads + 32 for addresses
  and loop state, rounded up to 8 (the allocation granule). Above the per-thread limit the kernel would
  spill, so such configs do not fit.
* occupancy = min over smem, registers, threads and the block limit of the programs one SM holds.

HBM traffic of the whole backward for a problem (B, H, N, D):

* fused: Q, K, V, O, dO read, dQ, dK, dV written, lse and delta (fp32 rows); the dK/dV pass re-reads
  Q, dO per K block and the dQ pass K, V per Q block. Those re-reads hit L2 when the heads in flight
  fit in it (the planner checks), otherwise they are counted as HBM traffic.
* unfused (the textbook backward): the same N x D tensors plus at least 7 N x N matrices of traffic
  (P read twice, dP written and read, dS written and read twice).
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path

try:
    from pipeline.errors import DataError, UsageError
    from pipeline.resources import data_dir
except ImportError:  # run as a script from an exported skill folder, without shijie installed

    class UsageError(Exception):
        pass

    class DataError(Exception):
        pass

    def data_dir() -> Path:
        # an exported skill keeps the profiles in references/hardware; a source checkout in data/hardware
        here = Path(__file__).resolve().parent
        exported, checkout = here.parent / "references", here.parent.parent / "data"
        return exported if (exported / "hardware").is_dir() else checkout


ELEMENT_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4}
ROW_STAT_BYTES = 4  # lse and delta are fp32 per row
ADDRESS_REGISTERS = 32  # pointers, offsets, loop counters, masks: a typical Triton kernel's overhead
REGISTER_GRANULE = 8
BLOCK_SIZES = (16, 32, 64, 128)
WARP_COUNTS = (1, 2, 4, 8)  # what Triton kernels launch with in practice
STAGE_COUNTS = (1, 2, 3, 4, 5)
MIN_TILE_PER_WARP = 128  # score-tile elements per warp: one m16n8 matrix instruction (the autotuner picked 16x32 tiles with 4 warps for D=256 on an H200)
FULL_TILE = 128 * 64  # beyond this many score elements a bigger tile no longer shortens the loop much
PROFILE_FIELDS = {
    "name": str,
    "full_name": str,
    "vendor": str,
    "arch": str,
    "compute_capability": str,
    "sm_count": int,
    "warp_size": int,
    "max_threads_per_sm": int,
    "max_threads_per_block": int,
    "max_blocks_per_sm": int,
    "registers_per_sm": int,
    "max_registers_per_thread": int,
    "smem_per_sm_kib": (int, float),
    "smem_per_block_kib": (int, float),
    "smem_reserved_per_block_kib": (int, float),
    "l2_mib": (int, float),
    "hbm_gib": (int, float),
    "hbm_bandwidth_gbs": (int, float),
    "mma_min_dim": int,
    "matrix_instructions": list,
    "dense_tflops": dict,
}


@dataclass(frozen=True)
class HardwareProfile:
    name: str
    full_name: str
    vendor: str
    arch: str
    compute_capability: str
    sm_count: int
    warp_size: int
    max_threads_per_sm: int
    max_threads_per_block: int
    max_blocks_per_sm: int
    registers_per_sm: int
    max_registers_per_thread: int
    smem_per_sm_kib: float
    smem_per_block_kib: float
    smem_reserved_per_block_kib: float
    l2_mib: float
    hbm_gib: float
    hbm_bandwidth_gbs: float
    mma_min_dim: int
    matrix_instructions: list
    dense_tflops: dict
    source: str = ""

    @property
    def smem_per_sm(self) -> int:
        return int(self.smem_per_sm_kib * 1024)

    @property
    def smem_per_block(self) -> int:
        return int(self.smem_per_block_kib * 1024)

    def ridge_point(self, dtype: str) -> float:
        """FLOPs per HBM byte above which a kernel is compute-bound on this device."""
        return self.dense_tflops[dtype] * 1e12 / (self.hbm_bandwidth_gbs * 1e9)


def profiles_dir() -> Path:
    return data_dir() / "hardware"


def shipped_profiles() -> list[str]:
    return sorted(path.stem for path in profiles_dir().glob("*.toml"))


def load_profile(name_or_path: str | os.PathLike) -> HardwareProfile:
    """A shipped profile by name (``h100``) or any profile file by path."""
    path = Path(name_or_path)
    if not (path.suffix == ".toml" or path.exists()):
        path = profiles_dir() / f"{str(name_or_path).lower()}.toml"
        if not path.exists():
            raise UsageError(
                f"unknown hardware profile {str(name_or_path)!r}; shipped: {', '.join(shipped_profiles())}"
                " (or give a path to a .toml profile)"
            )
    elif not path.exists():
        raise UsageError(f"hardware profile file {path} does not exist")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"hardware profile {path} is not valid TOML: {exc}") from None
    problems = []
    for key, kind in PROFILE_FIELDS.items():
        if key not in raw:
            problems.append(f"missing {key}")
        elif not isinstance(raw[key], kind) or isinstance(raw[key], bool):
            problems.append(f"{key} has the wrong type")
    if not problems:
        missing_rates = {"bf16", "fp16", "fp32"} - set(raw["dense_tflops"])
        if missing_rates:
            problems.append(f"dense_tflops lacks {', '.join(sorted(missing_rates))}")
        for key in ("sm_count", "warp_size", "registers_per_sm", "smem_per_block_kib", "hbm_bandwidth_gbs"):
            if raw[key] <= 0:
                problems.append(f"{key} must be positive")
    if problems:
        raise DataError(f"hardware profile {path}: {'; '.join(problems)}")
    known = {key: raw[key] for key in PROFILE_FIELDS}
    return HardwareProfile(**known, source=str(path))


@dataclass(frozen=True)
class Problem:
    batch: int = 4
    heads: int = 16
    seq: int = 4096
    head_dim: int = 128
    causal: bool = True
    dtype: str = "bf16"

    def __post_init__(self):
        if self.dtype not in ELEMENT_BYTES:
            raise UsageError(f"dtype must be one of {', '.join(ELEMENT_BYTES)}, not {self.dtype!r}")
        if min(self.batch, self.heads, self.seq, self.head_dim) < 1:
            raise UsageError("batch, heads, seq and head_dim must be positive")


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


def _padded(head_dim: int) -> int:
    # tl.arange needs a power of two: the kernel pads the head dimension
    return 1 << (head_dim - 1).bit_length()


def _resources(kernel: str, block_m: int, block_n: int, stages: int, head_dim: int, elem: int):
    """Bytes of shared memory, fp32 registers (whole program) and the per-iteration FLOPs and bytes."""
    d = _padded(head_dim)
    operand_tile = block_m * block_n * elem  # P or dS as a 16-bit matrix operand
    if kernel in ("dkdv", "dkdv_atomic"):
        resident = 2 * block_n * d * elem  # K, V
        streamed = 2 * block_m * d * elem + 2 * block_m * ROW_STAT_BYTES  # Q, dO, lse, delta
        accumulators = 2 * block_n * d  # dK, dV
        flops = 4 * 2 * block_m * block_n * d  # S^T, dP^T, dV, dK
        if kernel == "dkdv_atomic":  # + each tile's dQ contribution dS K, added to global fp32 dQ atomically
            accumulators += block_m * d
            flops += 2 * block_m * block_n * d
    else:
        resident = 2 * block_m * d * elem + 2 * block_m * ROW_STAT_BYTES  # Q, dO, lse, delta
        streamed = 2 * block_n * d * elem  # K, V
        accumulators = block_m * d  # dQ
        flops = 3 * 2 * block_m * block_n * d  # S, dP, dQ
    smem = resident + stages * streamed + operand_tile
    registers = accumulators + 2 * block_m * block_n  # + two live fp32 score tiles (S/P and dP/dS)
    return smem, registers, flops, streamed


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
    limited_by = min(limits, key=limits.get)
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
    if kernel not in ("dkdv", "dq", "dkdv_atomic"):
        raise UsageError(f"kernel must be dkdv, dq or dkdv_atomic, not {kernel!r}")
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


# profile field -> (torch.cuda device property, how to turn the property into the profile's unit)
DEVICE_PROPERTIES = {
    "sm_count": ("multi_processor_count", lambda value: value),
    "warp_size": ("warp_size", lambda value: value),
    "registers_per_sm": ("regs_per_multiprocessor", lambda value: value),
    "max_threads_per_sm": ("max_threads_per_multi_processor", lambda value: value),
    "smem_per_sm_kib": ("shared_memory_per_multiprocessor", lambda value: value / 1024),
    "smem_per_block_kib": ("shared_memory_per_block_optin", lambda value: value / 1024),
    "l2_mib": ("L2_cache_size", lambda value: value / (1024 * 1024)),
}


def device_mismatches(profile: HardwareProfile, properties) -> list[str]:
    """Where a profile disagrees with what the device reports (``torch.cuda.get_device_properties``)."""
    found = []
    for field_name, (attribute, convert) in DEVICE_PROPERTIES.items():
        reported = getattr(properties, attribute, None)
        if reported is None:
            continue
        value = convert(reported)
        if abs(value - getattr(profile, field_name)) > 1e-6 * max(1, abs(value)):
            found.append(
                f"{profile.name}.{field_name} is {getattr(profile, field_name):g}, the device reports {value:g}"
            )
    return found


def hbm_traffic(profile: HardwareProfile, problem: Problem, dkdv: TileConfig, dq: TileConfig) -> dict:
    """Bytes the whole backward moves to and from HBM, fused (this plan) and unfused."""
    b_h = problem.batch * problem.heads
    n, d, elem = problem.seq, problem.head_dim, ELEMENT_BYTES[problem.dtype]
    matrix = n * d * elem  # one (N, D) tensor of one head
    rows = n * ROW_STAT_BYTES
    # delta pre-pass: read O, dO, write delta; then both passes read their inputs once, write their outputs
    compulsory = (2 * matrix + rows) + (4 * matrix + 2 * rows + 2 * matrix) + (4 * matrix + 2 * rows + matrix)
    visible = (n + 1) / (2 * n) if problem.causal else 1.0  # fraction of (query, key) pairs computed
    k_blocks, q_blocks = math.ceil(n / dkdv.block_n), math.ceil(n / dq.block_m)
    rereads = ((k_blocks - 1) * (2 * matrix + 2 * rows) + (q_blocks - 1) * 2 * matrix) * visible
    # re-reads stay in L2 when every head in flight keeps its streamed tensors there
    programs_in_flight = profile.sm_count * dkdv.blocks_per_sm
    heads_in_flight = min(b_h, math.ceil(programs_in_flight / k_blocks))
    working_set = heads_in_flight * (2 * matrix + 2 * rows)
    l2_bytes = int(profile.l2_mib * 1024 * 1024)
    fused_no_l2 = b_h * (compulsory + rereads)
    fused = b_h * compulsory if working_set <= l2_bytes else fused_no_l2
    # textbook backward: Q, K, V, dO read, dQ, dK, dV written, and P, dP, dS go through HBM
    unfused = b_h * (7 * matrix + 7 * n * n * elem)
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
    b_h = problem.batch * problem.heads
    n, d, elem = problem.seq, problem.head_dim, ELEMENT_BYTES[problem.dtype]
    visible = (n + 1) / (2 * n) if problem.causal else 1.0
    matmul = 2 * n * n * d * visible
    fp32_matrix = n * d * 4
    separate_pass = 4 * n * d * elem + 2 * n * ROW_STAT_BYTES + n * d * elem  # Q, K, V, dO, lse, delta in; dQ out
    result = {
        "separate": {
            "dq_config": f"{dq.block_m}x{dq.block_n}, {dq.num_warps} warps, {dq.num_stages} stages",
            "backward_matmul_flops": int(b_h * 7 * matmul),
            "dq_hbm_bytes": int(b_h * separate_pass),
            "l2_atomic_bytes": 0,
            "deterministic": True,
        }
    }
    fitting = candidates(profile, problem.head_dim, "dkdv_atomic", problem.dtype)
    if fitting:
        best = fitting[0]
        k_blocks = math.ceil(n / best.block_n)
        result["atomic"] = {
            "dkdv_config": f"{best.block_m}x{best.block_n}, {best.num_warps} warps, {best.num_stages} stages",
            "registers_per_thread": best.registers_per_thread,
            "backward_matmul_flops": int(b_h * 5 * matmul),
            # zero the fp32 buffer, write it back from L2, read it in the conversion pass, write dQ
            "dq_hbm_bytes": int(b_h * (3 * fp32_matrix + n * d * elem)),
            "l2_atomic_bytes": int(b_h * k_blocks * visible * 2 * fp32_matrix),
            "deterministic": False,
        }
    else:
        result["atomic"] = {
            "fits": False,
            "why": "no dK/dV tile with a dQ accumulator fits the registers and shared memory",
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
    visible = (problem.seq + 1) / (2 * problem.seq) if problem.causal else 1.0
    # five matmuls of 2*N*N*D FLOPs each: S recomputed, dV, dP, dK, dQ (dq pass recomputes S and dP too)
    flops = problem.batch * problem.heads * 5 * 2 * problem.seq**2 * problem.head_dim * visible
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
    parser.add_argument("--dtype", default="bf16", choices=sorted(ELEMENT_BYTES))
    args = parser.parse_args()
    problem = Problem(
        batch=args.batch,
        heads=args.heads,
        seq=args.seq,
        head_dim=args.head_dim,
        causal=not args.no_causal,
        dtype=args.dtype,
    )
    print(json.dumps(plan(args.profile, problem), indent=2))


if __name__ == "__main__":
    main()
