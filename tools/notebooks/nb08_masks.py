# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, counted, exercise, figure, md, next_link

from attention_lab.numeric.conventions import CONVENTIONS
from attention_lab.numeric.masks import MASKS

NAME = "08_masks"

# What the prose counts, counted from the registries (a new mask or convention changes the words, or stops the build).
LATER = ("window", "packed")  # the two-sided window and packed sequences: notebook 12
SHOWN = [name for name in MASKS if name not in LATER and name != "custom"]  # custom: an array, no name to choose
if SHOWN != ["causal", "none", "sliding", "padding", "prefix"]:
    raise ValueError(f"notebook 08 describes the masks causal, none, sliding, padding and prefix, but the registry "
                     f"names {SHOWN}: describe the new one here and in SETTINGS, or add it to LATER")
MASKS_KO, MASKS_EN = counted(len(SHOWN), "ko"), counted(len(SHOWN), "en")
WAYS_KO, WAYS_EN = counted(len(CONVENTIONS), "ko"), counted(len(CONVENTIONS), "en")

CELLS = [
    md(
        f"""
# 08 — 마스크 더 알아보기: 여러 가지 마스크와 그 표기법

글에서는 마스크를 하나만 다뤘습니다. 다음 토큰을 예측하는 디코더의 Causal mask이고, 참조할 수 있는 칸은 0, 제외할 칸은 −∞인 행렬 M으로 점수에 더했습니다. 실제 코드에서는 이보다 많은 마스크와 표기법을 만납니다. 이 노트북은 그런 코드를 읽다가 생기는 질문들을 글의 예시 숫자로 하나씩 확인합니다. 왜 내 batch가 padding을 참조할까? sliding window는 무엇일까? `scaled_dot_product_attention`에서 잘 되던 마스크가 왜 `nn.MultiheadAttention`에서는 틀릴까? 튜토리얼은 왜 −∞ 대신 −1e9를 쓸까?

이 노트북에서 살펴볼 내용:

- 토큰 6개로 늘린 글의 예시에서, 마스크마다 M과 가중치 P: Causal mask, 마스크 없음, sliding window, padding, prefix
- padding: 실제 토큰이 padding을 참조하면 생기는 일, 그리고 padding 토큰 자신의 행을 어떻게 할지
- 같은 마스크를 코드에 쓰는 {WAYS_KO} 가지 방법: 0 / −∞를 더하기, bool(True = 참조 가능, SDPA), bool(True = 제외, `nn.MultiheadAttention`), −1e9, −1e4, float16의 최솟값
- 참조할 것이 하나도 없는 행에서 각 방법이 하는 일: NaN, 고르게 나뉜 가중치, 또는 0
- 흔한 버그: bool 마스크를 반대로 읽는 API에 넘기면 P가 뒤집힙니다
""",
        f"""
# 08 — Masks beyond the causal one, and the ways code writes them

The article teaches one mask: the causal mask of a decoder that predicts the next token, added to the scores as a matrix M of 0 where a token may be seen and −∞ where it may not. Code in the wild holds more masks than that, written in more ways. This notebook takes the questions that reading such code raises and answers each on the article's numbers. Why does my batch attend to padding? What is a sliding window? Why does a mask that works in `scaled_dot_product_attention` break `nn.MultiheadAttention`? Why do tutorials write −1e9 instead of −∞?

What you will see:

- on the article's example grown to six tokens, each mask as its M and its weights P: causal, none, sliding window, padding, prefix
- padding: what goes wrong when real tokens attend to it, and what to do with the padding tokens' own rows
- {WAYS_EN} ways code writes the same mask: 0 / −∞ added, boolean with True = may attend (SDPA), boolean with True = masked (`nn.MultiheadAttention`), −1e9, −1e4, and float16's minimum
- what each does to a row with nothing to attend to: NaN, weights spread evenly, or zeros
- the classic bug: a boolean mask handed to an API that reads it the other way round, which inverts P
""",
    ),
    code(SETUP),
    md(
        """
## 여섯 토큰으로 늘린 글의 예시

이 노트북은 글의 예시를 토큰 6개로 늘려 씁니다(`al.article_example(T=6)`). 토큰 1–3의 Q·K·V는 글의 값 그대로이고, 토큰 4–6은 작은 정수입니다. 그래서 Head 1의 S / √dh에서 토큰 1–3끼리의 점수는 글과 같습니다. 두 번째 행은 [3, 1.5, −1, …], 세 번째 행은 [1, 0, 3, …]로 시작합니다. Causal mask에서는 토큰 3이 토큰 4–6을 참조하지 않으므로 토큰 3의 가중치도 글과 같은 [0.114, 0.042, 0.844]이고, 나머지는 0입니다.
""",
        """
## The article's example, grown to six tokens

This notebook uses the article's example grown to six tokens (`al.article_example(T=6)`). Tokens 1–3 keep the article's Q, K and V; tokens 4–6 are small integers. So in Head 1's S / √dh, the scores among tokens 1–3 are the article's: row 2 starts [3, 1.5, −1, …] and row 3 [1, 0, 3, …]. Under the causal mask token 3 does not see tokens 4–6, so its weights are the article's [0.114, 0.042, 0.844], followed by zeros.
""",
    ),
    code(
        """
from matplotlib.figure import Figure

from attention_lab.numeric.conventions import CONVENTIONS
from attention_lab.numeric.masks import MASKS

W = al.words.table(LANG)  # the figures' words, in the reader's language
T = 6
tr6 = al.article_example(T=T)
for i in range(T):
    print(f"S/√dh[{i + 1},·] = {format_row(tr6.S_scaled[0, i], 'scores'):<28} P[{i + 1},·] = {format_row(tr6.P[0, i], 'weights')}")
""",
        check=True,
    ),
    md(
        f"""
## {MASKS_KO} 가지 마스크

마스크 레지스트리 `MASKS`에는 이름으로 고를 수 있는 마스크가 있습니다. 여기서는 그중 {MASKS_KO} 가지를 봅니다(양쪽으로 열린 창 `window`와 packed sequences의 `packed`는 12에서 다룹니다). 모두 Query 토큰 i(행)가 Key 토큰 j(열)를 참조할 수 있는지를 정하고, 참조할 수 있는 칸은 0, 없는 칸은 −∞인 M이 됩니다. 토큰 번호는 글처럼 1부터 셉니다.

- **Causal mask** (`"causal"`): j ≤ i. 자기 자신과 이전 토큰만 참조합니다. 글의 마스크입니다.
- **마스크 없음** (`None`): 모든 칸이 0입니다. 모든 토큰이 서로를 참조합니다.
- **Sliding window** (`al.Mask("sliding", window=w)`, 창 크기 w): i − w < j ≤ i. 자기 자신을 포함해 가장 최근의 w개 토큰만 참조합니다. TransformerLens의 local attention(`window_size`), Mistral의 sliding window가 이 띠 모양입니다. 아래에서는 w = 3이므로 토큰 3까지는 Causal mask와 같고, 토큰 4부터는 가장 오래된 토큰이 창 밖으로 밀려납니다.
- **Padding** (`al.Mask("padding", length=L)`, 실제 토큰 수 L): 앞의 L개가 실제 토큰이고 뒤는 padding입니다. 실제 토큰끼리는 Causal mask이고, padding 토큰은 아무도 참조하지 않으며 padding 토큰 자신의 행도 모두 −∞입니다. 아래에서는 L = 4입니다.
- **Prefix** (`al.Mask("prefix", prefix=p)`): 앞의 p개 토큰끼리는 서로 모두 참조하고, 그 뒤는 Causal mask입니다. 아래에서는 p = 3이므로 토큰 1도 토큰 2와 3을 참조합니다.

각 마스크가 실제로 쓰이는 곳은 레지스트리에 적혀 있습니다.
""",
        f"""
## {MASKS_EN.capitalize()} masks

The mask registry `MASKS` holds the masks chosen by name; here are {MASKS_EN} of them (the two-sided `window` and `packed` for packed sequences come in notebook 12). Each decides whether Query token i (a row) may attend to Key token j (a column), and becomes an M of 0 where it may and −∞ where it may not. Tokens are numbered from 1, as in the article.

- **causal** (`"causal"`): j ≤ i, itself and earlier tokens. The article's mask.
- **none** (`None`): every cell is 0; every token sees every token.
- **sliding window** (`al.Mask("sliding", window=w)`): i − w < j ≤ i, the last w tokens, itself included. This band is TransformerLens's local attention (`window_size`) and Mistral's sliding window. Below w = 3, so up to token 3 it is the causal mask, and from token 4 on the oldest token falls out of the window.
- **padding** (`al.Mask("padding", length=L)`): the first L tokens are real and the rest is padding. Causal among the real tokens; no token sees the padding, and the padding tokens' own rows are all −∞. Below L = 4.
- **prefix** (`al.Mask("prefix", prefix=p)`): the first p tokens all see each other; after them, causal. Below p = 3, so token 1 sees tokens 2 and 3 too.

Where each mask is met in real models is written in the registry.
""",
    ),
    code(
        """
SETTINGS = {"causal": al.Mask("causal"), "none": al.Mask("none"), "sliding": al.Mask("sliding", window=3),
            "padding": al.Mask("padding", length=4), "prefix": al.Mask("prefix", prefix=3)}
traces = {name: al.article_example(mask=mask, T=T) for name, mask in SETTINGS.items()}
for name in traces:
    print(W[f"mask.{name}"] + ": " + W[f"mask.{name}.used"])
""",
    ),
    md(
        """
그림의 위 줄은 마스크 M, 아래 줄은 그 마스크로 얻은 Head 1의 가중치 P입니다. −∞ 칸은 회색 빗금이고, P에서 그 칸은 정확히 0입니다. 토큰 3의 행이 Causal mask, sliding window(w = 3), padding(L = 4)에서 글과 같은 [0.114, 0.042, 0.844, 0, 0, 0]인 것을 확인해 보세요. Prefix에서도 토큰 3은 토큰 1–3을 참조하므로 같은 행입니다. 마스크가 없을 때만 토큰 3이 토큰 4–6까지 참조해 행이 달라집니다. Padding의 토큰 5와 6은 행 전체가 0입니다.

아래 위젯은 같은 여섯 토큰에서 시작합니다. T와 마스크, 마스크의 설정을 바꿔 가며 M, 마스크를 더한 점수, 가중치 P가 어떻게 바뀌는지 볼 수 있습니다. Query 토큰 수 T_q 항목은 Query 행을 마지막 몇 토큰의 것만 남깁니다. 그때 마스크가 어느 모서리에 맞춰지는지는 12에서 다룹니다.
""",
        """
The top row of the figure is each mask M, the bottom row Head 1's weights P under it. −∞ cells are grey and hatched, and in P those cells are exactly 0. Check that token 3's row is the article's [0.114, 0.042, 0.844, 0, 0, 0] under the causal mask, the sliding window (w = 3) and padding (L = 4); under prefix too, since token 3 sees tokens 1–3 there as well. Only without a mask does token 3 also see tokens 4–6, which changes its row. Under padding, tokens 5 and 6 have rows of zeros.

The widget below starts on the same six tokens: change T, the mask and its setting, and watch M, the masked scores and the weights P follow. The Query tokens T_q control keeps the Query rows of the last few tokens only; which corner the mask is then aligned to is notebook 12's subject.
""",
    ),
    figure(
        """
def mask_title(mask):  # e.g. "sliding window, window w = 3"
    return ", ".join([W[f"mask.{mask.name}"]] + [f"{W[f'param.{mask.name}.{p.name}']} = {p.text(value)}"
                                                 for p, value in mask.items()])

fig = Figure(figsize=(8.5, 13), layout="constrained")
axes = fig.subplots(4, 3)  # three masks a line: M above, P below
for n, (name, t) in enumerate(traces.items()):
    ax_M, ax_P = axes[2 * (n // 3), n % 3], axes[2 * (n // 3) + 1, n % 3]
    ylabel = W["query"] if n % 3 == 0 else None  # once a line: the panels keep room for their numbers
    al.figures.heatmap(ax_M, t.M, "scores", title=f"{mask_title(t.mask)}\\nM", ylabel=ylabel, lang=LANG)
    al.figures.heatmap(ax_P, t.P[0], "weights", title=f"P ({W['head_n'].format(n=1)})", xlabel=W["key"], ylabel=ylabel, fontsize=9, lang=LANG)
for ax in axes[2:, 2]:  # the second line holds the last two masks: its third column stays empty
    ax.set_visible(False)
fig
""",
        f"여섯 토큰으로 늘린 글의 예시에서 {MASKS_KO} 가지 마스크 M(위)과 각 마스크로 얻은 Head 1의 가중치 P(아래).",
        f"The {MASKS_EN} masks M (top) on the article's example grown to six tokens, and Head 1's weights P under each (bottom).",
    ),
    code('al.explorer(lang=LANG, view="masks", T=6)'),
    md(
        """
## Padding: 실제 토큰이 padding을 참조하면

길이가 다른 문장을 한 batch로 묶으면, 짧은 문장의 뒤를 padding 토큰으로 채워 길이를 맞춥니다. padding은 문장의 일부가 아니므로, 실제 토큰의 출력이 padding에 따라 달라지면 안 됩니다. 그렇지 않으면 같은 문장이라도 어떤 batch에 들어갔는지에 따라 결과가 달라집니다.

디코더에서는 padding이 실제 토큰 뒤에 있으므로 Causal mask가 이미 padding을 가려 줍니다. 문제는 양방향 인코더(마스크 없음)입니다. 아래에서는 토큰 1–4가 실제 토큰, 토큰 5–6이 padding인 예시를 마스크 없이 계산합니다. 그리고 padding 토큰의 K와 V를 바꿔(다른 batch에 들어간 경우) 실제 토큰의 출력 O가 얼마나 바뀌는지 봅니다. padding Key를 모든 Query에서 −∞로 가리면 실제 토큰의 출력은 전혀 바뀌지 않습니다.
""",
        """
## Padding: when real tokens attend to it

Sentences of different lengths are batched together by filling the short ones up with padding tokens. Padding is not part of the sentence, so a real token's output must not depend on it: otherwise the same sentence gives different results depending on which batch it lands in.

In a decoder the padding comes after the real tokens, so the causal mask already hides it from them. The trouble is in a bidirectional encoder (no mask). Below, tokens 1–4 are real and tokens 5–6 padding, computed without a mask. Then we change the padding tokens' K and V (the same sentence in another batch) and measure how much the real tokens' outputs O change. With the padding Keys masked (−∞) for every Query, the real tokens' outputs do not change at all.
""",
    ),
    code(
        """
real = np.arange(T) < 4  # tokens 1-4 are real, 5-6 padding
K_other, V_other = tr6.K.copy(), tr6.V.copy()
K_other[~real] += 3
V_other[~real] *= -2
for label, mask in [("nb_no_mask", None), ("nb_padding_keys_masked", np.tile(real, (T, 1)))]:
    before = al.attention_trace(tr6.Q, tr6.K, tr6.V, h=tr6.h, mask=mask)
    after = al.attention_trace(tr6.Q, K_other, V_other, h=tr6.h, mask=mask)
    on_padding = before.P[0, real][:, ~real].sum(axis=1)  # Head 1: the weight each real token gives the padding
    change = np.abs(after.O[:, real] - before.O[:, real]).max()
    print(al.words.say("nb_on_padding", LANG, label=W[label], weights=format_row(on_padding, "weights"),
                       change=al.look.format_value(change)))
""",
        check=True,
    ),
    md(
        """
## Padding 토큰 자신의 행

padding Key를 가리는 것은 모든 라이브러리가 같습니다. 다른 것은 padding 토큰 자신의 행(Query)입니다.

- PyTorch `nn.MultiheadAttention`의 `key_padding_mask`나 Hugging Face의 `attention_mask`는 Key만 가립니다. padding 토큰의 행은 실제 토큰들을 참조하고 출력도 나옵니다. 그 출력은 아무도 쓰지 않습니다(loss에서도 빠집니다).
- attention_lab의 `"padding"`은 padding 토큰의 행까지 가립니다. padding 토큰은 아무것도 참조하지 않으므로 가중치와 출력이 모두 0입니다. padding을 빼고 실제 토큰만 계산하는 FlashAttention의 가변 길이(varlen) 방식도 padding 자리에 0을 남깁니다.

실제 토큰의 행은 두 방식에서 똑같고, 다른 것은 padding 토큰의 행뿐입니다. attention_lab이 0을 고른 이유는, padding 토큰은 읽을 것이 없고 출력 0이 그 사실을 그대로 보여 주기 때문입니다. 실제 토큰들의 Value를 섞은 출력은 의미 있는 값처럼 보입니다. 아래는 Causal mask에 padding을 더한 두 방식의 P(Head 1)입니다. Key만 가린 방식은 `al.causal_allowed(T) & real`처럼 bool 배열로 만들 수 있습니다.
""",
        """
## The padding tokens' own rows

Every library masks the padding Keys. Where they differ is the padding tokens' own rows (their Queries).

- PyTorch's `key_padding_mask` of `nn.MultiheadAttention`, and Hugging Face's `attention_mask`, mask only the Keys. The padding tokens' rows attend to the real tokens and produce an output, which nothing uses (the loss leaves it out).
- attention_lab's `"padding"` masks the padding tokens' rows too. A padding token attends to nothing, so its weights and output are 0. FlashAttention's variable-length (varlen) path, which drops the padding and computes only the real tokens, leaves 0 at the padded positions as well.

The real tokens' rows are the same both ways; only the padding tokens' rows differ. attention_lab chooses the zeros because a padding token has nothing to read, and an output of 0 says so, whereas a mix of the real tokens' Values looks like a meaningful number. Below are both versions of P (Head 1) for the causal mask with padding. The keys-only version is a boolean array such as `al.causal_allowed(T) & real`.
""",
    ),
    code(
        """
keys_only = al.article_example(mask=al.causal_allowed(T) & real, T=T)
padded = traces["padding"]
for i in range(T):
    print(f"P[{i + 1},·] = {format_row(keys_only.P[0, i], 'weights'):<36} {format_row(padded.P[0, i], 'weights')}")
print(W["nb_keys_only_columns"])
""",
        check=True,
    ),
    md(
        f"""
## 같은 마스크를 쓰는 {WAYS_KO} 가지 방법

같은 padding 마스크(T = 6, L = 4)를 코드에서는 여러 방법으로 씁니다. `attention_lab.conventions`의 `CONVENTIONS`에 여섯 가지를 모았습니다. `write(allowed)`는 참조 가능 여부(`allowed`, True = 참조 가능)를 그 방법으로 쓴 값이고, `additive(...)`는 그 방법을 읽는 라이브러리가 실제로 점수에 더하는 M입니다. 먼저 각 방법의 이름, 쓰이는 곳, 그리고 토큰 3의 행을 어떻게 쓰는지 봅니다.
""",
        f"""
## {WAYS_EN.capitalize()} ways to write the same mask

Code writes the same padding mask (T = 6, L = 4) in several ways; `CONVENTIONS` in `attention_lab.conventions` collects {WAYS_EN}. `write(allowed)` writes which tokens may be attended to (`allowed`, True = may attend) in that way, and `additive(...)` is the M that a library reading it actually adds to the scores. First each way's name, where it is used, and how it writes token 3's row.
""",
    ),
    code(
        """
allowed = al.allowed_of(al.Mask("padding", length=4), T)

def as_written(row):  # True/False for a boolean mask, numbers for a float one
    return "[" + ", ".join(str(x) for x in row) + "]" if row.dtype == bool else format_row(row, "scores")

for name, convention in CONVENTIONS.items():
    print(f"{name:<12} " + W[f"convention.{name}"] + " — " + W[f"convention.{name}.used"])
    print(f"{'':<12} {W['nb_row_3']}: {as_written(convention.write(allowed)[2])}")
""",
    ),
    md(
        f"""
이제 {WAYS_KO} 방법 모두로 P(Head 1)를 계산합니다. 각 방법이 더하는 M을 `al.apply_mask`로 S / √dh에 더하고 `al.softmax`를 적용합니다. `al.apply_mask`는 −∞뿐 아니라 어떤 유한한 M도 받습니다. 토큰 3처럼 참조할 토큰이 있는 행은 {WAYS_KO} 방법 모두 같습니다. −1e9를 더한 점수도 exp를 거치면 float64에서 정확히 0이 되기 때문입니다. 달라지는 것은 padding 토큰 5처럼 참조할 것이 하나도 없는 행입니다.
""",
        f"""
Now P (Head 1) in all {WAYS_EN} ways: the M each adds goes onto S / √dh with `al.apply_mask`, then `al.softmax`. `al.apply_mask` takes any finite M, not only −∞. A row with something to attend to, like token 3's, comes out the same all {WAYS_EN} ways: a score with −1e9 added becomes exactly 0 through exp in float64, too. What differs is a row with nothing to attend to, like padding token 5's.
""",
    ),
    code(
        """
S_scaled = padded.S_scaled[0]
weights = {}
for name, convention in CONVENTIONS.items():
    M = convention.additive(convention.write(allowed))  # what a library reading this convention adds
    weights[name] = al.softmax(al.apply_mask(S_scaled, M))
    print(f"{name:<12} P[3,·] = {format_row(weights[name][2], 'weights'):<34} P[5,·] = {format_row(weights[name][4], 'weights')}")
""",
        check=True,
    ),
    md(
        f"""
그림으로 보면 위쪽 네 행(실제 토큰)은 {WAYS_KO} 방법이 모두 같고, 테두리를 친 아래 두 행(padding 토큰)만 다릅니다. 위 줄의 세 방법은 0을, 아래 줄의 세 방법은 마스크가 없을 때와 같은 가중치를 줍니다.
""",
        f"""
In a figure: the top four rows (the real tokens) are the same in all {WAYS_EN}, and only the framed bottom two rows (the padding tokens) differ: the three ways in the top line give zeros, the three in the bottom line the weights of no mask at all.
""",
    ),
    figure(
        """
fig = Figure(figsize=(8.5, 6.6), layout="constrained")
for n, (ax, (name, P)) in enumerate(zip(fig.subplots(2, 3).flat, weights.items(), strict=True)):
    ylabel = W["query"] if n % 3 == 0 else None  # once a line: the panels keep room for their numbers
    al.figures.heatmap(ax, P, "weights", title=W[f"convention.{name}"], xlabel=W["key"], ylabel=ylabel, fontsize=9, lang=LANG)
    al.figures.outline(ax, 4, 0, nrows=2, ncols=T)
fig
""",
        f"padding(L = 4)을 {WAYS_KO} 가지 방법으로 적었을 때의 P: 실제 토큰의 행은 모두 같고, 테두리 친 padding 토큰의 행만 다릅니다.",
        f"P with padding (L = 4) written the {WAYS_EN} ways: the real tokens' rows agree, and only the framed rows of the padding tokens differ.",
    ),
    md(
        """
## 참조할 것이 없는 행

토큰 5의 행은 모든 칸이 −∞입니다. Softmax를 글처럼 그대로 계산하면 어떻게 될까요? exp(−∞) = 0이므로 분자도 0, 분모(합)도 0이고, 0 / 0은 NaN(not a number)입니다. 05에서 배운 대로 최댓값을 먼저 빼도 소용없습니다. 최댓값이 −∞이고 −∞ − (−∞)도 NaN이기 때문입니다. 아래의 단순한 계산은 NaN이 생기는 것을 보여 주기 위한 것이라, NumPy의 경고를 끄고(`np.errstate`) 실행합니다.
""",
        """
## A row with nothing to attend to

Every cell of token 5's row is −∞. What does the softmax, computed as the article writes it, do with it? exp(−∞) = 0, so the numerator is 0 and so is the denominator (the sum), and 0 / 0 is NaN (not a number). Subtracting the maximum first, as notebook 05 taught, does not help: the maximum is −∞, and −∞ − (−∞) is NaN too. The naive computation below only shows the NaN appearing, so it runs with NumPy's warnings switched off (`np.errstate`).
""",
    ),
    code(
        """
row = al.apply_mask(S_scaled, CONVENTIONS["additive"].write(allowed))[4]  # token 5: every score is −∞
with np.errstate(invalid="ignore"):
    e = np.exp(row)
    naive = e / e.sum()
    shifted = row - row.max()
print("S/√dh + M [5,·] =", format_row(row, "scores"))
print("exp             =", format_row(e, "values"), "  Σ exp =", al.look.format_value(e.sum()))
print("exp / Σ exp     =", format_row(naive))
print("x − max x       =", format_row(shifted))
print("al.softmax      =", format_row(al.softmax(row), "weights"))
""",
        check=True,
    ),
    md(
        """
유한한 수(−1e9, −1e4, −65504)로 −∞를 대신하면 NaN은 생기지 않지만, 더 알아채기 어려운 일이 생깁니다. 한 행의 모든 점수에 같은 수 c를 더하면 Softmax는 바뀌지 않습니다(05에서 본 최댓값 빼기와 같은 이유입니다). 그래서 −1e9를 더한 토큰 5의 행은 마스크가 없을 때의 가중치와 같아집니다. padding 토큰이 padding을 포함한 모든 토큰을 조용히 참조하는 것입니다.

튜토리얼에서 흔히 보듯 −1e9를 점수 위에 덮어쓰면(Annotated Transformer의 `masked_fill`) 행의 모든 점수가 똑같이 −1e9가 되고, 가중치는 1/6씩 고르게 나뉩니다. 모델이 흔히 쓰는 float32에서는 더해도 같은 일이 생깁니다. float32는 유효 숫자가 일곱 자리 정도라서 −1e9 + 2가 그냥 −1e9가 되기 때문입니다.
""",
        """
Finite stand-ins for −∞ (−1e9, −1e4, −65504) give no NaN, but something harder to notice. Adding the same number c to every score of a row does not change its softmax (for the same reason that subtracting the maximum, in notebook 05, does not). So token 5's row with −1e9 added gets exactly the weights it would have without a mask: the padding token silently attends to every token, padding included.

Written over the scores instead, as tutorials often do (the Annotated Transformer's `masked_fill`), −1e9 makes every score of the row the same −1e9, and the weights are spread evenly, 1/6 each. In float32, which models usually compute in, adding it does the same: float32 keeps about seven significant digits, so −1e9 + 2 is simply −1e9.
""",
    ),
    code(
        """
written_over = np.where(allowed, S_scaled, -1e9)  # masked_fill: −1e9 replaces the score
S_masked32 = S_scaled.astype(np.float32) + CONVENTIONS["minus_1e9"].write(allowed).astype(np.float32)
for label, P5 in [("nb_added_float64", weights["minus_1e9"][4]), ("nb_no_mask_at_all", al.softmax(S_scaled[4])),
                  ("nb_written_over", al.softmax(written_over)[4]), ("nb_added_float32", al.softmax(S_masked32)[4])]:
    print(f"P[5,·] = {format_row(P5, 'weights'):<44} {W[label]}")
print(f"S/√dh + M [5,·] = {format_row(S_masked32[4], 'scores')}   {W['nb_added_float32']}")
""",
        check=True,
    ),
    md(
        """
## attention_lab이 하는 일과 그 이유

attention_lab은 M에 정확히 −∞를 쓰고, `al.softmax`는 모든 칸이 −∞인 행을 "참조할 것이 없음"으로 봅니다. 그 행의 최댓값 −∞를 0으로 바꿔 빼므로 exp는 모두 0이 되고, 합 0으로 나누는 대신 1로 나눕니다. 그래서 가중치와 출력이 모두 0이고, NaN은 생기지 않습니다. 참조할 토큰이 하나라도 있는 행은 보통의 Softmax와 똑같습니다.

- NaN 대신 0인 이유: NaN은 퍼집니다. 다음 층에서 padding 토큰의 출력은 Value가 되고, 실제 토큰들은 그 Value에 가중치 0을 줍니다. 그런데 0 × NaN = NaN이므로 모든 토큰의 출력이 NaN이 됩니다. 아래에서 확인합니다.
- 고르게 나뉜 가중치(−1e9) 대신 0인 이유: 가중치를 나누어 주면 padding 토큰이 조용히 무언가를 읽습니다. 오류도 없고 값도 그럴듯해서 알아채기 어렵습니다.
- PyTorch의 `scaled_dot_product_attention`도 2024년에 같은 선택을 했습니다(`_safe_softmax`). 참조할 것이 없는 행에 0을 돌려줍니다. 반면 `nn.MultiheadAttention`이 가중치를 돌려줄 때는 여전히 NaN입니다. 09에서 숫자로 확인합니다.
""",
        """
## What attention_lab does, and why

attention_lab writes exactly −∞ into M, and `al.softmax` reads a row of nothing but −∞ as "nothing to attend to": it replaces that row's maximum, −∞, by 0 before subtracting it, so every exp is 0, and it divides by 1 instead of by the sum 0. The weights and the output are all 0, never NaN. A row with at least one token to attend to gets the ordinary softmax.

- Zeros rather than NaN, because NaN spreads. In the next layer the padding token's output becomes a Value, and the real tokens give it weight 0; but 0 × NaN = NaN, so every token's output becomes NaN. Checked below.
- Zeros rather than weights spread evenly (−1e9), because spread weights make the padding token quietly read something: no error, plausible numbers, hard to notice.
- PyTorch's `scaled_dot_product_attention` made the same choice in 2024 (`_safe_softmax`): it returns 0 for a row with nothing to attend to. `nn.MultiheadAttention`, when it returns its weights, still gives NaN; notebook 09 shows it on numbers.
""",
    ),
    code(
        """
with np.errstate(invalid="ignore"):  # the naive softmax's 0 / 0 is what this cell shows
    exps = np.exp(padded.S_masked[0])
    P_naive = exps / exps.sum(axis=-1, keepdims=True)  # NaN in the rows of tokens 5 and 6
    O_naive = al.weighted_sum(P_naive, padded.Vh[0])
    # the next layer, reading these outputs as its Values (the same weights, for simplicity)
    next_ours, next_naive = al.weighted_sum(padded.P[0], padded.O[0]), al.weighted_sum(padded.P[0], O_naive)
print("Σ P[i,·] =", format_row(padded.P[0].sum(axis=-1), "weights"))
print("O[5,·]   =", format_row(padded.O[0, 4], "values"), f"  ({W['nb_naive']}: {format_row(O_naive[4])})")
print(al.words.say("nb_nan_rows", LANG, ours=int(np.isnan(next_ours).any(axis=1).sum()),
                   naive=int(np.isnan(next_naive).any(axis=1).sum()), T=T))
""",
        check=True,
    ),
    md(
        """
## −1e4와 float16의 최솟값은 왜 쓰일까

−1e9는 float16(절반 정밀도)에서는 나타낼 수 없어 −∞가 됩니다. float16이 나타낼 수 있는 가장 작은 수는 −65504이기 때문입니다. 그래서 예전 BERT 코드는 −1e4(−10000)를, Hugging Face 코드는 그 자료형의 최솟값(`torch.finfo(dtype).min`, float16에서는 −65504)을 씁니다. 그런데 최솟값에 다른 마스크를 더하면 다시 −∞로 넘칠 수 있습니다. 예를 들어 Causal mask와 padding 마스크를 각각 최솟값으로 만들어 더하면 −∞가 됩니다.
""",
        """
## Why −1e4 and float16's minimum exist

−1e9 cannot be held in float16 (half precision): it becomes −∞, because the most negative float16 number is −65504. So older BERT code writes −1e4 (−10000), and Hugging Face code the most negative number of the dtype (`torch.finfo(dtype).min`, −65504 in float16). Yet adding another mask to that minimum can overflow back to −∞: a causal mask and a padding mask, each written with the minimum and then added, give −∞.
""",
    ),
    code(
        """
fmin = np.finfo(np.float16).min
with np.errstate(over="ignore"):  # the overflow to −∞ is what this cell shows
    in_float16 = {"−1e9": np.float16(-1e9), "−1e4": np.float16(-1e4), "finfo(float16).min": fmin,
                  "min + min": fmin + fmin}
for label, value in in_float16.items():
    print(f"{label:<20} → float16: {al.look.format_value(float(value), 'scores')}")
""",
        check=True,
    ),
    md(
        """
## 흔한 버그: bool 마스크를 반대로 읽는 API

PyTorch의 두 API는 bool 마스크를 반대로 읽습니다. `torch.nn.functional.scaled_dot_product_attention`(SDPA)에서 True는 "참조 가능"이고, `nn.MultiheadAttention`의 `attn_mask`와 `key_padding_mask`에서 True는 "제외"입니다. SDPA에 맞게 만든 Causal mask `allowed`를 `nn.MultiheadAttention`에 그대로 넘기면, 참조해야 할 칸이 제외되고 제외해야 할 칸이 남습니다. 오류는 나지 않습니다.

아래는 같은 `allowed`를 두 API가 읽은 결과를 attention_lab으로 계산한 것입니다(Head 1, T = 6).
""",
        """
## The classic bug: a boolean mask read the other way round

PyTorch's two APIs read a boolean mask in opposite ways. In `torch.nn.functional.scaled_dot_product_attention` (SDPA) True means "may attend"; in `nn.MultiheadAttention`'s `attn_mask` and `key_padding_mask` True means "masked". Hand the causal mask `allowed`, built for SDPA, to `nn.MultiheadAttention` as it is, and the cells meant to be seen are removed while the cells meant to be hidden stay. No error is raised.

Below, the same `allowed` as each API reads it, computed with attention_lab (Head 1, T = 6).
""",
    ),
    code(
        """
causal = al.causal_allowed(T)
P_sdpa = al.softmax(al.apply_mask(tr6.S_scaled[0], CONVENTIONS["may_attend"].additive(causal)))
P_mha = al.softmax(al.apply_mask(tr6.S_scaled[0], CONVENTIONS["masked"].additive(causal)))
for i in range(T):
    print(f"P[{i + 1},·] = {format_row(P_sdpa[i], 'weights'):<44} {format_row(P_mha[i], 'weights')}")
print(al.words.say("nb_read_both", LANG, left=W["convention.may_attend"], right=W["convention.masked"]))
""",
        check=True,
    ),
    figure(
        """
fig = Figure(figsize=(9, 4.4), layout="constrained")
for ax, name, P in zip(fig.subplots(1, 2), ("may_attend", "masked"), (P_sdpa, P_mha), strict=True):
    title = W["nb_read_as"].format(mask="al.causal_allowed(6)", convention=W[f"convention.{name}"])
    al.figures.heatmap(ax, P, "weights", title=title, xlabel=W["key"], ylabel=W["query"], lang=LANG)
fig
""",
        "같은 Causal mask 불리언 배열을 '참조 가능'으로 읽은 P(왼쪽)와 '가림'으로 읽은 P(오른쪽): 오른쪽은 미래 토큰만 참조합니다.",
        "The same boolean causal mask read as 'may attend' (left) and as 'masked' (right): on the right every token attends to future tokens only.",
    ),
    md(
        """
오른쪽에서는 모든 토큰이 자기 자신은 보지 못하고 미래 토큰만 참조합니다. Causal mask가 막으려던 바로 그 정보 누출입니다. 마지막 토큰 6은 미래가 없으니 참조할 것이 없습니다. attention_lab은 0을 주지만, `nn.MultiheadAttention`은 이 행에서 NaN을 돌려줍니다(09). 고치는 방법은 두 가지입니다. `~allowed`처럼 뒤집어 넘기거나, 0 / −∞의 float 마스크를 넘기는 것입니다. float 마스크는 두 API 모두 점수에 그대로 더하므로 헷갈릴 일이 없습니다.

padding에서도 같은 버그가 흔합니다. Hugging Face의 `attention_mask`는 1이 실제 토큰이지만, `nn.MultiheadAttention`의 `key_padding_mask`는 True가 padding입니다.
""",
        """
On the right, every token attends only to future tokens and never to itself: exactly the leak the causal mask exists to stop. The last token, 6, has no future and so nothing to attend to; attention_lab gives it zeros, `nn.MultiheadAttention` NaN in that row (notebook 09). Two fixes: pass it inverted, `~allowed`, or pass a float mask of 0 / −∞, which both APIs add to the scores as it is, so there is nothing to read the wrong way round.

The same bug is common with padding: Hugging Face's `attention_mask` has 1 for a real token, while `nn.MultiheadAttention`'s `key_padding_mask` has True for padding.
""",
    ),
    md("## 연습 문제", "## Exercises"),
    exercise("08.sliding",
             "토큰이 T개이고 창 크기가 w인 sliding window 마스크 M(T × T)을 직접 만들어 보세요. 참조할 수 있는 칸은 0, 없는 칸은 −∞입니다. 이 노트북에서는 T = 5, w = 2로 확인하고, 다른 T와 w로도 확인합니다.",
             "Build the sliding-window mask M for T tokens and a window of w (T × T) yourself: 0 where a token may be seen, −∞ where not. It is checked at T = 5, w = 2 and at other T and w.", 1),
    exercise("08.wrong_api",
             "동료가 마스크를 bool 배열 `allowed`(True = 참조 가능, SDPA의 방식)로 만들어 `nn.MultiheadAttention`의 `attn_mask`에 넘겼습니다. `nn.MultiheadAttention`이 실제로 점수에 더하는 M(0 / −∞)을 `allowed`로 구해 보세요. 이 노트북에서는 연습 1의 sliding window(T = 5, w = 2)로 확인하고, 다른 `allowed`로도 확인합니다.",
             "A colleague built a mask as a boolean array `allowed` (True = may attend, as SDPA reads it) and passed it to `nn.MultiheadAttention` as `attn_mask`. Which M (0 / −∞) does `nn.MultiheadAttention` actually add to the scores? Compute it from `allowed`: it is checked on exercise 1's sliding window (T = 5, w = 2) and on other masks.", 2),
    exercise("08.padding_row",
             "글의 예시를 토큰 5개로 늘리고 앞의 3개만 실제 토큰인 padding 마스크를 씁니다. 함수가 받는 `padded`가 이 예시입니다(`al.article_example(mask=al.Mask(\"padding\", length=3), T=5)`, 직접 만들어 `answer(padded)`로 확인할 수 있습니다). 마스크된 점수를 −∞ 대신 −1e9로 덮어쓰면(`masked_fill`), padding 토큰 4의 가중치(Head 1의 P의 네 번째 행)는 어떻게 될까요? 먼저 예측해 본 뒤 계산해 보세요.",
             "Grow the article's example to 5 tokens with a padding mask whose first 3 tokens are real: that is the `padded` your function receives (`al.article_example(mask=al.Mask(\"padding\", length=3), T=5)`; make it yourself to try `answer(padded)`). If the masked scores are overwritten with −1e9 instead of −∞ (`masked_fill`), what are padding token 4's weights (row 4 of Head 1's P)? Predict first, then compute.", 3),
    next_link("09_pytorch.ipynb", "다음: 09 — 같은 숫자를 PyTorch로", "Next: 09 — The same numbers from PyTorch"),
]
