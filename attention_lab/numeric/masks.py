"""Masks: which Key tokens each Query token may attend to, and the additive M (0 / −∞) built from that.

A mask is added to the scaled scores (S/√dh + M), so −∞ removes a score and
the softmax turns it into a weight of exactly 0. True −∞ is used, never a
large negative number such as −1e9, which would leave a small non-zero weight
(and, in a row where everything is masked, spread the weight evenly over
tokens that should not be seen at all).

Every kind of mask is one entry of `MASKS`: its name, its parameters and a
rule saying, for a Query token at position p and a Key token at position j,
whether p may see j. Its words (label, caption, where it is used) are in
`attention_lab.look.words` under "mask.<name>…". The trace, the explorer, the
figures and the figures command all read `MASKS`; adding a mask is one entry
here and its words there.

A mask travels as one value, a `Mask`: its name, its parameters and its
alignment, never as loose keywords beside a function's own:

    Mask("causal")                          # the decoder's mask
    Mask("sliding", window=2)               # itself and the token before it
    Mask("packed", lengths=(3, 2, 4))       # three sequences in one row, each causal, blind to the others
    Mask("causal", align="top-left")        # SDPA's is_causal=True when T_q ≠ T_k

With T_q Query tokens and T_k Key tokens, Query token i sits at position
i + T_k − T_q ("bottom-right": the last Query token lines up with the last Key
token, what decoding with a KV cache means) or at position i ("top-left":
PyTorch's scaled_dot_product_attention with is_causal=True). With T_q = T_k
both are the same. A Query token that may see nothing (bottom-right with
T_q > T_k has such rows; so do padding rows) gets weights and output 0, never NaN.
"""

from dataclasses import dataclass
from difflib import get_close_matches

import numpy as np

from . import calls, checks
from .calls import named_arguments

ALIGNS = ("bottom-right", "top-left")
# Peak bytes per (Query token, Key token): the boolean `allowed` and a rule's temporaries (tracemalloc: 2.0–2.05),
# and M, float64, besides it (9.0–9.25).
BYTES_ALLOWED, BYTES_ADDITIVE = 3, 10


@dataclass(frozen=True)
class Param:
    """A whole-number parameter of a mask, e.g. the window w of a sliding-window mask, bounded for T_k Key tokens."""

    name: str
    default: int
    lo: int  # the smallest value
    hi_T: int  # the largest value is T_k + hi_T (e.g. 0: at most T_k; −1: at most T_k − 1)

    def bounds(self, T):  # -> (lo, hi) for T Key tokens
        return self.lo, max(self.lo, T + self.hi_T)

    def default_for(self, T):
        lo, hi = self.bounds(T)
        return min(max(self.default, lo), hi)

    def values(self, T):  # -> every value a control offers for T Key tokens
        lo, hi = self.bounds(T)
        return tuple(range(lo, hi + 1))

    def check(self, value, T, where):  # -> int
        return checks.whole_number(self.name, value, *self.bounds(T), f" (the {self.name} of Mask({where!r}) for "
                                                                      f"{T} Key tokens)")

    def text(self, value):  # -> how a control or a caption writes the value
        return str(value)


@dataclass(frozen=True)
class Lengths:
    """A parameter that is a tuple of whole numbers ≥ 1 adding up to T_k: the lengths of packed sequences."""

    name: str
    most_parts: int = 3  # the explorer offers every split of T_k into at most this many sequences

    def default_for(self, T):  # T = 6 -> (3, 3); T = 3 -> (2, 1)
        return tuple(n for n in ((T + 1) // 2, T // 2) if n)

    def values(self, T):  # -> every split of T into 1 … most_parts lengths, in order
        found = []

        def split(rest, parts, prefix):
            if rest == 0:
                found.append(prefix)
            elif parts:
                for n in range(1, rest + 1):
                    split(rest - n, parts - 1, (*prefix, n))

        split(T, self.most_parts, ())
        return tuple(sorted(found, key=lambda t: (len(t), t)))

    def check(self, value, T, where):  # -> tuple of int
        name = self.name
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__") or not hasattr(value, "__len__"):
            also = " (an iterator such as map(…) is read once: pass tuple(…) of it)" if hasattr(value, "__iter__") \
                else ""
            raise ValueError(f"{name}: must be a tuple of sequence lengths adding up to T_k={T}, e.g. "
                             f"{self.default_for(T)}; got {type(value).__name__} {value!r:.60}{also}.")
        if len(value) > T:  # each sequence has a token at least: refuse before reading a million of them
            raise ValueError(f"{name}: {len(value):,} sequence lengths for T_k={T} Key tokens; each sequence has at "
                             f"least one token, so give at most {T} lengths adding up to {T}, e.g. "
                             f"{self.default_for(T)}.")
        lengths = tuple(checks.whole_number(name, x, 1, T, f" (sequence {n + 1} of {len(value)})")
                        for n, x in enumerate(value))
        if sum(lengths) != T:
            raise ValueError(f"{name}: the sequence lengths {lengths} add up to {sum(lengths)}, but there are "
                             f"T_k={T} Key tokens; give lengths that add up to {T}, e.g. {self.default_for(T)}.")
        return lengths

    def text(self, value):  # (3, 2, 4) -> "3 + 2 + 4"
        return " + ".join(map(str, value))


@dataclass(frozen=True)
class MaskKind:
    """One kind of mask: `rule(p, j, T, **params)` is True where a Query token at position p may see Key token j.

    p is an (n, 1) array of Query positions and j a (1, m) array of Key positions, so a rule is one NumPy
    expression; T is the number of Key tokens. Positions count from 0.
    """

    name: str
    rule: object  # (p, j, T, **params) -> bool array; None for "custom"
    params: tuple = ()  # of Param / Lengths


def _segment(lengths, positions, T):  # -> the sequence each position belongs to; −1 outside 0 … T − 1
    starts = np.cumsum((0, *lengths))[:-1]
    inside = (positions >= 0) & (positions < T)
    return np.where(inside, np.searchsorted(starts, positions, side="right") - 1, -1)


# Each rule is one line over positions: p for Query tokens (down), j for Key tokens (across).
MASKS = {m.name: m for m in (
    MaskKind("causal", lambda p, j, T: j <= p),
    MaskKind("none", lambda p, j, T: np.ones(np.broadcast_shapes(p.shape, j.shape), dtype=bool)),
    MaskKind("sliding", lambda p, j, T, window: (j <= p) & (j > p - window),
             (Param("window", default=2, lo=1, hi_T=0),)),
    MaskKind("window", lambda p, j, T, left, right: (j >= p - left) & (j <= p + right),
             (Param("left", default=1, lo=0, hi_T=-1), Param("right", default=1, lo=0, hi_T=-1))),
    MaskKind("padding", lambda p, j, T, length: (j <= p) & (j < length) & (p < length),
             (Param("length", default=2, lo=0, hi_T=0),)),
    MaskKind("prefix", lambda p, j, T, prefix: (j <= p) | ((p < prefix) & (j < prefix)),
             (Param("prefix", default=2, lo=0, hi_T=0),)),
    MaskKind("packed", lambda p, j, T, lengths: (j <= p) & (_segment(lengths, p, T) == _segment(lengths, j, T)),
             (Lengths("lengths"),)),
    MaskKind("custom", None),
)}
MASK_NAMES = tuple(name for name, kind in MASKS.items() if kind.rule is not None)  # the masks chosen by name


def owners(param):  # -> the names of the masks that take a parameter of this name
    """Which masks take a parameter `param` (what a message says of a misplaced `window=2`)."""
    return [kind.name for kind in MASKS.values() if any(p.name == param for p in kind.params)]


def aligned(mask):  # -> bool: whether where the Query rows sit changes which Key tokens the mask lets them see
    """False for a mask array (it says itself which Key tokens each row sees) and for a rule that never reads the
    Query row's position ("none"): an alignment given with such a mask changes nothing, and is refused."""
    mask = to_mask(mask)
    if mask.name == "custom":
        return False
    one_row = [Mask(mask.name, align=align).allowed(1, 4) for align in ALIGNS]  # one Query row, 4 Key tokens
    return not np.array_equal(*one_row)


def _in_a_mask(key):  # -> "mask=Mask('sliding', window=…)" for a mask parameter's name, or None
    return " or ".join(f"mask=Mask({o!r}, {key}=…)" for o in owners(key)) or None


calls.WHERE_ELSE.append(_in_a_mask)  # a function called with window=2 says which mask takes it


class Mask:
    """A mask as one value: a name of `MASKS`, its parameters, and where the Query rows sit ("bottom-right").

        Mask("sliding", window=2)
        Mask("causal", align="top-left")
        Mask.of(allowed)          # a boolean (T_q, T_k) array of your own: True = may attend

    Parameters left out take their defaults for the number of Key tokens (see `checked`).
    """

    __slots__ = ("name", "params", "align", "_allowed")

    def __init__(self, name, /, *, align="bottom-right", **params):
        if not isinstance(name, str) or name not in MASK_NAMES:
            close = get_close_matches(str(name), MASK_NAMES, n=1)
            also = f" Did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"mask: unknown mask name {name!r}.{also} Use one of {', '.join(map(repr, MASK_NAMES))}, "
                             "None for no mask, or a (T_q, T_k) boolean array where True means 'may attend'.")
        known = {p.name for p in MASKS[name].params}
        for key in params:
            if key not in known:
                raise ValueError(_unknown_param(name, key, known))
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "params", tuple(sorted(params.items())))
        set_(self, "align", checks.choice("align", align, ALIGNS))
        set_(self, "_allowed", None)

    @classmethod
    @named_arguments
    def of(cls, allowed):  # [T_q, T_k] bool -> Mask("custom")
        """A mask of your own: a boolean array, True where Query token i may attend to Key token j."""
        array = checks.boolean_matrix("mask", allowed, "Convert it with `mask.astype(bool)` or build it with a "
                                      "comparison such as `j <= i`.")
        spec = object.__new__(cls)
        for key, value in (("name", "custom"), ("params", ()), ("align", "bottom-right"), ("_allowed", array)):
            object.__setattr__(spec, key, value)
        spec._allowed.setflags(write=False)
        return spec

    def __setattr__(self, name, value):
        raise AttributeError("Mask is read-only; make a new one, e.g. Mask('sliding', window=3).")

    def __eq__(self, other):
        if not isinstance(other, Mask):
            return NotImplemented
        same = (self.name, self.params, self.align) == (other.name, other.params, other.align)
        if self._allowed is None or other._allowed is None:
            return same and self._allowed is other._allowed
        return same and np.array_equal(self._allowed, other._allowed)

    def __hash__(self):
        return hash((self.name, self.params, self.align))

    def __repr__(self):
        if self.name == "custom":
            return f"Mask.of(<{self._allowed.shape[0]}×{self._allowed.shape[1]} bool>)"
        args = [repr(self.name), *(f"{k}={v!r}" for k, v in self.params)]
        if self.align != "bottom-right":
            args.append(f"align={self.align!r}")
        return f"Mask({', '.join(args)})"

    def __reduce__(self):
        if self.name == "custom":
            return Mask.of, (self._allowed,)
        return _mask, (self.name, self.align, dict(self.params))

    @property
    def kind(self):  # -> MaskKind
        return MASKS[self.name]

    @named_arguments
    def param(self, name):  # -> the value of one parameter, e.g. Mask("sliding", window=2).param("window") == 2
        given = dict(self.params)
        if name not in given:
            takes = ", ".join(p.name for p in self.kind.params) or "no parameters"
            raise ValueError(f"name: {self!r} has no parameter {name!r} given; {self.name!r} takes {takes} (a "
                             "parameter left out takes its default: read it from mask.checked(T_q, T_k)).")
        return given[name]

    @named_arguments
    def checked(self, T_q, T_k):  # -> Mask with every parameter given, each checked for T_k Key tokens
        """This mask for T_q Query and T_k Key tokens: defaults filled in, every value checked (ValueError if not)."""
        if self._allowed is not None:
            if self._allowed.shape != (T_q, T_k):
                raise ValueError(f"mask: a mask array must have shape (T_q, T_k) = ({T_q}, {T_k}), got "
                                 f"{self._allowed.shape}. Row i is Query token i, column j is Key token j.")
            return self
        given = dict(self.params)
        values = {p.name: p.check(given[p.name], T_k, self.name) if p.name in given else p.default_for(T_k)
                  for p in self.kind.params}
        return _mask(self.name, self.align, values)

    @named_arguments
    def allowed(self, T_q, T_k=None, *, rows=None, cols=None):  # -> [T_q, T_k] bool (or the block rows × cols)
        """Which Key tokens each Query token may see; rows=range(a, b), cols=range(c, e) give only that block,
        computed from the same rule without the whole (T_q, T_k) matrix (blockwise attention needs that)."""
        T_q, T_k = _tokens(T_q, T_k)
        spec = self.checked(T_q, T_k)
        rows, cols = _index_range("rows", rows, T_q), _index_range("cols", cols, T_k)
        checks.fits("T_q, T_k", BYTES_ALLOWED * len(rows) * len(cols), f"a mask of {len(rows):,} × {len(cols):,}",
                    "use fewer tokens, or ask for one block of it with rows=range(…), cols=range(…).")
        if spec._allowed is not None:
            return spec._allowed[rows.start:rows.stop, cols.start:cols.stop].copy()
        offset = T_k - T_q if spec.align == "bottom-right" else 0
        p = np.arange(rows.start, rows.stop)[:, None] + offset  # (n, 1): each Query token's position
        j = np.arange(cols.start, cols.stop)[None, :]  # (1, m)
        return np.broadcast_to(spec.kind.rule(p, j, T_k, **dict(spec.params)), (len(rows), len(cols))).copy()

    def items(self):  # -> [(Param, value)] in the registry's order: what a caption or a control lists
        given = dict(self.params)
        return [(p, given[p.name]) for p in self.kind.params if p.name in given]


def _mask(name, align, params):
    return Mask(name, align=align, **params)


def _unknown_param(mask, key, known):
    takes = f"takes {', '.join(sorted(known))}" if known else "takes no parameters"
    takers = owners(key)
    if takers:
        where = " or ".join(f"Mask({o!r}, {key}=…)" for o in takers)
        return f"{key}: mask {mask!r} {takes}; {key} belongs to {where}."
    close = get_close_matches(key, sorted(known), n=1)
    return f"{key}: mask {mask!r} {takes}" + (f"; did you mean {close[0]}=…?" if close else "; remove it.")


def to_mask(mask):  # "causal" | None | Mask | [T_q, T_k] bool -> Mask
    """What a user passed as `mask` as a Mask: a name (defaults), None (no mask), a Mask, or a boolean array."""
    if isinstance(mask, Mask):
        return mask
    if mask is None:
        return Mask("none")
    if isinstance(mask, str):
        return Mask(mask)
    if isinstance(mask, dict):
        raise ValueError("mask: pass the mask as one value, Mask(name, **parameters), e.g. "
                         "al.Mask('sliding', window=2); not a dict.")
    if isinstance(mask, (bytes, bytearray, memoryview)):
        raise ValueError(f"mask: got {type(mask).__name__}; pass a mask name such as 'causal', a Mask, None, or a "
                         "(T_q, T_k) boolean array.")
    return Mask.of(mask)


def _tokens(T_q, T_k, name="T_q"):  # -> (T_q, T_k) as ints ≥ 1; T_k=None means T_k = T_q
    T_q = checks.whole_number(name, T_q, 1, hint=" It counts tokens, e.g. 3.")
    return T_q, T_q if T_k is None else checks.whole_number("T_k", T_k, 1, hint=" It counts Key tokens, e.g. 3.")


def _index_range(name, value, T):  # -> range(a, b) with 0 ≤ a ≤ b ≤ T
    if value is None:
        return range(T)
    if not (isinstance(value, range) and value.step == 1 and 0 <= value.start <= value.stop <= T):
        raise ValueError(f"{name}: must be a range of token indices inside range(0, {T}) with step 1, "
                         f"e.g. {name}=range(0, {min(T, 4)}); got {value!r}.")
    return value


@named_arguments
def allowed_of(mask, T_q, T_k=None, *, rows=None, cols=None):  # mask -> [T_q, T_k] bool
    """Which Key tokens each Query token may attend to, from what the user passed as `mask` (see `to_mask`)."""
    return to_mask(mask).allowed(T_q, T_k, rows=rows, cols=cols)


@named_arguments
def additive_mask(allowed):  # [T_q, T_k] bool -> [T_q, T_k] float
    """M = 0 where allowed, −∞ where not."""
    if allowed is None or isinstance(allowed, str):
        raise ValueError(f"allowed: must be a 2-D boolean array (True = may attend), got {allowed!r:.40}. Build one "
                         "with al.allowed_of(…) or a comparison such as `j <= i`.")
    array = checks.boolean_matrix("allowed", allowed, "Build one with al.allowed_of(…) or a comparison such as "
                                  "`j <= i`.", empty=True)
    checks.fits("allowed", 8 * array.size, f"M for a mask of {array.shape[0]:,} × {array.shape[1]:,}",
                "use fewer tokens.")
    return np.where(array, 0.0, -np.inf)


@named_arguments
def make_mask(mask, T_q, T_k=None, *, rows=None, cols=None):  # mask -> [T_q, T_k] float
    """M (0 / −∞) from what the user passed as `mask`, or a ValueError saying what is wrong."""
    return _additive(mask, *_tokens(T_q, T_k), rows, cols)


def _additive(mask, T_q, T_k, rows=None, cols=None, sizes="T_q, T_k"):  # -> [T_q, T_k] float, checked to fit first
    n_q, n_k = len(_index_range("rows", rows, T_q)), len(_index_range("cols", cols, T_k))
    checks.fits(sizes, BYTES_ADDITIVE * n_q * n_k, f"M (0 / −∞) of {n_q:,} × {n_k:,} float64 values",
                "use fewer tokens, or blockwise_attention(…), which makes M one block at a time.")
    return additive_mask(allowed_of(mask, T_q, T_k, rows=rows, cols=cols))


@named_arguments
def causal_allowed(T, rows=None, cols=None):  # -> [T, T] bool
    """True where Query token i may see Key token j, i.e. j ≤ i (itself and earlier tokens)."""
    return Mask("causal").allowed(_tokens(T, None, "T")[0], rows=rows, cols=cols)


@named_arguments
def causal_mask(T):  # -> [T, T] float
    """The decoder's causal mask: −∞ above the diagonal (future tokens), 0 elsewhere."""
    return _additive("causal", *_tokens(T, None, "T"), sizes="T")


@named_arguments
def no_mask(T):  # -> [T, T] float
    """Every Query token may see every Key token: M is all zeros."""
    return _additive(None, *_tokens(T, None, "T"), sizes="T")


# The masks whose rows' alignment is a choice (the explorer shows its alignment control for these only). Here at
# the end: `aligned` builds Mask objects, so it runs only once Mask and to_mask are defined.
ALIGNED = tuple(name for name in MASK_NAMES if aligned(name))
