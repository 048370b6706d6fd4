"""The steppers of notebooks 10 and 11: step buttons, block slider, head choice, what they show; they only render."""

import math
import re

import ipywidgets as W
import numpy as np
import pytest

import attention_lab as al
from attention_lab.live import steppers as steppers
from attention_lab.look import NEG_INF_LABEL


def text(html):
    return re.sub(r"<[^>]+>", " ", html)


def column(w, name):  # -> the cell labels of one heatmap of the view, row by row (all its cells, in order)
    fragment = re.search(rf'<div class="al-hm" data-name="{name}">.*?</table></div>', w.view.value).group(0)
    return re.findall(r"<td[^>]*>([^<]*)</td>", fragment.split("<tbody>")[1])


@pytest.fixture
def w():
    return al.blockwise_view()


def test_starts_on_the_first_block_of_the_articles_example(w):
    assert isinstance(w, W.VBox) and w.step == 0 and len(w.steps) == 3
    assert w.previous_button.disabled and not w.next_button.disabled
    assert "Block 1 of 3: Key token 1" in text(w.view.value)
    assert column(w, "S_block") == ["1.5", "3", "1"]  # Key token 1's scores for Query tokens 1, 2, 3
    assert column(w, "m_old") == [NEG_INF_LABEL] * 3 and column(w, "m") == ["1.5", "3", "1"]
    assert 'data-name="O_trace"' not in w.view.value  # the full computation's O only after the last block


def test_the_step_buttons_walk_the_blocks_of_row_3(w):
    redraws = w.redraw_count
    w.next_button.click()
    assert w.step == 1 and w.redraw_count == redraws + 1 and not w.previous_button.disabled
    assert column(w, "m")[2] == "1" and column(w, "l")[2] == "1.368"
    w.next_button.click()
    view = text(w.view.value)
    assert "Block 3 of 3: Key token 3" in view and w.next_button.disabled
    assert column(w, "m_old")[2] == "1" and column(w, "m")[2] == "3"  # the maximum grows: 1 → 3
    assert column(w, "rescale")[2] == "0.135" and column(w, "l")[2] == "1.185"  # e^(1−3) and the new sum
    assert column(w, "O")[-4:] == ["0.114", "0.042", "0.844", "1"]
    assert column(w, "O_trace") == column(w, "O")  # equal to the full computation
    assert "no (T, T) matrix was made" in view
    w.previous_button.click()
    assert w.step == 1 and not w.next_button.disabled


def test_steps_cannot_leave_the_blocks(w):
    w._go(99)
    assert w.step == len(w.steps) - 1
    w._go(-5)
    assert w.step == 0


def test_the_block_slider_regroups_the_keys_and_restarts():
    tr = al.article_example(T=7)
    w = al.blockwise_view(tr, block=1)
    w.next_button.click()
    w.block_slider.value = 3
    assert w.step == 0 and len(w.steps) == math.ceil(7 / 3)
    assert "Block 1 of 3: Key tokens 1–3" in text(w.view.value)
    assert re.search(r'data-name="S_block">.*?data-cols="3"', w.view.value)
    w.block_slider.value = 7
    assert len(w.steps) == 1 and w.next_button.disabled and w.previous_button.disabled
    assert 'data-name="O_trace"' in w.view.value
    assert (w.block_slider.min, w.block_slider.max) == (1, 7)


def test_stepping_renders_the_stored_records_and_computes_nothing(monkeypatch):
    w = al.blockwise_view(al.article_example(T=5), block=2)
    calls = []
    monkeypatch.setattr(steppers, "blockwise_steps", lambda *a, **k: calls.append(a) or ())
    w.next_button.click()
    w.head_select.value = 1
    w.previous_button.click()
    assert calls == []  # stepping and choosing a head only render
    assert column(w, "S_block")[:2] == [steppers.style.format_value(x, "scores") for x in w.steps[0].S_block[1, 0]]


def test_the_head_choice_shows_only_with_several_heads():
    two = al.blockwise_view(head=1)
    assert two.head_select.layout.display == "" and "Head 2" in text(two.view.value)
    one = al.blockwise_view(al.random_example(4, 4, 1))
    assert one.head_select.layout.display == "none"


def test_the_trace_mask_and_kv_heads_are_followed():
    tr = al.random_example(6, 8, 2, seed=4, mask=al.Mask("padding", length=4), kv_heads=1)
    w = al.blockwise_view(tr, block=6)
    assert column(w, "O") == column(w, "O_trace")
    assert column(w, "l")[4:] == ["0", "0"]  # the padding rows attend to nothing: l = 0, O = 0
    itself_only = al.random_example(4, 4, 2, mask=np.eye(4, dtype=bool))  # a custom mask: each token sees itself
    w = al.blockwise_view(itself_only, block=2)
    assert column(w, "S_block")[1] == NEG_INF_LABEL and w.steps[0].S_block.shape == (2, 4, 2)
    w.next_button.click()
    assert column(w, "O") == column(w, "O_trace")


def test_korean_labels():
    w = al.blockwise_view(lang="ko")
    assert w.block_slider.description == "블록 크기 (Key 토큰 수)" and w.next_button.description == "다음 블록 ▶"
    assert "블록 1 / 3: Key 토큰 1" in text(w.view.value) and "누적 합 l" in w.view.value
    assert "Block" not in text(w.view.value)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"tr": "article"}, "tr"), ({"block": 0}, "block"), ({"block": 4}, "block"), ({"head": 2}, "head"),
    ({"head": -1}, "head"), ({"lang": "fr"}, "lang"), ({"block": 1.0}, "block"),
    ({"tr": al.attention_trace(*al.example_qkv(3, 8, 2), 2, scaled=False)}, "tr"),
])
def test_bad_arguments_raise_clear_errors(kwargs, match):
    with pytest.raises(ValueError, match=f"^{match}: "):
        al.blockwise_view(**kwargs)
    if "block" not in kwargs:
        with pytest.raises(ValueError, match=f"^{match}: "):
            al.decode_view(**kwargs)


# ---- the decode stepper (notebook 10)


def test_decode_view_walks_the_tokens_of_the_article():
    w = al.decode_view()
    assert isinstance(w, W.VBox) and w.step == 0 and len(w.steps) == 3 and w.previous_button.disabled
    assert "Head 1 · Step 1 of 3: generating token 1" in text(w.view.value)
    assert column(w, "K_cache") == ["1", "−1", "2", "1"] and column(w, "P_row") == ["1"]
    redraws = w.redraw_count
    w.next_button.click()
    w.next_button.click()
    assert w.step == 2 and w.redraw_count == redraws + 2 and w.next_button.disabled
    assert column(w, "q") == ["−1", "1", "1", "2"]  # token 3's Query: the only Query row of this step
    assert len(column(w, "K_cache")) == 3 * 4 and len(column(w, "V_cache")) == 3 * 4  # the cache: 3 tokens
    assert column(w, "S_scaled_row") == ["1", "0", "3"]
    assert column(w, "P_row") == ["0.114", "0.042", "0.844"] == column(w, "P_trace")
    assert column(w, "O_row") == ["0.114", "0.042", "0.844", "1"]
    assert "Key and Value rows of 3 token(s): 48 values" in text(w.view.value)
    w.previous_button.click()
    assert column(w, "P_trace") == ["0.818", "0.182", "0"]  # the full computation's row 2: 0 for token 3


def test_decode_view_follows_shared_kv_heads_and_the_head_choice(monkeypatch):
    w = al.decode_view(al.article_example(kv_heads=1), head=1)
    assert "Query head 2 reads K/V head 1" in text(w.view.value) and "8 values" in text(w.view.value)
    calls = []
    monkeypatch.setattr(steppers, "decode_steps", lambda *a, **k: calls.append(a) or ())
    w.head_select.value = 0
    w.next_button.click()
    assert calls == [] and "Head 1 · Step 2 of 3" in text(w.view.value)
    assert "K/V head" in text(w.view.value)


def test_decode_view_in_korean_and_only_for_causal_traces():
    w = al.decode_view(lang="ko")
    assert w.next_button.description == "다음 토큰 ▶" and "3단계 중 1단계: 토큰 1 만들기" in text(w.view.value)
    with pytest.raises(ValueError, match="^tr: a KV cache needs the causal mask"):
        al.decode_view(al.article_example(mask=None))
