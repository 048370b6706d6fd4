"""The pipeline of Core Attention: every stage once, in the article's order, with how it is computed.

Each `Stage` is one matrix of a trace: its name (the trace's field), its
formula, its kind (which colour scale and number format), whether there is
one per head, what its rows and columns are, and how it is computed from the
stages before it (an expression: `numeric/expressions.py`). `PIPELINE` is the
one place the order of the stages is written: the trace is built by walking it, and its fields, what "every stage"
means in a view or a figure, and the figures' layouts all come from it.
A stage's words (its title in Korean and English) are in
`attention_lab.look.words` under "stage.<name>".

    from attention_lab.numeric.pipeline import STAGES
    STAGES["E"].formula                     # "E = exp(S / √dh + M − max)"
    STAGES["P"].matrix(tr, head=0)          # Head 1's P, (T_q, T_k)

Adding a stage is one entry here (with its `expression`, over the operations of `numeric.expressions`) and its
words: Python and the browser both compute it from that expression.
"""

from dataclasses import dataclass

import numpy as np

from . import core, expressions, masks
from .calls import named_arguments

QK = ("query", "key")  # a stage whose rows are Query tokens and whose columns are Key tokens


@dataclass(frozen=True)
class Settings:
    """What the stages are computed with besides the arrays: the sizes, the (checked) mask and the scale."""

    h: int  # Query heads
    g: int  # K/V heads (h unless shared)
    dh: int  # components per head
    T_q: int  # Query tokens
    T_k: int  # Key tokens
    mask: masks.Mask  # with every parameter filled in
    scaled: bool  # False only to show what the √dh prevents

    @property
    def kv_index(self):  # -> [h] int: the K/V head each Query head reads
        return core.kv_head_index(self.h, self.g)


@dataclass(frozen=True)
class Stage:
    """One matrix of Core Attention, how it is computed, and how every renderer shows it."""

    name: str  # the trace's field, e.g. "S_scaled"
    formula: str  # language-free, as the article writes it: "S / √dh"
    kind: str  # "scores" | "weights" | "values": colour scale and number format (see look.colors)
    heads: str  # "query": one per Query head (h, …); "kv": one per K/V head (g, …); "": one for the whole trace
    axes: tuple  # (rows, cols): "query", "key", "token" or "component": what a row and a column are
    expression: object = None  # how it is computed from earlier stages (numeric/expressions.py); None for Q, K, V
    path: bool = True  # on the main path S … O: in "every stage" of a view or figure; False for an aside
    highlight: str = ""  # "cell": the picked (Query, Key) score is marked; "row": the picked Query row; "": none

    def __post_init__(self):  # an entry whose expression names an unknown operation fails on import, naming it
        if self.expression is not None:
            expressions.checked(self.expression)

    @property
    def inputs(self):  # -> the earlier stages it is computed from; () for Q, K, V, the inputs
        return () if self.expression is None else expressions.names_in(self.expression)

    @named_arguments
    def value(self, tr):  # -> the whole array: (h, …), (g, …) or (T, …)
        return getattr(tr, self.name)

    @named_arguments
    def matrix(self, tr, head=0):  # -> [rows, cols]: what this stage shows for Query head `head`
        value = self.value(tr)
        if self.heads == "query":
            return value[head]
        if self.heads == "kv":
            return value[tr.kv_head_of(head)]
        return value

    def allowed(self, tr):  # -> [T_q, T_k] bool for a stage of Query rows and Key columns, else None
        """Where each row sees its key (M is not −∞): a weight of 0.0 there reads "0.000", in a masked cell "0"."""
        return ~np.isneginf(tr.M) if self.axes == QK else None

    @property
    def per_head(self):  # drawn once per head: a per-head stage, or M (T_q × T_k, beside each head's scores)
        return bool(self.heads) or self.axes == QK


PIPELINE = (
    Stage("Q", "Q", "values", "", ("token", "component")),
    Stage("K", "K", "values", "", ("token", "component")),
    Stage("V", "V", "values", "", ("token", "component")),
    Stage("Qh", "Qᵢ", "values", "query", ("token", "component"), ("split_heads", "Q")),
    Stage("Kh", "Kᵢ", "values", "kv", ("key", "component"), ("split_heads", "K")),
    Stage("Vh", "Vᵢ", "values", "kv", ("key", "component"), ("split_heads", "V")),
    Stage("S", "S = QKᵀ", "scores", "query", QK, ("scores", "Qh", ("by_query_head", "Kh")), highlight="cell"),
    Stage("S_scaled", "S / √dh", "scores", "query", QK, ("scale", "S"), highlight="cell"),
    Stage("M", "M", "scores", "", QK, ("mask",), highlight="cell"),
    Stage("S_masked", "S / √dh + M", "scores", "query", QK, ("add_mask", "S_scaled", "M"), highlight="row"),
    Stage("E", "E = exp(S / √dh + M − max)", "weights", "query", QK, ("row_exponentials", "S_masked"),
          highlight="row"),
    Stage("P", "P = softmax(S / √dh + M)", "weights", "query", QK, ("normalize_rows", "E"), highlight="row"),
    Stage("P_unscaled", "softmax(S + M)", "weights", "query", QK,
          ("normalize_rows", ("row_exponentials", ("add_mask", "S", "M"))), path=False, highlight="row"),
    Stage("O", "O = PV", "values", "query", ("query", "component"), ("weighted_sum", "P", ("by_query_head", "Vh")),
          highlight="row"),
    Stage("H", "H = Concat(O₁ … Oₕ)", "values", "", ("token", "component"), ("concat_heads", "O")),
)
STAGES = {s.name: s for s in PIPELINE}
INPUTS = tuple(s.name for s in PIPELINE if s.expression is None)  # Q, K, V
SPLITS = tuple(s.name for s in PIPELINE if s.inputs and set(s.inputs) <= set(INPUTS))  # Qh, Kh, Vh


def span(first, last):  # -> the names of the main-path stages from `first` to `last`, in order
    """The stages of the main path between two of them, both included: what a view of that part shows."""
    names = [s.name for s in PIPELINE]
    return tuple(n for n in names[names.index(first):names.index(last) + 1] if STAGES[n].path)


# Every stage of one head, S … O, in order: what "every stage" means in a view or a figure.
HEAD_STAGES = tuple(n for n in span("S", "O") if STAGES[n].per_head)


def run(arrays, settings, hooks=None):  # {"Q", "K", "V"}, Settings -> {name: array} for every stage, in order
    """Walk the pipeline: compute each stage from the stages before it; a hook may replace a stage's array."""
    arrays = dict(arrays)
    for stage in PIPELINE:
        if stage.expression is not None:
            arrays[stage.name] = expressions.evaluate(stage.expression, arrays, settings)
        if hooks and stage.name in hooks:
            arrays[stage.name] = _hooked(stage.name, hooks[stage.name], arrays[stage.name])
    return arrays


def _hooked(name, hook, array):
    out = np.asarray(hook(array.copy()), dtype=float)
    if out.shape != array.shape:
        raise ValueError(f"hooks: the hook of {name!r} must return an array of shape {array.shape} (the stage's "
                         f"own), got {out.shape}.")
    return out
