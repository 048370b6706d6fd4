"""A stepper for the online softmax: a block-size slider, step buttons, and the running values after each block.

    import attention_lab as al
    al.blockwise_view(lang="ko")                              # the article's example, one Key token per block
    al.blockwise_view(al.article_example(T=6), block=2)       # a longer example, two Key tokens per block

It lays out controls and renders, as HTML (`attention_lab.html`), the records
that `blockwise.blockwise_steps` returns for the trace's Q, K, V and mask; it
computes nothing itself. `steps_text` writes the same records as plain text,
every block at once, for a notebook read without a kernel.
"""

import unicodedata
from html import escape

import ipywidgets as W

from . import checks, style, text
from . import html as hm
from .blockwise import blockwise_steps
from .examples import article_example
from .trace import AttentionTrace

# The running values, one column each: (record field, word key, kind for colours and number format).
COLUMNS = (("m_old", "m_old", "scores"), ("m", "m_new", "scores"), ("rescale", "rescale", "weights"),
           ("l", "running_sum", "values"))
# How each block updates them (the words of the first line are in text.WORDS).
RULES = ("l ← l · e^(m_old − m) + Σ e^(s − m)", "O_acc ← O_acc · e^(m_old − m) + Σ e^(s − m) · V_j")


def steps_of(tr, block):  # AttentionTrace, block size -> tuple of BlockStep
    """The online softmax's records for the trace's Q, K, V, heads and mask, `block` Key tokens at a time."""
    mask = tr.M == 0 if tr.mask_name == "custom" else tr.mask_name
    params = {} if tr.mask_name == "custom" else tr.mask_params
    return blockwise_steps(tr.Q, tr.K, tr.V, tr.h, block, mask, kv_heads=tr.kv_heads, **params)


def block_title(L, k, n, keys):  # words, block number k of n, range of Key indices -> "Block 2 of 3: Key tokens 3–4"
    """The heading of block k (from 1): its Key tokens numbered from 1, as the article numbers tokens."""
    if len(keys) == 1:
        return L["block_of_one"].format(k=k, n=n, keys=keys.start + 1)
    return L["block_of"].format(k=k, n=n, keys=f"{keys.start + 1}–{keys.stop}")


class BlockwiseView(W.VBox):
    """The online softmax of one head, block by block: block size slider, ◀ ▶ buttons, the running values."""

    def __init__(self, tr=None, block=1, head=0, lang="en"):
        tr = article_example() if tr is None else tr
        if not isinstance(tr, AttentionTrace):
            raise ValueError(f"tr: pass a trace, e.g. al.article_example(T=6), got {type(tr).__name__}.")
        self.lang, self.L, self.trace = checks.lang(lang), text.words(lang), tr
        block = checks.whole_number("block", block, 1, tr.T)
        head = checks.whole_number("head", head, 0, tr.h - 1, " Heads count from 0: head=0 is Head 1.")
        self.steps, self.step, self.redraw_count = (), 0, 0
        initial = {"description_width": "initial"}
        self.block_slider = W.IntSlider(value=block, min=1, max=tr.T, description=self.L["block"], style=initial,
                                        continuous_update=True, layout=W.Layout(width="320px"))
        self.head_select = W.Dropdown(options=[(self.L["head_n"].format(n=i + 1), i) for i in range(tr.h)],
                                      value=head, description=self.L["head"], style=initial,
                                      layout=W.Layout(width="170px", display="" if tr.h > 1 else "none"))
        self.previous_button = W.Button(description=self.L["previous_block"], layout=W.Layout(width="auto"))
        self.next_button = W.Button(description=self.L["next_block"], layout=W.Layout(width="auto"))
        self.view = W.HTML()
        self.block_slider.observe(self._on_block, names="value")
        self.head_select.observe(lambda _change: self._redraw(), names="value")
        self.previous_button.on_click(lambda _button: self._go(self.step - 1))
        self.next_button.on_click(lambda _button: self._go(self.step + 1))
        super().__init__(children=[W.HBox([self.block_slider, self.head_select]),
                                   W.HBox([self.previous_button, self.next_button]), self.view])
        self.add_class("al-blockwise")
        self._on_block()

    def _on_block(self, _change=None):
        """A new block size: the records of the new blocks, from the first block."""
        self.steps = steps_of(self.trace, self.block_slider.value)
        self._go(0)

    def _go(self, step):
        self.step = min(max(step, 0), len(self.steps) - 1)  # the buttons are disabled at the ends; clamp anyway
        self._redraw()

    def _redraw(self):
        self.redraw_count += 1
        self.previous_button.disabled = self.step == 0
        self.next_button.disabled = self.step == len(self.steps) - 1
        self.view.value = self.render(self.step, self.head_select.value)

    def render(self, step, head):  # block index, head index -> str of HTML
        """One block's record for one head: its scores, the running max before and after, e^(m_old − m), l, O."""
        L, tr = self.L, self.trace
        record, n, k = self.steps[step], len(self.steps), step + 1
        rows, tokens = L["query"], style.token_labels(tr.T)
        keys = [str(j + 1) for j in record.keys]
        panels = [hm.heatmap_html(record.S_block[head], "scores", title=L["block_scores"], name="S_block",
                                  col_labels=keys, row_caption=rows, col_caption=L["key"])]
        panels += [hm.heatmap_html(getattr(record, field)[head][:, None], kind, title=L[word], name=field,
                                   col_labels=[""], row_labels=tokens, row_caption="", col_caption="")
                   for field, word, kind in COLUMNS]
        panels.append(hm.heatmap_html(record.O[head], "values", title=L["running_output"], name="O",
                                      row_caption="", col_caption=""))
        last = k == n
        if last:
            panels.append(hm.heatmap_html(tr.O[head], "values", title=L["full_output"], name="O_trace",
                                          row_caption="", col_caption=""))
        title = f"{L['head_n'].format(n=head + 1)} · {block_title(L, k, n, record.keys)}"
        notes = [L["rule_m"], *RULES] + ([L["last_block"]] if last else [])
        return hm.page(hm.section(title, *panels, color=style.head_color(head)),
                       *(f'<div class="al-note">{escape(note)}</div>' for note in notes))


def _width(cell):  # -> columns a monospace font gives the text: Hangul takes two
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in cell)


def steps_text(steps, head=0, lang="en"):  # tuple of BlockStep -> str
    """Every block's running values for one head as plain text: what the stepper shows, all blocks at once."""
    L = text.words(lang)
    header = [L["query"], "S/√dh + M", "m_old", "m", "e^(m_old − m)", "l", "O = O_acc / l"]
    lines = []
    for k, record in enumerate(steps, start=1):
        table = [header]
        for i in range(record.m.shape[1]):
            values = [style.format_value(float(getattr(record, field)[head, i]), kind) for field, _, kind in COLUMNS]
            table.append([str(i + 1), style.format_row(record.S_block[head, i], "scores"), *values,
                          style.format_row(record.O[head, i])])
        widths = [max(_width(row[c]) for row in table) for c in range(len(header))]
        lines.append(block_title(L, k, len(steps), record.keys))
        lines += ["  " + "  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths, strict=True))
                  .rstrip() for row in table]
    return "\n".join(lines)


def blockwise_view(tr=None, block=1, head=0, lang="en"):
    """The online-softmax stepper widget (an ipywidgets VBox) for a trace, the article's example by default.

    block: Key tokens per block (1 … T); head: which head to show (0 is Head 1); lang "en" or "ko".
    The trace's Q, K, V, heads and mask are used; every number comes from blockwise.blockwise_steps.
    """
    return BlockwiseView(tr, block=block, head=head, lang=lang)
