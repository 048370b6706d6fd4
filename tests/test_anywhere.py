"""The stored notebooks outside our JupyterLab: the first code cell installs the package where it is missing (Colab,
VS Code, any plain Jupyter), every figure carries its caption as alt text, and `--to slides` gives one slide per step.

Each rule is a function that returns what is wrong (None when nothing is), run on the stored notebooks and on a
catalogue of wrong cells and exports it must refuse.
"""

import html as html_text
import importlib.util
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urljoin

import nbformat
import pytest
from servers import free_port, stop

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TEMPLATES = ROOT / "tools" / "nbconvert"
NAMES = sorted(p.stem[2:] for p in (ROOT / "tools" / "notebooks").glob("nb[0-9][0-9]_*.py"))
LANGS = ("ko", "en")
CAPTION_START = re.compile(r"\*\*(그림|Figure)( \d+)?\.\*\* ")
NO_ALT = "No description has been provided for this image"  # what nbconvert writes where a figure has none


def load(lang, name):
    return nbformat.read(NOTEBOOKS / lang / f"{name}.ipynb", as_version=4)


def _cells_module():
    sys.path.insert(0, str(ROOT / "tools" / "notebooks"))
    try:
        import cells
    finally:
        sys.path.pop(0)
    return cells


def badge_repository():  # -> "owner/name": the repository the README's Binder badge launches (the one setting)
    readme = (ROOT / "README.md").read_text()
    return re.search(r"\]\(https://mybinder\.org/v2/gh/([^/]+/[^/]+)/[^)?]+\?", readme).group(1)


# --- 1. The first code cell: install only where attention_lab is missing ---------------------------------------

def pip_calls(source, installed, monkeypatch):  # -> [argv of each subprocess.run], running `source` as a cell would
    calls = []
    monkeypatch.setattr("subprocess.run", lambda argv, **kw: calls.append(list(argv)))
    monkeypatch.setattr("importlib.invalidate_caches", lambda: None)
    if not installed:
        monkeypatch.setitem(sys.modules, "attention_lab", None)  # `import attention_lab` now raises ImportError
    exec(compile(source, "<first cell>", "exec"), {})
    return calls


def guard_problem(source, monkeypatch, capsys):  # -> what is wrong with an install guard, or None
    expected = [sys.executable, "-m", "pip", "install", "-q",
                f"attention-lab @ git+https://github.com/{badge_repository()}"]
    if pip_calls(source, True, monkeypatch):
        return "runs pip where attention_lab is installed"
    missing = pip_calls(source, False, monkeypatch)
    if missing != [expected]:
        return f"where attention_lab is missing it runs {missing}, not {[expected]}"
    if capsys.readouterr().out:
        return "prints something"
    return None


WRONG_GUARDS = {
    "always installs": 'import subprocess, sys\nsubprocess.run([sys.executable, "-m", "pip", "install", "-q", '
                       '"attention-lab @ git+https://github.com/{repo}"])',
    "not quiet": 'try:\n    import attention_lab\nexcept ImportError:\n    import subprocess, sys\n'
                 '    subprocess.run([sys.executable, "-m", "pip", "install", "attention-lab @ '
                 'git+https://github.com/{repo}"])',
    "another repository": 'try:\n    import attention_lab\nexcept ImportError:\n    import subprocess, sys\n'
                          '    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "attention-lab @ '
                          'git+https://github.com/someone/else"])',
    "from the index by name, where it is not": 'try:\n    import attention_lab\nexcept ImportError:\n'
                                               '    import subprocess, sys\n    subprocess.run([sys.executable, '
                                               '"-m", "pip", "install", "-q", "attention-lab"])',
    "says what it does": 'try:\n    import attention_lab\nexcept ImportError:\n    import subprocess, sys\n'
                         '    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "attention-lab @ '
                         'git+https://github.com/{repo}"])\nprint("attention_lab is ready")',
    "installs nothing": "import numpy",
}


@pytest.mark.parametrize("wrong", list(WRONG_GUARDS))
def test_the_guard_check_refuses_a_wrong_guard(wrong, monkeypatch, capsys):
    assert guard_problem(WRONG_GUARDS[wrong].format(repo=badge_repository()), monkeypatch, capsys), wrong


def test_the_guard_installs_from_the_badges_repository_only_where_the_package_is_missing(monkeypatch, capsys):
    assert guard_problem(_cells_module().INSTALL, monkeypatch, capsys) is None


@pytest.mark.parametrize("name", NAMES)
def test_every_notebook_starts_with_the_guard_identical_in_both_editions_and_silent(name):
    install = _cells_module().INSTALL
    for lang in LANGS:
        first = next(c for c in load(lang, name).cells if c.cell_type == "code")
        lines = first.source.splitlines()
        # LANG, then the guard, before anything imports numpy or attention_lab
        assert lines[0] == f'LANG = "{lang}"', (lang, name, lines[0])
        assert "\n".join(lines[1:]).startswith(install + "\n"), (lang, name, first.source[:400])
        assert first.outputs == [], (lang, name, first.outputs)  # installed here: the guard ran and said nothing


# --- 2. Alt text: every figure's stored output carries its caption -------------------------------------------

def plain(caption):  # -> the caption as a reader hears it: its Markdown rendered (mistune, nbconvert's), as text
    """Not tools/build_notebooks.py's own rule (strip **, ` and links), which wrote the stored alt: a copy of that
    rule here would share whatever it leaves in (an *italic* mark, an escape, an entity)."""
    import mistune

    return html_text.unescape(re.sub(r"<[^>]+>", "", mistune.html(caption))).strip()


# Captions, as Markdown, and what a reader hears of them: no mark of emphasis, code, link, escape or entity.
HEARD = {"**Figure 2.** The scores `S` of Head 1": "Figure 2. The scores S of Head 1",
         "**그림 3.** *scaled* scores, [notebook 03](03_scaling.ipynb)": "그림 3. scaled scores, notebook 03",
         "**Figure 4.** P &lt; 1 and a \\* star, S_scaled and x_1": "Figure 4. P < 1 and a * star, S_scaled and x_1",
         "**Figure 5.** `a < b` and Q·Kᵀ / √dh": "Figure 5. a < b and Q·Kᵀ / √dh"}


def test_a_caption_is_heard_without_its_markdown():
    for caption, heard in HEARD.items():
        assert plain(caption) == heard, caption


def figures(nb):  # -> [(output, the caption cell's source)] for every image of the notebook
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if "image/png" in out.get("data", {}):
                found.append((out, nb.cells[i + 1].source))
    return found


@pytest.mark.parametrize("name", NAMES)
def test_every_stored_figure_has_its_caption_as_alt_text(name):
    for lang in LANGS:
        shown = figures(load(lang, name))
        assert shown, (lang, name)
        for out, caption in shown:
            assert CAPTION_START.match(caption), caption
            assert out.metadata["image/png"]["alt"] == plain(caption), (lang, name, caption)


def alt_problems(html, captions):  # -> what is wrong with the <img> alts of an HTML export, [] when right
    alts = re.findall(r'<img\b[^>]*?\balt="([^"]*)"', html)
    images = re.findall(r"<img\b", html)
    problems = [f"{len(images) - len(alts)} image(s) without alt"] if len(alts) != len(images) else []
    wanted = [plain(c) for c in captions]
    got = [html_text.unescape(a) for a in alts]
    if got != wanted:
        problems.append(f"alts {got} are not the captions {wanted}")
    return problems


@pytest.mark.parametrize("lang, name", [("ko", "07_explorer"), ("en", "13_learned_attention")])
def test_nbconvert_html_and_markdown_describe_every_figure(lang, name):
    from nbconvert import HTMLExporter, MarkdownExporter

    nb = load(lang, name)
    captions = [caption for _, caption in figures(nb)]
    with_alt, _ = HTMLExporter(template_file=str(TEMPLATES / "alt.html.j2")).from_notebook_node(nb)
    assert alt_problems(with_alt, captions) == []
    classic, _ = HTMLExporter(template_name="classic").from_notebook_node(nb)  # reads the stored alt itself
    assert alt_problems(classic, captions) == []
    default, _ = HTMLExporter().from_notebook_node(nb)  # the lab template ignores it: the catalogue's wrong export
    assert NO_ALT in default and alt_problems(default, captions)

    markdown, _ = MarkdownExporter(template_file=str(TEMPLATES / "alt.md.j2")).from_notebook_node(nb)
    described = re.findall(r"!\[((?:\\.|[^\]])*)\]\(", markdown)
    described = [alt.replace("\\[", "[").replace("\\]", "]") for alt in described]
    assert described == [plain(c) for c in captions]
    bare, _ = MarkdownExporter().from_notebook_node(nb)
    assert re.findall(r"!\[([^\]]*)\]\(", bare) == ["png"] * len(captions)  # what it writes without the template


# --- 3. Slides: one per step ----------------------------------------------------------------------------------

def slides(html):  # -> how many slides a reveal.js export has (each slide is a <section> around its sub-slides)
    return len(re.findall(r"<section[^>]*>\s*<section", html))


def steps(ko, en):  # -> how many steps a notebook has: its title, and each cell that starts with a heading in
    # either edition (the editions share their slides)
    starts = [any(re.match(r"#{1,2} ", c.source) for c in pair) for pair in zip(ko.cells, en.cells, strict=True)]
    return 1 + sum(starts[1:])


def test_the_slide_count_is_not_fooled_by_a_notebook_without_slide_metadata():
    from nbconvert import SlidesExporter

    nb = load("en", "04_causal_mask")
    for cell in nb.cells:
        cell.metadata.pop("slideshow", None)
    html, _ = SlidesExporter().from_notebook_node(nb)
    assert slides(html) == 1  # the whole notebook on one slide, as before the metadata


@pytest.mark.parametrize("name", NAMES)
def test_slides_give_one_slide_per_step(name):
    from nbconvert import SlidesExporter

    ko, en = load("ko", name), load("en", name)
    assert [c.metadata.get("slideshow") for c in ko.cells] == [c.metadata.get("slideshow") for c in en.cells]
    html, _ = SlidesExporter().from_notebook_node(ko)
    assert slides(html) == steps(ko, en) > 1, (name, slides(html), steps(ko, en))


def test_the_build_tool_writes_the_slide_metadata_the_stored_notebooks_have():
    spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "tools" / "build_notebooks.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for name, cells in tool.sources().items():
        for lang in LANGS:
            built = [c.metadata.get("slideshow") for c in tool.build(name, cells, lang).cells]
            assert built == [c.metadata.get("slideshow") for c in load(lang, name).cells], (lang, name)


# --- 4. Voilà: the links between notebooks work in tree mode --------------------------------------------------

@contextmanager
def voila(target, cwd, tmp):  # -> base URL of Voilà serving `target` (a folder: tree mode; a notebook: single)
    pytest.importorskip("voila", reason="needs Voilà: pip install -e '.[voila]'")
    port, log = free_port(), open(tmp / f"voila-{Path(target).name}.log", "w")  # noqa: SIM115 -- closed below
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp / "config"), "JUPYTER_RUNTIME_DIR": str(tmp / "runtime")}
    server = subprocess.Popen([sys.executable, "-m", "voila", "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}",
                               str(target)], cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 90
        while status(base) is None:
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail("voila did not start:\n" + Path(log.name).read_text()[-3000:])
            time.sleep(0.3)
        yield base
    finally:
        stop(server, timeout=15)
        log.close()


def status(url):  # -> the HTTP status of a GET, or None where nothing answers
    try:
        with urllib.request.urlopen(url, timeout=120) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def notebook_links(page_url):  # -> the absolute URLs of the page's links to notebooks (the edition's and the next)
    with urllib.request.urlopen(page_url, timeout=120) as reply:
        page = reply.read().decode()
    return [urljoin(page_url, html_text.unescape(href)) for href in re.findall(r'<a[^>]+href="([^"#]+\.ipynb)"', page)]


@pytest.fixture(scope="module")
def text_only(tmp_path_factory):  # -> folder with ko/03, en/03 and ko/04 as stored, their code cells left out
    folder = tmp_path_factory.mktemp("voila")  # (the links are Markdown; leaving the code out spares a long run)
    for lang, name in [("ko", "03_scaling"), ("en", "03_scaling"), ("ko", "04_causal_mask")]:
        nb = load(lang, name)
        nb.cells = [c for c in nb.cells if c.cell_type == "markdown"]
        (folder / lang).mkdir(exist_ok=True)
        nbformat.write(nb, folder / lang / f"{name}.ipynb")
    return folder


def test_voila_tree_mode_follows_the_edition_and_next_links(text_only, tmp_path):
    with voila(".", text_only, tmp_path) as base:
        page = urljoin(base, "voila/render/ko/03_scaling.ipynb")
        links = notebook_links(page)
        assert links == [urljoin(base, "voila/render/en/03_scaling.ipynb"),
                         urljoin(base, "voila/render/ko/04_causal_mask.ipynb")], links
        assert [status(link) for link in links] == [200, 200]


def test_voila_single_notebook_mode_refuses_the_same_links(text_only, tmp_path):
    # The wrong way to serve them, which the README warns of: each link answers an error.
    with voila("ko/03_scaling.ipynb", text_only, tmp_path) as base:
        links = notebook_links(base)
        assert len(links) == 2 and all(status(link) >= 400 for link in links), [(u, status(u)) for u in links]
