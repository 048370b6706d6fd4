"""The test tiers (issue 50): a bare `python -m pytest` runs the fast tier, every test that needs no system tool and
takes no more than a second or so; `python -m pytest -m "slow or not slow"` runs every tier (the README's test
command and .ci/run's). tests/conftest.py marks as slow every notebook, every test of a slow fixture and SLOW's
entries; a file or a test may mark itself."""

import ast
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import conftest
import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_slow_entry_names_a_file_or_a_test_that_exists():
    assert conftest.SLOW, "the table is empty: the fast tier would run every test"
    for entry, why in conftest.SLOW.items():
        file, _, name = entry.partition("::")
        path = ROOT / "tests" / file
        assert path.is_file(), f"SLOW names {file}, which tests/ does not hold"
        assert why.strip(), f"SLOW's {entry} says not why it is slow"
        if name:
            tests = {f.name for f in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                     if isinstance(f, ast.FunctionDef)}
            assert name in tests, f"SLOW names {entry}, which {file} does not define (renamed?)"


def test_a_notebook_a_slow_fixture_and_an_entry_of_slow_make_a_test_slow():
    def item(path, name="test_x", fixtures=()):  # the parts of a pytest item that slow_because reads
        return SimpleNamespace(path=Path(path), name=f"{name}[a]", originalname=name, fixturenames=list(fixtures))

    assert conftest.slow_because(item("notebooks/ko/00_overview.ipynb")) == "a notebook, run in a kernel"
    assert conftest.slow_because(item("tests/test_x.py", fixtures=("tmp_path", "lab"))) == "a JupyterLab server"
    assert conftest.slow_because(item("tests/test_deck.py")) == "LibreOffice and poppler"  # a whole file
    named = next(k for k in conftest.SLOW if "::" in k)
    file, name = named.split("::")
    assert conftest.slow_because(item(f"tests/{file}", name)) == conftest.SLOW[named]  # a test, each parameter
    assert conftest.slow_because(item(f"tests/{file}", name + "_too")) is None  # not one of the same file's others
    assert conftest.slow_because(item("tests/test_verdict_named.py", fixtures=("tmp_path",))) is None


def collected(*args):  # -> [node id]: what pytest would run for these arguments (with pyproject.toml's addopts)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: every test deselected
    return [line for line in done.stdout.splitlines() if "::" in line]


@pytest.mark.slow  # two pytest runs in fresh Pythons: tens of seconds on a busy machine
def test_the_fast_tier_leaves_out_what_is_marked_slow_and_every_tier_runs_it():
    # test_node_processes.py marks itself (pytestmark), test_deck.py is one of SLOW's files, a notebook runs in a
    # kernel (nbval), test_verdict_named.py is fast
    files = ["tests/test_node_processes.py", "tests/test_deck.py", "notebooks/en/00_overview.ipynb",
             "tests/test_verdict_named.py"]
    fast, every = collected(*files), collected(*files, "-m", "slow or not slow")
    assert fast and all(i.startswith("tests/test_verdict_named.py::") for i in fast), fast
    for file in files:
        assert any(i.startswith(f"{file}::") for i in every), file
    assert set(fast) < set(every)
