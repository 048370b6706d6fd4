"""The pipeline and the mask registry: one entry per stage or mask, with its words, read by the trace and every
renderer. Each test runs over every entry, so a new stage or mask is tested with no list edited."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import every_mask, mask_specs

import attention_lab as al
from attention_lab.look import colors, words
from attention_lab.numeric import masks, pipeline
from attention_lab.numeric.pipeline import HEAD_STAGES, PIPELINE, STAGES

# The rule of each mask written cell by cell, for Query position p and Key position j (T Key tokens), as the
# article and the mask's caption say it: what the registry's vectorised rules must agree with.
BY_HAND = {
    "causal": lambda p, j, T: j <= p,
    "none": lambda p, j, T: True,
    "sliding": lambda p, j, T, window: p - window < j <= p,
    "window": lambda p, j, T, left, right: p - left <= j <= p + right,
    "padding": lambda p, j, T, length: j <= p and j < length and p < length,
    "prefix": lambda p, j, T, prefix: j <= p or (p < prefix and j < prefix),
    "packed": lambda p, j, T, lengths: j <= p and 0 <= p < T and _doc(lengths, p) == _doc(lengths, j),
}


def _doc(lengths, position):  # which sequence a position falls in
    return int(np.searchsorted(np.cumsum(lengths), position, side="right"))


def test_every_mask_has_a_rule_written_by_hand():
    assert set(BY_HAND) == set(masks.MASK_NAMES)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_each_mask_allows_what_its_rule_says_for_every_shape_and_corner(T_q, T_k, data):
    mask = data.draw(mask_specs(T_k))
    offset = T_k - T_q if mask.align == "bottom-right" else 0
    params = dict(mask.checked(T_q, T_k).params)
    want = np.array([[bool(BY_HAND[mask.name](i + offset, j, T_k, **params)) for j in range(T_k)] for i in range(T_q)])
    np.testing.assert_array_equal(mask.allowed(T_q, T_k), want)


@pytest.mark.parametrize("mask", every_mask(6), ids=repr)
def test_both_corners_agree_when_there_are_as_many_queries_as_keys(mask):
    top_left = masks.Mask(mask.name, align="top-left", **dict(mask.params))
    np.testing.assert_array_equal(mask.allowed(6), top_left.allowed(6))


def test_the_corners_of_causal_on_a_two_by_three_problem():
    bottom_right = al.allowed_of("causal", 2, 3)  # the last two tokens of three: what a chunk of new tokens sees
    top_left = al.allowed_of(al.Mask("causal", align="top-left"), 2, 3)  # SDPA's is_causal=True
    np.testing.assert_array_equal(bottom_right, [[1, 1, 0], [1, 1, 1]])
    np.testing.assert_array_equal(top_left, [[1, 0, 0], [1, 1, 0]])


def test_special_cases_of_the_masks_are_the_simple_ones():
    T = 6
    causal = masks.causal_allowed(T)
    for spec in (al.Mask("sliding", window=T), al.Mask("padding", length=T), al.Mask("prefix", prefix=0),
                 al.Mask("packed", lengths=(T,)), al.Mask("window", left=T - 1, right=0)):
        np.testing.assert_array_equal(al.allowed_of(spec, T), causal, err_msg=repr(spec))
    np.testing.assert_array_equal(al.allowed_of(al.Mask("prefix", prefix=T), T), np.ones((T, T), bool))
    np.testing.assert_array_equal(al.allowed_of(al.Mask("window", left=T - 1, right=T - 1), T), np.ones((T, T), bool))
    np.testing.assert_array_equal(al.allowed_of(al.Mask("sliding", window=1), T), np.eye(T, dtype=bool))


@pytest.mark.parametrize("name", masks.MASK_NAMES)
def test_every_mask_has_its_words_in_both_languages(name):
    kind = masks.MASKS[name]
    keys = [f"mask.{name}", f"mask.{name}.caption", f"mask.{name}.used"]
    keys += [f"param.{name}.{p.name}" for p in kind.params]
    for key in keys:
        ko, en = words.WORDS[key]
        assert ko.strip() and en.strip(), key
    for p in kind.params:
        assert p.default_for(1) in p.values(1) and all(p.default_for(T) in p.values(T) for T in range(1, 17))


@pytest.mark.parametrize("name", [n for n in masks.MASK_NAMES if masks.MASKS[n].params])
def test_a_masks_parameters_reach_the_trace_with_defaults_filled_in(name):
    kind = masks.MASKS[name]
    p = kind.params[-1]
    value = p.values(5)[0]
    tr = al.article_example(mask=al.Mask(name, **{p.name: value}), T=5)
    np.testing.assert_array_equal(tr.M == 0, al.allowed_of(al.Mask(name, **{p.name: value}), 5))
    assert tr.mask_name == name and tr.mask_params[p.name] == value
    assert set(tr.mask_params) == {q.name for q in kind.params}
    assert f"{p.name}={value!r}" in repr(tr) or f"{p.name}={value}" in repr(tr)
    default = al.article_example(mask=name, T=5)
    assert default.mask_params == {q.name: q.default_for(5) for q in kind.params}


def test_a_padding_row_gives_zeros_never_nan():
    tr = al.article_example(mask=al.Mask("padding", length=3), T=5)
    np.testing.assert_array_equal(tr.P[:, 3:], 0)
    np.testing.assert_array_equal(tr.O[:, 3:], 0)
    np.testing.assert_array_equal(tr.P[:, :, 3:], 0)  # no token attends to the padding
    np.testing.assert_allclose(tr.P[:, :3, :3], al.article_example().P)  # the real tokens: the article's numbers


@pytest.mark.parametrize(("mask", "match"), [
    (lambda: al.Mask("sliding", window=0), r"^window: must be from 1 to 3"),
    (lambda: al.Mask("sliding", window=4), r"^window: must be from 1 to 3"),
    (lambda: al.Mask("sliding", window=2.0), r"^window: must be a whole number"),
    (lambda: al.Mask("sliding", window=True), r"^window: must be a whole number, got True/False"),
    (lambda: al.Mask("padding", length=-1), r"^length: must be from 0 to 3"),
    (lambda: al.Mask("packed", lengths=(2, 2)), r"^lengths: .* add up to 4, but there are T_k=3"),
    (lambda: al.Mask("packed", lengths=3), r"^lengths: must be a tuple"),
    (lambda: al.Mask("causal", window=2), r"^window: mask 'causal' takes no parameters; window belongs to "
                                          r"Mask\('sliding', window=…\)"),
    (lambda: al.Mask("sliding", prefix=2), r"^prefix: mask 'sliding' takes window; prefix belongs to Mask\('prefix'"),
    (lambda: al.Mask("sliding", widow=2), r"^widow: mask 'sliding' takes window; did you mean window=…\?"),
    (lambda: "window_size", r"^mask: unknown mask name 'window_size'. Did you mean 'window'\?"),
    (lambda: al.Mask("causal", align="top_left"), r"^align: use one of 'bottom-right', 'top-left'"),
    (lambda: {"sliding": {"window": 2}}, r"^mask: pass the mask as one value, Mask\(name, \*\*parameters\)"),
])
def test_bad_masks_are_named(mask, match):
    with pytest.raises(ValueError, match=match):
        al.article_example(mask=mask())


def test_a_mask_parameter_passed_beside_the_mask_is_pointed_at_its_mask():
    with pytest.raises(ValueError, match=r"^window: is a parameter of a mask.*mask=Mask\('sliding', window=…\)"):
        al.article_example(mask="sliding", window=2)


def test_a_mask_is_one_value_and_compares_as_one():
    a, b = al.Mask("sliding", window=2), al.Mask("sliding", window=2)
    assert a == b and hash(a) == hash(b) and a != al.Mask("sliding", window=3) and a != al.Mask("causal")
    with pytest.raises(AttributeError):
        a.name = "causal"
    import pickle

    assert pickle.loads(pickle.dumps(a)) == a
    custom = al.Mask.of(np.eye(3, dtype=bool))
    assert pickle.loads(pickle.dumps(custom)) == custom


@pytest.mark.parametrize("stage", PIPELINE, ids=lambda s: s.name)
def test_every_stage_is_a_field_of_the_trace_with_its_words(stage):
    tr = al.article_example(T=5, d=12, h=3, kv_heads=1)  # dh = 4, g = 1: each size its own number but dh and g·dh
    ko, en = words.WORDS[f"stage.{stage.name}"]
    assert ko.strip() and en.strip()
    assert stage.kind in colors.CMAPS and stage.heads in ("query", "kv", "") and len(stage.axes) == 2
    # The field's shape is what the stage's heads and axes say: h Query heads or g K/V heads first; 5 rows (Query
    # or Key tokens); 5 columns of Key tokens, or components: dh = 4 in a head, d = 12 in Q and H, g·dh = 4 in K, V.
    heads = {"query": (3,), "kv": (1,), "": ()}[stage.heads]
    cols = 5 if stage.axes[1] == "key" else 4 if stage.heads or stage.name in ("K", "V") else 12
    assert getattr(tr, stage.name).shape == (*heads, 5, cols), stage.name
    for head in range(tr.h):
        assert stage.matrix(tr, head).shape == (5, cols)
    if stage.expression is not None:  # computed from the stages before it, and from nothing later
        earlier = [s.name for s in PIPELINE[:PIPELINE.index(stage)]]
        assert set(stage.inputs) <= set(earlier), stage.name
    else:
        assert stage.name in pipeline.INPUTS


def test_the_trace_keeps_the_articles_order_of_its_stages():
    """The article's stages, in the article's order (Q, K, V; S = QKᵀ; the √dh scale; the mask; the softmax;
    O = PV; Concat), written out: tr.arrays() is built from the pipeline's list, so that list would be no reference.
    Other stages (the heads' parts, E, P_unscaled, or a new one) may stand between them: a stage added to the
    pipeline needs no edit here."""
    article = ["Q", "K", "V", "S", "S_scaled", "M", "S_masked", "P", "O", "H"]
    names = list(al.article_example().arrays())
    assert [n for n in names if n in article] == article
    assert len(set(names)) == len(names)


def test_a_kv_stage_reads_the_kv_head_of_each_query_head():
    tr = al.article_example(T=4, d=12, h=3, kv_heads=1)
    for head in range(3):  # every Query head reads the one K/V head
        np.testing.assert_array_equal(STAGES["Kh"].matrix(tr, head), tr.Kh[0])
    np.testing.assert_array_equal(STAGES["M"].matrix(tr, 1), tr.M)


def test_every_stage_of_a_head_is_on_the_main_path_from_s_to_o():
    names = [s.name for s in PIPELINE]
    assert HEAD_STAGES[0] == "S" and HEAD_STAGES[-1] == "O"
    assert list(HEAD_STAGES) == sorted(HEAD_STAGES, key=names.index)
    assert all(STAGES[n].path and STAGES[n].per_head for n in HEAD_STAGES)
    assert [n for n in names[names.index("S"):names.index("O") + 1] if STAGES[n].path] == list(HEAD_STAGES)


def test_the_row_exponentials_are_the_softmax_before_dividing():
    tr = al.article_example()
    np.testing.assert_allclose(tr.E[0, 2], np.exp(np.array([1.0, 0, 3]) - 3))  # e^(s − max) of the article's row 3
    np.testing.assert_array_equal(tr.E[0, 0], [1, 0, 0])  # e^−∞ = 0
    np.testing.assert_allclose(tr.P, tr.E / tr.E.sum(axis=-1, keepdims=True))
    assert tr.E.max(axis=-1).tolist() == [[1, 1, 1]] * 2  # the largest of a row is e⁰ = 1


def test_a_fully_masked_row_has_no_exponentials_and_no_weights():
    tr = al.article_example(mask=al.Mask("padding", length=2), T=4)
    np.testing.assert_array_equal(tr.E[:, 2:], 0)
    np.testing.assert_array_equal(tr.P[:, 2:], 0)


def test_p_unscaled_is_the_softmax_without_the_scale():
    tr = al.article_example()
    e = [math.exp(s) for s in (2, 0, 6)]  # the article's unscaled scores of Query token 3, Head 1
    np.testing.assert_allclose(STAGES["P_unscaled"].matrix(tr, 0)[2], [x / sum(e) for x in e])
    for head in range(2):  # every cell: e^(q·k) over the Key tokens up to i, q·k summed column by column
        cols = range(head * 4, head * 4 + 4)
        for i in range(3):
            e = [math.exp(sum(tr.Q[i, c] * tr.K[j, c] for c in cols)) for j in range(i + 1)]
            np.testing.assert_allclose(tr.P_unscaled[head, i], [x / sum(e) for x in e] + [0] * (2 - i), rtol=1e-14)


def test_a_hook_replaces_a_stage_and_the_later_stages_follow():
    tr = al.article_example()
    zeroed = al.attention_trace(tr.Q, tr.K, tr.V, 2, hooks={"P": lambda P: P * np.array([0.0, 1.0])[:, None, None]})
    np.testing.assert_array_equal(zeroed.P[0], 0)
    np.testing.assert_array_equal(zeroed.O[0], 0)  # Head 1's output follows its zeroed weights
    np.testing.assert_array_equal(zeroed.H[:, 4:], tr.H[:, 4:])  # Head 2 is untouched
    with pytest.raises(ValueError, match="^hooks: the hook of 'S' must return an array of shape"):
        al.attention_trace(tr.Q, tr.K, tr.V, 2, hooks={"S": lambda S: S[0]})
    with pytest.raises(ValueError, match="^hooks: must be a dict of stage name"):
        al.attention_trace(tr.Q, tr.K, tr.V, 2, hooks={"scores": lambda S: S})


@pytest.fixture
def dilated(monkeypatch):
    """The reviewer's scratch mask, as one registry entry and its words: "dilated", every `step`-th earlier token."""
    import functools

    kind = masks.MaskKind("dilated", lambda p, j, T, step: (j <= p) & ((p - j) % step == 0),
                          (masks.Param("step", default=2, lo=1, hi_T=0),))
    monkeypatch.setitem(masks.MASKS, "dilated", kind)
    monkeypatch.setattr(masks, "MASK_NAMES", (*masks.MASK_NAMES, "dilated"))
    for key, pair in {"mask.dilated": ("팽창 마스크", "dilated"), "mask.dilated.caption": ("step칸마다", "Every step."),
                      "mask.dilated.used": ("시험용", "tests"), "param.dilated.step": ("간격", "step")}.items():
        monkeypatch.setitem(words.WORDS, key, pair)
    monkeypatch.setattr(words, "table", functools.cache(words.table.__wrapped__))
    return kind


def test_the_reviewers_dilated_mask_is_one_entry_and_its_words(dilated, browser, tmp_path):
    """It reaches the trace, the explorer's controls, the page's mask tables and the figures command, each checked
    against the rule written cell by cell: token i sees token j when j ≤ i and i − j is a multiple of step."""
    from attention_lab.figures import command
    from attention_lab.live import data
    from attention_lab.live import page as pages

    def by_hand(T_q, T, step):  # bottom-right: Query row i sits at position i + T − T_q
        return np.array([[j <= i + T - T_q and (i + T - T_q - j) % step == 0 for j in range(T)] for i in range(T_q)])

    tr = al.article_example(mask=al.Mask("dilated", step=3), T=7)
    np.testing.assert_array_equal(tr.M == 0, by_hand(7, 7, 3))
    ex = al.explorer(view="masks", T=6)
    ex.controls["mask"].value = "dilated"
    ex.controls["dilated.step"].value = 2
    np.testing.assert_array_equal(ex.trace.M == 0, by_hand(6, 6, 2))
    data.mask_tables.cache_clear()
    try:
        path = tmp_path / "page.html"
        path.write_text(pages.standalone_html(ex.page_config()), encoding="utf-8")
        page = browser.new_page()
        page.goto(path.as_uri())
        ons = [{"mask": "dilated", "T": T, "T_q": T_q, "align": "bottom-right", "params": [step]}
               for T, T_q, step in ((6, 6, 2), (9, 4, 3), (16, 16, 5), (3, 1, 1))]
        got = page.evaluate("([data, ons]) => ons.map((on) => attentionLab.allowedOf(data, on))",
                            [data.explorer_data(["dilated"]), ons])
        page.close()
    finally:
        data.mask_tables.cache_clear()
    for on, rows in zip(ons, got, strict=True):
        np.testing.assert_array_equal(rows, by_hand(on["T_q"], on["T"], on["params"][0]), err_msg=str(on))
    assert command.main(["--out", str(tmp_path), "--format", "png", "--dpi", "40", "--mask", "dilated:step=2"]) == 0
    assert (tmp_path / "fig3_mask_en.png").stat().st_size > 1000
