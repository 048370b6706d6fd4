"""The exercises: every solution solves its exercise, the method is checked on examples the learner does not see,
hints come in steps, no feedback spoils the answer, slips are explained, and any value at all gets one clear line
without ever raising or being called right when it is not."""

import re
import string
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import attention_lab as al
from attention_lab import exercises as ex
from attention_lab.look import format_row, format_value

IDS = list(ex.EXERCISES)
FUNCTIONS = [i for i in IDS if ex.get(i).given is not None]  # answers that are functions of what is given
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


def answering(exercise_id, value_of):
    """An answer of the exercise's form: a function giving value_of(right value) on every case, or that value."""
    e = ex.get(exercise_id)
    if e.given is None:
        return value_of(ex.expected(exercise_id))
    cases = e.cases()
    wants = [ex.read.expected_form(e.expected(*case)) for case in cases]  # made before: not by the learner's code

    def made_from(handed, arg):  # whether the checker made `handed` from this case's argument
        if isinstance(handed, ex.hands.TraceView):
            return repr(handed).startswith(repr(arg)) and all(
                np.array_equal(getattr(handed, f), getattr(arg, f)) for f in dir(handed) if f[0].isupper())
        return np.array_equal(handed, arg)

    def want_of(args):  # the answer on the case the checker handed these arguments from (a view hands no trace back)
        return next(want for case, want in zip(cases, wants, strict=True)
                    if all(made_from(a, c) for a, c in zip(args, case, strict=True)))

    return lambda *args: value_of(want_of(args))


def returning(exercise_id, value):
    """An answer of the exercise's form that gives `value` whatever it is given."""
    return value if ex.get(exercise_id).given is None else (lambda *args: value)


def wrong_by_far(exercise_id):
    """An answer of the right kind and shape that is wrong and is no known mistake."""
    def far(want):
        if isinstance(want, tuple):
            return tuple(n + 7 for n in want)
        return want + 0.5 + np.arange(want.size).reshape(want.shape)

    return answering(exercise_id, far)


def as_answer(exercise_id, mistake):  # a known mistake, written as the learner would
    return mistake.value() if ex.get(exercise_id).given is None else mistake.value


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
    assert ex.expected("03.divisor") == 8 and ex.expected("10.kv_head") == 2


def test_the_mask_exercises_expect_what_notebooks_08_and_09_teach():
    i, j = np.arange(5)[:, None], np.arange(5)[None, :]
    band = (j <= i) & (j > i - 2)
    assert np.array_equal(ex.expected("08.sliding"), np.where(band, 0.0, -np.inf))
    assert np.array_equal(ex.expected("08.wrong_api"), np.where(band, -np.inf, 0.0))  # the inverted band
    assert np.allclose(ex.expected("08.padding_row"), 0.2)  # −1e9 over every score: five equal weights
    assert ex.expected("09.scale") == 0.5  # 1 / √4
    assert np.array_equal(ex.expected("09.key_padding"), np.where((j <= i) & (j < 3), 0.0, -np.inf))
    assert np.allclose(ex.expected("09.average").sum(axis=1), 1)
    assert not ex.check("08.sliding", lambda T, w: np.where(band, 0.0, -1e9))  # a big negative number is not −∞


def test_rounded_weights_are_accepted():
    assert ex.check("05.row3", lambda tr: np.round(np.exp(tr.S_masked[0, 2]) / np.exp(tr.S_masked[0, 2]).sum(), 3))
    assert ex.check("06.out3", lambda tr: np.round(tr.P[0, 2] @ tr.Vh[0], 3))
    assert ex.check("11.weight", lambda s, m, l: round(float(np.exp(s - m) / l), 3))


@pytest.mark.parametrize("form", [int, float, np.int64, np.float32, lambda v: np.array([v]), lambda v: [[v]],
                                  Fraction, lambda v: Decimal(int(v))])
def test_a_number_may_come_in_any_numeric_form(form):
    assert ex.check("02.score", lambda tr: form(tr.Qh[0, 2] @ tr.Kh[0, 0])).ok is True


@pytest.mark.parametrize("form", [tuple, list, np.array, lambda s: (np.int64(s[0]), s[1], float(s[2]))])
def test_a_shape_may_come_as_a_tuple_a_list_or_an_int_array(form):
    assert ex.check("00.P_shape", lambda tr: form((tr.h, tr.T, tr.T))).ok is True


def test_minus_infinity_must_be_in_its_place():
    assert ex.check("04.row2", lambda tr: tr.S_scaled[0, 1] + tr.M[1])
    assert not ex.check("04.row2", lambda tr: tr.S_scaled[0, 1] + np.where(tr.M[1] == 0, 0, -1e9))
    assert not ex.check("04.row2", lambda tr: np.where(np.arange(3) > 0, -np.inf, tr.S_scaled[0, 1]))
    assert not ex.check("04.row2", lambda tr: np.abs(tr.S_scaled[0, 1] + tr.M[1]))


# ------------------------------------------------------------------ the method, not only the value


@pytest.mark.parametrize("exercise_id", FUNCTIONS)
def test_a_value_typed_in_does_not_pass_where_the_method_is_checked(exercise_id):
    right_here = returning(exercise_id, ex.expected(exercise_id))  # the right value, whatever it is given
    for lang in LANGS:
        feedback = ex.check(exercise_id, right_here, lang=lang)
        assert feedback.ok is False and feedback.tries >= 1
    assert "matched by chance" in ex.check(exercise_id, right_here, lang="en").text


def test_the_issues_coincidences_do_not_pass():
    mixed = ex.check("02.score", lambda tr: tr.Q[2] @ tr.K[0])  # 8 components, both heads: 2 here by chance
    assert not mixed and "mixing both heads" in mixed.text
    assert not ex.check("10.kv_head", lambda h, g, i: i // g)  # 5 // 2 is 2 here by chance
    assert not ex.check("10.kv_head", lambda h, g, i: 5 // 2)
    assert not ex.check("03.divisor", lambda d, h: h)  # √64 = 8 = h here by chance
    assert not ex.check("05.stable", lambda x: np.exp(x - x.min()) / np.exp(x - x.min()).sum())
    Q1, K1 = al.article_example().Qh[0], al.article_example().Kh[0]  # a variable of the notebook, not of `tr`
    assert "matched by chance" in ex.check("02.score", lambda tr: Q1[2] @ K1[0]).text


def test_every_mistake_differs_from_the_answer_on_some_case():
    for exercise_id in IDS:
        e = ex.get(exercise_id)
        cases = e.cases()
        wants = [ex.read.expected_form(e.expected(*args)) for args in cases]
        for mistake in e.mistakes:
            with np.errstate(all="ignore"):
                values = [mistake.value(*args) for args in cases]
            assert not all(ex.read.same(ex.read.read(v, w), w, e.tol) for v, w in zip(values, wants, strict=True)), (
                exercise_id, mistake.hint["en"])


def test_a_mistake_right_on_the_shown_example_by_chance_is_named_on_the_hidden_ones():
    coincidences = [(i, m) for i in FUNCTIONS for m in ex.get(i).mistakes
                    if ex.read.same(ex.read.read(m.value(*ex.get(i).cases()[0]), ex.expected(i)), ex.expected(i),
                                    ex.get(i).tol)]
    assert {i for i, _ in coincidences} >= {"02.score", "03.divisor", "05.stable", "10.kv_head"}
    for exercise_id, mistake in coincidences:
        ex.reset()
        feedback = ex.check(exercise_id, mistake.value)
        assert feedback.text == "✗ " + mistake.hint["en"].replace("`", ""), (exercise_id, feedback.text)


def test_the_hidden_examples_are_not_the_shown_one():
    def equal(a, b):
        if isinstance(a, al.AttentionTrace):
            return a.Q.shape == b.Q.shape and np.array_equal(a.Q, b.Q) and np.array_equal(a.K, b.K)
        return np.array_equal(a, b)

    for exercise_id in FUNCTIONS:
        shown, *hidden = ex.get(exercise_id).cases()
        assert hidden, exercise_id
        for case in hidden:
            assert not all(equal(a, b) for a, b in zip(case, shown, strict=True)), exercise_id


# ------------------------------------------------------------------ the catalogues of wrong answers


def _told(key, lang, text):  # -> whether `text` is word `key`'s line, each {field} filled with anything
    line = ex.words.table(lang)[key]
    pieces = [re.escape(literal.replace("`", "")) for literal, *_ in string.Formatter().parse(line)]
    return re.match(".*?".join(pieces), text, re.S) is not None


@pytest.mark.parametrize("lang", LANGS)
def test_a_word_is_told_only_by_its_whole_line(lang):
    """_told's catalogue: another word's line, and this line cut short, are refused."""
    only_here = ex.words.say("ex.only_here", lang, names="tr").replace("`", "")
    assert _told("ex.only_here", lang, only_here + " Hint: …")
    assert not _told("ex.hidden_error", lang, only_here)
    assert not _told("ex.only_here", lang, only_here[:-12])
    wrong_shape = ex.words.say("ex.wrong_shape", lang, what="answer", got_form="3").replace("`", "")
    assert _told("ex.wrong_shape", lang, wrong_shape)
    assert not _told("ex.wrong_shape", lang, wrong_shape[:-5])  # its fixed start alone was enough before


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("exercise_id", IDS)
def test_every_wrong_answer_in_the_catalogue_is_refused_and_told_what_the_catalogue_names(exercise_id, lang, capsys):
    entries = ex.catalogue(ex.get(exercise_id))
    assert len(entries) >= 3, exercise_id
    for what, answer, says in entries:
        ex.reset()
        feedback = ex.check(exercise_id, answer, lang=lang)
        assert feedback.ok is False, (exercise_id, what, feedback.text)
        if isinstance(says, dict):  # a known mistake: its own hint at once, never the generic words
            assert feedback.text == "✗ " + says[lang].replace("`", ""), (exercise_id, what, feedback.text)
        elif says is not None:  # a word key: "ex.withheld", "ex.forbidden", "ex.only_here" (right here only)…
            assert _told(says, lang, feedback.text), (exercise_id, what, feedback.text)
    capsys.readouterr()


def test_every_exercise_lists_wrong_answers_as_a_learner_types_them():
    """`wrong`, run above as part of the catalogue: code as a learner types it, beside the mistakes made by value."""
    assert [i for i in IDS if len(ex.get(i).wrong) < 3] == []


# Numbers typed in: code right on the shown example only. Every exercise that also checks the answer on examples the
# learner does not see keeps at least one such answer, told so ("right here only", or "raises there"), which is
# neither "right" nor one of its mistakes.
def test_every_exercise_with_hidden_examples_tells_a_number_typed_in_that_it_is_right_here_only():
    told = ("ex.only_here", "ex.hidden_error")
    lacking = [i for i in IDS if ex.get(i).given is not None
               and not any(isinstance(w, tuple) and w[1] in told for w in ex.get(i).wrong)]
    assert lacking == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_shape_of_one_number_in_an_array_is_said_in_the_singular(lang, capsys):
    feedback = ex.check("12.window", [6], lang=lang)
    assert ex.words.say("ex.form_one_number", lang) in feedback.text
    assert "1 numbers" not in feedback.text
    capsys.readouterr()


@pytest.mark.parametrize("exercise_id", IDS)
def test_every_wrong_answer_in_the_catalogue_differs_from_the_answer_on_some_case(exercise_id):
    e = ex.get(exercise_id)
    cases = e.cases()
    wants = [ex.read.expected_form(e.expected(*args)) for args in cases]
    for what, answer, says in ex.catalogue(e):
        if says == "ex.forbidden":  # right values by a forbidden route: refused for the route
            continue
        if e.given is None:
            assert not ex.read.same(ex.read.read(answer, wants[0]), wants[0], e.tol), (exercise_id, what)
            continue
        gave = [ex.slips.run(answer, e.given.hand(args), e.given.names) for args in cases]
        assert not all(not isinstance(g, ex.slips.Slip) and ex.read.same(ex.read.read(g, w), w, e.tol)
                       for g, w in zip(gave, wants, strict=True)), (exercise_id, what)


def test_the_hidden_examples_vary_every_size_an_answer_could_type_in():
    traces = [args[0] for args in ex.get("03.row2").cases()]
    assert {t.dh for t in traces} >= {3, 4, 6} and {t.T for t in traces} >= {3, 4, 5}
    assert {t.h for t in traces} >= {2, 4}
    assert {args[1] for args in ex.get("10.kv_head").cases()} >= {1, 2, 3, 4, 6}  # g
    assert {args[1] for args in ex.get("08.sliding").cases()} >= {1, 2, 3}  # the window
    rows = [args[0] for args in ex.get("05.stable").cases()]
    assert any(x.max() - x.mean() > 500 for x in rows) and any(len(set(x)) < len(x) for x in rows)  # mean ≠ max; ties
    masked_last = [t for t in traces if t.M[2, -1] == -np.inf]  # row 3 with its last Key masked (off by one)
    assert masked_last


def test_the_issues_wrong_methods_do_not_pass():
    assert not ex.check("03.row2", lambda tr: tr.S[0, 1] / 2)  # a typed-in √dh
    assert not ex.check("02.score", lambda tr: tr.Qh[0, 2] @ tr.Kh[0, 0] / 2 * 2 if tr.dh == 4 else 0)
    assert not ex.check("07.no_mask_row1", lambda tr: al.softmax(tr.S[0, 0] / 2))
    mean = ex.check("05.stable", lambda x: np.exp(x - x.mean()) / np.exp(x - x.mean()).sum())
    assert not mean and "subtracted the mean" in mean.text
    for exercise_id, answer in [("02.score", lambda tr: tr.S[0, 2, 0]), ("05.row3", lambda tr: tr.P[0, 2]),
                                ("01.H_row2", lambda tr: tr.H[1]), ("06.out3", lambda tr: tr.O[0, 2])]:
        read_off = ex.check(exercise_id, answer)
        assert not read_off and "does not hand out" in read_off.text
    forbidden = ex.check("05.row3", lambda tr: al.softmax(tr.S_masked[0, 2]))
    assert not forbidden and "without al.softmax" in forbidden.text
    praised = ex.check("11.weight", lambda s, m, l: al.article_example().P[0, 2, 0])
    assert not praised and "alone" not in praised.text


def test_a_diagnosis_is_named_only_when_it_explains_every_case():
    assert "divided √d by h" not in ex.check("03.divisor", lambda d, h: np.sqrt(h)).text
    assert "index counted from 0" not in ex.check("10.kv_head", lambda h, g, i: (i - 1) % g + 1).text
    zero = ex.check("04.row2", lambda tr: np.where(tr.M[1] == 0, tr.S_scaled[0, 1], 0)).text
    assert "You put 0 in the cells to hide" in zero
    axis = ex.check("05.row3", lambda tr: (np.exp(tr.S_masked[0]) / np.exp(tr.S_masked[0]).sum(axis=0))[2]).text
    assert "column sums" in axis
    unmasked = ex.check("08.padding_row", lambda padded: al.softmax(padded.S_scaled[0, 3])).text
    assert "without a mask" in unmasked
    shown_only = ex.check("01.head2_q3", lambda tr: tr.Q[2, :4])  # Head 1's part here, but not on dh = 6
    assert not shown_only and "Head 1's part" not in shown_only.text


def test_no_answer_can_change_what_later_answers_are_checked_on():
    naive = lambda x: np.exp(x) / np.exp(x).sum()  # noqa: E731
    assert not ex.check("05.stable", naive)

    def in_place(x):
        x -= x.max()
        return np.exp(x) / np.exp(x).sum()

    said = ex.check("05.stable", in_place)
    assert not said and "in place" in said.text and said.tries == 1  # a slip: not counted after the naive try

    def unlocked(x):
        try:
            x.flags.writeable = True
        except ValueError:
            return np.zeros_like(x)
        x[...] = 0
        return x

    ex.check("05.stable", unlocked)
    assert not ex.check("05.stable", naive)  # the examples are as they were
    assert ex.check("05.stable", lambda x: np.exp(x - x.max()) / np.exp(x - x.max()).sum())
    for what_is_given in (ex.get(i).given for i in FUNCTIONS):
        for args in what_is_given.cases():
            for handed in what_is_given.hand(args):
                if isinstance(handed, np.ndarray):
                    assert not handed.flags.writeable


@pytest.mark.parametrize("exercise_id, answer", [
    ("12.decode_row", lambda: al.article_example().P[1, 2:3]),  # a 1 × 3 row
    ("12.decode_row", lambda: list(al.article_example().P[1, 2].astype(np.float32))),
    ("12.window", lambda: range(4, 7)),
    ("12.window", lambda: (4, 5, 6)),
    ("12.window", lambda: np.array([[4, 5, 6]])),
    ("04.mask4", lambda: lambda T: np.triu(np.full((T, T), -np.inf), 1)),
    ("10.kv_head", lambda: lambda h, g, i: (i - 1) * g // h + 1),
    ("04.count", lambda: lambda tr: tr.T * (tr.T + 1) // 2),
    ("01.H_row2", lambda: lambda tr: np.concatenate(tr.O[:, 1])),
    ("01.H_row2", lambda: lambda tr: np.hstack([tr.O[0, 1], tr.O[1, 1]])),
    ("02.head2", lambda: lambda tr: np.einsum("td,sd->ts", tr.Qh[1], tr.Kh[1])),
    ("05.row3", lambda: lambda tr: tuple(np.exp(tr.S_masked[0, 2]) / np.exp(tr.S_masked[0, 2]).sum())),
    ("06.out3", lambda: lambda tr: (tr.P[0, 2] @ tr.Vh[0]).astype(np.float32)),
])
def test_every_reasonable_form_of_a_right_answer_is_accepted(exercise_id, answer):
    assert ex.check(exercise_id, answer()), exercise_id


def test_a_huge_range_is_refused_at_once():
    for huge in (range(10**12), range(10**30)):
        feedback = ex.check("12.window", huge)
        assert feedback.ok is False and "range" in feedback.text


# ------------------------------------------------------------------ slips: errors in the answer's code


SLIPS = [  # (exercise, the learner's function, what the English line must say)
    ("02.head2", lambda tr: tr.Qh[1] @ tr.Kh[1], "the left array's columns (4) must match the right array's rows (3). "
                                                  "Is a .T missing?"),
    ("02.head2", lambda tr: np.dot(tr.Qh[1], tr.Kh[1]), "Is a .T missing?"),
    ("06.out3", lambda tr: tr.P[0, 2] * tr.Vh[0], "Arrays of shapes (3,) (3,4) cannot be paired entry by entry"),
    ("01.H_row2", lambda tr: np.concatenate([tr.O[0], tr.O[1, 1]]), "The arrays to join do not fit together"),
    ("02.row2", lambda tr: tr.Kh[0] @ tr.Qh[0, 3], "Index 3 is past the end of an axis of length 3"),
    ("02.score", lambda tr: tr.Qh[0, 2, 0, 0], "Too many indices: this array has 3 axes, and you gave 4."),
    ("02.score", lambda tr: tr.q[2] @ tr.Kh[0, 0], "tr has no q. Did you mean Q?"),
    ("02.score", lambda tr: tr.Qhead[0, 2], "tr has no Qhead. Did you mean Qh?"),
    ("02.score", lambda tr: undefined_name[2], "undefined_name is not defined"),  # noqa: F821
    ("03.divisor", lambda d, h: np.sqrt(d // 0), "raised an error"),
    ("02.score", lambda tr: 1 / 0, "raised an error (ZeroDivisionError: division by zero)"),
]


@pytest.mark.parametrize("exercise_id, answer, words", SLIPS, ids=[f"{c[0]}-{i}" for i, c in enumerate(SLIPS)])
def test_a_slip_in_the_answer_is_explained_in_one_line(exercise_id, answer, words, capsys):
    feedback = ex.check(exercise_id, answer, lang="en")
    assert feedback.ok is False and feedback.tries == 0  # a slip is not a wrong answer
    assert feedback.text.startswith("✗ ") and "\n" not in feedback.text and "Traceback" not in feedback.text
    assert words in feedback.text, feedback.text
    korean = ex.check(exercise_id, answer, lang="ko").text
    assert HANGUL.search(korean) and "\n" not in korean
    capsys.readouterr()


def test_a_value_where_a_function_is_asked_and_a_function_of_the_wrong_arguments():
    tr = al.article_example()
    value = ex.check("02.score", tr.Qh[0, 2] @ tr.Kh[0, 0])
    assert not value and value.tries == 0 and "keep lambda tr: in front of your code" in value.text
    assert "must be a function of T, w" in ex.check("08.sliding", lambda T: T).text
    assert "must be a function of tr" in ex.check("02.score", lambda: 2).text
    assert ex.check("02.score", lambda *args: args[0].Qh[0, 2] @ args[0].Kh[0, 0])  # any signature that takes it


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
    ex.check("02.score", lambda tr: 5)
    ex.check("02.score", lambda tr: 5)
    assert ex.check("03.divisor", lambda d, h: 5).tries == 1  # the other exercise starts with the idea
    assert ex.tries("02.score") == 2
    ex.reset()
    assert ex.tries("02.score") == ex.tries("03.divisor") == 0


def test_hint_on_request_goes_step_by_step_and_is_not_a_try():
    e = ex.get("03.row2")
    idea, closer = (compact(h["en"]) for h in e.hints)
    first, second, third = (ex.hint("03.row2") for _ in range(3))
    assert idea in compact(first.text) and closer not in compact(first.text)
    assert closer in compact(second.text) and "ex.solution" not in second.text
    assert closer in compact(third.text) and 'ex.solution("03.row2", lang="en")' in third.text
    assert compact(e.hints[0]["ko"]) in compact(ex.hint("03.row2", lang="ko", step=1)._repr_markdown_())
    assert ex.tries("03.row2") == 0  # asking for a hint is not a try
    ex.reset()
    ex.hint("03.row2")  # the idea seen: the first wrong answer gets the closer hint
    assert closer in compact(ex.check("03.row2", lambda tr: tr.S[0, 0]).text)
    ex.reset()
    ex.check("03.row2", lambda tr: tr.S[0, 0])  # a wrong answer showed the idea: the next hint is the closer one
    assert closer in compact(ex.hint("03.row2").text)


@pytest.mark.parametrize("step", [True, False, 0, 3, 1.0, 2.5, "1", [1], np.nan])
def test_a_bad_hint_step_is_a_clear_value_error(step):
    with pytest.raises(ValueError, match="step: use 1 .* or 2"):
        ex.hint("02.score", step=step)
    assert ex.hint("02.score", step=np.int64(2)).text.startswith("A closer hint")


@pytest.mark.parametrize("exercise_id", IDS)
def test_the_first_hint_is_the_idea_without_code(exercise_id):
    for lang in LANGS:
        idea = ex.get(exercise_id).hints[0][lang]
        assert "`" not in idea and not re.search(r"\b(tr|np|al|ex)\.", idea), idea


# ------------------------------------------------------------------ no spoilers


def _feedback_texts(exercise_id):  # every hint and every feedback a learner can get before a right answer
    e = ex.get(exercise_id)
    texts = [h[lang] for h in e.hints for lang in LANGS] + [m.hint[lang] for m in e.mistakes for lang in LANGS]
    wrong = wrong_by_far(exercise_id)
    for lang in LANGS:
        ex.reset()
        texts += [ex.check(exercise_id, wrong, lang=lang).text for _ in range(4)]
        texts += [ex.check(exercise_id, as_answer(exercise_id, m), lang=lang).text for m in e.mistakes]
        texts += [ex.check(exercise_id, returning(exercise_id, value), lang=lang).text
                  for value in (None, "x", True, [[17, 18], [19]], np.zeros((7, 7)), (11, 12, 13, 14, 15))]
        texts += [ex.check(exercise_id, ..., lang=lang).text, ex.hint(exercise_id, lang=lang).text,
                  ex.hint(exercise_id, lang=lang).text]
    return texts


def _number_tokens(text):  # -> the numbers written in a text, as floats
    return [float(t.replace("−", "-")) for t in re.findall(r"(?<![\w.])[−-]?\d+(?:\.\d+)?(?![\w.])", text)]


def _spelled(want):  # -> the ways a text could state the expected value or shape
    if isinstance(want, tuple):
        inner = ", ".join(map(str, want))
        return {f"({inner})", f"({inner},)", " × ".join(map(str, want)), f"[{inner}]"}
    if want.ndim == 0:
        return set()  # a single number is looked for among the numbers of the text (see the test)
    forms = {format_row(want.ravel(), kind) for kind in ("values", "scores", "weights")}
    forms |= {f.replace("−", "-") for f in forms}
    forms |= {format_value(x, "weights") for x in want.ravel() if np.isfinite(x) and x != round(x)}
    return forms


@pytest.mark.parametrize("exercise_id", IDS)
def test_no_hint_and_no_feedback_holds_the_solution_or_the_expected_value(exercise_id):
    e = ex.get(exercise_id)
    solution = compact(e.solution)
    want = ex.expected(exercise_id)
    task = " ".join(e.task.values())
    given_numbers = set(_number_tokens(task))  # what the task says may be said again
    for text in _feedback_texts(exercise_id):
        assert solution not in compact(text), (exercise_id, text)
        for form in _spelled(want):
            assert form in task or form not in text, (exercise_id, form, text)
        if not isinstance(want, tuple) and want.ndim == 0 and float(want) not in given_numbers:
            assert not any(abs(n - float(want)) < 1e-9 for n in _number_tokens(text)), (exercise_id, text)
            spelled = format_value(float(want), "weights")
            assert "." not in spelled or spelled not in text, (exercise_id, text)


@pytest.mark.parametrize("exercise_id", [i for i in IDS if ex.get(i).mistakes])
def test_every_known_mistake_gets_its_own_hint_at_once(exercise_id):
    e = ex.get(exercise_id)
    for lang in LANGS:
        for mistake in e.mistakes:
            ex.reset()
            feedback = ex.check(exercise_id, as_answer(exercise_id, mistake), lang=lang)
            assert feedback.ok is False and feedback.tries == 1
            assert feedback.text == "✗ " + mistake.hint[lang].replace("`", ""), feedback.text


def test_the_issues_mistakes_are_known():
    said = {
        "forgot the mask": ex.check("04.row2", lambda tr: tr.S_scaled[0, 1]).text,
        "divided by √d": ex.check("03.row2", lambda tr: tr.S[0, 1] / np.sqrt(tr.d)).text,
        "Head 2's columns": ex.check("01.head2_q3", lambda tr: tr.Q[2, :tr.dh]).text,
        "P without the mask": ex.check("05.row2", lambda tr: np.exp(tr.S_scaled[0, 1]) / np.exp(tr.S_scaled[0, 1]).sum()
                                       ).text,
        "off by one": ex.check("02.row2", lambda tr: tr.Kh[0] @ tr.Qh[0, 2]).text,
        "−1e9 for −∞": ex.check("04.mask4", lambda T: np.where(np.tril(np.ones((T, T))) == 1, 0, -1e9)).text,
        "exp overflow": ex.check("05.stable", lambda x: np.exp(x) / np.exp(x).sum()).text,
    }
    assert "add the same row of M" in said["forgot the mask"]
    assert "√d" in said["divided by √d"]
    assert "Head 1's part" in said["Head 2's columns"]
    assert "left out the mask" in said["P without the mask"]
    assert "indices count from 0" in said["off by one"]
    assert "instead of −∞" in said["−1e9 for −∞"]
    assert "overflowed" in said["exp overflow"]


def test_feedback_on_a_shape_does_not_give_the_shape_away():
    tr = al.article_example()
    assert ex.check("00.P_shape", lambda tr: tr.P).text.startswith("✗ answer(tr) is an array, not a shape")
    assert "(2, 3, 3)" not in ex.check("00.P_shape", lambda tr: tr.P).text
    shape = ex.check("00.P_shape", lambda tr: (2, 3)).text
    assert shape.startswith("✗ answer(tr) is the shape (2, 3), of length 2, but the answer's shape has another length")
    one = ex.check("00.P_shape", lambda tr: (2,)).text  # said the same way for one number: no "1 numbers"
    assert one.startswith("✗ answer(tr) is the shape (2,), of length 1, but")
    row = ex.check("02.row2", lambda tr: tr.Kh[0, :2] @ tr.Qh[0, 1]).text
    assert row.startswith("✗ answer(tr) is 2 numbers, which is not the shape of the answer")
    matrix = ex.check("02.head2", lambda tr: tr.Kh[1] @ tr.Qh[1, 0]).text
    assert matrix.startswith("✗ answer(tr) is 3 numbers, which is not the shape") and "3 × 3" not in matrix
    assert "3 × 4 배열" in ex.check("02.head2", lambda tr: tr.Qh[1], lang="ko").text
    assert tr is not None


# ------------------------------------------------------------------ answers of the wrong kind


FORM_CASES = [  # (exercise, the value the answer gives, what the English line must say)
    ("02.score", "4", "is text, '4': write the numbers without quotes."),
    ("02.score", " 2.5 ", "write the numbers without quotes"),
    ("02.score", b"4", "without quotes"),
    ("02.score", "tr.S[0, 2, 0]", "is text"),
    ("02.score", 2 + 5j, "complex"),
    ("02.score", np.array(2 + 5j), "complex"),
    ("02.score", np.array(2 + 0j), "complex"),
    ("02.score", True, "truth value (bool)"),
    ("02.score", np.True_, "truth value (bool)"),
    ("02.score", None, "is None"),
    ("02.score", 10**400, "too large for a float"),
    ("02.score", -(10**400), "too large for a float"),
    ("02.score", Fraction(10**400, 3), "too large for a float"),
    ("02.score", float("nan"), "NaN"),
    ("02.score", np.inf, "∞"),
    ("02.score", {"a": 1}, "the type dict"),
    ("02.score", object(), "the type object"),
    ("02.score", al.article_example, "call it with ()"),
    ("02.score", np.ma.masked, "masked array, refused"),
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
    ("02.row2", np.ma.array([6, 3, 99], mask=[0, 0, 1]), "masked array, refused"),
    ("02.row2", [6, 3, np.ma.masked], "masked array, refused"),
    ("00.P_shape", 3, "is one number, 3; a shape is a tuple of numbers"),
    ("00.P_shape", "(2, 3, 3)", "write the numbers without quotes"),
    ("00.P_shape", (2.5, 3, 3), "not whole"),
    ("00.P_shape", ((2,), (3,), (3,)), "nested"),
    ("00.P_shape", (True, 3, 3), "truth value"),
    ("00.P_shape", np.ma.array([2, 3, 3]), "masked array, refused"),
    ("07.H_shape", np.zeros((5, 12)), "is an array, not a shape: answer with its shape (.shape)."),
    ("10.cache_size", "2.5", "without quotes"),
    ("10.cache_size", np.ma.array(2.5), "masked array, refused"),
]


@pytest.mark.parametrize("exercise_id, value, words", FORM_CASES,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(FORM_CASES)])
def test_an_answer_of_the_wrong_kind_gets_one_line_that_says_what_to_write(exercise_id, value, words, capsys):
    answer = returning(exercise_id, value)
    feedback = ex.check(exercise_id, answer, lang="en")
    assert feedback.ok is False and not feedback
    assert feedback.tries == 0  # not counted: the next real try still gets the first hint
    assert feedback.text.startswith("✗ answer") and "\n" not in feedback.text
    assert words in feedback.text, feedback.text
    assert capsys.readouterr().out == feedback.text + "\n"
    korean = ex.check(exercise_id, answer, lang="ko").text
    assert korean.startswith("✗ answer") and HANGUL.search(korean) and "\n" not in korean


@pytest.mark.parametrize("exercise_id", [i for i in IDS if not isinstance(ex.expected(i), tuple)])
def test_a_masked_array_is_refused_even_when_its_visible_entries_are_right(exercise_id):
    def masked(want, wrong_hidden):  # the right values, or a wrong entry hidden under the mask
        first = (np.arange(want.size) == 0).reshape(want.shape)
        return np.ma.array(np.where(first & wrong_hidden, want + 1, want), mask=first)

    for wrong_hidden in (True, False):
        feedback = ex.check(exercise_id, answering(exercise_id, lambda want, wrong=wrong_hidden: masked(want, wrong)))
        assert feedback.ok is False and "masked array, refused" in feedback.text, feedback.text


@pytest.mark.parametrize("lang, words", [("ko", "아직 답이 없습니다"), ("en", "No answer yet")])
def test_unanswered_says_so(lang, words):
    for answer in (..., lambda tr: ...):
        feedback = ex.check("05.row3", answer, lang=lang)
        assert feedback.ok is None and not feedback and feedback.tries == 0
        assert feedback.text.startswith(words) and ex.get("05.row3").task[lang] in feedback.text
        assert "answer = lambda tr: ..." in feedback.text
    assert "answer = ..." in ex.check("10.cache_size", ..., lang=lang).text


# ------------------------------------------------------------------ what is shown, and how


def test_feedback_is_html_with_code_as_code_and_plain_text_without_backticks(capsys):
    feedback = ex.check("02.score", lambda tr: "4", lang="en")
    assert "`" not in feedback.text and "`" not in feedback.html
    assert "<code>answer(tr)</code>" in feedback.html
    assert feedback.html.startswith('<div class="al-feedback"><strong style="color:#ffffff;background-color:#b00020;')
    assert ex.check("02.score", lambda tr: "<script>", lang="en").html.count("<script>") == 0  # escaped
    right = ex.check("02.score", lambda tr: tr.Qh[0, 2] @ tr.Kh[0, 0], lang="ko")
    assert right.text.startswith("✓ 정답입니다!") and "background-color:#1a7f37" in right.html
    capsys.readouterr()


def test_check_shows_its_feedback_once_and_the_returned_object_adds_nothing(capsys):
    feedback = ex.check("02.score", lambda tr: tr.Qh[0, 2] @ tr.Kh[0, 0], lang="en")
    assert capsys.readouterr().out == feedback.text + "\n"
    assert repr(feedback) == str(feedback) == feedback.text
    assert feedback._ipython_display_() is None  # IPython shows nothing more for it
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("lang, title", [("ko", "해답 — 연습 03.row2"), ("en", "Solution — exercise 03.row2")])
def test_the_solution_appears_when_asked_for_as_code(lang, title):
    message = ex.solution("03.row2", lang=lang)
    code = ex.solution_code("03.row2")
    assert code == 'answer = lambda tr: tr.S[0, 1] / np.sqrt(tr.dh)\nex.check("03.row2", answer, lang=LANG)'
    assert message._repr_markdown_() == f"**{title} ({ex.get('03.row2').task[lang]})**\n\n```python\n{code}\n```"
    assert repr(message).endswith(code) and "`" not in repr(message)


def test_learner_code_is_the_unanswered_cell():
    assert ex.learner_code("02.score") == 'answer = lambda tr: ...\nex.check("02.score", answer, lang=LANG)'
    assert ex.learner_code("08.sliding") == 'answer = lambda T, w: ...\nex.check("08.sliding", answer, lang=LANG)'
    assert ex.learner_code("10.cache_size") == 'answer = ...\nex.check("10.cache_size", answer, lang=LANG)'


# ------------------------------------------------------------------ errors and the registry


def test_unknown_exercise_or_language_raise_clear_errors():
    with pytest.raises(ValueError, match="unknown exercise '99.nope'.*02.score"):
        ex.check("99.nope", 1)
    with pytest.raises(ValueError, match="lang: use 'ko' or 'en'"):
        ex.check("02.score", 2, lang="fr")
    with pytest.raises(ValueError, match="unknown exercise"):
        ex.solution(["not", "an", "id"])
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
    ({"given": ("tr",)}, "given must be a Given"),
])
def test_a_badly_written_exercise_is_refused_with_the_field_named(changes, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        _exercise(**changes)
    with pytest.raises(ValueError, match="names must be Python names"):
        ex.Given(("not a name",), lambda: (1,), lambda: ())


def test_a_solution_of_several_lines_sets_or_defines_answer():
    assert ex.answer_lines(_exercise(solution="x = 1\nanswer = x")) == "x = 1\nanswer = x"
    given = ex.Given(("T",), lambda: (2,), lambda: ((3,),))
    assert ex.answer_lines(_exercise(solution="T + 1", given=given)) == "answer = lambda T: T + 1"
    assert _exercise(solution="def answer(T):\n    return T", given=given)


def test_banks_register_their_exercises_once_each():
    assert ex.BANKS[:4] == ("article", "weights", "masks", "generation")
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


def test_the_checkers_words_are_in_the_one_table():
    package = Path(ex.__file__).parent
    source = "".join((package / f"{name}.py").read_text(encoding="utf-8")
                     for name in ("__init__", "judge", "read", "slips"))
    keys = set(re.findall(r'(?:Problem|Slip)\("(\w+)"', source)) | set(re.findall(r'say\("(\w+)"', source))
    keys |= set(re.findall(r'"ex\.(\w+)"', source))
    assert {"unanswered", "right", "right_hidden", "only_here", "not_a_function", "slip_matmul", "masked"} <= keys
    for key in keys:
        assert all(al.words.WORDS[f"ex.{key}"]), key
    assert not hasattr(ex, "_SAY")


# ------------------------------------------------------------------ any value at all

LEAVES = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10**300, max_value=10**500)
          | st.floats() | st.complex_numbers() | st.text(max_size=8) | st.binary(max_size=4) | st.fractions()
          | st.decimals() | st.just(...) | st.just(np.ma.masked)
          | st.sampled_from([2, 4, 6, 8, -np.inf, np.nan]))
NESTED = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(st.text(max_size=3), inner, max_size=2), max_leaves=12)
ARRAYS = hnp.arrays(hnp.scalar_dtypes() | hnp.complex_number_dtypes(), hnp.array_shapes(min_dims=0, max_dims=3,
                                                                                          max_side=4))
ERRORS = st.sampled_from([ValueError("matmul: x (size 3 is different from 4)"), ValueError("shapes (3,4) and (3,4) "
                          "not aligned: 4 (dim 1) != 3 (dim 0)"), ValueError("operands could not be broadcast"),
                          IndexError("index 99 is out of bounds for axis 0 with size 3"), IndexError("odd"),
                          TypeError("x"), AttributeError("y"), NameError("z"), ZeroDivisionError(),
                          RecursionError(), ArithmeticError("\n\n`" * 50), KeyError(object())])


@st.composite
def near_the_answer(draw, exercise_id):
    """The right answer, changed in one of the ways that must not pass, or passed through a container."""
    want = ex.expected(exercise_id)
    base = np.asarray(want, dtype=float)
    change = draw(st.sampled_from(["list", "tuple", "float32", "str", "complex", "bool", "nudge", "nan", "object",
                                   "masked"]))
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
    if change == "masked":
        return np.ma.array(base, mask=draw(hnp.arrays(bool, base.shape)))
    nudged = base.copy()
    nudged.flat[draw(st.integers(0, base.size - 1))] += draw(st.floats(-3, 3))
    return nudged


def really_right(exercise_id, value):
    """An independent, strict reading: only real numbers (no bool, text, complex, masked), the right shape and
    values, on the shown case."""
    def numbers(v, depth=0):
        if isinstance(v, (bool, np.bool_, np.ma.MaskedArray)) or depth > 8:
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
    as_is = data.draw(st.booleans())  # the value itself, or (for a function exercise) a function giving it
    answer = value if as_is else returning(exercise_id, value)
    feedback = ex.check(exercise_id, answer, lang=lang)
    assert isinstance(feedback.text, str) and feedback.text and "\n" not in feedback.text
    assert feedback.ok in (True, False, None)
    if feedback.ok is True:
        assert ex.get(exercise_id).given is None and really_right(exercise_id, answer), (value, feedback.text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FUNCTIONS), st.data())
def test_any_function_gets_feedback_never_an_exception(exercise_id, data):
    error = data.draw(ERRORS)
    kind = data.draw(st.sampled_from(["raises", "raises_on_hidden", "returns_right_then_junk", "takes_nothing",
                                      "takes_many", "not_callable_object", "returns_ellipsis_on_hidden"]))
    e = ex.get(exercise_id)
    shown = e.cases()[0]
    junk = data.draw(st.one_of(NESTED, ARRAYS))

    calls = []

    def on_hidden(args):  # the checker calls the answer on the shown case first
        calls.append(args)
        return len(calls) > 1

    def raise_it(*args):
        raise error

    answers = {
        "raises": raise_it,
        "raises_on_hidden": lambda *args: raise_it() if on_hidden(args) else e.expected(*shown),
        "returns_right_then_junk": lambda *args: junk if on_hidden(args) else e.expected(*shown),
        "takes_nothing": lambda: 1,
        "takes_many": lambda a, b, c, d, e_: 1,
        "not_callable_object": type("Odd", (), {"__call__": 1})(),
        "returns_ellipsis_on_hidden": lambda *args: ... if on_hidden(args) else e.expected(*shown),
    }
    feedback = ex.check(exercise_id, answers[kind], lang=data.draw(st.sampled_from(LANGS)))
    assert isinstance(feedback.text, str) and feedback.text and "\n" not in feedback.text
    assert feedback.ok is not True


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["02.row2", "03.row2", "05.row3", "06.out3", "01.H_row2"]), st.data())
def test_any_answer_off_by_more_than_the_tolerance_is_wrong(exercise_id, data):
    want = ex.expected(exercise_id)
    index = data.draw(st.integers(0, want.size - 1))
    step = data.draw(st.floats(2 * ex.get(exercise_id).tol, 100)) * data.draw(st.sampled_from([-1, 1]))
    e = ex.get(exercise_id)

    def answer(tr):
        value = ex.read.expected_form(e.expected(tr._trace)).copy()
        value.flat[index] += step
        return value

    assert ex.check(exercise_id, answer).ok is False


# ------------------------------------------------------------------ the names of the known mistakes (issue 47, 48)


def test_every_mistake_has_a_name_with_a_label_in_both_languages():
    """A class report counts named slips: each Mistake has a short name, and each name a label `slip.<name>`."""
    names = {m.name for i in IDS for m in ex.get(i).mistakes}
    assert [(i, k) for i in IDS for k, m in enumerate(ex.get(i).mistakes) if not m.name] == []
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", name) for name in names), names
    for lang in LANGS:
        labels = {key.removeprefix("slip."): text for key, text in ex.words.table(lang).items()
                  if key.startswith("slip.")}
        assert names - labels.keys() == set(), lang  # every name has its label
        assert labels.keys() - names == set(), lang  # and every label names a slip of the banks
        assert all(text.strip() and len(text) <= 60 for text in labels.values()), lang
        assert lang == "en" or all(HANGUL.search(text) for text in labels.values())


@pytest.mark.parametrize("exercise_id", IDS)
def test_a_name_is_one_slip_within_an_exercise(exercise_id):
    """Within one exercise, two mistakes share a name only when they are the same slip (the same hint), and two
    slips (two hints) never share one: the report's count of a name is one thing the learners did."""
    hints = {}
    for mistake in ex.get(exercise_id).mistakes:
        hints.setdefault(mistake.name, set()).add(mistake.hint["en"])
    assert {name: h for name, h in hints.items() if len(h) > 1} == {}, exercise_id
    names = {}
    for mistake in ex.get(exercise_id).mistakes:
        names.setdefault(mistake.hint["en"], set()).add(mistake.name)
    assert {hint: n for hint, n in names.items() if len(n) > 1} == {}, exercise_id


def test_the_scale_slips_have_one_name_everywhere():
    """√d instead of √dh is "sqrt_d" in every exercise where the scale matters (notebook 00 promises it is named),
    d instead of √dh "by_d", and the wrong head "wrong_head"."""
    scaled = ["03.row2", "03.divisor", "04.row2", "05.row3", "05.row2", "07.no_mask_row1", "09.scale", "10.step2",
              "12.decode_row"]
    for exercise_id in scaled:
        names = {m.name for m in ex.get(exercise_id).mistakes}
        assert {"sqrt_d", "by_d"} <= names, exercise_id
    for exercise_id in ["02.row2", "03.row2", "04.row2", "05.row3", "05.row2", "06.out3", "07.no_mask_row1",
                        "10.step2", "12.decode_row"]:
        assert "wrong_head" in {m.name for m in ex.get(exercise_id).mistakes}, exercise_id
    told = ex.check("04.row2", lambda tr: tr.S[0, 1] / np.sqrt(tr.d) + tr.M[1])
    assert told.named == "mistake:sqrt_d" and "√d" in told.text
    assert ex.check("05.row3", lambda tr: np.exp(tr.S[0, 2] / tr.d + tr.M[2])
                    / np.exp(tr.S[0, 2] / tr.d + tr.M[2]).sum()).named == "mistake:by_d"
    assert ex.check("04.row2", lambda tr: tr.S_scaled[1, 1] + tr.M[1]).named == "mistake:wrong_head"
    assert ex.check("05.row2", lambda tr: np.exp(tr.S_masked[0, 1] - tr.S_masked[0, 1].max())).named == \
        "mistake:exp_only"
