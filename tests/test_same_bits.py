"""The page computes every stage with Python's bits, not only Python's labels (issue 27, item 5).

IEEE 754 rounds each +, −, ×, ÷ and √ the same way in NumPy and in JavaScript; what can differ is the order of a
sum's terms (NumPy's matmul and sum each have their own, the page adds left to right) and exp, which no standard
rounds correctly (NumPy's, the C library's and the browser's Math.exp differ in the last bit for about one argument
in ten). The package sums S = QKᵀ, O = PV and each row of E in the page's order, 0 + t₁ + t₂ + …, and both sides
use one exp (numeric/arithmetic.py, compute.js). Here every stage of the page's trace (compute.js's traceOf, run in
Node.js by tests/frontend.py) equals Python's trace bit for bit, −0 and ±∞ included: your own numbers (one
decimal, up to the explorer's limit ±1e150 with cancelling terms, whole numbers), every mask with random parameters
or an array, both alignments, shared K/V heads, and the seeded examples in random states. Front-ends that sum in
another order or use the browser's Math.exp are refused; the constructed cancellation case gives the left-to-right
sum of a plain Python loop on both sides, which there is also the exact value.
"""

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from frontend import page_stages
from strategies import random_mask
from test_live_rules import random_state

import attention_lab as al
from attention_lab.live import page as pages
from attention_lab.live.state import resolve, trace_of
from attention_lab.live.views import OWN_LIMITS
from attention_lab.numeric.checks import divisors
from attention_lab.numeric.pipeline import STAGES

LIMIT = OWN_LIMITS["value"]  # 1e150


def bits(X):  # -> the IEEE bits of each value (every NaN alike)
    X = np.asarray(X, dtype=float)
    return np.where(np.isnan(X), np.nan, X).view(np.uint64)


def differences(ex, state, js=None):  # -> [(stage, index, Python's value, the page's)] where the bits differ
    tr = trace_of(resolve(state, ex.view, ex._own), ex._own)
    page = page_stages({**ex.page_config(), "state": state}, js)
    assert "overflow" not in page, state
    out = []
    for name in STAGES:
        want, got = getattr(tr, name), page[name]
        assert got.shape == want.shape, (name, state)
        for index in zip(*np.nonzero(bits(want) != bits(got)), strict=True):
            out.append((name, tuple(map(int, index)), float(want[index]), float(got[index])))
    return out


def own_numbers(rng, shape, kind):  # -> float array: the kinds of your own numbers the explorer takes
    if kind == "decimal":  # one decimal: 56 of 150 pages once showed another last digit
        return rng.integers(-30, 31, shape) / 10
    if kind == "whole":
        return rng.integers(-5, 6, shape).astype(float)
    if kind == "limit":  # up to ±1e150, large terms that cancel beside small ones
        X = rng.choice([LIMIT, -LIMIT, 1.0, -1.0, 0.3, 7.5, 1e149], shape)
        return np.where(rng.random(shape) < 0.2, rng.normal(0, 1, shape) * 1e149, X)
    return np.clip(rng.normal(0, 1, shape) * 10.0 ** rng.integers(-3, 151, shape), -LIMIT, LIMIT)  # any size


def random_own(rng):  # -> an explorer of random own numbers, sizes, mask and alignment, K/V heads shared or not
    T_k = int(rng.integers(1, OWN_LIMITS["T"] + 1))
    T_q, h = int(rng.integers(1, T_k + 1)), int(rng.choice([1, 2, 4, 8]))
    dh = int(rng.integers(1, OWN_LIMITS["d"] // h + 1))
    g = int(rng.choice(divisors(h)))
    kind = str(rng.choice(["decimal", "whole", "limit", "any"]))
    Q, K, V = (own_numbers(rng, (T, n * dh), kind) for T, n in ((T_q, h), (T_k, g), (T_k, g)))
    mask, align = random_mask(rng, T_q, T_k)
    kv = {"kv_heads": g} if g != h else {}
    return al.explorer(Q=Q, K=K, V=V, h=h, mask=mask, align=align, view="all", **kv)


OWN_CASES = 60  # random own explorers, two states each


@pytest.mark.parametrize("seed", range(3))
def test_every_stage_has_pythons_bits_for_your_own_numbers(seed):
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(OWN_CASES // 3):
        ex = random_own(rng)
        for state in (dict(ex.state), random_state(random.Random(seed), ex)):
            found += differences(ex, state)
    assert not found, (len(found), found[:8])


def test_every_stage_has_pythons_bits_for_the_examples_in_random_states():
    """The article's example and seeded random ones (whole numbers: only exp could differ), every size and mask."""
    rng, found = random.Random(27), []
    for ex in (al.explorer(view="all"), al.explorer(view="masks"), al.explorer(view="all", source="random", seed=3)):
        for _ in range(12):
            found += differences(ex, random_state(rng, ex))
    assert not found, (len(found), found[:8])


def left_to_right(q, k):  # a plain loop, independent of NumPy: 0 + q₁k₁ + q₂k₂ + …
    total = 0.0
    for a, b in zip(q, k, strict=True):
        total = total + a * b
    return total


CANCELLING_Q = [1e150, -1e150, 1.0]  # Q·K = 1e300 − 1e300 − 1e150: NumPy's matmul gave −5.8e283
CANCELLING_K = [1e150, 1e150, -1e150]


def test_a_cancelling_score_is_the_left_to_right_sum_on_both_sides():
    exact = sum(Fraction(a) * Fraction(b) for a, b in zip(CANCELLING_Q, CANCELLING_K, strict=True))
    assert left_to_right(CANCELLING_Q, CANCELLING_K) == exact == -1e150  # here the order is also exactly right
    assert math.fsum(a * b for a, b in zip(CANCELLING_Q, CANCELLING_K, strict=True)) == -1e150
    Q = np.array([CANCELLING_Q, [1.0, 2.0, 3.0]])
    K = np.array([CANCELLING_K, CANCELLING_K[::-1], [0.5, 0.5, 0.5]])
    ex = al.explorer(Q=Q, K=K, V=K, h=1, mask=None, view="all")
    tr = ex.trace
    page = page_stages(ex.page_config())
    want = [[left_to_right(q, k) for k in K] for q in Q]
    assert tr.S[0].tolist() == page["S"][0].tolist() == want
    assert tr.S[0, 0, 0] == -1e150
    assert differences(ex, dict(ex.state)) == []


def altered(js, old, new):  # -> the bundle with one piece of compute.js replaced (it must be there)
    assert js.count(old) == 1, old
    return js.replace(old, new)


def test_front_ends_that_sum_otherwise_or_compute_exp_otherwise_are_refused():
    """The catalogue: each altered front-end differs from Python in some bits of these cases."""
    js = pages.bundle.__wrapped__()[0]
    wrong = {
        "products summed right to left": altered(js, "const sumOfProducts = (a, b) => {",
                                                 "const sumOfProducts = (a, b) => { a = [...a].reverse(); "
                                                 "b = [...b].reverse();"),
        "row sums right to left": altered(js, "const sumOf = (row) => {", "const sumOf = (row) => { "
                                          "row = [...row].reverse();"),
        "exp as 2 to the power x·log₂e": altered(js, "const exp = (x) => {",
                                                 "const exp = (x) => { return Math.pow(2, x * Math.LOG2E);"),
    }
    rng = np.random.default_rng(5)
    cases = [(ex, dict(ex.state)) for ex in (random_own(rng) for _ in range(12))]
    assert all(differences(ex, state) == [] for ex, state in cases)
    for what, bundle in wrong.items():
        assert any(differences(ex, state, bundle) for ex, state in cases), what


def test_a_python_side_that_sums_otherwise_is_refused(monkeypatch):
    """The Python side's catalogue: NumPy's own orders and exp (the former code) differ from the page somewhere."""
    import attention_lab.numeric.arithmetic as arithmetic

    rng = np.random.default_rng(6)
    cases = [(ex, dict(ex.state)) for ex in (random_own(rng) for _ in range(12))]
    for name, numpy_way in (("products", np.matmul), ("exp", np.exp),
                            ("row_sums", lambda X: np.asarray(X).sum(axis=-1, keepdims=True))):
        with monkeypatch.context() as patched:
            patched.setattr(arithmetic, name, numpy_way)
            assert any(differences(ex, state) for ex, state in cases), name


def exp_arguments():  # -> float array: E's exponents (≤ 0) and more: every branch of fdlibm's exp and its edges
    rng = np.random.default_rng(31)
    edges = [0.0, -0.0, 1.0, -1.0, 2.0**-28, -(2.0**-28), 2.0**-29, 0.3465735912322998, 1.0397205352783203,
             709.78271289338397, 709.7827128933841, -745.13321910194111, -745.1332191019412, -708.39, -708.4,
             -1e-300, 5e-324, math.log(2), -math.log(2), 700.0, -720.0, math.inf, -math.inf, math.nan]
    return np.concatenate([edges, np.nextafter(edges[:20], math.inf), np.nextafter(edges[:20], -math.inf),
                           -rng.random(3000) * 40, -rng.random(3000) * 746, rng.uniform(-1.1, 1.1, 2000),
                           rng.uniform(-750, 712, 2000), rng.integers(-30, 31, 500) / 10])


def test_exp_has_the_same_bits_on_both_sides_and_is_within_one_ulp():
    from decimal import Decimal, localcontext

    from frontend import page_calls

    from attention_lab.numeric.arithmetic import exp

    x = exp_arguments()
    python, page = exp(x), np.array(page_calls("exp", x))
    assert (bits(python) == bits(page)).all(), x[bits(python) != bits(page)][:5]
    with localcontext() as context:  # the exact e^x, rounded once, from the decimal module (40 digits)
        context.prec = 40
        for a, got in zip(x.tolist(), python.tolist(), strict=True):
            if math.isfinite(a) and math.isfinite(got) and got > 0:
                exact = Decimal(a).exp()
                assert abs(Decimal(got) - exact) < Decimal(math.ulp(got)), a
    special = exp(np.array([math.inf, -math.inf, math.nan, 710.0, -746.0, 0.0]))
    assert special[:2].tolist() == [math.inf, 0.0] and math.isnan(special[2])
    assert special[3:].tolist() == [math.inf, 0.0, 1.0]
    assert isinstance(exp(1.0), np.float64) and exp(1.0) == math.e  # one number gives a number, as np.exp does
    # the same function refuses a wrong one: NumPy's exp differs from it in the last bit somewhere here
    with np.errstate(over="ignore"):
        assert (bits(np.exp(x)) != bits(python)).any()


@pytest.mark.parametrize("at_once", [1, 7, 2**20])
def test_products_and_row_sums_are_plain_left_to_right_loops(monkeypatch, at_once):
    """Whatever block of terms products adds at once (one k at a time, a few, all), each entry is the plain loop's."""
    from attention_lab.numeric import arithmetic

    monkeypatch.setattr(arithmetic, "TERMS_AT_ONCE", at_once)
    rng = np.random.default_rng(at_once)
    A = own_numbers(rng, (2, 3, 5, 9), "limit")
    B = own_numbers(rng, (3, 9, 4), "decimal")
    got = arithmetic.products(A, B)
    want = [[[[left_to_right(A[b, i, n], B[i, :, m]) for m in range(4)] for n in range(5)] for i in range(3)]
            for b in range(2)]
    assert (bits(got) == bits(np.array(want))).all()
    sums = arithmetic.row_sums(A)
    want = [[[left_to_right(r, [1.0] * 9) for r in M] for M in X] for X in A]  # r·1 = r: the plain sum of r
    assert (bits(sums[..., 0]) == bits(np.array(want))).all()
    assert arithmetic.row_sums(np.array([[-0.0, -0.0]])).tolist() == [[0.0]] and not np.signbit(
        arithmetic.row_sums(np.array([[-0.0]]))).any()
    assert arithmetic.products(np.zeros((1, 0)), np.zeros((0, 2))).tolist() == [[0.0, 0.0]]


def test_log_has_the_same_bits_on_both_sides_and_is_within_one_ulp():
    """The `log` operation (a stage may use it: test_adding_a_stage's log P) by fdlibm's algorithm on both sides:
    Math.log and NumPy's log differ in the last bit for some arguments, as exp did."""
    from decimal import Decimal, localcontext

    from frontend import page_calls

    from attention_lab.numeric.arithmetic import log

    rng = np.random.default_rng(32)
    x = np.concatenate([[0.0, -0.0, 1.0, 2.0, 0.5, math.e, 5e-324, 2.0**-1022, 1e-310, 1.7976931348623157e308,
                         math.inf, -1.0, -math.inf, math.nan, 1 + 2.0**-21, 1 - 2.0**-22, 1 + 2.0**-52],
                        rng.random(3000), rng.random(1000) * 1e-300, np.exp(rng.uniform(-700, 700, 3000)),
                        rng.uniform(0.9, 1.1, 2000)])
    python, page = log(x), np.array(page_calls("log", x))
    assert (bits(python) == bits(page)).all(), x[bits(python) != bits(page)][:5]
    with localcontext() as context:  # the exact ln x, rounded once, from the decimal module (40 digits)
        context.prec = 40
        for a, got in zip(x.tolist(), python.tolist(), strict=True):
            if math.isfinite(a) and a > 0:
                assert abs(Decimal(got) - Decimal(a).ln()) <= Decimal(math.ulp(got)), a
    assert log(np.array([0.0, -1.0, math.inf])).tolist()[::2] == [-math.inf, math.inf] and math.isnan(log(-1.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        assert (bits(np.log(x)) != bits(python)).any()  # NumPy's log is refused by the same check
