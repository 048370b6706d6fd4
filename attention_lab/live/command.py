"""An explorer as one page that needs no Python: `python -m attention_lab.explorer --out FILE`.

    python -m attention_lab.explorer --out explorer.html                       # every stage, English
    python -m attention_lab.explorer --out softmax.html --lang ko --view softmax   # notebook 05's view, Korean
    python -m attention_lab.explorer --out m.html --view masks --T 6 --mask sliding:window=2 --queries 2
    python -m attention_lab.explorer --out mine.html --q Q.csv --k K.csv --v V.csv --h 2   # your own numbers
    python -m attention_lab.explorer --out learned.html --learned CABDDA       # notebook 13's learned model

The page holds its script, styles and numbers inline and makes no network request: it works from file://,
offline, and a blog embeds it with an <iframe src="softmax.html" width="100%" height="900">. The views of
notebooks 01–06 ("heads", "scores", "scaling", "mask", "softmax", "weighted_sum") are the article's figures
made live. The options are the explorer's arguments (`al.explorer`); --mask is NAME:PARAM=VALUE as for
`python -m attention_lab.figures`. Every error is one line on stderr, exit status 2.
"""

import sys
from pathlib import Path

from ..figures.options import ArgumentError, _Parser, add_out, command_status, parse_mask, writable_folder
from ..numeric.limits import SEED_CONTROL
from ..numeric.masks import ALIGNS, aligned
from ..numeric.own_numbers import read_matrix
from .page import SCALE, standalone_html
from .views import LIMITS, OWN_LIMITS, VIEWS


def parser():
    parser = _Parser(prog="python -m attention_lab.explorer",
                     description="Write the explorer as one HTML page that works offline, with no Python.")
    add_out(parser, "explorer.html", "the HTML file to write (its folder is created if missing)")
    parser.add_argument("--lang", default="en", choices=("en", "ko"), help="language of the page (default: en)")
    parser.add_argument("--view", default="all", choices=tuple(VIEWS), help="what it shows (default: all)")
    for name, (lo, hi) in LIMITS.items():
        parser.add_argument(f"--{name}", type=int, help=f"{lo} … {hi}")
    parser.add_argument("--d", type=int, help="model width h·dh (give --d or --dh)")
    parser.add_argument("--kv-heads", type=int, help="K/V heads shared by the Query heads, dividing h")
    parser.add_argument("--queries", type=int, help="Query tokens T_q ≤ T: the last T_q tokens' Query rows")
    parser.add_argument("--align", choices=ALIGNS, help=f"where the Query rows sit (default: {ALIGNS[0]})")
    parser.add_argument("--seed", type=int, help=f"a random example from this seed (0 … {SEED_CONTROL[1]})")
    parser.add_argument("--mask", help="NAME:PARAM=VALUE…, e.g. sliding:window=2 (default: the view's)")
    for name in "qkv":
        parser.add_argument(f"--{name}", type=Path, metavar="FILE", help=f"your own {name.upper()}: a .npy or .csv "
                            "file, one row per token, as for python -m attention_lab.figures (with --h)")
    parser.add_argument("--learned", metavar="TOKENS", help="notebook 13's learned model from this input, 6 of "
                        "A B C D (e.g. CABDDA): the page computes Q, K, V from its weights (with --lang, --view)")
    parser.add_argument("--scale", type=float, default=1, help=f"presentation scale, {SCALE[0]} … {SCALE[1]}: 1.5 "
                        "makes every text at least 18 px at 1920 × 1080 (default: 1)")
    return parser


def parse_args(argv):
    args = parser().parse_args(argv)
    if not SCALE[0] <= args.scale <= SCALE[1]:  # NaN too
        raise ArgumentError(f"--scale: give a number from {SCALE[0]} to {SCALE[1]} (1.5 for a projector), "
                            f"got {args.scale:g}.")
    return args


def main(argv=None):
    """Write the page; print its path; return 0, or 2 with a one-line message on stderr."""
    from .learned import learned_explorer
    from .widget import _VIEW_MASK, Explorer

    def body():
        args = parse_args(sys.argv[1:] if argv is None else argv)
        if args.learned is not None:
            given = [f"--{n.replace('_', '-')}" for n in ("T", "h", "dh", "d", "kv_heads", "queries", "align", "seed",
                                                          "mask", "q", "k", "v") if getattr(args, n) is not None]
            if given:
                raise ArgumentError(f"--learned: the learned model's sizes and numbers are its own; leave out "
                                    f"{', '.join(given)}.")
            return write(learned_explorer(args.learned, lang=args.lang, view=args.view), args)
        align = ALIGNS[0] if args.align is None else args.align  # None above: given or not, for --learned
        mask = _VIEW_MASK if args.mask is None else parse_mask(args.mask, align)
        if args.align is not None and args.mask is not None and not aligned(mask):
            raise ArgumentError(f"--align: --mask {mask.name} lets a Query row see the same Key tokens wherever the "
                                "rows sit, so an alignment changes nothing; leave --align out.")
        own = {n.upper(): read_matrix(getattr(args, n), f"--{n}", OWN_LIMITS["T"], OWN_LIMITS["d"])
               for n in "qkv" if getattr(args, n) is not None}
        ex = Explorer(T=args.T, d=args.d, h=args.h, dh=args.dh, kv_heads=args.kv_heads, queries=args.queries,
                      align=align, seed=args.seed, mask=mask, lang=args.lang, view=args.view, **own)
        if str(args.out) in ("", ".") or args.out.is_dir():
            raise ArgumentError(f"--out: give a file name such as explorer.html, got {str(args.out)!r}.")
        write(ex, args)

    def write(ex, args):
        writable_folder(args.out.parent, "the page")  # "새 폴더/x.html": the folder is made, or named if it cannot be
        args.out.write_text(standalone_html(ex.page_config(), scale=args.scale), encoding="utf-8")
        print(args.out)

    return command_status(body, "the page")
