"""The figures' fonts: Korean with the shipped subset of Noto Sans CJK KR, DejaVu Sans for the rest.

Figures draw the package's own texts in `FONT_FAMILIES[lang]`: Korean with
the subset of Noto Sans CJK KR shipped in `attention_lab/fonts/` (so Hangul
renders where no Korean font is installed), DejaVu Sans (matplotlib's own)
for the symbols it lacks. `font_characters()` is what that subset must hold:
every character of the word table, and the symbols of numbers and formulas.
"""

from pathlib import Path

from . import words

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
KO_FONT_FILE = FONT_DIR / "NotoSansCJKkr-Regular-subset.ttf"
KO_FONT = "Noto Sans CJK KR Attention Lab"  # the family name inside KO_FONT_FILE: its own, see tools/subset_font.py
KO_FONT_POSTSCRIPT = "NotoSansCJKkr-Regular-AttentionLab"
FALLBACK_FONT = "DejaVu Sans"  # ships with matplotlib: Latin, math symbols, ᵀ, ₕ, ↺
FONT_FAMILIES = {"ko": (KO_FONT, FALLBACK_FONT), "en": (FALLBACK_FONT, KO_FONT)}
# The installed family an editable deck names for each language's text: a viewer has the full Noto Sans CJK KR (the
# subset keeps its widths, so the deck's measured lines still fit), never the subset's own family name.
DECK_FONT = {"ko": "Noto Sans CJK KR", "en": FALLBACK_FONT}
# Characters drawn besides the registries' words: ASCII, and the symbols of the numbers and formulas.
FONT_SYMBOLS = "".join(map(chr, range(0x20, 0x7F))) + "−∞√·×÷→←↓↑≈…–—ᵀ₁₂ₕᵢΣ±≤≥‘’“”|"
# Left out of the subset, so DejaVu Sans draws them in both languages: Noto's √ ends in a bar that stops short of
# the next letter ("√‾ dh"); DejaVu's is a plain radical, and the same in PNG, PDF and an SVG viewer's fallback.
FALLBACK_ONLY = "√"



def font_strings():  # -> list of str
    """Every word a figure can draw in either language: the whole word table and the ordinals."""
    strings = [text for pair in words.WORDS.values() for text in pair]
    strings += [words.ordinal(n, lang) for n in range(1, 33) for lang in words.LANGS]
    return strings


def font_characters():  # -> str, sorted
    """What the shipped Korean font must hold: every character of `font_strings()`, and FONT_SYMBOLS, but
    FALLBACK_ONLY."""
    chars = set("".join(font_strings())) | set(FONT_SYMBOLS)
    return "".join(sorted(c for c in chars - set(FALLBACK_ONLY) if c.isprintable()))
