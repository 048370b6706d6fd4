# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "06_weighted_sum"

CELLS = [
    md(
        """
# 06 — PV: 여러 토큰의 Value를 가중합하기

05에서는 Softmax로 점수를 가중치 P로 바꾸었습니다. 마지막으로 가중치 P를 사용해 Value 벡터들을 합칩니다. O = P × V이며, P는 T × T, V는 T × dh이므로 결과 O는 T × dh입니다. 이 예시에서는 3 × 3과 3 × 4를 곱해 3 × 4 출력을 만듭니다.

이 노트북에서 살펴볼 내용:

- P의 행과 V의 행: P의 한 행은 Query 토큰 하나가 쓸 가중치, V의 한 행은 토큰 하나의 Value 벡터
- 토큰 3의 출력 = 0.114 × V1 + 0.042 × V2 + 0.844 × V3 ≈ [0.114, 0.042, 0.844, 1] (그림 5)
- 마지막 성분이 1인 이유, 그리고 출력의 차원이 dh 그대로인 이유
""",
        """
# 06 — PV: the weighted sum of the tokens' Values

Notebook 05 turned the scores into the weights P with the softmax. Finally, the weights P combine the Value vectors. O = P × V; P is T × T and V is T × dh, so the output O is T × dh. In this example 3 × 3 times 3 × 4 gives a 3 × 4 output.

What you will see:

- that one row of P holds the weights one Query token uses, and each row of V is one token's Value vector
- token 3's output = 0.114 × V1 + 0.042 × V2 + 0.844 × V3 ≈ [0.114, 0.042, 0.844, 1] (Figure 5)
- why the last component is 1, and that the output keeps the dimension dh
""",
    ),
    code(SETUP),
    md(
        """
## Value 벡터

Head 1의 Value 벡터입니다. 세 Value의 마지막 성분은 모두 1입니다.
""",
        """
## The Value vectors

These are Head 1's Value vectors. All three have 1 as their last component.
""",
    ),
    code(
        """
V = tr.Vh[0]
for j, row in enumerate(V, start=1):
    print(f"V{j} =", format_row(row, "values"))
""",
        check=True,
    ),
    md(
        """
## 토큰 3의 출력

토큰 3의 출력은 토큰 1의 Value × 0.114 + 토큰 2의 Value × 0.042 + 토큰 3의 Value × 0.844로 볼 수 있습니다. 가중치 하나는 해당 Value 벡터의 네 성분 모두에 곱해집니다. 세 결과를 성분별로 더하면 약 [0.114, 0.042, 0.844, 1]이 됩니다.
""",
        """
## Token 3's output

Token 3's output is token 1's Value × 0.114 + token 2's Value × 0.042 + token 3's Value × 0.844. One weight multiplies all four components of its Value vector. Adding the three results component by component gives ≈ [0.114, 0.042, 0.844, 1].
""",
    ),
    code(
        """
p3 = tr.P[0, 2]
fmt = al.look.format_value
for j in range(tr.T):
    print(f"{fmt(p3[j], 'weights')} × V{j + 1} =", format_row(p3[j] * V[j], "values"))
O = al.weighted_sum(tr.P[0], V)
print(" + ".join(f"{fmt(p3[j], 'weights')}·V{j + 1}" for j in range(tr.T)), "=", format_row(O[2], "values"))
""",
        check=True,
    ),
    md(
        """
마지막 성분이 1인 이유는 세 Value의 마지막 성분이 모두 1이고, 가중치의 합도 1이기 때문입니다.
""",
        """
The last component is 1 because all three Values have 1 as their last component and the weights add up to 1.
""",
    ),
    code(
        """
print("V[·,4] =", format_row(V[:, -1], "values"))
print("Σ P[3,·] =", fmt(p3.sum(), "weights"), "→  O[3,4] =", fmt(O[2, -1]))
""",
        check=True,
    ),
    md(
        """
## 모든 토큰의 출력

다른 토큰도 같은 방식입니다. 토큰 1은 가중치가 [1, 0, 0]이므로 자신의 Value가 그대로 출력됩니다. 토큰 2는 토큰 1과 2의 Value를 가중합하고, 토큰 3은 세 토큰의 Value를 가중합합니다. 여러 토큰의 정보를 합치더라도 출력 벡터의 차원은 dh로 유지되므로, Head 1의 전체 출력 O는 입력 V와 같은 3 × 4 형태입니다.
""",
        """
## Every token's output

The other tokens work the same way. Token 1's weights are [1, 0, 0], so its output is its own Value unchanged. Token 2 takes a weighted sum of the Values of tokens 1 and 2, and token 3 of all three tokens. However many tokens are combined, the output vector keeps dimension dh, so Head 1's whole output O has the same 3 × 4 shape as V.
""",
    ),
    code(
        """
print("P:", tr.P[0].shape, "× V:", V.shape, "→ O:", O.shape)
for i in range(tr.T):
    print(f"P[{i + 1},·] = {format_row(tr.P[0, i], 'weights'):<22} →  O[{i + 1},·] =", format_row(O[i], "values"))
""",
        check=True,
    ),
    md(
        """
그림 5는 토큰 3의 출력을 Value 행들의 가중합으로 보여 줍니다. 아래 위젯에서는 다른 토큰의 행이나 다른 head를 골라 볼 수 있습니다.
""",
        """
Figure 5 shows token 3's output as the weighted sum of the Value rows. In the widget below you can pick another token's row or another head.
""",
    ),
    figure("al.figures.figure_weighted_sum(tr, head=0, row=2, lang=LANG)",
           "그림 5. Head 1에서 토큰 3의 출력은 Value 행들에 가중치 0.114, 0.042, 0.844를 곱해 더한 [0.114, 0.042, 0.844, 1]입니다.",
           "Figure 5: in Head 1, token 3's output is the Value rows weighted by 0.114, 0.042 and 0.844 and added: [0.114, 0.042, 0.844, 1]."),
    code("al.explorer(lang=LANG, view=\"weighted_sum\")"),
    md(
        """
## 다시 그림 1로

Core Attention에서는 Q와 K로 토큰 사이의 점수를 계산하고, 마스크로 참조 범위를 정한 뒤, Softmax로 얻은 가중치에 따라 V를 모읍니다. 어떤 토큰을 얼마나 반영할지는 Q와 K로 계산하고, 실제로 가중합하는 정보는 V에서 가져옵니다. 그림 1의 전체 흐름으로 돌아가면, 각 head에서 이렇게 계산한 결과를 같은 토큰 위치끼리 이어 붙인 뒤(Concat) 출력 projection으로 전달합니다.
""",
        """
## Back to Figure 1

Core Attention computes scores between tokens from Q and K, sets the range each token may see with the mask, and gathers V according to the weights from the softmax. How much of each token to use is computed from Q and K; the information actually summed comes from V. Back in the whole flow of Figure 1, each head's result is concatenated token by token (Concat) and passed on to the output projection.
""",
    ),
    code(
        """
print("O:", tr.O.shape, "→ H = Concat(O1, O2):", al.concat_heads(tr.O).shape)
""",
        check=True,
    ),
    md("## 연습 문제", "## Exercises"),
    exercise("06.out3", "P의 세 번째 행과 Head 1의 V로 토큰 3의 출력을 계산해 보세요.",
             "Compute token 3's output from row 3 of P and Head 1's V.", 1),
    exercise("06.out2", "토큰 2의 출력을 두 Value의 가중합 P[2,1]·V1 + P[2,2]·V2로 직접 써서 계산해 보세요.",
             "Compute token 2's output by writing out the weighted sum of two Values, P[2,1]·V1 + P[2,2]·V2.", 2),
    exercise("06.head2_out1", "Head 2에서 토큰 1의 출력은 무엇일까요? 토큰 1의 가중치가 [1, 0, 0]이라는 점을 이용해 보세요.",
             "What is token 1's output in Head 2? Use the fact that token 1's weights are [1, 0, 0].", 3),
    next_link("07_explorer.ipynb", "다음: 07 — 탐색기", "Next: 07 — The explorer"),
]
