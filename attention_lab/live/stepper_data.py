"""The step widgets' numbers for every size their controls offer, and the words their pages show.

`decode_data(tr)` and `blockwise_data(tr)` compute every record once: for T = 1 … T_max tokens (T_max = 8 when
the trace is the article's example, which grows from its corner, else the trace's own T), and for the blockwise
widget every block size 1 … T. They are the records of `kv_cache.decode_steps`, `blockwise.blockwise_steps`,
`attention_trace` and `kv_cache.generation_cost`, as JSON (−∞ as null); the browser (live/steppers.js) only
selects a record and draws it (its picture is the page's alone: tests/test_steppers.py runs steppers.js's own
picture code in Node.js, and holds the page's cells to the records through tests/page_cells.py).

    data = decode_data(al.article_example())       # data["S"][2][0]: row 3 of Head 1's S / √dh, [1, 0, 3]
    data["P"][2][0]                                # row 3 of Head 1's P: [0.114…, 0.042…, 0.844…]
"""

import numpy as np

from .. import look
from ..look.words import steppers as stepper_words
from ..numeric import checks, core
from ..numeric.blockwise import blockwise_steps
from ..numeric.examples import example_qkv
from ..numeric.kv_cache import decode_steps, generation_cost
from ..numeric.limits import STEPPER_T
from ..numeric.masks import Mask
from ..numeric.trace import AttentionTrace, attention_trace

MAX_T = STEPPER_T  # the T slider's end: the records of every size up to it travel with the widget
EXACT = {"rtol": 0, "atol": 1e-12}  # "equal to the full computation" means this close, checked here


def checked_trace(tr, causal=False):  # -> AttentionTrace
    """The trace a step widget shows (the article's example by default), or a ValueError naming the fix."""
    if not isinstance(tr, AttentionTrace):
        raise ValueError(f"tr: pass a trace, e.g. al.article_example(T=6), got {type(tr).__name__}.")
    if not tr.scaled:
        raise ValueError("tr: this trace was made with scaled=False, to show what the √dh prevents; generation and "
                         "the blockwise softmax divide by √dh. Pass a trace made with scaled=True.")
    if tr.T_q != tr.T_k:
        raise ValueError(f"tr: the step widgets follow one sequence, as many Query rows as Key rows; this trace has "
                         f"T_q={tr.T_q}, T_k={tr.T_k}. Pass a trace made without queries=.")
    if tr.T > MAX_T:
        raise ValueError(f"tr: the step widgets show at most {MAX_T} tokens, got T={tr.T}. Pass a trace of at most "
                         f"{MAX_T} tokens, e.g. al.article_example(T={MAX_T}).")
    if causal and tr.mask_name != "causal":
        raise ValueError(f"tr: a KV cache needs the causal mask; this trace has mask {tr.mask_name!r}. "
                         "Pass a trace made with mask='causal'.")
    return tr


def _mask_of(spec, allowed):  # -> the trace's own Mask where it gives exactly these rows, else the rows as a Mask
    T = allowed.shape[0]
    try:
        named = spec.checked(T, T)
    except ValueError:  # a parameter out of range for T tokens, or a mask array of another size
        return Mask.of(allowed)
    return named if np.array_equal(named.allowed(T, T), allowed) else Mask.of(allowed)


def traces_by_size(tr):  # -> (trace of T tokens for T = 1 … T_max)
    """The first T tokens of the trace's sequence, for every T the T slider offers.

    The article's example grows from its corner (numeric.examples), so it offers T up to MAX_T; any other
    trace offers its own T and fewer. The first T tokens keep the trace's mask on their rows and columns.
    """
    g, d = tr.kv_heads, tr.d
    grown = example_qkv(MAX_T, d, tr.h, kv_heads=g)
    try:
        grown_mask = tr.mask.checked(MAX_T, MAX_T)
    except ValueError:
        grown_mask = None
    if grown_mask is not None and all(np.array_equal(X[: tr.T], getattr(tr, n)) for n, X in zip("QKV", grown,
                                                                                                   strict=True)):
        (Q, K, V), allowed = grown, grown_mask.allowed(MAX_T, MAX_T)
    else:
        (Q, K, V), allowed = (tr.Q, tr.K, tr.V), tr.mask.allowed(tr.T, tr.T)
    return tuple(attention_trace(Q[:T], K[:T], V[:T], tr.h, mask=_mask_of(tr.mask, allowed[:T, :T]), kv_heads=g)
                 for T in range(1, len(Q) + 1))


def listed(array):  # ndarray -> nested lists of floats, −∞ as None (JSON has no −∞)
    array = np.asarray(array, dtype=float)
    out = array.tolist()
    if not np.isneginf(array).any():
        return out

    def fix(x):
        return [fix(v) for v in x] if isinstance(x, list) else (None if x == -np.inf else x)

    return fix(out)


def _sizes(tr, traces):  # -> the sizes and head colours both widgets send
    return {"Tmax": len(traces), "T": tr.T, "h": tr.h, "g": tr.kv_heads, "dh": tr.dh,
            "kv": [int(j) for j in core.kv_head_index(tr.h, tr.kv_heads)],
            "colours": [look.head_color(i) for i in range(tr.h)]}


def decode_data(tr):  # -> dict of JSON types
    """Every record of generation from the KV cache, T_max steps (step t does not depend on the tokens after it)."""
    traces = traces_by_size(tr)
    full = traces[-1]
    steps = decode_steps(full.Q, full.K, full.V, full.h, kv_heads=full.kv_heads)
    costs = generation_cost(len(traces), full.d, full.h, kv_heads=full.kv_heads)
    without = np.cumsum([c.macs_without_cache for c in costs])
    cached = np.cumsum([c.macs_with_cache for c in costs])
    same = [[bool(np.allclose(s.P_row, trace.P[:, s.t, : s.t + 1], **EXACT)) and not trace.P[:, s.t, s.t + 1:].any()
             for s in steps[: trace.T]] for trace in traces]
    return {"kind": "decode", **_sizes(tr, traces),
            "q": listed(np.stack([s.q for s in steps], axis=1)),  # (h, T_max, dh)
            "K": listed(steps[-1].K_cache), "V": listed(steps[-1].V_cache),  # (g, T_max, dh): step t shows rows ≤ t
            "S": [listed(s.S_scaled_row) for s in steps], "P": [listed(s.P_row) for s in steps],  # [t] (h, t + 1)
            "O": [listed(s.O_row) for s in steps],  # [t] (h, dh)
            "P_full": [listed(trace.P) for trace in traces],  # [T − 1] (h, T, T)
            "same": same,  # [T − 1][t]: the cache's row t of P is the full computation's
            "cache": [f"{s.cache_values:,}" for s in steps],  # every K/V head's values
            "cache_head": [f"{s.K_cache[0].size + s.V_cache[0].size:,}" for s in steps],  # one K/V head's
            "saved": [f"{a - b:,}" for a, b in zip(without, cached, strict=True)],
            "without": [f"{a:,}" for a in without], "cached": [f"{b:,}" for b in cached]}


def blockwise_data(tr):  # -> dict of JSON types
    """Every record of the online softmax: for each T, each block size 1 … T, each block."""
    traces = traces_by_size(tr)
    sizes = []
    for trace in traces:
        blocks = []
        for block in range(1, trace.T + 1):
            steps = blockwise_steps(trace.Q, trace.K, trace.V, trace.h, block, trace.mask, kv_heads=trace.kv_heads)
            blocks.append({"equal": bool(np.allclose(steps[-1].O, trace.O, **EXACT)),
                           "steps": [{"keys": [s.keys.start, s.keys.stop], "S": listed(s.S_block),
                                      "m_old": listed(s.m_old), "m": listed(s.m), "rescale": listed(s.rescale),
                                      "l": listed(s.l), "O": listed(s.O)} for s in steps]})
        sizes.append({"O": listed(trace.O), "blocks": blocks})
    return {"kind": "blockwise", **_sizes(tr, traces), "sizes": sizes}


SHARED_WORDS = ("head", "head_n", "kv_head_n", "query", "key", "token", "component", "cell")  # the explorer's


def words(lang):  # -> {key: text}: the words a step widget's page shows, in one language
    table = look.words.table(checks.lang(lang))
    return {k: table[k] for k in (*SHARED_WORDS, *stepper_words.WORDS)}
