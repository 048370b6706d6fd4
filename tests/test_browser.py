"""The explorer in a real browser: JupyterLab in headless Chromium (a 1280-pixel-wide window), driven by Playwright.

- notebooks/en/07_explorer.ipynb, run top to bottom: → on the T slider redraws the picture; no cell prints an
  error, the console stays clean and the notebook file is not rewritten;
- a scratch notebook of explorers at the largest and smallest sizes (T = 16, h = 8, dh = 8, all heads; T = 1), in
  Korean and English: every heatmap's right edge inside the output area, nothing scrolled sideways;
- a held → key from T = 1 to 16 at the largest sizes: the final picture is T = 16, and stale steps were dropped
  (fewer pictures drawn than keys pressed); the time it took is printed (run with -s), not asserted: the bar
  (250 ms) is measured by benchmarks/bench_browser_latency.py, as timed tests are not written here;
- your own numbers: an edited row changes the picture, a malformed one leaves it and says why in one line;
- the change marks: outlines on the cells a step changed, gone after the fade, none when switched off.

Needs Debian's `chromium` and the `playwright` Python package (its own browser download is not used).
ATTENTION_LAB_SCREENSHOTS=folder saves a PNG of each scratch explorer there, to look at.
"""

import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import nbformat
import pytest
from servers import free_port, stop

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "notebooks" / "en" / "07_explorer.ipynb"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
# Settings for this server only: no news toast, no autosave (running the notebook must not rewrite it).
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                       "checkForUpdates": False},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}
# Console errors that say nothing about the explorer, each matched precisely.
def _benign(text, url):
    # Chromium asks for /favicon.ico before JupyterLab sets its own icon; the server answers 404.
    # Only that request is forgiven: a 404 for anything else (a widget bundle, say) is an error.
    return url.split("?")[0].endswith("/favicon.ico") and "404" in text


def _target():  # -> (root_dir, path of the notebook relative to it)
    # ATTENTION_LAB_EXPLORER_NOTEBOOK: a scratch notebook for development only; the test targets 07_explorer.
    override = os.environ.get("ATTENTION_LAB_EXPLORER_NOTEBOOK")
    if override:
        path = Path(override).resolve()
        return path.parent, path.name
    return REPO, NOTEBOOK.relative_to(REPO).as_posix()


@contextmanager
def jupyter_lab(root, tmp):  # -> base URL with ?token=…: a private JupyterLab server on a free port, stopped on exit
    """Start `jupyter lab` serving `root` with config, runtime and settings dirs under `tmp`; shared with
    benchmarks/bench_browser_latency.py."""
    env = dict(os.environ)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_WORKSPACES_DIR", "JUPYTERLAB_SETTINGS_DIR"):
        env[var] = str(tmp / var.lower())
    # JUPYTER_DATA_DIR is left alone: the kernel spec and the ipywidgets labextension live under sys.prefix anyway.
    for name, settings in LAB_SETTINGS.items():
        path = Path(env["JUPYTERLAB_SETTINGS_DIR"]) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    port, token = free_port(), secrets.token_hex(16)
    log = open(tmp / "lab.log", "w")  # noqa: SIM115 -- closed in the finally below
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", "--allow-root", f"--ServerApp.root_dir={root}"],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail("jupyter lab did not start:\n" + (tmp / "lab.log").read_text()[-3000:])
            time.sleep(0.3)
        yield base, token
    finally:
        stop(server, timeout=15)
        log.close()


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if shutil.which("chromium") is None:
        pytest.skip("needs Debian's chromium package: apt-get install chromium")
    pytest.importorskip("playwright.sync_api", reason="needs the playwright Python package: pip install playwright")
    root, rel = _target()
    if not (root / rel).exists():
        pytest.fail(f"{root / rel} does not exist: the explorer notebook is missing")
    with jupyter_lab(root, tmp_path_factory.mktemp("lab")) as (base, token):
        yield {"url": f"{base}/lab/tree/{rel}?reset&token={token}", "notebook": root / rel}


KERNEL_IDLE = """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')]
                                .some(e => /\\| Idle$/.test(e.textContent))"""
ANY_CELL_RAN = """() => [...document.querySelectorAll('.jp-InputArea-prompt')]
                                .some(p => /\\[(\\d+|\\*)\\]/.test(p.textContent))"""


def run_all_cells(page, url, ready):
    """Open the notebook at `url`, Run → Run All Cells, and wait until `ready` (a selector) is visible and
    every cell has finished."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.goto(url)
    page.wait_for_selector(".jp-Notebook .jp-Cell")
    page.wait_for_function(KERNEL_IDLE, timeout=60_000)
    for toast in page.locator(".Toastify__toast button", has_text="No").all():  # news toast, if any
        toast.click()
    for attempt in range(3):  # a click that lands while the kernel is still connecting runs nothing
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        try:
            page.wait_for_function(ANY_CELL_RAN, timeout=20_000)
            break
        except PlaywrightTimeout:
            assert attempt < 2, "Run → Run All Cells did not run any cell"
    page.locator(ready).first.wait_for(state="visible", timeout=90_000)
    page.wait_for_function("""() => ![...document.querySelectorAll('.jp-InputArea-prompt')]
                                  .some(p => p.textContent.includes('*'))""", timeout=90_000)
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]')


WINDOW = {"width": 1280, "height": 900}
# A scratch notebook: the explorers the checks below need, each tagged with a CSS class.
SCRATCH = {
    "max-en": 'ex = al.explorer(T=16, d=64, h=8); ex.controls["head"].value = -1',
    "max-ko": 'ex = al.explorer(T=16, d=64, h=8, lang="ko", source="random", seed=3); ex.controls["head"].value = -1',
    "min-ko": 'ex = al.explorer(T=1, d=8, h=2, lang="ko")',
    "min-en": 'ex = al.explorer(T=1, d=1, h=1)',
    "held": 'ex = al.explorer(T=1, d=64, h=8); ex.controls["head"].value = -1',
    "own": "tr = al.article_example()\nex = al.explorer(Q=tr.Q, K=tr.K, V=tr.V, h=2)",
    "marks": "ex = al.explorer()",
}


def _browser(p):
    return p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS, headless=True)


def _watch_console(page):
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append((m.text, m.location["url"])))
    page.on("pageerror", lambda e: errors.append((f"page error: {e}", "")))
    return errors


def _no_console_errors(errors):
    unexpected = [f"{text} ({url})" for text, url in errors if not _benign(text, url)]
    assert not unexpected, "browser console errors:\n" + "\n".join(unexpected)


def _no_stderr(page):
    errors = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    assert errors.count() == 0, "a cell printed an error:\n" + "\n---\n".join(errors.all_inner_texts())


def _shape(page, tag):
    return page.locator(f".{tag} .al-shape").text_content()


def _panel(page, tag, name):
    """Heatmap `name` of explorer `tag`, scrolled into view and showing the explorer's latest picture."""
    panel = page.locator(f'.{tag} .al-hm[data-name="{name}"]').first
    panel.scroll_into_view_if_needed()
    step = page.locator(f".{tag} .al-live").get_attribute("data-step")
    page.wait_for_function(f"""() => document.querySelector('.{tag} .al-hm[data-name="{name}"]').dataset.step
                                 === '{step}'""")
    return panel


def _handle(page, tag):
    return page.locator(f".{tag} .widget-slider .noUi-handle").first


def test_notebook_07_answers_the_t_slider(lab):
    from playwright.sync_api import sync_playwright

    before = lab["notebook"].read_bytes()
    with sync_playwright() as p:
        browser = _browser(p)
        try:
            page = browser.new_page(viewport=WINDOW)
            page.set_default_timeout(60_000)
            errors = _watch_console(page)
            run_all_cells(page, lab["url"], ".al-explorer .al-live .al-hm")
            _no_stderr(page)
            explorer = page.locator(".al-explorer").first
            explorer.scroll_into_view_if_needed()
            page.wait_for_function("() => document.querySelector('.al-explorer .al-shape')"
                                   ".textContent.startsWith('T=')")
            T0 = int(explorer.locator(".al-shape").text_content().split("T=")[1].split(" ")[0])
            handle = explorer.locator(".widget-slider .noUi-handle").first
            for step in range(1, 4):
                handle.focus()
                page.keyboard.press("ArrowRight")
                page.wait_for_function(f"""() => document.querySelector('.al-explorer .al-shape')
                                             .textContent.startsWith('T={T0 + step} ')""")
            first = explorer.locator(".al-hm").first  # on screen, so drawn at once
            assert first.locator("table").get_attribute("data-rows") == str(T0 + 3)
            page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]')
            _no_stderr(page)
        finally:
            browser.close()
    _no_console_errors(errors)
    assert lab["notebook"].read_bytes() == before, "running the notebook must not rewrite it"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """JupyterLab on a scratch notebook of explorers, run, in a 1280-pixel-wide window: yields the page."""
    if shutil.which("chromium") is None:
        pytest.skip("needs Debian's chromium package: apt-get install chromium")
    pytest.importorskip("playwright.sync_api", reason="needs the playwright Python package: pip install playwright")
    from playwright.sync_api import sync_playwright

    tmp = tmp_path_factory.mktemp("scratch")
    (tmp / "nb").mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import attention_lab as al")] + [
        nbformat.v4.new_code_cell(f'{source}\nex.add_class("t-{tag}"); ex') for tag, source in SCRATCH.items()]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp / "nb" / "scratch.ipynb")
    with jupyter_lab(tmp / "nb", tmp) as (base, token), sync_playwright() as p:
        browser = _browser(p)
        try:
            page = browser.new_page(viewport=WINDOW)
            page.set_default_timeout(60_000)
            page.add_init_script("window.__alDraws = [];")
            errors = _watch_console(page)
            run_all_cells(page, f"{base}/lab/tree/scratch.ipynb?reset&token={token}", ".t-marks .al-live .al-hm")
            _no_stderr(page)
            yield page
            _no_stderr(page)
            _no_console_errors(errors)
        finally:
            browser.close()


# Every heatmap, breakdown and control row of an explorer, brought into view (a heatmap out of sight is brought up
# to date when it comes into view), measured against the output area; and anything scrolled sideways.
FIT = """(tag) => {
  const ex = document.querySelector('.' + tag), out = ex.closest('.jp-OutputArea-output');
  const edge = out.getBoundingClientRect().right + 0.5;
  const over = [], scrolled = [];
  for (const node of ex.querySelectorAll('.al-hm, .al-hm table, .al-hm canvas, .al-breakdown, .al-note, .al-shape, '
                                         + '.widget-hbox, .widget-slider, .widget-dropdown, .widget-toggle-buttons')) {
    const r = node.getBoundingClientRect();
    if (r.width && r.right > edge) over.push(`${node.className || node.tagName} ${node.closest('[data-key]')
      ?.dataset.key || ''}: right ${Math.round(r.right)} > ${Math.round(edge)}`);
  }
  for (const node of [out, ...out.querySelectorAll('*')]) {
    const style = getComputedStyle(node);
    if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0 && /auto|scroll/.test(style.overflowX))
      scrolled.push(`${node.className}: ${node.scrollWidth} > ${node.clientWidth}`);
  }
  return {over, scrolled, width: Math.round(out.getBoundingClientRect().width)};
}"""


def _bring_into_view(page, tag):
    """Scroll every heatmap of explorer `tag` into view, so each shows the latest picture."""
    panels = page.locator(f".{tag} .al-hm")
    for k in range(panels.count()):
        panels.nth(k).scroll_into_view_if_needed()
        page.wait_for_timeout(30)
    page.wait_for_timeout(200)


@pytest.mark.parametrize("tag", ["t-max-en", "t-max-ko", "t-min-ko", "t-min-en"])
def test_every_size_fits_the_window(scratch, tag):
    page = scratch
    _bring_into_view(page, tag)
    fit = page.evaluate(FIT, tag)
    assert 700 < fit["width"] < 1280, fit["width"]  # JupyterLab's file browser takes its share of the 1280 px
    assert not fit["over"], "\n".join(fit["over"])
    assert not fit["scrolled"], "\n".join(fit["scrolled"])
    if tag.startswith("t-max"):  # 8 heads' sections; Q, K, V too wide for numbers: colours, values on hover
        assert page.locator(f".{tag} .al-section").count() >= 10
        assert page.locator(f'.{tag} .al-hm[data-name="Q"]').get_attribute("data-mode") == "colours"
        assert page.locator(f'.{tag} .al-hm[data-name="S"][data-mode="numbers"]').count() == 8
        canvas = page.locator(f'.{tag} .al-hm[data-name="Q"] canvas')
        box = canvas.bounding_box()
        canvas.hover(position={"x": box["width"] - 3, "y": box["height"] - 3})
        assert canvas.get_attribute("title").startswith("16, 64: ")
    shot = os.environ.get("ATTENTION_LAB_SCREENSHOTS")
    if shot:  # the controls and the first section, then each head's section and the last: each fully drawn
        page.set_viewport_size({"width": WINDOW["width"], "height": 4000})
        parts = page.locator(f".{tag} .al-body > .al-part")
        for k in [0, 1, parts.count() - 2, parts.count() - 1][: parts.count()]:
            part = parts.nth(k)
            part.evaluate("(node) => node.closest('.al-explorer').scrollIntoView({block: 'start'})" if k == 0 else
                          "(node) => node.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(400)
            key = part.get_attribute("data-key").replace("@", "")
            if k == 0:
                top = page.locator(f".{tag}").bounding_box()
                box = part.bounding_box()
                page.screenshot(path=str(Path(shot) / f"{tag}-{k}-{key}.png"), clip={
                    "x": top["x"], "y": top["y"], "width": top["width"], "height": box["y"] + box["height"] - top["y"]})
            else:
                part.screenshot(path=str(Path(shot) / f"{tag}-{k}-{key}.png"))
        page.set_viewport_size(WINDOW)


def test_a_held_key_settles_on_the_final_picture_dropping_stale_steps(scratch):
    page, tag = scratch, "t-held"
    handle = _handle(page, tag)
    handle.scroll_into_view_if_needed()
    assert _shape(page, tag).startswith("T=1 ")
    page.evaluate("() => { window.__alDraws.length = 0; }")
    handle.focus()
    for _ in range(15):  # a keyboard's auto-repeat: a keydown every 33 ms
        page.keyboard.down("ArrowRight")
        page.wait_for_timeout(33)
    page.keyboard.up("ArrowRight")
    last = page.evaluate("() => performance.now()")
    page.wait_for_function(f"() => document.querySelector('.{tag} .al-shape').textContent.startsWith('T=16 ')")
    settled = page.evaluate("() => performance.now()") - last
    draws = page.evaluate("() => window.__alDraws.map(d => d.step)")
    assert 1 <= len(draws) < 15, draws  # stale steps dropped, not queued
    assert _panel(page, tag, "Q").get_attribute("data-rows") == "16"
    print(f"\nheld → key, T 1 → 16 at h=8, dh=8, all heads: final picture {settled:.0f} ms after the last key "
          f"press; {len(draws)} pictures drawn for 15 key presses")


def test_an_edited_row_flows_through_and_a_malformed_one_changes_nothing(scratch):
    page, tag = scratch, "t-own"
    explorer = page.locator(f".{tag}")
    cell = _panel(page, tag, "S").locator("tbody tr").nth(2).locator("td").first
    assert cell.inner_text() == "2"
    explorer.locator(".widget-toggle-button", has_text="K").click()
    explorer.locator(".widget-dropdown select").last.select_option(label="1")
    row = explorer.locator(".widget-text input")
    page.wait_for_function(f"() => document.querySelector('.{tag} .widget-text input').value.startsWith('[1, -1')")
    step = explorer.locator(".al-live").get_attribute("data-step")
    row.fill("[1, -1, 2, 3, 2, 0, 0, 1]")
    row.press("Enter")
    page.wait_for_function(f"() => document.querySelector('.{tag} .al-live').dataset.step !== '{step}'")
    cell = _panel(page, tag, "S").locator("tbody tr").nth(2).locator("td").first
    assert cell.inner_text() == "6"  # Query token 3 · Key token 1 = −1 + (−1) + 2 + 6
    assert "K token 1 = [1, −1, 2, 3, 2, 0, 0, 1]" in explorer.locator(".al-edit-ok").inner_text()
    step = explorer.locator(".al-live").get_attribute("data-step")
    row.fill("[1, -1, oops]")
    row.press("Enter")
    message = explorer.locator(".al-edit-bad")
    message.wait_for()
    assert "'oops' is not a number" in message.inner_text() and message.bounding_box()["height"] < 40
    page.wait_for_timeout(300)
    assert explorer.locator(".al-live").get_attribute("data-step") == step and cell.inner_text() == "6"


def test_change_marks_outline_what_a_step_changed_then_fade_and_can_be_switched_off(scratch):
    page, tag = scratch, "t-marks"
    handle = _handle(page, tag)
    handle.scroll_into_view_if_needed()
    handle.focus()
    page.keyboard.press("ArrowRight")  # T 3 → 4: a new token's row and column everywhere
    page.wait_for_function(f"() => document.querySelector('.{tag} .al-shape').textContent.startsWith('T=4 ')")
    marked = page.locator(f'.{tag} .al-hm[data-name="Q"] td.al-chg')
    assert marked.count() == 8  # Q's new row: token 4's 8 components, and nothing else of Q
    rows = page.locator(f'.{tag} .al-hm[data-name="Q"] tbody tr')
    assert rows.nth(3).locator("td.al-chg").count() == 8 and rows.nth(0).locator("td.al-chg").count() == 0
    page.wait_for_function(f"() => !document.querySelector('.{tag} td.al-chg')", timeout=5_000)  # faded
    page.locator(f".{tag} .widget-checkbox input").uncheck()
    page.wait_for_function(f"() => document.querySelector('.{tag} .al-live').dataset.marked === '0'")
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => document.querySelector('.{tag} .al-shape').textContent.startsWith('T=5 ')")
    assert page.locator(f".{tag} td.al-chg").count() == 0
