"""The exercises: every solution solves its exercise, hints come in steps, no feedback spoils the solution,
and any value at all gets one clear line without ever raising or being called right when it is not."""

import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attention_lab as al
from attention_lab import exercises as ex

IDS = list(ex.EXERCISES)
LANGS = ("ko", "en")
HANGUL = re.compile("[\uac00-\ud7a3]")


@pytest.fixture(autouse=True)
def fresh_session():
    ex.reset()
    yield
    ex.reset()


def solve(exercise_id):
    """Run the solution's lines as the learner's cell would, and return `answer`."""
    lines = ex.solution_code(exercise_id).splitlines()
    assert lines[-1] == f'ex.check("{exercise_id}", answer, lang=LANG)'
    namespace = {"al": al, "np": np, "tr": al.article_example()}
    exec("\n".join(lines[:-1]), namespace)
    return namespace["answer"]


def compact(text):
    return re.sub(r"[\s`]", "", text)


def wrong_by_far(exercise_id):
    """A value of the right kind and shape that is wrong and is no known mistake."""
    want = ex.expected(exercise_id)
    if isinstance(want, tuple):
        return tuple(n + 7 for n in want)
    return want + 0.5 + np.arange(want.size).reshape(want.shape)


# ------------------------------------------------------------------ right answers


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("exercise_id", IDS)
def test_every_exercise_is_solved_by_its_solution(exercise_id, lang, capsys):
    feedback = ex.check(exercise_id, solve(exercise_id), lang=lang)
    assert feedback.ok is True and feedback and feedback.tries == 0
    assert capsys.readouterr().out.startswith("✓")


def test_expected_answers_are_the_articles_numbers():
    assert ex.expected("02.score") == 2
    assert ex.expected("02.row2").tolist() == [6, 3, -2]
    assert ex.expected("03.row2").tolist() == [3, 1.5, -1]
    assert ex.expected("04.row2").tolist() == [3, 1.5, -np.inf]
    assert np.allclose(ex.expected("05.row3"), [0.114, 0.042, 0.844], atol=5e-4)
    assert np.allclose(ex.expected("05.row2"), [0.818, 0.182, 0], atol=5e-4)
    assert np.allclose(ex.expected("06.out3"), [0.114, 0.042, 0.844, 1], atol=5e-4)
    assert ex.expected("00.P_shape") == (2, 3, 3)
    assert ex.expected("07.H_shape") == (5, 12)



def test_the_mask_exercises_expect_what_notebooks_08_and_09_teach():
    i, j = np.arange(5)[:, None], np.arange(5)[None, :]
    band = (j <= i) & (j > i - 2)
    assert np.array_equal(ex.expected("08.sliding"), np.where(band, 0.0, -np.inf))
    assert np.array_equal(ex.expected("08.wrong_api"), np.where(band, -np.inf, 0.0))  # the inverted band
    assert np.allclose(ex.expected("08.padding_row"), 0.2)  # −1e9 over every score: five equal weights
    assert ex.expected("09.scale") == 0.5  # 1 / √4
    assert np.array_equal(ex.expected("09.key_padding"), np.where((j <= i) & (j < 3), 0.0, -np.inf))
    assert np.allclose(ex.expected("09.average").sum(axis=1), 1)
    assert not ex.check("08.sliding", np.where(band, 0.0, -1e9))  # a big negative number is not −∞

def test_the_articles_rounded_weights_are_accepted():
    assert ex.check("05.row3", [0.114, 0.042, 0.844])
    assert ex.check("06.out3", [0.114, 0.042, 0.844, 1])


@pytest.mark.parametrize("answer", [2, 2.0, np.int64(2), np.float32(2), np.array([2.0]), [[2]], Fraction(2),
                                    Decimal(2)])
def test_a_number_may_come_in_any_numeric_form(answer):
    assert ex.check("02.score", answer).ok is True


@pytest.mark.parametrize("answer", [(2, 3, 3), [2, 3, 3], np.array([2, 3, 3]), (np.int64(2), 3, 3.0)])
def test_a_shape_may_come_as_a_tuple_a_list_or_an_int_array(answer):
    assert ex.check("00.P_shape", answer).ok is True


def test_minus_infinity_must_be_in_its_place():
    tr = al.article_example()
    assert ex.check("04.row2", tr.S_scaled[0, 1] + tr.M[1])
    assert not ex.check("04.row2", [3, 1.5, -1e9])  # a big negative number is not −∞
    assert not ex.check("04.row2", [3, -np.inf, -np.inf])
    assert not ex.check("04.row2", [3, 1.5, np.inf])


# ------------------------------------------------------------------ hints in steps


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("exercise_id", IDS)
def test_hints_come_in_steps_and_a_right_answer_or_reset_clears_them(exercise_id, lang, capsys):
    e = ex.get(exercise_id)
    wrong = wrong_by_far(exercise_id)
    first, second, third = (ex.check(exercise_id, wrong, lang=lang) for _ in range(3))
    idea, closer = (compact(h[lang]) for h in e.hints)
    assert [first.tries, second.tries, third.tries] == [1, 2, 3]
    assert idea in compact(first.text) and closer not in compact(first.text)
    assert closer in compact(second.text) and "ex.solution" not in second.text
    assert closer in compact(third.text) and f'ex.solution("{exercise_id}", lang="{lang}")' in third.text
    assert ex.tries(exercise_id) == 3
    assert ex.check(exercise_id, solve(exercise_id), lang=lang)
    assert ex.tries(exercise_id) == 0
    assert idea in compact(ex.check(exercise_id, wrong, lang=lang).text)  # from the start again
    ex.reset(exercise_id)
    assert ex.tries(exercise_id) == 0
    capsys.readouterr()


def test_tries_are_counted_per_exercise():
    ex.check("02.score", 5)
    ex.check("02.score", 5)
    assert ex.check("03.divisor", 5).tries == 1  # the other exercise starts with the idea
    assert ex.tries("02.score") == 2
    ex.reset()
    assert ex.tries("02.score") == ex.tries("03.divisor") == 0


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_first_hint_is_the_idea_without_code(exercise_id):
    for lang in LANGS:
        idea = ex.get(exercise_id).hints[0][lang]
        assert "`" not in idea and not re.search(r"\b(tr|np|al|ex)\.", idea), idea


@pytest.mark.parametrize("exercise_id", IDS)
def test_no_hint_and_no_feedback_holds_the_solution(exercise_id):
    e = ex.get(exercise_id)
    solution = compact(e.solution)
    texts = [h[lang] for h in e.hints for lang in LANGS] + [m.hint[lang] for m in e.mistakes for lang in LANGS]
    wrong = wrong_by_far(exercise_id)
    for lang in LANGS:
        texts += [ex.check(exercise_id, wrong, lang=lang).text for _ in range(4)]
        texts += [ex.check(exercise_id, m.value(), lang=lang).text for m in e.mistakes]
        texts += [ex.check(exercise_id, ..., lang=lang).text, ex.hint(exercise_id, lang=lang).text]
    for text in texts:
        assert solution not in compact(text), (exercise_id, text)


@pytest.mark.parametrize("exercise_id", [i for i in IDS if ex.get(i).mistakes])
def test_every_known_mistake_gets_its_own_hint_at_once(exercise_id):
    e = ex.get(exercise_id)
    for lang in LANGS:
        for mistake in e.mistakes:
            ex.reset()
            feedback = ex.check(exercise_id, mistake.value(), lang=lang)
            assert feedback.ok is False and feedback.tries == 1
            assert feedback.text == "✗ " + mistake.hint[lang].replace("`", ""), feedback.text


def test_the_issues_mistakes_are_known():
    tr = al.article_example()
    said = {
        "forgot the mask": ex.check("04.row2", tr.S_scaled[0, 1]).text,
        "divided by √d": ex.check("03.row2", tr.S[0, 1] / np.sqrt(tr.d)).text,
        "Head 2's columns": ex.check("01.head2_q3", tr.Q[2, :4]).text,
        "P without the mask": ex.check("05.row2", al.softmax(tr.S_scaled[0, 1])).text,
        "off by one": ex.check("02.row2", tr.S[0, 2]).text,
        "−1e9 for −∞": ex.check("04.mask4", np.where(np.tril(np.ones((4, 4))) == 1, 0, -1e9)).text,
        "exp overflow": ex.check("05.stable", [np.nan] * 3).text,
    }
    assert "add the same row of M" in said["forgot the mask"]
    assert "√d" in said["divided by √d"]
    assert "Head 1's part" in said["Head 2's columns"]
    assert "left out the mask" in said["P without the mask"]
    assert "indices count from 0" in said["off by one"]
    assert "instead of −∞" in said["−1e9 for −∞"]
    assert "overflowed" in said["exp overflow"]


# ------------------------------------------------------------------ answers of the wrong kind


FORM_CASES = [  # (exercise, answer, what the English line must say)
    ("02.score", "4", "answer is text, '4': write it without quotes, answer = 4."),
    ("02.score", " 2.5 ", "write it without quotes, answer = 2.5."),
    ("02.score", b"4", "answer = 4"),
    ("02.score", "tr.S[0, 2, 0]", "answer is text"),
    ("02.score", 2 + 5j, "complex"),
    ("02.score", np.array(2 + 5j), "complex"),
    ("02.score", np.array(2 + 0j), "complex"),
    ("02.score", True, "truth value (bool)"),
    ("02.score", np.True_, "truth value (bool)"),
    ("02.score", None, "answer is None"),
    ("02.score", 10**400, "too large for a float"),
    ("02.score", -(10**400), "too large for a float"),
    ("02.score", Fraction(10**400, 3), "too large for a float"),
    ("02.score", float("nan"), "NaN"),
    ("02.score", np.inf, "∞"),
    ("02.score", {"a": 1}, "the type dict"),
    ("02.score", object(), "the type object"),
    ("02.score", al.article_example, "call it with ()"),
    ("02.row2", [1, [2, 3]], "rows differ in length"),
    ("02.row2", [6, "3", -2], "holds text, '3'"),
    ("02.row2", [6, None, -2], "holds None"),
    ("02.row2", [True, False, True], "truth values (True/False)"),
    ("02.row2", np.array([6, 3, -2]) == 6, "truth values (True/False)"),
    ("02.row2", [6, 3, 2j], "complex"),
    ("02.row2", [6, 3, 10**400], "too large"),
    ("02.row2", [6, 3, np.nan], "NaN"),
    ("02.row2", {6, 3, -2}, "the type set"),
    ("02.row2", np.array(["6", "3", "-2"]), "holds text"),
    ("00.P_shape", 3, "answer is one number, 3; a shape is a tuple of three numbers: answer = (…, …, …)."),
    ("00.P_shape", "(2, 3, 3)", "write it without quotes, answer = (2, 3, 3)."),
    ("00.P_shape", (2.5, 3, 3), "not whole"),
    ("00.P_shape", ((2,), (3,), (3,)), "nested"),
    ("00.P_shape", (True, 3, 3), "truth value"),
    ("07.H_shape", np.zeros((5, 12)), "answer is an array of shape (5, 12), not a shape: write the shape, "
                                       "a tuple of two numbers."),
]


@pytest.mark.parametrize("exercise_id, answer, words", FORM_CASES,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(FORM_CASES)])
def test_an_answer_of_the_wrong_kind_gets_one_line_that_says_what_to_write(exercise_id, answer, words, capsys):
    feedback = ex.check(exercise_id, answer, lang="en")
    assert feedback.ok is False and not feedback
    assert feedback.tries == 0  # not counted: the next real try still gets the first hint
    assert feedback.text.startswith("✗ answer") and "\n" not in feedback.text
    assert words in feedback.text, feedback.text
    assert capsys.readouterr().out == feedback.text + "\n"
    korean = ex.check(exercise_id, answer, lang="ko").text
    assert korean.startswith("✗ answer") and HANGUL.search(korean) and "\n" not in korean


@pytest.mark.parametrize("lang, words", [("ko", "아직 답이 없습니다"), ("en", "No answer yet")])
def test_unanswered_says_so(lang, words):
    feedback = ex.check("05.row3", ..., lang=lang)
    assert feedback.ok is None and not feedback and feedback.tries == 0
    assert feedback.text.startswith(words) and ex.get("05.row3").task[lang] in feedback.text


def test_shape_feedback_speaks_of_the_answer():
    tr = al.article_example()
    row = ex.check("02.row2", [6, 3]).text
    assert row.startswith("✗ answer is two numbers, shape (2,); the answer is three numbers, shape (3,).")
    matrix = ex.check("02.head2", tr.S[1, 0]).text
    assert matrix.startswith("✗ answer is three numbers, shape (3,); the answer is a 3 × 3 array, shape (3, 3).")
    shape = ex.check("00.P_shape", (2, 3)).text
    assert shape.startswith("✗ answer is a shape of two numbers, (2, 3); the answer is a tuple of three numbers.")
    assert ex.check("00.P_shape", tr.P).text.startswith("✗ answer is an array of shape (2, 3, 3), not a shape")
    assert "숫자 세 개로 된 튜플" in ex.check("00.P_shape", (2, 3), lang="ko").text


# ------------------------------------------------------------------ what is shown, and how


def test_feedback_is_html_with_code_as_code_and_plain_text_without_backticks(capsys):
    feedback = ex.check("02.score", "4", lang="en")
    assert "`" not in feedback.text and "`" not in feedback.html
    assert "<code>answer = 4</code>" in feedback.html and "<code>answer</code>" in feedback.html
    assert feedback.html.startswith('<div class="al-feedback"><strong style="color:#cf222e">✗</strong>')
    assert ex.check("02.score", "<script>", lang="en").html.count("<script>") == 0  # the answer is escaped
    right = ex.check("02.score", 2, lang="ko")
    assert right.text.startswith("✓ 정답입니다!") and "color:#1a7f37" in right.html
    capsys.readouterr()


def test_check_shows_its_feedback_once_and_the_returned_object_adds_nothing(capsys):
    feedback = ex.check("02.score", 2, lang="en")
    assert capsys.readouterr().out == feedback.text + "\n"
    assert repr(feedback) == str(feedback) == feedback.text
    assert feedback._ipython_display_() is None  # IPython shows nothing more for it
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("lang, title", [("ko", "해답 — 연습 03.row2"), ("en", "Solution — exercise 03.row2")])
def test_the_solution_appears_when_asked_for_as_code(lang, title):
    message = ex.solution("03.row2", lang=lang)
    code = ex.solution_code("03.row2")
    assert code == 'answer = tr.S[0, 1] / np.sqrt(tr.dh)\nex.check("03.row2", answer, lang=LANG)'
    assert message._repr_markdown_() == f"**{title} ({ex.get('03.row2').task[lang]})**\n\n```python\n{code}\n```"
    assert repr(message).endswith(code) and "`" not in repr(message)


def test_hint_on_request_follows_the_tries():
    e = ex.get("03.row2")
    assert compact(e.hints[0]["en"]) in compact(ex.hint("03.row2").text)
    ex.check("03.row2", [0, 0, 0])
    assert compact(e.hints[1]["en"]) in compact(ex.hint("03.row2").text)
    assert compact(e.hints[0]["ko"]) in compact(ex.hint("03.row2", lang="ko", step=1)._repr_markdown_())
    assert ex.tries("03.row2") == 1  # asking for a hint is not a try


def test_learner_code_is_the_unanswered_cell():
    assert ex.learner_code("02.score") == 'answer = ...\nex.check("02.score", answer, lang=LANG)'


# ------------------------------------------------------------------ errors and the registry


def test_unknown_exercise_language_or_step_raise_clear_errors():
    with pytest.raises(ValueError, match="unknown exercise '99.nope'.*02.score"):
        ex.check("99.nope", 1)
    with pytest.raises(ValueError, match="lang: use 'ko' or 'en'"):
        ex.check("02.score", 2, lang="fr")
    with pytest.raises(ValueError, match="unknown exercise"):
        ex.solution(["not", "an", "id"])
    with pytest.raises(ValueError, match="step: use 1 .* or 2"):
        ex.hint("02.score", step=3)
    with pytest.raises(ValueError, match="unknown exercise"):
        ex.reset("99.nope")


def _exercise(**changes):
    fields = dict(id="99.test", task={"ko": "과제", "en": "task"}, expected=lambda: 1, solution="1",
                  hints=({"ko": "생각", "en": "idea"}, {"ko": "더", "en": "closer"}))
    fields.update(changes)
    return ex.Exercise(**fields)


@pytest.mark.parametrize("changes, words", [
    ({"id": "score"}, "id: write 'NN.name'"),
    ({"task": {"en": "only English"}}, "task must be a dict of non-empty 'ko' and 'en'"),
    ({"hints": ({"ko": "하나", "en": "one"},)}, "hints must be two texts"),
    ({"mistakes": ("not a Mistake",)}, "mistakes must be Mistake"),
    ({"solution": "answer ="}, "solution is not Python code"),
    ({"solution": "x = 1\ny = 2"}, "must set `answer`"),
    ({"tol": 0}, "tol must be a positive number"),
])
def test_a_badly_written_exercise_is_refused_with_the_field_named(changes, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        _exercise(**changes)


def test_a_solution_of_several_lines_sets_answer():
    e = _exercise(solution="x = 1\nanswer = x")
    assert ex._answer_lines(e) == "x = 1\nanswer = x"


def test_banks_register_their_exercises_once_each():
    assert ex.BANKS == ("article", "masks", "generation")
    assert IDS == [e.id for bank in ex.BANKS for e in getattr(ex, bank).EXERCISES]
    assert IDS == sorted(IDS, key=lambda i: i[:2])  # notebook by notebook
    with pytest.raises(ValueError, match="'00.dh' is defined twice"):
        ex._load(("article", "article"))


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_exercise_speaks_both_languages_in_natural_words(exercise_id):
    e = ex.get(exercise_id)
    korean = [e.task["ko"], *(h["ko"] for h in e.hints), *(m.hint["ko"] for m in e.mistakes), e.note.get("ko", "")]
    assert all(HANGUL.search(text) for text in korean if text)
    for text in korean:
        assert not re.search(r"\d+번째", text), text  # 첫 번째, 두 번째, …
        assert "≈" not in text


def test_every_mistake_differs_from_the_answer_and_from_the_other_mistakes():
    for exercise_id in IDS:
        e = ex.get(exercise_id)
        want = ex.expected(exercise_id)
        values = [m.value() for m in e.mistakes]
        for value in values:
            assert not ex._same(ex._read_shape(value) if isinstance(want, tuple) else np.asarray(value, float),
                                want, e.tol), (exercise_id, value)


# ------------------------------------------------------------------ any value at all

LEAVES = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10**300, max_value=10**500)
          | st.floats() | st.complex_numbers() | st.text(max_size=8) | st.binary(max_size=4) | st.fractions()
          | st.decimals() | st.just(...) | st.sampled_from([2, 4, 6, 8, -np.inf, np.nan]))
NESTED = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(max_size=3), inner, max_size=2), max_leaves=12)
ARRAYS = hnp.arrays(hnp.scalar_dtypes() | hnp.complex_number_dtypes(), hnp.array_shapes(min_dims=0, max_dims=3,
                                                                                          max_side=4))


@st.composite
def near_the_answer(draw, exercise_id):
    """The right answer, changed in one of the ways that must not pass, or passed through a container."""
    want = ex.expected(exercise_id)
    base = np.asarray(want, dtype=float)
    change = draw(st.sampled_from(["list", "tuple", "float32", "str", "complex", "bool", "nudge", "nan", "object"]))
    if change == "list":
        return base.tolist()
    if change == "tuple":
        return tuple(np.atleast_1d(base).tolist())
    if change == "float32":
        return base.astype(np.float32)
    if change == "str":
        return str(base.tolist())
    if change == "complex":
        return base + 1j * draw(st.floats(0, 1))
    if change == "bool":
        return base.astype(bool)
    if change == "nan":
        return np.where(np.arange(base.size).reshape(base.shape) == 0, np.nan, base)
    if change == "object":
        return base.astype(object)
    nudged = base.copy()
    nudged.flat[draw(st.integers(0, base.size - 1))] += draw(st.floats(-3, 3))
    return nudged


def really_right(exercise_id, value):
    """An independent, strict reading: only real numbers (no bool, text, complex), the right shape and values."""
    def numbers(v, depth=0):
        if isinstance(v, (bool, np.bool_)) or depth > 8:
            return None
        if isinstance(v, np.ndarray):
            if v.dtype.kind in "iuf":
                return v.astype(float).tolist()
            if v.dtype.kind == "O":
                return numbers(v.tolist(), depth + 1)
            return None
        if isinstance(v, (int, float, np.integer, np.floating, Fraction, Decimal)):
            try:
                return float(v)
            except (OverflowError, ValueError):
                return None
        if isinstance(v, (list, tuple)):
            items = [numbers(x, depth + 1) for x in v]
            return None if any(x is None for x in items) else items
        return None

    got = numbers(value)
    if got is None:
        return False
    try:
        got = np.array(got, dtype=float)
    except ValueError:
        return False
    want = ex.expected(exercise_id)
    if isinstance(want, tuple):
        return isinstance(value, (tuple, list, np.ndarray)) and got.shape == (len(want),) and got.tolist() == list(want)
    if want.ndim == 0 and got.size == 1:
        got = got.reshape(())
    same_inf = np.array_equal(np.isinf(got) & (got > 0), np.isinf(want) & (want > 0)) and np.array_equal(
        np.isinf(got) & (got < 0), np.isinf(want) & (want < 0))
    finite = np.isfinite(want)
    return (got.shape == want.shape and same_inf and not np.isnan(got).any()
            and bool(np.all(np.abs(got[finite] - want[finite]) <= ex.get(exercise_id).tol)))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(IDS), st.data())
def test_any_value_gets_feedback_never_an_exception_and_right_only_when_right(exercise_id, data):
    value = data.draw(st.one_of(NESTED, ARRAYS, st.from_type(object), near_the_answer(exercise_id)))
    lang = data.draw(st.sampled_from(LANGS))
    feedback = ex.check(exercise_id, value, lang=lang)
    assert isinstance(feedback.text, str) and feedback.text and "\n" not in feedback.text
    assert feedback.ok in (True, False, None)
    if feedback.ok is True:
        assert really_right(exercise_id, value), (value, feedback.text)


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["02.row2", "03.row2", "05.row3", "06.out3", "01.H_row2"]), st.data())
def test_any_answer_off_by_more_than_the_tolerance_is_wrong(exercise_id, data):
    want = ex.expected(exercise_id)
    index = data.draw(st.integers(0, want.size - 1))
    step = data.draw(st.floats(2 * ex.get(exercise_id).tol, 100)) * data.draw(st.sampled_from([-1, 1]))
    answer = want.copy()
    answer.flat[index] += step
    assert ex.check(exercise_id, answer).ok is False
