"""What the learner's function is handed: only what the task allows, and nothing it could change.

An exercise that says "compute S from Q and K" hands the function a `TraceView`: the trace's fields up to the stage
the task asks for. Reading a later stage raises `Withheld`, which the checker explains in its own words. A plain
argument (a row of scores, a mask) is handed as a fresh read-only copy on every call, so an answer that changes
its argument in place (`x -= x.max()`) cannot change what the next answer is checked on. A trace is read-only
already (each read of a field is a fresh read-only copy).

`uses(function, name)` tells whether the function calls something of that name (`al.softmax`, `F.softmax`, a
helper that does), for the exercises that say "without al.softmax".
"""

import copy
import dis
import types

import numpy as np

from ..numeric.trace import AttentionTrace

SIZES = ("T", "T_q", "T_k", "d", "h", "dh", "kv_heads", "mask_name", "mask_params")  # always handed


class Withheld(AttributeError):
    """A field of the trace that this exercise does not hand to the answer."""

    def __init__(self, name, fields):
        super().__init__(f"this exercise does not hand out tr.{name}")
        self.name = name
        self.fields = fields


class TraceView:
    """A trace with only some of its fields: the ones in `fields` and the sizes; each read a read-only copy."""

    __slots__ = ("_trace", "_fields")

    def __init__(self, trace, fields):
        object.__setattr__(self, "_trace", trace)
        object.__setattr__(self, "_fields", tuple(fields))

    def __getattr__(self, name):
        if name in self._fields or name in SIZES:
            return getattr(self._trace, name)
        if not name.startswith("_") and hasattr(self._trace, name):
            raise Withheld(name, self._fields)
        raise AttributeError(f"'tr' has no attribute {name!r}", name=name, obj=self)

    def __setattr__(self, name, value):
        raise AttributeError(f"tr is read-only: cannot set {name!r}.")

    def __dir__(self):
        return [*self._fields, *SIZES]

    def __repr__(self):
        return f"{self._trace!r} (this exercise hands out {', '.join(self._fields)})"


def handed(value, fields=None):  # -> what the learner's function receives for one argument
    """A trace as a view of `fields` (all of it when None); anything else as a fresh read-only copy."""
    if isinstance(value, AttentionTrace):
        return value if fields is None else TraceView(value, fields)
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
        return value.view()  # a view of a read-only array cannot be made writable again
    return copy.deepcopy(value)


def _codes(function, seen):  # -> the code objects the function runs: its own, nested ones, helpers it calls
    code = getattr(function, "__code__", None)
    if code is None or code in seen:
        return
    seen.add(code)
    stack = [code]
    while stack:
        current = stack.pop()
        yield current
        for const in current.co_consts:
            if isinstance(const, types.CodeType):
                stack.append(const)
        for name in current.co_names:  # a helper of the learner's, defined in the same place
            helper = getattr(function, "__globals__", {}).get(name)
            if isinstance(helper, types.FunctionType) and helper.__module__ == function.__module__:
                yield from _codes(helper, seen)


def uses(function, name):  # -> True when the function (or a helper it calls) calls or reads `name`
    """Whether `name` is read as an attribute (`al.softmax`, `x.softmax`) or a global bound to something that
    is not the learner's own function, anywhere in the function's code."""
    try:
        for code in _codes(function, set()):
            for op in dis.get_instructions(code):
                if op.argval != name:
                    continue
                if "ATTR" in op.opname or "METHOD" in op.opname:
                    return True
                if "GLOBAL" in op.opname:
                    bound = getattr(function, "__globals__", {}).get(name)
                    if not (isinstance(bound, types.FunctionType) and bound.__module__ == function.__module__):
                        return True
    except Exception:  # code that cannot be read (a builtin, a C function) is not refused for it
        return False
    return False
