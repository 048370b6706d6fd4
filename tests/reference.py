"""An independent Core Attention written as plain loops, to check the vectorised trace against."""

import math


def reference_attention(Q, K, V, h, allowed):  # lists [T][d], [T][d], [T][d], [T][T] bool -> (P [h][T][T], H [T][d])
    """Per head, per Query token, per Key token: scores, softmax and weighted sum, one number at a time."""
    T, d = len(Q), len(Q[0])
    dh = d // h
    P = [[[0.0] * T for _ in range(T)] for _ in range(h)]
    H = [[0.0] * d for _ in range(T)]
    for head in range(h):
        cols = range(head * dh, (head + 1) * dh)
        for i in range(T):
            seen = [j for j in range(T) if allowed[i][j]]
            if not seen:
                continue  # nothing to attend to: weights and output stay 0
            score = {j: sum(Q[i][c] * K[j][c] for c in cols) / math.sqrt(dh) for j in seen}
            top = max(score.values())
            exps = {j: math.exp(score[j] - top) for j in seen}
            total = sum(exps.values())
            for j in seen:
                P[head][i][j] = exps[j] / total
                for c in cols:
                    H[i][c] += P[head][i][j] * V[j][c]
    return P, H
