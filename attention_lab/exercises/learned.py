# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebook 13: attention that was learned.

Which Key token each head of the tiny model looks at for an input, and the input on which a head does its job
worst. The shown case is the shipped model; the hidden cases are the same model on other inputs and models
with other (random) weights, so an answer read off the figures, or typed in, does not pass. Every answer and
every known mistake's value is computed from numeric/tiny_model.py.
"""

from functools import cache

import numpy as np

from ..numeric import tiny_model as tm
from ..numeric.training import load_weights
from . import Exercise, Given, Mistake

ROW = 3  # token 4's row: the mask still hides tokens 5 and 6 from it
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


_ZERO_BASED = {
    "ko": "0부터 센 인덱스입니다. 토큰 번호는 글처럼 1부터 셉니다. 1을 더하세요.",
    "en": "Those are indices counted from 0; token numbers count from 1, as in the article: add 1.",
}


EXERCISES = [
    Exercise(
        "13.strongest_key",
        {"ko": "학습된 모델의 trace `tr`에서, 토큰 4의 행(Query 토큰 4)이 가장 큰 가중치를 주는 Key 토큰의 번호를 head마다 하나씩 (Head 1, Head 2 순서로)",
         "en": "in the learned model's trace `tr`, the number of the Key token to which the row of token 4 (Query token 4) gives its largest weight, one per head (Head 1, then Head 2)"},
        lambda tr: tr.P[:, ROW].argmax(axis=-1) + 1,
        "tr.P[:, 3].argmax(axis=-1) + 1",
        (
            {"ko": "P의 한 행은 Query 토큰 하나가 Key 토큰들에 주는 가중치입니다. 가장 큰 가중치가 있는 열을 head마다 찾으세요.",
             "en": "A row of P is the weights one Query token gives the Key tokens; find, per head, the column of the largest weight."},
            {"ko": "`tr.P`의 모양은 (h, T, T)입니다. `tr.P[:, 3]`이 두 head의 토큰 4 행이고, `.argmax(axis=-1)`이 열의 인덱스를 줍니다.",
             "en": "`tr.P` has shape (h, T, T): `tr.P[:, 3]` is the row of token 4 in both heads, and `.argmax(axis=-1)` gives the column's index."},
        ),
        (
            Mistake(lambda tr: tr.P[:, ROW].argmax(axis=-1), _ZERO_BASED, name="counted_from_0"),
            Mistake(lambda tr: tr.P[:, :, ROW].argmax(axis=-1) + 1,
                    {"ko": "열 4를 읽었습니다. 그것은 어느 Query 토큰이 Key 토큰 4를 가장 많이 보는지입니다. 토큰 4의 행은 `tr.P[:, 3]`입니다.",
                     "en": "You read column 4: which Query token looks most at Key token 4. Token 4's row is `tr.P[:, 3]`."},
                    name="column_not_row"),
            Mistake(lambda tr: tr.S[:, ROW].argmax(axis=-1) + 1,
                    {"ko": "마스크 전의 점수 S에서 찾았습니다. 그러면 토큰 4가 볼 수 없는 토큰 5·6이 나올 수 있습니다. 가중치 P(마스크 뒤)에서 찾으세요.",
                     "en": "You looked in the scores S before the mask, which can pick tokens 5 and 6 that token 4 cannot see; look in the weights P, after the mask."},
                    name="no_mask"),
            Mistake(lambda tr: tr.P[::-1, ROW].argmax(axis=-1) + 1,
                    {"ko": "head의 순서가 바뀌었습니다. Head 1이 인덱스 0, Head 2가 인덱스 1입니다.",
                     "en": "The heads are the other way round: Head 1 is index 0, Head 2 index 1."},
                    name="heads_swapped"),
            Mistake(lambda tr: tr.P[:, ROW + 1].argmax(axis=-1) + 1,
                    {"ko": "토큰 5의 행입니다. 토큰 4는 인덱스 3입니다.",
                     "en": "That is token 5's row; token 4 is index 3."}, name="wrong_token"),
        ),
        note={"ko": "Head 1은 바로 앞 토큰(토큰 3), Head 2는 첫 토큰(토큰 1)을 봅니다. 입력이 달라도 같습니다.",
              "en": "Head 1 looks at the previous token (token 3), Head 2 at the first token (token 1), whatever the input."},
        given=Given(("tr",), lambda: (_trace(SHOWN_INPUT),),
                    lambda: [(_trace(tokens),) for tokens in HIDDEN_INPUTS] + [(_trace(SHOWN_INPUT, seed),) for seed in (1, 2, 3)]),
        # read off the figures and typed in; the flat index of both heads at once; one head only; the row's smallest
        wrong=(("np.array([3, 1])", "ex.only_here"), "tr.P[:, 3].argmax() + 1", "tr.P[0, 3].argmax() + 1",
               "tr.P[:, 3].argmin(axis=-1) + 1"),
    ),
    Exercise(
        "13.weakest_input",
        {"ko": "Head 1의 가중치 `P`(가능한 입력 4096개 모두, 모양 (4096, 6, 6))와 그 입력들 `inputs`(4096, 6)로, 토큰 6의 행에서 바로 앞 토큰(토큰 5)에 가장 작은 가중치를 주는 입력 (토큰 번호 0–3의 여섯 개)",
         "en": "from Head 1's weights `P` on all 4096 possible inputs (shape (4096, 6, 6)) and those inputs `inputs` (4096, 6), the input (six token numbers 0–3) on which the row of token 6 gives the previous token, token 5, its smallest weight"},
        lambda P, inputs: inputs[P[:, 5, 4].argmin()],
        "inputs[P[:, 5, 4].argmin()]",
        (
            {"ko": "토큰 6의 행에서 토큰 5의 열이 바로 앞 토큰에 준 가중치입니다. 입력 4096개 중 그 값이 가장 작은 입력을 찾으세요.",
             "en": "In the row of token 6, the column of token 5 is the weight on the previous token; find the input, of the 4096, where it is smallest."},
            {"ko": "`P[:, 5, 4]`는 입력마다 그 가중치 하나, 4096개입니다. `.argmin()`으로 가장 작은 것의 번호를 찾아 `inputs`의 그 행을 답하세요.",
             "en": "`P[:, 5, 4]` holds that one weight per input, 4096 of them; `.argmin()` gives the smallest one's index: answer that row of `inputs`."},
        ),
        (
            Mistake(lambda P, inputs: inputs[P[:, 5, 4].argmax()],
                    {"ko": "가장 큰 가중치를 찾았습니다. Head가 가장 못하는 입력은 가중치가 가장 작은 입력입니다. argmin을 쓰세요.",
                     "en": "You found the largest weight; the head does worst where the weight is smallest: use argmin."},
                    name="argmax"),
            Mistake(lambda P, inputs: inputs[P[:, 5, 5].argmin()],
                    {"ko": "토큰 6이 자기 자신에게 준 가중치(열 6)입니다. 바로 앞 토큰은 토큰 5, 인덱스 4입니다.",
                     "en": "That is the weight token 6 gives itself (column 6); the previous token is token 5, index 4."},
                    name="own_weight"),
            Mistake(lambda P, inputs: inputs[P[:, 4, 3].argmin()],
                    {"ko": "토큰 5의 행입니다. 토큰 6의 행은 인덱스 5입니다.",
                     "en": "That is token 5's row; token 6's row is index 5."}, name="wrong_token"),
            Mistake(lambda P, inputs: inputs[P[:, 5, 0].argmin()],
                    {"ko": "첫 토큰(열 1)에 준 가중치를 보았습니다. 그것은 Head 2의 일입니다. 바로 앞 토큰은 열 5, 인덱스 4입니다.",
                     "en": "You looked at the weight on the first token (column 1), Head 2's job; the previous token is column 5, index 4."},
                    name="first_token"),
        ),
        note={"ko": "이 입력에서도 가중치의 대부분은 바로 앞 토큰에 있습니다. 아래에서 이 입력을 살펴봅니다.",
              "en": "Even on this input most of the weight is on the previous token; the notebook looks at it next."},
        given=Given(("P", "inputs"), lambda: _head_1_on_all(), lambda: [_head_1_on_all(seed) for seed in (1, 2)]),
        # the shown input typed in; the row before the smallest; every input's weight, not the input
        wrong=(("np.array([2, 2, 2, 2, 1, 0])", "ex.only_here"), "inputs[P[:, 5, 4].argmin() - 1]", "P[:, 5, 4]"),
    ),
]
