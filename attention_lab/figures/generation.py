"""Static figures of notebooks 10 and 11: decoding from the KV cache, the online softmax, the cost over T.

They draw records made elsewhere (`kv_cache.decode_steps`, `blockwise.blockwise_steps`,
`kv_cache.generation_cost`) and compute nothing. Their text is mathematics and
numbers only — titles such as K₁…ₜ, m_old, Σ MAC — so one figure serves both
editions; each notebook says in its own language what the symbols are.
Heatmaps are `plotting.heatmap`, so colours and labels are the same as in
every other figure.
"""

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator

from ..numeric.core import kv_head_index
from .heatmap import heatmap, outline

CELL = 0.5  # inches per heatmap cell


def _grid(n_rows, widths, heights):  # -> Figure and its gridspec, cells of one size everywhere
    fig = Figure(figsize=(CELL * sum(widths) + 1.2 * len(widths), CELL * sum(heights) + 0.9 * n_rows + 0.3),
                 layout="constrained")
    return fig, fig.add_gridspec(n_rows, len(widths), width_ratios=widths, height_ratios=heights)


def _tokens(keys):  # range of 0-based indices -> "1..3" (1-based)
    return f"{keys.start + 1}" if len(keys) == 1 else f"{keys.start + 1}..{keys.stop}"


def figure_decode_steps(steps, head=0):  # tuple of DecodeStep -> Figure
    """One row per generated token t: the cache K₁…ₜ and V₁…ₜ (the K/V head this Query head reads), P's row t, Oₜ."""
    T = len(steps)
    h, g = steps[0].q.shape[0], steps[0].K_cache.shape[0]
    kv = kv_head_index(h, g)[head]
    dh = steps[0].q.shape[1]
    fig, grid = _grid(T, [dh, dh, T, dh], [max(s.cache_tokens, 1.6) for s in steps])
    for row, step in enumerate(steps):
        t = step.t + 1
        tokens = [str(j + 1) for j in range(t)]
        panels = [(step.K_cache[kv], "values", rf"$K_{{1..{t}}}$", tokens, None),
                  (step.V_cache[kv], "values", rf"$V_{{1..{t}}}$", tokens, None),
                  (step.P_row[head][None, :], "weights", rf"$P_{{{t},\,1..{t}}}$", [str(t)], tokens),
                  (step.O_row[head][None, :], "values", rf"$O_{{{t}}}$", [str(t)], None)]
        for col, (matrix, kind, title, row_labels, col_labels) in enumerate(panels):
            ax = fig.add_subplot(grid[row, col])
            heatmap(ax, matrix, kind, title=title, row_labels=row_labels, col_labels=col_labels)
            if col < 2:
                outline(ax, t - 1, 0, ncols=dh)  # the row this step added to the cache
            else:
                ax.set_anchor("SW")  # level with the new row of the cache
            if col == 2:
                ax.set_xlim(-0.5, T - 0.5)  # cells as wide as in the last step: the row grows to the right
        fig.axes[-4].set_ylabel(rf"$t = {t}$", fontsize=11)
    return fig


def figure_blockwise_steps(steps, head=0):  # tuple of BlockStep -> Figure
    """One row per block of Key tokens j: its scores, m before and after, e^(m_old − m), ℓ, and O_acc / ℓ so far."""
    T, dh = steps[0].O_acc.shape[1:]
    widest = max(len(s.keys) for s in steps)
    fig, grid = _grid(len(steps), [max(widest, 1.5), 1.2, 1.2, 1.2, 1.2, dh], [T] * len(steps))
    for row, step in enumerate(steps):
        keys = [str(j + 1) for j in step.keys]
        panels = [(step.S_block[head], "scores", r"$S/\sqrt{d_h} + M$", keys),
                  (step.m_old[head][:, None], "scores", r"$m_{old}$", [""]),
                  (step.m[head][:, None], "scores", r"$m$", [""]),
                  (step.rescale[head][:, None], "weights", r"$e^{m_{old} - m}$", [""]),
                  (step.l[head][:, None], "values", r"$\ell$", [""]),
                  (step.O[head], "values", r"$O_{acc} / \ell$", None)]
        for col, (matrix, kind, title, col_labels) in enumerate(panels):
            ax = fig.add_subplot(grid[row, col])
            heatmap(ax, matrix, kind, title=title, col_labels=col_labels)
            if col == 0:
                ax.set_ylabel(rf"$j = {_tokens(step.keys)}$", fontsize=11)
    return fig


def cost_lines(ax, T_values, with_cache, without_cache, labels):  # -> [Line2D, Line2D]
    """Two costs over T on log-log axes, with the cache (solid) and without it (dashed)."""
    lines = [ax.loglog(T_values, with_cache, "o-", color="#0072B2", label=labels[0])[0],
             ax.loglog(T_values, without_cache, "s--", color="#D55E00", label=labels[1])[0]]
    ax.set_xlabel(r"$T$")
    ax.set_xticks(T_values, labels=[str(T) for T in T_values])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.legend(fontsize=9, frameon=False)
    ax.grid(True, which="major", color="0.9")
    return lines


def figure_generation_cost(T_values, macs_with, macs_without, values_with, values_without,
                           bytes_per_value=2):  # -> Figure
    """Left: multiply-adds to generate T tokens. Right: memory held at step T. With and without the cache."""
    fig = Figure(figsize=(10, 3.8), layout="constrained")
    left, right = fig.subplots(1, 2)
    cost_lines(left, T_values, macs_with, macs_without,
               (r"$\sum_{t=1}^{T}\,[\,d(d+2g\,d_h) + 2td\,]$", r"$\sum_{t=1}^{T}\,[\,t\,d(d+2g\,d_h) + 2t^2d\,]$"))
    left.set_ylabel("MAC")
    to_mib = bytes_per_value / 2**20
    cost_lines(right, T_values, np.asarray(values_with) * to_mib, np.asarray(values_without) * to_mib,
               (rf"${bytes_per_value}\,(2Tg\,d_h + hT)$", rf"${bytes_per_value}\,(2Tg\,d_h + hT^2)$"))
    right.set_ylabel("MiB")
    return fig
