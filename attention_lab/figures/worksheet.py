"""A printable worksheet on one head's Core Attention, and its answer key: two A4 pages, in Korean or English.

    from attention_lab.figures import worksheet
    worksheet.write(al.article_example(), "ko", "out/")          # worksheet.pdf and answer_key.pdf
    worksheet.page(tr, "en", answers=True)                        # the answer key as a Figure

The worksheet gives the example's Q, K and V rows of one head and leaves blanks for: the shapes, row 3 of S, of
S / √dh, row 2 after the mask, row 3's exponentials, their sum and its weights, and row 3 of O. The answer key is
the same page with the blanks filled. Every answer is read from the trace (the exponentials are e^s of the
trace's scores, as figure 4 writes them), never typed. Text is at least 10 pt on A4 at 100%, and the PDF keeps it
as real text (TrueType fonts), so it can be copied and searched.
"""

from pathlib import Path

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..look import colors, formats
from ..numeric import core
from ..numeric.pipeline import STAGES
from .export import save
from .heatmap import check_head, check_trace, look_of, use_font

A4 = (8.27, 11.69)  # inches
MARGIN = 0.75
BOX_W, BOX_H = 0.95, 0.36  # a blank, in inches
QUESTION_ROOM = 0.14  # inches above a question, more than between its boxes
TEXT_PT, TITLE_PT, ANSWER_PT = 11, 16, 12
ANSWER_INK = "#0b3d91"  # dark blue: the key's answers stand apart from the printed numbers, dark on light
FILES = ("worksheet.pdf", "answer_key.pdf")


class _Sheet:
    """A page drawn in inches from its top-left corner: lines of text, tables of given numbers, rows of blanks."""

    def __init__(self, look):
        self.look = look
        self.fig = Figure(figsize=A4)
        self.ax = self.fig.add_axes((0, 0, 1, 1))
        self.ax.set_xlim(0, A4[0])
        self.ax.set_ylim(A4[1], 0)
        self.ax.axis("off")
        self.y = MARGIN

    def text(self, x, y, s, size=TEXT_PT, **kw):
        return self.ax.text(x, y, s, fontsize=size, va="center", **kw)

    def line(self, s, size=TEXT_PT, gap=0.42):
        self.text(MARGIN, self.y, s, size)
        self.y += gap

    def question(self, s):  # a question opens with room above it: it belongs to the boxes under it
        self.y += QUESTION_ROOM
        self.line(s, gap=0.28)

    def cells(self, labels, header=None, row_label=None, answers=None, width=BOX_W, x0=MARGIN + 1.3, advance=True):
        """A row of boxes at the current height: given numbers (labels) or blanks (answers=None on the worksheet,
        filled in the key)."""
        if header:
            for n, h in enumerate(header):
                self.text(x0 + (n + 0.5) * width, self.y, h, ha="center")
            self.y += 0.27
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
            self.y += BOX_H + 0.06


def page(tr, lang="en", answers=False, head=0, seed=None, command=None):  # AttentionTrace -> Figure (A4)
    """The worksheet (answers=False) or its answer key (answers=True) for one head of a trace of T ≥ 3 tokens."""
    tr, look = check_trace(tr), look_of(lang, False)
    head = check_head(tr, head)
    if tr.T_q != tr.T_k or tr.T_q < 3:
        raise ValueError(f"tr: a worksheet asks about rows 2 and 3, so it needs T_q = T_k ≥ 3 tokens; got "
                         f"T_q={tr.T_q}, T_k={tr.T_k}.")
    W, T, dh, n, sub = look.words, tr.T_q, tr.dh, head + 1, formats.subscript(head + 1)
    i, r = 3, 2  # the article's rows: token 3's Query, and row 2 for the mask
    Qh, Kh, Vh = (STAGES[name].matrix(tr, head) for name in ("Qh", "Kh", "Vh"))
    S, S_scaled, S_masked, P, O = (tr.S[head], tr.S_scaled[head], tr.S_masked[head], tr.P[head], tr.O[head])
    exps = core.exponentials(S_masked[i - 1])  # e^s of the trace's scores, as figure 4 writes them
    sheet = _Sheet(look)

    def blank(labels):  # the answers, or blanks on the worksheet
        labels = list(labels)
        return labels if answers else [""] * len(labels)

    sheet.line(W["ws_key_title" if answers else "ws_title"].format(n=n), TITLE_PT, 0.45)
    sheet.line(W["ws_article"] if seed is None else W["ws_seed"].format(seed=seed), TEXT_PT, 0.34)
    sheet.line(W["ws_name"], TEXT_PT, 0.45)
    sheet.line(W["ws_given"].format(n=n, sub=sub), TEXT_PT, 0.36)
    tokens, components = colors.token_labels(T), colors.token_labels(dh)
    given_w = min(0.5, (A4[0] - 2 * MARGIN - 1.0) / (3 * dh + 1))  # Q, K and V side by side, one row per token
    starts = [MARGIN + 1.0 + k * (dh + 0.5) * given_w for k in range(3)]
    for k, name in enumerate(("Q", "K", "V")):
        sheet.text(starts[k] + dh * given_w / 2, sheet.y, f"{name}{sub}", ha="center")
    sheet.y += 0.3
    for k in range(3):
        for c, label in enumerate(components):
            sheet.text(starts[k] + (c + 0.5) * given_w, sheet.y, label, ha="center", size=10, color="0.3")
    sheet.y += 0.28
    for t in range(T):
        for k, X in enumerate((Qh, Kh, Vh)):
            sheet.cells([formats.format_value(x) for x in X[t]], width=given_w, x0=starts[k], advance=k == 2,
                        row_label=f"{W['token']} {t + 1}" if k == 0 else None)
    sheet.y += 0.1

    sheet.question(W["ws_q_shapes"])
    shapes = {f"Q{sub}": Qh.shape, f"K{sub}ᵀ": Kh.T.shape, "S": S.shape, "P": P.shape, f"V{sub}": Vh.shape,
              f"O{sub}": O.shape}
    sheet.cells([""] * len(shapes), header=list(shapes), answers=blank(f"{a} × {b}" for a, b in shapes.values()),
                width=(A4[0] - 2 * MARGIN) / len(shapes), x0=MARGIN)
    sheet.question(W["ws_q_scores"].format(i=i, sub=sub))
    sheet.cells([""] * T, header=tokens,
                answers=blank(formats.format_value(x, "scores") for x in S[i - 1]))
    root = formats.format_value(np.sqrt(dh))
    sheet.question(W["ws_q_scaled"].format(i=i, dh=dh, root=root))
    sheet.cells([""] * T, answers=blank(formats.format_value(x, "scores") for x in S_scaled[i - 1]))
    sheet.question(W["ws_q_masked"].format(r=r, row=formats.format_row(S_scaled[r - 1], "scores")))
    sheet.cells([""] * T, answers=blank(formats.format_value(x, "scores") for x in S_masked[r - 1]))
    sheet.question(W["ws_q_softmax"].format(i=i))
    sheet.cells([formats.format_value(x, "scores") for x in S_masked[i - 1]], header=[*tokens, W["fig_sum"]],
                row_label=W["ws_score"])
    sheet.cells([""] * (T + 1), row_label="eˢ",
                answers=blank([*(formats.format_approx(e) for e in exps), formats.format_approx(float(exps.sum()))]))
    sheet.cells([""] * T, row_label=W["ws_weight"], answers=blank(formats.format_value(p, "weights")
                                                                      for p in P[i - 1]))
    sheet.question(W["ws_q_output"].format(i=i))
    sheet.cells([""] * dh, header=components, answers=blank(formats.format_value(x) for x in O[i - 1]))
    if command:
        sheet.text(MARGIN, A4[1] - 0.35, W["ws_how"].format(command=command), size=10, color="0.3")
    use_font(sheet.fig, look.family)
    return sheet.fig


def write(tr, lang, out, head=0, seed=None, command=None):  # -> (worksheet path, answer key path)
    """Both pages as A4 PDFs in the folder `out`, with real text: worksheet.pdf and answer_key.pdf."""
    out = Path(out)
    paths = tuple(out / name for name in FILES)
    for path, answers in zip(paths, (False, True), strict=True):
        save(page(tr, lang, answers, head, seed, command), path, "pdf", slide=True)  # the whole A4 page
    return paths
