"""Key press → painted, for the explorer in JupyterLab and as a standalone page, beside the floor, in one run.

    python benchmarks/bench_browser_latency.py [--presses 26] [--holds 6] [--json out.json]

One JupyterLab server, one headless Chromium. Each row drives its own T control with → and ← (T from 3 up to 16
and back, ≥ 20 presses), one press at a time:

  floor     an ipywidgets IntSlider whose observer sets an ipywidgets.HTML to "T = t": the least a control that
            waits for the kernel can cost (JupyterLab + server + kernel + comm round trip);
  notebook  al.explorer(), the default view, in the same notebook: its page computes and draws the picture;
  page      the same explorer saved as a standalone page (ex.save_html), opened from file://.

Then a held key (a keydown every 33 ms, as a keyboard's auto-repeat) on al.explorer(T=1, d=64, h=8) with all
heads shown, T 1 → 16 and back, in the notebook and in the page, timed from the last keydown to the final
picture painted.

In the page: t0 = the keydown (a capturing listener on the window, added before any page script);
"DOM" = a MutationObserver sees the row's final text;
"paint" = the end of the frame that shows it (a task posted from that frame's animation callbacks, so after its
style, layout and paint). Milliseconds, median and p90. It replaces benchmarks/bench_explorer.py, which timed
the Python path of the kernel-driven explorer (no longer on a slider's path).
"""

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

import nbformat

import attention_lab as al

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from servers import chromium  # noqa: E402
from test_browser import jupyter_lab, run_all_cells  # noqa: E402

CELLS = {
    "floor": """\
import ipywidgets as W
out = W.HTML('<span data-t="3">T = 3</span>')
s = W.IntSlider(value=3, min=1, max=16, description="T")
s.observe(lambda c: setattr(out, "value", f'<span data-t="{c["new"]}">T = {c["new"]}</span>'), names="value")
box = W.VBox([s, out]); box.add_class("bench-floor"); box""",
    "notebook": 'import attention_lab as al\nex = al.explorer(); ex.add_class("bench-notebook"); ex',
    "held": 'import attention_lab as al\nheld = al.explorer(T=1, d=64, h=8); held.controls["head"].value = -1\n'
            'held.add_class("bench-held"); held',
}
CONTROL = {"floor": ".bench-floor .widget-slider .noUi-handle", "notebook": '.bench-notebook [data-control="T"]',
           "page": '[data-control="T"]', "held": '.bench-held [data-control="T"]', "held page": '[data-control="T"]'}
DONE = {
    "floor": "(t) => !!document.querySelector(`.bench-floor [data-t='${t}']`)",
    "notebook": "(t) => document.querySelector('.bench-notebook .al-shape').textContent.startsWith(`T=${t} `)",
    "page": "(t) => document.querySelector('.al-shape').textContent.startsWith(`T=${t} `)",
    "held": "(t) => document.querySelector('.bench-held .al-shape').textContent.startsWith(`T=${t} `)",
}
DONE["held page"] = DONE["page"]
# Before any page script: timestamp each arrow keydown where capturing starts (on the window, before the explorer's
# own listener there keeps the key from the notebook), and mark the animation callbacks, so that a change made
# inside one is known to be painted at the end of that same frame.
FRAMES = """
window.addEventListener('keydown', e => {
  if (window.__probe && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) window.__probe.t0 = performance.now();
}, true);
const native = window.requestAnimationFrame.bind(window);
window.__inFrame = false;
window.requestAnimationFrame = (fn) => native((t) => { window.__inFrame = true;
  try { fn(t); } finally { window.__inFrame = false; } });
"""
PROBE = """() => {
  const p = window.__probe = {t0: null, done: null, expect: null, res: null};
  const painted = (dom) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => { p.res = {dom: dom - p.t0, paint: performance.now() - p.t0}; };
    ch.port2.postMessage(0);
  };
  new MutationObserver(() => {
    if (p.t0 === null || p.res !== null || !p.done(p.expect)) return;
    const dom = performance.now();
    p.res = 'pending';
    if (window.__inFrame) painted(dom);  // changed in this frame's animation callbacks: painted at its end
    else requestAnimationFrame(() => painted(dom));
  }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
ARM = "([done, t]) => { const p = window.__probe; p.done = eval(done); p.expect = t; p.t0 = null; p.res = null; }"
RESULT = "() => window.__probe.res && window.__probe.res !== 'pending'"


def sweep(presses):  # -> [(key, T after the press)]: 3 → 16 → 3 → … as many presses as asked
    steps, t, up = [], 3, True
    while len(steps) < presses:
        if (up and t == 16) or (not up and t == 3):
            up = not up
        t += 1 if up else -1
        steps.append(("ArrowRight" if up else "ArrowLeft", t))
    return steps


def measure(page, row, presses):  # -> list of per-press dicts
    control = page.locator(CONTROL[row]).first
    control.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    results = []
    for key, t in sweep(presses):
        page.evaluate(ARM, [DONE[row], t])
        control.focus()
        page.keyboard.press(key)
        page.wait_for_function(RESULT, timeout=30_000)
        results.append(page.evaluate("() => window.__probe.res"))
        page.wait_for_timeout(80)  # let the kernel go idle and the page settle between presses
    return results


def hold(page, row, sweeps, interval=33):  # -> list of per-sweep dicts: held → from T = 1 to 16, held ← back to 1
    control = page.locator(CONTROL[row]).first
    control.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    results = []
    for n in range(sweeps):
        key, final = ("ArrowRight", 16) if n % 2 == 0 else ("ArrowLeft", 1)
        page.evaluate(ARM, [DONE[row], final])
        control.focus()
        for _ in range(15):
            page.keyboard.down(key)
            page.wait_for_timeout(interval)
        page.keyboard.up(key)
        page.wait_for_function(RESULT, timeout=30_000)
        results.append(page.evaluate("() => window.__probe.res"))
        page.wait_for_timeout(400)
    return results


def stat(xs):  # -> (median, p90) as text
    xs = sorted(xs)
    return f"{statistics.median(xs):6.1f}", f"{xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]:6.1f}"


def new_page(browser):
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    page.set_default_timeout(60_000)
    page.add_init_script(FRAMES)
    return page


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=26, help="key presses per row (≥ 20)")
    ap.add_argument("--holds", type=int, default=6, help="held-key sweeps (alternately up and down)")
    ap.add_argument("--json", help="also write every press's timings here")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "nb").mkdir()
        for name, rows in (("bench", ("floor", "notebook")), ("held", ("held",))):
            nb = nbformat.v4.new_notebook()
            nb.cells = [nbformat.v4.new_code_cell(CELLS[row]) for row in rows]
            nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
            nbformat.write(nb, tmp / "nb" / f"{name}.ipynb")
        standalone, largest = tmp / "page.html", tmp / "largest.html"
        al.explorer().save_html(str(standalone))
        ex = al.explorer(T=1, d=64, h=8)
        ex.controls["head"].value = -1
        ex.save_html(str(largest))
        with jupyter_lab(tmp / "nb", tmp) as (base, token), sync_playwright() as p:
            browser = chromium(p)
            try:
                page = new_page(browser)
                run_all_cells(page, f"{base}/lab/tree/bench.ipynb?reset&token={token}", ".bench-notebook .al-hm")
                page.evaluate(PROBE)
                for row in ("floor", "notebook"):
                    results[row] = measure(page, row, args.presses)
                page.close()
                for row, path in (("page", standalone), ("held page", largest)):
                    page = new_page(browser)
                    page.goto(path.as_uri())
                    page.wait_for_selector(".al-hm")
                    page.evaluate(PROBE)
                    results[row] = measure(page, row, args.presses) if row == "page" else hold(page, row,
                                                                                               args.holds)
                    page.close()
                page = new_page(browser)
                run_all_cells(page, f"{base}/lab/tree/held.ipynb?reset&token={token}", ".bench-held .al-hm")
                page.evaluate(PROBE)
                results["held"] = hold(page, "held", args.holds)
                version = browser.version
            finally:
                browser.close()

    print(f"Key press → painted, headless Chromium {version}, {args.presses} presses per row (T 3→16→3), "
          "ms after the keydown\n")
    print(f"{'row':<26} | {'DOM med':>7} {'p90':>6} | {'paint med':>9} {'p90':>6} | paint − floor")
    print("-" * 76)
    floor = statistics.median(r["paint"] for r in results["floor"])
    words = {"floor": "floor (one-line widget)", "notebook": "explorer in JupyterLab", "page": "standalone page"}
    for row in ("floor", "notebook", "page"):
        res = results[row]
        dom, paint = stat([r["dom"] for r in res]), stat([r["paint"] for r in res])
        gap = statistics.median(r["paint"] for r in res) - floor
        print(f"{words[row]:<26} | {dom[0]:>7} {dom[1]:>6} | {paint[0]:>9} {paint[1]:>6} | {gap:+8.1f}")
    print(f"\nHeld key, al.explorer(T=1, d=64, h=8), all heads, T 1 → 16 and back, {args.holds} sweeps: ms from the "
          "last keydown to the final picture painted")
    print(f"{'':<26} | {'paint med':>9} {'max':>6}")
    for row, word in (("held", "explorer in JupyterLab"), ("held page", "standalone page")):
        paints = [r["paint"] for r in results[row]]
        print(f"{word:<26} | {statistics.median(paints):>9.1f} {max(paints):>6.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
