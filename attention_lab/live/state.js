// ---- state.js: what the controls' asked-for values put on screen --------------------------------------------
//
// The state is control name -> the value asked for; a picker at token 9 stays 9 when T drops to 4 (it shows
// token 4) and shows 9 again when T grows back. `resolve` fits every size, pick and parameter to the others.

const divisors = (n) => Array.from({ length: n }, (_, k) => k + 1).filter((k) => n % k === 0);

function viewInfo(view) {  // a view as Python sends it (views.view_data: what it draws and offers), and a lookup
  const items = new Set(view.items);
  return { ...view, has: (x) => items.has(x) };
}

// The rules are data (LOOK.live: resolve, params, moves, controls): an expression is a name (a path into the
// context), a number, null, a string literal "'custom'", or [operation, ...arguments].
const RULE_OPERATIONS = {
  "+": (a, b) => a + b, "-": (a, b) => a - b, "//": (a, b) => Math.floor(a / b), "==": (a, b) => a === b,
  "!=": (a, b) => a !== b, ">": (a, b) => a > b, "<=": (a, b) => a <= b, not: (a) => !a,
  min: (...xs) => Math.min(...xs), max: (...xs) => Math.max(...xs), clamp: (x, lo, hi) => Math.min(Math.max(x, lo), hi),
  "??": (x, otherwise) => x ?? otherwise,
  divisor: (x, n) => (x === null ? n : Math.max(...divisors(n).filter((g) => g <= x))),  // the largest g | n, g ≤ x
  divisors, has: (xs, x) => xs.includes(x), len: (xs) => xs.length, sum: (xs) => xs.reduce((s, n) => s + n, 0),
  list: (...xs) => xs, nonzero: (xs) => xs.filter((x) => x), isList: (x) => Array.isArray(x),
};

function evaluateRule(x, context) {  // the value of expression x in context (an object of names)
  if (typeof x === "string") {
    if (x.startsWith("'")) return x.slice(1, -1);
    return x.split(".").reduce((at, part) => {
      if (!(part in at)) throw new Error(`the rules name "${x}", which the context has not`);
      return at[part];
    }, context);
  }
  if (!Array.isArray(x)) return x;  // a number, true, false or null
  const [op, ...args] = x;
  if (op === "?") return evaluateRule(evaluateRule(args[0], context) ? args[1] : args[2], context);
  if (op === "and") return args.every((a) => evaluateRule(a, context));
  return RULE_OPERATIONS[op](...args.map((a) => evaluateRule(a, context)));
}

function evaluateRules(rules, context) {  // context with each rule's name set to its value, in order
  const out = { ...context };
  for (const [name, x] of Object.entries(rules)) out[name] = evaluateRule(x, out);
  return out;
}

// A pick as a person reads and types it, counted from 1 as its label shows it (Head 1, Query token 3), for a 0-based
// index: index + the number the control's first choice shows (LOOK.live.numbered: the one rule Python's pick_number and pick_index follow too).
function pickNumber(name, index, context) {  // -> the number control `name` shows for index, or "all" (all heads)
  if (name === "head" && index === -1) return LOOK.live.allHeads;
  return index + evaluateRule(LOOK.live.numbered[name], context);
}

function pickIndex(name, number, context) {  // -> the 0-based index a shown number (or "all") names, or null
  if (number === LOOK.live.allHeads) return name === "head" ? -1 : null;
  return Number.isInteger(number) ? number - evaluateRule(LOOK.live.numbered[name], context) : null;
}

function paramValue(p, wanted, T) {  // the value asked for, or the default, fitted to T (LOOK.live.params)
  const value = evaluateRule(LOOK.live.params[p.type].value, { p, wanted: wanted ?? null, T });
  return Array.isArray(value) ? value.slice() : value;
}

function maskParams(data, name) {
  return name === "custom" ? [] : data.masks[name].params;
}

function resolve(state, view, data) {  // what is on screen: sizes, mask, head and picks fitted to each other
  const own = data.own && { T: data.own.K.length, T_q: data.own.Q.length, width_q: data.own.Q[0].length,
    width_k: data.own.K[0].length };
  const fitted = evaluateRules(LOOK.live.resolve,
    { asked: state, mine: Boolean(data.own), own, view: { queries: view.queries } });
  const { T, T_q, h, dh, g } = fitted, mask = state.mask;
  return {
    source: state.source, seed: state.seed, T, T_q, h, dh, g, d: h * dh, mask,
    params: maskParams(data, mask).map((p) => paramValue(p, state[`${mask}.${p.name}`], T)), align: fitted.align,
    head: fitted.head, compare: state.compare, query: fitted.query, key: fitted.key, row: fitted.row,
    marks: state.marks, firstQuery: fitted.first_query,
  };
}

function moved(state, name, value, resolved) {  // one control moved: the new state, with the links of LOOK.live.moves
  const next = { ...state, [name]: value }, context = { value, h: resolved.h, T: resolved.T };
  for (const link of LOOK.live.moves) {
    if (link.moved === name && evaluateRule(link.if, context)) next[link.set] = evaluateRule(link.to, context);
  }
  return next;
}

function wholeOf(text) {  // a typed whole number by the one rule (own_numbers.typed_whole), or null: "１２" -> 12
  const t = Array.from(String(text), (c) => GRAMMAR.readAs[c] ?? c);
  let a = 0, b = t.length;  // the ends stripped of GRAMMAR.blank, what Python's strip() strips (not trim()'s)
  while (a < b && GRAMMAR.blank.includes(t[a])) a++;
  while (b > a && GRAMMAR.blank.includes(t[b - 1])) b--;
  const whole = t.slice(a, b).join("");
  return WHOLE.test(whole) ? Number(whole) + 0 : null;  // + 0: "-0" is the seed 0, as int("-0") is, not −0
}

function seedOf(text) {  // the seed box's rule (state.seed_of): a whole number in the seed's range, or null
  const n = wholeOf(text), [lo, hi] = LOOK.live.state.seed.range;
  return n !== null && n >= lo && n <= hi ? n : null;
}

function resetState(state, reset) {  // ↺: the article's example (config.reset: state.reset_of; state.reset_state)
  return { ...state, ...reset };
}

const GRAMMAR = RULES.rowGrammar;
const SEPARATORS = new RegExp(GRAMMAR.separators), NOT_FINITE = new RegExp(`^(?:${GRAMMAR.notFinite})$`);
const NUMBER = new RegExp(`^(?:${GRAMMAR.number})$`), WHOLE = new RegExp(`^(?:${GRAMMAR.whole})$`);

function rowPieces(source) {  // "［-1, １］" -> ["-1", "1"]: readAs folded, split at the separators (state.row_pieces)
  return Array.from(String(source), (c) => GRAMMAR.readAs[c] ?? c).join("").split(SEPARATORS).filter(Boolean);
}

function parseRow(source, n) {  // one typed row -> [numbers, null] or [null, [message key, detail]]
  const values = [];
  for (const token of rowPieces(source)) {
    if (NOT_FINITE.test(token)) return [null, ["edit_finite", token]];
    if (!NUMBER.test(token)) return [null, ["edit_number", token]];
    values.push(Number(token));
    if (!Number.isFinite(values[values.length - 1])) return [null, ["edit_finite", token]];
  }
  if (values.length !== n) return [null, ["edit_count", values.length]];
  return [values, null];
}
