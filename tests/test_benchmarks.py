"""The benchmarks measure the checkout they are in (and bench_figures, the package it is given).

benchmarks/bench_browser_latency.py (and bench_page_frames.py, which uses it) writes its pages with the
attention_lab it imports and starts JupyterLab kernels that import it again: that must be the package beside the
script, not whichever one the environment has installed, or a change measured from a second checkout is measured
as the installed code, and the table says nothing of it.
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ASK = """
import os, sys
sys.path.insert(0, sys.argv[1])
import bench_page_frames as frames
print(frames.lat.al.__file__)
print(os.environ.get("PYTHONPATH", "(none)").split(os.pathsep)[0])
"""


def test_a_benchmark_run_from_another_checkout_measures_that_checkout(tmp_path):
    """A copy of the checkout (as a second worktree is) beside the installed package: the benchmark imports the
    copy's attention_lab, and its kernels will too (PYTHONPATH first). Without the script's own path first, the
    installed one (this checkout, in an editable install) answered."""
    copy = tmp_path / "second-checkout"
    for part in ("attention_lab", "benchmarks", "tests"):
        shutil.copytree(REPO / part, copy / part, ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", ASK, str(copy / "benchmarks")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    package, first = run.stdout.split("\n")[:2]
    assert Path(package).resolve() == (copy / "attention_lab" / "__init__.py").resolve(), package
    assert Path(first).resolve() == copy.resolve(), first


def bench_figures():  # -> the module benchmarks/bench_figures.py
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import bench_figures as module
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    return module


def test_the_figure_benchmark_measures_the_package_it_is_given_or_nothing(tmp_path):
    """bench_figures runs each side in a child process with that side's attention_lab first on PYTHONPATH. A side
    without a package of its own would have Python import the installed one and time it under the other's name:
    the child measures nothing then, and the script says so in one line."""
    module = bench_figures()
    empty = tmp_path / "no-package"
    empty.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONPATH", raising=False)
        with pytest.raises(SystemExit, match="has no attention_lab of its own"):
            module.run(empty, "1,1,1")


@pytest.mark.parametrize("text", ["16,64", "0,8,2", "3,8,2,1", "a,b,c", "3, 8, 2"])
def test_the_figure_benchmark_refuses_a_size_that_is_not_three_positive_integers(text):
    with pytest.raises(argparse.ArgumentTypeError, match="T,d,h in positive integers"):
        bench_figures().size_arg(text)
