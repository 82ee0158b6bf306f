"""The CuTe DSL backward is optional: nothing on the CPU path imports it, nor the DSL it needs.

``skills/operator_adaptation/_cute_attention.py`` imports ``cutlass`` (the ``nvidia-cutlass-dsl`` wheels, extra
``cute``) at module level; ``benchmarks/cute_dkdv.py`` and ``benchmarks/cute_backward.py`` load it, and the sm90
dispatch (``launch._cute_module``) inside a function, on an sm90 device only. These tests need no CuTe DSL: one
runs the CPU path in a fresh interpreter and looks at what it loaded, the other reads every import statement of
the packages (pipeline/, skills/, shijie/) so that a new one cannot sneak in on a path the first test does not
walk; the last checks the register-order dQ post-pass (``_cute_post``, Triton only) under the interpreter.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CUTE_MODULE = "skills.operator_adaptation._cute_attention"

CPU_PATH = """
import json, sys
import numpy as np
import pipeline, shijie.cli
from skills.operator_adaptation import (benchmark, fused_attention, hardware, launch, numpy_backward, skill,
                                        tile_plan, tuner)
ran = []
rng = np.random.default_rng(0)
q, k, v, do = (rng.standard_normal((1, 2, 96, 64)) for _ in range(4))
fwd = numpy_backward.flash_forward(q, k, v, is_causal=True)
numpy_backward.flash_backward(q, k, v, fwd.out, fwd.lse, do, is_causal=True)
ran.append("numpy")
try:
    import torch
except ImportError:
    torch = None
if torch is not None:
    t = torch.randn(1, 2, 96, 64, dtype=torch.bfloat16, requires_grad=True)
    fused_attention.attention(t, t, t, is_causal=True).float().sum().backward()
    ran.append("torch")
loaded = sorted(m for m in sys.modules if m == "cutlass" or m.startswith("cutlass.") or m.endswith("_cute_attention"))
print(json.dumps({"loaded": loaded, "ran": ran}))
"""


def test_the_cpu_path_loads_neither_the_cute_module_nor_the_dsl():
    env = {**os.environ, "TRITON_INTERPRET": "1"}  # the CPU path of the Triton kernels is the interpreter
    run = subprocess.run(
        [sys.executable, "-c", CPU_PATH], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads(run.stdout.strip().splitlines()[-1])
    assert "numpy" in report["ran"]
    assert report["loaded"] == []


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = ("." * node.level) + (node.module or "")
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _module_level_imports(path: Path) -> set[str]:
    """The imports of ``path`` outside any function body (those run when the module is imported)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    inside = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
              for n in ast.walk(f) if n is not f}  # fmt: skip
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in inside:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(("." * node.level) + (node.module or ""))
            names.update(f"{'.' * node.level}{node.module or ''}.{alias.name}" for alias in node.names)
    return names


# the sm90 dispatch: the one module that may import the CuTe backward, and only inside a function (lazily)
LAZY_IMPORTER = "skills/operator_adaptation/launch.py"


def test_only_the_prototype_itself_imports_the_dsl_and_no_package_module_imports_the_prototype():
    offenders = []
    for package in ("pipeline", "skills", "shijie"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel == "skills/operator_adaptation/_cute_attention.py":
                continue
            names = _module_level_imports(path) if rel == LAZY_IMPORTER else _imports(path)
            for name in names:
                bare = name.lstrip(".")
                if bare.split(".")[0] == "cutlass" or bare.endswith("_cute_attention"):
                    offenders.append(f"{rel}: {name}")
    assert offenders == []
    # the dispatch does import it, lazily (otherwise the exemption above would hide nothing)
    assert any(n.endswith("_cute_attention") for n in _imports(ROOT / LAZY_IMPORTER))
    # and the prototype does import the DSL (otherwise the check above would prove nothing about it)
    assert "cutlass" in {n.split(".")[0] for n in _imports(ROOT / "skills/operator_adaptation/_cute_attention.py")}


def _register_order(x):
    """x (batch, heads, seq, d) -> the register-order accumulator of ``_cute_post``'s contract, built from the
    wgmma accumulator's thread-value layout as CuTe prints it for the m64n(d/2) dQ atom, ((4, 8, 4), (2, 2, d/16))
    : ((128, 1, 16), (64, 8, 512)) into the column-major 64 x d/2 tile, not from the post-pass's own formula."""
    import numpy as np

    b, h, n, d = x.shape
    t = np.arange(128)[:, None]
    v = np.arange(d // 4)[None, :]
    idx = 128 * (t % 4) + (t // 4) % 8 + 16 * (t // 32) + 64 * (v % 2) + 8 * ((v // 2) % 2) + 512 * (v // 4)
    row, col = idx % 64, idx // 64
    src = x.reshape(b, h, n // 64, 64, d)
    out = np.empty_like(src).reshape(b, h, n // 64, 64 * d)
    for w in range(2):
        pos = w * 32 * d + (v // 4 * 128 + t) * 4 + v % 4
        out[..., pos] = src[..., row, w * d // 2 + col]
    return out.reshape(b, h, n, d)


def test_the_register_order_dq_post_pass_inverts_the_wgmma_accumulator_layout():
    """``_cute_post.post_regs`` (Triton, run by the interpreter on the CPU) un-permutes what the CuTe kernel's
    dq_regs staging writes, at both head sizes, into a strided dq."""
    code = """
import numpy as np, torch, sys
sys.path.insert(0, "tests")
from test_cute_attention import _register_order
from skills.operator_adaptation import _cute_post
rng = np.random.default_rng(7)
for d in (64, 128):
    x = rng.standard_normal((2, 3, 128, d)).astype(np.float32)
    acc = torch.from_numpy(_register_order(x))
    dq = torch.full((2, 128, 3, d), float("nan")).transpose(1, 2)  # (b, h, n, d) view with strides of (b, n, h, d)
    _cute_post.post_regs(acc, dq, 0.5)
    err = float((dq - 0.5 * torch.from_numpy(x)).abs().max())
    print(d, err)
    assert err == 0.0, (d, err)
"""
    env = {**os.environ, "TRITON_INTERPRET": "1"}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["64", "0.0", "128", "0.0"]
