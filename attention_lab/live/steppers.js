// ---- steppers.js: the step widgets of notebooks 10–11 -------------------------------------------------------------
//
// Python sends every record once, for every size the controls offer (−∞ as null). This file computes nothing:
// it selects the record the controls ask for and draws it with heatmap.js (labels and colours by formats.js and
// colors.js, as the explorer's); the stepper tests compare what it shows with the records.

const stepperMatrix = (rows) => rows.map((row) => row.map((x) => (x === null ? -Infinity : x)));
const numbered = (n, first = 1) => Array.from({ length: n }, (_, k) => String(first + k));
const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);

function stepperOnScreen(data, state) {  // the asked-for state fitted to the sizes
  const T = clamp(state.T, 1, data.Tmax), head = clamp(state.head, 0, data.h - 1);
  const block = clamp(state.block ?? 1, 1, T);
  const steps = data.kind === "decode" ? T : data.sizes[T - 1].blocks[block - 1].steps.length;
  return { T, head, block, step: clamp(state.step, 0, steps - 1), row: clamp(state.row ?? 0, 0, T - 1), steps };
}

function stepperHeatmap(name, title, rows, kind, o) {  // one heatmap, its cells styled when drawn
  return { type: "heatmap", key: `${name}@${o.head ?? 0}`, name, head: o.head ?? 0, title, kind, range: null,
    matrix: stepperMatrix(rows), rowCap: o.rowCap || "", colCap: o.colCap || "", rowLabels: o.rowLabels,
    colLabels: o.colLabels, bars: null, hl: o.hl ?? null, allowed: o.allowed ?? null };  // allowed: cellStyle's
}

function decodePicture(data, state, L) {  // one decoding step: the new Query row against the cache
  const resolved = stepperOnScreen(data, state), T = resolved.T, t = resolved.step, i = resolved.head;
  const j = data.kv[i], n = t + 1;
  const keys = numbered(n), comps = numbered(data.dh), one = { rowLabels: [String(n)], head: i };
  const headName = fill(L.head_n, { n: i + 1 });
  const shown = data.g === data.h ? headName : fill(L.kv_head_n, { n: j + 1 });
  const panels = [
    stepperHeatmap("q", fill(L.new_query, { t: n }), [data.q[i][t]], "values", { ...one, colLabels: comps }),
    stepperHeatmap("K_cache", L.K_cache, data.K[j].slice(0, n), "values",
      { rowLabels: keys, colLabels: comps, rowCap: L.key, hl: [t, null], head: i }),
    stepperHeatmap("V_cache", L.V_cache, data.V[j].slice(0, n), "values",
      { rowLabels: keys, colLabels: comps, rowCap: L.key, hl: [t, null], head: i }),
    stepperHeatmap("S_scaled_row", fill(L.row_scores, { t: n }), [data.S[t][i]], "scores",
      { ...one, colLabels: keys, colCap: L.key }),
    stepperHeatmap("P_row", fill(L.row_weights, { t: n }), [data.P[t][i]], "weights",  // the cache: every key seen
      { ...one, colLabels: keys, colCap: L.key, allowed: [keys.map(() => true)] }),
    stepperHeatmap("O_row", fill(L.row_output, { t: n }), [data.O[t][i]], "values", { ...one, colLabels: comps }),
    stepperHeatmap("P_trace", fill(L.full_row, { t: n }), [data.P_full[T - 1][i][t]], "weights",  // causal: j ≤ t
      { ...one, colLabels: numbered(T), colCap: L.key, allowed: [numbered(T).map((_, k) => k <= t)] }),
  ];
  const size = data.g === 1 ? fill(L.cache_size_one, { n, values: data.cache[t] })
    : fill(L.cache_size, { n, values: data.cache[t], g: data.g, shown, per: data.cache_head[t] });
  const notes = [fill(L.decode_what, { t: n }), size,
    fill(data.same[T - 1][t] ? L.full_row_same : L.full_row_differs, { t: n }),
    fill(L.saved, { saved: data.saved[t], without: data.without[t], cached: data.cached[t] })];
  if (data.g !== data.h) notes.push(fill(L.kv_reads, { i: i + 1, j: j + 1, h: data.h, g: data.g }));
  return { title: `${headName} · ${fill(L.decode_step, { t: n, T })}`, color: data.colours[i], panels, notes,
    steps: T, step: t };
}

const keySpan = ([start, stop]) => (stop - start === 1 ? String(start + 1) : `${start + 1}–${stop}`);

function blockTitle(L, k, n, keys) {  // "block k of n: Key tokens a–b"
  return fill(keys[1] - keys[0] === 1 ? L.block_of_one : L.block_of, { k, n, keys: keySpan(keys) });
}

const RUNNING = [["m_old", "m_old", "scores"], ["m", "m_new", "scores"], ["rescale", "rescale", "weights"],
  ["l", "running_sum", "values"]];

function blockwisePicture(data, state, L) {  // one block of the online softmax
  const resolved = stepperOnScreen(data, state), k = resolved.step;
  const { T, head: i, block: b, row: r, steps: n } = resolved;
  const size = data.sizes[T - 1], blocks = size.blocks[b - 1], record = blocks.steps[k];
  const [start, stop] = record.keys, tokens = numbered(T), comps = numbered(data.dh), hl = [r, null];
  const panels = [stepperHeatmap("S_block", L.block_scores, record.S[i], "scores",
    { rowLabels: tokens, colLabels: numbered(stop - start, start + 1), rowCap: L.query, colCap: L.key, hl, head: i })];
  for (const [field, word, kind] of RUNNING) {
    panels.push(stepperHeatmap(field, L[word], record[field][i].map((x) => [x]), kind,
      { rowLabels: tokens, colLabels: [""], hl, head: i }));
  }
  panels.push(stepperHeatmap("O", L.running_output, record.O[i], "values",
    { rowLabels: tokens, colLabels: comps, hl, head: i }));
  const last = k === n - 1, notes = [L.rule_m, L.rule_l, L.rule_O];
  if (last) {
    panels.push(stepperHeatmap("O_trace", L.full_output, size.O[i], "values",
      { rowLabels: tokens, colLabels: comps, hl, head: i }));
    notes.push(blocks.equal ? L.last_block : L.last_block_differs);
  }
  notes.push(b < T ? fill(L.never_full, { T, b }) : fill(L.one_block, { T }));
  const at = (x) => (x === null ? -Infinity : x);
  const trail = blocks.steps.slice(0, k + 1).map((s, m) => [String(m + 1), keySpan(s.keys),
    formatRow(s.S[i][r].map(at), "scores"), ...RUNNING.map(([f, , kind]) => formatValue(at(s[f][i][r]), kind)),
    formatRow(s.O[i][r].map(at))]);
  return { title: `${fill(L.head_n, { n: i + 1 })} · ${blockTitle(L, k + 1, n, record.keys)}`,
    color: data.colours[i], panels, notes, steps: n, step: k, trailTitle: fill(L.trail_title, { i: r + 1 }), trail };
}

// ---- on screen -----------------------------------------------------------------------------------------------

let stepperCount = 0;

class Stepper {
  // model: anywidget's in a notebook, mount.js's localModel in a page; "config" is sent once, "state" is synced
  constructor(node, model) {
    const config = model.get("config");
    this.model = model;
    this.data = config.data;
    this.L = config.words;
    this.id = `al-stepper-${++stepperCount}`;
    this.blockwise = this.data.kind === "blockwise";
    this.picture = this.blockwise ? blockwisePicture : decodePicture;
    this.root = document.createElement("div");
    this.root.className = "al-view al-live al-stepper";
    this.root.dataset.kind = this.data.kind;
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", this.blockwise ? this.L.blockwise_label : this.L.decode_label);
    this.root.dataset.lmSuppressShortcuts = "true";  // as the explorer: the arrow keys move a slider, not the cell
    for (const type of ["keydown", "keyup", "keypress"]) this.root.addEventListener(type, (e) => e.stopPropagation());
    this.controls = document.createElement("div");
    this.controls.className = "al-step-controls";
    this.heading = document.createElement("div");
    this.heading.className = "al-section";
    this.row = document.createElement("div");
    this.row.className = "al-row";
    this.notes = document.createElement("div");
    this.trail = document.createElement("div");
    this.trail.className = "al-trail-wrap";
    this.root.append(this.controls, this.heading, this.row, this.notes, this.trail);
    node.append(this.root);
    this.heatmaps = new Map();
    this.inputs = {};
    this.buildControls();
    this.redraw = () => this.draw();
    model.on("change:state", this.redraw);
    this.width = 0;
    this.resized = new ResizeObserver(() => {
      const width = this.row.clientWidth;
      if (width && width !== this.width) { this.width = width; this.draw(); }
    });
    this.resized.observe(this.root);
    this.draw();
  }

  destroy() {
    this.model.off("change:state", this.redraw);
    this.resized.disconnect();
  }

  range(name, label, lo) {
    const wrap = document.createElement("label"), input = document.createElement("input");
    const out = document.createElement("output");
    input.type = "range";
    input.min = lo;
    input.step = 1;
    input.dataset.control = name;
    input.addEventListener("input", () => this.move(name, +input.value));
    wrap.append(label + " ", input, out);
    this.controls.append(wrap);
    this.inputs[name] = { input, out, wrap };
  }

  select(name, label) {
    const wrap = document.createElement("label"), input = document.createElement("select");
    input.dataset.control = name;
    input.addEventListener("change", () => this.move(name, +input.value));
    wrap.append(label + " ", input);
    this.controls.append(wrap);
    this.inputs[name] = { input, wrap };
  }

  button(name, label, delta) {
    const input = document.createElement("button");
    input.type = "button";
    input.dataset.control = name;
    input.textContent = label;
    input.addEventListener("click", () => this.move("step", this.resolved.step + delta));
    this.controls.append(input);
    this.inputs[name] = { input };
  }

  buildControls() {
    const L = this.L, data = this.data;
    this.range("T", L.step_T, 1);
    this.inputs.T.input.max = data.Tmax;
    if (this.blockwise) {
      this.range("block", L.block, 1);
      this.select("row", L.follow_row);
    }
    this.select("head", L.head);
    const heads = this.inputs.head.input;
    for (let i = 0; i < data.h; i++) heads.add(new Option(fill(L.head_n, { n: i + 1 }), String(i)));
    this.inputs.head.wrap.hidden = data.h === 1;
    this.button("previous", L.previous_step, -1);
    this.button("next", L.next_step, +1);
  }

  move(name, value) {  // one control moved: the asked-for state, drawn at once, then sent to Python if it listens
    const state = { ...this.model.get("state"), [name]: value };
    if (name === "block") state.step = 0;  // new blocks: from the first one
    if (name === "step") state.step = clamp(value, 0, this.resolved.steps - 1);
    this.model.set("state", state);  // draws (change:state)
    try {
      this.model.save_changes();
    } catch (e) {  // a notebook reopened without its kernel: the widget has no comm, and needs none
      if (!/comm/i.test(String(e))) throw e;
    }
  }

  pick(name, i) {  // a click or Enter on a cell: the blockwise widget follows that Query row
    if (this.blockwise) this.move("row", i);
  }

  draw() {
    const state = this.model.get("state"), data = this.data;
    this.resolved = stepperOnScreen(data, state);
    const p = this.picture(data, state, this.L), resolved = this.resolved;
    const { T, block, row } = this.inputs;
    T.input.value = resolved.T;
    T.out.value = resolved.T;
    if (block) {
      block.input.max = resolved.T;
      block.input.value = resolved.block;
      block.out.value = resolved.block;
      const rows = row.input;
      while (rows.options.length > resolved.T) rows.remove(rows.options.length - 1);
      while (rows.options.length < resolved.T) rows.add(new Option(String(rows.options.length + 1), String(rows.options.length)));
      rows.value = String(resolved.row);
    }
    this.inputs.head.input.value = String(resolved.head);
    this.inputs.previous.input.disabled = resolved.step === 0;
    this.inputs.next.input.disabled = resolved.step === resolved.steps - 1;
    this.heading.textContent = "";
    const swatch = document.createElement("span");
    swatch.className = "al-swatch";
    swatch.style.background = p.color;
    this.heading.append(swatch, p.title);
    this.drawPanels(p.panels);
    this.notes.textContent = "";
    for (const line of p.notes) {
      const div = document.createElement("div");
      div.className = "al-note";
      div.textContent = line;
      this.notes.append(div);
    }
    if (this.blockwise) this.drawTrail(p);
  }

  drawPanels(panels) {
    const width = this.row.clientWidth || 800, keep = new Set();
    let prev = null;
    for (const item of panels) {
      let hm = this.heatmaps.get(item.name);
      if (!hm) {
        hm = new Heatmap(this, `${this.id}-${item.name}`);
        this.heatmaps.set(item.name, hm);
      }
      keep.add(item.name);
      hm.draw(item, width, false);
      const want = prev ? prev.nextSibling : this.row.firstChild;
      if (want !== hm.node) this.row.insertBefore(hm.node, want);
      prev = hm.node;
    }
    for (const [name, hm] of this.heatmaps) if (!keep.has(name)) hm.node.remove();
  }

  drawTrail(p) {
    const L = this.L;
    const heads = [L.trail_block, L.key, L.trail_scores, L.m_old, L.m_new, L.rescale, L.running_sum, L.running_output];
    const table = document.createElement("table");
    table.className = "al-trail";
    const caption = table.createCaption();
    caption.className = "al-title";
    caption.textContent = p.trailTitle;
    const top = table.createTHead().insertRow();
    for (const h of heads) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = h;
      top.append(th);
    }
    const body = table.createTBody();
    p.trail.forEach((cells, m) => {
      const tr = body.insertRow();
      if (m === p.trail.length - 1) tr.className = "al-now";
      cells.forEach((text, c) => {
        const cell = c === 0 ? document.createElement("th") : tr.insertCell();
        if (c === 0) { cell.scope = "row"; tr.append(cell); }
        cell.textContent = text;
      });
    });
    this.trail.replaceChildren(table);
  }
}

MOUNTS.decode = (node, model) => new Stepper(node, model);
MOUNTS.blockwise = (node, model) => new Stepper(node, model);
