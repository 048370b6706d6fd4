# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""What exercises of several notebooks share: the hints of slips made in many places (√d instead of √dh, the
wrong head, a row off by one, the mask left out, …), and steps as a learner writes them by hand."""

import numpy as np


def naive_softmax(x):  # exp without subtracting the maximum: overflows to ∞ / ∞ = NaN for large scores
    with np.errstate(over="ignore", invalid="ignore"):
        return np.exp(x) / np.exp(x).sum()


def exp_over_sum(x):  # exp of a row over its sum, as a learner writes it by hand (x may hold −∞)
    e = np.exp(x - x.max())
    return e / e.sum()


def lower(T, k=0):  # -> [T, T]: 1 on and below the k-th diagonal, 0 above
    return np.tril(np.ones((T, T)), k=k)


ROW2_IS_INDEX_1 = {
    "ko": "세 번째 행입니다. 인덱스는 0부터 세므로 두 번째 행은 인덱스 1입니다.",
    "en": "That is row 3: indices count from 0, so row 2 is index 1.",
}
HEAD1_IS_INDEX_0 = {
    "ko": "Head 2에서 나온 값입니다. Head 1은 인덱스 0입니다.",
    "en": "That comes from Head 2; Head 1 is index 0.",
}
SQRT_D = {  # the slip notebook 00 promises to name: √d, of the model dimension, where √dh belongs
    "ko": "√d(모델 차원 d의 제곱근)로 나누었습니다. 점수는 head 하나의 차원 dh = d / h의 제곱근 √dh로 나눕니다.",
    "en": "You divided by √d, the square root of the model dimension d; the scores are divided by √dh, the square "
          "root of one head's dimension dh = d / h.",
}
BY_D = {
    "ko": "모델 차원 d로 나누었습니다. 점수는 head 하나의 차원 dh = d / h의 제곱근 √dh로 나눕니다.",
    "en": "You divided by the model dimension d; the scores are divided by √dh, the square root of one head's "
          "dimension dh = d / h.",
}
BOTH_HEADS = {
    "ko": "여덟 성분을 모두 써서 두 head의 성분을 섞었습니다. Head 1의 점수는 Head 1의 성분(`tr.Qh[0]`, `tr.Kh[0]`)만으로 계산합니다.",
    "en": "You used all eight components, mixing both heads; Head 1's scores use Head 1's components only "
          "(`tr.Qh[0]`, `tr.Kh[0]`).",
}
NOT_MINUS_1E9 = {
    "ko": "−∞ 대신 아주 큰 음수를 썼습니다. M은 정확히 −∞(`-np.inf`)이고, exp를 거치면 정확히 0이 됩니다.",
    "en": "You used a large negative number instead of −∞; M holds exactly −∞ (`-np.inf`), "
          "which exp turns into exactly 0.",
}
ONES_AND_ZEROS = {
    "ko": "참조할 수 있는 칸이 1, 없는 칸이 0인 행렬입니다. M은 점수에 더하는 행렬이므로 참조할 수 있는 칸이 0, "
          "없는 칸이 −∞입니다.",
    "en": "That marks the allowed cells with 1 and the others with 0; M is added to the scores, "
          "so allowed cells are 0 and the others −∞.",
}
DIVIDE_BY_THE_SUM = {
    "ko": "지수 함수 exp까지만 계산했습니다. 가중치의 합이 1이 되도록 이 값들의 합으로 나누세요.",
    "en": "That is exp of the scores; divide by their sum so that the weights add up to 1.",
}
ZERO_NOT_MINUS_INF = {
    "ko": "가려야 할 칸에 0을 썼습니다. 0은 보통의 점수라서 Softmax가 그 칸에도 가중치를 줍니다. 마스크는 그 칸에 −∞를 둡니다(`tr.M`을 더하세요).",
    "en": "You put 0 in the cells to hide; 0 is an ordinary score, which the softmax still gives weight to. "
          "The mask puts −∞ there (add `tr.M`).",
}
COLUMN_SUMS = {
    "ko": "행렬 전체에 exp를 적용한 뒤 열의 합(`axis=0`)으로 나누었습니다. 가중치는 한 행, 즉 Query 토큰 하나 안에서 합이 1이므로 행의 합(`axis=-1`, `keepdims=True`)으로 나눕니다.",
    "en": "You applied exp to the whole matrix and divided by the column sums (`axis=0`); each row, one Query "
          "token, must add up to 1, so divide by the row sums (`axis=-1`, `keepdims=True`).",
}
FROM_S = {
    "ko": "√dh로 나누기 전의 점수 S로 계산했습니다. 마스크까지 더한 점수(`tr.S_masked`)에서 시작하세요.",
    "en": "You started from S, before the division by √dh; start from the masked scores (`tr.S_masked`).",
}
NO_MASK = {
    "ko": "마스크 없이 계산했습니다. 미래 토큰의 칸은 −∞이어서 가중치가 0이어야 합니다. 마스크까지 더한 점수(`tr.S_masked`)를 쓰세요.",
    "en": "You left out the mask: the future tokens' cells are −∞ and must get weight 0; use the masked scores "
          "(`tr.S_masked`).",
}
WEIGHT_EACH_VALUE = {
    "ko": "Value를 가중치 없이 더했습니다. 각 Value 행에 가중치를 곱한 뒤 더하세요.",
    "en": "You added the Values without their weights; multiply each Value row by its weight first.",
}
