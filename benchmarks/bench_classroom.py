"""A class of N students on this machine: a real hub (`python -m attention_lab.classroom up`), N servers, and
notebook 05 (with its exercises) run in every server at once through the server's kernel API (REST + websocket).

    python benchmarks/bench_classroom.py --students 30          # as root: the students are system accounts

Prints: the time to start the hub and all N servers (all asked at once), notebook 05's time for one student
alone and for N at once (each in a new kernel: its start included), the peak memory of hub + proxy + collector
+ servers + kernels (the sum of their resident sets, sampled every second; and their proportional set size,
which counts a shared page once, at the peak of the run), the failures (must be 0) and the records the store
collected (must be N x 3: the notebook's three exercises, one row each per student, though student 1 ran the
notebook twice). The student's answers vary: every third one is right, every third one makes a known mistake
on 05.row3, the others leave the notebook's `...` (not answered yet). Everything it started is stopped; the
processes left are counted (must be 0). Exit 1 if a promise is not met.
"""

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from attention_lab import exercises as ex
from attention_lab.classroom import hub, kernels
from attention_lab.classroom.store import Store

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "ko" / "05_softmax.ipynb"
EXERCISES = ("05.row3", "05.row2", "05.stable")
MISTAKE = "answer = lambda tr: np.exp(tr.S_masked[0, 2])\n" + ex.check_line("05.row3")  # forgot to divide


def cells_for(i):  # -> notebook 05's code cells as student i answers them
    cells = kernels.notebook_cells(NOTEBOOK)
    for exercise in EXERCISES:
        at = next(k for k, c in enumerate(cells) if ex.check_line(exercise) in c)
        if i % 3 == 1:
            cells[at] = ex.solution_code(exercise)
        elif i % 3 == 2 and exercise == "05.row3":
            cells[at] = MISTAKE
    return cells


async def notebook(drive, name, i):  # -> seconds: a new kernel, every cell of notebook 05
    start = time.monotonic()
    async with drive.kernel(name, cwd="attention-lab") as kernel:
        for cell in cells_for(i):
            await kernel.run(cell)
        return time.monotonic() - start


class Memory:
    """The sum of the resident sets of the hub and everything under it, sampled every second; the PSS once."""

    def __init__(self, hub_pid):
        self.hub = psutil.Process(hub_pid)
        self.peak = {"rss": 0, "parts": {}}
        self.peak_pss = 0
        self.stopped = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    def processes(self):
        try:
            return [self.hub, *self.hub.children(recursive=True)]
        except psutil.Error:
            return []

    @staticmethod
    def part(proc):  # -> "hub", "proxy", "collector", "servers" or "kernels"
        line = " ".join(proc.cmdline())
        if "ipykernel" in line:
            return "kernels"
        if "jupyterhub.singleuser" in line:
            return "servers"
        if "configurable-http-proxy" in line:
            return "proxy"
        if "classroom.collector" in line:
            return "collector"
        return "hub"

    def _sample(self):
        tick = 0
        while not self.stopped.wait(1.0):
            tick += 1
            if tick % 5 == 0:  # reading every process's page map takes a while: every 5 s
                self.peak_pss = max(self.peak_pss, self.pss())
            parts = {}
            for proc in self.processes():
                try:
                    parts[self.part(proc)] = parts.get(self.part(proc), 0) + proc.memory_info().rss
                except psutil.Error:
                    continue
            if sum(parts.values()) > self.peak["rss"]:
                self.peak = {"rss": sum(parts.values()), "parts": parts}

    def pss(self):  # -> bytes, now
        total = 0
        for proc in self.processes():
            try:
                total += proc.memory_full_info().pss
            except psutil.Error:
                continue
        return total


def leftovers(folder):
    left = []
    for proc in psutil.process_iter(["cmdline", "environ"]):
        try:
            line = " ".join(proc.info["cmdline"] or [])
            home = (proc.info["environ"] or {}).get("HOME", "")
        except (psutil.Error, TypeError):
            continue
        if str(folder) in line or str(folder) in home:
            left.append(proc.pid)
    return left


async def class_run(running, n, failures):
    drive = kernels.Hub(running.settings, running.token)
    names = [hub.student_name(i) for i in range(1, n + 1)]
    start = time.monotonic()
    started = await asyncio.gather(*(drive.start_server(name) for name in names), return_exceptions=True)
    servers_s = time.monotonic() - start
    failures += [f"{name}: {e}" for name, e in zip(names, started, strict=True) if isinstance(e, BaseException)]
    alone = await notebook(drive, names[0], 1)
    memory = Memory(hub._read_pid(running.state.hub_pid))
    start = time.monotonic()
    times = await asyncio.gather(*(notebook(drive, name, i) for i, name in enumerate(names, 1)),
                                 return_exceptions=True)
    together_s = time.monotonic() - start
    memory.stopped.set()
    failures += [f"{name}: {t}" for name, t in zip(names, times, strict=True) if isinstance(t, BaseException)]
    each = [t for t in times if not isinstance(t, BaseException)]
    return servers_s, alone, together_s, each, memory


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python benchmarks/bench_classroom.py")
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--port", type=int, default=0, help="the hub's port (default: a free one)")
    parser.add_argument("--keep", action="store_true", help="keep the state folder (hub.log) for a look afterwards")
    args = parser.parse_args(argv)
    n = args.students
    folder = Path(tempfile.mkdtemp(prefix="attention-lab-bench-class-", dir="/tmp"))
    os.chmod(folder, 0o755)  # the students' accounts reach <folder>/runtime
    failures = []
    start = time.monotonic()
    running = kernels.Running(folder, n, args.port or hub.free_port(), timeout=600)
    hub_s = time.monotonic() - start
    try:
        servers_s, alone, together_s, each, memory = asyncio.run(class_run(running, n, failures))
        records = Store(running.state.store).rows()
    finally:
        code = running.stop(timeout=600, purge=True)  # the accounts it made go too
        time.sleep(1)
        left = leftovers(folder)
        if args.keep:
            print(f"state folder kept: {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    mode = "system users" if running.settings["system_users"] else "embedded"
    gib = 1024 ** 3
    parts = ", ".join(f"{k} {v / gib:.2f}" for k, v in sorted(memory.peak["parts"].items()))
    rows = [
        ("students", f"{n} ({mode}), {os.cpu_count()} cores, {psutil.virtual_memory().total / gib:.0f} GiB"),
        ("hub up (`up` until the hub answers)", f"{hub_s:.1f} s"),
        (f"all {n} servers started (asked at once)", f"{servers_s:.1f} s"),
        ("notebook 05, 1 student alone", f"{alone:.1f} s"),
        (f"notebook 05, {n} at once: all done", f"{together_s:.1f} s"),
        (f"notebook 05, {n} at once: each (median, max)",
         f"{statistics.median(each):.1f} s, {max(each):.1f} s" if each else "-"),
        ("peak memory, sum of RSS (GiB)", f"{memory.peak['rss'] / gib:.2f} ({parts})"),
        ("peak memory, sum of PSS (GiB; shared pages once)", f"{memory.peak_pss / gib:.2f}"),
        ("failures (must be 0)", f"{len(failures)}"),
        (f"records collected (must be {n} x {len(EXERCISES)} = {n * len(EXERCISES)})", f"{len(records)}"),
        ("`up` exit code after `down` (must be 0)", f"{code}"),
        ("processes left (must be 0)", f"{len(left)}"),
    ]
    width = max(len(what) for what, _ in rows)
    for what, value in rows:
        print(f"{what:<{width}}  {value}")
    for failure in failures[:10]:
        print(f"  failure: {failure}", file=sys.stderr)
    return 0 if not failures and len(records) == n * len(EXERCISES) and code == 0 and not left else 1


if __name__ == "__main__":
    raise SystemExit(main())
