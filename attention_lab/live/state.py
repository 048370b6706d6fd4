"""The explorer's state: what its controls say, as one plain dict, and what that means (sizes, mask, trace).

The state is the dict the page and Python share (the widget's synced `state`): control name → the value the
learner asked for, e.g. {"T": 5, "h": 2, "dh": 4, "mask": "sliding", "sliding.window": 3, "query": 2, …}.
Asked-for values are kept as asked: a picker at token 9 stays at 9 when T drops to 4 (it shows token 4) and
shows token 9 again when T grows back; the same holds for the head, the K/V heads, the number of Query tokens
and every mask parameter. `resolve` says what is on screen for a state; the browser's front-end resolves a
state from the same tables (below), and tests/test_live_parity.py holds what the page then shows to the trace
of `trace_of`.

    state = initial_state(VIEWS["all"])          # the article's example, T = 3, d = 8, h = 2
    resolved = resolve(state, VIEWS["all"])      # Resolved(T=3, T_q=3, h=2, dh=4, g=2, mask=Mask('causal'), …)
    tr = trace_of(resolved, own=None)            # the Python reference: attention_trace of what is on screen

The state is described once, as data: `STATE` says which keys a state has, each key's kind, bounds and default and
whether ↺ brings it back; each offered mask's parameters ("sliding.window") follow it. initial_state, checked_state
and the reset (reset_of) read it, and the page gets it in LOOK.live.state (url.js's links hold exactly its keys).

The rules that fit a state to its sizes are data, read by a small interpreter on each side: `RESOLVE` (each resolved
size and pick, one expression each), `PARAMS` (a mask parameter's value and bounds), `MOVES` (the links between
controls when one moves) and, in live/controls.py, `CONTROLS`. An expression is a name ("T", "asked.queries": a
path into the context), a number, None, a string literal written "'custom'", or a list [operation, *arguments] of
`RULE_OPERATIONS` ("?" and "and" read only what they need). The page gets the tables in LOOK.live and evaluates
them with state.js's `evaluateRule`; tests/test_live_rules.py holds the two interpreters to each other, operation
by operation and state by state.

What is still a function in both languages is few and held: tests/test_live_twins.py's `TWINS` lists every
function of state.js, url.js and controls.js with a Python twin here or in controls.py (evaluate_rules, pick_index,
param_value, seed_of, reset_state, row_pieces, parse_row, …) and the test that holds the two to one rule on a
catalogue of cases with wrong inputs, each shown to refuse a broken side; a new page function in neither TWINS nor
its PAGE_ONLY fails there.
"""

import operator
import re
from dataclasses import dataclass

import numpy as np

from ..look.formats import READ_AS, ROW_GRAMMAR
from ..numeric import checks
from ..numeric.examples import ARTICLE_SIZES, article_example, random_example
from ..numeric.limits import SEED_CONTROL
from ..numeric.masks import ALIGNS, MASKS, Lengths, Mask, Param
from ..numeric.own_numbers import typed_whole
from ..numeric.trace import attention_trace
from .views import LIMITS, OWN_LIMITS, PICKERS

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


# Every key of a state, in order, as data: its kind, bounds and default (initial_state starts with it; the explorer's
# arguments override it), and whether ↺ brings the default back. Kinds: "choice" (one of `of`: a tuple, or what the
# view offers: "masks" its masks, "compared" the stages all heads put side by side), "whole" (`range` lo … hi) or
# "whole or None", and "bool". Each parameter of a mask ("sliding.window") is a key too, after these (param_names:
# masks.Param and masks.Lengths give its bounds and default). checked_state checks a state by this table, the reset
# is read from it, and the page gets it (LOOK.live.state: url.js links exactly these keys); tests/test_live_twins.py
# fails when a key appears in one place only.
STATE = {
    "source": {"kind": "choice", "of": SOURCES, "default": "article", "reset": True},
    "seed": {"kind": "whole", "range": SEED_CONTROL, "default": 0, "reset": False},
    **{name: {"kind": "whole", "range": LIMITS[name], "default": ARTICLE[name], "reset": True} for name in LIMITS},
    "kv_heads": {"kind": "whole or None", "range": (1, LIMITS["h"][1]), "default": None, "reset": True},  # None: h
    "queries": {"kind": "whole or None", "range": (1, LIMITS["T"][1]), "default": None, "reset": True},  # None: T
    "align": {"kind": "choice", "of": ALIGNS, "default": "bottom-right", "reset": True},
    "mask": {"kind": "choice", "of": "masks", "default": "causal", "reset": True},
    "head": {"kind": "whole", "range": (-1, LIMITS["h"][1] - 1), "default": 0, "reset": True},  # -1: all heads
    "compare": {"kind": "choice", "of": "compared", "default": "P", "reset": False},  # else the view's first, or ""
    **{name: {"kind": "whole", "range": (0, LIMITS["T"][1] - 1), "default": ARTICLE_PICKS[name], "reset": True}
       for name in PICKERS},
    "marks": {"kind": "bool", "default": True, "reset": False},
    "edit_matrix": {"kind": "choice", "of": MATRICES, "default": "Q", "reset": False},
    "edit_token": {"kind": "whole", "range": (0, LIMITS["T"][1] - 1), "default": 2, "reset": False},
}


def state_keys(mask_names=MASKS):  # -> [key]: STATE's keys, then each parameter of the masks named
    return [*STATE, *param_names(mask_names)]


def initial_state(view, *, T=ARTICLE["T"], h=ARTICLE["h"], dh=ARTICLE["dh"], kv_heads=None, mask="causal", params=None,
                  seed=0, source="article", queries=None, align="bottom-right", marks=True):  # -> dict: name -> value
    """The state an explorer starts in (the arguments already checked): STATE's defaults, with these."""
    given = {"source": source, "seed": seed, "T": T, "h": h, "dh": dh, "kv_heads": kv_heads, "queries": queries,
             "align": align, "mask": mask, "marks": marks}
    state = {name: given.get(name, key["default"]) for name, key in STATE.items()}
    if state["compare"] not in view.compared:
        state["compare"] = view.compared[0] if view.compared else ""
    for name, p in param_names(offered_masks(view, mask) or (mask,)).items():
        state[name] = p.default if isinstance(p, Param) else None
    for key, value in (params or {}).items():
        state[f"{mask}.{key}"] = list(value) if isinstance(value, tuple) else value
    return state


def reset_of(view, start):  # -> {key: value}: what ↺ sets (STATE's "reset" keys, to their defaults; config.reset)
    """↺ brings back the article's example: the keys STATE marks, with the default mask if the view offers it (else
    the one the explorer started with). Your own numbers have no example to go back to: nothing."""
    if start["source"] == "yours":
        return {}
    offered = offered_masks(view, start["mask"]) or (start["mask"],)
    defaults = {name: key["default"] for name, key in STATE.items() if key["reset"]}
    return {**defaults, "mask": defaults["mask"] if defaults["mask"] in offered else start["mask"]}


def reset_state(state, reset):  # -> the state after ↺ (reset: reset_of, the config's "reset"; state.js resetState)
    return {**state, **reset}


def checked_state(raw, view, base):  # -> dict, or a ValueError naming what is malformed
    """A state sent by the page, checked entry by entry against what the view offers (STATE); missing entries from
    `base`. Every value must be one the page's controls can produce, so a crafted or corrupted message is refused
    whole.
    """
    if not isinstance(raw, dict):
        raise ValueError(f"state: must be a dict of control values, got {type(raw).__name__}.")
    unknown = sorted(set(raw) - set(base))
    if unknown:
        raise ValueError(f"state: unknown entries {unknown!r:.80}.")
    state = {**base, **raw}
    offered = {"masks": offered_masks(view, base["mask"]) or (base["mask"],), "compared": view.compared}
    for name, key in STATE.items():
        kind, value = key["kind"], state[name]
        if kind == "choice":
            if name != "compare" or view.compared:
                checks.choice(name, value, offered.get(key["of"], key["of"]))
        elif kind == "bool":
            checks.boolean(name, value)
        elif value is not None or kind != "whole or None":
            checks.whole_number(name, value, *key["range"])
    for name, p in param_names(MASKS).items():
        if name not in state:
            continue
        if isinstance(p, Param):
            checks.whole_number(name, state[name], p.lo, max(p.lo, LIMITS["T"][1] + p.hi_T))
        elif state[name] is not None:
            if not isinstance(state[name], (list, tuple)) or not 1 <= len(state[name]) <= p.most_parts:
                raise ValueError(f"{name}: must be a list of 1 to {p.most_parts} sequence lengths, got "
                                 f"{state[name]!r:.60}.")
            for n in state[name]:
                checks.whole_number(name, n, 1, LIMITS["T"][1])
    return state


def seed_of(text):  # -> the seed a seed box's text names (0 … SEED_CONTROL[1]), or None: "１２" -> 12
    """The seed box's rule (state.js seedOf): a typed whole number (own_numbers.typed_whole) in STATE's seed range."""
    n, (lo, hi) = typed_whole(text), STATE["seed"]["range"]
    return n if n is not None and lo <= n <= hi else None


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
    def first_query(self):  # the token number (1-based) of the first Query row (RESOLVE's rule)
        return evaluate_rule(RESOLVE["first_query"], {"T": self.T, "T_q": self.T_q})


RULE_OPERATIONS = {
    "+": operator.add, "-": operator.sub, "//": operator.floordiv, "==": operator.eq, "!=": operator.ne,
    ">": operator.gt, "<=": operator.le, "not": operator.not_, "min": min, "max": max,
    "clamp": lambda x, lo, hi: min(max(x, lo), hi),  # x fitted to lo … hi (hi wins when lo > hi)
    "??": lambda x, otherwise: otherwise if x is None else x,  # x, or `otherwise` where x is None
    "divisor": lambda x, n: n if x is None else max(g for g in checks.divisors(n) if g <= x),  # largest g | n, g ≤ x
    "divisors": lambda n: list(checks.divisors(n)), "has": lambda xs, x: x in xs, "len": len, "sum": sum,
    "list": lambda *xs: list(xs), "nonzero": lambda xs: [x for x in xs if x],
    "isList": lambda x: isinstance(x, (list, tuple)),
}


def evaluate_rule(x, context):  # -> the value of expression `x` (see the module) in `context`, a dict of names
    if isinstance(x, str):
        if x.startswith("'"):
            return x[1:-1]
        for part in x.split("."):
            context = context[part]
        return context
    if not isinstance(x, list):
        return x  # a number, True, False or None
    op, *args = x
    if op == "?":  # [?, condition, then, otherwise]
        return evaluate_rule(args[1] if evaluate_rule(args[0], context) else args[2], context)
    if op == "and":
        return all(evaluate_rule(a, context) for a in args)
    return RULE_OPERATIONS[op](*(evaluate_rule(a, context) for a in args))


def evaluate_rules(rules, context):  # -> context with each rule's name set to its value, in order (each sees the last)
    context = dict(context)
    for name, x in rules.items():
        context[name] = evaluate_rule(x, context)
    return context


# A picker's tokens, by its axis (views.PICKERS): the number shown for the first one, and how many there are.
PICK_AXES = {"query": ("first_query", "T_q"), "key": (1, "T")}

# A pick as a person reads and types it is counted from 1, as its choice's label shows it ("Head 1", Query token 3) and
# as the commands take it (--head 1, --row 3, --key 1); the state keeps 0-based indices. NUMBERED: each numbered
# control -> the number its first choice shows (an expression of the controls' context), so number = index + first.
# The labels and a link (#head=1 is Head 1) say these numbers, here and in the page (state.js: pickNumber,
# pickIndex); "all heads" (head -1) is ALL_HEADS. tests/test_live_rules.py holds the two sides to each other.
NUMBERED = {"head": 1, **{name: PICK_AXES[axis][0] for name, axis in PICKERS.items()},
            "edit_token": ["?", ["==", "asked.edit_matrix", "'Q'"], "first_query", 1]}
ALL_HEADS = "all"


def pick_number(name, index, context):  # -> the number (1-based) control `name` shows for its 0-based index, or "all"
    if name == "head" and index == -1:
        return ALL_HEADS
    return index + evaluate_rule(NUMBERED[name], context)


def pick_index(name, number, context):  # -> the 0-based index a shown number (or "all") names; None if it names none
    if number == ALL_HEADS:
        return -1 if name == "head" else None
    whole = isinstance(number, int) and not isinstance(number, bool)  # True is no number (Number.isInteger(true))
    return number - evaluate_rule(NUMBERED[name], context) if whole else None


# What a state puts on screen, in order. Context: asked (the state), mine (your own numbers), own (their sizes: T,
# T_q, width_q, width_k), view (queries: the view offers T_q and the alignment).
RESOLVE = {
    "T": ["?", "mine", "own.T", "asked.T"],
    "h": "asked.h",
    "dh": ["?", "mine", ["//", "own.width_q", "h"], "asked.dh"],
    "g": ["?", "mine", ["//", "own.width_k", "dh"], ["divisor", "asked.kv_heads", "h"]],  # K/V heads: g divides h
    "T_q": ["?", "mine", "own.T_q",
            ["?", ["and", "view.queries", ["!=", "asked.queries", None]], ["min", "asked.queries", "T"], "T"]],
    "first_query": ["+", ["-", "T", "T_q"], 1],  # the token number (1-based) of the first Query row
    "align": ["?", ["and", "view.queries", ["!=", "asked.mask", "'custom'"]], "asked.align", "'bottom-right'"],
    "head": ["?", ["and", ["==", "asked.head", -1], [">", "h", 1]], -1, ["clamp", "asked.head", 0, ["-", "h", 1]]],
    **{name: ["min", f"asked.{name}", ["-", PICK_AXES[axis][1], 1]] for name, axis in PICKERS.items()},  # each pick
}
# A mask parameter for T Key tokens, from the one asked for (`wanted`); p is its entry of data.mask_tables' "params".
PARAMS = {
    "int": {"value": ["clamp", ["??", "wanted", "p.default"], "p.lo", ["max", "p.lo", ["+", "T", "p.hiT"]]],
            "min": "p.lo", "max": ["max", "p.lo", ["+", "T", "p.hiT"]]},
    "lengths": {"value": ["?", ["and", ["isList", "wanted"], ["==", ["sum", "wanted"], "T"],
                                ["<=", ["len", "wanted"], "p.most"]],
                          "wanted", ["nonzero", ["list", ["//", ["+", "T", 1], 2], ["//", "T", 2]]]]},
}
# The links between controls: when `moved` moves (to `value`, and `if` holds of it and the resolved state), `set`
# becomes `to`: a seed picks the random example; K/V heads = h and T_q = T mean "one K/V head per Query head" and
# "every token's Query row", whatever h and T become.
MOVES = [
    {"moved": "seed", "if": True, "set": "source", "to": "'random'"},
    {"moved": "kv_heads", "if": ["==", "value", "h"], "set": "kv_heads", "to": None},
    {"moved": "queries", "if": ["==", "value", "T"], "set": "queries", "to": None},
]


def param_data(p):  # -> a mask parameter as the page gets it (data.mask_tables' "params", PARAMS' p)
    if isinstance(p, Lengths):
        return {"name": p.name, "type": "lengths", "most": p.most_parts}
    return {"name": p.name, "type": "int", "lo": p.lo, "hiT": p.hi_T, "default": p.default}


def param_key(value):  # 3 -> "3"; (3, 2) -> "3+2": a parameter value as the mask tables and the page key it
    return "+".join(map(str, value)) if isinstance(value, (tuple, list)) else str(value)


def param_value(p, wanted, T):  # -> the value of a mask parameter for T Key tokens, from the one asked for
    value = evaluate_rule(PARAMS[param_data(p)["type"]]["value"], {"p": param_data(p), "wanted": wanted, "T": T})
    return tuple(value) if isinstance(p, Lengths) else value


def kv_of(wanted, h):  # -> the K/V heads shown: the largest divisor of h not above what was asked (h if None)
    return RULE_OPERATIONS["divisor"](wanted, h)


def resolve(state, view, own=None):  # -> Resolved
    """What the controls' asked-for values show: every size, pick and parameter fitted to the others (RESOLVE)."""
    context = {"asked": state, "mine": own is not None, "view": {"queries": view.queries}}
    if own is not None:
        context["own"] = {"T": own["K"].shape[0], "T_q": own["Q"].shape[0], "width_q": own["Q"].shape[1],
                          "width_k": own["K"].shape[1]}
    fitted = evaluate_rules(RESOLVE, context)
    T, T_q, name = fitted["T"], fitted["T_q"], state["mask"]
    if name == "custom":
        mask = Mask.of(own["mask"])
    else:
        params = {p.name: param_value(p, state.get(f"{name}.{p.name}"), T) for p in MASKS[name].params}
        mask = Mask(name, align=fitted["align"], **params).checked(T_q, T)
    return Resolved(source=state["source"], seed=state["seed"], T=T, T_q=T_q, h=fitted["h"], dh=fitted["dh"],
                    g=fitted["g"], mask=mask, head=fitted["head"], compare=state["compare"], query=fitted["query"],
                    key=fitted["key"], row=fitted["row"], marks=state["marks"])


def moved(state, name, value, resolved):  # -> the state after control `name` moved to `value`, with MOVES' links
    """One control moved, and the controls linked to it (MOVES)."""
    state = {**state, name: value}
    context = {"value": value, "h": resolved.h, "T": resolved.T}
    for link in MOVES:
        if link["moved"] == name and evaluate_rule(link["if"], context):
            state[link["set"]] = evaluate_rule(link["to"], context)
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
