"""The options of `python -m attention_lab.figures`: parsing, checking, and the trace they ask for.

Every message speaks in the command's own options (--kv-heads, --mask sliding:window=…), never in Python's
names: a ValueError of the package is renamed here (`in_options`).
"""

import argparse
import importlib.util
import re
import sys
import tempfile
from pathlib import Path

from ..numeric import masks
from ..numeric.examples import ARTICLE_SIZES, article_example, random_example
from ..numeric.limits import SIZES, D
from ..numeric.own_numbers import ROW_GRAMMAR, cell_text, read_matrix, typed_lengths, typed_whole
from ..numeric.trace import attention_trace

FORMATS = ("svg", "png", "pdf")
# The largest sizes the figures are drawn for, the explorer's too (numeric.limits).
LIMITS = {"T": SIZES["T"], "d": D, "h": SIZES["h"]}
MAX_DH = SIZES["dh"][1]
DPI = (30, 200)
SVG_TEXT_HELP = ("keep the text of SVG files as text, editable in slide software, instead of outlines. "
                 "The viewer then needs the fonts: DejaVu Sans, and for Korean (--lang ko) the family "
                 "'Noto Sans CJK KR Attention Lab' (install attention_lab/fonts/NotoSansCJKkr-Regular-subset.ttf, "
                 "or choose another Korean font in your editor)")
# A package ValueError starts with the argument's name; the command says which option that is.
OPTION_OF = {"T": "--T", "d": "--d", "h": "--h", "kv_heads": "--kv-heads", "seed": "--seed", "queries": "--queries",
             "align": "--align", "Q": "--q", "K": "--k", "V": "--v", "Q, K": "--q, --k", "T, d": "--T, --d",
             "K, V": "--k, --v", "Q, K, V": "--q, --k, --v", "K, V, kv_heads": "--k, --v, --kv-heads",
             "mask": "--mask", "head": "--head", "row": "--row", "query": "--query", "key": "--key",
             "out": "--out", "steps": "--steps", "binder": "--binder", "notebooks": "--notebooks", "dh": "--dh",
             "d, dh": "--d, --dh", "h, dh": "--h, --dh", "tokens": "--learned", "rate": "--rate"}
# A Python name inside a message, said as its option (kv_heads=2 as typed: --kv-heads 2)
PYTHON_NAME = re.compile(r"\b(kv_heads)\b(?:=(\d+))?")
DECIMAL = re.compile(ROW_GRAMMAR["number"])


class ArgumentError(Exception):
    """A bad command line: reported as one line, exit status 2."""


def typed_number(text, whole=True):  # "１２" -> 12, "－３" -> -3, "1.5" -> 1.5 (whole=False)
    """A number typed as an option's value, by the one rule of a typed number (own_numbers.ROW_GRAMMAR, the page's
    row editor's and a file's cells'): each full-width character a Korean input method types read as its ASCII
    twin, then ASCII digits only. int() alone would also read "١" (Arabic-Indic) and "1_000", which no side writes,
    while a mask's parameter refused "２"."""
    folded = cell_text(str(text))
    number = typed_whole(text) if whole else float(folded) if DECIMAL.fullmatch(folded) else None
    if number is None:
        example = "a whole number such as 3" if whole else "a number such as 1.5"
        raise argparse.ArgumentTypeError(f"give {example} (digits 0-9, or full width: ３), got {text!r}.")
    return number


def _decimal(text):
    return typed_number(text, whole=False)


class _Once(argparse.Action):
    """An option's value, as argparse's "store", but refused when the option comes a second time: argparse would
    keep the last value and drop the first without a word (`--T 3 --T 5` drew T = 5), where the page's link refuses
    a key given twice."""

    def __call__(self, parser, namespace, values, option_string=None):
        if self.dest in parser.given:
            raise ArgumentError(f"{self.option_strings[-1]}: given twice; give each option once.")
        parser.given.add(self.dest)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    """The commands' parser: a bad option is one line (ArgumentError), and an option given twice is refused."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("action", None, _Once)
        self.register("action", "store", _Once)
        self.register("type", int, typed_number)  # every number option, of every command: the one rule
        self.register("type", float, _decimal)
        self.given = set()

    def parse_known_args(self, args=None, namespace=None):
        self.given = set()
        return super().parse_known_args(args, namespace)

    def error(self, message):  # argparse would print the usage too: one line is enough
        raise ArgumentError(message)


def command_status(body, writing):  # -> a command's exit status: 0, or 2 with one line on stderr
    """Run a command's body(): every error it raises becomes one line on stderr, in the command's options, and
    exit status 2 (--help exits 0). writing: what --out was to hold, e.g. "the figures"."""
    try:
        body()
    except SystemExit as exit_:  # --help has been printed
        return int(exit_.code or 0)
    except ArgumentError as error:
        print(f"error: {error}", file=sys.stderr)
    except ValueError as error:  # a check of the package refused an argument: --kv-heads, not kv_heads
        print(f"error: {in_options(str(error))}", file=sys.stderr)
    except OSError as error:
        print(f"error: --out: cannot write {writing}: {error.strerror or error}", file=sys.stderr)
    else:
        return 0
    return 2


def _mask_help():  # -> the --mask help, from the registry
    kinds = []
    for kind in masks.MASKS.values():
        if kind.rule is None:
            continue
        params = ":".join(f"{p.name}=N" if not hasattr(p, "lo") else f"{p.name}={p.lo}…T{p.hi_T:+d}".replace("T+0", "T")
                          for p in kind.params)
        kinds.append(f"{kind.name}:{params}" if params else kind.name)
    return "the mask and its parameters, one of " + ", ".join(kinds) + " (lengths as 3+2+4; default: causal)"


def parse_mask(text, align):  # "sliding:window=2" -> Mask("sliding", window=2)
    """The --mask value as a Mask: NAME, then :PARAM=VALUE for each parameter given (3+2+4 for lengths)."""
    name, *given = str(text).split(":")
    if name not in masks.MASK_NAMES:
        raise ArgumentError(f"--mask: unknown mask {name!r}; use one of {', '.join(masks.MASK_NAMES)}, "
                            "e.g. --mask sliding:window=2.")
    known = [p.name for p in masks.MASKS[name].params]
    params = {}
    for item in given:
        key, sep, value = item.partition("=")
        numbers = typed_lengths(value)  # the one rule of a typed number: "２" is 2, "²" and "٢" are not numbers
        if not sep or numbers is None:
            raise ArgumentError(f"--mask: write each parameter as PARAM=WHOLE_NUMBER (lengths as 3+2+4), "
                                f"e.g. --mask sliding:window=2; got {item!r}.")
        if key not in known:
            takes = f"takes {', '.join(f':{k}=…' for k in known)}" if known else "takes no parameters"
            owners = masks.owners(key)
            hint = f"; {key} belongs to " + " or ".join(f"--mask {m}:{key}=…" for m in owners) if owners else ""
            raise ArgumentError(f"--mask: {name} {takes}, not :{key}=…{hint}.")
        if key in params:  # one value each: a second one would silently replace the first
            raise ArgumentError(f"--mask: {key} is given twice in {text!r}; give each parameter once, e.g. "
                                f"--mask {name}:{key}={item.partition('=')[2]}.")
        params[key] = tuple(numbers) if len(numbers) > 1 or key == "lengths" else numbers[0]
    try:
        return masks.Mask(name, align=align, **params)
    except ValueError as error:
        raise ArgumentError(in_options(str(error), name)) from None


def in_options(message, mask_name=None):
    """A package ValueError in the command's words: 'kv_heads: …' becomes '--kv-heads: …', a mask parameter's
    'window: …' becomes '--mask sliding:window=…: …'."""
    name, sep, rest = message.partition(": ")
    if not sep:
        return message
    if mask_name and any(p.name == name for p in masks.MASKS[mask_name].params):  # a mask's own parameter first
        rest = re.sub(r"\.? \(the \w+ of Mask\('\w+'\) for (\d+) Key tokens\)", r" (for \1 Key tokens)", rest)
        return f"--mask {mask_name}:{name}=…: {rest}"
    if name in OPTION_OF:
        return f"{OPTION_OF[name]}: {PYTHON_NAME.sub(_as_typed, rest)}"
    return message


def _as_typed(match):  # "kv_heads" -> "--kv-heads"; "kv_heads=2" -> "--kv-heads 2", as the command line has it
    option, value = OPTION_OF[match.group(1)], match.group(2)
    return option if value is None else f"{option} {value}"


def add_out(parser, example, what="folder to write to (created if missing)"):
    """The --out option every command has: a Path, an empty name refused (Path("") would be the current folder).
    example: what to write, e.g. "figures" or "explorer.html", said in the message."""
    noun = "folder" if "." not in example else "file name"

    def out(text):
        if not str(text).strip():
            raise argparse.ArgumentTypeError(f"give a {noun} to write to, e.g. --out {example} (got an empty name)")
        return Path(text)

    parser.add_argument("--out", required=True, type=out, help=what)


def writable_folder(out, what="the figures"):  # -> out, created if missing; or an ArgumentError naming the path
    """Create the folder out (and the folders it sits in) if missing; refuse a file in the way, or a folder this
    process cannot write to. The message names the part of the path that is wrong, as the user typed it."""
    blocking = next((p for p in (out, *out.parents) if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise ArgumentError(f"--out: {blocking} is a file, not a folder; give a folder to write {what} to.")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        raise ArgumentError(f"--out: cannot write to {out}: {error.strerror or error}. "
                            "Give a folder you can write to.") from None
    return out


def parser():
    parse = _Parser(prog="python -m attention_lab.figures",
                    description="Write the article's figures (and every stage) to files, in Korean or English: "
                                "of the article's example, grown or random, or of your own Q, K, V.")
    add_out(parse, "figures")
    parse.add_argument("--format", default="svg", choices=FORMATS, help="file format (default: svg)")
    parse.add_argument("--lang", default="en", choices=("en", "ko"), help="language of the figures (default: en)")
    parse.add_argument("--slides", action="store_true",
                       help="16:9 slides, 13.33 × 7.5 in, no text under 10 pt (all heads: as many slides as it "
                            "takes, named by their heads: all_heads_1-2, … or all_heads_1, … one head a slide)")
    parse.add_argument("--deck", nargs="?", const="pdf", choices=("pdf", "pptx"),
                       help="write one 16:9 teaching deck in the article's order (figure 1's flow, QKᵀ, ÷√dh "
                            "and why, the mask, one softmax row step by step, P, PV, Concat, what comes next), "
                            "every matrix with all its numbers, speaker notes; deck_LANG.pdf, or with --deck pptx "
                            "an editable PowerPoint deck_LANG.pptx of native tables (needs python-pptx: "
                            "pip install 'attention-lab[pptx]')")
    parse.add_argument("--svg-text", action="store_true", help=SVG_TEXT_HELP)
    meaning = {"T": "number of tokens", "d": f"model width, divisible by h, d/h ≤ {MAX_DH}", "h": "number of heads"}
    for name, (lo, hi) in LIMITS.items():
        parse.add_argument(f"--{name}", type=int, help=f"{meaning[name]}, {lo} … {hi} (default: the article's "
                                                        f"{ARTICLE_SIZES[name]})")
    parse.add_argument("--kv-heads", type=int, help="K/V heads shared by the Query heads (GQA), dividing h "
                                                    "(default: h)")
    parse.add_argument("--seed", type=int, help="a random example of these sizes from this seed (0 … 2⁶³ − 1)")
    parse.add_argument("--mask", default="causal", help=_mask_help())
    parse.add_argument("--queries", type=int, help="only the last N tokens' Query rows (1 = a decode step): "
                                                   "S, M and P are then N × T")
    parse.add_argument("--align", choices=masks.ALIGNS,
                       help="where the Query rows sit when there are fewer than Key tokens: bottom-right (the "
                            "last Query token is the last Key token, as in decoding; default) or top-left "
                            "(PyTorch SDPA's is_causal)")
    for name in ("q", "k", "v"):
        parse.add_argument(f"--{name}", type=Path, metavar="FILE",
                           help=f"your own {name.upper()}: a .npy or .csv file of one row per token (with --h; "
                                "--q, --k and --v together): a spreadsheet's CSV, with or without a header row, "
                                "separated by , ; or tabs")
    parse.add_argument("--head", type=int, help="the head the one-head figures show, from 1 (default: 1)")
    parse.add_argument("--row", type=int, help="the Query token whose row figures 4 and 5 explain, from 1 as in "
                                               "the article (default: 3, or the last)")
    parse.add_argument("--query", type=int, help="the Query token of figure 2's dot product, from 1 (default: 3)")
    parse.add_argument("--key", type=int, help="the Key token of figure 2's dot product, from 1 (default: 1)")
    parse.add_argument("--dpi", type=int, default=150, help=f"resolution of PNG files, {DPI[0]} … {DPI[1]} "
                                                            "(default: 150)")
    return parse


def parse_args(argv):
    args = parser().parse_args(argv)
    args.mask = parse_mask(args.mask, args.align or masks.ALIGNS[0])
    if args.align is not None and not masks.aligned(args.mask):
        raise ArgumentError(f"--align: --mask {args.mask.name} lets a Query row see the same Key tokens wherever the "
                            "rows sit, so an alignment changes nothing; leave --align out.")
    for name, (lo, hi) in {**LIMITS, "dpi": DPI}.items():
        value = getattr(args, name)
        if value is not None and not lo <= value <= hi:
            raise ArgumentError(f"--{name}: must be from {lo} to {hi}, got {value}.")
    files = [name for name in ("q", "k", "v") if getattr(args, name) is not None]
    if files and len(files) < 3:
        missing = ", ".join(f"--{n}" for n in ("q", "k", "v") if n not in files)
        raise ArgumentError(f"{missing}: your own numbers take all three of --q, --k and --v (and --h).")
    if files:
        clash = [f"--{n}" for n in ("T", "d", "seed", "queries") if getattr(args, n) is not None]
        if clash:
            raise ArgumentError(f"{', '.join(clash)}: the sizes come from your --q, --k, --v files; leave "
                                f"{' and '.join(clash)} out.")
        if args.h is None:
            raise ArgumentError("--h: say how many heads your --q, --k, --v have, e.g. --h 2.")
    d = ARTICLE_SIZES["d"] if args.d is None else args.d
    h = ARTICLE_SIZES["h"] if args.h is None else args.h
    if not files and h <= d and d % h == 0 and d // h > MAX_DH:
        raise ArgumentError(f"--d, --h: each head would have dh = d/h = {d // h} components; the figures are drawn "
                            f"for dh ≤ {MAX_DH}. Use a d of at most {MAX_DH * h} or more heads.")
    if args.svg_text and args.format != "svg":
        raise ArgumentError(f"--svg-text: applies to SVG files only; add --format svg (got --format {args.format}).")
    if args.deck and (args.slides or args.svg_text or args.format != "svg"):
        raise ArgumentError("--deck: writes one deck of 16:9 slides by itself; leave out --slides, --svg-text and "
                            "--format.")
    if args.deck == "pptx" and importlib.util.find_spec("pptx") is None:
        raise ArgumentError("--deck pptx: needs python-pptx; install it with pip install 'attention-lab[pptx]', "
                            "or use --deck for the PDF.")
    return args


def make_trace(args):
    """The trace the options ask for: your own Q, K, V; a random example (--seed); or the article's example, grown
    to the sizes given. An ArgumentError in the command's words if it cannot be made."""
    try:
        if args.q is not None:
            Q, K, V = (read_matrix(getattr(args, n), f"--{n}", LIMITS["T"][1], LIMITS["d"][1]) for n in "qkv")
            tr = attention_trace(Q, K, V, h=args.h, mask=args.mask, kv_heads=args.kv_heads)
            if tr.dh > MAX_DH:
                raise ArgumentError(f"--q, --h: each head would have dh = d/h = {tr.dh} components; the figures are "
                                    f"drawn for dh ≤ {MAX_DH}. Use more heads (--h).")
            return tr
        sizes = {name: ARTICLE_SIZES[name] if getattr(args, name) is None else getattr(args, name)
                 for name in ("T", "d", "h")}
        if args.seed is None:
            return article_example(args.mask, **sizes, kv_heads=args.kv_heads, queries=args.queries)
        return random_example(sizes["T"], sizes["d"], sizes["h"], args.seed, args.mask, kv_heads=args.kv_heads,
                              queries=args.queries)
    except ValueError as error:
        raise ArgumentError(in_options(str(error), args.mask.name)) from None


def picks(args, tr):  # -> {"head": …, "row": …, "query": …, "key": …} 0-based, for the figure functions
    """--head, --row, --query, --key (numbers from 1, as the figures show them) as the figures' indices: by the
    explorer's one rule of a pick's number (live.state.NUMBERED), which its labels and links follow too."""
    from ..live.state import pick_index
    from .heatmap import query_offset

    chosen, first = {}, query_offset(tr) + 1
    context = {"first_query": first}
    if args.head is not None:
        if not 0 <= pick_index("head", args.head, context) < tr.h:
            raise ArgumentError(f"--head: must be from 1 to {tr.h} (the heads are numbered from 1), got {args.head}.")
        chosen["head"] = pick_index("head", args.head, context)
    for name in ("row", "query"):
        value = getattr(args, name)
        if value is not None:
            if not 0 <= pick_index(name, value, context) < tr.T_q:
                raise ArgumentError(f"--{name}: the Query rows are tokens {first} … {first + tr.T_q - 1}; "
                                    f"got {value}.")
            chosen[name] = pick_index(name, value, context)
    if args.key is not None:
        if not 0 <= pick_index("key", args.key, context) < tr.T_k:
            raise ArgumentError(f"--key: the Key tokens are 1 … {tr.T_k}; got {args.key}.")
        chosen["key"] = pick_index("key", args.key, context)
    return chosen
