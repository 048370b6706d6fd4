"""What the browser gets once: the visual language as data, the pipeline's table, and an explorer's numbers.

`look_data()` goes into the bundle (one copy per page or site): the colour tables (`look.colors.colour_tables`),
the number-format rules (`look.formats.RULES`), the words the front-end shows (both languages), the pipeline's
stages (name, inputs, kind, heads, axes, highlight, and the expression each is computed by: the browser walks the
same list and evaluates the same expressions) and the registry's masks'
parameters. `explorer_data(spec, own)` is one explorer's own data: the article's example as its corner and
stream (the browser makes the values per (token, head, component) at the largest sizes by the same hash as
`numeric.examples.cell_values`, as it makes a seed's, and slices the corner it shows), and the mask tables of the
masks its view offers.

A mask table is `Mask(name, **params).allowed(T, T)` for every value its control offers at some T ≤ 16
(`Param.values(T)`, `Lengths.values(T)`), at the largest such T (the browser takes the T × T corner; a rule that
reads T keeps a table per T): one row per position, four hex digits (bit j: may see Key token j).
With T_q < T Query tokens the browser takes rows T − T_q … T − 1 (bottom-right) or 0 … T_q − 1 (top-left):
a mask's rule is over positions, so those rows are `allowed(T_q, T)` (tests/test_live_data.py checks it).
"""

import functools
import itertools

import numpy as np

from ..look import colors, formats, particles, words
from ..numeric import arithmetic, examples, masks
from ..numeric.limits import SEED_CONTROL
from ..numeric.masks import MASKS, Lengths, Mask
from ..numeric.pipeline import PIPELINE
from . import controls
from .state import ALL_HEADS, MOVES, NUMBERED, PARAMS, RESOLVE, STATE, param_data, param_key, param_names
from .views import LIMITS, OWN_LIMITS, SECTIONS

WORD_PREFIXES = ("stage.", "mask.", "param.", "align")


def _explorer_words():  # -> the keys the front-end shows: the live words and the registries'
    from ..look.words import live

    return [k for k in words.WORDS if k in live.WORDS or k.startswith(WORD_PREFIXES)]


@functools.cache
def look_data():  # -> dict of JSON types, the same for every explorer
    """The visual language, the words and the pipeline as data, for the bundle."""
    keys = _explorer_words()
    stages = [{"name": s.name, "inputs": list(s.inputs), "kind": s.kind, "heads": s.heads, "axes": list(s.axes),
               "highlight": s.highlight, "path": s.path, "expression": s.expression} for s in PIPELINE]
    return {"colours": colors.colour_tables(), "rules": formats.RULES, "stages": stages,
            "words": {lang: {k: words.table(lang)[k] for k in keys} for lang in words.LANGS},
            "limits": LIMITS, "largest": OWN_LIMITS["value"], "maxSeed": SEED_CONTROL[1], "aligns": list(masks.ALIGNS),
            "aligned": list(masks.ALIGNED),
            "font": _font_steps(), "article": _article_sizes(), "sections": list(SECTIONS),
            "valueRange": list(examples.VALUE_RANGE), "live": _live_rules(), "particles": particles.page_data(),
            "exp": arithmetic.EXP, "log": arithmetic.LOG,  # fdlibm's constants: both sides compute e^x and ln x alike
            "ordinals": {lang: [words.ordinal(n, lang) for n in range(1, OWN_LIMITS["T"] + 1)]  # token numbers shown
                         for lang in words.LANGS}}


def _live_rules():  # -> the controls and the rules that fit a state to its sizes, as data (live/state.py's language)
    keys = {**STATE, **{name: {"kind": "param", "reset": False} for name in param_names(MASKS)}}
    return {"controls": controls.CONTROLS, "resolve": RESOLVE, "params": PARAMS, "moves": MOVES, "numbered": NUMBERED,
            "allHeads": ALL_HEADS, "state": keys}


def _article_sizes():  # -> {"sizes": {"T", "d", "h", "g"}, "corner": [T, h, dh]}: what the page's note names
    """The article's sizes (the note says "the article's example" there) and its corner (the note says which
    tokens, heads and components keep the article's numbers): examples.ARTICLE_SIZES, with one K/V head per Query
    head (g = h, as article_example gives), and examples.ARTICLE_CORNER's shape."""
    return {"sizes": {**examples.ARTICLE_SIZES, "g": examples.ARTICLE_SIZES["h"]},
            "corner": list(examples.ARTICLE_CORNER["Q"].shape)}


def _font_steps():  # -> [[columns up to, px], …]: look.tables.font_px as data
    from ..look.tables import font_px

    steps, last = [], None
    for n in range(1, 65):
        if font_px(n) != last:
            if steps:
                steps[-1][0] = n - 1
            steps.append([n, font_px(n)])
            last = font_px(n)
    steps[-1][0] = 10**6
    return steps


def _rows_hex(allowed):  # [T, T] bool -> "000100030007…": four hex digits a row, bit j for Key token j
    weights = 1 << np.arange(allowed.shape[1])
    return "".join(f"{int(bits):04x}" for bits in (allowed * weights).sum(axis=1))


@functools.cache
def mask_tables(name):  # -> {"params": […], "byT": bool, "tables": {key: rows}, "options": [per T: [[key, label], …]]}
    """Every table of one mask for T = 1 … 16 and every parameter value its controls offer.

    A rule over positions that does not read T gives, for T tokens, the top-left T × T corner of its table at any
    larger T: so each parameter value keeps one table, at the largest T that offers it ("byT": false), and the
    browser takes the corner. A rule that reads T (its corner differs somewhere) keeps one table per T and value,
    under "T|key" ("byT": true)."""
    kind = MASKS[name]
    params = [param_data(p) for p in kind.params]
    per_T, options = {}, []
    for T in range(1, LIMITS["T"][1] + 1):
        for values in itertools.product(*(p.values(T) for p in kind.params)):
            spec = Mask(name, **{p.name: v for p, v in zip(kind.params, values, strict=True)})
            per_T[T, ";".join(map(param_key, values))] = spec.allowed(T, T)
        options.append([[[param_key(v), p.text(v)] for v in p.values(T)] if isinstance(p, Lengths) else None
                        for p in kind.params])
    largest = {key: allowed for (_T, key), allowed in per_T.items()}  # T grows, so the last is the largest
    by_T = any(not np.array_equal(largest[key][:T, :T], allowed) for (T, key), allowed in per_T.items())
    tables = ({f"{T}|{key}": _rows_hex(a) for (T, key), a in per_T.items()} if by_T else
              {key: _rows_hex(a) for key, a in largest.items()})
    return {"params": params, "byT": by_T, "tables": tables, "options": options}


@functools.cache
def article_values():  # -> {"stream": str, "corner": {"Q", "K", "V": lists of ints}, "cornerSizes": [T, h, dh]}
    """The article's example as the page grows it: the values of a seed's example for the article's own stream
    (examples.cell_values; a string, being beyond a double), with the article's corner put over them. The page makes
    them as it makes a seed's, so a stored explorer keeps 72 numbers, not 3 × 1024 (tests/test_live_data.py)."""
    corner = {n: X.astype(int) for n, X in examples.ARTICLE_CORNER.items()}
    return {"stream": str(examples.ARTICLE_STREAM), "corner": {n: X.ravel().tolist() for n, X in corner.items()},
            "cornerSizes": list(corner["Q"].shape)}


def explorer_data(offered, own=None):  # -> dict of JSON types: one explorer's numbers
    """The example values (or your own Q, K, V and mask) and the tables of the masks offered."""
    data = {"masks": {name: mask_tables(name) for name in offered if name in MASKS and MASKS[name].rule},
            "sizes": {"T": LIMITS["T"][1], "h": LIMITS["h"][1], "dh": LIMITS["dh"][1]}}
    if own is None:
        data["article"] = article_values()
    else:
        data["own"] = {n: np.asarray(own[n], dtype=float).tolist() for n in "QKV"}
        if own.get("mask") is not None:
            data["own"]["mask"] = _rows_hex(np.asarray(own["mask"], dtype=bool))
    return data
