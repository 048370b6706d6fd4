"""attention_lab: Core Attention, stage by stage, in NumPy.

    import attention_lab as al
    tr = al.article_example()    # the article's T=3, d=8, h=2 example
    tr.S[0, 2]                   # row 3 of Head 1's scores: [2, 0, 6]

The core (this namespace) imports only NumPy. Figures live in
`attention_lab.plotting`, live views in `attention_lab.widgets` and
`attention_lab.steppers`; they are loaded on first use, e.g.
`al.plotting.heatmap`, `al.explorer()` or `al.decode_view()`.
"""

import importlib

from .blockwise import BlockStep, blockwise_attention, blockwise_steps, online_update
from .core import (
    apply_mask,
    concat_heads,
    exponentials,
    kv_head_index,
    scale,
    scores,
    softmax,
    split_heads,
    weighted_sum,
)
from .examples import article_example, example_qkv, random_example, random_qkv
from .kv_cache import PUBLISHED, DecodeStep, decode_steps, decode_with_cache, generation_cost, kv_cache_bytes
from .masks import MASKS, additive_mask, allowed_of, causal_allowed, causal_mask, make_mask, no_mask
from .stages import STAGES
from .trace import AttentionTrace, attention_trace

__all__ = [
    "AttentionTrace", "STAGES", "MASKS", "attention_trace", "article_example", "random_example", "random_qkv",
    "example_qkv", "allowed_of",
    "split_heads", "concat_heads", "scores", "scale", "apply_mask", "softmax", "exponentials", "weighted_sum",
    "kv_head_index",
    "causal_mask", "causal_allowed", "additive_mask", "make_mask", "no_mask",
    "decode_steps", "decode_with_cache", "DecodeStep", "generation_cost", "kv_cache_bytes", "PUBLISHED",
    "blockwise_attention", "blockwise_steps", "BlockStep", "online_update",
    "explorer", "decode_view", "blockwise_view",
]

_LAZY = {"plotting", "html", "widgets", "style", "exercises", "figures", "text", "steppers", "generation_plots",
         "conventions"}


def explorer(*args, **kwargs):
    """The live explorer widget (see `attention_lab.widgets.explorer`)."""
    from .widgets import explorer as _explorer

    return _explorer(*args, **kwargs)


def decode_view(*args, **kwargs):
    """The token-by-token generation widget (see `attention_lab.steppers.decode_view`)."""
    from .steppers import decode_view as _decode_view

    return _decode_view(*args, **kwargs)


def blockwise_view(*args, **kwargs):
    """The online-softmax stepper widget (see `attention_lab.steppers.blockwise_view`)."""
    from .steppers import blockwise_view as _blockwise_view

    return _blockwise_view(*args, **kwargs)


def __getattr__(name):
    # Heavy modules (matplotlib, ipywidgets) load only when first used.
    if name in _LAZY:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'attention_lab' has no attribute {name!r}")
