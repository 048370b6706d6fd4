// ---- controls.js: the explorer's controls, native and labelled, owned by the page ---------------------------------
//
// controlSpecs lists every control for a state (name, type, label, value, choices or bounds, shown or not; the
// parity test holds the list to the widget's); Controls puts them on the page as <input type=range>, <select>,
// text boxes, a checkbox and buttons, each with data-control="<name>", and keeps them in step with the state.

const PARAM_LABEL = (name) => `param.${name}`;
const tokensFrom = (first, n) => Array.from({ length: n }, (_, i) => [i, String(first + i)]);

function offeredMasks(view, mask) {  // the view's masks, and the one asked for
  return view.masks.length ? [...new Set([...view.masks, mask])] : [];
}

function controlSpecs(ex) {  // every control of the state on screen, in order
  const { view, state, on, data, L } = ex, out = [];
  const add = (group, name, type, value, more = {}) => out.push({ group, name, type, value,
    label: L[LOOK.labels[name] || (name.includes(".") ? PARAM_LABEL(name) : name)], options: null, min: null, max: null,
    visible: true, ...more });
  if (data.own && data.own.tokens !== undefined) add("source", "tokens", "text", data.own.tokens);  // learned.js
  if (!data.own) {
    add("source", "source", "select", on.source, { options: [["article", L.article], ["random", L.random]] });
    add("source", "seed", "text", String(on.seed));
    add("source", "reset", "button", null);
    for (const name of Object.keys(LOOK.limits)) {
      add("sizes", name, "range", state[name], { min: LOOK.limits[name][0], max: LOOK.limits[name][1] });
    }
    if (view.kv) {
      add("sizes", "kv_heads", "select", on.g, { options: divisors(on.h).map((g) => [g, String(g)]),
        visible: on.h > 1 });
    }
    if (view.queries) add("sizes", "queries", "range", on.T_q, { min: 1, max: on.T });
  }
  const offered = offeredMasks(view, state.mask);
  if (offered.length) {
    add("mask", "mask", "select", on.mask, { options: offered.map((m) => [m, L[`mask.${m}`]]) });
    if (view.queries) {
      add("mask", "align", "select", state.align, { options: LOOK.aligns.map((a) => [a, L[`align.${a}.choice`]]),
        visible: on.mask !== "custom" });
    }
    for (const m of offered) {
      for (const p of maskParams(data, m)) {
        const name = `${m}.${p.name}`, value = paramValue(p, state[name], on.T), visible = m === on.mask;
        if (p.type === "lengths") {
          const options = data.masks[m].options[on.T - 1][maskParams(data, m).indexOf(p)]
            .map(([key, label]) => [key.split("+").map(Number), label]);
          add("mask", name, "select", value, { options, visible });
        } else {
          add("mask", name, "range", value, { min: p.lo, max: Math.max(p.lo, on.T + p.hiT), visible });
        }
      }
    }
  }
  if (view.hasHeads) {
    const heads = Array.from({ length: on.h }, (_, i) => [i, fill(L.head_n, { n: i + 1 })]);
    if (on.h > 1) heads.push([-1, L.all_heads]);
    add("picks", "head", "select", on.head, { options: heads });
    if (view.compared.length) {
      add("picks", "compare", "select", on.compare, { options: view.compared.map((n) => [n, L[`stage.${n}`]]),
        visible: on.head === -1 });
    }
  }
  const picked = { query: [on.query, tokensFrom(on.firstQuery, on.T_q)], key: [on.key, tokensFrom(1, on.T)],
    row: [on.row, tokensFrom(on.firstQuery, on.T_q)] };
  for (const name of view.picks) add("picks", name, "select", picked[name][0], { options: picked[name][1] });
  add("picks", "marks", "check", on.marks);
  if (data.own) {
    const matrix = state.edit_matrix, rows = data.own[matrix].length;
    add("edit", "edit_matrix", "select", matrix, { options: ["Q", "K", "V"].map((m) => [m, m]) });
    add("edit", "edit_token", "select", Math.min(state.edit_token, rows - 1),
      { options: tokensFrom(matrix === "Q" ? on.firstQuery : 1, rows) });
    add("edit", "edit_row", "text", null);
    add("edit", "apply", "button", null);
  }
  return out;
}

const optionKey = (v) => (Array.isArray(v) ? v.join("+") : String(v));

class Controls {
  constructor(ex) {
    this.ex = ex;
    this.node = document.createElement("div");
    this.node.className = "al-controls";
    this.rows = {};
    this.parts = {};
  }

  make(spec) {  // one control: a labelled native form element with data-control
    const ex = this.ex, name = spec.name;
    let wrap, input, out = null, note = null;
    if (spec.type === "button") {
      wrap = input = document.createElement("button");
      input.type = "button";
      input.textContent = spec.label;
      input.addEventListener("click", () => ex.moved(name, null));
    } else {
      wrap = document.createElement("label");
      wrap.className = `al-ctl al-${spec.type}`;
      const words = document.createElement("span");
      words.className = "al-ctl-label";
      words.textContent = spec.label;
      input = document.createElement(spec.type === "select" ? "select" : "input");
      if (spec.type === "range") {
        input.type = "range";
        input.step = 1;
        out = document.createElement("output");
        input.addEventListener("input", () => ex.moved(name, Number(input.value)));
      } else if (spec.type === "check") {
        input.type = "checkbox";
        input.addEventListener("change", () => ex.moved(name, input.checked));
      } else if (spec.type === "text") {
        input.type = "text";
        input.autocomplete = "off";
        input.spellcheck = false;
        if (name === "seed") input.inputMode = "numeric";
        const commit = () => ex.moved(name, input.value);
        input.addEventListener("change", commit);
        input.__alKeydown = (e) => {  // mount.js routes the keys pressed in a view
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          }
        };
      } else {
        input.addEventListener("change", () => {
          const choice = (this.specs[name].options || []).find(([v]) => optionKey(v) === input.value);
          if (choice) ex.moved(name, choice[0]);
        });
      }
      if (spec.type === "check") wrap.append(input, words);
      else wrap.append(words, input);
      if (out) wrap.append(out);
      if (name === "seed" || name === "edit_row" || name === "tokens") {
        note = document.createElement("span");
        note.className = "al-msg";
        note.setAttribute("role", "status");
        note.setAttribute("aria-live", "polite");
      }
    }
    input.dataset.control = name;
    return { wrap, input, out, note, optionsKey: null };
  }

  update(specs) {
    this.specs = Object.fromEntries(specs.map((s) => [s.name, s]));
    for (const [name, part] of Object.entries(this.parts)) {
      if (this.specs[name]) continue;  // a mask no longer offered: its parameter must not stay on screen
      part.wrap.remove();
      part.note?.remove();
      delete this.parts[name];
    }
    for (const spec of specs) {
      let part = this.parts[spec.name];
      if (!part) {
        part = this.parts[spec.name] = this.make(spec);
        let row = this.rows[spec.group];
        if (!row) {
          row = this.rows[spec.group] = document.createElement("div");
          row.className = `al-ctlrow al-ctlrow-${spec.group}`;
          this.node.append(row);
        }
        row.append(part.wrap);
        if (part.note) row.append(part.note);
        if (spec.name === "dh") {
          this.dLabel = document.createElement("output");
          this.dLabel.className = "al-d";
          row.append(this.dLabel);
        }
      }
      const input = part.input;
      part.wrap.hidden = !spec.visible;
      if (spec.type === "range") {
        if (input.min !== String(spec.min)) input.min = spec.min;
        if (input.max !== String(spec.max)) input.max = spec.max;
        if (input.value !== String(spec.value)) input.value = spec.value;
        setText(part.out, String(spec.value));
      } else if (spec.type === "select") {
        const key = spec.options.map(([v, l]) => optionKey(v) + "=" + l).join("|");
        if (key !== part.optionsKey) {
          input.textContent = "";
          for (const [v, label] of spec.options) input.add(new Option(label, optionKey(v)));
          part.optionsKey = key;
        }
        if (input.value !== optionKey(spec.value)) input.value = optionKey(spec.value);
      } else if (spec.type === "check") {
        input.checked = spec.value;
      } else if (spec.type === "text" && spec.value !== null && document.activeElement !== input) {
        input.value = spec.value;
      }
    }
    if (this.dLabel) setText(this.dLabel, `${this.ex.L.d} = ${this.ex.on.d}`);
  }

  say(name, kind, words) {  // the line beside the seed box, the learned model's input or under the row editor
    const note = this.parts[name]?.note;
    if (!note) return;
    note.textContent = words;
    note.className = `al-msg al-msg-${kind}`;
  }
}
