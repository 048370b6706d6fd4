"""Bad input: a ValueError that names the argument, the problem and the fix."""

import numpy as np
import pytest

import attention_lab as al

X = np.ones((3, 8))


def test_d_not_divisible_by_h_lists_the_h_that_work():
    with pytest.raises(ValueError, match=r"h: d=8 is not divisible by h=3.*h in \[1, 2, 4, 8\]"):
        al.attention_trace(X, X, X, h=3)
    with pytest.raises(ValueError, match=r"d=12 is not divisible by h=5.*\[1, 2, 3, 4, 6, 12\]"):
        al.random_example(T=2, d=12, h=5)


@pytest.mark.parametrize("h", [0, -1])
def test_h_at_least_one(h):
    with pytest.raises(ValueError, match="h: there must be at least one head"):
        al.attention_trace(X, X, X, h=h)


def test_h_must_be_whole():
    with pytest.raises(ValueError, match="h: must be a whole number"):
        al.attention_trace(X, X, X, h=2.0)


def test_no_tokens():
    empty = np.ones((0, 8))
    with pytest.raises(ValueError, match=r"T: there must be at least one token \(T ≥ 1\), got T=0"):
        al.attention_trace(empty, empty, empty, h=2)
    with pytest.raises(ValueError, match="T: there must be at least one token"):
        al.random_example(T=0, d=4, h=2)


def test_shapes_must_match():
    with pytest.raises(ValueError, match=r"K, V: need one Key row and one Value row per Key token.*K \(2, 8\)"):
        al.attention_trace(X, np.ones((2, 8)), X, h=2)
    with pytest.raises(ValueError, match=r"Q, K, V: must have the same number of columns d.*K \(3, 6\)"):
        al.attention_trace(X, np.ones((3, 6)), np.ones((3, 6)), h=2)


@pytest.mark.parametrize("name", ["Q", "K", "V"])
def test_must_be_2d(name):
    args = {"Q": X, "K": X, "V": X, name: np.ones((2, 3, 8))}
    with pytest.raises(ValueError, match=rf"{name}: must be 2-D with shape \(T, d\).*3-D"):
        al.attention_trace(args["Q"], args["K"], args["V"], h=2)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_values(bad):
    Q = X.copy()
    Q[1, 2] = bad
    with pytest.raises(ValueError, match="Q: contains NaN or ±inf"):
        al.attention_trace(Q, X, X, h=2)


def test_not_numbers():
    with pytest.raises(ValueError, match="V: must be a 2-D array of numbers"):
        al.attention_trace(X, X, [["a"] * 8] * 3, h=2)


def test_scores_that_overflow():
    big = np.full((2, 2), 1e200)
    with pytest.raises(ValueError, match="overflowed"):
        al.attention_trace(big, big, big, h=1)


def test_unknown_mask_name():
    with pytest.raises(ValueError, match=r"mask: unknown mask name 'casual'. Did you mean 'causal'\?.*None for no"):
        al.attention_trace(X, X, X, h=2, mask="casual")


def test_mask_of_wrong_shape():
    with pytest.raises(ValueError, match=r"mask: .*shape \(T_q, T_k\) = \(3, 3\), got \(2, 2\)"):
        al.attention_trace(X, X, X, h=2, mask=np.ones((2, 2), bool))


def test_mask_of_wrong_dtype():
    with pytest.raises(ValueError, match=r"mask: a mask array must be boolean.*got dtype float64"):
        al.attention_trace(X, X, X, h=2, mask=np.ones((3, 3)))


def test_random_example_bad_sizes():
    with pytest.raises(ValueError, match="d: the model dimension must be at least 1"):
        al.random_example(T=2, d=0, h=1)
    with pytest.raises(ValueError, match="T: must be a whole number"):
        al.random_example(T=2.5, d=4, h=2)


# ---- issue 27: each names the argument as the caller wrote it, at once ------------------------------------------

@pytest.mark.parametrize("lengths", [map(int, "21"), (n for n in (2, 1)), iter([2, 1])])
def test_packed_lengths_that_are_an_iterator_are_named(lengths):
    with pytest.raises(ValueError, match=r"^lengths: must be a tuple of sequence lengths adding up to T_k=3.*"
                                         r"pass tuple\(…\) of it"):
        al.attention_trace(X[:, :2], X[:, :2], X[:, :2], 1, mask=al.Mask("packed", lengths=lengths))


def test_a_million_packed_lengths_are_refused_before_they_are_read_in_one_short_line():
    class Counted(list):  # a list that counts how many of its entries are read
        read = 0

        def __iter__(self):
            for x in super().__iter__():
                Counted.read += 1
                yield x

    with pytest.raises(ValueError) as refused:
        al.allowed_of(al.Mask("packed", lengths=Counted([1] * 10**6)), 3, 3)
    said = str(refused.value)
    assert said.startswith("lengths: 1,000,000 sequence lengths for T_k=3 Key tokens") and len(said) < 200, said
    assert Counted.read == 0


def test_kv_head_index_names_g():
    from attention_lab.numeric.core import kv_head_index

    with pytest.raises(ValueError, match=r"^g: must be from 1 to 4, got 0"):
        kv_head_index(4, g=0)
    with pytest.raises(ValueError, match=r"^g: h=4 Query heads must share the K/V heads evenly, so g must divide h"):
        kv_head_index(4, 3)
    assert kv_head_index(4, 2).tolist() == [0, 0, 1, 1]


@pytest.mark.parametrize(("convention", "call"), [("masked", "write"), ("masked", "additive"),
                                                  ("minus_1e9", "additive")])
def test_conventions_name_ragged_rows(convention, call):
    from attention_lab.numeric.conventions import CONVENTIONS

    name = "allowed" if call == "write" else "written"
    ragged = [[True], [True, False]] if convention == "masked" else [[0.0], [0.0, -1e9]]
    with pytest.raises(ValueError, match=f"^{name}: the rows of a (boolean|float) mask must all have the same length"):
        getattr(CONVENTIONS[convention], call)(ragged)


def test_a_size_beyond_any_float_is_a_value_error_naming_d():
    with pytest.raises(ValueError, match=r"^T, d: an example of T=1 tokens × d=about 10\^400 components would need "
                                         r"about [0-9.]+e\+39[0-9] GiB") as raised:
        al.random_qkv(1, 10**400, 0)
    assert len(str(raised.value)) < 300  # one readable line, not d's 400 digits


@pytest.mark.parametrize("n, shown", [(7, "7"), (1234, "1,234"), (10**15 - 1, "999,999,999,999,999"),
                                      (10**15, "about 10^15"), (10**20, "about 10^20")])
def test_a_count_in_a_message_is_short(n, shown):
    from attention_lab.numeric.checks import count_text

    assert count_text(n) == shown


def test_a_numpy_string_is_a_choice_and_comes_back_a_plain_str():
    """A choice read out of a NumPy array (np.str_) is the str it holds: align=np.str_('top-left') was refused with
    "got np.str_('top-left')" (issue 27). The catalogue beside it: what is not the choice stays refused."""
    from attention_lab.numeric.checks import choice

    for given in (np.str_("top-left"), "top-left"):
        chosen = choice("align", given, al.masks.ALIGNS)
        assert chosen == "top-left" and type(chosen) is str
        assert al.Mask("causal", align=given).align == "top-left"
        assert type(al.Mask("causal", align=given).align) is str
    explorer = al.explorer(T=4, queries=2, view="queries", mask=al.Mask("causal", align=np.str_("top-left")))
    assert explorer.state["align"] == "top-left"
    for wrong in (np.array("top-left"), b"top-left", "Top-left", "top-left ", ["top-left"], None):
        with pytest.raises(ValueError, match="^align: use one of 'bottom-right', 'top-left'; got "):
            choice("align", wrong, al.masks.ALIGNS)
    for wrong, choices in ((True, (1, 2)), (1, (True, False)), (1.0, (1, 2)), (np.int64(1), (1, 2))):
        with pytest.raises(ValueError, match="^n: use one of"):
            choice("n", wrong, choices)
