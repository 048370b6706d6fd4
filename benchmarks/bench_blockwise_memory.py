"""Peak memory and time of attention with the T × T matrix P against blockwise attention (online softmax).

    python benchmarks/bench_blockwise_memory.py            # T = 256, 1k, 4k, 16k (the 16k row takes minutes)
    python benchmarks/bench_blockwise_memory.py 256 1024   # only these T

One head, dh = 64, causal mask, float64, Q, K, V from `example_qkv`. For each T,
in one run, three ways to get that head's output O (T, dh):

(a) trace: `attention_trace`, which keeps every stage (S, S/√dh, M, S/√dh + M, P:
    five T × T arrays and the copies the read-only trace stores). Only up to
    T = 4096: at 16k it would need tens of GiB.
(b) full P: the least memory any method that forms P needs: S = Q Kᵀ made once,
    then scaled, masked, exponentiated and normalised in place, O = P V: one
    T × T float64 array (2 GiB at T = 16k) plus O.
(c) blockwise: `blockwise_attention` with blocks of 128 Key tokens: (T, 128)
    scores at a time and the running max, sum and output.

Peak memory is tracemalloc's peak (NumPy reports its allocations to it) during
the call; time is the wall time of the same call, with tracemalloc running.
Every row checks that (b) and (c) give the same O to 1e-12.

A progress bar on stderr (tqdm) shows which T and which of the three is running
(the 16k row takes minutes); the table goes to stdout. A trace larger than one
call may take on this machine (attention_lab.checks.memory_budget) shows "—".
"""

import sys
import time
import tracemalloc

import numpy as np
from tqdm.auto import tqdm

import attention_lab as al

DH, BLOCK = 64, 128
T_VALUES = (256, 1024, 4096, 16384)
TRACE_UP_TO = 4096


def full_p_attention(Q, K, V):  # [T, dh] × 3 -> [T, dh]: one (T, T) array, P, made in place
    T, dh = Q.shape
    P = Q @ K.T  # (T, T): S, then every later stage written over it
    P /= np.sqrt(dh)
    for i in range(T - 1):
        P[i, i + 1 :] = -np.inf  # the causal mask, without a (T, T) mask or index arrays
    P -= P.max(axis=1, keepdims=True)
    np.exp(P, out=P)
    P /= P.sum(axis=1, keepdims=True)
    return P @ V


def measure(fn, *args, **kwargs):  # -> (result, peak MiB, seconds)
    tracemalloc.start()
    try:
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, peak / 2**20, seconds


def trace_output(Q, K, V):  # -> O of the trace's one head, or None when the trace would not fit in memory here
    try:
        return al.attention_trace(Q, K, V, 1).O[0]
    except ValueError as error:
        if "more than the" not in str(error):
            raise
        return None


def row(T, bar):
    Q, K, V = (np.ascontiguousarray(X, dtype=float) for X in al.example_qkv(T, DH, 1, seed=0))
    bar.set_postfix_str(f"T={T}: trace")
    trace = measure(trace_output, Q, K, V) if T <= TRACE_UP_TO else None
    trace = None if trace is None or trace[0] is None else trace
    bar.update(1)
    bar.set_postfix_str(f"T={T}: full P")
    full = measure(full_p_attention, Q, K, V)
    bar.update(1)
    bar.set_postfix_str(f"T={T}: blockwise")
    blockwise = measure(al.blockwise_attention, Q, K, V, 1, BLOCK, progress=False)  # the bar above, not its own
    bar.update(1)
    worst = np.abs(full[0] - blockwise[0]).max()
    assert worst < 1e-12, f"T={T}: blockwise and full P differ by {worst:.2e}"
    if trace is not None:
        assert np.abs(trace[0] - blockwise[0]).max() < 1e-12
    return trace, full, blockwise


def main(T_values):
    print(f"one head, dh = {DH}, causal mask, float64; blockwise with blocks of {BLOCK} Key tokens\n")
    head = (f"{'T':>6} | {'trace (every stage)':>20} | {'full P (in place)':>20} | {'blockwise':>18} | "
            f"{'full P / blockwise':>18}")
    print(head)
    print(f"{'':>6} | {'peak MiB':>10} {'time s':>9} | {'peak MiB':>10} {'time s':>9} | {'peak MiB':>8} "
          f"{'time s':>9} | {'memory':>18}")
    print("-" * len(head))
    bar = tqdm(total=3 * len(T_values), desc="bench_blockwise_memory", unit="call", leave=False)
    for T in T_values:
        trace, full, blockwise = row(T, bar)
        traced = f"{trace[1]:>10.1f} {trace[2]:>9.3f}" if trace else f"{'—':>10} {'—':>9}"
        print(f"{T:>6} | {traced} | {full[1]:>10.1f} {full[2]:>9.3f} | {blockwise[1]:>8.2f} {blockwise[2]:>9.3f} | "
              f"{full[1] / blockwise[1]:>17.2g}×", flush=True)
    bar.close()
    print(f"\n(T × T float64 = 8·T² bytes: {', '.join(f'{T}: {8 * T * T / 2**20:,.1f} MiB' for T in T_values)})")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or T_VALUES)
