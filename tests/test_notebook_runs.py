"""The one run of a notebook's cells that test_stored_figures and test_stored_state share (tests/notebook_runs.py)
catches what each of them reads, and refuses what they must refuse: a failing cell, named, wherever it is for the
widget test and up to the last figure for the figure test."""

import nbformat
import pytest
from notebook_runs import Run


def notebook(tmp_path, *sources):  # -> the path of a notebook of these code cells, a Markdown cell first
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# a title"), *map(nbformat.v4.new_code_cell, sources)]
    path = tmp_path / "en" / "nb.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    return path


def test_a_run_catches_each_figure_by_its_cell_and_each_widget_as_it_ends(tmp_path):
    path = notebook(tmp_path,
                    "%matplotlib inline\nimport ipywidgets, matplotlib.pyplot as plt",
                    "fig, ax = plt.subplots(figsize=(2, 1), dpi=50)\nax.set_title('one')",
                    "slider = ipywidgets.IntSlider(value=1)\nslider",
                    "slider.value = 7  # after it was shown: what is stored is the state once the last cell has run")
    run = Run(path)
    run.check_ran(path)
    [(n, fig, png)] = run.figures
    assert n == 2 and fig.axes[0].get_title() == "one" and png.startswith(b"\x89PNG")
    [(n, state)] = run.widgets
    assert n == 3 and state["value"] == 7 and "layout" not in state


def test_a_failing_cell_is_named_and_stops_the_run(tmp_path):
    path = notebook(tmp_path, "%matplotlib inline\nimport matplotlib.pyplot as plt",
                    "plt.subplots(figsize=(2, 1), dpi=50)", "1 / 0", "plt.subplots(figsize=(2, 1), dpi=50)")
    run = Run(path)
    assert [n for n, _, _ in run.figures] == [2]  # the cell after the failing one did not run
    with pytest.raises(AssertionError, match=r"^en/nb cell 3: ZeroDivisionError"):
        run.check_ran(path)  # the widget test: any cell
    with pytest.raises(AssertionError, match=r"^en/nb cell 3: "):
        run.check_ran(path, upto=3)  # the figure test, when a figure comes at or after it
    run.check_ran(path, upto=2)  # a failure after the last figure is the widget test's to report
