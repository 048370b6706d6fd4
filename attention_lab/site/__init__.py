"""Both editions of the notebooks as a static course site, live explorers and step widgets included.

    python -m attention_lab.site --out site/                 # then: python -m http.server -d site
    python -m attention_lab.site --out site/ --binder someone/fork   # "run this notebook" opens a fork on Binder

The pages are built from the stored, executed notebooks (`notebooks/ko/*.ipynb`, `notebooks/en/*.ipynb`): text,
code, figures with their captions, printed outputs, exercise feedback, solutions folded. Each explorer and step
widget is rebuilt from the notebook's stored widget state and runs in the page with no kernel; nothing is loaded
from outside the site (no CDN, no web font, no math renderer: the notebooks write formulas in Unicode).

    build      the command's work: pages, figures, the front-end bundle once, index pages
    notebook   one notebook as HTML (Markdown by mistune, code by Pygments, outputs, widgets)
    pages      the page around it: head, top bar, previous / next, the index pages
    site.css   the pages' styles (the widgets' are the bundle's)
"""

from .build import DEFAULT_BINDER, binder_base, build, run_link

__all__ = ["DEFAULT_BINDER", "binder_base", "build", "run_link"]
