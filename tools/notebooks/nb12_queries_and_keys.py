# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "12_queries_and_keys"

CELLS = [
    md(
        """
# 12 — 길이가 다른 Query와 Key: 디코드 단계, 청크 prefill, cross-attention

지금까지는 Query 토큰과 Key 토큰의 수가 같았습니다. 글의 예시에서 Q·K·V는 모두 3 × 8이고 점수 행렬 S는 3 × 3입니다. 하지만 10–11에서 만난 계산은 정사각형이 아닙니다. KV 캐시로 토큰 하나를 생성하는 단계는 새 토큰의 Query 하나와 지금까지의 Key 토큰 t개로 계산하고, 긴 프롬프트를 몇 토큰씩 나누어 읽는 청크 prefill은 새 Query 토큰 몇 개와 지금까지의 모든 Key 토큰으로 계산합니다. 디코더가 인코더의 출력을 읽는 cross-attention에서는 두 수가 처음부터 다릅니다. Query 토큰이 T_q개, Key 토큰이 T_k개이면 S와 P는 head마다 T_q × T_k, 마스크 M은 T_q × T_k, 출력 O는 T_q × dh, H는 T_q × d입니다.

이때 "Causal mask"는 두 가지로 읽을 수 있고, 라이브러리마다 다른 쪽을 씁니다. 이 노트북은 글의 숫자로 두 가지를 나란히 놓고, 어느 쪽이 맞는 계산인지, 어느 라이브러리가 어느 쪽을 뜻하는지 확인합니다.

이 노트북에서 살펴볼 내용:

- 토큰 3의 디코드 단계를 (1 × 3) 계산으로: 점수 [2, 0, 6] → [1, 0, 3], 가중치 [0.114, 0.042, 0.844], 출력 [0.114, 0.042, 0.844, 1]이 전체 계산의 세 번째 행과 같다는 것
- 두 토큰씩 읽는 청크 prefill: (2 × 2)와 (1 × 3) 두 번의 계산이 한 번에 계산한 H와 같고, 청크 크기를 바꿔도 같다는 것
- Query 토큰 2개가 Key 토큰 3개를 읽는 cross-attention (마스크 없음)
- Causal mask의 두 모서리, 오른쪽 아래와 왼쪽 위: 볼 것이 없는 행이 생기는 곳, 라이브러리마다 어느 쪽인지, 그리고 캐시에 SDPA의 `is_causal=True`를 쓰면 오류 없이 다른 숫자가 나오는 함정
- sliding window를 쓰는 방법들과, 한 칸 차이(off-by-one)가 숫자를 바꾸는 모습
- 여러 시퀀스를 한 행에 이어 붙이는 packed sequences
""",
        """
# 12 — Queries and keys of different lengths: a decode step, chunked prefill, cross-attention

So far there have been as many Query tokens as Key tokens. In the article's example Q, K and V are all 3 × 8, and the score matrix S is 3 × 3. The computations of notebooks 10 and 11 are not square, though. A step that generates one token from the KV cache computes the new token's single Query against the t Key tokens so far; chunked prefill, which reads a long prompt a few tokens at a time, computes a few new Query tokens against every Key token so far. In cross-attention, where a decoder reads an encoder's output, the two numbers differ from the start. With T_q Query tokens and T_k Key tokens, S and P are T_q × T_k per head, the mask M is T_q × T_k, the output O is T_q × dh and H is T_q × d.

There, "the causal mask" can be read two ways, and libraries differ in which one they mean. This notebook puts the two side by side on the article's numbers, shows which one is the right computation, and which library means which.

What you will see:

- token 3's decode step as a (1 × 3) computation: the scores [2, 0, 6] → [1, 0, 3], the weights [0.114, 0.042, 0.844] and the output [0.114, 0.042, 0.844, 1] are row 3 of the full computation
- chunked prefill two tokens at a time: a (2 × 2) and a (1 × 3) computation give the H computed all at once, and so does every other chunk size
- cross-attention: 2 Query tokens reading 3 Key tokens, no mask
- the two corners of the causal mask, bottom-right and top-left: where rows with nothing to see appear, which corner each library means, and the pitfall of SDPA's `is_causal=True` on a cache, which gives other numbers without any error
- the ways code writes a sliding window, and an off-by-one changing the numbers
- packed sequences: several sequences in one row
""",
    ),
    code(SETUP),
    code(
        """
from matplotlib.figure import Figure

from attention_lab.numeric.kv_cache import prefill_chunks

W = al.words.table(LANG)  # the printed words and the figures' words, in the reader's language
fmt = al.look.format_value


def labels(first, n):  # -> the numbers of n tokens from token `first`, as the article numbers them
    return [str(t) for t in range(first, first + n)]


def draw(*panels, ylabel=W["query"]):  # each panel: (matrix, kind, title, row labels, column label); one row of heatmaps
    widths, rows = [max(np.shape(p[0])[1], 2) for p in panels], max(np.shape(p[0])[0] for p in panels)
    fig = Figure(figsize=(0.6 * sum(widths) + 1.2 * len(panels), 0.6 * rows + 1.5), layout="constrained")  # cells of one size
    for ax, (matrix, kind, title, rows, columns) in zip(fig.subplots(1, len(panels), width_ratios=widths, squeeze=False)[0], panels):
        al.figures.heatmap(ax, matrix, kind, title=title, row_labels=rows, xlabel=columns, ylabel=ylabel, lang=LANG)
    return fig


def sees(allowed):  # one line per Query row: the Key tokens it may see, numbered from 1
    for row, keys in enumerate(allowed, start=1):
        seen = ", ".join(str(j) for j in np.flatnonzero(keys) + 1)
        print(W["nb12_sees"].format(row=row, keys=seen) if seen else W["nb12_sees_nothing"].format(row=row))
""",
    ),
    md(
        """
## 디코드 단계는 전체 계산의 한 행입니다

10에서 토큰 3을 생성하는 단계는 토큰 3의 Query 하나와 캐시에 있는 Key·Value 세 개만으로 계산했습니다. `al.attention_trace`에 Query 한 행(1 × 8)과 Key·Value 세 행(3 × 8)을 넘겨도 같은 계산입니다. `al.article_example(queries=1)`은 글의 예시에서 마지막 토큰의 Query 행만 남긴 trace입니다. S와 P는 (h × 1 × 3), 마스크 M은 (1 × 3), O는 (h × 1 × dh)입니다.

Query 행이 하나이고 Key 토큰이 셋일 때, 그 Query 행은 어느 토큰일까요? 새로 만든 마지막 토큰, 토큰 3입니다. 캐시에 있는 토큰은 모두 토큰 3보다 앞이므로 가릴 칸이 없고, M은 모두 0입니다.
""",
        """
## A decode step is one row of the full computation

In notebook 10, the step that generates token 3 used only token 3's Query and the three Keys and Values in the cache. Passing one Query row (1 × 8) and three Key and Value rows (3 × 8) to `al.attention_trace` is the same computation. `al.article_example(queries=1)` is the trace of the article's example with only the last token's Query row kept: S and P are (h × 1 × 3), the mask M is (1 × 3) and O is (h × 1 × dh).

With one Query row and three Key tokens, which token is that Query row? The newest one, token 3. Every token in the cache comes before it, so nothing is masked: M is all zeros.
""",
    ),
    code(
        """
step = al.article_example(queries=1)  # token 3's Query row against the Keys and Values of tokens 1–3
print("S", step.S.shape, "  M", step.M.shape, "  P", step.P.shape, "  O", step.O.shape)
print("S[3,·]     =", format_row(step.S[0, 0], "scores"))
print("S/√dh[3,·] =", format_row(step.S_scaled[0, 0], "scores"))
print("M[3,·]     =", format_row(step.M[0], "scores"))
print("P[3,·]     =", format_row(step.P[0, 0], "weights"))
print("O[3,·]     =", format_row(step.O[0, 0]))
print("max |step.P[:, 0] − tr.P[:, 2]| =", fmt(np.abs(step.P[:, 0] - tr.P[:, 2]).max()),
      "  max |step.H[0] − tr.H[2]| =", fmt(np.abs(step.H[0] - tr.H[2]).max()))
""",
        check=True,
    ),
    md(
        """
토큰 3의 점수 [2, 0, 6]을 √dh = 2로 나누면 [1, 0, 3]이고, Softmax를 적용하면 글의 가중치 [0.114, 0.042, 0.844]입니다. 출력 [0.114, 0.042, 0.844, 1]도 글과 같습니다. 두 head 모두에서 디코드 단계의 P와 H는 전체 계산의 세 번째 행과 정확히 같습니다(차이 0). 전체 계산의 P에서 세 번째 행은 마스크할 칸이 없는 행이었습니다. 디코드 단계는 그 행만 계산하는 것입니다.
""",
        """
Token 3's scores [2, 0, 6] divided by √dh = 2 are [1, 0, 3], and the softmax gives the article's weights [0.114, 0.042, 0.844]. The output [0.114, 0.042, 0.844, 1] is the article's too. In both heads the decode step's P and H are exactly row 3 of the full computation (difference 0). Row 3 of the full P was the row with nothing masked; the decode step computes that row alone.
""",
    ),
    figure(
        """
draw((tr.P[0], "weights", f"P — {W['nb12_full']}", labels(1, 3), W["key"]),
     (step.S_scaled[0], "scores", f"S / √dh — {W['nb12_decode_step'].format(n=3, rows=1, cols=3)}", labels(3, 1), W["key"]),
     (step.P[0], "weights", "P", labels(3, 1), W["key"]),
     (step.O[0], "values", "O", labels(3, 1), W["component"]))
""",
        "Head 1: 한 번에 계산한 P(3 × 3)와 토큰 3의 디코드 단계(1 × 3)의 S / √dh, P, O. 디코드 단계의 가중치는 P의 세 번째 행입니다.",
        "Head 1: the P computed all at once (3 × 3), and S / √dh, P and O of token 3's decode step (1 × 3); the decode step's weights are row 3 of P.",
    ),
    md(
        """
## 청크 prefill: 몇 토큰씩 읽어도 같은 H

프롬프트를 처음 읽을 때(prefill)도 모든 토큰을 한 번에 계산할 필요는 없습니다. 몇 토큰씩 나누어(chunked prefill) 계산하면 한 번에 드는 메모리가 줄고, 서버는 그 사이에 다른 요청의 디코드 단계를 끼워 넣을 수 있습니다. 청크마다 새 토큰들의 Query 행을, 캐시에 있던 토큰과 청크 자신의 토큰 모두의 Key·Value와 계산한 뒤, 청크의 Key·Value를 캐시에 더합니다.

글의 세 토큰을 두 토큰씩 읽으면, 청크 1은 토큰 1·2의 Query 행을 토큰 1·2의 Key로 (2 × 2) 계산하고, 청크 2는 토큰 3의 Query 행을 토큰 1·2·3의 Key로 (1 × 3) 계산합니다. `prefill_chunks`는 청크마다 trace 하나를 돌려줍니다.
""",
        """
## Chunked prefill: the same H, however many tokens at a time

Reading the prompt (prefill) need not happen all at once either. Computed a few tokens at a time (chunked prefill), it takes less memory at once, and a server can fit other requests' decode steps in between. Each chunk computes its new tokens' Query rows against the Keys and Values of every token so far, those in the cache and the chunk's own, and then adds the chunk's Keys and Values to the cache.

Reading the article's three tokens two at a time, chunk 1 computes the Query rows of tokens 1 and 2 against the Keys of tokens 1 and 2 (2 × 2), and chunk 2 the Query row of token 3 against the Keys of tokens 1, 2 and 3 (1 × 3). `prefill_chunks` returns one trace per chunk.
""",
    ),
    code(
        """
chunks = prefill_chunks(tr.Q, tr.K, tr.V, tr.h, chunk=2)
for c in chunks:
    first = c.T_k - c.T_q + 1  # the chunk's first token: its Query rows are the last T_q of the T_k tokens so far
    print("S", c.S.shape, "  M", c.M.shape)
    for i in range(c.T_q):
        t = first + i
        print(f"  S/√dh + M[{t},·] = {format_row(c.S_masked[0, i], 'scores'):<12} P[{t},·] = {format_row(c.P[0, i], 'weights')}")
H_chunks = np.concatenate([c.H for c in chunks])  # the chunks' rows of H, one after the other
print("max |H_chunks − tr.H| =", fmt(np.abs(H_chunks - tr.H).max()))
""",
        check=True,
    ),
    md(
        """
청크 1의 토큰 2의 행은 [3, 1.5, −∞]가 아니라 [3, 1.5]입니다. 토큰 3의 Key는 아직 계산되지 않았으므로, 가릴 칸이 처음부터 없습니다. 가중치 [0.818, 0.182]는 전체 계산의 두 번째 행 [0.818, 0.182, 0]에서 0을 뺀 것입니다. 청크 안에서는 여전히 Causal mask가 필요합니다. 토큰 1의 행 [1.5, −∞]에서, 같은 청크에 있는 토큰 2의 칸은 −∞입니다. 청크 2의 하나뿐인 Query 행은 토큰 3이고 세 Key 토큰을 모두 봅니다: 위의 디코드 단계와 같은 계산입니다.

이렇게 맞으려면 청크의 Query 행들을 Key 토큰의 마지막 행들에 맞춰야 합니다. 청크 2의 유일한 행은 Key 토큰 1이 아니라 토큰 3입니다. 이것이 아래에서 볼 "오른쪽 아래" 정렬이고, attention_lab의 기본값입니다. 청크 크기를 1부터 4까지 바꿔도 H는 같습니다. 청크 크기 1은 토큰 하나씩 읽는 것(10의 디코드), 3 이상은 한 번에 읽는 것입니다.
""",
        """
In chunk 1, token 2's row is [3, 1.5], not [3, 1.5, −∞]: token 3's Key has not been computed yet, so there is no cell to mask in the first place. The weights [0.818, 0.182] are row 2 of the full computation, [0.818, 0.182, 0], without its 0. Inside a chunk the causal mask is still needed: in token 1's row [1.5, −∞], the cell of token 2, in the same chunk, is −∞. Chunk 2's single Query row is token 3, which sees all three Key tokens: the decode step above.

For this to come out right, a chunk's Query rows must line up with the last Key rows: chunk 2's single row is token 3, not Key token 1. That is the "bottom-right" alignment below, attention_lab's default. H is the same for every chunk size from 1 to 4: a chunk of 1 is reading one token at a time (notebook 10's decoding), 3 or more is reading all at once.
""",
    ),
    code(
        """
for size in range(1, 5):
    H_chunks = np.concatenate([c.H for c in prefill_chunks(tr.Q, tr.K, tr.V, tr.h, chunk=size)])
    print(f"chunk={size}: max |H_chunks − tr.H| = {fmt(np.abs(H_chunks - tr.H).max())}")
""",
        check=True,
    ),
    figure(
        """
c1, c2 = chunks
draw((c1.S_masked[0], "scores", f"S / √dh + M — {W['nb12_chunk'].format(n=1, first=1, last=2, rows=2, cols=2)}", labels(1, 2), W["key"]),
     (c1.P[0], "weights", "P", labels(1, 2), W["key"]),
     (c2.S_masked[0], "scores", f"S / √dh + M — {W['nb12_chunk'].format(n=2, first=3, last=3, rows=1, cols=3)}", labels(3, 1), W["key"]),
     (c2.P[0], "weights", "P", labels(3, 1), W["key"]))
""",
        "Head 1, 두 토큰씩 읽는 청크 prefill: 청크 1(토큰 1·2, 2 × 2)과 청크 2(토큰 3, 1 × 3)의 S / √dh + M과 P.",
        "Head 1, chunked prefill two tokens at a time: S / √dh + M and P of chunk 1 (tokens 1 and 2, 2 × 2) and chunk 2 (token 3, 1 × 3).",
    ),
    md(
        """
## Cross-attention: Query 토큰 2개가 Key 토큰 3개를 읽습니다

번역 모델의 디코더처럼, 한 시퀀스의 토큰이 다른 시퀀스를 읽는 것이 cross-attention입니다. Query는 디코더의 토큰에서, Key와 Value는 인코더의 토큰에서 옵니다. 두 시퀀스는 서로 다른 문장이므로 "미래 토큰"이 없고, Causal mask도 없습니다(인코더 쪽 padding이 있으면 그것만 가립니다). 계산은 같습니다. 글의 숫자로, 토큰 1·2의 Query 행(2 × 8)이 세 토큰의 Key·Value(3 × 8)를 읽게 하겠습니다. S와 P는 (h × 2 × 3), O는 (h × 2 × dh), H는 (2 × 8)입니다. Softmax는 여전히 행마다 하므로, 각 Query 행의 가중치는 Key 토큰 세 개에 대해 합이 1입니다.
""",
        """
## Cross-attention: 2 Query tokens read 3 Key tokens

When the tokens of one sequence read another sequence, as a translation model's decoder does, that is cross-attention: the Queries come from the decoder's tokens, the Keys and Values from the encoder's. The two are different sentences, so there are no "future tokens" and no causal mask (only the encoder's padding, if any, is masked). The computation is the same. On the article's numbers, let the Query rows of tokens 1 and 2 (2 × 8) read the Keys and Values of the three tokens (3 × 8): S and P are (h × 2 × 3), O is (h × 2 × dh) and H is (2 × 8). The softmax is still taken row by row, so each Query row's weights over the three Key tokens sum to 1.
""",
    ),
    code(
        """
cross = al.attention_trace(tr.Q[:2], tr.K, tr.V, h=tr.h, mask=None)  # 2 Query rows, 3 Key and Value rows, no mask
print("S", cross.S.shape, "  P", cross.P.shape, "  O", cross.O.shape, "  H", cross.H.shape)
for i in range(cross.T_q):
    print(f"S/√dh[{i + 1},·] = {format_row(cross.S_scaled[0, i], 'scores'):<14} P[{i + 1},·] = {format_row(cross.P[0, i], 'weights'):<22} "
          f"O[{i + 1},·] = {format_row(cross.O[0, i])}")
print("P.sum(axis=-1) =", format_row(cross.P[0].sum(axis=-1), "weights"))
""",
        check=True,
    ),
    md(
        """
두 번째 행의 점수 [3, 1.5, −1]은 글의 S / √dh 두 번째 행 그대로입니다. 글에서는 Causal mask가 토큰 3의 칸을 −∞로 바꿔 가중치가 [0.818, 0.182, 0]이었지만, 마스크가 없는 cross-attention에서는 세 번째 Key 토큰도 0.015의 가중치를 받아 [0.806, 0.180, 0.015]가 됩니다.
""",
        """
The second row's scores [3, 1.5, −1] are row 2 of the article's S / √dh. In the article the causal mask turned token 3's cell into −∞ and the weights were [0.818, 0.182, 0]; in cross-attention, with no mask, the third Key token gets a weight of 0.015 too: [0.806, 0.180, 0.015].
""",
    ),
    figure(
        """
draw((cross.S_scaled[0], "scores", f"S / √dh — {W['nb12_cross'].format(rows=2, cols=3)}", labels(1, 2), W["key"]),
     (cross.P[0], "weights", "P", labels(1, 2), W["key"]),
     (cross.O[0], "values", "O", labels(1, 2), W["component"]))
""",
        "Head 1의 cross-attention: Query 토큰 2개(토큰 1·2의 Query 행)가 Key 토큰 3개를 마스크 없이 읽는 S / √dh(2 × 3), P(2 × 3), O(2 × 4).",
        "Head 1's cross-attention: 2 Query tokens (the Query rows of tokens 1 and 2) reading 3 Key tokens with no mask: S / √dh (2 × 3), P (2 × 3), O (2 × 4).",
    ),
    md(
        """
## "Causal"의 두 모서리

Query 토큰이 T_q개, Key 토큰이 T_k개일 때 Causal mask는 "Query 행 i가 몇 번째 토큰인가"에 따라 달라집니다.

- **오른쪽 아래(bottom-right)**: 마지막 Query 행을 마지막 Key 토큰에 맞춥니다. Query 행 i(1부터)는 토큰 i + T_k − T_q이고, 자기 자신과 그 앞의 Key 토큰을 봅니다. Query 행들이 가장 최근의 토큰인 디코드 단계와 청크 prefill에서 맞는 계산이고, attention_lab의 기본값 `al.Mask("causal")`입니다.
- **왼쪽 위(top-left)**: 첫 번째 Query 행을 첫 번째 Key 토큰에 맞춥니다. Query 행 i는 Key 토큰 1부터 i까지만 봅니다. `al.Mask("causal", align="top-left")`이고, PyTorch의 `scaled_dot_product_attention(is_causal=True)`가 이것입니다.

T_q = T_k이면 두 마스크는 같습니다. 그래서 00–11의 숫자는 어느 쪽으로 계산해도 같습니다. 아래는 (2 × 3)과 (3 × 2)에서 두 모서리가 각 Query 행에 허락하는 Key 토큰입니다. T_q > T_k인 (3 × 2)에서 오른쪽 아래 정렬이면, 첫 번째 Query 행은 첫 Key 토큰보다도 앞에 놓이므로 볼 수 있는 Key 토큰이 하나도 없습니다. 그런 행의 가중치와 출력은 NaN이 아니라 0입니다(flash-attention의 문서도 "If the row of the mask is all zero, the output will be zero"라고 씁니다). 왼쪽 위 정렬에서는 모든 행이 적어도 Key 토큰 1을 봅니다.
""",
        """
## The two corners of "causal"

With T_q Query tokens and T_k Key tokens, the causal mask depends on which token Query row i is.

- **Bottom-right**: the last Query row lines up with the last Key token. Query row i (from 1) is token i + T_k − T_q, and sees itself and the Key tokens before it. This is the right computation for a decode step and for chunked prefill, whose Query rows are the newest tokens, and attention_lab's default, `al.Mask("causal")`.
- **Top-left**: the first Query row lines up with the first Key token. Query row i sees Key tokens 1 to i only. This is `al.Mask("causal", align="top-left")`, and what PyTorch's `scaled_dot_product_attention(is_causal=True)` does.

With T_q = T_k both are the same mask, which is why every number of notebooks 00–11 comes out the same either way. Below are the Key tokens each corner lets each Query row see, for (2 × 3) and (3 × 2). With T_q > T_k, as in (3 × 2), bottom-right places the first Query row before the first Key token: it may see no Key token at all. Such a row gets weights and output 0, not NaN (flash-attention's documentation says so too: "If the row of the mask is all zero, the output will be zero"). Top-left, every row sees at least Key token 1.
""",
    ),
    code(
        """
for T_q, T_k in ((2, 3), (3, 2)):
    for corner in al.masks.ALIGNS:
        print(W[f"nb12_corner.{corner}"].format(rows=T_q, cols=T_k))
        sees(al.allowed_of(al.Mask("causal", align=corner), T_q, T_k))
""",
    ),
    figure(
        """
draw(*[(al.make_mask(al.Mask("causal", align=corner), T_q, T_k), "scores", W[f"nb12_corner.{corner}"].format(rows=T_q, cols=T_k),
        labels(1, T_q), W["key"]) for T_q, T_k in ((2, 3), (3, 2)) for corner in al.masks.ALIGNS],
     ylabel=W["nb12_query_row"])
""",
        "Causal mask M의 두 모서리, (2 × 3)과 (3 × 2): 오른쪽 아래는 마지막 Query 행을 마지막 Key 토큰에, 왼쪽 위는 첫 Query 행을 첫 Key 토큰에 맞춥니다.",
        "The two corners of the causal mask M, for (2 × 3) and (3 × 2): bottom-right lines the last Query row up with the last Key token, top-left the first with the first.",
    ),
    md(
        """
(3 × 2)의 오른쪽 아래에서 볼 것이 없는 첫 번째 행을 숫자로 확인합니다. 글의 세 토큰의 Query 행이 토큰 1·2의 Key·Value만 읽게 하면, 첫 번째 행의 가중치와 출력은 모두 0이고 trace 어디에도 NaN이 없습니다.
""",
        """
The (3 × 2) bottom-right row with nothing to see, on numbers: let the Query rows of the article's three tokens read the Keys and Values of tokens 1 and 2 only. The first row's weights and output are all 0, and there is no NaN anywhere in the trace.
""",
    ),
    code(
        """
blind = al.attention_trace(tr.Q, tr.K[:2], tr.V[:2], h=tr.h)  # 3 Query rows, 2 Key and Value rows, bottom-right
for i in range(blind.T_q):
    print(f"S/√dh + M[{i + 1},·] = {format_row(blind.S_masked[0, i], 'scores'):<12} P[{i + 1},·] = {format_row(blind.P[0, i], 'weights'):<16} "
          f"O[{i + 1},·] = {format_row(blind.O[0, i])}")
print("np.isnan:", [name for name, a in blind.arrays().items() if np.isnan(a).any()])  # the stages holding a NaN: none
""",
        check=True,
    ),
    md(
        """
라이브러리마다 T_q ≠ T_k일 때의 causal이 어느 모서리인지 정리하면 다음과 같습니다.

| 라이브러리 | causal (T_q ≠ T_k) | 다른 모서리 |
| --- | --- | --- |
| attention_lab | `al.Mask("causal")`: 오른쪽 아래 | `al.Mask("causal", align="top-left")` |
| PyTorch SDPA | `is_causal=True`: **왼쪽 위** | `attn_mask=torch.nn.attention.bias.causal_lower_right(T_q, T_k)`, 또는 bool 마스크(True = 참조 가능) |
| flash-attention | `causal=True`: 오른쪽 아래 (2.1부터) | — |
| xformers | `LowerTriangularFromBottomRightMask`: 오른쪽 아래 | `LowerTriangularMask`: 왼쪽 위 |
| TransformerLens | 오른쪽 아래: 마스크를 뒤에서부터 `[-T_q:, -T_k:]`로 잘라 씁니다 | — |
| GPT-2 (OpenAI 코드의 `attention_mask`) | 오른쪽 아래: "1's in the lower triangle, counting from the lower right corner" | — |
""",
        """
Here is which corner "causal" means in each library when T_q ≠ T_k.

| library | causal (T_q ≠ T_k) | the other corner |
| --- | --- | --- |
| attention_lab | `al.Mask("causal")`: bottom-right | `al.Mask("causal", align="top-left")` |
| PyTorch SDPA | `is_causal=True`: **top-left** | `attn_mask=torch.nn.attention.bias.causal_lower_right(T_q, T_k)`, or a boolean mask (True = may attend) |
| flash-attention | `causal=True`: bottom-right (since 2.1) | — |
| xformers | `LowerTriangularFromBottomRightMask`: bottom-right | `LowerTriangularMask`: top-left |
| TransformerLens | bottom-right: it slices its mask from the end, `[-T_q:, -T_k:]` | — |
| GPT-2 (`attention_mask` in OpenAI's code) | bottom-right: "1's in the lower triangle, counting from the lower right corner" | — |
""",
    ),
    md(
        """
## SDPA의 함정: 캐시에 is_causal=True

캐시를 쓰는 코드에서 새 토큰들의 Query와 캐시의 Key·Value를 SDPA에 넘기면서 `is_causal=True`를 주면, 오류도 경고도 없이 다른 숫자가 나옵니다. 글의 숫자로 보겠습니다. 토큰 1은 이미 캐시에 있고, 토큰 2·3이 한 청크로 들어옵니다. Query 2행, Key·Value 3행의 (2 × 3) 문제입니다. 맞는 계산(오른쪽 아래)에서 토큰 2의 행은 [0.818, 0.182, 0], 토큰 3의 행은 [0.114, 0.042, 0.844]로, 전체 계산의 두 번째·세 번째 행과 같습니다. `is_causal=True`(왼쪽 위)는 첫 번째 Query 행을 토큰 1처럼 다뤄 Key 토큰 1만 보게 하고, 두 번째 행은 토큰 2처럼 다뤄 Key 토큰 1·2만 보게 합니다. 토큰 3은 자기 자신의 Value를 전혀 반영하지 못합니다.

PyTorch가 있으면 아래 셀은 SDPA로 O를 계산하고, 없으면 attention_lab의 왼쪽 위 마스크로 같은 계산을 합니다. 두 경우 모두 숫자는 같습니다(`tests/test_torch.py`가 무작위 예시로 확인합니다).
""",
        """
## The SDPA pitfall: is_causal=True on a cache

Code that keeps a cache and hands the new tokens' Queries and the cache's Keys and Values to SDPA with `is_causal=True` gets other numbers, with no error and no warning. On the article's numbers: token 1 is already in the cache, and tokens 2 and 3 arrive as one chunk, a (2 × 3) problem of 2 Query rows and 3 Key and Value rows. The right computation (bottom-right) gives token 2 the row [0.818, 0.182, 0] and token 3 the row [0.114, 0.042, 0.844], rows 2 and 3 of the full computation. `is_causal=True` (top-left) treats the first Query row as token 1, which sees Key token 1 only, and the second as token 2, which sees Key tokens 1 and 2: token 3 takes in nothing of its own Value.

With PyTorch installed, the cell below computes O with SDPA; without it, with attention_lab's top-left mask, which gives the same numbers (`tests/test_torch.py` checks that on random examples).
""",
    ),
    code(
        """
try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None
    print(W["no_torch"])
else:
    print("torch", torch.__version__.split("+")[0])  # the version without its build tag (+cpu, +cu121)
""",
    ),
    code(
        """
chunk = al.article_example(queries=2)  # tokens 2 and 3 as new Query rows against the Keys and Values of tokens 1–3
top_left = al.attention_trace(chunk.Q, chunk.K, chunk.V, h=chunk.h, mask=al.Mask("causal", align="top-left"))
if torch:  # SDPA itself, head by head, on the (2 × 3) problem
    q, k, v = (torch.tensor(x) for x in (chunk.Qh, chunk.Kh, chunk.Vh))
    O_is_causal = F.scaled_dot_product_attention(q, k, v, is_causal=True).numpy()
    O_mask = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor(al.allowed_of("causal", 2, 3))).numpy()
else:  # the same numbers from attention_lab: is_causal=True is the top-left corner
    O_is_causal, O_mask = top_left.O, chunk.O
for i in range(chunk.T_q):
    print(f'P[{i + 2},·]  al.Mask("causal") {format_row(chunk.P[0, i], "weights"):<26} align="top-left" {format_row(top_left.P[0, i], "weights")}')
for i in range(chunk.T_q):
    print(f"O[{i + 2},·]  attn_mask=allowed  {format_row(O_mask[0, i]):<26} is_causal=True   {format_row(O_is_causal[0, i])}")
print("max |O_mask − tr.O[:, 1:]| =", fmt(np.abs(O_mask - tr.O[:, 1:]).max()),
      "  max |O_is_causal − tr.O[:, 1:]| =", fmt(np.abs(O_is_causal - tr.O[:, 1:]).max()))
""",
        check=True,
    ),
    md(
        """
`is_causal=True`의 O는 맞는 O와 크게 다르고(토큰 3의 첫 성분 0.731과 0.114), 아무 경고도 없습니다. 고치는 방법은 두 가지입니다. 오른쪽 아래 마스크를 bool로 직접 넘기거나(`attn_mask=al.allowed_of("causal", T_q, T_k)`, True = 참조 가능), PyTorch의 `torch.nn.attention.bias.causal_lower_right(T_q, T_k)`를 `attn_mask`로 넘깁니다. 디코드 단계(T_q = 1)에서는 특히 위험합니다. 하나뿐인 Query 행이 Key 토큰 1만 보게 되어, 가중치가 늘 [1, 0, 0, …]입니다.
""",
        """
The O of `is_causal=True` is far from the right one (0.731 against 0.114 in token 3's first component), and nothing warns. There are two fixes: pass the bottom-right mask yourself, as booleans (`attn_mask=al.allowed_of("causal", T_q, T_k)`, True = may attend), or pass PyTorch's `torch.nn.attention.bias.causal_lower_right(T_q, T_k)` as `attn_mask`. A decode step (T_q = 1) is the worst case: its single Query row sees Key token 1 only, so its weights are always [1, 0, 0, …].
""",
    ),
    figure(
        """
draw((chunk.M, "scores", f"M — {W['nb12_right_way']}", labels(2, 2), W["key"]),
     (chunk.P[0], "weights", "P", labels(2, 2), W["key"]),
     (top_left.M, "scores", f"M — {W['nb12_is_causal']}", labels(2, 2), W["key"]),
     (top_left.P[0], "weights", "P", labels(2, 2), W["key"]))
""",
        "Head 1, 토큰 2·3을 한 청크로 읽는 (2 × 3) 문제: 오른쪽 아래 마스크의 P는 전체 계산의 2·3행이고, SDPA의 is_causal=True(왼쪽 위)의 P는 다릅니다.",
        "Head 1, tokens 2 and 3 read as one chunk, a (2 × 3) problem: under the bottom-right mask P is rows 2 and 3 of the full computation; under SDPA's is_causal=True (top-left) it is not.",
    ),
    md(
        """
## Sliding window를 쓰는 방법들과 한 칸 차이

Sliding window w는 "자기 자신을 포함한 최근 w개 토큰"입니다. 같은 창을 라이브러리마다 다른 숫자로 씁니다. 모두 오른쪽 아래 정렬입니다.

| 쓰는 방법 | Query 위치 p가 보는 Key 토큰 j | attention_lab |
| --- | --- | --- |
| attention_lab `al.Mask("sliding", window=w)` | p − w < j ≤ p: w개 | — |
| attention_lab `al.Mask("window", left=l, right=r)` | p − l ≤ j ≤ p + r | — |
| flash-attention `window_size=(w − 1, 0)` | p − (w − 1) ≤ j ≤ p: w개 | `Mask("sliding", window=w)` |
| flash-attention `window_size=(w, 0)` | p − w ≤ j ≤ p: **w + 1개** | `Mask("sliding", window=w + 1)` |
| flash-attention `window_size=(l, r)` | "[i + seqlen_k − seqlen_q − window_size[0], i + seqlen_k − seqlen_q + window_size[1]] inclusive" | `Mask("window", left=l, right=r)` |
| xformers `LowerTriangularFromBottomRightLocalAttentionMask(w)` | w개 | `Mask("sliding", window=w)` |
| xformers `LocalAttentionFromBottomRightMask(window_left=l, window_right=r)` | p − l ≤ j ≤ p + r | `Mask("window", left=l, right=r)` |
| TransformerLens `window_size=w` (`attn_types`의 "local") | "query - window_size < key <= query": w개 | `Mask("sliding", window=w)` |

flash-attention의 `window_size`는 자기 자신을 빼고 왼쪽으로 몇 칸을 볼지 세므로, 창 크기 w를 그대로 넘기면 한 칸이 더 보입니다. 실제로 있었던 일입니다. huggingface/transformers #29623은 같은 `sliding_window = 2048`이 eager 구현에서는 Key 토큰 2048개, flash-attention 경로에서는 2049개를 본다고 보고했고, #39408은 flash-attention에 `window_size=(sliding_window, sliding_window)`를 넘기던 코드를 지적했습니다(PR #40163에서 고침). vllm #3385는 같은 불일치를 vLLM 쪽에서 다룬 것이고, vLLM은 PR #9679에서 `(sliding_window - 1, 0)`을 넘기도록 바꿨습니다. 숫자로 보면, 토큰 6개로 늘린 글의 예시에서 w = 2일 때 토큰 3은 토큰 2·3만 봐야 하는데 `window_size=(2, 0)`에서는 토큰 1도 봅니다.
""",
        """
## The ways code writes a sliding window, and the off-by-one

A sliding window of w is "the last w tokens, itself included". Libraries write the same window with different numbers; all of these are bottom-right.

| written as | the Key tokens j a Query at position p sees | in attention_lab |
| --- | --- | --- |
| attention_lab `al.Mask("sliding", window=w)` | p − w < j ≤ p: w of them | — |
| attention_lab `al.Mask("window", left=l, right=r)` | p − l ≤ j ≤ p + r | — |
| flash-attention `window_size=(w − 1, 0)` | p − (w − 1) ≤ j ≤ p: w of them | `Mask("sliding", window=w)` |
| flash-attention `window_size=(w, 0)` | p − w ≤ j ≤ p: **w + 1 of them** | `Mask("sliding", window=w + 1)` |
| flash-attention `window_size=(l, r)` | "[i + seqlen_k − seqlen_q − window_size[0], i + seqlen_k − seqlen_q + window_size[1]] inclusive" | `Mask("window", left=l, right=r)` |
| xformers `LowerTriangularFromBottomRightLocalAttentionMask(w)` | w of them | `Mask("sliding", window=w)` |
| xformers `LocalAttentionFromBottomRightMask(window_left=l, window_right=r)` | p − l ≤ j ≤ p + r | `Mask("window", left=l, right=r)` |
| TransformerLens `window_size=w` (attention type "local") | "query - window_size < key <= query": w of them | `Mask("sliding", window=w)` |

flash-attention's `window_size` counts the tokens to look back besides the token itself, so passing the window size w as it is shows one token more. This has happened: huggingface/transformers #29623 reported that the same `sliding_window = 2048` saw 2048 Key tokens in the eager implementation and 2049 on the flash-attention path, and #39408 pointed at code passing `window_size=(sliding_window, sliding_window)` to flash-attention (fixed in PR #40163). vllm #3385 is the same disagreement seen from vLLM, which now passes `(sliding_window - 1, 0)` (PR #9679). On numbers, with the article's example grown to six tokens and w = 2, token 3 should see tokens 2 and 3 only, but under `window_size=(2, 0)` it sees token 1 as well.
""",
    ),
    code(
        """
windows = {'Mask("sliding", window=2) = window_size=(1, 0)': al.Mask("sliding", window=2),
           'Mask("window", left=2, right=0) = window_size=(2, 0)': al.Mask("window", left=2, right=0)}
for name, mask in windows.items():
    grown = al.article_example(mask=mask, T=6)  # tokens 1–3 keep the article's numbers
    print(name)
    print("   allowed.sum(axis=1) =", format_row(al.allowed_of(mask, 6).sum(axis=1)))
    print("   P[3,·] =", format_row(grown.P[0, 2], "weights"), "  P[6,·] =", format_row(grown.P[0, 5], "weights"))
i, j = np.arange(6)[:, None], np.arange(6)[None, :]
for left in (1, 2):  # flash-attention's documented range with seqlen_q = seqlen_k = 6 and window_size = (left, 0)
    flash = (j >= i - left) & (j <= i + 0)
    print(f'window_size=({left}, 0) == Mask("sliding", window={left + 1}):', np.array_equal(flash, al.allowed_of(al.Mask("sliding", window=left + 1), 6)))
""",
        check=True,
    ),
    md(
        """
w = 2의 토큰 3은 토큰 2·3만 보고 가중치가 [0, 0.047, 0.953, …]입니다. `window_size=(2, 0)`에서는 토큰 1까지 세 토큰을 보고, 글의 Causal mask와 같은 [0.114, 0.042, 0.844, …]가 됩니다. 토큰 3 이후의 모든 행이 Key 토큰 하나를 더 봅니다(행마다 2개가 아니라 3개).
""",
        """
With w = 2, token 3 sees tokens 2 and 3 only, with weights [0, 0.047, 0.953, …]. Under `window_size=(2, 0)` it sees three tokens, token 1 included, and gets the causal mask's [0.114, 0.042, 0.844, …] of the article. Every row from token 3 on sees one Key token more (3 instead of 2).
""",
    ),
    figure(
        """
draw(*[(al.make_mask(mask, 6), "scores", f"M — {name}", labels(1, 6), W["key"]) for name, mask in windows.items()])
""",
        "토큰 6개에서 w = 2인 sliding window(= flash-attention의 window_size=(1, 0))와 window_size=(2, 0)의 M: 둘째 것은 행마다 Key 토큰을 하나 더 봅니다.",
        "M for six tokens: the sliding window w = 2 (= flash-attention's window_size=(1, 0)) and window_size=(2, 0), which sees one Key token more in each row.",
    ),
    md(
        """
## Packed sequences: 한 행에 여러 시퀀스

학습할 때는 짧은 문서 여러 개를 한 행에 이어 붙여(packing) 빈자리 없이 계산합니다. 이때 각 문서는 자기 안에서만 Causal mask를 따르고, 다른 문서의 토큰은 보지 않아야 합니다(document mask). `al.Mask("packed", lengths=(3, 3))`은 토큰 6개를 길이 3인 시퀀스 두 개로 나눕니다. 토큰 6개로 늘린 글의 예시에서 앞의 세 토큰은 글의 숫자 그대로이므로, 첫 번째 시퀀스의 P는 글의 P와 정확히 같아야 하고, 두 번째 시퀀스의 P와 H는 토큰 4–6만 따로 계산한 것과 같아야 합니다. flash-attention의 `flash_attn_varlen_func`(시퀀스 경계를 `cu_seqlens`로 줌)와 xformers의 `BlockDiagonalCausalMask.from_seqlens`가 같은 마스크를 만듭니다. (실제 학습에서는 위치 인코딩도 문서마다 처음부터 다시 세는 경우가 많은데, 그것은 Core Attention 밖의 일입니다.)
""",
        """
## Packed sequences: several sequences in one row

In training, several short documents are often packed into one row, so that no compute goes to padding. Each document must then be causal within itself and blind to the others' tokens (a document mask). `al.Mask("packed", lengths=(3, 3))` splits six tokens into two sequences of length 3. In the article's example grown to six tokens the first three tokens keep the article's numbers, so the first sequence's P must be exactly the article's P, and the second sequence's P and H must be those of tokens 4–6 computed on their own. flash-attention's `flash_attn_varlen_func` (sequence boundaries given as `cu_seqlens`) and xformers' `BlockDiagonalCausalMask.from_seqlens` make the same mask. (Training usually restarts the positions at each document too, which happens outside Core Attention.)
""",
    ),
    code(
        """
packed = al.article_example(mask=al.Mask("packed", lengths=(3, 3)), T=6)
alone = al.attention_trace(packed.Q[3:], packed.K[3:], packed.V[3:], h=packed.h)  # tokens 4–6 on their own
for i in range(packed.T_q):
    print(f"P[{i + 1},·] = {format_row(packed.P[0, i], 'weights')}")
print("max |packed.P[:, :3, :3] − tr.P| =", fmt(np.abs(packed.P[:, :3, :3] - tr.P).max()),
      "  max |packed.H[3:] − alone.H| =", fmt(np.abs(packed.H[3:] - alone.H).max()))
""",
        check=True,
    ),
    md(
        """
아래 그림은 packed mask의 M과 Head 1의 P입니다. 두 시퀀스가 대각선 위의 두 삼각형이 되고, 시퀀스 사이의 칸은 모두 −∞입니다. 그 아래 탐색기에서는 Query 토큰의 수를 줄여 디코드 단계(1개)나 청크를 만들고, 정렬을 오른쪽 아래와 왼쪽 위로 바꾸고, 마스크를 `packed`나 `window`로 바꿔 길이나 창 크기를 움직여 볼 수 있습니다. 모든 단계의 숫자가 함께 바뀝니다.
""",
        """
The figure shows the packed mask M and Head 1's P: the two sequences are two triangles on the diagonal, and every cell between them is −∞. In the explorer below it, lower the number of Query tokens to make a decode step (1) or a chunk, switch the alignment between bottom-right and top-left, or switch the mask to `packed` or `window` and move the lengths or the window: every stage's numbers follow.
""",
    ),
    figure(
        """
draw((packed.M, "scores", f"M — {W['mask.packed']} (3 + 3)", labels(1, 6), W["key"]),
     (packed.P[0], "weights", "P", labels(1, 6), W["key"]))
""",
        "토큰 6개를 길이 3인 시퀀스 두 개로 묶은 packed mask의 M과 Head 1의 P: 첫 번째 시퀀스의 P는 글의 P와 같습니다.",
        "The packed mask of six tokens in two sequences of length 3, and Head 1's P under it: the first sequence's P is the article's.",
    ),
    code('al.explorer(view="queries", lang=LANG)'),
    md("## 연습 문제", "## Exercises"),
    exercise("12.window",
             "토큰 6의 디코드 단계(Query 행 1개)가 Key 토큰 6개의 캐시를 `al.Mask(\"sliding\", window=3)`로 읽을 때, 볼 수 있는 Key 토큰의 번호(1부터)를 배열로 구해 보세요.",
             "Token 6's decode step (one Query row) reads a cache of 6 Key tokens with `al.Mask(\"sliding\", window=3)`. Find the numbers (from 1) of the Key tokens it may see, as an array.", 1),
    exercise("12.is_causal",
             "토큰 5·6이 한 청크(Query 행 2개)로 Key 토큰 6개와 계산됩니다. SDPA에 `is_causal=True`를 주면, 토큰 6의 행은 어느 Key 토큰을 볼까요? 번호(1부터)를 배열로 구해 보세요.",
             "Tokens 5 and 6 arrive as one chunk (2 Query rows) against 6 Key tokens. With `is_causal=True` given to SDPA, which Key tokens does token 6's row see? Find their numbers (from 1), as an array.", 2),
    exercise("12.decode_row",
             "토큰 3의 디코드 단계에서 Head 2가 계산하는 가중치 행(1 × 3)을 `al.attention_trace`로 구해 보세요. 글의 예시는 `tr`입니다.",
             "Compute, with `al.attention_trace`, the row of weights (1 × 3) that Head 2 computes in token 3's decode step. The article's example is `tr`.", 3),
    next_link("13_learned_attention.ipynb", "다음: 13 — 학습된 Attention", "Next: 13 — Attention that was learned"),
]
