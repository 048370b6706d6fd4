# ruff: noqa: E501  (one entry a line: prose in two languages)
"""The words of notebook 12, queries and keys of different lengths ("nb12_…"): what it prints and its figures' titles."""

WORDS = {
    'nb12_full': ('전체 계산 (3 × 3)', 'the full computation (3 × 3)'),
    'nb12_decode_step': ('토큰 {n}의 디코드 단계 ({rows} × {cols})', "token {n}'s decode step ({rows} × {cols})"),
    'nb12_chunk': ('청크 {n}: 토큰 {first}–{last} ({rows} × {cols})', 'chunk {n}: tokens {first}–{last} ({rows} × {cols})'),
    'nb12_cross': ('cross-attention, 마스크 없음 ({rows} × {cols})', 'cross-attention, no mask ({rows} × {cols})'),
    'nb12_corner.bottom-right': ('오른쪽 아래 ({rows} × {cols})', 'bottom-right ({rows} × {cols})'),
    'nb12_corner.top-left': ('왼쪽 위 ({rows} × {cols})', 'top-left ({rows} × {cols})'),
    'nb12_right_way': ('맞는 계산: 오른쪽 아래', 'right: bottom-right'),
    'nb12_is_causal': ('SDPA의 is_causal=True: 왼쪽 위', "SDPA's is_causal=True: top-left"),
    'nb12_query_row': ('Query 행', 'Query row'),
    'nb12_sees': ('Query 행 {row} → Key 토큰 {keys}', 'Query row {row} → Key tokens {keys}'),
    'nb12_sees_nothing': ('Query 행 {row} → 없음: 가중치와 출력이 0', 'Query row {row} → none: its weights and output are 0'),
}
