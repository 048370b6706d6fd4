"""The stage and mask registries: one entry per stage or mask, read by the trace and every renderer."""

import numpy as np
import pytest

import attention_lab as al
from attention_lab import masks, style
from attention_lab.stages import HEAD_STAGES, STAGES


def brute(T, rule):  # -> [T, T] bool from a rule (i, j) -> bool, one cell at a time
    return np.array([[rule(i, j) for j in range(T)] for i in range(T)])


@pytest.mark.parametrize("T", range(1, 9))
def test_each_mask_allows_what_its_definition_says(T):
    for w in range(1, T + 1):
        np.testing.assert_array_equal(masks.allowed_of("sliding", T, window=w),
                                      brute(T, lambda i, j, w=w: i - w < j <= i))
    for L in range(T + 1):
        np.testing.assert_array_equal(masks.allowed_of("padding", T, length=L),
                                      brute(T, lambda i, j, L=L: j <= i and j < L and i < L))
    for p in range(T + 1):
        np.testing.assert_array_equal(masks.allowed_of("prefix", T, prefix=p),
                                      brute(T, lambda i, j, p=p: j <= i or (i < p and j < p)))
    np.testing.assert_array_equal(masks.allowed_of("causal", T), brute(T, lambda i, j: j <= i))
    np.testing.assert_array_equal(masks.allowed_of(None, T), np.ones((T, T), bool))


def test_special_cases_of_the_masks_are_the_simple_ones():
    T = 6
    np.testing.assert_array_equal(masks.allowed_of("sliding", T, window=T), masks.causal_allowed(T))
    np.testing.assert_array_equal(masks.allowed_of("padding", T, length=T), masks.causal_allowed(T))
    np.testing.assert_array_equal(masks.allowed_of("prefix", T, prefix=0), masks.causal_allowed(T))
    np.testing.assert_array_equal(masks.allowed_of("prefix", T, prefix=T), np.ones((T, T), bool))
    np.testing.assert_array_equal(masks.allowed_of("sliding", T, window=1), np.eye(T, dtype=bool))


def test_every_mask_entry_is_complete():
    for name, mask in masks.MASKS.items():
        assert mask.name == name
        for words in (mask.label, mask.caption, mask.used):
            assert set(words) == {"ko", "en"} and all(words.values()), name
        for p in mask.params:
            assert set(p.label) == {"ko", "en"} and p.lo <= p.default
    assert masks.MASK_NAMES == ("causal", "none", "sliding", "padding", "prefix")


@pytest.mark.parametrize("name", ["sliding", "padding", "prefix"])
def test_masks_with_parameters_work_in_the_trace_and_keep_their_parameters(name):
    param = masks.MASKS[name].params[0].name
    tr = al.article_example(mask=name, T=5, **{param: 2})
    np.testing.assert_array_equal(tr.M == 0, masks.allowed_of(name, 5, **{param: 2}))
    assert tr.mask_name == name and tr.mask_params == {param: 2}
    assert f"{param}=2" in repr(tr)
    default = al.article_example(mask=name, T=5)
    assert default.mask_params == {param: masks.MASKS[name].params[0].default_for(5)}


def test_a_padding_row_gives_zeros_never_nan():
    tr = al.article_example(mask="padding", T=5, length=3)
    np.testing.assert_array_equal(tr.P[:, 3:], 0)
    np.testing.assert_array_equal(tr.O[:, 3:], 0)
    np.testing.assert_array_equal(tr.P[:, :, 3:], 0)  # no token attends to the padding
    np.testing.assert_allclose(tr.P[:, :3, :3], al.article_example().P)  # the real tokens: the article's numbers


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"mask": "sliding", "window": 0}, r"window: must be from 1 to 3"),
    ({"mask": "sliding", "window": 4}, r"window: must be from 1 to 3"),
    ({"mask": "sliding", "window": 2.0}, r"window: must be a whole number"),
    ({"mask": "sliding", "window": True}, r"window: must be a whole number, got True/False"),
    ({"mask": "padding", "length": -1}, r"length: must be from 0 to 3"),
    ({"mask": "causal", "window": 2}, r"window: mask 'causal' takes no parameters.*'sliding'"),
    ({"mask": "sliding", "prefix": 2}, r"prefix: mask 'sliding' takes window"),
    ({"mask": None, "length": 2}, r"length: mask 'none' takes no parameters"),
    ({"mask": "window"}, r"mask: unknown mask name 'window'.*'sliding'"),
])
def test_bad_mask_parameters_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        al.article_example(**kwargs)


def test_every_stage_entry_is_complete_and_readable_from_a_trace():
    tr = al.article_example(T=4, d=12, h=3, kv_heads=1)
    for name, stage in STAGES.items():
        assert stage.name == name and set(stage.label) == {"ko", "en"} and all(stage.label.values())
        assert stage.kind in style.CMAPS and style.KIND_OF[name] == stage.kind
        assert stage.heads in ("query", "kv", "") and len(stage.axes) == 2
        for head in range(tr.h):
            matrix = stage.matrix(tr, head)
            assert matrix.ndim == 2, name
    np.testing.assert_array_equal(STAGES["Kh"].matrix(tr, 2), tr.Kh[0])  # every Query head reads the one K/V head
    np.testing.assert_array_equal(STAGES["M"].matrix(tr, 1), tr.M)
    assert set(HEAD_STAGES) <= set(STAGES)
    assert list(STAGES)[:3] == ["Q", "K", "V"] and list(STAGES)[-1] == "H"


def test_p_unscaled_is_the_softmax_without_the_scale():
    tr = al.article_example()
    np.testing.assert_allclose(STAGES["P_unscaled"].matrix(tr, 0)[2], al.softmax(np.array([2.0, 0, 6])))
    np.testing.assert_allclose(STAGES["P_unscaled"].value(tr), al.attention_trace(tr.Q, tr.K, tr.V, 2,
                                                                                   scaled=False).P)
