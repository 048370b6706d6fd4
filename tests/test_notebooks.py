"""The stored notebooks: both editions in step, linked in order and to each other, executed cleanly, the article's
numbers checked, exercises with their solution folded in Markdown.

nbval itself (pytest's testpaths include notebooks/) re-runs every notebook;
these tests read the stored files and are fast.
"""

import importlib.util
import inspect
import io
import keyword
import re
import sys
import tokenize
from collections import Counter
from pathlib import Path

import nbformat
import pytest

import attention_lab as al
from attention_lab import exercises as ex
from attention_lab.numeric.tiny_model import TOKENS

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SOURCES = ROOT / "tools" / "notebooks"
NAMES = sorted(p.stem[2:] for p in SOURCES.glob("nb[0-9][0-9]_*.py"))  # nb00_overview.py -> 00_overview, …
LANGS = ("ko", "en")
CHECK_TAG = "nbval-check-output"
HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")

# The article's numbers, as the article writes them, that each notebook must print in a checked cell.
ARTICLE_NUMBERS = {
    "00_overview": ["[2, 0, 6]", "[1, 0, 3]", "[0.114, 0.042, 0.844]", "[0.114, 0.042, 0.844, 1]"],
    "01_heads": ["[−1, 1, 1, 2]", "(3, 8)"],
    "02_scores": ["[−1, 1, 1, 2]", "[1, −1, 2, 1]", "−1 × 1 + 1 × (−1) + 1 × 2 + 2 × 1 = 2", "[2, 0, 6]"],
    "03_scaling": ["[2, 0, 6]", "[1, 0, 3]", "[3, 1.5, −1]"],
    "04_causal_mask": ["[3, 1.5, −∞]", "[1, 0, 3]", "max |ΔO[1..2]| = 0  "],
    "05_softmax": ["[1, 0, 0]", "[0.818, 0.182, 0]", "[0.114, 0.042, 0.844]"],
    "06_weighted_sum": ["[0.114, 0.042, 0.844, 1]", "[0.818, 0.182, 0, 1]", "[1, 0, 0, 1]"],
    # H → the output projection → the residual stream, in shapes
    "07_explorer": ["H (3, 8) @ W_O (8, 8) → H·W_O (3, 8)", "x (3, 8) + H·W_O (3, 8) → (3, 8)"],
    # beyond the article. 08: grown to six tokens, the corner keeps the article's numbers
    "08_masks": ["[3, 1.5, −1, 0, 1.5, −0.5]", "[0.114, 0.042, 0.844, 0, 0, 0]", "[0.818, 0.182, 0, 0, 0, 0]"],
    "09_pytorch": ["[0.818, 0.182, 0]", "[0.114, 0.042, 0.844]", "[0.114, 0.042, 0.844, 1]"],
    # 10, 11: the same numbers, from the cache and from the online softmax
    "10_kv_cache": ["[−1, 1, 1, 2]", "[1, 0, 3]", "[0.114, 0.042, 0.844]", "[0.114, 0.042, 0.844, 1]"],
    "11_blockwise_softmax": ["m: −∞ → 1", "m: 1 → 1", "m: 1 → 3", "e^(m_old − m_new) = 0.135",
                             "[0.114, 0.042, 0.844]", "[0.114, 0.042, 0.844, 1]"],
}
WIDGET_VIEW = {
    "00_overview": "article", "01_heads": "heads", "02_scores": "scores", "03_scaling": "scaling",
    "04_causal_mask": "mask", "05_softmax": "softmax", "06_weighted_sum": "weighted_sum",
    "07_explorer": "article", "08_masks": "masks", "09_pytorch": "softmax", "10_kv_cache": "all",
}
WIDGETS = ("al.explorer(", "learned_explorer(", "al.decode_view(", "al.blockwise_view(")  # each follows a static figure
# of what it shows (learned_explorer: notebook 13's model, live/learned.py)
UNANSWERED = {"ko": "아직 답이 없습니다", "en": "No answer yet"}
EDITION_LINK = {"ko": "이 노트북의 영어판: [English](../en/{name}.ipynb)",
                "en": "This notebook in Korean: [한국어](../ko/{name}.ipynb)"}


def load(lang, name):
    return nbformat.read(NOTEBOOKS / lang / f"{name}.ipynb", as_version=4)


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def checked(cell):
    return CHECK_TAG in cell.metadata.get("tags", [])


def text_of(cell):
    """All stdout and text/plain output of a code cell."""
    parts = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            parts.append(out.text)
        elif "text/plain" in out.get("data", {}):
            parts.append(out.data["text/plain"])
    return "".join(parts)


@pytest.fixture(scope="module", params=[(lang, name) for name in NAMES for lang in LANGS], ids=lambda p: "/".join(p))
def notebook(request):
    lang, name = request.param
    return lang, name, load(lang, name)


def test_the_set_is_complete():
    for lang in LANGS:
        assert sorted(p.stem for p in (NOTEBOOKS / lang).glob("*.ipynb")) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_editions_have_identical_code_cells(name):
    ko, en = code_cells(load("ko", name)), code_cells(load("en", name))
    assert len(ko) == len(en)
    assert ko[0].source.splitlines()[0] == 'LANG = "ko"' and en[0].source.splitlines()[0] == 'LANG = "en"'
    for a, b in zip(ko, en, strict=True):
        assert a.source.replace('LANG = "ko"', 'LANG = "en"') == b.source
        assert a.metadata.get("tags") == b.metadata.get("tags")
    assert [c.cell_type for c in load("ko", name).cells] == [c.cell_type for c in load("en", name).cells]


NUMBER = re.compile(r"[−-]?\d+(?:[.,]\d+)*(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?|[−-]?∞|NaN|True|False")


@pytest.mark.parametrize("name", NAMES)
def test_checked_outputs_are_the_same_in_both_editions(name):
    # The words differ by language, and so may their order; what each checked cell says in numbers may not.
    def numbers(lang):
        return [Counter(NUMBER.findall(text_of(c))) for c in code_cells(load(lang, name)) if checked(c)]

    ko, en = numbers("ko"), numbers("en")
    assert ko == en
    assert sum(sum(cell.values()) for cell in ko) > 0, name  # something was compared


# ---- every printed line in the reader's language


URL = re.compile(r"\b[\w.-]+\.[a-z]{2,}/\S*")  # a web address: huggingface.co/…/config.json
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:'[a-z]+)?")  # a word, a name, or a word with an apostrophe (trace's)
GLUE = {"the", "of", "and", "to", "is", "are", "in", "on", "at", "with", "from", "by", "for", "as", "an", "no",
        "not", "all", "only", "may", "its", "their", "this", "that", "than", "be", "or", "so", "each", "every",
        "when", "where", "which", "what", "how", "into", "after", "before", "without"}  # sentences have them
LATIN = re.compile(r"[A-Za-z]{2,}")


def printed(nb):  # -> [text]: every text output a reader sees (a figure's text fallback is never shown)
    texts = []
    for cell in code_cells(nb):
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if out.output_type == "stream":
                texts.append(out.text)
            elif "image/png" not in data and "text/plain" in data:
                texts.append(data["text/plain"])
    return texts


def code_names(nb):  # -> the names in the notebook's code: its identifiers and its identifier-like strings
    names = {"True", "False", "None", "lambda"}
    for cell in code_cells(nb):
        try:
            for token in tokenize.generate_tokens(io.StringIO(cell.source).readline):
                if token.type == tokenize.NAME and not keyword.iskeyword(token.string):
                    names.add(token.string)
                elif token.type == tokenize.STRING:
                    names |= set(re.findall(r"['\"](\w+)['\"]", token.string))
        except (tokenize.TokenError, IndentationError):  # IPython syntax (%matplotlib): the rest still counts
            pass
    return names


def allowed_in_korean(name):  # the Latin words a Korean output may hold: code names, and the article's words
    korean_words = {w for ko, _en in al.words.WORDS.values() for w in LATIN.findall(ko)}
    prose = {w for c in load("ko", name).cells if c.cell_type == "markdown" for w in LATIN.findall(c.source)}
    units = {al.look.bytes_text(1024 ** k).split()[-1] for k in range(5)}
    stages = set(al.STAGES)  # the trace's fields: Q, Kh, S_scaled, …
    return (code_names(load("ko", name)) | korean_words | (prose - GLUE) | units | stages) - (GLUE - {"None"})


@pytest.mark.parametrize("name", NAMES)
def test_korean_outputs_have_no_english_words_outside_code_names_and_formulas(name):
    allowed = allowed_in_korean(name)
    for text in printed(load("ko", name)):
        for word in WORD.findall(URL.sub(" ", text)):
            if len(word) == 1 or "_" in word or any(ch.isdigit() for ch in word):
                continue  # a symbol (i, j, Q) or a code name (attn_mask, float16)
            if name == "13_learned_attention" and set(word) <= set(TOKENS):
                continue  # notebook 13's tokens and answers: CABDDA, "CA"
            assert word in allowed, (name, word, text[:300])


@pytest.mark.parametrize("name", NAMES)
def test_a_korean_line_says_its_truth_values_in_korean(name):  # 예 / 아니요 ({x:yes}), never True (issue 48.13)
    lines = [line for text in printed(load("ko", name)) for line in text.splitlines() if HANGUL.search(line)]
    assert lines, name
    # "…: True" is a sentence's value; "bool, True = 참조 가능" and "average_attn_weights=True" are code, and stay
    assert not [line for line in lines if re.search(r":\s*(True|False)\b", line)], name


@pytest.mark.parametrize("name", NAMES)
def test_english_outputs_have_no_hangul(name):
    nb = load("en", name)
    for cell in code_cells(nb):
        for out in cell.get("outputs", []):
            texts = [out.get("text", "")] + [v for k, v in out.get("data", {}).items() if k.startswith("text/")]
            assert not any(HANGUL.search(t) for t in texts if isinstance(t, str)), (name, cell.source[:80])


def test_the_korean_word_check_catches_an_english_sentence():
    allowed = allowed_in_korean("10_kv_cache")
    sentence = "step 1: the cache holds the K and V rows of tokens 1..1 (16 values)"
    assert {w for w in WORD.findall(sentence) if len(w) > 1 and w not in allowed} >= {"the", "holds", "of"}


def test_code_speaks_no_language_but_lang():
    # Code is shared, so language lives in Markdown and in lang=LANG; figures get no Hangul.
    for name in NAMES:
        for cell in code_cells(load("ko", name)):
            assert not HANGUL.search(cell.source), (name, cell.source)
            if "ex.check(" in cell.source or any(widget in cell.source for widget in WIDGETS):
                assert "lang=LANG" in cell.source


def test_markdown_speaks_its_language(notebook):
    lang, name, nb = notebook
    link = EDITION_LINK[lang].format(name=name)  # the one line that names the other language
    prose = "".join(c.source.replace(link, "") for c in nb.cells if c.cell_type == "markdown")
    hangul = len(HANGUL.findall(prose))
    assert (hangul > 200) if lang == "ko" else (hangul == 0), (lang, name, hangul)



def test_no_markdown_cell_turns_a_range_into_strikethrough(notebook):
    # JupyterLab's Markdown reads two single tildes as ~strikethrough~: "토큰 1~3 … 4~6" crossed out text.
    lang, name, nb = notebook
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            prose = re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", cell.source, flags=re.S))
            assert prose.count("~") < 2, (name, cell.source[:200])

def test_each_notebook_links_to_the_next(notebook):
    lang, name, nb = notebook
    following = NAMES[(NAMES.index(name) + 1) % len(NAMES)]
    last = nb.cells[-1]
    assert last.cell_type == "markdown"
    assert re.search(rf"\]\({following}\.ipynb\)", last.source), last.source


def test_stored_executed_in_order_without_errors_or_stderr(notebook):
    lang, name, nb = notebook
    assert nb.metadata.kernelspec.name == "python3"
    cells = code_cells(nb)
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    for cell in cells:
        for out in cell.outputs:
            assert out.output_type != "error", (name, cell.source)
            assert not (out.output_type == "stream" and out.name == "stderr"), (name, out.text)
            assert "Warning" not in text_of(cell), (name, text_of(cell))


def test_outputs_hold_no_absolute_paths_or_numpy_reprs(notebook):
    lang, name, nb = notebook
    for cell in code_cells(nb):
        text = text_of(cell)
        assert not re.search(r"/(work|root|home|tmp|Users)/", text), (name, text)
        if not text.startswith("<Figure"):
            assert "array(" not in text and "np.float" not in text, (name, text)


@pytest.mark.parametrize("name", list(ARTICLE_NUMBERS))
def test_the_articles_numbers_are_printed_in_checked_cells(name):
    for lang in LANGS:
        printed = "".join(text_of(c) for c in code_cells(load(lang, name)) if checked(c))
        for number in ARTICLE_NUMBERS[name]:
            assert number in printed, (lang, name, number)


def test_every_widget_has_a_static_figure_above_it(notebook):
    lang, name, nb = notebook
    cells = code_cells(nb)
    widgets = [i for i, c in enumerate(cells) if any(widget in c.source for widget in WIDGETS)]
    assert widgets, name
    for i in widgets:
        assert "application/vnd.jupyter.widget-view+json" in cells[i].outputs[0].data
        above = cells[i - 1]
        assert any("image/png" in out.get("data", {}) for out in above.outputs), (name, above.source)
    if name in WIDGET_VIEW:  # every explorer of the notebook shows the view of what it has taught
        explorers = [c.source for c in cells if "al.explorer(" in c.source]
        assert explorers and all(f'view="{WIDGET_VIEW[name]}"' in src for src in explorers), (name, explorers)


CAPTION = {"ko": re.compile(r"\*\*그림( \d+)?\.\*\* "), "en": re.compile(r"\*\*Figure( \d+)?\.\*\* ")}


def test_every_figure_has_a_caption_in_the_readers_language(notebook):
    lang, name, nb = notebook
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and any("image/png" in out.get("data", {}) for out in cell.get("outputs", [])):
            caption = nb.cells[i + 1]
            assert caption.cell_type == "markdown" and CAPTION[lang].match(caption.source), (name, cell.source)
            assert "\n" not in caption.source.strip() and len(caption.source) < 400, caption.source  # one line
            assert bool(HANGUL.search(caption.source)) == (lang == "ko"), caption.source


def test_korean_figures_are_drawn_in_korean(notebook):
    # A figure function that has words takes lang= (the generation figures are numbers and symbols only).
    lang, name, nb = notebook
    for cell in code_cells(nb):
        if not any("image/png" in out.get("data", {}) for out in cell.get("outputs", [])):
            continue
        # al.plotting: the figures' old name, in notebooks stored before it became al.figures
        called = [getattr(al.figures, f) for f in re.findall(r"al\.(?:figures|plotting)\.(\w+)\(", cell.source)]
        if any("lang" in inspect.signature(f).parameters for f in called):
            assert re.search(r"\bLANG\b", cell.source), (name, cell.source)


def test_nbval_checks_are_tags_not_comments_in_the_learners_code(notebook):
    lang, name, nb = notebook
    for cell in code_cells(nb):
        assert "NBVAL" not in cell.source, (name, cell.source)
        assert set(cell.metadata.get("tags", [])) <= {CHECK_TAG}, cell.metadata


def test_each_notebook_links_to_the_other_edition_at_the_top(notebook):
    lang, name, nb = notebook
    other = "en" if lang == "ko" else "ko"
    first = nb.cells[0]
    assert first.cell_type == "markdown"
    assert first.source.splitlines()[0] == EDITION_LINK[lang].format(name=name)
    assert (NOTEBOOKS / lang / f"../{other}/{name}.ipynb").resolve().is_file()


DETAILS = re.compile(r"<details>\n<summary>(?P<summary>[^<\n]+)</summary>\n\n"  # the blank lines let Markdown
                     r"```python\n(?P<code>.+?)\n```\n\n</details>", flags=re.S)  # inside the HTML block be parsed


def test_exercises_have_an_unanswered_cell_and_the_solution_folded_in_markdown(notebook):
    lang, name, nb = notebook
    learner = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "ex.check(" in c.source]
    assert 2 <= len(learner) <= 4, name
    for i in learner:
        cell, below = nb.cells[i], nb.cells[i + 1]
        exercise_id = re.search(r'ex\.check\("([^"]+)"', cell.source).group(1)
        assert exercise_id.startswith(name[:2])
        assert cell.source == ex.learner_code(exercise_id)
        # one feedback, shown as HTML with a plain-text fallback
        [output] = cell.outputs
        assert output.output_type == "display_data" and set(output.data) == {"text/html", "text/plain"}
        assert output.data["text/plain"].startswith(UNANSWERED[lang])
        assert f"<code>{ex.get(exercise_id).template}</code>" in output.data["text/html"]
        # the solution: Markdown, so Run All does not run it and every renderer keeps it folded
        assert below.cell_type == "markdown"
        folded = DETAILS.fullmatch(below.source)
        assert folded, below.source
        assert folded["code"] == ex.solution_code(exercise_id)
    for cell in code_cells(nb):  # no solution anywhere in code, and nothing was ever marked right
        assert not re.match(r"answer = (?!(lambda [\w, ]+: )?\.\.\.$)", cell.source.splitlines()[0]), cell.source
        assert "✓" not in text_of(cell)


def test_the_folded_solution_stays_folded_in_nbconvert_html():
    from nbconvert import HTMLExporter

    page, _ = HTMLExporter().from_notebook_node(load("ko", "03_scaling"))
    blocks = re.findall(r"<details>\s*<summary>(.*?)</summary>(.*?)</details>", page, flags=re.S)
    assert len(blocks) == 2
    for summary, body in blocks:
        assert summary.startswith("연습 ") and "해답" in summary
        assert '<div class="highlight"><pre>' in body and "```" not in body  # highlighted code, not raw Markdown
        assert "<details open" not in page


def test_korean_prose_uses_korean_ordinals_and_no_approximately_for_exact_values(notebook):
    lang, name, nb = notebook
    prose = "".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert not re.search(r"\d+번째", prose)
    assert "√4 ≈" not in prose and "√dh ≈" not in prose


# A Korean particle has two forms chosen by the sound before it (은/는, 이/가, 을/를, 과/와, 으로/로), so it cannot
# follow a slot whose value is a number, a key or a name the sentence does not know: "{key}는" is wrong for
# input (인풋은), "{i}는" for 1 (일은). The sentence puts a Korean noun between: "{key} 설정은", "{i}번 Query head는".
PARTICLE_ON_A_SLOT = re.compile(r"\{\w+\}(?:은|는|이|가|을|를|과|와|으로|로)(?![가-힣])")


def test_no_korean_particle_follows_a_slot_of_the_word_table():
    wrong = ["링크의 {key}는 없습니다", "{mask}를 씌웠습니다", "{file}을 여세요", "√dh = {root}로 나눕니다",
             "{name}와 가장 큰 차이", "seed {seed}로 만든", "{chosen}이 아니어서"]
    right = ["{n}개", "{key} 설정은", "{i}번 Query head는", "노트북({file})을", "{seed}입니다", "{n}번째",
             "{mask}의 값을", "seed {seed}에서", "{what}: 이것"]
    assert [bool(PARTICLE_ON_A_SLOT.search(t)) for t in wrong + right] == [True] * len(wrong) + [False] * len(right)
    hanging = {key: PARTICLE_ON_A_SLOT.findall(ko) for key, (ko, _en) in al.words.WORDS.items()}
    assert {key: found for key, found in hanging.items() if found} == {}


def _build_tool():
    spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "tools" / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_stored_notebooks_match_their_source_in_tools():
    tool = _build_tool()
    sources = tool.sources()
    assert list(sources) == NAMES
    for name, cells in sources.items():
        for lang in LANGS:
            built, stored = tool.build(name, cells, lang), load(lang, name)
            assert [(c.cell_type, c.source) for c in built.cells] == [(c.cell_type, c.source) for c in stored.cells], (
                f"{lang}/{name}.ipynb is out of date: run python tools/build_notebooks.py --execute {name}"
            )


def test_the_overview_says_how_answers_and_hints_work_and_lists_every_notebook():
    for lang in LANGS:
        prose = "".join(c.source for c in load(lang, "00_overview").cells if c.cell_type == "markdown")
        assert 'ex.hint("00.dh", lang=LANG)' in prose and "answer = lambda tr:" in prose, lang
        for name in NAMES:
            assert f"]({name}.ipynb)" in prose, (lang, name)


def test_the_scaling_figure_of_03_has_no_mask_as_its_text_says():
    # "neither this figure nor the widget below has a mask yet": the figure is drawn from an unmasked trace
    [cell] = [c for c in code_cells(load("en", "03_scaling")) if "figure_scaling(" in c.source]
    assert "al.article_example(mask=None)" in cell.source


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_09_run_without_pytorch_says_what_it_then_shows(lang, monkeypatch):
    """Run All with no PyTorch (the default install): the cells skip their PyTorch parts, and the first line says
    so and where PyTorch's outputs are, which this test checks: in the notebook as stored, not in what runs here."""
    import contextlib

    from notebook_runs import Shell

    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError, installed or not
    path = NOTEBOOKS / lang / "09_pytorch.ipynb"
    nb = nbformat.read(path, as_version=4)
    shell = Shell.instance()
    shell.reset(new_session=False)
    printed = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            result = shell.run_cell(cell.source, store_history=False)
        assert result.success, (cell.source[:80], result.error_in_exec)
        printed.append(out.getvalue())
    said = next(p for p in printed if p.strip())
    assert said.strip() == al.words.table(lang)["no_torch"]
    assert "if torch:" in said and "SDPA: O[3" not in "".join(printed)  # run here: PyTorch's parts skipped ...
    stored = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "SDPA: O[3,·] = [0.114, 0.042, 0.844, 1]" in stored  # ... and in the notebook as stored
