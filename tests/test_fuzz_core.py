"""Fuzzing the core's entry points: any input gives a result or a ValueError that names an argument, never
another exception, a NaN from finite input, or a hang."""

import re

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import attention_lab as al
from attention_lab.numeric import masks

NAMED = re.compile(r"^[A-Za-z_][\w, /]*: ")  # "Q: …", "mask: …", "K, V: …"

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**400, 10**400), st.floats(), st.complex_numbers(),
    st.text(max_size=4), st.just(...), st.just(np.nan), st.just(-np.inf),
)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=16)
small_ints = st.one_of(st.integers(-3, 10), scalars)


def matrices(max_T=4, max_d=6):
    return st.tuples(st.integers(1, max_T), st.integers(1, max_d)).flatmap(
        lambda s: st.lists(st.lists(st.integers(-3, 3), min_size=s[1], max_size=s[1]), min_size=s[0], max_size=s[0]))


def calls(fn, *args, **kwargs):  # -> result, or None after a well-formed ValueError
    try:
        return fn(*args, **kwargs)
    except ValueError as error:
        assert NAMED.match(str(error)), f"the message does not start with the argument's name: {error}"
        return None


def with_mask(mask, params):  # the fuzzed mask as a user writes one: Mask(name, **params), or the raw value
    return al.Mask(mask, **params) if params and isinstance(mask, str) else mask


# Every mask of the registry (a new one is fuzzed with no edit here), None, and a name that is none of them.
MASK_NAMES = st.sampled_from([*masks.MASK_NAMES, None, "x"])
PARAM_NAMES = sorted({p.name for kind in masks.MASKS.values() for p in kind.params})
MASK_PARAMS = st.dictionaries(st.sampled_from([*PARAM_NAMES, "align", "other"]),
                              st.one_of(small_ints, st.lists(small_ints, max_size=3)), max_size=2)

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.one_of(values, matrices()), st.one_of(values, matrices()), st.one_of(values, matrices()), small_ints,
       st.one_of(MASK_NAMES, values), MASK_PARAMS, st.one_of(st.none(), small_ints))
def test_attention_trace_accepts_or_names_the_problem(Q, K, V, h, mask, params, kv_heads):
    tr = calls(lambda: al.attention_trace(Q, K, V, h, with_mask(mask, params), kv_heads=kv_heads))
    if tr is not None:
        assert np.isfinite(tr.H).all() and np.isfinite(tr.P).all()
        assert not any(np.isnan(array).any() for array in tr.arrays().values())  # every stage, a new one too


@FUZZ
@given(st.one_of(small_ints, st.integers(2**20, 2**30)), st.one_of(small_ints, st.integers(2**10, 2**30)), small_ints,
       st.one_of(st.integers(-2, 2**64), scalars))
def test_examples_accept_or_name_the_problem(T, d, h, seed):
    for fn, args, kwargs in ((al.random_example, (T, d, h, seed), {}), (al.random_qkv, (T, d, seed), {}),
                             (al.article_example, (), {"T": T, "d": d, "h": h})):
        result = calls(fn, *args, **kwargs)  # examples refuse more than 2**24 values per matrix: no hang
        Q = result[0] if isinstance(result, tuple) else getattr(result, "Q", None)
        if Q is not None:
            assert np.isin(Q, np.arange(-2, 3)).all()


@FUZZ
@given(st.one_of(values, matrices()), st.one_of(values, matrices()), small_ints)
def test_stage_functions_accept_or_name_the_problem(A, B, n):
    for fn, args in ((al.softmax, (A,)), (al.exponentials, (A,)), (al.scores, (A, B)), (al.scale, (A, n)),
                     (al.apply_mask, (A, B)), (al.weighted_sum, (A, B)), (al.split_heads, (A, n)),
                     (al.concat_heads, (A,)), (al.make_mask, (A, 3))):
        calls(fn, *args)


@FUZZ
@given(st.one_of(values, matrices()), st.one_of(values, matrices()), st.one_of(values, matrices()), small_ints,
       st.one_of(small_ints, st.integers(2**40, 2**80)),
       st.one_of(MASK_NAMES, values), MASK_PARAMS, st.one_of(st.none(), small_ints))
def test_decoding_and_blockwise_attention_accept_or_name_the_problem(Q, K, V, h, block, mask, params, kv_heads):
    H = calls(lambda: al.blockwise_attention(Q, K, V, h, block, with_mask(mask, params), kv_heads))
    if H is not None:
        assert np.isfinite(H).all()
    steps = calls(lambda: al.blockwise_steps(Q, K, V, h, block, with_mask(mask, params), kv_heads))
    if steps is not None:
        assert all(np.isfinite(s.O).all() and not np.isnan(s.rescale).any() for s in steps)
    H = calls(al.decode_with_cache, Q, K, V, h, kv_heads)
    if H is not None:
        assert np.isfinite(H).all()


@FUZZ
@given(st.one_of(small_ints, st.integers(2**20, 2**40)), st.one_of(small_ints, st.integers(2**10, 2**30)),
       small_ints, st.one_of(st.none(), small_ints), st.lists(st.one_of(small_ints, st.integers(2**40, 2**80)),
                                                              min_size=5, max_size=5))
def test_costs_and_cache_sizes_accept_or_name_the_problem(T, d, h, kv_heads, sizes):
    costs = calls(al.generation_cost, T, d, h, kv_heads)  # refuses more than 2**20 steps: no hang
    if costs is not None:
        assert len(costs) == T and all(c.macs_without_cache >= c.macs_with_cache > 0 for c in costs)
    size = calls(al.kv_cache_bytes, *sizes)
    if size is not None:
        assert isinstance(size, int) and size > 0
