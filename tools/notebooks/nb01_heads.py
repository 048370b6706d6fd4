# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "01_heads"

CELLS = [
    md(
        """
# 01 — head 나누기

00에서는 Core Attention 전체를 한 번에 계산했습니다. 이번에는 그 첫 단계인 head 나누기를 살펴봅니다. Core Attention은 head마다 독립적으로 계산합니다. 같은 번호의 Q·K·V가 한 묶음으로 계산에 참여하고, 서로 다른 head의 Q와 K를 곱하지는 않습니다.

이 노트북에서 살펴볼 내용:

- 3 × 8 형태의 Q·K·V를 `al.split_heads`로 head별 3 × 4 조각으로 나누기 (그림 1)
- 한 head의 Q·K·V만 바꾸면 그 head의 결과만 달라진다는 것
- 두 head의 결과 O1, O2를 `al.concat_heads`로 이어 붙여(Concat) 3 × 8 형태의 H 만들기
""",
        """
# 01 — Splitting into heads

Notebook 00 computed all of Core Attention in one go. This one looks at its first step: splitting into heads. Core Attention runs independently in each head: the Q, K and V with the same head number work together, and the Q of one head is never multiplied with the K of another.

What you will see:

- the 3 × 8 Q, K and V split by `al.split_heads` into one 3 × 4 piece per head (Figure 1)
- changing one head's Q, K, V changes that head's result only
- the heads' outputs O1 and O2 joined by `al.concat_heads` (Concat) into the 3 × 8 H
""",
    ),
    code(SETUP),
    md(
        """
## Q·K·V: 3 × 8

글의 예시에서 Q·K·V는 각각 3 × 8 형태입니다. 행 하나가 토큰 하나이고, 각 토큰의 앞 네 성분은 Head 1, 뒤 네 성분은 Head 2에 해당합니다.
""",
        """
## Q, K, V: 3 × 8

In the article's example Q, K and V are 3 × 8 each. Each row is one token; the first four components of each token belong to Head 1, the last four to Head 2.
""",
    ),
    code(
        """
print("Q:", tr.Q.shape, " K:", tr.K.shape, " V:", tr.V.shape)
for i, row in enumerate(tr.Q, start=1):
    print(f"Q{i} =", format_row(row, "values"))
""",
        check=True,
    ),
    md(
        """
## `al.split_heads`: head별로 나누기

`al.split_heads(Q, h)`는 Q의 열을 dh개씩 잘라 head마다 나누어 줍니다. head i(0부터 셈)는 열 i·dh부터 (i+1)·dh − 1까지를 가져갑니다. 결과는 h × T × dh, 즉 2 × 3 × 4 형태입니다. 토큰 3의 Query [−1, 1, 1, 2]는 Head 1이 가져가는 앞 네 성분입니다.
""",
        """
## `al.split_heads`: one piece per head

`al.split_heads(Q, h)` gives head i the columns i·dh … (i+1)·dh − 1. The result is h × T × dh, i.e. 2 × 3 × 4. Token 3's Query [−1, 1, 1, 2] is the first four components, the part that goes to Head 1.
""",
    ),
    code(
        """
Qh = al.split_heads(tr.Q, tr.h)
Kh = al.split_heads(tr.K, tr.h)
Vh = al.split_heads(tr.V, tr.h)
print("Qh:", Qh.shape)
print("Q3           =", format_row(tr.Q[2], "values"))
print("Head 1: Q3   =", format_row(Qh[0, 2], "values"))
print("Head 2: Q3   =", format_row(Qh[1, 2], "values"))
""",
        check=True,
    ),
    md(
        """
그림 1은 이 흐름을 보여 줍니다. head마다 자기 색의 열을 가져가 Core Attention을 계산하고, 결과 O1과 O2를 이어 붙여 H를 만듭니다.
""",
        """
Figure 1 shows this flow. Each head takes the columns in its colour, runs Core Attention on them, and the outputs O1 and O2 are joined into H.
""",
    ),
    figure("al.figures.figure_heads(tr, lang=LANG)",
           "그림 1. Q·K·V의 열을 head별로 나누고(각 head의 열은 자기 색의 테두리), head마다 Core Attention으로 O₁, O₂를 만든 뒤, 같은 토큰 위치끼리 이어 붙여(Concat) H를 만듭니다.",
           "Figure 1: Q, K, V split by columns into heads (each head's columns framed in its colour), Core Attention in each head giving O₁ and O₂, and Concat, token by token, into H."),
    md(
        """
## head는 서로 독립적입니다

각 head는 세 토큰 모두에 대해 계산하지만, 자기 head의 Q·K·V만 사용합니다. 이를 확인하기 위해 Q에서 Head 2에 해당하는 뒤 네 열만 0으로 바꾼 Q′로 다시 계산해 봅니다. 새 결과를 O1′, O2′라고 하면, Head 1의 결과 O1′는 O1과 같고 Head 2의 결과 O2′만 달라집니다.
""",
        """
## The heads are independent

Each head computes for all three tokens, but only with its own Q, K and V. To see this, set only the last four columns of Q (Head 2's part) to 0 and compute again with this Q′. Calling the new outputs O1′ and O2′: Head 1's O1′ equals O1, and only Head 2's O2′ changes.
""",
    ),
    code(
        """
Q_changed = tr.Q.copy()
Q_changed[:, tr.dh:] = 0
changed = al.attention_trace(Q_changed, tr.K, tr.V, h=tr.h)
print("O1′ = O1:", np.array_equal(changed.O[0], tr.O[0]))
print("O2′ = O2:", np.array_equal(changed.O[1], tr.O[1]))
""",
        check=True,
    ),
    md(
        """
계산 순서는 같아도 사용하는 Q·K·V가 다르므로, head마다 토큰별로 정보를 반영하는 비중과 결과가 달라질 수 있습니다. 두 head의 가중치 P에서 토큰 3의 행을 비교해 보세요.
""",
        """
The steps are the same, but the Q, K and V differ, so each head can weigh the tokens differently and end with a different result. Compare token 3's row of the weights P in the two heads.
""",
    ),
    code(
        """
for i in range(tr.h):
    print(f"Head {i + 1}: P[3,·] =", format_row(tr.P[i, 2], "weights"))
""",
        check=True,
    ),
    md(
        """
## Concat: H

O1과 O2는 각각 T × dh, 즉 3 × 4 형태입니다. `al.concat_heads`로 같은 토큰 위치끼리 이어 붙이면 T × d, 즉 3 × 8 형태의 H가 됩니다. 이어 붙이기는 각 head의 값을 그대로 나란히 놓는 단계입니다. H의 앞 네 열은 O1, 뒤 네 열은 O2와 같고, 나누었다가 다시 이어 붙이면 원래 행렬로 돌아옵니다. 여러 head의 성분을 조합하는 일은 이후 출력 projection에서 합니다.
""",
        """
## Concat: H

O1 and O2 are T × dh each, i.e. 3 × 4. `al.concat_heads` joins them token by token into H, which is T × d, i.e. 3 × 8. Concatenation just places each head's values side by side: the first four columns of H equal O1, the last four O2, and splitting then concatenating gives back the original matrix. Mixing the heads' components is the job of the output projection that comes next.
""",
    ),
    code(
        """
H = al.concat_heads(tr.O)
print("O:", tr.O.shape, "→ H:", H.shape)
print("H[:, :dh] = O1:", np.array_equal(H[:, :tr.dh], tr.O[0]))
print("H[:, dh:] = O2:", np.array_equal(H[:, tr.dh:], tr.O[1]))
print("concat(split(Q)) = Q:", np.array_equal(al.concat_heads(Qh), tr.Q))
""",
        check=True,
    ),
    md(
        """
## 직접 해 보기

아래 위젯은 글의 예시를 head 4개로 늘린 모습(h = 4, d = 16)에서 시작합니다. Head 1과 Head 2의 성분 1–4는 글의 숫자 그대로이고, Head 3과 4가 새로 붙었습니다. 위젯 위의 그림은 그 첫 화면을 그대로 그린 것이라, 위젯이 동작하지 않는 곳에서도 볼 수 있습니다. 위젯에서 head 수 h와 head 차원 dh를 바꾸며 Q·K·V가 어떻게 나뉘고 H로 다시 이어지는지 살펴보세요. h = 2, dh = 4로 돌아오면 글의 예시가 그대로 나옵니다.
""",
        """
## Try it

The widget below starts on the article's example grown to four heads (h = 4, d = 16): components 1–4 of Heads 1 and 2 keep the article's numbers, and Heads 3 and 4 are new. The figure above it draws that first picture, so it can be seen even where widgets do not run. In the widget, change the number of heads h and the head width dh and watch how Q, K, V are split and joined back into H; back at h = 2, dh = 4 the article's example returns, number for number.
""",
    ),
    figure("al.figures.figure_heads(al.article_example(d=16, h=4), lang=LANG)",
           "글의 예시를 head 4개로 늘린 모습(T = 3, d = 16, h = 4): 아래 위젯의 첫 화면과 같습니다.",
           "The article's example grown to four heads (T = 3, d = 16, h = 4): the first picture of the widget below."),
    code("al.explorer(lang=LANG, view=\"heads\", h=4)"),
    md("## 연습 문제", "## Exercises"),
    exercise("01.head2_q3", "Head 2에 들어가는 토큰 3의 Query(네 성분)를 `tr.Q`에서 잘라 내 보세요.",
             "Slice token 3's Query as Head 2 sees it (four components) out of `tr.Q`.", 1),
    exercise("01.H_row2",
             "Concat 결과 H에서 토큰 2의 행(여덟 성분)을 O1과 O2(`tr.O[0]`, `tr.O[1]`)로 직접 만들어 보세요.",
             "Build token 2's row of the concatenated H (eight components) yourself from O1 and O2 "
             "(`tr.O[0]`, `tr.O[1]`).", 2),
    next_link("02_scores.ipynb", "다음: 02 — 점수 행렬 S", "Next: 02 — The score matrix S"),
]
