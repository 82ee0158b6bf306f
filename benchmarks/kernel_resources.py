"""Registers, spills and shared memory of every attention kernel the tuner would time, compiled without a GPU.

    python benchmarks/kernel_resources.py [--profile h200] [--arch 90] [--head-dims 64,128] [--tree DIR]

The real launchers (``launch.forward``/``backward``) run on small CPU tensors with Triton's JIT told that
the device is an sm_<arch> GPU (a stand-in driver) and every launch turned into a compile: each kernel
specialisation the tile plan proposes for ``--profile`` (``tile_plan.launch_candidates``, for each dQ
strategy of that architecture, causal or not) is compiled to a cubin, and triton's bundled ``cuobjdump``
reads its registers per thread and its stack frame (these kernels keep nothing on the stack: a frame means
spilled registers); shared memory comes from the compiler's metadata. Nothing runs, so no timing: this answers "does this tile spill, does that change
alter the code" in minutes on a CPU. Compare two checkouts (before/after a change) by running it with
``--tree`` on each and diffing the tables: the same rows with the same numbers mean the same kernels.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _fake_cuda(arch: int) -> None:
    """Tell Triton's JIT the current device is an sm_<arch> GPU and make every launch a compile."""
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    from triton.runtime.jit import JITFunction

    class StandInDriver:
        def get_current_device(self):
            return 0

        def get_current_stream(self, device=None):
            return 0

        def get_current_target(self):
            return GPUTarget("cuda", arch, 32)

    driver.set_active(StandInDriver())
    compile_only = JITFunction.run

    def run(self, *args, grid, warmup, **kwargs):
        kernel = compile_only(self, *args, grid=grid, warmup=True, **kwargs)
        COMPILED.append((self.fn.__name__, args, kwargs, kernel))
        return kernel

    JITFunction.run = run


COMPILED: list = []


def _usage(cubin: bytes) -> dict:
    import triton

    cuobjdump = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / "cuobjdump"
    with tempfile.NamedTemporaryFile(suffix=".cubin") as file:
        file.write(cubin)
        file.flush()
        report = subprocess.run(
            [str(cuobjdump), "--dump-resource-usage", file.name], capture_output=True, text=True, check=True
        )
    found = {key: int(value) for key, value in re.findall(r"(REG|STACK):(\d+)", report.stdout)}
    return {"registers": found["REG"], "stack": found["STACK"]}


def _row(name: str, args, kwargs, kernel) -> str:
    cfg = next((a for a in args if hasattr(a, "_fields")), None)
    constants = {field: getattr(value, "value", value) for field, value in zip(cfg._fields, cfg, strict=True)} if cfg else {}
    dtype = str(args[0].dtype).removeprefix("torch.")
    flags = [f for f in ("CAUSAL", "LIMIT_RIGHT", "FUSED_DQ", "DQ_TMA", "LOAD_TMA") if constants.get(f)]
    tile = f"{constants.get('BLOCK_M')}x{constants.get('BLOCK_N')}"
    usage = _usage(kernel.asm["cubin"])
    return (
        f"{name:22} {dtype:9} d{constants.get('HEAD_DIM')!s:<4} {tile:>7} w{kwargs.get('num_warps', '-')!s:<2}"
        f" s{kwargs.get('num_stages', '-')!s:<2} {','.join(flags) or '-':31} regs {usage['registers']:>3}"
        f"  stack {usage['stack']:>4}  smem {kernel.metadata.shared:>6}"
    )


def _ith_tile(tiles: dict, i: int, kernel: str, *_) -> list[dict]:
    bm, bn, warps, stages = tiles[kernel][min(i, len(tiles[kernel]) - 1)]
    return [{"BLOCK_M": bm, "BLOCK_N": bn, "num_warps": warps, "num_stages": stages}]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="h200", help="hardware profile whose launch candidates to compile")
    parser.add_argument("--arch", type=int, default=90, help="compute capability to compile for, e.g. 90 or 80")
    parser.add_argument("--head-dims", default="64,128")
    parser.add_argument("--seq", type=int, default=1024, help="sequence length (its divisibility is specialised)")
    parser.add_argument("--tree", default=".", help="the checkout whose kernels to compile")
    args = parser.parse_args()
    os.environ.pop("TRITON_INTERPRET", None)
    sys.path.insert(0, str(Path(args.tree).resolve()))
    import torch

    _fake_cuda(args.arch)
    from skills.operator_adaptation import hardware, launch, tile_plan
    from skills.operator_adaptation.tuner import Tuner

    profile = hardware.load_profile(args.profile)
    strategies = ["split_dq", "fused_dq_tma" if args.arch >= 90 else "fused_dq"]
    started = time.perf_counter()
    for head_dim in (int(d) for d in args.head_dims.split(",")):
        d_pad = tile_plan.padded_head_dim(head_dim)
        tiles = {
            kernel: tile_plan.launch_candidates(profile, kernel, d_pad, "bf16", preferred)
            for kernel, preferred in launch.MEASURED_WINNERS.items()
        }
        for causal in (False, True):
            for i in range(max(len(candidates) for candidates in tiles.values())):
                launch.tile_candidates = functools.partial(_ith_tile, tiles, i)  # what the tuner would time, one each
                q, k, v, do = (torch.randn(1, 2, args.seq, head_dim).to(torch.bfloat16) for _ in range(4))
                for strategy in strategies:
                    tuner = Tuner(None, dq_strategy=strategy, tma_loads=args.arch >= 90)
                    o, lse = launch.forward(q, k, v, causal, head_dim**-0.5, tuner=tuner)
                    launch.backward(q, k, v, o, lse, do, causal, head_dim**-0.5, tuner=tuner)
    print(f"{profile.name} candidates compiled for sm_{args.arch} ({time.perf_counter() - started:.0f} s)")
    print("\n".join(sorted({_row(name, call_args, kwargs, kernel) for name, call_args, kwargs, kernel in COMPILED})))


if __name__ == "__main__":
    main()
