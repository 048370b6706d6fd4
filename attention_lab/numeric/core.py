"""The stages of Core Attention as plain NumPy functions, one per stage, as the article writes them.

Each function does one thing the article names (split, Q @ K.T, / sqrt(dh),
+ M, softmax, P @ V, concat), so a notebook can call them one at a time and
a test can check them one at a time. Shapes use the project's vocabulary:
T_q Query tokens, T_k Key tokens (T when they are the same), model width d,
h heads of width dh = d / h, g K/V heads. The leading `...` means "any number
of heads (or none)".

Arguments are checked (real numbers, shapes that fit) with a ValueError that
names them. A NaN in an input is propagated, never turned into a weight of 0.

How the explorer's page computes the same stages to the bit (its sums left to
right, its exp) is numeric/exact.py: attention_trace uses it, and
tests/test_exact.py holds these stages to it (here a sum is NumPy's, so the
last bit may differ from the trace's). Near the float limit (1.8e308) NumPy's
Q @ K.T, P @ V or row sum can overflow on the way to a finite result; where it
does, the stage returns exact's instead, which does not.
"""

import numpy as np

from . import checks, exact
from .calls import named_arguments


def _array(name, X, ndim):  # -> float array with at least `ndim` dimensions
    X = checks.real_array(name, X)
    if X.ndim < ndim:
        raise ValueError(f"{name}: needs at least {ndim} dimension(s), got shape {X.shape}.")
    return X


def _same(names, a, b, axis_a, axis_b, what):
    """Raise unless a.shape[axis_a] == b.shape[axis_b] and the leading (head) axes broadcast."""
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(f"{names}: the head axes of shapes {a.shape} and {b.shape} do not match.") from None
    if a.shape[axis_a] != b.shape[axis_b]:
        raise ValueError(f"{names}: {what} must match, got shapes {a.shape} and {b.shape}.")


@named_arguments
def split_heads(X, h):  # [T, h·dh] -> [h, T, dh]
    """Give head i the columns i*dh … (i+1)*dh-1 of X (Q, K or V)."""
    X = _array("X", X, 2)
    if X.ndim != 2:
        raise ValueError(f"X: needs shape (T, d), one row per token, got {X.shape}.")
    T, d = X.shape
    h = checks.whole_number("h", h, 1)
    if d == 0 or d % h:
        raise ValueError(f"h: X has d={d} columns, which h={h} heads cannot share equally; use h dividing {d}.")
    return X.reshape(T, h, d // h).transpose(1, 0, 2)  # (h, T, dh)


@named_arguments
def concat_heads(O):  # [h, T, dh] -> [T, d]
    """Put each head's output back in its own columns, token by token (Concat)."""
    O = _array("O", O, 3)  # noqa: E741
    if O.ndim != 3:
        raise ValueError(f"O: needs shape (h, T, dh), got {O.shape}.")
    h, T, dh = O.shape
    return O.transpose(1, 0, 2).reshape(T, h * dh)  # (T, d)


@named_arguments
def kv_head_index(h, g):  # -> [h] int
    """The K/V head each of h Query heads reads when g K/V heads are shared: head i reads i // (h/g)."""
    h = checks.whole_number("h", h, 1)
    g = checks.kv_heads(g, h, name="g")
    checks.fits("h", 8 * h, f"an index for h={h:,} heads", "use fewer heads.")
    return np.arange(h) // (h // g)


@named_arguments
def scores(Q, K):  # [..., T_q, dh], [..., T_k, dh] -> [..., T_q, T_k]  (or one Query row: [dh], [T_k, dh] -> [T_k])
    """S = Q Kᵀ: row i, column j is Query token i · Key token j."""
    Q, K = _array("Q", Q, 1), _array("K", K, 2)  # one Query row (dh,) gives one row of scores
    _same("Q, K", Q, K, -1, -1, "the number of components (last axis)")
    with np.errstate(over="ignore", invalid="ignore"):  # a sum that overflows on the way is exact's, below
        S = Q @ np.swapaxes(K, -1, -2)  # Kᵀ of every head: its last two axes swapped
    return S if np.isfinite(S).all() else exact.scores(Q, K)  # ±∞ only where a score is beyond the float range


def checked_scores(Qh, Kh):  # [..., T_q, dh], [..., T_k, dh] -> [..., T_q, T_k]
    """S = Q Kᵀ for every head, or a ValueError if a score overflows (finite Q and K can still overflow)."""
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below as a clear error
        S = scores(Qh, Kh)
    if not np.isfinite(S).all():
        raise ValueError("Q, K: the scores Q·Kᵀ overflowed to ±inf; use smaller values in Q and K.")
    return S


@named_arguments
def scale(S, dh):  # [..., T_q, T_k] -> [..., T_q, T_k]
    """Divide every score by √dh so the spread of scores does not grow with dh."""
    S, dh = _array("S", S, 0), checks.positive_number("dh", dh)
    with np.errstate(over="ignore"):  # a score near the float limit divided by a dh below 1 becomes ∞
        return S / np.sqrt(dh)


@named_arguments
def apply_mask(S_scaled, M):  # [..., T_q, T_k], [T_q, T_k] -> [..., T_q, T_k]
    """Add the mask: 0 keeps a score, −∞ removes it (−∞ + score = −∞)."""
    S_scaled, M = _array("S_scaled", S_scaled, 1), _array("M", M, 1)
    if M.shape[-2:] != S_scaled.shape[-2:] and M.shape != S_scaled.shape[-M.ndim:]:
        raise ValueError(f"M: must have the shape of one head's scores, {S_scaled.shape[-2:]}, got {M.shape}.")
    with np.errstate(invalid="ignore"):  # +∞ + (−∞) is NaN, and NaN propagates
        return S_scaled + M


@named_arguments
def minus_row_max(S_masked):  # [..., T_k] -> [..., T_k]
    """s − the row's maximum for each score: the largest becomes 0, so e^(s − max) is in [0, 1].

    A fully masked row (all −∞) has no maximum to subtract: it stays all −∞.
    A row holding NaN or +∞ comes out as NaN.
    """
    S_masked = _array("S_masked", S_masked, 1)
    if S_masked.shape[-1] == 0:
        raise ValueError("S_masked: a row of scores needs at least one score (one Key token).")
    row_max = S_masked.max(axis=-1, keepdims=True)  # NaN if the row holds a NaN
    row_max = np.where(np.isneginf(row_max), 0.0, row_max)  # a fully masked row's max is −∞
    with np.errstate(invalid="ignore"):  # NaN and +∞ rows propagate as NaN, by design
        return S_masked - row_max


@named_arguments
def row_exponentials(S_masked):  # [..., T_k] -> [..., T_k]
    """E = exp(s − the row's maximum) for each score: the softmax's "지수 함수 exp" step, before dividing.

    The row maximum is subtracted first: it cancels when dividing by the row's
    sum but keeps exp() from overflowing, so every value is in [0, 1] and the
    largest is 1. −∞ becomes exactly 0. A row with every entry masked (all −∞)
    has nothing to attend to: its row is all 0. A row holding NaN or +∞ has no
    meaningful values: it comes out as NaN.
    """
    with np.errstate(invalid="ignore"):  # NaN stays NaN
        return np.exp(minus_row_max(S_masked))


@named_arguments
def normalize_rows(E):  # [..., T_k] -> [..., T_k]
    """Divide each row by its sum, so that it sums to 1; a row of zeros (nothing to attend to) stays 0, never NaN."""
    E = _array("E", E, 1)
    with np.errstate(over="ignore", invalid="ignore"):  # values near the float limit can sum past it: exact's below
        row_sum = E.sum(axis=-1, keepdims=True)  # after row_exponentials at most T_k
    if not np.isfinite(row_sum).all():
        return exact.normalize_rows(E)
    return E / np.where(row_sum == 0, 1.0, row_sum)  # a fully masked row: 0 / 1 = 0


@named_arguments
def softmax(S_masked):  # [..., T_k] -> [..., T_k]
    """Turn each row of scores into weights ≥ 0 that sum to 1: the row exponentials E, divided by their row sum.

    −∞ becomes exactly 0. A row with every entry masked has no Key token to
    attend to, so its weights are all 0 (not NaN). A row holding NaN or +∞ has
    no meaningful weights: it comes out as NaN.
    """
    return normalize_rows(row_exponentials(S_masked))


@named_arguments
def exponentials(S_masked):  # [..., T] -> [..., T]
    """e^s of each score, as the article writes softmax out: e¹, e⁰, e³, then divide by their sum.

    No maximum is subtracted, so these are the article's numbers; they are for
    showing the arithmetic (softmax() is what computes P). e^−∞ is exactly 0.
    """
    S_masked = _array("S_masked", S_masked, 0)
    with np.errstate(over="ignore"):  # a huge score shows as ∞ rather than warning
        return np.exp(S_masked)


def shown_exponentials(scores_row, exp=np.exp):  # [T_k] -> (exponentials [T_k], m: the shift, or None)
    """One row's exponentials as a table shows them: e^s as the article writes them; where one of them overflows
    to ∞ (∞ / ∞ is no weight) or underflows to 0 (e^−7000: 0 / 0 is none either), e^(s − m) with m the row's
    largest finite score, as softmax computes them. exp: NumPy's, or the page's (exact.shown_exponentials)."""
    scores_row = _array("scores_row", scores_row, 1)
    with np.errstate(over="ignore"):  # a huge score shows as ∞, and is then shifted
        exps = exp(scores_row)
    finite = np.isfinite(scores_row)
    if not (np.isinf(exps[finite]) | (exps[finite] == 0)).any():
        return exps, None
    with np.errstate(invalid="ignore"):  # NaN stays NaN
        return exp(minus_row_max(scores_row)), float(scores_row[finite].max())


@named_arguments
def weighted_sum(P, V):  # [..., T_q, T_k], [..., T_k, dh] -> [..., T_q, dh]  (or one row: [T_k], [T_k, dh] -> [dh])
    """O = P V: each output row is the P-weighted sum of the Value rows."""
    P, V = _array("P", P, 1), _array("V", V, 2)  # one row of weights (T,) gives one output row
    _same("P, V", P, V, -1, -2, "P's columns (Key tokens) and V's rows (Value rows)")
    with np.errstate(over="ignore", invalid="ignore"):  # a sum that overflows on the way is exact's, below
        O = P @ V
    return O if np.isfinite(O).all() else exact.weighted_sum(P, V)  # near the float limit an average stays finite
