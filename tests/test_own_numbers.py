"""Your own numbers from real files: what a spreadsheet saves is read, and every bad file is refused in one line that
names the option, the file, the row and column from 1, and the fix. One reader serves the figures, the worksheet
and the explorer page."""

import subprocess
import sys

import numpy as np
import pytest

from attention_lab.numeric.own_numbers import read_matrix

ARTICLE_K = [[1, 0, 1, 0], [-1, 1, 1, 2]]

# (what a lecturer's file holds, as bytes) -> the matrix it means. Each is how a real program saves it.
READ = {
    "plain": (b"1,0,1,0\n-1,1,1,2\n", ARTICLE_K),
    "Excel CSV UTF-8 (byte-order mark)": (b"\xef\xbb\xbf1,0,1,0\r\n-1,1,1,2\r\n", ARTICLE_K),
    "header row": (b"k1,k2,k3,k4\n1,0,1,0\n-1,1,1,2\n", ARTICLE_K),
    "Korean header row with BOM": ("\ufeff성분1,성분2,성분3,성분4\n1,0,1,0\n-1,1,1,2\n".encode(), ARTICLE_K),
    "trailing commas": (b"1,0,1,0,\n-1,1,1,2,\n", ARTICLE_K),
    "Unicode minus, as the figures print it": ("1,0,1,0\n\u22121,1,1,2\n".encode(), ARTICLE_K),
    "full-width digits and minus": ("１，０，１，０\n－１，１，１，２\n".encode(), ARTICLE_K),
    "semicolons, decimal commas": (b"1;0;1,5;0\n-1;1;1;2\n", [[1, 0, 1.5, 0], [-1, 1, 1, 2]]),
    "tabs (Excel's Unicode text, UTF-16)": ("1\t0\t1\t0\n-1\t1\t1\t2\n".encode("utf-16"), ARTICLE_K),
    "spaces around cells, blank lines": (b"\n 1 , 0 , 1 , 0 \n\n-1, 1, 1, 2\n\n", ARTICLE_K),
    "quoted cells": (b'"1","0","1","0"\n"-1","1","1","2"\n', ARTICLE_K),
    "exponents and decimals": (b"1e0,.0,1.,0.0\n-1E+0,1,1,2\n", ARTICLE_K),
    "one column": (b"1\n-1\n", [[1], [-1]]),
}

# (bytes, file name) -> what the one line must say. Rows and columns count from 1, as a spreadsheet shows them.
REFUSED = {
    "empty": (b"", "q.csv", ["--q:", "is empty"]),
    "only blank lines": (b"\n \n,,\n", "q.csv", ["--q:", "is empty"]),
    "a header and nothing": (b"a,b\n", "q.csv", ["header row but no numbers"]),
    "a word in a cell": (b"1,2\n3,x\n", "q.csv", ["row 2, column 2", "'x' is not a number"]),
    "a bad first row is not a header": (b"1,x\n3,4\n", "q.csv", ["row 1, column 2", "'x'"]),
    "an empty cell": (b"1,,2\n3,4,5\n", "q.csv", ["row 1, column 2 is empty"]),
    "rows of different lengths": (b"1,2,3\n4,5\n", "q.csv", ["row 2: 2 numbers, but row 1 has 3"]),
    "after a header, rows count from the file's first line": (b"a,b\n1,2\n3\n", "q.csv", ["row 3: 1 numbers"]),
    "nan": (b"1,nan\n", "q.csv", ["row 1, column 2", "not a finite number"]),
    "1e999": (b"1,1e999\n", "q.csv", ["row 1, column 2", "too large"]),
    "a superscript is not a digit": ("1,2\u00b2\n".encode(), "q.csv", ["row 1, column 2", "'2²' is not a number"]),
    "not UTF-8": (b"1,2\n\xff\xfe\xfd,3\n", "q.csv", ["row 2: not UTF-8", "CSV UTF-8"]),
    "too many rows": (b"1\n" * 17, "q.csv", ["17 rows × 1 columns", "1 … 16 rows"]),
    "a spreadsheet's own format": (b"PK\x03\x04", "q.xlsx", ["must be a .npy or .csv file", ".xlsx"]),
    "not an npy": (b"1,2\n", "q.npy", ["not a NumPy .npy file"]),
}


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("case", READ, ids=str)
def test_what_a_spreadsheet_saves_is_read(tmp_path, case):
    data, expected = READ[case]
    matrix = read_matrix(write(tmp_path, "k.csv", data), "--k")
    assert matrix.dtype == float and matrix.tolist() == expected


@pytest.mark.parametrize("case", REFUSED, ids=str)
def test_every_bad_file_gets_one_line_naming_the_place_and_the_fix(tmp_path, case):
    data, name, parts = REFUSED[case]
    path = write(tmp_path, name, data)
    with pytest.raises(ValueError) as caught:
        read_matrix(path, "--q")
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"--q: {path}"), message
    assert "usecols" not in message and "row 0" not in message and "column 0" not in message
    for part in parts:
        assert part in message, (part, message)


def npy_claiming(tmp_path, shape):  # a small .npy whose header claims `shape`, with no data behind it
    path = tmp_path / "huge.npy"
    with path.open("wb") as file:
        np.lib.format.write_array_header_1_0(file, {"descr": "<f8", "fortran_order": False, "shape": shape})
    return path


def test_an_npy_claiming_a_huge_array_is_refused_before_loading(tmp_path):
    path = npy_claiming(tmp_path, (2**20, 2**20))
    assert path.stat().st_size < 200
    with pytest.raises(ValueError, match=r"1048576 rows × 1048576 columns; give 1 … 16 rows"):
        read_matrix(path, "--q")
    with pytest.raises(ValueError, match="cut short or damaged"):  # a header that fits, and no data
        read_matrix(npy_claiming(tmp_path, (2, 4)), "--q")


def test_an_npy_is_read_as_saved_and_its_non_finite_entry_is_placed(tmp_path):
    np.save(tmp_path / "k.npy", np.array(ARTICLE_K, dtype=np.int64))
    assert read_matrix(tmp_path / "k.npy", "--k").tolist() == ARTICLE_K
    np.save(tmp_path / "row.npy", np.array([1.0, 2.0]))
    assert read_matrix(tmp_path / "row.npy", "--k").tolist() == [[1, 2]]
    np.save(tmp_path / "bad.npy", np.array([[1.0, 2.0], [3.0, np.inf]]))
    with pytest.raises(ValueError, match=r"row 2, column 2: inf is not a finite number"):
        read_matrix(tmp_path / "bad.npy", "--v")
    np.save(tmp_path / "words.npy", np.array(["a", "b"]))
    with pytest.raises(ValueError, match="table of real numbers"):
        read_matrix(tmp_path / "words.npy", "--v")


@pytest.mark.parametrize("command", ["figures", "explorer", "worksheet"])
def test_the_commands_read_a_spreadsheets_csv_and_refuse_in_one_line(tmp_path, command):
    """Excel's CSV UTF-8 with a header and the Unicode minus: a 3 × 8 Q, K, V through each command."""
    q = "\ufeffc1,c2,c3,c4,c5,c6,c7,c8\n1,0,1,0,1,0,1,1\n0,1,0,1,\u22121,1,0,0\n1,1,1,0,0,1,1,0\n"
    k = "1;0;1;0;1;1;0;0\n\u22121;1;1;2;0;1;1;0\n0;2;0;1;1;0;1;\u22121\n"
    v = "1\t0\t0\t1\t0\t1\t1\t0\n0\t1\t1\t0\t1\t0\t0\t1\n1\t1\t0\t0\t0\t0\t1\t1\n"
    for name, text in zip("qkv", (q, k, v), strict=True):
        (tmp_path / f"{name}.csv").write_text(text, encoding="utf-8")
    (tmp_path / "bad.csv").write_text("1,2\n3,4,\n5,−\n", encoding="utf-8")
    out = ["--out", str(tmp_path / ("page.html" if command == "explorer" else "out"))]
    own = [a for n in "qkv" for a in (f"--{n}", str(tmp_path / f"{n}.csv"))] + ["--h", "2"]
    run = [sys.executable, "-m", f"attention_lab.{command}", *out]
    done = subprocess.run([*run, *own], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    bad = [str(tmp_path / "bad.csv") if a == str(tmp_path / "k.csv") else a for a in own]  # --k: bad.csv
    done = subprocess.run([*run, *bad], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"error: --k: {tmp_path / 'bad.csv'}, row 3, column 2: '-' is not a number")


# One typed number, as a file's cell and as a row typed into the explorer: both read it by the one grammar
# (numeric.own_numbers.ROW_GRAMMAR, which the page's row editor reads too). The value it means, or which refusal.
CELLS = [
    ("١", "number"),  # Arabic-Indic one: float() reads it, the grammar (and the page) does not
    ("1_000", "number"), ("0x10", "number"), ("²", "number"), ("1–2", "number"), ("1.2.3", "number"), ("1e", "number"),
    ("∞", "finite"), ("−∞", "finite"), ("ｉｎｆ", "finite"), ("-Infinity", "finite"), ("NaN", "finite"),
    ("1e999", "finite"),
    ("－１．５", -1.5), ("−1.5", -1.5), ("1e3", 1000), (".5", 0.5), ("+3", 3), ("4.", 4), ("1E-2", 0.01), ("２e１", 20),
]


@pytest.mark.parametrize("cell, means", CELLS, ids=[c for c, _ in CELLS])
def test_a_cell_of_a_file_and_a_typed_row_read_one_number_alike(tmp_path, cell, means):
    from attention_lab.live.state import parse_row

    path = write(tmp_path, "q.csv", f"0,0\n0,{cell}\n".encode())
    try:
        from_file = read_matrix(path, "--q")[1, 1]
    except ValueError as error:
        said = str(error)
        assert "row 2, column 2" in said, said
        from_file = "finite" if ("not a finite number" in said or "too large" in said) else \
            "number" if "is not a number" in said else said
    row, problem = parse_row(cell, 1)
    typed = float(row[0]) if problem is None else {"edit_finite": "finite", "edit_number": "number"}[problem[0]]
    assert from_file == typed == means
