"""The explorer in a real browser: JupyterLab in headless Chromium, driven by Playwright.

- notebooks/en/07_explorer.ipynb, run top to bottom: → on the T slider (a native range input) redraws the
  picture with no kernel on its path, and the notebook's own shortcuts never see the key (the active cell stays);
  no cell prints an error, the console stays clean and the notebook file (a copy, in the server's folder) is not
  rewritten; the same in Notebook 7, on a notebook of one explorer, its console clean but for its own known throw;
- a scratch notebook of explorers: a move in the page reaches `ex.controls` and `ex.trace` (a cell prints them),
  a value set from Python moves the page; every heatmap fits the output at 1280 px with the file browser open and
  closed, and at 800 and 1920 px, at the largest and smallest sizes, in Korean and English, nothing scrolled
  sideways; a held → key at T = 16, h = 8, dh = 8 with all heads settles on the final picture (the time is
  printed with -s; benchmarks/bench_browser_latency.py measures it); your own numbers: an edited row changes the
  picture, a malformed one leaves it and says why in one line; the change marks outline, fade, switch off.

Every test here uses the session's one JupyterLab server and one Chromium (conftest.py: `lab`, `browser`), and
shuts its kernels down when done. Nothing here depends on JupyterLab drawing cells out of view: each check
scrolls its explorer into view and reads text with text_content(); a "Select Kernel" dialog, if JupyterLab asks,
is answered.
Needs Debian's `chromium` and the `playwright` Python package (its own browser download is not used).
ATTENTION_LAB_SCREENSHOTS=folder saves a PNG of each scratch explorer there, to look at.
"""

import os
import shutil
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "notebooks" / "en" / "07_explorer.ipynb"
WINDOW = {"width": 1280, "height": 900}


# Notebook 7's own throws, not ours: an uncaught error whose every stack frame is in Notebook 7's bundle
# (/static/notebook/) was thrown by Notebook 7 alone, with none of our code (the widget's module) on the stack. Seen
# (Notebook 7.6.5), each now and then, also on a notebook of one `1+1` cell with every other lab extension disabled:
# "Cannot read properties of undefined (reading 'schema')", its shortcuts plugin reading another plugin's settings
# before they load (jupyter/notebook issue 7862, open), and "Command 'filebrowser:open-path' not registered".
NOTEBOOK_7_OWN = "/static/notebook/"


def _benign(text, where):  # where: a console message's URL, or a page error's stack
    # Chromium asks for /favicon.ico before JupyterLab sets its own icon; the server answers 404.
    # Only that request is forgiven: a 404 for anything else (a widget bundle, say) is an error.
    if where.split("?")[0].endswith("/favicon.ico") and "404" in text:
        return True
    # the stack's frames that name a file ("at async Promise.all (index 0)", the engine's own, names none)
    frames = [f for f in where.split("\n")[1:] if f.strip().startswith("at ") and "://" in f]
    return text.startswith("page error: ") and bool(frames) and all(NOTEBOOK_7_OWN in f for f in frames)


KERNEL_IDLE = """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
                                .some(e => /\\| Idle$/.test(e.textContent))"""
# Notebook 7 has no kernel item in a status bar: its toolbar says "Kernel status: Idle".
NOTEBOOK_7_IDLE = """() => [...document.querySelectorAll('.jp-Notebook-ExecutionIndicator')]
                                .some(e => /Kernel status: Idle/.test(e.textContent))"""
ANY_CELL_RAN = """() => [...document.querySelectorAll('.jp-InputArea-prompt')]
                                .some(p => /\\[(\\d+|\\*)\\]/.test(p.textContent))"""
CELLS_DONE = """() => ![...document.querySelectorAll('.jp-InputArea-prompt')].some(p => p.textContent.includes('*'))"""


def answer_kernel_dialog(page):
    """JupyterLab may ask which kernel to start ("Select Kernel"): take the one it proposes."""
    dialog = page.locator(".jp-Dialog", has_text="Select Kernel")
    if dialog.count():
        dialog.locator(".jp-Dialog-button.jp-mod-accept").click()


def run_all_cells(page, url, ready, idle=KERNEL_IDLE):
    """Open the notebook at `url`, Run → Run All Cells, and wait until `ready` (a selector) exists and every cell
    has finished (`idle`: how the page says its kernel is ready)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.goto(url)
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    for _ in range(20):
        answer_kernel_dialog(page)
        if page.evaluate(idle):
            break
        page.wait_for_timeout(500)
    page.wait_for_function(idle, timeout=60_000)
    for toast in page.locator(".Toastify__toast button", has_text="No").all():  # news toast, if any
        toast.click()
    for attempt in range(3):  # a click that lands while the kernel is still connecting runs nothing
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        try:
            page.wait_for_function(ANY_CELL_RAN, timeout=20_000)
            break
        except PlaywrightTimeout:
            answer_kernel_dialog(page)
            assert attempt < 2, "Run → Run All Cells did not run any cell"
    page.locator(ready).first.wait_for(state="attached", timeout=90_000)
    page.wait_for_function(CELLS_DONE, timeout=90_000)
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]')


def _watch_console(page):
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append((m.text, m.location["url"])))
    page.on("pageerror", lambda e: errors.append((f"page error: {e}", e.stack or "")))
    return errors


def _no_console_errors(errors):
    unexpected = [f"{text} ({where})" for text, where in errors if not _benign(text, where)]
    assert not unexpected, "browser console errors:\n" + "\n".join(unexpected)


def _no_stderr(page):
    errors = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    assert errors.count() == 0, "a cell printed an error:\n" + "\n---\n".join(errors.all_text_contents())


def _in_view(page, tag):  # -> the explorer `tag`, scrolled into view
    explorer = page.locator(f".{tag} .al-live")
    explorer.scroll_into_view_if_needed()
    return explorer


def _shape(page, tag):
    return page.locator(f".{tag} .al-shape").text_content()


def _wait_shape(page, tag, start):
    page.wait_for_function(f"() => document.querySelector('.{tag} .al-shape').textContent.startsWith('{start}')")


def test_notebook_07_answers_the_keyboard_in_the_page(lab, browser):
    folder = lab.root / "n07"
    folder.mkdir()
    shutil.copy(NOTEBOOK, folder)
    before = NOTEBOOK.read_bytes()
    page = browser.new_page(viewport=WINDOW)
    try:
        page.set_default_timeout(60_000)
        errors = _watch_console(page)
        run_all_cells(page, lab.url(f"n07/{NOTEBOOK.name}"), ".al-explorer .al-live .al-hm")
        _no_stderr(page)
        explorer = page.locator(".al-explorer .al-live").first
        explorer.scroll_into_view_if_needed()
        T0 = int(explorer.locator(".al-shape").text_content().split("T=")[1].split(" ")[0])
        slider = explorer.locator('[data-control="T"]')
        for step in range(1, 4):
            slider.focus()
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"""() => document.querySelector('.al-explorer .al-shape')
                                         .textContent.startsWith('T={T0 + step} ')""")
        assert explorer.locator('.al-hm[data-name="Q"] tbody tr').count() == T0 + 3
        active = page.evaluate("() => [...document.querySelectorAll('.jp-Cell')].findIndex(c => "
                               "c.classList.contains('jp-mod-active'))")
        page.keyboard.press("ArrowDown")  # a notebook in command mode would move to the next cell
        assert page.evaluate("() => [...document.querySelectorAll('.jp-Cell')].findIndex(c => "
                             "c.classList.contains('jp-mod-active'))") == active
        assert slider.input_value() == str(T0 + 2)  # ↓ moved the slider, not the notebook
        _no_stderr(page)
    finally:
        page.close()
        lab.stop_kernels()
    _no_console_errors(errors)
    assert (folder / NOTEBOOK.name).read_bytes() == before, "running the notebook must not rewrite it"


def test_notebook_7_answers_the_keyboard_in_the_page(lab, browser):
    """Notebook 7 reads keys on the document before any element does: ↓ on the T control must still move T."""
    pytest.importorskip("notebook", minversion="7", reason="needs Notebook 7: pip install notebook")
    folder = lab.root / "n7"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import attention_lab as al"),
                nbformat.v4.new_code_cell('ex = al.explorer(lang="ko"); ex'),
                nbformat.v4.new_code_cell('print("state:", ex.controls["T"].value, ex.trace.T)')]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / "k.ipynb")
    page = browser.new_page(viewport=WINDOW)
    try:
        page.set_default_timeout(60_000)
        errors = _watch_console(page)
        run_all_cells(page, lab.url("n7/k.ipynb", app="notebook"), ".al-live .al-hm", NOTEBOOK_7_IDLE)
        slider = page.locator('[data-control="T"]')
        slider.scroll_into_view_if_needed()
        slider.focus()
        page.keyboard.press("ArrowRight")
        _wait_shape(page, "al-explorer", "T=4 ")
        active = page.evaluate("() => [...document.querySelectorAll('.jp-Cell')].findIndex(c => "
                               "c.classList.contains('jp-mod-active'))")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")  # in command mode the notebook would move to the next cell
        _wait_shape(page, "al-explorer", "T=4 ")
        assert page.evaluate("() => [...document.querySelectorAll('.jp-Cell')].findIndex(c => "
                             "c.classList.contains('jp-mod-active'))") == active
        assert "state: 4 4" in run_cell(page, 'print("state:"', "state: 4 4")
    finally:
        page.close()
        lab.stop_kernels()
    _no_console_errors(errors)


# A scratch notebook: the explorers the checks below need, each tagged with a CSS class.
SCRATCH = {
    "max-en": 'ex = al.explorer(T=16, d=64, h=8); ex.controls["head"].value = -1',
    "max-ko": 'ex = al.explorer(T=16, d=64, h=8, lang="ko", source="random", seed=3)',
    "min-ko": 'ex = al.explorer(T=1, d=8, h=2, lang="ko")',
    "min-en": 'ex = al.explorer(T=1, d=1, h=1)',
    "held": 'held = al.explorer(T=1, d=64, h=8); held.controls["head"].value = -1; ex = held',
    "own": "tr = al.article_example()\nown = al.explorer(Q=tr.Q, K=tr.K, V=tr.V, h=2); ex = own",
    "marks": "ex = marks = al.explorer()",
}
PROBE = 'print("state:", marks.controls["T"].value, marks.trace.T, marks.controls["mask"].value)'
SET_FROM_PYTHON = 'marks.controls["T"].value = marks.controls["T"].value + 2; print("set", marks.trace.T)'


@pytest.fixture(scope="module")
def scratch(lab, browser):
    """The session's JupyterLab on a scratch notebook of explorers, run, in a 1280-pixel-wide window: the page."""
    folder = lab.root / "scratch"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import attention_lab as al")] + [
        nbformat.v4.new_code_cell(f'{source}\nex.add_class("t-{tag}"); ex') for tag, source in SCRATCH.items()]
    nb.cells += [nbformat.v4.new_code_cell(PROBE), nbformat.v4.new_code_cell(SET_FROM_PYTHON)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / "scratch.ipynb")
    page = browser.new_page(viewport=WINDOW)
    try:
        page.set_default_timeout(60_000)
        errors = _watch_console(page)
        run_all_cells(page, lab.url("scratch/scratch.ipynb"), ".t-marks .al-live .al-hm")
        _no_stderr(page)
        yield page
        _no_stderr(page)
        _no_console_errors(errors)
    finally:
        page.close()
        lab.stop_kernels()


def run_cell(page, source, expect):  # -> the cell's output once it shows `expect`: run with Shift+Enter, as a learner
    cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text=source)).first
    cell.scroll_into_view_if_needed()
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    output = cell.locator(".jp-OutputArea")
    for _ in range(100):
        if expect in output.text_content():
            break
        page.wait_for_timeout(100)
    return output.text_content()


def test_a_move_in_the_page_reaches_python_and_a_value_set_in_python_moves_the_page(scratch):
    page, tag = scratch, "t-marks"
    _in_view(page, tag).locator('[data-control="reset"]').click()  # Run All ran the cell below once: T = 5
    _wait_shape(page, tag, "T=3 ")
    page.locator(f'.{tag} [data-control="T"]').focus()
    page.keyboard.press("ArrowRight")
    _wait_shape(page, tag, "T=4 ")
    page.locator(f'.{tag} [data-control="mask"]').select_option("sliding")
    page.wait_for_timeout(300)  # the state's message reaches the kernel
    assert "state: 4 4 sliding" in run_cell(page, 'print("state:"', "state: 4 4 sliding")
    run_cell(page, 'print("set"', "set 6")
    _in_view(page, tag)
    _wait_shape(page, tag, "T=6 ")
    assert page.locator(f'.{tag} [data-control="T"]').input_value() == "6"
    page.locator(f'.{tag} [data-control="mask"]').select_option("causal")
    page.locator(f'.{tag} [data-control="reset"]').click()
    _wait_shape(page, tag, "T=3 ")


# Every heatmap, breakdown and control of an explorer, measured against the output area; and anything scrolled.
FIT = """(tag) => {
  const ex = document.querySelector('.' + tag + ' .al-live'), out = ex.closest('.jp-OutputArea-output');
  const edge = out.getBoundingClientRect().right + 0.5;
  const over = [], scrolled = [];
  for (const node of ex.querySelectorAll('.al-hm, .al-hm table, .al-breakdown, .al-note, .al-shape, .al-ctl, '
                                         + '[data-control]')) {
    const r = node.getBoundingClientRect();
    if (r.width && r.right > edge) over.push(`${node.className} ${node.dataset.key || node.dataset.control || ''}`
                                             + `: right ${Math.round(r.right)} > ${Math.round(edge)}`);
  }
  for (const node of [out, ...out.querySelectorAll('*')]) {
    const style = getComputedStyle(node);
    if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0 && /auto|scroll/.test(style.overflowX))
      scrolled.push(`${node.className}: ${node.scrollWidth} > ${node.clientWidth}`);
  }
  return {over, scrolled, width: Math.round(out.getBoundingClientRect().width)};
}"""


def _fits(page, tag):
    _in_view(page, tag)
    page.wait_for_timeout(150)  # the ResizeObserver has drawn for the new width
    fit = page.evaluate(FIT, tag)
    assert not fit["over"], "\n".join(fit["over"])
    assert not fit["scrolled"], "\n".join(fit["scrolled"])
    return fit["width"]


@pytest.mark.parametrize("tag", ["t-max-en", "t-max-ko", "t-min-ko", "t-min-en"])
def test_every_size_fits_the_output_with_the_file_browser_open_or_closed_at_any_width(scratch, tag):
    page = scratch
    opened = _fits(page, tag)
    assert 700 < opened < 1280, opened  # JupyterLab's file browser takes its share of the 1280 px
    file_browser = page.locator('.jp-SideBar.jp-mod-left .lm-TabBar-tab[data-id="filebrowser"]')
    file_browser.click()  # close the file browser: the output gets wider, the explorer follows
    page.wait_for_function(f"(w) => document.querySelector('.{tag} .al-live').closest('.jp-OutputArea-output')"
                           ".getBoundingClientRect().width > w + 100", arg=opened)
    assert _fits(page, tag) > opened
    for width in (800, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        _fits(page, tag)
    page.set_viewport_size(WINDOW)
    file_browser.click()
    page.wait_for_timeout(300)
    assert _fits(page, tag) == opened
    if tag == "t-max-en":  # all heads: the heads' P side by side; Q, K, V too wide for numbers: colours
        assert page.locator(f'.{tag} .al-hm[data-name="P"]').count() == 8
        assert page.locator(f'.{tag} .al-hm[data-name="Q"]').get_attribute("data-mode") == "colours"
        last = page.locator(f'.{tag} .al-hm[data-name="Q"] tbody td').last
        last.hover()  # its tooltip is given when the pointer comes over it
        assert last.get_attribute("title") == last.get_attribute("aria-label").rsplit(": ", 1)[1]
    shots = os.environ.get("ATTENTION_LAB_SCREENSHOTS")
    if shots:
        page.set_viewport_size({"width": WINDOW["width"], "height": 3000})
        explorer = _in_view(page, tag)
        page.wait_for_timeout(300)
        explorer.screenshot(path=str(Path(shots) / f"lab-{tag}.png"))
        page.set_viewport_size(WINDOW)


def test_a_held_key_at_the_largest_sizes_settles_on_the_final_picture(scratch):
    page, tag = scratch, "t-held"
    slider = _in_view(page, tag).locator('[data-control="T"]')
    assert _shape(page, tag).startswith("T=1 ")
    slider.focus()
    for _ in range(15):  # a keyboard's auto-repeat: a keydown every 33 ms
        page.keyboard.down("ArrowRight")
        page.wait_for_timeout(33)
    page.keyboard.up("ArrowRight")
    last = page.evaluate("() => performance.now()")
    _wait_shape(page, tag, "T=16 ")
    settled = page.evaluate("() => performance.now()") - last
    assert page.locator(f'.{tag} .al-hm[data-name="Q"] tbody tr').count() == 16
    assert page.locator(f'.{tag} .al-hm[data-name="P"]').count() == 8
    print(f"\nheld → key, T 1 → 16 at h=8, dh=8, all heads: final picture {settled:.0f} ms after the last key press")


def test_an_edited_row_flows_through_and_a_malformed_one_changes_nothing(scratch):
    page, tag = scratch, "t-own"
    explorer = _in_view(page, tag)

    def s31():  # Head 1's S, row 3, column 1
        return explorer.locator('.al-hm[data-name="S"] tbody tr').nth(2).locator("td").first.text_content()

    assert s31() == "2"
    explorer.locator('[data-control="edit_matrix"]').select_option("K")
    explorer.locator('[data-control="edit_token"]').select_option("0")
    row = explorer.locator('[data-control="edit_row"]')
    assert row.input_value().startswith("[1, -1, 2, 1")
    row.fill("[1, -1, 2, 3, 2, 0, 0, 1]")
    row.press("Enter")
    assert s31() == "6"  # Query token 3 · Key token 1 = −1 + (−1) + 2 + 6
    assert "K token 1 = [1, −1, 2, 3, 2, 0, 0, 1]" in explorer.locator(".al-msg-ok").text_content()
    step = explorer.get_attribute("data-step")
    for bad, said in (("[1, -1, oops]", "'oops' is not a number"), ("1e308 " * 8, "overflow")):
        row.fill(bad)
        row.press("Enter")
        message = explorer.locator(".al-msg-bad")
        assert said in message.text_content() and message.bounding_box()["height"] < 40
        assert explorer.get_attribute("data-step") == step and s31() == "6"


def test_change_marks_outline_what_a_step_changed_then_fade_and_can_be_switched_off(scratch):
    page, tag = scratch, "t-marks"
    slider = _in_view(page, tag).locator('[data-control="T"]')
    page.locator(f'.{tag} [data-control="reset"]').click()
    _wait_shape(page, tag, "T=3 ")
    slider.focus()
    page.keyboard.press("ArrowRight")  # T 3 → 4: a new token's row and column everywhere
    _wait_shape(page, tag, "T=4 ")
    marked = page.locator(f'.{tag} .al-hm[data-name="Q"] td.al-chg')
    assert marked.count() == 8  # Q's new row: token 4's 8 components, and nothing else of Q
    rows = page.locator(f'.{tag} .al-hm[data-name="Q"] tbody tr')
    assert rows.nth(3).locator("td.al-chg").count() == 8 and rows.nth(0).locator("td.al-chg").count() == 0
    page.wait_for_function(f"() => !document.querySelector('.{tag} td.al-chg')", timeout=5_000)  # faded
    page.locator(f'.{tag} [data-control="marks"]').uncheck()
    page.wait_for_function(f"() => document.querySelector('.{tag} .al-live').dataset.marked === '0'")
    slider.focus()
    page.keyboard.press("ArrowRight")
    _wait_shape(page, tag, "T=5 ")
    assert page.locator(f".{tag} td.al-chg").count() == 0


def test_only_notebook_7s_own_throws_are_forgiven():
    """The catalogue beside _benign: what it must still report."""
    own = "http://127.0.0.1:1/static/notebook/notebook_core.c9a6.js?v=c9a6"
    nb7 = (f"Error: x\n    at c.execute ({own}:509:155591)\n    at l ({own}:154:27441)\n"
           "    at async Promise.all (index 0)")
    assert _benign("page error: Command 'filebrowser:open-path' not registered.", nb7)
    assert _benign("page error: Cannot read properties of undefined (reading 'schema')", nb7)
    ours = f"Error: x\n    at draw (blob:http://127.0.0.1:1/5f0e-widget:12:3)\n    at l ({own}:154:27441)"
    for text, where in [("page error: Cannot read properties of undefined (reading 'schema')", ours),  # our frame
                        ("page error: Cannot read properties of undefined (reading 'schema')", "Error: x"),  # none
                        ("Failed to load resource: 404", own),  # a console error, not a throw
                        ("Failed to load resource: 404", "http://127.0.0.1:1/lab/extensions/anywidget.js"),
                        ("page error: x", "Error: x\n    at async Promise.all (index 0)")]:
        assert not _benign(text, where), (text, where)
    assert _benign("Failed to load resource: the server responded with a status of 404 (Not Found)",
                   "http://127.0.0.1:1/favicon.ico?v=1")
