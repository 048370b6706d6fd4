"""Write the Korean and English notebooks from one source, and optionally execute them.

    python tools/build_notebooks.py             # write notebooks/ko/*.ipynb and notebooks/en/*.ipynb
    python tools/build_notebooks.py --execute   # … and run them top to bottom in a fresh python3 kernel
    python tools/build_notebooks.py --execute 07_explorer   # only the named notebooks
    python tools/build_notebooks.py --check     # build and run them all, write nothing; fail on any committed
                                                # notebook that differs from the fresh build (CI runs it)

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
    for cell in nb.cells:  # one output per run of a stream: how many messages the kernel sends is a matter of timing
        merged = []
        for out in cell.get("outputs", []):
            if merged and out.output_type == "stream" == merged[-1].output_type and out.name == merged[-1].name:
                merged[-1].text += out.text
            else:
                merged.append(out)
        if "outputs" in cell:
            cell.outputs = merged
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


def stable_widget_ids(nb, name, lang):
    """Give every widget model a name made from where it is (the notebook, its edition, the order the models are
    first met), in place of the random one the kernel gave it: a rebuild of an unchanged notebook is then the
    same file, which is what `--check` holds the committed notebooks to. A model id is opaque to the widget
    manager; each is replaced everywhere it is written (the views' model_id, the state's keys, IPY_MODEL_ links)."""
    import uuid

    found = re.findall(r'"model_id": "([0-9a-f]{32})"', nbformat.writes(nb))
    found += list(nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
                  .get("state", {}))
    renames = {}
    for model_id in found:
        renames.setdefault(model_id, uuid.uuid5(uuid.NAMESPACE_URL, f"attention-lab/{lang}/{name}/{len(renames)}").hex)
    if not renames:
        return nb
    text = re.sub("|".join(renames), lambda m: renames[m.group(0)], nbformat.writes(nb))
    return nbformat.reads(text, as_version=4)


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
    parser.add_argument("--check", action="store_true", help="build and run them, write nothing, and fail if a "
                                                             "committed notebook differs from this fresh build")
    args = parser.parse_args(argv)
    all_sources = sources()
    unknown = [name for name in args.names if name not in all_sources]
    if unknown:
        parser.error(f"no notebook {', '.join(unknown)}: the names are {', '.join(all_sources)}")
    names = args.names or list(all_sources)
    stale = []
    for name in names:
        for lang in LANGS:
            path = OUT / lang / f"{name}.ipynb"
            nb = build(name, all_sources[name], lang)
            if args.check:
                execute(nb, path)
                shrink_figures(nb)
                nb = stable_widget_ids(nb, name, lang)
                difference = first_difference(path, nb)
                print(f"{path.relative_to(ROOT)}: {difference or 'the same as a fresh build'}")
                stale += [path] if difference else []
                continue
            if args.execute:
                start = time.perf_counter()
                execute(nb, path)
                shrink_figures(nb)
                nb = stable_widget_ids(nb, name, lang)
                print(f"{path.relative_to(ROOT)}: executed in {time.perf_counter() - start:.1f} s")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(stored_text(nb), encoding="utf-8")
            if not args.execute:
                print(f"{path.relative_to(ROOT)}: written (not executed)")
    if stale:
        raise SystemExit(f"{len(stale)} committed notebook(s) differ from a fresh build: run python "
                         f"tools/build_notebooks.py --execute {' '.join(sorted({p.stem for p in stale}))}")


def _which_output(old, new, part):  # -> " (output 2, image/png)": which of a cell's outputs differs, and in what
    if part != "outputs" or len(old.outputs) != len(new.outputs):
        return ""
    for n, (a, b) in enumerate(zip(old.outputs, new.outputs, strict=True), start=1):
        if not _same_output(a, b):
            kinds = sorted(k for k in set(a.get("data", {})) | set(b.get("data", {}))
                           if a.get("data", {}).get(k) != b.get("data", {}).get(k))
            return f" (output {n}, {', '.join(kinds) or a.output_type})"
    return ""


# Agg does not always place a glyph the same way when a text mixes fonts (a Latin word in a Korean title drawn by
# font fallback): one run in three here drew "head" in "모든 head의 …" a fraction of a pixel off, 0.2 % of the
# figure's pixels. So a stored figure counts as the same when it has the same size and at most this share of its
# pixels differ. A changed number in a figure can hide under that; what the figures draw is held to the trace by
# tests/test_plotting.py, and every printed number by nbval.
FIGURE_PIXEL_SLACK = 0.005


def _same_png(a, b):  # a, b: base64 PNGs -> True when they are one figure, up to FIGURE_PIXEL_SLACK
    if a == b:
        return True
    import numpy as np
    from PIL import Image

    x, y = (np.asarray(Image.open(io.BytesIO(base64.b64decode(v))).convert("RGB")) for v in (a, b))
    return x.shape == y.shape and (x != y).any(axis=-1).mean() <= FIGURE_PIXEL_SLACK


def _same_output(a, b):
    if a == b:
        return True
    da, db = a.get("data", {}), b.get("data", {})
    rest = [{k: v for k, v in o.items() if k != "data"} for o in (a, b)]
    return ("image/png" in da and set(da) == set(db) and rest[0] == rest[1]
            and all(da[k] == db[k] for k in da if k != "image/png") and _same_png(da["image/png"], db["image/png"]))


def _same_cell_outputs(old, new):
    return len(old.get("outputs", [])) == len(new.get("outputs", [])) and all(
        _same_output(a, b) for a, b in zip(old.get("outputs", []), new.get("outputs", []), strict=True))


def first_difference(path, nb):  # -> "" when the file at `path` is `nb` as stored, else where they first differ
    if not path.exists():
        return "not committed"
    text = path.read_text(encoding="utf-8")
    if text == stored_text(nb):
        return ""
    stored = nbformat.reads(text, as_version=4)
    for index, (old, new) in enumerate(zip(stored.cells, nb.cells, strict=False), start=1):
        for part in ("cell_type", "source", "outputs", "metadata"):
            same = _same_cell_outputs(old, new) if part == "outputs" else old.get(part) == new.get(part)
            if not same:
                return f"cell {index} ({old.cell_type}) differs in its {part}{_which_output(old, new, part)}"
    if len(stored.cells) != len(nb.cells):
        return f"{len(stored.cells)} cells committed, {len(nb.cells)} built"
    if stored.metadata != nb.metadata:
        return "its notebook metadata (the stored widget state) differs"
    return ""  # the same but for a figure drawn a fraction of a pixel otherwise


if __name__ == "__main__":
    main()
