"""The class report: per exercise, how many students are right and what the others were told; per student, the
exercises not right yet and what they were told last there. In the edition's language, as a table on the
terminal, a CSV file and a page.

    python -m attention_lab.classroom report                                  # the hub's store, in Korean
    python -m attention_lab.classroom report --store class.sqlite --lang en --csv class.csv --html class.html

    from attention_lab.classroom import report, store
    summary = report.summarize(store.Store("class.sqlite").rows(), "ko")
    report.to_csv(summary, "class.csv"); page = report.to_html(summary, "ko")

The store keeps each student's latest verdict per exercise (store.py), so the counts are of where the class
is now: a student who was told "mask with 0" and then got it right counts as right only.

What a verdict named (Feedback.named) is shown by its label: a known mistake by its word "slip.<name>"
(look/words/slips.py), a generic key by "named.<key>" (look/words/classroom.py), a mistake without a name
("mistake:#2") by its place and the first clause of its hint, and a key this version does not know by itself.
"""

import argparse
import collections
import csv
import datetime
import html
import io
import os
import pathlib
import re
import sys
from dataclasses import dataclass

import matplotlib
from matplotlib.figure import Figure

from .. import exercises as ex
from ..look import words
from ..numeric import checks
from .store import Store, StoreError

DEFAULT_STORE = os.path.join("classroom-state", "class.sqlite")  # where `python -m attention_lab.classroom up` keeps it
RIGHT = "right"
RIGHT_COLOR, SLIP_COLOR = "#009E73", "#D55E00"  # Okabe–Ito green and vermilion: told apart by colour-blind readers


@dataclass(frozen=True)
class Count:
    key: str  # what the verdicts named: "right", "mistake:sqrt_d", "not_yet", …
    label: str  # that, in words, for a table
    short: str  # that, in the package's own words only, for a plot (its font holds those)
    count: int  # students whose latest verdict named it
    students: tuple  # who, sorted


@dataclass(frozen=True)
class ExerciseRow:
    exercise: str
    task: str  # what the exercise asks, in the edition's language ("" for an exercise this version lacks)
    right: int
    total: int  # students who checked it
    counts: tuple  # Count, …: "right" first, then the most named first


@dataclass(frozen=True)
class Stuck:
    exercise: str
    key: str
    label: str
    checks: int  # how many times the student checked it (the verdicts the store received)


@dataclass(frozen=True)
class StudentRow:
    student: str
    right: int
    tried: int
    stuck: tuple  # Stuck, … in the exercises' order


@dataclass(frozen=True)
class Summary:
    lang: str
    exercises: tuple  # ExerciseRow, … in the notebooks' order
    students: tuple  # StudentRow, … by name


# ---- labels ---------------------------------------------------------------------------------------------------

def _first_clause(text, limit=70):  # "That is d; one head takes …" -> "That is d"
    clause = re.split(r"[;:.。](?:\s|$)", text.strip(), maxsplit=1)[0].strip()
    return clause if len(clause) <= limit else clause[:limit - 1].rstrip() + "…"


def label(key, exercise_id, lang):  # -> (label for a table, label for a plot)
    """What a verdict's key means, in `lang`. Never raises for a key it does not know: it shows the key."""
    table = words.table(lang)
    if f"named.{key}" in table:
        return table[f"named.{key}"], table[f"named.{key}"]
    if not key.startswith("mistake:"):
        return key, ascii(key)[1:-1]  # from a newer version, perhaps: shown as it came
    name = key.removeprefix("mistake:")
    if f"slip.{name}" in table:
        return table[f"slip.{name}"], table[f"slip.{name}"]
    exercise = ex.EXERCISES.get(exercise_id)
    mistakes = exercise.mistakes if exercise else ()
    if re.fullmatch(r"#[1-9][0-9]*", name):
        n = int(name[1:])
        place = words.say("report.mistake_n", lang, n=n)
        if n <= len(mistakes):
            return f"{place}: {_first_clause(mistakes[n - 1].hint[lang])}", place
        return place, place
    named = [m for m in mistakes if name and m.name == name]
    if named:  # a mistake named in its bank but without a word yet: its hint says what it is
        return _first_clause(named[0].hint[lang]), ascii(name)[1:-1]
    return key, ascii(key)[1:-1]


# ---- the summary ----------------------------------------------------------------------------------------------

def _exercise_order(exercise_id):  # the notebooks' order; exercises this version lacks after them, by id
    order = list(ex.EXERCISES)
    return (0, order.index(exercise_id), "") if exercise_id in ex.EXERCISES else (1, 0, exercise_id)


def summarize(records, lang):  # -> Summary
    """The report's numbers from the store's rows (store.Record: one per student and exercise)."""
    lang = checks.lang(lang)
    by_exercise, by_student = collections.defaultdict(list), collections.defaultdict(list)
    for record in records:
        by_exercise[record.exercise].append(record)
        by_student[record.student].append(record)
    exercises = []
    for exercise_id in sorted(by_exercise, key=_exercise_order):
        rows = by_exercise[exercise_id]
        named = collections.defaultdict(list)
        for r in rows:
            named[RIGHT if r.ok is True else r.named].append(r.student)
        keys = sorted(named, key=lambda k: (k != RIGHT, -len(named[k]), k))
        counts = tuple(Count(k, *label(k, exercise_id, lang), len(named[k]), tuple(sorted(named[k]))) for k in keys)
        known = ex.EXERCISES.get(exercise_id)
        exercises.append(ExerciseRow(exercise_id, known.task[lang] if known else "", len(named.get(RIGHT, ())),
                                     len(rows), counts))
    students = []
    for student in sorted(by_student):
        rows = sorted(by_student[student], key=lambda r: _exercise_order(r.exercise))
        stuck = tuple(Stuck(r.exercise, r.named, label(r.named, r.exercise, lang)[0], r.attempts)
                      for r in rows if r.ok is not True)
        students.append(StudentRow(student, len(rows) - len(stuck), len(rows), stuck))
    return Summary(lang, tuple(exercises), tuple(students))


# ---- CSV ------------------------------------------------------------------------------------------------------

CSV_COLUMNS = ("exercise", "task", "verdict", "key", "count", "checked", "students")


def _cell(value):  # a text that a spreadsheet would run as a formula (a student named "=1+1") stays text
    return "'" + value if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def csv_rows(summary):  # -> [header, row, …]: one row per exercise and verdict named
    header = [words.say(f"report.col_{c}", summary.lang) for c in CSV_COLUMNS]
    rows = [[e.exercise, e.task, c.label, c.key, c.count, e.total, ", ".join(c.students)]
            for e in summary.exercises for c in e.counts]
    return [header] + [[_cell(v) for v in row] for row in rows]


def to_csv(summary, path):  # -> path
    """The report as one table: a row per exercise and verdict, with the students it names. UTF-8 with a BOM and
    CRLF line ends, so LibreOffice Calc and Excel open its Korean as Korean."""
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows(csv_rows(summary))
    return path


# ---- the plot and the page -------------------------------------------------------------------------------------

def plot_counts(ax, row, lang):  # -> [artists]: the bars and their numbers
    """One exercise's bar chart: for each verdict named, how many students got it last ("right" in green)."""
    from ..figures.heatmap import font_family

    family = font_family(lang)
    y = list(range(len(row.counts)))
    bars = ax.barh(y, [c.count for c in row.counts], color=[RIGHT_COLOR if c.key == RIGHT else SLIP_COLOR
                                                            for c in row.counts])
    ax.set_yticks(y, [c.short for c in row.counts], fontfamily=family)
    ax.invert_yaxis()  # "right" on top, then the most named
    ax.set_xlim(0, max(row.total, 1) * 1.12)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_xlabel(words.say("report.students_axis", lang), fontfamily=family)
    ax.spines[["top", "right"]].set_visible(False)
    texts = [ax.text(c.count, i, f" {c.count}", va="center", fontfamily=family) for i, c in enumerate(row.counts)]
    return [bars, *texts]


def plot_svg(row, lang):  # -> str: the bar chart as an <svg> element
    fig = Figure(figsize=(6.4, 0.9 + 0.32 * len(row.counts)), layout="constrained")
    plot_counts(fig.add_subplot(), row, lang)
    svg = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": row.exercise}):  # outlines: no font needed
        fig.savefig(svg, format="svg")
    text = svg.getvalue()
    return text[text.index("<svg"):]


_STYLE = """body{font-family:system-ui,'Noto Sans KR','Malgun Gothic','Apple SD Gothic Neo',sans-serif;margin:2rem;
max-width:60rem;color:#111}table{border-collapse:collapse;margin:.5rem 0 1rem}th,td{border:1px solid #bbb;
padding:.25rem .5rem;text-align:left;vertical-align:top}td.n{text-align:right}section{margin-bottom:2rem}
figure{margin:0}svg{max-width:40rem;width:100%;height:auto}code{font-size:.95em}td ul{margin:0;padding-left:1.1rem}"""


def _table(header, rows, numeric=(), markup=()):  # the columns in `markup` hold HTML, the others text
    e = html.escape

    def cell(i, v):
        return f'<td class="n">{v}</td>' if i in numeric else f"<td>{v if i in markup else e(str(v))}</td>"

    head = "".join(f'<th scope="col">{e(h)}</th>' for h in header)
    body = "".join("<tr>" + "".join(cell(i, v) for i, v in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _stuck_list(student, lang):  # -> HTML: one item per exercise not right yet, linked to its section
    e = html.escape
    items = "".join(f'<li><a href="#ex-{e(x.exercise)}"><code>{e(x.exercise)}</code></a> {e(x.label)} '
                    f"({e(words.say('report.checks', lang, n=x.checks))})</li>" for x in student.stuck)
    return f"<ul>{items}</ul>" if items else e(words.say("report.all_right", lang))


def _stuck_text(student, lang):  # "04.mask4: known mistake #1 (checked 3 times); …", or "all right"
    return "; ".join(f"{x.exercise}: {x.label} ({words.say('report.checks', lang, n=x.checks)})"
                     for x in student.stuck) or words.say("report.all_right", lang)


def to_html(summary, lang=None, store="", when=None):  # -> str: a page that needs no other file
    """The report as one self-contained page: per exercise its counts and bar chart, then per student."""
    lang = checks.lang(lang or summary.lang)
    say, e = (lambda key, **v: words.say(key, lang, **v)), html.escape
    when = when or datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")
    made = say("report.made", store=store or "—", when=when, students=len(summary.students),
               exercises=len(summary.exercises))
    parts = [f"<h1>{e(say('report.title'))}</h1>", f"<p>{e(made)}</p>"]
    if not summary.exercises:
        parts.append(f"<p>{e(say('report.empty', store=store or '—'))}</p>")
    else:
        parts.append(f"<h2>{e(say('report.by_exercise'))}</h2>")
    for row in summary.exercises:
        table = _table([say("report.col_verdict"), say("report.col_count"), say("report.col_students")],
                       [(c.label, c.count, ", ".join(c.students)) for c in row.counts], numeric=(1,))
        alt = e(say("report.plot_alt", exercise=row.exercise))
        parts.append(f'<section id="ex-{e(row.exercise)}"><h3><code>{e(row.exercise)}</code> {e(row.task)}</h3>'
                     f"<p>{e(say('report.right_of', right=row.right, total=row.total))}</p>{table}"
                     f'<figure role="img" aria-label="{alt}">{plot_svg(row, lang)}</figure></section>')
    if summary.students:
        parts.append(f"<h2>{e(say('report.by_student'))}</h2>")
        rows = [(s.student, f"{s.right} / {s.tried}", _stuck_list(s, lang)) for s in summary.students]
        parts.append(_table([say("report.col_student"), say("report.col_right"), say("report.col_stuck")], rows,
                            markup=(2,)))
    return (f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(say('report.title'))}</title><style>{_STYLE}</style></head>"
            f"<body><main>{''.join(parts)}</main></body></html>\n")


def to_text(summary):  # -> str: the report on a terminal
    say = lambda key, **v: words.say(key, summary.lang, **v)  # noqa: E731
    lines = []
    for row in summary.exercises:
        lines.append(f"{row.exercise}  {row.task}  — {say('report.right_of', right=row.right, total=row.total)}")
        lines += [f"    {c.count:>3}  {c.label}" for c in row.counts if c.key != RIGHT]
    if summary.students:
        lines.append(say("report.by_student"))
        for s in summary.students:
            lines.append(f"    {s.student}  {s.right}/{s.tried}  {_stuck_text(s, summary.lang)}")
    return "\n".join(lines)


# ---- the command ------------------------------------------------------------------------------------------------

class _Refused(Exception):
    """A bad command line or store: one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse would print its usage too: one line is enough
        raise _Refused(message)


def _parser():
    parser = _Parser(prog="python -m attention_lab.classroom report",
                     description="The class's verdicts: per exercise and per student, as text, CSV or a page.")
    parser.add_argument("--store", default=DEFAULT_STORE,
                        help=f"the collector's store: a SQLite file or a postgresql:// URL (default {DEFAULT_STORE})")
    parser.add_argument("--lang", default="ko", help="the edition's language: ko or en (default ko)")
    parser.add_argument("--csv", help="also write the report as CSV to this file (UTF-8, for Calc and Excel)")
    parser.add_argument("--html", help="also write the report as a page to this file")
    return parser


def _records(target, lang):  # -> (where, [Record]), or _Refused in the edition's language
    if not target.startswith(("postgresql://", "postgres://")) and not os.path.exists(target):
        raise _Refused(words.say("report.no_store", lang, store=target))
    try:
        with Store(target) as store:
            return store.where, store.rows()
    except StoreError as error:
        raise _Refused(words.say(f"report.store_{error.kind}", lang, store=error.where, why=error.why)) from None


def _write(option, path, write, lang):
    try:
        write(path)
    except OSError as error:
        raise _Refused(words.say("report.cannot_write", lang, option=option, path=path,
                                 why=error.strerror or error)) from None


def _run(args):
    where, records = _records(args.store, args.lang)
    summary = summarize(records, args.lang)
    if args.csv:
        _write("--csv", args.csv, lambda path: to_csv(summary, path), args.lang)
    if args.html:
        page = to_html(summary, args.lang, store=where)
        _write("--html", args.html, lambda path: pathlib.Path(path).write_text(page, encoding="utf-8"), args.lang)
    print(to_text(summary) or words.say("report.empty", args.lang, store=where))
    for path in (args.csv, args.html):
        if path:
            print(words.say("report.wrote", args.lang, path=path))


def main(argv=None):  # -> exit status: 0, 2 (bad input, one line on stderr) or 130 (Ctrl-C)
    """`python -m attention_lab.classroom report …` (the package's __main__ passes what follows `report`)."""
    lang = "en"  # until --lang is read
    try:
        args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
        if args.lang not in words.LANGS:
            raise _Refused(f"--lang {args.lang}: no such edition; give --lang ko or --lang en")
        lang = args.lang
        _run(args)
    except SystemExit as exit_:  # --help has been printed
        return int(exit_.code or 0)
    except _Refused as error:
        print(f"report: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"report: {words.say('report.interrupted', lang)}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped reading (| head): the files asked for are written already
        _silence_stdout()
    return 0


def _silence_stdout():  # stdout to the null device, so that Python's flush at exit does not fail on it again
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # not a file descriptor (captured in a test)
        pass


if __name__ == "__main__":
    sys.exit(main())
