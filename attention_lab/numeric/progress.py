"""A progress bar for long work (blockwise attention, decoding from the cache): tqdm's `auto` bar, a widget in a
notebook and a line of text in a terminal, shown only when a call will take a while.

    with progress.bar(progress, work, total=T_k, desc="blockwise_attention", unit="key") as bar:
        for block in ...:
            bar.update(len(block))

progress=None (the default of every function that takes it) shows the bar when `work`, the number of scores
the call computes (weighted by what each costs there), is at least LONG; True always; False never. tqdm is
imported only when a bar is shown, so a small call imports NumPy only (tests/test_layers.py). The bar goes
away when the work is done (leave=False): what stays in a notebook is the result.
"""

from . import checks

LONG = 1 << 28  # scores: about 3.5 s of blockwise attention (one head, dh = 64, T = 8192: 67 M scores in 0.9 s)


class _Silent:
    """What `bar` gives when no bar is shown: the same calls, doing nothing."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n=1):
        pass


def bar(progress, work, total, desc, unit):  # -> a context manager with .update(n)
    """A progress bar over `total` steps of `unit` if `progress` says so (None: when `work` ≥ LONG scores)."""
    show = work >= LONG if progress is None else checks.boolean("progress", progress)
    if not show:
        return _Silent()
    from tqdm.auto import tqdm  # a widget in a notebook, text on stderr elsewhere

    return tqdm(total=total, desc=desc, unit=unit, leave=False)
