"""The notebooks are build output (issue 50.3): `tools/build_notebooks.py --check` builds and runs every notebook
from its source, writes nothing, and fails when a committed notebook differs from that fresh build; prose that
counts the registries' entries is computed from them when the source is built."""

import base64
import copy
import importlib.util
import io
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from notebook_runs import skip_without_torch
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "tools" / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NAMES = [path.stem[2:] for path in sorted((ROOT / "tools" / "notebooks").glob("nb[0-9][0-9]_*.py"))]  # 00_overview


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_every_committed_notebook_is_what_a_fresh_build_makes(name):
    # A notebook whose cells run PyTorch is stored as run with it: checked where torch is (.ci/run's torch step).
    skip_without_torch(ROOT / "notebooks" / "en" / f"{name}.ipynb")
    run = subprocess.run([sys.executable, "tools/build_notebooks.py", "--check", name], cwd=ROOT,
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert run.stdout.count("the same as a fresh build") == 2, run.stdout


def test_the_notebooks_checked_are_every_source():
    assert NAMES == list(_tool().sources()) and len(NAMES) >= 14


def test_the_check_finds_every_kind_of_difference(tmp_path):
    tool = _tool()
    path = ROOT / "notebooks" / "en" / "02_scores.ipynb"
    committed = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    assert tool.first_difference(path, committed) == ""  # read back and written again: the same file

    def changed(edit):  # -> what first_difference says of the committed notebook with `edit` made to a copy
        nb = copy.deepcopy(committed)
        edit(nb)
        return tool.first_difference(path, nb)

    code = next(n for n, c in enumerate(committed.cells) if c.cell_type == "code" and c.outputs)
    wrong = {  # what a stale notebook looks like -> what the check must say
        "source": (lambda nb: setattr(nb.cells[0], "source", nb.cells[0].source + " "),
                   "cell 1 (markdown) differs in its source"),
        "output": (lambda nb: nb.cells[code].outputs.clear(), f"cell {code + 1} (code) differs in its outputs"),
        "tag": (lambda nb: nb.cells[code].metadata.setdefault("tags", []).append("x"), "differs in its metadata"),
        "cell": (lambda nb: nb.cells.append(nbformat.v4.new_markdown_cell("more")), "cells committed"),
        "widgets": (lambda nb: nb.metadata.setdefault("widgets", {}).update(x=1), "stored widget state"),
    }
    figure = next(n for n, c in enumerate(committed.cells) if c.cell_type == "code"
                  and any("image/png" in o.get("data", {}) for o in c.outputs))

    def redraw(share):  # -> an edit that paints `share` of the first figure's pixels, in rows from the top, black
        def edit(nb):
            out = next(o for o in nb.cells[figure].outputs if "image/png" in o.get("data", {}))
            pixels = np.asarray(Image.open(io.BytesIO(base64.b64decode(out.data["image/png"]))).convert("RGB")).copy()
            pixels.reshape(-1, 3)[: int(share * pixels.shape[0] * pixels.shape[1])] = 0
            buffer = io.BytesIO()
            Image.fromarray(pixels).save(buffer, "PNG")
            out.data["image/png"] = base64.b64encode(buffer.getvalue()).decode("ascii")
        return edit

    wrong["figure"] = (redraw(0.02), f"cell {figure + 1} (code) differs in its outputs (output 1, image/png)")
    for name, (edit, said) in wrong.items():
        assert said in changed(edit), name
    assert changed(redraw(0.001)) == ""  # a glyph drawn a fraction of a pixel otherwise (FIGURE_PIXEL_SLACK)
    assert tool.first_difference(tmp_path / "none.ipynb", committed) == "not committed"


def test_a_rebuild_names_every_widget_model_by_its_place_not_by_chance():
    tool = _tool()
    nb = nbformat.v4.new_notebook()
    ids = ["a" * 32, "b" * 32]
    view = "application/vnd.jupyter.widget-view+json"
    nb.cells = [nbformat.v4.new_code_cell("w", outputs=[nbformat.v4.new_output(
        "display_data", data={view: {"model_id": i, "version_major": 2, "version_minor": 1}})]) for i in ids]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {
        ids[0]: {"state": {"child": f"IPY_MODEL_{ids[1]}"}}, ids[1]: {"state": {}}}}}
    stable = tool.stable_widget_ids(nb, "02_scores", "en")
    again = tool.stable_widget_ids(copy.deepcopy(nb), "02_scores", "en")
    new = [c.outputs[0].data[view]["model_id"] for c in stable.cells]
    assert new == [c.outputs[0].data[view]["model_id"] for c in again.cells] and len(set(new)) == 2
    assert not set(new) & set(ids)
    state = stable.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert set(state) == set(new) and state[new[0]]["state"]["child"] == f"IPY_MODEL_{new[1]}"  # links follow
    other = tool.stable_widget_ids(copy.deepcopy(nb), "02_scores", "ko")
    assert not set(new) & {c.outputs[0].data[view]["model_id"] for c in other.cells}  # each edition its own


def test_prose_that_counts_the_registries_says_their_counts():
    from attention_lab.numeric.conventions import CONVENTIONS

    sys.path.insert(0, str(ROOT / "tools" / "notebooks"))
    import cells

    assert [cells.counted(n, "ko") for n in (1, 5, 6)] == ["한", "다섯", "여섯"]
    assert [cells.counted(n, "en") for n in (2, 5, 12)] == ["two", "five", "twelve"]
    for bad in (0, 13, -1):
        with pytest.raises(ValueError, match="^counted: "):
            cells.counted(bad, "en")
    tool = _tool()
    masks_source = tool.sources()["08_masks"]
    for lang in ("ko", "en"):
        built = tool.build("08_masks", masks_source, lang)
        text = "\n".join(c.source for c in built.cells if c.cell_type == "markdown")
        ways = cells.counted(len(CONVENTIONS), lang)
        assert (f"{ways} 가지 방법" if lang == "ko" else f"{ways.capitalize()} ways to write the same mask") in text
        assert ("다섯 가지 마스크" if lang == "ko" else "## Five masks") in text  # the five nameable masks of 08
