"""The one visual language of the package, for the figures and the browser alike.

    colors    the colour scales, masked and NaN cells, text ink by contrast, head colours (CellStyle)
    formats   every number format: cell labels (−∞, 0.114, 8.886×10⁶), 4-digit display numbers, rows, sizes
    words     every word, in Korean and English, in one table
    fonts     the figures' fonts (the shipped Korean subset)
    tables    the styles the browser's heatmaps and breakdowns share

It also names its modules (`al.look.fonts`, `al.look.words`, …). This namespace gathers the names a notebook
uses (`al.look` is this module):
`al.look.format_value(0.1142)`, `al.look.format_row(row, "weights")`, `al.look.cell_style(m, "scores")`.
"""

from . import colors, fonts, formats, tables, words  # noqa: F401  (the modules, by name)
from .colors import (
    CMAPS,
    HEAD_COLORS,
    INK_DARK,
    INK_LIGHT,
    MASKED_HATCH,
    MASKED_RGBA,
    MIN_CONTRAST,
    NAN_RGBA,
    CellStyle,
    cell_style,
    contrast,
    dark_text_reads_better,
    head_color,
    kind_of,
    kv_head_color,
    relative_luminance,
    scale_limits,
    token_labels,
    value_range,
)
from .fonts import (
    FALLBACK_FONT,
    FONT_FAMILIES,
    FONT_SYMBOLS,
    KO_FONT,
    KO_FONT_FILE,
    KO_FONT_POSTSCRIPT,
    font_characters,
)
from .formats import (
    MINUS,
    NAN_LABEL,
    NEG_INF_LABEL,
    bytes_text,
    dot_product_text,
    equals,
    format_approx,
    format_row,
    format_value,
)
from .words import ordinal, say

__all__ = [
    "CMAPS", "HEAD_COLORS", "INK_DARK", "INK_LIGHT", "MASKED_HATCH", "MASKED_RGBA", "MIN_CONTRAST", "NAN_RGBA",
    "CellStyle", "cell_style", "contrast", "dark_text_reads_better", "head_color", "kind_of", "kv_head_color",
    "relative_luminance", "scale_limits", "token_labels", "value_range", "FALLBACK_FONT", "FONT_FAMILIES",
    "FONT_SYMBOLS", "KO_FONT", "KO_FONT_FILE", "KO_FONT_POSTSCRIPT", "font_characters", "MINUS", "NAN_LABEL",
    "NEG_INF_LABEL", "bytes_text", "dot_product_text", "equals", "format_approx", "format_row", "format_value",
    "ordinal", "say",
]
