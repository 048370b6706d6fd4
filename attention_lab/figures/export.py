"""Figures to files: SVG, PNG and PDF with real text, the slides of `--slides`, and the deck of `--deck`.

    from attention_lab.figures import export
    export.save(fig, "fig4.pdf")                       # text that can be selected, copied and searched
    export.write_deck(al.article_example(), "ko", "deck.pdf")
    export.write_pptx(al.article_example(), "ko", "deck.pptx")   # editable: needs python-pptx (the pptx extra)

PDF (and PostScript) embed the fonts as TrueType (Type 42), so Korean copies as Korean; SVG keeps its text as
outlines, or as editable text with svg_text=True. Both are set for that one savefig only
(`matplotlib.rc_context`): the user's rcParams are never changed.
"""

import inspect
import io
import re
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.backends.backend_pdf import PdfPages

from ..look import formats, words
from .heatmap import SLIDE_SIZE
from .overview import slide_groups

TEXT_RC = {"pdf.fonttype": 42, "ps.fonttype": 42}  # TrueType, not Type 3: real, copyable text
# The article's order: why ÷√dh is explained right after QKᵀ, before the mask.
DECK = ("fig1_heads", "fig2_scores", "scaling_head1", "fig3_mask", "fig4_softmax", "fig5_weighted_sum")


# After the package's own families, an SVG with text names fonts a viewer is likely to have, then a generic family:
# the Korean subset is ours alone, so without these a viewer that lacks it draws Hangul in some random font.
SVG_FALLBACK = ", 'Noto Sans CJK KR', 'Noto Sans KR', 'Malgun Gothic', 'Apple SD Gothic Neo', sans-serif"


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


def caption(name, tr, lang):  # -> the deck's caption of a figure, from the word table, with the trace's sizes
    return words.say(f"caption.{name}", lang, T=tr.T_q, d=tr.d, dh=tr.dh,
                     root=formats.format_value(np.sqrt(tr.dh)))


def deck_figures(tr, lang, chosen=None, captions=True):  # yields the deck's slides, in order
    """The deck in the article's order: figures 1 and 2, the scaling figure (why ÷√dh), figures 3–5, each
    a 16:9 slide with its caption (captions=False: without it, for a deck that sets the caption as text of its own)."""
    from . import FIGURES

    for name in DECK:
        make = FIGURES[name]
        yield make(tr, lang=lang, slides=True, caption=caption(name, tr, lang) if captions else None,
                   **_given(make, chosen or {}))


def write_deck(tr, lang, path, chosen=None):  # -> path
    """One multi-page 16:9 PDF of the deck's slides, with real (copyable, searchable) text in either language."""
    with matplotlib.rc_context(TEXT_RC), PdfPages(path, metadata={"Title": words.say("deck_title", lang)}) as pdf:
        for fig in deck_figures(tr, lang, chosen):
            pdf.savefig(fig)  # no bbox_inches: every page keeps the slide's 13.33 × 7.5 in
    return path


PPTX_DPI = 200  # the slides' pictures: sharp when projected at 2560 px across
PPTX_CAPTION_IN = 1.1  # the band under each picture that holds its caption, in inches
PPTX_CAPTION_PT = 16


def _own_properties(props, title):
    """The file's properties are ours, not python-pptx's template's (created 2013, modified by a stranger)."""
    import datetime

    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0, tzinfo=None)
    props.title, props.author, props.last_modified_by = title, "attention-lab", "attention-lab"
    props.created, props.modified, props.revision = now, now, 1
    props.subject, props.keywords, props.comments = "Core Attention", "attention, transformer", ""


def _fonts(font, lang):
    """A caption's run names its fonts for Latin and for Hangul, so no viewer spaces the two scripts apart."""
    from pptx.oxml.ns import qn

    font.name = "DejaVu Sans"  # <a:latin>
    rpr = font._rPr  # python-pptx has no setter for the East Asian font
    east_asian = rpr.find(qn("a:ea"))
    if east_asian is None:
        east_asian = rpr.makeelement(qn("a:ea"), {})
        rpr.append(east_asian)
    east_asian.set("typeface", "Noto Sans CJK KR" if lang == "ko" else "DejaVu Sans")


def write_pptx(tr, lang, path, chosen=None):  # -> path
    """The deck as an editable PowerPoint file (16:9, the same slides as `write_deck`): each figure as a picture,
    its caption under it as a text box to edit, and again in the speaker notes and the picture's alt text."""
    try:
        from pptx import Presentation
        from pptx.enum.text import PP_ALIGN
        from pptx.util import Inches, Pt
    except ImportError:
        raise ModuleNotFoundError("write_pptx: needs python-pptx; install it with pip install 'attention-lab[pptx]', "
                                  "or write the PDF deck (write_deck, --deck).") from None
    width, height = SLIDE_SIZE
    deck = Presentation()
    deck.slide_width, deck.slide_height = Inches(width), Inches(height)
    _own_properties(deck.core_properties, words.say("deck_title", lang))
    picture_h = height - PPTX_CAPTION_IN  # the figure keeps its 16:9 shape, a little smaller
    for name, fig in zip(DECK, deck_figures(tr, lang, chosen, captions=False), strict=True):
        png = io.BytesIO()
        save(fig, png, "png", PPTX_DPI, slide=True)
        text = caption(name, tr, lang)
        slide = deck.slides.add_slide(deck.slide_layouts[6])  # the blank layout
        picture = slide.shapes.add_picture(png, Inches((width - picture_h * width / height) / 2), 0,
                                           height=Inches(picture_h))
        picture._element.nvPicPr.cNvPr.set("descr", text)  # alt text (python-pptx has no public setter)
        box = slide.shapes.add_textbox(Inches(0.6), Inches(picture_h), Inches(width - 1.2),
                                       Inches(PPTX_CAPTION_IN - 0.15))
        box.text_frame.word_wrap = True
        paragraph = box.text_frame.paragraphs[0]
        paragraph.text, paragraph.alignment, paragraph.font.size = text, PP_ALIGN.CENTER, Pt(PPTX_CAPTION_PT)
        _fonts(paragraph.runs[0].font, lang)
        slide.notes_slide.notes_text_frame.text = text
    deck.save(path)
    return path
