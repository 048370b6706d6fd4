"""Sums in one order and one exp: the arithmetic the page does too, so that both compute the same bits.

IEEE 754 rounds each +, −, ×, ÷ and √ the same way in NumPy and in JavaScript, so the two sides agree to the bit
as long as they do the same operations in the same order. Two things break that: the order of a sum's terms (NumPy's
matmul and sum each choose their own, blocked or pairwise; near the explorer's limit of ±1e150 a different order
can turn an exact −1e150 into −5.8e283), and exp, which no standard rounds correctly (NumPy's SIMD exp, the C
library's and the browser's Math.exp disagree in the last bit for about one argument in ten). So:

- every sum the page also computes is 0 + t₁ + t₂ + … left to right, as the page's loops add
  (`products` for S = QKᵀ and O = PV, `row_sums` for softmax's row sums);
- exp is fdlibm's algorithm (the one V8 and SpiderMonkey use for Math.exp, error below one unit in the last
  place), written here in NumPy and in live/compute.js with the same operations in the same order.

The page's copy is compute.js's `sumOfProducts`, `sumOf` and `exp`; tests/test_same_bits.py holds both sides to
each other bit for bit, and tests/test_core.py holds these to plain loops and to math.exp.
"""

import math

import numpy as np

# How products walks its sum, for speed only (each way gives every entry the same left-to-right sum, bit for bit):
FEW_OUTPUTS = 1024  # fewer entries than this (one decoded token's row): whole blocks of terms at once, in order
TERMS_AT_ONCE = 2**20  # … as many terms as this at a time
OUTPUTS_AT_ONCE = 2**14  # more entries: one k at a time, over blocks of this many entries (they stay in the cache)


def row_sums(X):  # [..., n] -> [..., 1]: 0 + x₁ + x₂ + … + xₙ, left to right
    """Each row's sum in the page's order (NumPy's X.sum adds pairwise, in another order)."""
    X = np.asarray(X, dtype=float)
    if X.shape[-1] == 0:
        return np.zeros((*X.shape[:-1], 1))
    rows = X.reshape(-1, X.shape[-1])
    out = np.empty((rows.shape[0], 1))
    step = max(1, TERMS_AT_ONCE // X.shape[-1])  # a block of rows at a time: no second array of X's size
    for start in range(0, rows.shape[0], step):  # every output of accumulate is a partial sum: it adds in order
        out[start : start + step] = np.add.accumulate(rows[start : start + step], axis=-1)[:, -1:]
    return out.reshape(*X.shape[:-1], 1) + 0.0  # + 0.0: a sum of −0s is 0, as 0 + (−0) is


def products(A, B):  # [..., n, k] @ [..., k, m] -> [..., n, m]
    """A @ B with each entry summed as the page sums it: 0 + a₁b₁ + a₂b₂ + … + a_k·b_k, left to right."""
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    (n, k), m = A.shape[-2:], B.shape[-1]
    lead = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    L = math.prod(lead)
    A = np.broadcast_to(A, (*lead, n, k)).reshape(L, n, k)
    B = np.broadcast_to(B, (*lead, k, m)).reshape(L, k, m)
    out = np.zeros((L, n, m))
    if out.size < FEW_OUTPUTS:  # few sums of maybe many terms: terms (L, n, m, block) added along the block
        Bt = np.swapaxes(B, -1, -2)  # (L, m, k)
        step = max(1, TERMS_AT_ONCE // max(1, out.size))
        for start in range(0, k, step):
            terms = A[:, :, None, start : start + step] * Bt[:, None, :, start : start + step]
            terms[..., 0] += out  # the sum so far, then this block's terms in order
            out = np.add.accumulate(terms, axis=-1)[..., -1]
    else:  # many sums: one term of each at a time, over blocks of sums small enough to stay in the cache
        rows = max(1, OUTPUTS_AT_ONCE // max(1, m))  # (L, n) rows of a block: whole L's when n·m is small
        ls, ns = (max(1, rows // n), n) if rows >= n else (1, rows)
        for l0 in range(0, A.shape[0], ls):
            for n0 in range(0, n, ns):
                block = out[l0 : l0 + ls, n0 : n0 + ns]
                At = np.ascontiguousarray(np.moveaxis(A[l0 : l0 + ls, n0 : n0 + ns], -1, 0))  # term j of each row
                term = np.empty_like(block)
                for j in range(k):
                    np.multiply(At[j, :, :, None], B[l0 : l0 + ls, None, j], out=term)
                    block += term
    return out.reshape(*lead, n, m) + 0.0


# fdlibm's e_exp.c (Sun Microsystems, 1993; as in V8's ieee754.cc): x = k·ln2 + r, |r| ≤ ln2/2, r = hi − lo;
# e^r from a rational approximation; e^x = 2^k · e^r. Its constants go to the page as data (LOOK.exp).
EXP = {
    "ln2Hi": 6.93147180369123816490e-01, "ln2Lo": 1.90821492927058770002e-10, "invLn2": 1.44269504088896338700e00,
    "p": [1.66666666666666019037e-01, -2.77777777770155933842e-03, 6.61375632143793436117e-05,
          -1.65339022054652515390e-06, 4.13813679705723846039e-08],
    "over": 7.09782712893383973096e02, "under": -7.45133219101941108420e02,  # beyond these: ∞ and 0
    "halfLn2": 0.3465735912322998,  # |x| from here on is reduced (fdlibm: high word above 0x3FD62E42)
    "threeHalvesLn2": 1.0397205352783203,  # |x| below this, reduced: k = ±1 (high word below 0x3FF0A2B2)
}
_LN2_HI, _LN2_LO, _INV_LN2, _P = EXP["ln2Hi"], EXP["ln2Lo"], EXP["invLn2"], EXP["p"]
_OVER, _UNDER, _HALF_LN2, _THREE_HALVES_LN2 = EXP["over"], EXP["under"], EXP["halfLn2"], EXP["threeHalvesLn2"]
_TINY = math.ldexp(1.0, -28)  # |x| below this: 1 + x
_TWO_1023, _TWO_MINUS_1000 = math.ldexp(1.0, 1023), math.ldexp(1.0, -1000)


def exp(X):  # [...] -> [...]
    """e^x of each value, the same bits as compute.js's exp (fdlibm's algorithm, |error| < 1 ulp); a block of
    values at a time, so that its steps' arrays stay small (in the cache, and out of a trace's peak memory)."""
    x = np.asarray(X, dtype=float)
    out = np.empty(x.shape)
    flat, done = x.reshape(-1), out.reshape(-1)
    for start in range(0, flat.size, _EXP_AT_ONCE):
        done[start : start + _EXP_AT_ONCE] = _exp(flat[start : start + _EXP_AT_ONCE])
    return out if out.ndim else out[()]  # one number in, one number out, as np.exp gives


_EXP_AT_ONCE = 2**12
_ORDINARY = 708.0  # |x| up to here: 2^k is a normal number and one product scales e^r (fdlibm: k ≥ −1021)


def _exp(x):  # [n] -> [n]
    """fdlibm's branches, vectorised: for |x| < ln2/2 fdlibm takes k = 0 and a formula of its own, which is the
    general formula at k = 0 (hi = x, lo = 0) operation for operation, so one formula serves; the values beyond
    |x| ≤ 708 (and 1, and |x| < 2^-28, which fdlibm answers directly) are done apart."""
    ax = np.abs(x)
    with np.errstate(invalid="ignore"):
        k = np.trunc(_INV_LN2 * x + np.copysign(0.5, x))  # the nearest whole k to x / ln2
    near = ax < _THREE_HALVES_LN2
    if near.any():  # |x| < 1.5 ln2: k = ±1, or 0 below ln2 / 2
        k[near] = np.where(ax[near] < _HALF_LN2, 0.0, np.copysign(1.0, x[near]))
    ordinary = (ax <= _ORDINARY) & (ax >= _TINY) & (x != 1.0)  # False for NaN
    apart = not ordinary.all()
    if apart:
        k[~ordinary] = 0.0
    with np.errstate(all="ignore"):  # ±∞ and NaN, done apart, go through it too
        hi, lo = x - k * _LN2_HI, k * _LN2_LO
        r = hi - lo  # x − k·ln2, |r| ≤ ln2/2
        t = r * r
        c = r - t * (_P[0] + t * (_P[1] + t * (_P[2] + t * (_P[3] + t * _P[4]))))
        y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)  # e^r
    out = y * ((k.astype(np.int64) + 1023) << 52).view(np.float64)  # y · 2^k, exactly: 2^k's bits
    if apart:
        out[~ordinary] = _exp_apart(x[~ordinary])
    return out


def _exp_apart(x):  # [n] -> [n]: fdlibm's exp where |x| > 708, |x| < 2^-28, x = 1, ±∞ or NaN
    out = np.zeros(x.shape)  # e^x below 2^-1075 (a masked score's e^−∞ among them) rounds to 0
    rest = ~(x < _UNDER)
    if rest.any():
        out[rest] = _exp_edges(x[rest])
    return out


def _exp_edges(x):  # [n] -> [n]: _exp_apart's values that do not round to 0, by fdlibm's every branch
    with np.errstate(all="ignore"):  # ∞ and NaN go through the formula too; they are replaced below
        ax = np.abs(x)
        k = np.where(ax <= -_UNDER, np.trunc(_INV_LN2 * x + np.copysign(0.5, x)), 0.0)
        hi, lo = x - k * _LN2_HI, k * _LN2_LO
        r = hi - lo
        t = r * r
        c = r - t * (_P[0] + t * (_P[1] + t * (_P[2] + t * (_P[3] + t * _P[4]))))
        y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
        k = k.astype(np.int64)
        power = lambda n: ((np.clip(n, -1021, 1023) + 1023) << 52).view(np.float64)  # noqa: E731  2^n, exactly
        out = np.where(k == 1024, y * 2.0 * _TWO_1023, np.where(k >= -1021, y * power(k),
                                                                  y * power(k + 1000) * _TWO_MINUS_1000))
        for where, value in ((ax < _TINY, 1.0 + x), (x == 1.0, math.e), (x < _UNDER, 0.0), (x > _OVER, np.inf),
                             (np.isnan(x), x + x)):
            out = np.where(where, value, out)
    return out


# fdlibm's e_log.c (as in V8's ieee754.cc): x = 2^k · (1 + f), √2/2 < 1 + f < √2; log(1 + f) = f − s·(f − R),
# s = f / (2 + f), R a polynomial in s². Its constants go to the page as data (LOOK.log).
LOG = {
    "ln2Hi": 6.93147180369123816490e-01, "ln2Lo": 1.90821492927058770002e-10,
    "lg": [6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01,
           1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01],
}


def log(X):  # [...] -> [...]
    """The natural log of each value, the same bits as compute.js's log (fdlibm's algorithm, |error| < 1 ulp):
    log 0 = −∞, log ∞ = ∞, NaN for NaN and for a negative number."""
    x = np.asarray(X, dtype=float)
    with np.errstate(all="ignore"):
        tiny = (x > 0) & (x < 2.0**-1022)  # subnormal: scaled up by 2^54 first, exactly
        scaled = np.where(tiny, x * 2.0**54, x)
        word = scaled.view(np.uint64)
        hx, low = (word >> 32).astype(np.int64), (word & 0xFFFFFFFF).astype(np.int64)
        k = np.where(tiny, -54, 0) + (hx >> 20) - 1023
        hx = hx & 0xFFFFF
        i = (hx + 0x95F64) & 0x100000
        k = k + (i >> 20)
        f = ((((hx | (i ^ 0x3FF00000)) << 32) | low).astype(np.uint64)).view(np.float64) - 1.0  # x or x/2, less 1
        dk = k.astype(float)
        lg, hi, lo = LOG["lg"], LOG["ln2Hi"], LOG["ln2Lo"]
        R = f * f * (0.5 - 0.33333333333333333 * f)  # |f| < 2^-20
        near_one = np.where(f == 0, np.where(k == 0, 0.0, dk * hi + dk * lo),
                            np.where(k == 0, f - R, dk * hi - ((R - dk * lo) - f)))
        s = f / (2.0 + f)
        z = s * s
        w = z * z
        R = z * (lg[0] + w * (lg[2] + w * (lg[4] + w * lg[6]))) + w * (lg[1] + w * (lg[3] + w * lg[5]))
        hfsq = 0.5 * f * f
        wide = ((hx - 0x6147A) | (0x6B851 - hx)) > 0
        general = np.where(wide, np.where(k == 0, f - (hfsq - s * (hfsq + R)),
                                          dk * hi - ((hfsq - (s * (hfsq + R) + dk * lo)) - f)),
                           np.where(k == 0, f - s * (f - R), dk * hi - ((s * (f - R) - dk * lo) - f)))
        out = np.where((0xFFFFF & (2 + hx)) < 3, near_one, general)
        out = np.where(x == 0, -np.inf, np.where(x < 0, np.nan, np.where(np.isfinite(x), out, x + x)))
    return out if out.ndim else out[()]
