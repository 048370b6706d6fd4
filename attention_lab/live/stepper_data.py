"""The step widgets' numbers for every size their controls offer, and the Python picture of what the page draws.

`decode_data(tr)` and `blockwise_data(tr)` compute every record once: for T = 1 … T_max tokens (T_max = 8 when
the trace is the article's example, which grows from its corner, else the trace's own T), and for the blockwise
widget every block size 1 … T. They are the records of `kv_cache.decode_steps`, `blockwise.blockwise_steps`,
`attention_trace` and `kv_cache.generation_cost`, as JSON (−∞ as null); the browser (live/steppers.js) only
selects a record and draws it. `decode_picture` and `blockwise_picture` are what the page shows for a state,
each cell styled by `look.cells` as in the figures: tests/test_steppers.py compares the page with them.

    data = decode_data(al.article_example())       # data["S"][2][0]: row 3 of Head 1's S / √dh, [1, 0, 3]
    decode_picture(data, {"T": 3, "step": 2, "head": 0}, "en")["panels"][4]["labels"]   # ["0.114", "0.042", "0.844"]
"""

import numpy as np

from .. import look
from ..look.cells import cells as styled_cells
from ..look.formats import format_row, format_value
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


# ---- what the page draws for a state (live/steppers.js builds the same, from the same data) ----------------------

def _matrix(rows):  # nested lists with None for −∞ -> ndarray
    return np.array([[-np.inf if x is None else x for x in row] for row in rows], dtype=float)


def _heatmap(name, title, rows, kind, *, row_labels, col_labels, row_cap="", col_cap="", hl=None, head=0):
    matrix = _matrix(rows)
    data = styled_cells(matrix, kind)
    n = matrix.size
    return {"type": "heatmap", "key": f"{name}@{head}", "name": name, "head": head, "title": title, "kind": kind,
            "rowCap": row_cap, "colCap": col_cap, "rowLabels": row_labels, "colLabels": col_labels, "hl": hl,
            "labels": data["labels"].split(" "), "fill": [data["fill"][6 * k: 6 * k + 6] for k in range(n)],
            "ink": data["ink"], "masked": data["masked"]}


def numbered(n, first=1):  # -> ["1", "2", …]
    return [str(first + k) for k in range(n)]


def on_screen(data, state):  # -> (T, step, head, block, row): the state fitted to the sizes, as the page fits it
    T = min(max(int(state["T"]), 1), data["Tmax"])
    head = min(max(int(state["head"]), 0), data["h"] - 1)
    block = min(max(int(state.get("block", 1)), 1), T)
    n_steps = T if data["kind"] == "decode" else len(data["sizes"][T - 1]["blocks"][block - 1]["steps"])
    step = min(max(int(state["step"]), 0), n_steps - 1)
    row = min(max(int(state.get("row", 0)), 0), T - 1)
    return T, step, head, block, row, n_steps


def decode_picture(data, state, lang):  # -> dict of JSON types: title, notes, panels
    """What the decode widget shows for `state` ({"T", "step", "head"}): step t's cache and its one row."""
    L = look.words.table(lang)
    T, t, i, *_ = on_screen(data, state)
    j, n = data["kv"][i], t + 1
    keys = numbered(n)
    rows = {"row_labels": [str(n)], "head": i}
    head_name = L["head_n"].format(n=i + 1)
    shown = head_name if data["g"] == data["h"] else L["kv_head_n"].format(n=j + 1)
    panels = [
        _heatmap("q", L["new_query"].format(t=n), [data["q"][i][t]], "values", col_labels=numbered(data["dh"]), **rows),
        _heatmap("K_cache", L["K_cache"], data["K"][j][:n], "values", row_labels=keys, col_labels=numbered(data["dh"]),
                 row_cap=L["key"], hl=[t, None], head=i),
        _heatmap("V_cache", L["V_cache"], data["V"][j][:n], "values", row_labels=keys, col_labels=numbered(data["dh"]),
                 row_cap=L["key"], hl=[t, None], head=i),
        _heatmap("S_scaled_row", L["row_scores"].format(t=n), [data["S"][t][i]], "scores", col_labels=keys,
                 col_cap=L["key"], **rows),
        _heatmap("P_row", L["row_weights"].format(t=n), [data["P"][t][i]], "weights", col_labels=keys,
                 col_cap=L["key"], **rows),
        _heatmap("O_row", L["row_output"].format(t=n), [data["O"][t][i]], "values", col_labels=numbered(data["dh"]),
                 **rows),
        _heatmap("P_trace", L["full_row"].format(t=n), [data["P_full"][T - 1][i][t]], "weights",
                 col_labels=numbered(T), col_cap=L["key"], **rows),
    ]
    if data["g"] == 1:
        size = L["cache_size_one"].format(n=n, values=data["cache"][t])
    else:
        size = L["cache_size"].format(n=n, values=data["cache"][t], g=data["g"], shown=shown,
                                      per=data["cache_head"][t])
    notes = [L["decode_what"].format(t=n), size,
             L["full_row_same" if data["same"][T - 1][t] else "full_row_differs"].format(t=n),
             L["saved"].format(saved=data["saved"][t], without=data["without"][t], cached=data["cached"][t])]
    if data["g"] != data["h"]:
        notes.append(L["kv_reads"].format(i=i + 1, j=j + 1, h=data["h"], g=data["g"]))
    return {"title": f"{head_name} · {L['decode_step'].format(t=n, T=T)}", "color": data["colours"][i],
            "panels": panels, "notes": notes, "steps": T, "step": t}


def key_span(keys):  # [start, stop) of a block's Key tokens -> "1–3" or "4", numbered from 1 as the article does
    start, stop = keys
    return str(start + 1) if stop - start == 1 else f"{start + 1}–{stop}"


def block_title(L, k, n, keys):  # words, block k of n (from 1), [start, stop) of its Key tokens
    """The heading of block k: its Key tokens numbered from 1, as the article numbers tokens."""
    one = keys[1] - keys[0] == 1
    return L["block_of_one" if one else "block_of"].format(k=k, n=n, keys=key_span(keys))


RUNNING = (("m_old", "m_old", "scores"), ("m", "m_new", "scores"), ("rescale", "rescale", "weights"),
           ("l", "running_sum", "values"))  # the running values, one column each: (field, word, kind)


def blockwise_picture(data, state, lang):  # -> dict of JSON types: title, notes, panels, trail
    """What the blockwise widget shows for `state` ({"T", "block", "step", "head", "row"})."""
    L = look.words.table(lang)
    T, k, i, b, r, n = on_screen(data, state)
    size = data["sizes"][T - 1]
    blocks = size["blocks"][b - 1]
    record = blocks["steps"][k]
    start, stop = record["keys"]
    tokens, comps = numbered(T), numbered(data["dh"])
    hl = [r, None]
    panels = [_heatmap("S_block", L["block_scores"], record["S"][i], "scores", row_labels=tokens,
                       col_labels=numbered(stop - start, start + 1), row_cap=L["query"], col_cap=L["key"], hl=hl,
                       head=i)]
    panels += [_heatmap(field, L[word], [[x] for x in record[field][i]], kind, row_labels=tokens, col_labels=[""],
                        hl=hl, head=i) for field, word, kind in RUNNING]
    panels.append(_heatmap("O", L["running_output"], record["O"][i], "values", row_labels=tokens, col_labels=comps,
                           hl=hl, head=i))
    last = k == n - 1
    notes = [L["rule_m"], L["rule_l"], L["rule_O"]]
    if last:
        panels.append(_heatmap("O_trace", L["full_output"], size["O"][i], "values", row_labels=tokens,
                               col_labels=comps, hl=hl, head=i))
        notes.append(L["last_block" if blocks["equal"] else "last_block_differs"])
    notes.append(L["never_full"].format(T=T, b=b) if b < T else L["one_block"].format(T=T))
    trail = [[str(s + 1), key_span(step["keys"]), format_row(_matrix(step["S"][i])[r], "scores"),
              *(format_value(_matrix([step[f][i]])[0, r], kind) for f, _w, kind in RUNNING),
              format_row(_matrix(step["O"][i])[r])] for s, step in enumerate(blocks["steps"][: k + 1])]
    return {"title": f"{L['head_n'].format(n=i + 1)} · {block_title(L, k + 1, n, record['keys'])}",
            "color": data["colours"][i], "panels": panels, "notes": notes, "steps": n, "step": k,
            "trail_title": L["trail_title"].format(i=r + 1), "trail": trail}


SHARED_WORDS = ("head", "head_n", "kv_head_n", "query", "key", "token", "component", "cell")  # the explorer's


def words(lang):  # -> {key: text}: the words a step widget's page shows, in one language
    table = look.words.table(checks.lang(lang))
    return {k: table[k] for k in (*SHARED_WORDS, *stepper_words.WORDS)}
