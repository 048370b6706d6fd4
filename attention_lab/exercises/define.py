"""What an exercise is: its task, what it is given, its answer (computed), hints in two steps, known mistakes.

Most answers are functions of what the exercise gives: the learner writes `answer = lambda tr: …`, and the
checker calls it on the case the notebook shows and on cases the learner does not see (`Given`), so a value
that matches by chance, or a wrong method that happens to give the right number here, does not pass. An
exercise whose answer is a plain value (`given=None`) chooses its data so that the known wrong methods give
values of their own.
"""

import ast
import inspect
import keyword
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .hands import handed

LANGS = ("ko", "en")


def _require_texts(value, what, owner):
    if not (isinstance(value, dict) and set(value) == set(LANGS)
            and all(isinstance(text, str) and text.strip() for text in value.values())):
        raise ValueError(f"{owner}: {what} must be a dict of non-empty 'ko' and 'en' strings, got {value!r}.")


@dataclass(frozen=True)
class Given:
    """What the learner's function receives: its parameters' names, the case the task shows, and hidden cases.

    `shown()` and each of `hidden()` are tuples of arguments, in the order of `names`. The hidden cases are
    examples the learner does not see: the same sizes with other numbers (so typed-in numbers and wrong
    methods that match here by chance fail), or other sizes where the answer depends on the sizes.
    """

    names: tuple  # ("tr",), ("T", "w"), …
    shown: Callable[[], tuple]
    hidden: Callable[[], tuple]  # () -> (args, args, …)
    fields: tuple = None  # the trace fields the answer may read (None: all); later stages are withheld
    forbid: tuple = ()  # functions the answer may not reach, the one the task names first: (softmax, …) where the task
    # says "without al.softmax"; watched while the answer runs, by the function object (slips.run)

    def __post_init__(self):
        object.__setattr__(self, "names", tuple(self.names))
        if not self.names or not all(isinstance(n, str) and n.isidentifier() and not keyword.iskeyword(n)
                                     for n in self.names):
            raise ValueError(f"Given: names must be Python names, got {self.names!r}.")
        object.__setattr__(self, "forbid", tuple(self.forbid))
        if not all(callable(f) and hasattr(inspect.unwrap(f), "__code__") for f in self.forbid):
            raise ValueError(f"Given: forbid must hold Python functions (al.softmax, …), got {self.forbid!r}.")

    @property
    def signature(self):  # "tr", "T, w"
        return ", ".join(self.names)

    def cases(self):  # -> [shown args, hidden args, …]
        return [tuple(self.shown()), *(tuple(args) for args in self.hidden())]

    def hand(self, args):  # -> what the learner's function receives for one case: allowed, read-only, fresh
        return tuple(handed(arg, self.fields) for arg in args)


@dataclass(frozen=True)
class Mistake:
    """A known wrong answer: the value it gives (computed, never typed) and the hint it gets at once.

    `value` takes the same arguments as the exercise's `expected` (none when the answer is a plain value).
    A mistake that gives the right value on the shown case (a wrong method that matches by chance) is
    recognised on the hidden cases.
    """

    value: Callable  # (*args) -> a number, an array, or a tuple (for a shape exercise)
    hint: dict  # {"ko": ..., "en": ...}: what went wrong and what to do instead; never the solution
    name: str = ""  # the slip it is, as a short key ("sqrt_d"): what a class report counts (judge.named_key)


@dataclass(frozen=True)
class Exercise:
    """One exercise: the task, what it is given, its answer (computed), two hints in steps, mistakes, a solution."""

    id: str  # "NN.name", NN the notebook that asks it
    task: dict  # {"ko": ..., "en": ...}: what to compute, in a few words
    expected: Callable  # (*args of the case) -> the right answer: a number, an array, or a tuple (a shape)
    solution: str  # one expression (the body of the lambda, or the value), or lines that define `answer`
    hints: tuple  # (idea, closer), each {"ko": ..., "en": ...}: the idea without code; the step to take
    mistakes: tuple = ()  # Mistake, …
    tol: float = 1e-6  # absolute tolerance; 1e-3 accepts the article's three-decimal weights
    note: dict = field(default_factory=dict)  # {"ko": ..., "en": ...}: said after a right answer
    given: Given = None  # what the learner's function receives; None: the answer is a plain value
    wrong: tuple = ()  # more wrong answers it must refuse, as the learner writes them: "code", or ("code", says)

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
        if not (self.given is None or isinstance(self.given, Given)):
            raise ValueError(f"{self.id}: given must be a Given(names, shown, hidden) or None, got {self.given!r}.")
        object.__setattr__(self, "wrong", tuple(self.wrong))
        for entry in self.wrong:
            code, says = (entry, None) if isinstance(entry, str) else entry
            if not (isinstance(code, str) and (says is None or isinstance(says, str) or says in
                                               [m.hint for m in self.mistakes])):
                raise ValueError(f"{self.id}: each wrong answer is 'code' or ('code', a word key or the hint of "
                                 f"one of its mistakes), got {entry!r}.")
        answer_lines(self)  # raises if the solution is not code that sets `answer`

    def cases(self):  # -> [args, …]: the shown case first; [()] for a plain value
        return [()] if self.given is None else self.given.cases()

    @property
    def template(self):  # the learner's unanswered line
        return "answer = ..." if self.given is None else f"answer = lambda {self.given.signature}: ..."

    @property
    def what(self):  # how feedback names the learner's value
        return "`answer`" if self.given is None else f"`answer({self.given.signature})`"


def as_code(exercise, code):  # -> the learner's answer that `code` (a lambda's body, or a value) is
    import attention_lab

    head = "" if exercise.given is None else f"lambda {exercise.given.signature}: "
    namespace = {"np": np, "al": attention_lab, "tr": attention_lab.article_example()}  # as a notebook has them
    return eval(head + code, namespace)  # noqa: S307  (the banks' own code)


def catalogue(exercise):  # -> [(what it is, the learner's answer, what it must be told: a hint, a key or None)]
    """Every wrong answer an exercise must refuse: each known mistake, made as the learner makes it (its value
    function), told its own hint; then `wrong`, each told what it names (None: anything but right)."""
    entries = [(m.hint["en"], m.value() if exercise.given is None else m.value, m.hint) for m in exercise.mistakes]
    for entry in exercise.wrong:
        code, says = (entry, None) if isinstance(entry, str) else entry
        entries.append((code, as_code(exercise, code), says))
    return entries


def _defines_answer(node):
    if isinstance(node, ast.FunctionDef):
        return node.name == "answer"
    return isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "answer" for t in node.targets)


def answer_lines(exercise):  # -> the solution as lines that set `answer`
    try:
        ast.parse(exercise.solution, mode="eval")
    except SyntaxError:
        pass
    else:
        if exercise.given is None:
            return f"answer = {exercise.solution}"
        return f"answer = lambda {exercise.given.signature}: {exercise.solution}"
    try:
        tree = ast.parse(exercise.solution)
    except SyntaxError as error:
        raise ValueError(f"{exercise.id}: solution is not Python code ({error.msg}).") from None
    if not any(_defines_answer(node) for node in tree.body):
        raise ValueError(f"{exercise.id}: a solution of several lines must set `answer` (or define it).")
    return exercise.solution


def check_line(exercise_id):
    return f'ex.check("{exercise_id}", answer, lang=LANG)'
