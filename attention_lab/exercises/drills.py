# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""Exercises without a kernel: hand computations on the page, checked in the browser against values Python made.

A drill is one exercise of notebooks 00–07 done by hand: the page shows an example's numbers, the reader types the
answer into fields, and live/drills.js compares. Python computes everything at build time, for every example the
page may show (seed 0 is the article's example; seeds 1 … SEEDS − 1 are random examples of the same sizes): the
expected values and each slip's values, with the slip's words. The page only compares, by `same` below, the rule
the Python checker uses too (read.same); tests/test_drills.py holds the JavaScript to it.

`table(lang)` is what a page embeds; `cell_html(exercise_id, lang)` is the drill that replaces an exercise's code
cell on a page without a kernel (None for an exercise with no drill).
"""

import html
import json
import math
from functools import cache
from pathlib import Path

import numpy as np

from ..look import words
from ..numeric.core import softmax
from ..numeric.examples import article_example, random_example
from ..numeric.own_numbers import READ_AS, ROW_GRAMMAR
from . import read
from .define import LANGS

# A typed answer: one number of the row editor's grammar, or −∞ (a masked score), read after the same folding of
# full-width digits and the typographic minus (a Korean input method types "－０.５"). The page reads it as data.
ANSWER_GRAMMAR = {"readAs": READ_AS, "number": ROW_GRAMMAR["number"],
                  "minusInfinity": r"-(?:[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|∞)"}
SEEDS = 20  # examples a reader can ask for: seed 0 (the article's) to SEEDS − 1
WEIGHTS = 3  # decimals a reader types a weight with
HERE = Path(__file__).resolve().parent.parent / "live"


def _t(ko, en):
    return {"ko": ko, "en": en}


def _trace(seed):
    return article_example() if seed == 0 else random_example(3, 8, 2, seed=seed)


_SIZES = [(8, 2), (12, 3), (16, 4), (768, 12), (512, 8), (4096, 32), (24, 4), (36, 4), (18, 2), (1024, 16),
          (10, 2), (96, 8), (160, 5), (48, 3), (2048, 16), (72, 8), (30, 5), (640, 10), (28, 7), (256, 4)]
_H_SIZES = [(5, 12, 3), (3, 8, 2), (4, 6, 3), (6, 16, 4), (7, 9, 3), (2, 10, 5), (8, 12, 2), (9, 20, 4), (3, 15, 5),
            (4, 24, 6), (10, 8, 4), (5, 30, 3), (6, 14, 7), (3, 18, 9), (11, 16, 2), (4, 32, 8), (7, 21, 3),
            (12, 36, 4), (2, 4, 2), (6, 64, 8)]


def _drill_00(seed):
    d, h = _SIZES[seed]
    return ([(_t("모델 차원 d", "model dimension d"), d), (_t("head 수 h", "heads h"), h)],
            [d // h], [[d], [h], [d * h]])


def _drill_01(seed):
    tr = _trace(seed)
    return ([(_t("토큰 3의 Query (여덟 성분, h = 2)", "token 3's Query (eight components, h = 2)"), tr.Q[2])],
            tr.Qh[1, 2], [tr.Qh[0, 2], tr.Q[2, 3:7]])


def _drill_02(seed):
    tr = _trace(seed)
    q, k = tr.Qh[0, 2], tr.Kh[0, 0]
    return ([(_t("Head 1, 토큰 3의 Query q", "Head 1, token 3's Query q"), q),
             (_t("Head 1, 토큰 1의 Key k", "Head 1, token 1's Key k"), k)],
            [q @ k], [[(q + k).sum()], [q @ k / 2], [q.sum() * k.sum()]])


def _drill_03(seed):
    tr = _trace(seed)
    s = tr.S[0, 1]
    return ([(_t("Head 1, S의 두 번째 행", "Head 1, row 2 of S"), s), (_t("d", "d"), tr.d), (_t("h", "h"), tr.h)],
            s / np.sqrt(tr.dh), [s / np.sqrt(tr.d), s / tr.dh, s])


def _drill_04(seed):
    tr = _trace(seed)
    s = tr.S_scaled[0, 1]
    return ([(_t("Head 1, S / √dh의 두 번째 행 (토큰 2)", "Head 1, row 2 of S / √dh (token 2)"), s)],
            tr.S_masked[0, 1], [np.where(tr.M[1] == 0, s, 0.0), s, np.where(tr.M[1] == 0, s, -1e9), s + tr.M[0]])


def _drill_05(seed):
    tr = _trace(seed)
    s, m = tr.S_scaled[0, 1], tr.M[1]
    return ([(_t("Head 1, S / √dh의 두 번째 행", "Head 1, row 2 of S / √dh"), s), (_t("마스크 M의 두 번째 행", "row 2 of the mask M"), m)],
            tr.P[0, 1], [softmax(s), np.exp(s + m), np.where(m == 0, s, 0.0) / np.where(m == 0, s, 0.0).sum(),
                         np.exp(s + m - s[m == 0].max())])  # the exp values alone: e^s, or e^(s − max) as tr.E holds


def _drill_06(seed):
    tr = _trace(seed)
    p = np.round(tr.P[0, 2], WEIGHTS)  # as the reader sees it: the key is computed from what is shown
    v = tr.Vh[0]
    return ([(_t("Head 1, 토큰 3의 가중치 p", "Head 1, token 3's weights p"), p)] +
            [(_t(f"Head 1, 토큰 {i + 1}의 Value", f"Head 1, token {i + 1}'s Value"), v[i]) for i in range(3)],
            p @ v, [v.sum(axis=0), v[int(p.argmax())], p.sum() * v[2]])


def _drill_06_out2(seed):  # the slips in the order of the exercise's mistakes (MISTAKES gives their words)
    tr = _trace(seed)
    p = np.round(tr.P[0, 1, :2], WEIGHTS)  # as the reader sees it: the key is computed from what is shown
    v1, v2 = tr.Vh[0, 0], tr.Vh[0, 1]
    return ([(_t("Head 1, 토큰 2의 가중치 p₁, p₂", "Head 1, token 2's weights p₁, p₂"), p),
             (_t("Head 1, 토큰 1의 Value V1", "Head 1, token 1's Value V1"), v1),
             (_t("Head 1, 토큰 2의 Value V2", "Head 1, token 2's Value V2"), v2)],
            p[0] * v1 + p[1] * v2,
            [softmax(tr.S_scaled[0, 1]) @ tr.Vh[0], p[1] * v1 + p[0] * v2, tr.P[0, 2] @ tr.Vh[0], v1 + v2])


def _drill_07(seed):
    T, d, h = _H_SIZES[seed]
    return ([(_t("토큰 수 T", "tokens T"), T), (_t("모델 차원 d", "model dimension d"), d), (_t("head 수 h", "heads h"), h)],
            [T, d], [[T, d // h], [T, T], [h, T]])


def _from_exercise(exercise_id, case, shown):  # -> a maker: the exercise's own answer and mistakes, on case(seed)
    """A drill made by the Python exercise itself: its `expected` and each of its mistakes' values, on the
    arguments `case(seed)` gives; `shown(*args)` is what the page shows of them. Its slips' words are the
    exercise's mistakes' hints (MISTAKES below)."""
    def make(seed):
        from . import get

        exercise, args = get(exercise_id), case(seed)
        slips = []
        for mistake in exercise.mistakes:
            try:
                slips.append(mistake.value(*args))
            except (ValueError, IndexError, ArithmeticError):  # a mistake with no value here is named nowhere
                slips.append([math.nan])
        return shown(*args), exercise.expected(*args), slips
    return make


MISTAKES = "the Python exercise's mistakes"  # a drill's slips are its exercise's mistakes, with their words


def _traced(seed):  # -> (trace,): the article's example (seed 0) or a random one of its sizes
    return (_trace(seed),)


def _sized(seed):  # -> (trace,): the article's example (seed 0), or a random one of _H_SIZES[seed]
    return (_trace(0),) if seed == 0 else (random_example(*_H_SIZES[seed], seed=seed),)


def _tokens(seed):  # -> (trace,) of T = 3 (seed 0: the article's) or of T = 2, 4, 5, … tokens
    return (_trace(0),) if seed == 0 else (random_example([2, *range(4, 23)][seed - 1], 8, 2, seed=seed),)


def _big_row(seed):  # -> (x,): a row of scores in the thousands, [1000, 1001, 1002] first
    if seed == 0:
        return (np.array([1000.0, 1001.0, 1002.0]),)
    rng = np.random.default_rng(seed)
    return (1000.0 * rng.integers(1, 9) + rng.integers(-3, 4, size=3).astype(float),)


def _sizes_shown(tr):
    return [(_t("토큰 수 T", "tokens T"), tr.T), (_t("모델 차원 d", "model dimension d"), tr.d),
            (_t("head 수 h", "heads h"), tr.h)]


# Models a KV cache drill asks about: layers, tokens, Query heads h, K/V heads g, dh (seed 0: Llama 2 70B).
_CACHES = [(80, 4096, 64, 8, 128)] + [
    (layers, tokens, h, h // share, dh) for layers, tokens, h, share, dh in zip(
        [32, 40, 24, 48, 60, 28, 80, 36, 64, 16, 32, 40, 26, 48, 96, 22, 32, 60, 42],
        [8192, 4096, 32768, 2048, 8192, 16384, 1024, 4096, 8192, 32768, 131072, 2048, 8192, 4096, 2048, 16384,
         4096, 32768, 8192],
        [32, 40, 16, 48, 56, 28, 64, 32, 64, 32, 32, 40, 16, 48, 96, 32, 32, 48, 16],
        [4, 8, 2, 6, 7, 4, 8, 4, 8, 4, 8, 5, 4, 8, 12, 8, 2, 6, 2],
        [128, 128, 64, 128, 128, 128, 128, 128, 96, 64, 128, 128, 256, 128, 128, 64, 128, 128, 256], strict=True)]
GIB = 2 ** 30


def _drill_10_cache(seed):
    layers, tokens, h, g, dh = _CACHES[seed]
    gib = 2 * layers * tokens * g * dh * 2 / GIB  # K and V, every layer, token and K/V head, 2 bytes a value
    return ([(_t("layer 수", "layers"), layers), (_t("토큰 수", "tokens"), tokens), (_t("Query head 수 h", "Query heads h"), h),
             (_t("K/V head 수 g", "K/V heads g"), g), (_t("head 차원 dh", "head dimension dh"), dh),
             (_t("값 하나의 바이트 수", "bytes per value"), 2)],
            [gib], [[gib / 2], [gib * h / g], [gib * GIB / 1e9]])


# The drills: (exercise id, how it is made, its tolerance, how many decimals it is typed with,
# its two hints, its slips' words (in the order the maker gives their values)).
DRILLS = {
    "00.dh": (_drill_00, 0.0, 0,
              (_t("모델 차원 d의 성분을 h개의 head가 똑같이 나누어 가집니다.", "The h heads share the d components equally."),
               _t("d를 h로 나누세요.", "Divide d by h.")),
              (_t("모델 차원 d 전체입니다. head 하나는 그중 일부만 가져갑니다.", "That is the whole model dimension d; one head takes only a part of it."),
               _t("head의 수 h입니다.", "That is the number of heads h."),
               _t("곱했습니다. head 하나의 차원은 d보다 작습니다.", "You multiplied; one head's dimension is smaller than d."))),
    "01.head2_q3": (_drill_01, 0.0, 0,
                    (_t("앞 네 성분은 Head 1, 뒤 네 성분은 Head 2가 가져갑니다.", "Head 1 takes the first four components, Head 2 the last four."),
                     _t("여덟 성분 중 5번째부터 8번째까지를 적으세요.", "Write components 5 to 8 of the eight.")),
                    (_t("Head 1이 가져가는 앞 네 성분입니다.", "Those are the first four components, Head 1's part."),
                     _t("한 칸 밀렸습니다. 성분 4부터 7까지입니다. 성분은 1부터 셉니다.", "Off by one: those are components 4 to 7; components count from 1."))),
    "02.score": (_drill_02, 0.0, 0,
                 (_t("점수는 두 벡터의 내적입니다. 같은 위치의 성분끼리 곱한 뒤 모두 더합니다.", "A score is the dot product: multiply the components in the same position, then add them up."),
                  _t("q₁k₁ + q₂k₂ + q₃k₃ + q₄k₄를 계산하세요.", "Compute q₁k₁ + q₂k₂ + q₃k₃ + q₄k₄.")),
                 (_t("성분끼리 더했습니다. 내적은 성분끼리 곱한 뒤 더합니다.", "You added the components; the dot product multiplies them, then adds."),
                  _t("√dh로 이미 나누었습니다. 점수 S는 나누기 전의 값입니다.", "You divided by √dh already; the score S comes before the division."),
                  _t("합끼리 곱했습니다. 같은 위치의 성분끼리 곱해서 더하세요.", "You multiplied the sums; multiply component by component, then add."))),
    "03.row2": (_drill_03, 0.0005, 3,
                (_t("모든 점수를 같은 수, head 차원 dh = d / h의 제곱근으로 나눕니다.", "Divide every score by the same number: the square root of the head dimension dh = d / h."),
                 _t("dh = d / h를 구하고, 세 점수를 √dh로 나누세요.", "Find dh = d / h, then divide the three scores by √dh.")),
                (_t("√d로 나누었습니다. head 차원 dh의 제곱근으로 나누세요.", "You divided by √d; divide by the square root of the head dimension dh."),
                 _t("dh로 나누었습니다. dh의 제곱근으로 나누세요.", "You divided by dh itself; divide by its square root."),
                 _t("나누기 전의 행입니다. √dh로 나누세요.", "That is the row before the division: divide it by √dh."))),
    "04.row2": (_drill_04, 0.0005, 3,
                (_t("토큰 2는 토큰 1과 자기 자신만 봅니다. 마스크는 볼 수 있는 칸에 0, 미래 칸에 −∞를 더합니다.", "Token 2 sees token 1 and itself; the mask adds 0 where it may look and −∞ at the future."),
                 _t("앞 두 칸은 그대로, 세 번째 칸은 −∞(-inf로 입력)입니다.", "Keep the first two cells; the third becomes −∞ (type -inf).")),
                (_t("가릴 칸에 0을 썼습니다. 0은 보통의 점수입니다. 마스크는 −∞를 더합니다.", "You wrote 0 in the hidden cell; 0 is an ordinary score. The mask adds −∞."),
                 _t("마스크를 더하기 전의 행입니다. 미래 토큰의 칸은 −∞입니다.", "That is the row before the mask; the future token's cell is −∞."),
                 _t("−∞ 대신 아주 큰 음수를 썼습니다. M은 정확히 −∞입니다.", "You used a large negative number instead of −∞; M holds exactly −∞."),
                 _t("토큰 1의 마스크 행을 더했습니다. 토큰 2는 토큰 1과 자기 자신을 봅니다.", "You added token 1's row of the mask; token 2 sees token 1 and itself."))),
    "05.row2": (_drill_05, 0.0006, 3,
                (_t("마스크를 더한 점수 각각에 exp를 적용한 뒤, 그 합으로 나눕니다. exp(−∞) = 0입니다.", "Add the mask, apply exp to each score, then divide by their sum; exp(−∞) = 0."),
                 _t("e^(s₁), e^(s₂)를 구해 합 Σ로 나누세요. 세 번째 칸은 0입니다. 소수 셋째 자리까지 적으세요.", "Compute e^(s₁) and e^(s₂) and divide each by their sum; the third cell is 0. Round to 3 decimals.")),
                (_t("마스크 없이 계산했습니다. 미래 토큰의 가중치는 0이어야 합니다.", "You left out the mask: the future token's weight must be 0."),
                 _t("exp까지만 계산했습니다. 합이 1이 되도록 그 합으로 나누세요.", "That is exp of the scores; divide by their sum so that the weights add up to 1."),
                 _t("exp 없이 점수를 합으로 나누었습니다. 먼저 exp를 적용하세요.", "You divided the scores by their sum without exp; apply exp first."),
                 _t("exp까지만 계산했습니다. 합이 1이 되도록 그 합으로 나누세요.", "That is exp of the scores; divide by their sum so that the weights add up to 1."))),
    "06.out3": (_drill_06, 0.002, 3,
                (_t("출력은 각 Value 행에 그 가중치를 곱해 모두 더한 것입니다.", "The output adds up the Value rows, each multiplied by its weight."),
                 _t("p₁·V₁ + p₂·V₂ + p₃·V₃를 성분마다 계산하세요.", "Compute p₁·V₁ + p₂·V₂ + p₃·V₃, component by component.")),
                (_t("Value를 가중치 없이 더했습니다. 각 행에 가중치를 곱하세요.", "You added the Values without their weights; multiply each row by its weight."),
                 _t("가장 큰 가중치의 Value 행만 골랐습니다. 가중합은 모든 행을 섞습니다.", "You took only the Value row of the largest weight; the weighted sum mixes every row."),
                 _t("마지막 Value 행만 썼습니다. 모든 행에 각자의 가중치를 곱해 더하세요.", "You used the last Value row alone; weight every row and add them."))),
    "07.H_shape": (_drill_07, 0.0, 0,
                   (_t("Concat은 head들의 출력을 나란히 이어 붙입니다. 토큰마다 한 행입니다.", "Concat joins the heads' outputs side by side: one row per token."),
                    _t("행은 토큰 수, 열은 모든 head의 성분을 합친 수입니다.", "Rows: the tokens; columns: every head's components together.")),
                   (_t("head 하나의 출력 모양(T × dh)입니다.", "That is one head's output (T × dh)."),
                    _t("T × T는 S나 P의 모양입니다.", "T × T is the shape of S or P."),
                    _t("head 수와 토큰 수입니다. H는 head를 이어 붙인 뒤의 행렬입니다.", "Heads and tokens; H is the matrix after the heads are joined."))),
    # More drills, each made by its Python exercise (its answer, its mistakes and their words): only the hints are
    # the page's own, as a reader works without code.
    "00.P_shape": (_from_exercise("00.P_shape", _sized, _sizes_shown), 0.0, 0,
                   (_t("head마다 가중치 행렬 P가 하나씩 있고, 행은 Query 토큰, 열은 Key 토큰입니다.", "Each head has its own matrix of weights P: one row per Query token, one column per Key token."),
                    _t("세 수를 (head 수, Query 토큰 수, Key 토큰 수) 순서로 적으세요.", "Write three numbers: (heads, Query tokens, Key tokens).")), MISTAKES),
    "01.H_row2": (_from_exercise("01.H_row2", _traced, lambda tr: [
                      (_t(f"Head {k + 1}, 토큰 2의 출력 (소수 셋째 자리까지)", f"Head {k + 1}, token 2's output (to 3 decimals)"),
                       np.round(tr.O[k, 1], WEIGHTS)) for k in range(2)]),
                  0.0006, 3,  # the rows shown are rounded: within 0.0005 of the answer and of each slip
                  (_t("Concat은 같은 토큰의 두 head 출력을 나란히 이어 붙입니다. Head 1의 출력이 앞, Head 2의 출력이 뒤에 옵니다.", "Concat puts the two heads' outputs for the same token side by side, Head 1's first, then Head 2's."),
                   _t("Head 1의 네 성분을 칸 1–4에, Head 2의 네 성분을 칸 5–8에 적으세요.", "Write Head 1's four components in fields 1–4, and Head 2's in fields 5–8.")), MISTAKES),
    "02.row2": (_from_exercise("02.row2", _traced, lambda tr: [
                    (_t("Head 1, 토큰 2의 Query q", "Head 1, token 2's Query q"), tr.Qh[0, 1])] + [
                    (_t(f"Head 1, 토큰 {i + 1}의 Key", f"Head 1, token {i + 1}'s Key"), tr.Kh[0, i]) for i in range(3)]),
                0.0, 0,
                (_t("S의 두 번째 행은 토큰 2의 Query를 Key 하나하나와 내적한 점수 세 개입니다.", "Row 2 of S holds token 2's Query dotted with each Key: three scores."),
                 _t("q·k₁, q·k₂, q·k₃를 차례로 계산하세요. 내적은 같은 위치의 성분끼리 곱해 더합니다.", "Compute q·k₁, q·k₂, q·k₃ in turn: multiply the components in the same position and add them up.")), MISTAKES),
    "02.head2": (_from_exercise("02.head2", _traced, lambda tr: [
                     (_t(f"Head 2, 토큰 {i + 1}의 Query", f"Head 2, token {i + 1}'s Query"), tr.Qh[1, i]) for i in range(3)] + [
                     (_t(f"Head 2, 토큰 {i + 1}의 Key", f"Head 2, token {i + 1}'s Key"), tr.Kh[1, i]) for i in range(3)]),
                 0.0, 0,
                 (_t("행 i, 열 j의 점수는 토큰 i의 Query와 토큰 j의 Key의 내적입니다. Head 2는 자신의 Q와 K만 씁니다.", "The score in row i, column j is token i's Query dotted with token j's Key; Head 2 uses its own Q and K only."),
                  _t("행을 차례로 적으세요: 칸 1–3은 토큰 1의 Query와 Key 1, 2, 3의 내적, 칸 4–6은 토큰 2, 칸 7–9는 토큰 3입니다.", "Write the rows in turn: fields 1–3 are token 1's Query dotted with Keys 1, 2, 3; fields 4–6 token 2's; fields 7–9 token 3's.")), MISTAKES),
    "03.divisor": (_from_exercise("03.divisor", lambda seed: _SIZES[seed],
                                  lambda d, h: [(_t("모델 차원 d", "model dimension d"), d), (_t("head 수 h", "heads h"), h)]),
                   0.0005, 3,
                   (_t("점수 하나는 head 안의 성분만으로 계산하므로, 나누는 값도 head 차원 dh에 맞춥니다.", "A score comes from one head's components, so the divisor follows the head dimension dh."),
                    _t("dh = d / h를 구한 뒤 그 제곱근을 소수 셋째 자리까지 적으세요.", "Find dh = d / h, then write its square root to 3 decimals.")), MISTAKES),
    "04.count": (_from_exercise("04.count", _tokens, lambda tr: [(_t("토큰 수 T", "tokens T"), tr.T)]), 0.0, 0,
                 (_t("토큰 1은 1개, 토큰 2는 2개, …, 토큰 T는 T개의 Key 토큰을 참조합니다.", "Token 1 sees 1 Key token, token 2 sees 2, …, token T sees T."),
                  _t("1 + 2 + … + T를 더하세요. T(T + 1) / 2와 같습니다.", "Add 1 + 2 + … + T, which is T(T + 1) / 2.")), MISTAKES),
    "04.mask4": (_from_exercise("04.mask4", lambda seed: ((4, 2, 3, 5)[seed % 4],), lambda T: [(_t("토큰 수 T", "tokens T"), T)]),
                 0.0, 0,
                 (_t("각 Query 토큰은 자기 자신과 앞의 토큰만 참조합니다. 그 칸은 0, 뒤의 토큰 칸은 −∞입니다.", "Each Query token sees itself and the tokens before it: those cells are 0, the cells of later tokens −∞."),
                  _t("행을 차례로 적으세요(행마다 T칸). 행 i에서 열 1…i는 0, 그 뒤는 −∞(-inf로 입력)입니다.", "Write the rows in turn, T fields each: in row i, columns 1 … i are 0 and the rest −∞ (type -inf).")), MISTAKES),
    "05.row3": (_from_exercise("05.row3", _traced, lambda tr: [
                    (_t("Head 1, 마스크까지 더한 S / √dh + M의 세 번째 행", "Head 1, row 3 of S / √dh + M (the mask added)"), tr.S_masked[0, 2])]),
                0.0006, 3,
                (_t("세 점수 각각에 exp를 적용한 뒤, 그 합으로 나눕니다.", "Apply exp to each of the three scores, then divide each by their sum."),
                 _t("e^(s₁), e^(s₂), e^(s₃)와 그 합 Σ를 구해 각각을 Σ로 나누세요. 소수 셋째 자리까지 적으세요.", "Compute e^(s₁), e^(s₂), e^(s₃) and their sum Σ; divide each by Σ. Round to 3 decimals.")), MISTAKES),
    "05.stable": (_from_exercise("05.stable", _big_row, lambda x: [(_t("점수 한 행 x", "a row of scores x"), x)]), 0.0006, 3,
                  (_t("한 행의 모든 점수에서 같은 수를 빼도 Softmax는 같습니다. 가장 큰 점수가 0이 되도록 빼면 exp가 넘치지 않습니다.", "Subtracting the same number from every score of a row leaves the softmax unchanged; subtract so that the largest score becomes 0, and exp cannot overflow."),
                   _t("각 점수에서 최댓값을 빼고, exp를 적용한 뒤 그 합으로 나누세요. 소수 셋째 자리까지 적으세요.", "Subtract the row's maximum from each score, apply exp, then divide by the sum. Round to 3 decimals.")), MISTAKES),
    "06.out2": (_drill_06_out2, 0.002, 3,
                (_t("토큰 2는 토큰 1과 2만 참조합니다. 두 Value에 각자의 가중치를 곱해 더합니다.", "Token 2 sees only tokens 1 and 2: multiply their two Values by their weights and add."),
                 _t("p₁·V1 + p₂·V2를 성분마다 계산하세요.", "Compute p₁·V1 + p₂·V2, component by component.")), MISTAKES),
    "06.head2_out1": (_from_exercise("06.head2_out1", _traced, lambda tr: [
                          (_t("Head 2, 토큰 1의 가중치", "Head 2, token 1's weights"), tr.P[1, 0])] + [
                          (_t(f"Head 2, 토큰 {i + 1}의 Value", f"Head 2, token {i + 1}'s Value"), tr.Vh[1, i]) for i in range(3)]),
                      0.0, 0,
                      (_t("토큰 1은 자기 자신만 참조하므로, 가중치 1이 모두 자신의 Value에 갑니다.", "Token 1 sees only itself, so its whole weight, 1, is on its own Value."),
                       _t("1·V₁ + 0·V₂ + 0·V₃를 성분마다 계산하세요.", "Compute 1·V₁ + 0·V₂ + 0·V₃, component by component.")), MISTAKES),
    "07.no_mask_row1": (_from_exercise("07.no_mask_row1", _traced, lambda tr: [
                            (_t("Head 1, S / √dh의 첫 번째 행 (마스크 없음)", "Head 1, row 1 of S / √dh (no mask)"), tr.S_scaled[0, 0])]),
                        0.0006, 3,
                        (_t("마스크가 없으면 토큰 1도 모든 토큰을 참조합니다. 가중치는 점수 행 전체의 Softmax입니다.", "Without the mask token 1 sees every token: its weights are the softmax of its whole row of scores."),
                         _t("e^(s₁), e^(s₂), e^(s₃)를 구해 그 합으로 나누세요. 소수 셋째 자리까지 적으세요.", "Compute e^(s₁), e^(s₂), e^(s₃) and divide each by their sum. Round to 3 decimals.")), MISTAKES),
    "10.cache_size": (_drill_10_cache, 0.0006, 3,
                      (_t("캐시는 layer마다, 토큰마다, K/V head마다 Key 하나와 Value 하나(각각 dh개 값)를 저장합니다.", "The cache keeps, for every layer, token and K/V head, one Key and one Value of dh values each."),
                       _t("2 × layer 수 × 토큰 수 × g × dh × 2바이트를 2³⁰으로 나누어 GiB로 적으세요(소수 셋째 자리까지).", "Compute 2 × layers × tokens × g × dh × 2 bytes and divide by 2³⁰ for GiB (to 3 decimals).")),
                      (_t("답의 절반입니다. K와 V는 두 개의 캐시이고, 값 하나는 2바이트입니다. 2를 한 번 빠뜨렸습니다.", "That is half the answer: K and V are two caches, and a value takes 2 bytes; one factor 2 is missing."),
                       _t("Query head마다 K/V head가 하나씩 있는 것처럼 계산했습니다. 캐시에는 K/V head g개만 있습니다.", "You counted one K/V head per Query head; the cache holds only the g K/V heads."),
                       _t("10의 9제곱 바이트(GB)로 나누었습니다. GiB는 2의 30제곱 바이트입니다.", "You divided by 10 to the 9th (GB); a GiB is 2 to the 30th bytes."))),
}
# A drill whose examples go beyond its exercise's one case says so in its task (the exercise's task elsewhere).
TASKS = {"10.cache_size": _t("모델의 KV 캐시 크기 (GiB 단위, 예시 0은 Llama 2 70B의 토큰 4096개)",
                             "the size of a model's KV cache, in GiB (example 0: Llama 2 70B, 4096 tokens)")}
NOTEBOOK_DRILLS = {n: tuple(i for i in DRILLS if i[:2] == n) for n in sorted({i[:2] for i in DRILLS})}  # "NN" -> ids


def same(got, want, tol):
    """The page's rule, the checker's (read.same): every entry within tol (its edge, read.EDGE, included), and −∞
    exactly where −∞ is."""
    return read.same(np.asarray(got, dtype=float), np.asarray(want, dtype=float), tol)


def _number(x):  # -> a JSON number, or "-inf"
    x = float(x)
    return "-inf" if x == -math.inf else round(x, 6)


def _example(exercise_id, seed):  # -> one example: what is shown, the expected values, the slips that differ
    make, tol = DRILLS[exercise_id][:2]
    with np.errstate(all="ignore"):  # a slip that divides by 0 here gives no number a reader could type
        given, want, slips = make(seed)
    want = np.ravel(np.asarray(want, dtype=float))
    shown = [{"label": label, "values": [_number(x) for x in np.atleast_1d(np.asarray(value, dtype=float))]}
             for label, value in given]
    slips = [np.ravel(np.asarray(value, dtype=float)) for value in slips]  # a stacked slip: its entries, in order
    said = _slip_words(exercise_id)

    def named(i, value):  # named only where it alone explains what is typed: not the answer, no other slip near
        typable = value.shape == want.shape and bool((np.isfinite(value) | (value == -math.inf)).all())  # as many
        # numbers as the page has fields, each a number or −∞: nothing else can be typed
        return (typable and not same(value, want, tol)  # a slip near one of the same words (e^s and e^(s − max)
                and not any(same(value, other, 2 * tol + 1e-6) for j, other in enumerate(slips)  # when max = 0)
                            if j != i and said[j] != said[i]))  # is the same slip: no doubt which words to say

    kept = [[[_number(x) for x in value], i] for i, value in enumerate(slips) if named(i, value)]
    return {"given": shown, "want": [_number(x) for x in want], "slips": kept}


@cache
def _slip_words(exercise_id):  # -> each slip's words, {lang: text}, in the order the drill's maker gives the slips
    slips = DRILLS[exercise_id][4]
    if slips == MISTAKES:
        from . import get
        from .show import plain

        slips = tuple({lang: plain(m.hint[lang]) for lang in LANGS} for m in get(exercise_id).mistakes)
    return slips


@cache
def _drill(exercise_id):
    make, tol, decimals, hints, slips = DRILLS[exercise_id]
    slips = _slip_words(exercise_id)
    return {"id": exercise_id, "tol": tol, "decimals": decimals, "hints": hints, "slip_words": slips,
            "examples": [_example(exercise_id, seed) for seed in range(SEEDS)]}


def _words(lang):  # the page's words for a drill, from the word table
    keys = ("title", "task", "seed", "new", "check", "hint", "right", "not_yet", "unreadable", "count", "answer",
            "field", "infinity", "shown")
    return {key: words.table(lang)[f"drill.{key}"] for key in keys}  # {n}, {seed}: filled in by the page


def table(exercise_id, lang):  # -> dict: one drill in one language, as the page embeds it
    if lang not in LANGS:
        raise ValueError(f"lang: use 'ko' or 'en', got {lang!r}.")
    drill = _drill(exercise_id)
    from . import get

    def pick(text):
        return text[lang]

    return {"id": exercise_id, "tol": drill["tol"], "edge": read.EDGE, "grammar": ANSWER_GRAMMAR,
            "decimals": drill["decimals"], "seeds": SEEDS,
            "task": TASKS.get(exercise_id, get(exercise_id).task)[lang], "hints": [pick(h) for h in drill["hints"]],
            "slips": [pick(s) for s in drill["slip_words"]], "words": _words(lang),
            "examples": [{**e, "given": [{"label": pick(g["label"]), "values": g["values"]} for g in e["given"]]}
                         for e in drill["examples"]]}


def assets():  # -> (JavaScript, CSS) of the drills, read from live/
    return (HERE / "drills.js").read_text(encoding="utf-8"), (HERE / "drills.css").read_text(encoding="utf-8")


SITE_SCRIPT = "../assets/drills.js"  # where a course-site page finds the drills' script (site/build.py writes it)


def cell_html(exercise_id, lang, script=SITE_SCRIPT):  # -> HTML of the drill, or None when it has none
    """The drill that stands in for an exercise's code cell on a page without Python: its data, its style, and
    the script (a file beside the page: the site's pages allow no inline script), which mounts every drill."""
    if exercise_id not in DRILLS:
        return None
    return f'{_section(exercise_id, lang)}<style>{assets()[1]}</style><script src="{script}" defer></script>'


def _section(exercise_id, lang):  # -> the place of one drill, its data inline; live/drills.js fills it
    data = html.escape(json.dumps(table(exercise_id, lang), ensure_ascii=False), quote=True)
    return f'<section class="al-drill" data-drill="{data}" lang="{lang}"></section>'


# Under the explorer on its own page: the article's hand computations, in its order, then notebook 07's exercises.
PAGE_DRILLS = ("02.score", "03.row2", "04.row2", "05.row2", "06.out3", "07.H_shape", "07.no_mask_row1")


def page_html(lang):  # -> HTML: the drills under an explorer's standalone page, script and style inline
    """For a page that makes no request (live/page.py's standalone_html): everything is in the page itself."""
    js, css = assets()
    title = html.escape(words.table(lang)["drill.page_title"])
    sections = "".join(_section(exercise_id, lang) for exercise_id in PAGE_DRILLS)
    return (f'<section class="al-drills" aria-labelledby="al-drills-title"><h2 id="al-drills-title">{title}</h2>'
            f"{sections}</section><style>{css}</style><script>{js}</script>")
