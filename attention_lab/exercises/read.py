"""Reading an answer: any value at all becomes an array of real numbers, a shape, or the reason it is neither.

Nothing here raises: a value that is not a number (text, None, bool, complex, NaN, a ragged list, a masked
array, an object that breaks while being read, …) becomes a `Problem`, a key of the word table
(look/words/exercises.py, "ex.<key>") with what to fill in.
"""

import ast
import numbers
from dataclasses import dataclass
from decimal import Decimal

import numpy as np


@dataclass(frozen=True)
class Problem:
    """Why an answer is not of the right kind: a word key ("ex.<key>") and what to fill in."""

    key: str
    shown: str = ""


def shown(value, limit=40):
    """A short one-line repr of any value, safe to put between backticks; never raises."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails (a huge int, a broken object) still gets named
        text = f"<{type(value).__name__}>"
    text = " ".join(text.split()).replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_masked(x):
    return isinstance(x, np.ma.MaskedArray)  # np.ma.masked, the masked constant, is one too


def _leaf(x):  # -> float, or Problem: one value that should be a real number
    if x is None:
        return Problem("none_inside")
    if _is_masked(x):
        return Problem("masked")
    if isinstance(x, (bool, np.bool_)):
        return Problem("bools")
    if isinstance(x, (str, bytes)):
        return Problem("text_inside", shown(x))
    if isinstance(x, numbers.Complex) and not isinstance(x, numbers.Real):
        return Problem("complex", shown(x))
    if isinstance(x, (numbers.Real, Decimal)):
        try:
            return float(x)
        except OverflowError:
            return Problem("too_large")
        except (TypeError, ValueError, ArithmeticError):  # e.g. Decimal("sNaN")
            return Problem("nan")
    if isinstance(x, (list, tuple, np.ndarray)):
        return Problem("ragged", shown(x))
    if callable(x):
        name = str(getattr(x, "__name__", type(x).__name__))
        return Problem("callable", name[:40].replace("`", "'"))
    return Problem("other", type(x).__name__)


def _from_array(a):  # -> float ndarray, or Problem
    if _is_masked(a):
        return Problem("masked")
    kind = a.dtype.kind
    if kind in "iuf":
        return a.astype(float)
    if kind == "b":
        return Problem("bools")
    if kind == "c":
        return Problem("complex", shown(a.flat[0] if a.size else a))
    if kind in "US":
        return Problem("text_inside", shown(a.flat[0] if a.size else a))
    if kind == "O":
        values = np.empty(a.shape)
        for i, x in enumerate(a.flat):
            value = _leaf(x)
            if isinstance(value, Problem):
                return value
            values.flat[i] = value
        return values
    return Problem("other", f"NumPy array of dtype {a.dtype}")


def _from_sequence(items, depth=0):  # -> nested lists of floats, or Problem
    if depth > 32:
        return Problem("other", "list nested too deep")
    out = []
    for item in items:
        if isinstance(item, (list, tuple)):
            value = _from_sequence(item, depth + 1)
        elif isinstance(item, np.ndarray):
            value = _from_array(item)
            value = value if isinstance(value, Problem) else value.tolist()
        else:
            value = _leaf(item)
            if isinstance(value, Problem) and value.key == "ragged":
                value = Problem("other", type(item).__name__)
        if isinstance(value, Problem):
            return value
        out.append(value)
    return out


def _is_plain_numbers(value, depth=0):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    return (isinstance(value, (list, tuple)) and 0 < len(value) and depth < 3
            and all(_is_plain_numbers(v, depth + 1) for v in value))


def _read_text(text):  # -> Problem: numbers in quotes, or other text
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    stripped = text.strip()
    if len(stripped) <= 40:
        try:
            value = ast.literal_eval(stripped)
        except Exception:  # any text at all: not a literal
            value = None
        if _is_plain_numbers(value):
            return Problem("quoted", shown(text))
    return Problem("text", shown(text))


def numbers_of(answer):  # -> float ndarray, or Problem
    """The answer as an array of real numbers, or why it is not one. Never raises."""
    try:
        with np.errstate(all="ignore"):
            if answer is None:
                return Problem("none")
            if isinstance(answer, (str, bytes)):
                return _read_text(answer)
            if isinstance(answer, (bool, np.bool_)):
                return Problem("bool", shown(answer))
            if isinstance(answer, np.ndarray):
                return _from_array(answer)
            if isinstance(answer, range):  # range(4, 7) answers [4, 5, 6]; a huge range is no answer here
                if len(answer) > 10_000:
                    return Problem("other", "range")
                answer = list(answer)
            if isinstance(answer, (list, tuple)):
                values = _from_sequence(answer)
                if isinstance(values, Problem):
                    return values
                try:
                    return np.asarray(values, dtype=float)
                except ValueError:  # rows of different lengths
                    return Problem("ragged", shown(answer))
            value = _leaf(answer)
            if not isinstance(value, Problem):
                return np.asarray(value)
            if value.key == "other" and (hasattr(answer, "__array__") or hasattr(answer, "__array_interface__")):
                array = np.asarray(answer)  # e.g. a torch tensor, a pandas Series
                if array.dtype != object:
                    return _from_array(array)
            return value
    except Exception:  # an object that breaks while being read is still not a number
        return Problem("other", type(answer).__name__)


def shape_of(answer):  # -> tuple of ints, or Problem
    """The answer as a shape (a tuple of whole numbers), or why it is not one. Never raises."""
    try:
        as_shape = isinstance(answer, (tuple, list)) or (
            isinstance(answer, np.ndarray) and not _is_masked(answer) and answer.ndim == 1
            and answer.dtype.kind in "iu")
    except Exception:  # a broken ndarray-like object
        as_shape = False
    values = numbers_of(answer)
    if isinstance(values, Problem):
        return values
    if not as_shape:
        return Problem("one_number", shown(answer)) if values.ndim == 0 else Problem("array_not_shape")
    if values.ndim != 1:
        return Problem("nested", shown(answer))
    whole = np.isfinite(values) & (values == np.round(values))
    if not whole.all():
        return Problem("not_whole", shown(float(values[~whole][0])))
    return tuple(int(v) for v in values)


def read(answer, like):  # -> tuple (a shape), float ndarray, or Problem: `answer` read as `like` is
    """Read `answer` the way the expected value `like` is written: a shape, a number or an array."""
    if isinstance(like, tuple):
        return shape_of(answer)
    got = numbers_of(answer)
    if isinstance(got, np.ndarray) and got.size == like.size and got.squeeze().shape == like.squeeze().shape:
        got = got.reshape(like.shape)  # a 1 × 3 row answers a row of 3; a one-element array answers a number
    return got


def expected_form(value):  # -> tuple of ints (a shape) or float ndarray
    return tuple(int(n) for n in value) if isinstance(value, tuple) else np.asarray(value, dtype=float)


# A typed decimal on the tolerance's edge is within it: 0.13 − 0.125 is 0.005000000000000004 in floating point.
EDGE = 1e-12


def same(got, want, tol, equal_nan=False, rtol=0.0):
    """True when `got` is `want` (a shape exactly; numbers within tol, its edge included; −∞ in place of −∞)."""
    if isinstance(want, tuple) or isinstance(got, tuple):
        return isinstance(got, tuple) and isinstance(want, tuple) and got == want
    if not isinstance(got, np.ndarray) or got.shape != want.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.isclose(got, want, rtol=rtol, atol=tol + EDGE, equal_nan=equal_nan).all())
