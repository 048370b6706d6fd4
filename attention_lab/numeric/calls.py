"""Calls with a wrong argument name get a ValueError that names it and the closest valid one.

Python's own TypeError ("got an unexpected keyword argument 'scale'") does not
say what was meant. `@named_arguments` on a public function turns a call it
cannot bind into one line that names the argument, suggests the closest name
(`scale` → `scaled`), and points a keyword that belongs elsewhere to where it goes
(`window` → `mask=Mask("sliding", window=…)`: numeric/masks.py adds that rule to `WHERE_ELSE`, so this module
imports nothing of the package's).
"""

import functools
import inspect
from difflib import SequenceMatcher

# Rules for a keyword that belongs to something passed to a function, not to the function: each is keyword ->
# where to pass it instead, or None.
WHERE_ELSE = []


def _closest(key, names):  # -> the name most like `key` (case aside; on a tie, the one nearest in length), or None
    lower = {n.lower(): n for n in names}
    scored = [(SequenceMatcher(None, key.lower(), n).ratio(), -abs(len(n) - len(key)), n) for n in lower]
    best = max(scored, default=(0, 0, None))
    return lower[best[2]] if best[0] >= 0.5 else None


def problem(function_name, signature, args, kwargs):  # -> one line saying what is wrong with the call
    if next(iter(signature.parameters), None) in ("self", "cls"):  # a method: the caller does not pass it
        signature = signature.replace(parameters=list(signature.parameters.values())[1:])
        args = args[1:]
    names = [n for n, p in signature.parameters.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    takes = f"{function_name} takes {', '.join(names) or 'no arguments'}"
    for key in kwargs:
        if key not in signature.parameters:
            where = next(filter(None, (rule(key) for rule in WHERE_ELSE)), None)
            if where:
                return f"{key}: is a parameter of a mask, not of {function_name}; pass it in the mask: {where}."
            close = _closest(key, names)
            hint = f" Did you mean {close}=…?" if close else ""
            return f"{key}: {function_name} has no argument {key!r}.{hint} ({takes}.)"
    positional = [n for n, p in signature.parameters.items() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(args) > len(positional):
        return f"{function_name}: takes at most {len(positional)} positional arguments ({', '.join(positional)}), " \
               f"got {len(args)}; pass the others by name."
    given = set(positional[:len(args)]) | set(kwargs)
    for n, p in signature.parameters.items():
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and n not in given:
            return f"{n}: {function_name} needs {n}; {takes}."
    duplicate = next((n for n in positional[:len(args)] if n in kwargs), "")
    return f"{duplicate or function_name}: given twice, by position and by name; give it once."


def named_arguments(function):
    """Decorate a public function: a call it cannot bind raises a ValueError naming the argument (see the module)."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def checked(*args, **kwargs):
        try:
            signature.bind(*args, **kwargs)
        except TypeError:
            raise ValueError(problem(function.__qualname__, signature, args, kwargs)) from None
        return function(*args, **kwargs)

    return checked
