"""The stages of Core Attention as pure NumPy functions, one per stage.

Each function does one thing the article names, so a notebook can call them
one at a time and a test can check them one at a time. Shapes use the
project's vocabulary: T tokens, model width d, h heads of width dh = d / h.
The leading `...` means "any number of heads (or none)".
"""

import numpy as np


def split_heads(X, h):  # [T, d] -> [h, T, dh]
    """Give head i the columns i*dh … (i+1)*dh-1 of X (Q, K or V)."""
    T, d = X.shape
    return X.reshape(T, h, d // h).transpose(1, 0, 2)  # (h, T, dh)


def concat_heads(O):  # [h, T, dh] -> [T, d]
    """Put each head's output back in its own columns, token by token (Concat)."""
    h, T, dh = O.shape
    return O.transpose(1, 0, 2).reshape(T, h * dh)  # (T, d)


def scores(Q, K):  # [..., T, dh], [..., T, dh] -> [..., T, T]
    """S = Q Kᵀ: row i, column j is Query token i · Key token j."""
    return Q @ np.swapaxes(K, -1, -2)


def scale(S, dh):  # [..., T, T] -> [..., T, T]
    """Divide every score by √dh so the spread of scores does not grow with dh."""
    return S / np.sqrt(dh)


def apply_mask(S_scaled, M):  # [..., T, T], [T, T] -> [..., T, T]
    """Add the mask: 0 keeps a score, −∞ removes it (−∞ + score = −∞)."""
    return S_scaled + M


def softmax(S_masked):  # [..., T, T] -> [..., T, T]
    """Turn each row of scores into weights ≥ 0 that sum to 1.

    The row maximum is subtracted first: it cancels in the ratio but keeps
    exp() from overflowing. −∞ becomes exactly 0. A row with every entry
    masked has no Key token to attend to, so its weights are all 0 (not NaN).
    """
    row_max = S_masked.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)  # a fully masked row's max is −∞
    exps = np.exp(S_masked - row_max)
    row_sum = exps.sum(axis=-1, keepdims=True)
    return np.divide(exps, row_sum, out=np.zeros_like(exps), where=row_sum > 0)


def exponentials(S_masked):  # [..., T] -> [..., T]
    """e^s of each score, as the article writes softmax out: e¹, e⁰, e³, then divide by their sum.

    No maximum is subtracted, so these are the article's numbers; they are for
    showing the arithmetic (softmax() is what computes P). e^−∞ is exactly 0.
    """
    with np.errstate(over="ignore"):  # a huge score shows as ∞ rather than warning
        return np.exp(S_masked)


def weighted_sum(P, V):  # [..., T, T], [..., T, dh] -> [..., T, dh]
    """O = P V: each output row is the P-weighted sum of the Value rows."""
    return P @ V
