# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebooks 04–07, on the article's example: the mask, the softmax, the weighted sum, the explorer.

Every answer, and every known mistake's value, is computed from what the exercise gives (the trace, a size,
a row of scores), never typed in.
"""

import numpy as np

from ..numeric import exact
from ..numeric.core import normalize_rows, row_exponentials, softmax, weighted_sum
from ..numeric.masks import Mask, additive_mask, causal_mask
from . import shared
from .define import Exercise, Mistake
from .givens import trace, values

_BIG = np.array([1000.0, 1001.0, 1002.0])
# What "without al.softmax" refuses: al.softmax and the two steps it is made of (reached by any name or route, e.g.
# through al.attention_trace); what "without al.causal_mask" refuses: it and what builds any mask's 0 / −∞.
WITHOUT_SOFTMAX = (softmax, row_exponentials, normalize_rows,  # and the page's, which attention_trace computes P with
                   exact.softmax, exact.row_exponentials, exact.normalize_rows)
WITHOUT_CAUSAL_MASK = (causal_mask, Mask.allowed, additive_mask)


EXERCISES = [
    # 04 — causal mask
    Exercise(
        "04.mask4",
        {"ko": "토큰 수 T에 대한 Causal mask M (T × T, 예: T = 4)", "en": "the causal mask M for T tokens (T × T, e.g. T = 4)"},
        causal_mask,
        "np.where(np.tril(np.ones((T, T))) == 1, 0.0, -np.inf)",
        (
            {"ko": "각 Query 토큰은 자기 자신과 앞의 토큰만 참조할 수 있습니다. 참조할 수 있는 칸은 0, 뒤의 토큰 칸은 −∞입니다.",
             "en": "Each Query token may see itself and the tokens before it: those cells are 0, "
                   "the cells of later tokens −∞."},
            {"ko": "`np.tril`은 행렬의 대각선과 그 아래 칸만 남깁니다. `np.where(조건, a, b)`는 조건에 따라 두 값 중 하나를 "
                   "고릅니다. −∞는 `-np.inf`로 씁니다.",
             "en": "`np.tril` keeps the cells on and below the diagonal of a matrix; `np.where(condition, a, b)` "
                   "picks one of two values by a condition; −∞ is `-np.inf`."},
        ),
        (
            Mistake(shared.lower, shared.ONES_AND_ZEROS, name="ones_zeros"),
            Mistake(lambda T: np.where(shared.lower(T) == 1, 0.0, -np.inf).T,  # not causal_mask(T).T: it is forbidden
                    {"ko": "−∞가 대각선 아래에 있습니다. 토큰 1은 토큰 2를 볼 수 없으므로, 첫 번째 행은 두 번째 열부터 −∞입니다.",
                     "en": "The −∞ are below the diagonal; token 1 must not see token 2, so row 1 is −∞ "
                           "from column 2 on."}, name="mask_transposed"),
            Mistake(lambda T: np.where(shared.lower(T, k=-1) == 1, 0.0, -np.inf),
                    {"ko": "대각선까지 −∞로 막았습니다. 각 토큰은 자기 자신을 참조할 수 있으므로 대각선은 0입니다.",
                     "en": "The diagonal is masked too; every token may see itself, so the diagonal is 0."},
                    name="diagonal_masked"),
            Mistake(lambda T: np.where(shared.lower(T) == 1, 0.0, -1e9), shared.NOT_MINUS_1E9, name="minus_1e9"),
            Mistake(lambda T: np.zeros((T, T)),
                    {"ko": "모든 칸이 0입니다. 0은 점수를 그대로 두므로 아무것도 가리지 않습니다. 미래 토큰의 칸은 −∞입니다.",
                     "en": "Every cell is 0, and adding 0 keeps a score: nothing is masked. The cells of future "
                           "tokens are −∞."}, name="all_zero"),
        ),
        given=values(("T",), (4,), (2,), (6,), forbid=WITHOUT_CAUSAL_MASK),
        wrong=(("np.where(np.tril(np.ones((4, 4))) == 1, 0.0, -np.inf)", "ex.only_here"),
               "np.triu(np.ones((T, T)), 1) * -np.inf", "-np.inf * np.triu(np.ones((T, T)))",
               ("al.causal_mask(T)", "ex.forbidden"), ("al.causal_mask(4)", "ex.forbidden"),
               ("getattr(al, 'causal' + '_mask')(T)", "ex.forbidden"), ("al.make_mask('causal', T)", "ex.forbidden"),
               ("np.where(al.causal_allowed(T), 0.0, -np.inf)", "ex.forbidden"),
               ("al.additive_mask(np.tril(np.ones((T, T), dtype=bool)))", "ex.forbidden"),
               ("al.article_example(T=T).M", "ex.forbidden")),
    ),
    Exercise(
        "04.row2",
        {"ko": "Head 1에서 마스크를 더한 두 번째 행", "en": "row 2 of Head 1 after adding the mask"},
        lambda tr: tr.S_masked[0, 1],
        "tr.S_scaled[0, 1] + tr.M[1]",
        (
            {"ko": "마스크는 스케일링한 점수에 칸마다 더합니다. 0을 더한 점수는 그대로이고, −∞를 더한 점수는 −∞가 됩니다.",
             "en": "The mask is added to the scaled scores cell by cell: adding 0 keeps a score, "
                   "adding −∞ turns it into −∞."},
            {"ko": "스케일링한 점수는 `tr.S_scaled`(Head 1은 인덱스 0), 마스크는 `tr.M`에 있습니다. 두 번째 행은 인덱스 1입니다.",
             "en": "The scaled scores are in `tr.S_scaled` (Head 1 is index 0), the mask in `tr.M`; "
                   "row 2 is index 1."},
        ),
        (
            Mistake(lambda tr: tr.S_scaled[0, 1],
                    {"ko": "마스크를 더하기 전의 행입니다. M의 같은 행을 더하세요.",
                     "en": "That is the row before the mask: add the same row of M."}, name="no_mask"),
            Mistake(lambda tr: tr.S[0, 1] + tr.M[1],
                    {"ko": "S에 바로 마스크를 더했습니다. 마스크는 √dh로 나눈 점수에 더합니다.",
                     "en": "You added the mask to S itself; it is added to the scores divided by √dh."},
                    name="no_scale"),
            Mistake(lambda tr: tr.S_scaled[0, 1] * tr.M[1],
                    {"ko": "마스크를 곱했습니다. M은 점수에 더합니다.",
                     "en": "You multiplied by the mask; M is added to the scores."}, name="mask_multiplied"),
            Mistake(lambda tr: tr.S_scaled[0, 1] + np.where(tr.M[1] == 0, 0.0, -1e9), shared.NOT_MINUS_1E9,
                    name="minus_1e9"),
            Mistake(lambda tr: tr.S_scaled[0, 2] + tr.M[2], shared.ROW2_IS_INDEX_1, name="wrong_token"),
            Mistake(lambda tr: np.where(tr.M[1] == 0, tr.S_scaled[0, 1], 0.0), shared.ZERO_NOT_MINUS_INF,
                    name="mask_zero"),
            Mistake(lambda tr: tr.S[0, 1] / np.sqrt(tr.d) + tr.M[1], shared.SQRT_D, name="sqrt_d"),
            Mistake(lambda tr: tr.S[0, 1] / tr.d + tr.M[1], shared.BY_D, name="by_d"),
            Mistake(lambda tr: tr.S_scaled[1, 1] + tr.M[1], shared.HEAD1_IS_INDEX_0, name="wrong_head"),
        ),
        given=trace(withhold="S_masked"),
        wrong=(("tr.S_masked[0, 1]", "ex.withheld"), "tr.S_scaled[0, 1] - np.inf", "tr.S_scaled[0, 1] + tr.M[0]",
               ("np.append(tr.S_scaled[0, 1, :2], -np.inf)", "ex.only_here"),
               ("tr.S_scaled[0, 1] + np.array([0, 0, -np.inf])", "ex.hidden_error"),
               ("tr.S[0, 1] / np.sqrt(tr.d) + tr.M[1]", shared.SQRT_D), ("tr.S[0, 1] / tr.d + tr.M[1]", shared.BY_D),
               ("tr.S_scaled[1][1] + tr.M[1]", shared.HEAD1_IS_INDEX_0)),
    ),
    Exercise(
        "04.count",
        {"ko": "참조할 수 있는 (Query 토큰, Key 토큰) 쌍의 수 (글의 예시에서는 T = 3)",
         "en": "how many (Query token, Key token) pairs may attend (T = 3 in the article's example)"},
        lambda tr: int((tr.M == 0).sum()),
        "(tr.M == 0).sum()",
        (
            {"ko": "M에서 Query 토큰이 참조할 수 있는 칸은 0입니다. 그런 칸의 수를 세면 됩니다.",
             "en": "In M, the cells a Query token may see are 0; count them."},
            {"ko": "`tr.M`에서 0인 칸을 True/False 배열로 표시한 뒤 세세요. True/False 배열의 `.sum()`은 True의 개수를 셉니다.",
             "en": "Mark the 0 cells of `tr.M` as a True/False array, then count them: `.sum()` of a True/False "
                   "array counts the True values."},
        ),
        (
            Mistake(lambda tr: int((tr.M == -np.inf).sum()),
                    {"ko": "−∞인 칸, 즉 참조할 수 없는 쌍의 수입니다. 0인 칸을 세세요.",
                     "en": "That counts the −∞ cells, the pairs that may not attend; count the 0 cells."},
                    name="counted_masked"),
            Mistake(lambda tr: tr.M.size,
                    {"ko": "T × T 칸 전체의 수입니다. 마스크는 대각선 위의 칸을 막습니다.",
                     "en": "That is every cell, T × T; the mask blocks the cells above the diagonal."},
                    name="all_cells"),
            Mistake(lambda tr: tr.M.sum(),
                    {"ko": "M의 값을 더했습니다. −∞가 있으므로 합은 −∞입니다. 값을 더하지 말고 0인 칸의 수를 세세요.",
                     "en": "You added up the values of M, which holds −∞, so the sum is −∞; count the 0 cells instead."},
                    name="summed_values"),
        ),
        note={"ko": "토큰 1은 1개, 토큰 2는 2개, 토큰 3은 3개를 참조합니다.",
              "en": "Token 1 sees 1 token, token 2 sees 2, token 3 sees 3."},
        given=trace(),
        wrong=(("6", "ex.only_here"), "tr.T * tr.T", "(tr.M != 0).sum()", "tr.T * (tr.T - 1) // 2"),
    ),
    # 05 — softmax
    Exercise(
        "05.row3",
        {"ko": "지수 함수 exp로 직접 계산한 토큰 3의 가중치 (Head 1)", "en": "token 3's weights in Head 1, computed with exp yourself"},
        lambda tr: tr.P[0, 2],
        "np.exp(tr.S_masked[0, 2]) / np.exp(tr.S_masked[0, 2]).sum()",
        (
            {"ko": "Softmax는 한 행의 각 점수에 지수 함수 exp를 적용한 뒤, 그 값들의 합으로 나눕니다.",
             "en": "The softmax applies exp to each score of a row, then divides by the sum of those values."},
            {"ko": "마스크까지 더한 점수 `tr.S_masked`에서 Head 1, 토큰 3의 행을 고르고, `np.exp`와 `.sum()`을 쓰세요.",
             "en": "Pick Head 1's row of token 3 in the masked scores `tr.S_masked`; then use `np.exp` and `.sum()`."},
        ),
        (
            Mistake(lambda tr: np.exp(tr.S_masked[0, 2]), shared.DIVIDE_BY_THE_SUM, name="exp_only"),
            Mistake(lambda tr: tr.S_masked[0, 2] / tr.S_masked[0, 2].sum(),
                    {"ko": "exp 없이 점수를 합으로 나누었습니다. 먼저 `np.exp`를 적용하세요.",
                     "en": "You divided the scores by their sum without exp; apply `np.exp` first."}, name="no_exp"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S[0, 2] + tr.M[2]), shared.FROM_S, name="no_scale"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S_masked[0, 1]),
                    {"ko": "토큰 2의 가중치입니다. 토큰 3은 행 인덱스 2입니다.",
                     "en": "Those are token 2's weights; token 3 is row index 2."},
                    name="wrong_token"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S_masked[0, :, 2]),
                    {"ko": "세 번째 열로 계산했습니다. Softmax는 한 행, 즉 Query 토큰 하나 안에서 계산합니다.",
                     "en": "You used column 3; the softmax runs along a row, one Query token."}, name="column_not_row"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S_masked[1, 2]), shared.HEAD1_IS_INDEX_0, name="wrong_head"),
            Mistake(lambda tr: (np.exp(tr.S_masked[0]) / np.exp(tr.S_masked[0]).sum(axis=0))[2], shared.COLUMN_SUMS,
                    name="wrong_axis"),
            Mistake(lambda tr: shared.exp_over_sum(np.where(tr.M[2] == 0, tr.S_scaled[0, 2], 0.0)),
                    shared.ZERO_NOT_MINUS_INF, name="mask_zero"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S_scaled[0, 2]), shared.NO_MASK, name="no_mask"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S[0, 2] / np.sqrt(tr.d) + tr.M[2]), shared.SQRT_D, name="sqrt_d"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S[0, 2] / tr.d + tr.M[2]), shared.BY_D, name="by_d"),
            Mistake(lambda tr: np.exp(tr.S_masked[0, 2] - tr.S_masked[0, 2].max()), shared.DIVIDE_BY_THE_SUM,
                    name="exp_only"),  # as tr.E
        ),
        tol=1e-3,
        note={"ko": "가중치는 0 이상이고 합이 1입니다.", "en": "The weights are ≥ 0 and add up to 1."},
        given=trace(withhold="E", forbid=WITHOUT_SOFTMAX),
        wrong=(("al.softmax(tr.S_masked[0, 2])", "ex.forbidden"), ("tr.P[0, 2]", "ex.withheld"),
               ("getattr(al, 'soft' + 'max')(tr.S_masked[0, 2])", "ex.forbidden"),
               ("__import__('attention_lab.numeric.core', fromlist=['softmax']).softmax(tr.S_masked[0, 2])",
                "ex.forbidden"),
               ("al.normalize_rows(np.exp(tr.S_masked[0, 2]))", "ex.forbidden"),
               ("al.attention_trace(tr.Q, tr.K, tr.V, h=tr.h).P[0, 2]", "ex.forbidden"),
               "np.exp(tr.S_masked[0, 2]) / np.exp(tr.S_masked[0]).sum()", ("[0.114, 0.042, 0.844]", "ex.only_here"),
               ("np.exp(tr.S[0, 2] / np.sqrt(tr.d) + tr.M[2]) / np.exp(tr.S[0, 2] / np.sqrt(tr.d) + tr.M[2]).sum()",
                shared.SQRT_D),
               ("np.exp(tr.S[0, 2] / tr.d + tr.M[2]) / np.exp(tr.S[0, 2] / tr.d + tr.M[2]).sum()", shared.BY_D),
               ("np.exp(tr.S_masked[0, 2])", shared.DIVIDE_BY_THE_SUM)),
    ),
    Exercise(
        "05.row2",
        {"ko": "토큰 2의 가중치 (Head 1, −∞ 자리 포함)", "en": "token 2's weights in Head 1 (including the −∞ position)"},
        lambda tr: tr.P[0, 1],
        "np.exp(tr.S_masked[0, 1]) / np.exp(tr.S_masked[0, 1]).sum()",
        (
            {"ko": "토큰 3과 같은 계산입니다. exp(−∞) = 0이므로 −∞ 자리의 가중치는 0입니다.",
             "en": "The same computation as for token 3; exp(−∞) = 0, so the −∞ position gets weight 0."},
            {"ko": "마스크까지 더한 점수 `tr.S_masked`에서 토큰 2의 행을 고르세요. `np.exp`는 −∞를 0으로 바꿉니다.",
             "en": "Pick token 2's row of the masked scores `tr.S_masked`; `np.exp` turns −∞ into 0."},
        ),
        (
            Mistake(lambda tr: shared.exp_over_sum(tr.S_scaled[0, 1]), shared.NO_MASK, name="no_mask"),
            Mistake(lambda tr: np.exp(tr.S_masked[0, 1]), shared.DIVIDE_BY_THE_SUM, name="exp_only"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S_masked[0, 2]),
                    {"ko": "토큰 3의 가중치입니다. 토큰 2는 행 인덱스 1입니다.",
                     "en": "Those are token 3's weights; token 2 is row index 1."},
                    name="wrong_token"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S_masked[1, 1]), shared.HEAD1_IS_INDEX_0, name="wrong_head"),
            Mistake(lambda tr: (np.exp(tr.S_masked[0]) / np.exp(tr.S_masked[0]).sum(axis=0))[1], shared.COLUMN_SUMS,
                    name="wrong_axis"),
            Mistake(lambda tr: shared.exp_over_sum(np.where(tr.M[1] == 0, tr.S_scaled[0, 1], 0.0)),
                    shared.ZERO_NOT_MINUS_INF, name="mask_zero"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S[0, 1] + tr.M[1]), shared.FROM_S, name="no_scale"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S[0, 1] / np.sqrt(tr.d) + tr.M[1]), shared.SQRT_D, name="sqrt_d"),
            Mistake(lambda tr: shared.exp_over_sum(tr.S[0, 1] / tr.d + tr.M[1]), shared.BY_D, name="by_d"),
            Mistake(lambda tr: np.exp(tr.S_masked[0, 1] - tr.S_masked[0, 1].max()), shared.DIVIDE_BY_THE_SUM,
                    name="exp_only"),  # as tr.E
        ),
        tol=1e-3,
        given=trace(withhold="E", forbid=WITHOUT_SOFTMAX),
        wrong=(("al.softmax(tr.S_masked[0, 1])", "ex.forbidden"), ("tr.P[0, 1]", "ex.withheld"),
               ("getattr(al, 'soft' + 'max')(tr.S_masked[0, 1])", "ex.forbidden"),
               "np.exp(tr.S_masked[0, 1]) / np.exp(tr.S_masked[0, 1]).max()",
               ("np.array([np.exp(tr.S_masked[0, 1, 0]), np.exp(tr.S_masked[0, 1, 1]), 0])"
                " / (np.exp(tr.S_masked[0, 1, 0]) + np.exp(tr.S_masked[0, 1, 1]))", "ex.only_here")),  # T = 3
    ),
    Exercise(
        "05.stable",
        {"ko": "넘치지 않게 계산한 점수 한 행 x의 Softmax (예: x = [1000, 1001, 1002])",
         "en": "the softmax of a row of scores x, without overflow (e.g. x = [1000, 1001, 1002])"},
        softmax,
        "np.exp(x - x.max()) / np.exp(x - x.max()).sum()",
        (
            {"ko": "한 행의 모든 점수에서 같은 수를 빼도 Softmax 결과는 같습니다. 가장 큰 점수가 0이 되도록 빼면 exp가 넘치지 "
                   "않습니다.",
             "en": "Subtracting the same number from every score of a row leaves the softmax unchanged; subtract "
                   "so that the largest score becomes 0, and exp cannot overflow."},
            {"ko": "`np.exp`를 적용하기 전에 행의 최댓값(`.max()`)을 빼고, 그다음 합으로 나누세요.",
             "en": "Subtract the row maximum (`.max()`) before `np.exp`, then divide by the sum."},
        ),
        (
            Mistake(shared.naive_softmax,
                    {"ko": "exp가 무한대로 넘쳐 ∞ / ∞ = NaN이 되었습니다. exp를 적용하기 전에 최댓값을 빼세요.",
                     "en": "exp overflowed to ∞, and ∞ / ∞ is NaN; subtract the maximum before exp."}, name="overflow"),
            Mistake(lambda x: np.exp(x - x.max()), shared.DIVIDE_BY_THE_SUM, name="exp_only"),
            Mistake(lambda x: np.exp(x - x.min()) / np.exp(x - x.min()).sum(),
                    {"ko": "최솟값을 뺐습니다. 그러면 가장 큰 점수가 여전히 커서 exp가 넘칠 수 있습니다. 최댓값을 빼세요.",
                     "en": "You subtracted the minimum, which leaves the largest score large enough to overflow; "
                           "subtract the maximum."}, name="minus_min"),
            Mistake(lambda x: np.exp(x - x.mean()) / np.exp(x - x.mean()).sum(),
                    {"ko": "평균을 뺐습니다. 가장 큰 점수가 평균보다 수백 클 수 있어서 exp가 넘칩니다([0, 2000]에서는 NaN). 최댓값을 빼세요.",
                     "en": "You subtracted the mean; the largest score can be hundreds above it, and exp overflows "
                           "([0, 2000] gives NaN). Subtract the maximum."}, name="minus_mean"),
        ),
        tol=1e-3,
        note={"ko": "[0, 1, 2]의 Softmax와 같습니다.", "en": "It is the same as the softmax of [0, 1, 2]."},
        given=values(("x",), (_BIG,), (np.array([-4.0, 1.0, 710.0, 709.0]),), (np.array([-1000.0, -999.0, -1001.0]),),
                     (np.array([2.0, 0.0, 6.0]),), (np.array([0.0, 2000.0]),), (np.array([5.0, 5.0, -3.0]),), (np.array([800.0, -5.0]),),
                     forbid=WITHOUT_SOFTMAX),
        wrong=(("al.softmax(x)", "ex.forbidden"), ("al.normalize_rows(al.row_exponentials(x))", "ex.forbidden"),
               ("vars(al)['softmax'](x)", "ex.forbidden"),
               ("np.exp(x - 1000) / np.exp(x - 1000).sum()", "ex.only_here"),
               ("np.exp(x - x[-1]) / np.exp(x - x[-1]).sum()", "ex.only_here"),
               "np.exp(x - x.max()) / np.exp(x).sum()"),
    ),
    # 06 — weighted sum
    Exercise(
        "06.out3",
        {"ko": "Head 1에서 토큰 3의 출력 (네 성분)", "en": "token 3's output in Head 1 (four components)"},
        lambda tr: tr.O[0, 2],
        "tr.P[0, 2] @ tr.Vh[0]",
        (
            {"ko": "토큰 3의 출력은 각 Value 행에 토큰 3의 가중치를 곱해 모두 더한 것입니다.",
             "en": "Token 3's output is the sum of the Value rows, each multiplied by token 3's weight for it."},
            {"ko": "토큰 3의 가중치는 `tr.P[0]`의 행 하나이고, Head 1의 Value는 `tr.Vh[0]`의 행들입니다. "
                   "`@`가 곱해서 더하는 계산을 한 번에 합니다.",
             "en": "Token 3's weights are one row of `tr.P[0]`, Head 1's Values the rows of `tr.Vh[0]`; "
                   "`@` multiplies and adds in one go."},
        ),
        (
            Mistake(lambda tr: tr.P[0, :, 2] @ tr.Vh[0],
                    {"ko": "P의 세 번째 열을 썼습니다. 토큰 3의 가중치는 세 번째 행입니다.",
                     "en": "You used column 3 of P; token 3's weights are row 3."}, name="column_not_row"),
            Mistake(lambda tr: tr.P[0, 1] @ tr.Vh[0], {"ko": "토큰 2의 출력입니다. 토큰 3은 행 인덱스 2입니다.",
                                                       "en": "That is token 2's output; token 3 is row index 2."},
                    name="wrong_token"),
            Mistake(lambda tr: tr.P[1, 2] @ tr.Vh[1], shared.HEAD1_IS_INDEX_0, name="wrong_head"),
            Mistake(lambda tr: tr.Vh[0].sum(axis=0), shared.WEIGHT_EACH_VALUE, name="unweighted"),
            Mistake(lambda tr: tr.P[0, 2] @ tr.V,
                    {"ko": "두 head의 Value(여덟 성분)를 모두 썼습니다. Head 1의 Value는 `tr.Vh[0]`입니다.",
                     "en": "You used the Values of both heads (eight components); Head 1's Values are `tr.Vh[0]`."},
                    name="both_heads"),
        ),
        tol=1e-3,
        given=trace(withhold="O"),
        wrong=(("tr.O[0, 2]", "ex.withheld"), "tr.Vh[0] @ tr.P[0, 2]", "tr.P[0, 2] @ tr.Vh[0, :, 0]",
               ("tr.P[0, 2] @ tr.Vh[0][:, :4]", "ex.only_here")),
    ),
    Exercise(
        "06.out2",
        {"ko": "Head 1에서 토큰 2의 출력 = P[2,1]·V1 + P[2,2]·V2", "en": "token 2's output in Head 1 = P[2,1]·V1 + P[2,2]·V2"},
        lambda tr: tr.O[0, 1],
        "tr.P[0, 1, 0] * tr.Vh[0, 0] + tr.P[0, 1, 1] * tr.Vh[0, 1]",
        (
            {"ko": "토큰 2는 토큰 1과 2만 참조합니다. 두 토큰의 Value에 각자의 가중치를 곱해 더합니다.",
             "en": "Token 2 sees only tokens 1 and 2: multiply their two Values by their weights and add."},
            {"ko": "토큰 2의 가중치는 `tr.P[0]`의 행 하나이고, 토큰 1과 2의 Value는 `tr.Vh[0]`의 행 두 개입니다. 가중치 하나(숫자)에 Value 행 하나를 곱합니다.",
             "en": "Token 2's weights are one row of `tr.P[0]`; the Values of tokens 1 and 2 are two rows of "
                   "`tr.Vh[0]`. Multiply each Value row by one weight, a single number."},
        ),
        (
            Mistake(lambda tr: weighted_sum(softmax(tr.S_scaled[0, 1]), tr.Vh[0]),
                    {"ko": "마스크 없이 얻은 가중치를 썼습니다. 토큰 2는 토큰 3을 참조할 수 없으므로 토큰 3의 가중치는 0입니다"
                           "(`tr.P`를 쓰세요).",
                     "en": "Those weights come without the mask; token 2 may not see token 3, so its weight for "
                           "token 3 is 0 (use `tr.P`)."}, name="no_mask"),
            Mistake(lambda tr: tr.P[0, 1, 1] * tr.Vh[0, 0] + tr.P[0, 1, 0] * tr.Vh[0, 1],
                    {"ko": "가중치가 서로 바뀌었습니다. P[2,1]은 V1에, P[2,2]는 V2에 곱합니다.",
                     "en": "The weights are swapped: P[2,1] goes with V1, P[2,2] with V2."}, name="weights_swapped"),
            Mistake(lambda tr: tr.P[0, 2] @ tr.Vh[0], {"ko": "토큰 3의 출력입니다. 토큰 2는 행 인덱스 1입니다.",
                                                       "en": "That is token 3's output; token 2 is row index 1."},
                    name="wrong_token"),
            Mistake(lambda tr: tr.Vh[0, 0] + tr.Vh[0, 1], shared.WEIGHT_EACH_VALUE, name="unweighted"),
        ),
        tol=1e-3,
        given=trace(withhold="O"),
        wrong=(("tr.O[0, 1]", "ex.withheld"), "tr.P[0, 1, 0] * tr.Vh[0, 0]",
               ("tr.P[0, 1] @ tr.V[:, :4]", "ex.only_here")),
    ),
    Exercise(
        "06.head2_out1",
        {"ko": "Head 2에서 토큰 1의 출력", "en": "token 1's output in Head 2"},
        lambda tr: tr.O[1, 0],
        "tr.Vh[1, 0]",
        (
            {"ko": "토큰 1은 자기 자신만 참조하므로, 가중치 1이 모두 자신의 Value에 갑니다.",
             "en": "Token 1 sees only itself, so its whole weight, 1, is on its own Value."},
            {"ko": "Head 2의 가중치 `tr.P[1]`에서 토큰 1의 행을 보세요. 그 가중치로 Head 2의 Value(`tr.Vh[1]`)를 가중합합니다.",
             "en": "Look at token 1's row of Head 2's weights, `tr.P[1]`; those weights combine Head 2's Values, "
                   "`tr.Vh[1]`."},
        ),
        (
            Mistake(lambda tr: tr.P[0, 0] @ tr.Vh[0], {"ko": "Head 1의 출력입니다. Head 2는 인덱스 1입니다.",
                                                       "en": "That is Head 1's output; Head 2 is index 1."},
                    name="wrong_head"),
            Mistake(lambda tr: tr.Vh[1, 1], {"ko": "토큰 2의 Value입니다. 토큰 1은 행 인덱스 0입니다.",
                                             "en": "That is token 2's Value; token 1 is row index 0."},
                    name="wrong_token"),
            Mistake(lambda tr: tr.V[0],
                    {"ko": "토큰 1의 Value 전체(두 head, 여덟 성분)입니다. Head 2의 성분만 쓰세요.",
                     "en": "That is token 1's whole Value (both heads, eight components); use Head 2's components."},
                    name="both_heads"),
        ),
        given=trace(withhold="O"),
        wrong=(("tr.O[1, 0]", "ex.withheld"), "tr.P[1, 0]",
               ("tr.V[0, 4:8]", "ex.only_here"),
               ("tr.Vh[1, 0, :4]", "ex.only_here")),
    ),
    # 07 — explorer
    Exercise(
        "07.H_shape",
        {"ko": "토큰 T개, 모델 차원 d, head h개일 때 H의 모양 (예: T = 5, d = 12, h = 3)",
         "en": "the shape of H for T tokens, model dimension d and h heads (e.g. T = 5, d = 12, h = 3)"},
        lambda T, d, h: (T, d),
        "al.random_example(T, d, h).H.shape",
        (
            {"ko": "Concat은 head들의 출력을 다시 나란히 이어 붙이므로, H는 토큰마다 한 행이고 열은 모델 차원만큼 있습니다.",
             "en": "Concat joins the heads' outputs back side by side: H has one row per token and as many "
                   "columns as the model dimension."},
            {"ko": "`al.random_example`로 이 크기의 예시를 만들 수 있고, 배열의 모양은 `.shape`로 읽습니다.",
             "en": "`al.random_example` builds an example of these sizes, and an array's `.shape` reads its shape."},
        ),
        (
            Mistake(lambda T, d, h: (T, d // h),
                    {"ko": "head 하나의 출력 모양(T × dh)입니다. H는 모든 head의 출력을 이어 붙인 것입니다.",
                     "en": "That is the shape of one head's output (T × dh); H joins every head's output."},
                    name="one_head_shape"),
            Mistake(lambda T, d, h: (h, T, d // h),
                    {"ko": "head별 출력 O의 모양(h, T, dh)입니다. Concat은 이들을 하나의 T × d 행렬로 이어 붙입니다.",
                     "en": "That is the shape of the per-head outputs O, (h, T, dh); Concat joins them into one "
                           "T × d matrix."}, name="head_split_shape"),
            Mistake(lambda T, d, h: (T, T),
                    {"ko": "한 head의 S나 P의 모양(T × T)입니다.", "en": "T × T is the shape of one head's S or P."},
                    name="score_shape"),
        ),
        given=values(("T", "d", "h"), (5, 12, 3), (4, 8, 2), (6, 6, 3)),
        wrong=(("(5, 12)", "ex.only_here"), "(T, d // h * h + 1)", "(T, h * T)"),
    ),
    Exercise(
        "07.no_mask_row1",
        {"ko": "마스크가 없을 때 Head 1 토큰 1의 가중치", "en": "token 1's weights in Head 1 without a mask"},
        lambda tr: softmax(tr.S_scaled[0, 0]),
        "al.softmax(tr.S_scaled[0, 0])",
        (
            {"ko": "마스크가 없으면 토큰 1도 모든 토큰을 참조합니다. 가중치는 스케일링한 점수 행 전체의 Softmax입니다.",
             "en": "Without the mask token 1 sees every token; its weights are the softmax of its whole "
                   "scaled score row."},
            {"ko": "Head 1에서 토큰 1의 스케일링한 점수 행을 `tr.S_scaled`에서 고르고, 마스크가 없으니 아무것도 "
                   "더하지 않은 채 `al.softmax`를 적용합니다.",
             "en": "Pick token 1's row of Head 1's scaled scores in `tr.S_scaled`; without the mask nothing is added "
                   "to it before `al.softmax`."},
        ),
        (
            Mistake(lambda tr: softmax(tr.S_scaled[0, 0] + tr.M[0]),
                    {"ko": "Causal mask를 쓸 때의 가중치입니다. 마스크를 끄면 토큰 1도 토큰 2와 3을 참조합니다.",
                     "en": "Those are the weights with the causal mask; without it token 1 sees tokens 2 and 3 too."},
                    name="causal_kept"),
            Mistake(lambda tr: softmax(tr.S[0, 0]),
                    {"ko": "√dh로 나누기 전의 점수로 계산했습니다. 스케일링한 점수에 Softmax를 적용하세요.",
                     "en": "You used the scores before the division by √dh; apply the softmax to the scaled scores."},
                    name="no_scale"),
            Mistake(lambda tr: softmax(tr.S_scaled[1, 0]), shared.HEAD1_IS_INDEX_0, name="wrong_head"),
            Mistake(lambda tr: softmax(tr.S[0, 0] / np.sqrt(tr.d)), shared.SQRT_D, name="sqrt_d"),
            Mistake(lambda tr: softmax(tr.S[0, 0] / tr.d), shared.BY_D, name="by_d"),
        ),
        tol=1e-3,
        given=trace(withhold="S_masked"),
        wrong=(("al.softmax(tr.S[0, 0] / 2)", "ex.only_here"), ("tr.P[0, 0]", "ex.withheld"),
               "al.softmax(tr.S_scaled[0, 1])", ("al.softmax(tr.S[0, 0] / np.sqrt(tr.d))", shared.SQRT_D)),
    ),
]
