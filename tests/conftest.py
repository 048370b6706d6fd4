"""Fixtures shared by the test files."""

import functools
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from attention_lab.look import words
from attention_lab.numeric import masks

sys.path.insert(0, str(Path(__file__).parent))  # tests/strategies.py

# The suite runs in the interpreter that runs pytest, whatever virtual environment the caller's shell has active:
# IPython (the shell of tests/test_stored_figures.py, and every kernel a test starts) warns "Attempting to work in
# a virtualenv" when VIRTUAL_ENV names another one, and filterwarnings = error makes that a failure.
os.environ.pop("VIRTUAL_ENV", None)

# Hypothesis: in CI (CI set) the same examples on every run; elsewhere each run draws a seed, printed in the header,
# and `pytest --hypothesis-seed=N` replays that run. A failure prints the blob that replays its one example.
IN_CI = bool(os.environ.get("CI"))
settings.register_profile("attention-lab", derandomize=IN_CI, print_blob=True)
settings.load_profile("attention-lab")


@pytest.hookimpl(tryfirst=True)  # before Hypothesis's plugin reads --hypothesis-seed
def pytest_configure(config):
    if not IN_CI and config.getoption("hypothesis_seed", None) is None:
        config.option.hypothesis_seed = str(random.randrange(2**32))


def pytest_report_header(config):
    if IN_CI:
        return "hypothesis: derandomized (CI is set): the same examples on every run"
    seed = config.getoption("hypothesis_seed", None)
    return f"hypothesis seed: {seed} (replay this run's examples: pytest --hypothesis-seed={seed})"


@pytest.fixture
def new_entries(monkeypatch):
    """A throwaway mask ("stripe": each token, and every `seed`-th one) added to the registry for one test, as the
    one entry and its words that a mask takes: the test then shows that every consumer picks it up. Its parameter is
    named `seed`, like an option of the figures command and an argument of random_example, on purpose."""
    stripe = masks.MaskKind("stripe", lambda p, j, T, seed: (j % seed == 0) | (p == j),
                            (masks.Param("seed", default=2, lo=1, hi_T=0),))
    monkeypatch.setitem(masks.MASKS, "stripe", stripe)
    monkeypatch.setattr(masks, "MASK_NAMES", (*masks.MASK_NAMES, "stripe"))
    entries = {"mask.stripe": ("줄무늬", "stripe"), "mask.stripe.caption": ("줄무늬 마스크입니다.", "A stripe mask."),
               "mask.stripe.used": ("시험용", "tests"), "param.stripe.seed": ("간격", "every")}
    for key, pair in entries.items():
        monkeypatch.setitem(words.WORDS, key, pair)
    monkeypatch.setattr(words, "table", functools.cache(words.table.__wrapped__))  # a cache of its own, undone after
    return stripe


@pytest.fixture(scope="session")
def notebook_runs():
    """{notebook path: its code cells' run} (tests/notebook_runs.py): each notebook's cells run once in the session,
    read by test_stored_figures (the figures they draw) and test_stored_state (the widgets they show)."""
    from notebook_runs import NotebookRuns

    return NotebookRuns()


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium (tests/servers.py's recipe), one for the whole session: every test opens its own pages (or
    context) in it and closes them. Skipped, saying why, where it is missing."""
    from servers import chromium, needs_chromium

    needs_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = chromium(p)
        yield b
        b.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """One JupyterLab server for the whole session (tests/servers.py's jupyter_lab), serving a scratch folder: a
    test writes its notebooks in a folder of its own under `lab.root` and opens them at `lab.url(path)`."""
    from servers import jupyter_lab, stop_kernels

    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "root"
    root.mkdir()
    with jupyter_lab(root, tmp) as (base, token):
        yield Lab(base, token, root, stop_kernels)


class Lab:
    def __init__(self, base, token, root, stop_kernels):
        self.base, self.token, self.root, self._stop = base, token, root, stop_kernels

    def url(self, path, app="lab"):  # -> the URL that opens notebook `path` (under root) in JupyterLab or Notebook 7
        if app == "lab":
            return f"{self.base}/lab/tree/{path}?reset&token={self.token}"
        return f"{self.base}/notebooks/{path}?token={self.token}"

    def stop_kernels(self):  # a test's notebooks are done: their kernels need not run on beside the next test's
        self._stop(self.base, self.token)
