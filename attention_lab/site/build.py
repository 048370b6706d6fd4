"""Build the course site: both editions' stored notebooks as pages, the front-end once, the index pages.

    site/index.html                  the two editions side by side
    site/ko/index.html, en/…         each edition's contents, in the notebooks' order (by name: 00_…, 01_…)
    site/ko/00_overview.html, …      one page per stored notebook; its figures in site/ko/img/
    site/assets/attention_lab.js     the front-end bundle (live/page.py), once for the whole site
    site/assets/attention_lab.css    its styles; site.css, the pages' own
"""

import shutil
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
    parts = repo.split("/")
    if len(parts) != 2 or not all(parts) or any(c.isspace() for c in binder):
        raise ValueError(f"binder: {binder!r} is not OWNER/NAME[@REF] (e.g. attention-lab/attention-lab@main), a "
                         "Binder launch URL starting with https://, or 'none'.")
    return f"https://mybinder.org/v2/gh/{repo}/{ref or 'HEAD'}"


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


def _assets(out):
    """The front-end bundle (one copy for every page), its styles, and the site's own stylesheet."""
    from pygments.formatters import HtmlFormatter

    js, css = page.bundle()
    assets = out / "assets"
    assets.mkdir()
    # A classic script (not a module), so that the pages work from disk too; strict, and its names stay inside.
    (assets / "attention_lab.js").write_text(f'(() => {{\n"use strict";\n{js}\nmountAll(document);\n}})();\n',
                                             encoding="utf-8")
    (assets / "attention_lab.css").write_text(css, encoding="utf-8")
    (assets / "drills.js").write_text(drills.assets()[0], encoding="utf-8")  # exercises by hand: exercises/drills.py
    code = HtmlFormatter(style="default").get_style_defs(".al-code")
    (assets / "site.css").write_text((HERE / "site.css").read_text(encoding="utf-8") + "\n" + code + "\n",
                                     encoding="utf-8")


def build(out="site", notebooks=NOTEBOOKS, binder=DEFAULT_BINDER):  # -> {lang: [(name, kinds of widgets)]}
    """Write the site into `out` from the stored notebooks under `notebooks/{ko,en}/`; returns what it wrote.

    binder: where each page's "run this notebook" link goes (see `binder_base`); None or "none" for no link.
    """
    out, notebooks = Path(out), Path(notebooks)
    base = binder_base(binder)
    found = {lang: sorted((notebooks / lang).glob("*.ipynb")) for lang in pages.LANGS}
    if not any(found.values()):
        raise ValueError(f"notebooks: no stored notebooks in {notebooks}/ko or {notebooks}/en; run "
                         "python tools/build_notebooks.py --execute first.")
    names = {lang: {p.stem for p in paths} for lang, paths in found.items()}
    _clear(out)
    _assets(out)
    editions, written = {}, {}
    for lang, paths in found.items():
        other = pages.OTHER[lang]
        stored = [(p.stem, notebook.read(p)) for p in paths]
        entries = [pages.Entry(name, notebook.title_of(nb, name),
                               f"../{other}/{name}.html" if name in names[other] else None) for name, nb in stored]
        editions[lang] = entries
        folder = out / lang
        (folder / "img").mkdir(parents=True)
        written[lang] = []
        for k, ((name, nb), entry) in enumerate(zip(stored, entries, strict=True)):
            body = notebook.Body(nb, name, lang, page.mount_html, page.config_from_model)
            html = body.html()
            for file, png in body.images:
                (folder / "img" / file).write_bytes(png)
            (folder / f"{name}.html").write_text(pages.notebook_page(
                lang, entry, html, previous=entries[k - 1] if k else None,
                following=entries[k + 1] if k + 1 < len(entries) else None, run=run_link(base, lang, name),
                scripts=bool(body.widgets)), encoding="utf-8")
            written[lang].append((name, tuple(body.widgets)))
        first_other = f"../{other}/index.html" if found[other] else None
        (folder / "index.html").write_text(pages.index_page(lang, entries, other=first_other,
                                                            run=run_link(base, lang, stored[0][0])), encoding="utf-8")
    (out / "index.html").write_text(pages.root_page({lang: e for lang, e in editions.items() if e}), encoding="utf-8")
    return written
