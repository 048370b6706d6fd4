"""The words of the package's own texts, in Korean and English, for both renderers.

Stage labels live with the stages (`stages.STAGES[name].label`) and mask words
with the masks (`masks.MASKS[name]`); everything else a figure or a view
says is here, so the live view and the figures use the same strings.

    from attention_lab import text
    text.words("ko")["query"]      # "Query 토큰"
    text.ordinal(3, "ko")          # "세 번째"
"""

from . import checks

WORDS = {
    "en": {
        "source": "example", "article": "article example", "random": "random (seed)",
        "reset": "↺ article example", "T": "T tokens", "h": "h heads", "dh": "dh per head", "d": "d = h·dh",
        "mask": "mask", "head": "head", "head_n": "Head {n}",
        "all_heads": "all heads", "seed": "seed", "query": "Query token", "key": "Key token",
        "row": "row (Query token)", "token": "token", "component": "component",
        "split": "Q · K · V split into heads (each head's columns in its colour)",
        "outputs": "each head's output O", "concat": "Concat → H",
        "dot": "Score of Query token {i} and Key token {j}", "score": "dot product", "scaled": "÷ √dh",
        "masked": "+ M", "softmax": "Softmax of row {i}", "scores": "scores", "sum": "sum", "weights": "weights P",
        "weighted_sum": "Output of token {i}: the weighted sum of the Value rows", "weight": "weight",
        "value": "Value", "output": "output O",
        "scaling_note": "Every score is divided by √dh = √{dh} {eq} {root}, so the spread of scores does not grow "
                        "with dh. Without it, raise dh and watch the largest score take almost all the weight.",
        "no_torch": 'PyTorch is not installed: pip install -e ".[torch]" adds it. The outputs stored in this '
                    "notebook show what it prints with PyTorch.",
        # generation from the KV cache, token by token
        "previous_token": "◀ previous token", "next_token": "next token ▶",
        "decode_step": "Step {t} of {T}: generating token {t}", "new_query": "Query of token {t}",
        "K_cache": "K cache (Key rows)", "V_cache": "V cache (Value rows)", "row_scores": "S / √dh, row {t}",
        "row_weights": "P, row {t}", "row_output": "O, row {t}", "full_row": "row {t} of the full computation's P",
        "cache_size": "The cache holds the Key and Value rows of {n} token(s): {values} values.",
        "kv_reads": "With h = {h} Query heads sharing g = {g} K/V heads, Query head {i} reads K/V head {j}.",
        # the blockwise (online) softmax stepper
        "block": "block size (Key tokens)", "previous_block": "◀ previous block", "next_block": "next block ▶",
        "block_of": "Block {k} of {n}: Key tokens {keys}", "block_of_one": "Block {k} of {n}: Key token {keys}",
        "block_scores": "S / √dh + M of this block",
        "m_old": "m before", "m_new": "m after", "rescale": "e^(m_old − m)", "running_sum": "l",
        "running_output": "O so far = O_acc / l", "full_output": "O of the full computation",
        "rule_m": "m ← max(m, the largest score of the block)",
        "last_block": "After the last block, O = O_acc / l equals the full computation's O; "
                      "no (T, T) matrix was made.",
    },
    "ko": {
        "source": "예시", "article": "글의 예시", "random": "무작위 (seed)",
        "reset": "↺ 글의 예시", "T": "토큰 수 T", "h": "head 수 h", "dh": "head 차원 dh", "d": "모델 차원 d = h·dh",
        "mask": "마스크", "head": "head", "head_n": "Head {n}",
        "all_heads": "모든 head", "seed": "seed", "query": "Query 토큰", "key": "Key 토큰",
        "row": "행 (Query 토큰)", "token": "토큰", "component": "성분",
        "split": "Q · K · V를 head별로 나누기 (head마다 자기 색의 열)",
        "outputs": "head별 출력 O", "concat": "이어 붙이기(Concat) → H",
        "dot": "{ith} Query 토큰과 {jth} Key 토큰의 점수", "score": "내적", "scaled": "÷ √dh",
        "masked": "+ M", "softmax": "{ith} 행의 Softmax", "scores": "점수", "sum": "합", "weights": "가중치 P",
        "weighted_sum": "{ith} 토큰의 출력: Value의 가중합", "weight": "가중치",
        "value": "Value", "output": "출력 O",
        "scaling_note": "모든 점수를 √dh = √{dh} {eq} {root}로 나눕니다. 차원이 커져도 점수의 크기가 지나치게 커지지 "
                        "않도록 조절합니다. 나누지 않으면 dh를 키울수록 가장 큰 점수가 가중치를 거의 다 가져갑니다.",
        "no_torch": 'PyTorch가 설치되어 있지 않습니다. pip install -e ".[torch]"로 추가할 수 있습니다. 이 노트북에 '
                    "저장된 출력은 PyTorch가 있을 때의 결과입니다.",
        # generation from the KV cache, token by token
        "previous_token": "◀ 이전 토큰", "next_token": "다음 토큰 ▶",
        "decode_step": "{T}단계 중 {t}단계: 토큰 {t} 만들기", "new_query": "토큰 {t}의 Query",
        "K_cache": "K 캐시 (Key 행)", "V_cache": "V 캐시 (Value 행)", "row_scores": "S / √dh의 {t}행",
        "row_weights": "P의 {t}행", "row_output": "O의 {t}행", "full_row": "전체 계산한 P의 {t}행",
        "cache_size": "캐시에는 토큰 {n}개의 Key 행과 Value 행, 값 {values}개가 들어 있습니다.",
        "kv_reads": "Query head {h}개가 K/V head {g}개를 나누어 쓰므로, Query head {i}는 K/V head {j}를 읽습니다.",
        # the blockwise (online) softmax stepper
        "block": "블록 크기 (Key 토큰 수)", "previous_block": "◀ 이전 블록", "next_block": "다음 블록 ▶",
        "block_of": "블록 {k} / {n}: Key 토큰 {keys}", "block_of_one": "블록 {k} / {n}: Key 토큰 {keys}",
        "block_scores": "이 블록의 S / √dh + M",
        "m_old": "이전 최댓값 m", "m_new": "새 최댓값 m", "rescale": "e^(m_old − m)", "running_sum": "누적 합 l",
        "running_output": "지금까지의 출력 O = O_acc / l", "full_output": "전체 계산의 출력 O",
        "rule_m": "m ← max(m, 이 블록에서 가장 큰 점수)",
        "last_block": "마지막 블록 뒤의 O = O_acc / l은 전체 계산의 O와 같습니다. T × T 행렬은 한 번도 만들지 "
                      "않았습니다.",
    },
}

# The live explorer's own words (attention_lab.widgets): notes, the row editor, the change marks. Only the browser
# shows them, never a figure, so they are kept out of WORDS (whose characters the figures' font must hold).
EXPLORER_WORDS = {
    "en": {
        "yours": "your numbers", "kv_heads": "K/V heads g", "kv_head_n": "K/V head {n}", "marks": "mark changes",
        "query_n": "Query token {n}", "key_n": "Key token {n}", "output_n": "output of token {n}",
        "edit": "edit a row", "edit_token": "token", "apply": "apply",
        "edit_hint": "e.g. [-1, 1, 1, 2]: {n} numbers, then Enter",
        "edit_count": "{what}: needs {n} numbers, got {m}. The picture is unchanged.",
        "edit_number": "{what}: {bad!r} is not a number. Write numbers such as [-1, 1, 1, 2]. "
                       "The picture is unchanged.",
        "edit_finite": "{what}: {bad!r} is not a finite number. The picture is unchanged.",
        "edit_done": "{what} = {row}",
        "row_of": "{matrix} token {n}",
        "note_article": "This is exactly the article's example: T = 3, d = 8, h = 2, causal mask.",
        "note_article_mask": "The article's Q, K and V, here with the {mask} mask (the article uses the causal mask).",
        "note_corner": "{tokens}, {heads} and {components} keep the article's numbers; the rest are small integers "
                       "from −2 to 2 that stay put when you move a size.",
        "note_kv": "With g = {g} K/V heads shared by the Query heads, K and V keep the article's numbers only in {kv}.",
        "note_random": "A random example from seed {seed}: small integers from −2 to 2, each fixed by its token, head "
                       "and component, so moving a size leaves every other number as it was.",
        "note_yours": "Your own Q, K and V. Edit one token's row below and every stage follows.",
        "tokens": ("token 1", "tokens 1–{n}"), "heads": ("Head 1", "Heads 1–{n}"),
        "components": ("component 1", "components 1–{n}"), "kv_span": ("K/V head 1", "K/V heads 1–{n}"),
    },
    "ko": {
        "yours": "직접 넣은 숫자", "kv_heads": "K/V head 수 g", "kv_head_n": "K/V head {n}", "marks": "바뀐 칸 표시",
        "query_n": "{nth} Query 토큰", "key_n": "{nth} Key 토큰", "output_n": "{nth} 토큰의 출력",
        "edit": "행 고치기", "edit_token": "토큰", "apply": "적용",
        "edit_hint": "예: [-1, 1, 1, 2] — 숫자 {n}개를 쓰고 Enter",
        "edit_count": "{what}: 숫자 {n}개가 필요한데 {m}개를 썼습니다. 그림은 그대로입니다.",
        "edit_number": "{what}: 숫자가 아닌 값이 있습니다 ({bad!r}). [-1, 1, 1, 2]처럼 숫자만 쓰세요. "
                       "그림은 그대로입니다.",
        "edit_finite": "{what}: 유한하지 않은 값이 있습니다 ({bad!r}). 그림은 그대로입니다.",
        "edit_done": "{what} = {row}",
        "row_of": "{nth} 토큰의 {matrix}",
        "note_article": "글의 예시 그대로입니다: T = 3, d = 8, h = 2, Causal mask.",
        "note_article_mask": "글의 Q, K, V입니다. 마스크만 {mask}입니다 (글은 Causal mask를 씁니다).",
        "note_corner": "글의 숫자가 그대로인 자리: {tokens}, {heads}, {components}. 나머지는 −2에서 2 사이의 작은 "
                       "정수이고, 크기를 바꿔도 제자리에 그대로 있습니다.",
        "note_kv": "K/V head를 g = {g}개만 두고 Query head들이 나눠 쓰므로, K와 V는 {kv}에만 글의 숫자가 남습니다.",
        "note_random": "seed {seed}로 만든 무작위 예시입니다. 값은 −2에서 2 사이의 작은 정수이고 "
                       "토큰·head·성분 자리마다 정해져 있어서, 크기를 바꿔도 나머지 숫자는 그대로입니다.",
        "note_yours": "직접 넣은 Q, K, V입니다. 아래에서 토큰 하나의 행을 고치면 모든 단계가 함께 바뀝니다.",
        "tokens": ("토큰 1", "토큰 1–{n}"), "heads": ("Head 1", "Head 1–{n}"),
        "components": ("성분 1", "성분 1–{n}"), "kv_span": ("K/V head 1", "K/V head 1–{n}"),
    },
}

_KO_ORDINALS = ("첫", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉", "열")


def words(lang):  # -> dict of the words in `lang`
    """Every word of the package's texts in one language ("ko" or "en")."""
    return WORDS[checks.lang(lang)]


def ordinal(n, lang):  # 1-based n -> "세 번째" / "3rd"
    """An ordinal as the language writes it: 첫 번째, 두 번째, …, 열여섯 번째; 1st, 2nd, 3rd, 4th, …"""
    n = checks.whole_number("n", n, 1)
    if checks.lang(lang) == "ko":
        if n <= 10:
            return f"{_KO_ORDINALS[n - 1]} 번째"
        if n < 20:
            ones = "한" if n == 11 else _KO_ORDINALS[n - 11]  # 열한, 열두, 열세, …
            return f"열{ones} 번째"
        return f"{n}번째"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def bytes_text(n_bytes):  # -> "64 GiB", "1.5 MiB", "512 B"
    """A size in bytes as a person reads it: binary units (KiB = 1024 B), at most three significant digits."""
    n_bytes = checks.positive_number("n_bytes", n_bytes) if n_bytes else 0.0
    units = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
    power = 0
    while n_bytes >= 1024 and power < len(units) - 1:
        n_bytes, power = n_bytes / 1024, power + 1
    return f"{n_bytes:.3g} {units[power]}"


# --- The static figures' words (plotting.py): one block, keys starting with "fig_". ----------------
WORDS["en"].update({
    "fig_omitted": "values omitted: cells too small",
    "fig_omitted_some": "values left out where the cells are too small",
    "fig_too_many": "values omitted: too many cells to label; see the one-head figures",
    "fig_value_row": "Key token (Value row)",
    "fig_heads_title": "Core Attention runs in each head independently",
    "fig_heads_split": "1. Split into heads",
    "fig_heads_core": "2. Core Attention in each head",
    "fig_heads_concat": "3. Concat",
    "fig_scores_title": "Head {n}: the score of every Query token with every Key token",
    "fig_scores_vectors": "Query of token {i} = {q},   Key of token {j} = {k}",
    "fig_scores_dot": "S[{i}, {j}] = {terms} = {score}   (row = Query token {i}, column = Key token {j})",
    "fig_mask_title": "Head {n}: the mask M removes the scores a Query token may not see",
    "fig_mask_rule": "0 + score = score,   −∞ + score = −∞",
    "fig_softmax_title": "Head {n}: softmax turns each row of scores into weights that sum to 1",
    "fig_softmax_by_row": "softmax\nby row",
    "fig_softmax_table": "Row {i} (Query token {i}): score → exponential → weight",
    "fig_softmax_scores": "score s",
    "fig_softmax_value": "value",
    "fig_softmax_weights": "weight p = eˢ / {total}",
    "fig_sum": "sum",
    "fig_weighted_title": "Head {n}: each output row is a weighted sum of the Value rows",
    "fig_weighted_sum_row": "sum = output of token {i}",
    "fig_weighted_equation": "output of token {i} = {terms} ≈ {row}",
    "fig_stages_title": "Head {n}: every stage of Core Attention",
    "fig_all_title": "Every stage of every head",
    "fig_scaling_title": "Head {n}: P with and without ÷ √dh   (√dh = √{dh} = {root})",
    "fig_scaling_without": "without ÷ √dh",
    "fig_scaling_with": "with ÷ √dh",
})
WORDS["ko"].update({
    "fig_omitted": "값 생략: 칸이 너무 작음",
    "fig_omitted_some": "칸이 너무 작은 곳은 값을 생략했습니다",
    "fig_too_many": "값 생략: 칸이 너무 많음. head 하나씩 그린 그림에서 보세요",
    "fig_value_row": "Key 토큰 (Value 행)",
    "fig_heads_title": "Core Attention은 head마다 독립적으로 계산합니다",
    "fig_heads_split": "1. head별로 나누기",
    "fig_heads_core": "2. head마다 Core Attention",
    "fig_heads_concat": "3. 이어 붙이기(Concat)",
    "fig_scores_title": "Head {n}: 모든 Query 토큰과 모든 Key 토큰 사이의 점수",
    "fig_scores_vectors": "토큰 {i}의 Query = {q},   토큰 {j}의 Key = {k}",
    "fig_scores_dot": "S[{i}, {j}] = {terms} = {score}   (행 = Query 토큰 {i}, 열 = Key 토큰 {j})",
    "fig_mask_title": "Head {n}: 마스크 M이 참조할 수 없는 토큰의 점수를 지웁니다",
    "fig_mask_rule": "0 + 점수 = 점수,   −∞ + 점수 = −∞",
    "fig_softmax_title": "Head {n}: Softmax는 점수 한 행을 합이 1인 가중치로 바꿉니다",
    "fig_softmax_by_row": "행마다\nSoftmax",
    "fig_softmax_table": "{i}행 (Query 토큰 {i}): 점수 → 지수 → 가중치",
    "fig_softmax_scores": "점수 s",
    "fig_softmax_value": "값",
    "fig_softmax_weights": "가중치 p = eˢ / {total}",
    "fig_sum": "합",
    "fig_weighted_title": "Head {n}: 출력의 각 행은 Value 행들의 가중합입니다",
    "fig_weighted_sum_row": "합 = 토큰 {i}의 출력",
    "fig_weighted_equation": "토큰 {i}의 출력 = {terms} ≈ {row}",
    "fig_stages_title": "Head {n}: Core Attention의 모든 단계",
    "fig_all_title": "모든 head의 모든 단계",
    "fig_scaling_title": "Head {n}: √dh로 나눈 P와 나누지 않은 P   (√dh = √{dh} = {root})",
    "fig_scaling_without": "√dh로 나누지 않으면",
    "fig_scaling_with": "√dh로 나누면",
})


# --- The notebooks' own figures (titles and axes drawn in notebook code): keys starting with "nb_". ----------------
WORDS["en"].update({
    "nb_spread": "spread of the scores",
    "nb_top_weight": "mean of the largest weight per row",
    "nb_read_as": "{mask}, read as\n{convention}",
})
WORDS["ko"].update({
    "nb_spread": "점수의 퍼짐",
    "nb_top_weight": "행마다 가장 큰 가중치의 평균",
    "nb_read_as": "{mask}를 이렇게 읽으면:\n{convention}",
})
