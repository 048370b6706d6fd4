"""On a phone (390 px wide) nothing of a control is cut off: its label, the control and, for a select, the text of
every choice it can show, on the standalone page and on the course site, in both languages.

CUT (below) is the measure: each visible control's label box and the control itself lie inside the viewport, no
ancestor clips them, and a select is as wide as it would be with room for its longest choice. It runs on a catalogue
of cut controls first, so that its silence on the real pages means something.

ATTENTION_LAB_SCREENSHOTS=folder saves a PNG of each page measured there, to look at.
"""

import os
import shutil
from pathlib import Path

import pytest
from servers import offline

import attention_lab as al
from attention_lab import site

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 390

CUT = """() => {
  const vw = document.documentElement.clientWidth, cut = [];
  const clipped = (node) => {  // an ancestor that hides part of it (overflow other than visible)
    const box = node.getBoundingClientRect();
    for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const r = up.getBoundingClientRect(), left = r.left + up.clientLeft, top = r.top + up.clientTop;
      if (box.left < left - 0.5 || box.top < top - 0.5 || box.right > left + up.clientWidth + 0.5
          || box.bottom > top + up.clientHeight + 0.5) return up;
    }
    return null;
  };
  for (const control of document.querySelectorAll('[data-control], button, select, input')) {
    if (!control.getClientRects().length) continue;  // hidden: not offered in this state
    const name = control.dataset.control || control.className || control.tagName, label = control.closest('label');
    for (const node of label ? [label, control] : [control]) {
      const box = node.getBoundingClientRect();
      if (box.left < -0.5 || box.right > vw + 0.5) cut.push(`${name}: ${node.tagName} at ${Math.round(box.left)}..`
                                                               + `${Math.round(box.right)} of ${vw}`);
      const clip = clipped(node);
      if (clip) cut.push(`${name}: ${node.tagName} clipped by ${clip.tagName}.${clip.className}`);
    }
    if (control.tagName === 'SELECT') {  // the same select with room: as wide as its longest choice needs
      const free = control.cloneNode(true);
      free.removeAttribute('data-control');  // in its place, so that the page's styles size it, and out of the flow
      free.style.cssText = 'position:absolute; width:max-content; min-width:0; max-width:none; flex:none';
      control.after(free);
      const needed = free.getBoundingClientRect().width, given = control.getBoundingClientRect().width;
      free.remove();
      if (needed > given + 0.5) cut.push(`${name}: its choices need ${Math.round(needed)} px, it has `
                                         + `${Math.round(given)}`);
    }
  }
  return cut;
}"""

# Each breaks one control of the page the way a phone's layout can (CSS), or as the alignment's choices did (a script
# that puts its old, long label back): the measure must name it.
WRONG_LAYOUTS = {
    "a select narrower than its choices": ("css", '[data-control="head"] { max-width: 40px; width: 40px; }'),
    "a label pushed past the right edge": ("css", 'label:has([data-control="marks"]) { margin-left: 360px; }'),
    "a label clipped by its row": ("css", '.al-ctlrow:has([data-control="seed"]) { overflow: hidden; width: 60px; }'
                                          ' .al-ctlrow:has([data-control="seed"]) > * { flex: none; }'),
    "a choice longer than its select has room for": (
        "js", "() => { document.querySelector('[data-control=\"align\"]').options[0].text ="
              " 'bottom-right: the last Query token is the last Key token'; }"),
}


def shot(page, name):
    folder = os.environ.get("ATTENTION_LAB_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"phone-{name}.png"), full_page=True)


def open_at_390(browser, url):
    page = browser.new_page(viewport={"width": WIDTH, "height": 844})
    offline(page)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector(".al-live [data-control]")
    return page, errors


@pytest.fixture(scope="module")
def queries_page(tmp_path_factory):  # -> {lang: path}: the explorer with every kind of control, align included
    folder = tmp_path_factory.mktemp("phone")
    paths = {}
    for lang in ("ko", "en"):
        paths[lang] = folder / f"queries-{lang}.html"
        al.explorer(view="queries", queries=2, lang=lang).save_html(str(paths[lang]))
    return paths


@pytest.mark.parametrize("wrong", list(WRONG_LAYOUTS))
def test_the_measure_finds_a_cut_control(browser, queries_page, wrong):
    page, _ = open_at_390(browser, queries_page["en"].as_uri())
    assert page.evaluate(CUT) == []  # as drawn
    kind, change = WRONG_LAYOUTS[wrong]
    if kind == "css":
        page.add_style_tag(content=change)
    else:
        page.evaluate(change)
    assert page.evaluate(CUT), wrong
    page.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("mask", ["causal", "window", "packed"])
def test_no_control_of_the_page_is_cut_at_390_px(browser, queries_page, lang, mask):
    page, errors = open_at_390(browser, queries_page[lang].as_uri())
    page.locator('[data-control="mask"]').select_option(mask)  # each mask shows its own controls
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.locator('[data-control="align"]').is_visible()
    assert page.evaluate(CUT) == [], (lang, mask)
    shot(page, f"page-{lang}-{mask}")
    assert not errors
    page.close()


@pytest.fixture(scope="module")
def site_pages(tmp_path_factory):  # -> folder of a site of the notebook whose explorer has the alignment select
    notebooks = tmp_path_factory.mktemp("notebooks")
    for lang in ("ko", "en"):
        (notebooks / lang).mkdir()
        shutil.copy(ROOT / "notebooks" / lang / "12_queries_and_keys.ipynb", notebooks / lang)
    out = tmp_path_factory.mktemp("site") / "site"
    site.build(out, notebooks=notebooks, search=False)
    return out


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_control_of_the_site_is_cut_at_390_px(browser, site_pages, lang):
    page, errors = open_at_390(browser, (site_pages / lang / "12_queries_and_keys.html").as_uri())
    page.locator('[data-control="align"]').first.scroll_into_view_if_needed()
    assert page.locator('[data-control="align"]').first.is_visible()
    assert page.evaluate(CUT) == [], lang
    shot(page, f"site-{lang}")
    assert not errors
    page.close()
