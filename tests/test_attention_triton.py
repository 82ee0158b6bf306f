"""The Triton attention kernels, run by Triton's CPU interpreter (TRITON_INTERPRET=1) at small sizes.

The same kernel source that runs on the GPU: odd and unequal sequence lengths, causal and not, head dims
16/40/64/96 (40 and 96 are padded to a power of two inside), bf16 and fp16, non-contiguous inputs, checked
by kernel_check's 2x-of-PyTorch rule against float64 with NaN-poisoned outputs; plus the argument errors.
"""

import math
import os

import pytest
from conftest import validate_on_cpu

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

from skills.operator_adaptation import attention, fused_attention, kernel_check, launch  # noqa: E402


@pytest.mark.parametrize(
    "dtype, strategy",
    [(torch.bfloat16, "fused_dq"), (torch.float16, "fused_dq"), (torch.bfloat16, "split_dq")],
    ids=["bf16-fused-dq", "fp16-fused-dq", "bf16-split-dq"],
)
def test_kernels_within_twice_pytorch_error(dtype, strategy):
    # fused_dq: dK/dV kernel adds dQ with atomics; split_dq: the separate dQ kernel (the bulk reduce-add
    # variant needs a Hopper GPU and is checked there by the same validate())
    validate_on_cpu(kernel_check.SMALL_CASES, dtype, strategy, seed=1234)


def _reference(q, k, v, causal, scale):
    out, leaves = kernel_check._torch_attention(q.double(), k.double(), v.double(), causal, scale)
    return out, leaves


def _rel(a, b):
    return ((a.double() - b).norm() / b.norm()).item()


def test_autograd_entry_with_strided_inputs_and_custom_scale():
    gen = torch.Generator().manual_seed(7)
    # (B, S, H, D) storage seen as (B, H, S, D): no tensor is contiguous in the kernel's layout
    q = torch.randn(2, 37, 3, 40, generator=gen).to(torch.float16).transpose(1, 2).requires_grad_()
    k = torch.randn(2, 37, 3, 40, generator=gen).to(torch.float16).transpose(1, 2).requires_grad_()
    v = torch.randn(2, 37, 3, 40, generator=gen).to(torch.float16).transpose(1, 2).requires_grad_()
    assert not q.is_contiguous()
    out = attention(q, k, v, is_causal=True, scale=0.3)
    assert out.shape == (2, 3, 37, 40) and out.dtype == torch.float16
    out.sum().backward()  # dO = ones, expanded: stride 0 in every dimension
    ref_out, leaves = _reference(q, k, v, True, 0.3)
    ref_out.sum().backward()
    assert _rel(out, ref_out) < 2e-3
    for ours, ref in zip((q.grad, k.grad, v.grad), leaves, strict=True):
        assert ours.shape == ref.shape
        assert _rel(ours, ref.grad) < 5e-3


def test_default_scale_is_inverse_sqrt_head_dim():
    gen = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(1, 1, 20, 16, generator=gen).to(torch.bfloat16) for _ in range(3))
    ref_out, _ = _reference(q, k, v, False, 1 / math.sqrt(16))
    assert _rel(attention(q, k, v), ref_out) < 2e-2


def test_checker_catches_unwritten_output(monkeypatch):
    real_backward = launch.backward

    def skips_last_row(q, k, v, o, lse, do, causal, sm_scale, dq=None, dk=None, dv=None, tuner=None, **options):
        full_dk = torch.empty_like(dk)
        real_backward(q, k, v, o, lse, do, causal, sm_scale, dq=dq, dk=full_dk, dv=dv, tuner=tuner, **options)
        dk[..., :-1, :] = full_dk[..., :-1, :]  # the last key row keeps its NaN poison

    monkeypatch.setattr(launch, "backward", skips_last_row)
    [row] = kernel_check.validate("cpu", torch.float16, [kernel_check.Case(1, 1, 19, 16, False)], seed=5)
    assert not row["ok"] and row["dk_nonfinite"] == 16 and row["dq_nonfinite"] == 0


def test_chosen_configs_lists_what_ran():
    q, k, v = (torch.randn(1, 1, 9, 16).to(torch.float16) for _ in range(3))
    attention(q, k, v)
    kernels = {row["kernel"] for row in fused_attention.chosen_configs()}
    assert "fwd" in kernels
    assert all("BLOCK_M" in row["config"] for row in fused_attention.chosen_configs() if row["kernel"] == "fwd")


def test_invoke_shows_the_chosen_configs():
    from rich.console import Console

    from shijie.terminal import tuned_configs_table

    q, k, v = (torch.randn(1, 2, 21, 32).to(torch.bfloat16) for _ in range(3))
    attention(q, k, v, is_causal=True)
    rows = fused_attention.chosen_configs()
    console = Console(record=True, width=400)
    console.print(tuned_configs_table(rows))
    text = console.export_text()
    assert all(row["shape_class"] in text for row in rows) and "|d32|causal|" in text


def _tensors(*shapes, dtype=torch.float16):
    return [torch.randn(*shape).to(dtype) for shape in shapes]


@pytest.mark.parametrize(
    "make, error, words",
    [
        (lambda: _tensors((1, 2, 8, 16), (1, 2, 8, 16), (1, 2, 8, 16), dtype=torch.float32), TypeError, "bfloat16"),
        (lambda: _tensors((2, 8, 16), (2, 8, 16), (2, 8, 16)), ValueError, "rank 4"),
        (lambda: _tensors((1, 2, 8, 16), (1, 3, 8, 16), (1, 3, 8, 16)), RuntimeError, "must match the size"),
        (lambda: _tensors((1, 2, 8, 16), (1, 2, 8, 16), (1, 2, 9, 16)), ValueError, "same shape"),
        (lambda: _tensors((1, 2, 8, 300), (1, 2, 8, 300), (1, 2, 8, 300)), ValueError, "head_dim"),
        (
            lambda: [*_tensors((1, 2, 8, 16), (1, 2, 8, 16)), torch.randn(1, 2, 8, 16).to(torch.bfloat16)],
            TypeError,
            "share one dtype",
        ),
        (
            lambda: (
                [*_tensors((1, 2, 8, 16), (1, 2, 8, 16)), torch.empty(1, 2, 8, 16, dtype=torch.float16, device="meta")]
            ),
            ValueError,
            "one device",
        ),
    ],
    ids=["fp32", "rank3", "heads", "kv-shape", "head_dim", "dtypes", "devices"],
)
def test_bad_inputs_are_refused_clearly(make, error, words):
    with pytest.raises(error, match=words):
        attention(*make())


def test_this_process_interprets_triton_itself():
    # Triton's own library (tl.cdiv, tl.max, ...) is decorated at `import triton`: whatever test module imports triton
    # first, conftest set TRITON_INTERPRET before it, so the library is interpreted too (a JITFunction here fails
    # every kernel that calls it, "Cannot call @triton.jit'd outside of the scope of a kernel")
    import triton.language as tl
    from triton.runtime.interpreter import InterpretedFunction

    assert isinstance(tl.cdiv, InterpretedFunction) and isinstance(tl.max, InterpretedFunction)
    assert launch.INTERPRETER


def test_cpu_without_interpreter_is_refused():
    # Triton decides at import whether kernels are interpreted, so a process without TRITON_INTERPRET is needed
    import subprocess
    import sys

    code = (
        "import torch\n"
        "from skills.operator_adaptation import attention\n"
        "q = torch.zeros(1, 1, 8, 16, dtype=torch.float16)\n"
        "try:\n"
        "    attention(q, q, q)\n"
        "except ValueError as error:\n"
        "    print(error)\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "TRITON_INTERPRET"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    assert "needs a CUDA device" in result.stdout and "TRITON_INTERPRET=1" in result.stdout


def test_tile_candidates_come_from_the_hardware_profile():
    # what the tuner searches on an H200: the measured winners the h200 profile's planner accepts, then the
    # plan's first choice; only tiles the kernels can step through (dK/dV: query tiles nest in the key tile;
    # dQ and forward: the reverse). Measured lists, unchanged since the planner became the one resource model.
    from skills.operator_adaptation import hardware, tile_plan

    h200 = hardware.load_profile("h200")

    def tiles(kernel, head_dim, dtype="bf16"):
        return tile_plan.launch_candidates(h200, kernel, head_dim, dtype, launch.MEASURED_WINNERS[kernel])

    assert tiles("dkdv", 128) == [(32, 64, 4, 2), (32, 64, 8, 2), (16, 32, 4, 2), (64, 128, 8, 3)]
    assert tiles("dkdv", 64, "fp16")[:3] == [(32, 64, 4, 2), (64, 64, 4, 3), (64, 128, 8, 3)]
    assert tiles("dq", 128) == [(128, 64, 8, 3), (64, 64, 4, 3), (64, 32, 4, 2), (32, 32, 4, 2), (128, 32, 8, 2)]
    assert tiles("dkdv_atomic", 256) == [(32, 64, 8, 3)]
    assert tiles("fwd", 64) == [(64, 64, 4, 3), (128, 64, 4, 3), (128, 128, 8, 3), (64, 32, 4, 2), (128, 64, 8, 3)]
    assert launch.tile_candidates("dkdv", 128, torch.device("cpu")) == [
        {"BLOCK_M": 16, "BLOCK_N": 32, "num_warps": 4, "num_stages": 1}
    ]  # the interpreter's small tile
