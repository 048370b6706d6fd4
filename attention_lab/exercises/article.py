# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebooks 00–07, on the article's example.

Every answer, and every known mistake's value, is computed from the article's
example (or from the stage functions), never typed in. Hints come in two steps:
the idea (no code), then which array, index or function (never the whole
solution). A mistake's hint says what that answer is and what to do instead.
"""

from functools import cache

import numpy as np

from ..numeric.core import scores, softmax, weighted_sum
from ..numeric.examples import article_example, random_example
from ..numeric.masks import causal_mask
from . import Exercise, Mistake


@cache
def _tr(mask="causal"):
    return article_example(mask=mask)


def _naive_softmax(x):  # exp without subtracting the maximum: overflows to ∞ / ∞ = NaN for large scores
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(x) / np.exp(x).sum()


_BIG = np.array([1000.0, 1001.0, 1002.0])

# Hints that several exercises share.
_ROW2_IS_INDEX_1 = {
    "ko": "세 번째 행입니다. 인덱스는 0부터 세므로 두 번째 행은 인덱스 1입니다.",
    "en": "That is row 3: indices count from 0, so row 2 is index 1.",
}
_HEAD1_IS_INDEX_0 = {
    "ko": "Head 2에서 나온 값입니다. Head 1은 인덱스 0입니다.",
    "en": "That comes from Head 2; Head 1 is index 0.",
}
_NOT_MINUS_1E9 = {
    "ko": "−∞ 대신 아주 큰 음수를 썼습니다. M은 정확히 −∞(`-np.inf`)이고, exp를 거치면 정확히 0이 됩니다.",
    "en": "You used a large negative number instead of −∞; M holds exactly −∞ (`-np.inf`), "
          "which exp turns into exactly 0.",
}
_DIVIDE_BY_THE_SUM = {
    "ko": "exp까지만 계산했습니다. 가중치의 합이 1이 되도록 이 값들의 합으로 나누세요.",
    "en": "That is exp of the scores; divide by their sum so that the weights add up to 1.",
}
_WEIGHT_EACH_VALUE = {
    "ko": "Value를 가중치 없이 더했습니다. 각 Value 행에 가중치를 곱한 뒤 더하세요.",
    "en": "You added the Values without their weights; multiply each Value row by its weight first.",
}


EXERCISES = [
    # 00 — the whole flow
    Exercise(
        "00.dh",
        {"ko": "head 하나의 차원 dh", "en": "the dimension dh of one head"},
        lambda: _tr().dh,
        "tr.d // tr.h",
        (
            {"ko": "모델 차원 d의 성분을 h개의 head가 똑같이 나누어 가집니다.",
             "en": "The h heads share the d components of the model dimension equally."},
            {"ko": "`tr.d`는 모델 차원, `tr.h`는 head의 수입니다. 나눗셈 한 번이면 됩니다.",
             "en": "`tr.d` is the model dimension and `tr.h` the number of heads; one division does it."},
        ),
        (
            Mistake(lambda: _tr().d, {"ko": "모델 차원 d 전체입니다. head 하나는 그중 일부만 가져갑니다.",
                                      "en": "That is the whole model dimension d; one head takes only a part of it."}),
            Mistake(lambda: _tr().h, {"ko": "head의 수 h입니다. head 하나의 차원이 아닙니다.",
                                      "en": "That is the number of heads h, not the dimension of one head."}),
            Mistake(lambda: _tr().d * _tr().h,
                    {"ko": "곱했습니다. head마다 d개 성분의 일부를 가져가므로 dh는 d보다 작습니다.",
                     "en": "You multiplied; each head takes a part of the d components, so dh is smaller than d."}),
        ),
        note={"ko": "d = 8을 h = 2개의 head가 나누어 가집니다.", "en": "The h = 2 heads share the d = 8 components."},
    ),
    Exercise(
        "00.P_shape",
        {"ko": "가중치 P 전체의 모양 (h, T, T)", "en": "the shape (h, T, T) of all the weights P"},
        lambda: _tr().P.shape,
        "tr.P.shape",
        (
            {"ko": "head마다 가중치 행렬이 하나씩 있고, 각 행렬의 행은 Query 토큰, 열은 Key 토큰입니다.",
             "en": "Each head has its own matrix of weights, with one row per Query token and one column per Key token."},
            {"ko": "head의 수는 `tr.h`, 토큰의 수는 `tr.T`입니다. 모양은 (head 수, Query 토큰 수, Key 토큰 수) 순서입니다.",
             "en": "The number of heads is `tr.h` and the number of tokens `tr.T`; "
                   "a shape lists (heads, Query tokens, Key tokens) in that order."},
        ),
        (
            Mistake(lambda: _tr().P[0].shape,
                    {"ko": "한 head의 P의 모양입니다. `tr.P`에는 모든 head의 가중치가 들어 있으므로 수가 세 개 필요합니다.",
                     "en": "That is the shape of one head's P; `tr.P` holds the weights of every head, "
                           "so its shape has three numbers."}),
            Mistake(lambda: _tr().Qh.shape,
                    {"ko": "(h, T, dh)는 head별 Q·K·V와 출력 O의 모양입니다. P는 토큰과 토큰 사이의 가중치입니다.",
                     "en": "(h, T, dh) is the shape of the per-head Q, K, V and of O; P holds weights between "
                           "tokens and tokens."}),
        ),
    ),
    # 01 — heads
    Exercise(
        "01.head2_q3",
        {"ko": "Head 2에 들어가는 토큰 3의 Query (네 성분)", "en": "token 3's Query as Head 2 sees it (four components)"},
        lambda: _tr().Qh[1, 2],
        "tr.Q[2, 4:8]",
        (
            {"ko": "Q의 행은 토큰, 열은 성분입니다. 각 토큰의 앞 네 성분은 Head 1, 뒤 네 성분은 Head 2가 가져갑니다.",
             "en": "The rows of Q are tokens, its columns components; Head 1 takes the first four components "
                   "of each token, Head 2 the last four."},
            {"ko": "인덱스는 0부터 셉니다. 토큰 3은 `tr.Q`의 행 인덱스 2이고, Head 2의 성분은 열 인덱스 4~7입니다.",
             "en": "Indices count from 0: token 3 is row index 2 of `tr.Q`, and Head 2's components are "
                   "the column indices 4 to 7."},
        ),
        (
            Mistake(lambda: _tr().Qh[0, 2],
                    {"ko": "Head 1이 가져가는 앞 네 성분입니다. Head 2는 뒤 네 성분을 가져갑니다.",
                     "en": "Those are the first four components, Head 1's part; Head 2 takes the last four."}),
            Mistake(lambda: _tr().Qh[1, 1],
                    {"ko": "토큰 2의 성분입니다. 인덱스는 0부터 세므로 토큰 3은 행 인덱스 2입니다.",
                     "en": "That is token 2: indices count from 0, so token 3 is row index 2."}),
            Mistake(lambda: _tr().Q[2],
                    {"ko": "토큰 3의 Query 전체(여덟 성분)입니다. Head 2는 그중 뒤 네 성분만 가져갑니다.",
                     "en": "That is token 3's whole Query (eight components); Head 2 takes only the last four."}),
            Mistake(lambda: _tr().Kh[1, 2],
                    {"ko": "Key에서 가져온 값입니다. Query는 `tr.Q`에 있습니다.",
                     "en": "That comes from the Keys; the Queries are in `tr.Q`."}),
        ),
    ),
    Exercise(
        "01.H_row2",
        {"ko": "Concat 결과 H에서 토큰 2의 행 (여덟 성분)", "en": "token 2's row of the concatenated H (eight components)"},
        lambda: _tr().H[1],
        "np.concatenate([tr.O[0, 1], tr.O[1, 1]])",
        (
            {"ko": "Concat은 같은 토큰의 두 head 출력을 나란히 이어 붙입니다. Head 1의 출력이 앞, Head 2의 출력이 뒤에 옵니다.",
             "en": "Concat puts the two heads' outputs for the same token side by side, Head 1's first, "
                   "then Head 2's."},
            {"ko": "토큰 2는 `tr.O[0]`과 `tr.O[1]`의 행 인덱스 1입니다. 두 행은 `np.concatenate`로 이어 붙입니다.",
             "en": "Token 2 is row index 1 of `tr.O[0]` and of `tr.O[1]`; `np.concatenate` joins two rows."},
        ),
        (
            Mistake(lambda: np.concatenate([_tr().O[1, 1], _tr().O[0, 1]]),
                    {"ko": "두 head의 순서가 바뀌었습니다. Head 1의 출력이 앞에 옵니다.",
                     "en": "The heads are in the wrong order: Head 1's output comes first."}),
            Mistake(lambda: _tr().O[:, 1],
                    {"ko": "두 행을 위아래로 쌓았습니다. Concat은 두 행을 옆으로 이어 붙여 여덟 성분의 한 행을 만듭니다.",
                     "en": "You stacked the two rows; Concat joins them side by side into one row of eight components."}),
            Mistake(lambda: _tr().H[2],
                    {"ko": "토큰 3의 행입니다. 인덱스는 0부터 세므로 토큰 2는 행 인덱스 1입니다.",
                     "en": "That is token 3's row: indices count from 0, so token 2 is row index 1."}),
            Mistake(lambda: _tr().O[0, 1] + _tr().O[1, 1],
                    {"ko": "두 출력을 더했습니다. Concat은 더하지 않고 나란히 이어 붙이므로 성분이 여덟 개입니다.",
                     "en": "You added the two outputs; Concat places them side by side, so the row has eight "
                           "components."}),
        ),
    ),
    # 02 — scores
    Exercise(
        "02.score",
        {"ko": "토큰 3의 Query와 토큰 1의 Key 사이의 점수", "en": "the score between token 3's Query and token 1's Key"},
        lambda: _tr().S[0, 2, 0],
        "tr.Qh[0, 2] @ tr.Kh[0, 0]",
        (
            {"ko": "점수는 두 벡터의 내적입니다. 같은 위치의 성분끼리 곱한 뒤 모두 더합니다.",
             "en": "A score is the dot product of two vectors: multiply the components in the same position, "
                   "then add them all up."},
            {"ko": "Head 1에서 토큰 3의 Query는 `tr.Qh[0]`의 행 인덱스 2, 토큰 1의 Key는 `tr.Kh[0]`의 행 인덱스 0입니다. "
                   "`@`가 내적을 계산합니다.",
             "en": "In Head 1, token 3's Query is row index 2 of `tr.Qh[0]` and token 1's Key row index 0 of "
                   "`tr.Kh[0]`; `@` computes a dot product."},
        ),
        (
            Mistake(lambda: _tr().Qh[0, 2] * _tr().Kh[0, 0],
                    {"ko": "성분별 곱 네 개를 구했습니다. 내적은 이 곱을 모두 더한 값입니다.",
                     "en": "Those are the four products; the dot product is their sum."}),
            *(Mistake(value, {"ko": "다른 토큰 쌍의 점수입니다. 인덱스는 0부터 셉니다. 토큰 1은 0, 토큰 3은 2이고, "
                                    "Query는 `tr.Qh`, Key는 `tr.Kh`에서 가져옵니다.",
                              "en": "That is the score of another pair of tokens: indices count from 0 (token 1 "
                                    "is 0, token 3 is 2), the Query comes from `tr.Qh` and the Key from `tr.Kh`."})
              for value in (lambda: _tr().S[0, 2, 1], lambda: _tr().S[0, 1, 0])),
        ),
        note={"ko": "이 값이 S의 세 번째 행, 첫 번째 열에 들어갑니다.", "en": "This is the value in row 3, column 1 of S."},
    ),
    Exercise(
        "02.row2",
        {"ko": "Head 1의 점수 행렬 S의 두 번째 행", "en": "row 2 of Head 1's score matrix S"},
        lambda: _tr().S[0, 1],
        "tr.Kh[0] @ tr.Qh[0, 1]",
        (
            {"ko": "S의 두 번째 행은 토큰 2의 Query를 모든 Key와 하나씩 내적한 점수입니다.",
             "en": "Row 2 of S holds token 2's Query dotted with every Key, one score per Key token."},
            {"ko": "토큰 2의 Query는 `tr.Qh[0, 1]`이고, Head 1의 Key는 `tr.Kh[0]`의 각 행입니다. "
                   "행렬과 벡터를 `@`로 곱하면 내적을 한 번에 모두 계산합니다.",
             "en": "Token 2's Query is `tr.Qh[0, 1]`; Head 1's Keys are the rows of `tr.Kh[0]`. "
                   "A matrix times a vector with `@` computes all the dot products at once."},
        ),
        (
            Mistake(lambda: _tr().S[0, :, 1],
                    {"ko": "S의 두 번째 열입니다. 행은 Query 토큰 하나를 모든 Key와 비교합니다.",
                     "en": "That is column 2 of S; a row compares one Query token with every Key."}),
            Mistake(lambda: _tr().S[0, 2], _ROW2_IS_INDEX_1),
            Mistake(lambda: _tr().S[1, 1], _HEAD1_IS_INDEX_0),
            Mistake(lambda: _tr().K @ _tr().Q[1],
                    {"ko": "여덟 성분을 모두 썼습니다. Head 1의 점수는 앞 네 성분(`tr.Qh[0]`, `tr.Kh[0]`)만으로 계산합니다.",
                     "en": "You used all eight components; Head 1's scores use only its first four "
                           "(`tr.Qh[0]`, `tr.Kh[0]`)."}),
        ),
    ),
    Exercise(
        "02.head2",
        {"ko": "Head 2의 점수 행렬 S (3 × 3)", "en": "Head 2's score matrix S (3 × 3)"},
        lambda: _tr().S[1],
        "al.scores(tr.Qh[1], tr.Kh[1])",
        (
            {"ko": "Head 2도 Head 1과 똑같이 점수를 계산하지만, 자기 head의 Query와 Key 성분만 씁니다.",
             "en": "Head 2 computes its scores just like Head 1, but only with its own Query and Key components."},
            {"ko": "Head 2는 `tr.Qh`와 `tr.Kh`의 인덱스 1입니다. `al.scores`가 Q Kᵀ를 계산합니다(`@`와 `.T`로 써도 됩니다).",
             "en": "Head 2 is index 1 of `tr.Qh` and `tr.Kh`; `al.scores` computes Q Kᵀ "
                   "(or write it with `@` and `.T`)."},
        ),
        (
            Mistake(lambda: _tr().S[0], {"ko": "Head 1의 점수 행렬입니다. Head 2는 인덱스 1입니다.",
                                         "en": "That is Head 1's score matrix; Head 2 is index 1."}),
            Mistake(lambda: scores(_tr().Kh[1], _tr().Qh[1]),
                    {"ko": "행과 열이 바뀌었습니다(K Qᵀ). 행은 Query 토큰, 열은 Key 토큰입니다.",
                     "en": "Rows and columns are swapped (K Qᵀ): rows are Query tokens, columns Key tokens."}),
            Mistake(lambda: _tr().Q @ _tr().K.T,
                    {"ko": "여덟 성분을 모두 써서 두 head의 점수를 더한 셈입니다. Head 2의 성분만 쓰세요.",
                     "en": "You used all eight components, which adds up both heads' scores; "
                           "use only Head 2's components."}),
            Mistake(lambda: _tr().Qh[1].T @ _tr().Kh[1],
                    {"ko": "dh × dh 행렬(Qᵀ K)입니다. 점수 행렬은 Q Kᵀ이고, 토큰 × 토큰입니다.",
                     "en": "That is a dh × dh matrix (Qᵀ K); the score matrix is Q Kᵀ, tokens × tokens."}),
        ),
    ),
    # 03 — scaling
    Exercise(
        "03.row2",
        {"ko": "Head 1에서 S / √dh의 두 번째 행", "en": "row 2 of S / √dh in Head 1"},
        lambda: _tr().S_scaled[0, 1],
        "tr.S[0, 1] / np.sqrt(tr.dh)",
        (
            {"ko": "모든 점수를 같은 수, 즉 head 차원의 제곱근으로 나눕니다.",
             "en": "Every score is divided by the same number: the square root of the head dimension."},
            {"ko": "Head 1의 점수 행렬에서 두 번째 행은 `tr.S[0, 1]`입니다. 나누는 값은 `tr.dh`와 `np.sqrt`로 구합니다.",
             "en": "Row 2 of Head 1's scores is `tr.S[0, 1]`; the divisor comes from `tr.dh` and `np.sqrt`."},
        ),
        (
            Mistake(lambda: _tr().S[0, 1] / np.sqrt(_tr().d),
                    {"ko": "√d로 나누었습니다. 나누는 값은 모델 차원 d가 아니라 head 차원 dh의 제곱근입니다.",
                     "en": "You divided by √d; the divisor is the square root of the head dimension dh, "
                           "not of the model dimension d."}),
            Mistake(lambda: _tr().S[0, 1] / _tr().dh,
                    {"ko": "dh로 나누었습니다. dh의 제곱근으로 나누세요.",
                     "en": "You divided by dh itself; divide by its square root."}),
            Mistake(lambda: _tr().S[0, 1], {"ko": "나누기 전의 두 번째 행입니다. 이 행을 √dh로 나누세요.",
                                            "en": "That is row 2 before the division; divide it by √dh."}),
            Mistake(lambda: _tr().S_scaled[0, 2], _ROW2_IS_INDEX_1),
            Mistake(lambda: _tr().S_scaled[1, 1], _HEAD1_IS_INDEX_0),
        ),
    ),
    Exercise(
        "03.divisor",
        {"ko": "d = 512, h = 8일 때 점수를 나누는 값", "en": "the number the scores are divided by when d = 512 and h = 8"},
        lambda: np.sqrt(512 // 8),
        "np.sqrt(512 // 8)",
        (
            {"ko": "점수 하나는 head 안의 성분만으로 계산하므로, 나누는 값도 head 차원에 맞춥니다.",
             "en": "A score is computed from one head's components only, so the divisor follows the head dimension."},
            {"ko": "먼저 dh = d / h를 구한 뒤, `np.sqrt`로 그 제곱근을 구합니다.",
             "en": "First find dh = d / h, then its square root with `np.sqrt`."},
        ),
        (
            Mistake(lambda: np.sqrt(512),
                    {"ko": "√d입니다. 점수는 head 하나의 성분으로 계산하므로 √dh로 나눕니다.",
                     "en": "That is √d; a score comes from one head's components, so it is divided by √dh."}),
            Mistake(lambda: 512 // 8, {"ko": "dh 자체입니다. 나누는 값은 dh의 제곱근입니다.",
                                       "en": "That is dh itself; the divisor is its square root."}),
        ),
    ),
    # 04 — causal mask
    Exercise(
        "04.mask4",
        {"ko": "T = 4일 때의 Causal mask M (4 × 4)", "en": "the causal mask M for T = 4 (4 × 4)"},
        lambda: causal_mask(4),
        "np.where(np.tril(np.ones((4, 4))) == 1, 0.0, -np.inf)",
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
            Mistake(lambda: np.tril(np.ones((4, 4))),
                    {"ko": "참조할 수 있는 칸이 1, 없는 칸이 0인 행렬입니다. M은 점수에 더하는 행렬이므로 참조할 수 있는 칸이 0, "
                           "없는 칸이 −∞입니다.",
                     "en": "That marks the allowed cells with 1 and the others with 0; M is added to the scores, "
                           "so allowed cells are 0 and the others −∞."}),
            Mistake(lambda: causal_mask(4).T,
                    {"ko": "−∞가 대각선 아래에 있습니다. 토큰 1은 토큰 2를 볼 수 없으므로, 첫 번째 행은 두 번째 열부터 −∞입니다.",
                     "en": "The −∞ are below the diagonal; token 1 must not see token 2, so row 1 is −∞ "
                           "from column 2 on."}),
            Mistake(lambda: np.where(np.tril(np.ones((4, 4)), k=-1) == 1, 0.0, -np.inf),
                    {"ko": "대각선까지 −∞로 막았습니다. 각 토큰은 자기 자신을 참조할 수 있으므로 대각선은 0입니다.",
                     "en": "The diagonal is masked too; every token may see itself, so the diagonal is 0."}),
            Mistake(lambda: np.where(np.tril(np.ones((4, 4))) == 1, 0.0, -1e9), _NOT_MINUS_1E9),
            Mistake(lambda: _tr().M,
                    {"ko": "T = 3일 때의 마스크 `tr.M`입니다. 이 연습은 T = 4일 때의 마스크입니다.",
                     "en": "That is the mask for T = 3, `tr.M`; this exercise asks for T = 4."}),
        ),
    ),
    Exercise(
        "04.row2",
        {"ko": "Head 1에서 마스크를 더한 두 번째 행", "en": "row 2 of Head 1 after adding the mask"},
        lambda: _tr().S_masked[0, 1],
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
            Mistake(lambda: _tr().S_scaled[0, 1],
                    {"ko": "마스크를 더하기 전의 행입니다. M의 같은 행을 더하세요.",
                     "en": "That is the row before the mask: add the same row of M."}),
            Mistake(lambda: _tr().S[0, 1] + _tr().M[1],
                    {"ko": "S에 바로 마스크를 더했습니다. 마스크는 √dh로 나눈 점수에 더합니다.",
                     "en": "You added the mask to S itself; it is added to the scores divided by √dh."}),
            Mistake(lambda: _tr().S_scaled[0, 1] * _tr().M[1],
                    {"ko": "마스크를 곱했습니다. M은 점수에 더합니다.",
                     "en": "You multiplied by the mask; M is added to the scores."}),
            Mistake(lambda: _tr().S_scaled[0, 1] + np.where(_tr().M[1] == 0, 0.0, -1e9), _NOT_MINUS_1E9),
            Mistake(lambda: _tr().S_masked[0, 2], _ROW2_IS_INDEX_1),
        ),
    ),
    Exercise(
        "04.count",
        {"ko": "T = 3에서 참조할 수 있는 (Query 토큰, Key 토큰) 쌍의 수",
         "en": "how many (Query token, Key token) pairs may attend when T = 3"},
        lambda: int((_tr().M == 0).sum()),
        "(tr.M == 0).sum()",
        (
            {"ko": "M에서 Query 토큰이 참조할 수 있는 칸은 0입니다. 그런 칸의 수를 세면 됩니다.",
             "en": "In M, the cells a Query token may see are 0; count them."},
            {"ko": "행(Query 토큰)마다 0인 칸을 세어 더합니다. True/False 배열의 `.sum()`은 True의 개수를 셉니다.",
             "en": "Count the 0 cells of each row (each Query token) and add them up; `.sum()` of a True/False "
                   "array counts the True values."},
        ),
        (
            Mistake(lambda: int((_tr().M == -np.inf).sum()),
                    {"ko": "−∞인 칸, 즉 참조할 수 없는 쌍의 수입니다. 0인 칸을 세세요.",
                     "en": "That counts the −∞ cells, the pairs that may not attend; count the 0 cells."}),
            Mistake(lambda: _tr().M.size,
                    {"ko": "T × T 칸 전체의 수입니다. 마스크는 대각선 위의 칸을 막습니다.",
                     "en": "That is every cell, T × T; the mask blocks the cells above the diagonal."}),
        ),
        note={"ko": "토큰 1은 1개, 토큰 2는 2개, 토큰 3은 3개를 참조합니다.",
              "en": "Token 1 sees 1 token, token 2 sees 2, token 3 sees 3."},
    ),
    # 05 — softmax
    Exercise(
        "05.row3",
        {"ko": "exp로 직접 계산한 토큰 3의 가중치", "en": "token 3's weights, computed with exp yourself"},
        lambda: _tr().P[0, 2],
        "np.exp(tr.S_masked[0, 2]) / np.exp(tr.S_masked[0, 2]).sum()",
        (
            {"ko": "Softmax는 한 행의 각 점수에 exp를 적용한 뒤, 그 값들의 합으로 나눕니다.",
             "en": "The softmax applies exp to each score of a row, then divides by the sum of those values."},
            {"ko": "마스크까지 더한 토큰 3의 점수는 `tr.S_masked[0, 2]`입니다. `np.exp`와 `.sum()`을 쓰세요.",
             "en": "Token 3's scores with the mask added are `tr.S_masked[0, 2]`; use `np.exp` and `.sum()`."},
        ),
        (
            Mistake(lambda: np.exp(_tr().S_masked[0, 2]), _DIVIDE_BY_THE_SUM),
            Mistake(lambda: _tr().S_masked[0, 2] / _tr().S_masked[0, 2].sum(),
                    {"ko": "exp 없이 점수를 합으로 나누었습니다. 먼저 `np.exp`를 적용하세요.",
                     "en": "You divided the scores by their sum without exp; apply `np.exp` first."}),
            Mistake(lambda: softmax(_tr().S[0, 2]),
                    {"ko": "√dh로 나누기 전의 점수 S로 계산했습니다. 마스크까지 더한 점수(`tr.S_masked`)에서 시작하세요.",
                     "en": "You started from S, before the division by √dh; start from the masked scores "
                           "(`tr.S_masked`)."}),
            Mistake(lambda: _tr().P[0, 1], {"ko": "토큰 2의 가중치입니다. 토큰 3은 행 인덱스 2입니다.",
                                            "en": "Those are token 2's weights; token 3 is row index 2."}),
            Mistake(lambda: softmax(_tr().S_masked[0, :, 2]),
                    {"ko": "세 번째 열로 계산했습니다. Softmax는 한 행, 즉 Query 토큰 하나 안에서 계산합니다.",
                     "en": "You used column 3; the softmax runs along a row, one Query token."}),
        ),
        tol=1e-3,
        note={"ko": "가중치는 0 이상이고 합이 1입니다.", "en": "The weights are ≥ 0 and add up to 1."},
    ),
    Exercise(
        "05.row2",
        {"ko": "토큰 2의 가중치 (−∞ 자리 포함)", "en": "token 2's weights (including the −∞ position)"},
        lambda: _tr().P[0, 1],
        "np.exp(tr.S_masked[0, 1]) / np.exp(tr.S_masked[0, 1]).sum()",
        (
            {"ko": "토큰 3과 같은 계산입니다. exp(−∞) = 0이므로 −∞ 자리의 가중치는 0입니다.",
             "en": "The same computation as for token 3; exp(−∞) = 0, so the −∞ position gets weight 0."},
            {"ko": "마스크까지 더한 토큰 2의 점수는 `tr.S_masked[0, 1]`입니다. `np.exp`는 −∞를 0으로 바꿉니다.",
             "en": "Token 2's scores with the mask added are `tr.S_masked[0, 1]`; `np.exp` turns −∞ into 0."},
        ),
        (
            Mistake(lambda: softmax(_tr().S_scaled[0, 1]),
                    {"ko": "마스크 없이 계산했습니다. 토큰 2는 토큰 3을 참조할 수 없으므로 마스크를 더한 점수(`tr.S_masked`)를 쓰세요.",
                     "en": "You left out the mask: token 2 may not see token 3, so use the masked scores "
                           "(`tr.S_masked`)."}),
            Mistake(lambda: np.exp(_tr().S_masked[0, 1]), _DIVIDE_BY_THE_SUM),
            Mistake(lambda: _tr().P[0, 2], {"ko": "토큰 3의 가중치입니다. 토큰 2는 행 인덱스 1입니다.",
                                            "en": "Those are token 3's weights; token 2 is row index 1."}),
        ),
        tol=1e-3,
    ),
    Exercise(
        "05.stable",
        {"ko": "점수 [1000, 1001, 1002]의 Softmax", "en": "the softmax of the scores [1000, 1001, 1002]"},
        lambda: softmax(_BIG),
        "np.exp(np.array([1000, 1001, 1002]) - 1002) / np.exp(np.array([1000, 1001, 1002]) - 1002).sum()",
        (
            {"ko": "한 행의 모든 점수에서 같은 수를 빼도 Softmax 결과는 같습니다. 가장 큰 점수가 0이 되도록 빼면 exp가 넘치지 "
                   "않습니다.",
             "en": "Subtracting the same number from every score of a row leaves the softmax unchanged; subtract "
                   "so that the largest score becomes 0, and exp cannot overflow."},
            {"ko": "`np.exp`를 적용하기 전에 행의 최댓값(`.max()`)을 빼세요.",
             "en": "Subtract the row maximum (`.max()`) before `np.exp`."},
        ),
        (
            Mistake(lambda: _naive_softmax(_BIG),
                    {"ko": "exp가 무한대로 넘쳐 ∞ / ∞ = NaN이 되었습니다. exp를 적용하기 전에 최댓값을 빼세요.",
                     "en": "exp overflowed to ∞, and ∞ / ∞ is NaN; subtract the maximum before exp."}),
            Mistake(lambda: np.exp(_BIG - _BIG.max()), _DIVIDE_BY_THE_SUM),
        ),
        tol=1e-3,
        note={"ko": "[0, 1, 2]의 Softmax와 같습니다.", "en": "It is the same as the softmax of [0, 1, 2]."},
    ),
    # 06 — weighted sum
    Exercise(
        "06.out3",
        {"ko": "Head 1에서 토큰 3의 출력 (네 성분)", "en": "token 3's output in Head 1 (four components)"},
        lambda: _tr().O[0, 2],
        "tr.P[0, 2] @ tr.Vh[0]",
        (
            {"ko": "토큰 3의 출력은 각 Value 행에 토큰 3의 가중치를 곱해 모두 더한 것입니다.",
             "en": "Token 3's output is the sum of the Value rows, each multiplied by token 3's weight for it."},
            {"ko": "토큰 3의 가중치는 `tr.P[0]`의 행 인덱스 2이고, Head 1의 Value는 `tr.Vh[0]`의 행들입니다. "
                   "`@`가 곱해서 더하는 계산을 한 번에 합니다.",
             "en": "Token 3's weights are row index 2 of `tr.P[0]`, Head 1's Values the rows of `tr.Vh[0]`; "
                   "`@` multiplies and adds in one go."},
        ),
        (
            Mistake(lambda: _tr().P[0, :, 2] @ _tr().Vh[0],
                    {"ko": "P의 세 번째 열을 썼습니다. 토큰 3의 가중치는 세 번째 행입니다.",
                     "en": "You used column 3 of P; token 3's weights are row 3."}),
            Mistake(lambda: _tr().O[0, 1], {"ko": "토큰 2의 출력입니다. 토큰 3은 행 인덱스 2입니다.",
                                            "en": "That is token 2's output; token 3 is row index 2."}),
            Mistake(lambda: _tr().O[1, 2], _HEAD1_IS_INDEX_0),
            Mistake(lambda: _tr().Vh[0].sum(axis=0), _WEIGHT_EACH_VALUE),
            Mistake(lambda: _tr().P[0, 2] @ _tr().V,
                    {"ko": "두 head의 Value(여덟 성분)를 모두 썼습니다. Head 1의 Value는 `tr.Vh[0]`입니다.",
                     "en": "You used the Values of both heads (eight components); Head 1's Values are `tr.Vh[0]`."}),
        ),
        tol=1e-3,
    ),
    Exercise(
        "06.out2",
        {"ko": "토큰 2의 출력 = P[2,1]·V1 + P[2,2]·V2", "en": "token 2's output = P[2,1]·V1 + P[2,2]·V2"},
        lambda: _tr().O[0, 1],
        "tr.P[0, 1, 0] * tr.Vh[0, 0] + tr.P[0, 1, 1] * tr.Vh[0, 1]",
        (
            {"ko": "토큰 2는 토큰 1과 2만 참조합니다. 두 토큰의 Value에 각자의 가중치를 곱해 더합니다.",
             "en": "Token 2 sees only tokens 1 and 2: multiply their two Values by their weights and add."},
            {"ko": "토큰 2의 가중치는 `tr.P[0]`의 행 인덱스 1이고, 토큰 1과 2의 Value는 `tr.Vh[0]`의 행 인덱스 0과 1입니다.",
             "en": "Token 2's weights are row index 1 of `tr.P[0]`; the Values of tokens 1 and 2 are the rows "
                   "with index 0 and 1 of `tr.Vh[0]`."},
        ),
        (
            Mistake(lambda: weighted_sum(softmax(_tr().S_scaled[0, 1]), _tr().Vh[0]),
                    {"ko": "마스크 없이 얻은 가중치를 썼습니다. 토큰 2는 토큰 3을 참조할 수 없으므로 토큰 3의 가중치는 0입니다"
                           "(`tr.P`를 쓰세요).",
                     "en": "Those weights come without the mask; token 2 may not see token 3, so its weight for "
                           "token 3 is 0 (use `tr.P`)."}),
            Mistake(lambda: _tr().P[0, 1, 1] * _tr().Vh[0, 0] + _tr().P[0, 1, 0] * _tr().Vh[0, 1],
                    {"ko": "가중치가 서로 바뀌었습니다. P[2,1]은 V1에, P[2,2]는 V2에 곱합니다.",
                     "en": "The weights are swapped: P[2,1] goes with V1, P[2,2] with V2."}),
            Mistake(lambda: _tr().O[0, 2], {"ko": "토큰 3의 출력입니다. 토큰 2는 행 인덱스 1입니다.",
                                            "en": "That is token 3's output; token 2 is row index 1."}),
            Mistake(lambda: _tr().Vh[0, 0] + _tr().Vh[0, 1], _WEIGHT_EACH_VALUE),
        ),
        tol=1e-3,
    ),
    Exercise(
        "06.head2_out1",
        {"ko": "Head 2에서 토큰 1의 출력", "en": "token 1's output in Head 2"},
        lambda: _tr().O[1, 0],
        "tr.Vh[1, 0]",
        (
            {"ko": "토큰 1은 자기 자신만 참조하므로, 가중치 1이 모두 자신의 Value에 갑니다.",
             "en": "Token 1 sees only itself, so its whole weight, 1, is on its own Value."},
            {"ko": "Head 2의 가중치 `tr.P[1]`에서 토큰 1의 행을 보세요. 그 가중치로 Head 2의 Value(`tr.Vh[1]`)를 가중합합니다.",
             "en": "Look at token 1's row of Head 2's weights, `tr.P[1]`; those weights combine Head 2's Values, "
                   "`tr.Vh[1]`."},
        ),
        (
            Mistake(lambda: _tr().O[0, 0], {"ko": "Head 1의 출력입니다. Head 2는 인덱스 1입니다.",
                                            "en": "That is Head 1's output; Head 2 is index 1."}),
            Mistake(lambda: _tr().Vh[1, 1], {"ko": "토큰 2의 Value입니다. 토큰 1은 행 인덱스 0입니다.",
                                             "en": "That is token 2's Value; token 1 is row index 0."}),
            Mistake(lambda: _tr().V[0],
                    {"ko": "토큰 1의 Value 전체(두 head, 여덟 성분)입니다. Head 2의 성분만 쓰세요.",
                     "en": "That is token 1's whole Value (both heads, eight components); use Head 2's components."}),
        ),
    ),
    # 07 — explorer
    Exercise(
        "07.H_shape",
        {"ko": "T = 5, d = 12, h = 3일 때 H의 모양", "en": "the shape of H when T = 5, d = 12, h = 3"},
        lambda: random_example(5, 12, 3).H.shape,
        "al.random_example(5, 12, 3).H.shape",
        (
            {"ko": "Concat은 head들의 출력을 다시 나란히 이어 붙이므로, H는 토큰마다 한 행이고 열은 모델 차원만큼 있습니다.",
             "en": "Concat joins the heads' outputs back side by side: H has one row per token and as many "
                   "columns as the model dimension."},
            {"ko": "`al.random_example`로 이 크기의 예시를 만들 수 있고, 배열의 모양은 `.shape`로 읽습니다.",
             "en": "`al.random_example` builds an example of these sizes, and an array's `.shape` reads its shape."},
        ),
        (
            Mistake(lambda: random_example(5, 12, 3).O[0].shape,
                    {"ko": "head 하나의 출력 모양(T × dh)입니다. H는 모든 head의 출력을 이어 붙인 것입니다.",
                     "en": "That is the shape of one head's output (T × dh); H joins every head's output."}),
            Mistake(lambda: random_example(5, 12, 3).O.shape,
                    {"ko": "head별 출력 O의 모양(h, T, dh)입니다. Concat은 이들을 하나의 T × d 행렬로 이어 붙입니다.",
                     "en": "That is the shape of the per-head outputs O, (h, T, dh); Concat joins them into one "
                           "T × d matrix."}),
            Mistake(lambda: random_example(5, 12, 3).P[0].shape,
                    {"ko": "한 head의 S나 P의 모양(T × T)입니다.", "en": "T × T is the shape of one head's S or P."}),
        ),
    ),
    Exercise(
        "07.no_mask_row1",
        {"ko": "마스크 없이 계산한 Head 1 토큰 1의 가중치", "en": "token 1's weights in Head 1 without a mask"},
        lambda: _tr(mask=None).P[0, 0],
        "al.article_example(mask=None).P[0, 0]",
        (
            {"ko": "마스크가 없으면 토큰 1도 모든 토큰을 참조합니다. 가중치는 스케일링한 점수 행 전체의 Softmax입니다.",
             "en": "Without the mask token 1 sees every token; its weights are the softmax of its whole "
                   "scaled score row."},
            {"ko": "Head 1에서 토큰 1의 스케일링한 점수는 `tr.S_scaled[0, 0]`입니다. 마스크가 없으면 이 행에 아무것도 "
                   "더하지 않고 `al.softmax`를 적용합니다.",
             "en": "Head 1's scaled scores for token 1 are `tr.S_scaled[0, 0]`; without the mask nothing is added "
                   "to them before `al.softmax`."},
        ),
        (
            Mistake(lambda: _tr().P[0, 0],
                    {"ko": "Causal mask를 쓸 때의 가중치입니다. 마스크를 끄면 토큰 1도 토큰 2와 3을 참조합니다.",
                     "en": "Those are the weights with the causal mask; without it token 1 sees tokens 2 and 3 too."}),
            Mistake(lambda: softmax(_tr().S[0, 0]),
                    {"ko": "√dh로 나누기 전의 점수로 계산했습니다. 스케일링한 점수에 Softmax를 적용하세요.",
                     "en": "You used the scores before the division by √dh; apply the softmax to the scaled scores."}),
            Mistake(lambda: _tr(mask=None).P[1, 0], _HEAD1_IS_INDEX_0),
        ),
        tol=1e-3,
    ),
]
