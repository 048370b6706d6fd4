"""The explorer's controls: which ones a view offers, what each shows for a state, and their Python handles.

`control_specs(view, state, resolved, lang, data)` lists every control on the page, in order, as plain data: its name
(the page's `data-control`), type ("range", "select", "text", "check", "button"), label, value, choices or bounds,
and whether it is shown now. The page builds the same list (live/controls.js), and the parity test compares them.
`Control` is the Python handle of one (`ex.controls["T"].value = 5` moves the page).
"""

from ..look import words
from ..numeric import checks
from ..numeric.masks import ALIGNS, Lengths
from ..numeric.pipeline import STAGES
from .data import param_key
from .state import LABELS, offered_masks, param_names, param_value
from .views import LIMITS

GROUPS = ("source", "sizes", "mask", "picks", "edit")  # the rows of controls, in order


def _tokens(first, n):  # -> [[index, label]] for n rows whose first token is `first` (1-based)
    return [[i, str(first + i)] for i in range(n)]


def control_specs(view, state, resolved, lang, own=None):  # -> [dict]
    """Every control of the page for `state` (and `resolved`, what it puts on screen), in the page's order."""
    L = words.table(lang)
    out = []

    def add(group, name, kind, value, *, options=None, lo=None, hi=None, visible=True):
        label = L[LABELS.get(name) or (f"param.{name}" if "." in name else name)]
        out.append({"group": group, "name": name, "type": kind, "label": label, "value": value, "options": options,
                    "min": lo, "max": hi, "visible": visible})

    if own is not None and "tokens" in own:  # the learned model's input (live/learned.py)
        add("source", "tokens", "text", own["tokens"])
    if own is None:
        add("source", "source", "select", resolved.source,
            options=[["article", L["article"]], ["random", L["random"]]])
        add("source", "seed", "text", str(resolved.seed))
        add("source", "reset", "button", None)
        for name in LIMITS:
            add("sizes", name, "range", state[name], lo=LIMITS[name][0], hi=LIMITS[name][1])
        if view.kv_control:
            add("sizes", "kv_heads", "select", resolved.g,
                options=[[g, str(g)] for g in checks.divisors(resolved.h)], visible=resolved.h > 1)
        if view.queries:
            add("sizes", "queries", "range", resolved.T_q, lo=1, hi=resolved.T)
    offered = offered_masks(view, state["mask"])
    if offered:
        add("mask", "mask", "select", resolved.mask.name, options=[[m, L[f"mask.{m}"]] for m in offered])
        if view.queries:
            add("mask", "align", "select", state["align"], options=[[a, L[f"align.{a}.choice"]] for a in ALIGNS],
                visible=resolved.mask.name != "custom")  # a mask array says itself where its rows sit
        for name, p in param_names(offered).items():
            value = param_value(p, state.get(name), resolved.T)
            shown = name.split(".")[0] == resolved.mask.name
            if isinstance(p, Lengths):
                add("mask", name, "select", list(value),
                    options=[[list(v), p.text(v)] for v in p.values(resolved.T)],
                    visible=shown)
            else:
                lo, hi = p.bounds(resolved.T)
                add("mask", name, "range", value, lo=lo, hi=hi, visible=shown)
    if view.has_heads:
        heads = [[i, L["head_n"].format(n=i + 1)] for i in range(resolved.h)]
        heads += [[-1, L["all_heads"]]] if resolved.h > 1 else []
        add("picks", "head", "select", resolved.head, options=heads)
        if view.compared:
            add("picks", "compare", "select", resolved.compare,
                options=[[n, L[f"stage.{n}"]] for n in view.compared],
                visible=resolved.head == -1)
    queries = _tokens(resolved.first_query, resolved.T_q)
    picked = {"query": (resolved.query, queries), "key": (resolved.key, _tokens(1, resolved.T)),
              "row": (resolved.row, queries)}
    for name in view.picks:
        add("picks", name, "select", picked[name][0], options=picked[name][1])
    add("picks", "marks", "check", resolved.marks)
    if own is not None:
        matrix = state["edit_matrix"]
        rows = own[matrix].shape[0]
        token = min(state["edit_token"], rows - 1)
        add("edit", "edit_matrix", "select", matrix, options=[[m, m] for m in "QKV"])
        add("edit", "edit_token", "select", token, options=_tokens(resolved.first_query if matrix == "Q" else 1, rows))
        add("edit", "edit_row", "text", None)
        add("edit", "apply", "button", None)
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
