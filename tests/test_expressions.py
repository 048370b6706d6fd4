"""Each operation a stage's expression may use gives, in NumPy (numeric/expressions.py) and in the browser
(live/compute.js, in Chromium), what a plain loop over its definition gives: with −∞, rows that may see nothing,
shared K/V heads and the unscaled case among the inputs. Every operation has its loop here, and the browser has
every operation Python has; expressions that are not expressions are refused, naming the problem."""

import math

import numpy as np
import pytest

import attention_lab as al
from attention_lab.live import page as pages
from attention_lab.numeric import expressions, masks
from attention_lab.numeric.expressions import OPERATIONS, evaluate
from attention_lab.numeric.pipeline import PIPELINE, Settings

INF = math.inf
ALLOWED = [[True, False, False], [False, False, False], [True, True, True]]  # row 2 may see nothing


def settings(h=2, g=1, dh=2, scaled=True):  # -> (Python's Settings, the browser's settings), for T_q = T_k = 3
    mask = masks.to_mask(np.array(ALLOWED)).checked(3, 3)
    kv = [i // (h // g) for i in range(h)]
    return (Settings(h=h, g=g, dh=dh, T_q=3, T_k=3, mask=mask, scaled=scaled),
            {"h": h, "g": g, "dh": dh, "kv": kv, "scaled": scaled, "allowed": ALLOWED})


def loops(shape, f):  # a nested list of f(*index) over every index of `shape`
    return [loops(shape[1:], lambda *i, k=k: f(k, *i)) for k in range(shape[0])] if shape else f()


def row_exponentials(row):
    top = max(row)
    top = 0 if top == -INF else top
    return [math.exp(x - top) for x in row]


def normalize_rows(row):
    total = sum(row)
    return [x / total if total else 0.0 for x in row]


def each_row(X, f):
    return [each_row(x, f) for x in X] if isinstance(X[0], list) else f(X)


def each_value(X, f):
    return [each_value(x, f) for x in X] if isinstance(X, list) else f(X)


S = [[[1, -2, 3], [0, 5, -1], [2, 2, -4]], [[-3, 0, 1], [4, 4, 4], [0, -1, 6]]]  # (h=2, 3, 3)
S_MASKED = [[[1, -INF, -INF], [-INF, -INF, -INF], [2, 2, -4]], [[-3, -INF, -INF], [-INF, -INF, -INF], [0, -1, 6]]]
E = [[[1, 0, 0], [0, 0, 0], [1, 0.5, 0.25]], [[2, 0, 0], [0, 0, 0], [0.125, 3, 1]]]
X = [[1, -2, 3, 0], [2, 1, -1, 4], [0, 3, 1, -2]]  # (T=3, 4): Q of h=2 heads of dh=2, or K of g=2
HEADS = [[[1, -2], [2, 1], [0, 3]], [[3, 0], [-1, 4], [1, -2]]]  # (2, 3, 2)
KV = [[[2, 1], [-1, 0], [3, 3]]]  # (g=1, 3, 2)

# operation -> [(settings kwargs, arguments, the plain loop over its definition)]
CASES = {
    "split_heads": [({}, [X], lambda c: loops((2, 3, 2), lambda i, t, k: X[t][i * 2 + k]))],
    "by_query_head": [({"h": 2, "g": 1}, [KV], lambda c: [KV[0], KV[0]]),
                      ({"h": 4, "g": 2}, [HEADS], lambda c: [HEADS[0], HEADS[0], HEADS[1], HEADS[1]])],
    "scores": [({}, [HEADS, [KV[0], KV[0]]],
                lambda c: loops((2, 3, 3), lambda n, i, j: sum(HEADS[n][i][k] * KV[0][j][k] for k in range(2))))],
    "scale": [({"dh": 4}, [S], lambda c: each_value(S, lambda x: x / math.sqrt(4))),
              ({"dh": 4, "scaled": False}, [S], lambda c: S)],
    "mask": [({}, [], lambda c: loops((3, 3), lambda i, j: 0.0 if ALLOWED[i][j] else -INF))],
    "add_mask": [({}, [S, [[0, -INF, -INF], [-INF, -INF, -INF], [0, 0, 0]]],
                  lambda c: loops((2, 3, 3), lambda n, i, j: S[n][i][j] + (0 if ALLOWED[i][j] else -INF)))],
    "row_exponentials": [({}, [S_MASKED], lambda c: each_row(S_MASKED, row_exponentials)),
                         ({}, [S], lambda c: each_row(S, row_exponentials))],
    "normalize_rows": [({}, [E], lambda c: each_row(E, normalize_rows))],
    "weighted_sum": [({}, [E, [KV[0], KV[0]]],
                      lambda c: loops((2, 3, 2), lambda n, i, k: sum(E[n][i][j] * KV[0][j][k] for j in range(3))))],
    "concat_heads": [({}, [HEADS], lambda c: loops((3, 4), lambda t, col: HEADS[col // 2][t][col % 2]))],
    "exp": [({}, [S_MASKED], lambda c: each_value(S_MASKED, lambda x: math.exp(x)))],
    "log": [({}, [E], lambda c: each_value(E, lambda x: math.log(x) if x else -INF))],
}
CALL = """([operation, args, c]) => attentionLab.evaluate([operation, ...args.map((_, k) => `x${k}`)],
  Object.fromEntries(args.map((a, k) => [`x${k}`, a])), c)"""


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    path = tmp_path_factory.mktemp("expressions") / "page.html"
    path.write_text(pages.standalone_html(al.explorer(view="scores").page_config()), encoding="utf-8")
    page = browser.new_page()
    page.goto(path.as_uri())
    yield page
    page.close()


def test_every_operation_has_its_plain_loop_here():
    assert set(CASES) == set(OPERATIONS)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_each_operation_is_its_plain_loop_in_numpy_and_in_the_browser(page, operation):
    for kwargs, args, loop in CASES[operation]:
        python_settings, page_settings = settings(**kwargs)
        want = np.array(loop(python_settings), dtype=float)
        arrays = {f"x{k}": np.array(a, dtype=float) for k, a in enumerate(args)}
        numpy = evaluate((operation, *arrays), arrays, python_settings)
        browser = np.array(page.evaluate(CALL, [operation, args, page_settings]), dtype=float)
        assert not np.isnan(want).any()  # the cases' rows that may see nothing give 0 or −∞, never NaN
        for got in (numpy, browser):
            assert got.shape == want.shape, (operation, kwargs)
            np.testing.assert_allclose(got, want, rtol=1e-15, atol=0, err_msg=f"{operation} {kwargs}")


def test_the_browser_has_no_operation_python_lacks_and_says_which_it_lacks(page):
    found = page.evaluate("""() => { try { attentionLab.evaluate(['softmax_typo', 'x'], {x: [[1]]}, {}); }
                                     catch (e) { return e.message; } }""")
    assert found == "the browser has no operation softmax_typo"


def test_every_stage_is_computed_by_its_expression_from_earlier_stages():
    for k, stage in enumerate(PIPELINE):
        if stage.expression is not None:
            assert set(stage.inputs) <= {s.name for s in PIPELINE[:k]}, stage.name
            assert expressions.checked(stage.expression) == stage.expression


# What is not an expression, and what the refusal names: a catalogue of wrong entries.
NOT_EXPRESSIONS = [
    ["normalize_rows", "E"],  # a list: the pipeline's expressions are tuples
    ("softmax", "S"),  # not an operation (the pipeline's P is normalize_rows of E)
    (),
    ("log", 3),  # an argument that is neither a stage's name nor an expression
    ("log", ("nope", "P")),  # an unknown operation inside
    None,
]


@pytest.mark.parametrize("wrong", NOT_EXPRESSIONS, ids=repr)
def test_what_is_not_an_expression_is_refused_naming_it(wrong):
    with pytest.raises(ValueError, match=r"^expression: .* is not a stage's name or \(operation, \*arguments\)"):
        expressions.checked(wrong)


def test_log_of_a_negative_value_is_refused_not_nan():
    python_settings, _ = settings()
    with pytest.raises(ValueError, match="^X: log needs values ≥ 0"):
        evaluate(("log", "P"), {"P": np.array([[0.5, -0.5]])}, python_settings)
