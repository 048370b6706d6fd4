"""The class report (attention_lab.classroom.report): its counts against a class built by hand, every key a verdict
can name shown in words, the CSV read back as a spreadsheet would (BOM, Korean headers), the page and its plots,
and the command's bad input (one line, exit 2, the store untouched)."""

import csv
import datetime
import html.parser
import os
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

import pytest
from matplotlib.figure import Figure

from attention_lab import exercises as ex
from attention_lab.classroom import report
from attention_lab.classroom.store import Record, Store
from attention_lab.exercises.judge import named_key
from attention_lab.look import words

T0 = datetime.datetime(2026, 12, 7, 9, 0, tzinfo=datetime.timezone.utc)
PACKAGE = pathlib.Path(ex.__file__).parent


def rec(student, exercise, ok, named):
    return Record(student, exercise, "ko", ok, named, 1, 1, T0, T0 if ok else None)


# A class of five, by hand: what each student was told last on each exercise.
CLASS = [
    rec("kim", "02.score", True, "right"),
    rec("lee", "02.score", False, "mistake:#2"),
    rec("park", "02.score", False, "not_yet"),
    rec("choi", "02.score", True, "right"),
    rec("jung", "02.score", None, "unanswered"),
    rec("kim", "04.mask4", False, "mistake:#1"),
    rec("lee", "04.mask4", False, "mistake:#1"),
    rec("park", "04.mask4", True, "right"),
    rec("kim", "00.dh", True, "right"),
    rec("kim", "99.future", False, "from_a_newer_version"),
]
# … and what the report must say of it, counted by hand.
BY_EXERCISE = {  # exercise: (right, total, {key: students})
    "00.dh": (1, 1, {"right": ("kim",)}),
    "02.score": (2, 5, {"right": ("choi", "kim"), "mistake:#2": ("lee",), "not_yet": ("park",),
                        "unanswered": ("jung",)}),
    "04.mask4": (1, 3, {"mistake:#1": ("kim", "lee"), "right": ("park",)}),
    "99.future": (0, 1, {"from_a_newer_version": ("kim",)}),
}
BY_STUDENT = {  # student: (right, tried, [(exercise, key) not right yet, in the notebooks' order])
    "choi": (1, 1, []),
    "jung": (0, 1, [("02.score", "unanswered")]),
    "kim": (2, 4, [("04.mask4", "mistake:#1"), ("99.future", "from_a_newer_version")]),
    "lee": (0, 2, [("02.score", "mistake:#2"), ("04.mask4", "mistake:#1")]),
    "park": (1, 2, [("02.score", "not_yet")]),
}


def test_the_summary_counts_what_the_class_built_by_hand_says():
    summary = report.summarize(CLASS, "en")
    assert [e.exercise for e in summary.exercises] == ["00.dh", "02.score", "04.mask4", "99.future"]
    for row in summary.exercises:
        right, total, named = BY_EXERCISE[row.exercise]
        assert (row.right, row.total) == (right, total), row.exercise
        assert {c.key: c.students for c in row.counts} == named, row.exercise
        assert all(c.count == len(c.students) for c in row.counts)
        assert [c.key for c in row.counts][0] == ("right" if "right" in named else [c.key for c in row.counts][0])
        assert [c.count for c in row.counts[1:] if c.key != "right"] == sorted(
            (c.count for c in row.counts[1:] if c.key != "right"), reverse=True)  # the most named first
    assert [s.student for s in summary.students] == sorted(BY_STUDENT)
    for s in summary.students:
        right, tried, stuck = BY_STUDENT[s.student]
        assert (s.right, s.tried, [(x.exercise, x.key) for x in s.stuck]) == (right, tried, stuck), s.student


def test_an_exercise_is_shown_with_its_task_in_the_editions_language():
    for lang in ("ko", "en"):
        row = report.summarize(CLASS, lang).exercises[1]
        assert row.task == ex.get("02.score").task[lang]


def test_the_store_s_rows_give_the_same_summary(tmp_path):
    with Store(tmp_path / "class.sqlite") as store:
        for r in CLASS:
            store.record(r.student, r.exercise, r.lang, r.ok, r.named, r.tries, at=r.at)
        rows = store.rows()
    assert report.summarize(rows, "ko") == report.summarize(CLASS, "ko")


def test_a_student_re_running_an_exercise_counts_once_with_every_check_counted(tmp_path):
    with Store(tmp_path / "class.sqlite") as store:
        for minute, named in enumerate(["mistake:#1", "not_yet", "mistake:#1"]):
            store.record("kim", "04.mask4", "en", False, named, minute + 1, at=T0 + datetime.timedelta(minutes=minute))
        store.record("lee", "04.mask4", "en", True, "right", 1, at=T0)
        summary = report.summarize(store.rows(), "en")
    (row,) = summary.exercises
    assert (row.right, row.total) == (1, 2)
    assert {c.key: c.count for c in row.counts} == {"right": 1, "mistake:#1": 1}  # kim's last verdict, once
    kim = summary.students[0]
    assert [(x.exercise, x.key, x.checks) for x in kim.stuck] == [("04.mask4", "mistake:#1", 3)]


# ---- labels ---------------------------------------------------------------------------------------------------

def _generic_keys():  # every word key a verdict can name, read from the judge's sources (not from the report)
    keys = set()
    for module, pattern in (("read.py", r'Problem\("(\w+)"'), ("slips.py", r'Slip\("(\w+)"'),
                            ("judge.py", r'named="(\w+)"')):
        keys |= set(re.findall(pattern, (PACKAGE / module).read_text()))
    return keys


def test_every_generic_key_a_verdict_names_has_a_label_in_both_languages():
    keys = _generic_keys()
    assert {"not_yet", "only_here", "wrong_shape", "forbidden", "slip_matmul", "nan", "text"} <= keys  # it reads them
    missing = sorted(k for k in keys if f"named.{k}" not in words.WORDS)
    assert missing == []
    for k in keys:
        ko, en = words.WORDS[f"named.{k}"]
        assert report.label(k, "02.score", "ko")[0] == ko and report.label(k, "02.score", "en")[0] == en


@pytest.mark.parametrize("exercise_id", list(ex.EXERCISES))
def test_every_known_mistake_is_shown_in_words_never_as_its_key(exercise_id):
    exercise = ex.get(exercise_id)
    for mistake in exercise.mistakes:
        key = named_key(exercise, mistake)
        for lang in ("ko", "en"):
            text, short = report.label(key, exercise_id, lang)
            assert key not in text and text.strip()
            if mistake.name and f"slip.{mistake.name}" in words.WORDS:  # its word, the same on every exercise
                assert text == short == words.say(f"slip.{mistake.name}", lang)
            else:  # its place, or its hint's first clause
                assert mistake.hint[lang].startswith(text.split(": ", 1)[-1].rstrip("…"))


def test_a_mistake_without_a_name_is_shown_by_its_place_and_the_first_clause_of_its_hint():
    hint = ex.get("02.score").mistakes[1].hint
    text, short = report.label("mistake:#2", "02.score", "en")
    assert short == "known mistake #2"
    assert text.startswith("known mistake #2: ") and hint["en"].startswith(text.removeprefix("known mistake #2: "))
    assert hint["en"][len(text) - len("known mistake #2: ")] in ";:."  # cut at the clause's end
    text, short = report.label("mistake:#2", "02.score", "ko")
    assert short == "알려진 실수 #2" and hint["ko"].startswith(text.removeprefix("알려진 실수 #2: "))


@pytest.mark.parametrize(("key", "exercise_id"), [("from_a_newer_version", "02.score"), ("mistake:#99", "02.score"),
                                                  ("mistake:#3", "99.future"), ("mistake:no_such", "02.score"),
                                                  ("mistake:", "02.score"), ("", "02.score"), ("한글키", "02.score")])
def test_a_key_this_version_does_not_know_is_shown_as_it_came_never_a_traceback(key, exercise_id):
    for lang in ("ko", "en"):
        text, short = report.label(key, exercise_id, lang)
        if key.startswith("mistake:#"):  # a place past the exercise's mistakes, or an exercise this version lacks
            assert text == short == words.say("report.mistake_n", lang, n=int(key.removeprefix("mistake:#")))
        else:
            assert text == key and short.isascii()  # a plot draws it in a font that holds it


# ---- CSV ------------------------------------------------------------------------------------------------------

def test_the_csv_reads_back_with_its_bom_korean_headers_and_the_counts(tmp_path):
    path = tmp_path / "class.csv"
    report.to_csv(report.summarize(CLASS, "ko"), path)
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM: Excel reads the file as UTF-8
    assert raw.count(b"\r\n") == raw.count(b"\n")  # CRLF, as spreadsheets write CSV
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["연습", "과제", "결과", "키", "학생 수", "확인한 학생 수", "학생"]
    got = {(r[0], r[3]): (int(r[4]), int(r[5]), tuple(r[6].split(", "))) for r in rows[1:]}
    expected = {(e, key): (len(who), total, who) for e, (_, total, named) in BY_EXERCISE.items()
                for key, who in named.items()}
    assert got == expected
    labels = {(r[0], r[3]): r[2] for r in rows[1:]}
    assert labels[("02.score", "right")] == "맞음" and labels[("02.score", "not_yet")] == "그 밖의 오답"


def test_the_csv_speaks_english_in_the_english_edition(tmp_path):
    path = tmp_path / "class.csv"
    report.to_csv(report.summarize(CLASS, "en"), path)
    with open(path, encoding="utf-8-sig", newline="") as f:
        header, *rows = list(csv.reader(f))
    assert header == ["exercise", "task", "verdict", "key", "students", "students who checked it", "who"]
    assert ["02.score", ex.get("02.score").task["en"], "another wrong answer", "not_yet", "1", "5", "park"] in rows


def test_a_student_name_a_spreadsheet_would_run_as_a_formula_stays_text(tmp_path):
    path = tmp_path / "class.csv"
    report.to_csv(report.summarize([rec("=HYPERLINK(1)", "02.score", True, "right")], "en"), path)
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[1][6] == "'=HYPERLINK(1)"


# ---- the plot and the page -------------------------------------------------------------------------------------

def test_the_plot_takes_an_ax_and_returns_its_bars_with_the_counts():
    row = report.summarize(CLASS, "en").exercises[1]  # 02.score
    fig = Figure()
    ax = fig.add_subplot()
    artists = report.plot_counts(ax, row, "en")
    bars = artists[0]
    assert [round(b.get_width()) for b in bars] == [c.count for c in row.counts] == [2, 1, 1, 1]
    assert [t.get_text() for t in ax.get_yticklabels()] == [c.short for c in row.counts]
    assert [t.get_text().strip() for t in artists[1:]] == ["2", "1", "1", "1"]
    assert all(a.axes is ax for a in artists[1:])


class _Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells, self.tags, self.links, self._cell = [], [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.links += [v for k, v in attrs if k in ("src", "href") and v and not v.startswith("#")]
        if tag in ("td", "th"):
            self._cell = ""

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.cells.append(self._cell)
            self._cell = None


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_page_stands_alone_with_the_counts_a_plot_per_exercise_and_where_each_student_is_stuck(lang):
    summary = report.summarize(CLASS + [rec("<b>x</b>", "00.dh", True, "right")], lang)
    page = report.to_html(summary, lang, store="class.sqlite", when="2026-12-07 09:00")
    parsed = _Page()
    parsed.feed(page)
    assert f'<html lang="{lang}">' in page
    assert parsed.links == []  # nothing to fetch: one file to mail or open
    assert parsed.tags.count("svg") == len(summary.exercises) == 4
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    counted = {**{e: (r, t) for e, (r, t, _) in BY_EXERCISE.items()}, "00.dh": (2, 2)}  # with "<b>x</b>"
    right_of = {e: words.say("report.right_of", lang, right=r, total=t) for e, (r, t) in counted.items()}
    assert all(text in page for text in right_of.values())
    not_yet = words.say("named.not_yet", lang)
    i = parsed.cells.index(not_yet)
    assert parsed.cells[i + 1: i + 3] == ["1", "park"]  # the label, its count, who
    i = len(parsed.cells) - 1 - parsed.cells[::-1].index("lee")  # the students' table comes last
    assert parsed.cells[i + 1] == "0 / 2"
    checks = words.say("report.checks", lang, n=1)  # each of lee's verdicts was the first for its exercise
    assert parsed.cells[i + 2] == "".join(f"{e} {report.label(k, e, lang)[0]} ({checks})"
                                          for e, k in BY_STUDENT["lee"][2])  # a list: an item per exercise
    assert parsed.cells[parsed.cells.index("choi", i - 20) + 2] == words.say("report.all_right", lang)
    for e in ("02.score", "04.mask4"):  # each item links to its exercise's section on the page
        assert f'<li><a href="#ex-{e}"><code>{e}</code></a>' in page and f'<section id="ex-{e}">' in page


def test_an_empty_store_makes_a_page_that_says_so():
    page = report.to_html(report.summarize([], "en"), "en", store="class.sqlite")
    assert words.say("report.empty", "en", store="class.sqlite") in page and "<svg" not in page


# ---- the command ------------------------------------------------------------------------------------------------

@pytest.fixture
def store_path(tmp_path):
    path = tmp_path / "class.sqlite"
    with Store(path) as store:
        for r in CLASS:
            store.record(r.student, r.exercise, r.lang, r.ok, r.named, r.tries, at=r.at)
    return path


def test_the_command_writes_the_csv_and_the_page_and_prints_the_report_in_its_language(store_path, tmp_path, capsys):
    out_csv, out_html = tmp_path / "out.csv", tmp_path / "out.html"
    assert report.main(["--store", str(store_path), "--lang", "ko", "--csv", str(out_csv),
                        "--html", str(out_html)]) == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    assert "02.score" in printed.out and words.say("report.right_of", "ko", right=2, total=5) in printed.out
    assert f"썼습니다: {out_csv}" in printed.out and f"썼습니다: {out_html}" in printed.out
    with open(out_csv, encoding="utf-8-sig", newline="") as f:
        assert next(csv.reader(f))[0] == "연습"
    assert '<html lang="ko">' in out_html.read_text(encoding="utf-8")


def _refused(argv, capsys):  # -> the one line on stderr, after exit status 2
    assert report.main(argv) == 2
    printed = capsys.readouterr()
    lines = printed.err.splitlines()
    assert len(lines) == 1 and printed.out == "", printed
    return lines[0]


def test_a_missing_store_is_one_line_and_exit_2(tmp_path, capsys):
    line = _refused(["--store", str(tmp_path / "nope.sqlite"), "--lang", "en"], capsys)
    assert line == f"report: --store {tmp_path / 'nope.sqlite'}: no such file; give the file the collector writes."
    assert not (tmp_path / "nope.sqlite").exists()  # not made: a typo does not become an empty store


def test_a_corrupt_store_is_one_line_and_exit_2_and_left_as_it_was(tmp_path, capsys):
    path = tmp_path / "class.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 16)
    before = path.read_bytes()
    line = _refused(["--store", str(path), "--lang", "ko"], capsys)
    assert line.startswith(f"report: --store {path}: attention-lab의 저장소가 아닙니다(")
    assert line.endswith("다른 곳으로 옮기거나 다른 --store를 주세요.")
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["class.sqlite"]


def test_a_folder_given_as_the_store_is_one_line_in_the_edition_s_language(tmp_path, capsys):
    line = _refused(["--store", str(tmp_path), "--lang", "ko"], capsys)
    assert line == f"report: --store {tmp_path}: 폴더입니다. {tmp_path / 'class.sqlite'}처럼 파일을 주세요."


@pytest.mark.parametrize(("argv", "says"), [
    (["--lang", "fr"], "report: --lang fr: no such edition; give --lang ko or --lang en"),
    (["--colour"], "report: unrecognized arguments: --colour"),
])
def test_bad_options_are_one_line_and_exit_2(store_path, capsys, argv, says):
    assert _refused(["--store", str(store_path), *argv], capsys) == says


def test_a_csv_that_cannot_be_written_is_one_line_and_exit_2(store_path, tmp_path, capsys):
    target = tmp_path / "no-such-folder" / "class.csv"
    line = _refused(["--store", str(store_path), "--lang", "en", "--csv", str(target)], capsys)
    assert line == f"report: --csv {target}: cannot be written (No such file or directory); give another place."


# ---- in a spreadsheet -------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_libreoffice_calc_opens_the_csv_with_its_korean_as_korean_and_its_counts_as_numbers(tmp_path):
    soffice = shutil.which("soffice")
    assert soffice, "LibreOffice Calc is not installed: apt-get install -y libreoffice-calc"
    path = tmp_path / "class.csv"
    report.to_csv(report.summarize(CLASS, "ko"), path)
    profile = f"-env:UserInstallation=file://{tmp_path}/profile"
    # Calc's CSV import as its dialog sets it for this file: comma, double quote, Unicode (UTF-8) (76); then the
    # sheet saved, and saved again as CSV to read it back. (Headless, Calc takes no charset from the BOM: the
    # dialog is where a person picks UTF-8; Excel reads the BOM.)
    subprocess.run([soffice, profile, "--headless", "--infilter=Text - txt - csv (StarCalc):44,34,76,1",
                    "--convert-to", "ods", "--outdir", str(tmp_path / "ods"), str(path)],
                   check=True, capture_output=True, timeout=120)
    sheet = tmp_path / "ods" / "class.ods"
    with zipfile.ZipFile(sheet) as ods:
        content = ods.read("content.xml").decode("utf-8")
    assert 'office:value-type="float" office:value="5"' in content  # 02.score: 5 students checked it, a number
    assert re.findall(r'value-type="string"[^>]*><text:p>\d+</text:p>', content) == []  # no count read as text
    subprocess.run([soffice, profile, "--headless", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76",
                    "--outdir", str(tmp_path / "back"), str(sheet)], check=True, capture_output=True, timeout=120)
    with open(tmp_path / "back" / "class.csv", encoding="utf-8", newline="") as f:
        back = list(csv.reader(f))
    with open(path, encoding="utf-8-sig", newline="") as f:
        assert back == list(csv.reader(f))  # every cell as written: the BOM read as such, the Korean, the commas
    assert back[0][0] == "연습"


def test_ctrl_c_is_one_line_and_exit_130(store_path, capsys, monkeypatch):
    def interrupted(records, lang):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "summarize", interrupted)  # as if Ctrl-C came while the report was made
    assert report.main(["--store", str(store_path), "--lang", "ko"]) == 130
    assert capsys.readouterr().err == "report: 중단했습니다.\n"


def test_a_reader_that_stops_reading_gets_no_traceback(store_path, tmp_path):
    out_csv = tmp_path / "out.csv"
    command = [sys.executable, "-m", "attention_lab.classroom.report", "--store", str(store_path), "--lang", "en",
               "--csv", str(out_csv)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
        run.stdout.close()  # like `| head -0`: nobody reads what it prints
        err = run.stderr.read().decode()
        assert run.wait(timeout=60) == 0 and err == ""
    assert out_csv.exists()  # what was asked for is written all the same
