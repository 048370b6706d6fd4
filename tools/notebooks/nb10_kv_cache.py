# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "10_kv_cache"

CELLS = [
    md(
        """
# 10 — 생성: KV 캐시와 K/V head 공유

글에서는 세 토큰의 Core Attention을 한 번에 계산했습니다. 하지만 디코더가 실제로 문장을 만들 때는 토큰을 하나씩 만들고, 새 토큰이 생길 때마다 Core Attention을 다시 계산합니다. 04에서 확인했듯이 Causal mask 아래에서는 뒤에 오는 토큰이 앞쪽 토큰의 가중치와 출력을 바꾸지 않습니다. 그래서 이전 토큰들의 Key와 Value를 저장해 두고 다시 쓰면, 새 토큰의 행 하나만 계산하면 됩니다. 이 저장 공간을 KV 캐시라고 합니다.

이 노트북에서 살펴볼 내용:

- 글의 예시를 토큰 하나씩 생성하기: 세 번째 단계는 토큰 3의 Query와 캐시에 있는 Key·Value만으로 세 번째 행 [0.114, 0.042, 0.844]와 출력 [0.114, 0.042, 0.844, 1]을 계산하고, 그 결과는 한 번에 계산한 결과와 같습니다.
- 캐시가 있을 때와 없을 때, 단계마다 그리고 전체로 드는 곱셈-덧셈 수와 메모리
- 공개된 모델 설정으로 계산한 KV 캐시의 크기, 그리고 GQA와 MQA가 그 크기를 줄이는 방법
- 글의 예시(h = 2)에서 두 Query head가 K/V head 하나를 함께 읽는 MQA(g = 1)
""",
        """
# 10 — Generation: the KV cache, and sharing K/V heads

The article computes Core Attention for its three tokens at once. A decoder that writes text, however, makes one token at a time and computes Core Attention again for every new token. As notebook 04 showed, under the causal mask a later token never changes the weights and outputs of earlier tokens. So if the Keys and Values of the earlier tokens are kept and reused, only the new token's row has to be computed. What keeps them is called the KV cache.

What you will see:

- the article's example generated one token at a time: step 3 computes row 3, [0.114, 0.042, 0.844], and the output [0.114, 0.042, 0.844, 1] from token 3's Query and the Keys and Values in the cache alone, and gets what the computation all at once gets
- the multiply-adds and the memory each step and the whole generation take, with and without the cache
- the size of the KV cache of published models, computed from their configurations, and how GQA and MQA shrink it
- MQA (g = 1) on the article's example (h = 2): both Query heads read one shared K/V head
""",
    ),
    code(SETUP),
    md(
        """
## 뒤에 오는 토큰은 앞의 행을 바꾸지 않습니다

Causal mask에서 각 Query 토큰은 자기 자신과 이전 토큰만 참조합니다. 그러므로 토큰 t의 가중치와 출력은 토큰 1부터 t까지의 Q·K·V만으로 정해집니다. 앞의 토큰 몇 개만으로 계산한 출력 O가, 세 토큰 모두로 계산한 O의 같은 행과 같은지 모든 head에서 확인해 봅니다.
""",
        """
## A later token does not change the earlier rows

Under the causal mask each Query token sees only itself and the tokens before it. So token t's weights and output are fixed by the Q, K, V of tokens 1 to t alone. Here we check, in every head, that the outputs O computed from the first few tokens alone are the same rows as in O computed from all three tokens.
""",
    ),
    code(
        """
for t in range(1, tr.T + 1):
    first = al.attention_trace(tr.Q[:t], tr.K[:t], tr.V[:t], h=tr.h)
    same = np.allclose(first.O, tr.O[:, :t], rtol=0, atol=1e-12)
    print(al.words.say("nb_first_tokens", LANG, tokens="1" if t == 1 else f"1–{t}", same=same))
""",
        check=True,
    ),
    md(
        """
## 토큰 하나씩 생성하기

`al.decode_steps`는 토큰을 하나씩 추가하며 계산합니다. 위치 t의 단계에는 토큰 t가 들어옵니다. 프롬프트의 토큰이거나, 앞 단계의 출력으로 예측한 토큰입니다. 이 단계는 토큰 t의 Key 행과 Value 행을 캐시에 넣고, 토큰 t의 Query 하나로 캐시에 있는 모든 Key와의 점수를 계산합니다. 캐시에는 Causal mask가 참조를 허용하는 토큰만 들어 있으므로 마스크를 더할 필요가 없습니다. 점수를 √dh로 나누고 Softmax를 적용한 뒤, 캐시에 있는 Value를 가중합한 것이 위치 t의 출력입니다. 글에서 말한 대로 각 위치의 출력으로 다음 토큰을 예측하므로, 위치 t의 출력은 토큰 t + 1을 예측하는 데 쓰입니다. 아래는 단계마다 Head 1에서 계산한 값입니다. 캐시의 값 수는 두 head의 K와 V를 모두 센 것입니다.
""",
        """
## Generating one token at a time

`al.decode_steps` computes while adding one token at a time. Token t comes in at the step of position t: a token of the prompt, or the one predicted from the previous step's output. The step puts token t's Key row and Value row into the cache, and scores token t's single Query against every Key in the cache. The cache holds exactly the tokens the causal mask lets it see, so no mask needs to be added. The scores are divided by √dh, the softmax is applied, and the Values in the cache summed with those weights are the output at position t. As the article says, the next token is predicted from each position's output: the output at position t is what predicts token t + 1. Here is what each step computes in Head 1; the cache's count of values counts the K and V of both heads.
""",
    ),
    code(
        """
steps = al.decode_steps(tr.Q, tr.K, tr.V, tr.h)
for step in steps:
    t = step.t + 1
    print(al.words.say("nb_step_cache", LANG, t=t, tokens="1" if t == 1 else f"1–{t}", values=step.cache_values))
    print(f"  Q[{t},·]       =", format_row(step.q[0]))
    print(f"  S/√dh [{t},·]  =", format_row(step.S_scaled_row[0], "scores"))
    print(f"  P[{t},·]       =", format_row(step.P_row[0], "weights"))
    print(f"  O[{t},·]       =", format_row(step.O_row[0]))
""",
        check=True,
    ),
    md(
        """
위치 3의 단계에서 새로 계산하는 것은 토큰 3의 행 하나뿐입니다. 토큰 3의 Query [−1, 1, 1, 2]와 캐시에 있는 Key 세 개의 점수를 √dh = 2로 나누면 [1, 0, 3]이고, Softmax를 적용하면 글의 가중치 [0.114, 0.042, 0.844]가 됩니다. 이 가중치로 캐시의 Value를 가중합한 출력이 [0.114, 0.042, 0.844, 1]입니다. 토큰 1과 2의 행은 앞 단계에서 이미 계산했으므로 다시 계산하지 않습니다. 캐시로 만든 H가 한 번에 계산한 H와 같은지 확인해 봅니다.
""",
        """
The step at position 3 computes one new row only, token 3's. The scores of token 3's Query [−1, 1, 1, 2] with the three Keys in the cache, divided by √dh = 2, are [1, 0, 3], and the softmax gives the article's weights [0.114, 0.042, 0.844]. The Values in the cache, summed with these weights, give the output [0.114, 0.042, 0.844, 1]. The rows of tokens 1 and 2 were computed at the earlier steps and are not computed again. Let us check that H built from the cache is the H computed all at once.
""",
    ),
    code(
        """
H_cached = al.decode_with_cache(tr.Q, tr.K, tr.V, tr.h)
print(al.words.say("nb_cache_equals", LANG, same=np.allclose(H_cached, tr.H, rtol=0, atol=1e-12)))
""",
        check=True,
    ),
    md(
        """
아래 그림은 단계마다 캐시에 들어 있는 Key 행(K₁…ₜ)과 Value 행(V₁…ₜ), 그리고 그 단계에서 새로 계산한 P의 행과 O의 행을 보여 줍니다. 굵은 테두리는 그 단계에서 캐시에 추가한 행입니다. 캐시는 한 행씩 늘어나고, 이미 들어 있는 행은 바뀌지 않습니다.

아래 위젯에서는 ◀ ▶ 버튼으로 단계를 넘기며 같은 값을 볼 수 있고, head도 바꿀 수 있습니다. 토큰 수 T 슬라이더(1–8)로 예시를 늘리면 글의 예시가 그 모서리에서 자랍니다. 토큰 1–3은 글의 숫자 그대로입니다. 단계마다 캐시로 계산한 P의 행이 한 번에 계산한 P의 같은 행과 같은지(아직 오지 않은 토큰의 자리는 0), 그리고 지금까지 캐시가 아낀 곱셈-덧셈의 수가 함께 나옵니다. 이 수는 아래 "캐시가 아끼는 계산"과 같은 방법으로 센 것입니다.
""",
        """
The figure below shows, step by step, the Key rows (K₁…ₜ) and Value rows (V₁…ₜ) in the cache, and the row of P and the row of O computed at that step. The thick frame marks the row the step added to the cache. The cache grows by one row per step, and the rows already in it never change.

In the widget below, the ◀ ▶ buttons step through the same values, and the head can be changed. The T slider (1–8) grows the article's example from its corner: tokens 1–3 keep the article's numbers. Each step says whether the row of P from the cache equals the same row of P computed all at once (0 at the tokens still to come), and counts the multiply-adds the cache has saved so far, counted as in "What the cache saves" below.
""",
    ),
    figure("al.figures.figure_decode_steps(steps, head=0)",
           "Head 1에서 단계마다 캐시에 든 Key 행과 Value 행, 그 단계에서 계산한 P의 행과 O의 행. 굵은 테두리가 그 단계에 캐시에 더한 행입니다.",
           "Head 1, step by step: the Key and Value rows in the cache, and the row of P and of O computed at that step; the thick frame is the row the step added to the cache."),
    code("al.decode_view(lang=LANG)"),
    md(
        """
## 캐시가 아끼는 계산, 캐시가 차지하는 메모리

위치 t의 단계에서 드는 곱셈-덧셈(MAC, multiply-add)의 수를 세어 봅니다. 지난 글의 projection으로 토큰 하나의 Q·K·V 행을 만드는 데 d · (d + 2 · g · dh)번이 듭니다. 여기서 g는 K/V head의 수이고, 지금까지처럼 head마다 K와 V가 있으면 g = h입니다. Core Attention에서는 점수 한 행과 출력 한 행에 2 · h · t · dh번이 듭니다. 캐시가 없으면 단계마다 토큰 t개 모두의 projection과, head마다 t × t인 점수 행렬 전체를 다시 계산합니다.

메모리는 그 단계에서 들고 있는 값의 수로 셉니다. 토큰 t개의 Key 행과 Value 행(캐시에 있든 다시 계산했든) 2 · t · g · dh개에, 캐시가 있으면 점수 한 행(h · t개)이, 캐시가 없으면 점수 행렬 전체(h · t²개)가 더해집니다. 다만 캐시의 값은 단계가 끝나도 남아 있어야 합니다. 출력 projection과 MLP는 세지 않았습니다. 캐시가 없으면 이 부분도 이전 토큰마다 다시 계산하므로 실제 차이는 더 큽니다. 아래는 GPT-2 (124M)의 attention layer 하나(d = 768, h = 12) 기준입니다. 마지막 열의 ×는 캐시가 없을 때 몇 배의 계산이 드는지입니다.
""",
        """
## What the cache saves, and the memory it takes

Let us count the multiply-adds (MAC) of the step at position t. The projections of the previous article take d · (d + 2 · g · dh) of them to make one token's Q, K, V rows; g is the number of K/V heads, g = h when every head has its own K and V, as so far. Core Attention takes 2 · h · t · dh for one row of scores and one row of output. Without the cache, every step computes the projections of all t tokens again, and the whole t × t score matrix of every head.

Memory is counted as the values held during the step: the Key and Value rows of the t tokens (kept in the cache, or computed again), 2 · t · g · dh values, plus one row of scores per head (h · t) with the cache, or the whole score matrix (h · t²) without it. The cache's values, however, must stay when the step is over. The output projection and the MLP are not counted; without the cache they too are computed again for every earlier token, so the real difference is larger. Below is one attention layer of GPT-2 (124M), d = 768 and h = 12. The × column says how many times more work a step takes without the cache.
""",
    ),
    code(
        """
import unicodedata


def columns(text):  # how many columns `text` takes in a monospaced font: a Hangul letter takes two
    return sum(1 + (unicodedata.east_asian_width(c) == "W") for c in text)


def right(text, n):  # `text` right-aligned in n columns
    return " " * max(0, n - columns(text)) + text


def left(text, n):  # `text` left-aligned in n columns
    return text + " " * max(0, n - columns(text))


W = al.words.table(LANG)
d, h = 768, 12
costs = al.generation_cost(1024, d, h)
print(f"{'t':>5} | {right(W['nb_mac_cache'], 11)} {right(W['nb_mac_no_cache'], 14)} {'×':>7} | "
      f"{right(W['nb_values_cache'], 14)} {right(W['nb_values_no_cache'], 17)}")
for t in (1, 2, 3, 10, 100, 1000):
    c = costs[t - 1]
    print(f"{t:>5} | {c.macs_with_cache:>11.2e} {c.macs_without_cache:>14.2e} {c.macs_without_cache / c.macs_with_cache:>7.1f} | "
          f"{c.values_with_cache:>14,} {c.values_without_cache:>17,}")
""",
        check=True,
    ),
    md(
        """
T개의 토큰을 모두 생성하는 데 드는 계산은 단계마다의 값을 더한 것이고, 메모리는 마지막 단계가 가장 큽니다. 캐시가 있으면 전체 계산이 대략 T²에 비례해 늘지만, 캐시가 없으면 T³에 비례해 늘어납니다. 메모리는 값 하나를 16비트(2바이트)로 저장한다고 보고 계산했습니다.
""",
        """
The work of generating all T tokens is the sum over the steps, and the memory is largest at the last step. With the cache the total work grows roughly like T², without it like T³. Memory is computed with 16-bit values (2 bytes each).
""",
    ),
    code(
        """
T_values = [256, 512, 1024, 2048, 4096]
totals = []
for T in T_values:
    costs = al.generation_cost(T, d, h)
    totals.append((sum(c.macs_with_cache for c in costs), sum(c.macs_without_cache for c in costs),
                   costs[-1].values_with_cache, costs[-1].values_without_cache))
print(f"{'T':>5} | {right('Σ ' + W['nb_mac_cache'], 13)} {right('Σ ' + W['nb_mac_no_cache'], 16)} {'×':>6} | "
      f"{right(W['nb_memory_cache'], 14)} {right(W['nb_memory_no_cache'], 17)}")
for T, (mac_c, mac_n, val_c, val_n) in zip(T_values, totals):
    print(f"{T:>5} | {mac_c:>13.2e} {mac_n:>16.2e} {mac_n / mac_c:>6.0f} | "
          f"{al.look.bytes_text(2 * val_c):>14} {al.look.bytes_text(2 * val_n):>17}")
""",
        check=True,
    ),
    md(
        """
아래 그림은 같은 값을 로그 눈금으로 그린 것입니다. 왼쪽은 T개의 토큰을 생성하는 데 드는 곱셈-덧셈의 합, 오른쪽은 마지막 단계에서 들고 있는 메모리입니다. 실선(●)이 캐시가 있을 때, 점선(■)이 캐시가 없을 때이며, 범례는 각각을 계산한 식입니다.
""",
        """
The figure draws the same values on log scales: on the left the multiply-adds of generating T tokens, on the right the memory held at the last step. The solid line (●) is with the cache, the dashed line (■) without it; the legend gives the formula of each.
""",
    ),
    figure(
        """
macs_c, macs_n, values_c, values_n = zip(*totals)
al.figures.figure_generation_cost(T_values, macs_c, macs_n, values_c, values_n, bytes_per_value=2)
""",
        "토큰 T개를 생성하는 데 드는 곱셈-덧셈(왼쪽)과 마지막 단계의 메모리(오른쪽), 캐시가 있을 때(실선)와 없을 때(점선), 로그 눈금.",
        "The multiply-adds of generating T tokens (left) and the memory at the last step (right), with the cache (solid) and without (dashed), on log scales.",
    ),
    md(
        """
## 실제 모델의 KV 캐시 크기

캐시는 layer마다 따로 있고, 토큰 하나마다 K/V head 수 × dh개의 Key 값과 같은 수의 Value 값을 저장합니다. 그래서 문장 하나(sequence)의 캐시 크기는 2 × layer 수 × 토큰 수 × K/V head 수 × dh × 값 하나의 바이트 수입니다. 아래는 공개된 모델 설정으로 계산한 크기입니다. 값은 16비트(2바이트)로 저장한다고 보았고, 토큰 수는 각 모델이 다룰 수 있는 최대 문맥 길이(context)입니다. 마지막 두 열은 같은 모델에 K/V head가 Query head만큼 있을 때(GQA 없이)의 크기와, 그것이 몇 배인지입니다.
""",
        """
## The KV cache of real models

Every layer has its own cache, and for every token it keeps (K/V heads × dh) Key values and as many Value values. So the cache of one sequence is 2 × layers × tokens × K/V heads × dh × bytes per value. Below are the sizes for published model configurations. Values are taken as 16-bit (2 bytes), and the tokens are each model's longest context. The last two columns give the size the same model would need with as many K/V heads as Query heads (without GQA), and how many times larger that is.
""",
    ),
    code(
        """
print(f"{left(W['nb_model'], 14)} {right(W['nb_layers'], 6)} {'d':>5} {'h':>3} {'g':>3} {'dh':>4} {right(W['nb_context'], 8)} | "
      f"{right(W['nb_kv_cache'], 9)} | {right(W['nb_if_g_is_h'], 9)} {'×':>3}")
for m in al.PUBLISHED:
    size, without_gqa = m.cache_bytes(), m.cache_bytes(kv_heads=m.heads)
    print(f"{m.name:<14} {m.layers:>6} {m.d:>5} {m.heads:>3} {m.kv_heads:>3} {m.dh:>4} {m.context:>8,} | "
          f"{al.look.bytes_text(size):>9} | {al.look.bytes_text(without_gqa):>9} {without_gqa // size:>3}")
""",
        check=True,
    ),
    md(
        """
각 설정의 출처는 Hugging Face에 공개된 각 모델의 config.json입니다(아래). 설정을 밝힌 논문도 있습니다. GPT-2는 Radford et al. 2019, Llama 2는 Touvron et al. 2023 (arXiv:2307.09288), Llama 3.1은 Llama Team 2024 (arXiv:2407.21783, Table 3), Gemma는 Gemma Team 2024 (arXiv:2403.08295, Table 1)이고, Falcon 7B는 config.json의 `multi_query: true`와 model card에 나옵니다.
""",
        """
Where each configuration comes from: the model's config.json published on Hugging Face (below), and the papers that give them: Radford et al. 2019 for GPT-2, Touvron et al. 2023 (arXiv:2307.09288) for Llama 2, Llama Team 2024 (arXiv:2407.21783, Table 3) for Llama 3.1 and Gemma Team 2024 (arXiv:2403.08295, Table 1) for Gemma; Falcon 7B's `multi_query: true` is in its config.json and model card.
""",
    ),
    code(
        """
for m in al.PUBLISHED:
    print(f"{m.name:<14} {m.source.split()[0].rstrip(';')}")  # the config.json each source starts with
""",
        check=True,
    ),
    md(
        """
GPT-2와 Llama 2 7B는 Query head마다 자기 K/V head가 있으므로(g = h) 두 크기가 같습니다. Llama 2 70B와 Llama 3.1은 Query head 8개가 K/V head 하나를 함께 읽는 GQA로 캐시를 8분의 1로 줄이고, Falcon 7B와 Gemma 2B는 모든 Query head가 K/V head 하나를 읽는 MQA입니다. 그래도 Llama 3.1 70B의 최대 문맥을 채우면 GQA를 쓰고도 문장 하나의 캐시가 40 GiB입니다. 여러 문장을 한꺼번에 생성하면 캐시는 문장 수만큼 늘어나므로, 실제 모델에서 문맥 길이와 동시에 처리하는 문장 수를 정하는 것은 KV 캐시의 크기인 경우가 많습니다.
""",
        """
GPT-2 and Llama 2 7B give every Query head its own K/V head (g = h), so both sizes are the same. Llama 2 70B and Llama 3.1 use GQA, eight Query heads reading one K/V head, which cuts the cache to an eighth; Falcon 7B and Gemma 2B use MQA, every Query head reading the one K/V head. Even so, filling Llama 3.1 70B's longest context takes 40 GiB of cache for one sequence, with GQA. Generating several sequences at once multiplies the cache by their number, which is why the KV cache is so often what limits the context length and the number of sequences a real model serves at once.
""",
    ),
    md(
        """
## GQA와 MQA: Query head가 K/V head를 나누어 쓰기

K/V head의 수 g를 Query head의 수 h보다 작게 하면, Query head h / g개가 K/V head 하나를 함께 읽습니다. 0부터 센 인덱스로 Query head i는 K/V head i // (h / g)를 읽습니다. g = h이면 지금까지의 MHA(multi-head attention), 1 < g < h이면 GQA(grouped-query attention), g = 1이면 MQA(multi-query attention)입니다. K와 V는 g · dh개의 열만 가지므로 캐시도 g / h로 줄어듭니다. 아래는 h = 8일 때 Query head 1~8이 읽는 K/V head의 번호입니다.
""",
        """
## GQA and MQA: Query heads sharing K/V heads

With fewer K/V heads g than Query heads h, h / g Query heads read one K/V head together. Counting from 0, Query head i reads K/V head i // (h / g). g = h is the multi-head attention (MHA) used so far, 1 < g < h is grouped-query attention (GQA), and g = 1 is multi-query attention (MQA). K and V have only g · dh columns, so the cache shrinks to g / h as well. Here are the K/V heads that Query heads 1 to 8 read when h = 8.
""",
    ),
    code(
        """
for g in (8, 4, 2, 1):
    print(al.words.say("nb_heads_read", LANG, g=g, heads=format_row(al.kv_head_index(8, g) + 1)))
""",
        check=True,
    ),
    md(
        """
글의 예시(h = 2)를 g = 1로 바꾸면 K와 V에는 head 하나, 즉 글의 Head 1 성분만 남고, Head 1과 Head 2의 Query가 모두 이 K/V head를 읽습니다. Head 1의 계산은 그대로이고, Head 2는 자기 Query로 Head 1의 Key와 Value를 읽으므로 결과가 달라집니다. 캐시는 절반이 됩니다.
""",
        """
With g = 1, the article's example (h = 2) keeps one head in K and V, the article's Head 1, and the Queries of Head 1 and of Head 2 both read it. Head 1 computes exactly what it did; Head 2 reads Head 1's Keys and Values with its own Queries, so its result changes. The cache is halved.
""",
    ),
    code(
        """
mqa = al.article_example(kv_heads=1)
print("K, V:", mqa.K.shape, mqa.V.shape, "  Kh, Vh:", mqa.Kh.shape)
for i in range(mqa.h):
    print(f"Query head {i + 1} → K/V head {mqa.kv_head_of(i) + 1}: P[3,·] =", format_row(mqa.P[i, 2], "weights"))
print(al.words.say("nb_mqa_heads", LANG, same=np.allclose(mqa.O[0], tr.O[0]), changed=not np.allclose(mqa.O[1], tr.O[1])))
cache_mha = steps[-1].cache_values
cache_mqa = al.decode_steps(mqa.Q, mqa.K, mqa.V, mqa.h, kv_heads=1)[-1].cache_values
print(al.words.say("nb_cache_after", LANG, mha=cache_mha, mqa=cache_mqa))
print(al.words.say("nb_cache_equals", LANG, same=np.allclose(al.decode_with_cache(mqa.Q, mqa.K, mqa.V, mqa.h, kv_heads=1),
                                                             mqa.H, rtol=0, atol=1e-12)))
""",
        check=True,
    ),
    md(
        """
탐색기에도 이제 **K/V head 수 g** 항목이 있습니다. h의 약수 중에서 고르며, h가 2 이상일 때만 보입니다. 아래 탐색기는 글의 예시를 g = 1로 바꾼 모습에서 시작합니다. 맨 위의 K와 V는 열이 네 개뿐이고, 두 head의 V가 같습니다. h를 8로 늘리고 g를 1, 2, 4, 8로 바꾸어 보세요. **Query 토큰 수 T_q** 항목을 1로 줄이면 마지막 토큰의 Query 행 하나만 남습니다. 바로 위치 T의 단계가 계산하는 1 × T 점수 한 행입니다. Query 토큰과 Key 토큰의 수가 다른 계산은 12에서 자세히 다룹니다. 그림은 g = 1일 때 두 head의 모든 단계입니다.
""",
        """
The explorer now has a **K/V heads g** control too: the divisors of h, shown when h is 2 or more. The explorer below starts on the article's example with g = 1: K and V at the top have four columns only, and both heads show the same V. Raise h to 8 and try g = 1, 2, 4, 8. Bring the **Query tokens T_q** control down to 1 and only the last token's Query row is left: the single 1 × T row of scores that the step at position T computes. Notebook 12 covers computations with different numbers of Query and Key tokens. The figure is every stage of both heads with g = 1.
""",
    ),
    figure("al.figures.figure_all_heads(mqa, lang=LANG)",
           "g = 1(MQA)인 글의 예시에서 두 head의 모든 단계: Head 1은 글과 같고, Head 2는 Head 1의 Key와 Value를 읽습니다.",
           "Every stage of both heads in the article's example with g = 1 (MQA): Head 1 is the article's, and Head 2 reads Head 1's Keys and Values."),
    code("al.explorer(lang=LANG, view=\"all\", kv_heads=1)"),
    md("## 연습 문제", "## Exercises"),
    exercise("10.step2",
             "위치 2의 단계를 직접 계산해 보세요. 토큰 2가 들어와 캐시에 토큰 1·2의 Key가 있을 때, 토큰 2의 Query와 이 두 Key만으로 Head 1의 가중치(값 두 개)를 구합니다. 이 단계의 출력으로 토큰 3을 예측합니다.",
             "Compute the step at position 2 yourself: token 2 has come in and the cache holds the Keys of tokens 1 and 2; from token 2's Query and these two Keys alone, find Head 1's weights (two values). This step's output is what predicts token 3.", 1),
    exercise("10.cache_size",
             "Llama 2 70B(layer 80개, K/V head 8개, dh = 128, 값 하나에 2바이트)로 토큰 4096개의 문장 하나를 생성할 때 KV 캐시의 크기를 GiB(2의 30제곱 바이트) 단위로 계산해 보세요.",
             "Compute the size of Llama 2 70B's KV cache (80 layers, 8 K/V heads, dh = 128, 2 bytes per value) for one sequence of 4096 tokens, in GiB (2 to the 30th bytes).", 2),
    exercise("10.kv_head",
             "Query head h = 8개가 K/V head g = 2개를 나누어 쓸 때, Query head 5는 몇 번 K/V head를 읽을까요? head 번호는 글처럼 1부터 셉니다.",
             "With h = 8 Query heads sharing g = 2 K/V heads, which K/V head does Query head 5 read? Number the heads from 1, as the article does.", 3),
    next_link("11_blockwise_softmax.ipynb", "다음: 11 — 블록 단위 Softmax", "Next: 11 — The blockwise softmax"),
]
