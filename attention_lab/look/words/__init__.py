"""The words of the package, in Korean and English, in one table: every label, caption and printed word.

Each entry is (Korean, English). The table is kept in a few files by where the
words are used, each defining WORDS, and merged here: every module of this
folder is a part, and a key defined twice is an error. For example:

    core        the registries: "stage.<name>", "mask.<name>", "mask.<name>.caption", "mask.<name>.used",
                "param.<mask>.<name>", "convention.<name>", "align.<corner>"
    live        the explorer, the breakdowns and the step widgets
    figures     the static figures: "fig_…"
    notebooks   what the notebooks print and draw: "nb_…"
    slips       the names of the exercises' known mistakes, as a class report lists them: "slip.<name>"
    classroom   the class report: "report.…", and a label for each generic key a verdict names, "named.<key>"

A new stage or mask is its registry entry and its words in `core`.

    from attention_lab.look import words
    words.table("ko")["query"]        # "Query 토큰"
    words.say("head_n", "en", n=2)     # "Head 2"
    words.ordinal(3, "ko")             # "세 번째"

A Korean particle after an inserted value is a particle field, `{name:을}`: the value, then 을 or 를 as the value is
read ("softmax를", "scale을"; closing marks may come between: "`{name:`을}"), by look.particles' one table; a
truth value is `{name:yes}`: 예 / 아니요, yes / no, never Python's True in a Korean line. `say` and every
`table(lang)[key].format(…)` fill them (and the page's fill, picture.js).

After adding a Korean word, re-make the figures' font subset (tools/subset_font.py).
"""

import functools
import importlib
import pkgutil
import re

import numpy as np

from ...numeric import checks
from .. import particles

LANGS = checks.LANGS  # ("ko", "en")
_COLUMN = {"ko": 0, "en": 1}
PARTS = tuple(importlib.import_module(f"{__name__}.{m.name}") for m in sorted(pkgutil.iter_modules(__path__),
                                                                                key=lambda m: m.name))


def _merged(parts):  # -> {key: (ko, en)}, refusing a key defined in two parts
    merged = {}
    for part in parts:
        for key, pair in part.WORDS.items():
            if key in merged:
                where = part.__name__.rsplit(".", 1)[-1]
                raise ValueError(f"words: {key!r} is defined twice (again in look/words/{where}.py).")
            if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(t, str) for t in pair)):
                raise ValueError(f"words: {key!r} must be a (Korean, English) pair of strings, got {pair!r:.60}.")
            merged[key] = pair
    return merged


WORDS = _merged(PARTS)


YES = {"ko": ("예", "아니요"), "en": ("yes", "no")}  # a truth value, {name:yes}
_YES_FIELD = re.compile(r"\{(\w+):yes\}")


class Template(str):
    """A word with particle fields ({name:을}) or truth-value fields ({name:yes}): its `format` fills them too."""

    def __new__(cls, text, lang):
        made = super().__new__(cls, text)
        made.lang = lang
        return made

    def format(self, *args, **values):
        text = _YES_FIELD.sub(lambda m: _yes(values[m[1]], self.lang, m[1]).replace("{", "{{"), str(self))
        return particles.resolve(text, values).format(*args, **values)


def _yes(value, lang, name):  # -> 예 / 아니요 (yes / no) for a truth value
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name}: a {{{name}:yes}} field takes True or False, got {value!r:.40}.")
    return YES[lang][0 if value else 1]


def _template(text, lang):  # -> text, as a Template where it has fields that plain str.format cannot fill
    return Template(text, lang) if particles.FIELD.search(text) or _YES_FIELD.search(text) else text


@functools.cache
def table(lang):  # -> {key: text} in one language
    """Every word of the package in one language ("ko" or "en"), by key."""
    column = _COLUMN[checks.lang(lang)]
    return {key: _template(pair[column], lang) for key, pair in WORDS.items()}


def say(key, lang, /, **values):  # -> str (key, lang positional: a word may have a {key} of its own)
    """One entry in `lang`, with its {placeholders} filled in."""
    text = table(lang).get(key)
    if text is None:
        raise ValueError(f"key: no word {key!r} in look.words.WORDS.")
    return text.format(**values) if values else text


_KO_ORDINALS = ("첫", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열")


def ordinal(n, lang):  # 1-based n -> "세 번째" / "3rd"
    """An ordinal as the language writes it: 첫 번째, 두 번째, …, 열여섯 번째; 1st, 2nd, 3rd, 4th, …"""
    n = checks.whole_number("n", n, 1)
    if checks.lang(lang) == "ko":
        if n <= 10:
            return f"{_KO_ORDINALS[n - 1]} 번째"
        if n < 20:
            ones = "한" if n == 11 else _KO_ORDINALS[n - 11]  # 열한, 열두, 열세, …
            return f"열{ones} 번째"
        return f"{n}번째"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
