"""The Hopper (sm90) attention backward: what can be checked without the GPU, and the device check when one is here.

Gluon kernels do not run under TRITON_INTERPRET=1, so on a machine without an sm90 GPU these tests check the
module's contract (lazy import, the support predicate, the launch configuration); the numerical checks against a
float64 reference live in benchmarks/hopper_attention.py (--check), whose output docs/perf.md records, and run
here too when an sm90 device is present.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO

torch = pytest.importorskip("torch")
pytest.importorskip("triton.experimental.gluon")


def _module():
    from skills.operator_adaptation import _hopper_attention

    return _hopper_attention


FLAGS = {"causal": True, "bottom_right": False, "window": None, "deterministic": False, "varlen": False}


def test_imports_without_a_gpu_and_refuses_cpu_tensors():
    ha = _module()
    q = torch.randn(1, 2, 128, 64, dtype=torch.bfloat16)
    assert ha.hopper_supported(q, q, q, **FLAGS) is False
    assert ha.hopper_unsupported(q, q, q, **FLAGS) == "needs an sm90 CUDA device"  # the problem itself is taken


@pytest.mark.parametrize("bottom_right", [False, True])
def test_the_dispatch_contract_on_any_machine(bottom_right):
    ha = _module()
    flags = {**FLAGS, "bottom_right": bottom_right}

    def reason(q_shape, kv_shape, dtype=torch.bfloat16, **changes):
        q = torch.randn(q_shape, dtype=dtype)
        kv = torch.randn(kv_shape, dtype=dtype)
        return ha.hopper_unsupported(q, kv, kv, **{**flags, **changes})

    device_only = "needs an sm90 CUDA device"
    assert reason((2, 8, 100, 128), (2, 2, 300, 128)) == device_only  # GQA 4:1, unequal lengths
    assert reason((2, 8, 100, 64), (2, 1, 100, 64), torch.float16) == device_only  # MQA, fp16
    assert reason((2, 8, 100, 64), (2, 3, 100, 64)).startswith("8 q heads over 3")
    assert reason((2, 8, 100, 96), (2, 8, 100, 96)).startswith("head_dim 96")
    assert reason((2, 8, 100, 64), (2, 8, 100, 64), torch.float32).startswith("dtype torch.float32")
    assert "sliding windows" in reason((1, 2, 64, 64), (1, 2, 64, 64), window=(128, 0))
    assert "deterministic" in reason((1, 2, 64, 64), (1, 2, 64, 64), deterministic=True)
    assert "variable-length" in reason((1, 2, 64, 64), (1, 2, 64, 64), varlen=True)
    odd = torch.randn(1, 100, 2, 65, dtype=torch.bfloat16)[..., :64].transpose(1, 2)  # rows of 65 elements
    assert "16-byte" in ha.hopper_unsupported(odd, odd, odd, **flags)


def test_default_config_is_per_head_dim():
    ha = _module()
    d64, d128 = ha.default_config(64), ha.default_config(128)
    assert d64["fuse_dq"] and d128["fuse_dq"] and d64["warp_specialize"] and d128["warp_specialize"]
    assert (d64["stages"], d128["stages"]) == (3, 2)  # shared memory: a third Q/dO stage fits at d64 only
    assert ha.block_m(64) == ha.block_m(128) == 64
    assert d64["heavy_first"] and d128["heavy_first"]  # causal programs longest first (measured +3% causal)


def test_mma_layout_splits_rows_over_warpgroups_first():
    ha = _module()
    s = ha._mma_layout.fn(128, 64, 8) if hasattr(ha._mma_layout, "fn") else ha._mma_layout(128, 64, 8)
    assert list(s.warps_per_cta) == [8, 1] and list(s.instr_shape) == [16, 64, 16]
    dq = ha._mma_layout.fn(64, 128, 8) if hasattr(ha._mma_layout, "fn") else ha._mma_layout(64, 128, 8)
    assert list(dq.warps_per_cta) == [4, 2] and list(dq.instr_shape) == [16, 64, 16]


def test_descriptors_are_what_the_checked_constructor_makes():
    import dataclasses

    ha = _module()
    x = torch.randn(2, 3, 40, 64, dtype=torch.bfloat16).transpose(1, 2)  # (B, N, H, D) seen as (B, H, N, D)
    for t, rows in ((x, 64), (torch.zeros(2 * 3 * 64, dtype=torch.float32), 64), (x, ha.BLOCK_N)):
        fast = ha._desc(t, rows)
        block = [rows] if t.dim() == 1 else [1, 1, rows, 64]
        layout = ha.gl.NVMMASharedLayout.get_default_for(block, ha._GL_DTYPES[t.dtype])
        checked = ha.TensorDescriptor(t, list(t.shape), list(t.stride()), block, layout)
        assert type(fast) is type(checked)
        for field in dataclasses.fields(checked):
            if field.name != "base":
                assert getattr(fast, field.name) == getattr(checked, field.name), field.name
        assert fast.base is t and ha._DESC_FAST
    assert ha._desc(x, 64).layout is ha._desc(x, 64).layout  # made once per (box, dtype)
    with pytest.raises(ValueError, match="16-byte aligned"):
        ha._desc(torch.randn(2, 3, 40, 64, dtype=torch.bfloat16)[..., 1:], 64)  # an odd base and last-dim offset


class _StandInKernel:
    """``_attn_bwd_hopper`` as _launch_main sees it: ``[grid](*args, **kwargs)`` through the JIT returns a compiled
    handle, whose ``[grid](*args)`` launches; both record what they were given."""

    def __init__(self, arg_names):
        self.arg_names, self.jit_calls, self.handle_calls = arg_names, [], []

    def __getitem__(self, grid):
        def jit(*args, **kwargs):
            self.jit_calls.append((grid, args, kwargs))
            return _StandInHandle(self)

        return jit


class _StandInHandle:
    def __init__(self, kernel):
        self.kernel = kernel

    def __getitem__(self, grid):
        return lambda *args: self.kernel.handle_calls.append((grid, args))


def test_the_compiled_handle_gets_every_parameter_in_order_and_a_new_key_recompiles(monkeypatch):
    ha = _module()
    stand_in = _StandInKernel(ha._attn_bwd_hopper.arg_names)
    monkeypatch.setattr(ha, "_attn_bwd_hopper", stand_in)
    monkeypatch.setattr(ha, "_COMPILED", {})
    import triton.runtime

    monkeypatch.setattr(triton.runtime.driver, "_active", type("Driver", (), {"get_current_device": lambda s: 0})())
    constexprs = {"GROUP": 4, "HEAD_DIM": 64, "BLOCK_M": 64, "CAUSAL": True, "FUSE_DQ": True, "DEFER_DQ": False,
                  "WS": True, "STAGES": 3, "DQ_BUFS": 2, "EARLY_RELEASE": False, "HEAVY_FIRST": True}  # fmt: skip
    descs = [f"desc{i}" for i in range(9)]
    scalars = (0.1, 0.07, 8, 2048, 2048, 0, 8)
    for _ in range(3):
        ha._launch_main((16, 16), torch.bfloat16, descs, scalars, constexprs)
    assert len(stand_in.jit_calls) == 1 and len(stand_in.handle_calls) == 2
    (_, jit_args, jit_kwargs), (grid, args) = stand_in.jit_calls[0], stand_in.handle_calls[0]
    bound = dict(zip(stand_in.arg_names, jit_args, strict=False)) | jit_kwargs  # what the JIT binds, by name
    assert grid == (16, 16, 1) and list(args) == [bound[name] for name in stand_in.arg_names]
    # what Triton specialises on changes the key: the dtype, a constexpr, an int past int32 (i64), and which one
    ha._launch_main((16, 16), torch.float16, descs, scalars, constexprs)
    ha._launch_main((16, 16), torch.bfloat16, descs, scalars, {**constexprs, "CAUSAL": False})
    ha._launch_main((16, 16), torch.bfloat16, descs, (*scalars[:3], 2**31, *scalars[4:]), constexprs)
    ha._launch_main((16, 16), torch.bfloat16, descs, (*scalars[:4], 2**31, *scalars[5:]), constexprs)  # another int
    assert len(stand_in.jit_calls) == 5 and len(stand_in.handle_calls) == 2


@pytest.mark.skipif(
    not torch.cuda.is_available() or torch.cuda.get_device_capability() != (9, 0), reason="needs an sm90 GPU"
)
def test_matches_float64_on_the_device(tmp_path):
    # in a process of its own without TRITON_INTERPRET (which the test process sets, tests/conftest.py): the Triton
    # pre- and post-pass compiled for the device as in use, not interpreted on host copies of the tensors
    env = {key: value for key, value in os.environ.items() if key != "TRITON_INTERPRET"}
    script = REPO / "benchmarks" / "hopper_attention.py"
    command = [sys.executable, str(script), "--check", "--check-variants", "auto", "--out", str(tmp_path)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env, cwd=REPO)
    assert result.returncode == 0 and "check: all pass" in result.stdout, result.stdout[-4000:] + result.stderr[-4000:]
