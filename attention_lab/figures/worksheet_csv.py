"""The worksheet's tables for a spreadsheet: every stage's matrix of a trace, and a class set's keys, as CSV (UTF-8
with a BOM, which Excel and LibreOffice Calc both open), each file written whole or not at all.
"""

import csv
import math
from pathlib import Path

from ..look import formats, words
from ..numeric.pipeline import PIPELINE
from .export import whole_file
from .worksheet_numbers import student_answers


def _csv_number(x):  # -> a cell a spreadsheet reads as a number: "-1.5", "1.23E-4"; "−∞" for a masked score
    x = float(x)
    if math.isinf(x):
        return formats.NEG_INF_LABEL if x < 0 else formats.INF_LABEL
    return repr(x + 0.0).replace("e", "E")  # every digit of the float: it reads back as the very same number


def _write_csv(path, rows):  # -> path: UTF-8 with a BOM and CRLF, which Excel and LibreOffice Calc both open
    with whole_file(path) as partial, open(partial, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def write_csv(tr, lang, out):  # -> [Path]: one CSV per stage of the pipeline, <stage>_<lang>.csv
    """Every stage's matrix (Q, K, V, Qh, Kh, Vh, S, S_scaled, M, S_masked, E, P, P_unscaled, O, H, as the trace
    names them) as a table: a header row in the edition's language, then one row per row of the matrix; a stage of
    one matrix per head gives each head's rows in turn, with a Head column first. Numbers in full (repr)."""
    W, paths = words.table(lang), []
    axis = {"token": W["token"], "query": W["query"], "key": W["key"], "component": W["component"]}
    for stage in PIPELINE:
        rows_are, cols_are = stage.axes
        value = stage.value(tr)
        heads = range(value.shape[0]) if stage.heads else [None]
        header = ([W["head"].capitalize()] if stage.heads else []) + [axis[rows_are]] + [
            f"{axis[cols_are]} {c + 1}" for c in range(value.shape[-1])]
        rows = [header]
        for head in heads:
            matrix = value if head is None else value[head]
            rows += [([head + 1] if head is not None else []) + [r + 1] + [_csv_number(x) for x in row]
                     for r, row in enumerate(matrix)]
        paths.append(_write_csv(Path(out) / f"{stage.name}_{lang}.csv", rows))
    return paths


def key_columns(lang, dh, T=3, i=3):  # -> the header of a class set's keys CSV
    W = words.table(lang)
    return ([W["ws_csv_code"], W["ws_csv_name"]] + [W["ws_csv_score"].format(i=i, t=t + 1) for t in range(T)]
            + [W["ws_csv_scaled"].format(i=i, t=t + 1) for t in range(T)]
            + [W["ws_csv_exp"].format(t=t + 1) for t in range(T)] + [W["ws_csv_sum"]]
            + [W["ws_csv_weight"].format(t=t + 1) for t in range(T)]
            + [W["ws_csv_output"].format(i=i, c=c + 1) for c in range(dh)])


def write_keys_csv(sheets, lang, path, head=0):  # -> path: a class set's keys, one sheet a row
    """Every key of a class set (sheets as write_class's) as one table: code, name and each answer as printed on
    the key, written as a number a spreadsheet reads ("−1.5" as -1.5, "3.19×10⁻⁴" as 3.19E-4)."""
    def cell(label):
        number = label.replace(formats.MINUS, "-")
        if formats.TIMES_TEN in number:
            mantissa, power = number.split(formats.TIMES_TEN)
            number = f"{mantissa}E{power.translate(str.maketrans(formats.RULES['superscripts'], '0123456789-'))}"
        return number

    rows = [key_columns(lang, sheets[0][1].dh)]
    for code, tr, name in sheets:
        key = student_answers(tr, head)
        rows.append([code, name] + [cell(x) for x in (*key["scores"], *key["scaled"], *key["exps"], key["sum"],
                                                      *key["weights"], *key["output"])])
    return _write_csv(path, rows)
