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

The subset's outlines are converted from CFF to TrueType, because matplotlib cannot
embed a CFF font in PDF or PostScript as Type 42 (pdf.fonttype / ps.fonttype = 42):
the PostScript file fails in Ghostscript and PDF viewers warn of a font-type mismatch.
fontTools comes with matplotlib.
"""

import argparse
import sys
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import newTable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attention_lab import look  # noqa: E402

SOURCE_FAMILY = "Noto Sans CJK KR"  # the font of the collection that is subset
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")  # Debian's fonts-noto-cjk


def font_number(path, family):
    """The index of `family` in a font collection (.ttc), or 0 for a single font."""
    if path.suffix.lower() != ".ttc":
        return 0
    from fontTools.ttLib import TTCollection

    names = [f["name"].getDebugName(1) for f in TTCollection(str(path)).fonts]
    if family not in names:
        raise SystemExit(f"error: {path} has no font named {family!r}; it has {names}")
    return names.index(family)


def subset_font(source, characters):  # -> TTFont holding only `characters`
    options = subset.Options()
    options.font_number = font_number(source, SOURCE_FAMILY)
    options.hinting = False  # the TrueType outlines below carry no hints; matplotlib's renderer needs none
    options.desubroutinize = True
    options.name_IDs = list(range(15))  # keep the copyright, licence and its URL (0, 13, 14)
    options.notdef_outline = True
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters])
    subsetter.subset(font)
    return font


def cff_to_truetype(font, max_err=1.0):
    """Replace the CFF outlines by quadratic TrueType ones (glyf/loca), in place."""
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for tag in ("CFF ", "VORG"):
        if tag in font:
            del font[tag]
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        glyph.recalcBounds(glyf)
        hmtx[name] = (hmtx[name][0], getattr(glyph, "xMin", 0))  # an empty glyph (space) has no bounds
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 1 if field == "maxZones" else 0)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font.sfntVersion = "\0\1\0\0"
    font["head"].glyphDataFormat = 0


def rename(font, family, postscript):
    """Give the subset its own family name, so matplotlib never confuses it with an installed Noto Sans CJK KR
    (a full CFF font, which a PDF or PostScript file cannot embed as Type 42)."""
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16, 17, 18, 21, 22):  # family, full name, typographic family and the like
            names.removeNames(nameID=record.nameID)
    for nameID, value in ((1, family), (4, family), (6, postscript), (3, f"{postscript};attention-lab subset")):
        names.setName(value, nameID, 3, 1, 0x409)
        names.setName(value, nameID, 1, 0, 0)


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
    font = subset_font(args.source, characters)
    cff_to_truetype(font)
    rename(font, look.KO_FONT, look.KO_FONT_POSTSCRIPT)
    font.recalcTimestamp = False  # the same characters give the same bytes
    font.recalcBBoxes = True  # maxp and head are recomputed from the new outlines
    args.out.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(args.out))
    cmap = font.getBestCmap()
    absent = "".join(c for c in characters if ord(c) not in cmap)
    print(f"{args.out}: {len(cmap)} characters, {args.out.stat().st_size / 1024:.0f} KiB")
    print(f"not in {look.KO_FONT} (drawn from {look.FALLBACK_FONT}): {absent}")


if __name__ == "__main__":
    main()
