"""Export every figure of `plotting.FIGURES` to files, e.g. for slides.

    python -m attention_lab.figures --out figs                     # the article's example, SVG
    python -m attention_lab.figures --out figs --format png --T 8 --d 16 --h 4 --seed 1

Without a size the figures show the article's example (T=3, d=8, h=2); with
any of --T, --d, --h, --seed they show `random_example(T, d, h, seed)`, the
sizes not given taken from the article's example. Files are named after the
figures (fig1_heads.svg, fig2_scores.svg, …) so a slide deck can link them.
"""

import argparse
import sys
from pathlib import Path

from .examples import ARTICLE_SIZES, article_example, random_example
from .trace import check_sizes

FORMATS = ("svg", "png", "pdf")
MAX_T = 16  # the figures are made to be read up to 16 tokens


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="python -m attention_lab.figures",
                                     description="Write the article's figures (and all stages) to files.")
    parser.add_argument("--out", required=True, type=Path, help="directory to write to (created if missing)")
    parser.add_argument("--format", default="svg", choices=FORMATS, help="file format (default: svg)")
    parser.add_argument("--T", type=int, help=f"number of tokens, 1 … {MAX_T}")
    parser.add_argument("--d", type=int, help="model width, divisible by h")
    parser.add_argument("--h", type=int, help="number of heads")
    parser.add_argument("--seed", type=int, help="seed of the random example")
    parser.add_argument("--dpi", type=int, default=150, help="resolution of PNG files (default: 150)")
    return parser.parse_args(argv)


def make_trace(args):
    """The article's example, or a random example when any size or seed is given; ValueError if invalid."""
    if args.T is None and args.d is None and args.h is None and args.seed is None:
        return article_example()
    T = ARTICLE_SIZES["T"] if args.T is None else args.T
    d = ARTICLE_SIZES["d"] if args.d is None else args.d
    h = ARTICLE_SIZES["h"] if args.h is None else args.h
    check_sizes(T, d, h)
    if T > MAX_T:
        raise ValueError(f"T: the figures are readable up to T={MAX_T} tokens, got T={T}.")
    return random_example(T, d, h, seed=0 if args.seed is None else args.seed)


def main(argv=None):
    """Write every figure to --out; print each path; return 0, or 2 with a one-line message on bad arguments."""
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as exit_:  # argparse has already printed its one-line error
        return int(exit_.code or 0)
    try:
        tr = make_trace(args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    from .plotting import FIGURES  # matplotlib loads only once the arguments are known to be good

    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"error: --out: cannot create {args.out}: {error.strerror}", file=sys.stderr)
        return 2
    for name, make_figure in FIGURES.items():
        path = args.out / f"{name}.{args.format}"
        # A bare Figure saves through the Agg-based canvases: no GUI backend is involved.
        make_figure(tr).savefig(path, format=args.format, dpi=args.dpi, bbox_inches="tight")
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
