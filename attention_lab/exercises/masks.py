# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebooks 08 (masks and the ways code writes them) and 09 (the same numbers from PyTorch).

Every answer, and every known mistake's value, is computed from the article's
example grown to more tokens, from the mask registry or from the conventions,
never typed in. None of them needs PyTorch: notebook 09's exercises ask what
PyTorch's arguments mean, in attention_lab's terms, so they run without it.
"""

import numpy as np

from ..numeric.conventions import CONVENTIONS
from ..numeric.core import softmax
from ..numeric.masks import Mask, additive_mask, allowed_of, causal_allowed, make_mask
from .define import Exercise, Mistake
from .givens import trace, values
from .shared import NOT_MINUS_1E9, ONES_AND_ZEROS

PADDED = Mask("padding", length=3)  # 08.padding_row: T = 5, the first 3 tokens real


def _sliding(T, window):  # -> [T, T] bool, True = may attend
    return allowed_of(Mask("sliding", window=window), T)


def _band(T, window):  # -> [T, T] bool: the same cells as _sliding, written with NumPy as a learner may write them
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return (j <= i) & (j > i - window)


def _m(allowed):  # -> M: 0 where allowed, −∞ elsewhere, without al.additive_mask (08.sliding forbids it)
    return np.where(allowed, 0.0, -np.inf)


def _padding_row_filled(tr, fill):  # token 4's weights (Head 1) with `fill` written over the masked scores
    return softmax(np.where(tr.M[3] == 0, tr.S_scaled[0, 3], fill))


def _keys_only(T, real):  # -> [T, T] bool: causal, and no token sees a padding key; padding rows kept
    return causal_allowed(T) & (np.arange(T) < real)


def _as_sdpa(allowed):  # -> the M that SDPA adds for a boolean mask with True = may attend
    return CONVENTIONS["may_attend"].additive(allowed)


def _as_mha(allowed):  # -> the M that nn.MultiheadAttention adds for the same boolean mask (True = masked)
    return CONVENTIONS["masked"].additive(CONVENTIONS["may_attend"].write(allowed))


_SCATTERED = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 1], [0, 0, 1, 1]], dtype=bool)  # a hidden `allowed`


_CAUSAL_NOT_SLIDING = {
    "ko": "Causal mask입니다. 창이 있으므로 각 토큰은 자기 자신을 포함한 최근 w개 토큰만 참조합니다. 그보다 오래된 토큰도 −∞입니다.",
    "en": "That is the causal mask; with a window each token sees only the last w tokens, itself included, so older"
          " tokens are −∞ too.",
}
_WINDOW_TOO_WIDE = {
    "ko": "창이 한 칸 넓습니다. 창 크기 w는 자기 자신을 포함한 토큰 수입니다: i − w < j ≤ i.",
    "en": "The window is one token too wide; w counts the token itself: i − w < j ≤ i.",
}
_BAND_ABOVE = {
    "ko": "띠가 대각선 위쪽, 미래 토큰 쪽에 있습니다. 행은 Query 토큰, 열은 Key 토큰이므로 참조할 수 있는 칸은 대각선과 그 왼쪽입니다.",
    "en": "The band lies above the diagonal, on the future tokens; rows are Query tokens and columns Key tokens, so"
          " the allowed cells are the diagonal and the cells left of it.",
}
_SDPA_MEANT = {
    "ko": "동료가 의도한 마스크, 즉 SDPA가 더하는 M입니다. nn.MultiheadAttention은 True를 '제외'로 읽습니다.",
    "en": "That is the mask your colleague meant, the M that SDPA adds; nn.MultiheadAttention reads True as "
          "'masked'.",
}
_ZEROS_AND_ONES = {
    "ko": "bool 마스크를 0과 1로 적은 것입니다. 답은 점수에 더하는 M입니다: 남는 칸은 0, 제외되는 칸은 −∞.",
    "en": "That is the boolean mask written as 0 and 1; the answer is the M added to the scores: 0 where a score "
          "stays, −∞ where it is removed.",
}
_CAUSAL_NOT_COLLEAGUES = {
    "ko": "Causal mask입니다. 동료의 마스크 `allowed`를 nn.MultiheadAttention이 어떻게 읽는지에서 시작하세요.",
    "en": "That is the causal mask; start from how nn.MultiheadAttention reads your colleague's `allowed`.",
}
_MINUS_INF_ROW = {
    "ko": "attention_lab이 −∞로 계산한 행입니다(참조할 것이 없으니 0). −1e9는 −∞가 아니라 보통의 수라서, 한 행이 모두 −1e9이면 Softmax가 가중치를 나누어 줍니다.",
    "en": "That is the row attention_lab computes with −∞ (nothing to attend to: 0). −1e9 is an ordinary number, so"
          " a row of nothing but −1e9 still gets its weights shared out.",
}
_NAIVE_NAN = {
    "ko": "단순한 Softmax에 −∞만 있는 행을 넣으면 0 / 0 = NaN이 됩니다. −1e9는 유한한 수라서 NaN이 되지 않습니다.",
    "en": "A naive softmax of a row of −∞ gives 0 / 0 = NaN; −1e9 is a finite number, so no NaN.",
}
_NO_MASK_ROW = {
    "ko": "마스크 없이 계산한 가중치입니다. −1e9를 점수에 더해도(float64) 한 행 전체에 같은 수를 더하므로 똑같은 값이 나옵니다. 이 연습은 −1e9를 점수 위에 덮어씁니다(masked_fill).",
    "en": "Those are the weights without a mask, which is also what −1e9 added to every score of the row gives (in "
          "float64): the same number added to a whole row changes nothing. This exercise writes −1e9 over the "
          "scores (masked_fill).",
}
_REAL_ONLY = {
    "ko": "실제 토큰 세 개의 가중치만 적었습니다. 덮어쓴 행에는 padding 토큰도 포함해 다섯 칸이 있습니다.",
    "en": "Only the three real tokens' weights; the overwritten row has five cells, the padding tokens' included.",
}
_SQRT_DH = {
    "ko": "√dh입니다. SDPA는 scale을 곱하므로 곱해서 √dh로 나눈 것과 같아지는 값이어야 합니다.",
    "en": "That is √dh; SDPA multiplies by scale, so it must be the number whose product is the division by √dh.",
}
_ONE_OVER_SQRT_D = {
    "ko": "1 / √d입니다. SDPA는 query의 마지막 축, 즉 head 하나의 차원 dh를 씁니다.",
    "en": "That is 1 / √d; SDPA uses the last axis of query, one head's dimension dh.",
}
_NO_ROOT = {
    "ko": "1 / dh입니다. 제곱근이 빠졌습니다.",
    "en": "That is 1 / dh; the square root is missing.",
}
_PADDING_MASK_ROWS = {
    "ko": "attention_lab의 padding 마스크입니다. padding 토큰의 행까지 막습니다. key_padding_mask는 Key(열)만 막으므로 padding 토큰도 실제 토큰들을 참조합니다.",
    "en": "That is attention_lab's padding mask, which masks the padding tokens' rows too; key_padding_mask masks "
          "only the Keys (columns), so the padding tokens attend to the real tokens.",
}
_CAUSAL_ONLY = {
    "ko": "Causal mask만 적용했습니다. key_padding_mask는 padding 토큰의 열을 모든 행에서 −∞로 만듭니다.",
    "en": "Only the causal mask; key_padding_mask makes the padding tokens' columns −∞ in every row.",
}
_KEY_PADDING_ONLY = {
    "ko": "key_padding_mask만 적용했습니다. Causal attn_mask도 함께 적용되어 미래 토큰은 −∞입니다.",
    "en": "Only key_padding_mask; the causal attn_mask applies as well, so future tokens are −∞.",
}
_READ_BACKWARDS = {
    "ko": "key_padding_mask를 거꾸로 읽었습니다. True는 padding(제외할 Key)이므로, 실제 토큰의 열이 남아야 합니다.",
    "en": "You read key_padding_mask the other way round; True marks padding (Keys to ignore), so the real tokens' "
          "columns stay.",
}
_HEAD_1 = {
    "ko": "Head 1의 P입니다. 기본값은 모든 head의 평균입니다.",
    "en": "That is Head 1's P; the default averages over all heads.",
}
_SUMMED = {
    "ko": "head들의 가중치를 더했습니다. 평균이므로 head 수로 나누어야 하고, 각 행의 합은 1입니다.",
    "en": "You added the heads' weights; an average divides by the number of heads, so each row still adds up to 1.",
}
_QUERY_AXIS = {
    "ko": "Query 토큰 축으로 평균했습니다. head 축(축 0)으로 평균하세요.",
    "en": "You averaged over the Query tokens; average over the head axis (axis 0).",
}


EXERCISES = [
    # 08 — masks and their conventions
    Exercise(
        "08.sliding",
        {"ko": "토큰 T개, 창 크기 w인 sliding window 마스크 M (T × T, 예: T = 5, w = 2)",
         "en": "the sliding-window mask M for T tokens and a window of w (T × T, e.g. T = 5, w = 2)"},
        lambda T, w: make_mask(Mask("sliding", window=w), T),
        "def answer(T, w):\n"
        "    i, j = np.arange(T)[:, None], np.arange(T)[None, :]\n"
        "    return np.where((j <= i) & (j > i - w), 0.0, -np.inf)",
        (
            {"ko": "각 Query 토큰은 자기 자신을 포함해 가장 최근의 w개 토큰만 참조합니다. 미래 토큰과 그보다 오래된 토큰의 칸은 −∞입니다.",
             "en": "Each Query token sees only the last w tokens, itself included; the cells of future tokens and of "
                   "older tokens are −∞."},
            {"ko": "행 번호 `i`와 열 번호 `j`를 `np.arange`로 만들면 칸마다 두 조건을 비교할 수 있습니다. 미래가 아닌지, 그리고 창 안에 있는지입니다. "
                   "두 조건을 `&`로 묶은 뒤 `np.where(조건, 0.0, -np.inf)`로 M을 만드세요.",
             "en": "Make the row index `i` and the column index `j` with `np.arange`, so that every cell can be tested "
                   "twice: not in the future, and inside the window. Join both with `&`, then "
                   "`np.where(condition, 0.0, -np.inf)` gives M."},
        ),
        (
            # written with NumPy: the answer, and so each of its mistakes, may not call attention_lab's masks
            Mistake(lambda T, w: _m(_band(T, T)), _CAUSAL_NOT_SLIDING, name="causal_only"),
            Mistake(lambda T, w: _m(_band(T, w + 1)), _WINDOW_TOO_WIDE, name="window_too_wide"),
            Mistake(lambda T, w: _m(_band(T, w)).T, _BAND_ABOVE, name="band_above"),
            Mistake(lambda T, w: _band(T, w).astype(float), ONES_AND_ZEROS, name="ones_zeros"),
            Mistake(lambda T, w: np.where(_band(T, w), 0.0, -1e9), NOT_MINUS_1E9, name="minus_1e9"),
        ),
        note={"ko": "Mistral의 sliding window와 TransformerLens의 local attention이 이 띠 모양입니다.",
              "en": "This band is Mistral's sliding window and TransformerLens's local attention."},
        wrong=(  # as a learner types them: the example's window typed in, then each mistake written with np.tri
            ("np.where((np.arange(T) <= np.arange(T)[:, None]) & (np.arange(T) > np.arange(T)[:, None] - 2), 0.0, "
             "-np.inf)", "ex.only_here"),
            ("np.triu(np.full((T, T), -np.inf), 1)", _CAUSAL_NOT_SLIDING),
            ("np.where(np.tri(T, T, 0) - np.tri(T, T, -w - 1) > 0, 0.0, -np.inf)", _WINDOW_TOO_WIDE),
            ("np.where(np.tri(T, T, 0) - np.tri(T, T, -w) > 0, 0.0, -np.inf).T", _BAND_ABOVE),
            ("np.tri(T, T, 0) - np.tri(T, T, -w)", ONES_AND_ZEROS),
            ("np.where(np.tri(T, T, 0) - np.tri(T, T, -w) > 0, 0.0, -1e9)", NOT_MINUS_1E9),
            ("al.make_mask(al.Mask('sliding', window=w), T)", "ex.forbidden"),  # "yourself": not by the library
            ("np.where(al.allowed_of(al.Mask('sliding', window=w), T), 0.0, -np.inf)", "ex.forbidden"),
            ("al.additive_mask((np.arange(T) <= np.arange(T)[:, None]) & (np.arange(T) > np.arange(T)[:, None] - w))",
             "ex.forbidden"),
        ),
        given=values(("T", "w"), (5, 2), (6, 3), (4, 1), forbid=(make_mask, Mask.allowed, additive_mask)),
    ),
    Exercise(
        "08.wrong_api",
        {"ko": "True = 참조 가능인 bool 마스크 `allowed`를 받은 nn.MultiheadAttention이 점수에 더하는 M",
         "en": "the M that nn.MultiheadAttention adds when given a boolean mask `allowed` with True = may attend"},
        _as_mha,
        "np.where(allowed, -np.inf, 0.0)",
        (
            {"ko": "nn.MultiheadAttention은 bool 마스크의 True를 제외할 칸으로 읽습니다. 참조해야 할 칸이 제외되고, "
                   "제외해야 할 칸이 남습니다.",
             "en": "nn.MultiheadAttention reads True in a boolean mask as a cell to remove: the cells meant to be seen "
                   "are removed, and the ones meant to be hidden stay."},
            {"ko": "`np.where(allowed, a, b)`로 만드세요. nn.MultiheadAttention이 True인 칸을 어떻게 읽는지에 따라, 그 칸에 남는 값(0)과 지워지는 값(−∞) 중 무엇이 들어갈지 정하면 됩니다.",
             "en": "Build it with `np.where(allowed, a, b)`: decide, from how nn.MultiheadAttention reads a True cell, "
                   "whether it gets the value that keeps a score (0) or the one that removes it (−∞)."},
        ),
        (
            Mistake(_as_sdpa, _SDPA_MEANT, name="sdpa_mask"),
            Mistake(lambda allowed: (~allowed).astype(float), _ZEROS_AND_ONES, name="ones_zeros"),
            Mistake(lambda allowed: make_mask("causal", len(allowed)), _CAUSAL_NOT_COLLEAGUES, name="causal_only"),
            Mistake(lambda allowed: np.where(allowed, -1e9, 0.0), NOT_MINUS_1E9, name="minus_1e9"),
        ),
        note={"ko": "연습 1의 sliding window를 넘기면, 각 토큰은 자기 자신은 못 보고 미래 토큰과 창보다 오래된 토큰만 봅니다. "
                    "고치려면 `~allowed`를 넘기거나, 두 API가 똑같이 더하는 float 마스크(0 / −∞)를 넘기세요.",
              "en": "Given exercise 1's sliding window, each token sees only what it should not: the future and the "
                    "tokens older than the window, never itself. The fix: pass `~allowed`, or a float mask "
                    "(0 / −∞), which both APIs add as it is."},
        wrong=(
            ("np.where(allowed, 0.0, -np.inf)", _SDPA_MEANT), ("(~allowed).astype(float)", _ZEROS_AND_ONES),
            ("np.where(allowed, -1e9, 0.0)", NOT_MINUS_1E9),
            ("allowed * -np.inf", "ex.nan"),  # 0 × −∞ is NaN
            "np.triu(np.full((5, 5), -np.inf), 1)",  # the causal mask of the example's size
            # the right M for the example's `allowed` (exercise 1's window), typed in: a hidden `allowed` is another
            ("np.where(np.tri(5, 5, 0) - np.tri(5, 5, -2) > 0, -np.inf, 0.0)", "ex.only_here"),
        ),
        given=values(("allowed",), (_sliding(5, 2),), (causal_allowed(4),), (_SCATTERED,)),
    ),
    Exercise(
        "08.padding_row",
        {"ko": "−1e9를 점수 위에 덮어썼을 때 padding 토큰 4의 가중치 (Head 1, T = 5, 실제 토큰 3개)",
         "en": "padding token 4's weights with −1e9 written over the masked scores (Head 1, T = 5, 3 real tokens)"},
        lambda padded: _padding_row_filled(padded, -1e9),
        "al.softmax(np.where(padded.M[3] == 0, padded.S_scaled[0, 3], -1e9))",
        (
            {"ko": "padding 토큰의 행은 모든 칸이 마스크됩니다. 모든 점수를 같은 수로 덮어쓰면 Softmax는 그 수들을 구별할 수 "
                   "없습니다.",
             "en": "Every cell of a padding token's row is masked; when every score is overwritten with the same "
                   "number, the softmax cannot tell them apart."},
            {"ko": "`np.where`로 토큰 4의 행에서 마스크된 칸(`padded.M`이 0이 아닌 칸)의 점수를 −1e9로 바꾼 뒤, `al.softmax`를 적용하세요.",
             "en": "With `np.where`, replace the scores of token 4's row where it is masked (where `padded.M` is not "
                   "0) with −1e9, then apply `al.softmax`."},
        ),
        (
            Mistake(lambda padded: padded.P[0, 3], _MINUS_INF_ROW, name="minus_inf_row"),
            Mistake(lambda padded: np.full(padded.T, np.nan), _NAIVE_NAN, name="nan_row"),
            Mistake(lambda padded: softmax(padded.S_scaled[0, 3]), _NO_MASK_ROW, name="no_mask"),
            Mistake(lambda padded: _padding_row_filled(padded, -1e9)[:3], _REAL_ONLY, name="real_tokens_only"),
        ),
        tol=1e-3,
        note={"ko": "padding 토큰이 padding을 포함한 모든 토큰을 똑같이 참조합니다. 오류 없이 조용히 일어나는 일입니다.",
              "en": "The padding token attends evenly to every token, padding included, silently, with no error."},
        wrong=(
            ("np.full(5, 0.2)", "ex.only_here"),  # the example's five even weights, typed in (a hidden T is 6 or 7)
            ("padded.P[0, 3]", _MINUS_INF_ROW), ("al.softmax(padded.S_scaled[0, 3] + padded.M[3])", _MINUS_INF_ROW),
            ("np.exp(padded.S_scaled[0, 3] + padded.M[3]) / np.exp(padded.S_scaled[0, 3] + padded.M[3]).sum()",
             _NAIVE_NAN),
            ("al.softmax(padded.S_scaled[0, 3] - 1e9)", _NO_MASK_ROW),
            ("al.softmax(np.where(padded.M[3] == 0, padded.S_scaled[0, 3], -1e9))[:3]", _REAL_ONLY),
        ),
        given=trace(PADDED, T=5, name="padded"),
    ),
    # 09 — the same numbers from PyTorch
    Exercise(
        "09.scale",
        {"ko": "SDPA가 점수에 곱하는 기본 scale", "en": "the default scale SDPA multiplies the scores by"},
        lambda tr: 1 / np.sqrt(tr.dh),
        "1 / np.sqrt(tr.dh)",
        (
            {"ko": "SDPA는 점수에 scale을 곱합니다. 점수를 √dh로 나누는 것과 같은 값을 곱해야 합니다.",
             "en": "SDPA multiplies the scores by scale; it must multiply by what dividing by √dh amounts to."},
            {"ko": "head 하나의 차원은 `tr.dh`입니다. 나누기를 곱하기로 바꾸세요.",
             "en": "One head's dimension is `tr.dh`; turn the division into a multiplication."},
        ),
        (
            Mistake(lambda tr: np.sqrt(tr.dh), _SQRT_DH, name="sqrt_dh_not_inverse"),
            Mistake(lambda tr: 1 / np.sqrt(tr.d), _ONE_OVER_SQRT_D, name="sqrt_d"),
            Mistake(lambda tr: 1 / tr.dh, _NO_ROOT, name="by_dh"),
            Mistake(lambda tr: 1 / tr.d, {"ko": "1 / d입니다. SDPA는 head 하나의 차원 dh의 제곱근으로 나눕니다(1 / √dh를 곱합니다).",
                                          "en": "That is 1 / d; SDPA divides by the square root of one head's "
                                                "dimension dh (it multiplies by 1 / √dh)."}, name="by_d"),
        ),
        wrong=(
            ("0.5", "ex.only_here"), ("1 / 2", "ex.only_here"),  # the example's 1 / √4, typed in
            ("1 / np.sqrt(tr.d / 2)", "ex.only_here"),  # dh typed in as d / 2: a hidden example has h = 4
            ("1 / np.sqrt(tr.Q.shape[-1])", _ONE_OVER_SQRT_D),  # Q's last axis before the split into heads: d
            ("tr.dh ** 0.5", _SQRT_DH), ("1 / tr.dh", _NO_ROOT),
        ),
        given=trace(),
    ),
    Exercise(
        "09.key_padding",
        {"ko": "Causal attn_mask와 key_padding_mask(앞의 real개가 실제 토큰)를 받은 nn.MultiheadAttention이 더하는 M (T × T, 예: T = 5, real = 3)",
         "en": "the M that nn.MultiheadAttention adds with a causal attn_mask and a key_padding_mask (the first real tokens real; T × T, e.g. T = 5, real = 3)"},
        lambda T, real: additive_mask(_keys_only(T, real)),
        "def answer(T, real):\n"
        "    i, j = np.arange(T)[:, None], np.arange(T)[None, :]\n"
        "    return np.where((j <= i) & (j < real), 0.0, -np.inf)",
        (
            {"ko": "두 마스크가 모두 적용됩니다. key_padding_mask는 padding 토큰을 Key로 쓰지 못하게 할 뿐, padding 토큰 자신의 "
                   "행은 그대로 둡니다.",
             "en": "Both masks apply. key_padding_mask keeps every token from using a padding token as a Key; it "
                   "leaves the padding tokens' own rows as they are."},
            {"ko": "칸 (i, j)가 0이려면 Causal mask의 조건과 'Key가 실제 토큰'이라는 조건을 모두 만족해야 합니다. 행 `i`에 대한 조건은 없습니다. `np.arange`와 `np.where`로 만드세요.",
             "en": "Cell (i, j) is 0 only where both hold: the causal condition, and 'the Key is a real token'; "
                   "there is no condition on the row `i`. Build it with `np.arange` and `np.where`."},
        ),
        (
            Mistake(lambda T, real: make_mask(Mask("padding", length=real), T), _PADDING_MASK_ROWS,
                    name="padding_rows"),
            Mistake(lambda T, real: make_mask("causal", T), _CAUSAL_ONLY, name="causal_only"),
            Mistake(lambda T, real: additive_mask(np.broadcast_to(np.arange(T) < real, (T, T))), _KEY_PADDING_ONLY,
                    name="no_causal"),
            Mistake(lambda T, real: additive_mask(causal_allowed(T) & (np.arange(T) >= real)), _READ_BACKWARDS,
                    name="padding_inverted"),
        ),
        note={"ko": "padding 토큰의 행은 실제 토큰들을 참조합니다. 그 출력은 아무도 쓰지 않는 값입니다.",
              "en": "The padding tokens' rows attend to the real tokens; their outputs are values no one uses."},
        wrong=(  # as a learner types them: the example's 3 real tokens typed in, then each mistake
            ("np.where((np.arange(T) <= np.arange(T)[:, None]) & (np.arange(T) < 3), 0.0, -np.inf)", "ex.only_here"),
            # the condition on the row: a padding token's row masked whole, which is attention_lab's padding mask
            ("np.where((np.arange(T) <= np.arange(T)[:, None]) & (np.arange(T)[:, None] < real), 0.0, -np.inf)",
             _PADDING_MASK_ROWS),
            ("np.triu(np.full((T, T), -np.inf), 1)", _CAUSAL_ONLY),
            ("np.where(np.arange(T) < real, 0.0, -np.inf) * np.ones((T, 1))", _KEY_PADDING_ONLY),
            ("np.where((np.arange(T) <= np.arange(T)[:, None]) & (np.arange(T) >= real), 0.0, -np.inf)",
             _READ_BACKWARDS),
        ),
        given=values(("T", "real"), (5, 3), (6, 4), (4, 1)),
    ),
    Exercise(
        "09.average",
        {"ko": "average_attn_weights=True(기본값)일 때 nn.MultiheadAttention이 돌려주는 가중치 (T × T)",
         "en": "the weights nn.MultiheadAttention returns with average_attn_weights=True, its default (T × T)"},
        lambda tr: tr.P.mean(axis=0),
        "tr.P.mean(axis=0)",
        (
            {"ko": "기본값에서는 head별 가중치 대신 모든 head의 가중치를 칸마다 평균한 행렬 하나를 돌려줍니다.",
             "en": "By default it returns one matrix instead of one per head: the weights of all heads, averaged "
                   "cell by cell."},
            {"ko": "`tr.P`는 (h, T, T)입니다. head 축을 따라 평균하세요.",
             "en": "`tr.P` is (h, T, T); average along the head axis."},
        ),
        (
            Mistake(lambda tr: tr.P[0], _HEAD_1, name="one_head"),
            Mistake(lambda tr: tr.P.sum(axis=0), _SUMMED, name="summed_heads"),
            Mistake(lambda tr: tr.P.mean(axis=1), _QUERY_AXIS, name="wrong_axis"),
        ),
        tol=1e-3,
        note={"ko": "head별 P를 보려면 average_attn_weights=False를 넘기세요. 이 노트북이 그렇게 합니다.",
              "en": "To see each head's P, pass average_attn_weights=False, as this notebook does."},
        wrong=(
            ("(tr.P[0] + tr.P[1]) / 2", "ex.only_here"), ("tr.P.sum(axis=0) / 2", "ex.only_here"),  # h = 2 typed in
            ("tr.P[0]", _HEAD_1), ("tr.P.sum(axis=0)", _SUMMED), ("tr.P.mean(axis=1)", _QUERY_AXIS),
            ("tr.P.mean(axis=-1)", "ex.wrong_shape"),  # each row's mean: (h, T)
        ),
        given=trace(),
    ),
]
