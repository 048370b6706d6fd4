"""Queries and keys of different lengths (issue 20): T_q Query tokens against T_k Key tokens.

Every mask of the registry, in both alignments, through the trace, the blockwise softmax, the KV cache and chunked
prefill. What the tests hold:
- T_q = T_k is the square problem of notebooks 00–11, every article number included, whichever the alignment;
- a Query token that may see nothing gets weights and output 0, never NaN; with causal, that happens bottom-right
  with T_q > T_k (flash-attention's documented example), never top-left;
- decode_with_cache, blockwise_attention and the trace agree to 1e-12; a decode step is a trace of one Query row
  against the cache; chunked prefill of any chunk size is the full trace;
- the window conventions of flash-attention, xformers and TransformerLens, written as their code writes them, are
  our masks, with the off-by-one of window_size=(w, 0);
- notebook 12 prints these numbers in its checked cells.
"""

from pathlib import Path

import nbformat
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import boolean_masks, every_mask, mask_specs

import attention_lab as al
from attention_lab.numeric import masks
from attention_lab.numeric.kv_cache import prefill_chunks
from attention_lab.numeric.pipeline import STAGES

TOL = 1e-12
T = 6
ALIGNED = [masks.Mask(m.name, align=a, **dict(m.params)) for m in every_mask(T) for a in masks.ALIGNS]
NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "{lang}" / "12_queries_and_keys.ipynb"
SLOW = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def qkv(rng, T_q, T_k, h, g, dh):  # -> Q [T_q, h·dh], K, V [T_k, g·dh]: random floats
    return rng.normal(0, 2, (T_q, h * dh)), rng.normal(0, 2, (T_k, g * dh)), rng.normal(0, 3, (T_k, g * dh))


@st.composite
def problems(draw, square=False, max_T=9):  # -> (Q, K, V, h, g, mask): any shape, any mask of either alignment
    h = draw(st.integers(1, 3))
    g = draw(st.sampled_from([n for n in range(1, h + 1) if h % n == 0]))
    T_k = draw(st.integers(1, max_T))
    T_q = T_k if square else draw(st.integers(1, max_T))
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    mask = draw(st.one_of(mask_specs(T_k), boolean_masks(T_q, T_k)))
    return (*qkv(rng, T_q, T_k, h, g, draw(st.integers(1, 3))), h, g, mask)


# ------------------------------------------------------------------ T_q = T_k: what notebooks 00–11 taught


@pytest.mark.parametrize("align", masks.ALIGNS)
def test_the_square_problem_keeps_every_article_number_in_both_alignments(align):
    tr = al.article_example(mask=al.Mask("causal", align=align))
    np.testing.assert_array_equal(tr.Qh[0, 2], [-1, 1, 1, 2])
    np.testing.assert_array_equal(tr.Kh[0, 0], [1, -1, 2, 1])
    np.testing.assert_array_equal(tr.S[0, 2], [2, 0, 6])
    np.testing.assert_array_equal(tr.S_scaled[0, 1], [3, 1.5, -1])
    np.testing.assert_array_equal(tr.S_masked[0, 1], [3, 1.5, -np.inf])
    np.testing.assert_array_equal(tr.S_masked[0, 2], [1, 0, 3])
    np.testing.assert_allclose(tr.P[0], [[1, 0, 0], [0.818, 0.182, 0], [0.114, 0.042, 0.844]], atol=5e-4)
    np.testing.assert_allclose(tr.O[0, 2], [0.114, 0.042, 0.844, 1], atol=5e-4)
    for name, array in al.article_example(queries=3).arrays().items():  # all three tokens' Query rows: the same trace
        np.testing.assert_array_equal(array, getattr(tr, name), err_msg=name)


@pytest.mark.parametrize("mask", ALIGNED, ids=repr)
def test_with_as_many_queries_as_keys_both_corners_give_the_same_trace(mask):
    Q, K, V = qkv(np.random.default_rng(7), T, T, 2, 2, 3)
    other = masks.Mask(mask.name, align=masks.ALIGNS[1 - masks.ALIGNS.index(mask.align)], **dict(mask.params))
    a, b = al.attention_trace(Q, K, V, 2, mask=mask), al.attention_trace(Q, K, V, 2, mask=other)
    for name in STAGES:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def test_a_rectangular_trace_has_the_shapes_of_the_issue():
    tr = al.article_example(queries=2, T=5, d=12, h=3, kv_heads=1)  # T_q = 2 Query rows, T_k = 5 tokens
    h, T_q, T_k, dh, d, g = 3, 2, 5, 4, 12, 1
    want = {"Q": (T_q, d), "K": (T_k, g * dh), "V": (T_k, g * dh), "Qh": (h, T_q, dh), "Kh": (g, T_k, dh),
            "Vh": (g, T_k, dh), "M": (T_q, T_k), "O": (h, T_q, dh), "H": (T_q, d)}
    for name in STAGES:
        assert getattr(tr, name).shape == want.get(name, (h, T_q, T_k)), name
    assert (tr.T_q, tr.T_k) == (T_q, T_k)
    with pytest.raises(ValueError, match=r"T_q=2 Query tokens and T_k=5 Key tokens; read tr\.T_q or tr\.T_k"):
        _ = tr.T


# ------------------------------------------------------------------ rows with nothing to see


@settings(max_examples=200, **SLOW)
@given(problems())
def test_a_query_token_that_may_see_nothing_gets_weights_and_output_0_never_nan(problem):
    Q, K, V, h, g, mask = problem
    tr = al.attention_trace(Q, K, V, h, mask=mask, kv_heads=g)
    allowed = al.allowed_of(mask, len(Q), len(K))
    empty = ~allowed.any(axis=1)  # (T_q,): Query tokens with no Key token to see
    for name in STAGES:
        assert not np.isnan(getattr(tr, name)).any(), name
    np.testing.assert_array_equal(tr.P[:, ~allowed], 0)  # a masked cell weighs exactly 0
    np.testing.assert_array_equal(tr.P[:, empty], 0)
    np.testing.assert_array_equal(tr.O[:, empty], 0)
    np.testing.assert_array_equal(tr.H[empty], 0)
    np.testing.assert_allclose(tr.P[:, ~empty].sum(axis=-1), 1, rtol=0, atol=TOL)


@pytest.mark.parametrize("T_k", range(1, 7))
@pytest.mark.parametrize("T_q", range(1, 7))
def test_causal_leaves_rows_with_nothing_to_see_bottom_right_with_more_queries_than_keys_never_top_left(T_q, T_k):
    bottom_right = al.allowed_of("causal", T_q, T_k)
    top_left = al.allowed_of(al.Mask("causal", align="top-left"), T_q, T_k)
    assert top_left.any(axis=1).all()  # Query token i sees Key tokens 1 … i + 1: always token 1
    np.testing.assert_array_equal(~bottom_right.any(axis=1), np.arange(T_q) < T_q - T_k)  # the first T_q − T_k rows
    Q, K, V = qkv(np.random.default_rng(T_q * 7 + T_k), T_q, T_k, 2, 2, 2)
    blind = slice(0, max(T_q - T_k, 0))  # the Query tokens placed before the first Key token
    np.testing.assert_array_equal(al.attention_trace(Q, K, V, 2).O[:, blind], 0)
    assert (al.attention_trace(Q, K, V, 2, mask=al.Mask("causal", align="top-left")).P.sum(axis=-1) > 0.5).all()


def test_the_corners_are_the_ones_flash_attention_documents():
    # flash_attn_interface.py: "If causal=True, the causal mask is aligned to the bottom right corner … if seqlen_q = 2
    # and seqlen_k = 5 … 1 1 1 1 0 / 1 1 1 1 1. If seqlen_q = 5 and seqlen_k = 2 … 0 0 / 0 0 / 0 0 / 1 0 / 1 1.
    # If the row of the mask is all zero, the output will be zero."
    np.testing.assert_array_equal(al.allowed_of("causal", 2, 5), [[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]])
    np.testing.assert_array_equal(al.allowed_of("causal", 5, 2), [[0, 0], [0, 0], [0, 0], [1, 0], [1, 1]])
    # torch.nn.functional.scaled_dot_product_attention(is_causal=True): torch.ones(L, S).tril(diagonal=0)
    np.testing.assert_array_equal(al.allowed_of(al.Mask("causal", align="top-left"), 2, 5), np.tril(np.ones((2, 5))))
    np.testing.assert_array_equal(al.allowed_of(al.Mask("causal", align="top-left"), 5, 2), np.tril(np.ones((5, 2))))


# ------------------------------------------------------------------ the KV cache, blockwise, the trace


@settings(max_examples=80, **SLOW)
@given(problems(square=True), st.integers(1, 10))
def test_decode_with_cache_blockwise_attention_and_the_trace_agree(problem, block):
    Q, K, V, h, g, _ = problem
    tr = al.attention_trace(Q, K, V, h, kv_heads=g)  # causal
    np.testing.assert_allclose(al.decode_with_cache(Q, K, V, h, kv_heads=g), tr.H, rtol=0, atol=TOL)
    np.testing.assert_allclose(al.blockwise_attention(Q, K, V, h, block, kv_heads=g), tr.H, rtol=0, atol=TOL)


@settings(max_examples=150, **SLOW)
@given(problems(), st.integers(1, 10))
def test_blockwise_attention_equals_the_trace_for_any_shape_any_mask_and_either_corner(problem, block):
    Q, K, V, h, g, mask = problem
    tr = al.attention_trace(Q, K, V, h, mask=mask, kv_heads=g)
    np.testing.assert_allclose(al.blockwise_attention(Q, K, V, h, block, mask, kv_heads=g), tr.H, rtol=0, atol=TOL)


@settings(max_examples=60, **SLOW)
@given(problems(square=True))
def test_a_decode_step_is_a_trace_of_one_query_row_against_the_cache(problem):
    Q, K, V, h, g, _ = problem
    full = al.attention_trace(Q, K, V, h, kv_heads=g)
    for step in al.decode_steps(Q, K, V, h, kv_heads=g):
        t = step.t
        one = al.attention_trace(Q[t : t + 1], K[: t + 1], V[: t + 1], h, kv_heads=g)  # (1, t + 1): bottom-right
        assert (one.T_q, one.T_k) == (1, t + 1)
        np.testing.assert_array_equal(one.M, 0)  # the last Query row sees every Key token so far: nothing to mask
        for got, want in ((step.S_scaled_row, one.S_scaled[:, 0]), (step.P_row, one.P[:, 0]),
                          (step.O_row, one.O[:, 0]), (step.H_row, one.H[0])):
            np.testing.assert_allclose(got, want, rtol=0, atol=TOL)
        np.testing.assert_allclose(one.P[:, 0], full.P[:, t, : t + 1], rtol=0, atol=TOL)  # row t of the full P
        np.testing.assert_array_equal(full.P[:, t, t + 1 :], 0)  # … whose other entries are the tokens to come
        np.testing.assert_allclose(one.H[0], full.H[t], rtol=0, atol=TOL)


def test_the_articles_decode_step_is_row_3_and_top_left_would_see_token_1_only():
    tr, step = al.article_example(), al.article_example(queries=1)  # token 3's Query row against the three tokens
    assert (step.T_q, step.T_k) == (1, 3)
    np.testing.assert_array_equal(step.S[0, 0], [2, 0, 6])
    np.testing.assert_array_equal(step.S_scaled[0, 0], [1, 0, 3])
    for name in ("S", "S_scaled", "S_masked", "E", "P", "O"):
        np.testing.assert_array_equal(getattr(step, name)[:, 0], getattr(tr, name)[:, 2], err_msg=name)
    np.testing.assert_allclose(step.P[0, 0], [0.114, 0.042, 0.844], atol=5e-4)
    np.testing.assert_allclose(step.O[0, 0], [0.114, 0.042, 0.844, 1], atol=5e-4)
    wrong = al.attention_trace(step.Q, tr.K, tr.V, 2, mask=al.Mask("causal", align="top-left"))
    np.testing.assert_array_equal(wrong.P[:, 0], [[1, 0, 0], [1, 0, 0]])  # the single Query row read as token 1


# ------------------------------------------------------------------ chunked prefill


def _looks_past_its_chunk(mask, chunk):  # -> True when a token may see a token of a later chunk, not read yet
    allowed = al.allowed_of(mask, T)
    return any(allowed[a : a + chunk, a + chunk :].any() for a in range(0, T, chunk))


@pytest.mark.parametrize("chunk", range(1, T + 2))
@pytest.mark.parametrize("mask", ALIGNED, ids=repr)
def test_chunked_prefill_of_any_chunk_size_is_the_full_trace(mask, chunk):
    Q, K, V = qkv(np.random.default_rng(chunk), T, T, 4, 2, 2)
    if _looks_past_its_chunk(mask, chunk):
        with pytest.raises(ValueError, match=r"^mask: .* which comes after its chunk"):
            prefill_chunks(Q, K, V, 4, chunk, mask, kv_heads=2)
        return
    full = al.attention_trace(Q, K, V, 4, mask=mask, kv_heads=2)
    chunks = prefill_chunks(Q, K, V, 4, chunk, mask, kv_heads=2)
    starts = range(0, T, chunk)
    assert [(c.T_q, c.T_k) for c in chunks] == [(min(chunk, T - a), min(a + chunk, T)) for a in starts]
    for a, c in zip(starts, chunks, strict=True):
        b = a + c.T_q
        np.testing.assert_allclose(c.P, full.P[:, a:b, :b], rtol=0, atol=TOL)  # rows a … b − 1 of the full P
        np.testing.assert_array_equal(full.P[:, a:b, b:], 0)  # the tokens not read yet get no weight
    np.testing.assert_allclose(np.concatenate([c.H for c in chunks]), full.H, rtol=0, atol=TOL)


def test_the_registry_has_masks_of_both_kinds_for_chunked_prefill():
    ahead = {m.name for m in ALIGNED if _looks_past_its_chunk(m, 1)}
    assert {"none", "window", "prefix"} <= ahead  # so both branches above are tested
    assert {"causal", "sliding", "padding", "packed"}.isdisjoint(ahead)
    assert not any(_looks_past_its_chunk(m, T) for m in ALIGNED)  # one chunk is the whole prompt: any mask


@settings(max_examples=60, **SLOW)
@given(problems(square=True), st.integers(1, 10), st.data())
def test_chunked_prefill_with_any_lower_triangular_mask_is_the_full_trace(problem, chunk, data):
    Q, K, V, h, g, _ = problem
    n = len(Q)
    mask = data.draw(boolean_masks(n, n)) & np.tril(np.ones((n, n), bool))  # a custom mask that never looks ahead
    full = al.attention_trace(Q, K, V, h, mask=mask, kv_heads=g)
    chunks = prefill_chunks(Q, K, V, h, chunk, mask, kv_heads=g)
    np.testing.assert_allclose(np.concatenate([c.H for c in chunks]), full.H, rtol=0, atol=TOL)


def test_the_articles_prefill_in_chunks_of_2_and_each_chunk_keeps_its_mask_name():
    tr = al.article_example()
    first, second = prefill_chunks(tr.Q, tr.K, tr.V, tr.h, 2)
    assert (first.T_q, first.T_k, second.T_q, second.T_k) == (2, 2, 1, 3)
    assert first.mask_name == second.mask_name == "causal"
    np.testing.assert_array_equal(first.S_masked[0], [[1.5, -np.inf], [3, 1.5]])  # token 3's Key is not read yet
    np.testing.assert_allclose(second.P[0, 0], [0.114, 0.042, 0.844], atol=5e-4)
    np.testing.assert_array_equal(np.concatenate([first.H, second.H]), tr.H)


def test_decoding_and_prefill_refuse_query_rows_without_their_key_rows():
    tr = al.article_example()
    for call in (lambda: al.decode_with_cache(tr.Q[1:], tr.K, tr.V, 2),
                 lambda: prefill_chunks(tr.Q[1:], tr.K, tr.V, 2, chunk=1)):
        with pytest.raises(ValueError, match=r"^Q, K: .* got T_q=2, T_k=3\. For Query rows against a longer cache "
                                             r"use attention_trace"):
            call()
    with pytest.raises(ValueError, match=r"^chunk: must be ≥ 1, got 0"):
        prefill_chunks(tr.Q, tr.K, tr.V, 2, chunk=0)


# ------------------------------------------------------------------ window conventions


def flash_window(T_q, T_k, left, right):  # flash-attention's window_size=(left, right), as its docstring writes it
    # "Query at position i will only attend to keys between
    #  [i + seqlen_k - seqlen_q - window_size[0], i + seqlen_k - seqlen_q + window_size[1]] inclusive."
    i, j = np.arange(T_q)[:, None], np.arange(T_k)[None, :]
    return (j >= i + T_k - T_q - left) & (j <= i + T_k - T_q + right)


def xformers_local(T_q, T_k, window_size):  # LowerTriangularFromBottomRightLocalAttentionMask(window_size)
    shift = T_k - T_q  # xformers' _materialize_causal_mask(…, window_size=…, from_bottomright=True)
    return np.triu(np.tril(np.ones((T_q, T_k), bool), shift), shift - window_size + 1)


def transformer_lens_local(T_q, T_k, window_size, n_ctx=16):  # attn_type "local", window_size=…
    mask = np.triu(np.tril(np.ones((n_ctx, n_ctx), bool)), 1 - window_size)  # "query - window_size < key <= query"
    return mask[-T_q:, -T_k:]  # apply_causal_mask: "Index back to front"


@pytest.mark.parametrize("w", range(1, 7))
@pytest.mark.parametrize("T_k", range(1, 7))
@pytest.mark.parametrize("T_q", range(1, 7))
def test_the_window_conventions_are_our_masks_with_the_off_by_one_of_w_0(T_q, T_k, w):
    sliding = al.allowed_of(al.Mask("sliding", window=min(w, T_k)), T_q, T_k)
    np.testing.assert_array_equal(flash_window(T_q, T_k, w - 1, 0), sliding)  # window_size=(w − 1, 0): w Key tokens
    np.testing.assert_array_equal(xformers_local(T_q, T_k, w), sliding)
    np.testing.assert_array_equal(transformer_lens_local(T_q, T_k, w), sliding)
    plus_one = al.allowed_of(al.Mask("sliding", window=min(w + 1, T_k)), T_q, T_k)
    np.testing.assert_array_equal(flash_window(T_q, T_k, w, 0), plus_one)  # window_size=(w, 0): w + 1 Key tokens
    for left in range(T_k):
        for right in range(T_k):
            np.testing.assert_array_equal(flash_window(T_q, T_k, left, right),
                                          al.allowed_of(al.Mask("window", left=left, right=right), T_q, T_k))


def test_the_off_by_one_on_the_articles_tokens():
    w = 2
    keys = al.allowed_of(al.Mask("window", left=w, right=0), 3).sum(axis=1)  # flash-attention's (w, 0)
    np.testing.assert_array_equal(al.allowed_of(al.Mask("sliding", window=w), 3).sum(axis=1), [1, 2, 2])
    np.testing.assert_array_equal(keys, [1, 2, 3])  # token 3 sees w + 1 = 3 Key tokens


# ------------------------------------------------------------------ notebook 12 prints these numbers


def checked_output(lang):  # -> all text printed by the checked cells of notebook 12 in `lang`
    nb = nbformat.read(str(NOTEBOOK).format(lang=lang), as_version=4)
    cells = [c for c in nb.cells if c.cell_type == "code" and "nbval-check-output" in c.metadata.get("tags", [])]
    return "".join(out.get("text", "") for c in cells for out in c.outputs if out.output_type == "stream")


@pytest.mark.parametrize("lang", ("ko", "en"))
def test_notebook_12_prints_the_articles_numbers_for_each_situation(lang):
    printed = checked_output(lang)
    for number in ("[2, 0, 6]", "[1, 0, 3]", "[0.114, 0.042, 0.844]", "[0.114, 0.042, 0.844, 1]",  # the decode step
                   "[1.5, −∞]",  # chunk 1: token 1 sees token 1 only
                   "[1, 0, 0]", "[0.731, 0.269, 0]",  # the SDPA pitfall: is_causal=True's rows on the (2 × 3) problem
                   ):
        assert number in printed, (lang, number)
