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
               masks its mask control offers, "kv": offers K/V heads, "queries": offers T_q and the alignment,
               and what it draws and offers, computed in Python (views.view_data): "heads", "headStages",
               "traceStages", "compared", "picks"}
    viewName   the view's name ("softmax", "all", …, or "custom")
    state      the controls' values, control name -> value (live/state.py): what is on screen
    reset      the state entries that ↺ brings back (the article's example)
    data       the numbers, sent once (live/data.py): "article" (the example's corner and stream: compute.js grows it),
               "masks" (the tables of the masks offered), "sizes", or "own" ({"Q", "K", "V", "mask"}: your own;
               "tokens" too for the learned model, with "learned": its weights, live/learned.py)

A notebook's stored widget state (`nb.metadata.widgets`, the model of each explorer) holds `config`, `state`
and `own`: `config_from_model(model_state)` turns it back into a config (the view's flags computed again from its
items, by today's rules), so a site builder rebuilds each explorer of a stored notebook with no kernel.
"""

import base64
import functools
import gzip
import hashlib
import json
from html import escape
from pathlib import Path

from ..look import tables, words
from .data import look_data
from .views import View, view_data

HERE = Path(__file__).parent
# The front-end's files, in the order they are joined (each may use what the files before it define). A file
# that mounts something registers it as MOUNTS[kind] = (node, model) => view (MOUNTS is defined before them all).
FILES = ["formats.js", "colors.js", "compute.js", "state.js", "picture.js", "heatmap.js", "learned.js", "controls.js",
         "explorer.js", "mount.js", "steppers.js", "url.js"]
STYLES = ["explorer.css", "steppers.css"]  # after look.tables.CSS, which the static heatmaps share
# No request at all leaves a standalone page: scripts and styles inline only, nothing from the network or disk.
SCALE = (1, 3)  # a standalone page's presentation scale: --scale and #scale= (url.js), lowest and highest
SCALE_CHOICES = (1, 1.25, 1.5, 1.75, 2, 2.5, 3)  # the page's scale control (a link's or --scale's other value joins)
# The standalone page's own: its scale (zoom, from the root's --al-scale) and the link bar over the explorer.
# Zoom alone leaves a heatmap's headers (.9em of its cells) under 18 px at 1.5: --al-floor lifts them there, to 12 px
# (18 px once zoomed) from scale 1.5 up, and is 0 px, changing nothing, at scale 1.
LINK_CSS = (":root{--al-floor:min(12px,calc((var(--al-scale,1) - 1) * 24px))}body{zoom:var(--al-scale,1)}"
            ".al-grid th{font-size:max(.9em,var(--al-floor))}"
            ".al-page sub,.al-page sup{font-size:max(.83em,var(--al-floor))}"
            ".al-grid th.al-rowcap,.al-grid th.al-colcap{font-size:max(.85em,var(--al-floor))}"
            ".al-page-bar{gap:8px;align-items:center;flex-wrap:wrap}"
            ".al-page-bar{font-family:system-ui,-apple-system,\"Segoe UI\",Roboto,\"Noto Sans KR\",sans-serif}"
            ".al-link{font-size:14px}.al-link-field{font:inherit;width:24em;max-width:60vw;min-height:30px}"
            ".al-link-copy{font:inherit;font-size:14px;min-height:36px;padding:4px 12px;border-radius:6px;"
            "cursor:pointer;"
            "color:var(--al-theme-fg);background:var(--al-theme-panel);border:1px solid var(--al-theme-rule)}"
            ".al-link-said,.al-scale{font-size:14px}.al-scale-pick{font:inherit;min-height:36px}")
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


CHROME = ("page.css", "theme.js")  # what a whole page adds around the widgets: its theme and the theme's toggle


@functools.cache
def page_chrome():  # -> (css, js) of CHROME
    return tuple((HERE / name).read_text(encoding="utf-8") for name in CHROME)


@functools.cache
def module():  # -> str: the bundle as an ES module whose default export is anywidget's {render}
    return bundle()[0] + "\nexport default { render };\n"


def without_comments(js):  # -> str: `js` less its // comments, where nothing before one can open a string
    """What a stored widget carries (`esm`) needs no comments: 9 kB less a notebook. A comment goes where it fills its
    line, or where no quote, backtick or slash comes before it on the line; that is safe because no string, template
    or regular expression of the front-end's files runs over a line, and they have no /* comments
    (tests/test_page.py holds them to it)."""
    kept = []
    for line in js.splitlines(keepends=True):
        code, comment, _ = line.partition("  // ")
        if line.lstrip().startswith("//"):
            continue
        kept.append(code.rstrip() + "\n" if comment and not any(c in code for c in "'\"`/") else line)
    return "".join(kept)


@functools.cache
def esm():  # -> str: the ES module anywidget loads (loader.js): `module()` and the styles, gzipped in base64
    """What each widget carries and a stored notebook keeps: about a third of the module and styles' size.

    The bytes are the same for the same front-end (gzip's time stamp is 0), so a stored widget's module changes
    only when the front-end does, and KEY (a digest of them) lets every widget of a page share one unpacking."""
    packed = gzip.compress(json.dumps([without_comments(module()), bundle()[1]], ensure_ascii=False).encode(),
                           mtime=0)
    text = base64.b64encode(packed).decode("ascii")
    key = hashlib.sha256(packed).hexdigest()[:16]
    loader = (HERE / "loader.js").read_text(encoding="utf-8")
    return loader.replace("__PACKED__", text, 1).replace("__KEY__", key, 1)


def mount_html(config):  # -> str: an HTML fragment that the bundle mounts
    """A place for one explorer (or any mounted thing) in a page: its config travels inline, as JSON."""
    kind = config.get("kind", "explorer") if isinstance(config, dict) else None
    if not isinstance(kind, str):
        raise ValueError("config: must be a dict with a 'kind', e.g. Explorer.page_config().")
    return (f'<div class="al-mount" data-kind="{escape(kind)}"><script type="application/json" class="al-config">'
            f"{_json(config)}</script></div>")


def standalone_html(config, title=None, scale=1):  # -> str: a whole page that works from file://, offline
    """One self-contained HTML page of one explorer: script, styles and data inline, no network request.

    The page follows its address (url.js): #T=6&mask=sliding:window=2 opens that state, a move writes it, and a
    "copy link" button copies it. `scale` (SCALE[0] … SCALE[1]) enlarges everything for a projector: at 1.5 no text
    is under 18 px at 1920 × 1080."""
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not SCALE[0] <= scale <= SCALE[1]:
        raise ValueError(f"scale: give a number from {SCALE[0]} to {SCALE[1]} (1.5 for a projector), got {scale!r}.")
    js, css = bundle()
    page_css, page_js = page_chrome()
    lang = config.get("lang", "en")
    L = words.table(lang)
    title = title or L["explorer_label"]
    from ..exercises import drills  # here, not at the top: the exercises' package is not the front-end's

    article = config.get("kind", "explorer") == "explorer" and "learned" not in config.get("data", {})
    by_hand = drills.page_html(lang) if article else ""  # the article's exercises by hand, under its explorer
    link = (f'<label class="al-link">{escape(L["link_label"])} <input class="al-link-field" readonly></label>'
            f'<button type="button" class="al-link-copy">{escape(L["link_copy"])}</button>'
            '<span class="al-link-said" role="status" aria-live="polite"></span>'
            f'<label class="al-scale">{escape(L["scale_label"])} <select class="al-scale-pick">'
            + "".join(f'<option value="{s:g}"{" selected" * (s == scale)}>{s:g}×</option>'
                      for s in sorted({*SCALE_CHOICES, scale}))
            + "</select></label>")
    follow = _json({"lo": SCALE[0], "hi": SCALE[1], "start": scale})
    return (f'<!doctype html>\n<html lang="{escape(lang)}"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{css}{page_css}\n"
            f".al-page{{max-width:1400px;margin:0 auto;padding:8px 12px}}"
            f":root{{--al-scale:{scale:g}}}{LINK_CSS}</style>"
            f'<script>{page_js}</script></head><body><header class="al-page-bar">{link}'
            '<button type="button" class="al-theme-toggle" aria-pressed="false">'
            f'{escape(L["theme_dark"])}</button></header><main class="al-page"><h1 class="al-h1">'
            f'{escape(title)}</h1>{mount_html(config)}{by_hand}</main>'
            f'<script type="module">{js}\nmountAll(document);\nfollowLink(document, {follow});</script>'
            "</body></html>\n")


def config_from_model(model_state):  # -> config
    """The config of an explorer from its widget model's state (what a stored notebook keeps)."""
    bad = ValueError("model_state: must be an explorer model's state, a dict with 'config' and 'state'.")
    if not isinstance(model_state, dict) or not isinstance(model_state.get("config"), dict):
        raise bad
    config = dict(model_state["config"])
    config["state"] = model_state.get("state") or config.get("state")
    view = config.get("view")
    if view is not None:  # what it draws and offers by today's rules, as the bundle reads them: a stored notebook
        # keeps the view's flags of the day it ran (or none, from before they were sent)
        try:
            config["view"] = view_data(View(View.of(view["items"]).items, view["mask"], tuple(view["masks"]),
                                            bool(view["kv"]), bool(view["queries"])))
        except (KeyError, TypeError, ValueError):
            raise ValueError("model_state: must be an explorer model's state, its config's view a view's data "
                             "(items, mask, masks, kv, queries), as views.view_data writes it.") from None
    own = model_state.get("own")
    if own:
        if not (isinstance(own, dict) and isinstance(config.get("data"), dict)
                and isinstance(config["data"].get("own", {}), dict)):
            raise bad  # a learner's own rows and the data they go into are tables of names
        config["data"] = {**config["data"], "own": {**config["data"].get("own", {}), **own}}
    return config
