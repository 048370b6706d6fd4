"""Figures of every stage: of one head, of every head, and the scaling figure of notebook 03.

"Every stage" is `pipeline.HEAD_STAGES`, the main path S … O in the pipeline's
order: a new stage of the pipeline is drawn here with no edit.
"""

import numpy as np

from ..look import colors, formats
from ..numeric.pipeline import HEAD_STAGES, STAGES
from .heatmap import MIN_PANEL_WIDTH, check_head, check_trace, head_box, look_of
from .layout import caption_lines, figure, figure_title, heatmap_row, new_page, panel_heatmap, stage_title


def _stage_items(tr, head, scales, look):
    """Every stage of one head (pipeline.HEAD_STAGES, S … O) as heatmap items, Query rows down."""
    W = look.words

    def item(name):
        stage = STAGES[name]
        columns = dict(col_labels=colors.token_labels(tr.dh), xlabel=W["component"]) if stage.axes[1] == "component" \
            else dict(xlabel=W["key"])
        return (stage.matrix(tr, head), stage.kind,
                dict(title=stage_title(name, look.lang), vmin=scales[stage.kind][0], vmax=scales[stage.kind][1],
                     **columns))

    items = [item(name) for name in HEAD_STAGES]
    items[0][2]["ylabel"] = W["query"]
    return items


def _stage_scales(tr, heads):
    """Shared colour scales of the stages over the given heads, one per kind (M and −∞ leave the scales alone)."""
    matrices = {kind: [] for kind in colors.CMAPS}
    for name in HEAD_STAGES:
        stage = STAGES[name]
        matrices[stage.kind] += [stage.matrix(tr, i) for i in heads]
    return {kind: colors.value_range(kind, *found) for kind, found in matrices.items()}


def _stages_width(tr):  # in cells: each stage's columns, at least MIN_PANEL_WIDTH
    return sum(max(STAGES[name].matrix(tr, 0).shape[1], MIN_PANEL_WIDTH) for name in HEAD_STAGES)


@figure
def figure_stages(tr, head=0, *, lang="en"):  # AttentionTrace -> Figure
    """Every stage of one head side by side, S … O in the pipeline's order (T_q × T_k, and T_q × dh for O)."""
    tr, look = check_trace(tr), look_of(lang, False)
    head = check_head(tr, head)
    page = new_page(look, _stages_width(tr), tr.T_q + 2, extra_h=1.4)
    title = figure_title(page.fig, look.words["fig_stages_title"].format(n=head + 1), look, head)
    heatmap_row(page, page.fig.add_gridspec(1, 1)[0], _stage_items(tr, head, _stage_scales(tr, [head]), look))
    return page, title, look.words["fig_too_many"]


@figure
def figure_all_heads(tr, *, lang="en"):  # AttentionTrace -> Figure
    """Every stage of every head: one row per head (named in a frame of its colour), colour scales shared."""
    tr, look = check_trace(tr), look_of(lang, False)
    h = tr.h
    page = new_page(look, _stages_width(tr) + 2, h * (tr.T_q + 2), extra_h=1.0 + 0.3 * h)
    fig = page.fig
    title = figure_title(fig, look.words["fig_all_title"], look)
    scales = _stage_scales(tr, range(h))
    grid = fig.add_gridspec(h, 2, width_ratios=[2, _stages_width(tr)])
    for i in range(h):
        label = fig.add_subplot(grid[i, 0])
        label.axis("off")
        label.text(0.5, 0.5, look.words["head_n"].format(n=i + 1), ha="center", va="center", fontsize=look.text,
                   rotation=90, transform=label.transAxes, bbox=head_box(colors.head_color(i)))
        items = _stage_items(tr, i, scales, look)
        for _, _, kw in items:  # the stages' names on the first row, the numbering under the last: once each
            kw.update(title=kw["title"] if i == 0 else None, xlabel=kw["xlabel"] if i == h - 1 else None)
        for n, ax in enumerate(heatmap_row(page, grid[i, 1], items)):
            ax.tick_params(labelbottom=i == h - 1, labelleft=n == 0 or n == len(items) - 1)  # O's rows differ
    return page, title, look.words["fig_too_many"]


@figure
def figure_scaling(tr, head=0, *, lang="en", slides=False):  # AttentionTrace -> Figure
    """Notebook 03: S and S / √dh, and the weights each gives: P_unscaled = softmax(S + M) and P (T × T each)."""
    tr, look = check_trace(tr), look_of(lang, slides)
    head = check_head(tr, head)
    W, T = look.words, tr.T
    S, S_scaled, P = tr.S[head], tr.S_scaled[head], tr.P[head]
    P_unscaled = STAGES["P_unscaled"].matrix(tr, head)
    vmin, vmax = colors.value_range("scores", S, S_scaled)  # one scale: the shrinking shows
    side = max(T, MIN_PANEL_WIDTH)
    page = new_page(look, 2 * side + 3, 2 * T + 5, extra_w=2, extra_h=1.5)
    fig = page.fig
    root = formats.format_value(np.sqrt(tr.dh))
    title = figure_title(fig, W["fig_scaling_title"].format(n=head + 1, dh=tr.dh, root=root), look, head)
    grid = fig.add_gridspec(3, 2, height_ratios=[1, T + 1, T + 1])
    for col, (words, scores, scores_name, weights, weights_name) in enumerate((
            (W["fig_scaling_without"], S, "S", P_unscaled, "P_unscaled"),
            (W["fig_scaling_with"], S_scaled, "S_scaled", P, "P"))):
        caption_lines(fig.add_subplot(grid[0, col]), [words], look)
        panel_heatmap(page, fig.add_subplot(grid[1, col]), scores, "scores",
                       title=stage_title(scores_name, look.lang), vmin=vmin, vmax=vmax, xlabel=W["key"],
                       ylabel=W["query"])
        panel_heatmap(page, fig.add_subplot(grid[2, col]), weights, "weights",
                       title=stage_title(weights_name, look.lang), xlabel=W["key"], ylabel=W["query"])
    return page, title


# Stable names, used as file names by `python -m attention_lab.figures`.

