"""Host time of one attention forward + backward, measured on a machine without a GPU.

    python benchmarks/attention_host.py [--calls 200] [--profile] [--shape train|grid1k]

What it runs: the public ``attention()`` and its backward through autograd, exactly as a training step calls
them (the eager path), on CPU tensors with the strides the real ones have, while Triton believes the current
device is an sm90 GPU (a stand-in driver). Every kernel launch goes through Triton's real launch path, the
JIT's argument binding and specialisation, its kernel cache, the launcher's tensor-descriptor handling, up to
the C call that would start the kernel, which does nothing here (nor does the TMA descriptor encoding, a C
call of ~1 us on the device's host). Kernels are compiled for sm90 on the first call (ptxas ships in Triton's
wheel; cached in ~/.triton afterwards). So the number is the Python and dispatch cost shijie and Triton add per
call, less the driver's own launch cost (~5 us per kernel), on this machine's CPU.

Use the device's Triton (3.6): its launch path is what the H200 runs, and it differs between releases. The
torch version matters less (the custom-operator and autograd dispatch are in it). Patches, all in ``_stand_in``:
the device checks (``launch._sm90``, ``_hopper_attention._on_sm90``, the SM count) and ``launch.INTERPRETER``
(only so that ``attention()`` accepts CPU tensors: the forward then gets the interpreter's one tile, which
changes nothing on the host). Timing assertions never go into tests; this is a measurement.

Shapes: ``train`` is benchmarks/train_gpt.py's (batch 8, 8 q heads over 2 kv heads, seq 2048, head_dim 64,
causal, bf16, the (B, N, H, D) projections seen through ``transpose(1, 2)``); ``grid1k`` the standard grid's
smallest point (d128, seq 1024, batch 16, 16 heads, causal).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _stand_in(arch: int = 90) -> None:
    """Triton told the current device is an sm_<arch> GPU whose launches do nothing; shijie's device checks
    told the same."""
    import triton.backends.nvidia.driver as nvidia
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver

    class Launcher(nvidia.CudaLauncher):
        """CudaLauncher with its C module replaced by a no-op: descriptor arguments are still unpacked by
        Triton's own ``wrap_handle_tensordesc``, as on the device."""

        def __init__(self, src, metadata):
            signature = dict(src.signature)
            self.num_ctas = getattr(metadata, "num_ctas", 1)
            self.name = getattr(src, "name", "?")
            self.launch = nvidia.wrap_handle_tensordesc(
                self._check, signature, getattr(metadata, "tensordesc_meta", None)
            )
            self.seen = None
            self.global_scratch_size = metadata.global_scratch_size
            self.global_scratch_align = metadata.global_scratch_align
            self.profile_scratch_size = metadata.profile_scratch_size
            self.profile_scratch_align = metadata.profile_scratch_align
            self.launch_cooperative_grid = metadata.launch_cooperative_grid
            self.launch_pdl = metadata.launch_pdl

        def _check(self, *args):
            """What the C launcher would parse: the same count and kinds of arguments at every launch (the first
            goes through Triton's JIT, later ones of the Hopper kernel through its compiled handle)."""
            kinds = tuple(type(a).__name__ for a in args[nvidia._BASE_ARGS_FORMAT_LEN :])
            if self.seen is None:
                self.seen = kinds
            elif kinds != self.seen:
                raise AssertionError(f"{self.name}: launched with {kinds}, first with {self.seen}")

    class Utils:
        def load_binary(self, name, kernel, shared, device):
            return "module", "function", 0, 0, 1024  # a module that is not None: handles are made once

        def get_device_properties(self, device):
            return {"max_shared_mem": 232448, "multiprocessor_count": 132}

        def fill_tma_descriptor(self, *args):
            return args

    class StandInDriver:
        launcher_cls = Launcher
        utils = Utils()

        def get_current_device(self):
            return 0

        def get_current_stream(self, device=None):
            return 0

        def get_current_target(self):
            return GPUTarget("cuda", arch, 32)

        def get_active_torch_device(self):
            import torch

            return torch.device("cpu")

    driver.set_active(StandInDriver())

    from skills.operator_adaptation import _hopper_attention, launch

    launch._sm90 = lambda device: True
    launch.INTERPRETER = True  # attention() accepts CPU tensors; the forward takes the interpreter's tile
    _hopper_attention._on_sm90 = lambda *tensors: True
    _hopper_attention._num_sms = lambda device: 132


SHAPES = {
    # batch, q heads, kv heads, seq, head_dim, causal, projections packed as (B, N, heads, D)
    "train": (8, 8, 2, 2048, 64, True, True),
    "grid1k": (16, 16, 16, 1024, 128, True, False),
}


def problem(shape: str):
    import torch

    batch, heads, kv_heads, n, d, causal, packed = SHAPES[shape]
    if packed:
        x = torch.randn(batch, n, heads + 2 * kv_heads, d, dtype=torch.bfloat16)
        views = x[:, :, :heads], x[:, :, heads : heads + kv_heads], x[:, :, heads + kv_heads :]
        q, k, v = (t.transpose(1, 2).detach().requires_grad_() for t in views)
    else:
        q, k, v = (
            torch.randn(batch, h, n, d, dtype=torch.bfloat16, requires_grad=True) for h in (heads, kv_heads, kv_heads)
        )
    g = torch.randn(batch, n, heads, d, dtype=torch.bfloat16).transpose(1, 2)
    return q, k, v, g, causal, heads != kv_heads


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--shape", choices=sorted(SHAPES), default="train")
    parser.add_argument("--profile", action="store_true", help="cProfile of the timed calls, top 40")
    parser.add_argument(
        "--path",
        choices=("eager", "ops"),
        default="eager",
        help="eager: attention() and autograd; ops: the custom operators as a compiled graph calls them",
    )
    parser.add_argument("--sort", default="tottime", help="cProfile order: tottime, cumulative")
    args = parser.parse_args()
    _stand_in()
    import torch
    import triton

    from skills.operator_adaptation.fused_attention import attention

    # CPU work that stands for a device kernel (the zeros autograd makes for an unused gradient) would run on
    # all cores: on a shared VM, its thread hand-offs cost milliseconds and say nothing about the device's host
    torch.set_num_threads(1)
    q, k, v, g, causal, gqa = problem(args.shape)

    def call_eager():
        y = attention(q, k, v, is_causal=causal, enable_gqa=gqa)
        return torch.autograd.grad(y, (q, k, v), g)

    scale = q.shape[-1] ** -0.5
    options = (q.shape[2], k.shape[2], causal, scale, -1, -1, False, False)

    @torch.no_grad()
    def call_ops():  # what a graph compiled by torch.compile runs: the two custom operators, grad mode off
        o, lse = torch.ops.shijie.attention_forward(q, k, v, None, None, *options)
        return torch.ops.shijie.attention_backward(g, q, k, v, o, lse, None, None, *options)

    call = call_eager if args.path == "eager" else call_ops

    started = time.perf_counter()
    call()
    print(f"first call (compiles): {time.perf_counter() - started:.1f} s", file=sys.stderr)
    for _ in range(20):
        call()
    rounds = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(args.calls):
            call()
        rounds.append((time.perf_counter() - started) * 1e6 / args.calls)
    print(f"triton {triton.__version__}, torch {torch.__version__}, shape {args.shape}, {args.path}: host us per forward + "
          f"backward, best of 5 rounds of {args.calls}: {min(rounds):.0f} (rounds: "
          f"{', '.join(f'{r:.0f}' for r in rounds)})")  # fmt: skip
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(args.calls):
            call()
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(args.sort).print_stats(40)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    os.environ.setdefault("TRITON_INTERPRET", "0")
    raise SystemExit(main())
