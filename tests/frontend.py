"""The front-end's own picture code, run in Node.js: what the page shows for a widget's config, with no browser.

The browser is the one renderer of the explorer (live/picture.js) and of the step widgets (live/steppers.js);
tests that ask "what does the page show" run that code here, on the config the widget sends (`page_config()`), as
the page does: for an explorer, resolve the state, compute the trace (compute.js) and make the picture
(picture.js); for a step widget, select the records of its state (decodePicture, blockwisePicture); then style
each heatmap's cells (colors.js). One Node process serves a test session; a bundle that changed (a test's new
mask or stage) starts another, and the one used longest ago is closed (`node_process`, which
test_live_rules.py's driver uses too). Every one is closed by the session's end (tests/conftest.py checks it).

    from frontend import page_picture
    pic = page_picture(al.explorer(view="all").page_config())
    pic["note"], pic["shape"], pic["sections"][1]["items"][0]["labels"][6:9]   # row 3 of Head 1's S: 2, 0, 6

A heatmap item carries `rows`, `cols`, `labels`, `fill` (rrggbb), `ink` ("1" dark) and `masked` ("1") per cell,
row-major, besides what picture.js gives (title, captions, row and column labels, bars, hl); a breakdown its
`title` and `html`. A page whose numbers overflow gives {"overflow": the line it shows}. A step widget's picture
is {title, color, panels, notes, steps, step} (and trailTitle, trail for the blockwise one); each panel keeps its
`matrix` (−∞ as None), `kind` and `allowed` (the cells whose row sees the key, or None), besides its cells.
"""

import atexit
import json
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from attention_lab.live import page as pages

DRIVER = r"""
function styled(it, keep) {  // a heatmap item with its cells styled as heatmap.js styles them
  const cells = cellStyle(it.matrix, it.kind, it.range, it.allowed);
  Object.assign(it, { rows: it.matrix.length, cols: it.matrix[0].length, labels: cells.labels, fill: cells.fill,
    ink: cells.ink.join(""), masked: cells.masked.join("") });
  if (!keep) {
    delete it.matrix;
    delete it.allowed;
  }
  delete it.range;
  return it;
}
function pageShows(config) {  // explorer.js's draw() and the steppers' draw(), less the DOM
  if (config.kind === "decode" || config.kind === "blockwise") {
    const pic = (config.kind === "decode" ? decodePicture : blockwisePicture)(config.data, config.state, config.words);
    for (const it of pic.panels) styled(it, true);
    return pic;
  }
  const data = { ...config.data }, view = viewInfo(config.view), L = LOOK.words[config.lang];
  const resolved = resolve(config.state, view, data), tr = traceOf(resolved, data);
  if (tr.overflow) return { overflow: fill(L.overflow_note, { largest: formatValue(LOOK.largest) }) };
  const pic = pictureOf(tr, resolved, view, L, config.lang, offeredMasks(view, config.state.mask).length > 0);
  for (const section of pic.sections) for (const it of section.items) {
    if (it.type === "heatmap") styled(it, false);
  }
  return pic;
}
const exactly = (x) => (Array.isArray(x) ? x.map(exactly)  // every bit through JSON: −0, ±∞ and NaN as text
  : Number.isFinite(x) && !Object.is(x, -0) ? x : Object.is(x, -0) ? "-0" : String(x));
const decoded = (x) => (Array.isArray(x) ? x.map(decoded) : typeof x === "string" ? Number(x) : x);
function pageTrace(config) {  // every stage's array as the page computes it for a config's state (traceOf)
  const data = { ...config.data }, resolved = resolve(config.state, viewInfo(config.view), data);
  const tr = traceOf(resolved, data);
  if (tr.overflow) return { overflow: true };
  return Object.fromEntries(Object.entries(tr.arrays).map(([k, v]) => [k, exactly(v)]));
}
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  let out;
  try {
    const asked = JSON.parse(line);
    out = { picture: asked.stagesOf ? pageTrace(asked.stagesOf)
      : asked.call ? exactly(asked.args.map((a) => eval(asked.call)(decoded(a)))) : pageShows(asked) };
  } catch (e) { out = { error: String(e && e.stack || e) }; }
  process.stdout.write(JSON.stringify(out) + "\n");
});
"""
FAST_TEST = ""  # the id of the test running now when it is not marked slow (tests/conftest.py): it may not run Node
KEEP = 3  # Node processes kept running: the page's bundle for each driver, and the last altered bundle
_running = {}  # (bundle, driver) -> the Node process that runs them, the one used last at the end


def node_process(js, driver=DRIVER):  # -> a running Node process with the bundle `js` and `driver` loaded
    """The Node process for a bundle and a driver, started on first use. A bundle that a test altered (its own mask
    or stage) is asked for once or twice: the processes used longest ago are closed, so at most KEEP run at once."""
    if FAST_TEST:
        raise AssertionError(f"{FAST_TEST} runs Node.js: mark it slow (tests/conftest.py's SLOW, or @pytest.mark.slow)")
    key = (js, driver)
    proc = _running.pop(key, None)
    if proc is None or proc.poll() is not None:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("Node.js is needed to run the front-end's code: install nodejs.")
        # from a file, not `node -e`: one argument holds at most 128 KiB (Linux's MAX_ARG_STRLEN), and the bundle
        # with its driver is about that size
        with tempfile.NamedTemporaryFile("w", suffix=".js", encoding="utf-8", delete=False) as script:
            script.write(js + "\n" + driver)
        proc = subprocess.Popen([node, script.name], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, encoding="utf-8")
        proc.script = script.name
        while len(_running) >= KEEP:
            _close(_running.pop(next(iter(_running))))
    _running[key] = proc
    return proc


def _close(proc):
    """End a driver: its stdin closed, the readline loop ends and Node exits; killed if it has not in 10 s."""
    proc.stdin.close()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    proc.stdout.close()
    os.unlink(proc.script)


def close_all():  # every Node process started here is closed (tests/conftest.py at the session's end; atexit too)
    while _running:
        _close(_running.popitem()[1])


atexit.register(close_all)


def node_children():  # -> [pid]: the Node processes below this one (children and theirs), from /proc
    parents, names = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # ended while read
            continue
        pid, rest = text.split(" (", 1)
        name, fields = rest.rsplit(") ", 1)
        parents[int(pid)], names[int(pid)] = int(fields.split()[1]), name

    def below(pid):
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    return sorted(pid for pid, name in names.items() if name in ("node", "nodejs") and below(pid))


def ask(proc, question):  # -> the driver's one-line JSON answer to one JSON question
    proc.stdin.write(json.dumps(question, ensure_ascii=False) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def page_picture(config, js=None):  # -> dict of JSON types: what the page draws for `config` (see the docstring)
    """The page's picture of an explorer's or a step widget's config, made by the front-end's own code in Node.js
    (or by the bundle `js`: a test's altered front-end)."""
    js = js or pages.bundle.__wrapped__()[0]  # not the cached bundle: a test may have added a mask or a stage
    out = ask(node_process(js), config)
    if "error" in out:
        raise AssertionError(f"the front-end failed in Node.js: {out['error']}")
    return out["picture"]


def page_stages(config, js=None):  # -> {stage name: float array} as the page computes them, or {"overflow": True}
    """Every stage of the trace the page computes for an explorer's config (compute.js's traceOf, runPipeline), every
    bit kept: −0, ±∞ and NaN travel as text and come back as floats."""
    out = page_picture({"stagesOf": config}, js)
    if "overflow" in out:
        return out

    def exact(x):
        return [exact(v) for v in x] if isinstance(x, list) else float(x)

    return {name: np.array(exact(value), dtype=float) for name, value in out.items()}


def page_calls(function, arguments, js=None):  # -> [float]: the front-end's `function` of each argument, every bit kept
    """A function of the page's bundle (by its name there, e.g. "exp") on each argument, in Node.js."""
    spelled = {math.inf: "Infinity", -math.inf: "-Infinity"}
    text = [x if np.isfinite(x) and not (x == 0 and np.signbit(x)) else "-0" if x == 0 else
            "NaN" if math.isnan(x) else spelled[x] for x in map(float, arguments)]
    return [float(x) for x in page_picture({"call": function, "args": text}, js)]
