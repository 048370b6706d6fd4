"""The sizes the package draws and explores, written once: the explorer, the figures command, the step widgets.

The explorer offers T, h and dh up to these (the browser gets the example values at the largest sizes), and the
figures command draws up to them; your own Q, K, V in the explorer may be up to T × d.
"""

SIZES = {"T": (1, 16), "h": (1, 8), "dh": (1, 8)}  # tokens, heads, components per head: (smallest, largest)
D = (1, SIZES["h"][1] * SIZES["dh"][1])  # d = h·dh
STEPPER_T = 8  # the step widgets' T slider: the records of every size up to it travel with the widget
# The explorer's seed box and the page command's --seed (a function of the package takes any seed NumPy takes,
# up to checks.MAX_SEED; the explorer's box is kept short enough to type).
SEED_CONTROL = (0, 10**6)
