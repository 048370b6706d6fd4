"""The front-end as one bundle, and pages that mount it: in a notebook (anywidget), in any page, or on its own.

The front-end is plain JavaScript files in this folder, listed once in `FILES`, joined in that order into one
script (no build step, no import between them: they share one module scope). `bundle()` gives that script and
the styles as strings, one copy per page or site; the script defines `attentionLab.mount(node, config)` and
mounts every `<div class="al-mount">` of the page that `mount_html(config)` wrote.

    from attention_lab.live import page
    js, css = page.bundle()
    fragment = page.mount_html(config)            # an HTML fragment; the bundle mounts it
    html = page.standalone_html(config)           # one self-contained file: script, styles and data inline

A config is a dict of JSON types; every mounted thing has one. Its fields for an explorer (see
`Explorer.page_config()`, and `config_from_model` for a notebook's stored widget state):

    kind       "explorer" (what `attentionLab.mount` builds: MOUNTS in mount.js; the steppers add theirs)
    lang       "ko" or "en"
    view       {"items": [stage, breakdown and section names], "mask": the mask it starts with, "masks": the
               masks its mask control offers, "kv": offers K/V heads, "queries": offers T_q and the alignment}
    viewName   the view's name ("softmax", "all", …, or "custom")
    state      the controls' values, control name -> value (live/state.py): what is on screen
    reset      the state entries that ↺ brings back (the article's example)
    data       the numbers, sent once (live/data.py): "article" (the example's values at the largest sizes),
               "masks" (the tables of the masks offered), "sizes", or "own" ({"Q", "K", "V", "mask"}: your own;
               "tokens" too for the learned model, with "learned": its weights, live/learned.py)

A notebook's stored widget state (`nb.metadata.widgets`, the model of each explorer) holds `config`, `state`
and `own`: `config_from_model(model_state)` turns it back into a config, so a site builder rebuilds each
explorer of a stored notebook with no kernel.
"""

import functools
import json
from html import escape
from pathlib import Path

from ..look import tables
from ..look import words as text
from .data import look_data

HERE = Path(__file__).parent
# The front-end's files, in the order they are joined (each may use what the files before it define). A file
# that mounts something registers it as MOUNTS[kind] = (node, model) => view (MOUNTS is defined before them all).
FILES = ["formats.js", "colors.js", "compute.js", "state.js", "picture.js", "heatmap.js", "learned.js", "controls.js",
         "explorer.js", "mount.js", "steppers.js"]
STYLES = ["explorer.css", "steppers.css"]  # after look.tables.CSS, which the static heatmaps share
# No request at all leaves a standalone page: scripts and styles inline only, nothing from the network or disk.
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


def _json(value):  # JSON that is safe inside a <script> element: no "<" at all, so no "</script>" and no "<!--"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


@functools.cache
def bundle():  # -> (js, css)
    """The front-end's script (the visual language as data first, then FILES) and its styles."""
    parts = [f"const LOOK = {_json(look_data())};", "const MOUNTS = {};  // config.kind -> (node, model) => view"]
    parts += [f"// ==== {name} ====\n" + (HERE / name).read_text(encoding="utf-8") for name in FILES]
    css = tables.CSS + "".join((HERE / name).read_text(encoding="utf-8") for name in STYLES)
    return "\n".join(parts), css


@functools.cache
def page_chrome():  # -> (css, js): what a whole page adds around the widgets: its theme and the theme's toggle
    return tuple((HERE / name).read_text(encoding="utf-8") for name in ("page.css", "theme.js"))


@functools.cache
def esm():  # -> str: the bundle as the ES module anywidget loads
    return bundle()[0] + "\nexport default { render };\n"


def mount_html(config):  # -> str: an HTML fragment that the bundle mounts
    """A place for one explorer (or any mounted thing) in a page: its config travels inline, as JSON."""
    kind = config.get("kind", "explorer") if isinstance(config, dict) else None
    if not isinstance(kind, str):
        raise ValueError("config: must be a dict with a 'kind', e.g. Explorer.page_config().")
    return (f'<div class="al-mount" data-kind="{escape(kind)}"><script type="application/json" class="al-config">'
            f"{_json(config)}</script></div>")


def standalone_html(config, title=None):  # -> str: a whole page that works from file://, offline
    """One self-contained HTML page of one explorer: script, styles and data inline, no network request."""
    js, css = bundle()
    page_css, page_js = page_chrome()
    lang = config.get("lang", "en")
    words = look_data()["words"][lang]
    title = title or words["explorer_label"]
    from ..exercises import drills  # here, not at the top: the exercises' package is not the front-end's

    article = config.get("kind", "explorer") == "explorer" and "learned" not in config.get("data", {})
    by_hand = drills.page_html(lang) if article else ""  # the article's exercises by hand, under its explorer
    return (f'<!doctype html>\n<html lang="{escape(lang)}"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{css}{page_css}\n"
            f".al-page{{max-width:1400px;margin:0 auto;padding:8px 12px}}</style><script>{page_js}</script></head>"
            f'<body><div class="al-page-bar"><button type="button" class="al-theme-toggle" aria-pressed="false">'
            f'{escape(text.table(lang)["theme_dark"])}</button></div><main class="al-page"><h1 class="al-h1">'
            f'{escape(title)}</h1>{mount_html(config)}{by_hand}</main>'
            f'<script type="module">{js}\nmountAll(document);</script>'
            "</body></html>\n")


def config_from_model(model_state):  # -> config
    """The config of an explorer from its widget model's state (what a stored notebook keeps)."""
    if not isinstance(model_state, dict) or not isinstance(model_state.get("config"), dict):
        raise ValueError("model_state: must be an explorer model's state, a dict with 'config' and 'state'.")
    config = dict(model_state["config"])
    config["state"] = model_state.get("state") or config.get("state")
    own = model_state.get("own")
    if own:
        config["data"] = {**config["data"], "own": {**config["data"].get("own", {}), **own}}
    return config
