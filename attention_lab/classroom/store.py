"""The instructor's store of verdicts: one row per (student, exercise), the latest verdict, on disk.

A SQLite file on one machine (WAL mode: the collector writes while the report reads), or a PostgreSQL
server through psycopg (`pip install 'attention-lab[classroom-postgres]'`) for a hub beyond one machine; the
same SQL for both. A student re-running an exercise updates their row (its attempts counted, the first time it
was right kept); a restart of the hub reopens the same rows.

A file that is not a store of ours (corrupt, another program's database, a newer schema) is refused with a
`StoreError` naming it, and is never written to: the store is opened read-only to be checked first.

    store = Store("class.sqlite")                       # or Store("postgresql://user@host/db")
    store.record("kim", "02.score", "ko", False, "mistake:sqrt_d", tries=1)
    store.rows()                                        # -> [Record(student='kim', exercise='02.score', …)]
"""

import datetime
import os
import pathlib
import re
import sqlite3
from dataclasses import dataclass

SCHEMA = 1  # the version of the tables below; a store of a newer one is refused, not guessed at
MARK = "attention-lab classroom store"
_META = "attention_lab_meta"
_TABLE = "attention_lab_verdicts"
_TIMEOUT = 30  # seconds a writer waits for another writer's lock before giving up

_CREATE = (
    f"CREATE TABLE IF NOT EXISTS {_META} (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    f"""CREATE TABLE IF NOT EXISTS {_TABLE} (
        student TEXT NOT NULL,
        exercise TEXT NOT NULL,
        lang TEXT NOT NULL,
        ok INTEGER,              -- 1 right, 0 wrong, NULL no answer yet
        named TEXT NOT NULL,     -- what the verdict named: 'right', 'mistake:sqrt_d', 'not_yet', ...
        tries INTEGER NOT NULL,  -- the tries the student's notebook counted
        attempts INTEGER NOT NULL,  -- the verdicts this store received for the pair
        at TEXT NOT NULL,        -- the latest verdict's time, ISO 8601 in UTC (sorts as text)
        first_right TEXT,        -- the first time it was right, or NULL
        PRIMARY KEY (student, exercise))""",
)
_FIELDS = ("lang", "ok", "named", "tries", "at")  # what the latest verdict replaces
_LATEST = ", ".join(f"{f} = CASE WHEN excluded.at >= {_TABLE}.at THEN excluded.{f} ELSE {_TABLE}.{f} END"
                    for f in _FIELDS)
# An upsert: a verdict that arrives late (two cells run at once) does not replace a newer one, but is counted.
_UPSERT = f"""INSERT INTO {_TABLE} (student, exercise, lang, ok, named, tries, attempts, at, first_right)
    VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)
    ON CONFLICT (student, exercise) DO UPDATE SET {_LATEST},
        attempts = {_TABLE}.attempts + 1,
        first_right = CASE WHEN {_TABLE}.first_right IS NULL OR excluded.first_right < {_TABLE}.first_right
                           THEN COALESCE(excluded.first_right, {_TABLE}.first_right)
                           ELSE {_TABLE}.first_right END"""
_SELECT = (f"SELECT student, exercise, lang, ok, named, tries, attempts, at, first_right FROM {_TABLE} "
           "ORDER BY student, exercise")


class StoreError(Exception):
    """A store that cannot be used: its message is one line naming it and what to do. `kind` says which problem
    it is ("not_ours", "folder", "cannot_open", "no_psycopg", "cannot_connect"), `where` names the store and
    `why` is the detail (SQLite's or the server's words), so a report can say it in the edition's language."""

    def __init__(self, message, kind, where, why=""):
        super().__init__(message)
        self.kind, self.where, self.why = kind, where, why


@dataclass(frozen=True)
class Record:
    student: str
    exercise: str  # "02.score"
    lang: str  # the edition the student answered in, "ko" or "en"
    ok: object  # True, False, or None (no answer yet)
    named: str  # "right", "unanswered", "mistake:<name>", "mistake:#2", or a word key ("not_yet", …)
    tries: int  # as the student's notebook counted them
    attempts: int  # the verdicts received for this (student, exercise)
    at: datetime.datetime  # the latest verdict's time (UTC)
    first_right: object = None  # datetime of the first right verdict, or None


def _stamp(at):  # datetime / None (now) -> "2026-12-06T21:40:00.000000+00:00"
    if at is None:
        at = datetime.datetime.now(datetime.timezone.utc)
    if not isinstance(at, datetime.datetime):
        raise TypeError(f"at: a datetime.datetime, got {type(at).__name__}")
    if at.tzinfo is None:
        raise ValueError("at: a datetime with its time zone (datetime.now(timezone.utc)), got a naive one")
    return at.astimezone(datetime.timezone.utc).isoformat(timespec="microseconds")


def _time(text):  # the stored text -> datetime, or None
    return None if text is None else datetime.datetime.fromisoformat(text)


def _ok(ok):  # True/False/None -> 1/0/NULL
    if ok is not None and not isinstance(ok, bool):
        raise TypeError(f"ok: True, False or None, got {ok!r:.40}")
    return None if ok is None else int(ok)


def _hidden(url):  # a URL with its password replaced, for messages
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", url)


class Store:
    """The verdicts of a class: `Store(path)` for a SQLite file (created if missing), `Store("postgresql://…")`
    for a PostgreSQL server. Raises StoreError for a store that is corrupt or not ours, and leaves it as it is."""

    def __init__(self, path_or_url):
        target = os.fspath(path_or_url)
        self.postgres = target.startswith(("postgresql://", "postgres://"))
        self.where = _hidden(target) if self.postgres else target
        self._db = self._open_postgres(target) if self.postgres else self._open_sqlite(target)
        try:
            self._mine()
        except BaseException:
            self._db.close()  # SQLite: the last connection closed takes its -wal and -shm files with it
            raise

    # ---- opening --------------------------------------------------------------------------------------------
    def _refuse(self, why):
        raise StoreError(f"{self.where}: not an attention-lab store ({why}); move it aside or give another --store",
                         "not_ours", self.where, why)

    def _open_sqlite(self, path):
        if os.path.isdir(path):
            example = os.path.join(path, "class.sqlite")
            raise StoreError(f"{path}: is a folder; give a file for --store, such as {example}", "folder", path,
                             example)
        if os.path.exists(path):
            self._check_sqlite(path)  # read-only: a file that is not ours is never written to
        try:
            db = sqlite3.connect(path, timeout=_TIMEOUT, isolation_level=None)  # autocommit; transactions by hand
            db.execute("PRAGMA journal_mode=WAL")  # readers do not block the writer, nor it them
            db.execute("PRAGMA synchronous=NORMAL")  # safe in WAL mode: a crash loses at most the last commit
        except sqlite3.Error as e:
            raise StoreError(f"{path}: cannot be opened as a store ({e}); check that its folder exists and is "
                             "writable", "cannot_open", path, str(e)) from e
        return db

    def _check_sqlite(self, path):
        with open(path, "rb") as f:
            head = f.read(16)
        if head and head != b"SQLite format 3\x00":
            self._refuse("not an SQLite file")
        if not head:
            return  # an empty file: a new store
        # Reading a WAL-mode file makes its -wal and -shm files; a file refused gets none of ours left beside it.
        beside = [path + end for end in ("-wal", "-shm") if not os.path.exists(path + end)]
        try:
            self._check_sqlite_tables(path)
        except StoreError:
            for made in beside:
                if os.path.exists(made):
                    os.remove(made)
            raise

    def _check_sqlite_tables(self, path):
        try:
            db = sqlite3.connect(pathlib.Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=_TIMEOUT)
            try:
                check = db.execute("PRAGMA quick_check").fetchone()[0]
                tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            finally:
                db.close()
        except sqlite3.Error as e:
            self._refuse(f"SQLite cannot read it: {e}")
        if check != "ok":
            self._refuse(f"SQLite finds it corrupt: {check}")
        if tables and _META not in tables:
            self._refuse("its tables are " + ", ".join(sorted(tables)))

    def _open_postgres(self, url):
        try:
            import psycopg
        except ImportError:
            raise StoreError(f"{self.where}: a PostgreSQL store needs psycopg; "
                             "pip install 'attention-lab[classroom-postgres]'", "no_psycopg", self.where) from None
        try:
            return psycopg.connect(url, autocommit=True, connect_timeout=_TIMEOUT)
        except psycopg.Error as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise StoreError(f"{self.where}: cannot connect ({first}); check the URL and that the server runs",
                             "cannot_connect", self.where, first) from e

    def _mine(self):  # an old store: check it is ours, reading only; a new one: make its tables
        with self._transaction(write=False):  # a reader (the report) takes no lock a writer holds
            meta = self._meta()
        if meta is None:
            with self._transaction(write=True):
                if self.postgres:  # two collectors starting at once: one makes the tables, the other waits
                    self._run("SELECT pg_advisory_xact_lock(4747)")
                meta = self._meta()  # made meanwhile by another?
                if meta is None:
                    if self._has(_TABLE):  # a server database may hold other tables, not a verdicts table of another
                        self._refuse(f"it has a table {_TABLE} without {_META}")
                    for statement in _CREATE:
                        self._run(statement)
                    self._run(f"INSERT INTO {_META} (key, value) VALUES ('store', ?), ('schema', ?)",
                              (MARK, str(SCHEMA)))
                    meta = {"store": MARK, "schema": str(SCHEMA)}
        if meta.get("store") != MARK:
            self._refuse(f"its {_META} says {meta.get('store')!r}")
        if not str(meta.get("schema", "")).isdigit() or int(meta["schema"]) > SCHEMA:
            self._refuse(f"schema {meta.get('schema')!r}, made by a newer attention-lab than this one "
                         f"(schema {SCHEMA})")

    def _meta(self):  # -> {key: value} of the store's own table, or None when there is none
        return dict(self._run(f"SELECT key, value FROM {_META}").fetchall()) if self._has(_META) else None

    def _has(self, table):  # -> is there a table of this name
        if self.postgres:
            return self._run("SELECT to_regclass(?) IS NOT NULL", (table,)).fetchone()[0]
        return self._run("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?",
                         (table,)).fetchone()[0] > 0

    # ---- the same SQL for both -----------------------------------------------------------------------------
    def _run(self, sql, values=()):
        if self.postgres:
            sql = sql.replace("?", "%s")  # psycopg's placeholder; our SQL has no other '?' or '%'
        return self._db.execute(sql, values)

    def _transaction(self, write=True):
        return _Transaction(self, write)

    # ---- the API ----------------------------------------------------------------------------------------------
    def record(self, student, exercise, lang, ok, named, tries, at=None):
        """Keep one verdict: the (student, exercise) row is made, or updated if the verdict is the latest."""
        for name, value in (("student", student), ("exercise", exercise), ("lang", lang), ("named", named)):
            if not isinstance(value, str) or (name != "named" and not value):
                raise ValueError(f"{name}: a non-empty string, got {value!r:.40}")
        if isinstance(tries, bool) or not isinstance(tries, int) or tries < 0:
            raise ValueError(f"tries: a whole number >= 0, got {tries!r:.40}")
        stamp, state = _stamp(at), _ok(ok)
        with self._transaction():
            self._run(_UPSERT, (student, exercise, lang, state, named, tries, stamp, stamp if ok is True else None))

    def rows(self):  # -> [Record], by student then exercise
        """Every (student, exercise) row, as it is now."""
        return [Record(student, exercise, lang, None if ok is None else bool(ok), named, tries, attempts,
                       _time(at), _time(first_right))
                for student, exercise, lang, ok, named, tries, attempts, at, first_right
                in self._run(_SELECT).fetchall()]

    def close(self):
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"Store({self.where!r})"


class _Transaction:
    """BEGIN … COMMIT (ROLLBACK on an error). A write in SQLite begins IMMEDIATE, taking the write lock at once,
    so two writers queue (for up to _TIMEOUT seconds) instead of failing halfway; a read takes none."""

    def __init__(self, store, write):
        self.store, self.write = store, write

    def __enter__(self):
        self.store._run("BEGIN IMMEDIATE" if self.write and not self.store.postgres else "BEGIN")

    def __exit__(self, kind, value, traceback):
        self.store._run("COMMIT" if kind is None else "ROLLBACK")
