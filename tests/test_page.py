"""The explorer as a page with no Python: the bundle, the command, and the page itself in Chromium from file://.

- the bundle is the files of live/page.py's FILES, once, with the visual language as data;
- `python -m attention_lab.explorer --out FILE` writes one self-contained file; a bad option is one line, exit 2;
- the page, opened from file:// with every other request refused, makes none, and its controls work with the
  keyboard alone: Tab reaches every control, → on T redraws, the arrow keys move the picked cell;
- nothing is cut off or scrolled sideways at 1280 and 390 px, at the smallest and largest sizes, both languages;
- axe-core (npm; found under $AXE_CORE_DIR or installed into /tmp/attention-lab-axe) reports no violations;
- two explorers mounted in one page (a site) work side by side.

ATTENTION_LAB_SCREENSHOTS=folder saves a PNG of each page checked for fit there, to look at.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from servers import offline

import attention_lab as al
from attention_lab.live import page as pages
from attention_lab.live.data import look_data
from attention_lab.look.colors import colour_tables
from attention_lab.look.formats import RULES

AXE_VERSION = "4.10.3"
AXE_DIR = Path(os.environ.get("AXE_CORE_DIR", "/tmp/attention-lab-axe"))


def test_the_bundle_is_every_front_end_file_once_with_the_visual_language_as_data():
    js, css = pages.bundle()
    for name in pages.FILES:
        assert js.count(f"// ==== {name} ====") == 1 and (pages.HERE / name).read_text(encoding="utf-8") in js
    look = json.loads(js.split("const LOOK = ", 1)[1].split(";\nconst MOUNTS", 1)[0])
    assert look["colours"] == json.loads(json.dumps(colour_tables())) and look["rules"] == json.loads(json.dumps(RULES))
    assert [s["name"] for s in look["stages"]] == list(al.STAGES) and look == json.loads(json.dumps(look_data()))
    assert pages.module().endswith("export default { render };\n") and "al-grid" in css


# Lines `without_comments` must keep as they are (a // inside a string, a template or a regular expression, or
# after a division) and lines it must shorten, as each is and as it must come out.
KEPT_LINES = ['const url = "http://x";  // a link', "const s = 'a  // b';", "const t = `${a}  // ${b}`;  // t",
              "const r = /\\/\\//;  // slashes", "const q = a / b;  // a quotient", "f();// close",
              "x = 1; // one space"]
SHORTENED_LINES = {"  // a whole line\n": "", "// ==== formats.js ====\n": "", "let x = 1;  // why\n": "let x = 1;\n",
                   "  if (a) {  // the case\n": "  if (a) {\n"}


def test_a_stored_widget_carries_the_front_end_without_its_comments_and_nothing_else_changes():
    for line in KEPT_LINES:
        assert pages.without_comments(line + "\n") == line + "\n", line
    for line, out in SHORTENED_LINES.items():
        assert pages.without_comments(line) == out, line
    for name in pages.FILES:  # what makes a comment safe to find line by line: nothing runs over a line
        for n, line in enumerate((pages.HERE / name).read_text(encoding="utf-8").splitlines(), 1):
            assert line.count("`") % 2 == 0 and not line.endswith("\\") and "/*" not in line, f"{name}:{n} {line}"
    module = pages.module()
    short = pages.without_comments(module)
    assert len(short) < 0.9 * len(module) and "// ----" not in short
    code = [line for line in module.splitlines() if not line.lstrip().startswith("//")]
    assert [line.split("  // ")[0].rstrip() for line in code] == [line.split("  // ")[0].rstrip()
                                                                   for line in short.splitlines()]
    if NODE := shutil.which("node"):
        check = subprocess.run([NODE, "--input-type=module", "--check"], input=short, capture_output=True, text=True,
                               timeout=60)
        assert check.returncode == 0, check.stderr


def test_a_standalone_page_holds_everything_inline():
    html = pages.standalone_html(al.explorer(view="softmax", lang="ko").page_config())
    assert html.startswith("<!doctype html>") and '<html lang="ko">' in html and pages.CSP in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)  # no script, style or image from elsewhere
    assert html.split('<script type="module">')[0].count('<div class="al-mount"') == 1


def test_the_command_writes_a_page_and_says_what_is_wrong_in_one_line(tmp_path):
    out = tmp_path / "softmax.html"
    run = subprocess.run([sys.executable, "-m", "attention_lab.explorer", "--out", str(out), "--lang", "ko",
                          "--view", "softmax", "--T", "5", "--mask", "none"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.strip() == str(out), run.stderr
    config = json.loads(out.read_text(encoding="utf-8").split('class="al-config">', 1)[1].split("</script>")[0])
    assert (config["lang"], config["viewName"], config["state"]["T"], config["state"]["mask"]) == ("ko", "softmax", 5,
                                                                                                    "none")
    for args, said in ((["--T", "40"], "T:"), (["--mask", "sliding:window=0"], "window:"), (["--view", "x"], "view"),
                       (["--queries", "5"], "queries:"), ([], None)):
        target = [] if said is None else ["--out", str(tmp_path / "x.html")]
        run = subprocess.run([sys.executable, "-m", "attention_lab.explorer", *(target or ["--out", str(tmp_path)]),
                              *args], capture_output=True, text=True)
        assert run.returncode == 2 and run.stderr.count("\n") == 1 and run.stderr.startswith("error:"), run.stderr
        assert (said or "--out") in run.stderr


# ---- the page in a browser --------------------------------------------------------------------------------------

def open_page(browser, path, width=1280):  # -> (page, refused requests, page errors)
    page = browser.new_page(viewport={"width": width, "height": 900})
    refused, errors = offline(page), []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(path.as_uri())
    page.wait_for_selector(".al-live .al-hm")
    return page, refused, errors


def write(tmp_path, name, ex):
    path = tmp_path / f"{name}.html"
    ex.save_html(str(path))
    return path


def settle(page):  # the page draws a move at its next frame: wait for it (and the one after)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def shape(page):
    settle(page)
    return page.locator(".al-shape").text_content()


def test_the_page_works_offline_and_with_the_keyboard_alone(browser, tmp_path):
    page, refused, errors = open_page(browser, write(tmp_path, "all", al.explorer(lang="ko")))
    controls = page.locator("[data-control]")
    names = set(controls.evaluate_all("(els) => els.map((e) => e.dataset.control)"))
    assert names == set(al.explorer().controls)  # the page's controls are the Python handle's
    page.keyboard.press("Tab")  # the keyboard reaches every control, in order, with no trap
    reached = set()
    for _ in range(60):
        reached.add(page.evaluate("() => document.activeElement.dataset.control || document.activeElement.tagName"))
        page.keyboard.press("Tab")
    shown = set(controls.evaluate_all("(els) => els.filter((e) => !e.closest('[hidden]')).map((e) => e.dataset"
                                      ".control)"))
    assert shown <= reached, shown - reached
    page.locator('[data-control="T"]').focus()
    page.keyboard.press("ArrowRight")
    assert shape(page).startswith("T=4 ")
    page.locator('[data-control="mask"]').focus()
    page.keyboard.press("ArrowDown")  # the next mask: none
    settle(page)
    assert page.locator('.al-hm[data-name="M"] tbody td').first.text_content() == "0"
    cell = page.locator('.al-hm[data-name="S"] tbody td[tabindex="0"]')  # the picked cell takes the focus
    assert cell.get_attribute("aria-label") == "Query 토큰 3, Key 토큰 1: 2"
    cell.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    settle(page)
    picked = page.locator('.al-hm[data-name="S"] td.al-hl')
    assert picked.get_attribute("aria-label").startswith("Query 토큰 4, Key 토큰 2: ")
    assert page.locator('[data-control="row"]').input_value() == "3"  # the breakdowns follow the row
    assert "네 번째 행의 Softmax" in page.locator('.al-breakdown[data-name="softmax"]').text_content()
    seed = page.locator('[data-control="seed"]')
    for bad in ("-5", "abc"):
        seed.fill(bad)
        seed.press("Enter")
        settle(page)
        said = page.locator(".al-msg-bad").text_content()
        assert f"'{bad}'" in said and "seed는 그대로 0입니다" in said and seed.input_value() == "0"
    seed.fill("7")
    seed.press("Enter")
    settle(page)
    assert "seed 7" in page.locator(".al-source").text_content()
    seed.fill("１２")  # as a Korean input method types 12: the seed 12, as --seed １２ is (issue 27)
    seed.press("Enter")
    settle(page)
    assert "seed 12" in page.locator(".al-source").text_content() and seed.input_value() == "12"
    assert not refused and not errors, (refused, errors)
    page.close()


def test_a_click_on_a_cell_sets_the_row_the_breakdowns_follow(browser, tmp_path):
    page, _, errors = open_page(browser, write(tmp_path, "click", al.explorer()))
    page.locator('.al-hm[data-name="P"] tbody tr').nth(1).locator("td").first.click()
    settle(page)
    assert page.locator('[data-control="row"]').input_value() == "1"
    assert page.locator('[data-control="query"]').input_value() == "1"
    assert "Softmax of row 2" in page.locator('.al-breakdown[data-name="softmax"]').text_content()
    assert not errors
    page.close()


def test_a_cells_tooltip_is_its_value_once_the_pointer_is_over_it_and_follows_a_move(browser, tmp_path):
    """A cell's tooltip (title) is set when the pointer comes over it, not at every move (Chromium restyles an
    element whose title changes); once given, it follows the cell's value while the pointer stays."""
    page, _, errors = open_page(browser, write(tmp_path, "tooltip", al.explorer()))
    cell = page.locator('.al-hm[data-name="P"] tbody td').first  # Query 토큰 1's weight on Key 토큰 1
    other = page.locator('.al-hm[data-name="P"] tbody td').last
    assert cell.get_attribute("title") is None and other.get_attribute("title") is None
    cell.hover()
    assert cell.get_attribute("title") == cell.text_content() == "1"  # causal: token 1 sees only itself
    assert other.get_attribute("title") is None
    page.locator('[data-control="mask"]').focus()
    page.keyboard.press("ArrowDown")  # the next mask, none: token 1 now spreads its weight over all three
    settle(page)
    assert cell.text_content() != "1" and cell.get_attribute("title") == cell.text_content()
    assert not errors
    page.close()


def test_a_heatmap_off_screen_waits_and_then_shows_what_python_computes(browser, tmp_path):
    """Moves patch only the heatmaps on screen; one below it keeps its old picture until it scrolls into view,
    and then shows every cell as the Python trace gives it for the state the keys reached (no change marks for
    that)."""
    from frontend import page_picture
    from test_live_parity import READ, expected_heatmaps

    from attention_lab.live.state import resolve, trace_of

    ex = al.explorer(T=3, d=64, h=8)
    ex.controls["head"].value = -1
    page = browser.new_page(viewport={"width": 1280, "height": 600})
    page.goto(write(tmp_path, "below", ex).as_uri())
    page.wait_for_selector(".al-live .al-hm")
    concat = page.locator('.al-hm[data-name="H"]')
    assert concat.locator("tbody tr").count() == 3
    page.locator('[data-control="T"]').focus()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert shape(page).startswith("T=7 ")
    assert page.locator('.al-hm[data-name="Q"] tbody tr').count() == 7  # on screen: drawn
    assert concat.locator("tbody tr").count() == 3  # below the screen: not yet
    concat.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelectorAll('.al-hm[data-name=\"H\"] tbody tr').length === 7")
    state = page.evaluate("() => attentionLab.mounted[0].state")
    tr = trace_of(resolve(state, ex.view, None))
    assert tr.T_k == 7
    pic = page_picture({**ex.page_config(), "state": state})
    want = {h["key"]: h for h in expected_heatmaps(pic, al.words.table(ex.lang), tr, ex.view)}
    [got] = [h for h in page.evaluate(READ)["heatmaps"] if h["key"] == "H@0"]
    assert got == want["H@0"]
    assert concat.locator("td.al-chg").count() == 0
    page.close()


PATCHED = """() => [...document.querySelectorAll('.al-breakdown')].map((node) => [node.dataset.key, node.innerHTML])"""


def test_a_breakdown_off_screen_waits_and_then_shows_the_state_reached(browser, tmp_path):
    """A breakdown below the screen is patched when it scrolls into view, as a heatmap is (issue 31: the key's
    frame does not rewrite a table nobody sees): after dh 4 → 5, which changes every score, the softmax below the
    screen still reads as before; scrolled into view, it reads exactly as Node.js builds it for the state reached."""
    from frontend import page_picture

    ex = al.explorer()
    page = browser.new_page(viewport={"width": 1280, "height": 400})
    page.goto(write(tmp_path, "below", ex).as_uri())
    page.wait_for_selector(".al-live .al-hm")
    softmax = page.locator('.al-breakdown[data-name="softmax"]')
    below = "(node) => node.getBoundingClientRect().top - innerHeight"
    assert softmax.evaluate(below) > 250  # further below than the 200 px drawn ahead of the screen
    before = softmax.inner_html()
    page.locator('[data-control="dh"]').focus()
    page.keyboard.press("ArrowRight")
    assert shape(page).startswith("T=3 ") and "dh=5" in shape(page)
    state = page.evaluate("() => attentionLab.mounted[0].state")
    pic = page_picture({**ex.page_config(), "state": state})
    [want] = [it["html"] for s in pic["sections"] for it in s["items"] if it["key"] == "softmax@0"]
    fresh = page.evaluate("(html) => { const node = document.createElement('div'); node.innerHTML = html; "
                          "return node.innerHTML; }", want)
    assert fresh != before  # the move changed the softmax's numbers
    assert softmax.inner_html() == before  # below the screen: not yet patched
    softmax.scroll_into_view_if_needed()
    page.wait_for_function("(html) => document.querySelector('.al-breakdown[data-name=\"softmax\"]').innerHTML"
                           " === html", arg=fresh)
    page.close()


# Each heatmap's table against the width its fit planned (heatmap.js fitFor: corner + cols × (cell + 1) + 4)
PLANNED = """() => [...document.querySelectorAll('.al-hm table')].map((t) => {
  const style = getComputedStyle(t), head = t.tHead.rows[t.tHead.rows.length - 1];
  const corner = parseFloat(style.getPropertyValue('--al-corner'));
  const cell = parseFloat(style.getPropertyValue('--al-cell'));
  const planned = corner + (head.cells.length - 1) * (cell + 1) + 4;
  return [t.closest('.al-hm').dataset.key, t.getBoundingClientRect().width, planned,
          Boolean(t.querySelector('th.al-rowcap'))];
})"""


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_heatmap_is_no_wider_than_its_fit_planned(browser, tmp_path, lang):
    """The width a heatmap fits (heatmap.js) counts the corner column padding included: a corner cell wider than
    --al-corner made a table up to 7 px wider than planned, past the edge of a narrow output (JupyterLab at 800 px,
    the ko edition); every table of the default view at T = 16, those with a row caption among them, is within it."""
    ex = al.explorer(T=16, lang=lang)
    page = browser.new_page(viewport={"width": 700, "height": 900})
    page.goto(write(tmp_path, "planned", ex).as_uri())
    page.wait_for_selector(".al-live .al-hm")
    page.evaluate(EVERYTHING_DRAWN)
    settle(page)
    tables = page.evaluate(PLANNED)
    assert sum(captioned for *_, captioned in tables) >= 3
    assert [(key, width, planned) for key, width, planned, _ in tables if width > planned + 0.5] == []
    page.close()


EVERYTHING_DRAWN = "() => attentionLab.mounted[0].draw(true)"


# T 3 → 4 moved in the page, then: heatmap `name`'s rows in the move's own task, and once two frames have passed
MOVE_AND_COUNT = """async (name) => {
  const rows = () => document.querySelectorAll(`.al-hm[data-name="${name}"] tbody tr`).length;
  const input = document.querySelector('[data-control="T"]');
  input.value = 4;
  input.dispatchEvent(new Event("input"));
  const inFrame = rows();
  for (let k = 0; k < 3; k++) await new Promise((done) => requestAnimationFrame(done));
  await new Promise((done) => setTimeout(done, 0));
  return [inFrame, rows()];
}"""


@pytest.mark.parametrize("below, in_frame", [(20, 4), (120, 3)], ids=["at-the-edge", "near"])
def test_a_heatmap_below_the_screen_is_drawn_in_the_moves_frame_or_just_after_it(browser, tmp_path, below, in_frame):
    """Issue 31: a move's own frame patches the heatmaps on screen and those within 48 px below it (a move grows
    the ones above by a row or so, so what it brings on screen is drawn in that frame too); one 120 px below the
    screen is patched just after that frame, ready before a scroll brings it in, with the change marks a move's
    cells get (its 2T - 1 new cells) and every cell as the Python trace gives it."""
    from frontend import page_picture
    from test_live_parity import READ, expected_heatmaps

    from attention_lab.live.state import resolve, trace_of

    ex = al.explorer()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(write(tmp_path, "near", ex).as_uri())
    page.wait_for_selector(".al-live .al-hm")
    weights = page.locator('.al-hm[data-name="P"]')
    top = weights.evaluate("(node) => node.getBoundingClientRect().top + scrollY")
    assert 400 < top - below < 900
    page.set_viewport_size({"width": 1280, "height": round(top) - below})
    settle(page)
    settle(page)  # the observers have seen the new screen
    assert page.evaluate(MOVE_AND_COUNT, "P") == [in_frame, 4]
    assert weights.locator("td.al-chg").count() == 2 * 4 - 1
    state = page.evaluate("() => attentionLab.mounted[0].state")
    tr = trace_of(resolve(state, ex.view, None))
    pic = page_picture({**ex.page_config(), "state": state})
    want = {h["key"]: h for h in expected_heatmaps(pic, al.words.table(ex.lang), tr, ex.view)}
    [got] = [h for h in page.evaluate(READ)["heatmaps"] if h["key"] == "P@0"]
    assert got == want["P@0"]
    page.close()


def test_a_move_patches_the_breakdowns_and_the_token_lists_in_place(browser, tmp_path):
    """A move rewrites a breakdown's numbers and a token list's options where they changed, and keeps the rest of
    their elements (issue 31: less for the key's frame to style, lay out and paint): T 3 → 4 adds a row to the
    softmax, an option to each token list and a column label to S, and removes none; and after moves up and down,
    each breakdown reads
    exactly as a fresh build of the picture's html that Node.js computes for the state reached."""
    from frontend import page_picture

    ex = al.explorer()
    page, _, errors = open_page(browser, write(tmp_path, "patched", ex))
    page.evaluate("""() => { window.kept = [...document.querySelectorAll('.al-breakdown *, [data-control="row"] option,'
                                   + ' [data-control="query"] option, .al-hm[data-name="S"] thead th')]; }""")
    page.locator('[data-control="T"]').focus()
    page.keyboard.press("ArrowRight")
    assert shape(page).startswith("T=4 ")
    assert page.evaluate("() => window.kept.length > 40 && window.kept.every((n) => n.isConnected)")
    assert page.locator('[data-control="row"] option').all_text_contents() == ["1", "2", "3", "4"]
    assert page.locator('.al-hm[data-name="S"] thead th.al-col').all_text_contents() == ["1", "2", "3", "4"]
    for key in ["ArrowRight"] * 3 + ["ArrowLeft"] * 5:
        page.keyboard.press(key)
        settle(page)
    assert shape(page).startswith("T=2 ")
    page.locator('.al-hm[data-name="P"] tbody tr').nth(1).locator("td").first.click()  # another row: other numbers
    settle(page)
    state = page.evaluate("() => attentionLab.mounted[0].state")
    pic = page_picture({**ex.page_config(), "state": state})
    want = [[it["key"], it["html"]] for s in pic["sections"] for it in s["items"] if it["type"] == "breakdown"]
    fresh = page.evaluate("""(want) => want.map(([key, html]) => {
      const node = document.createElement('div');
      node.innerHTML = html;
      return [key, node.innerHTML];
    })""", want)
    assert page.evaluate(PATCHED) == fresh and len(fresh) == 3
    page.evaluate("() => document.querySelector('.al-breakdown td').append('9')")  # a stale number left behind
    assert page.evaluate(PATCHED) != fresh
    assert page.locator('[data-control="row"] option').all_text_contents() == ["1", "2"]
    assert not errors
    page.close()


FIT = """() => {
  const root = document.querySelector('.al-live'), edge = root.getBoundingClientRect().right + 0.5;
  const over = [], scrolled = [];
  for (const node of root.querySelectorAll('.al-hm, .al-hm table, .al-breakdown, .al-note, .al-shape, .al-ctl, '
                                           + '[data-control], .al-ctlrow')) {
    const r = node.getBoundingClientRect();
    if (r.width && r.right > edge) over.push(`${node.className} ${node.dataset.key || node.dataset.control || ''}`
                                             + `: ${Math.round(r.right)} > ${Math.round(edge)}`);
  }
  for (const node of [document.documentElement, ...document.querySelectorAll('*')]) {
    if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0
        && /auto|scroll/.test(getComputedStyle(node).overflowX)) scrolled.push(node.className || node.tagName);
  }
  return {over, scrolled, page: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""
SIZES = {"smallest": {"T": 1, "d": 1, "h": 1}, "largest": {"T": 16, "d": 64, "h": 8}}


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_size_fits_the_width_it_is_given(browser, tmp_path, width, size, lang):
    ex = al.explorer(lang=lang, **SIZES[size])
    path = write(tmp_path, f"{lang}-{size}-{width}", ex)
    page, _, errors = open_page(browser, path, width)
    for head in (["0", "-1"] if size == "largest" else ["0"]):  # one head with its breakdowns; all heads side by side
        if head == "-1":
            page.locator('[data-control="head"]').select_option(head)
            settle(page)
        fit = page.evaluate(FIT)
        assert not fit["over"] and not fit["scrolled"] and fit["page"] <= 0, fit
        shots = os.environ.get("ATTENTION_LAB_SCREENSHOTS")
        if shots:
            page.screenshot(path=str(Path(shots) / f"page-{lang}-{size}-{width}-head{head}.png"), full_page=True)
    if size == "largest" and width == 1280:
        assert page.locator('.al-hm[data-name="P"]').count() == 8  # the heads' P side by side
    assert not errors
    page.close()


def axe_source():  # -> the text of axe.min.js, installed from npm when missing
    script = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("needs npm to install axe-core (apt-get install npm), or AXE_CORE_DIR with axe-core in it")
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund", "--silent",
                        f"axe-core@{AXE_VERSION}"], check=True, timeout=300)
    return script.read_text(encoding="utf-8")


@pytest.mark.parametrize(("lang", "view", "kwargs"), [("ko", "all", {}), ("en", "all", {"T": 16, "h": 8, "dh": 8}),
                                                      ("ko", "softmax", {}), ("en", "queries", {"queries": 2})])
def test_axe_core_finds_no_violations(browser, tmp_path, lang, view, kwargs):
    source = axe_source()
    page, _, errors = open_page(browser, write(tmp_path, f"axe-{lang}-{view}", al.explorer(lang=lang, view=view,
                                                                                             **kwargs)))
    page.add_script_tag(content=source)
    found = page.evaluate("async () => (await axe.run(document)).violations.map((v) => "
                          "[v.id, v.help, v.nodes.slice(0, 3).map((n) => n.target.join(' '))])")
    assert found == [], found
    if "h" in kwargs:
        page.locator('[data-control="head"]').select_option("-1")
        settle(page)
    found = page.evaluate("async () => (await axe.run(document)).violations.map((v) => [v.id, v.help])")
    assert found == [] and not errors, found
    page.close()


def test_two_explorers_mounted_in_one_page_work_side_by_side(browser, tmp_path):
    js, css = pages.bundle()
    one, two = al.explorer(view="scores").page_config(), al.explorer(view="softmax", lang="ko").page_config()
    path = tmp_path / "site.html"
    path.write_text(f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>site</title><style>{css}"
                    f"</style></head><body><main>{pages.mount_html(one)}<p>text</p>{pages.mount_html(two)}</main>"
                    f"<script type='module'>{js}\nmountAll(document);</script></body></html>", encoding="utf-8")
    page, refused, errors = open_page(browser, path)
    assert page.locator(".al-live").count() == 2
    page.locator('[data-control="T"]').first.focus()
    page.keyboard.press("ArrowRight")
    settle(page)
    assert [s.startswith("T=4 ") for s in page.locator(".al-shape").all_text_contents()] == [True, False]
    assert not refused and not errors
    page.close()


def test_a_config_is_json_whatever_text_it_holds():
    config = {"kind": "explorer", "viewName": "<!-- x </script><script>alert(1)</script> -->", "ko": "한국어 <b>"}
    fragment = pages.mount_html(config)
    inline = fragment.split('class="al-config">', 1)[1].rsplit("</script></div>", 1)[0]
    assert "<" not in inline and json.loads(inline) == config


def test_a_broken_config_costs_its_own_place_only(browser, tmp_path):
    js, css = pages.bundle()
    first = al.explorer(view="scores").page_config()
    first["viewName"] = "<!-- a comment's marks --> </script>"  # text that once made the config invalid JSON
    rows_over = al.explorer(view="softmax", Q=np.ones((3, 4)), K=np.ones((3, 4)), V=np.ones((3, 4)), h=2).page_config()
    rows_over["data"]["own"]["Q"] = [[1.0] * 4] * 5  # 5 Query rows for 3 Key tokens: no explorer can show it
    last = al.explorer(view="softmax", lang="ko").page_config()
    parts = [pages.mount_html(first), '<div class="al-mount"><script type="application/json" class="al-config">{'
             "</script></div>", pages.mount_html(rows_over), pages.mount_html(last)]
    path = tmp_path / "site.html"
    path.write_text(f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>site</title><style>{css}"
                    f"</style></head><body><main>{''.join(parts)}</main>"
                    f"<script type='module'>{js}\nmountAll(document);</script></body></html>", encoding="utf-8")
    page, refused, errors = open_page(browser, path)
    assert page.evaluate("() => attentionLab.mounted.length") == 2 and page.locator(".al-live").count() == 2
    said = page.locator(".al-mount .al-msg-bad[role=alert]").all_text_contents()
    assert len(said) == 2 and all(s.startswith("This explorer cannot be drawn: ") for s in said), said
    assert page.locator(".al-live .al-hm").count() > 2 and "Softmax" in page.locator(".al-live").last.text_content()
    assert not refused and not errors, (refused, errors)
    page.close()
