"""One key press on the standalone page, before and after a change to the front-end, interleaved in one run.

    python benchmarks/bench_page_frames.py --before REF [--presses 60] [--trace 20] [--holds 20]

The machine this runs on is shared and its load moves: so the pages as git commit REF's front-end draws them
("before") and as the working tree's draws them ("now") are open side by side in one headless Chromium at
1280 × 800, and their presses alternate (one on before, one on now, …), T bouncing between 3 and 16, on the
default view ("page") and at h = 8, dh = 8 with all heads ("largest"). Each press is timed as
bench_browser_latency.py times it (the keydown → the frame that shows the new T painted), and given as the median
and the 90th percentile, beside the same row before. Then a held key at the largest size ("held": a keydown every
33 ms until T = 16, then ← until T = 1, ms from the last keydown to the final picture painted), sweeps alternating.

Beside the default view, in the same alternation, two floors: the default view's heatmaps as plain tables and
nothing else ("lean"), a <td> per number kept between presses, only new rows and columns added and filled (no
labels, headers, accessible names, controls or change marks): the five that are on screen at T = 16 ("lean, 5 in
view": Q, K, V, S and S / √dh) and all twelve of the view ("lean, all 12"). What tables of these cells cost here,
whatever the explorer adds to them.

Then Chrome's trace of --trace presses on each page (again alternating), as the main thread's time per press in
each phase of the frame: script, style (UpdateLayoutTree), layout, pre-paint, paint, layerize and commit, and the
whole of every task. Thread time is less noisy than the wall time above, which waits on whatever else runs; and
two counts that load does not move at all: the objects laid out ("laid out": the Layout events' dirty objects) and
the elements whose style was computed again ("restyled": UpdateLayoutTree's element count), per press.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_browser_latency as lat  # noqa: E402

# The trace's events per phase (main thread); a script event inside another one is counted once, in the outer one.
PHASES = {
    "script": {"EventDispatch", "FunctionCall", "FireAnimationFrame", "TimerFire", "RunMicrotasks",
               "v8.evaluateModule", "EvaluateScript"},
    "style": {"UpdateLayoutTree", "RecalculateStyles"},
    "layout": {"Layout"},
    "pre-paint": {"PrePaint"},
    "paint": {"Paint"},
    "layerize": {"Layerize"},
    "commit": {"Commit"},
    "tasks": {"RunTask"},
}


COLUMNS = [*PHASES, "laid out", "restyled"]
# The lean floors' heatmaps, as (rows, columns) with "T" for T: the default view's (d = 8, dh = 4).
LEAN = {"lean, 5 in view": [("T", 8)] * 3 + [("T", "T")] * 2,
        "lean, all 12": [("T", 8)] * 3 + [("T", "T")] * 6 + [("T", 4)] * 2 + [("T", 8)]}
LEAN_PAGE = """<!doctype html><meta charset="utf-8"><title>lean tables</title><style>
body{font:13px system-ui,sans-serif;margin:12px}
.wrap{display:flex;flex-wrap:wrap;gap:14px 18px}
.al-hm{contain:layout paint}
table{border-collapse:separate;border-spacing:1px}
td{width:26px;height:20px;padding:0;text-align:center;font-size:12px}
</style>
<div class="al-live"><input type="range" data-control="T" min="1" max="16" value="3">
<div class="al-shape"></div><div class="wrap"></div></div>
<script>
const SHAPES = %s, wrap = document.querySelector(".wrap"), input = document.querySelector("[data-control=T]");
const tables = SHAPES.map(() => {
  const hm = document.createElement("div"), table = document.createElement("table");
  hm.className = "al-hm";
  hm.append(table);
  wrap.append(hm);
  return table;
});
const fill = (v) => `hsl(${v < 0 ? 270 : 120}, 40%%, ${95 - 12 * Math.abs(v)}%%)`;
function draw(T) {  // new rows and columns only: a cell keeps its number, as the article example's do
  SHAPES.forEach(([r, c], n) => {
    const rows = r === "T" ? T : r, cols = c === "T" ? T : c, table = tables[n];
    while (table.rows.length > rows) table.deleteRow(-1);
    while (table.rows.length < rows) table.insertRow();
    for (let i = 0; i < rows; i++) {
      const tr = table.rows[i];
      while (tr.cells.length > cols) tr.deleteCell(-1);
      while (tr.cells.length < cols) {
        const v = ((i * 7 + tr.cells.length * 3) %% 9) - 4, td = tr.insertCell();
        td.textContent = v;
        td.style.background = fill(v);
      }
    }
  });
  document.querySelector(".al-shape").textContent = `T=${T} `;
}
input.addEventListener("input", () => draw(+input.value));
draw(3);
</script>"""


def write_lean(tmp):  # -> {tag: path}: the lean floors' pages
    paths = {}
    for n, (tag, shapes) in enumerate(LEAN.items()):
        paths[tag] = tmp / f"lean-{n}.html"
        paths[tag].write_text(LEAN_PAGE % json.dumps(shapes), encoding="utf-8")
    return paths


def open_armed(browser, path):
    page = lat.new_page(browser)
    page.goto(path.as_uri())
    page.wait_for_selector(".al-live .al-hm")
    page.evaluate(lat.PROBE)
    page.locator('.al-live [data-control="T"]').first.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    return page


def press(page, key, t):  # -> {dom, paint} ms for one press that moves T to t
    page.evaluate(lat.ARM, [lat.done_of("page"), t])
    page.locator('.al-live [data-control="T"]').first.focus()
    page.keyboard.press(key)
    page.wait_for_function(lat.RESULT, timeout=30_000)
    res = page.evaluate("() => window.__probe.res")
    page.wait_for_timeout(80)
    return res


def phases(events):  # -> {phase: ms} summed over the renderer's main thread
    main = {(e["pid"], e["tid"]) for e in events
            if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    spans = {k: [] for k in PHASES}
    for e in events:
        if (e.get("pid"), e.get("tid")) not in main or e.get("ph") != "X" or "dur" not in e:
            continue
        for phase, names in PHASES.items():
            if e["name"] in names:
                spans[phase].append((e["ts"], e["ts"] + e["dur"]))
    out = {"laid out": 0, "restyled": 0}
    for e in events:  # the work done, as counts: the same at any load
        if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X" and e.get("name") == "Layout":
            out["laid out"] += e.get("args", {}).get("beginData", {}).get("dirtyObjects", 0)
        elif (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X" and e.get("name") == "UpdateLayoutTree":
            out["restyled"] += e.get("args", {}).get("elementCount", 0)
    for phase, xs in spans.items():
        total, end = 0.0, -1.0
        for a, b in sorted(xs):  # the union of the spans: nested events counted once
            if b <= end:
                continue
            total += b - max(a, end)
            end = b
        out[phase] = total / 1000
    return out


def traced(pages, presses):  # -> {tag: {phase: ms per press}}: the presses alternate between the pages
    sums = {tag: {k: 0.0 for k in COLUMNS} for tag in pages}
    sessions = {tag: page.context.new_cdp_session(page) for tag, page in pages.items()}
    starts = {tag: int(page.locator('.al-live [data-control="T"]').first.input_value()) for tag, page in pages.items()}
    steps = {tag: lat.sweep(starts[tag], presses) for tag in pages}
    for n in range(presses):
        for tag, page in pages.items():
            cdp, chunks = sessions[tag], []
            cdp.on("Tracing.dataCollected", lambda m, chunks=chunks: chunks.extend(m["value"]))
            cdp.send("Tracing.start", {"categories": "devtools.timeline,disabled-by-default-devtools.timeline",
                                       "transferMode": "ReportEvents"})
            key, t = steps[tag][n]
            press(page, key, t)
            page.wait_for_timeout(400)  # the address and the marks' timers too, if a change put them later
            done = []
            cdp.once("Tracing.tracingComplete", lambda m, done=done: done.append(1))
            cdp.send("Tracing.end")
            while not done:
                page.wait_for_timeout(20)
            for phase, ms in phases(chunks).items():
                sums[tag][phase] += ms
    return {tag: {k: v / presses for k, v in s.items()} for tag, s in sums.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", required=True, metavar="REF", help="git commit whose front-end is 'before'")
    lat.add_common_arguments(ap, presses=60, holds=20)
    ap.add_argument("--trace", type=int, default=20, help="traced presses per page and row")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    from servers import chromium

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        now = lat.write_pages(tmp, "now")
        with lat.front_end_of(args.before, tmp):
            before = lat.write_pages(tmp, "before")
        lean = write_lean(tmp)
        timed, trace = {}, {}
        with sync_playwright() as p:
            browser = chromium(p)
            try:
                for row in ("page", "page, largest"):
                    files = {"before": before[row], "now": now[row], **(lean if row == "page" else {})}
                    pages = {tag: open_armed(browser, path) for tag, path in files.items()}
                    starts = {tag: int(pg.locator('.al-live [data-control="T"]').first.input_value())
                              for tag, pg in pages.items()}
                    steps = {tag: lat.sweep(starts[tag], args.presses) for tag in pages}
                    for tag in pages:
                        timed[f"{row} ({tag})"] = []
                    for n in range(args.presses):
                        for tag, pg in pages.items():
                            timed[f"{row} ({tag})"].append(press(pg, *steps[tag][n]))
                    if row == "page, largest":  # a held key: sweeps alternating between the pages too
                        for tag in pages:
                            timed[f"held ({tag})"] = []
                        for n in range(args.holds):
                            for tag, pg in pages.items():
                                timed[f"held ({tag})"] += lat.hold(pg, row, 1, first=n)
                    trace[row] = traced(pages, args.trace)
                    for pg in pages.values():
                        pg.close()
                version = browser.version
            finally:
                browser.close()
    print(f"Now: the front-end of {Path(lat.al.__file__).parent}; before: git commit {args.before} of {lat.REPO}")
    print(f"Key press → painted, headless Chromium {version} at {lat.WINDOW['width']} × {lat.WINDOW['height']}, "
          f"{args.presses} presses per row, before ({args.before}) and now alternating, ms after the keydown\n")
    print(f"{'row':<24} | {'DOM med':>7} {'p90':>6} | {'paint med':>9} {'p90':>6}")
    print("-" * 60)
    for row, res in timed.items():
        dom, paint = lat.stat([r["dom"] for r in res]), lat.stat([r["paint"] for r in res])
        print(f"{row:<24} | {dom[0]:7.1f} {dom[1]:6.1f} | {paint[0]:9.1f} {paint[1]:6.1f}")
    print(f"\nMain thread, ms per press (Chrome's trace, {args.trace} presses per page, alternating), and the objects"
          " laid out and elements restyled per press:\n")
    print(f"{'row':<24} | " + " ".join(f"{k:>9}" for k in COLUMNS))
    print("-" * (27 + 10 * len(COLUMNS)))
    for row, tags in trace.items():
        for tag, ms in tags.items():
            print(f"{row + ' (' + tag + ')':<24} | " + " ".join(f"{ms[k]:9.1f}" for k in COLUMNS))
    if args.json:
        Path(args.json).write_text(json.dumps({"timed": timed, "trace": trace}, indent=1))


if __name__ == "__main__":
    main()
