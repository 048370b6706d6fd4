# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "07_explorer"

CELLS = [
    md(
        """
# 07 — 탐색기: 모든 단계를 한 화면에서

00~06에서는 Core Attention을 한 단계씩 따라왔습니다. head 나누기, 점수 행렬 S, √dh로 나누기, 마스크 M, Softmax로 얻은 가중치 P, 그리고 Value의 가중합과 Concat입니다. 이 노트북에서는 그 단계들을 한 화면에 모은 탐색기를 사용합니다.

이 노트북에서 살펴볼 내용:

- 글의 예시(T = 3, d = 8, h = 2)에서 Head 1의 모든 단계를 한 그림으로 정리한 정적 그림 (GitHub이나 nbviewer처럼 위젯이 동작하지 않는 곳에서도 보입니다)
- 토큰 수 T, head 수 h, head 차원 dh, 마스크, 예시(seed)를 바꾸면 모든 단계가 바로 다시 계산되는 탐색기
- 직접 넣은 Q, K, V로 보는 탐색기: 토큰 하나의 행을 고쳐 쓰면 모든 단계가 따라 바뀝니다
- 탐색기로 확인하는 연습 문제
""",
        """
# 07 — The explorer: every stage on one screen

Notebooks 00–06 followed Core Attention one stage at a time: splitting into heads, the score matrix S, dividing by √dh, the mask M, the weights P from the softmax, and the weighted sum of the Values followed by Concat. This notebook gathers all of those stages in one explorer.

What you will see:

- a static figure of every stage of Head 1 for the article's example (T = 3, d = 8, h = 2), visible even where widgets do not run (GitHub, nbviewer)
- an explorer in which changing the number of tokens T, the number of heads h, the head width dh, the mask or the example (seed) recomputes every stage at once
- the explorer on Q, K, V of your own: rewrite one token's row and every stage follows
- exercises you can check with the explorer
""",
    ),
    code(SETUP),
    md(
        """
## 글의 예시, 모든 단계

먼저 글의 예시를 Head 1의 단계 순서대로 한 그림에 놓습니다. 왼쪽부터 점수 행렬 S, S / √dh, 마스크 M을 더한 점수, 가중치 P, 출력 O입니다. −∞ 칸은 회색 빗금으로 표시했습니다.
""",
        """
## The article's example, every stage

First, the article's example, with Head 1's stages in order in one figure: the score matrix S, S / √dh, the scores with the mask M added, the weights P and the output O. The −∞ cells are grey and hatched.
""",
    ),
    figure("al.figures.figure_stages(tr, head=0, lang=LANG)",
           "글의 예시에서 Head 1의 모든 단계: S, S / √dh, 마스크 M, S / √dh + M, 가중치 P, 출력 O.",
           "Every stage of Head 1 in the article's example: S, S / √dh, the mask M, S / √dh + M, the weights P and the output O."),
    md(
        """
두 head를 나란히 보면, 같은 순서로 계산해도 head마다 가중치와 결과가 다르다는 것을 확인할 수 있습니다.
""",
        """
Side by side, the two heads follow the same steps yet end with different weights and outputs.
""",
    ),
    figure("al.figures.figure_all_heads(tr, lang=LANG)",
           "두 head의 모든 단계를 head마다 한 줄씩: 아래 탐색기의 첫 화면과 같은 값입니다.",
           "Every stage of both heads, one row per head: the numbers the explorer below starts with."),
    md(
        """
## 탐색기

아래 탐색기는 모든 단계를 한 화면에 보여 줍니다. 처음에는 글의 예시(T = 3, d = 8, h = 2, Causal mask)에서 시작하며, 그림 위의 설명 줄이 지금 숫자가 어디에서 왔는지 늘 알려 줍니다. 조작할 수 있는 항목은 다음과 같습니다.

- **예시**: 글의 예시와 무작위 예시(seed) 중에서 고릅니다. 글의 예시는 크기를 바꾸면 함께 자랍니다. 토큰 1–3, Head 1–2, 성분 1–4는 글의 숫자 그대로이고, 나머지 자리는 토큰·head·성분마다 정해진 작은 정수입니다. 크기를 바꿔도 예시는 바뀌지 않으며, T = 3, h = 2, dh = 4로 돌아오면 글의 예시가 정확히 그대로 돌아옵니다. **↺ 글의 예시** 버튼은 언제든 글의 예시와 처음 선택으로 돌아갑니다.
- **토큰 수 T**: 점수 행렬 S, 마스크 M, 가중치 P는 T × T입니다. 토큰을 늘려도 기존 토큰의 값은 그대로입니다.
- **head 수 h**, **head 차원 dh**: 모델 차원은 d = h·dh로 정해집니다. Q·K·V와 Concat 결과 H는 T × d입니다. 숫자를 다 적기에 너무 넓은 행렬(d = 64 등)은 색으로만 보여 주며, 칸 위에 마우스를 올리면 값이 보입니다.
- **마스크**: Causal mask를 쓰거나 끌 수 있습니다. 다른 마스크(sliding window, padding, prefix)는 08에서, 여러 Query head가 K·V head를 나눠 쓰는 방법은 10에서 탐색기에 더해집니다.
- **head**: 어느 head의 단계를 볼지 고릅니다. 모든 head를 한꺼번에 볼 수도 있습니다.
- **seed**: 무작위 예시에서 Q·K·V로 쓸 작은 정수를 고릅니다. 같은 seed는 언제나 같은 예시입니다.
- **Query 토큰**, **Key 토큰**: 내적으로 풀어 볼 점수 하나를 고릅니다. **행 (Query 토큰)**: Softmax와 Value의 가중합을 자세히 볼 행을 고릅니다. 행렬의 칸을 눌러서 고를 수도 있습니다.
- **바뀐 칸 표시**: 한 번 움직일 때마다 값이 바뀐 칸에 잠깐 테두리가 생깁니다.

어디서 무엇이 되는지: 탐색기는 Python 커널이 있는 Jupyter에서도, 커널 없이 브라우저에서 계산하는 페이지에서도 움직입니다. 커널이 없는 페이지는 이 노트북의 웹 페이지(코스 사이트)와, 탐색기 하나를 담은 한 파일짜리 페이지(`python -m attention_lab.explorer --out 파일.html`, 또는 탐색기의 `save_html`)입니다. JavaScript를 실행하지 않는 곳(GitHub, nbviewer)에서는 움직이지 않으며, 위의 두 그림이 탐색기의 첫 화면과 같은 단계를 보여 줍니다. 아래의 연습은 Jupyter에서는 코드로 풀고, 커널이 없는 페이지에서는 '손으로 풀기' 칸이 있는 연습을 손 계산으로 풉니다.
""",
        """
## The explorer

The explorer below shows every stage on one screen. It starts on the article's example (T = 3, d = 8, h = 2, causal mask), and the line above the picture always says where its numbers come from. Its controls:

- **example**: the article's example or a random example (seed). The article's example grows with the sizes: tokens 1–3, Heads 1–2 and components 1–4 keep the article's numbers, and every other place holds a small integer fixed by its token, head and component. Moving a size never switches the example, and coming back to T = 3, h = 2, dh = 4 shows exactly the article's example again. The **↺ article example** button brings back the article's example and the first choices at any time.
- **T tokens**: the score matrix S, the mask M and the weights P are T × T. Adding a token leaves the other tokens' values as they were.
- **h heads**, **dh per head**: together they set the model dimension d = h·dh. Q, K, V and the concatenated H are T × d. A matrix too wide for its numbers (d = 64, say) shows its colours; hover over a cell to read its value.
- **mask**: the causal mask, on or off. Notebook 08 adds the other masks (sliding window, padding, prefix) to the explorer, and notebook 10 a control for Query heads that share K and V heads.
- **head**: which head's stages to show, or all heads at once.
- **seed**: picks the small integers of Q, K, V in a random example. The same seed always gives the same example.
- **Query token**, **Key token**: the one score to break down as a dot product. **row (Query token)**: the row whose softmax and weighted sum of Values are shown in detail. Clicking a cell of a heatmap picks it too.
- **mark changes**: after each move, the cells whose value changed are outlined for a moment.

What works where: the explorer moves in Jupyter with a Python kernel, and on pages that compute in the browser with no kernel: this notebook's web page (the course site), and a one-file page holding one explorer (`python -m attention_lab.explorer --out file.html`, or the explorer's `save_html`). Where no JavaScript runs (GitHub, nbviewer) it does not move, and the two figures above show the stages it starts with. The exercises below are done in code in Jupyter; on a page without a kernel, those with a "By hand" box are done by hand.
""",
    ),
    code("al.explorer(lang=LANG, view=\"article\")"),
    md(
        """
## 직접 넣은 숫자로

탐색기는 직접 만든 Q, K, V(토큰 16개, 성분 64개까지)와 head 수 h도 받습니다. `attention_trace`와 같은 검사를 거치므로, 잘못된 입력에는 같은 오류 메시지가 나옵니다. 아래에서는 글의 예시에서 첫 번째 Key 토큰의 Head 1 성분을 [1, −1, 2, 3]으로 바꿨습니다. 그림은 그 결과의 모든 단계입니다.

위젯에서는 Q, K, V 중 하나와 토큰을 고른 뒤 그 행을 고쳐 쓰고 Enter를 누르면 모든 단계가 함께 바뀝니다. 예를 들어 첫 번째 Key 토큰을 [1, -1, 2, 1, 2, 0, 0, 1]로 되돌려 보세요. 숫자 개수가 맞지 않거나 숫자가 아닌 것이 섞이면 무엇이 잘못됐는지 한 줄로 알려 주고, 그림은 그대로 둡니다.
""",
        """
## Your own numbers

The explorer also takes Q, K and V of your own (up to 16 tokens and 64 components) with the number of heads h. They go through the same checks as `attention_trace`, so a bad input gets the same error message. Below, Head 1's components of the first Key token of the article's example become [1, −1, 2, 3]; the figure shows every stage that follows.

In the widget, pick Q, K or V and a token, rewrite its row and press Enter: every stage follows. Try putting the first Key token back to [1, -1, 2, 1, 2, 0, 0, 1]. A row with the wrong count of numbers, or with something that is not a number, gets one line saying what is wrong, and the picture stays as it was.
""",
    ),
    figure(
        """
K_mine = tr.K.copy()
K_mine[0, :4] = [1, -1, 2, 3]  # the first Key token, Head 1
mine = al.attention_trace(tr.Q, K_mine, tr.V, h=2)
al.figures.figure_stages(mine, head=0, lang=LANG)
""",
        "첫 번째 Key 토큰의 Head 1 성분을 [1, −1, 2, 3]으로 바꾼 뒤 Head 1의 모든 단계: 아래 위젯의 첫 화면과 같습니다.",
        "Every stage of Head 1 after the first Key token's Head 1 components become [1, −1, 2, 3]: the first picture of the widget below.",
    ),
    code("al.explorer(Q=tr.Q, K=K_mine, V=tr.V, h=2, lang=LANG, view=\"article\")"),
    md(
        """
## 연습 문제

탐색기에서 값을 바꿔 가며 답을 예상해 본 뒤 확인하세요. Jupyter에서는 코드로, 커널이 없는 페이지에서는 '손으로 풀기' 칸에서 손으로 계산해 확인합니다.
""",
        """
## Exercises

Predict each answer with the explorer first, then check it: in code in Jupyter, or by hand in the "By hand" box on a page without a kernel.
""",
    ),
    exercise(
        "07.H_shape",
        "토큰이 T개, 모델 차원이 d, head가 h개일 때 Concat 결과 H의 모양을 T, d, h로 구해 보세요. 이 노트북에서는 T = 5, d = 12, h = 3으로 확인하고, 다른 크기로도 확인합니다. 탐색기에서 먼저 본 뒤, `al.random_example`로 계산해도 됩니다.",
        "What is the shape of the concatenated H for T tokens, model dimension d and h heads? Compute it from T, d and h: it is checked at T = 5, d = 12, h = 3 and at other sizes. Look in the explorer first; `al.random_example` can compute it too.",
        1,
    ),
    exercise(
        "07.no_mask_row1",
        "마스크가 없다면 Head 1에서 토큰 1의 가중치는 어떻게 될까요? 탐색기에서 마스크를 끄고 먼저 예상해 본 뒤, `tr`의 스케일링한 점수로 계산해 보세요. Causal mask를 쓸 때의 `[1, 0, 0]`과 비교해 보세요.",
        "Without a mask, what would token 1's weights in Head 1 be? Predict them in the explorer with the mask off, then compute them from `tr`'s scaled scores, and compare with `[1, 0, 0]` under the causal mask.",
        2,
    ),
    md(
        """
## 정리

Core Attention은 head마다 같은 순서로 계산합니다. Q와 K로 점수를 계산하고(S = QKᵀ), √dh로 나누고, 마스크 M을 더해 참조 범위를 정하고, Softmax로 가중치 P를 얻은 뒤, 그 가중치로 V를 가중합합니다(O = PV). 각 head의 결과를 같은 토큰 위치끼리 이어 붙인(Concat) H는 출력 projection으로 전달됩니다.
""",
        """
## Summary

Core Attention runs the same steps in every head: scores from Q and K (S = QKᵀ), division by √dh, the mask M added to set which tokens may be seen, weights P from the softmax, and the weighted sum of V with those weights (O = PV). The heads' outputs, concatenated token by token (Concat) into H, go on to the output projection.
""",
    ),
    md(
        """
## H 다음 단계: 출력 projection과 Residual stream

Concat한 H(T × d, 글의 예시에서는 3 × 8)는 Core Attention의 마지막 결과이지만, Attention 블록은 여기서 끝나지 않습니다. 지난 글에서 본 것처럼 H는 출력 projection을 거칩니다. 출력 projection은 d × d 행렬 W_O를 곱하는 단계이고, 그 결과 H·W_O도 T × d입니다. Concat은 각 head의 값을 나란히 놓기만 했으므로, 여러 head의 성분을 조합하는 곳이 바로 이 곱셈입니다. H·W_O의 성분 하나는 H의 한 행 전체, 즉 두 head의 성분 여덟 개를 모두 씁니다. 마지막으로 이 결과를 Residual stream x(T × d)에 더합니다. x는 Q·K·V를 만들 때 입력으로 쓴 값이고, 더한 x + H·W_O도 T × d이므로 다음 블록이 같은 방식으로 읽습니다.

아래 셀은 이 흐름의 모양을 따라갑니다. W_O와 x는 이 글의 범위 밖이라 작은 정수로 된 설명용 값을 씁니다. 실제 모델에서는 학습으로 정해지는 값입니다.
""",
        """
## After H: the output projection and the residual stream

The concatenated H (T × d, 3 × 8 in the article's example) is Core Attention's last result, but not the end of the attention block. As the previous article showed, H goes through the output projection: a multiplication by a d × d matrix W_O, whose result H·W_O is T × d as well. Concat only placed each head's values side by side, so this product is where the heads' components are combined: one component of H·W_O uses a whole row of H, all eight components of both heads. Last, the result is added to the residual stream x (T × d), the input from which Q, K and V were made; x + H·W_O is T × d too, so the next block reads it the same way.

The cell below follows the shapes of this flow. W_O and x are beyond this article, so they are small illustrative integers here; in a real model they are learned.
""",
    ),
    code(
        """
rng = np.random.default_rng(1)
W_O = rng.integers(-1, 2, size=(tr.d, tr.d))  # d × d, illustrative numbers: a real model learns them
x = rng.integers(-2, 3, size=(tr.T, tr.d))  # the residual stream the block made Q, K, V from
projected = tr.H @ W_O  # (T, d) @ (d, d) -> (T, d)
print(f"H {tr.H.shape} @ W_O {W_O.shape} → H·W_O {projected.shape}")
print(f"x {x.shape} + H·W_O {projected.shape} → {(x + projected).shape}")
heads = [slice(head * tr.dh, (head + 1) * tr.dh) for head in range(tr.h)]  # each head's columns of H
parts = [tr.H[0, cols] @ W_O[cols, 0] for cols in heads]  # H·W_O[1,1] = Head 1's part + Head 2's part
fmt = al.look.format_value
terms = " + ".join(fmt(p) if p >= 0 else f"({fmt(p)})" for p in parts)
print(al.words.say("nb_mixed", LANG, parts=terms, total=fmt(projected[0, 0])))
""",
        check=True,
    ),
    next_link("08_masks.ipynb", "글보다 한 걸음 더: 08 — 여러 가지 마스크와 표기 방식", "Beyond the article: 08 — Masks and their conventions"),
]
