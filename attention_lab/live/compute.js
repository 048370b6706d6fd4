// ---- compute.js: Core Attention in the browser, walking the pipeline's stages ------------------------------------
//
// LOOK.stages is the pipeline as data: each stage's name, inputs, kind, … and its expression, the name of an earlier
// stage ("S") or [operation, ...arguments] (["normalize_rows", "E"]). OPERATIONS holds what each operation does;
// an expression naming an operation that is not here is an error on screen (and fails the tests that run every
// operation on both sides).
// Matrices are arrays of rows; per-head stages are arrays of matrices, one per head.

const STAGE_LIST = LOOK.stages;
const STAGE = Object.fromEntries(STAGE_LIST.map((s) => [s.name, s]));

// ---- one order of arithmetic, Python's too: every sum left to right from 0, and fdlibm's exp ---------------------
// IEEE 754 rounds each +, −, ×, ÷ and √ alike here and in NumPy; a sum in another order, or the browser's Math.exp
// (not correctly rounded, and not the same in every browser), would give other last bits than the notebook's.
const sumOfProducts = (a, b) => {  // 0 + a₁b₁ + a₂b₂ + …, left to right
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += a[k] * b[k];
  return sum;
};
const sumOf = (row) => {  // 0 + x₁ + x₂ + …, left to right
  let sum = 0;
  for (let k = 0; k < row.length; k++) sum += row[k];
  return sum;
};
const POWER = new DataView(new ArrayBuffer(8));
const twoTo = (k) => {  // 2^k, exactly, for k in −1022 … 1023: its exponent bits
  POWER.setUint32(0, (0x3ff + k) * 0x100000);
  POWER.setUint32(4, 0);
  return POWER.getFloat64(0);
};
const { ln2Hi: LN2_HI, ln2Lo: LN2_LO, invLn2: INV_LN2, p: EXP_P, over: EXP_OVER, under: EXP_UNDER,
  halfLn2: HALF_LN2, threeHalvesLn2: THREE_HALVES_LN2 } = LOOK.exp;  // fdlibm's constants, Python's (arithmetic.EXP)
const exp = (x) => {  // e^x by fdlibm's algorithm: x = k·ln2 + r, e^r from a rational approximation, times 2^k
  const ax = Math.abs(x), negative = x < 0;
  if (Number.isNaN(x)) return x + x;
  if (x > EXP_OVER) return Infinity;
  if (x < EXP_UNDER) return 0;
  if (x === 1) return Math.E;
  if (ax < twoTo(-28)) return 1 + x;
  const poly = (t) => EXP_P[0] + t * (EXP_P[1] + t * (EXP_P[2] + t * (EXP_P[3] + t * EXP_P[4])));
  if (ax < HALF_LN2) {
    const t = x * x, c = x - t * poly(t);
    return 1 - ((x * c) / (c - 2) - x);
  }
  let k, hi, lo;
  if (ax < THREE_HALVES_LN2) {
    k = negative ? -1 : 1;
    hi = x - (negative ? -LN2_HI : LN2_HI);
    lo = negative ? -LN2_LO : LN2_LO;
  } else {
    k = Math.trunc(INV_LN2 * x + (negative ? -0.5 : 0.5));
    hi = x - k * LN2_HI;
    lo = k * LN2_LO;
  }
  const r = hi - lo, t = r * r, c = r - t * poly(t), y = 1 - ((lo - (r * c) / (2 - c)) - hi);
  if (k === 1024) return y * 2 * twoTo(1023);
  return k >= -1021 ? y * twoTo(k) : y * twoTo(k + 1000) * twoTo(-1000);
};

const log = (x) => {  // ln x by fdlibm's algorithm: x = 2^k·(1 + f), ln(1 + f) from s = f / (2 + f)
  const { ln2Hi: hi, ln2Lo: lo, lg } = LOOK.log;
  if (Number.isNaN(x) || x < 0) return NaN;
  if (x === 0) return -Infinity;
  if (x === Infinity) return x;
  let k = 0;
  if (x < 2 ** -1022) { k = -54; x *= 2 ** 54; }  // subnormal: scaled up exactly
  POWER.setFloat64(0, x);
  let hx = POWER.getUint32(0);
  k += (hx >> 20) - 1023;
  hx &= 0xfffff;
  const i = (hx + 0x95f64) & 0x100000;
  POWER.setUint32(0, (hx | (i ^ 0x3ff00000)) >>> 0);  // x or x/2 (the low word kept)
  k += i >> 20;
  const f = POWER.getFloat64(0) - 1, dk = k;
  if ((0xfffff & (2 + hx)) < 3) {  // |f| < 2^-20
    if (f === 0) return k === 0 ? 0 : dk * hi + dk * lo;
    const R = f * f * (0.5 - 0.33333333333333333 * f);
    return k === 0 ? f - R : dk * hi - ((R - dk * lo) - f);
  }
  const s = f / (2 + f), z = s * s, w = z * z;
  const R = z * (lg[0] + w * (lg[2] + w * (lg[4] + w * lg[6]))) + w * (lg[1] + w * (lg[3] + w * lg[5]));
  if (((hx - 0x6147a) | (0x6b851 - hx)) > 0) {
    const hfsq = 0.5 * f * f;
    return k === 0 ? f - (hfsq - s * (hfsq + R)) : dk * hi - ((hfsq - (s * (hfsq + R) + dk * lo)) - f);
  }
  return k === 0 ? f - s * (f - R) : dk * hi - ((s * (f - R) - dk * lo) - f);
};

const matmulT = (A, B) => A.map((a) => B.map((b) => sumOfProducts(a, b)));  // A Bᵀ
const matmul = (A, B) => matmulT(A, B[0].map((_, c) => B.map((row) => row[c])));  // A B = A (Bᵀ)ᵀ
const isMatrix = (X) => !Array.isArray(X[0][0]);
const perMatrix = (f) => function apply(A, B) {  // f(matrix, matrix), head by head over any leading axes
  return isMatrix(A) ? f(A, B) : A.map((a, i) => apply(a, isMatrix(B) ? B : B[i]));
};
const perRow = (f) => function apply(X) { return Array.isArray(X[0]) ? X.map(apply) : f(X); };
const perValue = (f) => function apply(X) { return Array.isArray(X) ? X.map(apply) : f(X); };

const splitHeads = (X, dh) => Array.from({ length: X[0].length / dh },  // head i takes columns i·dh … (i+1)·dh − 1
  (_, i) => X.map((row) => row.slice(i * dh, (i + 1) * dh)));
const rowExponentials = perRow((row) => {  // exp(s − the row's max); −∞ → 0
  let max = Math.max(...row);
  if (max === -Infinity) max = 0;
  return row.map((x) => exp(x - max));
});
const normalizeRows = perRow((row) => {  // each row over its sum; a row of zeros stays 0
  const sum = sumOf(row);
  return row.map((x) => x / (sum === 0 ? 1 : sum));
});

// What each operation does, (settings, ...arrays) -> array; settings is {h, g, dh, kv, allowed, scaled}.
const OPERATIONS = {
  split_heads: (c, X) => splitHeads(X, c.dh),
  by_query_head: (c, X) => c.kv.map((i) => X[i]),
  scores: (c, Qh, Kh) => perMatrix(matmulT)(Qh, Kh),
  scale: (c, S) => perValue((x) => x / Math.sqrt(c.scaled ? c.dh : 1))(S),
  mask: (c) => c.allowed.map((row) => row.map((ok) => (ok ? 0 : -Infinity))),
  add_mask: (c, S, M) => perMatrix((m, mask) => m.map((row, i) => row.map((x, j) => x + mask[i][j])))(S, M),
  row_exponentials: (c, S) => rowExponentials(S),
  normalize_rows: (c, E) => normalizeRows(E),
  weighted_sum: (c, P, V) => perMatrix(matmul)(P, V),
  concat_heads: (c, O) => O[0].map((_, t) => O.flatMap((o) => o[t])),
  exp: (c, X) => perValue(exp)(X),
  log: (c, X) => perValue(log)(X),
};

function evaluate(expression, arrays, c) {  // the value of a stage's expression, from the arrays computed so far
  if (typeof expression === "string") return arrays[expression];
  const [operation, ...args] = expression;
  if (!OPERATIONS[operation]) throw new Error(`the browser has no operation ${operation}`);
  return OPERATIONS[operation](c, ...args.map((a) => evaluate(a, arrays, c)));
}

// Every stage for Q, K, V and the settings {h, g, dh, kv, allowed, scaled}: {name: array}, in the pipeline's order.
function runPipeline(inputs, c) {
  const arrays = { ...inputs };
  for (const stage of STAGE_LIST) {
    if (stage.expression !== null) arrays[stage.name] = evaluate(stage.expression, arrays, c);
  }
  return arrays;
}

// A stage's matrix for Query head i: its own for a per-head stage, its K/V head's for a K/V stage, else the whole.
function stageMatrix(tr, name, i) {
  const s = STAGE[name], value = tr.arrays[name];
  if (s.heads === "query") return value[i];
  if (s.heads === "kv") return value[tr.kv[i]];
  return value;
}

// ---- the examples: values per (token, head, component), from a hash of the seed and the coordinates --------------

const M64 = (1n << 64n) - 1n;
const GOLDEN = 0x9E3779B97F4A7C15n;
function mix(x) {  // SplitMix64's finaliser, with wrap-around multiplication
  x = ((x ^ (x >> 30n)) * 0xBF58476D1CE4E5B9n) & M64;
  x = ((x ^ (x >> 27n)) * 0x94D049BB133111EBn) & M64;
  return x ^ (x >> 31n);
}
const stepKey = (key, coordinate) => mix(key ^ ((BigInt(coordinate) + GOLDEN) & M64));

// {Q, K, V}: flat (T, h, dh) at the given largest sizes, made once per seed, sizes and corner: all three decide
// the values, so all three are the key (a seed alone would hand one page's sizes or the article's corner to another)
const seeded = new Map();
function seedValues(seed, sizes, corner = null) {  // whole numbers LOOK.valueRange for matrices 0, 1, 2 (Q, K, V)
  const [low, high] = LOOK.valueRange, count = BigInt(high - low + 1);
  const key = [String(seed), sizes.T, sizes.h, sizes.dh, corner ? "article corner" : "no corner"].join("|");
  if (!seeded.has(key)) {
    const out = {};
    ["Q", "K", "V"].forEach((name, matrix) => {
      const values = new Array(sizes.T * sizes.h * sizes.dh);
      const k0 = stepKey(BigInt(seed), matrix);
      let n = 0;
      for (let t = 0; t < sizes.T; t++) {
        const k1 = stepKey(k0, t);
        for (let hd = 0; hd < sizes.h; hd++) {
          const k2 = stepKey(k1, hd);
          for (let c = 0; c < sizes.dh; c++) values[n++] = Number(stepKey(k2, c) % count) + low;
        }
      }
      if (corner) {  // the article's own values over the fill of its stream
        const [cT, ch, cdh] = corner.sizes;
        for (let t = 0; t < cT; t++) {
          for (let hd = 0; hd < ch; hd++) {
            const at = (t * sizes.h + hd) * sizes.dh, from = (t * ch + hd) * cdh;
            for (let c = 0; c < cdh; c++) values[at + c] = corner[name][from + c];
          }
        }
      }
      out[name] = values;
    });
    if (seeded.size > 32) seeded.clear();
    seeded.set(key, out);
  }
  return seeded.get(key);
}

// (T, heads·dh) from flat (T_max, h_max, dh_max) values: the corner every size grows from.
function corner(values, sizes, T, heads, dh) {
  return Array.from({ length: T }, (_, t) => {
    const row = [];
    for (let hd = 0; hd < heads; hd++) {
      for (let c = 0; c < dh; c++) row.push(values[(t * sizes.h + hd) * sizes.dh + c]);
    }
    return row;
  });
}

// ---- masks: the registry's tables, one row per position ----------------------------------------------------------

function paramKey(value) {
  return Array.isArray(value) ? value.join("+") : String(value);
}

function rowsOf(hex, T_k) {  // "00010003…" -> [[bool × T_k] per row]
  const rows = [];
  for (let r = 0; r < hex.length / 4; r++) {
    const bits = parseInt(hex.slice(4 * r, 4 * r + 4), 16);
    rows.push(Array.from({ length: T_k }, (_, j) => ((bits >> j) & 1) === 1));
  }
  return rows;
}

// Which Key tokens each of T_q Query rows may see: the table's rows at the Query rows' positions.
function allowedOf(data, resolved) {
  if (resolved.mask === "custom") return rowsOf(data.own.mask, resolved.T);
  const kind = data.masks[resolved.mask], key = resolved.params.map(paramKey).join(";");
  const table = kind.tables[kind.byT ? `${resolved.T}|${key}` : key];  // a rule that ignores T: the T × T corner
  const square = rowsOf(table, resolved.T).slice(0, resolved.T);
  const first = resolved.align === "bottom-right" ? resolved.T - resolved.T_q : 0;
  return square.slice(first, first + resolved.T_q);
}

// The trace of what is on screen: {arrays, T_q, T, h, dh, g, kv}.
function traceOf(resolved, data, scaled = true) {
  let Q, K, V;
  if (data.own) {
    ({ Q, K, V } = data.own);
  } else {
    const article = data.article;
    const values = resolved.source === "article"
      ? seedValues(BigInt(article.stream), data.sizes, { ...article.corner, sizes: article.cornerSizes })
      : seedValues(resolved.seed, data.sizes);
    Q = corner(values.Q, data.sizes, resolved.T, resolved.h, resolved.dh).slice(resolved.T - resolved.T_q);
    K = corner(values.K, data.sizes, resolved.T, resolved.g, resolved.dh);
    V = corner(values.V, data.sizes, resolved.T, resolved.g, resolved.dh);
  }
  const kv = Array.from({ length: resolved.h }, (_, i) => Math.floor(i / (resolved.h / resolved.g)));
  const c = { h: resolved.h, g: resolved.g, dh: resolved.dh, kv, scaled, allowed: allowedOf(data, resolved) };
  const arrays = runPipeline({ Q, K, V }, c);
  const finite = (m) => m.every((row) => row.every(Number.isFinite));
  if (!arrays.S.every(finite) || !finite(arrays.H)) return { overflow: true };
  const { T_q, T, h, dh, g } = resolved;
  return { arrays, T_q, T, h, dh, g, kv, d: h * dh };
}

function shapesText(tr) {  // the shape line: sizes, then each stage's shape
  const { T_q, T, d, h, dh, g } = tr;
  const tokens = T_q === T ? `T=${T_q}` : `T_q=${T_q} · T_k=${T}`;
  const kv = g !== h || T_q !== T ? ` · K/V heads g=${g} · K, V (${T}×${g * dh})` : "";
  return `${tokens} · d=${d} · h=${h} · dh=${dh}${kv} · Q (${T_q}×${d}) → S (${h}×${T_q}×${T}) `
    + `→ P (${h}×${T_q}×${T}) → O (${h}×${T_q}×${dh}) → H (${T_q}×${d})`;
}
