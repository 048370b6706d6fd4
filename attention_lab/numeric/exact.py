"""The stages of numeric/core.py computed as the explorer's page computes them, to the bit, and with no overflow
where the result is a float: what attention_trace (the page's Python reference) and the parity tests use.

S = QKᵀ, O = PV and softmax's row sums are summed left to right as the page sums them, and e^x is the page's exp
(arithmetic.py), so both sides have the same bits (tests/test_same_bits.py). And finite inputs near the float limit
(1.8e308) can overflow on the way to a finite result; here they do not (`products`, `normalized`). core.py says
what each stage computes, in plain NumPy; this module is how the page computes it. tests/test_exact.py holds the
two to each other on the article and on the fuzz catalogue.

The stage functions here take arrays core's stages (or attention_trace) have already checked.
"""

import numpy as np

from . import arithmetic, core


def scores(Qh, Kh):  # [..., T_q, dh], [..., T_k, dh] -> [..., T_q, T_k]
    """core.scores, S = Q Kᵀ, summed as the page sums, ±∞ only where a score is beyond the float range."""
    return _matmul(Qh, np.swapaxes(Kh, -1, -2))


def row_exponentials(S_masked):  # [..., T_k] -> [..., T_k]
    """core.row_exponentials, E = exp(s − the row's maximum), with the page's exp."""
    return arithmetic.exp(core.minus_row_max(S_masked))


def normalize_rows(E):  # [..., T_k] -> [..., T_k]
    """core.normalize_rows, E / its row sum, summed as the page sums (see `normalized`)."""
    return normalized(np.asarray(E, dtype=float))


def softmax(S_masked):  # [..., T_k] -> [..., T_k]
    """core.softmax, the row exponentials divided by their row sum, as the page computes them."""
    return normalize_rows(row_exponentials(S_masked))


def weighted_sum(P, Vh):  # [..., T_q, T_k], [..., T_k, dh] -> [..., T_q, dh]
    """core.weighted_sum, O = P V, summed as the page sums; near the float limit an average stays within its Values."""
    return _matmul(P, Vh, weights=True)


def _matmul(A, B, weights=False):  # [..., n, k] or one row [k], [..., k, m] -> [..., n, m] or [..., m], as A @ B
    A = np.asarray(A, dtype=float)
    if A.ndim == 1:  # one row, as core's one Query row or row of weights
        return products(A[None], B, weights)[..., 0, :]
    return products(A, B, weights)


def exponentials(X):  # [...] -> [...]
    """core.exponentials, e^x of each value as the article writes softmax out, with the page's exp."""
    with np.errstate(over="ignore"):  # a huge score shows as ∞ rather than warning
        return arithmetic.exp(X)


def shown_exponentials(scores_row):  # [T_k] -> (exponentials [T_k], m: the shift, or None)
    """core.shown_exponentials with the page's exp: the e^s a breakdown on the page shows."""
    return core.shown_exponentials(scores_row, exp=arithmetic.exp)

# A @ B can overflow on its way to a finite result: a weighted average of Values near the float limit (1.8e308)
# rounds past it, or a partial sum does before later terms bring it back. Scaling an operand by a power of two
# keeps every bit of its normal numbers (only the exponent moves), so such a product is computed again with
# each operand brought low enough, then scaled back.
_SAFE_EXPONENT = 1021  # float64's largest exponent is 1023: keep the sums two below it


def _exponent(X):  # -> e with every finite |x| < 2^e (0 for none)
    finite = np.abs(X[np.isfinite(X)])
    return int(np.frexp(finite.max())[1]) if finite.size else 0


def _shifts(A, B):  # -> (kA, kB): A·2^-kA @ B·2^-kB cannot overflow; the larger operand gives up the most
    a, b = _exponent(A), _exponent(B)
    excess = max(0, a + b + int(A.shape[-1]).bit_length() - _SAFE_EXPONENT)  # a sum has < 2^bit_length terms
    kB = min(max(0, -(-(excess + b - a) // 2)), excess)  # bring the exponents level, then share what is left
    return excess - kB, kB


def products(A, B, weights=False):  # [..., n, k] @ [..., k, m] -> [..., n, m]
    """A @ B, ±inf only where the result itself is beyond the float range (or an input is not finite).

    weights=True: A's rows that are weights (each ≥ 0, summing to at most 1, up to rounding) make averages
    of B's rows, which lie between the smallest and largest entry of each column of B (or 0); near the float
    limit, where rounding could carry one past that, it is held there.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # ∞ or NaN in an input propagate, as NaN does
        out = arithmetic.products(A, B)  # summed left to right, as the page sums
        if np.isfinite(out).all():  # nearly always: nothing overflowed
            return out
        kA, kB = _shifts(A, B)
        A_, B_ = np.ldexp(A, -kA), np.ldexp(B, -kB)
        out = arithmetic.products(A_, B_)
        if weights and kA + kB:
            tolerance = 4 * A.shape[-1] * np.finfo(float).eps
            rows = ((A >= 0).all(axis=-1) & (A.sum(axis=-1) <= 1 + tolerance))[..., None]  # (..., n, 1)
            low = np.minimum(B_.min(axis=-2, keepdims=True), 0)  # (..., 1, m)
            high = np.maximum(B_.max(axis=-2, keepdims=True), 0)
            out = np.where(rows, np.clip(out, low, high), out)
        return np.ldexp(out, kA + kB)


def normalized(E):  # [..., T_k] -> [..., T_k]
    """E divided by its row sums, summed left to right; a row of zeros (nothing to attend to) stays 0, never NaN.
    Finite values near the float limit can sum past it: that row is scaled by a power of two first (it cancels)."""
    with np.errstate(over="ignore", invalid="ignore"):  # a NaN row stays NaN
        row_sum = arithmetic.row_sums(E)  # left to right, as the page sums
        if not np.isfinite(row_sum).all():
            top = np.where(np.isfinite(E), np.abs(E), 0).max(axis=-1, keepdims=True)
            E = np.ldexp(E, -np.where(np.isfinite(row_sum), 0, np.frexp(top)[1]))
            row_sum = arithmetic.row_sums(E)
        return E / np.where(row_sum == 0, 1.0, row_sum)  # a fully masked row: 0 / 1 = 0
