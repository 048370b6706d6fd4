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
import json
import re
import struct
from html import escape

from ..exercises.drills import exercise_cell
from ..look import words as text

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
CAPTION_START = re.compile(r"^\*\*[^*\n]+\*\*")  # a caption opens in bold: "**그림.** …", "**Figure.** …"
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # a traceback's colours
NOTEBOOK_LINK = re.compile(r"^(?![a-z][a-z0-9+.-]*:|/|#)([^?#]*?)\.ipynb(#.*)?$", re.I)  # relative links only


def read(path):  # -> dict: the notebook's JSON
    """A stored notebook (nbformat 4) as the dict it is."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(nb, dict) or nb.get("nbformat") != 4 or not isinstance(nb.get("cells"), list):
        raise ValueError(f"{path}: not a notebook of nbformat 4 (a JSON object with 'cells').")
    return nb


def source(cell):  # -> str
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


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


def markdown():  # -> a function str -> HTML
    """Markdown as the notebooks write it: raw HTML kept (<details>), tables, links to notebooks made pages'."""
    try:
        import mistune
    except ImportError:  # it comes with nbconvert (the "lab" and "test" extras)
        raise SystemExit("attention_lab.site needs mistune (it comes with JupyterLab's nbconvert): "
                         "pip install -e '.[lab]'") from None

    class Renderer(mistune.HTMLRenderer):
        def link(self, text, url, title=None):
            return super().link(text, page_link(url), title)

        def block_code(self, code, info=None):
            return highlight(code, (info or "").split()[0] if info else "python")

        def heading(self, text, level, **attrs):
            self.count = getattr(self, "count", 0) + 1
            return f'<h{level} id="s{self.count}">{text}</h{level}>\n'

    return mistune.create_markdown(renderer=Renderer(escape=False), plugins=["table", "strikethrough"])


def png_size(data):  # PNG bytes -> (width, height) from its IHDR chunk
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("image: a stored image/png output is not a PNG.")
    return struct.unpack(">II", data[16:24])


class Body:
    """The HTML of one notebook's cells; `images` collects the figures to write: [(file name, PNG bytes)]."""

    def __init__(self, nb, name, lang, mount_html, config_from_model):
        self.nb, self.name, self.lang, self.L = nb, name, lang, text.table(lang)
        self.md = markdown()
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
                out.append(f'<div class="nb-md">{self.md(source(cell))}</div>')
            elif (drill := exercise_cell(source(cell), self.lang)) is not None:
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
            return self._figure(base64.b64decode(source({"source": data["image/png"]})), stem, caption)
        if "text/html" in data:
            return f'<div class="nb-html">{source({"source": data["text/html"]})}</div>'
        if "text/plain" in data:
            return f'<pre class="nb-text">{escape(source({"source": data["text/plain"]}))}</pre>'
        return ""

    def _figure(self, png, stem, caption):
        file = f"{stem}.png"
        self.images.append((file, png))
        width, height = png_size(png)
        caption_html = self.md(caption).strip() if caption else ""
        alt = re.sub(r"<[^>]+>", "", caption_html).strip() or self.L["site_output"]
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
            return f'<div class="nb-widget">{self.mount_html(config)}</div>'
        self.widgets.append(None)
        what = model.get("model_name", "?") if isinstance(model, dict) else "no stored state"
        note = escape(self.L["site_static_widget"].format(what=what))
        return f'<div class="nb-widget nb-static"><p class="nb-note">{note}</p></div>'
