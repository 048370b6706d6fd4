"""One stored, executed notebook as the body of a page: its Markdown, code, outputs, figures and live widgets.

Markdown becomes HTML with mistune (links to other notebooks, `NN_name.ipynb`, become their pages,
`NN_name.html`); code is highlighted by Pygments into classes the site's stylesheet colours; a figure (a PNG
output) is written as a file beside the page and put in a <figure> with the caption the notebook writes under it
(a Markdown cell that starts in bold, right after the figure's cell). Printed text stays text; HTML outputs (the
exercises' feedback) are kept as they are; solutions stay in their <details>. A widget output is rebuilt from the
notebook's stored widget state (`nb.metadata.widgets`): a model whose state holds a `config` (the explorer and
the step widgets) is mounted by the front-end bundle (live/page.py), with no kernel; any other widget gets a
note saying why it does not move here.
"""

import base64
import binascii
import json
import posixpath
import re
import struct
from html import escape
from html.parser import HTMLParser

from ..exercises.no_kernel import exercise_cell, without_kernel
from ..look import words

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
CAPTION_START = re.compile(r"^\*\*[^*\n]+\*\*")  # a caption opens in bold: "**그림.** …", "**Figure.** …"
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # a traceback's colours
NOTEBOOK_LINK = re.compile(r"^(?![a-z][a-z0-9+.-]*:|/|#)([^?#]*?)\.ipynb(#.*)?$", re.I)  # relative links only


def read(path):  # -> dict: the notebook's JSON, its shape checked
    """A stored notebook (nbformat 4) as the dict it is; a ValueError naming the file and what is wrong otherwise."""
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not a notebook (not JSON text: {e}).") from None
    if not isinstance(nb, dict) or nb.get("nbformat") != 4 or not isinstance(nb.get("cells"), list):
        raise ValueError(f"{path}: not a notebook of nbformat 4 (a JSON object with 'cells').")
    problem = _odd(nb)
    if problem:
        raise ValueError(f"{path}: {problem}; write it again with python tools/build_notebooks.py --execute NAME.")
    return nb


def _is_text(value):  # a notebook's text: a string, or a list of strings (its lines)
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(x, str) for x in value))


def _odd(nb):  # -> what in the notebook's shape the site cannot show, or None
    """nbformat 4's shape, as far as the pages read it (nbformat's own validator needs jsonschema, not installed)."""
    if not isinstance(nb.get("metadata", {}), dict):
        return "its metadata is not an object"
    widgets = nb.get("metadata", {}).get("widgets", {})
    if not isinstance(widgets, dict) or not isinstance(widgets.get(WIDGET_STATE, {}), dict) \
            or not isinstance(widgets.get(WIDGET_STATE, {}).get("state", {}), dict):
        return "its stored widget state is not an object of models"
    for k, cell in enumerate(nb["cells"]):
        where = f"cell {k + 1}"
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            return f"{where} is not a cell (an object with a cell_type)"
        if not _is_text(cell.get("source", "")):
            return f"{where}: its source is not text"
        outputs = cell.get("outputs", [])
        if not isinstance(outputs, list):
            return f"{where}: its outputs are not a list"
        for n, output in enumerate(outputs):
            if not isinstance(output, dict) or not isinstance(output.get("output_type"), str):
                return f"{where}, output {n + 1} is not an output (an object with an output_type)"
            data = output.get("data", {})
            if not isinstance(data, dict) or not all(_is_text(v) for k, v in data.items()
                                                     if k.startswith("text/") or k.startswith("image/")):
                return f"{where}, output {n + 1}: its data is not an object of text"
            if not _is_text(output.get("text", "")) or not _is_text(output.get("traceback", [])):
                return f"{where}, output {n + 1}: its text is not text"
            if WIDGET_VIEW in data and not isinstance(data[WIDGET_VIEW], dict):
                return f"{where}, output {n + 1}: its widget view is not an object"
    return None


def source(cell):  # -> str
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


# What a notebook's Markdown or HTML output may not bring into a page: anything that runs, loads, navigates or
# embeds (a <meta http-equiv="refresh"> moves the reader away; CSP stops a script, not that). Their content goes too.
DROPPED = {"script", "style", "meta", "link", "base", "iframe", "frame", "frameset", "object", "embed", "applet",
           "form", "noscript", "template", "svg", "math", "portal"}
VOID = {"area", "br", "col", "hr", "img", "input", "source", "track", "wbr", "meta", "link", "base", "embed"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "srcset", "poster", "background"}


class _Clean(HTMLParser):
    """HTML as written, less DROPPED elements (with their content), on… handlers and script: or data: URLs."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.out, self.dropping = [], []

    def _attrs(self, attrs):
        kept = []
        for name, value in attrs:
            plain = re.sub(r"[\s\x00-\x1f]", "", value or "").lower()
            if name.startswith("on") or name in ("srcdoc", "http-equiv") or (
                    name in URL_ATTRIBUTES and plain.startswith(("javascript:", "vbscript:", "data:"))):
                continue
            kept.append(f" {name}" if value is None else f' {name}="{escape(value)}"')
        return "".join(kept)

    def handle_starttag(self, tag, attrs):
        if tag in DROPPED:
            if tag not in VOID:
                self.dropping.append(tag)
        elif not self.dropping:
            self.out.append(f"<{tag}{self._attrs(attrs)}>")

    def handle_startendtag(self, tag, attrs):
        if tag not in DROPPED and not self.dropping:
            self.out.append(f"<{tag}{self._attrs(attrs)}>")

    def handle_endtag(self, tag):
        if tag in DROPPED:
            if tag in self.dropping:
                while self.dropping and self.dropping.pop() != tag:
                    pass
        elif not self.dropping:
            self.out.append(f"</{tag}>")

    def _text(self, data):
        if not self.dropping:
            self.out.append(data)

    handle_data = _text

    def handle_entityref(self, name):
        self._text(f"&{name};")

    def handle_charref(self, name):
        self._text(f"&#{name};")

    def handle_comment(self, data):
        pass


def clean(html):  # -> str: the HTML with nothing that runs, loads, navigates or embeds
    parser = _Clean()
    parser.feed(html)
    parser.close()
    return "".join(parser.out)


def title_of(nb, fallback):  # -> the text of the notebook's first "# " heading
    for cell in nb["cells"]:
        if cell.get("cell_type") == "markdown":
            found = re.search(r"^# +(.+?)\s*$", source(cell), re.M)
            if found:
                return re.sub(r"\*\*|__|`", "", found.group(1))  # the heading's text without its emphasis
    return fallback


def page_link(url):  # "01_heads.ipynb" -> "01_heads.html"; "../en/00_overview.ipynb#x" -> "../en/00_overview.html#x"
    found = NOTEBOOK_LINK.match(url)
    return f"{found.group(1)}.html{found.group(2) or ''}" if found else url


def highlight(code, language="python"):  # -> HTML: the code highlighted, in <pre class="al-code">
    from pygments import highlight as colour
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        lexer = get_lexer_by_name(language or "text")
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    return f'<pre class="al-code"><code>{colour(code, lexer, HtmlFormatter(nowrap=True))}</code></pre>'


def markdown(headings=None, in_site=None):  # -> a function str -> HTML
    """Markdown as the notebooks write it: raw HTML kept (<details>, cleaned), tables, links to notebooks made
    pages'; each heading gets an id (s1, s2, … in the page's order).

    headings: a list that collects (level, id, text); in_site: url -> whether a notebook link's page is in the site
    (a link to a notebook that is not, say of a missing edition, becomes its text alone)."""
    import mistune  # build.requires() has said what to install if it is missing

    class Renderer(mistune.HTMLRenderer):
        def link(self, text, url, title=None):
            if in_site is not None and NOTEBOOK_LINK.match(url) and not in_site(url):
                return text
            return super().link(text, page_link(url), title)

        def block_code(self, code, info=None):
            return highlight(code, (info or "").split()[0] if info else "python")

        def heading(self, text, level, **attrs):
            self.count = getattr(self, "count", 0) + 1
            if headings is not None:
                headings.append((level, f"s{self.count}", re.sub(r"<[^>]+>", "", text).strip()))
            return f'<h{level} id="s{self.count}">{text}</h{level}>\n'

    render = mistune.create_markdown(renderer=Renderer(escape=False), plugins=["table", "strikethrough"])
    return lambda md: clean(render(md))


def png_size(data):  # PNG bytes -> (width, height) from its IHDR chunk
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24 or data[12:16] != b"IHDR":
        raise ValueError("image: a stored image/png output is not a PNG.")
    width, height = struct.unpack(">II", data[16:24])
    if not (width and height):
        raise ValueError("image: a stored image/png output has no pixels.")
    return width, height


class Body:
    """The HTML of one notebook's cells; `images` collects the figures to write: [(file name, PNG bytes)]."""

    def __init__(self, nb, name, lang, mount_html, config_from_model, pages=None, inline=False, run=None):
        """pages: the site's notebook pages as "ko/00_overview", …, to drop links to a notebook the site lacks;
        inline: figures as data: URLs inside the HTML (one file), not files beside the page; run: the page's
        Binder link, if any (an exercise with no drill says where it is done)."""
        self.inline, self.run = inline, run
        self.nb, self.name, self.lang, self.L = nb, name, lang, words.table(lang)
        self.headings = []  # (level, id, text) of each Markdown heading, for the page's own contents
        self.md = markdown(self.headings, None if pages is None else lambda url: posixpath.normpath(
            posixpath.join(lang, NOTEBOOK_LINK.match(url).group(1))) in pages)
        self.images = []
        self.mount_html, self.config_from_model = mount_html, config_from_model
        stored = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {})
        self.models = stored.get("state", {}) if isinstance(stored, dict) else {}
        self.widgets = []  # the kind of each widget output, in order ("explorer", "decode", …, or None: static)

    def html(self):  # -> str
        cells, out, skip = self.nb["cells"], [], False
        for k, cell in enumerate(cells):
            if skip:
                skip = False
                continue
            kind = cell.get("cell_type")
            if kind == "markdown":
                out.append(f'<div class="nb-md">{self.md(without_kernel(source(cell)))}</div>')
            elif (drill := exercise_cell(source(cell), self.lang, f"{self.name}.ipynb", self.run,
                                         None if self.inline else f"{self.name}.ipynb")) is not None:
                out.append(drill)  # an exercise's cell: done by hand here (exercises/drills.py)
            elif kind == "code":
                after = cells[k + 1] if k + 1 < len(cells) else None
                caption = None
                if self._has_image(cell) and after and after.get("cell_type") == "markdown" \
                        and CAPTION_START.match(source(after)):
                    caption, skip = source(after), True
                out.append(self._code(cell, k, caption))
        return "\n".join(out)

    @staticmethod
    def _has_image(cell):
        return any("image/png" in o.get("data", {}) for o in cell.get("outputs", []))

    def _code(self, cell, k, caption):
        parts = [f'<div class="nb-cell" id="cell-{k}">', highlight(source(cell))]
        for n, output in enumerate(cell.get("outputs", [])):
            parts.append(self._output(output, f"{self.name}-{k}-{n}", caption))
        parts.append("</div>")
        return "".join(parts)

    def _output(self, output, stem, caption):
        kind = output.get("output_type")
        if kind == "stream":
            return f'<pre class="nb-stream">{escape(source({"source": output.get("text", "")}))}</pre>'
        if kind == "error":
            lines = "\n".join(output.get("traceback", [])) or f"{output.get('ename')}: {output.get('evalue')}"
            return f'<pre class="nb-error">{escape(ANSI.sub("", lines))}</pre>'
        data = output.get("data", {})
        if WIDGET_VIEW in data:
            return self._widget(data[WIDGET_VIEW].get("model_id"))
        if "image/png" in data:
            try:
                png = base64.b64decode(source({"source": data["image/png"]}), validate=False)
            except (binascii.Error, ValueError):
                raise ValueError("image: a stored image/png output is not base64 text.") from None
            return self._figure(png, stem, caption)
        if "text/html" in data:
            return f'<div class="nb-html">{clean(source({"source": data["text/html"]}))}</div>'
        if "text/plain" in data:
            return f'<pre class="nb-text">{escape(source({"source": data["text/plain"]}))}</pre>'
        return ""

    def _figure(self, png, stem, caption):
        file = f"{stem}.png"
        self.images.append((file, png))
        width, height = png_size(png)
        caption_html = self.md(caption).strip() if caption else ""
        alt = re.sub(r"<[^>]+>", "", caption_html).strip() or self.L["site_output"]
        if self.inline:
            img = (f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}" width="{width}" '
                   f'height="{height}" alt="{escape(alt)}">')
        else:
            img = (f'<a href="img/{escape(file)}"><img src="img/{escape(file)}" width="{width}" height="{height}" '
                   f'alt="{escape(alt)}" loading="lazy" decoding="async"></a>')  # the link: full size on a phone
        if not caption_html:
            return f'<figure class="nb-figure">{img}</figure>'
        inner = re.sub(r"^<p>(.*)</p>$", r"\1", caption_html, flags=re.S)
        return f'<figure class="nb-figure">{img}<figcaption>{inner}</figcaption></figure>'

    def _widget(self, model_id):
        model = self.models.get(model_id) if isinstance(model_id, str) else None
        state = model.get("state") if isinstance(model, dict) else None
        if isinstance(state, dict) and isinstance(state.get("config"), dict) and "kind" in state["config"]:
            config = self.config_from_model(state)
            self.widgets.append(config["kind"])
            fallback = escape(self.L["site_widget_fallback"])  # shown until the front-end mounts the widget
            return (f'<div class="nb-widget">{self.mount_html(config)}'
                    f'<p class="nb-note al-fallback">{fallback}</p></div>')
        self.widgets.append(None)
        what = model.get("model_name", "?") if isinstance(model, dict) else "no stored state"
        note = escape(self.L["site_static_widget"].format(what=what))
        return f'<div class="nb-widget nb-static"><p class="nb-note">{note}</p></div>'
