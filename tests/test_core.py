"""The stage functions and the trace: stability, masking, immutability, agreement with plain loops."""

import ctypes
import math

import numpy as np
import pytest
from reference import reference_attention

import attention_lab as al
from attention_lab.numeric.pipeline import STAGES


def test_softmax_is_stable_for_huge_scores():
    S = np.array([[1e4, 0.0, -1e4], [1e4, 1e4, -np.inf]])
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # an overflow or 0/0 would raise
        P = al.softmax(S)
    np.testing.assert_allclose(P, [[1, 0, 0], [0.5, 0.5, 0]])
    assert np.isfinite(P).all()


def test_softmax_masked_entries_are_exactly_zero():
    P = al.softmax(np.array([[3.0, 1.5, -np.inf]]))
    assert P[0, 2] == 0.0
    assert P.sum() == pytest.approx(1.0)


def test_fully_masked_row_gives_zero_weights_and_zero_output():
    allowed = np.array([[False, False], [True, True]])
    tr = al.attention_trace(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2)), h=1, mask=allowed)
    np.testing.assert_array_equal(tr.P[0, 0], [0, 0])
    np.testing.assert_array_equal(tr.O[0, 0], [0, 0])
    assert not np.isnan(tr.P).any() and not np.isnan(tr.H).any()
    assert tr.mask_name == "custom"


def test_split_and_concat_are_inverse():
    X = np.arange(24.0).reshape(3, 8)
    Xh = al.split_heads(X, 2)
    assert Xh.shape == (2, 3, 4)
    np.testing.assert_array_equal(Xh[1], X[:, 4:])
    np.testing.assert_array_equal(al.concat_heads(Xh), X)


def test_stage_functions_compose_to_the_plain_loops_and_to_the_trace():
    tr = al.random_example(T=5, d=6, h=3, seed=1)
    S = al.scores(tr.Qh, tr.Kh)
    S_scaled = al.scale(S, tr.dh)
    S_masked = al.apply_mask(S_scaled, al.causal_mask(tr.T))
    P = al.softmax(S_masked)
    O = al.weighted_sum(P, tr.Vh)
    # The reference: one number at a time (tests/reference.py), not the package's functions.
    Q, K, V, dh = tr.Q.tolist(), tr.K.tolist(), tr.V.tolist(), tr.dh
    S_loop = [[[sum(Q[i][k * dh + c] * K[j][k * dh + c] for c in range(dh)) for j in range(5)] for i in range(5)]
              for k in range(3)]
    causal = [[j <= i for j in range(5)] for i in range(5)]
    P_loop, H_loop = reference_attention(Q, K, V, 3, causal)
    np.testing.assert_allclose(S, S_loop, rtol=1e-13)
    np.testing.assert_allclose(S_scaled, np.array(S_loop) / math.sqrt(dh), rtol=1e-13)
    assert (S_masked[:, ~np.array(causal)] == -np.inf).all()
    np.testing.assert_allclose(P, P_loop, atol=1e-12)
    np.testing.assert_allclose(al.concat_heads(O), H_loop, atol=1e-12)
    for got, want in ((S, tr.S), (S_scaled, tr.S_scaled), (S_masked, tr.S_masked), (P, tr.P), (O, tr.O)):
        np.testing.assert_array_equal(got, want)  # the public functions and the trace give the same bits


def test_causal_mask_values():
    M = al.causal_mask(3)
    assert M.dtype == float
    assert (M[np.triu_indices(3, 1)] == -np.inf).all()
    assert (M[np.tril_indices(3)] == 0).all()
    np.testing.assert_array_equal(al.make_mask(None, 2), np.zeros((2, 2)))


def test_trace_is_immutable():
    tr = al.article_example()
    for name in STAGES:
        with pytest.raises(ValueError, match="read-only"):
            getattr(tr, name)[(0,) * getattr(tr, name).ndim] = 99
    with pytest.raises(AttributeError):
        tr.P = None


def test_trace_does_not_alias_the_callers_arrays():
    Q = np.ones((2, 2))
    tr = al.attention_trace(Q, Q, Q, h=1)
    Q[0, 0] = 5
    assert tr.Q[0, 0] == 1


def test_writing_through_the_memory_of_a_read_reaches_no_stage():
    """What torch.from_numpy(tr.P).zero_() does: write into a read's bytes, past its read-only flag."""
    tr = al.article_example(kv_heads=1)
    before = {name: np.array(getattr(tr, name)) for name in STAGES}
    for name in STAGES:
        read = getattr(tr, name)
        ctypes.memset(read.ctypes.data, 0x7F, read.nbytes)  # every float becomes 1.4e306
        assert (read != before[name]).all()  # the write happened
        for other in STAGES:
            np.testing.assert_array_equal(getattr(tr, other), before[other], err_msg=f"{name} wrote into {other}")


@pytest.mark.parametrize("seed", range(40))
def test_vectorised_trace_agrees_with_plain_loops(seed):
    rng = np.random.default_rng(seed)
    h = int(rng.integers(1, 4))
    T, d = int(rng.integers(1, 7)), h * int(rng.integers(1, 4))
    Q, K, V = (rng.normal(size=(T, d)) * 3 for _ in range(3))
    choice = seed % 3
    if choice == 0:
        mask, allowed = "causal", np.tril(np.ones((T, T), bool))
    elif choice == 1:
        mask, allowed = None, np.ones((T, T), bool)
    else:
        allowed = rng.random((T, T)) < 0.6  # may leave rows fully masked
        mask = allowed
    tr = al.attention_trace(Q, K, V, h=h, mask=mask)
    P, H = reference_attention(Q.tolist(), K.tolist(), V.tolist(), h, allowed.tolist())
    np.testing.assert_allclose(tr.P, P, atol=1e-12)
    np.testing.assert_allclose(tr.H, H, atol=1e-12)


def test_random_example_is_deterministic_and_small():
    a = al.random_example(T=5, d=12, h=3, seed=7)
    b = al.random_example(T=5, d=12, h=3, seed=7)
    np.testing.assert_array_equal(a.Q, b.Q)
    assert not np.array_equal(a.Q, al.random_example(T=5, d=12, h=3, seed=8).Q)
    assert np.isin(a.Q, np.arange(-2, 3)).all()
    assert (a.T, a.d, a.h, a.dh) == (5, 12, 3, 4)


def test_random_example_grows_by_one_token():
    # a slider that adds a token must not change the tokens already there
    small, big = al.random_example(T=3, d=4, h=2, seed=0), al.random_example(T=4, d=4, h=2, seed=0)
    np.testing.assert_array_equal(big.Q[:3], small.Q)
    np.testing.assert_array_equal(big.O[:, :3], small.O)  # causal: earlier outputs unchanged


def test_random_example_sizes_beyond_the_pool():
    tr = al.random_example(T=40, d=130, h=2, seed=0)
    assert tr.H.shape == (40, 130)


def test_shape_line():
    assert al.random_example(T=4, d=8, h=2).shapes() == (
        "T=4 · d=8 · h=2 · dh=4 · Q (4×8) → S (2×4×4) → P (2×4×4) → O (2×4×4) → H (4×8)"
    )


def test_core_imports_only_numpy():
    import subprocess
    import sys

    code = (
        "import sys, attention_lab as al; al.article_example(); "
        "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'IPython') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_unscaled_trace_shows_what_the_scale_prevents():
    tr = al.article_example()
    raw = al.attention_trace(tr.Q, tr.K, tr.V, h=2, scaled=False)
    assert tr.scaled and not raw.scaled
    np.testing.assert_array_equal(raw.S_scaled, tr.S)
    np.testing.assert_allclose(raw.P[0, 2], [math.exp(s) / (math.exp(2) + 1 + math.exp(6)) for s in (2, 0, 6)])
    assert raw.P[0, 2].max() > tr.P[0, 2].max()  # without the scale the softmax is sharper


def test_exponentials_are_the_articles_numerators():
    e = al.exponentials(np.array([1.0, 0.0, 3.0, -np.inf]))
    np.testing.assert_allclose(e, [np.e, 1.0, np.e**3, 0.0])
    assert e[3] == 0.0
    np.testing.assert_allclose(e[:3] / e.sum(), [math.exp(s) / (math.e + 1 + math.exp(3)) for s in (1, 0, 3)])
