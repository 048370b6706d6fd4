"""Annotated heatmaps and the article's figures, in both languages: the numbers drawn are the trace's, in the
article's format; numbers share one size; text is readable (size on slides, contrast); no global state."""

import contextlib
import math
import warnings

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.gridspec import GridSpecFromSubplotSpec
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.patches import Rectangle
from matplotlib.text import Text

import attention_lab as al
from attention_lab import figures, look
from attention_lab.figures import layout, tighten
from attention_lab.figures.heatmap import MIN_PANEL_WIDTH, NOTEBOOK_WIDTH, thin_touching_ticks
from attention_lab.look import words
from attention_lab.numeric.pipeline import PIPELINE, STAGES

MINUS_INF = "\u2212\u221e"
LANGS = ("en", "ko")


@pytest.fixture(scope="module")
def tr():
    return al.article_example()


@pytest.fixture(scope="module")
def article_figures(tr):
    """Every figure of the article's example, in both languages, normal layout (and slides where there is one)."""
    made = {}
    for lang in LANGS:
        for name, make in figures.FIGURES.items():
            made[name, lang, False] = draw(make(tr, lang=lang))
            made[name, lang, True] = draw(make(tr, lang=lang, slides=True))
    return made


def draw(fig):
    """Render with Agg, as an export would; any warning (e.g. "Glyph … missing") fails the test."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FigureCanvasAgg(fig).draw()
    return fig


def visible_texts(fig):
    """Every Text that is drawn with something in it (tick labels that are switched off are not)."""
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]


def all_texts(fig):
    return [t.get_text() for t in visible_texts(fig)]


def cell_numbers(fig):
    """The numbers written in cells and tables (see figures.heatmap.write_labels)."""
    return [t for t in visible_texts(fig) if t.get_gid() == figures.NUMBER_GID]


def new_ax(size=(4, 4)):
    return Figure(figsize=size).add_subplot()


# --- heatmap -----------------------------------------------------------------

@pytest.mark.parametrize("name", [s.name for s in PIPELINE if s.heads == "query"])  # every per-head stage
def test_labels_are_the_trace_values_in_the_article_format(tr, name):
    matrix = getattr(tr, name)[0]
    kind = STAGES[name].kind
    drawn = figures.heatmap(new_ax(), matrix, kind)
    rows, cols = matrix.shape
    labels = [t.get_text() for t in drawn.texts]
    for label, x in zip(labels, matrix.ravel(), strict=True):  # each label, read back, is its value to its last digit
        if x == -np.inf:
            assert label == "−∞"
            continue
        shown = float(label.replace("−", "-"))
        assert abs(shown - x) <= 0.5 * 10.0 ** -len(label.partition(".")[2]) + 1e-12, (label, x)
    # The article's numbers (its figures 2 and 4: Query token 3 of Head 1), as the article writes them.
    article = {"S": ["2", "0", "6"], "S_scaled": ["1", "0", "3"], "P": ["0.114", "0.042", "0.844"]}
    if name in article:
        assert labels[2 * cols:3 * cols] == article[name]
    assert [t.get_position() for t in drawn.texts] == [(j, i) for i in range(rows) for j in range(cols)]


def test_article_numbers_appear(tr):
    texts = [t.get_text() for name in ("S", "S_masked", "P") for t in
             figures.heatmap(new_ax(), getattr(tr, name)[0], look.kind_of(name)).texts]
    for label in ("2", "6", "1.5", MINUS_INF, "0.114", "0.042", "0.844", "0.818", "0.182"):
        assert label in texts


def test_masked_cells_are_hatched_grey_and_labelled_minus_infinity(tr):
    drawn = figures.heatmap(new_ax(), tr.S_masked[0], "scores")
    masked = np.isneginf(tr.S_masked[0])
    assert len(drawn.hatches.get_paths()) == masked.sum() == 3
    assert drawn.hatches.get_hatch() == look.MASKED_HATCH
    labels = np.array([t.get_text() for t in drawn.texts]).reshape(masked.shape)
    assert (labels[masked] == MINUS_INF).all() and (labels[~masked] != MINUS_INF).all()
    assert np.allclose(drawn.image.get_array()[masked], look.MASKED_RGBA)


def test_a_nan_cell_is_labelled_nan_in_a_colour_of_its_own():
    matrix = np.array([[1.0, np.nan], [-np.inf, 0.5]])
    drawn = figures.heatmap(new_ax(), matrix, "scores")
    assert [t.get_text() for t in drawn.texts] == ["1", "NaN", MINUS_INF, "0.5"]
    assert np.allclose(drawn.image.get_array()[0, 1], look.NAN_RGBA)
    assert look.NAN_RGBA != look.MASKED_RGBA
    nan_text = drawn.texts[1]
    assert look.contrast(matplotlib.colors.to_rgb(nan_text.get_color()), look.NAN_RGBA) >= look.MIN_CONTRAST


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0)])
def test_an_empty_matrix_is_refused_by_name(shape):
    with pytest.raises(ValueError, match=r"matrix: a heatmap needs at least one row and one column"):
        figures.heatmap(new_ax(), np.zeros(shape), "values")
    with pytest.raises(ValueError, match="matrix: "):
        look.cell_style(np.zeros(shape), "values")


def test_colours_and_text_colours_come_from_style(tr):
    drawn = figures.heatmap(new_ax(), tr.S[0], "scores")
    cells = look.cell_style(tr.S[0], "scores")
    assert np.allclose(drawn.image.get_array(), cells.rgba)
    dark = [matplotlib.colors.to_hex(t.get_color()) == look.INK_DARK for t in drawn.texts]
    assert dark == cells.text_dark.ravel().tolist()


def test_cell_text_contrasts_at_least_4_5_to_1_on_every_fill():
    fills = np.array([matplotlib.colormaps[c](np.linspace(0, 1, 257)) for c in look.CMAPS.values()])
    cells_dark = look.dark_text_reads_better(fills)
    ink = np.where(cells_dark[..., None], 0.0, 1.0) * np.ones(3)
    assert look.contrast(ink, fills).min() >= look.MIN_CONTRAST


def test_weights_use_the_fixed_0_to_1_scale(tr):
    drawn = figures.heatmap(new_ax(), tr.P[1], "weights")
    assert drawn.image.get_clim() == (0.0, 1.0)
    assert drawn.image.cmap.name == look.CMAPS["weights"]


def test_scores_scale_is_centred_on_zero_or_as_given(tr):
    assert figures.heatmap(new_ax(), tr.S[0], "scores").image.get_clim() == (-6.0, 6.0)
    assert figures.heatmap(new_ax(), tr.S[0], "scores", vmin=-8, vmax=8).image.get_clim() == (-8.0, 8.0)


def test_ticks_are_one_based_token_numbers_and_labels_are_set(tr):
    ax = new_ax()
    figures.heatmap(ax, tr.S[0], "scores", title="S", xlabel="Key token", ylabel="Query token")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1", "2", "3"]
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("S", "Key token", "Query token")


def test_heatmap_in_korean_uses_the_shipped_font(tr):
    ax = new_ax()
    figures.heatmap(ax, tr.S[0], "scores", title="점수 행렬 S", xlabel="Key 토큰", lang="ko")
    assert ax.title.get_fontfamily() == list(look.FONT_FAMILIES["ko"])
    draw(ax.figure)


def test_heatmap_text_parameters_are_converted_or_refused(tr):
    ax = new_ax()
    figures.heatmap(ax, tr.S[0], "scores", title=5, xlabel=1.5)
    assert (ax.get_title(), ax.get_xlabel()) == ("5", "1.5")
    with pytest.raises(ValueError, match="title: must be text"):
        figures.heatmap(new_ax(), tr.S[0], "scores", title=b"S")
    with pytest.raises(ValueError, match="row_labels: need a list of 3 labels"):
        figures.heatmap(new_ax(), tr.S[0], "scores", row_labels=["a"])
    with pytest.raises(ValueError, match="annotate: must be True or False"):
        figures.heatmap(new_ax(), tr.S[0], "scores", annotate="yes")
    with pytest.raises(ValueError, match="lang: use 'ko'"):
        figures.heatmap(new_ax(), tr.S[0], "scores", lang="fr")
    with pytest.raises(ValueError, match="ax: must be a matplotlib Axes"):
        figures.heatmap(None, tr.S[0], "scores")
    with pytest.raises(ValueError, match="kind: unknown kind"):
        figures.heatmap(new_ax(), tr.S[0], "colours")


def test_heatmap_leaves_no_global_state(tr):
    rc_before, figs_before = dict(matplotlib.rcParams), plt.get_fignums()
    drawn = figures.heatmap(new_ax(), tr.P[0], "weights", lang="ko")
    assert dict(matplotlib.rcParams) == rc_before
    assert plt.get_fignums() == figs_before
    assert drawn.image is not None and drawn.texts


def test_one_by_one_matrix():
    drawn = figures.heatmap(new_ax((2, 2)), np.array([[1.0]]), "weights")
    assert [t.get_text() for t in drawn.texts] == ["1"]


def test_too_small_cells_leave_values_out_and_say_so():
    matrix = np.linspace(-1, 1, 256).reshape(16, 16)
    ax = new_ax((2, 2))
    drawn = figures.heatmap(ax, matrix, "values", xlabel="Key token")
    assert drawn.texts == []
    assert words.table("en")["fig_omitted"] in ax.get_xlabel() and drawn.note is ax.xaxis.label
    forced = figures.heatmap(new_ax((2, 2)), matrix, "values", annotate=True)
    assert len(forced.texts) == 256


def test_explicit_annotate_false_adds_no_note(tr):
    drawn = figures.heatmap(new_ax(), tr.S[0], "scores", annotate=False)
    assert drawn.texts == [] and drawn.note is None


def test_dot_product_text_reads_like_the_article(tr):
    expected = "\u22121\u00b71 + 1\u00b7(\u22121) + 1\u00b72 + 2\u00b71"  # −1·1 + 1·(−1) + 1·2 + 2·1
    assert look.dot_product_text(tr.Qh[0, 2], tr.Kh[0, 0]) == expected


# --- the article's figures, in both languages ---------------------------------------

# What each figure must draw of the article's example: its numbers as the article writes them.
ARTICLE_NUMBERS = {
    "fig1_heads": ["−1", "2", "0.818", "0.182", "0.114", "0.042", "0.844"],
    "fig2_scores": ["2", "6", "1.5", "−2"],
    "fig3_mask": ["1.5", "3", "−1", MINUS_INF],
    "fig4_softmax": ["1", "3", "e¹", "e⁰", "e³", "2.718", "20.09", "23.8", "0.114", "0.042", "0.844",
                     "0.818", "0.182"],
    "fig5_weighted_sum": ["0.114", "0.042", "0.844", "0.818", "0.182"],
    "scaling_head1": ["6", "1.5", "0.818", "0.114", "0.953", "0.047", "0.018", "0.002", "0.980"],
    "stages_head1": ["2", "6", "1.5", MINUS_INF, "0.818", "0.182", "0.114", "0.042", "0.844"],
    "all_heads": ["2", "6", "1.5", MINUS_INF, "0.818", "0.182", "0.114", "0.042", "0.844"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name, slides", [(name, False) for name in figures.FIGURES] +
                         [(name, True) for name in figures.SLIDE_FIGURES])
def test_every_figure_draws_the_articles_numbers(article_figures, name, lang, slides):
    texts = all_texts(article_figures[name, lang, slides])
    for label in ARTICLE_NUMBERS[name]:
        assert label in texts, (name, lang, label)


@pytest.mark.parametrize("lang", LANGS)
def test_figure_2_explains_the_score_as_a_dot_product(article_figures, lang):
    W = words.table(lang)
    texts = " ".join(all_texts(article_figures["fig2_scores", lang, False]))
    assert "S[3, 1] = \u22121\u00b71 + 1\u00b7(\u22121) + 1\u00b72 + 2\u00b71 = 2" in texts
    assert W["fig_scores_vectors"].format(i=3, j=1, q="[\u22121, 1, 1, 2]", k="[1, \u22121, 2, 1]") in texts
    assert "S[3, 1] / \u221a4 = 2 / 2 = 1" in texts


def test_figure_2_shares_the_scale_of_S_and_S_scaled(article_figures):
    fig = article_figures["fig2_scores", "en", False]
    clims = {im.get_clim() for im in fig.findobj(matplotlib.image.AxesImage) if im.cmap.name == "RdBu_r"}
    assert clims == {(-6.0, 6.0)}


@pytest.mark.parametrize("lang", LANGS)
def test_figure_3_shows_the_mask_its_caption_and_its_sum(article_figures, lang):
    texts = all_texts(article_figures["fig3_mask", lang, False])
    assert texts.count(MINUS_INF) == 6  # M and S/√dh + M, 3 each
    caption = next(t for t in texts if words.table(lang)["fig_mask_rule"] in t)
    assert " ".join(words.table(lang)["mask.causal.caption"].split()) in " ".join(caption.split())


def test_figure_3_names_another_mask_and_its_parameter():
    tr = al.article_example(al.Mask("sliding", window=2), T=5)
    for lang in LANGS:
        caption = " ".join(" ".join(all_texts(figures.figure_mask(tr, lang=lang))).split())
        assert " ".join(words.table(lang)["mask.sliding.caption"].split()) in caption
        assert f"{words.table(lang)['param.sliding.window']} = 2" in caption


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("align", ("bottom-right", "top-left"))
@pytest.mark.parametrize("T_q, T_k", [(3, 3), (1, 3), (2, 6), (5, 6), (4, 2), (3, 2)])
@pytest.mark.parametrize("mask", [al.Mask("causal"), al.Mask("sliding", window=2), al.Mask("none")], ids=repr)
def test_figure_3s_caption_is_true_of_the_mask_it_shows_for_both_alignments_and_any_lengths(lang, align, T_q, T_k,
                                                                                               mask):
    """The causal caption says a Query token sees "itself and earlier tokens"; with top-left and fewer Query than Key
    tokens the row of token 6 sees Key tokens 1 … 2 (it sits at token 2), and the caption said nothing of it. Checked
    against the M the figure draws: a row whose last visible Key token is not its own token is named with the Key
    token it sits at, and only then. The rows are the last T_q tokens (numbered from 1 with more Query rows)."""
    rng = np.random.default_rng(10 * T_q + T_k)
    K = rng.normal(size=(T_k, 4))
    tr = al.attention_trace(rng.normal(size=(T_q, 4)), K, K, h=1, mask=al.Mask(mask.name, align=align,
                                                                                **dict(mask.params)))
    caption = " ".join(" ".join(all_texts(figures.figure_mask(tr, lang=lang))).split())
    tokens = [max(T_k - T_q, 0) + i + 1 for i in range(T_q)]  # each Query row's token, as the rows are labelled
    seen = [np.flatnonzero(row == 0) + 1 for row in tr.M]  # the Key tokens each row sees, from the drawn M
    line = words.table(lang)["fig_mask_rows_at"].split("{")[0].strip()
    if mask.name == "none":  # every row sees every Key token, wherever it sits
        assert all(s.tolist() == list(range(1, T_k + 1)) for s in seen) and line not in caption
        return
    def sees(place):  # the Key tokens a row sitting at Key token `place` sees, by the mask's rule as the caption says
        return [j for j in range(1, T_k + 1) if j <= place and (mask.name == "causal" or j > place - 2)]

    if line not in caption:  # "itself" is each row's own token
        assert [s.tolist() for s in seen] == [sees(t) for t in tokens]
    else:  # the rows sit before their own tokens: the last one at the Key token the caption names
        place = seen[-1].max()
        claim = words.table(lang)["fig_mask_rows_at"].format(t=tokens[-1], p=place)
        assert " ".join(claim.split()) in caption and place < tokens[-1]
        assert [s.tolist() for s in seen] == [sees(place - (T_q - 1 - i)) for i in range(T_q)]


def test_figure_4_sends_masked_scores_to_zero(tr):
    texts = all_texts(figures.figure_softmax(tr, row=1))
    assert "e⁻∞" in texts
    assert "0.818" in texts and "0.182" in texts


def test_figure_4_reads_the_weights_from_the_trace(tr):
    fake = al.AttentionTrace({**tr.arrays(), "P": np.full_like(tr.P, 0.25)}, tr.mask)
    texts = all_texts(figures.figure_softmax(fake))
    assert "0.250" in texts and "0.114" not in texts


def test_figure_4s_table_has_no_lines_and_no_tick_marks(article_figures):
    fig = article_figures["fig4_softmax", "en", True]
    table = next(ax for ax in fig.axes if any(t.get_text() == "e¹" for t in ax.texts))
    assert not table.lines and not table.collections and not table.images  # no grid lines, no heatmap
    assert not any(spine.get_visible() for spine in table.spines.values())
    for axis in (table.xaxis, table.yaxis):
        assert all(tick.tick1line.get_markersize() == 0 or not tick.tick1line.get_visible()
                   for tick in axis.get_major_ticks())
    result_row = [t for t in table.texts if t.get_text() in ("0.114", "0.042", "0.844")]
    assert len(result_row) == 3
    assert {t.get_fontsize() for t in table.texts} == {result_row[0].get_fontsize()}  # the result is as large


@pytest.mark.parametrize("lang", LANGS)
def test_figure_5_shows_the_weighted_sum(article_figures, lang):
    texts = all_texts(article_figures["fig5_weighted_sum", lang, False])
    equation = words.table(lang)["fig_weighted_equation"].format(
        i=3, terms="0.114\u00b7V[1] + 0.042\u00b7V[2] + 0.844\u00b7V[3]", row="[0.114, 0.042, 0.844, 1]")
    assert equation in texts
    assert "0.114 \u00d7 V[1]" in texts and "0.844 \u00d7 V[3]" in texts
    assert texts.count("0.844") >= 4  # P, O, the weighted V3 and the output row


def test_figure_1_names_each_head_in_words_and_frames_it_in_its_colour(article_figures):
    for lang in LANGS:
        fig = article_figures["fig1_heads", lang, True]
        texts = all_texts(fig)
        for n in (1, 2):
            assert any(t.startswith(words.table(lang)["head_n"].format(n=n)) for t in texts)
        frames = {matplotlib.colors.to_hex(p.get_edgecolor()) for p in fig.findobj(Rectangle)
                  if p.get_linewidth() == 3}
        assert frames == {look.head_color(0).lower(), look.head_color(1).lower()}
        flow = " ".join(texts)
        places = [flow.index(words.table(lang)[w]) for w in ("fig_heads_split", "fig_heads_core", "fig_heads_concat")]
        assert places == sorted(places)  # the flow, in order
        assert "Q (3 × 8)" in texts and "H = Concat (3 × 8)" in texts
        assert any("O₁ (3 × 4)" in t for t in texts) and any("O₂ (3 × 4)" in t for t in texts)


def test_figure_1_with_shared_kv_heads():
    tr = al.article_example(T=3, d=8, h=4, kv_heads=2)
    texts = all_texts(draw(figures.figure_heads(tr, lang="ko")))
    assert "K (3 × 4)" in texts and "Q (3 × 8)" in texts


@pytest.mark.parametrize("lang", LANGS)
def test_scaling_figure_shows_P_with_and_without_the_scale(article_figures, lang):
    texts = [" ".join(t.split()) for t in all_texts(article_figures["scaling_head1", lang, False])]  # titles wrap
    for name in ("S", "S_scaled", "P", "P_unscaled"):
        assert words.table(lang)[f"stage.{name}"] in texts
    assert words.table(lang)["fig_scaling_without"] in texts and words.table(lang)["fig_scaling_with"] in texts


def reading_order(box):  # a Bbox in pixels at 100 dpi -> rows from the top, left to right
    return -round(box.y1 / 100), box.x0


@pytest.mark.parametrize("T, d, h", [(1, 8, 2), (3, 8, 2), (16, 64, 8)])
def test_the_scaling_figure_is_tidy(T, d, h):
    """One group above the other in a notebook, or side by side on a slide where that gives larger cells; no room
    left over above, below or beside the arrows; on a slide, the panels in the middle between title and bottom."""
    tr = al.article_example(T=T, d=d, h=h)
    for lang, slides in [(lang, slides) for lang in LANGS for slides in (False, True)]:
        fig = draw(figures.figure_scaling(tr, lang=lang, slides=slides))
        renderer, W = fig.canvas.get_renderer(), words.table(lang)
        texts = [t for ax in fig.axes for t in ax.texts]
        first, second = (next(t for t in texts if t.get_text() == W[key]).get_window_extent(renderer)
                         for key in ("fig_scaling_without", "fig_scaling_with"))
        assert first.y0 > second.y1 or slides and first.y0 == pytest.approx(second.y0) and first.x1 < second.x0
        assert tighten.spare(fig) < 0.25, (T, lang, slides)  # no room above or below the panels
        panels = sorted((ax.get_window_extent(renderer) for ax in fig.axes if ax.images), key=reading_order)
        arrows = sorted((t.get_window_extent(renderer) for t in texts if t.get_text().startswith("softmax")),
                        key=reading_order)
        for scores, arrow, weights in zip(panels[0::2], arrows, panels[1::2], strict=True):
            beside = (weights.x0 - scores.x1 - arrow.width) / fig.dpi  # the arrow's room, and the weights' rows
            narrow = (MIN_PANEL_WIDTH - T) * scores.height / T / fig.dpi  # a narrow panel keeps room for its title
            assert 0 < beside < 0.9 + max(narrow, 0), (T, lang, slides, beside)
        if slides:
            ink = [ax.get_tightbbox(renderer) for ax in fig.axes if ax.images]
            above = fig._suptitle.get_bbox_patch().get_window_extent(renderer).y0 - max(b.y1 for b in ink)
            below = min(b.y0 for b in ink)
            assert abs(above - below) / fig.dpi < 0.5, (T, lang, above / fig.dpi, below / fig.dpi)


def test_all_heads_names_each_head_in_a_frame_of_its_colour(article_figures):
    fig = article_figures["all_heads", "en", False]
    names = [t for t in visible_texts(fig) if t.get_text() in ("Head 1", "Head 2")]
    assert [t.get_text() for t in names] == ["Head 1", "Head 2"]
    assert [matplotlib.colors.to_hex(t.get_bbox_patch().get_edgecolor()) for t in names] == \
        [c.lower() for c in look.HEAD_COLORS[:2]]


@pytest.mark.parametrize("lang", LANGS)
def test_figures_speak_the_readers_language(article_figures, lang):
    other = "en" if lang == "ko" else "ko"
    for (name, fig_lang, _), fig in article_figures.items():
        if fig_lang != lang:
            continue
        texts = " ".join(all_texts(fig))
        hangul = any("\uac00" <= c <= "\ud7a3" for c in texts)
        assert hangul == (lang == "ko"), name
        assert words.table(other)["query"] not in texts or words.table(other)["query"] == words.table(lang)["query"]


def test_numbers_within_one_figure_share_one_size(article_figures):
    for key, fig in article_figures.items():
        sizes = {t.get_fontsize() for t in cell_numbers(fig)}
        assert len(sizes) == 1, (key, sizes)


def test_slide_figures_are_16_9_with_no_text_under_10_pt_and_all_on_the_slide(article_figures):
    for (name, lang, slides), fig in article_figures.items():
        if not slides:
            continue
        assert tuple(fig.get_size_inches()) == pytest.approx(figures.SLIDE_SIZE)
        assert_readable_on_the_slide(fig, name, lang)


def assert_readable_on_the_slide(fig, *what):
    """No text under 10 pt, and every text within the 16:9 page."""
    renderer = fig.canvas.get_renderer()
    page = fig.bbox.expanded(1.01, 1.01)
    for t in visible_texts(fig):
        assert t.get_fontsize() >= 10, (*what, t.get_text(), t.get_fontsize())
        box = t.get_window_extent(renderer)
        assert page.contains(box.x0, box.y0) and page.contains(box.x1, box.y1), (*what, t.get_text())


def _background(t, fig):
    """What is behind a Text: its own box, the cell it labels, or the white page."""
    if t.get_bbox_patch() is not None:
        return matplotlib.colors.to_rgb(t.get_bbox_patch().get_facecolor())
    ax = t.axes
    if ax is not None and t.get_transform() == ax.transData:
        x, y = t.get_position()
        for image in ax.images:
            return image.get_array()[int(round(y)), int(round(x))][:3]
        for patch in ax.patches:
            if isinstance(patch, Rectangle) and patch.contains_point(ax.transData.transform((x, y))):
                return matplotlib.colors.to_rgb(patch.get_facecolor())
    return (1.0, 1.0, 1.0)


def test_every_text_contrasts_at_least_4_5_to_1(article_figures):
    """A head's colour marks frames and swatches, never text: every text is black or white on what is behind it."""
    for key, fig in article_figures.items():
        for t in visible_texts(fig):
            ink = matplotlib.colors.to_rgb(t.get_color())
            assert look.contrast(ink, _background(t, fig)) >= look.MIN_CONTRAST, (key, t.get_text())


@pytest.mark.parametrize("lang", LANGS)
def test_figures_are_bare_figures_that_leave_rcparams_alone(tr, lang):
    rc_before, figs_before = dict(matplotlib.rcParams), plt.get_fignums()
    for make in figures.FIGURES.values():
        fig = make(tr, lang=lang)
        assert type(fig) is Figure
        make(tr, lang=lang, slides=True)
    assert dict(matplotlib.rcParams) == rc_before
    assert plt.get_fignums() == figs_before


def test_old_call_forms_still_work(tr):
    """The notebooks' calls: positional head, query, key, row."""
    assert all_texts(figures.figure_stages(tr, head=0))
    assert all_texts(figures.figure_scores(tr, head=0, query=2, key=0))
    assert all_texts(figures.figure_mask(tr, head=0))
    assert all_texts(figures.figure_softmax(tr, head=0, row=2))
    assert all_texts(figures.figure_weighted_sum(tr, 0, 2))
    assert all_texts(figures.figure_heads(tr)) and all_texts(figures.figure_all_heads(tr))


@pytest.mark.parametrize("call, message", [
    (lambda tr: figures.figure_stages(tr, head=2), "head: must be from 0 to 1"),
    (lambda tr: figures.figure_scores(tr, head=True), "head: must be a whole number, got True/False"),
    (lambda tr: figures.figure_scores(tr, query=3), "query: must be from 0 to 2"),
    (lambda tr: figures.figure_scores(tr, key=-1), "key: must be from 0 to 2"),
    (lambda tr: figures.figure_scores(tr, key=1.0), "key: must be a whole number"),
    (lambda tr: figures.figure_softmax(tr, row=-1), "row: must be from 0 to 2"),
    (lambda tr: figures.figure_weighted_sum(tr, row=False), "row: must be a whole number, got True/False"),
    (lambda tr: figures.figure_mask(tr, head="0"), "head: must be a whole number"),
    (lambda tr: figures.figure_heads(tr, lang="kr"), "lang: use 'ko'"),
    (lambda tr: figures.figure_heads(tr, slides="yes"), "slides: must be True or False"),
    (lambda tr: figures.figure_scaling(tr.P), "tr: a figure draws an AttentionTrace"),
])
def test_figure_arguments_are_checked(tr, call, message):
    with pytest.raises(ValueError, match=message):
        call(tr)


# Sizes from T=1 to T=16 and h=1 to 8 (dh ≤ 8, as the explorer and the export allow): the extremes and between.
# (16, 64, 8): constrained layout once collapsed figure 1 there (a blank column of ratio 1e-6 beside 64s);
# (1, 64, 8) and (1, 8, 8): the all-heads figure, whose first head's block also holds the titles.
SIZES = [(1, 1, 1), (1, 8, 8), (1, 64, 8), (16, 64, 8), (16, 8, 1), (16, 8, 8), (3, 8, 2), (8, 16, 4)]


@pytest.mark.parametrize("T,d,h", SIZES)
def test_every_figure_builds_and_draws_without_warnings(T, d, h):
    """Also drawn a second time, as saving after showing does: the same pixels, and no layout run by either draw
    (`layout.frozen`); a head's stages in rows nest no grid of one cell (`one_cell_grids`)."""
    tr = al.article_example(T=T, d=d, h=h)
    lang = "ko" if T % 2 else "en"
    for name, make in figures.FIGURES.items():
        for slides in (False, True) if T in (1, 16) else (False,):
            fig = make(tr, lang=lang, slides=slides)
            assert name not in ("stages_head1", "all_heads") or not one_cell_grids(fig), name
            with layouts_run() as ran:
                first = pixels(draw(fig))  # Agg: raises on "Glyph missing", any warning
                assert np.array_equal(pixels(draw(fig)), first), name
            assert ran == [], name
            assert fig.get_size_inches().max() < 25, name
            assert collisions(fig) == [], (name, T, d, h, slides)
            if slides:
                assert_readable_on_the_slide(fig, name, T, d, h)


@contextlib.contextmanager
def layouts_run():  # -> a list that gets one entry per constrained layout run inside the block
    ran, execute = [], ConstrainedLayoutEngine.execute

    def counted(engine, fig):
        ran.append(fig)
        return execute(engine, fig)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ConstrainedLayoutEngine, "execute", counted)
        yield ran


def pixels(fig):  # -> (H, W, 4) uint8, as last drawn
    return np.asarray(fig.canvas.buffer_rgba()).copy()


def one_cell_grids(fig):  # -> [GridSpec of 1 × 1 nested in a cell of another grid]
    """Each nested grid is a grid of the layout's solver with its own constraints: the all-heads figure had two of
    one cell per head, and at T = 16, d = 64, h = 8 each of its layouts took 2.4–3.8 s with them, 1.0–2.2 s without."""
    found = set()
    for ax in fig.axes:
        grid = ax.get_subplotspec() and ax.get_subplotspec().get_gridspec()
        while isinstance(grid, GridSpecFromSubplotSpec):  # up the nesting, to the figure's own grid
            if grid.get_geometry() == (1, 1):
                found.add(grid)
            grid = grid._subplot_spec.get_gridspec()  # (private: the public way jumps to the topmost)
    return list(found)


def test_the_layout_checks_refuse_a_figure_laid_out_on_every_draw_or_a_nested_one_cell_grid():
    """The catalogue of `layouts_run` and `one_cell_grids`: what they must catch."""
    fig = Figure(layout="constrained")
    fig.add_subplot(fig.add_gridspec(1, 2)[0, 1].subgridspec(1, 1)[0])
    assert len(one_cell_grids(fig)) == 1
    with layouts_run() as ran:
        draw(fig)
    assert len(ran) == 1  # not frozen: the draw laid it out
    fig = figures.figure_all_heads(al.article_example())
    assert not one_cell_grids(fig)
    with layouts_run() as ran:
        draw(fig)
    assert ran == []


def collisions(fig):  # -> [(what, text, text)]: titles that overlap, a y label that reaches a title, ticks that touch
    """A drawn figure's texts that run into each other. The all-heads figure sized its panels and wrapped their
    titles for cells of CELL_MIN where the width held 0.06 inch (T = 16, h = 8): the titles of E, P and O overlapped,
    and at d = 64, h = 2 the key tokens' numbers ran together ("101316"); a heatmap of one row is shorter than its
    y label, which wraps instead of reaching the panel's title."""
    renderer = fig.canvas.get_renderer()
    found = []
    titles = [(ax.get_title(), ax.title.get_window_extent(renderer)) for ax in fig.axes if ax.get_title()]
    for n, (text, box) in enumerate(titles):
        found += [("titles", text, other) for other, near in titles[n + 1:] if box.overlaps(near)]
    for ax in [ax for ax in fig.axes if ax.get_ylabel()]:
        label = ax.yaxis.label.get_window_extent(renderer)
        found += [("label", ax.get_ylabel(), text) for text, box in titles if label.overlaps(box)]
    for axis in [axis for ax in fig.axes if ax.axison for axis in (ax.xaxis, ax.yaxis)]:  # an axis off draws none
        ticks = [(t.get_text(), t.get_window_extent(renderer)) for t in axis.get_ticklabels()
                 if t.get_visible() and t.get_text()]
        found += [("ticks", a, b) for (a, box), (b, near) in zip(ticks, ticks[1:], strict=False)
                  if box.overlaps(near)]
    return found


def test_the_collision_check_refuses_titles_that_overlap_and_tick_labels_that_touch():
    """The catalogue of `collisions`: what it must catch (titles, a y label reaching a title, ticks), and a tidy
    figure it must pass."""
    fig = Figure(figsize=(3, 2))
    left, right = fig.subplots(1, 2)
    left.set_title("a title much too long for its panel")
    right.set_title("its neighbour")
    assert [kind for kind, *_ in collisions(draw(fig))] == ["titles"]
    fig = Figure(figsize=(3, 1))
    ax = fig.add_axes((0.3, 0.3, 0.4, 0.3))
    ax.set_title("a title wider than its panel of one row")
    ax.set_ylabel("a y label far taller than the panel")
    assert [kind for kind, *_ in collisions(draw(fig))] == ["label"]
    fig = Figure(figsize=(1, 1))
    ax = fig.add_subplot()
    ax.set_xticks(range(16), [str(n + 1) for n in range(16)])
    assert {kind for kind, *_ in collisions(draw(fig))} == {"ticks"}
    assert collisions(draw(figures.figure_all_heads(al.article_example(T=16, d=64, h=2)))) == []


def test_token_numbers_that_touch_after_layout_are_thinned_and_those_apart_are_kept():
    """thin_touching_ticks (figures.heatmap): 16 numbers crowded on a small axis keep every other one until none
    touch (the first, 1, always stays); numbers with room between them are left as they are; and figure 5 on a
    slide at dh = 1, whose numbers were spaced for cells the layout drew far smaller, no longer runs them together."""
    fig = Figure(figsize=(1, 1))
    ax = fig.add_subplot()
    ax.set_yticks(range(16), [str(n + 1) for n in range(16)], fontsize=10)
    assert {kind for kind, *_ in collisions(draw(fig))} == {"ticks"}
    assert thin_touching_ticks(ax)
    shown = [t.get_text() for t in ax.get_yticklabels()]
    assert shown[0] == "1" and 1 < len(shown) < 16 and collisions(draw(fig)) == []
    fig = Figure(figsize=(4, 4))
    ax = fig.add_subplot()
    ax.set_yticks(range(4), ["1", "2", "3", "4"], fontsize=10)
    assert not thin_touching_ticks(ax)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["1", "2", "3", "4"]
    fig = figures.figure_weighted_sum(al.article_example(T=16, d=8, h=8), slides=True)
    assert collisions(draw(fig)) == []


def test_the_first_tokens_keep_the_articles_numbers_when_the_example_grows():
    texts = all_texts(figures.figure_softmax(al.article_example(T=5, d=12, h=3), lang="ko"))
    assert "e³" in texts and "20.09" in texts


# --- issue 21: plain Unicode text, one colour scale per matrix, readable in a notebook -------------------------


def test_no_figure_draws_mathtext(article_figures):
    """Mathtext falls back to STIX fonts that an SVG editor lacks (√ broken): every formula is plain Unicode."""
    for key, fig in article_figures.items():
        assert not [t for t in all_texts(fig) if t.count("$") >= 2], key


def test_one_colour_scale_per_matrix_across_figures(article_figures):
    """V's colours are the same in figures 1 and 5: one "values" scale for the whole trace, and one for scores."""
    def clims(name, cmap):
        fig = article_figures[name, "en", False]
        return {im.get_clim() for im in fig.findobj(matplotlib.image.AxesImage) if im.cmap.name == cmap}

    assert clims("fig1_heads", look.CMAPS["values"]) == clims("fig5_weighted_sum", look.CMAPS["values"])
    assert len(clims("fig1_heads", look.CMAPS["values"])) == 1
    assert clims("fig2_scores", look.CMAPS["scores"]) == clims("fig3_mask", look.CMAPS["scores"])


@pytest.mark.parametrize("lang", LANGS)
def test_figure_1_shows_every_number_of_O_and_H(article_figures, lang):
    for slides in (False, True):
        fig = article_figures["fig1_heads", lang, slides]
        texts = all_texts(fig)
        for label in ("1.762", "−0.762", "0.238", "1.68", "−0.68"):  # Head 2's O₂, and H's columns 5–8
            assert texts.count(label) == 2, (slides, label)
        assert words.table(lang)["fig_omitted_some"] not in fig.get_suptitle()


@pytest.mark.parametrize("lang", LANGS)
def test_titles_keep_a_margin_from_the_edge(article_figures, lang):
    for (name, fig_lang, slides), fig in article_figures.items():
        if fig_lang != lang or not slides:
            continue
        title = fig._suptitle
        box = (title.get_bbox_patch() or title).get_window_extent(fig.canvas.get_renderer())
        assert fig.bbox.y1 - box.y1 >= 0.12 * fig.dpi, name  # at least 0.12 in above the title's frame


def test_subscripts_and_parentheses_are_consistent(article_figures):
    texts = all_texts(article_figures["fig5_weighted_sum", "en", False])
    assert "V₁ (3 × 4)" in texts and "O = PV (output, 3 × 4)" in texts
    assert not any(") (" in t for key, fig in article_figures.items() for t in all_texts(fig))
    assert words.table("ko")["fig_mask_values"] == "마스크 M의 값"
    assert "마스크 M의 값" in all_texts(article_figures["fig3_mask", "ko", False])


@pytest.mark.parametrize("name", al.pipeline.HEAD_STAGES)
def test_every_stage_reaches_the_stages_figure(article_figures, name):
    """The stages figure draws every stage of the pipeline's main path (a new stage too), titles wrapped."""
    for lang in LANGS:
        title = words.table(lang)[f"stage.{name}"]
        drawn = [" ".join(t.split("\n")) for t in all_texts(article_figures["stages_head1", lang, False])]
        assert any(" ".join(title.split()) == " ".join(t.split()) for t in drawn), (lang, name)


def test_panel_titles_do_not_overlap(article_figures):
    for key, fig in article_figures.items():
        assert [found for found in collisions(fig) if found[0] == "titles"] == [], key


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_figures_are_readable_at_the_width_jupyterlab_shows(article_figures, lang):
    """The normal layout is at most 8 in wide (800 px at matplotlib's 100 dpi): shown at full size, no text under
    9 px on screen."""
    for (name, fig_lang, slides), fig in article_figures.items():
        if fig_lang != lang or slides:
            continue
        assert fig.get_figwidth() <= NOTEBOOK_WIDTH + 1e-9, name
        for t in visible_texts(fig):
            assert t.get_fontsize() * 100 / 72 >= 9, (name, t.get_text(), t.get_fontsize())


def test_a_mathtext_title_is_checked_up_front():
    with pytest.raises(ValueError, match=r"^title: .* is not mathtext matplotlib can draw"):
        figures.heatmap(new_ax(), np.eye(2), "values", title="$x^$")
    assert figures.heatmap(new_ax(), np.eye(2), "values", title="$x^2$").image is not None


def test_a_figure_takes_a_caption_under_it(tr):
    fig = draw(figures.figure_mask(tr, lang="ko", slides=True, caption=words.say("caption.fig3_mask", "ko")))
    caption = [t for t in fig.texts if "그림 3." in t.get_text()]
    assert caption and caption[0].get_window_extent().y0 >= 0.2 * fig.dpi  # a margin below it too
    assert_readable_on_the_slide(fig, "caption")


def test_rectangular_traces_draw_their_query_rows_as_tokens():
    """A decode step (the last token's Query row only): S, M, P are 1 × 3 and the row is labelled token 3."""
    tr = al.article_example(queries=1)
    for make in figures.FIGURES.values():
        fig = draw(make(tr, lang="en"))
        assert all_texts(fig), make.__name__
    fig = figures.figure_mask(tr)
    M_ax = next(ax for ax in fig.axes if ax.get_title() == words.table("en")["fig_mask_values"])
    assert [t.get_text() for t in M_ax.get_yticklabels()] == ["3"]
    assert "0.114" in all_texts(figures.figure_softmax(tr))


@pytest.mark.parametrize("align", al.masks.ALIGNS)
def test_a_query_row_is_labelled_with_its_own_token_in_either_corner(align):
    """The Query rows are the last T_q tokens' in both corners: top-left changes which Keys a row sees, not whose
    Query it is. Token 3's Query is [−1, 1, 1, 2] (the article's), whatever the alignment."""
    tr = al.article_example(al.Mask("causal", align=align), queries=1)
    said = all_texts(figures.figure_scores(tr))
    assert any("Query of token 3 = [−1, 1, 1, 2]" in t for t in said) and not any("token 1 = [−1, 1" in t for t in said)
    for make in (figures.figure_mask, figures.figure_softmax):
        fig = make(tr)
        rows = [[t.get_text() for t in ax.get_yticklabels()] for ax in fig.axes if ax.get_title() in
                ("S / √dh", "S / √dh + M", "P")]  # the panels whose rows are Query rows
        assert rows and all(r == ["3"] for r in rows), (make.__name__, rows)


def test_wrapping_keeps_a_formula_or_a_shape_whole():
    family = figures.font_family("ko")
    assert layout.wrap("가중치 P = softmax(S / √dh + M)", 110, 10, family) == ["가중치 P =", "softmax(S / √dh + M)"]
    assert layout.wrap("O = PV (output, 3 × 4)", 80, 10, family)[-1] == "(output, 3 × 4)"
    long = "S[3, 1] = " + " + ".join(["−1·1"] * 12) + " (row = Query token 3, column = Key token 1)"
    assert all(layout.width_em(line, tuple(family)) * 10 <= 200 for line in layout.wrap(long, 200, 10, family))


def test_a_blank_column_too_thin_for_the_layout_is_left_out():
    """Constrained layout counts a column of ratio 1e-6 beside columns of 64 as zero wide, and then refuses the
    whole figure; a blank that thin is not drawn anyway."""
    spec = Figure().add_gridspec(1, 1)[0]
    assert [c.get_gridspec().ncols for c in layout.columns(spec, [64.4, 64.4], 1e-6)] == [2, 2]
    assert [c.colspan.start for c in layout.columns(spec, [4, 4], 2.0)] == [1, 2]


@pytest.mark.parametrize("lang", LANGS)
def test_figures_leave_no_room_above_and_below_their_panels(article_figures, lang):
    """The room constrained layout leaves over (square cells limited by the width) is taken out: a notebook's
    figure gets shorter, a slide's panels move together into the middle (`figures.tighten`)."""
    for (name, fig_lang, slides), fig in article_figures.items():
        if fig_lang == lang:
            assert tighten.spare(fig) < 0.4, (name, slides, tighten.spare(fig))


def test_the_softmax_figure_shows_shifted_exponentials_when_the_plain_ones_overflow():
    """Key token 1's score is 5×10¹⁵³: e^s is ∞ and ∞ / ∞ is no weight (notebook 05). The table then shows
    e^(s − m), m the row's largest score, each value as math.exp gives it, their sum, and a line saying so."""
    K = np.zeros((3, 4))
    K[0, 0] = 1e154
    tr = al.attention_trace(np.ones((3, 4)), K, np.arange(12.0).reshape(3, 4), 1, mask=al.Mask("causal"))
    scores = tr.S_masked[0, 1]
    m = max(x for x in scores if math.isfinite(x))
    said = all_texts(figures.figure_softmax(tr, row=1))
    assert "∞" not in said and not any("/ ∞" in t for t in said)
    shifted = [math.exp(x - m) if math.isfinite(x) else 0.0 for x in scores]
    for e in shifted:
        assert look.format_approx(e) in said
    assert "weight p = eˢ⁻ᵐ / " + look.format_approx(sum(shifted)) in said
    assert any(f"e^(s − {look.format_value(m, 'scores')})" in t for t in said)
    plain = all_texts(figures.figure_softmax(al.article_example()))  # no overflow: e^s as the article writes it
    assert "eˢ" in plain and not any("eˢ⁻ᵐ" in t for t in plain)


# --- issue 28: a slide keeps the same numbers in either language -----------------------------------------------------


def panels_with_numbers(fig):  # -> [bool], one per heatmap in drawing order: does it show its cells' numbers?
    return [any(t.get_gid() == figures.NUMBER_GID for t in ax.texts) for ax in fig.axes if ax.get_images()]


@pytest.fixture(scope="module")
def slides_T8():
    """The `--slides` figures of every stage at --T 8 --d 16 --h 4 (the size the README's instructor section
    uses), both languages: {(file name, lang): Figure}. Only these arrange their panels by the room their titles
    take (`overview._arrangement`); the first all-heads slide stands for the others (each one head at T = 8)."""
    from attention_lab.figures.export import figures_to_write

    tr8 = al.article_example(T=8, d=16, h=4)
    return {(name, lang): draw(make()) for lang in LANGS for name, make, _ in figures_to_write(tr8, lang, True)
            if name in ("stages_head1", "all_heads_1")}


def test_a_slide_keeps_the_same_numbers_in_english_and_korean(slides_T8):
    """The words differ, the numbers are the same: a panel that shows its numbers in one edition shows them in
    the other (English titles take a line more, which once cost the all-heads and stage slides every number)."""
    for name in ("stages_head1", "all_heads_1"):
        en, ko = (panels_with_numbers(slides_T8[name, lang]) for lang in ("en", "ko"))
        assert en == ko, (name, en, ko)


@pytest.mark.parametrize("lang", LANGS)
def test_the_stage_slides_keep_the_scores_numbers_at_T_8(slides_T8, lang):
    """S of T = 8 (whole numbers, −8 … 8) fits at 10 pt in the cells a 16:9 slide of every stage allows."""
    for name in ("stages_head1", "all_heads_1"):
        assert panels_with_numbers(slides_T8[name, lang])[0], (name, lang)


def test_the_softmax_figure_shows_shifted_exponentials_when_the_plain_ones_underflow():
    """Scores of −7071.07 and −7141.78 (own numbers of ±100): each e^s underflows to 0, and 0 / 0 is no weight, yet
    the table showed e^s 0 and 0, "weight p = eˢ / 0" and weights 1 and 0.000 (issue 27, sixth fuzz round). It shows
    e^(s − m), m the row's largest score, as math.exp gives each, their sum, and a line saying so."""
    tr = al.attention_trace([[-100.0, 0.0]] * 2, [[100.0, 0.0], [101.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], 1,
                            mask=al.Mask("none"))
    scores = tr.S_masked[0, 1]
    m = max(scores)
    said = all_texts(figures.figure_softmax(tr, row=1))
    assert not any("/ 0" in t for t in said), said
    shifted = [math.exp(x - m) for x in scores]
    assert shifted[0] == 1 and 0 < shifted[1] < 1e-30  # e^(s − m) are numbers; e^s were both 0
    for e in shifted:
        assert look.format_approx(e) in said
    assert "weight p = eˢ⁻ᵐ / " + look.format_approx(sum(shifted)) in said
    assert any("e^(s − (−7071.07))" in t and "small" in t for t in said), said
