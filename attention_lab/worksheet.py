"""`python -m attention_lab.worksheet --lang ko|en --out DIR`: a worksheet and its answer key, or a class set.

    python -m attention_lab.worksheet --lang ko --out handouts               # the article's example
    python -m attention_lab.worksheet --lang en --seed 7 --head 2 --out h    # example 7, about Head 2 (self-study)
    python -m attention_lab.worksheet --lang ko --class 30 --secret ~/.attention-lab-secret --out handouts
    python -m attention_lab.worksheet --lang ko --roster names.txt --secret ~/.attention-lab-secret --out h
    python -m attention_lab.worksheet --lang ko --secret ~/.attention-lab-secret --code K7QX-M2PA --out h
    python -m attention_lab.worksheet --q Q.csv --k K.csv --v V.csv --h 2 --out h   # your own numbers (3 tokens)
    python -m attention_lab.worksheet --lang ko --seed 7 --csv tables --out h       # every stage as CSV too

One sheet: worksheet_<lang>.pdf and answer_key_<lang>.pdf. A self-study sheet (the article's example, --seed, your
own numbers) has no secret: its footer is the command that makes it and its key again, and its key is meant to
be had. A class set (--class, --roster) is made with the instructor's secret (--secret FILE, made the first time
with mode 0600; keep it to yourself): worksheets_<lang>.pdf has every student's sheet, a name line each and a sheet
code, HMAC-SHA256 of the secret and the student; answer_keys_<lang>.pdf every key in the same order. A sheet shows
its code alone: the example is drawn from the secret and the code, so only the secret makes its key again
(--secret FILE --code CODE, the command on the key's footer, never on the sheet). --csv DIR writes every stage's
matrix as CSV (one sheet), or the class set's keys (answer_keys_<lang>.csv). Every file is written whole or not at
all. Every error is one line on stderr, exit status 2; Ctrl-C one line, exit status 130. The pages are drawn by
`attention_lab.figures.worksheet`.
"""

import base64
import hashlib
import hmac
import os
import secrets
import shlex
import stat
import sys
from pathlib import Path

from .figures.command import Listing
from .figures.options import ArgumentError, _Parser, add_out, command_status, writable_folder

MAX_CLASS = 200
CODE_BODY, CODE_CHECK = 6, 2  # a sheet code's letters (base32): 30 bits from the student, 10 that check the secret
SECRET_CHARS = 16  # at least, in a secret file


def parser():
    parser = _Parser(prog="python -m attention_lab.worksheet",
                     description="Write a printable A4 worksheet on Core Attention and its answer key (PDF), or a "
                                 "class set: every student's sheet in one PDF and every key in another.")
    add_out(parser, "handouts")
    parser.add_argument("--lang", default="en", choices=("en", "ko"), help="language (default: en)")
    parser.add_argument("--seed", type=int,
                        help="a different example from this seed (0 … 2⁶³ − 1), with its own key (default: the "
                             "article's example); with --class or --roster, which class set of the secret (default "
                             "0): another set gives every student other sheets")
    parser.add_argument("--head", type=int, default=1, help="the head the worksheet asks about, from 1 (default: 1)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--class", dest="students", type=int, metavar="N",
                       help=f"a class set of N sheets (1 … {MAX_CLASS}), each with its own example and sheet code "
                            "(with --secret)")
    group.add_argument("--roster", type=Path, metavar="FILE",
                       help="a class set with one sheet per name (with --secret): a text file, one student's "
                            "name a line")
    for name in "qkv":
        parser.add_argument(f"--{name}", type=Path, metavar="FILE",
                            help=f"your own {name.upper()}: .npy or .csv, 3 rows (tokens), as for the figures "
                                 "(with --h)")
    parser.add_argument("--h", type=int, help="the heads of your own --q, --k, --v")
    parser.add_argument("--secret", type=Path, metavar="FILE",
                        help="the instructor's secret for a class set (made the first time, mode 0600; keep it to "
                             "yourself): each sheet shows a code, and only this file makes its key again")
    parser.add_argument("--code", metavar="CODE", help="with --secret: make the sheet and key of this sheet code "
                                                       "again, e.g. K7QX-M2PA")
    parser.add_argument("--csv", type=Path, metavar="DIR", help="also write every stage's matrix as CSV (UTF-8, "
                                                                "for Excel and LibreOffice), or a class set's keys")
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


def read_secret(path, create):  # -> (the instructor's secret as bytes, whether it was made now)
    """The secret file holds random text; a file others can read is refused, since they could make every key."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600) if create else None
    except FileExistsError:
        handle = None
    except OSError as error:
        raise ArgumentError(f"--secret: cannot make {path}: {error.strerror or error}.") from None
    if handle is not None:
        with os.fdopen(handle, "w", encoding="ascii") as f:
            f.write(secrets.token_hex(32) + "\n")
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise ArgumentError(f"--secret: no file {path}; a sheet code's key needs the secret file its class set "
                            "was made with.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ArgumentError(f"--secret: cannot read {path} ({error}).") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ArgumentError(f"--secret: {path} can be read by others (mode {stat.S_IMODE(mode):04o}); keep it to "
                            f"yourself: chmod 600 {shlex.quote(str(path))}.")
    if len(text) < SECRET_CHARS:
        raise ArgumentError(f"--secret: {path} holds {len(text)} characters; a secret needs at least "
                            f"{SECRET_CHARS} (move it away, and a new one is made).")
    return text.encode("utf-8"), handle is not None


def _letters(secret, message, n):  # -> n base32 letters of HMAC-SHA256(secret, message)
    digest = hmac.new(secret, message.encode("utf-8"), hashlib.sha256).digest()
    return base64.b32encode(digest).decode("ascii")[:n]


def sheet_code(secret, class_set, number, name):  # -> "K7QX-M2PA": a student's sheet, from the secret
    body = _letters(secret, f"sheet {class_set} {number} {name}", CODE_BODY)
    code = body + _letters(secret, f"check {body}", CODE_CHECK)
    return f"{code[:4]}-{code[4:]}"


def code_seed(secret, code):  # -> the example's seed (0 … 2⁶³ − 1): without the secret, a code tells nothing
    digest = hmac.new(secret, f"example {code}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def read_code(text, secret, path):  # -> the code as printed, or an ArgumentError
    plain = text.strip().upper().replace("-", "").replace(" ", "")
    if len(plain) != CODE_BODY + CODE_CHECK or not set(plain) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"):
        raise ArgumentError(f"--code: give a sheet code as printed on the sheet, e.g. K7QX-M2PA; got {text!r}.")
    if _letters(secret, f"check {plain[:CODE_BODY]}", CODE_CHECK) != plain[CODE_BODY:]:
        raise ArgumentError(f"--code: {text} was not made with the secret in {path}; give the secret file its "
                            "class set was made with.")
    return f"{plain[:4]}-{plain[4:]}"


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


def remake(args, seed, own, code=None):  # -> the command that makes this one sheet again, for its footer
    parts = ["python -m attention_lab.worksheet", "--lang", args.lang]
    if code is not None:
        parts += ["--secret", shlex.quote(str(args.secret.resolve())), "--code", code]  # from any folder
    elif own:
        parts += [arg for n in "qkv" for arg in (f"--{n}", shlex.quote(str(getattr(args, n))))] + ["--h", str(args.h)]
    elif seed is not None:
        parts += ["--seed", str(seed)]
    if args.head != 1:
        parts += ["--head", str(args.head)]
    return " ".join(parts)


def main(argv=None):
    """Write the sheet and its key (or a class set) to --out; print each path; return 0, 2 with one line, or 130
    on Ctrl-C (nothing part-written is left)."""
    listing = Listing()

    def body():
        args = parse_args(sys.argv[1:] if argv is None else argv)
        write_sheets(args, listing)

    try:
        return command_status(body, "the worksheet")
    except KeyboardInterrupt:
        print("interrupted: stopped before the files were complete; nothing part-written was left.",
              file=sys.stderr)
        return 130


def write_sheets(args, listing):
    from .figures.worksheet import check_sheet_trace, write, write_class, write_csv, write_keys_csv
    from .numeric.examples import article_example, random_example

    if args.students is not None and not 1 <= args.students <= MAX_CLASS:
        raise ArgumentError(f"--class: must be from 1 to {MAX_CLASS} students, got {args.students}.")
    many = bool(args.students or args.roster)
    if many and args.secret is None:
        raise ArgumentError("--class, --roster: a class set needs the instructor's secret, so that no student can "
                            "make a key: add --secret FILE (made the first time; keep it to yourself).")
    if args.code is not None and (args.secret is None or many):
        raise ArgumentError("--code: makes one sheet's key again from the instructor's secret: give --secret FILE "
                            "too, without --class or --roster.")
    if args.secret is not None and not many and args.code is None:
        raise ArgumentError("--secret: is for a class set (--class, --roster) or one sheet's key (--code); a "
                            "self-study sheet (--seed) needs none.")
    if args.code is not None and args.seed is not None:
        raise ArgumentError("--seed, --code: a sheet code gives its own example; leave --seed out.")
    own = own_trace(args)
    names = read_roster(args.roster, args.lang) if args.roster else [""] * (args.students or 0)
    secret, made = read_secret(args.secret, create=many) if args.secret is not None else (None, False)
    if made:
        listing.add(args.secret)
    code = read_code(args.code, secret, args.secret) if args.code is not None else None
    seed = code_seed(secret, code) if code else args.seed
    tr = own if own is not None else article_example() if seed is None else random_example(3, 8, 2, seed)
    check_sheet_trace(tr)
    if not 1 <= args.head <= tr.h:
        raise ArgumentError(f"--head: must be from 1 to {tr.h}, got {args.head}.")
    writable_folder(args.out, "the worksheets")
    if args.csv is not None:
        writable_folder(args.csv, "the tables")
    if names:
        codes = [sheet_code(secret, args.seed or 0, n, name) for n, name in enumerate(names, start=1)]
        sheets = [(c, random_example(3, 8, 2, code_seed(secret, c)), name)
                  for c, name in zip(codes, names, strict=True)]
        paths = write_class(sheets, args.lang, args.out, args.head - 1, lambda c: remake(args, None, False, c))
        if args.csv is not None:
            paths += (write_keys_csv(sheets, args.lang, args.csv / f"answer_keys_{args.lang}.csv", args.head - 1),)
    elif code:  # the sheet and key of one code, as its class set had them (without the name)
        paths = write_class([(code, tr, "")], args.lang, args.out, args.head - 1,
                            lambda c: remake(args, None, False, c), many=False)
        if args.csv is not None:
            paths += tuple(write_csv(tr, args.lang, args.csv))
    else:
        paths = write(tr, args.lang, args.out, args.head - 1, seed, remake(args, seed, own is not None),
                      own=own is not None)
        if args.csv is not None:
            paths += tuple(write_csv(tr, args.lang, args.csv))
    for path in paths:
        listing.add(path)


if __name__ == "__main__":
    sys.exit(main())
