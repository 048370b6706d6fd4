"""The heatmap primitive of the figures: one matrix on a matplotlib Axes, every cell labelled.

`heatmap(ax, matrix, kind)` draws and returns what it drew (`Heatmap`), and
changes no global state: colours, labels, masked and NaN cells come from
`look.colors.cell_style`, the words from `look.words`, the font from
`look.fonts` (the shipped Korean subset is added to matplotlib's font list
under its own name the first time; rcParams are never touched). The pieces it
is made of (the coloured cells, the ticks, the numbers at a size that fits)
are what the figures' layout (`figures.layout`) builds on.
"""

import functools
from typing import NamedTuple

import numpy as np
from matplotlib import font_manager, mathtext
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.collections import PatchCollection
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from ..look import colors, fonts, words
from ..numeric import checks
from ..numeric.trace import AttentionTrace

# Sizes, in inches. In the normal layout a figure is sized from its matrices: each cell
# gets CELL_MAX inches while that fits in NOTEBOOK_WIDTH × MAX_HEIGHT, less when not.
# NOTEBOOK_WIDTH is what JupyterLab shows at full size: a notebook's output area is about
# 800–900 px wide, and a Figure stored there is SCREEN_DPI (matplotlib's figure.dpi) pixels an inch.
# So the normal layout's smallest text, 7 pt, is 7 × 100 / 72 ≈ 9.7 px on screen: never under MIN_SCREEN_PX.
CELL_MAX, CELL_MIN = 0.5, 0.1
NOTEBOOK_WIDTH, MAX_HEIGHT, MIN_WIDTH = 8.0, 11.0, 5.0
SCREEN_DPI, SCREEN_WIDTH_PX, MIN_SCREEN_PX = 100, 800, 9
MAX_WIDTH = NOTEBOOK_WIDTH
SLIDE_SIZE = (40 / 3, 7.5)  # 16:9, 13.33 × 7.5 in: a PowerPoint or Keynote wide slide
MIN_PANEL_WIDTH = 2.5  # in cells
OPERATOR_WIDTH = 0.8  # width of a "+", "=", "×" column, in cells
MAX_ANNOTATED_CELLS = 1000  # per figure: beyond this, labelling every cell takes seconds (the export must stay quick)
CHAR_EM = 0.62  # the width of a digit, in ems: what a tick label needs per character
NUMBER_GID = "al-number"  # the gid of every number written in a cell: one size per figure
_MEASURE = RendererAgg(1, 1, 72)  # measures text in points; draws nothing
_MATH = mathtext.MathTextParser("path")  # parses a caller's $…$ text up front


class Look(NamedTuple):
    """One figure's language and type sizes (points): the normal layout or the 16:9 slide layout."""

    lang: str
    slides: bool
    words: dict
    family: list
    title: float  # the figure's title
    text: float  # panel titles, axis labels, captions
    number_max: float  # numbers: as large as the cells allow up to this …
    number_min: float  # … and never smaller: below it a heatmap's values are left out, with a note
    tick_min: float
    tick_max: float
    operator: float  # ×, =, ÷√dh between heatmaps


SIZES = {
    False: dict(title=12, text=10, number_max=11, number_min=7, tick_min=7, tick_max=10, operator=14),
    True: dict(title=22, text=16, number_max=24, number_min=10, tick_min=10, tick_max=16, operator=28),
}


@functools.cache
def register_font():
    """Add the shipped Korean font to matplotlib's font list, once (its own family name: see fonts.KO_FONT)."""
    font_manager.fontManager.addfont(str(fonts.KO_FONT_FILE))


def font_family(lang="en"):  # -> [family, fallback]
    """The font families of the package's texts in `lang`: what to pass as `fontfamily=` to a Text."""
    register_font()
    return list(fonts.FONT_FAMILIES[checks.lang(lang)])


def look_of(lang, slides):
    lang, slides = checks.lang(lang), checks.boolean("slides", slides)
    return Look(lang, slides, words.table(lang), font_family(lang), **SIZES[slides])


def use_font(artist, family):
    """Give every Text under `artist` (a Figure or an Axes) the package's font family."""
    for t in artist.findobj(Text):
        t.set_fontfamily(family)


# ---------------------------------------------------------------------------
# Argument checks shared by the figure functions.


def check_trace(tr):
    if not isinstance(tr, AttentionTrace):
        raise ValueError(f"tr: a figure draws an AttentionTrace, got {type(tr).__name__}. "
                         "Make one with al.article_example(), al.random_example(…) or al.attention_trace(…).")
    return tr


def check_head(tr, head):
    return checks.whole_number("head", head, 0, tr.h - 1, f" Heads are 0-based: head=0 is Head 1 of {tr.h}.")


def token_index(tr, n, name, default):
    """A 0-based index of a Query row (query, row) or of a Key token (key): None means the article's pick
    (`default`), or the last one when there are fewer."""
    count = tr.T_k if name == "key" else tr.T_q
    what = "Key token" if name == "key" else "Query row"
    if n is None:
        return min(default, count - 1)
    return checks.whole_number(name, n, 0, count - 1, f" They are 0-based: {name}=0 is {what} 1 of {count}.")


def query_offset(tr):  # -> how many Key tokens come before the first Query row's token
    """The Query rows are the last T_q tokens (a decode step or a chunk of new tokens), whichever corner the mask
    lines them up with: "top-left" changes which Key tokens a row sees, not whose Query it is (the explorer labels
    them so too). With more Query than Key tokens, rows are counted from 1."""
    return max(tr.T_k - tr.T_q, 0)


def query_labels(tr):  # -> the token number of each Query row, as the figures label them
    offset = query_offset(tr)
    return [str(offset + i + 1) for i in range(tr.T_q)]


def optional_text(name, value):
    """A text the caller gives (a title, a label): plain text, or mathtext between $…$ that must parse here,
    so that a bad one is named now rather than failing later inside savefig."""
    if value is None:
        return None
    value = checks.text(name, value)
    if value.replace("\\$", "").count("$") >= 2:
        try:
            _MATH.parse(value, 72, font_manager.FontProperties())
        except ValueError as error:
            raise ValueError(f"{name}: {value!r:.60} is not mathtext matplotlib can draw "
                             f"({str(error).splitlines()[-1].strip()[:80]}); write it as plain text (Unicode such as "
                             "'Q₁', 'K₁ᵀ', 'S / √dh'), or escape each $ as \\$.") from None
    return value


# ---------------------------------------------------------------------------
# Heatmaps.


class Heatmap(NamedTuple):
    """What `heatmap` drew: the image, the cell labels, the hatches of masked cells, and the style used."""

    image: object  # AxesImage
    texts: list  # Text, one per annotated cell, row by row
    hatches: object  # PatchCollection: one hatched square per masked (−∞) cell
    note: object  # the Text saying that values were left out, or None
    cells: colors.CellStyle


def heatmap(ax, matrix, kind, *, row_labels=None, col_labels=None, title=None, xlabel=None, ylabel=None,
            vmin=None, vmax=None, annotate=None, fontsize=None, lang="en", allowed=None):  # [rows, cols] -> Heatmap
    """Draw one matrix on `ax` as a heatmap with every cell labelled; return what was drawn.

    kind: "scores", "weights" or "values" (`look.colors.kind_of` gives a stage's kind).
    Row and column labels default to token numbers from 1. annotate=None labels
    the cells while they are big enough to hold their labels, and otherwise says
    on the figure that the values were left out; True or False forces it.
    lang ("en" or "ko") picks the font and the words of that note; the texts you
    pass (title, labels) are drawn as given. allowed: the mask's allowed matrix, for a matrix of weights
    (E, P): a weight of 0.0 then reads "0.000" where its row sees the key and "0" where it is masked
    (`look.colors.cell_style`; `al.STAGES["P"].allowed(tr)` gives it).
    """
    if not isinstance(ax, Axes):
        raise ValueError(f"ax: must be a matplotlib Axes, got {type(ax).__name__}. Pass e.g. fig.add_subplot().")
    W, family = words.table(lang), font_family(lang)
    if annotate is not None:
        annotate = checks.boolean("annotate", annotate)
    fontsize = None if fontsize is None else checks.positive_number("fontsize", fontsize)
    cells = colors.cell_style(matrix, kind, vmin, vmax, allowed)
    rows, cols = cells.rgba.shape[:2]
    drawn = draw_matrix(ax, cells, row_labels, col_labels, optional_text("title", title),
                         optional_text("xlabel", xlabel), optional_text("ylabel", ylabel), SIZES[False]["text"])
    cell_pt = cell_points(ax, rows, cols, titled=bool(title))
    fit_ticks(ax, drawn, cell_pt, SIZES[False])
    auto = annotate is None
    if fontsize is None:
        fontsize = label_fontsize(cell_pt, cell_pt, cells.labels, SIZES[False], family)
    if auto:
        annotate = fontsize is not None
    texts, note = [], None
    if annotate:
        size = fontsize or SIZES[False]["number_min"]
        texts = write_labels(ax, cells.labels, ink_colors(cells), label_boxes(cells), size)
    elif auto:
        note = note_omitted(ax, W["fig_omitted"])
    use_font(ax, family)
    return drawn.heatmap._replace(texts=texts, note=note)


class Drawn(NamedTuple):
    """A matrix drawn without its numbers yet, and what its ticks say."""

    heatmap: Heatmap
    row_labels: list
    col_labels: list


def draw_matrix(ax, cells, row_labels, col_labels, title, xlabel, ylabel, text_size):  # -> Drawn
    """The coloured cells, hatches over masked cells, thin white lines between cells, titles; no numbers."""
    rows, cols = cells.rgba.shape[:2]
    row_labels = tick_labels("row_labels", row_labels, rows)
    col_labels = tick_labels("col_labels", col_labels, cols)
    # The colours are style's RGBA; cmap and clim are recorded on the image so a
    # colour bar (and a test) can read the scale the colours were taken from.
    image = ax.imshow(cells.rgba, interpolation="nearest", aspect="equal")
    image.set_cmap(cells.cmap)
    image.set_clim(cells.vmin, cells.vmax)
    # One collection for all masked cells: one artist instead of one per cell.
    hatches = ax.add_collection(PatchCollection(
        [Rectangle((j - 0.5, i - 0.5), 1, 1) for i, j in zip(*np.nonzero(cells.masked), strict=True)],
        facecolor="none", edgecolor="0.55", linewidth=0, hatch=colors.MASKED_HATCH), autolim=False)
    # The cell lines are two line collections, not minor-tick grids: far cheaper with dozens of heatmaps.
    ax.hlines(np.arange(1, rows) - 0.5, -0.5, cols - 0.5, color="white", linewidth=1.0)
    ax.vlines(np.arange(1, cols) - 0.5, -0.5, rows - 0.5, color="white", linewidth=1.0)
    ax.spines[:].set_visible(False)
    ax.tick_params(length=0, pad=2)
    ax.set_title(title or "", fontsize=text_size)
    ax.set_xlabel(xlabel or "", fontsize=text_size)
    ax.set_ylabel(ylabel or "", fontsize=text_size)
    return Drawn(Heatmap(image, [], hatches, None, cells), row_labels, col_labels)


def tick_labels(name, labels, n):
    """Row or column labels: token numbers from 1 by default, else n texts."""
    if labels is None:
        return colors.token_labels(n)
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__") or len(labels) != n:
        raise ValueError(f"{name}: need a list of {n} labels, one per {name.split('_')[0]}, got {labels!r:.60}.")
    return [checks.text(name, label) for label in labels]


def fit_ticks(ax, drawn, cell_pt, sizes):
    """Token numbers on both axes at a size the cells allow; every k-th when the cells are too small for each."""
    tick = float(np.clip(0.6 * cell_pt, sizes["tick_min"], sizes["tick_max"]))
    longest = max(len(label) for label in drawn.col_labels) or 1
    x_step = max(1, int(np.ceil((CHAR_EM * longest + 0.9) * tick / max(cell_pt, 1e-9))))  # labels must not touch
    y_step = max(1, int(np.ceil(1.3 * tick / max(cell_pt, 1e-9))))
    rows, cols = len(drawn.row_labels), len(drawn.col_labels)
    ax.set_xticks(range(0, cols, x_step), labels=drawn.col_labels[::x_step], fontsize=tick)
    ax.set_yticks(range(0, rows, y_step), labels=drawn.row_labels[::y_step], fontsize=tick)


def thin_touching_ticks(ax):  # -> whether it took any tick label out
    """After layout: an axis whose neighbouring token numbers come within a point of each other keeps every other
    one, until none do. `fit_ticks` spaced them for `Page.cell_pt`, the cell estimated before layout; where the
    layout draws the cells much smaller (figure 5 on a slide at dh = 1: 16 rows in a panel sized for far fewer),
    they ran together. Measured from the tick positions and the labels' sizes (no text drawn)."""
    ax.apply_aspect()
    to_pt, thinned = 72 / ax.figure.dpi, False
    for axis, along in ((ax.xaxis, 0), (ax.yaxis, 1)):
        while True:
            locs, labels = axis.get_ticklocs(), axis.get_ticklabels()  # labels: the shown ones, on one side
            if len(locs) < 2 or len(labels) != len(locs):  # none shown (or on both sides): none to thin
                break
            size = labels[0].get_fontsize()
            at = ax.transData.transform([(x, 0) if along == 0 else (0, x) for x in locs])[:, along] * to_pt
            if along == 0:  # numbers side by side: half of each one's width, either side of its tick
                half = [width_em(t.get_text(), tuple(t.get_fontfamily())) * size / 2 for t in labels]
                need = [a + b + 1 for a, b in zip(half, half[1:], strict=False)]
            else:  # numbers one above the other: an em each
                need = [size + 1] * (len(locs) - 1)
            if all(abs(b - a) >= n for a, b, n in zip(at, at[1:], need, strict=False)):
                break
            axis.set_ticks(locs[::2], labels=[t.get_text() for t in labels][::2], fontsize=size)
            thinned = True
    return thinned


def cell_points(ax, rows, cols, titled=True):
    """The side of one (square) cell in points, from the axes' current size.

    Before layout, less an allowance for the tick labels (and title) the layout
    will take from it: an estimate on the safe side, for a lone heatmap.
    """
    box = ax.get_window_extent()
    to_pt = 72.0 / ax.figure.dpi
    return max(min((box.width * to_pt - 15) / cols, (box.height * to_pt - 15 - 15 * titled) / rows), 0.0)


@functools.cache
def width_em(label, family):
    """How wide `label` is drawn in `family`, in ems (mathtext such as $e^{3}$ measured as drawn)."""
    register_font()
    ismath = label.count("$") >= 2
    width, _, _ = _MEASURE.get_text_width_height_descent(
        label, font_manager.FontProperties(family=list(family), size=100), ismath=ismath)
    return width / 100


def label_fontsize(cell_w, cell_h, labels, sizes, family=tuple(fonts.FONT_FAMILIES["en"])):
    """The largest font (up to number_max) at which every label fits its cell, or None if below number_min."""
    widest = max(width_em(label, tuple(family)) for label in {label for row in labels for label in row})
    size = min(sizes["number_max"], 0.6 * cell_h, 0.85 * cell_w / max(widest + 0.15, 0.5))
    return size if size >= sizes["number_min"] else None


def ink_colors(cells):  # -> rows × cols of colours
    return np.where(cells.text_dark, colors.INK_DARK, colors.INK_LIGHT)


MASKED_LABEL_BOX = dict(boxstyle="square,pad=0.15", facecolor=colors.MASKED_RGBA, linewidth=0)  # −∞ over the hatch


def label_boxes(cells):  # -> rows × cols of a bbox dict or None
    return [[MASKED_LABEL_BOX if m else None for m in row] for row in cells.masked]


def write_labels(ax, labels, inks, boxes, size):  # -> [Text], row by row
    """The numbers in the cells. They sit inside the axes, so layout need not measure them (it is slow with many)."""
    return [ax.text(j, i, label, ha="center", va="center", fontsize=size, color=inks[i][j], bbox=boxes[i][j],
                    in_layout=False, gid=NUMBER_GID)
            for i, row in enumerate(labels) for j, label in enumerate(row) if label]


def note_omitted(ax, note):
    """Say under a heatmap that its values were left out (they would not fit): where the reader looks."""
    xlabel = ax.get_xlabel()
    ax.set_xlabel(f"{xlabel}\n({note})" if xlabel else f"({note})")
    return ax.xaxis.label


def outline(ax, row, col, nrows=1, ncols=1, color="black", linewidth=2.5):
    """Frame the block of cells starting at (row, col) (0-based) on a heatmap; return the patch."""
    return ax.add_patch(Rectangle((col - 0.5, row - 0.5), ncols, nrows, fill=False,
                                  edgecolor=color, linewidth=linewidth, clip_on=False, zorder=3))


def head_box(color, pad=0.3):
    """A white box framed in a head's colour, for text that names the head (the text itself stays black)."""
    return dict(boxstyle=f"round,pad={pad}", facecolor="white", edgecolor=color, linewidth=2.5)
