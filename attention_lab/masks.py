"""Additive masks M: 0 where a Query token may attend to a Key token, −∞ where not.

A mask is added to the scaled scores (S/√dh + M), so −∞ removes a score and
the softmax turns it into a weight of exactly 0. True −∞ is used, never a
large negative number such as −1e9, which would leave a tiny non-zero weight.

If a custom mask forbids every Key token for some Query token, that row has
nothing to attend to: its weights (row of P) and its output (row of O) are all
zeros, never NaN.
"""

import numpy as np

MASK_NAMES = ("causal", None)


def causal_allowed(T):  # -> [T, T] bool
    """True where Query token i may see Key token j, i.e. j ≤ i (itself and earlier tokens)."""
    return np.tril(np.ones((T, T), dtype=bool))


def additive_mask(allowed):  # [T, T] bool -> [T, T] float
    """M = 0 where allowed, −∞ where not."""
    return np.where(allowed, 0.0, -np.inf)


def causal_mask(T):  # -> [T, T] float
    """The decoder's causal mask: −∞ above the diagonal (future tokens), 0 elsewhere."""
    return additive_mask(causal_allowed(T))


def no_mask(T):  # -> [T, T] float
    """Every Query token may see every Key token: M is all zeros."""
    return np.zeros((T, T))


def make_mask(mask, T):  # "causal" | None | [T, T] bool -> [T, T] float
    """Build M from what the user passed as `mask`, or say clearly what is wrong."""
    if mask is None:
        return no_mask(T)
    if isinstance(mask, str):
        if mask == "causal":
            return causal_mask(T)
        raise ValueError(
            f"mask: unknown mask name {mask!r}. Use mask='causal', mask=None (no mask), "
            f"or a ({T}, {T}) boolean array where True means 'may attend'."
        )
    allowed = np.asarray(mask)
    if allowed.dtype != bool:
        raise ValueError(
            f"mask: a mask array must be boolean (True = may attend), got dtype {allowed.dtype}. "
            "Convert it with `mask.astype(bool)` or build it with a comparison such as `j <= i`."
        )
    if allowed.shape != (T, T):
        raise ValueError(
            f"mask: a mask array must have shape (T, T) = ({T}, {T}), got {allowed.shape}. "
            "Row i is Query token i, column j is Key token j."
        )
    return additive_mask(allowed)
