# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "03_scaling"

CELLS = [
    md(
        """
# 03 — √dh로 나누기

02에서는 점수 행렬 S = QKᵀ를 계산했습니다. 이어서 S의 모든 값을 √dh로 나눕니다. 내적은 dh개 성분의 곱을 더하므로, 차원이 커질수록 점수의 크기가 커지기 쉽습니다. 점수 차이가 지나치게 커지면 뒤의 Softmax에서 가중치가 한쪽으로 몰릴 수 있어, head 차원에 맞춰 크기를 조절합니다.

이 노트북에서 살펴볼 내용:

- 글의 예시에서 dh = 4이므로 모든 점수를 2로 나누기: 세 번째 행 [2, 0, 6] → [1, 0, 3]
- 글보다 한 걸음 더: 무작위 벡터로 dh를 바꿔 가며, 나누지 않으면 점수의 퍼짐이 √dh만큼 커지고 Softmax가 한쪽으로 몰린다는 것
- √d가 아니라 √dh로 나누어야 하는 이유
""",
        """
# 03 — Dividing by √dh

Notebook 02 computed the score matrix S = QKᵀ. Next, every value of S is divided by √dh. A dot product adds up dh products of components, so scores tend to grow as the dimension grows. If the differences between scores become too large, the softmax that follows can pile all the weight onto one token, so the scores are scaled to the head dimension.

What you will see:

- in the article's example dh = 4, so every score is divided by 2: row 3 [2, 0, 6] → [1, 0, 3]
- one step beyond the article: with random vectors and growing dh, unscaled scores spread out by √dh and the softmax piles up on one token
- why the divisor is √dh and not √d
""",
    ),
    code(SETUP),
    md(
        """
## 글의 예시: 2로 나누기

`al.scale(S, dh)`는 모든 점수를 √dh로 나눕니다. 여기서는 dh = 4이므로 √dh = 2입니다. 강조했던 점수 2는 1이 되고, 세 번째 행 [2, 0, 6]은 [1, 0, 3]이 됩니다. 두 번째 행 [6, 3, −2]는 [3, 1.5, −1]이 되며, 04에서 이 행에 마스크를 적용합니다.
""",
        """
## The article's example: divide by 2

`al.scale(S, dh)` divides every score by √dh. Here dh = 4, so √dh = 2. The highlighted score 2 becomes 1, and row 3 [2, 0, 6] becomes [1, 0, 3]. Row 2, [6, 3, −2], becomes [3, 1.5, −1]; notebook 04 applies the mask to this row.
""",
    ),
    code(
        """
S = tr.S[0]
S_scaled = al.scale(S, tr.dh)
fmt = al.look.format_value
print(f"dh = {tr.dh}, √dh = {fmt(np.sqrt(tr.dh))}")
print("S[3,1]       =", fmt(S[2, 0], "scores"), "→", fmt(S_scaled[2, 0], "scores"))
for i in range(tr.T):
    before, after = format_row(S[i], "scores"), format_row(S_scaled[i], "scores")
    print(f"S[{i + 1},·] = {before:<11} →  S[{i + 1},·] / √dh = {after}")
""",
        check=True,
    ),
    md(
        """
아래 그림의 위 줄은 √dh로 나누지 않은 Head 1의 점수 S와, 그 점수에 Softmax를 적용해 얻은 가중치입니다. 아래 줄은 √dh로 나눈 점수 S / √dh와 그 가중치 P입니다. 두 줄의 점수는 색의 기준이 같으므로, 나눈 뒤 점수 차이가 줄어든 것이 색으로도 보입니다. Softmax는 05에서 자세히 다루지만, 여기서는 점수가 클수록 큰 가중치를 받고 한 행의 가중치를 더하면 1이라는 것만 알면 됩니다. 나누지 않은 점수 [2, 0, 6]에서는 토큰 3이 가중치를 거의 다 가져가고(0.980), √dh로 나눈 [1, 0, 3]에서는 다른 토큰도 가중치를 받습니다. 마스크는 04에서 다루므로 이 그림과 아래 위젯에는 아직 마스크가 없습니다. 그래서 모든 토큰이 모든 토큰을 참조하고, 가중치 행렬에 0인 칸이 없습니다. 그림 제목의 M은 04에서 더할 마스크의 자리이며, 지금은 모든 칸이 0이라 점수를 바꾸지 않습니다.
""",
        """
The top line of the figure below is Head 1's scores S without the division by √dh, and the weights a softmax makes of them; the bottom line is the scores divided by √dh, S / √dh, and their weights P. The scores of both lines share one colour scale, so the smaller differences after the division show in the colours as well. As for the weights, notebook 05 covers the softmax, and here it is enough that a larger score gets a larger weight and each row's weights add up to 1. From the unscaled scores [2, 0, 6] token 3 takes almost all the weight (0.980); from [1, 0, 3], divided by √dh, the other tokens get some too. The mask comes in notebook 04, so neither this figure nor the widget below has one yet: every token sees every token, and no weight is 0. The M in the figure's titles stands for the mask that notebook 04 adds; here every cell of it is 0, so it changes no score.
""",
    ),
    figure("al.figures.figure_scaling(al.article_example(mask=None), head=0, lang=LANG)",
           "마스크 없는 글의 예시, Head 1: √dh로 나누지 않은 S와 그 가중치(위), √dh로 나눈 S / √dh와 그 가중치 P(아래). 세 번째 행의 가중치는 [0.018, 0.002, 0.980]과 [0.114, 0.042, 0.844]입니다.",
           "The article's example without a mask, Head 1: S and the weights it gives, without the division by √dh (top); S / √dh and its weights P (bottom). Row 3 of the weights is [0.018, 0.002, 0.980] against [0.114, 0.042, 0.844]."),
    md(
        """
## 직접 해 보기

아래 위젯에서 head 차원 dh를 바꾸면 나누는 값 √dh가 어떻게 바뀌는지 볼 수 있습니다. 위젯은 글의 예시에서 시작합니다. dh를 키우면 각 head의 Query와 Key에 성분이 덧붙고, 성분 1–4는 글의 숫자 그대로 남습니다. 그래서 점수마다 새로 붙은 성분끼리의 곱이 더해집니다. 어디까지가 글의 숫자인지는 그림 위의 설명 줄이 알려 줍니다. 한 번 움직일 때마다 값이 바뀐 칸에는 잠깐 테두리가 생깁니다.

위젯은 √dh로 나눈 점수로 얻은 가중치 P와, 나누지 않은 점수로 얻었을 가중치를 함께 보여 줍니다. dh를 8까지 키우면서, 나누지 않은 쪽에서 한 토큰이 가중치를 거의 다 가져가는지 비교해 보세요. dh를 다시 4로 내리면 글의 예시가 그대로 돌아옵니다.
""",
        """
## Try it

In the widget below, change the head dimension dh and watch the divisor √dh change. The widget starts on the article's example. Raising dh adds components to every head's Query and Key rows while components 1–4 keep the article's numbers, so every score gains the products of the new components; the line above the picture says which numbers are the article's. After each move, the cells whose value changed are outlined for a moment.

The widget shows both the weights P from the scaled scores and the weights the unscaled scores would give. Raise dh up to 8 and compare: without the division, one token soon takes almost all the weight. Bring dh back to 4 and the article's example is back, number for number.
""",
    ),
    code("al.explorer(lang=LANG, view=\"scaling\")"),
    md(
        """
## 글보다 한 걸음 더: 왜 √dh일까요?

Query와 Key의 성분이 평균 0, 분산 1인 무작위 수라고 해 봅시다. 점수 q·k는 dh개의 곱 qᵢkᵢ를 더한 것이고, 각 곱의 분산은 1이므로 점수의 분산은 dh, 표준편차는 √dh입니다. 그래서 √dh로 나누면 dh와 상관없이 표준편차가 1 근처에 머뭅니다.

아래 셀은 dh를 바꿔 가며 무작위 Q, K(토큰 8개, 예시 400개)로 점수를 만들고, 나누기 전후의 표준편차와 각 행에서 가장 큰 가중치의 평균(max P)을 계산합니다. 나누지 않으면 dh가 커질수록 max P가 1에 가까워집니다. Softmax가 거의 한 토큰에만 가중치를 주는 포화 상태입니다.
""",
        """
## Beyond the article: why √dh?

Suppose the components of Query and Key are random numbers with mean 0 and variance 1. A score q·k adds up dh products qᵢkᵢ, each with variance 1, so the score has variance dh and standard deviation √dh. Dividing by √dh therefore keeps the standard deviation near 1 whatever dh is.

The cell below makes scores from random Q and K (8 tokens, 400 examples) for several dh and computes the standard deviation before and after the division, and the average of each row's largest weight (max P). Without the division max P approaches 1 as dh grows: the softmax saturates and gives nearly all the weight to a single token.
""",
    ),
    code(
        """
rng = np.random.default_rng(0)
dims = [1, 2, 4, 8, 16, 32, 64, 128, 256]
spread, spread_scaled, top, top_scaled = [], [], [], []
for dh in dims:
    Q = rng.standard_normal((400, 8, dh))
    K = rng.standard_normal((400, 8, dh))
    S_raw = al.scores(Q, K)
    S_div = al.scale(S_raw, dh)
    spread.append(S_raw.std())
    spread_scaled.append(S_div.std())
    top.append(al.softmax(S_raw).max(axis=-1).mean())
    top_scaled.append(al.softmax(S_div).max(axis=-1).mean())

print(f"{'dh':>4} {'√dh':>6} {'std(S)':>8} {'std(S/√dh)':>11} {'max P (S)':>10} {'max P (S/√dh)':>14}")
for row in zip(dims, spread, spread_scaled, top, top_scaled):
    dh, s, s_scaled, p, p_scaled = row
    print(f"{dh:>4} {np.sqrt(dh):>6.2f} {s:>8.2f} {s_scaled:>11.2f} {p:>10.3f} {p_scaled:>14.3f}")
""",
    ),
    figure(
        """
from matplotlib.figure import Figure

W, family = al.words.table(LANG), al.figures.font_family(LANG)
fig = Figure(figsize=(8, 3), layout="constrained")
ax_std, ax_top = fig.subplots(1, 2)
ax_std.plot(dims, spread, "o-", label="std(S)")
ax_std.plot(dims, np.sqrt(dims), "k--", linewidth=1, label="√dh")
ax_std.plot(dims, spread_scaled, "s-", label="std(S / √dh)")
ax_std.set(xscale="log", yscale="log", xlabel="dh")
ax_std.set_title(W["nb_spread"], fontfamily=family)
ax_top.plot(dims, top, "o-", label="softmax(S)")
ax_top.plot(dims, top_scaled, "s-", label="softmax(S / √dh)")
ax_top.set(xscale="log", ylim=(0, 1.05), xlabel="dh")
ax_top.set_title(W["nb_top_weight"], fontfamily=family)
for ax in (ax_std, ax_top):
    ax.set_xticks(dims, [str(n) for n in dims])
    ax.legend(fontsize=9)
fig
""",
        "무작위 Q, K에서 dh에 따른 점수의 표준편차(왼쪽)와 행마다 가장 큰 가중치의 평균(오른쪽): √dh로 나누지 않으면 퍼짐이 √dh처럼 커지고 가중치가 한 토큰에 몰립니다.",
        "With random Q and K, the standard deviation of the scores (left) and the mean of each row's largest weight (right) as dh grows: unscaled, the spread grows like √dh and the weight piles onto one token.",
    ),
    md(
        """
## √d가 아니라 √dh로 나눕니다

Multi-head attention에서 점수 하나는 head 안의 dh개 성분으로 계산합니다. 그래서 나누는 값은 모델 차원 d가 아니라 head 차원 dh에 맞춥니다. √d = √(h·dh)로 나누면 점수가 √h배 더 작아져 가중치가 지나치게 고르게 퍼집니다. 글의 예시에서 √d = √8로 나누는 실수를 하면, 토큰 3의 가중치는 [0.114, 0.042, 0.844]가 아니라 아래처럼 달라집니다.
""",
        """
## Divide by √dh, not √d

In multi-head attention one score is computed from the dh components inside a head, so the divisor follows the head dimension dh, not the model dimension d. Dividing by √d = √(h·dh) makes the scores √h times smaller and spreads the weights too evenly. If we made that mistake in the article's example (d = 8), token 3's weights would no longer be [0.114, 0.042, 0.844] but the following.
""",
    ),
    code(
        """
row3 = tr.S[0, 2]
print(f"√dh = {fmt(np.sqrt(tr.dh))}: softmax(S[3,·] / √dh) =", format_row(al.softmax(al.scale(row3, tr.dh)), "weights"))
print(f"√d  = {np.sqrt(tr.d):.3f}: softmax(S[3,·] / √d)  =", format_row(al.softmax(al.scale(row3, tr.d)), "weights"))
""",
        check=True,
    ),
    md("## 연습 문제", "## Exercises"),
    exercise("03.row2", "Head 1에서 S / √dh의 두 번째 행을 `tr.S`와 `np.sqrt`로 계산해 보세요.",
             "Compute row 2 of S / √dh for Head 1 from `tr.S` with `np.sqrt`.", 1),
    exercise("03.divisor", "모델 차원이 d이고 head가 h개인 모델에서 점수를 나누는 값을 d와 h로 구해 보세요. 이 노트북에서는 d = 512, h = 8인 모델로 확인하고, 다른 크기의 모델에서도 확인합니다.",
             "In a model of dimension d with h heads, what number are the scores divided by? Compute it from d and h: it is checked on a model with d = 512 and h = 8, and on models of other sizes.", 2),
    next_link("04_causal_mask.ipynb", "다음: 04 — Causal mask", "Next: 04 — The causal mask"),
]
