"""The deck's layout: what a slide is made of (Table, Placed, Text, Box, Page, Slide) and where it goes.

Positions are inches from the slide's top-left corner. A table's size at a number size, splitting a matrix too
large for one slide into blocks, packing tables side by side onto slides (`table_pages`). Both editions of a slide
(ko, en) get one layout: each decision (the numbers' size, the blocks, which tables share a slide, every position)
is taken for the wider of the two, so the decks have the same slides in the same places. What the slides say, in
the article's order, is `deck`'s.
"""

from typing import NamedTuple

import numpy as np

from ..look import words
from .heatmap import SLIDE_SIZE, font_family, width_em
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
