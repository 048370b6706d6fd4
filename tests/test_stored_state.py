"""What the notebooks store is what the code stores now, and small: widget state never stale, both editions < 6 MB.

A stored widget (`nb.metadata.widgets`, one model per explorer or step widget) is what a notebook opened without
its kernel and the course site draw from. Each notebook's code cells are run again, once in the session
(tests/notebook_runs.py, shared with test_stored_figures), in order, in an IPython shell of this process (nothing
written back), every widget a cell displays is caught, and once the last cell has run each one's state
(`get_state()`, as the kernel would send it) must equal the stored model's: a change to the front-end, the words,
a mask or a view that reaches the widgets fails here, naming the notebook to execute again. The size test
measures both editions, their figures and widgets, against the issue's budget.
"""

import base64
import json
import os
import sys
from pathlib import Path

import nbformat
import pytest
from notebook_runs import name, skip_without_torch

from attention_lab.live import page

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*/*.ipynb"))
WIDGET_VIEW, WIDGET_STATE = "application/vnd.jupyter.widget-view+json", "application/vnd.jupyter.widget-state+json"
BOTH_EDITIONS_MB = 6.0  # notebooks/ko and notebooks/en together (issue 32)
PALETTE = 3  # a PNG's colour type for indexed colour (the PNG specification, IHDR)


def stored_views(cell):  # -> [model id] of the cell's widget outputs, in order
    return [o.data[WIDGET_VIEW]["model_id"] for o in cell.get("outputs", []) if WIDGET_VIEW in o.get("data", {})]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=name)
def test_every_stored_widget_is_what_the_code_stores_now(notebook_runs, path):
    skip_without_torch(path)
    nb = nbformat.read(path, as_version=4)
    models = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    stored = [(n, model_id) for n, cell in enumerate(nb.cells) for model_id in stored_views(cell)]
    run = notebook_runs[path]
    run.check_ran(path)
    shown = run.widgets
    fix = f"re-execute it: python tools/build_notebooks.py --execute {path.stem}"
    assert [n for n, _ in shown] == [n for n, _ in stored], f"{name(path)} shows other widgets now; {fix}"
    for (n, model_id), (_, new) in zip(stored, shown, strict=True):
        assert model_id in models, f"{name(path)} cell {n}: its widget's model is not stored; {fix}"
        old = {k: v for k, v in models[model_id]["state"].items() if k != "layout"}
        stale = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
        assert not stale, f"{name(path)} cell {n}: the stored widget's {stale} differ from what the code stores; {fix}"


def test_both_editions_are_small_and_their_figures_are_palette_pngs():
    """Both editions together under BOTH_EDITIONS_MB, measured from the files; every stored figure in indexed colour
    (tools/build_notebooks.py's palette_png), and each widget's front-end stored packed (live/loader.js), not as the
    whole bundle."""
    unpacked = sum(len(part) for part in page.bundle())  # the module and its styles as they are (167 kB today)
    sizes = {}
    for path in NOTEBOOKS:
        sizes[path.parent.name] = sizes.get(path.parent.name, 0) + path.stat().st_size
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            for out in cell.get("outputs", []):
                if "image/png" in out.get("data", {}):
                    png = base64.b64decode(out.data["image/png"])
                    assert png[25] == PALETTE, f"{name(path)}: a figure is not a palette PNG; re-execute it"
        for model in nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {}).values():
            stored = len(model["state"].get("_esm", ""))
            assert stored < unpacked / 2, f"{name(path)}: a widget stores an unpacked module ({stored} characters)"
    assert set(sizes) == {"ko", "en"}
    report = ", ".join(f"{lang} {size / 1e6:.2f} MB" for lang, size in sorted(sizes.items()))
    assert sum(sizes.values()) < BOTH_EDITIONS_MB * 1e6, (
        f"both editions {sum(sizes.values()) / 1e6:.2f} MB ({report}), over {BOTH_EDITIONS_MB} MB; write "
        f"them with python tools/build_notebooks.py --execute (its writer keeps the widget state on one line)")


def test_a_stored_notebook_reads_back_as_the_notebook_written():
    """tools/build_notebooks.py writes the widget state on one line: the same notebook, in fewer bytes."""
    sys.path.insert(0, str(ROOT / "tools"))
    from build_notebooks import stored_text

    path = ROOT / "notebooks" / "en" / "07_explorer.ipynb"
    nb = nbformat.read(path, as_version=4)
    text = stored_text(nb)
    assert nbformat.reads(text, as_version=4) == nb
    assert "widgets" in nb.metadata and len(text.encode()) < len(nbformat.writes(nb).encode())
    line = next(line for line in text.splitlines() if line.lstrip().startswith('"widgets": '))
    assert json.loads(line.split(": ", 1)[1].rstrip(",")) == nb.metadata.widgets  # all of it on its one line


# ---- a stored notebook opened in JupyterLab and not run (issue 29 item 4) -------------------------------------------

def _scroll_to(page, selector):  # -> the first `selector`, scrolled to: JupyterLab draws cells as they come near
    for _ in range(60):
        found = page.locator(selector)
        if found.count():
            found.first.scroll_into_view_if_needed()
            return found.first
        page.evaluate("(document.querySelector('.jp-WindowedPanel-outer') || document.scrollingElement)"
                      ".scrollBy(0, 500)")
        page.wait_for_timeout(250)
    shots = os.environ.get("ATTENTION_LAB_SCREENSHOTS")
    if shots:
        page.screenshot(path=f"{shots}/never-showed.png")
    raise AssertionError(f"{selector} never showed")


def _trust(page):
    """Trust Notebook from the command palette, as a reader would, and accept its dialog. The palette's shortcut
    toggles it, and on a busy machine it may take seconds to open: press it only while no palette is open, wait long
    for it, and pick the command from its list rather than pressing Enter on whatever the list shows first."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from test_browser import answer_kernel_dialog

    palette = page.locator(".lm-CommandPalette-input:visible")
    for _ in range(3):
        answer_kernel_dialog(page)  # a "Select Kernel" dialog that opened late would hold the keyboard
        if palette.count() == 0:
            page.locator(".jp-Notebook").first.click(position={"x": 2, "y": 2})  # the page has the keyboard
            page.keyboard.press("Control+Shift+c")
        try:
            palette.first.wait_for(timeout=20_000)
            break
        except PlaywrightTimeout:
            continue
    palette.first.fill("Trust Notebook")
    page.locator(".lm-CommandPalette-item:visible", has_text="Trust Notebook").first.click()
    page.locator(".jp-Dialog .jp-mod-accept").click()


@pytest.mark.parametrize(("app", "lang"), [("lab", "ko"), ("lab", "en"), ("notebook", "ko")])
def test_a_stored_explorer_draws_and_moves_with_no_cell_run(lab, browser, app, lang):
    """notebooks/LANG/02_scores.ipynb opened in JupyterLab or Notebook 7 and not run. Untrusted (as any notebook
    one did not run oneself) it shows the one-line fallback, which says how to get the explorer; after Trust
    Notebook (the command palette, as a reader would) the stored state alone draws it: its heatmaps, and the T
    slider redraws them, no cell run."""
    from playwright.sync_api import expect
    from test_browser import WINDOW, _no_console_errors, _watch_console, answer_kernel_dialog

    from attention_lab.look import words

    if app == "notebook":
        pytest.importorskip("notebook", minversion="7", reason="needs Notebook 7: pip install notebook")
    folder = lab.root / f"stored-{app}-{lang}"
    folder.mkdir()
    # A copy of its own: the session's one server remembers a trusted notebook by its content, and the JupyterLab
    # case of the same edition trusts it, so the copy's metadata names this case (other content, not yet trusted).
    nb = nbformat.read(ROOT / "notebooks" / lang / "02_scores.ipynb", as_version=4)
    nb.metadata["attention_lab_case"] = f"{app}-{lang}"
    nbformat.write(nb, folder / "02_scores.ipynb")
    page = browser.new_page(viewport=WINDOW)
    shots = os.environ.get("ATTENTION_LAB_SCREENSHOTS")
    try:
        page.set_default_timeout(60_000)
        errors = _watch_console(page)
        page.goto(lab.url(f"{folder.name}/02_scores.ipynb", app=app))
        page.wait_for_selector(".jp-Notebook .jp-Cell")
        answer_kernel_dialog(page)
        fallback = words.table(lang)["plain"]
        _scroll_to(page, f'.jp-OutputArea-output:has-text("{fallback}")')
        assert page.locator(".al-live").count() == 0  # untrusted: no script of the notebook runs
        if shots:
            page.screenshot(path=f"{shots}/stored-untrusted-{app}-{lang}.png")
        _trust(page)
        explorer = _scroll_to(page, ".al-explorer .al-live")
        grid = explorer.locator('.al-hm[data-name="S"] tbody tr')
        assert grid.count() == 3 and "T=3 " in explorer.locator(".al-shape").text_content()
        explorer.locator('[data-control="T"]').focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('.al-explorer .al-shape').textContent"
                               ".startsWith('T=4 ')")
        # The key's frame draws the heatmaps the page knows to be on screen; its IntersectionObserver reports a
        # scroll a frame late, and a heatmap not yet reported is drawn a task after the next frame (explorer.js,
        # catchUpSoon) or as it comes near. CI once counted S's rows in between (3, not 4): so S is brought into
        # view and waited for, and must reach T=4 there.
        grid.first.scroll_into_view_if_needed()
        expect(grid).to_have_count(4, timeout=30_000)
        assert grid.count() == 4 and page.locator(".al-explorer .al-hm").count() >= 1
        if shots:
            page.screenshot(path=f"{shots}/stored-trusted-{app}-{lang}.png")
        assert page.locator('.jp-InputArea-prompt:has-text("[*]")').count() == 0
    finally:
        page.close()
        lab.stop_kernels()
    if app == "lab":  # Notebook 7's own page logs "Cannot read properties of undefined (reading 'schema')"
        _no_console_errors(errors)
