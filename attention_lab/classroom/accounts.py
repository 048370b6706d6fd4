"""A class's students: the state folder's paths, the roster and its hashed passwords, the hub's authenticator and
spawner, and each student's account, home (with their copy of the notebooks) and a Python their account can run.

Two ways to run the servers:
- system users (the default as root): each student is an account `al-studentNN` made with useradd, home
  /home/al-studentNN mode 0700, and the hub's LocalProcessSpawner runs their server and kernels as that
  account, so the operating system keeps each student out of the others' files.
- embedded (not root, or --no-system-users): every server runs as the instructor's own account, homes under
  <dir>/homes/. The hub still keeps students apart in the browser (a student's login opens only their own
  server), but their code runs as one account: a student's code can read and change another's files. For
  a trial run or a class that trusts itself, not for isolation.
"""

import hashlib
import hmac
import json
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

PREFIX = "al-student"  # the students' names, al-student01 …, also their system accounts
_ITERATIONS = 200_000  # PBKDF2 rounds of a stored password: ~0.1 s a login on this machine


class ClassroomError(Exception):
    """Something the instructor can fix: the message is one line naming it and the fix."""


def student_name(i):  # 1 -> "al-student01"
    return f"{PREFIX}{i:02d}"


class State:
    """The paths of a class's state folder."""

    def __init__(self, folder):
        self.dir = Path(folder).absolute()
        for name, file in (("roster", "roster.txt"), ("passwords", "passwords.json"), ("store", "class.sqlite"),
                           ("token", "admin-token"), ("config", "jupyterhub_config.py"), ("pid", "classroom.pid"),
                           ("hub_pid", "jupyterhub.pid"), ("log", "hub.log"), ("settings", "classroom.json"),
                           ("runtime", "runtime"), ("homes", "homes")):
            setattr(self, name, self.dir / file)

    def settings_or_none(self):  # -> dict written by the running (or last) `up`, or None
        try:
            return json.loads(self.settings.read_text())
        except (OSError, ValueError):
            return None

    def students(self):  # -> [name], from the roster's hashed passwords
        try:
            return sorted(json.loads(self.passwords.read_text()))
        except (OSError, ValueError):
            return []

    def admin_token(self):
        return self.token.read_text().strip()


def _write_private(path, text):  # a file only its owner reads (0600 from its creation: never readable by others)
    path = Path(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(path, 0o600)


# ---------------------------------------------------------------- passwords

def hash_password(password, salt=None):  # -> "pbkdf2_sha256$rounds$salt$hash"
    salt = salt or secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), _ITERATIONS).hex()
    return f"pbkdf2_sha256${_ITERATIONS}${salt}${digest}"


def password_matches(password, stored):
    try:
        _, rounds, salt, digest = stored.split("$")
        mine = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt), int(rounds)).hex()
    except (ValueError, AttributeError):
        return False
    return hmac.compare_digest(mine, digest)


def make_roster(state, n):  # -> [name]: the first n students; passwords kept for those who have one
    hashed = {}
    if state.passwords.exists():
        hashed = json.loads(state.passwords.read_text())
    names = [student_name(i) for i in range(1, n + 1)]
    new = [name for name in names if name not in hashed]
    if new:
        fresh = {name: secrets.token_urlsafe(9) for name in new}
        hashed.update({name: hash_password(password) for name, password in fresh.items()})
        old = state.roster.read_text() if state.roster.exists() else "# student  password  (attention-lab classroom)\n"
        _write_private(state.roster, old + "".join(f"{name}  {fresh[name]}\n" for name in new))
        _write_private(state.passwords, json.dumps(hashed, indent=1))
    return names


try:  # the hub imports this module for its authenticator and spawner; the CLI does not need jupyterhub itself
    from jupyterhub.auth import Authenticator
    from jupyterhub.spawner import SimpleLocalProcessSpawner
    from traitlets import Unicode
except ImportError:  # pragma: no cover - `up` says what to install before it gets here
    Authenticator = SimpleLocalProcessSpawner = None
else:
    class RosterAuthenticator(Authenticator):
        """Log in with a name and password from the class's roster (checked against passwords.json's hashes)."""

        passwords_file = Unicode(config=True, help="passwords.json: {name: pbkdf2 hash}")

        async def authenticate(self, handler, data):
            try:
                hashed = json.loads(Path(self.passwords_file).read_text())
            except (OSError, ValueError):
                self.log.error("classroom: cannot read %s", self.passwords_file)
                return None
            name, password = (data or {}).get("username", ""), (data or {}).get("password", "")
            if name in hashed and password_matches(password, hashed[name]):
                return name
            return None

    class EmbeddedSpawner(SimpleLocalProcessSpawner):
        """Every student's server as the instructor's own account, in a home of its own under <dir>/homes/
        (no isolation between students: see the module's docstring)."""



# ---------------------------------------------------------------- students' accounts, homes and Python

def notebooks_dir(lang, given=None):  # -> Path of notebooks/<lang>/
    root = Path(given) if given else Path(__file__).resolve().parents[2] / "notebooks"
    folder = root / lang
    if not folder.is_dir() or not any(folder.glob("*.ipynb")):
        raise ClassroomError(f"--notebooks {root}: no notebooks in {folder}; give the folder that holds ko/ and en/")
    return folder


def _useradd(name):
    try:
        pwd.getpwnam(name)
        return
    except KeyError:
        pass
    done = subprocess.run(["useradd", "--create-home", "--home-dir", f"/home/{name}", "--shell", "/usr/sbin/nologin",
                           "--user-group", "--comment", "attention-lab student", name], capture_output=True, text=True)
    if done.returncode != 0:
        raise ClassroomError(f"useradd {name} failed ({done.stderr.strip()}); run as root, or use --no-system-users")


def _home_of(state, name, system_users):
    return Path(pwd.getpwnam(name).pw_dir) if system_users else state.homes / name


def prepare_home(state, name, lang, notebooks, system_users):
    """The student's home (0700) with their own copy of the notebooks in ~/attention-lab; a copy already there is
    left as it is (their work)."""
    if system_users:
        _useradd(name)
    home = _home_of(state, name, system_users)
    home.mkdir(parents=True, exist_ok=True)
    os.chmod(home, 0o700)
    mine = home / "attention-lab"
    if not mine.exists():
        mine.mkdir()
        for notebook in sorted(notebooks.glob("*.ipynb")):
            shutil.copy2(notebook, mine / notebook.name)
    if system_users:
        account = pwd.getpwnam(name)
        for path in [home, *home.rglob("*")]:
            os.chown(path, account.pw_uid, account.pw_gid, follow_symlinks=False)
    return home


def _as_student(name, python, code):  # -> CompletedProcess of `python -c code` run as the student's account
    account = pwd.getpwnam(name)

    def drop():
        os.setgid(account.pw_gid)
        os.initgroups(name, account.pw_gid)
        os.setuid(account.pw_uid)

    try:
        return subprocess.run([python, "-c", code], preexec_fn=drop, cwd="/", capture_output=True, text=True,
                              env={"HOME": account.pw_dir, "PATH": "/usr/bin:/bin"})
    except OSError as e:  # the program itself cannot be run by the account
        return subprocess.CompletedProcess([python], 126, "", str(e))


_PROBE = "import attention_lab, jupyterhub.singleuser, jupyterlab, ipykernel"


def student_python(state, name):  # -> a Python the student's account can run, with everything the server needs
    """The instructor's Python, if the student's account can run it; else a small venv in <dir>/runtime made from
    the system's Python of the same version, that reads the instructor's packages (a Python under a closed folder,
    such as pyenv's under /root, cannot be run by other accounts even when the venv itself is readable)."""
    if _as_student(name, sys.executable, _PROBE).returncode == 0:
        return sys.executable
    runtime_python = state.runtime / "bin" / "python"
    if not runtime_python.exists():
        _make_runtime(state)
    probe = _as_student(name, str(runtime_python), _PROBE)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["no output"])[-1]
        raise ClassroomError(f"the students' accounts cannot run Python with attention-lab ({last}): make the venv "
                             "from a Python every account can run (e.g. /usr/bin/python3 -m venv) in a folder they "
                             "can read, or use --no-system-users")
    return str(runtime_python)


def closed_above(path):  # -> the first folder on the way to `path` that other accounts cannot enter, or None
    path = Path(path).resolve()
    for folder in [*reversed(path.parents), path]:
        if folder.exists() and not os.stat(folder).st_mode & 0o001:
            return folder
    return None


def _make_runtime(state):
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    base = shutil.which(version, path="/usr/local/bin:/usr/bin:/bin")
    if base is None:
        raise ClassroomError(f"the students' accounts cannot run {sys.executable} and the system has no {version}: "
                             "make the venv from a Python every account can run, or use --no-system-users")
    umask = os.umask(0o022)  # every account runs it
    try:
        shutil.rmtree(state.runtime, ignore_errors=True)
        subprocess.run([base, "-m", "venv", "--without-pip", str(state.runtime)], check=True, capture_output=True)
        site = Path(sysconfig.get_paths()["purelib"])  # the instructor's site-packages, with attention_lab's .pth
        mine = state.runtime / "lib" / version / "site-packages"
        (mine / "attention_lab_instructor.pth").write_text(f"import site; site.addsitedir({str(site)!r})\n")
        for folder in ("share", "etc"):  # JupyterLab's assets, the servers' extension settings: sys.prefix/share, /etc
            if (Path(sys.prefix) / folder).exists():
                (state.runtime / folder).symlink_to(Path(sys.prefix) / folder)
    finally:
        os.umask(umask)
    closed = closed_above(state.runtime)
    if closed:
        raise ClassroomError(f"--dir {state.dir}: the folder {closed} is closed to other accounts, so the students "
                             "cannot reach <dir>/runtime; give a --dir in a folder every account can enter")
