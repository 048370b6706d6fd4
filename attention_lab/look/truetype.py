"""A TrueType subset of an installed font: what a PDF can embed as real text (Type 42).

    from attention_lab.look import truetype
    font = truetype.subset(Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"), "김민준",
                           "Noto Sans CJK KR")                   # a fontTools TTFont holding those letters
    truetype.to_truetype(font); truetype.rename(font, "Names", "Names-Regular"); font.save("names.ttf")

Korean system fonts are mostly CFF (OpenType .otf/.ttc): matplotlib cannot embed a CFF font in PDF or PostScript
as Type 42 (the PostScript fails in Ghostscript, PDF viewers warn of a font-type mismatch). The outlines are
converted to quadratic TrueType ones (cu2qu). tools/subset_font.py makes the shipped Korean font with these, and
a worksheet makes one for the students' names (figures.worksheet.name_font). fontTools comes with matplotlib.
"""

from fontTools import subset as _subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, newTable


def font_number(path, family):  # -> the index of `family` in a collection (.ttc), 0 for a single font
    if str(path).lower().endswith(".ttc"):
        with TTCollection(str(path)) as collection:
            names = [f["name"].getDebugName(1) for f in collection.fonts]
        if family not in names:
            raise ValueError(f"font: {path} has no font named {family!r}; it has {names}")
        return names.index(family)
    return 0


def subset(source, characters, family):  # -> TTFont holding only `characters` of `family` in the file `source`
    """The font keeps its file open until saved: close() it then (the caller's `with` or font.close())."""
    options = _subset.Options()
    options.font_number = font_number(source, family)
    options.hinting = False  # the TrueType outlines made below carry no hints; matplotlib's renderer needs none
    options.desubroutinize = True
    options.name_IDs = list(range(15))  # keep the copyright, licence and its URL (0, 13, 14)
    options.notdef_outline = True
    font = _subset.load_font(str(source), options)
    subsetter = _subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters])
    subsetter.subset(font)
    return font


def to_truetype(font, max_err=1.0):
    """Replace CFF outlines by quadratic TrueType ones (glyf/loca), in place; a TrueType font is left as it is."""
    font.recalcBBoxes = True  # maxp and head are recomputed from the new outlines when saved
    if "glyf" in font:
        return
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
    """Give the subset its own family name, so it is never mistaken for the installed (full, CFF) font."""
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 4, 16, 17, 18, 21, 22):  # family, full name, typographic family and the like
            names.removeNames(nameID=record.nameID)
    for nameID, value in ((1, family), (4, family), (6, postscript), (3, f"{postscript};attention-lab subset")):
        names.setName(value, nameID, 3, 1, 0x409)
        names.setName(value, nameID, 1, 0, 0)
