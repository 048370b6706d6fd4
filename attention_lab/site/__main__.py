"""python -m attention_lab.site --out site/ [--binder OWNER/NAME | URL | none] [--notebooks DIR]"""

import argparse
import sys
import time

from .build import DEFAULT_BINDER, NOTEBOOKS, build


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m attention_lab.site",
                                     description="Build both editions of the notebooks as a static course site.")
    parser.add_argument("--out", default="site", help="the folder to write (default: site/); a folder this command "
                                                      "built before is cleared first")
    parser.add_argument("--binder", default=DEFAULT_BINDER,
                        help="where 'run this notebook' goes: OWNER/NAME[@REF] of the GitHub repository (on "
                             "mybinder.org), a Binder launch URL, or 'none' (default: %(default)s, the README "
                             "badge's repository)")
    parser.add_argument("--notebooks", default=str(NOTEBOOKS), help="the folder holding ko/ and en/ (default: the "
                                                                     "repository's notebooks/)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        written = build(args.out, args.notebooks, args.binder)
    except ValueError as e:
        parser.exit(2, f"error: {e}\n")
    pages = sum(len(v) for v in written.values())
    live = sum(1 for v in written.values() for _name, kinds in v for k in kinds if k)
    static = sum(1 for v in written.values() for _name, kinds in v for k in kinds if not k)
    print(f"{args.out}: {pages} notebook pages ({', '.join(f'{lang} {len(v)}' for lang, v in written.items())}), "
          f"{live} live widgets, {static} static; {time.perf_counter() - start:.1f} s. "
          f"Preview: python -m http.server -d {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
