"""Fuzzing the figures' argument checks: any value a learner can type either works or gets a ValueError that
names the argument; cell styles never crash on NaN, ±∞ or odd shapes. Few real figures are drawn (they are slow)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from matplotlib.figure import Figure
from matplotlib.text import Text

import attention_lab as al
from attention_lab import figures, look
from attention_lab.look import words

TR = al.article_example()  # T=3, h=2
ODD = st.one_of(st.booleans(), st.floats(allow_nan=True), st.text(max_size=3), st.none(), st.just([1]),
                st.integers(-10**20, 10**20), st.just(np.int64(1)), st.just(np.float64(1.0)), st.just(1 + 2j))

# Which argument each figure takes, and its valid range for TR (0-based; None means "the article's pick").
INDEX_ARGS = {
    figures.figure_stages: {"head": range(2)},
    figures.figure_scaling: {"head": range(2)},
    figures.figure_mask: {"head": range(2)},
    figures.figure_scores: {"head": range(2), "query": range(3), "key": range(3)},
    figures.figure_softmax: {"head": range(2), "row": range(3)},
    figures.figure_weighted_sum: {"head": range(2), "row": range(3)},
}


def valid_index(value, allowed):
    return (isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
            and int(value) in allowed)


@settings(max_examples=150, deadline=None)
@given(figure=st.sampled_from(list(INDEX_ARGS)), data=st.data())
def test_bad_head_query_key_row_get_a_value_error_naming_it(figure, data):
    args = INDEX_ARGS[figure]
    name = data.draw(st.sampled_from(sorted(args)))
    value = data.draw(ODD)
    if name != "head" and value is None or valid_index(value, args[name]):
        return  # a valid value: drawing it is covered by test_plotting
    with pytest.raises(ValueError, match=f"^{name}: "):
        figure(TR, **{name: value})


@settings(max_examples=60, deadline=None)
@given(figure=st.sampled_from(list(figures.FIGURES.values())), lang=ODD | st.sampled_from(["KO", "kr", "", "en "]))
def test_bad_lang_is_refused_by_name(figure, lang):
    with pytest.raises(ValueError, match="^lang: "):
        figure(TR, lang=lang)


@settings(max_examples=40, deadline=None)
@given(figure=st.sampled_from([figures.FIGURES[n] for n in figures.SLIDE_FIGURES]), slides=ODD)
def test_bad_slides_is_refused_by_name(figure, slides):
    if isinstance(slides, (bool, np.bool_)):
        return
    with pytest.raises(ValueError, match="^slides: "):
        figure(TR, slides=slides)


@settings(max_examples=30, deadline=None)
@given(tr=ODD | st.just(TR.P) | st.just({"S": TR.S}))
def test_anything_but_a_trace_is_refused_by_name(tr):
    with pytest.raises(ValueError, match="^tr: "):
        figures.figure_heads(tr)


MATRICES = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=0, max_side=5),
                      elements=st.floats(allow_nan=True, allow_infinity=True, width=64))


@settings(max_examples=200, deadline=None)
@given(matrix=MATRICES, kind=st.sampled_from(["scores", "weights", "values"]))
def test_cell_style_labels_every_cell_or_refuses_an_empty_matrix(matrix, kind):
    if matrix.size == 0:
        with pytest.raises(ValueError, match="^matrix: a heatmap needs at least one row and one column"):
            look.cell_style(matrix, kind)
        return
    cells = look.cell_style(matrix, kind)
    labels = np.array(cells.labels)
    assert labels.shape == matrix.shape
    assert (labels[np.isnan(matrix)] == look.NAN_LABEL).all()
    assert (labels[np.isneginf(matrix)] == look.NEG_INF_LABEL).all()
    assert np.allclose(cells.rgba[np.isnan(matrix)], look.NAN_RGBA)
    assert np.isfinite(cells.rgba).all() and ((0 <= cells.rgba) & (cells.rgba <= 1)).all()


@settings(max_examples=60, deadline=None)
@given(matrix=ODD | st.just([[1, 2], [3]]) | st.just(np.ones((2, 2, 2))) | st.just([["a"]]),
       kind=ODD | st.sampled_from(["scores", "S", "colour"]))
def test_cell_style_refuses_what_is_not_a_matrix_by_name(matrix, kind):
    with pytest.raises(ValueError, match="^(matrix|kind): "):
        look.cell_style(matrix, kind)


@settings(max_examples=60, deadline=None)
@given(vmin=ODD, vmax=ODD)
def test_cell_style_scale_limits_are_checked(vmin, vmax):
    try:
        cells = look.cell_style(np.eye(2), "values", vmin, vmax)
    except ValueError as error:
        assert str(error).startswith(("vmin", "vmax"))
    else:
        assert cells.vmin < cells.vmax


@settings(max_examples=40, deadline=None)
@given(title=ODD | st.binary(max_size=2), xlabel=ODD, ylabel=ODD)
def test_heatmap_text_parameters_become_text_or_are_refused_by_name(title, xlabel, ylabel):
    ax = Figure(figsize=(2, 2)).add_subplot()
    try:
        figures.heatmap(ax, np.eye(2), "values", title=title, xlabel=xlabel, ylabel=ylabel, annotate=False)
    except ValueError as error:
        assert str(error).split(":")[0] in ("title", "xlabel", "ylabel")
        assert isinstance(title, bytes) or any(isinstance(v, bytes) for v in (xlabel, ylabel))
    else:
        assert ax.get_title() == ("" if title is None else str(title))


@settings(max_examples=6, deadline=None)
@given(T=st.integers(1, 6), h=st.sampled_from([1, 2]), lang=st.sampled_from(["ko", "en"]),
       mask=st.sampled_from(["causal", None, "sliding", "padding", "prefix"]), data=st.data())
def test_a_few_real_figures_with_random_picks(T, h, lang, mask, data):
    tr = al.random_example(T, 2 * h, h, seed=T, mask=mask)
    head, row = data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, T - 1))
    fig = figures.figure_softmax(tr, head, row, lang=lang, slides=data.draw(st.booleans()))
    numbers = [t for t in fig.findobj(Text) if t.get_gid() == figures.NUMBER_GID]
    # Every number drawn is in the figure; where some are left out the title says so.
    assert numbers or words.table(lang)["fig_omitted_some"] in fig.get_suptitle()
    assert len({t.get_fontsize() for t in numbers}) <= 1
