"""How long a learner waits for a figure: built, then shown as a notebook shows it, in seconds.

    python benchmarks/bench_figures.py [--before REF] [--sizes 3,8,2 16,64,8]

For every figure of `attention_lab.figures.FIGURES`, in Korean, as a notebook draws it (not a slide): the seconds
to build it (the function's call, its layout included) and to show it (a PNG saved with bbox_inches="tight", which
is what the inline backend does), then a second save (a notebook saved as HTML, an export). Each size runs in a
child process of its own, so no font or text cache carries over from one to the next.

--before REF also measures git commit REF's attention_lab (its files, from `git archive`), alternately with this
checkout's, size by size in the same run: a before/after at the same load on the same machine. The checkout
measured as "now" is this file's own (its attention_lab first on PYTHONPATH), whatever the environment installed.
"""

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

CHILD = """
import io, json, sys, time
import matplotlib
matplotlib.use("Agg")
import attention_lab as al
from attention_lab import figures
from pathlib import Path
out = {"package": al.__file__, "figures": {}}
if not Path(al.__file__).resolve().is_relative_to(Path(sys.argv[2]).resolve()):
    sys.exit(print(json.dumps(out)))  # another attention_lab than the one asked for: measure nothing
T, d, h = (int(x) for x in sys.argv[1].split(","))
tr = al.article_example(T=T, d=d, h=h)
for name, make in figures.FIGURES.items():
    t0 = time.perf_counter()
    fig = make(tr, lang="ko")
    t1 = time.perf_counter()
    fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    t2 = time.perf_counter()
    fig.savefig(io.BytesIO(), format="png", bbox_inches="tight")
    out["figures"][name] = [t1 - t0, t2 - t1, time.perf_counter() - t2]
print(json.dumps(out))
"""


def run(root, size):  # -> {"package": path, "figures": {name: [build, show, save again]}}, root's attention_lab
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", CHILD, size, str(root)], env=env, cwd=tempfile.gettempdir(),
                          check=True, capture_output=True, text=True)
    found = json.loads(done.stdout)
    if not found["figures"]:
        raise SystemExit(f"bench_figures: {root} has no attention_lab of its own (Python imported "
                         f"{found['package']}); give a checkout or a git commit that has one")
    return found


def package_of(ref, folder):  # -> folder, holding git commit ref's attention_lab
    archive = folder / "package.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), ref, "attention_lab"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder


def size_arg(text):  # "T,d,h" -> the same text, checked
    parts = text.split(",")
    if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise argparse.ArgumentTypeError(f"a size is T,d,h in positive integers, e.g. 16,64,8; got {text!r}")
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", metavar="REF", help="also measure git commit REF's attention_lab, alternately")
    ap.add_argument("--sizes", nargs="+", type=size_arg, default=["3,8,2", "16,64,8"],
                    help="T,d,h of each size (default: the article's example and the largest)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        sides = {"now": REPO}
        if args.before:
            sides = {"before": package_of(args.before, Path(tmp)), "now": REPO}
        rows = []
        for size in args.sizes:
            measured = {side: run(root, size) for side, root in sides.items()}
            for name in measured["now"]["figures"]:
                rows.append((size, name, {side: m["figures"][name] for side, m in measured.items()}))
    print(f"Figures in Korean as a notebook shows them, seconds: built · shown (a PNG, bbox_inches='tight') · "
          f"saved again; now = {REPO}" + (f", before = git commit {args.before}" if args.before else ""))
    head = f"{'T,d,h':<8} {'figure':<18} | {'now: built  shown  again':>24}"
    print(head + (f" | {'before: built  shown  again':>27}" if args.before else ""))
    print("-" * (len(head) + (30 if args.before else 0)))
    totals = {side: 0.0 for side in sides}
    for size, name, times in rows:
        line = f"{size:<8} {name:<18} | " + "{:>10.1f} {:>6.1f} {:>6.1f}".format(*times["now"])
        if args.before:
            line += " | " + "{:>13.1f} {:>6.1f} {:>6.1f}".format(*times["before"])
        print(line)
        for side in sides:
            totals[side] += sum(times[side])
    print(f"All of them: now {totals['now']:.1f} s" + (f", before {totals['before']:.1f} s" if args.before else ""))


if __name__ == "__main__":
    main()
