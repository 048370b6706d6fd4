"""The live explorer, driven from Python: controls, views from the registries, sources, your own numbers.

The picture the browser draws is `ex.view.picture` (sections of panels with each cell's label and colour);
tests/test_browser.py checks what the front-end makes of it.
"""

import html
import re
from dataclasses import replace

import ipywidgets as W
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import attention_lab as al
from attention_lab import look as style
from attention_lab.live import widget as widgets
from attention_lab.look import NEG_INF_LABEL
from attention_lab.look import tables as hm
from attention_lab.look import words as text
from attention_lab.numeric import masks as masks
from attention_lab.numeric import pipeline as stages
from attention_lab.numeric.examples import ARTICLE_K, ARTICLE_Q, ARTICLE_V

ARTICLE_CORNER = {"Q": ARTICLE_Q.reshape(3, 2, 4), "K": ARTICLE_K.reshape(3, 2, 4), "V": ARTICLE_V.reshape(3, 2, 4)}


def items(ex):  # -> {key: item} of every panel and breakdown in the picture
    return {it["key"]: it for s in ex.view.picture["sections"] for it in s["items"]}


def grid(ex, key):  # -> the labels of a heatmap, row by row
    it = items(ex)[key]
    labels = it["labels"].split(" ")
    return [labels[i * it["cols"]:(i + 1) * it["cols"]] for i in range(it["rows"])]


def words(ex, key):  # the text of a breakdown
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", items(ex)[key]["html"]))


def shown(widget):  # -> every widget in the layout below `widget`, with whether it is displayed
    out = {}

    def walk(w, visible):
        visible = visible and w.layout.display != "none"
        out[w] = visible
        for child in getattr(w, "children", ()):
            walk(child, visible)

    walk(widget, True)
    return out


def check_invariants(ex):
    tr, c = ex.trace, ex.controls
    assert (tr.T, tr.h, tr.dh) == (ex.T, ex.h, ex.dh) and tr.d == tr.h * tr.dh
    assert ex.view.picture["shape"] == tr.shapes() and ex.view.picture["step"] == ex.redraw_count
    for name in ("query", "key", "row"):
        if name in c:
            assert [v for _, v in c[name].options] == list(range(tr.T)) and 0 <= c[name].value < tr.T
    if "head" in c:
        heads = [v for _, v in c["head"].options]
        assert heads == list(range(tr.h)) + ([-1] if tr.h > 1 else []) and c["head"].value in heads
    if "kv_heads" in c:
        assert list(c["kv_heads"].options) == [g for g in range(1, tr.h + 1) if tr.h % g == 0]
        assert tr.kv_heads == c["kv_heads"].value
    for p in masks.MASKS[ex.mask].params:  # the chosen mask's parameters within their bounds for this T (the others
        control = c[f"{ex.mask}.{p.name}"]  # are hidden, and fitted to T when their mask is chosen)
        assert (control.min, control.max) == p.bounds(tr.T) and p.bounds(tr.T)[0] <= control.value <= p.bounds(tr.T)[1]
    assert tr.mask_name == ex.mask and tr.mask_params == {p.name: c[f"{ex.mask}.{p.name}"].value
                                                          for p in masks.MASKS[ex.mask].params}
    for it in items(ex).values():  # every heatmap: one label, fill, ink and mask flag per cell
        if it["type"] == "heatmap":
            n = it["rows"] * it["cols"]
            assert len(it["labels"].split(" ")) == n and len(it["fill"]) == 6 * n
            assert len(it["ink"]) == n and len(it["masked"]) == n


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
    assert isinstance(ex, W.VBox) and ex.redraw_count == 1 and ex.source == "article"
    assert ex.view.picture["note"] == text.table("en")["note_article"]
    assert grid(ex, "S@0")[2] == ["2", "0", "6"]
    assert grid(ex, "S_scaled@0")[1] == ["3", "1.5", "−1"]
    assert grid(ex, "S_masked@0")[1] == ["3", "1.5", NEG_INF_LABEL]
    assert grid(ex, "P@0")[2] == ["0.114", "0.042", "0.844"]
    assert grid(ex, "O@0")[2] == ["0.114", "0.042", "0.844", "1"]
    assert "T=3 · d=8 · h=2 · dh=4" in ex.view.picture["shape"]
    check_invariants(ex)


def test_sizes_grow_the_article_example_and_never_switch_the_source(ex):
    for name, value in (("T", 9), ("h", 5), ("dh", 7), ("T", 1), ("dh", 2), ("h", 1)):
        ex.controls[name].value = value
        assert ex.source == "article"
        corner_kept(ex)
        check_invariants(ex)
    assert ex.view.picture["note"] == "token 1, Head 1 and components 1–2 keep the article's numbers; the rest are " \
                                      "small integers from −2 to 2 that stay put when you move a size."
    for name, value in ARTICLE_SIZES.items():
        ex.controls[name].value = value
    assert ex.view.picture["note"] == text.table("en")["note_article"] and grid(ex, "P@0")[2][0] == "0.114"


ARTICLE_SIZES = {"T": 3, "h": 2, "dh": 4}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["T", "h", "dh"]), st.integers(1, 16)), min_size=1, max_size=8),
       st.sampled_from(["article", "random"]), st.integers(0, 99))
def test_any_size_moves_that_come_back_show_the_same_numbers(moves, source, seed):
    ex = al.explorer(source=source, seed=seed, view=["split"])
    start = {name: getattr(ex.trace, name) for name in "QKV"}
    sizes = dict(ARTICLE_SIZES)
    for name, value in moves:
        value = min(value, widgets.LIMITS[name][1])
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
    assert ex.view.picture["note"].startswith("A random example from seed 0")
    before = ex.trace.Q
    ex.controls["seed"].value = 7
    assert not np.array_equal(ex.trace.Q, before) and "seed 7" in ex.view.picture["note"]
    ex.controls["source"].value = "article"
    ex.controls["seed"].value = 8  # a seed is the random example's own setting: it picks that source
    assert ex.source == "random"


def test_reset_brings_back_the_article_example(ex):
    for name, value in (("T", 7), ("h", 4), ("kv_heads", 2), ("mask", "sliding"), ("seed", 5), ("head", 3)):
        ex.controls[name].value = value
    count = ex.redraw_count
    ex.controls["reset"].click()
    assert ex.redraw_count == count + 1
    assert (ex.source, ex.T, ex.h, ex.dh, ex.mask, ex.trace.kv_heads) == ("article", 3, 2, 4, "causal", 2)
    assert ex.view.picture["note"] == text.table("en")["note_article"] and grid(ex, "P@0")[2][2] == "0.844"
    check_invariants(ex)


# ---- controls: in the layout, only those the view needs, never an invalid state -----------------------------------

VIEW_CONTROLS = {  # besides source, seed, reset, T, h, dh and marks, which every view over an example has
    "heads": set(),
    "scores": {"head", "query", "key"},
    "scaling": {"head"},
    "mask": {"head", "query", "key", "mask"},  # notebooks 04–06 (and 00, 07) offer the article's masks only
    "softmax": {"head", "row", "mask"},
    "weighted_sum": {"head", "row", "mask"},
    "article": {"head", "query", "key", "row", "mask"},
    "masks": {"head", "row", "mask", "sliding.window", "padding.length", "prefix.prefix"},  # notebook 08
    "all": {"head", "query", "key", "row", "mask", "kv_heads", "sliding.window", "padding.length", "prefix.prefix"},
}


@pytest.mark.parametrize("view", list(widgets.VIEWS))
def test_each_view_offers_the_controls_its_stages_need_all_in_the_layout(view):
    ex = al.explorer(view=view, lang="ko")
    assert set(ex.controls) == VIEW_CONTROLS[view] | {"source", "seed", "reset", "T", "h", "dh", "marks"}
    layout = shown(ex)
    for name, control in ex.controls.items():
        assert control in layout, f"{name} is not in the layout"
        hidden_by_design = name.split(".")[0] in masks.MASKS and name.split(".")[0] != ex.mask
        assert layout[control] != hidden_by_design, name
    assert ex.view in layout and layout[ex.view]
    if "mask" in ex.controls:
        offered = [v for _, v in ex.controls["mask"].options]
        assert offered == list(widgets.VIEWS[view].offered_masks())
        assert offered == (["causal", "none"] if view in ("mask", "softmax", "weighted_sum", "article")
                           else list(masks.MASK_NAMES))


def test_a_control_missing_from_the_layout_is_caught(ex):
    row = next(w for w in shown(ex) if isinstance(w, W.HBox) and ex.controls["mask"] in w.children)
    row.children = tuple(w for w in row.children if w is not ex.controls["mask"])
    assert ex.controls["mask"] not in shown(ex)


def test_mask_parameters_show_with_their_mask_and_follow_t(ex):
    c = ex.controls
    layout = shown(ex)
    assert not layout[c["sliding.window"]] and not layout[c["padding.length"]]
    c["mask"].value = "sliding"
    assert shown(ex)[c["sliding.window"]] and not shown(ex)[c["padding.length"]]
    assert ex.trace.mask_params == {"window": 2}
    c["T"].value = 8
    c["sliding.window"].value = 6
    assert ex.trace.mask_params == {"window": 6} and (c["sliding.window"].min, c["sliding.window"].max) == (1, 8)
    c["T"].value = 4  # the window can never exceed T
    assert c["sliding.window"].value == 4 and ex.trace.mask_params == {"window": 4}
    c["mask"].value = "padding"
    assert ex.trace.mask_name == "padding" and NEG_INF_LABEL in grid(ex, "M@0")[3]
    check_invariants(ex)


def test_kv_heads_offers_the_divisors_of_h_and_only_when_h_is_above_one(ex):
    c = ex.controls
    assert list(c["kv_heads"].options) == [1, 2] and c["kv_heads"].value == 2 and shown(ex)[c["kv_heads"]]
    c["h"].value = 8
    assert list(c["kv_heads"].options) == [1, 2, 4, 8] and c["kv_heads"].value == 8  # still one per Query head
    c["kv_heads"].value = 2
    assert ex.trace.kv_heads == 2 and ex.trace.Kh.shape == (2, 3, 4)
    assert [s["title"] for s in ex.view.picture["sections"]][1] == "Head 1 · K/V head 1"
    c["head"].value = 5
    assert items(ex)["Vh@5"]["title"].endswith("K/V head 2")
    c["h"].value = 6
    assert list(c["kv_heads"].options) == [1, 2, 3, 6] and c["kv_heads"].value == 2
    c["h"].value = 1
    assert list(c["kv_heads"].options) == [1] and not shown(ex)[c["kv_heads"]]
    check_invariants(ex)


def test_one_action_one_redraw(ex):
    actions = [("T", 9), ("h", 8), ("head", 7), ("h", 2), ("dh", 1), ("T", 2), ("mask", "none"), ("seed", 3),
               ("source", "article"), ("query", 0), ("key", 1), ("row", 0), ("T", 1), ("kv_heads", 1),
               ("mask", "prefix"), ("prefix.prefix", 0), ("marks", False)]
    for name, value in actions:
        count = ex.redraw_count
        ex.controls[name].value = value
        assert ex.redraw_count == count + 1, name
        check_invariants(ex)


def test_h_and_t_drops_clamp_the_head_and_the_pickers(ex):
    c = ex.controls
    c["h"].value, c["head"].value, c["T"].value, c["row"].value = 8, 7, 12, 11
    c["h"].value = 3
    assert c["head"].value == 2
    c["T"].value = 4
    assert c["row"].value == 3 and c["query"].value <= 3
    check_invariants(ex)


def test_a_click_on_a_cell_picks_it(ex):
    ex._on_pick(ex.view, {"pick": ["S", 1, 2]}, [])
    assert (ex.controls["query"].value, ex.controls["key"].value) == (1, 2)
    assert items(ex)["S@0"]["hl"] == [1, 2] and "Score of Query token 2 and Key token 3" in words(ex, "dot@0")
    ex._on_pick(ex.view, {"pick": ["P", 0, 2]}, [])
    assert ex.controls["row"].value == 0 and items(ex)["P@0"]["hl"] == [0, None]
    count = ex.redraw_count
    for stale in ({"pick": ["S", 9, 0]}, {"pick": "x"}, {"other": 1}, None):  # from an older picture: ignored
        ex._on_pick(ex.view, stale, [])
    assert ex.redraw_count == count


def test_change_marks_can_be_switched_off(ex):
    assert ex.view.picture["marks"] is True
    ex.controls["marks"].value = False
    assert ex.view.picture["marks"] is False and al.explorer(marks=False).view.picture["marks"] is False


# ---- views: lists of names, drawn from the stage registry --------------------------------------------------------

def test_views_per_notebook_show_only_what_has_been_taught():
    def keys(view):
        return [k.split("@")[0] for k in items(al.explorer(view=view))]

    assert keys("scores") == ["S", "dot"]
    assert keys("scaling") == ["S", "S_scaled", "P", "P_unscaled", "scaling_note"]
    assert keys("mask") == ["S_scaled", "M", "S_masked", "dot"]
    assert keys("softmax") == ["S_masked", "P", "softmax"]
    assert keys("weighted_sum") == ["P", "Vh", "O", "weighted_sum"]
    every = ["Q", "K", "V", "S", "S_scaled", "M", "S_masked", "P", "Vh", "O", "dot", "softmax", "weighted_sum", "H"]
    assert keys("all") == every and keys("article") == every
    assert keys("masks") == ["M", "S_masked", "P", "softmax"]


def test_scores_view_breaks_the_dot_product_down_without_the_mask():
    dot = words(al.explorer(view="scores"), "dot@0")
    assert "−1·1 + 1·(−1) + 1·2 + 2·1 = 2" in dot and "÷ √" not in dot and "+ M" not in dot
    full = words(al.explorer(), "dot@0")
    assert "2 ÷ √4 = 1" in full and "+ M: 1 + 0 = 1" in full


def test_scaling_view_has_no_mask_and_shows_p_with_and_without_the_scale():
    ex = al.explorer(view="scaling")
    assert "mask" not in ex.controls and ex.trace.mask_name == "none"
    titles = [it["title"] for it in items(ex).values() if it["type"] == "heatmap"]
    assert titles[2:] == ["P = softmax(S / √dh) · Head 1", "P without ÷ √dh = softmax(S) · Head 1"]  # M not yet taught
    assert grid(ex, "P_unscaled@0")[2] == ["0.018", "0.002", "0.980"]  # softmax([2, 0, 6])
    assert "√dh = √4 = 2" in words(ex, "scaling_note")
    ex.controls["dh"].value = 8
    assert "√dh = √8 ≈ 2.828" in words(ex, "scaling_note")
    P, P_unscaled = ex.trace.P, stages.STAGES["P_unscaled"].value(ex.trace)
    assert P_unscaled.max(axis=-1).mean() >= P.max(axis=-1).mean()


def test_a_view_is_any_list_of_names(ex):
    ex = al.explorer(view=["P", "O", "softmax"])
    assert [k.split("@")[0] for k in items(ex)] == ["P", "O", "softmax"] and "mask" in ex.controls
    assert "mask" not in al.explorer(view=["S", "S_scaled"]).controls  # nothing from M on: no mask to choose
    assert "kv_heads" in al.explorer(view=["Kh", "S"]).controls


def test_panels_take_titles_kinds_axes_and_highlights_from_the_stage_registry(ex):
    tr = ex.trace
    for key, it in items(ex).items():
        if it["type"] != "heatmap":
            continue
        name, head = key.split("@")
        stage = stages.STAGES[name]
        assert it["title"].startswith(stage.label["en"])
        matrix = stage.matrix(tr, int(head))
        vmin, vmax = style.value_range("scores", tr.S, tr.S_scaled, tr.M, tr.S_masked) if stage.kind == "scores" \
            else (None, None)
        assert {k: it[k] for k in ("labels", "fill", "ink", "masked")} == \
               {k: v for k, v in hm.heatmap_data(matrix, stage.kind, vmin=vmin, vmax=vmax).items()
                if k in ("labels", "fill", "ink", "masked")}
        words_of = {"query": "Query token", "key": "Key token", "token": "token", "component": ""}
        assert (it["rowCap"], it["colCap"]) == tuple(words_of[a] for a in stage.axes)
        if stage.highlight == "cell":
            assert it["hl"] == [2, 0]
        elif stage.highlight == "row":
            assert it["hl"] == [2, None]


def test_a_new_stage_or_mask_needs_no_edit_in_widgets(new_entries):
    ex = al.explorer(view=["S", "S_double", "M", "dot"])
    assert grid(ex, "S_double@0")[2] == ["4", "0", "12"] and items(ex)["S_double@0"]["title"].startswith("twice")
    assert items(ex)["S_double@0"]["hl"] == [2, 0]
    assert ("stripe", "stripe") in ex.controls["mask"].options and not shown(ex)[ex.controls["stripe.every"]]
    ex.controls["mask"].value = "stripe"
    assert shown(ex)[ex.controls["stripe.every"]] and ex.trace.mask_name == "stripe"
    ex.controls["T"].value = 5
    ex.controls["stripe.every"].value = 3
    assert (ex.controls["stripe.every"].min, ex.controls["stripe.every"].max) == (1, 5)
    assert grid(ex, "M@0")[4] == ["0", NEG_INF_LABEL, NEG_INF_LABEL, "0", "0"]
    ex.controls["T"].value = 2  # bounded by Param.bounds(T): no invalid state
    assert ex.controls["stripe.every"].value == 2
    check_invariants(ex)


# ---- words --------------------------------------------------------------------------------------------------------

def test_korean_uses_ordinals_and_both_languages_have_every_word():
    ko = al.explorer(lang="ko")
    assert ko.controls["T"].description == "토큰 수 T" and ko.controls["mask"].description == "마스크"
    assert words(ko, "dot@0").startswith(" 세 번째 Query 토큰과 첫 번째 Key 토큰의 점수")
    assert "세 번째 Query 토큰 = [−1, 1, 1, 2]" in words(ko, "dot@0")
    assert "세 번째 행의 Softmax" in words(ko, "softmax@0") and "세 번째 토큰의 출력" in words(ko, "weighted_sum@0")
    ko.controls["T"].value = 16
    ko.controls["row"].value = 15
    assert "열여섯 번째 행의 Softmax" in words(ko, "softmax@0")
    assert "Query token" not in str(ko.view.picture)
    assert set(widgets.LABELS["ko"]) == set(widgets.LABELS["en"])
    ko.controls["h"].value = 3
    assert [label for label, _ in ko.controls["head"].options] == ["Head 1", "Head 2", "Head 3", "모든 head"]


def test_approximately_only_for_values_that_are_not_exact(ex):
    soft = words(ex, "softmax@0")
    assert "e 0 = 1" in soft and "e 1 ≈ 2.718" in soft and "≈ 0.114" in soft
    assert "≈ [0.114, 0.042, 0.844, 1]" in words(ex, "weighted_sum@0")
    ex.controls["row"].value = 1
    assert "e −∞ = 0" in words(ex, "softmax@0") and "0 / 24.57 = 0" in words(ex, "softmax@0")
    ex.controls["row"].value = 0
    assert "= [1, 0, 0, 1]" in words(ex, "weighted_sum@0") and "≈" not in words(ex, "weighted_sum@0")


def test_the_d_label_stays_on_one_line(ex):
    assert "white-space:nowrap" in ex.d_label.value and "d = h·dh = <b>8</b>" in ex.d_label.value


# ---- your own numbers -----------------------------------------------------------------------------------------------

@pytest.fixture
def own():
    tr = al.article_example()
    return al.explorer(Q=tr.Q, K=tr.K, V=tr.V, h=2, lang="en")


def test_your_own_numbers_with_the_same_mask_head_and_picker_controls(own):
    assert own.source == "yours" and grid(own, "P@0")[2] == ["0.114", "0.042", "0.844"]
    offered = {"mask", "head", "query", "key", "row", "edit_matrix", "edit_token", "edit_row", "apply"}
    assert offered <= set(own.controls)
    assert not {"T", "h", "dh", "seed", "source", "reset"} & set(own.controls)
    layout = shown(own)
    assert all(c in layout for c in own.controls.values()) and own.edit_message in layout
    own.controls["mask"].value = "none"
    assert own.trace.mask_name == "none"
    check_invariants(own)


def test_an_edited_row_flows_through_every_stage(own):
    c = own.controls
    assert c["edit_token"].value == 2 and c["edit_row"].value == "[-1, 1, 1, 2, 0, 2, 0, 0]"
    c["edit_matrix"].value = "K"
    c["edit_token"].value = 0
    assert c["edit_row"].value == "[1, -1, 2, 1, 2, 0, 0, 1]"
    count = own.redraw_count
    c["edit_row"].value = "[1, -1, 2, 3, 2, 0, 0, 1]"  # Key token 1 = [1, −1, 2, 3]: its score with Query 3 is 6
    assert own.redraw_count == count + 1 and grid(own, "S@0")[2] == ["6", "0", "6"]
    assert "K token 1 = [1, −1, 2, 3, 2, 0, 0, 1]" in own.edit_message.value


@pytest.mark.parametrize(("typed", "message"), [
    ("[1, 2, 3]", "needs 8 numbers, got 3"), ("[1, 2, x, 4, 5, 6, 7, 8]", "'x' is not a number"),
    ("1 2 3 4 5 6 7 nan", "'nan' is not a finite number"), ("", "needs 8 numbers, got 0"),
])
def test_a_malformed_row_gets_one_line_and_the_picture_stays(own, typed, message):
    before, count = own.view.picture, own.redraw_count
    own.controls["edit_row"].value = typed
    assert message in html.unescape(own.edit_message.value) and "\n" not in own.edit_message.value
    assert own.view.picture is before and own.redraw_count == count


def test_rows_may_be_typed_in_several_ways():
    for typed in ("[-1, 1, 1, 2]", "-1 1 1 2", "−1, 1, 1, 2", "(-1; 1; 1; 2)", " [ -1.0,1,1e0 ,2 ] "):
        row, problem = widgets.parse_row(typed, 4)
        assert problem is None and row.tolist() == [-1, 1, 1, 2], typed


@pytest.mark.parametrize("kwargs", [
    {"Q": [[1, 2]], "K": [[1, 2], [3, 4]], "V": [[1, 2]]},
    {"Q": [[1, np.nan]], "K": [[1, 2]], "V": [[1, 2]]},
    {"Q": [[1j, 2]], "K": [[1, 2]], "V": [[1, 2]]},
    {"Q": [[1, 2], [3]], "K": [[1, 2]], "V": [[1, 2]]},
    {"Q": [[1, 2, 3, 4]], "K": [[1, 2, 3]], "V": [[1, 2, 3]], "kv_heads": 1},
    {"Q": [[1, 2, 3, 4]], "K": [[1, 2, 3, 4]], "V": [[1, 2, 3, 4]], "mask": "window"},
])
def test_your_own_numbers_get_the_same_errors_as_attention_trace(kwargs):
    h = 2
    with pytest.raises(ValueError) as expected:
        rest = {k: v for k, v in kwargs.items() if k not in "QKV"}
        al.attention_trace(kwargs["Q"], kwargs["K"], kwargs["V"], h, **rest)
    with pytest.raises(ValueError) as got:
        al.explorer(h=h, **kwargs)
    assert str(got.value) == str(expected.value)


def test_your_own_mask_array_and_the_size_limits():
    rng = np.random.default_rng(0)
    Q = K = V = rng.integers(-2, 3, (4, 6)).astype(float)
    allowed = np.tril(np.ones((4, 4), bool)) & ~np.eye(4, dtype=bool) | np.eye(4, dtype=bool)[::-1]
    ex = al.explorer(Q=Q, K=K, V=V, h=3, mask=allowed)
    assert ex.trace.mask_name == "custom" and ("custom", "custom") in ex.controls["mask"].options
    assert grid(ex, "M@0")[0] == [NEG_INF_LABEL] * 3 + ["0"]
    ex.controls["mask"].value = "causal"
    ex.controls["mask"].value = "custom"
    assert grid(ex, "M@0")[0] == [NEG_INF_LABEL] * 3 + ["0"]
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
    ({"dh": 9}, "^dh:"), ({"d": 8, "dh": 3}, "^d, dh:"), ({"size": 3}, "^size: the explorer has no argument"),
    ({"mask": "window"}, "^mask:"), ({"mask": np.ones((3, 3), bool)}, "^mask:"), ({"mask": 5}, "^mask:"),
    ({"seed": -1}, "^seed:"), ({"seed": 10**7}, "^seed:"), ({"source": "yours"}, "^source:"),
    ({"kv_heads": 3}, "^kv_heads:"), ({"kv_heads": 0}, "^kv_heads:"), ({"window": 2}, "^window:"),
    ({"mask": "sliding", "window": 0}, "^window:"), ({"marks": "yes"}, "^marks:"),
    ({"Q": np.ones((3, 8))}, "^K, V:"), ({"Q": np.ones((3, 8)), "K": np.ones((3, 8)), "V": np.ones((3, 8))}, "^h:"),
    ({"Q": np.ones((3, 8)), "K": np.ones((3, 8)), "V": np.ones((3, 8)), "h": 2, "T": 3}, "^T:"),
])
def test_bad_arguments_raise_clear_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        al.explorer(**kwargs)


def test_start_on_a_random_example():
    ex = al.explorer(T=5, d=12, h=3, mask=None, seed=4, view="mask")
    assert ex.source == "random" and ex.dh == 4 and ex.mask == "none" and ex.trace.mask_name == "none"
    assert "T=5 · d=12 · h=3 · dh=4" in ex.view.picture["shape"]
    assert (al.explorer(h=4).d, al.explorer(dh=8).d, al.explorer(h=3, dh=2).d) == (16, 16, 6)
    ex = al.explorer(mask=al.Mask("sliding", window=1), kv_heads=1)
    assert ex.trace.mask_params == {"window": 1} and ex.trace.kv_heads == 1
    assert replace(widgets.VIEWS["all"]).kv_control
    check_invariants(ex)
