"""Read-only copies of arrays, for the records of a computation (decode steps, blocks)."""

import numpy as np


def frozen(array):  # -> a read-only float array over its own immutable copy
    """A copy of `array` that cannot be written, resized or made writable again (for the records of a computation)."""
    array = np.ascontiguousarray(array, dtype=float)
    return np.frombuffer(array.tobytes(), dtype=float).reshape(array.shape)
