"""Fixtures shared by the test files."""

import functools
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from attention_lab.look import words
from attention_lab.numeric import masks

sys.path.insert(0, str(Path(__file__).parent))  # tests/strategies.py

# The suite runs in the interpreter that runs pytest, whatever virtual environment the caller's shell has active:
# IPython (the shell of tests/test_stored_figures.py, and every kernel a test starts) warns "Attempting to work in
# a virtualenv" when VIRTUAL_ENV names another one, and filterwarnings = error makes that a failure.
os.environ.pop("VIRTUAL_ENV", None)

# Hypothesis: in CI (CI set) the same examples on every run; elsewhere each run draws a seed, printed in the header,
# and `pytest --hypothesis-seed=N` replays that run. A failure prints the blob that replays its one example.
IN_CI = bool(os.environ.get("CI"))
settings.register_profile("attention-lab", derandomize=IN_CI, print_blob=True)
settings.load_profile("attention-lab")


@pytest.hookimpl(tryfirst=True)  # before Hypothesis's plugin reads --hypothesis-seed
def pytest_configure(config):
    if not IN_CI and config.getoption("hypothesis_seed", None) is None:
        config.option.hypothesis_seed = str(random.randrange(2**32))


# ---- the test tiers (pyproject.toml's addopts: `-m "not slow"`) ---------------------------------------------------
# What makes a test slow wherever it is written: a notebook (nbval runs it in a kernel) and these fixtures.
SLOW_FIXTURES = {"browser": "Chromium", "lab": "a JupyterLab server", "notebook_runs": "every stored notebook's cells"}
EVERY_TIER = 'python -m pytest -m "slow or not slow"'


# And these files and tests, by what they need or how long they take (measured with --durations on a 2-core
# machine: each takes seconds); tests/test_tiers.py holds every entry to a file or a test that exists. A new file or
# test may say so itself instead: `pytestmark = pytest.mark.slow`, `@pytest.mark.slow`.
NODE = "Node.js"
SLOW = {
    # whole files: a system tool, servers, or every test seconds long
    "test_anywhere.py": "Voilà servers; nbconvert of every notebook",
    "test_deck.py": "LibreOffice and poppler",
    "test_figures_cli.py": "the figures command in a fresh Python, each run seconds",
    "test_fuzz_explorer.py": NODE,
    "test_page_constants.py": NODE,
    "test_plotting.py": "draws hundreds of figures",
    "test_readme.py": "the README's jupyter lab",
    "test_site.py": "builds the course site; Chromium",
    "test_steppers.py": "Node.js; Chromium",
    "test_visible_zero.py": "Node.js; draws figures and decks",
    "test_widgets.py": "Node.js: the explorer's picture",
    "test_worksheet.py": "poppler; makes the article's worksheets",
    # tests
    "test_benchmarks.py::test_a_benchmark_run_from_another_checkout_measures_that_checkout": "seconds",
    "test_benchmarks.py::test_the_figure_benchmark_measures_the_package_it_is_given_or_nothing": "seconds",
    "test_blockwise.py::test_peak_memory_grows_with_t_not_t_squared": "seconds",
    "test_drills.py::test_no_page_without_a_kernel_tells_its_reader_to_run_a_cell": "builds every page",
    "test_drills.py::test_the_explorers_own_page_holds_its_drills_inline_and_a_step_widgets_page_none": "seconds",
    "test_drills.py::test_the_page_compares_as_python_does": NODE,
    "test_drills.py::test_the_page_reads_what_a_reader_types": NODE,
    "test_exercises.py::test_any_value_gets_feedback_never_an_exception_and_right_only_when_right": "seconds",
    "test_fonts.py::test_no_glyph_is_missing_when_drawing": "draws every figure",
    "test_fuzz_figures.py::test_a_few_real_figures_with_random_picks": "draws figures, seconds",
    "test_fuzz_figures.py::test_bad_head_query_key_row_get_a_value_error_naming_it": "seconds",
    "test_fuzz_files.py::test_any_table_gives_a_finite_matrix_or_one_line": "seconds",
    "test_html.py::test_breakdowns_show_the_article_numbers": NODE,
    "test_html.py::test_a_row_whose_exponentials_underflow_shows_them_shifted": NODE,
    "test_kv_cache.py::test_decoding_with_the_cache_keeps_no_step_so_its_memory_grows_as_t": "seconds",
    "test_layers.py::test_the_static_layers_never_load_widgets": "fresh Pythons, seconds",
    "test_fonts.py::test_every_character_a_korean_figure_draws_is_in_the_font": "draws every Korean figure",
    "test_fonts.py::test_korean_embeds_in_pdf_and_postscript_as_type_3_and_42": "seconds",
    "test_live_data.py::test_the_example_values_the_page_makes_at_the_largest_sizes_hold_every_smaller_example": NODE,
    "test_live_data.py::"
    "test_the_pages_example_values_are_remembered_per_seed_sizes_and_corner_not_per_seed_alone": NODE,
    "test_live_parity.py::"
    "test_the_front_ends_picture_is_the_trace_through_the_cells_reference_and_the_reference_refuses_wrong_ones": NODE,
    "test_live_rules.py::test_a_learned_model_lists_its_input_box_on_both_sides": NODE,
    "test_live_rules.py::test_a_new_control_is_one_entry_on_both_sides": NODE,
    "test_live_rules.py::test_a_page_operation_written_otherwise_fails_its_written_value": NODE,
    "test_live_rules.py::test_a_page_that_reads_the_rules_otherwise_is_refused": NODE,
    "test_live_rules.py::test_a_python_side_that_reads_the_rules_otherwise_is_refused": NODE,
    "test_live_rules.py::test_each_operation_gives_the_written_value_on_both_sides": NODE,
    "test_live_rules.py::test_python_and_the_page_resolve_list_and_move_every_state_alike": NODE,
    "test_live_rules.py::test_the_views_flags_the_controls_read_come_from_python": NODE,
    "test_own_numbers.py::test_the_commands_read_a_spreadsheets_csv_and_refuse_in_one_line": "fresh Pythons, seconds",
    "test_page.py::test_a_stored_widget_carries_the_front_end_without_its_comments_and_nothing_else_changes": NODE,
    "test_page.py::test_the_command_writes_a_page_and_says_what_is_wrong_in_one_line": "fresh Pythons, seconds",
    "test_page_link.py::test_a_bad_scale_is_one_line_and_status_2": "fresh Pythons, seconds",
    "test_packaging.py::test_a_wheel_and_an_sdist_build_and_pass_twine_check": "builds the wheel and the sdist",
    "test_packaging.py::test_the_suite_passes_with_another_virtual_environment_active": "runs a notebook's figures",
    "test_page_link.py::test_the_seed_box_and_a_links_numbers_read_a_typed_number_by_the_commands_rule": NODE,
    "test_queries_keys.py::test_a_query_token_that_may_see_nothing_gets_weights_and_output_0_never_nan": "seconds",
    "test_queries_keys.py::test_a_decode_step_is_a_trace_of_one_query_row_against_the_cache": "seconds",
    "test_same_bits.py::test_a_cancelling_score_is_the_left_to_right_sum_on_both_sides": NODE,
    "test_same_bits.py::test_a_python_side_that_sums_otherwise_is_refused": NODE,
    "test_same_bits.py::test_every_stage_has_pythons_bits_for_the_examples_in_random_states": NODE,
    "test_same_bits.py::test_every_stage_has_pythons_bits_for_your_own_numbers": NODE,
    "test_same_bits.py::test_exp_has_the_same_bits_on_both_sides_and_is_within_one_ulp": NODE,
    "test_same_bits.py::test_front_ends_that_sum_otherwise_or_compute_exp_otherwise_are_refused": NODE,
    "test_same_bits.py::test_log_has_the_same_bits_on_both_sides_and_is_within_one_ulp": NODE,
    "test_tiny_model.py::test_each_stage_of_the_learned_trace_shows_every_number": "draws figures, seconds",
    "test_tiny_model.py::test_one_head_of_either_width_ends_at_least_0_1_above_two_heads": "trains, seconds",
    "test_tiny_model.py::test_one_head_trained_ten_times_as_long_still_ends_at_least_0_1_above_two_heads":
        "trains 3000 steps, seconds",
    "test_tiny_model.py::test_the_command_with_the_documented_seed_remakes_the_shipped_weights": "trains, seconds",
}


def slow_because(item):  # -> why a test is slow, or None: a notebook, a slow fixture, SLOW's entry
    if item.path.suffix == ".ipynb":
        return "a notebook, run in a kernel"
    fixtures = [SLOW_FIXTURES[f] for f in getattr(item, "fixturenames", ()) if f in SLOW_FIXTURES]
    name = getattr(item, "originalname", item.name)
    return fixtures[0] if fixtures else SLOW.get(item.path.name) or SLOW.get(f"{item.path.name}::{name}")


@pytest.hookimpl(tryfirst=True)  # before pytest's own -m reads the marks
def pytest_collection_modifyitems(config, items):
    for item in items:
        if slow_because(item):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _a_fast_test_runs_no_node(request):
    """A test not marked slow that asks tests/frontend.py for Node.js fails, saying so (Node is a system tool)."""
    import frontend

    frontend.FAST_TEST = "" if request.node.get_closest_marker("slow") else request.node.nodeid
    yield
    frontend.FAST_TEST = ""


def _tier(config):  # -> the line saying which tier runs
    expression = config.getoption("markexpr", "")
    if expression == "not slow":
        return f"tier: fast (-m \"not slow\"); every tier: {EVERY_TIER}"
    return f"tier: -m \"{expression}\"" if expression else "tier: every test (no -m)"


def pytest_terminal_summary(terminalreporter, config):
    if NODE_LEFT:
        terminalreporter.write_line(f"FAILED: Node.js processes the tests left running: pids {NODE_LEFT}", red=True)
    if config.getoption("markexpr", "") == "not slow" and terminalreporter.stats.get("deselected"):
        terminalreporter.write_line(f"{_tier(config)} ({len(terminalreporter.stats['deselected'])} slow deselected)")


@pytest.hookimpl(trylast=True)  # after pytest's runner has torn the session's fixtures down (the browser's driver)
def pytest_sessionfinish(session):
    """Every Node process a test started is closed by the end of the session (tests/frontend.py closes its own
    drivers here): one still running fails the run, by its pids."""
    if "frontend" in sys.modules:
        sys.modules["frontend"].close_all()
    from frontend import node_children

    NODE_LEFT[:] = node_children()
    if NODE_LEFT:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


NODE_LEFT = []  # the pids pytest_sessionfinish found, said in the summary


def pytest_report_header(config):
    return [_tier(config), _hypothesis_header(config)]


def _hypothesis_header(config):
    if IN_CI:
        return "hypothesis: derandomized (CI is set): the same examples on every run"
    seed = config.getoption("hypothesis_seed", None)
    return f"hypothesis seed: {seed} (replay this run's examples: pytest --hypothesis-seed={seed})"


@pytest.fixture
def new_entries(monkeypatch):
    """A throwaway mask ("stripe": each token, and every `seed`-th one) added to the registry for one test, as the
    one entry and its words that a mask takes: the test then shows that every consumer picks it up. Its parameter is
    named `seed`, like an option of the figures command and an argument of random_example, on purpose."""
    stripe = masks.MaskKind("stripe", lambda p, j, T, seed: (j % seed == 0) | (p == j),
                            (masks.Param("seed", default=2, lo=1, hi_T=0),))
    monkeypatch.setitem(masks.MASKS, "stripe", stripe)
    monkeypatch.setattr(masks, "MASK_NAMES", (*masks.MASK_NAMES, "stripe"))
    entries = {"mask.stripe": ("줄무늬", "stripe"), "mask.stripe.caption": ("줄무늬 마스크입니다.", "A stripe mask."),
               "mask.stripe.used": ("시험용", "tests"), "param.stripe.seed": ("간격", "every")}
    for key, pair in entries.items():
        monkeypatch.setitem(words.WORDS, key, pair)
    monkeypatch.setattr(words, "table", functools.cache(words.table.__wrapped__))  # a cache of its own, undone after
    return stripe


@pytest.fixture(scope="session")
def notebook_runs():
    """{notebook path: its code cells' run} (tests/notebook_runs.py): each notebook's cells run once in the session,
    read by test_stored_figures (the figures they draw) and test_stored_state (the widgets they show)."""
    from notebook_runs import NotebookRuns

    return NotebookRuns()


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium (tests/servers.py's recipe), one for the whole session: every test opens its own pages (or
    context) in it and closes them. Skipped, saying why, where it is missing."""
    from servers import chromium, needs_chromium

    needs_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = chromium(p)
        yield b
        b.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """One JupyterLab server for the whole session (tests/servers.py's jupyter_lab), serving a scratch folder: a
    test writes its notebooks in a folder of its own under `lab.root` and opens them at `lab.url(path)`."""
    from servers import jupyter_lab, stop_kernels

    tmp = tmp_path_factory.mktemp("lab")
    root = tmp / "root"
    root.mkdir()
    with jupyter_lab(root, tmp) as (base, token):
        yield Lab(base, token, root, stop_kernels)


class Lab:
    def __init__(self, base, token, root, stop_kernels):
        self.base, self.token, self.root, self._stop = base, token, root, stop_kernels

    def url(self, path, app="lab"):  # -> the URL that opens notebook `path` (under root) in JupyterLab or Notebook 7
        if app == "lab":
            return f"{self.base}/lab/tree/{path}?reset&token={self.token}"
        return f"{self.base}/notebooks/{path}?token={self.token}"

    def stop_kernels(self):  # a test's notebooks are done: their kernels need not run on beside the next test's
        self._stop(self.base, self.token)
