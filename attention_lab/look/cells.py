"""Each cell of a heatmap as plain data: its label, fill, ink and whether it is masked, from `look.colors`.

What the browser's front-end and `look.tables` draw, and what the parity test
compares the browser's own picture with. Strings, not lists, so that a
picture is cheap to build, to send and to read.
"""

import numpy as np

from ..numeric import checks
from . import colors


def _check_matrix(matrix):  # -> [rows, cols] float
    matrix = checks.real_array("matrix", matrix, "a 2-D array of numbers")
    if matrix.ndim != 2:
        raise ValueError(f"matrix: a heatmap needs a 2-D matrix (rows × columns), got shape {matrix.shape}.")
    if matrix.size == 0:
        raise ValueError(f"matrix: is empty (shape {matrix.shape}); a heatmap needs at least one row and one column.")
    return matrix  # NaN and ±∞ are drawn as colors draws them: "NaN" in a colour of its own, "∞", "−∞" masked


def heatmap_data(matrix, kind, *, vmin=None, vmax=None):  # [rows, cols] -> dict of JSON types
    """One matrix's cells as plain data, from `colors.cell_style`: what both the live view and `heatmap_html` draw.

    Returns {"rows", "cols", "labels": the cell labels row by row, one string with a space between labels
    (a label never holds one), "fill": six hex digits per cell (its background #rrggbb), "ink": "1" (dark text)
    or "0" (light text) per cell, "masked": "1" per −∞ cell, "width": the longest label's length}. Strings,
    not lists, so that the widget's message is cheap to build and to read.
    """
    vmin, vmax = colors.scale_limits(vmin, vmax)
    return cells(_check_matrix(matrix), colors.kind_of(kind), vmin, vmax)


def cells(matrix, kind, vmin=None, vmax=None):  # [rows, cols] float -> dict of JSON types
    """`heatmap_data` without the argument checks, for a matrix read from a trace (2-D, finite or −∞)."""
    cs = colors.cell_style(matrix, kind, vmin=vmin, vmax=vmax)
    labels = [label for row in cs.labels for label in row]
    rgb = np.rint(np.asarray(cs.rgba)[..., :3] * 255).astype(np.uint8)  # (rows, cols, 3)
    flags = {name: (np.asarray(a, dtype=np.uint8).ravel() + ord("0")).tobytes().decode()  # "0101…"
             for name, a in (("ink", cs.text_dark), ("masked", cs.masked))}
    return {"rows": matrix.shape[0], "cols": matrix.shape[1], "labels": " ".join(labels), "fill": rgb.tobytes().hex(),
            **flags, "width": max(map(len, labels))}


