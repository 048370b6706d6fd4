"""`python -m attention_lab.worksheet --lang ko|en [--seed N] --out DIR`: a worksheet and its answer key.

Writes two A4 PDFs into DIR: worksheet.pdf (one head's Q, K, V of the example, and blanks for the shapes, row 3 of
S and of S / √dh, row 2 after the mask, row 3's softmax with its exponentials, and row 3 of O) and
answer_key.pdf (the same page, filled from the trace). Without --seed the example is the article's; with
--seed N each student can get a different example (T = 3, d = 8, h = 2, causal mask) with its own key.
Every error is one line on stderr, exit status 2. The work is in `attention_lab.figures.worksheet`.
"""

import argparse
import sys
from pathlib import Path

from .figures.command import Listing, _writable_folder
from .figures.options import ArgumentError, _Parser, command_status


def _folder(text):
    if not text.strip():
        raise argparse.ArgumentTypeError("give a folder to write to, e.g. --out handouts (got an empty name)")
    return Path(text)


def main(argv=None):
    """Write worksheet.pdf and answer_key.pdf to --out; print each path; return 0, or 2 with one line on stderr."""
    from .figures.worksheet import write
    from .numeric.examples import article_example, random_example

    parser = _Parser(prog="python -m attention_lab.worksheet",
                     description="Write a printable A4 worksheet on Core Attention and its answer key (PDF).")
    parser.add_argument("--out", required=True, type=_folder, help="folder to write to (created if missing)")
    parser.add_argument("--lang", default="en", choices=("en", "ko"), help="language (default: en)")
    parser.add_argument("--seed", type=int, help="a different example from this seed (0 … 2⁶³ − 1), with its own "
                                                 "key (default: the article's example)")
    parser.add_argument("--head", type=int, default=1, help="the head the worksheet asks about, 1 or 2 (default: 1)")
    listing = Listing()

    def body():
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
        tr = article_example() if args.seed is None else random_example(3, 8, 2, args.seed)
        if not 1 <= args.head <= tr.h:
            raise ArgumentError(f"--head: must be from 1 to {tr.h}, got {args.head}.")
        _writable_folder(args.out)
        command = "python -m attention_lab.worksheet --lang " + args.lang + (
            "" if args.seed is None else f" --seed {args.seed}")
        for path in write(tr, args.lang, args.out, args.head - 1, args.seed, command):
            listing.add(path)

    return command_status(body, "the worksheet")

if __name__ == "__main__":
    sys.exit(main())
