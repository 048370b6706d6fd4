"""A tiny attention model of the article's own size (d = 8, h = 2, dh = 4), its task, and its forward pass.

The task: a sequence of T = 6 tokens, each one of A, B, C, D. At every position from token 2 on, the model
must name two tokens: the most frequent of the odd-numbered tokens so far (tokens 1, 3, 5, counted from 1, up to
and including this position) and the most frequent of the even-numbered ones (2, 4, 6); a tie goes to the earlier
letter. Its answer is one token of a vocabulary of 16 pairs, "CA" meaning "odd C, even A". One head can count the
odd-numbered tokens and the other the even-numbered ones. A single head cannot: its output's tokens' part is one
weighted count per token, into which the odd and the even positions' tokens fall alike, and the readout is linear;
trained from the same seed its loss stays at least 0.1 above two heads', even with ten times the steps (notebook
13 shows the gap and says why).

The model, as the article's Figure 1 draws it and one step past where it ends:

    X = E_tok[tokens] + E_pos           (T, d)       embedding of each token and of its position
    Q, K, V = X W_Q, X W_K, X W_V       (T, d)       the three projections
    S … O, H                            core.py's stages, per head: split, S = QKᵀ, ÷√dh, + M, softmax, PV, Concat
    A = H W_O                           (T, d)       the output projection (where the article ends)
    R = X + A                           (T, d)       the residual stream
    logits = R W_U                      (T, 16)      one score per answer

`forward` runs it on a batch of sequences (B, T) and keeps every array; `trace` gives one sequence's Core
Attention as the AttentionTrace every figure and view reads. The weights are a dict of arrays, `WEIGHTS` its
names; training is in numeric/training.py, the backward pass in numeric/backward.py.
"""

import itertools
from functools import cache

import numpy as np

from . import checks, core, masks
from .trace import attention_trace

TOKENS = ("A", "B", "C", "D")  # the input vocabulary
ANSWERS = tuple(odd + even for odd, even in itertools.product(TOKENS, TOKENS))  # "AA", "AB", …, "DD"
T, d = 6, 8  # tokens per sequence; model width, as in the article
SCORED = slice(1, None)  # the positions with an answer: token 2 on (token 1 has no even-numbered token yet)
WEIGHTS = ("E_tok", "E_pos", "W_Q", "W_K", "W_V", "W_O", "W_U")
# How a typed input is read, as data (the page's live/learned.js applies the same table): the blanks at either
# end dropped, then each character read as the letter it stands for, in either case and full width (as a Korean
# input method types "ＣＡＢ"); any other character is itself, and not a token.
READING = {"blank": " \t\n\r\f\v\u00a0\u3000",
           "readAs": {form: c for c in TOKENS for form in (c.lower(), *(chr(ord(x) + 0xFEE0) for x in (c, c.lower())))}}


def shapes(h=2, dh=None):  # -> {name: shape} of every weight
    """The shape of each weight: E_tok (4, d), E_pos (T, d), W_Q, W_K, W_V (d, h·dh), W_O (h·dh, d), W_U (d, 16).

    dh is d / h unless given: h = 1, dh = 4 is one head of the article's per-head size (half the width of two)."""
    h = checks.whole_number("h", h, 1, d)
    dh = d // h if dh is None else checks.whole_number("dh", dh, 1, d)
    if h * dh > d:
        raise ValueError(f"h, dh: h·dh = {h * dh} columns are more than the model's d = {d}; use h·dh ≤ {d}.")
    return {"E_tok": (len(TOKENS), d), "E_pos": (T, d), "W_Q": (d, h * dh), "W_K": (d, h * dh),
            "W_V": (d, h * dh), "W_O": (h * dh, d), "W_U": (d, len(ANSWERS))}


def answer_of(tokens):  # [..., T] int -> [..., T] int: the index in ANSWERS of (odd, even) at each position
    """The right answer at every position: the most frequent token among the odd-numbered tokens so far × 4 + the
    most frequent among the even-numbered ones (1-based, up to and including this position); a tie goes to the
    earlier letter, as argmax takes the first. Position 1's is unused (no even-numbered token yet)."""
    tokens = np.asarray(tokens)
    one_hot = tokens[..., None] == np.arange(len(TOKENS))  # [..., T, 4]: which token each position holds
    odd = (np.arange(tokens.shape[-1]) % 2 == 0)[:, None]  # tokens 1, 3, 5 are at 0-based 0, 2, 4
    odd_counts = np.cumsum(one_hot & odd, axis=-2)  # [..., T, 4]: each token's count so far, odd positions
    even_counts = np.cumsum(one_hot & ~odd, axis=-2)
    return odd_counts.argmax(axis=-1) * len(TOKENS) + even_counts.argmax(axis=-1)


@cache
def all_sequences():  # -> [4^T, T] int, read-only: every input the task has (4096)
    """Every sequence of T tokens, in order AAAAAA, AAAAAB, …: the model trains and is judged on all of them."""
    sequences = np.array(list(itertools.product(range(len(TOKENS)), repeat=T)))
    sequences.setflags(write=False)
    return sequences


def read_letters(typed):  # "  cabdda " -> "CABDDA"
    """A typed input as the letters it stands for (READING): still to be checked against TOKENS and T."""
    return "".join(READING["readAs"].get(c, c) for c in str(typed).strip(READING["blank"]))


def encode(text):  # "ABCDAB" -> [T] int
    """A sequence written as letters, as the notebook and the page take it; a ValueError names a bad letter."""
    if not isinstance(text, str):
        raise ValueError(f"tokens: write the sequence as text of {T} letters from {''.join(TOKENS)}, "
                         f"e.g. 'ABCDAB'; got {type(text).__name__}.")
    text = read_letters(text)
    bad = sorted(set(text) - set(TOKENS))
    if bad or len(text) != T:
        problem = f"letters {bad} are not tokens" if bad else f"it has {len(text)} letters"
        raise ValueError(f"tokens: {problem}; write {T} letters from {''.join(TOKENS)}, e.g. 'ABCDAB'.")
    return np.array([TOKENS.index(c) for c in text])


def decode(tokens):  # [T] int -> "ABCDAB"
    return "".join(TOKENS[int(i)] for i in tokens)


def _split(X, h):  # [B, T, h·dh] -> [B, h, T, dh]: core.split_heads on every sequence at once
    B, T_, d_ = X.shape
    return core.split_heads(X.reshape(B * T_, d_), h).reshape(h, B, T_, d_ // h).transpose(1, 0, 2, 3)


def _concat(O):  # [B, h, T, dh] -> [B, T, h·dh]: core.concat_heads on every sequence at once
    B, h, T_, dh = O.shape
    return core.concat_heads(O.transpose(1, 0, 2, 3).reshape(h, B * T_, dh)).reshape(B, T_, h * dh)


def _tokens(tokens):  # -> [B, T] int, or a ValueError
    tokens = np.asarray(tokens)
    if tokens.ndim == 1:
        tokens = tokens[None]
    if (tokens.ndim != 2 or tokens.shape[1] != T or not np.issubdtype(tokens.dtype, np.integer)
            or tokens.size == 0 or tokens.min() < 0 or tokens.max() >= len(TOKENS)):
        raise ValueError(f"tokens: need whole numbers 0…{len(TOKENS) - 1} in shape (B, {T}) or ({T},), "
                         f"got {tokens.dtype} {tokens.shape}; encode('ABCDAB') gives one sequence.")
    return tokens


def check_weights(weights):  # -> (weights as float arrays, h)
    """The weights of the model and their h, or a ValueError naming the weight that is missing or misshapen."""
    if not isinstance(weights, dict) or "h" not in weights:
        raise ValueError("weights: need a dict with 'h' and the arrays " + ", ".join(WEIGHTS) +
                         " (e.g. training.load_weights()).")
    h = weights["h"]
    if isinstance(h, np.ndarray) and h.ndim == 0:  # np.load gives h as a 0-d array
        h = h[()]
    h = checks.whole_number("weights['h']", h, 1, d)  # 2.7, True, NaN, [2] or None: refused, not truncated
    width = np.shape(weights.get("W_Q"))[-1] if np.ndim(weights.get("W_Q")) == 2 else d  # h·dh
    if width % h:
        raise ValueError(f"h: W_Q's {width} columns cannot be shared equally by h={h} heads; "
                         f"use one of {checks.divisors(width)}.")
    out = {"h": h}
    for name, shape in shapes(h, width // h).items():
        if name not in weights:
            raise ValueError(f"weights: {name} is missing; need {', '.join(WEIGHTS)}.")
        array = checks.real_array(name, weights[name])
        if array.shape != shape:
            raise ValueError(f"{name}: needs shape {shape}, got {array.shape}.")
        if not np.isfinite(array).all():  # else the run gives NaN, and trace blames Q, made from it
            where = [int(i) for i in np.argwhere(~np.isfinite(array))[0]]
            raise ValueError(f"{name}: contains NaN or ±inf at {where}; every weight must be a finite number "
                             "(train again, or load the shipped weights: training.load_weights()).")
        out[name] = array
    return out, h


def forward(weights, tokens, remove_head=None):  # weights, [B, T] -> {name: array}: every array on the batch
    """Run the model on a batch of sequences and keep every array: X, Q, K, V, Qh, Kh, Vh, S, S_scaled, M,
    S_masked, P, O, H (B, …), A, R, logits. One sequence (T,) is a batch of one.

    remove_head=i sets head i's output O to 0 (0-based): the model as it would be without that head.
    """
    weights, h = check_weights(weights)
    tokens = _tokens(tokens)
    if remove_head is not None:
        remove_head = checks.whole_number("remove_head", remove_head, 0, h - 1, " Heads are 0-based.")
    dh = weights["W_Q"].shape[1] // h
    a = {"tokens": tokens, "h": h}
    a["X"] = weights["E_tok"][tokens] + weights["E_pos"]  # (B, T, d)
    for name in "QKV":
        a[name] = a["X"] @ weights[f"W_{name}"]  # (B, T, d)
        a[name + "h"] = _split(a[name], h)  # (B, h, T, dh)
    a["S"] = core.scores(a["Qh"], a["Kh"])  # (B, h, T, T)
    a["S_scaled"] = core.scale(a["S"], dh)
    a["M"] = masks.causal_mask(T)  # (T, T): 0 on and below the diagonal, −∞ above
    a["S_masked"] = core.apply_mask(a["S_scaled"], a["M"])
    a["P"] = core.softmax(a["S_masked"])
    a["O"] = core.weighted_sum(a["P"], a["Vh"])  # (B, h, T, dh)
    if remove_head is not None:
        a["O"][:, remove_head] = 0.0
    a["H"] = _concat(a["O"])  # (B, T, h·dh)
    a["A"] = a["H"] @ weights["W_O"]
    a["R"] = a["X"] + a["A"]
    a["logits"] = a["R"] @ weights["W_U"]  # (B, T, 16)
    return a


def log_probabilities(logits):  # [..., n] -> [..., n]
    """log softmax of each row of logits, computed stably (the row's maximum first)."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def _scored(logits, tokens):  # [B, T, n] or [T, n], [B, T] or [T] -> (logits, answers) of the scored positions
    """The logits and the right answers at the scored positions, or a ValueError naming what does not fit."""
    tokens = _tokens(tokens)
    logits = checks.real_array("logits", logits)
    if logits.ndim == 2:
        logits = logits[None]
    if logits.ndim != 3 or logits.shape[1:] != (T, len(ANSWERS)):
        raise ValueError(f"logits: need shape (B, {T}, {len(ANSWERS)}) or ({T}, {len(ANSWERS)}), one score per "
                         f"answer at every position, got {logits.shape}; forward(weights, tokens)['logits'] "
                         "gives them.")
    if len(logits) != len(tokens):
        raise ValueError(f"logits, tokens: logits hold {len(logits)} sequences and tokens {len(tokens)}; "
                         "pass the logits of these very tokens: forward(weights, tokens)['logits'].")
    if not np.isfinite(logits).all():
        raise ValueError("logits: contains NaN or ±inf; the scores must be finite numbers (check the weights).")
    return logits[:, SCORED], answer_of(tokens)[:, SCORED]


def loss(logits, tokens):  # [B, T, 16], [B, T] -> float
    """The mean cross-entropy of the right answers, over every sequence and every scored position."""
    scored, answers = _scored(logits, tokens)
    logp = log_probabilities(scored)
    return float(-np.take_along_axis(logp, answers[..., None], axis=-1).mean())


def accuracy(logits, tokens):  # [B, T, 16], [B, T] -> float
    """The share of scored positions where the highest logit is the right answer."""
    scored, answers = _scored(logits, tokens)
    return float((scored.argmax(axis=-1) == answers).mean())


def margins(logits, tokens):  # [B, T, 16], [B, T] -> [B, T - 1]
    """How far the right answer wins, at every position from token 2 on: its logit minus the highest logit of a
    wrong answer. Above 0 the answer is right; the larger, the more a change to the logits it survives."""
    scored, answers = _scored(logits, tokens)
    answers = answers[..., None]
    right = np.take_along_axis(scored, answers, axis=-1)[..., 0]
    wrong = scored.copy()
    np.put_along_axis(wrong, answers, -np.inf, axis=-1)
    return right - wrong.max(axis=-1)


def trace(weights, tokens, hooks=None):  # weights, "ABCDAB" or [T] -> AttentionTrace
    """One sequence's Core Attention, every stage, from the model's own Q, K, V: what the figures draw."""
    if isinstance(tokens, str):
        tokens = encode(tokens)
    a = forward(weights, tokens)
    return attention_trace(a["Q"][0], a["K"][0], a["V"][0], h=a["h"], mask="causal", hooks=hooks)
