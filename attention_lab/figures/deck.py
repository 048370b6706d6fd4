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
corner, so both renderers place things alike, and each slide is laid out once for both editions (ko, en): the two
decks have the same slides, every table in the same place at the same size. The softmax row's four steps share
the last step's layout (rows still to come are blank). The cells a line of text works out are framed (S[3, 1] and
its factors, the PV row), and a product on a slide is the product of the factors it shows, or says ≈ and that the
factors are rounded. Concat's tables are filled in the heads' colours, as figure 1's boxes are framed.
"""

from typing import NamedTuple

import numpy as np
from matplotlib import colors as mcolors

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
# Readable from the back of a room: at the article's size nothing on a slide is under 18 pt (issue 49)
TITLE_PT, TEXT_PT, LABEL_PT = 28, 18, 18  # the slide's title, its lines of text, a table's title and headers
COVER_PT = 36  # the title slide's title
# A table's numbers: the largest size at which the slide's tables fit on one slide, else the largest at which they
# take the fewest slides (a matrix too large for one slide is split into blocks)
NUMBER_PT = (24, 20, 18, 14, 12)
FLOW_SMALL_PT = 14  # a box of figure 1's flow whose words, wrapped, do not fit at TEXT_PT (h = 8: 8 boxes)
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
    marked: np.ndarray  # rows × cols: framed, the cells a slide's line of text works out (S[3, 1] and its factors)


class Placed(NamedTuple):
    """A table on a slide: its grid's top-left corner, the header column's width, one cell's size (inches)."""

    table: Table
    x: float
    y: float
    w: float  # the whole table's width, its heading's too
    head_w: float
    cell_w: float
    cell_h: float
    pt: float  # its numbers
    label_pt: float  # its headings and token numbers


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
# Geometry: the size of a table at a number size, splitting, packing onto slides. Both editions of a slide (ko, en)
# get one layout: each decision (the numbers' size, the blocks, which tables share a slide, every position) is taken
# for the wider of the two, so the decks have the same slides in the same places.


def _text_w(text, pt, family):
    return width_em(text, tuple(family)) * pt / 72


def label_pt(pt):  # a table's headings and token numbers: LABEL_PT, never larger than its numbers
    return min(LABEL_PT, pt)


def _cell(table, pt, family):  # -> (header column width, cell width, cell height) in inches
    small = label_pt(pt)
    widest = max(_text_w(label, pt, family) for row in table.labels for label in row)
    widest = max(widest, *(_text_w(label, small, family) for label in table.col_labels))
    head_w = max(_text_w(label, small, family) for label in table.row_labels) + 0.25
    return head_w, widest + 0.25, pt * 1.8 / 72


def title_h(pt=LABEL_PT):  # the lines above a table's grid: its title, what its rows are, what its columns are
    return 3 * pt * LINE / 72


def _size(table, pt, family):  # -> (width, height) of the table with its title, inches
    head_w, cell_w, cell_h = _cell(table, pt, family)
    small = label_pt(pt)
    width = max(head_w + cell_w * len(table.cols), *(_text_w(t, small, family) for t in table_heading(table)))
    return width, title_h(small) + cell_h * (len(table.rows) + 1)


def table_heading(table):  # the lines above the grid
    return (table.title, *table.axes)


def _block(table, rows, cols, lang):  # the part rows × cols (ranges within the table) of a table
    part = words.say("deck.block", lang, rows=_span(table.row_labels, rows), cols=_span(table.col_labels, cols))
    cut = (slice(rows.start, rows.stop), slice(cols.start, cols.stop))
    return table._replace(
        title=f"{table.title} · {part}", labels=tuple(tuple(table.labels[i][j] for j in cols) for i in rows),
        fills=table.fills[cut], dark=table.dark[cut], masked=table.masked[cut], marked=table.marked[cut],
        row_labels=table.row_labels[cut[0]], col_labels=table.col_labels[cut[1]],
        rows=range(table.rows[rows.start], table.rows[rows.start] + len(rows)),
        cols=range(table.cols[cols.start], table.cols[cols.start] + len(cols)))


def _span(labels, part):
    first, last = labels[part.start], labels[part.stop - 1]
    return first if part.start == part.stop - 1 else f"{first}–{last}"


def _per_block(table, pt, room_w, room_h, unit, family):  # -> (rows, columns) of a block that fits room_w × room_h
    head_w, cell_w, cell_h = _cell(table, pt, family)
    n_rows, n_cols = len(table.rows), len(table.cols)
    per_row = max(1, int((room_h - title_h(label_pt(pt))) / cell_h) - 1)
    per_col = max(1, int((room_w - head_w) / cell_w))
    if per_row >= n_rows and per_col >= n_cols:
        return n_rows, n_cols
    if per_col < n_cols and unit and per_col >= unit and n_cols % unit == 0:  # whole heads of H side by side
        per_col = _even(n_cols // unit, per_col // unit) * unit
    else:
        per_col = _even(n_cols, per_col)
    return _even(n_rows, per_row), per_col


def _split(table, per_row, per_col, lang):  # -> [Table]: its blocks of per_row × per_col
    n_rows, n_cols = len(table.rows), len(table.cols)
    if per_row >= n_rows and per_col >= n_cols:
        return [table]
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


def _wrapped(line, family):
    return wrap(line, (W - 2 * MARGIN) * 72, TEXT_PT, family)


def _lines_text(lines, y, family, shown=None):  # -> Text under the tables, wrapped to the slide's width
    """shown: how many of the lines a step of a build-up shows; the others keep their room, blank."""
    shown = len(lines) if shown is None else shown
    wrapped = tuple(part if k < shown else "" for k, line in enumerate(lines) for part in _wrapped(line, family))
    return Text(MARGIN, y, W - 2 * MARGIN, wrapped, TEXT_PT)


def _lines_h(lines, family):
    return len(_lines_text(lines, 0, family).lines) * TEXT_PT * LINE / 72 if lines else 0.0


class Slide(NamedTuple):
    """A slide of tables side by side over lines of text, before its layout (`table_pages`): as many slides as its
    numbers need. A build-up is one slide shown in steps, each (its title, the rows of its tables it shows, the lines
    it shows): every step has the last one's layout, its rows and lines still to come left blank."""

    title: str
    tables: tuple
    lines: tuple
    notes: str
    lang: str
    units: dict | None = None  # {table name: columns that stay together} (a head's columns of H)
    steps: tuple = ()


def _titles(slide):
    return [title for title, _, _ in slide.steps] or [slide.title]


def _fit(twins):  # -> (pt, blocks, sizes, cells, top, lines_h, room_w, room_h): one layout for both editions
    """The numbers' size and the blocks of twins[0]'s tables, each block's (width, height) and (header column,
    cell width, cell height), all of them the larger of the two editions', and the room on the slide."""
    families = [font_family(s.lang) for s in twins]
    titles = max(len(_title_lines(t, f)) for s, f in zip(twins, families, strict=True) for t in _titles(s))
    top = MARGIN + titles * TITLE_PT * LINE / 72 + 0.2
    lines_h = max(_lines_h(s.lines, f) for s, f in zip(twins, families, strict=True))
    room_w, room_h = W - 2 * MARGIN, H - MARGIN - top - lines_h - (0.2 if twins[0].lines else 0)
    tried = []
    for pt in NUMBER_PT:
        per = [tuple(map(min, *(_per_block(s.tables[k], pt, room_w, room_h, (s.units or {}).get(t.name), f)
                                for s, f in zip(twins, families, strict=True))))
               for k, t in enumerate(twins[0].tables)]
        blocks = [[b for t, p in zip(s.tables, per, strict=True) for b in _split(t, *p, s.lang)] for s in twins]
        sizes = [tuple(map(max, *(_size(b, pt, f) for b, f in zip(bs, families, strict=True))))
                 for bs in zip(*blocks, strict=True)]
        cells = [tuple(map(max, *(_cell(b, pt, f) for b, f in zip(bs, families, strict=True))))
                 for bs in zip(*blocks, strict=True)]
        tried.append((len(_pack(sizes, room_w)), pt, blocks[0], sizes, cells))
        if tried[-1][0] == 1:
            break
    fewest = min(n for n, *_ in tried)  # the largest size that fits on one slide, else on the fewest slides
    _, pt, blocks, sizes, cells = next(t for t in tried if t[0] == fewest)
    return pt, blocks, sizes, cells, top, lines_h, room_w, room_h


def table_pages(slide, twin=None):  # -> [Page]
    """A slide of tables side by side with lines of text under them: as many slides as its numbers need, laid out
    alike in its twin (the other edition's Slide), and a build-up's steps each on that one layout."""
    pt, blocks, sizes, cells, top, lines_h, room_w, room_h = _fit([slide, twin or slide])
    family, lang = font_family(slide.lang), slide.lang
    groups = _pack(sizes, room_w)
    pages = []
    for title, rows, shown in slide.steps or [(slide.title, None, None)]:
        for n, group in enumerate(groups):
            widths = [sizes[i][0] for i in group]
            height = max(sizes[i][1] for i in group)
            x = (W - sum(widths) - GAP * (len(group) - 1)) / 2
            y = top + (room_h - height) / 2
            items = []
            for i in group:
                block = blocks[i] if rows is None else _blank(blocks[i], rows)
                items.append(Placed(block, x, y + title_h(label_pt(pt)), sizes[i][0], *cells[i], pt, label_pt(pt)))
                x += sizes[i][0] + GAP
            if slide.lines:
                items.append(_lines_text(slide.lines, H - MARGIN - lines_h, family, shown))
            part = f" {words.say('deck.part', lang, n=n + 1, of=len(groups))}" if len(groups) > 1 else ""
            pages.append(Page(_title_lines(title + part, family), tuple(items), slide.notes))
    return pages


def _blank(table, shown):  # -> the table with its rows from `shown` on (of the whole matrix) blank: still to come
    hidden = np.array([i >= shown for i in table.rows])
    white = np.where(hidden[:, None, None], 1.0, table.fills)
    return table._replace(
        labels=tuple(("",) * len(row) if gone else row for row, gone in zip(table.labels, hidden, strict=True)),
        row_labels=tuple("" if gone else label for label, gone in zip(table.row_labels, hidden, strict=True)),
        fills=white, dark=table.dark | hidden[:, None], masked=table.masked & ~hidden[:, None],
        marked=table.marked & ~hidden[:, None])


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
