"""The worksheet's numbers: its one rounding rule (`sheet_number`), the given Q, K and V as printed, and the answers
its key gives (`student_answers`), each computed from the rounded answers before it, as a student carries them on.
"""

import math
from decimal import ROUND_HALF_UP, Decimal

from ..look import formats
from ..numeric.pipeline import STAGES

DIGITS = 3  # the sheet's one rounding rule: every number to 3 significant digits, trailing zeros kept (6.00, 0.0470)
PLAIN = (-3, 2)  # … written plainly from 0.001 to 999 (powers of ten of the first digit), else as 3.19×10⁻⁴


def _decimal(text):  # a printed number back to the one the student carries on: "−1.5" -> Decimal("-1.5")
    plain = text.replace(formats.MINUS, "-")
    if formats.TIMES_TEN not in plain:
        return Decimal(plain)
    mantissa, power = plain.split(formats.TIMES_TEN)  # "1.235×10⁶" -> 1.235E+6, exactly
    return Decimal(mantissa).scaleb(int(power.translate(str.maketrans(formats.RULES["superscripts"], "0123456789-"))))


def _places(x, places):  # a calculator's rounding: half up, in decimal
    return x.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _significant(x, digits=DIGITS):  # twice: 999.7 rounds to 1000, whose 3 digits are 1.00×10³
    for _ in range(2):
        x = _places(x, digits - 1 - x.adjusted()) if x else x
    return x


def sheet_number(x):  # -> the sheet's one rule: "6.00", "0.0470", "424", "3.19×10⁻⁴", "1.10×10³", "0", "−∞"
    """A number as every number on the sheet is written (DIGITS significant digits, half up, trailing zeros kept;
    powers of ten outside PLAIN): the answers, √dh, the mask question's row, given numbers that are not whole.
    x: a Decimal (what a student carries on), or a float (a trace's number: rounded from its 9 first digits, as
    float error is far below them and a label's tie far above)."""
    if isinstance(x, float):
        if math.isinf(x):
            return formats.NEG_INF_LABEL if x < 0 else formats.INF_LABEL
        x = Decimal(f"{x:.9g}")
    if not x:
        return "0"
    x = _significant(x)
    if PLAIN[0] <= x.adjusted() <= PLAIN[1]:
        text = f"{x:f}"
    else:
        power = x.adjusted()
        mantissa = _places(x.scaleb(-power), DIGITS - 1)
        text = f"{mantissa:f}{formats.TIMES_TEN}{str(power).translate(formats.SUPERSCRIPTS)}"
    return text.replace("-", formats.MINUS)


def given_number(x):  # -> a given Q, K or V: a whole number below 1000 exactly as it is ("−2"), else sheet_number
    return formats.format_value(x) if float(x).is_integer() and abs(x) < 1000 else sheet_number(float(x))


def student_answers(tr, head=0, i=3):  # -> {question: [printed answers]}, and "weights_sum"
    """The key as a student following the sheet computes it, in decimal with a calculator's rounding (half up),
    every answer by the one rule (sheet_number) and carried on rounded: S row i from Q and K as printed; divided by
    the printed √dh; eˢ of those scores and their sum; each weight eˢ over the sum; row i of O from those weights."""
    Qh, Kh, Vh = (STAGES[name].matrix(tr, head) for name in ("Qh", "Kh", "Vh"))
    # Q, K and V as the sheet prints them: your own numbers may have more digits than a student sees
    Q, K, V = ([[_decimal(given_number(x)) for x in row] for row in X] for X in (Qh, Kh, Vh))
    root = _decimal(sheet_number(math.sqrt(tr.dh)))
    rounded = [_significant(sum(q * k for q, k in zip(Q[i - 1], key, strict=True))) for key in K]
    scaled = [_significant(s / root) for s in rounded]
    exps = [_significant(s.exp()) for s in scaled]  # Decimal's exp: e³⁰⁰ is no overflow
    total = _significant(sum(exps))
    weights = [_significant(e / total) for e in exps]
    output = [_significant(sum(p * v[c] for p, v in zip(weights, V, strict=True))) for c in range(len(V[0]))]
    return {"scores": [sheet_number(x) for x in rounded], "scaled": [sheet_number(x) for x in scaled],
            "exps": [sheet_number(e) for e in exps], "sum": sheet_number(total),
            "weights": [sheet_number(p) for p in weights], "output": [sheet_number(x) for x in output],
            "weights_sum": sheet_number(sum(weights))}


def mask_row(tr, head, i=3):  # -> (the 1-based row the mask question gives, its printed S / √dh, its answer)
    """Row 2, as the article masks it; row 1 where row 2's scaled scores would print row i's (question 3's answer)."""
    rows = [[sheet_number(float(x)) for x in row] for row in tr.S_scaled[head]]
    r = 2 if rows[1] != rows[i - 1] else 1
    masked = [sheet_number(float(x)) for x in tr.S_masked[head, r - 1]]
    return r, rows[r - 1], masked
