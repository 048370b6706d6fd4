"""The explorer's state has one owner: every function of the page's state (state.js, url.js, controls.js) is either
page-only or the twin of a Python function, held to it by a named test; and the state's keys are one table.

- `TWINS` names, for each page function with a Python twin (same job, two codes), that twin and the test that holds
  the two to one rule on a table of cases; `PAGE_ONLY` says why each other one has none. The guard test parses the
  three files and fails on a function in neither table, and on an entry whose function, twin or test is gone.
- The twins not held elsewhere are held here, each on a catalogue of cases that includes wrong inputs, against a
  value written out and on both sides (the page's own bundle in Node.js): a typed whole number and a seed
  (wholeOf, seedOf), the reset (resetState), evaluateRules, a mask parameter's value (paramValue), a pick's index
  (pickIndex). Each check is shown to refuse a broken page and a broken Python side (`PAGE_BREAKS`,
  `PYTHON_BREAKS`), as test_live_rules.py's catalogue of broken interpreters does.
- `state.STATE` is the one table of a state's keys: initial_state, checked_state, the reset, the controls, url.js's
  links and the page's LOOK.live.state all read it, and a test fails if a key appears in one place only.
"""

import importlib
import json
import random
import re

import pytest
from frontend import ask, node_process
from test_figures_cli import TYPED_WHOLE
from test_live_rules import explorers, random_state

from attention_lab.live import controls, data, state
from attention_lab.live import page as pages
from attention_lab.live.views import LIMITS
from attention_lab.numeric import own_numbers
from attention_lab.numeric.masks import MASKS, Lengths, Param

FILES = ("state.js", "url.js", "controls.js")
# page function -> (its Python twin, "test file::the test that holds them")
RULES, PARITY, TWIN = "test_live_rules.py", "test_live_parity.py", "test_live_twins.py"
TWINS = {
    "evaluateRule": ("attention_lab.live.state.evaluate_rule",
                     f"{RULES}::test_each_operation_gives_the_written_value_on_both_sides"),
    "evaluateRules": ("attention_lab.live.state.evaluate_rules",
                      f"{TWIN}::test_evaluate_rules_is_one_rule_on_both_sides"),
    "divisors": ("attention_lab.numeric.checks.divisors",
                 f"{RULES}::test_each_operation_gives_the_written_value_on_both_sides"),  # the "divisors" operation
    "pickNumber": ("attention_lab.live.state.pick_number", f"{RULES}::test_a_picks_number_is_one_rule_on_both_sides"),
    "pickIndex": ("attention_lab.live.state.pick_index", f"{TWIN}::test_a_picks_index_is_one_rule_on_both_sides"),
    "paramValue": ("attention_lab.live.state.param_value",
                   f"{TWIN}::test_a_mask_parameters_value_is_one_rule_on_both_sides"),
    "maskParams": ("attention_lab.live.state.resolve",  # MASKS[name].params; "custom" has none: through resolve
                   f"{RULES}::test_python_and_the_page_resolve_list_and_move_every_state_alike"),
    "resolve": ("attention_lab.live.state.resolve",
                f"{RULES}::test_python_and_the_page_resolve_list_and_move_every_state_alike"),
    "moved": ("attention_lab.live.state.moved",
              f"{RULES}::test_python_and_the_page_resolve_list_and_move_every_state_alike"),
    "wholeOf": ("attention_lab.numeric.own_numbers.typed_whole",
                f"{TWIN}::test_a_typed_whole_number_and_a_seed_are_one_rule_on_both_sides"),
    "seedOf": ("attention_lab.live.state.seed_of",
               f"{TWIN}::test_a_typed_whole_number_and_a_seed_are_one_rule_on_both_sides"),
    "lengthsOf": ("attention_lab.numeric.own_numbers.typed_lengths",
                  f"{TWIN}::test_a_links_lengths_are_read_as_the_mask_option_reads_them"),
    "resetState": ("attention_lab.live.state.reset_state", f"{TWIN}::test_the_reset_is_one_rule_on_both_sides"),
    "rowPieces": ("attention_lab.live.state.row_pieces",
                  f"{PARITY}::test_fuzz_typed_rows_read_as_meant_and_the_same_on_both_sides"),
    "parseRow": ("attention_lab.live.state.parse_row", f"{PARITY}::test_a_typed_row_reads_the_same_on_both_sides"),
    "offeredMasks": ("attention_lab.live.state.offered_masks",  # the mask control's choices
                     f"{RULES}::test_python_and_the_page_resolve_list_and_move_every_state_alike"),
    "optionsOf": ("attention_lab.live.controls._options",
                  f"{RULES}::test_python_and_the_page_resolve_list_and_move_every_state_alike"),
    "controlContext": ("attention_lab.live.controls.control_context",
                       f"{RULES}::test_python_and_the_page_resolve_list_and_move_every_state_alike"),
    "controlSpecs": ("attention_lab.live.controls.control_specs",
                     f"{RULES}::test_python_and_the_page_resolve_list_and_move_every_state_alike"),
    "paramSpecs": ("attention_lab.live.controls._param_specs",
                   f"{RULES}::test_python_and_the_page_resolve_list_and_move_every_state_alike"),
    "optionKey": ("attention_lab.live.controls.param_option_key",  # the <option value> Python expects on screen
                  f"{PARITY}::test_the_page_shows_what_python_computes"),
}
PAGE_ONLY = {  # page function -> why it has no Python twin
    "viewInfo": "a lookup over the view Python sends (views.view_data), which Python reads as the View itself",
    "specsOf": "a link's controls: Python reads and writes no link (a standalone page's address)",
    "choiceKeys": "how a link names a choice: no link in Python",
    "linkKey": "how a link writes a value: no link in Python",
    "linkValue": "how a link's value is read: no link in Python (its numbers by wholeOf and seedOf, held above)",
    "linkEntries": "a link's keys: no link in Python",
    "readLink": "a link read against the page: no link in Python",
    "linkOf": "the page's own link: no link in Python",
    "followLink": "the address and history of a standalone page: the DOM's",
    "linkable": "which controls a link holds: LOOK.live.state's keys (state.STATE), data",
    "Controls": "the form elements on the page: the DOM's (Python's handle is controls.Control)",
}
# also twins, but tables of functions, not functions: state.js RULE_OPERATIONS, each held to a written value by
# test_live_rules.py's OPERATION_CASES (test_every_operation_is_held_to_a_written_value fails on a new one)
TOP_LEVEL = re.compile(r"^(?:function\s+(\w+)|const\s+(\w+)\s*=\s*(?:\([^()]*\)|\w+)\s*=>|class\s+(\w+))", re.M)


def page_functions():  # -> {name: file}: every top-level function (and class) of the page's state code
    found = {}
    for file in FILES:
        for match in TOP_LEVEL.finditer((pages.HERE / file).read_text(encoding="utf-8")):
            found[next(g for g in match.groups() if g)] = file
    return found


def unheld(found, twins, page_only):  # -> [what is wrong]: a function in neither table, an entry gone, a twin or test
    tests, problems = pages.HERE.parents[1] / "tests", []
    problems += [f"{name}: a function with a Python twin goes in TWINS with the test that holds the two; one without, "
                 "in PAGE_ONLY with why" for name in sorted(set(found) - set(twins) - set(page_only))]
    problems += [f"{name}: no such function in {', '.join(FILES)} any more; take it out of TWINS or PAGE_ONLY"
                 for name in sorted((set(twins) | set(page_only)) - set(found))]
    problems += [f"{name}: in both tables" for name in sorted(set(twins) & set(page_only))]
    for name, (twin, held_by) in twins.items():
        module, _, attr = twin.rpartition(".")
        if not callable(getattr(importlib.import_module(module), attr, None)):
            problems.append(f"{name}: no Python twin {twin}")
        file, _, test = held_by.partition("::")
        if not re.search(rf"^def {test}\(", (tests / file).read_text(encoding="utf-8"), re.M):
            problems.append(f"{name}: no test {held_by}")
    return problems


def test_every_page_function_of_the_state_is_a_held_twin_or_page_only():
    found = page_functions()
    assert {"resolve", "wholeOf", "linkOf", "controlSpecs", "Controls", "divisors"} <= set(found)  # the regex reads
    assert unheld(found, TWINS, PAGE_ONLY) == []


def test_the_guard_refuses_a_new_function_a_gone_one_and_a_twin_or_test_that_is_not_there():
    found, twins = page_functions(), dict(TWINS)
    assert [p.split(":")[0] for p in unheld({**found, "newTwin": "state.js"}, twins, PAGE_ONLY)] == ["newTwin"]
    assert [p.split(":")[0] for p in unheld({k: v for k, v in found.items() if k != "seedOf"}, twins,
                                            PAGE_ONLY)] == ["seedOf"]
    wrong = {**twins, "seedOf": ("attention_lab.live.state.seed_off", twins["seedOf"][1]),
             "wholeOf": (twins["wholeOf"][0], f"{TWIN}::test_no_such_test")}
    assert set(unheld(found, wrong, PAGE_ONLY)) == {"seedOf: no Python twin attention_lab.live.state.seed_off",
                                                    f"wholeOf: no test {TWIN}::test_no_such_test"}
    assert unheld(found, twins, {**PAGE_ONLY, "resolve": "…"}) == ["resolve: in both tables"]


# ---- the twins held here: each on a catalogue of cases, against a written value, on both sides --------------------

DRIVER = r"""
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  let out;
  try {
    const q = JSON.parse(line);
    out = { value: q.cases.map((args) => { try { return { value: eval(q.fn)(...args) }; }
      catch (e) { return { error: String(e && e.message || e) }; } }) };
  } catch (e) { out = { error: String(e && e.message || e) }; }
  process.stdout.write(JSON.stringify(out) + "\n");
});
"""


def page_calls(fn, cases, js=None):  # -> [{"value": …} or {"error": …}]: the page's `fn` on each case's arguments
    js = js or pages.bundle.__wrapped__()[0]
    out = ask(node_process(js, DRIVER), {"fn": fn, "cases": cases})
    assert "error" not in out, out
    return out["value"]


def python_calls(fn, cases):  # -> the same for a Python function: its value as JSON carries it, or its error
    out = []
    for args in cases:
        try:
            out.append({"value": json.loads(json.dumps(fn(*args)))})
        except (KeyError, TypeError, ValueError) as error:
            out.append({"error": repr(error)})
    return out


REFUSED = "refused"  # a written value: both sides refuse (raise)


def differences(cases, python, page, written):  # -> [(case, python's, the page's, the written value)]
    wrong = []
    for args, py, js, value in zip(cases, python, page, written, strict=True):
        ok = ("error" in py and "error" in js) if value == REFUSED else py == js == {"value": value}
        if not ok:
            wrong.append((args, py, js, value))
    return wrong


# A typed whole number (own_numbers.typed_whole, state.js wholeOf) and the seed box's rule (state.seed_of, seedOf):
# the commands' table, the ends Python strips and JavaScript's trim() does not (and the reverse), seeds at the bounds.
TYPED = [*TYPED_WHOLE, ("\ufeff3", None), ("3\ufeff", None), ("\u200b3", None), ("\x1c3", 3), ("\x853", 3),
         ("\u20033\u2003", 3), ("\u00a0 7\t", 7), ("\t-0\n", 0), ("－０", 0), ("0", 0), ("007", 7), ("+0", 0),
         ("1000000", 10**6), ("1000001", 1000001), ("-1", -1), ("9" * 25, int("9" * 25)), ("   ", None), ("+", None),
         ("-", None), ("++1", None), ("1-", None), ("３ ４", None), ("1e3", None), ("٣", None), ("1,000", None)]


def check_typed(js=None):  # -> the differences of both rules on TYPED
    cases = [[text] for text, _ in TYPED]
    as_double = [{"value": None if r["value"] is None else float(r["value"])} if "value" in r else r for r in
                 python_calls(lambda t: own_numbers.typed_whole(t), cases)]  # the page's is a double
    page = [{"value": None if r.get("value") is None else float(r["value"])} if "value" in r else r for r in
            page_calls("wholeOf", cases, js)]
    seeds = [v if v is not None and 0 <= v <= 10**6 else None for _, v in TYPED]
    return (differences(cases, as_double, page, [None if v is None else float(v) for _, v in TYPED])
            + differences(cases, python_calls(lambda t: state.seed_of(t), cases), page_calls("seedOf", cases, js),
                          seeds))


@pytest.mark.slow  # Node.js
def test_a_typed_whole_number_and_a_seed_are_one_rule_on_both_sides():
    assert check_typed() == []
    assert state.STATE["seed"]["range"] == (0, 10**6)  # the written seeds' bounds


# A mask's lengths as a link gives them (url.js lengthsOf) and as --mask packed:lengths=… does (typed_lengths).
LENGTHS = [("3+3", [3, 3]), ("３＋３", [3, 3]), (" 3 + 3 ", [3, 3]), ("\u30003+3", [3, 3]), ("２+２＋2", [2, 2, 2]),
           ("6", [6]), ("3+", None), ("+3", None), ("3++3", None), ("3.0+3", None), ("٣+3", None), ("", None),
           ("3 3", None), ("3,3", None), ("3-3", None)]


def check_lengths(js=None):
    cases = [[text] for text, _ in LENGTHS]
    python = [{"value": None if r["value"] is None else "+".join(map(str, r["value"]))} for r in
              python_calls(lambda t: own_numbers.typed_lengths(t), cases)]
    return differences(cases, python, page_calls("lengthsOf", cases, js),
                       [None if v is None else "+".join(map(str, v)) for _, v in LENGTHS])


@pytest.mark.slow  # Node.js
def test_a_links_lengths_are_read_as_the_mask_option_reads_them():
    """#mask=packed:lengths=３＋３ was refused ("３＋３" is no choice's key) while --mask packed:lengths=３＋３ read
    3+3: a link takes what the option takes, where the page offers it (lengths summing to T)."""
    from test_live_rules import page_side

    import attention_lab as al
    from attention_lab.figures.options import parse_mask

    assert check_lengths() == []
    ex = al.explorer(view="masks", T=6)
    for text, means in LENGTHS:
        read = page_side()({"ask": "link", "config": ex.page_config(), "hash": f"#mask=packed:lengths={text}"})
        taken = read["value"]["state"]["packed.lengths"] if not read["value"]["problems"] else None
        assert taken == (means if means is not None and sum(means) == 6 else None), (text, read)
        if means is not None:
            assert parse_mask(f"packed:lengths={text}", "bottom-right").params == (("lengths", tuple(means)),)


# evaluateRules: each rule sees the ones before it, in order, and the context; a rule naming what is not there fails.
RULES_CASES = [  # (rules, context, the context after, or None: refused)
    ({"a": ["+", "x", 1], "b": ["+", "a", "a"], "x": ["-", "b", 1]}, {"x": 2}, {"x": 5, "a": 3, "b": 6}),
    ({}, {"x": 1}, {"x": 1}),
    ({"T": "asked.T", "T_q": ["min", "asked.q", "T"]}, {"asked": {"T": 4, "q": 9}},
     {"asked": {"T": 4, "q": 9}, "T": 4, "T_q": 4}),
    ({"b": "a", "a": 1}, {}, None), ({"a": "x.y"}, {"x": 3}, None), ({"a": ["nope", 1]}, {}, None),
]


def check_rules(js=None):
    cases = [[rules, context] for rules, context, _ in RULES_CASES]
    python = python_calls(lambda r, c: state.evaluate_rules(r, c), cases)
    return differences(cases, python, page_calls("evaluateRules", cases, js),
                       [REFUSED if after is None else after for *_, after in RULES_CASES])


@pytest.mark.slow  # Node.js
def test_evaluate_rules_is_one_rule_on_both_sides():
    assert check_rules() == []


def param_cases():  # -> [[param data, wanted, T]] for every parameter of the registry, and the value written out
    cases, written = [], []
    for kind in MASKS.values():
        for p in kind.params:
            for T in (1, 2, 3, 6, LIMITS["T"][1]):
                if isinstance(p, Param):
                    hi = max(p.lo, T + p.hi_T)
                    for wanted in (None, p.lo - 1, p.lo, p.default, hi, hi + 1, 10**6):
                        cases.append([state.param_data(p), wanted, T])
                        written.append(min(max(p.default if wanted is None else wanted, p.lo), hi))
                elif isinstance(p, Lengths):
                    for wanted in (None, [T], [T + 1], [1] * (p.most_parts + 1), list(p.default_for(T)), 3,
                                   [T - 1, 1] if T > 1 else [1]):
                        fits = isinstance(wanted, list) and sum(wanted) == T and len(wanted) <= p.most_parts
                        cases.append([state.param_data(p), wanted, T])
                        written.append(wanted if fits else list(p.default_for(T)))
    return cases, written


def check_params(js=None):
    cases, written = param_cases()
    by_data = {json.dumps(state.param_data(p)): p for kind in MASKS.values() for p in kind.params}
    python = python_calls(lambda p, wanted, T: state.param_value(by_data[json.dumps(p)], wanted, T), cases)
    return differences(cases, python, page_calls("paramValue", cases, js), written)


@pytest.mark.slow  # Node.js
def test_a_mask_parameters_value_is_one_rule_on_both_sides():
    assert {p.name for kind in MASKS.values() for p in kind.params} <= {c[0]["name"] for c in param_cases()[0]}
    assert check_params() == []


# A pick's shown number back to its index (the numbers themselves: test_live_rules); wrong numbers name none.
CONTEXT = {"first_query": 3, "asked": {"edit_matrix": "Q"}}
PICK_CASES = [  # (name, shown number, context, index)
    ("head", "all", {}, -1), ("key", "all", {}, None), ("query", "all", CONTEXT, None), ("head", 1, {}, 0),
    ("head", 3, {}, 2), ("query", 3, CONTEXT, 0), ("row", 5, CONTEXT, 2), ("key", 1, CONTEXT, 0),
    ("edit_token", 4, CONTEXT, 1), ("edit_token", 4, {**CONTEXT, "asked": {"edit_matrix": "K"}}, 3),
    ("query", 1, CONTEXT, -2), ("head", "1", {}, None), ("head", 2.5, {}, None), ("head", True, {}, None),
    ("head", None, {}, None), ("key", [1], CONTEXT, None),
]


def check_picks(js=None):
    cases = [[name, number, context] for name, number, context, _ in PICK_CASES]
    python = python_calls(lambda n, number, c: state.pick_index(n, number, c), cases)
    return differences(cases, python, page_calls("pickIndex", cases, js), [i for *_, i in PICK_CASES])


@pytest.mark.slow  # Node.js
def test_a_picks_index_is_one_rule_on_both_sides():
    assert check_picks() == []


def reset_table():  # -> [(explorer, state, the state ↺ gives, written out)] over every view, own numbers, a seed
    table = []
    for n, ex in enumerate(explorers()):
        rng = random.Random(n)
        for s in [dict(ex.state)] + [random_state(rng, ex) for _ in range(3)]:
            offered = [v for _, v in ex.controls["mask"].options] if "mask" in ex.controls else [ex.state["mask"]]
            article = {"source": "article", "T": 3, "h": 2, "dh": 4, "kv_heads": None, "queries": None,
                       "align": "bottom-right", "head": 0, "query": 2, "key": 0, "row": 2,
                       "mask": "causal" if "causal" in offered else ex.state["mask"]}
            table.append((ex, s, s if ex._own is not None else {**s, **article}))
    return table


def check_reset(js=None, table=None):
    table = table or reset_table()
    cases = [[s, ex.config["reset"]] for ex, s, _ in table]
    python = []
    for ex, s, _ in table:
        ex._take(s)
        ex.controls["reset"].click() if "reset" in ex.controls else ex._take(state.reset_state(s, ex.config["reset"]))
        python.append({"value": json.loads(json.dumps(ex.state))})
    return differences(cases, python, page_calls("resetState", cases, js), [after for *_, after in table])


@pytest.mark.slow  # Node.js
def test_the_reset_is_one_rule_on_both_sides():
    table = reset_table()
    assert sum(ex._own is not None for ex, _, _ in table) >= 8 and len(table) > 80
    assert check_reset(table=table) == []


# ---- what each check must refuse ------------------------------------------------------------------------------------

CHECKS = {"typed": check_typed, "lengths": check_lengths, "rules": check_rules, "params": check_params,
          "picks": check_picks, "reset": check_reset}
PAGE_BREAKS = {  # a page whose twin reads otherwise: (the check, text of the bundle, its replacement)
    "wholeOf trims as trim() does": ("typed", 'const whole = t.slice(a, b).join("");',
                                     'const whole = t.join("").trim();'),
    "seedOf refuses the seed 0": ("typed", "n >= lo && n <= hi ? n : null", "n > lo && n <= hi ? n : null"),
    "lengthsOf reads no full-width digit": ("lengths", 'Array.from(String(raw), (c) => GRAMMAR.readAs[c] ?? c).join("")'
                                            '.split("+")', 'String(raw).split("+")'),
    "evaluateRules reads the context only": ("rules", "out[name] = evaluateRule(x, out);",
                                             "out[name] = evaluateRule(x, context);"),
    "paramValue at the largest T": ("params", "{ p, wanted: wanted ?? null, T }",
                                    "{ p, wanted: wanted ?? null, T: 16 }"),
    "pickIndex takes any number": ("picks", "Number.isInteger(number) ? number",
                                   'typeof number === "number" ? number'),
    "resetState keeps the state over the reset": ("reset", "return { ...state, ...reset };",
                                                  "return { ...reset, ...state };"),
}


@pytest.mark.slow  # Node.js
@pytest.mark.parametrize("broken", PAGE_BREAKS)
def test_a_page_whose_twin_reads_otherwise_is_refused(broken):
    check, before, after = PAGE_BREAKS[broken]
    js = pages.bundle.__wrapped__()[0]
    assert js.count(before) == 1, f"the break {broken!r} no longer applies: its text is gone from the bundle"
    assert CHECKS[check](js.replace(before, after)), broken


def _old_seed_rule(text):  # the widget's seed rule before: str.isdigit and int(), which read "٣" as 3
    return int(text) if str(text).strip().isdigit() else None


PARAM_VALUE = state.param_value  # the real one, for the break that calls it
PYTHON_BREAKS = {  # a Python twin that reads otherwise: (the check, module, name, its replacement)
    "typed_whole with int() and str.isdigit": ("typed", own_numbers, "typed_whole", _old_seed_rule),
    "seed_of without the upper bound": ("typed", state, "seed_of", lambda t: own_numbers.typed_whole(t)),
    "typed_lengths split before it folds": ("lengths", own_numbers, "typed_lengths", lambda t: None if None in (
        n := [own_numbers.typed_whole(p) for p in str(t).split("+")]) else n),
    "evaluate_rules on the context only": ("rules", state, "evaluate_rules",
                                           lambda rules, c: {**c, **{n: state.evaluate_rule(x, c)
                                                                     for n, x in rules.items()}}),
    "param_value one token short": ("params", state, "param_value",
                                    lambda p, wanted, T: PARAM_VALUE(p, wanted, max(T - 1, 1))),
    "pick_index reads True as 1": ("picks", state, "pick_index", lambda n, number, c: (-1 if n == "head" else None)
                                   if number == "all" else number - state.evaluate_rule(state.NUMBERED[n], c)
                                   if isinstance(number, int) else None),  # state.py's rule before
    "reset_state keeps the state": ("reset", state, "reset_state", lambda s, reset: s),
}


@pytest.mark.slow  # Node.js
@pytest.mark.parametrize("broken", PYTHON_BREAKS)
def test_a_python_twin_that_reads_otherwise_is_refused(broken, monkeypatch):
    check, module, name, replacement = PYTHON_BREAKS[broken]
    monkeypatch.setattr(module, name, replacement)
    if module is state and name == "reset_state":
        from attention_lab.live import widget

        monkeypatch.setattr(widget, "reset_state", replacement)
    assert CHECKS[check](), broken


# ---- the state's keys: one table ------------------------------------------------------------------------------------

def test_the_state_has_the_keys_of_state_STATE_everywhere():
    """initial_state starts with STATE's keys (then each offered mask's parameters), in its order; checked_state
    refuses any other and checks every one (a wrong value of each kind is refused); the reset sets only keys of
    STATE; every key is a control's (the page can set it) and every control that holds a value is a key or its
    page's own (a button, the row editor's text, the learned model's input); the page gets the same keys."""
    page_own = {"reset", "apply", "edit_row", "tokens"}  # a button's press, the row editor's text, the input
    for ex in explorers():
        assert list(ex.state)[:len(state.STATE)] == list(state.STATE)
        assert set(ex.state) <= set(state.state_keys()) and set(ex.config["reset"]) <= set(state.STATE)
        names = {c["name"] for c in controls.CONTROLS if c["type"] != "params"} | set(state.param_names(MASKS))
        assert set(state.state_keys()) == names - page_own
        for name, key in state.STATE.items():
            wrong = {"choice": "no such choice", "bool": 1, "whole": 2.0, "whole or None": "3"}[key["kind"]]
            if name == "compare" and not ex.view.compared:
                continue
            with pytest.raises(ValueError, match=f"^{name}:"):
                state.checked_state({name: wrong}, ex.view, ex._base)
            if key["kind"].startswith("whole"):
                with pytest.raises(ValueError, match=f"^{name}:"):
                    state.checked_state({name: key["range"][1] + 1}, ex.view, ex._base)
        with pytest.raises(ValueError, match="unknown entries"):
            state.checked_state({"zz": 1}, ex.view, ex._base)
    live = json.loads(json.dumps(data.look_data()["live"]["state"]))  # as the page gets it
    assert list(live) == state.state_keys()
    assert {k: v for k, v in live.items() if k in state.STATE} == json.loads(json.dumps(state.STATE))


def test_a_key_in_one_place_only_is_refused(monkeypatch):
    # a key STATE lists and no control sets, and a control's value no key of STATE holds
    monkeypatch.setitem(state.STATE, "zoom", {"kind": "bool", "default": False, "reset": False})
    with pytest.raises(AssertionError):
        test_the_state_has_the_keys_of_state_STATE_everywhere()
    monkeypatch.delitem(state.STATE, "zoom")
    entry = {**controls._control("picks", "zoom", "check"), "label": "marks"}  # its words: the marks'
    monkeypatch.setattr(controls, "CONTROLS", [*controls.CONTROLS, entry])
    with pytest.raises(AssertionError):
        test_the_state_has_the_keys_of_state_STATE_everywhere()
