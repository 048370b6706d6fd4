"""The explorer's picture as a pure function of its state: the Python reference of what the page shows.

`picture(state, spec, lang)` needs no widget: it resolves the state (live.state), makes the trace with
`attention_trace` and describes every section, heatmap and breakdown on screen, each cell's label, fill and
ink from `look.cells` (so from `look.colors` and `look.formats`, as the figures). The browser computes the same
picture itself (live/compute.js and live/explorer.js); tests/test_live_parity.py compares the two cell by cell.

    from attention_lab.live.picture import picture
    from attention_lab.live.state import initial_state
    from attention_lab.live.views import VIEWS
    p = picture(initial_state(VIEWS["all"]), VIEWS["all"], "en")
    p["sections"][1]["items"][0]["labels"][6:9]      # row 3 of Head 1's S: ["2", "0", "6"]
"""

from html import escape

from .. import look as style
from ..look import tables
from ..look import words as text
from ..look.cells import cells as styled_cells
from ..look.formats import equals
from ..numeric.examples import is_article_size
from ..numeric.pipeline import STAGES
from .state import offered_masks, resolve, trace_of
from .views import BREAKDOWNS, SECTIONS, whole_trace

AXIS_WORDS = {"query": "query", "key": "key", "token": "token", "component": ""}


def picture(state, spec, lang, own=None):  # -> dict of JSON types
    """Everything the page draws for `state`: the shape line, the note and sections of heatmaps and breakdowns."""
    on = resolve(state, spec, own)
    tr = trace_of(on, own)
    return picture_of(tr, on, spec, lang, has_mask=bool(offered_masks(spec, state["mask"])))


def picture_of(tr, on, spec, lang, has_mask=True):  # -> dict of JSON types
    """The picture of trace `tr` as resolved state `on` shows it (see `picture`)."""
    L = text.table(lang)
    ctx = {"tr": tr, "on": on, "spec": spec, "L": L, "lang": lang, "has_mask": has_mask}
    score_stages = [x for x in spec.items if x in STAGES and STAGES[x].kind == "scores"]
    # one colour scale for every score panel and head, so that their colours compare
    ctx["scores"] = style.value_range("scores", *(getattr(tr, x) for x in score_stages))
    sections, placed = [], False
    for item in spec.items:
        if item in SECTIONS:
            sections.append(_section(ctx, item))
        elif item in STAGES and whole_trace(item):
            sections.append({"key": item, "title": L[f"stage.{item}"], "color": None,
                             "items": [heatmap(ctx, item, 0)]})
        elif not placed:
            placed = True
            if on.head == -1 and spec.compared:  # all heads: one stage of each head side by side
                sections.append({"key": "compare", "title": L["all_heads"] + " · " + L[f"stage.{on.compare}"],
                                 "color": None, "items": [heatmap(ctx, on.compare, i) for i in range(tr.h)]})
            else:
                heads = range(tr.h) if on.head == -1 else [on.head]
                sections += [_head_section(ctx, i) for i in heads]
    return {"shape": tr.shapes(), "note": note(tr, on, L, has_mask), "sections": sections}


def note(tr, on, L, has_mask=True):
    """One sentence on where the numbers come from: the article's corner, a seed, or your own."""
    if on.source in ("yours", "learned"):
        said = L[f"note_{on.source}"]
    elif on.source == "random":
        said = L["note_random"].format(seed=on.seed)
    elif is_article_size(on.T, on.d, on.h, on.kv_heads) and on.T_q == on.T:
        if tr.mask_name == "causal":
            said = L["note_article"]
        elif tr.mask_name == "none":
            said = L["note_article_nomask"]
        else:
            said = L["note_article_mask"].format(mask=L[f"mask.{tr.mask_name}"])
    else:
        def span(key, n):
            return L[f"{key}_one"] if n == 1 else L[key].format(n=n)

        said = L["note_corner"].format(tokens=span("tokens", min(on.T, 3)), heads=span("heads", min(on.h, 2)),
                                       components=span("components", min(on.dh, 4)))
        if on.g != on.h:
            said += " " + L["note_kv"].format(g=on.g, kv=span("kv_span", min(on.g, 2)))
    if on.T_q != on.T:
        said += " " + L["note_queries"].format(n=on.T_q, first=on.first_query, T=on.T,
                                               align=L[f"align.{tr.mask.align}"])
    return said


def _section(ctx, name):
    L, tr = ctx["L"], ctx["tr"]
    if name == "scaling_note":
        root = style.format_value(tr.dh ** 0.5)
        said = L["scaling_note"].format(dh=tr.dh, root=root, eq=equals(tr.dh ** 0.5, root))
        return {"key": name, "title": "", "color": None, "items": [{"type": "note", "key": name, "text": said}]}
    panels = {"split": [("Q", 0), ("K", 0), ("V", 0)], "outputs": [("O", i) for i in range(tr.h)],
              "concat": [("H", 0)]}[name]
    return {"key": name, "title": L[name], "color": None, "items": [heatmap(ctx, x, i) for x, i in panels]}


def _head_section(ctx, i):
    """Head i's panels and breakdowns, in the view's order."""
    L, tr, spec = ctx["L"], ctx["tr"], ctx["spec"]
    title = L["head_n"].format(n=i + 1)
    if tr.kv_heads != tr.h:
        title += " · " + L["kv_head_n"].format(n=tr.kv_head_of(i) + 1)
    parts = [heatmap(ctx, x, i) for x in spec.head_stages]
    parts += [breakdown(ctx, x, i) for x in spec.items if x in BREAKDOWNS]
    return {"key": f"head@{i}", "title": title, "color": style.head_color(i), "items": parts}


def token_labels(on, axis, n_rows):  # -> the token numbers (1-based) of a matrix's rows
    """Query rows are the last T_q tokens; Key rows are tokens 1 … T; a row of components is numbered from 1."""
    if axis == "query" or (axis == "token" and n_rows == on.T_q):
        return [str(on.first_query + r) for r in range(n_rows)]
    return [str(r + 1) for r in range(n_rows)]


def heatmap(ctx, name, i):
    """One stage's panel for Query head i: its cells (from look.cells), title, axes, bars and highlight."""
    L, tr, on, spec, stage = ctx["L"], ctx["tr"], ctx["on"], ctx["spec"], STAGES[name]
    matrix = stage.matrix(tr, i)
    vmin, vmax = ctx["scores"] if stage.kind == "scores" else (None, None)
    title = L[f"stage.{name}"]
    if not ctx["has_mask"] and tr.mask_name == "none":  # a view before the mask is taught (03): M = 0
        title = title.replace(" + M", "")
    if stage.heads == "query" or stage.heads == "kv" and tr.kv_heads == tr.h:
        title += " · " + L["head_n"].format(n=i + 1)
    elif stage.heads == "kv":
        title += " · " + L["kv_head_n"].format(n=tr.kv_head_of(i) + 1)
    highlight = None
    if stage.highlight == "cell" and "dot" in spec.items:
        highlight = [on.query, on.key]
    elif stage.highlight == "row" and {"softmax", "weighted_sum"} & set(spec.items):
        highlight = [on.row, None]
    data = styled_cells(matrix, stage.kind, vmin, vmax)
    rows, cols = matrix.shape
    return {"type": "heatmap", "key": f"{name}@{i}", "name": name, "head": i, "title": title,
            "rowCap": L[AXIS_WORDS[stage.axes[0]]] if AXIS_WORDS[stage.axes[0]] else "",
            "colCap": L[AXIS_WORDS[stage.axes[1]]] if AXIS_WORDS[stage.axes[1]] else "",
            "rowLabels": token_labels(on, stage.axes[0], rows),
            "colLabels": token_labels(on, stage.axes[1], cols) if stage.axes[1] != "component" else
            [str(c + 1) for c in range(cols)], "bars": bars(tr, stage, i, cols), "hl": highlight,
            "rows": rows, "cols": cols, "labels": data["labels"].split(" "),
            "fill": [data["fill"][6 * k:6 * k + 6] for k in range(rows * cols)], "ink": data["ink"],
            "masked": data["masked"]}


def bars(tr, stage, i, n_cols):  # -> a head colour per column where columns are a head's components, else None
    if stage.axes[1] != "component":
        return None
    if stage.heads == "query":
        return [style.head_color(i)] * n_cols
    if stage.heads == "kv":
        return [style.kv_head_color(tr.kv_head_of(i), tr.h, tr.kv_heads)] * n_cols
    blocks = n_cols // tr.dh  # h for Q and H; g for K and V, each K/V head coloured as its first Query head
    return [style.kv_head_color(c // tr.dh, tr.h, blocks) for c in range(n_cols)]


def breakdown(ctx, name, i):
    """The picked score as a dot product, or the picked row's softmax and weighted sum, for head i."""
    L, tr, on, lang, items = ctx["L"], ctx["tr"], ctx["on"], ctx["lang"], set(ctx["spec"].items)
    g = tr.kv_head_of(i)
    if name == "dot":
        q, k = on.query, on.key
        n = on.first_query + q
        words = {"query": L["query_n"].format(n=n, nth=text.ordinal(n, lang)),
                 "key": L["key_n"].format(n=k + 1, nth=text.ordinal(k + 1, lang)),
                 "score": L["score"], "scaled": L["scaled"], "masked": L["masked"]}
        scaled = {"scaled": tr.S_scaled[i, q, k], "dh": tr.dh} if "S_scaled" in items else {}
        masked = {"mask_value": tr.M[q, k], "masked": tr.S_masked[i, q, k]} if items & {"M", "S_masked"} else {}
        body = tables.dot_product_html(tr.Qh[i, q], tr.Kh[g, k], score=tr.S[i, q, k], labels=words, **scaled,
                                       **masked)
        title = L["dot"].format(i=n, j=k + 1, ith=text.ordinal(n, lang), jth=text.ordinal(k + 1, lang))
    else:
        r = on.row
        n = on.first_query + r
        nth = text.ordinal(n, lang)
        if name == "softmax":
            words = {"key": L["key"], "scores": L["scores"], "sum": L["sum"], "weights": L["weights"],
                     "shifted": L["softmax_shifted"]}
            body = tables.softmax_html(tr.S_masked[i, r], tr.P[i, r], labels=words)
            title = L["softmax"].format(i=n, ith=nth)
        else:
            words = {"weight": L["weight"], "value": L["value"], "output": L["output_n"].format(n=n, nth=nth)}
            body = tables.weighted_sum_html(tr.P[i, r], tr.Vh[g], tr.O[i, r], labels=words)
            title = L["weighted_sum"].format(i=n, ith=nth)
    return {"type": "breakdown", "key": f"{name}@{i}", "name": name, "head": i, "title": title,
            "html": f'<div class="al-breakdown" data-name="{name}" data-head="{i}">'
                    f'<div class="al-title">{escape(title)}</div>{body}</div>'}
