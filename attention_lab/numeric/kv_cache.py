"""Generating token by token: the KV cache, what it saves and costs, and shared K/V heads (GQA, MQA).

Under the causal mask, row t of P and O depends only on tokens 1 … t: a token
that arrives later never changes it (notebook 04's leak test). So a decoder
that generates one token at a time need not recompute the earlier rows. For
each new token it computes only that token's Query row, and attends over the
Key and Value rows of every token so far, kept from the earlier steps in a
cache: the KV cache.

    steps = decode_steps(Q, K, V, h)     # one DecodeStep per token
    steps[2].P_row[0]                    # row 3 of Head 1's P: [0.114, 0.042, 0.844]
    decode_with_cache(Q, K, V, h)        # H (T, d): attention_trace(Q, K, V, h, mask="causal").H

What it saves and what it costs: `generation_cost` counts multiply-adds and
values held at every step, with and without the cache; `kv_cache_bytes` is
the size of the cache of a whole model, and `PUBLISHED` holds the attention
sizes of a few published models with where they are published.
"""

import math
from dataclasses import dataclass

import numpy as np

from . import checks, core, masks
from .calls import named_arguments
from .progress import bar as progress_bar
from .readonly import frozen
from .trace import attention_trace


@dataclass(frozen=True, eq=False)
class DecodeStep:
    """What generating one token did. Read-only: no array of it can be written or made writable.

    t: the new token's index, from 0 (token t + 1 in the article's numbering).
    q (h, dh): the new token's Query, per head — the only Query row this step uses.
    K_cache, V_cache (g, t + 1, dh): the cache after this step; row j holds token j's Key (Value) row.
    S_scaled_row (h, t + 1): the new token's scores with every cached Key token, divided by √dh.
    P_row (h, t + 1): its weights, row t of P without the zeros of the tokens still to come.
    O_row (h, dh): its output per head. H_row (d,): the heads' outputs side by side (Concat).
    """

    t: int
    q: np.ndarray
    K_cache: np.ndarray
    V_cache: np.ndarray
    S_scaled_row: np.ndarray
    P_row: np.ndarray
    O_row: np.ndarray
    H_row: np.ndarray

    @property
    def cache_tokens(self):  # -> t + 1: the tokens whose K and V rows are in the cache
        return self.K_cache.shape[1]

    @property
    def cache_values(self):  # -> 2 · (t + 1) · g · dh: the numbers the cache holds (one layer)
        return self.K_cache.size + self.V_cache.size

    @property
    def macs(self):  # -> 2 · h · (t + 1) · dh: multiply-adds of this step's row of S and row of O
        h, n = self.P_row.shape
        return 2 * h * n * self.q.shape[1]


BYTES_PER_STEP_VALUE = 24  # decode_steps keeps about 20.7 bytes per h·T·(T + 1) (tracemalloc, T = 500, h = 2)


def _decode(Q, K, V, h, g, progress=False):  # checked inputs -> yields (t, q, K_cache, V_cache, S, P, O, H) rows
    """Core Attention with the causal mask, one new token at a time, from a cache of K and V rows (see decode_steps).

    Each step's rows are made fresh; K_cache, V_cache are views of the cache (g, T, dh), one row filled per step.
    """
    _one_row_per_token(Q, K, "decoding adds one token at a time")
    T, d = Q.shape
    dh = d // h
    shared = core.kv_head_index(h, g)
    K_cache, V_cache = np.zeros((g, T, dh)), np.zeros((g, T, dh))  # filled one row per step
    work = 4 * h * T * (T + 1) + 4096 * T  # a score of a row costs ~8 of blockwise's, a step ~60 µs (T = 8192: 3 s)
    with progress_bar(progress, work, total=T, desc="decode", unit="token") as bar:
        for t in range(T):
            K_cache[:, t] = core.split_heads(K[t : t + 1], g)[:, 0]  # the new token's Key row, (g, dh)
            V_cache[:, t] = core.split_heads(V[t : t + 1], g)[:, 0]
            q = core.split_heads(Q[t : t + 1], h)  # (h, 1, dh): the new token's Query, nobody else's
            S_scaled_row = core.scale(core.checked_scores(q, K_cache[shared, : t + 1]), dh)  # (h, 1, t+1)
            P_row = core.softmax(S_scaled_row)  # (h, 1, t+1)
            O_row = core.weighted_sum(P_row, V_cache[shared, : t + 1])  # (h, 1, dh)
            yield (t, q[:, 0], K_cache[:, : t + 1], V_cache[:, : t + 1], S_scaled_row[:, 0], P_row[:, 0], O_row[:, 0],
                   core.concat_heads(O_row)[0])
            bar.update(1)


@named_arguments
def decode_steps(Q, K, V, h, kv_heads=None):  # [T, d], [T, g·dh], [T, g·dh] -> tuple of T DecodeStep
    """Core Attention with the causal mask, one new token at a time, from a cache of K and V rows.

    Step t adds token t's Key and Value rows to the cache and computes only
    token t's row: its Query against the cached Keys, softmax, the weighted sum
    of the cached Values. No mask is needed: the cache holds exactly the tokens
    the causal mask allows. kv_heads=g: K and V have g heads that the h Query
    heads share (Query head i reads K/V head i // (h/g)); None means g = h.
    The steps keep every step's rows, about h·T² values in all: they are for
    looking at; decode_with_cache keeps none of them.
    """
    h = checks.whole_number("h", h)  # an int: h·T·(T + 1) below must not wrap around as a NumPy integer
    Q, K, V, g = checks.qkv(Q, K, V, h, kv_heads)
    T = Q.shape[0]
    checks.fits("Q", BYTES_PER_STEP_VALUE * h * T * (T + 1), f"the records of {T:,} steps (at step t, a row of t "
                f"scores and one of t weights per head, {h} heads)", "use decode_with_cache(…), which keeps none.")
    rows = list(_decode(Q, K, V, h, g))
    _t, _q, K_cache, V_cache, *_ = rows[-1]
    K_cache, V_cache = frozen(K_cache), frozen(V_cache)  # the cache of step t is the first t + 1 rows of the last one
    return tuple(
        DecodeStep(t, frozen(q), K_cache[:, : t + 1], V_cache[:, : t + 1], frozen(S), frozen(P), frozen(O), frozen(H))
        for t, q, _K, _V, S, P, O, H in rows
    )


@named_arguments
def decode_with_cache(Q, K, V, h, kv_heads=None, progress=None):  # [T, d], [T, g·dh], [T, g·dh] -> [T, d]
    """H computed one token at a time from the KV cache; equal to attention_trace(…, mask="causal").H.

    It keeps no step's rows, only H (T, d) and the cache (g, T, dh): its memory grows as T, not T².
    progress: a progress bar (None: shown when the work takes some seconds; True; False).
    """
    h = checks.whole_number("h", h)
    Q, K, V, g = checks.qkv(Q, K, V, h, kv_heads)
    H = np.empty(Q.shape)  # (T, d), one row per step
    for t, *_rows, H_row in _decode(Q, K, V, h, g, progress):  # each step's rows are dropped but H's
        H[t] = H_row
    return H


@dataclass(frozen=True)
class StepCost:
    """Generating token t (from 1) in one attention layer, with and without the KV cache.

    Multiply-adds: the projections that make the Q, K, V rows (the previous
    article: d·(d + 2·g·dh) per token) and Core Attention. With the cache: the
    new token's projections and its own row of S and of O (2·h·t·dh). Without:
    the projections of all t tokens again, and all t rows of S and of O, t × t
    per head, as attention_trace computes them (2·h·t²·dh).
    Values held while the step runs: the K and V rows of the t tokens (kept in
    the cache, or recomputed) and the scores being turned into weights: one row
    per head (h·t) with the cache, the whole t × t matrix per head without.
    The cache keeps its 2·t·g·dh values between steps.
    """

    t: int
    macs_with_cache: int
    macs_without_cache: int
    values_with_cache: int
    values_without_cache: int
    cache_values: int


MAX_STEPS = 2**20  # generation_cost makes one record per step


@named_arguments
def generation_cost(T, d, h, kv_heads=None):  # -> tuple of T StepCost, t = 1 … T
    """What generating T tokens costs in one attention layer of width d, h Query heads and g = kv_heads K/V heads."""
    T, d, h = checks.sizes(T, d, h)  # Python ints from here on: no NumPy integer wraps around
    checks.whole_number("T", T, 1, MAX_STEPS, " generation_cost makes one record per generated token.")
    g, dh = checks.kv_heads(kv_heads, h), d // h
    projections = d * (d + 2 * g * dh)  # Q, K, V rows of one token
    return tuple(
        StepCost(t=t,
                 macs_with_cache=projections + 2 * h * t * dh,
                 macs_without_cache=t * projections + 2 * h * t * t * dh,
                 values_with_cache=2 * t * g * dh + h * t,
                 values_without_cache=2 * t * g * dh + h * t * t,
                 cache_values=2 * t * g * dh)
        for t in range(1, T + 1)
    )


@named_arguments
def kv_cache_bytes(layers, tokens, kv_heads, dh, bytes_per_value=2):  # -> int
    """The size of a model's KV cache for one sequence: K and V × layers × tokens × K/V heads × dh × bytes."""
    sizes = {"layers": layers, "tokens": tokens, "kv_heads": kv_heads, "dh": dh, "bytes_per_value": bytes_per_value}
    return 2 * math.prod(checks.whole_number(name, value, 1) for name, value in sizes.items())


@dataclass(frozen=True)
class ModelConfig:
    """The attention sizes of a published model, and where they are published."""

    name: str
    layers: int
    d: int  # model width (hidden size)
    heads: int  # Query heads h
    kv_heads: int  # K/V heads g (= heads: multi-head; 1: multi-query; between: grouped-query)
    dh: int  # width of one head (head_dim)
    context: int  # the longest context the model was made for, in tokens
    source: str  # where these numbers are published
    bytes_per_value: int = 2  # 16-bit values (fp16 / bf16), as these models are usually run

    @named_arguments
    def cache_bytes(self, tokens=None, kv_heads=None):  # -> int
        """The KV cache of one sequence of `tokens` (default: the full context); kv_heads=heads: as without GQA."""
        return kv_cache_bytes(self.layers, self.context if tokens is None else tokens,
                              self.kv_heads if kv_heads is None else kv_heads, self.dh, self.bytes_per_value)


_HF = "huggingface.co/{}/blob/main/config.json"
PUBLISHED = (
    ModelConfig("GPT-2 (124M)", 12, 768, 12, 12, 64, 1024,
                _HF.format("openai-community/gpt2") + " (n_layer, n_embd, n_head, n_ctx); Radford et al. 2019"),
    ModelConfig("Llama 2 7B", 32, 4096, 32, 32, 128, 4096,
                _HF.format("meta-llama/Llama-2-7b-hf") + "; Touvron et al. 2023, arXiv:2307.09288"),
    ModelConfig("Llama 2 70B", 80, 8192, 64, 8, 128, 4096,
                _HF.format("meta-llama/Llama-2-70b-hf") + "; Touvron et al. 2023, arXiv:2307.09288 (GQA)"),
    ModelConfig("Llama 3.1 8B", 32, 4096, 32, 8, 128, 131072,
                _HF.format("meta-llama/Llama-3.1-8B") + "; Llama Team 2024, arXiv:2407.21783, Table 3"),
    ModelConfig("Llama 3.1 70B", 80, 8192, 64, 8, 128, 131072,
                _HF.format("meta-llama/Llama-3.1-70B") + "; Llama Team 2024, arXiv:2407.21783, Table 3"),
    ModelConfig("Falcon 7B", 32, 4544, 71, 1, 64, 2048,
                _HF.format("tiiuae/falcon-7b") + " (multi_query: true) and its model card"),
    ModelConfig("Gemma 2B", 18, 2048, 8, 1, 256, 8192,
                _HF.format("google/gemma-2b") + "; Gemma Team 2024, arXiv:2403.08295, Table 1"),
)


def _one_row_per_token(Q, K, what):  # a ValueError unless Q and K have a row for each token
    if Q.shape[0] != K.shape[0]:  # each token comes with its Query, Key and Value rows together
        raise ValueError(f"Q, K: {what} with its Query, Key and Value rows, so Q, K and V need as many rows; got "
                         f"T_q={Q.shape[0]}, T_k={K.shape[0]}. For Query rows against a longer cache use "
                         "attention_trace(Q, K, V, h): the last Query row lines up with the last Key row.")


def _chunk_mask(spec, block):  # -> the mask's own rule on the (c, b) chunk when it gives these rows, else the rows
    try:
        named = spec.checked(*block.shape)  # bottom-right: the chunk's last Query row is the last Key token so far
    except ValueError:  # a parameter out of range for b Key tokens, or a mask array of the full size
        return masks.Mask.of(block)
    return named if np.array_equal(named.allowed(*block.shape), block) else masks.Mask.of(block)


@named_arguments
def prefill_chunks(Q, K, V, h, chunk, mask="causal", kv_heads=None):  # [T, d], [T, g·dh] ×2 -> tuple of traces
    """The prompt read `chunk` tokens at a time (chunked prefill): each chunk's Query rows against the tokens so far.

    Chunk n holds tokens a … b − 1 (from 0; a = n · chunk, b = min(a + chunk, T)). Its trace is the
    (b − a) × b problem attention_trace(Q[a:b], K[:b], V[:b], h): the chunk's Query rows against the Key and
    Value rows of every token so far (the cache, then the chunk's own), masked by rows a … b − 1 of the full
    T × T mask. Stacked, the chunks' H is the full trace's H for every chunk size: chunk = 1 is decoding token
    by token, chunk = T the whole prompt at once. A mask that lets a token see a later token (none, a window
    with right > 0, prefix) cannot be read in chunks, since those Keys do not exist yet: a ValueError.
    """
    Q, K, V, g = checks.qkv(Q, K, V, h, kv_heads)
    _one_row_per_token(Q, K, "a prompt comes one token at a time")
    T = Q.shape[0]
    chunk = checks.whole_number("chunk", chunk, 1, hint=" A chunk holds that many new tokens; chunk=T is one chunk.")
    spec = masks.to_mask(mask).checked(T, T)
    chunks = []
    for a in range(0, T, chunk):
        b = min(a + chunk, T)
        later = spec.allowed(T, T, rows=range(a, b), cols=range(b, T))  # (b − a, T − b): Keys after the chunk
        if later.any():
            i, j = np.argwhere(later)[0]
            raise ValueError(f"mask: {spec!r} lets Query token {a + i + 1} see Key token {b + j + 1}, which comes "
                             f"after its chunk (tokens {a + 1}–{b}); a chunk sees only the tokens so far, so chunked "
                             "prefill needs a mask under which no token sees a later one, e.g. 'causal' or "
                             "'sliding'. Use attention_trace(Q, K, V, h, mask) for the whole prompt at once.")
        block = spec.allowed(T, T, rows=range(a, b), cols=range(b))  # (b − a, b): these rows of the full mask
        chunks.append(attention_trace(Q[a:b], K[:b], V[:b], h, mask=_chunk_mask(spec, block), kv_heads=g))
    return tuple(chunks)
