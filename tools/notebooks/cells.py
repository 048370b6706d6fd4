"""The building blocks of a notebook source: Markdown in two languages, code shared by both.

A notebook source (one file per notebook in this folder) is a list of cells:

    md(ko, en)              a Markdown cell, Korean and English text
    code(src, check=False)  a code cell, identical in both editions; check=True
                            tags it `nbval-check-output`, so nbval compares its output
    figure(src, ko, en)     a code cell that draws a figure, and its one-line caption
                            (Markdown) under it: a reader who cannot see the image
                            still knows what it shows
    exercise(id, ko, en, n) the task (Markdown) and what to write, the learner's cell
                            (`answer = lambda tr: ...` or `answer = ...`, and the check),
                            and the solution folded in a Markdown <details> block: folded
                            in every renderer, and Run All does not run it
    next_link(file, ko, en) the closing link to the next notebook
    kernel_only(text)       Markdown true only in a notebook with a kernel ("run the cell"):
                            a page without one (the course site, an export) leaves it out

`edition_link` is the line at the top of every notebook that links to the same
notebook in the other language; tools/build_notebooks.py puts it there.

The only text that differs between the editions' code cells is the language
literal of the first code cell, written here as `LANG = LANG_LITERAL`.
"""

import re
from dataclasses import dataclass

from attention_lab import exercises
from attention_lab.exercises import drills, no_kernel
from attention_lab.site import DEFAULT_BINDER

# How prose says a count it computes (from a registry): Korean's native numbers before 가지 and 방법, English words.
COUNT_WORDS = {
    "ko": ("", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열", "열한", "열두"),
    "en": ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"),
}


def counted(n, lang):  # -> "다섯" or "five": a count the prose says, computed where the source is built
    if not 1 <= n < len(COUNT_WORDS[lang]):
        raise ValueError(f"counted: {n} has no word here; write it as a number, or add its word to COUNT_WORDS")
    return COUNT_WORDS[lang][n]


LANG_LITERAL = "__LANG__"  # replaced by "ko" or "en" (with quotes) when a notebook is written
CHECK_TAG = "nbval-check-output"

# Where attention_lab is missing (Colab, VS Code, any plain Jupyter), the first code cell installs it once, quietly,
# from the repository the Binder badge names (the package is on no index yet); where it is installed it does nothing.
if not re.fullmatch(r"[\w.-]+/[\w.-]+(@[\w./-]+)?", DEFAULT_BINDER):
    raise ValueError(f"DEFAULT_BINDER = {DEFAULT_BINDER!r}: the notebooks install from it, so give it as OWNER/NAME "
                     "(a GitHub repository, optionally @BRANCH) in attention_lab/site/build.py.")
PACKAGE = f"attention-lab @ git+https://github.com/{DEFAULT_BINDER}"  # pip's form of a repository (@BRANCH too)
INSTALL = f"""try:
    import attention_lab
except ImportError:  # Colab, VS Code, a Jupyter without it: install it once
    import importlib
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "{PACKAGE}"], check=True)
    importlib.invalidate_caches()"""

SETUP = f"""LANG = {LANG_LITERAL}
{INSTALL}

%matplotlib inline
import numpy as np

import attention_lab as al
from attention_lab import exercises as ex
from attention_lab.look import format_row

tr = al.article_example()"""


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" or "code"
    text: dict  # {"ko": ..., "en": ...}; code cells have the same text for both
    tags: tuple = ()  # cell tags, e.g. ("nbval-check-output",)


def md(ko, en):
    return Cell("markdown", {"ko": ko.strip(), "en": en.strip()})


def code(src, check=False):
    src = src.strip()
    return Cell("code", {"ko": src, "en": src}, tags=(CHECK_TAG,) if check else ())


CAPTION = {"ko": "그림", "en": "Figure"}  # how a caption starts, in bold, so a test can find every one


def _caption(lang, text):  # "그림 4. Head 1에서 …" -> "**그림 4.** Head 1에서 …"; else "**그림.** …"
    number = re.match(rf"{CAPTION[lang]} (\d+)[.:]\s*", text)
    if number:
        return f"**{CAPTION[lang]} {number.group(1)}.** {text[number.end():]}"
    return f"**{CAPTION[lang]}.** {text}"


def figure(src, ko, en):
    """A figure's code cell and its caption, one line in each language, right under it (the article's figure
    number, where it has one, in the bold start)."""
    return [code(src), md(_caption("ko", ko.strip()), _caption("en", en.strip()))]


def folded_code(summary, src):  # -> Markdown: code in a <details> block, folded until opened
    # The blank lines matter: without them the fenced code inside the HTML block is not parsed as Markdown.
    return f"<details>\n<summary>{summary}</summary>\n\n```python\n{src}\n```\n\n</details>"


def kernel_only(text):  # -> Markdown shown in a notebook only: a page without a kernel leaves it out
    # The blank lines matter: without them the Markdown inside the HTML block is not parsed as Markdown.
    return f"\n\n{no_kernel.KERNEL_ONLY}\n\n{text.strip()}\n\n</div>\n\n"


def _how_to_answer(exercise_id):  # -> {"ko": …, "en": …}: the line under a task that says what to write
    given = exercises.get(exercise_id).given
    if given is None:
        how = {"ko": "`answer = ...`의 `...`를 답을 계산하는 코드로 바꾸고 셀을 실행하세요.",
               "en": "Replace the `...` in `answer = ...` with code that computes the answer, and run the cell."}
    else:
        names = ", ".join(f"`{name}`" for name in given.names)
        line = f"`answer = lambda {given.signature}: ...`"
        how = {"ko": f"{line}의 `...`를 {names}에서 답을 계산하는 코드로 바꾸고 셀을 실행하세요.",
               "en": f"Replace the `...` in {line} with code that computes the answer from {names}, and run the cell."}
    # A page without a kernel leaves this line out: there the cell is its drill, or a line saying where it is done.
    return {"ko": kernel_only(f"Jupyter에서: {how['ko']}"), "en": kernel_only(f"In Jupyter: {how['en']}")}


def exercise(exercise_id, ko, en, number):
    """Task text, the line that says what to write, the learner's cell, and the folded solution."""
    solved = exercises.solution_code(exercise_id)  # raises if the id is not registered
    how = _how_to_answer(exercise_id)
    return [
        md(f"**연습 {number}.** {ko.strip()}\n\n{how['ko']}", f"**Exercise {number}.** {en.strip()}\n\n{how['en']}"),
        code(exercises.learner_code(exercise_id)),
        md(folded_code(f"연습 {number}의 해답 (먼저 직접 풀어 보세요)", solved),
           folded_code(f"Solution {number} (try it yourself first)", solved)),
    ]


def edition_link(name, lang):  # -> Markdown: a link to notebook `name` in the other language
    if lang == "ko":
        return f"이 노트북의 영어판: [English](../en/{name}.ipynb)"
    return f"This notebook in Korean: [한국어](../ko/{name}.ipynb)"


def next_link(file, ko, en):
    return md(f"---\n\n[{ko}]({file})", f"---\n\n[{en}]({file})")
