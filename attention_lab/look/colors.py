"""The colours of the visual language, computed once for both renderers (matplotlib and the browser).

A heatmap is described by a `CellStyle`: each cell's label, fill colour and
text colour, and which cells are masked. `figures` draws it with matplotlib; the browser gets the colour tables
(`colour_tables`, sent by live/data.py) and picks each cell's entry by the same rule (live/colors.js).

- Scores (S, S/√dh, M, S/√dh + M): one diverging scale centred on 0.
- Weights (E, P): a sequential scale fixed to [0, 1], so heads and rows compare.
- Values (Q, K, V, O, H): a diverging scale centred on 0.
- Masked cells (−∞): grey, labelled "−∞" (never "-inf" or "-1e9").
- A NaN cell (only a hand-made matrix has one: a trace never does): pink, labelled "NaN".
All maps are ColorBrewer maps that stay readable with colour-blindness.
Text is black or white, whichever contrasts more with what is behind it
(at least 4.58:1 on any fill); a head's colour marks frames and swatches,
never text, because the head colours are light (about 2:1 on white).

`colour_tables()` gives the same scales as data (each map's 256 colours and
the ink that reads on each), for the browser's front-end.
"""

from dataclasses import dataclass

import numpy as np
from matplotlib import colormaps

from ..numeric import checks
from ..numeric.pipeline import STAGES
from .formats import cell_label

MASKED_RGBA = (0.82, 0.82, 0.82, 1.0)  # light grey: clearly not a colour of any scale
MASKED_HATCH = "///"
INK_DARK, INK_LIGHT = "#000000", "#ffffff"  # cell text: dark on light fills, light on dark ones
NAN_RGBA = (1.0, 0.55, 0.8, 1.0)  # pink: in no colour scale here, and not the grey of a masked cell
MIN_CONTRAST = 4.5  # WCAG AA for text

CMAPS = {"scores": "RdBu_r", "weights": "YlGnBu", "values": "PRGn"}
_COLORMAPS = {kind: colormaps[name] for kind, name in CMAPS.items()}  # each lookup in `colormaps` makes a new copy

LUT_SIZE = 256  # every colour map here is a table of 256 colours; a value picks entry floor(unit · 256)

# Okabe–Ito colours, safe for colour-blind readers: Head 1 orange, Head 2 sky blue, …
HEAD_COLORS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#000000")


def head_color(i):
    """The identity colour of head i (0-based), the same in every figure and view."""
    return HEAD_COLORS[i % len(HEAD_COLORS)]


def kv_head_color(j, h, g):
    """The colour of K/V head j (0-based) of g shared by h Query heads: that of the first Query head it serves."""
    return head_color(j * (h // g))


# A value's place on its colour scale is first rounded to a multiple of 1 / UNIT_STEPS, the same way on both sides
# (floor(u · UNIT_STEPS + 0.5) / UNIT_STEPS: the same float operations in NumPy and in the page's colors.js). The
# page and NumPy sum a dot product in different orders, so a value can differ in its last bits between them; where
# it lies on the edge k/256 of two colours (an integer value often does), the two sides would fill the cell with
# neighbouring colours. After the rounding they differ only where a value lies within float error of a point
# halfway between two steps, which no edge is (every k/256 is a whole number of steps).
UNIT_STEPS = 10**9


FIXED_RANGES = {"weights": (0.0, 1.0)}  # kinds whose scale does not follow the values: weights lie in [0, 1]
LEAST_VMAX = 1.0  # a scale that follows the values reaches ±1 at least: an all-zero matrix still gets a usable scale


def value_range(kind, *matrices):
    """(vmin, vmax) for a kind: FIXED_RANGES's for weights, else symmetric around 0 over the finite values."""
    if kind in FIXED_RANGES:
        return FIXED_RANGES[kind]
    finite = [np.abs(m[np.isfinite(m)]) for m in matrices]
    biggest = max((float(f.max()) for f in finite if f.size), default=0.0)
    vmax = max(biggest, LEAST_VMAX)
    return -vmax, vmax


@dataclass(frozen=True)
class CellStyle:
    """Everything a renderer needs to draw one matrix: labels, colours, masked cells."""

    labels: tuple  # rows of str
    rgba: np.ndarray  # (rows, cols, 4) fill colours in [0, 1]
    text_dark: np.ndarray  # (rows, cols) bool: dark text reads better on this fill
    masked: np.ndarray  # (rows, cols) bool: −∞ cells
    nan: np.ndarray  # (rows, cols) bool: NaN cells, drawn as "NaN" on NAN_RGBA
    cmap: str
    vmin: float
    vmax: float


def scale_limits(vmin, vmax):  # -> (float | None, float | None)
    """The ends of a colour scale as given: each one finite number, or None for the kind's own scale."""
    limits = {}
    for name, v in (("vmin", vmin), ("vmax", vmax)):
        v = None if v is None else checks.real_array(name, v, "a number")
        if v is not None and (v.ndim != 0 or not np.isfinite(v)):
            raise ValueError(f"{name}: must be one finite number (or None for the kind's own scale), got {v!r:.60}.")
        limits[name] = None if v is None else float(v)
    vmin, vmax = limits["vmin"], limits["vmax"]
    if vmin is not None and vmax is not None and not vmin < vmax:
        raise ValueError(f"vmin, vmax: need vmin < vmax, got vmin={vmin}, vmax={vmax}.")
    return vmin, vmax


def cell_style(matrix, kind, vmin=None, vmax=None, allowed=None):  # [rows, cols], [rows, cols] bool -> CellStyle
    """Labels and colours of every cell of a matrix of the given kind ("scores", "weights", "values").

    allowed: which cells' rows see their keys (the mask's allowed matrix), for a stage whose masked cells are 0
    (E, P): a weight of 0.0 reads "0.000" where allowed, "0" where masked (format_value). None: not said.
    """
    if not isinstance(kind, str) or kind not in CMAPS:
        raise ValueError(f"kind: unknown kind {kind!r}; use one of {sorted(CMAPS)}.")
    matrix = checks.real_array("matrix", matrix, "a 2-D array of numbers")
    if matrix.ndim != 2:
        raise ValueError(f"matrix: a heatmap needs a 2-D matrix, got shape {matrix.shape}.")
    if matrix.size == 0:
        raise ValueError(f"matrix: a heatmap needs at least one row and one column, got shape {matrix.shape}. "
                         "Pass a matrix with at least one value.")
    vmin, vmax = scale_limits(vmin, vmax)
    lo, hi = value_range(kind, matrix)
    vmin, vmax = lo if vmin is None else vmin, hi if vmax is None else vmax
    if vmin >= vmax:
        raise ValueError(f"vmin, vmax: need vmin < vmax, got vmin={vmin}, vmax={vmax}.")
    masked, nan = np.isneginf(matrix), np.isnan(matrix)
    scale = max(abs(vmin), abs(vmax))  # divided first, so that numbers near ±1.8e308 do not overflow
    unit = np.clip((np.where(masked | nan, 0.0, matrix) / scale - vmin / scale) / (vmax / scale - vmin / scale),
                   0.0, 1.0)
    unit = np.floor(unit * UNIT_STEPS + 0.5) / UNIT_STEPS  # the guard: see UNIT_STEPS
    rgba = _COLORMAPS[kind](unit)  # (rows, cols, 4)
    rgba[masked] = MASKED_RGBA
    rgba[nan] = NAN_RGBA
    if allowed is None:
        labels = tuple(tuple(cell_label(x, kind) for x in row) for row in matrix.tolist())
    else:
        allowed = checks.boolean_matrix("allowed", allowed, "Pass the mask's allowed matrix, or None.", empty=True)
        if allowed.shape != matrix.shape:
            raise ValueError(f"allowed: must have the matrix's shape {matrix.shape}, got {allowed.shape}.")
        labels = tuple(tuple(cell_label(x, kind, a) for x, a in zip(row, seen, strict=True))
                       for row, seen in zip(matrix.tolist(), allowed.tolist(), strict=True))
    return CellStyle(labels, rgba, dark_text_reads_better(rgba), masked, nan, CMAPS[kind], vmin, vmax)


def relative_luminance(rgb):  # [..., 3] sRGB in [0, 1] -> [...]
    """WCAG's relative luminance of sRGB colours."""
    rgb = np.asarray(rgb, dtype=float)[..., :3]
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return linear @ np.array([0.2126, 0.7152, 0.0722])


def contrast(rgb_a, rgb_b):  # -> WCAG contrast ratio, 1 … 21
    """How well text of one colour reads on the other: 4.5 or more is WCAG AA."""
    a, b = relative_luminance(rgb_a), relative_luminance(rgb_b)
    return (np.maximum(a, b) + 0.05) / (np.minimum(a, b) + 0.05)


# Black text contrasts more than white with a fill of luminance L when (L + 0.05) / 0.05 ≥ 1.05 / (L + 0.05),
# that is when L ≥ √(1.05 · 0.05) − 0.05: one comparison instead of two contrast ratios per cell.
_DARK_TEXT_FROM = np.sqrt(1.05 * 0.05) - 0.05


def dark_text_reads_better(rgba):  # [..., 4] -> [...] bool
    """True where black text contrasts more with the fill than white text does."""
    return relative_luminance(rgba) >= _DARK_TEXT_FROM


def token_labels(n):
    """Row and column labels: token numbers from 1, as in the article."""
    return [str(i + 1) for i in range(n)]




def kind_of(name):  # a stage name or a kind -> "scores" | "weights" | "values"
    """The kind of a stage (its colour scale and number format), or the kind itself."""
    if isinstance(name, str) and name in STAGES:
        return STAGES[name].kind
    return checks.choice("kind", name, tuple(CMAPS) + tuple(STAGES))


def colour_tables():  # -> {kind: {"fill": [256 × "rrggbb"], "ink": "0101…"}, "masked": …, "nan": …}
    """Each colour map as the table of colours it is, with the ink (1: dark, 0: light) that reads on each entry."""
    def hex_of(rgba):
        return "".join(f"{round(c * 255):02x}" for c in rgba[:3])

    tables = {}
    for kind, cmap in _COLORMAPS.items():
        rgba = cmap(np.arange(LUT_SIZE))  # (256, 4): entry k is what a unit value in [k/256, (k+1)/256) gets
        tables[kind] = {"fill": [hex_of(c) for c in rgba],
                        "ink": "".join("1" if dark else "0" for dark in dark_text_reads_better(rgba))}
    for name, rgba in (("masked", MASKED_RGBA), ("nan", NAN_RGBA)):
        tables[name] = {"fill": hex_of(rgba), "ink": "1" if dark_text_reads_better(np.array(rgba)) else "0"}
    tables["inks"] = [INK_LIGHT, INK_DARK]
    tables["unitSteps"] = UNIT_STEPS
    tables["heads"] = list(HEAD_COLORS)
    tables["fixedRanges"] = {kind: list(limits) for kind, limits in FIXED_RANGES.items()}  # value_range's rule
    tables["leastVmax"] = LEAST_VMAX
    return tables


# The colours around the heatmaps (labels, rules, outlines, messages, the page), for a light and a dark host.
# Each text colour reads at MIN_CONTRAST or more on both backgrounds of its theme ("bg" and "panel");
# tests/test_themes.py checks that here and measures it in the browser.
THEMES = {
    "light": {"fg": "#1f2328", "muted": "#57606a", "rule": "#d0d7de", "faint": "#eaeef2", "strong": "#111111",
              "bad": "#b00020", "good": "#1a7f37", "link": "#0b5cad", "bg": "#ffffff", "panel": "#f6f8fa"},
    "dark": {"fg": "#e6edf3", "muted": "#a8b1bb", "rule": "#3d444d", "faint": "#2a3038", "strong": "#f0f3f6",
             "bad": "#ff8f87", "good": "#56d364", "link": "#6cb6ff", "bg": "#0d1117", "panel": "#161b22"},
}
THEME_TEXT = ("fg", "muted", "strong", "bad", "good", "link")  # the colours that text is written in
# In JupyterLab, Notebook 7 and Voilà the host's own text and background colours win; the rest follows the host's
# light or dark theme, which it names on <body data-jp-theme-light="true|false">.
JUPYTER_VARIABLES = {"fg": "--jp-content-font-color1", "bg": "--jp-layout-color0"}


def theme_css():  # -> str: CSS custom properties --al-<name> for every THEMES entry
    """The theme as CSS: light by default, dark where the reader's system prefers it (unless the page's toggle set
    <html data-al-theme="light">), or the toggle chose dark, or a Jupyter host's theme is dark; light on paper."""
    def block(theme):
        return ";".join([f"--al-theme-{name}:{value}" for name, value in THEMES[theme].items()]
                        + [f"--al-theme-scheme:{theme}"])  # the browser's own controls and scroll bars follow

    own = ";".join(f"--al-{name}:var({JUPYTER_VARIABLES[name]},var(--al-theme-{name}))" if name in JUPYTER_VARIABLES
                   else f"--al-{name}:var(--al-theme-{name})" for name in [*THEMES["light"], "scheme"])
    return (f":root{{{block('light')}}}\n"
            f"@media (prefers-color-scheme:dark){{:root:not([data-al-theme=light]){{{block('dark')}}}}}\n"
            f":root[data-al-theme=dark],body[data-jp-theme-light=false]{{{block('dark')}}}\n"
            f"body[data-jp-theme-light=true]{{{block('light')}}}\n"
            # On paper, light whatever the screen's theme: :not(#…) lifts these rules above each of the above.
            f"@media print{{:root:not(#al-print),body[data-jp-theme-light]:not(#al-print){{{block('light')}}}}}\n"
            f".al-view,.al-live,.al-stepper,.al-page,.al-site{{{own}}}\n")
