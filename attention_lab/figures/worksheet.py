"""A printable worksheet on one head's Core Attention, and its answer key: A4 pages, in Korean or English.

    from attention_lab.figures import worksheet
    worksheet.write(al.article_example(), "ko", "out/")         # worksheet_ko.pdf and answer_key_ko.pdf
    worksheet.write_class([("K7QX-M2PA", tr1, ""), ("B2RT-7QXA", tr2, "Kim")], "en", "out/")  # a class set
    worksheet.page(tr, "en", answers=True)                       # the answer key as a Figure
    worksheet.write_csv(tr, "ko", "tables/")                     # every stage's matrix as CSV

The worksheet gives the example's Q, K and V rows of one head and leaves blanks for: the shapes, row 3 of S, of
S / √dh, one row after the mask, row 3's exponentials, their sum and its weights, and row 3 of O. No question
prints another's answer. The sheet states its one rounding rule (`sheet_number`: 3 significant digits, half up,
trailing zeros kept, powers of ten below 0.001 and from 1000), which every number it prints follows (a given Q, K
or V that is a whole number is printed as it is), and the key (`student_answers`) is what a student
gets by following it: each answer computed from the rounded answers before it, as the student carries them on,
with the tolerance stated on the key. Text is at least 10 pt on A4 at 100%, at least 15 mm from every edge, and
the PDF keeps it as real text (TrueType fonts, students' names too), so it can be copied and searched.

This module lays the pages out and writes them. Its parts, whose names are importable from here too: the numbers
and the key (`worksheet_numbers`), the names' fonts (`worksheet_names`), the CSV tables (`worksheet_csv`).
"""

import math
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Rectangle

from ..look import colors, formats
from ..numeric.pipeline import STAGES
from .export import TEXT_RC, save, whole_file
from .heatmap import check_head, check_trace, font_family, look_of, use_font
from .worksheet_csv import key_columns, write_csv, write_keys_csv
from .worksheet_names import NAME_FONTS, name_families, name_font
from .worksheet_numbers import DIGITS, PLAIN, given_number, mask_row, sheet_number, student_answers

# Its parts, importable from here as before the split: the names' fonts, the numbers and the key, the CSV tables
__all__ = ["A4", "ANSWER_PT", "BOX_W", "DIGITS", "MAX_DH", "NAME_FONTS", "PLAIN", "check_sheet_trace", "files",
           "given_number", "given_width", "key_columns", "mask_row", "name_families", "name_font", "page",
           "sheet_number", "student_answers", "write", "write_class", "write_csv", "write_keys_csv"]

A4 = (8.27, 11.69)  # inches
MARGIN = 0.75  # 19 mm at the sides; nothing is drawn nearer an edge than MIN_MARGIN
MIN_MARGIN = 15 / 25.4
TOP = 0.75  # inches: the title's top 15 mm from the edge
BOX_W, BOX_H, BOX_GAP = 1.3, 0.3, 0.04  # a blank, in inches (room for −2.65×10⁻²⁶¹), and the space under a row
QUESTION_ROOM = 0.07  # inches above a question, more than between its boxes
TEXT_PT, TITLE_PT, ANSWER_PT = 11, 16, 12
ANSWER_INK = "#0b3d91"  # dark blue: the key's answers stand apart from the printed numbers, dark on light
MAX_DH = 4  # Q, K and V side by side have room for 4 components each
MAX_SCORE = 300  # |S / √dh| of row 3 at most: its eˢ, their sum and every weight print as numbers (e³⁰⁰ ≈ 1.9×10¹³⁰;
# the smallest weight, e⁻⁶⁰⁰, is still no 0), where 710 overflows a float and a spread of 1,400 makes a weight 0


def files(lang, many=False):  # -> (worksheet file name, answer key file name), with the language in them
    return (f"worksheets_{lang}.pdf", f"answer_keys_{lang}.pdf") if many else (f"worksheet_{lang}.pdf",
                                                                             f"answer_key_{lang}.pdf")


class _Sheet:
    """A page drawn in inches from its top-left corner: lines of text (wrapped inside the margins), tables of given
    numbers, rows of blanks."""

    def __init__(self, look):
        self.look = look
        self.fig = Figure(figsize=A4)
        self.renderer = FigureCanvasAgg(self.fig).get_renderer()  # to measure text for wrapping
        self.ax = self.fig.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, A4[0])
        self.ax.set_ylim(A4[1], 0)
        self.ax.axis("off")
        self.y = TOP

    def text(self, x, y, s, size=TEXT_PT, **kw):
        return self.ax.text(x, y, s, fontsize=size, va="center", fontfamily=self.look.family, **kw)

    def _width(self, s, size):  # inches
        probe = self.text(0, 0, s, size)
        width = probe.get_window_extent(self.renderer).width / self.fig.dpi
        probe.remove()
        return width

    def line(self, s, size=TEXT_PT, gap=0.42, color=None):
        """A paragraph from the left margin, broken between words to stay inside the right margin."""
        lines, words = [], s.split(" ")
        for word in words:
            if lines and self._width(f"{lines[-1]} {word}", size) <= A4[0] - 2 * MARGIN:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        for n, text in enumerate(lines):
            self.text(MARGIN, self.y, text, size, color=color)
            self.y += gap if n == len(lines) - 1 else size / 72 * 1.35

    def name_line(self, template, name, font=None):  # -> the name's Text, or None
        """"Name: …" with a student's name, or a line to write it on. font: a TrueType file (name_font) for a name
        the page's fonts cannot draw; its Text is drawn in that font after the page's font is set (use_font)."""
        if font is None:
            self.text(MARGIN, self.y, template.format(name=name or "____________________"))
            return None
        label = template.format(name="")
        self.text(MARGIN, self.y, label)
        return self.ax.text(MARGIN + self._width(label + "\u00a0", TEXT_PT), self.y, name, va="center",
                            fontproperties=FontProperties(fname=font, size=TEXT_PT), color=colors.INK_DARK)

    def question(self, s):  # a question opens with room above it: it belongs to the boxes under it
        self.y += QUESTION_ROOM + 0.06
        self.line(s, gap=0.2)

    def cells(self, labels, header=None, row_label=None, answers=None, width=BOX_W, x0=MARGIN + 1.3, advance=True):
        """A row of boxes at the current height: given numbers (labels) or blanks (answers=None on the worksheet,
        filled in the key)."""
        if header:
            for n, h in enumerate(header):
                self.text(x0 + (n + 0.5) * width, self.y, h, ha="center")
            self.y += 0.24
        if row_label:
            self.text(x0 - 0.15, self.y + BOX_H / 2, row_label, ha="right")
        for n, label in enumerate(labels):
            x = x0 + n * width
            self.ax.add_patch(Rectangle((x + 0.04, self.y), width - 0.08, BOX_H, fill=False, edgecolor="0.35",
                                        linewidth=0.8))
            shown = label if answers is None else answers[n]
            ink = colors.INK_DARK if answers is None else ANSWER_INK
            if shown:
                self.text(x + width / 2, self.y + BOX_H / 2, shown, ha="center", color=ink,
                          size=TEXT_PT if answers is None else ANSWER_PT)
        if advance:
            self.y += BOX_H + BOX_GAP


def check_sheet_trace(tr):  # -> tr, or a ValueError: the sizes a sheet has room for
    tr = check_trace(tr)
    if tr.T_q != tr.T_k or tr.T_q != 3 or tr.dh > MAX_DH or tr.mask.name != "causal":
        raise ValueError(f"tr: a worksheet asks about the article's rows 2 and 3 of a causal mask, with room for dh ≤ "
                         f"{MAX_DH}: it needs T_q = T_k = 3 tokens, dh ≤ {MAX_DH} and the causal mask; got "
                         f"T_q={tr.T_q}, T_k={tr.T_k}, dh={tr.dh}, mask {tr.mask.name}.")
    largest = abs(tr.S_scaled[:, 2]).max()
    if not largest <= MAX_SCORE:
        raise ValueError(f"tr: the sheet asks for e^s of row 3 of S / √dh by hand, so its scores must lie within "
                         f"±{MAX_SCORE}; got {formats.format_value(largest, 'scores')}. Use smaller numbers.")
    room, wide = given_width(tr.dh) - 0.08, _widest_given(tr)
    if wide[0] > room:
        raise ValueError(f"tr: a worksheet prints Q, K and V in boxes {room * 25.4:.0f} mm wide with dh = {tr.dh}; "
                         f"{wide[2]}, which it writes {wide[1]}, does not fit. Use numbers of fewer digits "
                         "(whole numbers fit best), or fewer components per head (more heads).")
    return tr


def given_width(dh):  # -> inches: one box of the given Q, K and V, side by side with a gap of half a box
    return min(0.8, (A4[0] - 2 * MARGIN - 1.0) / (3 * dh + 1))


def _widest_given(tr):  # -> (inches, label, number): the widest given number, in either language's fonts
    fig = Figure()
    renderer = FigureCanvasAgg(fig).get_renderer()
    widest = (0.0, "", "")
    for x in {float(x) for name in ("Qh", "Kh", "Vh") for x in STAGES[name].value(tr).ravel()}:
        for lang in ("en", "ko"):
            probe = fig.text(0, 0, given_number(x), fontsize=TEXT_PT, fontfamily=font_family(lang))
            widest = max(widest, (probe.get_window_extent(renderer).width / fig.dpi, probe.get_text(), f"{x:g}"))
            probe.remove()
    return widest


def page(tr, lang="en", answers=False, head=0, seed=None, command=None, name="", own=False, code=None,
         font=None):  # -> Figure (A4)
    """The worksheet (answers=False) or its answer key (answers=True) for one head of a causal trace of 3 tokens.
    seed: the example's seed (None: the article's, or own=True: your own numbers); name: a student's, on the line.
    code: a class set's sheet code, shown instead of the seed; then only the key's footer has the command (which
    needs the instructor's secret), the sheet's has the code alone. font: name_font's, for the name (or made)."""
    tr, look = check_sheet_trace(tr), look_of(lang, False)
    head = check_head(tr, head)
    W, T, dh, n, sub = look.words, tr.T_q, tr.dh, head + 1, formats.subscript(head + 1)
    i = 3  # the article's row: token 3's Query
    Qh, Kh, Vh = (STAGES[name].matrix(tr, head) for name in ("Qh", "Kh", "Vh"))
    key, (r, given_row, masked) = student_answers(tr, head, i), mask_row(tr, head, i)
    sheet = _Sheet(look)

    def blank(labels):  # the answers, or blanks on the worksheet
        labels = list(labels)
        return labels if answers else [""] * len(labels)

    sizes = {"T": T, "d": tr.d, "h": tr.h, "dh": dh}
    sheet.line(W["ws_key_title" if answers else "ws_title"].format(n=n), TITLE_PT, 0.4)
    about = "ws_own" if own else "ws_code" if code else "ws_article" if seed is None else "ws_seed"
    sheet.line(W[about].format(seed=seed, code=code, **sizes), TEXT_PT, 0.3)
    font = font if font is not None or not name else name_font([name], look.family)
    named = sheet.name_line(W["ws_name"], name, font)
    sheet.y += 0.34
    sheet.line(W["ws_rounding"] + (" " + W["ws_tolerance"] if answers else ""), 10, 0.32, color="0.2")
    sheet.line(W["ws_given"].format(n=n, sub=sub), TEXT_PT, 0.32)
    tokens, components = colors.token_labels(T), colors.token_labels(dh)
    given_w = given_width(dh)  # Q, K and V side by side, one row per token
    starts = [MARGIN + 1.0 + k * (dh + 0.5) * given_w for k in range(3)]
    for k, matrix in enumerate(("Q", "K", "V")):
        sheet.text(starts[k] + dh * given_w / 2, sheet.y, f"{matrix}{sub}", ha="center")
    sheet.y += 0.26
    for k in range(3):
        for c, label in enumerate(components):
            sheet.text(starts[k] + (c + 0.5) * given_w, sheet.y, label, ha="center", size=10, color="0.3")
    sheet.y += 0.2
    for t in range(T):
        for k, X in enumerate((Qh, Kh, Vh)):
            sheet.cells([given_number(x) for x in X[t]], width=given_w, x0=starts[k], advance=k == 2,
                        row_label=f"{W['token']} {t + 1}" if k == 0 else None)
    sheet.question(W["ws_q_shapes"])
    shapes = {f"Q{sub}": Qh.shape, f"K{sub}ᵀ": Kh.T.shape, "S": tr.S[head].shape, "P": tr.P[head].shape,
              f"V{sub}": Vh.shape, f"O{sub}": tr.O[head].shape}
    sheet.cells([""] * len(shapes), header=list(shapes), answers=blank(f"{a} × {b}" for a, b in shapes.values()),
                width=(A4[0] - 2 * MARGIN) / len(shapes), x0=MARGIN)
    sheet.question(W["ws_q_scores"].format(i=i, sub=sub))
    sheet.cells([""] * T, header=tokens, answers=blank(key["scores"]))
    root = sheet_number(math.sqrt(dh))
    sheet.question(W["ws_q_scaled"].format(i=i, dh=dh, root=root))
    sheet.cells([""] * T, answers=blank(key["scaled"]))
    sheet.question(W["ws_q_masked"].format(r=r, row="[" + ", ".join(given_row) + "]"))
    sheet.cells([""] * T, answers=blank(masked))
    sheet.question(W["ws_q_softmax"].format(i=i))
    sheet.cells([""] * T, header=[*tokens, W["fig_sum"]], row_label=W["ws_score"], answers=blank(key["scaled"]))
    sheet.cells([""] * (T + 1), row_label="eˢ", answers=blank([*key["exps"], key["sum"]]))
    sheet.cells([""] * T, row_label=W["ws_weight"], answers=blank(key["weights"]))
    if answers and key["weights_sum"] != "1.00":  # each weight rounded: say so, rather than let 0.999 look a slip
        sheet.y += 0.08
        sheet.line(W["ws_weights_sum"].format(total=key["weights_sum"]), 10, 0.14, color=ANSWER_INK)
    sheet.question(W["ws_q_output"].format(i=i))
    sheet.cells([""] * dh, header=components, answers=blank(key["output"]))
    footer = (W["ws_key_how" if answers else "ws_code_footer"].format(code=code, command=command) if code else
              W["ws_how"].format(command=command) if command else None)
    if footer:
        sheet.y = max(sheet.y + 0.05, A4[1] - MIN_MARGIN - 0.62)
        sheet.line(footer, 10, 0, color="0.3")
    use_font(sheet.fig, look.family)
    if named is not None:
        named.set_fontproperties(FontProperties(fname=font, size=TEXT_PT))
    return sheet.fig


def write(tr, lang, out, head=0, seed=None, command=None, own=False):  # -> (worksheet path, answer key path)
    """Both pages as A4 PDFs in the folder `out`, with real text: worksheet_<lang>.pdf and answer_key_<lang>.pdf.
    Each file is written whole or not at all (export.whole_file)."""
    paths = tuple(Path(out) / name for name in files(lang))
    for path, answers in zip(paths, (False, True), strict=True):
        with whole_file(path) as partial:
            save(page(tr, lang, answers, head, seed, command, own=own), partial, "pdf", slide=True)  # all of A4
    return paths


def write_class(sheets, lang, out, head=0, command=None, many=True):  # -> (worksheets path, answer keys path)
    """A class set: sheets is [(code, trace, student's name or "")]; every worksheet in one PDF (a name line each,
    its sheet code printed) and every key in another, in the same order. command(code) is the command on each
    key's footer that makes it again (it needs the instructor's secret); a sheet's footer has its code alone.
    Each PDF is written whole or not at all: an interrupted class set leaves no file that looks complete.
    many=False: one coded sheet, into worksheet_<lang>.pdf and answer_key_<lang>.pdf."""
    paths = tuple(Path(out) / name for name in files(lang, many))
    font = name_font([name for _, _, name in sheets], font_family(lang))
    for path, answers in zip(paths, (False, True), strict=True):
        with whole_file(path) as partial, matplotlib.rc_context(TEXT_RC), PdfPages(partial) as pdf:
            for code, tr, name in sheets:
                pdf.savefig(page(tr, lang, answers, head, None, command(code) if command else None, name,
                                 code=code, font=font))
    return paths
