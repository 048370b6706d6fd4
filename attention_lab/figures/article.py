"""The article's figures 2–5, in Korean or English, normal or on a 16:9 slide (figure 1 is `heads`).

    fig = al.figures.figure_softmax(tr, head=0, row=2, lang="ko")    # Figure 4, in Korean
    fig = al.figures.figure_scores(tr, lang="en", slides=True)       # Figure 2 on a 13.33 × 7.5 in slide

Each takes a trace and returns a matplotlib Figure; head, query, key and row
are 0-based indices (bool refused): query and row count the Query rows
(T_q), key the Key tokens (T_k), while the figures show 1-based token
numbers. query, key and row default to the article's tokens (Query token 3,
Key token 1, row 3), or the last one when there are fewer. Nothing here
computes attention: every matrix is read from the trace. Figures 4 and 5
evaluate exp(score) and P[i, j]·V[j] for display only, because showing those
steps is what those figures teach; the weights and outputs they arrive at are
still read from `tr.P` and `tr.O`.
"""

import numpy as np

from ..look import colors, formats
from ..look.formats import format_approx
from ..numeric import arithmetic, checks, core
from ..numeric.masks import aligned
from ..numeric.pipeline import STAGES
from .heatmap import (
    MIN_PANEL_WIDTH,
    OPERATOR_WIDTH,
    check_head,
    check_trace,
    look_of,
    outline,
    query_labels,
    query_offset,
    token_index,
    width_em,
)
from .layout import (
    TABLE_CELL_WIDTH,
    Words,
    caption_lines,
    centred,
    columns,
    exp_power,
    figure,
    figure_title,
    head_matrix,
    heatmap_row,
    join_terms,
    new_page,
    number_table,
    page_with_table,
    shape_text,
    stage_title,
    titled,
    trace_scales,
)


@figure
def figure_scores(tr, head=0, query=None, key=None, *, lang="en", slides=False, scaled=True):  # trace -> Figure
    """Figure 2: Q_i × K_iᵀ = S (T_q × T_k) for one head, one score explained as a dot product, then S / √dh.

    scaled=False leaves the division by √dh out (notebook 02 shows S before notebook 03 teaches the scale).
    """
    tr, look, scaled = check_trace(tr), look_of(lang, slides), checks.boolean("scaled", scaled)
    head = check_head(tr, head)
    query, key = token_index(tr, query, "query", 2), token_index(tr, key, "key", 0)
    W, T_q, T_k, dh = look.words, tr.T_q, tr.T_k, tr.dh
    Qh, Kh = STAGES["Qh"].matrix(tr, head), STAGES["Kh"].matrix(tr, head)  # (T_q, dh), (T_k, dh)
    S, S_scaled = tr.S[head], tr.S_scaled[head]
    scales = trace_scales(tr)
    rows = query_labels(tr)
    score_kw = dict(vmin=scales["scores"][0], vmax=scales["scores"][1], xlabel=W["key"], row_labels=rows)
    items = [
        (Qh, "values", dict(title=f"{head_matrix('Q', head)} ({shape_text(T_q, dh)})", vmin=scales["values"][0],
                            vmax=scales["values"][1], ylabel=W["query"], xlabel=W["component"], row_labels=rows,
                            col_labels=colors.token_labels(dh))),
        "×",
        (Kh.T, "values", dict(title=f"{head_matrix('K', head)}ᵀ ({shape_text(dh, T_k)})", vmin=scales["values"][0],
                              vmax=scales["values"][1], xlabel=W["key"], ylabel=W["component"],
                              row_labels=colors.token_labels(dh))),
        "=",
        (S, "scores", dict(title=stage_title("S", look.lang), ylabel=W["query"], **score_kw)),
        f"÷√{dh}",
        (S_scaled, "scores", dict(title=stage_title("S_scaled", look.lang), **score_kw)),
    ][:None if scaled else -2]
    width = 2 * dh + (2 * T_k + 3 * OPERATOR_WIDTH if scaled else T_k + 2 * OPERATOR_WIDTH) + 3
    page = new_page(look, width, max(T_q, dh) + 3, extra_w=2, extra_h=2.0)
    fig = page.fig
    title = figure_title(fig, W["fig_scores_title"].format(n=head + 1), look, head)
    grid = fig.add_gridspec(2, 1, height_ratios=[max(T_q, dh) + 1.5, 1.6])
    axes = heatmap_row(page, grid[0], items)
    outline(axes[0], query, 0, 1, dh)
    outline(axes[1], 0, key, dh, 1)
    for ax in axes[2:]:  # S, and S / √dh when shown
        outline(ax, query, key)

    i, j = query_offset(tr) + query + 1, key + 1
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
    """Figure 3: S / √dh (T_q × T_k), the mask M (0 and −∞) and their sum S / √dh + M, for one head."""
    tr, look = check_trace(tr), look_of(lang, slides)
    head = check_head(tr, head)
    W, T_q, T_k = look.words, tr.T_q, tr.T_k
    S_scaled, S_masked = tr.S_scaled[head], tr.S_masked[head]
    vmin, vmax = trace_scales(tr)["scores"]
    kw = dict(vmin=vmin, vmax=vmax, xlabel=W["key"], row_labels=query_labels(tr))
    items = [
        (S_scaled, "scores", dict(title=stage_title("S_scaled", look.lang), ylabel=W["query"], **kw)), "+",
        (tr.M, "scores", dict(title=W["fig_mask_values"], **kw)), "=",
        (S_masked, "scores", dict(title=stage_title("S_masked", look.lang), **kw)),
    ]
    width = 3 * max(T_k, MIN_PANEL_WIDTH) + 2 * OPERATOR_WIDTH
    page = new_page(look, width, T_q + 3, extra_w=2, extra_h=2.2)
    fig = page.fig
    title = figure_title(fig, W["fig_mask_title"].format(n=head + 1), look, head)
    grid = fig.add_gridspec(2, 1, height_ratios=[T_q + 1.5, 1.4])
    heatmap_row(page, grid[0], items)
    caption = look.words[f"mask.{tr.mask_name}.caption"]
    params = [f"{look.words[f'param.{tr.mask_name}.{p.name}']} = {p.text(value)}" for p, value in tr.mask.items()]
    if T_q != T_k:  # which corner the Query rows line up with
        params.append(look.words[f"align.{tr.mask.align}"])
    lines = [f"{caption} ({', '.join(params)})" if params else caption, W["fig_mask_rule"]]
    last, sits = query_offset(tr) + T_q, T_k if tr.mask.align == "bottom-right" else T_q  # the last row: token, place
    if last != sits and aligned(tr.mask):  # the rows do not sit at their own tokens: say where "itself" is
        lines.insert(1, W["fig_mask_rows_at"].format(t=last, p=sits))
    caption_lines(fig.add_subplot(grid[1]), lines, look)
    return page, title


def shifted_word(scores):  # -> the word of the line under a table of e^(s − m): e^s overflowed, or underflowed
    return "deck.softmax_shifted" if np.isinf(core.exponentials(scores)).any() else "deck.softmax_shifted_small"


def shift_text(m):  # -> the row's largest score as e^(s − m) writes it: 5×10¹⁵³, or (−7071.07)
    text = formats.format_value(m, "scores")
    return f"({text})" if text.startswith(formats.MINUS) else text


@figure
def figure_softmax(tr, head=0, row=None, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 4: one row of S / √dh + M, its exponentials, their sum and the weights (that row of P), as a table."""
    tr, look = check_trace(tr), look_of(lang, slides)
    head, row = check_head(tr, head), token_index(tr, row, "row", 2)
    W, T_q, T_k = look.words, tr.T_q, tr.T_k
    S_masked, P = tr.S_masked[head], tr.P[head]
    scores, weights = S_masked[row], P[row]  # (T_k,), the weights read from the trace, not recomputed
    allowed = STAGES["P"].allowed(tr)  # (T_q, T_k): a weight of 0.0 reads "0.000" where the row sees its key
    exps, m = core.shown_exponentials(scores)  # (T_k,) e^s as the article writes them (e^−∞ = 0), or e^(s − m)
    total = float(arithmetic.row_sums(exps)[0])  # left to right, as the page's table sums
    vmin, vmax = trace_scales(tr)["scores"]
    i = query_offset(tr) + row + 1

    heat_w, table_w = 2 * max(T_k, MIN_PANEL_WIDTH) + 2.5, TABLE_CELL_WIDTH * (T_k + 1) + 2.5
    note = [] if m is None else [W[shifted_word(scores)].format(m=shift_text(m))]
    key_headers = [*colors.token_labels(T_k), W["fig_sum"]]
    # A row of the table is 0.75 of a heatmap's cell high, or as high as holds its headers: a line of text, and
    # (a column TABLE_CELL_WIDTH rows wide) the widest Key token's number ("10111213" ran together on a slide).
    widest = max(width_em(label, tuple(look.family)) for label in key_headers)
    page, table_row = page_with_table(look, max(heat_w, table_w), lambda high: T_q + 4.5 + 4 * high + len(note), 0.75,
                                      max(1.5, (widest + 0.9) / TABLE_CELL_WIDTH) * look.text, extra_w=1.5, extra_h=1.6)
    fig = page.fig
    title = figure_title(fig, W["fig_softmax_title"].format(n=head + 1), look, head)
    # The heatmaps above, the chosen row step by step below them: the table takes the whole width.
    grid = fig.add_gridspec(2 + len(note), 1, height_ratios=[T_q + 1.8, 4 * table_row + 2.2, *[1.0] * len(note)])
    cell_in = page.cell_pt / 72
    s_ax, p_ax = heatmap_row(page, centred(page, grid[0], 2 * (T_k * cell_in + 0.9) + 1.6), [
        (S_masked, "scores", dict(title=stage_title("S_masked", look.lang), vmin=vmin, vmax=vmax,
                                  ylabel=W["query"], xlabel=W["key"], row_labels=query_labels(tr))),
        Words(W["fig_softmax_by_row"] + "\n→"),
        (P, "weights", dict(title=stage_title("P", look.lang).split(" = ")[0], xlabel=W["key"],
                            row_labels=query_labels(tr), allowed=allowed)),
    ])
    outline(s_ax, row, 0, 1, T_k)
    outline(p_ax, row, 0, 1, T_k)

    # The chosen row, step by step, as a table: scores, e to the score, its value, the weights of that row of P.
    score_cells = colors.cell_style(scores[None, :], "scores", vmin, vmax)
    weight_cells = colors.cell_style(weights[None, :], "weights", allowed=allowed[row][None, :])
    sum_of_weights = formats.format_value(float(arithmetic.row_sums(weights)[0]), "weights")
    labels = [
        [*score_cells.labels[0], ""],
        [*(exp_power(x if m is None else x - m) for x in scores), ""],
        [*(format_approx(float(e), a) for e, a in zip(exps, allowed[row], strict=True)), format_approx(total)],
        [*weight_cells.labels[0], sum_of_weights],
    ]
    white = (1.0, 1.0, 1.0, 1.0)
    fills = [[*map(tuple, score_cells.rgba[0]), white], [white] * (T_k + 1), [white] * (T_k + 1),
             [*map(tuple, weight_cells.rgba[0]), white]]
    power = "eˢ" if m is None else "eˢ⁻ᵐ"  # where e^s overflows, e^(s − m) (the line under the table says so)
    headers = [W["fig_softmax_scores"], power, W["fig_softmax_value"],
               W["fig_softmax_weights"].format(total=format_approx(total)).replace("eˢ", power)]
    table_title = W["fig_softmax_table"].format(i=i)
    if np.isneginf(scores).any():
        table_title += "   (e⁻∞ = 0)"
    spec = grid[1].subgridspec(1, 3, width_ratios=[1, table_w, 1])[1]
    number_table(page, fig.add_subplot(spec), labels, fills, headers, key_headers, table_title, W["key"])
    if note:
        caption_lines(fig.add_subplot(grid[2]), note, look)
    return page, title


@figure
def figure_weighted_sum(tr, head=0, row=None, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Figure 5: one output row (dh) as the P-weighted sum of the Value rows, and the whole O = PV (T_q × dh)."""
    tr, look = check_trace(tr), look_of(lang, slides)
    head, row = check_head(tr, head), token_index(tr, row, "row", 2)
    W, T_q, T_k, dh = look.words, tr.T_q, tr.T_k, tr.dh
    P, V, O, M = tr.P[head], STAGES["Vh"].matrix(tr, head), tr.O[head], tr.M  # read from the trace
    weights, out = P[row], O[row]
    keys = [j for j in range(T_k) if M[row, j] == 0]  # the Key tokens this Query token may see
    weighted = weights[:, None] * V  # (T_k, dh): each Value row times its weight, for display only
    vmin, vmax = trace_scales(tr)["values"]  # V's colours as in figure 1
    i = query_offset(tr) + row + 1

    top_w = 2 * max(T_k, MIN_PANEL_WIDTH) + max(dh, MIN_PANEL_WIDTH) + 2 * OPERATOR_WIDTH
    bottom_w = 2 * dh + 1
    # The table's rows a cell high, or a line of its row headers ("0.059 × V[1]"), which overlapped at T = 16
    page, table_row = page_with_table(look, max(top_w, bottom_w), lambda high: T_q + (len(keys) + 1) * high + 5, 1.0,
                                      1.3 * look.text, extra_w=2, extra_h=2.2)
    fig = page.fig
    title = figure_title(fig, W["fig_weighted_title"].format(n=head + 1), look, head)
    # On a slide the rows share its fixed height; in a notebook the figure is as tall as its rows need (`tighten`).
    grid = fig.add_gridspec(3, 1, height_ratios=[T_q + (2.2 if look.slides else 0.5),
                                                 max((len(keys) + 1) * table_row, 0.5 * (T_q + 1)), 0.9])
    kw = dict(vmin=vmin, vmax=vmax, xlabel=W["component"], col_labels=colors.token_labels(dh))
    p_ax, _, o_ax = heatmap_row(page, grid[0], [
        (P, "weights", dict(title=stage_title("P", look.lang).split(" = ")[0], ylabel=W["query"],
                            xlabel=W["key"], row_labels=query_labels(tr), allowed=STAGES["P"].allowed(tr))),
        "×",
        (V, "values", dict(title=f"{head_matrix('V', head)} ({shape_text(T_k, dh)})", ylabel=W["fig_value_row"],
                           **kw)), "=",
        (O, "values", dict(title=titled(stage_title("O", look.lang), T_q, dh), row_labels=query_labels(tr), **kw)),
    ])
    outline(p_ax, row, 0, 1, T_k)
    outline(o_ax, row, 0, 1, dh)

    # One line per visible Key token: weight × V[j] = weighted V[j]; the last line is O's row: one table.
    value_cells = colors.cell_style(np.vstack([V[keys], weighted[keys], out[None, :]]), "values", vmin, vmax)
    n_keys, white = len(keys), (1.0, 1.0, 1.0, 1.0)
    cell = [[(label, tuple(rgba)) for label, rgba in zip(row_labels, row_rgba, strict=True)]
            for row_labels, row_rgba in zip(value_cells.labels, value_cells.rgba, strict=True)]
    v_rows, w_rows, o_row = cell[:n_keys], cell[n_keys:-1], cell[-1]
    blank = [("", white)] * (dh + 1)
    table = [[*v_rows[n], ("=", white), *w_rows[n]] for n in range(n_keys)] + [[*blank, *o_row]]
    headers = [f"{formats.format_value(weights[j], 'weights', True)} \u00d7 V[{j + 1}]" for j in keys]
    headers.append(W["fig_weighted_sum_row"].format(i=i))
    components = colors.token_labels(dh)
    margin = max(0.0, (max(top_w, bottom_w) - bottom_w) / 2)
    spec = columns(grid[1], [bottom_w], margin)[0]
    number_table(page, fig.add_subplot(spec), [[label for label, _ in row] for row in table],
                 [[rgba for _, rgba in row] for row in table], headers, [*components, "", *components],
                 headers_are_numbers=True, cell_width=1.0 / table_row)
    terms = [f"{formats.format_value(weights[j], 'weights', True)}\u00b7V[{j + 1}]" for j in keys]
    caption_lines(fig.add_subplot(grid[2]), [W["fig_weighted_equation"].format(
        i=i, terms=join_terms(terms), row=formats.format_row(out))], look)
    return page, title
