"""Fuzzing the one reader of your own numbers (figures, worksheet and explorer page: `--q/--k/--v`): any file a
lecturer can hand it, spreadsheet-like text or random bytes, either gives a finite matrix within the limits or one
line that names the option and the file. Never a traceback, NaN or ∞, and never a matrix it was not given."""

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_lab.numeric.own_numbers import read_matrix

MAX_ROWS, MAX_COLS = 16, 64
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# A cell as people and programs write one: numbers in every spelling the reader takes, and near misses.
NUMBERS = st.one_of(st.integers(-10**6, 10**6).map(str), st.floats(-1e6, 1e6, allow_nan=False).map(repr))
NEAR_MISSES = st.sampled_from(["", " ", "x", "nan", "-inf", "1e999", "2²", "1,5", "١", "0x10", "1_0", "−", "－１",
                               "１", "\u3000", '"', '"1"', "k1", "성분", "\ufeff", "1e", ".", "+-1"])
CELLS = st.one_of(NUMBERS, NUMBERS, NEAR_MISSES)
SEPARATORS = st.sampled_from([",", ";", "\t", ", "])
ENDINGS = st.sampled_from(["\n", "\r\n", ""])
ENCODINGS = st.sampled_from(["utf-8", "utf-8-sig", "utf-16"])


@st.composite
def tables(draw):  # -> bytes: a table a spreadsheet might save, often with something wrong in it
    separator, ending = draw(SEPARATORS), draw(ENDINGS)
    rows = draw(st.lists(st.lists(CELLS, min_size=1, max_size=6), min_size=0, max_size=5))
    text = ending.join(separator.join(row) for row in rows) + draw(st.sampled_from(["", "\n", separator + "\n"]))
    try:
        return text.encode(draw(ENCODINGS))
    except UnicodeEncodeError:
        return text.encode("utf-8")


def check_read(path):
    """What the reader gives for one file: a matrix it was given, or one line naming the option and the file."""
    try:
        matrix = read_matrix(path, "--q", max_rows=MAX_ROWS, max_cols=MAX_COLS)
    except ValueError as error:
        message = str(error)
        assert message.startswith("--q: ") and "\n" not in message, message
        assert str(path) in message or path.name in message, message
        assert len(message) < 400, message
        return None
    assert matrix.dtype == np.float64 and matrix.ndim == 2, matrix
    assert 1 <= matrix.shape[0] <= MAX_ROWS and 1 <= matrix.shape[1] <= MAX_COLS, matrix.shape
    assert np.isfinite(matrix).all(), matrix
    return matrix


@SETTINGS
@given(data=tables(), suffix=st.sampled_from([".csv", ".tsv", ".txt"]))
def test_any_table_gives_a_finite_matrix_or_one_line(tmp_path, data, suffix):
    path = tmp_path / f"q{suffix}"
    path.write_bytes(data)
    check_read(path)


@SETTINGS
@given(data=st.binary(max_size=300), suffix=st.sampled_from([".csv", ".npy"]))
def test_any_bytes_give_a_finite_matrix_or_one_line(tmp_path, data, suffix):
    path = tmp_path / f"q{suffix}"
    path.write_bytes(data)
    check_read(path)


@SETTINGS
@given(rows=st.lists(st.lists(st.integers(-99, 99), min_size=3, max_size=3), min_size=1, max_size=4),
       separator=SEPARATORS, encoding=ENCODINGS, minus=st.sampled_from(["-", "\u2212"]))
def test_a_table_of_whole_numbers_is_read_as_written(tmp_path, rows, separator, encoding, minus):
    """The independent reference: the numbers the test wrote, in any separator, encoding and minus sign."""
    text = "\n".join(separator.join(str(x).replace("-", minus) for x in row) for row in rows) + "\n"
    path = tmp_path / "q.csv"
    path.write_bytes(text.encode(encoding))
    matrix = check_read(path)
    assert matrix is not None and matrix.tolist() == [[float(x) for x in row] for row in rows]


@SETTINGS
@given(values=st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=1, max_size=12),
       shape=st.sampled_from([(1, 12), (3, 4), (12, 1), (2, 2, 3), (0,)]))
def test_any_npy_array_gives_a_finite_matrix_or_one_line(tmp_path, values, shape):
    size = math.prod(shape)
    array = np.resize(np.array(values), size).reshape(shape)
    path = tmp_path / "q.npy"
    np.save(path, array)
    matrix = check_read(path)
    if matrix is not None:  # only a finite 2-D array of the right size is taken, and as it was saved
        assert array.ndim == 2 and np.isfinite(array).all() and np.array_equal(matrix, array)
