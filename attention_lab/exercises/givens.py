"""What the banks' exercises give the learner's function: the article's trace, and examples the learner does not see.

`trace()` is the usual one: the learner writes `answer = lambda tr: …`; the checker calls it on the article's
example and on random examples the learner does not see: the same sizes with other numbers, and other sizes
(other T, h and dh = 6, 3, 2, so a √dh or a slice typed in fails). `trace(withhold="S")` hands out only the
stages before S (the task says "compute S"). `values(names, shown, *hidden)` gives plain arguments, each handed
as a fresh read-only copy. The examples are chosen so that every wrong answer in an exercise's catalogue differs
from the answer on some case (tests/test_exercises.py checks it).
"""

from functools import cache

from ..numeric.examples import article_example, random_example
from ..numeric.trace import ARRAYS
from .define import Given

SEEDS = (11, 23)  # the hidden examples of the shown sizes
OTHER_SIZES = ((4, 12, 2), (5, 6, 2), (4, 16, 4))  # (T, d, h) of the hidden examples of other sizes: dh 6, 3, 4


@cache
def example(mask="causal", T=3, d=8, h=2, seed=None, kv_heads=None):  # -> AttentionTrace (kept: traces are read-only)
    """The article's example (seed None) or a random example of small integers, with this mask and sizes."""
    if seed is None:
        return article_example(mask=mask, T=T, d=d, h=h, kv_heads=kv_heads)
    return random_example(T, d, h, seed=seed, mask=mask, kv_heads=kv_heads)


def trace(mask="causal", *, T=3, withhold=None, forbid=(), two_heads=False, name="tr"):  # -> Given
    """The learner's function takes one trace: the article's example grown to T tokens (with `mask`) is shown;
    random examples of the same sizes and of other sizes are not. withhold="S": the answer may read only the
    stages before S (and the sizes); forbid=(softmax, …): it may not reach these functions, by any name;
    two_heads=True: every example has h = 2, as the task says (its other sizes still vary dh)."""
    def hidden():
        sizes = [size for size in OTHER_SIZES if size[2] == 2 or not two_heads]
        return [(example(mask, T, seed=seed),) for seed in SEEDS] + [
            (example(mask, T + size[0] - 3, *size[1:], seed=SEEDS[0]),) for size in sizes]  # as many more as 3

    fields = None if withhold is None else ARRAYS[:ARRAYS.index(withhold)]
    return Given((name,), lambda: (example(mask, T),), hidden, fields, tuple(forbid))


def values(names, shown, *hidden, forbid=()):  # -> Given: plain arguments, e.g. values(("d", "h"), (512, 8), (768, 12))
    return Given(tuple(names), lambda: tuple(shown), lambda: tuple(tuple(case) for case in hidden), None, forbid)
