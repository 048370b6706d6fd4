"""Light and dark: every label of the explorer, the step widgets and the page reads at 4.5:1 or more.

- the theme's colours (look.colors.THEMES) against a plain WCAG contrast computed here;
- the standalone page in a browser that prefers light, and one that prefers dark: every piece of text measured
  against what is painted behind it (tests/contrast.py), and the page's own background follows the scheme; the
  toggle flips it, and says so (aria-pressed);
- JupyterLab Light and JupyterLab Dark (switched from the Settings menu, as a learner does): the explorer, a step
  widget, a static heatmap and an exercise's feedback (✗, then ✓), run, every label measured the same way.
"""

import os
import re

import nbformat
import pytest
from contrast import measure, too_low

import attention_lab as al
from attention_lab.live import page as pages
from attention_lab.look import colors


def _luminance(hex_colour):  # WCAG 2.x relative luminance, written out from the definition
    channels = []
    for k in (1, 3, 5):
        c = int(hex_colour[k:k + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ratio(a, b):
    x, y = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)


@pytest.mark.parametrize("theme", sorted(colors.THEMES))
def test_every_text_colour_of_each_theme_reads_on_its_backgrounds(theme):
    palette = colors.THEMES[theme]
    for name in colors.THEME_TEXT:
        for ground in ("bg", "panel"):
            assert _ratio(palette[name], palette[ground]) >= 4.5, (theme, name, ground)
    assert _ratio("#767676", "#ffffff") > 4.5 > _ratio("#777777", "#ffffff")  # the reference's own edge, known


def test_the_theme_css_sets_every_colour_for_both_themes_and_the_styles_use_only_theme_colours():
    css = colors.theme_css()
    for theme, palette in colors.THEMES.items():
        for name, value in palette.items():
            assert f"--al-theme-{name}:{value}" in css, (theme, name)
    css_files = [pages.HERE / name for name in (*pages.STYLES, "page.css")] + [pages.HERE.parent / "site" / "site.css"]
    from attention_lab.look import tables
    for text in [tables.CSS.replace(css, "")] + [p.read_text(encoding="utf-8") for p in css_files]:
        fixed = re.findall(r"(?<![\w-])(?:color|background|background-color|outline|border[\w-]*)\s*:"
                           r"[^;}]*#[0-9a-f]{3,6}", text, re.I)
        assert not fixed, fixed  # a fixed colour would stay the same in the dark theme


# ---- the page in a browser ----------------------------------------------------------------------------------------

def _pages(tmp_path):
    ex = al.explorer(lang="ko", view="article")
    written = []
    for name, config in (("explorer", ex.page_config()), ("decode", al.decode_view(lang="en").page_config()),
                         ("blockwise", al.blockwise_view(lang="ko").page_config())):
        path = tmp_path / f"{name}.html"
        path.write_text(pages.standalone_html(config), encoding="utf-8")
        written.append(path)
    return written


def _background_is_dark(page):
    bg = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(x) for x in re.findall(r"\d+", bg)[:3])
    return (r + g + b) / 3 < 64


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_page_reads_in_both_schemes_and_its_toggle_switches_them(browser, tmp_path, scheme):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1280, "height": 900})
    try:
        for path in _pages(tmp_path):
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.goto(path.as_uri())
            page.wait_for_selector(".al-live")
            page.wait_for_timeout(50)
            assert _background_is_dark(page) == (scheme == "dark"), path.name
            toggle = page.locator(".al-theme-toggle")
            assert toggle.get_attribute("aria-pressed") == str(scheme == "dark").lower()
            found = measure(page, ".al-page, .al-page-bar")
            assert not too_low(found), (scheme, path.name, too_low(found)[:5])
            assert len(found) > 10
            toggle.click()  # the other theme, chosen on the page
            assert _background_is_dark(page) == (scheme == "light")
            assert toggle.get_attribute("aria-pressed") == str(scheme == "light").lower()
            found = measure(page, ".al-page, .al-page-bar")
            assert not too_low(found), (scheme, "toggled", path.name, too_low(found)[:5])
            toggle.click()  # and back: the choice is kept for the next page, so leave it as the system's
            page.evaluate("() => localStorage.clear()")
            assert not errors, errors
            page.close()
    finally:
        context.close()


# ---- JupyterLab Light and Dark ------------------------------------------------------------------------------------

CELLS = ["import attention_lab as al",
         'ex = al.explorer(lang="ko", view="article"); ex',
         'al.blockwise_view(lang="en")',
         # an exercise's feedback, wrong and then right: its ✗ and ✓ read on both themes too
         "import attention_lab.exercises as exr\n"
         "exr.check('13.odd_share', lambda tr: tr.P[:, 4, 1::2].sum(axis=-1), lang='en')",
         "exr.check('13.odd_share', lambda tr: tr.P[:, 4, 0::2].sum(axis=-1), lang='en')"]
ATTENTION_LAB_SCREENSHOTS = os.environ.get("ATTENTION_LAB_SCREENSHOTS")  # a folder for a PNG of each theme
WIDGETS = ".jp-OutputArea-output :is(.al-live, .al-view, .al-feedback):not(:is(.al-live, .al-view) *)"  # each root


def test_every_label_reads_in_jupyterlab_light_and_dark(lab, browser):
    from test_browser import run_all_cells

    folder = lab.root / "themes"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / "themes.ipynb")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.set_default_timeout(60_000)
        run_all_cells(page, lab.url("themes/themes.ipynb"), ".al-stepper .al-trail")
        page.wait_for_selector(".al-live .al-hm")
        for cell in page.locator(".jp-Notebook .jp-Cell").all():  # JupyterLab renders a cell once it has been in view
            cell.scroll_into_view_if_needed()
        page.wait_for_function(f"() => document.querySelectorAll('{WIDGETS}').length === 4")
        for theme, light in (("JupyterLab Light", "true"), ("JupyterLab Dark", "false")):
            if page.evaluate("() => document.body.dataset.jpThemeLight") != light:
                page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
                page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
                page.locator(".lm-Menu-itemLabel", has_text=theme).first.click()
                page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'")
                page.wait_for_timeout(1500)  # the theme's styles load after the attribute changes
            assert len(page.locator(WIDGETS).all()) == 4
            for widget in page.locator(WIDGETS).all():
                widget.scroll_into_view_if_needed()
            found = measure(page, WIDGETS)
            assert not too_low(found), (theme, too_low(found)[:8])
            assert len(found) > 40  # the explorer's controls, axes, note, cells and breakdown tables; the stepper's
            if ATTENTION_LAB_SCREENSHOTS:
                page.locator(WIDGETS).first.screenshot(path=f"{ATTENTION_LAB_SCREENSHOTS}/lab-{light}.png")
        # the next test's JupyterLab starts in the light theme it expects
        page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
        page.locator(".lm-Menu-itemLabel", has_text="JupyterLab Light").first.click()
        page.wait_for_function("() => document.body.dataset.jpThemeLight === 'true'")
    finally:
        page.close()
        lab.stop_kernels()
