"""A student's name on a worksheet as real text: the installed Korean font that draws it, made TrueType for the PDF.

The shipped font subset holds only the package's own words, so a Hangul name needs a font of the system
(NAME_FONTS); `name_families` finds one or refuses the name in one line, and `name_font` subsets it into a
TrueType file (look.truetype), one for every name of a class set.
"""

import functools
import tempfile
from pathlib import Path

from matplotlib.font_manager import FontProperties

from ..look import truetype

# Korean fonts a system may have, for the students' names: the shipped subset holds only the package's own words.
NAME_FONTS = ("Noto Sans CJK KR", "Noto Sans KR", "NanumGothic", "Malgun Gothic", "Apple SD Gothic Neo", "AppleGothic",
              "Noto Sans CJK JP", "Noto Sans CJK SC")


def _drawn_by(family):  # -> the set of characters a font family draws (empty if it is not installed)
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    try:
        path = font_manager.fontManager.findfont(font_manager.FontProperties(family=family),
                                                 fallback_to_default=False)
    except ValueError:
        return set()
    return set(map(chr, FT2Font(path).get_charmap()))


def name_families(name, families):  # -> the font families that draw a student's name, or a ValueError
    """The page's families, and after them the first installed Korean font that has every letter they lack."""
    missing = set(name) - set().union(*map(_drawn_by, families)) - {" "}
    if not missing:
        return list(families)
    extra = next((f for f in NAME_FONTS if missing <= _drawn_by(f)), None)
    if extra is None:
        raise ValueError(f"name: no installed font draws {''.join(sorted(missing))!r} of {name!r}; install a Korean "
                         "font (Debian: apt-get install fonts-noto-cjk), or write the name in Latin letters.")
    return [*families, extra]


_NAME_FONTS = tempfile.TemporaryDirectory(prefix="attention-lab-names-")  # lives as long as the process


@functools.lru_cache(maxsize=8)
def _name_subset(family, characters):  # -> Path: a TrueType font of `family` holding `characters`
    from matplotlib import font_manager

    source = font_manager.fontManager.findfont(FontProperties(family=family), fallback_to_default=False)
    font = truetype.subset(source, characters, family)
    truetype.to_truetype(font)  # a CFF font (Noto Sans CJK) is no TrueType: the PDF would draw it as outlines
    truetype.rename(font, "Attention Lab names", "AttentionLabNames-Regular")
    path = Path(_NAME_FONTS.name) / f"names-{len(list(Path(_NAME_FONTS.name).iterdir()))}.ttf"
    font.save(str(path))
    font.close()
    return path


def name_font(names, families):  # -> Path of a TrueType font for the names, or None where the page's fonts do
    """The students' names in an installed Korean font (NAME_FONTS), made TrueType for the PDF: a name is then real
    text there, searchable and copyable. One font for every name of a class set, as it takes a second to make;
    None where the page's own families draw every letter. A ValueError as name_families'."""
    extra = [f for name in names for f in name_families(name, families)[len(families):]]
    if not extra:
        return None
    return _name_subset(extra[0], "".join(sorted(set("".join(names)) | {" "})))
