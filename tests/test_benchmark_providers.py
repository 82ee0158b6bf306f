"""The benchmark's own providers run on the CPU through Triton's interpreter (TRITON_INTERPRET=1).

``ours_portable`` (our forward, then the portable backward even where ``launch`` would pick the Hopper kernel)
must compute what the public ``attention`` computes on a path without the Hopper kernel.
"""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("triton")

from skills.operator_adaptation import attention, benchmark  # noqa: E402


def test_the_portable_row_runs_our_forward_and_the_portable_backward():
    torch.manual_seed(0)
    q, k, v = (torch.randn(1, 2, 33, 16).to(torch.bfloat16).requires_grad_() for _ in range(3))
    do = torch.randn(1, 2, 33, 16).to(torch.bfloat16)
    out = benchmark._ours_portable(q, k, v, True)
    out.backward(do)
    grads = [t.grad.clone() for t in (q, k, v)]
    for t in (q, k, v):
        t.grad = None
    reference = attention(q, k, v, is_causal=True)
    reference.backward(do)
    assert torch.equal(out, reference)
    assert all(torch.equal(a, t.grad) for a, t in zip(grads, (q, k, v), strict=True))
