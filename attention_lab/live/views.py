"""What an explorer shows: views as lists of names, derived from the pipeline, and the controls each one offers.

A view lists stages of `pipeline.STAGES` (titles, colours, axes and highlights come from there), the breakdowns
"dot", "softmax", "weighted_sum", and the whole-trace sections "split", "outputs", "concat", "scaling_note".
The views of the notebooks are spans of the pipeline (`pipeline.span`, `HEAD_STAGES`), so a new main-path stage
reaches "all", "article" and "softmax" with no edit here.

    VIEWS["softmax"].items        # ("S_masked", "E", "P", "softmax")
    View.of(["S", "dot"])         # any list of names
"""

from dataclasses import dataclass

from ..numeric import masks
from ..numeric.limits import SIZES, D
from ..numeric.pipeline import HEAD_STAGES, SPLITS, STAGES, span

LIMITS = SIZES  # the size sliders; the browser gets the values at the largest
OWN_LIMITS = {"T": SIZES["T"][1], "d": D[1], "value": 1e150}  # your own Q, K, V; numbers up to ±1e150 cannot
# overflow in any stage, however either side orders its sums: |S| ≤ d·1e300, and a weighted sum stays within its
# largest Value
BREAKDOWNS = ("dot", "softmax", "weighted_sum")  # below a head's heatmaps, driven by the pickers
SECTIONS = ("split", "outputs", "concat", "scaling_note")  # whole-trace parts of a view
PICKS = {"dot": ("query", "key"), "softmax": ("row",), "weighted_sum": ("row",)}  # the pickers each breakdown follows
PICKERS = {"query": "query", "key": "key", "row": "query"}  # the axis each picker picks a token of: a Query row
# (of T_q) or a Key token (of T); its control and its clamp come from here (state.RESOLVE, controls.CONTROLS)
ARTICLE_MASKS = ("causal", "none")  # the article teaches the causal mask; the others come in notebook 08
_MASKED_FROM = list(STAGES).index("M")  # the stages from M on (in the pipeline's order) depend on the mask

# Every stage of a head, S … O in the pipeline's order, with the split stages O reads (Vh) just before O.
_O_AT = HEAD_STAGES.index("O")
HEAD_ITEMS = (*HEAD_STAGES[:_O_AT], *(n for n in STAGES["O"].inputs if n in SPLITS), *HEAD_STAGES[_O_AT:])


def whole_trace(name):
    """A stage shown once for the whole trace (Q, K, V, H), not in each head's section (M is, beside S)."""
    stage = STAGES[name]
    return stage.heads == "" and "query" not in stage.axes


@dataclass(frozen=True)
class View:
    """What one explorer shows (names of stages, breakdowns and sections, in order) and which controls it offers."""

    items: tuple
    mask: str = "causal"  # the mask it starts with
    masks: tuple = None  # the masks its mask control offers: None, every mask of the registry; (), no mask control
    kv_control: bool = False  # offer the K/V heads control (grouped-query attention)
    queries: bool = False  # offer the number of Query tokens and their alignment (T_q < T_k)

    @classmethod
    def of(cls, items):
        """The view of a list of names; it offers every mask when a stage from M on (or a breakdown that reads P)
        is in it, and the K/V heads control when a per-K/V-head stage (Kh, Vh) is."""
        if isinstance(items, (str, bytes)) or not hasattr(items, "__iter__"):
            raise ValueError(f"view: use one of {', '.join(map(repr, VIEWS))} or a list of names, got {items!r:.60}.")
        items = tuple(items)
        known = (*STAGES, *BREAKDOWNS, *SECTIONS)
        unknown = [x for x in items if not isinstance(x, str) or x not in known]
        if unknown or not items:
            raise ValueError(f"view: {('unknown names ' + repr(unknown)) if unknown else 'an empty list'}; a view "
                             f"lists stages {list(STAGES)}, breakdowns {list(BREAKDOWNS)} or sections "
                             f"{list(SECTIONS)}.")
        order = [list(STAGES).index(x) for x in items if x in STAGES]
        uses_mask = any(i >= _MASKED_FROM for i in order) or bool({"softmax", "weighted_sum"} & set(items))
        return cls(items, masks=None if uses_mask else (),
                   kv_control=any(STAGES[x].heads == "kv" for x in items if x in STAGES))

    def offered_masks(self):  # -> the names of the masks the mask control offers
        return masks.MASK_NAMES if self.masks is None else self.masks

    @property
    def head_stages(self):  # -> the stages drawn in each head's section, in the view's order
        return tuple(x for x in self.items if x in STAGES and not whole_trace(x))

    @property
    def trace_stages(self):  # -> the stages drawn once for the whole trace (Q, K, V, H), in the view's order
        return tuple(x for x in self.items if x in STAGES and whole_trace(x))

    @property
    def compared(self):  # -> the stages "all heads" can put side by side (one per head: not M)
        return tuple(x for x in self.head_stages if STAGES[x].heads)

    @property
    def has_heads(self):  # the view draws something per head: it offers the head control
        return bool(self.head_stages) or bool(set(self.items) & set(BREAKDOWNS))

    @property
    def picks(self):  # -> the token pickers the breakdowns need
        return tuple(dict.fromkeys(p for b in BREAKDOWNS if b in self.items for p in PICKS[b]))


# One per notebook, each showing only what has been taught so far: 01 heads; 02 S; 03 the scale; 04 M; 05 E and P;
# 06 O; 00 and 07 the article's whole flow; 08 every mask; 10 every control ("all", the default); 12 queries.
VIEWS = {
    "heads": View(("split", "outputs", "concat"), masks=()),
    "scores": View((*span("S", "S"), "dot"), masks=()),
    "scaling": View(("S", "S_scaled", "P", "P_unscaled", "scaling_note"), mask="none", masks=()),
    "mask": View((*span("S_scaled", "S_masked"), "dot"), masks=ARTICLE_MASKS),
    "softmax": View((*span("S_masked", "P"), "softmax"), masks=ARTICLE_MASKS),
    "weighted_sum": View(("P", *(n for n in STAGES["O"].inputs if n in SPLITS), "O", "weighted_sum"),
                         masks=ARTICLE_MASKS),
    "article": View(("split", *HEAD_ITEMS, *BREAKDOWNS, "concat"), masks=ARTICLE_MASKS),
    "masks": View(("M", "S_masked", "P", "softmax"), queries=True),
    "all": View(("split", *HEAD_ITEMS, *BREAKDOWNS, "concat"), kv_control=True, queries=True),
    "queries": View(("split", *span("S", "P"), "O", "softmax"), queries=True),
}


def view_of(view):  # -> (name, View)
    """A view by name (one of VIEWS) or a list of names."""
    if isinstance(view, str) and view in VIEWS:
        return view, VIEWS[view]
    if isinstance(view, View):
        return "custom", view
    return "custom", View.of(view)


def view_data(view):  # -> dict of JSON types: what the browser needs to know of a view
    """A view as plain data, for the browser (and the stored notebook): its items, mask and controls, and what it
    draws and offers, computed here once (the page reads these and derives none of them): "heads" (has_heads),
    "headStages", "traceStages", "compared" and "picks". The controls' rules read them under the same names."""
    return {"items": list(view.items), "mask": view.mask, "masks": list(view.offered_masks()),
            "kv": view.kv_control, "queries": view.queries, "heads": view.has_heads,
            "headStages": list(view.head_stages), "traceStages": list(view.trace_stages),
            "compared": list(view.compared), "picks": list(view.picks)}
