"""Write the Korean and English notebooks from one source, and optionally execute them.

    python tools/build_notebooks.py             # write notebooks/ko/*.ipynb and notebooks/en/*.ipynb
    python tools/build_notebooks.py --execute   # … and run them top to bottom in a fresh python3 kernel
    python tools/build_notebooks.py --execute 07_explorer   # only the named notebooks

Each notebook's source is tools/notebooks/nbNN_*.py: a list of cells whose
Markdown comes in (ko, en) pairs and whose code is shared, so the two editions'
code cells cannot drift apart (see tools/notebooks/cells.py).
"""

import argparse
import base64
import importlib
import io
import itertools
import json
import re
import sys
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
SOURCES = Path(__file__).resolve().parent / "notebooks"
OUT = ROOT / "notebooks"
LANGS = ("ko", "en")

sys.path.insert(0, str(SOURCES))
import cells  # noqa: E402  (tools/notebooks/cells.py)

HEADING = re.compile(r"#{1,2} ")  # a Markdown cell that starts a notebook (#) or a step (##)
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def sources():
    """{notebook name: list of Cell}, in order (00_overview, 01_heads, …)."""
    found = {}
    for path in sorted(SOURCES.glob("nb[0-9][0-9]_*.py")):
        module = importlib.import_module(path.stem)
        found[module.NAME] = module.CELLS
    return found


def flatten(items):
    for item in items:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item


def build(name, cell_list, lang):  # -> nbformat.NotebookNode (not executed)
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
    for i, cell in enumerate(flatten(cell_list)):
        text = cell.text[lang].replace(cells.LANG_LITERAL, f'"{lang}"')
        if i == 0:  # the top of the notebook: a link to the same notebook in the other language
            text = f"{cells.edition_link(name, lang)}\n\n{text}"
        cell_id = f"{name[:2]}-{i:02d}"
        if cell.kind == "markdown":
            new = nbformat.v4.new_markdown_cell(text, id=cell_id)
            # a step starts at its heading (in either edition, so both have the same slides): one slide each
            if i == 0 or any(HEADING.match(cell.text[other]) for other in LANGS):
                new.metadata["slideshow"] = {"slide_type": "slide"}
            nb.cells.append(new)
        else:
            new = nbformat.v4.new_code_cell(text, id=cell_id)
            if cell.tags:
                new.metadata["tags"] = list(cell.tags)
            nb.cells.append(new)
    return nb


def plain(caption):  # "**Figure 2.** Q₁ × K₁ᵀ in `al.scores`" -> "Figure 2. Q₁ × K₁ᵀ in al.scores"
    return re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", caption.replace("**", "").replace("`", "")).strip()


def describe_figures(nb):
    """Give every figure its caption, the Markdown line under it, as alt text in its stored output
    (`metadata["image/png"]["alt"]`, which nbconvert's templates in tools/nbconvert/ and its classic template read)."""
    for cell, below in itertools.pairwise(nb.cells):
        for out in cell.get("outputs", []):
            if "image/png" in out.get("data", {}):
                if below.cell_type != "markdown":
                    raise SystemExit(f"cell {cell.id} draws a figure with no caption under it: add one (cells.figure)")
                out.setdefault("metadata", {}).setdefault("image/png", {})["alt"] = plain(below.source)


def execute(nb, path):
    """Run every cell in a fresh python3 kernel, in the notebook's folder; refuse errors and stderr."""
    from nbclient import NotebookClient

    NotebookClient(nb, kernel_name="python3", timeout=120, record_timing=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "error" or (out.output_type == "stream" and out.name == "stderr"):
                text = out.get("text") or "\n".join(out.get("traceback", []))
                raise SystemExit(f"{path}: cell {cell.id} wrote to stderr or failed:\n{text}")
    describe_figures(nb)


PALETTE_COLOURS = 96  # 256 took 0.4 MB more over both editions, with no difference to see (issue 32)


def palette_png(png):  # -> PNG bytes: the same picture in at most PALETTE_COLOURS colours, or `png` if not smaller
    """A stored figure is flat fills, text and their anti-aliased edges (a few thousand colours): PALETTE_COLOURS
    colours chosen by median cut, without dithering, look the same (the cells keep their colours, the edges of
    text their smoothness) in fewer bytes still."""
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    if image.mode == "RGBA" and image.getchannel("A").getextrema() != (255, 255):
        return png  # a figure with see-through parts keeps them
    out = io.BytesIO()
    image.convert("RGB").quantize(PALETTE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        out, "PNG", optimize=True)
    return out.getvalue() if out.tell() < len(png) else png


def shrink_figures(nb):
    """Store every PNG output as `palette_png` of it: the editions stay small (tests/test_stored_state.py)."""
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if "image/png" in out.get("data", {}):
                png = base64.b64decode(out.data["image/png"])
                out.data["image/png"] = base64.b64encode(palette_png(png)).decode("ascii")


def stored_text(nb):  # -> str: the notebook's file, nbformat's JSON with its stored widget state on one line
    """nbformat's own text (a key a line, indented, keys sorted), but `metadata.widgets` written compactly: the
    widgets' numbers (the example's values, the mask tables) took one line each, indented, 2.2 MB of the two
    editions' 8.6 (issue 32). It reads back as the same notebook; only the whitespace differs."""
    data = json.loads(nbformat.writes(nb))  # nbformat validates it on the way
    widgets = data["metadata"].pop("widgets", None)
    if widgets is None:
        return nbformat.writes(nb) + "\n"
    mark = "@widgets@"
    data["metadata"]["widgets"] = mark
    text = json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False)
    compact = json.dumps(widgets, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.replace(json.dumps(mark), compact, 1) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebook names (default: all), e.g. 07_explorer")
    parser.add_argument("--execute", action="store_true", help="run the notebooks and store their outputs")
    args = parser.parse_args(argv)
    all_sources = sources()
    names = args.names or list(all_sources)
    for name in names:
        for lang in LANGS:
            path = OUT / lang / f"{name}.ipynb"
            nb = build(name, all_sources[name], lang)
            if args.execute:
                start = time.perf_counter()
                execute(nb, path)
                shrink_figures(nb)
                print(f"{path.relative_to(ROOT)}: executed in {time.perf_counter() - start:.1f} s")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(stored_text(nb), encoding="utf-8")
            if not args.execute:
                print(f"{path.relative_to(ROOT)}: written (not executed)")


if __name__ == "__main__":
    main()
