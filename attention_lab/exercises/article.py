# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebooks 00–03, on the article's example: sizes, heads, scores and the √dh.

Every answer, and every known mistake's value, is computed from the trace it is given (or from the sizes),
never typed in. Hints come in two steps: the idea (no code), then the step to take (which array, index or
function, never the whole solution nor its result). A mistake's hint says what that answer is and what to do
instead.
"""

import numpy as np

from .define import Exercise, Mistake
from .givens import trace, values
from .shared import BOTH_HEADS, BY_D, HEAD1_IS_INDEX_0, ROW2_IS_INDEX_1

EXERCISES = [
    # 00 — the whole flow
    Exercise(
        "00.dh",
        {"ko": "head 하나의 차원 dh", "en": "the dimension dh of one head"},
        lambda tr: tr.dh,
        "tr.d // tr.h",
        (
            {"ko": "모델 차원 d의 성분을 h개의 head가 똑같이 나누어 가집니다.",
             "en": "The h heads share the d components of the model dimension equally."},
            {"ko": "`tr.d`는 모델 차원, `tr.h`는 head의 수입니다. 나눗셈 한 번이면 됩니다.",
             "en": "`tr.d` is the model dimension and `tr.h` the number of heads; one division does it."},
        ),
        (
            Mistake(lambda tr: tr.d, {"ko": "모델 차원 d 전체입니다. head 하나는 그중 일부만 가져갑니다.",
                                      "en": "That is the whole model dimension d; one head takes only a part of it."},
                    name="d_not_dh"),
            Mistake(lambda tr: tr.h, {"ko": "head의 수 h입니다. head 하나의 차원이 아닙니다.",
                                      "en": "That is the number of heads h, not the dimension of one head."},
                    name="h_not_dh"),
            Mistake(lambda tr: tr.d * tr.h,
                    {"ko": "곱했습니다. head마다 d개 성분의 일부를 가져가므로 dh는 d보다 작습니다.",
                     "en": "You multiplied; each head takes a part of the d components, so dh is smaller than d."},
                    name="d_times_h"),
        ),
        note={"ko": "d = 8을 h = 2개의 head가 나누어 가집니다.", "en": "The h = 2 heads share the d = 8 components."},
        given=trace(),
        wrong=(("4", "ex.only_here"), ("8 // 2", "ex.only_here"), ("tr.d // 2", "ex.only_here")),
    ),
    Exercise(
        "00.P_shape",
        {"ko": "가중치 P 전체의 모양 (h, T, T)", "en": "the shape (h, T, T) of all the weights P"},
        lambda tr: tr.P.shape,
        "tr.P.shape",
        (
            {"ko": "head마다 가중치 행렬이 하나씩 있고, 각 행렬의 행은 Query 토큰, 열은 Key 토큰입니다.",
             "en": "Each head has its own matrix of weights, with one row per Query token and one column per Key token."},
            {"ko": "배열의 모양은 `.shape`로 읽습니다. 모양은 (head 수, Query 토큰 수, Key 토큰 수) 순서입니다.",
             "en": "An array's `.shape` reads its shape, which lists (heads, Query tokens, Key tokens) in that order."},
        ),
        (
            Mistake(lambda tr: tr.P[0].shape,
                    {"ko": "한 head의 P의 모양입니다. `tr.P`에는 모든 head의 가중치가 들어 있으므로 수가 세 개 필요합니다.",
                     "en": "That is the shape of one head's P; `tr.P` holds the weights of every head, "
                           "so its shape has three numbers."}, name="one_head_shape"),
            Mistake(lambda tr: tr.Qh.shape,
                    {"ko": "(h, T, dh)는 head별 Q·K·V와 출력 O의 모양입니다. P는 토큰과 토큰 사이의 가중치입니다.",
                     "en": "(h, T, dh) is the shape of the per-head Q, K, V and of O; P holds weights between "
                           "tokens and tokens."}, name="head_split_shape"),
            Mistake(lambda tr: tr.Q.shape,
                    {"ko": "(T, d)는 Q·K·V 전체의 모양입니다. P는 head마다 토큰과 토큰 사이의 가중치입니다.",
                     "en": "(T, d) is the shape of the whole Q, K, V; P holds, for every head, weights between "
                           "tokens and tokens."}, name="model_shape"),
        ),
        given=trace(),
        wrong=(("(2, 3, 3)", "ex.only_here"), "(tr.h, tr.T, tr.d)", ("(2, tr.T, tr.T)", "ex.only_here")),
    ),
    # 01 — heads
    Exercise(
        "01.head2_q3",
        {"ko": "Head 2에 들어가는 토큰 3의 Query (네 성분)", "en": "token 3's Query as Head 2 sees it (four components)"},
        lambda tr: tr.Qh[1, 2],
        "tr.Q[2, tr.dh:2 * tr.dh]",
        (
            {"ko": "Q의 행은 토큰, 열은 성분입니다. 각 토큰의 앞 네 성분은 Head 1, 뒤 네 성분은 Head 2가 가져갑니다.",
             "en": "The rows of Q are tokens, its columns components; Head 1 takes the first four components "
                   "of each token, Head 2 the last four."},
            {"ko": "`tr.Q`에서 토큰 3의 행을 고른 뒤, 그 행의 Head 2 성분만 잘라 냅니다. 인덱스는 0부터 셉니다.",
             "en": "Pick token 3's row of `tr.Q`, then slice out Head 2's components of it; indices count from 0."},
        ),
        (
            Mistake(lambda tr: tr.Q[2, :tr.dh],
                    {"ko": "Head 1이 가져가는 앞 네 성분입니다. Head 2는 뒤 네 성분을 가져갑니다.",
                     "en": "Those are the first four components, Head 1's part; Head 2 takes the last four."},
                    name="wrong_head"),
            Mistake(lambda tr: tr.Q[1, tr.dh:2 * tr.dh],
                    {"ko": "토큰 2의 성분입니다. 인덱스는 0부터 세므로 토큰 3은 행 인덱스 2입니다.",
                     "en": "That is token 2: indices count from 0, so token 3 is row index 2."}, name="wrong_token"),
            Mistake(lambda tr: tr.Q[2],
                    {"ko": "토큰 3의 Query 전체(여덟 성분)입니다. Head 2는 그중 뒤 네 성분만 가져갑니다.",
                     "en": "That is token 3's whole Query (eight components); Head 2 takes only the last four."},
                    name="both_heads"),
            Mistake(lambda tr: tr.K[2, tr.dh:2 * tr.dh],
                    {"ko": "Key에서 가져온 값입니다. Query는 `tr.Q`에 있습니다.",
                     "en": "That comes from the Keys; the Queries are in `tr.Q`."}, name="keys_not_queries"),
        ),
        given=trace(withhold="Qh", two_heads=True),
        wrong=(("tr.Qh[1, 2]", "ex.withheld"), ("tr.Q[2, 4:8]", "ex.only_here"), ("tr.Q[2, 4:]", "ex.only_here"),
               "tr.Q[2, 5:9]", "tr.Q[3, 4:8]"),
    ),
    Exercise(
        "01.H_row2",
        {"ko": "Concat 결과 H에서 토큰 2의 행 (여덟 성분)", "en": "token 2's row of the concatenated H (eight components)"},
        lambda tr: tr.H[1],
        "np.concatenate([tr.O[0, 1], tr.O[1, 1]])",
        (
            {"ko": "Concat은 같은 토큰의 두 head 출력을 나란히 이어 붙입니다. Head 1의 출력이 앞, Head 2의 출력이 뒤에 옵니다.",
             "en": "Concat puts the two heads' outputs for the same token side by side, Head 1's first, "
                   "then Head 2's."},
            {"ko": "토큰 2는 `tr.O[0]`과 `tr.O[1]`의 행 인덱스 1입니다. 두 행은 `np.concatenate`로 이어 붙입니다.",
             "en": "Token 2 is row index 1 of `tr.O[0]` and of `tr.O[1]`; `np.concatenate` joins two rows."},
        ),
        (
            Mistake(lambda tr: np.concatenate([tr.O[1, 1], tr.O[0, 1]]),
                    {"ko": "두 head의 순서가 바뀌었습니다. Head 1의 출력이 앞에 옵니다.",
                     "en": "The heads are in the wrong order: Head 1's output comes first."}, name="heads_swapped"),
            Mistake(lambda tr: tr.O[:, 1],
                    {"ko": "두 행을 위아래로 쌓았습니다. Concat은 두 행을 옆으로 이어 붙여 여덟 성분의 한 행을 만듭니다.",
                     "en": "You stacked the two rows; Concat joins them side by side into one row of eight components."},
                    name="stacked"),
            Mistake(lambda tr: np.concatenate([tr.O[0, 2], tr.O[1, 2]]),
                    {"ko": "토큰 3의 행입니다. 인덱스는 0부터 세므로 토큰 2는 행 인덱스 1입니다.",
                     "en": "That is token 3's row: indices count from 0, so token 2 is row index 1."},
                    name="wrong_token"),
            Mistake(lambda tr: tr.O[0, 1] + tr.O[1, 1],
                    {"ko": "두 출력을 더했습니다. Concat은 더하지 않고 나란히 이어 붙이므로 성분이 여덟 개입니다.",
                     "en": "You added the two outputs; Concat places them side by side, so the row has eight "
                           "components."}, name="added_heads"),
        ),
        given=trace(withhold="H", two_heads=True),
        wrong=(("tr.H[1]", "ex.withheld"), "tr.O[0, 1]", "np.concatenate([tr.O[0, 0], tr.O[1, 0]])",
               ("np.concatenate([tr.O[0, 1, :4], tr.O[1, 1, :4]])", "ex.only_here")),
    ),
    # 02 — scores
    Exercise(
        "02.score",
        {"ko": "Head 1에서 토큰 3의 Query와 토큰 1의 Key 사이의 점수",
         "en": "the score between token 3's Query and token 1's Key, in Head 1"},
        lambda tr: tr.S[0, 2, 0],
        "tr.Qh[0, 2] @ tr.Kh[0, 0]",
        (
            {"ko": "점수는 두 벡터의 내적입니다. 같은 위치의 성분끼리 곱한 뒤 모두 더합니다. 두 벡터는 모두 Head 1의 것입니다.",
             "en": "A score is the dot product of two vectors, both of Head 1: multiply the components in the same "
                   "position, then add them all up."},
            {"ko": "Head 1의 Query 행은 `tr.Qh[0]`, Key 행은 `tr.Kh[0]`에 있습니다. 인덱스는 0부터 세므로 토큰 번호에서 1을 빼서 행을 고른 뒤, `@`로 내적을 계산하세요.",
             "en": "Head 1's Query rows are in `tr.Qh[0]`, its Key rows in `tr.Kh[0]`. Indices count from 0: "
                   "subtract 1 from each token number to pick the rows, then `@` computes the dot product."},
        ),
        (
            Mistake(lambda tr: tr.Qh[0, 2] * tr.Kh[0, 0],
                    {"ko": "성분별 곱 네 개를 구했습니다. 내적은 이 곱을 모두 더한 값입니다.",
                     "en": "Those are the four products; the dot product is their sum."}, name="no_sum"),
            Mistake(lambda tr: tr.Q[2] @ tr.K[0], BOTH_HEADS, name="both_heads"),
            *(Mistake(value, {"ko": "다른 토큰 쌍의 점수입니다. 인덱스는 0부터 세므로 토큰 번호에서 1을 뺍니다. "
                                    "Query는 `tr.Qh`, Key는 `tr.Kh`에서 가져옵니다.",
                              "en": "That is the score of another pair of tokens: indices count from 0, so subtract "
                                    "1 from each token number; the Query comes from `tr.Qh`, the Key from `tr.Kh`."},
                      name="wrong_token")
              for value in (lambda tr: tr.Qh[0, 2] @ tr.Kh[0, 1], lambda tr: tr.Qh[0, 1] @ tr.Kh[0, 0],
                            lambda tr: tr.Qh[0, 0] @ tr.Kh[0, 2])),
        ),
        note={"ko": "이 값이 S의 세 번째 행, 첫 번째 열에 들어갑니다.", "en": "This is the value in row 3, column 1 of S."},
        given=trace(withhold="S"),
        wrong=(("tr.S[0, 2, 0]", "ex.withheld"), ("2", "ex.only_here"), "tr.Qh[0, 2] @ tr.Kh[0, 0] / np.sqrt(tr.dh)",
               "tr.Qh[0, 3] @ tr.Kh[0, 1]"),
    ),
    Exercise(
        "02.row2",
        {"ko": "Head 1의 점수 행렬 S의 두 번째 행", "en": "row 2 of Head 1's score matrix S"},
        lambda tr: tr.S[0, 1],
        "tr.Kh[0] @ tr.Qh[0, 1]",
        (
            {"ko": "S의 두 번째 행은 토큰 2의 Query를 모든 Key와 하나씩 내적한 점수입니다.",
             "en": "Row 2 of S holds token 2's Query dotted with every Key, one score per Key token."},
            {"ko": "토큰 2의 Query는 `tr.Qh[0]`의 행 하나이고, Head 1의 Key는 `tr.Kh[0]`의 각 행입니다. "
                   "행렬과 벡터를 `@`로 곱하면 내적을 한 번에 모두 계산합니다.",
             "en": "Token 2's Query is one row of `tr.Qh[0]`; Head 1's Keys are the rows of `tr.Kh[0]`. "
                   "A matrix times a vector with `@` computes all the dot products at once."},
        ),
        (
            Mistake(lambda tr: tr.Qh[0] @ tr.Kh[0, 1],
                    {"ko": "S의 두 번째 열입니다. 행은 Query 토큰 하나를 모든 Key와 비교합니다.",
                     "en": "That is column 2 of S; a row compares one Query token with every Key."},
                    name="column_not_row"),
            Mistake(lambda tr: tr.Kh[0] @ tr.Qh[0, 2], ROW2_IS_INDEX_1, name="wrong_token"),
            Mistake(lambda tr: tr.Kh[1] @ tr.Qh[1, 1], HEAD1_IS_INDEX_0, name="wrong_head"),
            Mistake(lambda tr: tr.K @ tr.Q[1], BOTH_HEADS, name="both_heads"),
        ),
        given=trace(withhold="S"),
        wrong=(("tr.S[0, 1]", "ex.withheld"), "tr.Kh[0] @ tr.Qh[0, 1] / np.sqrt(tr.dh)",
               ("[6, 3, -2]", "ex.only_here")),
    ),
    Exercise(
        "02.head2",
        {"ko": "Head 2의 점수 행렬 S (3 × 3)", "en": "Head 2's score matrix S (3 × 3)"},
        lambda tr: tr.S[1],
        "al.scores(tr.Qh[1], tr.Kh[1])",
        (
            {"ko": "Head 2도 Head 1과 똑같이 점수를 계산하지만, 자기 head의 Query와 Key 성분만 씁니다.",
             "en": "Head 2 computes its scores just like Head 1, but only with its own Query and Key components."},
            {"ko": "Head 2는 `tr.Qh`와 `tr.Kh`의 인덱스 1입니다. `al.scores`가 Q Kᵀ를 계산합니다(`@`와 `.T`로 써도 됩니다).",
             "en": "Head 2 is index 1 of `tr.Qh` and `tr.Kh`; `al.scores` computes Q Kᵀ "
                   "(or write it with `@` and `.T`)."},
        ),
        (
            Mistake(lambda tr: tr.Qh[0] @ tr.Kh[0].T, {"ko": "Head 1의 점수 행렬입니다. Head 2는 인덱스 1입니다.",
                                         "en": "That is Head 1's score matrix; Head 2 is index 1."}, name="wrong_head"),
            Mistake(lambda tr: tr.Kh[1] @ tr.Qh[1].T,
                    {"ko": "행과 열이 바뀌었습니다(K Qᵀ). 행은 Query 토큰, 열은 Key 토큰입니다.",
                     "en": "Rows and columns are swapped (K Qᵀ): rows are Query tokens, columns Key tokens."},
                    name="k_q_swapped"),
            Mistake(lambda tr: tr.Q @ tr.K.T,
                    {"ko": "여덟 성분을 모두 써서 두 head의 점수를 더한 셈입니다. Head 2의 성분만 쓰세요.",
                     "en": "You used all eight components, which adds up both heads' scores; "
                           "use only Head 2's components."}, name="both_heads"),
            Mistake(lambda tr: tr.Qh[1].T @ tr.Kh[1],
                    {"ko": "dh × dh 행렬(Qᵀ K)입니다. 점수 행렬은 Q Kᵀ이고, 토큰 × 토큰입니다.",
                     "en": "That is a dh × dh matrix (Qᵀ K); the score matrix is Q Kᵀ, tokens × tokens."}, name="qt_k"),
        ),
        given=trace(withhold="S"),
        wrong=(("tr.S[1]", "ex.withheld"), "al.scores(tr.Qh[1], tr.Kh[1]) / np.sqrt(tr.dh)",
               "al.scores(tr.Qh[1], tr.Kh[1]).T",
               ("tr.Q[:, 4:8] @ tr.K[:, 4:8].T", "ex.only_here")),
    ),
    # 03 — scaling
    Exercise(
        "03.row2",
        {"ko": "Head 1에서 S / √dh의 두 번째 행", "en": "row 2 of S / √dh in Head 1"},
        lambda tr: tr.S_scaled[0, 1],
        "tr.S[0, 1] / np.sqrt(tr.dh)",
        (
            {"ko": "모든 점수를 같은 수, 즉 head 차원의 제곱근으로 나눕니다.",
             "en": "Every score is divided by the same number: the square root of the head dimension."},
            {"ko": "Head 1의 점수 행렬에서 두 번째 행을 고르고, 나누는 값은 `tr.dh`와 `np.sqrt`로 구합니다.",
             "en": "Pick row 2 of Head 1's scores `tr.S`; the divisor comes from `tr.dh` and `np.sqrt`."},
        ),
        (
            Mistake(lambda tr: tr.S[0, 1] / np.sqrt(tr.d),
                    {"ko": "√d로 나누었습니다. 나누는 값은 모델 차원 d가 아니라 head 차원 dh의 제곱근입니다.",
                     "en": "You divided by √d; the divisor is the square root of the head dimension dh, "
                           "not of the model dimension d."}, name="sqrt_d"),
            Mistake(lambda tr: tr.S[0, 1] / tr.dh,
                    {"ko": "dh로 나누었습니다. dh의 제곱근으로 나누세요.",
                     "en": "You divided by dh itself; divide by its square root."}, name="by_dh"),
            Mistake(lambda tr: tr.S[0, 1], {"ko": "나누기 전의 두 번째 행입니다. 이 행을 √dh로 나누세요.",
                                            "en": "That is row 2 before the division; divide it by √dh."},
                    name="no_scale"),
            Mistake(lambda tr: tr.S[0, 2] / np.sqrt(tr.dh), ROW2_IS_INDEX_1, name="wrong_token"),
            Mistake(lambda tr: tr.S[1, 1] / np.sqrt(tr.dh), HEAD1_IS_INDEX_0, name="wrong_head"),
            Mistake(lambda tr: tr.S[0, 1] / tr.d, BY_D, name="by_d"),
        ),
        given=trace(withhold="S_scaled"),
        wrong=(("tr.S_scaled[0, 1]", "ex.withheld"), ("tr.S[0, 1] / 2", "ex.only_here"),
               ("tr.S[0, 1] / np.sqrt(4)", "ex.only_here"), "tr.S[0, 1] / np.sqrt(tr.h)",
               "tr.S[0, 1] * np.sqrt(tr.dh)"),
    ),
    Exercise(
        "03.divisor",
        {"ko": "모델 차원 d와 head 수 h로 구하는, 점수를 나누는 값 (예: d = 512, h = 8)",
         "en": "the number the scores are divided by, from the model dimension d and the heads h (e.g. d = 512, h = 8)"},
        lambda d, h: np.sqrt(d // h),
        "np.sqrt(d // h)",
        (
            {"ko": "점수 하나는 head 안의 성분만으로 계산하므로, 나누는 값도 head 차원에 맞춥니다.",
             "en": "A score is computed from one head's components only, so the divisor follows the head dimension."},
            {"ko": "먼저 d와 h로 head 차원 dh를 구한 뒤, `np.sqrt`로 그 제곱근을 구합니다.",
             "en": "First find the head dimension dh from d and h, then its square root with `np.sqrt`."},
        ),
        (
            Mistake(lambda d, h: np.sqrt(d),
                    {"ko": "√d입니다. 점수는 head 하나의 성분으로 계산하므로 √dh로 나눕니다.",
                     "en": "That is √d; a score comes from one head's components, so it is divided by √dh."},
                    name="sqrt_d"),
            Mistake(lambda d, h: d // h, {"ko": "dh 자체입니다. 나누는 값은 dh의 제곱근입니다.",
                                          "en": "That is dh itself; the divisor is its square root."}, name="by_dh"),
            Mistake(lambda d, h: h, {"ko": "head의 수 h입니다. 나누는 값은 head 차원 dh의 제곱근입니다.",
                                     "en": "That is the number of heads h; the divisor is the square root of the "
                                           "head dimension dh."}, name="by_h"),
            Mistake(lambda d, h: np.sqrt(h),
                    {"ko": "√h, head 수의 제곱근입니다. 나누는 값은 head 차원 dh = d / h의 제곱근입니다.",
                     "en": "That is √h, the square root of the number of heads; the divisor is the square root of "
                           "the head dimension dh = d / h."}, name="sqrt_h"),
            Mistake(lambda d, h: np.sqrt(d) / h,
                    {"ko": "√d를 h로 나누었습니다. 먼저 d를 h로 나누어 dh를 구한 뒤 제곱근을 구하세요.",
                     "en": "You divided √d by h; divide d by h first, to get dh, then take the square root."},
                    name="sqrt_d_over_h"),
            Mistake(lambda d, h: d, {"ko": "모델 차원 d 자체입니다. 나누는 값은 head 차원 dh = d / h의 제곱근입니다.",
                                     "en": "That is the model dimension d itself; the divisor is the square root of "
                                           "the head dimension dh = d / h."}, name="by_d"),
        ),
        note={"ko": "GPT-2(d = 768, h = 12)도 dh = 64이므로 8로 나눕니다.",
              "en": "GPT-2 (d = 768, h = 12) has dh = 64 too, and divides by 8."},
        given=values(("d", "h"), (512, 8), (768, 12), (64, 4), (4096, 32), (72, 2)),
        wrong=(("8", "ex.only_here"), ("np.sqrt(64)", "ex.only_here"), ("np.sqrt(d / 8)", "ex.only_here"), "d / h / 2"),
    ),
]
