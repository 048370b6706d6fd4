"""Every number the article states, from al.article_example(), one by one."""

import numpy as np
import pytest

import attention_lab as al

HEAD1 = 0  # the article's Head 1; token numbers below are the article's (1-based) minus 1


@pytest.fixture(scope="module")
def tr():
    return al.article_example()


def test_sizes(tr):
    assert (tr.T, tr.d, tr.h, tr.dh) == (3, 8, 2, 4)
    assert tr.Q.shape == tr.K.shape == tr.V.shape == (3, 8)
    assert tr.Qh.shape == tr.Kh.shape == tr.Vh.shape == (2, 3, 4)
    assert tr.S.shape == tr.S_scaled.shape == tr.S_masked.shape == tr.P.shape == (2, 3, 3)
    assert tr.M.shape == (3, 3)
    assert tr.O.shape == (2, 3, 4)
    assert tr.H.shape == (3, 8)


def test_head1_takes_the_first_four_components(tr):
    np.testing.assert_array_equal(tr.Qh[0], tr.Q[:, :4])
    np.testing.assert_array_equal(tr.Qh[1], tr.Q[:, 4:])


def test_query_of_token3_and_key_of_token1(tr):
    np.testing.assert_array_equal(tr.Qh[HEAD1, 2], [-1, 1, 1, 2])
    np.testing.assert_array_equal(tr.Kh[HEAD1, 0], [1, -1, 2, 1])


def test_one_score_is_a_dot_product(tr):
    q, k = tr.Qh[HEAD1, 2], tr.Kh[HEAD1, 0]
    assert -1 * 1 + 1 * (-1) + 1 * 2 + 2 * 1 == 2
    assert q @ k == 2
    assert tr.S[HEAD1, 2, 0] == 2  # row 3 (Query token 3), column 1 (Key token 1)


def test_row3_of_S(tr):
    np.testing.assert_array_equal(tr.S[HEAD1, 2], [2, 0, 6])


def test_scaled_rows(tr):
    np.testing.assert_array_equal(tr.S_scaled[HEAD1, 2], [1, 0, 3])
    np.testing.assert_array_equal(tr.S_scaled[HEAD1, 1], [3, 1.5, -1])
    assert tr.S_scaled[HEAD1, 2, 0] == 1  # the highlighted score 2 becomes 1


def test_mask(tr):
    np.testing.assert_array_equal(tr.M, [[0, -np.inf, -np.inf], [0, 0, -np.inf], [0, 0, 0]])
    np.testing.assert_array_equal(tr.S_masked[HEAD1, 1], [3, 1.5, -np.inf])
    np.testing.assert_array_equal(tr.S_masked[HEAD1, 2], [1, 0, 3])


def test_weights(tr):
    np.testing.assert_array_equal(tr.P[HEAD1, 0], [1, 0, 0])
    np.testing.assert_array_equal(tr.P[HEAD1, 1].round(3), [0.818, 0.182, 0])
    np.testing.assert_array_equal(tr.P[HEAD1, 2].round(3), [0.114, 0.042, 0.844])
    assert tr.P[HEAD1, 1, 2] == 0.0  # masked: exactly zero, not merely small
    e = np.exp([1, 0, 3])
    np.testing.assert_allclose(tr.P[HEAD1, 2], e / e.sum())


def test_values_end_in_one(tr):
    np.testing.assert_array_equal(tr.Vh[HEAD1, :, -1], [1, 1, 1])


def test_output_of_token3(tr):
    np.testing.assert_array_equal(tr.O[HEAD1, 2].round(3), [0.114, 0.042, 0.844, 1])
    p = tr.P[HEAD1, 2]
    v = tr.Vh[HEAD1]
    np.testing.assert_allclose(tr.O[HEAD1, 2], p[0] * v[0] + p[1] * v[1] + p[2] * v[2])


def test_output_of_token1_is_its_own_value(tr):
    np.testing.assert_array_equal(tr.O[HEAD1, 0], tr.Vh[HEAD1, 0])


def test_concat_puts_each_head_in_its_columns(tr):
    np.testing.assert_array_equal(tr.H[:, :4], tr.O[0])
    np.testing.assert_array_equal(tr.H[:, 4:], tr.O[1])


def test_head2_is_a_different_example(tr):
    assert not np.array_equal(tr.Qh[1], tr.Qh[0])
    assert not np.allclose(tr.P[1], tr.P[0])
    assert np.isin(tr.Q, np.arange(-2, 3)).all()  # small readable integers


def test_readme_snippet():
    tr = al.article_example()
    np.testing.assert_array_equal(tr.S[0, 2], [2, 0, 6])
    np.testing.assert_array_equal(tr.P[0].round(3), [[1, 0, 0], [0.818, 0.182, 0], [0.114, 0.042, 0.844]])
