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
never left out. Positions are inches from the slide's top-left corner, so both renderers place things alike.
"""

from typing import NamedTuple

import numpy as np

from ..look import colors, formats, words
from ..numeric.arithmetic import row_sums
from ..numeric.core import shown_exponentials
from ..numeric.pipeline import STAGES
from .article import shift_text, shifted_word
from .heatmap import SLIDE_SIZE, check_trace, font_family, query_labels, token_index, width_em
from .layout import head_matrix, trace_scales
from .lines import wrap

W, H = SLIDE_SIZE
MARGIN = 0.5  # inches, every side
TITLE_PT, TEXT_PT, LABEL_PT = 28, 16, 14  # the slide's title, its lines of text, a table's title and headers
COVER_PT = 36  # the title slide's title
NUMBER_PT = (18, 14, 12)  # a table's numbers: the largest at which the slide's tables fit, else split at the last
GAP = 0.4  # between tables side by side
LINE = 1.45  # line height, in ems


class Table(NamedTuple):
    """A block of one matrix of the trace: its labels, fills and ink, and which part of which array it is."""

    name: str  # the trace's array ("S_scaled"), or a row-wise table's own name ("softmax_row")
    head: int | None  # 0-based, for an array per head
    title: str
    labels: tuple  # rows × cols of text
    fills: np.ndarray  # rows × cols × 4 RGBA
    dark: np.ndarray  # rows × cols: black ink (else white)
    masked: np.ndarray  # rows × cols: −∞, greyed and hatched
    row_labels: tuple
    col_labels: tuple
    axes: tuple  # what its rows and columns are, in the article's words (행: Query 토큰, 열: Key 토큰)
    rows: range  # the block's rows and columns of the whole matrix
    cols: range


class Placed(NamedTuple):
    """A table on a slide: its grid's top-left corner, the header column's width, one cell's size (inches)."""

    table: Table
    x: float
    y: float
    w: float  # the whole table's width, its heading's too
    head_w: float
    cell_w: float
    cell_h: float
    pt: float


class Text(NamedTuple):
    x: float
    y: float
    w: float
    lines: tuple  # already wrapped to w
    pt: float


class Box(NamedTuple):
    """A box of figure 1's flow: its text, and the head colour of its frame (None: grey)."""

    x: float
    y: float
    w: float
    h: float
    text: str
    pt: float
    edge: str | None


class Page(NamedTuple):
    title: tuple  # lines, wrapped between terms
    items: tuple  # Placed, Text and Box
    notes: str
    subtitle: tuple = ()  # a title slide's second line(s)


def _matrix_table(name, head, title, matrix, kind, scale, row_labels, col_labels, axes, allowed=None):
    cells = colors.cell_style(matrix, kind, *scale, allowed)
    return Table(name, head, title, cells.labels, cells.rgba, cells.text_dark, cells.masked, tuple(row_labels),
                 tuple(col_labels), axes, range(matrix.shape[0]), range(matrix.shape[1]))


def _plain_row(values, labels):  # one row of numbers that no colour scale holds (eˢ): white, black ink
    n = len(values)
    return (tuple(labels),), np.ones((1, n, 4)), np.ones((1, n), bool), np.zeros((1, n), bool)


def _stacked(name, head, title, parts, row_labels, col_labels, axes):  # parts: [(labels, fills, dark, masked)]
    labels = tuple(row for part in parts for row in part[0])
    fills, dark, masked = (np.concatenate([part[k] for part in parts]) for k in (1, 2, 3))
    return Table(name, head, title, labels, fills, dark, masked, tuple(row_labels), tuple(col_labels), axes,
                 range(len(labels)), range(len(labels[0])))


def _style_row(row, kind, scale, allowed=None):
    cells = colors.cell_style(np.asarray(row, float)[None, :], kind, *scale, None if allowed is None else [allowed])
    return cells.labels, cells.rgba, cells.text_dark, cells.masked


# ---------------------------------------------------------------------------
# Geometry: the size of a table at a number size, splitting, packing onto slides.


def _text_w(text, pt, family):
    return width_em(text, tuple(family)) * pt / 72


def _cell(table, pt, family):  # -> (header column width, cell width, cell height) in inches
    widest = max(_text_w(label, pt, family) for row in table.labels for label in row)
    widest = max(widest, *(_text_w(label, LABEL_PT, family) for label in table.col_labels))
    head_w = max(_text_w(label, LABEL_PT, family) for label in table.row_labels) + 0.25
    return head_w, widest + 0.25, max(pt, LABEL_PT) * 2.0 / 72


def title_h():  # the lines above a table's grid: its title, what its rows are, what its columns are
    return 3 * LABEL_PT * LINE / 72


def _size(table, pt, family):  # -> (width, height) of the table with its title, inches
    head_w, cell_w, cell_h = _cell(table, pt, family)
    width = max(head_w + cell_w * len(table.cols), *(_text_w(t, LABEL_PT, family) for t in table_heading(table)))
    return width, title_h() + cell_h * (len(table.rows) + 1)


def table_heading(table):  # the lines above the grid
    return (table.title, *table.axes)


def _block(table, rows, cols, lang):  # the part rows × cols (ranges within the table) of a table
    part = words.say("deck.block", lang, rows=_span(table.row_labels, rows), cols=_span(table.col_labels, cols))
    return table._replace(
        title=f"{table.title} · {part}", labels=tuple(tuple(table.labels[i][j] for j in cols) for i in rows),
        fills=table.fills[rows.start:rows.stop, cols.start:cols.stop],
        dark=table.dark[rows.start:rows.stop, cols.start:cols.stop],
        masked=table.masked[rows.start:rows.stop, cols.start:cols.stop],
        row_labels=table.row_labels[rows.start:rows.stop], col_labels=table.col_labels[cols.start:cols.stop],
        rows=range(table.rows[rows.start], table.rows[rows.start] + len(rows)),
        cols=range(table.cols[cols.start], table.cols[cols.start] + len(cols)))


def _span(labels, part):
    first, last = labels[part.start], labels[part.stop - 1]
    return first if part.start == part.stop - 1 else f"{first}–{last}"


def _split(table, pt, room_w, room_h, unit, lang, family):  # -> [Table]: blocks that fit room_w × room_h
    head_w, cell_w, cell_h = _cell(table, pt, family)
    n_rows, n_cols = len(table.rows), len(table.cols)
    per_row = max(1, int((room_h - title_h()) / cell_h) - 1)
    per_col = max(1, int((room_w - head_w) / cell_w))
    if per_row >= n_rows and per_col >= n_cols:
        return [table]
    if per_col < n_cols and unit and per_col >= unit and n_cols % unit == 0:  # whole heads of H side by side
        per_col = _even(n_cols // unit, per_col // unit) * unit
    else:
        per_col = _even(n_cols, per_col)
    per_row = _even(n_rows, per_row)
    rows = [range(i, min(i + per_row, n_rows)) for i in range(0, n_rows, per_row)]
    cols = [range(j, min(j + per_col, n_cols)) for j in range(0, n_cols, per_col)]
    return [_block(table, r, c, lang) for c in cols for r in rows]


def _even(n, most):  # -> a block size of at most `most` that splits n into as few blocks as that, of even sizes
    return -(-n // -(-n // most))  # 16 by at most 15: 8 + 8, not 15 + 1


def _pack(sizes, room_w):  # -> [[index]]: tables side by side, a new slide when the next one does not fit
    groups, used = [[]], 0.0
    for i, (width, _) in enumerate(sizes):
        if groups[-1] and used + GAP + width > room_w:
            groups.append([])
            used = 0.0
        used += (GAP if groups[-1] else 0.0) + width
        groups[-1].append(i)
    return groups


def _title_lines(title, family, pt=TITLE_PT):  # a title wrapped between terms: a formula never breaks
    return tuple(wrap(title, (W - 2 * MARGIN) * 72, pt, family, terms=True))


def unbroken(text):  # a term that wrapping keeps on one line: its spaces made no-break spaces
    return text.replace(" ", "\u00a0")


def _lines_text(lines, y, family):  # -> Text under the tables, wrapped to the slide's width
    wrapped = tuple(part for line in lines for part in wrap(line, (W - 2 * MARGIN) * 72, TEXT_PT, family))
    return Text(MARGIN, y, W - 2 * MARGIN, wrapped, TEXT_PT)


def _lines_h(lines, family):
    return len(_lines_text(lines, 0, family).lines) * TEXT_PT * LINE / 72 if lines else 0.0


def table_pages(title, tables, lines, notes, lang, units=None):  # -> [Page]
    """A slide of tables side by side with lines of text under them: as many slides as its numbers need."""
    family = font_family(lang)
    title_lines = _title_lines(title, family)
    top = MARGIN + len(title_lines) * TITLE_PT * LINE / 72 + 0.2
    lines_h = _lines_h(lines, family)
    room_w, room_h = W - 2 * MARGIN, H - MARGIN - top - lines_h - (0.2 if lines else 0)
    units = units or {}
    for pt in NUMBER_PT:
        blocks = [b for t in tables for b in _split(t, pt, room_w, room_h, units.get(t.name), lang, family)]
        sizes = [_size(b, pt, family) for b in blocks]
        groups = _pack(sizes, room_w)
        if len(groups) == len(tables) == 1 or len(groups) == 1 or pt == NUMBER_PT[-1]:
            break
    pages = []
    for n, group in enumerate(groups):
        widths = [sizes[i][0] for i in group]
        height = max(sizes[i][1] for i in group)
        x = (W - sum(widths) - GAP * (len(group) - 1)) / 2
        y = top + (room_h - height) / 2
        items = []
        for i in group:
            head_w, cell_w, cell_h = _cell(blocks[i], pt, family)
            items.append(Placed(blocks[i], x, y + title_h(), sizes[i][0], head_w, cell_w, cell_h, pt))
            x += sizes[i][0] + GAP
        if lines:
            items.append(_lines_text(lines, H - MARGIN - lines_h, family))
        part = f" {words.say('deck.part', lang, n=n + 1, of=len(groups))}" if len(groups) > 1 else ""
        pages.append(Page(_title_lines(title + part, family), tuple(items), notes))
    return pages


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
            fits = box_h >= 0.7 and max(_text_w(line, pt, family) for line in text.split("\n")) < box_w - 0.2
            size = pt if fits else LABEL_PT
            text = "\n".join(wrap(text, (box_w - 0.2) * 72, size, family))  # each line within the box
            items.append(Box(x, y, box_w, box_h, text, size, edge))
            y += box_h + 0.15
        if c:
            items.append(Box(x - arrow_w, top + room_h / 2 - 0.3, arrow_w, 0.6, "→", TITLE_PT, "none"))
    items.append(_lines_text(caption, H - MARGIN - lines_h, family))
    return Page(title_lines, tuple(items), notes)


def pages(tr, lang, chosen=None):  # -> [Page]
    """The deck's slides for this trace, in the article's order. chosen: {"head", "row", "query", "key"} 0-based
    (the command's --head, --row, --query, --key), defaults as the article's: Head 1, token 3's row, S[3, 1]."""
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

    out = [Page(_title_lines(say("deck_title", lang), font_family(lang), COVER_PT), (), _notes("title", lang),
                (say("deck.subtitle", lang, T=tr.T_k, d=tr.d, h=tr.h, dh=tr.dh,
                     mask=say(f"mask.{tr.mask_name}", lang)),))]
    out.append(_flow(tr, lang, say("fig_heads_title", lang), _notes("flow", lang)))

    v = formats.format_value
    dot = say("deck.dot", lang, i=q_rows[query], j=k_cols[key], q=formats.format_row(Qh[query]),
              k=formats.format_row(Kh[key]), terms=formats.dot_product_text(Qh[query], Kh[key]).replace("·", " × "),
              score=v(S[query, key], "scores"))
    out += table_pages(say("deck.title_scores", lang, n=n), [t_Q, t_KT, t_S], [dot], _notes("scores", lang), lang)

    score, scaled, root = v(S[query, key], "scores"), v(S_scaled[query, key], "scores"), v(np.sqrt(tr.dh))
    one = say("deck.scaled_one", lang, dh=tr.dh, root=root, root_eq=formats.equals(np.sqrt(tr.dh), root),
              i=q_rows[query], j=k_cols[key], score=score, eq=formats.equals(S_scaled[query, key], scaled),
              scaled=scaled)
    out += table_pages(say("deck.title_scaling", lang, n=n), [t_S, t_Ss], [one, say("caption.scaling_head1", lang)],
                       _notes("scaling", lang), lang)
    out += table_pages(say("deck.title_mask", lang, n=n), [t_Ss, t_M, t_Sm], [say("fig_mask_rule", lang)],
                       _notes("mask", lang), lang)
    out += _softmax_steps(tr, lang, head, row, scales, q_rows, k_cols, Kw)
    out += table_pages(say("deck.title_softmax", lang, n=n), [t_P], [say("caption.fig4_softmax", lang)],
                       _notes("softmax", lang), lang)
    seen = STAGES["P"].allowed(tr)[row]  # a weight of 0.0 where the row sees its key is a term: "0.000"
    terms = [unbroken(say("deck.pv_term", lang, p=v(P[row, j], "weights", True), j=k_cols[j],
                          row=formats.format_row(P[row, j] * Vh[j]))) for j in range(tr.T_k) if seen[j]]
    exact = all(formats.equals(o, v(o)) == "=" for o in O[row])
    terms.append(unbroken(say("deck.pv_sum", lang, i=q_rows[row], eq="=" if exact else "≈",
                              row=formats.format_row(O[row]))))
    out += table_pages(say("deck.title_pv", lang, n=n), [t_P, t_V, t_O], ["   ".join(terms)], _notes("pv", lang), lang)
    heads = [table("O", shaped(f"{head_matrix('O', i)}", tr.O[i]), tr.O[i], "values", q_rows, comps, Qw, comp, h=i)
             for i in range(tr.h)]
    t_H = table("H", shaped(words.say("stage.H", lang), tr.H), tr.H, "values", q_rows, colors.token_labels(tr.d),
                Qw, comp, h=None)
    out += table_pages(say("deck.title_concat", lang), [*heads, t_H], [say("caption.fig1_heads", lang, T=tr.T_q,
                       d=tr.d, dh=tr.dh)], _notes("concat", lang), lang, units={"H": tr.dh})
    out.append(_flow(tr, lang, say("deck.title_back", lang), _notes("back", lang), next_step=True))
    family = font_family(lang)
    closing = [say(f"deck.next_{i}", lang) for i in (1, 2, 3)]
    out.append(Page(_title_lines(say("deck.title_next", lang), family),
                    (_lines_text(closing, 2.0, family),), _notes("next", lang)))
    return out


def _softmax_steps(tr, lang, head, row, scales, q_rows, k_cols, Kw):  # -> [Page]: one row's softmax in 4 steps
    """The article's softmax of one row, built up: the masked row; then eˢ; then their sum; then the weights."""
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
    steps = [([masked_row], []), ([masked_row, exp_row], []), ([masked_row, exp_row], [sum_line]),
             ([masked_row, exp_row, weights], [sum_line])]
    out = []
    for step, (parts, lines) in enumerate(steps, start=1):
        t = _stacked("softmax_row", head, f"{head_matrix('P', head)}: {say('query', lang)} {q_rows[row]}", parts,
                     row_names[:len(parts)], k_cols, ("", say("deck.cols", lang, cols=Kw)))
        out += table_pages(say("deck.title_softmax_row", lang, i=q_rows[row], step=step), [t], lines + note,
                           _notes("softmax_row", lang), lang)
    return out
