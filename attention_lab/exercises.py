"""Exercises for the notebooks: answer checkers with friendly feedback in Korean or English.

    from attention_lab import exercises as ex
    answer = tr.Qh[0, 2] @ tr.Kh[0, 0]
    ex.check("02.score", answer, lang="ko")     # prints "✓ 정답입니다! …"

Every expected answer is computed from the article's example (or from NumPy),
never typed in. `check` prints one line of feedback and returns a `Feedback`,
which is truthy when the answer is right; it adds no output line of its own in
a notebook. An answer left as `...` (or None) is reported as not answered yet.
"""

from dataclasses import dataclass, field

import numpy as np

from .core import softmax
from .examples import article_example, random_example
from .masks import causal_mask

LANGS = ("ko", "en")


@dataclass(frozen=True)
class Exercise:
    """One exercise: what to compute, how to get the expected answer, a hint and a solution."""

    id: str
    task: dict  # {"ko": ..., "en": ...}: the task in a few words
    expected: object  # () -> number or array: the right answer, computed
    hint: dict  # {"ko": ..., "en": ...}
    solution: str  # a Python expression over `al`, `np`, `tr` that answers the exercise
    tol: float = 1e-6  # absolute tolerance; 1e-3 accepts the article's 3-decimal weights
    note: dict = field(default_factory=dict)  # {"ko": ..., "en": ...}: said after a right answer


def _tr():
    return article_example()


_EXERCISES = [
    # 00 — the whole flow
    Exercise(
        "00.dh",
        {"ko": "head 하나의 차원 dh", "en": "the width dh of one head"},
        lambda: _tr().dh,
        {"ko": "dh = d / h 입니다. tr.d와 tr.h를 써 보세요.", "en": "dh = d / h. Try tr.d and tr.h."},
        "tr.d // tr.h",
        note={"ko": "d = 8을 h = 2개의 head가 나누어 가집니다.", "en": "The h = 2 heads share the d = 8 components."},
    ),
    Exercise(
        "00.P_shape",
        {"ko": "가중치 P 전체의 모양 (h, T, T)", "en": "the shape (h, T, T) of all the weights P"},
        lambda: np.array(_tr().P.shape),
        {"ko": "head마다 T × T 행렬이 하나씩 있습니다. tr.P.shape를 확인해 보세요.",
         "en": "Each head has one T × T matrix. Look at tr.P.shape."},
        "tr.P.shape",
    ),
    # 01 — heads
    Exercise(
        "01.head2_q3",
        {"ko": "Head 2에 들어가는 토큰 3의 Query (4개 성분)", "en": "token 3's Query as Head 2 sees it (4 components)"},
        lambda: _tr().Qh[1, 2],
        {"ko": "토큰 3은 행 인덱스 2이고, Head 2는 뒤 네 성분(열 4~7)입니다: tr.Q[2, 4:8].",
         "en": "Token 3 is row index 2, and Head 2 owns the last four components (columns 4–7): tr.Q[2, 4:8]."},
        "tr.Q[2, 4:8]",
    ),
    Exercise(
        "01.H_row2",
        {"ko": "Concat 결과 H에서 토큰 2의 행 (8개 성분)", "en": "token 2's row of the concatenated H (8 components)"},
        lambda: _tr().H[1],
        {"ko": "O1의 토큰 2 행과 O2의 토큰 2 행을 이어 붙입니다: np.concatenate([tr.O[0, 1], tr.O[1, 1]]).",
         "en": "Put token 2's row of O1 and of O2 side by side: np.concatenate([tr.O[0, 1], tr.O[1, 1]])."},
        "np.concatenate([tr.O[0, 1], tr.O[1, 1]])",
    ),
    # 02 — scores
    Exercise(
        "02.score",
        {"ko": "토큰 3의 Query와 토큰 1의 Key 사이의 점수",
         "en": "the score between token 3's Query and token 1's Key"},
        lambda: _tr().S[0, 2, 0],
        {"ko": "같은 위치 성분끼리 곱해서 더합니다(@). 토큰 3의 Query는 tr.Qh[0, 2], 토큰 1의 Key는 tr.Kh[0, 0]입니다.",
         "en": "Multiply matching components and add them up (@). "
                "Token 3's Query is tr.Qh[0, 2], token 1's Key tr.Kh[0, 0]."},
        "tr.Qh[0, 2] @ tr.Kh[0, 0]",
        note={"ko": "이 값이 S의 세 번째 행, 첫 번째 열에 들어갑니다.",
              "en": "This is the value in row 3, column 1 of S."},
    ),
    Exercise(
        "02.row2",
        {"ko": "Head 1의 점수 행렬 S의 두 번째 행", "en": "row 2 of Head 1's score matrix S"},
        lambda: _tr().S[0, 1],
        {"ko": "토큰 2의 Query(tr.Qh[0, 1])를 Head 1의 모든 Key(tr.Kh[0]의 각 행)와 내적합니다.",
         "en": "Take the dot product of token 2's Query (tr.Qh[0, 1]) "
                "with every Key of Head 1 (the rows of tr.Kh[0])."},
        "tr.Kh[0] @ tr.Qh[0, 1]",
    ),
    Exercise(
        "02.head2",
        {"ko": "Head 2의 점수 행렬 S (3 × 3)", "en": "Head 2's score matrix S (3 × 3)"},
        lambda: _tr().S[1],
        {"ko": "Head 2의 Q와 K(인덱스 1)만 씁니다. al.scores가 Q Kᵀ를 계산합니다.",
         "en": "Use only Head 2's Q and K (index 1). al.scores computes Q Kᵀ."},
        "al.scores(tr.Qh[1], tr.Kh[1])",
    ),
    # 03 — scaling
    Exercise(
        "03.row2",
        {"ko": "Head 1에서 S / √dh의 두 번째 행", "en": "row 2 of S / √dh for Head 1"},
        lambda: _tr().S_scaled[0, 1],
        {"ko": "S의 두 번째 행을 √dh = √4 = 2로 나눕니다: tr.S[0, 1] / np.sqrt(tr.dh).",
         "en": "Divide row 2 of S by √dh = √4 = 2: tr.S[0, 1] / np.sqrt(tr.dh)."},
        "tr.S[0, 1] / np.sqrt(tr.dh)",
    ),
    Exercise(
        "03.divisor",
        {"ko": "d = 512, h = 8일 때 점수를 나누는 값",
         "en": "the number the scores are divided by when d = 512, h = 8"},
        lambda: np.sqrt(512 // 8),
        {"ko": "√d가 아니라 √dh로 나눕니다. dh = d / h입니다.", "en": "Divide by √dh, not √d; dh = d / h."},
        "np.sqrt(512 // 8)",
    ),
    # 04 — causal mask
    Exercise(
        "04.mask4",
        {"ko": "T = 4일 때의 Causal mask M (4 × 4)", "en": "the causal mask M for T = 4 (4 × 4)"},
        lambda: causal_mask(4),
        {"ko": "대각선과 그 아래는 0, 대각선 위는 −∞입니다: np.where(np.tril(np.ones((4, 4))) == 1, 0.0, -np.inf).",
         "en": "0 on and below the diagonal, −∞ above it: np.where(np.tril(np.ones((4, 4))) == 1, 0.0, -np.inf)."},
        "np.where(np.tril(np.ones((4, 4))) == 1, 0.0, -np.inf)",
    ),
    Exercise(
        "04.row2",
        {"ko": "Head 1에서 마스크를 더한 두 번째 행", "en": "row 2 of Head 1 after adding the mask"},
        lambda: _tr().S_masked[0, 1],
        {"ko": "스케일링한 점수에 M의 같은 행을 더합니다: tr.S_scaled[0, 1] + tr.M[1].",
         "en": "Add the same row of M to the scaled scores: tr.S_scaled[0, 1] + tr.M[1]."},
        "tr.S_scaled[0, 1] + tr.M[1]",
    ),
    Exercise(
        "04.count",
        {"ko": "T = 3에서 참조할 수 있는 (Query, Key) 쌍의 수",
         "en": "how many (Query, Key) pairs may attend when T = 3"},
        lambda: int((_tr().M == 0).sum()),
        {"ko": "M에서 0인 칸을 셉니다: (tr.M == 0).sum().",
         "en": "Count the cells of M that are 0: (tr.M == 0).sum()."},
        "(tr.M == 0).sum()",
        note={"ko": "토큰 1은 1개, 토큰 2는 2개, 토큰 3은 3개를 참조합니다.",
              "en": "Token 1 sees 1 token, token 2 sees 2, token 3 sees 3."},
    ),
    # 05 — softmax
    Exercise(
        "05.row3",
        {"ko": "exp로 직접 계산한 토큰 3의 가중치", "en": "token 3's weights, computed with exp yourself"},
        lambda: _tr().P[0, 2],
        {"ko": "x = tr.S_masked[0, 2]일 때 np.exp(x) / np.exp(x).sum() 입니다.",
         "en": "With x = tr.S_masked[0, 2], it is np.exp(x) / np.exp(x).sum()."},
        "np.exp(tr.S_masked[0, 2]) / np.exp(tr.S_masked[0, 2]).sum()",
        tol=1e-3,
        note={"ko": "가중치는 0 이상이고 합이 1입니다.", "en": "The weights are ≥ 0 and add up to 1."},
    ),
    Exercise(
        "05.row2",
        {"ko": "토큰 2의 가중치 (−∞ 자리 포함)", "en": "token 2's weights (including the −∞ position)"},
        lambda: _tr().P[0, 1],
        {"ko": "exp(−∞) = 0 입니다. x = tr.S_masked[0, 1]로 np.exp(x) / np.exp(x).sum()을 계산해 보세요.",
         "en": "exp(−∞) = 0. Compute np.exp(x) / np.exp(x).sum() with x = tr.S_masked[0, 1]."},
        "np.exp(tr.S_masked[0, 1]) / np.exp(tr.S_masked[0, 1]).sum()",
        tol=1e-3,
    ),
    Exercise(
        "05.stable",
        {"ko": "점수 [1000, 1001, 1002]의 Softmax", "en": "the softmax of the scores [1000, 1001, 1002]"},
        lambda: softmax(np.array([1000.0, 1001.0, 1002.0])),
        {"ko": "먼저 행의 최댓값을 빼면 exp가 넘치지 않습니다: x - x.max().",
         "en": "Subtract the row maximum first so exp cannot overflow: x - x.max()."},
        "np.exp(np.array([1000, 1001, 1002]) - 1002) / np.exp(np.array([1000, 1001, 1002]) - 1002).sum()",
        tol=1e-3,
        note={"ko": "[0, 1, 2]의 Softmax와 같습니다.", "en": "It is the same as the softmax of [0, 1, 2]."},
    ),
    # 06 — weighted sum
    Exercise(
        "06.out3",
        {"ko": "Head 1에서 토큰 3의 출력 (4개 성분)", "en": "token 3's output in Head 1 (4 components)"},
        lambda: _tr().O[0, 2],
        {"ko": "P의 세 번째 행으로 V의 행들을 가중합합니다: tr.P[0, 2] @ tr.Vh[0].",
         "en": "Weight the rows of V by row 3 of P and add them: tr.P[0, 2] @ tr.Vh[0]."},
        "tr.P[0, 2] @ tr.Vh[0]",
        tol=1e-3,
    ),
    Exercise(
        "06.out2",
        {"ko": "토큰 2의 출력 = P[2,1]·V1 + P[2,2]·V2", "en": "token 2's output = P[2,1]·V1 + P[2,2]·V2"},
        lambda: _tr().O[0, 1],
        {"ko": "tr.P[0, 1, 0] * tr.Vh[0, 0] + tr.P[0, 1, 1] * tr.Vh[0, 1] 처럼 두 항을 더해 보세요.",
         "en": "Add the two terms, e.g. tr.P[0, 1, 0] * tr.Vh[0, 0] + tr.P[0, 1, 1] * tr.Vh[0, 1]."},
        "tr.P[0, 1, 0] * tr.Vh[0, 0] + tr.P[0, 1, 1] * tr.Vh[0, 1]",
        tol=1e-3,
    ),
    Exercise(
        "06.head2_out1",
        {"ko": "Head 2에서 토큰 1의 출력", "en": "token 1's output in Head 2"},
        lambda: _tr().O[1, 0],
        {"ko": "토큰 1은 자기 자신만 참조하므로 가중치가 [1, 0, 0]입니다. Head 2의 V를 보세요: tr.Vh[1].",
         "en": "Token 1 sees only itself, so its weights are [1, 0, 0]. Look at Head 2's V: tr.Vh[1]."},
        "tr.Vh[1, 0]",
    ),
    # 07 — explorer
    Exercise(
        "07.H_shape",
        {"ko": "T = 5, d = 12, h = 3일 때 H의 모양", "en": "the shape of H when T = 5, d = 12, h = 3"},
        lambda: np.array(random_example(5, 12, 3).H.shape),
        {"ko": "Concat 뒤의 H는 항상 T × d입니다. 탐색기에서 T, d, h를 바꿔 확인해 보세요.",
         "en": "After Concat, H is always T × d. Change T, d, h in the explorer to see it."},
        "al.random_example(5, 12, 3).H.shape",
    ),
    Exercise(
        "07.no_mask_row1",
        {"ko": "마스크 없이 계산한 Head 1 토큰 1의 가중치", "en": "token 1's weights in Head 1 without a mask"},
        lambda: article_example(mask=None).P[0, 0],
        {"ko": "마스크를 끄면 토큰 1도 미래 토큰을 봅니다: al.article_example(mask=None).P[0, 0].",
         "en": "Without the mask token 1 sees future tokens too: al.article_example(mask=None).P[0, 0]."},
        "al.article_example(mask=None).P[0, 0]",
        tol=1e-3,
    ),
]

EXERCISES = {e.id: e for e in _EXERCISES}


_TEXT = {
    "right": {"ko": "✓ 정답입니다!", "en": "✓ Correct!"},
    "wrong": {"ko": "✗ 아직 아닙니다.", "en": "✗ Not yet."},
    "hint": {"ko": "힌트:", "en": "Hint:"},
    "unanswered": {
        "ko": "아직 답이 없습니다 (과제: {task}). `...`를 계산하는 코드로 바꾸고 셀을 다시 실행하세요.",
        "en": "No answer yet (task: {task}). Replace `...` with code that computes it, then run the cell again.",
    },
    "shape": {
        "ko": "✗ 모양이 다릅니다: 모양 {expected}인 답이 필요한데, 모양 {got}인 답이 들어왔습니다.",
        "en": "✗ Wrong shape: the answer should have shape {expected}, but it has shape {got}.",
    },
    "not_numbers": {
        "ko": "✗ 답은 숫자(또는 숫자 배열)여야 합니다. 들어온 값: {got}.",
        "en": "✗ The answer must be a number (or an array of numbers). Got: {got}.",
    },
}


@dataclass(frozen=True)
class Feedback:
    """The result of `check`: truthy when right. `ok` is None when there is no answer yet.

    `check` has already printed `text`, so in a notebook this object displays
    nothing (no extra `Out[…]` line); its repr is the text.
    """

    exercise_id: str
    ok: object  # True, False or None (not answered)
    text: str

    def __bool__(self):
        return bool(self.ok)

    def __repr__(self):
        return self.text

    def _ipython_display_(self):
        pass  # already printed by check()


def _validate_lang(lang):
    if lang not in LANGS:
        raise ValueError(f"lang: use 'ko' or 'en', got {lang!r}.")


def get(exercise_id):
    """The registered Exercise with this id, or a ValueError listing the known ids."""
    try:
        return EXERCISES[exercise_id]
    except (KeyError, TypeError):
        raise ValueError(
            f"exercise_id: unknown exercise {exercise_id!r}. Known exercises: {', '.join(EXERCISES)}."
        ) from None


def expected(exercise_id):
    """The expected answer of an exercise, as a float array (computed, never typed)."""
    return np.asarray(get(exercise_id).expected(), dtype=float)


def _shape_text(shape):
    return "(" + ", ".join(str(n) for n in shape) + (",)" if len(shape) == 1 else ")")


def _judge(ex, answer, lang):  # -> (ok, text)
    if answer is ... or answer is None:
        return None, _TEXT["unanswered"][lang].format(task=ex.task[lang])
    want = np.asarray(ex.expected(), dtype=float)
    try:
        got = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        text = repr(answer)
        return False, _TEXT["not_numbers"][lang].format(got=text if len(text) <= 40 else text[:37] + "…")
    if want.size == 1 and got.size == 1:
        want, got = want.reshape(()), got.reshape(())
    if got.shape != want.shape:
        text = _TEXT["shape"][lang].format(expected=_shape_text(want.shape), got=_shape_text(got.shape))
        return False, f"{text} {_TEXT['hint'][lang]} {ex.hint[lang]}"
    if np.isnan(got).any() or not np.allclose(got, want, rtol=0.0, atol=ex.tol):
        return False, f"{_TEXT['wrong'][lang]} {_TEXT['hint'][lang]} {ex.hint[lang]}"
    note = ex.note.get(lang)
    return True, _TEXT["right"][lang] + (f" {note}" if note else "")


def check(exercise_id, answer, lang="en"):
    """Check an answer, print ✓ / ✗ with a hint / "no answer yet", and return a Feedback (truthy if right)."""
    _validate_lang(lang)
    ex = get(exercise_id)
    ok, text = _judge(ex, answer, lang)
    print(text)
    return Feedback(exercise_id, ok, text)


def solution(exercise_id):
    """The code (one expression over `al`, `np`, `tr`) that answers the exercise."""
    return get(exercise_id).solution
