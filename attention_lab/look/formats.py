"""Every number format of the package, for both renderers (matplotlib and the browser).

- `format_value`: one cell's label. Integers as integers, otherwise the kind's
  decimals (3 for weights, kept: "0.100"; 2 for scores and 3 for values,
  trailing zeros dropped: "1.5"), "−∞" for a masked cell, "∞", "NaN", and
  numbers of a million or more in powers of ten: "2×10³⁰⁰", never 301 digits.
- `format_approx`: a display number of 4 significant digits, for the
  exponentials and sums of a softmax written out: "2.718", "20.09", "22026",
  "8.886×10⁶", "2.061×10⁻⁹".
- `format_row`, `dot_product_text`, `bytes_text`: vectors, a dot product written
  out as the article does, sizes in bytes.
- `ROW_GRAMMAR`: how a number typed as text is read (numeric.own_numbers has it; a file's cells, a
  row typed into the explorer, and the page's row editor, which reads it from RULES, all use it).

Both sides show one value: a number is first rounded to `GUARD_DIGITS` more digits than its
label shows, and the label is made from that. The browser and NumPy sum a dot product in different
orders, so their last bits differ ("−0.625" is −0.62500000000000011 on one side and −0.62499999999999989
on the other); rounded to 8 decimals both are −0.625, and both labels read "−0.62".

`RULES` is the same as data: the browser's front-end (live/formats.js) reads it,
and tests/test_live_parity.py holds both renderers to the same labels.
"""

import functools
import math

import numpy as np

from ..numeric import checks
from ..numeric.own_numbers import READ_AS, ROW_GRAMMAR  # noqa: F401  (the typed-number grammar, sent in RULES)

MINUS = "\u2212"  # the typographic minus, as the article writes −1 and −∞
NEG_INF_LABEL = MINUS + "∞"
INF_LABEL = "∞"
NAN_LABEL = "NaN"
TIMES_TEN = "×10"
DECIMALS = {"scores": 2, "weights": 3, "values": 3}
# A weight that rounds to 0 reads "0.000" (1e-10 too), never "0", the exact 0 of a masked cell; a weight that is 0.0
# reads "0.000" too where its cell is allowed (the row sees that key: a gap of 745 or more in one row's scores
# underflows e^s to 0.0), "0" where it is masked or not said (a bare number has no mask).
KEEP_ZEROS = ("weights",)
WHOLE_WITHIN = 1e-9  # a value this close to a whole number is written as that whole number
POWERS_FROM = 1e6  # from here on (in absolute value) a cell is written in powers of ten
APPROX_DIGITS = 4  # significant digits of format_approx
APPROX_WHOLE_FROM = 1e4  # format_approx writes whole numbers from here …
APPROX_SMALL_BELOW = 1e-4  # … and powers of ten below this (and from POWERS_FROM)
GUARD_DIGITS = 6  # rounded first to this many more digits than shown: float error is far below, a label's tie far above
SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


RULES = {"minus": MINUS, "negInf": NEG_INF_LABEL, "inf": INF_LABEL, "nan": NAN_LABEL, "timesTen": TIMES_TEN,
         "decimals": DECIMALS, "keepZeros": list(KEEP_ZEROS), "wholeWithin": WHOLE_WITHIN, "powersFrom": POWERS_FROM,
         "approxDigits": APPROX_DIGITS, "approxWholeFrom": APPROX_WHOLE_FROM, "approxSmallBelow": APPROX_SMALL_BELOW,
         "guardDigits": GUARD_DIGITS, "superscripts": "⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "rowGrammar": ROW_GRAMMAR}


def _signed(text):
    text = text.replace("-", MINUS)
    return "0" if text == MINUS + "0" else text


def _power_of_ten(x, digits):  # 8886110.52 -> "8.886×10⁶"; 2e300 -> "2×10³⁰⁰"
    guarded = float(f"{x:.{digits - 1 + GUARD_DIGITS}e}")
    x = guarded if math.isfinite(guarded) else x  # the largest floats round up past the largest float: keep them
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return _signed(mantissa) + TIMES_TEN + str(int(exponent)).translate(SUPERSCRIPTS)


def format_value(x, kind="values", allowed=None):
    """One cell's label: −∞ for masked cells, integers as integers, else the kind's decimals (see the module).

    allowed: True where the cell's row sees its key, False where the mask hides it, None when not said: a weight
    of exactly 0 reads "0" only where it is not True (KEEP_ZEROS).
    """
    x = float(x)
    if x != x:  # NaN
        return NAN_LABEL
    if math.isinf(x):
        return NEG_INF_LABEL if x < 0 else INF_LABEL
    if abs(x) >= POWERS_FROM:
        return _power_of_ten(x, APPROX_DIGITS)
    x, whole = x + 0.0, round(x)  # −0.0 is 0.0
    seen = allowed is not None and bool(allowed)
    kept = kind in KEEP_ZEROS and whole == 0 and (x > 0 or (x == 0 and seen))  # 5e-10, or 0.0 where seen: "0.000"
    if abs(x - whole) < WHOLE_WITHIN and not kept:
        return _signed(str(int(whole)))
    x = float(f"{x:.{DECIMALS[kind] + GUARD_DIGITS}f}")
    text = f"{x:.{DECIMALS[kind]}f}"
    if kind not in KEEP_ZEROS:
        text = text.rstrip("0").rstrip(".")
    return _signed(text)


# The live path and the figures label many cells; values repeat (small integers, −∞, weights), so remember them.
cell_label = functools.lru_cache(maxsize=1 << 14)(format_value)


def format_approx(x, allowed=None):
    """A display number of 4 significant digits (exp of a score, a sum): 2.718, 20.09, 22026, 8.886×10⁶.

    allowed: as format_value's; an exponential of exactly 0 whose key is allowed (e^s underflowed) reads "0.000".
    """
    x = float(x)
    if not np.isfinite(x) or x == 0:
        return format_value(x, "weights" if x == 0 else "values", allowed)
    if abs(x) >= POWERS_FROM or abs(x) < APPROX_SMALL_BELOW:
        return _power_of_ten(x, APPROX_DIGITS)
    x = float(f"{x:.{APPROX_DIGITS + GUARD_DIGITS}g}")
    text = f"{x:.{APPROX_DIGITS}g}"
    if abs(x) >= APPROX_WHOLE_FROM or "e" in text:  # 9999.7 rounds to 1e+04: written whole, as from 10⁴ on
        text = str(int(round(x)))
    return _signed(text)


def format_row(row, kind="values", allowed=None):
    """A vector as the article writes it: [3, 1.5, −∞]. allowed: a row of format_value's `allowed`, or None."""
    allowed = [None] * len(row) if allowed is None else [bool(a) for a in allowed]
    return "[" + ", ".join(format_value(float(x), kind, a) for x, a in zip(row, allowed, strict=True)) + "]"


def dot_product_text(q, k):  # [dh], [dh] -> str
    """A dot product written out as the article does: −1·1 + 1·(−1) + 1·2 + 2·1.

    Negative numbers are bracketed except the very first factor, so a sign is never read as an operator.
    """
    def factor(x, bracket):
        text = format_value(float(x))
        return f"({text})" if bracket and x < 0 else text

    return " + ".join(f"{factor(a, n > 0)}\u00b7{factor(b, True)}" for n, (a, b) in enumerate(zip(q, k, strict=True)))


def parse_label(text):  # a label back to a float: "−1.5" -> -1.5, "−∞" -> -inf, "8.886×10⁶" -> 8886000.0
    """The number a label shows (for deciding between = and ≈)."""
    if TIMES_TEN in text:
        mantissa, exponent = text.split(TIMES_TEN)
        exponent = exponent.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-"))
        return parse_label(mantissa) * 10.0 ** int(exponent)
    return float(text.replace(MINUS, "-").replace("∞", "inf").replace(",", ""))


def equals(x, text):
    """'=' when `text` shows x exactly (up to float rounding), '≈' when it is rounded: 2 ÷ √4 = 1, e¹ ≈ 2.718.

    A kept zero ("0.000", KEEP_ZEROS) is always '≈': it stands for a weight above 0, even one that is 0.0 in floats.
    """
    shown = parse_label(text)
    if shown == 0 and "." in text:
        return "≈"
    # Float noise is a part of the number itself (1e-9 of it); a label "0" also stands for noise around 0 (|x| ≤
    # 1e-9). A tolerance of 1e-9 × max(1, |x|) wrote "= 3.815×10⁻⁶²" for any number below 1e-9, however rounded.
    scale = abs(x) if shown != 0 else 1.0
    return "=" if shown == x or abs(shown - x) <= 1e-9 * scale else "≈"


def bytes_text(n_bytes):  # -> "64 GiB", "1.5 MiB", "512 B"
    """A size in bytes as a person reads it: binary units (KiB = 1024 B), at most three significant digits."""
    n_bytes = checks.positive_number("n_bytes", n_bytes) if n_bytes else 0.0
    units = ("B", "KiB", "MiB", "GiB", "TiB", "PiB")
    power = 0
    while n_bytes >= 1024 and power < len(units) - 1:
        n_bytes, power = n_bytes / 1024, power + 1
    return f"{n_bytes:.3g} {units[power]}"


SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def superscript(label):  # "1.5" -> "¹·⁵", "−∞" -> "⁻∞"
    """A number label as a Unicode superscript, for an exponent in plain text (e¹, e⁻¹·⁵), never mathtext.

    Digits and the minus are raised; the decimal point becomes a raised dot "·" (Unicode has no superscript
    point); ∞ stays as it is.
    """
    return str(label).replace(MINUS, "-").translate(SUPERSCRIPTS).replace(".", "·")


def subscript(n):  # 1 -> "₁"
    """A whole number as Unicode subscript digits, for a head's matrices in plain text: Q₁, K₁ᵀ, V₁, O₁."""
    return str(int(n)).translate(SUBSCRIPTS)
