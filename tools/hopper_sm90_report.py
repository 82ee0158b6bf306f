"""Compiles the Hopper attention backward for sm90 on a machine without a GPU and reports its resources.

    python tools/hopper_sm90_report.py [--head-dim 64 128] [--causal 0 1] [--set stages=3 dq_buffers=1 ...]
                                       [--dump DIR]

Device time is scarce, so every kernel variant is compiled here first: type, layout and ptxas errors, shared
memory over the 227 KiB a block may take, register spills (stack frame, LDL/STL) and the instruction mix
(HGMMA = wgmma, MUFU.EX2, BAR.SYNC, UTMALDG / UTMAREDG = TMA loads / reduce-adds, USETMAXREG = register
reallocation) all show up without a launch. Use the device's Triton version (3.6.0 on the H200 machines; in a
separate virtual environment: ``pip install triton==3.6.0 torch``), since Gluon's API moves between releases;
the ptxas and cuobjdump it runs ship inside Triton's wheel. Numbers it printed are in docs/perf.md.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SASS_OPS = ("HGMMA", "MUFU.EX2", "BAR.SYNC", "LDL", "STL", "UTMALDG", "UTMAREDG", "UTMASTG", "USETMAXREG")


def compile_variant(
    head_dim: int, causal: bool, overrides: dict, dump: Path, group: int = 1, dtype: str = "bfloat16"
) -> str:
    import torch
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    from triton.runtime.jit import mangle_type

    from skills.operator_adaptation import _hopper_attention as ha

    cfg = {**ha.default_config(head_dim), **overrides}
    bm = cfg["block_rows"]
    b, h, n = 2, 4, 1024  # shapes only shape the host-side descriptors; the kernel is compiled for any length
    x = torch.empty(b, h, n, head_dim, dtype=getattr(torch, dtype))
    acc = torch.empty(b, h, n, head_dim, dtype=torch.float32)
    vec = torch.empty(b * h * n, dtype=torch.float32)
    descs = [ha._desc(x, bm), ha._desc(x, ha.BLOCK_N), ha._desc(x, ha.BLOCK_N), ha._desc(x, bm), ha._desc(vec, bm),
             ha._desc(vec, bm), ha._desc(x, ha.BLOCK_N), ha._desc(x, ha.BLOCK_N),
             ha._desc(acc, bm) if cfg["fuse_dq"] else ha._desc(x, bm)]  # fmt: skip
    fn = ha._attn_bwd_hopper
    args = dict(zip(fn.arg_names, [*descs, 0.1, 0.1, h, n, n, 0, 4], strict=False))  # H, N_Q, N_K, CAUSAL_OFF, CHUNK
    constexprs = {"GROUP": group, "HEAD_DIM": head_dim, "BLOCK_M": bm, "CAUSAL": causal, "FUSE_DQ": cfg["fuse_dq"],
                  "DEFER_DQ": cfg["fuse_dq"] and cfg["defer_dq"], "WS": cfg["warp_specialize"],
                  "STAGES": cfg["stages"], "DQ_BUFS": cfg["dq_buffers"], "EARLY_RELEASE": cfg["early_release"],
                  "HEAVY_FIRST": cfg["heavy_first"],
                  "num_warps": ha.NUM_WARPS}  # fmt: skip
    signature = {name: ("constexpr" if name in constexprs else mangle_type(args[name])) for name in fn.arg_names}
    kernel = triton.compile(GluonASTSource(fn, signature, constexprs), target=GPUTarget("cuda", 90, 32),
                            options={"num_warps": ha.NUM_WARPS})  # fmt: skip

    tag = (
        f"d{head_dim}_{'causal' if causal else 'full'}"
        + (f"_g{group}" if group > 1 else "")
        + ("_fp16" if dtype == "float16" else "")
    )
    ptx, cubin = dump / f"{tag}.ptx", dump / f"{tag}.cubin"
    ptx.write_text(kernel.asm["ptx"])
    cubin.write_bytes(kernel.asm["cubin"])
    bin_dir = Path(triton.__file__).parent / "backends" / "nvidia" / "bin"
    ptxas = subprocess.run([bin_dir / "ptxas", "-v", "--gpu-name", "sm_90a", ptx, "-o", os.devnull],
                           capture_output=True, text=True, check=True).stderr  # fmt: skip
    sass = subprocess.run([bin_dir / "cuobjdump", "-sass", cubin], capture_output=True, text=True, check=True).stdout
    (dump / f"{tag}.sass").write_text(sass)
    resources = " ".join(
        line.split(":", 2)[-1].strip() for line in ptxas.splitlines() if "Used" in line or "spill" in line
    )
    ops = " ".join(f"{op}={len(re.findall(re.escape(op), sass))}" for op in SASS_OPS)
    return f"{tag} {cfg}\n  shared memory {kernel.metadata.shared} B; {resources}\n  {ops}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--head-dim", type=int, nargs="+", default=[64, 128])
    ap.add_argument("--causal", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--dtype", default="bfloat16", choices=["bfloat16", "float16"])
    ap.add_argument("--group", type=int, nargs="+", default=[1], help="q heads per k/v head (GQA)")
    ap.add_argument("--set", nargs="*", default=[], help="config overrides, e.g. stages=3 warp_specialize=0")
    ap.add_argument("--dump", type=Path, default=None, help="keep PTX, cubin and SASS here")
    args = ap.parse_args()
    overrides = {}
    for item in args.set:
        key, value = item.split("=", 1)
        overrides[key] = int(value) if key in ("block_rows", "stages", "dq_buffers") else bool(int(value))
    dump = args.dump or Path(tempfile.mkdtemp(prefix="hopper_sm90_"))
    dump.mkdir(parents=True, exist_ok=True)
    for d in args.head_dim:
        for c in args.causal:
            for g in args.group:
                print(compile_variant(d, bool(c), overrides, dump, g, args.dtype), flush=True)
    print(f"PTX / cubin / SASS in {dump}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
