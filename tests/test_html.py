"""The HTML heatmaps: the same labels and colours as `style`, masked cells marked, text escaped."""

import re

import numpy as np
import pytest

import attention_lab as al
from attention_lab import look as style
from attention_lab.look import tables as hm
from attention_lab.numeric import checks as checks

CELL = re.compile(r"<td(?: class=\"([^\"]*)\")?(?: title=\"[^\"]*\")? style=\"background-color:(#[0-9a-f]{6});"
                  r"color:(#[0-9a-f]{6})\">([^<]*)</td>")


def cells(fragment):  # -> list of (classes, fill, ink, label) in row-major order
    return CELL.findall(fragment)


@pytest.fixture(scope="module")
def tr():
    return al.article_example()


def test_labels_and_colours_come_from_style(tr):
    frag = hm.heatmap_html(tr.S_masked[0], "S_masked")
    cs = style.cell_style(tr.S_masked[0], "scores")
    found = cells(frag)
    assert [c[3] for c in found] == [x for row in cs.labels for x in row]
    expected_fill = ["#{:02x}{:02x}{:02x}".format(*np.rint(c[:3] * 255).astype(int)) for c in cs.rgba.reshape(-1, 4)]
    assert [c[1] for c in found] == expected_fill
    assert [c[2] == style.INK_DARK for c in found] == cs.text_dark.ravel().tolist()


def test_masked_cells_have_the_class_and_minus_infinity(tr):
    found = cells(hm.heatmap_html(tr.S_masked[0], "scores"))
    masked = [("al-masked" in c[0], c[3]) for c in found]
    assert masked == [(bool(m), style.NEG_INF_LABEL if m else masked[k][1])
                      for k, m in enumerate(np.isneginf(tr.S_masked[0]).ravel())]
    assert sum(m for m, _ in masked) == 3  # above the diagonal of a 3×3 causal mask
    assert "-inf" not in hm.heatmap_html(tr.M, "M") and "1e9" not in hm.heatmap_html(tr.M, "M")
    assert "al-masked" not in hm.heatmap_html(al.article_example(mask=None).S_masked[0], "scores")


def test_article_numbers_and_query_key_captions(tr):
    frag = hm.heatmap_html(tr.S[0], "S", title="S = QKᵀ")
    labels = [c[3] for c in cells(frag)]
    assert labels[6:9] == ["2", "0", "6"]  # row 3 of Head 1's S
    assert "Query ↓" in frag and "Key →" in frag and "S = QKᵀ" in frag
    assert 'data-rows="3" data-cols="3"' in frag
    values = hm.heatmap_html(tr.Q, "values")
    assert "Query ↓" not in values and "Key →" not in values


def test_text_is_escaped():
    frag = hm.heatmap_html(np.eye(2), "values", title="<b>x</b> & y", row_labels=["<i>", "\"q\""],
                           col_labels=["a&b", "<"], row_caption="<script>", col_caption="k>")
    assert "<b>x</b>" not in frag and "&lt;b&gt;x&lt;/b&gt; &amp; y" in frag
    assert "<i>" not in frag and "&lt;i&gt;" in frag and "&quot;q&quot;" in frag
    assert "a&amp;b" in frag and "<script>" not in frag and "k&gt;" in frag


def test_highlight_col_colors_and_annotation():
    m = np.arange(6.0).reshape(2, 3)
    frag = hm.heatmap_html(m, "values", highlight=(1, 2), col_colors=["#E69F00", None, "#56B4E9"])
    assert [("al-hl" in c[0]) for c in cells(frag)] == [False] * 5 + [True]
    assert frag.count('class="al-bar"') == 3 and "background:#E69F00" in frag and "background:#56B4E9" in frag
    row = hm.heatmap_html(m, "values", highlight=(0, None))
    assert row.count("al-hlrow") == 1
    wide = hm.heatmap_html(np.ones((2, 40)), "values")
    assert all(c[3] == "" for c in cells(wide)) and 'title="1"' in wide  # too wide: colours + tooltips
    with pytest.raises(ValueError, match="col_colors"):
        hm.heatmap_html(m, "values", col_colors=["red"])
    with pytest.raises(ValueError, match="row_labels"):
        hm.heatmap_html(m, "values", row_labels=["1"])


def test_page_emits_the_style_block_once(tr):
    view = hm.page(hm.row_of(hm.heatmap_html(tr.S[0], "S"), hm.heatmap_html(tr.P[0], "P")))
    assert view.count("<style>") == 1 and view.count('class="al-grid"') == 2


def test_breakdowns_show_the_article_numbers(tr):
    words = {"query": "Query token 3", "key": "Key token 1", "score": "score", "scaled": "÷ √dh", "masked": "+ M"}
    dot = hm.dot_product_html(tr.Qh[0, 2], tr.Kh[0, 0], score=tr.S[0, 2, 0], scaled=tr.S_scaled[0, 2, 0],
                              mask_value=tr.M[2, 0], masked=tr.S_masked[0, 2, 0], dh=tr.dh, labels=words)
    text = re.sub("<[^>]+>", "", dot)
    assert "−1·1 + 1·(−1) + 1·2 + 2·1 = 2" in text and "2 ÷ √4 = 1" in text and "1 + 0 = 1" in text
    soft = re.sub("<[^>]+>", "", hm.softmax_html(tr.S_masked[0, 1], tr.P[0, 1], labels={
        "key": "Key", "scores": "scores", "sum": "sum", "weights": "weights"}))
    assert "e−∞ = 0" in soft and "0.818" in soft and "0.182" in soft
    wsum = re.sub("<[^>]+>", "", hm.weighted_sum_html(tr.P[0, 2], tr.Vh[0], tr.O[0, 2], labels={
        "weight": "w", "value": "Value", "output": "O"}))
    assert "0.114·V1 + 0.042·V2 + 0.844·V3" in wsum and "[0.114, 0.042, 0.844, 1]" in wsum


# ---- bad input: refused by name, or converted with str() --------------------------------------------------------

def test_text_parameters_are_converted_with_str():
    frag = hm.heatmap_html(np.eye(2), "values", title=5, col_caption=5, row_caption=2.5, name=7,
                           row_labels=[1, 2], col_labels=["a", 3])
    assert '<div class="al-title">5</div>' in frag and "5 →" in frag and "2.5 ↓" in frag and 'data-name="7"' in frag
    for bad in ({"title": b"x"}, {"col_caption": np.ones(2)}, {"row_labels": [None, 1]}):
        with pytest.raises(ValueError, match=f"^{next(iter(bad))}"):
            hm.heatmap_html(np.eye(2), "values", **bad)


@pytest.mark.parametrize("color", ["red", "Red", "#E69F00", "#fff", "#e69f0080", "rgb(230, 159, 0)",
                                   "rgba(230,159,0,.5)", "rgb(90% 60% 0% / 0.5)", "transparent"])
def test_css_colours_are_accepted(color):
    assert f"background:{color.strip()}" in hm.heatmap_html(np.eye(1), "values", col_colors=[color])
    assert style.colors.css_color("color", color) == color


@pytest.mark.parametrize("color", ["red;background-image:url(https://example.com/x)", "url(x)", "#ggg", "#12345",
                                   "rgb(1, 2)", "expression(alert(1))", "red}body{color:red", 5, b"red", ""])
def test_anything_but_a_css_colour_is_refused(color):
    with pytest.raises(ValueError, match=r"^col_colors\[0\]: must be a CSS colour"):
        hm.heatmap_html(np.eye(1), "values", col_colors=[color])
    with pytest.raises(ValueError, match="^color:"):
        hm.swatch(color)


def test_nan_cells_show_nan_in_a_colour_of_their_own_as_in_the_figures():
    found = cells(hm.heatmap_html([[1.0, np.nan], [np.inf, -np.inf]], "values"))
    assert [c[3] for c in found] == ["1", style.NAN_LABEL, "∞", style.NEG_INF_LABEL]
    nan_fill = "#{:02x}{:02x}{:02x}".format(*np.rint(np.array(style.NAN_RGBA[:3]) * 255).astype(int))
    assert found[1][1] == nan_fill and "al-masked" not in found[1][0] and "al-masked" in found[3][0]


@pytest.mark.parametrize(("matrix", "match"), [
    (np.zeros((0, 3)), r"^matrix: is empty \(shape \(0, 3\)\)"), (np.zeros((2, 0)), "^matrix: is empty"),
    (np.ones(3), "^matrix: a heatmap needs a 2-D matrix"), ([[1, "a"]], "^matrix:"), ([[1j]], "^matrix: complex"),
    ([[1, 2], [3]], "^matrix:"), ([[10**400]], "^matrix:"),
])
def test_empty_and_odd_matrices_are_refused_by_name(matrix, match):
    with pytest.raises(ValueError, match=match):
        hm.heatmap_html(matrix, "values")
    with pytest.raises(ValueError, match=match):
        hm.heatmap_data(matrix, "values")


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"kind": "colours"}, "^kind:"), ({"kind": None}, "^kind:"), ({"vmin": 1, "vmax": 1}, "^vmin, vmax:"),
    ({"vmin": np.nan}, "^vmin:"), ({"vmax": "big"}, "^vmax:"), ({"highlight": (True, 0)}, "^highlight:"),
    ({"highlight": (0, 5)}, "^highlight:"), ({"highlight": 3}, "^highlight:"), ({"highlight": "ab"}, "^highlight:"),
    ({"annotate": "yes"}, "^annotate:"), ({"row_labels": "ab"}, "^row_labels:"),
    ({"col_colors": "red"}, "^col_colors:"),
])
def test_other_bad_arguments_are_refused_by_name(kwargs, match):
    kind = kwargs.pop("kind", "values")
    with pytest.raises(ValueError, match=match):
        hm.heatmap_html(np.eye(2), kind, **kwargs)


def test_masked_cells_stay_minus_infinity_and_heatmap_data_matches_style(tr):
    data = hm.heatmap_data(tr.S_masked[0], "S_masked")
    cs = style.cell_style(tr.S_masked[0], "scores")
    assert data["labels"].split(" ") == [x for row in cs.labels for x in row]
    assert data["masked"] == "".join("1" if m else "0" for m in cs.masked.ravel())
    assert data["ink"] == "".join("1" if m else "0" for m in cs.text_dark.ravel())
    fills = ["{:02x}{:02x}{:02x}".format(*np.rint(c[:3] * 255).astype(int)) for c in cs.rgba.reshape(-1, 4)]
    assert data["fill"] == "".join(fills) and (data["rows"], data["cols"], data["width"]) == (3, 3, 3)
