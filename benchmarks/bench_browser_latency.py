"""Key press → repaint in JupyterLab (headless Chromium), the explorer beside the floor of the stack, in one run.

    python benchmarks/bench_browser_latency.py [--presses 26] [--holds 4] [--json out.json]

One scratch notebook, one kernel, one page; each row drives its own IntSlider
(T from 3 up to 16 and back with → and ←, ≥ 20 presses):

  baseline  an IntSlider whose observer sets an ipywidgets.HTML to a short string:
            the floor of JupyterLab + server + kernel + comm round trip;
  html      the same slider setting an HTML widget to a precomputed string of the
            explorer's picture for that T as HTML tables (html.heatmap_html): what
            replacing the whole view's HTML costs the browser, ~0 kernel work;
  scaling   al.explorer(view="scaling"), a small view;
  explorer  al.explorer(), the full view of notebook 07 (its picture patched in place).

Then the held key and the drag, on al.explorer(T=1, d=64, h=8) with all heads shown:
→ held down (a keydown every 33 ms, as a keyboard's auto-repeat) from T = 1 to 16, then
← back to 1; and the slider's handle dragged from end to end in 30 small moves. Each
is timed from the last keydown (or mouse move) to the final picture painted.

In the page: t0 = keydown (capturing listener); "ws→" = the slider's comm message
leaving on the kernel WebSocket; "←ws" = the first kernel message back; "DOM" =
a MutationObserver sees the row's final text (the last widget of the step to
change); "rAF" = the next animation frame (what tests/test_browser.py reports);
"paint" = a task posted from that frame, i.e. after its style, layout and paint.
Milliseconds, median and p90. Reuses the launch recipe of tests/test_browser.py.
"""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import nbformat

import attention_lab as al

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from test_browser import CHROMIUM_ARGS, jupyter_lab, run_all_cells  # noqa: E402

SETUP = """\
import ipywidgets as W
import attention_lab as al

def bench_slider(name, on_value):  # an IntSlider like the explorer's T slider, its observer, and a CSS hook
    s = W.IntSlider(value=3, min=1, max=16, description="T")
    s.observe(lambda c: on_value(c["new"]), names="value")
    return s
"""
CELLS = {
    "baseline": """\
out = W.HTML('<span data-t="3">T = 3</span>')
box = W.VBox([bench_slider("baseline", lambda t: setattr(out, "value", f'<span data-t="{t}">T = {t}</span>')), out])
box.add_class("bench-baseline"); box""",
    "html": """\
from attention_lab.look import tables as hm
from attention_lab.numeric.pipeline import STAGES

def page_of(t):  # the default picture (Head 1) as one string of HTML tables
    tr = al.explorer(T=t).trace
    names = ("Q", "K", "V", "S", "S_scaled", "M", "S_masked", "P", "Vh", "O", "H")
    return hm.page(*(hm.heatmap_html(STAGES[n].matrix(tr, 0), STAGES[n].kind, title=n, name=n) for n in names))

pages = {t: page_of(t) for t in range(1, 17)}
big = W.HTML(pages[3])
box = W.VBox([bench_slider("html", lambda t: setattr(big, "value", pages[t])), big])
box.add_class("bench-html"); box""",
    "scaling": 'ex = al.explorer(view="scaling"); ex.add_class("bench-scaling"); ex',
    "explorer": 'ex = al.explorer(); ex.add_class("bench-explorer"); ex',
    "held": 'ex = al.explorer(T=1, d=64, h=8); ex.controls["head"].value = -1; ex.add_class("bench-held"); ex',
}
# The element whose content says "T = t is on screen", per row: the last widget of a step to change.
DONE = {
    "baseline": "(t) => !!document.querySelector(`.bench-baseline [data-t='${t}']`)",
    "html": "(t) => !!document.querySelector(`.bench-html .al-hm[data-name='H'] table[data-rows='${t}']`)",
    # the explorer draws its shape line and every heatmap in sight in one go (those out of sight when they come in)
    "scaling": "(t) => document.querySelector('.bench-scaling .al-shape').textContent.startsWith(`T=${t} `)",
    "explorer": "(t) => document.querySelector('.bench-explorer .al-shape').textContent.startsWith(`T=${t} `)",
    "held": "(t) => document.querySelector('.bench-held .al-shape').textContent.startsWith(`T=${t} `)",
}
ROWS = ("baseline", "html", "scaling", "explorer")  # one key press at a time

# Before any page script: timestamp every frame on the kernel WebSocket (…/channels), sent and received.
WS_HOOK = """
window.__ws = {sent: [], recv: []};
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(url, ...rest) {
    super(url, ...rest);
    this.__kernel = String(url).includes('/channels');
    if (this.__kernel) this.addEventListener('message', () => window.__ws.recv.push(performance.now()));
  }
  send(data) { if (this.__kernel) window.__ws.sent.push(performance.now()); return super.send(data); }
};
"""
PROBE = """(done) => {
  const p = window.__probe = {t0: null, done: null, expect: null, res: null};
  document.addEventListener('keydown', e => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') p.t0 = performance.now();
  }, true);
  document.addEventListener('pointermove', e => { if (e.buttons) p.t0 = performance.now(); }, true);
  new MutationObserver(() => {
    if (p.t0 === null || p.res !== null || !p.done(p.expect)) return;
    const tm = performance.now();
    p.res = 'pending';
    requestAnimationFrame(() => {
      const tr = performance.now();
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        const sent = window.__ws.sent.filter(t => t >= p.t0), recv = window.__ws.recv.filter(t => t >= p.t0);
        const sendAt = sent.length ? sent[0] : NaN;
        p.res = {dom: tm - p.t0, raf: tr - p.t0, paint: performance.now() - p.t0, send: sendAt - p.t0,
                 recv: (recv.find(t => t >= sendAt) ?? NaN) - p.t0, sends: sent.length,
                 msgs: recv.filter(t => t <= tm).length};
      };
      ch.port2.postMessage(0);
    });
  }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
# --nodelay: a server config that turns Nagle's algorithm off on kernel WebSockets (jupyter_server leaves it on).
NODELAY_CONFIG = """\
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler

_open = KernelWebsocketHandler.open


async def _open_nodelay(self, *args, **kwargs):
    self.set_nodelay(True)
    return await _open(self, *args, **kwargs)


KernelWebsocketHandler.open = _open_nodelay
"""
ARM = "([done, t]) => { const p = window.__probe; p.done = eval(done); p.expect = t; p.t0 = null; p.res = null; }"
COLUMNS = ("send", "recv", "dom", "raf", "paint")


def notebook(path, rows):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(SETUP)] + [nbformat.v4.new_code_cell(CELLS[row]) for row in rows]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def sweep(presses):  # -> [(key, T after the press)]: 3 → 16 → 3 → … as many presses as asked
    steps, t, up = [], 3, True
    while len(steps) < presses:
        if (up and t == 16) or (not up and t == 3):
            up = not up
        t += 1 if up else -1
        steps.append(("ArrowRight" if up else "ArrowLeft", t))
    return steps


def measure(page, row, presses):  # -> list of per-press dicts
    handle = page.locator(f".bench-{row} .widget-slider .noUi-handle").first
    handle.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    results = []
    for key, t in sweep(presses):
        page.evaluate(ARM, [DONE[row], t])
        handle.focus()
        page.keyboard.press(key)
        page.wait_for_function("() => window.__probe.res && window.__probe.res !== 'pending'", timeout=30_000)
        results.append(page.evaluate("() => window.__probe.res"))
        page.wait_for_timeout(50)  # let the kernel go idle and the page settle between presses
    return results


def hold(page, presses, interval=33):  # -> list of per-sweep dicts: held → from T = 1 to 16, held ← back to 1
    handle = page.locator(".bench-held .widget-slider .noUi-handle").first
    handle.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    results = []
    for sweep in range(presses):
        key, final = ("ArrowRight", 16) if sweep % 2 == 0 else ("ArrowLeft", 1)
        page.evaluate(ARM, [DONE["held"], final])
        handle.focus()
        for _ in range(15):
            page.keyboard.down(key)
            page.wait_for_timeout(interval)
        page.keyboard.up(key)
        page.wait_for_function("() => window.__probe.res && window.__probe.res !== 'pending'", timeout=30_000)
        results.append(page.evaluate("() => window.__probe.res"))
        page.wait_for_timeout(300)
    return results


def drag(page, sweeps):  # -> list of per-sweep dicts: the T handle dragged end to end in 30 moves over ~0.6 s
    handle = page.locator(".bench-held .widget-slider .noUi-handle").first
    track = page.locator(".bench-held .widget-slider .noUi-base").first
    results = []
    for sweep in range(sweeps):
        box, knob = track.bounding_box(), handle.bounding_box()
        final = 16 if sweep % 2 == 0 else 1
        page.evaluate(ARM, [DONE["held"], final])
        y = knob["y"] + knob["height"] / 2
        page.mouse.move(knob["x"] + knob["width"] / 2, y)
        page.mouse.down()
        end = box["x"] + box["width"] if final == 16 else box["x"]  # the last move lands on the end
        start = knob["x"] + knob["width"] / 2
        for k in range(1, 31):
            page.mouse.move(start + (end - start) * k / 30, y)
            page.wait_for_timeout(20)
        page.mouse.up()
        page.wait_for_function("() => window.__probe.res && window.__probe.res !== 'pending'", timeout=30_000)
        results.append(page.evaluate("() => window.__probe.res"))
        page.wait_for_timeout(300)
    return results


def stat(xs):
    xs = sorted(x for x in xs if x == x)  # drop NaN
    if not xs:
        return "   —", "   —"
    p90 = xs[min(len(xs) - 1, round(0.9 * (len(xs) - 1)))]
    return f"{statistics.median(xs):5.1f}", f"{p90:5.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=26, help="key presses per row (≥ 20)")
    ap.add_argument("--holds", type=int, default=4, help="held-key sweeps and drags (each; alternately up and down)")
    ap.add_argument("--rows", default=",".join(ROWS), help="comma-separated subset of " + ",".join(ROWS))
    ap.add_argument("--nodelay", action="store_true", help="server with TCP_NODELAY on kernel WebSockets")
    ap.add_argument("--json", help="also write every press's timings here")
    args = ap.parse_args()
    rows = args.rows.split(",")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "nb").mkdir()
        notebook(tmp / "nb" / "bench.ipynb", rows)
        notebook(tmp / "nb" / "held.ipynb", ["held"])  # its own page: its 17,000 cells would slow the others
        if args.nodelay:  # jupyter_lab() points JUPYTER_CONFIG_DIR here
            (tmp / "jupyter_config_dir").mkdir()
            (tmp / "jupyter_config_dir" / "jupyter_server_config.py").write_text(NODELAY_CONFIG)
        with jupyter_lab(tmp / "nb", tmp) as (base, token), sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS, headless=True)
            try:
                page = browser.new_page(viewport={"width": 1500, "height": 1000})
                page.set_default_timeout(60_000)
                page.add_init_script(WS_HOOK)
                run_all_cells(page, f"{base}/lab/tree/bench.ipynb?reset&token={token}", f".bench-{rows[-1]}")
                errors = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
                assert errors.count() == 0, "\n".join(errors.all_inner_texts())
                page.evaluate(PROBE, None)
                results = {row: measure(page, row, args.presses) for row in rows}
                if args.holds:
                    page.close()
                    page = browser.new_page(viewport={"width": 1500, "height": 1000})
                    page.set_default_timeout(60_000)
                    page.add_init_script(WS_HOOK)
                    run_all_cells(page, f"{base}/lab/tree/held.ipynb?reset&token={token}", ".bench-held .al-live")
                    page.evaluate(PROBE, None)
                    results["held key"] = hold(page, args.holds)
                    results["drag"] = drag(page, args.holds)
                version = browser.version
            finally:
                browser.close()

    print(f"Key press → repaint in JupyterLab, headless Chromium {version}, {args.presses} presses per row "
          f"(T 3→16→3); ms after keydown")
    sizes = [len(al.explorer(T=t).view.state) for t in (3, 16)]
    print(f"explorer picture: {sizes[0]:,} characters of JSON at T=3, {sizes[1]:,} at T=16\n")
    header = f"{'row':<9} | " + " | ".join(f"{c + ' med':>9} {'p90':>5}" for c in COLUMNS) + " | msgs in"
    print(header.replace("send med", " ws→ med").replace("recv med", " ←ws med"))
    print("-" * len(header))
    for row in rows:
        res = results[row]
        cells = " | ".join("{:>9} {:>5}".format(*stat([r[c] for r in res])) for c in COLUMNS)
        print(f"{row:<9} | {cells} | {statistics.median(r['msgs'] for r in res):>7.0f}")
    if args.holds:
        print(f"\nHeld key and drag, al.explorer(T=1, d=64, h=8), all heads, T 1 → 16 and back, {args.holds} sweeps "
              "each: ms from the last key press (or mouse move) to the final picture")
        print(f"{'':<9} | {'DOM med':>9} {'max':>5} | {'paint med':>9} {'max':>5}")
        for row in ("held key", "drag"):
            res = results[row]
            print(f"{row:<9} | " + " | ".join(f"{statistics.median(r[c] for r in res):>9.1f} "
                                              f"{max(r[c] for r in res):>5.1f}" for c in ("dom", "paint")))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
