# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "05_softmax"

CELLS = [
    md(
        """
# 05 — Softmax: 점수를 가중치로 바꾸기

04에서는 마스크 M을 더해 미래 토큰의 점수를 −∞로 바꾸었습니다. 이제 토큰 사이의 점수를 각 Value에 곱할 가중치로 바꿉니다. Softmax는 한 행의 점수를 0 이상의 가중치로 바꾸고, 그 합이 1이 되도록 합니다. 계산은 P = softmax(S / √dh + M)이며, Query 토큰 하나에 해당하는 한 행 안에서 이루어집니다.

이 노트북에서 살펴볼 내용:

- 토큰 3의 점수 [1, 0, 3]을 [e¹, e⁰, e³]으로 바꾸고 합으로 나누어 가중치 약 [0.114, 0.042, 0.844]를 얻는 과정 (그림 4)
- exp를 거치면 0이 되는 −∞: 토큰 1은 [1, 0, 0], 토큰 2는 약 [0.818, 0.182, 0]
- exp의 결과를 모은 행렬 E와, E를 행의 합으로 나누어 얻는 P
- 글보다 한 걸음 더: 행의 최댓값을 먼저 빼는 이유. 결과는 같으면서, 점수가 클 때 exp가 넘치는(overflow) 것을 막습니다.
""",
        """
# 05 — Softmax: from scores to weights

Notebook 04 added the mask M and turned the scores of future tokens into −∞. Now the scores between tokens become the weights by which each Value is multiplied. The softmax turns one row of scores into weights that are 0 or more and add up to 1. The computation is P = softmax(S / √dh + M), done within one row, i.e. for one Query token.

What you will see:

- token 3's scores [1, 0, 3] turned into [e¹, e⁰, e³] and divided by their sum, giving the weights ≈ [0.114, 0.042, 0.844] (Figure 4)
- that −∞ becomes 0 through exp, so token 1 gets [1, 0, 0] and token 2 ≈ [0.818, 0.182, 0]
- the matrix E of the exponentials, and P as E divided by its row sums
- one step beyond the article: subtracting the row maximum first gives the same result but keeps exp from overflowing on large scores
""",
    ),
    code(SETUP),
    md(
        """
## 토큰 3: exp를 적용하고 합으로 나누기

Softmax는 각 점수에 지수 함수 exp를 적용한 뒤, 그 행에서 얻은 값들의 합으로 나눕니다. 토큰 3의 점수 [1, 0, 3]을 [e¹, e⁰, e³]으로 바꾸고 e¹ + e⁰ + e³으로 나누면 가중치는 약 [0.114, 0.042, 0.844]가 됩니다. 같은 행 안에서는 점수가 클수록 더 큰 가중치를 받습니다. 점수가 0인 토큰 2도 e⁰ = 1이므로 약 0.042의 가중치를 받아 가중합에 참여합니다.
""",
        """
## Token 3: apply exp, divide by the sum

The softmax applies the exponential function exp to each score, then divides by the sum of the values in that row. Token 3's scores [1, 0, 3] become [e¹, e⁰, e³]; divided by e¹ + e⁰ + e³ they give the weights ≈ [0.114, 0.042, 0.844]. Within a row, a larger score gets a larger weight. Token 2, whose score is 0, still takes part in the weighted sum: e⁰ = 1, so it gets a weight of about 0.042.
""",
    ),
    code(
        """
x = tr.S_masked[0, 2]
e = np.exp(x)
fmt = al.look.format_value
print("S/√dh + M [3,·] =", format_row(x, "scores"))
print("exp            =", format_row(e, "values"))
print("Σ exp          =", fmt(e.sum()))
print("P[3,·]         =", format_row(e / e.sum(), "weights"))
""",
        check=True,
    ),
    md(
        """
## −∞는 0이 됩니다

마스크로 설정한 −∞는 지수 함수를 적용하면 0이 되므로, 해당 위치의 가중치도 0입니다. 토큰 1은 참조 가능한 위치가 하나뿐이라 [1, 0, 0]이 되고, 토큰 2는 약 [0.818, 0.182, 0]이 됩니다. `al.softmax`는 행마다 이 계산을 하며, 모든 행의 합은 1입니다. 출력은 소수점 셋째 자리까지 반올림한 값입니다.
""",
        """
## −∞ becomes 0

The −∞ set by the mask becomes 0 under the exponential, so the weight at that position is 0 as well. Token 1 has only one position it may see, so it gets [1, 0, 0], and token 2 gets ≈ [0.818, 0.182, 0]. `al.softmax` does this for every row, and every row adds up to 1. The printed values are rounded to three decimals.
""",
    ),
    code(
        """
P = al.softmax(tr.S_masked[0])
for i in range(tr.T):
    call = f"softmax({format_row(tr.S_masked[0, i], 'scores')})"
    print(f"P[{i + 1},·] = {call:<22} = {format_row(P[i], 'weights')}")
print("Σ P[i,·] =", format_row(P.sum(axis=-1), "weights"))
""",
        check=True,
    ),
    md(
        """
## 지수 함수 exp의 결과를 행렬 하나로: E

Softmax를 지수 함수 exp를 적용하는 걸음과 합으로 나누는 걸음으로 나누어 보면, 두 걸음 사이에 행렬이 하나 더 있습니다. 점수의 모든 칸에 exp를 적용한 행렬 E입니다. 코드에서는 각 행의 최댓값을 먼저 빼고 exp를 적용하므로(이유는 아래 "글보다 한 걸음 더"에서 다룹니다) E = exp(S / √dh + M − 행의 최댓값)이고, 행마다 가장 큰 값이 e⁰ = 1입니다. −∞ 칸은 exp를 거쳐 정확히 0입니다. E의 각 행을 그 행의 합으로 나누면 가중치 P가 됩니다. 최댓값을 뺀 것은 나눌 때 약분되므로 P는 글의 숫자 그대로입니다.
""",
        """
## The exponentials as a matrix of their own: E

Taken apart, the softmax's two steps, the exponential exp and the division by the sum, have a matrix between them: exp applied to every score, E. The code subtracts each row's maximum before exp (why, in "Beyond the article" below), so E = exp(S / √dh + M − the row's maximum), and each row's largest value is e⁰ = 1. A −∞ cell becomes exactly 0 through exp. Dividing each row of E by that row's sum gives the weights P; the maximum that was subtracted cancels in the division, so P is the article's.
""",
    ),
    code(
        """
E = tr.E[0]
for i in range(tr.T):
    total = E[i].sum()
    print(f"E[{i + 1},·] = {format_row(E[i], 'weights')}   Σ = {al.look.format_approx(total)}   "
          f"E[{i + 1},·] / Σ = {format_row(E[i] / total, 'weights')}")
print("P = E / Σ:", np.allclose(tr.P, tr.E / tr.E.sum(axis=-1, keepdims=True)))
""",
        check=True,
    ),
    figure(
        """
from matplotlib.figure import Figure

fig = Figure(figsize=(10, 3.2), layout="constrained")
for ax, name in zip(fig.subplots(1, 3), ("S_masked", "E", "P")):
    stage = al.STAGES[name]
    al.figures.heatmap(ax, stage.matrix(tr, 0), stage.kind, title=al.words.say(f"stage.{name}", LANG), lang=LANG)
fig
""",
        "Head 1에서 S / √dh + M, 그 행마다 exp를 적용한 E, E를 행의 합으로 나눈 가중치 P.",
        "Head 1's S / √dh + M, the exponentials E of each row, and the weights P, each row of E divided by its sum.",
    ),
    md(
        """
그림 4는 토큰 3의 행이 가중치가 되는 과정을 보여 줍니다. 아래 위젯에서는 다른 행(Query 토큰)이나 head를 골라 볼 수 있습니다.
""",
        """
Figure 4 shows how token 3's row becomes weights. In the widget below you can pick another row (Query token) or head.
""",
    ),
    figure("al.figures.figure_softmax(tr, head=0, row=2, lang=LANG)",
           "그림 4. Head 1에서 토큰 3의 점수 [1, 0, 3]에 exp를 적용하고 그 합으로 나누어 가중치 [0.114, 0.042, 0.844]를 얻습니다.",
           "Figure 4: in Head 1, token 3's scores [1, 0, 3] go through exp and are divided by their sum, giving the weights [0.114, 0.042, 0.844]."),
    code("al.explorer(lang=LANG, view=\"softmax\")"),
    md(
        """
## 글보다 한 걸음 더: 최댓값을 빼는 이유

한 행의 모든 점수에서 같은 수 c를 빼도 Softmax 결과는 같습니다. exp(xᵢ − c) = exp(xᵢ) · exp(−c)이고, exp(−c)는 분자와 분모에 똑같이 곱해져 약분되기 때문입니다. 아래에서 토큰 3의 행으로 확인합니다.
""",
        """
## Beyond the article: why subtract the maximum?

Subtracting the same number c from every score in a row does not change the softmax: exp(xᵢ − c) = exp(xᵢ) · exp(−c), and the factor exp(−c) appears in both numerator and denominator and cancels. Here it is on token 3's row.
""",
    ),
    code(
        """
shifted = x - x.max()
print("x − max x                  =", format_row(shifted, "scores"))
print("softmax(x − max x)         =", format_row(al.softmax(shifted), "weights"))
print("softmax(x) = softmax(x − c):", np.allclose(al.softmax(x), al.softmax(shifted)))
""",
        check=True,
    ),
    md(
        """
그렇다면 왜 빼는 걸까요? 64비트 실수는 약 e⁷⁰⁹보다 큰 수를 나타낼 수 없어서, 점수가 크면 exp가 무한대(∞)로 넘칩니다. 그러면 ∞ / ∞ = NaN이 되어 가중치를 계산할 수 없습니다. 최댓값을 빼면 가장 큰 점수가 0이 되므로 exp의 결과는 언제나 1 이하이고, 넘치지 않습니다. `al.softmax`는 이렇게 계산합니다. 아래 셀은 넘침을 일부러 일으켜 보여 주는 단순한 계산이라, 경고를 끄고(`np.errstate`) 실행한 뒤 결과를 출력합니다.
""",
        """
So why subtract it? A 64-bit float cannot hold numbers much above e⁷⁰⁹, so large scores make exp overflow to infinity (∞). Then ∞ / ∞ = NaN, and there are no weights to be had. After subtracting the maximum, the largest score is 0, so every exp is at most 1 and nothing overflows. This is how `al.softmax` computes. The naive computation below only shows that the overflow happens, so it runs with the warnings switched off (`np.errstate`) and prints what happened.
""",
    ),
    code(
        """
big = np.array([1000.0, 1001.0, 1002.0])
with np.errstate(over="ignore", invalid="ignore"):
    naive_exp = np.exp(big)
    naive = naive_exp / naive_exp.sum()
print("x                    =", format_row(big, "scores"))
print("exp(x)               =", format_row(naive_exp, "values"))
print("exp(x) / Σ exp(x): NaN?", bool(np.isnan(naive).all()))
print("exp(x − max x)       =", format_row(np.exp(big - big.max()), "values"))
print("al.softmax(x)        =", format_row(al.softmax(big), "weights"))
""",
        check=True,
    ),
    md("## 연습 문제", "## Exercises"),
    exercise("05.row3", "`al.softmax`를 쓰지 말고 지수 함수 `np.exp`로 Head 1에서 토큰 3의 가중치를 직접 계산해 보세요.",
             "Compute token 3's weights in Head 1 yourself with the exponential `np.exp`, without `al.softmax`.", 1),
    exercise("05.row2", "같은 방법으로 토큰 2의 가중치를 계산해 보세요. −∞ 자리는 어떻게 될까요?",
             "Compute token 2's weights the same way. What happens at the −∞ position?", 2),
    exercise("05.stable", "점수 한 행 `x`의 Softmax를 넘침 없이 `np.exp`로 계산해 보세요. 이 노트북에서는 `x = np.array([1000, 1001, 1002])`로 확인하고, 보이지 않는 다른 행으로도 확인합니다.",
             "Compute the softmax of a row of scores `x` with `np.exp`, without overflow. It is checked on `x = np.array([1000, 1001, 1002])` and on rows you do not see.", 3),
    next_link("06_weighted_sum.ipynb", "다음: 06 — Value의 가중합", "Next: 06 — The weighted sum of Values"),
]
