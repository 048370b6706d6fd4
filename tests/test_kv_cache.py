"""Generating token by token from a KV cache: the article's row 3, equal to the trace, what each step uses and costs."""

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memory import peak_bytes

import attention_lab as al
from attention_lab.numeric import progress
from attention_lab.numeric.kv_cache import PUBLISHED, StepCost


@pytest.fixture(scope="module")
def tr():
    return al.article_example()


def test_step_3_computes_only_row_3_from_the_cache(tr):
    steps = al.decode_steps(tr.Q, tr.K, tr.V, tr.h)
    assert [s.t for s in steps] == [0, 1, 2] and [s.cache_tokens for s in steps] == [1, 2, 3]
    third = steps[2]
    np.testing.assert_array_equal(third.q[0], [-1, 1, 1, 2])  # token 3's Query, Head 1
    np.testing.assert_array_equal(third.S_scaled_row[0], [1, 0, 3])
    np.testing.assert_allclose(third.P_row[0], [0.114, 0.042, 0.844], atol=5e-4)
    np.testing.assert_allclose(third.O_row[0], [0.114, 0.042, 0.844, 1], atol=5e-4)
    np.testing.assert_array_equal(third.K_cache, tr.Kh)  # the cache holds every token's Key row by then
    np.testing.assert_array_equal(third.V_cache, tr.Vh)
    assert third.cache_values == 2 * 3 * tr.h * tr.dh == 48
    np.testing.assert_allclose(third.H_row, tr.H[2], rtol=0, atol=1e-12)


def test_each_step_equals_the_row_of_the_full_computation(tr):
    for step in al.decode_steps(tr.Q, tr.K, tr.V, tr.h):
        t = step.t
        np.testing.assert_allclose(step.P_row, tr.P[:, t, : t + 1], rtol=0, atol=1e-12)
        assert (tr.P[:, t, t + 1 :] == 0).all()  # what the cache leaves out has weight 0 anyway
        np.testing.assert_allclose(step.O_row, tr.O[:, t], rtol=0, atol=1e-12)
        np.testing.assert_array_equal(step.K_cache, tr.Kh[:, : t + 1])


def test_a_step_uses_only_its_own_query_row_and_the_rows_before_it(tr):
    steps = al.decode_steps(tr.Q, tr.K, tr.V, tr.h)
    Q, K, V = tr.Q.copy(), tr.K.copy(), tr.V.copy()
    Q[[0, 2]] += 5  # every Query row but token 2's
    K[2] -= 3  # and the Key and Value of the token after it
    V[2] *= -4
    changed = al.decode_steps(Q, K, V, tr.h)
    for name in ("q", "K_cache", "V_cache", "S_scaled_row", "P_row", "O_row", "H_row"):
        np.testing.assert_array_equal(getattr(changed[1], name), getattr(steps[1], name))
    assert not np.array_equal(changed[2].P_row, steps[2].P_row)


def test_records_are_read_only(tr):
    step = al.decode_steps(tr.Q, tr.K, tr.V, tr.h)[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.t = 5
    for name in ("q", "K_cache", "V_cache", "S_scaled_row", "P_row", "O_row", "H_row"):
        array = getattr(step, name)
        with pytest.raises(ValueError):
            array[...] = 0
        with pytest.raises(ValueError):
            array.setflags(write=True)


def test_grouped_and_multi_query_heads_read_the_shared_cache():
    tr = al.article_example(kv_heads=1)  # MQA: both Query heads read the one K/V head (the article's Head 1)
    steps = al.decode_steps(tr.Q, tr.K, tr.V, tr.h, kv_heads=1)
    assert steps[2].K_cache.shape == (1, 3, 4) and steps[2].cache_values == 24
    np.testing.assert_allclose(steps[2].P_row[0], [0.114, 0.042, 0.844], atol=5e-4)
    np.testing.assert_allclose(al.decode_with_cache(tr.Q, tr.K, tr.V, tr.h, kv_heads=1), tr.H, rtol=0, atol=1e-12)


@st.composite
def problems(draw, max_T=10):
    h = draw(st.integers(1, 4))
    g = draw(st.sampled_from([n for n in range(1, h + 1) if h % n == 0]))
    T, dh = draw(st.integers(1, max_T)), draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32))
    rng = np.random.default_rng(seed)
    Q = rng.normal(0, 2, (T, h * dh))
    K, V = rng.normal(0, 2, (T, g * dh)), rng.normal(0, 3, (T, g * dh))
    return Q, K, V, h, g


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_decoding_with_the_cache_equals_the_trace(problem):
    Q, K, V, h, g = problem
    tr = al.attention_trace(Q, K, V, h, mask="causal", kv_heads=g)
    H = al.decode_with_cache(Q, K, V, h, kv_heads=g)
    assert H.shape == tr.H.shape
    np.testing.assert_allclose(H, tr.H, rtol=0, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.integers(1, 4), st.integers(1, 3), st.data())
def test_counted_costs_are_the_work_the_steps_and_the_trace_do(T, h, dh, data):
    g = data.draw(st.sampled_from([n for n in range(1, h + 1) if h % n == 0]))
    d = h * dh
    tr = al.random_example(T, d, h, seed=1, kv_heads=g)
    costs = al.generation_cost(T, d, h, kv_heads=g)
    steps = al.decode_steps(tr.Q, tr.K, tr.V, h, kv_heads=g)
    projections = d * d + 2 * d * g * dh  # Q (d × d), K and V (d × g·dh) for one token
    for t, (cost, step) in enumerate(zip(costs, steps, strict=True), start=1):
        assert isinstance(cost, StepCost) and cost.t == t
        # counted from the arrays the step computed (step.macs and step.cache_values are formulas, like the cost's)
        cached = step.K_cache.size + step.V_cache.size
        assert step.S_scaled_row.shape == step.P_row.shape == (h, t) and step.q.shape == (h, dh)
        assert cost.macs_with_cache == projections + step.S_scaled_row.size * dh + step.P_row.size * dh
        assert cost.cache_values == cached
        assert cost.values_with_cache == cached + step.P_row.size
        prefix = al.attention_trace(tr.Q[:t], tr.K[:t], tr.V[:t], h, kv_heads=g)  # all t tokens again
        assert cost.macs_without_cache == t * projections + prefix.S.size * dh + prefix.P.size * dh
        assert cost.values_without_cache == prefix.K.size + prefix.V.size + prefix.P.size


def test_without_the_cache_the_total_grows_a_power_of_t_faster():
    def totals(T):
        costs = al.generation_cost(T, 768, 12)
        return sum(c.macs_with_cache for c in costs), sum(c.macs_without_cache for c in costs)

    (with_1k, without_1k), (with_2k, without_2k) = totals(1024), totals(2048)
    assert 2 < with_2k / with_1k < 4 and 4 < without_2k / without_1k < 8
    assert without_2k / with_2k > without_1k / with_1k > 100


def test_kv_cache_bytes_of_published_models():
    llama2_7b, llama2_70b, llama31_70b = (next(m for m in PUBLISHED if m.name == n)
                                          for n in ("Llama 2 7B", "Llama 2 70B", "Llama 3.1 70B"))
    assert llama2_7b.cache_bytes() == 2 * 2**30  # 2 (K, V) · 32 · 4096 · 32 · 128 · 2 bytes
    assert llama2_70b.cache_bytes() == 1.25 * 2**30 and llama2_70b.cache_bytes(kv_heads=64) == 10 * 2**30
    assert llama31_70b.cache_bytes() == 40 * 2**30 and llama31_70b.cache_bytes(kv_heads=64) == 320 * 2**30
    assert al.kv_cache_bytes(layers=1, tokens=3, kv_heads=2, dh=4, bytes_per_value=8) == 2 * 3 * 2 * 4 * 8


def test_published_configurations_are_consistent_and_cited():
    assert len(PUBLISHED) >= 5
    assert {m.kv_heads == m.heads for m in PUBLISHED} == {True, False}  # with and without GQA
    assert any(m.kv_heads == 1 for m in PUBLISHED)  # and multi-query attention
    for m in PUBLISHED:
        assert m.heads % m.kv_heads == 0 and m.heads * m.dh == m.d, m.name
        assert "config.json" in m.source or "arXiv" in m.source, m.name
        assert m.cache_bytes(kv_heads=m.heads) == m.cache_bytes() * (m.heads // m.kv_heads)


@pytest.mark.parametrize(("call", "match"), [
    (lambda tr: al.decode_steps(tr.Q, tr.K, tr.V, 2, kv_heads=3), "kv_heads"),
    (lambda tr: al.decode_steps(tr.Q, tr.K, tr.V, 2, kv_heads=0), "kv_heads"),
    (lambda tr: al.decode_steps(tr.Q, tr.K, tr.V, 2, kv_heads=1.0), "kv_heads"),
    (lambda tr: al.decode_steps(tr.Q, tr.K, tr.V, 2, kv_heads=1), "K, V, kv_heads"),  # K, V have 2 heads' columns
    (lambda tr: al.decode_steps(tr.Q, tr.K, tr.V, 3), "h"),
    (lambda tr: al.decode_with_cache(tr.Q, tr.K[:2], tr.V, 2), "K, V"),
    (lambda tr: al.decode_with_cache(tr.Q, tr.K, "V", 2), "V"),
    (lambda tr: al.decode_with_cache(tr.Q * 1e200, tr.K * 1e200, tr.V, 2), "Q, K"),
    (lambda tr: al.generation_cost(0, 8, 2), "T"),
    (lambda tr: al.generation_cost(2**21, 8, 2), "T"),
    (lambda tr: al.generation_cost(4, 8, 3), "h"),
    (lambda tr: al.generation_cost(4, 8, 4, kv_heads=3), "kv_heads"),
    (lambda tr: al.kv_cache_bytes(0, 10, 1, 64), "layers"),
    (lambda tr: al.kv_cache_bytes(2, True, 1, 64), "tokens"),
    (lambda tr: al.kv_cache_bytes(2, 10, 1, 64, bytes_per_value=0.5), "bytes_per_value"),
])
def test_bad_arguments_get_a_value_error_that_names_them(tr, call, match):
    with pytest.raises(ValueError, match=f"^{match}: "):
        call(tr)


def test_sizes_are_written_as_a_person_reads_them():
    assert al.look.bytes_text(131072 * 131072 * 4) == "64 GiB"  # P alone at T = 128k in float32
    assert al.look.bytes_text(1536) == "1.5 KiB" and al.look.bytes_text(512) == "512 B"
    assert al.look.bytes_text(0) == "0 B" and al.look.bytes_text(40 * 2**30) == "40 GiB"
    with pytest.raises(ValueError, match="^n_bytes: "):
        al.look.bytes_text(-1)



def test_decoding_with_the_cache_keeps_no_step_so_its_memory_grows_as_t():
    peaks = {T: peak_bytes(al.decode_with_cache, *al.example_qkv(T, 8, 2, seed=1), 2) for T in (512, 2048)}
    assert peaks[2048] / peaks[512] < 6  # 4 × the tokens: about 4 × the memory (16 × if every step were kept)
    assert peaks[2048] < 2 * 2048 * 2048 * 8 / 16  # far below one (h, T, T) array, which the steps would hold


def test_long_decoding_shows_a_progress_bar_and_short_none(tr, capsys, monkeypatch):
    H = al.decode_with_cache(tr.Q, tr.K, tr.V, tr.h)
    assert capsys.readouterr().err == ""
    np.testing.assert_array_equal(al.decode_with_cache(tr.Q, tr.K, tr.V, tr.h, progress=True), H)
    err = capsys.readouterr().err
    assert "decode:" in err and "0/3" in err  # a bar of 3 steps, one per generated token
    monkeypatch.setattr(progress, "LONG", 1)
    al.decode_with_cache(tr.Q, tr.K, tr.V, tr.h)
    assert "decode" in capsys.readouterr().err
    with pytest.raises(ValueError, match="^progress: must be True or False"):
        al.decode_with_cache(tr.Q, tr.K, tr.V, tr.h, progress=1)
