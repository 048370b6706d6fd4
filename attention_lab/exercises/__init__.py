"""Exercises for the notebooks: answers checked by how they are computed, hints in steps, the solution on request.

    from attention_lab import exercises as ex
    answer = lambda tr: tr.Qh[0, 2] @ tr.Kh[0, 0]
    ex.check("02.score", answer, lang="ko")    # ✓, or ✗ with what went wrong and the next hint
    ex.hint("02.score", lang="ko")             # a hint without trying: the idea, then (again) a closer one
    ex.solution("02.score", lang="ko")         # the solution, as code

Most answers are functions of what the exercise gives (`answer = lambda tr: …`, `lambda T, w: …`): `check`
calls the function on the example the notebook shows and on examples the learner does not see, so it checks
the method, not only the number (a value typed in, or a wrong method that matches here by chance, does not
pass). An error the function raises (a forgotten `.T`, arrays that do not broadcast, an index past the end)
is caught and explained in one line. A few answers are plain values (`answer = …`); their data is chosen so
that the known wrong methods give other values.

How `check` answers:
- right: ✓, and a short note;
- a known mistake (forgot the mask, divided by √d, mixed both heads, an index off by one, …): its own hint
  at once. A mistake is recognised by comparing the answer's values with the values that mistake gives,
  computed, never typed;
- any other wrong answer: a hint about the idea (no code) the first time, then a closer hint (the step to
  take), and from the third time also where to find the solution;
- not an answer of the right kind (text, complex, bool, None, NaN, a ragged list, a masked array, an array
  where a shape is asked, a value where a function is asked, …) or a slip: one line that says what it is and
  what to do. It is never graded right, never raises, and is not counted.
Feedback never states the expected value, shape or expression: only `solution` shows the solution.
Wrong answers and hints seen are counted per exercise in this Python session (one kernel); a right answer or
`reset` clears them.

`check` shows its feedback itself (HTML with code as code, and a plain-text fallback), so a check cell shows
exactly one feedback; the `Feedback` it returns (truthy when right) displays nothing more. `hint` and
`solution` return a `Message`, which Jupyter displays as Markdown. Every word comes from the one word table
(look/words/exercises.py).

Banks: the exercises live in modules of this package, one per group of notebooks (`article`: notebooks
00–03; `weights`: 04–07; `masks`: 08–09; `generation`: 10–11; `queries`: 12; `learned`: 13). A bank module
defines `EXERCISES`,
a list of `Exercise` (with a `Given` from `givens` when the answer is a function), and is registered by adding its
name to `BANKS`. The modules: `define` (what an exercise is), `givens` (the examples a function is checked on),
`read` (any value → numbers, a shape, or why not), `slips` (an error of the learner's code, in one line), `judge`
(right, a known mistake, right only by chance, …), `show` (feedback as HTML and text).
"""

import importlib
import numbers
import os

from ..look import words
from .define import LANGS, Exercise, Given, Mistake, answer_lines, catalogue, check_line  # noqa: F401  (the bank's tools)
from .judge import judge
from .read import expected_form
from .show import Feedback, Message, as_html, plain, show

BANKS = ("article", "weights", "masks", "generation", "queries", "learned")  # the bank modules; a new bank: one more


def learner_code(exercise_id):  # -> str
    """The learner's cell of an exercise: `answer = ...` (or `answer = lambda tr: ...`), then the check line."""
    exercise = get(exercise_id)
    return f"{exercise.template}\n{check_line(exercise.id)}"


def solution_code(exercise_id):  # -> str
    """The learner's cell, solved: the lines that set `answer`, then the same check line."""
    exercise = get(exercise_id)
    return f"{answer_lines(exercise)}\n{check_line(exercise.id)}"


# ---------------------------------------------------------------- the session: wrong answers and hints seen

_tries = {}  # exercise id -> wrong answers so far in this session
_seen = {}  # exercise id -> the last hint step shown (1 or 2)


def _hint_text(exercise, step, lang, stuck):
    text = words.say(f"ex.hint_{step}", lang, hint=exercise.hints[step - 1][lang])
    return text + (" " + words.say("ex.stuck", lang, id=exercise.id) if stuck else "")


def _validate_lang(lang):
    if lang not in LANGS:
        raise ValueError(f"lang: use 'ko' or 'en', got {lang!r}.")


def get(exercise_id):  # -> Exercise
    """The registered Exercise with this id, or a ValueError listing the known ids."""
    try:
        return EXERCISES[exercise_id]
    except (KeyError, TypeError):
        raise ValueError(
            f"exercise_id: unknown exercise {exercise_id!r}. Known exercises: {', '.join(EXERCISES)}."
        ) from None


def expected(exercise_id):  # -> float ndarray, or a tuple of ints for a shape
    """The right answer of an exercise on the case the notebook shows, computed (never typed)."""
    exercise = get(exercise_id)
    return expected_form(exercise.expected(*exercise.cases()[0]))


def check(exercise_id, answer, lang="en"):  # -> Feedback
    """Check an answer: show ✓, ✗ with what went wrong and the next hint, or what to write instead; return a
    Feedback (truthy if right)."""
    _validate_lang(lang)
    exercise = get(exercise_id)
    verdict = judge(exercise, answer, lang)
    text = verdict.text
    if verdict.ok:
        _tries.pop(exercise.id, None)
        _seen.pop(exercise.id, None)
    elif verdict.counts:
        tries = _tries[exercise.id] = _tries.get(exercise.id, 0) + 1
        if not verdict.own_hint:
            step = min(2, max(tries, _seen.get(exercise.id, 0) + 1))
            _seen[exercise.id] = max(step, _seen.get(exercise.id, 0))
            text += " " + _hint_text(exercise, step, lang, stuck=tries >= 3)
    feedback = Feedback(exercise.id, verdict.ok, plain(text), as_html(text), _tries.get(exercise.id, 0), verdict.named)
    show(feedback)
    _to_class(feedback, lang)
    return feedback


def _to_class(feedback, lang):
    """In a class on a hub (its spawner sets ATTENTION_LAB_CLASSROOM_URL), hand the verdict to the class's
    collector (classroom/client.py); elsewhere nothing, and nothing imported."""
    if os.environ.get("ATTENTION_LAB_CLASSROOM_URL"):
        try:
            from ..classroom import client  # stdlib only; its send never raises
        except ImportError:  # a class's collection never breaks a check
            return
        client.send(feedback, lang)


def hint(exercise_id, lang="en", step=None):  # -> Message
    """A hint without trying: the idea first, then (asked again, or after a wrong answer) the closer hint, which
    names the step to take. step=1 or step=2 asks for one of them."""
    _validate_lang(lang)
    exercise = get(exercise_id)
    seen = _seen.get(exercise.id, 0)
    if step is None:
        step = min(2, seen + 1)
    elif isinstance(step, bool) or not isinstance(step, numbers.Integral) or step not in (1, 2):
        raise ValueError(f"step: use 1 (the idea) or 2 (a closer hint), or leave it out for the next one; "
                         f"got {step!r}.")
    step = int(step)
    _seen[exercise.id] = max(seen, step)
    label, _, body = _hint_text(exercise, step, lang, stuck=step == 2 and seen == 2).partition(": ")
    return Message(f"**{label}** ({exercise.id}): {body}", plain(f"{label} ({exercise.id}): {body}"))


def solution(exercise_id, lang="en"):  # -> Message
    """The solution of an exercise, as the learner's cell would hold it, shown as code."""
    _validate_lang(lang)
    exercise = get(exercise_id)
    title = f"{words.say('ex.solution_title', lang, id=exercise.id)} ({plain(exercise.task[lang])})"
    code = solution_code(exercise.id)
    return Message(f"**{title}**\n\n```python\n{code}\n```", f"{title}\n\n{code}")


def reset(exercise_id=None):
    """Forget the wrong answers and hints counted so far: of one exercise, or (no argument) of all."""
    if exercise_id is None:
        _tries.clear()
        _seen.clear()
    else:
        _tries.pop(get(exercise_id).id, None)
        _seen.pop(exercise_id, None)


def tries(exercise_id):  # -> int
    """How many wrong answers this exercise has had in this session since a right answer or `reset`."""
    return _tries.get(get(exercise_id).id, 0)


def _load(banks):  # -> {id: Exercise}, in the banks' order
    found = {}
    for bank in banks:
        module = importlib.import_module(f"{__name__}.{bank}")
        for exercise in module.EXERCISES:
            if exercise.id in found:
                raise ValueError(f"exercise id {exercise.id!r} is defined twice (again in bank {bank!r}).")
            found[exercise.id] = exercise
    return found


# Last, so that the bank modules can import Exercise, Given and Mistake from this package.
EXERCISES = _load(BANKS)
