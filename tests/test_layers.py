"""The package's folders are its layers: numeric/ imports NumPy only, look/ and figures/ no widgets, and no module
grows into a monolith."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "attention_lab"
HEAVY = ("matplotlib", "ipywidgets", "anywidget", "IPython", "traitlets")
MAX_LINES = 420  # "no module much over 400 lines"; the word tables are data, one entry a line


def loaded_after(code):  # -> the heavy modules that `code` leaves in sys.modules, in a fresh interpreter
    probe = f"import sys\n{code}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()


def test_the_numeric_layer_and_the_public_namespace_import_numpy_only():
    modules = sorted(p.stem for p in (PACKAGE / "numeric").glob("*.py") if p.stem != "__init__")
    code = "import attention_lab as al\n" + "\n".join(f"import attention_lab.numeric.{m}" for m in modules)
    code += "\ntr = al.article_example(); al.blockwise_attention(tr.Q, tr.K, tr.V, 2, 2); al.decode_with_cache(tr.Q, " \
            "tr.K, tr.V, 2)"
    assert loaded_after(code) == "[]"


@pytest.mark.parametrize("layer", ["look", "figures"])
def test_the_static_layers_never_load_widgets(layer):
    shown = loaded_after(f"import attention_lab.{layer}")
    assert "ipywidgets" not in shown and "anywidget" not in shown, shown


def test_no_module_is_a_monolith():
    sizes = {p.relative_to(PACKAGE).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in PACKAGE.rglob("*.py") if "words" not in p.parts}
    too_long = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_long, f"split these by concern: {too_long}"


NAMES_A_PYTHON_FILE = re.compile(r"[\w/]+\.py\b")  # a comment says what it reads, not which Python file has it


@pytest.mark.parametrize("said, names_one", [
    ("// Every value was computed at build time (attention_lab/exercises/drills.py)", True),
    ("// the bundle and its styles (live/page.py) travel here", True),
    ("// tests/test_live_parity.py holds every label to the figures'", True),
    ("// (one index: site/build.py).", True),
    ("// as drills.py does", True),
    ("// data.learned holds the trained weights (sent once, read from learned.npz)", False),
    ("// the parity tests hold every label to the figures' and the notebooks'", False),
    ("// window.pyodide, a.pyc", False),
])
def test_the_python_file_rule_finds_file_names_and_nothing_else(said, names_one):
    assert bool(NAMES_A_PYTHON_FILE.search(said)) == names_one


def test_no_javascript_file_names_a_python_file():
    named = {p.relative_to(PACKAGE).as_posix(): NAMES_A_PYTHON_FILE.findall(p.read_text(encoding="utf-8"))
             for p in PACKAGE.rglob("*.js")}
    assert len(named) >= 15  # the front-end's files and the site's: the glob found them
    assert not {name: found for name, found in named.items() if found}, "name the data or the rule it reads instead"


def test_the_layers_old_names_reach_the_same_modules():  # notebooks saved before the rename call al.plotting, al.style
    import attention_lab as al

    assert al.plotting is al.figures and al.style is al.look
    assert al.figures.figure_softmax and al.look.format_value(0.1142) == "0.114"
