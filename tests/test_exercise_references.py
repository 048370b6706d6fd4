"""Ten exercises whose expected answer test_exercises.py held only to the exercise's own solution, each held here
to a reference of its own: the article's numbers (T=3, d=8, h=2; Head 2's numbers are the example's own, which
the article does not print), plain loops over what the exercise hands the learner, and for notebook 13 the tiny
model run as plain loops over the shipped weights. Each reference comes with the wrong solutions it must refuse
(a head or a token off by one, a transposed matrix, a sign flipped, …): a wrong solution would grade every
learner wrong while the checker's own tests stay green."""

import itertools
import math

import numpy as np
import pytest

from attention_lab import exercises as ex
from attention_lab.exercises import learned
from attention_lab.numeric import tiny_model as tm
from attention_lab.numeric import training
from tests.reference import reference_attention


def causal(T):  # -> [T][T] bool: Query token i sees Key tokens j ≤ i
    return [[j <= i for j in range(T)] for i in range(T)]


def head_columns(tr, head):  # -> the columns of Q, K, V that head `head` (from 0) takes: dh = d / h of them
    dh = len(tr.Q[0]) // tr.h
    return range(head * dh, (head + 1) * dh)


def loop_attention(tr):  # -> (P [h][T][T], H [T][d]) of the trace's own Q, K, V, by plain loops, causal
    return reference_attention(tr.Q.tolist(), tr.K.tolist(), tr.V.tolist(), tr.h, causal(len(tr.Q)))


def head2_query_of_token3(tr):
    return [tr.Q[2][c] for c in head_columns(tr, 1)]


def head2_scores(tr):
    cols = head_columns(tr, 1)
    T = len(tr.Q)
    return [[sum(tr.Q[i][c] * tr.K[j][c] for c in cols) for j in range(T)] for i in range(T)]


def head2_output_of_token1(tr):
    _, H = loop_attention(tr)
    return [H[0][c] for c in head_columns(tr, 1)]  # H is Concat(O1, O2, …): Head 2's part of token 1's row


def step2_from_the_cache(tr):  # token 2's Query of Head 1 against the two cached Keys, scaled, softmaxed
    cols = head_columns(tr, 0)
    scores = [sum(tr.Q[1][c] * tr.K[j][c] for c in cols) / math.sqrt(len(cols)) for j in range(2)]
    exps = [math.exp(s - max(scores)) for s in scores]
    return [e / sum(exps) for e in exps]


def rescale(m_old, m_new):  # a score x's term e^(x − m_old) becomes e^(x − m_new): the factor is their ratio
    factors = [math.exp(x - m_new) / math.exp(x - m_old) for x in (m_old, m_new)]
    assert math.isclose(*factors, rel_tol=1e-12)
    return factors[0]


def new_sum(l, m_old, m_new, s):  # l = Σ e^(x − m_old) stands for one score x = m_old + ln l; add s, relative to m_new
    x = m_old + math.log(l)
    return math.exp(x - m_new) + math.exp(s - m_new)


def weight(s, m, l):  # softmax's e^s / Σ e^x, with Σ e^x = l·e^m
    return math.exp(s) / (l * math.exp(m))


def is_causal_row():  # SDPA's is_causal=True keeps ones(T_q, T_k).tril(): row i sees Key j ≤ i; token 6 is row 1
    return [j + 1 for j in range(6) if j <= 1]


def odd_share(tr):  # per head, the weights token 5's row gives tokens 1, 3, 5 (odd-numbered, counted from 1), added
    P = tr.P.tolist()
    return [sum(P[head][4][n - 1] for n in range(1, 6) if n % 2 == 1) for head in range(tr.h)]


def even_share_of_token_6(row):  # Head 1's row of token 6 -> its weights on tokens 2, 4, 6 added
    return sum(row[n - 1] for n in range(1, 7) if n % 2 == 0)


def weakest_input(P, inputs):  # the input whose row of token 6 gives tokens 2, 4, 6 the smallest weight (the first)
    b = min(range(len(P)), key=lambda n: (even_share_of_token_6(P[n][5]), n))
    return [int(t) for t in inputs[b]]


REFERENCES = {
    "01.head2_q3": head2_query_of_token3,
    "02.head2": head2_scores,
    "06.head2_out1": head2_output_of_token1,
    "10.step2": step2_from_the_cache,
    "11.rescale": rescale,
    "11.new_sum": new_sum,
    "11.weight": weight,
    "12.is_causal": is_causal_row,
    "13.odd_share": odd_share,
    "13.weakest_input": weakest_input,
}


def agrees(exercise_id, answer):  # -> True when answer(*case) is the reference on every case the checker uses
    for case in ex.get(exercise_id).cases():
        got = ex.read.expected_form(answer(*case))
        want = np.asarray(REFERENCES[exercise_id](*case), dtype=float)
        if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=1e-9):
            return False
    return True


@pytest.mark.parametrize("exercise_id", REFERENCES)
def test_the_expected_answer_is_the_reference_on_every_case(exercise_id):
    assert agrees(exercise_id, ex.get(exercise_id).expected), exercise_id


def softmax_row(scores):  # the article's softmax of one row, written out with math.exp
    return [math.exp(s) / sum(math.exp(x) for x in scores) for s in scores]


def test_the_shown_answers_are_the_articles_numbers():
    shown = {i: ex.get(i).cases()[0] for i in REFERENCES}
    tr = shown["01.head2_q3"][0]
    assert tr.Q[2, :4].tolist() == [-1, 1, 1, 2] and tr.K[0, :4].tolist() == [1, -1, 2, 1]  # the article's example
    assert ex.expected("01.head2_q3").tolist() == [0, 2, 0, 0]  # token 3's last four components of Q
    assert ex.expected("02.head2").tolist() == [[0, 0, 4], [4, 0, 0], [0, 4, 0]]  # by hand from Q, K's last four
    assert ex.expected("06.head2_out1").tolist() == [2, 0, -1, 1]  # weights [1, 0, 0]: token 1's own Value
    assert np.allclose(ex.expected("10.step2"), [0.818, 0.182], atol=5e-4)  # the article's token 2
    assert np.allclose(ex.expected("10.step2"), softmax_row([3, 1.5]), rtol=0, atol=1e-12)  # its row [3, 1.5, −∞]
    # notebook 11 runs row 3 of Head 1, [1, 0, 3], one Key token at a time: the maximum is 1, 1, then 3
    e = math.exp
    assert np.allclose(shown["11.rescale"], [1, 3], rtol=0, atol=1e-12)
    assert np.isclose(ex.expected("11.rescale"), e(-2), rtol=0, atol=1e-12)
    assert np.allclose(shown["11.new_sum"], [e(1 - 1) + e(0 - 1), 1, 3, 3], rtol=0, atol=1e-12)
    assert np.isclose(ex.expected("11.new_sum"), e(1 - 3) + e(0 - 3) + e(3 - 3), rtol=0, atol=1e-12)
    assert np.allclose(shown["11.weight"], [1, 3, e(-2) + e(-3) + e(0)], rtol=0, atol=1e-12)
    assert np.isclose(ex.expected("11.weight"), softmax_row([1, 0, 3])[0], rtol=0, atol=1e-12)
    assert np.isclose(ex.expected("11.weight"), 0.114, atol=5e-4)  # the article's weight of token 1
    assert ex.expected("12.is_causal").tolist() == [1, 2]


def model_by_loops(weights, seq):  # -> P [h][T][T] of the tiny model on one input, plain loops over the weights
    X = [[weights["E_tok"][t][c] + weights["E_pos"][i][c] for c in range(tm.d)] for i, t in enumerate(seq)]
    Q, K, V = ([[sum(x[k] * weights[w][k][c] for k in range(tm.d)) for c in range(len(weights[w][0]))] for x in X]
               for w in ("W_Q", "W_K", "W_V"))
    P, _ = reference_attention(Q, K, V, weights["h"], causal(len(seq)))
    return P


def head1_row_of_token6(weights, seq):  # -> Head 1's weights from token 6 on every Key token, by plain loops
    X = [[weights["E_tok"][t][c] + weights["E_pos"][i][c] for c in range(tm.d)] for i, t in enumerate(seq)]
    cols = range(len(weights["W_Q"][0]) // weights["h"])
    q = [sum(X[5][k] * weights["W_Q"][k][c] for k in range(tm.d)) for c in cols]
    keys = [[sum(x[k] * weights["W_K"][k][c] for k in range(tm.d)) for c in cols] for x in X]
    scores = [sum(q[c] * key[c] for c in cols) / math.sqrt(len(cols)) for key in keys]
    return [math.exp(s - max(scores)) / sum(math.exp(s - max(scores)) for s in scores) for s in scores]


def test_notebook_13s_shown_answers_are_the_shipped_model_run_by_plain_loops():
    weights = training.load_weights()
    shares = ex.get("13.odd_share")
    tr = shares.cases()[0][0]
    P = model_by_loops(weights, tm.encode(learned.SHOWN_INPUT))
    np.testing.assert_allclose(tr.P, P, rtol=0, atol=1e-12)  # the shown trace is the shipped model on CABDDA
    for tokens in (learned.SHOWN_INPUT, *learned.HIDDEN_INPUTS):  # the note: Head 1 on 2 and 4, Head 2 on 1, 3, 5
        P = model_by_loops(weights, tm.encode(tokens))
        on_odd = [P[head][4][0] + P[head][4][2] + P[head][4][4] for head in (0, 1)]
        assert on_odd[0] < 0.05 and on_odd[1] > 0.95, (tokens, on_odd)
    np.testing.assert_allclose(ex.expected("13.odd_share"), odd_share(tr), rtol=0, atol=1e-12)

    P, inputs = ex.get("13.weakest_input").cases()[0]
    by_input = {seq: even_share_of_token_6(head1_row_of_token6(weights, seq))
                for seq in itertools.product(range(4), repeat=tm.T)}
    np.testing.assert_allclose(P[:, 5, 1::2].sum(axis=-1), [by_input[tuple(seq)] for seq in inputs.tolist()],
                               rtol=0, atol=1e-12)
    weakest = min(by_input, key=by_input.get)
    assert sorted(by_input.values())[1] - by_input[weakest] > 1e-9  # one input is the weakest, not a tie
    assert ex.expected("13.weakest_input").tolist() == list(weakest)


WRONG_SOLUTIONS = [  # (exercise, what it is, a wrong solution the reference must refuse)
    ("01.head2_q3", "Head 1's part", lambda tr: tr.Qh[0, 2]),
    ("01.head2_q3", "token 2", lambda tr: tr.Qh[1, 1]),
    ("01.head2_q3", "the slice typed in for dh = 4", lambda tr: tr.Q[2, 4:8]),
    ("01.head2_q3", "the Key", lambda tr: tr.Kh[1, 2]),
    ("02.head2", "transposed", lambda tr: tr.S[1].T),
    ("02.head2", "Head 1", lambda tr: tr.S[0]),
    ("02.head2", "scaled", lambda tr: tr.S_scaled[1]),
    ("02.head2", "both heads", lambda tr: tr.Q @ tr.K.T),
    ("06.head2_out1", "Head 1", lambda tr: tr.O[0, 0]),
    ("06.head2_out1", "token 2", lambda tr: tr.O[1, 1]),
    ("06.head2_out1", "without the mask", lambda tr: (lambda e: e / e.sum())(np.exp(tr.S_scaled[1, 0])) @ tr.Vh[1]),
    ("06.head2_out1", "Head 1's Value", lambda tr: tr.Vh[0, 0]),
    ("10.step2", "Head 2", lambda tr: tr.P[1, 1, :2]),
    ("10.step2", "token 3", lambda tr: tr.P[0, 2, :2]),
    ("10.step2", "all three Keys", lambda tr: (lambda e: (e / e.sum())[:2])(np.exp(tr.S_scaled[0, 1]))),
    ("10.step2", "unscaled", lambda tr: (lambda e: e / e.sum())(np.exp(tr.S[0, 1, :2]))),
    ("11.rescale", "sign flipped", lambda m_old, m_new: np.exp(m_new - m_old)),
    ("11.rescale", "ratio of the maxima", lambda m_old, m_new: m_old / m_new),
    ("11.new_sum", "not rescaled", lambda l, m_old, m_new, s: l + np.exp(s - m_new)),
    ("11.new_sum", "sign flipped", lambda l, m_old, m_new, s: l * np.exp(m_new - m_old) + np.exp(s - m_new)),
    ("11.new_sum", "new term on the old maximum", lambda l, m_old, m_new, s: l * np.exp(m_old - m_new)
     + np.exp(s - m_old)),
    ("11.weight", "sign flipped", lambda s, m, l: np.exp(m - s) / l),
    ("11.weight", "no maximum", lambda s, m, l: np.exp(s) / l),
    ("11.weight", "not divided", lambda s, m, l: np.exp(s - m)),
    ("12.is_causal", "bottom-right", lambda: np.arange(1, 7)),
    ("12.is_causal", "from 0", lambda: np.array([0, 1])),
    ("12.is_causal", "token 5's row", lambda: np.array([1])),
    ("13.odd_share", "odd indices", lambda tr: tr.P[:, 4, 1::2].sum(axis=-1)),
    ("13.odd_share", "heads swapped", lambda tr: tr.P[::-1, 4, 0::2].sum(axis=-1)),
    ("13.odd_share", "before the mask", lambda tr: tr.S[:, 4, 0::2].sum(axis=-1)),
    ("13.odd_share", "column 5", lambda tr: tr.P[:, 0::2, 4].sum(axis=-1)),
    ("13.odd_share", "token 4's row", lambda tr: tr.P[:, 3, 0::2].sum(axis=-1)),
    ("13.odd_share", "the mean", lambda tr: tr.P[:, 4, 0::2].mean(axis=-1)),
    ("13.weakest_input", "largest", lambda P, inputs: inputs[P[:, 5, 1::2].sum(axis=-1).argmax()]),
    ("13.weakest_input", "itself", lambda P, inputs: inputs[P[:, 5, 5].argmin()]),
    ("13.weakest_input", "token 5's row", lambda P, inputs: inputs[P[:, 4, 1::2].sum(axis=-1).argmin()]),
    ("13.weakest_input", "the odd-numbered", lambda P, inputs: inputs[P[:, 5, 0::2].sum(axis=-1).argmin()]),
    ("13.weakest_input", "the row before", lambda P, inputs: inputs[P[:, 5, 1::2].sum(axis=-1).argmin() - 1]),
]


@pytest.mark.parametrize("exercise_id, what, wrong", WRONG_SOLUTIONS, ids=[f"{c[0]}-{c[1]}" for c in WRONG_SOLUTIONS])
def test_the_reference_refuses_a_wrong_solution(exercise_id, what, wrong):
    with np.errstate(all="ignore"):
        assert not agrees(exercise_id, wrong), (exercise_id, what)


def test_every_exercise_here_has_wrong_solutions_to_refuse():
    assert {c[0] for c in WRONG_SOLUTIONS} == set(REFERENCES)


IS_CAUSAL_TYPED = [  # wrong answers as a learner types them, written here apart from the bank's `wrong` catalogue
    "[1, 2, 3, 4, 5, 6]", "[5, 6]", "[6]", "[1]", "[2]", "np.arange(2)",
    "np.flatnonzero(al.allowed_of(al.Mask('causal'), 2, 6)[1]) + 1",
    "np.flatnonzero(al.allowed_of(al.Mask('causal', align='top-left'), 6, 6)[5]) + 1",
    "np.flatnonzero(al.allowed_of(al.Mask('causal', align='top-left'), 2, 6)[0]) + 1",
]


@pytest.mark.parametrize("code", IS_CAUSAL_TYPED)
def test_is_causal_refuses_what_a_learner_may_type(code, capsys):
    e = ex.get("12.is_causal")
    ex.reset()
    feedback = ex.check(e.id, ex.define.as_code(e, code), lang="en")
    assert feedback.ok is False, (code, feedback.text)
    ex.reset()
    assert ex.check(e.id, ex.define.as_code(e, "[1, 2]"), lang="en").ok is True  # the right numbers, typed in
    capsys.readouterr()
