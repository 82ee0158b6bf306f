"""The attention as PyTorch custom operators, and launch's choice of the Hopper backward, on the CPU interpreter.

torch.library.opcheck on both operators (schema, fake implementations, autograd registration, AOT dispatch with
dynamic shapes); torch.compile(fullgraph=True) over a small model with no graph break (counted by
torch._dynamo's explain) and the tuner never reached by a fake tensor; the sm90 dispatch with a stand-in
Hopper module that records the contract's arguments.
"""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

from torch._subclasses.fake_tensor import FakeTensor  # noqa: E402

from skills.operator_adaptation import attention, attention_varlen, fused_attention, kernel_check, launch  # noqa: E402


def _tensors(*shapes, dtype=torch.bfloat16, grad=True, seed=0):
    gen = torch.Generator().manual_seed(seed)
    return [torch.randn(*shape, generator=gen).to(dtype).requires_grad_(grad) for shape in shapes]


# ------------------------------------------------------------------------------------------ custom operators


def test_opcheck_forward_and_backward():
    q, k, v = _tensors((1, 4, 9, 16), (1, 2, 9, 16), (1, 2, 9, 16))
    # q, k, v, cu_q, cu_k, max_q, max_k, causal, scale, left, right, bottom_right, deterministic
    forward_args = (q, k, v, None, None, 9, 9, True, 0.25, -1, -1, False, False)
    torch.library.opcheck(torch.ops.shijie.attention_forward.default, forward_args)
    o, lse = torch.ops.shijie.attention_forward(*forward_args)
    do = torch.randn_like(o)
    backward_args = (do, q.detach(), k.detach(), v.detach(), o.detach(), lse, None, None, 9, 9, True, 0.25,
                     -1, -1, False, False)  # fmt: skip
    torch.library.opcheck(torch.ops.shijie.attention_backward.default, backward_args)


def test_opcheck_varlen_window():
    q, k, v = _tensors((11, 2, 16), (14, 2, 16), (14, 2, 16), seed=1)
    cu_q = torch.tensor([0, 4, 11], dtype=torch.int32)
    cu_k = torch.tensor([0, 9, 14], dtype=torch.int32)
    args = (q, k, v, cu_q, cu_k, 7, 9, False, 0.25, 3, 2, True, True)
    torch.library.opcheck(torch.ops.shijie.attention_forward.default, args)


def _through_operators(q, k, v, **options):
    """The custom-operator path that ``attention`` takes under torch.compile, called in eager mode."""
    args = (None, None, q.shape[2], k.shape[2], options.get("causal", False), q.shape[-1] ** -0.5,
            *options.get("window", (-1, -1)), options.get("bottom_right", False), False)  # fmt: skip
    return torch.ops.shijie.attention_forward(q, k, v, *args)[0]


@pytest.mark.parametrize("causal, window, bottom_right", [(True, (-1, -1), False), (True, (-1, -1), True),
                                                          (False, (3, 2), False)])  # fmt: skip
def test_eager_path_is_a_plain_autograd_function_with_the_operators_bits(causal, window, bottom_right):
    q, k, v = _tensors((1, 4, 13, 16), (1, 2, 11, 16), (1, 2, 11, 16), seed=4)
    align = "bottom_right" if bottom_right else "top_left"
    eager = attention(q, k, v, is_causal=causal, enable_gqa=True, window=None if window == (-1, -1) else window,
                      causal_align=align)  # fmt: skip
    assert type(eager.grad_fn).__name__ == "_EagerAttentionBackward"  # not the operators' autograd wrapper
    do = torch.randn_like(eager)
    grads = torch.autograd.grad(eager, (q, k, v), do)
    via_ops = _through_operators(q, k, v, causal=causal, window=window, bottom_right=bottom_right)
    assert torch.equal(eager, via_ops)
    for a, b in zip(grads, torch.autograd.grad(via_ops, (q, k, v), do), strict=True):
        assert torch.equal(a, b)


def test_eager_path_of_varlen_checks_the_lengths_as_the_operator_does():
    q, k, v = _tensors((10, 2, 16), (10, 2, 16), (10, 2, 16), seed=5)
    cu = torch.tensor([0, 4, 10], dtype=torch.int32)
    with pytest.raises(ValueError, match="longer than max_seqlen_q=5"):
        attention_varlen(q, k, v, cu, cu, 5, 6)
    out = attention_varlen(q, k, v, cu, cu, 6, 6, is_causal=True)
    assert type(out.grad_fn).__name__ == "_EagerAttentionBackward"
    out.sum().backward()
    assert all(t.grad is not None and torch.isfinite(t.grad.float()).all() for t in (q, k, v))


def _record_launches(monkeypatch):
    """Every call of the launchers (where the tuner runs), with whether a fake tensor or a trace reached it."""
    calls = []
    for name in ("forward", "backward"):
        real = getattr(launch, name)

        def recording(*args, _real=real, _name=name, **kwargs):
            fake = any(isinstance(a, FakeTensor) for a in args)
            calls.append((_name, fake, torch.compiler.is_compiling()))
            return _real(*args, **kwargs)

        monkeypatch.setattr(launch, name, recording)
    return calls


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compile_fullgraph_no_graph_break_and_no_tuning_while_tracing(backend, monkeypatch):
    import torch._dynamo

    torch._dynamo.reset()
    torch.manual_seed(0)
    block = kernel_check.AttentionBlock(dim=32, window=(12, -1)).to(torch.bfloat16)
    x = torch.randn(2, 20, 32).to(torch.bfloat16)
    explanation = torch._dynamo.explain(block)(x)
    assert explanation.graph_break_count == 0 and explanation.graph_count == 1

    calls = _record_launches(monkeypatch)
    eager = block(x)
    eager.float().square().sum().backward()
    eager_grads = [p.grad.clone() for p in block.parameters()]
    block.zero_grad()
    compiled = torch.compile(block, fullgraph=True, backend=backend)
    out = compiled(x)
    out.float().square().sum().backward()
    assert torch.allclose(out.float(), eager.float(), atol=2e-2)
    for p, g in zip(block.parameters(), eager_grads, strict=True):
        assert torch.allclose(p.grad.float(), g.float(), atol=5e-2, rtol=5e-2)
    assert [name for name, _, _ in calls] == ["forward", "backward", "forward", "backward"]
    assert not any(fake or compiling for _, fake, compiling in calls)  # the tuner only ever saw real tensors


def test_compile_varlen_fullgraph():
    import torch._dynamo

    torch._dynamo.reset()
    q, k, v = _tensors((30, 4, 16), (30, 1, 16), (30, 1, 16), seed=3)
    cu = torch.tensor([0, 10, 30], dtype=torch.int32)

    def packed(q, k, v):
        return attention_varlen(q, k, v, cu, cu, 20, 20, is_causal=True, enable_gqa=True, deterministic=True)

    assert torch._dynamo.explain(packed)(q, k, v).graph_break_count == 0
    out = torch.compile(packed, fullgraph=True, backend="aot_eager")(q, k, v)
    assert torch.equal(out, packed(q, k, v))


# -------------------------------------------------------------------------------------- the Hopper dispatch


class _StandInHopper:
    """Speaks the contract of _hopper_attention: hopper_supported(q, k, v, *, causal, bottom_right, window,
    deterministic, varlen) and hopper_backward(q, k, v, o, lse, do, causal, sm_scale, dq, dk, dv, *, bottom_right)."""

    def __init__(self, supported: bool):
        self.supported, self.asked, self.ran = supported, [], []

    def hopper_supported(self, q, k, v, *, causal, bottom_right, window, deterministic, varlen):
        self.asked.append({"causal": causal, "bottom_right": bottom_right, "window": window,
                           "deterministic": deterministic, "varlen": varlen, "kv_heads": k.shape[-3]})  # fmt: skip
        return self.supported

    def hopper_backward(self, q, k, v, o, lse, do, causal, sm_scale, dq, dk, dv, *, bottom_right=False):
        self.ran.append({"causal": causal, "sm_scale": sm_scale, "bottom_right": bottom_right})
        for t, value in ((dq, 1.0), (dk, 2.0), (dv, 3.0)):
            t.fill_(value)


class _StandInCute:
    """Speaks the contract of _cute_attention: supported(q, k, v, *, causal, bottom_right, dq, dk, dv) -> None or
    why not, and backward(q, k, v, o, lse, do, dq, dk, dv, *, causal, scale)."""

    def __init__(self, why: str | None):
        self.why, self.asked, self.ran = why, [], []

    def supported(self, q, k, v, *, causal, bottom_right, dq=None, dk=None, dv=None):
        self.asked.append({"causal": causal, "bottom_right": bottom_right, "dk_contiguous": dk.is_contiguous()})
        return self.why

    def backward(self, q, k, v, o, lse, do, dq, dk, dv, *, causal, scale):
        self.ran.append({"causal": causal, "scale": scale})
        for t, value in ((dq, 4.0), (dk, 5.0), (dv, 6.0)):
            t.fill_(value)


def _dispatch(monkeypatch, supported: bool, cute=None):
    """An sm90 device with stand-ins for the Gluon module and the CuTe one (None: the extra not importable)."""
    hopper = _StandInHopper(supported)
    monkeypatch.setattr(launch, "_sm90", lambda device: True)
    monkeypatch.setattr(launch, "_hopper_module", lambda: hopper)
    monkeypatch.setattr(launch, "_cute_module", lambda: cute)
    return hopper


def test_sm90_backward_goes_to_the_hopper_module_when_it_accepts(monkeypatch):
    hopper = _dispatch(monkeypatch, supported=True)
    q, k, v = _tensors((1, 4, 8, 16), (1, 2, 12, 16), (1, 2, 12, 16))
    attention(q, k, v, is_causal=True, enable_gqa=True, causal_align="bottom_right", scale=0.5).sum().backward()
    assert hopper.asked == [{"causal": True, "bottom_right": True, "window": None, "deterministic": False,
                             "varlen": False, "kv_heads": 2}]  # fmt: skip
    assert hopper.ran == [{"causal": True, "sm_scale": 0.5, "bottom_right": True}]
    assert (q.grad == 1).all() and (k.grad == 2).all() and (v.grad == 3).all()


def test_sm90_backward_stays_portable_when_the_hopper_module_declines(monkeypatch):
    hopper = _dispatch(monkeypatch, supported=False)
    q, k, v = _tensors((1, 2, 8, 16), (1, 2, 8, 16), (1, 2, 8, 16))
    attention(q, k, v, window=(3, 1), deterministic=True).sum().backward()
    assert hopper.asked[0]["window"] == (3, 1) and hopper.asked[0]["deterministic"] is True
    assert hopper.ran == []
    reference = [t.detach().requires_grad_() for t in (q, k, v)]
    attention(*reference, window=(3, 1), deterministic=True).sum().backward()
    assert all(torch.equal(a.grad, b.grad) for a, b in zip((q, k, v), reference, strict=True))

    packed, cu = torch.randn(8, 2, 16).to(torch.bfloat16).requires_grad_(), torch.tensor([0, 8], dtype=torch.int32)
    attention_varlen(packed, packed, packed, cu, cu, 8, 8).sum().backward()
    assert hopper.asked[-1]["varlen"] is True and hopper.ran == []


def test_sm90_backward_goes_to_cute_when_importable_and_it_takes_what_gluon_takes(monkeypatch):
    cute = _StandInCute(None)
    hopper = _dispatch(monkeypatch, supported=True, cute=cute)
    q, k, v = _tensors((1, 2, 8, 16), (1, 2, 8, 16), (1, 2, 8, 16))
    assert launch.backward_backend(q, k, v, True) == "cute"
    attention(q, k, v, is_causal=True, scale=0.5).sum().backward()
    assert cute.ran == [{"causal": True, "scale": 0.5}] and hopper.ran == []
    assert cute.asked[-1] == {"causal": True, "bottom_right": False, "dk_contiguous": True}
    assert (q.grad == 4).all() and (k.grad == 5).all() and (v.grad == 6).all()


def test_sm90_backward_falls_back_to_gluon_where_cute_declines_or_is_missing(monkeypatch):
    cute = _StandInCute("q, k, v must be 4-d with the same shape (MHA, equal lengths)")
    hopper = _dispatch(monkeypatch, supported=True, cute=cute)
    q, k, v = _tensors((1, 4, 8, 16), (1, 2, 8, 16), (1, 2, 8, 16))
    assert launch.backward_backend(q, k, v, False) == "gluon"
    attention(q, k, v, enable_gqa=True).sum().backward()
    assert len(cute.asked) == 2 and cute.ran == []  # asked by backward_backend, then by backward
    assert hopper.ran == [{"causal": False, "sm_scale": 0.25, "bottom_right": False}]
    assert (q.grad == 1).all() and (k.grad == 2).all()

    hopper = _dispatch(monkeypatch, supported=True, cute=None)  # the extra not importable
    q, k, v = _tensors((1, 2, 8, 16), (1, 2, 8, 16), (1, 2, 8, 16))
    assert launch.backward_backend(q, k, v, False) == "gluon"
    attention(q, k, v).sum().backward()
    assert len(hopper.ran) == 1 and (v.grad == 3).all()


def test_sm90_backward_never_asks_cute_what_gluon_declines(monkeypatch):
    cute = _StandInCute(None)
    hopper = _dispatch(monkeypatch, supported=False, cute=cute)
    q, k, v = _tensors((1, 2, 8, 16), (1, 2, 8, 16), (1, 2, 8, 16))
    assert launch.backward_backend(q, k, v, False, deterministic=True) == "portable"
    attention(q, k, v, deterministic=True).sum().backward()
    assert cute.asked == [] and cute.ran == [] and hopper.ran == []
    assert torch.isfinite(q.grad).all() and not (q.grad == 4).all()


def test_portable_flag_skips_the_hopper_module(monkeypatch):
    hopper = _dispatch(monkeypatch, supported=True)
    q, k, v = (t.detach() for t in _tensors((1, 1, 8, 16), (1, 1, 8, 16), (1, 1, 8, 16)))
    o, lse = launch.forward(q, k, v, False, 0.25)
    dq, _, _ = launch.backward(q, k, v, o, lse, torch.ones_like(o), False, 0.25, portable=True)
    assert hopper.asked == [] and not (dq == 1).all()


def test_chosen_configs_lists_feature_shape_classes():
    q, k, v = (t.detach() for t in _tensors((1, 4, 12, 16), (1, 1, 12, 16), (1, 1, 12, 16)))
    attention(q, k, v, enable_gqa=True, window=(5, 2))
    classes = {row["shape_class"] for row in fused_attention.chosen_configs() if row["kernel"] == "fwd"}
    assert any("|g4|w8" in key for key in classes), classes
