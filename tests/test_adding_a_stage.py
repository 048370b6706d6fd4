"""Adding a stage is one pipeline entry and its words: it reaches the trace, the explorer's views and picture,
the figures and the figures command, with no list edited.

A copy of the package gets one new entry in `numeric/pipeline.py` (the shifted scores S / √dh + M − row max, the
exponent of E) and its title in `look/words/core.py`, and nothing else; a fresh Python that imports the copy
finds the stage everywhere. The browser's front-end computes each stage by name (`live/compute.js`), so there a
new stage needs its few lines of JavaScript too: `tests/test_live_parity.py` fails until it has them.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import attention_lab

PACKAGE = Path(attention_lab.__file__).resolve().parent
ENTRY = '''    Stage("S_shifted", "S / √dh + M − max", "scores", "query", QK, ("S_masked",),
          lambda S_masked, c: S_masked - np.nan_to_num(S_masked.max(axis=-1, keepdims=True), neginf=0.0),
          highlight="row"),
'''
WORDS = "    'stage.S_shifted': ('S / √dh + M − 행의 최댓값', 'S / √dh + M − row max'),\n"

CHECK = r'''
import json, sys
import numpy as np
import attention_lab as al
from attention_lab.figures import command
from attention_lab.live import picture, state, views
from attention_lab.numeric import pipeline

tr = al.article_example()
fig = al.plotting.figure_stages(tr, head=0, lang="en")
titles = [ax.get_title().replace("\n", " ") for ax in fig.axes]
spec = views.VIEWS["all"]
drawn = json.dumps(picture.picture(state.initial_state(spec), spec, "en"), ensure_ascii=False)
status = command.main(["--out", sys.argv[1], "--format", "png", "--lang", "ko"])
print(json.dumps({
    "file": al.__file__,
    "order": list(pipeline.STAGES),
    "head_stages": list(pipeline.HEAD_STAGES),
    "row3": tr.S_shifted[0, 2].tolist(),
    "in_arrays": "S_shifted" in tr.arrays(),
    "views": {name: "S_shifted" in view.items for name, view in views.VIEWS.items()},
    "titles": titles,
    "in_picture": '"S_shifted"' in drawn and "S / √dh + M − row max" in drawn,
    "status": status,
}))
'''


def test_one_pipeline_entry_and_its_words_reach_every_layer(tmp_path):
    copy = tmp_path / "attention_lab"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    pipeline = copy / "numeric" / "pipeline.py"
    source = pipeline.read_text()
    anchor = '    Stage("E", '
    assert source.count(anchor) == 1
    pipeline.write_text(source.replace(anchor, ENTRY + anchor))
    words = copy / "look" / "words" / "core.py"
    source = words.read_text()
    anchor = "    'stage.E': "
    assert source.count(anchor) == 1
    words.write_text(source.replace(anchor, WORDS + anchor))

    out = tmp_path / "figures"
    run = subprocess.run([sys.executable, "-c", CHECK, str(out)], cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg"})
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert Path(seen["file"]).resolve().parent == copy  # the copy, not the installed package

    # the trace: a field, in the pipeline's order, computed from the stage before it
    assert seen["order"].index("S_masked") < seen["order"].index("S_shifted") < seen["order"].index("E")
    assert seen["in_arrays"] and seen["row3"] == [-2.0, -3.0, 0.0]  # token 3's scores [1, 0, 3] minus their max
    # every stage of a head, and the explorer's views that span the stages around it
    assert "S_shifted" in seen["head_stages"]
    assert seen["views"]["all"] and seen["views"]["article"] and seen["views"]["softmax"]
    assert not seen["views"]["scores"]  # S alone: a span that ends before it
    assert seen["in_picture"]  # the Python reference of what the page draws
    # the figures and the figures command, with its words
    assert "S / √dh + M − row max" in seen["titles"]
    assert seen["status"] == 0 and (out / "stages_head1.png").stat().st_size > 0
