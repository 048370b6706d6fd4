"""The README's lab command, run as written: the repository is the server's root, so both editions of the
notebooks and the README are in reach, and the notebook it opens is notebooks/ko/00_overview.ipynb.

The command's install steps are not run (the test environment has JupyterLab already); its last step is,
with the venv's `jupyter` replaced by this interpreter's `python -m jupyter`, and with only a free port, a
token and --no-browser added (and --allow-root when the tests run as root, which JupyterLab requires there
and the README says). Jupyter's runtime and config folders are private to the test, so the server writes
nothing to the user's folders and reads no user config.
"""

import ast
import json
import os
import re
import secrets
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from servers import free_port, stop, wait_until_serving

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ["python3 -m venv .venv", '.venv/bin/pip install -c constraints.txt -e ".[lab]"']  # the pinned set


def readme_lab_command():  # -> argv of the README's lab step, run with this interpreter's jupyter
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```(?:bash|sh)\n(.+?)\n```", readme, flags=re.S)
    # The Korean part and "Two commands" show it each: one command, written the same in both.
    [command] = sorted({c for c in commands if "jupyter lab" in c})
    steps = [step.strip() for step in command.split("&&")]
    assert steps[:-1] == INSTALL, "the README's lab command changed: update this test's idea of its install steps"
    argv = shlex.split(steps[-1])
    assert argv[:2] == [".venv/bin/jupyter", "lab"], argv
    return [sys.executable, "-m", "jupyter", *argv[1:]]


def _wait_for(path_pattern, folder, server, log, timeout=90):  # -> Path of the first file matching, once written
    deadline = time.monotonic() + timeout
    while True:
        found = sorted(folder.glob(path_pattern))
        if found and found[0].stat().st_size > 0:
            return found[0]
        if server.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"jupyter lab did not start (no {path_pattern}):\n" + log.read_text()[-3000:])
        time.sleep(0.3)


def test_the_readme_lab_command_serves_the_repository_and_opens_the_korean_overview(tmp_path):
    argv = readme_lab_command()
    token = secrets.token_hex(16)
    argv += ["--no-browser", f"--port={free_port()}", f"--IdentityProvider.token={token}"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")
    runtime = tmp_path / "runtime"
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(runtime), JUPYTER_CONFIG_DIR=str(tmp_path / "config"))
    log = tmp_path / "lab.log"
    with open(log, "w") as out:
        server = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            info = json.loads(_wait_for("jpserver-[0-9]*.json", runtime, server, log).read_text())
            assert Path(info["root_dir"]) == ROOT
            base = f"http://127.0.0.1:{info['port']}{info['base_url']}"
            wait_until_serving(base.rstrip("/"), token, server, log, timeout=60)

            def contents(path):  # -> the contents API's model of a file, without its content
                request = urllib.request.Request(f"{base}api/contents/{path}?content=0",
                                                 headers={"Authorization": f"token {token}"})
                try:
                    with urllib.request.urlopen(request, timeout=20) as reply:
                        return json.load(reply)
                except urllib.error.HTTPError as error:
                    pytest.fail(f"the server answers {error.code} for {path}")

            for path, kind in [("notebooks/en/00_overview.ipynb", "notebook"),
                               ("notebooks/ko/00_overview.ipynb", "notebook"), ("README.md", "file")]:
                model = contents(path)
                assert (model["path"], model["type"]) == (path, kind)

            # The page the command opens (--no-browser: the server still writes it, for a browser to open).
            opened = _wait_for("jpserver-file-to-run-*-open.html", runtime, server, log).read_text()
            assert re.search(r"/lab/tree/notebooks/ko/00_overview\.ipynb\b", opened), opened
        finally:
            stop(server, timeout=20)


# ---- the README's Python, run as written (issue 27) ------------------------------------------------------------------

# The README and the pages it sends a reader to, in the order it lists them: each one's Python runs as written.
DOCS = ["README.md", "docs/package.md", "docs/explorer.md", "docs/learned.md", "docs/figures.md", "docs/anywhere.md",
        "docs/install.md", "docs/classroom.md", "docs/classroom-report.md"]


def readme_python_blocks():  # -> [(file, first line number, code)] of every ```python block, in order
    blocks = []
    for name in DOCS:
        text = (ROOT / name).read_text(encoding="utf-8") if (ROOT / name).exists() else ""
        blocks += [(name, text[:m.start()].count("\n") + 2, m.group(1))
                   for m in re.finditer(r"```python\n(.+?)\n```", text, flags=re.S)]
    return blocks


def test_every_page_the_readme_links_to_is_there_and_listed_here():
    linked = set(re.findall(r"\]\(((?:docs|benchmarks)/[\w./-]+\.md)\)", (ROOT / "README.md").read_text()))
    assert linked and all((ROOT / name).is_file() for name in linked), sorted(linked)
    assert linked - {"benchmarks/README.md"} <= set(DOCS), sorted(linked - set(DOCS))


def claimed(line):  # -> (expression, the literal its comment says it gives) for "expr  # … -> literal", or None
    code, _, comment = line.partition("  #")
    if "->" not in comment or not code.strip() or "=" in code.replace("==", ""):
        return None
    return code.strip(), comment.rsplit("->", 1)[1].strip()


def test_every_python_block_of_the_readme_runs_as_written_and_gives_what_its_comments_say(tmp_path, monkeypatch):
    import numpy as np

    blocks = readme_python_blocks()
    assert len(blocks) >= 3
    monkeypatch.chdir(tmp_path)  # what a block writes (explorer.html) lands here
    namespace, checked = {}, 0
    for name, first, code in blocks:  # one namespace, in order, as a reader who pastes them one after another
        lines = code.splitlines()
        for statement in ast.parse(code).body:  # each statement, then what its comment says it gives
            exec(compile(ast.Module([statement], []), f"{name}, line {first + statement.lineno - 1}", "exec"),
                 namespace)
            claim = claimed(lines[statement.lineno - 1])
            if claim:
                got, said = eval(claim[0], namespace), eval(claim[1], {})
                assert np.allclose(np.asarray(got, dtype=float), np.asarray(said, dtype=float), atol=5e-4), (
                    lines[statement.lineno - 1], got)
                checked += 1
    assert checked >= 4 and (tmp_path / "explorer.html").stat().st_size > 0
