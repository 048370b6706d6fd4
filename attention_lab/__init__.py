"""attention_lab: Core Attention, stage by stage, in NumPy.

    import attention_lab as al
    tr = al.article_example()    # the article's T=3, d=8, h=2 example
    tr.S[0, 2]                   # row 3 of Head 1's scores: [2, 0, 6]

The package's folders are its layers:

    numeric/    NumPy only: the stage functions, the pipeline and its trace, masks, examples, checks, …
    look/       the one visual language: colours, number formats, the words in Korean and English, cell data
    figures/    matplotlib: the heatmap, the article's figures, the figures command
    live/       the explorer and the step widgets: the browser computes the picture from data sent once
    exercises/  the exercise banks and their checker

This namespace holds the public names. The numeric ones load at once (NumPy
only); figures, the explorer and the exercises load on first use, e.g.
`al.figures.figure_softmax(…)`, `al.explorer()` or `al.decode_view()`.
"""

import importlib

from .numeric.blockwise import BlockStep, blockwise_attention, blockwise_steps, online_update
from .numeric.core import (
    apply_mask,
    concat_heads,
    exponentials,
    kv_head_index,
    normalize_rows,
    row_exponentials,
    scale,
    scores,
    softmax,
    split_heads,
    weighted_sum,
)
from .numeric.examples import article_example, example_qkv, random_example, random_qkv
from .numeric.kv_cache import PUBLISHED, DecodeStep, decode_steps, decode_with_cache, generation_cost, kv_cache_bytes
from .numeric.masks import MASKS, Mask, additive_mask, allowed_of, causal_allowed, causal_mask, make_mask, no_mask
from .numeric.pipeline import PIPELINE, STAGES
from .numeric.trace import AttentionTrace, attention_trace

__all__ = [
    "AttentionTrace", "PIPELINE", "STAGES", "MASKS", "Mask", "attention_trace", "article_example", "random_example",
    "random_qkv", "example_qkv", "allowed_of",
    "split_heads", "concat_heads", "scores", "scale", "apply_mask", "row_exponentials", "normalize_rows", "softmax",
    "exponentials", "weighted_sum", "kv_head_index",
    "causal_mask", "causal_allowed", "additive_mask", "make_mask", "no_mask",
    "decode_steps", "decode_with_cache", "DecodeStep", "generation_cost", "kv_cache_bytes", "PUBLISHED",
    "blockwise_attention", "blockwise_steps", "BlockStep", "online_update",
    "explorer", "decode_view", "blockwise_view",
]

# Modules loaded on first use: a layer (al.look, al.figures, …), or a short name for a module inside one.
_LAZY = {
    "numeric": "numeric", "look": "look", "figures": "figures", "live": "live", "exercises": "exercises",
    # The old names of two layers (al.plotting.figure_softmax(…), al.style.format_value(…)): notebooks stored and
    # saved before they became al.figures and al.look call them, and keep running.
    "plotting": "figures", "style": "look",
    "words": "look.words", "masks": "numeric.masks", "pipeline": "numeric.pipeline", "checks": "numeric.checks",
    "conventions": "numeric.conventions", "examples": "numeric.examples",
}


def explorer(*args, **kwargs):
    """The live explorer widget (see `attention_lab.live.explorer`)."""
    from .live import explorer as _explorer

    return _explorer(*args, **kwargs)


def decode_view(*args, **kwargs):
    """The token-by-token generation widget (see `attention_lab.live.steppers.decode_view`)."""
    from .live.steppers import decode_view as _decode_view

    return _decode_view(*args, **kwargs)


def blockwise_view(*args, **kwargs):
    """The online-softmax stepper widget (see `attention_lab.live.steppers.blockwise_view`)."""
    from .live.steppers import blockwise_view as _blockwise_view

    return _blockwise_view(*args, **kwargs)


def __getattr__(name):
    # Heavy modules (matplotlib, ipywidgets) load only when first used.
    if name in _LAZY:
        return importlib.import_module(f".{_LAZY[name]}", __name__)
    raise AttributeError(f"module 'attention_lab' has no attribute {name!r}")
