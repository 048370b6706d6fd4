# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, kernel_only, md, next_link

NAME = "00_overview"

CELLS = [
    md(
        """
# 00 — Core Attention 전체 흐름

지난 글에서는 같은 입력에서 Q·K·V를 만들고, 각 벡터의 성분을 여러 head로 구분하는 방식을 살펴봤습니다. 이 노트북 묶음은 그때 내부 계산을 생략했던 Core Attention을 글 「Core Attention: 토큰 사이의 정보 조합하기」와 같은 예시, 같은 숫자, 같은 순서로 따라갑니다. Q와 K로 토큰 사이의 점수를 계산하고, 그 점수를 가중치로 바꾼 뒤, V를 가중합하는 과정입니다.

이 노트북에서 살펴볼 내용:

- 글의 예시(T = 3, d = 8, h = 2)를 처음부터 끝까지 한 번에 계산한 결과
- 토큰 3의 점수가 각 단계에서 어떻게 바뀌는지: 점수 행렬 S → √dh로 나누기 → 마스크 M 더하기 → 가중치 P → 출력 O
- 노트북을 사용하는 방법과 연습 문제 푸는 법
""",
        """
# 00 — Core Attention, the whole flow

The previous article built Q, K and V from the same input and divided the components of each vector among several heads. This set of notebooks follows Core Attention, whose inner workings that article skipped, with the same example, the same numbers and the same order as the article "Core Attention: combining information between tokens": Q and K give scores between tokens, the scores become weights, and the weights make a weighted sum of V.

What you will see:

- the article's example (T = 3, d = 8, h = 2) computed from start to finish in one go
- how token 3's scores change at each stage: score matrix S → divided by √dh → mask M added → weights P → output O
- how to use these notebooks and do the exercises
""",
    ),
    md(
        """
## 노트북 사용법

"""
        + kernel_only("Jupyter에서는 셀을 위에서부터 차례로 실행합니다(Shift + Enter).")
        + """

- 첫 코드 셀이 `attention_lab`을 불러오고(설치되어 있지 않은 Colab이나 VS Code에서는 먼저 설치하고) 글의 예시 `tr = al.article_example()`을 만듭니다.
- `tr`에는 모든 단계의 배열이 각자의 이름으로 들어 있습니다: `tr.Q`, `tr.K`, `tr.V`(T × d), head별로 나눈 `tr.Qh`, `tr.Kh`, `tr.Vh`(h × T × dh), `tr.S`, `tr.S_scaled`, `tr.S_masked`, `tr.E`, `tr.P`(h × T × T), `tr.M`(T × T), `tr.O`(h × T × dh), `tr.H`(T × d).
- 글은 토큰과 head를 1부터 세지만, 코드의 인덱스는 0부터 셉니다. 예를 들어 Head 1에서 토큰 3의 점수 행은 `tr.S[0, 2]`입니다. 출력에 찍히는 `S[3,·]` 같은 이름은 글과 같이 1부터 셉니다.
- 그림은 노트북에 저장되어 있어 GitHub이나 nbviewer에서도 보입니다. 그림 아래의 위젯(슬라이더)은 Jupyter에서 노트북을 실행할 때와, 브라우저에서 계산하는 코스 사이트의 페이지에서 움직입니다. GitHub과 nbviewer에서는 움직이지 않습니다.
- 어디서 무엇이 되는지: Python 커널이 있는 Jupyter에서는 코드가 돌아가고, 모든 연습을 코드로 풉니다. 커널이 없는 페이지(코스 사이트, 노트북 하나를 내보낸 파일, 탐색기 페이지)에서는 코드가 돌지 않습니다. 그래도 탐색기와 단계 위젯은 브라우저에서 계산하며 움직이고, 노트북 00–07의 연습은 '손으로 풀기' 칸에서 손으로 계산해 적으면 브라우저가 바로 확인합니다. 코드로만 풀 수 있는 연습의 자리에는 Python 노트북을 여는 곳(Binder, .ipynb)이 적혀 있습니다. GitHub과 nbviewer에서는 그림과 저장된 출력만 보입니다.
"""
        + kernel_only("""
## 연습 문제 푸는 법 (Jupyter에서)

- 답은 대부분 함수로 씁니다. 연습 셀에는 `answer = lambda tr: ...`가 들어 있고, `...`를 `tr`로 계산하는 코드로 바꿉니다. 예를 들어 Head 1의 점수 행렬이 답이라면 `answer = lambda tr: tr.S[0]`입니다. 크기나 점수 한 행을 받는 연습(`lambda T, w: ...`, `lambda x: ...`)도 같은 방식입니다. 몇몇 연습은 값 하나를 답하므로 `answer = ...`만 들어 있습니다.
- `ex.check`는 이 함수를 글의 예시에 적용하고, 보이지 않는 다른 예시(같은 크기에 다른 숫자, 또는 다른 크기)에도 적용합니다. 그래서 숫자를 직접 적은 답이나 우연히 값만 맞은 계산은 통과하지 못합니다. 계산하는 방법이 맞아야 합니다. 함수가 글의 예시에서 내는 값은 `answer(tr)`로 직접 볼 수 있습니다.
- 코드가 오류를 내면(`.T`를 빠뜨려 `@`로 곱할 수 없을 때, 두 배열의 모양이 맞지 않을 때, 인덱스가 범위를 벗어날 때) `ex.check`가 그 오류를 받아 무엇이 잘못됐는지 한 줄로 알려 줍니다.
- 틀린 답에는 힌트가 한 단계씩 나옵니다. 처음에는 어떻게 생각하면 되는지, 한 번 더 틀리면 어떤 단계를 밟으면 되는지 알려 줍니다. 흔한 실수(√d로 나누기, 마스크 빠뜨리기, 두 head의 성분 섞기 등)에는 그 실수에 맞는 힌트가 바로 나옵니다. 힌트와 피드백은 답의 값을 알려 주지 않습니다.
- 답을 내기 전에 힌트만 보려면 `ex.hint("00.dh", lang=LANG)`를 실행하세요. 한 번 더 실행하면 다음 단계의 힌트가 나옵니다. 해답은 문제 아래의 접힌 블록에 있으며, 펼치거나 `ex.solution("00.dh", lang=LANG)`를 실행할 때만 보입니다.
"""),
        """
## How to use these notebooks

"""
        + kernel_only("In Jupyter, run the cells from the top (Shift + Enter).")
        + """

- The first code cell imports `attention_lab` (installing it first where it is missing, as in Colab or VS Code) and builds the article's example, `tr = al.article_example()`.
- `tr` holds every stage under its own name: `tr.Q`, `tr.K`, `tr.V` (T × d), the per-head `tr.Qh`, `tr.Kh`, `tr.Vh` (h × T × dh), `tr.S`, `tr.S_scaled`, `tr.S_masked`, `tr.E`, `tr.P` (h × T × T), `tr.M` (T × T), `tr.O` (h × T × dh) and `tr.H` (T × d).
- The article counts tokens and heads from 1; indices in code count from 0. Head 1's score row for token 3, for example, is `tr.S[0, 2]`. Printed names such as `S[3,·]` count from 1, as the article does.
- The figures are stored in the notebooks, so GitHub and nbviewer show them. The widgets (sliders) below the figures move when you run the notebook in Jupyter, and on the course site's pages, which compute in the browser; on GitHub and nbviewer they do not.
- What works where: in Jupyter with a Python kernel the code runs, and every exercise is done in code. On a page without a kernel (the course site, a file exported from one notebook, the explorer's page) no code runs; the explorers and step widgets still move, computing in the browser, and the exercises of notebooks 00–07 are done by hand in their "By hand" boxes, which the browser checks at once. An exercise that can only be done in code says there where to open the Python notebook (Binder, the .ipynb). GitHub and nbviewer show the figures and stored outputs only.
"""
        + kernel_only("""
## How to do the exercises (in Jupyter)

- Most answers are functions. An exercise's cell holds `answer = lambda tr: ...`: replace the `...` with code that computes the answer from `tr`. If the answer were Head 1's score matrix, say, you would write `answer = lambda tr: tr.S[0]`. Exercises that give a size or a row of scores (`lambda T, w: ...`, `lambda x: ...`) work the same way. A few exercises ask for a single value and hold `answer = ...` alone.
- `ex.check` applies your function to the article's example and to examples you do not see (the same sizes with other numbers, or other sizes). So an answer with the numbers typed in, or a computation that gets the value right only by chance, does not pass: the method must be right. `answer(tr)` shows what your function gives on the article's example.
- When your code raises an error (a `.T` left out, so that `@` cannot multiply; two arrays whose shapes do not fit; an index past the end), `ex.check` catches it and says in one line what went wrong.
- A wrong answer gets hints one step at a time: first how to think about it, then, after another wrong answer, which step to take. A common mistake (dividing by √d, leaving out the mask, mixing both heads' components, …) gets its own hint at once. Hints and feedback never tell you the answer's value.
- To see a hint before answering, run `ex.hint("00.dh", lang=LANG)`; run it again for the next step. The solution stays folded in the block under the exercise: it shows only when you open the block or run `ex.solution("00.dh", lang=LANG)`.
"""),
    ),
    code(SETUP),
    md(
        """
## 글의 예시

토큰 수 T = 3, 모델 차원 d = 8, head 수 h = 2이므로 head 하나의 차원 dh는 4입니다. Q·K·V는 각각 3 × 8 형태이며, 각 토큰의 앞 네 성분은 Head 1, 뒤 네 성분은 Head 2에 해당합니다.
""",
        """
## The article's example

There are T = 3 tokens, the model dimension is d = 8 and there are h = 2 heads, so each head has dimension dh = 4. Q, K and V are each 3 × 8; the first four components of each token belong to Head 1, the last four to Head 2.
""",
    ),
    code(
        """
print(f"T = {tr.T}, d = {tr.d}, h = {tr.h}, dh = {tr.dh}")
print(tr.shapes())
""",
        check=True,
    ),
    md(
        """
그림 1처럼 각 head는 자신의 Q·K·V로 Core Attention을 계산하고, 두 head의 결과 O1과 O2를 같은 토큰 위치끼리 이어 붙이면(Concat) H가 됩니다.
""",
        """
As in Figure 1, each head runs Core Attention on its own Q, K and V, and the heads' outputs O1 and O2, concatenated token by token (Concat), form H.
""",
    ),
    figure("al.figures.figure_heads(tr, lang=LANG)",
           "글의 예시(T = 3, d = 8, h = 2). Q·K·V를 head별로 나누고, head마다 Core Attention을 계산하고, 두 head의 출력 O₁, O₂를 이어 붙여(Concat) H를 만듭니다.",
           "The article's example (T = 3, d = 8, h = 2): Q, K, V split into heads, Core Attention in each head, and the outputs O₁, O₂ concatenated (Concat) into H."),
    md(
        """
## 토큰 3을 따라가기

Head 1에서 토큰 3의 행이 단계마다 어떻게 바뀌는지 출력합니다. 점수 [2, 0, 6]은 √dh = 2로 나누면 [1, 0, 3]이 되고, 토큰 3은 모든 토큰을 참조할 수 있으므로 마스크 M을 더해도 그대로입니다. Softmax를 거치면 가중치 약 [0.114, 0.042, 0.844]가 되고, 이 가중치로 Value를 가중합한 출력은 약 [0.114, 0.042, 0.844, 1]입니다.
""",
        """
## Following token 3

Here is how token 3's row in Head 1 changes from stage to stage. The scores [2, 0, 6] become [1, 0, 3] after division by √dh = 2, and since token 3 may see every token, adding the mask M leaves them unchanged. The softmax turns them into the weights ≈ [0.114, 0.042, 0.844], and the weighted sum of the Values with these weights is the output ≈ [0.114, 0.042, 0.844, 1].
""",
    ),
    code(
        """
for name in al.pipeline.HEAD_STAGES:
    stage = al.STAGES[name]
    row = stage.matrix(tr, head=0)[2]
    print(f"{stage.formula:<26} {format_row(row, stage.kind)}")
""",
        check=True,
    ),
    md(
        """
같은 단계를 Head 1의 모든 토큰에 대해 그림으로 보면 다음과 같습니다. 회색 빗금 칸은 마스크로 제외한 −∞ 자리입니다.
""",
        """
The same stages for every token of Head 1, as a figure. The grey hatched cells are the −∞ positions removed by the mask.
""",
    ),
    figure("al.figures.figure_stages(tr, head=0, lang=LANG)",
           "Head 1의 모든 단계: S, S / √dh, 마스크 M, S / √dh + M, 가중치 P, 출력 O. 회색 빗금 칸이 −∞입니다.",
           "Every stage of Head 1: S, S / √dh, the mask M, S / √dh + M, the weights P and the output O. Grey hatched cells are −∞."),
    md(
        """
## Concat: H

두 head의 출력 O1, O2는 각각 3 × 4이고, 같은 토큰 위치끼리 이어 붙인 H는 3 × 8입니다. H의 앞 네 열은 Head 1, 뒤 네 열은 Head 2의 결과입니다. H는 이후 출력 projection으로 전달됩니다.
""",
        """
## Concat: H

The heads' outputs O1 and O2 are 3 × 4 each; concatenated token by token they give H, which is 3 × 8. The first four columns of H come from Head 1, the last four from Head 2. H then goes on to the output projection.
""",
    ),
    code(
        """
print("H:", tr.H.shape)
for i, row in enumerate(tr.H, start=1):
    print(f"H[{i},·] =", format_row(row, "values"))
""",
        check=True,
    ),
    md(
        """
## 직접 해 보기

위에서 본 모든 단계를 위젯으로 살펴볼 수 있습니다. 아래 그림은 두 head의 모든 단계를 담은 정적 그림으로, 위젯이 동작하지 않는 곳에서도 보입니다. 그 아래 위젯에서는 T, d, h, 마스크와 예시를 바꾸어 볼 수 있습니다.
""",
        """
## Try it

You can explore all of the stages above with a widget. The figure below is a stored static picture of both heads, visible even where widgets do not run; in the widget under it you can change T, d, h, the mask and the example.
""",
    ),
    figure("al.figures.figure_all_heads(tr, lang=LANG)",
           "두 head의 모든 단계를 head마다 한 줄씩 그렸습니다. 아래 위젯이 처음 보여 주는 값과 같습니다.",
           "Every stage of both heads, one row per head: the same numbers the widget below starts with."),
    code("al.explorer(lang=LANG, view=\"article\")"),
    md(
        """
## 연습 문제

아래 셀은 연습 1의 첫 힌트입니다.
"""
        + kernel_only('위의 "연습 문제 푸는 법"처럼, 답을 내기 전에 힌트를 볼 수 있습니다. 같은 셀을 한 번 더 실행하면 다음 단계의 힌트가 나옵니다.'),
        """
## Exercises

The cell below shows the first hint of exercise 1.
"""
        + kernel_only('As "How to do the exercises" above says, you can ask for a hint before answering; run the same cell again for the next step.'),
    ),
    code('ex.hint("00.dh", lang=LANG)'),
    exercise("00.dh", "글의 예시에서 head 하나의 차원 dh를 계산해 보세요. 보이지 않는 다른 크기의 예시에서도 맞아야 합니다.",
             "Compute the width dh of one head. It must also come out right on examples of other sizes that you do not see.", 1),
    exercise("00.P_shape", "가중치 P 전체(`tr.P`)의 모양을 구해 보세요. (h, T, T)의 세 수입니다.",
             "Find the shape of all the weights P (`tr.P`): the three numbers (h, T, T).", 2),
    md(
        """
## 노트북 목록

| # | 노트북 | 내용 |
| --- | --- | --- |
| 00 | [전체 흐름](00_overview.ipynb) | 글의 예시를 한 번에 계산하기 |
| 01 | [head 나누기](01_heads.ipynb) | Q·K·V를 head로 나누고, head별로 계산하고, Concat하기 |
| 02 | [점수 행렬 S](02_scores.ipynb) | S = QKᵀ, 점수 하나는 내적 |
| 03 | [√dh로 나누기](03_scaling.ipynb) | 스케일링과 그 이유 |
| 04 | [Causal mask](04_causal_mask.ipynb) | 마스크 M을 더해 참조 범위 정하기 |
| 05 | [Softmax](05_softmax.ipynb) | 점수를 가중치 P로 바꾸기 |
| 06 | [Value의 가중합](06_weighted_sum.ipynb) | O = PV |
| 07 | [탐색기](07_explorer.ipynb) | 모든 단계를 한 화면에서 |

글보다 한 걸음 더:

| # | 노트북 | 내용 |
| --- | --- | --- |
| 08 | [여러 가지 마스크](08_masks.ipynb) | sliding window, padding, prefix, 마스크를 적는 여러 방식과 −1e9의 문제 |
| 09 | [PyTorch로 같은 숫자를](09_pytorch.ipynb) | SDPA와 `nn.MultiheadAttention`으로 얻는 글의 숫자 |
| 10 | [생성과 KV 캐시](10_kv_cache.ipynb) | 토큰 하나씩 생성하기, KV 캐시의 크기, GQA와 MQA |
| 11 | [블록 단위 Softmax](11_blockwise_softmax.ipynb) | T × T 행렬 없이 정확하게 계산하기 |
| 12 | [길이가 다른 Query와 Key](12_queries_and_keys.ipynb) | 디코드 단계, 청크 prefill, cross-attention, Causal mask의 두 모서리 |
| 13 | [학습된 Attention](13_learned_attention.ipynb) | 글과 같은 크기의 작은 모델을 학습시키기, 두 head가 배운 두 가지 일 |
""",
        """
## The notebooks

| # | notebook | contents |
| --- | --- | --- |
| 00 | [The whole flow](00_overview.ipynb) | the article's example in one go |
| 01 | [Splitting into heads](01_heads.ipynb) | Q, K, V split into heads, each head on its own, Concat |
| 02 | [The score matrix S](02_scores.ipynb) | S = QKᵀ; one score is a dot product |
| 03 | [Dividing by √dh](03_scaling.ipynb) | scaling, and why |
| 04 | [The causal mask](04_causal_mask.ipynb) | adding the mask M to set which tokens may be seen |
| 05 | [Softmax](05_softmax.ipynb) | turning scores into weights P |
| 06 | [The weighted sum of Values](06_weighted_sum.ipynb) | O = PV |
| 07 | [The explorer](07_explorer.ipynb) | every stage on one screen |

Beyond the article:

| # | notebook | contents |
| --- | --- | --- |
| 08 | [Masks and their conventions](08_masks.ipynb) | sliding window, padding, prefix; the ways code writes a mask, and what −1e9 costs |
| 09 | [The same numbers from PyTorch](09_pytorch.ipynb) | the article's numbers from SDPA and `nn.MultiheadAttention` |
| 10 | [Generation and the KV cache](10_kv_cache.ipynb) | token by token from the cache; its size; GQA and MQA |
| 11 | [The blockwise softmax](11_blockwise_softmax.ipynb) | exact attention without the T × T matrix |
| 12 | [Queries and keys of different lengths](12_queries_and_keys.ipynb) | a decode step, chunked prefill, cross-attention; the two corners of the causal mask |
| 13 | [Attention that was learned](13_learned_attention.ipynb) | a tiny model of the article's size trained in the notebook; the two jobs its two heads learn |
""",
    ),
    next_link("01_heads.ipynb", "다음: 01 — head 나누기", "Next: 01 — Splitting into heads"),
]
