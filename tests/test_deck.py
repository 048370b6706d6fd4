"""The teaching deck (`figures.deck`), as PDF and as an editable pptx: every number on every slide, in both
languages, at the article's size and at --T 8 --d 16 --h 4; native tables LibreOffice reads; notes that teach."""

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

import attention_lab as al
from attention_lab.figures import command, deck
from attention_lab.look import words

ARTICLE = Path("/work/shared/seed/000_26358a138a15d90c.txt")
SIZES = {"article": [], "T8": ["--T", "8", "--d", "16", "--h", "4"]}
TRACES = {"article": al.article_example(), "T8": al.article_example(T=8, d=16, h=4)}


LATIN_FONT = {"ko": "Noto Sans CJK KR", "en": "DejaVu Sans"}  # the fonts the deck measures Latin letters in


def write(folder, lang, size, kind):  # -> the deck's path, written by the command as a lecturer runs it
    argv = ["--out", str(folder), "--deck", *([kind] if kind == "pptx" else []), "--lang", lang, *SIZES[size]]
    assert command.main(argv) == 0
    return folder / f"deck_{lang}.{kind}"


def values(tr, name, head, rows, cols):  # -> that part of the trace: the numbers a table's labels must show
    """The reference: the trace's own arrays, sliced by hand (a K/V stage at the article's sizes and at T = 8 has
    one K/V head per Query head)."""
    arrays = {"Qh": tr.Qh, "Vh": tr.Vh, "O": tr.O, "S": tr.S, "S_scaled": tr.S_scaled, "S_masked": tr.S_masked,
              "P": tr.P, "KhT": np.swapaxes(tr.Kh, 1, 2), "M": tr.M, "H": tr.H}
    matrix = arrays[name]
    if matrix.ndim == 3:
        matrix = matrix[head]
    return matrix[rows][:, cols]


def misread(labels, numbers):  # -> the labels that are not their number to their last shown digit
    """Each label read back as a number ("−" is a minus sign, "−∞" is −inf) must be its number rounded to the
    digits it shows: not compared with look.formats, which writes the deck's labels."""
    if np.shape(labels) != np.shape(numbers):
        return [("shape", np.shape(labels), np.shape(numbers))]
    wrong = []
    for label, x in zip(np.ravel(labels), np.ravel(numbers), strict=True):
        if x == -np.inf or label == "−∞":
            ok = label == "−∞" and x == -np.inf
        else:
            ok = re.fullmatch(r"−?\d+(\.\d+)?", label) is not None and abs(
                float(label.replace("−", "-")) - x) <= 0.5 * 10.0 ** -len(label.partition(".")[2]) + 1e-12
        if not ok:
            wrong.append((label, x))
    return wrong


def missing(labels, text):  # -> the labels a page's text does not show, in reading order
    """A table's numbers must all be on its page: each row's numbers in order, as pdftotext reads a row (a blank
    cell, a build-up's row still to come, shows nothing)."""
    words_ = text.split()
    gone, at = [], 0
    for row in labels:
        for label in filter(None, row):
            try:
                at = words_.index(label, at) + 1
            except ValueError:
                gone.append(label)
    return gone


def page_texts(pdf):  # -> [str], one per page
    n = int(re.search(r"Pages:\s+(\d+)", subprocess.run(["pdfinfo", str(pdf)], capture_output=True,
                                                          text=True).stdout).group(1))
    return [subprocess.run(["pdftotext", "-layout", "-f", str(k), "-l", str(k), str(pdf), "-"], capture_output=True,
                           text=True).stdout for k in range(1, n + 1)]


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("size", ["article", "T8"])
def test_every_table_holds_the_traces_numbers_and_every_matrix_is_whole(lang, size):
    """The plan: each table block is that part of the trace, labelled by the one rule; the blocks of a matrix cover
    it; nothing is under 10 pt."""
    tr = TRACES[size]
    covered, shown = {}, {}
    for page in deck.pages(tr, lang):
        for item in page.items:
            assert item.pt >= 10, page.title
            if isinstance(item, deck.Placed) and item.table.name != "softmax_row":
                t = item.table
                assert misread(t.labels, values(tr, t.name, t.head or 0, t.rows, t.cols)) == [], t.title
                key = (page.title[0].split(" (")[0], t.name, t.head)
                covered.setdefault(key, set()).update((i, j) for i in t.rows for j in t.cols)
                shown.update(((t.name, t.head, i, j), t.labels[a][b]) for a, i in enumerate(t.rows)
                             for b, j in enumerate(t.cols))
    for (title, name, head), cells in covered.items():
        rows, cols = values(tr, name, head or 0, slice(None), slice(None)).shape
        assert cells == {(i, j) for i in range(rows) for j in range(cols)}, (title, name)
    assert ("QKᵀ", "H") not in covered and any(name == "H" for _, name, _ in covered)
    if size == "article":  # Query token 3 of Head 1, as the article writes it
        for name, row in (("S", ["2", "0", "6"]), ("S_scaled", ["1", "0", "3"]), ("P", ["0.114", "0.042", "0.844"])):
            assert [shown[(name, 0, 2, j)] for j in range(3)] == row, name


def test_the_softmax_row_is_built_up_in_the_articles_steps():
    """Token 3's row: [1, 0, 3]; then e¹, e⁰, e³; then their sum; then the weights, as the article writes them."""
    steps = [p for p in deck.pages(al.article_example(), "en") if "become weights (" in p.title[0]]
    assert [p.title[0][-5:] for p in steps] == ["(1/4)", "(2/4)", "(3/4)", "(4/4)"]
    tables = [next(i.table for i in p.items if isinstance(i, deck.Placed)) for p in steps]
    assert [sum(any(row) for row in t.labels) for t in tables] == [1, 2, 2, 3]  # the rows shown; the rest blank
    assert all(not any(row) for t in tables for row in t.labels[sum(any(r) for r in t.labels):])
    assert tables[3].labels == (("1", "0", "3"), ("2.718", "1", "20.09"), ("0.114", "0.042", "0.844"))
    lines = [" ".join(line for i in p.items if isinstance(i, deck.Text) for line in i.lines).strip() for p in steps]
    assert lines[:2] == ["", ""] and "2.718 + 1 + 20.09 ≈ 23.8" in lines[2] and lines[3] == lines[2]


def test_the_softmax_row_shows_shifted_exponentials_when_the_plain_ones_overflow():
    """Key token 1's score 5×10¹⁵³: e^s is ∞, and ∞ / ∞ is no weight. The slides show e^(s − m), m the row's
    largest score (math.exp of each), and say so."""
    K = np.zeros((3, 4))
    K[0, 0] = 1e154
    tr = al.attention_trace(np.ones((3, 4)), K, np.ones((3, 4)), 1, mask=al.Mask("causal"))
    steps = [p for p in deck.pages(tr, "en") if "become weights (" in p.title[0]]
    table = next(i.table for i in steps[3].items if isinstance(i, deck.Placed))
    row = tr.S_masked[0, -1]
    m = row[np.isfinite(row)].max()
    assert m == 5e153  # token 3's row: 1e154 / √4, 0, 0
    # e^(s − m): e⁰ = 1, e^(−5×10¹⁵³) = 0.0 for two keys the row sees: "0.000", never "0", a masked cell's label
    assert table.labels[1] == ("1", "0.000", "0.000")
    lines = " ".join(line for i in steps[3].items if isinstance(i, deck.Text) for line in i.lines)
    assert "e^(s − 5×10¹⁵³) is shown instead" in lines and "∞" not in lines, lines


def test_the_label_reader_refuses_a_label_that_is_not_its_number():
    """The wrong labels misread must find, beside the right ones it must pass."""
    right = [(["0.114", "0.042", "0.844"], [0.11420, 0.04200, 0.84379]), (["−2", "0", "−∞"], [-2.0, 0.0, -np.inf]),
             (["20.09", "1.5"], [np.exp(3), 1.5])]
    for labels, numbers in right:
        assert misread([labels], [numbers]) == [], labels
    for label, x in (("0.115", 0.1142), ("0.12", 0.1142), ("2", -2.0), ("−∞", 0.0), ("0", -np.inf),
                     ("-inf", -np.inf), ("-1e9", -1e9), ("1.5e0", 1.5), ("", 0.0), ("1,5", 1.5)):
        assert misread([[label]], [[x]]) != [], (label, x)
    assert misread([["1", "2"]], [[1.0, 2.0, 3.0]]) != []  # a number left out


def test_the_checker_refuses_a_page_that_lost_a_number():
    """The wrong answers the page check must refuse: a number dropped, another in its place, a row out of order."""
    labels = [["1", "0", "−∞"], ["0.114", "0.042", "0.844"]]
    assert missing(labels, "1 0 −∞ 0.114 0.042 0.844") == []
    for wrong in ("1 0 0.114 0.042 0.844", "1 0 −∞ 0.114 0.04 0.844", "1 0 −∞ 0.114 0.844 0.042",
                  "1 0 -inf 0.114 0.042 0.844", "values left out"):
        assert missing(labels, wrong), wrong


@pytest.fixture(scope="module")
def pdf_decks(tmp_path_factory):  # -> {(lang, size): path} of the four PDF decks, each written once
    """Korean, then English into one folder for each size, as a lecturer teaching in both languages writes them."""
    folder = tmp_path_factory.mktemp("pdf_decks")
    return {(lang, size): write(folder / size, lang, size, "pdf") for size in SIZES for lang in ("ko", "en")}


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("size", ["article", "T8"])
def test_every_pdf_slide_shows_the_numbers_of_its_tables(pdf_decks, lang, size):
    pdf = pdf_decks[(lang, size)]
    pages, texts = deck.pages(TRACES[size], lang), page_texts(pdf)
    assert len(texts) == len(pages)
    omitted = [words.say(k, lang) for k in ("fig_omitted", "fig_omitted_some")]
    for page, text in zip(pages, texts, strict=True):
        flat = " ".join(text.split())
        assert " ".join(" ".join(page.title).split()) in flat and not any(o in flat for o in omitted)
        for item in page.items:
            if isinstance(item, deck.Placed):
                assert missing(item.table.labels, text) == [], (page.title, item.table.title)


def test_korean_then_english_into_one_folder_keeps_both_decks(pdf_decks):
    """A lecturer teaching in both languages writes both decks into one --out: the second must not replace the
    first (each file is named by its language). pdf_decks wrote the article's size's Korean deck, then its English
    deck, into one folder."""
    ko, en = pdf_decks[("ko", "article")], pdf_decks[("en", "article")]
    assert ko.parent == en.parent
    assert ko != en and ko.exists() and en.exists()
    first = {lang: " ".join(page_texts(path)[0].split()) for lang, path in (("ko", ko), ("en", en))}
    for lang in ("ko", "en"):
        title = " ".join(" ".join(deck.pages(TRACES["article"], lang)[0].title).split())
        assert title in first[lang], (lang, title, first[lang][:200])
    assert first["ko"] != first["en"]


@pytest.fixture(scope="module")
def pptx_decks(tmp_path_factory):  # -> {(lang, size): path} of the four editable decks, each written once
    folder = tmp_path_factory.mktemp("decks")
    return {(lang, size): write(folder / lang / size, lang, size, "pptx").rename(folder / f"deck_{lang}_{size}.pptx")
            for lang in ("ko", "en") for size in SIZES}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_pptx_is_native_tables_under_titled_slides_with_notes_that_teach(pptx_decks, lang):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    tr = TRACES["T8"]
    pres = Presentation(str(pptx_decks[(lang, "T8")]))
    assert (pres.slide_width.inches, pres.slide_height.inches) == pytest.approx(al.figures.SLIDE_SIZE)
    pages = deck.pages(tr, lang)
    article = " ".join(ARTICLE.read_text(encoding="utf-8").split())
    assert len(pres.slides) == len(pages)
    tables = 0
    for page, slide in zip(pages, pres.slides, strict=True):
        assert slide.shapes.title.text.split() == " ".join(page.title).split()  # in the title placeholder
        assert not [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE]
        notes = slide.notes_slide.notes_text_frame.text
        quote = notes.split("“")[-1].rstrip("”")
        assert words.say("deck.ask", lang) in notes and len(quote) > 20
        if lang == "ko":
            assert quote in article, quote  # the article's own sentence
        for shape in slide.shapes:
            if not shape.has_table:
                continue
            tables += 1
            found = re.fullmatch(r"(\w+)(?: head=(\d+))? rows=(\d+)-(\d+) cols=(\d+)-(\d+)", shape.name)
            name, head, r0, r1, c0, c1 = found.groups()
            cells = [[cell.text for cell in row.cells][1:] for row in list(shape.table.rows)[1:]]
            if name != "softmax_row":
                head = int(head) - 1 if head else 0
                part = values(tr, name, head, slice(int(r0) - 1, int(r1)), slice(int(c0) - 1, int(c1)))
                assert misread(cells, part) == [], shape.name
            for row in list(shape.table.rows)[1:]:
                for cell in list(row.cells)[1:]:
                    assert cell.fill.fore_color.rgb is not None  # a fill a lecturer can change
                    run = cell.text_frame.paragraphs[0].runs[0]
                    assert run.font.size.pt >= 10 and run.font.name == LATIN_FONT[lang]
    assert tables == sum(isinstance(i, deck.Placed) for p in pages for i in p.items)
    flow = [s.text_frame.text for s in pres.slides[1].shapes if s.shape_type == MSO_SHAPE_TYPE.AUTO_SHAPE]
    assert "Concat" in flow and sum("Core Attention" in t for t in flow) == tr.h  # figure 1 as shapes to edit
    masked = [cell for slide in pres.slides for s in slide.shapes if s.has_table and s.name.startswith("M ")
              for row in s.table.rows for cell in row.cells if cell.text == "−∞"]
    assert masked and all(str(c.fill.fore_color.rgb) == "D1D1D1" for c in masked)  # greyed, as the figures
    props = pres.core_properties
    assert props.author == props.last_modified_by == "attention-lab" and props.revision == 1


def test_libreoffice_impress_opens_the_pptx_and_prints_every_number_and_title(pptx_decks, tmp_path):
    """One LibreOffice run converts the four decks (ko, en × the article's size, T = 8); pdftotext finds every
    slide's title and every number of its tables on that slide, and each line of a table's heading on one line:
    a heading line that LibreOffice wraps pushes the heading's last line under the grid, where it cannot be read
    (pdftotext still finds it, so the words alone would not show it)."""
    from test_worksheet import needs_a_korean_font

    needs_a_korean_font()  # without one, LibreOffice substitutes the Korean titles' glyphs ("1가" for "1인")
    decks = pptx_decks
    done = subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/profile", "--headless",
                           "--convert-to", "pdf", "--outdir", str(tmp_path / "lo"), *map(str, decks.values())],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for (lang, size), path in decks.items():
        pdf = tmp_path / "lo" / f"{path.stem}.pdf"
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        assert "960" in info and "x 540 pts" in info
        pages, texts = deck.pages(TRACES[size], lang), page_texts(pdf)
        assert len(texts) == len(pages), (lang, size)
        for page, text in zip(pages, texts, strict=True):
            flat = "".join(text.split())
            assert "".join("".join(page.title).split()) in flat, (lang, size, page.title)
            lines = ["".join(line.split()) for line in text.splitlines()]
            for item in page.items:
                if isinstance(item, deck.Placed):
                    assert missing(item.table.labels, text) == [], (lang, size, page.title, item.table.title)
                    for heading in deck.table_heading(item.table):
                        assert any("".join(heading.split()) in line for line in lines), (lang, size, heading)


def breaks_inside_a_formula(lines):  # -> [(line, next line)] where a title's line break splits a formula
    """The reference: a break is inside a formula where `between_terms` (its catalogue is the test below) says so."""
    from attention_lab.figures.lines import between_terms

    lines = [line for line in lines if line]
    words_ = " ".join(lines).split(" ")
    good, at, bad = between_terms(words_), 0, []
    for line, after in zip(lines, lines[1:], strict=False):
        at += len(line.split(" "))
        if not good[at - 1]:
            bad.append((line, after))
    return bad


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_wrapping_with_terms_never_breaks_inside_a_formula_and_fits_what_can_fit(lang):
    """terms=True at every width: the title whole, no break inside a formula, every line that holds a break
    between terms within the width (a term wider than the line stays whole, alone)."""
    from attention_lab.figures.heatmap import font_family, width_em
    from attention_lab.figures.lines import between_terms, wrap
    from attention_lab.numeric.pipeline import HEAD_STAGES

    family = font_family(lang)
    for title in (words.say(f"stage.{name}", lang) for name in HEAD_STAGES):
        for width in range(30, 320, 7):
            lines = wrap(title, width, 16, family, terms=True)
            assert " ".join(lines) == title and breaks_inside_a_formula(lines) == [], (title, width)
            good, at = between_terms(title.split(" ")), 0
            for line in lines:  # a line too wide holds no break between terms (its words' spaces in the title)
                n = len(line.split(" "))
                assert width_em(line, tuple(family)) * 16 <= width or not any(good[at:at + n - 1]), (line, width)
                at += n
    e = words.say("stage.E", lang)  # E = exp(S / √dh + M − row max)
    assert wrap(e, 160, 16, family, terms=True) == ["E = exp(S / √dh", "+ M − " + e.split(" − ")[1]]
    assert breaks_inside_a_formula(["E = exp(S", "/ √dh + M", "− row max)"]) == [("E = exp(S", "/ √dh + M")]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_no_slide_title_breaks_inside_a_formula(pptx_decks, lang, size):
    """Every title of the PDF deck (as drawn), the pptx (as written) and every `--slides` figure (the figure's
    title and every panel's), at the article's size and at --T 8 --d 16 --h 4."""
    from pptx import Presentation

    from attention_lab.figures.export import _page_figure, figures_to_write

    tr, titles = TRACES[size], []
    for page in deck.pages(tr, lang):
        fig = _page_figure(page, lang)
        titles += [t.get_text().split("\n") for t in fig.axes[0].texts if t.get_fontsize() >= deck.TITLE_PT]
    pres = Presentation(str(pptx_decks[(lang, size)]))
    titles += [[p.text for p in slide.shapes.title.text_frame.paragraphs] for slide in pres.slides]
    for _, make, _ in figures_to_write(tr, lang, slides=True):
        fig = make()
        titles += [t.get_text().split("\n") for t in [fig._suptitle, *fig.texts] if t is not None]
        titles += [ax.title.get_text().split("\n") for ax in fig.axes]
    assert any(len(lines) > 1 for lines in titles)  # some titles do break: the check has something to refuse
    assert [(lines, bad) for lines in titles if (bad := breaks_inside_a_formula(lines))] == []


def test_between_terms_refuses_the_breaks_inside_a_formula():
    """The catalogue of breaks it must call inside a formula, beside those between terms."""
    from attention_lab.figures.lines import between_terms

    words_ = "E = exp(S / √dh + M − row max)".split(" ")
    good = dict(zip(zip(words_, words_[1:], strict=False), between_terms(words_), strict=True))
    assert good == {("E", "="): False, ("=", "exp(S"): True, ("exp(S", "/"): False, ("/", "√dh"): False,
                    ("√dh", "+"): True, ("+", "M"): False, ("M", "−"): True, ("−", "row"): False,
                    ("row", "max)"): False}
    assert between_terms(["3", "×", "4"]) == [False, False] and between_terms(["O", "=", "PV"]) == [False, True]
    assert between_terms(["Head", "1:", "S", "/", "√dh"]) == [True, True, False, False]


def test_the_softmax_row_shows_shifted_exponentials_when_the_plain_ones_underflow():
    """Scores of −7071.07 and −7141.78: each e^s underflows to 0, and 0 / 0 is no weight (the slides said
    "weights = eˢ / 0" over weights 1 and 0.000). They show e^(s − m) and say so (issue 27, sixth fuzz round)."""
    tr = al.attention_trace([[-100.0, 0.0]] * 2, [[100.0, 0.0], [101.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], 1,
                            mask=al.Mask("none"))
    steps = [p for p in deck.pages(tr, "en") if "become weights (" in p.title[0]]
    table = next(i.table for i in steps[3].items if isinstance(i, deck.Placed))
    assert table.labels[1] == ("1", "1.953×10⁻³¹")  # e^(s − m): e⁰ = 1 and e^(−70.71), not 0 and 0
    lines = " ".join(line for i in steps[3].items if isinstance(i, deck.Text) for line in i.lines)
    assert "e^(s − (−7071.07)) is shown instead" in lines and "too small" in lines, lines
