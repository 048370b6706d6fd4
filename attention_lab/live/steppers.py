"""Step-by-step widgets for notebooks 10 and 11: generation from the KV cache, and the online softmax.

    import attention_lab as al
    al.decode_view(lang="ko")                                # token by token: the cache, the new row of P and O
    al.decode_view(al.article_example(kv_heads=1), head=1)  # shared K/V heads (MQA)
    al.blockwise_view(al.article_example(T=6), block=3)      # block by block: the running max, sum and output

Each is an anywidget whose front-end (live/steppers.js, in the explorer's bundle) owns its controls: a T slider
(1 … 8 for the article's example, which grows from its corner; 1 … T for another trace), ◀ ▶ through the steps,
a head choice when there are several heads, and for the blockwise widget the block size and the Query row to
follow through the blocks. Python computes every record once, for every size the controls offer
(live/stepper_data.py), and sends them as `data`; the browser only selects a record and draws it, with the
explorer's number formats, colours and heatmaps. So no kernel is on a control's path, and a stored notebook
reopened without its kernel, or the course site, shows the same widget, live.

For Python: `w.T`, `w.step`, `w.head` (and `w.block`, `w.row`) are the state the page shows, synced both ways;
`w.data` the records it selects from. The page alone draws them (live/steppers.js).
"""

import anywidget
import traitlets as t

from ..look import words
from ..numeric import checks
from ..numeric.examples import article_example
from . import page, stepper_data


class _Asked:
    """One entry of the synced `state` as an attribute (w.T, w.step, …), checked when set from Python."""

    def __init__(self, lo, hi):  # hi(data) -> the largest value asked for
        self.lo, self.hi = lo, hi

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, widget, owner=None):
        return self if widget is None else widget.state[self.name]

    def __set__(self, widget, value):
        value = checks.whole_number(self.name, value, self.lo, self.hi(widget.config["data"]))
        widget.state = {**widget.state, self.name: value}


class _Stepper(anywidget.AnyWidget):
    """One step widget: its records and words as `config`, what it shows as `state`; the page draws (steppers.js).

    The model has the explorer's fields (live/page.py), so `page.config_from_model` rebuilds a stored one.
    """

    _esm = t.Unicode(page.esm()).tag(sync=True)  # the bundle and its styles, packed (live/loader.js)
    config = t.Dict().tag(sync=True)  # {"kind", "lang", "data", "words"}: sent once
    state = t.Dict().tag(sync=True)  # {"T", "step", "head", …}: asked for; the page fits it to the sizes

    T = _Asked(1, lambda data: data["Tmax"])
    step = _Asked(0, lambda data: data["Tmax"] - 1)  # the page shows the last step when there are fewer
    head = _Asked(0, lambda data: data["h"] - 1)

    def __init__(self, data, head, lang, **state):
        lang = checks.lang(lang)
        head = checks.whole_number("head", head, 0, data["h"] - 1, " Heads count from 0: head=0 is Head 1.")
        config = {"kind": data["kind"], "lang": lang, "data": data, "words": stepper_data.words(lang)}
        super().__init__(config=config, state={"T": data["T"], "step": 0, "head": head, **state})

    @property
    def lang(self):
        return self.config["lang"]

    @property
    def data(self):  # -> the records of every size (live/stepper_data.py)
        return self.config["data"]

    def page_config(self):  # -> the config a page mounts (live/page.py: mount_html, standalone_html)
        return {**self.config, "state": dict(self.state)}

    def __repr__(self):  # what a stored notebook shows before a kernel runs: one short line in the reader's language
        return words.say(self.PLAIN, self.lang)


class DecodeView(_Stepper):
    """Generation token by token: the cache of K and V rows, the new token's Query, its row of P and O."""

    PLAIN = "decode_plain"

    def __init__(self, tr=None, head=0, lang="en"):
        tr = stepper_data.checked_trace(article_example() if tr is None else tr, causal=True)
        super().__init__(stepper_data.decode_data(tr), head, lang)


class BlockwiseView(_Stepper):
    """The online softmax block by block: T, block size, ◀ ▶, the Query row to follow, the running values."""

    PLAIN = "blockwise_plain"
    block = _Asked(1, lambda data: data["Tmax"])  # the page shows at most T
    row = _Asked(0, lambda data: data["Tmax"] - 1)  # the page shows at most token T

    def __init__(self, tr=None, block=1, head=0, row=None, lang="en"):
        tr = stepper_data.checked_trace(article_example() if tr is None else tr)
        block = checks.whole_number("block", block, 1, tr.T, " A block holds that many Key tokens; block=T is one "
                                                             "block.")
        row = tr.T - 1 if row is None else checks.whole_number("row", row, 0, tr.T - 1, " Rows count from 0: row=0 "
                                                                                          "is Query token 1.")
        super().__init__(stepper_data.blockwise_data(tr), head, lang, block=block, row=row)


def decode_view(tr=None, head=0, lang="en"):
    """The token-by-token generation widget for a causal trace of at most 8 tokens (the article's example by default).

    head: which Query head to show first (0 is Head 1); lang "en" or "ko". Every number comes from
    kv_cache.decode_steps, the trace and kv_cache.generation_cost, for every T the T slider offers.
    """
    return DecodeView(tr, head=head, lang=lang)


def blockwise_view(tr=None, block=1, head=0, row=None, lang="en"):
    """The online-softmax stepper widget for a trace of at most 8 tokens (the article's example by default).

    block: Key tokens per block (1 … T); head: the head shown first (0 is Head 1); row: the Query row followed
    through the blocks (0-based; default the last token's); lang "en" or "ko". Every number comes from
    blockwise.blockwise_steps and the trace, for every T and block size the sliders offer.
    """
    return BlockwiseView(tr, block=block, head=head, row=row, lang=lang)
