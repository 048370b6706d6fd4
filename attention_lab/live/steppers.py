"""Step-by-step widgets for notebooks 10 and 11: generation from the KV cache, and the online softmax.

    import attention_lab as al
    al.decode_view(lang="ko")                               # token by token: the cache, the new row of P and O
    al.blockwise_view(lang="ko")                            # block by block: the running max, sum and output
    al.blockwise_view(al.article_example(T=6), block=2)     # a longer example, two Key tokens per block

Each lays out ◀ ▶ buttons (and a head choice when there are several heads),
and renders, as HTML (`attention_lab.html`), the records that
`kv_cache.decode_steps` or `blockwise.blockwise_steps` return for the trace's
Q, K, V, heads and mask. They compute nothing themselves.
"""

from html import escape

import ipywidgets as W

from .. import look as style
from ..look import tables as hm
from ..look import words as text
from ..numeric import checks
from ..numeric.blockwise import blockwise_steps
from ..numeric.examples import article_example
from ..numeric.kv_cache import decode_steps
from ..numeric.trace import AttentionTrace

# The blockwise running values, one column each: (record field, word key, kind for colours and number format).
RUNNING = (("m_old", "m_old", "scores"), ("m", "m_new", "scores"), ("rescale", "rescale", "weights"),
           ("l", "running_sum", "values"))
# How each block updates them (the words of the first line, m ← max(…), are in text.WORDS).
RULES = ("l ← l · e^(m_old − m) + Σ e^(s − m)", "O_acc ← O_acc · e^(m_old − m) + Σ e^(s − m) · V_j")


def _trace(tr):  # -> AttentionTrace: the article's example by default
    tr = article_example() if tr is None else tr
    if not isinstance(tr, AttentionTrace):
        raise ValueError(f"tr: pass a trace, e.g. al.article_example(T=6), got {type(tr).__name__}.")
    if not tr.scaled:
        raise ValueError("tr: this trace was made with scaled=False, to show what the √dh prevents; generation and "
                         "the blockwise softmax divide by √dh. Pass a trace made with scaled=True.")
    return tr


class _Stepper(W.VBox):
    """◀ ▶ through a tuple of records, a head choice when h > 1, one HTML view; subclasses make steps and render."""

    def __init__(self, tr, head, lang, controls=()):
        self.lang, self.L, self.trace = checks.lang(lang), text.table(lang), tr
        head = checks.whole_number("head", head, 0, tr.h - 1, " Heads count from 0: head=0 is Head 1.")
        self.steps, self.step, self.redraw_count = (), 0, 0
        self.head_select = W.Dropdown(options=[(self.L["head_n"].format(n=i + 1), i) for i in range(tr.h)],
                                      value=head, description=self.L["head"], style={"description_width": "initial"},
                                      layout=W.Layout(width="170px", display="" if tr.h > 1 else "none"))
        self.previous_button = W.Button(description=self.L[self.PREVIOUS], layout=W.Layout(width="auto"))
        self.next_button = W.Button(description=self.L[self.NEXT], layout=W.Layout(width="auto"))
        self.view = W.HTML()
        self.head_select.observe(lambda _change: self._redraw(), names="value")
        self.previous_button.on_click(lambda _button: self._go(self.step - 1))
        self.next_button.on_click(lambda _button: self._go(self.step + 1))
        super().__init__(children=[W.HBox([*controls, self.head_select]),
                                   W.HBox([self.previous_button, self.next_button]), self.view])

    def _go(self, step):
        self.step = min(max(step, 0), len(self.steps) - 1)  # the buttons are disabled at the ends; clamp anyway
        self._redraw()

    def _redraw(self):
        self.redraw_count += 1
        self.previous_button.disabled = self.step == 0
        self.next_button.disabled = self.step == len(self.steps) - 1
        self.view.value = self.render(self.step, self.head_select.value)

    def render(self, step, head):  # -> str of HTML
        raise NotImplementedError


def _row(vector, kind, title, name, col_labels=None):  # [n] -> one-row heatmap fragment
    return hm.heatmap_html(vector[None, :], kind, title=title, name=name, row_labels=[""], col_labels=col_labels,
                           row_caption="", col_caption="")


def _notes(*lines):
    return "".join(f'<div class="al-note">{escape(line)}</div>' for line in lines)


class DecodeView(_Stepper):
    """Generation token by token: the cache of K and V rows, the new token's Query, its row of P and O."""

    PREVIOUS, NEXT = "previous_token", "next_token"

    def __init__(self, tr=None, head=0, lang="en"):
        tr = _trace(tr)
        if tr.mask_name != "causal":
            raise ValueError(f"tr: a KV cache needs the causal mask; this trace has mask {tr.mask_name!r}. "
                             "Pass a trace made with mask='causal'.")
        super().__init__(tr, head, lang)
        self.steps = decode_steps(tr.Q, tr.K, tr.V, tr.h, kv_heads=tr.kv_heads)
        self.add_class("al-decode")
        self._go(0)

    def render(self, step, head):
        """Step `step` (token step + 1) for Query head `head`: what the cache holds and the one row computed."""
        L, tr, record = self.L, self.trace, self.steps[step]
        n, kv = step + 1, tr.kv_head_of(head)
        tokens = style.token_labels(n)
        new_row = (step, None)
        panels = [
            _row(record.q[head], "values", L["new_query"].format(t=n), "q"),
            hm.heatmap_html(record.K_cache[kv], "values", title=L["K_cache"], name="K_cache", highlight=new_row,
                            row_caption=L["key"], col_caption=""),
            hm.heatmap_html(record.V_cache[kv], "values", title=L["V_cache"], name="V_cache", highlight=new_row,
                            row_caption=L["key"], col_caption=""),
            _row(record.S_scaled_row[head], "scores", L["row_scores"].format(t=n), "S_scaled_row", tokens),
            _row(record.P_row[head], "weights", L["row_weights"].format(t=n), "P_row", tokens),
            _row(record.O_row[head], "values", L["row_output"].format(t=n), "O_row"),
            _row(tr.P[head, step], "weights", L["full_row"].format(t=n), "P_trace"),
        ]
        title = f"{L['head_n'].format(n=head + 1)} · {L['decode_step'].format(t=n, T=tr.T)}"
        notes = [L["cache_size"].format(n=n, values=record.cache_values)]
        if tr.kv_heads != tr.h:
            notes.append(L["kv_reads"].format(i=head + 1, j=kv + 1, h=tr.h, g=tr.kv_heads))
        return hm.page(hm.section(title, *panels, color=style.head_color(head)), _notes(*notes))


def block_title(L, k, n, keys):  # words, block number k of n, range of Key indices -> "Block 2 of 3: Key tokens 3–4"
    """The heading of block k (from 1): its Key tokens numbered from 1, as the article numbers tokens."""
    if len(keys) == 1:
        return L["block_of_one"].format(k=k, n=n, keys=keys.start + 1)
    return L["block_of"].format(k=k, n=n, keys=f"{keys.start + 1}–{keys.stop}")


def steps_of(tr, block):  # AttentionTrace, block size -> tuple of BlockStep
    """The online softmax's records for the trace's Q, K, V, heads and mask, `block` Key tokens at a time."""
    return blockwise_steps(tr.Q, tr.K, tr.V, tr.h, block, tr.mask, kv_heads=tr.kv_heads)


class BlockwiseView(_Stepper):
    """The online softmax block by block: block-size slider, ◀ ▶, the running max, sum and output."""

    PREVIOUS, NEXT = "previous_block", "next_block"

    def __init__(self, tr=None, block=1, head=0, lang="en"):
        tr = _trace(tr)
        block = checks.whole_number("block", block, 1, tr.T)
        self.block_slider = W.IntSlider(value=block, min=1, max=tr.T, description=text.table(lang)["block"],
                                        style={"description_width": "initial"}, layout=W.Layout(width="320px"))
        super().__init__(tr, head, lang, controls=[self.block_slider])
        self.block_slider.observe(self._on_block, names="value")
        self.add_class("al-blockwise")
        self._on_block()

    def _on_block(self, _change=None):
        """A new block size: the records of the new blocks, from the first block."""
        self.steps = steps_of(self.trace, self.block_slider.value)
        self._go(0)

    def render(self, step, head):
        """One block's record for one head: its scores, the running max before and after, e^(m_old − m), l, O."""
        L, tr = self.L, self.trace
        record, n, k = self.steps[step], len(self.steps), step + 1
        keys = [str(j + 1) for j in record.keys]
        panels = [hm.heatmap_html(record.S_block[head], "scores", title=L["block_scores"], name="S_block",
                                  col_labels=keys, row_caption=L["query"], col_caption=L["key"])]
        panels += [hm.heatmap_html(getattr(record, field)[head][:, None], kind, title=L[word], name=field,
                                   col_labels=[""], row_caption="", col_caption="")
                   for field, word, kind in RUNNING]
        panels.append(hm.heatmap_html(record.O[head], "values", title=L["running_output"], name="O",
                                      row_caption="", col_caption=""))
        last = k == n
        if last:
            panels.append(hm.heatmap_html(tr.O[head], "values", title=L["full_output"], name="O_trace",
                                          row_caption="", col_caption=""))
        title = f"{L['head_n'].format(n=head + 1)} · {block_title(L, k, n, record.keys)}"
        return hm.page(hm.section(title, *panels, color=style.head_color(head)),
                       _notes(L["rule_m"], *RULES, *([L["last_block"]] if last else [])))


def decode_view(tr=None, head=0, lang="en"):
    """The token-by-token generation widget (an ipywidgets VBox) for a causal trace, the article's example by default.

    head: which Query head to show (0 is Head 1); lang "en" or "ko". The trace's Q, K, V and
    K/V heads are used; every number comes from kv_cache.decode_steps (and the full row from the trace).
    """
    return DecodeView(tr, head=head, lang=lang)


def blockwise_view(tr=None, block=1, head=0, lang="en"):
    """The online-softmax stepper widget (an ipywidgets VBox) for a trace, the article's example by default.

    block: Key tokens per block (1 … T); head: which head to show (0 is Head 1); lang "en" or "ko".
    The trace's Q, K, V, heads and mask are used; every number comes from blockwise.blockwise_steps.
    """
    return BlockwiseView(tr, block=block, head=head, lang=lang)
