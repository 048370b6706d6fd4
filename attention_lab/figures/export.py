"""Figures to files: SVG, PNG and PDF with real text, the slides of `--slides`, and the deck of `--deck`.

    from attention_lab.figures import export
    export.save(fig, "fig4.pdf")                       # text that can be selected, copied and searched
    export.write_deck(al.article_example(), "ko", "deck.pdf")
    export.write_pptx(al.article_example(), "ko", "deck.pptx")   # editable: needs python-pptx (the pptx extra)

The deck (`figures.deck`) is one plan of slides that both files draw: every matrix a table of all its numbers,
in the PDF drawn with matplotlib, in the pptx a native table a lecturer can edit.

PDF (and PostScript) embed the fonts as TrueType (Type 42), so Korean copies as Korean; SVG keeps its text as
outlines, or as editable text with svg_text=True. Both are set for that one savefig only
(`matplotlib.rc_context`): the user's rcParams are never changed.
"""

import contextlib
import inspect
import io
import os
import re
import tempfile
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.colors import to_rgba
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..look import colors, words
from ..look.fonts import DECK_FONT
from .heatmap import MASKED_LABEL_BOX, SLIDE_SIZE, font_family
from .overview import slide_groups

MARK_COLOR, MARK_PT = "#000000", 4  # the frame of a cell a slide's line works out ("the highlighted score")
TEXT_RC = {"pdf.fonttype": 42, "ps.fonttype": 42}  # TrueType, not Type 3: real, copyable text
# The article's order: why ÷√dh is explained right after QKᵀ, before the mask.
DECK = ("fig1_heads", "fig2_scores", "scaling_head1", "fig3_mask", "fig4_softmax", "fig5_weighted_sum")


# After the package's own families, an SVG with text names fonts a viewer is likely to have, then a generic family:
# the Korean subset is ours alone, so without these a viewer that lacks it draws Hangul in some random font.
SVG_FALLBACK = ", 'Noto Sans CJK KR', 'Noto Sans KR', 'Malgun Gothic', 'Apple SD Gothic Neo', sans-serif"


@contextlib.contextmanager
def whole_file(path):  # yields a temporary path beside `path`, moved onto it only when the block ends well
    """Write a file whole or not at all: the block writes the temporary file; os.replace moves it into place (one
    step, in the same folder). Ctrl-C or an error inside leaves no part-written file, and an older `path` as it
    was: a class set stopped at page 15 of 200 used to leave a PDF of 15 pages that looked complete."""
    path = Path(path)
    handle, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)
    os.close(handle)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(partial, 0o666 & ~umask)  # as open() would make it: mkstemp's 0600 is for secrets
    try:
        yield Path(partial)
        os.replace(partial, path)
    except BaseException:  # KeyboardInterrupt too: that is what it is for
        Path(partial).unlink(missing_ok=True)
        raise


def save(fig, path, fmt=None, dpi=150, svg_text=False, slide=False):
    """Write one figure: a slide at its exact 16:9 size, any other figure cropped to what it draws."""
    rc = {**TEXT_RC, "svg.fonttype": "none" if svg_text else "path"}
    with matplotlib.rc_context(rc):
        if not svg_text:
            fig.savefig(path, format=fmt, dpi=dpi, bbox_inches=None if slide else "tight")
            return
        svg = io.StringIO()
        fig.savefig(svg, format="svg", bbox_inches=None if slide else "tight")
    text = re.sub(r"(font-family: [^;\"]+)", lambda m: m.group(1) + SVG_FALLBACK, svg.getvalue())
    Path(path).write_text(text, encoding="utf-8")


def _given(make, chosen):  # -> the picks (head, row, query, key) this figure function takes
    params = inspect.signature(make).parameters
    return {name: value for name, value in chosen.items() if name in params}


def figures_to_write(tr, lang, slides=False, chosen=None):  # yields (file name, () -> Figure, is a slide)
    """Every figure of FIGURES for this trace. With slides, each as a 16:9 slide; the all-heads figure as many
    slides as its heads need (`all_heads_1-2`, `all_heads_3-4`, …; one slide is plain `all_heads`)."""
    from . import FIGURES

    chosen = chosen or {}
    for name, make in FIGURES.items():
        kwargs = _given(make, chosen)
        if not slides:
            yield name, (lambda make=make, kwargs=kwargs: make(tr, lang=lang, **kwargs)), False
        elif name == "all_heads":
            groups = slide_groups(tr, lang)
            for group in groups:
                label = name if len(groups) == 1 else (
                    f"{name}_{group.start + 1}" if len(group) == 1 else f"{name}_{group.start + 1}-{group.stop}")
                yield label, (lambda make=make, group=group: make(tr, lang=lang, slides=True, heads=group)), True
        else:
            yield name, (lambda make=make, kwargs=kwargs: make(tr, lang=lang, slides=True, **kwargs)), True


def write_deck(tr, lang, path, chosen=None):  # -> path
    """The teaching deck (`figures.deck`) as one multi-page 16:9 PDF, with real (copyable, searchable) text."""
    from .deck import pages

    with matplotlib.rc_context(TEXT_RC), PdfPages(path, metadata={"Title": words.say("deck_title", lang)}) as pdf:
        for page in pages(tr, lang, chosen):
            pdf.savefig(_page_figure(page, lang))  # no bbox_inches: every page keeps the slide's 13.33 × 7.5 in
    return path


def _page_figure(page, lang):  # -> Figure: one page of the deck, drawn in inches from the top-left corner
    from matplotlib.figure import Figure

    from . import deck

    fig = Figure(figsize=SLIDE_SIZE)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, deck.W)
    ax.set_ylim(deck.H, 0)
    ax.axis("off")
    family = font_family(lang)

    def text(x, y, s, pt, **kw):
        return ax.text(x, y, s, fontsize=pt, fontfamily=family, linespacing=deck.LINE, **kw)

    if page.subtitle:  # the title slide
        text(deck.W / 2, deck.H * 0.42, "\n".join(page.title), deck.COVER_PT, ha="center", va="bottom")
        text(deck.W / 2, deck.H * 0.42 + 0.4, "\n".join(page.subtitle), deck.TEXT_PT, ha="center", va="top")
    else:
        text(deck.MARGIN, deck.MARGIN, "\n".join(page.title), deck.TITLE_PT, va="top")
    for item in page.items:
        if isinstance(item, deck.Placed):
            _draw_table(ax, item, text)
        elif isinstance(item, deck.Text):
            text(item.x, item.y, "\n".join(item.lines), item.pt, va="top")
        else:
            if item.edge != "none":
                ax.add_patch(FancyBboxPatch((item.x, item.y), item.w, item.h, boxstyle="round,pad=0,rounding_size=0.1",
                                            facecolor="white", edgecolor=item.edge or "0.45", linewidth=2.5))
            text(item.x + item.w / 2, item.y + item.h / 2, item.text, item.pt, ha="center", va="center")
    return fig


def _draw_table(ax, placed, text):
    """A table as the pptx has it: its heading, token numbers along the top and the side, every cell's number."""
    from . import deck

    t, x, y, cw, ch = placed.table, placed.x + placed.head_w, placed.y, placed.cell_w, placed.cell_h
    small = placed.label_pt
    for k, line in enumerate(line for line in deck.table_heading(t) if line):
        text(placed.x, y - deck.title_h(small) + k * small * deck.LINE / 72, line, small, va="top")
    for j, label in enumerate(t.col_labels):
        text(x + (j + 0.5) * cw, y + ch / 2, label, small, ha="center", va="center")
    for i, label in enumerate(t.row_labels):
        text(x - 0.1, y + (i + 1.5) * ch, label, small, ha="right", va="center")
    for i, row in enumerate(t.labels):
        for j, label in enumerate(row):
            cx, cy = x + j * cw, y + (i + 1) * ch
            ax.add_patch(Rectangle((cx, cy), cw, ch, facecolor=t.fills[i, j], edgecolor="0.75", linewidth=0.5))
            if t.masked[i, j]:
                ax.add_patch(Rectangle((cx, cy), cw, ch, facecolor="none", edgecolor="0.55", linewidth=0,
                                       hatch=colors.MASKED_HATCH))
            text(cx + cw / 2, cy + ch / 2, label, placed.pt, ha="center", va="center",
                 color=colors.INK_DARK if t.dark[i, j] else colors.INK_LIGHT,
                 bbox=MASKED_LABEL_BOX if t.masked[i, j] else None)
    for i, j in zip(*np.nonzero(t.marked), strict=True):  # over every fill: the cells a line works out
        ax.add_patch(Rectangle((x + j * cw, y + (i + 1) * ch), cw, ch, facecolor="none", edgecolor=MARK_COLOR,
                               linewidth=MARK_PT, gid="marked"))


def _own_properties(props, title):
    """The file's properties are ours, not python-pptx's template's (created 2013, modified by a stranger)."""
    import datetime

    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None)
    props.title, props.author, props.last_modified_by = title, "attention-lab", "attention-lab"
    props.created, props.modified, props.revision = now, now, 1
    props.subject, props.keywords, props.comments = "Core Attention", "attention, transformer", ""


def _fonts(font, lang):
    """A run names its fonts for Latin and for Hangul: the fonts the deck's layout measured its lines with."""
    from pptx.oxml.ns import qn

    # The deck measures a Korean slide's Latin letters in Noto Sans CJK KR and an English slide's in DejaVu Sans
    # (look.fonts.DECK_FONT); a run in another font re-wraps its lines.
    font.name = DECK_FONT[lang]  # <a:latin>
    rpr = font._rPr  # python-pptx has no setter for the East Asian font
    east_asian = rpr.find(qn("a:ea"))
    if east_asian is None:
        east_asian = rpr.makeelement(qn("a:ea"), {})
        rpr.append(east_asian)
    east_asian.set("typeface", DECK_FONT[lang])


def write_pptx(tr, lang, path, chosen=None):  # -> path
    """The teaching deck (`figures.deck`) as an editable PowerPoint file, 16:9: each slide's title in its title
    placeholder, every matrix a native table (numbers as text, the figures' colours as cell fills), figure 1's
    flow as shapes, and speaker notes that say what to ask the class and quote the article."""
    try:
        from pptx import Presentation
        from pptx.util import Inches
    except ImportError:
        raise ModuleNotFoundError("write_pptx: needs python-pptx; install it with pip install 'attention-lab[pptx]', "
                                  "or write the PDF deck (write_deck, --deck).") from None
    from . import deck

    width, height = SLIDE_SIZE
    pres = Presentation()
    pres.slide_width, pres.slide_height = Inches(width), Inches(height)
    _own_properties(pres.core_properties, words.say("deck_title", lang))
    for page in deck.pages(tr, lang, chosen):
        if page.subtitle:
            slide = pres.slides.add_slide(pres.slide_layouts[0])  # "Title Slide": title and subtitle placeholders
            _place(slide.shapes.title, deck.MARGIN, height * 0.2, width - 2 * deck.MARGIN, height * 0.22)
            _write(slide.shapes.title.text_frame, page.title, deck.COVER_PT, lang, center=True)
            subtitle = slide.placeholders[1]
            _place(subtitle, deck.MARGIN, height * 0.5, width - 2 * deck.MARGIN, height * 0.2)
            _write(subtitle.text_frame, page.subtitle, deck.TEXT_PT, lang, center=True)
        else:
            slide = pres.slides.add_slide(pres.slide_layouts[5])  # "Title Only"
            _place(slide.shapes.title, deck.MARGIN, deck.MARGIN * 0.6, width - 2 * deck.MARGIN,
                   len(page.title) * deck.TITLE_PT * deck.LINE / 72 + 0.2)
            _write(slide.shapes.title.text_frame, page.title, deck.TITLE_PT, lang)
        for item in page.items:
            if isinstance(item, deck.Placed):
                _pptx_table(slide, item, lang)
            elif isinstance(item, deck.Text):
                box = slide.shapes.add_textbox(Inches(item.x), Inches(item.y), Inches(item.w),
                                               Inches(len(item.lines) * item.pt * deck.LINE / 72))
                _write(box.text_frame, item.lines, item.pt, lang)
            else:
                _pptx_box(slide, item, lang)
        slide.notes_slide.notes_text_frame.text = page.notes
    pres.save(path)
    return path


def _place(shape, x, y, w, h):
    from pptx.util import Inches

    shape.left, shape.top, shape.width, shape.height = Inches(x), Inches(y), Inches(w), Inches(h)


def _write(frame, lines, pt, lang, center=False, color=None, bold=False, flush=True):
    """Lines of text into a text frame, one paragraph each, every run with its size and its Latin and Hangul font.

    flush: no inner margins, so each line has the width the deck measured it to fit (a text box's own 0.1 in
    margins re-wrapped such lines in LibreOffice, and pushed a table's third heading line under the table). A
    table cell keeps its own margins (flush=False)."""
    from pptx.dml.color import RGBColor
    from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
    from pptx.util import Pt

    frame.word_wrap = True
    if flush:
        frame.margin_left = frame.margin_right = frame.margin_top = frame.margin_bottom = 0
    frame.vertical_anchor = MSO_ANCHOR.TOP if not center else MSO_ANCHOR.MIDDLE
    for k, line in enumerate(lines):
        paragraph = frame.paragraphs[0] if k == 0 else frame.add_paragraph()
        paragraph.alignment = PP_ALIGN.CENTER if center else PP_ALIGN.LEFT
        run = paragraph.add_run()
        run.text = line
        run.font.size, run.font.bold = Pt(pt), bold
        if color is not None:
            run.font.color.rgb = RGBColor.from_string(color.lstrip("#"))
        _fonts(run.font, lang)


def _rgb(rgba):
    from pptx.dml.color import RGBColor

    return RGBColor(*(int(round(255 * c)) for c in rgba[:3]))


def _pptx_table(slide, placed, lang):
    """A native table: a header row of token numbers, a header column, and every cell's number as text on the
    fill our colour scale gives it (−∞ cells grey, labelled −∞). Named "<array> head=<n> rows=<a>-<b> cols=<c>-<d>"
    (1-based, as on the slide) so a script can find which part of the trace it holds."""
    from pptx.enum.text import MSO_ANCHOR
    from pptx.util import Inches, Pt

    from . import deck

    t, pt = placed.table, placed.pt
    # Half the gap to the next table to spare: a viewer's font metrics (LibreOffice's) may make a line measured to
    # fit a little wider, and a wrapped line would push the third heading line under the grid.
    small = placed.label_pt
    heading = slide.shapes.add_textbox(Inches(placed.x), Inches(placed.y - deck.title_h(small)),
                                       Inches(placed.w + deck.GAP / 2), Inches(deck.title_h(small)))
    _write(heading.text_frame, [line for line in deck.table_heading(t) if line], small, lang)
    rows, cols = len(t.row_labels), len(t.col_labels)
    shape = slide.shapes.add_table(rows + 1, cols + 1, Inches(placed.x), Inches(placed.y),
                                   Inches(placed.head_w + placed.cell_w * cols), Inches(placed.cell_h * (rows + 1)))
    head = "" if t.head is None else f" head={t.head + 1}"
    shape.name = f"{t.name}{head} rows={t.rows.start + 1}-{t.rows.stop} cols={t.cols.start + 1}-{t.cols.stop}"
    table = shape.table
    table.first_row = table.horz_banding = False  # the template's style would recolour the first row and bands
    table.columns[0].width = Inches(placed.head_w)
    for j in range(cols):
        table.columns[j + 1].width = Inches(placed.cell_w)
    for i in range(rows + 1):
        table.rows[i].height = Inches(placed.cell_h)

    def fill(cell, text, rgba, ink, size):
        cell.vertical_anchor = MSO_ANCHOR.MIDDLE
        cell.fill.solid()
        cell.fill.fore_color.rgb = _rgb(rgba)
        cell.margin_left = cell.margin_right = Pt(2)
        cell.margin_top = cell.margin_bottom = Pt(1)
        cell.text_frame.paragraphs[0].text = ""
        _write(cell.text_frame, [text], size, lang, center=True, color=ink, flush=False)

    white = (1.0, 1.0, 1.0, 1.0)
    fill(table.cell(0, 0), "", white, colors.INK_DARK, small)
    for j, label in enumerate(t.col_labels):
        fill(table.cell(0, j + 1), label, white, colors.INK_DARK, small)
    for i, label in enumerate(t.row_labels):
        fill(table.cell(i + 1, 0), label, white, colors.INK_DARK, small)
        for j, number in enumerate(t.labels[i]):
            fill(table.cell(i + 1, j + 1), number, t.fills[i, j],
                 colors.INK_DARK if t.dark[i, j] else colors.INK_LIGHT, pt)
            if t.marked[i, j]:
                _frame(table.cell(i + 1, j + 1))


def _frame(cell):
    """A cell's four borders MARK_PT wide in MARK_COLOR: python-pptx has no setter, so its tcPr's lnL … lnB, which
    come first in it (before the fill: the schema's order)."""
    from pptx.oxml.ns import qn
    from pptx.util import Pt

    tc_pr = cell._tc.get_or_add_tcPr()
    for k, side in enumerate(("a:lnL", "a:lnR", "a:lnT", "a:lnB")):
        line = tc_pr.makeelement(qn(side), {"w": str(Pt(MARK_PT)), "cmpd": "sng"})
        fill = line.makeelement(qn("a:solidFill"), {})
        fill.append(fill.makeelement(qn("a:srgbClr"), {"val": MARK_COLOR.lstrip("#").upper()}))
        line.append(fill)
        tc_pr.insert(k, line)


def _pptx_box(slide, box, lang):
    """A box of figure 1's flow as a shape, framed in its head's colour; an arrow as text alone."""
    from pptx.enum.shapes import MSO_SHAPE
    from pptx.util import Inches, Pt

    shape = slide.shapes.add_shape(MSO_SHAPE.ROUNDED_RECTANGLE, Inches(box.x), Inches(box.y), Inches(box.w),
                                   Inches(box.h))
    if box.edge == "none":
        shape.fill.background()
        shape.line.fill.background()
    else:
        shape.fill.solid()
        shape.fill.fore_color.rgb = _rgb((1.0, 1.0, 1.0))
        shape.line.color.rgb = _rgb(to_rgba(box.edge or "#737373"))
        shape.line.width = Pt(2.5)
    _write(shape.text_frame, box.text.split("\n"), box.pt, lang, center=True, color=colors.INK_DARK)
