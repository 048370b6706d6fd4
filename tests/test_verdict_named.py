"""What a verdict names, as data (`Feedback.named`): the key a class report counts. A known mistake is named by
its own key, a word said by that word's key, a right answer "right"; the same answer gives the same key in both
languages."""

import numpy as np
import pytest

import attention_lab as al
from attention_lab import exercises as ex
from attention_lab.exercises.judge import named_key

IDS = list(ex.EXERCISES)


@pytest.fixture(autouse=True)
def fresh_session():
    ex.reset()
    yield
    ex.reset()


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_catalogue_entry_is_named_by_what_it_was_told(exercise_id, capsys):
    exercise = ex.get(exercise_id)
    for what, answer, says in ex.catalogue(exercise):
        named = {lang: ex.check(exercise_id, answer, lang=lang).named for lang in ("ko", "en")}
        assert named["ko"] == named["en"], (exercise_id, what, named)
        if isinstance(says, dict):  # a known mistake: its key, never a generic word's
            mistake = next(m for m in exercise.mistakes if m.hint is says)
            assert named["en"] == named_key(exercise, mistake), (exercise_id, what, named)
            assert named["en"].startswith("mistake:")
        elif isinstance(says, str):  # a word key, "ex.only_here": said, and named by it
            assert named["en"] == says.removeprefix("ex."), (exercise_id, what, named)
        else:
            assert named["en"] not in ("", "right"), (exercise_id, what, named)
    capsys.readouterr()


def test_a_right_answer_and_no_answer_are_named_so(capsys):
    solution = {}
    exec(ex.solution_code("02.score").splitlines()[0], {"al": al, "np": np}, solution)
    assert ex.check("02.score", solution["answer"]).named == "right"
    assert ex.check("02.score", ...).named == "unanswered"
    capsys.readouterr()


def test_a_mistake_without_a_name_is_named_by_its_place():
    exercise = ex.get("02.score")
    second = exercise.mistakes[1]
    assert named_key(exercise, second) == ("mistake:" + second.name if second.name else "mistake:#2")
