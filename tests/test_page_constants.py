"""The page reads the constants it shares with Python from the data Python sends (live/data.py `look_data()`), so a
constant changed in its one Python home changes what the page shows, with no JavaScript edit.

Each test changes a Python constant or rule (monkeypatched: the article's sizes, the example values' range, the
sections a view may list, what a view draws and offers), rebuilds the bundle or the view's data, and runs the
front-end's own picture code in Node.js (tests/frontend.py). A JavaScript copy would keep the old behaviour and fail
the test.
"""

import sys
from pathlib import Path

import numpy as np
import pytest

import attention_lab as al
from attention_lab.live import data, views
from attention_lab.look import colors, words
from attention_lab.look.words import table
from attention_lab.numeric import examples
from attention_lab.numeric.pipeline import STAGES

sys.path.insert(0, str(Path(__file__).parent))
from frontend import page_picture  # noqa: E402


@pytest.fixture
def fresh_bundle():  # look_data() is cached: each test's change must reach a bundle of its own, and leave none
    data.look_data.cache_clear()
    yield
    data.look_data.cache_clear()


def _note(lang="en", **kwargs):  # -> the page's note for an explorer of the article's example
    return page_picture(al.explorer(lang=lang, **kwargs).page_config())["note"]


def _Q(**kwargs):  # -> the page's Q as numbers (the split section's first heatmap, its labels read back)
    pic = page_picture(al.explorer(**kwargs).page_config())
    [item] = [it for s in pic["sections"] if s["key"] == "split" for it in s["items"] if it["title"] == "Q"]
    values = [float(text.replace("\u2212", "-")) for text in item["labels"]]
    return np.array(values).reshape(item["rows"], item["cols"])


def test_the_note_names_the_article_at_the_articles_sizes_and_the_corner_elsewhere(fresh_bundle):
    en = table("en")
    assert _note() == en["note_article"]  # T = 3, d = 8, h = 2, as the article has it
    for kwargs in ({"T": 4}, {"d": 4, "h": 1}, {"kv_heads": 1}, {"queries": 2}, {"h": 1, "d": 8}):
        assert _note(**kwargs) != en["note_article"], kwargs
        assert "small integers from \u22122 to 2" in _note(**kwargs), kwargs


def test_the_articles_sizes_reach_the_page_from_examples(fresh_bundle, monkeypatch):
    monkeypatch.setattr(examples, "ARTICLE_SIZES", {"T": 4, "d": 8, "h": 2})
    en = table("en")
    assert _note(T=4) == en["note_article"]  # the sizes Python calls the article's, whatever they are
    assert _note(T=3) != en["note_article"]
    assert _note(T=4, kv_heads=1) != en["note_article"]  # one K/V head per Query head, as the article has


def test_the_corner_the_note_names_is_the_article_corners_shape(fresh_bundle, monkeypatch):
    monkeypatch.setattr(examples, "ARTICLE_CORNER", {n: X[:2, :1, :3] for n, X in examples.ARTICLE_CORNER.items()})
    assert _note(T=4).startswith("tokens 1\u20132, Head 1 and components 1\u20133 keep the article's numbers")


def test_the_example_values_range_reaches_the_page_and_its_note(fresh_bundle, monkeypatch):
    before = _Q(source="random", seed=7, T=16, h=8, dh=8)
    Q, _, _ = examples.example_qkv(16, 64, 8, seed=7)  # Python's hash, the values the page must make
    assert np.array_equal(before, Q)
    monkeypatch.setattr(examples, "VALUE_RANGE", (-5, 5))
    data.look_data.cache_clear()
    after = _Q(source="random", seed=7, T=16, h=8, dh=8)
    Q, _, _ = examples.example_qkv(16, 64, 8, seed=7, low=-5, high=5)
    assert np.array_equal(after, Q)
    assert after.min() == -5 and after.max() == 5  # 1024 values: the new ends are reached
    assert "small integers from \u22125 to 5" in _note(T=4)


def test_the_sections_a_view_may_list_reach_the_page(fresh_bundle, monkeypatch):
    # with "concat" no longer a section, the page has no section drawn for it: it is not drawn by a second list
    assert "concat" in [s["key"] for s in page_picture(al.explorer().page_config())["sections"]]
    monkeypatch.setattr(data, "SECTIONS", tuple(s for s in data.SECTIONS if s != "concat"))
    data.look_data.cache_clear()
    assert "concat" not in [s["key"] for s in page_picture(al.explorer().page_config())["sections"]]


def _heatmap(key, **kwargs):  # -> the page's heatmap of that key ("Q@0": Q; "P@0": Head 1's P)
    pic = page_picture(al.explorer(**kwargs).page_config())
    return next(it for s in pic["sections"] for it in s["items"] if it["key"] == key)


def _fill_at(kind, unit):  # the colour table's entry for a place on the scale (0 … 1), as look.colors documents it
    table = colors.colour_tables()[kind]["fill"]
    return table[min(int(unit * len(table)), len(table) - 1)]


def test_a_scale_that_follows_the_values_reaches_least_vmax_from_python(fresh_bundle, monkeypatch):
    monkeypatch.setattr(colors, "LEAST_VMAX", 8.0)  # the article's Q lies in −2 … 2: the scale is now ±8
    data.look_data.cache_clear()
    Q = _heatmap("Q@0")
    values = examples.ARTICLE_Q.ravel()
    assert Q["fill"] == [_fill_at("values", (x + 8) / 16) for x in values]
    assert len(set(Q["fill"])) > 1


def test_a_kinds_fixed_scale_comes_from_python(fresh_bundle, monkeypatch):
    monkeypatch.setattr(colors, "FIXED_RANGES", {"weights": (0.0, 2.0)})  # weights 0 … 1 now fill half the scale
    data.look_data.cache_clear()
    P = _heatmap("P@0")
    first_row = P["fill"][:P["cols"]]  # causal: Query token 1 sees Key token 1 only, weights [1, 0, 0]
    assert first_row == [_fill_at("weights", 0.5), _fill_at("weights", 0.0), _fill_at("weights", 0.0)]


def test_the_pickers_each_breakdown_follows_come_from_python(fresh_bundle, monkeypatch):
    assert _heatmap("S@0")["hl"] == [2, 0]  # the dot product's cell: Query token 3 · Key token 1
    assert _heatmap("P@0")["hl"] == [2, None]  # the softmax's row 3
    monkeypatch.setattr(views, "PICKS", {"dot": ("query",), "softmax": (), "weighted_sum": ()})
    data.look_data.cache_clear()
    assert _heatmap("S@0")["hl"] is None  # no Key token picked: no cell to mark
    assert _heatmap("P@0")["hl"] is None


# What a view draws and offers (views.View's flags) is computed once in Python and sent with the view
# (views.view_data); the page derives none of it. Each test changes one flag's rule and the page must follow.

def _sections(view, **state):  # -> [(section key, [item keys])]: what the page draws for an explorer of `view`
    config = al.explorer(view=view).page_config()
    pic = page_picture({**config, "state": {**config["state"], **state}})
    return [(s["key"], [it["key"] for it in s["items"]]) for s in pic["sections"]]


def test_which_stages_a_head_draws_and_which_are_drawn_once_come_from_python(fresh_bundle, monkeypatch):
    head = [("head@0", ["S_masked@0", "E@0", "P@0", "softmax@0"])]
    assert _sections("softmax") == head
    whole_trace = views.whole_trace
    monkeypatch.setattr(views, "whole_trace", lambda name: name == "P" or whole_trace(name))  # P drawn once
    assert _sections("softmax") == [("head@0", ["S_masked@0", "E@0", "softmax@0"]), ("P", ["P@0"])]


def test_which_stages_all_heads_compares_comes_from_python(fresh_bundle, monkeypatch):
    assert _sections("scores", head=-1) == [("compare", ["S@0", "S@1"])]
    # only the weights may be put side by side: the scores view has none, so "all heads" draws each head's section
    monkeypatch.setattr(views.View, "compared",
                        property(lambda v: tuple(x for x in v.head_stages if STAGES[x].kind == "weights")))
    assert _sections("scores", head=-1) == [("head@0", ["S@0", "dot@0"]), ("head@1", ["S@1", "dot@1"])]
    assert _sections("all", head=-1)[1] == ("compare", ["P@0", "P@1"])  # a view with weights still compares


def _titles(**kwargs):  # -> the page's breakdown titles, Query token 12 and Key token 1 picked
    ex = al.explorer(lang="ko", T=16, **kwargs)
    ex.controls["query"].value = 11
    pic = page_picture(ex.page_config())
    return [it["title"] for s in pic["sections"] for it in s["items"] if it.get("type") != "heatmap"]


def test_the_ordinals_reach_the_page_from_words(fresh_bundle, monkeypatch):
    assert _titles()[0] == "열두 번째 Query 토큰과 첫 번째 Key 토큰의 점수"  # as Korean writes 12th and 1st
    monkeypatch.setattr(words, "ordinal", lambda n, lang: f"<{n}>")
    data.look_data.cache_clear()
    assert _titles()[0] == "<12> Query 토큰과 <1> Key 토큰의 점수"
