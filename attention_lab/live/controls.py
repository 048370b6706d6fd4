"""The explorer's controls: which ones a view offers, what each shows for a state, and their Python handles.

`CONTROLS` is the page's controls as data, in order, one entry each: its name (the page's `data-control`), group
(the row it sits in), type ("range", "select", "text", "check", "button"), label (a word's key), and expressions
(live/state.py's language) for when the view has it, its value, bounds and whether it is shown now; its options
are one of `OPTIONS`' generators. The entry "params" stands for every parameter of the masks offered (state.PARAMS).
`control_specs(view, state, resolved, lang, own)` evaluates the table for a state: every control as plain data.
The page evaluates the same table, sent in LOOK.live (live/controls.js), and tests/test_live_rules.py holds the two
lists to each other. `Control` is the Python handle of one (`ex.controls["T"].value = 5` moves the page).

Adding a control is one entry here and its words (and its element's behaviour in controls.js's `make`, if new).
"""

from ..look import words
from ..numeric.masks import ALIGNED, ALIGNS, Lengths
from ..numeric.pipeline import STAGES
from .state import (
    LABELS,
    MATRICES,
    PARAMS,
    PICK_AXES,
    evaluate_rule,
    offered_masks,
    param_data,
    param_key,
    param_names,
    pick_number,
)
from .views import LIMITS, PICKERS, view_data

GROUPS = ("source", "sizes", "mask", "picks", "edit")  # the rows of controls, in order
EXAMPLE = ["not", "mine"]  # the article's or a random example (not your own numbers)


def _control(group, name, kind, *, when=True, value=None, options=None, lo=None, hi=None, visible=True):
    return {"group": group, "name": name, "type": kind, "label": LABELS.get(name, name), "when": when,
            "value": value, "options": options, "min": lo, "max": hi, "visible": visible}


# Options: [generator, *expressions]. "named": [[x, label]] for x in a list, the label the word `template` names
# with x for {} (None: x itself); "tokens": [[i, the number control `name` shows for i]] for i < count (state.NUMBERED:
# the token's number, from 1); "heads": Head 1 … h (the numbers state.pick_number shows), and "all heads".
CONTROLS = [
    _control("source", "tokens", "text", when=["!=", "tokens", None], value="tokens"),  # live/learned.py's input
    _control("source", "source", "select", when=EXAMPLE, value="source",
             options=["named", ["list", "'article'", "'random'"], "'{}'"]),
    _control("source", "seed", "text", when=EXAMPLE, value="seed"),
    _control("source", "reset", "button", when=EXAMPLE),
    *(_control("sizes", name, "range", when=EXAMPLE, value=name, lo=lo, hi=hi) for name, (lo, hi) in LIMITS.items()),
    _control("sizes", "kv_heads", "select", when=["and", EXAMPLE, "view.kv"], value="g",
             options=["named", ["divisors", "h"], None], visible=[">", "h", 1]),
    _control("sizes", "queries", "range", when=["and", EXAMPLE, "view.queries"], value="T_q", lo=1, hi="T"),
    _control("mask", "mask", "select", when=["len", "view.masks"], value="mask",
             options=["named", "view.masks", "'mask.{}'"]),
    # Shown only where moving it changes what a row sees (masks.ALIGNED): not for a mask array, which says itself
    # where its rows sit, nor for "none", whose rows see every Key token wherever they sit.
    _control("mask", "align", "select", when=["and", ["len", "view.masks"], "view.queries"], value="asked.align",
             options=["named", "aligns", "'align.{}.choice'"], visible=["has", "aligned", "mask"]),
    _control("mask", "params", "params", when=["len", "view.masks"]),
    _control("picks", "head", "select", when="view.heads", value="head", options=["heads"]),
    _control("picks", "compare", "select", when=["and", "view.heads", ["len", "view.compared"]], value="compare",
             options=["named", "view.compared", "'stage.{}'"], visible=["==", "head", -1]),
    *(_control("picks", name, "select", when=["has", "view.picks", f"'{name}'"], value=name,
               options=["tokens", f"'{name}'", PICK_AXES[axis][1]]) for name, axis in PICKERS.items()),  # PICKERS
    _control("picks", "marks", "check", value="marks"),
    _control("edit", "edit_matrix", "select", when="mine", value="asked.edit_matrix",
             options=["named", "matrices", None]),
    _control("edit", "edit_token", "select", when="mine", value=["min", "asked.edit_token", ["-", "rows", 1]],
             options=["tokens", "'edit_token'", "rows"]),
    _control("edit", "edit_row", "text", when="mine"),
    _control("edit", "apply", "button", when="mine"),
]


def _options(how, context, L):  # -> [[value, label]] of a control's OPTIONS entry
    kind, *args = how
    if kind == "heads":
        h = context["h"]
        heads = [[i, L["head_n"].format(n=pick_number("head", i, context))] for i in range(h)]
        return heads + ([[-1, L["all_heads"]]] if h > 1 else [])
    if kind == "tokens":
        name, count = (evaluate_rule(a, context) for a in args)
        return [[i, str(pick_number(name, i, context))] for i in range(count)]
    items, template = (evaluate_rule(a, context) for a in args)
    return [[x, str(x) if template is None else L[template.replace("{}", str(x))]] for x in items]


def control_context(view, state, resolved, own):  # -> the names CONTROLS' expressions read
    """The resolved state's fields (mask: its name), the state as asked, and what the view and own numbers offer."""
    fields = {name: getattr(resolved, name) for name in resolved.__dataclass_fields__}
    return {**fields, "mask": resolved.mask.name, "first_query": resolved.first_query, "asked": state,
            "mine": own is not None, "tokens": (own or {}).get("tokens"), "aligns": list(ALIGNS),
            "aligned": list(ALIGNED),
            "matrices": list(MATRICES), "rows": own[state["edit_matrix"]].shape[0] if own is not None else None,
            "view": {**view_data(view), "masks": list(offered_masks(view, state["mask"]))}}  # as the page has it


def control_specs(view, state, resolved, lang, own=None):  # -> [dict]
    """Every control of the page for `state` (and `resolved`, what it puts on screen), in the page's order: name,
    group, type, label, value, options ([value, label]), min, max and visible, evaluated from CONTROLS."""
    L = words.table(lang)
    context = control_context(view, state, resolved, own)
    out = []
    for c in CONTROLS:
        if not evaluate_rule(c["when"], context):
            continue
        if c["type"] == "params":
            out += _param_specs(c, context, state, L)
            continue
        value = evaluate_rule(c["value"], context)
        out.append({"group": c["group"], "name": c["name"], "type": c["type"], "label": L[c["label"]],
                    "value": str(value) if c["type"] == "text" and value is not None else value,
                    "options": c["options"] and _options(c["options"], context, L),
                    "min": evaluate_rule(c["min"], context), "max": evaluate_rule(c["max"], context),
                    "visible": bool(evaluate_rule(c["visible"], context))})
    return out


def _param_specs(c, context, state, L):  # -> the controls of every parameter of the masks offered (PARAMS)
    out, T = [], context["T"]
    for name, p in param_names(context["view"]["masks"]).items():
        rule, where = PARAMS[param_data(p)["type"]], {"p": param_data(p), "wanted": state.get(name), "T": T}
        value = evaluate_rule(rule["value"], where)
        spec = {"group": c["group"], "name": name, "label": L[f"param.{name}"], "options": None,
                "min": None, "max": None, "visible": name.split(".")[0] == context["mask"]}
        if isinstance(p, Lengths):  # the page reads these choices from the mask's table (data.mask_tables)
            spec.update(type="select", value=list(value), options=[[list(v), p.text(v)] for v in p.values(T)])
        else:
            spec.update(type="range", value=value, min=evaluate_rule(rule["min"], where),
                        max=evaluate_rule(rule["max"], where))
        out.append(spec)
    return out


def pick_of(name, i, j, state, view):  # -> the state after a click (or arrow key) on cell (i, j) of stage `name`
    """A click on a cell sets the cell the dot product breaks down and the row the other breakdowns follow."""
    stage = STAGES.get(name) if isinstance(name, str) else None
    if stage is None or not stage.highlight:
        return state
    moved = {"query": i, "row": i}
    if stage.axes[1] == "key":
        moved["key"] = j
    return {**state, **moved}


class Control:
    """The Python handle of one control of the page: read `value`, set it, and the page follows (and the reverse).

    Choices are `options` [(label, value)] for a select, `min`/`max` for a range; `visible` says whether the page
    shows it now (a mask's parameters only while their mask is chosen; K/V heads only when h > 1).
    """

    def __init__(self, explorer, name):
        self._explorer, self.name = explorer, name

    def _spec(self):
        return self._explorer._control_spec(self.name)

    @property
    def value(self):
        if self.name == "edit_row":
            return self._explorer._edit_text()
        if self.name == "seed":  # a text box on the page (it says what it did with "abc"), a number here
            return int(self._spec()["value"])
        return _as_python(self._spec()["value"])

    @value.setter
    def value(self, value):
        self._explorer._set(self.name, value)

    @property
    def options(self):  # -> [(label, value)], as ipywidgets lists them
        return [(label, _as_python(value)) for value, label in self._spec()["options"] or ()]

    min = property(lambda self: self._spec()["min"])
    max = property(lambda self: self._spec()["max"])
    description = property(lambda self: self._spec()["label"])
    visible = property(lambda self: self._spec()["visible"])
    type = property(lambda self: self._spec()["type"])

    def click(self):
        """Press a button ("reset", "apply")."""
        self._explorer._set(self.name, None)

    def __repr__(self):
        return f"Control({self.name!r}, value={self.value!r})"


def _as_python(value):  # lengths travel as lists; the handle gives tuples, as masks.Lengths does
    return tuple(value) if isinstance(value, list) else value


def param_option_key(value):  # the page's <option value> of a choice
    return param_key(value) if isinstance(value, (list, tuple)) else str(value)
