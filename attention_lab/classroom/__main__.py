"""python -m attention_lab.classroom up | down | status | report

    up --students 30 --lang ko [--port 8000] [--dir classroom-state] [--no-system-users] [--proxy PATH]
        a real JupyterHub with one JupyterLab server per student; runs until Ctrl-C or `down`
    down [--dir classroom-state] [--purge]     stop it (--purge: also remove the students' system accounts)
    status [--dir classroom-state] [--student NAME]
    report ...                                  the class's verdicts (report.py: `report --help`)

Bad input: one line on stderr, exit 2. Ctrl-C: one line, exit 130.
"""

import argparse
import sys

from . import hub

LANGS = ("ko", "en")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        print(f"{self.prog}: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser():
    parser = _Parser(prog="python -m attention_lab.classroom", description="A class on a JupyterHub, on one machine.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    start = commands.add_parser("up", help="start the hub and the students' servers; Ctrl-C or `down` stops it")
    start.add_argument("--students", type=int, default=30, help="how many students (al-student01 …), default 30")
    start.add_argument("--lang", choices=LANGS, default="ko", help="the edition of the notebooks, default ko")
    start.add_argument("--port", type=int, default=8000, help="the hub's port on 127.0.0.1, default 8000")
    start.add_argument("--dir", default="classroom-state", help="the state folder, default ./classroom-state")
    users = start.add_mutually_exclusive_group()
    users.add_argument("--system-users", dest="system_users", action="store_true", default=None,
                       help="one system account per student (the default as root): isolated homes")
    users.add_argument("--no-system-users", dest="system_users", action="store_false",
                       help="every server as this account (no isolation between students)")
    start.add_argument("--proxy", help="the configurable-http-proxy program (default: on PATH, or installed by npm)")
    start.add_argument("--notebooks", help="the folder holding ko/ and en/ (default: the repository's notebooks/)")
    stop = commands.add_parser("down", help="stop the class")
    stop.add_argument("--dir", default="classroom-state")
    stop.add_argument("--purge", action="store_true", help="also remove the students' system accounts and homes")
    look = commands.add_parser("status", help="is it running, who has a server, how many verdicts")
    look.add_argument("--dir", default="classroom-state")
    look.add_argument("--student", help="one student's server and verdicts")
    commands.add_parser("report", help="the class's verdicts (see `report --help`)", add_help=False)
    return parser


def _ready(settings):
    print(f"classroom: the hub is up at http://{settings['ip']}:{settings['port']}/ for "
          f"{len(settings['students'])} students ({'system users' if settings['system_users'] else 'embedded'}); "
          f"passwords in {settings['dir']}/roster.txt; stop with Ctrl-C or "
          f"`python -m attention_lab.classroom down --dir {settings['dir']}`", flush=True)


def status(folder, student=None):  # -> lines
    from .store import Store, StoreError

    state = hub.State(folder)
    names = state.students()
    if not names:
        raise hub.ClassroomError(f"--dir {folder}: no class here (no roster); start one with "
                                 f"`python -m attention_lab.classroom up --dir {folder}`")
    if student is not None and student not in names:
        raise hub.ClassroomError(f"--student {student}: no such student in this class ({names[0]} … {names[-1]})")
    try:
        with Store(state.store) as store:
            rows = store.rows()
    except StoreError as e:
        raise hub.ClassroomError(f"the class's store is unusable: {e}") from None
    pid = hub.running_pid(state)
    settings = state.settings_or_none() or {}
    lines = [f"running (pid {pid}) at http://127.0.0.1:{settings.get('port')}/" if pid else "not running",
             f"{len(names)} students, {len(rows)} verdicts stored in {state.store}"]
    servers = {}
    if pid:
        try:
            servers = {u["name"]: bool(u.get("server")) for u in hub.hub_api(settings, "/users", state.admin_token())}
        except OSError:
            lines.append("the hub does not answer now")
    for name in [student] if student else []:
        mine = [r for r in rows if r.student == name]
        lines.append(f"{name}: server {'running' if servers.get(name) else 'not running'}, {len(mine)} verdicts"
                     + "".join(f"\n  {r.exercise} {r.named} (tries {r.tries})" for r in mine))
    if not student and servers:
        lines.append(f"{sum(servers.values())} servers running")
    return lines


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["report"]:
        from . import report

        return report.main(argv[1:])
    args = _parser().parse_args(argv)
    try:
        if args.command == "up":
            code = hub.up(students=args.students, lang=args.lang, port=args.port, folder=args.dir,
                          system_users=args.system_users, proxy=args.proxy, notebooks=args.notebooks, ready=_ready)
            print(f"classroom: stopped{' (Ctrl-C)' if code == 130 else ''}: the hub, the proxy and every student's "
                  "server", file=sys.stderr)
            return code
        if args.command == "down":
            print(hub.down(args.dir, purge=args.purge))
        elif args.command == "status":
            print("\n".join(status(args.dir, args.student)))
        return 0
    except hub.ClassroomError as e:
        print(f"classroom: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("classroom: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
