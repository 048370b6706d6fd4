"""A class on one machine: a real JupyterHub, its proxy, one JupyterLab server per student, and the collector.

    up(...)     prepare the state folder (roster, homes, jupyterhub_config.py), start the hub, wait for Ctrl-C or down
    down(...)   stop a running class (the hub stops every student's server, the proxy and the collector)

The state folder (`--dir`, default ./classroom-state) holds what the instructor keeps between runs:

    roster.txt            each student's name and password, written once, mode 0600 (hand it out, then keep it)
    passwords.json        the same passwords, hashed: what the hub checks at login (0600)
    class.sqlite          the store of verdicts (store.Store): survives restarts of the hub
    admin-token           a token of the hub's service `classroom-admin` (0600): status, the benchmark, the tests
    jupyterhub_config.py  written anew by every `up`; jupyterhub.sqlite, the cookie secret, hub.log: the hub's own
    classroom.pid         the `up` that runs now: a second `up` on the same folder is refused

The students' accounts, homes, passwords and Python: accounts.py (system users, or embedded).
"""

import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from .accounts import (  # noqa: F401  (hub.State, hub.student_name, … as the CLI, tests and benchmark use them)
    PREFIX,
    Authenticator,
    ClassroomError,
    State,
    _write_private,
    closed_above,
    make_roster,
    notebooks_dir,
    prepare_home,
    student_name,
    student_python,
)

CHP_VERSION = "5.3.0"  # configurable-http-proxy, from npm
COLLECTOR = "classroom-collector"  # the hub's service names
ADMIN = "classroom-admin"
_READY_SECONDS = 120  # the hub up and answering, or `up` gives up


# ---------------------------------------------------------------- what `up` checks first

def port_taken(port, host="127.0.0.1"):
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return True
    return False


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cache():
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "attention-lab"


def find_proxy(given=None, install=True):  # -> path of configurable-http-proxy
    """configurable-http-proxy: --proxy PATH, else on PATH, else in ~/.cache/attention-lab/chp (installed there
    with npm the first time)."""
    if given:
        if shutil.which(given):
            return shutil.which(given)
        raise ClassroomError(f"--proxy {given}: no such program; give the path of configurable-http-proxy")
    found = shutil.which("configurable-http-proxy")
    cached = _cache() / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
    if found or cached.exists():
        return found or str(cached)
    npm = shutil.which("npm")
    if not npm or not shutil.which("node"):
        raise ClassroomError("configurable-http-proxy is not installed and npm is missing: install Node.js and npm "
                             "(apt-get install npm), or give --proxy PATH")
    if not install:
        raise ClassroomError("configurable-http-proxy is not installed")
    print(f"classroom: installing configurable-http-proxy {CHP_VERSION} with npm into {cached.parents[2]} …",
          flush=True)
    done = subprocess.run([npm, "install", "--prefix", str(cached.parents[2]), "--no-audit", "--no-fund", "--silent",
                           f"configurable-http-proxy@{CHP_VERSION}"], capture_output=True, text=True)
    if done.returncode != 0 or not cached.exists():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise ClassroomError(f"npm could not install configurable-http-proxy@{CHP_VERSION} ({last}); "
                             "install it by hand and give --proxy PATH")
    return str(cached)


def _alive(pid):  # a process that exited but is not yet reaped by its parent (a zombie) is not alive
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _read_pid(path):
    try:
        return int(Path(path).read_text().strip())
    except (OSError, ValueError):
        return None


def running_pid(state):  # -> the pid of the `up` running on this folder, or None
    pid = _read_pid(state.pid)
    return pid if pid and _alive(pid) else None


def _claim(state, dir_arg):
    """Write classroom.pid, atomically: a second `up` on the same folder is refused with the way to stop the first."""
    for _ in range(2):
        try:
            fd = os.open(state.pid, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            pid = running_pid(state)
            if pid:
                raise ClassroomError(f"a class is already running from --dir {dir_arg} (pid {pid}): stop it with "
                                     f"`python -m attention_lab.classroom down --dir {dir_arg}`, or give another --dir"
                                     ) from None
            state.pid.unlink(missing_ok=True)  # left by an `up` that was killed: not running
            continue
        with os.fdopen(fd, "w") as f:
            f.write(f"{os.getpid()}\n")
        return
    raise ClassroomError(f"--dir {dir_arg}: cannot claim {state.pid}; remove it if no class is running")


# ---------------------------------------------------------------- the hub's configuration

def write_config(state, *, students, port, proxy, system_users, python, lang):
    ports = {"hub": free_port(), "proxy_api": free_port(), "collector": free_port()}
    collector_url = f"http://127.0.0.1:{ports['collector']}"
    config = {
        "ip": "127.0.0.1", "port": port, "hub_port": ports["hub"], "proxy_api": f"http://127.0.0.1:{ports['proxy_api']}",
        "proxy": proxy, "students": students, "system_users": system_users, "dir": str(state.dir),
        "python": python, "hub_python": sys.executable, "passwords": str(state.passwords), "store": str(state.store),
        "collector_url": collector_url, "collector_port": ports["collector"], "lang": lang,
        "root": os.geteuid() == 0, "homes": str(state.homes), "admin_token": str(state.token),
        "db": str(state.dir / "jupyterhub.sqlite"), "cookie_secret": str(state.dir / "jupyterhub_cookie_secret"),
        "hub_pid": str(state.hub_pid), "proxy_pid": str(state.dir / "proxy.pid"),
    }
    state.settings.write_text(json.dumps(config, indent=1))
    state.config.write_text(f'''# Written by `python -m attention_lab.classroom up`; written anew by every `up`.
import json
from pathlib import Path

s = json.loads(Path({str(state.settings)!r}).read_text())
c = get_config()  # noqa: F821

c.JupyterHub.ip = s["ip"]
c.JupyterHub.port = s["port"]
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = s["hub_port"]
c.JupyterHub.db_url = "sqlite:///" + s["db"]
c.JupyterHub.cookie_secret_file = s["cookie_secret"]
c.JupyterHub.pid_file = s["hub_pid"]
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every student's server (and so their kernels)
c.JupyterHub.cleanup_proxy = True
c.ConfigurableHTTPProxy.command = [s["proxy"]]
c.ConfigurableHTTPProxy.api_url = s["proxy_api"]
c.ConfigurableHTTPProxy.pid_file = s["proxy_pid"]

c.JupyterHub.authenticator_class = "attention_lab.classroom.accounts.RosterAuthenticator"
c.RosterAuthenticator.passwords_file = s["passwords"]
c.Authenticator.allowed_users = set(s["students"])

if s["system_users"]:
    c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
else:
    c.JupyterHub.spawner_class = "attention_lab.classroom.accounts.EmbeddedSpawner"
    c.EmbeddedSpawner.home_dir_template = s["homes"] + "/{{username}}"
c.Spawner.cmd = [s["python"], "-m", "jupyterhub.singleuser"]
c.Spawner.args = ["--allow-root"] if s["root"] and not s["system_users"] else []
if s["system_users"]:
    # Kernels on Unix sockets in the student's home, not on TCP ports: 30 servers picking free ports at once race
    # for the same one ("Address already in use", a kernel lost); the socket paths fit the 107-byte limit there.
    c.Spawner.args.append("--KernelManager.transport=ipc")
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = "/lab/tree/attention-lab"
c.Spawner.environment = {{"ATTENTION_LAB_CLASSROOM_URL": s["collector_url"] + "/verdict",
                          "ATTENTION_LAB_LANG": s["lang"]}}
c.Spawner.start_timeout = 300  # 30 servers starting at once on 2 cores
c.Spawner.http_timeout = 300
c.JupyterHub.concurrent_spawn_limit = 0

c.JupyterHub.services = [
    {{"name": "{COLLECTOR}", "url": s["collector_url"], "display": False,
     "command": [s["hub_python"], "-m", "attention_lab.classroom.collector", "--store", s["store"],
                 "--port", str(s["collector_port"]), "--passwords", s["passwords"]]}},
    {{"name": "{ADMIN}", "api_token": Path(s["admin_token"]).read_text().strip()}},
]
c.JupyterHub.load_roles = [{{"name": "{ADMIN}", "services": ["{ADMIN}"],
                            "scopes": ["admin:users", "admin:servers", "access:servers", "tokens", "list:users",
                                       "read:users"]}}]
''')


# ---------------------------------------------------------------- up, down

def hub_api(settings, path, token, method="GET", body=None, timeout=30):  # -> parsed JSON (or None)
    url = f"http://127.0.0.1:{settings['port']}/hub/api{path}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=timeout) as answer:
        text = answer.read()
    return json.loads(text) if text else None


def _wait_ready(state, settings, hub):
    token = state.admin_token()
    deadline = time.monotonic() + _READY_SECONDS
    while time.monotonic() < deadline:
        if hub.poll() is not None:
            raise ClassroomError(f"the hub stopped at its start (exit {hub.returncode}): {_last_log_line(state)}")
        try:
            hub_api(settings, "/users", token, timeout=5)
            return
        except (urllib.error.URLError, OSError, ValueError):
            time.sleep(0.3)
    raise ClassroomError(f"the hub did not answer within {_READY_SECONDS} s: see {state.log}")


def _last_log_line(state):
    try:
        lines = [line for line in state.log.read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return "no log"
    errors = [line for line in lines if "[E " in line or "Error" in line]
    return (errors or lines or ["no log"])[-1].strip()[:300]


class _Stop(Exception):
    def __init__(self, code):
        self.code = code


def _on_signal(number, frame):
    raise _Stop(130 if number == signal.SIGINT else 0)


def up(*args, **kwargs):
    """Start a class and run until Ctrl-C (exit 130) or `down` (exit 0). `ready(settings)` is called once the hub
    answers (the CLI prints where to go)."""
    umask = os.umask(0o077)  # the store, the hub's database and log, the servers' files: their owner's only
    try:
        return _up(*args, **kwargs)
    finally:
        os.umask(umask)


def _up(students=30, lang="ko", port=8000, folder="classroom-state", system_users=None, proxy=None, notebooks=None,
        ready=None):
    from .store import Store, StoreError

    state = State(folder)
    if Authenticator is None:
        raise ClassroomError("jupyterhub is not installed: pip install 'attention-lab[classroom]'")
    if students < 1 or students > 99:
        raise ClassroomError(f"--students {students}: give a number of students from 1 to 99")
    root = os.geteuid() == 0
    if system_users is None:
        system_users = root
    if system_users and not root:
        raise ClassroomError("--system-users needs root (useradd); run as root, or use --no-system-users")
    state.dir.mkdir(parents=True, exist_ok=True)
    os.chmod(state.dir, 0o711 if system_users else 0o700)  # the students' accounts may enter it (runtime/), not list it
    pid = running_pid(state)
    if pid:
        _claim(state, folder)  # raises: a class runs already
    if port_taken(port):
        raise ClassroomError(f"--port {port}: the port is taken; give another --port, or stop what uses it")
    proxy = find_proxy(proxy)
    source = notebooks_dir(lang, notebooks)
    try:
        Store(state.store).close()
    except StoreError as e:
        raise ClassroomError(f"the class's store is unusable: {e}") from None
    closed = closed_above(state.dir)
    if system_users and closed and closed_above(Path(sys.executable).resolve()):
        # the students' accounts can reach neither the instructor's Python nor <dir>/runtime: say so before useradd
        raise ClassroomError(f"--dir {folder}: the folder {closed} is closed to other accounts, so the students "
                             "cannot reach <dir>/runtime; give a --dir in a folder every account can enter")
    _claim(state, folder)
    hub = None
    previous = {number: signal.signal(number, _on_signal) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        names = make_roster(state, students)
        if not state.token.exists():
            _write_private(state.token, secrets.token_hex(32))
        for name in names:
            prepare_home(state, name, lang, source, system_users)
        python = student_python(state, names[0]) if system_users else sys.executable
        write_config(state, students=names, port=port, proxy=proxy, system_users=system_users, python=python,
                     lang=lang)
        settings = state.settings_or_none()
        with open(state.log, "ab") as log:
            hub = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(state.config)], cwd=state.dir,
                                   stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)  # Ctrl-C reaches `up`, which stops the hub in order
        _wait_ready(state, settings, hub)
        if ready:
            ready(settings)
        while hub.poll() is None:
            time.sleep(0.5)
        raise ClassroomError(f"the hub stopped by itself (exit {hub.returncode}): {_last_log_line(state)}")
    except _Stop as stop:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not cut the stopping short
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        _stop_hub(hub)
        return stop.code
    except BaseException:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        _stop_hub(hub)
        raise
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        if _read_pid(state.pid) == os.getpid():
            state.pid.unlink(missing_ok=True)


def _stop_hub(hub, seconds=90):
    """SIGTERM to the hub: it stops every server, the collector and the proxy, then exits; then its group."""
    if hub is None or hub.poll() is not None:
        return
    hub.terminate()
    try:
        hub.wait(seconds)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(hub.pid, signal.SIGKILL)  # anything of the hub's own group left (not the servers: their own sessions)
    except (ProcessLookupError, PermissionError):
        pass
    hub.wait()


def down(folder="classroom-state", purge=False, seconds=120):  # -> a line to print
    """Stop the class running from this folder (the `up` stops its hub); --purge also removes the system accounts
    (and so their homes: the students' work) of the roster. The roster, the store and the state folder stay."""
    state = State(folder)
    pid = running_pid(state)
    said = f"no class is running from --dir {folder}"
    if pid:
        try:
            os.kill(pid, signal.SIGTERM)
        except PermissionError:
            raise ClassroomError(f"the class from --dir {folder} (pid {pid}) runs as another user: run `down` as that "
                                 "user (sudo)") from None
        deadline = time.monotonic() + seconds
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if _alive(pid):
            raise ClassroomError(f"the class (pid {pid}) did not stop within {seconds} s; see {state.log}")
        said = f"stopped the class running from --dir {folder}"
    hub_pid = _read_pid(state.hub_pid)
    if hub_pid and _alive(hub_pid) and not pid:  # a hub whose `up` was killed: stop it directly
        os.kill(hub_pid, signal.SIGTERM)
        deadline = time.monotonic() + seconds
        while _alive(hub_pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        said = f"stopped the hub left running from --dir {folder}"
    if purge:
        settings = state.settings_or_none() or {}
        if settings.get("system_users"):
            for name in state.students():
                try:
                    pwd.getpwnam(name)
                except KeyError:
                    continue
                subprocess.run(["userdel", "--remove", name], capture_output=True)
            said += "; removed the students' accounts and homes"
    return said
