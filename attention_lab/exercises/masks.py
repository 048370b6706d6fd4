# ruff: noqa: E501  (hints are prose, one sentence a line; Korean letters count double)
"""The exercises of notebooks 08 (masks and the ways code writes them) and 09 (the same numbers from PyTorch).

Every answer, and every known mistake's value, is computed from the article's
example grown to more tokens, from the mask registry or from the conventions,
never typed in. None of them needs PyTorch: notebook 09's exercises ask what
PyTorch's arguments mean, in attention_lab's terms, so they run without it.
"""

from functools import cache

import numpy as np

from ..numeric.conventions import CONVENTIONS
from ..numeric.core import softmax
from ..numeric.examples import article_example
from ..numeric.masks import Mask, additive_mask, allowed_of, causal_allowed, make_mask
from . import Exercise, Mistake


@cache
def _tr(T=3, mask="causal"):
    return article_example(mask=mask, T=T)


def _sliding(T=5, window=2):  # -> [T, T] bool, True = may attend
    return allowed_of(Mask("sliding", window=window), T)


def _padding_row_filled(fill):  # token 4's weights (Head 1, T = 5, 3 real tokens) with `fill` written over the masked scores
    tr = _tr(5, Mask("padding", length=3))
    return softmax(np.where(tr.M[3] == 0, tr.S_scaled[0, 3], fill))


def _keys_only(T=5, real=3):  # -> [T, T] bool: causal, and no token sees a padding key; padding rows kept
    return causal_allowed(T) & (np.arange(T) < real)


_NOT_MINUS_1E9 = {
    "ko": "−∞ 대신 아주 큰 음수를 썼습니다. M은 정확히 −∞(`-np.inf`)이고, exp를 거치면 정확히 0이 됩니다.",
    "en": "You used a large negative number instead of −∞; M holds exactly −∞ (`-np.inf`), "
          "which exp turns into exactly 0.",
}
_ONES_AND_ZEROS = {
    "ko": "참조할 수 있는 칸이 1, 없는 칸이 0인 행렬입니다. M은 점수에 더하는 행렬이므로 참조할 수 있는 칸이 0, "
          "없는 칸이 −∞입니다.",
    "en": "That marks the allowed cells with 1 and the others with 0; M is added to the scores, "
          "so allowed cells are 0 and the others −∞.",
}


EXERCISES = [
    # 08 — masks and their conventions
    Exercise(
        "08.sliding",
        {"ko": "T = 5, w = 2인 sliding window 마스크 M (5 × 5)", "en": "the sliding-window mask M for T = 5, w = 2 (5 × 5)"},
        lambda: make_mask(Mask("sliding", window=2), 5),
        "i, j = np.arange(5)[:, None], np.arange(5)[None, :]\n"
        "answer = np.where((j <= i) & (j > i - 2), 0.0, -np.inf)",
        (
            {"ko": "각 Query 토큰은 자기 자신을 포함해 가장 최근의 w개 토큰만 참조합니다. 미래 토큰과 그보다 오래된 토큰의 칸은 −∞입니다.",
             "en": "Each Query token sees only the last w tokens, itself included; the cells of future tokens and of "
                   "older tokens are −∞."},
            {"ko": "행 번호 `i`와 열 번호 `j`를 `np.arange`로 만들면 `j <= i`와 `j > i - 2`처럼 칸마다 비교할 수 있습니다. "
                   "`np.where(조건, 0.0, -np.inf)`로 M을 만드세요.",
             "en": "Make the row index `i` and the column index `j` with `np.arange`, so that `j <= i` and `j > i - 2` "
                   "compare every cell; then `np.where(condition, 0.0, -np.inf)` gives M."},
        ),
        (
            Mistake(lambda: make_mask("causal", 5),
                    {"ko": "Causal mask입니다. 창 크기 w = 2이므로 각 토큰은 자기 자신과 바로 앞 토큰만 참조합니다. "
                           "그보다 오래된 토큰도 −∞입니다.",
                     "en": "That is the causal mask; with a window of w = 2 each token sees only itself and the token "
                           "just before it, so older tokens are −∞ too."}),
            Mistake(lambda: make_mask(Mask("sliding", window=3), 5),
                    {"ko": "창이 한 칸 넓습니다(세 토큰). w = 2는 자기 자신을 포함해 두 토큰입니다: i − 2 < j ≤ i.",
                     "en": "The window is one token too wide (three tokens); w = 2 counts itself: "
                           "two tokens, i − 2 < j ≤ i."}),
            Mistake(lambda: make_mask(Mask("sliding", window=2), 5).T,
                    {"ko": "띠가 대각선 위쪽, 미래 토큰 쪽에 있습니다. 행은 Query 토큰, 열은 Key 토큰이므로 참조할 수 있는 칸은 "
                           "대각선과 그 바로 왼쪽입니다.",
                     "en": "The band lies above the diagonal, on the future tokens; rows are Query tokens and columns "
                           "Key tokens, so the allowed cells are the diagonal and the cells just left of it."}),
            Mistake(lambda: _sliding().astype(float), _ONES_AND_ZEROS),
            Mistake(lambda: np.where(_sliding(), 0.0, -1e9), _NOT_MINUS_1E9),
        ),
        note={"ko": "Mistral의 sliding window와 TransformerLens의 local attention이 이 띠 모양입니다.",
              "en": "This band is Mistral's sliding window and TransformerLens's local attention."},
    ),
    Exercise(
        "08.wrong_api",
        {"ko": "True = 참조 가능인 마스크를 받은 nn.MultiheadAttention이 점수에 더하는 M (5 × 5)",
         "en": "the M that nn.MultiheadAttention adds when given a True = may attend mask (5 × 5)"},
        lambda: CONVENTIONS["masked"].additive(CONVENTIONS["may_attend"].write(_sliding())),
        "i, j = np.arange(5)[:, None], np.arange(5)[None, :]\n"
        "allowed = (j <= i) & (j > i - 2)\n"
        "answer = np.where(allowed, -np.inf, 0.0)",
        (
            {"ko": "nn.MultiheadAttention은 bool 마스크의 True를 제외할 칸으로 읽습니다. 참조해야 할 칸이 제외되고, "
                   "제외해야 할 칸이 남습니다.",
             "en": "nn.MultiheadAttention reads True in a boolean mask as a cell to remove: the cells meant to be seen "
                   "are removed, and the ones meant to be hidden stay."},
            {"ko": "먼저 연습 1처럼 `allowed`를 만드세요. 그다음 `np.where`로, True인 칸은 `-np.inf`, False인 칸은 0이 되게 하세요.",
             "en": "Build `allowed` as in exercise 1; then `np.where` with `-np.inf` where it is True and 0 where "
                   "it is False."},
        ),
        (
            Mistake(lambda: make_mask(Mask("sliding", window=2), 5),
                    {"ko": "동료가 의도한 마스크, 즉 SDPA가 더하는 M입니다. nn.MultiheadAttention은 True를 '제외'로 읽습니다.",
                     "en": "That is the mask your colleague meant, the M that SDPA adds; nn.MultiheadAttention reads "
                           "True as 'masked'."}),
            Mistake(lambda: (~_sliding()).astype(float),
                    {"ko": "bool 마스크를 0과 1로 적은 것입니다. 답은 점수에 더하는 M입니다: 남는 칸은 0, 제외되는 칸은 −∞.",
                     "en": "That is the boolean mask written as 0 and 1; the answer is the M added to the scores: "
                           "0 where a score stays, −∞ where it is removed."}),
            Mistake(lambda: make_mask("causal", 5),
                    {"ko": "Causal mask입니다. 동료의 마스크는 sliding window(w = 2)이고, nn.MultiheadAttention은 그것을 뒤집어 읽습니다.",
                     "en": "That is the causal mask; your colleague's mask is the sliding window (w = 2), and "
                           "nn.MultiheadAttention reads it inverted."}),
        ),
        note={"ko": "이제 각 토큰은 자기 자신은 못 보고 미래 토큰과 창보다 오래된 토큰만 봅니다. 고치려면 `~allowed`를 넘기거나, "
                    "두 API가 똑같이 더하는 float 마스크(0 / −∞)를 넘기세요.",
              "en": "Each token now sees only what it should not: the future and the tokens older than the window, "
                    "never itself. The fix: pass `~allowed`, or a float mask (0 / −∞), which both APIs add as it is."},
    ),
    Exercise(
        "08.padding_row",
        {"ko": "−1e9를 점수 위에 덮어썼을 때 padding 토큰 4의 가중치 (Head 1, T = 5, 실제 토큰 3개)",
         "en": "padding token 4's weights with −1e9 written over the masked scores (Head 1, T = 5, 3 real tokens)"},
        lambda: _padding_row_filled(-1e9),
        "tr5 = al.article_example(mask=al.Mask(\"padding\", length=3), T=5)\n"
        "answer = al.softmax(np.where(tr5.M[3] == 0, tr5.S_scaled[0, 3], -1e9))",
        (
            {"ko": "padding 토큰의 행은 모든 칸이 마스크됩니다. 모든 점수를 같은 수로 덮어쓰면 Softmax는 그 수들을 구별할 수 "
                   "없습니다.",
             "en": "Every cell of a padding token's row is masked; when every score is overwritten with the same "
                   "number, the softmax cannot tell them apart."},
            {"ko": "다섯 칸이 모두 −1e9입니다. 같은 점수 다섯 개의 Softmax는 다섯 개의 같은 가중치이고, 합은 1입니다.",
             "en": "All five cells are −1e9; the softmax of five equal scores is five equal weights that add up to 1."},
        ),
        (
            Mistake(lambda: _tr(5, Mask("padding", length=3)).P[0, 3],
                    {"ko": "attention_lab이 −∞로 계산한 행입니다(참조할 것이 없으니 0). −1e9는 −∞가 아니라 보통의 수라서, "
                           "한 행이 모두 −1e9이면 Softmax가 가중치를 나누어 줍니다.",
                     "en": "That is the row attention_lab computes with −∞ (nothing to attend to: 0). −1e9 is an "
                           "ordinary number, so a row of nothing but −1e9 still gets its weights shared out."}),
            Mistake(lambda: np.full(5, np.nan),
                    {"ko": "단순한 Softmax에 −∞만 있는 행을 넣으면 0 / 0 = NaN이 됩니다. −1e9는 유한한 수라서 NaN이 되지 않습니다.",
                     "en": "A naive softmax of a row of −∞ gives 0 / 0 = NaN; −1e9 is a finite number, so no NaN."}),
            Mistake(lambda: softmax(_tr(5, Mask("padding", length=3)).S_scaled[0, 3]),
                    {"ko": "−1e9를 점수에 더했을 때의 결과입니다(float64). 이 연습은 −1e9를 점수 위에 덮어씁니다(masked_fill).",
                     "en": "That is what −1e9 added to the scores gives (in float64); this exercise writes −1e9 over "
                           "the scores (masked_fill)."}),
            Mistake(lambda: _padding_row_filled(-1e9)[:3],
                    {"ko": "실제 토큰 세 개의 가중치만 적었습니다. 덮어쓴 행에는 padding 토큰도 포함해 다섯 칸이 있습니다.",
                     "en": "Only the three real tokens' weights; the overwritten row has five cells, the padding "
                           "tokens' included."}),
        ),
        tol=1e-3,
        note={"ko": "padding 토큰이 padding을 포함한 모든 토큰을 똑같이 참조합니다. 오류 없이 조용히 일어나는 일입니다.",
              "en": "The padding token attends evenly to every token, padding included, silently, with no error."},
    ),
    # 09 — the same numbers from PyTorch
    Exercise(
        "09.scale",
        {"ko": "글의 예시에서 SDPA의 기본 scale", "en": "SDPA's default scale for the article's heads"},
        lambda: 1 / np.sqrt(_tr().dh),
        "1 / np.sqrt(tr.dh)",
        (
            {"ko": "SDPA는 점수에 scale을 곱합니다. 점수를 √dh로 나누는 것과 같은 값을 곱해야 합니다.",
             "en": "SDPA multiplies the scores by scale; it must multiply by what dividing by √dh amounts to."},
            {"ko": "head 하나의 차원은 `tr.dh`입니다. √dh로 나누는 것은 1 / √dh를 곱하는 것입니다.",
             "en": "One head's dimension is `tr.dh`; dividing by √dh is multiplying by 1 / √dh."},
        ),
        (
            Mistake(lambda: np.sqrt(_tr().dh),
                    {"ko": "√dh입니다. SDPA는 scale을 곱하므로 1 / √dh여야 합니다.",
                     "en": "That is √dh; SDPA multiplies by scale, so it is 1 / √dh."}),
            Mistake(lambda: 1 / np.sqrt(_tr().d),
                    {"ko": "1 / √d입니다. SDPA는 query의 마지막 축, 즉 head 하나의 차원 dh를 씁니다.",
                     "en": "That is 1 / √d; SDPA uses the last axis of query, one head's dimension dh."}),
            Mistake(lambda: 1 / _tr().dh,
                    {"ko": "1 / dh입니다. 제곱근이 빠졌습니다.", "en": "That is 1 / dh; the square root is missing."}),
        ),
    ),
    Exercise(
        "09.key_padding",
        {"ko": "Causal attn_mask와 key_padding_mask(실제 토큰 3개, T = 5)를 받은 nn.MultiheadAttention이 더하는 M (5 × 5)",
         "en": "the M that nn.MultiheadAttention adds with a causal attn_mask and a key_padding_mask (3 real tokens, T = 5)"},
        lambda: additive_mask(_keys_only()),
        "i, j = np.arange(5)[:, None], np.arange(5)[None, :]\n"
        "answer = np.where((j <= i) & (j < 3), 0.0, -np.inf)",
        (
            {"ko": "두 마스크가 모두 적용됩니다. key_padding_mask는 padding 토큰을 Key로 쓰지 못하게 할 뿐, padding 토큰 자신의 "
                   "행은 그대로 둡니다.",
             "en": "Both masks apply. key_padding_mask keeps every token from using a padding token as a Key; it "
                   "leaves the padding tokens' own rows as they are."},
            {"ko": "칸 (i, j)는 `j <= i`(Causal)이고 `j < 3`(Key가 실제 토큰)일 때만 0입니다. 행 `i`에는 조건이 없습니다.",
             "en": "Cell (i, j) is 0 only where `j <= i` (causal) and `j < 3` (the Key is a real token); "
                   "there is no condition on the row `i`."},
        ),
        (
            Mistake(lambda: make_mask(Mask("padding", length=3), 5),
                    {"ko": "attention_lab의 padding 마스크입니다. padding 토큰의 행까지 막습니다. key_padding_mask는 Key(열)만 막으므로 "
                           "토큰 4와 5는 실제 토큰들을 참조합니다.",
                     "en": "That is attention_lab's padding mask, which masks the padding tokens' rows too; "
                           "key_padding_mask masks only the Keys (columns), so tokens 4 and 5 attend to the real tokens."}),
            Mistake(lambda: make_mask("causal", 5),
                    {"ko": "Causal mask만 적용했습니다. key_padding_mask는 padding 토큰(토큰 4와 5)의 열을 모든 행에서 −∞로 만듭니다.",
                     "en": "Only the causal mask; key_padding_mask makes the padding tokens' columns (tokens 4 and 5) −∞ "
                           "in every row."}),
            Mistake(lambda: additive_mask(np.broadcast_to(np.arange(5) < 3, (5, 5))),
                    {"ko": "key_padding_mask만 적용했습니다. Causal attn_mask도 함께 적용되어 미래 토큰은 −∞입니다.",
                     "en": "Only key_padding_mask; the causal attn_mask applies as well, so future tokens are −∞."}),
            Mistake(lambda: additive_mask(causal_allowed(5) & (np.arange(5) >= 3)),
                    {"ko": "key_padding_mask를 거꾸로 읽었습니다. True는 padding(제외할 Key)이므로, 실제 토큰의 열이 남아야 합니다.",
                     "en": "You read key_padding_mask the other way round; True marks padding (Keys to ignore), so the "
                           "real tokens' columns stay."}),
        ),
        note={"ko": "토큰 4와 5의 행은 실제 토큰 세 개를 참조합니다. 그 출력은 아무도 쓰지 않는 값입니다.",
              "en": "The rows of tokens 4 and 5 attend to the three real tokens; their outputs are values no one uses."},
    ),
    Exercise(
        "09.average",
        {"ko": "average_attn_weights=True(기본값)일 때 nn.MultiheadAttention이 돌려주는 가중치 (3 × 3)",
         "en": "the weights nn.MultiheadAttention returns with average_attn_weights=True, its default (3 × 3)"},
        lambda: _tr().P.mean(axis=0),
        "tr.P.mean(axis=0)",
        (
            {"ko": "기본값에서는 head별 가중치 대신 모든 head의 가중치를 칸마다 평균한 행렬 하나를 돌려줍니다.",
             "en": "By default it returns one matrix instead of one per head: the weights of all heads, averaged "
                   "cell by cell."},
            {"ko": "`tr.P`는 (h, T, T)입니다. head 축(축 0)을 따라 평균하세요.",
             "en": "`tr.P` is (h, T, T); average along the head axis (axis 0)."},
        ),
        (
            Mistake(lambda: _tr().P[0],
                    {"ko": "Head 1의 P입니다. 기본값은 모든 head의 평균입니다.",
                     "en": "That is Head 1's P; the default averages over all heads."}),
            Mistake(lambda: _tr().P.sum(axis=0),
                    {"ko": "head들의 가중치를 더했습니다. 평균이므로 head 수로 나누어야 하고, 각 행의 합은 1입니다.",
                     "en": "You added the heads' weights; an average divides by the number of heads, so each row "
                           "still adds up to 1."}),
            Mistake(lambda: _tr().P.mean(axis=1),
                    {"ko": "Query 토큰 축으로 평균했습니다. head 축(축 0)으로 평균하세요.",
                     "en": "You averaged over the Query tokens; average over the head axis (axis 0)."}),
        ),
        tol=1e-3,
        note={"ko": "head별 P를 보려면 average_attn_weights=False를 넘기세요. 이 노트북이 그렇게 합니다.",
              "en": "To see each head's P, pass average_attn_weights=False, as this notebook does."},
    ),
]
