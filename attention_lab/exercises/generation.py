# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebooks 10–11: the KV cache and shared K/V heads, and the online softmax's rescaling.

Every answer, and every known mistake's value, is computed from the package
(the article's example, `kv_cache.PUBLISHED`, `blockwise_steps`), never typed in.
"""

from functools import cache

import numpy as np

from ..numeric.blockwise import blockwise_steps
from ..numeric.core import kv_head_index, softmax
from ..numeric.examples import article_example
from ..numeric.kv_cache import PUBLISHED
from .define import Exercise, Mistake
from .givens import trace, values
from .shared import BY_D, HEAD1_IS_INDEX_0, SQRT_D

GIB = 2**30


@cache
def _tr():
    return article_example()


def _llama2_70b(**kwargs):  # -> the KV cache of Llama 2 70B for one sequence of 4096 tokens, in GiB
    model = next(m for m in PUBLISHED if m.name == "Llama 2 70B")
    return model.cache_bytes(4096, **kwargs) / GIB


def _kv_head(query_head, h, g):  # 1-based Query head -> 1-based K/V head
    return int(kv_head_index(h, g)[query_head - 1]) + 1


@cache
def _row3():  # -> the running values of row 3, Head 1, one Key token per block: [(m, l, rescale), …]
    tr = _tr()
    return [(s.m[0, 2], s.l[0, 2], s.rescale[0, 2]) for s in blockwise_steps(tr.Q, tr.K, tr.V, tr.h, block=1)]


_HALF = {
    "ko": "답의 절반입니다. K와 V는 두 개의 캐시이고, 값 하나는 2바이트입니다. 2를 한 번 빠뜨렸습니다.",
    "en": "That is half the answer: K and V are two caches, and a value takes 2 bytes; one factor 2 is missing.",
}
_ONE_KV_HEAD_PER_QUERY_HEAD = {
    "ko": "Query head 64개마다 K/V head가 하나씩 있는 것처럼 계산했습니다. Llama 2 70B는 GQA로 K/V head 8개만 둡니다.",
    "en": "You counted one K/V head per Query head (64); with GQA, Llama 2 70B has only 8 K/V heads.",
}
_GB_NOT_GIB = {
    "ko": "10의 9제곱 바이트(GB)로 나누었습니다. GiB는 2의 30제곱 바이트입니다.",
    "en": "You divided by 10 to the 9th (GB); a GiB is 2 to the 30th bytes.",
}


EXERCISES = [
    # 10 — the KV cache
    Exercise(
        "10.step2",
        {"ko": "위치 2의 단계에서 캐시만으로 계산한 가중치 (Head 1, Key 토큰 1·2)",
         "en": "the weights of the step at position 2, from the cache alone (Head 1, Key tokens 1 and 2)"},
        lambda tr: tr.P[0, 1, :2],
        "al.softmax(tr.Kh[0, :2] @ tr.Qh[0, 1] / np.sqrt(tr.dh))",
        (
            {"ko": "위치 2의 단계에서는 토큰 2의 Query 하나와 캐시에 있는 토큰 1·2의 Key만 씁니다. 점수를 계산하고 √dh로 나눈 뒤 Softmax를 적용합니다.",
             "en": "The step at position 2 uses only token 2's Query and the cached Keys of tokens 1 and 2: "
                   "compute the scores, divide by √dh, then apply the softmax."},
            {"ko": "토큰 2의 Query는 `tr.Qh[0]`의 행 하나, 캐시의 Key는 `tr.Kh[0]`의 앞 두 행입니다. `@`로 점수를, `al.softmax`로 가중치를 계산합니다.",
             "en": "Token 2's Query is one row of `tr.Qh[0]`, the cached Keys the first two rows of `tr.Kh[0]`; "
                   "`@` gives the scores and `al.softmax` the weights."},
        ),
        (
            Mistake(lambda tr: softmax(tr.Kh[0, :2] @ tr.Qh[0, 1]),
                    {"ko": "√dh로 나누지 않은 점수로 계산했습니다. 점수를 √dh로 나눈 뒤 Softmax를 적용하세요.",
                     "en": "You used the scores before the division by √dh; divide them by √dh before the softmax."},
                    name="no_scale"),
            Mistake(lambda tr: tr.Kh[0, :2] @ tr.Qh[0, 1] / np.sqrt(tr.dh),
                    {"ko": "점수까지만 계산했습니다. Softmax로 가중치를 만드세요.",
                     "en": "Those are the scores; turn them into weights with the softmax."}, name="no_softmax"),
            Mistake(lambda tr: softmax(tr.Kh[0, :2] @ tr.Qh[0, 2] / np.sqrt(tr.dh)),
                    {"ko": "토큰 3의 Query로 계산했습니다. 토큰 2의 Query는 행 인덱스 1입니다.",
                     "en": "You used token 3's Query; token 2's Query is row index 1."}, name="wrong_token"),
            Mistake(lambda tr: softmax(tr.Kh[0] @ tr.Qh[0, 1] / np.sqrt(tr.dh)),
                    {"ko": "토큰 3의 Key까지 썼습니다. 위치 2의 단계에서는 토큰 3이 아직 캐시에 없습니다.",
                     "en": "You used token 3's Key as well; at the step of position 2, token 3 is not in the cache yet."},
                    name="future_key"),
            Mistake(lambda tr: softmax(tr.Kh[0, :2] @ tr.Qh[0, 1] / np.sqrt(tr.d)), SQRT_D, name="sqrt_d"),
            Mistake(lambda tr: softmax(tr.Kh[0, :2] @ tr.Qh[0, 1] / tr.d), BY_D, name="by_d"),
            Mistake(lambda tr: softmax(tr.Kh[1, :2] @ tr.Qh[1, 1] / np.sqrt(tr.dh)), HEAD1_IS_INDEX_0,
                    name="wrong_head"),
        ),
        tol=1e-3,
        note={"ko": "전체 계산의 P에서 두 번째 행의 앞 두 칸과 같습니다. 토큰 3의 칸은 어차피 0입니다.",
              "en": "It is row 2 of the full computation's P, without its last entry, which is 0 anyway."},
        given=trace(withhold="S"),
        wrong=(("tr.P[0, 1, :2]", "ex.withheld"), ("al.softmax(tr.Kh[0, :2] @ tr.Qh[0, 1] / 2)", "ex.only_here"),
               ("al.softmax(tr.Kh[0, :2] @ tr.Qh[0, 1] / np.sqrt(tr.d))", SQRT_D),
               ("al.softmax(tr.Qh[1, 1] @ tr.Kh[1, :2].T / np.sqrt(tr.dh))", HEAD1_IS_INDEX_0)),
    ),
    Exercise(
        "10.cache_size",
        {"ko": "Llama 2 70B의 KV 캐시 크기 (토큰 4096개, GiB 단위)",
         "en": "the size of Llama 2 70B's KV cache for 4096 tokens, in GiB"},
        lambda: _llama2_70b(),
        "2 * 80 * 4096 * 8 * 128 * 2 / 2**30",
        (
            {"ko": "캐시는 layer마다, 토큰마다, K/V head마다 Key 하나와 Value 하나(각각 dh개 값)를 저장합니다. 값 하나는 2바이트입니다.",
             "en": "The cache keeps, for every layer, token and K/V head, one Key and one Value of dh values each; "
                   "every value takes 2 bytes."},
            {"ko": "먼저 layer 하나, 토큰 하나마다 저장하는 값의 수를 구하세요(K와 V, K/V head, dh). 그다음 layer 수, 토큰 수, 값 하나의 바이트 수를 곱하고, 바이트를 GiB(`2**30` 바이트)로 바꿉니다.",
             "en": "First count the values kept per layer and per token (K and V, the K/V heads, dh); then multiply by "
                   "the layers, the tokens and the bytes per value, and turn bytes into GiB (`2**30` bytes)."},
        ),
        (
            Mistake(lambda: _llama2_70b() / 2, _HALF, name="factor_2_missing"),
            Mistake(lambda: _llama2_70b(kv_heads=64), _ONE_KV_HEAD_PER_QUERY_HEAD, name="no_gqa"),
            Mistake(lambda: _llama2_70b() * GIB / 1e9, _GB_NOT_GIB, name="gb_not_gib"),
        ),
        tol=1e-3,
        wrong=(  # as a learner types them
            ("2 * 80 * 4096 * 64 * 128 * 2 / 2**30", _ONE_KV_HEAD_PER_QUERY_HEAD),
            ("2 * 80 * 4096 * 8192 * 2 / 2**30", _ONE_KV_HEAD_PER_QUERY_HEAD),  # d = 8192: 64 heads of 128
            ("80 * 4096 * 8 * 128 * 2 / 2**30", _HALF), ("2 * 80 * 4096 * 8 * 128 / 2**30", _HALF),
            ("2 * 80 * 4096 * 8 * 128 * 2 / 1e9", _GB_NOT_GIB),
            "2 * 80 * 4096 * 8 * 128 * 2",  # bytes, not GiB
        ),
        note={"ko": "GQA가 없다면(K/V head 64개) 8배인 10 GiB입니다.",
              "en": "Without GQA (64 K/V heads) it would be 8 times as much, 10 GiB."},
    ),
    Exercise(
        "10.kv_head",
        {"ko": "Query head h개가 K/V head g개를 나누어 쓸 때 Query head i가 읽는 K/V head의 번호 (모두 1부터 셈, 예: h = 8, g = 2, i = 5)",
         "en": "the number of the K/V head that Query head i reads when h Query heads share g K/V heads "
               "(all counted from 1; e.g. h = 8, g = 2, i = 5)"},
        lambda h, g, i: _kv_head(i, h, g),
        "(i - 1) // (h // g) + 1",
        (
            {"ko": "Query head h개가 K/V head g개를 나누어 씁니다. 앞에서부터 Query head h / g개씩 같은 K/V head를 읽습니다.",
             "en": "The h Query heads share the g K/V heads: counting from the first, every h / g Query heads read "
                   "the same K/V head."},
            {"ko": "세 걸음입니다. Query head의 번호를 0부터 센 인덱스로 바꾸고, K/V head 하나를 함께 읽는 Query head의 수(h / g)로 `//` 나눈 뒤, 얻은 인덱스를 다시 1부터 센 번호로 바꿉니다.",
             "en": "Three steps: turn the Query head's number into an index counted from 0, divide it with `//` by "
                   "how many Query heads share one K/V head (h / g), and turn the index you get back into a number "
                   "counted from 1."},
        ),
        (
            Mistake(lambda h, g, i: _kv_head(i, h, g) - 1,
                    {"ko": "0부터 센 인덱스이거나, 1부터 센 번호를 그대로 나누었습니다. Query head의 번호를 먼저 인덱스로 바꿔 계산하고, 얻은 인덱스를 번호로 되돌리세요.",
                     "en": "That is an index counted from 0, or the head's number divided as it is: turn the Query "
                           "head's number into an index first, then the index you get back into a number."},
                    name="counted_from_0"),
            Mistake(lambda h, g, i: (i - 1) // g + 1,
                    {"ko": "g로 나누었습니다. K/V head 하나를 Query head h / g개가 함께 읽으므로 그 수로 나눕니다.",
                     "en": "You divided by g; each K/V head is read by h / g Query heads, so divide by that."},
                    name="divided_by_g"),
            Mistake(lambda h, g, i: (i - 1) % g + 1,
                    {"ko": "나머지(`%`)로 돌려 가며 나누었습니다. K/V head는 이웃한 Query head h / g개가 함께 읽습니다. 번갈아 읽지 않습니다. 나머지 대신 몫(`//`)을 쓰세요.",
                     "en": "You dealt the Query heads out in turn with `%`; a K/V head is read by h / g neighbouring "
                           "Query heads, not by every g-th one: use the quotient `//`, not the remainder."},
                    name="dealt_in_turn"),
            Mistake(lambda h, g, i: i // g,
                    {"ko": "Query head의 번호를 g로 나누었습니다. 번호를 0부터 센 인덱스로 바꾸고, K/V head 하나를 함께 읽는 Query head의 수(h / g)로 나누세요.",
                     "en": "You divided the Query head's number by g; turn the number into an index counted from 0, "
                           "and divide by how many Query heads share one K/V head (h / g)."}, name="number_by_g"),
        ),
        note={"ko": "h = 8, g = 2이면 Query head 5~8이 K/V head 2를 함께 읽습니다.",
              "en": "With h = 8 and g = 2, Query heads 5 to 8 all read K/V head 2."},
        given=values(("h", "g", "i"), (8, 2, 5), (8, 4, 3), (12, 3, 10), (6, 6, 4), (4, 1, 2), (8, 2, 4)),
        wrong=(("2", "ex.only_here"), "i // (h // g)", "(i - 1) // (h // g)", "i * g // h"),
    ),
    # 11 — the online softmax: functions of the running values, shown on row 3 of the article's Head 1
    Exercise(
        "11.rescale",
        {"ko": "최댓값이 m_old에서 m_new로 커질 때 누적 합 l에 곱하는 값 (예: 1에서 3으로)",
         "en": "the factor the running sum l is multiplied by when the maximum grows from m_old to m_new "
               "(e.g. from 1 to 3)"},
        lambda m_old, m_new: np.exp(m_old - m_new),
        "np.exp(m_old - m_new)",
        (
            {"ko": "지금까지의 합은 e^(s − m_old)들의 합입니다. 이 값들을 e^(s − m_new)로 바꾸려면 모두 같은 수를 곱해야 합니다.",
             "en": "The sum so far adds up terms e^(s − m_old); to turn each into e^(s − m_new), all must be "
                   "multiplied by the same number."},
            {"ko": "e^(a + b) = e^a · e^b를 써서 e^(s − m_new)를 'e^(s − m_old) × 어떤 수'로 나타내 보세요. 그 수가 답입니다. `np.exp`로 계산합니다.",
             "en": "With e^(a + b) = e^a · e^b, write e^(s − m_new) as e^(s − m_old) times some number: that "
                   "number is the factor. `np.exp` computes it."},
        ),
        (
            Mistake(lambda m_old, m_new: np.exp(m_new - m_old),
                    {"ko": "지수의 부호가 반대입니다. 최댓값이 커지면 지금까지의 항은 작아지므로, 곱하는 값은 1 이하입니다.",
                     "en": "The exponent's sign is flipped: when the maximum grows, the terms so far shrink, so the "
                           "factor is at most 1."}, name="sign_flipped"),
            Mistake(lambda m_old, m_new: np.exp(-m_new),
                    {"ko": "새 최댓값만 뺐습니다. 지금까지의 합에는 이전 최댓값이 이미 빠져 있습니다.",
                     "en": "That subtracts only the new maximum; the sum so far has the old maximum taken out "
                           "already."}, name="new_max_only"),
            Mistake(lambda m_old, m_new: m_old / m_new,
                    {"ko": "최댓값끼리 나누었습니다. 지수 함수 exp 안에서 빼야 합니다: 곱하는 값은 e의 거듭제곱입니다.",
                     "en": "You divided one maximum by the other; the maxima are subtracted inside exp, so the factor "
                           "is a power of e."}, name="max_ratio"),
        ),
        tol=1e-3,
        given=values(("m_old", "m_new"), (_row3()[1][0], _row3()[2][0]), (2.0, 5.0), (-1.0, 0.5), (0.5, 0.5)),
        wrong=(("np.exp(1 - 3)", "ex.only_here"), ("np.exp(-2)", "ex.only_here"), "tr.P[0, 2, 0]"),
    ),
    Exercise(
        "11.new_sum",
        {"ko": "합 l, 이전 최댓값 m_old, 새 최댓값 m_new, 새 점수 s로 구하는, 새 Key 토큰을 읽은 뒤의 누적 합 (예: 토큰 3 행에서 Key 토큰 3을 읽은 뒤)",
         "en": "the running sum after a new Key token, from the sum so far l, the old maximum m_old, the new maximum "
               "m_new and the new score s (e.g. row 3 after Key token 3)"},
        lambda l, m_old, m_new, s: l * np.exp(m_old - m_new) + np.exp(s - m_new),
        "l * np.exp(m_old - m_new) + np.exp(s - m_new)",
        (
            {"ko": "지금까지의 합 l은 m_old를 기준으로 한 값입니다. 새 최댓값 m_new에 맞게 다시 맞춘 뒤, 새 점수의 항을 더합니다.",
             "en": "The sum so far, l, is relative to m_old: rescale it to the new maximum m_new, then add the new "
                   "score's term."},
            {"ko": "두 걸음입니다. l에 연습 1의 값을 곱하고, 새 점수의 항, 즉 e의 (s − m_new) 제곱을 더합니다. `np.exp`를 쓰세요.",
             "en": "Two steps: multiply l by the factor of exercise 1, then add the new score's term, e to the power "
                   "(s − m_new). Use `np.exp`."},
        ),
        (
            Mistake(lambda l, m_old, m_new, s: l + np.exp(s - m_new),
                    {"ko": "지금까지의 합을 다시 맞추지 않고 더했습니다. 먼저 연습 1의 값을 곱하세요.",
                     "en": "You added to the sum so far without rescaling it; multiply it by the factor of exercise 1 "
                           "first."}, name="not_rescaled"),
            Mistake(lambda l, m_old, m_new, s: l * np.exp(m_old - m_new),
                    {"ko": "다시 맞춘 합까지만 계산했습니다. 새 점수의 항을 더하세요.",
                     "en": "That is the rescaled sum alone; add the new score's term."}, name="new_term_missing"),
            Mistake(lambda l, m_old, m_new, s: l * np.exp(m_old - m_new) + np.exp(s),
                    {"ko": "새 점수의 항에서 최댓값을 빼지 않았습니다. 누적 합은 지금의 최댓값을 기준으로 한 e^(s − m)들의 합입니다.",
                     "en": "The new score's term has no maximum subtracted; the running sum adds up e^(s − m), "
                           "relative to the maximum so far."}, name="no_max_shift"),
            Mistake(lambda l, m_old, m_new, s: l * np.exp(m_new - m_old) + np.exp(s - m_new),
                    {"ko": "l에 곱한 값의 지수 부호가 반대입니다. 최댓값이 커지면 지금까지의 항은 작아집니다.",
                     "en": "The factor on l has its exponent's sign flipped: when the maximum grows, the terms so far "
                           "shrink."}, name="sign_flipped"),
        ),
        tol=1e-3,
        given=values(("l", "m_old", "m_new", "s"), (_row3()[1][1], _row3()[1][0], _row3()[2][0], _tr().S_masked[0, 2, 2]),
                     (2.5, 1.0, 4.0, 4.0), (1.0, 0.0, 2.0, 2.0), (1.7, 3.0, 3.0, -1.0)),
        wrong=(("(1 + np.exp(0 - 1)) * np.exp(1 - 3) + np.exp(3 - 3)", "ex.only_here"),
               ("l * np.exp(m_old - m_new) + 1", "ex.only_here"), "np.exp(s - m_new)"),
    ),
    Exercise(
        "11.weight",
        {"ko": "점수 s, 마지막 최댓값 m, 마지막 누적 합 l만으로 구하는 가중치 (예: 토큰 3 행에서 Key 토큰 1, P 행렬 없이)",
         "en": "a weight from its score s, the final maximum m and the final running sum l alone (e.g. Key token 1 "
               "in row 3, without the matrix P)"},
        lambda s, m, l: np.exp(s - m) / l,
        "np.exp(s - m) / l",
        (
            {"ko": "가중치는 e^(s − m)을 누적 합 l로 나눈 값입니다.",
             "en": "A weight is e^(s − m) divided by the running sum l."},
            {"ko": "e의 (s − m) 제곱을 `np.exp`로 구한 뒤, 마지막 l로 나누세요.",
             "en": "Take e to the power (s − m) with `np.exp`, then divide it by the final l."},
        ),
        (
            Mistake(lambda s, m, l: np.exp(s - m),
                    {"ko": "e^(s − m)까지만 계산했습니다. 누적 합 l로 나누세요.",
                     "en": "That is e^(s − m) alone; divide it by the running sum l."}, name="exp_only"),
            Mistake(lambda s, m, l: np.exp(s) / l,
                    {"ko": "분자에서 최댓값을 빼지 않았습니다. l은 e^(s − m)들의 합이므로 분자도 e^(s − m)입니다.",
                     "en": "The numerator lacks the maximum; l adds up terms e^(s − m), so the numerator is "
                           "e^(s − m) too."}, name="no_max_shift"),
            Mistake(lambda s, m, l: np.exp(m - s) / l,
                    {"ko": "지수의 부호가 반대입니다. 분자는 e의 (s − m) 제곱입니다.",
                     "en": "The exponent's sign is flipped; the numerator is e to the power (s − m)."},
                    name="sign_flipped"),
        ),
        tol=1e-3,
        note={"ko": "글의 가중치 0.114입니다. P 행렬 없이 m과 l만으로 얻었습니다.",
              "en": "It is the article's 0.114, obtained from m and l alone, without the matrix P."},
        given=values(("s", "m", "l"), (_tr().S_masked[0, 2, 0], _row3()[2][0], _row3()[2][1]),
                     (0.0, 3.0, 1.5), (2.0, 2.0, 1.2), (-1.0, 4.0, 3.3)),
        wrong=(("tr.P[0, 2, 0]", "ex.only_here"), ("0.114", "ex.only_here"), ("np.exp(1 - 3) / l", "ex.only_here")),
    ),
]
