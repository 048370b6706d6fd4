"""Figures to files: SVG, PNG and PDF with real text, the slides of `--slides`, and the deck of `--deck`.

    from attention_lab.figures import export
    export.save(fig, "fig4.pdf")                       # text that can be selected, copied and searched
    export.write_deck(al.article_example(), "ko", "deck.pdf")

PDF (and PostScript) embed the fonts as TrueType (Type 42), so Korean copies as Korean; SVG keeps its text as
outlines, or as editable text with svg_text=True. Both are set for that one savefig only
(`matplotlib.rc_context`): the user's rcParams are never changed.
"""

import inspect

import matplotlib
import numpy as np
from matplotlib.backends.backend_pdf import PdfPages

from ..look import formats, words
from .overview import slide_groups

TEXT_RC = {"pdf.fonttype": 42, "ps.fonttype": 42}  # TrueType, not Type 3: real, copyable text
DECK = ("fig1_heads", "fig2_scores", "fig3_mask", "fig4_softmax", "fig5_weighted_sum", "scaling_head1")


def save(fig, path, fmt=None, dpi=150, svg_text=False, slide=False):
    """Write one figure: a slide at its exact 16:9 size, any other figure cropped to what it draws."""
    rc = {**TEXT_RC, "svg.fonttype": "none" if svg_text else "path"}
    with matplotlib.rc_context(rc):
        fig.savefig(path, format=fmt, dpi=dpi, bbox_inches=None if slide else "tight")


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


def deck_figures(tr, lang, chosen=None):  # yields the deck's slides, in order
    """The deck: figures 1–5 in the article's order, then the scaling figure, each a 16:9 slide with its caption."""
    from . import FIGURES

    for name in DECK:
        make = FIGURES[name]
        yield make(tr, lang=lang, slides=True, caption=caption(name, tr, lang), **_given(make, chosen or {}))


def write_deck(tr, lang, path, chosen=None):  # -> path
    """One multi-page 16:9 PDF of the deck's slides, with real (copyable, searchable) text in either language."""
    with matplotlib.rc_context(TEXT_RC), PdfPages(path, metadata={"Title": words.say("deck_title", lang)}) as pdf:
        for fig in deck_figures(tr, lang, chosen):
            pdf.savefig(fig)  # no bbox_inches: every page keeps the slide's 13.33 × 7.5 in
    return path
