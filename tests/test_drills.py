"""The drills: exercises of notebooks 00–07 done by hand on a page without Python.

Python makes every value a page may show (the expected answer and each slip's values, for every seed); the page's
JavaScript only compares. These tests check the values against plain references (the article's numbers, loops),
that every slip a page can name differs from the answer, and, in Node, that live/drills.js gives each expected
answer ✓ and each slip its own words by the same rule as Python (`drills.same`).
"""

import json
import math
import re
import shutil
import subprocess
from decimal import Decimal
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import attention_lab as al
from attention_lab.exercises import drills, no_kernel
from attention_lab.look import words

LANGS = ("ko", "en")
NODE = shutil.which("node")


# The hand computations issue 26 names, each a drill on the page of the notebook that teaches it.
NAMED = {"a score as a dot product": "02.score", "a scaled row": "03.row2", "a masked row": "04.row2",
         "one softmax row to 3 decimals": "05.row2", "one output row": "06.out3", "a cache size": "10.cache_size"}


def test_notebooks_00_to_07_have_drills_of_their_exercises_and_the_named_hand_computations_are_there():
    assert [f"{n:02d}" for n in range(8)] <= sorted(drills.NOTEBOOK_DRILLS)
    for exercise_id in drills.DRILLS:
        assert al.exercises.get(exercise_id)  # a drill is one of the notebook's exercises, by hand
    assert set(NAMED.values()) <= set(drills.DRILLS)
    by_hand = [i for i in al.exercises.EXERCISES if i[:2] <= "07"]  # every exercise of 00–07 can be done by hand
    assert len(by_hand) == 20 and set(by_hand) <= set(drills.DRILLS)
    assert drills.table("05.row2", "en")["decimals"] == 3 and drills.table("06.out3", "en")["decimals"] == 3


def test_a_drill_made_by_its_exercise_names_the_exercises_own_slips_in_its_words():
    for exercise_id, entry in drills.DRILLS.items():
        if entry[4] != drills.MISTAKES:
            continue
        for lang in LANGS:
            hints = [m.hint[lang].replace("`", "") for m in al.exercises.get(exercise_id).mistakes]
            assert drills.table(exercise_id, lang)["slips"] == hints


def _want(exercise_id, seed):
    return [-math.inf if x == "-inf" else x for x in drills.table(exercise_id, "en")["examples"][seed]["want"]]


def test_the_article_example_gives_the_articles_numbers():
    assert _want("02.score", 0) == [2]
    assert _want("03.row2", 0) == [3, 1.5, -1]
    assert _want("04.row2", 0) == [3, 1.5, -math.inf]
    assert np.allclose(_want("05.row2", 0), [0.818, 0.182, 0], atol=5e-4)
    assert np.allclose(_want("06.out3", 0), [0.114, 0.042, 0.844, 1], atol=1e-9)
    assert _want("00.dh", 0) == [4] and _want("07.H_shape", 0) == [5, 12]
    assert _want("02.row2", 0) == [6, 3, -2] and _want("00.P_shape", 0) == [2, 3, 3] and _want("04.count", 0) == [6]
    assert np.allclose(_want("05.row3", 0), [0.114, 0.042, 0.844], atol=5e-4)
    assert _want("10.cache_size", 0) == [1.25]  # Llama 2 70B, 4096 tokens: 2 · 80 · 4096 · 8 · 128 · 2 bytes
    assert "Llama 2 70B" in drills.table("10.cache_size", "en")["task"] and "example 0" in drills.table(
        "10.cache_size", "en")["task"]  # other examples are other models: the task does not name one alone


def test_the_new_drills_agree_with_plain_arithmetic_on_every_example():
    for seed in range(drills.SEEDS):
        given = {g["label"]: g["values"] for g in drills.table("10.cache_size", "en")["examples"][seed]["given"]}
        layers, tokens, g, dh = (given[k][0] for k in ("layers", "tokens", "K/V heads g", "head dimension dh"))
        assert _want("10.cache_size", seed) == [pytest.approx(2 * layers * tokens * g * dh * 2 / 1024 ** 3, abs=1e-6)]
        T = drills.table("04.count", "en")["examples"][seed]["given"][0]["values"][0]
        assert _want("04.count", seed) == [sum(range(1, int(T) + 1))]
        q, *keys = (g["values"] for g in drills.table("02.row2", "en")["examples"][seed]["given"])
        assert _want("02.row2", seed) == [sum(a * b for a, b in zip(q, k, strict=True)) for k in keys]
        p, v1, v2 = (g["values"] for g in drills.table("06.out2", "en")["examples"][seed]["given"])
        assert _want("06.out2", seed) == pytest.approx([p[0] * a + p[1] * b for a, b in zip(v1, v2, strict=True)])
        x = drills.table("05.stable", "en")["examples"][seed]["given"][0]["values"]
        e = [math.exp(v - max(x)) for v in x]
        assert _want("05.stable", seed) == pytest.approx([v / sum(e) for v in e], abs=1e-6)
        row = drills.table("07.no_mask_row1", "en")["examples"][seed]["given"][0]["values"]
        e = [math.exp(v) for v in row]
        assert _want("07.no_mask_row1", seed) == pytest.approx([v / sum(e) for v in e], abs=1e-6)


@pytest.mark.parametrize("seed", range(drills.SEEDS))
def test_every_expected_value_agrees_with_a_plain_loop(seed):
    table = drills.table("02.score", "en")["examples"][seed]
    q, k = (g["values"] for g in table["given"])
    assert table["want"] == [pytest.approx(sum(a * b for a, b in zip(q, k, strict=True)))]
    row = drills.table("05.row2", "en")["examples"][seed]
    s, m = (g["values"] for g in row["given"])
    e = [0.0 if mm == "-inf" else math.exp(x) for x, mm in zip(s, m, strict=True)]
    assert row["want"] == pytest.approx([x / sum(e) for x in e], abs=1e-6)
    out = drills.table("06.out3", "en")["examples"][seed]
    p, *v = (g["values"] for g in out["given"])
    assert out["want"] == pytest.approx([sum(p[i] * v[i][j] for i in range(3)) for j in range(4)], abs=1e-6)


def test_every_slip_a_page_can_name_differs_from_the_answer_there():
    named = 0
    for exercise_id in drills.DRILLS:
        table = drills.table(exercise_id, "en")
        for example in table["examples"]:
            want = [-math.inf if x == "-inf" else x for x in example["want"]]
            for values, index in example["slips"]:
                got = [-math.inf if x == "-inf" else x for x in values]
                assert not drills.same(got, want, table["tol"]) and 0 <= index < len(table["slips"])
                assert len(got) == len(want)  # a slip a reader can type: one number a field
                named += 1
    assert named > 20 * len(drills.DRILLS)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_speaks_its_language(lang):
    hangul = any("\uac00" <= c <= "\ud7a3" for c in json.dumps(drills.table("05.row2", lang), ensure_ascii=False))
    assert hangul == (lang == "ko")
    html = drills.cell_html("05.row2", lang)
    assert 'class="al-drill"' in html and f'lang="{lang}"' in html
    assert drills.cell_html("08.sliding", lang) is None  # an exercise with no drill: where it is done instead
    cell = 'answer = lambda T, w: ...\nex.check("08.sliding", answer, lang=LANG)'
    line = no_kernel.exercise_cell(cell, lang, "08_masks.ipynb", "https://binder.example/x", "08_masks.ipynb")
    assert 'href="https://binder.example/x"' in line and 'href="08_masks.ipynb" download' in line
    alone = no_kernel.exercise_cell(cell, lang, "08_masks.ipynb")  # a page with no links names the notebook
    assert "08_masks.ipynb" in alone and "href" not in alone
    assert no_kernel.exercise_cell("print(1)", lang) is None


@pytest.mark.skipif(NODE is None, reason="needs Node.js to run live/drills.js")
def test_the_page_compares_as_python_does():
    cases = []
    rng = np.random.default_rng(0)
    for exercise_id in drills.DRILLS:
        for lang in LANGS:
            table = drills.table(exercise_id, lang)
            for seed, example in enumerate(table["examples"]):
                cases.append({"drill": table, "seed": seed, "got": example["want"], "expect": ["right"]})
                for values, index in example["slips"]:
                    cases.append({"drill": table, "seed": seed, "got": values, "expect": ["slip", index]})
                want = np.array([-math.inf if x == "-inf" else x for x in example["want"]])
                for step in (table["tol"] * 0.5, table["tol"] * 3 + 1e-3):  # inside, then outside the tolerance
                    near = np.where(np.isinf(want), want, want + step * rng.choice([-1, 1], want.size))
                    got = ["-inf" if x == -math.inf else float(x) for x in near]
                    inside = step <= table["tol"]  # off by tol/2 (0 where tol is 0): right; by 3·tol + 0.001: not
                    assert drills.same(near, want, table["tol"]) == inside, (exercise_id, seed, step)
                    cases.append({"drill": table, "seed": seed, "got": got, "within": inside})
                # what a reader types on the tolerance's edge, and a step past it: decimals, as typed
                for past, inside in ((Decimal(0), True), (Decimal("1e-9"), False)):
                    sign = [int(s) for s in rng.choice([-1, 1], want.size)]
                    typed = [x if x == "-inf" else float(Decimal(repr(x)) + s * (Decimal(repr(table["tol"])) + past))
                             for x, s in zip(example["want"], sign, strict=True)]
                    got = np.array([-math.inf if x == "-inf" else x for x in typed])
                    assert drills.same(got, want, table["tol"]) == inside, (exercise_id, typed)
                    cases.append({"drill": table, "seed": seed, "got": typed, "within": inside})
    script = f"""
        global.window = {{}};
        const d = require({json.dumps(str(drills.HERE / "drills.js"))});
        const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
        const out = cases.map(c => {{
          const got = c.got.map(x => x === "-inf" ? -Infinity : x);
          const within = c.drill.tol + c.drill.edge;
          const v = d.judge(got, c.drill.examples[c.seed], within);
          return [v.kind, v.slip, d.same(got, c.drill.examples[c.seed].want, within)];
        }});
        process.stdout.write(JSON.stringify(out));
    """
    result = subprocess.run([NODE, "-e", script], input=json.dumps(cases), capture_output=True, text=True,
                            check=True, timeout=120)
    for case, (kind, slip, same) in zip(cases, json.loads(result.stdout), strict=True):
        if "expect" in case:
            if kind == "slip" and case["expect"][0] == "slip":  # the same words (one slip in two forms) will do
                assert case["drill"]["slips"][slip] == case["drill"]["slips"][case["expect"][1]], case["drill"]["id"]
            else:
                assert [kind, slip][:len(case["expect"])] == case["expect"], (case["drill"]["id"], case["seed"])
        else:  # the page's rule, like Python's (asserted above), says what the tolerance says
            assert same == case["within"], (case["drill"]["id"], case["seed"], case["got"])


@pytest.mark.skipif(NODE is None, reason="needs Node.js to run live/drills.js")
def test_the_page_reads_what_a_reader_types():
    """A typed answer as the reader means it, full-width digits of a Korean input method included; anything else is
    no number (the page asks again), never another number."""
    typed = {"1.5": 1.5, " -0.25 ": -0.25, "\u22121": -1, "+2": 2, "2e3": 2000, ".5": 0.5, "1.": 1,
             "-inf": "-inf", "\u2212\u221e": "-inf", "-Infinity": "-inf", "\uff0d\u221e": "-inf",
             "\uff11.\uff15": 1.5, "\uff0d\uff10.\uff12\uff15": -0.25, "\u3000\uff13\u3000": 3,
             "abc": None, "": None, "1,5": None, "1 2": None, "\u2212 1": None, "1e999": None, "\u221e": None,
             "inf": None, "nan": None, "0x10": None, "1_000": None, "\u0661": None, "2\u00b2": None}
    script = f"""
        global.window = {{}};
        const d = require({json.dumps(str(drills.HERE / "drills.js"))});
        const grammar = {json.dumps(drills.table("05.row2", "en")["grammar"])};
        const read = t => {{ const x = d.parse(t, grammar); return x === -Infinity ? "-inf" : x; }};
        process.stdout.write(JSON.stringify({json.dumps(list(typed))}.map(read)));
    """
    result = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True, timeout=60)
    assert dict(zip(typed, json.loads(result.stdout), strict=True)) == typed


def _drill_page(tmp_path, lang):  # -> a page of every drill, as a page without a kernel shows them
    script = (tmp_path / "drills.js")
    script.write_text(drills.assets()[0], encoding="utf-8")
    body = "".join(drills.cell_html(i, lang, script="drills.js") for i in drills.DRILLS)
    path = tmp_path / f"drills-{lang}.html"
    path.write_text(f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>drills</title>'
                    f'<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
                    f"<body><main><h1>drills</h1><h2>exercises</h2>{body}</main></body></html>", encoding="utf-8")
    return path


def work_every_drill(page, ids, lang):
    """As a reader: in each drill, every slip first (each told its own words), then a far answer (the generic
    words and a hint), then the answer (✓); then another example, answered right too."""
    for exercise_id in ids:
        table = drills.table(exercise_id, lang)
        section = page.locator(f'section.al-drill:has(input[id^="al-drill-{exercise_id.replace(".", "-")}-f"])')
        fields, said = section.locator(".al-drill-fields input"), section.locator(".al-drill-feedback")

        def answer(values, fields=fields, said=said):
            for i, value in enumerate(values):
                fields.nth(i).fill("−∞" if value == "-inf" else str(value))
            fields.nth(len(values) - 1).press("Enter")
            return said.text_content()

        example = table["examples"][0]
        for values, index in example["slips"]:  # every slip first: its own words
            assert answer(values) == "✗ " + table["slips"][index], exercise_id
        far = [9999] * len(example["want"])
        assert answer(far).startswith(table["words"]["not_yet"]) and table["hints"][1] in said.text_content()
        assert answer(example["want"]) == table["words"]["right"], exercise_id
        section.locator(".al-drill-bar button").click()  # another example: seed 1, fields empty again
        assert section.locator(".al-drill-bar input").input_value() == "1" and fields.first.input_value() == ""
        assert answer(table["examples"][1]["want"]) == table["words"]["right"]
    assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
def test_a_reader_does_every_drill_wrong_first_then_right_by_keyboard_offline(browser, tmp_path, lang, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(_drill_page(tmp_path, lang).as_uri())
    work_every_drill(page, drills.DRILLS, lang)
    page.keyboard.press("Tab")  # the first control takes the focus from the keyboard
    assert page.evaluate("document.activeElement.closest('section.al-drill') !== null")
    assert errors == []
    page.close()


# ---- under the explorer on its own page (python -m attention_lab.explorer --out F, ex.save_html)

def test_the_explorers_own_page_holds_its_drills_inline_and_a_step_widgets_page_none():
    from attention_lab.live import page
    from attention_lab.live.learned import learned_explorer

    html = page.standalone_html(al.explorer(lang="ko").page_config())
    assert html.count('<section class="al-drill"') == len(drills.PAGE_DRILLS) == 7
    assert "drills.js" not in html and "window.alDrills" in html  # the script inline: the page makes no request
    assert {"07.H_shape", "07.no_mask_row1"} <= set(drills.PAGE_DRILLS) <= set(drills.DRILLS)
    assert set(NAMED.values()) - set(drills.PAGE_DRILLS) == {"10.cache_size"}  # the page has no cache
    assert "al-drill" not in page.standalone_html({**al.explorer().page_config(), "kind": "decode"})
    assert "al-drill" not in page.standalone_html(learned_explorer("CABDDA").page_config())  # notebook 13's model


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
def test_a_reader_does_the_drills_under_the_explorer_offline_wrong_first(browser, tmp_path, lang, width):
    from servers import offline

    from attention_lab.live.command import main

    path = tmp_path / f"explorer-{lang}.html"
    if lang == "ko":
        assert main(["--out", str(path), "--lang", lang]) == 0
    else:
        al.explorer(lang=lang, view="softmax").save_html(str(path))
    page = browser.new_page(viewport={"width": width, "height": 900})
    refused, errors = offline(page), []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(path.as_uri())
    page.wait_for_selector(".al-live .al-hm")
    assert page.locator("h2#al-drills-title").text_content() == words.table(lang)["drill.page_title"]
    work_every_drill(page, drills.PAGE_DRILLS, lang)
    page.locator("section.al-drill").first.scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / f"explorer-drills-{lang}-{width}.png"), full_page=False)
    assert not refused and not errors, (refused, errors)
    if width == 390:
        from test_page import axe_source

        page.add_script_tag(content=axe_source())
        found = page.evaluate("async () => (await axe.run(document))"
                              ".violations.map((v) => [v.id, v.help])")
        assert found == [], found
    page.close()


def test_axe_core_finds_no_violations_in_the_drills(browser, tmp_path):
    from test_page import axe_source

    page = browser.new_page()
    page.goto(_drill_page(tmp_path, "ko").as_uri())
    page.add_script_tag(content=axe_source())
    found = page.evaluate("async () => (await axe.run(document)).violations.map((v) => [v.id, v.help])")
    assert found == [], found
    page.close()


# ---- no page without a kernel tells its reader to run a cell

RUN_A_CELL = re.compile(r"Shift ?\+ ?Enter|셀을 (다시 |한 번 더 )?실행|실행하세요|한 번 더 실행|다시 실행"
                        r"|\brun (the|this|that|each|a) cells?\b|\brun it again\b|\bre-?run\b", re.I)
TOLD_TO_RUN = ["`...`를 바꾸고 셀을 다시 실행하세요.",
               "Jupyter에서는 셀을 위에서부터 차례로 실행합니다(Shift + Enter).",
               '`ex.hint("00.dh", lang=LANG)`를 실행하세요.', "같은 셀을 한 번 더 실행하면 다음 힌트가 나옵니다.",
               "Replace the `...` with code, and run the cell.", "Run the cells from the top.",
               "run it again for the next step", "then rerun it", "Run this cell to check."]
TRUTHFUL = ["이 연습은 Python 코드로 풉니다. Python 커널이 있는 노트북에서 풀 수 있습니다:", "Binder에서 실행하기",
            "Run this notebook on Binder", "The widget here moves in a browser that runs JavaScript.",
            "커널이 없는 페이지에서는 코드가 돌지 않습니다.", "the code runs, and every exercise is done in code"]


class _Text(HTMLParser):  # what a reader reads: text, without scripts, styles and attributes
    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def told_to_run(html):  # -> the sentences of a page that tell its reader to run a cell
    reader = _Text()
    reader.feed(html)
    text = " ".join(" ".join(reader.parts).split())
    return [m.group(0) for m in RUN_A_CELL.finditer(text)]


def test_the_run_a_cell_detector_refuses_every_catalogued_line_and_passes_truthful_ones():
    for line in TOLD_TO_RUN:
        assert told_to_run(f"<p>{line}</p>"), line
    for line in TRUTHFUL:
        assert told_to_run(f"<p>{line}</p>") == [], line
    assert told_to_run('<script>"run the cell"</script><p data-x="Shift + Enter">ok</p>') == []


def test_no_page_without_a_kernel_tells_its_reader_to_run_a_cell(tmp_path):
    from attention_lab import site
    from attention_lab.site import export

    notebooks = Path(__file__).resolve().parent.parent / "notebooks"
    site.build(tmp_path / "site", notebooks, binder="someone/fork", search=False)
    pages = sorted((tmp_path / "site").glob("*/[0-9][0-9]_*.html"))
    assert len(pages) == 2 * len(list((notebooks / "ko").glob("*.ipynb"))) >= 28
    found = {page.relative_to(tmp_path).as_posix(): told_to_run(page.read_text(encoding="utf-8")) for page in pages}
    for name in ("00_overview", "07_explorer", "08_masks", "12_queries_and_keys"):  # the one-file export too
        for lang in LANGS:
            found[f"export/{lang}/{name}"] = told_to_run(export.export_html(notebooks / lang / f"{name}.ipynb")[0])
    assert {page: lines for page, lines in found.items() if lines} == {}
    for lang in LANGS:  # where an exercise has no drill, its page says where it is done, with the page's links
        html = (tmp_path / "site" / lang / "08_masks.html").read_text(encoding="utf-8")
        assert html.count('class="al-elsewhere"') == 3 and "someone/fork" in html.split("al-elsewhere")[1]


@pytest.mark.parametrize("exercise_id", ["05.row2", "05.row3"])
def test_typing_only_the_exp_values_in_a_softmax_drill_is_named_on_every_example(exercise_id):
    """Issue 48: the reader who types the exp values and stops (e^s as the article writes them, or e^(s − max) as
    tr.E holds them), to the drill's decimals, is told to divide by their sum, on every example the page shows."""
    told = words.say("ex.not_yet", "en")  # not this generic line: the slip's own words
    for lang in LANGS:
        table = drills.table(exercise_id, lang)
        for example in table["examples"]:
            scores = np.array([-math.inf if x == "-inf" else x for x in example["given"][0]["values"]], dtype=float)
            if exercise_id == "05.row2":
                scores = scores + np.array([-math.inf if x == "-inf" else x for x in example["given"][1]["values"]])
            for typed in (np.round(np.exp(scores), table["decimals"]),
                          np.round(np.exp(scores - scores.max()), table["decimals"])):
                named = [i for values, i in example["slips"]
                         if drills.same(typed, [-math.inf if x == "-inf" else x for x in values], table["tol"])]
                assert named, (exercise_id, lang, example["given"], typed.tolist())
                assert "exp" in table["slips"][named[0]] and told not in table["slips"][named[0]]
