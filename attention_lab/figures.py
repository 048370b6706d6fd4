"""Export every figure of `plotting.FIGURES` to files, e.g. for slides.

    python -m attention_lab.figures --out figs                          # the article's example, SVG, English
    python -m attention_lab.figures --out figs --lang ko --slides       # Korean, 16:9 slides (13.33 × 7.5 in)
    python -m attention_lab.figures --out figs --format png --T 8 --d 16 --h 4
    python -m attention_lab.figures --out figs --mask sliding --window 2 --seed 1

Without sizes the figures show the article's example (T=3, d=8, h=2). With
--T, --d, --h or --kv-heads they show the article's example grown to those
sizes (the article's numbers stay in the corner); with --seed, a random
example of those sizes. The mask options come from the mask registry
(`masks.MASKS`): --mask NAME and each mask's own parameters.
Files are named after the figures (fig1_heads.svg, fig2_scores.svg, …) so a
slide deck can link them. Every error is one line on stderr, exit status 2.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from . import masks
from .examples import ARTICLE_SIZES, article_example, random_example

FORMATS = ("svg", "png", "pdf")
# The largest sizes the figures are drawn for, the explorer's too: T ≤ 16, h ≤ 8, dh = d/h ≤ 8.
# The whole export at the largest (T=16, d=64, h=8, --dpi 200) took 15–23 s on the 2-core machine
# (the README has the figures).
LIMITS = {"T": (1, 16), "d": (1, 64), "h": (1, 8)}
MAX_DH = 8
DPI = (30, 200)
SVG_TEXT_HELP = ("keep the text of SVG files as text, editable in slide software, instead of outlines. "
                 "The viewer then needs the fonts: DejaVu Sans, and for Korean (--lang ko) the family "
                 "'Noto Sans CJK KR Attention Lab' (install attention_lab/fonts/NotoSansCJKkr-Regular-subset.ttf, "
                 "or choose another Korean font in your editor)")


class ArgumentError(Exception):
    """A bad command line: reported as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print the usage too: one line is enough
        raise ArgumentError(message)


def _mask_params():  # -> {name: (Param, [mask names])}
    """Every mask parameter of the registry, with the masks that take it."""
    params = {}
    for mask in masks.MASKS.values():
        for p in mask.params:
            params.setdefault(p.name, (p, []))[1].append(mask.name)
    return params


def parse_args(argv):
    parser = _Parser(prog="python -m attention_lab.figures",
                     description="Write the article's figures (and every stage) to files, in Korean or English.")
    parser.add_argument("--out", required=True, type=Path, help="folder to write to (created if missing)")
    parser.add_argument("--format", default="svg", choices=FORMATS, help="file format (default: svg)")
    parser.add_argument("--lang", default="en", choices=("en", "ko"), help="language of the figures (default: en)")
    parser.add_argument("--slides", action="store_true",
                        help="16:9 layout, 13.33 × 7.5 in, no text under 10 pt (the article's figures 1–5 and "
                             "scaling_head1; the others keep their own size)")
    parser.add_argument("--svg-text", action="store_true", help=SVG_TEXT_HELP)
    meaning = {"T": "number of tokens", "d": f"model width, divisible by h, d/h ≤ {MAX_DH}", "h": "number of heads"}
    for name, (lo, hi) in LIMITS.items():
        what = meaning[name]
        parser.add_argument(f"--{name}", type=int, help=f"{what}, {lo} … {hi} (default: the article's "
                                                         f"{ARTICLE_SIZES[name]})")
    parser.add_argument("--kv-heads", type=int, help="K/V heads shared by the Query heads (GQA), dividing h "
                                                     "(default: h)")
    parser.add_argument("--seed", type=int, help="a random example of these sizes from this seed (0 … 2⁶³ − 1)")
    parser.add_argument("--mask", default="causal", choices=masks.MASK_NAMES, help="the mask (default: causal)")
    for name, (p, takers) in _mask_params().items():
        parser.add_argument(f"--{name}", type=int, help=f"{p.label['en']} of mask {' / '.join(takers)}, "
                                                        f"{p.lo} … T{p.hi_T:+d} (default: {p.default})"
                                                        .replace("T+0", "T"))
    parser.add_argument("--dpi", type=int, default=150, help=f"resolution of PNG files, {DPI[0]} … {DPI[1]} "
                                                             "(default: 150)")
    args = parser.parse_args(argv)
    for name, (lo, hi) in {**LIMITS, "dpi": DPI}.items():
        value = getattr(args, name)
        if value is not None and not lo <= value <= hi:
            raise ArgumentError(f"--{name}: must be from {lo} to {hi}, got {value}.")
    d = ARTICLE_SIZES["d"] if args.d is None else args.d
    h = ARTICLE_SIZES["h"] if args.h is None else args.h
    if h <= d and d % h == 0 and d // h > MAX_DH:
        raise ArgumentError(f"--d, --h: each head would have dh = d/h = {d // h} components; the figures are drawn "
                            f"for dh ≤ {MAX_DH}. Use a d of at most {MAX_DH * h} or more heads.")
    if args.svg_text and args.format != "svg":
        raise ArgumentError(f"--svg-text: applies to SVG files only; add --format svg (got --format {args.format}).")
    return args


def make_trace(args):
    """The article's example (grown to the sizes given), or a random example with --seed; ValueError if invalid."""
    sizes = {name: getattr(args, name) for name in ("T", "d", "h")}
    sizes = {name: ARTICLE_SIZES[name] if value is None else value for name, value in sizes.items()}
    params = {name: getattr(args, name) for name in _mask_params() if getattr(args, name) is not None}
    if args.seed is None:
        return article_example(args.mask, **sizes, kv_heads=args.kv_heads, **params)
    return random_example(sizes["T"], sizes["d"], sizes["h"], args.seed, args.mask, kv_heads=args.kv_heads,
                          **params)


def _writable_folder(out):
    """Create --out if missing; refuse a file, or a folder this process cannot write to."""
    if out.exists() and not out.is_dir():
        raise ArgumentError(f"--out: {out} is a file, not a folder; give a folder to write the figures to.")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        raise ArgumentError(f"--out: cannot write to {out}: {error.strerror or error}. "
                            "Give a folder you can write to.") from None


def write_figures(args, tr):  # -> [Path]
    import matplotlib  # only once the arguments are known to be good

    from .plotting import FIGURES, SLIDE_FIGURES

    rc = {"svg.fonttype": "none"} if args.svg_text else {}
    paths = []
    for name, make_figure in FIGURES.items():
        path = args.out / f"{name}.{args.format}"
        slides = args.slides and name in SLIDE_FIGURES
        fig = make_figure(tr, lang=args.lang, **({"slides": True} if slides else {}))
        # A slide keeps its exact 16:9 size; other figures are cropped to what they draw.
        with matplotlib.rc_context(rc):  # svg.fonttype only while saving: the user's rcParams stay as they are
            fig.savefig(path, format=args.format, dpi=args.dpi, bbox_inches=None if slides else "tight")
        print(path)
        paths.append(path)
    return paths


def main(argv=None):
    """Write every figure to --out; print each path; return 0, or 2 with a one-line message on stderr."""
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
        tr = make_trace(args)
        _writable_folder(args.out)
        write_figures(args, tr)
    except SystemExit as exit_:  # --help has been printed
        return int(exit_.code or 0)
    except (ArgumentError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: --out: cannot write the figures: {error.strerror or error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
