"""The trace is read-only for good; grouped K/V heads; bad input to the core gets a ValueError that names it."""

import copy
import ctypes
import pickle

import numpy as np
import pytest
from reference import reference_attention
from strategies import every_mask

import attention_lab as al
from attention_lab.numeric.trace import ARRAYS


@pytest.fixture
def tr():
    return al.article_example()


def test_no_array_can_be_made_writable_or_resized(tr):
    for name in ARRAYS:
        a = getattr(tr, name)
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a.setflags(write=True)
        with pytest.raises(ValueError):
            a.resize((2,))
        with pytest.raises(ValueError):
            a[...] = 0
        with pytest.raises(ValueError):
            a.reshape(-1)[0] = 1  # a view of it is read-only too


def test_writing_through_the_memory_of_an_array_leaves_the_trace_alone(tr):
    # what torch.from_numpy(tr.P).zero_() does: write straight into the array's buffer
    before = tr.P.copy()
    for name in ARRAYS:
        a = getattr(tr, name)
        ctypes.memset(a.ctypes.data, 0, a.nbytes)
    np.testing.assert_array_equal(tr.P, before)
    np.testing.assert_array_equal(tr.S[0, 2], [2, 0, 6])


def test_torch_cannot_change_the_trace(tr):
    torch = pytest.importorskip("torch")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "The given NumPy array is not writable"
        torch.from_numpy(tr.P).zero_()
    assert tr.P[0, 2, 2] == pytest.approx(0.844, abs=5e-4)


def test_the_trace_takes_no_new_values(tr):
    with pytest.raises(AttributeError, match="read-only"):
        tr.P = np.zeros((2, 3, 3))
    with pytest.raises(AttributeError, match="read-only"):
        tr.mask_name = "none"
    with pytest.raises(AttributeError, match="read-only"):
        del tr.P
    with pytest.raises(AttributeError):
        tr.extra = 1


@pytest.mark.parametrize("clone", [copy.deepcopy, copy.copy, lambda t: pickle.loads(pickle.dumps(t))])
def test_copies_and_pickles_are_read_only_traces_too(tr, clone):
    twin = clone(tr)
    assert isinstance(twin, al.AttentionTrace) and twin.mask_name == tr.mask_name
    for name in ARRAYS:
        np.testing.assert_array_equal(getattr(twin, name), getattr(tr, name))
        with pytest.raises(ValueError):
            getattr(twin, name).setflags(write=True)
    with pytest.raises(AttributeError):
        twin.P = None
    sliding = clone(al.article_example(mask=al.Mask("sliding", window=2), T=5))
    assert sliding.mask_params == {"window": 2}


def test_arrays_gives_every_stage_by_name(tr):
    arrays = tr.arrays()
    assert list(arrays) == list(ARRAYS)
    assert repr(tr) == "AttentionTrace(T=3, d=8, h=2, dh=4, mask='causal')"


# --- grouped K/V heads ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("h", "g"), [(2, 1), (4, 2), (4, 1), (6, 3), (3, 3)])
def test_grouped_kv_heads_equal_repeating_k_and_v(h, g):
    rng = np.random.default_rng(h * 10 + g)
    T, dh = 5, 3
    Q = rng.normal(size=(T, h * dh))
    K, V = rng.normal(size=(T, g * dh)), rng.normal(size=(T, g * dh))
    tr = al.attention_trace(Q, K, V, h=h, kv_heads=g)
    assert tr.Kh.shape == tr.Vh.shape == (g, T, dh) and tr.kv_heads == g
    # Query head i reads K/V head i // (h/g): give each Query head its own copy of that head's columns, one by one
    repeat, repeat_v = [[[] for _ in range(T)] for _ in range(2)]
    for i in range(h):
        cols = range((i // (h // g)) * dh, (i // (h // g) + 1) * dh)
        for t in range(T):
            repeat[t] += [K[t, c] for c in cols]
            repeat_v[t] += [V[t, c] for c in cols]
    causal = [[j <= i for j in range(T)] for i in range(T)]
    P, H = reference_attention(Q.tolist(), repeat, repeat_v, h, causal)
    np.testing.assert_allclose(tr.P, P, atol=1e-12)
    np.testing.assert_allclose(tr.H, H, atol=1e-12)
    assert [tr.kv_head_of(i) for i in range(h)] == [i // (h // g) for i in range(h)]
    if g != h:
        assert f"K/V heads g={g}" in tr.shapes()


def test_kv_heads_errors_name_the_argument():
    Q, K = np.ones((3, 8)), np.ones((3, 4))
    with pytest.raises(ValueError, match=r"K, V, kv_heads: with h=2 heads of dh=4 and kv_heads=1, .*g·dh = 4 columns"):
        al.attention_trace(Q, Q, Q, h=2, kv_heads=1)
    with pytest.raises(ValueError, match=r"kv_heads: must be from 1 to 2"):
        al.attention_trace(Q, K, K, h=2, kv_heads=3)
    with pytest.raises(ValueError, match=r"kv_heads: h=4 .*divide h"):
        al.attention_trace(Q, np.ones((3, 6)), np.ones((3, 6)), h=4, kv_heads=3)
    with pytest.raises(ValueError, match=r"Q, K, V: must have the same number of columns d.*kv_heads"):
        al.attention_trace(Q, K, K, h=2)


# --- bad input: a ValueError that names it -----------------------------------------------------------------------

X = np.ones((3, 8))


@pytest.mark.parametrize(("args", "match"), [
    ((X.astype(complex), X, X), r"Q: complex numbers are not allowed"),
    (([[10**400, 1]], [[1, 1]], [[1, 1]]), r"Q: holds a number too large for a float"),
    (([[1, 2], [3]], X, X), r"Q: .*rows have different lengths"),
    (("abc", X, X), r"Q: must be .*got text"),
    ((X, [[None] * 8] * 3, X), r"K: must be .*type NoneType"),
    ((X, [["1"] * 8] * 3, X), r"K: must be .*type str_"),
    ((X, X, X.astype(bool)), r"V: .*True/False"),
    ((X, X, np.array([[1, True]] * 3, dtype=object)), r"V: .*type bool"),
])
def test_q_k_v_errors_name_the_argument(args, match):
    with pytest.raises(ValueError, match=match):
        al.attention_trace(*args, h=2)


def test_a_ragged_mask_is_named():
    with pytest.raises(ValueError, match=r"mask: the rows of a mask array must all have the same length"):
        al.attention_trace(X, X, X, h=2, mask=[[True, False], [True]])


@pytest.mark.parametrize("scaled", [1, "yes", None])
def test_scaled_is_a_switch(scaled):
    with pytest.raises(ValueError, match="scaled: must be True or False"):
        al.attention_trace(X, X, X, h=2, scaled=scaled)


@pytest.mark.parametrize("h", [True, 2.0, "2", None])
def test_h_must_be_a_whole_number(h):
    with pytest.raises(ValueError, match="h: must be a whole number"):
        al.attention_trace(X, X, X, h=h)


def test_softmax_propagates_nan_and_never_makes_it_a_zero_weight():
    P = al.softmax(np.array([[np.nan, 0.0], [1.0, -np.inf], [-np.inf, -np.inf], [np.inf, 0.0]]))
    assert np.isnan(P[0]).all() and np.isnan(P[3]).all()
    np.testing.assert_array_equal(P[1], [1, 0])
    np.testing.assert_array_equal(P[2], [0, 0])
    assert np.isnan(al.weighted_sum(np.array([[np.nan, 0.0]]), np.ones((2, 3)))).all()


@pytest.mark.parametrize(("call", "match"), [
    (lambda: al.softmax(np.ones((2, 0))), r"S_masked: a row of scores needs at least one score"),
    (lambda: al.softmax("1, 2"), r"S_masked: must be .*got text"),
    (lambda: al.softmax(np.array([1 + 2j])), r"S_masked: complex"),
    (lambda: al.scores(np.ones((3, 4)), np.ones((3, 5))), r"Q, K: the number of components"),
    (lambda: al.scores(np.ones((2, 3, 4)), np.ones((3, 3, 4))), r"Q, K: the head axes"),
    (lambda: al.scale(np.ones((2, 2)), 0), r"dh: must be a finite number greater than 0"),
    (lambda: al.scale(np.ones((2, 2)), True), r"dh: must be a finite number"),
    (lambda: al.apply_mask(np.ones((2, 3, 3)), np.ones((2, 2))), r"M: must have the shape of one head's scores"),
    (lambda: al.weighted_sum(np.ones((3, 3)), np.ones((2, 4))), r"P, V: P's columns"),
    (lambda: al.split_heads(np.ones((3, 8)), 3), r"h: X has d=8 columns"),
    (lambda: al.split_heads(np.ones(8), 2), r"X: needs at least 2"),
    (lambda: al.concat_heads(np.ones((3, 4))), r"O: needs at least 3"),
])
def test_stage_functions_name_what_is_wrong(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_masks_that_hide_every_key_agree_with_the_reference():
    T, h = 4, 2
    rng = np.random.default_rng(0)
    Q, K, V = (rng.normal(size=(T, 4)) for _ in range(3))
    for mask in every_mask(T):
        tr = al.attention_trace(Q, K, V, h=h, mask=mask)
        P, H = reference_attention(Q.tolist(), K.tolist(), V.tolist(), h, (tr.M == 0).tolist())
        np.testing.assert_allclose(tr.P, P, atol=1e-12)
        np.testing.assert_allclose(tr.H, H, atol=1e-12)
