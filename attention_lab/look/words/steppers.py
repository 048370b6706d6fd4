# ruff: noqa: E501  (one entry a line: prose in two languages)
"""The words of the step widgets of notebooks 10 and 11 (`al.decode_view`, `al.blockwise_view`).

They share the explorer's words for what both show ("T", "head", "head_n", "kv_head_n", "query", "key").
"""

WORDS = {
    # ---- both
    'previous_step': ('◀ 이전 단계', '◀ previous step'),
    'next_step': ('다음 단계 ▶', 'next step ▶'),
    'step_T': ('토큰 수 T', 'T tokens'),
    # ---- generation from the KV cache (notebook 10)
    'decode_label': ('KV 캐시로 한 토큰씩 계산하기', 'Computing token by token from the KV cache'),
    'decode_plain': ('KV 캐시 단계: 실행하거나 신뢰하면(Trust Notebook) 나타남', 'KV cache steps: show when run or trusted (Trust Notebook)'),
    'decode_step': ('{T}단계 중 {t}단계: 위치 {t}의 출력', 'Step {t} of {T}: the output at position {t}'),
    'decode_what': ('토큰 {t}의 Key 행과 Value 행을 캐시에 더하고, 토큰 {t}의 Query 하나로 위치 {t}의 출력을 계산합니다. 이 출력으로 다음 토큰을 예측합니다.', "Token {t}'s Key and Value rows join the cache, and token {t}'s Query alone gives the output at position {t}, from which the next token is predicted."),
    'new_query': ('토큰 {t}의 Query', 'Query of token {t}'),
    'K_cache': ('K 캐시 (Key 행)', 'K cache (Key rows)'),
    'V_cache': ('V 캐시 (Value 행)', 'V cache (Value rows)'),
    'row_scores': ('S / √dh의 {t}행', 'S / √dh, row {t}'),
    'row_weights': ('P의 {t}행', 'P, row {t}'),
    'row_output': ('O의 {t}행', 'O, row {t}'),
    'full_row': ('전체 계산한 P의 {t}행', "row {t} of the full computation's P"),
    'full_row_same': ('캐시로 계산한 P의 {t}행은 T × T를 한 번에 계산한 P의 {t}행과 같습니다 (아직 오지 않은 토큰의 자리는 0).', "Row {t} of P from the cache equals row {t} of P computed all at once, T × T (0 at the tokens still to come)."),
    'full_row_differs': ('캐시로 계산한 P의 {t}행이 한 번에 계산한 P의 {t}행과 다릅니다.', 'Row {t} of P from the cache differs from row {t} of P computed all at once.'),
    'cache_size': ('캐시에는 토큰 {n}개의 Key 행과 Value 행이 있습니다. 값은 K/V head {g}개를 모두 세어 {values}개이고, 그중 여기 보이는 {shown}의 값은 {per}개입니다.', 'The cache holds the Key and Value rows of {n} token(s): {values} values counting all {g} K/V heads, {per} of them in {shown}, shown here.'),
    'cache_size_one': ('캐시에는 토큰 {n}개의 Key 행과 Value 행, 값 {values}개가 있습니다 (K/V head가 하나뿐이라 모두 여기 보입니다).', 'The cache holds the Key and Value rows of {n} token(s): {values} values (there is one K/V head, all shown here).'),
    'saved': ('지금까지 캐시가 아낀 곱셈-덧셈: {saved}번. 캐시 없이 {without}번, 캐시로 {cached}번입니다 (attention layer 하나, 모든 head, Q·K·V projection 포함).', 'Multiply-adds the cache has saved so far: {saved}. Without the cache {without}, with it {cached} (one attention layer, every head, the Q, K, V projections included).'),
    'kv_reads': ('Query head {h}개가 K/V head {g}개를 나누어 쓰므로, {i}번 Query head는 {j}번 K/V head를 읽습니다.', 'With h = {h} Query heads sharing g = {g} K/V heads, Query head {i} reads K/V head {j}.'),
    # ---- the online softmax, block by block (notebook 11)
    'blockwise_label': ('블록 단위 Softmax (online softmax)', 'The blockwise (online) softmax'),
    'blockwise_plain': ('블록 Softmax 단계: 실행하거나 신뢰하면(Trust Notebook) 나타남', 'blockwise steps: show when run or trusted (Trust Notebook)'),
    'block': ('블록 크기 (Key 토큰 수)', 'block size (Key tokens)'),
    'follow_row': ('따라갈 행: Query 토큰', 'row to follow: Query token'),
    'block_of': ('블록 {k} / {n}: Key 토큰 {keys}', 'Block {k} of {n}: Key tokens {keys}'),
    'block_of_one': ('블록 {k} / {n}: Key 토큰 {keys}', 'Block {k} of {n}: Key token {keys}'),
    'block_scores': ('이 블록의 S / √dh + M', 'S / √dh + M of this block'),
    'm_old': ('이전 최댓값 m', 'm before'),
    'm_new': ('새 최댓값 m', 'm after'),
    'rescale': ('e^(m_old − m)', 'e^(m_old − m)'),
    'running_sum': ('누적 합 l', 'l'),
    'running_output': ('지금까지의 출력 O = O_acc / l', 'O so far = O_acc / l'),
    'full_output': ('전체 계산의 출력 O', 'O of the full computation'),
    'rule_m': ('m ← max(m, 이 블록에서 가장 큰 점수)', 'm ← max(m, the largest score of the block)'),
    'rule_l': ('l ← l · e^(m_old − m) + Σ e^(s − m)', 'l ← l · e^(m_old − m) + Σ e^(s − m)'),
    'rule_O': ('O_acc ← O_acc · e^(m_old − m) + Σ e^(s − m) · V_j', 'O_acc ← O_acc · e^(m_old − m) + Σ e^(s − m) · V_j'),
    'last_block': ('마지막 블록 뒤의 O = O_acc / l은 전체 계산의 O와 같습니다.', "After the last block, O = O_acc / l equals the full computation's O."),
    'last_block_differs': ('마지막 블록 뒤의 O = O_acc / l이 전체 계산의 O와 다릅니다.', "After the last block, O = O_acc / l differs from the full computation's O."),
    'never_full': ('T × T 행렬은 한 번도 만들지 않았습니다. 한 번에 있던 점수는 많아야 {T} × {b}개입니다.', 'No T × T matrix was made: at most {T} × {b} scores existed at once.'),
    'one_block': ('블록 크기가 T와 같아 블록이 하나뿐입니다. 점수 {T} × {T}개를 한 번에 만드는, 보통의 계산과 같습니다. 블록을 T보다 작게 하면 T × T 행렬 없이 계산합니다.', 'The block is as large as T, so there is one block: all {T} × {T} scores are made at once, as in the ordinary computation. Make the block smaller than T to compute without the T × T matrix.'),
    'trail_title': ('Query 토큰 {i}의 행, 블록마다', 'The row of Query token {i}, block by block'),
    'trail_block': ('블록', 'block'),
    'trail_scores': ('점수', 'scores'),
}
