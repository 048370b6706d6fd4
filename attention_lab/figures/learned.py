"""Static figures of notebook 13: the tiny model's training, its matrices, each stage of its heads side by side
with every number written out, and what its heads learned on average.

They draw arrays made elsewhere (numeric/tiny_model.py and numeric/training.py) and compute nothing. Core
Attention itself is drawn by the figures every other notebook uses (figure_heads, figure_all_heads), from the
model's trace. Heatmaps are `heatmap`, so colours and number labels are those of every other figure.
"""

import math

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter

from ..look import colors, words
from ..look.formats import format_value
from ..numeric import checks
from ..numeric.pipeline import STAGES
from .generation import _power_of_ten
from .heatmap import NOTEBOOK_WIDTH, SIZES, check_trace, font_family, head_box, heatmap, use_font, width_em
from .layout import stage_title, trace_scales

TEXT = SIZES[False]["text"]


def loss_lines(ax, curves):  # {label: [steps]} -> [Line2D]
    """One loss curve per label over the training steps, on a log scale (the loss falls by powers of ten)."""
    lines = []
    for i, (label, losses) in enumerate(curves.items()):
        losses = checks.real_array(f"curves[{label!r}]", losses)
        if losses.ndim != 1 or not len(losses) or (losses <= 0).any():
            raise ValueError(f"curves: {label!r} must be the positive losses of each step, got shape {losses.shape}.")
        lines.append(ax.semilogy(np.arange(1, len(losses) + 1), losses, color=colors.head_color(i), label=label,
                                 linewidth=1.8)[0])
    ax.yaxis.set_major_formatter(FuncFormatter(_power_of_ten))  # 10⁻⁴ in plain text: mathtext's needs STIX fonts
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.grid(True, which="major", color="0.9")
    ax.tick_params(labelsize=TEXT)
    ax.legend(fontsize=TEXT, frameon=False)
    return lines


def figure_training(curves, *, lang="en"):  # {label: losses [steps]} -> Figure
    """The loss of every training step, one curve per model (e.g. h = 2 and h = 1)."""
    if not isinstance(curves, dict) or not curves:
        raise ValueError("curves: need a dict of label → losses, e.g. {'h = 2': losses}.")
    W = words.table(lang)
    fig = Figure(figsize=(NOTEBOOK_WIDTH * 0.75, 3.2), layout="constrained")
    ax = fig.subplots()
    loss_lines(ax, curves)
    ax.set_xlabel(W["nb13_step"], fontsize=TEXT)
    ax.set_ylabel(W["nb13_loss"], fontsize=TEXT)
    use_font(fig, font_family(lang))
    return fig


SPARE = 1.15  # a cell's side as planned over what it is when the heatmap is drawn (before layout)


def _cell(cols, columns, need=0.0):  # -> the side of a cell (inches), `cols` panels of `columns` across the page
    """0.55 in, or what the widest number needs (`need`, in inches), as far as the page's width allows."""
    return min(max(0.55, SPARE * need), (NOTEBOOK_WIDTH - 1.2 * cols) / (cols * columns))


def figure_matrices(panels, *, row_labels=None, lang="en", per_row=1, columns="component", scales=None, need=0.0,
                    allowed=None):
    """A few matrices of the same rows (tokens) as heatmaps, `per_row` to a row, cells big enough for "−0.425".

    panels: [(matrix, kind, title)]. columns: what the columns are, "component" (X, Q, O, …) or "key" (S, P: one
    per Key token). scales: {kind: (vmin, vmax)}, e.g. trace_scales(tr), so the heads of a stage share colours.
    need: the side (inches) of a cell that holds the widest number at the smallest size: cells grow past 0.55 in to it.
    allowed: the mask's allowed matrix, the shape of every panel, for panels of weights (heatmap's), or None.
    """
    panels = list(panels)
    if not panels:
        raise ValueError("panels: need at least one (matrix, kind, title).")
    per_row = checks.whole_number("per_row", per_row, 1)
    columns = checks.choice("columns", columns, ("component", "key"))
    W = words.table(lang)
    rows = math.ceil(len(panels) / per_row)
    cols = min(per_row, len(panels))
    widest = max(np.shape(m)[1] for m, _, _ in panels)
    tall = max(np.shape(m)[0] for m, _, _ in panels)
    cell = _cell(cols, widest, need)
    fig = Figure(figsize=(cols * (widest * cell + 1.2), rows * (tall * cell + 1.2)), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    for ax, (matrix, kind, title) in zip(axes, panels, strict=False):
        matrix = np.asarray(matrix, dtype=float)
        vmin, vmax = (scales or {}).get(kind, (None, None))
        heatmap(ax, matrix, kind, title=title, row_labels=row_labels, vmin=vmin, vmax=vmax,
                col_labels=[str(c + 1) for c in range(matrix.shape[1])],
                xlabel=W[columns], ylabel=W["token" if columns == "component" else "query"], lang=lang,
                allowed=allowed)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    use_font(fig, font_family(lang))
    return fig


def figure_mean_weights(P_mean, *, title, lang="en"):  # [h, T, T] -> Figure
    """Each head's P averaged over many inputs, side by side: where a head looks, whatever the tokens are."""
    P_mean = checks.real_array("P_mean", P_mean)
    if P_mean.ndim != 3 or P_mean.shape[1] != P_mean.shape[2]:
        raise ValueError(f"P_mean: need shape (h, T, T), one mean P per head, got {P_mean.shape}.")
    W = words.table(lang)
    h, T, _ = P_mean.shape
    cell = min(0.5, (NOTEBOOK_WIDTH - 0.9 * h) / (h * T))
    fig = Figure(figsize=(h * (T * cell + 0.9), T * cell + 1.5), layout="constrained")
    axes = np.atleast_1d(fig.subplots(1, h, squeeze=False)).ravel()
    for head, ax in enumerate(axes):
        heatmap(ax, P_mean[head], "weights", vmin=0, vmax=1, xlabel=W["key"], ylabel=W["query"], lang=lang)
        # the head's name in a frame of its colour, lifted clear of the figure's title (layout ignores the frame)
        ax.set_title(words.say("head_n", lang, n=head + 1), fontsize=TEXT, pad=9,
                     bbox=head_box(colors.head_color(head), pad=0.25))
    fig.suptitle(checks.text("title", title), fontsize=TEXT + 1)
    use_font(fig, font_family(lang))
    return fig


def figure_stage_heads(tr, name, *, row_labels=None, lang="en"):  # AttentionTrace, stage name -> Figure
    """One stage of Core Attention (Qh, S, S_scaled, S_masked, P, O, …) for every head, every number written out:
    at T = 6 the all-stages figure has no room for them. The heads stand side by side where their numbers fit at
    the smallest size, else one above the other; they share one colour scale."""
    stage = STAGES.get(name) if isinstance(name, str) else None
    if stage is None or not stage.heads:
        raise ValueError(f"name: use a stage of each head, one of {', '.join(n for n in STAGES if STAGES[n].heads)}; "
                         f"got {name!r:.40}.")
    tr = check_trace(tr)
    matrices = [stage.matrix(tr, i) for i in range(tr.h)]
    allowed = stage.allowed(tr)  # a seen weight of 0.0 reads "0.000", a masked one "0"
    seen = [None] * matrices[0].size if allowed is None else allowed.ravel().tolist()
    labels = {format_value(x, stage.kind, a) for m in matrices for x, a in zip(m.ravel().tolist(), seen, strict=True)}
    widest = max(width_em(label, tuple(font_family(lang))) for label in labels)
    need = (widest + 0.15) * SIZES[False]["number_min"] / 0.85 / 72  # inches of cell that hold the widest number
    side_by_side = _cell(tr.h, matrices[0].shape[1], need) >= SPARE * need
    title = stage_title(name, lang)
    panels = [(m, stage.kind, f"{words.say('head_n', lang, n=i + 1)}: {title}") for i, m in enumerate(matrices)]
    columns = "component" if stage.axes[1] == "component" else "key"
    return figure_matrices(panels, row_labels=row_labels, lang=lang, per_row=tr.h if side_by_side else 1,
                           scales=trace_scales(tr), need=need, columns=columns, allowed=allowed)
