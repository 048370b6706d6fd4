"""The ways of writing a mask: what each writes, what a library reading it adds, and what that does to P."""

import numpy as np
import pytest

import attention_lab as al
from attention_lab.look.words import WORDS
from attention_lab.numeric.conventions import CONVENTIONS, FLOAT16_MIN

FINITE = ("minus_1e9", "minus_1e4", "float16_min")
EXACT = ("additive", "may_attend", "masked")  # read back as 0 / −∞


def masks_of(T):  # -> every mask of the registry at T tokens, and two custom ones with empty rows
    rng = np.random.default_rng(T)
    found = [al.allowed_of(name, T) for name in al.masks.MASK_NAMES]
    found += [al.allowed_of(al.Mask("padding", length=L), T) for L in range(T + 1)]
    found += [rng.random((T, T)) < 0.4, np.zeros((T, T), bool)]
    return found


def test_every_convention_is_complete_and_the_fills_are_what_their_names_say():
    assert list(CONVENTIONS) == ["additive", "may_attend", "masked", "minus_1e9", "minus_1e4", "float16_min"]
    for name, c in CONVENTIONS.items():
        assert c.name == name
        for key in (f"convention.{name}", f"convention.{name}.used"):
            assert all(text.strip() for text in WORDS[key])
        assert (c.fill is None) != (c.true_means is None)
    assert [CONVENTIONS[n].fill for n in FINITE] == [-1e9, -1e4, -65504.0] and FLOAT16_MIN == -65504.0
    assert np.float16(FLOAT16_MIN) == FLOAT16_MIN and CONVENTIONS["additive"].fill == -np.inf


@pytest.mark.parametrize("T", [1, 2, 5])
def test_what_each_convention_writes(T):
    for allowed in masks_of(T):
        np.testing.assert_array_equal(CONVENTIONS["additive"].write(allowed), np.where(allowed, 0.0, -np.inf))
        np.testing.assert_array_equal(CONVENTIONS["may_attend"].write(allowed), allowed)
        np.testing.assert_array_equal(CONVENTIONS["masked"].write(allowed), ~allowed)
        for name in FINITE:
            written = CONVENTIONS[name].write(allowed)
            assert np.isfinite(written).all()
            np.testing.assert_array_equal(written == 0, allowed)


@pytest.mark.parametrize("T", [1, 3, 6])
def test_read_by_its_own_convention_every_mask_comes_back(T):
    for allowed in masks_of(T):
        for name, c in CONVENTIONS.items():
            M = c.additive(c.write(allowed))
            want = np.where(allowed, 0.0, -np.inf if name in EXACT else c.fill)
            np.testing.assert_array_equal(M, want)


def test_the_classic_bug_a_may_attend_mask_read_as_masked_is_the_inverted_mask():
    allowed = al.causal_allowed(4)
    M = CONVENTIONS["masked"].additive(CONVENTIONS["may_attend"].write(allowed))
    np.testing.assert_array_equal(M, np.where(allowed, -np.inf, 0.0))  # −∞ where attending was allowed
    assert (M[-1] == -np.inf).all()  # the last token may attend to nothing: every other token is in its past
    np.testing.assert_array_equal(np.diag(M), -np.inf)  # no token sees itself


@pytest.mark.parametrize("seed", range(5))
def test_every_convention_gives_the_same_weights_in_a_row_with_something_to_attend_to(seed):
    rng = np.random.default_rng(seed)
    T = 6
    S_scaled = rng.uniform(-8, 8, (T, T))
    for allowed in masks_of(T):
        weights = {name: al.softmax(al.apply_mask(S_scaled, c.additive(c.write(allowed))))
                   for name, c in CONVENTIONS.items()}
        rows = allowed.any(axis=1)
        for name, P in weights.items():
            # bit for bit: exp(score − 1e4 − max) underflows to exactly 0, like exp(−∞)
            np.testing.assert_array_equal(P[rows], weights["additive"][rows], err_msg=name)


def test_in_a_fully_masked_row_only_minus_infinity_reads_nothing():
    tr = al.article_example(mask=al.Mask("padding", length=4), T=6)
    S_scaled = tr.S_scaled[0]
    allowed = al.allowed_of(al.Mask("padding", length=4), 6)
    for name, c in CONVENTIONS.items():
        P = al.softmax(al.apply_mask(S_scaled, c.additive(c.write(allowed))))
        if name in EXACT:
            np.testing.assert_array_equal(P[4:], 0)
        else:
            # S/√dh + c: the same constant c in every cell of the row cancels in the softmax, so the padding
            # row attends to every token as if there were no mask at all (up to rounding s + c).
            e = np.exp(S_scaled[4:] - S_scaled[4:].max(axis=-1, keepdims=True))
            np.testing.assert_allclose(P[4:], e / e.sum(axis=-1, keepdims=True), atol=1e-6)
            assert (P[4:] > 0).all()


@pytest.mark.parametrize("call, match", [
    (lambda: CONVENTIONS["additive"].write(np.ones((3, 3))), r"allowed: a boolean mask must hold True/False"),
    (lambda: CONVENTIONS["masked"].write(np.ones((2, 3), bool)), r"allowed: a mask must be a square \(T, T\)"),
    (lambda: CONVENTIONS["masked"].additive(np.zeros((3, 3))), r"written: a boolean mask must hold True/False"),
    (lambda: CONVENTIONS["minus_1e9"].additive(np.ones((3, 3), bool)),
     r"written: the 'minus_1e9' convention reads a float mask .* got True/False"),
    (lambda: CONVENTIONS["minus_1e4"].additive([["a"]]), r"written: must be a float mask"),
])
def test_bad_masks_are_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()
