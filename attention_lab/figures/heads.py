"""Figure 1 of the article: Q, K, V split into heads, Core Attention in each head, Concat into H.

Read top to bottom in the article's order, in bands, each under its step's header:

    1. Q  K  V            each head's columns framed in its colour
    2. O₁ … Oₕ  →  H      one per head, each framed and named in its colour; then Concat

The first of these arrangements whose cells hold every number at the layout's smallest size (7 pt in a notebook,
10 pt on a slide) is drawn, else the one that comes closest (what does not fit is left out and the title says so):

    Q K V / O₁ … Oₕ H      two bands (the article's example on a slide or in a notebook)
    Q K V / O₁ … Oₕ / H    three bands: the outputs' decimals get the page's width
    Q / K / V / O₁ … Oₕ / H   Q, K and V one above the other (d = 16, h = 4 in notebook 01)

Each band's cells are as large as its width allows, so the integers of Q, K, V and the decimals of O and H each
get the room they need.
"""

from typing import NamedTuple

from ..look import colors, formats
from .heatmap import NOTEBOOK_WIDTH, SLIDE_SIZE, check_trace, head_box, look_of, outline, query_labels, width_em
from .layout import (
    AXES_PAD,
    NOTEBOOK_PAD,
    SLIDE_PAD,
    Page,
    caption_lines,
    columns,
    figure,
    figure_title,
    head_matrix,
    new_figure,
    panel_heatmap,
    shape_text,
    trace_scales,
)

TICKS_IN = 0.3  # inches a panel's row numbers take
GAP = 0.4  # cells between the panels of a band
ARRANGEMENTS = ((("QKV",), ("O", "H")), (("QKV",), ("O",), ("H",)), (("Q",), ("K",), ("V",), ("O",), ("H",)))


def _text_pt(part, look):  # -> the points a panel's text takes above and below its cells
    t, k, pad = look.text, look.tick_max, 2 * 72 * AXES_PAD
    below = 1.2 * k + 1.2 * t + 8
    above = 3.2 * t + 4 if part == "O" else 3.1 * t + 12  # O: two lines in a frame; others: a line, heads named
    return above + below + pad


class Band(NamedTuple):
    parts: tuple  # of "QKV", "Q", "K", "V", "O", "H"
    cell: float  # the side of its cells, in inches
    height: float  # inches, its text included


def _need(labels, size, family):  # -> the side of a cell (inches) that holds every label at `size` points
    widest = max(width_em(label, tuple(family)) for label in labels)
    return 1.08 * max((widest + 0.15) * size / 0.85, size / 0.6) / 72  # 8% spare: layout rounds


def _title_in(look):  # the figure's title (one line) and its margins, in inches
    return (SLIDE_PAD if look.slides else NOTEBOOK_PAD) + 1.2 * look.title / 72 + 0.1


def _header_in(look):
    return (1.3 * look.text + 2 * 72 * AXES_PAD) / 72


def arrangement(tr, look):  # -> [Band]
    """The bands of figure 1 and their cells, as large as the page allows: the first arrangement that holds
    every number, else the one that comes closest."""
    T_q, T_k, d, h, dh, g = tr.T_q, tr.T_k, tr.d, tr.h, tr.dh, tr.kv_heads
    edge = SLIDE_PAD if look.slides else NOTEBOOK_PAD
    width = (SLIDE_SIZE[0] if look.slides else NOTEBOOK_WIDTH) - 2 * edge - 0.1
    most = (SLIDE_SIZE[1] - edge) if look.slides else 11.0 + 0.25 * max(tr.T_q + 2 * tr.T_k - 9, 0)
    cap = 0.9 if look.slides else 0.5
    inputs = [formats.format_value(x) for X in (tr.Q, tr.K, tr.V) for x in set(X.ravel().tolist())]
    outputs = [formats.format_value(x) for X in (tr.O, tr.H) for x in set(X.ravel().tolist())]
    need = {"QKV": _need(inputs, look.number_min, look.family), "O": _need(outputs, look.number_min, look.family)}
    need.update(Q=need["QKV"], K=need["QKV"], V=need["QKV"], H=need["O"])
    columns = {"QKV": [d, g * dh, g * dh], "Q": [d], "K": [g * dh], "V": [g * dh], "O": [dh] * h, "H": [d]}
    rows = {"QKV": T_k, "Q": T_q, "K": T_k, "V": T_k, "O": T_q, "H": T_q}
    options = []
    for parts_of_bands in ARRANGEMENTS:
        cells, texts = [], []
        for parts in parts_of_bands:
            cols = [c for part in parts for c in columns[part]]
            cells.append(min(cap, (width - TICKS_IN * (1 + len(parts))) / (sum(cols) + GAP * len(cols))))
            texts.append(max(_text_pt(part, look) for part in parts) / 72)
        heights = [max(rows[p] for p in parts) for parts in parts_of_bands]
        spare = most - _title_in(look) - len(parts_of_bands) * _header_in(look) - sum(texts)
        needs = [max(need[p] for p in parts) for parts in parts_of_bands]
        cells = _fit_height(cells, heights, needs, max(spare, 0.1))
        bands = [Band(parts, c, c * r + t)
                 for parts, c, r, t in zip(parts_of_bands, cells, heights, texts, strict=True)]
        room = min(b.cell / max(need[p] for p in b.parts) for b in bands)
        if room >= 1:
            return bands
        options.append((room, min(b.cell for b in bands), bands))
    # None holds every number: the one that holds most of them, unless its smallest cells are hair-thin.
    usable = [o for o in options if o[1] >= 0.06] or options
    return max(usable, key=lambda option: (option[0], option[1]))[2]


def _fit_height(cells, rows, needs, spare):  # -> cells (inches) whose bands fit `spare` inches of height
    """Make the bands fit the height: first take from the bands whose cells are larger than their numbers need
    (Q, K, V's integers need less room than O's decimals), then from all alike."""
    cells = list(cells)
    for _ in range(8):
        excess = sum(c * r for c, r in zip(cells, rows, strict=True)) - spare
        flexible = [i for i, (c, n) in enumerate(zip(cells, needs, strict=True)) if c > n * 1.001]
        if excess <= 1e-9 or not flexible:
            break
        room = sum((cells[i] - needs[i]) * rows[i] for i in flexible)
        take = min(1.0, excess / room)
        for i in flexible:
            cells[i] -= take * (cells[i] - needs[i])
    total = sum(c * r for c, r in zip(cells, rows, strict=True))
    return [c * min(1.0, spare / total) for c in cells]


@figure
def figure_heads(tr, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 1: Q, K, V (T × d) split into heads → Core Attention in each head → O_i (T × dh) → Concat → H (T × d)."""
    tr, look = check_trace(tr), look_of(lang, slides)
    W = look.words
    bands = arrangement(tr, look)
    heights = [h for b in bands for h in (_header_in(look), b.height)]
    fig = new_figure(look, SLIDE_SIZE if look.slides else (NOTEBOOK_WIDTH, sum(heights) + _title_in(look)))
    title = figure_title(fig, W["fig_heads_title"], look)
    scales = trace_scales(tr)["values"]
    grid = fig.add_gridspec(len(heights), 1, height_ratios=heights)
    page = Page(fig, look, 72 * bands[0].cell, [])
    headers = {"QKV": W["fig_heads_split"], "Q": W["fig_heads_split"],
               "O": f"{W['fig_heads_core']}:  Oᵢ = softmax(QᵢKᵢᵀ / √dh + M) Vᵢ", "H": W["fig_heads_concat"]}
    for n, band in enumerate(bands):
        header = " → ".join(headers[p] for p in band.parts if p in headers)
        if header:
            caption_lines(fig.add_subplot(grid[2 * n]), [("" if n == 0 else "↓  ") + header], look)
        else:
            fig.add_subplot(grid[2 * n]).axis("off")
        _band(page._replace(cell_pt=72 * band.cell), tr, grid[2 * n + 1], band.parts, scales)
    return page, title, W["fig_too_many"]


def _band(page, tr, spec, parts, scales):
    """One band's panels left to right, cells of one size: Q, K, V (or one of them), O₁ … Oₕ, H."""
    d, g, dh, h = tr.d, tr.kv_heads, tr.dh, tr.h
    widths = {"QKV": [d, g * dh, g * dh], "Q": [d], "K": [g * dh], "V": [g * dh], "O": [dh] * h, "H": [d]}
    ratios = [w + GAP for part in parts for w in widths[part]]
    spare = max(0.0, (max(d, h * dh) + GAP * (h if "O" in parts else 1)) - sum(ratios)) / 2
    cells = columns(spec, ratios, spare)
    n = 0
    for part in parts:
        if part == "O":
            _outputs(page, tr, cells[n:n + h], scales)
        elif part == "H":
            _concat(page, tr, cells[n], scales, tr.H)
        else:
            names = "QKV" if part == "QKV" else part
            _inputs(page, tr, [(name, getattr(tr, name), cells[n + k]) for k, name in enumerate(names)], scales,
                    ylabel_all=part != "QKV")
        n += len(widths[part])


def _inputs(page, tr, specs, scales, ylabel_all):
    """Q, K, V, each in its own gridspec cell; each head's columns framed in its colour, Q's heads named."""
    look, W = page.look, page.look.words
    for n, (name, X, spec) in enumerate(specs):
        ax = page.fig.add_subplot(spec)
        rows = query_labels(tr) if name == "Q" else None
        panel_heatmap(page, ax, X, "values", title=f"{name} ({shape_text(*X.shape)})", row_labels=rows,
                      col_labels=colors.token_labels(X.shape[1]), vmin=scales[0], vmax=scales[1],
                      xlabel=W["component"], ylabel=W["token"] if n == 0 or ylabel_all else None)
        # K and V have kv_heads blocks; block n serves Query heads n·h/kv_heads, …: framed in the first one's colour.
        _frame_heads(ax, X.shape[1] // tr.dh, tr.dh, X.shape[0], look, page.cell_pt * tr.dh, tr.h)


def _outputs(page, tr, specs, scales):
    """O₁ … Oₕ side by side, each framed and named in its head's colour."""
    look, W, dh = page.look, page.look.words, tr.dh
    O = tr.O
    for i, spec in enumerate(specs):
        ax = page.fig.add_subplot(spec)
        named, matrix = W["head_n"].format(n=i + 1), f"{head_matrix('O', i)} ({shape_text(tr.T_q, dh)})"
        if width_em(matrix, tuple(look.family)) * look.text > 1.1 * page.cell_pt * (dh + GAP):
            matrix = head_matrix("O", i)
        panel_heatmap(page, ax, O[i], "values", title=f"{named}\n{matrix}", row_labels=query_labels(tr),
                      col_labels=colors.token_labels(dh), vmin=scales[0], vmax=scales[1], xlabel=W["component"],
                      ylabel=W["token"] if i == 0 else None)
        ax.title.set_bbox(head_box(colors.head_color(i), pad=0.2))
        outline(ax, 0, 0, tr.T_q, dh, color=colors.head_color(i), linewidth=3)
        if i:
            ax.tick_params(labelleft=False)


def _concat(page, tr, spec, scales, H):
    ax = page.fig.add_subplot(spec)
    panel_heatmap(page, ax, H, "values", title=f"H = Concat ({shape_text(*H.shape)})", row_labels=query_labels(tr),
                  col_labels=colors.token_labels(tr.d), vmin=scales[0], vmax=scales[1], xlabel=page.look.words[
                      "component"], ylabel=page.look.words["token"])
    _frame_heads(ax, tr.h, tr.dh, tr.T_q, page.look, page.cell_pt * tr.dh, tr.h)


def _frame_heads(ax, blocks, dh, rows, look, label_pt, h):
    """Frame each head's dh columns of a (rows, blocks·dh) heatmap in the head's colour; name them above the frames.

    blocks: h for Q and H, g for K and V (a K/V head takes the colour of the first of the h Query heads it serves).
    label_pt: the width of one head's columns in points. A head is named "Head 1" where that fits, "1" where only
    its number does, and not at all where neither does.
    """
    for n in range(blocks):
        outline(ax, 0, n * dh, rows, dh, color=colors.kv_head_color(n, h, blocks), linewidth=3)
    name = look.words["head_n"]
    if width_em(name.format(n=blocks), tuple(look.family)) * look.text + 12 > label_pt:
        name = "{n}"
        if width_em(str(blocks), tuple(look.family)) * look.text + 12 > label_pt:
            return
    for n in range(blocks):
        ax.annotate(name.format(n=n + 1), xy=(n * dh + dh / 2 - 0.5, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(0, 6), textcoords="offset points", ha="center", va="bottom", fontsize=look.text,
                    bbox=head_box(colors.kv_head_color(n, h, blocks), pad=0.2))
    ax.set_title(ax.get_title(), fontsize=look.text, pad=1.9 * look.text + 6)
