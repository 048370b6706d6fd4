"""The figures' layout: a page of heatmaps, operators, captions and tables, whose numbers share one size.

A figure function makes a `Page` (`new_page`), adds heatmaps (`panel_heatmap`,
`heatmap_row`) and tables (`number_table`) without their numbers, and returns
the page with its title; the `@figure` decorator then lays the figure out and
writes every number at the largest size at which all of them fit (`finish`).
So a figure cannot forget its numbers: `@figure` refuses a function that does
not return its page. `@figure` also takes `caption=` (a deck's slide: the
caption under the figure, wrapped to its width).

Text is plain Unicode (Q₁, K₁ᵀ, S / √dh, e¹): never mathtext, whose radicals and
symbols come from STIX fonts that an editor of an SVG file lacks.
"""

import functools
import inspect
from typing import NamedTuple

import numpy as np
from matplotlib import colors as mcolors
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..look import colors, formats, words
from ..numeric import checks
from ..numeric.pipeline import STAGES
from .heatmap import (
    CELL_MAX,
    CELL_MIN,
    MAX_ANNOTATED_CELLS,
    MAX_HEIGHT,
    MIN_PANEL_WIDTH,
    MIN_WIDTH,
    NOTEBOOK_WIDTH,
    OPERATOR_WIDTH,
    SLIDE_SIZE,
    Look,
    draw_matrix,
    fit_ticks,
    head_box,
    ink_colors,
    label_boxes,
    label_fontsize,
    thin_touching_ticks,
    use_font,
    width_em,
    write_labels,
)
from .lines import wrap
from .tighten import lay_out

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
    tokens: bool = False  # its tick labels are token numbers, which `finish` thins where they run together


class Words(str):
    """An item of a heatmap row drawn as words at the text size (a plain str is an operator such as "=")."""


class Page(NamedTuple):
    fig: Figure
    look: Look
    cell_pt: float  # the side of a cell before layout, in points: an estimate for the ticks and panel titles
    numbers: list  # of Numbers


SLIDE_PAD = 0.25  # inches between a slide's edge and its ink
NOTEBOOK_PAD = 0.08  # the same in the normal layout (a notebook crops its figures to their ink)
AXES_PAD = 0.04  # inches around each axes' decorations (constrained layout's w_pad, h_pad)


def new_figure(look, size):  # -> Figure
    """An empty constrained-layout figure of `size` inches; `finish` keeps its title and caption clear of the rest."""
    fig = Figure(figsize=size, layout="constrained")
    fig.get_layout_engine().set(w_pad=AXES_PAD, h_pad=AXES_PAD, hspace=0.02, wspace=0.02)
    return fig


def new_page(look, width_cells, height_cells, extra_w=1.5, extra_h=1.2):
    """A constrained-layout figure: exactly 16:9 for slides, else at most NOTEBOOK_WIDTH wide, sized for a grid of
    cells plus room for labels."""
    if look.slides:
        cell = min((SLIDE_SIZE[0] - extra_w) / width_cells, (SLIDE_SIZE[1] - extra_h) / height_cells)
        return Page(new_figure(look, SLIDE_SIZE), look, 72 * cell, [])
    cell = float(np.clip(min((NOTEBOOK_WIDTH - extra_w) / width_cells, (MAX_HEIGHT - extra_h) / height_cells),
                         CELL_MIN, CELL_MAX))
    width = min(max(width_cells * cell + extra_w, MIN_WIDTH), NOTEBOOK_WIDTH)
    return Page(new_figure(look, (width, height_cells * cell + extra_h)), look, 72 * cell, [])


def page_with_table(look, width_cells, height_cells, least, need_pt, **extra):  # -> (Page, table row in cells)
    """A page (`new_page`) for heatmaps over a table: height_cells(row) is the height in cells with the table's
    rows `row` cells high; they are `least` cells high, or as high as holds need_pt points (its headers), the
    page's cell shrinking as the table grows. Sized for `least` alone, a table of T = 16 ran its headers together."""
    row = least
    for _ in range(3):
        page = new_page(look, width_cells, height_cells(row), **extra)
        if need_pt <= row * page.cell_pt:
            break
        row = need_pt / page.cell_pt
    return page, row


def caption_height(look, lines):  # -> inches from the bottom edge to above a caption of that many lines
    return (SLIDE_PAD if look.slides else NOTEBOOK_PAD) + lines * 1.4 * look.text / 72 + 0.1


def caption_wrapped(caption, look, width):  # -> [str]: a figure's caption as finish writes it on a figure that wide
    return wrap(caption, 0.92 * width * 72, look.text, look.family)


def keep_clear(fig, look, title, caption=None, inset=0.0):
    """Lay the figure out in the room between its title (at the top, framed or not) and its caption (at the
    bottom), a page pad from every edge, and `inset` inches more from the top and the bottom: constrained layout
    itself keeps only the text of a title clear."""
    edge = SLIDE_PAD if look.slides else NOTEBOOK_PAD
    W, H = fig.get_figwidth(), fig.get_figheight()
    top = bottom = edge
    if title is not None and title.get_text():
        frame = 0.25 * look.title / 72 if title.get_bbox_patch() is not None else 0.0
        title.set_y(1 - (edge + frame) / H)
        title.set_verticalalignment("top")
        lines = title.get_text().count("\n") + 1
        top = edge + 2 * frame + lines * 1.2 * look.title / 72 + 0.1
    if caption is not None:
        caption.set_y(edge / H)
        caption.set_verticalalignment("bottom")
        bottom = caption_height(look, caption.get_text().count("\n") + 1)
    fig.get_layout_engine().set(rect=(edge / W, (bottom + inset) / H, 1 - 2 * edge / W,
                                      max(1 - (top + bottom + 2 * inset) / H, 0.1)))


SLIDE_LABEL_SHARE = 0.6  # of the panel's nominal height a y label may take on a slide, under a wider title


def panel_heatmap(page, ax, matrix, kind, *, title=None, xlabel=None, ylabel=None, row_labels=None,
                  col_labels=None, vmin=None, vmax=None, title_cells=None, allowed=None):  # -> Drawn
    """A heatmap of the figure; its numbers are written by `finish`. Its title wraps to the panel's width
    (title_cells: that width in cells, when the panel is wider than its matrix), its y label to its height.
    allowed: the mask's allowed cells, for weights (cell_style's)."""
    cells = colors.cell_style(matrix, kind, vmin, vmax, allowed)
    if title:
        width = page.cell_pt * max(title_cells or 0, cells.rgba.shape[1], MIN_PANEL_WIDTH)
        title = "\n".join(wrap(title, width, page.look.text, page.look.family, page.look.slides))
    if ylabel:  # no taller than the panel, where it would reach its title (a heatmap of one or two rows); a
        # title wider than its panel reaches over the label's side, and a slide shrinks the cells below cell_pt
        overhang = title and max(width_em(line, tuple(page.look.family)) * page.look.text
                                 for line in title.split("\n")) > width
        height = page.cell_pt * cells.rgba.shape[0] * (SLIDE_LABEL_SHARE if overhang and page.look.slides else 1)
        ylabel = "\n".join(wrap(ylabel, height, page.look.text, page.look.family))
    drawn = draw_matrix(ax, cells, row_labels, col_labels, title, xlabel, ylabel, page.look.text)
    fit_ticks(ax, drawn, page.cell_pt, page.look._asdict())
    page.numbers.append(Numbers(ax, cells.labels, ink_colors(cells), label_boxes(cells), True, False, tokens=True))
    return drawn


def finish(page, title, too_many_note=None, caption=None):  # -> Figure
    """Lay the figure out, then write every number at the figure's one size.

    A heatmap whose cells cannot hold its numbers at the layout's smallest size goes without them, and the
    figure's title says so once. With too_many_note, a figure of more than MAX_ANNOTATED_CELLS cells leaves
    its heatmaps' numbers out (labelling them would take many seconds) and its title says that instead.
    caption: a line of text under the figure (a deck's slide), wrapped to the figure's width.
    """
    fig, look, numbers = page.fig, page.look, page.numbers
    if caption:
        caption = fig.text(0.5, 0, "\n".join(caption_wrapped(caption, look, fig.get_figwidth())), ha="center",
                           fontsize=look.text, linespacing=1.4)
    use_font(fig, look.family)
    if too_many_note is not None and sum(len(n.labels) * len(n.labels[0]) for n in numbers) > MAX_ANNOTATED_CELLS:
        add_note(title, too_many_note)
        numbers = [n for n in numbers if not n.note]

    def place(inset):
        keep_clear(fig, look, title, caption, inset)

    lay_out(fig, look.slides, place)  # every cell now has its final size, and the room left over is taken out
    tokens = [n.ax for n in page.numbers if n.tokens]
    if not numbers:
        return frozen(fig, tokens)

    def fit(n):
        return label_fontsize(*grid_points(n.ax, len(n.labels), len(n.labels[0])), n.labels, look._asdict(),
                              look.family)

    fits = [fit(n) for n in numbers]
    if any(f is None and n.note for n, f in zip(numbers, fits, strict=True)):
        add_note(title, look.words["fig_omitted_some"])
        lay_out(fig, look.slides, place)  # the note takes a line: lay out and measure again
        fits = [fit(n) if f is not None else None for n, f in zip(numbers, fits, strict=True)]
    size = max(min((f for f in fits if f is not None), default=look.number_min), look.number_min)
    for n, f in zip(numbers, fits, strict=True):
        if f is not None:
            write_labels(n.ax, n.labels, n.inks, n.boxes, size)
            if n.headers:  # a table whose row headers read as part of its numbers (Figure 5's "0.114 × V₁")
                n.ax.tick_params(axis="y", labelsize=size)
    use_font(fig, look.family)
    return frozen(fig, tokens)


def frozen(fig, tokens=()):  # -> fig, drawn from now on where one last layout placed everything
    """Lay the figure out once more, as its first draw used to (a table's row headers take the numbers' size after
    `lay_out`, and need the room), then keep that layout: a draw or a save runs none again. One layout of a large
    figure takes seconds (1–2 s of the all-heads figure at T = 16, h = 8), and every draw ran one; a second draw
    could also place things differently from the first.
    tokens: the heatmaps whose token numbers are thinned where this layout set them too close (and then it is run
    once more, for the room they left)."""
    fig.get_layout_engine().execute(fig)
    if any([thin_touching_ticks(ax) for ax in tokens]):  # a list: every heatmap thinned, not the first only
        fig.get_layout_engine().execute(fig)
    fig.set_layout_engine("none")
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


def caption_lines(ax, lines, look, width_pt=None):
    """Lines of explanation, centred in a text-only axes that constrained layout makes room for.

    A line wider than width_pt (default: 92% of the figure's width) is broken at spaces into lines of even
    length, so that no word is left alone on the last line (a dot product of dh = 8 terms, a mask's caption).
    """
    ax.axis("off")
    width_pt = width_pt or 0.92 * ax.figure.get_figwidth() * 72
    wrapped = [part for line in lines for part in wrap(line, width_pt, look.text, look.family)]
    return ax.text(0.5, 0.5, "\n".join(wrapped), ha="center", va="center", fontsize=look.text,
                   transform=ax.transAxes, linespacing=1.6)


def figure_title(fig, text, look, head=None):
    """The figure's title in the reader's language, wrapped to the figure's width (`finish` places it a page pad
    below the top edge and keeps it clear); a head's title is framed in the head's colour."""
    box = None if head is None else head_box(colors.head_color(head), pad=0.25)
    lines = wrap(text, 0.9 * fig.get_figwidth() * 72, look.title, look.family)
    return fig.suptitle("\n".join(lines), fontsize=look.title, bbox=box, y=1.0, va="top")


def shape_text(rows, cols):
    return f"{rows} × {cols}"


def titled(title, rows, cols):
    """A panel's title with its shape, in one pair of parentheses: "O = PV (output, 3 × 4)", "V₁ (3 × 4)"."""
    shape = shape_text(rows, cols)
    return f"{title[:-1]}, {shape})" if title.endswith(")") else f"{title} ({shape})"


def stage_title(name, lang):
    return words.say(f"stage.{name}", lang)


def head_matrix(name, head):  # "Q", 0 -> "Q₁": a head's own matrix, as the article writes Q₁, K₁ᵀ, V₁, O₁
    return f"{name}{formats.subscript(head + 1)}"


def trace_scales(tr):  # -> {kind: (vmin, vmax)}
    """One colour scale per kind for the whole trace (every head): so a matrix has the same colours in every
    figure (V in figures 1 and 5), and S and S / √dh compare. The weights' scale is [0, 1]."""
    found = {kind: [] for kind in colors.CMAPS}
    for stage in STAGES.values():
        found[stage.kind].append(stage.value(tr))
    return {kind: colors.value_range(kind, *matrices) for kind, matrices in found.items()}


# ---------------------------------------------------------------------------
# Text the figures print: the article's notation, in plain Unicode.


def exp_power(x):
    """'e¹' for a score x (e⁻∞ for a masked one), in Unicode superscripts: no mathtext."""
    return "e" + formats.superscript(formats.format_value(float(x), "scores"))


def join_terms(terms, per_line=4):
    """Join terms with " + ", starting a new line every per_line terms."""
    lines = [" + ".join(terms[n:n + per_line]) for n in range(0, len(terms), per_line)]
    return "\n+ ".join(lines) or "0"


def nested(spec, rows, cols, **kwargs):  # -> [SubplotSpec], the cells of a rows × cols grid in `spec`, row by row
    """A grid inside a cell of another, as `spec.subgridspec`; a grid of one cell is the cell itself. Each nested
    grid adds its own variables and constraints to constrained layout's solver, whose cost grows faster than their
    number: at T = 16, d = 64, h = 8, with two one-cell grids per head each layout of the all-heads figure took
    2.4–3.8 s, without them 1.0–2.2 s."""
    return [spec] if (rows, cols) == (1, 1) else list(spec.subgridspec(rows, cols, **kwargs))


def columns(spec, ratios, side=0.0, wspace=0.05):  # -> [SubplotSpec], one per ratio
    """Columns of `spec` in these width ratios, `side` (in the same units) left blank on either side.

    A blank narrower than half a percent of the row is left out: constrained layout counts a column of ratio
    1e-6 beside columns of 64 as zero wide and then refuses the whole figure ("axes sizes collapsed to zero").
    """
    blank = side > 0.005 * sum(ratios)
    # A grid even of one column (not `nested`): without it figure 1's lone H band takes more of the height than
    # its band was sized for, and the other bands less
    grid = spec.subgridspec(1, len(ratios) + 2 * blank, width_ratios=[side] * blank + list(ratios) + [side] * blank,
                            wspace=wspace)
    return [grid[0, n + blank] for n in range(len(ratios))]


def centred(page, spec, width_in):  # -> the middle of `spec`, width_in inches wide (or all of it, when narrower)
    """A part of a row as wide as what it holds, in the middle: heatmaps whose cells are limited by the height
    (a 16:9 slide) stay together instead of spreading over the width."""
    share = min(1.0, width_in / max(page.fig.get_figwidth() - 0.6, 0.1))
    if share > 0.97:
        return spec
    side = (1 - share) / 2
    return spec.subgridspec(1, 3, width_ratios=[side, share, side], wspace=0)[0, 1]


def panel_cells(columns, xlabel, look, cell_pt):  # -> how wide a heatmap's panel is, in cells
    """Its matrix's columns, and never less than MIN_PANEL_WIDTH (a 1- or 2-column matrix still needs room for
    its title) nor than its axis name (one word such as "component" cannot wrap)."""
    name = (width_em(xlabel, tuple(look.family)) * look.text + 4) / cell_pt if xlabel else 0.0
    return max(columns, MIN_PANEL_WIDTH, name)


def heatmap_row(page, spec, items):  # -> [Axes] of the heatmaps
    """Heatmaps left to right in `spec`, with operators between them; cells the same size in every panel.

    An item is (matrix, kind, keyword arguments), an operator string such as "+", or a number (a blank that wide).
    """
    def width(item):
        if isinstance(item, tuple):
            return panel_cells(item[0].shape[1], item[2].get("xlabel"), page.look, page.cell_pt)
        if isinstance(item, Words):
            return 2.0
        return OPERATOR_WIDTH if isinstance(item, str) else item

    grid = nested(spec, 1, len(items), width_ratios=[width(it) for it in items], wspace=0.05)
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
    ax.tick_params(length=0, pad=6, top=True, bottom=False, labeltop=True, labelbottom=False)
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
    finished Figure, laid out, with every number written at the figure's one size.

    The decorated function also takes caption= (text under the figure, e.g. a deck's slide; default none); a
    function that has a `caption` parameter of its own gets it too, to leave it room (`caption_height`).
    """
    takes_caption = "caption" in inspect.signature(make).parameters

    @functools.wraps(make)
    def finished(*args, caption=None, **kwargs):
        caption = None if caption is None else checks.text("caption", caption)
        made = make(*args, **kwargs, **({"caption": caption} if takes_caption else {}))
        if not (isinstance(made, tuple) and made and isinstance(made[0], Page)):
            raise TypeError(f"{make.__name__} must return (page, title[, note]) for @figure to finish it.")
        page, title, *note = made
        return finish(page, title, *(note or [None]), caption=caption)

    return finished
