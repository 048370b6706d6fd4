"""Static figures of notebooks 10 and 11: decoding from the KV cache, the online softmax, the cost over T.

They draw records made elsewhere (`kv_cache.decode_steps`, `blockwise.blockwise_steps`,
`kv_cache.generation_cost`) and compute nothing. Their text is mathematics and
numbers only — titles such as K₁…ₜ, m_old, Σ MAC — so one figure serves both
editions; each notebook says in its own language what the symbols are.
Heatmaps are `figures.heatmap`, so colours and labels are the same as in
every other figure. Each is at most NOTEBOOK_WIDTH wide with no text under
7 pt, so a notebook shows it at full size: integers get small cells, decimals
the room they need, and the rows of one token share their row numbers.
"""

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter, NullLocator

from ..look import formats
from ..numeric import checks
from ..numeric.blockwise import BlockStep
from ..numeric.core import kv_head_index
from ..numeric.kv_cache import DecodeStep
from .heatmap import NOTEBOOK_WIDTH, SIZES, look_of, outline
from .layout import Page, finish, panel_heatmap

INT_CELL, DECIMAL_CELL = 0.3, 0.44  # inches: room for "−1" and for "0.818" at 7–8 pt
TICKS = 0.3  # inches of row numbers
TEXT = SIZES[False]["text"]


def _steps(steps, kind):  # -> tuple of steps, or a ValueError naming `steps`
    name = kind.__name__
    made_by = "al.decode_steps(Q, K, V, h)" if kind is DecodeStep else "al.blockwise_steps(Q, K, V, h, block)"
    if isinstance(steps, (str, bytes)) or not hasattr(steps, "__len__"):
        raise ValueError(f"steps: need the steps of {made_by} (a tuple of {name}), got {type(steps).__name__}.")
    steps = tuple(steps)
    if not steps:
        raise ValueError(f"steps: got no steps; pass what {made_by} returns (a tuple of {name}, one or more).")
    wrong = next((s for s in steps if not isinstance(s, kind)), None)
    if wrong is not None:
        raise ValueError(f"steps: each step must be a {name}, as {made_by} returns, got {type(wrong).__name__}.")
    return steps


def _grid(widths, heights, titled_rows=None):  # -> Page and its gridspec; widths, heights in inches, fit to the width
    """A page of these figures: numbers written after layout at one size that fits every cell (`layout.finish`).
    titled_rows: how many rows carry panel titles (default all)."""
    fit = min(1.0, (NOTEBOOK_WIDTH - TICKS * len(widths) - 0.4) / sum(widths))
    titled = len(heights) if titled_rows is None else titled_rows
    fig = Figure(figsize=(min(NOTEBOOK_WIDTH, fit * sum(widths) + TICKS * len(widths) + 0.4),
                          fit * sum(heights) + 0.45 * len(heights) + 0.3 * titled + 0.3), layout="constrained")
    fig.get_layout_engine().set(w_pad=0.04, h_pad=0.04, hspace=0.02, wspace=0.02)
    page = Page(fig, look_of("en", False), 72 * fit * INT_CELL, [])
    return page, fig.add_gridspec(len(heights), len(widths), width_ratios=widths, height_ratios=heights)


def _tokens(keys):  # range of 0-based indices -> "1..3" (1-based)
    return f"{keys.start + 1}" if len(keys) == 1 else f"{keys.start + 1}..{keys.stop}"


def figure_decode_steps(steps, head=0):  # tuple of DecodeStep -> Figure
    """One row per generated token t: the cache K₁…ₜ and V₁…ₜ (the K/V head this Query head reads), P's row t, Oₜ."""
    steps = _steps(steps, DecodeStep)
    T = len(steps)
    h, g = steps[0].q.shape[0], steps[0].K_cache.shape[0]
    head = checks.whole_number("head", head, 0, h - 1, f" Heads are 0-based: head=0 is Head 1 of {h}.")
    kv = kv_head_index(h, g)[head]
    dh = steps[0].q.shape[1]
    heights = [max(s.cache_tokens * INT_CELL, DECIMAL_CELL) for s in steps]
    page, grid = _grid([dh * INT_CELL, dh * INT_CELL, T * DECIMAL_CELL, dh * DECIMAL_CELL], heights)
    fig = page.fig
    for row, step in enumerate(steps):
        t = step.t + 1
        tokens = [str(j + 1) for j in range(t)]
        panels = [(step.K_cache[kv], "values", f"K₁…{_sub(t)}", tokens, None),
                  (step.V_cache[kv], "values", f"V₁…{_sub(t)}", tokens, None),
                  (step.P_row[head][None, :], "weights", f"P[{t}, 1…{t}]", [str(t)], tokens),
                  (step.O_row[head][None, :], "values", f"O{_sub(t)}", [str(t)], None)]
        for col, (matrix, kind, title, row_labels, col_labels) in enumerate(panels):
            ax = fig.add_subplot(grid[row, col])
            seen = np.ones(matrix.shape, bool) if kind == "weights" else None  # P's row t sees every cached key
            panel_heatmap(page, ax, matrix, kind, title=title, row_labels=row_labels, col_labels=col_labels,
                          allowed=seen)
            if col < 2:
                outline(ax, t - 1, 0, ncols=dh)  # the row this step added to the cache
            else:
                ax.set_anchor("SW")  # level with the new row of the cache
            if col == 2:
                ax.set_xlim(-0.5, T - 0.5)  # cells as wide as in the last step: the row grows to the right
        fig.axes[-4].set_ylabel(f"t = {t}", fontsize=TEXT)
    return finish(page, fig.suptitle(""))


def _sub(n):
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def figure_blockwise_steps(steps, head=0):  # tuple of BlockStep -> Figure
    """One row per block of Key tokens j: its scores, m before and after, e^(m_old − m), ℓ, and O_acc / ℓ so far."""
    steps = _steps(steps, BlockStep)
    h = steps[0].m.shape[0]
    head = checks.whole_number("head", head, 0, h - 1, f" Heads are 0-based: head=0 is Head 1 of {h}.")
    T, dh = steps[0].O.shape[1:]
    widest = max(len(s.keys) for s in steps)
    page, grid = _grid([max(widest, 1.5) * DECIMAL_CELL] + [1.6 * DECIMAL_CELL] * 4 + [dh * DECIMAL_CELL],
                       [T * DECIMAL_CELL] * len(steps), titled_rows=1)
    fig = page.fig
    for row, step in enumerate(steps):
        keys = [str(j + 1) for j in step.keys]
        panels = [(step.S_block[head], "scores", "S / √dh + M", keys),
                  (step.m_old[head][:, None], "scores", "m_old", [""]),
                  (step.m[head][:, None], "scores", "m", [""]),
                  (step.rescale[head][:, None], "weights", "e^(m_old − m)", [""]),
                  (step.l[head][:, None], "values", "ℓ", [""]),
                  (step.O[head], "values", "O_acc / ℓ", None)]
        for col, (matrix, kind, title, col_labels) in enumerate(panels):
            ax = fig.add_subplot(grid[row, col])
            panel_heatmap(page, ax, matrix, kind, title=title if row == 0 else None, col_labels=col_labels)
            if col == 0:
                ax.set_ylabel(f"j = {_tokens(step.keys)}", fontsize=TEXT)
            else:
                ax.tick_params(labelleft=False)  # the same Query rows as the block's scores, numbered there
    return finish(page, fig.suptitle(""))


def _power_of_ten(value, _position):  # 1e12 -> "10¹²", in plain text; "" between powers of ten
    exponent = np.log10(value) if value > 0 else np.nan
    return f"10{formats.superscript(str(round(exponent)))}" if np.isclose(exponent, np.round(exponent)) else ""


def cost_lines(ax, T_values, with_cache, without_cache, labels):  # -> [Line2D, Line2D]
    """Two costs over T on log-log axes, with the cache (solid) and without it (dashed)."""
    lines = [ax.loglog(T_values, with_cache, "o-", color="#0072B2", label=labels[0])[0],
             ax.loglog(T_values, without_cache, "s--", color="#D55E00", label=labels[1])[0]]
    ax.set_xlabel("T")
    ax.set_xticks(T_values, labels=[str(T) for T in T_values])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.yaxis.set_major_formatter(FuncFormatter(_power_of_ten))  # 10¹², not mathtext's smaller $10^{12}$
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.tick_params(labelsize=9)
    ax.legend(fontsize=9, frameon=False)
    ax.grid(True, which="major", color="0.9")
    return lines


def figure_generation_cost(T_values, macs_with, macs_without, values_with, values_without,
                           bytes_per_value=2):  # -> Figure
    """Left: multiply-adds to generate T tokens. Right: memory held at step T. With and without the cache."""
    fig = Figure(figsize=(NOTEBOOK_WIDTH, 3.6), layout="constrained")
    left, right = fig.subplots(1, 2)
    cost_lines(left, T_values, macs_with, macs_without,
               ("Σₜ [d(d + 2g·dh) + 2td]", "Σₜ [t·d(d + 2g·dh) + 2t²d]"))
    left.set_ylabel("MAC")
    to_mib = bytes_per_value / 2**20
    cost_lines(right, T_values, np.asarray(values_with) * to_mib, np.asarray(values_without) * to_mib,
               (f"{bytes_per_value}·(2Tg·dh + hT)", f"{bytes_per_value}·(2Tg·dh + hT²)"))
    right.set_ylabel("MiB")
    return fig
