"""numeric/exact.py, the arithmetic under core.py's stages (issue 50): on the article it gives what the article's
formulas give in plain NumPy (split, Q @ K.T, / sqrt(dh), + M, softmax, P @ V, concat); near the float limit it
gives a float where plain NumPy overflows on the way to one."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import mask_specs
from test_fuzz_cases import READS, limit_problems
from test_fuzz_core import matrices

import attention_lab as al
from attention_lab.numeric import core, exact
from attention_lab.numeric.checks import divisors


@pytest.fixture(scope="module")
def tr():
    return al.article_example()


def plain_softmax(S):  # [..., T_k] -> [..., T_k]: the article's formula, with NumPy's exp and sum
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def test_on_the_article_every_stage_is_the_articles_formula_in_plain_numpy(tr):
    Qh, Kh, Vh = (X.reshape(tr.T, tr.h, tr.dh).transpose(1, 0, 2) for X in (tr.Q, tr.K, tr.V))  # split
    S = Qh @ Kh.transpose(0, 2, 1)
    np.testing.assert_array_equal(tr.S, S)  # whole numbers: every order of the sum gives the same
    np.testing.assert_array_equal(tr.S_scaled, S / np.sqrt(tr.dh))
    np.testing.assert_array_equal(tr.S_masked, S / np.sqrt(tr.dh) + tr.M)
    P = plain_softmax(tr.S_masked)
    np.testing.assert_allclose(tr.P, P, rtol=4e-16, atol=0)  # exp and the sums may differ in the last bit
    np.testing.assert_allclose(tr.O, P @ Vh, rtol=1e-15, atol=1e-16)
    np.testing.assert_array_equal(tr.H, tr.O.transpose(1, 0, 2).reshape(tr.T, tr.d))  # concat


def test_a_sum_that_overflows_on_the_way_to_a_float_gives_the_float():
    A, B = np.array([[1.0, 1.0, -1.0]]), np.full((3, 1), 1.5e308)
    with np.errstate(over="ignore", invalid="ignore"):
        assert not np.isfinite(A @ B).all()  # plain NumPy: 1.5e308 + 1.5e308 is ∞ before − 1.5e308
    assert exact.products(A, B).tolist() == [[1.5e308]]
    assert core.scores(A, B.T).tolist() == [[1.5e308]]  # core's stage gives exact's where its own overflows


def test_weights_average_values_near_the_limit_within_them_and_rows_near_it_normalise():
    P, V = np.array([[0.5, 0.5]]), np.array([[1.7e308], [1.7e308]])
    assert exact.products(P, V, weights=True).tolist() == [[1.7e308]]
    E = np.array([[1.5e308, 1.5e308], [1.0, 0.0], [0.0, 0.0]])
    with np.errstate(over="ignore"):
        assert not np.isfinite(E.sum(axis=-1)).all()  # plain NumPy: the first row's sum is ∞
    assert exact.normalized(E).tolist() == [[0.5, 0.5], [1.0, 0.0], [0.0, 0.0]]  # a row of zeros stays 0


# ---- core's plain NumPy equals exact's (the trace's, the page's) on the article and on the fuzz catalogue ---------
# Each bound is the textbook one for a sum of n terms in another order (n·eps of the sum of the terms' sizes, on
# each side), and ≤ 2 ulp per exp (NumPy's and fdlibm's are each within 1): no looser than the arithmetic allows.

EPS = np.finfo(float).eps
BIG = np.finfo(float).max
FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_within(found, expected, bound, name):  # |found − expected| ≤ bound, entry by entry; ±∞ and NaN equal
    same = (found == expected) | (np.isnan(found) & np.isnan(expected))
    with np.errstate(invalid="ignore"):  # ∞ − ∞ where both are ∞: `same` holds them
        close = np.abs(np.ldexp(found, -8) - np.ldexp(expected, -8)) <= np.ldexp(bound, -8)  # no ∞ near the limit
    assert (same | close).all(), f"{name}: core {found[~(same | close)]} vs exact {expected[~(same | close)]}"


def sum_of_sizes(A, B):  # -> |A| @ |B| without overflowing: each entry bounds the terms of one entry of A @ B
    with np.errstate(over="ignore"):
        return np.ldexp(np.abs(A) @ np.ldexp(np.abs(B), -16), 16)  # as a float it may be ∞, then every bound holds


def assert_core_equals_exact(tr):  # every stage of core, from the trace's own inputs, against the trace (exact)
    kv = core.kv_head_index(tr.h, tr.kv_heads)
    Kh, Vh = tr.Kh[kv], tr.Vh[kv]  # (h, T_k, dh): the K/V head each Query head reads
    n = max(tr.dh, tr.T_k)
    np.testing.assert_array_equal(core.split_heads(tr.Q, tr.h), tr.Qh)
    assert_within(core.scores(tr.Qh, Kh), tr.S, 2 * n * EPS * sum_of_sizes(tr.Qh, Kh.swapaxes(-1, -2)), "S")
    np.testing.assert_array_equal(core.scale(tr.S, tr.dh), tr.S_scaled)
    np.testing.assert_array_equal(core.apply_mask(tr.S_scaled, tr.M), tr.S_masked)
    assert_within(core.row_exponentials(tr.S_masked), tr.E, 2 * EPS * tr.E + 1e-300, "E")  # 1e-300: subnormals
    assert_within(core.softmax(tr.S_masked), tr.P, (2 * n + 6) * EPS * tr.P + 1e-300, "P")
    assert_within(core.weighted_sum(tr.P, Vh), tr.O, 2 * n * EPS * sum_of_sizes(tr.P, Vh), "O")
    np.testing.assert_array_equal(core.concat_heads(tr.O), tr.H)


def test_on_the_article_core_equals_exact_and_is_exact_on_its_integers(tr):
    assert_core_equals_exact(tr)
    np.testing.assert_array_equal(core.scores(tr.Qh, tr.Kh), tr.S)  # whole numbers: every order gives them
    np.testing.assert_array_equal(core.softmax(tr.S_masked[:, :1]), tr.P[:, :1])  # token 1 sees only itself: 1


@FUZZ
@given(limit_problems())
def test_on_the_fuzz_catalogue_near_the_float_limit_core_equals_exact(problem):
    Q, K, V, h, g, mask, _ = problem
    assert_core_equals_exact(al.attention_trace(Q, K, V, h, mask, kv_heads=g))


@FUZZ
@given(st.integers(1, 3), st.integers(1, 8), st.integers(1, 4), st.sampled_from([1, 1e3, 1e150]),
       st.integers(0, 2**32), st.data())
def test_on_fuzzed_problems_of_every_mask_core_equals_exact(h, T, dh, size, seed, data):
    rng = np.random.default_rng(seed)
    Q, K, V = (rng.normal(0, 1, (T, h * dh)) * size for _ in "QKV")
    assert_core_equals_exact(al.attention_trace(Q, K, V, h, data.draw(mask_specs(T))))


@FUZZ
@given(matrices(), st.data())
def test_on_the_fuzzed_integer_matrices_core_equals_exact(Q, data):
    Q = np.array(Q, dtype=float)
    T, d = Q.shape
    h = data.draw(st.sampled_from(divisors(d)))
    tr = al.attention_trace(Q, Q[::-1], Q * 2, h, data.draw(mask_specs(T)))
    assert_core_equals_exact(tr)
    np.testing.assert_array_equal(core.scores(tr.Qh, tr.Kh), tr.S)  # small integers: every order sums exactly


@pytest.mark.parametrize("name", ["scores", "row_exponentials", "normalize_rows", "softmax", "exponentials",
                                  "weighted_sum"])
def test_on_the_catalogue_of_entry_points_each_stage_of_core_is_exacts(name):
    call, arrays = READS[name]
    np.testing.assert_allclose(call(**arrays), getattr(exact, name)(*arrays.values()), rtol=4 * EPS, atol=0)


def test_where_plain_numpy_overflows_on_the_way_core_gives_exacts_float():
    P, V = np.full((1, 11), 1 / 11), np.full((11, 1), BIG)  # the average of 11 Values, each the largest float
    with np.errstate(over="ignore"):
        assert not np.isfinite(P @ V).all()  # eleven (BIG / 11)s, each rounded, sum past the limit
    assert core.weighted_sum(P, V).tolist() == exact.weighted_sum(P, V).tolist() == [[BIG]]
    E = np.full((1, 2), BIG)
    assert core.normalize_rows(E).tolist() == exact.normalize_rows(E).tolist() == [[0.5, 0.5]]


def test_core_is_the_articles_plain_numpy_bit_for_bit():  # exact's sums are another order: these differ from it
    rng = np.random.default_rng(50)
    Qh, Kh, Vh = (rng.normal(0, 1, (2, 6, 64)) for _ in "QKV")
    S = core.scores(Qh, Kh)
    np.testing.assert_array_equal(S, Qh @ Kh.swapaxes(-1, -2))
    assert not np.array_equal(S, exact.scores(Qh, Kh))
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    np.testing.assert_array_equal(core.softmax(S), E / E.sum(axis=-1, keepdims=True))
    P = core.softmax(S)
    np.testing.assert_array_equal(core.weighted_sum(P, Vh), P @ Vh)
    assert not np.array_equal(core.weighted_sum(P, Vh), exact.weighted_sum(P, Vh))
