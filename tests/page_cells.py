"""Each cell of a heatmap as plain data: its label, fill, ink and whether it is masked, from `look.colors`.

The figures' labels and colours of a matrix in the form the page's picture has them: the reference the tests hold
the page's cells to (tests/test_live_parity.py, tests/test_steppers.py), from the trace's or the records' numbers.
The page makes its own (live/colors.js, from the colour tables it is sent); the package draws no cell from this, so
it lives here, beside the tests (it was attention_lab/look/cells.py, which only tests imported). Not named cells.py:
test_anywhere imports tools/notebooks/cells.py as `cells`, and one module name can hold only one of them.
"""

import numpy as np

from attention_lab.look import colors


def cells(matrix, kind, vmin=None, vmax=None, allowed=None):  # [rows, cols] float, [rows, cols] bool -> dict
    """One matrix's cells as plain data, from `colors.cell_style`, for a matrix read from a trace (2-D, finite or
    −∞, or NaN where a trace holds one): what the browser's front-end must draw. allowed: cell_style's.

    Returns {"rows", "cols", "labels": the cell labels row by row, one string with a space between labels
    (a label never holds one), "fill": six hex digits per cell (its background #rrggbb), "ink": "1" (dark text)
    or "0" (light text) per cell, "masked": "1" per −∞ cell, "width": the longest label's length}.
    """
    cs = colors.cell_style(matrix, kind, vmin=vmin, vmax=vmax, allowed=allowed)
    labels = [label for row in cs.labels for label in row]
    rgb = np.rint(np.asarray(cs.rgba)[..., :3] * 255).astype(np.uint8)  # (rows, cols, 3)
    flags = {name: (np.asarray(a, dtype=np.uint8).ravel() + ord("0")).tobytes().decode()  # "0101…"
             for name, a in (("ink", cs.text_dark), ("masked", cs.masked))}
    return {"rows": matrix.shape[0], "cols": matrix.shape[1], "labels": " ".join(labels), "fill": rgb.tobytes().hex(),
            **flags, "width": max(map(len, labels))}


