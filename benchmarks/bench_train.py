"""How long notebook 13's training takes, beside the time of one forward pass and of one training step.

    python benchmarks/bench_train.py          # seed 13, 300 steps: h = 2 (shipped), then h = 1, dh = 8 and 4
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_train.py     # on one core, as the promise is stated

The promise (issue 30): training takes at most 60 s on one core of the course machine. Measured in the same run,
so a busy machine slows all of them alike: one forward pass of a batch (256 inputs), one training step (forward,
backward, Adam) and the whole training, each the best of a few repeats for the short ones. The table goes to
stdout; training checks that it made the shipped weights, value for value.
"""

import time

import numpy as np

from attention_lab.numeric import backward, training
from attention_lab.numeric import tiny_model as tm

REPEATS = 20
LIMIT_S = 60.0


def best_of(f, repeats=REPEATS):  # -> seconds: the fastest of `repeats` calls
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    weights = training.load_weights()
    batch = np.random.default_rng(0).integers(0, len(tm.TOKENS), (training.BATCH, tm.T))
    forward_s = best_of(lambda: tm.forward(weights, batch))
    step_s = best_of(lambda: backward.gradients(weights, batch))
    print(f"{'what':<42} {'seconds':>10}")
    print(f"{f'one forward pass ({training.BATCH} inputs)':<42} {forward_s:>10.4f}")
    print(f"{'one gradient (forward + backward)':<42} {step_s:>10.4f}")
    for h, dh in ((2, 4), (1, 8), (1, 4)):  # notebook 13's three models
        start = time.perf_counter()
        trained, _ = training.train(seed=training.SEED, h=h, dh=dh)
        train_s = time.perf_counter() - start
        print(f"{f'training, h = {h}, dh = {dh}, {training.STEPS} steps':<42} {train_s:>10.2f}"
              f"   ({train_s / forward_s:,.0f} forward passes; limit {LIMIT_S:.0f} s: "
              f"{'met' if train_s <= LIMIT_S else 'NOT met'})")
        if h == 2:
            same = all(np.array_equal(trained[name], weights[name]) for name in tm.WEIGHTS)
            print(f"{'  the shipped weights, value for value':<42} {str(same):>10}")


if __name__ == "__main__":
    main()
