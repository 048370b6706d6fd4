"""The explorer's controls and the fitting of a state to its sizes are one table each (live/state.py: RESOLVE, PARAMS,
MOVES; live/controls.py: CONTROLS), read by an interpreter in Python and one in the page's JavaScript.

Each operation of the rules' language is held, on both sides, to a value written out by hand; then one table of
states (the article's, random and seeded examples, every view, both languages, every mask, your own numbers) is
resolved, listed as controls and moved by Python and by the page's own bundle in Node.js, and both must give the
same. A catalogue of broken interpreters and tables (a page that skips an entry, an operation written differently, a
rule sent wrong) must each be refused.
"""

import functools
import json
import random

import numpy as np
import pytest
from frontend import ask, node_process

import attention_lab as al
from attention_lab.live import controls, data, state, views
from attention_lab.live import page as pages
from attention_lab.live.controls import control_specs
from attention_lab.live.state import RULE_OPERATIONS, evaluate_rule, moved, param_names, resolve
from attention_lab.live.views import LIMITS, VIEWS
from attention_lab.numeric.limits import SEED_CONTROL
from attention_lab.numeric.masks import ALIGNS, MASKS, Lengths, Param

DRIVER = r"""
function pageParts(config) {  // what explorer.js holds for a config: the view, the data, the words, the state
  return { view: viewInfo(config.view), data: config.data, L: LOOK.words[config.lang], state: config.state };
}
const ASKED = {
  evaluate: (q) => evaluateRule(q.x, q.context),
  resolve: (q) => { const ex = pageParts(q.config); return resolve(ex.state, ex.view, ex.data); },
  controls: (q) => {
    const ex = pageParts(q.config);
    ex.resolved = resolve(ex.state, ex.view, ex.data);
    return controlSpecs(ex);
  },
  moved: (q) => {
    const ex = pageParts(q.config);
    return moved(ex.state, q.name, q.value, resolve(ex.state, ex.view, ex.data));
  },
  numbers: (q) => {  // each numbered control's choices: [name, [[index, its number, the index that number names]]]
    const ex = pageParts(q.config);
    ex.resolved = resolve(ex.state, ex.view, ex.data);
    const context = controlContext(ex);
    return controlSpecs(ex).filter((c) => c.name in LOOK.live.numbered).map((c) => [c.name, c.options.map(([v]) =>
      [v, pickNumber(c.name, v, context), pickIndex(c.name, pickNumber(c.name, v, context), context)])]);
  },
  link: (q) => {  // a link read on the page (url.js readLink), and the page's own link of a state (linkOf)
    const ex = { ...pageParts(q.config), lang: q.config.lang }, start = q.config.state;
    const read = readLink(q.hash, ex, start, { start: 1, lo: 1, hi: 3 });
    return { state: read.state, problems: read.problems,
      link: q.state ? linkOf(ex, q.state, start, { scale: 1, startScale: 1, input: undefined }) : null };
  },
};
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  let out;
  try {
    const q = JSON.parse(line);
    out = { value: ASKED[q.ask](q) };
  } catch (e) { out = { error: String(e && e.message || e) }; }
  process.stdout.write(JSON.stringify(out) + "\n");
});
"""
def page_side(js=None):  # -> ask(question) -> the page's answer, from the bundle `js` (now's, if None) in Node.js
    js = js or pages.bundle.__wrapped__()[0]
    return lambda question: ask(node_process(js, DRIVER), question)  # started again if closed meanwhile


def plain(x):  # tuples as lists, as JSON carries them
    return json.loads(json.dumps(x))


# ---- each operation once, against a value written out ------------------------------------------------------------

OPERATION_CASES = [  # (expression, context, value)
    (["+", 2, 3], {}, 5), (["-", "T", 1], {"T": 4}, 3), (["//", 7, 2], {}, 3), (["//", "a", "b"], {"a": 9, "b": 3}, 3),
    (["==", "x", None], {"x": None}, True), (["==", 1, 2], {}, False), (["!=", "'a'", "'b'"], {}, True),
    ([">", 2, 1], {}, True), ([">", 1, 1], {}, False), (["<=", 3, 3], {}, True), (["<=", 4, 3], {}, False),
    (["not", False], {}, True), (["min", 5, 2, 9], {}, 2), (["max", 5, 2, 9], {}, 9),
    (["clamp", 9, 0, 3], {}, 3), (["clamp", -4, 0, 3], {}, 0), (["clamp", 2, 0, 3], {}, 2), (["clamp", 5, 3, 1], {}, 1),
    (["??", None, 4], {}, 4), (["??", 0, 4], {}, 0),
    (["divisor", 3, 8], {}, 2), (["divisor", 4, 6], {}, 3), (["divisor", None, 6], {}, 6), (["divisor", 1, 7], {}, 1),
    (["divisors", 12], {}, [1, 2, 3, 4, 6, 12]), (["has", ["list", "'a'", "'b'"], "'b'"], {}, True),
    (["has", "xs", "'c'"], {"xs": ["a", "b"]}, False), (["len", "xs"], {"xs": [1, 2, 3]}, 3),
    (["sum", "xs"], {"xs": [3, 2, 4]}, 9), (["list", 1, "'x'", None], {}, [1, "x", None]),
    (["nonzero", ["list", 2, 0, 1]], {}, [2, 1]), (["isList", "xs"], {"xs": [1]}, True),
    (["isList", "x"], {"x": 3}, False), (["isList", "x"], {"x": None}, False),
    # "?" and "and" read only what they need: the branch not taken may name what the context has not
    (["?", "mine", "own.T", 5], {"mine": False}, 5), (["?", "mine", "own.T", 5], {"mine": True, "own": {"T": 2}}, 2),
    (["and", "mine", "own.T"], {"mine": False}, False), (["and", True, ["==", 1, 1]], {}, True),
    ("asked.T", {"asked": {"T": 7}}, 7), ("'bottom-right'", {}, "bottom-right"), (None, {}, None), (3, {}, 3),
]


def test_every_operation_is_held_to_a_written_value():
    ops = {x[0] for x, _, _ in OPERATION_CASES if isinstance(x, list)}
    assert ops == {*RULE_OPERATIONS, "?", "and"}  # a new operation needs its cases here


@pytest.mark.parametrize(("x", "context", "value"), OPERATION_CASES, ids=lambda v: json.dumps(v)[:40])
def test_each_operation_gives_the_written_value_on_both_sides(x, context, value):
    assert plain(evaluate_rule(x, context)) == value
    assert page_side()({"ask": "evaluate", "x": x, "context": context}) == {"value": value}


# ---- one table of states: resolved, listed and moved on both sides ------------------------------------------------

def random_state(rng, ex):  # -> a state the page's controls can reach, with asked-for values beyond what sizes allow
    s = dict(ex.state)
    offered = [v for _, v in ex.controls["mask"].options] if "mask" in ex.controls else []
    if ex._own is None:
        s.update(T=rng.randint(*LIMITS["T"]), h=rng.randint(*LIMITS["h"]), dh=rng.randint(*LIMITS["dh"]),
                 kv_heads=rng.choice([None, rng.randint(1, 8)]), queries=rng.choice([None, rng.randint(1, 16)]),
                 source=rng.choice(["article", "random"]), seed=rng.choice([0, 7, rng.randint(*SEED_CONTROL)]))
    s["align"] = rng.choice(ALIGNS)
    if offered:
        s["mask"] = rng.choice(offered)
    for name, p in param_names(offered).items():
        if isinstance(p, Param):
            s[name] = rng.randint(p.lo, max(p.lo, 16 + p.hi_T))
        elif isinstance(p, Lengths):
            T = rng.randint(1, 16)
            s[name] = rng.choice([None, list(rng.choice(p.values(T)))])
    s.update(head=rng.randint(-1, 7), query=rng.randint(0, 15), key=rng.randint(0, 15), row=rng.randint(0, 15),
             marks=rng.random() < 0.5)
    if ex.view.compared:
        s["compare"] = rng.choice(ex.view.compared)
    if ex._own is not None:
        s.update(edit_matrix=rng.choice("QKV"), edit_token=rng.randint(0, 15))
    return s


def explorers():  # -> every view in both languages, a seeded example, your own numbers (with an array mask), learned
    made = [al.explorer(view=view, lang=lang) for view in VIEWS for lang in ("en", "ko")]
    made.append(al.explorer(view="all", source="random", seed=11, T=6, h=4, dh=2, kv_heads=2, queries=4))
    rng = np.random.default_rng(0)
    Q, K, V = (rng.integers(-2, 3, (n, 8)).astype(float) for n in (3, 5, 5))
    made.append(al.explorer(Q=Q, K=K[:, :4], V=V[:, :4], h=4, kv_heads=2, view="all", lang="ko"))  # dh = 2, g = 2
    made.append(al.explorer(Q=Q, K=K, V=V, h=2, mask=rng.random((3, 5)) < 0.6, view="queries"))
    made.append(al.explorer(Q=Q, K=K, V=V, h=1, mask=al.Mask("packed", lengths=(2, 3)), view="masks"))
    return made


def state_table(states_each=12):  # -> [(explorer, its page config, state)]: each explorer's own state and random ones
    table = []
    for n, ex in enumerate(explorers()):
        rng, config = random.Random(n), ex.page_config()
        table += [(ex, config, dict(ex.state))] + [(ex, config, random_state(rng, ex)) for _ in range(states_each)]
    return table


def as_page_resolves(resolved):  # -> Python's Resolved in the page's terms (the mask's name and its parameters)
    mask = resolved.mask
    params = dict(mask.params)
    return plain({"source": resolved.source, "seed": resolved.seed, "T": resolved.T, "T_q": resolved.T_q,
                  "h": resolved.h, "dh": resolved.dh, "g": resolved.g, "d": resolved.d, "mask": mask.name,
                  "params": [params[p.name] for p in MASKS[mask.name].params], "align": mask.align,
                  "head": resolved.head, "compare": resolved.compare, "query": resolved.query, "key": resolved.key,
                  "row": resolved.row, "marks": resolved.marks, "firstQuery": resolved.first_query})


def moves_of(ex, s, resolved):  # -> [(name, value)]: moves of the state's controls, the linked ones among them
    out = [("seed", 5), ("T", 7), ("head", -1), ("query", 0)]
    if ex._own is None:
        out += [("kv_heads", resolved.h), ("kv_heads", 1), ("queries", resolved.T), ("queries", 1)]
    return out


def disagreements(ask, table):  # -> [(what, state, python's, the page's)] where the two sides differ
    wrong = []
    for ex, config, s in table:
        config = {**config, "state": s}
        r = resolve(s, ex.view, ex._own)
        answers = {"resolve": as_page_resolves(r), "controls": plain(control_specs(ex.view, s, r, ex.lang, ex._own))}
        for what, python in answers.items():
            page = ask({"ask": what, "config": config})
            if page != {"value": python}:
                wrong.append((what, s, python, page))
        for name, value in moves_of(ex, s, r):
            page = ask({"ask": "moved", "config": config, "name": name, "value": value})
            if page != {"value": plain(moved(s, name, value, r))}:
                wrong.append((f"moved {name}={value}", s, plain(moved(s, name, value, r)), page))
    return wrong


@pytest.fixture(scope="module")
def table():
    return state_table()


def test_python_and_the_page_resolve_list_and_move_every_state_alike(table):
    assert len(table) > 300
    wrong = disagreements(page_side(), table)
    assert not wrong, wrong[:2]


def test_the_states_resolve_as_their_sizes_allow(table):  # against the rules written out plainly
    seen = set()
    for ex, _, s in table:
        r = resolve(s, ex.view, ex._own)
        if ex._own is None:
            asked = s["kv_heads"] or s["h"]
            assert r.g == max(g for g in range(1, r.h + 1) if r.h % g == 0 and g <= asked), s
            assert r.T_q == (min(s["queries"] or r.T, r.T) if ex.view.queries else r.T), s
        assert r.head == (-1 if s["head"] == -1 and r.h > 1 else min(max(s["head"], 0), r.h - 1)), s
        assert (r.query, r.key, r.row) == (min(s["query"], r.T_q - 1), min(s["key"], r.T - 1),
                                          min(s["row"], r.T_q - 1)), s
        for p in MASKS[r.mask.name].params:
            value = dict(r.mask.params)[p.name]
            if isinstance(p, Lengths):
                assert sum(value) == r.T and len(value) <= p.most_parts, s
            else:
                assert p.lo <= value <= max(p.lo, r.T + p.hi_T), s
        seen |= {(r.mask.name, r.head == -1, r.T_q < r.T, r.g < r.h)}
    assert {m for m, *_ in seen} >= {*MASKS} and {x for _, *rest in seen for x in rest} == {True, False}


@pytest.mark.parametrize("name", [n for n, kind in MASKS.items() for p in kind.params if isinstance(p, Lengths)])
def test_lengths_not_asked_for_or_not_fitting_t_fall_back_to_the_masks_own_default(name):
    [p] = MASKS[name].params
    for T in range(1, LIMITS["T"][1] + 1):  # masks.Lengths.default_for: T = 6 -> (3, 3), T = 3 -> (2, 1), T = 1 -> (1,)
        for wanted in (None, [T + 1], [1] * (p.most_parts + 1)):
            assert state.param_value(p, wanted, T) == p.default_for(T), (T, wanted)
        assert state.param_value(p, [T], T) == (T,)


def test_the_table_of_states_asks_every_control_and_link():
    table = state_table(states_each=2)
    names = {c["name"] for ex, _, s in table for c in control_specs(ex.view, s, resolve(s, ex.view, ex._own), ex.lang,
                                                                ex._own)}
    assert {c["name"] for c in controls.CONTROLS if c["type"] != "params"} - {"tokens"} <= names
    assert set(param_names(MASKS)) <= names


def test_a_learned_model_lists_its_input_box_on_both_sides():
    from attention_lab.live.learned import learned_explorer

    ex = learned_explorer(lang="en")
    wrong = disagreements(page_side(), [(ex, ex.page_config(), dict(ex.state))])
    assert not wrong, wrong[:1]
    assert control_specs(ex.view, ex.state, resolve(ex.state, ex.view, ex._own), "en", ex._own)[0]["name"] == "tokens"


# ---- what the two-sided test must refuse ----------------------------------------------------------------------------

BREAK_TABLE = functools.cache(lambda: state_table(states_each=4))  # a smaller table for the breaks
PAGE_BREAKS = {  # a change to the page's bundle: (what it is, text, its replacement)
    "skips an entry of the controls": ("for (const c of LOOK.live.controls) {",
                                       'for (const c of LOOK.live.controls.filter((c) => c.name !== "kv_heads")) {'),
    "skips the links of moved": ("for (const link of LOOK.live.moves) {", "for (const link of []) {"),
    "gets the row's rule sent wrong": ('"row":["min","asked.row",["-","T_q",1]]',
                                       '"row":["min","asked.row",["-","T",1]]'),
    "picks the smallest divisor above": ("Math.max(...divisors(n).filter((g) => g <= x))",
                                         "Math.min(...divisors(n).filter((g) => g >= x))"),
    "reads ?? as ||": ('"??": (x, otherwise) => x ?? otherwise', '"??": (x, otherwise) => x || otherwise'),
    "shows every mask's parameters": ("visible: m === context.mask", "visible: true"),
    "forgets the alignment of the view": ("view: { queries: view.queries }", "view: { queries: true }"),
}


@pytest.mark.parametrize("broken", PAGE_BREAKS)
def test_a_page_that_reads_the_rules_otherwise_is_refused(broken):
    before, after = PAGE_BREAKS[broken]
    js = pages.bundle.__wrapped__()[0]
    assert js.count(before) == 1, f"the break {broken!r} no longer applies: its text is gone from the bundle"
    wrong = disagreements(page_side(js.replace(before, after)), BREAK_TABLE())
    assert wrong, broken


PYTHON_BREAKS = {  # a Python interpreter that reads an operation otherwise
    "min as max": ("min", max),
    "divisor ignores what was asked": ("divisor", lambda x, n: n),
    "clamp to the bottom": ("clamp", lambda x, lo, hi: lo),
}


@pytest.mark.parametrize("broken", PYTHON_BREAKS)
def test_a_python_side_that_reads_the_rules_otherwise_is_refused(broken, monkeypatch):
    op, wrong_op = PYTHON_BREAKS[broken]
    ask = page_side()  # the page's bundle as it is
    monkeypatch.setitem(RULE_OPERATIONS, op, wrong_op)
    assert disagreements(ask, BREAK_TABLE()), broken


@pytest.mark.parametrize("op", ["//", "??", "divisor", "clamp", "has"])
def test_a_page_operation_written_otherwise_fails_its_written_value(op):
    wrong = {"//": ('"//": (a, b) => Math.floor(a / b)', '"//": (a, b) => a / b'),
             "??": ('"??": (x, otherwise) => x ?? otherwise', '"??": (x, otherwise) => x || otherwise'),
             "divisor": ("filter((g) => g <= x)", "filter((g) => g < x)"),
             "clamp": ("clamp: (x, lo, hi) => Math.min(Math.max(x, lo), hi)",
                       "clamp: (x, lo, hi) => Math.max(Math.min(x, hi), lo)"),
             "has": ("xs.includes(x)", "xs.length > 0")}[op]
    js = pages.bundle.__wrapped__()[0]
    assert js.count(wrong[0]) == 1
    ask = page_side(js.replace(*wrong))
    failed = [x for x, context, value in OPERATION_CASES
              if ask({"ask": "evaluate", "x": x, "context": context}) != {"value": value}]
    assert failed, op


# ---- a control is one entry -----------------------------------------------------------------------------------------

def test_a_new_control_is_one_entry_on_both_sides(monkeypatch):
    entry = controls._control("picks", "zeros", "check", when="view.heads", value=["==", "head", -1])
    monkeypatch.setattr(controls, "CONTROLS", [*controls.CONTROLS, entry])
    entry["label"] = "marks"  # its words: here, the marks' label
    data.look_data.cache_clear()
    try:
        ex = al.explorer(view="all", h=2)
        s = {**ex.state, "head": -1}
        python = plain(control_specs(ex.view, s, resolve(s, ex.view), "en"))
        assert python[-1] == {"group": "picks", "name": "zeros", "type": "check", "value": True,
                              "label": ex.controls["marks"].description, "options": None, "min": None, "max": None,
                              "visible": True}
        assert page_side()({"ask": "controls", "config": {**ex.page_config(), "state": s}}) == {"value": python}
    finally:
        data.look_data.cache_clear()


def test_the_views_flags_the_controls_read_come_from_python(monkeypatch):
    # the head and compare controls follow views.View.has_heads as Python computes it (views.view_data sends it):
    # a view that draws nothing per head offers neither, on both sides
    ex = al.explorer(view="all", h=2)
    before = [c["name"] for c in page_side()({"ask": "controls", "config": ex.page_config()})["value"]]
    assert {"head", "compare"} <= set(before)
    monkeypatch.setattr(views.View, "has_heads", property(lambda v: False))
    ex = al.explorer(view="all", h=2)
    python = plain(control_specs(ex.view, ex.state, resolve(ex.state, ex.view), "en"))
    assert {"head", "compare"}.isdisjoint(c["name"] for c in python)
    assert page_side()({"ask": "controls", "config": ex.page_config()}) == {"value": python}


# ---- a pick's number: from 1, as its label shows it, in Python, the page, its links and the commands (issue 48) -----

def shown_number(name, index, r, s):  # -> the number a person reads for a pick's 0-based index, written out here
    if name == "head":
        return "all" if index == -1 else index + 1
    first_query = r.T - r.T_q + 1  # the Query rows are the last T_q tokens'
    first = first_query if name in ("query", "row") or (name == "edit_token" and s["edit_matrix"] == "Q") else 1
    return first + index


@pytest.mark.slow  # Node.js
def test_a_picks_number_is_one_rule_on_both_sides(table):
    """Head 1 is head index 0, Query token 3 is the Query row of token 3: state.pick_number / pick_index in Python and
    state.js pickNumber / pickIndex in the page give the number the label shows (written out here) and back."""
    ask, seen = page_side(), set()
    for ex, config, s in table:
        r = resolve(s, ex.view, ex._own)
        context = controls.control_context(ex.view, s, r, ex._own)
        specs = [c for c in control_specs(ex.view, s, r, ex.lang, ex._own) if c["name"] in state.NUMBERED]
        python = []
        for c in specs:
            rows = []
            for index, label in c["options"]:
                number = state.pick_number(c["name"], index, context)
                assert number == shown_number(c["name"], index, r, s), (c["name"], index, s)
                word = al.words.say("all_heads" if number == "all" else "head_n", ex.lang, n=number)
                assert label == (word if c["name"] == "head" else str(number)), (c["name"], label, number)
                rows.append([index, number, state.pick_index(c["name"], number, context)])
                assert rows[-1][2] == index
            python.append([c["name"], rows])
            seen.add(c["name"])
        assert ask({"ask": "numbers", "config": {**config, "state": s}}) == {"value": python}, s
    assert seen == set(state.NUMBERED)
    assert state.pick_index("head", 0, {}) == -1 and state.pick_index("key", "all", {}) is None  # not a head


@pytest.mark.slow  # Node.js
def test_a_link_names_a_pick_by_its_number_as_the_figures_command_does(tmp_path):
    """#head=1 is Head 1 (it was Head 2: the link wrote the 0-based index) and #query=4 is Query token 4, as
    `--head 1 --query 4` of the figures command; head=all is all heads; the page's own link writes the numbers; a 0
    (an older link's first head or token) is refused with a line saying the page counts from 1."""
    from attention_lab.figures import options

    ex = al.explorer(view="all", T=5, h=3, queries=3)  # Query rows: tokens 3, 4, 5
    config, ask = ex.page_config(), page_side()
    read = ask({"ask": "link", "config": config, "hash": "#head=1&query=４&key=2&row=5"})["value"]
    assert read["problems"] == []
    args = options.parse_args(["--out", str(tmp_path), "--T", "5", "--d", "12", "--h", "3", "--queries", "3",
                               "--head", "1", "--query", "4", "--key", "2", "--row", "5"])
    chosen = options.picks(args, options.make_trace(args))
    assert {n: read["state"][n] for n in chosen} == chosen == {"head": 0, "query": 1, "key": 1, "row": 2}
    assert ask({"ask": "link", "config": config, "hash": "#head=all"})["value"]["state"]["head"] == -1
    for hash_, key in (("#head=0", "head"), ("#key=0", "key")):
        said = ask({"ask": "link", "config": config, "hash": hash_})["value"]
        allowed = "1, 2, 3, all" if key == "head" else "1, 2, 3, 4, 5"
        assert said["state"][key] == ex.state[key] and said["problems"] == [
            al.words.say("link_from_one", "en", key=key, value="0", allowed=allowed)], said
    refused = ask({"ask": "link", "config": config, "hash": "#query=2"})["value"]  # token 2 has no Query row here
    assert refused["problems"] == [al.words.say("link_bad_value", "en", key="query", value="2", allowed="3, 4, 5")]
    moved = {**ex.state, "head": 1, "query": 0, "key": 4}
    link = ask({"ask": "link", "config": config, "hash": "", "state": moved})["value"]["link"]
    assert set(link.split("&")) == {"head=2", "query=3", "key=5"}, link
    back = ask({"ask": "link", "config": config, "hash": "#" + link})["value"]
    assert back["problems"] == [] and {n: back["state"][n] for n in ("head", "query", "key")} == {
        "head": 1, "query": 0, "key": 4}
