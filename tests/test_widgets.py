"""The live explorer, driven from Python: each control changes the view, once, and never breaks it."""

import re

import ipywidgets as W
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import attention_lab as al
from attention_lab import widgets
from attention_lab.style import NEG_INF_LABEL


def text(html):
    return re.sub(r"<[^>]+>", "", html)


def heatmap(w, name, nth=0):  # -> the nth heatmap fragment of a stage in the view
    frags = re.findall(rf'<div class="al-hm" data-name="{name}">.*?</table></div>', w.stage_html.value)
    return frags[nth]


def n_rows(fragment):
    return int(re.search(r'data-rows="(\d+)"', fragment).group(1))


def row_labels(fragment, i):  # the labels of row i (0-based) of a heatmap
    body = fragment.split("<tbody>")[1]
    row = body.split("</tr>")[i]
    return re.findall(r"<td[^>]*>([^<]*)</td>", row)


def check_invariants(w):
    tr = w.trace
    assert tr.d == w.h_slider.value * w.dh_slider.value and tr.d % tr.h == 0
    assert (tr.T, tr.h, tr.dh) == (w.T_slider.value, w.h_slider.value, w.dh_slider.value)
    assert tr.shapes() in text(w.shape_line.value)
    assert [v for _, v in w.query_pick.options] == list(range(tr.T))
    assert w.query_pick.value < tr.T and w.key_pick.value < tr.T and w.row_pick.value < tr.T
    heads = [v for _, v in w.head_select.options]
    assert heads == list(range(tr.h)) + ([-1] if tr.h > 1 else []) and w.head_select.value in heads
    if w.source_toggle.value == "article":
        assert (tr.T, tr.d, tr.h) == (3, 8, 2)
    shows_mask = {"M", "S_masked"} & set(widgets.VIEWS[w.view_name])
    if shows_mask:
        assert (NEG_INF_LABEL in w.stage_html.value) == (w.mask_toggle.value == "causal" and tr.T > 1)


@pytest.fixture
def w():
    return al.explorer()


def test_is_a_vbox_on_the_article_example(w):
    assert isinstance(w, W.VBox) and w.redraw_count == 1
    assert w.source_toggle.value == "article"
    assert row_labels(heatmap(w, "S"), 2) == ["2", "0", "6"]
    assert row_labels(heatmap(w, "S_scaled"), 1) == ["3", "1.5", "−1"]
    assert row_labels(heatmap(w, "S_masked"), 1) == ["3", "1.5", NEG_INF_LABEL]
    assert row_labels(heatmap(w, "P"), 2) == ["0.114", "0.042", "0.844"]
    assert "T=3 · d=8 · h=2 · dh=4" in text(w.shape_line.value)
    check_invariants(w)


def test_each_control_changes_the_view(w):
    w.T_slider.value = 5
    assert n_rows(heatmap(w, "S")) == 5 and n_rows(heatmap(w, "P")) == 5 and n_rows(heatmap(w, "H")) == 5
    assert "T=5 · d=8" in text(w.shape_line.value) and w.source_toggle.value == "random"
    w.h_slider.value = 4
    assert "d=16 · h=4 · dh=4" in text(w.shape_line.value)
    assert len(re.findall(r'data-name="O"', w.stage_html.value)) == 1  # the selected head only
    w.head_select.value = -1  # all heads
    assert len(re.findall(r'data-name="P"', w.stage_html.value)) == 4
    w.dh_slider.value = 2
    assert "d=8 · h=4 · dh=2" in text(w.shape_line.value)
    w.mask_toggle.value = "none"
    assert NEG_INF_LABEL not in w.stage_html.value and "al-masked\"" not in w.stage_html.value
    w.mask_toggle.value = "causal"
    assert NEG_INF_LABEL in w.stage_html.value
    before = w.stage_html.value
    w.seed_box.value = 7
    assert w.stage_html.value != before
    check_invariants(w)


def test_one_action_one_redraw(w):
    actions = [("T_slider", 9), ("h_slider", 8), ("head_select", 7), ("h_slider", 2), ("dh_slider", 1),
               ("T_slider", 2), ("mask_toggle", "none"), ("seed_box", 3), ("source_toggle", "article"),
               ("query_pick", 0), ("key_pick", 2), ("row_pick", 2), ("T_slider", 1)]
    for name, value in actions:
        count = w.redraw_count
        getattr(w, name).value = value
        assert w.redraw_count == count + 1, name
        check_invariants(w)
    count = w.redraw_count
    w.reset_button.click()
    assert w.redraw_count == count + 1


def test_h_drop_clamps_the_head_and_t_drop_clamps_the_pickers(w):
    w.h_slider.value = 8
    w.head_select.value = 7
    w.T_slider.value = 12
    w.row_pick.value = 11
    w.h_slider.value = 3
    assert w.head_select.value == 2
    w.T_slider.value = 4
    assert w.row_pick.value == 3 and w.query_pick.value <= 3
    check_invariants(w)


def test_reset_restores_the_article_example(w):
    w.T_slider.value, w.h_slider.value, w.mask_toggle.value, w.seed_box.value = 7, 4, "none", 5
    w.reset_button.click()
    assert w.source_toggle.value == "article" and w.mask_toggle.value == "causal"
    assert row_labels(heatmap(w, "S"), 2) == ["2", "0", "6"]
    assert "T=3 · d=8 · h=2 · dh=4" in text(w.shape_line.value)
    check_invariants(w)


def test_source_toggle_switches_between_article_and_random(w):
    w.source_toggle.value = "random"
    assert row_labels(heatmap(w, "S"), 2) != ["2", "0", "6"] and "T=3 · d=8" in text(w.shape_line.value)
    w.T_slider.value = 6
    w.source_toggle.value = "article"
    assert w.T_slider.value == 3 and row_labels(heatmap(w, "S"), 2) == ["2", "0", "6"]


def test_cell_picker_breaks_the_score_down(w):
    dot = text(re.search(r'data-name="dot">.*?</div></div>', w.stage_html.value).group(0))
    assert "Score of Query token 3 and Key token 1" in dot
    assert "−1·1 + 1·(−1) + 1·2 + 2·1 = 2" in dot and "2 ÷ √4 = 1" in dot
    w.query_pick.value, w.key_pick.value = 1, 2  # token 2 may not see token 3
    dot = text(re.search(r'data-name="dot">.*?</div></div>', w.stage_html.value).group(0))
    assert "−2 ÷ √4 = −1" in dot and f"−1 + ({NEG_INF_LABEL}) = {NEG_INF_LABEL}" in dot


def test_row_picker_shows_softmax_and_weighted_sum(w):
    view = text(w.stage_html.value)
    assert "Softmax of row 3" in view and "0.114" in view and "0.042" in view and "0.844" in view
    assert "0.114·V1 + 0.042·V2 + 0.844·V3" in view and "[0.114, 0.042, 0.844, 1]" in view
    w.row_pick.value = 1
    view = text(w.stage_html.value)
    assert "Softmax of row 2" in view and "0.818" in view and "0.182" in view


def test_labels_in_korean_and_english():
    ko, en = al.explorer(lang="ko"), al.explorer(lang="en")
    assert ko.T_slider.description == "토큰 수 T" and en.T_slider.description == "T tokens"
    assert ko.mask_toggle.description == "마스크" and "Query 토큰" in ko.stage_html.value
    assert "점수 행렬 S" in ko.stage_html.value and "가중치 P" in ko.stage_html.value
    assert "출력 O" in ko.stage_html.value and "Concat" in ko.stage_html.value
    assert "Query token" not in ko.stage_html.value and "Query token" in en.stage_html.value
    ko.h_slider.value = 3
    assert [label for label, _ in ko.head_select.options] == ["Head 1", "Head 2", "Head 3", "모든 head"]
    for key in widgets.LABELS["en"]:
        assert widgets.LABELS["ko"][key], key
    assert set(widgets.LABELS["ko"]) == set(widgets.LABELS["en"])


@pytest.mark.parametrize("view", list(widgets.VIEWS))
def test_every_view_renders_and_follows_t(view):
    w = al.explorer(view=view, lang="ko")
    names = set(re.findall(r'data-name="(\w+)"', w.stage_html.value))
    expected = {"heads": {"Q", "K", "V", "O", "H"}, "scores": {"S", "S_scaled", "dot"},
                "scaling": {"S", "S_scaled", "P", "P_unscaled"}, "mask": {"S_scaled", "M", "S_masked"},
                "softmax": {"S_masked", "P", "softmax"}, "weighted_sum": {"P", "Vh", "O", "weighted_sum"}}
    assert names == expected.get(view, names) and names
    w.T_slider.value = 6
    assert all(n_rows(f) == 6 for f in re.findall(r'<table class="al-grid".*?</table>', w.stage_html.value)
               if 'data-cols="6"' in f)
    check_invariants(w)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"view": "everything"}, "view"), ({"lang": "fr"}, "lang"), ({"T": 0}, "T"), ({"T": 17}, "T"),
    ({"h": 3}, "d: must be a multiple"), ({"d": 80, "h": 2}, "d"), ({"h": 9, "d": 9}, "h"),
    ({"mask": "window"}, "mask"), ({"seed": -1}, "seed"), ({"T": 4, "source": "article"}, "source"),
    ({"T": 2.5}, "T"),
])
def test_bad_arguments_raise_clear_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        al.explorer(**kwargs)


def test_start_on_a_random_example():
    w = al.explorer(T=5, d=12, h=3, mask=None, seed=4, view="mask")
    assert w.source_toggle.value == "random" and w.dh_slider.value == 4 and w.mask_toggle.value == "none"
    assert "T=5 · d=12 · h=3 · dh=4" in text(w.shape_line.value)
    check_invariants(w)


CONTROLS = {
    "T": st.integers(1, 16), "h": st.integers(1, 8), "dh": st.integers(1, 8), "seed": st.integers(0, 50),
    "mask": st.sampled_from(["causal", "none"]), "source": st.sampled_from(["article", "random"]),
    "head": st.integers(0, 8), "query": st.integers(0, 15), "key": st.integers(0, 15), "row": st.integers(0, 15),
    "reset": st.just(None),
}
ACTION = st.sampled_from(sorted(CONTROLS)).flatmap(lambda name: st.tuples(st.just(name), CONTROLS[name]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTION, min_size=1, max_size=12), st.sampled_from(["all", "heads", "softmax"]))
def test_any_sequence_of_actions_keeps_the_controls_consistent(actions, view):
    w = al.explorer(view=view)
    for name, value in actions:
        count = w.redraw_count
        if name == "reset":
            w.reset_button.click()
            changed = True
        else:
            control = w.controls[name]
            values = [v for _, v in control.options] if isinstance(control, W.Dropdown) else None
            if values is not None:  # a choice the dropdown offers now; "all heads" too
                value = values[value % len(values)]
            changed = control.value != value
            control.value = value
        assert w.redraw_count == count + changed, (name, value)
        check_invariants(w)


def test_scaling_view_shows_p_with_and_without_the_scale():
    w = al.explorer(view="scaling")
    assert row_labels(heatmap(w, "P"), 2) == ["0.114", "0.042", "0.844"]
    assert row_labels(heatmap(w, "P_unscaled"), 2) == ["0.018", "0.002", "0.980"]  # softmax([2, 0, 6])
    redraws = w.redraw_count
    w.dh_slider.value = 8
    assert w.redraw_count == redraws + 1
    np.testing.assert_array_equal(w.unscaled.S_scaled, w.trace.S)
    assert w.unscaled.P.max(axis=-1).mean() >= w.trace.P.max(axis=-1).mean()
