"""Operator Adaptation: learns an adaptation path from the curated corpus and applies it to fused attention.

``learn`` builds the knowledge pack: topics of the curated documents mapped to the skill's domains,
their best passages, and the ordered adaptation path (``ADAPTATION_PATH``) with the passages behind
each step. ``invoke`` puts it to work on one operator:

* an operator the skill adapts (``metadata.ops`` in SKILL.md): the tile plan for the target profile (GQA,
  windows and packed sequences included, ``tile_plan.Problem``), then the kernel validated on the device: on a
  CPU the NumPy tiled FlashAttention-2 backward against float64; on CUDA the Triton kernel (``kernel_check``:
  the plain cases and one per capability, and a torch.compile check), and ``benchmark`` when asked; the
  capability list (``capabilities``) says what the kernel offers and what this run validated;
* any other operator: the adaptation path with passages found for that operator, and nothing that
  pretends to be a kernel.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pipeline.choices import choose
from pipeline.errors import FIELD, UsageError

from ..knowledge import PathStep, cluster_topics, path_steps, topic_passages
from ..protocol import Device, Invocation, OpStatus, Phase
from . import hardware, numpy_backward, tile_plan

if TYPE_CHECKING:
    from pipeline.store import Database

    from ..registry import Manifest

ADAPTATION_PATH = [
    PathStep(
        "math",
        "Understand the operator's math",
        "理解算子的数学",
        "attention softmax backward gradient logsumexp",
        "model_structure",
    ),
    PathStep(
        "memory",
        "Profile the target's memory hierarchy",
        "剖析目标硬件的存储层次",
        "shared memory registers bandwidth occupancy",
        "gpu_architecture",
    ),
    PathStep("tiling", "Choose the tiling", "选择分块方案", "tiling block tile shared memory", "parallel_computing"),
    PathStep("kernel", "Write the kernel", "编写内核", "triton kernel fused attention", "compiler_optimization"),
    PathStep(
        "integrate",
        "Integrate with the framework and driver",
        "接入框架与驱动",
        "kernel launch stream autograd",
        "driver_interface",
    ),
    PathStep(
        "numerics",
        "Numerics and validation",
        "数值精度与验证",
        "numerical precision floating point accumulation",
        "numerical_analysis",
    ),
    PathStep(
        "autotune",
        "Autotune on the device",
        "在设备上自动调优",
        "autotuning configurations warps stages",
        "compiler_optimization",
    ),
    PathStep(
        "benchmark",
        "Benchmark against the vendor kernels",
        "与厂商内核对比测试",
        "benchmark throughput roofline",
        "engineering_experience",
    ),
    PathStep(
        "debug",
        "Debug and guard against regressions",
        "调试与防止性能回退",
        "debugging profiling regression",
        "engineering_experience",
    ),
]

PASSAGES_PER_STEP = 3
PASSAGES_PER_TOPIC = 3

# What the kernel offers a training loop: (capability, how a user asks for it, the kernel_check feature word its
# device cases carry). "compile" and "hopper" are validated by their own checks.
CAPABILITIES = (
    ("SDPA's problem (causal top-left, any lengths, strides)", "attention(q, k, v, is_causal=True)", "plain"),
    ("GQA / MQA, dK/dV summed per kv head in the kernel", "attention(q, k, v, enable_gqa=True)", "qa"),
    ("sliding window", "attention(q, k, v, window=(left, right))", "window"),
    ("bottom-right causal (FlashAttention's)", "attention(..., is_causal=True, causal_align='bottom_right')",
     "bottom-right"),
    ("varlen packed sequences", "attention_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, max_q, max_k)", "varlen"),
    ("deterministic backward (bitwise repeatable)", "attention(..., deterministic=True)", "deterministic"),
    ("torch.compile, fullgraph, zero graph breaks", "torch.compile(model, fullgraph=True)", "compile"),
    ("Hopper (sm90) backward: CuTe DSL (extra `cute`), else Gluon",
     "chosen by launch.backward on sm90: CuTe where importable and it takes the problem, else Gluon where "
     "hopper_supported()", "hopper"),
)  # fmt: skip


def capabilities(validation: list[dict] | None, compiled: dict | None, sm90: bool | None) -> list[dict]:
    """The capability list ``invoke`` shows: each with how to use it and whether this run validated it on the
    device (True/False; None where the run did not: a CPU run, or a Hopper path on another GPU)."""
    rows = []
    for name, use, word in CAPABILITIES:
        validated: bool | None = None
        evidence = "validated with --device cuda"
        if word == "compile" and compiled is not None:
            validated = bool(compiled["ok"])
            evidence = f"{compiled['graph_breaks']} graph breaks ({compiled['backend']}), compiled == eager"
        elif word == "hopper":
            if sm90:  # the device cases ran through launch.backward, which took the Hopper path where it could:
                # those without a window, packed sequences or the deterministic order (which it declines)
                declined = ("window", "varlen", "deterministic")
                cases = [row for row in validation or [] if not any(w in str(row.get("feature")) for w in declined)]
                validated = all(row["passed"] for row in cases) if cases else None
                evidence = f"{len(cases)} device cases through the sm90 dispatch"
            elif sm90 is False:
                evidence = "not an sm90 device: the portable kernels run"
        elif validation:
            cases = [row for row in validation if word in str(row.get("feature", "plain"))]
            if cases:
                validated = all(row["passed"] for row in cases)
                evidence = f"{sum(row['passed'] for row in cases)}/{len(cases)} device cases pass"
        rows.append({"capability": name, "use": use, "validated": validated, "evidence": evidence})
    return rows


def op_key(op: str) -> str:
    return re.sub(r"[^a-z0-9]", "", op.lower())


def op_words(op: str) -> str:
    """'LayerNormBackward' -> 'layer norm backward': the words a search can match."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_\-]+", " ", op)
    return spaced.lower().strip()


def cuda_status() -> tuple[bool, str]:
    """(usable, device name or the reason it is not) for the Triton path."""
    try:
        import torch
    except ImportError:
        return False, "torch is not installed (pip install 'shijie[kernel]')"
    if not torch.cuda.is_available():
        return False, "torch sees no CUDA device"
    try:
        import triton  # noqa: F401
    except ImportError:
        return False, "triton is not installed (pip install 'shijie[kernel]')"
    return True, torch.cuda.get_device_name()


class OperatorAdaptation:
    def learn(self, db: Database, manifest: Manifest, on_phase: Callable[[Phase], None]) -> dict[str, Any]:
        from pipeline.query import curated_documents

        on_phase(Phase.structure)
        documents = curated_documents(db)
        if not documents:
            from pipeline.errors import EmptyCorpusError

            raise EmptyCorpusError("the curated corpus is empty: run `shijie crawl`, `shijie score`, `shijie curate`")
        topics = cluster_topics(documents, list(manifest.requires))
        on_phase(Phase.fragments)
        for topic in topics:
            topic["passages"] = topic_passages(db, topic, PASSAGES_PER_TOPIC)
        on_phase(Phase.paths)
        path = path_steps(db, ADAPTATION_PATH, PASSAGES_PER_STEP)
        sources = {p["url"] for step in path for p in step["passages"]}
        sources |= {p["url"] for topic in topics for p in topic["passages"]}
        return {
            "documents": len(documents),
            "document_ids": sorted(doc.id for doc in documents),
            "topics": topics,
            "path": path,
            "sources": sorted(sources),
        }

    def invoke(
        self,
        db: Database,
        manifest: Manifest,
        pack: dict[str, Any],
        op: str,
        device: Device | str = Device.auto,
        target: str | None = None,
        benchmark: bool = False,
        problem: tile_plan.Problem | None = None,
    ) -> Invocation:
        adapted_ops = {op_key(name): name for name in manifest.ops}
        adapted = op_key(op) in adapted_ops
        op_name = adapted_ops.get(op_key(op), op)
        adaptation_list = [OpStatus(name, True) for name in manifest.ops]
        if not adapted:
            adaptation_list.append(OpStatus(op_name, False))
            # a path for this operator: the same steps, the queries narrowed to its words
            knowledge = path_steps(db, ADAPTATION_PATH, PASSAGES_PER_STEP, extra_terms=op_words(op_name))
            return Invocation(
                op=op_name,
                adapted=False,
                adaptation_list=adaptation_list,
                target=target,
                knowledge=knowledge,
                notes=[f"{op_name} is not adapted by this skill: adaptation path and sources only, no kernel"],
            )

        device_used, device_name, notes = self._device(device)
        profile = self._profile(target, device_used, notes)
        plan = tile_plan.plan(profile, problem)
        dq_config = tile_plan.TileConfig(**{k: v for k, v in plan["kernels"]["dq"].items() if k != "candidates"})
        strategies = tile_plan.dq_strategies(profile, problem or tile_plan.Problem(), dq_config)
        compiled = sm90 = None
        if device_used == "cuda":
            validation, bench, bench_summary = self._cuda(benchmark)
            import torch

            from .fused_attention import chosen_configs
            from .kernel_check import compile_check

            tuned = chosen_configs()  # what the autotuner picked per shape class, cached across runs
            compiled = compile_check("cuda")
            sm90 = torch.cuda.get_device_capability() == (9, 0)
        else:
            tuned = None
            validation = [
                {**row, "errors": row["rel_err"], "error_kind": "relative vs float64"}
                for row in (numpy_backward.validate(case) for case in numpy_backward.DEFAULT_CASES)
            ]
            bench = bench_summary = None
            if benchmark:
                notes.append("--benchmark measures the Triton kernel and needs --device cuda")
        return Invocation(
            op=op_name,
            adapted=True,
            adaptation_list=adaptation_list,
            device=device_used,
            device_name=device_name,
            target=plan["target"]["name"],
            plan=plan,
            validation=validation,
            benchmark=bench,
            knowledge=pack["path"],
            notes=notes,
            extras={
                "dq_strategies": strategies,
                "benchmark_summary": bench_summary,
                "tuned_configs": tuned,
                "capabilities": capabilities(validation if device_used == "cuda" else None, compiled, sm90),
            },
        )

    @staticmethod
    def _profile(target: str | None, device_used: str, notes: list[str]) -> hardware.HardwareProfile:
        """The profile to plan for: the --target one; else the CUDA device's (shipped, or built from its
        properties); else h100. A shipped profile is checked against the device it stands for."""
        if target is not None:
            return hardware.load_profile(target)
        if device_used != "cuda":
            notes.append("no --target given: planning for h100")
            return hardware.load_profile("h100")
        import torch

        properties = torch.cuda.get_device_properties(0)
        profile = hardware.device_profile(properties)
        if profile.source == hardware.FROM_PROPERTIES:
            notes.append(
                f"no shipped profile matches {properties.name}: planned from its properties"
                f" (assumed or estimated: {', '.join(profile.assumed)})"
            )
        else:  # the profile is a spec sheet; on the real device, say where the sheet and the silicon disagree
            notes += hardware.device_mismatches(profile, properties)
        return profile

    @staticmethod
    def _device(device: Device | str) -> tuple[Device, str, list[str]]:
        device = choose(Device, device, "device")
        if device == Device.cpu:
            return Device.cpu, "CPU (NumPy)", []
        usable, detail = cuda_status()
        if usable:
            return Device.cuda, detail, []
        if device == Device.cuda:
            raise UsageError(f"cuda: {detail}; use {FIELD} cpu for the NumPy path", field="device")
        return Device.cpu, "CPU (NumPy)", [f"no CUDA path ({detail}): validated the NumPy tiled backward on the CPU"]

    @staticmethod
    def _cuda(benchmark: bool) -> tuple[list[dict], list[dict] | None, dict | None]:
        import torch

        from . import kernel_check

        validation = []
        cases = kernel_check.DEVICE_CASES + kernel_check.DEVICE_FEATURE_CASES
        for dtype in (torch.bfloat16, torch.float16):
            for row in kernel_check.validate("cuda", dtype, cases):
                # the kernel's rule: its max error vs float64 within 2x of PyTorch's same-dtype math
                errors = {name: row[f"{name}_err"] for name in kernel_check.GRADS}
                validation.append(
                    {
                        **row,
                        "impl": "triton",
                        "seq": row["seq_q"],
                        "errors": errors,
                        "error_kind": "max abs vs float64 (PyTorch same-dtype in torch_err)",
                        "passed": row["ok"],
                    }
                )
        rows = summary = None
        if benchmark:
            from .benchmark import run_benchmark
            from .benchmark import summary as benchmark_summary

            rows = run_benchmark()
            summary = benchmark_summary(rows)  # ours vs cuDNN, geometric mean, and where ours is behind
        return validation, rows, summary
