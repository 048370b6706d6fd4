"""Examples grow from the article's corner: a control changes only what it governs, at every size and seed."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_lab as al
from attention_lab.numeric import examples as examples


def by_position(X, heads, dh):  # [T, heads*dh] -> [T, heads, dh]
    return X.reshape(X.shape[0], heads, dh)


def test_the_article_example_is_the_articles_numbers():  # as the article's text writes them (figures 2, 4, 5)
    tr = al.article_example()
    assert tr.Q[2, :4].tolist() == [-1, 1, 1, 2] and tr.K[0, :4].tolist() == [1, -1, 2, 1]  # token 3, token 1
    assert tr.S[0, 2].tolist() == [2, 0, 6] and tr.S_scaled[0, 2].tolist() == [1, 0, 3]
    assert tr.P[0, 2].round(3).tolist() == [0.114, 0.042, 0.844] and tr.P[0, 0].tolist() == [1, 0, 0]
    assert tr.O[0, 2].round(3).tolist() == [0.114, 0.042, 0.844, 1]


sizes = st.tuples(st.integers(1, 20), st.integers(1, 8), st.integers(1, 8))  # T, h, dh


@settings(max_examples=120, deadline=None)
@given(sizes)
def test_at_every_size_the_article_keeps_its_corner(size):
    T, h, dh = size
    tr = al.article_example(T=T, d=h * dh, h=h)
    t, g, c = min(T, 3), min(h, 2), min(dh, 4)
    for name, article in (("Q", examples.ARTICLE_Q), ("K", examples.ARTICLE_K), ("V", examples.ARTICLE_V)):
        grown = by_position(getattr(tr, name), h, dh)
        np.testing.assert_array_equal(grown[:t, :g, :c], by_position(article, 2, 4)[:t, :g, :c])
        assert np.isin(grown, np.arange(-2, 3)).all()


@settings(max_examples=60, deadline=None)
@given(st.lists(sizes, min_size=2, max_size=8), st.one_of(st.none(), st.integers(0, 2**63 - 1)))
def test_any_sequence_of_moves_that_comes_back_shows_the_same_numbers(moves, seed):
    def qkv(T, h, dh):
        return examples.example_qkv(T, h * dh, h, seed=seed)

    first = qkv(*moves[0])
    for T, h, dh in moves[1:]:  # each move: what it keeps of the previous picture is unchanged
        now = qkv(T, h, dh)
        before = qkv(*moves[0])
        T0, h0, dh0 = moves[0]
        t, g, c = min(T, T0), min(h, h0), min(dh, dh0)
        for a, b in zip(now, before, strict=True):
            np.testing.assert_array_equal(by_position(a, h, dh)[:t, :g, :c], by_position(b, h0, dh0)[:t, :g, :c])
    for a, b in zip(qkv(*moves[0]), first, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(("small", "big"), [((32, 8), (33, 8)), ((4, 128), (4, 200)), ((40, 130), (41, 131))])
def test_random_qkv_grows_by_tokens_and_columns_at_every_size(small, big):
    for a, b in zip(al.random_qkv(*small, seed=3), al.random_qkv(*big, seed=3), strict=True):
        np.testing.assert_array_equal(b[:small[0], :small[1]], a)


def test_growing_dh_adds_components_to_every_head():
    a = al.random_example(T=4, d=6, h=2, seed=5)  # dh = 3
    b = al.random_example(T=4, d=10, h=2, seed=5)  # dh = 5
    np.testing.assert_array_equal(b.Qh[:, :, :3], a.Qh)
    np.testing.assert_array_equal(b.Vh[:, :, :3], a.Vh)


def test_growing_h_adds_heads():
    a = al.random_example(T=4, d=6, h=2, seed=5)
    b = al.random_example(T=4, d=12, h=4, seed=5)
    np.testing.assert_array_equal(b.Qh[:2], a.Qh)
    np.testing.assert_array_equal(b.O[:2], a.O)


def test_seeds_differ_and_are_checked():
    a, b = al.random_example(3, 8, 2, seed=0), al.random_example(3, 8, 2, seed=1)
    assert not np.array_equal(a.Q, b.Q)
    assert not np.array_equal(a.Q, al.article_example().Q)
    for bad, match in ((-1, "seed: must be from 0"), (1.5, "seed: must be a whole number"),
                       (True, "seed: must be a whole number, got True/False"), ("3", "seed: must be a whole number"),
                       (2**63, "seed: must be from 0")):
        with pytest.raises(ValueError, match=match):
            al.random_qkv(3, 8, seed=bad)
        with pytest.raises(ValueError, match=match):
            al.random_example(3, 8, 2, seed=bad)


def test_kv_heads_examples_have_g_heads_of_k_and_v():
    tr = al.article_example(kv_heads=1)
    assert tr.Kh.shape == (1, 3, 4) and tr.K.shape == (3, 4) and tr.kv_heads == 1
    # The shared head is the article's Head 1: its Key token 1 and the scores of Query token 3, as the article writes.
    assert tr.Kh[0, 0].tolist() == [1, -1, 2, 1] and tr.S[0, 2].tolist() == [2, 0, 6]
    with pytest.raises(ValueError, match=r"kv_heads: h=4 .*use one of \[1, 2, 4\]"):
        al.random_example(T=3, d=8, h=4, kv_heads=3)
