"""check()'s hand-off to a class (classroom/client.py), without a hub: outside a class it imports nothing; in one
it POSTs the verdict with the student's token, keeps it in the outbox while the collector is away and sends it
at the next check; a collector that refuses a verdict as malformed does not make it wait forever."""

import json
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from attention_lab import exercises as ex
from attention_lab.classroom import client, hub

RIGHT = "np.exp(tr.S_masked[0, 2]) / np.exp(tr.S_masked[0, 2]).sum()"


def test_outside_a_class_check_imports_nothing_of_the_classroom():
    code = ("import sys, numpy as np\nfrom attention_lab import exercises as ex\n"
            f"assert ex.check('05.row3', lambda tr: {RIGHT}, lang='en').ok is True\n"
            "print(sorted(m for m in sys.modules if m.startswith('attention_lab.classroom') or m == 'urllib.request'))")
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


class _Collector:
    """A stand-in collector on a free port: records what it was sent, answers with `status`."""

    def __init__(self, status=200):
        self.got, self.status = [], status
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.got.append((self.path, self.headers["Authorization"], json.loads(body)))
                self.send_response(outer.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/verdict"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def in_class(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "student-token")
    ex.reset()
    return tmp_path


def _lines(home):
    path = home / client.OUTBOX
    return path.read_text().splitlines() if path.exists() else []


def test_a_verdict_waits_in_the_outbox_while_the_collector_is_away_then_goes(in_class, monkeypatch, capsys):
    monkeypatch.setenv(client.URL, f"http://127.0.0.1:{hub.free_port()}/verdict")  # nobody listens there
    wrong = ex.check("05.row3", lambda tr: __import__("numpy").exp(tr.S_masked[0, 2]), lang="ko")
    assert wrong.ok is False  # check works as ever, and shows its feedback
    assert "✗" in capsys.readouterr().out
    (kept,) = _lines(in_class)
    assert {k: v for k, v in json.loads(kept).items() if k != "at"} == {
        "exercise": "05.row3", "lang": "ko", "ok": False, "named": wrong.named, "tries": 1}
    collector = _Collector()
    monkeypatch.setenv(client.URL, collector.url)
    try:
        ex.check("05.stable", lambda x: 0, lang="ko")
    finally:
        collector.close()
    ((path, auth, sent),) = collector.got  # one POST: the kept verdict first, then the new one
    assert (path, auth) == ("/verdict", "token student-token")
    assert [v["exercise"] for v in sent] == ["05.row3", "05.stable"]
    assert _lines(in_class) == []


def test_a_verdict_refused_as_malformed_is_not_sent_again(in_class, monkeypatch):
    collector = _Collector(status=400)
    monkeypatch.setenv(client.URL, collector.url)
    try:
        ex.check("05.stable", lambda x: 0, lang="en")
    finally:
        collector.close()
    assert len(collector.got) == 1 and _lines(in_class) == []


def test_a_broken_outbox_never_breaks_check(in_class, monkeypatch):
    (in_class / client.OUTBOX).mkdir()  # a folder where the file should be: the verdict cannot be kept
    monkeypatch.setenv(client.URL, "not a url")
    feedback = ex.check("05.stable", lambda x: 0, lang="en")
    assert feedback.ok is False
