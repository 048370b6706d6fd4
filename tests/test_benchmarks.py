"""The benchmarks measure the checkout they are in.

benchmarks/bench_browser_latency.py (and bench_page_frames.py, which uses it) writes its pages with the
attention_lab it imports and starts JupyterLab kernels that import it again: that must be the package beside the
script, not whichever one the environment has installed, or a change measured from a second checkout is measured
as the installed code, and the table says nothing of it.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

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
