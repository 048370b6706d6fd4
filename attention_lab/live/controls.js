// ---- controls.js: the explorer's controls, native and labelled, owned by the page ---------------------------------
//
// controlSpecs evaluates the table of controls (LOOK.live.controls) for a state: name, type, label, value, choices
// or bounds, shown or not. Controls puts them on the page as <input type=range>, <select>, text boxes, a checkbox
// and buttons, each with data-control="<name>", and keeps them in step with the state.

function offeredMasks(view, mask) {  // the view's masks, and the one asked for
  return view.masks.length ? [...new Set([...view.masks, mask])] : [];
}

function optionsOf(how, context, L) {  // [[value, label]] of a control's options entry (LOOK.live.controls)
  const [kind, ...args] = how;
  if (kind === "heads") {
    const heads = Array.from({ length: context.h },
      (_, i) => [i, fill(L.head_n, { n: pickNumber("head", i, context) })]);
    return context.h > 1 ? [...heads, [-1, L.all_heads]] : heads;
  }
  const [a, b] = args.map((x) => evaluateRule(x, context));
  if (kind === "tokens") return Array.from({ length: b }, (_, i) => [i, String(pickNumber(a, i, context))]);
  return a.map((x) => [x, b === null ? String(x) : L[b.replace("{}", x)]]);
}

function controlContext(ex) {  // the names the controls' expressions read
  const { view, state, resolved, data } = ex;
  return { ...resolved, first_query: resolved.firstQuery, asked: state, mine: Boolean(data.own),
    tokens: data.own?.tokens ?? null, aligns: LOOK.aligns, aligned: LOOK.aligned, matrices: ["Q", "K", "V"],
    rows: data.own ? data.own[state.edit_matrix].length : null,
    view: { ...view, masks: offeredMasks(view, state.mask) } };  // the view's data (views.view_data)
}

function controlSpecs(ex) {  // every control of the state on screen, in order: LOOK.live.controls evaluated
  const context = controlContext(ex), L = ex.L, out = [];
  for (const c of LOOK.live.controls) {
    if (!evaluateRule(c.when, context)) continue;
    if (c.type === "params") {
      out.push(...paramSpecs(c, context, ex));
      continue;
    }
    const value = evaluateRule(c.value, context);
    out.push({ group: c.group, name: c.name, type: c.type, label: L[c.label],
      value: c.type === "text" && value !== null ? String(value) : value,
      options: c.options && optionsOf(c.options, context, L), min: evaluateRule(c.min, context),
      max: evaluateRule(c.max, context), visible: Boolean(evaluateRule(c.visible, context)) });
  }
  return out;
}

function paramSpecs(c, context, ex) {  // the controls of every parameter of the masks offered (LOOK.live.params)
  const out = [], T = context.T;
  for (const m of context.view.masks) {
    maskParams(ex.data, m).forEach((p, k) => {
      const name = `${m}.${p.name}`, rule = LOOK.live.params[p.type], where = { p, wanted: ex.state[name] ?? null, T };
      const spec = { group: c.group, name, label: ex.L[`param.${name}`], value: paramValue(p, ex.state[name], T),
        options: null, min: null, max: null, visible: m === context.mask };
      if (p.type === "lengths") {  // the mask's table has the choices (data.mask_tables)
        spec.type = "select";
        spec.options = ex.data.masks[m].options[T - 1][k].map(([key, label]) => [key.split("+").map(Number), label]);
      } else {
        Object.assign(spec, { type: "range", min: evaluateRule(rule.min, where), max: evaluateRule(rule.max, where) });
      }
      out.push(spec);
    });
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
    return { wrap, input, out, note, optionList: null };
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
        const list = spec.options.map(([v, label]) => [optionKey(v), label]), had = part.optionList || [];
        if (list.length !== had.length || list.some(([v, l], k) => v !== had[k][0] || l !== had[k][1])) {
          // patched in place, against what each option was given (no DOM read): T 5 → 6 adds one token's option
          const options = input.options;
          list.forEach(([value, label], k) => {
            const option = options[k];
            if (!option) input.add(new Option(label, value));
            else {
              if (had[k]?.[0] !== value) option.value = value;
              if (had[k]?.[1] !== label) option.text = label;
            }
          });
          while (options.length > list.length) input.remove(options.length - 1);
          part.optionList = list;
        }
        if (input.value !== optionKey(spec.value)) input.value = optionKey(spec.value);
      } else if (spec.type === "check") {
        input.checked = spec.value;
      } else if (spec.type === "text" && spec.value !== null && document.activeElement !== input) {
        input.value = spec.value;
      }
    }
    if (this.dLabel) setText(this.dLabel, `${this.ex.L.d} = ${this.ex.resolved.d}`);
  }

  say(name, kind, words) {  // the line beside the seed box, the learned model's input or under the row editor
    const note = this.parts[name]?.note;
    if (!note) return;
    note.textContent = words;
    note.className = `al-msg al-msg-${kind}`;
  }
}
