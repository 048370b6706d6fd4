"""The set-up files agree: one pinned set (constraints.txt) made from pyproject.toml by one command, installed by the
README's two commands, by CI (.ci/run) and by Binder (environment.yml); torch stays an optional extra."""

import os
import pathlib
import re
import subprocess
import sys
import textwrap

from packaging.requirements import Requirement
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PINNED_EXTRAS = ("lab", "test")  # what constraints.txt is compiled for (torch is left out on purpose)
COMPILE = ("uv pip compile pyproject.toml --extra lab --extra test --universal --python-version 3.10 "
           "-o constraints.txt")
ENV_311 = {"python_version": "3.11", "python_full_version": "3.11.7", "sys_platform": "linux",
           "platform_system": "Linux", "implementation_name": "cpython", "platform_python_implementation": "CPython",
           "os_name": "posix", "platform_machine": "x86_64", "extra": ""}


def _name(requirement):
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _declared():  # -> [Requirement]: the package's own dependencies and those of the pinned extras
    project = PROJECT["project"]
    lines = project["dependencies"] + [r for e in PINNED_EXTRAS for r in project["optional-dependencies"][e]]
    return [Requirement(line) for line in lines]


def _pins(env=ENV_311):  # -> {name: Version} that constraints.txt gives on `env` (CI's and Binder's Python)
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            requirement = Requirement(line)
            assert str(requirement.specifier).startswith("=="), f"not a pin: {line}"
            if requirement.marker is None or requirement.marker.evaluate(env):
                pins[requirement.name.lower()] = Version(str(requirement.specifier)[2:])
    return pins


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


def _readme_commands():
    return re.findall(r"```(?:bash|sh)\n(.+?)\n```", (ROOT / "README.md").read_text(), flags=re.S)


def test_constraints_pin_every_declared_package_within_what_pyproject_asks():
    pins = _pins()
    for requirement in _declared():
        if requirement.marker is not None and not requirement.marker.evaluate(ENV_311):
            continue  # e.g. tomli, for Python 3.10 only
        name = requirement.name.lower()
        assert name in pins, f"{name} is declared in pyproject.toml but not pinned in constraints.txt"
        assert requirement.specifier.contains(pins[name], prereleases=True), (name, pins[name])
    assert broken_holds(PROJECT, pins) == []  # pyproject.toml holds no release today: the catalogue below checks it


def broken_holds(project, pins):  # -> [str]: the holds on a release ([tool.uv] constraint-dependencies) the pins break
    held = [Requirement(r) for r in project.get("tool", {}).get("uv", {}).get("constraint-dependencies", [])]
    return [str(r) for r in held if r.name.lower() not in pins or not r.specifier.contains(pins[r.name.lower()])]


def test_the_hold_check_finds_a_pin_that_breaks_a_hold():
    def holding(*lines):
        return {"tool": {"uv": {"constraint-dependencies": list(lines)}}}

    pins = {"numpy": Version("2.2.6"), "jupyterlab": Version("4.4.1")}
    assert broken_holds(holding("numpy<2"), pins) == ["numpy<2"]  # pinned above its hold
    assert broken_holds(holding("jupyterlab!=4.4.1", "numpy>=2"), pins) == ["jupyterlab!=4.4.1"]
    assert broken_holds(holding("scipy<2"), pins) == ["scipy<2"]  # held, and not pinned at all
    assert broken_holds(holding("numpy>=2,<3", "JupyterLab<5"), pins) == []  # kept (a name in any case)
    assert broken_holds({}, pins) == [] == broken_holds(holding(), pins)


def test_constraints_cover_python_310_too():  # the README says 3.10 or newer: its pins must resolve there
    pins = _pins(dict(ENV_311, python_version="3.10", python_full_version="3.10.14"))
    assert {r.name.lower() for r in _declared()} <= set(pins)


def test_the_constraints_say_how_they_are_made_and_the_readme_and_pyproject_say_the_same():
    header = (ROOT / "constraints.txt").read_text().splitlines()[:2]
    assert header[1].strip() == f"#    {COMPILE}", header
    upgrade = COMPILE.replace(" -o constraints.txt", " --upgrade -o constraints.txt")
    assert upgrade in _readme_commands()
    assert COMPILE in (ROOT / "pyproject.toml").read_text()


def test_torch_is_an_extra_that_the_pins_the_default_install_and_binder_leave_out():
    project = PROJECT["project"]
    assert [_name(r) for r in project["optional-dependencies"]["torch"]] == ["torch"]
    assert "torch" not in {r.name for r in _declared()}
    assert "torch" not in _pins() and "torch" not in _pins(dict(ENV_311, python_full_version="3.12.1"))
    conda, pip = _environment()
    assert not any("torch" in line for line in conda + pip)
    # CI installs the CPU build by its exact version (a local wheel), never a bare `torch` that may pull CUDA.
    commands = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if not line.startswith("#")]
    installs = [line for line in commands if "pip" in line and "install" in line and "torch" in line]
    assert installs and all(re.search(r"\btorch==\d+\.\d+\.\d+$", line) for line in installs), installs


def test_binder_gets_python_311_and_the_pinned_package_from_pip():
    conda, pip = _environment()
    assert conda == ["python=3.11", "pip"]  # repo2docker finds the version with a regex on "python=X.Y"
    assert pip == ["-c constraints.txt", "-e .[lab]"]  # everything else from pip, at the pinned versions


def test_the_readmes_two_commands_install_the_pinned_set_and_ci_runs_the_test_one():
    commands = _readme_commands()
    lab = next(c for c in commands if "jupyter lab" in c)
    test = next(c for c in commands if "pytest" in c)
    assert '.venv/bin/pip install -c constraints.txt -e ".[lab]"' in lab
    assert '.venv/bin/pip install -q -c constraints.txt -e ".[test]"' in test
    # every tier (a bare `python -m pytest` is the fast one: pyproject.toml's addopts), verbatim in CI
    assert test.endswith('.venv/bin/python -m pytest -m "slow or not slow"'), test
    assert test in [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]  # the whole line
    assert "bash .ci/run --newest" in commands  # the suite against the newest releases, before moving the pins
    assert "urlpath=lab/tree/notebooks/ko/00_overview.ipynb" in (ROOT / "README.md").read_text()


FAKE_PYTHON = """\
#!/bin/sh
# python3 -m venv DIR: a venv whose pip logs its arguments and whose python runs pytest as $FAKE_PYTEST says
[ "$1 $2" = "-m venv" ] || exit 9
mkdir -p "$3/bin"
printf '#!/bin/sh\\necho "pip $*" >> "%s"\\n' "$LOG" > "$3/bin/pip"
printf '#!/bin/sh\\necho "pytest $*" >> "%s"\\nexit $FAKE_PYTEST\\n' "$LOG" > "$3/bin/python"
chmod +x "$3/bin/pip" "$3/bin/python"
"""


EVERY_TIER = "-m slow or not slow"  # `-m "slow or not slow"` as the stand-in python logs its arguments ($*)


def _run_ci(tmp_path, pytest_exit, *args):  # -> (exit code, the pip and pytest calls) of .ci/run with stand-ins
    (tmp_path / ".ci").mkdir(parents=True)
    (tmp_path / ".ci" / "run").write_text((ROOT / ".ci" / "run").read_text())
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    for name, text in (("python3", FAKE_PYTHON), ("chromium", "#!/bin/sh\n")):
        (bin_ / name).write_text(textwrap.dedent(text))
        (bin_ / name).chmod(0o755)
    log = tmp_path / "calls.log"
    env = dict(os.environ, PATH=f"{bin_}:/usr/bin:/bin", LOG=str(log), FAKE_PYTEST=str(pytest_exit),
               TMPDIR=str(tmp_path))
    done = subprocess.run(["bash", str(tmp_path / ".ci" / "run"), *args], env=env, capture_output=True, text=True,
                          timeout=60)
    return done.returncode, log.read_text().splitlines() if log.exists() else []


def test_ci_runs_the_pinned_tests_then_torch_and_fails_when_a_test_fails(tmp_path):
    code, calls = _run_ci(tmp_path / "green", 0)
    assert code == 0
    assert calls[0] == 'pip install -q -c constraints.txt -e .[test]' and calls[1] == f"pytest -m pytest {EVERY_TIER}"
    assert calls[2] == "pip install -q torch==2.13.0"
    assert calls[3].startswith(f"pytest -m pytest {EVERY_TIER} tests/test_torch.py")  # the torch tests of every tier
    code, calls = _run_ci(tmp_path / "red", 1)
    assert code != 0 and calls == ['pip install -q -c constraints.txt -e .[test]', f"pytest -m pytest {EVERY_TIER}"]


def test_ci_runs_the_suite_against_the_newest_releases_on_demand(tmp_path):
    code, calls = _run_ci(tmp_path, 0, "--newest")
    assert code == 0 and calls[0] == "pip install -q --upgrade -e .[test]"  # no constraints
    assert calls[1] == f"pytest -m pytest {EVERY_TIER}"
    assert (tmp_path / "attention-lab-newest" / "bin" / "pip").exists()  # a venv of its own, not .venv
    assert _run_ci(tmp_path / "typo", 0, "--newset")[0] == 2


# ---- Binder: what repo2docker's base environment brings, and what pip puts over it ----------------------------

REPO2DOCKER_BASE = ROOT / "tests" / "data" / "repo2docker_base_py311.txt"
# The Jupyter side of an environment: the server, the front-ends, the kernel and the widget managers.
FRONT_END = re.compile(r"^(jupyter.*|notebook.*|ipywidgets|widgetsnbextension|ipykernel|ipython|anywidget|nbconvert"
                       r"|nbformat|traitlets|comm)$")
# Binder's own extensions in the base, which pip leaves as they are; their requirements on the Jupyter side (read
# from their wheels' metadata, at the base's versions) must hold with the pins. JupyterHub's single-user packages
# are conda's own, and their requirements were not read here.
KEPT_FROM_BASE = {"jupyter-offlinenotebook": ["jupyter-server"], "jupyter-resource-usage": ["jupyter-server>=2.0"],
                  "jupyterhub-base": [], "jupyterhub-singleuser": []}


def _norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _base():  # -> {name: version} of repo2docker's base environment
    found = {}
    for line in REPO2DOCKER_BASE.read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            found[_norm(name)] = version
    return found


def _installed_by(requirements):  # -> {name}: what pip installs for these requirement lines (from this environment's
    """metadata: every package of the lab extra is installed here by the test extra, at the pinned versions)."""
    from importlib import metadata

    todo, seen = [Requirement(r) for r in requirements], set()
    while todo:
        requirement = todo.pop()
        name = _norm(requirement.name)
        if name in seen or (requirement.marker is not None and not requirement.marker.evaluate(ENV_311)):
            continue
        seen.add(name)
        extras = {""} | set(requirement.extras)
        for line in metadata.requires(name) or []:
            sub = Requirement(line)
            if sub.marker is None or any(sub.marker.evaluate(dict(ENV_311, extra=e)) for e in extras):
                sub.marker = None
                todo.append(sub)
    return seen


def binder_conflicts(base, lab_requirements, pins):  # -> [str]: what Binder would run at a version the tests did not
    """Each Jupyter package of the base that pip does not replace with its pinned version, and each requirement of
    Binder's own extensions that the pins break."""
    ours = _installed_by(lab_requirements)
    problems = [f"{name}=={version} stays from repo2docker's base (pip does not install it)"
                for name, version in sorted(base.items())
                if FRONT_END.match(name) and name not in ours and name not in KEPT_FROM_BASE]
    for name, requirements in KEPT_FROM_BASE.items():
        for line in requirements:
            requirement = Requirement(line)
            pinned = pins.get(_norm(requirement.name))
            if pinned is not None and not requirement.specifier.contains(pinned, prereleases=True):
                problems.append(f"{name} needs {line}, the pins give {pinned}")
    return problems


def test_binder_runs_the_jupyter_versions_the_tests_ran():
    """repo2docker starts from its own environment (notebook 7.4.7 there requires jupyterlab<4.5); environment.yml
    then pip-installs `.[lab]` with the pins: every Jupyter package of the base must be one pip replaces."""
    base, pins = _base(), {_norm(k): v for k, v in _pins().items()}
    assert base["python"].startswith("3.11.") and "notebook" in base  # the file is the base environment
    lab = [f"attention-lab[{e}]" for e in ("lab",)]
    assert binder_conflicts(base, lab, pins) == []
    for name in ("jupyterlab", "notebook", "ipywidgets", "anywidget", "jupyter-server", "jupyterlab-widgets"):
        assert name in _installed_by(lab) and name in pins, name  # the same versions as the tests: the pinned ones


def test_the_binder_check_refuses_what_broke_binder_before():
    """The catalogue: the lab extra with JupyterLab alone (notebook stayed 7.4.7 beside JupyterLab 4.6.6)."""
    base, pins = _base(), {_norm(k): v for k, v in _pins().items()}
    said = binder_conflicts(base, ["jupyterlab"], pins)
    assert "notebook==7.4.7 stays from repo2docker's base (pip does not install it)" in said, said
    old_server = {**pins, "jupyter-server": Version("1.9")}
    assert any("jupyter-resource-usage needs" in s for s in binder_conflicts(base, ["jupyterlab"], old_server))


def test_the_binder_badge_and_the_site_name_one_repository():
    """Publishing sets the repository in the README's badge and in the site's default; they must agree."""
    from attention_lab.site import DEFAULT_BINDER, binder_base

    badge = re.search(r"\]\((https://mybinder\.org/v2/gh/[^)?]+)\?", (ROOT / "README.md").read_text()).group(1)
    assert badge == binder_base(DEFAULT_BINDER), (badge, DEFAULT_BINDER)


def test_a_wheel_and_an_sdist_build_and_pass_twine_check(tmp_path):
    """Ready for an index: both build from a clean copy, `twine check --strict` passes (the README renders as the
    project's description), and the wheel carries the front-end, the site's files and the font."""
    import shutil
    import sys
    import zipfile
    from pathlib import Path

    source = tmp_path / "src"  # a copy without this checkout's build leftovers (egg-info, caches)
    def leftovers(folder, names):
        here = {".git", ".venv", "notebooks", "site", "build", "dist"} if Path(folder) == ROOT else set()
        return [n for n in names if n in here or n.endswith(".egg-info") or n == "__pycache__"]

    shutil.copytree(ROOT, source, ignore=leftovers)
    built = subprocess.run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(tmp_path / "dist"),
                            str(source)], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    files = sorted((tmp_path / "dist").iterdir())
    assert [f.suffix for f in files] == [".whl", ".gz"], files
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, files)],
                             capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    names = zipfile.ZipFile(files[0]).namelist()
    version = PROJECT["project"]["version"]
    assert files[0].name == f"attention_lab-{version}-py3-none-any.whl"
    for needed in ("attention_lab/live/explorer.js", "attention_lab/live/theme.js", "attention_lab/live/page.css",
                   "attention_lab/site/site.js", "attention_lab/site/site.css",
                   "attention_lab/fonts/NotoSansCJKkr-Regular-subset.ttf"):
        assert needed in names, needed


def test_the_suite_passes_with_another_virtual_environment_active(tmp_path):
    """The README's test command from a shell where another venv is active (VIRTUAL_ENV names it): the tests run in
    this interpreter all the same. The slice run here starts an IPython shell, which warns about such a VIRTUAL_ENV
    (an error under filterwarnings = error) unless the suite sets it aside (tests/conftest.py)."""
    other = tmp_path / "other-venv"
    (other / "bin").mkdir(parents=True)
    env = {**os.environ, "VIRTUAL_ENV": str(other), "PATH": f"{other / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-m", "slow or not slow",
                           "tests/test_stored_figures.py", "-k", "03_scaling and en"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "2 passed" in done.stdout, done.stdout[-2000:]
