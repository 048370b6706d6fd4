"""attention_lab against PyTorch's own attention, in float64, on every kind of mask.

- `torch.nn.functional.scaled_dot_product_attention` (SDPA), head by head, gives the trace's O;
- `torch.nn.MultiheadAttention` with identity in- and out-projections, bias=False and
  per-head weights (average_attn_weights=False) gives the trace's P and H.

Runs whenever torch is importable: `pip install -e ".[torch]"` adds it, and .ci/run installs
the CPU build, so CI runs it; without torch this module is skipped (the rest of the suite
never imports torch).

A row that may attend to nothing (a padding token's row, an empty row of a custom mask) is
where the libraries differ, so those rows are checked on their own, for what torch does:
- SDPA gives 0 there since torch 2.5 (its math backend's `_safe_softmax`), as attention_lab
  does; before 2.5 it gave NaN.
- nn.MultiheadAttention with need_weights=True computes the weights itself with a plain
  softmax: NaN in that row of the weights and of the output, in every version. With
  need_weights=False it calls SDPA, and gives what SDPA gives.
Every other row must agree to 1e-12.

With T_q Query tokens and T_k Key tokens (a decode step, a chunk of new tokens, cross-attention), "causal" has two
corners: SDPA's is_causal=True is top-left (Query token i sees Key tokens 1 … i), what decoding with a cache needs
is bottom-right (the last Query token sees every Key token), attention_lab's default. Passing a cache's Q and K to
SDPA with is_causal=True gives wrong numbers without any error: the last test here catches that pitfall.
"""

import numpy as np
import pytest

import attention_lab as al
from attention_lab.numeric.conventions import CONVENTIONS

torch = pytest.importorskip("torch")
F = torch.nn.functional

TOL = 1e-12
TORCH = tuple(int(part) for part in torch.__version__.split("+")[0].split(".")[:2])
SDPA_EMPTY_ROW = 0.0 if TORCH >= (2, 5) else np.nan  # what SDPA gives in a row with nothing to attend to
KINDS = (*al.masks.MASK_NAMES, "custom")  # every mask of the registry, and one of your own
SEEDS = range(12)


def random_case(kind, seed):  # -> (Q, K, V, h, mask)
    """A random float example: T from 1 to 8, h from 1 to 4, dh from 1 to 4, the mask's parameters anywhere in range."""
    rng = np.random.default_rng([KINDS.index(kind), seed])
    T, h, dh = int(rng.integers(1, 9)), int(rng.integers(1, 5)), int(rng.integers(1, 5))
    Q, K, V = (rng.normal(0, 2, (T, h * dh)) for _ in range(3))
    if kind == "custom":
        return Q, K, V, h, rng.random((T, T)) < 0.5  # often with rows that may attend to nothing
    params = {}
    for p in al.MASKS[kind].params:
        values = p.values(T)
        params[p.name] = values[int(rng.integers(len(values)))]
    return Q, K, V, h, al.Mask(kind, **params)


def traced_case(kind, seed):  # -> (trace, allowed [T, T] bool, rows [T] bool: the Query tokens with something to see)
    Q, K, V, h, mask = random_case(kind, seed)
    tr = al.attention_trace(Q, K, V, h, mask=mask)
    allowed = al.allowed_of(mask, tr.T)
    return tr, allowed, allowed.any(axis=1)


def tensor(x):  # -> float64 tensor, a copy (the trace's arrays are read-only)
    return torch.tensor(np.asarray(x, dtype=float))


def sdpa(tr, **kwargs):  # -> [h, T, dh]
    """O from SDPA, all heads at once: the trace's Qh, Kh, Vh as (h, T, dh) batches of one head each."""
    with torch.no_grad():
        return F.scaled_dot_product_attention(tensor(tr.Qh), tensor(tr.Kh), tensor(tr.Vh), **kwargs).numpy()


def identity_mha(d, h):
    """nn.MultiheadAttention whose projections do nothing, so it is Core Attention alone: S/√dh, M, P, O, H."""
    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.eye(d, dtype=torch.float64).repeat(3, 1))  # W_Q = W_K = W_V = I
        mha.out_proj.weight.copy_(torch.eye(d, dtype=torch.float64))  # W_O = I: the output is H itself
    return mha


def mha(tr, need_weights=True, **masks):  # -> H [T, d], P [h, T, T] (or None)
    with torch.no_grad():
        H, P = identity_mha(tr.d, tr.h)(tensor(tr.Q)[None], tensor(tr.K)[None], tensor(tr.V)[None],
                                        need_weights=need_weights, average_attn_weights=False, **masks)
    return H[0].numpy(), None if P is None else P[0].numpy()


def assert_rows(got, want, rows, axis, empty_value, what):
    """`got` equals `want` to TOL in the rows (along `axis`) that may attend; the others are all `empty_value`."""
    index = [slice(None)] * got.ndim
    index[axis] = rows
    np.testing.assert_allclose(got[tuple(index)], want[tuple(index)], rtol=0, atol=TOL, err_msg=what)
    index[axis] = ~rows
    empty = got[tuple(index)]
    if np.isnan(empty_value):
        assert np.isnan(empty).all(), (what, empty)
    else:
        np.testing.assert_array_equal(empty, empty_value, err_msg=what)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", KINDS)
def test_sdpa_gives_the_traces_O_with_a_boolean_or_an_additive_mask(kind, seed):
    tr, allowed, rows = traced_case(kind, seed)
    for what, attn_mask in (("bool, True = may attend", CONVENTIONS["may_attend"].write(allowed)),
                            ("float, 0 / -inf", tr.M)):
        assert_rows(sdpa(tr, attn_mask=torch.tensor(attn_mask)), tr.O, rows, 1, SDPA_EMPTY_ROW, f"{kind}: {what}")
    if kind == "causal":
        np.testing.assert_allclose(sdpa(tr, is_causal=True), tr.O, rtol=0, atol=TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", KINDS)
def test_multihead_attention_gives_the_traces_P_and_H(kind, seed):
    tr, allowed, rows = traced_case(kind, seed)
    masked = torch.tensor(CONVENTIONS["masked"].write(allowed))  # its boolean attn_mask: True = masked
    H, P = mha(tr, attn_mask=masked)
    assert_rows(P, tr.P, rows, 1, np.nan, f"{kind}: P, need_weights=True")
    assert_rows(H, tr.H, rows, 0, np.nan, f"{kind}: H, need_weights=True")
    H_fast, no_weights = mha(tr, need_weights=False, attn_mask=masked)
    assert no_weights is None
    assert_rows(H_fast, tr.H, rows, 0, SDPA_EMPTY_ROW, f"{kind}: H, need_weights=False")
    _, P_float = mha(tr, attn_mask=tensor(tr.M))  # a float mask is added, in both APIs alike
    assert_rows(P_float, tr.P, rows, 1, np.nan, f"{kind}: P, float mask")


@pytest.mark.parametrize("seed", SEEDS)
def test_key_padding_mask_masks_only_the_keys(seed):
    # nn.MultiheadAttention's key_padding_mask (True = padding) hides the padding keys from every query,
    # but the padding tokens' own rows still attend to the real tokens. attention_lab's "padding" masks
    # those rows too (see masks.padding_allowed); the real tokens' rows agree.
    Q, K, V, h, mask = random_case("padding", seed)
    T, L = len(Q), mask.param("length")
    tr = al.attention_trace(Q, K, V, h, mask=al.Mask("padding", length=L))
    real = np.arange(T) < L
    keys_only = al.attention_trace(Q, K, V, h, mask=al.causal_allowed(T) & real)
    H, P = mha(tr, attn_mask=torch.tensor(~al.causal_allowed(T)), key_padding_mask=torch.tensor(~real)[None])
    np.testing.assert_allclose(P[:, real], tr.P[:, real], rtol=0, atol=TOL)
    if L > 0:  # the padding rows attend to the L real tokens
        np.testing.assert_allclose(P, keys_only.P, rtol=0, atol=TOL)
        np.testing.assert_allclose(H, keys_only.H, rtol=0, atol=TOL)
        np.testing.assert_array_equal(tr.P[:, ~real], 0)
    else:  # no real token: every row has nothing to attend to
        assert np.isnan(P).all() and np.isnan(H).all()


def test_the_cases_include_rows_with_nothing_to_attend_to():
    # Otherwise the empty-row branches above would test nothing.
    empty = 0
    for kind in KINDS:
        for seed in SEEDS:
            Q, _, _, _, mask = random_case(kind, seed)
            empty += int((~al.allowed_of(mask, len(Q)).any(axis=1)).sum())
    assert empty >= 20


def test_the_articles_example_through_sdpa_and_multihead_attention():
    tr = al.article_example()
    O = sdpa(tr, is_causal=True)  # noqa: E741
    np.testing.assert_allclose(O, tr.O, rtol=0, atol=TOL)
    np.testing.assert_allclose(O[0, 2], [0.114, 0.042, 0.844, 1], atol=5e-4)  # the article's output of token 3
    H, P = mha(tr, attn_mask=torch.tensor(~al.causal_allowed(3)))
    np.testing.assert_allclose(P, tr.P, rtol=0, atol=TOL)
    np.testing.assert_allclose(H, tr.H, rtol=0, atol=TOL)


def test_the_classic_bug_a_may_attend_mask_given_to_multihead_attention_gives_the_inverted_weights():
    tr = al.article_example(T=5)
    allowed = al.causal_allowed(5)
    _, P = mha(tr, attn_mask=torch.tensor(allowed))  # True read as "masked": the future only, never itself
    inverted = al.attention_trace(tr.Q, tr.K, tr.V, tr.h, mask=~allowed)
    np.testing.assert_allclose(P[:, :-1], inverted.P[:, :-1], rtol=0, atol=TOL)
    assert np.isnan(P[:, -1]).all()  # the last token has no future: nothing to attend to


@pytest.mark.skipif(TORCH < (2, 5), reason="SDPA's enable_gqa needs torch 2.5 or later")
@pytest.mark.parametrize("seed", range(6))
def test_grouped_kv_heads_match_sdpa_with_enable_gqa(seed):
    rng = np.random.default_rng(seed)
    T, g, share, dh = int(rng.integers(1, 8)), int(rng.integers(1, 3)), int(rng.integers(1, 4)), 2
    h = g * share
    Q, K, V = rng.normal(size=(T, h * dh)), rng.normal(size=(T, g * dh)), rng.normal(size=(T, g * dh))
    tr = al.attention_trace(Q, K, V, h, mask=al.Mask("sliding", window=2), kv_heads=g)
    O = sdpa(tr, attn_mask=torch.tensor(al.allowed_of(al.Mask("sliding", window=2), T)), enable_gqa=True)  # noqa: E741
    np.testing.assert_allclose(O, tr.O, rtol=0, atol=TOL)


# ------------------------------------------------------------------ T_q ≠ T_k: which corner "causal" means


def rectangular_case(kind, seed):  # -> (Q [T_q, h·dh], K, V [T_k, h·dh], h, mask): T_q and T_k drawn apart
    rng = np.random.default_rng([KINDS.index(kind), seed, 2])
    T_q, T_k, h, dh = (int(n) for n in rng.integers(1, (9, 9, 4, 4)))
    Q, K, V = rng.normal(0, 2, (T_q, h * dh)), rng.normal(0, 2, (T_k, h * dh)), rng.normal(0, 2, (T_k, h * dh))
    if kind == "custom":
        return Q, K, V, h, rng.random((T_q, T_k)) < 0.5
    params = {p.name: p.values(T_k)[int(rng.integers(len(p.values(T_k))))] for p in al.MASKS[kind].params}
    return Q, K, V, h, al.Mask(kind, align=al.masks.ALIGNS[seed % 2], **params)


@pytest.mark.parametrize("seed", SEEDS)
def test_sdpa_is_causal_is_our_top_left_corner(seed):
    Q, K, V, h, _ = rectangular_case("causal", seed)
    tr = al.attention_trace(Q, K, V, h, mask=al.Mask("causal", align="top-left"))
    np.testing.assert_allclose(sdpa(tr, is_causal=True), tr.O, rtol=0, atol=TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", KINDS)
def test_sdpa_with_our_boolean_mask_gives_the_trace_for_any_shape_and_either_corner(kind, seed):
    Q, K, V, h, mask = rectangular_case(kind, seed)
    tr = al.attention_trace(Q, K, V, h, mask=mask)
    allowed = al.allowed_of(mask, tr.T_q, tr.T_k)
    O = sdpa(tr, attn_mask=torch.tensor(allowed))  # noqa: E741
    assert_rows(O, tr.O, allowed.any(axis=1), 1, SDPA_EMPTY_ROW, f"{mask!r}, T_q={tr.T_q}, T_k={tr.T_k}")


@pytest.mark.parametrize("seed", SEEDS)
def test_torchs_causal_lower_right_is_our_bottom_right_corner(seed):
    # With T_q > T_k, causal_lower_right warns that the blind rows may be NaN; they are tested above, as a bool mask.
    from torch.nn.attention.bias import causal_lower_right

    Q, K, V, h, _ = rectangular_case("causal", seed)
    Q = Q[: len(K)]  # T_q ≤ T_k: a decode step or a chunk against the cache
    tr = al.attention_trace(Q, K, V, h)  # "causal", bottom-right
    np.testing.assert_allclose(sdpa(tr, attn_mask=causal_lower_right(tr.T_q, tr.T_k)), tr.O, rtol=0, atol=TOL)


@pytest.mark.parametrize("seed", SEEDS)
def test_multihead_attention_reads_a_boolean_mask_of_any_shape_as_masked(seed):
    Q, K, V, h, mask = rectangular_case("sliding", seed)
    tr = al.attention_trace(Q, K, V, h, mask=mask)
    allowed = al.allowed_of(mask, tr.T_q, tr.T_k)
    H, P = mha(tr, attn_mask=torch.tensor(~allowed))  # True = masked (conventions.write takes square masks only)
    rows = allowed.any(axis=1)
    assert_rows(P, tr.P, rows, 1, np.nan, f"{mask!r}: P")
    assert_rows(H, tr.H, rows, 0, np.nan, f"{mask!r}: H")


def test_the_rectangular_cases_hold_both_shapes_and_rows_with_nothing_to_see():
    shapes = [rectangular_case(kind, seed)[:2] for kind in KINDS for seed in SEEDS]
    assert any(len(Q) < len(K) for Q, K in shapes) and any(len(Q) > len(K) for Q, K in shapes)
    empty = sum(int((~al.allowed_of(mask, len(Q), len(K)).any(axis=1)).sum())
                for Q, K, _, _, mask in (rectangular_case(kind, seed) for kind in KINDS for seed in SEEDS))
    assert empty >= 20


def test_the_sdpa_pitfall_is_causal_true_on_a_cache_gives_other_numbers_silently():
    # The article's tokens 2 and 3 as new Query rows against the Keys and Values of all three: a chunk after token 1.
    full = al.article_example()
    chunk = al.article_example(queries=2)  # (2 × 3), bottom-right: rows 2 and 3 of the full computation
    np.testing.assert_allclose(chunk.O, full.O[:, 1:], rtol=0, atol=TOL)
    wrong = sdpa(chunk, is_causal=True)  # what SDPA computes: token 2 sees token 1 only, token 3 tokens 1 and 2
    top_left = al.attention_trace(chunk.Q, chunk.K, chunk.V, 2, mask=al.Mask("causal", align="top-left"))
    np.testing.assert_allclose(wrong, top_left.O, rtol=0, atol=TOL)
    assert np.abs(wrong - chunk.O).max() > 0.5  # not a rounding difference: other weights altogether
    np.testing.assert_allclose(top_left.P[0], [[1, 0, 0], [0.731, 0.269, 0]], atol=5e-4)
    np.testing.assert_allclose(chunk.P[0], [[0.818, 0.182, 0], [0.114, 0.042, 0.844]], atol=5e-4)
    right = sdpa(chunk, attn_mask=torch.tensor(al.allowed_of("causal", 2, 3)))  # the bottom-right mask, passed
    np.testing.assert_allclose(right, full.O[:, 1:], rtol=0, atol=TOL)
