"""The export command: every figure to a file, clear errors on bad arguments."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import matplotlib.image
import pytest

from attention_lab import figures, plotting


def names(fmt):
    return sorted(f"{name}.{fmt}" for name in plotting.FIGURES)


@pytest.mark.parametrize("fmt", ["svg", "png", "pdf"])
def test_writes_every_article_figure(tmp_path, capsys, fmt):
    assert figures.main(["--out", str(tmp_path), "--format", fmt, "--dpi", "50"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == names(fmt)
    printed = capsys.readouterr().out.split()
    assert sorted(printed) == sorted(str(tmp_path / n) for n in names(fmt))
    for path in tmp_path.iterdir():
        assert path.stat().st_size > 1000
        if fmt == "png":
            assert matplotlib.image.imread(path).ndim == 3
        elif fmt == "svg":
            assert ET.parse(path).getroot().tag.endswith("svg")
            # Text is drawn as glyph paths (svg.fonttype is left alone); matplotlib keeps each string as a comment.
            if path.name == "fig2_scores.svg":
                assert "2\u00b71 = 2" in path.read_text()
        else:
            assert path.read_bytes().startswith(b"%PDF")


def test_random_example_sizes(tmp_path, capsys):
    assert figures.main(["--out", str(tmp_path / "new"), "--format", "png", "--dpi", "40",
                         "--T", "2", "--d", "2", "--h", "1", "--seed", "1"]) == 0
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == names("png")


@pytest.mark.parametrize("argv, message", [
    (["--T", "4", "--d", "6", "--h", "4"], "h: d=6 is not divisible by h=4"),
    (["--T", "0"], "T: there must be at least one token"),
    (["--T", "17"], "readable up to T=16"),
    (["--format", "jpg"], "invalid choice: 'jpg'"),
    (["--T", "three"], "invalid int value"),
])
def test_bad_arguments_fail_with_one_clear_line(tmp_path, capsys, argv, message):
    assert figures.main(["--out", str(tmp_path / "out"), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1]
    assert not (tmp_path / "out").exists()  # nothing written


def test_out_is_required(capsys):
    assert figures.main([]) == 2
    assert "--out" in capsys.readouterr().err


def test_runs_as_a_module(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "attention_lab.figures", "--out", str(tmp_path), "--format", "png",
                         "--dpi", "40"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert len(ok.stdout.split()) == len(plotting.FIGURES)
    bad = subprocess.run([sys.executable, "-m", "attention_lab.figures", "--out", str(tmp_path),
                          "--d", "7", "--h", "2"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "error: h: d=7 is not divisible by h=2, so the heads cannot have equal width dh = d / h. "
        "With d=7 use h in [1, 7], or change d to a multiple of 2."
    )
