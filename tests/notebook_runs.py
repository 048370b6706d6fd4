"""Each stored notebook's code cells run again once per test session, in order, in an IPython shell of this process.

tests/test_stored_figures.py reads the figures the cells draw and tests/test_stored_state.py the widgets they show,
from the same run (the `notebook_runs` fixture of tests/conftest.py): running every notebook's cells once, not once
per test file, is most of those two files' time. Nothing is written back to the notebook.
"""

import base64
import contextlib
import importlib.util
import io
import json
import warnings

import ipywidgets
import nbformat
import pytest
from IPython.core.interactiveshell import InteractiveShell
from matplotlib.figure import Figure


class Shell(InteractiveShell):
    def enable_gui(self, gui=None):  # `%matplotlib inline` needs no event loop
        pass


def name(path):
    return f"{path.parent.name}/{path.stem}"


def skip_without_torch(path):
    if "if torch:" in path.read_text() and importlib.util.find_spec("torch") is None:  # notebook 09
        pytest.skip("this notebook's cells run with PyTorch: add the torch extra")


def as_stored(widget):  # -> the widget's state as a stored model's: JSON types, its layout (a model id) left out
    return json.loads(json.dumps({k: v for k, v in widget.get_state().items() if k != "layout"}))


class Run:
    """One notebook's code cells, run in order until the first that fails.

    figures: [(cell number, Figure, PNG bytes)] for every Figure a cell displays, as IPython turns it into the PNG
    it stores; widgets: [(cell number, state)] for every widget a cell displays, its state (`as_stored`) read once
    the last cell has run, as a kernel would send it; failed: (cell number, error) of the cell that failed, or None.
    """

    def __init__(self, path):
        nb = nbformat.read(path, as_version=4)
        shell = Shell.instance()
        shell.reset(new_session=False)
        formatter = shell.display_formatter
        format_ = formatter.format
        self.figures, shown, self.failed = [], [], None

        def catching(obj, include=None, exclude=None):  # what IPython stores for a displayed object, and the object
            data, metadata = format_(obj, include=include, exclude=exclude)
            if isinstance(obj, Figure) and "image/png" in data:
                png = data["image/png"]
                self.figures.append((n, obj, base64.b64decode(png) if isinstance(png, str) else png))
            if isinstance(obj, ipywidgets.Widget):
                shown.append((n, obj))
            return data, metadata

        formatter.format = catching
        try:
            for n, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
                        contextlib.redirect_stderr(io.StringIO()):
                    warnings.simplefilter("ignore")  # a cell's warnings are test_notebooks' concern, not these tests'
                    result = shell.run_cell(cell.source, store_history=False)
                if not result.success:
                    self.failed = (n, result.error_in_exec or result.error_before_exec)
                    break
        finally:
            formatter.format = format_
        self.widgets = [(n, as_stored(widget)) for n, widget in shown]

    def check_ran(self, path, upto=None):
        """Fail, naming the cell, if a cell failed (only a cell up to number `upto`, when given)."""
        if self.failed and (upto is None or self.failed[0] <= upto):
            n, error = self.failed
            raise AssertionError(f"{name(path)} cell {n}: {error!r}")


class NotebookRuns(dict):
    """{path: Run}, filled as the tests ask."""

    def __missing__(self, path):
        self[path] = Run(path)
        return self[path]
