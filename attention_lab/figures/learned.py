"""Static figures of notebook 13: the tiny model's training, its matrices outside Core Attention, and what its
heads learned on average.

They draw arrays made elsewhere (numeric/tiny_model.py and numeric/training.py) and compute nothing. Core
Attention itself is drawn by the figures every other notebook uses (figure_heads, figure_all_heads), from the
model's trace. Heatmaps are `heatmap`, so colours and number labels are those of every other figure.
"""

import math

import numpy as np
from matplotlib.figure import Figure

from ..look import colors, words
from ..numeric import checks
from .heatmap import NOTEBOOK_WIDTH, SIZES, font_family, head_box, heatmap, use_font

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


def figure_matrices(panels, *, row_labels=None, lang="en", per_row=1):  # [(matrix, kind, title)] -> Figure
    """A few matrices of the same rows (tokens) as heatmaps, `per_row` to a row, cells big enough for "−0.425"."""
    panels = list(panels)
    if not panels:
        raise ValueError("panels: need at least one (matrix, kind, title).")
    per_row = checks.whole_number("per_row", per_row, 1)
    W = words.table(lang)
    rows = math.ceil(len(panels) / per_row)
    cols = min(per_row, len(panels))
    widest = max(np.shape(m)[1] for m, _, _ in panels)
    tall = max(np.shape(m)[0] for m, _, _ in panels)
    cell = min(0.55, (NOTEBOOK_WIDTH - 1.2 * cols) / (cols * widest))
    fig = Figure(figsize=(cols * (widest * cell + 1.2), rows * (tall * cell + 1.2)), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    for ax, (matrix, kind, title) in zip(axes, panels, strict=False):
        matrix = np.asarray(matrix, dtype=float)
        heatmap(ax, matrix, kind, title=title, row_labels=row_labels,
                             col_labels=[str(c + 1) for c in range(matrix.shape[1])],
                             xlabel=W["component"], ylabel=W["token"], lang=lang)
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
