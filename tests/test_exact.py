"""numeric/exact.py, the arithmetic under core.py's stages (issue 50): on the article it gives what the article's
formulas give in plain NumPy (split, Q @ K.T, / sqrt(dh), + M, softmax, P @ V, concat); near the float limit it
gives a float where plain NumPy overflows on the way to one."""

import numpy as np
import pytest

import attention_lab as al
from attention_lab.numeric import core, exact


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
    assert core.scores(A, B.T).tolist() == [[1.5e308]]  # the stage uses it


def test_weights_average_values_near_the_limit_within_them_and_rows_near_it_normalise():
    P, V = np.array([[0.5, 0.5]]), np.array([[1.7e308], [1.7e308]])
    assert exact.products(P, V, weights=True).tolist() == [[1.7e308]]
    E = np.array([[1.5e308, 1.5e308], [1.0, 0.0], [0.0, 0.0]])
    with np.errstate(over="ignore"):
        assert not np.isfinite(E.sum(axis=-1)).all()  # plain NumPy: the first row's sum is ∞
    assert exact.normalized(E).tolist() == [[0.5, 0.5], [1.0, 0.0], [0.0, 0.0]]  # a row of zeros stays 0
