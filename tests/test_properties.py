"""Properties that hold for every Q, K, V, h and mask (hypothesis)."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import attention_lab as al

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@st.composite
def cases(draw, mask_kinds=("causal", None, "custom")):
    h = draw(st.integers(1, 4))
    dh = draw(st.integers(1, 4))
    T = draw(st.integers(1, 6))
    d = h * dh
    Q, K, V = (np.array(draw(st.lists(finite, min_size=T * d, max_size=T * d))).reshape(T, d) for _ in range(3))
    kind = draw(st.sampled_from(mask_kinds))
    if kind == "custom":
        mask = np.array(draw(st.lists(st.booleans(), min_size=T * T, max_size=T * T))).reshape(T, T)
    else:
        mask = kind
    return Q, K, V, h, mask


@settings(max_examples=150, deadline=None)
@given(cases())
def test_weights_are_a_distribution_and_masked_weights_are_zero(case):
    Q, K, V, h, mask = case
    tr = al.attention_trace(Q, K, V, h=h, mask=mask)
    assert (tr.P >= 0).all()
    sums = tr.P.sum(axis=-1)  # (h, T)
    fully_masked = np.isneginf(tr.M).all(axis=-1)  # (T,)
    np.testing.assert_allclose(sums[:, ~fully_masked], 1.0)
    assert (sums[:, fully_masked] == 0).all()
    assert (tr.P[:, np.isneginf(tr.M)] == 0).all()
    assert np.isfinite(tr.H).all()


@given(st.integers(1, 6), st.integers(1, 5), st.integers(1, 5), st.integers(0, 10**6))
def test_concat_undoes_split(T, h, dh, seed):
    X = np.random.default_rng(seed).normal(size=(T, h * dh))
    np.testing.assert_array_equal(al.concat_heads(al.split_heads(X, h)), X)


@settings(max_examples=80, deadline=None)
@given(cases(), st.integers(0, 10**6))
def test_a_heads_output_depends_only_on_its_own_columns(case, seed):
    Q, K, V, h, mask = case
    assume(h > 1)  # with one head there is no other head to change
    dh = Q.shape[1] // h
    tr = al.attention_trace(Q, K, V, h=h, mask=mask)
    rng = np.random.default_rng(seed)
    other = slice(dh, None)  # every head but head 0
    Q2, K2, V2 = Q.copy(), K.copy(), V.copy()
    for X in (Q2, K2, V2):
        X[:, other] = rng.normal(size=X[:, other].shape)
    tr2 = al.attention_trace(Q2, K2, V2, h=h, mask=mask)
    np.testing.assert_array_equal(tr2.O[0], tr.O[0])
    np.testing.assert_array_equal(tr2.H[:, :dh], tr.H[:, :dh])


@settings(max_examples=80, deadline=None)
@given(cases(mask_kinds=("causal",)), st.data())
def test_causal_mask_does_not_leak_the_future(case, data):
    Q, K, V, h, mask = case
    T = Q.shape[0]
    t = data.draw(st.integers(0, T - 1), label="changed token")
    tr = al.attention_trace(Q, K, V, h=h, mask="causal")
    K2, V2 = K.copy(), V.copy()
    K2[t:] += 7.0
    V2[t:] -= 3.0
    tr2 = al.attention_trace(Q, K2, V2, h=h, mask="causal")
    np.testing.assert_array_equal(tr2.O[:, :t], tr.O[:, :t])  # every earlier row unchanged


@settings(max_examples=80, deadline=None)
@given(cases(mask_kinds=(None,)), st.randoms(use_true_random=False))
def test_without_a_mask_permuting_tokens_permutes_outputs(case, rnd):
    Q, K, V, h, _ = case
    perm = list(range(Q.shape[0]))
    rnd.shuffle(perm)
    tr = al.attention_trace(Q, K, V, h=h, mask=None)
    tp = al.attention_trace(Q[perm], K[perm], V[perm], h=h, mask=None)
    np.testing.assert_allclose(tp.H, tr.H[perm], atol=1e-9)
