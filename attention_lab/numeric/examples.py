"""The article's worked example, and seeded examples of any size that grow from it.

Every value of an example is defined by where it sits — (matrix, token,
head, component) — never by its column of Q, K, V. So a slider changes only
what it governs: growing T adds tokens, growing h adds heads, growing dh adds
components to every head, and nothing already on screen changes. Any sequence
of moves that comes back to the same sizes shows the same numbers.

The article's example is the corner every size grows from: at any T, h, dh,
`article_example(T=…, d=…, h=…)` keeps the article's numbers for tokens 1–3,
Heads 1–2 and components 1–4, and fills the rest with small integers.
"""

import numpy as np

from . import checks
from .calls import named_arguments
from .trace import attention_trace, check_fits

# The article's example: T=3, d=8, h=2, dh=4. Columns 0-3 are Head 1, 4-7 Head 2.
# Head 1 is chosen so that every number in the article comes out exactly:
#   Query of token 3 = [−1, 1, 1, 2], Key of token 1 = [1, −1, 2, 1], their score 2;
#   S row 3 = [2, 0, 6]; S/√dh rows 2, 3 = [3, 1.5, −1], [1, 0, 3];
#   Values one-hot with last component 1, so token 3's output is [P31, P32, P33, 1].
# Head 2 is a different example: each token looks mostly at the token before it.
ARTICLE_Q = np.array([
    #  Head 1          Head 2
    [1, 0, 1, 0,    0, 0, 2, 0],
    [1, -1, 2, 0,   2, 0, 0, 0],
    [-1, 1, 1, 2,   0, 2, 0, 0],
])
ARTICLE_K = np.array([
    [1, -1, 2, 1,   2, 0, 0, 1],
    [1, 0, 1, 0,    0, 2, 0, 1],
    [0, 2, 0, 2,    0, 0, 2, 1],
])
ARTICLE_V = np.array([
    [1, 0, 0, 1,    2, 0, -1, 1],
    [0, 1, 0, 1,    0, 2, 1, -1],
    [0, 0, 1, 1,    1, 1, 0, 0],
])
ARTICLE_SIZES = {"T": 3, "d": 8, "h": 2}
# The article's values by (token, head, component), the corner that every size keeps: (3, 2, 4) each.
ARTICLE_CORNER = {name: X.reshape(3, 2, 4) for name, X in (("Q", ARTICLE_Q), ("K", ARTICLE_K), ("V", ARTICLE_V))}
_MATRIX_INDEX = {"Q": 0, "K": 1, "V": 2}
ARTICLE_STREAM = 2**64 - 1  # the article's fill beyond its corner: a stream no seed (< 2⁶³) can name
BYTES_PER_VALUE = 5 * 8  # peak bytes per (token, component) while Q, K, V are made (tracemalloc: 40.0)
VALUE_RANGE = (-2, 2)  # (low, high): the whole numbers an example's values are drawn from, the page's as well
_LOW, _HIGH = VALUE_RANGE
MAX_MAGNITUDE = 2**53  # low and high: every whole number up to 2⁵³ is exact in float64


def _mix(x):  # uint64 array -> uint64 array
    """SplitMix64's finaliser: a well-spread 64-bit hash of each entry (wrap-around multiplication is intended)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def cell_values(stream, matrix, T, heads, dh, low=_LOW, high=_HIGH):  # -> [T, heads, dh] ints in [low, high]
    """The value at every (token, head, component) of one matrix, a pure function of where it sits.

    stream: a seed (or the article's fill); matrix: 0, 1, 2 for Q, K, V.
    """
    key = np.full((1, 1, 1), stream, dtype=np.uint64)
    for coordinate in (np.full((1, 1, 1), matrix), np.arange(T)[:, None, None], np.arange(heads)[None, :, None],
                       np.arange(dh)[None, None, :]):
        key = _mix(key ^ (coordinate.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)))
    return (key % np.uint64(high - low + 1)).astype(np.int64) + low  # (T, heads, dh)


def _grid(name, stream, T, heads, dh, low, high, corner=None):  # -> [T, heads*dh]
    values = cell_values(stream, _MATRIX_INDEX[name], T, heads, dh, low, high)  # (T, heads, dh)
    if corner is not None:
        t, g, c = np.minimum((T, heads, dh), corner.shape)  # the corner's part that these sizes hold
        values[:t, :g, :c] = corner[:t, :g, :c]
    return values.reshape(T, heads * dh)


def _sizes(T, d, h, kv_heads):  # -> (T, d, h, dh, g) as ints, after checking
    T, d, h = checks.sizes(T, d, h)
    what = f"an example of T={checks.count_text(T)} tokens × d={checks.count_text(d)} components"
    checks.fits("T, d", BYTES_PER_VALUE * T * d, what, "use smaller T or d.")
    return T, d, h, d // h, checks.kv_heads(kv_heads, h)


@named_arguments
def example_qkv(T, d, h, seed=None, kv_heads=None, low=_LOW, high=_HIGH):  # -> [T, d], [T, g*dh], [T, g*dh]
    """Q, K, V of small integers defined per (token, head, component); seed=None is the article's example grown.

    K and V have kv_heads (g) heads of dh components, g = h unless given.
    """
    T, d, h, dh, g = _sizes(T, d, h, kv_heads)
    stream = ARTICLE_STREAM if seed is None else checks.seed(seed)
    bounds = (-MAX_MAGNITUDE, MAX_MAGNITUDE, " Values up to ±2⁵³ are whole numbers exactly, as floats.")
    low, high = checks.whole_number("low", low, *bounds), checks.whole_number("high", high, *bounds)
    if low > high:
        raise ValueError(f"low, high: need low ≤ high, got low={low}, high={high}.")
    corner = ARTICLE_CORNER if seed is None else {}
    return (_grid("Q", stream, T, h, dh, low, high, corner.get("Q")),
            _grid("K", stream, T, g, dh, low, high, corner.get("K")),
            _grid("V", stream, T, g, dh, low, high, corner.get("V")))


@named_arguments
def random_qkv(T, d, seed=0, low=_LOW, high=_HIGH, h=1):  # -> [T, d], [T, d], [T, d]
    """Q, K, V of small integers in [low, high], the same for the same seed.

    Each value depends only on its (token, head, component) for h heads, so a
    larger T adds rows and a larger d adds columns (with h=1) or components to
    every head, leaving the values already there unchanged, at every size.
    """
    return example_qkv(T, d, h, seed=checks.seed(seed), low=low, high=high)


def _example(seed, mask, T, d, h, kv_heads, queries):  # -> AttentionTrace
    T, d, h = checks.sizes(T, d, h)
    T_q = T if queries is None else checks.whole_number("queries", queries, 1, T, " The Query rows are those of "
                                                        "the last `queries` tokens.")
    check_fits(h, T_q, T, "T")  # before Q, K, V are made
    Q, K, V = example_qkv(T, d, h, seed=seed, kv_heads=kv_heads)
    return attention_trace(Q[T - T_q:], K, V, h=h, mask=mask, kv_heads=kv_heads)


@named_arguments
def article_example(mask="causal", *, T=3, d=8, h=2, kv_heads=None, queries=None):  # -> AttentionTrace
    """The trace of the article's example (T=3, d=8, h=2), causal mask by default.

    Other sizes grow the article's example: tokens 1–3, Heads 1–2 and
    components 1–4 keep the article's numbers; the rest are small integers.
    queries=n keeps the Query rows of the last n tokens only (a decode step is
    n = 1, a chunk of new tokens n > 1): S and P are then (h, n, T).
    mask: a name, None, or a Mask, e.g. Mask("sliding", window=2).
    """
    return _example(None, mask, T, d, h, kv_heads, queries)


@named_arguments
def random_example(T, d, h, seed=0, mask="causal", *, kv_heads=None, queries=None):  # -> AttentionTrace
    """A deterministic trace for any valid sizes: Q, K, V of small integers from `seed`.

    Each value depends only on its (token, head, component), as in `example_qkv`.
    """
    return _example(checks.seed(seed), mask, T, d, h, kv_heads, queries)
