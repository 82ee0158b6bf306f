"""Operator Adaptation: port fused attention (FlashAttention-2 forward + backward) to the GPU at hand.

Importing this package needs neither torch nor triton; the Triton kernels' entries are loaded on first use:
``attention(q, k, v, is_causal=False, scale=None, enable_gqa=False, ...)`` (SDPA's arguments) and
``attention_varlen`` (packed sequences, FlashAttention's varlen convention).
"""

__all__ = ["attention", "attention_varlen"]


def __getattr__(name: str):
    if name in __all__:
        # The implementation lives in fused_attention.py, not attention.py: importing a submodule binds its
        # name on this package, so a submodule called "attention" would replace the function with a module.
        from . import fused_attention

        return getattr(fused_attention, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
