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
from .readonly import frozen


@named_arguments
def online_update(m, l, O_acc, S_block, V_block):  # [h, T_q] ×2, [h, T_q, dh], [h, T_q, b], [h, b, dh] -> 4 arrays
    """Fold one block of scores into the running max m, sum l and output O_acc; return them and e^(m_old − m_new).

    A row that has allowed no Key token yet keeps m = −∞, l = 0, O_acc = 0: its
    exponentials are taken relative to 0, so they are 0 and never NaN.
    """
    m_new = np.maximum(m, S_block.max(axis=-1))  # (h, T)
    base = np.where(np.isneginf(m_new), 0.0, m_new)  # (h, T)
    rescale = np.exp(m - base)  # (h, T): e^(m_old − m_new), 0 while no score was seen
    E = np.exp(S_block - base[..., None])  # (h, T, b): e^(s − m_new), 0 where masked
    l_new = l * rescale + E.sum(axis=-1)  # (h, T)
    O_new = O_acc * rescale[..., None] + core.weighted_sum(E, V_block)  # (h, T, dh)
    return m_new, l_new, O_new, rescale


def finish(O_acc, l):  # [h, T, dh], [h, T] -> [h, T, dh]
    """O = O_acc / l: the weighted sum of Values with weights e^(s − m) / l; a row with l = 0 (nothing allowed) is 0."""
    return O_acc / np.where(l == 0, 1.0, l)[..., None]


def _blocks(Q, K, V, h, block, mask, kv_heads):  # yields (keys, S_block, m_old, m, l, O_acc, rescale)
    """The online softmax over the blocks of Key tokens, yielding the running values after each block."""
    Q, K, V, g = checks.qkv(Q, K, V, h, kv_heads)
    (T_q, d), T_k = Q.shape, K.shape[0]
    block = checks.whole_number("block", block, 1, hint=" A block holds that many Key tokens; block=T_k is one block.")
    spec = masks.to_mask(mask).checked(T_q, T_k)  # refuse a bad mask before any work
    dh = d // h
    shared = core.kv_head_index(h, g)
    Qh = core.split_heads(Q, h)  # (h, T_q, dh)
    Kh, Vh = core.split_heads(K, g)[shared], core.split_heads(V, g)[shared]  # (h, T_k, dh): Query head i's K/V
    m, l, O_acc = np.full((h, T_q), -np.inf), np.zeros((h, T_q)), np.zeros((h, T_q, dh))
    for start in range(0, T_k, block):
        keys = range(start, min(start + block, T_k))
        M_block = spec.allowed(T_q, T_k, cols=keys)  # (T_q, b): only these Key tokens' columns
        M_block = masks.additive_mask(M_block)
        S_block = core.apply_mask(core.scale(core.checked_scores(Qh, Kh[:, start : keys.stop]), dh), M_block)
        m_old = m
        m, l, O_acc, rescale = online_update(m, l, O_acc, S_block, Vh[:, start : keys.stop])  # S_block (h, T_q, b)
        yield keys, S_block, m_old, m, l, O_acc, rescale


@named_arguments
def blockwise_attention(Q, K, V, h, block, mask="causal", kv_heads=None):  # [T_q, d], [T_k, g·dh] ×2 -> [T_q, d]
    """H, computed one block of `block` Key tokens at a time with the online softmax.

    Equal to attention_trace(Q, K, V, h, mask, kv_heads=kv_heads).H for every
    block size, every mask; a row that may attend to nothing is 0. It holds
    (T_q, block) scores at a time, never a (T_q, T_k) array.
    """
    last = deque(_blocks(Q, K, V, h, block, mask, kv_heads), maxlen=1)  # each block replaces the last
    _keys, _S_block, _m_old, _m, l, O_acc, _rescale = last[0]
    return core.concat_heads(finish(O_acc, l))  # (T_q, d)


@dataclass(frozen=True, eq=False)
class BlockStep:
    """What one block of Key tokens did to the running values. Read-only, like a trace's arrays.

    keys: the block's Key tokens, a range of indices from 0 (Key token j + 1 in the article's numbering).
    S_block (h, T_q, b): the block's scores S / √dh + M (−∞ where the mask forbids).
    m_old, m (h, T_q): the running maximum before and after the block (−∞: no score seen yet).
    rescale (h, T_q): e^(m_old − m), the factor the running sum and output were multiplied by (0 before any score).
    l (h, T_q): the running sum of e^(s − m) after the block.
    O_acc (h, T_q, dh): the running output, the sum of e^(s − m) · V_j, after the block.
    """

    keys: range
    S_block: np.ndarray
    m_old: np.ndarray
    m: np.ndarray
    rescale: np.ndarray
    l: np.ndarray
    O_acc: np.ndarray

    @property
    def O(self):  # noqa: E743  -> [h, T_q, dh]: O_acc / l, the output if this block were the last (after it: the output)
        return finish(self.O_acc, self.l)


@named_arguments
def blockwise_steps(Q, K, V, h, block, mask="causal", kv_heads=None):  # [T_q, d], [T_k, g·dh] ×2 -> BlockSteps
    """The running values after each block of `block` Key tokens, for showing the online softmax step by step.

    The steps together hold every block's scores, T_q × T_k per head in all: this
    is for looking at small examples; blockwise_attention keeps none of them.
    """
    return tuple(
        BlockStep(keys, frozen(S_block), frozen(m_old), frozen(m), frozen(rescale), frozen(l), frozen(O_acc))
        for keys, S_block, m_old, m, l, O_acc, rescale in _blocks(Q, K, V, h, block, mask, kv_heads)
    )
