"""What a page without a kernel (the course site, the one-file export) shows for a notebook's exercises.

Markdown that holds only with a kernel ("run the cell") sits in a `KERNEL_ONLY` block, which such a page leaves
out; an exercise's code cell becomes its drill (`drills.cell_html`), or a line that says where it is done.
"""

import html
import re

from ..look import words
from .drills import cell_html

KERNEL_ONLY = '<div class="al-kernel">'  # opens Markdown that holds only in a notebook with a kernel ("run the cell")
_KERNEL_BLOCK = re.compile(r'<div class="al-kernel">.*?</div>\n?', re.S)


def without_kernel(markdown):  # -> the Markdown a page without a kernel shows: its al-kernel blocks left out
    return _KERNEL_BLOCK.sub("", markdown)


def elsewhere_html(lang, file, run=None, download=None):  # -> HTML: where an exercise with no drill is done
    """The line that stands in for an exercise's code cell when it has no drill: it is done in code, in the
    notebook with Python; with the page's links (Binder, the .ipynb) where it has them, else the notebook's name."""
    L = words.table(lang)
    links = [f'<a href="{html.escape(url)}"{extra}>{html.escape(L[key])}</a>'
             for url, key, extra in ((run, "drill.elsewhere_binder", ' rel="external"'),
                                     (download, "drill.elsewhere_download", " download")) if url]
    if not links:
        return f'<p class="al-elsewhere">{html.escape(L["drill.elsewhere_file"].format(file=file))}</p>'
    return f'<p class="al-elsewhere">{html.escape(L["drill.elsewhere"])} {" · ".join(links)}</p>'


def exercise_cell(code, lang, file="", run=None, download=None):  # -> HTML for an exercise's cell, or None
    """On a page without a kernel, an exercise's cell (`ex.check("NN.name", …)`) becomes its drill, or the line
    that says where it is done (`elsewhere_html`); None for any other cell. No page asks its reader to run a cell."""
    found = re.search(r'ex\.check\("(\d\d\.\w+)", answer', code)
    if found is None:
        return None
    return cell_html(found.group(1), lang) or elsewhere_html(lang, file, run, download)
