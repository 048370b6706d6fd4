// ---- state.js: what the controls' asked-for values put on screen --------------------------------------------
//
// The state is control name -> the value asked for; a picker at token 9 stays 9 when T drops to 4 (it shows
// token 4) and shows 9 again when T grows back. `resolve` fits every size, pick and parameter to the others.

const divisors = (n) => Array.from({ length: n }, (_, k) => k + 1).filter((k) => n % k === 0);
const wholeTrace = (name) => STAGE[name].heads === "" && !STAGE[name].axes.includes("query");

function viewInfo(view) {  // what a view draws and offers
  const items = new Set(view.items);
  const headStages = view.items.filter((x) => STAGE[x] && !wholeTrace(x));
  return {
    ...view,
    headStages,
    compared: headStages.filter((x) => STAGE[x].heads !== ""),
    hasHeads: headStages.length > 0 || LOOK.breakdowns.some((x) => items.has(x)),
    picks: [...new Set(LOOK.breakdowns.filter((b) => items.has(b)).flatMap((b) => LOOK.picks[b]))],
    has: (x) => items.has(x),
  };
}

function defaultLengths(T) {  // T = 6 -> [3, 3]; T = 3 -> [2, 1]
  return [Math.floor((T + 1) / 2), Math.floor(T / 2)].filter((n) => n > 0);
}

function paramValue(p, wanted, T) {  // the value asked for, or the default, fitted to T
  if (p.type === "lengths") {
    const fits = Array.isArray(wanted) && wanted.reduce((s, n) => s + n, 0) === T && wanted.length <= p.most;
    return fits ? wanted.slice() : defaultLengths(T);
  }
  const lo = p.lo, hi = Math.max(p.lo, T + p.hiT);
  return Math.min(Math.max(wanted ?? p.default, lo), hi);
}

function maskParams(data, name) {
  return name === "custom" ? [] : data.masks[name].params;
}

function resolve(state, view, data) {  // what is on screen: sizes, mask, head and picks fitted to each other
  let T, T_q, h, dh, g;
  if (data.own) {
    T = data.own.K.length;
    T_q = data.own.Q.length;
    h = state.h;
    dh = data.own.Q[0].length / h;
    g = data.own.K[0].length / dh;
  } else {
    ({ T, h, dh } = state);
    g = state.kv_heads === null ? h : Math.max(...divisors(h).filter((k) => k <= state.kv_heads));
    T_q = state.queries === null || !view.queries ? T : Math.min(state.queries, T);
  }
  const mask = state.mask;
  const params = maskParams(data, mask).map((p) => paramValue(p, state[`${mask}.${p.name}`], T));
  const head = state.head === -1 && h > 1 ? -1 : Math.min(Math.max(state.head, 0), h - 1);
  return {
    source: state.source, seed: state.seed, T, T_q, h, dh, g, d: h * dh, mask, params,
    align: view.queries && mask !== "custom" ? state.align : "bottom-right", head, compare: state.compare,
    query: Math.min(state.query, T_q - 1), key: Math.min(state.key, T - 1), row: Math.min(state.row, T_q - 1),
    marks: state.marks, firstQuery: T - T_q + 1,
  };
}

// One control moved: the new state (the links between controls, e.g. K/V heads back to "as many as h").
function moved(state, name, value, on) {
  const next = { ...state, [name]: value };
  if (name === "seed") next.source = "random";  // a seed is the random example's own setting
  if (name === "kv_heads" && value === on.h) next.kv_heads = null;  // one K/V head per Query head, whatever h
  if (name === "queries" && value === on.T) next.queries = null;  // every token's Query row, whatever T
  return next;
}

function seedOf(text) {  // the seed box's rule: a whole number 0 … LOOK.maxSeed, or null
  const t = String(text).trim();
  return /^\d+$/.test(t) && Number(t) <= LOOK.maxSeed ? Number(t) : null;
}

function resetState(state, reset) {  // ↺: the article's example (reset: what the view starts with)
  return { ...state, ...reset };
}

const GRAMMAR = RULES.rowGrammar;
const SEPARATORS = new RegExp(GRAMMAR.separators), NOT_FINITE = new RegExp(`^(?:${GRAMMAR.notFinite})$`);
const NUMBER = new RegExp(`^(?:${GRAMMAR.number})$`);

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
