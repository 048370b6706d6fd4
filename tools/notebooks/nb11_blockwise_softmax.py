# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "11_blockwise_softmax"

CELLS = [
    md(
        """
# 11 — 블록 단위 Softmax: T × T 행렬 없이, 정확하게

05에서는 Softmax를 계산하기 전에 행의 최댓값을 빼도 결과가 같다는 것을 보았습니다. 이 성질을 한 걸음 더 쓰면, 한 행의 점수를 한꺼번에 보지 않고 Key 토큰 몇 개씩, 즉 블록 단위로 읽으면서 Softmax와 가중합을 계산할 수 있습니다. Query 토큰마다 지금까지의 최댓값 m, 지금까지의 합 l, 지금까지의 출력만 가지고 다니다가, 최댓값이 커지면 이미 더한 값에 e^(m_old − m_new)를 곱해 새 최댓값에 맞춥니다(online softmax, Milakov & Gimelshein 2018). 결과는 한 번에 계산한 것과 정확히 같고, T × T인 점수 행렬과 가중치 P는 한 번도 만들지 않습니다. FlashAttention(Dao et al. 2022)이 긴 문맥을 메모리에 담는 방법이 바로 이것입니다.

이 노트북에서 살펴볼 내용:

- 토큰 3의 점수 [1, 0, 3]을 Key 토큰 하나씩 읽기: 최댓값이 1 → 1 → 3으로 바뀌고, 3이 나올 때 지금까지의 합에 e^(1−3)을 곱해 다시 맞춘 뒤, 마지막에 가중치 [0.114, 0.042, 0.844]를 얻는 과정
- 전체 Attention을 블록 단위로 계산하기: 블록마다 바뀌는 값을 보여 주는 그림과 위젯, 그리고 모든 블록 크기와 마스크에서 결과가 같다는 확인
- T × T 행렬이 있을 때와 없을 때의 메모리: T = 128k이면 P 하나만 head마다 64 GiB(float32)
""",
        """
# 11 — The blockwise softmax: exact, without the T × T matrix

Notebook 05 showed that subtracting a row's maximum before the softmax leaves the result unchanged. One step further, the same property lets us compute the softmax and the weighted sum without seeing a row's scores all at once, reading a few Key tokens at a time, block by block. Each Query token carries only the largest score so far m, the sum so far l and the output so far; when the maximum grows, what was already summed is multiplied by e^(m_old − m_new) to match the new maximum (the online softmax, Milakov & Gimelshein 2018). The result is exactly what the computation all at once gives, and neither the T × T score matrix nor the weights P are ever made. This is how FlashAttention (Dao et al. 2022) fits long contexts in memory.

What you will see:

- token 3's scores [1, 0, 3] read one Key token at a time: the maximum goes 1 → 1 → 3, the sum so far is multiplied by e^(1−3) when 3 arrives, and the weights come out as [0.114, 0.042, 0.844]
- the whole attention computed block by block: a figure and a widget of what each block changes, and a check that every block size and every mask gives the same result
- memory with and without the T × T matrix: at T = 128k, P alone takes 64 GiB per head (float32)
""",
    ),
    code(SETUP),
    md(
        """
## 토큰 3의 행을 Key 토큰 하나씩 읽기

토큰 3의 점수 [1, 0, 3]을 하나씩 읽겠습니다. 지금까지 본 점수 가운데 가장 큰 값을 m, 지금까지의 e^(s − m)을 모두 더한 값을 l이라고 하겠습니다. 처음에는 본 점수가 없으므로 m = −∞, l = 0입니다. 새 점수 s가 들어오면 최댓값을 m_new = max(m, s)로 고칩니다. 지금까지의 l은 이전 최댓값 m을 기준으로 더한 값이므로 e^(m − m_new)를 곱해 새 기준에 맞춘 뒤, 새 항 e^(s − m_new)를 더합니다. 아래는 이 과정을 NumPy 몇 줄로 쓴 것입니다.
""",
        """
## Token 3's row, one Key token at a time

Let us read token 3's scores [1, 0, 3] one at a time. Call m the largest score seen so far, and l the sum of e^(s − m) over the scores seen so far. Before any score, m = −∞ and l = 0. When a new score s arrives, the maximum becomes m_new = max(m, s). The l so far was summed relative to the old maximum m, so it is multiplied by e^(m − m_new) to match the new one, and then the new term e^(s − m_new) is added. Here it is in a few lines of NumPy.
""",
    ),
    code(
        """
fmt = al.look.format_value
W = al.words.table(LANG)
row = tr.S_masked[0, 2]  # token 3's scores, Head 1
m, l = -np.inf, 0.0
for j, s in enumerate(row, start=1):
    m_new = max(m, s)
    rescale = np.exp(m - m_new)
    l = l * rescale + np.exp(s - m_new)
    print(f"{W['nb_key_token'].format(j=j)}: s = {fmt(s, 'scores')}   m: {fmt(m, 'scores')} → {fmt(m_new, 'scores')}   "
          f"e^(m_old − m_new) = {fmt(rescale, 'weights')}   l = {fmt(l)}")
    m = m_new
print("P[3,·] = e^(s − m) / l =", format_row(np.exp(row - m) / l, "weights"))
""",
        check=True,
    ),
    md(
        """
세 번째 Key 토큰에서 최댓값이 1에서 3으로 커집니다. 그때까지의 합 1 + e⁻¹ = 1.368은 최댓값 1을 기준으로 더한 값이므로, e^(1−3) = 0.135를 곱해 새 기준에 맞추고, 새 항 e^(3−3) = 1을 더하면 l = 1.185가 됩니다. 마지막 가중치 e^(s − 3) / l은 글의 [0.114, 0.042, 0.844]와 같습니다. 05에서 한 행 전체의 최댓값을 먼저 뺀 것과 같은 계산을, 최댓값을 미리 모르는 채로 한 것입니다. (숫자는 소수점 셋째 자리까지 반올림했습니다.)
""",
        """
At the third Key token the maximum grows from 1 to 3. The sum so far, 1 + e⁻¹ = 1.368, was taken relative to the maximum 1, so it is multiplied by e^(1−3) = 0.135 to match the new one, and adding the new term e^(3−3) = 1 gives l = 1.185. The final weights e^(s − 3) / l are the article's [0.114, 0.042, 0.844]. It is the computation of notebook 05, which subtracted the whole row's maximum first, done without knowing the maximum in advance. (Numbers are rounded to three decimals.)
""",
    ),
    md(
        """
## 출력도 같은 방법으로

가중치를 따로 모아 둘 필요도 없습니다. 지금까지의 출력 O_acc = Σ e^(s − m) · V_j도 l과 같은 값을 곱해 다시 맞추면서 더해 가고, 마지막에 l로 나누면 O = PV가 됩니다. `al.blockwise_steps`는 모든 Query 토큰과 모든 head에 대해 블록마다 이 값들을 기록합니다. 아래는 블록 크기가 1일 때 Head 1, 토큰 3의 행입니다. Value의 마지막 성분이 모두 1이므로 O_acc의 마지막 성분은 l과 같습니다.
""",
        """
## The output, the same way

The weights need not be kept either. The output so far, O_acc = Σ e^(s − m) · V_j, is rescaled by the same factor as l and added to, and dividing by l at the end gives O = PV. `al.blockwise_steps` records these values block by block, for every Query token and every head. Below is token 3's row in Head 1 with blocks of one Key token. Every Value's last component is 1, so the last component of O_acc equals l.
""",
    ),
    code(
        """
steps = al.blockwise_steps(tr.Q, tr.K, tr.V, tr.h, block=1)
for step in steps:
    print(f"{W['nb_key_token'].format(j=step.keys.start + 1)}: m = {fmt(step.m[0, 2], 'scores')}  "
          f"e^(m_old − m) = {fmt(step.rescale[0, 2], 'weights')}  l = {fmt(step.l[0, 2])}")
    print(f"    O_acc = {format_row(step.O_acc[0, 2])}   O_acc / l = {format_row(step.O[0, 2])}")
""",
        check=True,
    ),
    md(
        """
## 전체 Attention을 블록 단위로

이제 모든 Query 토큰(행)을 한꺼번에 계산하면서, Key 토큰은 block개씩 묶어 읽습니다. 블록 하나에 필요한 것은 그 블록의 점수 T × block개와 마스크의 같은 부분뿐입니다. 마스크도 T × T 행렬로 만들지 않고, 필요한 열만 마스크의 규칙으로 계산합니다. 아래 그림은 토큰 6개로 늘린 글의 예시(앞의 세 토큰은 글의 숫자 그대로)를 Key 토큰 세 개씩 읽을 때 Head 1에서 블록마다 바뀌는 값입니다. 왼쪽부터 그 블록의 점수 S/√dh + M, 블록 전후의 최댓값 m_old와 m, 다시 맞추는 값 e^(m_old − m), 누적 합 ℓ(위의 l), 지금까지의 출력 O_acc / ℓ이고, j는 그 블록의 Key 토큰입니다.

아래 위젯에서는 토큰 수 T(1–8)와 블록 크기를 바꾸고, ◀ ▶ 버튼으로 블록을 넘겨 볼 수 있습니다. 따라갈 Query 토큰을 고르면 그 행의 점수, m, l, 출력이 블록마다 어떻게 바뀌는지 한 줄씩 쌓여 보입니다. 마지막 블록에서는 한 번에 계산한 O가 옆에 나타납니다. 블록 크기가 T보다 작을 때만 T × T 행렬 없이 계산한 것이고, 블록 크기가 T이면 블록이 하나뿐이라 보통의 계산과 같습니다.
""",
        """
## The whole attention, block by block

Now every Query token (row) is computed at once, while the Key tokens are read block Key tokens at a time. One block needs only its own scores, T × block of them, and the same part of the mask. The mask is not made as a T × T matrix either: only the columns needed are computed from the mask's rule. The figure shows what changes at each block in Head 1 when the article's example, grown to six tokens (the first three are the article's numbers), is read three Key tokens at a time. From the left: the block's scores S/√dh + M, the maximum before and after the block, m_old and m, the rescaling factor e^(m_old − m), the running sum ℓ (the l above), and the output so far O_acc / ℓ; j are the block's Key tokens.

In the widget below you can change the number of tokens T (1–8) and the block size, and step through the blocks with the ◀ ▶ buttons. Pick a Query token to follow, and its row's scores, m, l and output pile up block by block, one line each. At the last block, the O computed all at once appears beside it. Only a block smaller than T computes without the T × T matrix: with a block of T there is one block, which is the ordinary computation.
""",
    ),
    figure(
        """
six = al.article_example(T=6)
al.figures.figure_blockwise_steps(al.blockwise_steps(six.Q, six.K, six.V, six.h, block=3), head=0)
""",
        "여섯 토큰으로 늘린 글의 예시, Head 1, 블록 크기 3: 블록마다 그 블록의 점수, 최댓값 m, 배율 e^(m_old − m), 합 ℓ, 지금까지의 출력 O_acc / ℓ.",
        "The article's example grown to six tokens, Head 1, blocks of 3: at each block its scores, the maximum m, the factor e^(m_old − m), the running sum ℓ and the output so far O_acc / ℓ.",
    ),
    code("al.blockwise_view(six, block=3, lang=LANG)"),
    md(
        """
## 모든 블록 크기, 모든 마스크에서 정확히 같습니다

블록 단위 계산은 근사가 아닙니다. 토큰 12개, head 4개인 예시에서 블록 크기 1부터 12까지, 마스크마다 `al.blockwise_attention`의 H를 한 번에 계산한 H와 비교합니다. 참조할 수 있는 Key 토큰이 하나도 없는 행(padding 토큰의 행)도 NaN이 아니라 0이 됩니다.
""",
        """
## Exactly the same, for every block size and every mask

The blockwise computation is no approximation. On an example of 12 tokens and 4 heads, for every block size from 1 to 12 and every mask, the H of `al.blockwise_attention` is compared with the H computed all at once. Rows that may see no Key token at all (the padding tokens' rows) come out as 0, not NaN.
""",
    ),
    code(
        """
outputs = {}
for mask in [al.Mask("causal"), al.Mask("none"), al.Mask("sliding", window=3), al.Mask("padding", length=9),
             al.Mask("prefix", prefix=4)]:
    full = al.random_example(12, 16, 4, seed=3, mask=mask)
    outputs[mask.name] = [al.blockwise_attention(full.Q, full.K, full.V, full.h, block, mask)
                          for block in range(1, 13)]
    equal = all(np.allclose(H, full.H, rtol=0, atol=1e-12) for H in outputs[mask.name])
    print(al.words.say("nb_blocks_equal", LANG, mask=W[f"mask.{mask.name}"], equal=equal))
print(al.words.say("nb_padding_zero", LANG, zero=all((H[9:] == 0).all() for H in outputs["padding"])))
""",
        check=True,
    ),
    md(
        """
## 메모리: T × T 행렬이 있을 때와 없을 때

한 번에 계산하면 head마다 T × T인 점수 행렬과 가중치 P가 필요합니다. 블록 단위로 계산하면 한 번에 T × block개의 점수와, Query 토큰마다 m과 l 두 값, 그리고 출력 O_acc(T × dh)만 있으면 됩니다. 값 하나를 float32(4바이트)로 저장하고 dh = 128, block = 128일 때 head 하나에 필요한 메모리를 T에 따라 계산해 보면 다음과 같습니다. T = 128k(131,072)이면 P 하나만 해도 64 GiB입니다.
""",
        """
## Memory with and without the T × T matrix

Computed all at once, every head needs the T × T score matrix and the weights P. Computed block by block, it needs T × block scores at a time, two values per Query token (m and l), and the output O_acc (T × dh). Here is the memory of one head against T, with float32 values (4 bytes), dh = 128 and block = 128. At T = 128k (131,072), P alone takes 64 GiB.
""",
    ),
    code(
        """
dh, block, nbytes = 128, 128, 4
print(f"{'T':>8} | {'P: T × T':>15} | {'blockwise_attention: T × block + 2T + T × dh':>45}")
for T in (1024, 4096, 16384, 32768, 131072):
    print(f"{T:>8,} | {al.look.bytes_text(T * T * nbytes):>15} | "
          f"{al.look.bytes_text((T * block + 2 * T + T * dh) * nbytes):>45}")
""",
        check=True,
    ),
    md(
        """
계산한 값만이 아니라 실제로 재어 봅니다. Python의 `tracemalloc`으로, 모든 단계를 저장하는 trace(head 1개, dh = 64)와 `al.blockwise_attention`(block = 128)이 계산 중에 가장 많이 쓴 메모리를 T = 256과 T = 1024에서 잽니다. T가 4배가 되면 trace의 메모리는 16배(T²)에 가깝게 늘고, 블록 단위 계산의 메모리는 약 4배(T)로 늡니다. 측정값은 NumPy 버전에 따라 조금 다를 수 있습니다. 더 큰 T에서 잰 값은 `benchmarks/bench_blockwise_memory.py`와 README에 있습니다.
""",
        """
Not only counted: measured. Python's `tracemalloc` records the peak memory of a trace that keeps every stage (one head, dh = 64) and of `al.blockwise_attention` (block = 128) at T = 256 and T = 1024. Four times the tokens take close to 16 times the memory for the trace (T²), and about 4 times for the blockwise computation (T). The figures may differ a little between NumPy versions; measurements at larger T are in `benchmarks/bench_blockwise_memory.py` and the README.
""",
    ),
    code(
        """
import tracemalloc


def peak_mib(fn, *args, **kwargs):
    tracemalloc.start()
    fn(*args, **kwargs)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


peaks = {}
for T in (256, 1024):
    Q, K, V = al.example_qkv(T, 64, 1, seed=0)
    peaks[T] = peak_mib(al.attention_trace, Q, K, V, 1), peak_mib(al.blockwise_attention, Q, K, V, 1, 128)
    print(f"T = {T:>4}: attention_trace {peaks[T][0]:5.1f} MiB   blockwise_attention {peaks[T][1]:4.1f} MiB")
print(f"T × 4 → attention_trace × {peaks[1024][0] / peaks[256][0]:.0f}, "
      f"blockwise_attention × {peaks[1024][1] / peaks[256][1]:.0f}")
""",
    ),
    md("## 연습 문제", "## Exercises"),
    exercise("11.rescale",
             "최댓값이 m_old에서 m_new로 커질 때, 지금까지의 합 l에 곱하는 값을 m_old와 m_new로 계산해 보세요. 토큰 3의 행에서는 Key 토큰 1·2까지 읽은 뒤 m = 1이고, Key 토큰 3의 점수 3이 들어와 최댓값이 3이 됩니다. 이 예시로 확인하고, 보이지 않는 다른 값으로도 확인합니다.",
             "When the maximum grows from m_old to m_new, by which factor is the sum so far l multiplied? Compute it from m_old and m_new. In token 3's row, m = 1 after Key tokens 1 and 2, and Key token 3's score 3 makes the maximum 3: it is checked on this example and on values you do not see.", 1),
    exercise("11.new_sum",
             "지금까지의 합 l(최댓값 m_old 기준), 새 최댓값 m_new, 새 점수 s로 새 Key 토큰을 읽은 뒤의 합을 계산해 보세요. 토큰 3의 행에서는 Key 토큰 1·2까지의 합이 l = 1 + e^(0 − 1), m_old = 1이고, Key 토큰 3의 점수는 s = 3, 새 최댓값은 m_new = 3입니다.",
             "Compute the sum after a new Key token from the sum so far l (relative to the maximum m_old), the new maximum m_new and the new score s. In token 3's row, after Key tokens 1 and 2, l = 1 + e^(0 − 1) and m_old = 1; Key token 3's score is s = 3, and the new maximum m_new = 3.", 2),
    exercise("11.weight",
             "점수 s, 마지막 최댓값 m, 마지막 합 l만으로 가중치를 계산해 보세요. P 행렬은 쓰지 않습니다. 토큰 3의 행에서 Key 토큰 1은 s = 1, m = 3이고 l은 연습 2의 값입니다.",
             "Compute a weight from its score s, the final maximum m and the final sum l alone, without the matrix P. In token 3's row, Key token 1 has s = 1 and m = 3, and l is the one of exercise 2.", 3),
    next_link("12_queries_and_keys.ipynb", "다음: 12 — 길이가 다른 Query와 Key", "Next: 12 — Queries and keys of different lengths"),
]
