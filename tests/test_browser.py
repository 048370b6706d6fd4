"""The explorer in a real browser: JupyterLab in headless Chromium, driven by Playwright.

Opens notebooks/en/07_explorer.ipynb, runs every cell, presses → on the T
slider and checks that the shape line and the heatmaps follow, that no cell
printed an error and that the browser console stayed clean. It prints the
key-press → repaint latency (run with -s to see it). Needs Debian's `chromium`
and the `playwright` Python package (its own browser download is not used).
"""

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest

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


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    port, token = _free_port(), secrets.token_hex(16)
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
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
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


def _shape_text(page):
    return page.locator(".al-explorer .al-shape").inner_text()


# In-page probe: time from the → keydown to the first animation frame after the shape line changed.
PROBE = """() => {
  const probe = window.__alProbe = {t0: null, t1: null, before: null};
  document.addEventListener('keydown', e => {
    if (e.key === 'ArrowRight') {
      probe.t0 = performance.now(); probe.t1 = null;
      probe.before = document.querySelector('.al-explorer .al-shape').textContent;
    }
  }, true);
  new MutationObserver(() => {
    const now = document.querySelector('.al-explorer .al-shape');
    if (probe.t0 !== null && probe.t1 === null && now && now.textContent !== probe.before) {
      probe.t1 = -1; probe.tm = performance.now();
      requestAnimationFrame(() => { probe.t1 = performance.now(); });
    }
  }).observe(document.querySelector('.al-explorer'), {subtree: true, childList: true, characterData: true});
}"""


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


def test_explorer_answers_the_t_slider_in_jupyterlab(lab):
    from playwright.sync_api import sync_playwright

    before = lab["notebook"].read_bytes()
    console_errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 1000})
            page.set_default_timeout(60_000)
            page.on("console", lambda m: m.type == "error" and console_errors.append((m.text, m.location["url"])))
            page.on("pageerror", lambda e: console_errors.append((f"page error: {e}", "")))
            run_all_cells(page, lab["url"], ".al-explorer .widget-slider .noUi-handle")
            handle = page.locator(".al-explorer .widget-slider .noUi-handle").first

            errors = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
            assert errors.count() == 0, "a cell printed an error:\n" + "\n---\n".join(errors.all_inner_texts())
            T0 = int(_shape_text(page).split("T=")[1].split(" ")[0])

            explorer = page.locator(".al-explorer").first
            explorer.scroll_into_view_if_needed()
            page.evaluate(PROBE)
            latencies = []
            for step in range(1, 4):
                old = _shape_text(page)
                handle.focus()
                page.keyboard.press("ArrowRight")
                page.wait_for_function("() => window.__alProbe.t1 > 0", timeout=30_000)
                latencies.append(page.evaluate("() => [window.__alProbe.t1 - window.__alProbe.t0, "
                                               "window.__alProbe.tm - window.__alProbe.t0]"))
                new = _shape_text(page)
                assert new != old and new.startswith(f"T={T0 + step} ·"), (old, new)
            rows = page.locator('.al-explorer .al-hm[data-name="S"] tbody tr')
            assert rows.count() == T0 + 3
            assert page.locator('.al-explorer .al-hm[data-name="P"] table').first.get_attribute("data-rows") == str(
                T0 + 3)
            page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]')
            assert errors.count() == 0
            print(f"\nexplorer key-press → repaint latency (T {T0}→{T0 + 3}), ms: "
                  + ", ".join(f"{total:.0f} (DOM updated at {dom:.0f})" for total, dom in latencies))
            shot = os.environ.get("ATTENTION_LAB_SCREENSHOT")  # e.g. /tmp/explorer.png, to look at the view
            if shot:
                page.set_viewport_size({"width": 1500, "height": 3000})
                explorer.scroll_into_view_if_needed()
                page.screenshot(path=shot)
        finally:
            browser.close()
    unexpected = [f"{text} ({url})" for text, url in console_errors if not _benign(text, url)]
    assert not unexpected, "browser console errors:\n" + "\n".join(unexpected)
    assert lab["notebook"].read_bytes() == before, "running the notebook must not rewrite it"
