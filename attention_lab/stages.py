"""The stages of Core Attention, each defined once: what the trace, the figures and the explorer read.

A `Stage` says what one matrix of a trace is: its name (the trace's field),
its formula as the article writes it, its label in Korean and English, its
kind (which colour scale and number format), whether there is one per head,
what its rows and columns are, and which breakdown highlights it. `STAGES`
holds them in the article's order; adding a stage is one entry and its tests.

    from attention_lab.stages import STAGES
    STAGES["S_scaled"].label["ko"]           # "S / √dh"
    STAGES["P"].matrix(tr, head=0)           # Head 1's P, (T, T)
"""

from dataclasses import dataclass

from . import core


@dataclass(frozen=True)
class Stage:
    """One matrix of Core Attention, as every renderer shows it."""

    name: str  # the trace's field, e.g. "S_scaled"
    formula: str  # as the article writes it, language-free: "S / √dh"
    label: dict  # {"ko": …, "en": …}: a heatmap's title
    kind: str  # "scores" | "weights" | "values": colour scale and number format (see style)
    heads: str  # "query": one per head (h, …); "kv": one per K/V head (g, …); "": one for the whole trace
    axes: tuple  # (rows, cols): "query", "key", "token" or "component" — what a row and a column are
    highlight: str = ""  # "cell": the picked (Query, Key) score is marked; "row": the picked Query row; "": none
    read: object = None  # trace -> array; None reads the trace's field of the same name

    def value(self, tr):  # -> the whole array: (h, …), (g, …) or (T, …)
        return getattr(tr, self.name) if self.read is None else self.read(tr)

    def matrix(self, tr, head=0):  # -> [rows, cols]: what this stage shows for Query head `head`
        value = self.value(tr)
        if self.heads == "query":
            return value[head]
        if self.heads == "kv":
            return value[tr.kv_head_of(head)]
        return value


def _unscaled_weights(tr):  # -> [h, T, T]
    """P as it would be without the √dh: softmax(S + M), to show what the scale prevents (notebook 03)."""
    return core.softmax(core.apply_mask(tr.S, tr.M))


_QK, _TC = ("query", "key"), ("token", "component")
STAGES = {s.name: s for s in (
    Stage("Q", "Q", {"ko": "Q", "en": "Q"}, "values", "", _TC),
    Stage("K", "K", {"ko": "K", "en": "K"}, "values", "", _TC),
    Stage("V", "V", {"ko": "V", "en": "V"}, "values", "", _TC),
    Stage("Qh", "Qᵢ", {"ko": "Q (Query)", "en": "Q (Query rows)"}, "values", "query", _TC),
    Stage("Kh", "Kᵢ", {"ko": "K (Key)", "en": "K (Key rows)"}, "values", "kv", ("key", "component")),
    Stage("Vh", "Vᵢ", {"ko": "V (Value)", "en": "V (Value rows)"}, "values", "kv", ("key", "component")),
    Stage("S", "S = QKᵀ", {"ko": "점수 행렬 S = QKᵀ", "en": "S = QKᵀ (scores)"}, "scores", "query", _QK, "cell"),
    Stage("S_scaled", "S / √dh", {"ko": "S / √dh", "en": "S / √dh"}, "scores", "query", _QK, "cell"),
    Stage("M", "M", {"ko": "마스크 M", "en": "M (mask)"}, "scores", "", _QK, "cell"),
    Stage("S_masked", "S / √dh + M", {"ko": "S / √dh + M", "en": "S / √dh + M"}, "scores", "query", _QK, "row"),
    Stage("P", "P = softmax(S / √dh + M)", {"ko": "가중치 P = softmax(S / √dh + M)", "en": "P = softmax(S / √dh + M)"},
          "weights", "query", _QK, "row"),
    Stage("P_unscaled", "softmax(S + M)", {"ko": "√dh로 나누지 않은 P = softmax(S + M)",
                                           "en": "P without ÷ √dh = softmax(S + M)"},
          "weights", "query", _QK, "row", _unscaled_weights),
    Stage("O", "O = PV", {"ko": "출력 O = PV", "en": "O = PV (output)"}, "values", "query", ("query", "component"),
          "row"),
    Stage("H", "H = Concat(O₁ … Oₕ)", {"ko": "H = Concat(O₁ … Oₕ)", "en": "H = Concat(O₁ … Oₕ)"}, "values", "",
          _TC),
)}

# The stages of one head in the article's order, S to O: what "every stage" means in a figure or a view.
HEAD_STAGES = ("S", "S_scaled", "M", "S_masked", "P", "O")

