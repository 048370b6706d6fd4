"""Attention one block of Key tokens at a time, with the online softmax: exact, and without the T × T matrix.

Notebook 05 subtracted each row's maximum before exp. The online softmax
(Milakov & Gimelshein 2018) goes one step further: it reads a row's scores one
block of Key tokens at a time and keeps, for every Query token, only

- m, the largest score seen so far (the running maximum),
- l, the sum of e^(s − m) over the scores seen so far (the running sum),
- O_acc, the sum of e^(s − m) · V_j over the Key tokens seen so far (the running output).

When a block brings a larger maximum, the sums so far were taken relative to
the old one, so they are first multiplied by e^(m_old − m_new). After the last
block, O = O_acc / l is exactly P V, yet only (T, block) scores ever exist at
once: neither S nor P (T × T per head) nor the mask M (T × T) is ever made.
FlashAttention (Dao et al. 2022) computes attention this way, in tiles that
fit a GPU's fast memory.

    blockwise_attention(Q, K, V, h, block=2)       # H (T, d): the trace's H
    steps = blockwise_steps(Q, K, V, h, block=1)   # one BlockStep per block: the running values
"""

from collections import deque
from dataclasses import dataclass

import numpy as np

from . import checks, core, masks
from .calls import named_arguments
from .progress import bar as progress_bar
from .readonly import frozen

_SAFE_EXPONENT = 1021  # float64's largest exponent is 1023: the running output stays two below it
BYTES_PER_SCORE = 6 * 8  # a block's scores and the arrays made from them (tracemalloc: 32–42 bytes per score)
BLOCK_WORK = 4096  # one block's own steps cost as much as this many scores (measured: 3,000–6,000 of them)


def _running(m, l, O_acc, S_block, V_block):  # -> the five as float arrays whose shapes fit, or a ValueError
    arrays = [checks.real_array(name, x) for name, x in
              (("m", m), ("l", l), ("O_acc", O_acc), ("S_block", S_block), ("V_block", V_block))]
    m, l, O_acc, S_block, V_block = arrays
    rows = m.shape  # (h, T_q): one running value per head and Query token
    for name, array, tail in (("l", l, ""), ("O_acc", O_acc, ", dh"), ("S_block", S_block, ", b")):
        if array.shape[:len(rows)] != rows or array.ndim != len(rows) + bool(tail):
            raise ValueError(f"{name}: must have shape (h, T_q{tail}) with (h, T_q) = {rows}, the shape of m; got "
                             f"{array.shape}.")
    want = (S_block.shape[-1], O_acc.shape[-1])  # (b, dh)
    if V_block.ndim < 2 or V_block.shape[-2:] != want:
        raise ValueError(f"V_block: must have shape (h, b, dh) = (…, {want[0]}, {want[1]}): the block's Value rows, "
                         f"one per score of S_block; got {V_block.shape}.")
    return m, l, O_acc, S_block, V_block


@named_arguments
def online_update(m, l, O_acc, S_block, V_block):  # [h, T_q] ×2, [h, T_q, dh], [h, T_q, b], [h, b, dh] -> 4 arrays
    """Fold one block of scores into the running max m, sum l and output O_acc; return them and e^(m_old − m_new).

    A row that has allowed no Key token yet keeps m = −∞, l = 0, O_acc = 0: its
    exponentials are taken relative to 0, so they are 0 and never NaN.
    """
    return _update(*_running(m, l, O_acc, S_block, V_block))


def _update(m, l, O_acc, S_block, V_block):  # online_update on arrays already checked (blockwise's own)
    m_new = np.maximum(m, S_block.max(axis=-1))  # (h, T)
    base = np.where(np.isneginf(m_new), 0.0, m_new)  # (h, T)
    with np.errstate(invalid="ignore", over="ignore"):  # NaN and ∞ given here propagate, as in core
        rescale = np.exp(m - base)  # (h, T): e^(m_old − m_new), 0 while no score was seen
        E = np.exp(S_block - base[..., None])  # (h, T, b): e^(s − m_new), 0 where masked
        l_new = l * rescale + E.sum(axis=-1)  # (h, T)
        O_new = O_acc * rescale[..., None] + core.weighted_sum(E, V_block)  # (h, T, dh)
    return m_new, l_new, O_new, rescale


def finish(O_acc, l):  # [h, T, dh], [h, T] -> [h, T, dh]
    """O = O_acc / l: the weighted sum of Values with weights e^(s − m) / l; a row with l = 0 (nothing allowed) is 0."""
    return O_acc / np.where(l == 0, 1.0, l)[..., None]


class _Values:
    """The Value rows brought low enough that the running output cannot overflow, and the way back.

    O_acc sums up to T_k Values weighted by e^(s − m) ≤ 1, so near the float limit (1.8e308) it can overflow
    where O = O_acc / l does not. A column whose largest Value is that close is scaled by a power of two,
    which keeps every bit of its normal numbers; everywhere else the shift is 0 and nothing changes.
    """

    def __init__(self, Vh, T_k):  # Vh (h, T_k, dh)
        top = np.abs(Vh).max(axis=-2, keepdims=True)  # (h, 1, dh)
        self.shift = np.maximum(np.frexp(top)[1] - (_SAFE_EXPONENT - int(T_k).bit_length()), 0)  # (h, 1, dh)
        self.Vh = np.ldexp(Vh, -self.shift) if self.shift.any() else Vh
        self.low = np.minimum(self.Vh.min(axis=-2, keepdims=True), 0)  # an average of Values (or 0) lies between
        self.high = np.maximum(self.Vh.max(axis=-2, keepdims=True), 0)

    def output(self, O_acc, l):  # -> O (h, T_q, dh) in V's own units
        O = finish(O_acc, l)
        if not self.shift.any():
            return O
        return np.ldexp(np.clip(O, self.low, self.high), self.shift)  # rounding cannot carry it past the Values

    def unscaled(self, O_acc):  # -> O_acc in V's own units (±inf only where the sum itself is beyond the range)
        with np.errstate(over="ignore"):
            return np.ldexp(O_acc, self.shift) if self.shift.any() else O_acc


def _blocks(Q, K, V, h, block, mask, kv_heads, progress=False, records=False):  # yields each block's running values
    """The online softmax over the blocks of Key tokens: yields (keys, S_block, m_old, m, l, O_acc, rescale), with
    O_acc in the units of `values` (yielded first), after each block."""
    h = checks.whole_number("h", h)  # an int: the sizes below must not wrap around as NumPy integers
    Q, K, V, g = checks.qkv(Q, K, V, h, kv_heads)
    (T_q, d), T_k = Q.shape, K.shape[0]
    block = checks.whole_number("block", block, 1, hint=" A block holds that many Key tokens; block=T_k is one block.")
    spec = masks.to_mask(mask).checked(T_q, T_k)  # refuse a bad mask before any work
    dh, b = d // h, min(block, T_k)
    _check_fits(h, T_q, T_k, dh, b, records)
    shared = core.kv_head_index(h, g)
    Qh = core.split_heads(Q, h)  # (h, T_q, dh)
    values = _Values(core.split_heads(V, g)[shared], T_k)  # (h, T_k, dh): Query head i's Values
    Kh, Vh = core.split_heads(K, g)[shared], values.Vh  # (h, T_k, dh): Query head i's K/V
    yield values
    m, l, O_acc = np.full((h, T_q), -np.inf), np.zeros((h, T_q)), np.zeros((h, T_q, dh))
    with progress_bar(progress, work(h, T_q, T_k, block), total=T_k, desc="blockwise_attention", unit="key") as bar:
        for start in range(0, T_k, block):
            keys = range(start, min(start + block, T_k))
            M_block = spec.allowed(T_q, T_k, cols=keys)  # (T_q, b): only these Key tokens' columns
            M_block = masks.additive_mask(M_block)
            S_block = core.apply_mask(core.scale(core.checked_scores(Qh, Kh[:, start : keys.stop]), dh), M_block)
            m_old = m
            m, l, O_acc, rescale = _update(m, l, O_acc, S_block, Vh[:, start : keys.stop])  # S_block (h, T_q, b)
            yield keys, S_block, m_old, m, l, O_acc, rescale
            bar.update(len(keys))


def work(h, T_q, T_k, block):  # -> the cost of a call, in scores, for deciding whether to show a progress bar
    """Its scores, plus BLOCK_WORK for each block: with small blocks the blocks' own steps (checks, small arrays)
    are most of the time (T_k = 200,000 with block=1 is hours), so the bar shows from the start."""
    return h * T_q * T_k + BLOCK_WORK * -(-T_k // block)


def _check_fits(h, T_q, T_k, dh, b, records):  # a ValueError naming block (or Q, K) unless the work fits in memory
    inputs = 8 * 4 * h * (T_k + T_q) * dh  # Q's heads, K's and V's for every Query head, the running output
    if records:  # blockwise_steps keeps every block's scores and running values, frozen copies made on the way
        kept = 2 * 8 * h * T_q * (T_k + -(-T_k // b) * (4 + 2 * dh))
        checks.fits("Q, K", inputs + kept, f"the records of every block, (h, T_q, T_k) = ({h}, {T_q:,}, {T_k:,}) "
                    "scores in all,", "use blockwise_attention(…), which keeps none of them.")
    fitting = (checks.memory_budget() - inputs) // (BYTES_PER_SCORE * h * T_q)  # the largest block that fits
    fix = f"use a smaller block, e.g. block={fitting:,}." if fitting >= 1 else "use fewer tokens."
    checks.fits("block", inputs + BYTES_PER_SCORE * h * T_q * b, f"a block of {b:,} Key tokens makes (h, T_q, b) = "
                f"({h}, {T_q:,}, {b:,}) scores at a time, and", fix)


@named_arguments
def blockwise_attention(Q, K, V, h, block, mask="causal", kv_heads=None,
                        progress=None):  # [T_q, d], [T_k, g·dh] ×2 -> [T_q, d]
    """H, computed one block of `block` Key tokens at a time with the online softmax.

    Equal to attention_trace(Q, K, V, h, mask, kv_heads=kv_heads).H for every
    block size, every mask; a row that may attend to nothing is 0. It holds
    (T_q, block) scores at a time, never a (T_q, T_k) array.
    progress: a progress bar (None: shown when the work takes some seconds; True; False).
    """
    blocks = _blocks(Q, K, V, h, block, mask, kv_heads, progress)
    values = next(blocks)
    *_, l, O_acc, _rescale = deque(blocks, maxlen=1)[0]  # each block replaces the last
    return core.concat_heads(values.output(O_acc, l))  # (T_q, d)


@dataclass(frozen=True, eq=False)
class BlockStep:
    """What one block of Key tokens did to the running values. Read-only, like a trace's arrays.

    keys: the block's Key tokens, a range of indices from 0 (Key token j + 1 in the article's numbering).
    S_block (h, T_q, b): the block's scores S / √dh + M (−∞ where the mask forbids).
    m_old, m (h, T_q): the running maximum before and after the block (−∞: no score seen yet).
    rescale (h, T_q): e^(m_old − m), the factor the running sum and output were multiplied by (0 before any score).
    l (h, T_q): the running sum of e^(s − m) after the block.
    O_acc (h, T_q, dh): the running output, the sum of e^(s − m) · V_j, after the block.
    O (h, T_q, dh): O_acc / l, the output if this block were the last (after the last: the output). Near the
    float limit O_acc can overflow where O does not: O is computed from Values scaled by a power of two.
    """

    keys: range
    S_block: np.ndarray
    m_old: np.ndarray
    m: np.ndarray
    rescale: np.ndarray
    l: np.ndarray
    O_acc: np.ndarray
    O: np.ndarray  # noqa: E741


@named_arguments
def blockwise_steps(Q, K, V, h, block, mask="causal", kv_heads=None):  # [T_q, d], [T_k, g·dh] ×2 -> BlockSteps
    """The running values after each block of `block` Key tokens, for showing the online softmax step by step.

    The steps together hold every block's scores, T_q × T_k per head in all: this
    is for looking at small examples; blockwise_attention keeps none of them.
    """
    values, *steps = _blocks(Q, K, V, h, block, mask, kv_heads, records=True)
    return tuple(
        BlockStep(keys, frozen(S_block), frozen(m_old), frozen(m), frozen(rescale), frozen(l),
                  frozen(values.unscaled(O_acc)), frozen(values.output(O_acc, l)))
        for keys, S_block, m_old, m, l, O_acc, rescale in steps
    )
