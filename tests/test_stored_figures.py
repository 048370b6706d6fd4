"""Every figure a notebook stores is legible where JupyterLab shows it: no text under 9 px on screen.

JupyterLab shows a stored PNG at its own size (one image pixel a CSS pixel) in an output area about 800–900 px
wide, and scales a wider image down to fit. So a text of s points, in a figure stored at `dpi`, is
s · dpi / 72 · min(1, OUTPUT_PX / width) px on screen. The points of every text come from the figure itself: each
notebook's code cells are run again, once in the session (tests/notebook_runs.py), in order, in an IPython shell
of this process (`%matplotlib inline` as in the kernel, nothing written back to the notebook), and every Figure a
cell displays is caught where IPython turns it into the PNG it stores. A text's size is its font size (an em: a
digit is about 0.7 of it), as drawn: what the figure functions keep at 7 pt, 9.7 px at 100 dpi; a mathtext sub- or
superscript is drawn at 0.7 of it.

Two checks per notebook and language: the stored PNGs are the ones the cells draw now (else the notebook was
executed with other code: `python tools/build_notebooks.py --execute NAME`), and no text of a figure the cells
draw is under 9 px on screen.
"""

import base64
import struct
from pathlib import Path

import nbformat
import pytest
from notebook_runs import name, skip_without_torch

from attention_lab.figures.heatmap import MIN_SCREEN_PX

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*/*.ipynb"))
OUTPUT_PX = 850  # JupyterLab's output area at a 1280-px window with the file browser open
SIZE_SLACK_PX = 3  # a stored PNG may differ from the one drawn again by a rounding at its edge


def png_size(png):  # -> (width, height) in pixels, from the PNG's header
    return struct.unpack(">II", png[16:24])


def stored_pngs(cell):  # -> [PNG bytes] of the cell's image outputs, in order, with the width it is shown at
    return [(base64.b64decode(o.data["image/png"]), o.get("metadata", {}).get("image/png", {}).get("width"))
            for o in cell.outputs if "image/png" in o.get("data", {})]


def figure_cells(notebook_runs, path):  # -> [(cell number, stored [(PNG, shown width)], drawn [(Figure, PNG)])]
    """The notebook's cells as run once in the session (tests/notebook_runs.py), up to its last figure."""
    skip_without_torch(path)
    nb = nbformat.read(path, as_version=4)
    stored = {n: pngs for n, cell in enumerate(nb.cells) if cell.cell_type == "code" and (pngs := stored_pngs(cell))}
    run = notebook_runs[path]
    run.check_ran(path, upto=max(stored, default=-1))
    return [(n, pngs, [(fig, png) for m, fig, png in run.figures if m == n]) for n, pngs in stored.items()]


def smallest_pt(text):  # -> the points of the smallest glyphs a Text draws
    """Its font size, or 0.7 of it where mathtext sets a sub- or superscript ($d_h$, $e^{3}$: matplotlib's
    mathtext shrinks each script level by 0.7)."""
    source = text.get_text().replace("\\$", "")
    math = "".join(source.split("$")[1::2]) if source.count("$") >= 2 else ""
    return text.get_fontsize() * (0.7 if any(c in math for c in "^_") else 1.0)


def drawn_texts(fig):  # -> every Text the figure draws with something in it (tick labels in view only)
    texts = [t for t in [fig._suptitle, *fig.texts] if t is not None]
    for ax in fig.axes:
        texts += [ax.title, ax._left_title, ax._right_title, *ax.texts]
        if ax.get_legend() is not None:
            texts += ax.get_legend().get_texts()
        if ax.axison:
            for axis in (ax.xaxis, ax.yaxis):
                if axis.get_visible():
                    texts += [axis.label, *(label for tick in axis._update_ticks()
                                            for label in (tick.label1, tick.label2))]
    return [t for t in texts if t.get_visible() and t.get_text().strip()]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=name)
def test_stored_figures_are_what_their_cells_draw(notebook_runs, path):
    """So that what the next test measures is what the notebook shows."""
    stale = []
    for n, stored, drawn in figure_cells(notebook_runs, path):
        assert len(drawn) == len(stored), f"{name(path)} cell {n}: stores {len(stored)} figures, draws {len(drawn)}"
        for (old, _), (_, new) in zip(stored, drawn, strict=True):
            if any(abs(a - b) > SIZE_SLACK_PX for a, b in zip(png_size(old), png_size(new), strict=True)):
                stale.append(f"cell {n}: stored {png_size(old)} px, drawn now {png_size(new)} px")
    assert not stale, f"{name(path)} was executed with other figure code; re-execute it: {stale}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=name)
def test_stored_figures_are_legible_in_jupyterlab(notebook_runs, path):
    small = []
    for n, stored, drawn in figure_cells(notebook_runs, path):
        for (_, shown_width), (fig, png) in zip(stored, drawn, strict=False):
            width = shown_width or png_size(png)[0]  # a "retina" PNG says the width it is shown at
            scale = fig.dpi / 72 * min(1.0, OUTPUT_PX / width)  # screen px per point
            under = sorted((smallest_pt(t) * scale, smallest_pt(t), t.get_text()) for t in drawn_texts(fig)
                           if smallest_pt(t) * scale < MIN_SCREEN_PX)
            if under:
                examples = ", ".join(dict.fromkeys(f"{text[:24]!r} {pt:.3g} pt = {px:.1f} px"
                                                   for px, pt, text in under))
                small.append(f"cell {n}, {width} px wide, shown at {min(1, OUTPUT_PX / width):.0%}: {len(under)} "
                             f"texts, {examples[:300]}")
    assert not small, f"{name(path)}: texts under {MIN_SCREEN_PX} px on screen\n" + "\n".join(small)
