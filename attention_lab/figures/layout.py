"""The figures' layout: a page of heatmaps, operators, captions and tables, whose numbers share one size.

A figure function makes a `Page` (`new_page`), adds heatmaps (`panel_heatmap`,
`heatmap_row`) and tables (`number_table`) without their numbers, and returns
the page with its title; the `@figure` decorator then lays the figure out and
writes every number at the largest size at which all of them fit (`finish`).
So a figure cannot forget its numbers: `@figure` refuses a function that does
not return its page.
"""

import functools
from typing import NamedTuple

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..look import colors, formats, words
from .heatmap import (
    CELL_MAX,
    CELL_MIN,
    MAX_ANNOTATED_CELLS,
    MAX_HEIGHT,
    MAX_WIDTH,
    MIN_PANEL_WIDTH,
    MIN_WIDTH,
    OPERATOR_WIDTH,
    SLIDE_SIZE,
    Look,
    draw_matrix,
    fit_ticks,
    head_box,
    ink_colors,
    label_boxes,
    label_fontsize,
    use_font,
    write_labels,
)

# ---------------------------------------------------------------------------
# A figure in the making: its heatmaps and tables are drawn first without their
# numbers; `finish` lays the figure out, then writes every number at one size.


class Numbers(NamedTuple):
    """Number labels waiting for the figure's shared size: one per cell of a rows × cols grid on `ax`."""

    ax: object
    labels: list  # rows of str ("" for none)
    inks: object  # rows × cols of colours
    boxes: list  # rows × cols of bbox dicts or None
    note: bool  # say on the axes when they are left out
    headers: bool  # the row headers (y tick labels) take the numbers' size too


class Words(str):
    """An item of a heatmap row drawn as words at the text size (a plain str is an operator such as "=")."""


class Page(NamedTuple):
    fig: Figure
    look: Look
    cell_pt: float  # the side of a cell before layout, in points: an estimate for the ticks
    numbers: list  # of Numbers


def new_page(look, width_cells, height_cells, extra_w=1.5, extra_h=1.2):
    """A constrained-layout figure: exactly 16:9 for slides, else sized for a grid of cells plus room for labels."""
    if look.slides:
        fig = Figure(figsize=SLIDE_SIZE, layout="constrained")
        cell = min((SLIDE_SIZE[0] - extra_w) / width_cells, (SLIDE_SIZE[1] - extra_h) / height_cells)
    else:
        cell = float(np.clip(min(MAX_WIDTH / width_cells, MAX_HEIGHT / height_cells), CELL_MIN, CELL_MAX))
        width = max(width_cells * cell + extra_w, MIN_WIDTH)  # titles and captions need room even at T=1
        fig = Figure(figsize=(width, height_cells * cell + extra_h), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.05, h_pad=0.06, hspace=0.01, wspace=0.01)
    return Page(fig, look, 72 * cell, [])


def panel_heatmap(page, ax, matrix, kind, *, title=None, xlabel=None, ylabel=None, row_labels=None,
                   col_labels=None, vmin=None, vmax=None):  # -> Drawn
    """A heatmap of the figure; its numbers are written by `finish`."""
    cells = colors.cell_style(matrix, kind, vmin, vmax)
    drawn = draw_matrix(ax, cells, row_labels, col_labels, title, xlabel, ylabel, page.look.text)
    fit_ticks(ax, drawn, page.cell_pt, page.look._asdict())
    page.numbers.append(Numbers(ax, cells.labels, ink_colors(cells), label_boxes(cells), True, False))
    return drawn


def finish(page, title, too_many_note=None):  # -> Figure
    """Lay the figure out, then write every number at the figure's one size.

    A heatmap whose cells cannot hold its numbers at the layout's smallest size goes without them, and the
    figure's title says so once. With too_many_note, a figure of more than MAX_ANNOTATED_CELLS cells leaves
    its heatmaps' numbers out (labelling them would take many seconds) and its title says that instead.
    """
    fig, look, numbers = page.fig, page.look, page.numbers
    use_font(fig, look.family)
    if too_many_note is not None and sum(len(n.labels) * len(n.labels[0]) for n in numbers) > MAX_ANNOTATED_CELLS:
        add_note(title, too_many_note)
        numbers = [n for n in numbers if not n.note]
    if not numbers:
        return fig
    fig.draw_without_rendering()  # runs constrained layout: every cell now has its final size

    def fit(n):
        return label_fontsize(*grid_points(n.ax, len(n.labels), len(n.labels[0])), n.labels, look._asdict(),
                               look.family)

    fits = [fit(n) for n in numbers]
    if any(f is None and n.note for n, f in zip(numbers, fits, strict=True)):
        add_note(title, look.words["fig_omitted_some"])
        fig.draw_without_rendering()  # the note takes a line: measure again
        fits = [fit(n) if f is not None else None for n, f in zip(numbers, fits, strict=True)]
    size = max(min((f for f in fits if f is not None), default=look.number_min), look.number_min)
    for n, f in zip(numbers, fits, strict=True):
        if f is not None:
            write_labels(n.ax, n.labels, n.inks, n.boxes, size)
            if n.headers:  # a table whose row headers read as part of its numbers (Figure 5's "0.114 × V1")
                n.ax.tick_params(axis="y", labelsize=size)
    use_font(fig, look.family)
    return fig


def add_note(title, note):
    """A note under the figure's title, in the text size: e.g. that some values were left out."""
    title.set_text(f"{title.get_text()}\n({note})")


def grid_points(ax, rows, cols):  # -> (cell width, cell height) in points, after layout
    ax.apply_aspect()
    box = ax.get_window_extent()
    to_pt = 72.0 / ax.figure.dpi
    return box.width * to_pt / cols, box.height * to_pt / rows


def operator(ax, label, look, size=None):
    ax.axis("off")
    return ax.text(0.5, 0.5, label, ha="center", va="center", fontsize=size or look.operator, transform=ax.transAxes)


def caption_lines(ax, lines, look):
    """Lines of explanation, centred in a text-only axes that constrained layout makes room for.

    A line wider than the figure is broken at spaces (a dot product of dh = 8 terms, a mask's caption).
    """
    ax.axis("off")
    per_line = 0.9 * ax.figure.get_figwidth() * 72 / look.text  # ems
    wrapped = [part for line in lines for part in wrap(line, per_line)]
    return ax.text(0.5, 0.5, "\n".join(wrapped), ha="center", va="center", fontsize=look.text,
                   transform=ax.transAxes, linespacing=1.6)


def wrap(words, em_per_line):
    """Break a sentence at spaces so that no line is wider than em_per_line (Hangul 1 em, other letters ~0.58)."""
    lines, line = [], ""
    for word in words.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and ems(candidate) > em_per_line:
            lines.append(line)
            candidate = word
        line = candidate
    return lines + [line]


def ems(s):
    return sum(1.0 if ord(c) >= 0x1100 else 0.58 for c in s)


def figure_title(fig, words, look, head=None):
    """The figure's title in the reader's language; a head's title is framed in the head's colour."""
    # A small pad: constrained layout makes room for the title's text, not for the box around it.
    box = None if head is None else head_box(colors.head_color(head), pad=0.12)
    return fig.suptitle(words, fontsize=look.title, bbox=box)


def shape_text(rows, cols):
    return f"({rows} × {cols})"


def stage_title(name, lang):
    return words.say(f"stage.{name}", lang)


# ---------------------------------------------------------------------------
# Text the figures print: the article's notation, with the typographic minus.


def math_number(x):
    """A score as a mathtext exponent: −∞ as \\infty, with mathtext's own minus sign."""
    return r"-\infty" if x == -np.inf else formats.format_value(float(x), "scores").replace(formats.MINUS, "-")


def exp_power(x):
    """'$e^{1}$' for a score x, as mathtext."""
    return rf"$e^{{{math_number(x)}}}$"


def join_terms(terms, per_line=4):
    """Join terms with " + ", starting a new line every per_line terms."""
    lines = [" + ".join(terms[n:n + per_line]) for n in range(0, len(terms), per_line)]
    return "\n+ ".join(lines) or "0"


def heatmap_row(page, spec, items):  # -> [Axes] of the heatmaps
    """Heatmaps left to right in `spec`, with operators between them; cells the same size in every panel.

    An item is (matrix, kind, keyword arguments), an operator string such as "+", or a number (a blank that wide).
    """
    def width(item):
        if isinstance(item, tuple):
            return max(item[0].shape[1], MIN_PANEL_WIDTH)  # a 1- or 2-column matrix still needs room for its title
        if isinstance(item, Words):
            return 2.0
        return OPERATOR_WIDTH if isinstance(item, str) else item

    grid = spec.subgridspec(1, len(items), width_ratios=[width(it) for it in items], wspace=0.05)
    axes = []
    for cell, item in zip(grid, items, strict=True):
        ax = page.fig.add_subplot(cell)
        if isinstance(item, tuple):
            matrix, kind, kw = item
            panel_heatmap(page, ax, matrix, kind, **kw)
            axes.append(ax)
        elif isinstance(item, Words):
            operator(ax, item, page.look, page.look.text)
        else:
            operator(ax, item if isinstance(item, str) else "", page.look)
    return axes


TABLE_CELL_WIDTH = 1.5  # a table's cells are this many times wider than high: room for 20.09 or 8.886×10⁶


def number_table(page, ax, labels, fills, row_headers, col_headers, title=None, xlabel=None, headers_are_numbers=False,
           cell_width=TABLE_CELL_WIDTH):
    """A clean table of numbers: cells filled where given (a small gap between fills), no lines, no ticks."""
    rows, cols = len(labels), len(labels[0])
    rgba = np.array([[mcolors.to_rgba(c) for c in row] for row in fills])  # (rows, cols, 4)
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
    inks = np.where(colors.dark_text_reads_better(rgba), colors.INK_DARK, colors.INK_LIGHT)
    boxes = [[None] * cols for _ in range(rows)]
    page.numbers.append(Numbers(ax, labels, inks, boxes, True, headers_are_numbers))
    return ax


def figure(make):
    """Decorate a figure function that returns (page, title) or (page, title, too_many_note): it returns the
    finished Figure, laid out, with every number written at the figure's one size."""
    @functools.wraps(make)
    def finished(*args, **kwargs):
        made = make(*args, **kwargs)
        if not (isinstance(made, tuple) and made and isinstance(made[0], Page)):
            raise TypeError(f"{make.__name__} must return (page, title[, note]) for @figure to finish it.")
        return finish(*made)

    return finished
