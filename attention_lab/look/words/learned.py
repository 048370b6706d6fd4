# ruff: noqa: E501  (one entry a line: prose in two languages)
"""The words of notebook 13 and its figures ("nb13_…"): a tiny model whose attention was learned."""

WORDS = {
    'nb13_task_row': ('토큰 {t} ({token}): 홀수 번째 토큰 {odd_tokens} → {odd}, 짝수 번째 토큰 {even_tokens} → {even}, 답 {answer}', 'token {t} ({token}): odd-numbered tokens {odd_tokens} → {odd}, even-numbered tokens {even_tokens} → {even}, answer {answer}'),
    'nb13_numbers': ('모두 합쳐 값 {n}개', '{n} numbers in all'),
    'nb13_trained': ('{steps}단계 학습: 손실 {first} → {last}', '{steps} steps of training: loss {first} → {last}'),
    'nb13_same_as_shipped': ('패키지에 들어 있는 가중치와 같습니다 (값마다 차이가 {within:.0e} 미만).', 'the same weights as the ones the package ships (each value within {within:.0e}).'),
    'nb13_not_same_as_shipped': ('패키지에 들어 있는 가중치와 다릅니다 (차이가 {within:.0e} 이상인 값이 있습니다).', 'not the weights the package ships (some value differs by {within:.0e} or more).'),
    'nb13_all_inputs': ('가능한 입력 {n}개 모두에서: 손실 {loss}, 맞힌 답의 비율 {right}', 'on all {n} possible inputs: loss {loss}, share of right answers {right}'),
    'nb13_gap': ('손실이 head 두 개 모델보다 {gap} 높습니다 (0.1 이상: {big:yes})', "its loss is {gap} above the two heads' model's (0.1 or more: {big:yes})"),
    'nb13_step': ('학습 단계', 'training step'),
    'nb13_loss': ('손실 (로그 눈금)', 'loss (log scale)'),
    'nb13_answer_row': ('토큰 {t}: 답 {answer} (확률 {p})', 'token {t}: answer {answer} (probability {p})'),
    'nb13_on_parity': ('{head}: 홀수 번째 토큰에 {odd}, 짝수 번째 토큰에 {even}', '{head}: {odd} on the odd-numbered tokens, {even} on the even-numbered tokens'),
    'nb13_long_run': ('head 하나(h = 1, dh = 8)를 {steps}단계 학습: 손실 {loss}, 맞힌 답의 비율 {right}', 'one head (h = 1, dh = 8) trained for {steps} steps: loss {loss}, share of right answers {right}'),
    'nb13_mean_weights': ('입력 {n}개의 평균 P', 'mean P over {n} inputs'),
    'nb13_always_a': ('늘 A라고 답하면 (동점에서 A가 이기므로 가장 흔한 글자): 홀수 쪽 글자를 맞힌 비율 {odd}, 짝수 쪽 글자를 맞힌 비율 {even}', 'answering A every time (A wins ties, so it is the commonest letter): odd letter right {odd}, even letter right {even}'),
    'nb13_removed': ('{head} 없이: 홀수 쪽 글자를 맞힌 비율 {odd}, 짝수 쪽 글자를 맞힌 비율 {even}, 손실 {loss}', 'without {head}: odd letter right {odd}, even letter right {even}, loss {loss}'),
    'nb13_weakest': ('{head}의 가중치에서 짝수 번째 토큰의 몫이 가장 작은 입력: {tokens}, 토큰 6의 행에서 {weight}. 모델의 답은 {answer}, {verdict}', '{head} gives the even-numbered tokens their smallest share on input {tokens}: {weight} in the row of token 6. The model answers {answer}, {verdict}'),
    'nb13_right_answer': ('맞는 답입니다.', 'the right answer.'),
    'nb13_wrong_answer': ('틀린 답입니다.', 'a wrong answer.'),
    'nb13_gradient_check': ('{name} {shape}: 가장 큰 기울기 {largest}, 유한 차분과의 차이는 가장 큰 칸에서 {diff}', '{name} {shape}: largest gradient {largest}, its largest difference from the finite differences {diff}'),
    'nb13_same_as_backward_py': ('backward.py의 core_attention_backward가 주는 dQ, dK, dV와 같습니다 (차이 {diff}).', "the same dQ, dK, dV as backward.py's core_attention_backward gives (difference {diff})."),
    'nb13_not_same_as_backward_py': ('backward.py의 core_attention_backward가 주는 dQ, dK, dV와 다릅니다 (차이 {diff}).', "not the dQ, dK, dV that backward.py's core_attention_backward gives (difference {diff})."),
}
