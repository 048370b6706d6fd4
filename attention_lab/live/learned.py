"""Notebook 13's learned model as a source of the explorer: an input typed in the page → X → Q, K, V → every stage.

    ex = learned_explorer("CABDDA", lang="ko")     # the shipped weights (learned.npz), the article's view "all"
    ex.controls["tokens"].value = "ABCDAB"          # what typing an input in the page does
    ex.save_html("learned.html")                    # the same, live in one page with no Python

The weights travel once in the page's config (`config["data"]["learned"]`), read from the .npz by Python, the
one source of them; the page's live/learned.js computes X = E_tok[x] + E_pos and Q, K, V = X W_Q, X W_K, X W_V
from them, and the explorer draws every stage as for your own Q, K, V. `parse_tokens` is the rule both sides
apply to a typed input, its table (tiny_model.READING) sent to the page as data; tests/test_learned_live.py holds
the page to it, and to `tiny_model.forward`.
"""

import numpy as np

from ..look import words
from ..numeric import tiny_model as tm
from ..numeric import training
from .controls import Control
from .state import trace_of
from .widget import Explorer

SENT = ("E_tok", "E_pos", "W_Q", "W_K", "W_V")  # what the page needs to make Q, K, V (the rest is past H)


def parse_tokens(typed):  # -> (token indices [T], None) or (None, (message key, detail))
    """A typed input as the page reads it (tiny_model.READING: blanks at the ends dropped, letters in either case
    and full width); a letter that is not a token, or a count other than T, is a problem named by its word-table
    key."""
    letters = tm.read_letters(typed)
    bad = [c for c in dict.fromkeys(letters) if c not in tm.TOKENS]
    if bad:
        return None, ("learned_letters", "".join(bad))
    if len(letters) != tm.T:
        return None, ("learned_count", len(letters))
    return np.array([tm.TOKENS.index(c) for c in letters]), None


def learned_qkv(weights, tokens):  # weights, [T] int -> {"Q", "K", "V"}: (T, d) each
    """Q, K, V of one input, by the model's own forward pass (tiny_model.forward)."""
    run = tm.forward(weights, tokens)
    return {name: run[name][0] for name in "QKV"}


def problem_text(problem, lang):  # (key, detail) -> the line the page shows under the input
    key, detail = problem
    return words.table(lang)[key].format(bad=detail, n=detail, T=tm.T, letters=" ".join(tm.TOKENS))


class LearnedExplorer(Explorer):
    """The explorer of the learned model: your own Q, K, V, made from an input and the trained weights."""

    def __init__(self, tokens="CABDDA", *, weights=None, lang="en", view="all"):
        weights = training.load_weights() if weights is None else weights
        weights, h = tm.check_weights(weights)
        x = tm.encode(tokens)  # a ValueError naming the wrong letter or count (parse_tokens' rule)
        self._weights = weights
        qkv = learned_qkv(weights, x)
        super().__init__(Q=qkv["Q"], K=qkv["K"], V=qkv["V"], h=h, lang=lang, view=view, mask="causal")
        self._own["tokens"] = tm.decode(x)
        self._base = {**self._base, "source": "learned"}
        with self._from_python():
            self.state = {**self.state, "source": "learned"}
        self.controls = {"tokens": Control(self, "tokens"), **self.controls}  # the input box, first of all
        data = self.config["data"]
        self.config = {**self.config, "data": {
            **data, "own": {**data["own"], "tokens": tm.decode(x)},
            "learned": {"tokens": list(tm.TOKENS), "T": tm.T, "reading": tm.READING,
                        **{n: weights[n].tolist() for n in SENT}}}}

    def page_config(self):
        config = super().page_config()
        config["data"]["own"]["tokens"] = self._own["tokens"]
        return config

    def _set(self, name, value):
        if name != "tokens":
            return super()._set(name, value)
        x = tm.encode(value)
        own = {**self._own, **learned_qkv(self._weights, x), "tokens": tm.decode(x)}
        self._own, self.trace = own, trace_of(self.resolved, own)
        with self._from_python():
            self.own = {n: own[n].tolist() for n in "QKV"} | {"tokens": own["tokens"]}
        self.step += 1

    def _on_own(self, change):  # the page computed Q, K, V for a new input: take its letters too
        step = self.step
        super()._on_own(change)
        x, problem = parse_tokens((change["new"] or {}).get("tokens", self._own["tokens"]))
        if self.step > step and problem is None:  # Q, K, V were taken
            self._own["tokens"] = tm.decode(x)


def learned_explorer(tokens="CABDDA", *, lang="en", view="all", weights=None):  # -> LearnedExplorer
    """The explorer of notebook 13's learned model: type an input of 6 tokens from A B C D, and the page computes
    X → Q, K, V → every stage from the trained weights (by default the ones that ship, learned.npz)."""
    return LearnedExplorer(tokens, weights=weights, lang=lang, view=view)
