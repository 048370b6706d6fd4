"""Running the learner's function, and explaining in one line the error it raised (a slip).

The common slips of these exercises each get their own line: `@` on arrays whose sizes do not meet (a missing
`.T`), arrays that do not broadcast, an index past the end, too many indices, a name `tr` does not have, a later
stage this exercise does not hand out, changing a read-only argument in place, a name not defined. Any other
error is named with its type and message. Nothing here raises (but KeyboardInterrupt).

`run` also watches the function while it runs: a call of a function the exercise forbids (by the function object,
whatever name reached it) and a case that takes longer than LIMIT seconds (an endless loop) are slips of their own.
"""

import difflib
import inspect
import re
import sys
import time
import warnings
from dataclasses import dataclass

import numpy as np

from ..numeric.trace import AttentionTrace
from .hands import TraceView, Withheld


@dataclass(frozen=True)
class Slip:
    """An error the learner's code raised: a word key ("ex.<key>") and its values; the error's type and message."""

    key: str
    values: dict
    error: str = ""
    message: str = ""


def _short(text, limit=90):
    text = " ".join(str(text).split()).replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fields():  # the public names of a trace, for "did you mean"
    return sorted(n for n in dir(AttentionTrace) if not n.startswith("_"))


def explain(error, names):  # -> Slip
    """The one-line explanation of `error`, raised by a function of `names` (e.g. "tr")."""
    try:
        message = str(error)
    except Exception:  # an exception whose str() fails still has a type
        message = ""
    slip = _explained(error, message, names)
    return Slip(slip.key, slip.values, type(error).__name__, _short(message) or "—")


def _explained(error, message, names):  # -> Slip without the error's type and message
    kind = type(error).__name__
    if isinstance(error, Withheld):
        return Slip("withheld", {"name": error.name, "fields": ", ".join(f"`{f}`" for f in error.fields)})
    if isinstance(error, ValueError) and "read-only" in message:
        return Slip("slip_read_only", {"names": ", ".join(names)})
    if isinstance(error, ValueError):
        if match := re.search(r"^matmul: .*\(size (\d+) is different from (\d+)\)", message):
            return Slip("slip_matmul", {"left": match[2], "right": match[1]})
        if match := re.search(r"not aligned: (\d+) \(dim \d+\) != (\d+) \(dim \d+\)", message):
            return Slip("slip_matmul", {"left": match[1], "right": match[2]})
        if match := re.search(r"could not be broadcast together with shapes (.+?)\s*$", message):
            shapes = " ".join(re.findall(r"\([\d, ]*\)", match[1])) or _short(match[1], 40)
            return Slip("slip_broadcast", {"shapes": shapes})
        if "concatenat" in message or "input arrays must have same number of dimensions" in message \
                or "input array dimensions" in message:
            return Slip("slip_join", {"message": _short(message)})
    if isinstance(error, IndexError):
        if match := re.search(r"index (-?\d+) is out of bounds for axis \d+ with size (\d+)", message):
            return Slip("slip_index", {"index": match[1], "size": match[2]})
        if match := re.search(r"array is (\d+)-dimensional, but (\d+) were indexed", message):
            return Slip("slip_indices", {"axes": match[1], "given": match[2]})
    if isinstance(error, AttributeError) and getattr(error, "obj", None).__class__ in (AttentionTrace, TraceView):
        name = str(getattr(error, "name", "") or "")[:40].replace("`", "'")
        fields = _fields() if error.obj.__class__ is AttentionTrace else dir(error.obj)
        close = ([f for f in fields if f.lower() == name.lower()]  # q → Q
                 or sorted((f for f in fields if name.startswith(f) or f.startswith(name)), key=len)[-1:]  # Qhead → Qh
                 or difflib.get_close_matches(name, fields, n=1, cutoff=0.5))
        if close:
            return Slip("slip_field", {"name": name, "close": close[0]})
        return Slip("slip_field_unknown", {"name": name, "fields": ", ".join(f"`{f}`" for f in fields)})
    if isinstance(error, NameError) and getattr(error, "name", None):
        return Slip("slip_name", {"name": str(error.name)[:40].replace("`", "'"), "names": ", ".join(names)})
    return Slip("slip_other", {"error": kind, "message": _short(message) or "—"})


LIMIT = 5  # seconds the learner's function may take on one case before it is stopped


class _Stop(BaseException):  # not an Exception, so that the learner's `except Exception:` does not swallow it
    """Raised inside the learner's code to stop it: it took too long, or it reached a forbidden function."""


class _Watch:
    """While the learner's function runs: stop it past `limit` seconds (checked on every line it runs, so an endless
    `while` loop stops; one long call into NumPy's C code is not cut short) and when it calls a forbidden function,
    recognised by its code object (the function reached, whatever name it was called by, and through any
    wrapper). It uses `sys.settrace`, which works in any thread, in a Jupyter kernel and in Pyodide, where there are
    no signals or threads to time it with; the tracer that was set before (a debugger, coverage) is put back.
    Python removes a tracer once it has raised, so a loop that catches everything (a bare `except:`) and goes
    on is not stopped a second time: interrupting the kernel stops it."""

    def __init__(self, forbid, limit):
        self.codes = {inspect.unwrap(f).__code__: f for f in forbid}
        self.deadline = time.monotonic() + limit
        self.reached = None  # the forbidden function called, if any
        self.late = False

    def _line(self, frame, event, arg):
        if time.monotonic() > self.deadline:
            self.late = True
            raise _Stop
        return self._line

    def _call(self, frame, event, arg):
        if frame.f_code in self.codes:
            self.reached = self.reached or self.codes[frame.f_code]
            raise _Stop
        return self._line(frame, event, arg)

    def __enter__(self):
        self.before = sys.gettrace()
        sys.settrace(self._call)

    def __exit__(self, *exc):
        sys.settrace(self.before)


def run(function, args, names, forbid=(), limit=None):  # -> the function's value, or a Slip
    """Call the learner's function on one case; an error it raises becomes a Slip, and so do a call of a function in
    `forbid` ("forbidden") and running past `limit` seconds (LIMIT; "timeout"). NumPy's warnings are kept quiet:
    what they warn of (an overflow, 0 / 0) shows in the value, which the checker explains."""
    limit = LIMIT if limit is None else limit
    watch = _Watch(forbid, limit)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"), watch:
            warnings.simplefilter("ignore")
            value = function(*args)
    except _Stop:
        value = None
    except Exception as error:  # any error of the learner's code is feedback, never a traceback
        value = explain(error, names)
    if watch.reached is not None:  # checked first: the learner's code may have caught what stopped it
        return Slip("forbidden", {"name": public_name(forbid[0])})  # named as the task names it, whichever was reached
    if watch.late:
        return Slip("timeout", {"seconds": format(limit, "g")})
    return value


def public_name(function):  # -> how the learner reaches it: "al.softmax", "al.numeric.backward.softmax_backward"
    import attention_lab

    function = inspect.unwrap(function)
    owner = function.__qualname__.split(".")[0]  # the function itself, or the class of a method (Mask.allowed)
    if getattr(attention_lab, owner, None) is not None:
        return f"al.{function.__qualname__}"
    return "al." + function.__module__.removeprefix("attention_lab.") + "." + function.__qualname__
