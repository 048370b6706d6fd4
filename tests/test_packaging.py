"""The set-up files agree: environment.yml (Binder) installs what pyproject.toml declares."""

import pathlib
import re

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _name(requirement):
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower()


def _environment():
    """The conda packages and pip lines of environment.yml (a tiny reader: the file is plain)."""
    conda, pip, in_pip = [], [], False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        item = re.match(r"^(\s*)- (.+)$", line)
        if not item:
            in_pip = in_pip and not re.match(r"^\S", line)
            continue
        indent, value = len(item.group(1)), item.group(2).strip()
        if value == "pip:":
            in_pip = True
        elif in_pip and indent > 2:
            pip.append(value)
        elif value not in ("conda-forge",):
            conda.append(value)
    return conda, pip


def test_environment_lists_the_same_packages_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {_name(r) for r in project["dependencies"] + project["optional-dependencies"]["lab"]}
    conda, _ = _environment()
    listed = {_name(c) for c in conda} - {"python", "pip"}
    assert listed == declared


def test_binder_reads_python_311_and_installs_the_package():
    conda, pip = _environment()
    # repo2docker finds the Python version with a regex on "python=X.Y"
    assert "python=3.11" in conda
    assert "-e ." in pip


def test_readme_states_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"```(?:bash|sh)\n(.+?)\n```", readme, flags=re.S)
    test_command = next(c for c in commands if "pytest" in c)
    assert any("jupyter lab" in c for c in commands)
    assert test_command in (ROOT / ".ci" / "run").read_text()
    assert "urlpath=lab/tree/notebooks/ko/00_overview.ipynb" in readme


def test_torch_is_an_extra_that_the_default_install_and_binder_leave_out():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert [_name(r) for r in project["optional-dependencies"]["torch"]] == ["torch"]
    assert "torch" not in {_name(r) for r in project["dependencies"] + project["optional-dependencies"]["lab"]}
    assert "torch" not in {_name(r) for r in project["optional-dependencies"]["test"]}
    conda, pip = _environment()
    assert not any("torch" in line for line in conda + pip)
    # CI installs the CPU build by its exact version (a local wheel), never a bare `torch` that may pull CUDA.
    commands = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if not line.startswith("#")]
    installs = [line for line in commands if "pip install" in line and "torch" in line]
    assert installs and all(re.search(r"\btorch==\d+\.\d+\.\d+$", line) for line in installs), installs
