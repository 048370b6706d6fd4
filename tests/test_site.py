"""The course site: one command builds both editions from the stored notebooks, and every page works offline.

The site is built once into a temporary folder and served on 127.0.0.1; headless Chromium opens every page at
1280 and at 390 px with every request outside the site refused, and checks that none was refused, that no console
error appeared, that the page's Korean or English text is there, that nothing scrolls sideways, and that each
explorer and step widget answers a key press.
"""

import contextlib
import functools
import http.server
import io
import re
import threading
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from attention_lab import site
from attention_lab.exercises import drills
from attention_lab.site import __main__ as site_command
from attention_lab.site import notebook, pages
from attention_lab.site.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
HANGUL = re.compile("[\uac00-\ud7a3]")
STORED = {lang: sorted(p.stem for p in (NOTEBOOKS / lang).glob("*.ipynb")) for lang in pages.LANGS}


@pytest.fixture(scope="module")
def built(tmp_path_factory):  # -> (folder, what build returned, what the command printed)
    """The site built once, by the command a lecturer runs (python -m attention_lab.site --out FOLDER), for every
    test that reads it; what `build` returned to the command is kept for the tests that need it."""
    out = tmp_path_factory.mktemp("site") / "site"
    returned = []

    def build(*args, **kwargs):
        returned.append(site.build(*args, **kwargs))
        return returned[-1]

    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(io.StringIO()) as said:
        patch.setattr(site_command, "build", build)
        assert main(["--out", str(out)]) == 0
    [written] = returned
    return out, written, said.getvalue()


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


def test_one_command_builds_every_stored_notebook_of_both_editions(built):
    out, _, said = built
    assert f"{sum(map(len, STORED.values()))} notebook pages" in said and "python -m http.server -d" in said
    for lang, names in STORED.items():
        assert sorted(p.stem for p in (out / lang).glob("[0-9]*.html")) == names
    assert (out / "assets" / "attention_lab.js").is_file()


def heading(html):  # -> the text of the page's one <h1>, as the Markdown renderer wrote it (tags left out)
    [h1] = re.findall(r"<h1\b[^>]*>(.*?)</h1>", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", "", h1)).strip()


def test_the_index_pages_list_the_notebooks_in_order_with_their_titles(built):
    """Each title is the heading its page shows: the notebook's "# " line as the Markdown renderer (mistune) made it
    an <h1>, not notebook.title_of, which the index and the <title> are written with."""
    out, _, _ = built
    for lang, names in STORED.items():
        html = (out / lang / "index.html").read_text(encoding="utf-8")
        links = re.findall(r'<li><a href="([^"]+)\.html">([^<]+)</a>', html)
        assert [name for name, _title in links] == names  # 00, 01, …: ordered by name
        for name, title in links:
            page = (out / lang / f"{name}.html").read_text(encoding="utf-8")
            shown = heading(page)
            assert shown.startswith(f"{name[:2]} — ") and unescape(title) == shown, (lang, name, title, shown)
            assert unescape(re.search(r"<title>(.*?)</title>", page)[1]) == f"{shown} · attention-lab", (lang, name)
    root = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="ko/index.html"' in root and 'href="en/index.html"' in root


def test_every_link_and_file_a_page_refers_to_is_in_the_site(built):
    """Previous / next, the other edition, the contents, figures, styles and the one script: all relative, all there;
    the only link out is Binder's, and nothing but a link (<a>) points outside."""
    out, _, _ = built
    html_pages = sorted(out.rglob("*.html"))
    assert len(html_pages) == sum(map(len, STORED.values())) + 3
    for path in html_pages:
        parsed = refs_of(path)
        for tag, url in parsed.refs:
            parts = urlsplit(url)
            if (tag, url) == ("link", "data:,"):  # the empty icon: the browser asks for no /favicon.ico
                continue
            if parts.scheme:
                assert tag == "a" and url.startswith(site.binder_base(site.DEFAULT_BINDER)), (path, url)
                continue
            target = (path.parent / parts.path).resolve() if parts.path else path
            assert target.is_file() and out.resolve() in target.parents, (path, url)
            if parts.fragment:
                assert parts.fragment in refs_of(target).ids, (path, url)


def test_pages_link_as_a_course(built):
    out, _, _ = built
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
    # The documentation's placeholder, typed as written (issue 49.11): refused, never a broken link on every page.
    for placeholder in ("OWNER/NAME", "owner/name", "OWNER/NAME@main", "<owner>/<repo>", "USER/REPO",
                        "your-org/your-repo", "{user}/{name}"):
        with pytest.raises(ValueError, match="^binder: .*placeholder.*'none'"):
            site.binder_base(placeholder)
    for real in ("attention-lab/attention-lab", "nameless/ownerless", "someone/fork@teaching", "repo/tools"):
        assert site.binder_base(real).startswith("https://mybinder.org/v2/gh/"), real


def test_a_folder_it_did_not_build_is_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="^out: .* not a site this command built"):
        site.build(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_figures_have_their_captions_and_solutions_stay_folded(built):
    out, _, _ = built
    for lang, names in STORED.items():
        for name in names:
            nb = notebook.read(NOTEBOOKS / lang / f"{name}.ipynb")
            html = (out / lang / f"{name}.html").read_text(encoding="utf-8")
            images = sum("image/png" in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))
            folded = sum(notebook.source(c).count("<details>") for c in nb["cells"] if c["cell_type"] == "markdown")
            assert html.count('<figure class="nb-figure">') == images and html.count("<figcaption>") == images
            assert html.count("<details>") == folded and "<details open" not in html
            feedback = sum(o.get("data", {}).get("text/html", "") != "" for c in nb["cells"]
                           if "ex.check(" not in notebook.source(c) for o in c.get("outputs", []))
            assert html.count('<div class="nb-html">') == feedback  # an exercise's cell is its drill here, or none
            assert "셀을 다시 실행" not in html and "run the cell again" not in html
            assert html.count('<section class="al-drill"') == len(drills.NOTEBOOK_DRILLS.get(name[:2], ()))
            assert "<img" not in html or 'alt=""' not in html


def test_every_widget_of_the_stored_notebooks_is_live(built):
    """Each explorer and step widget is rebuilt from its stored state; none falls back to a note.

    A notebook executed before the explorer and the steppers ran in the browser has no such state: re-execute it
    (python tools/build_notebooks.py --execute NAME)."""
    _out, written, _ = built
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
    out, _, _ = built
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
    out, _, _ = built
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
            for heatmap in mount.locator(".al-hm").all():  # one below the screen is drawn when it scrolls near, as
                heatmap.scroll_into_view_if_needed()  # a reader on a phone scrolls to it
            changed = tab.wait_for_function("([m, t]) => m.textContent !== t", arg=[mount.element_handle(), before],
                                            timeout=10_000)
            assert changed and mount.text_content() != before, f"{path}: widget {k + 1} did not answer an arrow key"
    context.close()
    assert not refused, f"requests outside the site: {refused}"
    assert not errors, "console errors:\n" + "\n".join(errors)


def test_a_page_works_from_disk(built, browser):
    """Opened as a file (no server), a page with widgets still mounts every one, offline."""
    from servers import offline

    out, written, _ = built
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


# ---- what readers expect of a course site ----------------------------------------------------------------------------

def test_each_page_has_its_edition_s_contents_its_own_headings_a_download_and_the_theme_toggle(built):
    out, _, _ = built
    for lang, names in STORED.items():
        for name in names:
            path = out / lang / f"{name}.html"
            html = path.read_text(encoding="utf-8")
            side = re.search(r'<details class="site-side".*?</details>', html, re.S).group(0)
            assert re.findall(r'href="([^"]+)\.html"', side) == names  # the whole edition, in order
            assert re.findall(r'href="([^"]+)\.html" aria-current="page"', side) == [name]
            own = re.findall(r'<h([23]) id="([^"]+)">', html)
            listed = re.findall(r'<li class="site-h([23])"><a href="#([^"]+)">', html)
            assert listed == own and own, path  # every h2 and h3 of the notebook, in order, and nothing else
            assert f'href="{name}.ipynb" class="site-download" download' in html
            assert (out / lang / f"{name}.ipynb").read_bytes() == (NOTEBOOKS / lang / f"{name}.ipynb").read_bytes()
            assert html.count('class="al-theme-toggle"') == 1 and 'class="site-search"' in html
            assert "data-pagefind-body" in html
    for index in [out / "index.html"] + [out / lang / "index.html" for lang in STORED]:
        html = index.read_text(encoding="utf-8")
        assert "<ol" not in html and '<ul class="site-toc">' in html  # the titles carry the number: one numbering


def test_each_page_is_light_before_its_images(built):
    """A page, its styles and its scripts (the search's interface included, not its index) stay under 500 KB."""
    out, _, _ = built
    for path in out.rglob("*.html"):
        total = path.stat().st_size
        for tag, url in refs_of(path).refs:
            target = (path.parent / urlsplit(url).path).resolve()
            if tag in ("link", "script") and target.is_file():
                total += target.stat().st_size
        assert total <= 500_000, (path, total)


def _odd_notebooks():  # -> {what: the notebook's JSON} catalogue: valid JSON, not a notebook the site can show
    good = notebook.read(NOTEBOOKS / "en" / "00_overview.ipynb")
    png = next(o["data"]["image/png"] for c in good["cells"] for o in c.get("outputs", [])
               if "image/png" in o.get("data", {}))
    png = "".join(png) if isinstance(png, list) else png

    def with_cell(cell):
        return {**good, "cells": [*good["cells"][:2], cell]}

    code = {"cell_type": "code", "source": "x", "metadata": {}, "execution_count": 1}
    return {
        "a cell that is a string": with_cell("print(1)"),
        "a cell with no cell_type": with_cell({"source": "x"}),
        "a source that is a number": with_cell({**code, "source": 3}),
        "outputs that are a string": with_cell({**code, "outputs": "oops"}),
        "an output that is a list": with_cell({**code, "outputs": [["stream"]]}),
        "data that is a string": with_cell({**code, "outputs": [{"output_type": "display_data", "data": "png"}]}),
        "html that is an object": with_cell({**code, "outputs": [{"output_type": "display_data",
                                                                    "data": {"text/html": {"a": 1}}}]}),
        "a stream whose text is a number": with_cell({**code, "outputs": [{"output_type": "stream", "text": 5}]}),
        "a truncated PNG": with_cell({**code, "outputs": [{"output_type": "display_data",
                                                           "data": {"image/png": png[:20]}}]}),
        "a PNG that is not base64": with_cell({**code, "outputs": [{"output_type": "display_data",
                                                                    "data": {"image/png": "a"}}]}),
        "a PNG that is text": with_cell({**code, "outputs": [{"output_type": "display_data",
                                                              "data": {"image/png": "aGVsbG8gd29ybGQ="}}]}),
        "widget state that is a list": {**good, "metadata": {**good["metadata"], "widgets": {
            notebook.WIDGET_STATE: {"state": [], "version_major": 2, "version_minor": 0}}}},
        "a widget view that is a string": with_cell({**code, "outputs": [{"output_type": "display_data",
                                                                          "data": {notebook.WIDGET_VIEW: "m"}}]}),
        "metadata that is a list": {**good, "metadata": []},
        "cells that are an object": {**good, "cells": {}},
        "nbformat 3": {**good, "nbformat": 3},
        "a list": [good],
    }


@pytest.mark.parametrize("what", sorted(_odd_notebooks()))
def test_an_odd_notebook_gets_one_line_naming_it_and_status_2(tmp_path, capsys, what):
    import json

    (tmp_path / "nb" / "en").mkdir(parents=True)
    bad = tmp_path / "nb" / "en" / "03_odd.ipynb"
    bad.write_text(json.dumps(_odd_notebooks()[what]), encoding="utf-8")
    assert main(["--out", str(tmp_path / "site"), "--notebooks", str(tmp_path / "nb")]) == 2, what
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ") and str(bad) in err, (what, err)
    assert "Traceback" not in err and not (tmp_path / "site").exists()


def test_text_that_is_not_json_or_not_utf8_is_refused_naming_the_notebook(tmp_path, capsys):
    (tmp_path / "nb" / "ko").mkdir(parents=True)
    for content in (b'{"cells": [', b"\xff\xfe{}"):
        (tmp_path / "nb" / "ko" / "00_x.ipynb").write_bytes(content)
        assert main(["--out", str(tmp_path / "site"), "--notebooks", str(tmp_path / "nb")]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "00_x.ipynb: not a notebook" in err, err


def test_one_edition_alone_makes_a_site_of_that_edition(tmp_path, capsys):
    import shutil

    (tmp_path / "nb" / "ko").mkdir(parents=True)
    for name in STORED["ko"][:2]:
        shutil.copy(NOTEBOOKS / "ko" / f"{name}.ipynb", tmp_path / "nb" / "ko")
    assert main(["--out", str(tmp_path / "site"), "--notebooks", str(tmp_path / "nb")]) == 0, capsys.readouterr()
    assert "2 notebook pages (ko 2)" in capsys.readouterr().out
    assert not (tmp_path / "site" / "en").exists()
    for path in (tmp_path / "site").rglob("*.html"):  # no link to a missing edition, or to a notebook not copied
        for _tag, url in refs_of(path).refs:
            target = urlsplit(url).path
            if not urlsplit(url).scheme and target:
                assert (path.parent / target).is_file(), (path, url)


HOSTILE = ('<meta http-equiv="refresh" content="0; url=https://example.org/">'
           "<script>document.title = 'ran'</script><p>kept <b>bold</b></p>"
           '<img src="x.png" onerror="document.title = \'ran\'"><a href="javascript:alert(1)">a link</a>'
           '<a href=" JaVa\tScript:alert(1)">two</a><iframe src="https://example.org/"></iframe>'
           '<details><summary>sum</summary>inside</details><style>body{display:none}</style>'
           '<object data="x"></object><base href="https://example.org/"><form action="https://example.org/">'
           "<input></form><svg onload=\"alert(1)\"><script>alert(2)</script></svg>")


def test_nothing_that_runs_loads_or_navigates_reaches_a_page(tmp_path):
    import json

    (tmp_path / "nb" / "en").mkdir(parents=True)
    nb = notebook.read(NOTEBOOKS / "en" / "00_overview.ipynb")
    cells = [{"cell_type": "markdown", "metadata": {}, "source": "# Title\n\n" + HOSTILE},
             {"cell_type": "code", "metadata": {}, "source": "x", "execution_count": 1,
              "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"text/html": HOSTILE}}]}]
    (tmp_path / "nb" / "en" / "00_x.ipynb").write_text(json.dumps({**nb, "cells": cells}), encoding="utf-8")
    site.build(tmp_path / "site", tmp_path / "nb", search=False)
    html = (tmp_path / "site" / "en" / "00_x.html").read_text(encoding="utf-8")
    body = html[html.index("<main"):]
    for gone in ("http-equiv", "<script", "onerror", "javascript", "JaVa", "<iframe", "<style", "<object", "<base",
                 "<form", "<svg", "onload", "example.org", "alert"):
        assert gone.lower() not in body.lower(), gone
    assert body.count("kept <b>bold</b>") == 2 and body.count("<summary>sum</summary>inside</details>") == 2
    assert html.count("http-equiv") == 1  # the page's own Content-Security-Policy, in its head


def test_the_site_builder_over_randomly_broken_notebooks_refuses_in_one_line_or_builds(tmp_path):
    """A bounded fuzz: 80 notebooks, each a stored one with a few of its JSON values replaced by odd ones."""
    import json
    import random

    good = json.loads((NOTEBOOKS / "ko" / "00_overview.ipynb").read_text(encoding="utf-8"))
    odd = [None, 0, -1, 1e308, "", "x", [], {}, [1, "a"], {"a": []}, True, "\x00", "<meta http-equiv=refresh>"]
    rng = random.Random(29)

    def places(node, path=()):
        yield path
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in children:
            yield from places(child, (*path, key))

    every = [p for p in places(good) if p and "image/png" not in p]  # a PNG's text is fuzzed by the catalogue
    outcomes = set()
    for case in range(80):
        nb = json.loads(json.dumps(good))
        for path in rng.sample(every, rng.randint(1, 3)):
            node = nb
            try:
                for key in path[:-1]:
                    node = node[key]
                node[path[-1]] = rng.choice(odd)
            except (KeyError, IndexError, TypeError):
                continue  # an earlier change removed this place
        folder = tmp_path / f"nb{case}" / "ko"
        folder.mkdir(parents=True)
        (folder / "00_overview.ipynb").write_text(json.dumps(nb), encoding="utf-8")
        try:
            site.build(tmp_path / f"site{case}", folder.parent, binder="none", search=False)
            outcomes.add("built")
        except ValueError as e:
            message = str(e)
            assert "\n" not in message and message.startswith(str(folder / "00_overview.ipynb")), message
            outcomes.add("refused")
    assert outcomes == {"built", "refused"}  # both kinds of case were met


def test_the_command_says_in_one_line_what_to_install(tmp_path):
    """Without mistune (a base install) it refuses in one line; without Pagefind it builds with no search box."""
    import subprocess
    import sys

    def run(blocked):
        code = (f"import sys\nfor m in {blocked!r}: sys.modules[m] = None\n"
                "from attention_lab.site.__main__ import main\n"
                f"sys.exit(main(['--out', {str(tmp_path / 'site')!r}, '--binder', 'none']))")
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)

    no_markdown = run(["mistune"])
    assert no_markdown.returncode == 2 and no_markdown.stderr.count("\n") == 1, no_markdown.stderr
    assert "mistune" in no_markdown.stderr and "[site]" in no_markdown.stderr
    no_search = run(["pagefind", "pagefind_bin"])
    assert no_search.returncode == 0 and no_search.stderr == "", no_search.stderr
    assert "No search box" in no_search.stdout and "[site]" in no_search.stdout
    assert not (tmp_path / "site" / "pagefind").exists()
    assert 'class="site-search"' not in (tmp_path / "site" / "ko" / "00_overview.html").read_text(encoding="utf-8")


def _search(tab, words):  # -> the result links' URLs, once Pagefind has answered
    tab.locator(".site-search-start, .pagefind-ui__search-input").first.focus()
    box = tab.locator(".pagefind-ui__search-input")
    box.wait_for()
    box.fill(words)
    # Pagefind fills its results one by one as each page's record loads (a placeholder with the class
    # pagefind-ui__loading until then): wait for every shown result, not the first, or the order of loading decides.
    tab.wait_for_function("(words) => (document.querySelector('.pagefind-ui__message') || {}).textContent"
                          "?.includes(words) && document.querySelector('.pagefind-ui__result-link')"
                          " && !document.querySelector('.pagefind-ui__results .pagefind-ui__loading')"
                          " && [...document.querySelectorAll('.pagefind-ui__result')]"
                          ".every((r) => r.querySelector('.pagefind-ui__result-link'))", arg=words)
    return tab.locator(".pagefind-ui__result-link").evaluate_all("(links) => links.map((a) => a.href)")


def test_the_search_finds_both_editions_offline(built, served, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    refused, errors = [], []
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(served)
                  else (refused.append(r.request.url), r.abort()))
    tab = context.new_page()
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.goto(served + "ko/07_explorer.html")
    found = _search(tab, "마스크")
    assert served + "ko/04_causal_mask.html" in {u.split("#")[0] for u in found}, found
    found = _search(tab, "weighted sum")  # English words, from the Korean page: the other edition answers
    assert served + "en/06_weighted_sum.html" in {u.split("#")[0] for u in found}, found
    tab.goto(served + "en/00_overview.html")
    found = _search(tab, "softmax")
    assert served + "en/05_softmax.html" in {u.split("#")[0] for u in found}, found
    context.close()
    assert not refused and not errors, (refused, errors)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_page_in_the_dark_scheme_reads_and_its_toggle_is_kept_for_the_next_page(built, served, browser, lang):
    from contrast import measure, too_low

    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    tab = context.new_page()
    tab.goto(served + f"{lang}/07_explorer.html")
    tab.wait_for_selector(".al-mount[data-mounted] .al-hm")
    dark = tab.evaluate("() => getComputedStyle(document.body).backgroundColor")
    found = measure(tab, ".site-bar, .site-side, .site-onpage, .site-main .nb-md, .nb-figure, .nb-widget, "
                         ".site-pager, pre.nb-stream, pre.nb-text")
    assert not too_low(found), too_low(found)[:8]
    tab.locator(".al-theme-toggle").click()  # light, chosen: the next page opens light too
    tab.goto(served + f"{lang}/08_masks.html")
    assert tab.evaluate("() => document.documentElement.dataset.alTheme") == "light"
    assert tab.evaluate("() => getComputedStyle(document.body).backgroundColor") != dark
    found = measure(tab, ".site-bar, .site-main, .site-pager")
    assert not too_low(found), too_low(found)[:8]
    context.close()


def test_on_paper_no_bar_or_side_and_the_heatmaps_keep_their_colours(built, served, browser, tmp_path):
    import subprocess

    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    tab = context.new_page()
    tab.goto(served + "en/07_explorer.html")
    tab.wait_for_selector(".al-mount[data-mounted] .al-hm")
    tab.emulate_media(media="print")
    hidden = tab.evaluate("""() => ['.site-bar', '.site-side', '.site-onpage', '.site-pager', '.al-controls']
        .map((s) => [...document.querySelectorAll(s)].every((e) => getComputedStyle(e).display === 'none'))""")
    assert all(hidden), hidden
    assert tab.evaluate("() => getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    assert tab.evaluate("() => getComputedStyle(document.querySelector('.al-grid td')).printColorAdjust") == "exact"
    pdf = tmp_path / "page.pdf"
    tab.pdf(path=str(pdf))  # Chromium's own print, background graphics off as a browser's default
    subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "4", str(pdf), str(tmp_path / "p")], check=True)
    from matplotlib.image import imread

    coloured = 0
    for png in sorted(tmp_path.glob("p*.png")):
        rgb = imread(png)[..., :3]
        coloured += int(((rgb.max(axis=-1) - rgb.min(axis=-1)) > 0.25).sum())  # saturated pixels: heatmap fills
    assert coloured > 500, coloured
    context.close()


# ---- one notebook as one offline HTML file -------------------------------------------------------------------------

def test_a_notebook_exported_as_one_file_opens_offline_with_live_widgets_and_alt_text(tmp_path, browser, capsys):
    from attention_lab.site.export import main as export

    source = NOTEBOOKS / "ko" / "07_explorer.ipynb"
    out = tmp_path / "07.html"
    assert export([str(source), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"{out}: ") and said.count("\n") == 1 and "그림 " in said
    html = out.read_text(encoding="utf-8")
    nb = notebook.read(source)
    figures = sum("image/png" in o.get("data", {}) for c in nb["cells"] for o in c.get("outputs", []))
    alts = re.findall(r'<img src="data:image/png;base64,[^"]+" width="\d+" height="\d+" alt="([^"]+)"', html)
    assert len(alts) == figures and all(HANGUL.search(a) for a in alts)  # every figure inline, its caption as alt
    from servers import offline

    tab = browser.new_page()
    refused, errors = offline(tab), []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("console", lambda m: m.type == "error" and errors.append(m.text))
    tab.goto(out.as_uri())
    tab.wait_for_selector(".al-mount[data-mounted] .al-hm")
    live = tab.locator(".al-mount[data-mounted]").count()
    assert live >= 1 and tab.locator(".al-fallback:visible").count() == 0
    assert not refused and not errors, (refused, errors)
    tab.close()
    quiet = browser.new_context(java_script_enabled=False)  # where no script runs, each widget's place says so
    tab = quiet.new_page()
    tab.goto(out.as_uri())
    assert tab.locator(".al-fallback:visible").count() == live
    quiet.close()


def test_the_export_command_refuses_in_one_line(tmp_path, capsys):
    from attention_lab.site.export import main as export

    (tmp_path / "odd.ipynb").write_text('{"cells": "x", "nbformat": 4}', encoding="utf-8")
    for argv, said in (([str(tmp_path / "none.ipynb")], "error: notebook: "), ([str(tmp_path / "odd.ipynb")],
                       f"error: {tmp_path / 'odd.ipynb'}: not a notebook"),
                       ([str(NOTEBOOKS / "en" / "00_overview.ipynb"), "--out", str(tmp_path)], "error: --out: ")):
        assert export(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(said) and err.count("\n") == 1, err
