"""What the browser tests share: a free port, stopping a server for sure, Chromium with its launch recipe, and a
private JupyterLab server (conftest.py starts one for the whole session: the `lab` fixture)."""

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

# Debian's Chromium (Playwright's own download does not work here), with the flags that work on this machine.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def free_port():  # -> int
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(server, timeout):
    """Ask a server process to stop; kill it if it has not stopped after `timeout` seconds."""
    server.terminate()
    try:
        server.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def needs_chromium():
    """Skip (saying why) unless Debian's chromium and the playwright package are here."""
    if shutil.which("chromium") is None:
        pytest.skip("needs Debian's chromium package: apt-get install chromium")
    pytest.importorskip("playwright.sync_api", reason="needs the playwright Python package: pip install playwright")


def chromium(playwright):  # -> Browser
    return playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS, headless=True)


def offline(page):  # -> list of the requests refused: every request outside file:// (and about:, data:, blob:)
    refused = []

    def route(r):
        url = r.request.url
        if url.startswith(("file://", "about:", "data:", "blob:")):
            r.continue_()
        else:
            refused.append(url)
            r.abort()

    page.route("**/*", route)
    return refused


# Settings for these servers only: no news toast, no autosave (running a notebook must not rewrite it).
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                       "checkForUpdates": False},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def wait_until_serving(base, token, server, log, timeout):
    """Wait until the Jupyter server at `base` answers its status API; fail with the end of its `log` if the
    process ends or `timeout` seconds pass. Its runtime file (jpserver-*.json) is no sign: jupyter_server 2.21
    writes it before its event loop has bound the port, so a request right after it can be refused."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            pytest.fail("jupyter lab did not start:\n" + Path(log).read_text()[-3000:])
        time.sleep(0.3)


@contextmanager
def jupyter_lab(root, tmp, extra=()):  # -> (base URL, token): a private server on a free port
    """Start `jupyter lab` serving `root` with config, runtime and settings dirs under `tmp` (it serves Notebook 7's
    pages too, under /notebooks/); shared with benchmarks/bench_browser_latency.py (`extra`: more server options)."""
    env = dict(os.environ)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "JUPYTERLAB_WORKSPACES_DIR", "JUPYTERLAB_SETTINGS_DIR"):
        env[var] = str(tmp / var.lower())
    for name, settings in LAB_SETTINGS.items():
        path = Path(env["JUPYTERLAB_SETTINGS_DIR"]) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(settings))
    port, token = free_port(), secrets.token_hex(16)
    log = open(tmp / "lab.log", "w")  # noqa: SIM115 -- closed in the finally below
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", "--allow-root", f"--ServerApp.root_dir={root}",
         "--NotebookNotary.db_file=:memory:", *extra],  # a notebook trusted in a test stays untrusted elsewhere
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base, token, server, tmp / "lab.log", timeout=60)
        yield base, token
    finally:
        stop(server, timeout=15)
        log.close()


def stop_kernels(base, token):
    """Shut down every kernel the server runs (a test's notebook is done: its kernel need not idle on)."""
    def call(method, path):
        request = urllib.request.Request(f"{base}/api/{path}", method=method,
                                         headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(request, timeout=20) as reply:
            return json.loads(reply.read() or "null")

    for kernel in call("GET", "kernels"):
        call("DELETE", f"kernels/{kernel['id']}")
