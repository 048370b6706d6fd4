"""Export every figure of `figures.FIGURES` to files, e.g. for slides (the options: `figures.options`).

    python -m attention_lab.figures --out figs                          # the article's example, SVG, English
    python -m attention_lab.figures --out figs --lang ko --slides       # Korean, 16:9 slides (13.33 × 7.5 in)
    python -m attention_lab.figures --out figs --deck --lang ko         # one PDF, in the article's order
    python -m attention_lab.figures --out figs --deck pptx --lang ko    # the same deck, editable (the pptx extra)
    python -m attention_lab.figures --out figs --format png --T 8 --d 16 --h 4
    python -m attention_lab.figures --out figs --mask sliding:window=2 --seed 1
    python -m attention_lab.figures --out figs --T 9 --mask packed:lengths=3+2+4
    python -m attention_lab.figures --out figs --queries 1              # a decode step: token 3's row only
    python -m attention_lab.figures --out figs --q Q.csv --k K.csv --v V.csv --h 2 --row 2

Without sizes the figures show the article's example (T=3, d=8, h=2). With
--T, --d, --h or --kv-heads they show the article's example grown to those
sizes (the article's numbers stay in the corner); with --seed, a random
example of those sizes; with --q, --k, --v, your own numbers. --mask is one
value, as a Mask is: the name of a mask of the registry (`numeric.masks.MASKS`)
and its parameters, NAME:PARAM=VALUE… (a list of lengths written 3+2+4), so a
mask's parameter never collides with an option of the command.
Files are named after the figures and their language (fig1_heads_en.svg,
fig2_scores_ko.svg, …) so a slide deck can link them and both languages can
share one folder; each path is printed as it is written. Every error
is one line on stderr, exit status 2. A reader that stops reading the paths
(`| head -1`) does not stop the writing.
"""

import errno
import os
import sys

from .options import ArgumentError, command_status, make_trace, parse_args, picks, writable_folder  # noqa: F401


class Listing:
    """Prints each written path on stdout; a closed or full stdout stops the listing, never the writing."""

    def __init__(self):
        self.error = None  # the OSError stdout gave, if any

    def add(self, path):
        if self.error is not None:
            return
        try:
            sys.stdout.write(f"{path}\n")
            sys.stdout.flush()
        except OSError as error:  # BrokenPipeError (| head -1), ENOSPC (> /dev/full)
            self.error = error
            _silence_stdout()


def _silence_stdout():
    """Point stdout at the null device, so that nothing more (not even Python's flush at exit) fails on it."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a file descriptor (e.g. captured in a test)
        pass
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (stays open until exit, as stdout does)


def write_figures(args, tr, listing=None, chosen=None):  # -> [Path]
    from .export import figures_to_write, save, write_deck, write_pptx

    listing = listing or Listing()
    chosen = picks(args, tr) if chosen is None else chosen
    if args.deck:
        write = write_pptx if args.deck == "pptx" else write_deck
        path = write(tr, args.lang, args.out / f"deck_{args.lang}.{args.deck}", chosen)
        listing.add(path)
        return [path]
    paths = []
    for name, make, slide in figures_to_write(tr, args.lang, args.slides, chosen):
        path = args.out / f"{name}_{args.lang}.{args.format}"  # named by language, as the deck: ko and en share --out
        save(make(), path, args.format, args.dpi, args.svg_text, slide)
        listing.add(path)
        paths.append(path)
    return paths


def main(argv=None):
    """Write every figure to --out; print each path; return 0, or 2 with a one-line message on stderr."""
    listing, written = Listing(), {}

    def body():
        args = parse_args(sys.argv[1:] if argv is None else argv)
        tr = make_trace(args)
        chosen = picks(args, tr)  # checked before anything is written
        writable_folder(args.out)
        written.update(out=args.out, paths=write_figures(args, tr, listing, chosen))

    status = command_status(body, "the figures")
    if status == 0 and listing.error is not None and listing.error.errno != errno.EPIPE:
        print(f"error: stdout: cannot print the paths ({listing.error.strerror or listing.error}); all "
              f"{len(written['paths'])} files were written to {written['out']}.", file=sys.stderr)
        return 2
    return status
