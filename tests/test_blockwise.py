"""Blockwise attention with the online softmax: the article's row 3, exact for every block and mask, no (T, T) array."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memory import peak_bytes
from strategies import boolean_masks, every_mask, mask_specs

import attention_lab as al
from attention_lab.numeric import blockwise as blockwise
from attention_lab.numeric import masks as masks
from attention_lab.numeric import progress


@pytest.fixture(scope="module")
def tr():
    return al.article_example()


def test_row_3_one_key_at_a_time(tr):
    steps = al.blockwise_steps(tr.Q, tr.K, tr.V, tr.h, block=1)
    row = [(s.S_block[0, 2, 0], s.m_old[0, 2], s.m[0, 2], s.rescale[0, 2], s.l[0, 2]) for s in steps]
    assert [r[0] for r in row] == [1, 0, 3]  # the article's scores, one Key token per block
    assert [r[1] for r in row] == [-np.inf, 1, 1] and [r[2] for r in row] == [1, 1, 3]  # the running maximum
    assert row[0][3] == 0 and row[1][3] == 1 and row[2][3] == pytest.approx(math.exp(1 - 3))  # the rescaling
    assert row[1][4] == pytest.approx(1 + math.exp(-1))
    assert row[2][4] == pytest.approx((1 + math.exp(-1)) * math.exp(-2) + 1)
    last = steps[-1]
    weights = np.exp(tr.S_masked[0, 2] - last.m[0, 2]) / last.l[0, 2]  # what m and l say each weight is
    np.testing.assert_allclose(weights, [0.114, 0.042, 0.844], atol=5e-4)
    np.testing.assert_allclose(last.O[0, 2], [0.114, 0.042, 0.844, 1], atol=5e-4)


@pytest.mark.parametrize("mask", every_mask(7), ids=repr)
def test_every_block_size_gives_the_traces_output(mask):
    tr = al.article_example(mask, T=7, d=12, h=3)
    for block in range(1, tr.T + 2):
        H = al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, block, mask)
        np.testing.assert_allclose(H, tr.H, rtol=0, atol=1e-12)
        steps = al.blockwise_steps(tr.Q, tr.K, tr.V, tr.h, block, mask)
        assert len(steps) == math.ceil(tr.T / block)
        assert [j for s in steps for j in s.keys] == list(range(tr.T))
        np.testing.assert_allclose(steps[-1].O, tr.O, rtol=0, atol=1e-12)


def test_the_last_running_values_are_the_rows_maximum_and_sum():
    tr = al.random_example(6, 8, 2, seed=3, mask=al.Mask("sliding", window=3))
    last = al.blockwise_steps(tr.Q, tr.K, tr.V, tr.h, 4, al.Mask("sliding", window=3))[-1]
    S = tr.S_masked
    np.testing.assert_array_equal(last.m, S.max(axis=-1))
    np.testing.assert_allclose(last.l, np.exp(S - S.max(axis=-1, keepdims=True)).sum(axis=-1), rtol=1e-14)


def test_fully_masked_rows_give_zeros_never_nan():
    tr = al.random_example(5, 4, 2, seed=2, mask=al.Mask("padding", length=2))
    for block in (1, 2, 5):
        H = al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, block, al.Mask("padding", length=2))
        assert np.isfinite(H).all() and (H[2:] == 0).all()
        np.testing.assert_allclose(H, tr.H, rtol=0, atol=1e-12)
    custom = np.tril(np.ones((5, 5), dtype=bool))
    custom[3] = False  # Query token 4 may see nothing
    tr = al.random_example(5, 4, 2, seed=2, mask=custom)
    steps = al.blockwise_steps(tr.Q, tr.K, tr.V, tr.h, 2, custom)
    assert np.isneginf(steps[-1].m[:, 3]).all() and (steps[-1].l[:, 3] == 0).all()
    assert all(np.isfinite(s.rescale).all() and np.isfinite(s.O).all() for s in steps)
    assert (steps[-1].O[:, 3] == 0).all()


def test_kv_heads_share_the_key_and_value_blocks():
    tr = al.random_example(6, 16, 4, seed=5, kv_heads=2)
    for block in (1, 4, 6):
        H = al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, block, kv_heads=2)
        np.testing.assert_allclose(H, tr.H, rtol=0, atol=1e-12)


@st.composite
def problems(draw, max_T=12):
    h = draw(st.integers(1, 3))
    g = draw(st.sampled_from([n for n in range(1, h + 1) if h % n == 0]))
    T, dh = draw(st.integers(1, max_T)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    Q, K, V = rng.normal(0, 2, (T, h * dh)), rng.normal(0, 2, (T, g * dh)), rng.normal(0, 3, (T, g * dh))
    mask = draw(st.one_of(mask_specs(T), boolean_masks(T, T)))
    block = draw(st.integers(1, T + 2))
    return Q, K, V, h, g, mask, block


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_blockwise_attention_equals_the_trace(problem):
    Q, K, V, h, g, mask, block = problem
    tr = al.attention_trace(Q, K, V, h, mask, kv_heads=g)
    H = al.blockwise_attention(Q, K, V, h, block, mask, kv_heads=g)
    assert np.isfinite(H).all()
    np.testing.assert_allclose(H, tr.H, rtol=0, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12), st.data())
def test_a_block_of_a_mask_is_that_block_of_the_whole_mask(T_q, T_k, data):
    mask = data.draw(mask_specs(T_k))
    a, b = sorted(data.draw(st.lists(st.integers(0, T_q), min_size=2, max_size=2)))
    c, e = sorted(data.draw(st.lists(st.integers(0, T_k), min_size=2, max_size=2)))
    full = al.allowed_of(mask, T_q, T_k)
    np.testing.assert_array_equal(al.allowed_of(mask, T_q, T_k, rows=range(a, b), cols=range(c, e)), full[a:b, c:e])
    M = al.make_mask(mask, T_q, T_k, cols=range(c, e))
    np.testing.assert_array_equal(M, al.make_mask(mask, T_q, T_k)[:, c:e])


def test_no_t_by_t_array_is_ever_made(monkeypatch):
    # Instrument every array the computation builds: what core, the mask and the scores return.
    T, h, dh, block = 512, 2, 4, 16
    seen = []

    def spy(module, name):
        original = getattr(module, name)

        def wrapped(*args, **kwargs):
            result = original(*args, **kwargs)
            arrays = result if isinstance(result, tuple) else (result,)
            seen.extend((name, np.shape(array)) for array in arrays)
            return result

        monkeypatch.setattr(module, name, wrapped)

    for name in ("scale", "apply_mask", "weighted_sum", "split_heads", "concat_heads"):
        spy(blockwise.core, name)
    spy(blockwise.masks, "additive_mask")
    spy(blockwise.core, "checked_scores")
    spy(blockwise, "_update")  # online_update's arithmetic, on the arrays blockwise made (online_update checks first)
    tr_inputs = al.example_qkv(T, h * dh, h, seed=1)
    H = al.blockwise_attention(*tr_inputs, h, block, al.Mask("sliding", window=100))
    assert H.shape == (T, h * dh)
    assert {name for name, _ in seen} >= {"additive_mask", "checked_scores", "apply_mask", "_update"}
    for name, shape in seen:
        assert math.prod(shape) <= h * T * max(block, dh), (name, shape)  # never T × T values
    assert ("additive_mask", (T, block)) in seen



def test_peak_memory_grows_with_t_not_t_squared():
    h, dh, block = 1, 8, 16
    peaks = {}
    for T in (1024, 4096):
        Q, K, V = al.example_qkv(T, h * dh, h, seed=1)
        peaks[T] = peak_bytes(al.blockwise_attention, Q, K, V, h, block)
    one_t_by_t = 4096 * 4096 * 8  # a single (T, T) float64 array: 128 MiB
    assert peaks[4096] < one_t_by_t / 16, f"peak {peaks[4096] / 2**20:.1f} MiB"
    assert peaks[4096] / peaks[1024] < 6  # 4 × the tokens: about 4 × the memory (16 × if it held T × T)


def test_records_are_read_only(tr):
    step = al.blockwise_steps(tr.Q, tr.K, tr.V, tr.h, 2)[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.keys = range(3)
    for name in ("S_block", "m_old", "m", "rescale", "l", "O_acc", "O"):
        with pytest.raises(ValueError):
            getattr(step, name)[...] = 0
        with pytest.raises(ValueError):
            getattr(step, name).setflags(write=True)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"block": 0}, "block"), ({"block": 1.5}, "block"), ({"block": True}, "block"), ({"block": "2"}, "block"),
    ({"block": 2, "kv_heads": 3}, "kv_heads"), ({"block": 2, "kv_heads": 1}, "K, V, kv_heads"),
    ({"block": 2, "mask": "sliding", "window": 0}, "window"), ({"block": 2, "mask": "dilated"}, "mask"),
    ({"block": 2, "length": 2}, "length"), ({"block": 2, "mask": np.ones((2, 2), dtype=bool)}, "mask"),
])
def test_bad_arguments_get_a_value_error_that_names_them(tr, kwargs, match):
    for fn in (al.blockwise_attention, al.blockwise_steps):
        with pytest.raises(ValueError, match=f"^{match}: "):
            fn(tr.Q, tr.K, tr.V, tr.h, **kwargs)


@pytest.mark.parametrize(("rows", "cols"), [(range(0, 4), None), (None, range(-1, 2)), (range(0, 3, 2), None),
                                            ([0, 1], None), (None, slice(0, 2))])
def test_bad_index_ranges_of_a_mask_block_are_named(rows, cols):
    with pytest.raises(ValueError, match="^(rows|cols): "):
        al.allowed_of("causal", 3, rows=rows, cols=cols)


def test_generation_and_blockwise_attention_import_only_numpy():
    import subprocess
    import sys

    code = ("import sys, attention_lab as al; tr = al.article_example(); "
            "al.decode_with_cache(tr.Q, tr.K, tr.V, 2); al.blockwise_attention(tr.Q, tr.K, tr.V, 2, 2); "
            "al.generation_cost(4, 8, 2); al.PUBLISHED[0].cache_bytes(); "
            "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'IPython') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_long_work_shows_a_progress_bar_and_short_work_none(tr, capsys, monkeypatch):
    al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, 1)  # progress=None: 18 scores, no bar
    assert capsys.readouterr().err == ""
    al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, 1, progress=True)
    err = capsys.readouterr().err
    assert "blockwise_attention:" in err and "0/3" in err  # tqdm's text bar on stderr: 3 Key tokens
    monkeypatch.setattr(progress, "LONG", 18)  # what "long" means: now these 2 × 3 × 3 scores
    al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, 2)
    assert "blockwise_attention" in capsys.readouterr().err
    al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, 2, progress=False)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("T_q", "T_k", "block", "shown"), [(1, 200_000, 1, True), (1, 200_000, 200_000, False),
                                                         (3, 3, 1, False)])
def test_many_small_blocks_show_the_bar_from_the_start(monkeypatch, T_q, T_k, block, shown):
    """200,000 blocks of one Key token each are hours of work for one Query row (each block's own steps, not its one
    score): the bar is up before the first block, and says how far it is and how long is left."""
    class Started(Exception):
        pass

    def first_block(progress_, work, **kwargs):  # the bar blockwise_attention asks for, then stop
        with progress.bar(progress_, work, **kwargs) as bar:
            raise Started(type(bar).__name__)

    monkeypatch.setattr(blockwise, "progress_bar", first_block)
    with pytest.raises(Started) as started:
        al.blockwise_attention(np.ones((T_q, 1)), np.ones((T_k, 1)), np.ones((T_k, 1)), 1, block)
    assert (str(started.value) != "_Silent") == shown, started.value


def test_the_progress_bar_changes_no_number(tr):
    np.testing.assert_array_equal(al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, 2, progress=True),
                                  al.blockwise_attention(tr.Q, tr.K, tr.V, tr.h, 2, progress=False))
