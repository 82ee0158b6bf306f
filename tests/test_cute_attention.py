"""The CuTe DSL backward is optional: nothing on the CPU path imports it, nor the DSL it needs.

``skills/operator_adaptation/_cute_attention.py`` imports ``cutlass`` (the ``nvidia-cutlass-dsl`` wheels, extra
``cute``) at module level; only ``benchmarks/cute_dkdv.py`` and ``benchmarks/cute_backward.py`` load it. These tests need no CuTe DSL: one runs the
CPU path in a fresh interpreter and looks at what it loaded, the other reads every import statement of the
packages (pipeline/, skills/, shijie/) so that a new one cannot sneak in on a path the first test does not walk.
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


def test_only_the_prototype_itself_imports_the_dsl_and_no_package_module_imports_the_prototype():
    offenders = []
    for package in ("pipeline", "skills", "shijie"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel == "skills/operator_adaptation/_cute_attention.py":
                continue
            for name in _imports(path):
                bare = name.lstrip(".")
                if bare.split(".")[0] == "cutlass" or bare.endswith("_cute_attention"):
                    offenders.append(f"{rel}: {name}")
    assert offenders == []
    # and the prototype does import the DSL (otherwise the check above would prove nothing about it)
    assert "cutlass" in {n.split(".")[0] for n in _imports(ROOT / "skills/operator_adaptation/_cute_attention.py")}
