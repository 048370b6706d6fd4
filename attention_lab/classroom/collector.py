"""The collector: a service the hub starts (as the instructor) that keeps each student's verdicts in the store.

    python -m attention_lab.classroom.collector --store class.sqlite --port 8765 --passwords passwords.json

A student's kernel (client.py) POSTs to /verdict one verdict or a list of them (what waited in its outbox, then
the new one), with its own hub token: `Authorization: token $JUPYTERHUB_API_TOKEN`. The collector asks the hub
whose token it is (GET /hub/api/user) and writes the verdicts under that name only, so a student cannot write
another's record. Answers: 200 stored; 400 not a verdict (the client drops it); 403 not a student of this class;
503 the hub cannot say who it is now (the client keeps it in its outbox and sends it again).
"""

import argparse
import datetime
import json
import os
import queue
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .store import Store

_WHO_SECONDS = 300  # how long the hub's answer to "whose token is this" is kept
_MAX_BODY = 1 << 20  # one request: a verdict is ~150 bytes, an outbox of thousands fits


class Refused(Exception):
    def __init__(self, status, why):
        super().__init__(why)
        self.status = status


def _verdict(item, exercises):  # a posted dict -> the store's arguments, or Refused(400)
    if not isinstance(item, dict):
        raise Refused(400, "a verdict is a JSON object")
    exercise, lang, ok, named, tries = (item.get(k) for k in ("exercise", "lang", "ok", "named", "tries"))
    if exercise not in exercises:
        raise Refused(400, f"unknown exercise {exercise!r:.40}")
    if lang not in ("ko", "en"):
        raise Refused(400, f"lang: 'ko' or 'en', got {lang!r:.20}")
    if ok not in (True, False, None) or not isinstance(ok, (bool, type(None))):
        raise Refused(400, "ok: true, false or null")
    if not isinstance(named, str) or len(named) > 100:
        raise Refused(400, "named: a short string")
    if isinstance(tries, bool) or not isinstance(tries, int) or not 0 <= tries < 10**6:
        raise Refused(400, "tries: a whole number >= 0")
    now = datetime.datetime.now(datetime.timezone.utc)
    try:
        at = datetime.datetime.fromisoformat(item["at"]) if item.get("at") else now
    except (TypeError, ValueError):
        raise Refused(400, "at: an ISO 8601 time") from None
    if at.tzinfo is None:
        raise Refused(400, "at: a time with its zone")
    return dict(exercise=exercise, lang=lang, ok=ok, named=named, tries=tries, at=min(at, now))  # none in the future


class Collector:
    """Who is posting (asked of the hub, kept a while), and one thread that owns the store and writes to it."""

    def __init__(self, store_path, hub_api, students, exercises):
        self.hub_api, self.students, self.exercises = hub_api.rstrip("/"), set(students), exercises
        self._who = {}  # token -> (name, when asked)
        self._jobs = queue.Queue()
        self._store = Store(store_path)  # opened here: a corrupt store stops the service at its start, loudly
        self._store.close()
        self._path = store_path
        threading.Thread(target=self._writer, daemon=True).start()

    def _writer(self):  # the only thread that touches the store (sqlite3 connections stay in their thread)
        store = Store(self._path)
        while True:
            student, verdicts, done = self._jobs.get()
            try:
                for verdict in verdicts:
                    store.record(student, **verdict)
                done.put(None)
            except Exception as e:  # noqa: BLE001 - handed back to the request that waits for it
                done.put(e)

    def who(self, token):  # -> the student's name, or Refused
        if not token:
            raise Refused(403, "no token")
        known = self._who.get(token)
        if known and time.monotonic() - known[1] < _WHO_SECONDS:
            name = known[0]
        else:
            request = urllib.request.Request(f"{self.hub_api}/user", headers={"Authorization": f"token {token}"})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    name = json.loads(answer.read()).get("name")
            except urllib.error.HTTPError as e:
                if e.code in (401, 403, 404):
                    raise Refused(403, "the hub does not know this token") from None
                raise Refused(503, f"the hub answered {e.code}") from None
            except (OSError, ValueError) as e:
                raise Refused(503, f"the hub cannot be asked now ({e})") from None
            self._who[token] = (name, time.monotonic())
        if name not in self.students:
            raise Refused(403, f"{name!r} is not a student of this class")
        return name

    def take(self, token, body):  # -> number of verdicts stored, or Refused
        student = self.who(token)
        try:
            posted = json.loads(body)
        except ValueError:
            raise Refused(400, "the body is not JSON") from None
        verdicts = [_verdict(item, self.exercises) for item in (posted if isinstance(posted, list) else [posted])]
        done = queue.Queue()
        self._jobs.put((student, verdicts, done))
        error = done.get()
        if error is not None:
            raise Refused(503, f"the store could not write: {error}")
        return len(verdicts)


def handler_for(collector):
    class Handler(BaseHTTPRequestHandler):
        def _answer(self, status, payload):
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):  # noqa: N802 - the name http.server calls
            if not self.path.rstrip("/").endswith("/verdict"):
                return self._answer(404, {"error": "POST verdicts to /verdict"})
            length = int(self.headers.get("Content-Length") or 0)
            if length > _MAX_BODY:
                return self._answer(400, {"error": "too large"})
            auth = self.headers.get("Authorization", "")
            token = auth[len("token "):].strip() if auth.lower().startswith("token ") else ""
            try:
                stored = collector.take(token, self.rfile.read(length))
            except Refused as e:
                return self._answer(e.status, {"error": str(e)})
            self._answer(200, {"stored": stored})

        def do_GET(self):  # noqa: N802
            self._answer(200, {"service": "attention-lab classroom collector"})

        def log_message(self, format, *args):  # one line a request on stderr, the hub's log
            pass

    return Handler


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m attention_lab.classroom.collector")
    parser.add_argument("--store", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ip", default="127.0.0.1", help="the address to listen on (0.0.0.0 on Kubernetes, where "
                                                           "the students' pods reach it)")
    parser.add_argument("--passwords", required=True, help="passwords.json: the class's students")
    args = parser.parse_args(argv)
    from ..exercises import EXERCISES

    students = json.loads(Path(args.passwords).read_text())
    hub_api = os.environ.get("JUPYTERHUB_API_URL", "http://127.0.0.1:8081/hub/api")
    collector = Collector(args.store, hub_api, students, set(EXERCISES))
    server = ThreadingHTTPServer((args.ip, args.port), handler_for(collector))
    server.daemon_threads = True
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
