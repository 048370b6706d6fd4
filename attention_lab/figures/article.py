"""The article's five figures, in Korean or English, normal or on a 16:9 slide.

    fig = al.plotting.figure_softmax(tr, head=0, row=2, lang="ko")    # Figure 4, in Korean
    fig = al.plotting.figure_heads(tr, lang="en", slides=True)        # Figure 1 on a 13.33 × 7.5 in slide

Each takes a trace and returns a matplotlib Figure; head, query, key and row
are 0-based indices (bool refused), while the figures show 1-based token
numbers. query, key and row default to the article's tokens (Query token 3,
Key token 1, row 3), or the last token when T is smaller. Nothing here
computes attention: every matrix is read from the trace. Figures 4 and 5
evaluate exp(score) and P[i, j]·V[j] for display only, because showing those
steps is what those figures teach; the weights and outputs they arrive at are
still read from `tr.P` and `tr.O`.
"""

import numpy as np

from ..look import colors, formats
from ..look.formats import format_approx
from ..numeric import checks, core
from ..numeric.pipeline import STAGES
from .heatmap import (
    MIN_PANEL_WIDTH,
    OPERATOR_WIDTH,
    check_head,
    check_trace,
    head_box,
    look_of,
    outline,
    token_index,
    width_em,
)
from .layout import (
    TABLE_CELL_WIDTH,
    Words,
    caption_lines,
    exp_power,
    figure,
    figure_title,
    heatmap_row,
    join_terms,
    new_page,
    number_table,
    operator,
    panel_heatmap,
    shape_text,
    stage_title,
    wrap,
)

# ---------------------------------------------------------------------------
# The article's figures. Each takes a trace and returns a Figure; head, query,
# key and row are 0-based indices (bool refused), while the figures show
# 1-based token numbers. query, key and row default to the article's tokens
# (Query token 3, Key token 1, row 3), or the last token when T is smaller.


@figure
def figure_heads(tr, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 1: Q, K, V (T × d) split into heads → Core Attention in each head → O_i (T × dh) → Concat → H (T × d)."""
    tr, look = check_trace(tr), look_of(lang, slides)
    W, T, d, h, dh = look.words, tr.T, tr.d, tr.h, tr.dh
    Q, K, V, H, O = tr.Q, tr.K, tr.V, tr.H, tr.O  # each read once: a trace field is a fresh copy per read
    vmin, vmax = colors.value_range("values", Q, K, V, H)
    # Q, K, V hold small integers, O and H decimals: their cells are sized for what they hold.
    qkv, out = _cell_scale(look.family, Q, K, V), _cell_scale(look.family, O, H)
    # Widths in cells (constrained layout adds the room for row numbers and labels to these).
    # Up to two heads stack in one column; more sit in two columns, so their titles take half the height.
    per_col = 1 if h <= 2 else 2
    arrow, left, middle, right = 1.5, max(d * qkv, 4.0), per_col * max(dh * out, 4.0), max(d * out, 5.0)
    rows = max(3 * (T * qkv + 2), -(-h // per_col) * (T * out + 2), T * out + 2)
    width = left + middle + 2 * arrow + right
    page = new_page(look, width + 3, rows + 3, extra_w=1.0, extra_h=1.5)
    fig = page.fig
    title = figure_title(fig, f"{W['fig_heads_title']}\n"
                        r"$O_i = \mathrm{softmax}(Q_iK_i^\top/\sqrt{d_h} + M)\,V_i$", look)
    header = (1 if per_col == 1 else 2) * 1.6 * look.text / page.cell_pt  # its lines' height, in cells
    grid = fig.add_gridspec(2, 5, width_ratios=[left, arrow, middle, arrow, right], height_ratios=[header, rows])
    core = W["fig_heads_core"] + ("" if per_col == 1 else f"\n$O_i$  {shape_text(T, dh)}")
    for cols, words in ((slice(0, 2), W["fig_heads_split"]), (slice(2, 4), core),
                        (slice(4, 5), W["fig_heads_concat"])):
        # Out of the layout: a header as wide as its columns must not widen them (the cells set the widths).
        caption_lines(fig.add_subplot(grid[0, cols]), [words], look).set_in_layout(False)
    operator(fig.add_subplot(grid[1, 1]), "→", look, 2 * look.operator)
    operator(fig.add_subplot(grid[1, 3]), "→", look, 2 * look.operator)
    components = colors.token_labels(d)
    common = dict(vmin=vmin, vmax=vmax, ylabel=W["token"], xlabel=W["component"])
    # How wide one head's columns will be, in points: wide enough for "Head 1", or only for "1", or neither.
    block_pt = 0.8 * fig.get_figwidth() * 72 * dh / width

    # 1. Q, K, V one above the other, each head's columns framed in its colour.
    stack = grid[1, 0].subgridspec(3, 1)
    for n, (name, X) in enumerate((("Q", Q), ("K", K), ("V", V))):
        ax = fig.add_subplot(stack[n])
        panel_heatmap(page, ax, X, "values", title=f"${name}$  {shape_text(T, X.shape[1])}",
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
        head_title = W["head_n"].format(n=i + 1) + (f"\n$O_{{{i + 1}}}$  {shape_text(T, dh)}" if per_col == 1 else "")
        if per_col > 1 and width_em(head_title, tuple(look.family)) * look.text + 12 > block_pt * out:
            head_title = str(i + 1)
        panel_heatmap(page, ax, O[i], "values", title=head_title, col_labels=colors.token_labels(dh),
                       **{**common, "ylabel": common["ylabel"] if i % per_col == 0 else None})
        ax.title.set_bbox(head_box(colors.head_color(i)))
        outline(ax, 0, 0, T, dh, color=colors.head_color(i), linewidth=3)

    # 3. Concat: H, each head's columns back in place.
    ax = fig.add_subplot(grid[1, 4].subgridspec(3, 1, height_ratios=[1, 4, 1])[1])  # centred, as tall as it needs
    panel_heatmap(page, ax, H, "values", title=f"$H$ = Concat  {shape_text(T, d)}", col_labels=components, **common)
    _frame_heads(ax, h, dh, T, look, label=block_pt * out, h=h)
    return page, title, W["fig_too_many"]


def _cell_scale(family, *matrices):
    """A cell width, in cells that fit "0.42", that holds the widest number of these matrices."""
    widest = max(width_em(formats.format_value(float(x)), tuple(family)) for m in matrices for x in np.unique(m))
    return max(0.6, (widest + 0.15) / (width_em("0.42", tuple(family)) + 0.15))


def _frame_heads(ax, blocks, dh, T, look, label, h):
    """Frame each head's dh columns of a (T, blocks·dh) heatmap in the head's colour; name them above the frames.

    blocks: h for Q and H, g for K and V (a K/V head takes the colour of the first of the h Query heads it serves).

    label: the width of one head's columns in points (an estimate), or False for frames only. A head is named
    "Head 1" where that fits, "1" where only its number does, and not at all where neither does.
    """
    for n in range(blocks):
        outline(ax, 0, n * dh, T, dh, color=colors.kv_head_color(n, h, blocks), linewidth=3)
    if not label:
        return
    name = look.words["head_n"]
    if width_em(name.format(n=blocks), tuple(look.family)) * look.text + 12 > label:
        name = "{n}"
        if width_em(str(blocks), tuple(look.family)) * look.text + 12 > label:
            return
    for n in range(blocks):
        ax.annotate(name.format(n=n + 1), xy=(n * dh + dh / 2 - 0.5, 1.0), xycoords=("data", "axes fraction"),
                    xytext=(0, 6), textcoords="offset points", ha="center", va="bottom", fontsize=look.text,
                    bbox=head_box(colors.kv_head_color(n, h, blocks)))
    ax.set_title(ax.get_title(), fontsize=look.text, pad=2.4 * look.text + 8)


@figure
def figure_scores(tr, head=0, query=None, key=None, *, lang="en", slides=False, scaled=True):  # trace -> Figure
    """Figure 2: Q_i × K_iᵀ = S (T × T) for one head, one score explained as a dot product, then S / √dh.

    scaled=False leaves the division by √dh out (notebook 02 shows S before notebook 03 teaches the scale).
    """
    tr, look, scaled = check_trace(tr), look_of(lang, slides), checks.boolean("scaled", scaled)
    head = check_head(tr, head)
    query, key = token_index(tr, query, "query", 2), token_index(tr, key, "key", 0)
    W, T, dh = look.words, tr.T, tr.dh
    Qh, Kh = STAGES["Qh"].matrix(tr, head), STAGES["Kh"].matrix(tr, head)  # (T, dh): K/V head of this head
    S, S_scaled = tr.S[head], tr.S_scaled[head]
    vmin, vmax = colors.value_range("scores", S, S_scaled)  # shared: the scaling shows
    qk_min, qk_max = colors.value_range("values", Qh, Kh)
    n = head + 1
    items = [
        (Qh, "values", dict(title=f"$Q_{{{n}}}$  {shape_text(T, dh)}", vmin=qk_min, vmax=qk_max, ylabel=W["query"],
                            xlabel=W["component"], col_labels=colors.token_labels(dh))),
        r"$\times$",
        (Kh.T, "values", dict(title=rf"$K_{{{n}}}^\top$  {shape_text(dh, T)}", vmin=qk_min, vmax=qk_max,
                              xlabel=W["key"], ylabel=W["component"], row_labels=colors.token_labels(dh))),
        "=",
        (S, "scores", dict(title=stage_title("S", look.lang), vmin=vmin, vmax=vmax, ylabel=W["query"],
                           xlabel=W["key"])),
        rf"$\div\sqrt{{{dh}}}$",
        (S_scaled, "scores", dict(title=stage_title("S_scaled", look.lang), vmin=vmin, vmax=vmax,
                                  xlabel=W["key"])),
    ][:None if scaled else -2]
    width = 2 * dh + (2 * T + 3 * OPERATOR_WIDTH if scaled else T + 2 * OPERATOR_WIDTH) + 3
    page = new_page(look, width, max(T, dh) + 3, extra_w=2, extra_h=1.8)
    fig = page.fig
    title = figure_title(fig, W["fig_scores_title"].format(n=n), look, head)
    grid = fig.add_gridspec(2, 1, height_ratios=[max(T, dh) + 1, 1.5])
    axes = heatmap_row(page, grid[0], items)
    outline(axes[0], query, 0, 1, dh)
    outline(axes[1], 0, key, dh, 1)
    for ax in axes[2:]:  # S, and S / √dh when shown
        outline(ax, query, key)

    i, j = query + 1, key + 1
    score = S[query, key]
    lines = [
        W["fig_scores_vectors"].format(i=i, j=j, q=formats.format_row(Qh[query]), k=formats.format_row(Kh[key])),
        W["fig_scores_dot"].format(i=i, j=j, terms=formats.dot_product_text(Qh[query], Kh[key]),
                                   score=formats.format_value(score, "scores")),
    ]
    if scaled:
        lines.append(f"S[{i}, {j}] / \u221a{dh} = {formats.format_value(score, 'scores')} / "
                     f"{formats.format_value(np.sqrt(dh))} = {formats.format_value(S_scaled[query, key], 'scores')}")
    caption_lines(fig.add_subplot(grid[1]), lines, look)
    return page, title


@figure
def figure_mask(tr, head=0, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 3: S / √dh (T × T), the mask M (0 and −∞) and their sum S / √dh + M, for one head."""
    tr, look = check_trace(tr), look_of(lang, slides)
    head = check_head(tr, head)
    W, T = look.words, tr.T
    S_scaled, S_masked = tr.S_scaled[head], tr.S_masked[head]
    vmin, vmax = colors.value_range("scores", S_scaled)
    kw = dict(vmin=vmin, vmax=vmax, xlabel=W["key"])
    items = [
        (S_scaled, "scores", dict(title=stage_title("S_scaled", look.lang), ylabel=W["query"], **kw)), "+",
        (tr.M, "scores", dict(title=stage_title("M", look.lang), **kw)), "=",
        (S_masked, "scores", dict(title=stage_title("S_masked", look.lang), **kw)),
    ]
    width = 3 * max(T, MIN_PANEL_WIDTH) + 2 * OPERATOR_WIDTH
    page = new_page(look, width, T + 3, extra_w=2, extra_h=1.8)
    fig = page.fig
    title = figure_title(fig, W["fig_mask_title"].format(n=head + 1), look, head)
    grid = fig.add_gridspec(2, 1, height_ratios=[T + 1, 1.2])
    heatmap_row(page, grid[0], items)
    caption = look.words[f"mask.{tr.mask_name}.caption"]
    params = ", ".join(f"{look.words[f'param.{tr.mask_name}.{p.name}']} = {p.text(value)}"
                       for p, value in tr.mask.items())
    caption_lines(fig.add_subplot(grid[1]), [f"{caption} ({params})" if params else caption, W["fig_mask_rule"]], look)
    return page, title


@figure
def figure_softmax(tr, head=0, row=None, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 4: one row of S / √dh + M, its exponentials, their sum and the weights (that row of P), as a table."""
    tr, look = check_trace(tr), look_of(lang, slides)
    head, row = check_head(tr, head), token_index(tr, row, "row", 2)
    W, T = look.words, tr.T
    S_masked, P = tr.S_masked[head], tr.P[head]
    scores, weights = S_masked[row], P[row]  # (T,), the weights read from the trace, not recomputed
    exps = core.exponentials(scores)  # (T,) e^s as the article writes them; e^−∞ = 0
    total = float(exps.sum())
    vmin, vmax = colors.value_range("scores", S_masked)
    i = row + 1

    beside = T <= 3  # the article's size: the table to the right of the heatmaps (16:9); larger T: below them
    heat_w, table_w = 2 * max(T, MIN_PANEL_WIDTH) + 2, TABLE_CELL_WIDTH * (T + 1) * 0.8
    width = heat_w + table_w if beside else max(heat_w, table_w)
    height = max(T, 4) + 2 if beside else T + 7
    page = new_page(look, width, height, extra_w=2, extra_h=1.5)
    fig = page.fig
    title = figure_title(fig, W["fig_softmax_title"].format(n=head + 1), look, head)
    grid = (fig.add_gridspec(1, 2, width_ratios=[heat_w, table_w]) if beside
            else fig.add_gridspec(2, 1, height_ratios=[T + 1, 0.45 * (T + 1) + 3]))
    s_ax, p_ax = heatmap_row(page, grid[0], [
        (S_masked, "scores", dict(title=stage_title("S_masked", look.lang), vmin=vmin, vmax=vmax,
                                  ylabel=W["query"], xlabel=W["key"])),
        Words(W["fig_softmax_by_row"] + "\n→"),
        (P, "weights", dict(title=stage_title("P", look.lang).split(" = ")[0], xlabel=W["key"])),
    ])
    outline(s_ax, row, 0, 1, T)
    outline(p_ax, row, 0, 1, T)

    # The chosen row, step by step, as a table: scores, e to the score, its value, the weights of that row of P.
    score_cells = colors.cell_style(scores[None, :], "scores", vmin, vmax)
    weight_cells = colors.cell_style(weights[None, :], "weights")
    sum_of_weights = formats.format_value(float(weights.sum()), "weights")
    labels = [
        [*score_cells.labels[0], ""],
        [*(exp_power(x) for x in scores), ""],
        [*(format_approx(float(e)) for e in exps), format_approx(total)],
        [*weight_cells.labels[0], sum_of_weights],
    ]
    white = (1.0, 1.0, 1.0, 1.0)
    fills = [[*map(tuple, score_cells.rgba[0]), white], [white] * (T + 1), [white] * (T + 1),
             [*map(tuple, weight_cells.rgba[0]), white]]
    headers = [W["fig_softmax_scores"], "$e^{s}$", W["fig_softmax_value"],
               W["fig_softmax_weights"].format(total=format_approx(total))]
    table_title = W["fig_softmax_table"].format(i=i)
    if np.isneginf(scores).any():
        table_title += r"   ($e^{-\infty}=0$)"  # no space inside the math: the title wraps at spaces
    share = table_w / (heat_w + table_w) if beside else 1.0  # of the figure's width: the title wraps to fit it
    table_title = "\n".join(wrap(table_title, 0.8 * share * fig.get_figwidth() * 72 / look.text))
    spec = grid[1] if beside else grid[1].subgridspec(1, 3, width_ratios=[1, table_w, 1])[1]
    number_table(page, fig.add_subplot(spec), labels, fills, headers, [*colors.token_labels(T), W["fig_sum"]],
           table_title, W["key"])
    return page, title


@figure
def figure_weighted_sum(tr, head=0, row=None, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 5: one output row (dh) as the P-weighted sum of the Value rows, and the whole O = PV (T × dh)."""
    tr, look = check_trace(tr), look_of(lang, slides)
    head, row = check_head(tr, head), token_index(tr, row, "row", 2)
    W, T, dh = look.words, tr.T, tr.dh
    P, V, O, M = tr.P[head], STAGES["Vh"].matrix(tr, head), tr.O[head], tr.M  # read from the trace
    weights, out = P[row], O[row]
    keys = [j for j in range(T) if M[row, j] == 0]  # the Key tokens this Query token may see
    weighted = weights[:, None] * V  # (T, dh): each Value row times its weight, for display only
    vmin, vmax = colors.value_range("values", V, weighted, O)
    i = row + 1

    top_w = 2 * max(T, MIN_PANEL_WIDTH) + max(dh, MIN_PANEL_WIDTH) + 2 * OPERATOR_WIDTH
    bottom_w = 2 * dh + 1
    page = new_page(look, max(top_w, bottom_w), T + len(keys) + 5, extra_w=2, extra_h=2.0)
    fig = page.fig
    title = figure_title(fig, W["fig_weighted_title"].format(n=head + 1), look, head)
    grid = fig.add_gridspec(3, 1, height_ratios=[T + 1.8, max(len(keys) + 1, 0.5 * (T + 1)), 0.7])
    kw = dict(vmin=vmin, vmax=vmax, xlabel=W["component"], col_labels=colors.token_labels(dh))
    p_ax, _, o_ax = heatmap_row(page, grid[0], [
        (P, "weights", dict(title=stage_title("P", look.lang).split(" = ")[0], ylabel=W["query"],
                            xlabel=W["key"])),
        r"$\times$",
        (V, "values", dict(title=f"$V$  {shape_text(T, dh)}", ylabel=W["fig_value_row"], **kw)), "=",
        (O, "values", dict(title=f"{stage_title('O', look.lang)}  {shape_text(T, dh)}", **kw)),
    ])
    outline(p_ax, row, 0, 1, T)
    outline(o_ax, row, 0, 1, dh)

    # One line per visible Key token: weight × V_j = weighted V_j; the last line is O's row: one table.
    value_cells = colors.cell_style(np.vstack([V[keys], weighted[keys], out[None, :]]), "values", vmin, vmax)
    n_keys, white = len(keys), (1.0, 1.0, 1.0, 1.0)
    cell = [[(label, tuple(rgba)) for label, rgba in zip(row_labels, row_rgba, strict=True)]
            for row_labels, row_rgba in zip(value_cells.labels, value_cells.rgba, strict=True)]
    v_rows, w_rows, o_row = cell[:n_keys], cell[n_keys:-1], cell[-1]
    blank = [("", white)] * (dh + 1)
    table = [[*v_rows[n], ("=", white), *w_rows[n]] for n in range(n_keys)] + [[*blank, *o_row]]
    headers = [f"{formats.format_value(weights[j], 'weights')} \u00d7 V{j + 1}" for j in keys]
    headers.append(W["fig_weighted_sum_row"].format(i=i))
    components = colors.token_labels(dh)
    margin = max(0.0, (max(top_w, bottom_w) - bottom_w) / 2)
    spec = grid[1].subgridspec(1, 3, width_ratios=[margin + 1e-6, bottom_w, margin + 1e-6])[1]
    number_table(page, fig.add_subplot(spec), [[label for label, _ in row] for row in table],
           [[rgba for _, rgba in row] for row in table], headers, [*components, "", *components],
           headers_are_numbers=True, cell_width=1.0)
    terms = [f"{formats.format_value(weights[j], 'weights')}\u00b7V{j + 1}" for j in keys]
    caption_lines(fig.add_subplot(grid[2]), [W["fig_weighted_equation"].format(
        i=i, terms=join_terms(terms), row=formats.format_row(out))], look)
    return page, title
