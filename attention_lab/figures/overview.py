"""Figures of every stage: of one head, of every head, and the scaling figure of notebook 03.

"Every stage" is `pipeline.HEAD_STAGES`, the main path S … O in the pipeline's
order: a new stage of the pipeline is drawn here with no edit. The stages wrap
onto as many rows as give the largest cells (one row of seven panels leaves a
notebook's cells too small for 0.114; two rows hold it), and each panel's title
wraps to the panel's width. On slides, every head's stages that fit one 16:9
slide share it: `slide_groups` says which heads go on which slide.
"""

import math

import numpy as np

from ..look import colors, formats
from ..numeric.pipeline import HEAD_STAGES, STAGES
from .heatmap import (
    CELL_MAX,
    CELL_MIN,
    CHAR_EM,
    MIN_PANEL_WIDTH,
    MIN_WIDTH,
    NOTEBOOK_WIDTH,
    SLIDE_SIZE,
    check_head,
    check_trace,
    head_box,
    look_of,
    query_labels,
    width_em,
)
from .layout import (
    AXES_PAD,
    NOTEBOOK_PAD,
    SLIDE_PAD,
    Page,
    caption_height,
    caption_lines,
    caption_wrapped,
    centred,
    figure,
    figure_title,
    heatmap_row,
    nested,
    new_figure,
    new_page,
    operator,
    panel_cells,
    panel_heatmap,
    stage_title,
    trace_scales,
    wrap,
)

PANEL_GAP = 1.0  # cells between panels: room for the row numbers
MAX_NOTEBOOK_HEIGHT = 11.0
# On a slide, a title may reach 0.4 of the gap on each side (the row numbers are lower): half-way, two neighbours'
# titles touched (T = 1, all heads, Korean)
TITLE_REACH = 0.8 * PANEL_GAP


def _reach(look):  # -> cells a stage's title may reach beyond its panel (on a slide; a notebook's titles wrap more)
    return TITLE_REACH if look.slides else 0.0


def _columns(tr, name):
    return STAGES[name].matrix(tr, 0).shape[1]


def _axis_name(name, look):  # -> the stage's x label: Key tokens or the components of a row
    return look.words["component" if STAGES[name].axes[1] == "component" else "key"]


def _cells(tr, name, look, cell):  # -> how wide a stage's panel is, in cells of `cell` inches
    return panel_cells(_columns(tr, name), _axis_name(name, look), look, 72 * cell)


def _stage_items(tr, head, scales, look):
    """Every stage of one head (pipeline.HEAD_STAGES, S … O) as heatmap items, Query rows down."""
    def item(name):
        stage = STAGES[name]
        columns = dict(col_labels=[str(c + 1) for c in range(tr.dh)]) if stage.axes[1] == "component" else {}
        return (stage.matrix(tr, head), stage.kind,
                dict(title=stage_title(name, look.lang), vmin=scales[stage.kind][0], vmax=scales[stage.kind][1],
                     row_labels=query_labels(tr), xlabel=_axis_name(name, look), allowed=stage.allowed(tr),
                     **columns))

    return [item(name) for name in HEAD_STAGES]


def _need_pt(tr, heads, look, names=HEAD_STAGES):  # -> the side of a cell (points) that holds the stages' numbers
    def cells(name, i):  # -> {(value, allowed)} of the stage's matrix for head i
        matrix, allowed = STAGES[name].matrix(tr, i), STAGES[name].allowed(tr)
        seen = [None] * matrix.size if allowed is None else allowed.ravel().tolist()
        return set(zip(matrix.ravel().tolist(), seen, strict=True))

    labels = {formats.cell_label(x, STAGES[name].kind, a) for name in names for i in heads for x, a in cells(name, i)}
    widest = max(width_em(label, tuple(look.family)) for label in labels)
    return max((widest + 0.15) * look.number_min / 0.85, look.number_min / 0.6)


def _arrangement(tr, n_heads, look):  # -> (panels per row, rows per head, cell side in inches)
    """The fewest rows per head whose cells hold every number, within the page (16:9 slide or notebook); else the
    number of rows whose cells hold the numbers of the most stages, and of those the largest cells, a cell under
    CELL_MIN counting as CELL_MIN (so then the fewest rows: more rows would make the figure taller, not readable).
    In a notebook the cells are never under CELL_MIN where the width holds that much: the figure grows taller
    instead. Where it does not (T = 16 with h = 8), the cells are as wide as the width holds, and the panels, their
    titles and the figure's height are sized for those."""
    width, height = SLIDE_SIZE if look.slides else (NOTEBOOK_WIDTH, MAX_NOTEBOOK_HEIGHT)
    needs = [1.05 * _need_pt(tr, range(tr.h), look, [name]) / 72 for name in HEAD_STAGES]
    cap, least = (2 * CELL_MAX, 0.02) if look.slides else (CELL_MAX, CELL_MIN)
    options = []
    for rows in range(1, len(HEAD_STAGES) + 1):
        per_row = math.ceil(len(HEAD_STAGES) / rows)
        cell = cap
        for _ in range(3):  # the text depends on the cell (the titles' wrapping, the row numbers, the heads' names)
            widths = [_cells(tr, name, look, cell) + PANEL_GAP for name in HEAD_STAGES]
            row_cells = max(sum(widths[n:n + per_row]) for n in range(0, len(widths), per_row))
            label = _name_in(look, n_heads)[1 - _sideways(tr, look, cell, rows, n_heads)] if n_heads > 1 else 0.0
            across = (width - 0.6 - label) / row_cells  # the widest cell the page's width holds
            cell = min(across, cap,
                       (height - TITLE_IN * look.title - _text_in(tr, look, cell, rows, n_heads))
                       / (rows * n_heads * tr.T_q))
            # The height gives way below the least cell, the width cannot: a cell wider than the width holds is
            # drawn narrower by the layout all the same, beside a one-column panel drawn at the wider size and
            # under titles wrapped for it (they ran into each other), in a figure made too tall at first.
            cell = max(cell, min(least, across))
        kept = sum(cell >= need for need in needs)
        if kept == len(needs):
            return per_row, rows, cell
        options.append((kept, max(cell, least), per_row, rows, cell))
    *_, per_row, rows, cell = max(options)
    return per_row, rows, cell


TITLE_IN = 2 * 1.6 / 72  # the figure's title, two lines, in inches per point of its size


def _text_in(tr, look, cell, rows, n_heads):  # -> inches of text in the rows of n_heads heads' stages
    return sum(_head_heights(tr, look, cell, rows, n_heads)) - rows * n_heads * tr.T_q * cell


def _head_heights(tr, look, cell, rows, n_heads):  # -> inches of each head's block, its text included
    """Every head's rows of cells with their row numbers and pads, each block at least as tall as the head's name
    beside it; the titles (as wrapped) over the first head's rows and the axis names under the last head's
    (`_stage_rows`)."""
    t, pad = look.text, 2 * 72 * AXES_PAD
    lines = [len(wrap(stage_title(name, look.lang), 72 * cell * (_cells(tr, name, look, cell) + _reach(look)), t,
                      look.family, look.slides)) for name in HEAD_STAGES]
    per_row = math.ceil(len(HEAD_STAGES) / rows)
    titles = sum(1.25 * max(lines[n:n + per_row]) * t + 6 for n in range(0, len(lines), per_row))  # row by row
    tick = float(np.clip(0.6 * 72 * cell, look.tick_min, look.tick_max))
    block = rows * (tr.T_q * cell + (1.25 * tick + 0.6 * t + pad) / 72)
    if n_heads > 1 and _sideways(tr, look, cell, rows, n_heads):  # the head's name beside its rows
        block = max(block, _name_in(look, n_heads)[0])
    heights = [block] * n_heads
    heights[0] += titles / 72
    heights[-1] += rows * (1.25 * t + 4) / 72  # the axis names
    return heights


def _name_in(look, n_heads):  # -> (long side, short side) in inches of a head's framed name beside its rows
    return ((width_em(look.words["head_n"].format(n=n_heads), tuple(look.family)) + 1.2) * look.text / 72,
            2.2 * look.text / 72)


def _sideways(tr, look, cell, rows, n_heads):  # -> whether a head's name runs up beside its rows (else across)
    return rows * tr.T_q * cell >= 0.8 * _name_in(look, n_heads)[0]


def slide_groups(tr, lang="en"):  # -> [range of head indices], one per slide
    """Which heads share a 16:9 slide of the all-heads figure: as many as still hold every number at 10 pt."""
    tr, look = check_trace(tr), look_of(lang, True)
    k = tr.h
    while k > 1 and _arrangement(tr, k, look)[2] * 72 < _need_pt(tr, range(tr.h), look):
        k -= 1
    return [range(start, min(start + k, tr.h)) for start in range(0, tr.h, k)]


def _query_label(page, tr, alone):  # -> the rows' label, or None where it would reach the next head's rows
    word = max(page.look.words["query"].split(), key=len)
    fits = width_em(word, tuple(page.look.family)) * page.look.text <= 1.2 * tr.T_q * page.cell_pt
    return page.look.words["query"] if alone or fits else None


def _stage_rows(page, spec, tr, head, scales, per_row, first, last):
    """One head's stages in rows of per_row panels (titles on the first head's rows, axis names on the last's)."""
    items = _stage_items(tr, head, scales, page.look)
    rows = math.ceil(len(items) / per_row)
    grid = nested(spec, rows, 1, hspace=0.05)
    for r in range(rows):
        part = items[r * per_row:(r + 1) * per_row]
        # every head's panels as wide as the last head's, which carry the axis names
        width = sum(panel_cells(m.shape[1], kw["xlabel"], page.look, page.cell_pt) for m, _, kw in part)
        full = sum(panel_cells(m.shape[1], kw["xlabel"], page.look, page.cell_pt) for m, _, kw in items[:per_row])
        for m, _, kw in part:
            kw.update(title=kw["title"] if first else None, xlabel=kw["xlabel"] if last else None,
                      title_cells=panel_cells(m.shape[1], kw["xlabel"], page.look, page.cell_pt) + _reach(page.look))
        part[0][2]["ylabel"] = _query_label(page, tr, first and last)
        heatmap_row(page, grid[r], [*part, *([full - width] if full > width else [])])


def _page(look, tr, n_heads):  # -> (Page, per_row, rows)
    per_row, rows, cell = _arrangement(tr, n_heads, look)
    if look.slides:
        return new_page(look, 1, 1)._replace(cell_pt=72 * cell), per_row, rows
    height = TITLE_IN * look.title + rows * n_heads * tr.T_q * cell + _text_in(tr, look, cell, rows, n_heads)
    return Page(new_figure(look, (NOTEBOOK_WIDTH, height)), look, 72 * cell, []), per_row, rows


@figure
def figure_stages(tr, head=0, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Every stage of one head, S … O in the pipeline's order (T_q × T_k, and T_q × dh for O), in rows."""
    tr, look = check_trace(tr), look_of(lang, slides)
    head = check_head(tr, head)
    page, per_row, _ = _page(look, tr, 1)
    title = figure_title(page.fig, look.words["fig_stages_title"].format(n=head + 1), look, head)
    _stage_rows(page, page.fig.add_gridspec(1, 1)[0], tr, head, trace_scales(tr), per_row, True, True)
    return page, title, look.words["fig_too_many"]


@figure
def figure_all_heads(tr, *, lang="en", slides=False, heads=None):  # AttentionTrace -> Figure
    """Every stage of every head (or of `heads`, a range of head indices: one slide of `slide_groups`, and on a
    slide the first of them by default): a block of rows per head, named in a frame of its colour; one colour
    scale per kind for the whole trace."""
    tr, look = check_trace(tr), look_of(lang, slides)
    heads = _heads(tr, heads if heads is not None or not look.slides else slide_groups(tr, lang)[0])
    page, per_row, rows = _page(look, tr, len(heads))
    fig = page.fig
    title = figure_title(fig, look.words["fig_all_title"], look)
    scales = trace_scales(tr)
    full = sum(_cells(tr, name, look, page.cell_pt / 72) + PANEL_GAP for name in HEAD_STAGES[:per_row])
    sideways = _sideways(tr, look, page.cell_pt / 72, rows, len(heads))
    name = 72 * _name_in(look, len(heads))[1 - sideways] / page.cell_pt  # in cells
    # Every head's block as tall as it needs: the first carries the titles, the last the axis names.
    grid = fig.add_gridspec(len(heads), 2, width_ratios=[name, full], hspace=0.0,
                            height_ratios=_head_heights(tr, look, page.cell_pt / 72, rows, len(heads)))
    for n, i in enumerate(heads):
        label = fig.add_subplot(grid[n, 0])
        label.axis("off")
        label.text(0.5, 0.5, look.words["head_n"].format(n=i + 1), ha="center", va="center", fontsize=look.text,
                   rotation=90 if sideways else 0, transform=label.transAxes, bbox=head_box(colors.head_color(i)))
        _stage_rows(page, grid[n, 1], tr, i, scales, per_row, n == 0, n == len(heads) - 1)
    return page, title, look.words["fig_too_many"]


def _heads(tr, heads):  # -> range of head indices
    if heads is None:
        return range(tr.h)
    if not isinstance(heads, range) or heads.step != 1 or not heads or heads.start < 0 or heads.stop > tr.h:
        raise ValueError(f"heads: must be a non-empty range of head indices inside range(0, {tr.h}), e.g. range(0, 2) "
                         f"for Heads 1–2 (one slide of slide_groups(tr)); got {heads!r:.60}.")
    return heads


GROUP_GAP = 1.0  # cells between the two groups when they stand side by side


def _arrow_pt(look):  # the width of the "softmax →" between a group's panels, in points
    return width_em("softmax", tuple(look.family)) * look.text + 2 * 72 * AXES_PAD


def _header_pt(look):  # the height of a group's header line, in points
    return 1.3 * look.text


def _title_cells(tr, look, cell, scores):  # -> how wide a panel's title may be, in cells
    """A title is centred over its panel: the scores' may reach half-way over the arrow on its right (and as far
    over the row numbers on its left); the weights', at the page's edge, hardly past their panel."""
    reach = _arrow_pt(look) if scores else 2 * 72 * (SLIDE_PAD if look.slides else NOTEBOOK_PAD)
    return max(tr.T_k, MIN_PANEL_WIDTH) + reach / (72 * cell)


def _scaling_text(tr, look, cell):  # -> (width, height) inches of a group's text: row numbers, labels, titles, arrow
    t, pad = look.text, 2 * 72 * AXES_PAD
    tick = float(np.clip(0.6 * 72 * cell, look.tick_min, look.tick_max))
    row_numbers = CHAR_EM * len(str(tr.T_q + tr.T_k)) * tick + 2
    arrow = _arrow_pt(look)
    lines = max(len(wrap(stage_title(name, look.lang), 72 * cell * _title_cells(tr, look, cell, name[0] == "S"), t,
                         look.family, look.slides)) for name in ("S", "S_scaled", "P_unscaled", "P"))
    width = 1.2 * t + 4 + 2 * row_numbers + arrow + 2 * pad  # the y label, both panels' row numbers, the arrow
    height = _header_pt(look) + pad + lines * 1.2 * t + 6 + 1.2 * tick + 2 + 1.2 * t + 4 + 2 * pad  # … x label
    return width / 72, height / 72


def _scaling_cell(tr, look, across, title, caption):  # -> (cell side, (width, height) of the figure, its panels' width)
    """The two groups side by side (across) or one above the other, with the largest cells that fit (CELL_MAX in a
    notebook, twice that on a slide): exactly 16:9 on a slide, else the size of what it holds (its title wrapped
    to that width, at least MIN_WIDTH)."""
    side, edge = max(tr.T_k, MIN_PANEL_WIDTH), SLIDE_PAD if look.slides else NOTEBOOK_PAD
    cols, rows = (2, 1) if across else (1, 2)
    room_w, room_h = SLIDE_SIZE if look.slides else (NOTEBOOK_WIDTH, MAX_NOTEBOOK_HEIGHT)
    bottom = caption_height(look, len(caption_wrapped(caption, look, room_w))) if caption else edge
    cap = 2 * CELL_MAX if look.slides else CELL_MAX
    cell, width = cap, room_w
    for _ in range(3):  # the text's room depends on the cell (the row numbers' size, the titles' wrapping)
        text_w, text_h = _scaling_text(tr, look, cell)
        gap = (cols - 1) * GROUP_GAP * cell
        lines = len(wrap(title, 0.9 * 72 * width, look.title, look.family))
        top = edge + 2 * 0.25 * look.title / 72 + lines * 1.2 * look.title / 72 + 0.1  # the title in its frame
        cell = min(cap, (room_w - 2 * edge - cols * text_w - gap) / (cols * 2 * side),
                   (room_h - top - bottom - rows * text_h) / (rows * tr.T_q))
        block = cols * (text_w + 2 * side * cell) + gap
        if not look.slides:
            width = min(max(2 * edge + block, MIN_WIDTH), room_w)
    return cell, SLIDE_SIZE if look.slides else (width, top + bottom + rows * (text_h + tr.T_q * cell)), block


ACROSS = 1.1  # side by side only where that gives cells this much larger: one above the other compares best


@figure
def figure_scaling(tr, head=0, *, lang="en", slides=False, caption=None):  # AttentionTrace -> Figure
    """Notebook 03: S and S / √dh, and the weights each gives: P_unscaled = softmax(S + M) and P (T_q × T_k each).

    Two groups on one colour scale, each under its header: without the scale, S → softmax → P_unscaled; with it,
    S / √dh → softmax → P. One above the other, or side by side where that gives much larger cells (a 16:9 slide
    with a caption under it).
    """
    tr, look = check_trace(tr), look_of(lang, slides)
    head = check_head(tr, head)
    W, T_q, T_k = look.words, tr.T_q, tr.T_k
    side = max(T_k, MIN_PANEL_WIDTH)
    title = W["fig_scaling_title"].format(n=head + 1, dh=tr.dh, root=formats.format_value(np.sqrt(tr.dh)))
    across = _scaling_cell(tr, look, True, title, caption)[0] > ACROSS * _scaling_cell(tr, look, False, title,
                                                                                       caption)[0]
    cell, size, block = _scaling_cell(tr, look, across, title, caption)
    page = Page(new_figure(look, size), look, 72 * cell, [])
    fig = page.fig
    title = figure_title(fig, title, look, head)
    body = centred(page, fig.add_gridspec(1, 1)[0], block)  # a slide whose height limits the cells: the middle
    arrow, header = _arrow_pt(look) / page.cell_pt, _header_pt(look) / page.cell_pt  # in cells
    group = [side, arrow, side]
    widths = [*group, GROUP_GAP, *group] if across else group
    grid = body.subgridspec(2 if across else 4, len(widths), width_ratios=widths,
                            height_ratios=[header, T_q] * (1 if across else 2))
    scales, rows = trace_scales(tr), query_labels(tr)
    for n, (header, scores, weights) in enumerate(((W["fig_scaling_without"], "S", "P_unscaled"),
                                                   (W["fig_scaling_with"], "S_scaled", "P"))):
        r, c = (0, 4 * n) if across else (2 * n, 0)
        caption_lines(fig.add_subplot(grid[r, c:c + 3]), [header], look)
        panel_heatmap(page, fig.add_subplot(grid[r + 1, c]), STAGES[scores].matrix(tr, head), "scores",
                      title=stage_title(scores, look.lang), vmin=scales["scores"][0], vmax=scales["scores"][1],
                      xlabel=W["key"], ylabel=W["query"], row_labels=rows,
                      title_cells=_title_cells(tr, look, cell, True))
        operator(fig.add_subplot(grid[r + 1, c + 1]), "softmax\n→", look, look.text)
        panel_heatmap(page, fig.add_subplot(grid[r + 1, c + 2]), STAGES[weights].matrix(tr, head), "weights",
                      title=stage_title(weights, look.lang), xlabel=W["key"], row_labels=rows,
                      title_cells=_title_cells(tr, look, cell, False), allowed=STAGES[weights].allowed(tr))
    return page, title
