"""The site's pages around a notebook's body: the head, the top bar, the contents beside it, navigation, indexes.

Every page references the site's own files relatively (`assets/…` from the root, `../assets/…` from an edition's
folder), so the site works from any folder of any static host and from disk; nothing is loaded from elsewhere.
A notebook page is: the top bar (contents, search, the other edition, .ipynb, Binder, the theme's toggle); the
edition's contents at the side; the notebook; its own headings ("on this page"); previous / next.
"""

from dataclasses import dataclass
from html import escape

from ..look import words

LANGS = ("ko", "en")
OTHER = {"ko": "en", "en": "ko"}
# The page may load only its own site's files; inline styles are the heatmaps' colours.
# The search (Pagefind) runs WebAssembly, which CSP allows by 'wasm-unsafe-eval' (no eval of scripts).
CSP = ("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "  # data: the search box's icon
       "script-src 'self' 'wasm-unsafe-eval'")
SEARCH = "pagefind"  # the search index's folder at the site's root (python -m pagefind writes it)


@dataclass(frozen=True)
class Entry:
    """One notebook of one edition: its name (file stem), title, and the page of its other edition, if any."""

    name: str
    title: str
    other: str | None  # "../en/00_overview.html", or None when the other edition has no such notebook


def head(lang, title, prefix, *, widgets, search):  # -> the <head> … <body> opening
    """prefix: the way to the site's root ("" or "../"); widgets: load the front-end; search: load the search."""
    L = words.table(lang)
    styles = [f"{prefix}assets/attention_lab.css", f"{prefix}assets/site.css"]
    scripts = [f"{prefix}assets/site.js"]  # it loads the search's interface when the reader first uses the box
    if widgets:
        scripts.append(f"{prefix}assets/attention_lab.js")
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<title>{escape(title)}</title><link rel="icon" href="data:,">'  # no icon: no request for /favicon.ico
            + "".join(f'<link rel="stylesheet" href="{href}">' for href in styles)
            # The theme is set before the first paint (no flash of the other theme); the rest once the page is read.
            + f'<script src="{prefix}assets/theme.js"></script>'
            + "".join(f'<script src="{src}" defer></script>' for src in scripts)
            + f'</head><body class="al-site" data-copy="{escape(L["site_copy"])}" '
              f'data-copied="{escape(L["site_copied"])}">')


def _link(href, label, cls="", rel=None, lang=None):
    attrs = f' class="{cls}"' if cls else ""
    attrs += f' rel="{rel}"' if rel else ""
    attrs += f' hreflang="{lang}" lang="{lang}"' if lang else ""
    return f'<a href="{escape(href)}"{attrs}>{escape(label)}</a>'


def toggle(lang):  # -> the light / dark button (assets/theme.js)
    return (f'<button type="button" class="al-theme-toggle" aria-pressed="false">'
            f'{escape(words.table(lang)["theme_dark"])}</button>')


def bar(lang, *, other=None, run=None, download=None, search=False, home="index.html"):  # -> the top bar
    L = words.table(lang)
    other_lang = OTHER[lang]
    parts = [_link(home, L["site_name"], "site-name")]
    if search:
        parts.append(f'<div class="site-search" role="search" data-bundle="../{SEARCH}/">'
                     f'<input type="search" class="site-search-start" aria-label="{escape(L["site_search_label"])}" '
                     f'placeholder="{escape(L["site_search"])}"></div>')
    if other:
        parts.append(_link(other, words.table(other_lang)["site_language"], "site-lang", "alternate", other_lang))
    if download:
        parts.append(f'<a href="{escape(download)}" class="site-download" download>{escape(L["site_download"])}</a>')
    if run:
        parts.append(f'<a href="{escape(run)}" class="site-run" rel="external" title="{escape(L["site_run_note"])}">'
                     f'{escape(L["site_run"])}</a>')
    parts.append(toggle(lang))
    return f'<header class="site-bar"><nav aria-label="{escape(L["site_contents"])}">{"".join(parts)}</nav></header>'


def pager(lang, previous, following):  # -> previous / contents / next links, at the foot of a page
    L = words.table(lang)
    parts = []
    if previous:
        parts.append(f'<a rel="prev" class="site-prev" href="{escape(previous.name)}.html">'
                     f'<span>◀ {escape(L["site_previous"])}</span>{escape(previous.title)}</a>')
    parts.append(_link("index.html", L["site_home"], "site-home"))
    if following:
        parts.append(f'<a rel="next" class="site-next" href="{escape(following.name)}.html">'
                     f'<span>{escape(L["site_next"])} ▶</span>{escape(following.title)}</a>')
    return f'<nav class="site-pager" aria-label="{escape(L["site_previous"])} / {escape(L["site_next"])}">' \
           f'{"".join(parts)}</nav>'


def contents(entries, prefix="", current=None):  # -> <ul> of an edition's notebooks (their titles carry the number)
    items = []
    for e in entries:
        here = ' aria-current="page"' if e.name == current else ""
        items.append(f'<li><a href="{prefix}{escape(e.name)}.html"{here}>{escape(e.title)}</a></li>')
    return f'<ul class="site-toc">{"".join(items)}</ul>'


def side(lang, entries, current):  # -> the edition's contents beside the page (folded on a phone by site.js)
    L = words.table(lang)
    return (f'<details class="site-side" open><summary>{escape(L["site_contents"])}</summary>'
            f'<nav aria-label="{escape(L["site_contents"])}">{contents(entries, current=current)}</nav></details>')


def on_this_page(lang, headings):  # headings: [(level, id, text)] -> the page's own contents, or ""
    L = words.table(lang)
    items = "".join(f'<li class="site-h{level}"><a href="#{escape(id_)}">{escape(label)}</a></li>'
                    for level, id_, label in headings if level in (2, 3))
    if not items:
        return ""
    return (f'<details class="site-onpage" open><summary>{escape(L["site_on_this_page"])}</summary>'
            f'<nav aria-label="{escape(L["site_on_this_page"])}"><ul>{items}</ul></nav></details>')


def notebook_page(lang, entry, body, *, entries, headings, previous, following, run, widgets, search):  # -> str
    """One notebook's page: bar, the edition's contents, the notebook (what the search indexes), its headings."""
    return (head(lang, f"{entry.title} · attention-lab", "../", widgets=widgets, search=search)
            + bar(lang, other=entry.other, run=run, download=f"{entry.name}.ipynb", search=search)
            + '<div class="site-layout">' + side(lang, entries, entry.name)
            + f'<main class="site-main" id="main" data-notebook="{escape(entry.name)}" data-pagefind-body>{body}</main>'
            + on_this_page(lang, headings) + "</div>"
            + pager(lang, previous, following) + "</body></html>\n")


def index_page(lang, entries, *, other, run, search):  # -> str: one edition's contents
    L = words.table(lang)
    links = [_link(other, L["site_other_index"], lang=OTHER[lang])] if other else []
    if run:
        links.append(_link(run, L["site_run_index"], rel="external"))
    return (head(lang, L["site_name"], "../", widgets=False, search=search) + bar(lang, other=other, search=search)
            + f'<main class="site-main site-index" id="main"><h1>{escape(L["site_name"])}</h1>'
            + f'<p>{escape(L["site_intro"])}</p><h2>{escape(L["site_contents"])}</h2>'
            + f'{contents(entries)}<p class="site-links">{" · ".join(links)}</p></main></body></html>\n')


def root_page(editions, *, search):  # editions: {lang: [Entry]} -> str: the two editions side by side
    columns = []
    for lang, entries in editions.items():
        L = words.table(lang)
        first = f'<a href="{lang}/index.html">{escape(L["site_contents"])}</a>'
        columns.append(f'<section lang="{lang}" class="site-edition"><h2>{escape(L["site_language"])}</h2>'
                       f'<p>{escape(L["site_intro"])}</p><p>{first}</p>{contents(entries, f"{lang}/")}</section>')
    L = words.table(LANGS[0])
    return (head(LANGS[0], "attention-lab", "", widgets=False, search=False)
            + f'<header class="site-bar"><nav><span class="site-name">attention-lab</span>{toggle(LANGS[0])}</nav>'
            + f'</header><main class="site-main site-root" id="main"><h1>attention-lab</h1><p>{escape(L["site_both"])}'
            + f'</p><div class="site-editions">{"".join(columns)}</div></main></body></html>\n')
