"""What the browser gets once (live/data.py): mask tables that hold every value a control offers, whose rows at
the Query rows' positions are the mask for fewer Query tokens, and the example values at the largest sizes."""

import itertools
import random

import numpy as np
import pytest

from attention_lab.live import data
from attention_lab.live.views import LIMITS
from attention_lab.numeric import masks
from attention_lab.numeric.examples import example_qkv


def rows_of(hex_rows, T):  # the page's reading of a table (compute.js: rowsOf)
    bits = [int(hex_rows[4 * r:4 * r + 4], 16) for r in range(len(hex_rows) // 4)]
    return np.array([[(b >> j) & 1 == 1 for j in range(T)] for b in bits])


@pytest.mark.parametrize("name", masks.MASK_NAMES)
def test_a_masks_tables_hold_every_offered_value_and_its_rows_are_the_mask_for_fewer_queries(name):
    kind, tables = masks.MASKS[name], data.mask_tables(name)
    rng = random.Random(name)
    for T in range(1, LIMITS["T"][1] + 1):
        combos = list(itertools.product(*(p.values(T) for p in kind.params)))
        assert sorted(tables["tables"][T - 1]) == sorted(";".join(map(data.param_key, c)) for c in combos)
        for values in rng.sample(combos, min(4, len(combos))):
            params = {p.name: v for p, v in zip(kind.params, values, strict=True)}
            square = rows_of(tables["tables"][T - 1][";".join(map(data.param_key, values))], T)
            for T_q in range(1, T + 1):
                for align in masks.ALIGNS:
                    first = T - T_q if align == "bottom-right" else 0
                    want = masks.Mask(name, align=align, **params).allowed(T_q, T)
                    np.testing.assert_array_equal(square[first:first + T_q], want, err_msg=f"{params} {T_q} {align}")


def test_a_new_mask_travels_to_the_page_with_no_edit(new_entries):
    data.mask_tables.cache_clear()
    try:
        assert "stripe" in data.explorer_data(masks.MASK_NAMES)["masks"]
        np.testing.assert_array_equal(rows_of(data.mask_tables("stripe")["tables"][4]["3"], 5),
                                      masks.Mask("stripe", seed=3).allowed(5, 5))
    finally:
        data.mask_tables.cache_clear()


def test_the_example_values_at_the_largest_sizes_hold_every_smaller_example():
    T, h, dh = (LIMITS[n][1] for n in ("T", "h", "dh"))
    big = {n: np.array(v).reshape(T, h, dh) for n, v in data.article_values().items()}
    for t, heads, c, g in ((3, 2, 4, 2), (5, 4, 3, 2), (16, 8, 8, 1), (1, 1, 1, 1)):
        Q, K, V = example_qkv(t, heads * c, heads, kv_heads=g)
        np.testing.assert_array_equal(big["Q"][:t, :heads, :c].reshape(t, -1), Q)
        np.testing.assert_array_equal(big["K"][:t, :g, :c].reshape(t, -1), K)
        np.testing.assert_array_equal(big["V"][:t, :g, :c].reshape(t, -1), V)
