"""The site's pages around a notebook's body: the head (styles, the one script), navigation, index pages.

Every page references the site's own files relatively (`assets/…` from the root, `../assets/…` from an edition's
folder), so the site works from any folder of any static host and from disk; nothing is loaded from elsewhere.
"""

from dataclasses import dataclass
from html import escape

from ..look import words as text

LANGS = ("ko", "en")
OTHER = {"ko": "en", "en": "ko"}
# The page may load only its own site's files; inline styles are the heatmaps' colours; data: is not needed.
CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; script-src 'self'"


@dataclass(frozen=True)
class Entry:
    """One notebook of one edition: its name (file stem), title, and the page of its other edition, if any."""

    name: str
    title: str
    other: str | None  # "../en/00_overview.html", or None when the other edition has no such notebook


def head(lang, title, prefix, scripts):  # -> the <head> … <body> opening
    script = f'<script src="{prefix}assets/attention_lab.js" defer></script>' if scripts else ""
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f"<title>{escape(title)}</title>"
            f'<link rel="stylesheet" href="{prefix}assets/attention_lab.css">'
            f'<link rel="stylesheet" href="{prefix}assets/site.css">{script}</head><body>')


def _link(href, label, cls="", rel=None, lang=None):
    attrs = f' class="{cls}"' if cls else ""
    attrs += f' rel="{rel}"' if rel else ""
    attrs += f' hreflang="{lang}" lang="{lang}"' if lang else ""
    return f'<a href="{escape(href)}"{attrs}>{escape(label)}</a>'


def bar(lang, *, other=None, run=None):  # -> the top bar: site name (contents), the other edition, Binder
    L = text.table(lang)
    other_lang = OTHER[lang]
    parts = [_link("index.html", L["site_name"], "site-name")]
    if other:
        parts.append(_link(other, text.table(other_lang)["site_language"], "site-lang", "alternate", other_lang))
    if run:
        parts.append(f'<a href="{escape(run)}" class="site-run" rel="external" title="{escape(L["site_run_note"])}">'
                     f'{escape(L["site_run"])}</a>')
    return f'<header class="site-bar"><nav aria-label="{escape(L["site_contents"])}">{"".join(parts)}</nav></header>'


def pager(lang, previous, following):  # -> previous / contents / next links, at the foot of a page
    L = text.table(lang)
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


def notebook_page(lang, entry, body, *, previous, following, run, scripts):  # -> str: one notebook's page
    return (head(lang, f"{entry.title} · attention-lab", "../", scripts)
            + bar(lang, other=entry.other, run=run)
            + f'<main class="site-main" data-notebook="{escape(entry.name)}">{body}</main>'
            + pager(lang, previous, following) + "</body></html>\n")


def index_page(lang, entries, *, other, run):  # -> str: one edition's contents
    L = text.table(lang)
    items = "".join(f'<li><a href="{escape(e.name)}.html">{escape(e.title)}</a></li>' for e in entries)
    links = [_link(other, L["site_other_index"], lang=OTHER[lang])] if other else []
    if run:
        links.append(_link(run, L["site_run_index"], rel="external"))
    return (head(lang, L["site_name"], "../", False) + bar(lang, other=other, run=None)
            + f'<main class="site-main site-index"><h1>{escape(L["site_name"])}</h1>'
            + f'<p>{escape(L["site_intro"])}</p><h2>{escape(L["site_contents"])}</h2>'
            + f'<ol class="site-toc">{items}</ol><p class="site-links">{" · ".join(links)}</p></main></body></html>\n')


def root_page(editions):  # editions: {lang: [Entry]} -> str: the two editions side by side
    columns = []
    for lang, entries in editions.items():
        L = text.table(lang)
        first = f'<a href="{lang}/index.html">{escape(L["site_contents"])}</a>'
        items = "".join(f'<li><a href="{lang}/{escape(e.name)}.html">{escape(e.title)}</a></li>' for e in entries)
        columns.append(f'<section lang="{lang}" class="site-edition"><h2>{escape(L["site_language"])}</h2>'
                       f'<p>{escape(L["site_intro"])}</p><p>{first}</p><ol class="site-toc">{items}</ol></section>')
    L = text.table(LANGS[0])
    return (head(LANGS[0], "attention-lab", "", False)
            + f'<main class="site-main site-root"><h1>attention-lab</h1><p>{escape(L["site_both"])}</p>'
            + f'<div class="site-editions">{"".join(columns)}</div></main></body></html>\n')
