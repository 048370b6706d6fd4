"""The drills: exercises of notebooks 00–07 done by hand on a page without Python.

Python makes every value a page may show (the expected answer and each slip's values, for every seed); the page's
JavaScript only compares. These tests check the values against plain references (the article's numbers, loops),
that every slip a page can name differs from the answer, and, in Node, that live/drills.js gives each expected
answer ✓ and each slip its own words by the same rule as Python (`drills.same`).
"""

import json
import math
import shutil
import subprocess

import numpy as np
import pytest

import attention_lab as al
from attention_lab.exercises import drills

LANGS = ("ko", "en")
NODE = shutil.which("node")


def test_notebooks_00_to_07_each_have_a_drill_of_one_of_their_exercises():
    assert sorted(drills.NOTEBOOK_DRILLS) == [f"{n:02d}" for n in range(8)]
    for exercise_id in drills.DRILLS:
        assert al.exercises.get(exercise_id)  # a drill is one of the notebook's exercises, by hand


def _want(exercise_id, seed):
    return [-math.inf if x == "-inf" else x for x in drills.table(exercise_id, "en")["examples"][seed]["want"]]


def test_the_article_example_gives_the_articles_numbers():
    assert _want("02.score", 0) == [2]
    assert _want("03.row2", 0) == [3, 1.5, -1]
    assert _want("04.row2", 0) == [3, 1.5, -math.inf]
    assert np.allclose(_want("05.row2", 0), [0.818, 0.182, 0], atol=5e-4)
    assert np.allclose(_want("06.out3", 0), [0.114, 0.042, 0.844, 1], atol=1e-9)
    assert _want("00.dh", 0) == [4] and _want("07.H_shape", 0) == [5, 12]


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
                named += 1
    assert named > 20 * len(drills.DRILLS)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_speaks_its_language(lang):
    hangul = any("\uac00" <= c <= "\ud7a3" for c in json.dumps(drills.table("05.row2", lang), ensure_ascii=False))
    assert hangul == (lang == "ko")
    html = drills.cell_html("05.row2", lang)
    assert 'class="al-drill"' in html and f'lang="{lang}"' in html
    assert drills.cell_html("02.row2", lang) is None  # an exercise with no drill
    assert drills.exercise_cell('answer = lambda tr: ...\nex.check("02.row2", answer, lang=LANG)', lang) == ""
    assert drills.exercise_cell("print(1)", lang) is None


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
                    cases.append({"drill": table, "seed": seed, "got": got,
                                  "python_same": drills.same(near, want, table["tol"])})
    script = f"""
        global.window = {{}};
        const d = require({json.dumps(str(drills.HERE / "drills.js"))});
        const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
        const out = cases.map(c => {{
          const got = c.got.map(x => x === "-inf" ? -Infinity : x);
          const v = d.judge(got, c.drill.examples[c.seed], c.drill.tol);
          return [v.kind, v.slip, d.same(got, c.drill.examples[c.seed].want, c.drill.tol)];
        }});
        process.stdout.write(JSON.stringify(out));
    """
    result = subprocess.run([NODE, "-e", script], input=json.dumps(cases), capture_output=True, text=True,
                            check=True, timeout=120)
    for case, (kind, slip, same) in zip(cases, json.loads(result.stdout), strict=True):
        if "expect" in case:
            assert [kind, slip][:len(case["expect"])] == case["expect"], (case["drill"]["id"], case["seed"])
        else:
            assert same == case["python_same"], (case["drill"]["id"], case["seed"], case["got"])


@pytest.mark.skipif(NODE is None, reason="needs Node.js to run live/drills.js")
def test_the_page_reads_what_a_reader_types():
    script = f"""
        global.window = {{}};
        const d = require({json.dumps(str(drills.HERE / "drills.js"))});
        const texts = ["1.5", " -0.25 ", "\u22121", "-inf", "\u2212\u221e", "-Infinity", "abc", "", "1,5", "2e3", ".5"];
        const read = t => {{ const x = d.parse(t); return x === -Infinity ? "-inf" : x; }};
        process.stdout.write(JSON.stringify(texts.map(read)));
    """
    result = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(result.stdout) == [1.5, -0.25, -1, "-inf", "-inf", "-inf", None, None, None, 2000, 0.5]


def _drill_page(tmp_path, lang):  # -> a page of every drill, as a page without a kernel shows them
    script = (tmp_path / "drills.js")
    script.write_text(drills.assets()[0], encoding="utf-8")
    body = "".join(drills.cell_html(i, lang, script="drills.js") for i in drills.DRILLS)
    path = tmp_path / f"drills-{lang}.html"
    path.write_text(f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>drills</title>'
                    f'<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
                    f"<body><main><h1>drills</h1><h2>exercises</h2>{body}</main></body></html>", encoding="utf-8")
    return path


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", LANGS)
def test_a_reader_does_every_drill_wrong_first_then_right_by_keyboard_offline(browser, tmp_path, lang, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(_drill_page(tmp_path, lang).as_uri())
    for exercise_id in drills.DRILLS:
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
    page.keyboard.press("Tab")  # the first control takes the focus from the keyboard
    assert page.evaluate("document.activeElement.closest('section.al-drill') !== null")
    assert errors == []
    page.close()


def test_axe_core_finds_no_violations_in_the_drills(browser, tmp_path):
    from test_page import axe_source

    page = browser.new_page()
    page.goto(_drill_page(tmp_path, "ko").as_uri())
    page.add_script_tag(content=axe_source())
    found = page.evaluate("async () => (await axe.run(document)).violations.map((v) => [v.id, v.help])")
    assert found == [], found
    page.close()
