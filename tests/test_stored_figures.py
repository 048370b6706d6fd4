"""Every figure a notebook stores is legible where JupyterLab shows it: no text under 9 px on screen.

JupyterLab shows a stored PNG at its own size (one image pixel a CSS pixel) in an output area about 800–900 px
wide, and scales a wider image down to fit. So a text of s points, in a figure stored at `dpi`, is
s · dpi / 72 · min(1, OUTPUT_PX / width) px on screen. The points of every text come from the figure itself: each
notebook's code cells are run again here, in order, in an IPython shell of this process (`%matplotlib inline`
as in the kernel, nothing written back to the notebook), and every Figure a cell displays is caught where
IPython turns it into the PNG it stores. A text's size is its font size (an em: a digit is about 0.7 of it),
as drawn: what the figure functions keep at 7 pt, 9.7 px at 100 dpi; a mathtext sub- or superscript is drawn
at 0.7 of it.

Two checks per notebook and language: the stored PNGs are the ones the cells draw now (else the notebook was
executed with other code: `python tools/build_notebooks.py --execute NAME`), and no text of a figure the cells
draw is under 9 px on screen.
"""

import base64
import contextlib
import importlib.util
import io
import struct
import warnings
from pathlib import Path

import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from matplotlib.figure import Figure

from attention_lab.figures.heatmap import MIN_SCREEN_PX

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*/*.ipynb"))
OUTPUT_PX = 850  # JupyterLab's output area at a 1280-px window with the file browser open
SIZE_SLACK_PX = 3  # a stored PNG may differ from the one drawn again by a rounding at its edge


class Shell(InteractiveShell):
    def enable_gui(self, gui=None):  # `%matplotlib inline` needs no event loop
        pass


def png_size(png):  # -> (width, height) in pixels, from the PNG's header
    return struct.unpack(">II", png[16:24])


def stored_pngs(cell):  # -> [PNG bytes] of the cell's image outputs, in order, with the width it is shown at
    return [(base64.b64decode(o.data["image/png"]), o.get("metadata", {}).get("image/png", {}).get("width"))
            for o in cell.outputs if "image/png" in o.get("data", {})]


def run_figure_cells(path):  # -> [(cell number, stored [(PNG, shown width)], drawn [(Figure, PNG)])]
    """Run the notebook's code cells up to its last figure, in one fresh namespace; catch each Figure displayed."""
    nb = nbformat.read(path, as_version=4)
    shell = Shell.instance()
    shell.reset(new_session=False)
    formatter = shell.display_formatter
    format_ = getattr(formatter, "_plain_format", formatter.format)
    formatter._plain_format = format_
    drawn = []

    def catching(obj, include=None, exclude=None):  # what IPython stores for a displayed object, and the object
        data, metadata = format_(obj, include=include, exclude=exclude)
        if isinstance(obj, Figure) and "image/png" in data:
            png = data["image/png"]
            drawn.append((obj, base64.b64decode(png) if isinstance(png, str) else png))
        return data, metadata

    formatter.format = catching
    figure_cells = [n for n, cell in enumerate(nb.cells) if cell.cell_type == "code" and stored_pngs(cell)]
    found = []
    try:
        for n, cell in enumerate(nb.cells[:max(figure_cells, default=-1) + 1]):
            if cell.cell_type != "code":
                continue
            start = len(drawn)
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                warnings.simplefilter("ignore")  # a cell's warnings are test_notebooks' concern, not this test's
                result = shell.run_cell(cell.source, store_history=False)
            if not result.success:
                raise AssertionError(f"{path.parent.name}/{path.name} cell {n}: "
                                     f"{result.error_in_exec or result.error_before_exec!r}")
            if n in figure_cells:
                found.append((n, stored_pngs(cell), drawn[start:]))
    finally:
        formatter.format = format_
    return found


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


@pytest.fixture(scope="module")
def runs():
    return {}


def figure_cells(runs, path):
    if "if torch:" in path.read_text() and importlib.util.find_spec("torch") is None:  # notebook 09
        pytest.skip("this notebook draws its figure with PyTorch only: add the torch extra")
    if path not in runs:
        runs[path] = run_figure_cells(path)
    return runs[path]


def name(path):
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=name)
def test_stored_figures_are_what_their_cells_draw(runs, path):
    """So that what the next test measures is what the notebook shows."""
    stale = []
    for n, stored, drawn in figure_cells(runs, path):
        assert len(drawn) == len(stored), f"{name(path)} cell {n}: stores {len(stored)} figures, draws {len(drawn)}"
        for (old, _), (_, new) in zip(stored, drawn, strict=True):
            if any(abs(a - b) > SIZE_SLACK_PX for a, b in zip(png_size(old), png_size(new), strict=True)):
                stale.append(f"cell {n}: stored {png_size(old)} px, drawn now {png_size(new)} px")
    assert not stale, f"{name(path)} was executed with other figure code; re-execute it: {stale}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=name)
def test_stored_figures_are_legible_in_jupyterlab(runs, path):
    small = []
    for n, stored, drawn in figure_cells(runs, path):
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
