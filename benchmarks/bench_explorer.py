"""How fast the live explorer answers a slider, against the naive matplotlib + interactive_output path.

    python benchmarks/bench_explorer.py

(a) explorer: from setting a control's value in Python to the new picture assigned
    to the widget (trace + each cell's label and colour, as JSON), full "all" view,
    Head 1 selected;
(b) baseline: `ipywidgets.interactive_output` redrawing the same stages as
    annotated matplotlib heatmaps (imshow + one text per cell) and rendering
    them to PNG as the inline backend does (savefig into BytesIO);
(c) the ratio of the medians. Each step is real work: T alternates between two
values (explorer) or the seed changes (baseline).
"""

import contextlib
import io
import statistics
import time

import matplotlib

matplotlib.use("Agg")

import ipywidgets as W  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import attention_lab as al  # noqa: E402

CASES = [(3, 2), (8, 2), (16, 4)]  # (T, h); dh = 4, so d = 4h
DH = 4
EXPLORER_STEPS = 60
BASELINE_STEPS = {3: 10, 8: 10, 16: 5}


def p90(xs):
    return float(np.percentile(xs, 90))


def bench_explorer(T, h):  # -> list of ms
    w = al.explorer(T=T, d=h * DH, h=h, source="random")
    other = T - 1 if T > 1 else 2
    times = []
    for step in range(EXPLORER_STEPS):
        value = other if step % 2 == 0 else T
        count = w.redraw_count
        t0 = time.perf_counter()
        w.controls["T"].value = value  # observers run synchronously: trace + picture sent when this returns
        times.append((time.perf_counter() - t0) * 1e3)
        assert w.redraw_count == count + 1
    return times


def _annotated(ax, matrix, title, cmap, vmin, vmax):
    """A naive annotated heatmap: imshow, then one text artist per cell."""
    shown = np.where(np.isneginf(matrix), np.nan, matrix)
    ax.imshow(shown, cmap=cmap, vmin=vmin, vmax=vmax)
    for (i, j), x in np.ndenumerate(matrix):
        ax.text(j, i, "−∞" if np.isneginf(x) else f"{x:.3g}", ha="center", va="center", fontsize=7)
    ax.set_title(title, fontsize=8)
    ax.set_xticks(range(matrix.shape[1]))
    ax.set_yticks(range(matrix.shape[0]))


def baseline_figure(tr):  # -> PNG bytes of the same stages as the explorer's "all" view for Head 1
    panels = [("Q", tr.Q), ("K", tr.K), ("V", tr.V), ("S", tr.S[0]), ("S/√dh", tr.S_scaled[0]), ("M", tr.M),
              ("S/√dh+M", tr.S_masked[0]), ("P", tr.P[0]), ("V head 1", tr.Vh[0]), ("O head 1", tr.O[0]),
              ("H", tr.H)]
    fig, axes = plt.subplots(2, 6, figsize=(18, 6))
    for ax, (title, m) in zip(axes.flat, panels, strict=False):
        lim = max(1.0, float(np.abs(m[np.isfinite(m)]).max()))
        if title == "P":
            _annotated(ax, m, title, "YlGnBu", 0, 1)
        else:
            _annotated(ax, m, title, "RdBu_r", -lim, lim)
    axes.flat[-1].axis("off")
    buf = io.BytesIO()
    fig.savefig(buf, format="png")  # what the inline backend does after each cell
    plt.close(fig)
    return buf.getvalue()


def bench_baseline(T, h):  # -> list of ms
    seed = W.IntSlider(value=0, min=0, max=10**6)
    out_png = {}

    def draw(seed):
        out_png["png"] = baseline_figure(al.random_example(T, h * DH, h, seed=seed))

    times = []
    with contextlib.redirect_stdout(io.StringIO()):  # clear_output outside a kernel writes escape codes
        out = W.interactive_output(draw, {"seed": seed})
        for step in range(BASELINE_STEPS[T]):
            t0 = time.perf_counter()
            seed.value = step + 1  # interactive_output calls draw() synchronously
            times.append((time.perf_counter() - t0) * 1e3)
    assert out is not None and out_png["png"][:4] == b"\x89PNG"
    return times


def main():
    bench_explorer(3, 2)  # warm up imports and caches
    rows = []
    for T, h in CASES:
        ex, base = bench_explorer(T, h), bench_baseline(T, h)
        rows.append((T, h, h * DH, ex, base))
    print("Live explorer (trace + picture data) vs naive matplotlib interactive_output, full view, "
          "one step = one slider change")
    steps = ", ".join(f"{n} at T={T}" for T, n in BASELINE_STEPS.items())
    print(f"dh = {DH}; explorer: {EXPLORER_STEPS} steps per size; baseline: {steps}\n")
    header = (f"{'T':>3} {'h':>2} {'d':>3} | {'explorer median':>15} {'p90':>8} | {'baseline median':>15} "
              f"{'p90':>8} | {'speed-up':>8}")
    print(header)
    print("-" * len(header))
    for T, h, d, ex, base in rows:
        ratio = statistics.median(base) / statistics.median(ex)
        print(f"{T:>3} {h:>2} {d:>3} | {statistics.median(ex):>12.1f} ms {p90(ex):>5.1f} ms | "
              f"{statistics.median(base):>12.0f} ms {p90(base):>5.0f} ms | {ratio:>7.0f}×")


if __name__ == "__main__":
    main()
