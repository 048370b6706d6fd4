"""How feedback, hints and solutions are shown: HTML with code as code in a notebook, plain text elsewhere.

Text comes from the word table with code between backticks: HTML shows it as <code>, plain text drops the
backticks.
"""

import html
from dataclasses import dataclass

from ..look.colors import THEMES

# ✓ and ✗ in white on a chip of their own colour: the chip reads the same on a light and a dark notebook
# (white on the light theme's "good" and "bad" is 5.1:1 and 7.3:1), where a coloured mark on the notebook's own
# background cannot (no colour reads at 4.5:1 on both white and JupyterLab Dark). Fixed colours, not the theme's
# variables, because an output's inline style is all that reaches the page in every front-end.
MARKS = {"✓": THEMES["light"]["good"], "✗": THEMES["light"]["bad"]}


def plain(text):
    return text.replace("`", "")


def as_html(text):
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave it as it is
        parts = [text]
    body = "".join(html.escape(part, quote=False) if i % 2 == 0 else f"<code>{html.escape(part, quote=False)}</code>"
                   for i, part in enumerate(parts))
    for mark, colour in MARKS.items():
        if body.startswith(mark):
            body = (f'<strong style="color:#ffffff;background-color:{colour};padding:0 0.3em;border-radius:3px">'
                    f'{mark}</strong>{body[1:]}')
    return f'<div class="al-feedback">{body}</div>'


@dataclass(frozen=True)
class Feedback:
    """The answer `check` gave: truthy when right; `ok` is None when there is no answer yet.

    `check` has already shown it (`html`, with `text` as the plain-text fallback),
    so in a notebook this object displays nothing more; its repr is `text`.
    """

    exercise_id: str
    ok: object  # True, False, or None (not answered yet)
    text: str  # plain text
    html: str  # the same as HTML, code as <code>
    tries: int  # wrong answers to this exercise so far in this session (0 after a right one)
    named: str = ""  # what the feedback named, as a stable key (judge.named_key): "right", "mistake:sqrt_d", …

    def __bool__(self):
        return self.ok is True

    def __repr__(self):
        return self.text

    __str__ = __repr__

    def _ipython_display_(self):
        pass  # `check` has shown it already


@dataclass(frozen=True)
class Message:
    """Text to show in a notebook (a hint, a solution): Markdown, code as code, with a plain-text fallback."""

    markdown: str
    text: str

    def _repr_markdown_(self):
        return self.markdown

    def __repr__(self):
        return self.text

    __str__ = __repr__


def show(feedback):
    """Display a Feedback once: as HTML with a plain-text fallback in IPython, printed elsewhere."""
    try:
        from IPython import get_ipython
    except ImportError:  # no IPython at all: plain Python
        get_ipython = None
    if get_ipython is None or get_ipython() is None:
        print(feedback.text)
    else:
        from IPython.display import display

        display({"text/plain": feedback.text, "text/html": feedback.html}, raw=True)
