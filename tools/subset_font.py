"""Re-make the Korean font the figures ship with, from the characters the package's strings use.

    apt-get install fonts-noto-cjk              # the source: Noto Sans CJK KR (SIL Open Font License 1.1)
    python tools/subset_font.py                 # writes attention_lab/fonts/NotoSansCJKkr-Regular-subset.ttf

The subset is named "Noto Sans CJK KR Attention Lab" (look.fonts.KO_FONT) so that it is never
mistaken for an installed Noto Sans CJK KR.

Run it after adding a Korean word to words.WORDS, a stage label or a mask's words:
`tests/test_fonts.py` fails while a character of those strings is missing from the font.
The characters are `attention_lab.look.fonts.font_characters()`: every character of
`look.fonts.font_strings()` (the word table look.words.WORDS and the ordinals) and `FONT_SYMBOLS`
(ASCII and the symbols the numbers and formulas use).

The subset's outlines are converted from CFF to TrueType (attention_lab.look.truetype), because matplotlib
cannot embed a CFF font in PDF or PostScript as Type 42 (pdf.fonttype / ps.fonttype = 42): the PostScript file
fails in Ghostscript and PDF viewers warn of a font-type mismatch. fontTools comes with matplotlib.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attention_lab import look  # noqa: E402
from attention_lab.look import truetype  # noqa: E402

SOURCE_FAMILY = "Noto Sans CJK KR"  # the font of the collection that is subset
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")  # Debian's fonts-noto-cjk


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE,
                        help=f"Noto Sans CJK KR (.ttc or .otf); default {SOURCE}")
    parser.add_argument("--out", type=Path, default=look.KO_FONT_FILE, help="where to write the subset")
    args = parser.parse_args(argv)
    if not args.source.exists():
        raise SystemExit(f"error: {args.source} not found; install it with `apt-get install fonts-noto-cjk` "
                         "or pass --source")
    characters = look.font_characters()
    try:
        font = truetype.subset(args.source, characters, SOURCE_FAMILY)
    except ValueError as error:
        raise SystemExit(f"error: {error}") from None
    truetype.to_truetype(font)  # matplotlib cannot embed CFF outlines in PDF or PostScript as Type 42
    truetype.rename(font, look.KO_FONT, look.KO_FONT_POSTSCRIPT)
    font.recalcTimestamp = False  # the same characters give the same bytes
    args.out.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(args.out))
    cmap = font.getBestCmap()
    absent = "".join(c for c in characters if ord(c) not in cmap)
    print(f"{args.out}: {len(cmap)} characters, {args.out.stat().st_size / 1024:.0f} KiB")
    print(f"not in {look.KO_FONT} (drawn from {look.FALLBACK_FONT}): {absent}")


if __name__ == "__main__":
    main()
