# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebook 12: queries and keys of different lengths.

Which Key tokens a Query row sees, for an alignment and a window, and the row
of weights a decode step computes. Every answer, and every known mistake's
value, is computed from the mask registry and the article's example, never
typed in. None of them needs PyTorch: SDPA's is_causal=True is the top-left
corner, Mask("causal", align="top-left").
"""

from functools import cache

import numpy as np

from ..numeric.core import softmax
from ..numeric.examples import article_example
from ..numeric.masks import Mask, allowed_of
from ..numeric.trace import attention_trace
from . import Exercise, Mistake
from .shared import BY_D, SQRT_D


def _seen(mask, T_q, T_k, row):  # -> the Key tokens (numbers from 1) that Query row `row` (from 0) may see
    return np.flatnonzero(allowed_of(mask, T_q, T_k)[row]) + 1


@cache
def _tr():
    return article_example()


def _decode_row(Q_rows, head=1, **kwargs):  # -> one Query row's weights against the article's three tokens
    tr = _tr()
    return attention_trace(Q_rows, tr.K, tr.V, h=2, **kwargs).P[head, 0]


_ZERO_BASED = {
    "ko": "0부터 센 인덱스입니다. 토큰 번호는 글처럼 1부터 셉니다. 인덱스에 1을 더하세요.",
    "en": "Those are indices counted from 0; token numbers count from 1, as in the article: add 1.",
}

_BOTTOM_RIGHT = {
    "ko": "오른쪽 아래 정렬로 읽었습니다. 그것이 맞는 계산이지만, 물은 것은 SDPA의 is_causal=True가 하는 계산, 왼쪽 위 정렬입니다.",
    "en": "You read it bottom-right: that is the right computation, but the question is what SDPA's is_causal=True "
          "does, which is top-left.",
}
_FIRST_ROW = {
    "ko": "청크의 첫 번째 행, 토큰 5의 행입니다. 토큰 6은 두 번째 행(인덱스 1)입니다.",
    "en": "That is the chunk's first row, token 5's; token 6 is the second row (index 1).",
}


_DECODE_TOP_LEFT = {
    "ko": "왼쪽 위 정렬(SDPA의 is_causal)로 읽었습니다. 그러면 하나뿐인 Query 행이 토큰 1이 됩니다. 디코드 단계의 Query 행은 마지막 토큰이므로 오른쪽 아래 정렬입니다.",
    "en": "You read it top-left (SDPA's is_causal), which makes the single Query row token 1; a decode step's Query"
          " row is the last token: bottom-right.",
}
_ONE_TOKEN_TOO_MANY = {
    "ko": "토큰 하나가 더 많습니다. flash-attention의 window_size=(w, 0)처럼 왼쪽으로 w개를 더 본 것입니다. w = 3은 자기 자신을 포함해 세 토큰입니다.",
    "en": "One token too many: that looks w tokens back besides itself, like flash-attention's window_size=(w, 0); "
          "w = 3 is three tokens, itself included.",
}
_ROW_TOP_LEFT = {
    "ko": "왼쪽 위 정렬에서는 하나뿐인 Query 행이 토큰 1로 읽혀 Key 토큰 1만 봅니다. 기본값(오른쪽 아래)을 쓰세요.",
    "en": "Top-left reads the single Query row as token 1, which sees Key token 1 only; keep the default, "
          "bottom-right.",
}
_HEAD_1_ROW = {
    "ko": "Head 1의 행입니다. Head 2는 인덱스 1입니다.",
    "en": "That is Head 1's row; Head 2 is index 1.",
}
_TOKEN_1_ROW = {
    "ko": "토큰 1의 Query 행으로 계산했습니다. 토큰 3의 Query 행은 `tr.Q[2:]`입니다.",
    "en": "You used token 1's Query row; token 3's is `tr.Q[2:]`.",
}
_UNSCALED = {
    "ko": "√dh로 나누지 않은 점수로 계산했습니다. 점수를 √dh = 2로 나눈 뒤 Softmax를 적용하세요.",
    "en": "You used the scores before the division by √dh; divide them by √dh = 2 first.",
}


EXERCISES = [
    Exercise(
        "12.window",
        {"ko": "Key 토큰 6개의 캐시에 대한 토큰 6의 디코드 단계(T_q = 1)에서, `Mask(\"sliding\", window=3)`일 때 보는 Key 토큰의 번호",
         "en": "the numbers of the Key tokens that token 6's decode step (T_q = 1) against a cache of 6 Key tokens sees, "
               "with `Mask(\"sliding\", window=3)`"},
        lambda: _seen(Mask("sliding", window=3), 1, 6, 0),
        'np.flatnonzero(al.allowed_of(al.Mask("sliding", window=3), 1, 6)[0]) + 1',
        (
            {"ko": "Query 행이 하나뿐이면, 오른쪽 아래 정렬에서 그 행은 마지막 토큰인 토큰 6입니다. Sliding window w는 자기 자신을 포함한 최근 w개 토큰입니다.",
             "en": "With a single Query row, bottom-right alignment makes it the last token, token 6; a sliding window "
                   "of w is the last w tokens, itself included."},
            {"ko": "`al.allowed_of(mask, T_q, T_k)`는 (T_q, T_k) 모양의 bool 배열입니다. `np.flatnonzero`로 True인 열을 찾고 1을 더하세요.",
             "en": "`al.allowed_of(mask, T_q, T_k)` is a (T_q, T_k) boolean array; `np.flatnonzero` finds the True "
                   "columns, then add 1."},
        ),
        (
            Mistake(lambda: _seen(Mask("sliding", window=3, align="top-left"), 1, 6, 0), _DECODE_TOP_LEFT,
                    name="top_left"),
            Mistake(lambda: _seen(Mask("sliding", window=3), 1, 6, 0) - 1, _ZERO_BASED, name="counted_from_0"),
            Mistake(lambda: _seen(Mask("window", left=3, right=0), 1, 6, 0), _ONE_TOKEN_TOO_MANY,
                    name="window_too_wide"),
        ),
        wrong=(  # as a learner types them: the numbers read off, and the mask built with the wrong alignment
            ("[1]", _DECODE_TOP_LEFT), ("[3, 4, 5]", _ZERO_BASED), ("[3, 4, 5, 6]", _ONE_TOKEN_TOO_MANY),
            ("np.flatnonzero(al.allowed_of(al.Mask('sliding', window=3, align='top-left'), 1, 6)[0]) + 1",
             _DECODE_TOP_LEFT),
            ("np.flatnonzero(al.allowed_of(al.Mask('sliding', window=3), 1, 6)[0])", _ZERO_BASED),
            ("[6]", "ex.wrong_shape"), "[1, 2, 3]", "[5, 6, 7]",
        ),
    ),
    Exercise(
        "12.is_causal",
        {"ko": "토큰 5·6을 한 청크(T_q = 2)로 Key 토큰 6개와 계산할 때, SDPA의 `is_causal=True`에서 토큰 6의 행이 보는 Key 토큰의 번호",
         "en": "the numbers of the Key tokens that the row of token 6 sees when tokens 5 and 6 come as one chunk "
               "(T_q = 2) against 6 Key tokens, under SDPA's `is_causal=True`"},
        lambda: _seen(Mask("causal", align="top-left"), 2, 6, 1),
        'np.flatnonzero(al.allowed_of(al.Mask("causal", align="top-left"), 2, 6)[1]) + 1',
        (
            {"ko": "SDPA의 is_causal=True는 왼쪽 위 정렬입니다. Query 행 i는 Key 토큰 1부터 i까지만 봅니다. 토큰 6은 청크의 두 번째 행입니다.",
             "en": "SDPA's is_causal=True is top-left: Query row i sees Key tokens 1 to i only, and token 6 is the "
                   "chunk's second row."},
            {"ko": "`al.Mask(\"causal\", align=\"top-left\")`로 `al.allowed_of(mask, 2, 6)`를 만들고, 두 번째 행(인덱스 1)에서 True인 열을 찾으세요.",
             "en": "Build `al.allowed_of(mask, 2, 6)` with `al.Mask(\"causal\", align=\"top-left\")` and find the True "
                   "columns of its second row (index 1)."},
        ),
        (
            Mistake(lambda: _seen(Mask("causal"), 2, 6, 1), _BOTTOM_RIGHT, name="bottom_right"),
            Mistake(lambda: _seen(Mask("causal", align="top-left"), 2, 6, 1) - 1, _ZERO_BASED, name="counted_from_0"),
            Mistake(lambda: _seen(Mask("causal", align="top-left"), 2, 6, 0), _FIRST_ROW, name="wrong_token"),
        ),
        wrong=(  # as a learner types them: the numbers read off, and the mask built with the wrong sizes or row
            ("[1, 2, 3, 4, 5, 6]", _BOTTOM_RIGHT), ("[0, 1]", _ZERO_BASED), ("np.arange(2)", _ZERO_BASED),
            ("[1]", _FIRST_ROW), "[5, 6]", "[6]", "[2]", "[1, 2, 3]", "[4, 5, 6]",
            ("np.flatnonzero(al.allowed_of(al.Mask('causal'), 2, 6)[1]) + 1", _BOTTOM_RIGHT),
            ("np.flatnonzero(al.allowed_of(al.Mask('causal', align='top-left'), 2, 6)[1])", _ZERO_BASED),
            ("np.flatnonzero(al.allowed_of(al.Mask('causal', align='top-left'), 2, 6)[0]) + 1", _FIRST_ROW),
            "np.flatnonzero(al.allowed_of(al.Mask('causal', align='top-left'), 6, 6)[5]) + 1",  # T_q = T_k = 6
            "np.flatnonzero(al.allowed_of(al.Mask('causal', align='top-left'), 2, 6)[1] == 0) + 1",  # the masked
        ),
    ),
    Exercise(
        "12.decode_row",
        {"ko": "토큰 3의 디코드 단계에서 Head 2가 계산하는 가중치 행 (1 × 3)",
         "en": "the row of weights (1 × 3) that Head 2 computes in token 3's decode step"},
        lambda: _tr().P[1, 2],
        "al.attention_trace(tr.Q[2:], tr.K, tr.V, h=2).P[1, 0]",
        (
            {"ko": "디코드 단계는 새 토큰의 Query 행 하나와 캐시에 있는 모든 토큰의 Key·Value로 하는 계산입니다. 결과는 전체 계산의 세 번째 행과 같습니다.",
             "en": "A decode step is the new token's single Query row against the Keys and Values of every token in "
                   "the cache; its result is row 3 of the full computation."},
            {"ko": "`al.attention_trace`에 Query 행 `tr.Q[2:]`(1 × 8)와 `tr.K`, `tr.V`를 넘기세요. Head 2는 P의 인덱스 1입니다.",
             "en": "Pass the Query row `tr.Q[2:]` (1 × 8) with `tr.K` and `tr.V` to `al.attention_trace`; Head 2 is "
                   "index 1 of P."},
        ),
        (
            Mistake(lambda: _decode_row(_tr().Q[2:], mask=Mask("causal", align="top-left")), _ROW_TOP_LEFT,
                    name="top_left"),
            Mistake(lambda: _tr().P[0, 2], _HEAD_1_ROW, name="wrong_head"),
            Mistake(lambda: _decode_row(_tr().Q[:1]), _TOKEN_1_ROW, name="wrong_token"),
            Mistake(lambda: softmax(_tr().S[1, 2]), _UNSCALED, name="no_scale"),
            Mistake(lambda: softmax(_tr().S[1, 2] / np.sqrt(_tr().d)), SQRT_D, name="sqrt_d"),
            Mistake(lambda: softmax(_tr().S[1, 2] / _tr().d), BY_D, name="by_d"),
        ),
        wrong=(  # as a learner types them
            ("tr.P[0, 2]", _HEAD_1_ROW), ("al.attention_trace(tr.Q[2:], tr.K, tr.V, h=2).P[0, 0]", _HEAD_1_ROW),
            ("al.attention_trace(tr.Q[2:], tr.K, tr.V, h=2, mask=al.Mask('causal', align='top-left')).P[1, 0]",
             _ROW_TOP_LEFT),
            ("al.attention_trace(tr.Q[:1], tr.K, tr.V, h=2).P[1, 0]", _TOKEN_1_ROW),
            ("al.softmax(tr.S[1, 2])", _UNSCALED),
            ("tr.P[1, 2, :2]", "ex.wrong_shape"),  # two of the three weights
            "tr.P[1, 1]", ("al.softmax(tr.S[1, 2] / np.sqrt(tr.d))", SQRT_D),
        ),
        tol=1e-3,
        note={"ko": "전체 계산에서 Head 2의 세 번째 행과 같습니다.",
              "en": "It is row 3 of Head 2's P in the full computation."},
    ),
]
