"""Adding a stage is one pipeline entry and its words: it reaches the trace, the explorer's views and page,
the figures and the figures command, the standalone page and the course site, with no list edited. Adding a mask
is one registry entry and its words: it reaches the page and the site the same way.

A copy of the package gets one new entry in `numeric/pipeline.py` (the reviewer's log P: the log of the weights,
whose expression is ("log", "P")) and its title in `look/words/core.py`, and nothing else; a fresh Python that
imports the copy finds the stage everywhere. The browser computes it from the same expression, sent as data
(`live/compute.js` evaluates the pipeline's expressions): the copy's standalone page and a site built by the copy
show its heatmaps in Chromium, cell by cell the labels of the copy's trace. The reviewer's other scratch change,
a "dilated" mask with a `step`, is one entry of `numeric/masks.py` and its words in another copy: its page and site
show the mask the rule gives, written cell by cell here (tests/test_registries.py follows it through the trace,
the controls and the figures command).
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

import attention_lab

PACKAGE = Path(attention_lab.__file__).resolve().parent
ENTRY = '''    Stage("logP", "log P", "scores", "query", QK, ("log", "P"), highlight="row"),
'''
WORDS = "    'stage.logP': ('가중치의 로그 log P', 'log P'),\n"

PAGE_AND_SITE = r'''
import json, sys
from pathlib import Path
import attention_lab as al
from attention_lab import site
from attention_lab.live import page
from attention_lab.look.formats import format_value

out = Path(sys.argv[1])


def page_and_site(ex, out):  # the explorer's standalone page, and a site of one stored notebook holding it
    (out / "page.html").write_text(page.standalone_html(ex.page_config()), encoding="utf-8")
    VIEW, STATE = "application/vnd.jupyter.widget-view+json", "application/vnd.jupyter.widget-state+json"
    model = {"model_name": "AnyModel", "state": {"config": ex.config, "state": ex.state, "own": ex.own}}
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"widgets": {STATE: {"state": {"m1": model}}}},
          "cells": [{"cell_type": "markdown", "metadata": {}, "source": "# A scratch change"},
                    {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "ex",
                     "outputs": [{"output_type": "display_data", "metadata": {}, "data": {VIEW: {"model_id": "m1"}}}]}]}
    (out / "notebooks" / "en").mkdir(parents=True)
    (out / "notebooks" / "en" / "00_scratch.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    site.build(out / "site", notebooks=out / "notebooks", binder=None, search=False)
'''
CHECK = PAGE_AND_SITE + r'''
import numpy as np
from attention_lab.figures import command
from attention_lab.live import views
from attention_lab.numeric import pipeline

sys.path.insert(0, sys.argv[2])  # tests/, for frontend.py: the front-end's picture code run in Node.js
from frontend import page_picture

tr = al.article_example()
fig = al.figures.figure_stages(tr, head=0, lang="en")
titles = [ax.get_title().replace("\n", " ") for ax in fig.axes]
drawn = json.dumps(page_picture(al.explorer(view="all", lang="en").page_config()), ensure_ascii=False)
status = command.main(["--out", str(out / "figures"), "--format", "png", "--lang", "ko"])

# the standalone page of the "all" view, and a site of one stored notebook holding that explorer
ex = al.explorer(view="all", lang="en")
ex.controls["head"].value = -1  # every head
ex.controls["compare"].value = "logP"  # the stage the view shows beside Q, K, V and H: the new one is a choice
page_and_site(ex, out)

print(json.dumps({
    "file": al.__file__,
    "order": list(pipeline.STAGES),
    "head_stages": list(pipeline.HEAD_STAGES),
    "row3": tr.logP[0, 2].tolist(),
    "S_scaled_row3": tr.S_scaled[0, 2].tolist(),
    "in_arrays": "logP" in tr.arrays(),
    "views": {name: "logP" in view.items for name, view in views.VIEWS.items()},
    "titles": titles,
    "in_picture": '"logP"' in drawn,
    "status": status,
    "labels": [[format_value(x, "scores") for x in ex.trace.logP[head].ravel()] for head in range(ex.trace.h)],
}))
'''
READ = """(name) => ({
  heatmaps: [...document.querySelectorAll(`.al-hm[data-name="${name}"]`)].map((h) => ({
    head: +h.dataset.head, title: h.querySelector('.al-title').textContent,
    cells: [...h.querySelectorAll('tbody td')].map((td) => td.textContent)})),
  masks: [...document.querySelectorAll('[data-control="mask"] option')].map((o) => [o.value, o.text]),
})"""


def scratch_copy(tmp_path, *edits):  # -> the copy's folder: the package with each (file, anchor, text before it)
    copy = tmp_path / "attention_lab"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for file, anchor, text in edits:
        source = (copy / file).read_text()
        assert source.count(anchor) == 1, (file, anchor)
        (copy / file).write_text(source.replace(anchor, text + anchor))
    return copy


def run_in(copy, script, out):  # -> what the script printed last, as JSON: run by a fresh Python importing the copy
    out.mkdir()
    tests = str(Path(__file__).parent)  # for frontend.py
    run = subprocess.run([sys.executable, "-c", script, str(out), tests], cwd=copy.parent, capture_output=True,
                         text=True, env={"PYTHONPATH": str(copy.parent), "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg"})
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert Path(seen["file"]).resolve().parent == copy  # the copy, not the installed package
    return seen


def shown(browser, url, name):  # -> the page's heatmaps of stage `name` in Chromium, and its mask control's choices
    page = browser.new_page(viewport={"width": 1900, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector(f'.al-hm[data-name="{name}"] tbody td')
    for k in range(page.locator(f'.al-hm[data-name="{name}"]').count()):  # a heatmap off screen is drawn in view
        page.locator(f'.al-hm[data-name="{name}"]').nth(k).scroll_into_view_if_needed()
    found = page.evaluate(READ, name)
    page.close()
    assert not errors, errors
    return found


def test_one_pipeline_entry_and_its_words_reach_every_layer(tmp_path, browser):
    copy = scratch_copy(tmp_path, ("numeric/pipeline.py", '    Stage("P_unscaled", ', ENTRY),
                        ("look/words/core.py", "    'stage.E': ", WORDS))
    out = tmp_path / "out"
    seen = run_in(copy, CHECK, out)

    # the trace: a field, in the pipeline's order, computed from the stage before it
    assert seen["order"].index("P") < seen["order"].index("logP") < seen["order"].index("O")
    assert seen["in_arrays"] and seen["S_scaled_row3"] == [1.0, 0.0, 3.0]  # the article's token 3, scaled
    row3 = np.array([1.0, 0.0, 3.0]) - np.log(np.exp(1) + np.exp(0) + np.exp(3))  # log softmax, by hand
    np.testing.assert_allclose(seen["row3"], row3, rtol=1e-14)
    # every stage of a head, and the explorer's views that span the stages around it
    assert "logP" in seen["head_stages"]
    assert seen["views"]["all"] and seen["views"]["article"]
    assert not seen["views"]["softmax"]  # S_masked … P: a span that ends before it
    assert seen["in_picture"]  # the front-end's picture of the copy's config (run in Node.js) draws it
    # the figures and the figures command, with its words
    assert "log P" in seen["titles"]
    assert seen["status"] == 0 and (out / "figures" / "stages_head1_ko.png").stat().st_size > 0

    # the standalone page and the site: the browser computes log P from its expression, every head, every cell
    labels = seen["labels"]
    assert labels[0][:3] == ["0", "−∞", "−∞"]  # token 1 sees only itself: log 1, then the masked log 0
    for url in ((out / "page.html").as_uri(), (out / "site" / "en" / "00_scratch.html").as_uri()):
        found = shown(browser, url, "logP")["heatmaps"]
        assert [h["head"] for h in found] == list(range(len(labels))), url
        for heatmap in found:
            assert "log P" in heatmap["title"] and heatmap["cells"] == labels[heatmap["head"]], url


MASK_ENTRY = '''    MaskKind("dilated", lambda p, j, T, step: (j <= p) & ((p - j) % step == 0),
             (Param("step", default=2, lo=1, hi_T=0),)),
'''
MASK_WORDS = ("    'mask.dilated': ('팽창 마스크', 'dilated'),\n    'mask.dilated.caption': ('간격', 'Every step.'),\n"
              "    'mask.dilated.used': ('시험용', 'tests'),\n    'param.dilated.step': ('간격', 'step'),\n")
MASK_CHECK = PAGE_AND_SITE + r'''
ex = al.explorer(view="masks", T=7, mask=al.Mask("dilated", step=3), lang="en")
page_and_site(ex, out)
print(json.dumps({"file": al.__file__, "labels": [format_value(x, "scores") for x in ex.trace.M.ravel()]}))
'''


def test_one_mask_entry_and_its_words_reach_the_page_and_the_site(tmp_path, browser):
    copy = scratch_copy(tmp_path, ("numeric/masks.py", '    MaskKind("custom", None),', MASK_ENTRY),
                        ("look/words/core.py", "    'mask.sliding': ", MASK_WORDS))
    out = tmp_path / "out"
    seen = run_in(copy, MASK_CHECK, out)

    def by_hand(T, step):  # token i sees token j when j ≤ i and i − j is a multiple of step
        return ["0" if j <= i and (i - j) % step == 0 else "−∞" for i in range(T) for j in range(T)]

    assert seen["labels"] == by_hand(7, 3)
    for url in ((out / "page.html").as_uri(), (out / "site" / "en" / "00_scratch.html").as_uri(),
                (out / "page.html").as_uri() + "#T=9&mask=dilated:step=2"):  # another T and step, from the page's data
        found = shown(browser, url, "M")
        assert ["dilated", "dilated"] in found["masks"], url
        T, step = (9, 2) if "#" in url else (7, 3)
        assert found["heatmaps"] and all(h["cells"] == by_hand(T, step) for h in found["heatmaps"]), url
