# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "09_pytorch"

CELLS = [
    md(
        """
# 09 — 같은 숫자를 PyTorch로

지금까지의 숫자는 모두 attention_lab이 NumPy로 계산한 것입니다. 실제 모델 코드에서는 PyTorch의 함수가 같은 계산을 합니다. 이 노트북은 글의 예시를 PyTorch의 두 API에 넣어, 글의 숫자가 그대로 나오는지 확인하고 PyTorch의 인자 이름을 글의 용어로 읽어 봅니다.

이 노트북에서 살펴볼 내용:

- `torch.nn.functional.scaled_dot_product_attention`(SDPA)을 head마다 적용하면 글의 출력 O, 즉 토큰 3의 [0.114, 0.042, 0.844, 1]이 나온다는 것 (`is_causal=True`로, 그리고 bool 마스크를 직접 넘겨서)
- 입력·출력 projection을 항등 행렬로 둔 `torch.nn.MultiheadAttention`이 가중치 P와 Concat한 H를 그대로 돌려준다는 것
- attention_lab의 이름(S, P, O, H, M)과 PyTorch의 인자(`attn_mask`, `is_causal`, `key_padding_mask`, `need_weights`)의 대응표
- PyTorch가 다르게 동작하는 곳: 참조할 것이 없는 행, Key만 가리는 `key_padding_mask`, bool 마스크의 방향

PyTorch는 선택 사항입니다. `pip install -e ".[torch]"`로 추가할 수 있고, 기본 설치와 Binder에는 없습니다. PyTorch가 없어도 이 노트북은 오류 없이 실행되며, 저장된 출력은 PyTorch가 있을 때의 결과입니다.
""",
        """
# 09 — The same numbers from PyTorch

Every number so far came from attention_lab, in NumPy. In real model code PyTorch's functions do the same computation. This notebook puts the article's example through PyTorch's two attention APIs, checks that the article's numbers come out as they are, and reads PyTorch's argument names in the article's vocabulary.

What you will see:

- `torch.nn.functional.scaled_dot_product_attention` (SDPA), applied head by head, gives the article's output O, token 3's [0.114, 0.042, 0.844, 1] (with `is_causal=True`, and with a boolean mask passed explicitly)
- `torch.nn.MultiheadAttention` with identity in- and out-projections returns the weights P and the concatenated H as they are
- a table from attention_lab's names (S, P, O, H, M) to PyTorch's arguments (`attn_mask`, `is_causal`, `key_padding_mask`, `need_weights`)
- where PyTorch behaves differently: rows with nothing to attend to, `key_padding_mask` masking only the Keys, and which way round a boolean mask is read

PyTorch is optional: `pip install -e ".[torch]"` adds it, and the default install and Binder leave it out. Without PyTorch this notebook still runs without errors; its stored outputs show what it prints with PyTorch.
""",
    ),
    code(SETUP),
    md(
        """
## PyTorch 불러오기

PyTorch가 없으면 `torch`는 `None`이 되고, PyTorch를 쓰는 셀(`if torch:`)은 아무것도 하지 않습니다. 모든 계산은 float64로 합니다. 그래야 attention_lab의 숫자와 마지막 자리까지 비교할 수 있습니다.
""",
        """
## Loading PyTorch

Without PyTorch, `torch` is `None` and the cells that use it (`if torch:`) do nothing. Everything is computed in float64, so that it can be compared with attention_lab's numbers to the last digits.
""",
    ),
    code(
        """
try:
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None
    print(al.words.table(LANG)["no_torch"])
else:
    print("PyTorch", torch.__version__.split("+")[0])

from matplotlib.figure import Figure

from attention_lab.numeric.conventions import CONVENTIONS

W = al.words.table(LANG)  # the figures' words, in the reader's language


def difference(what, torch_result, ours, name):  # -> one line: how far PyTorch's numbers are from the trace's
    value = f"{np.abs(np.asarray(torch_result) - ours).max():.1e}"
    return al.words.say("nb_difference", LANG, what=what, name=name, value=value)
""",
    ),
    md(
        """
## 맞춰야 할 숫자

먼저 attention_lab이 계산한 글의 숫자입니다. Head 1의 가중치 P와, 토큰 3의 출력 O입니다. 아래에서 PyTorch가 이 숫자를 그대로 내는지 확인합니다.
""",
        """
## The numbers to match

First, the article's numbers as attention_lab computes them: Head 1's weights P and token 3's output O. Below, PyTorch must produce exactly these.
""",
    ),
    code(
        """
for i in range(tr.T):
    print(f"P[{i + 1},·] = {format_row(tr.P[0, i], 'weights')}")
print("O[3,·] =", format_row(tr.O[0, 2]))
""",
        check=True,
    ),
    md(
        """
## SDPA: head마다 Core Attention

`F.scaled_dot_product_attention(query, key, value, attn_mask=None, is_causal=False, scale=None)`는 softmax(query keyᵀ × scale + 마스크) × value를 계산합니다. 마지막 두 축이 (토큰, 성분)이고, 앞의 축은 모두 batch처럼 따로 계산합니다. 그래서 head별로 나눈 `tr.Qh`, `tr.Kh`, `tr.Vh`(h × T × dh)를 그대로 넣으면 head마다 Core Attention을 한 결과 O(h × T × dh)가 나옵니다. `scale`을 주지 않으면 1 / √dh를 곱합니다. `is_causal=True`는 Causal mask를 뜻합니다. 다만 Query 토큰과 Key 토큰의 수가 다르면(KV 캐시의 디코드 단계 등) `is_causal=True`는 왼쪽 위 모서리에 맞춘 마스크라서 틀린 숫자를 냅니다: [12 — 길이가 다른 Query와 Key](12_queries_and_keys.ipynb). SDPA는 가중치 P를 돌려주지 않고 출력 O만 돌려줍니다.
""",
        """
## SDPA: Core Attention, head by head

`F.scaled_dot_product_attention(query, key, value, attn_mask=None, is_causal=False, scale=None)` computes softmax(query keyᵀ × scale + mask) × value. The last two axes are (token, component), and every axis in front of them is computed separately, like a batch. So the per-head `tr.Qh`, `tr.Kh`, `tr.Vh` (h × T × dh), passed as they are, give each head's Core Attention output O (h × T × dh). Without `scale` it multiplies by 1 / √dh. `is_causal=True` means the causal mask; but when the numbers of Query and Key tokens differ (a decode step with the KV cache, say) it is a mask aligned to the top-left corner, which gives wrong numbers: see [12 — Queries and keys of different lengths](12_queries_and_keys.ipynb). SDPA does not return the weights P, only the output O.
""",
    ),
    code(
        """
if torch:
    q, k, v = (torch.tensor(x) for x in (tr.Qh, tr.Kh, tr.Vh))  # (h, T, dh) float64: one head per batch entry
    O_causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (h, T, dh)
    print("SDPA: O[3,·] =", format_row(O_causal[0, 2].numpy()))
    print(difference("SDPA, is_causal=True", O_causal, tr.O, "O"))
""",
    ),
    md(
        """
마스크를 직접 넘길 수도 있습니다. SDPA의 `attn_mask`가 bool이면 True는 "참조 가능"이고, attention_lab의 `allowed`와 같은 방향입니다. float이면 점수에 그대로 더하므로 attention_lab의 M(0 / −∞)을 넘기면 됩니다. 0과 1로 된 float 마스크는 흔한 실수입니다. 참조할 수 있는 점수에 1을, 나머지에 0을 더할 뿐 아무것도 가리지 않으므로, 토큰 1도 미래 토큰에 가중치를 줍니다.
""",
        """
A mask can be passed explicitly too. A boolean `attn_mask` in SDPA has True for "may attend", the same way round as attention_lab's `allowed`. A float one is added to the scores as it is, so attention_lab's M (0 / −∞) is what to pass. A float mask of 0 and 1 is a common mistake: it adds 1 to the allowed scores and 0 to the others, hides nothing, and so token 1 gives weight to future tokens too.
""",
    ),
    code(
        """
allowed = al.causal_allowed(tr.T)  # True = may attend
if torch:
    O_bool = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor(allowed))
    O_float = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor(tr.M))
    O_ones = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor(allowed.astype(float)))
    print(difference(W["convention.may_attend"], O_bool, tr.O, "O"))
    print(difference(W["convention.additive"], O_float, tr.O, "O"))
    print(difference(W["nb_ones_mask"], O_ones, tr.O, "O"))
P_ones = al.softmax(al.apply_mask(tr.S_scaled, allowed.astype(float)))  # +1 where allowed, +0 where not: nothing hidden
print(f"P[1,·] = {format_row(P_ones[0, 0], 'weights')}  ({W['nb_ones_mask']}, {W['head_n'].format(n=1)})")
if torch:
    print(al.words.say("nb_sdpa_did", LANG, value=f"{np.abs(O_ones.numpy() - al.weighted_sum(P_ones, tr.Vh)).max():.1e}"))
""",
    ),
    md(
        """
## nn.MultiheadAttention: projection을 항등 행렬로

`nn.MultiheadAttention`은 Core Attention 앞뒤의 projection까지 포함한 모듈입니다. 입력에 W_Q, W_K, W_V(`in_proj_weight`)를 곱해 Q·K·V를 만들고, head로 나누어 Core Attention을 한 뒤 Concat하고, 출력 projection W_O(`out_proj`)를 곱합니다. 이 projection들을 모두 항등 행렬로 두고 bias를 없애면(`bias=False`), 남는 것은 Core Attention뿐입니다. 그러면 글의 Q·K·V(T × d)를 그대로 넣을 수 있고, 출력은 Concat한 H입니다.

`need_weights=True`이면 가중치 P도 돌려줍니다. 기본값(`average_attn_weights=True`)은 head들의 P를 평균한 행렬 하나이므로, head별 P를 보려면 `average_attn_weights=False`를 넘깁니다. `batch_first=True`이면 입력의 모양은 (batch, T, d)입니다. 이 모듈의 bool `attn_mask`는 True가 "제외"이므로 `~allowed`를 넘깁니다.
""",
        """
## nn.MultiheadAttention with identity projections

`nn.MultiheadAttention` is a module that includes the projections around Core Attention: it multiplies its inputs by W_Q, W_K, W_V (`in_proj_weight`) to make Q, K, V, splits them into heads, runs Core Attention, concatenates, and multiplies by the output projection W_O (`out_proj`). With every projection the identity and no bias (`bias=False`), what remains is Core Attention alone: the article's Q, K, V (T × d) go in as they are, and the output is the concatenated H.

`need_weights=True` returns the weights P as well. By default (`average_attn_weights=True`) that is one matrix, the heads' P averaged; to see each head's P, pass `average_attn_weights=False`. With `batch_first=True` the inputs have the shape (batch, T, d). This module's boolean `attn_mask` has True for "masked", so it gets `~allowed`.
""",
    ),
    code(
        """
def identity_attention(d, h):  # nn.MultiheadAttention whose projections do nothing: Core Attention alone
    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.eye(d).repeat(3, 1))  # W_Q, W_K, W_V stacked: (3d, d), each I
        mha.out_proj.weight.copy_(torch.eye(d))  # W_O = I
    return mha


if torch:
    mha = identity_attention(tr.d, tr.h)
    Q, K, V = (torch.tensor(x)[None] for x in (tr.Q, tr.K, tr.V))  # (1, T, d): a batch of one sequence
    with torch.no_grad():
        H, P = mha(Q, K, V, attn_mask=torch.tensor(~allowed), need_weights=True, average_attn_weights=False)
    print("H:", tuple(H.shape), " P:", tuple(P.shape))  # (batch, T, d) and (batch, h, T, T)
    for i in range(tr.T):
        print(f"P[{i + 1},·], Head 1 = {format_row(P[0, 0, i].numpy(), 'weights')}")
    print(difference("nn.MultiheadAttention", P[0], tr.P, "P"))
    print(difference("nn.MultiheadAttention", H[0], tr.H, "H"))
""",
    ),
    md(
        """
그림은 `nn.MultiheadAttention`이 돌려준 두 head의 P입니다. 02–07에서 본 글의 가중치와 같습니다. 아래 탐색기에서 attention_lab으로 같은 P를 보고, T나 마스크를 바꿔 볼 수 있습니다. 여기서 바꿔 보는 모든 경우를 PyTorch가 똑같이 계산한다는 것은 `tests/test_torch.py`가 무작위 예시로 확인합니다.
""",
        """
The figure shows both heads' P as `nn.MultiheadAttention` returned them: the article's weights from notebooks 02–07. In the explorer below you can see the same P from attention_lab and change T or the mask; that PyTorch computes every such case the same way is what `tests/test_torch.py` checks on random examples.
""",
    ),
    figure(
        """
if torch:
    fig = Figure(figsize=(8, 3.6), layout="constrained")
    for head, ax in enumerate(fig.subplots(1, tr.h)):
        title = f"nn.MultiheadAttention: P, {W['head_n'].format(n=head + 1)}"
        al.figures.heatmap(ax, P[0, head].numpy(), "weights", title=title, xlabel=W["key"], ylabel=W["query"], lang=LANG)
    display(fig)
""",
        "nn.MultiheadAttention이 돌려준 두 head의 가중치 P: 글의 가중치와 같습니다.",
        "Both heads' weights P as nn.MultiheadAttention returned them: the article's weights.",
    ),
    code('al.explorer(lang=LANG, view="softmax")'),
    md(
        """
## 이름 대응표

| attention_lab | SDPA (`F.scaled_dot_product_attention`) | `nn.MultiheadAttention` |
| --- | --- | --- |
| `Q`, `K`, `V` (T × d) | — | `query`, `key`, `value` (batch × T × d, `batch_first=True`); projection(`in_proj_weight`)을 모듈이 곱함 |
| `Qh`, `Kh`, `Vh` (h × T × dh) | `query`, `key`, `value` (… × T × dh, 앞의 축은 batch와 head) | 모듈 안에서 만듦 |
| `S` = QKᵀ, `S_scaled` = S / √dh | 안에서 계산, 돌려주지 않음. `scale` (기본값 1 / √dh)을 곱함 | 안에서 계산 (1 / √dh) |
| `M` (0 / −∞) | `attn_mask`: float는 더함, bool은 True = 참조 가능. `is_causal=True` = Causal mask | `attn_mask` (T × T): float는 더함, bool은 True = 제외. `key_padding_mask` (batch × T): True = padding Key. `is_causal`은 `attn_mask`가 Causal mask라는 힌트일 뿐 |
| `P` | 돌려주지 않음 | `need_weights=True`(기본값)일 때 돌려줌. `average_attn_weights=False`이면 head별, 기본값은 head 평균 |
| `O` (h × T × dh) | 출력 (… × T × dh) | 돌려주지 않음 |
| `H` (T × d) | — | `out_proj` 앞의 값. `out_proj`가 항등 행렬이면 출력 그 자체 |
| W_O (다음 글) | — | `out_proj` |
""",
        """
## The names side by side

| attention_lab | SDPA (`F.scaled_dot_product_attention`) | `nn.MultiheadAttention` |
| --- | --- | --- |
| `Q`, `K`, `V` (T × d) | — | `query`, `key`, `value` (batch × T × d with `batch_first=True`); the module applies the projections (`in_proj_weight`) |
| `Qh`, `Kh`, `Vh` (h × T × dh) | `query`, `key`, `value` (… × T × dh, the axes in front are batch and heads) | made inside the module |
| `S` = QKᵀ, `S_scaled` = S / √dh | computed inside, not returned; multiplied by `scale` (default 1 / √dh) | computed inside (1 / √dh) |
| `M` (0 / −∞) | `attn_mask`: a float one is added, a boolean one has True = may attend. `is_causal=True` = the causal mask | `attn_mask` (T × T): a float one is added, a boolean one has True = masked. `key_padding_mask` (batch × T): True = a padding Key. `is_causal` is only a hint that `attn_mask` is causal |
| `P` | not returned | returned with `need_weights=True` (the default): per head with `average_attn_weights=False`, averaged over heads by default |
| `O` (h × T × dh) | the output (… × T × dh) | not returned |
| `H` (T × d) | — | the value before `out_proj`; with `out_proj` the identity, the output itself |
| W_O (the next article) | — | `out_proj` |
""",
    ),
    md(
        """
## PyTorch가 다른 곳 1: 참조할 것이 없는 행

08의 padding 예시(T = 6, 실제 토큰 4개)에서 토큰 5와 6의 행은 모든 칸이 마스크되어 참조할 것이 없습니다. attention_lab은 이 행에 0을 줍니다. PyTorch는 API에 따라, 그리고 버전에 따라 다릅니다. 이 버전의 SDPA는 0을 돌려줍니다(2024년에 들어온 `_safe_softmax`). `nn.MultiheadAttention`은 `need_weights=True`이면 가중치를 직접 계산하는 보통의 Softmax라서 NaN을 돌려주고, `need_weights=False`이면 SDPA를 불러 0을 돌려줍니다. GPU의 다른 커널이나 예전 버전에서는 또 다를 수 있으므로, 참조할 것이 없는 행이 생기지 않게 하거나 그 행을 직접 처리하는 것이 안전합니다.
""",
        """
## Where PyTorch differs, 1: rows with nothing to attend to

In notebook 08's padding example (T = 6, 4 real tokens), every cell of the rows of tokens 5 and 6 is masked: nothing to attend to. attention_lab gives those rows zeros. PyTorch's answer depends on the API, and on the version. This version's SDPA returns 0 (its `_safe_softmax`, added in 2024). `nn.MultiheadAttention` with `need_weights=True` computes the weights itself with an ordinary softmax and returns NaN; with `need_weights=False` it calls SDPA and returns 0. Other kernels (on a GPU) or older versions may differ again, so it is safest to have no such rows, or to deal with them yourself.
""",
    ),
    code(
        """
padded = al.article_example(mask=al.Mask("padding", length=4), T=6)
pad_allowed = al.allowed_of(al.Mask("padding", length=4), 6)
print("attention_lab                            O[5,·], Head 1 =", format_row(padded.O[0, 4]))
if torch:
    O_sdpa = F.scaled_dot_product_attention(*(torch.tensor(x) for x in (padded.Qh, padded.Kh, padded.Vh)),
                                            attn_mask=torch.tensor(pad_allowed))
    print("SDPA                                     O[5,·], Head 1 =", format_row(O_sdpa[0, 4].numpy()))
    mha6 = identity_attention(padded.d, padded.h)
    Q6, K6, V6 = (torch.tensor(x)[None] for x in (padded.Q, padded.K, padded.V))
    with torch.no_grad():
        H_w, P_w = mha6(Q6, K6, V6, attn_mask=torch.tensor(~pad_allowed), need_weights=True, average_attn_weights=False)
        H_fast, _ = mha6(Q6, K6, V6, attn_mask=torch.tensor(~pad_allowed), need_weights=False)
    print("nn.MultiheadAttention, need_weights=True  P[5,·], Head 1 =", format_row(P_w[0, 0, 4].numpy(), "weights"))
    print("                                         H[5,·]         =", format_row(H_w[0, 4].numpy()))
    print("nn.MultiheadAttention, need_weights=False H[5,·]         =", format_row(H_fast[0, 4].numpy()))
    real_rows = slice(0, 4)
    print(difference(W["nb_real_rows"], H_w[0, real_rows], padded.H[real_rows], "H"))
""",
    ),
    md(
        """
## PyTorch가 다른 곳 2: key_padding_mask는 Key만 가립니다

`key_padding_mask`(batch × T, True = padding)는 padding 토큰의 열(Key)을 모든 행에서 가립니다. padding 토큰 자신의 행은 가리지 않으므로, `attn_mask`로 Causal mask를 함께 주면 토큰 5와 6은 실제 토큰 1–4를 참조합니다. 08에서 본 "Key만 가린" 방식이고, attention_lab으로는 `al.causal_allowed(6) & real`을 마스크로 쓴 것과 같습니다. 실제 토큰의 행은 attention_lab의 `"padding"`과 같습니다.
""",
        """
## Where PyTorch differs, 2: key_padding_mask masks only the Keys

`key_padding_mask` (batch × T, True = padding) masks the padding tokens' columns (Keys) in every row. It leaves the padding tokens' own rows alone, so with a causal `attn_mask` as well, tokens 5 and 6 attend to the real tokens 1–4: the keys-only way of notebook 08, which in attention_lab is the mask `al.causal_allowed(6) & real`. The real tokens' rows are the same as under attention_lab's `"padding"`.
""",
    ),
    code(
        """
real = np.arange(6) < 4
keys_only = al.article_example(mask=al.causal_allowed(6) & real, T=6)
print(f"attention_lab ({W['nb_keys_only']}) P[5,·], Head 1 =", format_row(keys_only.P[0, 4], "weights"))
if torch:
    with torch.no_grad():
        H_kpm, P_kpm = mha6(Q6, K6, V6, attn_mask=torch.tensor(~al.causal_allowed(6)),
                            key_padding_mask=torch.tensor(~real)[None], average_attn_weights=False)
    print("nn.MultiheadAttention, key_padding_mask P[5,·], Head 1 =", format_row(P_kpm[0, 0, 4].numpy(), "weights"))
    print(difference("key_padding_mask", P_kpm[0], keys_only.P, "P"))
    print(difference("key_padding_mask", H_kpm[0], keys_only.H, "H"))
""",
    ),
    md(
        """
## PyTorch가 다른 곳 3: bool 마스크의 방향

08에서 attention_lab으로 계산한 흔한 버그를 PyTorch로 직접 재현합니다. True = 참조 가능인 Causal mask `allowed`를 SDPA에 넘기면 맞고, 그대로 `nn.MultiheadAttention`에 넘기면 뒤집힙니다. 뒤집힌 P는 attention_lab으로 `~allowed`를 마스크로 쓴 것과 같고, 참조할 것이 없는 마지막 토큰의 행은 NaN입니다.
""",
        """
## Where PyTorch differs, 3: which way round a boolean mask is read

The classic bug that notebook 08 computed with attention_lab, now in PyTorch itself. The causal mask `allowed`, with True = may attend, is right for SDPA; handed as it is to `nn.MultiheadAttention`, it is inverted. The inverted P is attention_lab's P with `~allowed` as the mask, and the last token, with nothing to attend to, gets a row of NaN.
""",
    ),
    code(
        """
inverted = al.attention_trace(tr.Q, tr.K, tr.V, h=tr.h, mask=~allowed)
if torch:
    with torch.no_grad():
        _, P_bug = mha(Q, K, V, attn_mask=torch.tensor(allowed), average_attn_weights=False)  # True read as "masked"
for i in range(tr.T):
    line = f"P[{i + 1},·], Head 1:  attention_trace(mask=~allowed) {format_row(inverted.P[0, i], 'weights'):<22}"
    print(line + (f" nn.MultiheadAttention(attn_mask=allowed) {format_row(P_bug[0, 0, i].numpy(), 'weights')}"
                  if torch else ""))
""",
    ),
    md("## 연습 문제", "## Exercises"),
    exercise("09.scale",
             "SDPA에 `scale`을 주지 않으면 점수에 어떤 수를 곱할까요? `tr`의 head에 대해 계산해 보세요. 글의 예시와, head 차원이 다른 예시에서도 확인합니다.",
             "Without `scale`, what number does SDPA multiply the scores by? Compute it for the heads of `tr`: it is checked on the article's example and on examples of other head sizes.", 1),
    exercise("09.key_padding",
             "토큰 T개 중 앞의 `real`개가 실제 토큰인 문장을 `nn.MultiheadAttention`에 넣으면서 `attn_mask`로 Causal mask를, `key_padding_mask`로 나머지 토큰을 padding으로 주었습니다. 모듈이 점수에 더하는 M(T × T, 0 / −∞)을 만들어 보세요. 이 노트북에서는 T = 5, `real` = 3으로 확인하고, 다른 크기로도 확인합니다.",
             "A sentence of T tokens, the first `real` of them real, goes into `nn.MultiheadAttention` with the causal mask as `attn_mask` and the other tokens marked as padding in `key_padding_mask`. Build the M (T × T, 0 / −∞) that the module adds to the scores. It is checked at T = 5, `real` = 3 and at other sizes.", 2),
    exercise("09.average",
             "`need_weights=True`이고 `average_attn_weights`를 기본값(True)으로 두면, `nn.MultiheadAttention`은 어떤 가중치를 돌려줄까요? `tr.P`로 계산해 보세요.",
             "With `need_weights=True` and `average_attn_weights` left at its default (True), which weights does `nn.MultiheadAttention` return? Compute them from `tr.P`.", 3),
    next_link("10_kv_cache.ipynb", "다음: 10 — 생성과 KV 캐시", "Next: 10 — Generation and the KV cache"),
]
