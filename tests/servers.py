"""What the browser tests share: a free port, stopping a server for sure, and Chromium with its launch recipe."""

import shutil
import socket
import subprocess

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
