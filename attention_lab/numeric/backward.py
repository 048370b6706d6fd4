"""The backward pass of the tiny model, written out stage by stage: Core Attention's stages in reverse.

Each function takes the gradient of the loss with respect to a stage's output (dO for O, …) and gives the
gradients with respect to its inputs, with the shapes on the first line as the forward stages have them.
Read bottom to top, `gradients` is the forward pass of tiny_model.forward backwards:

    logits = R W_U          dR = dlogits W_Uᵀ              dW_U = Rᵀ dlogits
    R = X + A               dX = dR, dA = dR               (the residual passes the gradient on unchanged)
    A = H W_O               dH = dA W_Oᵀ                   dW_O = Hᵀ dA
    H = Concat(O)           dO = split(dH)                 (each head gets its own columns back)
    O = P V                 dP = dO Vᵀ, dV = Pᵀ dO
    P = softmax(S_masked)   dS_masked = P ∘ (dP − rowsum(dP ∘ P))
    S_masked = S_scaled + M dS_scaled = dS_masked, 0 where M = −∞ (a masked cell has no gradient)
    S_scaled = S / √dh      dS = dS_scaled / √dh
    S = Q Kᵀ                dQ = dS K, dK = dSᵀ Q
    Q = X W_Q, …            dX += dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ,   dW_Q = Xᵀ dQ, …
    X = E_tok[t] + E_pos    dE_tok[t] += dX, dE_pos = Σ_batch dX
"""

import numpy as np

from . import tiny_model as tm


def weighted_sum_backward(dO, P, V):  # [..., T_q, dh], [..., T_q, T_k], [..., T_k, dh] -> dP [..., T_q, T_k], dV
    """O = P V backwards: how the loss changes with each weight and each Value component."""
    dP = dO @ np.swapaxes(V, -1, -2)  # (…, T_q, T_k)
    dV = np.swapaxes(P, -1, -2) @ dO  # (…, T_k, dh)
    return dP, dV


def softmax_backward(dP, P):  # [..., T_q, T_k], [..., T_q, T_k] -> dS_masked [..., T_q, T_k]
    """P = softmax(S_masked) by row, backwards: dS = P ∘ (dP − rowsum(dP ∘ P)).

    Raising one score raises its own weight and lowers every other weight of the row (they sum to 1), so
    each score's gradient is its weight times how much better its own dP is than the row's P-weighted mean.
    """
    return P * (dP - (dP * P).sum(axis=-1, keepdims=True))


def mask_backward(dS_masked, M):  # [..., T_q, T_k], [T_q, T_k] -> dS_scaled [..., T_q, T_k]
    """S_masked = S_scaled + M backwards: the gradient passes where M = 0; a −∞ cell gets exactly 0."""
    return np.where(np.isneginf(M), 0.0, dS_masked)  # P is 0 there already; this says so, and keeps −0 out


def scale_backward(dS_scaled, dh):  # [..., T_q, T_k] -> dS [..., T_q, T_k]
    """S_scaled = S / √dh backwards: the gradient is divided by √dh too."""
    return dS_scaled / np.sqrt(dh)


def scores_backward(dS, Q, K):  # [..., T_q, T_k], [..., T_q, dh], [..., T_k, dh] -> dQ [..., T_q, dh], dK
    """S = Q Kᵀ backwards: a Query row's gradient is the Key rows weighted by its scores' gradients, and back."""
    return dS @ K, np.swapaxes(dS, -1, -2) @ Q


def core_attention_backward(dO, a):  # [B, h, T, dh], forward arrays -> dQh, dKh, dVh [B, h, T, dh]
    """Core Attention backwards, stage by stage, from dO to the heads' Q, K and V."""
    dP, dVh = weighted_sum_backward(dO, a["P"], a["Vh"])
    dS_masked = softmax_backward(dP, a["P"])
    dS_scaled = mask_backward(dS_masked, a["M"])
    dS = scale_backward(dS_scaled, a["Qh"].shape[-1])
    dQh, dKh = scores_backward(dS, a["Qh"], a["Kh"])
    return dQh, dKh, dVh


def loss_backward(logits, tokens):  # [B, T, 16], [B, T] -> dlogits [B, T, 16]
    """The mean cross-entropy backwards: softmax(logits) − one-hot(answer), over the scored positions, ÷ their count."""
    dlogits = np.zeros_like(logits)
    scored = logits[:, tm.SCORED]
    p = np.exp(tm.log_probabilities(scored))
    np.put_along_axis(p, tm.answer_of(tokens)[:, tm.SCORED, None], np.take_along_axis(
        p, tm.answer_of(tokens)[:, tm.SCORED, None], axis=-1) - 1, axis=-1)
    dlogits[:, tm.SCORED] = p / (scored.shape[0] * scored.shape[1])
    return dlogits


def _sum_over_tokens(X, dY):  # [B, T, n], [B, T, m] -> [n, m]: Σ over batch and tokens of Xᵀ dY
    return X.reshape(-1, X.shape[-1]).T @ dY.reshape(-1, dY.shape[-1])


def gradients(weights, tokens):  # weights, [B, T] -> (loss, {name: gradient of the mean loss, same shape})
    """The loss on a batch and its gradient with respect to every weight, by the backward pass above."""
    a = tm.forward(weights, tokens)
    weights, _ = tm.check_weights(weights)
    tokens = a["tokens"]
    g = {}
    dlogits = loss_backward(a["logits"], tokens)
    g["W_U"] = _sum_over_tokens(a["R"], dlogits)
    dR = dlogits @ weights["W_U"].T  # (B, T, d)
    dX, dA = dR.copy(), dR  # the residual: R = X + A
    g["W_O"] = _sum_over_tokens(a["H"], dA)
    dH = dA @ weights["W_O"].T
    dO = tm._split(dH, a["h"])  # Concat backwards
    dQh, dKh, dVh = core_attention_backward(dO, a)
    for name, dYh in zip("QKV", (dQh, dKh, dVh), strict=True):
        dY = tm._concat(dYh)  # split backwards: (B, T, d)
        g[f"W_{name}"] = _sum_over_tokens(a["X"], dY)
        dX += dY @ weights[f"W_{name}"].T
    g["E_pos"] = dX.sum(axis=0)
    g["E_tok"] = _sum_over_tokens(np.eye(len(tm.TOKENS))[tokens], dX)  # each token's rows, added up
    return tm.loss(a["logits"], tokens), {name: g[name] for name in tm.WEIGHTS}
