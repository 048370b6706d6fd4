"""What every public entry point checks about its arguments, in one place.

Each helper returns the value it checked (converted where that is harmless)
or raises a ValueError whose message starts with the argument's name, says
what was wrong and says what to pass instead. Nothing here imports more than
NumPy, so the core can use it.
"""

import functools
import os
from decimal import Decimal

import numpy as np

LANGS = ("ko", "en")
MAX_SEED = 2**63 - 1
BYTES_PER_GIB = 2**30


def _shown(value, limit=60):
    """A short repr of a bad value for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def count_text(n):  # n ≥ 0: 1234 -> "1,234"; 10**400 -> "about 10^400"
    """A whole number for a message: with thousands separators, or its power of ten when it has over 15 digits."""
    digits = len(str(n))
    return f"{n:,}" if digits <= 15 else f"about 10^{digits - 1}"


def whole_number(name, value, lo=None, hi=None, hint=""):  # -> int
    """An int (or NumPy integer) in [lo, hi]; bool, floats and text are refused by name."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        kind = "True/False" if isinstance(value, (bool, np.bool_)) else type(value).__name__
        raise ValueError(f"{name}: must be a whole number, got {kind} {_shown(value)}. "
                         f"Pass an int, e.g. {name}={lo if lo is not None else 1}.{hint}")
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"from {lo} to {hi}" if lo is not None and hi is not None else f"≥ {lo}" if lo is not None else f"≤ {hi}"
        raise ValueError(f"{name}: must be {span}, got {value}.{hint}")
    return value


def divisors(n):  # -> [int]
    """The whole numbers that divide n: the head counts d allows, the K/V head counts h allows (√n steps)."""
    small = [k for k in range(1, int(n**0.5) + 1) if n % k == 0]
    return sorted({*small, *(n // k for k in small)})


def kv_heads(value, h, name="kv_heads"):  # -> g
    """How many K/V heads the h Query heads share: None means h (one each); otherwise a divisor of h. `name` is
    the argument's own name where it is not `kv_heads` (kv_head_index's `g`)."""
    if value is None:
        return h
    g = whole_number(name, value, 1, h)
    if h % g:
        raise ValueError(f"{name}: h={h} Query heads must share the K/V heads evenly, so {name} must divide h; "
                         f"use one of {divisors(h)}.")
    return g


def positive_number(name, value):  # -> float
    """A finite number > 0 (an int or a float)."""
    try:
        number = float(value) if _is_real_number(value) else None
    except OverflowError:
        number = None
    if number is None or not 0 < number < np.inf:
        raise ValueError(f"{name}: must be a finite number greater than 0, got {_shown(value)}.")
    return number


def seed(value, name="seed", hi=MAX_SEED):  # -> int
    """A seed: a whole number from 0 to hi (2⁶³ − 1 unless a control holds fewer)."""
    return whole_number(name, value, 0, hi, " Seeds are non-negative whole numbers, e.g. seed=0.")


def lang(value):  # -> "ko" | "en"
    """The language of labels and feedback."""
    if not isinstance(value, str) or value not in LANGS:
        raise ValueError(f"lang: use 'ko' (Korean) or 'en' (English), got {_shown(value)}.")
    return value


def choice(name, value, choices):
    """The one of `choices` that `value` is (== and of the same type, so True is not 1; any str, np.str_ included,
    is a str), returned as the choice itself; or a ValueError listing them."""
    if not isinstance(value, np.ndarray):
        for c in choices:
            same_type = type(value) is type(c) or (isinstance(c, str) and isinstance(value, str))
            if value is c or (same_type and value == c):
                return c
    raise ValueError(f"{name}: use one of {', '.join(map(repr, choices))}; got {_shown(value)}.")


def _is_real_number(x):
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


_BYTES_LIKE = (bytes, bytearray, memoryview)


def plain(name, value, what, fill="0"):  # -> value, unless it (or an entry of its lists) hides or misreads entries
    """Refuse what np.asarray would read wrongly: a masked array (its mask would be dropped and the hidden
    entries used) and bytes-like objects (bytearray, memoryview: their bytes would be read as numbers 0–255)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, np.ma.MaskedArray):
            raise ValueError(f"{name}: a NumPy masked array hides entries, and {what} needs every entry; pass a "
                             f"plain array, e.g. np.ma.filled({name}, {fill}).")
        if isinstance(item, _BYTES_LIKE):
            raise ValueError(f"{name}: must be {what}, got {type(item).__name__} {_shown(item)}, whose bytes would "
                             f"be read as the numbers 0–255. Pass a list or array of numbers, e.g. [[1, 0], [0, 1]].")
        if isinstance(item, (list, tuple)):
            stack.extend(item)
    return value


def real_array(name, value, what="an array of real numbers"):  # -> float ndarray
    """`value` as a float array: refuses text, objects, complex numbers, ragged lists and numbers beyond float,
    masked arrays and bytes-like objects (see `plain`)."""
    if isinstance(value, str):
        raise ValueError(f"{name}: must be {what}, got text {_shown(value)}. Write numbers, e.g. [[1, 0], [0, 1]].")
    plain(name, value, what)
    try:
        raw = np.asarray(value)
    except ValueError:  # ragged nested lists: numpy's "inhomogeneous shape" message does not name the argument
        raise ValueError(f"{name}: must be {what}, but its rows have different lengths. "
                         "Give every row the same number of entries.") from None
    if np.iscomplexobj(raw):
        raise ValueError(f"{name}: complex numbers are not allowed; attention here works on real numbers. "
                         "Pass the real part yourself (np.real(x)) if that is what you mean.")
    if raw.dtype.kind == "b":
        raise ValueError(f"{name}: must be {what}, got True/False values. Use numbers (1.0 and 0.0), or pass "
                         "a boolean array as `mask`.")
    if raw.dtype.kind not in "iuf":  # text, dates, or objects: every entry must be a real number
        entries = raw.flat if raw.dtype == object else raw.flat[:1]
        odd = next((x for x in entries if not _is_real_number(x)), raw)
        if odd is not raw or raw.dtype != object:
            raise ValueError(f"{name}: must be {what}, got a value of type {type(odd).__name__} ({_shown(odd)}).")
    try:
        with np.errstate(over="ignore"):
            return raw.astype(float)
    except OverflowError:  # a Python int beyond float's range, e.g. 10**400
        raise ValueError(f"{name}: holds a number too large for a float (beyond ±1.8e308); "
                         "use smaller numbers.") from None


def finite_matrix(name, value, what="a 2-D array of numbers (T tokens × d components)"):  # -> [rows, cols] float
    """A 2-D float array of finite numbers."""
    array = real_array(name, value, what)
    if array.ndim != 2:
        raise ValueError(
            f"{name}: must be 2-D with shape (T, d) — one row per token — got {array.ndim}-D shape {array.shape}. "
            "Pass all heads together as (T, d); the heads are split for you with `h`."
        )
    if not np.isfinite(array).all():
        raise ValueError(f"{name}: contains NaN or ±inf (or a number too large for a float). Q, K and V must be "
                         "finite numbers; to hide tokens, use `mask`.")
    return array


def boolean_matrix(name, value, fix, empty=False):  # -> [rows, cols] bool, a copy
    """A 2-D boolean array (True = may attend), e.g. a mask; `fix` says how to build one; empty: 0 rows or columns
    allowed (a block of a mask may have none)."""
    plain(name, value, "a boolean mask", fill="False")
    try:
        array = np.asarray(value)
    except ValueError:  # ragged nested lists
        raise ValueError(f"{name}: the rows of a mask array must all have the same length, T_k. Row i is Query token "
                         "i, column j is Key token j.") from None
    if array.dtype != bool:
        raise ValueError(f"{name}: a mask array must be boolean (True = may attend), got dtype {array.dtype} "
                         f"({type(value).__name__}). {fix}")
    if array.ndim != 2 or (0 in array.shape and not empty):
        raise ValueError(f"{name}: a mask array must have shape (T_q, T_k), one row per Query token, got "
                         f"{array.shape}. {fix}")
    return array.copy()


# ---- memory: what one call may allocate ------------------------------------------------------------------

@functools.cache
def machine_bytes():  # -> int: the memory this process may use (the container's limit, as on Binder, or the RAM)
    """The machine's memory, or the container's limit when that is smaller (Binder gives a session 1–2 GB)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system: assume a small laptop
        total = 8 * BYTES_PER_GIB
    for limit in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(limit) as f:
                text = f.read().strip()
        except OSError:
            continue
        if text.isdigit():
            total = min(total, int(text))
    return total


def memory_budget():  # -> bytes one call may allocate
    """A quarter of `machine_bytes()`: room for the arrays a notebook already holds, its kernel and other programs."""
    return machine_bytes() // 4


def fits(name, n_bytes, what, fix):
    """Raise a ValueError naming `name` unless a call that needs about `n_bytes` fits in `memory_budget()`.

    Checked from the sizes, before anything is allocated, so a size too large for the machine gets this message
    at once instead of a MemoryError (or the machine swapping) minutes later.
    """
    if n_bytes > memory_budget():
        raise ValueError(f"{name}: {what} would need about {_gib(n_bytes)}, more than the {_gib(memory_budget())} one "
                         f"call may take here (a quarter of this machine's {_gib(machine_bytes())}, leaving the rest "
                         f"for what is already in memory); {fix}")


def _gib(n_bytes):  # 7.5 GiB, 0.25 GiB, 8e+12 GiB; 9.31e+390 GiB for an int beyond any float (d=10**400)
    try:
        return f"{n_bytes / BYTES_PER_GIB:,.3g} GiB"
    except OverflowError:
        return f"{Decimal(n_bytes) / BYTES_PER_GIB:.3g} GiB"


def text(name, value):  # -> str
    """A text parameter (a title, a caption): str() of anything but None, bytes and arrays."""
    if value is None or isinstance(value, (bytes, np.ndarray)):
        raise ValueError(f"{name}: must be text, got {type(value).__name__}. Pass a string, e.g. {name}='Head 1'.")
    return str(value)


def boolean(name, value):  # -> bool
    """A switch: True or False only."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name}: must be True or False, got {_shown(value)}.")
    return bool(value)


# ---- the inputs of attention: sizes, and Q, K, V -------------------------------------------------------

def sizes(T, d, h):  # -> (T, d, h) as ints
    """T, d, h as Python ints (NumPy integers converted once, after checking), or a ValueError naming the problem."""
    T = whole_number("T", T)
    d = whole_number("d", d)
    h = whole_number("h", h)
    if T < 1:
        raise ValueError(f"T: there must be at least one token (T ≥ 1), got T={T}.")
    if d < 1:
        raise ValueError(f"d: the model dimension must be at least 1, got d={d}.")
    if h < 1:
        raise ValueError(f"h: there must be at least one head (h ≥ 1), got h={h}.")
    if d % h:
        allowed = divisors(d) if d <= 10**12 else "the divisors of d"
        raise ValueError(
            f"h: d={d} is not divisible by h={h}, so the heads cannot have equal width dh = d / h. "
            f"With d={d} use h in {allowed}, or change d to a multiple of {h}."
        )
    return T, d, h


def _check_kv(Q, K, V, h, given):  # -> g
    T_q, d = Q.shape
    if K.shape[0] != V.shape[0]:
        raise ValueError(f"K, V: need one Key row and one Value row per Key token, so the same number of rows; "
                         f"got K {K.shape}, V {V.shape}.")
    if given is None:
        if not (d == K.shape[1] == V.shape[1]):
            raise ValueError(
                f"Q, K, V: must have the same number of columns d, got Q {Q.shape}, K {K.shape}, V {V.shape}. "
                "(With kv_heads=g, K and V have g·dh columns.)"
            )
        return h
    g = kv_heads(given, h)
    dh = d // h
    want = g * dh
    if K.shape[1] != want or V.shape[1] != want:
        width = K.shape[1]  # the g their columns would fit, if any: the fix may be kv_heads rather than K and V
        fits = K.shape == V.shape and width % dh == 0 and width // dh in divisors(h)
        fix = f"use kv_heads={width // dh}, or give" if fits else "give"
        raise ValueError(f"K, V, kv_heads: with h={h} heads of dh={dh} and kv_heads={g}, K and V must have g·dh = "
                         f"{want} columns, got K {K.shape}, V {V.shape}; {fix} K and V {want} columns.")
    return g


def qkv(Q, K, V, h, kv_heads=None):  # -> Q [T_q, d], K [T_k, g·dh], V [T_k, g·dh], g
    """Q, K, V as finite float matrices whose shapes fit h Query heads and g = kv_heads K/V heads, or a ValueError."""
    Q, K, V = finite_matrix("Q", Q), finite_matrix("K", K), finite_matrix("V", V)
    sizes(*Q.shape, h)
    if K.shape[0] < 1:
        raise ValueError(f"K: there must be at least one Key token (one row), got K {K.shape}.")
    return Q, K, V, _check_kv(Q, K, V, h, kv_heads)
