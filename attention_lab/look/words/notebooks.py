# ruff: noqa: E501  (one entry a line: prose in two languages)
"""The words the notebooks print and draw ("nb_…"): every printed line of a notebook, in both languages."""

WORDS = {
    'no_torch': ('PyTorch가 설치되어 있지 않습니다. pip install -e ".[torch]"로 추가할 수 있습니다. 이 노트북에 저장된 출력은 PyTorch가 있을 때의 결과입니다.', 'PyTorch is not installed: pip install -e ".[torch]" adds it. The outputs stored in this notebook show what it prints with PyTorch.'),
    'nb_spread': ('점수의 퍼짐', 'spread of the scores'),
    'nb_top_weight': ('행마다 가장 큰 가중치의 평균', 'mean of the largest weight per row'),
    'nb_read_as': ('{mask}를 이렇게 읽으면:\n{convention}', '{mask}, read as\n{convention}'),
}
