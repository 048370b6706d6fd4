"""The explorer's state: what its controls say, as one plain dict, and what that means (sizes, mask, trace).

The state is the dict the page and Python share (the widget's synced `state`): control name → the value the
learner asked for, e.g. {"T": 5, "h": 2, "dh": 4, "mask": "sliding", "sliding.window": 3, "query": 2, …}.
Asked-for values are kept as asked: a picker at token 9 stays at 9 when T drops to 4 (it shows token 4) and
shows token 9 again when T grows back; the same holds for the head, the K/V heads, the number of Query tokens
and every mask parameter. `resolve` says what is on screen for a state; the browser's front-end resolves a
state by the same rules (live/state.js), and tests/test_live_parity.py holds what the page then shows to the
trace of `trace_of`.

    state = initial_state(VIEWS["all"])          # the article's example, T = 3, d = 8, h = 2
    resolved = resolve(state, VIEWS["all"])      # Resolved(T=3, T_q=3, h=2, dh=4, g=2, mask=Mask('causal'), …)
    tr = trace_of(resolved, own=None)            # the Python reference: attention_trace of what is on screen
"""

import re
from dataclasses import dataclass

import numpy as np

from ..look.formats import READ_AS, ROW_GRAMMAR
from ..numeric import checks
from ..numeric.examples import ARTICLE_SIZES, article_example, random_example
from ..numeric.limits import SEED_CONTROL
from ..numeric.masks import ALIGNS, MASKS, Lengths, Mask, Param
from ..numeric.trace import attention_trace
from .views import LIMITS, OWN_LIMITS

ARTICLE = {"T": ARTICLE_SIZES["T"], "h": ARTICLE_SIZES["h"], "dh": ARTICLE_SIZES["d"] // ARTICLE_SIZES["h"]}
ARTICLE_PICKS = {"query": 2, "key": 0, "row": 2}  # Query token 3 · Key token 1; row 3 (0-based)
SOURCES = ("article", "random", "yours", "learned")  # learned: notebook 13's model (live/learned.py)
MATRICES = ("Q", "K", "V")
LABELS = {"tokens": "learned_tokens",  # a control's word, where it is not the control's name (nor param.<name>)
          "query": "pick_query", "key": "pick_key", "row": "pick_row", "edit_matrix": "edit", "edit_token": "token",
          "edit_row": "edit_label"}


def param_names(mask_names):  # -> {"sliding.window": Param, …}: every parameter of the masks offered
    return {f"{m}.{p.name}": p for m in mask_names if m in MASKS for p in MASKS[m].params}


def offered_masks(view, mask):  # -> the masks the mask control lists: the view's, and the one asked for
    offered = view.offered_masks()
    return tuple(dict.fromkeys((*offered, mask))) if offered else ()


def initial_state(view, *, T=3, h=2, dh=4, kv_heads=None, mask="causal", params=None, seed=0, source="article",
                  queries=None, align="bottom-right", marks=True):  # -> dict: control name -> value
    """The state an explorer starts in (the arguments already checked)."""
    state = {"source": source, "seed": seed, "T": T, "h": h, "dh": dh, "kv_heads": kv_heads, "queries": queries,
             "align": align, "mask": mask, "head": 0, "compare": "P" if "P" in view.compared else
             (view.compared[0] if view.compared else ""), **ARTICLE_PICKS, "marks": marks,
             "edit_matrix": "Q", "edit_token": 2}
    for name, p in param_names(offered_masks(view, mask) or (mask,)).items():
        state[name] = p.default if isinstance(p, Param) else None
    for key, value in (params or {}).items():
        state[f"{mask}.{key}"] = list(value) if isinstance(value, tuple) else value
    return state


def checked_state(raw, view, base):  # -> dict, or a ValueError naming what is malformed
    """A state sent by the page, checked entry by entry against what the view offers; missing entries from `base`.

    Every value must be one the page's controls can produce, so a crafted or corrupted message is refused whole.
    """
    if not isinstance(raw, dict):
        raise ValueError(f"state: must be a dict of control values, got {type(raw).__name__}.")
    unknown = sorted(set(raw) - set(base))
    if unknown:
        raise ValueError(f"state: unknown entries {unknown!r:.80}.")
    state = {**base, **raw}
    whole = checks.whole_number
    checks.choice("source", state["source"], SOURCES)
    whole("seed", state["seed"], *SEED_CONTROL)
    for name, (lo, hi) in LIMITS.items():
        whole(name, state[name], lo, hi)
    for name, hi in (("kv_heads", LIMITS["h"][1]), ("queries", LIMITS["T"][1])):
        if state[name] is not None:
            whole(name, state[name], 1, hi)
    checks.choice("align", state["align"], ALIGNS)
    checks.choice("mask", state["mask"], offered_masks(view, base["mask"]) or (base["mask"],))
    for name, p in param_names(MASKS).items():
        if name not in state:
            continue
        if isinstance(p, Param):
            whole(name, state[name], p.lo, max(p.lo, LIMITS["T"][1] + p.hi_T))
        elif state[name] is not None:
            if not isinstance(state[name], (list, tuple)) or not 1 <= len(state[name]) <= p.most_parts:
                raise ValueError(f"{name}: must be a list of 1 to {p.most_parts} sequence lengths, got "
                                 f"{state[name]!r:.60}.")
            for n in state[name]:
                whole(name, n, 1, LIMITS["T"][1])
    whole("head", state["head"], -1, LIMITS["h"][1] - 1)
    if view.compared:
        checks.choice("compare", state["compare"], view.compared)
    for name in ("query", "key", "row", "edit_token"):
        whole(name, state[name], 0, LIMITS["T"][1] - 1)
    checks.boolean("marks", state["marks"])
    checks.choice("edit_matrix", state["edit_matrix"], MATRICES)
    return state


@dataclass(frozen=True)
class Resolved:
    """What a state puts on screen: the sizes, the mask with every parameter, the head and the picked cells."""

    source: str
    seed: int
    T: int  # Key tokens (T_k); the tokens of the example
    T_q: int  # Query tokens: the last T_q tokens' Query rows
    h: int
    dh: int
    g: int  # K/V heads
    mask: Mask  # checked for (T_q, T)
    head: int  # 0-based, or -1 for all heads
    compare: str  # the stage "all heads" puts side by side
    query: int  # the picked score: Query row (0-based, of T_q) …
    key: int  # … and Key token (0-based, of T)
    row: int  # the row the softmax and weighted-sum breakdowns follow (0-based, of T_q)
    marks: bool

    @property
    def d(self):
        return self.h * self.dh

    @property
    def kv_heads(self):  # -> g, or None for one K/V head per Query head
        return None if self.g == self.h else self.g

    @property
    def first_query(self):  # the token number (1-based) of the first Query row
        return self.T - self.T_q + 1


def kv_of(wanted, h):  # -> the K/V heads shown: the largest divisor of h not above what was asked (h if None)
    return h if wanted is None else max(g for g in checks.divisors(h) if g <= wanted)


def param_value(p, wanted, T):  # -> the value of a mask parameter for T Key tokens, from the one asked for
    if isinstance(p, Lengths):
        fits = wanted is not None and sum(wanted) == T and len(wanted) <= p.most_parts
        return tuple(wanted) if fits else p.default_for(T)
    lo, hi = p.bounds(T)
    return min(max(wanted if wanted is not None else p.default, lo), hi)


def resolve(state, view, own=None):  # -> Resolved
    """What the controls' asked-for values show: every size, pick and parameter fitted to the others."""
    if own is not None:
        T, T_q = own["K"].shape[0], own["Q"].shape[0]
        h = state["h"]
        g = own["K"].shape[1] // (own["Q"].shape[1] // h)
        dh = own["Q"].shape[1] // h
    else:
        T, h, dh = state["T"], state["h"], state["dh"]
        g = kv_of(state["kv_heads"], h)
        T_q = T if state["queries"] is None or not view.queries else min(state["queries"], T)
    name = state["mask"]
    if name == "custom":
        mask = Mask.of(own["mask"])
    else:
        params = {p.name: param_value(p, state.get(f"{name}.{p.name}"), T) for p in MASKS[name].params}
        mask = Mask(name, align=state["align"] if view.queries else "bottom-right", **params).checked(T_q, T)
    head = state["head"]
    head = -1 if head == -1 and h > 1 else min(max(head, 0), h - 1)
    return Resolved(source=state["source"], seed=state["seed"], T=T, T_q=T_q, h=h, dh=dh, g=g, mask=mask,
                    head=head, compare=state["compare"], query=min(state["query"], T_q - 1),
                    key=min(state["key"], T - 1), row=min(state["row"], T_q - 1), marks=state["marks"])


def moved(state, name, value, resolved):  # -> the state after control `name` moved to `value` (state.js: `moved`)
    """One control moved, with the links between controls: a seed picks the random example; K/V heads = h and
    T_q = T mean "one K/V head per Query head" and "every token's Query row", whatever h and T become."""
    state = {**state, name: value}
    if name == "seed":
        state["source"] = "random"
    if name == "kv_heads" and value == resolved.h:
        state["kv_heads"] = None
    if name == "queries" and value == resolved.T:
        state["queries"] = None
    return state


def trace_of(resolved, own=None):  # -> AttentionTrace: the Python reference of what the page shows
    """attention_trace of what is on screen (your own numbers are within `too_large`'s limit: nothing overflows)."""
    queries = None if resolved.T_q == resolved.T else resolved.T_q
    T, d, h, mask, kv_heads = resolved.T, resolved.d, resolved.h, resolved.mask, resolved.kv_heads
    if own is not None:
        return attention_trace(own["Q"], own["K"], own["V"], h, mask=mask, kv_heads=kv_heads)
    if resolved.source == "article":
        return article_example(mask, T=T, d=d, h=h, kv_heads=kv_heads, queries=queries)
    return random_example(T, d, h, resolved.seed, mask, kv_heads=kv_heads, queries=queries)


def too_large(numbers):  # -> the first number beyond ±OWN_LIMITS["value"], or None
    """The explorer's one rule for your own numbers' size (the page's row editor applies it too: LOOK.largest)."""
    beyond = np.abs(np.asarray(numbers, dtype=float)) > OWN_LIMITS["value"]
    return float(np.asarray(numbers, dtype=float)[beyond][0]) if beyond.any() else None


def row_pieces(source):  # "［-1, １］" -> ["-1", "1"]: the pieces of a typed row, each a number or not
    """A row's text as ROW_GRAMMAR reads it: READ_AS folded, split at its separators. Two texts with the same pieces
    say the same numbers (how the row box tells its own text, typed back, from an edit; state.js: rowPieces)."""
    text = "".join(READ_AS.get(c, c) for c in str(source))
    return [piece for piece in re.split(ROW_GRAMMAR["separators"], text) if piece]


def parse_row(source, n):  # -> (float array [n], None) or (None, (message key, detail))
    """One row typed as text ("[-1, 1, 1, 2]", "−1 1 1 2", "－１，１") → n finite numbers, or what is wrong.

    The grammar is ROW_GRAMMAR (numeric.own_numbers), the page's and a file's cells' too.
    """
    values = []
    for token in row_pieces(source):
        if re.fullmatch(ROW_GRAMMAR["notFinite"], token):
            return None, ("edit_finite", token)
        if not re.fullmatch(ROW_GRAMMAR["number"], token):
            return None, ("edit_number", token)
        values.append(float(token))
        if not np.isfinite(values[-1]):  # 1e999
            return None, ("edit_finite", token)
    if len(values) != n:
        return None, ("edit_count", len(values))
    return np.array(values), None
