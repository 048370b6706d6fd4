"""Annotated heatmaps and the article's figures, drawn with matplotlib, in Korean or English.

This is the static path: figures stored in notebooks and exported for
slides (see `python -m attention_lab.figures`). Anything a slider redraws
uses `attention_lab.html` instead, because matplotlib needs 1–2 ms per
annotated cell.

    fig = plotting.figure_softmax(tr, head=0, row=2, lang="ko")    # Figure 4, in Korean
    fig = plotting.figure_heads(tr, lang="en", slides=True)        # Figure 1 on a 13.33 × 7.5 in slide

Rules that keep it honest:
- Colours, number labels, masked and NaN cells come from `style.cell_style`;
  nothing here picks a colour or formats a matrix value itself.
- Words come from the registries the live view reads: stage labels from
  `stages.STAGES`, mask captions from `masks.MASKS`, everything else from
  `text.WORDS` (keys "fig_…"). Formulas stay language-free.
- Nothing here computes attention: every matrix is read from the trace.
  Figures 4 and 5 evaluate exp(score) and P[i, j]·V[j] for display only,
  because showing those steps is what those figures teach; the weights and
  outputs they arrive at are still read from `tr.P` and `tr.O`.
- No global state: figures are `matplotlib.figure.Figure` objects made without
  pyplot, and rcParams are never touched. Texts get the font family of their
  language (`style.FONT_FAMILIES`): Korean is drawn with the subset Noto Sans
  CJK KR shipped in attention_lab/fonts/, added to matplotlib's font list
  under its own name the first time a figure is drawn.
- Numbers within one figure share one size: the largest at which every
  number fits its cell. A heatmap whose cells cannot hold them at the
  layout's smallest size (5 pt, 10 pt on slides) leaves them out and says so.
- Text is black or white (style decides by contrast); a head's colour marks
  frames and swatches, never text.

In Jupyter, run `%matplotlib inline` once (it registers IPython's PNG display
for Figure objects), then end a cell with the figure or call `display(fig)`.
`fig.savefig(path, bbox_inches="tight")` writes it to a file; a slide figure
(`slides=True`) is laid out to fill exactly 13.33 × 7.5 in, so save it without
bbox_inches to keep that size.
"""

import functools
from typing import NamedTuple

import numpy as np
from matplotlib import colors, font_manager
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from . import checks, core, style, text
from .masks import MASKS
from .stages import STAGES
from .trace import AttentionTrace

# Sizes, in inches. In the normal layout a figure is sized from its matrices: each cell
# gets CELL_MAX inches while that fits in MAX_WIDTH × MAX_HEIGHT, less when not.
CELL_MAX, CELL_MIN = 0.5, 0.1
MAX_WIDTH, MAX_HEIGHT, MIN_WIDTH = 15.0, 11.0, 8.0
SLIDE_SIZE = (40 / 3, 7.5)  # 16:9, 13.33 × 7.5 in: a PowerPoint or Keynote wide slide
MIN_PANEL_WIDTH = 2.5  # in cells
OPERATOR_WIDTH = 0.8  # width of a "+", "=", "×" column, in cells
MAX_ANNOTATED_CELLS = 1000  # per figure: beyond this, labelling every cell takes seconds (the export must stay quick)
CHAR_EM = 0.62  # the width of a digit, in ems: what a tick label needs per character
NUMBER_GID = "al-number"  # the gid of every number written in a cell: one size per figure
_MEASURE = RendererAgg(1, 1, 72)  # measures text in points; draws nothing


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
    False: dict(title=12, text=10, number_max=10, number_min=5, tick_min=4, tick_max=9, operator=14),
    True: dict(title=22, text=16, number_max=24, number_min=10, tick_min=10, tick_max=16, operator=28),
}


@functools.cache
def _register_font():
    """Add the shipped Korean font to matplotlib's font list, once (its own family name: see style.KO_FONT)."""
    font_manager.fontManager.addfont(str(style.KO_FONT_FILE))


def font_family(lang="en"):  # -> [family, fallback]
    """The font families of the package's texts in `lang`: what to pass as `fontfamily=` to a Text."""
    _register_font()
    return list(style.FONT_FAMILIES[checks.lang(lang)])


def _look(lang, slides):
    lang, slides = checks.lang(lang), checks.boolean("slides", slides)
    return Look(lang, slides, text.words(lang), font_family(lang), **SIZES[slides])


def _use_font(artist, family):
    """Give every Text under `artist` (a Figure or an Axes) the package's font family."""
    for t in artist.findobj(Text):
        t.set_fontfamily(family)


# ---------------------------------------------------------------------------
# Argument checks shared by the figure functions.


def _check_trace(tr):
    if not isinstance(tr, AttentionTrace):
        raise ValueError(f"tr: a figure draws an AttentionTrace, got {type(tr).__name__}. "
                         "Make one with al.article_example(), al.random_example(…) or al.attention_trace(…).")
    return tr


def _check_head(tr, head):
    return checks.whole_number("head", head, 0, tr.h - 1, f" Heads are 0-based: head=0 is Head 1 of {tr.h}.")


def _token(tr, n, name, default):
    """A 0-based token index: None means the article's pick (`default`), or the last token when T is smaller."""
    if n is None:
        return min(default, tr.T - 1)
    return checks.whole_number(name, n, 0, tr.T - 1, f" Tokens are 0-based: {name}=0 is token 1 of {tr.T}.")


def _optional_text(name, value):
    return None if value is None else checks.text(name, value)


# ---------------------------------------------------------------------------
# Heatmaps.


class Heatmap(NamedTuple):
    """What `heatmap` drew: the image, the cell labels, the hatches of masked cells, and the style used."""

    image: object  # AxesImage
    texts: list  # Text, one per annotated cell, row by row
    hatches: object  # PatchCollection: one hatched square per masked (−∞) cell
    note: object  # the Text saying that values were left out, or None
    cells: style.CellStyle


def heatmap(ax, matrix, kind, *, row_labels=None, col_labels=None, title=None, xlabel=None, ylabel=None,
            vmin=None, vmax=None, annotate=None, fontsize=None, lang="en"):  # [rows, cols] -> Heatmap
    """Draw one matrix on `ax` as a heatmap with every cell labelled; return what was drawn.

    kind: "scores", "weights" or "values" (`style.KIND_OF` maps trace names to kinds).
    Row and column labels default to token numbers from 1. annotate=None labels
    the cells while they are big enough to hold their labels, and otherwise says
    on the figure that the values were left out; True or False forces it.
    lang ("en" or "ko") picks the font and the words of that note; the texts you
    pass (title, labels) are drawn as given.
    """
    if not isinstance(ax, Axes):
        raise ValueError(f"ax: must be a matplotlib Axes, got {type(ax).__name__}. Pass e.g. fig.add_subplot().")
    words, family = text.words(lang), font_family(lang)
    if annotate is not None:
        annotate = checks.boolean("annotate", annotate)
    fontsize = None if fontsize is None else checks.positive_number("fontsize", fontsize)
    cells = style.cell_style(matrix, kind, vmin, vmax)
    rows, cols = cells.rgba.shape[:2]
    drawn = _draw_matrix(ax, cells, row_labels, col_labels, _optional_text("title", title),
                         _optional_text("xlabel", xlabel), _optional_text("ylabel", ylabel), SIZES[False]["text"])
    cell_pt = _cell_points(ax, rows, cols, titled=bool(title))
    _fit_ticks(ax, drawn, cell_pt, SIZES[False])
    auto = annotate is None
    if fontsize is None:
        fontsize = _label_fontsize(cell_pt, cell_pt, cells.labels, SIZES[False], family)
    if auto:
        annotate = fontsize is not None
    texts, note = [], None
    if annotate:
        texts = _write_labels(ax, cells.labels, _inks(cells), _boxes(cells), fontsize or SIZES[False]["number_min"])
    elif auto:
        note = _note_omitted(ax, words["fig_omitted"])
    _use_font(ax, family)
    return drawn.heatmap._replace(texts=texts, note=note)


class _Drawn(NamedTuple):
    """A matrix drawn without its numbers yet, and what its ticks say."""

    heatmap: Heatmap
    row_labels: list
    col_labels: list


def _draw_matrix(ax, cells, row_labels, col_labels, title, xlabel, ylabel, text_size):  # -> _Drawn
    """The coloured cells, hatches over masked cells, thin white lines between cells, titles; no numbers."""
    rows, cols = cells.rgba.shape[:2]
    row_labels = _tick_labels("row_labels", row_labels, rows)
    col_labels = _tick_labels("col_labels", col_labels, cols)
    # The colours are style's RGBA; cmap and clim are recorded on the image so a
    # colour bar (and a test) can read the scale the colours were taken from.
    image = ax.imshow(cells.rgba, interpolation="nearest", aspect="equal")
    image.set_cmap(cells.cmap)
    image.set_clim(cells.vmin, cells.vmax)
    # One collection for all masked cells: one artist instead of one per cell.
    hatches = ax.add_collection(PatchCollection(
        [Rectangle((j - 0.5, i - 0.5), 1, 1) for i, j in zip(*np.nonzero(cells.masked), strict=True)],
        facecolor="none", edgecolor="0.55", linewidth=0, hatch=style.MASKED_HATCH), autolim=False)
    # The cell lines are two line collections, not minor-tick grids: far cheaper with dozens of heatmaps.
    ax.hlines(np.arange(1, rows) - 0.5, -0.5, cols - 0.5, color="white", linewidth=1.0)
    ax.vlines(np.arange(1, cols) - 0.5, -0.5, rows - 0.5, color="white", linewidth=1.0)
    ax.spines[:].set_visible(False)
    ax.tick_params(length=0, pad=2)
    ax.set_title(title or "", fontsize=text_size)
    ax.set_xlabel(xlabel or "", fontsize=text_size)
    ax.set_ylabel(ylabel or "", fontsize=text_size)
    return _Drawn(Heatmap(image, [], hatches, None, cells), row_labels, col_labels)


def _tick_labels(name, labels, n):
    """Row or column labels: token numbers from 1 by default, else n texts."""
    if labels is None:
        return style.token_labels(n)
    if isinstance(labels, (str, bytes)) or not hasattr(labels, "__len__") or len(labels) != n:
        raise ValueError(f"{name}: need a list of {n} labels, one per {name.split('_')[0]}, got {labels!r:.60}.")
    return [checks.text(name, label) for label in labels]


def _fit_ticks(ax, drawn, cell_pt, sizes):
    """Token numbers on both axes at a size the cells allow; every k-th when the cells are too small for each."""
    tick = float(np.clip(0.6 * cell_pt, sizes["tick_min"], sizes["tick_max"]))
    longest = max(len(label) for label in drawn.col_labels) or 1
    x_step = max(1, int(np.ceil((CHAR_EM * longest + 0.9) * tick / max(cell_pt, 1e-9))))  # labels must not touch
    y_step = max(1, int(np.ceil(1.3 * tick / max(cell_pt, 1e-9))))
    rows, cols = len(drawn.row_labels), len(drawn.col_labels)
    ax.set_xticks(range(0, cols, x_step), labels=drawn.col_labels[::x_step], fontsize=tick)
    ax.set_yticks(range(0, rows, y_step), labels=drawn.row_labels[::y_step], fontsize=tick)


def _cell_points(ax, rows, cols, titled=True):
    """The side of one (square) cell in points, from the axes' current size.

    Before layout, less an allowance for the tick labels (and title) the layout
    will take from it: an estimate on the safe side, for a lone heatmap.
    """
    box = ax.get_window_extent()
    to_pt = 72.0 / ax.figure.dpi
    return max(min((box.width * to_pt - 15) / cols, (box.height * to_pt - 15 - 15 * titled) / rows), 0.0)


@functools.cache
def _width_em(label, family):
    """How wide `label` is drawn in `family`, in ems (mathtext such as $e^{3}$ measured as drawn)."""
    _register_font()
    ismath = label.count("$") >= 2
    width, _, _ = _MEASURE.get_text_width_height_descent(
        label, font_manager.FontProperties(family=list(family), size=100), ismath=ismath)
    return width / 100


def _label_fontsize(cell_w, cell_h, labels, sizes, family=tuple(style.FONT_FAMILIES["en"])):
    """The largest font (up to number_max) at which every label fits its cell, or None if below number_min."""
    widest = max(_width_em(label, tuple(family)) for label in {label for row in labels for label in row})
    size = min(sizes["number_max"], 0.6 * cell_h, 0.85 * cell_w / max(widest + 0.15, 0.5))
    return size if size >= sizes["number_min"] else None


def _inks(cells):  # -> rows × cols of colours
    return np.where(cells.text_dark, style.INK_DARK, style.INK_LIGHT)


MASKED_LABEL_BOX = dict(boxstyle="square,pad=0.15", facecolor=style.MASKED_RGBA, linewidth=0)  # −∞ over the hatch


def _boxes(cells):  # -> rows × cols of a bbox dict or None
    return [[MASKED_LABEL_BOX if m else None for m in row] for row in cells.masked]


def _write_labels(ax, labels, inks, boxes, size):  # -> [Text], row by row
    """The numbers in the cells. They sit inside the axes, so layout need not measure them (it is slow with many)."""
    return [ax.text(j, i, label, ha="center", va="center", fontsize=size, color=inks[i][j], bbox=boxes[i][j],
                    in_layout=False, gid=NUMBER_GID)
            for i, row in enumerate(labels) for j, label in enumerate(row) if label]


def _note_omitted(ax, note):
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


# ---------------------------------------------------------------------------
# A figure in the making: its heatmaps and tables are drawn first without their
# numbers; `_finish` lays the figure out, then writes every number at one size.


class _Numbers(NamedTuple):
    """Number labels waiting for the figure's shared size: one per cell of a rows × cols grid on `ax`."""

    ax: object
    labels: list  # rows of str ("" for none)
    inks: object  # rows × cols of colours
    boxes: list  # rows × cols of bbox dicts or None
    note: bool  # say on the axes when they are left out
    headers: bool  # the row headers (y tick labels) take the numbers' size too


class _Words(str):
    """An item of a heatmap row drawn as words at the text size (a plain str is an operator such as "=")."""


class _Page(NamedTuple):
    fig: Figure
    look: Look
    cell_pt: float  # the side of a cell before layout, in points: an estimate for the ticks
    numbers: list  # of _Numbers


def _new_page(look, width_cells, height_cells, extra_w=1.5, extra_h=1.2):
    """A constrained-layout figure: exactly 16:9 for slides, else sized for a grid of cells plus room for labels."""
    if look.slides:
        fig = Figure(figsize=SLIDE_SIZE, layout="constrained")
        cell = min((SLIDE_SIZE[0] - extra_w) / width_cells, (SLIDE_SIZE[1] - extra_h) / height_cells)
    else:
        cell = float(np.clip(min(MAX_WIDTH / width_cells, MAX_HEIGHT / height_cells), CELL_MIN, CELL_MAX))
        width = max(width_cells * cell + extra_w, MIN_WIDTH)  # titles and captions need room even at T=1
        fig = Figure(figsize=(width, height_cells * cell + extra_h), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.05, h_pad=0.06, hspace=0.01, wspace=0.01)
    return _Page(fig, look, 72 * cell, [])


def _panel_heatmap(page, ax, matrix, kind, *, title=None, xlabel=None, ylabel=None, row_labels=None,
                   col_labels=None, vmin=None, vmax=None):  # -> _Drawn
    """A heatmap of the figure; its numbers are written by `_finish`."""
    cells = style.cell_style(matrix, kind, vmin, vmax)
    drawn = _draw_matrix(ax, cells, row_labels, col_labels, title, xlabel, ylabel, page.look.text)
    _fit_ticks(ax, drawn, page.cell_pt, page.look._asdict())
    page.numbers.append(_Numbers(ax, cells.labels, _inks(cells), _boxes(cells), True, False))
    return drawn


def _finish(page, title, too_many_note=None):  # -> Figure
    """Lay the figure out, then write every number at the figure's one size.

    A heatmap whose cells cannot hold its numbers at the layout's smallest size goes without them, and the
    figure's title says so once. With too_many_note, a figure of more than MAX_ANNOTATED_CELLS cells leaves
    its heatmaps' numbers out (labelling them would take many seconds) and its title says that instead.
    """
    fig, look, numbers = page.fig, page.look, page.numbers
    _use_font(fig, look.family)
    if too_many_note is not None and sum(len(n.labels) * len(n.labels[0]) for n in numbers) > MAX_ANNOTATED_CELLS:
        _add_note(title, too_many_note)
        numbers = [n for n in numbers if not n.note]
    if not numbers:
        return fig
    fig.draw_without_rendering()  # runs constrained layout: every cell now has its final size

    def fit(n):
        return _label_fontsize(*_grid_points(n.ax, len(n.labels), len(n.labels[0])), n.labels, look._asdict(),
                               look.family)

    fits = [fit(n) for n in numbers]
    if any(f is None and n.note for n, f in zip(numbers, fits, strict=True)):
        _add_note(title, look.words["fig_omitted_some"])
        fig.draw_without_rendering()  # the note takes a line: measure again
        fits = [fit(n) if f is not None else None for n, f in zip(numbers, fits, strict=True)]
    size = max(min((f for f in fits if f is not None), default=look.number_min), look.number_min)
    for n, f in zip(numbers, fits, strict=True):
        if f is not None:
            _write_labels(n.ax, n.labels, n.inks, n.boxes, size)
            if n.headers:  # a table whose row headers read as part of its numbers (Figure 5's "0.114 × V1")
                n.ax.tick_params(axis="y", labelsize=size)
    _use_font(fig, look.family)
    return fig


def _add_note(title, note):
    """A note under the figure's title, in the text size: e.g. that some values were left out."""
    title.set_text(f"{title.get_text()}\n({note})")


def _grid_points(ax, rows, cols):  # -> (cell width, cell height) in points, after layout
    ax.apply_aspect()
    box = ax.get_window_extent()
    to_pt = 72.0 / ax.figure.dpi
    return box.width * to_pt / cols, box.height * to_pt / rows


def _operator(ax, label, look, size=None):
    ax.axis("off")
    return ax.text(0.5, 0.5, label, ha="center", va="center", fontsize=size or look.operator, transform=ax.transAxes)


def _caption(ax, lines, look):
    """Lines of explanation, centred in a text-only axes that constrained layout makes room for.

    A line wider than the figure is broken at spaces (a dot product of dh = 8 terms, a mask's caption).
    """
    ax.axis("off")
    per_line = 0.9 * ax.figure.get_figwidth() * 72 / look.text  # ems
    wrapped = [part for line in lines for part in _wrap(line, per_line)]
    return ax.text(0.5, 0.5, "\n".join(wrapped), ha="center", va="center", fontsize=look.text,
                   transform=ax.transAxes, linespacing=1.6)


def _wrap(words, em_per_line):
    """Break a sentence at spaces so that no line is wider than em_per_line (Hangul 1 em, other letters ~0.58)."""
    lines, line = [], ""
    for word in words.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and _ems(candidate) > em_per_line:
            lines.append(line)
            candidate = word
        line = candidate
    return lines + [line]


def _ems(s):
    return sum(1.0 if ord(c) >= 0x1100 else 0.58 for c in s)


def _title(fig, words, look, head=None):
    """The figure's title in the reader's language; a head's title is framed in the head's colour."""
    # A small pad: constrained layout makes room for the title's text, not for the box around it.
    box = None if head is None else head_box(style.head_color(head), pad=0.12)
    return fig.suptitle(words, fontsize=look.title, bbox=box)


def _shape(rows, cols):
    return f"({rows} × {cols})"


def _formula_title(name, lang):
    return STAGES[name].label[lang]


# ---------------------------------------------------------------------------
# Text the figures print: the article's notation, with the typographic minus.


def _math_number(x):
    """A score as a mathtext exponent: −∞ as \\infty, with mathtext's own minus sign."""
    return r"-\infty" if x == -np.inf else style.format_value(float(x), "scores").replace(style.MINUS, "-")


def _exp_power(x):
    """'$e^{1}$' for a score x, as mathtext."""
    return rf"$e^{{{_math_number(x)}}}$"


def _exp_value(value):
    """A positive number with 4 significant digits: 2.718, 20.09, 8.886×10⁶ (as mathtext)."""
    shown = f"{value:.4g}"
    if "e" in shown:
        mantissa, exponent = shown.split("e")
        shown = rf"${mantissa}\times10^{{{int(exponent)}}}$"
    return shown


def _join_terms(terms, per_line=4):
    """Join terms with " + ", starting a new line every per_line terms."""
    lines = [" + ".join(terms[n:n + per_line]) for n in range(0, len(terms), per_line)]
    return "\n+ ".join(lines) or "0"


# ---------------------------------------------------------------------------
# The article's figures. Each takes a trace and returns a Figure; head, query,
# key and row are 0-based indices (bool refused), while the figures show
# 1-based token numbers. query, key and row default to the article's tokens
# (Query token 3, Key token 1, row 3), or the last token when T is smaller.


def figure_heads(tr, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 1: Q, K, V (T × d) split into heads → Core Attention in each head → O_i (T × dh) → Concat → H (T × d)."""
    tr, look = _check_trace(tr), _look(lang, slides)
    W, T, d, h, dh = look.words, tr.T, tr.d, tr.h, tr.dh
    Q, K, V, H, O = tr.Q, tr.K, tr.V, tr.H, tr.O  # each read once: a trace field is a fresh copy per read
    vmin, vmax = style.value_range("values", Q, K, V, H)
    # Q, K, V hold small integers, O and H decimals: their cells are sized for what they hold.
    qkv, out = _cell_scale(look.family, Q, K, V), _cell_scale(look.family, O, H)
    # Widths in cells (constrained layout adds the room for row numbers and labels to these).
    # Up to two heads stack in one column; more sit in two columns, so their titles take half the height.
    per_col = 1 if h <= 2 else 2
    arrow, left, middle, right = 1.5, max(d * qkv, 4.0), per_col * max(dh * out, 4.0), max(d * out, 5.0)
    rows = max(3 * (T * qkv + 2), -(-h // per_col) * (T * out + 2), T * out + 2)
    width = left + middle + 2 * arrow + right
    page = _new_page(look, width + 3, rows + 3, extra_w=1.0, extra_h=1.5)
    fig = page.fig
    title = _title(fig, f"{W['fig_heads_title']}\n"
                        r"$O_i = \mathrm{softmax}(Q_iK_i^\top/\sqrt{d_h} + M)\,V_i$", look)
    header = (1 if per_col == 1 else 2) * 1.6 * look.text / page.cell_pt  # its lines' height, in cells
    grid = fig.add_gridspec(2, 5, width_ratios=[left, arrow, middle, arrow, right], height_ratios=[header, rows])
    core = W["fig_heads_core"] + ("" if per_col == 1 else f"\n$O_i$  {_shape(T, dh)}")
    for cols, words in ((slice(0, 2), W["fig_heads_split"]), (slice(2, 4), core),
                        (slice(4, 5), W["fig_heads_concat"])):
        # Out of the layout: a header as wide as its columns must not widen them (the cells set the widths).
        _caption(fig.add_subplot(grid[0, cols]), [words], look).set_in_layout(False)
    _operator(fig.add_subplot(grid[1, 1]), "→", look, 2 * look.operator)
    _operator(fig.add_subplot(grid[1, 3]), "→", look, 2 * look.operator)
    components = style.token_labels(d)
    common = dict(vmin=vmin, vmax=vmax, ylabel=W["token"], xlabel=W["component"])
    # How wide one head's columns will be, in points: wide enough for "Head 1", or only for "1", or neither.
    block_pt = 0.8 * fig.get_figwidth() * 72 * dh / width

    # 1. Q, K, V one above the other, each head's columns framed in its colour.
    stack = grid[1, 0].subgridspec(3, 1)
    for n, (name, X) in enumerate((("Q", Q), ("K", K), ("V", V))):
        ax = fig.add_subplot(stack[n])
        _panel_heatmap(page, ax, X, "values", title=f"${name}$  {_shape(T, X.shape[1])}",
                       col_labels=components[:X.shape[1]], vmin=vmin, vmax=vmax,
                       xlabel=W["component"] if name == "V" else None)
        if name != "V":  # the same columns as V's, numbered below it: the width goes to the cells
            ax.tick_params(labelbottom=False)
        # K and V have kv_heads blocks; block n serves Query heads n·h/kv_heads, …: framed in the first one's colour.
        _frame_heads(ax, X.shape[1] // dh, dh, T, look, label=(name == "Q") and block_pt * qkv, h=h)

    # 2. Core Attention in each head, independently: O_i, framed and named.
    cells = grid[1, 2].subgridspec(-(-h // per_col), per_col)
    for i in range(h):
        ax = fig.add_subplot(cells[i // per_col, i % per_col])
        # Two heads side by side are narrower: there the head's name alone, its shape in the column's header.
        head_title = W["head_n"].format(n=i + 1) + (f"\n$O_{{{i + 1}}}$  {_shape(T, dh)}" if per_col == 1 else "")
        if per_col > 1 and _width_em(head_title, tuple(look.family)) * look.text + 12 > block_pt * out:
            head_title = str(i + 1)
        _panel_heatmap(page, ax, O[i], "values", title=head_title, col_labels=style.token_labels(dh),
                       **{**common, "ylabel": common["ylabel"] if i % per_col == 0 else None})
        ax.title.set_bbox(head_box(style.head_color(i)))
        outline(ax, 0, 0, T, dh, color=style.head_color(i), linewidth=3)

    # 3. Concat: H, each head's columns back in place.
    ax = fig.add_subplot(grid[1, 4].subgridspec(3, 1, height_ratios=[1, 4, 1])[1])  # centred, as tall as it needs
    _panel_heatmap(page, ax, H, "values", title=f"$H$ = Concat  {_shape(T, d)}", col_labels=components, **common)
    _frame_heads(ax, h, dh, T, look, label=block_pt * out, h=h)
    return _finish(page, title, W["fig_too_many"])


def _cell_scale(family, *matrices):
    """A cell width, in cells that fit "0.42", that holds the widest number of these matrices."""
    widest = max(_width_em(style.format_value(float(x)), tuple(family)) for m in matrices for x in np.unique(m))
    return max(0.6, (widest + 0.15) / (_width_em("0.42", tuple(family)) + 0.15))


def _frame_heads(ax, blocks, dh, T, look, label, h):
    """Frame each head's dh columns of a (T, blocks·dh) heatmap in the head's colour; name them above the frames.

    blocks: h for Q and H, g for K and V (a K/V head takes the colour of the first of the h Query heads it serves).

    label: the width of one head's columns in points (an estimate), or False for frames only. A head is named
    "Head 1" where that fits, "1" where only its number does, and not at all where neither does.
    """
    for n in range(blocks):
        outline(ax, 0, n * dh, T, dh, color=style.kv_head_color(n, h, blocks), linewidth=3)
    if not label:
        return
    name = look.words["head_n"]
    if _width_em(name.format(n=blocks), tuple(look.family)) * look.text + 12 > label:
        name = "{n}"
        if _width_em(str(blocks), tuple(look.family)) * look.text + 12 > label:
            return
    for n in range(blocks):
        ax.annotate(name.format(n=n + 1), xy=(n * dh + dh / 2 - 0.5, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(0, 6), textcoords="offset points", ha="center", va="bottom", fontsize=look.text,
                    bbox=head_box(style.kv_head_color(n, h, blocks)))
    ax.set_title(ax.get_title(), fontsize=look.text, pad=2.4 * look.text + 8)


def figure_scores(tr, head=0, query=None, key=None, *, lang="en", slides=False, scaled=True):  # trace -> Figure
    """Figure 2: Q_i × K_iᵀ = S (T × T) for one head, one score explained as a dot product, then S / √dh.

    scaled=False leaves the division by √dh out (notebook 02 shows S before notebook 03 teaches the scale).
    """
    tr, look, scaled = _check_trace(tr), _look(lang, slides), checks.boolean("scaled", scaled)
    head = _check_head(tr, head)
    query, key = _token(tr, query, "query", 2), _token(tr, key, "key", 0)
    W, T, dh = look.words, tr.T, tr.dh
    Qh, Kh = STAGES["Qh"].matrix(tr, head), STAGES["Kh"].matrix(tr, head)  # (T, dh): K/V head of this head
    S, S_scaled = tr.S[head], tr.S_scaled[head]
    vmin, vmax = style.value_range("scores", S, S_scaled)  # shared: the scaling shows
    qk_min, qk_max = style.value_range("values", Qh, Kh)
    n = head + 1
    items = [
        (Qh, "values", dict(title=f"$Q_{{{n}}}$  {_shape(T, dh)}", vmin=qk_min, vmax=qk_max, ylabel=W["query"],
                            xlabel=W["component"], col_labels=style.token_labels(dh))),
        r"$\times$",
        (Kh.T, "values", dict(title=rf"$K_{{{n}}}^\top$  {_shape(dh, T)}", vmin=qk_min, vmax=qk_max,
                              xlabel=W["key"], ylabel=W["component"], row_labels=style.token_labels(dh))),
        "=",
        (S, "scores", dict(title=_formula_title("S", look.lang), vmin=vmin, vmax=vmax, ylabel=W["query"],
                           xlabel=W["key"])),
        rf"$\div\sqrt{{{dh}}}$",
        (S_scaled, "scores", dict(title=_formula_title("S_scaled", look.lang), vmin=vmin, vmax=vmax,
                                  xlabel=W["key"])),
    ][:None if scaled else -2]
    width = 2 * dh + (2 * T + 3 * OPERATOR_WIDTH if scaled else T + 2 * OPERATOR_WIDTH) + 3
    page = _new_page(look, width, max(T, dh) + 3, extra_w=2, extra_h=1.8)
    fig = page.fig
    title = _title(fig, W["fig_scores_title"].format(n=n), look, head)
    grid = fig.add_gridspec(2, 1, height_ratios=[max(T, dh) + 1, 1.5])
    axes = _heatmap_row(page, grid[0], items)
    outline(axes[0], query, 0, 1, dh)
    outline(axes[1], 0, key, dh, 1)
    for ax in axes[2:]:  # S, and S / √dh when shown
        outline(ax, query, key)

    i, j = query + 1, key + 1
    score = S[query, key]
    lines = [
        W["fig_scores_vectors"].format(i=i, j=j, q=style.format_row(Qh[query]), k=style.format_row(Kh[key])),
        W["fig_scores_dot"].format(i=i, j=j, terms=style.dot_product_text(Qh[query], Kh[key]),
                                   score=style.format_value(score, "scores")),
    ]
    if scaled:
        lines.append(f"S[{i}, {j}] / \u221a{dh} = {style.format_value(score, 'scores')} / "
                     f"{style.format_value(np.sqrt(dh))} = {style.format_value(S_scaled[query, key], 'scores')}")
    _caption(fig.add_subplot(grid[1]), lines, look)
    return _finish(page, title)


def _heatmap_row(page, spec, items):  # -> [Axes] of the heatmaps
    """Heatmaps left to right in `spec`, with operators between them; cells the same size in every panel.

    An item is (matrix, kind, keyword arguments), an operator string such as "+", or a number (a blank that wide).
    """
    def width(item):
        if isinstance(item, tuple):
            return max(item[0].shape[1], MIN_PANEL_WIDTH)  # a 1- or 2-column matrix still needs room for its title
        if isinstance(item, _Words):
            return 2.0
        return OPERATOR_WIDTH if isinstance(item, str) else item

    grid = spec.subgridspec(1, len(items), width_ratios=[width(it) for it in items], wspace=0.05)
    axes = []
    for cell, item in zip(grid, items, strict=True):
        ax = page.fig.add_subplot(cell)
        if isinstance(item, tuple):
            matrix, kind, kw = item
            _panel_heatmap(page, ax, matrix, kind, **kw)
            axes.append(ax)
        elif isinstance(item, _Words):
            _operator(ax, item, page.look, page.look.text)
        else:
            _operator(ax, item if isinstance(item, str) else "", page.look)
    return axes


def figure_mask(tr, head=0, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 3: S / √dh (T × T), the mask M (0 and −∞) and their sum S / √dh + M, for one head."""
    tr, look = _check_trace(tr), _look(lang, slides)
    head = _check_head(tr, head)
    W, T = look.words, tr.T
    S_scaled, S_masked = tr.S_scaled[head], tr.S_masked[head]
    vmin, vmax = style.value_range("scores", S_scaled)
    kw = dict(vmin=vmin, vmax=vmax, xlabel=W["key"])
    items = [
        (S_scaled, "scores", dict(title=_formula_title("S_scaled", look.lang), ylabel=W["query"], **kw)), "+",
        (tr.M, "scores", dict(title=_formula_title("M", look.lang), **kw)), "=",
        (S_masked, "scores", dict(title=_formula_title("S_masked", look.lang), **kw)),
    ]
    width = 3 * max(T, MIN_PANEL_WIDTH) + 2 * OPERATOR_WIDTH
    page = _new_page(look, width, T + 3, extra_w=2, extra_h=1.8)
    fig = page.fig
    title = _title(fig, W["fig_mask_title"].format(n=head + 1), look, head)
    grid = fig.add_gridspec(2, 1, height_ratios=[T + 1, 1.2])
    _heatmap_row(page, grid[0], items)
    mask = MASKS[tr.mask_name]
    caption = mask.caption[look.lang]
    params = ", ".join(f"{p.label[look.lang]} = {tr.mask_params[p.name]}" for p in mask.params)
    _caption(fig.add_subplot(grid[1]), [f"{caption} ({params})" if params else caption, W["fig_mask_rule"]], look)
    return _finish(page, title)


def figure_softmax(tr, head=0, row=None, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 4: one row of S / √dh + M, its exponentials, their sum and the weights (that row of P), as a table."""
    tr, look = _check_trace(tr), _look(lang, slides)
    head, row = _check_head(tr, head), _token(tr, row, "row", 2)
    W, T = look.words, tr.T
    S_masked, P = tr.S_masked[head], tr.P[head]
    scores, weights = S_masked[row], P[row]  # (T,), the weights read from the trace, not recomputed
    exps = core.exponentials(scores)  # (T,) e^s as the article writes them; e^−∞ = 0
    total = float(exps.sum())
    vmin, vmax = style.value_range("scores", S_masked)
    i = row + 1

    beside = T <= 3  # the article's size: the table to the right of the heatmaps (16:9); larger T: below them
    heat_w, table_w = 2 * max(T, MIN_PANEL_WIDTH) + 2, TABLE_CELL_WIDTH * (T + 1) * 0.8
    width = heat_w + table_w if beside else max(heat_w, table_w)
    height = max(T, 4) + 2 if beside else T + 7
    page = _new_page(look, width, height, extra_w=2, extra_h=1.5)
    fig = page.fig
    title = _title(fig, W["fig_softmax_title"].format(n=head + 1), look, head)
    grid = (fig.add_gridspec(1, 2, width_ratios=[heat_w, table_w]) if beside
            else fig.add_gridspec(2, 1, height_ratios=[T + 1, 0.45 * (T + 1) + 3]))
    s_ax, p_ax = _heatmap_row(page, grid[0], [
        (S_masked, "scores", dict(title=_formula_title("S_masked", look.lang), vmin=vmin, vmax=vmax,
                                  ylabel=W["query"], xlabel=W["key"])),
        _Words(W["fig_softmax_by_row"] + "\n→"),
        (P, "weights", dict(title=_formula_title("P", look.lang).split(" = ")[0], xlabel=W["key"])),
    ])
    outline(s_ax, row, 0, 1, T)
    outline(p_ax, row, 0, 1, T)

    # The chosen row, step by step, as a table: scores, e to the score, its value, the weights of that row of P.
    score_cells = style.cell_style(scores[None, :], "scores", vmin, vmax)
    weight_cells = style.cell_style(weights[None, :], "weights")
    sum_of_weights = style.format_value(float(weights.sum()), "weights")
    labels = [
        [*score_cells.labels[0], ""],
        [*(_exp_power(x) for x in scores), ""],
        [*(_exp_value(float(e)) for e in exps), _exp_value(total)],
        [*weight_cells.labels[0], sum_of_weights],
    ]
    white = (1.0, 1.0, 1.0, 1.0)
    fills = [[*map(tuple, score_cells.rgba[0]), white], [white] * (T + 1), [white] * (T + 1),
             [*map(tuple, weight_cells.rgba[0]), white]]
    headers = [W["fig_softmax_scores"], "$e^{s}$", W["fig_softmax_value"],
               W["fig_softmax_weights"].format(total=_exp_value(total))]
    table_title = W["fig_softmax_table"].format(i=i)
    if np.isneginf(scores).any():
        table_title += r"   ($e^{-\infty}=0$)"  # no space inside the math: the title wraps at spaces
    share = table_w / (heat_w + table_w) if beside else 1.0  # of the figure's width: the title wraps to fit it
    table_title = "\n".join(_wrap(table_title, 0.8 * share * fig.get_figwidth() * 72 / look.text))
    spec = grid[1] if beside else grid[1].subgridspec(1, 3, width_ratios=[1, table_w, 1])[1]
    _table(page, fig.add_subplot(spec), labels, fills, headers, [*style.token_labels(T), W["fig_sum"]],
           table_title, W["key"])
    return _finish(page, title)


TABLE_CELL_WIDTH = 1.5  # a table's cells are this many times wider than high: room for 20.09 or 8.886×10⁶


def _table(page, ax, labels, fills, row_headers, col_headers, title=None, xlabel=None, headers_are_numbers=False,
           cell_width=TABLE_CELL_WIDTH):
    """A clean table of numbers: cells filled where given (a small gap between fills), no lines, no ticks."""
    rows, cols = len(labels), len(labels[0])
    rgba = np.array([[colors.to_rgba(c) for c in row] for row in fills])  # (rows, cols, 4)
    for i, j in zip(*np.nonzero((rgba[..., :3] < 1).any(axis=-1)), strict=True):  # white cells stay unfilled
        ax.add_patch(Rectangle((j - 0.47, i - 0.45), 0.94, 0.9, facecolor=rgba[i, j], linewidth=0))
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_box_aspect(rows / (cell_width * cols))
    ax.spines[:].set_visible(False)
    ax.tick_params(length=0, pad=4, top=True, bottom=False, labeltop=True, labelbottom=False)
    ax.set_xticks(range(cols), labels=col_headers, fontsize=page.look.text)
    ax.set_yticks(range(rows), labels=row_headers, fontsize=page.look.text)
    ax.xaxis.set_label_position("top")
    ax.set_xlabel(xlabel or "", fontsize=page.look.text)
    ax.set_title(title or "", fontsize=page.look.text)
    inks = np.where(style.dark_text_reads_better(rgba), style.INK_DARK, style.INK_LIGHT)
    boxes = [[None] * cols for _ in range(rows)]
    page.numbers.append(_Numbers(ax, labels, inks, boxes, True, headers_are_numbers))
    return ax


def figure_weighted_sum(tr, head=0, row=None, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 5: one output row (dh) as the P-weighted sum of the Value rows, and the whole O = PV (T × dh)."""
    tr, look = _check_trace(tr), _look(lang, slides)
    head, row = _check_head(tr, head), _token(tr, row, "row", 2)
    W, T, dh = look.words, tr.T, tr.dh
    P, V, O, M = tr.P[head], STAGES["Vh"].matrix(tr, head), tr.O[head], tr.M  # read from the trace
    weights, out = P[row], O[row]
    keys = [j for j in range(T) if M[row, j] == 0]  # the Key tokens this Query token may see
    weighted = weights[:, None] * V  # (T, dh): each Value row times its weight, for display only
    vmin, vmax = style.value_range("values", V, weighted, O)
    i = row + 1

    top_w = 2 * max(T, MIN_PANEL_WIDTH) + max(dh, MIN_PANEL_WIDTH) + 2 * OPERATOR_WIDTH
    bottom_w = 2 * dh + 1
    page = _new_page(look, max(top_w, bottom_w), T + len(keys) + 5, extra_w=2, extra_h=2.0)
    fig = page.fig
    title = _title(fig, W["fig_weighted_title"].format(n=head + 1), look, head)
    grid = fig.add_gridspec(3, 1, height_ratios=[T + 1.8, max(len(keys) + 1, 0.5 * (T + 1)), 0.7])
    kw = dict(vmin=vmin, vmax=vmax, xlabel=W["component"], col_labels=style.token_labels(dh))
    p_ax, _, o_ax = _heatmap_row(page, grid[0], [
        (P, "weights", dict(title=_formula_title("P", look.lang).split(" = ")[0], ylabel=W["query"],
                            xlabel=W["key"])),
        r"$\times$",
        (V, "values", dict(title=f"$V$  {_shape(T, dh)}", ylabel=W["fig_value_row"], **kw)), "=",
        (O, "values", dict(title=f"{_formula_title('O', look.lang)}  {_shape(T, dh)}", **kw)),
    ])
    outline(p_ax, row, 0, 1, T)
    outline(o_ax, row, 0, 1, dh)

    # One line per visible Key token: weight × V_j = weighted V_j; the last line is O's row: one table.
    value_cells = style.cell_style(np.vstack([V[keys], weighted[keys], out[None, :]]), "values", vmin, vmax)
    n_keys, white = len(keys), (1.0, 1.0, 1.0, 1.0)
    cell = [[(label, tuple(rgba)) for label, rgba in zip(row_labels, row_rgba, strict=True)]
            for row_labels, row_rgba in zip(value_cells.labels, value_cells.rgba, strict=True)]
    v_rows, w_rows, o_row = cell[:n_keys], cell[n_keys:-1], cell[-1]
    blank = [("", white)] * (dh + 1)
    table = [[*v_rows[n], ("=", white), *w_rows[n]] for n in range(n_keys)] + [[*blank, *o_row]]
    headers = [f"{style.format_value(weights[j], 'weights')} \u00d7 V{j + 1}" for j in keys]
    headers.append(W["fig_weighted_sum_row"].format(i=i))
    components = style.token_labels(dh)
    margin = max(0.0, (max(top_w, bottom_w) - bottom_w) / 2)
    spec = grid[1].subgridspec(1, 3, width_ratios=[margin + 1e-6, bottom_w, margin + 1e-6])[1]
    _table(page, fig.add_subplot(spec), [[label for label, _ in row] for row in table],
           [[rgba for _, rgba in row] for row in table], headers, [*components, "", *components],
           headers_are_numbers=True, cell_width=1.0)
    terms = [f"{style.format_value(weights[j], 'weights')}\u00b7V{j + 1}" for j in keys]
    _caption(fig.add_subplot(grid[2]), [W["fig_weighted_equation"].format(
        i=i, terms=_join_terms(terms), row=style.format_row(out))], look)
    return _finish(page, title)


def _stage_items(tr, head, scales, look):
    """The six stages of one head as heatmap items: S, S / √dh, M, S / √dh + M, P, O."""
    W = look.words

    def item(name):
        kind = STAGES[name].kind
        extra = dict(col_labels=style.token_labels(tr.dh), xlabel=W["component"]) if name == "O" else \
            dict(xlabel=W["key"])
        return (STAGES[name].matrix(tr, head), kind,
                dict(title=_formula_title(name, look.lang), vmin=scales[kind][0], vmax=scales[kind][1], **extra))

    items = [item(name) for name in STAGES_OF_A_HEAD]
    items[0][2]["ylabel"] = W["query"]
    return items


STAGES_OF_A_HEAD = ("S", "S_scaled", "M", "S_masked", "P", "O")


def _stage_scales(tr, heads):
    """Shared colour scales of the stages over the given heads, one per kind."""
    S, S_scaled, O = tr.S, tr.S_scaled, tr.O
    return {
        "scores": style.value_range("scores", *(S[i] for i in heads), *(S_scaled[i] for i in heads)),
        "weights": style.value_range("weights"),
        "values": style.value_range("values", *(O[i] for i in heads)),
    }


def _stages_width(tr):
    return 5 * max(tr.T, MIN_PANEL_WIDTH) + max(tr.dh, MIN_PANEL_WIDTH)


def figure_stages(tr, head=0, *, lang="en"):  # AttentionTrace -> Figure
    """Every stage of one head side by side: S, S / √dh, M, S / √dh + M, P, O (T × T, and T × dh for O)."""
    tr, look = _check_trace(tr), _look(lang, False)
    head = _check_head(tr, head)
    page = _new_page(look, _stages_width(tr), tr.T + 2, extra_h=1.4)
    title = _title(page.fig, look.words["fig_stages_title"].format(n=head + 1), look, head)
    _heatmap_row(page, page.fig.add_gridspec(1, 1)[0], _stage_items(tr, head, _stage_scales(tr, [head]), look))
    return _finish(page, title, look.words["fig_too_many"])


def figure_all_heads(tr, *, lang="en"):  # AttentionTrace -> Figure
    """Every stage of every head: one row per head (named in a frame of its colour), colour scales shared."""
    tr, look = _check_trace(tr), _look(lang, False)
    h = tr.h
    page = _new_page(look, _stages_width(tr) + 2, h * (tr.T + 2), extra_h=1.0 + 0.3 * h)
    fig = page.fig
    title = _title(fig, look.words["fig_all_title"], look)
    scales = _stage_scales(tr, range(h))
    grid = fig.add_gridspec(h, 2, width_ratios=[2, _stages_width(tr)])
    for i in range(h):
        label = fig.add_subplot(grid[i, 0])
        label.axis("off")
        label.text(0.5, 0.5, look.words["head_n"].format(n=i + 1), ha="center", va="center", fontsize=look.text,
                   rotation=90, transform=label.transAxes, bbox=head_box(style.head_color(i)))
        items = _stage_items(tr, i, scales, look)
        for _, _, kw in items:  # the stages' names on the first row, the numbering under the last: once each
            kw.update(title=kw["title"] if i == 0 else None, xlabel=kw["xlabel"] if i == h - 1 else None)
        for n, ax in enumerate(_heatmap_row(page, grid[i, 1], items)):
            ax.tick_params(labelbottom=i == h - 1, labelleft=n == 0 or n == len(items) - 1)  # O's rows differ
    return _finish(page, title, look.words["fig_too_many"])


def figure_scaling(tr, head=0, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Notebook 03: S and S / √dh, and the weights each gives: P_unscaled = softmax(S + M) and P (T × T each)."""
    tr, look = _check_trace(tr), _look(lang, slides)
    head = _check_head(tr, head)
    W, T = look.words, tr.T
    S, S_scaled, P = tr.S[head], tr.S_scaled[head], tr.P[head]
    P_unscaled = STAGES["P_unscaled"].matrix(tr, head)
    vmin, vmax = style.value_range("scores", S, S_scaled)  # one scale: the shrinking shows
    side = max(T, MIN_PANEL_WIDTH)
    page = _new_page(look, 2 * side + 3, 2 * T + 5, extra_w=2, extra_h=1.5)
    fig = page.fig
    root = style.format_value(np.sqrt(tr.dh))
    title = _title(fig, W["fig_scaling_title"].format(n=head + 1, dh=tr.dh, root=root), look, head)
    grid = fig.add_gridspec(3, 2, height_ratios=[1, T + 1, T + 1])
    for col, (words, scores, scores_name, weights, weights_name) in enumerate((
            (W["fig_scaling_without"], S, "S", P_unscaled, "P_unscaled"),
            (W["fig_scaling_with"], S_scaled, "S_scaled", P, "P"))):
        _caption(fig.add_subplot(grid[0, col]), [words], look)
        _panel_heatmap(page, fig.add_subplot(grid[1, col]), scores, "scores",
                       title=_formula_title(scores_name, look.lang), vmin=vmin, vmax=vmax, xlabel=W["key"],
                       ylabel=W["query"])
        _panel_heatmap(page, fig.add_subplot(grid[2, col]), weights, "weights",
                       title=_formula_title(weights_name, look.lang), xlabel=W["key"], ylabel=W["query"])
    return _finish(page, title)


# Stable names, used as file names by `python -m attention_lab.figures`.
FIGURES = {
    "fig1_heads": figure_heads,
    "fig2_scores": figure_scores,
    "fig3_mask": figure_mask,
    "fig4_softmax": figure_softmax,
    "fig5_weighted_sum": figure_weighted_sum,
    "scaling_head1": figure_scaling,
    "stages_head1": figure_stages,
    "all_heads": figure_all_heads,
}
ARTICLE_FIGURES = ("fig1_heads", "fig2_scores", "fig3_mask", "fig4_softmax", "fig5_weighted_sum")
SLIDE_FIGURES = (*ARTICLE_FIGURES, "scaling_head1")  # the figures that take slides=True
