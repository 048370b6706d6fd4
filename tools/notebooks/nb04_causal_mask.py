# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "04_causal_mask"

CELLS = [
    md(
        """
# 04 — 마스크: 참조할 수 있는 토큰 구분하기

03까지는 각 Query와 모든 Key의 점수를 계산하고 √dh로 나누었습니다. 하지만 다음 토큰을 예측하는 디코더에서는 현재 위치가 자기 자신과 이전 위치만 참조하도록 제한합니다. 각 위치의 출력으로 다음 토큰을 예측할 때, 뒤에 있는 토큰의 정보가 미리 들어가면 안 되기 때문입니다. 이 참조 범위를 정하는 것이 Causal mask입니다.

이 노트북에서 살펴볼 내용:

- 마스크 M을 하나의 행렬로 보기: 참조 가능한 위치는 0, 제외할 위치는 −∞ (그림 3)
- 마스크를 곱하지 않고 더하는 이유: −∞ + 점수 = −∞, 그리고 exp(−∞) = 0
- 마스크를 더한 결과: 두 번째 행 [3, 1.5, −1]은 [3, 1.5, −∞]가 되고, 세 번째 행 [1, 0, 3]은 그대로
- 글보다 한 걸음 더: 뒤쪽 토큰의 K와 V를 바꿔도 앞쪽 토큰의 출력이 그대로인지 확인하기
""",
        """
# 04 — The mask: which tokens may be seen

Up to notebook 03 we computed the score of every Query with every Key and divided by √dh. A decoder that predicts the next token, however, lets each position look only at itself and the positions before it: when the output at a position is used to predict the next token, information from later tokens must not leak in. The causal mask sets this range.

What you will see:

- the mask M as a matrix of its own: 0 where a token may be seen, −∞ where it may not (Figure 3)
- why the mask is added rather than multiplied: −∞ + score = −∞, and exp(−∞) = 0
- row 2 [3, 1.5, −1] becoming [3, 1.5, −∞] while row 3 [1, 0, 3] stays as it is
- one step beyond the article: changing a later token's K and V leaves the outputs of earlier tokens exactly unchanged
""",
    ),
    code(SETUP),
    md(
        """
## 마스크 M

토큰 1은 토큰 1만, 토큰 2는 토큰 1과 2를, 토큰 3은 토큰 1·2·3을 참조합니다. 점수 행렬로 보면 대각선은 자기 자신이고, 그 왼쪽은 이전 토큰, 오른쪽은 미래 토큰입니다. `al.causal_mask(T)`는 참조 가능한 위치에서 0, 제외할 위치(대각선 위쪽)에서 −∞인 T × T 행렬 M을 만듭니다.
""",
        """
## The mask M

Token 1 sees only token 1, token 2 sees tokens 1 and 2, and token 3 sees tokens 1, 2 and 3. In the score matrix the diagonal is the token itself, the left of it earlier tokens and the right of it future tokens. `al.causal_mask(T)` builds the T × T matrix M that is 0 where a token may be seen and −∞ where it may not (above the diagonal).
""",
    ),
    code(
        """
M = al.causal_mask(tr.T)
for i, row in enumerate(M, start=1):
    print(f"M[{i},·] =", format_row(row, "scores"))
""",
        check=True,
    ),
    md(
        """
## 왜 더할까요?

마스크는 스케일링한 점수에 더합니다: S / √dh + M. 0을 더한 점수는 그대로이고, −∞를 더한 점수는 어떤 값이었든 −∞가 됩니다. 다음 단계인 Softmax는 점수에 지수 함수를 적용하는데, exp(−∞) = 0이므로 그 위치의 가중치는 정확히 0이 됩니다. 두 번째 행의 세 칸으로 확인해 봅니다.
""",
        """
## Why add?

The mask is added to the scaled scores: S / √dh + M. A score plus 0 stays as it is; a score plus −∞ becomes −∞, whatever it was. And since exp(−∞) = 0 in the exponential that the softmax applies next, the weight at that position becomes exactly 0. Here are the three cells of row 2.
""",
    ),
    code(
        """
fmt = al.look.format_value
for j in range(tr.T):
    s, m = tr.S_scaled[0, 1, j], M[1, j]
    added = fmt(m, "scores") if m == 0 else f"({fmt(m, 'scores')})"
    equation = f"{fmt(s, 'scores')} + {added} = {fmt(s + m, 'scores')}"
    print(f"{equation:<18} exp = {fmt(np.exp(s + m))}")
""",
        check=True,
    ),
    md(
        """
`al.apply_mask`가 이 덧셈을 합니다. 두 번째 행 [3, 1.5, −1]은 [3, 1.5, −∞]가 되고, 세 번째 행 [1, 0, 3]은 그대로입니다.
""",
        """
`al.apply_mask` does this addition. Row 2 [3, 1.5, −1] becomes [3, 1.5, −∞], and row 3 [1, 0, 3] is unchanged.
""",
    ),
    code(
        """
S_scaled = tr.S_scaled[0]
S_masked = al.apply_mask(S_scaled, M)
for i in range(tr.T):
    before, after = format_row(S_scaled[i], "scores"), format_row(S_masked[i], "scores")
    print(f"S/√dh[{i + 1},·] = {before:<12} →  + M = {after}")
""",
        check=True,
    ),
    md(
        """
그림 3은 S / √dh, M, 그리고 둘을 더한 결과를 나란히 보여 줍니다. −∞ 칸은 회색 빗금으로 표시해 작은 숫자와 구별했습니다. 아래 위젯에서는 토큰 수 T를 바꾸거나 마스크를 끄고 켜 볼 수 있습니다.
""",
        """
Figure 3 shows S / √dh, M and their sum side by side. The −∞ cells are grey and hatched so that they cannot be mistaken for small numbers. In the widget below you can change the number of tokens T or switch the mask off and on.
""",
    ),
    figure("al.figures.figure_mask(tr, head=0, lang=LANG)",
           "그림 3. Head 1의 S / √dh에 마스크 M(0과 −∞)을 더한 결과. 대각선 위쪽(미래 토큰)이 −∞가 되고, 두 번째 행은 [3, 1.5, −∞]입니다.",
           "Figure 3: Head 1's S / √dh plus the mask M (0 and −∞). Above the diagonal (future tokens) becomes −∞; row 2 is [3, 1.5, −∞]."),
    code("al.explorer(lang=LANG, view=\"mask\")"),
    md(
        """
## 글보다 한 걸음 더: 미래 정보가 새지 않는지 확인하기

Causal mask가 제대로 동작한다면, 토큰 3의 Key와 Value를 어떻게 바꾸어도 토큰 1과 2의 출력은 그대로여야 합니다. 토큰 1과 2는 토큰 3을 참조하지 않기 때문입니다. 토큰 3의 K와 V(모든 head의 성분)를 바꾸어 다시 계산한 뒤, 모든 head에서 토큰 1·2의 출력 O가 가장 크게 달라진 정도(최대 차이)를 구합니다. 마스크 없이 같은 실험을 하면 앞쪽 토큰의 출력도 달라집니다.
""",
        """
## Beyond the article: checking that nothing leaks from the future

If the causal mask works, tokens 1 and 2 must keep exactly the same outputs however token 3's Key and Value change, because tokens 1 and 2 never look at token 3. We change token 3's K and V (all heads' components), compute again, and measure how much the outputs O of tokens 1 and 2 changed in every head (the largest difference). The same experiment without the mask changes the earlier tokens' outputs as well.
""",
    ),
    code(
        """
K_new, V_new = tr.K.copy(), tr.V.copy()
K_new[2] = K_new[2] + 3
V_new[2] = -2 * V_new[2]

for mask in ["causal", None]:
    before = al.article_example(mask=mask)
    after = al.attention_trace(tr.Q, K_new, V_new, h=tr.h, mask=mask)
    diff = np.abs(after.O[:, :2] - before.O[:, :2]).max()
    print(f"mask = {str(mask):<6}  max |ΔO[1..2]| = {al.look.format_value(diff):<5}  "
          + al.words.say("nb_unchanged", LANG, same=bool(diff == 0)))
""",
        check=True,
    ),
    md("## 연습 문제", "## Exercises"),
    exercise("04.mask4",
             "토큰이 T개일 때의 Causal mask M(T × T)을 `al.causal_mask`를 쓰지 말고 직접 만들어 보세요. 이 노트북에서는 T = 4로 확인하고, 다른 T로도 확인합니다. `np.tril`과 `np.where`가 도움이 됩니다.",
             "Build the causal mask M for T tokens (T × T) yourself, without `al.causal_mask`; it is checked at T = 4 and at other T. "
             "`np.tril` and `np.where` help.", 1),
    exercise("04.row2", "Head 1에서 스케일링한 점수의 두 번째 행에 마스크를 더한 결과를 계산해 보세요.",
             "Add the mask to row 2 of Head 1's scaled scores.", 2),
    exercise("04.count", "Causal mask에서 참조할 수 있는 (Query 토큰, Key 토큰) 쌍은 몇 개일까요? `tr.M`으로 세어 보세요. 글의 예시(T = 3)와, 보이지 않는 다른 T의 예시에서 확인합니다.",
             "Under the causal mask, how many (Query token, Key token) pairs may attend? Count them with `tr.M`: it is checked on the article's example (T = 3) and on examples of other T that you do not see.", 3),
    next_link("05_softmax.ipynb", "다음: 05 — Softmax", "Next: 05 — Softmax"),
]
