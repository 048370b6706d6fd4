# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "02_scores"

CELLS = [
    md(
        """
# 02 — QKᵀ: 토큰 사이의 점수 계산하기

01에서는 Q·K·V를 head별로 나누었습니다. 이제 Head 1 안으로 들어가 Core Attention의 첫 단계를 계산합니다. Q의 각 토큰과 K의 각 토큰을 짝지어 점수를 계산하는 단계입니다.

이 노트북에서 살펴볼 내용:

- S = Q × Kᵀ의 모양: 3 × 4와 4 × 3을 곱한 3 × 3 점수 행렬 S
- 내적으로 계산하는 점수 하나: 토큰 3의 Query와 토큰 1의 Key 사이의 점수 2 (그림 2)
- S의 행과 열이 뜻하는 것: 행은 정보를 모으는 Query 토큰, 열은 참조되는 Key 토큰
""",
        """
# 02 — QKᵀ: scores between tokens

Notebook 01 split Q, K and V into heads. Now we step inside Head 1 and compute the first stage of Core Attention: pairing every token of Q with every token of K and computing a score for each pair.

What you will see:

- the shape of S = Q × Kᵀ: 3 × 4 times 4 × 3 gives the 3 × 3 score matrix S
- that one score is the dot product of a Query vector and a Key vector: the score 2 between token 3's Query and token 1's Key (Figure 2)
- that the rows of S are the Query tokens that gather information and the columns the Key tokens they refer to
""",
    ),
    code(SETUP),
    md(
        """
## 모양: T × dh 곱하기 dh × T

Head 하나에서 Q와 K는 모두 T × dh 형태입니다. K의 행과 열을 바꾼 Kᵀ는 dh × T가 되므로, S = Q × Kᵀ의 결과는 T × T입니다. `al.scores`가 이 곱을 계산합니다.
""",
        """
## Shapes: T × dh times dh × T

In one head, Q and K are both T × dh. Kᵀ, K with rows and columns swapped, is dh × T, so S = Q × Kᵀ is T × T. `al.scores` computes this product.
""",
    ),
    code(
        """
Q1, K1 = tr.Qh[0], tr.Kh[0]
S = al.scores(Q1, K1)
print(Q1.shape, "×", K1.T.shape, "→", S.shape)
""",
        check=True,
    ),
    md(
        """
## 점수 하나는 내적입니다

점수 하나는 Query 벡터와 Key 벡터의 같은 위치 성분을 곱한 뒤 더하는 내적입니다. 토큰 3의 Query는 [−1, 1, 1, 2], 토큰 1의 Key는 [1, −1, 2, 1]입니다. 아래 셀은 성분별 곱을 하나씩 적고 더합니다.
""",
        """
## One score is a dot product

One score is the dot product of a Query vector and a Key vector: multiply the components in the same position, then add. Token 3's Query is [−1, 1, 1, 2] and token 1's Key is [1, −1, 2, 1]. The cell below writes out each product and adds them up.
""",
    ),
    code(
        """
q3, k1 = Q1[2], K1[0]
print("Q3 =", format_row(q3, "values"))
print("K1 =", format_row(k1, "values"))

fmt = al.look.format_value
terms = [f"{fmt(a)} × {'(' + fmt(b) + ')' if b < 0 else fmt(b)}" for a, b in zip(q3, k1)]
print(" + ".join(terms), "=", fmt(q3 @ k1))
print("S[3,1] =", fmt(S[2, 0], "scores"))
""",
        check=True,
    ),
    md(
        """
이 값은 S의 세 번째 행, 첫 번째 열에 들어갑니다. 행은 정보를 모을 Query 토큰, 열은 참조할 Key 토큰에 해당합니다. S의 세 번째 행 [2, 0, 6]은 토큰 3의 Query를 토큰 1·2·3의 Key와 각각 비교한 결과입니다.
""",
        """
This value goes into row 3, column 1 of S. Rows are the Query tokens that gather information, columns the Key tokens they refer to. Row 3 of S, [2, 0, 6], compares token 3's Query with the Keys of tokens 1, 2 and 3.
""",
    ),
    code(
        """
for i, row in enumerate(S, start=1):
    print(f"S[{i},·] =", format_row(row, "scores"))
""",
        check=True,
    ),
    md(
        """
그림 2는 Q1과 K1ᵀ를 곱해 S를 만드는 과정입니다. 테두리로 강조한 칸이 위에서 계산한 내적입니다. 글의 그림 2에는 S를 √dh로 나눈 결과도 있는데, 그 단계는 다음 노트북에서 다룹니다.
""",
        """
Figure 2 builds S as the product of Q1 and K1ᵀ; the outlined cells are the dot product above. The article's Figure 2 also divides S by √dh: that step is the next notebook's.
""",
    ),
    figure("al.figures.figure_scores(tr, head=0, query=2, key=0, scaled=False, lang=LANG)",
           "그림 2. Head 1에서 Q₁ × K₁ᵀ = S. 테두리 친 토큰 3의 Query와 토큰 1의 Key의 내적 2가 S의 세 번째 행, 첫 번째 열에 들어갑니다.",
           "Figure 2: Q₁ × K₁ᵀ = S in Head 1. The outlined dot product of token 3's Query and token 1's Key, 2, goes to row 3, column 1 of S."),
    md(
        """
## 직접 해 보기

아래 위젯에서 Query 토큰과 Key 토큰을 골라 다른 점수의 내적을 살펴보세요. head를 바꾸면 Head 2의 점수 행렬도 볼 수 있습니다. 위젯이 동작하지 않는 곳에서는 위의 그림 2가 같은 내용을 보여 줍니다.
""",
        """
## Try it

In the widget below, pick a Query token and a Key token to see the dot product behind another score; switch the head to see Head 2's score matrix. Where widgets do not run, Figure 2 above shows the same.
""",
    ),
    code("al.explorer(lang=LANG, view=\"scores\")"),
    md("## 연습 문제", "## Exercises"),
    exercise("02.score", "Head 1에서 토큰 3의 Query와 토큰 1의 Key 사이의 점수를 내적으로 직접 계산해 보세요.",
             "Compute the score between token 3's Query and token 1's Key in Head 1 yourself, as a dot product.", 1),
    exercise("02.row2", "Head 1의 점수 행렬 S에서 두 번째 행(토큰 2의 Query를 모든 Key와 비교한 점수)을 계산해 보세요.",
             "Compute row 2 of Head 1's score matrix S: token 2's Query compared with every Key.", 2),
    exercise("02.head2", "Head 2의 점수 행렬 S(3 × 3)를 계산해 보세요. Head 2는 자신의 Q와 K만 씁니다. `@`로 곱한다면 어느 쪽에 `.T`가 필요한지 생각해 보세요.",
             "Compute Head 2's score matrix S (3 × 3). Head 2 uses only its own Q and K. If you multiply with `@`, think about which side needs a `.T`.", 3),
    next_link("03_scaling.ipynb", "다음: 03 — √dh로 나누기", "Next: 03 — Dividing by √dh"),
]
