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
