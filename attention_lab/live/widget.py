"""The live explorer widget: its page computes every stage itself; Python keeps the reference trace in step.

    import attention_lab as al
    ex = al.explorer(lang="ko", view="softmax")    # the view of notebook 05
    ex.controls["T"].value = 5                     # the page moves; a move in the page moves ex.controls
    ex.trace                                       # attention_trace of what is on screen
    ex.save_html("softmax.html")                   # the same explorer as one page that needs no Python

The widget is an anywidget whose front-end (the bundle of live/page.py) gets the numbers once (`config`) and
owns its controls: a move redraws in the page, with no kernel on its path, and is sent to Python as the synced
`state` (control name -> value), which Python checks and turns into `trace`. This class only connects the
state to the pure parts: views (live.views), state (live.state), controls (live.controls). The page is the one
renderer of the picture (live/picture.js); Python keeps the reference numbers (`trace`) and checks what the page
sends.
"""

import contextlib
import logging
from dataclasses import replace

import anywidget
import traitlets

from ..look import words
from ..look.formats import MINUS, format_row, format_value
from ..numeric import checks
from ..numeric.calls import named_arguments
from ..numeric.limits import SEED_CONTROL
from ..numeric.masks import ALIGNS, Mask, aligned, to_mask
from ..numeric.trace import attention_trace
from . import page
from .controls import Control, control_specs, pick_of
from .data import explorer_data
from .state import (
    ARTICLE,
    checked_state,
    initial_state,
    moved,
    offered_masks,
    parse_row,
    reset_of,
    reset_state,
    resolve,
    row_pieces,
    seed_of,
    too_large,
    trace_of,
)
from .views import LIMITS, OWN_LIMITS, VIEWS, view_data, view_of

log = logging.getLogger("attention_lab.live")
LARGEST = OWN_LIMITS["value"]
_VIEW_MASK = type("ViewDefault", (), {"__repr__": lambda self: "<the view's mask>"})()


class Explorer(anywidget.AnyWidget):
    """Every stage of Core Attention for the example its controls choose. See `explorer` for the arguments."""

    _esm = page.esm()  # the bundle of live/page.py and its styles, packed (loader.js): anywidget's ES module
    config = traitlets.Dict().tag(sync=True)  # the numbers and the view, sent once (live/page.py says its fields)
    state = traitlets.Dict().tag(sync=True)  # control name -> value: what is on screen
    own = traitlets.Dict().tag(sync=True)  # your own Q, K, V after row edits (lists), or {}
    message = traitlets.Dict().tag(sync=True)  # the line under the row editor: {"kind": "ok" | "bad", "text": …}

    def __init__(self, T=None, d=None, h=None, mask=_VIEW_MASK, seed=None, lang="en", view="all", source=None,
                 kv_heads=None, Q=None, K=None, V=None, marks=True, dh=None, queries=None, align="bottom-right"):
        self.lang = checks.lang(lang)
        self.view_name, self.view = view_of(view)
        mask = self.view.mask if mask is _VIEW_MASK else mask
        marks = checks.boolean("marks", marks)
        align = checks.choice("align", align, ALIGNS)
        self._own = None
        _check_view_shows(self.view_name, self.view, queries, mask, align)
        _check_aligned(mask, align)
        if Q is None and K is None and V is None:
            if not isinstance(mask, (str, Mask)) and mask is not None:
                raise ValueError("mask: a mask array has a fixed size, so it cannot follow the T slider. Pass your "
                                 "own Q=…, K=…, V=… with it, or choose a mask by name.")
            T, h, dh, seed, source, kv_heads, queries = _check_sizes(T, d, h, dh, seed, source, kv_heads, queries)
            view_mask = to_mask(mask).checked(queries or T, T)
            start = initial_state(self.view, T=T, h=h, dh=dh, kv_heads=kv_heads, mask=view_mask.name,
                                  params=dict(view_mask.params), seed=seed, source=source, queries=queries,
                                  align=view_mask.align if view_mask.align != "bottom-right" else align, marks=marks)
        else:
            own, tr = _check_own(Q, K, V, h, kv_heads, mask, align, T=T, d=d, dh=dh, seed=seed, source=source,
                                 queries=queries)
            if tr.mask_name == "custom":
                own["mask"] = tr.mask.allowed(tr.T_q, tr.T_k)
            self._own = own
            start = initial_state(self.view, T=min(tr.T_k, LIMITS["T"][1]), h=tr.h, dh=min(tr.dh, LIMITS["dh"][1]),
                                  mask=tr.mask_name, params=tr.mask_params, source="yours", marks=marks,
                                  align=tr.mask.align)
            start["edit_token"] = tr.T_q - 1
        self._base = start
        self._offered = offered_masks(self.view, start["mask"]) or (start["mask"],)
        if start["mask"] == "custom":  # your own mask array stays a choice of the mask control
            self.view = replace(self.view, masks=self._offered)
        self.trace = trace_of(resolve(start, self.view, self._own), self._own)
        self.step = 0  # states taken (from Python or from the page)
        config = {"kind": "explorer", "lang": self.lang, "view": view_data(self.view), "viewName": self.view_name,
                  "reset": reset_of(self.view, start), "data": explorer_data(self._offered, self._own)}
        super().__init__(config=config, state=start)
        self.controls = {s["name"]: Control(self, s["name"]) for s in self._specs()}
        self.observe(self._on_state, names="state")
        self.observe(self._on_own, names="own")
        self.add_class("al-explorer")

    def __repr__(self):  # what a stored notebook shows before a kernel runs: one short line in the reader's language
        return words.table(self.lang)["plain"]

    # ---- what is on screen ----------------------------------------------------------------------------------------

    @property
    def resolved(self):  # -> state.Resolved: the sizes, mask, head and picks on screen
        return resolve(self.state, self.view, self._own)

    def page_config(self):  # -> the config of this explorer as it is now (live/page.py lists its fields)
        config = {**self.config, "state": dict(self.state)}
        if self._own is not None:
            own = {n: self._own[n].tolist() for n in "QKV"}
            config["data"] = {**config["data"], "own": {**config["data"]["own"], **own}}
        return config

    def save_html(self, path):
        """This explorer as it is on screen (your own Q, K, V included) as one page that needs no Python."""
        path = checks.text("path", path)
        with open(path, "w", encoding="utf-8") as out:
            out.write(page.standalone_html(self.page_config()))
        return path

    def _specs(self):
        return control_specs(self.view, self.state, self.resolved, self.lang, self._own)

    def _control_spec(self, name):
        return next(s for s in self._specs() if s["name"] == name)

    T = property(lambda self: self.resolved.T)
    h = property(lambda self: self.resolved.h)
    dh = property(lambda self: self.resolved.dh)
    d = property(lambda self: self.resolved.d)
    source = property(lambda self: self.resolved.source)
    mask = property(lambda self: self.resolved.mask.name)
    head = property(lambda self: self.resolved.head)

    # ---- moves from Python ------------------------------------------------------------------------------------------

    def _set(self, name, value):
        """Set control `name` as the page would, checked as the page's control allows (ValueError if not)."""
        spec = self._control_spec(name)
        if spec["type"] == "button":
            if name == "reset":
                return self._take(reset_state(self.state, self.config["reset"]))
            return self._edit(self._edit_text())
        if name == "edit_row":
            return self._edit(checks.text("edit_row", value))
        if spec["type"] == "range":
            value = checks.whole_number(name, value, spec["min"], spec["max"])
        elif spec["type"] == "check":
            value = checks.boolean(name, value)
        elif name == "seed" and isinstance(value, str):  # typed, as the seed box gives it: the box's rule (seed_of)
            typed, value = value, seed_of(value)
            if value is None:
                raise ValueError(f"seed: type a whole number from {SEED_CONTROL[0]} to {SEED_CONTROL[1]} (digits 0-9, "
                                 f"or full width: ３), got {typed!r:.40}.")
        elif name == "seed":
            value = checks.seed(value, hi=SEED_CONTROL[1])
        else:
            choices = [v for v, _ in spec["options"]]
            value = list(value) if isinstance(value, tuple) else value
            if value not in choices or isinstance(value, bool) != isinstance(choices[0], bool):
                raise ValueError(f"{name}: use one of {[tuple(v) if isinstance(v, list) else v for v in choices]}; "
                                 f"got {value!r:.60}.")
        self._take(moved(self.state, name, value, self.resolved))

    def _take(self, state):  # a checked state: its trace first (so a failure changes nothing), then the page
        state = checked_state(state, self.view, self._base)
        self.trace = trace_of(resolve(state, self.view, self._own), self._own)
        with self._from_python():
            self.state = state
        self.step += 1

    @contextlib.contextmanager
    def _from_python(self):  # what is set inside is not taken again as a move from the page (_on_state, _on_own)
        self._taking = True
        try:
            yield
        finally:
            self._taking = False

    def pick(self, name, i, j):
        """What a click on cell (i, j) of stage `name` does in the page: the breakdowns follow that cell."""
        self._take(pick_of(name, i, j, self.state, self.view))

    # ---- your own numbers: one row as text ----------------------------------------------------------------------

    def _edit_text(self):
        if self._own is None:
            return ""
        spec = self._control_spec("edit_token")
        return format_row(self._own[self.state["edit_matrix"]][spec["value"]]).replace(MINUS, "-")

    def _edit(self, typed):
        """Parse the edited row; a malformed one, or one that would overflow, gets one line and changes nothing; the
        box's own numbers typed back (rounded as shown: the same pieces, row_pieces) change nothing either."""
        if self._own is None:
            raise ValueError("edit_row: only an explorer of your own Q, K, V has rows to edit.")
        L, matrix = words.table(self.lang), self.state["edit_matrix"]
        token = self._control_spec("edit_token")["value"]
        first = self.resolved.first_query if matrix == "Q" else 1
        what = L["row_of"].format(matrix=matrix, n=first + token, nth=words.ordinal(first + token, self.lang))
        if row_pieces(typed) == row_pieces(self._edit_text()):  # the box's own rounded numbers: the row stays exact
            return
        n = self._own[matrix].shape[1]
        row, problem = parse_row(typed, n)
        if problem is None and too_large(row) is not None:
            problem = ("edit_large", format_value(too_large(row)))
        if problem is not None:
            key, bad = problem
            self.message = {"kind": "bad", "text": L[key].format(what=what, n=n, m=bad, bad=bad,
                                                                 largest=format_value(LARGEST))}
            return
        edited = {**self._own, matrix: self._own[matrix].copy()}
        edited[matrix][token] = row
        self._own, self.trace = edited, trace_of(self.resolved, edited)
        with self._from_python():
            self.own = {n: self._own[n].tolist() for n in "QKV"}
        self.message = {"kind": "ok", "text": L["edit_done"].format(what=what, row=format_row(row))}
        self.step += 1

    # ---- moves from the page ----------------------------------------------------------------------------------------

    def _on_state(self, change):
        if getattr(self, "_taking", False):
            return
        try:
            state = checked_state(change["new"], self.view, self._base)
            self.trace = trace_of(resolve(state, self.view, self._own), self._own)
        except (ValueError, TypeError, KeyError) as error:
            log.warning("explorer: ignored a state from the page (%s)", error)
            with self._from_python():
                self.state = change["old"]  # the page goes back to the last good state
            return
        self.step += 1

    def _on_own(self, change):
        if getattr(self, "_taking", False) or self._own is None:
            return
        try:
            edited = {n: _in_range(n, checks.finite_matrix(n, change["new"][n])) for n in "QKV"}
            if any(edited[n].shape != self._own[n].shape for n in "QKV"):
                raise ValueError("own: an edit keeps the shapes of Q, K and V")
            edited = {**self._own, **edited}
            self.trace = trace_of(self.resolved, edited)
        except (ValueError, TypeError, KeyError) as error:
            log.warning("explorer: ignored an edit from the page (%s)", error)
            return
        self._own = edited
        self.step += 1


def _check_sizes(T, d, h, dh, seed, source, kv_heads, queries):  # -> T, h, dh, seed, source, kv_heads, queries
    T = checks.whole_number("T", 3 if T is None else T, *LIMITS["T"])
    h = checks.whole_number("h", 2 if h is None else h, *LIMITS["h"])
    lo, hi = LIMITS["dh"]
    if dh is not None:
        dh = checks.whole_number("dh", dh, lo, hi)
        if d is not None and d != h * dh:
            raise ValueError(f"d, dh: d is h·dh = {h}·{dh} = {h * dh}, got d={d!r}; give one of d and dh.")
    d = checks.whole_number("d", h * (ARTICLE["dh"] if dh is None else dh) if d is None else d, 1)
    if d % h or not lo <= d // h <= hi:
        raise ValueError(f"d: must be a multiple of h={h} with d / h from {lo} to {hi} in the explorer, got d={d}; "
                         f"e.g. d={h * ARTICLE['dh']}.")
    if kv_heads is not None:
        kv_heads = checks.kv_heads(kv_heads, h)
        kv_heads = None if kv_heads == h else kv_heads
    if queries is not None:
        queries = checks.whole_number("queries", queries, 1, T, " The Query rows are those of the last tokens.")
        queries = None if queries == T else queries
    given_seed = seed is not None
    seed = 0 if seed is None else checks.seed(seed, hi=SEED_CONTROL[1])
    source = ("random" if given_seed else "article") if source is None else source
    checks.choice("source", source, ("article", "random"))
    return T, h, d // h, seed, source, kv_heads, queries


def _check_view_shows(name, view, queries, mask, align):
    """A view without the Query-token controls shows every token's Query row, bottom-right: it refuses to drop
    `queries` or a top-left alignment silently. A view without a mask control never names its mask: it refuses
    any mask but its own, which would be dropped (S comes before a mask) or change O and H without a word."""
    named = f"the view {name!r}" if name != "custom" else "a view given as a list of names"
    if view.masks == () and not _is_mask(mask, view.mask):
        offering = ", ".join(repr(v) for v, other in VIEWS.items() if other.masks != ())
        raise ValueError(f"mask: {named} has no mask control and shows its own mask ({view.mask or 'none'}) only; "
                         f"leave mask out, or use a view that offers masks ({offering}).")
    if view.queries:
        return
    showing = ", ".join(repr(v) for v, other in VIEWS.items() if other.queries)
    if queries is not None:
        raise ValueError(f"queries: {named} shows every token's Query row; leave queries out, or use a view with "
                         f"fewer Query tokens ({showing}).")
    if align != "bottom-right" or isinstance(mask, Mask) and mask.align != "bottom-right":
        raise ValueError(f"align: {named} shows the bottom-right alignment only; leave the alignment out, or use a "
                         f"view that offers it ({showing}).")


def _check_aligned(mask, align):
    """A top-left alignment given with a mask that never reads where the Query rows sit ("none") would change
    nothing: refused, as a view refuses an argument it cannot show. (A mask array is refused with align below.)"""
    if isinstance(mask, (str, Mask)) or mask is None:
        given = to_mask(mask)
        if (align != "bottom-right" or given.align != "bottom-right") and not aligned(given):
            raise ValueError(f"align: the mask {given.name!r} lets a Query row see the same Key tokens wherever the "
                             "rows sit, so an alignment changes nothing; leave align out.")


def _is_mask(mask, name):  # -> bool: `mask` (a name, None, a Mask or an array) is the mask `name` as it stands
    if not isinstance(mask, (str, Mask)) and mask is not None:
        return False
    given, own = to_mask(mask), to_mask(name)
    return (given.name, given.params, given.align) == (own.name, own.params, own.align)


def _in_range(name, array):  # -> array, or a ValueError naming the first number beyond what the explorer takes
    large = too_large(array)
    if large is not None:
        raise ValueError(f"{name}: the explorer takes numbers up to ±{LARGEST:g} (larger ones could overflow to ±∞ "
                         f"in the scores or the weighted sum), got {large:g}; use attention_trace for them.")
    return array


def _check_own(Q, K, V, h, kv_heads, mask, align, **fixed):  # -> ({"Q", "K", "V"} float arrays, trace)
    if Q is None or K is None or V is None:
        missing = [n for n, x in (("Q", Q), ("K", K), ("V", V)) if x is None]
        raise ValueError(f"{', '.join(missing)}: pass all three of Q, K and V to explore your own numbers.")
    if h is None:
        raise ValueError("h: with your own Q, K, V, say how many heads split d, e.g. h=2 (h=1: one head).")
    checks.whole_number("h", h, *LIMITS["h"])
    for name, value in fixed.items():
        if value is not None:
            why = "the Query tokens are the rows of Q" if name == "queries" else "the sizes come from them"
            raise ValueError(f"{name}: with your own Q, K, V {why}; leave it out.")
    own = {n: checks.finite_matrix(n, x) for n, x in (("Q", Q), ("K", K), ("V", V))}
    rows, d_own = max(own["Q"].shape[0], own["K"].shape[0]), own["Q"].shape[1]
    if rows > OWN_LIMITS["T"] or d_own > OWN_LIMITS["d"]:
        raise ValueError(f"Q: the explorer shows up to T = {OWN_LIMITS['T']} tokens and d = {OWN_LIMITS['d']} "
                         f"components, got Q of shape {own['Q'].shape}; use attention_trace for larger inputs.")
    if align != "bottom-right":
        if not isinstance(mask, (str, Mask)) and mask is not None:
            raise ValueError("align: a mask array says itself which Key tokens each Query row sees; leave align out.")
        mask = to_mask(mask)
        mask = Mask(mask.name, align=align, **dict(mask.params))
    tr = attention_trace(own["Q"], own["K"], own["V"], h, mask=mask, kv_heads=kv_heads)
    if tr.T_q > tr.T_k:
        raise ValueError(f"Q: the explorer shows the Query rows of the last T_q ≤ T_k tokens, got {tr.T_q} Query rows "
                         f"for {tr.T_k} Key tokens; give K and V at least as many rows as Q, or use attention_trace.")
    for n in "QKV":
        _in_range(n, own[n])
    return own, tr


@named_arguments
def explorer(T=None, d=None, h=None, mask=_VIEW_MASK, seed=None, lang="en", view="all", source=None, *,
             kv_heads=None, Q=None, K=None, V=None, marks=True, dh=None, queries=None, align="bottom-right"):
    """The live explorer widget: every stage of Core Attention for the example its controls choose.

    T (1–16) tokens, d = h·dh with h (1–8) heads of dh (1–8) components: give d or dh (default T=3, h=2, dh=4,
    the article's);
    kv_heads: K/V heads shared by the Query heads (a divisor of h; None: one per Query head).
    queries: Query tokens T_q ≤ T, the last T_q tokens' Query rows (views "masks", "all", "queries");
    align: where those rows sit for the mask, "bottom-right" (decoding with a cache) or "top-left" (SDPA).
    source: "article" (the article's example, grown to any size from its corner: the default) or "random"
    (small integers from `seed`, the default once a seed is given). Moving a size never switches the source.
    mask: a name from masks.MASK_NAMES, None, or a Mask with its parameters (al.Mask("sliding", window=2));
    the default is the view's own.
    view: a name of VIEWS ("heads", "scores", "scaling", "mask", "softmax", "weighted_sum", "article", "masks",
    "all", "queries": one per notebook, each showing only what that notebook has taught; "all" offers every
    control), or a list of stage names, breakdowns ("dot", "softmax", "weighted_sum") and sections ("split",
    "outputs", "concat").
    Q, K, V (with h, and kv_heads if K and V have fewer heads): your own numbers, up to 16 tokens and d = 64, each
    within ±1e150 (beyond, a stage could overflow), Q with no more rows than K (its rows are the last T_q tokens'),
    with the same checks as attention_trace; a (T_q, T_k) boolean mask may come with them. One row can be edited
    as text. A view without the Query-token controls refuses `queries` and a top-left alignment, and one without a
    mask control (heads, scores, scaling) any mask but its own, rather than drop them or use them unnamed.
    marks: outline the cells that changed at each step (a switch in the page too). lang: "en" or "ko".
    """
    return Explorer(T=T, d=d, h=h, mask=mask, seed=seed, lang=lang, view=view, source=source, kv_heads=kv_heads,
                    Q=Q, K=K, V=V, marks=marks, dh=dh, queries=queries, align=align)

