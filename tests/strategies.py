"""What the tests draw from: every mask of the registry with parameters it takes, so a new mask is tested with no
list edited (hypothesis strategies and plain lists for parametrize)."""

import numpy as np
from hypothesis import strategies as st

from attention_lab.numeric import masks


@st.composite
def mask_specs(draw, T_k, names=None, align=True):  # -> masks.Mask valid for T_k Key tokens
    """Any mask of the registry (or of `names`), each parameter drawn from the values it takes for T_k."""
    name = draw(st.sampled_from(names or masks.MASK_NAMES))
    params = {p.name: draw(st.sampled_from(p.values(T_k))) for p in masks.MASKS[name].params}
    side = draw(st.sampled_from(masks.ALIGNS)) if align else "bottom-right"
    return masks.Mask(name, align=side, **params)


def every_mask(T):  # -> [masks.Mask]: each mask of the registry at its defaults and at each parameter's ends for T
    found = []
    for name, kind in masks.MASKS.items():
        if kind.rule is None:
            continue
        found.append(masks.Mask(name))
        for p in kind.params:
            values = p.values(T)
            for value in dict.fromkeys((values[0], values[-1])):
                found.append(masks.Mask(name, **{p.name: value}))
    return list(dict.fromkeys(found))


def boolean_masks(T_q, T_k):  # a strategy of (T_q, T_k) boolean arrays: a custom mask, rows may be empty
    return st.lists(st.lists(st.booleans(), min_size=T_k, max_size=T_k), min_size=T_q, max_size=T_q).map(
        lambda rows: np.array(rows, dtype=bool))
