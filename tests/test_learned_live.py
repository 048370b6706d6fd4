"""Notebook 13's learned model live in the page (issue 30 item 6): the page reads a typed input by Python's rule,
makes X → Q, K, V as numeric/tiny_model.py does, and then shows the model's trace, cell by cell as tests/page_cells.py
labels it.

The reference for Q, K, V is `tiny_model.forward` (the model notebook 13 trains); the page's learned.js is a
second, independent implementation of its embedding and projections. Wrong inputs come first.
"""

import numpy as np
import pytest
from frontend import page_picture
from reference import reference_attention
from test_live_parity import READ, expected_controls, expected_heatmaps, seen_controls

import attention_lab as al
from attention_lab.live import page as pages
from attention_lab.live.controls import control_specs
from attention_lab.live.learned import learned_explorer, parse_tokens, problem_text
from attention_lab.live.state import resolve, trace_of
from attention_lab.numeric import tiny_model as tm
from attention_lab.numeric import training

# typed -> the tokens it is, or the problem (message key, detail) both sides must name
TOKEN_CASES = [
    ("", ["learned_count", 0]),
    ("   ", ["learned_count", 0]),
    ("ABCDA", ["learned_count", 5]),
    ("ABCDABC", ["learned_count", 7]),
    ("ABCDABCDABCD", ["learned_count", 12]),
    ("CABDDX", ["learned_letters", "X"]),
    ("CAB DDA", ["learned_letters", " "]),
    ("1ABCDA", ["learned_letters", "1"]),
    ("ÄBCDAB", ["learned_letters", "Ä"]),
    ("A,B,C,D,A,B", ["learned_letters", ","]),
    ("EEEEEE", ["learned_letters", "E"]),
    ("XYZXYZ", ["learned_letters", "XYZ"]),
    ("abcdx", ["learned_letters", "x"]),  # a bad letter is named, as typed, before the count
    ("\ufeffCABDDA", ["learned_letters", "\ufeff"]),  # a byte-order mark is no blank (JavaScript's trim() drops it)
    ("CABDDA\x1c", ["learned_letters", "\x1c"]),  # nor a file separator (Python's strip() drops it)
    ("CAB\u0085", ["learned_letters", "\u0085"]),
    ("CABDßA", ["learned_letters", "ß"]),  # upper-cased, ß would be two letters, SS
    ("C\u0301ABDDA", ["learned_letters", "\u0301"]),  # a combining accent
    ("CABDD😀", ["learned_letters", "😀"]),  # two UTF-16 units, one character
    ("ＡＢＣＤＡＢＣ", ["learned_count", 7]),
    ("CABDDA", "CABDDA"),
    ("cabdda", "CABDDA"),
    (" dDaBcA\t", "DDABCA"),
    ("ＣＡＢｄｄａ", "CABDDA"),  # full width, as a Korean input method types letters
    ("\u3000CABDDA\u00a0\n", "CABDDA"),  # the ideographic and the no-break space
]


def test_a_typed_input_is_read_by_one_rule_in_python_and_in_the_page(browser, tmp_path):
    for typed, want in TOKEN_CASES:
        tokens, problem = parse_tokens(typed)
        assert (list(problem) if problem else tm.decode(tokens)) == want, typed
        if problem:  # the model's own reader refuses it too
            with pytest.raises(ValueError, match="tokens:"):
                tm.encode(typed)
        else:
            assert tm.decode(tm.encode(typed)) == want
    path = tmp_path / "learned.html"
    path.write_text(pages.standalone_html(learned_explorer().page_config()), encoding="utf-8")
    page = browser.new_page()
    page.goto(path.as_uri())
    got = page.evaluate("""(cases) => { const learned = attentionLab.mounted[0].data.learned;
        return cases.map((typed) => attentionLab.parseTokens(typed, learned)); }""", [t for t, _ in TOKEN_CASES])
    for (typed, want), (letters, problem) in zip(TOKEN_CASES, got, strict=True):
        assert (problem if problem else letters) == want, typed
    page.close()


CAUSAL = [[j <= i for j in range(tm.T)] for i in range(tm.T)]


def test_every_stage_in_the_page_is_pythons_for_random_inputs(browser, tmp_path):
    weights = training.load_weights()
    rng = np.random.default_rng(13)
    inputs = ["CABDDA"] + [tm.decode(x) for x in rng.integers(0, len(tm.TOKENS), (6, tm.T))]
    for lang in ("en", "ko"):
        ex = learned_explorer("CABDDA", lang=lang)
        path = tmp_path / f"learned-{lang}.html"
        path.write_text(pages.standalone_html(ex.page_config()), encoding="utf-8")
        page = browser.new_page(viewport={"width": 1900, "height": 1000})  # wide: every heatmap shows its numbers
        errors = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(path.as_uri())
        L = al.words.table(lang)
        qkv = page.evaluate("""(inputs) => { const learned = attentionLab.mounted[0].data.learned;
            return inputs.map((x) => attentionLab.learnedQKV(x, learned)); }""", inputs)
        for x, got in zip(inputs, qkv, strict=True):
            run = tm.forward(weights, tm.encode(x))
            for name in "QKV":
                np.testing.assert_allclose(got[name], run[name][0], rtol=0, atol=1e-12, err_msg=f"{x} {name}")
        box = page.locator('[data-control="tokens"]')
        for k, x in enumerate(inputs):
            typed = x.lower() if k % 2 else x  # either case, as a learner types
            box.fill(typed)
            box.press("Enter")
            ex.controls["tokens"].value = typed
            assert ex.controls["tokens"].value == x
            run = tm.forward(weights, tm.encode(x))  # Q, K, V: held to plain loops in test_tiny_model
            P, _ = reference_attention(*(run[n][0].tolist() for n in "QKV"), 2, CAUSAL)  # P: plain loops too
            np.testing.assert_allclose(ex.trace.P, P, rtol=0, atol=1e-12)
            # the heatmaps below the screen are drawn when they scroll near (heatmap.js): draw them all to read them
            found = page.evaluate("(read) => { attentionLab.mounted[0].draw(true); return eval(read)(); }", READ)
            assert not errors, errors
            pic = page_picture(ex.page_config())
            assert found["note"] == pic["note"] == L["note_learned"]
            want = expected_heatmaps(pic, L, trace_of(resolve(ex.state, ex.view, ex._own), ex._own), ex.view)
            assert [h["key"] for h in found["heatmaps"]] == [h["key"] for h in want], x
            for got, expected in zip(found["heatmaps"], want, strict=True):
                assert got == expected, (x, got["key"])
            specs = control_specs(ex.view, ex.state, resolve(ex.state, ex.view, ex._own), lang, ex._own)
            assert seen_controls(found["controls"]) == expected_controls(specs), x
            held = page.evaluate("() => attentionLab.mounted[0].model.get('own')")
            assert held["tokens"] == x and np.allclose(held["Q"], ex._own["Q"], rtol=0, atol=1e-12)
        page.close()


def test_a_wrong_input_changes_nothing_and_is_named_in_the_pages_language(browser, tmp_path):
    for lang in ("en", "ko"):
        ex = learned_explorer("CABDDA", lang=lang)
        path = tmp_path / f"wrong-{lang}.html"
        path.write_text(pages.standalone_html(ex.page_config()), encoding="utf-8")
        page = browser.new_page()
        page.goto(path.as_uri())
        before = page.evaluate(READ)
        box = page.locator('[data-control="tokens"]')
        for typed, want in TOKEN_CASES:
            if isinstance(want, str):
                continue
            box.fill(typed)
            box.press("Enter")
            said = page.locator('[data-control="tokens"]').locator("xpath=../following-sibling::span[1]")
            assert said.text_content() == problem_text(want, lang), typed
            assert box.input_value() == "CABDDA"  # the box shows the input on screen again
            after = page.evaluate(READ)
            assert after["heatmaps"] == before["heatmaps"] and after["step"] == before["step"], typed
            assert page.evaluate("() => attentionLab.mounted[0].model.get('own')") in (None, {}), typed
            with pytest.raises(ValueError, match="^tokens: "):
                ex.controls["tokens"].value = typed
        assert ex.controls["tokens"].value == "CABDDA" and ex.step == 0
        page.close()


def test_the_learned_explorer_refuses_what_the_model_cannot_take():
    for bad in ("", "ABCDABC", "CABDDX"):
        with pytest.raises(ValueError, match="^tokens: "):
            learned_explorer(bad)
    with pytest.raises(ValueError, match="W_Q"):
        learned_explorer(weights={**training.load_weights(), "W_Q": np.zeros((8, 3))})
    ex = learned_explorer("ddabca")
    assert ex.source == "learned" and ex.controls["tokens"].value == "DDABCA"
    # S of DDABCA summed column by column here, from the model's Q and K (held to plain loops in test_tiny_model),
    # not tm.trace's S, which the same core functions compute from the same Q and K
    run = tm.forward(training.load_weights(), tm.encode("DDABCA"))
    Q, K, h = run["Q"][0], run["K"][0], run["h"]
    dh = Q.shape[1] // h
    S = [[[sum(Q[i, c] * K[j, c] for c in range(head * dh, (head + 1) * dh)) for j in range(tm.T)]
          for i in range(tm.T)] for head in range(h)]
    np.testing.assert_allclose(ex.trace.S, S, rtol=0, atol=1e-12)


@pytest.mark.parametrize("argv, words", [
    (["--learned", "CABDDX"], "--learned: letters ['X']"),  # the option as typed, not the function's `tokens`
    (["--learned", ""], "--learned: it has 0 letters"),
    (["--learned", "CABDDA", "--T", "4"], "--learned: the learned model's sizes and numbers are its own"),
    (["--learned", "CABDDA", "--seed", "3"], "leave out --seed"),
    # each option named as the user types it, and none accepted only to be ignored
    (["--learned", "CABDDA", "--kv-heads", "1"], "leave out --kv-heads."),
    (["--learned", "CABDDA", "--align", "top-left"], "leave out --align."),
    (["--learned", "CABDDA", "--align", "bottom-right"], "leave out --align."),
])
def test_the_page_command_refuses_a_wrong_learned_input_in_one_line(argv, words, capsys, tmp_path):
    from attention_lab.live.command import main

    out = tmp_path / "learned.html"
    assert main(["--out", str(out), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
    assert not out.exists()


def test_the_page_command_writes_the_learned_model_live(capsys, tmp_path):
    from attention_lab.live.command import main

    out = tmp_path / "learned.html"
    assert main(["--out", str(out), "--learned", "abcdab", "--lang", "ko"]) == 0
    html = out.read_text(encoding="utf-8")
    assert '"tokens":"ABCDAB"' in html and '"learned":' in html and 'lang="ko"' in html


def test_enter_on_the_row_boxs_own_rounded_text_changes_no_number(browser, tmp_path):
    """Issue 27, third fuzz round: Enter in the row box as the page filled it (rounded: 2.401) rewrote the learned
    row with those numbers and moved 7 cells' last digit. Now nothing changes; a typed row still edits."""
    path = tmp_path / "learned.html"
    path.write_text(pages.standalone_html(learned_explorer("CABDDA").page_config()), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1900, "height": 1000})
    page.goto(path.as_uri())

    def read():
        return page.evaluate("(read) => { attentionLab.mounted[0].draw(true); return eval(read)(); }", READ)

    def own():
        return page.evaluate("() => attentionLab.mounted[0].data.own")

    before, rows = read(), own()
    box = page.locator('[data-control="edit_row"]')
    box.press("Enter")
    assert own() == rows and read()["heatmaps"] == before["heatmaps"]
    box.fill("1, 2, 3, 4, 5, 6, 7, 8")
    box.press("Enter")
    assert own()["Q"][-1] == [1, 2, 3, 4, 5, 6, 7, 8] and read()["heatmaps"] != before["heatmaps"]
    page.close()
