"""The step widgets of notebooks 10 and 11: their records for every size, what they show, their words and errors.

The page is the one renderer of what a step widget shows (live/steppers.js): the first tests read the records in
Python and the page's picture of them, its own code run in Node.js on the config the widget sends
(tests/frontend.py: `shows(w)`); the last ones open the widget's page in headless Chromium, move its controls with
the keyboard and the mouse, and compare every cell with the records' numbers through page_cells, and every title,
note and row of the trail with the front-end's picture of the page's own state.
"""

import re

import numpy as np
import pytest
from frontend import page_picture
from page_cells import cells
from reference import reference_attention

import attention_lab as al
from attention_lab.live import page, stepper_data
from attention_lab.look import NEG_INF_LABEL, format_value
from attention_lab.look.words import steppers as stepper_words

WEIGHTS_3 = ["0.114", "0.042", "0.844"]  # the article's row 3 of P


def shows(w):  # -> what the page draws for the widget as it is now (tests/frontend.py)
    return page_picture(w.page_config())


def panel_of(picture, name):  # -> one heatmap of the picture
    return next(p for p in picture["panels"] if p["name"] == name)


def panel(picture, name):  # -> the labels of one heatmap of the picture
    return panel_of(picture, name)["labels"]


def words_of(picture):
    return " ".join([picture["title"], *picture["notes"]])


# ---- the decode widget (notebook 10)


def test_decode_starts_at_the_first_step_of_the_articles_example():
    w = al.decode_view()
    assert w.state == {"T": 3, "step": 0, "head": 0} and w.data["Tmax"] == 8  # the T slider ends at 8 (9 refused)
    p = shows(w)
    assert p["title"] == "Head 1 · Step 1 of 3: the output at position 1"
    assert panel(p, "K_cache") == ["1", "−1", "2", "1"] and panel(p, "P_row") == ["1"]


def test_decode_step_3_is_the_articles_row_and_the_full_computations():
    w = al.decode_view()
    w.step = 2
    p = shows(w)
    assert panel(p, "q") == ["−1", "1", "1", "2"]  # token 3's Query: the only Query row of this step
    assert len(panel(p, "K_cache")) == 3 * 4 == len(panel(p, "V_cache"))  # the cache: 3 tokens of Head 1
    assert panel(p, "S_scaled_row") == ["1", "0", "3"]
    assert panel(p, "P_row") == WEIGHTS_3 == panel(p, "P_trace")
    assert panel(p, "O_row") == [*WEIGHTS_3, "1"]
    said = words_of(p)
    assert "48 values counting all 2 K/V heads, 24 of them in Head 1" in said  # the count covers both heads
    assert "equals row 3 of P computed all at once" in said


def test_decode_words_say_what_a_step_computes():
    """Step t computes position t's output, which predicts the next token; it does not 'generate token t'."""
    for lang, position, predicts in (("en", "the output at position 2", "from which the next token is predicted"),
                                     ("ko", "위치 2의 출력", "이 출력으로 다음 토큰을 예측합니다")):
        w = al.decode_view(lang=lang)
        w.step = 1
        said = words_of(shows(w))
        assert position in said and predicts in said
        assert not re.search(r"generat|만들기", said)


@pytest.mark.parametrize("T", range(1, stepper_data.MAX_T + 1))
def test_every_T_the_slider_offers_is_the_first_T_tokens(T):
    """The page slices one set of records for every T: exact, since step t never depends on later tokens. The full
    computation's P of T tokens is held to the plain loops of tests/reference.py (causal: Key token j <= i), and each
    "equals the full computation" flag to the test's own comparison of the step's row with that P."""
    data = stepper_data.decode_data(al.article_example())
    tr = al.article_example(T=T)  # grows from the article's corner
    for step in al.decode_steps(tr.Q, tr.K, tr.V, tr.h):
        t = step.t
        assert np.array_equal(np.array(data["q"])[:, t], step.q)
        assert np.array_equal(np.array(data["K"])[:, : t + 1], step.K_cache)
        assert np.allclose(data["P"][t], step.P_row, rtol=0, atol=1e-15)
        assert np.allclose(data["O"][t], step.O_row, rtol=0, atol=1e-15)
    causal = [[j <= i for j in range(T)] for i in range(T)]
    P, _ = reference_attention(tr.Q.tolist(), tr.K.tolist(), tr.V.tolist(), tr.h, causal)
    assert np.allclose(data["P_full"][T - 1], P, rtol=0, atol=1e-12)
    rows_equal = [np.allclose(data["P"][t], np.array(P)[:, t, : t + 1], rtol=0, atol=1e-12) for t in range(T)]
    assert data["same"][T - 1] == rows_equal == [True] * T
    w = al.decode_view()
    w.T, w.step = T, T - 1
    p = shows(w)
    assert p["steps"] == T and len(panel(p, "P_trace")) == T and len(panel(p, "K_cache")) == T * tr.dh


def test_the_running_count_of_multiply_adds_saved_is_the_work_counted_by_hand():
    w = al.decode_view()
    w.T = 8
    d, h, dh = 8, 2, 4
    shown, total_without, total_with = [], 0, 0
    for t in range(8):
        w.step = t
        found = re.search(r"saved so far: ([\d,]+)\. Without the cache ([\d,]+), with it ([\d,]+)",
                          words_of(shows(w)))
        saved, without, cached = (int(x.replace(",", "")) for x in found.groups())
        # counted here, not taken from al.generation_cost (which the view calls): a token's Q, K, V rows are
        # 3 · d · d multiply-adds; a score, and a weight times a V row, dh each, per head
        n = t + 1  # tokens so far
        total_without += n * 3 * d * d + sum(dh + dh for _ in range(h) for _ in range(n) for _ in range(n))
        total_with += 3 * d * d + sum(dh + dh for _ in range(h) for _ in range(n))  # only the newest Query row
        assert (without, cached, saved) == (total_without, total_with, total_without - total_with), t
        shown.append(saved)
    assert shown[0] == 0 and all(a < b for a, b in zip(shown, shown[1:], strict=False))  # it grows at every step


def test_decode_follows_shared_kv_heads_and_the_head_choice():
    w = al.decode_view(al.article_example(kv_heads=1), head=1)
    said = words_of(shows(w))
    assert "Query head 2 reads K/V head 1" in said
    assert "8 values (there is one K/V head, all shown here)" in said  # 2 · 1 token · 1 K/V head · dh 4
    w.head, w.step = 0, 1
    assert shows(w)["title"].startswith("Head 1 · Step 2 of 3")


def test_decode_in_korean_and_only_for_causal_traces():
    p = shows(al.decode_view(lang="ko"))
    assert p["title"] == "Head 1 · 3단계 중 1단계: 위치 1의 출력" and "Step" not in words_of(p)
    with pytest.raises(ValueError, match="^tr: a KV cache needs the causal mask"):
        al.decode_view(al.article_example(mask=None))


# ---- the blockwise widget (notebook 11)


def test_blockwise_starts_on_the_first_block_following_the_last_row():
    w = al.blockwise_view()
    assert w.state == {"T": 3, "block": 1, "step": 0, "head": 0, "row": 2}
    p = shows(w)
    assert p["title"] == "Head 1 · Block 1 of 3: Key token 1" and p["steps"] == 3
    assert panel(p, "S_block") == ["1.5", "3", "1"]  # Key token 1's scores for Query tokens 1, 2, 3
    assert panel(p, "m_old") == [NEG_INF_LABEL] * 3 and panel(p, "m") == ["1.5", "3", "1"]
    assert "O_trace" not in [x["name"] for x in p["panels"]]  # the full computation's O only after the last block
    assert all(x["hl"] == [2, None] for x in p["panels"])  # row 3 followed in every panel


def test_the_steps_walk_the_blocks_of_row_3():
    w = al.blockwise_view()
    w.step = 1
    assert panel(shows(w), "m")[2] == "1" and panel(shows(w), "l")[2] == "1.368"
    w.step = 2
    p = shows(w)
    assert "Block 3 of 3: Key token 3" in p["title"]
    assert panel(p, "m_old")[2] == "1" and panel(p, "m")[2] == "3"  # the maximum grows: 1 → 3
    assert panel(p, "rescale")[2] == "0.135" and panel(p, "l")[2] == "1.185"  # e^(1−3) and the new sum
    assert panel(p, "O")[-4:] == [*WEIGHTS_3, "1"] and panel(p, "O_trace") == panel(p, "O")
    assert "equals the full computation's O" in words_of(p)
    assert [row[:2] for row in p["trail"]] == [["1", "1"], ["2", "2"], ["3", "3"]]  # block, its Key token
    assert [row[4] for row in p["trail"]] == ["1", "1", "3"]  # row 3's running maximum after each block


@pytest.mark.parametrize("T", range(1, stepper_data.MAX_T + 1))
def test_the_claim_of_no_T_by_T_matrix_only_when_a_block_is_smaller_than_T(T):
    w = al.blockwise_view()
    data = w.data
    for block in range(1, T + 1):
        state = {"T": T, "block": block, "step": 99, "head": 0, "row": T - 1}
        said = words_of(page_picture({**w.page_config(), "state": state}))
        assert ("No T × T matrix was made" in said) == (block < T)
        assert ("there is one block" in said) == (block == T)
        tr = al.article_example(T=T)
        steps = al.blockwise_steps(tr.Q, tr.K, tr.V, tr.h, block)
        record = data["sizes"][T - 1]["blocks"][block - 1]
        assert len(record["steps"]) == len(steps) and record["equal"]
        assert np.allclose(record["steps"][-1]["O"], tr.O, rtol=0, atol=1e-12)


def test_a_picked_row_is_followed_through_every_block():
    w = al.blockwise_view(al.article_example(T=6), block=2, row=3)
    for k in range(3):
        w.step = k
        p = shows(w)
        assert p["trailTitle"] == "The row of Query token 4, block by block" and len(p["trail"]) == k + 1
        record = w.data["sizes"][5]["blocks"][1]["steps"][k]
        assert p["trail"][-1][6] == format_value(record["l"][0][3], "values")  # this block's l of row 4
        assert all(x["hl"] == [3, None] for x in p["panels"])


def test_asked_values_are_kept_when_T_shrinks_and_grows_back():
    w = al.blockwise_view(al.article_example(T=6), block=5, row=5)
    w.T = 3
    p = shows(w)  # block 3 (= T, one block: one step) and row 3 on screen
    assert p["steps"] == 1 and p["trailTitle"].endswith("token 3, block by block")
    w.T = 6
    assert w.state["block"] == 5 and shows(w)["trailTitle"].endswith("token 6, block by block")


def test_the_trace_mask_and_kv_heads_are_followed():
    tr = al.random_example(6, 8, 2, seed=4, mask=al.Mask("padding", length=4), kv_heads=1)
    w = al.blockwise_view(tr, block=6)
    assert w.data["Tmax"] == 6  # not the article's example: its own tokens only
    p = shows(w)
    assert panel(p, "O") == panel(p, "O_trace")
    assert panel(p, "l")[4:] == ["0", "0"]  # the padding rows attend to nothing: l = 0, O = 0
    itself_only = al.random_example(4, 4, 2, mask=np.eye(4, dtype=bool))  # a custom mask: each token sees itself
    w = al.blockwise_view(itself_only, block=2)
    assert panel(shows(w), "S_block")[1] == NEG_INF_LABEL
    w.step = 1
    assert panel(shows(w), "O") == panel(shows(w), "O_trace")
    w.T, w.step = 3, 0  # the first 3 tokens keep the mask's rows and columns: token 3 sees only itself
    assert panel(shows(w), "S_block")[4:6] == [NEG_INF_LABEL] * 2  # row 3 against Key tokens 1–2
    w.step = 1
    assert panel(shows(w), "S_block")[2] != NEG_INF_LABEL and panel(shows(w), "O") == panel(shows(w),
                                                                                                    "O_trace")


def test_a_mask_of_the_first_T_tokens_is_the_corner_of_the_traces():
    tr = al.random_example(5, 4, 1, mask=al.Mask("sliding", window=2))
    sizes = stepper_data.traces_by_size(tr)
    assert [small.T for small in sizes] == [1, 2, 3, 4, 5]
    for small in sizes:
        n = small.T
        assert np.array_equal(small.M, tr.M[:n, :n])
        allowed = [[0 <= i - j < 2 for j in range(n)] for i in range(n)]  # a window of 2: itself and the one before
        _, H = reference_attention(tr.Q[:n].tolist(), tr.K[:n].tolist(), tr.V[:n].tolist(), 1, allowed)
        assert np.allclose(small.H, H, rtol=0, atol=1e-12)


def test_korean_words_and_the_head_choice():
    w = al.blockwise_view(head=1, lang="ko")
    p = shows(w)
    assert p["title"] == "Head 2 · 블록 1 / 3: Key 토큰 1" and "Block" not in words_of(p)
    assert w.config["words"]["block"] == "블록 크기 (Key 토큰 수)" and w.config["words"]["next_step"] == "다음 단계 ▶"


# ---- both


@pytest.mark.parametrize("make", [al.decode_view, al.blockwise_view])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_plain_text_form_is_one_short_line_in_the_readers_language(make, lang):
    w = make(lang=lang)
    data, _metadata = w._repr_mimebundle_()
    plain = data["text/plain"]
    assert plain == repr(w) and "\n" not in plain and len(plain) < 60
    assert bool(re.search("[가-힣]", plain)) == (lang == "ko")
    assert plain in (stepper_words.WORDS["decode_plain"] + stepper_words.WORDS["blockwise_plain"])


@pytest.mark.parametrize("make", [al.decode_view, al.blockwise_view])
def test_stepping_selects_stored_records_and_computes_nothing(make, monkeypatch):
    w = make(al.article_example(T=5))
    for name in ("decode_steps", "blockwise_steps", "attention_trace", "generation_cost"):
        monkeypatch.setattr(stepper_data, name, lambda *a, **k: pytest.fail("a step computed"))
    for T in (1, 5, 8):
        w.T, w.step, w.head = T, T - 1, 1
        assert shows(w)["step"] == (T - 1 if make is al.decode_view else shows(w)["steps"] - 1)


@pytest.mark.parametrize("make", [al.decode_view, al.blockwise_view])
def test_a_stored_model_gives_back_the_page_config(make):
    """A stored notebook keeps the model's state; the site rebuilds the widget from it (live/page.py)."""
    w = make(lang="ko")
    w.T, w.step = 5, 2
    assert page.config_from_model(w.get_state()) == w.page_config()
    assert f"MOUNTS.{w.page_config()['kind']} = " in page.bundle()[0]  # the bundle mounts this kind


@pytest.mark.parametrize(("name", "value"), [("T", 0), ("T", 9), ("step", -1), ("head", 2), ("T", 2.5)])
def test_the_state_set_from_python_is_checked(name, value):
    w = al.decode_view()
    with pytest.raises(ValueError, match=f"^{name}: "):
        setattr(w, name, value)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"tr": "article"}, "tr"), ({"block": 0}, "block"), ({"block": 4}, "block"), ({"head": 2}, "head"),
    ({"head": -1}, "head"), ({"lang": "fr"}, "lang"), ({"block": 1.0}, "block"), ({"row": 3}, "row"),
    ({"tr": al.attention_trace(*al.example_qkv(3, 8, 2), 2, scaled=False)}, "tr"),
    ({"tr": al.article_example(T=9)}, "tr"), ({"tr": al.article_example(queries=1)}, "tr"),
])
def test_bad_arguments_raise_clear_errors(kwargs, match):
    with pytest.raises(ValueError, match=f"^{match}: "):
        al.blockwise_view(**kwargs)
    if not {"block", "row"} & set(kwargs):
        with pytest.raises(ValueError, match=f"^{match}: "):
            al.decode_view(**kwargs)


# ---- in the browser: the page draws the picture, and its controls move it with no kernel

READ_PAGE = """() => {
  const root = document.querySelector(".al-stepper"), rgb = (s) => s;
  const panels = {};
  for (const hm of root.querySelectorAll(".al-row > .al-hm")) {
    const cells = [...hm.querySelectorAll("td[data-i]")];
    panels[hm.dataset.name] = { title: hm.querySelector(".al-title").textContent,
      labels: cells.map((td) => td.textContent), fill: cells.map((td) => td.style.backgroundColor),
      ink: cells.map((td) => td.style.color), masked: cells.map((td) => td.classList.contains("al-masked") ? "1" : "0"),
      hlrow: [...hm.querySelectorAll("tbody tr")].findIndex((tr) => tr.classList.contains("al-hlrow")) };
  }
  return { state: attentionLab.mounted[0].model.get("state"), panels,
    title: root.querySelector(".al-section").textContent,
    notes: [...root.querySelectorAll(".al-note")].map((n) => n.textContent),
    trail: [...root.querySelectorAll(".al-trail tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent)),
    wide: document.documentElement.scrollWidth };
}"""


def _rgb(hex_colour):  # "#1f2328" or "1f2328" -> "rgb(31, 35, 40)", as the browser writes a style's colour
    h = hex_colour.lstrip("#")
    return "rgb({}, {}, {})".format(*(int(h[k: k + 2], 16) for k in (0, 2, 4)))


def expected_cells(p):  # -> {labels, fill, ink, masked} of a panel: the numbers it selected, through page_cells
    matrix = np.array([[-np.inf if x is None else x for x in row] for row in p["matrix"]], dtype=float)
    data = cells(matrix, p["kind"], allowed=p["allowed"])  # a seen weight of 0.0 reads 0.000, a masked one 0
    n = matrix.size
    return {"labels": data["labels"].split(" "), "fill": [data["fill"][6 * k:6 * k + 6] for k in range(n)],
            "ink": data["ink"], "masked": data["masked"]}


def _same_as_python(seen, w):
    """Every panel's cells are its numbers through page_cells (labels, fills, inks, masked cells); its title and
    followed row, the notes and the trail are what the front-end's picture of the page's state says (Node.js)."""
    from attention_lab.look import INK_DARK, INK_LIGHT

    want = page_picture({**w.page_config(), "state": seen["state"]})
    assert seen["title"] == want["title"] and seen["notes"] == want["notes"]
    assert list(seen["panels"]) == [p["name"] for p in want["panels"]]
    for p in want["panels"]:
        got, cell = seen["panels"][p["name"]], expected_cells(p)
        assert got["title"] == p["title"] and got["labels"] == cell["labels"], p["name"]
        assert got["fill"] == [_rgb(f) for f in cell["fill"]], p["name"]
        assert got["ink"] == [_rgb(INK_DARK if k == "1" else INK_LIGHT) for k in cell["ink"]], p["name"]
        assert "".join(got["masked"]) == cell["masked"] and got["hlrow"] == (p["hl"][0] if p["hl"] else -1)
    assert seen["trail"] == want.get("trail", [])


def seen_of(pic, state):  # -> what READ_PAGE finds on a page that draws the front-end's picture `pic` faithfully
    from attention_lab.look import INK_DARK, INK_LIGHT

    panels = {p["name"]: {"title": p["title"], "labels": p["labels"], "fill": [_rgb(f) for f in p["fill"]],
                          "ink": [_rgb(INK_DARK if k == "1" else INK_LIGHT) for k in p["ink"]],
                          "masked": list(p["masked"]), "hlrow": p["hl"][0] if p["hl"] else -1} for p in pic["panels"]}
    return {"state": state, "panels": panels, "title": pic["title"], "notes": pic["notes"],
            "trail": pic.get("trail", [])}


def test_the_reference_of_the_page_refuses_a_catalogue_of_wrong_pages():
    """The front-end's picture (Node.js) passes, with −∞ cells (a padding mask); each wrong page is refused."""
    w = al.blockwise_view(al.random_example(6, 8, 2, seed=4, mask=al.Mask("padding", length=4)), block=2, row=5)
    w.step = 2
    pic = shows(w)
    assert "1" in panel_of(pic, "S_block")["masked"]  # the padding's −∞ cells are on screen
    _same_as_python(seen_of(pic, w.state), w)

    def labels(s):
        s["panels"]["S_block"]["labels"][0] += "1"

    def fill(s):
        s["panels"]["O"]["fill"][0] = "rgb(1, 2, 3)"

    def ink(s):
        s["panels"]["m"]["ink"][0] = "rgb(0, 0, 0)" if s["panels"]["m"]["ink"][0] != "rgb(0, 0, 0)" else "rgb(1, 1, 1)"

    def masked(s):
        s["panels"]["S_block"]["masked"][0] = "0" if s["panels"]["S_block"]["masked"][0] == "1" else "1"

    def row(s):
        s["panels"]["l"]["hlrow"] = 0

    def note(s):
        s["notes"] = s["notes"][:-1]

    def trail(s):
        s["trail"] = s["trail"][:-1]

    def title(s):
        s["title"] = s["title"].replace("Head 1", "Head 2")

    for wrong in (labels, fill, ink, masked, row, note, trail, title):
        seen = seen_of(shows(w), w.state)
        wrong(seen)
        with pytest.raises(AssertionError):
            _same_as_python(seen, w)


WIDGETS = {
    "decode-ko": lambda: al.decode_view(lang="ko"),
    "decode-mqa": lambda: al.decode_view(al.article_example(kv_heads=1), head=1),
    "blockwise-6": lambda: al.blockwise_view(al.article_example(T=6), block=3, lang="ko"),
    "blockwise-padding": lambda: al.blockwise_view(al.random_example(6, 8, 2, seed=4, mask=al.Mask("padding",
                                                                                                      length=4))),
}


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", list(WIDGETS))
def test_the_page_draws_the_records_and_its_controls_move_it(browser, tmp_path, name, width):
    """Keys on the sliders, the step buttons, the head and row choices: after each, the page's cells are the
    records' numbers through page_cells and its words are the front-end's picture of the page's own state,
    offline, with no console error; at 390 px nothing scrolls sideways."""
    from servers import offline

    w = WIDGETS[name]()
    path = tmp_path / f"{name}.html"
    path.write_text(page.standalone_html(w.page_config()), encoding="utf-8")
    tab = browser.new_page(viewport={"width": width, "height": 900})
    refused, errors = offline(tab), []
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.goto(path.as_uri())
    seen = tab.evaluate(READ_PAGE)
    assert seen["state"] == w.state
    _same_as_python(seen, w)
    rng = np.random.default_rng(len(name) + width)
    controls = ["T", "next", "previous", "head"] + (["block", "row"] if "blockwise" in name else [])
    for _ in range(8):
        control = controls[rng.integers(len(controls))]
        target = tab.locator(f'.al-stepper [data-control="{control}"]')
        if control in ("T", "block"):
            target.focus()
            for _ in range(int(rng.integers(1, 4))):
                tab.keyboard.press("ArrowRight" if rng.random() < 0.5 else "ArrowLeft")
        elif control in ("next", "previous"):
            if target.is_enabled():
                target.click()
        elif target.is_visible():
            options = target.locator("option").all_text_contents()
            target.select_option(index=int(rng.integers(len(options))))
        seen = tab.evaluate(READ_PAGE)
        _same_as_python(seen, w)
        assert seen["wide"] <= width
    assert not refused and not errors
    tab.close()


def test_a_key_on_the_T_slider_moves_the_page(browser, tmp_path):
    from servers import offline

    w = al.decode_view()
    path = tmp_path / "decode.html"
    path.write_text(page.standalone_html(w.page_config()), encoding="utf-8")
    tab = browser.new_page()
    refused = offline(tab)
    tab.goto(path.as_uri())
    tab.locator('.al-stepper [data-control="T"]').focus()
    tab.keyboard.press("ArrowRight")
    seen = tab.evaluate(READ_PAGE)
    assert seen["state"]["T"] == 4 and seen["title"] == "Head 1 · Step 1 of 4: the output at position 1"
    assert seen["panels"]["P_trace"]["labels"] == ["1", "0", "0", "0"] and not refused
    tab.close()
