"""What the browser gets once (live/data.py): mask tables that hold every value a control offers, which the page
reads (in Chromium) as the registry's rule gives them for fewer Query tokens in both alignments, and the example
values at the largest sizes."""

import itertools
import json
import random
import shutil
import subprocess

import numpy as np
import pytest

import attention_lab as al
from attention_lab.live import data
from attention_lab.live import page as pages
from attention_lab.live.views import LIMITS
from attention_lab.numeric import masks
from attention_lab.numeric.examples import example_qkv


def sample_cases(rng, name, per_mask=12):  # -> [(on, Mask)]: what the page is asked for, and the registry's answer
    kind, out = masks.MASKS[name], []
    for _ in range(per_mask):
        T = rng.randint(1, LIMITS["T"][1])
        values = rng.choice(list(itertools.product(*(p.values(T) for p in kind.params))))
        T_q, align = rng.randint(1, T), rng.choice(masks.ALIGNS)
        on = {"mask": name, "T": T, "T_q": T_q, "align": align, "params": [list(v) if isinstance(v, tuple) else v
                                                                            for v in values]}
        out.append((on, masks.Mask(name, align=align, **{p.name: v for p, v in zip(kind.params, values,
                                                                                     strict=True)})))
    return out


def page_allowed(browser, tmp_path, mask_data, cases):  # -> [T_q × T_k bool] as the page reads the tables
    path = tmp_path / "masks.html"
    path.write_text(pages.standalone_html(al.explorer(view="scores").page_config()), encoding="utf-8")
    page = browser.new_page()
    page.goto(path.as_uri())
    got = page.evaluate("([data, ons]) => ons.map((on) => attentionLab.allowedOf(data, on))",
                        [mask_data, [on for on, _ in cases]])
    page.close()
    return got


@pytest.mark.parametrize("name", masks.MASK_NAMES)
def test_a_masks_tables_hold_every_value_its_controls_offer(name):
    kind, tables = masks.MASKS[name], data.mask_tables(name)
    for T in range(1, LIMITS["T"][1] + 1):
        for combo in itertools.product(*(p.values(T) for p in kind.params)):
            key = ";".join(map(data.param_key, combo))
            rows = tables["tables"][f"{T}|{key}" if tables["byT"] else key]
            assert len(rows) >= 4 * T, (T, key)


def test_a_rule_that_ignores_T_keeps_one_table_per_value_and_one_that_reads_T_a_table_per_T(monkeypatch):
    """The corner of a larger table is the smaller one only when the rule ignores T: a scratch rule that reads T
    (the last half of the Key tokens) is stored per T, and its 4-token table is that rule by hand."""
    assert not data.mask_tables("window")["byT"] and len(data.mask_tables("window")["tables"]) == 16 * 16
    assert not data.mask_tables("causal")["byT"] and len(data.mask_tables("causal")["tables"]) == 1
    monkeypatch.setitem(masks.MASKS, "last_half", masks.MaskKind("last_half", lambda p, j, T: j >= T // 2))
    monkeypatch.setattr(masks, "MASK_NAMES", (*masks.MASK_NAMES, "last_half"))
    data.mask_tables.cache_clear()
    try:
        tables = data.mask_tables("last_half")
        assert tables["byT"] and sorted(tables["tables"]) == sorted(f"{T}|" for T in range(1, LIMITS["T"][1] + 1))
        assert tables["tables"]["4|"] == "000c" * 4  # j ≥ 2 of 4: bits 2 and 3
    finally:
        data.mask_tables.cache_clear()


def test_the_page_reads_every_masks_rows_as_the_registrys_rule_gives_them(browser, tmp_path):
    """For random sizes, parameters, fewer Query tokens and both alignments: the page's rows from the tables are
    Mask(...).allowed(T_q, T_k), the registry's rule over positions."""
    rng = random.Random(32)
    cases = [case for name in masks.MASK_NAMES for case in sample_cases(rng, name)]
    got = page_allowed(browser, tmp_path, data.explorer_data(masks.MASK_NAMES), cases)
    for (on, mask), rows in zip(cases, got, strict=True):
        np.testing.assert_array_equal(rows, mask.allowed(on["T_q"], on["T"]), err_msg=str(on))


def test_a_new_mask_travels_to_the_page_with_no_edit(browser, tmp_path, new_entries):
    data.mask_tables.cache_clear()
    try:
        mask_data = data.explorer_data(masks.MASK_NAMES)
        assert "stripe" in mask_data["masks"]
        cases = sample_cases(random.Random(1), "stripe")
        for (on, mask), rows in zip(cases, page_allowed(browser, tmp_path, mask_data, cases), strict=True):
            np.testing.assert_array_equal(rows, mask.allowed(on["T_q"], on["T"]), err_msg=str(on))
    finally:
        data.mask_tables.cache_clear()


def page_article_values():  # -> {"Q", "K", "V"}: (T, h, dh) at the largest sizes, as compute.js makes them
    """The article's example as the page grows it from what an explorer stores (its corner and stream), run in
    Node.js: compute.js with the bundle's LOOK before it, as the bundle joins them."""
    sizes = {n: LIMITS[n][1] for n in ("T", "h", "dh")}
    script = (f"const LOOK = {json.dumps(data.look_data())};\n{(pages.HERE / 'compute.js').read_text(encoding='utf-8')}"
              f"\nconst a = {json.dumps(data.article_values())};\n"
              f"const v = seedValues(BigInt(a.stream), {json.dumps(sizes)}, {{...a.corner, sizes: a.cornerSizes}});\n"
              "console.log(JSON.stringify(v));")
    out = subprocess.run([shutil.which("node"), "-e", script], capture_output=True, text=True, check=True, timeout=60)
    return {n: np.array(v).reshape(sizes["T"], sizes["h"], sizes["dh"]) for n, v in json.loads(out.stdout).items()}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run live/compute.js")
def test_the_example_values_the_page_makes_at_the_largest_sizes_hold_every_smaller_example():
    big = page_article_values()
    assert len(json.dumps(data.article_values())) < 1_000  # what a stored explorer keeps of them
    for t, heads, c, g in ((3, 2, 4, 2), (5, 4, 3, 2), (16, 8, 8, 1), (1, 1, 1, 1)):
        Q, K, V = example_qkv(t, heads * c, heads, kv_heads=g)
        np.testing.assert_array_equal(big["Q"][:t, :heads, :c].reshape(t, -1), Q)
        np.testing.assert_array_equal(big["K"][:t, :g, :c].reshape(t, -1), K)
        np.testing.assert_array_equal(big["V"][:t, :g, :c].reshape(t, -1), V)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run live/compute.js")
def test_the_pages_example_values_are_remembered_per_seed_sizes_and_corner_not_per_seed_alone():
    """One page can ask for the same seed at two largest sizes, or for the article's stream with and without its
    corner: each answer is its own, as Python makes it (examples._grid), whatever was asked before it."""
    from attention_lab.numeric.examples import ARTICLE_STREAM, _grid

    small, big = {"T": 3, "h": 2, "dh": 4}, {n: LIMITS[n][1] for n in ("T", "h", "dh")}
    stream = f"{ARTICLE_STREAM}n"  # a BigInt, as the page passes the article's stream
    calls = [("7", small, False), ("7", big, False), (stream, big, True), (stream, big, False)]
    script = (f"const LOOK = {json.dumps(data.look_data())};\n{(pages.HERE / 'compute.js').read_text(encoding='utf-8')}"
              f"\nconst a = {json.dumps(data.article_values())};\nconst out = [];\n"
              + "".join(f"out.push(seedValues({seed}, {json.dumps(sizes)}"
                        + (", {...a.corner, sizes: a.cornerSizes}" if corner else "") + "));\n"
                        for seed, sizes, corner in calls)
              + "console.log(JSON.stringify(out));")
    out = subprocess.run([shutil.which("node"), "-e", script], capture_output=True, text=True, check=True, timeout=60)
    article = dict(zip("QKV", example_qkv(big["T"], big["h"] * big["dh"], big["h"]), strict=True))
    for (seed, sizes, corner), got in zip(calls, json.loads(out.stdout), strict=True):
        for name in "QKV":
            grown = _grid(name, int(seed.rstrip("n")), sizes["T"], sizes["h"], sizes["dh"], -2, 2)
            want = article[name] if corner else grown
            np.testing.assert_array_equal(np.array(got[name]).reshape(sizes["T"], -1), want, err_msg=(seed, name))
