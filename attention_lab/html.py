"""The same heatmaps as HTML, values as real text: the live path, milliseconds per view.

Colours, labels, text colours and masked cells all come from `style.cell_style`,
exactly as for the matplotlib figures; this module only writes them as HTML.
It never computes attention: the breakdown helpers display numbers read from a
trace (they compute the elementwise products of one dot product, for display;
the exponentials of a row come from `core.exponentials`).

    from attention_lab import html
    html.page(html.heatmap_html(tr.S[0], "S", title="S = QKᵀ"))   # a str of HTML

`heatmap_html` returns a fragment; `page` wraps fragments with the shared
<style> block once, so a view of many heatmaps carries its CSS one time.
"""

from html import escape

import numpy as np

from . import style
from .core import exponentials

# Layout only; each cell's colours are written inline from style.cell_style.
CSS = """
.al-view{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;color:#222;line-height:1.25}
.al-row{display:flex;flex-wrap:wrap;gap:14px 18px;align-items:flex-start;margin:6px 0 10px}
.al-section{margin:8px 0 2px;font-weight:600;font-size:13px}
.al-hm{display:inline-block;max-width:100%;overflow-x:auto}
.al-title{font-weight:600;font-size:12.5px;margin:0 0 3px}
.al-grid{border-collapse:separate;border-spacing:1px;font-variant-numeric:tabular-nums}
.al-grid td,.al-grid th{padding:0 3px;text-align:center;white-space:nowrap;height:1.75em;min-width:2.2em}
.al-grid th{font-weight:400;color:#666;font-size:.9em}
.al-grid th.al-rowcap{text-align:right;color:#888;font-size:.85em;padding-right:4px}
.al-grid th.al-colcap{color:#888;font-size:.85em;text-align:left}
.al-grid td.al-bar{height:4px;padding:0}
.al-grid td.al-masked{background-image:repeating-linear-gradient(45deg,rgba(0,0,0,.16) 0 2px,transparent 2px 6px)}
.al-grid td.al-hl{outline:2.5px solid #111;outline-offset:-2px;font-weight:700}
.al-grid tr.al-hlrow td{box-shadow:inset 0 2px 0 #111,inset 0 -2px 0 #111}
.al-grid tr.al-hlrow th{color:#111;font-weight:700}
.al-note{font-size:12.5px;margin:4px 0;font-variant-numeric:tabular-nums}
.al-bd{border-collapse:collapse;font-size:12.5px;font-variant-numeric:tabular-nums;margin:2px 0 6px}
.al-bd td,.al-bd th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee;white-space:nowrap}
.al-bd th{font-weight:600;color:#555;text-align:left}
.al-bd tr.al-total td,.al-bd tr.al-total th{border-top:1.5px solid #999;font-weight:700}
.al-swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:4px;vertical-align:-1px}
"""
STYLE_BLOCK = "<style>" + " ".join(line for line in CSS.split("\n") if line) + "</style>"

# Which axis captions fit which kind of matrix: T×T matrices are Query rows × Key columns.
_CAPTIONS = {"scores": ("Query", "Key"), "weights": ("Query", "Key"), "values": (None, None)}


def _font_px(n_cols):
    """Font size so that every number still fits: smaller as the matrix grows wider."""
    return 13 if n_cols <= 4 else 12 if n_cols <= 8 else 11 if n_cols <= 12 else 10 if n_cols <= 16 else 9


def _css_colors(rgba):  # [rows, cols, 4] in [0, 1] -> [rows][cols] of "#rrggbb"
    rgb = np.rint(np.asarray(rgba)[..., :3] * 255).astype(int)
    return [[f"#{r:02x}{g:02x}{b:02x}" for r, g, b in row] for row in rgb.tolist()]


def heatmap_html(matrix, kind, *, title=None, row_labels=None, col_labels=None, vmin=None, vmax=None,
                 highlight=None, col_colors=None, annotate=None, row_caption=None, col_caption=None,
                 name=None):  # [rows, cols] -> str
    """One matrix as an annotated HTML heatmap (a <table>), colours and labels from `style`.

    kind: "scores", "weights", "values", or a trace field name such as "S" or "P"
    (looked up in `style.KIND_OF`). Row and column labels are 1-based token
    numbers by default. T×T kinds get "Query" (rows) and "Key" (columns) axis
    captions unless row_caption / col_caption say otherwise ("" for none).
    highlight: (i, j) marks a cell, (i, None) a whole row (0-based).
    col_colors: one CSS colour per column (or None for a column), drawn as a bar
    above it, e.g. each head's colour over its columns of Q, K, V or H.
    annotate: numbers in the cells; None means "while they fit" (≤ 32 columns),
    otherwise each value is still in the cell's tooltip.
    """
    matrix = np.asarray(matrix, dtype=float)
    name = name if name is not None else kind if kind in style.KIND_OF else ""
    kind = style.KIND_OF.get(kind, kind)
    cs = style.cell_style(matrix, kind, vmin=vmin, vmax=vmax)
    n_rows, n_cols = matrix.shape
    row_labels = style.token_labels(n_rows) if row_labels is None else [str(x) for x in row_labels]
    col_labels = style.token_labels(n_cols) if col_labels is None else [str(x) for x in col_labels]
    if len(row_labels) != n_rows or len(col_labels) != n_cols:
        raise ValueError(
            f"row_labels, col_labels: need {n_rows} row and {n_cols} column labels for a matrix of shape "
            f"{matrix.shape}, got {len(row_labels)} and {len(col_labels)}."
        )
    if col_colors is not None and len(col_colors) != n_cols:
        raise ValueError(f"col_colors: need one colour (or None) per column, {n_cols}, got {len(col_colors)}.")
    default_rows, default_cols = _CAPTIONS[kind]
    row_caption = default_rows if row_caption is None else row_caption
    col_caption = default_cols if col_caption is None else col_caption
    annotate = n_cols <= 32 if annotate is None else annotate
    hl_row, hl_col = (None, None) if highlight is None else highlight

    fills = _css_colors(cs.rgba)
    out = [f'<div class="al-hm" data-name="{escape(name)}">']
    if title:
        out.append(f'<div class="al-title">{escape(str(title))}</div>')
    out.append(f'<table class="al-grid" data-rows="{n_rows}" data-cols="{n_cols}" '
               f'style="font-size:{_font_px(n_cols)}px"><thead>')
    if col_caption:
        out.append(f'<tr><th></th><th class="al-colcap" colspan="{n_cols}">{escape(col_caption)} →</th></tr>')
    if col_colors is not None:
        bars = "".join(f'<td class="al-bar" style="background:{escape(c)}"></td>' if c else '<td class="al-bar"></td>'
                       for c in col_colors)
        out.append(f"<tr><th></th>{bars}</tr>")
    corner = f"{escape(row_caption)} ↓" if row_caption else ""
    out.append(f'<tr><th class="al-rowcap">{corner}</th>'
               + "".join(f"<th>{escape(c)}</th>" for c in col_labels) + "</tr></thead><tbody>")
    for i in range(n_rows):
        row_class = ' class="al-hlrow"' if i == hl_row and hl_col is None else ""
        cells = []
        for j in range(n_cols):
            classes = "al-masked " if cs.masked[i, j] else ""
            classes += "al-hl" if (i == hl_row and j == hl_col) else ""
            label = escape(cs.labels[i][j])
            ink = style.INK_DARK if cs.text_dark[i, j] else style.INK_LIGHT
            cls = f' class="{classes.strip()}"' if classes else ""
            tip = "" if annotate else f' title="{label}"'
            cells.append(f'<td{cls}{tip} style="background-color:{fills[i][j]};color:{ink}">'
                         f'{label if annotate else ""}</td>')
        out.append(f"<tr{row_class}><th>{escape(row_labels[i])}</th>{''.join(cells)}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def row_of(*fragments):
    """Heatmaps (or any fragments) side by side, wrapping when the line is full."""
    return '<div class="al-row">' + "".join(fragments) + "</div>"


def section(title, *fragments, color=None):
    """A titled group of fragments side by side; `color` puts a swatch (a head's colour) before the title."""
    mark = swatch(color) if color else ""
    return f'<div class="al-section">{mark}{escape(title)}</div>' + row_of(*fragments)


def page(*fragments):
    """The fragments of one view, with the shared <style> block emitted once."""
    return STYLE_BLOCK + '<div class="al-view">' + "".join(fragments) + "</div>"


def swatch(color):
    """A small colour square, e.g. before "Head 1", in the head's identity colour."""
    return f'<span class="al-swatch" style="background:{escape(color)}"></span>'


# ---- breakdowns: one number of the trace, shown as the article computes it by hand ----

def _v(x, kind="values"):
    return style.format_value(float(x), kind)


def _paren(text):
    return f"({text})" if text.startswith(style.MINUS) else text


def _approx(x):
    """A display number for exp and sums: 4 significant digits (whole numbers from 10 000)."""
    if not np.isfinite(x):
        return _v(x)
    text = f"{x:,.0f}" if abs(x) >= 1e4 else f"{x:.4g}"
    return text.replace("-", style.MINUS)


def dot_product_html(q, k, *, score, scaled, mask_value, masked, dh, labels):  # [dh], [dh] -> str
    """One score of S broken down: products of matching components, their sum, ÷ √dh, + M.

    q, k: the Query and Key rows of one head; score, scaled, mask_value, masked:
    S[i, j], S_scaled[i, j], M[i, j], S_masked[i, j] read from the trace.
    labels: dict with "query", "key" (e.g. "Query token 3"), "score", "scaled", "masked" words.
    """
    terms = style.dot_product_text(q, k)  # −1·1 + 1·(−1) + …
    root = _v(dh)
    lines = [
        f"{escape(labels['query'])} = {style.format_row(q)} · {escape(labels['key'])} = {style.format_row(k)}",
        f"{escape(labels['score'])}: {terms} = <b>{_v(score, 'scores')}</b>",
        f"{escape(labels['scaled'])}: {_v(score, 'scores')} ÷ √{root} = <b>{_v(scaled, 'scores')}</b>",
        f"{escape(labels['masked'])}: {_v(scaled, 'scores')} + {_paren(_v(mask_value, 'scores'))} = "
        f"<b>{_v(masked, 'scores')}</b>",
    ]
    return '<div class="al-bdown al-dot">' + "".join(f'<div class="al-note">{x}</div>' for x in lines) + "</div>"


def softmax_html(scores_row, weights_row, *, labels, col_labels=None):  # [T], [T] -> str
    """One row's softmax as a table: scores → exp → sum → weights (weights read from P)."""
    scores_row = np.asarray(scores_row, dtype=float)
    exps = exponentials(scores_row)  # e^s as the article writes them; e^−∞ = 0 exactly
    total = exps.sum()
    cols = style.token_labels(len(scores_row)) if col_labels is None else col_labels
    head = "".join(f"<th>{escape(labels['key'])} {escape(str(c))}</th>" for c in cols)
    score_cells = "".join(f"<td>{_v(x, 'scores')}</td>" for x in scores_row)
    exp_cells = "".join(f"<td>e<sup>{_v(x, 'scores')}</sup> = {_approx(e) if np.isfinite(x) else 0}</td>"
                        for x, e in zip(scores_row, exps, strict=True))
    weight_cells = "".join(f"<td>{_approx(e)} / {_approx(total)} = <b>{_v(p, 'weights')}</b></td>"
                           for e, p in zip(exps, weights_row, strict=True))
    return (
        f'<table class="al-bd al-softmax"><tr><th></th>{head}<th></th></tr>'
        f"<tr><th>{escape(labels['scores'])}</th>{score_cells}<td></td></tr>"
        f"<tr><th>exp</th>{exp_cells}<td>{escape(labels['sum'])} = {_approx(total)}</td></tr>"
        f'<tr class="al-total"><th>{escape(labels["weights"])}</th>{weight_cells}'
        f"<td>{escape(labels['sum'])} = {_approx(float(np.sum(weights_row)))}</td></tr></table>"
    )


def weighted_sum_html(weights_row, values, out_row, *, labels, row_labels=None):  # [T], [T, dh], [dh] -> str
    """One output row as the weighted sum of Value rows: Σ_j P[i, j] · V_j = O[i] (O read from the trace)."""
    values = np.asarray(values, dtype=float)
    rows = style.token_labels(len(values)) if row_labels is None else row_labels
    body = "".join(
        f"<tr><th>{escape(labels['value'])} {escape(str(r))}</th><td>{_v(p, 'weights')} ×</td>"
        f"<td>{style.format_row(v)}</td></tr>"
        for r, p, v in zip(rows, weights_row, values, strict=True))
    terms = " + ".join(f"{_v(p, 'weights')}·V<sub>{escape(str(r))}</sub>"
                       for r, p in zip(rows, weights_row, strict=True))
    return (
        f'<table class="al-bd al-wsum"><tr><th></th><th>{escape(labels["weight"])}</th>'
        f"<th>{escape(labels['value'])}</th></tr>{body}"
        f'<tr class="al-total"><th>{escape(labels["output"])}</th><td>=</td>'
        f"<td>{style.format_row(out_row)}</td></tr></table>"
        f'<div class="al-note">{escape(labels["output"])} = {terms}</div>'
    )
