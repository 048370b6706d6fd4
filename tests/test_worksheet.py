"""The worksheet and its answer key: two A4 PDFs of real text, answers read from the trace, one per seed."""

import subprocess
import sys

import pytest

import attention_lab as al
from attention_lab import worksheet
from attention_lab.look import formats


def pdf_words(path):
    return " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True).stdout.split())


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_key_holds_the_articles_answers_and_the_worksheet_none(tmp_path, capsys, lang):
    assert worksheet.main(["--lang", lang, "--out", str(tmp_path)]) == 0
    sheet, key = pdf_words(tmp_path / "worksheet.pdf"), pdf_words(tmp_path / "answer_key.pdf")
    for answer in ("2.718", "20.09", "23.8", "0.114", "0.042", "0.844", "3×4", "4×3"):  # pdftotext drops the spaces
        assert answer in key and answer not in sheet, answer
    assert "[3, 1.5, −1]" in sheet  # given: row 2 of S / √dh, which question 4 masks
    assert ("토큰" in sheet) == (lang == "ko")
    info = subprocess.run(["pdfinfo", str(tmp_path / "worksheet.pdf")], capture_output=True, text=True).stdout
    assert "(A4)" in info and "Pages:           1" in info
    fonts = subprocess.run(["pdffonts", str(tmp_path / "answer_key.pdf")], capture_output=True, text=True).stdout
    assert "Type 3" not in fonts and "TrueType" in fonts


def test_a_seed_gives_another_example_with_its_own_key(tmp_path):
    assert worksheet.main(["--lang", "en", "--seed", "7", "--out", str(tmp_path)]) == 0
    tr = al.random_example(3, 8, 2, 7)
    key = pdf_words(tmp_path / "answer_key.pdf")
    for p in tr.P[0, 2]:
        assert formats.format_value(p, "weights") in key
    for x in tr.O[0, 2]:
        assert formats.format_value(x) in key
    assert "Example 7" in key and "Example 7" in pdf_words(tmp_path / "worksheet.pdf")


def test_text_is_at_least_10_pt_at_100_percent():
    from matplotlib.text import Text

    from attention_lab.figures import worksheet as pages

    for answers in (False, True):
        fig = pages.page(al.article_example(), "ko", answers)
        sizes = [t.get_fontsize() for t in fig.findobj(Text) if t.get_text().strip()]
        assert min(sizes) >= 10 and tuple(fig.get_size_inches()) == pages.A4


@pytest.mark.parametrize("argv, message", [
    (["--out", ""], "--out: give a folder"),
    (["--out", "x", "--lang", "fr"], "invalid choice: 'fr'"),
    (["--out", "x", "--seed", "-1"], "--seed: must be from 0"),
    (["--out", "x", "--head", "3"], "--head: must be from 1 to 2"),
])
def test_bad_arguments_get_one_line(capsys, argv, message):
    assert worksheet.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


def test_runs_as_a_module(tmp_path):
    done = subprocess.run([sys.executable, "-m", "attention_lab.worksheet", "--lang", "ko", "--out", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path / "worksheet.pdf"), str(tmp_path / "answer_key.pdf")]
