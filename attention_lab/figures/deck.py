"""The teaching deck, in the article's order: one plan of slides that the PDF deck and the pptx deck both draw.

    from attention_lab.figures import deck
    for page in deck.pages(al.article_example(), "ko"):     # [Page]: title, placed tables, text, boxes, notes
        print(page.title)

The slides: a title slide; figure 1 (the flow); QKᵀ with one score as a dot product; ÷√dh and why; the mask;
one row's softmax built up in four steps (the masked row, then eˢ, then their sum, then the weights); P; PV with
one row as a weighted sum; Concat into H; back to figure 1; what comes next (W_O, the residual stream).

Every matrix is a table of all its numbers (the cells' labels, fills and ink from `look.colors.cell_style`, the
rule every figure uses) at NUMBER_PT points or more; a matrix too large for one slide at that size is split into
blocks of rows and columns, and the blocks go on as many slides as they need ("(1/2)", "(2/2)"): a number is
never left out. At the article's size nothing is under 18 pt. Positions are inches from the slide's top-left
corner, so both renderers place things alike, and each slide is laid out once for both editions (ko, en) by
`deck_layout`: the two decks have the same slides, every table in the same place at the same size. The softmax
row's four steps share the last step's layout (rows still to come are blank). The cells a line of text works out
are framed (S[3, 1] and its factors, the PV row), and a product on a slide is the product of the factors it shows,
or says ≈ and that the factors are rounded. Concat's tables are filled in the heads' colours, as figure 1's boxes
are framed.
"""

import numpy as np
from matplotlib import colors as mcolors

from ..look import colors, formats, words
from ..numeric.arithmetic import row_sums
from ..numeric.core import shown_exponentials
from ..numeric.pipeline import STAGES
from .article import shift_text, shifted_word
from .deck_layout import (
    COVER_PT,
    FLOW_SMALL_PT,
    GAP,
    LINE,
    MARGIN,
    TEXT_PT,
    TITLE_PT,
    Box,
    H,
    Page,
    Placed,
    Slide,
    Table,
    Text,
    W,
    _lines_h,
    _lines_text,
    _text_w,
    _title_lines,
    table_heading,
    table_pages,
    title_h,
    unbroken,
)
from .heatmap import check_trace, font_family, query_labels, token_index
from .layout import head_matrix, trace_scales
from .lines import wrap

# The layout's names that the deck's renderers (export) read, importable from here as before the split
__all__ = ["COVER_PT", "GAP", "H", "LINE", "MARGIN", "TEXT_PT", "TITLE_PT", "W", "Box", "Page", "Placed", "Slide",
           "Table", "Text", "pages", "reproduced", "table_heading", "table_pages", "title_h", "unbroken"]

# ---------------------------------------------------------------------------
# A trace's matrices as tables.


def _matrix_table(name, head, title, matrix, kind, scale, row_labels, col_labels, axes, allowed=None):
    cells = colors.cell_style(matrix, kind, *scale, allowed)
    return Table(name, head, title, cells.labels, cells.rgba, cells.text_dark, cells.masked, tuple(row_labels),
                 tuple(col_labels), axes, range(matrix.shape[0]), range(matrix.shape[1]),
                 np.zeros(matrix.shape, bool))


def _marked(table, rows=None, cols=None):  # -> the table with the cells in rows × cols framed (None: every one)
    marked = np.zeros_like(table.marked)
    marked[slice(None) if rows is None else rows, slice(None) if cols is None else cols] = True
    return table._replace(marked=marked)


def _head_filled(table, dh):  # -> the table with each column filled in the colour of its head: dh columns a head
    """Concat's tables: where each column of H comes from, in the heads' colours (ink by contrast, as every cell)."""
    rgba = np.array([mcolors.to_rgba(colors.head_color(j // dh if table.head is None else table.head))
                     for j in table.cols])
    fills = np.broadcast_to(rgba, table.fills.shape).copy()
    return table._replace(fills=fills, dark=colors.dark_text_reads_better(fills))


def _plain_row(values, labels):  # one row of numbers that no colour scale holds (eˢ): white, black ink
    n = len(values)
    return (tuple(labels),), np.ones((1, n, 4)), np.ones((1, n), bool), np.zeros((1, n), bool)


def _stacked(name, head, title, parts, row_labels, col_labels, axes):  # parts: [(labels, fills, dark, masked)]
    labels = tuple(row for part in parts for row in part[0])
    fills, dark, masked = (np.concatenate([part[k] for part in parts]) for k in (1, 2, 3))
    return Table(name, head, title, labels, fills, dark, masked, tuple(row_labels), tuple(col_labels), axes,
                 range(len(labels)), range(len(labels[0])), np.zeros(masked.shape, bool))


def _style_row(row, kind, scale, allowed=None):
    cells = colors.cell_style(np.asarray(row, float)[None, :], kind, *scale, None if allowed is None else [allowed])
    return cells.labels, cells.rgba, cells.text_dark, cells.masked


# ---------------------------------------------------------------------------
# The slides, in the article's order.


def _notes(key, lang):
    """What to ask the class at this slide, then the article's sentence it illustrates."""
    return (words.say("deck.ask", lang) + words.say(f"deck.notes.{key}", lang) + "\n\n"
            + words.say("deck.article", lang) + "“" + words.say(f"deck.quote.{key}", lang) + "”")


def _flow(tr, lang, title, notes, next_step=False):  # -> Page: figure 1 as boxes, Q·K·V → heads → O → Concat → H
    """Figure 1's flow as boxes, with the article's caption of figure 1 under them."""
    family = font_family(lang)
    title_lines = _title_lines(title, family)
    top = MARGIN + len(title_lines) * TITLE_PT * LINE / 72 + 0.3
    caption = [words.say("caption.fig1_heads", lang, T=tr.T_q, d=tr.d, dh=tr.dh)]
    lines_h = _lines_h(caption, family)
    room_h = H - MARGIN - top - lines_h - 0.3
    say = words.say
    columns = [[(say("deck.flow_qkv", lang, T=tr.T_q, d=tr.d), None)],
               [(say("deck.flow_head", lang, n=i + 1), colors.head_color(i)) for i in range(tr.h)],
               [(say("deck.flow_out", lang, n=formats.subscript(i + 1), T=tr.T_q, dh=tr.dh), colors.head_color(i))
                for i in range(tr.h)],
               [(say("deck.flow_concat", lang), None)],
               [(say("deck.flow_h", lang, T=tr.T_q, d=tr.d), None)]]
    if next_step:
        columns.append([(say("deck.flow_next", lang), None)])
    arrow_w = 0.45
    box_w = (W - 2 * MARGIN - arrow_w * (len(columns) - 1)) / len(columns)
    pt = TEXT_PT
    items = []
    for c, column in enumerate(columns):
        x = MARGIN + c * (box_w + arrow_w)
        box_h = min(1.2, (room_h - 0.15 * (len(column) - 1)) / len(column))
        y = top + (room_h - len(column) * box_h - 0.15 * (len(column) - 1)) / 2
        for text, edge in column:
            size = next(size for size in (pt, FLOW_SMALL_PT) if size == FLOW_SMALL_PT or _box_fits(
                text, size, box_w - 0.2, box_h - 0.1, family))
            text = "\n".join(_box_lines(text, size, box_w - 0.2, family))  # each line within the box
            items.append(Box(x, y, box_w, box_h, text, size, edge))
            y += box_h + 0.15
        if c:
            items.append(Box(x - arrow_w, top + room_h / 2 - 0.3, arrow_w, 0.6, "→", TITLE_PT, "none"))
    items.append(_lines_text(caption, H - MARGIN - lines_h, family))
    return Page(title_lines, tuple(items), notes)


def _box_lines(text, pt, width, family):  # -> the box's lines, each line of its text wrapped to `width` inches
    return [part for line in text.split("\n") for part in wrap(line, width * 72, pt, family)]


def _box_fits(text, pt, width, height, family):  # -> whether the text, wrapped, fits a box of width × height
    lines = _box_lines(text, pt, width, family)
    return (len(lines) * pt * LINE / 72 <= height
            and all(_text_w(line, pt, family) <= width for line in lines))  # a word too long for a line


def pages(tr, lang, chosen=None):  # -> [Page]
    """The deck's slides for this trace, in the article's order. chosen: {"head", "row", "query", "key"} 0-based
    (the command's --head, --row, --query, --key), defaults as the article's: Head 1, token 3's row, S[3, 1].

    Each slide of tables is laid out once for both editions (`table_pages`): the Korean and the English deck have
    the same slides, their tables in the same places at the same sizes."""
    other = "en" if lang == "ko" else "ko"
    out = []
    for slide, twin in zip(_plan(tr, lang, chosen), _plan(tr, other, chosen), strict=True):
        out += table_pages(slide, twin) if isinstance(slide, Slide) else [slide]
    return out


def _shown(label):  # -> (the number a label shows, half a unit of its last shown digit)
    mantissa, _, power = label.partition(formats.TIMES_TEN)
    exponent = int(power.translate(UNSUPER)) if power else 0  # "8.886×10⁶": its unit is 10³
    return formats.parse_label(label), 0.5 * 10.0 ** (exponent - len(mantissa.partition(".")[2]))


UNSUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def reproduced(result, label):  # -> whether `result`, worked out from shown numbers, shows as `label` to its digits
    """A product on a slide must be the product of the factors it shows (issue 49): 0.629 × 2 is not 1.257."""
    shown, half = _shown(label)
    return bool(np.isfinite(result)) and abs(result - shown) <= half * (1 + 1e-9)


def _plan(tr, lang, chosen=None):  # -> [Page | Slide], in the article's order
    tr = check_trace(tr)
    chosen = chosen or {}
    head = chosen.get("head", 0)
    row = token_index(tr, chosen.get("row"), "row", 2)
    query, key = token_index(tr, chosen.get("query"), "query", 2), token_index(tr, chosen.get("key"), "key", 0)
    kv = tr.kv_head_of(head)
    say, n = words.say, head + 1
    scales = trace_scales(tr)
    q_rows, k_cols = query_labels(tr), colors.token_labels(tr.T_k)
    comps = colors.token_labels(tr.dh)
    Qw, Kw, comp = say("deck.query_tokens", lang), say("deck.key_tokens", lang), say("deck.components", lang)

    def table(name, title, matrix, kind, rows, cols, rows_are, cols_are, h=head):
        return _matrix_table(name, h, title, matrix, kind, scales[kind], rows, cols,
                             (say("deck.rows", lang, rows=rows_are), say("deck.cols", lang, cols=cols_are)),
                             STAGES[name].allowed(tr) if name in STAGES else None)

    def shaped(title, matrix):
        return f"{title} ({matrix.shape[0]} × {matrix.shape[1]})"

    def slide(title, tables, lines, notes, **kw):
        return Slide(title, tuple(tables), tuple(lines), _notes(notes, lang), lang, **kw)

    S, S_scaled, M = tr.S[head], tr.S_scaled[head], tr.M
    S_masked, P, O = tr.S_masked[head], tr.P[head], tr.O[head]
    Qh, Kh, Vh = tr.Qh[head], tr.Kh[kv], tr.Vh[kv]
    Qn, Kn, Vn, On = (head_matrix(x, head) for x in "QKVO")
    Sn = head_matrix("S", head)
    t_Q = table("Qh", shaped(Qn, Qh), Qh, "values", q_rows, comps, Qw, comp)
    t_KT = table("KhT", shaped(f"{Kn}ᵀ", Kh.T), Kh.T, "values", comps, k_cols, comp, Kw)
    t_S = table("S", shaped(f"{Sn} = {Qn}{Kn}ᵀ", S), S, "scores", q_rows, k_cols, Qw, Kw)
    t_Ss = table("S_scaled", shaped(f"{Sn} / √dh", S), S_scaled, "scores", q_rows, k_cols, Qw, Kw)
    t_M = table("M", shaped("M", M), M, "scores", q_rows, k_cols, Qw, Kw, h=None)
    t_Sm = table("S_masked", shaped(f"{Sn} / √dh + M", S), S_masked, "scores", q_rows, k_cols, Qw, Kw)
    t_P = table("P", shaped(f"{head_matrix('P', head)} = softmax({Sn} / √dh + M)", P), P, "weights", q_rows,
                k_cols, Qw, Kw)
    t_V = table("Vh", shaped(Vn, Vh), Vh, "values", k_cols, comps, Kw, comp)
    t_O = table("O", shaped(f"{On} = PV", O), O, "values", q_rows, comps, Qw, comp)
    rounded = say("deck.rounded", lang)

    out = [Page(_title_lines(say("deck_title", lang), font_family(lang), COVER_PT), (), _notes("title", lang),
                (say("deck.subtitle", lang, T=tr.T_k, d=tr.d, h=tr.h, dh=tr.dh,
                     mask=say(f"mask.{tr.mask_name}", lang)),))]
    out.append(_flow(tr, lang, say("fig_heads_title", lang), _notes("flow", lang)))

    # QKᵀ: one score worked out, its cell and its factors (Q's row, Kᵀ's column) framed
    v = formats.format_value
    score = v(S[query, key], "scores")
    q_shown, k_shown = ([formats.parse_label(v(x)) for x in row] for row in (Qh[query], Kh[key]))
    exact = reproduced(float(np.dot(q_shown, k_shown)), score)  # the factors as shown: 1.5, not 1.4999
    terms = formats.dot_product_text(Qh[query], Kh[key]).replace("·", " × ")
    dot = say("deck.dot", lang, i=q_rows[query], j=k_cols[key], q=unbroken(formats.format_row(Qh[query])),
              k=unbroken(formats.format_row(Kh[key])), terms=terms, eq="=" if exact else "≈", score=score)
    at = (slice(query, query + 1), slice(key, key + 1))
    out.append(slide(say("deck.title_scores", lang, n=n),
                     [_marked(t_Q, rows=at[0]), _marked(t_KT, cols=at[1]), _marked(t_S, *at)],
                     [dot] + ([] if exact else [rounded]), "scores"))

    scaled, root = v(S_scaled[query, key], "scores"), v(np.sqrt(tr.dh))
    exact = reproduced(formats.parse_label(score) / np.sqrt(tr.dh), scaled)
    eq = formats.equals(S_scaled[query, key], scaled) if exact else "≈"
    one = say("deck.scaled_one", lang, dh=tr.dh, root=root, root_eq=formats.equals(np.sqrt(tr.dh), root),
              i=q_rows[query], j=k_cols[key], score=score, eq=eq, scaled=scaled)
    out.append(slide(say("deck.title_scaling", lang, n=n), [_marked(t_S, *at), _marked(t_Ss, *at)],
                     [one, say("caption.scaling_head1", lang)] + ([] if exact else [rounded]), "scaling"))
    out.append(slide(say("deck.title_mask", lang, n=n), [t_Ss, t_M, t_Sm], [say("fig_mask_rule", lang)], "mask"))
    out.append(_softmax_steps(tr, lang, head, row, scales, q_rows, k_cols, Kw))
    out.append(slide(say("deck.title_softmax", lang, n=n), [t_P], [say("caption.fig4_softmax", lang)], "softmax"))

    # PV: one row as a weighted sum; each term's product worked out from the weight and the Value row it shows
    seen = STAGES["P"].allowed(tr)[row]  # a weight of 0.0 where the row sees its key is a term: "0.000"
    terms, all_exact = [], True
    for j in np.flatnonzero(seen):
        p = v(P[row, j], "weights", True)
        product = [v(x) for x in P[row, j] * Vh[j]]
        exact = all(reproduced(formats.parse_label(p) * formats.parse_label(v(x)), label)
                    for x, label in zip(Vh[j], product, strict=True))
        all_exact &= exact
        terms.append(unbroken(say("deck.pv_term", lang, p=p, j=k_cols[j], eq="=" if exact else "≈",
                                  row="[" + ", ".join(product) + "]")))
    exact = all(formats.equals(o, v(o)) == "=" for o in O[row])
    terms.append(unbroken(say("deck.pv_sum", lang, i=q_rows[row], eq="=" if exact else "≈",
                              row=formats.format_row(O[row]))))
    out.append(slide(say("deck.title_pv", lang, n=n), [_marked(t_P, rows=slice(row, row + 1)), t_V,
                                                       _marked(t_O, rows=slice(row, row + 1))],
                     ["   ".join(terms)] + ([] if all_exact else [rounded]), "pv"))

    # Concat: each head's O in its head's colour, and H's columns in the colours of the heads they come from
    heads = [_head_filled(table("O", shaped(f"{head_matrix('O', i)}", tr.O[i]), tr.O[i], "values", q_rows, comps,
                                Qw, comp, h=i), tr.dh) for i in range(tr.h)]
    t_H = _head_filled(table("H", shaped(words.say("stage.H", lang), tr.H), tr.H, "values", q_rows,
                             colors.token_labels(tr.d), Qw, comp, h=None), tr.dh)
    out.append(slide(say("deck.title_concat", lang), [*heads, t_H],
                     [say("caption.fig1_heads", lang, T=tr.T_q, d=tr.d, dh=tr.dh)], "concat", units={"H": tr.dh}))
    out.append(_flow(tr, lang, say("deck.title_back", lang), _notes("back", lang), next_step=True))
    family = font_family(lang)
    closing = [say(f"deck.next_{i}", lang) for i in (1, 2, 3)]
    out.append(Page(_title_lines(say("deck.title_next", lang), family),
                    (_lines_text(closing, 2.0, family),), _notes("next", lang)))
    return out


def _softmax_steps(tr, lang, head, row, scales, q_rows, k_cols, Kw):  # -> Slide: one row's softmax in 4 steps
    """The article's softmax of one row, built up: the masked row; then eˢ; then their sum; then the weights. One
    table of the three rows on every step, the rows still to come blank: the slides do not jump."""
    say = words.say
    s = tr.S_masked[head][row]
    exps, m = shown_exponentials(s)  # e^s as the article writes them; if one over- or underflows, e^(s − m)
    shifted = m is not None
    total = float(row_sums(exps)[0])  # left to right, as the page's table sums
    total_text = formats.format_approx(total)
    seen = STAGES["P"].allowed(tr)[row]  # e^s of 0.0 where the row sees its key (it underflowed): "0.000"
    exp_labels = [formats.format_approx(e, a) for e, a in zip(exps, seen, strict=True)]
    masked_row = _style_row(s, "scores", scales["scores"])
    exp_row = _plain_row(exps, exp_labels)
    weights = _style_row(tr.P[head][row], "weights", scales["weights"], seen)
    row_names = [say("deck.softmax_masked", lang), say("deck.softmax_exp", lang),
                 say("deck.softmax_weights", lang, total=total_text)]
    terms = " + ".join(e for e, a in zip(exp_labels, seen, strict=True) if a)  # e^−∞ = 0 adds nothing
    sum_line = say("deck.softmax_sum", lang, terms=terms, eq=formats.equals(total, total_text), total=total_text)
    note = [say(shifted_word(s), lang, m=shift_text(m))] if shifted else []
    t = _stacked("softmax_row", head, f"{head_matrix('P', head)}: {say('query', lang)} {q_rows[row]}",
                 [masked_row, exp_row, weights], row_names, k_cols, ("", say("deck.cols", lang, cols=Kw)))
    # (title, rows shown, lines shown): the masked row; eˢ; their sum; the weights
    steps = tuple((say("deck.title_softmax_row", lang, i=q_rows[row], step=step), rows, len(note) + summed)
                  for step, (rows, summed) in enumerate([(1, 0), (2, 0), (2, 1), (3, 1)], start=1))
    return Slide(steps[-1][0], (t,), (*note, sum_line), _notes("softmax_row", lang), lang, steps=steps)
