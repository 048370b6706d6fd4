"""The visual language, computed once for both renderers (matplotlib and HTML).

A heatmap is described by a `CellStyle`: each cell's label, fill colour and
text colour, and which cells are masked. `plotting` draws it with matplotlib,
`html` writes it as an HTML table; neither chooses a colour or a format itself.

- Scores (S, S/√dh, M, S/√dh + M): one diverging scale centred on 0.
- Weights (P): a sequential scale fixed to [0, 1], so heads and rows compare.
- Values (Q, K, V, O, H): a diverging scale centred on 0.
- Masked cells (−∞): grey, labelled "−∞" (never "-inf" or "-1e9").
All maps are ColorBrewer maps that stay readable with colour-blindness.
"""

import functools
from dataclasses import dataclass

import numpy as np
from matplotlib import colormaps

from .stages import STAGES

MINUS = "\u2212"  # the typographic minus, as the article writes −1 and −∞
NEG_INF_LABEL = MINUS + "∞"
MASKED_RGBA = (0.82, 0.82, 0.82, 1.0)  # light grey: clearly not a colour of any scale
MASKED_HATCH = "///"
INK_DARK, INK_LIGHT = "#111111", "#ffffff"  # cell text: dark on light fills, light on dark ones

CMAPS = {"scores": "RdBu_r", "weights": "YlGnBu", "values": "PRGn"}
_COLORMAPS = {kind: colormaps[name] for kind, name in CMAPS.items()}  # each lookup in `colormaps` makes a new copy

# What each named matrix of a trace is, for its colours and number format (from the stage registry).
KIND_OF = {name: stage.kind for name, stage in STAGES.items()}
DECIMALS = {"scores": 2, "weights": 3, "values": 3}

# Okabe–Ito colours, safe for colour-blind readers: Head 1 orange, Head 2 sky blue, …
HEAD_COLORS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#000000")


def head_color(i):
    """The identity colour of head i (0-based), the same in every figure and view."""
    return HEAD_COLORS[i % len(HEAD_COLORS)]


def format_value(x, kind="values"):
    """One cell's label: −∞ for masked cells, integers as integers, else the kind's decimals.

    Weights keep all three decimals ("0.100", "0.000"), so a weight that rounds
    to zero never looks like the exact 0 of a masked cell; other kinds drop
    trailing zeros ("1.5", as the article writes it).
    """
    if x == -np.inf:
        return NEG_INF_LABEL
    if x == np.inf:
        return "∞"
    if abs(x - round(x)) < 1e-9:
        text = str(int(round(x)))
    else:
        text = f"{x:.{DECIMALS[kind]}f}"
        if kind != "weights":
            text = text.rstrip("0").rstrip(".")
    if text.startswith("-"):
        text = MINUS + text[1:]
    return "0" if text == MINUS + "0" else text


# The live view labels every cell at every step; values repeat (small integers, −∞, weights), so remember them.
_cell_label = functools.lru_cache(maxsize=1 << 14)(format_value)


def format_row(row, kind="values"):
    """A vector as the article writes it: [3, 1.5, −∞]."""
    return "[" + ", ".join(format_value(float(x), kind) for x in row) + "]"


def dot_product_text(q, k):  # [dh], [dh] -> str
    """A dot product written out as the article does: −1·1 + 1·(−1) + 1·2 + 2·1.

    Negative numbers are bracketed except the very first factor, so a sign is never read as an operator.
    """
    def factor(x, bracket):
        text = format_value(float(x))
        return f"({text})" if bracket and x < 0 else text

    return " + ".join(f"{factor(a, n > 0)}\u00b7{factor(b, True)}" for n, (a, b) in enumerate(zip(q, k, strict=True)))


def value_range(kind, *matrices):
    """(vmin, vmax) for a kind: [0, 1] for weights, else symmetric around 0 over the finite values."""
    if kind == "weights":
        return 0.0, 1.0
    finite = [np.abs(m[np.isfinite(m)]) for m in matrices]
    biggest = max((float(f.max()) for f in finite if f.size), default=0.0)
    vmax = max(biggest, 1.0)  # an all-zero matrix still gets a usable scale
    return -vmax, vmax


@dataclass(frozen=True)
class CellStyle:
    """Everything a renderer needs to draw one matrix: labels, colours, masked cells."""

    labels: tuple  # rows of str
    rgba: np.ndarray  # (rows, cols, 4) fill colours in [0, 1]
    text_dark: np.ndarray  # (rows, cols) bool: dark text reads better on this fill
    masked: np.ndarray  # (rows, cols) bool: −∞ cells
    cmap: str
    vmin: float
    vmax: float


def cell_style(matrix, kind, vmin=None, vmax=None):  # [rows, cols] -> CellStyle
    """Labels and colours of every cell of a matrix of the given kind ("scores", "weights", "values")."""
    if kind not in CMAPS:
        raise ValueError(f"kind: unknown kind {kind!r}; use one of {sorted(CMAPS)}.")
    matrix = np.asarray(matrix, dtype=float)
    if matrix.ndim != 2:
        raise ValueError(f"matrix: a heatmap needs a 2-D matrix, got shape {matrix.shape}.")
    lo, hi = value_range(kind, matrix)
    vmin = lo if vmin is None else vmin
    vmax = hi if vmax is None else vmax
    masked = np.isneginf(matrix)
    unit = np.clip((np.where(masked, 0.0, matrix) - vmin) / (vmax - vmin), 0.0, 1.0)
    rgba = _COLORMAPS[kind](unit)  # (rows, cols, 4)
    rgba[masked] = MASKED_RGBA
    luminance = rgba[..., :3] @ np.array([0.2126, 0.7152, 0.0722])
    labels = tuple(tuple(_cell_label(x, kind) for x in row) for row in matrix.tolist())
    return CellStyle(labels, rgba, luminance > 0.45, masked, CMAPS[kind], vmin, vmax)


def token_labels(n):
    """Row and column labels: token numbers from 1, as in the article."""
    return [str(i + 1) for i in range(n)]
