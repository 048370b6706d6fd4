# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, md, next_link

NAME = "07_explorer"

CELLS = [
    md(
        """
# 07 — 탐색기: 모든 단계를 한 화면에서

00~06에서는 Core Attention을 한 단계씩 따라왔습니다. head 나누기, 점수 행렬 S, √dh로 나누기, 마스크 M, Softmax로 얻은 가중치 P, 그리고 Value의 가중합과 Concat입니다. 이 노트북에서는 그 단계들을 한 화면에 모은 탐색기를 사용합니다.

이 노트북에서 살펴볼 내용:

- 글의 예시(T = 3, d = 8, h = 2)에서 Head 1의 모든 단계를 한 그림으로 정리한 정적 그림 (GitHub이나 nbviewer처럼 위젯이 동작하지 않는 곳에서도 보입니다)
- 토큰 수 T, head 수 h, head 차원 dh, 마스크, 예시(seed)를 바꾸면 모든 단계가 바로 다시 계산되는 탐색기
- 탐색기로 확인하는 연습 문제
""",
        """
# 07 — The explorer: every stage on one screen

Notebooks 00–06 followed Core Attention one stage at a time: splitting into heads, the score matrix S, dividing by √dh, the mask M, the weights P from the softmax, and the weighted sum of the Values followed by Concat. This notebook gathers all of those stages in one explorer.

What you will see:

- a static figure of every stage of Head 1 for the article's example (T = 3, d = 8, h = 2), visible even where widgets do not run (GitHub, nbviewer)
- an explorer in which changing the number of tokens T, the number of heads h, the head width dh, the mask or the example (seed) recomputes every stage at once
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
    code("al.plotting.figure_stages(tr, head=0)"),
    md(
        """
두 head를 나란히 보면, 같은 순서로 계산해도 head마다 가중치와 결과가 다르다는 것을 확인할 수 있습니다.
""",
        """
Side by side, the two heads follow the same steps yet end with different weights and outputs.
""",
    ),
    code("al.plotting.figure_all_heads(tr)"),
    md(
        """
## 탐색기

아래 탐색기는 모든 단계를 한 화면에 보여 줍니다. 처음에는 글의 예시(T = 3, d = 8, h = 2, Causal mask)에서 시작하며, 조작할 수 있는 항목은 다음과 같습니다.

- **예시**: 글의 예시와 무작위 예시(seed) 사이를 오갑니다. **↺ 글의 예시** 버튼은 언제든 글의 예시와 처음 선택으로 돌아갑니다.
- **토큰 수 T**: 점수 행렬 S, 마스크 M, 가중치 P는 T × T입니다. 토큰을 늘려도 기존 토큰의 값은 그대로입니다.
- **head 수 h**, **head 차원 dh**: 모델 차원은 d = h·dh로 정해집니다. Q·K·V와 Concat 결과 H는 T × d입니다.
- **마스크**: Causal mask를 쓰면 대각선 위쪽이 −∞가 되고, 마스크를 끄면 모든 Key 토큰을 참조합니다.
- **head**: 어느 head의 단계를 볼지 고릅니다. 모든 head를 한꺼번에 볼 수도 있습니다.
- **seed**: 무작위 예시에서 Q·K·V로 쓸 작은 정수를 고릅니다. 같은 seed는 언제나 같은 예시입니다.
- **Query 토큰**, **Key 토큰**: 내적으로 풀어 볼 점수 하나를 고릅니다.
- **행 (Query 토큰)**: Softmax와 Value의 가중합을 자세히 볼 행을 고릅니다.

위젯은 노트북을 직접 실행할 때만 동작합니다. 저장된 화면만 보고 있다면 위의 정적 그림이 같은 단계를 보여 줍니다.
""",
        """
## The explorer

The explorer below shows every stage on one screen. It starts on the article's example (T = 3, d = 8, h = 2, causal mask). Its controls:

- **example**: switch between the article's example and a random example (seed). The **↺ article example** button brings back the article's example and the first choices at any time.
- **T tokens**: the score matrix S, the mask M and the weights P are T × T. Adding a token leaves the other tokens' values as they were.
- **h heads**, **dh per head**: together they set the model dimension d = h·dh. Q, K, V and the concatenated H are T × d.
- **mask**: with the causal mask the cells above the diagonal become −∞; without a mask every Key token is visible.
- **head**: which head's stages to show, or all heads at once.
- **seed**: picks the small integers of Q, K, V in a random example. The same seed always gives the same example.
- **Query token**, **Key token**: the one score to break down as a dot product.
- **row (Query token)**: the row whose softmax and weighted sum of Values are shown in detail.

The widget works only when you run the notebook yourself. If you are reading the stored page, the static figures above show the same stages.
""",
    ),
    code("al.explorer(lang=LANG)"),
    md(
        """
## 연습 문제

탐색기에서 값을 바꿔 가며 답을 예상해 본 뒤, 코드로 계산해 확인하세요.
""",
        """
## Exercises

Predict each answer with the explorer first, then compute it in code to check.
""",
    ),
    exercise(
        "07.H_shape",
        "T = 5, d = 12, h = 3일 때 Concat 결과 H의 모양은 무엇일까요? 탐색기에서 먼저 확인한 뒤, `al.random_example`로 계산해 보세요.",
        "What is the shape of the concatenated H when T = 5, d = 12, h = 3? Check it in the explorer, then compute it with `al.random_example`.",
        1,
    ),
    exercise(
        "07.no_mask_row1",
        "글의 예시에서 마스크를 끄면 토큰 1의 가중치(Head 1)는 어떻게 될까요? `al.article_example(mask=None)`으로 계산해 보세요. Causal mask를 쓸 때의 `[1, 0, 0]`과 비교해 보세요.",
        "In the article's example, what are token 1's weights (Head 1) without the mask? Compute them with `al.article_example(mask=None)` and compare with `[1, 0, 0]` under the causal mask.",
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
    next_link("08_masks.ipynb", "글보다 한 걸음 더: 08 — 여러 가지 마스크와 표기 방식", "Beyond the article: 08 — Masks and their conventions"),
]
