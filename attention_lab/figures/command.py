"""Export every figure of `plotting.FIGURES` to files, e.g. for slides.

    python -m attention_lab.figures --out figs                          # the article's example, SVG, English
    python -m attention_lab.figures --out figs --lang ko --slides       # Korean, 16:9 slides (13.33 × 7.5 in)
    python -m attention_lab.figures --out figs --format png --T 8 --d 16 --h 4
    python -m attention_lab.figures --out figs --mask sliding:window=2 --seed 1
    python -m attention_lab.figures --out figs --T 9 --mask packed:lengths=3+2+4

Without sizes the figures show the article's example (T=3, d=8, h=2). With
--T, --d, --h or --kv-heads they show the article's example grown to those
sizes (the article's numbers stay in the corner); with --seed, a random
example of those sizes. --mask is one value, as a Mask is: the name of a mask
of the registry (`numeric.masks.MASKS`) and its parameters, NAME:PARAM=VALUE…
(a list of lengths written 3+2+4), so a mask's parameter never collides with
an option of the command.
Files are named after the figures (fig1_heads.svg, fig2_scores.svg, …) so a
slide deck can link them. Every error is one line on stderr, exit status 2.
"""

import argparse
import sys
import tempfile
from pathlib import Path

from ..numeric import masks
from ..numeric.examples import ARTICLE_SIZES, article_example, random_example

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


def _mask_help():  # -> the --mask help, from the registry
    kinds = []
    for kind in masks.MASKS.values():
        if kind.rule is None:
            continue
        params = ":".join(f"{p.name}=N" if not hasattr(p, "lo") else f"{p.name}={p.lo}…T{p.hi_T:+d}".replace("T+0", "T")
                          for p in kind.params)
        kinds.append(f"{kind.name}:{params}" if params else kind.name)
    return "the mask and its parameters, one of " + ", ".join(kinds) + " (lengths as 3+2+4; default: causal)"


def parse_mask(text):  # "sliding:window=2" -> Mask("sliding", window=2)
    """The --mask value as a Mask: NAME, then :PARAM=VALUE for each parameter given (3+2+4 for lengths)."""
    name, *given = str(text).split(":")
    if name not in masks.MASK_NAMES:
        raise ArgumentError(f"--mask: unknown mask {name!r}; use one of {', '.join(masks.MASK_NAMES)}, "
                            "e.g. --mask sliding:window=2.")
    params = {}
    for item in given:
        key, sep, value = item.partition("=")
        parts = value.split("+")
        if not sep or not all(part.strip().lstrip("-").isdigit() for part in parts):
            raise ArgumentError(f"--mask: write each parameter as PARAM=WHOLE_NUMBER (lengths as 3+2+4), "
                                f"e.g. --mask sliding:window=2; got {item!r}.")
        numbers = [int(part) for part in parts]
        params[key] = tuple(numbers) if len(numbers) > 1 or key == "lengths" else numbers[0]
    try:
        return masks.Mask(name, **params)
    except ValueError as error:
        raise ArgumentError(f"--mask: {error}") from None


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
    parser.add_argument("--mask", default="causal", help=_mask_help())
    parser.add_argument("--dpi", type=int, default=150, help=f"resolution of PNG files, {DPI[0]} … {DPI[1]} "
                                                             "(default: 150)")
    args = parser.parse_args(argv)
    args.mask = parse_mask(args.mask)
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
    if args.seed is None:
        return article_example(args.mask, **sizes, kv_heads=args.kv_heads)
    return random_example(sizes["T"], sizes["d"], sizes["h"], args.seed, args.mask, kv_heads=args.kv_heads)


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

    from . import FIGURES, SLIDE_FIGURES

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


