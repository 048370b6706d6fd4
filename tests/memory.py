"""What a call allocates: tracemalloc's peak (NumPy reports its arrays to it), for the tests of memory bounds."""

import tracemalloc


def peak_bytes(fn, *args, **kwargs):  # -> the most bytes allocated at once while fn(*args, **kwargs) ran
    tracemalloc.start()
    try:
        fn(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
