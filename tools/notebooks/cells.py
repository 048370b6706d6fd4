"""The building blocks of a notebook source: Markdown in two languages, code shared by both.

A notebook source (one file per notebook in this folder) is a list of cells:

    md(ko, en)              a Markdown cell, Korean and English text
    code(src, check=False)  a code cell, identical in both editions; check=True
                            makes nbval compare its output (# NBVAL_CHECK_OUTPUT)
    exercise(id, ko, en)    the task (Markdown), the learner's cell (answer = ...),
                            and the solution in a collapsed code cell
    next_link(file, ko, en) the closing link to the next notebook

The only text that differs between the editions' code cells is the language
literal of the first code cell, written here as `LANG = LANG_LITERAL`.
"""

from dataclasses import dataclass

from attention_lab import exercises

LANG_LITERAL = "__LANG__"  # replaced by "ko" or "en" (with quotes) when a notebook is written
CHECK = "# NBVAL_CHECK_OUTPUT"

SETUP = f"""LANG = {LANG_LITERAL}
%matplotlib inline
import numpy as np

import attention_lab as al
from attention_lab import exercises as ex
from attention_lab.style import format_row

tr = al.article_example()"""


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" or "code"
    text: dict  # {"ko": ..., "en": ...}; code cells have the same text for both
    hidden: bool = False  # a collapsed code cell (the solution)


def md(ko, en):
    return Cell("markdown", {"ko": ko.strip(), "en": en.strip()})


def code(src, check=False, hidden=False):
    src = src.strip()
    if check:
        src = f"{CHECK}\n{src}"
    return Cell("code", {"ko": src, "en": src}, hidden=hidden)


def exercise(exercise_id, ko, en, number):
    """Task text, the learner's cell, and the collapsed solution cell, for a registered exercise."""
    solution = exercises.solution(exercise_id)  # raises if the id is not registered
    check = f'ex.check("{exercise_id}", answer, lang=LANG)'
    return [
        md(f"**연습 {number}.** {ko.strip()}\n\n`answer = ...`의 `...`를 코드로 바꾸고 셀을 실행하세요.",
           f"**Exercise {number}.** {en.strip()}\n\nReplace the `...` in `answer = ...` with code and run the cell."),
        code(f"answer = ...\n{check}"),
        md(f"**해답 {number}** — 아래 접힌 셀을 펼쳐 보세요.",
           f"**Solution {number}** — expand the collapsed cell below."),
        code(f"answer = {solution}\n{check}", hidden=True),
    ]


def next_link(file, ko, en):
    return md(f"---\n\n[{ko}]({file})", f"---\n\n[{en}]({file})")
