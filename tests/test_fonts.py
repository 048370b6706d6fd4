"""The Korean font shipped with the package: every character the figures can draw is in it (or in the fallback),
it is small, licensed, used for our own texts only, and it embeds in every export format."""

import warnings

import matplotlib
import pytest
from fontTools.ttLib import TTFont
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

import attention_lab as al
from attention_lab import figures, look

HANGUL = range(0xAC00, 0xD7A4)


@pytest.fixture(scope="module")
def shipped():
    return set(TTFont(look.KO_FONT_FILE).getBestCmap())


@pytest.fixture(scope="module")
def fallback():
    return set(TTFont(font_manager.findfont(look.FALLBACK_FONT, fallback_to_default=False)).getBestCmap())


def missing(strings, shipped, fallback):
    """Characters of `strings` that the figures could not draw: Hangul not in the shipped font, the rest in neither."""
    absent = set()
    for c in "".join(strings):
        if not c.isprintable():
            continue
        if ord(c) in HANGUL and ord(c) not in shipped or ord(c) not in shipped | fallback:
            absent.add(c)
    return "".join(sorted(absent))


def test_every_character_of_every_label_is_in_the_font(shipped, fallback):
    """STAGES, MASKS, CONVENTIONS, words.WORDS, ordinals: re-subset with tools/subset_font.py when this fails."""
    assert missing(look.fonts.font_strings(), shipped, fallback) == ""
    assert any(ord(c) in HANGUL for c in "".join(look.fonts.font_strings()))


def test_a_label_added_without_its_glyphs_is_caught(shipped, fallback):
    assert missing(["뷁 똠 쀍"], shipped, fallback) == "똠뷁쀍"  # syllables no label of ours uses


def test_every_character_a_korean_figure_draws_is_in_the_font(shipped, fallback):
    trs = [al.article_example(al.Mask("padding", length=3), T=5), al.article_example("sliding", T=1, d=1, h=1)]
    drawn = [t.get_text() for tr in trs for make in figures.FIGURES.values()
             for t in make(tr, lang="ko").findobj(Text)]
    assert missing(drawn, shipped, fallback) == ""


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_glyph_is_missing_when_drawing(lang):
    tr = al.article_example(al.Mask("sliding", window=2), T=4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for make in figures.FIGURES.values():  # the slide layouts: test_plotting draws them with warnings as errors
            FigureCanvasAgg(make(tr, lang=lang)).draw()
    assert [str(w.message) for w in caught] == []


def test_the_font_is_small_named_apart_and_licensed():
    assert look.KO_FONT_FILE.stat().st_size < 200_000  # well under 1 MB
    names = TTFont(look.KO_FONT_FILE)["name"]
    assert names.getDebugName(1) == look.KO_FONT  # its own family name: never confused with an installed Noto
    assert names.getDebugName(6) == look.KO_FONT_POSTSCRIPT
    licence = (look.fonts.FONT_DIR / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence and "Noto Sans CJK KR" in licence
    assert "tools/subset_font.py" in licence


def test_the_font_is_used_for_our_texts_only(tr=None):
    rc_before = dict(matplotlib.rcParams)
    fig = figures.figure_mask(al.article_example(), lang="ko")
    assert dict(matplotlib.rcParams) == rc_before
    assert look.KO_FONT not in matplotlib.rcParams["font.family"] + matplotlib.rcParams["font.sans-serif"]
    assert all(t.get_fontfamily() == list(look.FONT_FAMILIES["ko"]) for t in fig.findobj(Text))


@pytest.mark.parametrize("fonttype", [3, 42])
@pytest.mark.parametrize("fmt", ["pdf", "ps"])
def test_korean_embeds_in_pdf_and_postscript_as_type_3_and_42(tmp_path, fmt, fonttype):
    """The subset is TrueType: a CFF font breaks Type 42 files, which is why tools/subset_font.py converts it."""
    fig = figures.figure_mask(al.article_example(), lang="ko")
    path = tmp_path / f"fig.{fmt}"
    with matplotlib.rc_context({"pdf.fonttype": fonttype, "ps.fonttype": fonttype}):
        fig.savefig(path)
    data = path.read_bytes()
    assert look.KO_FONT_POSTSCRIPT.encode() in data
    if fonttype == 42 and fmt == "pdf":
        assert b"/FontFile2" in data  # embedded as TrueType


def test_the_font_and_its_licence_are_package_data():
    """An installed package (not only an editable checkout) carries the font and its licence."""
    pyproject = (look.fonts.FONT_DIR.parents[1] / "pyproject.toml").read_text()
    assert '"fonts/*.ttf", "fonts/OFL.txt"' in pyproject
