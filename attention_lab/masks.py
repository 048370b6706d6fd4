"""Masks: which Key tokens each Query token may attend to, and the additive M (0 / −∞) built from that.

A mask is added to the scaled scores (S/√dh + M), so −∞ removes a score and
the softmax turns it into a weight of exactly 0. True −∞ is used, never a
large negative number such as −1e9, which would leave a small non-zero weight
(and, in a row where everything is masked, spread the weight evenly over
tokens that should not be seen at all).

Every mask is one entry of `MASKS`: its name, its parameters, which Key
tokens each Query token may see for T tokens, and its words in Korean and
English. The trace, the explorer's mask control and its parameter sliders,
the figures and the figures command all read `MASKS`; adding a mask is one
entry here and its tests.

If a mask forbids every Key token for some Query token, that row has nothing
to attend to: its weights (row of P) and its output (row of O) are all zeros,
never NaN.
"""

from dataclasses import dataclass

import numpy as np

from . import checks


@dataclass(frozen=True)
class Param:
    """A whole-number parameter of a mask, e.g. the window w of a sliding-window mask."""

    name: str
    label: dict  # {"ko": …, "en": …}: a control's description
    default: int
    lo: int  # the smallest value
    hi_T: int  # the largest value is T + hi_T (e.g. 0: at most T)

    def bounds(self, T):  # -> (lo, hi) for T tokens
        return self.lo, max(self.lo, T + self.hi_T)

    def default_for(self, T):
        lo, hi = self.bounds(T)
        return min(max(self.default, lo), hi)


@dataclass(frozen=True)
class Mask:
    """One kind of mask: `allowed(T, **params)` is True where Query token i may attend to Key token j.

    `allowed(T, rows=range(a, b), cols=range(c, e), **params)` gives only the block of Query tokens a … b−1 and
    Key tokens c … e−1, computed from the same rule without the (T, T) matrix (blockwise attention needs that).
    """

    name: str
    label: dict  # {"ko": …, "en": …}: the name on a control
    caption: dict  # {"ko": …, "en": …}: what M holds, one or two sentences for a figure
    used: dict  # {"ko": …, "en": …}: where this mask is met in real models
    allowed: object  # (T, rows=None, cols=None, **params) -> [T, T] bool (or the block); None for "custom"
    params: tuple = ()  # of Param


def _rows_cols(T, rows=None, cols=None):  # -> [n_rows, 1], [1, n_cols]: Query index i down, Key index j across
    rows, cols = range(T) if rows is None else rows, range(T) if cols is None else cols
    return np.arange(rows.start, rows.stop)[:, None], np.arange(cols.start, cols.stop)[None, :]


# Each rule below gives the whole (T, T) matrix, or with rows=range(a, b), cols=range(c, e) only that block.

def causal_allowed(T, rows=None, cols=None):  # -> [T, T] bool
    """True where Query token i may see Key token j, i.e. j ≤ i (itself and earlier tokens)."""
    i, j = _rows_cols(T, rows, cols)
    return j <= i


def sliding_allowed(T, window, rows=None, cols=None):  # -> [T, T] bool
    """The last `window` tokens up to itself: i − window < j ≤ i (a band below the diagonal)."""
    i, j = _rows_cols(T, rows, cols)
    return (j <= i) & (j > i - window)


def padding_allowed(T, length, rows=None, cols=None):  # -> [T, T] bool
    """Causal among the first `length` real tokens; the padding after them is seen by no one and sees nothing.

    Two rules, combined with "and" (and with causal): a padding Key token is
    masked for every Query token, so no real token reads padding; and a
    padding token's own row is masked too, so its weights and output are 0.

    The second rule is a choice. Libraries that take a key padding mask
    (nn.MultiheadAttention's `key_padding_mask`, Hugging Face's dense
    `attention_mask`) mask only the keys: their padding rows attend to the
    real tokens and give an output that nothing downstream uses. Unpadded
    kernels (FlashAttention's variable-length path) leave 0 at the padded
    positions, as here. The real tokens' rows are the same either way. We
    choose the zeros because a padding token has nothing to read, and an
    output of 0 says so, where an average of the real tokens' Values looks like
    a meaningful number. Notebook 08 shows both side by side.
    """
    i, j = _rows_cols(T, rows, cols)
    return (j <= i) & (j < length) & (i < length)


def prefix_allowed(T, prefix, rows=None, cols=None):  # -> [T, T] bool
    """Bidirectional inside the first `prefix` tokens, causal after them (a prefix-LM)."""
    i, j = _rows_cols(T, rows, cols)
    return (j <= i) | ((i < prefix) & (j < prefix))


def full_allowed(T, rows=None, cols=None):  # -> [T, T] bool
    """No mask: every Query token may see every Key token (the encoder's case)."""
    i, j = _rows_cols(T, rows, cols)
    return np.ones((i.size, j.size), dtype=bool)


def _words(ko, en):
    return {"ko": ko, "en": en}


MASKS = {m.name: m for m in (
    Mask("causal", _words("Causal mask", "causal"),
         caption=_words("M은 Query 토큰이 참조할 수 있는 자리(자기 자신과 이전 토큰)에서 0, "
                        "대각선 위쪽(미래 토큰)에서 −∞입니다.",
                        "M is 0 where a Query token may see a Key token (itself and earlier tokens) "
                        "and −∞ above the diagonal (future tokens)."),
         used=_words("다음 토큰을 예측하는 디코더(GPT 계열)", "decoders that predict the next token (GPT and its kin)"),
         allowed=causal_allowed),
    Mask("none", _words("마스크 없음", "none"),
         caption=_words("마스크가 없으면 M은 모두 0이므로, 모든 Query 토큰이 모든 Key 토큰을 참조합니다.",
                        "No mask: M is 0 everywhere, so every Query token sees every Key token."),
         used=_words("양방향 인코더(BERT 계열)", "bidirectional encoders (BERT and its kin)"),
         allowed=full_allowed),
    Mask("sliding", _words("Sliding window", "sliding window"),
         caption=_words("Query 토큰은 자기 자신을 포함한 최근 w개 토큰만 참조합니다. "
                        "그보다 오래된 토큰과 미래 토큰은 −∞입니다.",
                        "A Query token sees only the last w tokens, itself included; older and future tokens are −∞."),
         used=_words("긴 문맥을 다루는 모델의 local attention (Mistral의 sliding window 등)",
                     "local attention in long-context models (e.g. Mistral's sliding window)"),
         allowed=sliding_allowed,
         params=(Param("window", _words("창 크기 w", "window w"), default=2, lo=1, hi_T=0),)),
    Mask("padding", _words("Padding", "padding"),
         caption=_words("앞의 L개가 실제 토큰이고 나머지는 padding입니다. 실제 토큰끼리는 Causal mask이고, "
                        "padding 토큰은 아무도 참조하지 않으며, "
                        "padding 토큰의 행은 모두 −∞라서 가중치와 출력이 0입니다.",
                        "The first L tokens are real and the rest is padding: causal among the real tokens; "
                        "no token sees the padding, and the padding tokens' own rows are all −∞, "
                        "so their weights and outputs are 0."),
         used=_words("길이가 다른 문장을 한 batch로 묶을 때", "batches of sequences of different lengths"),
         allowed=padding_allowed,
         params=(Param("length", _words("실제 토큰 수 L", "real tokens L"), default=2, lo=0, hi_T=0),)),
    Mask("prefix", _words("Prefix", "prefix"),
         caption=_words("앞의 p개 토큰(prefix)끼리는 서로 모두 참조하고, 그 뒤의 토큰은 Causal mask를 따릅니다.",
                        "The first p tokens (the prefix) all see each other; the tokens after them are causal."),
         used=_words("prefix-LM (T5의 prefix LM, 이미지나 지시문을 앞에 두는 모델)",
                     "prefix language models (T5's prefix LM, models with an image or instruction prefix)"),
         allowed=prefix_allowed,
         params=(Param("prefix", _words("prefix 길이 p", "prefix p"), default=2, lo=0, hi_T=0),)),
    Mask("custom", _words("직접 만든 마스크", "custom"),
         caption=_words("직접 만든 마스크: Query 토큰이 참조할 수 있는 자리는 0, 그렇지 않은 자리는 −∞입니다.",
                        "Custom mask: M is 0 where a Query token may see a Key token and −∞ where not."),
         used=_words("직접 정한 참조 범위", "a pattern of your own"),
         allowed=None),
)}
MASK_NAMES = tuple(name for name, m in MASKS.items() if m.allowed is not None)  # the masks chosen by name


def additive_mask(allowed):  # [T, T] bool -> [T, T] float
    """M = 0 where allowed, −∞ where not."""
    return np.where(allowed, 0.0, -np.inf)


def causal_mask(T):  # -> [T, T] float
    """The decoder's causal mask: −∞ above the diagonal (future tokens), 0 elsewhere."""
    return additive_mask(causal_allowed(T))


def no_mask(T):  # -> [T, T] float
    """Every Query token may see every Key token: M is all zeros."""
    return np.zeros((T, T))


def mask_name(mask):  # "causal" | None | [T, T] bool -> a key of MASKS
    """The registry name of what the user passed as `mask` (None is "none", an array is "custom")."""
    if mask is None:
        return "none"
    if isinstance(mask, str):
        if mask not in MASK_NAMES:
            raise ValueError(
                f"mask: unknown mask name {mask!r}. Use mask='causal', mask=None (no mask), one of "
                f"{', '.join(repr(n) for n in MASK_NAMES if n not in ('causal', 'none'))}, "
                "or a (T, T) boolean array where True means 'may attend'."
            )
        return mask
    return "custom"


def mask_params(mask, T, params):  # -> dict of the mask's parameters, defaults filled in, checked
    """The parameters of mask `mask` for T tokens: unknown names refused, values checked, defaults filled in."""
    spec = MASKS[mask_name(mask)].params
    known = {p.name for p in spec}
    for name in params:
        if name not in known:
            takes = f"takes {', '.join(sorted(known))}" if known else "takes no parameters"
            raise ValueError(f"{name}: mask {mask_name(mask)!r} {takes}; remove {name}=… or choose the mask it "
                             "belongs to (window → 'sliding', length → 'padding', prefix → 'prefix').")
    values = {}
    for p in spec:
        lo, hi = p.bounds(T)
        values[p.name] = checks.whole_number(p.name, params[p.name], lo, hi) if p.name in params else p.default_for(T)
    return values


def _index_range(name, value, T):  # -> range(a, b) with 0 ≤ a ≤ b ≤ T
    if value is None:
        return range(T)
    if not (isinstance(value, range) and value.step == 1 and 0 <= value.start <= value.stop <= T):
        raise ValueError(f"{name}: must be a range of token indices inside range(0, {T}) with step 1, "
                         f"e.g. {name}=range(0, {min(T, 4)}); got {value!r}.")
    return value


def allowed_of(mask, T, *, rows=None, cols=None, **params):  # "causal" | None | name | [T, T] bool -> [T, T] bool
    """Which Key tokens each Query token may attend to, from what the user passed as `mask`.

    rows=range(a, b), cols=range(c, e): only Query tokens a … b−1 and Key tokens c … e−1, a (b−a, e−c) block,
    computed without making the (T, T) matrix (for a named mask; a custom mask is the user's (T, T) array).
    """
    name = mask_name(mask)
    values = mask_params(mask, T, params)
    rows, cols = _index_range("rows", rows, T), _index_range("cols", cols, T)
    if name != "custom":
        return MASKS[name].allowed(T, rows=rows, cols=cols, **values)
    try:
        allowed = np.asarray(mask)
    except ValueError:  # ragged nested lists
        raise ValueError("mask: the rows of a mask array must all have the same length, T. "
                         "Row i is Query token i, column j is Key token j.") from None
    if allowed.dtype != bool:
        raise ValueError(
            f"mask: a mask array must be boolean (True = may attend), got dtype {allowed.dtype}. "
            "Convert it with `mask.astype(bool)` or build it with a comparison such as `j <= i`."
        )
    if allowed.shape != (T, T):
        raise ValueError(
            f"mask: a mask array must have shape (T, T) = ({T}, {T}), got {allowed.shape}. "
            "Row i is Query token i, column j is Key token j."
        )
    return allowed[rows.start:rows.stop, cols.start:cols.stop].copy()


def make_mask(mask, T, *, rows=None, cols=None, **params):  # "causal" | None | name | [T, T] bool -> [T, T] float
    """Build M (0 / −∞) from what the user passed as `mask`, or say clearly what is wrong.

    rows=range(a, b), cols=range(c, e): only that block of M, as in `allowed_of`.
    """
    return additive_mask(allowed_of(mask, T, rows=rows, cols=cols, **params))
