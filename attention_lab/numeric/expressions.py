"""How each stage is computed, as data: a small expression over a handful of operations, and its NumPy interpreter.

An expression is the name of an earlier stage ("S") or a tuple (operation, *arguments), each argument an
expression: ("normalize_rows", "E") is P, ("scores", "Qh", ("by_query_head", "Kh")) is S. The pipeline writes
one per stage (`pipeline.Stage.expression`); Python evaluates it here with the stage functions of `core` where
every way of computing gives the same bits (split, ÷ √dh, + M, concat) and with `exact`'s (the page's sums and exp,
no overflow on the way to a float) where it does not (QKᵀ, exp, the row sums, PV), so that Python's trace is the
page's to the bit. The browser evaluates the same expressions, sent to it as JSON (`live/data.py`), with its own
table of the same operations (`live/compute.js`, `OPERATIONS`).
tests/test_expressions.py holds every operation of both sides to a plain loop.

An operation is `(settings, *arrays) -> array`; `settings` is a `pipeline.Settings`. Adding an operation takes one
entry in each of the two tables and its plain loop in the test: a stage written with the operations here takes
none.
"""

from . import arithmetic, checks, core, exact, masks


def _log(X):  # [...] -> [...]
    """The natural log of each value ≥ 0 (weights): log 0 is −∞, as a masked score is; a negative value is refused."""
    X = checks.real_array("X", X)
    if (X < 0).any():
        raise ValueError(f"X: log needs values ≥ 0 (weights, as P's), got {X[X < 0].flat[0]}; take the log of P or E.")
    return arithmetic.log(X)  # log 0 = −∞; the page's log, bit for bit


OPERATIONS = {
    # [T, n·dh] -> [n, T, dh]: the columns of each head of width dh (n is h for Q, g for K and V)
    "split_heads": lambda c, X: core.split_heads(X, X.shape[-1] // c.dh),
    # [g, …] -> [h, …]: for each Query head, the K/V head it reads
    "by_query_head": lambda c, X: X[c.kv_index],
    "scores": lambda c, Qh, Kh: exact.scores(Qh, Kh),  # [..., T_q, dh], [..., T_k, dh] -> [..., T_q, T_k]
    "scale": lambda c, S: core.scale(S, c.dh if c.scaled else 1),  # [...] -> [...]: ÷ √dh (÷ 1 unscaled)
    "mask": lambda c: masks.make_mask(c.mask, c.T_q, c.T_k),  # -> [T_q, T_k]: 0 where allowed, −∞ elsewhere
    "add_mask": lambda c, S, M: core.apply_mask(S, M),  # [..., T_q, T_k], [T_q, T_k] -> [..., T_q, T_k]
    "row_exponentials": lambda c, S: exact.row_exponentials(S),  # [..., T_k] -> [..., T_k]
    "normalize_rows": lambda c, E: exact.normalize_rows(E),  # [..., T_k] -> [..., T_k]
    "weighted_sum": lambda c, P, V: exact.weighted_sum(P, V),  # [..., T_q, T_k], [..., T_k, dh] -> [..., T_q, dh]
    "concat_heads": lambda c, O: core.concat_heads(O),  # [h, T, dh] -> [T, h·dh]
    "exp": lambda c, X: exact.exponentials(X),  # [...] -> [...]: e^x of each value
    "log": lambda c, X: _log(X),  # [...] -> [...]: log x of each value, log 0 = −∞
}


def evaluate(expression, arrays, settings):  # expression, {name: array}, pipeline.Settings -> array
    """The value of an expression: a stage's name reads its array; (operation, *arguments) applies the operation."""
    if isinstance(expression, str):
        return arrays[expression]
    operation, *arguments = expression
    return OPERATIONS[operation](settings, *(evaluate(a, arrays, settings) for a in arguments))


def names_in(expression):  # -> tuple of the stage names an expression reads, in order, each once
    """The stages an expression is computed from."""
    if isinstance(expression, str):
        return (expression,)
    return tuple(dict.fromkeys(n for a in expression[1:] for n in names_in(a)))


def checked(expression):  # -> the expression, or a ValueError naming what in it is not an expression
    """An expression of known operations only: a pipeline entry with a typo fails on import, naming it."""
    if isinstance(expression, str):
        return expression
    if not isinstance(expression, tuple) or not expression or expression[0] not in OPERATIONS:
        raise ValueError(f"expression: {expression!r} is not a stage's name or (operation, *arguments) with an "
                         f"operation of {sorted(OPERATIONS)}.")
    for argument in expression[1:]:
        checked(argument)
    return expression
