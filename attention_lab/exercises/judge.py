"""Judging one answer: right, a known mistake, a value right only by chance, a slip, or not an answer at all.

For an exercise with `given`, the answer is the learner's function: it is called on the shown case and on
every hidden case, with only what the task allows (`hands`). It is right when it gives the expected value on all
of them. A known mistake is named only when it explains the answer: the same values on every case, shown and
hidden (so a wrong method that matches the shown case by chance gets its own hint, and one that matches only
there gets the generic one). Feedback never names the expected value, shape or expression.
"""

import inspect
from dataclasses import dataclass

import numpy as np

from ..look import words
from .read import Problem, expected_form, read, same
from .slips import Slip, run


@dataclass(frozen=True)
class Verdict:
    ok: object  # True, False, or None (no answer yet)
    text: str
    counts: bool = False  # a wrong answer: counted, and followed by the next hint unless `own_hint`
    own_hint: bool = False  # a known mistake's hint: nothing more to add
    named: str = ""  # what the feedback named, as data (a class report counts it): see `named_key`


def named_key(exercise, mistake=None, key=""):  # -> "mistake:<name>" for a known mistake, else the word key said
    """What a verdict names, as a stable key: "right", "unanswered", a known mistake as "mistake:<its name>" (its
    `name`, or its place in the exercise's list, "mistake:#2", when it has none), or the key of the words said
    ("not_yet", "only_here", "wrong_shape", "slip_matmul", …)."""
    if mistake is None:
        return key
    return f"mistake:{mistake.name or '#' + str(exercise.mistakes.index(mistake) + 1)}"


def _form(shape, lang):  # what an array of this shape is, in words
    if len(shape) == 0:
        return words.say("ex.form_number", lang)
    if len(shape) == 1:
        return words.say("ex.form_one_number" if shape[0] == 1 else "ex.form_numbers", lang, n=shape[0])
    if len(shape) == 2:
        return words.say("ex.form_matrix", lang, rows=shape[0], cols=shape[1])
    return words.say("ex.form_array", lang, shape=_shape_text(shape))


def _shape_text(shape):
    return "(" + ", ".join(str(n) for n in shape) + (",)" if len(shape) == 1 else ")")


def _takes(function, n):  # -> False when `function` cannot be called with n positional arguments
    try:
        inspect.signature(function).bind(*range(n))
    except TypeError:
        return False
    except Exception:  # no signature to read (a builtin, a C function): try calling it
        return True
    return True


STOPS = ("forbidden", "timeout")  # slips on any case that decide the verdict: a forbidden call, no end in time


def _values(exercise, answer):  # -> [value or Slip per case]: what the learner's answer gives on each case
    """The answer on every case, in order; it stops at a forbidden call or a case that did not finish in time
    (that slip is then the last value: the verdict is that slip, and the other cases are not run)."""
    if exercise.given is None:
        return [answer]
    values = []
    for args in exercise.cases():
        values.append(run(answer, exercise.given.hand(args), exercise.given.names, exercise.given.forbid))
        if isinstance(values[-1], Slip) and values[-1].key in STOPS:
            break
    return values


def _mistake_values(mistake, cases):  # -> [value or None per case]
    values = []
    for args in cases:
        try:
            with np.errstate(all="ignore"):
                values.append(mistake.value(*args))
        except Exception:  # a mistake that cannot be made on a case matches no answer there
            values.append(None)
    return values


def _matches(got, value, want, tol):
    if value is None or isinstance(got, (Problem, Slip)):
        return value is None and isinstance(got, Slip)  # a mistake that cannot be made here, nor the answer
    # rtol: −1e9 and −1e9 − 1 are the same mistake
    return same(got, read(value, want) if isinstance(want, tuple) else expected_form(value), tol, True, 1e-6)


_tables = {}  # id(exercise) -> (exercise, its expected values, each mistake's values): computed once


def _table(exercise):  # -> (wants, [(mistake, values)]), on the exercise's cases
    kept = _tables.get(id(exercise))
    if kept is None or kept[0] is not exercise:
        cases = exercise.cases()
        wants = [expected_form(exercise.expected(*args)) for args in cases]
        kept = _tables[id(exercise)] = (exercise, wants, [(m, _mistake_values(m, cases)) for m in exercise.mistakes])
    return kept[1], kept[2]


def _known_mistake(exercise, got, wants):  # -> the Mistake that explains the answer on every case, or None
    for mistake, values in _table(exercise)[1]:
        if values[0] is not None and all(
                _matches(g, v, w, exercise.tol) for g, v, w in zip(got, values, wants, strict=True)):
            return mistake
    return None


def judge(exercise, answer, lang):  # -> Verdict
    """What `answer` is, for `exercise`, in `lang`. Never raises on any answer (but KeyboardInterrupt)."""
    what = exercise.what

    def say(key, **values):
        return words.say(f"ex.{key}", lang, what=what, **values)

    if answer is ...:
        return Verdict(None, say("unanswered", task=exercise.task[lang], template=exercise.template),
                       named="unanswered")
    if exercise.given is not None:
        names = exercise.given.signature
        if not callable(answer):
            return Verdict(False, say("not_a_function", names=names), named="not_a_function")
        if not _takes(answer, len(exercise.given.names)):
            return Verdict(False, say("signature", names=names), named="signature")
    cases = exercise.cases()
    wants = _table(exercise)[0]
    results = _values(exercise, answer)
    if isinstance(results[-1], Slip) and results[-1].key in STOPS:
        return Verdict(False, say(results[-1].key, id=exercise.id, **results[-1].values), named=results[-1].key)
    first = results[0]
    if isinstance(first, Slip):
        return Verdict(False, say(first.key, **first.values), named=first.key)
    if first is ...:
        return Verdict(None, say("unanswered", task=exercise.task[lang], template=exercise.template),
                       named="unanswered")
    got = [read(first, wants[0])]
    if isinstance(got[0], Problem):
        return Verdict(False, say(got[0].key, shown=got[0].shown), named=got[0].key)
    got += [r if isinstance(r, Slip) else read(r, w) for r, w in zip(results[1:], wants[1:], strict=True)]
    right = [same(g, w, exercise.tol) for g, w in zip(got, wants, strict=True)]
    if all(right):
        note = exercise.note.get(lang)
        text = say("right") if len(cases) == 1 else say("right_hidden")
        return Verdict(True, text + (f" {note}" if note else ""), named="right")
    mistake = _known_mistake(exercise, got, wants)
    if mistake is not None:
        return Verdict(False, "✗ " + mistake.hint[lang], counts=True, own_hint=True,
                       named=named_key(exercise, mistake))
    if right[0]:  # right here, wrong on a case the learner does not see
        slip = next((g for g in got[1:] if isinstance(g, Slip)), None)
        if slip is not None:
            return Verdict(False, say("hidden_error", error=slip.error, message=slip.message, names=names),
                           counts=True, named="hidden_error")
        return Verdict(False, say("only_here", names=names), counts=True, named="only_here")
    want, got = wants[0], got[0]
    if isinstance(want, tuple):
        if len(got) != len(want):
            return Verdict(False, say("shape_length", n=len(got), got=_shape_text(got)), counts=True,
                           named="shape_length")
    elif got.shape != want.shape:
        return Verdict(False, say("wrong_shape", got_form=_form(got.shape, lang)), counts=True, named="wrong_shape")
    elif np.isnan(got).any():
        return Verdict(False, say("nan"), named="nan")
    elif np.isinf(got).any() and not np.isinf(want).any():
        return Verdict(False, say("inf"), named="inf")
    return Verdict(False, say("not_yet"), counts=True, named="not_yet")
