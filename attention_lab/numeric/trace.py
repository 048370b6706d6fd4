"""The trace of Core Attention: every intermediate tensor, named and read-only.

Like minGPT's `encode_and_show_work`, `attention_trace` returns everything it
computed, so a notebook, a figure, a widget and a test all read the same
numbers. It walks `pipeline.PIPELINE`: each stage keeps its own name and its
own array (S is never overwritten by the scaled scores, nor those by P), and
the trace's fields are the pipeline's stages, in its order.

What "read-only" guarantees: nothing done to an array read from a trace can
change the trace. Each read (`tr.P`) gives a new read-only array over its own
immutable copy of the data: it cannot be written, resized or made writable
again (`setflags(write=True)` raises), and even code that writes through a
view of its memory (e.g. `torch.from_numpy(tr.P).zero_()`) changes that copy
only, never the trace. The trace itself accepts no new attributes, and
`copy.deepcopy` and pickling give traces with the same guarantees. Keep an
array in a variable when you read it in a loop: each read copies it.
"""

import numpy as np

from . import checks, core, masks, pipeline
from .calls import named_arguments
from .pipeline import STAGES

ARRAYS = tuple(STAGES)  # the trace's arrays, in the pipeline's order
# Peak bytes of a trace per (Query head, Query token, Key token), and per (Query token, Key token) for the mask:
# tracemalloc's peak is 102–118 bytes per value at T = 512–2048, h = 1–4 (its stages, their stored copies and
# the temporaries of computing them: about 13 float64 arrays of (h, T_q, T_k)).
BYTES_PER_SCORE, BYTES_PER_MASK_CELL = 13 * 8, 2 * 8


def check_fits(h, T_q, T_k, name="Q, K"):  # raise a ValueError naming `name` unless a trace of these sizes fits
    """A trace keeps every stage: refuse, before anything is computed, sizes whose trace the machine cannot hold."""
    checks.fits(name, (BYTES_PER_SCORE * h + BYTES_PER_MASK_CELL) * T_q * T_k,
                f"a trace keeps every stage, (h, T_q, T_k) = ({h:,}, {T_q:,}, {T_k:,}) values each, and",
                "use blockwise_attention(…) for long inputs: it never makes a (T_q, T_k) array.")


class _Field:
    """A trace's array: each read gives a fresh read-only array over an immutable copy of the stored bytes."""

    def __init__(self, name):
        self.name = name
        self.__doc__ = f"{name}: {STAGES[name].formula}"

    def __get__(self, tr, owner=None):
        if tr is None:
            return self
        data, shape = tr._data[self.name]
        return np.frombuffer(bytes(memoryview(data)), dtype=float).reshape(shape)  # bytes(…) copies


class AttentionTrace:
    """Every stage of Core Attention for one Q, K, V; read-only (see the module's docstring).

    Q (T_q, d) · K, V (T_k, g·dh) · Qh (h, T_q, dh) · Kh, Vh (g, T_k, dh) ·
    S, S_scaled, S_masked, E, P, P_unscaled (h, T_q, T_k) · M (T_q, T_k) · O (h, T_q, dh) · H (T_q, d).
    g = kv_heads is h unless K/V heads are shared (grouped-query attention). T is T_q = T_k when they agree.
    Head i is index i (0-based); token numbers in figures are 1-based, as in the article.
    """

    __slots__ = ("_data", "mask", "scaled")

    def __init__(self, arrays, mask, scaled=True):
        """arrays: {name: array} with every stage of the pipeline; mask: the checked `masks.Mask` it was made with."""
        data = {}
        for name in ARRAYS:
            array = np.ascontiguousarray(arrays[name], dtype=float)
            data[name] = (array.tobytes(), array.shape)  # immutable bytes: never a view of the caller's array
        set_ = object.__setattr__
        set_(self, "_data", data)
        set_(self, "mask", mask)  # a masks.Mask with every parameter filled in
        set_(self, "scaled", bool(scaled))  # False only in a trace made to show what happens without the √dh

    def __setattr__(self, name, value):
        raise AttributeError(f"AttentionTrace is read-only: cannot set {name!r}. Make a new trace instead.")

    def __delattr__(self, name):
        raise AttributeError(f"AttentionTrace is read-only: cannot delete {name!r}.")

    def __reduce__(self):  # pickling and copy.deepcopy rebuild a read-only trace from the same bytes
        return _restore, (self._data, self.mask, self.scaled)

    def __repr__(self):
        extra = "".join(f", {k}={v}" for k, v in self.mask_params.items())
        sizes = f"T={self.T_q}" if self.T_q == self.T_k else f"T_q={self.T_q}, T_k={self.T_k}"
        return f"AttentionTrace({sizes}, d={self.d}, h={self.h}, dh={self.dh}, mask={self.mask_name!r}{extra})"

    @named_arguments
    def arrays(self):  # -> {"Q": …, …, "H": …}
        """Every array of the trace by name, in the pipeline's order (read-only copies, as each read gives)."""
        return {name: getattr(self, name) for name in ARRAYS}

    def _shape(self, name):
        return self._data[name][1]

    @property
    def mask_name(self):  # -> a key of masks.MASKS: "causal", "none", "sliding", …, "custom"
        return self.mask.name

    @property
    def mask_params(self):  # -> dict, e.g. {"window": 2} for a sliding-window mask
        return dict(self.mask.params)

    @property
    def T_q(self):  # Query tokens
        return self._shape("Q")[0]

    @property
    def T_k(self):  # Key tokens
        return self._shape("K")[0]

    @property
    def T(self):  # tokens, when there are as many Query tokens as Key tokens
        if self.T_q != self.T_k:
            raise ValueError(f"T: this trace has T_q={self.T_q} Query tokens and T_k={self.T_k} Key tokens; "
                             "read tr.T_q or tr.T_k.")
        return self.T_q

    @property
    def d(self):
        return self._shape("Q")[1]

    @property
    def h(self):
        return self._shape("Qh")[0]

    @property
    def dh(self):
        return self._shape("Qh")[2]

    @property
    def kv_heads(self):  # g: how many K/V heads (h unless shared)
        return self._shape("Kh")[0]

    @named_arguments
    def kv_head_of(self, head):  # Query head index -> K/V head index
        """Which K/V head Query head `head` reads (0-based): head // (h / g)."""
        head = checks.whole_number("head", head, 0, self.h - 1, f" Heads are 0-based: head=0 is Head 1 of {self.h}.")
        return int(core.kv_head_index(self.h, self.kv_heads)[head])

    @named_arguments
    def shapes(self):
        """One line with the current sizes and shapes, e.g. for a widget's shape line."""
        T_q, T_k, d, h, dh, g = self.T_q, self.T_k, self.d, self.h, self.dh, self.kv_heads
        tokens = f"T={T_q}" if T_q == T_k else f"T_q={T_q} · T_k={T_k}"
        kv = f" · K/V heads g={g} · K, V ({T_k}×{g * dh})" if g != h or T_q != T_k else ""
        return (f"{tokens} · d={d} · h={h} · dh={dh}{kv} · Q ({T_q}×{d}) → S ({h}×{T_q}×{T_k}) "
                f"→ P ({h}×{T_q}×{T_k}) → O ({h}×{T_q}×{dh}) → H ({T_q}×{d})")


for _name in ARRAYS:  # the trace's fields are the pipeline's stages
    setattr(AttentionTrace, _name, _Field(_name))


def _restore(data, mask, scaled):
    arrays = {name: np.frombuffer(data[name][0], dtype=float).reshape(data[name][1]) for name in ARRAYS}
    return AttentionTrace(arrays, mask, scaled)


def settings_of(Q, K, V, h, mask="causal", scaled=True, kv_heads=None):  # -> (Q, K, V, pipeline.Settings)
    """The checked inputs of a trace and what the pipeline computes them with, or a ValueError naming the problem."""
    h = checks.whole_number("h", h)  # an int: the sizes below must not wrap around as NumPy integers
    Q, K, V, g = checks.qkv(Q, K, V, h, kv_heads)
    (T_q, d), T_k = Q.shape, K.shape[0]
    check_fits(h, T_q, T_k)
    scaled = checks.boolean("scaled", scaled)
    checked = masks.to_mask(mask).checked(T_q, T_k)
    return Q, K, V, pipeline.Settings(h=h, g=g, dh=d // h, T_q=T_q, T_k=T_k, mask=checked, scaled=scaled)


@named_arguments
def attention_trace(Q, K, V, h, mask="causal", scaled=True, *, kv_heads=None,
                    hooks=None):  # [T_q, d], [T_k, g·dh], [T_k, g·dh] -> AttentionTrace
    """Run Core Attention on Q, K, V split into h heads and keep every stage of the pipeline.

    mask: "causal" (the decoder's mask), None (no mask), a name of masks.MASKS,
    a Mask (e.g. Mask("sliding", window=2), Mask("causal", align="top-left")),
    or a (T_q, T_k) boolean array where True means "Query token i may attend to
    Key token j". With T_q < T_k the Query rows are the last T_q tokens
    (bottom-right alignment, as decoding with a KV cache) unless the mask says
    align="top-left".
    kv_heads=g: K and V have g heads that the h Query heads share, h/g each
    (grouped-query attention; g=1 is multi-query attention). None means g = h.
    scaled=False skips the division by √dh (S_scaled is then S): only for
    showing what the scale prevents, never how attention is computed.
    hooks: {stage name: function(array) -> array} replaces a stage's array as it
    is computed (e.g. to zero one head's P); the stages after it read the result.
    """
    Q, K, V, settings = settings_of(Q, K, V, h, mask, scaled, kv_heads)
    if hooks is not None:
        if not isinstance(hooks, dict) or not all(name in STAGES and callable(f) for name, f in hooks.items()):
            raise ValueError(f"hooks: must be a dict of stage name → function, the names from {list(STAGES)}; "
                             f"got {hooks!r:.80}.")
    arrays = pipeline.run({"Q": Q, "K": K, "V": V}, settings, hooks)
    if not np.isfinite(arrays["S"]).all():  # only a score truly beyond ±1.8e308 (P·V never overflows: exact)
        raise ValueError("Q, K: the scores Q·Kᵀ overflowed to ±inf; use smaller values in Q and K.")
    return AttentionTrace(arrays, settings.mask, settings.scaled)
