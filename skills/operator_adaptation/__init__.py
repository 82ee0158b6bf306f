"""Operator Adaptation: port fused attention (FlashAttention-2 forward + backward) to the GPU at hand.

Importing this package needs neither torch nor triton; ``attention`` (the Triton kernel's autograd entry,
``attention(q, k, v, is_causal=False, scale=None)``) is loaded on first use.
"""

__all__ = ["attention"]


def __getattr__(name: str):
    if name == "attention":
        # The implementation lives in fused_attention.py, not attention.py: importing a submodule binds its
        # name on this package, so a submodule called "attention" would replace the function with a module.
        from .fused_attention import attention

        return attention
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
