"""The live explorer: every stage of Core Attention for a trace that its controls choose.

    import attention_lab as al
    al.explorer(lang="ko", view="softmax")     # a focused view for notebook 05
    al.explorer()                              # every stage: the explorer of notebook 07
    al.explorer(Q=Q, K=K, V=V, h=2)            # your own numbers; one token's row editable as text

A view is a list of names: stages of `stages.STAGES` (titles, colours, axes and
highlights come from there), the breakdowns "dot", "softmax", "weighted_sum",
and whole-trace sections "split", "outputs", "concat". The mask control lists
`masks.MASK_NAMES`, with a slider for each `Param` of the chosen mask. A new
stage or mask is shown without an edit here.

The controls are ipywidgets. The picture is `StageView`, an anywidget whose
small front-end (explorer.js) builds each heatmap once and afterwards patches
only the cells whose text or colour changed, marking the changed ones. Python
sends numbers (labels and colours from `style`, via `html.heatmap_data`),
never tables of HTML, and the front-end draws only the latest picture.
One user action is one redraw: linked controls are adjusted under `_hold()`
and the picture is sent once, before the controls' own updates.
"""

import json
import re
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from html import escape
from pathlib import Path

import anywidget
import ipywidgets as W
import numpy as np
import traitlets

from .. import look as style
from ..look import tables as hm
from ..look import words as text
from ..look.cells import cells as styled_cells
from ..look.formats import equals
from ..numeric import checks, masks
from ..numeric.calls import named_arguments
from ..numeric.examples import ARTICLE_SIZES, article_example, is_article_size, random_example
from ..numeric.masks import MASKS, Mask, to_mask
from ..numeric.pipeline import HEAD_STAGES, STAGES, span
from ..numeric.trace import attention_trace

LIMITS = {"T": (1, 16), "h": (1, 8), "dh": (1, 8)}  # the size sliders
OWN_LIMITS = {"T": 16, "d": 64}  # your own Q, K, V
MAX_SEED = 10**6
ARTICLE = {"T": ARTICLE_SIZES["T"], "h": ARTICLE_SIZES["h"], "dh": ARTICLE_SIZES["d"] // ARTICLE_SIZES["h"]}  # 3, 2, 4
ARTICLE_PICKS = {"query": 2, "key": 0, "row": 2}  # Query token 3 · Key token 1; row 3 (0-based here)
BREAKDOWNS = ("dot", "softmax", "weighted_sum")  # below a head's heatmaps, driven by the pickers
SECTIONS = ("split", "outputs", "concat", "scaling_note")  # whole-trace parts of a view
_MASKED_FROM = list(STAGES).index("M")  # the stages from M on (in the article's order) depend on the mask


@dataclass(frozen=True)
class View:
    """What one explorer shows (names of stages, breakdowns and sections, in order) and which controls it offers."""

    items: tuple
    mask: str = "causal"  # the mask it starts with
    masks: tuple = None  # the masks its mask control offers: None, every mask of the registry; (), no mask control
    kv_control: bool = False  # offer the K/V heads control (grouped-query attention)

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
        return cls(items, masks=None if uses_mask else (), kv_control=any(STAGES[x].heads == "kv" for x in items
                                                                          if x in STAGES))

    def offered_masks(self):  # -> the names of the masks the mask control offers
        return masks.MASK_NAMES if self.masks is None else self.masks


# Every stage of a head, S … O in the pipeline's order, with the Value rows the head's O reads just before O.
HEAD_ITEMS = (*HEAD_STAGES[:HEAD_STAGES.index("O")], "Vh", *HEAD_STAGES[HEAD_STAGES.index("O"):])
ARTICLE_MASKS = ("causal", "none")  # the article teaches the causal mask; the others come in notebook 08
# One per notebook, each showing only what has been taught so far: 02 S; 03 the scale; 04 M; 05 P; 06 O;
# 00 and 07 the article's whole flow; 08 every mask; "all" (the default, and notebook 10) every control.
VIEWS = {
    "heads": View(("split", "outputs", "concat"), masks=()),
    "scores": View((*span("S", "S"), "dot"), masks=()),
    "scaling": View(("S", "S_scaled", "P", "P_unscaled", "scaling_note"), mask="none", masks=()),
    "mask": View((*span("S_scaled", "S_masked"), "dot"), masks=ARTICLE_MASKS),
    "softmax": View((*span("S_masked", "P"), "softmax"), masks=ARTICLE_MASKS),
    "weighted_sum": View(("P", "Vh", "O", "weighted_sum"), masks=ARTICLE_MASKS),
    "article": View(("split", *HEAD_ITEMS, *BREAKDOWNS, "concat"), masks=ARTICLE_MASKS),
    "masks": View(("M", "S_masked", "P", "softmax")),
    "all": View(("split", *HEAD_ITEMS, *BREAKDOWNS, "concat"), kv_control=True),
}


# The package's words and the explorer's own; stage and mask words come from their registries, at use.
LABELS = {lang: text.table(lang) for lang in checks.LANGS}


class StageView(anywidget.AnyWidget):
    """The explorer's picture: `picture` holds the numbers of every panel; explorer.js draws and patches them.

    The browser receives the picture as one JSON string (`state`): a string is compared and sent as it is,
    where a nested dict would be walked and deep-compared on both sides at every step.
    """

    _esm = Path(__file__).with_name("explorer.js").read_text(encoding="utf-8")
    _css = hm.CSS + Path(__file__).with_name("explorer.css").read_text(encoding="utf-8")
    state = traitlets.Unicode("{}").tag(sync=True)

    def __init__(self, **kwargs):
        self.picture = {}
        super().__init__(**kwargs)

    def show(self, picture):
        """Send a new picture (a dict of plain data, see Explorer.picture)."""
        self.picture = picture
        self.state = json.dumps(picture, ensure_ascii=False, separators=(",", ":"))

    def __repr__(self):
        return f"StageView(step={self.picture.get('step')})"


class _Reads:
    """A trace whose fields are read once per picture (each read of a trace's field copies it), and the cells
    of each distinct matrix styled once per picture (M is the same in every head's section)."""

    def __init__(self, tr):
        self._tr = tr
        self._cells = {}

    def cells(self, matrix, kind, vmin, vmax):  # -> html.cells(…), once per distinct matrix
        key = (kind, vmin, vmax, matrix.shape, matrix.tobytes())
        if key not in self._cells:
            self._cells[key] = styled_cells(matrix, kind, vmin, vmax)
        return self._cells[key]

    def __getattr__(self, name):
        value = getattr(self._tr, name)
        if isinstance(value, np.ndarray):
            self.__dict__[name] = value
        return value


_VIEW_MASK = type("ViewDefault", (), {"__repr__": lambda self: "<the view's mask>"})()


class Explorer(W.VBox):
    """Every stage of Core Attention for the trace its controls choose. See `explorer` for the arguments."""

    def __init__(self, T=None, d=None, h=None, mask=_VIEW_MASK, seed=None, lang="en", view="all", source=None,
                 kv_heads=None, Q=None, K=None, V=None, marks=True, dh=None):
        self.lang = checks.lang(lang)
        self.spec = VIEWS[view] if isinstance(view, str) and view in VIEWS else View.of(view)
        self.view_name = view if isinstance(view, str) else "custom"
        self.L = LABELS[self.lang]
        mask = self.spec.mask if mask is _VIEW_MASK else mask
        self._custom = None
        if not isinstance(mask, (str, Mask)) and mask is not None:  # a (T, T) boolean array: "custom"
            if Q is None and K is None and V is None:
                raise ValueError("mask: a mask array has a fixed size, so it cannot follow the T slider. Pass your own "
                                 "Q=…, K=…, V=… with it, or choose a mask by name: "
                                 f"{', '.join(map(repr, masks.MASK_NAMES))}.")
            self._custom = to_mask(mask)
        marks = checks.boolean("marks", marks)
        self.own = None
        if Q is None and K is None and V is None:
            T, h, dh, seed, source, kv_heads = self._check_sizes(T, d, h, dh, seed, source, kv_heads)
            spec = to_mask(mask).checked(T, T)
            mask, params = spec.name, dict(spec.params)
        else:  # your own numbers: the same ValueErrors as attention_trace, before anything is drawn
            self.own = self._check_own(Q, K, V, h, T, d, dh, seed, source)
            tr = attention_trace(self.own["Q"], self.own["K"], self.own["V"], h, mask=self._custom or mask,
                                 kv_heads=kv_heads)
            T, h, dh, seed, source, kv_heads = tr.T, tr.h, tr.dh, 0, "yours", tr.kv_heads
            mask, params = tr.mask_name, tr.mask_params

        self.redraw_count = 0
        self._holding = 0
        self.trace = None
        self._build_controls(T, h, dh, mask, params, seed, source, kv_heads, marks)
        for control in self.controls.values():
            if not isinstance(control, W.Button):
                control.observe(self._on_change, names="value")
        if "reset" in self.controls:
            self.controls["reset"].on_click(self._on_reset)
        if "apply" in self.controls:
            self.controls["apply"].on_click(lambda _button: self._apply_edit())
        self.view = StageView()
        self.view.on_msg(self._on_pick)
        super().__init__(children=self._layout())
        self.add_class("al-explorer")
        self._redraw()

    def __repr__(self):
        tr = self.trace
        return (f"Explorer(T={tr.T}, d={tr.d}, h={tr.h}, kv_heads={tr.kv_heads}, mask={tr.mask_name!r}, "
                f"source={self.source!r}, view={self.view_name!r})")

    # ---- arguments ----------------------------------------------------------------------------------------------

    @staticmethod
    def _check_own(Q, K, V, h, T, d, dh, seed, source):  # -> {"Q", "K", "V"} float arrays
        if Q is None or K is None or V is None:
            missing = [n for n, x in (("Q", Q), ("K", K), ("V", V)) if x is None]
            raise ValueError(f"{', '.join(missing)}: pass all three of Q, K and V to explore your own numbers.")
        if h is None:
            raise ValueError("h: with your own Q, K, V, say how many heads split d, e.g. h=2 (h=1: one head).")
        checks.whole_number("h", h, *LIMITS["h"])
        for name, value in (("T", T), ("d", d), ("dh", dh), ("seed", seed), ("source", source)):
            if value is not None:
                raise ValueError(f"{name}: with your own Q, K, V the sizes come from them; leave {name} out.")
        own = {n: checks.finite_matrix(n, x) for n, x in (("Q", Q), ("K", K), ("V", V))}
        T_own, d_own = own["Q"].shape
        if T_own > OWN_LIMITS["T"] or d_own > OWN_LIMITS["d"]:
            raise ValueError(f"Q: the explorer shows up to T = {OWN_LIMITS['T']} tokens and d = {OWN_LIMITS['d']} "
                             f"components, got Q of shape {own['Q'].shape}; use attention_trace for larger inputs.")
        return own

    @staticmethod
    def _check_sizes(T, d, h, dh, seed, source, kv_heads):  # -> T, h, dh, seed, source, kv_heads
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
        given_seed = seed is not None
        seed = 0 if seed is None else checks.seed(seed, hi=MAX_SEED)
        source = ("random" if given_seed else "article") if source is None else source
        checks.choice("source", source, ("article", "random"))
        return T, h, d // h, seed, source, kv_heads

    # ---- controls and layout -------------------------------------------------------------------------------------

    def _build_controls(self, T, h, dh, mask, params, seed, source, kv_heads, marks):
        L, spec, initial = self.L, self.spec, {"description_width": "initial"}
        buttons = {**initial, "button_width": "auto"}

        def inline():  # toggle buttons beside their description (ipywidgets puts them on a line of their own)
            return W.Layout(display="flex", flex_flow="row wrap", align_items="baseline", width="auto")

        c = self.controls = {}
        self._fixed = {"T": T, "h": h, "dh": dh, "source": source, "mask": mask}  # what no control is offered for
        self._kv_fixed = kv_heads
        if self.own is None:
            c["source"] = W.ToggleButtons(options=[(L["article"], "article"), (L["random"], "random")], value=source,
                                          description=L["source"], style=buttons, layout=inline())
            c["seed"] = W.BoundedIntText(value=seed, min=0, max=MAX_SEED, description=L["seed"], style=initial,
                                         layout=W.Layout(width="140px"))
            c["reset"] = W.Button(description=L["reset"], layout=W.Layout(width="auto"))
            for name, value in (("T", T), ("h", h), ("dh", dh)):
                c[name] = W.IntSlider(value=value, min=LIMITS[name][0], max=LIMITS[name][1], description=L[name],
                                      style=initial, layout=W.Layout(width="250px"))
            self.d_label = W.HTML(layout=W.Layout(width="auto", margin="0 18px 0 4px"))
            if spec.kv_control:
                c["kv_heads"] = W.Dropdown(options=checks.divisors(h), value=h if kv_heads is None else kv_heads,
                                           description=L["kv_heads"], style=initial, layout=W.Layout(width="150px"))
        offered = spec.offered_masks()
        if offered:
            offered = tuple(dict.fromkeys((*offered, mask)))  # the mask asked for is offered, whatever the view
            c["mask"] = W.ToggleButtons(options=[(L[f"mask.{n}"], n) for n in offered], value=mask,
                                        description=L["mask"], style=buttons, layout=inline())
        for name in offered:  # one slider per parameter of each mask offered; shown while its mask is chosen
            for p in MASKS[name].params:
                value = params[p.name] if name == mask else p.default_for(T)
                label = L[f"param.{name}.{p.name}"]
                if isinstance(p, masks.Param):
                    lo, hi = p.bounds(T)
                    c[f"{name}.{p.name}"] = W.IntSlider(value=value, min=lo, max=hi, description=label,
                                                        style=initial, layout=W.Layout(width="230px"))
                else:  # a list of lengths: one of the splits the parameter offers for T
                    c[f"{name}.{p.name}"] = W.Dropdown(options=[(p.text(v), v) for v in p.values(T)], value=value,
                                                       description=label, style=initial,
                                                       layout=W.Layout(width="230px"))
        items = set(spec.items)
        if items & set(HEAD_ITEMS + BREAKDOWNS) or any(STAGES[x].heads for x in items if x in STAGES):
            c["head"] = W.Dropdown(description=L["head"], style=initial, layout=W.Layout(width="170px"))
        tokens = [(str(i + 1), i) for i in range(T)]
        picks = (["query", "key"] if "dot" in items else []) + (["row"] if items & {"softmax", "weighted_sum"} else [])
        for name in picks:
            c[name] = W.Dropdown(options=tokens, description=L[name], style=initial,
                                 layout=W.Layout(width="230px" if name == "row" else "170px"))
        c["marks"] = W.Checkbox(value=marks, description=L["marks"], indent=False, layout=W.Layout(width="auto"))
        if self.own is not None:
            c["edit_matrix"] = W.ToggleButtons(options=["Q", "K", "V"], value="Q", description=L["edit"],
                                               style=buttons, layout=inline())
            c["edit_token"] = W.Dropdown(options=tokens, value=T - 1, description=L["edit_token"], style=initial,
                                         layout=W.Layout(width="130px"))
            c["edit_row"] = W.Text(continuous_update=False, layout=W.Layout(width="320px"))
            c["apply"] = W.Button(description=L["apply"], layout=W.Layout(width="auto"))
            self.edit_message = W.HTML()
        self._fit_choices()
        start = ARTICLE_PICKS if source == "article" and T >= 3 else {"query": T - 1, "key": 0, "row": T - 1}
        self._set_picks(start)
        if "head" in c:
            c["head"].value = 0
        self._show_params()
        if self.own is not None:
            self._fill_edit_row()

    def _layout(self):
        c = self.controls

        def row(*names):  # the named controls (those offered) on one line that wraps when the line is full
            children = [c[n] if isinstance(n, str) else n for n in names if not isinstance(n, str) or n in c]
            return W.HBox(children, layout=W.Layout(flex_flow="row wrap", align_items="center"))

        rows = []
        if self.own is None:
            rows += [row("source", "seed", "reset"), row("T", "h", "dh", self.d_label, "kv_heads")]
        params = [n for n in c if "." in n]
        if "mask" in c or params:
            rows.append(row("mask", *params))
        rows.append(row("head", "query", "key", "row", "marks"))
        if self.own is not None:
            rows += [row("edit_matrix", "edit_token", "edit_row", "apply"), self.edit_message]
        return [*rows, self.view]

    def _show_params(self):
        """Show the sliders of the chosen mask's parameters only; the K/V heads control only when h > 1."""
        mask = self.mask
        for name, control in self.controls.items():
            if "." in name:
                control.layout.display = None if name.split(".")[0] == mask else "none"
        if "kv_heads" in self.controls:
            self.controls["kv_heads"].layout.display = None if self.h > 1 else "none"

    # ---- what the controls say ------------------------------------------------------------------------------------

    def _value(self, name):
        control = self.controls.get(name)
        return self._fixed[name] if control is None else control.value

    T = property(lambda self: self._value("T"))
    h = property(lambda self: self._value("h"))
    dh = property(lambda self: self._value("dh"))
    source = property(lambda self: self._value("source"))
    mask = property(lambda self: self._value("mask"))

    @property
    def d(self):
        return self.h * self.dh

    @property
    def kv_heads(self):  # -> g, or None for one K/V head per Query head
        control = self.controls.get("kv_heads")
        g = self._kv_fixed if control is None else control.value
        return None if g is None or g == self.h else g

    @property
    def head(self):  # -> 0-based head, or -1 for all heads
        control = self.controls.get("head")
        return -1 if control is None else control.value

    def _mask_spec(self):  # -> the Mask the controls say
        mask = self.mask
        if mask == "custom":
            return self._custom
        return Mask(mask, **{p.name: self.controls[f"{mask}.{p.name}"].value for p in MASKS[mask].params})

    # ---- one action, one redraw ---------------------------------------------------------------------------------

    @contextmanager
    def _hold(self):
        """Adjust linked controls without redrawing them one by one, and send each control's changes to the
        browser as one message when the hold ends (a refitted dropdown would send three: options, index, index).

        Callers redraw inside the hold: the picture's update leaves first, the controls' few messages after it.
        Every message of a step counts: jupyter_server leaves Nagle's algorithm on for kernel WebSockets, so
        a burst of small messages can stall ~40 ms on a delayed TCP ACK (benchmarks/bench_browser_latency.py).
        """
        self._holding += 1
        try:
            with ExitStack() as held:
                for control in self.controls.values():
                    held.enter_context(control.hold_sync())
                yield
        finally:
            self._holding -= 1

    def _on_change(self, change):
        if self._holding:
            return
        owner = change["owner"]
        with self._hold():
            if owner is self.controls.get("seed") and self.source != "random":
                self.controls["source"].value = "random"  # a seed is the random example's own setting
            if owner in (self.controls.get("edit_matrix"), self.controls.get("edit_token")):
                self._fill_edit_row()
                return
            if owner is self.controls.get("edit_row"):
                self._apply_edit()
                return
            self._fit_choices()
            self._show_params()
            self._redraw()

    def _on_reset(self, _button=None):
        """Bring back the article's example: T=3, d=8, h=2, causal mask, Head 1, token 3 and key 1 picked."""
        c = self.controls
        with self._hold():
            c["source"].value = "article"
            for name in ("T", "h", "dh"):
                c[name].value = ARTICLE[name]
            if "kv_heads" in c:
                self._fit_choices()
                c["kv_heads"].value = ARTICLE["h"]
            if "mask" in c:
                c["mask"].value = "causal"
            self._fit_choices()
            if "head" in c:
                c["head"].value = 0
            self._set_picks(ARTICLE_PICKS)
            self._show_params()
            self._redraw()

    def _on_pick(self, _widget, content, _buffers):
        """A click on a cell of the picture picks it: (Query, Key) for the score breakdown, the row for the others."""
        if not isinstance(content, dict) or content.get("pick") is None:
            return
        try:
            name, i, j = content["pick"]
            i, j = checks.whole_number("row", i, 0, self.T - 1), checks.whole_number("col", j, 0, self.T - 1)
        except (ValueError, TypeError):
            return  # a stale click from an older picture: nothing to do
        c = self.controls
        with self._hold():
            if STAGES.get(name) and STAGES[name].highlight == "cell" and "query" in c:
                c["query"].value, c["key"].value = i, j
            elif "row" in c:
                c["row"].value = i
            else:
                return
            self._redraw()

    def _set_picks(self, picks):
        for name in ("query", "key", "row"):
            if name in self.controls:
                self.controls[name].value = min(picks[name], self.T - 1)

    def _fit_choices(self):
        """Head choices follow h (Head 1 … Head h, all heads); K/V heads the divisors of h; token pickers and mask
        parameters follow T; every value is kept where it still fits, else clamped."""
        c, h, T = self.controls, self.h, self.T
        if "head" in c:
            heads = [(self.L["head_n"].format(n=i + 1), i) for i in range(h)]
            self._refit(c["head"], heads + ([(self.L["all_heads"], -1)] if h > 1 else []))
        if "kv_heads" in c:
            old, options = c["kv_heads"], checks.divisors(h)
            if list(old.options) != options:
                was_all = old.value == max(old.options)  # one K/V head per Query head stays so
                keep = h if was_all else max(g for g in options if g <= old.value)
                old.options = options
                old.value = keep
        tokens = [(str(i + 1), i) for i in range(T)]
        for name in ("query", "key", "row"):
            if name in c:
                self._refit(c[name], tokens)
        mask = self.mask
        for p in MASKS[mask].params:
            if not isinstance(p, masks.Param):
                self._refit(c[f"{mask}.{p.name}"], [(p.text(v), v) for v in p.values(T)], p.default_for(T))
                continue
            slider, (lo, hi) = c[f"{mask}.{p.name}"], p.bounds(T)
            if (slider.min, slider.max) != (lo, hi):
                slider.value = min(max(slider.value, lo), hi)
                slider.min, slider.max = min(slider.min, lo), max(slider.max, hi)  # never min > max on the way
                slider.min, slider.max = lo, hi

    @staticmethod
    def _refit(dropdown, options, fallback=None):
        if [v for _, v in dropdown.options] == [v for _, v in options]:
            return
        keep, values = dropdown.value, [v for _, v in options]
        if keep not in values and fallback is not None:
            keep = fallback
        elif keep not in values:  # e.g. Head 4 when h drops to 2 → Head 2; token 9 when T drops to 5 → token 5
            keep = min(keep, max(values)) if keep is not None and keep >= 0 else 0
        dropdown.options = options
        dropdown.value = keep

    # ---- your own numbers: one row as text ----------------------------------------------------------------------

    def _edit_target(self):  # -> (matrix name, token index, words for it)
        c = self.controls
        matrix, token = c["edit_matrix"].value, c["edit_token"].value
        what = self.L["row_of"].format(matrix=matrix, n=token + 1, nth=text.ordinal(token + 1, self.lang))
        return matrix, token, what

    def _fill_edit_row(self):
        matrix, token, _ = self._edit_target()
        row = self.own[matrix][token]
        self.controls["edit_row"].value = style.format_row(row).replace(style.MINUS, "-")  # as a learner types it
        self.controls["edit_row"].placeholder = self.L["edit_hint"].format(n=len(row))

    def _apply_edit(self):
        """Parse the edited row; a malformed one gets a one-line message and the picture stays as it was."""
        matrix, token, what = self._edit_target()
        n = self.own[matrix].shape[1]
        row, problem = parse_row(self.controls["edit_row"].value, n)
        if problem is not None:
            key, bad = problem
            self.edit_message.value = (f'<span class="al-edit-bad" style="color:#b00020">'
                                       f'{escape(self.L[key].format(what=what, n=n, m=bad, bad=bad))}</span>')
            return
        self.edit_message.value = (f'<span class="al-edit-ok">'
                                   f'{escape(self.L["edit_done"].format(what=what, row=style.format_row(row)))}</span>')
        if np.array_equal(row, self.own[matrix][token]):
            return
        edited = self.own[matrix].copy()
        edited[token] = row
        self.own = {**self.own, matrix: edited}
        with self._hold():
            self._redraw()

    # ---- the trace and its picture ------------------------------------------------------------------------------

    def _make_trace(self):
        mask = self._mask_spec()
        T, h, d, g = self.T, self.h, self.d, self.kv_heads
        if self.own is not None:
            return attention_trace(self.own["Q"], self.own["K"], self.own["V"], h, mask=mask, kv_heads=g)
        if self.source == "article":
            return article_example(mask, T=T, d=d, h=h, kv_heads=g)
        return random_example(T, d, h, self.controls["seed"].value, mask, kv_heads=g)

    def _redraw(self):
        self.redraw_count += 1
        tr = self.trace = self._make_trace()
        if self.own is None:
            self.d_label.value = (f'<span class="al-d" style="white-space:nowrap;padding-left:4px">'
                                  f'{escape(self.L["d"])} = <b>{tr.d}</b></span>')
        self.view.show(self.picture(tr))

    def note(self, tr):
        """One sentence on where the numbers come from: the article's corner, a seed, or your own."""
        L = self.L
        if self.source == "yours":
            return L["note_yours"]
        if self.source == "random":
            return L["note_random"].format(seed=self.controls["seed"].value)
        if is_article_size(tr.T, tr.d, tr.h, self.kv_heads):
            return L["note_article"] if tr.mask_name == "causal" else L["note_article_mask"].format(
                mask=L[f"mask.{tr.mask_name}"])

        def span(key, n):
            return L[f"{key}_one"] if n == 1 else L[key].format(n=n)

        note = L["note_corner"].format(tokens=span("tokens", min(tr.T, 3)), heads=span("heads", min(tr.h, 2)),
                                       components=span("components", min(tr.dh, 4)))
        if tr.kv_heads != tr.h:
            note += " " + L["note_kv"].format(g=tr.kv_heads, kv=span("kv_span", min(tr.kv_heads, 2)))
        return note

    def picture(self, tr):
        """Everything the front-end draws for trace `tr`, as plain data: sections of heatmaps and breakdowns."""
        items, reads = self.spec.items, _Reads(tr)
        heads = range(tr.h) if self.head == -1 else [self.head]
        score_stages = [x for x in items if x in STAGES and STAGES[x].kind == "scores"]
        # one colour scale for every score panel and head, so their colours compare
        score_range = style.value_range("scores", *(STAGES[x].value(reads) for x in score_stages))
        sections, placed = [], False
        for item in items:
            if item in SECTIONS:
                sections.append(self._section(item, reads))
            elif item in STAGES and _whole_trace(STAGES[item]):
                sections.append({"key": item, "title": self.L[f"stage.{item}"], "color": None,
                                 "items": [self._heatmap(reads, item, 0, score_range)]})
            elif not placed:
                placed = True
                sections += [self._head_section(reads, i, score_range) for i in heads]
        return {"shape": tr.shapes(), "note": self.note(tr), "marks": self.controls["marks"].value,
                "step": self.redraw_count, "inks": [style.INK_LIGHT, style.INK_DARK], "sections": sections}

    def _section(self, name, reads):
        L, tr = self.L, reads
        if name == "split":
            panels = [self._heatmap(reads, x, 0, None) for x in ("Q", "K", "V")]
        elif name == "outputs":
            panels = [self._heatmap(reads, "O", i, None) for i in range(tr.h)]
        elif name == "concat":
            panels = [self._heatmap(reads, "H", 0, None)]
        else:  # scaling_note
            root = style.format_value(tr.dh ** 0.5)
            note = L["scaling_note"].format(dh=tr.dh, root=root, eq=equals(tr.dh ** 0.5, root))
            return {"key": name, "title": "", "color": None,
                    "items": [{"type": "html", "key": name, "name": name, "html": f'<div class="al-note">'
                                                                                  f'{escape(note)}</div>'}]}
        return {"key": name, "title": L[name], "color": None, "items": panels}

    def _head_section(self, reads, i, score_range):
        """Head i's panels and breakdowns, in the view's order."""
        L, tr, items = self.L, reads, self.spec.items
        title = L["head_n"].format(n=i + 1)
        if tr.kv_heads != tr.h:
            title += " · " + L["kv_head_n"].format(n=tr.kv_head_of(i) + 1)
        parts = [self._heatmap(reads, x, i, score_range) for x in items if x in STAGES and not _whole_trace(STAGES[x])]
        parts += [self._breakdown(reads, x, i) for x in items if x in BREAKDOWNS]
        return {"key": f"head@{i}", "title": title, "color": style.head_color(i), "items": parts}

    def _heatmap(self, reads, name, i, score_range):
        """One stage's panel for Query head i: its cells (from style), title, axes, bars and highlight."""
        L, tr, stage, items = self.L, reads, STAGES[name], self.spec.items
        matrix = stage.matrix(reads, i)
        vmin, vmax = score_range if stage.kind == "scores" and score_range else (None, None)
        axis = {"query": L["query"], "key": L["key"], "token": L["token"], "component": ""}
        title = L[f"stage.{name}"]
        if "mask" not in self.controls and tr.mask_name == "none":  # a view before the mask is taught (03): M = 0
            title = title.replace(" + M", "")
        if stage.heads == "query" or stage.heads == "kv" and tr.kv_heads == tr.h:
            title += " · " + L["head_n"].format(n=i + 1)
        elif stage.heads == "kv":
            title += " · " + L["kv_head_n"].format(n=tr.kv_head_of(i) + 1)
        highlight = None
        if stage.highlight == "cell" and "dot" in items:
            highlight = [self.controls["query"].value, self.controls["key"].value]
        elif stage.highlight == "row" and {"softmax", "weighted_sum"} & set(items):
            highlight = [self.controls["row"].value, None]
        return {"type": "heatmap", "key": f"{name}@{i}", "name": name, "title": title,
                "rowCap": axis[stage.axes[0]], "colCap": axis[stage.axes[1]], "font": hm.font_px(matrix.shape[1]),
                "bars": _bars(tr, stage, i, matrix.shape[1]), "hl": highlight,
                **reads.cells(matrix, stage.kind, vmin, vmax)}

    def _breakdown(self, reads, name, i):
        """The picked score as a dot product, or the picked row's softmax and weighted sum, for head i."""
        L, tr, items, c, lang = self.L, reads, self.spec.items, self.controls, self.lang
        g = tr.kv_head_of(i)
        if name == "dot":
            q, k = c["query"].value, c["key"].value
            shown = set(items)
            words = {"query": L["query_n"].format(n=q + 1, nth=text.ordinal(q + 1, lang)),
                     "key": L["key_n"].format(n=k + 1, nth=text.ordinal(k + 1, lang)),
                     "score": L["score"], "scaled": L["scaled"], "masked": L["masked"]}
            scaled = {"scaled": tr.S_scaled[i, q, k], "dh": tr.dh} if "S_scaled" in shown else {}
            masked = {"mask_value": tr.M[q, k], "masked": tr.S_masked[i, q, k]} if shown & {"M", "S_masked"} else {}
            body = hm.dot_product_html(tr.Qh[i, q], tr.Kh[g, k], score=tr.S[i, q, k], labels=words, **scaled,
                                       **masked)
            title = L["dot"].format(i=q + 1, j=k + 1, ith=text.ordinal(q + 1, lang), jth=text.ordinal(k + 1, lang))
        else:
            r = c["row"].value
            rth = text.ordinal(r + 1, lang)
            if name == "softmax":
                words = {"key": L["key"], "scores": L["scores"], "sum": L["sum"], "weights": L["weights"]}
                body = hm.softmax_html(tr.S_masked[i, r], tr.P[i, r], labels=words)
                title = L["softmax"].format(i=r + 1, ith=rth)
            else:
                words = {"weight": L["weight"], "value": L["value"],
                         "output": L["output_n"].format(n=r + 1, nth=rth)}
                body = hm.weighted_sum_html(tr.P[i, r], tr.Vh[g], tr.O[i, r], labels=words)
                title = L["weighted_sum"].format(i=r + 1, ith=rth)
        return {"type": "html", "key": f"{name}@{i}", "name": name,
                "html": f'<div class="al-breakdown" data-name="{name}"><div class="al-title">{escape(title)}</div>'
                        f"{body}</div>"}


def _whole_trace(stage):
    """A stage shown once for the whole trace (Q, K, V, H), not in each head's section (M is, beside S)."""
    return stage.heads == "" and "query" not in stage.axes


def _bars(tr, stage, i, n_cols):  # -> a head colour per column where columns are a head's components, else None
    if stage.axes[1] != "component":
        return None
    if stage.heads == "query":
        return [style.head_color(i)] * n_cols
    if stage.heads == "kv":
        return [style.kv_head_color(tr.kv_head_of(i), tr.h, tr.kv_heads)] * n_cols
    blocks = n_cols // tr.dh  # h for Q and H; g for K and V, each K/V head coloured as its first Query head
    return [style.kv_head_color(c // tr.dh, tr.h, blocks) for c in range(n_cols)]


_NUMBER = re.compile(r"[^\s,;\[\]()]+")


def parse_row(source, n):  # -> (float array [n], None) or (None, (message key, detail))
    """One row typed as text: "[-1, 1, 1, 2]", "-1 1 1 2" or "−1, 1, 1, 2" → n finite numbers, or what is wrong."""
    tokens = _NUMBER.findall(str(source).replace(style.MINUS, "-"))
    values = []
    for token in tokens:
        try:
            values.append(float(token))
        except ValueError:
            return None, ("edit_number", token)
        if not np.isfinite(values[-1]):
            return None, ("edit_finite", token)
    if len(values) != n:
        return None, ("edit_count", len(values))
    return np.array(values), None


@named_arguments
def explorer(T=None, d=None, h=None, mask=_VIEW_MASK, seed=None, lang="en", view="all", source=None, *,
             kv_heads=None, Q=None, K=None, V=None, marks=True, dh=None):
    """The live explorer widget: every stage of Core Attention for the example its controls choose.

    T (1–16) tokens, d = h·dh with h (1–8) heads of dh (1–8) components: give d or dh (default T=3, h=2, dh=4,
    the article's);
    kv_heads: K/V heads shared by the Query heads (a divisor of h; None: one per Query head).
    source: "article" (the article's example, grown to any size from its corner: the default) or "random"
    (small integers from `seed`, the default once a seed is given). Moving a size never switches the source.
    mask: a name from masks.MASK_NAMES, None, or a Mask with its parameters (al.Mask("sliding", window=2));
    the default is the view's own.
    view: a name of VIEWS ("heads", "scores", "scaling", "mask", "softmax", "weighted_sum", "article", "masks",
    "all": one per notebook, each showing only what that notebook has taught; "all" offers every control), or a
    list of stage names, breakdowns ("dot", "softmax", "weighted_sum") and sections ("split", "outputs", "concat").
    Q, K, V (with h, and kv_heads if K and V have fewer heads): your own numbers, up to T = 16 and d = 64, with the
    same checks as attention_trace; a (T, T) boolean mask may come with them. One token's row can be edited as text.
    marks: outline the cells that changed at each step (a switch in the widget too). lang: "en" or "ko".
    """
    return Explorer(T=T, d=d, h=h, mask=mask, seed=seed, lang=lang, view=view, source=source, kv_heads=kv_heads,
                    Q=Q, K=K, V=V, marks=marks, dh=dh)
