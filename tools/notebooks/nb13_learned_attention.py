# ruff: noqa: E501  (the Markdown cells are paragraphs of prose, one line each)
from cells import SETUP, code, exercise, figure, md, next_link

NAME = "13_learned_attention"

CELLS = [
    md(
        """
# 13 — 학습된 Attention: 글과 같은 크기의 작은 모델

글은 예시의 숫자에 대해 "이후의 수치는 실제 모델에서 가져온 값이 아닌 설명용 예시입니다"라고 말합니다. 지금까지의 노트북에 나온 숫자도 모두 그런 예시였습니다. 글의 숫자이거나 seed로 만든 무작위 숫자였습니다. 그렇다면 실제로 학습된 모델의 attention은 어떤 모습일까요? 그리고 Q, K, V는 어디에서 올까요?

이 노트북에서는 글과 같은 크기(d = 8, h = 2, dh = 4)의 아주 작은 모델을 바로 여기에서 몇 초 만에 학습시킵니다. 모든 숫자가 화면에 들어오는 크기입니다. 모델은 토큰과 위치의 임베딩, 01–06에서 본 단계 그대로의 Core Attention 한 층, 그 뒤의 W_O와 residual stream, 그리고 답을 고르는 출력층으로 되어 있습니다.

이 노트북에서 살펴볼 내용:

- 과제: 토큰 여섯 개의 입력에서, 위치마다 홀수 번째 토큰 중 가장 많은 토큰과 짝수 번째 토큰 중 가장 많은 토큰을 맞히기
- 학습: 손실이 줄어드는 모습, 그리고 같은 seed면 패키지에 들어 있는 가중치와 같은 가중치가 나온다는 것
- 입력 하나가 모든 단계를 지나는 모습: X, Q = X W_Q, …, S, ÷√dh, M, P, O, H, W_O (01–06과 같은 그림, 두 head를 나란히)
- 두 head가 배운 서로 다른 일: Head 1은 짝수 번째 토큰을, Head 2는 홀수 번째 토큰을 봅니다 (가능한 입력 4096개의 평균 P)
- head 하나를 빼면 답의 한 글자가 망가진다는 것, 그리고 head가 하나뿐인 모델(h = 1)은 왜 이 과제를 배우지 못하는지
""",
        """
# 13 — Attention that was learned: a tiny model at the article's size

The article says of its example: "the numbers from here on are an illustration, not values taken from a real model". Every number in the notebooks so far has been such an illustration too, the article's or random numbers from a seed. So what does the attention of a trained model look like, and where do Q, K and V come from?

This notebook trains, right here and in a few seconds, a very small model of the article's size (d = 8, h = 2, dh = 4), small enough that every number fits on the screen. It is a token and a position embedding, one layer of Core Attention with exactly the stages of notebooks 01–06, then W_O and the residual stream, and an output layer that picks the answer.

What you will see:

- the task: in a sequence of six tokens, name at every position the most frequent of the odd-numbered tokens and the most frequent of the even-numbered ones
- training: the loss falling, and the same seed giving the weights the package ships
- one input through every stage: X, Q = X W_Q, …, S, ÷√dh, M, P, O, H, W_O (the figures of 01–06, both heads side by side)
- the two different jobs the heads learned: Head 1 looks at the even-numbered tokens, Head 2 at the odd-numbered ones (mean P over all 4096 possible inputs)
- that removing one head breaks one letter of the answer, and why a model with a single head (h = 1) cannot learn the task
""",
    ),
    code(SETUP + """
from attention_lab.numeric import tiny_model as tm
from attention_lab.numeric import training

W = al.words.table(LANG)  # the printed words and the figures' words, in the reader's language
fmt = al.look.format_value"""),
    md(
        """
## 과제

토큰은 A, B, C, D 네 가지이고, 입력은 토큰 여섯 개입니다. 모델은 토큰 2부터 각 위치에서 두 가지를 말해야 합니다. 지금까지(이 위치까지)의 홀수 번째 토큰(토큰 1, 3, 5) 중 가장 많이 나온 토큰, 그리고 짝수 번째 토큰(토큰 2, 4, 6) 중 가장 많이 나온 토큰입니다. 같은 수만큼 나온 토큰이 있으면 알파벳에서 앞선 글자가 이깁니다(A, B, C, D 순서). 답은 두 글자로 씁니다. "CA"는 "홀수 번째에서는 C, 짝수 번째에서는 A"라는 뜻이고, 답은 모두 16가지입니다. 앞 글자를 답의 홀수 쪽 글자, 뒤 글자를 짝수 쪽 글자라고 부르겠습니다. 입력 CABDDA에서는 다음과 같습니다.
""",
        """
## The task

There are four tokens, A, B, C and D, and an input is six tokens. From token 2 on, at every position, the model must say two things: which token is the most frequent among the odd-numbered tokens so far (tokens 1, 3, 5, up to and including this position), and which among the even-numbered ones (tokens 2, 4, 6). A tie goes to the earlier letter (A before B before C before D). An answer is written as two letters: "CA" means "odd-numbered C, even-numbered A", and there are 16 answers; call the first letter the answer's odd letter and the second its even letter. For the input CABDDA:
""",
    ),
    code(
        """
tokens = "CABDDA"
answers = tm.answer_of(tm.encode(tokens))
for t in range(2, tm.T + 1):  # tokens[0:t:2] are tokens 1, 3, 5 up to token t; tokens[1:t:2] tokens 2, 4, 6
    answer = tm.ANSWERS[answers[t - 1]]
    print(W["nb13_task_row"].format(t=t, token=tokens[t - 1], odd_tokens=" ".join(tokens[0:t:2]),
                                    even_tokens=" ".join(tokens[1:t:2]), odd=answer[0], even=answer[1], answer=answer))
""",
        check=True,
    ),
    md(
        """
토큰 3에서는 C와 B가 한 번씩 나와 동점이므로 앞선 글자 B가 답의 홀수 쪽 글자입니다. 두 글자는 모두 한 칸 건너 하나씩 세는 것입니다. head가 둘이면 한 head는 가중치를 홀수 번째 Key 토큰들에, 다른 head는 짝수 번째 Key 토큰들에 고르게 나누어 줄 수 있습니다. 그러면 head의 출력 O는 그 토큰들의 Value를 나온 횟수만큼 섞은 가중합이고, 출력층은 거기에서 가장 많은 토큰을 고를 수 있습니다. head 하나로도 둘 다 할 수 있는지가 이 노트북의 질문입니다. 모델의 가중치는 다음과 같습니다. E_tok는 토큰마다, E_pos는 위치마다 8개 성분의 벡터이고, W_Q·W_K·W_V·W_O는 8 × 8, W_U는 R의 8개 성분에서 답 16개의 점수(logit)를 만듭니다.
""",
        """
At token 3, C and B come once each, a tie, so the earlier letter B is the odd letter. Both letters count every other token. With two heads, one head can spread its weight evenly over the odd-numbered Key tokens and the other over the even-numbered ones: a head's output O is then a weighted sum that mixes those tokens' Values as often as each occurs, and the output layer can pick the most frequent. Whether one head can do both is this notebook's question. These are the model's weights: E_tok holds a vector of 8 components per token, E_pos one per position, W_Q, W_K, W_V and W_O are 8 × 8, and W_U turns the 8 components of R into a score (logit) for each of the 16 answers.
""",
    ),
    code(
        """
for name, shape in tm.shapes().items():
    print(name, shape)
print(W["nb13_numbers"].format(n=sum(int(np.prod(shape)) for shape in tm.shapes().values())))
""",
        check=True,
    ),
    md(
        """
## 학습

학습은 가중치를 작은 무작위 숫자에서 시작합니다. 단계마다 무작위 입력 256개에서 손실(맞는 답의 확률에 대한 cross-entropy)과 그 기울기를 계산하고, Adam으로 가중치를 조금씩 움직입니다. 기울기는 손실이 각 숫자를 조금 바꿀 때 얼마나 바뀌는지입니다. 먼저 그 기울기를 Core Attention의 단계마다 거꾸로 계산해 보겠습니다.

### 역전파: 단계마다 거꾸로

학습 전의 가중치로 입력 CABDDA 하나를 계산합니다. `a0`에는 순전파의 모든 배열이 들어 있습니다. 기울기마다 중심 유한 차분과 비교합니다. 숫자 하나를 ε만큼 올렸을 때와 내렸을 때의 손실 차이를 2ε로 나눈 것, (손실(x + ε) − 손실(x − ε)) / 2ε입니다. 이렇게 비교하려면 그 단계부터 손실까지를 다시 계산하는 함수가 필요합니다. 아래 `loss_after_heads`는 head들의 출력 O에서 손실까지(Concat, W_O, residual, W_U, cross-entropy)를 계산합니다.
""",
        """
## Training

Training starts from small random weights. Each step computes, on 256 random inputs, the loss (the cross-entropy of the right answers' probabilities) and its gradient, and moves the weights a little with Adam. The gradient says how much the loss changes when each number changes a little. First, that gradient computed backwards, stage by stage through Core Attention.

### The backward pass, stage by stage

One input, CABDDA, with the weights before training: `a0` holds every array of the forward pass. Each gradient is compared with central finite differences: the loss with one number raised by ε, minus the loss with it lowered by ε, divided by 2ε, that is (loss(x + ε) − loss(x − ε)) / 2ε. To compare, each stage needs a function that computes the loss again from that stage on; `loss_after_heads` below goes from the heads' outputs O to the loss (Concat, W_O, the residual, W_U, the cross-entropy).
""",
    ),
    code(
        """
from attention_lab.numeric import backward as bw
from attention_lab.numeric import core

w0 = training.initial_weights(np.random.default_rng(training.SEED))  # the weights before training
x0 = tm.encode(tokens)[None]  # (1, T): one input, a batch of one
a0 = tm.forward(w0, x0)  # every array of the forward pass: X, Qh, Kh, Vh, S, M, P, O, H, logits, …
h, dh = 2, 4


def loss_after_heads(O):  # (1, h, T, dh) -> the loss: Concat, W_O, the residual, W_U, cross-entropy
    H = O.transpose(0, 2, 1, 3).reshape(1, tm.T, h * dh)  # Concat: (1, T, h·dh)
    return tm.loss((a0["X"] + H @ w0["W_O"]) @ w0["W_U"], x0)


def finite_differences(f, array, eps=1e-6):  # the gradient of f at `array`, one entry at a time
    grad = np.zeros_like(array)
    for i in np.ndindex(array.shape):
        saved = array[i]
        array[i] = saved + eps
        up = f(array)
        array[i] = saved - eps
        down = f(array)
        array[i] = saved
        grad[i] = (up - down) / (2 * eps)
    return grad


def compare(name, grad, numeric):  # one line: the gradient's size and how far the finite differences are from it
    print(W["nb13_gradient_check"].format(name=name, shape=grad.shape, largest=f"{np.abs(grad).max():.2e}",
                                          diff=f"{np.abs(grad - numeric).max():.0e}"))
"""
    ),
    md(
        """
손실에서 O까지는 Core Attention 뒤의 층들을 거꾸로 지나갑니다. logits = R W_U에서 dR = dlogits W_Uᵀ, R = X + A에서 dA = dR(residual은 기울기를 그대로 넘깁니다), A = H W_O에서 dH = dA W_Oᵀ, 그리고 Concat을 거꾸로 하면 head마다 자기 열을 돌려받습니다.
""",
        """
From the loss to O the gradient goes back through the layers after Core Attention: logits = R W_U gives dR = dlogits W_Uᵀ, R = X + A gives dA = dR (the residual passes the gradient on unchanged), A = H W_O gives dH = dA W_Oᵀ, and Concat backwards gives each head its own columns back.
""",
    ),
    code(
        """
dlogits = bw.loss_backward(a0["logits"], x0)  # (1, T, 16): softmax(logits) − one-hot(answer), ÷ the scored positions
dA = dlogits @ w0["W_U"].T  # (1, T, d): dR, passed to A unchanged by R = X + A
dH = dA @ w0["W_O"].T  # (1, T, h·dh)
dO = dH.reshape(1, tm.T, h, dh).transpose(0, 2, 1, 3)  # (1, h, T, dh): Concat backwards
compare("dO", dO, finite_differences(loss_after_heads, a0["O"].copy()))
"""
    ),
    md(
        """
**O = PV.** O의 행 i는 Value 행들의 가중합 Σⱼ P[i, j] V[j]입니다. 그래서 가중치 P[i, j]의 기울기는 dO[i]와 V[j]의 내적이고, Value 행 V[j]의 기울기는 그 행이 받은 가중치 P[i, j]로 dO[i]들을 더한 것입니다.
""",
        """
**O = PV.** Row i of O is a weighted sum of the Value rows, Σⱼ P[i, j] V[j]. So the gradient of the weight P[i, j] is the dot product of dO[i] and V[j], and the gradient of the Value row V[j] is the dO[i] added up with the weights P[i, j] that row was given.
""",
    ),
    code(
        """
dP = dO @ np.swapaxes(a0["Vh"], -1, -2)  # (1, h, T, T): dP[i, j] = dO[i] · V[j]
dV = np.swapaxes(a0["P"], -1, -2) @ dO  # (1, h, T, dh): dV[j] = Σᵢ P[i, j] dO[i]
compare("dP", dP, finite_differences(lambda P: loss_after_heads(P @ a0["Vh"]), a0["P"].copy()))
compare("dV", dV, finite_differences(lambda Vh: loss_after_heads(a0["P"] @ Vh), a0["Vh"].copy()))
"""
    ),
    md(
        """
**P = softmax(S ÷ √dh + M).** 점수 하나를 올리면 그 칸의 가중치는 오르고, 한 행의 가중치 합은 1이므로 같은 행의 다른 가중치는 모두 내려갑니다. 그래서 점수의 기울기는 P ∘ (dP − rowsum(dP ∘ P))입니다. 칸마다 그 칸의 가중치 × (그 칸의 dP − 행에서 가중치로 평균한 dP). 마스크의 −∞ 칸은 P가 0이므로 기울기도 0이고, ÷√dh를 거꾸로 하면 기울기도 √dh로 나뉩니다.
""",
        """
**P = softmax(S ÷ √dh + M).** Raising one score raises its own weight, and since a row's weights sum to 1, lowers every other weight of the row. So the gradient of the scores is P ∘ (dP − rowsum(dP ∘ P)): in each cell, its weight times (its dP minus the row's dP averaged with the weights). The mask's −∞ cells have P = 0, so their gradient is 0 too, and ÷√dh backwards divides the gradient by √dh as well.
""",
    ),
    code(
        """
dS_masked = a0["P"] * (dP - (dP * a0["P"]).sum(axis=-1, keepdims=True))  # (1, h, T, T): the softmax backward
dS = np.where(np.isneginf(a0["M"]), 0.0, dS_masked) / np.sqrt(dh)  # (1, h, T, T): no gradient behind the mask; ÷√dh
compare("dS_masked", dS_masked, finite_differences(lambda S: loss_after_heads(core.softmax(S) @ a0["Vh"]),
                                                   a0["S_masked"].copy()))
compare("dS", dS, finite_differences(lambda S: loss_after_heads(core.softmax(S / np.sqrt(dh) + a0["M"]) @ a0["Vh"]),
                                     a0["S"].copy()))
"""
    ),
    md(
        """
**S = QKᵀ.** S[i, j]는 Q[i]와 K[j]의 내적입니다. 그래서 Query 토큰 i의 행 Q[i]의 기울기는 Key 행들을 dS[i, j]로 더한 것 Σⱼ dS[i, j] K[j]이고, Key 토큰 j의 행 K[j]의 기울기는 Σᵢ dS[i, j] Q[i]입니다.
""",
        """
**S = QKᵀ.** S[i, j] is the dot product of Q[i] and K[j]. So the gradient of Query token i's row Q[i] is the Key rows added up with dS[i, j], Σⱼ dS[i, j] K[j], and that of Key token j's row K[j] is Σᵢ dS[i, j] Q[i].
""",
    ),
    code(
        """
dQ = dS @ a0["Kh"]  # (1, h, T, dh): dQ[i] = Σⱼ dS[i, j] K[j]
dK = np.swapaxes(dS, -1, -2) @ a0["Qh"]  # (1, h, T, dh): dK[j] = Σᵢ dS[i, j] Q[i]


def loss_from(Qh, Kh):  # Core Attention from Q and K of every head (V as it is), then the layers after it
    return loss_after_heads(core.softmax(Qh @ np.swapaxes(Kh, -1, -2) / np.sqrt(dh) + a0["M"]) @ a0["Vh"])


compare("dQ", dQ, finite_differences(lambda Qh: loss_from(Qh, a0["Kh"]), a0["Qh"].copy()))
compare("dK", dK, finite_differences(lambda Kh: loss_from(a0["Qh"], Kh), a0["Kh"].copy()))
difference = max(np.abs(mine - theirs).max() for mine, theirs in zip((dQ, dK, dV), bw.core_attention_backward(dO, a0)))
print(W["nb13_same_as_backward_py" if difference < 1e-12 else "nb13_not_same_as_backward_py"].format(diff=f"{difference:.0e}"))
"""
    ),
    md(
        """
차이는 모두 10⁻⁸보다 작습니다. 유한 차분 자체의 오차 수준입니다. 그 오차는 주로 손실의 반올림(손실의 10⁻¹⁶ 정도)을 ε = 10⁻⁶으로 나눈 것입니다. 이 단계들이 `attention_lab/numeric/backward.py`의 함수들이고, 그 뒤로 dQ, dK, dV에서 W_Q, W_K, W_V와 임베딩까지의 기울기가 이어집니다(Q = X W_Q에서 dW_Q = Xᵀ dQ, …). 테스트는 모든 가중치의 기울기를 유한 차분, 그리고 PyTorch의 autograd와 비교합니다.
""",
        """
Every difference is below 10⁻⁸, the size of the finite differences' own error: mostly the rounding of the loss (about 10⁻¹⁶ of it) divided by ε = 10⁻⁶. These stages are the functions of `attention_lab/numeric/backward.py`; from dQ, dK and dV the gradient goes on to W_Q, W_K, W_V and the embeddings (Q = X W_Q gives dW_Q = Xᵀ dQ, …). The tests compare the gradient of every weight with finite differences and with PyTorch's autograd.
""",
    ),
    exercise("13.softmax_backward",
             "Softmax의 역전파를 직접 써 보세요. 한 head의 가중치 `P`와 손실의 P에 대한 기울기 `dP`에서, Softmax에 들어간 점수에 대한 기울기를 계산하는 함수입니다. 위의 `a0[\"P\"][0, 0]`과 `dP[0, 0]`(Head 1)이 보이는 예시이고, 검사는 다른 입력, 다른 가중치, 다른 T에서도 합니다. `softmax_backward`는 쓰지 마세요.",
             "Write the softmax backward yourself: a function that takes one head's weights `P` and the loss's gradient with respect to them `dP`, and computes the gradient with respect to the scores that went into the softmax. `a0[\"P\"][0, 0]` and `dP[0, 0]` above (Head 1) are the shown example; the check also runs on other inputs, other weights and other T. Do not use `softmax_backward`.", 1),
    md(
        """
이제 학습합니다. 단계마다 256개 입력의 배치 전체에서 같은 계산을 하고 모든 가중치의 기울기로 Adam이 한 걸음 움직입니다.
""",
        """
Now the training: each step does the same on a batch of 256 inputs, and Adam takes one step with the gradient of every weight.
""",
    ),
    code(
        """
weights, losses = training.train(seed=training.SEED)
print(W["nb13_trained"].format(steps=len(losses), first=f"{losses[0]:.2f}", last=f"{losses[-1]:.1e}"))
shipped = training.load_weights()
same = all(np.allclose(weights[name], shipped[name], rtol=0, atol=training.SAME_WITHIN) for name in tm.WEIGHTS)
print(W["nb13_same_as_shipped" if same else "nb13_not_same_as_shipped"].format(within=training.SAME_WITHIN))
"""
    ),
    md(
        """
비교를 위해 head가 하나뿐인 모델 둘을 같은 seed, 같은 과제, 같은 단계 수로 학습합니다. 다른 것은 attention 층뿐입니다. 하나는 두 head를 합친 만큼 넓은 head 하나(h = 1, dh = 8: Q, K, V는 그대로 8열)이고, 다른 하나는 글의 head 하나와 같은 크기의 head 하나(h = 1, dh = 4: Head 2가 없는 모델을 처음부터 학습한 것, Q, K, V는 4열)입니다. 아래 그림은 세 모델의 손실을 단계마다 보여 줍니다.
""",
        """
For comparison, two models with a single head are trained from the same seed, on the same task for the same steps; only the attention layer differs. One has a head as wide as both heads together (h = 1, dh = 8: Q, K and V keep their 8 columns), the other a head of the article's per-head size (h = 1, dh = 4: the model without Head 2, trained from the start, with Q, K and V of 4 columns). The figure below shows the three models' loss at every step.
""",
    ),
    code(
        """
weights_1, losses_1 = training.train(seed=training.SEED, h=1)
weights_1s, losses_1s = training.train(seed=training.SEED, h=1, dh=4)
inputs = tm.all_sequences()
models = {"h = 2, dh = 4": weights, "h = 1, dh = 8": weights_1, "h = 1, dh = 4": weights_1s}
loss_of = {label: tm.loss(tm.forward(w, inputs)["logits"], inputs) for label, w in models.items()}


def say_gap(loss):  # one line: how far a loss is above the two heads' model's, and whether by 0.1 or more
    gap = loss - loss_of["h = 2, dh = 4"]
    print("   ", W["nb13_gap"].format(gap=f"{gap:.2f}", big=bool(gap >= 0.1)))


for label, w in models.items():
    run = tm.forward(w, inputs)
    print(label, W["nb13_all_inputs"].format(n=len(inputs), loss=f"{loss_of[label]:.3f}",
                                             right=fmt(tm.accuracy(run["logits"], inputs), "weights")))
    if w is not weights:
        say_gap(loss_of[label])
""",
        check=True,
    ),
    figure(
        'al.figures.figure_training({"h = 2, dh = 4": losses, "h = 1, dh = 8": losses_1, "h = 1, dh = 4": losses_1s}, lang=LANG)',
        "학습 단계마다의 손실(로그 눈금): head 두 개(h = 2)의 모델과 head 하나(h = 1, dh = 8 또는 4)의 모델.",
        "The loss at every training step (log scale): the model with two heads (h = 2) and the models with one (h = 1, dh = 8 or 4).",
    ),
    md(
        """
head가 둘인 모델만 모든 답을 맞힙니다. head가 하나인 모델은 넓이가 8이든 4든 손실이 0.1보다 훨씬 더 높게 남고, 답의 일부를 틀립니다. 넓이는 거의 상관이 없습니다. 모자란 것은 head의 수입니다. 그 이유는 뒤에서 봅니다. 먼저 head가 두 개인 모델에 입력 하나를 넣고 모든 단계를 따라가 보겠습니다.

## 입력 하나가 지나는 모든 단계

입력 CABDDA의 토큰마다 그 토큰의 임베딩 E_tok[x]와 위치의 임베딩 E_pos를 더한 것이 X입니다. 글의 그림 1에서 Q, K, V를 만드는 입력이 바로 이 X입니다.
""",
        """
Only the model with two heads gets every answer right. With one head the loss stays far more than 0.1 higher, whether the head is 8 wide or 4, and some answers are wrong: the width hardly matters, what is missing is a second head. Why comes later. First, one input through every stage of the model with two heads.

## One input through every stage

For each token of the input CABDDA, X is that token's embedding E_tok[x] plus its position's embedding E_pos. This X is the input that Q, K and V are made from in the article's Figure 1.
""",
    ),
    figure(
        """
x = tm.encode(tokens)
run = tm.forward(weights, x)
rows = [f"{t + 1} {c}" for t, c in enumerate(tokens)]
al.figures.figure_matrices([(run["X"][0], "values", "X = E_tok[x] + E_pos")], row_labels=rows, lang=LANG)
""",
        "입력 CABDDA의 X = E_tok[x] + E_pos: 행은 토큰, 열은 성분입니다.",
        "X = E_tok[x] + E_pos for the input CABDDA: rows are tokens, columns components.",
    ),
    md(
        """
Q = X W_Q, K = X W_K, V = X W_V입니다. 여기서부터는 01–06의 계산 그대로입니다. `tm.trace`는 모델의 Q, K, V로 만든 trace이므로, 지금까지의 단계 함수가 그대로 계산합니다. 그림 1처럼 Q·K·V를 head로 나눕니다. 성분 1–4는 Head 1, 성분 5–8은 Head 2의 것입니다. 토큰이 여섯 개라 그림마다 한 단계만, 두 head를 나란히 그려 숫자가 모두 칸에 들어가게 했습니다.
""",
        """
Q = X W_Q, K = X W_K, V = X W_V. From here on the computation is that of notebooks 01–06: `tm.trace` is a trace made from the model's Q, K and V, so the stage functions used so far compute it as they are. As in Figure 1, Q, K and V are split into heads: components 1–4 are Head 1's, components 5–8 Head 2's. With six tokens each figure shows one stage, the two heads side by side, so that every number fits in its cell.
""",
    ),
    figure(
        """
tr = tm.trace(weights, tokens)
al.figures.figure_stage_heads(tr, "Qh", row_labels=rows, lang=LANG)
""",
        "학습된 모델의 Q를 두 head로 나눈 것: Q₁은 Q의 성분 1–4, Q₂는 성분 5–8입니다.",
        "The learned model's Q split into two heads: Q₁ is components 1–4 of Q, Q₂ components 5–8.",
    ),
    figure(
        'al.figures.figure_stage_heads(tr, "Kh", row_labels=rows, lang=LANG)',
        "K = X W_K를 두 head로 나눈 것.",
        "K = X W_K split into two heads.",
    ),
    figure(
        'al.figures.figure_stage_heads(tr, "Vh", row_labels=rows, lang=LANG)',
        "V = X W_V를 두 head로 나눈 것.",
        "V = X W_V split into two heads.",
    ),
    md(
        """
이제 head마다 각 단계입니다. S = QKᵀ, √dh = 2로 나누기, 마스크 M 더하기, 행마다 Softmax로 가중치 P, 그리고 가중합 O = PV. 두 head의 P를 비교해 보세요. Head 1의 각 행은 가중치 거의 전부를 짝수 번째 Key 토큰(2, 4, 6)에, Head 2의 각 행은 홀수 번째 Key 토큰(1, 3, 5)에 줍니다. 그 안에서 어떻게 나누는지는 토큰에 따라서도 달라집니다. 토큰 4의 행에서 Head 1은 토큰 2의 A에 거의 전부를 주고 토큰 4의 D에는 거의 주지 않습니다. A와 D가 한 번씩인 동점이고, 동점은 A가 이깁니다.
""",
        """
Now each stage of each head: S = QKᵀ, the division by √dh = 2, adding the mask M, the row softmax giving the weights P, and the weighted sum O = PV. Compare the two heads' P: each row of Head 1 gives nearly all its weight to the even-numbered Key tokens (2, 4, 6), each row of Head 2 to the odd-numbered ones (1, 3, 5). How a row shares it among them depends on the tokens too: in the row of token 4, Head 1 gives the A at token 2 nearly all of it and the D at token 4 almost none; A and D once each is a tie, and a tie goes to A.
""",
    ),
    figure(
        'al.figures.figure_stage_heads(tr, "S", row_labels=rows, lang=LANG)',
        "S = QKᵀ: head마다 Query 토큰과 Key 토큰의 점수.",
        "S = QKᵀ: each head's score of every Query token with every Key token.",
    ),
    figure(
        'al.figures.figure_stage_heads(tr, "S_scaled", row_labels=rows, lang=LANG)',
        "S ÷ √dh: 점수를 √4 = 2로 나눈 것.",
        "S ÷ √dh: the scores divided by √4 = 2.",
    ),
    figure(
        'al.figures.figure_stage_heads(tr, "S_masked", row_labels=rows, lang=LANG)',
        "마스크 M을 더한 것: 각 Query 토큰보다 뒤의 Key 토큰은 −∞입니다.",
        "The mask M added: every Key token after the Query token is −∞.",
    ),
    figure(
        'al.figures.figure_stage_heads(tr, "P", row_labels=rows, lang=LANG)',
        "가중치 P = softmax(S ÷ √dh + M): Head 1은 짝수 번째 열(2, 4, 6), Head 2는 홀수 번째 열(1, 3, 5)에 가중치가 모입니다.",
        "The weights P = softmax(S ÷ √dh + M): Head 1 puts the weight in the even-numbered columns (2, 4, 6), Head 2 in the odd-numbered ones (1, 3, 5).",
    ),
    figure(
        'al.figures.figure_stage_heads(tr, "O", row_labels=rows, lang=LANG)',
        "가중합 O = PV: head마다의 출력입니다.",
        "The weighted sum O = PV: each head's output.",
    ),
    figure(
        'al.figures.figure_matrices([(tr.H, "values", "H = Concat(O₁, O₂)")], row_labels=rows, lang=LANG)',
        "Concat으로 두 head의 O를 나란히 붙인 H: 성분 1–4는 O₁, 5–8은 O₂입니다.",
        "H, the two heads' O put side by side by Concat: components 1–4 are O₁, 5–8 are O₂.",
    ),
    md(
        """
아래 탐색기는 이 모델의 가중치로 같은 단계를 브라우저에서 계산합니다. 위의 입력 칸에 A, B, C, D 중 여섯 개를 쓰고(예: ABCDAB) Enter를 누르면, 브라우저가 X = E_tok[x] + E_pos와 Q, K, V를 만들고 모든 단계를 다시 그립니다. 커널이 없는 웹 페이지에서도 그대로 동작합니다. head를 바꿔 보거나 한 행을 고쳐 보세요.
""",
        """
The explorer below computes the same stages in the browser, from this model's weights. Type six tokens from A, B, C, D in its input box (e.g. ABCDAB) and press Enter: the browser makes X = E_tok[x] + E_pos and Q, K, V, and draws every stage again. It works the same on a web page with no kernel. Pick another head, or edit a row.
""",
    ),
    code("""
from attention_lab.live.learned import learned_explorer

learned_explorer(tokens, lang=LANG)"""),
    code(
        """
for head in range(tr.h):
    print(al.words.say("head_n", LANG, n=head + 1))
    for i in range(tr.T):
        print(f"  P[{i + 1},·] =", format_row(tr.P[head, i], "weights"))
""",
        check=True,
    ),
    md(
        """
글은 H에서 끝납니다. 이 모델에서는 그 다음도 있습니다. H에 W_O를 곱한 A = H W_O를 X에 더한 것이 residual stream R = X + A이고, W_U가 R의 각 행에서 답 16개의 점수를 만듭니다. 가장 높은 점수의 답이 모델의 답입니다.
""",
        """
The article ends at H. This model goes on: A = H W_O, H times W_O, is added to X to give the residual stream R = X + A, and W_U turns each row of R into the scores of the 16 answers. The answer with the highest score is the model's answer.
""",
    ),
    figure(
        """
al.figures.figure_matrices([(run["A"][0], "values", "A = H W_O"), (run["R"][0], "values", "R = X + A")],
                            row_labels=rows, lang=LANG)
""",
        "A = H W_O와 residual stream R = X + A: 글이 끝나는 곳의 한 걸음 뒤입니다.",
        "A = H W_O and the residual stream R = X + A: one step past where the article ends.",
    ),
    code(
        """
p = np.exp(tm.log_probabilities(run["logits"][0]))
for t in range(2, tm.T + 1):
    best = p[t - 1].argmax()
    print(W["nb13_answer_row"].format(t=t, answer=tm.ANSWERS[best], p=fmt(p[t - 1, best], "weights")))
""",
        check=True,
    ),
    md(
        """
## 두 head가 배운 일

입력 하나만으로는 우연일 수도 있습니다. 가능한 입력 4096개 모두에서 P를 계산해 평균을 내 보겠습니다. 평균 P의 행 i, 열 j는 Query 토큰 i가 Key 토큰 j에 주는 가중치의 평균입니다.
""",
        """
## What the two heads learned

One input could be chance. So here is P computed on all 4096 possible inputs, and averaged: row i, column j of the mean P is the mean weight Query token i gives Key token j.
""",
    ),
    figure(
        """
P_all = tm.forward(weights, inputs)["P"]
al.figures.figure_mean_weights(P_all.mean(axis=0), title=W["nb13_mean_weights"].format(n=len(inputs)), lang=LANG)
""",
        "가능한 입력 4096개의 평균 P: Head 1은 짝수 번째 토큰, Head 2는 홀수 번째 토큰을 봅니다. Head 2는 볼 수 있는 홀수 번째 토큰들에 가중치를 거의 고르게 나누어 줍니다.",
        "The mean P over all 4096 possible inputs: Head 1 looks at the even-numbered tokens, Head 2 at the odd-numbered ones, and Head 2 shares its weight nearly evenly among those it can see.",
    ),
    md(
        """
평균 P의 Head 2에서 토큰 5의 행은 토큰 1, 3, 5에 약 ⅓씩, 토큰 3과 4의 행은 토큰 1과 3에 약 ½씩 줍니다. 마스크 아래에서 한 칸 건너 하나씩 1/k인 행들입니다. 숫자로 요약하면 다음과 같습니다. 토큰 2부터 각 행이 홀수 번째 Key 토큰들과 짝수 번째 Key 토큰들에 준 가중치의 합을 입력 4096개와 행들에서 평균한 것입니다.
""",
        """
In Head 2 of the mean P, the row of token 5 gives tokens 1, 3 and 5 about ⅓ each, the rows of tokens 3 and 4 give tokens 1 and 3 about ½ each: rows of 1/k on every other column, under the mask. In numbers: from token 2 on, the total weight each row gives the odd-numbered Key tokens and the even-numbered ones, averaged over the 4096 inputs and the rows.
""",
    ),
    code(
        """
odd = np.arange(tm.T) % 2 == 0  # tokens 1, 3, 5 are the indices 0, 2, 4


def on_parity(P):  # P of one head on many inputs (n, T, T) -> the mean total weight on odd and on even tokens
    rows = P[:, tm.SCORED]  # the rows of tokens 2 … 6: (n, T - 1, T)
    return {"odd": fmt(rows[..., odd].sum(axis=-1).mean(), "weights"),
            "even": fmt(rows[..., ~odd].sum(axis=-1).mean(), "weights")}


for head in range(2):
    print(W["nb13_on_parity"].format(head=al.words.say("head_n", LANG, n=head + 1), **on_parity(P_all[:, head])))
""",
        check=True,
    ),
    md(
        """
## head 하나를 빼면

head 하나의 출력 O를 0으로 바꾸고 같은 입력 4096개에서 답을 다시 계산합니다. 답의 두 글자를 따로 채점합니다. 비교할 기준은 아무것도 보지 않고 늘 A라고 답하는 것입니다. 동점에서 A가 이기므로 A가 가장 흔한 글자입니다.
""",
        """
## Without one head

Set one head's output O to 0 and compute the answers on the 4096 inputs again. The two letters of an answer are scored apart, against answering A every time without looking at anything: A wins ties, so it is the commonest letter.
""",
    ),
    code(
        """
right_odd, right_even = np.divmod(tm.answer_of(inputs)[:, tm.SCORED], len(tm.TOKENS))  # the two letters, 0 = A
print(W["nb13_always_a"].format(odd=fmt((right_odd == 0).mean(), "weights"), even=fmt((right_even == 0).mean(), "weights")))
for head in range(2):
    run_without = tm.forward(weights, inputs, remove_head=head)
    odd_guess, even_guess = np.divmod(run_without["logits"][:, tm.SCORED].argmax(axis=-1), len(tm.TOKENS))
    print(W["nb13_removed"].format(head=al.words.say("head_n", LANG, n=head + 1),
                                   odd=fmt((odd_guess == right_odd).mean(), "weights"),
                                   even=fmt((even_guess == right_even).mean(), "weights"),
                                   loss=f"{tm.loss(run_without['logits'], inputs):.1f}"))
""",
        check=True,
    ),
    md(
        """
Head 1을 빼면 짝수 쪽 글자가 늘 A라고 답하는 것과 비슷한 수준으로 떨어지고, Head 2를 빼면 홀수 쪽 글자가 그렇게 됩니다. 다른 글자는 그대로 맞습니다. 각 head가 답의 한 글자를 맡고 있다는 뜻입니다.

## head가 하나뿐이면

head가 하나인 모델은 답을 다 맞히지 못했습니다. 그 하나의 head는 어디를 볼까요? 아래 그림은 dh = 8인 모델의 평균 P이고, 그 아래 줄은 두 모델의 요약입니다.
""",
        """
Without Head 1 the even letter falls to about what answering A every time gets; without Head 2 the odd letter does, and the other letter stays right. Each head carries one letter of the answer.

## With a single head

The models with a single head did not get every answer right. Where does the one head look? The figure below is the mean P of the model with dh = 8, and the lines under it sum up both.
""",
    ),
    figure(
        """
P_one = tm.forward(weights_1, inputs)["P"]
al.figures.figure_mean_weights(P_one.mean(axis=0), title=W["nb13_mean_weights"].format(n=len(inputs)), lang=LANG)
""",
        "head가 하나인 모델(h = 1)의 평균 P: 한 행의 가중치를 홀수 번째 토큰과 짝수 번째 토큰에 함께 나누어 줍니다.",
        "The mean P of the model with one head (h = 1): each row shares its weight among odd- and even-numbered tokens alike.",
    ),
    code(
        """
for label in ("h = 1, dh = 8", "h = 1, dh = 4"):
    P_single = tm.forward(models[label], inputs)["P"][:, 0]
    print(label, W["nb13_on_parity"].format(head=al.words.say("head_n", LANG, n=1), **on_parity(P_single)))
""",
        check=True,
    ),
    md(
        """
head 하나가 어디를 보든, 이 과제를 풀 수 없는 이유는 이렇습니다. 위치 하나에서 head의 출력은 가중합 O = Σⱼ P[j] V[j]이고, 각 Value는 V[j] = (E_tok[x_j] + E_pos[j]) W_V, 곧 토큰의 몫과 위치의 몫을 더한 것입니다. 그래서 O에서 토큰에 대한 부분은 Σ_c n_c · E_tok[c] W_V입니다. n_c는 토큰 c가 있는 위치들의 가중치를 모두 더한 것, 곧 토큰마다 가중치로 센 개수 하나입니다. 토큰 네 개에 숫자 네 개입니다. 홀수 번째 토큰과 짝수 번째 토큰이 같은 네 개의 개수에 들어갑니다. 토큰 3의 C와 토큰 4의 C가 같은 n_C에 더해집니다. head 뒤의 W_O와 W_U는 선형이므로, 답마다 점수는 이 네 개수(그리고 그 위치의 X)를 정해진 가중치로 더한 것입니다. 짝수 쪽 글자를 말하려면 점수가 짝수 번째 위치의 개수를 따라가고 홀수 번째의 개수는 따라가지 않아야 하며, 홀수 쪽 글자는 그 반대여야 합니다. 그런데 P의 한 행에서 두 글자는 같은 개수를 읽습니다. 가중치를 홀수 번째와 짝수 번째에 다르게 나누어도 섞는 비율이 바뀔 뿐이고, 하나의 섞인 개수로는 두 개수를 따로 따라갈 수 없습니다. head가 둘이면 개수도 두 벌입니다. Head 2는 홀수 번째 위치에, Head 1은 짝수 번째 위치에 가중치를 나누어 주고, 답의 점수는 한 head의 개수로 홀수 쪽 글자를, 다른 head의 개수로 짝수 쪽 글자를 정해 더한 것이 됩니다.

정직하게 말하면 이것이 전부는 아닙니다. Value의 위치 몫 Σⱼ P[j] E_pos[j] W_V, 그리고 토큰에 따라 달라지는 가중치 P(Key에 토큰이 들어 있으므로)가 홀수와 짝수의 구별을 조금 새어 나가게 합니다. 그래서 head 하나의 손실도 훨씬 오래 학습하면 천천히 더 내려갑니다. 열 배의 단계로 학습해 보겠습니다.
""",
        """
Wherever one head looks, this is why it cannot solve the task. At one position the head's output is the weighted sum O = Σⱼ P[j] V[j], and each Value is V[j] = (E_tok[x_j] + E_pos[j]) W_V: the token's part plus the position's part, added. So the tokens' part of O is Σ_c n_c · E_tok[c] W_V, with n_c the weights of every position holding token c added together: one weighted count per token, four numbers for four tokens. The odd-numbered and the even-numbered tokens fall into the same four counts: a C at token 3 and a C at token 4 add to the same n_C. W_O and W_U after the head are linear, so each answer's score is these four counts (and the position's own X) added up with fixed weights. To name the even letter the score must follow the counts of the even positions and not those of the odd ones, and for the odd letter the other way round; but in one row of P both letters read the same counts. Sharing the weight unequally between odd and even positions only changes the blend, and one blended count cannot follow two counts apart. Two heads keep two sets of counts: Head 2 spreads its weight over the odd positions, Head 1 over the even ones, and an answer's score adds one head's counts for its odd letter to the other's for its even letter.

To be honest, that is not all of it: the positions' part of the Values, Σⱼ P[j] E_pos[j] W_V, and weights P that depend on the tokens (the Keys carry them) let a little of the odd/even split through. That is why one head's loss still creeps down, slowly, with much more training. Here it is trained for ten times the steps.
""",
    ),
    code(
        """
long_steps = 10 * training.STEPS
weights_long, losses_long = training.train(seed=training.SEED, h=1, steps=long_steps)
run_long = tm.forward(weights_long, inputs)
loss_long = tm.loss(run_long["logits"], inputs)
print(W["nb13_long_run"].format(steps=long_steps, loss=f"{loss_long:.3f}",
                                right=fmt(tm.accuracy(run_long["logits"], inputs), "weights")))
say_gap(loss_long)
""",
        check=True,
    ),
    md(
        """
열 배를 학습해도 head 하나의 손실은 head 둘의 손실보다 0.1 넘게 높게 남고, 여전히 답의 일부를 틀립니다. 이 과제에는 head 둘이 필요합니다. 답의 두 글자가 서로 다른 위치들의 개수이고, head 하나의 가중합은 그 개수들을 한데 섞기 때문입니다. head가 둘이면 head마다 하나의 일을 맡아, 각 P를 한 문장으로 설명할 수 있습니다. Head 1은 짝수 번째 토큰을, Head 2는 홀수 번째 토큰을 셉니다.

## 연습 문제
""",
        """
Even trained ten times as long, one head's loss stays more than 0.1 above two heads', and it still gets some answers wrong. This task needs two heads: the answer's two letters are counts over different positions, and one head's weighted sum blends them into one. With two heads each head took one job, and each P can be said in one sentence: Head 1 counts the even-numbered tokens, Head 2 the odd-numbered ones.

## Exercises
""",
    ),
    exercise("13.odd_share",
             "먼저 예측해 보세요: 토큰 5의 행에서 Head 1과 Head 2는 각각 가중치의 얼마를 홀수 번째 Key 토큰(1, 3, 5)에 줄까요? 그 다음, 학습된 모델의 trace `tr`에서 head마다 그 가중치의 합을 계산해 보세요. 검사는 다른 입력과 다른 가중치의 trace에서도 합니다.",
             "Predict first: in the row of token 5, how much of its weight does Head 1 give the odd-numbered Key tokens (1, 3, 5), and how much does Head 2? Then compute, from the learned model's trace `tr`, that total weight for each head. The check also runs on traces of other inputs and other weights.", 1),
    exercise("13.weakest_input",
             "Head 1이 자기 일을 가장 못하는 입력을 찾아 보세요. `P`는 입력 4096개 모두에서의 Head 1의 가중치, `inputs`는 그 입력들입니다. 토큰 6의 행이 짝수 번째 토큰(2, 4, 6)에 주는 가중치의 합이 가장 작은 입력을 답하세요. 검사는 다른 가중치의 모델에서도 합니다.",
             "Find the input on which Head 1 does its job worst. `P` is Head 1's weights on all 4096 inputs and `inputs` those inputs: answer the input on which the row of token 6 gives the even-numbered tokens, 2, 4 and 6, the smallest total weight. The check also runs on models with other weights.", 2),
    md(
        """
그 입력에서 Head 1은 어떻게 했고, 모델의 답은 맞았을까요?
""",
        """
On that input, how did Head 1 do, and was the model's answer right?
""",
    ),
    code(
        """
even_share = P_all[:, 0, 5][:, ~odd].sum(axis=-1)  # Head 1, the row of token 6: its weight on tokens 2, 4, 6
weakest = inputs[even_share.argmin()]
answer_6 = tm.forward(weights, weakest)["logits"][0, 5].argmax()
print(W["nb13_weakest"].format(head=al.words.say("head_n", LANG, n=1), tokens=tm.decode(weakest),
                               weight=fmt(even_share.min(), "weights"), answer=tm.ANSWERS[answer_6],
                               verdict=W["nb13_right_answer" if answer_6 == tm.answer_of(weakest)[5] else "nb13_wrong_answer"]))
""",
        check=True,
    ),
    next_link("00_overview.ipynb", "처음으로: 00 — 전체 흐름", "Back to the start: 00 — The whole flow"),
]
