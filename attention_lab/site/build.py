"""Build the course site: both editions' stored notebooks as pages, the front-end once, the index pages.

    site/index.html                  the two editions side by side
    site/ko/index.html, en/…         each edition's contents, in the notebooks' order (by name: 00_…, 01_…)
    site/ko/00_overview.html, …      one page per stored notebook; its figures in site/ko/img/; the notebook itself
                                     beside it (00_overview.ipynb, to download)
    site/assets/attention_lab.js     the front-end bundle (live/page.py), once for the whole site
    site/assets/attention_lab.css    its styles; site.css, the pages' own; theme.js (the light / dark toggle) and
                                     site.js (copy buttons, the search box, folding the side contents on a phone)
    site/pagefind/                   the search index of both editions and its interface (Pagefind, offline)
"""

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

from ..exercises import drills
from ..live import page
from . import notebook, pages

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
HERE = Path(__file__).parent
MARK = ".attention-lab-site"  # in a folder this command built, so that a rebuild may clear it
DEFAULT_BINDER = "attention-lab/attention-lab"  # the README badge's repository (not confirmed to exist)


def binder_base(binder):  # "owner/name[@ref]" | "https://…" | None -> the Binder launch URL or None
    """Where "run this notebook" goes: a GitHub repository on mybinder.org, a launch URL of any BinderHub, or none."""
    if binder is None or binder == "none":
        return None
    if not isinstance(binder, str) or not binder.strip():
        raise ValueError("binder: give OWNER/NAME (a GitHub repository, e.g. attention-lab/attention-lab), a Binder "
                         "launch URL (https://mybinder.org/v2/gh/OWNER/NAME/BRANCH), or 'none'.")
    binder = binder.strip().rstrip("/")
    if binder.startswith(("https://", "http://")):
        return binder
    repo, _, ref = binder.partition("@")
    if _is_placeholder(repo):
        raise ValueError(f"binder: {binder!r} is the documentation's placeholder, not a repository: give yours "
                         "(e.g. attention-lab/attention-lab), or 'none' to leave the Binder links out.")
    parts = repo.split("/")
    if len(parts) != 2 or not all(parts) or any(c.isspace() for c in binder):
        raise ValueError(f"binder: {binder!r} is not OWNER/NAME[@REF] (e.g. attention-lab/attention-lab@main), a "
                         "Binder launch URL starting with https://, or 'none'.")
    return f"https://mybinder.org/v2/gh/{repo}/{ref or 'HEAD'}"


# How documentation writes "your repository": typed as written, each would make every page's Binder link broken.
PLACEHOLDER_WORDS = {"owner", "name", "user", "repo", "repository", "org", "username", "your", "yours"}


def _is_placeholder(repo):  # -> True for OWNER/NAME, <owner>/<repo>, USER/REPO, {user}/{name}, …
    parts = [part.strip("<>{}[]").lower().replace("_", "-") for part in repo.split("/")]
    return any(c in repo for c in "<>{}[]") or all(
        part in PLACEHOLDER_WORDS or part.split("-")[0] in PLACEHOLDER_WORDS for part in parts)


def run_link(base, lang, name):  # -> the Binder URL that opens notebooks/{lang}/{name}.ipynb in JupyterLab
    return f"{base}?urlpath=lab/tree/notebooks/{lang}/{name}.ipynb" if base else None


def _clear(out):
    """Make `out` ready: create it, or clear a site this command built there before; refuse any other folder."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"out: {out} is a file; give a folder for the site, e.g. --out site/.")
    if out.is_dir() and any(out.iterdir()):
        if not (out / MARK).exists():
            raise ValueError(f"out: {out} is not empty and is not a site this command built; give a new or empty "
                             "folder, e.g. --out site/.")
        for child in out.iterdir():
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    out.mkdir(parents=True, exist_ok=True)
    (out / MARK).write_text("Built by python -m attention_lab.site; a rebuild clears this folder.\n")


def site_css():  # -> str: the pages' own styles: the page's theme, site.css, and code colours for both themes
    from pygments.formatters import HtmlFormatter

    page_css, _theme_js = page.page_chrome()
    # Code colours for each theme: Pygments' light and dark styles, each under its theme's selector.
    code = "\n".join(HtmlFormatter(style=style).get_style_defs(f"{scope} .al-code") for style, scope in
                      (("default", ":root:not([data-al-theme=dark])"), ("github-dark", ":root[data-al-theme=dark]")))
    dark_code = HtmlFormatter(style="github-dark").get_style_defs(":root:not([data-al-theme=light]) .al-code")
    return (f"{page_css}\n{(HERE / 'site.css').read_text(encoding='utf-8')}\n{code}\n"
            f"@media (prefers-color-scheme:dark){{{dark_code}}}\n")


def front_end():  # -> str: the bundle as a classic script that mounts every widget of the page
    # A classic script (not a module), so that the pages work from disk too; strict, and its names stay inside.
    return f'(() => {{\n"use strict";\n{page.bundle()[0]}\nmountAll(document);\n}})();\n'


def _assets(out):
    """The front-end bundle (one copy for every page), its styles, and the site's own stylesheet and scripts."""
    assets = out / "assets"
    assets.mkdir()
    (assets / "attention_lab.js").write_text(front_end(), encoding="utf-8")
    (assets / "attention_lab.css").write_text(page.bundle()[1], encoding="utf-8")
    (assets / "site.css").write_text(site_css(), encoding="utf-8")
    (assets / "theme.js").write_text(page.page_chrome()[1], encoding="utf-8")
    (assets / "site.js").write_text((HERE / "site.js").read_text(encoding="utf-8"), encoding="utf-8")
    (assets / "drills.js").write_text(drills.assets()[0], encoding="utf-8")  # exercises by hand: exercises/drills.py


def _installed(*modules):  # -> bool: every module can be imported
    try:
        for name in modules:
            importlib.import_module(name)
    except ImportError:
        return False
    return True


INSTALL = "pip install 'attention-lab[site]' (from a clone: pip install -e '.[site]')"


def requires():
    """Refuse, saying what to install, when the pages cannot be written: Markdown (mistune) and code (Pygments)
    come with the `site` extra, and with JupyterLab (the `lab` and `test` extras)."""
    missing = [m for m in ("mistune", "pygments") if not _installed(m)]
    if missing:
        raise ValueError(f"the site needs {' and '.join(missing)}, not installed here: {INSTALL}.")


def search_available():  # -> bool: Pagefind (the `site` extra) is installed
    return _installed("pagefind", "pagefind_bin")


def _search(out):
    """Index both editions' notebook pages (each page's <main data-pagefind-body>) with Pagefind, offline."""
    # One index for both editions (Pagefind would make one per language, and a page would search its own only):
    # a Korean page finds "weighted sum" in the English edition, an English one "마스크" in the Korean edition.
    run = subprocess.run([sys.executable, "-m", "pagefind", "--site", str(out), "--output-subdir", pages.SEARCH,
                          "--force-language", "en", "--silent"], capture_output=True, text=True)
    if run.returncode != 0:
        raise ValueError(f"search: Pagefind could not index the site: {(run.stderr or run.stdout).strip()[:300]}")
    return True


def _body(path, lang, in_site, inline=False, run=None):  # -> (title, html, Body), or a ValueError naming the notebook
    """One stored notebook made HTML (notebook.Body: in_site, inline and run are its pages, inline and run)."""
    nb = notebook.read(path)
    try:
        body = notebook.Body(nb, path.stem, lang, page.mount_html, page.config_from_model, in_site, inline, run)
        html = body.html()
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    return notebook.title_of(nb, path.stem), html, body


def build(out="site", notebooks=NOTEBOOKS, binder=DEFAULT_BINDER, search=True):  # -> {lang: [(name, widgets)]}
    """Write the site into `out` from the stored notebooks under `notebooks/{ko,en}/`; returns what it wrote.

    binder: where each page's "run this notebook" link goes (see `binder_base`); None or "none" for no link.
    search: index the pages with Pagefind (the `site` extra); without it installed the site has no search box.
    One edition alone (only ko/ or only en/) makes a site of that edition.
    """
    requires()
    out, notebooks = Path(out), Path(notebooks)
    base = binder_base(binder)
    found = {lang: sorted((notebooks / lang).glob("*.ipynb")) for lang in pages.LANGS}
    found = {lang: paths for lang, paths in found.items() if paths}
    if not found:
        raise ValueError(f"notebooks: no stored notebooks in {notebooks}/ko or {notebooks}/en; run "
                         "python tools/build_notebooks.py --execute first.")
    in_site = {f"{lang}/{path.stem}" for lang, paths in found.items() for path in paths}
    bodies = {lang: [(path, _body(path, lang, in_site, run=run_link(base, lang, path.stem)))  # all made before
                     for path in paths] for lang, paths in found.items()}  # anything is written
    search = search and search_available()
    names = {lang: {p.stem for p in paths} for lang, paths in found.items()}
    _clear(out)
    _assets(out)
    editions, written = {}, {}
    for lang, done in bodies.items():
        other = pages.OTHER[lang]
        entries = [pages.Entry(path.stem, title, f"../{other}/{path.stem}.html" if path.stem in names.get(other, ())
                               else None) for path, (title, _html, _body) in done]
        editions[lang] = entries
        folder = out / lang
        (folder / "img").mkdir(parents=True)
        written[lang] = []
        for k, ((path, (_title, html, body)), entry) in enumerate(zip(done, entries, strict=True)):
            for file, png in body.images:
                (folder / "img" / file).write_bytes(png)
            shutil.copyfile(path, folder / f"{entry.name}.ipynb")
            (folder / f"{entry.name}.html").write_text(pages.notebook_page(
                lang, entry, html, entries=entries, headings=body.headings,
                previous=entries[k - 1] if k else None, following=entries[k + 1] if k + 1 < len(entries) else None,
                run=run_link(base, lang, entry.name), widgets=bool(body.widgets), search=search), encoding="utf-8")
            written[lang].append((entry.name, tuple(body.widgets)))
        first_other = f"../{other}/index.html" if other in found else None
        (folder / "index.html").write_text(pages.index_page(lang, entries, other=first_other,
                                                            run=run_link(base, lang, entries[0].name), search=search),
                                           encoding="utf-8")
    (out / "index.html").write_text(pages.root_page(editions, search=search), encoding="utf-8")
    if search:
        _search(out)
    return written
