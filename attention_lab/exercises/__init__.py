"""Exercises for the notebooks: hints in steps, the solution only on request, in Korean or English.

    from attention_lab import exercises as ex
    answer = tr.Qh[0, 2] @ tr.Kh[0, 0]
    ex.check("02.score", answer, lang="ko")    # ✓, or ✗ with a hint: shown once
    ex.hint("02.score", lang="ko")             # a hint, without trying
    ex.solution("02.score", lang="ko")         # the solution, as code

How `check` answers:
- right: ✓, and a short note;
- a known mistake (forgot the mask, divided by √d, took Head 2's columns, an index
  off by one, …): its own hint at once. A mistake is recognised by comparing the
  answer with the value that mistake gives, computed, never typed;
- any other wrong answer: the first time a hint about the idea (no code), from the
  second time a closer hint (which array, index or function), from the third time
  also where to find the solution;
- something that is not an answer of the right kind (text, complex, bool, None,
  NaN, a ragged list, an array where a shape is asked, …): one line that says what
  to write instead. It is never graded right, never raises, and is not counted.
Wrong answers are counted per exercise in this Python session (one kernel); a right
answer or `reset` clears the count. No feedback ever contains the solution: only
`solution` shows it.

`check` shows its feedback itself (HTML with code as code, and a plain-text
fallback), so a check cell shows exactly one feedback wherever the call stands in
the cell; the `Feedback` it returns (truthy when right) displays nothing more.
`hint` and `solution` return a `Message`, which Jupyter displays as Markdown.

Banks: the exercises live in modules of this package, one per group of notebooks
(`article`: notebooks 00–07; `masks`: 08–09; `generation`: 10–11). A bank module defines `EXERCISES`, a list of
`Exercise`, and is registered by adding its name to `BANKS`.
"""

import ast
import html
import importlib
import numbers
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

import numpy as np

LANGS = ("ko", "en")
BANKS = ("article", "masks", "generation")  # modules that define EXERCISES; a new bank is one more name here


# ---------------------------------------------------------------- defining exercises


def _require_texts(value, what, owner):
    if not (isinstance(value, dict) and set(value) == set(LANGS)
            and all(isinstance(text, str) and text.strip() for text in value.values())):
        raise ValueError(f"{owner}: {what} must be a dict of non-empty 'ko' and 'en' strings, got {value!r}.")


@dataclass(frozen=True)
class Mistake:
    """A known wrong answer: the value it gives (computed, never typed) and the hint it gets at once."""

    value: Callable[[], object]  # () -> a number, an array, or a tuple (for a shape exercise)
    hint: dict  # {"ko": ..., "en": ...}: what went wrong and what to do instead; never the solution


@dataclass(frozen=True)
class Exercise:
    """One exercise: the task, its answer (computed), two hints in steps, known mistakes and a solution."""

    id: str  # "NN.name", NN the notebook that asks it
    task: dict  # {"ko": ..., "en": ...}: what to compute, in a few words
    expected: Callable[[], object]  # () -> the right answer: a number, an array, or a tuple (a shape)
    solution: str  # code over `al`, `np`, `tr`: one expression, or lines that set `answer`
    hints: tuple  # (idea, closer), each {"ko": ..., "en": ...}: the idea without code; which array/index/function
    mistakes: tuple = ()  # Mistake, …
    tol: float = 1e-6  # absolute tolerance; 1e-3 accepts the article's three-decimal weights
    note: dict = field(default_factory=dict)  # {"ko": ..., "en": ...}: said after a right answer

    def __post_init__(self):
        if not (isinstance(self.id, str) and re.fullmatch(r"\d\d\.\w+", self.id)):
            raise ValueError(f"id: write 'NN.name' (the notebook's number, a dot, a name), got {self.id!r}.")
        _require_texts(self.task, "task", self.id)
        object.__setattr__(self, "hints", tuple(self.hints))
        object.__setattr__(self, "mistakes", tuple(self.mistakes))
        if len(self.hints) != 2:
            raise ValueError(f"{self.id}: hints must be two texts (the idea, then a closer hint), "
                             f"got {len(self.hints)}.")
        for hint in self.hints:
            _require_texts(hint, "each hint", self.id)
        for mistake in self.mistakes:
            if not isinstance(mistake, Mistake):
                raise ValueError(f"{self.id}: mistakes must be Mistake(value, hint) objects, got {mistake!r}.")
            _require_texts(mistake.hint, "a mistake's hint", self.id)
        if self.note:
            _require_texts(self.note, "note", self.id)
        if not (isinstance(self.tol, (int, float)) and self.tol > 0):
            raise ValueError(f"{self.id}: tol must be a positive number, got {self.tol!r}.")
        _answer_lines(self)  # raises if the solution is not code that sets `answer`


def _answer_lines(exercise):  # -> the solution as lines that set `answer`
    try:
        ast.parse(exercise.solution, mode="eval")
        return f"answer = {exercise.solution}"
    except SyntaxError:
        pass
    try:
        tree = ast.parse(exercise.solution)
    except SyntaxError as error:
        raise ValueError(f"{exercise.id}: solution is not Python code ({error.msg}).") from None
    if not any(isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "answer" for t in node.targets)
               for node in tree.body):
        raise ValueError(f"{exercise.id}: a solution of several lines must set `answer`.")
    return exercise.solution


def _check_line(exercise_id):
    return f'ex.check("{exercise_id}", answer, lang=LANG)'


def learner_code(exercise_id):  # -> str
    """The learner's cell of an exercise: `answer = ...`, then the check line."""
    return f"answer = ...\n{_check_line(get(exercise_id).id)}"


def solution_code(exercise_id):  # -> str
    """The learner's cell, solved: the lines that set `answer`, then the same check line."""
    exercise = get(exercise_id)
    return f"{_answer_lines(exercise)}\n{_check_line(exercise.id)}"


# ---------------------------------------------------------------- what feedback says

_COUNT_EN = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_COUNT_KO = ("", "한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열")  # … 개


def _numbers(n, lang):  # "three numbers" / "숫자 세 개"
    if lang == "ko":
        return "숫자 하나" if n == 1 else (f"숫자 {_COUNT_KO[n]} 개" if 1 < n <= 10 else f"숫자 {n}개")
    word = _COUNT_EN[n] if n <= 10 else str(n)
    return f"{word} number" + ("" if n == 1 else "s")


def _shape_text(shape):
    return "(" + ", ".join(str(n) for n in shape) + (",)" if len(shape) == 1 else ")")


def _form(shape, lang):  # what an answer of this array shape is, in words
    if len(shape) == 0:
        return _numbers(1, lang)
    if len(shape) == 1:
        return _numbers(shape[0], lang)
    if len(shape) == 2:
        return f"{shape[0]} × {shape[1]} 배열" if lang == "ko" else f"a {shape[0]} × {shape[1]} array"
    return f"모양이 {_shape_text(shape)}인 배열" if lang == "ko" else f"an array of shape {_shape_text(shape)}"


def _shape_form(n, lang):  # what a shape answer of n numbers is, in words
    return f"{_numbers(n, lang)}로 된 튜플" if lang == "ko" else f"a tuple of {_numbers(n, lang)}"


# Code is written between backticks: HTML shows it as <code>, plain text drops the backticks.
_SAY = {
    "unanswered": {
        "ko": "아직 답이 없습니다({task}). `answer = ...`의 `...`를 답을 계산하는 코드로 바꾸고 셀을 다시 실행하세요.",
        "en": "No answer yet ({task}). Replace the `...` in `answer = ...` with code that computes it, "
              "then run the cell again.",
    },
    "right": {"ko": "✓ 정답입니다!", "en": "✓ Correct!"},
    "not_yet": {"ko": "✗ 아직 정답이 아닙니다.", "en": "✗ Not yet."},
    "hint_1": {"ko": "힌트: {hint}", "en": "Hint: {hint}"},
    "hint_2": {"ko": "더 자세한 힌트: {hint}", "en": "A closer hint: {hint}"},
    "stuck": {
        "ko": "막히면 `ex.solution(\"{id}\", lang=\"ko\")`로 해답을 볼 수 있습니다.",
        "en": "Stuck? `ex.solution(\"{id}\", lang=\"en\")` shows a solution.",
    },
    "wrong_shape": {
        "ko": "✗ `answer`는 {got_form}(모양 {got})이고, 답은 {form}(모양 {want})입니다.",
        "en": "✗ `answer` is {got_form}, shape {got}; the answer is {form}, shape {want}.",
    },
    "shape_length": {
        "ko": "✗ `answer`는 {got_form}로 된 모양입니다: {got}. 답은 {form}입니다.",
        "en": "✗ `answer` is a shape of {got_form}, {got}; the answer is {form}.",
    },
    "quoted": {
        "ko": "✗ `answer`가 문자열입니다(`{shown}`). 따옴표 없이 쓰세요: `answer = {text}`",
        "en": "✗ `answer` is text, `{shown}`: write it without quotes, `answer = {text}`.",
    },
    "text": {
        "ko": "✗ `answer`가 문자열입니다(`{shown}`). 따옴표 없이, 답을 계산하는 코드를 쓰세요. 답은 {form}입니다.",
        "en": "✗ `answer` is text, `{shown}`: write code that computes the answer, without quotes. "
              "The answer is {form}.",
    },
    "text_inside": {
        "ko": "✗ `answer` 안에 문자열이 있습니다(`{shown}`). 따옴표 없이 숫자로 쓰세요. 답은 {form}입니다.",
        "en": "✗ `answer` holds text, `{shown}`: write numbers, without quotes. The answer is {form}.",
    },
    "none": {
        "ko": "✗ `answer`가 None입니다. `=` 뒤의 코드가 값을 돌려주지 않았습니다(`print()`나, 리스트·배열을 제자리에서 "
              "바꾸는 메서드는 None을 돌려줍니다). 답을 계산하는 코드를 쓰세요. 답은 {form}입니다.",
        "en": "✗ `answer` is None: the code after `=` gave no value (`print()`, and methods that change a list or "
              "an array in place, give None). Write code that computes the answer: {form}.",
    },
    "none_inside": {
        "ko": "✗ `answer` 안에 None이 있습니다. 값은 모두 숫자여야 합니다. 답은 {form}입니다.",
        "en": "✗ `answer` holds None; every value must be a number. The answer is {form}.",
    },
    "bool": {
        "ko": "✗ `answer`가 숫자가 아니라 참/거짓 값(bool)입니다(`{shown}`). 답은 {form}입니다.",
        "en": "✗ `answer` is `{shown}`, a truth value (bool), not a number. The answer is {form}.",
    },
    "bools": {
        "ko": "✗ `answer`에 숫자가 아니라 참/거짓 값(True/False)이 들어 있습니다. 답은 {form}입니다. "
              "True의 개수는 `.sum()`으로 셉니다.",
        "en": "✗ `answer` holds truth values (True/False), not numbers. The answer is {form}. "
              "`.sum()` counts the True values.",
    },
    "complex": {
        "ko": "✗ `answer`에 복소수가 있습니다(`{shown}`). 답은 허수부가 없는 {form}입니다.",
        "en": "✗ `answer` holds a complex number, `{shown}`. The answer is {form}, with no imaginary part.",
    },
    "too_large": {
        "ko": "✗ `answer`에 float로 나타낼 수 없을 만큼 큰 수가 있습니다(약 1.8 × 10³⁰⁸ 초과). 답은 {form}입니다.",
        "en": "✗ `answer` holds a number too large for a float (beyond about 1.8 × 10³⁰⁸). The answer is {form}.",
    },
    "nan": {
        "ko": "✗ `answer`에 NaN(not a number)이 있습니다. 0/0, ∞ − ∞, 넘친 exp에서 나오는 값입니다. "
              "답은 NaN이 없는 {form}입니다.",
        "en": "✗ `answer` holds NaN (not a number), what 0/0, ∞ − ∞ or an overflowing exp give. "
              "The answer is {form}, with no NaN.",
    },
    "inf": {
        "ko": "✗ `answer`에 무한대(∞)가 있습니다. 이 답의 값은 모두 유한합니다. 답은 {form}입니다.",
        "en": "✗ `answer` holds ∞; every value of this answer is finite. The answer is {form}.",
    },
    "ragged": {
        "ko": "✗ `answer`의 행 길이가 서로 다릅니다(`{shown}`). 답은 {form}입니다.",
        "en": "✗ `answer` is a list whose rows differ in length, `{shown}`. The answer is {form}.",
    },
    "callable": {
        "ko": "✗ `answer`가 함수나 메서드 `{shown}` 자체입니다. `()`를 붙여 호출한 결과를 쓰세요.",
        "en": "✗ `answer` is the function or method `{shown}` itself, not its result: call it with `()`.",
    },
    "other": {
        "ko": "✗ `answer`의 타입이 숫자가 아니라 `{shown}`입니다. 답은 {form}입니다.",
        "en": "✗ `answer` has the type `{shown}`, not a number. The answer is {form}.",
    },
    "one_number": {
        "ko": "✗ `answer`가 숫자 하나입니다(`{shown}`). 모양은 {form}입니다: `answer = ({dots})`",
        "en": "✗ `answer` is one number, `{shown}`; a shape is {form}: `answer = ({dots})`.",
    },
    "array_not_shape": {
        "ko": "✗ `answer`가 모양이 {shape}인 배열입니다. 배열이 아니라 그 모양을 쓰세요. 모양은 {form}입니다.",
        "en": "✗ `answer` is an array of shape {shape}, not a shape: write the shape, {form}.",
    },
    "nested": {
        "ko": "✗ `answer`가 중첩되어 있습니다(`{shown}`). 모양은 중첩되지 않은 {form}입니다.",
        "en": "✗ `answer` is nested, `{shown}`; a shape is {form}, not nested.",
    },
    "not_whole": {
        "ko": "✗ `answer`에 정수가 아닌 수가 있습니다(`{shown}`). 모양의 수는 모두 정수입니다. 답은 {form}입니다.",
        "en": "✗ `answer` holds a number that is not whole, `{shown}`; every number of a shape is whole. "
              "The answer is {form}.",
    },
}


def _say(key, lang, **values):
    return _SAY[key][lang].format(**values)


def _shown(value, limit=40):
    """A short one-line repr of any value, safe to put between backticks; never raises."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails (a huge int, a broken object) still gets named
        text = f"<{type(value).__name__}>"
    text = " ".join(text.split()).replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plain(text):
    return text.replace("`", "")


def _html(text):
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: leave it as it is
        parts = [text]
    body = "".join(html.escape(part, quote=False) if i % 2 == 0 else f"<code>{html.escape(part, quote=False)}</code>"
                   for i, part in enumerate(parts))
    for mark, colour in (("✓", "#1a7f37"), ("✗", "#cf222e")):
        if body.startswith(mark):
            body = f'<strong style="color:{colour}">{mark}</strong>{body[1:]}'
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


def _show(feedback):
    from IPython import get_ipython

    if get_ipython() is None:  # plain Python: print the text
        print(feedback.text)
    else:
        from IPython.display import display

        display({"text/plain": feedback.text, "text/html": feedback.html}, raw=True)


# ---------------------------------------------------------------- reading an answer


@dataclass(frozen=True)
class _Problem:
    """Why an answer is not of the right kind: a key of _SAY and what to fill in."""

    key: str
    shown: str = ""
    text: str = ""
    shape: str = ""


def _leaf(x):  # -> float, or _Problem: one value that should be a real number
    if x is None:
        return _Problem("none_inside")
    if isinstance(x, (bool, np.bool_)):
        return _Problem("bools")
    if isinstance(x, (str, bytes)):
        return _Problem("text_inside", _shown(x))
    if isinstance(x, numbers.Complex) and not isinstance(x, numbers.Real):
        return _Problem("complex", _shown(x))
    if isinstance(x, (numbers.Real, Decimal)):
        try:
            return float(x)
        except OverflowError:
            return _Problem("too_large")
        except (TypeError, ValueError, ArithmeticError):  # e.g. Decimal("sNaN")
            return _Problem("nan")
    if isinstance(x, (list, tuple, np.ndarray)):
        return _Problem("ragged", _shown(x))
    if callable(x):
        name = str(getattr(x, "__name__", type(x).__name__))
        return _Problem("callable", name[:40].replace("`", "'"))
    return _Problem("other", type(x).__name__)


def _from_array(a):  # -> float ndarray, or _Problem
    kind = a.dtype.kind
    if kind in "iuf":
        return a.astype(float)
    if kind == "b":
        return _Problem("bools")
    if kind == "c":
        return _Problem("complex", _shown(a.flat[0] if a.size else a))
    if kind in "US":
        return _Problem("text_inside", _shown(a.flat[0] if a.size else a))
    if kind == "O":
        values = np.empty(a.shape)
        for i, x in enumerate(a.flat):
            value = _leaf(x)
            if isinstance(value, _Problem):
                return value
            values.flat[i] = value
        return values
    return _Problem("other", f"NumPy array of dtype {a.dtype}")


def _from_sequence(items, depth=0):  # -> nested lists of floats, or _Problem
    if depth > 32:
        return _Problem("other", "list nested too deep")
    out = []
    for item in items:
        if isinstance(item, (list, tuple)):
            value = _from_sequence(item, depth + 1)
        elif isinstance(item, np.ndarray):
            value = _from_array(item)
            value = value if isinstance(value, _Problem) else value.tolist()
        else:
            value = _leaf(item)
            if isinstance(value, _Problem) and value.key == "ragged":
                value = _Problem("other", type(item).__name__)
        if isinstance(value, _Problem):
            return value
        out.append(value)
    return out


def _read_text(text):  # -> _Problem: a number in quotes, or other text
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    stripped = text.strip()
    if len(stripped) <= 40:
        try:
            value = ast.literal_eval(stripped)
        except Exception:  # any text at all: not a literal
            value = None
        if _is_plain_numbers(value):
            return _Problem("quoted", _shown(text), text=stripped.replace("`", "'"))
    return _Problem("text", _shown(text))


def _is_plain_numbers(value, depth=0):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    return (isinstance(value, (list, tuple)) and 0 < len(value) and depth < 3
            and all(_is_plain_numbers(v, depth + 1) for v in value))


def _read_numbers(answer):  # -> float ndarray, or _Problem
    """The answer as an array of real numbers, or why it is not one. Never raises."""
    try:
        with np.errstate(all="ignore"):
            if answer is None:
                return _Problem("none")
            if isinstance(answer, (str, bytes)):
                return _read_text(answer)
            if isinstance(answer, (bool, np.bool_)):
                return _Problem("bool", _shown(answer))
            if isinstance(answer, np.ndarray):
                return _from_array(answer)
            if isinstance(answer, (list, tuple)):
                values = _from_sequence(answer)
                if isinstance(values, _Problem):
                    return values
                try:
                    return np.asarray(values, dtype=float)
                except ValueError:  # rows of different lengths
                    return _Problem("ragged", _shown(answer))
            value = _leaf(answer)
            if not isinstance(value, _Problem):
                return np.asarray(value)
            if value.key == "other" and (hasattr(answer, "__array__") or hasattr(answer, "__array_interface__")):
                array = np.asarray(answer)  # e.g. a torch tensor, a pandas Series
                if array.dtype != object:
                    return _from_array(array)
            return value
    except Exception:  # an object that breaks while being read is still not a number
        return _Problem("other", type(answer).__name__)


def _read_shape(answer):  # -> tuple of ints, or _Problem
    try:
        as_shape = isinstance(answer, (tuple, list)) or (
            isinstance(answer, np.ndarray) and answer.ndim == 1 and answer.dtype.kind in "iu")
    except Exception:  # a broken ndarray-like object
        as_shape = False
    values = _read_numbers(answer)
    if isinstance(values, _Problem):
        return values
    if not as_shape:
        if values.ndim == 0:
            return _Problem("one_number", _shown(answer))
        return _Problem("array_not_shape", shape=_shape_text(values.shape))
    if values.ndim != 1:
        return _Problem("nested", _shown(answer))
    whole = np.isfinite(values) & (values == np.round(values))
    if not whole.all():
        return _Problem("not_whole", _shown(float(values[~whole][0])))
    return tuple(int(v) for v in values)


# ---------------------------------------------------------------- judging


def _expected_value(exercise):  # -> tuple (a shape) or float ndarray
    value = exercise.expected()
    return tuple(int(n) for n in value) if isinstance(value, tuple) else np.asarray(value, dtype=float)


def _same(got, want, tol, equal_nan=False, rtol=0.0):
    if isinstance(want, tuple) or isinstance(got, tuple):
        return isinstance(got, tuple) and isinstance(want, tuple) and got == want
    if got.shape != want.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.isclose(got, want, rtol=rtol, atol=tol, equal_nan=equal_nan).all())


def _ladder(exercise, tries, lang):  # the hint for the `tries`-th wrong answer (1, 2, …)
    text = _say("hint_1" if tries == 1 else "hint_2", lang, hint=exercise.hints[0 if tries == 1 else 1][lang])
    if tries >= 3:
        text += " " + _say("stuck", lang, id=exercise.id)
    return text


def _judge(exercise, answer, lang, tries):  # -> (ok, text, counts as a wrong answer)
    if answer is ...:
        return None, _say("unanswered", lang, task=exercise.task[lang]), False
    want = _expected_value(exercise)
    shape_answer = isinstance(want, tuple)
    if shape_answer:
        form = _shape_form(len(want), lang)
        got = _read_shape(answer)
    else:
        form = _form(want.shape, lang)
        got = _read_numbers(answer)
        if isinstance(got, np.ndarray) and want.ndim == 0 and got.size == 1:
            got = got.reshape(())  # a one-element array (a slice, say) answers a number
    if isinstance(got, _Problem):
        dots = ", ".join("…" for _ in want) if shape_answer else ""
        return False, _say(got.key, lang, form=form, shown=got.shown, text=got.text, shape=got.shape, dots=dots), False
    if _same(got, want, exercise.tol):
        note = exercise.note.get(lang)
        return True, _say("right", lang) + (f" {note}" if note else ""), False
    with np.errstate(all="ignore"):
        for mistake in exercise.mistakes:
            value = mistake.value()
            value = tuple(value) if isinstance(value, tuple) else np.asarray(value, dtype=float)
            # rtol: −1e9 and −1e9 − 1 are the same mistake
            if _same(got, value, exercise.tol, equal_nan=True, rtol=1e-6):
                return False, "✗ " + mistake.hint[lang], True
    ladder = _ladder(exercise, tries + 1, lang)
    if shape_answer and len(got) != len(want):
        return False, _say("shape_length", lang, got=_shape_text(got), got_form=_numbers(len(got), lang),
                           form=form) + " " + ladder, True
    if not shape_answer:
        if got.shape != want.shape:
            return False, _say("wrong_shape", lang, got=_shape_text(got.shape), got_form=_form(got.shape, lang),
                               want=_shape_text(want.shape), form=form) + " " + ladder, True
        if np.isnan(got).any():
            return False, _say("nan", lang, form=form), False
        if np.isinf(got).any() and not np.isinf(want).any():
            return False, _say("inf", lang, form=form), False
    return False, _say("not_yet", lang) + " " + ladder, True


# ---------------------------------------------------------------- the public functions

_tries = {}  # exercise id -> wrong answers so far in this session


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
    """The right answer of an exercise, computed (never typed)."""
    return _expected_value(get(exercise_id))


def check(exercise_id, answer, lang="en"):  # -> Feedback
    """Check an answer: show ✓, ✗ with the next hint, or what to write instead; return a Feedback (truthy if right)."""
    _validate_lang(lang)
    exercise = get(exercise_id)
    ok, text, counts = _judge(exercise, answer, lang, _tries.get(exercise.id, 0))
    if ok:
        _tries.pop(exercise.id, None)
    elif counts:
        _tries[exercise.id] = _tries.get(exercise.id, 0) + 1
    feedback = Feedback(exercise.id, ok, _plain(text), _html(text), _tries.get(exercise.id, 0))
    _show(feedback)
    return feedback


def hint(exercise_id, lang="en", step=None):  # -> Message
    """A hint without trying: step 1 the idea, step 2 the closer hint (default: 1 until a wrong answer, then 2)."""
    _validate_lang(lang)
    exercise = get(exercise_id)
    if step is None:
        step = 1 if _tries.get(exercise.id, 0) == 0 else 2
    if step not in (1, 2):
        raise ValueError(f"step: use 1 (the idea) or 2 (a closer hint), got {step!r}.")
    text = _say(f"hint_{step}", lang, hint=exercise.hints[step - 1][lang])
    label, _, body = text.partition(": ")
    return Message(f"**{label}** ({exercise.id}): {body}", _plain(f"{label} ({exercise.id}): {body}"))


def solution(exercise_id, lang="en"):  # -> Message
    """The solution of an exercise, as the learner's cell would hold it, shown as code."""
    _validate_lang(lang)
    exercise = get(exercise_id)
    title = (f"해답 — 연습 {exercise.id}" if lang == "ko" else f"Solution — exercise {exercise.id}")
    title += f" ({_plain(exercise.task[lang])})"
    code = solution_code(exercise.id)
    return Message(f"**{title}**\n\n```python\n{code}\n```", f"{title}\n\n{code}")


def reset(exercise_id=None):
    """Forget the wrong answers counted so far: of one exercise, or (no argument) of all."""
    if exercise_id is None:
        _tries.clear()
    else:
        _tries.pop(get(exercise_id).id, None)


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


# Last, so that the bank modules can import Exercise and Mistake from this package.
EXERCISES = _load(BANKS)
