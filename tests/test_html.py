"""The explorer's breakdowns as the page writes them (live/picture.js, run in Node.js), and each heatmap cell as
data: the same labels and colours as `style`."""

import re
from html import unescape

import numpy as np
import pytest
from frontend import page_picture
from page_cells import cells

import attention_lab as al
from attention_lab import look
from attention_lab.look import colors


@pytest.fixture(scope="module")
def tr():
    return al.article_example()


def breakdown(ex, key):  # -> the text of one breakdown of the page's picture, its tags gone
    [html] = [it["html"] for s in page_picture(ex.page_config())["sections"] for it in s["items"] if it["key"] == key]
    return re.sub("<[^>]+>", "", html)


def test_breakdowns_show_the_article_numbers():
    ex = al.explorer(view="all")  # Query token 3, Key token 1, row 3: the article's picks
    dot = breakdown(ex, "dot@0")
    assert "−1·1 + 1·(−1) + 1·2 + 2·1 = 2" in dot and "2 ÷ √4 = 1" in dot and "1 + 0 = 1" in dot
    wsum = breakdown(ex, "weighted_sum@0")
    assert "0.114·V1 + 0.042·V2 + 0.844·V3" in wsum and "[0.114, 0.042, 0.844, 1]" in wsum
    ex.controls["row"].value = 1
    soft = breakdown(ex, "softmax@0")
    assert "e−∞ = 0" in soft and "0.818" in soft and "0.182" in soft


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_row_whose_exponentials_underflow_shows_them_shifted(lang):
    """Scores of −7071.07 and −7141.78 (own numbers of ±100): each e^s underflows to 0, and the table said
    "e^−7071.07 = 0", "sum = 0" and weights "= 1" and "= 0.000", 0 / 0 as a weight (issue 27, sixth fuzz round).
    It shows e^(s − m), m the row's largest score, as for e^s that overflow, and says why."""
    ex = al.explorer(Q=[[-100.0, 0.0]] * 2, K=[[100.0, 0.0], [101.0, 0.0]], V=[[1.0, 0.0], [0.0, 1.0]], h=1,
                     mask="none", view="softmax", lang=lang)
    soft = unescape(breakdown(ex, "softmax@0"))  # (a rounded e^s is "≈" its label, however small)
    assert "e−7071.07 − (−7071.07) = 1" in soft and "e−7141.78 − (−7071.07) ≈ 1.953×10⁻³¹" in soft, soft
    assert "1 / 1 = 1" in soft and "1.953×10⁻³¹ / 1 ≈ 0.000" in soft and not re.search(r"= 0(?![.\d])", soft), soft
    assert look.words.say("softmax_shifted_small", lang, m="(−7071.07)") in soft, soft


def _luminance(rgb):  # WCAG 2.x relative luminance of 0…255 channels, written out from the definition
    c = [x / 255 / 12.92 if x / 255 <= 0.03928 else ((x / 255 + 0.055) / 1.055) ** 2.4 for x in rgb]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def test_masked_cells_stay_minus_infinity_and_the_cells_match_style(tr):
    """Head 1's S / √dh + M as the page's cells: the article's numbers (row 3: 1 0 3), masked cells in the grey of
    the figures, the colours read back from the hex are style's, and the ink is whichever of black and white text
    contrasts more with the cell's fill."""
    data = cells(tr.S_masked[0], "scores")
    cs = look.cell_style(tr.S_masked[0], "scores")
    assert data["labels"] == "1.5 −∞ −∞ 3 1.5 −∞ 1 0 3"
    assert data["masked"] == "011001000" and (data["rows"], data["cols"], data["width"]) == (3, 3, 3)
    fills = [tuple(int(data["fill"][k:k + 2], 16) for k in range(at, at + 6, 2)) for at in range(0, 54, 6)]
    assert len(data["fill"]) == 54
    np.testing.assert_allclose(fills, cs.rgba.reshape(-1, 4)[:, :3] * 255, atol=0.5)  # style's colours, to the unit
    assert [fills[k] for k in (1, 2, 5)] == [(0xD1, 0xD1, 0xD1)] * 3  # the masked cells: the figures' grey
    dark = ["1" if (_luminance(c) + 0.05) / 0.05 >= 1.05 / (_luminance(c) + 0.05) else "0" for c in fills]
    assert data["ink"] == "".join(dark) and "0" in dark and "1" in dark
    assert "-inf" not in data["labels"] and "1e9" not in data["labels"]


def test_nan_cells_show_nan_in_a_colour_of_their_own_as_in_the_figures():
    """NaN is written "NaN" and filled with a colour that no scale has and that is not the masked grey: it is
    never read as a value (nor as a masked score). The colours are style's (the page's and the figures' alike)."""
    data = cells(np.array([[1.0, np.nan], [np.inf, -np.inf]]), "values")
    assert data["labels"] == "1 NaN ∞ −∞" and data["masked"] == "0001"
    fills = [data["fill"][k:k + 6] for k in range(0, 24, 6)]
    scales = {c for kind in colors.CMAPS for c in colors.colour_tables()[kind]["fill"]}
    assert fills[1] not in scales and fills[1] != fills[3] == "d1d1d1" and {fills[0], fills[2]} <= scales
    np.testing.assert_allclose([int(fills[1][k:k + 2], 16) for k in (0, 2, 4)], np.array(look.NAN_RGBA[:3]) * 255,
                               atol=0.5)  # the figures' NaN colour, read back
