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


def random_mask(rng, T_q, T_k):  # -> (mask, align) for T_q Query and T_k Key tokens, drawn from the numpy Generator
    """A custom array 3 times in 10 (a row may see no Key token), otherwise any mask of the registry with random
    parameters and alignment, the alignment bottom-right where the mask has no other (another is refused: issue 27)."""
    if rng.random() < 0.3:
        return rng.random((T_q, T_k)) < 0.6, "bottom-right"
    name = str(rng.choice(masks.MASK_NAMES))
    params = {p.name: p.values(T_k)[int(rng.integers(len(p.values(T_k))))] for p in masks.MASKS[name].params}
    mask, align = masks.Mask(name, **params), str(rng.choice(masks.ALIGNS))
    return mask, align if masks.aligned(mask) else "bottom-right"
