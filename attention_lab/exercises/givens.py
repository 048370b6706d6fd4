"""What the banks' exercises give the learner's function: the article's trace, and examples the learner does not see.

`trace()` is the usual one: the learner writes `answer = lambda tr: …`; the checker calls it on the article's
example and on random examples of the same sizes (other numbers), so numbers typed in, variables made earlier
and wrong methods that match the article's numbers by chance all fail there. `trace(sizes=True)` adds examples
of other sizes, for answers that depend on T, d or h. `values(names, shown, *hidden)` gives plain arguments.
The seeds are chosen so that every known mistake of every exercise differs from the answer on some hidden case
(tests/test_exercises.py checks it).
"""

from functools import cache

from ..numeric.examples import article_example, random_example
from .define import Given

SEEDS = (11, 23)  # the hidden examples of the article's sizes
OTHER_SIZES = ((4, 12, 3), (5, 8, 4))  # (T, d, h) of the hidden examples of other sizes


@cache
def example(mask="causal", T=3, d=8, h=2, seed=None, kv_heads=None):  # -> AttentionTrace (kept: traces are read-only)
    """The article's example (seed None) or a random example of small integers, with this mask and sizes."""
    if seed is None:
        return article_example(mask=mask, T=T, d=d, h=h, kv_heads=kv_heads)
    return random_example(T, d, h, seed=seed, mask=mask, kv_heads=kv_heads)


def trace(mask="causal", *, T=3, sizes=False, name="tr"):  # -> Given
    """The learner's function takes one trace: the article's example grown to T tokens (with `mask`) is shown;
    random examples of the same sizes, and with sizes=True of other sizes, are not."""
    def hidden():
        same = [(example(mask, T, seed=seed),) for seed in SEEDS]
        return same + ([(example(mask, *size, seed=SEEDS[0]),) for size in OTHER_SIZES] if sizes else [])

    return Given((name,), lambda: (example(mask, T),), hidden)


def values(names, shown, *hidden):  # -> Given: plain arguments, e.g. values(("d", "h"), (512, 8), (768, 12))
    return Given(tuple(names), lambda: tuple(shown), lambda: tuple(tuple(case) for case in hidden))
