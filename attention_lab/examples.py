"""The article's worked example, and seeded random examples of any size."""

import numpy as np

from .trace import attention_trace, check_sizes

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


def article_example(mask="causal"):  # -> AttentionTrace with T=3, d=8, h=2
    """The trace of the article's example (T=3, d=8, h=2), causal mask by default."""
    return attention_trace(ARTICLE_Q, ARTICLE_K, ARTICLE_V, h=2, mask=mask)


# Random examples are cut from one fixed pool per seed, so that growing T adds
# a token without changing the others (and growing d adds columns): a learner
# who moves a slider sees the effect of that change alone.
_POOL_T, _POOL_D = 32, 128


def random_qkv(T, d, seed=0, low=-2, high=2):  # -> [T, d], [T, d], [T, d]
    """Q, K, V of small integers in [low, high], the same for the same seed."""
    check_sizes(T, d, 1)
    if low > high:
        raise ValueError(f"low, high: need low ≤ high, got low={low}, high={high}.")
    rng = np.random.default_rng(seed)
    rows, cols = max(T, _POOL_T), max(d, _POOL_D)
    pool = rng.integers(low, high + 1, size=(3, rows, cols))  # (Q|K|V, T, d)
    Q, K, V = pool[:, :T, :d]
    return Q, K, V


def random_example(T, d, h, seed=0, mask="causal"):  # -> AttentionTrace
    """A deterministic trace for any valid sizes: Q, K, V of small integers from `seed`."""
    check_sizes(T, d, h)
    Q, K, V = random_qkv(T, d, seed)
    return attention_trace(Q, K, V, h=h, mask=mask)
