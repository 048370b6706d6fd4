"""The export command: every figure to a file, in either language, 16:9 on request; every error one line."""

import contextlib
import io
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import matplotlib
import matplotlib.image
import numpy as np
import pytest
from strategies import every_mask

import attention_lab as al
from attention_lab import figures, look
from attention_lab.figures import command
from attention_lab.look import words


def names(fmt, lang="en"):
    return sorted(f"{name}_{lang}.{fmt}" for name in figures.FIGURES)


def run(argv, capsys):
    """main(argv) -> (status, stdout, stderr lines)."""
    status = command.main(argv)
    out, err = capsys.readouterr()
    return status, out, err.strip().splitlines()


@pytest.mark.parametrize("fmt", ["svg", "png", "pdf"])
def test_writes_every_figure(tmp_path, capsys, fmt):
    status, out, err = run(["--out", str(tmp_path), "--format", fmt, "--dpi", "40"], capsys)
    assert (status, err) == (0, [])
    assert sorted(p.name for p in tmp_path.iterdir()) == names(fmt)
    assert sorted(out.split()) == sorted(str(tmp_path / n) for n in names(fmt))
    for path in tmp_path.iterdir():
        assert path.stat().st_size > 1000
        if fmt == "png":
            assert matplotlib.image.imread(path).ndim == 3
        elif fmt == "svg":
            assert ET.parse(path).getroot().tag.endswith("svg")
            # Text is drawn as glyph paths (svg.fonttype is left alone); matplotlib keeps each string as a comment.
            if path.name == "fig2_scores_en.svg":
                assert "2\u00b71 = 2" in path.read_text()
        else:
            assert path.read_bytes().startswith(b"%PDF")


def test_korean_slides_are_16_9_and_korean(tmp_path, capsys):
    status, _, err = run(["--out", str(tmp_path), "--format", "svg", "--lang", "ko", "--slides"], capsys)
    assert (status, err) == (0, [])
    for path in tmp_path.iterdir():  # every file a 16:9 slide, the all-heads figure as many as it takes
        svg = ET.parse(path).getroot()
        size = (float(svg.get("width").rstrip("pt")) / 72, float(svg.get("height").rstrip("pt")) / 72)
        assert size == pytest.approx(figures.SLIDE_SIZE, abs=0.01), path.name
    fig3 = (tmp_path / "fig3_mask_ko.svg").read_text()
    assert words.table("ko")["fig_mask_rule"] in fig3  # the Korean words, kept as comments beside their outlines


def test_png_slides_have_the_slide_size_in_pixels(tmp_path, capsys):
    """Also: a masked example with grouped K/V heads, in Korean, into a folder that does not exist yet."""
    out = tmp_path / "new" / "folder"
    status, _, err = run(["--out", str(out), "--format", "png", "--slides", "--dpi", "30", "--T", "4", "--h", "4",
                          "--kv-heads", "1", "--mask", "prefix:prefix=2", "--lang", "ko"], capsys)
    assert (status, err) == (0, [])
    tr = command.make_trace(command.parse_args(["--out", "x", "--T", "4", "--h", "4", "--kv-heads", "1"]))
    groups = figures.slide_groups(tr, "ko")
    assert [h for g in groups for h in g] == list(range(4))  # every head on one slide or another
    assert len(list(out.iterdir())) == len(figures.FIGURES) - 1 + len(groups)
    for path in out.iterdir():  # every file is a slide, the all-heads figure one slide per group of heads
        assert matplotlib.image.imread(path).shape[:2] == (225, 400), path.name  # 7.5 × 13.33 in at 30 dpi


@pytest.fixture(scope="module")
def ko_svg_text(tmp_path_factory):  # -> (folder, status, stderr lines, rcParams before, rcParams after)
    """`--out FOLDER --svg-text --lang ko` run once, for the three tests that read what it writes."""
    out = tmp_path_factory.mktemp("ko_svg_text")
    rc_before = dict(matplotlib.rcParams)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        status = command.main(["--out", str(out), "--svg-text", "--lang", "ko"])
    return out, status, err.getvalue().strip().splitlines(), rc_before, dict(matplotlib.rcParams)


def test_svg_text_keeps_text_as_text_and_names_the_font(ko_svg_text):
    tmp_path, status, err, rc_before, rc_after = ko_svg_text
    assert (status, err) == (0, [])
    svg = (tmp_path / "fig3_mask_ko.svg").read_text()
    assert "<text" in svg and look.KO_FONT in svg and words.table("ko")["fig_mask_rule"] in svg
    assert rc_after == rc_before  # svg.fonttype was set only while saving


def test_help_states_the_limits_and_what_svg_text_needs(capsys):
    with pytest.raises(SystemExit) as exit_:
        command.parse_args(["--help"])
    assert exit_.value.code == 0
    shown = " ".join(capsys.readouterr().out.split())
    for limit in ("1 … 16", "1 … 64", "1 … 8", "d/h ≤ 8", "30 … 200"):
        assert limit in shown
    assert "The viewer then needs the fonts" in shown and look.KO_FONT in shown
    for mask in ("sliding", "padding", "prefix"):
        assert mask in shown
    for name, kind in al.MASKS.items():  # generated from the mask registry
        for p in kind.params:
            assert f"{name}:" in shown and f"{p.name}=" in shown


def test_sizes_grow_the_articles_example_and_a_seed_gives_a_random_one():
    grown = command.make_trace(command.parse_args(["--out", "x", "--T", "5", "--d", "12", "--h", "3"]))
    assert (grown.T, grown.d, grown.h) == (5, 12, 3)
    assert grown.S[0, 2, :3].tolist() == [2, 0, 6]  # the article's corner, kept
    random = command.make_trace(command.parse_args(["--out", "x", "--T", "5", "--d", "12", "--h", "3", "--seed", "1"]))
    assert not np.array_equal(random.S[0, :3, :3], grown.S[0, :3, :3])


def test_mask_and_its_parameters_come_from_the_registry():
    tr = command.make_trace(command.parse_args(["--out", "x", "--T", "5", "--mask", "sliding:window=2"]))
    assert (tr.mask_name, tr.mask_params) == ("sliding", {"window": 2})
    tr = command.make_trace(command.parse_args(["--out", "x", "--mask", "padding:length=2"]))
    assert (tr.mask_name, tr.mask_params) == ("padding", {"length": 2})
    tr = command.make_trace(command.parse_args(["--out", "x", "--T", "9", "--mask", "packed:lengths=3+2+4"]))
    assert (tr.mask_name, tr.mask_params) == ("packed", {"lengths": (3, 2, 4)})
    tr = command.make_trace(command.parse_args(["--out", "x", "--T", "5", "--mask", "window:left=1:right=0"]))
    assert (tr.mask_name, tr.mask_params) == ("window", {"left": 1, "right": 0})
    tr = command.make_trace(command.parse_args(["--out", "x", "--h", "4", "--kv-heads", "2"]))
    assert tr.kv_heads == 2


def test_a_new_mask_reaches_the_command_as_one_registry_entry(new_entries, tmp_path, capsys):
    tr = command.make_trace(command.parse_args(["--out", "x", "--T", "5", "--mask", "stripe:seed=3"]))
    assert (tr.mask_name, tr.mask_params) == ("stripe", {"seed": 3})  # a parameter named like an option
    assert (tr.M[4] == 0).tolist() == [True, False, False, True, True]
    status, out, err = run(["--out", str(tmp_path), "--format", "png", "--dpi", "40", "--mask", "stripe"], capsys)
    assert (status, err) == (0, []) and (tmp_path / "fig3_mask_en.png").stat().st_size > 1000
    status, _, err = run(["--out", str(tmp_path), "--mask", "stripe:seed=9"], capsys)
    assert status == 2 and "--mask stripe:seed=…: must be from 1 to 3, got 9" in err[0]


@pytest.mark.parametrize("argv, message", [
    (["--T", "4", "--d", "6", "--h", "4"], "--h: d=6 is not divisible by h=4"),
    (["--T", "0"], "--T: must be from 1 to 16, got 0"),
    (["--T", "17"], "--T: must be from 1 to 16, got 17"),
    (["--d", "1000000000"], "--d: must be from 1 to 64"),
    (["--h", "9"], "--h: must be from 1 to 8"),
    (["--d", "64", "--h", "1"], "--d, --h: each head would have dh = d/h = 64 components"),
    (["--h", "2", "--kv-heads", "3"], "--kv-heads: must be from 1 to 2"),
    (["--dpi", "0"], "--dpi: must be from 30 to 200, got 0"),
    (["--dpi", "100000"], "--dpi: must be from 30 to 200"),
    (["--seed", "-1"], "--seed: must be from 0"),
    (["--mask", "causal:window=2"], "--mask: causal takes no parameters, not :window=…; window belongs to --mask "
                                    "sliding:window=…"),
    (["--out", ""], "--out: give a folder to write to"),
    (["--q", "q.csv"], "--k, --v: your own numbers take all three of --q, --k and --v"),
    (["--queries", "4"], "--queries: must be from 1 to 3"),
    (["--row", "4"], "--row: the Query rows are tokens 1 … 3; got 4"),
    (["--queries", "1", "--row", "2"], "--row: the Query rows are tokens 3 … 3; got 2"),
    (["--key", "0"], "--key: the Key tokens are 1 … 3; got 0"),
    (["--deck", "--slides"], "--deck: writes one deck of 16:9 slides by itself"),
    (["--deck", "ppt"], "argument --deck: invalid choice: 'ppt'"),
    (["--mask", "sliding:window=9"], "--mask sliding:window=…: must be from 1 to 3, got 9"),
    (["--mask", "sliding:window"], "--mask: write each parameter as PARAM=WHOLE_NUMBER"),
    (["--mask", "custom"], "--mask: unknown mask 'custom'"),
    (["--mask", "sliding:window=²"], "--mask: write each parameter as PARAM=WHOLE_NUMBER (lengths as 3+2+4), e.g. "
                                     "--mask sliding:window=2; got 'window=²'"),
    (["--mask", "sliding:window=٢"], "got 'window=٢'"),  # an Arabic-Indic digit is no number a side writes
    (["--mask", "sliding:window=1:window=2"], "--mask: window is given twice in 'sliding:window=1:window=2'; give "
                                              "each parameter once, e.g. --mask sliding:window=2."),
    (["--mask", "window:left=1:right=1:left=0"], "--mask: left is given twice"),
    (["--h", "4", "--kv-heads", "3"], "--kv-heads: h=4 Query heads must share the K/V heads evenly, so --kv-heads "
                                      "must divide h"),
    (["--window", "2"], "unrecognized arguments: --window 2"),
    (["--lang", "fr"], "--lang: invalid choice: 'fr'"),
    (["--format", "jpg"], "invalid choice: 'jpg'"),
    (["--T", "three"], "argument --T: give a whole number such as 3 (digits 0-9, or full width: ３), got 'three'."),
    (["--svg-text", "--format", "png"], "--svg-text: applies to SVG files only"),
])
def test_bad_arguments_fail_with_one_clear_line(tmp_path, capsys, argv, message):
    out_given = [] if "--out" in argv else ["--out", str(tmp_path / "out")]
    status, out, err = run([*out_given, *argv], capsys)
    assert status == 2 and out == ""
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0], err
    assert not (tmp_path / "out").exists()  # nothing written


@pytest.mark.parametrize("argv, option", [
    (["--T", "3", "--T", "5"], "--T"),
    (["--T", "5", "--T", "5"], "--T"),  # the same value twice too: one rule, whatever the values
    (["--mask", "causal", "--mask", "none"], "--mask"),
    (["--lang", "en", "--lang=ko"], "--lang"),
    (["--seed", "1", "--seed", "2"], "--seed"),
    (["--kv-heads", "1", "--kv-heads", "2"], "--kv-heads"),
    (["--deck", "--deck", "pdf"], "--deck"),
    (["--out", "a", "--out", "b"], "--out"),
])
def test_an_option_given_twice_is_named_not_replaced(tmp_path, capsys, argv, option):
    """`--T 3 --T 5` drew T = 5 and dropped the 3 without a word (argparse keeps the last value), where the page's
    link refuses a key given twice (#T=6&T=8) and --mask a parameter given twice: every command refuses it."""
    from attention_lab import worksheet
    from attention_lab.live import command as page_command

    status, out, err = run(["--out", str(tmp_path / "out"), *argv] if "--out" not in argv else argv, capsys)
    assert status == 2 and out == "", (status, out)
    assert err == [f"error: {option}: given twice; give each option once."], err
    assert not (tmp_path / "out").exists()
    page_argv = [a for a in argv if a not in ("--deck", "pdf")] or ["--T", "3", "--T", "4"]
    page_option = option if option != "--deck" else "--T"
    if page_option != "--out":
        page_argv = ["--out", str(tmp_path / "page.html"), *page_argv]
    assert page_command.main(page_argv) == 2
    assert capsys.readouterr().err.strip().splitlines() == [f"error: {page_option}: given twice; give each option "
                                                            "once."]
    assert worksheet.main(["--out", str(tmp_path / "ws"), "--lang", "en", "--lang", "ko"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == ["error: --lang: given twice; give each option once."]


def test_out_is_required(capsys):
    status, _, err = run([], capsys)
    assert status == 2 and len(err) == 1 and "--out" in err[0]


@pytest.mark.parametrize("where, message", [
    (lambda tmp: tmp / "file.txt", "is a file, not a folder"),
    (lambda tmp: tmp / "file.txt" / "below", "file.txt is a file, not a folder"),  # names the part in the way
    (lambda tmp: "/proc/attention-lab-figures", "cannot write to"),  # refused even to root
    (lambda tmp: "/proc/self", "cannot write to"),  # exists, but nothing can be created in it
])
def test_out_that_is_a_file_or_unwritable_is_refused(tmp_path, capsys, where, message):
    (tmp_path / "file.txt").write_text("not a folder")
    status, out, err = run(["--out", str(where(tmp_path)), "--format", "png"], capsys)
    assert status == 2 and out == ""
    assert len(err) == 1 and message in err[0], err


def test_the_explorer_page_into_a_missing_folder_makes_it_and_names_a_file_in_the_way(tmp_path, capsys):
    """Issue 48.12: --out "새 폴더/x.html" in a folder that does not exist wrote nothing ("No such file or
    directory", without saying which path): the folder is made, by the one folder helper every command uses."""
    from attention_lab.live import command as page_command

    page = tmp_path / "새 폴더" / "깊이" / "x.html"
    assert page_command.main(["--out", str(page)]) == 0
    assert capsys.readouterr().out.split("\n")[0] == str(page)
    assert page.read_text(encoding="utf-8").lower().startswith("<!doctype html>")
    (tmp_path / "notes.txt").write_text("a file")
    assert page_command.main(["--out", str(tmp_path / "notes.txt" / "x.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"error: --out: {tmp_path / 'notes.txt'} is a file, not a folder; give a folder to write the "
                   "page to."], err


def test_every_command_takes_out_from_the_one_helper(capsys):
    """Issue 50.7: the --out option (an empty name refused, saying what to give) is one helper, options.add_out,
    which the figures, the worksheet and the explorer page all use: no copy of it is left in the commands."""
    import inspect

    from attention_lab import worksheet
    from attention_lab.figures import options
    from attention_lab.live import command as page_command

    for module, example in ((options, "figures"), (worksheet, "handouts"), (page_command, "explorer.html")):
        assert "_folder" not in vars(module) and "add_out(" in inspect.getsource(module.parser), module
        assert module.main(["--out", " "]) == 2 if module is not options else command.main(["--out", " "]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"e.g. --out {example} (got an empty name)" in err[0], err


def test_runs_as_a_module_and_never_prints_a_traceback(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "attention_lab.figures", "--out", str(tmp_path), "--format", "png",
                         "--dpi", "30", "--lang", "ko"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert len(ok.stdout.split()) == len(figures.FIGURES)
    for argv in (["--d", "7", "--h", "2"], ["--dpi", "0"], ["--out", "/proc/self"], ["--T", "x"]):
        bad = subprocess.run([sys.executable, "-m", "attention_lab.figures", "--out", str(tmp_path), *argv],
                             capture_output=True, text=True)
        assert bad.returncode == 2, argv
        assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr, bad.stderr
    bad = subprocess.run([sys.executable, "-m", "attention_lab.figures", "--out", str(tmp_path),
                          "--d", "7", "--h", "2"], capture_output=True, text=True)
    assert bad.stderr.strip() == (
        "error: --h: d=7 is not divisible by h=2, so the heads cannot have equal width dh = d / h. "
        "With d=7 use h in [1, 7], or change d to a multiple of 2."
    )


def test_stdout_closed_or_full_still_writes_every_file(tmp_path):
    """`| head -1` and `> /dev/full`: every figure is written, and --out is not blamed."""
    cmd = [sys.executable, "-m", "attention_lab.figures", "--format", "png", "--dpi", "30"]
    head = subprocess.Popen([*cmd, "--out", str(tmp_path / "a")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head.stdout.readline()
    head.stdout.close()  # the reader stops after one line
    _, stderr = head.communicate()
    assert head.returncode == 0 and b"--out" not in stderr
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == names("png")
    with open("/dev/full", "w") as full:
        done = subprocess.run([*cmd, "--out", str(tmp_path / "b")], stdout=full, stderr=subprocess.PIPE, text=True)
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == names("png")
    assert done.returncode == 2 and "--out" not in done.stderr and "stdout" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("suffix", [".csv", ".npy"])
def test_figures_of_your_own_numbers(tmp_path, capsys, suffix):
    tr = al.article_example()
    for name in ("q", "k", "v"):
        X = getattr(tr, name.upper())
        np.savetxt(tmp_path / f"{name}.csv", X, delimiter=",") if suffix == ".csv" else np.save(tmp_path / name, X)
    files = [arg for n in ("q", "k", "v") for arg in (f"--{n}", str(tmp_path / f"{n}{suffix}"))]
    args = command.parse_args(["--out", "x", *files, "--h", "2"])
    mine = command.make_trace(args)
    assert np.array_equal(mine.P, tr.P)
    status, _, err = run(["--out", str(tmp_path / "out"), "--format", "svg", "--svg-text", *files, "--h", "2",
                          "--row", "2", "--query", "2", "--key", "2"], capsys)
    assert (status, err) == (0, [])
    svg = (tmp_path / "out" / "fig2_scores_en.svg").read_text()
    assert "S[2, 2]" in svg  # the picked cell, 1-based
    status, _, err = run(["--out", str(tmp_path / "out"), *files], capsys)
    assert status == 2 and err == ["error: --h: say how many heads your --q, --k, --v have, e.g. --h 2."]
    (tmp_path / "bad.csv").write_text("1,2\nthree,4\n")
    status, _, err = run(["--out", str(tmp_path / "out"), "--q", str(tmp_path / "bad.csv"), *files[2:], "--h", "2"],
                         capsys)
    assert status == 2 and err == [f"error: --q: {tmp_path / 'bad.csv'}, row 2, column 1: 'three' is not a number; "
                                   "write a number such as -1.5 there."]


@pytest.mark.parametrize("mask", every_mask(5), ids=repr)
def test_every_mask_reaches_the_command(mask):
    spec = ":".join([mask.name, *(f"{k}={'+'.join(map(str, v)) if isinstance(v, tuple) else v}"
                                  for k, v in mask.params)])
    tr = command.make_trace(command.parse_args(["--out", "x", "--T", "5", "--mask", spec]))
    assert tr.mask.name == mask.name and dict(tr.mask.params).items() >= dict(mask.params).items()


def test_a_decode_step_and_the_other_corner(tmp_path, capsys):
    tr = command.make_trace(command.parse_args(["--out", "x", "--queries", "1"]))
    assert tr.M.shape == (1, 3) and tr.S[0, 0].tolist() == [2, 0, 6]
    tr = command.make_trace(command.parse_args(["--out", "x", "--queries", "2", "--align", "top-left"]))
    assert tr.mask.align == "top-left" and (tr.M == 0).sum() == 3
    status, _, err = run(["--out", str(tmp_path), "--format", "png", "--dpi", "30", "--queries", "2"], capsys)
    assert (status, err) == (0, [])


@pytest.mark.parametrize("name", al.pipeline.HEAD_STAGES)
def test_every_stage_reaches_the_command(ko_svg_text, name):
    out, status, _, _, _ = ko_svg_text
    assert status == 0
    svg = " ".join((out / "stages_head1_ko.svg").read_text().split())
    assert all(word in svg for word in words.table("ko")[f"stage.{name}"].split()), name


def test_the_editable_deck_without_python_pptx_says_how_to_get_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pptx", None)  # as if python-pptx were not installed
    status, out, err = run(["--out", str(tmp_path), "--deck", "pptx"], capsys)
    assert status == 2 and err == ["error: --deck pptx: needs python-pptx; install it with pip install "
                                   "'attention-lab[pptx]', or use --deck for the PDF."]
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("argv, message", [
    (["--dh", "0"], "error: --dh: must be from 1 to 8, got 0."),
    (["--d", "8", "--dh", "3"], "error: --d, --dh: d is h·dh"),
    (["--h", "3", "--kv-heads", "2"], "so --kv-heads must divide h"),
    (["--mask", "sliding:window=²"], "error: --mask: write each parameter as PARAM=WHOLE_NUMBER"),
    (["--q", "{q}", "--k", "{k}", "--v", "{k}", "--h", "2", "--queries", "1"],
     "error: --queries: with your own Q, K, V the Query tokens are the rows of Q; leave it out."),
    (["--q", "{q}", "--k", "{k}", "--v", "{k}", "--h", "2", "--T", "4"],
     "error: --T: with your own Q, K, V the sizes come from them; leave it out."),
])
def test_the_explorer_page_command_names_the_options_typed(tmp_path, capsys, argv, message):
    from attention_lab.live import command as page_command

    np.save(tmp_path / "q.npy", np.ones((2, 4)))  # your own numbers: 2 Query rows, 4 Key tokens
    np.save(tmp_path / "k.npy", np.ones((4, 4)))
    argv = [a.format(q=tmp_path / "q.npy", k=tmp_path / "k.npy") for a in argv]
    assert page_command.main(["--out", str(tmp_path / "page.html"), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "kv_heads" not in err[0], err


def test_svg_text_names_fallback_families(ko_svg_text):
    tmp_path, status, err, _, _ = ko_svg_text
    assert (status, err) == (0, [])
    svg = (tmp_path / "fig3_mask_ko.svg").read_text()
    families = set(re.findall(r"font-family: ([^;\"]+)", svg))
    assert families and all(f.endswith("'Apple SD Gothic Neo', sans-serif") and "'Noto Sans CJK KR'" in f
                            for f in families), families
    ET.fromstring(svg)  # still well-formed


def test_all_heads_slides_are_named_by_their_heads(tmp_path, capsys):
    from attention_lab.figures.overview import slide_groups

    tr = command.make_trace(command.parse_args(["--out", "x", "--T", "8", "--d", "16", "--h", "4"]))
    status, out, _ = run(["--out", str(tmp_path), "--slides", "--format", "png", "--dpi", "30", "--T", "8", "--d",
                          "16", "--h", "4"], capsys)
    groups = slide_groups(tr, "en")
    names = sorted(name for name in (p.split("/")[-1] for p in out.split()) if name.startswith("all_heads"))
    expected = sorted(f"all_heads_{g.start + 1}_en.png" if len(g) == 1 else f"all_heads_{g.start + 1}-{g.stop}_en.png"
                      for g in groups)
    assert status == 0 and names == expected and len(groups) > 1


def test_korean_and_english_figures_written_into_one_folder_keep_both(ko_svg_text, tmp_path, capsys):
    """A lecturer who writes ko and then en into one --out keeps both sets, as with the deck and the worksheets.
    The Korean run is ko_svg_text's (--format svg is the default: the same arguments), copied here whole."""
    written, status, err, _, _ = ko_svg_text
    assert (status, err) == (0, [])
    ko_argv = ["--out", str(tmp_path), "--format", "svg", "--svg-text", "--lang", "ko"]
    assert command.parse_args(ko_argv) == command.parse_args([a for a in ko_argv if a not in ("--format", "svg")])
    shutil.copytree(written, tmp_path, dirs_exist_ok=True)
    status, _, err = run(["--out", str(tmp_path), "--format", "svg", "--svg-text", "--lang", "en"], capsys)
    assert (status, err) == (0, [])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names("svg", "ko") + names("svg", "en"))
    assert words.table("ko")["fig_mask_rule"] in (tmp_path / "fig3_mask_ko.svg").read_text()
    assert words.table("en")["fig_mask_rule"] in (tmp_path / "fig3_mask_en.svg").read_text()


# A number typed as an option's value, and the number it means (None: refused), written out here. The one rule of
# a typed number is the row editor's and a file's cells' (own_numbers.ROW_GRAMMAR): full width, as a Korean input
# method types it, reads as ASCII; then ASCII digits only. Before, --T read "١" and "1_0" (int() does) while
# --mask sliding:window=２ was refused, and "−2" (the minus the figures print) was refused by both.
TYPED_WHOLE = [("3", 3), ("３", 3), ("１２", 12), ("-2", -2), ("－２", -2), ("−2", -2), ("+4", 4), ("＋４", 4),
               (" 5 ", 5), ("\u3000６", 6), ("٣", None), ("۳", None), ("1_0", None), ("²", None), ("3.0", None),
               ("", None), ("三", None), ("0x3", None), ("3e0", None), ("1 2", None), ("３．０", None)]
TYPED_DECIMAL = [("1.5", 1.5), ("１．５", 1.5), ("１.２５", 1.25), ("2", 2.0), ("−0.5", -0.5), ("nan", None),
                 ("inf", None), ("1_0", None), ("١", None), ("1,5", None), ("", None), ("½", None)]
TYPED_MASKS = [("sliding:window=２", al.Mask("sliding", window=2)), ("window:left=１:right=０",
               al.Mask("window", left=1, right=0)), ("packed:lengths=３＋２＋４", al.Mask("packed", lengths=(3, 2, 4))),
               ("packed:lengths=3+２", al.Mask("packed", lengths=(3, 2))), ("sliding:window=٢", None),
               ("sliding:window=²", None), ("sliding:window=2_0", None), ("sliding:window=２.０", None)]


def _command_parsers():  # -> {command: its parser}: every command of the package
    from attention_lab import train, worksheet
    from attention_lab.figures import options
    from attention_lab.live import command as page_command
    from attention_lab.site import __main__ as site_command

    return {"figures": options.parser, "explorer": page_command.parser, "worksheet": worksheet.parser,
            "train": train.parser, "site": site_command.parser}


def test_every_number_option_of_every_command_reads_a_typed_number_by_the_one_rule():
    from attention_lab.live.state import parse_row

    numeric = {}
    for name, make in _command_parsers().items():
        parser = make()
        numeric[name] = [a for a in parser._actions if a.type in (int, float)]
        for action in numeric[name]:
            option = action.option_strings[-1]
            for typed, means in TYPED_WHOLE if action.type is int else TYPED_DECIMAL:
                argv = ["--out", "x", option, typed]
                if means is None:
                    with pytest.raises(command.ArgumentError, match=re.escape(f"argument {option}: give a")):
                        parser.parse_known_args(argv)
                    continue
                value = getattr(parser.parse_known_args(argv)[0], action.dest)
                assert value == means and type(value) is action.type, (name, option, typed, value)
    assert {n: sorted(a.option_strings[-1] for a in actions) for n, actions in numeric.items()} == {
        "figures": sorted(["--T", "--d", "--h", "--kv-heads", "--seed", "--queries", "--head", "--row", "--query",
                           "--key", "--dpi"]),
        "explorer": sorted(["--T", "--h", "--dh", "--d", "--kv-heads", "--queries", "--seed", "--scale"]),
        "worksheet": sorted(["--seed", "--head", "--class", "--h"]),
        "train": sorted(["--seed", "--steps", "--h", "--dh", "--rate"]), "site": []}
    for typed, means in TYPED_WHOLE + TYPED_DECIMAL:  # the page's row editor reads each the same way
        row, _problem = parse_row(typed, 1)
        if means is not None:
            assert row is not None and row.tolist() == [means], typed
        elif typed not in ("3.0", "3e0", "３．０"):  # numbers, but not whole ones
            assert row is None, typed


@pytest.mark.parametrize("typed, means", TYPED_MASKS)
def test_a_mask_parameter_reads_a_typed_number_by_the_same_rule(typed, means):
    from attention_lab.figures.options import parse_mask

    if means is None:
        with pytest.raises(command.ArgumentError, match="write each parameter as PARAM=WHOLE_NUMBER"):
            parse_mask(typed, "bottom-right")
    else:
        assert parse_mask(typed, "bottom-right") == means


# An alignment where it cannot apply: the mask "none" lets every Query row see every Key token wherever the rows sit,
# so --align (and align=) changed nothing and was accepted without a word; a mask that reads the row's position
# keeps it. Which masks read it, written out here (and checked against the masks themselves below).
ALIGN_IGNORED = {"none"}
ALIGN_CASES = [("none", "top-left"), ("none", "bottom-right"), ("causal", "top-left"), ("sliding:window=2", "top-left"),
               ("window:left=1:right=1", "top-left"), ("padding:length=2", "top-left"), ("prefix:prefix=2", "top-left"),
               ("packed:lengths=2+3", "top-left"), ("causal", "bottom-right")]


def test_the_masks_that_ignore_the_alignment_are_those_whose_rows_do_not_move_with_it():
    for name in al.masks.MASK_NAMES:
        moved = [al.allowed_of(al.Mask(name, align=a), 2, 5) for a in al.masks.ALIGNS]
        assert (name in ALIGN_IGNORED) == np.array_equal(*moved), name


@pytest.mark.parametrize("mask, align", ALIGN_CASES)
def test_an_alignment_with_a_mask_that_ignores_it_is_refused_everywhere(tmp_path, capsys, mask, align):
    from attention_lab.live import command as page_command

    refused = mask.split(":")[0] in ALIGN_IGNORED
    argv = ["--T", "5", "--queries", "2", "--mask", mask, "--align", align]
    status, _, err = run(["--out", str(tmp_path / "f"), *argv], capsys) if refused else (None, None, None)
    page = page_command.main(["--out", str(tmp_path / "p.html"), "--view", "queries", *argv])
    page_err = capsys.readouterr().err.strip().splitlines()
    if refused:
        line = (f"error: --align: --mask {mask} lets a Query row see the same Key tokens wherever the rows sit, so an "
                "alignment changes nothing; leave --align out.")
        assert (status, err) == (2, [line]) and (page, page_err) == (2, [line])
        assert not (tmp_path / "f").exists() and not (tmp_path / "p.html").exists()
    else:
        assert (page, page_err) == (0, []), page_err
        tr = command.make_trace(command.parse_args(["--out", "x", *argv]))
        assert tr.mask.align == align and tr.mask.name == mask.split(":")[0]
    python_mask = command.parse_args(["--out", "x", "--mask", mask]).mask
    for given in ({"mask": python_mask, "align": align}, {"mask": al.Mask(python_mask.name, align=align,
                                                                          **dict(python_mask.params))}):
        if refused and align == "top-left":  # bottom-right is al.explorer's default: it cannot tell it was given
            with pytest.raises(ValueError, match=r"^align: the mask 'none' lets a Query row see the same Key tokens"):
                al.explorer(T=5, queries=2, view="queries", **given)
        elif not refused:
            assert al.explorer(T=5, queries=2, view="queries", **given).trace.mask.align == align
    if refused and align == "top-left":
        Q, KV = np.ones((2, 4)), np.ones((5, 4))
        for mask_given in (None, "none", python_mask):
            with pytest.raises(ValueError, match=r"^align: the mask 'none'"):
                al.explorer(Q=Q, K=KV, V=KV, h=2, mask=mask_given, align=align, view="queries")


@pytest.mark.parametrize("which", ["figures", "explorer"])
def test_own_k_v_that_do_not_fit_kv_heads_name_the_options_typed(tmp_path, capsys, which):
    """Issue 48, item 10: --kv-heads 1 with K and V files of d columns said "K, V: … kv_heads=1", Python's names,
    where the user typed --k, --v and --kv-heads: the line names those options, and how to fix it."""
    from attention_lab.live import command as page_command

    for name in "qkv":
        np.save(tmp_path / f"{name}.npy", np.ones((3, 8)))  # d = 8 columns each: h = 2 heads of dh = 4
    own = [a for n in "qkv" for a in (f"--{n}", str(tmp_path / f"{n}.npy"))]
    argv = [*own, "--h", "2", "--kv-heads", "1"]
    main = command.main if which == "figures" else page_command.main
    out = tmp_path / ("figs" if which == "figures" else "page.html")
    assert main(["--out", str(out), *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: --k, --v, --kv-heads: "), err
    assert "kv_heads" not in err[0] and not re.search(r"(^|[^-])\b[KV], V:", err[0]), err
    assert "--kv-heads 1" in err[0] and "--kv-heads 2" in err[0], err  # what was typed, and a value that fits
    assert not out.exists()
