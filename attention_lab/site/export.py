"""One stored notebook as one HTML file that opens offline: python -m attention_lab.site.export NOTEBOOK [--out FILE]

The same page as the course site's, made self-contained: figures inline (data: URLs) with their captions as alt
text, the explorers and step widgets live from the notebook's stored widget state (the front-end inline, nothing
from a CDN), code, printed text and exercise feedback; light or dark as the reader's system prefers, with the
toggle. Where the browser runs no script, each widget's place says so in one line. `jupyter nbconvert --to html`
of the same notebook loads the widget manager from the network instead.
"""

import sys
from html import escape
from pathlib import Path

from ..exercises import drills
from ..figures.options import _Parser, command_status
from ..live import page
from ..look import words
from . import notebook, pages
from .build import _body, front_end, requires, site_css

# Inline scripts and styles only; figures are data: URLs; no request at all.
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


def edition_of(path, nb):  # -> "ko" | "en": the folder it is in (notebooks/ko/…), else the notebook's own LANG
    if path.parent.name in pages.LANGS:
        return path.parent.name
    first = next((notebook.source(c) for c in nb["cells"] if c.get("cell_type") == "code"), "")
    return "ko" if 'LANG = "ko"' in first else "en"


def export_html(path, lang=None):  # -> (html, figures, widgets)
    """The notebook at `path` as one offline HTML page (a str), with how many figures and widgets it holds."""
    requires()
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"notebook: {path} is not a file; give a stored notebook, e.g. "
                         "notebooks/ko/07_explorer.ipynb.")
    lang = lang or edition_of(path, notebook.read(path))
    title, html, body = _body(path, lang, None, inline=True)  # refused as the site refuses it, naming the file
    drill_file = f'<script src="{drills.SITE_SCRIPT}" defer></script>'  # a site page loads a file; here: inline
    drill_script = f"<script>{drills.assets()[0]}</script>" if drill_file in html else ""
    html = html.replace(drill_file, "")
    L = words.table(lang)
    toc = pages.on_this_page(lang, body.headings)
    document = (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
                f'<title>{escape(title)}</title><link rel="icon" href="data:,">'
                f"<style>{page.bundle()[1]}\n{site_css()}</style><script>{page.page_chrome()[1]}</script></head>"
                f'<body class="al-site"><header class="site-bar"><nav><span class="site-name">'
                f'{escape(L["site_name"])}</span>{pages.toggle(lang)}</nav></header>'
                f'<div class="site-layout site-export">{toc}<main class="site-main" id="main">{html}</main></div>'
                f"<script>{front_end()}</script>{drill_script}</body></html>\n")
    return document, len(body.images), sum(1 for k in body.widgets if k)


def main(argv=None):
    """Write the file; print one line saying what it holds; return 0, or 2 with a one-line message on stderr."""
    parser = _Parser(prog="python -m attention_lab.site.export",
                     description="Write one stored notebook as one HTML file that opens offline, widgets live.")
    parser.add_argument("notebook", help="the stored notebook, e.g. notebooks/ko/07_explorer.ipynb")
    parser.add_argument("--out", help="the HTML file to write (default: the notebook's name with .html, here)")
    parser.add_argument("--lang", choices=pages.LANGS, help="the page's language (default: the notebook's folder)")

    def body():
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
        out = Path(args.out or Path(args.notebook).with_suffix(".html").name)
        if out.is_dir():
            raise ValueError(f"out: {out} is a folder; give a file name, e.g. --out 07_explorer.html.")
        document, figures, widgets = export_html(args.notebook, args.lang)
        out.write_text(document, encoding="utf-8")
        lang = args.lang or edition_of(Path(args.notebook), notebook.read(Path(args.notebook)))
        print(words.say("export_written", lang, path=out, size=round(out.stat().st_size / 1024), figures=figures,
                       widgets=widgets))

    return command_status(body, "the HTML file")


if __name__ == "__main__":
    sys.exit(main())
