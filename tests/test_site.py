"""The course site: one command builds both editions from the stored notebooks, and every page works offline.

The site is built once into a temporary folder and served on 127.0.0.1; headless Chromium opens every page at
1280 and at 390 px with every request outside the site refused, and checks that none was refused, that no console
error appeared, that the page's Korean or English text is there, that nothing scrolls sideways, and that each
explorer and step widget answers a key press.
"""

import functools
import http.server
import re
import threading
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from attention_lab import site
from attention_lab.exercises import drills
from attention_lab.site import notebook, pages
from attention_lab.site.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
HANGUL = re.compile("[\uac00-\ud7a3]")
STORED = {lang: sorted(p.stem for p in (NOTEBOOKS / lang).glob("*.ipynb")) for lang in pages.LANGS}


@pytest.fixture(scope="module")
def built(tmp_path_factory):  # -> (folder, what build returned)
    out = tmp_path_factory.mktemp("site") / "site"
    return out, site.build(out)


class Refs(HTMLParser):
    """Every URL a page refers to, by what refers to it: ("a", href), ("img", src), ("script", src), …"""

    def __init__(self):
        super().__init__()
        self.refs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name):
                self.refs.append((tag, attrs[name]))


def refs_of(path):
    parser = Refs()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.mark.parametrize("argv, message", [
    (["--binder", "bad url!"], "error: --binder: 'bad url!' is not OWNER/NAME[@REF]"),
    (["--notebooks", "/nonexistent"], "error: --notebooks: no stored notebooks in /nonexistent/ko"),
    (["--bogus"], "error: unrecognized arguments: --bogus"),
])
def test_a_bad_argument_gets_one_line_and_status_2(tmp_path, capsys, argv, message):
    assert main(["--out", str(tmp_path / "site"), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and err.startswith(message), err
    assert not (tmp_path / "site").exists()


def test_a_file_given_as_the_folder_is_refused_and_kept(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["--out", str(tmp_path / "notes.txt")]) == 2
    assert capsys.readouterr().err.startswith("error: --out: ") and (tmp_path / "notes.txt").read_text() == "mine"


def test_one_command_builds_every_stored_notebook_of_both_editions(tmp_path, capsys):
    assert main(["--out", str(tmp_path / "site")]) == 0
    said = capsys.readouterr().out
    assert f"{sum(map(len, STORED.values()))} notebook pages" in said and "python -m http.server -d" in said
    for lang, names in STORED.items():
        assert sorted(p.stem for p in (tmp_path / "site" / lang).glob("[0-9]*.html")) == names
    assert (tmp_path / "site" / "assets" / "attention_lab.js").is_file()


def test_the_index_pages_list_the_notebooks_in_order_with_their_titles(built):
    out, _ = built
    for lang, names in STORED.items():
        html = (out / lang / "index.html").read_text(encoding="utf-8")
        links = re.findall(r'<li><a href="([^"]+)\.html">([^<]+)</a>', html)
        assert [name for name, _title in links] == names  # 00, 01, …: ordered by name
        for name, title in links:
            assert unescape(title) == notebook.title_of(notebook.read(NOTEBOOKS / lang / f"{name}.ipynb"), name)
    root = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="ko/index.html"' in root and 'href="en/index.html"' in root


def test_every_link_and_file_a_page_refers_to_is_in_the_site(built):
    """Previous / next, the other edition, the contents, figures, styles and the one script: all relative, all there;
    the only link out is Binder's, and nothing but a link (<a>) points outside."""
    out, _ = built
    html_pages = sorted(out.rglob("*.html"))
    assert len(html_pages) == sum(map(len, STORED.values())) + 3
    for path in html_pages:
        parsed = refs_of(path)
        for tag, url in parsed.refs:
            parts = urlsplit(url)
            if parts.scheme:
                assert tag == "a" and url.startswith(site.binder_base(site.DEFAULT_BINDER)), (path, url)
                continue
            target = (path.parent / parts.path).resolve() if parts.path else path
            assert target.is_file() and out.resolve() in target.parents, (path, url)
            if parts.fragment:
                assert parts.fragment in refs_of(target).ids, (path, url)


def test_pages_link_as_a_course(built):
    out, _ = built
    for lang, names in STORED.items():
        other = pages.OTHER[lang]
        for k, name in enumerate(names):
            html = (out / lang / f"{name}.html").read_text(encoding="utf-8")
            assert ('rel="prev"' in html) == (k > 0) and ('rel="next"' in html) == (k < len(names) - 1)
            if k:
                assert f'href="{names[k - 1]}.html"' in html
            if k < len(names) - 1:
                assert f'href="{names[k + 1]}.html"' in html
            assert (f'href="../{other}/{name}.html"' in html) == (name in STORED[other])
            assert f"urlpath=lab/tree/notebooks/{lang}/{name}.ipynb" in html


def test_the_binder_link_is_one_option(tmp_path):
    out = tmp_path / "a"
    site.build(out, binder="someone/fork@teaching")
    html = (out / "ko" / "00_overview.html").read_text(encoding="utf-8")
    assert "https://mybinder.org/v2/gh/someone/fork/teaching?urlpath=lab/tree/notebooks/ko/00_overview.ipynb" in html
    site.build(out, binder="none")  # a rebuild clears the folder it built
    assert "mybinder" not in (out / "en" / "00_overview.html").read_text(encoding="utf-8")
    assert site.binder_base("https://hub.example.org/v2/gh/a/b/main/") == "https://hub.example.org/v2/gh/a/b/main"
    for bad in ("justaname", "a/b/c", "", "a /b"):
        with pytest.raises(ValueError, match="^binder: "):
            site.binder_base(bad)


def test_a_folder_it_did_not_build_is_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="^out: .* not a site this command built"):
        site.build(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_figures_have_their_captions_and_solutions_stay_folded(built):
    out, _ = built
    for lang, names in STORED.items():
        for name in names:
            nb = notebook.read(NOTEBOOKS / lang / f"{name}.ipynb")
            html = (out / lang / f"{name}.html").read_text(encoding="utf-8")
            images = sum("image/png" in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))
            folded = sum(notebook.source(c).count("<details>") for c in nb["cells"] if c["cell_type"] == "markdown")
            assert html.count('<figure class="nb-figure">') == images and html.count("<figcaption>") == images
            assert html.count("<details>") == folded and "<details open" not in html
            feedback = sum(o.get("data", {}).get("text/html", "") != "" for c in nb["cells"]
                           if drills.exercise_cell(notebook.source(c), lang) is None for o in c.get("outputs", []))
            assert html.count('<div class="nb-html">') == feedback  # an exercise's cell is its drill here, or none
            assert "셀을 다시 실행" not in html and "run the cell again" not in html
            assert html.count('<section class="al-drill"') == (name[:2] in drills.NOTEBOOK_DRILLS)
            assert "<img" not in html or 'alt=""' not in html


def test_every_widget_of_the_stored_notebooks_is_live(built):
    """Each explorer and step widget is rebuilt from its stored state; none falls back to a note.

    A notebook executed before the explorer and the steppers ran in the browser has no such state: re-execute it
    (python tools/build_notebooks.py --execute NAME)."""
    _out, written = built
    static = [f"{lang}/{name}" for lang, entries in written.items() for name, kinds in entries if None in kinds]
    assert not static, f"widgets with no state the page can mount: {static}"
    assert {k for entries in written.values() for _name, kinds in entries for k in kinds} >= {"explorer", "decode",
                                                                                              "blockwise"}


# ---- in Chromium


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served(built):  # -> the site's base URL on 127.0.0.1
    out, _ = built
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()
    thread.join()


def _every_page(out):  # -> [(path relative to the site, lang, title or None)]; the root shows both editions
    found = [("index.html", "both", None)]
    for lang, names in STORED.items():
        found.append((f"{lang}/index.html", lang, None))
        for name in names:
            title = notebook.title_of(notebook.read(NOTEBOOKS / lang / f"{name}.ipynb"), name)
            found.append((f"{lang}/{name}.html", lang, title))
    return found


def _control(mount):  # -> the widget's T slider, else its first slider, else its first choice (your own numbers)
    for selector in ('[data-control="T"]', 'input[type="range"]', "select"):
        found = mount.locator(f"{selector}:visible")
        if found.count():
            return found.first
    raise AssertionError("a widget with no slider and no choice to press a key on")


@pytest.mark.parametrize("width", [1280, 390])
def test_every_page_works_offline_in_chromium(built, served, browser, width):
    out, _ = built
    context = browser.new_context(viewport={"width": width, "height": 900})
    refused, errors = [], []
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(served)
                  else (refused.append(r.request.url), r.abort()))
    tab = context.new_page()
    tab.on("console", lambda m: m.type == "error" and errors.append(f"{tab.url}: {m.text}"))
    tab.on("pageerror", lambda e: errors.append(f"{tab.url}: {e}"))
    for path, lang, title in _every_page(out):
        tab.goto(served + path, wait_until="load")
        main_text = tab.locator("main").text_content()
        if lang == "both":
            assert HANGUL.search(tab.locator('section[lang="ko"]').text_content())
            assert not HANGUL.search(tab.locator('section[lang="en"] p').first.text_content())
        else:
            assert tab.evaluate("document.documentElement.lang") == lang
            prose = " ".join(tab.locator(".nb-md").all_text_contents()) or main_text  # the text, not the code
            letters = re.findall(r"[A-Za-z\uac00-\ud7a3]", prose)
            share = sum(bool(HANGUL.match(c)) for c in letters) / len(letters)
            assert share > 0.3 if lang == "ko" else share < 0.05, (path, share)
        if title:
            assert title in main_text, path
        assert tab.evaluate("document.documentElement.scrollWidth") <= width, path  # nothing scrolls sideways
        for k, mount in enumerate(tab.locator(".al-mount").all()):
            mount.scroll_into_view_if_needed()
            before, control = mount.text_content(), _control(mount)
            value, top = control.input_value(), control.get_attribute("max")
            control.focus()
            last = control.evaluate("c => c.tagName === 'SELECT' && c.selectedIndex === c.options.length - 1")
            tab.keyboard.press("ArrowLeft" if value == top else "ArrowUp" if last else
                               "ArrowDown" if top is None else "ArrowRight")
            tab.wait_for_function("([c, v]) => c.value !== v", arg=[control.element_handle(), value])
            assert mount.text_content() != before, f"{path}: widget {k + 1} did not answer an arrow key"
    context.close()
    assert not refused, f"requests outside the site: {refused}"
    assert not errors, "console errors:\n" + "\n".join(errors)


def test_a_page_works_from_disk(built, browser):
    """Opened as a file (no server), a page with widgets still mounts every one, offline."""
    from servers import offline

    out, written = built
    name, kinds = max(written["ko"], key=lambda entry: len({k for k in entry[1] if k}))  # the most kinds of widget
    tab = browser.new_page()
    refused, errors = offline(tab), []
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.goto((out / "ko" / f"{name}.html").as_uri())
    live = [k for k in kinds if k]
    assert live and tab.locator(".al-mount[data-mounted]").count() == len(live)
    assert tab.locator(".al-mount .al-hm").count() >= len(live)  # each drew its heatmaps
    assert not refused and not errors
    tab.close()
