"""Annotated heatmaps and the article's figures: the numbers drawn are the trace's, in the article's format."""

import warnings

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

import attention_lab as al
from attention_lab import plotting, style

MINUS_INF = "\u2212\u221e"


@pytest.fixture(scope="module")
def tr():
    return al.article_example()


def all_texts(fig):
    """Every string drawn on a figure, sub-figures and axes included."""
    return [t.get_text() for t in fig.findobj(Text)]


def draw(fig):
    """Render with Agg, as an export would; any warning (e.g. "Glyph missing") fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FigureCanvasAgg(fig).draw()


def new_ax(size=(4, 4)):
    return Figure(figsize=size).add_subplot()


# --- heatmap -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["S", "S_scaled", "S_masked", "P", "O"])
def test_labels_are_the_trace_values_in_the_article_format(tr, name):
    matrix = getattr(tr, name)[0]
    kind = style.KIND_OF[name]
    drawn = plotting.heatmap(new_ax(), matrix, kind)
    rows, cols = matrix.shape
    assert [t.get_text() for t in drawn.texts] == [style.format_value(x, kind) for x in matrix.ravel()]
    assert [t.get_position() for t in drawn.texts] == [(j, i) for i in range(rows) for j in range(cols)]


def test_article_numbers_appear(tr):
    texts = [t.get_text() for name in ("S", "S_masked", "P") for t in
             plotting.heatmap(new_ax(), getattr(tr, name)[0], style.KIND_OF[name]).texts]
    for label in ("2", "6", "1.5", MINUS_INF, "0.114", "0.042", "0.844", "0.818", "0.182"):
        assert label in texts


def test_masked_cells_are_hatched_grey_and_labelled_minus_infinity(tr):
    drawn = plotting.heatmap(new_ax(), tr.S_masked[0], "scores")
    masked = np.isneginf(tr.S_masked[0])
    assert len(drawn.hatches.get_paths()) == masked.sum() == 3
    assert drawn.hatches.get_hatch() == style.MASKED_HATCH
    labels = np.array([t.get_text() for t in drawn.texts]).reshape(masked.shape)
    assert (labels[masked] == MINUS_INF).all() and (labels[~masked] != MINUS_INF).all()
    assert np.allclose(drawn.image.get_array()[masked], style.MASKED_RGBA)


def test_colours_and_text_colours_come_from_style(tr):
    drawn = plotting.heatmap(new_ax(), tr.S[0], "scores")
    cells = style.cell_style(tr.S[0], "scores")
    assert np.allclose(drawn.image.get_array(), cells.rgba)
    dark = [matplotlib.colors.to_hex(t.get_color()) == style.INK_DARK for t in drawn.texts]
    assert dark == cells.text_dark.ravel().tolist()


def test_weights_use_the_fixed_0_to_1_scale(tr):
    drawn = plotting.heatmap(new_ax(), tr.P[1], "weights")
    assert drawn.image.get_clim() == (0.0, 1.0)
    assert drawn.image.cmap.name == style.CMAPS["weights"]


def test_scores_scale_is_centred_on_zero_or_as_given(tr):
    assert plotting.heatmap(new_ax(), tr.S[0], "scores").image.get_clim() == (-6.0, 6.0)
    assert plotting.heatmap(new_ax(), tr.S[0], "scores", vmin=-8, vmax=8).image.get_clim() == (-8.0, 8.0)


def test_ticks_are_one_based_token_numbers_and_labels_are_set(tr):
    ax = new_ax()
    plotting.heatmap(ax, tr.S[0], "scores", title="S", xlabel="Key token", ylabel="Query token")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1", "2", "3"]
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("S", "Key token", "Query token")


def test_heatmap_leaves_no_global_state(tr):
    rc_before, figs_before = dict(matplotlib.rcParams), plt.get_fignums()
    drawn = plotting.heatmap(new_ax(), tr.P[0], "weights")
    assert dict(matplotlib.rcParams) == rc_before
    assert plt.get_fignums() == figs_before
    assert drawn.image is not None and drawn.texts


def test_one_by_one_matrix():
    drawn = plotting.heatmap(new_ax((2, 2)), np.array([[1.0]]), "weights")
    assert [t.get_text() for t in drawn.texts] == ["1"]


def test_too_small_cells_leave_values_out_and_say_so():
    matrix = np.linspace(-1, 1, 256).reshape(16, 16)
    ax = new_ax((2, 2))
    drawn = plotting.heatmap(ax, matrix, "values", xlabel="Key token")
    assert drawn.texts == []
    assert plotting.OMITTED_NOTE in ax.get_xlabel() and drawn.note is ax.xaxis.label
    forced = plotting.heatmap(new_ax((2, 2)), matrix, "values", annotate=True)
    assert len(forced.texts) == 256


def test_explicit_annotate_false_adds_no_note(tr):
    drawn = plotting.heatmap(new_ax(), tr.S[0], "scores", annotate=False)
    assert drawn.texts == [] and drawn.note is None


def test_dot_product_text_reads_like_the_article(tr):
    expected = "\u22121\u00b71 + 1\u00b7(\u22121) + 1\u00b72 + 2\u00b71"  # −1·1 + 1·(−1) + 1·2 + 2·1
    assert style.dot_product_text(tr.Qh[0, 2], tr.Kh[0, 0]) == expected


# --- the article's figures -----------------------------------------------------

def test_figure_2_explains_the_score_as_a_dot_product(tr):
    texts = all_texts(plotting.figure_scores(tr))
    assert any("S[3, 1] = \u22121\u00b71 + 1\u00b7(\u22121) + 1\u00b72 + 2\u00b71 = 2" in t for t in texts)
    assert any("Query of token 3 = [\u22121, 1, 1, 2]" in t and "Key of token 1 = [1, \u22121, 2, 1]" in t
               for t in texts)
    assert any("S[3, 1] / \u221a4 = 2 / 2 = 1" in t for t in texts)


def test_figure_2_shares_the_scale_of_S_and_S_scaled(tr):
    fig = plotting.figure_scores(tr)
    clims = {im.get_clim() for im in fig.findobj(matplotlib.image.AxesImage) if im.cmap.name == "RdBu_r"}
    assert clims == {(-6.0, 6.0)}


def test_figure_3_shows_the_mask_and_its_sum(tr):
    texts = all_texts(plotting.figure_mask(tr))
    assert texts.count(MINUS_INF) == 6  # M and S/√dh + M, 3 each
    assert "1.5" in texts and "\u22121" in texts


def test_figure_4_shows_scores_exponentials_and_weights(tr):
    texts = all_texts(plotting.figure_softmax(tr))
    for label in ("0.114", "0.042", "0.844", "$e^{1}$", "$e^{0}$", "$e^{3}$", "2.718", "20.09"):
        assert label in texts
    assert any("23.8" in t for t in texts)


def test_figure_4_sends_masked_scores_to_zero(tr):
    texts = all_texts(plotting.figure_softmax(tr, row=1))
    assert r"$e^{-\infty}$" in texts
    assert "0.818" in texts and "0.182" in texts


def test_figure_4_reads_the_weights_from_the_trace(tr):
    fake = al.AttentionTrace(**{**tr.arrays(), "P": np.full_like(tr.P, 0.25)})
    texts = all_texts(plotting.figure_softmax(fake))
    assert "0.250" in texts and "0.114" not in texts


def test_figure_5_shows_the_weighted_sum(tr):
    texts = all_texts(plotting.figure_weighted_sum(tr))
    assert any("0.114\u00b7V1 + 0.042\u00b7V2 + 0.844\u00b7V3 \u2248 [0.114, 0.042, 0.844, 1]" in t for t in texts)
    assert texts.count("0.844") >= 4  # P, O, the weighted V3 and the output row


def test_figure_1_marks_heads_in_their_colours(tr):
    fig = plotting.figure_heads(tr)
    frames = {matplotlib.colors.to_hex(p.get_edgecolor()) for p in fig.findobj(matplotlib.patches.Rectangle)
              if p.get_linewidth() == 3}
    assert frames == {style.head_color(0).lower(), style.head_color(1).lower()}
    assert "$O_{1}$" in all_texts(fig) and "$O_{2}$" in all_texts(fig)


def test_all_heads_labels_each_head_in_its_colour(tr):
    fig = plotting.figure_all_heads(tr)
    labels = [sub._supylabel for sub in fig.subfigs]
    assert [t.get_text() for t in labels] == ["Head 1", "Head 2"]
    assert [matplotlib.colors.to_hex(t.get_color()) for t in labels] == [c.lower() for c in style.HEAD_COLORS[:2]]


def test_figures_are_bare_figures_without_pyplot(tr):
    figs_before = plt.get_fignums()
    for make in plotting.FIGURES.values():
        assert type(make(tr)) is Figure
    assert plt.get_fignums() == figs_before


def test_figure_arguments_are_checked(tr):
    with pytest.raises(ValueError, match="head"):
        plotting.figure_stages(tr, head=2)
    with pytest.raises(ValueError, match="row"):
        plotting.figure_softmax(tr, row=-1)


# Sizes from T=1 to T=16 and h=1 to 8: the extremes and a few in between (the whole grid takes minutes).
SIZES = [(1, 1), (1, 8), (16, 8), (3, 2), (8, 4)]


@pytest.mark.parametrize("T,h", SIZES)
def test_every_figure_builds_and_draws_without_warnings(T, h):
    tr = al.random_example(T, 2 * h, h, seed=T + h)
    for name, make in plotting.FIGURES.items():
        fig = make(tr)
        draw(fig)  # Agg: raises on "Glyph missing" or any other warning
        assert fig.get_size_inches().max() < 25, name


def test_article_figures_draw_without_missing_glyphs(tr, recwarn):
    for make in plotting.FIGURES.values():
        FigureCanvasAgg(make(tr)).draw()
    assert not [w for w in recwarn if "Glyph" in str(w.message)]
