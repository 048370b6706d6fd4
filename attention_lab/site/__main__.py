"""python -m attention_lab.site --out site/ [--binder OWNER/NAME | URL | none] [--notebooks DIR]"""

import sys
import time

from ..figures.options import _Parser, command_status
from .build import DEFAULT_BINDER, INSTALL, NOTEBOOKS, build, search_available


def parser():
    parser = _Parser(prog="python -m attention_lab.site",
                     description="Build both editions of the notebooks as a static course site.")
    parser.add_argument("--out", default="site", help="the folder to write (default: site/); a folder this command "
                                                      "built before is cleared first")
    parser.add_argument("--binder", default=DEFAULT_BINDER,
                        help="where 'run this notebook' goes: OWNER/NAME[@REF] of the GitHub repository (on "
                             "mybinder.org), a Binder launch URL, or 'none' (default: %(default)s, the README "
                             "badge's repository)")
    parser.add_argument("--notebooks", default=str(NOTEBOOKS), help="the folder holding ko/ and en/ (default: the "
                                                                     "repository's notebooks/)")
    return parser


def main(argv=None):
    """Build the site; print what it wrote; return 0, or 2 with a one-line message on stderr."""
    def body():
        args = parser().parse_args(sys.argv[1:] if argv is None else argv)
        start = time.perf_counter()
        written = build(args.out, args.notebooks, args.binder)
        pages = sum(len(v) for v in written.values())
        live = sum(1 for v in written.values() for _name, kinds in v for k in kinds if k)
        static = sum(1 for v in written.values() for _name, kinds in v for k in kinds if not k)
        print(f"{args.out}: {pages} notebook pages ({', '.join(f'{lang} {len(v)}' for lang, v in written.items())}), "
              f"{live} live widgets, {static} static; {time.perf_counter() - start:.1f} s. "
              f"Preview: python -m http.server -d {args.out}")
        if not search_available():
            print(f"No search box: Pagefind, which builds the search, is not installed here: {INSTALL}.")

    return command_status(body, "the site")

if __name__ == "__main__":
    sys.exit(main())
