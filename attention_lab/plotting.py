"""Annotated heatmaps and the article's five figures, drawn with matplotlib.

This is the static path: figures stored in notebooks and exported for
slides (see `python -m attention_lab.figures`). Anything a slider redraws
uses `attention_lab.html` instead, because matplotlib needs 1–2 ms per
annotated cell.

Two rules keep it honest:
- Colours, number labels and masked cells come from `style.cell_style`;
  nothing here picks a colour or formats a matrix value itself.
- Nothing here computes attention: every matrix is read from the trace.
  Figures 4 and 5 evaluate exp(score) and P[i, j]·V[j] for display only,
  because showing those steps is what those figures teach; the weights and
  outputs they arrive at are still read from `tr.P` and `tr.O`.

Figures are `matplotlib.figure.Figure` objects made without pyplot, so they
leave no global state behind. In Jupyter, run `%matplotlib inline` once
(it registers IPython's PNG display for Figure objects; importing pyplot alone
does not, checked with ipykernel 7 and matplotlib-inline 0.2), then end a
cell with the figure or call `display(fig)`. `fig.savefig(path, bbox_inches="tight")`
writes it to a file. Save with bbox_inches="tight", as the export command and
Jupyter's inline display do: constrained layout leaves the titles of very
narrow heatmaps (e.g. O with dh=2 in the all-heads figure) hanging over the
figure's edge, and the tight box takes them in.
"""

import re
from typing import NamedTuple

import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from . import core, style
from .masks import MASKS

# Sizes, in inches and points. A figure is sized from its matrices: each cell
# gets CELL_MAX inches while that fits in MAX_WIDTH × MAX_HEIGHT, less when not.
CELL_MAX, CELL_MIN = 0.5, 0.1
MAX_WIDTH, MAX_HEIGHT, MIN_WIDTH = 15.0, 11.0, 8.0
FONT_MAX, FONT_MIN = 10.0, 5.0  # cell labels: shrink down to FONT_MIN, then leave them out
MIN_PANEL_WIDTH = 2.5  # in cells
OPERATOR_WIDTH = 0.8  # width of a "+", "=", "×" column, in cells
MAX_ANNOTATED_CELLS = 1500  # per figure: beyond this, drawing the labels takes seconds
MASKED_LABEL_BOX = dict(boxstyle="square,pad=0.15", facecolor=style.MASKED_RGBA, linewidth=0)  # −∞ over the hatch
OMITTED_NOTE = "values omitted: matrix too large"
TOO_MANY_NOTE = "values omitted: too many cells to label; see the single-head figures"

QUERY, KEY = "Query token", "Key token"
STAGE_TITLES = {
    "S": r"$S = QK^\top$",
    "S_scaled": r"$S/\sqrt{d_h}$",
    "M": r"$M$",
    "S_masked": r"$S/\sqrt{d_h} + M$",
    "P": r"$P$ (softmax by row)",
    "O": r"$O = PV$",
}
MASK_CAPTIONS = {name: mask.caption["en"] for name, mask in MASKS.items()}


class Heatmap(NamedTuple):
    """What `heatmap` drew: the image, the cell labels, the hatches of masked cells, and the style used."""

    image: object  # AxesImage
    texts: list  # Text, one per annotated cell, row by row
    hatches: object  # PatchCollection: one hatched square per masked (−∞) cell
    note: object  # the Text saying that values were left out, or None
    cells: style.CellStyle


def heatmap(ax, matrix, kind, *, row_labels=None, col_labels=None, title=None, xlabel=None, ylabel=None,
            vmin=None, vmax=None, annotate=None, fontsize=None):  # [rows, cols] -> Heatmap
    """Draw one matrix on `ax` as a heatmap with every cell labelled; return what was drawn.

    kind: "scores", "weights" or "values" (`style.KIND_OF` maps trace names to kinds).
    Row and column labels default to token numbers from 1. annotate=None labels
    the cells while they are big enough to hold their labels, and otherwise says
    on the figure that the values were left out; True or False forces it.
    """
    matrix = np.asarray(matrix, dtype=float)
    cells = style.cell_style(matrix, kind, vmin, vmax)
    rows, cols = matrix.shape

    # The colours are style's RGBA; cmap and clim are recorded on the image so a
    # colour bar (and a test) can read the scale the colours were taken from.
    image = ax.imshow(cells.rgba, interpolation="nearest", aspect="equal")
    image.set_cmap(cells.cmap)
    image.set_clim(cells.vmin, cells.vmax)
    # One collection for all masked cells: one artist instead of one per cell.
    hatches = ax.add_collection(PatchCollection(
        [Rectangle((j - 0.5, i - 0.5), 1, 1) for i, j in zip(*np.nonzero(cells.masked), strict=True)],
        facecolor="none", edgecolor="0.55", linewidth=0, hatch=style.MASKED_HATCH), autolim=False)

    cell_pt = _cell_points(ax, rows, cols, titled=bool(title))
    _grid_and_ticks(ax, rows, cols, row_labels, col_labels, cell_pt)
    ax.set_title(title or "", fontsize=FONT_MAX)
    ax.set_ylabel(ylabel or "")

    auto = annotate is None
    if fontsize is None:
        fontsize = _label_fontsize(cell_pt, cells.labels)
    if auto:
        annotate = fontsize is not None
    texts, note = [], None
    if annotate:
        texts = [
            ax.text(j, i, label, ha="center", va="center", fontsize=fontsize or FONT_MIN,
                    color=style.INK_DARK if cells.text_dark[i, j] else style.INK_LIGHT,
                    bbox=MASKED_LABEL_BOX if cells.masked[i, j] else None)
            for i, row in enumerate(cells.labels) for j, label in enumerate(row)
        ]
    elif auto:
        # Left out because they would not fit: say so where the reader looks.
        xlabel = f"{xlabel}\n({OMITTED_NOTE})" if xlabel else f"({OMITTED_NOTE})"
        note = ax.xaxis.label
    ax.set_xlabel(xlabel or "")
    return Heatmap(image, texts, hatches, note, cells)


def outline(ax, row, col, nrows=1, ncols=1, color="black", linewidth=2.5):
    """Frame the block of cells starting at (row, col) (0-based) on a heatmap; return the patch."""
    return ax.add_patch(Rectangle((col - 0.5, row - 0.5), ncols, nrows, fill=False,
                                  edgecolor=color, linewidth=linewidth, clip_on=False, zorder=3))


def _cell_points(ax, rows, cols, titled=True):
    """The side of one (square) cell in points, from the axes' current size.

    Constrained layout runs only when the figure is drawn, so this is the size
    before layout, less an allowance for the tick labels (and title) the layout
    will take from it: an estimate on the safe side.
    """
    box = ax.get_window_extent()
    to_pt = 72.0 / ax.figure.dpi
    return max(min((box.width * to_pt - 15) / cols, (box.height * to_pt - 15 - 15 * titled) / rows), 0.0)


def _label_fontsize(cell_pt, labels):
    """The largest font (up to FONT_MAX) at which the longest label fits a cell, or None if below FONT_MIN."""
    longest = max(_visible_length(label) for row in labels for label in row)
    size = min(FONT_MAX, 0.5 * cell_pt, 0.9 * cell_pt / (0.6 * longest + 0.3))
    return size if size >= FONT_MIN else None


def _visible_length(label):
    """Characters a label shows: in mathtext such as $e^{-\\infty}$ only what is drawn counts."""
    return len(re.sub(r"\\[a-z]+", "#", re.sub(r"[${}^]", "", label)))


def _grid_and_ticks(ax, rows, cols, row_labels, col_labels, cell_pt, grid_color="white"):
    """Token numbers (from 1) on both axes, thin lines between cells, no frame.

    When cells are too small for a label each, every k-th label is shown.
    The cell lines are two line collections, not minor-tick grids: far cheaper
    in a figure with dozens of heatmaps.
    """
    row_labels = style.token_labels(rows) if row_labels is None else row_labels
    col_labels = style.token_labels(cols) if col_labels is None else col_labels
    tick_size = float(np.clip(0.6 * cell_pt, 4, 9))
    step = max(1, int(np.ceil(2.2 * tick_size / max(cell_pt, 1e-9))))  # two digits side by side must not touch
    ax.set_xticks(range(0, cols, step), labels=col_labels[::step], fontsize=tick_size)
    ax.set_yticks(range(0, rows, max(1, step // 2)), labels=row_labels[::max(1, step // 2)], fontsize=tick_size)
    ax.tick_params(length=0, pad=2)
    ax.hlines(np.arange(1, rows) - 0.5, -0.5, cols - 0.5, color=grid_color, linewidth=1.0)
    ax.vlines(np.arange(1, cols) - 0.5, -0.5, rows - 0.5, color=grid_color, linewidth=1.0)
    ax.spines[:].set_visible(False)


# ---------------------------------------------------------------------------
# Layout: a row of heatmaps with operators between them, on a figure of a
# size derived from the matrices it holds.


class Panel(NamedTuple):
    """One heatmap in a row: the matrix, its kind, and keyword arguments for `heatmap`."""

    matrix: np.ndarray
    kind: str
    kw: dict


def panel(matrix, kind, **kw):
    return Panel(np.asarray(matrix, dtype=float), kind, kw)


def _width(item):
    """Width in cells: a Panel's columns, an operator's OPERATOR_WIDTH, or a number (a blank that wide)."""
    if isinstance(item, Panel):
        return max(item.matrix.shape[1], MIN_PANEL_WIDTH)  # a 1- or 2-column matrix still needs room for its title
    return OPERATOR_WIDTH if isinstance(item, str) else item


def _cell_inches(width_cells, height_cells):
    """Inches per cell so that the whole figure fits MAX_WIDTH × MAX_HEIGHT."""
    return float(np.clip(min(MAX_WIDTH / width_cells, MAX_HEIGHT / height_cells), CELL_MIN, CELL_MAX))


def _new_figure(width_cells, height_cells, extra_w=1.5, extra_h=1.2):
    """A constrained-layout Figure sized for a grid of width_cells × height_cells, plus room for labels."""
    cell = _cell_inches(width_cells, height_cells)
    width = max(width_cells * cell + extra_w, MIN_WIDTH)  # titles and captions need room even at T=1
    return Figure(figsize=(width, height_cells * cell + extra_h), layout="constrained")


def heatmap_row(fig, items, annotate=None):
    """Draw `items` left to right on fig; return [(ax, Heatmap)] for the Panels.

    An item is a Panel, an operator string such as "+", or a number: a blank that many cells wide.

    Column widths follow the matrices' widths, so cells have the same size in
    every panel of the row.
    """
    grid = fig.add_gridspec(1, len(items), width_ratios=[_width(it) for it in items],
                            left=0.02, right=0.98, bottom=0.05, top=0.9, wspace=0.05)
    drawn = []
    for spec, item in zip(grid, items, strict=True):
        ax = fig.add_subplot(spec)
        if isinstance(item, Panel):
            drawn.append((ax, heatmap(ax, item.matrix, item.kind, annotate=annotate, **item.kw)))
        else:
            _operator(ax, item if isinstance(item, str) else "")
    return drawn


def _operator(ax, text):
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=14, transform=ax.transAxes)


def _caption(fig, lines):
    """Lines of explanation under the heatmaps, in a text-only axes that constrained layout makes room for."""
    ax = fig.add_subplot()
    ax.axis("off")
    return ax.text(0.5, 0.5, "\n".join(lines), ha="center", va="center", fontsize=FONT_MAX,
                   transform=ax.transAxes, linespacing=1.6)


def _split(fig, heights):
    """Stack subfigures top to bottom with the given relative heights."""
    return fig.subfigures(len(heights), 1, height_ratios=heights)


def _annotate_for(n_cells):
    """None (automatic) for a figure with few enough cells, False when labelling them all would be too slow."""
    return None if n_cells <= MAX_ANNOTATED_CELLS else False


def _mark_heads(ax, h, dh, rows):
    """Frame head i's columns in its colour and colour their column labels, on a (T, d) heatmap."""
    for i in range(h):
        outline(ax, 0, i * dh, rows, dh, color=style.head_color(i), linewidth=3)
    for k, label in enumerate(ax.get_xticklabels()):
        label.set_color(style.head_color(k // dh))


def _head_ticks(h, dh):
    """Column labels of a (T, d) matrix: component numbers from 1."""
    return [str(k + 1) for k in range(h * dh)]


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


# ---------------------------------------------------------------------------
# The article's figures. Each takes a trace and returns a Figure; head, query,
# key and row are 0-based indices, while the figures show 1-based token numbers.
# A token index past the last token means the last token, so the defaults
# (the article's token 3) work for any T.


def _token(tr, n, name):
    """A 0-based token index for a figure: past the last token means the last one (so T=1 works)."""
    if not 0 <= n:
        raise ValueError(f"{name}: token indices are 0-based and ≥ 0, got {n}.")
    return min(n, tr.T - 1)


def _check_head(tr, head):
    if not 0 <= head < tr.h:
        raise ValueError(f"head: this trace has h={tr.h} heads, numbered 0 … {tr.h - 1} (0-based); got {head}.")
    return head


def figure_heads(tr):  # AttentionTrace -> Figure
    """Figure 1: Q, K, V (T×d) split into head column blocks, each head's output O_i (T×dh), and H = Concat(O_i)."""
    T, h, dh = tr.T, tr.h, tr.dh
    vmin, vmax = style.value_range("values", tr.Q, tr.K, tr.V, tr.H)
    ticks = _head_ticks(h, dh)
    qkv_width = 3 * tr.d + 2  # Q, K, V with a blank cell between them
    fig = _new_figure(qkv_width, 3 * T + 3, extra_h=2.5)
    annotate = _annotate_for(3 * tr.Q.size + 2 * tr.H.size)
    top, middle, bottom = _split(fig, [1, 1, 1])

    top.suptitle(f"1. Split: head i takes its own {dh} columns of Q, K and V", fontsize=FONT_MAX)
    q, k, v = [panel(getattr(tr, name), "values", title=f"${name}$", col_labels=ticks, vmin=vmin, vmax=vmax,
                     ylabel="Token", xlabel="component") for name in ("Q", "K", "V")]
    for ax, _ in heatmap_row(top, [q, 1, k, 1, v], annotate):
        _mark_heads(ax, h, dh, T)

    middle.suptitle(r"2. Core Attention in each head, independently: "
                    r"$O_i = \mathrm{softmax}(Q_iK_i^\top/\sqrt{d_h} + M)\,V_i$", fontsize=FONT_MAX)
    # The outputs sit side by side with a blank cell between them, centred like H below.
    margin = (qkv_width - tr.d - (h - 1)) / 2
    outputs = [panel(tr.O[i], "values", title=f"$O_{{{i + 1}}}$", vmin=vmin, vmax=vmax, xlabel="component",
                     ylabel=QUERY if i == 0 else None) for i in range(h)]
    items = [margin] + [x for o in outputs for x in (o, 1)][:-1] + [margin]
    for i, (ax, _) in enumerate(heatmap_row(middle, items, annotate)):
        outline(ax, 0, 0, T, dh, color=style.head_color(i), linewidth=3)
        ax.title.set_color(style.head_color(i))

    bottom.suptitle(r"3. Concat: $H = [O_1 \,|\, O_2 \,|\, \cdots]$, each head's columns back in place",
                    fontsize=FONT_MAX)
    margin = (qkv_width - tr.d) / 2  # H centred, as wide as the outputs above it
    (ax, _), = heatmap_row(bottom, [margin, panel(tr.H, "values", title="$H$", col_labels=ticks, vmin=vmin,
                                                  vmax=vmax, ylabel=QUERY, xlabel="component"), margin], annotate)
    _mark_heads(ax, h, dh, T)
    if annotate is False:
        fig.suptitle(TOO_MANY_NOTE, fontsize=8, color="0.35")
    return fig


def figure_scores(tr, head=0, query=2, key=0):  # AttentionTrace -> Figure
    """Figure 2: S = Q_i K_iᵀ (T×T) for one head, one score explained as a dot product, then S/√dh."""
    T, dh = tr.T, tr.dh
    head, query, key = _check_head(tr, head), _token(tr, query, "query"), _token(tr, key, "key")
    q, k = tr.Qh[head, query], tr.Kh[head, key]
    vmin, vmax = style.value_range("scores", tr.S[head], tr.S_scaled[head])  # shared: the scaling shows
    qk_min, qk_max = style.value_range("values", tr.Qh[head], tr.Kh[head])
    n = head + 1
    items = [
        panel(tr.Qh[head], "values", title=f"$Q_{{{n}}}$", vmin=qk_min, vmax=qk_max, ylabel=QUERY,
              xlabel="component", col_labels=style.token_labels(dh)),
        r"$\times$",
        panel(tr.Kh[head].T, "values", title=rf"$K_{{{n}}}^\top$", vmin=qk_min, vmax=qk_max, xlabel=KEY,
              ylabel="component", row_labels=style.token_labels(dh)),
        "=",
        panel(tr.S[head], "scores", title=r"$S = QK^\top$", vmin=vmin, vmax=vmax, ylabel=QUERY, xlabel=KEY),
        rf"$\div\sqrt{{{dh}}}$",
        panel(tr.S_scaled[head], "scores", title=r"$S/\sqrt{d_h}$", vmin=vmin, vmax=vmax, xlabel=KEY),
    ]
    fig = _new_figure(2 * dh + 2 * T + 3 * OPERATOR_WIDTH, max(T, dh) + 2, extra_w=2, extra_h=1.8)
    top, bottom = _split(fig, [3, 1])
    top.suptitle(f"Head {n}: scores between every query token and every key token", color=style.head_color(head))
    (q_ax, _), (k_ax, _), (s_ax, _), (scaled_ax, _) = heatmap_row(top, items, _annotate_for(5 * T * max(T, dh)))
    outline(q_ax, query, 0, 1, dh)
    outline(k_ax, 0, key, dh, 1)
    outline(s_ax, query, key)
    outline(scaled_ax, query, key)

    i, j = query + 1, key + 1
    score, scaled = tr.S[head, query, key], tr.S_scaled[head, query, key]
    _caption(bottom, [
        f"Query of token {i} = {style.format_row(q)},   Key of token {j} = {style.format_row(k)}",
        f"S[{i}, {j}] = {style.dot_product_text(q, k)} = {style.format_value(score, 'scores')}"
        f"   (row = query token {i}, column = key token {j})",
        f"S[{i}, {j}] / \u221a{dh} = {style.format_value(score, 'scores')} / {style.format_value(np.sqrt(dh))}"
        f" = {style.format_value(scaled, 'scores')}",
    ])
    return fig


def figure_mask(tr, head=0):  # AttentionTrace -> Figure
    """Figure 3: S/√dh (T×T), the mask M (0 and −∞) and their sum S/√dh + M, for one head."""
    T, head = tr.T, _check_head(tr, head)
    vmin, vmax = style.value_range("scores", tr.S_scaled[head])
    kw = dict(kind="scores", vmin=vmin, vmax=vmax, xlabel=KEY)
    items = [
        panel(tr.S_scaled[head], title=STAGE_TITLES["S_scaled"], ylabel=QUERY, **kw), "+",
        panel(tr.M, title="$M$ (the mask)", **kw), "=",
        panel(tr.S_masked[head], title=STAGE_TITLES["S_masked"], **kw),
    ]
    fig = _new_figure(3 * T + 2 * OPERATOR_WIDTH, T + 1, extra_w=2, extra_h=1.8)
    top, bottom = _split(fig, [4, 1])
    top.suptitle(f"Head {head + 1}: the mask removes the scores of future tokens", color=style.head_color(head))
    heatmap_row(top, items, _annotate_for(3 * T * T))
    _caption(bottom, [MASK_CAPTIONS[tr.mask_name], "0 + score = score,   \u2212\u221e + score = \u2212\u221e"])
    return fig


def figure_softmax(tr, head=0, row=2):  # AttentionTrace -> Figure
    """Figure 4: one row of S/√dh + M, its exponentials, their sum, and the weights (that row of P)."""
    T, head, row = tr.T, _check_head(tr, head), _token(tr, row, "row")
    scores = tr.S_masked[head, row]  # (T,)
    weights = tr.P[head, row]  # (T,) read from the trace, not recomputed
    exps = core.exponentials(scores)  # (T,) e^s as the article writes them; e^−∞ = 0
    total = float(exps.sum())
    vmin, vmax = style.value_range("scores", tr.S_masked[head])
    i = row + 1
    width = 2 * T + OPERATOR_WIDTH * 2
    fig = _new_figure(width, T + 8, extra_w=2, extra_h=1.5)
    top, bottom = _split(fig, [T + 1, 7])  # the strips below: 4 rows of cells and 3 titles
    top.suptitle(f"Head {head + 1}: softmax turns each row of scores into weights that sum to 1",
                 color=style.head_color(head))
    (s_ax, _), (p_ax, _) = heatmap_row(top, [
        panel(tr.S_masked[head], "scores", title=STAGE_TITLES["S_masked"], vmin=vmin, vmax=vmax,
              ylabel=QUERY, xlabel=KEY),
        "softmax\nby row\n\u2192",
        panel(tr.P[head], "weights", title="$P$", xlabel=KEY),
    ], _annotate_for(2 * T * T))
    outline(s_ax, row, 0, 1, T)
    outline(p_ax, row, 0, 1, T)

    # The chosen row, step by step: scores, e to the score, the weights of that row of P.
    # The strips are T cells wide, centred, so their cells match the matrices' cells above.
    margin = (width - T) / 2
    grid = bottom.add_gridspec(3, 3, height_ratios=[1, 2, 1], width_ratios=[margin, T, margin],
                               left=0.02, right=0.98, top=0.9, bottom=0.05)
    grid = [grid[n, 1] for n in range(3)]
    heatmap(bottom.add_subplot(grid[0]), scores[None, :], "scores", vmin=vmin, vmax=vmax, row_labels=["s"],
            title=f"scores s of query token {i}: row {i} of " + STAGE_TITLES["S_masked"])
    powers = [[_exp_power(x) for x in scores], [_exp_value(float(e)) for e in exps]]
    _text_cells(bottom.add_subplot(grid[1]), powers, row_labels=["$e^{s}$", "="],
                title=rf"exponentials ($e^{{-\infty}}$ = 0),  their sum = {_exp_value(total)}")
    heatmap(bottom.add_subplot(grid[2]), weights[None, :], "weights", row_labels=["p"], xlabel=KEY,
            title=rf"weights $p = e^{{s}}$ / {_exp_value(total)}: row {i} of $P$")
    return fig


def _text_cells(ax, labels, row_labels, title):  # rows of str -> [Text]
    """A small table of text on white cells, for numbers that are not a matrix of the trace (no colour scale)."""
    rows, cols = len(labels), len(labels[0])
    ax.imshow(np.ones((rows, cols, 3)), interpolation="nearest", aspect="equal")  # plain white cells
    cell_pt = _cell_points(ax, rows, cols)
    _grid_and_ticks(ax, rows, cols, row_labels, None, cell_pt, grid_color="0.75")
    fontsize = _label_fontsize(cell_pt, labels) or FONT_MIN  # the exponentials are the point: always shown
    ax.set_title(title, fontsize=FONT_MAX)
    return [ax.text(j, n, text, ha="center", va="center", fontsize=fontsize)
            for n, row in enumerate(labels) for j, text in enumerate(row)]


def figure_weighted_sum(tr, head=0, row=2):  # AttentionTrace -> Figure
    """Figure 5: one output row (dh) as the P-weighted sum of the Value rows, and the whole O = PV (T×dh)."""
    T, dh = tr.T, tr.dh
    head, row = _check_head(tr, head), _token(tr, row, "row")
    V, weights, out = tr.Vh[head], tr.P[head, row], tr.O[head, row]  # read from the trace
    keys = [j for j in range(T) if tr.M[row, j] == 0]  # the key tokens this query token may see
    weighted = weights[:, None] * V  # (T, dh): each Value row times its weight, for display only
    vmin, vmax = style.value_range("values", V, weighted, tr.O[head])
    i = row + 1

    fig = _new_figure(max(T + 2 * dh + 2 * OPERATOR_WIDTH, 3.3 + 2 * dh), T + len(keys) + 3, extra_w=2, extra_h=2.5)
    top, bottom = _split(fig, [T + 1, len(keys) + 2])
    top.suptitle(f"Head {head + 1}: each output row is a weighted sum of the Value rows",
                 color=style.head_color(head))
    kw = dict(vmin=vmin, vmax=vmax, xlabel="component", col_labels=style.token_labels(dh))
    (p_ax, _), _, (o_ax, _) = heatmap_row(top, [
        panel(tr.P[head], "weights", title="$P$", ylabel=QUERY, xlabel=KEY), r"$\times$",
        panel(V, "values", title="$V$", ylabel="Key token (Value row)", **kw), "=",
        panel(tr.O[head], "values", title="$O = PV$", **kw),
    ], _annotate_for(T * (T + 2 * dh)))
    outline(p_ax, row, 0, 1, T)
    outline(o_ax, row, 0, 1, dh)

    # One line per visible key token: weight × V_j = weighted V_j; the last line is O's row.
    grid = bottom.add_gridspec(len(keys) + 1, 4, width_ratios=[2.5, dh, OPERATOR_WIDTH, dh])
    for n, j in enumerate(keys):
        _operator(bottom.add_subplot(grid[n, 0]), f"{style.format_value(weights[j], 'weights')} \u00d7")
        heatmap(bottom.add_subplot(grid[n, 1]), V[None, j], "values", row_labels=[f"V{j + 1}"],
                col_labels=[""] * dh, vmin=vmin, vmax=vmax)
        _operator(bottom.add_subplot(grid[n, 2]), "=")
        heatmap(bottom.add_subplot(grid[n, 3]), weighted[None, j], "values", row_labels=[""],
                col_labels=[""] * dh, vmin=vmin, vmax=vmax)
    _operator(bottom.add_subplot(grid[-1, :3]), f"sum = output of token {i} (row {i} of O)")
    heatmap(bottom.add_subplot(grid[-1, 3]), out[None, :], "values", row_labels=[""],
            col_labels=style.token_labels(dh), vmin=vmin, vmax=vmax)
    terms = [f"{style.format_value(weights[j], 'weights')}\u00b7V{j + 1}" for j in keys]
    bottom.suptitle(f"output of token {i} = {_wrap(terms)} \u2248 {style.format_row(out)}", fontsize=FONT_MAX)
    return fig


def _wrap(terms, per_line=4):
    """Join terms with " + ", starting a new line every per_line terms."""
    lines = [" + ".join(terms[n:n + per_line]) for n in range(0, len(terms), per_line)]
    return "\n+ ".join(lines) or "0"


def _stage_panels(tr, head, scales):
    """The six stages of one head as Panels: S, S/√dh, M, S/√dh + M, P, O."""
    def stage(name, matrix):
        kind = style.KIND_OF[name]
        extra = {"col_labels": style.token_labels(tr.dh), "xlabel": "component"} if name == "O" else {"xlabel": KEY}
        return panel(matrix, kind, title=STAGE_TITLES[name], vmin=scales[kind][0], vmax=scales[kind][1], **extra)

    names = ("S", "S_scaled", "M", "S_masked", "P", "O")
    panels = [stage(name, tr.M if name == "M" else getattr(tr, name)[head]) for name in names]
    panels[0].kw["ylabel"] = QUERY
    return panels


def _stage_scales(tr, heads):
    """Shared colour scales of the stages over the given heads, one per kind."""
    return {
        "scores": style.value_range("scores", *(tr.S[i] for i in heads), *(tr.S_scaled[i] for i in heads)),
        "weights": style.value_range("weights"),
        "values": style.value_range("values", *(tr.O[i] for i in heads)),
    }


def figure_stages(tr, head=0):  # AttentionTrace -> Figure
    """Every stage of one head side by side: S, S/√dh, M, S/√dh + M, P, O (T×T, and T×dh for O)."""
    head = _check_head(tr, head)
    width = 5 * tr.T + tr.dh
    fig = _new_figure(width, tr.T, extra_h=1.4)
    fig.suptitle(f"Head {head + 1}: every stage of Core Attention", color=style.head_color(head))
    heatmap_row(fig, _stage_panels(tr, head, _stage_scales(tr, [head])), _annotate_for(tr.T * width))
    return fig


def figure_all_heads(tr):  # AttentionTrace -> Figure
    """Every stage of every head: one row per head (label in the head's colour), colour scales shared by all heads."""
    T, h = tr.T, tr.h
    width = 5 * T + tr.dh
    fig = _new_figure(width, h * T, extra_h=1.0 + 0.6 * h)
    annotate = _annotate_for(h * T * width)
    scales = _stage_scales(tr, range(h))
    for i, sub in enumerate(np.atleast_1d(fig.subfigures(h, 1))):
        sub.supylabel(f"Head {i + 1}", color=style.head_color(i), fontweight="bold")
        heatmap_row(sub, _stage_panels(tr, i, scales), annotate)
    fig.suptitle("Every stage of every head" + (f"\n({TOO_MANY_NOTE})" if annotate is False else ""))
    return fig


# Stable names, used as file names by `python -m attention_lab.figures`.
FIGURES = {
    "fig1_heads": figure_heads,
    "fig2_scores": figure_scores,
    "fig3_mask": figure_mask,
    "fig4_softmax": figure_softmax,
    "fig5_weighted_sum": figure_weighted_sum,
    "stages_head1": figure_stages,
    "all_heads": figure_all_heads,
}
