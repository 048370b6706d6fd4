"""Your own numbers from a file: a .npy array or a table saved by a spreadsheet, as one matrix, one row per token.

    read_matrix("Q.csv", "--q", max_rows=16, max_cols=64)    # -> float array [rows, cols], or a ValueError

One reader for every command that takes your own Q, K, V (the figures, the worksheet, the explorer page). A table
may be what a spreadsheet saves: UTF-8 with or without a byte-order mark (Excel's "CSV UTF-8"), UTF-16 (Excel's
"Unicode text"), a header row, a trailing separator, the minus sign − (U+2212, as the figures print it),
full-width digits and signs (typed with a Korean or Japanese input method), cells separated by `,`, `;` or tabs
(with `;`, a comma inside a number is its decimal point: 1,5; with no `;` or tab a comma always separates, so a
single column saved with decimal commas, 0,5, reads as two numbers, 0 and 5: no rule can tell the two apart, and
the README says to save such a column with `;` or decimal points). Every refusal is one line that names the option,
the file, the row and column (from 1, as a spreadsheet numbers them) and what to do.
"""

import codecs
import csv
import re
from pathlib import Path

import numpy as np

TEXT_SUFFIXES = (".csv", ".tsv", ".txt")
MAX_BYTES = 1_000_000  # a table of 16 × 64 numbers is a few kB; a bigger file is not one

# The one grammar of a typed number, for a file's cell here and for a row typed into the page's row editor (the
# page reads it as data: look.formats.RULES["rowGrammar"]). First each character of READ_AS is read as its ASCII
# twin (the full-width forms a Korean input method types, "－１，２．５", the ideographic space and the typographic
# minus); then each piece between separators is a number, a spelling of ∞ or NaN (not finite), or not a number.
# Digits are 0-9 only: float() also reads "١" (Arabic-Indic), "1_000" and " 1 ", which no side writes.
READ_AS = {chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)} | {"\u3000": " ", "\u2212": "-"}
# The ends a typed number may have and still be one (" 5 "): what Python's str.strip() strips, as a list of characters,
# so the page strips the same (JavaScript's trim() also strips U+FEFF and not U+001C … U+001F nor U+0085).
BLANK = "".join(c for c in map(chr, range(0x3001)) if c.isspace())
ROW_GRAMMAR = {"readAs": READ_AS, "blank": BLANK, "separators": r"[ \t\n\r\f\v\u00a0,;\[\]()]+",
               "number": r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", "whole": r"[+-]?[0-9]+",
               "notFinite": r"[+-]?(?:[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN]|∞)"}
NUMBER = re.compile(ROW_GRAMMAR["number"])
WHOLE = re.compile(ROW_GRAMMAR["whole"])
NOT_FINITE = re.compile(ROW_GRAMMAR["notFinite"])
_FOLD = str.maketrans(READ_AS)


def cell_text(text):  # "－１.５" or "−1.5" -> "-1.5"
    """Text with every character of READ_AS read as its ASCII twin, ends stripped. (Not NFKC: it would read 2² as
    22.)"""
    return text.translate(_FOLD).strip(BLANK)


def typed_whole(text):  # "１２" -> 12, " -3 " -> -3, "٣" or "3.0" -> None
    """A whole number typed as text, by the one rule of a typed number (ROW_GRAMMAR: READ_AS folded, BLANK ends
    stripped, then ASCII digits only), or None. The commands' number options (figures.options.typed_number), the
    explorer's seed box (live.state.seed_of) and, in the page, state.js's wholeOf read a typed whole number by it."""
    folded = cell_text(str(text))
    return int(folded) if WHOLE.fullmatch(folded) else None


def typed_lengths(text):  # "３＋２" -> [3, 2]; "3+" or "3.0+2" -> None
    """Whole numbers joined by "+" (a mask's lengths, as --mask packed:lengths=3+2 and a link give them), each read by
    typed_whole, or None (url.js's lengthsOf reads a link's by the same rule)."""
    numbers = [typed_whole(part) for part in cell_text(str(text)).split("+")]
    return None if None in numbers else numbers


def read_matrix(path, name, max_rows=16, max_cols=64):  # -> float array [rows, cols]
    """A .npy or text table (.csv, .tsv, .txt) of real numbers, one row per token, at most max_rows × max_cols.
    name: what the reader calls this matrix in messages (the option it typed, e.g. "--q")."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".npy", *TEXT_SUFFIXES):
        raise ValueError(f"{name}: {path} must be a .npy or .csv file (one row per token), got "
                         f"{suffix or 'no suffix'}.")
    if not path.is_file():
        raise ValueError(f"{name}: no file {path}." if not path.exists() else f"{name}: {path} is not a file.")
    try:
        matrix = _read_npy(path, name, max_rows, max_cols) if suffix == ".npy" else _read_table(path, name)
    except OSError as error:
        raise ValueError(f"{name}: cannot read {path}: {error.strerror or error}.") from None
    rows, cols = matrix.shape
    if not (1 <= rows <= max_rows and 1 <= cols <= max_cols):
        raise ValueError(f"{name}: {path} has {rows} rows × {cols} columns; give 1 … {max_rows} rows (tokens) of "
                         f"1 … {max_cols} numbers.")
    return matrix


def _read_npy(path, name, max_rows, max_cols):
    """The array's header is read and checked first: a file that claims a huge array is refused before loading."""
    fmt = np.lib.format
    with path.open("rb") as file:
        try:
            version = fmt.read_magic(file)
            header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, _, dtype = header(file)
        except (ValueError, EOFError) as error:
            raise ValueError(f"{name}: {path} is not a NumPy .npy file ({str(error).splitlines()[0][:80]}); save "
                             "it with numpy.save, or as a .csv.") from None
    if dtype.kind not in "iuf" or len(shape) not in (1, 2):
        raise ValueError(f"{name}: {path} must hold a table of real numbers, one row per token; its header says "
                         f"shape {shape} of type {dtype}.")
    rows, cols = (1, *shape) if len(shape) == 1 else shape
    if not (1 <= rows <= max_rows and 1 <= cols <= max_cols):
        raise ValueError(f"{name}: {path} has {rows} rows × {cols} columns; give 1 … {max_rows} rows (tokens) of "
                         f"1 … {max_cols} numbers.")
    try:
        matrix = np.load(path, allow_pickle=False)
    except (ValueError, EOFError) as error:  # a truncated file
        raise ValueError(f"{name}: {path} is cut short or damaged ({str(error).splitlines()[0][:80]}); save it "
                         "again.") from None
    matrix = np.asarray(matrix, dtype=float).reshape(rows, cols)
    bad = np.argwhere(~np.isfinite(matrix))
    if len(bad):
        r, c = bad[0]
        raise ValueError(f"{name}: {path}, row {r + 1}, column {c + 1}: {matrix[r, c]} is not a finite number; "
                         "every entry must be one.")
    return matrix


def _decode(data, path, name):  # -> str: UTF-8 (a BOM is dropped) or UTF-16 with its BOM
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise ValueError(f"{name}: {path}, row {line}: not UTF-8 text; save it as \"CSV UTF-8\" (or as plain "
                         "numbers).") from None


def _separator(lines):  # tab, then ;, then , (one number a line needs none)
    text = "\n".join(lines)
    return "\t" if "\t" in text else ";" if ";" in text else ","


def _read_table(path, name):
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{name}: {path} is {path.stat().st_size:,} bytes; a table of Q, K or V is a few kB. "
                         "Give the right file.")
    text = _decode(path.read_bytes(), path, name)
    numbered = [(n, cell_text(line)) for n, line in enumerate(text.splitlines(), start=1)
                if cell_text(line).strip(",;\t ")]
    if not numbered:
        raise ValueError(f"{name}: {path} is empty; write one row of numbers per token, e.g. 1, 0, -1, 2.")
    sep = _separator([line for _, line in numbered])
    rows = []
    for index, (n, line) in enumerate(numbered):
        cells = [c.strip() for c in next(csv.reader([line], delimiter=sep))]
        while cells and not cells[-1]:  # a trailing separator
            cells.pop()
        if sep == ";":
            cells = [c.replace(",", ".") for c in cells]  # 1,5 is 1.5 where cells are split by ;
        if index == 0 and not any(NUMBER.fullmatch(c) or NOT_FINITE.fullmatch(c) for c in cells):
            continue  # a header row: labels, not one number
        rows.append((n, [_number(c, n, col, path, name) for col, c in enumerate(cells, start=1)]))
    if not rows:
        raise ValueError(f"{name}: {path} has a header row but no numbers under it; write one row per token.")
    width = len(rows[0][1])
    for n, values in rows:
        if len(values) != width:
            raise ValueError(f"{name}: {path}, row {n}: {len(values)} numbers, but row {rows[0][0]} has {width}; "
                             "every row (token) needs the same number of columns.")
    return np.array([values for _, values in rows], dtype=float)


def _number(cell, row, col, path, name):  # -> float, or a ValueError naming the cell
    where = f"{name}: {path}, row {row}, column {col}"
    if not cell:
        raise ValueError(f"{where} is empty; write a number there (every row needs all its columns).")
    if NOT_FINITE.fullmatch(cell):
        raise ValueError(f"{where}: {cell!r} is not a finite number; write a number such as -1.5 there.")
    if not NUMBER.fullmatch(cell):
        raise ValueError(f"{where}: {cell[:20]!r} is not a number; write a number such as -1.5 there.")
    value = float(cell)
    if not np.isfinite(value):  # 1e999
        raise ValueError(f"{where}: {cell!r} is too large for a float; write a smaller number there.")
    return value
