"""The explorer's styles, and its breakdowns as HTML: one score as a dot product, one row's softmax and sum.

`CSS` is the layout the live front-end's heatmaps and breakdowns share (live/page.py puts it in the bundle);
`font_px` how small a wide matrix's numbers get. The breakdowns are the page's (live/picture.js) written in
Python, for a notebook's own HTML; the page does not use them. Nothing here computes attention: the breakdowns
display numbers read from a trace (the elementwise products of one dot product, and e^s of a row, for display).
"""

from html import escape

import numpy as np

from ..numeric.core import shown_exponentials
from . import colors
from .formats import MINUS, dot_product_text, equals, format_approx, format_row, format_value

# Layout and the theme's colours (look.colors.theme_css); each cell's colours are written inline from look.cells.
# The live explorer uses the same classes.
CSS = colors.theme_css() + """
.al-view{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR","Noto Sans CJK KR",sans-serif;
color:var(--al-fg);line-height:1.25;max-width:100%;min-width:0}
.al-row{display:flex;flex-wrap:wrap;gap:14px 18px;align-items:flex-start;margin:6px 0 10px;max-width:100%}
.al-section{margin:8px 0 2px;font-weight:600;font-size:13px}
.al-hm{display:inline-block;max-width:100%;min-width:0}
.al-title{font-weight:600;font-size:12.5px;margin:0 0 3px;white-space:normal;overflow-wrap:anywhere}
.al-grid{border-collapse:separate;border-spacing:1px;font-variant-numeric:tabular-nums}
.al-grid td,.al-grid th{padding:0 3px;text-align:center;white-space:nowrap;height:1.75em;min-width:2.2em}
.al-grid th{font-weight:400;color:var(--al-muted);font-size:.9em}
.al-grid th.al-rowcap{text-align:right;color:var(--al-muted);font-size:.85em;padding-right:4px}
.al-grid th.al-colcap{color:var(--al-muted);font-size:.85em;text-align:left}
.al-grid td.al-bar{height:4px;padding:0}
.al-grid.al-compact td,.al-grid.al-compact th.al-col{min-width:0;padding:0;font-size:8px;overflow:hidden}
.al-grid td.al-masked{background-image:repeating-linear-gradient(45deg,rgba(0,0,0,.16) 0 2px,transparent 2px 6px)}
.al-grid td.al-hl{outline:2.5px solid var(--al-strong);outline-offset:-2px;font-weight:700}
.al-grid tr.al-hlrow td{box-shadow:inset 0 2px 0 var(--al-strong),inset 0 -2px 0 var(--al-strong)}
.al-grid tr.al-hlrow th{color:var(--al-strong);font-weight:700}
.al-note{font-size:12.5px;margin:4px 0;font-variant-numeric:tabular-nums;white-space:normal;overflow-wrap:anywhere}
.al-breakdown{max-width:100%;min-width:0}
.al-bd{border-collapse:collapse;font-size:12.5px;font-variant-numeric:tabular-nums;margin:2px 0 6px}
.al-bd td,.al-bd th{padding:2px 8px;text-align:right;border-bottom:1px solid var(--al-faint);white-space:nowrap}
.al-bd th{font-weight:600;color:var(--al-muted);text-align:left}
.al-bd tr.al-total td,.al-bd tr.al-total th{border-top:1.5px solid var(--al-rule);font-weight:700}
.al-swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:4px;vertical-align:-1px}
"""
def font_px(n_cols):
    """Font size so that every number still fits: smaller as the matrix grows wider."""
    return 13 if n_cols <= 4 else 12 if n_cols <= 8 else 11 if n_cols <= 12 else 10 if n_cols <= 16 else 9


# ---- breakdowns: one number of the trace, shown as the article computes it by hand ----

def _v(x, kind="values"):
    return format_value(float(x), kind)


def _paren(text):
    return f"({text})" if text.startswith(MINUS) else text


def _is(x, text):  # "= text" or "≈ text"
    return f"{equals(float(x), text)} {text}"


def dot_product_html(q, k, *, score, labels, scaled=None, dh=None, mask_value=None, masked=None):  # [dh], [dh] -> str
    """One score of S broken down: products of matching components, their sum, then ÷ √dh and + M when given.

    q, k: the Query and Key rows of one head; score, scaled, mask_value, masked:
    S[i, j], S_scaled[i, j], M[i, j], S_masked[i, j] read from the trace. The ÷ √dh line
    is shown when `scaled` is given (with dh), the + M line when `mask_value` is given (with masked).
    labels: dict with "query", "key" (e.g. "Query token 3"), "score", and "scaled", "masked" as needed.
    """
    terms = dot_product_text(q, k)  # −1·1 + 1·(−1) + …
    lines = [
        f"{escape(labels['query'])} = {format_row(q)} · {escape(labels['key'])} = {format_row(k)}",
        f"{escape(labels['score'])}: {terms} <b>{_is(score, _v(score, 'scores'))}</b>",
    ]
    if scaled is not None:
        lines.append(f"{escape(labels['scaled'])}: {_v(score, 'scores')} ÷ √{_v(dh)} "
                     f"<b>{_is(scaled, _v(scaled, 'scores'))}</b>")
    if mask_value is not None:
        base = scaled if scaled is not None else score
        lines.append(f"{escape(labels['masked'])}: {_v(base, 'scores')} + {_paren(_v(mask_value, 'scores'))} "
                     f"<b>{_is(masked, _v(masked, 'scores'))}</b>")
    return '<div class="al-bdown al-dot">' + "".join(f'<div class="al-note">{x}</div>' for x in lines) + "</div>"


def softmax_html(scores_row, weights_row, *, labels, row_labels=None):  # [T], [T] -> str
    """One row's softmax as a table, one Key token a line: score → exp → weight (weights read from P).

    The exponentials are e^s as the article writes them; where one of them overflows to ∞ (∞ / ∞ is not a
    weight), they are e^(s − m) with m the row's largest score, as softmax computes them, and a line under the
    table says so. labels: dict with "key", "scores", "weights", "sum" words, and "shifted" (with {m}).
    """
    scores_row = np.asarray(scores_row, dtype=float)
    exps, m = shown_exponentials(scores_row)  # e^s as the article writes them, e^(s − m) where one overflows
    shift = None if m is None else _v(m, "scores")
    total = float(exps.sum())
    rows = colors.token_labels(len(scores_row)) if row_labels is None else row_labels
    total_text = format_approx(total)
    body = []
    for r, x, e, p in zip(rows, scores_row, exps, weights_row, strict=True):
        exp_text = format_approx(e) if np.isfinite(x) else "0"
        power = _v(x, "scores") + (f" {MINUS} {_paren(shift)}" if shift and np.isfinite(x) else "")
        weight = (f"{exp_text} / {total_text} " if total > 0 else "") + _is(p, _v(p, "weights"))
        body.append(f"<tr><th>{escape(str(r))}</th><td>{_v(x, 'scores')}</td>"
                    f"<td>e<sup>{power}</sup> {_is(e, exp_text)}</td><td>{weight}</td></tr>")
    weight_sum = float(np.sum(weights_row))
    note = f'<div class="al-note">{escape(labels["shifted"].format(m=shift))}</div>' if shift else ""
    return (
        f'<table class="al-bd al-softmax"><tr><th>{escape(labels["key"])}</th><th>{escape(labels["scores"])}</th>'
        f"<th>exp</th><th>{escape(labels['weights'])}</th></tr>{''.join(body)}"
        f'<tr class="al-total"><th>{escape(labels["sum"])}</th><td></td><td>{_is(total, total_text)}</td>'
        f"<td>{_is(weight_sum, format_approx(weight_sum))}</td></tr></table>{note}"
    )


def weighted_sum_html(weights_row, values, out_row, *, labels, row_labels=None):  # [T], [T, dh], [dh] -> str
    """One output row as the weighted sum of Value rows: Σ_j P[i, j] · V_j = O[i] (O read from the trace).

    labels: dict with "weight", "value", "output" words.
    """
    values = np.asarray(values, dtype=float)
    rows = colors.token_labels(len(values)) if row_labels is None else row_labels
    body = "".join(
        f"<tr><th>{escape(labels['value'])} {escape(str(r))}</th><td>{_v(p, 'weights')} ×</td>"
        f"<td>{format_row(v)}</td></tr>"
        for r, p, v in zip(rows, weights_row, values, strict=True))
    terms = " + ".join(f"{_v(p, 'weights')}·V<sub>{escape(str(r))}</sub>"
                       for r, p in zip(rows, weights_row, strict=True))
    exact = all(equals(float(p), _v(p, "weights")) == "=" for p in weights_row) and all(
        equals(float(o), _v(o)) == "=" for o in out_row)
    sign = "=" if exact else "≈"
    return (
        f'<table class="al-bd al-wsum"><tr><td></td><th>{escape(labels["weight"])}</th>'
        f"<th>{escape(labels['value'])}</th></tr>{body}"
        f'<tr class="al-total"><th>{escape(labels["output"])}</th><td>{sign}</td>'
        f"<td>{format_row(out_row)}</td></tr></table>"
        f'<div class="al-note">{escape(labels["output"])} {sign} {terms}</div>'
    )
