"""In a student's kernel: each checked exercise's verdict, sent to the class's collector (collector.py).

`exercises.check` calls `send(feedback, lang)` after showing its feedback. Outside a class (no
ATTENTION_LAB_CLASSROOM_URL, which the hub's spawner sets) it does nothing. In a class the verdict is first
appended to an outbox file in the student's home (~/.attention-lab-outbox.jsonl, flushed to disk), then the
whole outbox is POSTed, synchronously, and emptied once the collector has stored it. So a verdict is kept
if the collector cannot be reached, or the kernel is killed during the POST: the next check sends it again
(the store keeps one row per student and exercise, so a verdict sent twice is not a second record).
Nothing here ever raises into `check`.
"""

import datetime
import fcntl
import json
import os
import urllib.error
import urllib.request
from pathlib import Path

URL = "ATTENTION_LAB_CLASSROOM_URL"
OUTBOX = ".attention-lab-outbox.jsonl"
_TIMEOUT = 10  # seconds a check waits for the collector before keeping the verdict for later


def outbox_path():
    return Path(os.environ.get("HOME") or Path.home()) / OUTBOX


def verdict(feedback, lang):  # Feedback -> the dict the collector takes
    return {"exercise": feedback.exercise_id, "lang": lang, "ok": feedback.ok, "named": feedback.named,
            "tries": feedback.tries, "at": datetime.datetime.now(datetime.timezone.utc).isoformat()}


def _post(url, items):  # -> True: stored or refused for good (drop them); False: try again later
    request = urllib.request.Request(url, data=json.dumps(items).encode(), method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"token {os.environ.get('JUPYTERHUB_API_TOKEN', '')}"})
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT):
            return True
    except urllib.error.HTTPError as e:
        return e.code == 400  # not a verdict the collector takes: sending it again would not change that
    except (OSError, ValueError):
        return False


def send(feedback, lang):  # -> True if the collector has everything this kernel checked so far
    url = os.environ.get(URL)
    if not url:
        return False
    try:
        path = outbox_path()
        with open(path, "a+", encoding="utf-8") as box:
            fcntl.flock(box, fcntl.LOCK_EX)  # two kernels of one student: one sends at a time
            box.write(json.dumps(verdict(feedback, lang)) + "\n")
            box.flush()
            os.fsync(box.fileno())
            box.seek(0)
            items = []
            for line in box.read().splitlines():
                try:
                    items.append(json.loads(line))
                except ValueError:
                    continue  # a line cut short by a kill mid-write: nothing to send
            if not _post(url, items):
                return False
            box.truncate(0)
            return True
    except Exception:  # noqa: BLE001 - a class's collection must never break a check
        return False
