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


# ---------------------------------------------------------------------------
# Issue 49: products from their shown factors, the highlighted score, one layout across a build-up and across
# both editions, readable sizes, H in the heads' colours.

NUMBER = r"−?\d+(?:\.\d+)?"


def shown(label):  # -> (the number a label shows, half a unit of its last digit): the reference, by hand
    return float(label.replace("−", "-")), 0.5 * 10.0 ** -len(label.partition(".")[2])


def reproduces(result, label):
    value, half = shown(label)
    return abs(result - value) <= half + 1e-12


def products(text, v_rows):  # -> [(what, relation, whether the shown factors give the shown result)]
    """Every product a slide's text shows, worked out again from the factors it shows: a dot product S[i, j] = a × b
    + …, a quotient S[i, j] ÷ √dh = s ÷ √n, a weighted Value row p × V[j] = [...] (V[j] as its table shows it)."""
    text = " ".join(text.replace("\u00a0", " ").split())
    found = []
    for terms, rel, result in re.findall(rf"S\[\d+, \d+\] = ((?:\(?{NUMBER}\)? × \(?{NUMBER}\)?(?: \+ )?)+) ([=≈]) "
                                         rf"({NUMBER})", text):
        pairs = re.findall(rf"\(?({NUMBER})\)? × \(?({NUMBER})\)?", terms)
        total = sum(shown(a)[0] * shown(b)[0] for a, b in pairs)
        found.append((f"S = {terms}", rel, reproduces(total, result)))
    for score, n, rel, result in re.findall(rf"= ({NUMBER}) ÷ √(\d+) ([=≈]) ({NUMBER})", text):
        found.append((f"{score} ÷ √{n}", rel, reproduces(shown(score)[0] / np.sqrt(int(n)), result)))
    for p, j, rel, row in re.findall(rf"({NUMBER}) × V\[(\d+)\] ([=≈]) \[([^\]]+)\]", text):
        labels = row.split(", ")
        ok = all(reproduces(shown(p)[0] * shown(x)[0], y) for x, y in zip(v_rows[int(j) - 1], labels, strict=True))
        found.append((f"{p} × V[{j}]", rel, ok))
    return found


ROUNDED = {"en": "rounded", "ko": "반올림"}


def check_products(text, v_rows, lang):  # -> the products that are neither reproduced nor said to be rounded
    said = ROUNDED[lang] in text  # the slide's own word for it, not the deck's words: the reference
    return [(what, rel) for what, rel, ok in products(text, v_rows) if not ok and not (rel == "≈" and said)]


def test_the_product_checker_refuses_a_product_its_factors_do_not_give():
    """Its catalogue: issue 49's 0.629 × 2 shown as 1.257; a dot product and a quotient off in their last digit;
    beside right ones, and a rounded one the slide says is rounded."""
    v = [["1", "0"], ["2", "−2"]]
    assert check_products("0.629 × V[2] = [1.257, −1.257]", v, "en") == [("0.629 × V[2]", "=")]
    assert check_products("0.629 × V[2] = [1.258, −1.258]  0.5 × V[1] = [0.5, 0]", v, "en") == []
    assert check_products("S[3, 1] = 0.5 × 0.5 + 1 × (−1) = −0.76", v, "en") != []
    assert check_products("S[3, 1] = 0.5 × 0.5 + 1 × (−1) = −0.75", v, "en") == []
    assert check_products("S[3, 1] ÷ √dh = 1.23 ÷ √4 = 0.62", v, "en") == []
    assert check_products("S[3, 1] ÷ √dh = 1.26 ÷ √4 = 0.62", v, "en") != []
    rounded = "≈: the factors are shown rounded"
    assert check_products(f"0.629 × V[2] ≈ [1.257, −1.257] {rounded}", v, "en") == []
    assert check_products("0.629 × V[2] ≈ [1.257, −1.257]", v, "en") != []  # ≈ alone does not say why
    assert len(products("S[1, 1] = 1 × 2 + 3 × (−1) = −1  2 ÷ √4 = 1", v)) == 1  # not a "= 2 ÷ √4" chain


def pptx_texts(pres):  # -> (each slide's text, V's rows as the deck's V tables show them)
    texts, v = [], {}
    for slide in pres.slides:
        text = []
        for shape in slide.shapes:
            if shape.has_table:
                rows = [[cell.text for cell in row.cells][1:] for row in list(shape.table.rows)[1:]]
                if shape.name.startswith("Vh "):  # "Vh head=1 rows=1-3 cols=1-4": its place in V
                    r0, c0 = (int(x) - 1 for x in re.search(r"rows=(\d+)-\d+ cols=(\d+)-", shape.name).groups())
                    v.update(((r0 + i, c0 + j), x) for i, row in enumerate(rows) for j, x in enumerate(row))
                text += [" ".join(r) for r in rows]
            elif shape.has_text_frame:
                text.append(shape.text_frame.text)
        texts.append(" ".join(text))
    n_rows, n_cols = (max(k[a] for k in v) + 1 for a in (0, 1))
    return texts, [[v[(i, j)] for j in range(n_cols)] for i in range(n_rows)]


SEEDED = ["--seed", "5"]  # issue 49's deck: 0.629 × V[2] = [1.257, …]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_product_on_every_slide_is_its_shown_factors_product_or_says_it_is_rounded(tmp_path, lang):
    """At --seed 5 (issue 49), the article's size and --T 8: every product in the pptx's text and in the PDF's
    (pdftotext), worked out again from the factors the slide shows."""
    from pptx import Presentation

    for k, argv in enumerate([SEEDED, [], SIZES["T8"]]):
        folder = tmp_path / str(k)
        for kind in ("pptx", "pdf"):
            assert command.main(["--out", str(folder), "--deck", *([kind] if kind == "pptx" else []), "--lang",
                                 lang, *argv]) == 0
        slides, v_rows = pptx_texts(Presentation(str(folder / f"deck_{lang}.pptx")))
        texts = page_texts(folder / f"deck_{lang}.pdf")
        assert len(texts) == len(slides)
        seen = [p for text in slides for p in products(text, v_rows)]
        assert {what.split(" ")[1] for what, _, _ in seen} >= {"=", "÷", "×"}, seen  # all three kinds found
        for text, pdf_text in zip(slides, texts, strict=True):
            assert check_products(text, v_rows, lang) == [], (argv, text)
            assert check_products(pdf_text, v_rows, lang) == [], (argv, pdf_text)
            assert len(products(pdf_text, v_rows)) == len(products(text, v_rows)), (argv, pdf_text)


def rendered(pdf, page, folder, dpi=72):  # -> the page as an RGB array, one pixel a point (pdftoppm)
    from PIL import Image

    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", str(pdf),
                    str(folder / "page")], check=True)
    return np.asarray(Image.open(folder / "page.png").convert("RGB"), float)


def cell_box(shape, i, j):  # -> (left, top, right, bottom) in points of the table's cell (i, j), header row/col 0
    from pptx.util import Emu

    xs = np.cumsum([0] + [c.width for c in shape.table.columns]) + shape.left
    ys = np.cumsum([0] + [r.height for r in shape.table.rows]) + shape.top
    return tuple(Emu(int(e)).pt for e in (xs[j], ys[i], xs[j + 1], ys[i + 1]))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_highlighted_score_is_highlighted_in_the_pptx_and_the_pdf(pptx_decks, pdf_decks, tmp_path, lang):
    """Slide 3's notes say "Compute the highlighted score by hand": S[3, 1]'s cell is framed, in the pptx by its
    four borders and in the PDF by a dark frame (its pixels), and no other cell of S is."""
    from pptx import Presentation
    from pptx.oxml.ns import qn

    slide = Presentation(str(pptx_decks[(lang, "article")])).slides[2]
    notes = slide.notes_slide.notes_text_frame.text
    assert "highlighted" in notes or "강조한" in notes
    S = next(s for s in slide.shapes if s.has_table and s.name.startswith("S "))

    def framed(cell):
        tc_pr = cell._tc.tcPr
        sides = [tc_pr.find(qn(f"a:ln{side}")) for side in "LRTB"] if tc_pr is not None else [None] * 4
        return all(side is not None and int(side.get("w")) >= 3 * 12700 for side in sides)

    marked = [(i, j) for i in range(1, 4) for j in range(1, 4) if framed(S.table.cell(i, j))]
    assert marked == [(3, 1)]  # Query token 3, Key token 1: the score the line works out
    page = rendered(pdf_decks[(lang, "article")], 3, tmp_path)
    left, top, right, bottom = cell_box(S, 3, 1)
    inner = page[int(top) + 6:int(bottom) - 6, int(left) + 6:int(right) - 6]
    for edge in (page[int(round(top)) - 1:int(round(top)) + 2, int(left) + 4:int(right) - 4],
                 page[int(top) + 4:int(bottom) - 4, int(round(left)) - 1:int(round(left)) + 2]):
        assert edge.mean(axis=-1).min(axis=0).max() < 60, edge.mean(axis=-1)  # dark all along (black: 0)
    other = cell_box(S, 3, 2)  # the cell beside it: only its light grid line
    assert page[int(round(other[1])) - 1:int(round(other[1])) + 2, int(other[0]) + 6:int(other[2]) - 6].mean() > 120
    assert inner.size and inner.mean() > 60  # the cell inside the frame keeps its fill


def build_up(pres):  # -> the softmax build-up's slides of a pptx: (title, [(name, left, top, width, height)])
    out = []
    for slide in pres.slides:
        title = slide.shapes.title.text
        if re.search(r"\([1-4]/4\)", title) and "oftmax" in title:
            out.append([(s.name.split(" ")[0] if s.has_table else s.shape_type, s.left, s.top, s.width, s.height)
                        for s in slide.shapes if s != slide.shapes.title])
    return out


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_softmax_build_up_keeps_one_layout(pptx_decks, lang, size):
    """Slides 6–9 built one row at a time jumped in size and place (issue 49): every step's table, heading and lines
    sit where the last step's do, at its size."""
    from pptx import Presentation

    steps = build_up(Presentation(str(pptx_decks[(lang, size)])))
    assert len(steps) % 4 == 0 and steps
    for k in range(0, len(steps), 4):
        assert steps[k] == steps[k + 1] == steps[k + 2] == steps[k + 3], steps[k:k + 4]
        assert any(name == "softmax_row" for name, *_ in steps[k])


def slide_kinds(tr, lang):  # -> per slide: its tables (array, head, rows, columns) and how many texts and boxes
    return [(tuple((i.table.name, i.table.head, i.table.rows, i.table.cols) for i in p.items
                   if isinstance(i, deck.Placed)),
             sum(isinstance(i, deck.Text) for i in p.items), sum(isinstance(i, deck.Box) for i in p.items))
            for p in deck.pages(tr, lang)]


@pytest.mark.parametrize("sizes", [{}, {"T": 8, "d": 16, "h": 4}, {"T": 16}, {"T": 16, "d": 64, "h": 8}])
def test_the_korean_and_english_decks_have_the_same_slides(sizes):
    """At T = 8 the Korean deck had 17 slides and the English 19 (issue 49): the same slides, the same tables in
    the same places at the same sizes, at the article's size, T = 8 and the largest T the deck allows."""
    tr = al.article_example(**sizes)
    assert slide_kinds(tr, "ko") == slide_kinds(tr, "en")
    for ko, en in zip(deck.pages(tr, "ko"), deck.pages(tr, "en"), strict=True):
        placed = [[(i.x, i.y, i.w, i.cell_w, i.cell_h, i.pt) for i in p.items if isinstance(i, deck.Placed)]
                  for p in (ko, en)]
        assert placed[0] == placed[1], ko.title


@pytest.mark.parametrize("size", list(SIZES))
def test_the_korean_concat_is_as_wide_as_the_english(pptx_decks, size):
    """Korean Concat took 2/3 of the English one's width (issue 49): its tables' widths, in the pptx, within 90%."""
    from pptx import Presentation

    def concat_width(lang):
        pres = Presentation(str(pptx_decks[(lang, size)]))
        return sum(s.width for slide in pres.slides if "Concat" in slide.shapes.title.text for s in slide.shapes
                   if s.has_table)

    assert concat_width("ko") >= 0.9 * concat_width("en") > 0


def test_h_is_in_the_heads_colours(pptx_decks):
    """H's halves (columns 1–4 from O₁, 5–8 from O₂) filled with the heads' colours (look.colors), as figure 1."""
    from pptx import Presentation

    from attention_lab.look import colors

    for lang in ("ko", "en"):
        for size, tr in TRACES.items():
            pres = Presentation(str(pptx_decks[(lang, size)]))
            blocks = [s for slide in pres.slides for s in slide.shapes if s.has_table and s.name.startswith("H ")]
            assert blocks
            for shape in blocks:
                c0 = int(re.search(r"cols=(\d+)-", shape.name).group(1)) - 1
                for row in list(shape.table.rows)[1:]:
                    for j, cell in enumerate(list(row.cells)[1:]):
                        want = colors.head_color((c0 + j) // tr.dh).lstrip("#").upper()
                        assert str(cell.fill.fore_color.rgb) == want, (lang, size, shape.name, j)


def test_every_number_of_the_pptx_is_18_pt_or_more_at_the_articles_size(pptx_decks):
    """Readable from the back of a room (issue 49): at T = 3 every run that holds a digit, in a table, a line of
    text or a box of figure 1's flow, is at least 18 pt."""
    from pptx import Presentation

    for lang in ("ko", "en"):
        small = []
        for k, slide in enumerate(Presentation(str(pptx_decks[(lang, "article")])).slides, start=1):
            frames = []
            for shape in slide.shapes:
                if shape.has_table:
                    frames += [cell.text_frame for row in shape.table.rows for cell in row.cells]
                elif shape.has_text_frame:
                    frames.append(shape.text_frame)
            small += [(k, run.text, run.font.size.pt) for frame in frames for p in frame.paragraphs for run in p.runs
                      if re.search(r"\d", run.text) and run.font.size.pt < 18]
        assert small == [], (lang, small[:10])


def word_sizes(pdf, page):  # -> [(word, height in points)] of a page, pdftotext -bbox
    html = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    return [(w, float(y1) - float(y0)) for y0, y1, w in
            re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', html)]


@pytest.mark.slow
def test_libreoffice_prints_every_number_at_18_pt_or_more_at_the_articles_size(pptx_decks, tmp_path):
    """The pptx at T = 3 through LibreOffice: on every slide, every number pdftotext finds is as tall as 18 pt text
    or taller (heights in units of the slide title's, TITLE_PT or COVER_PT: the same font)."""
    from test_worksheet import needs_a_korean_font

    needs_a_korean_font()
    decks = [pptx_decks[(lang, "article")] for lang in ("ko", "en")]
    done = subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/profile", "--headless",
                           "--convert-to", "pdf", "--outdir", str(tmp_path), *map(str, decks)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    for lang, path in zip(("ko", "en"), decks, strict=True):
        pdf = tmp_path / f"{path.stem}.pdf"
        pages = deck.pages(TRACES["article"], lang)
        checked = 0
        for k, page in enumerate(pages, start=1):
            sizes = word_sizes(pdf, k)
            title = [h for w, h in sizes if w in page.title[0].split()]
            per_pt = max(title) / (deck.COVER_PT if page.subtitle else deck.TITLE_PT)  # box height per point
            numbers = [(w, h / per_pt) for w, h in sizes if re.fullmatch(NUMBER, w)]
            checked += len(numbers)
            assert all(pt >= 18 - 0.5 for _, pt in numbers), (lang, k, [n for n in numbers if n[1] < 17.5])
        assert checked > 100, checked
