# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebook 13: attention that was learned.

The softmax backward (dS from dP and P), how much of its weight each head of the tiny model gives the odd-numbered
tokens on an input, and the input on which a head does its job worst. The shown case is the notebook's own (the weights before training
for the softmax backward, the shipped model for the others); the hidden cases are other inputs and models with
other (random) weights, so an answer read off the figures, or typed in, does not pass. Every answer and every
known mistake's value is computed from numeric/tiny_model.py and numeric/backward.py.
"""

from functools import cache

import numpy as np

from ..numeric import backward as bw
from ..numeric import core, masks
from ..numeric import tiny_model as tm
from ..numeric.training import SEED, initial_weights, load_weights
from . import Exercise, Given, Mistake

ROW = 4  # token 5's row: it sees the odd-numbered tokens 1, 3, 5 and the even-numbered 2, 4; the mask hides token 6
ODD, EVEN = slice(0, None, 2), slice(1, None, 2)  # tokens 1, 3, 5 (indices 0, 2, 4) and tokens 2, 4, 6
SHOWN_INPUT, HIDDEN_INPUTS = "CABDDA", ("DDCBAB", "BACCAD")


@cache
def _weights(seed=None):  # the shipped weights (seed None) or random ones of the same shapes
    if seed is None:
        return load_weights()
    rng = np.random.default_rng(seed)
    weights = {name: rng.normal(0.0, 1.0, shape) for name, shape in tm.shapes().items()}
    weights["h"] = 2
    return weights


@cache
def _trace(tokens, seed=None):
    return tm.trace(_weights(seed), tokens)


@cache
def _head_1_on_all(seed=None):  # -> (P of Head 1 on every input (4096, T, T), the inputs (4096, T)), read-only
    P = tm.forward(_weights(seed), tm.all_sequences())["P"][:, 0]
    P.setflags(write=False)
    return P, tm.all_sequences()


@cache
def _softmax_case(tokens, seed=SEED, head=0):  # -> (P, dP) of one head on one input, (T, T) each, read-only
    """P of one head of the model before training (initial_weights from `seed`, as notebook 13's backward pass),
    and dP, the gradient of that input's loss with respect to it: what the softmax backward starts from."""
    weights = initial_weights(np.random.default_rng(seed))
    x = tm.encode(tokens)[None]
    a = tm.forward(weights, x)
    dH = bw.loss_backward(a["logits"], x) @ weights["W_U"].T @ weights["W_O"].T  # (1, T, h·dh)
    dO = dH.reshape(1, tm.T, a["h"], -1).transpose(0, 2, 1, 3)  # (1, h, T, dh): Concat backwards
    dP, _ = bw.weighted_sum_backward(dO, a["P"], a["Vh"])
    return _read_only(a["P"][0, head]), _read_only(dP[0, head])


@cache
def _random_softmax_case(T, seed):  # -> (P, dP): a causal softmax of random scores and a random dP, (T, T) each
    rng = np.random.default_rng(seed)
    P = core.softmax(rng.normal(0.0, 1.5, (T, T)) + masks.causal_mask(T))
    return _read_only(P), _read_only(rng.normal(0.0, 0.1, (T, T)))


def _read_only(array):
    array = np.array(array, dtype=float)
    array.setflags(write=False)
    return array


def _typed_in_shares(tr):  # the shown shares as a learner might type them in off the figure
    return f"np.array({np.round(tr.P[:, ROW, ODD].sum(axis=-1), 10).tolist()})"


def _typed_in(case):  # the shown answer as a learner might type it in: right here, wrong on the hidden cases
    P, dP = case
    return f"np.array({np.round(bw.softmax_backward(dP, P), 10).tolist()})"


EXERCISES = [
    Exercise(
        "13.softmax_backward",
        {"ko": "한 head의 가중치 `P`(T × T, 행마다 Softmax)와 손실의 P에 대한 기울기 `dP`(T × T)로, Softmax에 들어간 점수에 대한 기울기 dS (T × T)",
         "en": "from one head's weights `P` (T × T, a softmax in every row) and the loss's gradient with respect to them `dP` (T × T), the gradient dS with respect to the scores that went into the softmax (T × T)"},
        lambda P, dP: P * (dP - (dP * P).sum(axis=-1, keepdims=True)),
        "P * (dP - (dP * P).sum(axis=-1, keepdims=True))",
        (
            {"ko": "점수 하나를 올리면 그 칸의 가중치는 오르고, 같은 행의 다른 가중치는 모두 내려갑니다. 한 행의 가중치 합은 1이기 때문입니다. 그래서 각 칸의 기울기는 그 칸의 가중치 × (그 칸의 dP − 그 행에서 가중치로 평균한 dP)입니다.",
             "en": "Raising one score raises its own weight and lowers every other weight of its row, since a row's weights sum to 1; so each cell's gradient is its weight times (its dP minus the row's dP averaged with the weights)."},
            {"ko": "행마다 가중 평균은 `(dP * P).sum(axis=-1, keepdims=True)`입니다. `dP`에서 그것을 빼고 `P`를 곱하세요.",
             "en": "The weighted mean of each row is `(dP * P).sum(axis=-1, keepdims=True)`; subtract it from `dP` and multiply by `P`."},
        ),
        (
            Mistake(lambda P, dP: P * dP,
                    {"ko": "각 칸을 따로 미분했습니다. 점수 하나는 같은 행의 다른 가중치도 모두 바꿉니다(합이 1). dP에서 그 행의 가중 평균 (dP * P).sum(axis=-1, keepdims=True)을 빼세요.",
                     "en": "You differentiated each cell on its own; one score changes every other weight of its row too (they sum to 1). Subtract the row's weighted mean (dP * P).sum(axis=-1, keepdims=True) from dP."},
                    name="no_row_sum"),
            Mistake(lambda P, dP: dP - (dP * P).sum(axis=-1, keepdims=True),
                    {"ko": "P를 곱하지 않았습니다. 가중치가 0인 칸(마스크의 −∞ 칸)은 점수가 바뀌어도 가중치가 그대로이므로 기울기가 0이어야 합니다.",
                     "en": "You did not multiply by P: a cell of weight 0 (the mask's −∞ cells) keeps its weight whatever its score, so its gradient must be 0."},
                    name="no_weight"),
            Mistake(lambda P, dP: P * (dP - (dP * P).sum(axis=0, keepdims=True)),
                    {"ko": "열마다 더했습니다(axis=0). Softmax는 행마다이므로 행을 따라 더하세요: axis=-1.",
                     "en": "You summed each column (axis=0); the softmax is taken by row, so sum along the row: axis=-1."},
                    name="column_sum"),
            Mistake(lambda P, dP: P * (dP - dP.mean(axis=-1, keepdims=True)),
                    {"ko": "dP의 보통 평균을 뺐습니다. 행의 칸마다 가중치 P로 평균해야 합니다. 마스크 뒤의 칸은 가중치가 0이라 빠집니다.",
                     "en": "You subtracted the plain mean of dP; average each row with the weights P instead, so that the cells behind the mask, of weight 0, drop out."},
                    name="plain_mean"),
            Mistake(lambda P, dP: P * ((dP * P).sum(axis=-1, keepdims=True) - dP),
                    {"ko": "부호가 반대입니다. 그 칸의 dP가 행의 가중 평균보다 클 때 기울기가 양수입니다: dP − 평균.",
                     "en": "The sign is the other way round: the gradient is positive where the cell's dP is above the row's weighted mean, dP − mean."},
                    name="flipped_sign"),
        ),
        note={"ko": "마스크의 −∞ 칸은 P가 0이므로 기울기도 정확히 0입니다. backward.py의 softmax_backward가 같은 식입니다.",
              "en": "The mask's −∞ cells have P = 0, so their gradient is exactly 0 too; backward.py's softmax_backward is the same formula."},
        given=Given(("P", "dP"), lambda: _softmax_case(SHOWN_INPUT),
                    lambda: [_softmax_case(tokens) for tokens in HIDDEN_INPUTS] + [_softmax_case(SHOWN_INPUT, seed, 1) for seed in (1, 2)]
                    + [_random_softmax_case(T, seed) for T, seed in ((3, 5), (4, 6))], forbid=(bw.softmax_backward,)),
        tol=1e-9,  # dS is about 1e-3 here: 1e-6 would pass an answer wrong by a thousandth of it
        # typed in; a library function; the row's own dP left out of the mean; the transpose of the answer
        wrong=((_typed_in(_softmax_case(SHOWN_INPUT)), "ex.only_here"), ("al.numeric.backward.softmax_backward(dP, P)", "ex.forbidden"),
               "P * (dP - (dP * P).sum())", "(P * (dP - (dP * P).sum(axis=-1, keepdims=True))).T"),
    ),
    Exercise(
        "13.odd_share",
        {"ko": "학습된 모델의 trace `tr`에서, 토큰 5의 행(Query 토큰 5)이 홀수 번째 Key 토큰(1, 3, 5)에 주는 가중치의 합을 head마다 하나씩 (Head 1, Head 2 순서로)",
         "en": "in the learned model's trace `tr`, the total weight the row of token 5 (Query token 5) gives the odd-numbered Key tokens (1, 3, 5), one per head (Head 1, then Head 2)"},
        lambda tr: tr.P[:, ROW, ODD].sum(axis=-1),
        "tr.P[:, 4, 0::2].sum(axis=-1)",
        (
            {"ko": "P의 한 행은 Query 토큰 하나가 Key 토큰들에 주는 가중치입니다. 토큰 5의 행에서 열 1, 3, 5의 가중치를 head마다 더하세요.",
             "en": "A row of P is the weights one Query token gives the Key tokens; in the row of token 5, add up the weights in columns 1, 3 and 5, per head."},
            {"ko": "`tr.P`의 모양은 (h, T, T)입니다. `tr.P[:, 4]`가 두 head의 토큰 5 행이고, 토큰 1, 3, 5는 인덱스 0, 2, 4, 곧 `0::2`입니다. `.sum(axis=-1)`로 더하세요.",
             "en": "`tr.P` has shape (h, T, T): `tr.P[:, 4]` is the row of token 5 in both heads, and tokens 1, 3, 5 are indices 0, 2, 4, that is `0::2`; add them with `.sum(axis=-1)`."},
        ),
        (
            Mistake(lambda tr: tr.P[:, ROW, 1::2].sum(axis=-1),
                    {"ko": "인덱스 1, 3, 5를 더했습니다. 그것은 토큰 2, 4, 6, 짝수 번째 토큰입니다. 토큰 번호는 1부터, 인덱스는 0부터 세므로 홀수 번째 토큰은 인덱스 0, 2, 4(`0::2`)입니다.",
                     "en": "You added indices 1, 3, 5: tokens 2, 4 and 6, the even-numbered ones. Token numbers count from 1 and indices from 0, so the odd-numbered tokens are indices 0, 2, 4 (`0::2`)."},
                    name="index_parity"),
            Mistake(lambda tr: tr.P[:, ODD, ROW].sum(axis=-1),
                    {"ko": "열 5를 읽었습니다. 그것은 Query 토큰 1, 3, 5가 Key 토큰 5에 준 가중치입니다. 토큰 5의 행은 `tr.P[:, 4]`입니다.",
                     "en": "You read column 5: the weights Query tokens 1, 3 and 5 give Key token 5. Token 5's row is `tr.P[:, 4]`."},
                    name="column_not_row"),
            Mistake(lambda tr: tr.P[:, ROW, ODD].mean(axis=-1),
                    {"ko": "가중치의 평균을 냈습니다. 행이 홀수 번째 토큰들에 준 몫은 그 가중치들의 합입니다(행 전체의 합이 1).",
                     "en": "You averaged the weights; the share the row gives the odd-numbered tokens is their sum (the whole row sums to 1)."},
                    name="mean_not_sum"),
            Mistake(lambda tr: tr.P[::-1, ROW, ODD].sum(axis=-1),
                    {"ko": "head의 순서가 바뀌었습니다. Head 1이 인덱스 0, Head 2가 인덱스 1입니다.",
                     "en": "The heads are the other way round: Head 1 is index 0, Head 2 index 1."},
                    name="heads_swapped"),
            Mistake(lambda tr: tr.P[:, ROW + 1, ODD].sum(axis=-1),
                    {"ko": "토큰 6의 행입니다. 토큰 5는 인덱스 4입니다.",
                     "en": "That is token 6's row; token 5 is index 4."}, name="wrong_token"),
        ),
        note={"ko": "Head 2는 가중치를 거의 모두 홀수 번째 토큰에, Head 1은 짝수 번째 토큰(2, 4)에 줍니다. 입력이 달라도 같습니다.",
              "en": "Head 2 gives nearly all its weight to the odd-numbered tokens, Head 1 to the even-numbered ones (2 and 4), whatever the input."},
        given=Given(("tr",), lambda: (_trace(SHOWN_INPUT),),
                    lambda: [(_trace(tokens),) for tokens in HIDDEN_INPUTS] + [(_trace(SHOWN_INPUT, seed),) for seed in (1, 2, 3)]),
        # read off the figures and typed in; both heads added together; one head only; the first three tokens
        wrong=((_typed_in_shares(_trace(SHOWN_INPUT)), "ex.only_here"), "tr.P[:, 4, 0::2].sum()",
               "tr.P[1, 4, 0::2].sum()", "tr.P[:, 4, :3].sum(axis=-1)"),
    ),
    Exercise(
        "13.weakest_input",
        {"ko": "Head 1의 가중치 `P`(가능한 입력 4096개 모두, 모양 (4096, 6, 6))와 그 입력들 `inputs`(4096, 6)로, 토큰 6의 행이 짝수 번째 토큰(2, 4, 6)에 주는 가중치의 합이 가장 작은 입력 (토큰 번호 0–3의 여섯 개)",
         "en": "from Head 1's weights `P` on all 4096 possible inputs (shape (4096, 6, 6)) and those inputs `inputs` (4096, 6), the input (six token numbers 0–3) on which the row of token 6 gives the even-numbered tokens, 2, 4 and 6, the smallest total weight"},
        lambda P, inputs: inputs[P[:, 5, EVEN].sum(axis=-1).argmin()],
        "inputs[P[:, 5, 1::2].sum(axis=-1).argmin()]",
        (
            {"ko": "토큰 6의 행에서 열 2, 4, 6의 가중치를 더한 것이 Head 1이 자기 일(짝수 번째 토큰)에 준 몫입니다. 입력 4096개 중 그 몫이 가장 작은 입력을 찾으세요.",
             "en": "In the row of token 6, the weights in columns 2, 4 and 6 added up are the share Head 1 gives its job, the even-numbered tokens; find the input, of the 4096, where that share is smallest."},
            {"ko": "`P[:, 5, 1::2].sum(axis=-1)`는 입력마다 그 몫 하나, 4096개입니다. `.argmin()`으로 가장 작은 것의 번호를 찾아 `inputs`의 그 행을 답하세요.",
             "en": "`P[:, 5, 1::2].sum(axis=-1)` holds that share per input, 4096 of them; `.argmin()` gives the smallest one's index: answer that row of `inputs`."},
        ),
        (
            Mistake(lambda P, inputs: inputs[P[:, 5, EVEN].sum(axis=-1).argmax()],
                    {"ko": "가장 큰 몫을 찾았습니다. Head가 가장 못하는 입력은 몫이 가장 작은 입력입니다. argmin을 쓰세요.",
                     "en": "You found the largest share; the head does worst where the share is smallest: use argmin."},
                    name="argmax"),
            Mistake(lambda P, inputs: inputs[P[:, 5, 5].argmin()],
                    {"ko": "토큰 6이 자기 자신에게 준 가중치(열 6)만 보았습니다. 짝수 번째 토큰은 2, 4, 6, 인덱스 1, 3, 5입니다.",
                     "en": "You looked only at the weight token 6 gives itself (column 6); the even-numbered tokens are 2, 4 and 6, indices 1, 3, 5."},
                    name="own_weight"),
            Mistake(lambda P, inputs: inputs[P[:, 4, EVEN].sum(axis=-1).argmin()],
                    {"ko": "토큰 5의 행입니다. 토큰 6의 행은 인덱스 5입니다.",
                     "en": "That is token 5's row; token 6's row is index 5."}, name="wrong_token"),
            Mistake(lambda P, inputs: inputs[P[:, 5, ODD].sum(axis=-1).argmin()],
                    {"ko": "홀수 번째 토큰(인덱스 0, 2, 4)의 몫을 보았습니다. 그것은 Head 2의 일입니다. 짝수 번째 토큰은 인덱스 1, 3, 5(`1::2`)입니다.",
                     "en": "You looked at the odd-numbered tokens' share (indices 0, 2, 4), Head 2's job; the even-numbered tokens are indices 1, 3, 5 (`1::2`)."},
                    name="odd_tokens"),
        ),
        note={"ko": "이 입력에서도 가중치의 대부분은 짝수 번째 토큰에 있습니다. 아래에서 이 입력을 살펴봅니다.",
              "en": "Even on this input most of the weight is on the even-numbered tokens; the notebook looks at it next."},
        given=Given(("P", "inputs"), lambda: _head_1_on_all(), lambda: [_head_1_on_all(seed) for seed in (1, 2)]),
        # the shown input typed in; the row before the smallest; every input's share, not the input
        wrong=(("np.array([0, 3, 0, 3, 0, 3])", "ex.only_here"), "inputs[P[:, 5, 1::2].sum(axis=-1).argmin() - 1]",
               "P[:, 5, 1::2].sum(axis=-1)"),
    ),
]
