"""The explorer, driven from Python: controls, views from the registries, sources, your own numbers, messages.

What the page draws is the front-end's own picture (live/picture.js) of the config the widget sends, run here in
Node.js (tests/frontend.py: `shows(ex)`); tests/test_live_parity.py holds the page in Chromium to the trace, and
tests/test_browser.py drives the page in JupyterLab.
"""

import base64
import gzip
import json
import logging
import re
import subprocess
import sys

import numpy as np
import pytest
from frontend import page_picture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from page_cells import cells

import attention_lab as al
from attention_lab.live import page, views
from attention_lab.live import widget as widgets
from attention_lab.live.state import initial_state, param_names, parse_row
from attention_lab.look import NEG_INF_LABEL, words
from attention_lab.look.formats import format_value
from attention_lab.look.tables import CSS
from attention_lab.numeric import masks
from attention_lab.numeric import pipeline as stages
from attention_lab.numeric.examples import ARTICLE_K, ARTICLE_Q, ARTICLE_V

ARTICLE_CORNER = {"Q": ARTICLE_Q.reshape(3, 2, 4), "K": ARTICLE_K.reshape(3, 2, 4), "V": ARTICLE_V.reshape(3, 2, 4)}
ARTICLE_SIZES = {"T": 3, "h": 2, "dh": 4}


def shows(ex):  # -> what the page draws for the explorer as it is now (tests/frontend.py)
    return page_picture(ex.page_config())


def items(ex):  # -> {key: item} of every panel and breakdown in the picture
    return {it["key"]: it for s in shows(ex)["sections"] for it in s["items"]}


def grid(ex, key):  # -> the labels of a heatmap, row by row
    it = items(ex)[key]
    return [it["labels"][i * it["cols"]:(i + 1) * it["cols"]] for i in range(it["rows"])]


def breakdown(ex, key):  # the text of a breakdown
    import re

    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", items(ex)[key]["html"]))


def values(control):
    return [v for _, v in control.options]


def check_invariants(ex):
    tr, c, resolved = ex.trace, ex.controls, ex.resolved
    assert (tr.T_k, tr.h, tr.dh, tr.T_q) == (resolved.T, resolved.h, resolved.dh, resolved.T_q) and tr.d == tr.h * tr.dh
    assert shows(ex)["shape"] == tr.shapes()
    for name, n in (("query", tr.T_q), ("key", tr.T_k), ("row", tr.T_q)):
        if name in c:
            assert values(c[name]) == list(range(n)) and 0 <= c[name].value < n
    if "head" in c:
        heads = values(c["head"])
        assert heads == list(range(tr.h)) + ([-1] if tr.h > 1 else []) and c["head"].value in heads
    if "kv_heads" in c:
        assert values(c["kv_heads"]) == [g for g in range(1, tr.h + 1) if tr.h % g == 0]
        assert tr.kv_heads == c["kv_heads"].value and c["kv_heads"].visible == (tr.h > 1)
    for p in masks.MASKS[ex.mask].params:  # the chosen mask's parameters within their bounds for this T (the others
        control = c[f"{ex.mask}.{p.name}"]  # are hidden, and fitted to T when their mask is chosen)
        assert control.visible
        if isinstance(p, masks.Param):
            assert (control.min, control.max) == p.bounds(tr.T_k) and tr.mask_params[p.name] == control.value
        else:
            assert tuple(control.value) == tr.mask_params[p.name] and sum(control.value) == tr.T_k
    for it in items(ex).values():  # every heatmap: one label, fill, ink and mask flag per cell
        if it["type"] == "heatmap":
            n = it["rows"] * it["cols"]
            assert len(it["labels"]) == len(it["fill"]) == len(it["ink"]) == len(it["masked"]) == n


def corner_kept(ex):  # the article's numbers stay in their corner: tokens 1–3, heads 1–2, components 1–4
    tr = ex.trace
    t, g, c = min(tr.T, 3), min(tr.h, 2), min(tr.dh, 4)
    for name in ("Q", "K", "V"):
        X = getattr(tr, name).reshape(tr.T, -1, tr.dh)
        gg = min(X.shape[1], 2) if name != "Q" else g
        np.testing.assert_array_equal(X[:t, :gg, :c], ARTICLE_CORNER[name][:t, :gg, :c])


@pytest.fixture
def ex():
    return al.explorer()


# ---- the article's example, and what sizes do to it ---------------------------------------------------------------

def test_starts_on_the_articles_example(ex):
    assert ex.step == 0 and ex.source == "article"
    assert shows(ex)["note"] == words.table("en")["note_article"]
    assert grid(ex, "S@0")[2] == ["2", "0", "6"]
    assert grid(ex, "S_scaled@0")[1] == ["3", "1.5", "−1"]
    assert grid(ex, "S_masked@0")[1] == ["3", "1.5", NEG_INF_LABEL]
    assert grid(ex, "E@0")[2] == ["0.135", "0.050", "1"]  # exp([1, 0, 3] − 3)
    assert grid(ex, "P@0")[2] == ["0.114", "0.042", "0.844"]
    assert grid(ex, "O@0")[2] == ["0.114", "0.042", "0.844", "1"]
    assert "T=3 · d=8 · h=2 · dh=4" in shows(ex)["shape"]
    check_invariants(ex)


def test_sizes_grow_the_article_example_and_never_switch_the_source(ex):
    for name, value in (("T", 9), ("h", 5), ("dh", 7), ("T", 1), ("dh", 2), ("h", 1)):
        ex.controls[name].value = value
        assert ex.source == "article"
        corner_kept(ex)
        check_invariants(ex)
    assert shows(ex)["note"] == "token 1, Head 1 and components 1–2 keep the article's numbers; the rest are " \
                                   "small integers from −2 to 2 that stay put when you move a size."
    for name, value in ARTICLE_SIZES.items():
        ex.controls[name].value = value
    assert shows(ex)["note"] == words.table("en")["note_article"] and grid(ex, "P@0")[2][0] == "0.114"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["T", "h", "dh"]), st.integers(1, 16)), min_size=1, max_size=8),
       st.sampled_from(["article", "random"]), st.integers(0, 99))
def test_any_size_moves_that_come_back_show_the_same_numbers(moves, source, seed):
    ex = al.explorer(source=source, seed=seed, view=["split"])
    start = {name: getattr(ex.trace, name) for name in "QKV"}
    sizes = dict(ARTICLE_SIZES)
    for name, value in moves:
        value = min(value, views.LIMITS[name][1])
        ex.controls[name].value = value
        sizes[name] = value
        assert ex.source == source and (ex.T, ex.h, ex.dh) == (sizes["T"], sizes["h"], sizes["dh"])
        if source == "article":
            corner_kept(ex)
    for name, value in ARTICLE_SIZES.items():
        ex.controls[name].value = value
    for name in "QKV":
        np.testing.assert_array_equal(getattr(ex.trace, name), start[name])


def test_source_and_seed(ex):
    ex.controls["T"].value = 5
    ex.controls["source"].value = "random"
    assert ex.T == 5 and grid(ex, "S@0")[2] != ["2", "0", "6"]
    assert shows(ex)["note"].startswith("A random example from seed 0")
    before = ex.trace.Q
    ex.controls["seed"].value = 7
    assert not np.array_equal(ex.trace.Q, before) and "seed 7" in shows(ex)["note"]
    np.testing.assert_array_equal(ex.trace.Q, al.random_example(5, 8, 2, seed=7).Q)
    ex.controls["source"].value = "article"
    ex.controls["seed"].value = "8"  # typed as text, as the seed box gives it; a seed picks the random example
    assert ex.source == "random" and ex.resolved.seed == 8 and ex.controls["seed"].value == 8
    for bad in (-5, "abc", "-5", 10**7, 2.5):
        with pytest.raises(ValueError, match="^seed:"):
            ex.controls["seed"].value = bad
    assert ex.resolved.seed == 8


def test_reset_brings_back_the_articles_example(ex):
    for name, value in (("T", 7), ("h", 4), ("kv_heads", 2), ("mask", "sliding"), ("seed", 5), ("head", 3),
                        ("queries", 2)):
        ex.controls[name].value = value
    step = ex.step
    ex.controls["reset"].click()
    assert ex.step == step + 1
    assert (ex.source, ex.T, ex.h, ex.dh, ex.mask, ex.trace.kv_heads, ex.trace.T_q) == ("article", 3, 2, 4, "causal",
                                                                                         2, 3)
    assert shows(ex)["note"] == words.table("en")["note_article"] and grid(ex, "P@0")[2][2] == "0.844"
    check_invariants(ex)


# ---- controls: only those the view needs, never an invalid state --------------------------------------------------

@pytest.mark.parametrize("view", list(views.VIEWS))
def test_each_view_offers_the_controls_its_stages_need(view):
    ex, spec = al.explorer(view=view, lang="ko"), views.VIEWS[view]
    names = set(ex.controls)
    offered = spec.offered_masks()
    assert {"source", "seed", "reset", "T", "h", "dh", "marks"} <= names
    assert ("mask" in names) == bool(offered)
    assert {n for n in names if "." in n} == set(param_names(offered))  # one control per parameter of each mask
    assert ("kv_heads" in names) == spec.kv_control
    assert ("queries" in names) == ("align" in names) == spec.queries
    assert ("head" in names) == spec.has_heads
    assert ({"query", "key"} <= names) == ("dot" in spec.items) and {"query", "key"} & names in (set(), {"query",
                                                                                                        "key"})
    assert ("row" in names) == bool({"softmax", "weighted_sum"} & set(spec.items))
    assert ("compare" in names) == bool(spec.compared)
    if offered:
        assert values(ex.controls["mask"]) == list(offered)
        article = ["causal", "none"]  # the masks the article teaches; every other mask comes in notebook 08
        assert values(ex.controls["mask"]) == (article if set(spec.masks or ()) == set(article)
                                               else list(masks.MASK_NAMES))
    for name, control in ex.controls.items():  # every control has words in both languages
        assert control.description and control.description == ex._control_spec(name)["label"]


def test_the_queries_control_keeps_the_last_query_rows_and_the_alignment_is_beside_the_mask():
    ex = al.explorer(view="queries", T=3)
    ex.controls["queries"].value = 1  # a decode step: token 3's Query row against every Key
    tr = ex.trace
    assert (tr.T_q, tr.T_k) == (1, 3) and items(ex)["S@0"]["rowLabels"] == ["3"]
    np.testing.assert_array_equal(tr.P, al.article_example(queries=1).P)
    np.testing.assert_array_equal(tr.P[0, 0], al.article_example().P[0, 2])  # row 3 of the full computation
    ex.controls["T"].value = 5
    assert ex.trace.T_q == 1  # the number asked for stays, whatever T
    ex.controls["queries"].value = 2
    ex.controls["align"].value = "top-left"
    assert ex.trace.mask.align == "top-left" and grid(ex, "M@0")[0] == ["0", NEG_INF_LABEL, *[NEG_INF_LABEL] * 3]
    ex.controls["align"].value = "bottom-right"
    assert grid(ex, "M@0")[0] == ["0"] * 4 + [NEG_INF_LABEL]
    ex.controls["queries"].value = 5  # every row again: stays so when T grows
    ex.controls["T"].value = 7
    assert ex.trace.T_q == 7
    with pytest.raises(ValueError, match="^queries:"):
        ex.controls["queries"].value = 8
    check_invariants(ex)


def test_mask_parameters_show_with_their_mask_and_follow_t(ex):
    c = ex.controls
    assert not c["sliding.window"].visible and not c["padding.length"].visible
    c["mask"].value = "sliding"
    assert c["sliding.window"].visible and not c["padding.length"].visible
    assert ex.trace.mask_params == {"window": 2}
    c["T"].value = 8
    c["sliding.window"].value = 6
    assert ex.trace.mask_params == {"window": 6} and (c["sliding.window"].min, c["sliding.window"].max) == (1, 8)
    c["T"].value = 4  # the window can never exceed T …
    assert c["sliding.window"].value == 4 and ex.trace.mask_params == {"window": 4}
    c["T"].value = 8  # … and comes back to what was asked when T does
    assert ex.trace.mask_params == {"window": 6}
    c["mask"].value = "packed"
    assert ex.trace.mask_params == {"lengths": (4, 4)} and (2, 5, 1) in values(c["packed.lengths"])
    c["packed.lengths"].value = (2, 5, 1)
    assert ex.trace.mask_params == {"lengths": (2, 5, 1)}
    c["mask"].value = "padding"
    assert ex.trace.mask_name == "padding" and NEG_INF_LABEL in grid(ex, "M@0")[3]
    with pytest.raises(ValueError, match="^padding.length:"):
        c["padding.length"].value = 9
    check_invariants(ex)


def test_kv_heads_offers_the_divisors_of_h_and_only_when_h_is_above_one(ex):
    c = ex.controls
    assert values(c["kv_heads"]) == [1, 2] and c["kv_heads"].value == 2 and c["kv_heads"].visible
    c["h"].value = 8
    assert values(c["kv_heads"]) == [1, 2, 4, 8] and c["kv_heads"].value == 8  # still one per Query head
    c["kv_heads"].value = 2
    assert ex.trace.kv_heads == 2 and ex.trace.Kh.shape == (2, 3, 4)
    assert [s["title"] for s in shows(ex)["sections"]][1] == "Head 1 · K/V head 1"
    c["head"].value = 5
    assert items(ex)["Vh@5"]["title"].endswith("K/V head 2")
    c["h"].value = 6
    assert values(c["kv_heads"]) == [1, 2, 3, 6] and c["kv_heads"].value == 2
    c["h"].value = 1
    assert values(c["kv_heads"]) == [1] and not c["kv_heads"].visible
    check_invariants(ex)


def test_one_action_one_state(ex):
    actions = [("T", 9), ("h", 8), ("head", 7), ("h", 2), ("dh", 1), ("T", 2), ("mask", "none"), ("seed", 3),
               ("source", "article"), ("query", 0), ("key", 1), ("row", 0), ("T", 1), ("kv_heads", 1),
               ("mask", "prefix"), ("prefix.prefix", 0), ("marks", False), ("head", -1), ("compare", "S")]
    for name, value in actions:
        step = ex.step
        ex.controls[name].value = value
        assert ex.step == step + 1, name
        check_invariants(ex)
    with pytest.raises(ValueError, match="^head:"):
        ex.controls["head"].value = 9
    assert ex.step == step + 1


def test_pickers_and_the_head_keep_what_was_asked_when_sizes_shrink_and_grow_back(ex):
    c = ex.controls
    c["h"].value, c["head"].value, c["T"].value, c["row"].value, c["query"].value = 8, 7, 12, 11, 9
    c["h"].value = 3
    assert c["head"].value == 2
    c["T"].value = 4
    assert c["row"].value == 3 and c["query"].value == 3
    check_invariants(ex)
    c["T"].value, c["h"].value = 1, 8
    c["T"].value = 12
    assert (c["row"].value, c["query"].value, c["head"].value) == (11, 9, 7)
    ex.controls["reset"].click()
    c["T"].value = 1
    c["T"].value = 3  # back to the article's size: token 3 and key 1 again
    assert (c["query"].value, c["key"].value, c["row"].value) == (2, 0, 2)


def test_all_heads_puts_one_stage_of_each_head_side_by_side(ex):
    ex.controls["h"].value = 4
    ex.controls["head"].value = -1
    section = next(s for s in shows(ex)["sections"] if s["key"] == "compare")
    assert [it["key"] for it in section["items"]] == ["P@0", "P@1", "P@2", "P@3"]
    assert not any(it["type"] == "breakdown" for it in items(ex).values())  # breakdowns: one head at a time
    assert ex.controls["compare"].visible and "M" not in values(ex.controls["compare"])
    assert values(ex.controls["compare"]) == [n for n in views.HEAD_ITEMS if stages.STAGES[n].heads]
    ex.controls["compare"].value = "E"
    assert [k for k in items(ex) if k.startswith("E@")] == ["E@0", "E@1", "E@2", "E@3"]
    ex.controls["head"].value = 1
    assert "softmax@1" in items(ex) and not ex.controls["compare"].visible


def test_a_click_on_a_cell_sets_the_cell_and_the_row_the_breakdowns_follow(ex):
    ex.pick("S", 1, 2)
    assert (ex.controls["query"].value, ex.controls["key"].value, ex.controls["row"].value) == (1, 2, 1)
    assert items(ex)["S@0"]["hl"] == [1, 2] and items(ex)["P@0"]["hl"] == [1, None]
    assert "Score of Query token 2 and Key token 3" in breakdown(ex, "dot@0") and "Softmax of row 2" in breakdown(ex,
                                                                                                           "softmax@0")
    ex.pick("P", 0, 2)
    assert ex.controls["row"].value == 0 and items(ex)["P@0"]["hl"] == [0, None]


def test_a_state_from_the_page_moves_python_and_a_malformed_one_is_refused_and_logged(ex, caplog):
    ex.set_state({"state": {**ex.state, "T": 5, "mask": "sliding", "sliding.window": 2}})  # as a comm message does
    assert ex.trace.T == 5 and ex.trace.mask_params == {"window": 2} and ex.controls["T"].value == 5
    good = dict(ex.state)
    with caplog.at_level(logging.WARNING, logger="attention_lab.live"):
        for bad in ({**good, "T": 99}, {**good, "mask": "stripes"}, {**good, "nonsense": 1}, {**good, "T": "5"},
                    {**good, "packed.lengths": [0, 5]}, {**good, "head": None}):
            ex.set_state({"state": bad})
            assert ex.state == good and ex.trace.T == 5
    assert len(caplog.records) == 6


def test_change_marks_can_be_switched_off(ex):
    assert ex.controls["marks"].value is True
    ex.controls["marks"].value = False
    assert ex.state["marks"] is False and al.explorer(marks=False).controls["marks"].value is False


# ---- views: lists of names, drawn from the stage registry ---------------------------------------------------------

def test_views_per_notebook_show_only_what_has_been_taught():
    def keys(view):
        return [k.split("@")[0] for k in items(al.explorer(view=view))]

    # What notebooks 02-06 teach, in the article's order (its figures 2-5), written out here as the reference.
    assert keys("scores") == ["S", "dot"]
    assert keys("scaling") == ["S", "S_scaled", "P", "P_unscaled", "scaling_note"]
    assert keys("mask") == ["S_scaled", "M", "S_masked", "dot"]
    assert keys("softmax") == ["S_masked", "E", "P", "softmax"]  # E: the exponentials, before they are divided
    assert keys("weighted_sum") == ["P", "Vh", "O", "weighted_sum"]
    every = ["Q", "K", "V", *views.HEAD_ITEMS, *views.BREAKDOWNS, "H"]
    assert keys("all") == every and keys("article") == every
    assert keys("masks") == ["M", "S_masked", "P", "softmax"]


def test_every_main_path_stage_of_a_head_is_in_the_views_that_show_every_stage():
    per_head = [s.name for s in stages.PIPELINE if s.path and s.per_head and s.name not in stages.SPLITS]
    for view in ("all", "article"):
        assert [x for x in views.VIEWS[view].items if x in per_head] == per_head  # in the pipeline's order
    names = [s.name for s in stages.PIPELINE]
    between = [n for n in names[names.index("S_masked"):names.index("P") + 1] if stages.STAGES[n].path]
    assert [x for x in views.VIEWS["softmax"].items if x in stages.STAGES] == between


def test_scores_view_breaks_the_dot_product_down_without_the_mask():
    dot = breakdown(al.explorer(view="scores"), "dot@0")
    assert "−1·1 + 1·(−1) + 1·2 + 2·1 = 2" in dot and "÷ √" not in dot and "+ M" not in dot
    full = breakdown(al.explorer(), "dot@0")
    assert "2 ÷ √4 = 1" in full and "+ M: 1 + 0 = 1" in full


def test_scaling_view_has_no_mask_and_shows_p_with_and_without_the_scale():
    ex = al.explorer(view="scaling")
    assert "mask" not in ex.controls and ex.trace.mask_name == "none"
    titles = [it["title"] for it in items(ex).values() if it["type"] == "heatmap"]
    assert titles[2:] == ["P = softmax(S / √dh) · Head 1", "P without ÷ √dh = softmax(S) · Head 1"]  # M not yet taught
    assert grid(ex, "P_unscaled@0")[2] == ["0.018", "0.002", "0.980"]  # softmax([2, 0, 6])
    assert items(ex)["scaling_note"]["text"].count("√dh = √4 = 2") == 1
    assert shows(ex)["note"] == words.table("en")["note_article_nomask"]
    ex.controls["dh"].value = 8
    assert "√dh = √8 ≈ 2.828" in items(ex)["scaling_note"]["text"]
    P, P_unscaled = ex.trace.P, stages.STAGES["P_unscaled"].value(ex.trace)
    assert P_unscaled.max(axis=-1).mean() >= P.max(axis=-1).mean()


def test_the_mask_off_note_says_the_mask_is_off_in_both_languages():
    for lang in ("ko", "en"):
        said = shows(al.explorer(view="article", mask=None, lang=lang))["note"]
        assert said == words.table(lang)["note_article_nomask"]
        assert words.table(lang)["mask.none"] not in said  # "마스크만 마스크 없음입니다" read as a tautology


def test_a_view_is_any_list_of_names():
    ex = al.explorer(view=["P", "O", "softmax"])
    assert [k.split("@")[0] for k in items(ex)] == ["P", "O", "softmax"] and "mask" in ex.controls
    assert "mask" not in al.explorer(view=["S", "S_scaled"]).controls  # nothing from M on: no mask to choose
    assert "kv_heads" in al.explorer(view=["Kh", "S"]).controls


def test_panels_take_titles_kinds_axes_and_highlights_from_the_stage_registry(ex):
    tr, L = ex.trace, words.table("en")
    score_range = al.look.value_range("scores", tr.S, tr.S_scaled, tr.M, tr.S_masked)
    for key, it in items(ex).items():
        if it["type"] != "heatmap":
            continue
        name, head = key.split("@")
        stage = stages.STAGES[name]
        assert it["title"].startswith(L[f"stage.{name}"]) and it["name"] == name and it["head"] == int(head)
        vmin, vmax = score_range if stage.kind == "scores" else (None, None)
        want = cells(stage.matrix(tr, int(head)), stage.kind, vmin, vmax)
        assert it["labels"] == want["labels"].split(" ") and "".join(it["fill"]) == want["fill"]
        assert it["ink"] == want["ink"] and it["masked"] == want["masked"]
        words_of = {"query": "Query token", "key": "Key token", "token": "token", "component": ""}
        assert (it["rowCap"], it["colCap"]) == tuple(words_of[a] for a in stage.axes)
        assert it["hl"] == {"cell": [2, 0], "row": [2, None], "": None}[stage.highlight]


def test_a_new_mask_needs_no_edit_in_the_explorer(new_entries):
    ex = al.explorer(view="masks")
    assert ("stripe", "stripe") in ex.controls["mask"].options and not ex.controls["stripe.seed"].visible
    ex.controls["mask"].value = "stripe"
    assert ex.controls["stripe.seed"].visible and ex.trace.mask_name == "stripe"
    ex.controls["T"].value = 5
    ex.controls["stripe.seed"].value = 3
    assert (ex.controls["stripe.seed"].min, ex.controls["stripe.seed"].max) == (1, 5)
    assert grid(ex, "M@0")[4] == ["0", NEG_INF_LABEL, NEG_INF_LABEL, "0", "0"]
    ex.controls["T"].value = 2  # bounded by Param.bounds(T): no invalid state
    assert ex.controls["stripe.seed"].value == 2
    assert "stripe" in ex.config["data"]["masks"]  # its tables travel to the page
    check_invariants(ex)


# ---- words --------------------------------------------------------------------------------------------------------

def test_korean_uses_ordinals_and_both_languages_have_every_word():
    ko = al.explorer(lang="ko")
    assert ko.controls["T"].description == "토큰 수 T" and ko.controls["mask"].description == "마스크"
    assert breakdown(ko, "dot@0").startswith(" 세 번째 Query 토큰과 첫 번째 Key 토큰의 점수")
    assert "세 번째 Query 토큰 = [−1, 1, 1, 2]" in breakdown(ko, "dot@0")
    assert "세 번째 행의 Softmax" in breakdown(ko, "softmax@0")
    assert "세 번째 토큰의 출력" in breakdown(ko, "weighted_sum@0")
    ko.controls["T"].value = 16
    ko.controls["row"].value = 15
    assert "열여섯 번째 행의 Softmax" in breakdown(ko, "softmax@0")
    assert "Query token" not in str(shows(ko))
    ko.controls["h"].value = 3
    assert [label for label, _ in ko.controls["head"].options] == ["Head 1", "Head 2", "Head 3", "모든 head"]


def test_the_two_query_token_controls_have_distinct_words():
    for lang in ("ko", "en"):
        ex = al.explorer(lang=lang)
        labels = [ex.controls[n].description for n in ("query", "key", "row")]
        assert len(set(labels)) == 3, labels


def test_approximately_only_for_values_that_are_not_exact(ex):
    soft = breakdown(ex, "softmax@0")
    assert "e 0 = 1" in soft and "e 1 ≈ 2.718" in soft and "≈ 0.114" in soft
    assert "≈ [0.114, 0.042, 0.844, 1]" in breakdown(ex, "weighted_sum@0")
    ex.controls["row"].value = 1
    assert "e −∞ = 0" in breakdown(ex, "softmax@0") and "0 / 24.57 = 0" in breakdown(ex, "softmax@0")
    ex.controls["row"].value = 0
    assert "= [1, 0, 0, 1]" in breakdown(ex, "weighted_sum@0") and "≈" not in breakdown(ex, "weighted_sum@0")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_plain_text_form_is_one_short_line_in_the_readers_language(lang):
    ex = al.explorer(lang=lang)
    plain = ex._repr_mimebundle_()[0]["text/plain"]
    assert plain == words.table(lang)["plain"] and "\n" not in plain and len(plain) < 60
    assert ("탐색기" in plain) == (lang == "ko")


# ---- the picture without widgets, and what the page keeps ---------------------------------------------------------

def test_the_picture_is_a_function_of_the_config_the_page_is_sent():
    ex = al.explorer(view="softmax")
    config = {**ex.page_config(), "state": {**initial_state(views.VIEWS["softmax"]), "T": 5, "head": 1}}
    drawn = page_picture(config)  # the widget is not asked: the config alone decides
    assert drawn == page_picture(json.loads(json.dumps(config)))
    P = al.article_example(T=5, d=8, h=2).P[1]  # the reference: the trace of the same sizes, made directly
    p_item = next(it for sec in drawn["sections"] for it in sec["items"] if it["key"] == "P@1")
    assert p_item["labels"] == [format_value(x, "weights") for x in P.ravel()]
    assert ex.trace.T_k == 3  # the widget's own state did not move


def test_the_stored_widget_state_holds_the_config_a_page_is_rebuilt_from(ex):
    ex.controls["T"].value = 6
    stored = ex.get_state()
    assert {"config", "state", "own", "_esm"} <= set(stored) and "_css" not in stored  # the styles ride in _esm
    config = page.config_from_model(stored)
    assert config == ex.page_config() and config["state"]["T"] == 6
    article = config["data"]["article"]  # the article's corner (its Q's first row starts 1, 0, 1, 0) and stream
    assert article["corner"]["Q"][:4] == [1, 0, 1, 0] and article["cornerSizes"] == [3, 2, 4]
    assert set(config["data"]["masks"]) == set(views.VIEWS["all"].offered_masks())
    assert "packed" not in al.explorer(view="softmax").config["data"]["masks"]  # only the masks a view offers


def test_a_stored_view_gets_what_it_draws_and_offers_from_todays_rules(monkeypatch):
    # a notebook stored before the view's flags were sent keeps only items, mask, masks, kv and queries; one stored
    # since keeps the flags of the day it ran: the site's page reads both with the flags Python computes now
    ex = al.explorer(view="all", h=2)
    stored = ex.get_state()
    old = {k: stored["config"]["view"][k] for k in ("items", "mask", "masks", "kv", "queries")}
    config = page.config_from_model({**stored, "config": {**stored["config"], "view": old}})
    assert config == ex.page_config()
    assert page_picture(config) == page_picture(ex.page_config())
    monkeypatch.setattr(views.View, "compared", property(lambda v: ()))  # the rule changed since it was stored
    assert page.config_from_model(stored)["view"]["compared"] == []
    assert "P" in stored["config"]["view"]["compared"]


@pytest.mark.parametrize("broken", [
    None, [], {"state": {}}, {"config": []},  # not a model's state, or no config
    {"config": {"data": {}}, "own": [1]},  # a learner's own rows not a table of names
    {"config": {"data": []}, "own": {"Q": [[1]]}},  # no data to put them in
    {"config": {"data": {"own": []}}, "own": {"Q": [[1]]}},
    {"config": {"view": {"items": ["nope"]}}}, {"config": {"view": []}},  # not a view's data
    {"config": {"view": {"items": ["S"], "mask": "none", "masks": None, "kv": False, "queries": False}}},
])
def test_a_broken_stored_state_is_refused_in_one_line(broken):
    """What a stored notebook keeps may have been edited by hand: never a TypeError from deep inside (the site's
    fuzz over broken notebooks found `own` as a list)."""
    with pytest.raises(ValueError, match="must be an explorer model's state"):
        page.config_from_model(broken)


def test_importing_the_command_module_leaves_al_explorer_a_function_that_works():
    probe = ("import attention_lab as al, attention_lab.explorer\n"
             "ex = al.explorer(view='scores', T=4)\nprint(type(ex).__name__, ex.trace.T)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["Explorer", "4"]


# ---- your own numbers -----------------------------------------------------------------------------------------------

@pytest.fixture
def own():
    tr = al.article_example()
    return al.explorer(Q=tr.Q, K=tr.K, V=tr.V, h=2, lang="en")


def test_your_own_numbers_with_the_same_mask_head_and_picker_controls(own):
    assert own.source == "yours" and grid(own, "P@0")[2] == ["0.114", "0.042", "0.844"]
    assert {"mask", "head", "query", "key", "row", "edit_matrix", "edit_token", "edit_row", "apply"} <= set(
        own.controls)
    assert not {"T", "h", "dh", "seed", "source", "reset"} & set(own.controls)
    own.controls["mask"].value = "none"
    assert own.trace.mask_name == "none"
    check_invariants(own)


def test_an_edited_row_flows_through_every_stage(own):
    c = own.controls
    assert c["edit_token"].value == 2 and c["edit_row"].value == "[-1, 1, 1, 2, 0, 2, 0, 0]"
    c["edit_matrix"].value = "K"
    c["edit_token"].value = 0
    assert c["edit_row"].value == "[1, -1, 2, 1, 2, 0, 0, 1]"
    step = own.step
    c["edit_row"].value = "[1, -1, 2, 3, 2, 0, 0, 1]"  # Key token 1 = [1, −1, 2, 3]: its score with Query 3 is 6
    assert own.step == step + 1 and grid(own, "S@0")[2] == ["6", "0", "6"]
    assert own.message == {"kind": "ok", "text": "K token 1 = [1, −1, 2, 3, 2, 0, 0, 1]"}
    assert own.own["K"][0] == [1, -1, 2, 3, 2, 0, 0, 1] and own.page_config()["data"]["own"]["K"][0][3] == 3


@pytest.mark.parametrize(("matrix", "typed", "message"), [
    ("Q", "[1, 2, 3]", "needs 8 numbers, got 3"), ("Q", "[1, 2, x, 4, 5, 6, 7, 8]", "'x' is not a number"),
    ("Q", "1 2 3 4 5 6 7 nan", "'nan' is not a finite number"), ("Q", "", "needs 8 numbers, got 0"),
    ("Q", "1e308 " * 8, "overflow"), ("Q", "1_0 1 1 1 1 1 1 1", "is not a number"),
])
def test_a_bad_row_gets_one_line_and_the_picture_and_state_stay(own, matrix, typed, message):
    own.controls["edit_matrix"].value = matrix
    before, step, state = shows(own), own.step, dict(own.state)
    own.controls["edit_row"].value = typed
    assert own.message["kind"] == "bad" and message in own.message["text"] and "\n" not in own.message["text"]
    assert shows(own) == before and own.step == step and own.state == state
    own.controls["mask"].value = "none"  # every later change still works
    assert own.trace.mask_name == "none"


def test_numbers_up_to_the_limit_are_taken_and_one_beyond_it_is_not(own):
    own.controls["edit_row"].value = "1e150 " * 8  # Query token 3 at the limit
    assert own.message["kind"] == "ok" and own.trace.Q[2, 0] == 1e150
    state, Q = dict(own.state), own.trace.Q
    own.controls["edit_matrix"].value = "K"
    own.controls["edit_row"].value = "-1e150 " * 8  # K too: scores of 4e300, still finite
    assert own.message["kind"] == "ok" and np.isfinite(own.trace.S).all()
    own.controls["edit_row"].value = "1 1 1 1 1 1 1 -2e150"
    assert own.message == {"kind": "bad", "text": "K token 3: −2×10¹⁵⁰ is too large: the explorer takes numbers up "
                           "to ±1×10¹⁵⁰ (beyond, the scores or the weighted sum could overflow to ±∞). The picture "
                           "is unchanged."}
    assert own.state == {**state, "edit_matrix": "K"} and np.array_equal(own.trace.Q, Q)
    own.controls["head"].value = 1  # and every later move works
    assert own.resolved.head == 1


def largest_sum_of_products(P, V):  # the largest |partial sum| of Σ_j p_j·v_j, left to right and right to left
    worst = 0.0
    for p, v in ((P, V), (P[::-1], V[::-1])):
        total = 0.0
        for a, b in zip(p, v, strict=True):
            total += float(a) * float(b)
            worst = max(worst, abs(total))
    return worst


def test_no_summation_order_overflows_within_the_limit():
    """The limit is the one rule both sides apply to your own numbers: within it, S and every partial sum of O are
    finite in any order (checked here with plain loops), so the page and Python never disagree about an overflow."""
    big = al.live.views.OWN_LIMITS["value"]
    rng = np.random.default_rng(3)
    for T, dh in ((16, 64), (11, 4), (2, 1)):
        Q = K = np.full((T, dh), big) * rng.choice([-1, 1], (T, dh))
        V = np.full((T, dh), big)
        ex = al.explorer(Q=Q, K=K, V=V, h=1, mask=None)
        assert np.isfinite(ex.trace.H).all() and np.isfinite(ex.trace.S).all()
        P = np.full(T, np.nextafter(1 / T, 1))  # weights whose sum rounds above 1
        assert np.isfinite(largest_sum_of_products(P, V[:, 0]))
        assert np.isfinite(sum(float(q) * float(k) for q, k in zip(Q[0], K[0], strict=True)))
    with pytest.raises(ValueError, match=r"^V: the explorer takes numbers up to"):
        al.explorer(Q=np.zeros((11, 4)), K=np.zeros((11, 4)), V=np.full((11, 4), np.finfo(float).max), h=2)
    # the case that blanked the page: a plain loop overflows where NumPy's matmul does not
    P, V = np.full(11, 1 / 11), np.full(11, np.finfo(float).max)
    assert not np.isfinite(largest_sum_of_products(P, V))


def test_an_edit_from_the_page_moves_python_and_a_malformed_one_is_ignored(own, caplog):
    edited = {n: getattr(own.trace, n).tolist() for n in "QKV"}
    edited["K"][0][3] = 3
    own.set_state({"own": edited})
    assert grid(own, "S@0")[2] == ["6", "0", "6"]
    with caplog.at_level(logging.WARNING, logger="attention_lab.live"):
        own.set_state({"own": {**edited, "Q": [[1e200] * 8] * 3, "K": [[1e200] * 8] * 3}})  # would overflow
        own.set_state({"own": {**edited, "Q": [[1, 2]]}})  # another shape
    assert grid(own, "S@0")[2] == ["6", "0", "6"] and len(caplog.records) == 2


def test_rows_may_be_typed_in_several_ways():
    for typed in ("[-1, 1, 1, 2]", "-1 1 1 2", "−1, 1, 1, 2", "(-1; 1; 1; 2)", " [ -1.0,1,1e0 ,2 ] ", "-1 +1 1. 2"):
        row, problem = parse_row(typed, 4)
        assert problem is None and row.tolist() == [-1, 1, 1, 2], typed


@pytest.mark.parametrize("kwargs", [
    {"Q": [[1, 2]], "K": [[1, 2], [3, 4]], "V": [[1, 2]]},
    {"Q": [[1, np.nan]], "K": [[1, 2]], "V": [[1, 2]]},
    {"Q": [[1j, 2]], "K": [[1, 2]], "V": [[1, 2]]},
    {"Q": [[1, 2], [3]], "K": [[1, 2]], "V": [[1, 2]]},
    {"Q": [[1, 2, 3, 4]], "K": [[1, 2, 3]], "V": [[1, 2, 3]], "kv_heads": 1},
    {"Q": [[1, 2, 3, 4]], "K": [[1, 2, 3, 4]], "V": [[1, 2, 3, 4]], "mask": "windw"},
])
def test_your_own_numbers_get_the_same_errors_as_attention_trace(kwargs):
    h = 2
    with pytest.raises(ValueError) as expected:
        rest = {k: v for k, v in kwargs.items() if k not in "QKV"}
        al.attention_trace(kwargs["Q"], kwargs["K"], kwargs["V"], h, **rest)
    with pytest.raises(ValueError) as got:
        al.explorer(h=h, **kwargs)
    assert str(got.value) == str(expected.value)


def test_your_own_mask_array_queries_of_your_own_and_the_size_limits():
    rng = np.random.default_rng(0)
    Q = K = V = rng.integers(-2, 3, (4, 6)).astype(float)
    allowed = np.tril(np.ones((4, 4), bool)) & ~np.eye(4, dtype=bool) | np.eye(4, dtype=bool)[::-1]
    ex = al.explorer(Q=Q, K=K, V=V, h=3, mask=allowed)
    assert ex.trace.mask_name == "custom" and ("custom", "custom") in ex.controls["mask"].options
    assert grid(ex, "M@0")[0] == [NEG_INF_LABEL] * 3 + ["0"]
    ex.controls["mask"].value = "causal"
    ex.controls["mask"].value = "custom"
    assert grid(ex, "M@0")[0] == [NEG_INF_LABEL] * 3 + ["0"]
    two = al.explorer(Q=Q[2:], K=K, V=V, h=3)  # two Query rows: tokens 3 and 4
    assert (two.trace.T_q, two.trace.T_k) == (2, 4) and items(two)["P@0"]["rowLabels"] == ["3", "4"]
    with pytest.raises(ValueError, match="up to T = 16 tokens and d = 64"):
        al.explorer(Q=np.ones((17, 4)), K=np.ones((17, 4)), V=np.ones((17, 4)), h=1)
    with pytest.raises(ValueError, match="up to T = 16 tokens and d = 64"):
        al.explorer(Q=np.ones((2, 65)), K=np.ones((2, 65)), V=np.ones((2, 65)), h=1)
    al.explorer(Q=np.ones((16, 64)), K=np.ones((16, 64)), V=np.ones((16, 64)), h=8)


# ---- bad arguments --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "match"), [
    ({"view": "everything"}, "^view:"), ({"view": ["S", "Z"]}, "^view:"), ({"view": []}, "^view:"),
    ({"view": 3}, "^view:"), ({"lang": "fr"}, "^lang:"), ({"T": 0}, "^T:"), ({"T": 17}, "^T:"), ({"T": 2.5}, "^T:"),
    ({"T": True}, "^T:"), ({"h": 3, "d": 8}, "^d:"), ({"d": 80, "h": 2}, "^d:"), ({"h": 9, "d": 9}, "^h:"),
    ({"dh": 9}, "^dh:"), ({"d": 8, "dh": 3}, "^d, dh:"), ({"size": 3}, "^size: .*no argument"),
    ({"mask": "windw"}, "^mask:"), ({"mask": np.ones((3, 3), bool)}, "^mask:"), ({"mask": 5}, "^mask:"),
    ({"seed": -1}, "^seed:"), ({"seed": 10**7}, "^seed:"), ({"source": "yours"}, "^source:"),
    ({"kv_heads": 3}, "^kv_heads:"), ({"kv_heads": 0}, "^kv_heads:"), ({"window": 2}, "^window:"),
    ({"mask": "sliding", "window": 0}, "^window:"), ({"marks": "yes"}, "^marks:"), ({"queries": 4}, "^queries:"),
    ({"align": "middle"}, "^align:"),
    ({"Q": np.ones((3, 8))}, "^K, V:"), ({"Q": np.ones((3, 8)), "K": np.ones((3, 8)), "V": np.ones((3, 8))}, "^h:"),
    ({"Q": np.ones((3, 8)), "K": np.ones((3, 8)), "V": np.ones((3, 8)), "h": 2, "T": 3}, "^T:"),
])
def test_bad_arguments_raise_clear_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        al.explorer(**kwargs)


def test_start_on_a_random_example():
    ex = al.explorer(T=5, d=12, h=3, mask=None, seed=4, view="mask")
    assert ex.source == "random" and ex.dh == 4 and ex.mask == "none" and ex.trace.mask_name == "none"
    assert "T=5 · d=12 · h=3 · dh=4" in shows(ex)["shape"]
    assert (al.explorer(h=4).d, al.explorer(dh=8).d, al.explorer(h=3, dh=2).d) == (16, 16, 6)
    ex = al.explorer(mask=al.Mask("sliding", window=1), kv_heads=1)
    assert ex.trace.mask_params == {"window": 1} and ex.trace.kv_heads == 1
    ex = al.explorer(view="queries", T=6, queries=2, mask=al.Mask("causal", align="top-left"))
    assert (ex.trace.T_q, ex.trace.mask.align) == (2, "top-left")
    check_invariants(ex)


def test_the_front_end_and_its_styles_come_with_the_widget(ex):
    """The module each widget stores is loader.js with the bundle and its styles gzipped inside: unpacked here by
    gzip and base64 (the browser's DecompressionStream does the same in tests/test_stored_state.py)."""
    assert ex._esm == page.esm() and ex._esm.rstrip().endswith("export default { render };")
    packed = re.search(r'const PACKED = "([A-Za-z0-9+/=]+)", KEY = "([0-9a-f]{16})";', ex._esm)
    module, css = json.loads(gzip.decompress(base64.b64decode(packed[1])))
    assert module.startswith("const LOOK = ") and module.endswith("export default { render };\n")
    assert css.startswith(CSS) and len(ex._esm) < 0.6 * (len(module) + len(css)) and widgets.Explorer.__doc__


# ---- what you pass is what the explorer shows, or a ValueError says why it cannot (issue 27) -------------------------

def own_numbers(T_q, T_k, d=4, seed=0):
    rng = np.random.default_rng(seed)
    return {"Q": rng.integers(-2, 3, (T_q, d)).astype(float), "K": rng.integers(-2, 3, (T_k, d)).astype(float),
            "V": rng.integers(-2, 3, (T_k, d)).astype(float)}


@pytest.mark.parametrize("how", ["mask", "align"])
def test_your_own_numbers_keep_the_alignment_you_pass(how):
    qkv = own_numbers(2, 4)
    corner = {"mask": al.Mask("causal", align="top-left")} if how == "mask" else {"align": "top-left"}
    ex = al.explorer(**qkv, h=2, view="queries", **corner)
    top_left = np.tril(np.ones((2, 4), bool))  # row i sees Key tokens 1 … i + 1: written out, not computed
    assert ex.trace.mask.align == "top-left" and ex.controls["align"].value == "top-left"
    np.testing.assert_array_equal(np.isfinite(ex.trace.M), top_left)
    assert "top-left" in shows(ex)["note"] and grid(ex, "M@0")[0] == ["0", NEG_INF_LABEL, NEG_INF_LABEL,
                                                                         NEG_INF_LABEL]
    assert al.explorer(**qkv, h=2, view="queries").trace.mask.align == "bottom-right"


@pytest.mark.parametrize(("view", "kwargs"), [
    ("article", {"T": 6, "queries": 2}),
    ("article", {"T": 6, "queries": 2, "mask": al.Mask("causal", align="top-left")}),
    ("softmax", {"align": "top-left"}), ("mask", {"mask": al.Mask("causal", align="top-left")}),
    (["S", "P"], {"queries": 1}), ("article", {**own_numbers(2, 4), "h": 2, "align": "top-left"}),
])
def test_a_view_that_cannot_show_an_argument_says_so(view, kwargs):
    name = "queries" if "queries" in kwargs else "align"
    with pytest.raises(ValueError, match=f"^{name}: .*(view 'article'|view 'softmax'|view 'mask'|list of names).*"
                                         "'masks', 'all', 'queries'"):
        al.explorer(view=view, **kwargs)
    ok = {k: v for k, v in kwargs.items() if k not in ("queries", "align", "mask")}
    assert al.explorer(view="all", **ok).trace.mask.align == "bottom-right"  # the same numbers, a view that shows all


@pytest.mark.parametrize(("view", "kwargs"), [
    ("scores", {"mask": al.Mask("sliding", window=2)}),  # S comes before any mask: the mask changed nothing shown
    ("heads", {"mask": al.Mask("sliding", window=2)}),  # O and H under a mask the page names nowhere
    ("heads", {"mask": None}), ("scaling", {"mask": "causal"}), (["S"], {"mask": None}),
    ("heads", {**own_numbers(3, 3), "h": 2, "mask": np.tril(np.ones((3, 3), bool))}),
])
def test_a_view_without_a_mask_control_refuses_a_mask_other_than_its_own(view, kwargs):
    """A view with no mask control shows its own mask's numbers and never names the mask: another one passed would
    be dropped (scores) or change O and H without a word (heads, scaling). It is refused in one line instead."""
    with pytest.raises(ValueError, match=r"^mask: (the view '\w+'|a view given as a list of names) has no mask "
                                         r"control[^\n]*'all'"):
        al.explorer(view=view, T=5, **kwargs) if "Q" not in kwargs else al.explorer(view=view, **kwargs)
    own = views.VIEWS[view].mask if isinstance(view, str) else "causal"
    assert al.explorer(view=view, mask=own).mask == (own or "none")  # its own mask, named, is taken


def test_a_mask_array_sets_its_own_rows_so_the_alignment_control_hides_and_the_note_says_bottom_right():
    allowed = np.array([[True, True, False, False], [False, True, True, True]])
    ex = al.explorer(**own_numbers(2, 4), h=2, mask=allowed, view="all")
    assert ex.trace.mask_name == "custom" and not ex.controls["align"].visible
    for align in ("top-left", "bottom-right"):  # whatever the page's state says: the array decides
        ex.set_state({"state": {**ex.state, "align": align}})
        assert "bottom-right" in shows(ex)["note"] and "top-left" not in shows(ex)["note"]
        np.testing.assert_array_equal(np.isfinite(ex.trace.M), allowed)
    ex.controls["mask"].value = "causal"  # a mask by name: the alignment is a choice again
    assert ex.controls["align"].visible
    with pytest.raises(ValueError, match="^align: a mask array"):
        al.explorer(**own_numbers(2, 4), h=2, mask=allowed, view="all", align="top-left")


def test_the_alignment_control_shows_only_where_moving_it_changes_what_a_row_sees():
    """With no mask every Query row sees every Key token wherever it sits: the alignment control hides (as for a
    mask array), keeps what was asked, and shows it again with a mask whose rows it places."""
    ex = al.explorer(view="all", queries=2, mask="causal")
    ex.controls["align"].value = "top-left"
    ex.controls["mask"].value = "none"
    assert not ex.controls["align"].visible
    np.testing.assert_array_equal(al.Mask("none", align="top-left").allowed(2, 5), al.Mask("none").allowed(2, 5))
    ex.controls["mask"].value = "sliding"
    assert ex.controls["align"].visible and ex.controls["align"].value == "top-left"


@pytest.mark.parametrize(("name", "value", "why"), [
    ("queries", 1, "the Query tokens are the rows of Q"), ("queries", 2, "the Query tokens are the rows of Q"),
    ("queries", 3, "the Query tokens are the rows of Q"), ("T", 4, "the sizes come from them"),
    ("d", 4, "the sizes come from them"), ("dh", 2, "the sizes come from them"),
    ("seed", 0, "the sizes come from them"), ("source", "random", "the sizes come from them"),
])
def test_your_own_numbers_refuse_what_they_decide_themselves_rather_than_drop_it(name, value, why):
    """Beside your own Q, K, V an argument they decide is refused by name, whatever its value: queries= was dropped
    without a word (queries=1 showed both of Q's rows, T_q = 2; issue 27, the fresh fuzz round)."""
    with pytest.raises(ValueError, match=f"^{name}: with your own Q, K, V {why}; leave it out\\.$"):
        al.explorer(**own_numbers(2, 4), h=2, view="queries", **{name: value})
    assert al.explorer(**own_numbers(2, 4), h=2, view="queries").trace.T_q == 2


def test_more_query_rows_than_keys_are_refused_with_what_to_do():
    assert al.attention_trace(**own_numbers(5, 3), h=2).T_q == 5  # attention_trace takes them ...
    with pytest.raises(ValueError, match=r"^Q: the explorer shows the Query rows of the last T_q ≤ T_k tokens, got "
                                         r"5 Query rows for 3 Key tokens; give K and V at least as many rows"):
        al.explorer(**own_numbers(5, 3), h=2)  # ... the explorer, whose rows are the last T_q tokens, cannot


def test_the_softmax_table_shows_shifted_exponentials_when_the_plain_ones_overflow():
    K = np.array([[1e150, 0, 0, 0], [1, 1, 0, 0], [0, 0, 1, 0]])  # row 3's scaled scores: 5e149, 1, 0.5
    ex = al.explorer(Q=np.ones((3, 4)), K=K, V=K, h=1, mask=None, view="softmax", lang="en")
    said = breakdown(ex, "softmax@0")
    assert "∞" not in said.replace("overflows to ∞", "").replace("(∞ / ∞ is no weight)", ""), said
    # no mask: Key tokens 2 and 3 are seen, their e^(s − m) and weights 0.0 read 0.000 (≈), never a masked cell's 0
    assert "e 5×10¹⁴⁹ − 5×10¹⁴⁹ = 1 1 / 1 = 1" in said and "e 1 − 5×10¹⁴⁹ ≈ 0.000 0.000 / 1 ≈ 0.000" in said
    assert "each score minus the row&#x27;s largest, 5×10¹⁴⁹" in said
    np.testing.assert_array_equal(ex.trace.P[0, 2], [1, 0, 0])
    ko = breakdown(al.explorer(Q=np.ones((3, 4)), K=K, V=K, h=1, mask=None, view="softmax", lang="ko"), "softmax@0")
    assert "최댓값을 뺀 e^(s − 5×10¹⁴⁹)" in ko
    plain = breakdown(al.explorer(view="softmax"), "softmax@0")  # the article's row keeps e^s as the article writes it
    assert "e 1 ≈ 2.718 2.718 / " in plain and "largest" not in plain


def test_applying_the_row_boxs_own_rounded_text_keeps_the_row_exact():
    """Issue 27, third fuzz round: the box shows a learned row rounded (2.401 for 2.40089…); Enter on it unchanged
    rewrote the row with the rounded numbers, and scores moved in their last digit (12.47 → 12.46) with no edit made.
    Wrong answers refused: any change of Q, K, V or of the trace; a typed row still edits."""
    from attention_lab.live.learned import learned_explorer
    ex = learned_explorer("CABDDA")
    before = {m: ex._own[m].copy() for m in "QKV"}
    shown = ex.controls["edit_row"].value
    assert shown != "[" + ", ".join(repr(float(x)) for x in before["Q"][-1]) + "]"  # it is rounded
    ex.controls["edit_row"].value = shown
    ex.controls["apply"].click()
    for m in "QKV":
        np.testing.assert_array_equal(ex._own[m], before[m])
    np.testing.assert_array_equal(ex.trace.S, learned_explorer("CABDDA").trace.S)
    ex.controls["edit_row"].value = "1, 2, 3, 4, 5, 6, 7, 8"  # a row typed differently still edits
    assert ex._own["Q"][-1].tolist() == [1, 2, 3, 4, 5, 6, 7, 8]
