"""A weight the row sees never reads like a masked cell, even one that underflows to 0.0 (issue 27, fifth fuzz round).

e^(−745) is below the smallest float: where two scaled scores of one row differ by 745 or more, the smaller one's
weight is exactly 0.0, the value of a masked cell's weight. The label takes the mask: a masked cell reads "0", a
weight the row sees that rounds to 0 (0.0 included) reads "0.000", on every stage and breakdown that shows weights
(E, P, P_unscaled, the softmax table's exponentials and weights, the weighted sum's weights), in the page (its own
code run in Node.js: tests/frontend.py) and in the figures and the deck. A kept zero is never "= 0.000": it stands
for a weight above 0.

The reference is the test's own: the mask arrays are written here, the weights computed by plain loops, and the
labels a person expects are written out by hand for the worked example (`EXPECTED`); `wrong_zero_labels` checks
any labelling against the weights and the mask, and refuses a catalogue of wrong ones.
"""

import math
import re
from html import unescape

import numpy as np
import pytest
from frontend import page_picture

import attention_lab as al
from attention_lab import figures
from attention_lab.figures import deck

# Query tokens all [10, 0]; Key tokens [150, 0], [−20, 0], [120, 0]: scaled scores 1060.66, −141.42 and 848.53 in
# every row. Key token 2 is 1202 below Key token 1 (e^−1202 is 0.0), Key token 3 is 212 below (e^−212 ≈ 7e−93, a
# tiny weight). e^1060.66 overflows, so the softmax table shows e^(s − m).
Q = np.array([[10.0, 0.0]] * 3)
K = np.array([[150.0, 0.0], [-20.0, 0.0], [120.0, 0.0]])
V = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
CAUSAL = np.array([[True, False, False], [True, True, False], [True, True, True]])  # bottom-right, T_q = T_k
EVERY_KEY = np.ones((3, 3), bool)
# The labels of P (and E, P_unscaled: the same zeros) as a person reads them: masked "0", seen and too small "0.000".
EXPECTED = {"causal": [["1", "0", "0"], ["1", "0.000", "0"], ["1", "0.000", "0.000"]],
            "every key": [["1", "0.000", "0.000"]] * 3}
MASKS = {"causal": CAUSAL, "every key": EVERY_KEY}


def plain_weights(allowed, scaled=True):  # -> [T_q, T_k]: softmax rows by plain loops, shifted by the row's max
    out = []
    for i, q in enumerate(Q):
        s = [sum(a * b for a, b in zip(q, k, strict=True)) / (math.sqrt(len(q)) if scaled else 1) for k in K]
        m = max(x for x, seen in zip(s, allowed[i], strict=True) if seen)
        e = [math.exp(x - m) if seen else 0.0 for x, seen in zip(s, allowed[i], strict=True)]
        out.append([x / sum(e) for x in e])
    return np.array(out)


def wrong_zero_labels(labels, weights, allowed):  # -> [(i, j, label, weight)] of the cells labelled wrongly
    """A masked cell (its weight must be 0.0) reads "0"; a cell the row sees reads "0.000" where its weight rounds to
    0 at 3 decimals (0.0 included), else its weight to 3 decimals, never "0"."""
    wrong = []
    for i, row in enumerate(labels):
        for j, label in enumerate(row):
            w = float(weights[i][j])
            if not allowed[i][j]:
                ok = w == 0.0 and label == "0"
            elif w < 0.0005:
                ok = label == "0.000"
            else:
                ok = label not in ("0", "0.000") and abs(float(label) - w) <= 0.0005 + 1e-12
            if not ok:
                wrong.append((i, j, label, w))
    return wrong


def test_the_reference_weights_underflow_where_the_example_says():
    for name, allowed in MASKS.items():
        P = plain_weights(allowed)
        assert (P[allowed & (K[:, 0] == -20)[None, :]] == 0.0).all(), name  # seen, and exactly 0.0
        assert 0 < P[2, 2] < 1e-90 and wrong_zero_labels(EXPECTED[name], P, allowed) == [], name


def test_the_check_refuses_a_catalogue_of_wrong_labellings():
    P = plain_weights(CAUSAL)
    catalogue = {
        "a seen 0.0 weight as a masked cell's 0 (the defect)": (1, 1, "0"),
        "a masked cell as a seen weight's 0.000": (0, 1, "0.000"),
        "a tiny seen weight as 0": (2, 2, "0"),
        "a masked cell as −∞": (0, 2, "−∞"),
        "the weight 1 as 0.000": (0, 0, "0.000"),
        "a seen 0.0 weight as 0.001": (2, 1, "0.001"),
    }
    for name, (i, j, label) in catalogue.items():
        labels = [row[:] for row in EXPECTED["causal"]]
        labels[i][j] = label
        assert wrong_zero_labels(labels, P, CAUSAL), name
    before = [["1", "0", "0"], ["1", "0", "0"], ["1", "0", "0.000"]]  # what both sides showed before the fix
    assert [(i, j) for i, j, _, _ in wrong_zero_labels(before, P, CAUSAL)] == [(1, 1), (2, 1)]


def _cells(html):  # -> rows of the cells' texts of an HTML table (the header and total rows left out)
    return [[unescape(re.sub(r"<[^>]+>", "", c)).split() for c in re.findall(r"<td>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(<th>.*?)</tr>", html) if "<td>" in row]


def page_shows(allowed, row):  # -> {stage: labels}, the softmax table's (sign, exp), (sign, weight), the sum's
    ex = al.explorer(Q=Q, K=K, V=V, h=1, mask=allowed, view=["E", "P", "P_unscaled", "softmax", "weighted_sum"])
    pic = page_picture({**ex.page_config(), "state": {**ex.state, "row": row}})
    items = {it["name"]: it for s in pic["sections"] for it in s["items"]}
    shown = {name: np.array(items[name]["labels"]).reshape(3, 3).tolist() for name in ("E", "P", "P_unscaled")}
    table = _cells(items["softmax"]["html"])
    shown["exp"] = [(c[1][-2], c[1][-1]) for c in table]
    shown["softmax"] = [(c[2][-2], c[2][-1]) for c in table]
    wsum = items["weighted_sum"]["html"]
    shown["wsum"] = [c[0][0] for c in _cells(wsum)]
    shown["terms"] = re.findall(r"([^\s+]+)·V<sub>\d+</sub>", wsum)
    return shown


@pytest.mark.parametrize("name", MASKS)
def test_the_page_labels_a_seen_zero_weight_0_000_and_a_masked_one_0(name):
    allowed, want = MASKS[name], EXPECTED[name]
    weights = {"E": plain_weights(allowed) * 1.0, "P": plain_weights(allowed),
               "P_unscaled": plain_weights(allowed, scaled=False)}
    for row in range(3):
        shown = page_shows(allowed, row)
        for stage, w in weights.items():
            assert shown[stage] == want and wrong_zero_labels(shown[stage], w, allowed) == [], (stage, row)
        kept = [label == "0.000" for label in want[row]]
        signs = [("≈" if k else "=", label) for k, label in zip(kept, want[row], strict=True)]
        assert shown["softmax"] == signs, row
        # e^(s − m): 1 for Key token 1, e^−1202 = 0.0 for Key token 2, e^−212 (7e−93) for Key token 3, 0 if masked
        exps = [("=", "1"), ("≈", "0.000") if allowed[row][1] else ("=", "0"),
                ("≈", "7.451×10⁻⁹³") if allowed[row][2] else ("=", "0")]  # e^−212 is 7.4505…×10⁻⁹³: rounded
        assert shown["exp"] == exps, row
        assert shown["wsum"] == shown["terms"] == want[row], row


def figure_texts(fig):  # -> {axes title: [its texts]}
    return {ax.get_title(): [t.get_text() for t in ax.texts] for ax in fig.axes if ax.get_title()}


ROWS = {"causal": [1, 2], "every key": [0]}  # rows with a seen 0.0 weight (row 1 of the causal mask has none)


@pytest.mark.parametrize("name", MASKS)
def test_the_figures_and_the_deck_label_a_seen_zero_weight_0_000_and_a_masked_one_0(name):
    import matplotlib.pyplot as plt

    allowed, want = MASKS[name], EXPECTED[name]
    tr = al.attention_trace(Q, K, V, 1, mask=allowed)
    for row in ROWS[name]:
        seen = [j for j in range(3) if allowed[row][j]]
        exps = ["1", "0.000" if allowed[row][1] else "0", "7.451×10⁻⁹³" if allowed[row][2] else "0"]
        texts = figure_texts(figures.figure_softmax(tr, row=row))
        assert np.array(texts["P"]).reshape(3, 3).tolist() == want, row
        table = next(t for title, t in texts.items() if "score → exp → weight" in title)
        assert table[6:9] == exps and table[10:13] == want[row], (row, table)
        fig = figures.figure_weighted_sum(tr, row=row)
        headers = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels() if "× V[" in t.get_text()]
        assert headers == [f"{want[row][j]} × V[{j + 1}]" for j in seen], (row, headers)
        equation = " ".join(t.get_text() for ax in fig.axes for t in ax.texts)
        assert " + ".join(f"{want[row][j]}·V[{j + 1}]" for j in seen) in equation, row
        plt.close("all")
        pages = deck.pages(tr, "en", {"row": row})
        tables = [i.table for p in pages for i in p.items if isinstance(i, deck.Placed)]
        assert [list(r) for r in next(t for t in tables if t.name == "P").labels] == want
        steps = [t for t in tables if t.name == "softmax_row"]
        assert list(steps[-1].labels[1]) == exps and list(steps[-1].labels[2]) == want[row], row
        lines = " ".join(line for p in pages for i in p.items if isinstance(i, deck.Text) for line in i.lines)
        lines = lines.replace("\u00a0", " ")  # a term is kept on one line by no-break spaces
        assert "sum: " + " + ".join(exps[j] for j in seen) + " " in lines, row
        for j in range(3):  # the weighted sum's terms: one per Key token the row sees, a seen 0.0 weight as 0.000
            assert (f"{want[row][j]} × V[{j + 1}] =" in lines) == (j in seen), (row, j)


def test_the_decoding_steps_label_a_seen_zero_weight_0_000_and_a_masked_one_0():
    """The decode widget (its own code in Node.js) and its figure: P's row t over the cache, every key seen, and the
    whole trace's row t, keys after t masked."""
    import matplotlib.pyplot as plt

    tr = al.attention_trace(Q, K, V, 1, mask="causal")  # the one a KV cache takes: CAUSAL, by name
    assert np.array_equal(~np.isneginf(tr.M), CAUSAL)
    w = al.decode_view(tr)
    P = plain_weights(CAUSAL)
    for t in range(3):
        pic = page_picture({**w.page_config(), "state": {**w.state, "T": 3, "step": t}})
        panels = {p["name"]: p["labels"] for p in pic["panels"]}
        assert panels["P_row"] == EXPECTED["causal"][t][:t + 1] and panels["P_trace"] == EXPECTED["causal"][t], t
        assert wrong_zero_labels([panels["P_trace"]], P[t:t + 1], CAUSAL[t:t + 1]) == [], t
    fig = figures.figure_decode_steps(al.decode_steps(Q, K, V, 1))
    rows = [texts for title, texts in figure_texts(fig).items() if title.startswith("P[")]
    assert rows == [row[:t + 1] for t, row in enumerate(EXPECTED["causal"])]
    plt.close("all")


def test_every_figure_of_a_stage_of_weights_labels_a_seen_zero_0_000_and_a_masked_one_0():
    """The all-stages figures, the scaling figure (P without and with ÷ √dh) and a stage's heads (E, P)."""
    import matplotlib.pyplot as plt

    tr = al.attention_trace(Q, K, V, 1, mask=CAUSAL)
    want = [label for row in EXPECTED["causal"] for label in row]
    weights = {"P": plain_weights(CAUSAL), "E": plain_weights(CAUSAL), "P without": plain_weights(CAUSAL, False)}
    for fig in (figures.figure_stages(tr), figures.figure_all_heads(tr), figures.figure_scaling(tr),
                figures.figure_stage_heads(tr, "P"), figures.figure_stage_heads(tr, "E")):
        shown = {title: texts for title, texts in figure_texts(fig).items()
                 if re.match(r"(Head 1: )?(E =|P =|P without)", title)}
        assert shown, fig
        for title, texts in shown.items():
            stage = next(name for name in weights if name in title)
            assert texts == want, title
            labels = np.array(texts).reshape(3, 3).tolist()
            assert wrong_zero_labels(labels, weights[stage], CAUSAL) == [], title
        plt.close("all")



# "=" says a label shows its number as it is, "≈" that the label rounds it; worked out by hand, apart from the rule.
# A tiny number written in powers of ten read "=" however rounded (issue 27, sixth fuzz round): the tolerance was
# 1e-9 × max(1, |x|), so below 1e-9 every label passed. The catalogue is the "≈" rows a wrong rule writes as "=".
SIGNS = [(3.8151e-62, "3.815×10⁻⁶²", "≈"), (5.551115123125783e-17, "5.551×10⁻¹⁷", "≈"), (1.0000005e-3, "0.001", "≈"),
         (2.718281828459045, "2.718", "≈"), (8886110.52, "8.886×10⁶", "≈"), (1e-5, "0", "≈"),
         (2e-300, "2×10⁻³⁰⁰", "="), (1.25e-7, "1.25×10⁻⁷", "="), (0.30000000000000004, "0.3", "="),
         (5.551115123125783e-17, "0", "="), (1e-10, "0", "="), (-0.0, "0", "="), (4.0, "4", "="),
         (0.0, "0.000", "≈"), (2**-1074, "4.941×10⁻³²⁴", "≈"), (-1.5, "−1.5", "=")]


def test_equals_or_about_is_true_to_the_label_on_both_sides():
    from attention_lab.look.formats import equals

    want = [sign for *_, sign in SIGNS]
    mine = [equals(x, label) for x, label, _ in SIGNS]
    page = page_picture({"call": "(a) => equalsSign(a[0], String.fromCodePoint(...a.slice(1)))",
                         "args": [[x, *map(ord, label)] for x, label, _ in SIGNS]})
    assert (mine, page) == (want, want)
