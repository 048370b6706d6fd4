"""`python -m attention_lab.worksheet --lang ko|en --out DIR`: a worksheet and its answer key, or a class set.

    python -m attention_lab.worksheet --lang ko --out handouts               # the article's example
    python -m attention_lab.worksheet --lang en --seed 7 --head 2 --out h    # example 7, about Head 2
    python -m attention_lab.worksheet --lang ko --class 30 --out handouts    # 30 students: examples 1 … 30
    python -m attention_lab.worksheet --lang ko --roster names.txt --out h  # one sheet per name, a name a line
    python -m attention_lab.worksheet --q Q.csv --k K.csv --v V.csv --h 2 --out h   # your own numbers (3 tokens)

One sheet: worksheet_<lang>.pdf and answer_key_<lang>.pdf. A class set: worksheets_<lang>.pdf (every sheet, a name
line each, its example's seed printed) and answer_keys_<lang>.pdf (every key, in the same order). Each page's
footer is the command that makes that sheet again. Every error is one line on stderr, exit status 2. The pages
are drawn by `attention_lab.figures.worksheet`.
"""

import shlex
import sys
from pathlib import Path

from .figures.command import Listing
from .figures.options import ArgumentError, _Parser, add_out, command_status, writable_folder

MAX_CLASS = 200


def parser():
    parser = _Parser(prog="python -m attention_lab.worksheet",
                     description="Write a printable A4 worksheet on Core Attention and its answer key (PDF), or a "
                                 "class set: every student's sheet in one PDF and every key in another.")
    add_out(parser, "handouts")
    parser.add_argument("--lang", default="en", choices=("en", "ko"), help="language (default: en)")
    parser.add_argument("--seed", type=int, help="a different example from this seed (0 … 2⁶³ − 1), with its own "
                                                 "key (default: the article's example); with --class, the first seed")
    parser.add_argument("--head", type=int, default=1, help="the head the worksheet asks about, from 1 (default: 1)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--class", dest="students", type=int, metavar="N",
                       help=f"a class set of N sheets (1 … {MAX_CLASS}), examples 1 … N (or from --seed)")
    group.add_argument("--roster", type=Path, metavar="FILE",
                       help="a class set with one sheet per name: a text file, one student's name a line")
    for name in "qkv":
        parser.add_argument(f"--{name}", type=Path, metavar="FILE",
                            help=f"your own {name.upper()}: .npy or .csv, 3 rows (tokens), as for the figures "
                                 "(with --h)")
    parser.add_argument("--h", type=int, help="the heads of your own --q, --k, --v")
    return parser


def parse_args(argv):
    return parser().parse_args(argv)


def read_roster(path, lang):  # -> [name], or an ArgumentError
    from .figures.heatmap import font_family
    from .figures.worksheet import name_families

    try:
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise ArgumentError(f"--roster: no file {path}.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ArgumentError(f"--roster: cannot read {path} as UTF-8 text ({error}); save it as UTF-8, one name a "
                            "line.") from None
    names = [line.strip() for line in text.splitlines() if line.strip()]
    if not 1 <= len(names) <= MAX_CLASS:
        raise ArgumentError(f"--roster: {path} has {len(names)} names; give 1 … {MAX_CLASS}, one a line.")
    for row, name in enumerate(names, start=1):
        try:
            name_families(name, font_family(lang))
        except ValueError as error:
            raise ArgumentError(f"--roster: {path}, name {row}: {str(error).removeprefix('name: ')}") from None
    return names


def own_trace(args):  # -> the trace of your own --q, --k, --v, or None
    from .numeric.own_numbers import read_matrix
    from .numeric.trace import attention_trace

    given = [n for n in "qkv" if getattr(args, n) is not None]
    if not given:
        if args.h is not None:
            raise ArgumentError("--h: gives the heads of your own numbers; add --q, --k and --v, or leave --h out.")
        return None
    if len(given) < 3 or args.h is None:
        raise ArgumentError("--q, --k, --v, --h: your own numbers take all four, e.g. --q Q.csv --k K.csv "
                            "--v V.csv --h 2.")
    if args.seed is not None or args.students or args.roster:
        raise ArgumentError("--seed, --class, --roster: a class set is made of seeded examples; leave them out "
                            "with your own --q, --k, --v.")
    from .figures.worksheet import check_sheet_trace

    tr = attention_trace(*(read_matrix(getattr(args, n), f"--{n}", 3, 64) for n in "qkv"), h=args.h)
    try:
        return check_sheet_trace(tr)
    except ValueError as error:
        raise ArgumentError("--q, --k, --v, --h: " + str(error).removeprefix("tr: ")) from None


def remake(args, seed, own):  # -> the command that makes this one sheet again, for its footer
    parts = ["python -m attention_lab.worksheet", "--lang", args.lang]
    if own:
        parts += [arg for n in "qkv" for arg in (f"--{n}", shlex.quote(str(getattr(args, n))))] + ["--h", str(args.h)]
    elif seed is not None:
        parts += ["--seed", str(seed)]
    if args.head != 1:
        parts += ["--head", str(args.head)]
    return " ".join(parts)


def main(argv=None):
    """Write the sheet and its key (or a class set) to --out; print each path; return 0, or 2 with one line."""
    from .figures.worksheet import check_sheet_trace, write, write_class
    from .numeric.examples import article_example, random_example

    listing = Listing()

    def body():
        args = parse_args(sys.argv[1:] if argv is None else argv)
        if args.students is not None and not 1 <= args.students <= MAX_CLASS:
            raise ArgumentError(f"--class: must be from 1 to {MAX_CLASS} students, got {args.students}.")
        own = own_trace(args)
        tr = own if own is not None else article_example() if args.seed is None else random_example(3, 8, 2, args.seed)
        check_sheet_trace(tr)
        if not 1 <= args.head <= tr.h:
            raise ArgumentError(f"--head: must be from 1 to {tr.h}, got {args.head}.")
        names = read_roster(args.roster, args.lang) if args.roster else [""] * (args.students or 0)
        writable_folder(args.out, "the worksheets")
        if names:
            first = 1 if args.seed is None else args.seed
            sheets = [(first + n, random_example(3, 8, 2, first + n), name) for n, name in enumerate(names)]
            paths = write_class(sheets, args.lang, args.out, args.head - 1, lambda seed: remake(args, seed, False))
        else:
            paths = write(tr, args.lang, args.out, args.head - 1, args.seed, remake(args, args.seed, own is not None),
                          own=own is not None)
        for path in paths:
            listing.add(path)

    return command_status(body, "the worksheet")


if __name__ == "__main__":
    sys.exit(main())
