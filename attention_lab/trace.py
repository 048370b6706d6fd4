"""The trace of Core Attention: every intermediate tensor, named and read-only.

Like minGPT's `encode_and_show_work`, `attention_trace` returns everything it
computed, so a notebook, a figure, a widget and a test all read the same
numbers. Each stage keeps its own name and its own array: S is never
overwritten by the scaled scores, nor those by P. What each stage is (its
label, colours, axes) is in `attention_lab.stages`.

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

from . import checks, core, masks

# The arrays of a trace, in the article's order.
ARRAYS = ("Q", "K", "V", "Qh", "Kh", "Vh", "S", "S_scaled", "M", "S_masked", "P", "O", "H")


class _Stage:
    """A trace's array: each read gives a fresh read-only array over an immutable copy of the stored bytes."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, tr, owner=None):
        if tr is None:
            return self
        data, shape = tr._data[self.name]
        return np.frombuffer(bytes(memoryview(data)), dtype=float).reshape(shape)  # bytes(…) copies


class AttentionTrace:
    """Every stage of Core Attention for one Q, K, V; read-only (see the module's docstring).

    Q (T, d) · K, V (T, g·dh) · Qh (h, T, dh) · Kh, Vh (g, T, dh) ·
    S, S_scaled, S_masked, P (h, T, T) · M (T, T) · O (h, T, dh) · H (T, d).
    g = kv_heads is h unless K/V heads are shared (grouped-query attention).
    Head i is index i (0-based); token numbers in figures are 1-based, as in the article.
    """

    __slots__ = ("_data", "_mask_params", "mask_name", "scaled", "kv_heads")
    Q, K, V, Qh, Kh, Vh = _Stage(), _Stage(), _Stage(), _Stage(), _Stage(), _Stage()
    S, S_scaled, M, S_masked, P, O, H = _Stage(), _Stage(), _Stage(), _Stage(), _Stage(), _Stage(), _Stage()  # noqa: E741

    def __init__(self, Q, K, V, Qh, Kh, Vh, S, S_scaled, M, S_masked, P, O, H,  # noqa: E741
                 mask_name="causal", scaled=True, mask_params=None):
        arrays = dict(zip(ARRAYS, (Q, K, V, Qh, Kh, Vh, S, S_scaled, M, S_masked, P, O, H), strict=True))
        data = {}
        for name, value in arrays.items():
            array = np.ascontiguousarray(value, dtype=float)
            data[name] = (array.tobytes(), array.shape)  # immutable bytes: never a view of the caller's array
        set_ = object.__setattr__
        set_(self, "_data", data)
        set_(self, "_mask_params", tuple(sorted((mask_params or {}).items())))
        set_(self, "mask_name", mask_name)  # a key of masks.MASKS: "causal", "none", "sliding", …, "custom"
        set_(self, "scaled", bool(scaled))  # False only in a trace made to show what happens without the √dh
        set_(self, "kv_heads", data["Kh"][1][0])  # g: how many K/V heads (h unless shared)

    def __setattr__(self, name, value):
        raise AttributeError(f"AttentionTrace is read-only: cannot set {name!r}. Make a new trace instead.")

    def __delattr__(self, name):
        raise AttributeError(f"AttentionTrace is read-only: cannot delete {name!r}.")

    def __reduce__(self):  # pickling and copy.deepcopy rebuild a read-only trace from the same bytes
        return _restore, (self._data, self.mask_name, self.scaled, dict(self._mask_params))

    def __repr__(self):
        extra = "".join(f", {k}={v}" for k, v in self._mask_params)
        return f"AttentionTrace(T={self.T}, d={self.d}, h={self.h}, dh={self.dh}, mask={self.mask_name!r}{extra})"

    def arrays(self):  # -> {"Q": …, …, "H": …}
        """Every array of the trace by name, in the article's order (read-only copies, as each read gives)."""
        return {name: getattr(self, name) for name in ARRAYS}

    def _shape(self, name):
        return self._data[name][1]

    @property
    def mask_params(self):  # -> dict, e.g. {"window": 2} for a sliding-window mask
        return dict(self._mask_params)

    @property
    def T(self):
        return self._shape("Q")[0]

    @property
    def d(self):
        return self._shape("Q")[1]

    @property
    def h(self):
        return self._shape("Qh")[0]

    @property
    def dh(self):
        return self._shape("Qh")[2]

    def kv_head_of(self, head):  # Query head index -> K/V head index
        """Which K/V head Query head `head` reads (0-based): head // (h / g)."""
        return int(core.kv_head_index(self.h, self.kv_heads)[head])

    def shapes(self):
        """One line with the current sizes and shapes, e.g. for a widget's shape line."""
        T, d, h, dh, g = self.T, self.d, self.h, self.dh, self.kv_heads
        kv = f" · K/V heads g={g} · K, V ({T}×{g * dh})" if g != h else ""
        return (
            f"T={T} · d={d} · h={h} · dh={dh}{kv} · Q ({T}×{d}) → S ({h}×{T}×{T}) "
            f"→ P ({h}×{T}×{T}) → O ({h}×{T}×{dh}) → H ({T}×{d})"
        )


def _restore(data, mask_name, scaled, mask_params):
    arrays = [np.frombuffer(data[name][0], dtype=float).reshape(data[name][1]) for name in ARRAYS]
    return AttentionTrace(*arrays, mask_name=mask_name, scaled=scaled, mask_params=mask_params)


def check_sizes(T, d, h):
    """Raise ValueError naming the problem if T, d, h cannot make a trace."""
    T = checks.whole_number("T", T)
    d = checks.whole_number("d", d)
    h = checks.whole_number("h", h)
    if T < 1:
        raise ValueError(f"T: there must be at least one token (T ≥ 1), got T={T}.")
    if d < 1:
        raise ValueError(f"d: the model dimension must be at least 1, got d={d}.")
    if h < 1:
        raise ValueError(f"h: there must be at least one head (h ≥ 1), got h={h}.")
    if d % h:
        divisors = checks.divisors(d) if d <= 10**6 else "the divisors of d"
        raise ValueError(
            f"h: d={d} is not divisible by h={h}, so the heads cannot have equal width dh = d / h. "
            f"With d={d} use h in {divisors}, or change d to a multiple of {h}."
        )


def _check_kv(Q, K, V, h, kv_heads):  # -> g
    T, d = Q.shape
    if kv_heads is None:
        if not (Q.shape == K.shape == V.shape):
            raise ValueError(
                f"Q, K, V: must have the same shape (T, d), got Q {Q.shape}, K {K.shape}, V {V.shape}. "
                "(With kv_heads=g, K and V have g·dh columns.)"
            )
        return h
    g = checks.kv_heads(kv_heads, h)
    want = (T, g * (d // h))
    if K.shape != want or V.shape != want:
        raise ValueError(f"K, V: with h={h} heads of dh={d // h} and kv_heads={g}, K and V must have shape "
                         f"(T, g·dh) = {want}, got K {K.shape}, V {V.shape}.")
    return g


def check_qkv(Q, K, V, h, kv_heads=None):  # -> Q [T, d], K [T, g·dh], V [T, g·dh], g
    """Q, K, V as finite float matrices whose shapes fit h Query heads and g = kv_heads K/V heads, or a ValueError."""
    Q, K, V = checks.finite_matrix("Q", Q), checks.finite_matrix("K", K), checks.finite_matrix("V", V)
    check_sizes(*Q.shape, h)
    return Q, K, V, _check_kv(Q, K, V, h, kv_heads)


def head_scores(Qh, Kh):  # [h, n_q, dh], [h, n_k, dh] -> [h, n_q, n_k]
    """S = Q Kᵀ for every head, or a ValueError if a score overflows (finite Q and K can still overflow)."""
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported below as a clear error
        S = core.scores(Qh, Kh)
    if not np.isfinite(S).all():
        raise ValueError("Q, K: the scores Q·Kᵀ overflowed to ±inf; use smaller values in Q and K.")
    return S


def frozen(array):  # -> a read-only float array over its own immutable copy
    """A copy of `array` that cannot be written, resized or made writable again (for the records of a computation)."""
    array = np.ascontiguousarray(array, dtype=float)
    return np.frombuffer(array.tobytes(), dtype=float).reshape(array.shape)


def attention_trace(Q, K, V, h, mask="causal", scaled=True, *, kv_heads=None,
                    **mask_params):  # [T, d], [T, g·dh], [T, g·dh] -> AttentionTrace
    """Run Core Attention on Q, K, V split into h heads and keep every stage.

    mask: "causal" (the decoder's mask), None (no mask), "sliding" (window=w),
    "padding" (length=L), "prefix" (prefix=p), or a (T, T) boolean array where
    True means "Query token i may attend to Key token j" (see masks.MASKS).
    kv_heads=g: K and V have g heads that the h Query heads share, h/g each
    (grouped-query attention; g=1 is multi-query attention). None means g = h.
    scaled=False skips the division by √dh (S_scaled is then S): only for
    showing what the scale prevents, never how attention is computed.
    """
    Q, K, V, g = check_qkv(Q, K, V, h, kv_heads)
    T, d = Q.shape
    scaled = checks.boolean("scaled", scaled)
    M = masks.make_mask(mask, T, **mask_params)  # (T, T)
    dh = d // h

    Qh = core.split_heads(Q, h)  # (h, T, dh)
    Kh, Vh = core.split_heads(K, g), core.split_heads(V, g)  # (g, T, dh)
    shared = core.kv_head_index(h, g)  # Query head i reads K/V head i // (h/g)
    S = head_scores(Qh, Kh[shared])  # (h, T, T)
    S_scaled = core.scale(S, dh if scaled else 1)  # (h, T, T)
    S_masked = core.apply_mask(S_scaled, M)  # (h, T, T)
    P = core.softmax(S_masked)  # (h, T, T)
    O = core.weighted_sum(P, Vh[shared])  # (h, T, dh)  # noqa: E741
    H = core.concat_heads(O)  # (T, d)

    params = masks.mask_params(mask, T, mask_params)  # with the defaults filled in, for captions and repr
    return AttentionTrace(Q, K, V, Qh, Kh, Vh, S, S_scaled, M, S_masked, P, O, H, masks.mask_name(mask), scaled, params)
