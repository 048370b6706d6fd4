"""A real class: `python -m attention_lab.classroom up` starts a real JupyterHub (configurable-http-proxy from npm)
with two students; their exercises run in their own servers' kernels through the kernel API, and the verdicts
land in the instructor's store, which the report counts. Then the bad inputs of `up`, and Ctrl-C.

As root (CI) the students are system accounts (useradd): the isolation tests run as them.
"""

import asyncio
import concurrent.futures
import http.cookiejar
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import pytest

from attention_lab import exercises as ex
from attention_lab.classroom import hub, kernels, report
from attention_lab.classroom.store import Store

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "ko" / "05_softmax.ipynb"
# System accounts need root, and the instructor's packages (the checkout, the venv's site-packages) in folders other
# accounts can enter; elsewhere (a checkout under /root) the class runs embedded, and the isolation test checks what
# docs/classroom.md says the embedded mode does not isolate.
SYSTEM_USERS = os.geteuid() == 0 and not any(map(hub.closed_above, (ROOT, sysconfig.get_paths()["purelib"])))
MODE = () if SYSTEM_USERS else ("--no-system-users",)
A, B = hub.student_name(1), hub.student_name(2)
CLI = [sys.executable, "-m", "attention_lab.classroom"]


def run_async(coroutine):  # -> its result, run to the end on an event loop of its own
    """asyncio.run in a thread of its own: the session's browser (Playwright's sync API) keeps an event loop running
    in the main thread once a browser test has run, and asyncio.run refuses to start inside one."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _folder():  # a state folder every account can enter (pytest's tmp_path is under a 0700 folder of root)
    folder = tempfile.mkdtemp(prefix="attention-lab-class-", dir="/tmp")
    os.chmod(folder, 0o755)
    return Path(folder)


def _leftovers(folder):  # -> processes of this class still running (hub, proxy, collector, servers, kernels)
    left = []
    for proc in psutil.process_iter(["pid", "cmdline", "environ"]):
        try:
            cmdline = " ".join(proc.info["cmdline"] or [])
            environ = proc.info["environ"] or {}
        except (psutil.Error, TypeError):
            continue
        if str(folder) in cmdline or str(folder) in environ.get("HOME", ""):  # servers: <folder>/runtime/bin/python
            left.append(f"{proc.info['pid']} {cmdline[:120]}")
    return left


def _run(*args, env=None, timeout=120):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, timeout=timeout)


def _cells():  # notebook 05's code cells, its exercises' cells found by their check line
    cells = kernels.notebook_cells(NOTEBOOK)
    ids = [e for e in ex.EXERCISES if e.startswith("05.")]
    where = {e: next(i for i, c in enumerate(cells) if ex.check_line(e) in c) for e in ids}
    return cells, where


WRONG_ROW3 = "answer = lambda tr: np.exp(tr.S_masked[0, 2])\n" + ex.check_line("05.row3")  # forgot to divide


async def _work(running, name, answers):
    """Start `name`'s server, run notebook 05 in a kernel of it with the exercises' cells replaced by `answers`
    ({exercise: code}); the others as the notebook has them (not answered yet)."""
    drive = kernels.Hub(running.settings, running.token)
    await drive.start_server(name)
    cells, where = _cells()
    for exercise, code in answers.items():
        cells[where[exercise]] = code
    async with drive.kernel(name, cwd="attention-lab") as kernel:
        return [await kernel.run(cell) for cell in cells]


@pytest.fixture(scope="module")
def running():
    folder = _folder()
    running = kernels.Running(folder, 2, hub.free_port(), *MODE)
    yield running
    code = running.stop(purge=True) if running.code is None else running.code  # with the accounts it made
    left = _leftovers(folder)
    shutil.rmtree(folder, ignore_errors=True)
    assert code == 0
    assert left == []


def test_roster_passwords_log_in_through_the_hub_login_form(running):
    lines = (running.state.roster).read_text().splitlines()
    passwords = dict(line.split() for line in lines if line.startswith(hub.PREFIX))
    assert sorted(passwords) == [A, B]
    assert os.stat(running.state.roster).st_mode & 0o777 == 0o600
    base = f"http://127.0.0.1:{running.settings['port']}/hub/login"

    def login(name, password):  # -> (status, Location)
        jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args):
                return None

        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
        opener.open(base).read()
        xsrf = next(c.value for c in jar if c.name == "_xsrf")
        data = urllib.parse.urlencode({"username": name, "password": password, "_xsrf": xsrf}).encode()
        try:
            answer = opener.open(base, data)
            return answer.status, answer.headers.get("Location")
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Location")

    status, where = login(A, passwords[A])
    assert status == 302 and "login" not in where
    assert _lab_after_login(base, B, passwords[B]) == (True, 200, len(list(NOTEBOOK.parent.glob("*.ipynb"))))
    assert login(A, passwords[B])[0] == 403  # another student's password
    assert login("al-student99", passwords[A])[0] == 403  # not on the roster


def _lab_after_login(base, name, password):
    """Log in through the form as a browser does (cookies, redirects): the hub spawns the student's server and
    JupyterLab opens in ~/attention-lab. -> (the page is JupyterLab's, its static files' status, notebooks there)"""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(base).read()
    xsrf = next(c.value for c in jar if c.name == "_xsrf")
    opener.open(base, urllib.parse.urlencode({"username": name, "password": password, "_xsrf": xsrf}).encode())
    root = base.replace("/hub/login", "")
    for _ in range(120):
        answer = opener.open(f"{root}/user/{name}/lab/tree/attention-lab")
        page = answer.read().decode()
        if f"/user/{name}/lab" in answer.url and "jupyter-config-data" in page:
            break
        time.sleep(1)
    data = page.split('<script id="jupyter-config-data" type="application/json">')[1]
    config = json.loads(data.split("</script>")[0])
    static = opener.open(root + config["fullStaticUrl"] + "/style.js").status
    listing = json.loads(opener.open(f"{root}/user/{name}/api/contents/attention-lab").read())
    notebooks = [item["name"] for item in listing["content"] if item["name"].endswith(".ipynb")]
    return config["appName"] == "JupyterLab", static, len(notebooks)


def test_each_students_checked_exercises_are_collected_and_counted(running):
    right = {e: ex.solution_code(e) for e in ("05.row3", "05.row2", "05.stable")}

    async def both():
        return await asyncio.gather(_work(running, A, right), _work(running, B, {"05.row3": WRONG_ROW3}))

    outputs = run_async(both())
    assert any("✓" in "".join(texts) for texts in outputs[0])
    rows = {(r.student, r.exercise): r for r in Store(running.state.store).rows()}
    assert {(s, e) for s, e in rows if s in (A, B)} == {(s, e) for s in (A, B) for e in right}
    assert all(rows[A, e].ok is True and rows[A, e].named == "right" for e in right)
    assert rows[B, "05.row3"].ok is False and rows[B, "05.row3"].named.startswith("mistake:")
    assert rows[B, "05.row3"].tries == 1
    assert rows[B, "05.row2"].ok is None and rows[B, "05.stable"].ok is None  # the notebook's `...`: not yet
    summary = report.summarize(Store(running.state.store).rows(), "ko")
    by_exercise = {row.exercise: row for row in summary.exercises}
    assert (by_exercise["05.row3"].right, by_exercise["05.row3"].total) == (1, 2)
    assert (by_exercise["05.row2"].right, by_exercise["05.row2"].total) == (1, 2)


def test_rerunning_an_exercise_updates_the_record_never_duplicates_it(running):
    run_async(_work(running, B, {"05.row3": ex.solution_code("05.row3")}))
    rows = [r for r in Store(running.state.store).rows() if r.student == B]
    assert len(rows) == 3  # still one row per exercise
    row3 = next(r for r in rows if r.exercise == "05.row3")
    assert (row3.ok, row3.named, row3.attempts) == (True, "right", 2)


def test_a_verdict_made_while_the_collector_is_away_survives_a_kernel_restart(running):
    """The kernel cannot reach the collector (its URL points at a closed port): the verdict waits in the student's
    outbox; the kernel is restarted (all its memory gone); the next check sends both."""
    drive = kernels.Hub(running.settings, running.token)

    async def away_then_back():
        async with drive.kernel(A, cwd="attention-lab") as kernel:
            closed = hub.free_port()
            await kernel.run(f"import os\nos.environ['ATTENTION_LAB_CLASSROOM_URL'] = 'http://127.0.0.1:{closed}/verdict'\n"
                             "import numpy as np\nfrom attention_lab import exercises as ex\nLANG = 'en'")
            await kernel.run(WRONG_ROW3)
            box = await kernel.run("from attention_lab.classroom import client\n"
                                   "print(len(client.outbox_path().read_text().splitlines()))")
            await kernel.restart()
            await asyncio.sleep(2)
            await kernel.run("import numpy as np\nfrom attention_lab import exercises as ex\nLANG = 'en'")
            await kernel.run(ex.solution_code("05.stable"))
            after = await kernel.run("from attention_lab.classroom import client\n"
                                     "print(len(client.outbox_path().read_text().splitlines()))")
            return box, after

    box, after = run_async(away_then_back())
    assert box == ["1\n"] and after == ["0\n"]
    rows = {r.exercise: r for r in Store(running.state.store).rows() if r.student == A}
    assert (rows["05.row3"].ok, rows["05.row3"].lang) == (False, "en")  # the kept verdict, after the right one
    assert rows["05.stable"].ok is True


def _post(running, token, verdict):  # -> HTTP status of a POST to the collector
    request = urllib.request.Request(running.settings["collector_url"] + "/verdict", data=json.dumps(verdict).encode(),
                                     method="POST", headers={"Authorization": f"token {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as e:
        return e.code


def test_a_student_cannot_write_another_students_record(running):
    token = hub.hub_api(running.settings, f"/users/{A}/tokens", running.token, "POST", {"note": "test"})["token"]
    before = {(r.student, r.exercise): r for r in Store(running.state.store).rows()}
    forged = {"student": B, "exercise": "05.row2", "lang": "ko", "ok": True, "named": "right", "tries": 0}
    assert _post(running, token, forged) == 200
    after = {(r.student, r.exercise): r for r in Store(running.state.store).rows()}
    assert after[B, "05.row2"] == before[B, "05.row2"]  # B's row untouched: the verdict is A's, by A's token
    assert after[A, "05.row2"].attempts == before[A, "05.row2"].attempts + 1
    assert _post(running, "not-a-token", forged) == 403
    assert _post(running, "", forged) == 403
    assert _post(running, running.token, forged) == 403  # the instructor's service is no student
    assert _post(running, token, {**forged, "exercise": "99.nothing"}) == 400


def test_one_student_cannot_read_or_change_anothers_files(running):
    """As system accounts: every try refused. Embedded (one account for all): every try allowed, as the docs say."""
    drive = kernels.Hub(running.settings, running.token)
    other = Path(pwd.getpwnam(B).pw_dir) if SYSTEM_USERS else running.state.homes / B
    code = f"""
import os
tried = []
for what, act in (("list", lambda: os.listdir({str(other)!r})),
                  ("read", lambda: open({str(other / 'attention-lab' / '05_softmax.ipynb')!r}).read()),
                  ("write", lambda: open({str(other / 'planted.txt')!r}, 'w').write('x')),
                  ("roster", lambda: open({str(running.state.roster)!r}).read()),
                  ("store", lambda: open({str(running.state.store)!r}, 'rb').read())):
    try:
        act()
        tried.append(what + ' ALLOWED')
    except PermissionError:
        tried.append(what + ' refused')
print(os.getuid(), ','.join(tried))
"""

    async def look():
        async with drive.kernel(A) as kernel:
            return await kernel.run(code)

    (line,) = run_async(look())
    uid, tried = line.split(" ", 1)
    said = "refused" if SYSTEM_USERS else "ALLOWED"
    assert tried.strip() == ",".join(f"{what} {said}" for what in ("list", "read", "write", "roster", "store"))
    assert (other / "planted.txt").exists() is not SYSTEM_USERS
    if SYSTEM_USERS:
        assert int(uid) == pwd.getpwnam(A).pw_uid
        assert os.stat(other).st_mode & 0o777 == 0o700 and os.stat(other).st_uid == pwd.getpwnam(B).pw_uid
    else:
        assert int(uid) == os.getuid()
        (other / "planted.txt").unlink()


def test_a_second_up_on_the_same_folder_is_refused(running):
    done = _run("up", "--students", "2", "--dir", running.folder, "--port", str(hub.free_port()))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "already running" in done.stderr and "down --dir" in done.stderr


def test_status_names_an_unknown_student(running):
    done = _run("status", "--dir", running.folder, "--student", "al-student99")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--student al-student99: no such student" in done.stderr
    done = _run("status", "--dir", running.folder, "--student", A)
    assert done.returncode == 0 and f"{A}: server running, 3 verdicts" in done.stdout


def test_the_store_survives_a_restart_of_the_hub(running):
    before = Store(running.state.store).rows()
    passwords = running.state.passwords.read_text()
    assert running.stop() == 0
    assert _leftovers(running.folder) == []
    again = kernels.Running(running.folder, 2, running.settings["port"], *MODE)
    again.existed = running.existed  # the accounts were made by this class's first `up`
    running.__dict__.update(again.__dict__)
    assert Store(running.state.store).rows() == before
    assert running.state.passwords.read_text() == passwords  # the same roster: nobody's password changed
    run_async(_work(running, B, {"05.row2": ex.solution_code("05.row2")}))
    rows = {(r.student, r.exercise): r for r in Store(running.state.store).rows()}
    assert len(rows) == len(before) and rows[B, "05.row2"].ok is True


# ---------------------------------------------------------------- bad input: one line, exit 2, nothing lost

def test_a_taken_port_is_named():
    folder = _folder()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _run("up", "--students", "2", "--dir", str(folder), "--port", str(port))
    shutil.rmtree(folder)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"--port {port}: the port is taken" in done.stderr


def test_no_proxy_and_no_npm_is_named(tmp_path):
    folder = _folder()
    bare = tmp_path / "bin"
    bare.mkdir()
    env = {**os.environ, "PATH": str(bare), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = _run("up", "--students", "2", "--dir", str(folder), "--port", str(hub.free_port()), env=env)
    shutil.rmtree(folder)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "configurable-http-proxy is not installed and npm is missing" in done.stderr


def test_a_corrupt_store_is_named_and_left_as_it_is():
    folder = _folder()
    junk = b"this is not a store\n" * 50
    (folder / "class.sqlite").write_bytes(junk)
    done = _run("up", "--students", "2", "--dir", str(folder), "--port", str(hub.free_port()))
    kept = (folder / "class.sqlite").read_bytes()
    left = sorted(p.name for p in folder.iterdir())
    shutil.rmtree(folder)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "class.sqlite" in done.stderr and "not an attention-lab store" in done.stderr
    assert kept == junk
    assert "classroom.pid" not in left


def test_ctrl_c_stops_the_hub_and_every_server():
    folder = _folder()
    running = kernels.Running(folder, 1, hub.free_port(), *MODE)
    run_async(kernels.Hub(running.settings, running.token).start_server(A))
    servers = [p for p in psutil.process_iter(["cmdline", "environ"])  # this class's: <folder> in its Python or HOME
               if "jupyterhub.singleuser" in (p.info["cmdline"] or [])
               and str(folder) in " ".join(p.info["cmdline"]) + (p.info["environ"] or {}).get("HOME", "")]
    assert servers
    os.kill(running.proc.pid, signal.SIGINT)
    code = running.wait(120)
    out = running.output()
    time.sleep(1)
    left = _leftovers(folder)
    gone = [s for s in servers if s.is_running()]
    if not running.existed:
        hub.down(str(folder), purge=True)
    shutil.rmtree(folder, ignore_errors=True)
    assert code == 130
    assert out.strip().splitlines()[-1] == "classroom: stopped (Ctrl-C): the hub, the proxy and every student's server"
    assert left == [] and gone == []


def test_the_embedded_mode_runs_every_server_as_the_instructor_in_a_home_of_its_own():
    folder = _folder()
    running = kernels.Running(folder, 1, hub.free_port(), "--no-system-users")

    async def work():
        drive = kernels.Hub(running.settings, running.token)
        await drive.start_server(A)
        async with drive.kernel(A, cwd="attention-lab") as kernel:
            (who,) = await kernel.run("import os\nprint(os.getuid(), os.environ['HOME'], os.getcwd())")
            await kernel.run("import numpy as np\nfrom attention_lab import exercises as ex\nLANG = 'ko'")
            await kernel.run(ex.solution_code("05.row3"))
            return who

    try:
        who = run_async(work())
    finally:
        code = running.stop()
    rows = [(r.student, r.exercise, r.ok) for r in Store(folder / "class.sqlite").rows()]
    left = _leftovers(folder)
    home = folder / "homes" / A
    copied = sorted(p.name for p in (home / "attention-lab").iterdir())
    shutil.rmtree(folder, ignore_errors=True)
    assert code == 0 and left == []
    assert who.split() == [str(os.getuid()), str(home), str(home / "attention-lab")]
    assert copied == sorted(p.name for p in NOTEBOOK.parent.glob("*.ipynb"))
    assert rows == [(A, "05.row3", True)]
