"""What an exercise forbids and withholds holds whatever route the answer takes, and an answer that never ends is
stopped (issue 48, items 1, 2, 3 and 5): a forbidden function is refused by the function object reached, not by
the name it was called by; nothing handed to the answer leads to a withheld field; an endless loop gets one line
that names the exercise and the time limit."""

import gc
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import attention_lab as al
from attention_lab import exercises as ex
from attention_lab.exercises import slips
from attention_lab.numeric.trace import AttentionTrace

NOTEBOOKS = Path(__file__).resolve().parent.parent / "tools" / "notebooks"


@pytest.fixture(autouse=True)
def fresh_session():
    ex.reset()
    yield
    ex.reset()


def cell(code):  # -> `answer`, as a learner's cell defines it (with the notebook's names: al, np)
    namespace = {"al": al, "np": np}
    exec(code, namespace)
    return namespace["answer"]


# ------------------------------------------------------------------ items 1 and 2: what the task forbids


def test_every_exercise_whose_task_says_without_a_function_refuses_it():
    """The notebooks' tasks, "without `al.causal_mask`": each such exercise forbids that very function."""
    said = {}
    for source in NOTEBOOKS.glob("nb*.py"):
        for found in re.finditer(r'exercise\("(\d\d\.\w+)",(.*?)\d\)', source.read_text(encoding="utf-8"), re.S):
            for name in re.findall(r"without `al\.(\w+)`", found.group(2)):
                said.setdefault(found.group(1), set()).add(name)
    assert said.keys() >= {"04.mask4", "05.row3"}
    for exercise_id, names in said.items():
        forbidden = {f.__name__ for f in ex.get(exercise_id).given.forbid}
        assert names <= forbidden, (exercise_id, names, forbidden)


@pytest.mark.parametrize("code", [
    "answer = lambda T: al.causal_mask(T)",  # the learner's report, issue 48 item 1
    "answer = lambda T: al.make_mask('causal', T)",
    "cm = al.causal_mask\nanswer = lambda T: cm(T)",
    "from attention_lab.numeric.masks import causal_mask as f\nanswer = lambda T: f(T)",
    "answer = lambda T, f=al.causal_mask: f(T)",
    "answer = lambda T: getattr(al, 'causal' + '_mask')(T)",
    "answer = lambda T: np.where(al.Mask('causal').allowed(T), 0.0, -np.inf)",
])
def test_the_causal_mask_exercise_refuses_al_causal_mask_by_any_route(code):
    for lang in ("ko", "en"):
        feedback = ex.check("04.mask4", cell(code), lang=lang)
        assert feedback.ok is False and feedback.named == "forbidden", (code, feedback.text)
        assert "al.causal_mask" in feedback.text and feedback.tries == 0
    assert "without al.causal_mask" in ex.check("04.mask4", cell(code)).text


@pytest.mark.parametrize("exercise_id, row", [("05.row3", "tr.S_masked[0, 2]"), ("05.row2", "tr.S_masked[0, 1]")])
@pytest.mark.parametrize("code", [
    "sm = al.softmax\nanswer = lambda tr: sm({row})",  # the fuzzer's routes, issue 48 item 2
    "from attention_lab.numeric.core import softmax as f\nanswer = lambda tr: f({row})",
    "answer = lambda tr, f=al.softmax: f({row})",
    "answer = lambda tr: getattr(al, 'soft' + 'max')({row})",
    "def make(f):\n    return lambda tr: f({row})\nanswer = make(al.softmax)",  # a closure
    "def helper(x):\n    return al.softmax(x)\nanswer = lambda tr: helper({row})",
    "answer = lambda tr: al.normalize_rows(al.row_exponentials({row}))",  # al.softmax's own two steps
    "answer = lambda tr: al.attention_trace(tr.Q, tr.K, tr.V, h=tr.h).P[0, {i}]",
])
def test_the_softmax_exercises_refuse_al_softmax_by_any_name(exercise_id, row, code):
    answer = cell(code.format(row=row, i=row[-2]))
    feedback = ex.check(exercise_id, answer)
    assert feedback.ok is False and feedback.named == "forbidden", (code, feedback.text)
    assert "without al.softmax" in feedback.text


@pytest.mark.parametrize("code", [
    "sm = al.softmax\nanswer = lambda x: sm(x)",
    "answer = lambda x, f=al.softmax: f(x)",
    "answer = lambda x: vars(al)['soft' + 'max'](x)",
])
def test_the_stable_softmax_exercise_refuses_it_too(code):
    assert ex.check("05.stable", cell(code)).named == "forbidden"


def test_a_softmax_of_the_learners_own_is_not_refused_for_its_name():
    own = cell("def softmax(x):\n    e = np.exp(x - x.max())\n    return e / e.sum()\n"
               "answer = lambda tr: softmax(tr.S_masked[0, 2])")
    assert ex.check("05.row3", own).ok is True
    assert ex.check("05.stable", cell("softmax = lambda x: np.exp(x - x.max()) / np.exp(x - x.max()).sum()\n"
                                      "answer = lambda x: softmax(x)")).ok is True


def test_a_forbidden_call_caught_by_the_learners_code_is_still_refused():
    code = ("def answer(tr):\n    try:\n        al.softmax(tr.S_masked[0, 2])\n"
            "    except BaseException:\n        pass\n"
            "    return np.exp(tr.S_masked[0, 2]) / np.exp(tr.S_masked[0, 2]).sum()")
    assert ex.check("05.row3", cell(code)).named == "forbidden"


def test_exercises_that_forbid_nothing_may_call_the_library():
    assert ex.check("07.no_mask_row1", lambda tr: al.softmax(tr.S_scaled[0, 0])).ok is True


# ------------------------------------------------------------------ item 3: a withheld field is out of reach


def _reachable(root, limit=20000):  # -> every object reachable from `root` (modules, classes and functions aside)
    seen, todo, found = set(), [root], []
    while todo and len(found) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, type(sys), type(len), type(_reachable))):
            continue
        seen.add(id(obj))
        found.append(obj)
        todo.extend(gc.get_referents(obj))
    return found


@pytest.mark.parametrize("exercise_id", [i for i in ex.EXERCISES
                                         if ex.get(i).given is not None and ex.get(i).given.fields is not None])
def test_nothing_an_exercise_hands_out_leads_to_a_withheld_field(exercise_id):
    given = ex.get(exercise_id).given
    trace = given.cases()[0][0]
    withheld = [name for name in al.numeric.trace.ARRAYS if name not in given.fields]
    handed = given.hand(given.cases()[0])[0]
    reached = _reachable(handed)
    assert not any(isinstance(obj, AttentionTrace) for obj in reached), exercise_id
    stored = {trace._data[name][0] for name in withheld}  # the trace's own bytes of each withheld field
    assert not any(isinstance(obj, bytes) and obj in stored for obj in reached), exercise_id
    for name in withheld:
        values = getattr(trace, name)
        assert not any(isinstance(obj, np.ndarray) and obj.shape == values.shape and obj.size > 1
                       and np.array_equal(obj, values) for obj in reached), (exercise_id, name)


@pytest.mark.parametrize("code", ["tr._trace.P[0, 2]", "object.__getattribute__(tr, '_trace').P[0, 2]",
                                  "tr.__getattr__('P')[0, 2]"])
def test_the_views_private_side_gives_no_withheld_field(code):
    feedback = ex.check("05.row3", eval(f"lambda tr: {code}"))  # noqa: S307
    assert feedback.ok is False and feedback.named != "right", (code, feedback.text)


# ------------------------------------------------------------------ item 5: an answer that never ends


def _endless(tr):
    while True:
        pass


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("exercise_id, answer", [
    ("02.score", _endless),
    ("05.stable", lambda x: sum(1 for _ in iter(int, 1))),  # a generator that never ends
    ("04.mask4", lambda T: [T for _ in iter(lambda: 0, 1)]),
])
def test_an_answer_that_never_returns_is_stopped_with_one_clear_line(exercise_id, answer, lang, monkeypatch):
    monkeypatch.setattr(slips, "LIMIT", 0.3)
    before = sys.gettrace()
    feedback = ex.check(exercise_id, answer, lang=lang)
    assert sys.gettrace() is before  # a debugger's or coverage's tracer is put back
    assert feedback.ok is False and feedback.named == "timeout" and feedback.tries == 0
    assert exercise_id in feedback.text and "0.3" in feedback.text and "\n" not in feedback.text
    assert ("did not finish in 0.3 s" in feedback.text) if lang == "en" else ("0.3초 안에 끝나지 않아" in feedback.text)


def test_an_endless_loop_only_on_a_hidden_case_is_stopped_too(monkeypatch):
    monkeypatch.setattr(slips, "LIMIT", 0.3)

    def answer(tr):
        while tr.dh != 4:  # the shown example has dh = 4; the hidden ones of other sizes do not
            pass
        return tr.Qh[0, 2] @ tr.Kh[0, 0]

    assert ex.check("02.score", answer).named == "timeout"


def test_an_answer_that_catches_everything_is_stopped_all_the_same(monkeypatch):
    monkeypatch.setattr(slips, "LIMIT", 0.3)

    def answer(tr):
        while True:
            try:
                pass
            except Exception:  # the learner's own catch does not swallow the stop
                pass

    assert ex.check("02.score", answer).named == "timeout"
