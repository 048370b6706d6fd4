"""What the learner's function is handed: only what the task allows, and nothing it could change.

An exercise that says "compute S from Q and K" hands the function a `TraceView`: the trace's fields up to the stage
the task asks for. Reading a later stage raises `Withheld`, which the checker explains in its own words. A plain
argument (a row of scores, a mask) is handed as a fresh read-only copy on every call, so an answer that changes
its argument in place (`x -= x.max()`) cannot change what the next answer is checked on. A trace is read-only
already (each read of a field is a fresh read-only copy).

What an answer may not call (an exercise that says "without al.softmax") is watched while it runs (slips.run):
by the function object reached, whatever name or route reached it.
"""

import copy

import numpy as np

from ..numeric.trace import AttentionTrace

SIZES = ("T", "T_q", "T_k", "d", "h", "dh", "kv_heads", "mask_name", "mask_params")  # always handed


class Withheld(AttributeError):
    """A field of the trace that this exercise does not hand to the answer."""

    def __init__(self, name, fields):
        super().__init__(f"this exercise does not hand out tr.{name}")
        self.name = name
        self.fields = fields


class _Unreadable:
    def __init__(self, error):
        self.error = error


class TraceView:
    """A trace with only some of its fields: the ones in `fields` and the sizes, copied when it is made.

    It keeps no reference to the trace, so nothing it hands out leads to a withheld field (`tr._trace.P` was such a
    way round, issue 48): each field it has is its own read-only copy, and every other name of a trace raises."""

    __slots__ = ("_shown", "_fields", "_text")

    def __init__(self, trace, fields):
        set_ = object.__setattr__
        set_(self, "_fields", tuple(fields))
        set_(self, "_shown", {name: handed(getattr(trace, name)) for name in self._fields})
        for name in SIZES:  # a size the trace cannot tell (T when T_q ≠ T_k) raises its own error when it is read
            try:
                self._shown[name] = handed(getattr(trace, name))
            except ValueError as error:
                self._shown[name] = _Unreadable(error)
        set_(self, "_text", f"{trace!r} (this exercise hands out {', '.join(self._fields)})")

    def __getattr__(self, name):
        shown = object.__getattribute__(self, "_shown")
        if name in shown:
            if isinstance(shown[name], _Unreadable):
                raise ValueError(*shown[name].error.args)
            return shown[name]
        if not name.startswith("_") and hasattr(AttentionTrace, name):
            raise Withheld(name, self._fields)
        raise AttributeError(f"'tr' has no attribute {name!r}", name=name, obj=self)

    def __setattr__(self, name, value):
        raise AttributeError(f"tr is read-only: cannot set {name!r}.")

    def __dir__(self):
        return [*self._fields, *SIZES]

    def __repr__(self):
        return self._text


def handed(value, fields=None):  # -> what the learner's function receives for one argument
    """A trace as a view of `fields` (all of it when None); anything else as a fresh read-only copy."""
    if isinstance(value, AttentionTrace):
        return value if fields is None else TraceView(value, fields)
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
        return value.view()  # a view of a read-only array cannot be made writable again
    return copy.deepcopy(value)
