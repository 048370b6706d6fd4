"""Issue 23's cases by name, and the rule each breaks fuzzed over every entry point of the numeric layer: a correct
result, or a ValueError that names the argument and the fix, checked before anything large is allocated.

(The explorer's, the figures' and the exercises' cases are in their own test files.)
"""

import dataclasses
import inspect

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memory import peak_bytes
from strategies import mask_specs

import attention_lab as al
from attention_lab.numeric import checks, conventions, pipeline

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BIG = np.finfo(float).max  # 1.797e308
X, B = np.ones((3, 8)), np.tril(np.ones((3, 3), dtype=bool))


def names(error):  # -> the argument a ValueError's message names (before its first ": ")
    return str(error.value).split(": ", 1)[0]


# ---- 1. near the float limit: the trace, decoding and blockwise attention give the same finite numbers ----------

@pytest.mark.parametrize("T", [2, 10, 11, 40])
def test_values_at_the_float_limit_stay_finite_and_agree(T):
    zeros, V = np.zeros((T, 1)), np.full((T, 1), BIG)  # every weight 1/t, every Value the largest float
    H = al.attention_trace(zeros, zeros, V, 1).H
    assert np.isfinite(H).all()
    np.testing.assert_allclose(H, BIG, rtol=1e-15)  # the average of equal Values is that Value (to rounding)
    for block in (1, 3, T):
        np.testing.assert_allclose(al.blockwise_attention(zeros, zeros, V, 1, block), H, rtol=1e-15)
    np.testing.assert_allclose(al.decode_with_cache(zeros, zeros, V, 1), H, rtol=1e-15)


def test_the_issues_blockwise_case_gives_the_traces_numbers():
    Q, K, V = np.zeros((2, 1)), np.zeros((2, 1)), np.full((2, 1), 1e308)
    np.testing.assert_allclose(al.blockwise_attention(Q, K, V, 1, 1), al.attention_trace(Q, K, V, 1).H, rtol=1e-15)
    step = al.blockwise_steps(Q, K, V, 1, 1)[-1]
    assert np.isfinite(step.O).all() and np.isinf(step.O_acc[0, 1]).all()  # 2e308 is beyond the range; O is not


@st.composite
def limit_problems(draw):  # Values up to the float limit, small Q and K, any mask and grouping
    h = draw(st.integers(1, 3))
    g = draw(st.sampled_from(checks.divisors(h)))
    T, dh = draw(st.integers(1, 10)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    Q, K = rng.normal(0, 2, (T, h * dh)), rng.normal(0, 2, (T, g * dh))
    V = rng.uniform(-1, 1, (T, g * dh)) * draw(st.sampled_from([BIG, 2.0**1020, 1e300]))
    V[rng.random(V.shape) < draw(st.floats(0, 1))] = draw(st.sampled_from([BIG, -BIG]))
    return Q, K, V, h, g, draw(mask_specs(T)), draw(st.integers(1, T + 1))


@FUZZ
@given(limit_problems())
def test_near_the_float_limit_blockwise_and_decoding_equal_the_trace(problem):
    Q, K, V, h, g, mask, block = problem
    tr = al.attention_trace(Q, K, V, h, mask, kv_heads=g)
    assert np.isfinite(tr.H).all()
    close = {"rtol": 1e-12, "atol": 1e-12 * np.abs(V).max()}
    np.testing.assert_allclose(al.blockwise_attention(Q, K, V, h, block, mask, g), tr.H, **close)
    np.testing.assert_allclose(al.blockwise_steps(Q, K, V, h, block, mask, g)[-1].O, tr.O, **close)
    causal = al.attention_trace(Q, K, V, h, kv_heads=g).H
    np.testing.assert_allclose(al.decode_with_cache(Q, K, V, h, g), causal, **close)


@FUZZ
@given(st.integers(1, 8), st.integers(1, 4), st.integers(0, 2**32), st.sampled_from([BIG, 1e308, 2.0**1023]))
def test_a_weighted_average_stays_within_its_values(T_k, dh, seed, top):
    rng = np.random.default_rng(seed)
    P = al.softmax(rng.normal(0, 3, (5, T_k)))  # rows of weights
    V = rng.choice([-1.0, 1.0], (T_k, dh)) * top * rng.uniform(0.5, 1, (T_k, dh))
    O = al.weighted_sum(P, V)
    assert np.isfinite(O).all()
    assert (O >= V.min(axis=0) - 1e-12 * top).all() and (O <= V.max(axis=0) + 1e-12 * top).all()


def test_a_genuine_overflow_is_still_inf_or_named():
    assert np.isinf(al.weighted_sum(np.array([2.0, 2.0]), np.full((2, 1), 1e308))).all()  # not weights: 4e308
    with pytest.raises(ValueError, match=r"^Q, K: the scores Q·Kᵀ overflowed"):
        al.attention_trace(np.full((2, 2), 1e200), np.full((2, 2), 1e200), X[:2, :2], 1)


# ---- 2. NumPy integers are converted once, after checking: no wrap-around ----------------------------------------

INTEGER_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def test_the_issues_integer_cases():
    assert al.generation_cost(3, np.int8(8), 2)[0].macs_with_cache == 208  # np.int8(-48) before
    for kind, d in ((np.uint8, 200), (np.int32, 2**15)):
        assert al.generation_cost(3, kind(d), 2) == al.generation_cost(3, d, 2)
        assert all(type(v) is int for v in vars(al.generation_cost(3, kind(d), 2)[-1]).values())


@pytest.mark.parametrize(("T", "d", "shown"), [(np.int16(20000), np.int16(1000), "T=20,000 tokens × d=1,000"),
                                               (np.int32(65536), np.int32(65536), "T=65,536 tokens × d=65,536")])
def test_sizes_are_multiplied_as_python_ints(T, d, shown, monkeypatch):
    monkeypatch.setattr(checks, "machine_bytes", lambda: 2 * 2**30)  # Binder's 2 GB: 0.5 GiB a call
    with pytest.raises(ValueError, match=rf"^T, d: an example of {shown} components would need about [\d.]+ GiB, "
                                         r"more than the 0\.5 GiB one call may take here"):
        al.random_qkv(T, d)  # in int16, 20000 × 1000 wraps to −11520; in int32, 65536 × 65536 to 0


def _same(a, b):
    if dataclasses.is_dataclass(a):  # a record: the same fields, of the same types (int, never np.int8)
        return type(a) is type(b) and _same(tuple(vars(a).values()), tuple(vars(b).values()))
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b) and a.dtype == b.dtype
    if isinstance(a, al.AttentionTrace):
        return all(np.array_equal(x, y) for x, y in zip(a.arrays().values(), b.arrays().values(), strict=True))
    return a == b and type(a) is type(b)


def _outcome(call):  # -> ("ok", result) or ("error", message)
    try:
        return "ok", call()
    except ValueError as error:
        return "error", str(error)


INTEGER_CALLS = {  # every entry point with a whole-number argument: (call with n as that argument, range of n)
    "generation_cost d": (lambda n: al.generation_cost(4, n, 2), (1, 127)),
    "generation_cost T": (lambda n: al.generation_cost(n, 8, 2, kv_heads=1), (1, 127)),
    "kv_cache_bytes": (lambda n: al.kv_cache_bytes(n, n, n, n, n), (1, 2**15)),
    "kv_head_index": (lambda n: al.kv_head_index(n, 1), (1, 127)),
    "random_qkv": (lambda n: al.random_qkv(n, 8, seed=n), (1, 100)),
    "example_qkv": (lambda n: al.example_qkv(4, 8, 2, seed=n, low=0, high=n), (0, 100)),
    "article_example": (lambda n: al.article_example(T=n % 9 + 1, d=8, h=2), (1, 100)),
    "random_example": (lambda n: al.random_example(n % 9 + 1, 8, 2, seed=n, queries=1), (1, 100)),
    "causal_mask": (lambda n: al.causal_mask(n % 20 + 1), (1, 100)),
    "make_mask": (lambda n: al.make_mask(al.Mask("sliding", window=n % 3 + 1), n % 20 + 3), (1, 100)),
    "no_mask": (lambda n: al.no_mask(n % 20 + 1), (1, 100)),
    "allowed_of": (lambda n: al.allowed_of("causal", n % 20 + 1, n % 7 + 1), (1, 100)),
    "blockwise block": (lambda n: al.blockwise_attention(X, X, X, 2, n), (1, 100)),
    "blockwise h": (lambda n: al.blockwise_attention(X, X, X, n, 2), (1, 100)),
    "decode_steps h": (lambda n: al.decode_steps(X, X, X, n)[-1].P_row, (1, 100)),
    "attention_trace h": (lambda n: al.attention_trace(X, X, X, n), (1, 100)),
    "kv_head_of": (lambda n: al.article_example().kv_head_of(n % 3), (0, 100)),
    "split_heads": (lambda n: al.split_heads(X, n), (1, 100)),
}


@FUZZ
@given(st.sampled_from(sorted(INTEGER_CALLS)), st.sampled_from(INTEGER_TYPES), st.data())
def test_a_numpy_integer_gives_what_the_same_python_int_gives(name, kind, data):
    call, (lo, hi) = INTEGER_CALLS[name]
    n = data.draw(st.integers(lo, min(hi, int(np.iinfo(kind).max))), label="n")
    (got_kind, got), (want_kind, want) = _outcome(lambda: call(kind(n))), _outcome(lambda: call(n))
    assert got_kind == want_kind and _same(got, want), (got, want)


# ---- 3. which K/V head a Query head reads ----------------------------------------------------------------------

@pytest.mark.parametrize(("call", "name"), [
    (lambda: al.kv_head_index(2, 3), "g"), (lambda: al.kv_head_index(3, 2), "g"),
    (lambda: al.kv_head_index(True, 1), "h"), (lambda: al.kv_head_index(2**62, 1), "h"),
    (lambda: al.article_example().kv_head_of(5), "head"), (lambda: al.article_example().kv_head_of(True), "head"),
    (lambda: al.article_example().kv_head_of(-1), "head"), (lambda: al.article_example().kv_head_of(1.0), "head"),
])
def test_a_head_that_does_not_exist_is_named(call, name):
    with pytest.raises(ValueError) as error:
        call()
    assert names(error) == name


def test_kv_head_index_checks_and_answers():
    assert al.kv_head_index(4, 2).tolist() == [0, 0, 1, 1] and al.kv_head_index(3, 3).tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match=r"^g: h=1000000000039 Query heads .* use one of \[1, 1000000000039\]"):
        al.kv_head_index(10**12 + 39, 2)  # a prime: its divisors found in √h steps, not h


# ---- 4. masked arrays, bytearray and memoryview are refused by name wherever a matrix or a mask is read -----------

S3, V3 = np.ones((2, 3, 3)), np.ones((2, 3, 4))
READS = {  # entry point -> (call with keyword arguments, its valid array arguments)
    "attention_trace": (lambda **a: al.attention_trace(**a, h=2), {"Q": X, "K": X, "V": X, "mask": B}),
    "blockwise_attention": (lambda **a: al.blockwise_attention(**a, h=2, block=2), {"Q": X, "K": X, "V": X,
                                                                                    "mask": B}),
    "blockwise_steps": (lambda **a: al.blockwise_steps(**a, h=2, block=2), {"Q": X, "K": X, "V": X, "mask": B}),
    "decode_steps": (lambda **a: al.decode_steps(**a, h=2), {"Q": X, "K": X, "V": X}),
    "decode_with_cache": (lambda **a: al.decode_with_cache(**a, h=2), {"Q": X, "K": X, "V": X}),
    "scores": (al.scores, {"Q": V3, "K": V3}),
    "scale": (lambda **a: al.scale(**a, dh=4), {"S": S3}),
    "apply_mask": (al.apply_mask, {"S_scaled": S3, "M": np.zeros((3, 3))}),
    "row_exponentials": (al.row_exponentials, {"S_masked": S3}),
    "normalize_rows": (al.normalize_rows, {"E": S3}),
    "softmax": (al.softmax, {"S_masked": S3}),
    "exponentials": (al.exponentials, {"S_masked": S3}),
    "weighted_sum": (al.weighted_sum, {"P": S3 / 3, "V": V3}),
    "split_heads": (lambda **a: al.split_heads(**a, h=2), {"X": X}),
    "concat_heads": (al.concat_heads, {"O": V3}),
    "online_update": (al.online_update, {"m": np.zeros((2, 3)), "l": np.ones((2, 3)), "O_acc": V3, "S_block": S3,
                                         "V_block": V3}),
    "additive_mask": (al.additive_mask, {"allowed": B}),
    "Mask.of": (lambda allowed: al.Mask.of(allowed), {"allowed": B}),  # named `mask`, as users reach it
    "allowed_of": (lambda **a: al.allowed_of(**a, T_q=3), {"mask": B}),
    "make_mask": (lambda **a: al.make_mask(**a, T_q=3), {"mask": B}),
    "conventions.write": (conventions.CONVENTIONS["masked"].write, {"allowed": B}),
    "conventions.additive": (conventions.CONVENTIONS["minus_1e9"].additive, {"written": np.zeros((3, 3))}),
    "conventions.additive bool": (conventions.CONVENTIONS["may_attend"].additive, {"written": B}),
}


def _rows_as(kind, array):  # the same numbers, nested lists whose innermost rows are bytearray or memoryview
    if array.ndim == 1:
        return kind(array.astype(np.uint8).tobytes())
    return [_rows_as(kind, row) for row in array]


DISGUISES = {
    "masked array": lambda a: np.ma.array(a, mask=np.zeros(a.shape, dtype=bool)),
    "masked array, an entry hidden": lambda a: np.ma.array(a, mask=np.broadcast_to(np.eye(*a.shape[-2:], dtype=bool),
                                                                                    a.shape)),
    "bytearray rows": lambda a: _rows_as(bytearray, a),
    "memoryview rows": lambda a: _rows_as(memoryview, a),
    "memoryview": lambda a: memoryview(np.ascontiguousarray(a)),
    "bytes rows": lambda a: _rows_as(bytes, a),
}


def test_every_valid_call_of_the_table_works():  # so that each refusal below is the disguise's doing
    for call, arrays in READS.values():
        call(**arrays)


@pytest.mark.parametrize("disguise", DISGUISES)
@pytest.mark.parametrize("entry", READS)
def test_a_disguised_array_is_refused_by_name(entry, disguise):
    call, arrays = READS[entry]
    for name, value in arrays.items():
        with pytest.raises(ValueError) as error:
            call(**{**arrays, name: DISGUISES[disguise](value)})
        assert names(error) == ("mask" if entry == "Mask.of" else name), str(error.value)
        assert any(w in str(error.value) for w in ("masked array", "bytearray", "memoryview", "bytes")), error.value


# ---- 5. an unknown keyword is named, with the closest valid name -------------------------------------------------

def _public_callables():  # -> {name: callable}: every public function and method a learner reaches
    found = {n: getattr(al, n) for n in al.__all__ if inspect.isfunction(getattr(al, n, None))}
    found.pop("explorer"), found.pop("decode_view"), found.pop("blockwise_view")  # the live layer's: tested there
    tr, mask = al.article_example(), al.Mask("sliding", window=2)
    found |= {"AttentionTrace.kv_head_of": tr.kv_head_of, "AttentionTrace.shapes": tr.shapes,
              "AttentionTrace.arrays": tr.arrays, "Mask.of": al.Mask.of, "Mask.allowed": mask.allowed,
              "Mask.checked": mask.checked, "Mask.param": mask.param, "ModelConfig.cache_bytes":
              al.PUBLISHED[0].cache_bytes, "Convention.write": conventions.CONVENTIONS["masked"].write,
              "Convention.additive": conventions.CONVENTIONS["masked"].additive,
              "Stage.matrix": pipeline.STAGES["P"].matrix, "Stage.value": pipeline.STAGES["P"].value}
    return found


PUBLIC = _public_callables()


@pytest.mark.parametrize("entry", PUBLIC)
def test_every_public_function_names_a_misspelt_argument_and_the_closest_one(entry):
    fn = PUBLIC[entry]
    for param in inspect.signature(fn).parameters:
        typo = param + param[-1]  # kv_headss, hh, QQ
        with pytest.raises(ValueError) as error:
            fn(**{typo: 1})
        assert names(error) == typo
        assert f"Did you mean {param}=…?" in str(error.value), str(error.value)
    with pytest.raises(ValueError, match=r"^zzz: .* has no argument 'zzz'\. \(.* takes "):
        fn(zzz=1)


@pytest.mark.parametrize(("call", "typo", "meant"), [
    (lambda: al.attention_trace(X, X, X, h=2, scale=False), "scale", "scaled"),
    (lambda: al.attention_trace(X, X, X, h=2, kv_head=1), "kv_head", "kv_heads"),
    (lambda: al.article_example(t=5), "t", "T"),
    (lambda: al.blockwise_attention(X, X, X, 2, block_size=2), "block_size", "block"),
    (lambda: al.decode_with_cache(X, X, X, 2, kvheads=2), "kvheads", "kv_heads"),
    (lambda: al.random_example(3, 8, 2, sead=1), "sead", "seed"),
    (lambda: al.make_mask("causal", T=3), "T", "T_q"),
])
def test_the_issues_typos_are_named_as_arguments(call, typo, meant):
    with pytest.raises(ValueError, match=rf"^{typo}: \w+ has no argument '{typo}'\. Did you mean {meant}=…\?"):
        call()


def test_a_mask_parameter_given_to_a_function_points_at_the_mask():
    with pytest.raises(ValueError, match=r"^window: is a parameter of a mask, .*mask=Mask\('sliding', window=…\)"):
        al.attention_trace(X, X, X, h=2, window=2)
    with pytest.raises(ValueError, match=r"^windw: mask 'sliding' takes window; did you mean window=…\?"):
        al.Mask("sliding", windw=2)


# ---- 6. sizes the machine cannot hold: refused at once, with the bound and why -----------------------------------

@pytest.fixture
def eight_gib_machine(monkeypatch):  # the bound is a quarter of the machine's memory: fix the machine for the test
    monkeypatch.setattr(checks, "machine_bytes", lambda: 8 * 2**30)


def _peak_mib(call):  # -> (the ValueError raised, the peak MiB allocated before it)
    errors = []

    def refused():
        with pytest.raises(ValueError) as error:
            call()
        errors.append(error)

    peak = peak_bytes(refused) / 2**20
    return errors[0], peak


LONG_Q = np.ones((20000, 1))
TOO_LARGE = [  # (call, the argument named)
    (lambda: al.random_example(T=16384, d=1, h=1), "T"),
    (lambda: al.attention_trace(LONG_Q, LONG_Q, LONG_Q, 1), "Q, K"),
    (lambda: al.article_example(T=2**20), "T"),
    (lambda: al.causal_mask(10**6), "T"),
    (lambda: al.make_mask("causal", 30000), "T_q, T_k"),
    (lambda: al.no_mask(10**6), "T"),
    (lambda: al.allowed_of("causal", 10**6), "T_q, T_k"),
    (lambda: al.causal_allowed(10**6), "T_q, T_k"),
    (lambda: al.random_qkv(2**20, 2**10), "T, d"),
    (lambda: al.example_qkv(2**30, 8, 2), "T, d"),
    (lambda: al.blockwise_attention(LONG_Q, LONG_Q, LONG_Q, 1, 20000), "block"),
    (lambda: al.blockwise_steps(LONG_Q, LONG_Q, LONG_Q, 1, 128), "Q, K"),
    (lambda: al.decode_steps(LONG_Q, LONG_Q, LONG_Q, 1), "Q"),
    (lambda: al.kv_head_index(2**40, 1), "h"),
]


@pytest.mark.usefixtures("eight_gib_machine")
@pytest.mark.parametrize(("call", "name"), TOO_LARGE, ids=[name for _, name in TOO_LARGE])
def test_a_size_too_large_for_the_machine_is_refused_before_anything_is_made(call, name):
    error, peak = _peak_mib(call)
    assert names(error) == name
    assert "more than the 2 GiB one call may take here (a quarter of this machine's 8 GiB" in str(error.value)
    assert peak < 16, f"{peak:.0f} MiB allocated before refusing"


@pytest.mark.usefixtures("eight_gib_machine")
def test_too_large_a_block_is_told_one_that_fits():
    error, _ = _peak_mib(lambda: al.blockwise_attention(LONG_Q, LONG_Q, LONG_Q, 1, 20000))
    fits = int(str(error.value).split("block=")[-1].rstrip(".").replace(",", ""))
    assert 1 <= fits < 20000
    assert al.blockwise_attention(LONG_Q[:50], LONG_Q[:50], LONG_Q[:50], 1, fits).shape == (50, 1)


@pytest.mark.usefixtures("eight_gib_machine")
@settings(FUZZ, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.one_of(st.integers(1, 48), st.integers(2**17, 2**40)), st.integers(1, 8),
       st.sampled_from(["random_example", "article_example", "make_mask", "causal_mask", "no_mask", "allowed_of",
                        "random_qkv"]))
def test_any_size_gives_a_result_or_a_named_refusal_at_once(T, h, entry):
    call = {"random_example": lambda: al.random_example(T, 2 * h, h), "causal_mask": lambda: al.causal_mask(T),
            "article_example": lambda: al.article_example(T=T, d=2 * h, h=h), "no_mask": lambda: al.no_mask(T),
            "make_mask": lambda: al.make_mask("sliding", T), "allowed_of": lambda: al.allowed_of("packed", T),
            "random_qkv": lambda: al.random_qkv(T, T)}[entry]
    results = []
    peak = peak_bytes(lambda: results.append(_outcome(call))) / 2**20
    result = results[0]
    if result[0] == "error":
        assert result[1].split(": ", 1)[0] in ("T", "d", "T_q", "T_k", "T_q, T_k", "T, d", "h"), result[1]
        assert peak < 16
    else:
        assert T <= 48 and peak < 64, (T, peak)


# ---- 7. the mask functions check T, and every other number they read --------------------------------------------

@pytest.mark.parametrize(("call", "match"), [
    (lambda: al.make_mask("causal", 2.5), r"^T_q: must be a whole number, got float 2\.5"),
    (lambda: al.causal_mask(3.0), r"^T: must be a whole number, got float 3\.0"),
    (lambda: al.no_mask(2.5), r"^T: must be a whole number"),
    (lambda: al.causal_allowed("3"), r"^T: must be a whole number, got str"),
    (lambda: al.allowed_of("causal", None), r"^T_q: must be a whole number, got NoneType"),
    (lambda: al.make_mask("causal", -1), r"^T_q: must be ≥ 1, got -1"),
    (lambda: al.make_mask("causal", 0), r"^T_q: must be ≥ 1, got 0"),
    (lambda: al.make_mask("causal", True), r"^T_q: must be a whole number, got True/False"),
    (lambda: al.make_mask("causal", 3, 2.0), r"^T_k: must be a whole number"),
    (lambda: al.additive_mask("abc"), r"^allowed: must be a 2-D boolean array .*got 'abc'"),
    (lambda: al.additive_mask(None), r"^allowed: must be a 2-D boolean array .*got None"),
    (lambda: al.additive_mask(np.ones((2, 2))), r"^allowed: a mask array must be boolean .*float64"),
    (lambda: al.additive_mask([[True], [True, False]]), r"^allowed: the rows of a mask array"),
    (lambda: al.example_qkv(3, 8, 2, low=-2**63, high=2**63), r"^low: must be from -9007199254740992 to "),
    (lambda: al.example_qkv(3, 8, 2, low=0, high=2**63), r"^high: must be from "),
    (lambda: al.example_qkv(3, 8, 2, low=2, high=1), r"^low, high: need low ≤ high"),
    (lambda: al.online_update("a", 1, 1, 1, 1), r"^m: must be an array of real numbers, got text 'a'"),
    (lambda: al.online_update(np.zeros((2, 3)), 1, 1, 1, 1), r"^l: must have shape \(h, T_q\) with \(h, T_q\) = "),
    (lambda: al.online_update(np.zeros((2, 3)), np.ones((2, 3)), V3, S3, np.ones((2, 3, 5))), r"^V_block: "),
    (lambda: al.blockwise_attention(X, X, X, 2, 2, progress="yes"), r"^progress: must be True or False"),
    (lambda: al.Mask("causal").param("window"), r"^name: Mask\('causal'\) has no parameter 'window'"),
])
def test_the_issues_mask_and_argument_cases_name_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@FUZZ
@given(st.one_of(st.none(), st.booleans(), st.floats(), st.text(max_size=3), st.integers(-5, 12),
                 st.sampled_from([np.int8(3), np.uint16(4), np.float32(2.0), np.bool_(True), 3 + 0j, [3], (2,)])),
       st.sampled_from(["causal_mask", "no_mask", "causal_allowed", "make_mask", "allowed_of"]))
def test_the_mask_functions_take_only_a_whole_number_of_tokens(T, entry):
    call = {"causal_mask": al.causal_mask, "no_mask": al.no_mask, "causal_allowed": al.causal_allowed,
            "make_mask": lambda T: al.make_mask("sliding", T), "allowed_of": lambda T: al.allowed_of(None, T)}[entry]
    kind, result = _outcome(lambda: call(T))
    if kind == "ok":
        n = int(T)
        assert n >= 1 and result.shape == (n, n) and not isinstance(T, (bool, np.bool_, float, np.floating))
    else:
        assert result.split(": ", 1)[0] in ("T", "T_q"), result
