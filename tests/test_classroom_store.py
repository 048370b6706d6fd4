"""The instructor's store (attention_lab.classroom.store): one row per (student, exercise), updated by a re-run,
kept across a restart, written by two processes at once without a loss, and a file that is not a store of ours
refused in one line and left as it was. Real SQLite files; the PostgreSQL test starts a real server (slow tier)."""

import copy
import datetime
import os
import pathlib
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import types

import pytest
import yaml

from attention_lab.classroom.store import Record, Store, StoreError

UTC = datetime.timezone.utc
T0 = datetime.datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
ROOT = pathlib.Path(__file__).resolve().parents[1]


def minutes(n):
    return T0 + datetime.timedelta(minutes=n)


def test_a_rerun_updates_the_row_and_never_duplicates_it(tmp_path):
    with Store(tmp_path / "class.sqlite") as store:
        store.record("kim", "02.score", "ko", False, "mistake:sqrt_d", 1, at=minutes(0))
        store.record("kim", "02.score", "ko", True, "right", 2, at=minutes(5))
        store.record("kim", "02.score", "ko", False, "not_yet", 3, at=minutes(9))  # right, then wrong again
        store.record("lee", "02.score", "en", None, "unanswered", 0, at=minutes(1))
        rows = store.rows()
    assert rows == [
        Record("kim", "02.score", "ko", False, "not_yet", 3, 3, minutes(9), first_right=minutes(5)),
        Record("lee", "02.score", "en", None, "unanswered", 0, 1, minutes(1), first_right=None),
    ]


def test_a_verdict_arriving_late_is_counted_but_does_not_replace_a_newer_one(tmp_path):
    with Store(tmp_path / "class.sqlite") as store:
        store.record("kim", "03.weights", "en", True, "right", 2, at=minutes(10))
        store.record("kim", "03.weights", "en", False, "mistake:wrong_axis", 1, at=minutes(4))  # sent earlier
        (row,) = store.rows()
    assert (row.ok, row.named, row.tries, row.at, row.attempts) == (True, "right", 2, minutes(10), 2)
    assert row.first_right == minutes(10)


def test_the_first_right_time_is_the_earliest_even_when_it_arrives_last(tmp_path):
    with Store(tmp_path / "class.sqlite") as store:
        store.record("kim", "03.weights", "en", True, "right", 3, at=minutes(10))
        store.record("kim", "03.weights", "en", True, "right", 2, at=minutes(6))
        (row,) = store.rows()
    assert (row.at, row.first_right, row.attempts) == (minutes(10), minutes(6), 2)


def test_the_rows_survive_a_restart_of_the_process_that_wrote_them(tmp_path):
    path = tmp_path / "class.sqlite"
    code = ("import sys, datetime; from attention_lab.classroom.store import Store\n"
            "s = Store(sys.argv[1])\n"
            "s.record('kim', '02.score', 'ko', True, 'right', 2, at=datetime.datetime(2026, 12, 7, 9, 0, "
            "tzinfo=datetime.timezone.utc))\n"
            "s.close()\n")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True)
    with Store(path) as store:  # the hub restarted: the same file opened again
        assert store.rows() == [Record("kim", "02.score", "ko", True, "right", 2, 1, T0, first_right=T0)]
        store.record("kim", "02.score", "ko", True, "right", 3, at=minutes(1))
    with Store(path) as store:
        assert [(r.tries, r.attempts) for r in store.rows()] == [(3, 2)]


WRITER = """
import sys, time
from attention_lab.classroom.store import Store
path, who, n, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
store = Store(path)
while time.time() < start:  # both writers begin at the same moment
    time.sleep(0.001)
for i in range(n):
    store.record(who, f"ex.{i:03d}", "en", i % 2 == 0, "right" if i % 2 == 0 else "not_yet", 1)
    store.record("shared", f"ex.{i:03d}", "ko", False, "mistake:mask_zero", 1)  # both write the same rows
store.close()
"""


def _written_at_once(where, writers, n, delay):  # -> the store's rows after each writer wrote n verdicts, all at once
    start = time.time() + delay  # each process waits for this moment, so that their writes overlap
    running = [subprocess.Popen([sys.executable, "-c", WRITER, where, who, str(n), str(start)],
                                stderr=subprocess.PIPE, text=True) for who in writers]
    for writer in running:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    with Store(where) as store:
        return store.rows()


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path, n = str(tmp_path / "class.sqlite"), 150
    Store(path).close()
    rows = _written_at_once(path, ("kim", "lee"), n, delay=1.0)
    by_student = {}
    for row in rows:
        by_student.setdefault(row.student, []).append(row)
    assert sorted(by_student) == ["kim", "lee", "shared"]
    for who in ("kim", "lee"):
        assert [r.exercise for r in by_student[who]] == [f"ex.{i:03d}" for i in range(n)]
        assert [r.ok for r in by_student[who]] == [i % 2 == 0 for i in range(n)]
    assert len(by_student["shared"]) == n  # one row per exercise, however many wrote it
    assert {r.attempts for r in by_student["shared"]} == {2}  # both verdicts counted: none lost


def test_the_report_reads_while_the_collector_holds_the_write_lock(tmp_path):
    path = tmp_path / "class.sqlite"
    with Store(path) as store:
        store.record("kim", "02.score", "ko", True, "right", 1, at=T0)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # the collector in the middle of a write
    writer.execute("UPDATE attention_lab_verdicts SET tries = 9")
    try:
        started = time.monotonic()
        with Store(path) as reader:  # WAL: a reader needs no lock the writer holds
            rows = reader.rows()
        assert time.monotonic() - started < 5
        assert [r.tries for r in rows] == [1]  # what was committed, not the write under way
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def _sqlite_of_another_program(path):
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
    db.execute("INSERT INTO users (name) VALUES ('admin')")
    db.commit()
    db.close()


def _store_then_damaged(path):
    with Store(path) as store:
        for i in range(200):
            store.record(f"s{i:03d}", "02.score", "ko", True, "right", 1, at=minutes(i))
    data = bytearray(path.read_bytes())
    data[100:len(data) - 100] = b"\xa5" * (len(data) - 200)  # the header kept, its pages overwritten
    path.write_bytes(bytes(data))


def _store_of_a_newer_schema(path):
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE attention_lab_meta SET value = '99' WHERE key = 'schema'")
    db.commit()
    db.close()


NOT_OURS = {
    "text": (lambda p: p.write_text("student,exercise\nkim,02.score\n"), "not an SQLite file"),
    "damaged": (_store_then_damaged, "SQLite"),
    "another program's": (_sqlite_of_another_program, "its tables are users"),
    "newer schema": (_store_of_a_newer_schema, "schema '99', made by a newer attention-lab"),
}


@pytest.mark.parametrize("kind", list(NOT_OURS))
def test_a_file_that_is_not_a_store_of_ours_is_refused_in_one_line_and_left_as_it_was(tmp_path, kind):
    make, why = NOT_OURS[kind]
    path = tmp_path / "class.sqlite"
    make(path)
    before = path.read_bytes()
    files = sorted(os.listdir(tmp_path))
    with pytest.raises(StoreError) as refused:
        Store(path)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: not an attention-lab store (")
    assert message.endswith("); move it aside or give another --store")
    assert why in message
    assert path.read_bytes() == before  # nothing written, nothing lost
    assert sorted(os.listdir(tmp_path)) == files  # and nothing left beside it


def test_a_folder_given_as_the_store_is_named_with_the_fix(tmp_path):
    with pytest.raises(StoreError, match=r": is a folder; give a file for --store, such as .*class\.sqlite$"):
        Store(tmp_path)


def test_an_empty_file_becomes_a_store(tmp_path):
    path = tmp_path / "class.sqlite"
    path.touch()
    with Store(path) as store:
        store.record("kim", "02.score", "ko", True, "right", 1, at=T0)
        assert len(store.rows()) == 1


@pytest.mark.parametrize(("values", "error", "match"), [
    ({"ok": "yes"}, TypeError, r"^ok: True, False or None, got 'yes'$"),
    ({"student": ""}, ValueError, r"^student: a non-empty string, got ''$"),
    ({"tries": -1}, ValueError, r"^tries: a whole number >= 0, got -1$"),
    ({"at": datetime.datetime(2026, 12, 7, 9, 0)}, ValueError, r"^at: a datetime with its time zone"),
])
def test_a_bad_verdict_is_refused_and_nothing_is_written(tmp_path, values, error, match):
    verdict = {"student": "kim", "exercise": "02.score", "lang": "ko", "ok": True, "named": "right", "tries": 1,
               "at": T0} | values
    with Store(tmp_path / "class.sqlite") as store:
        with pytest.raises(error, match=match):
            store.record(**verdict)
        assert store.rows() == []


# ---- PostgreSQL: a real server, started here -------------------------------------------------------------------

def _postgres_bin():  # -> the folder of initdb and pg_ctl; the test fails, never skips, without them
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(found)
    for version in sorted(os.listdir("/usr/lib/postgresql"), key=int, reverse=True) if os.path.isdir(
            "/usr/lib/postgresql") else ():
        folder = f"/usr/lib/postgresql/{version}/bin"
        if os.path.exists(f"{folder}/initdb"):
            return folder
    pytest.fail("PostgreSQL is not installed: apt-get install -y postgresql (the store's server test needs it)")


@pytest.fixture
def postgres_url():
    folder = _postgres_bin()
    as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []  # initdb refuses to run as root
    home = tempfile.mkdtemp(prefix="attention-lab-pg-")
    if as_owner:
        shutil.chown(home, "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = os.path.join(home, "data")
    subprocess.run(as_owner + [f"{folder}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
                   check=True, capture_output=True)
    subprocess.run(as_owner + [f"{folder}/pg_ctl", "-D", data, "-w", "-l", os.path.join(home, "log"), "-o",
                               f"-p {port} -k {home} -c listen_addresses=127.0.0.1", "start"],
                   check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(as_owner + [f"{folder}/pg_ctl", "-D", data, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.slow
def test_the_same_store_on_a_postgresql_server(postgres_url):
    with Store(postgres_url) as store:
        store.record("kim", "02.score", "ko", False, "mistake:sqrt_d", 1, at=minutes(0))
        store.record("kim", "02.score", "ko", True, "right", 2, at=minutes(5))
        store.record("kim", "02.score", "ko", False, "not_yet", 3, at=minutes(9))
        store.record("lee", "02.score", "en", True, "right", 1, at=minutes(2))
        store.record("lee", "02.score", "en", False, "not_yet", 0, at=minutes(1))  # arrived late
    with Store(postgres_url) as store:  # reopened: a restart
        assert store.rows() == [
            Record("kim", "02.score", "ko", False, "not_yet", 3, 3, minutes(9), first_right=minutes(5)),
            Record("lee", "02.score", "en", True, "right", 1, 2, minutes(2), first_right=minutes(2)),
        ]
    rows = _written_at_once(postgres_url, ("kim2", "lee2"), 40, delay=1.5)
    assert sum(r.student == "shared" for r in rows) == 40
    assert {r.attempts for r in rows if r.student == "shared"} == {2}
    assert sum(r.student in ("kim2", "lee2") for r in rows) == 80
    from attention_lab.classroom import report  # the report reads the server as it reads a file

    assert report.main(["--store", postgres_url, "--lang", "en"]) == 0


@pytest.mark.slow
def test_a_postgresql_server_that_does_not_answer_is_one_line_without_its_password(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there now
    from attention_lab.classroom import report

    assert report.main(["--store", f"postgresql://kim:hunter2@127.0.0.1:{port}/class", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "hunter2" not in err
    assert err.startswith(f"report: --store postgresql://kim:***@127.0.0.1:{port}/class: cannot connect (")


@pytest.mark.slow
def test_a_postgresql_table_of_another_program_is_refused(postgres_url):
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE TABLE attention_lab_verdicts (x INTEGER)")
    with pytest.raises(StoreError, match=r"^postgresql://postgres@127\.0\.0\.1:\d+/postgres: not an attention-lab "
                                         r"store \(it has a table attention_lab_verdicts without attention_lab_meta\)"):
        Store(postgres_url)


# ---- beyond one machine: the Zero to JupyterHub config (classroom/z2jh) ------------------------------------------
# helm and a cluster are not here: the YAML is read, and each part checked against the code it starts.

Z2JH = ROOT / "classroom" / "z2jh"


def _values():
    return yaml.safe_load((Z2JH / "values.yaml").read_text())


def _collector(values):
    return values["hub"]["services"]["attention-lab-collector"]


def test_the_z2jh_collector_is_started_with_options_the_collector_takes():
    command = _collector(_values())["command"]
    assert command[:3] == ["/opt/attention-lab/bin/python", "-m", "attention_lab.classroom.collector"]
    assert "/opt/attention-lab" in (Z2JH / "hub.Dockerfile").read_text()  # the venv the hub image makes
    given = [word for word in command[3:] if word.startswith("--")]
    helped = subprocess.run([sys.executable, "-m", "attention_lab.classroom.collector", "--help"],
                            capture_output=True, text=True, check=True).stdout
    takes = set(re.findall(r"(--[a-z][a-z-]*)", helped))
    assert [option for option in given if option not in takes] == []


def test_the_z2jh_ports_and_urls_agree_and_name_what_the_client_reads():
    from attention_lab.classroom import client

    values = _values()
    command = _collector(values)["command"]
    port = int(command[command.index("--port") + 1])
    assert _collector(values)["url"] == f"http://hub:{port}"
    assert [(p["port"], p["targetPort"]) for p in values["hub"]["service"]["extraPorts"]] == [(port, port)]
    ingress = values["hub"]["networkPolicy"]["ingress"]
    assert [p["port"] for rule in ingress for p in rule["ports"]] == [port]
    assert ingress[0]["from"][0]["podSelector"]["matchLabels"] == {"hub.jupyter.org/network-access-hub": "true"}
    env = values["singleuser"]["extraEnv"]
    assert env[client.URL] == f"http://hub:{port}/verdict"
    assert env["ATTENTION_LAB_LANG"] in ("ko", "en")


def test_the_z2jh_store_url_comes_from_a_secret_and_reaches_the_collector_s_command(monkeypatch):
    values = _values()
    secret = values["hub"]["extraEnv"]["ATTENTION_LAB_STORE"]["valueFrom"]["secretKeyRef"]
    made = (Z2JH / "values.yaml").read_text() + (Z2JH / "README.md").read_text()
    assert f"create secret generic {secret['name']}" in made and f"--from-literal={secret['key']}=" in made
    assert "postgresql://" not in yaml.safe_dump(values)  # no password in the chart's values
    # The chart turns hub.services into c.JupyterHub.services (its jupyterhub_config.py), then runs extraConfig:
    services = []
    for name, service in copy.deepcopy(values["hub"]["services"]).items():
        service.setdefault("name", name)
        services.append(service)
    c = types.SimpleNamespace(JupyterHub=types.SimpleNamespace(services=services))
    url = "postgresql://attention_lab:secret@db.example.org:5432/attention_lab"
    monkeypatch.setenv("ATTENTION_LAB_STORE", url)  # as hub.extraEnv sets it in the hub's pod
    for code in values["hub"]["extraConfig"].values():
        exec(code, {"c": c})
    command = services[0]["command"]
    assert command[command.index("--store") + 1] == url


def test_the_z2jh_images_are_built_from_the_repository_s_pins_and_python():
    python = re.search(r"^\s*- python=(\d+\.\d+)$", (ROOT / "environment.yml").read_text(), re.M)[1]
    user = (Z2JH / "singleuser.Dockerfile").read_text()
    hub = (Z2JH / "hub.Dockerfile").read_text()
    assert re.search(rf"^FROM python:{re.escape(python)}-", user, re.M)  # Binder's Python
    for dockerfile in (user, hub):
        assert "constraints.txt" in dockerfile
        for source in re.findall(r"^COPY (.+) /srv/\S+$", dockerfile, re.M):
            assert all((ROOT / path).exists() for path in source.split()), source
    assert '"/srv/attention-lab[lab]"' in user and 'CMD ["jupyterhub-singleuser"]' in user
    assert '"/srv/attention-lab-src[classroom-postgres]"' in hub
    # The chart's JupyterHub, in the student's image: a server talks to a hub of its own version.
    chart = re.search(r"--version (\d+\.\d+\.\d+)", (Z2JH / "values.yaml").read_text())[1]
    assert f"ARG CHART_VERSION={chart}" in hub
    hub_version = re.search(r"Chart \S+ runs JupyterHub (\d+\.\d+\.\d+)", (Z2JH / "values.yaml").read_text())[1]
    assert f"ARG JUPYTERHUB_VERSION={hub_version}" in user
    # The notebooks the postStart hook copies are where the image puts them.
    hook = " ".join(_values()["singleuser"]["lifecycleHooks"]["postStart"]["exec"]["command"])
    assert "/srv/attention-lab/notebooks/$ATTENTION_LAB_LANG/*.ipynb" in hook
    assert "COPY notebooks /srv/attention-lab/notebooks" in user
    assert list((ROOT / "notebooks" / _values()["singleuser"]["extraEnv"]["ATTENTION_LAB_LANG"]).glob("*.ipynb"))
