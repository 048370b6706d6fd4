// ---- picture.js: what the page shows for a state, as data ----------------------------------------------------
//
// Sections of heatmaps and breakdowns, with the shape line and the note; heatmap.js and explorer.js put them on
// screen. The one picture of the explorer: tests that ask what the page shows without a browser run this file in
// Node.js, and the parity tests hold the page's cells to the trace's numbers.

const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
  "'": "&#x27;" })[c]);
// A word's {name} fields, and its particle fields {name:을} (a closing mark, a backtick or a quote, may come before
// the particle): the value, then the particle of the pair that its reading takes, by look.particles' table
// (LOOK.particles: the readings, and the rule of which form follows which last sound).
const fill = (template, values) => template.replace(/\{(\w+)(?::([^{}]*))?\}/g,
  (_, k, spec) => (spec === undefined ? values[k] : values[k] + spec.slice(0, spec.search(/[가-힣]/))
    + particleOf(values[k], spec.slice(spec.search(/[가-힣]/)))));

function readingOf(word) {  // how a word is read (its last syllable is what a particle follows), or null
  const P = LOOK.particles, text = String(word).trim();
  if (/[가-힣]$/.test(text)) return text;
  const number = /^[+\-−]?[0-9][0-9,]*(\.[0-9]+)?(e[+-]?[0-9]+)?$/.exec(text);
  if (number) {
    const digits = text.replace(/^[+\-−]/, "").replace(/,/g, "");
    if (/[.e]/.test(digits)) return P.digits[Number(digits.slice(-1))];
    const whole = digits.replace(/^0+/, "") || "0", zeros = whole.length - whole.replace(/0+$/, "").length;
    if (whole === "0" || zeros === 0) return P.digits[Number(whole.slice(-1))];
    return P.places[Math.max(...Object.keys(P.places).map(Number).filter((p) => p <= zeros))];
  }
  const found = P.readings[text]
    ?? Object.entries(P.readings).find(([w]) => w.toLowerCase() === text.toLowerCase())?.[1];
  if (found !== undefined) return found;
  const names = /[\s.(]/.test(text) ? text.match(/[A-Za-z_][A-Za-z_0-9]*/g) : null;
  return names ? readingOf(names[names.length - 1]) : null;
}

function particleOf(word, form) {  // the form of `form`'s pair that word takes, or both ("을(를)") where unknown
  const [afterFinal, afterNone] = LOOK.particles.pairs.find((pair) => pair.includes(form)), read = readingOf(word);
  if (read === null) return `${afterFinal}(${afterNone})`;
  const final = (read.charCodeAt(read.length - 1) - 0xac00) % 28;
  if (afterFinal === "으로") return final === 0 || final === 8 ? afterNone : afterFinal;
  return final !== 0 ? afterFinal : afterNone;
}
const AXIS_WORDS = { query: "query", key: "key", token: "token", component: "" };
const ordinal = (n, lang) => LOOK.ordinals[lang][n - 1];  // 1 -> "1st" / "첫 번째" (LOOK.ordinals: the words' rule)

function isArticle(resolved) {  // the article's own sizes (LOOK.article.sizes), with every Query row
  return Object.entries(LOOK.article.sizes).every(([name, n]) => resolved[name] === n) && resolved.T_q === resolved.T;
}

function noteText(resolved, L) {  // the line saying where the numbers come from
  let said;
  if (resolved.source === "yours" || resolved.source === "learned") said = L[`note_${resolved.source}`];
  else if (resolved.source === "random") said = fill(L.note_random, { seed: resolved.seed });
  else if (isArticle(resolved)) {
    said = resolved.mask === "causal" ? L.note_article : resolved.mask === "none" ? L.note_article_nomask
      : fill(L.note_article_mask, { mask: L[`mask.${resolved.mask}`] });
  } else {
    const span = (key, n) => (n === 1 ? L[`${key}_one`] : fill(L[key], { n }));
    const [t, heads, c] = LOOK.article.corner;  // the article's numbers: tokens, heads, components
    const [low, high] = LOOK.valueRange.map(formatValue);
    said = fill(L.note_corner, { tokens: span("tokens", Math.min(resolved.T, t)),
      heads: span("heads", Math.min(resolved.h, heads)),
      components: span("components", Math.min(resolved.dh, c)), low, high });
    if (resolved.g !== resolved.h) {
      said += " " + fill(L.note_kv, { g: resolved.g, kv: span("kv_span", Math.min(resolved.g, heads)) });
    }
  }
  if (resolved.T_q !== resolved.T) {
    said += " " + fill(L.note_queries, { n: resolved.T_q, first: resolved.firstQuery, T: resolved.T,
      align: L[`align.${resolved.align}`] });
  }
  return said;
}

function tokenLabels(resolved, axis, n) {  // the token numbers along an axis
  if (axis === "query" || (axis === "token" && n === resolved.T_q)) {
    return Array.from({ length: n }, (_, r) => String(resolved.firstQuery + r));
  }
  return Array.from({ length: n }, (_, r) => String(r + 1));
}

function bars(tr, stage, i, nCols) {  // the bars beside a heatmap
  if (stage.axes[1] !== "component") return null;
  if (stage.heads === "query") return Array(nCols).fill(headColour(i));
  if (stage.heads === "kv") return Array(nCols).fill(kvHeadColour(tr.kv[i], tr.h, tr.g));
  const blocks = nCols / tr.dh;
  return Array.from({ length: nCols }, (_, c) => kvHeadColour(Math.floor(c / tr.dh), tr.h, blocks));
}

// Where each row sees its key (M is not −∞): a weight of 0.0 there reads "0.000", in a masked cell "0".
const seesKey = (tr) => tr.arrays.M.map((row) => row.map((x) => x !== -Infinity));

function heatmapItem(ctx, name, i) {  // one heatmap (its cells are styled when drawn)
  const { L, tr, resolved, view } = ctx, stage = STAGE[name];
  const matrix = stageMatrix(tr, name, i);
  let title = L[`stage.${name}`];
  if (!ctx.hasMask && resolved.mask === "none") title = title.replace(" + M", "");
  if (stage.heads === "query" || (stage.heads === "kv" && tr.g === tr.h)) title += " · " + fill(L.head_n, { n: i + 1 });
  else if (stage.heads === "kv") title += " · " + fill(L.kv_head_n, { n: tr.kv[i] + 1 });
  let hl = null;
  if (stage.highlight === "cell" && view.picks.includes("key")) hl = [resolved.query, resolved.key];  // a picked cell
  else if (stage.highlight === "row" && view.picks.includes("row")) hl = [resolved.row, null];
  const cap = (axis) => (AXIS_WORDS[axis] ? L[AXIS_WORDS[axis]] : "");
  const rows = matrix.length, cols = matrix[0].length;
  return {
    type: "heatmap", key: `${name}@${i}`, name, head: i, title, matrix, kind: stage.kind,
    range: stage.kind === "scores" ? ctx.scores : null, rowCap: cap(stage.axes[0]), colCap: cap(stage.axes[1]),
    rowLabels: tokenLabels(resolved, stage.axes[0], rows),
    colLabels: stage.axes[1] === "component" ? Array.from({ length: cols }, (_, c) => String(c + 1))
      : tokenLabels(resolved, stage.axes[1], cols),
    bars: bars(tr, stage, i, cols), hl,
    allowed: stage.axes[0] === "query" && stage.axes[1] === "key" ? seesKey(tr) : null,  // cellStyle's
  };
}

const V = (x, kind = "values") => formatValue(x, kind);
const paren = (t) => (t.startsWith(RULES.minus) ? `(${t})` : t);
const is = (x, t) => `${equalsSign(x, t)} ${t}`;

function dotHtml(ctx, i) {  // the picked score as a dot product, written out
  const { L, tr, resolved, lang, view } = ctx, q = resolved.query, k = resolved.key, n = resolved.firstQuery + q;
  const Q = tr.arrays.Qh[i][q], K = tr.arrays.Kh[tr.kv[i]][k], score = tr.arrays.S[i][q][k];
  const lines = [
    `${esc(fill(L.query_n, { n, nth: ordinal(n, lang) }))} = ${formatRow(Q)} · `
      + `${esc(fill(L.key_n, { n: k + 1, nth: ordinal(k + 1, lang) }))} = ${formatRow(K)}`,
    `${esc(L.score)}: ${dotProductText(Q, K)} <b>${is(score, V(score, "scores"))}</b>`,
  ];
  const scaled = view.has("S_scaled") ? tr.arrays.S_scaled[i][q][k] : null;
  if (scaled !== null) {
    lines.push(`${esc(L.scaled)}: ${V(score, "scores")} ÷ √${V(tr.dh)} <b>${is(scaled, V(scaled, "scores"))}</b>`);
  }
  if (view.has("M") || view.has("S_masked")) {
    const base = scaled !== null ? scaled : score, m = tr.arrays.M[q][k], masked = tr.arrays.S_masked[i][q][k];
    lines.push(`${esc(L.masked)}: ${V(base, "scores")} + ${paren(V(m, "scores"))} `
      + `<b>${is(masked, V(masked, "scores"))}</b>`);
  }
  const title = fill(L.dot, { i: n, j: k + 1, ith: ordinal(n, lang), jth: ordinal(k + 1, lang) });
  return [title, '<div class="al-bdown al-dot">' + lines.map((x) => `<div class="al-note">${x}</div>`).join("") + "</div>"];
}

function softmaxHtml(ctx, i) {  // the picked row's softmax, written out
  const { L, tr, resolved, lang } = ctx, r = resolved.row, n = resolved.firstQuery + r;
  const scores = tr.arrays.S_masked[i][r], weights = tr.arrays.P[i][r], seen = seesKey(tr)[r];
  let exps = scores.map(exp), shift = null;  // e^s as the article writes them; e^−∞ = 0
  const over = exps.some((e, j) => e === Infinity && Number.isFinite(scores[j]));  // ∞ / ∞ is no weight,
  if (over || exps.some((e, j) => e === 0 && Number.isFinite(scores[j]))) {  // nor 0 / 0 (e^−7000): e^(s − m)
    shift = paren(V(Math.max(...scores.filter(Number.isFinite)), "scores"));
    exps = rowExponentials([scores])[0];
  }
  const total = sumOf(exps), totalText = formatApprox(total);
  const body = scores.map((x, j) => {
    const e = exps[j], p = weights[j], expText = formatApprox(e, seen[j]);
    const power = V(x, "scores") + (shift && Number.isFinite(x) ? ` ${RULES.minus} ${shift}` : "");
    const weight = (total > 0 ? `${expText} / ${totalText} ` : "") + is(p, formatValue(p, "weights", seen[j]));
    return `<tr><th>${j + 1}</th><td>${V(x, "scores")}</td><td>e<sup>${power}</sup> ${is(e, expText)}</td>`
      + `<td>${weight}</td></tr>`;
  }).join("");
  const weightSum = sumOf(weights);
  const html = `<table class="al-bd al-softmax"><tr><th>${esc(L.key)}</th><th>${esc(L.scores)}</th><th>exp</th>`
    + `<th>${esc(L.weights)}</th></tr>${body}<tr class="al-total"><th>${esc(L.sum)}</th><td></td>`
    + `<td>${is(total, totalText)}</td><td>${is(weightSum, formatApprox(weightSum))}</td></tr></table>`
    + (shift ? `<div class="al-note">${esc(fill(over ? L.softmax_shifted : L.softmax_shifted_small, { m: shift }))}</div>` : "");
  return [fill(L.softmax, { i: n, ith: ordinal(n, lang) }), html];
}

function weightedSumHtml(ctx, i) {  // the picked row's weighted sum of Value rows
  const { L, tr, resolved, lang } = ctx, r = resolved.row, n = resolved.firstQuery + r;
  const weights = tr.arrays.P[i][r], values = tr.arrays.Vh[tr.kv[i]], out = tr.arrays.O[i][r], seen = seesKey(tr)[r];
  const W = (p, j) => formatValue(p, "weights", seen[j]);
  const output = fill(L.output_n, { n, nth: ordinal(n, lang) });
  const body = weights.map((p, j) => `<tr><th>${esc(L.value)} ${j + 1}</th><td>${W(p, j)} ×</td>`
    + `<td>${formatRow(values[j])}</td></tr>`).join("");
  const terms = weights.map((p, j) => `${W(p, j)}·V<sub>${j + 1}</sub>`).join(" + ");
  const exact = weights.every((p, j) => equalsSign(p, W(p, j)) === "=") && out.every((o) => equalsSign(o, V(o)) === "=");
  const sign = exact ? "=" : "≈";
  const html = `<table class="al-bd al-wsum"><tr><td></td><th>${esc(L.weight)}</th><th>${esc(L.value)}</th></tr>`
    + `${body}<tr class="al-total"><th>${esc(output)}</th><td>${sign}</td><td>${formatRow(out)}</td></tr></table>`
    + `<div class="al-note">${esc(output)} ${sign} ${terms}</div>`;
  return [fill(L.weighted_sum, { i: n, ith: ordinal(n, lang) }), html];
}

const BREAKDOWN_HTML = { dot: dotHtml, softmax: softmaxHtml, weighted_sum: weightedSumHtml };

function breakdownItem(ctx, name, i) {
  const [title, body] = BREAKDOWN_HTML[name](ctx, i);
  return { type: "breakdown", key: `${name}@${i}`, name, head: i, title,
    html: `<div class="al-title">${esc(title)}</div>${body}` };
}

function sectionOf(ctx, name) {  // a whole-trace section
  const { L, tr } = ctx;
  if (name === "scaling_note") {
    const root = V(Math.sqrt(tr.dh));
    return { key: name, title: "", color: null, items: [{ type: "note", key: name,
      text: fill(L.scaling_note, { dh: tr.dh, root, eq: equalsSign(Math.sqrt(tr.dh), root) }) }] };
  }
  const panels = { split: [["Q", 0], ["K", 0], ["V", 0]], concat: [["H", 0]],
    outputs: Array.from({ length: tr.h }, (_, i) => ["O", i]) }[name];
  return { key: name, title: L[name], color: null, items: panels.map(([x, i]) => heatmapItem(ctx, x, i)) };
}

function headSection(ctx, i) {  // one head's section
  const { L, tr, view } = ctx;
  let title = fill(L.head_n, { n: i + 1 });
  if (tr.g !== tr.h) title += " · " + fill(L.kv_head_n, { n: tr.kv[i] + 1 });
  const items = view.headStages.map((x) => heatmapItem(ctx, x, i))
    .concat(view.items.filter((x) => BREAKDOWN_HTML[x]).map((x) => breakdownItem(ctx, x, i)));
  return { key: `head@${i}`, title, color: headColour(i), items };
}

// The picture of trace `tr` as resolved state `resolved` shows it.
function pictureOf(tr, resolved, view, L, lang, hasMask) {
  const scoreStages = view.items.filter((x) => STAGE[x] && STAGE[x].kind === "scores");
  const ctx = { tr, resolved, view, L, lang, hasMask,
    scores: valueRange("scores", scoreStages.flatMap((x) => (STAGE[x].heads ? tr.arrays[x] : [tr.arrays[x]]))) };
  const sections = [];
  let placed = false;
  for (const item of view.items) {
    if (LOOK.sections.includes(item)) sections.push(sectionOf(ctx, item));
    else if (view.traceStages.includes(item)) {
      sections.push({ key: item, title: L[`stage.${item}`], color: null, items: [heatmapItem(ctx, item, 0)] });
    } else if (!placed) {
      placed = true;
      if (resolved.head === -1 && view.compared.length) {
        sections.push({ key: "compare", title: `${L.all_heads} · ${L[`stage.${resolved.compare}`]}`, color: null,
          items: Array.from({ length: tr.h }, (_, i) => heatmapItem(ctx, resolved.compare, i)) });
      } else {
        const heads = resolved.head === -1 ? Array.from({ length: tr.h }, (_, i) => i) : [resolved.head];
        for (const i of heads) sections.push(headSection(ctx, i));
      }
    }
  }
  return { shape: shapesText(tr), note: noteText(resolved, L), sections };
}
