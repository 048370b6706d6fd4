"""Fuzzing the explorer and the HTML renderer (hypothesis): random control sequences never reach an invalid state,
and any argument either works or gets a ValueError that names it — never another exception."""

import numpy as np
from frontend import page_picture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import attention_lab as al
from attention_lab.live import views
from attention_lab.numeric import masks as masks
from attention_lab.numeric.limits import SEED_CONTROL

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# A control's next value: any whole number is reduced to the control's range, so every value it offers is reachable.
ACTION = st.tuples(st.sampled_from(["T", "h", "dh", "kv_heads", "queries", "align", "mask", "param", "head", "compare",
                                    "seed", "source", "query", "key", "row", "marks", "reset", "click", "edit"]),
                   st.integers(0, 10**6), st.sampled_from(["S", "P", "M", "Q", "O"]))


def act(ex, name, n, stage):
    """Do one thing a learner can do; return whether it should redraw (None: it may or may not)."""
    c = ex.controls
    if name in ("reset", "edit") and {"reset": "reset", "edit": "edit_row"}[name] not in c:
        return False  # only over an example / only with your own numbers
    if name == "reset":
        c["reset"].click()
        return True
    if name == "click":
        if stage not in ex.view.items:
            return False
        ex.pick(stage, n % ex.trace.T_q, n % ex.trace.T_k)
        return None
    if name == "edit":
        d = ex.trace.d
        c["edit_row"].value = ["[1, 2]", "x", ", ".join(str(n % 5 - 2) for _ in range(d)), "1e200 " * d][n % 4]
        return None
    if name == "param":
        params = [k for k in c if k.startswith(ex.mask + ".")]
        if not params:
            return False
        name = params[n % len(params)]
    if name not in c:
        return False
    control = c[name]
    if control.type == "select":
        values = [v for _, v in control.options]
        value = values[n % len(values)]
    elif control.type == "check":
        value = bool(n % 2)
    elif name == "seed":
        value = n % (SEED_CONTROL[1] + 1)
    else:
        value = control.min + n % (control.max - control.min + 1)
    changed = control.value != value
    control.value = value
    return changed


def consistent(ex):
    tr, c = ex.trace, ex.controls
    picture = page_picture(ex.page_config())  # what the page draws (live/picture.js, run in Node.js)
    assert (tr.T_k, tr.h, tr.dh) == (ex.T, ex.h, ex.dh) and picture["shape"] == tr.shapes()
    assert tr.mask_name == ex.mask
    for p in masks.MASKS[ex.mask].params:
        if isinstance(p, masks.Param):
            lo, hi = p.bounds(tr.T_k)
            assert lo <= tr.mask_params[p.name] <= hi
        else:
            assert sum(tr.mask_params[p.name]) == tr.T_k
    for name, n in (("query", tr.T_q), ("key", tr.T_k), ("row", tr.T_q)):
        if name in c:
            assert 0 <= c[name].value < n
    if "head" in c:
        assert c["head"].value == -1 or 0 <= c["head"].value < tr.h
    assert tr.h % tr.kv_heads == 0 and np.isfinite(tr.P).all() and np.isfinite(tr.O).all()
    for section in picture["sections"]:
        for it in section["items"]:
            if it["type"] == "heatmap" and it["hl"]:
                assert 0 <= it["hl"][0] < it["rows"] and (it["hl"][1] is None or 0 <= it["hl"][1] < it["cols"])


@FAST
@given(st.lists(ACTION, min_size=1, max_size=14), st.sampled_from(list(views.VIEWS)), st.sampled_from(["en", "ko"]))
def test_any_sequence_of_controls_keeps_the_explorer_consistent(actions, view, lang):
    ex = al.explorer(view=view, lang=lang)
    for name, n, stage in actions:
        step = ex.step
        moves = act(ex, name, n, stage)
        if moves is not None:
            assert ex.step == step + 1 or (not moves and ex.step in (step, step + 1)), (name, n)
        consistent(ex)


@FAST
@given(st.lists(ACTION, min_size=1, max_size=10), st.integers(1, 16), st.sampled_from([1, 2, 4]),
       st.integers(0, 2**31))
def test_your_own_numbers_stay_consistent_and_a_bad_row_changes_nothing(actions, T, h, seed):
    rng = np.random.default_rng(seed)
    Q, K, V = (rng.integers(-3, 4, (T, 4 * h)).astype(float) for _ in range(3))
    ex = al.explorer(Q=Q, K=K, V=V, h=h)
    for name, n, stage in actions:
        config, state = ex.page_config(), dict(ex.state)
        act(ex, name, n, stage)
        if name == "edit" and ex.message.get("kind") == "bad":
            assert ex.page_config() == config and ex.state == state  # the page is sent nothing new
        consistent(ex)


ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(-10**400, 10**400), st.floats(allow_nan=True),
                     st.text(max_size=8), st.binary(max_size=4), st.complex_numbers(),
                     st.lists(st.integers(-3, 3), max_size=4), st.just(np.ones((3, 3), bool)), st.just(np.eye(2)),
                     st.just([[1, 2], [3]]), st.sampled_from(["causal", "all", "article", "random", "ko", "S"]))
EXPLORER_ARGS = ("T", "d", "h", "dh", "mask", "seed", "lang", "view", "source", "kv_heads", "marks", "window", "Q",
                 "size", "queries", "align")


@FAST
@given(st.dictionaries(st.sampled_from(EXPLORER_ARGS), ANYTHING, min_size=1, max_size=3))
def test_explorer_arguments_work_or_get_a_value_error_naming_one(kwargs):
    try:
        ex = al.explorer(**kwargs)
    except ValueError as error:
        named = str(error).split(":")[0]
        assert any(name in named for name in (*EXPLORER_ARGS, "K", "V")), str(error)
    else:
        consistent(ex)
