"""Training the tiny model: Adam written out, deterministic from a seed; the shipped weights and how they are read.

    weights, losses = train(seed=SEED)        # about 5 s; the same seed gives the same weights (SAME_WITHIN)
    weights = load_weights()                  # the weights that ship with the package (learned.npz)

`python -m attention_lab.train` runs `train` with a progress bar and writes the .npz; with the documented seed
and step count it writes the shipped file again (tests/test_tiny_model.py holds it to that).
"""

import os
import tempfile
from contextlib import nullcontext
from importlib import resources

import numpy as np

from . import checks, progress
from . import tiny_model as tm
from .backward import gradients

SEED, STEPS, BATCH = 13, 300, 256  # the shipped weights' seed, Adam steps and sequences per step
RATE, BETAS, EPS = 0.02, (0.9, 0.999), 1e-8  # Adam's step size and its usual constants
INIT_SCALE = 0.5  # the initial weights: normal, this standard deviation over √d
SHIPPED = "learned.npz"  # in this folder
# How close the same seed's weights come to the shipped ones on another machine: bit for bit on one machine, but a
# matrix product's last bits depend on the CPU (OpenBLAS picks its kernel per processor, and sums in its order), and
# 300 steps of Adam carry that on: about 1e-14 between the machine that made learned.npz and an AMD EPYC.
SAME_WITHIN = 1e-10


def initial_weights(rng, h=2, dh=None):  # -> {name: array} of small random numbers, and "h"
    """The weights before training: normal numbers of standard deviation INIT_SCALE / √d, from `rng`."""
    weights = {name: rng.normal(0.0, INIT_SCALE / np.sqrt(tm.d), shape) for name, shape in tm.shapes(h, dh).items()}
    weights["h"] = h
    return weights


def adam_step(weights, grads, state, step, rate=RATE):  # one Adam update of every weight, in place; step from 1
    """Adam: move each weight against a running mean of its gradient, divided by a running size of it."""
    (b1, b2), m, v = BETAS, state.setdefault("m", {}), state.setdefault("v", {})
    for name, g in grads.items():
        m[name] = b1 * m.get(name, 0.0) + (1 - b1) * g
        v[name] = b2 * v.get(name, 0.0) + (1 - b2) * g * g
        m_hat, v_hat = m[name] / (1 - b1**step), v[name] / (1 - b2**step)
        weights[name] -= rate * m_hat / (np.sqrt(v_hat) + EPS)


def train(seed=SEED, steps=STEPS, h=2, progress_bar=False, dh=None, rate=RATE):  # -> (weights, losses [steps])
    """Train the model from `seed`: each step a batch of BATCH random sequences, its gradient, one Adam step of
    size `rate`. dh is d / h unless given (h = 1, dh = 4: one head of the article's per-head size).

    Returns the weights (a dict with "h") and the loss of every step's batch. Deterministic: the seed decides
    the initial weights and every batch. A ValueError says so if training diverged: scores, a loss or weights
    that are not finite numbers, or a last loss above the first (the steps made the model worse, as too large a
    rate does).
    """
    seed = checks.seed(seed)
    rate = checks.positive_number("rate", rate)
    steps = checks.whole_number("steps", steps, 1, 100_000)
    h = checks.whole_number("h", h, 1, tm.d)
    if dh is None and tm.d % h:
        raise ValueError(f"h: d={tm.d} columns cannot be shared equally by h={h} heads; "
                         f"use one of {checks.divisors(tm.d)}.")
    shapes = tm.shapes(h, dh)  # a ValueError for a dh that does not fit
    rng = np.random.default_rng(seed)
    weights, state = initial_weights(rng, h, shapes["W_Q"][1] // h), {}
    losses = np.empty(steps)
    with progress.bar(progress_bar, 0, total=steps, desc="train", unit="step") as bar:
        for step in range(1, steps + 1):
            batch = rng.integers(0, len(tm.TOKENS), (BATCH, tm.T))
            # Too large a rate overflows the numbers: checked just below, in words, instead of NumPy's warnings
            with np.errstate(over="ignore", invalid="ignore"):
                try:
                    losses[step - 1], grads = gradients(weights, batch)
                except ValueError:  # the scores overflowed to ±inf, and tiny_model refuses them
                    _diverged(rate, f"the scores overflowed at step {step}")
                if not np.isfinite(losses[step - 1]):
                    _diverged(rate, f"the loss is {losses[step - 1]} at step {step}")
                adam_step(weights, grads, state, step, rate)
            if not all(np.isfinite(weights[name]).all() for name in tm.WEIGHTS):
                _diverged(rate, f"the weights overflowed at step {step}")
            bar.update(1)
    if losses[-1] > losses[0]:
        _diverged(rate, f"the loss went up, {losses[0]:.3g} at step 1 and {losses[-1]:.3g} at step {steps}")
    return weights, losses


def _diverged(rate, what):
    raise ValueError(f"rate: training diverged at rate={rate:g}: {what}; use a smaller rate, "
                     f"e.g. {RATE} (the default).")


def save_weights(path, weights, losses):
    """Write the weights, h and the losses of training to an .npz file: to a file beside it first, which takes
    the name only when complete, so that an interrupted write (Ctrl-C) leaves no half-written `path`."""
    arrays = {name: weights[name] for name in tm.WEIGHTS}
    folder = os.path.dirname(os.path.abspath(path))
    handle, partial = tempfile.mkstemp(suffix=".npz.partial", dir=folder)
    try:
        with os.fdopen(handle, "wb") as file:
            np.savez(file, h=np.int64(weights["h"]), losses=losses, **arrays)
        os.chmod(partial, 0o644)  # mkstemp's file is the owner's alone; weights are for anyone to read
        os.replace(partial, path)
    except BaseException:  # Ctrl-C too: the partial file goes, `path` stays as it was
        os.remove(partial)
        raise


def load_weights(path=None):  # -> {name: array, "h": int, "losses": [steps]}
    """The weights in an .npz file written by save_weights; by default the ones that ship with the package."""
    with resources.as_file(resources.files(__package__) / SHIPPED) if path is None else nullcontext(path) as file:
        with np.load(file) as data:
            weights = {name: data[name] for name in data.files}
    weights["h"] = int(weights["h"])
    tm.check_weights(weights)
    return weights
