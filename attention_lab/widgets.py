"""The live explorer: sliders for T, h, dh (d = h·dh), the mask, the head, a seed, and pickers.

    import attention_lab as al
    al.explorer(lang="ko", view="softmax")    # a focused widget for notebook 05
    al.explorer()                             # everything: the explorer of notebook 07

The widget lays out controls and renders HTML (`attention_lab.html`); every
number comes from a trace built by `article_example` / `random_example`.
One user action is one redraw: linked controls (head choices, token pickers,
the example source) are adjusted under `_hold()` and the view is drawn once,
sent to the browser before the controls' own updates.
"""

from contextlib import ExitStack, contextmanager
from html import escape

import ipywidgets as W

from . import html as hm
from . import style, text
from .examples import article_example, random_example
from .masks import MASKS
from .stages import STAGES
from .trace import attention_trace

LIMITS = {"T": (1, 16), "h": (1, 8), "dh": (1, 8)}
ARTICLE = {"T": 3, "h": 2, "dh": 4}  # the article's sizes: T=3, d=8, h=2
ARTICLE_PICKS = {"query": 2, "key": 0, "row": 2}  # Query token 3 · Key token 1; row 3 (0-based here)

HEAD_STAGES = ("S", "S_scaled", "M", "S_masked", "P", "Vh", "O")  # one heatmap each, per head
# The scaling view also shows P as it would be without ÷√dh, from a trace made with scaled=False.
UNSCALED = {"P_unscaled": "P"}
BREAKDOWNS = ("dot", "softmax", "weighted_sum")  # below a head's heatmaps, driven by the pickers

# What each view shows: per-head stages, breakdowns, and whole-trace sections ("split", "outputs", "concat").
VIEWS = {
    "heads": ("split", "outputs", "concat"),
    "scores": ("S", "S_scaled", "dot"),
    "scaling": ("S", "S_scaled", "P", "P_unscaled", "scaling_note"),
    "mask": ("S_scaled", "M", "S_masked"),
    "softmax": ("S_masked", "P", "softmax"),
    "weighted_sum": ("P", "Vh", "O", "weighted_sum"),
    "all": ("split", *HEAD_STAGES, *BREAKDOWNS, "concat"),
}

# Each language's words: the package's shared words, the stages' labels, the masks' names.
LABELS = {
    lang: {**text.WORDS[lang], **{name: stage.label[lang] for name, stage in STAGES.items()},
           **{name: mask.label[lang] for name, mask in MASKS.items()}}
    for lang in text.WORDS
}


def _check_int(name, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{name}: must be a whole number from {lo} to {hi} in the explorer, got {value!r}.")


class Explorer(W.VBox):
    """Every stage of Core Attention for a trace the controls choose, redrawn as HTML on each change."""

    def __init__(self, T=3, d=8, h=2, mask="causal", seed=0, lang="en", view="all", source=None):
        if lang not in LABELS:
            raise ValueError(f"lang: use one of {sorted(LABELS)}, got {lang!r}.")
        if view not in VIEWS:
            raise ValueError(f"view: use one of {list(VIEWS)}, got {view!r}.")
        _check_int("T", T, *LIMITS["T"])
        _check_int("h", h, *LIMITS["h"])
        if isinstance(d, bool) or not isinstance(d, int) or d % h or not 1 <= d // h <= LIMITS["dh"][1]:
            raise ValueError(f"d: must be a multiple of h={h} with d / h from 1 to {LIMITS['dh'][1]}, got {d!r}.")
        if mask not in ("causal", "none", None):
            raise ValueError(f"mask: use 'causal' or None (no mask) in the explorer, got {mask!r}.")
        _check_int("seed", seed, 0, 10**6)
        is_article = (T, h, d // h) == (ARTICLE["T"], ARTICLE["h"], ARTICLE["dh"])
        source = source or ("article" if is_article and seed == 0 else "random")
        if source not in ("article", "random") or (source == "article" and not is_article):
            raise ValueError(f"source: 'article' (only with T=3, d=8, h=2) or 'random', got {source!r}.")

        self.lang, self.view_name, self.L = lang, view, LABELS[lang]
        self.redraw_count = 0
        self._holding = 0
        self.trace = self.unscaled = None
        L, wide, narrow = self.L, W.Layout(width="300px"), W.Layout(width="190px")
        initial = {"description_width": "initial"}

        self.source_toggle = W.ToggleButtons(options=[(L["article"], "article"), (L["random"], "random")],
                                             value=source, description=L["source"], style=initial)
        self.reset_button = W.Button(description=L["reset"], layout=W.Layout(width="auto"))
        sliders = {}
        for name, value in (("T", T), ("h", h), ("dh", d // h)):
            lo, hi = LIMITS[name]
            sliders[name] = W.IntSlider(value=value, min=lo, max=hi, description=L[name], style=initial,
                                        layout=wide)
        self.T_slider, self.h_slider, self.dh_slider = sliders["T"], sliders["h"], sliders["dh"]
        self.d_label = W.HTML()
        self.mask_toggle = W.ToggleButtons(options=[(L["causal"], "causal"), (L["none"], "none")],
                                           value=mask or "none", description=L["mask"], style=initial)
        self.head_select = W.Dropdown(description=L["head"], style=initial, layout=narrow)
        self.seed_box = W.BoundedIntText(value=seed, min=0, max=10**6, description=L["seed"], style=initial,
                                         layout=W.Layout(width="130px"))
        self.query_pick = W.Dropdown(description=L["query"], style=initial, layout=narrow)
        self.key_pick = W.Dropdown(description=L["key"], style=initial, layout=narrow)
        self.row_pick = W.Dropdown(description=L["row"], style=initial, layout=W.Layout(width="230px"))
        self.shape_line = W.HTML()
        self.stage_html = W.HTML()
        self.controls = {
            "source": self.source_toggle, "T": self.T_slider, "h": self.h_slider, "dh": self.dh_slider,
            "mask": self.mask_toggle, "head": self.head_select, "seed": self.seed_box,
            "query": self.query_pick, "key": self.key_pick, "row": self.row_pick,
        }

        self._fit_choices()
        self._set_picks(ARTICLE_PICKS if source == "article" else {"query": T - 1, "key": 0, "row": T - 1})
        self.head_select.value = 0
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.reset_button.on_click(self._on_reset)
        super().__init__(children=self._layout())
        self.add_class("al-explorer")
        self._redraw()

    # ---- layout -------------------------------------------------------------------------------------------------

    def _layout(self):
        items = VIEWS[self.view_name]
        picks = []
        if "dot" in items:
            picks += [self.query_pick, self.key_pick]
        if "softmax" in items or "weighted_sum" in items:
            picks.append(self.row_pick)
        per_head = any(x in HEAD_STAGES for x in items)
        rows = [
            W.HBox([self.source_toggle, self.reset_button]),
            W.HBox([self.T_slider, self.h_slider, self.dh_slider, self.d_label]),
            W.HBox([self.mask_toggle, *([self.head_select] if per_head else []), self.seed_box]),
        ]
        if picks:
            rows.append(W.HBox(picks))
        return [*rows, self.shape_line, self.stage_html]

    # ---- one action, one redraw ---------------------------------------------------------------------------------

    @contextmanager
    def _hold(self):
        """Adjust linked controls without redrawing them one by one, and send each control's changes to the
        browser as one message when the hold ends (a refitted dropdown would send three: options, index, index).

        Callers redraw inside the hold: the view's update leaves first, the controls' few messages after it.
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
        with self._hold():
            self._sync(change["owner"])
            self._redraw()

    def _on_reset(self, _button=None):
        """Bring back the article's example: T=3, d=8, h=2, causal mask, Head 1, token 3 and key 1 picked."""
        with self._hold():
            self.source_toggle.value = "article"
            self._set_sizes(ARTICLE)
            self.mask_toggle.value = "causal"
            self._fit_choices()
            self.head_select.value = 0
            self._set_picks(ARTICLE_PICKS)
            self._redraw()

    def _sync(self, owner):
        """Keep the controls consistent after `owner` changed: source ⇄ sizes, head and token choices."""
        if owner is self.source_toggle and owner.value == "article":
            self._set_sizes(ARTICLE)
        elif owner in (self.T_slider, self.h_slider, self.dh_slider, self.seed_box):
            sizes = {"T": self.T_slider.value, "h": self.h_slider.value, "dh": self.dh_slider.value}
            if owner is self.seed_box or sizes != ARTICLE:
                self.source_toggle.value = "random"
        self._fit_choices()

    def _set_sizes(self, sizes):
        self.T_slider.value, self.h_slider.value, self.dh_slider.value = sizes["T"], sizes["h"], sizes["dh"]

    def _set_picks(self, picks):
        self.query_pick.value, self.key_pick.value, self.row_pick.value = picks["query"], picks["key"], picks["row"]

    def _fit_choices(self):
        """Head choices follow h (Head 1 … Head h, all heads); token pickers follow T; values are clamped."""
        h, T = self.h_slider.value, self.T_slider.value
        heads = [(self.L["head_n"].format(n=i + 1), i) for i in range(h)]
        heads += [(self.L["all_heads"], -1)] if h > 1 else []
        self._refit(self.head_select, heads)
        tokens = [(str(i + 1), i) for i in range(T)]
        for picker in (self.query_pick, self.key_pick, self.row_pick):
            self._refit(picker, tokens)

    @staticmethod
    def _refit(dropdown, options):
        if [v for _, v in dropdown.options] == [v for _, v in options]:
            return
        keep, values = dropdown.value, [v for _, v in options]
        if keep not in values:  # e.g. Head 4 when h drops to 2 → Head 2; token 9 when T drops to 5 → token 5
            keep = min(keep, max(values)) if keep is not None and keep >= 0 else 0
        dropdown.options = options
        dropdown.value = keep

    # ---- the trace and its view ---------------------------------------------------------------------------------

    @property
    def d(self):
        return self.h_slider.value * self.dh_slider.value

    def _make_trace(self):
        mask = None if self.mask_toggle.value == "none" else "causal"
        if self.source_toggle.value == "article":
            return article_example(mask)
        return random_example(self.T_slider.value, self.d, self.h_slider.value, self.seed_box.value, mask)

    def _redraw(self):
        self.redraw_count += 1
        tr = self.trace = self._make_trace()
        if any(name in UNSCALED for name in VIEWS[self.view_name]):
            self.unscaled = attention_trace(tr.Q, tr.K, tr.V, tr.h, mask=tr.M == 0, scaled=False)
        self.d_label.value = f'<span style="padding-left:8px">{escape(self.L["d"])} = <b>{tr.d}</b></span>'
        self.shape_line.value = (
            f'<div class="al-shape" style="font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;'
            f'padding:4px 0">{escape(tr.shapes())}</div>'
        )
        self.stage_html.value = self.render(tr)

    def render(self, tr):
        """The HTML of the whole view for trace `tr` (one string: shared CSS once, then the panels)."""
        L, items = self.L, VIEWS[self.view_name]
        heads = range(tr.h) if self.head_select.value == -1 else [self.head_select.value]
        score_range = style.value_range("scores", tr.S, tr.S_scaled)
        parts = []
        if "split" in items:
            bars = [style.head_color(c // tr.dh) for c in range(tr.d)]
            parts.append(hm.section(L["split"], *(self._matrix(tr, name, col_colors=bars) for name in "QKV")))
        for i in heads:
            panels = [self._stage(tr, name, i, score_range) for name in items if name in HEAD_STAGES + (*UNSCALED,)]
            panels += [self._breakdown(tr, name, i) for name in items if name in BREAKDOWNS]
            if panels:
                parts.append(hm.section(L["head_n"].format(n=i + 1), *panels, color=style.head_color(i)))
        if "scaling_note" in items:
            note = L["scaling_note"].format(dh=tr.dh, root=style.format_value(tr.dh ** 0.5))
            parts.append(f'<div class="al-note">{escape(note)}</div>')
        if "outputs" in items:
            parts.append(hm.section(L["outputs"], *(self._stage(tr, "O", i, score_range) for i in range(tr.h))))
        if "concat" in items:
            bars = [style.head_color(c // tr.dh) for c in range(tr.d)]
            parts.append(hm.section(L["concat"], self._matrix(tr, "H", col_colors=bars)))
        return hm.page(*parts)

    def _matrix(self, tr, name, **kwargs):
        """A whole (T, d) matrix of the trace (Q, K, V or H); rows are tokens, columns components."""
        return hm.heatmap_html(getattr(tr, name), "values", title=self.L[name], name=name, row_caption=self.L["token"],
                               col_caption="", **kwargs)

    def _stage(self, tr, name, i, score_range):
        """Head i's heatmap of one stage, with the picked cell or row highlighted where a breakdown explains it."""
        L, items = self.L, VIEWS[self.view_name]
        field = UNSCALED.get(name, name)
        source = self.unscaled if name in UNSCALED else tr
        matrix = tr.M if name == "M" else getattr(source, field)[i]
        kind = style.KIND_OF[field]
        highlight = None
        if "dot" in items and name in ("S", "S_scaled", "M"):
            highlight = (self.query_pick.value, self.key_pick.value)
        elif ("softmax" in items or "weighted_sum" in items) and name in ("S_masked", "P", "O"):
            highlight = (self.row_pick.value, None)
        vmin, vmax = score_range if kind == "scores" else (None, None)
        rows = {"Vh": L["key"], "O": L["query"]}.get(name, L["query"])
        cols = "" if kind == "values" else L["key"]
        bars = [style.head_color(i)] * tr.dh if kind == "values" else None
        title = L[name] if name == "M" else f"{L[name]} · {L['head_n'].format(n=i + 1)}"
        return hm.heatmap_html(matrix, kind, title=title, name=name, vmin=vmin, vmax=vmax, highlight=highlight,
                               row_caption=rows, col_caption=cols, col_colors=bars)

    def _breakdown(self, tr, name, i):
        """The picked score as a dot product, or the picked row's softmax and weighted sum, for head i."""
        L = self.L
        q, k, r = self.query_pick.value, self.key_pick.value, self.row_pick.value
        if name == "dot":
            words = {"query": f"{L['query']} {q + 1}", "key": f"{L['key']} {k + 1}", "score": L["score"],
                     "scaled": L["scaled"], "masked": L["masked"]}
            body = hm.dot_product_html(tr.Qh[i, q], tr.Kh[i, k], score=tr.S[i, q, k], scaled=tr.S_scaled[i, q, k],
                                       mask_value=tr.M[q, k], masked=tr.S_masked[i, q, k], dh=tr.dh, labels=words)
            title = L["dot"].format(i=q + 1, j=k + 1)
        elif name == "softmax":
            words = {"key": L["key"], "scores": L["scores"], "sum": L["sum"], "weights": L["weights"]}
            body = hm.softmax_html(tr.S_masked[i, r], tr.P[i, r], labels=words)
            title = L["softmax"].format(i=r + 1, ith=text.ordinal(r + 1, self.lang))
        else:
            words = {"weight": L["weight"], "value": L["value"], "output": f"{L['output']} {r + 1}"}
            body = hm.weighted_sum_html(tr.P[i, r], tr.Vh[i], tr.O[i, r], labels=words)
            title = L["weighted_sum"].format(i=r + 1)
        return f'<div class="al-breakdown" data-name="{name}"><div class="al-title">{escape(title)}</div>{body}</div>'


def explorer(T=3, d=8, h=2, mask="causal", seed=0, lang="en", view="all", source=None):
    """The live explorer widget (an ipywidgets VBox): every stage of Core Attention, redrawn as HTML.

    T (1–16) tokens, d = h·dh with h (1–8) heads of dh (1–8) components, mask "causal" or None,
    seed for random examples, lang "en" or "ko", view one of "heads", "scores", "scaling", "mask",
    "softmax", "weighted_sum", "all". With the article's sizes (3, 8, 2) and seed 0 it starts on the
    article's example; source="random" forces a random example.
    """
    return Explorer(T=T, d=d, h=h, mask=mask, seed=seed, lang=lang, view=view, source=source)
