"""How code in the wild writes a mask, and what each library adds to the scores when it reads one.

The same mask, `allowed` (True where Query token i may attend to Key token j),
is written in six ways in the code a learner meets:

    additive      0 / −∞ added to S/√dh: attention_lab, the article; a float
                  `attn_mask` in PyTorch (SDPA and nn.MultiheadAttention alike)
    may_attend    bool, True = may attend: torch.nn.functional.scaled_dot_product_attention
    masked        bool, True = masked: nn.MultiheadAttention's attn_mask and key_padding_mask
    minus_1e9     −1e9 for −∞: many tutorials (the Annotated Transformer writes it over the scores)
    minus_1e4     −1e4 for −∞: older BERT code, (1 − mask) · −10000
    float16_min   −65504, float16's most negative number: Hugging Face's finfo(dtype).min in float16

`CONVENTIONS[name].write(allowed)` is what you pass; `.additive(written)` is
the M that a library reading this convention adds to S/√dh. So the classic
bug, a "may attend" mask handed to an API that reads True as "masked", is

    CONVENTIONS["masked"].additive(CONVENTIONS["may_attend"].write(allowed))   # the inverted M

Nothing here imports more than NumPy; each convention's words are in `attention_lab.look.words`
under "convention.<name>" and "convention.<name>.used".
"""

from dataclasses import dataclass

import numpy as np

from . import checks, masks
from .calls import named_arguments

FLOAT16_MIN = float(np.finfo(np.float16).min)  # −65504


@dataclass(frozen=True)
class Convention:
    """One way of writing a mask: a fill value added for masked cells, or booleans read one way round."""

    name: str
    fill: float | None = None  # additive: the value added at a masked cell (−∞ or a finite stand-in)
    true_means: str | None = None  # boolean: "attend" (True = may attend) or "masked" (True = masked)

    @named_arguments
    def write(self, allowed):  # [T, T] bool -> [T, T] float or bool: what you pass
        """The mask `allowed` (True = may attend) written in this convention."""
        allowed = _square_booleans("allowed", allowed)
        if self.fill is not None:
            return np.where(allowed, 0.0, self.fill)
        return allowed if self.true_means == "attend" else ~allowed

    @named_arguments
    def additive(self, written):  # [T, T] float or bool -> [T, T] float
        """The M that a library reading this convention adds to S/√dh: 0 / −∞, or 0 / the finite fill."""
        if self.fill is not None:  # a float mask is added as it is
            if _as_array("written", written, "a float mask").dtype == bool:
                raise ValueError(f"written: the {self.name!r} convention reads a float mask (0 / {self.fill:g}), "
                                 "got True/False; a boolean mask is read by 'may_attend' or 'masked'.")
            return checks.real_array("written", written, "a float mask")
        written = _square_booleans("written", written)
        return masks.additive_mask(written if self.true_means == "attend" else ~written)


def _as_array(name, value, what, fill="0"):  # -> ndarray, or a ValueError naming `name` for ragged rows
    try:
        return np.asarray(checks.plain(name, value, what, fill=fill))
    except ValueError as error:  # NumPy's "inhomogeneous shape": rows of different lengths
        if str(error).startswith(f"{name}:"):  # checks.plain's own words (a disguised array, …): keep them
            raise
        raise ValueError(f"{name}: the rows of {what} must all have the same length, T (one entry per Key token); "
                         f"got rows of different lengths.") from None


def _square_booleans(name, array):  # -> [T, T] bool, a copy
    array = _as_array(name, array, "a boolean mask", fill="False")
    if array.dtype != bool:
        raise ValueError(f"{name}: a boolean mask must hold True/False, got dtype {array.dtype}. Build it with a "
                         "comparison (e.g. `j <= i`) or al.allowed_of(...).")
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise ValueError(f"{name}: a mask must be a square (T, T) array, row i for Query token i, column j for "
                         f"Key token j; got shape {array.shape}.")
    return array.copy()


CONVENTIONS = {c.name: c for c in (
    Convention("additive", fill=-np.inf),
    Convention("may_attend", true_means="attend"),
    Convention("masked", true_means="masked"),
    Convention("minus_1e9", fill=-1e9),
    Convention("minus_1e4", fill=-1e4),
    Convention("float16_min", fill=FLOAT16_MIN),
)}
