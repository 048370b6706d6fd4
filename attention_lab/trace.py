"""The trace of Core Attention: every intermediate tensor, named and read-only.

Like minGPT's `encode_and_show_work`, `attention_trace` returns everything it
computed, so a notebook, a figure, a widget and a test all read the same
numbers. Each stage keeps its own name and its own array: S is never
overwritten by the scaled scores, nor those by P.
"""

from dataclasses import dataclass, field

import numpy as np

from . import core
from .masks import make_mask

# The stages of one head, in the article's order, with what each one is.
STAGES = {
    "S": "S = Q Kᵀ",
    "S_scaled": "S / √dh",
    "M": "M",
    "S_masked": "S / √dh + M",
    "P": "P = softmax(S / √dh + M)",
    "O": "O = P V",
}


@dataclass(frozen=True)
class AttentionTrace:
    """Every stage of Core Attention for one Q, K, V; all arrays are read-only.

    Q, K, V (T, d) · Qh, Kh, Vh (h, T, dh) · S, S_scaled, S_masked, P (h, T, T)
    · M (T, T) · O (h, T, dh) · H (T, d). Head i is index i (0-based); token
    numbers in figures are 1-based, as in the article.
    """

    Q: np.ndarray
    K: np.ndarray
    V: np.ndarray
    Qh: np.ndarray
    Kh: np.ndarray
    Vh: np.ndarray
    S: np.ndarray
    S_scaled: np.ndarray
    M: np.ndarray
    S_masked: np.ndarray
    P: np.ndarray
    O: np.ndarray  # noqa: E741 -- the article's name for the output
    H: np.ndarray
    mask_name: str = field(default="causal")  # "causal", "none" or "custom"
    scaled: bool = True  # False only in a trace made to show what happens without the √dh

    def __post_init__(self):
        for name in ("Q", "K", "V", "Qh", "Kh", "Vh", "S", "S_scaled", "M", "S_masked", "P", "O", "H"):
            frozen = np.array(getattr(self, name), dtype=float)  # a copy, never a view of the caller's array
            frozen.setflags(write=False)
            object.__setattr__(self, name, frozen)

    @property
    def T(self):
        return self.Q.shape[0]

    @property
    def d(self):
        return self.Q.shape[1]

    @property
    def h(self):
        return self.Qh.shape[0]

    @property
    def dh(self):
        return self.Qh.shape[2]

    def shapes(self):
        """One line with the current sizes and shapes, e.g. for a widget's shape line."""
        T, d, h, dh = self.T, self.d, self.h, self.dh
        return (
            f"T={T} · d={d} · h={h} · dh={dh} · Q ({T}×{d}) → S ({h}×{T}×{T}) "
            f"→ P ({h}×{T}×{T}) → O ({h}×{T}×{dh}) → H ({T}×{d})"
        )


def _as_matrix(name, X):  # any -> [T, d] float
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: must be a 2-D array of numbers (T tokens × d components).") from None
    if X.ndim != 2:
        raise ValueError(
            f"{name}: must be 2-D with shape (T, d) — one row per token — got {X.ndim}-D shape {X.shape}. "
            "Pass all heads together as (T, d); the heads are split for you with `h`."
        )
    if not np.isfinite(X).all():
        raise ValueError(
            f"{name}: contains NaN or ±inf. Q, K and V must be finite numbers; to hide tokens, use `mask`."
        )
    return X


def check_sizes(T, d, h):
    """Raise ValueError naming the problem if T, d, h cannot make a trace."""
    for name, value in (("T", T), ("d", d), ("h", h)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"{name}: must be a whole number, got {value!r}.")
    if T < 1:
        raise ValueError(f"T: there must be at least one token (T ≥ 1), got T={T}.")
    if d < 1:
        raise ValueError(f"d: the model dimension must be at least 1, got d={d}.")
    if h < 1:
        raise ValueError(f"h: there must be at least one head (h ≥ 1), got h={h}.")
    if d % h:
        divisors = [n for n in range(1, d + 1) if d % n == 0]
        raise ValueError(
            f"h: d={d} is not divisible by h={h}, so the heads cannot have equal width dh = d / h. "
            f"With d={d} use h in {divisors}, or change d to a multiple of {h}."
        )


def attention_trace(Q, K, V, h, mask="causal", scaled=True):  # [T, d], [T, d], [T, d] -> AttentionTrace
    """Run Core Attention on Q, K, V split into h heads and keep every stage.

    mask: "causal" (the decoder's mask), None (no mask), or a (T, T) boolean
    array where True means "Query token i may attend to Key token j".
    scaled=False skips the division by √dh (S_scaled is then S): only for
    showing what the scale prevents, never how attention is computed.
    """
    Q, K, V = _as_matrix("Q", Q), _as_matrix("K", K), _as_matrix("V", V)
    if not (Q.shape == K.shape == V.shape):
        raise ValueError(
            f"Q, K, V: must have the same shape (T, d), got Q {Q.shape}, K {K.shape}, V {V.shape}."
        )
    T, d = Q.shape
    check_sizes(T, d, h)
    M = make_mask(mask, T)  # (T, T)
    dh = d // h

    Qh, Kh, Vh = core.split_heads(Q, h), core.split_heads(K, h), core.split_heads(V, h)  # (h, T, dh)
    with np.errstate(over="ignore"):  # an overflow is reported below as a clear error, not a warning
        S = core.scores(Qh, Kh)  # (h, T, T)
    if not np.isfinite(S).all():
        raise ValueError("Q, K: the scores Q·Kᵀ overflowed to ±inf; use smaller values in Q and K.")
    S_scaled = core.scale(S, dh if scaled else 1)  # (h, T, T)
    S_masked = core.apply_mask(S_scaled, M)  # (h, T, T)
    P = core.softmax(S_masked)  # (h, T, T)
    O = core.weighted_sum(P, Vh)  # (h, T, dh)  # noqa: E741
    H = core.concat_heads(O)  # (T, d)

    mask_name = "none" if mask is None else mask if isinstance(mask, str) else "custom"
    return AttentionTrace(Q, K, V, Qh, Kh, Vh, S, S_scaled, M, S_masked, P, O, H, mask_name, scaled)
