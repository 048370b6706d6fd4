"""The exercise checker: right, wrong, unanswered, wrong shape, both languages, every exercise solvable."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_lab as al
from attention_lab import exercises as ex

IDS = list(ex.EXERCISES)


def solve(exercise_id):
    """The registered solution, evaluated the way the notebook's hidden cell runs it."""
    return eval(ex.solution(exercise_id), {"al": al, "np": np, "tr": al.article_example()})


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("exercise_id", IDS)
def test_every_exercise_is_solved_by_its_solution(exercise_id, lang, capsys):
    feedback = ex.check(exercise_id, solve(exercise_id), lang=lang)
    assert feedback.ok is True and feedback
    assert capsys.readouterr().out.startswith("✓")


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_exercise_speaks_both_languages(exercise_id):
    e = ex.EXERCISES[exercise_id]
    for text in (e.task, e.hint):
        assert set(text) == {"ko", "en"} and all(text.values())
    assert set(e.note) <= {"ko", "en"}
    assert any("\uac00" <= ch <= "\ud7a3" for ch in e.hint["ko"])  # the Korean hint is in Hangul


def test_expected_answers_are_the_articles_numbers():
    assert ex.expected("02.score") == 2
    assert ex.expected("02.row2").tolist() == [6, 3, -2]
    assert ex.expected("03.row2").tolist() == [3, 1.5, -1]
    assert ex.expected("04.row2").tolist() == [3, 1.5, -np.inf]
    assert np.allclose(ex.expected("05.row3"), [0.114, 0.042, 0.844], atol=5e-4)
    assert np.allclose(ex.expected("05.row2"), [0.818, 0.182, 0], atol=5e-4)
    assert np.allclose(ex.expected("06.out3"), [0.114, 0.042, 0.844, 1], atol=5e-4)


@pytest.mark.parametrize("lang, word", [("ko", "정답입니다"), ("en", "Correct")])
def test_right_answer(lang, word, capsys):
    tr = al.article_example()
    feedback = ex.check("02.score", tr.Qh[0, 2] @ tr.Kh[0, 0], lang=lang)
    assert feedback and feedback.ok is True
    out = capsys.readouterr().out
    assert out.startswith("✓") and word in out and out.count("\n") == 1


def test_the_articles_rounded_weights_are_accepted():
    assert ex.check("05.row3", [0.114, 0.042, 0.844])
    assert ex.check("06.out3", [0.114, 0.042, 0.844, 1])


@pytest.mark.parametrize("lang, hint", [("ko", "힌트:"), ("en", "Hint:")])
def test_wrong_answer_gives_a_hint(lang, hint, capsys):
    feedback = ex.check("02.score", 3, lang=lang)
    assert not feedback and feedback.ok is False
    out = capsys.readouterr().out
    assert out.startswith("✗") and hint in out and ex.EXERCISES["02.score"].hint[lang] in out


@pytest.mark.parametrize("lang, words", [("ko", "아직 답이 없습니다"), ("en", "No answer yet")])
@pytest.mark.parametrize("answer", [..., None])
def test_unanswered_says_so(answer, lang, words, capsys):
    feedback = ex.check("05.row3", answer, lang=lang)
    assert feedback.ok is None and not feedback
    out = capsys.readouterr().out
    assert out.startswith(words) and ex.EXERCISES["05.row3"].task[lang] in out


@pytest.mark.parametrize("lang, words", [("ko", "모양이 다릅니다"), ("en", "Wrong shape")])
def test_wrong_shape_names_the_expected_shape(lang, words, capsys):
    feedback = ex.check("02.row2", [6, 3], lang=lang)
    assert feedback.ok is False
    out = capsys.readouterr().out
    assert out.startswith("✗") and words in out and "(3,)" in out and "(2,)" in out
    assert ex.check("02.head2", al.article_example().S[1, 0], lang=lang).ok is False  # a row for a matrix
    assert "(3, 3)" in capsys.readouterr().out


def test_a_scalar_answer_may_be_a_one_element_array():
    assert ex.check("02.score", np.array([2.0]))
    assert ex.check("00.dh", [[4]])


@pytest.mark.parametrize("answer", ["two", [1, [2, 3]], {"a": 1}])
def test_answers_that_are_not_numbers_are_refused_kindly(answer, capsys):
    feedback = ex.check("02.row2", answer, lang="ko")
    assert feedback.ok is False
    assert capsys.readouterr().out.startswith("✗ 답은 숫자")


def test_nan_is_wrong():
    assert not ex.check("05.stable", [np.nan, np.nan, np.nan])


def test_minus_infinity_must_be_in_its_place():
    tr = al.article_example()
    assert ex.check("04.row2", tr.S_scaled[0, 1] + tr.M[1])
    assert not ex.check("04.row2", tr.S_scaled[0, 1])  # forgot the mask
    assert not ex.check("04.row2", [3, 1.5, -1e9])  # a big negative number is not −∞


def test_unknown_exercise_and_language_raise_clear_errors():
    with pytest.raises(ValueError, match="unknown exercise '99.nope'.*02.score"):
        ex.check("99.nope", 1)
    with pytest.raises(ValueError, match="lang: use 'ko' or 'en'"):
        ex.check("02.score", 2, lang="fr")
    with pytest.raises(ValueError, match="unknown exercise"):
        ex.solution(["not", "an", "id"])


def test_feedback_adds_no_output_line_in_a_notebook(capsys):
    feedback = ex.check("02.score", 2, lang="en")
    printed = capsys.readouterr().out
    assert repr(feedback) == printed.rstrip("\n")
    assert feedback._ipython_display_() is None  # IPython shows nothing more for it
    assert capsys.readouterr().out == ""


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["02.row2", "03.row2", "05.row3", "06.out3", "01.H_row2"]), st.data())
def test_any_answer_off_by_more_than_the_tolerance_is_wrong(exercise_id, data):
    want = ex.expected(exercise_id)
    index = data.draw(st.integers(0, want.size - 1))
    step = data.draw(st.floats(2 * ex.EXERCISES[exercise_id].tol, 100)) * data.draw(st.sampled_from([-1, 1]))
    answer = want.copy()
    answer.flat[index] += step
    assert ex.check(exercise_id, answer).ok is False
