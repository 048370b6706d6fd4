// ---- explorer.js: the explorer on a page: controls, the picture, and the model it shares with Python -----------
//
// `model` is anywidget's (in a notebook) or mount.js's own (in a page with no Python): get/set/on/save_changes.
// A move of a control redraws at once in the page (compute.js computes every stage from the numbers sent once)
// and is then sent as the model's `state`, so Python's `ex.trace` follows; a state set from Python redraws it.
// The layout follows the width it is given (a ResizeObserver): every heatmap fits it, nothing scrolls sideways.
// A move is painted in the next frame, once however many moves came before it (a held key never queues), and
// only the heatmaps and breakdowns on screen are patched in it; those near the screen just after it, the others
// when they come near (heatmap.js: OnScreenPart).
// Key presses inside stay inside (mount.js), so a notebook's own shortcuts (↓ moves between cells) never see them.

const MARK_MS = 900;  // the change marks: dark, then faint after this, then gone after twice this
const NARROW_PX = 560;
const AHEAD_PX = 200;  // a part this close to the screen is drawn just after the move's frame, ready before it scrolls in
// A part this close is drawn in the move's frame, as if on screen: a move grows or shrinks the heatmaps above it by a
// row or two, so one that the move itself brings on screen (not a scroll) is drawn in that frame too.
const EDGE_PX = 48;

class ExplorerView {
  constructor(el, model) {
    this.model = model;
    this.config = model.get("config");
    this.data = { ...this.config.data };
    if (this.data.own) this.data.own = { ...this.data.own, ...(model.get("own") || {}) };
    this.lang = this.config.lang;
    this.L = LOOK.words[this.lang];
    this.view = viewInfo(this.config.view);
    this.state = { ...(model.get("state") || this.config.state) };
    this.parts = new Map();  // the heatmaps, breakdowns and notes drawn, by key
    this.sections = new Map();
    this.step = 0;
    this.width = 0;
    this.root = document.createElement("div");
    this.root.className = "al-live";
    this.root.setAttribute("role", "region");
    this.root.setAttribute("aria-label", this.L.explorer_label);
    // keys pressed inside stay here (mount.js: keepKeys), whatever the notebook around it does with keys
    this.controls = new Controls(this);
    this.shape = document.createElement("div");
    this.shape.className = "al-shape";
    this.note = document.createElement("div");
    this.note.className = "al-note al-source";
    this.body = document.createElement("div");
    this.body.className = "al-body";
    this.root.append(this.controls.node, this.shape, this.note, this.body);
    el.append(this.root);
    this.listeners = [["change:state", () => this.fromModel()], ["change:own", () => this.ownFromModel()],
      ["change:message", () => this.messageFromModel()]];
    for (const [name, fn] of this.listeners) model.on(name, fn);
    this.resize = new ResizeObserver(() => this.fit());
    this.resize.observe(this.root);
    this.onScreen = new IntersectionObserver((entries) => {
      for (const e of entries) if (e.target.alPart) e.target.alPart.visible = e.isIntersecting;
    }, { rootMargin: `${EDGE_PX}px 0px` });
    this.nearScreen = new IntersectionObserver((entries) => {
      for (const e of entries) e.target.alPart?.near(e.isIntersecting);
    }, { rootMargin: `${AHEAD_PX}px 0px` });
    this.width = this.root.clientWidth || 800;
    this.draw();
  }

  destroy() {
    if (this.frame) cancelAnimationFrame(this.frame);
    for (const timer of this.fading || []) clearTimeout(timer);
    this.resize.disconnect();
    this.onScreen.disconnect();
    this.nearScreen.disconnect();
    this.parts.clear();  // a catch-up still due finds nothing to draw
    for (const [name, fn] of this.listeners) this.model.off(name, fn);
  }

  fit() {  // the output's width changed: lay every heatmap out again for it, on screen or not (none may overflow)
    const width = this.root.clientWidth;
    if (width && Math.abs(width - this.width) >= 1) {
      this.width = width;
      this.draw(true);
    }
  }

  // ---- moves --------------------------------------------------------------------------------------------------

  moved(name, value) {  // a control moved in the page
    if (name === "reset") this.state = resetState(this.state, this.config.reset);
    else if (name === "apply" || name === "edit_row") return this.edit(this.controls.parts.edit_row.input.value);
    else if (name === "tokens") return learnTokens(this, value);  // learned.js
    else if (name === "seed") {
      const text = String(value).trim(), typed = seedOf(value);  // seedOf strips what Python strips
      if (typed === null) {
        const seed = this.now().seed;
        this.controls.say("seed", "bad", fill(this.L.seed_bad, { bad: text, hi: LOOK.maxSeed, seed }));
        this.controls.parts.seed.input.value = String(seed);
        return;
      }
      this.controls.say("seed", "ok", "");
      this.controls.parts.seed.input.value = String(typed);  // "１２" is shown as the seed it is, 12
      this.state = moved(this.state, name, typed, this.now());
    } else this.state = moved(this.state, name, value, this.now());
    this.later();
  }

  now() {  // what the state puts on screen, even before the next frame draws it
    return resolve(this.state, this.view, this.data);
  }

  later() {  // draw now, or, if this frame has a drawing already (moves faster than frames), once in the next
    if (this.frame) return;  // the drawing due in the next frame will show this move too
    if (!this.drewThisFrame) {
      this.drewThisFrame = true;
      requestAnimationFrame(() => { this.drewThisFrame = false; });
      this.draw();
      this.syncSoon();
      return;
    }
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      this.draw();
      this.syncSoon();
    });
  }

  syncSoon() {  // tell the model once the new picture is painted: the kernel's message is not the frame's work
    if (this.syncing) return;
    this.syncing = true;
    requestAnimationFrame(() => setTimeout(() => {
      this.syncing = false;
      this.sync();
    }, 0));
  }

  pick(name, i, j) {  // a click or an arrow key on cell (i, j): controls.pick_of
    const stage = STAGE[name];
    if (!stage || !stage.highlight) return;
    this.state = { ...this.state, query: i, row: i, ...(stage.axes[1] === "key" ? { key: j } : {}) };
    this.later();
  }

  setState(state) {  // for tests and pages: show this state (entries left out stay), every heatmap drawn at once
    this.state = { ...this.state, ...state };
    this.draw(true);
    this.sync();
  }

  sync() {
    this.setting = true;
    try {
      this.model.set("state", { ...this.state });
      this.model.save_changes();
    } finally {
      this.setting = false;
    }
  }

  fromModel() {
    if (this.setting) return;
    this.state = { ...this.model.get("state") };
    this.draw();
  }

  ownFromModel() {
    if (this.setting || !this.data.own) return;
    this.data.own = { ...this.data.own, ...this.model.get("own") };
    this.draw();
  }

  messageFromModel() {
    const m = this.model.get("message") || {};
    if (m.text) this.controls.say("edit_row", m.kind, m.text);
  }

  // ---- your own numbers: one row as text ------------------------------------------------------------------------

  editTarget() {
    const matrix = this.state.edit_matrix, rows = this.data.own[matrix].length;
    const token = Math.min(this.state.edit_token, rows - 1), first = matrix === "Q" ? this.resolved.firstQuery : 1;
    const what = fill(this.L.row_of, { matrix, n: first + token, nth: ordinal(first + token, this.lang) });
    return { matrix, token, what };
  }

  edit(typed) {  // widget.Explorer._edit: a malformed row, or one that would overflow, changes nothing
    const { matrix, token, what } = this.editTarget(), n = this.data.own[matrix][0].length;
    const own = rowPieces(typed).join(" ") === rowPieces(this.editShown).join(" ");  // the box's own rounded numbers
    if (own && this.editKey === matrix + token) return;
    let [row, problem] = parseRow(typed, n);
    const large = problem ? undefined : row.find((x) => Math.abs(x) > LOOK.largest);  // state.too_large
    if (large !== undefined) problem = ["edit_large", formatValue(large)];
    if (problem) {
      const [key, bad] = problem;
      this.controls.say("edit_row", "bad", fill(this.L[key], { what, n, m: bad, bad, largest: formatValue(LOOK.largest) }));
      return;
    }
    const edited = { ...this.data.own, [matrix]: this.data.own[matrix].map((r, t) => (t === token ? row : r)) };
    this.data.own = edited;
    this.controls.say("edit_row", "ok", fill(this.L.edit_done, { what, row: formatRow(row) }));
    this.editKey = null;
    this.draw();
    this.setting = true;
    try {
      this.model.set("own", { Q: edited.Q, K: edited.K, V: edited.V });
      this.model.save_changes();
    } finally {
      this.setting = false;
    }
  }

  // ---- the picture ----------------------------------------------------------------------------------------------

  draw(everything = false) {  // everything: the parts off screen too
    const resolved = this.resolved = resolve(this.state, this.view, this.data);
    const tr = traceOf(resolved, this.data);
    if (tr.overflow) {  // numbers beyond what the explorer takes (a page written by hand): say so, draw nothing
      this.note.textContent = fill(this.L.overflow_note, { largest: formatValue(LOOK.largest) });
      this.body.replaceChildren();
      this.parts.clear();
      this.sections.clear();
      this.onScreen.disconnect();  // the parts they watched are gone
      this.nearScreen.disconnect();
      return;
    }
    const hasMask = offeredMasks(this.view, this.state.mask).length > 0;
    const pic = this.picture = pictureOf(tr, resolved, this.view, this.L, this.lang, hasMask);
    this.controls.update(controlSpecs(this));
    if (this.data.own) this.fillEditRow();
    const narrow = this.width < NARROW_PX;
    this.root.classList.toggle("al-narrow", narrow);
    setText(this.shape, pic.shape);
    setText(this.note, pic.note);
    const width = this.width - 4, changed = [], seen = new Set();
    let prev = null;
    for (const section of pic.sections) {
      const part = this.section(section.key);
      setText(part.words, section.title);
      part.title.hidden = !section.title;
      part.swatch.hidden = !section.color;
      if (section.color) part.swatch.style.background = section.color;
      place(this.body, part.node, prev);
      prev = part.node;
      seen.add(section.key);
      let before = null;
      // "all heads": the heads' panels side by side, as many to a line as fit about 280 px each
      const across = section.key === "compare" ? Math.max(1, Math.min(section.items.length, Math.floor(width / 280))) : 1;
      const itemWidth = across > 1 ? Math.floor(width / across) - 18 : width;
      for (const item of section.items) {
        const node = this.itemNode(item, itemWidth, resolved.marks, changed, seen, everything);
        place(part.row, node, before);
        before = node;
      }
      while (before && before.nextSibling) before.nextSibling.remove();
    }
    while (prev && prev.nextSibling) prev.nextSibling.remove();
    for (const [key, part] of [...this.parts]) {
      if (seen.has("hm:" + key)) continue;
      this.onScreen.unobserve(part.node);
      this.nearScreen.unobserve(part.node);
      this.parts.delete(key);
    }
    for (const key of [...this.sections.keys()]) if (!seen.has(key)) this.sections.delete(key);
    if ([...this.parts.values()].some((part) => part.pending && part.close)) this.catchUpSoon();
    this.mark(changed);
    this.root.dataset.step = ++this.step;
    this.root.dataset.marked = resolved.marks ? "1" : "0";
  }

  section(key) {
    let part = this.sections.get(key);
    if (!part) {
      const node = document.createElement("div");
      node.className = "al-part";
      node.dataset.key = key;
      const title = document.createElement("div");
      title.className = "al-section";
      title.setAttribute("role", "heading");
      title.setAttribute("aria-level", "2");
      const swatch = document.createElement("span");
      swatch.className = "al-swatch";
      const words = document.createElement("span");
      title.append(swatch, words);
      const row = document.createElement("div");
      row.className = "al-row";
      node.append(title, row);
      part = { node, title, words, swatch, row };
      this.sections.set(key, part);
    }
    return part;
  }

  itemNode(item, width, marks, changed, seen, now) {  // -> the node of a heatmap, a breakdown or a note, patched
    const key = item.type === "heatmap" ? item.key : "bd:" + item.key;
    let part = this.parts.get(key);
    if (!part) {
      part = item.type === "heatmap" ? new Heatmap(this, `al-${Math.random().toString(36).slice(2)}`) : new Breakdown();
      this.parts.set(key, part);
      this.onScreen.observe(part.node);
      this.nearScreen.observe(part.node);
    }
    seen.add("hm:" + key);
    changed.push(...(item.type === "heatmap" ? part.show(item, width, marks, now) : part.show(item, now)));
    return part.node;
  }

  catchUpSoon() {  // the parts near the screen that the move's frame left out, drawn in the task after the next
    if (this.catchingUp) return;  // frame: not right behind the move's frame, where the next key may be waiting
    this.catchingUp = true;
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
      this.catchingUp = false;
      const changed = [];
      for (const part of this.parts.values()) if (part.pending && part.close) changed.push(...part.drawKept(true));
      this.mark(changed);
    }, 0)));
  }

  mark(cells) {  // outline the cells a step changed; the outline fades, then goes
    if (!cells.length) return;
    // A new step's marks replace the last step's in this same frame, so a burst of moves schedules no frames of
    // fading for steps already replaced; a redraw of the same step (a new width, a heatmap drawn as it scrolls
    // into view) adds its cells to the step's marks, which fade with them.
    const step = JSON.stringify(this.state);
    if (!this.marked || this.markedStep !== step) {
      this.unmark();
      const marked = this.marked = [];
      this.markedStep = step;
      this.fading = [setTimeout(() => marked.forEach((td) => td.classList.add("al-chg-faint")), MARK_MS),
        setTimeout(() => this.unmark(), 2 * MARK_MS)];
    }
    for (const td of cells) td.classList.add("al-chg");
    this.marked.push(...cells);
  }

  unmark() {
    for (const timer of this.fading || []) clearTimeout(timer);
    for (const td of this.marked || []) td.classList.remove("al-chg", "al-chg-faint");
    this.marked = this.fading = null;
  }

  fillEditRow() {  // the edited row's text box shows that row, as a learner types it
    const { matrix, token } = this.editTarget(), key = matrix + token;
    const input = this.controls.parts.edit_row.input;
    if (key === this.editKey) return;
    this.editKey = key;
    input.value = this.editShown = formatRow(this.data.own[matrix][token]).replace(new RegExp(RULES.minus, "g"), "-");
    input.placeholder = fill(this.L.edit_hint, { n: this.data.own[matrix][0].length });
  }
}

class Breakdown extends OnScreenPart {  // a worked-out step (a dot product, a softmax, a weighted sum) or a note
  show(item, now) {  // -> no cells to mark: drawn now if on screen, else when it comes into view
    return this.showOrKeep(now, () => this.draw(item), () => this.draw(item));
  }

  draw(item) {  // patched in place: a move rewrites the numbers, not the table around them
    const html = item.type === "note" ? `<div class="al-note">${esc(item.text)}</div>` : item.html;
    if (this.html !== html) {
      patchHtml(this.node, html);
      this.html = html;
    }
    const node = this.node, className = item.type === "note" ? "al-notebox" : "al-breakdown";
    if (node.className !== className) node.className = className;
    if (node.dataset.key !== item.key) {
      Object.assign(node.dataset, { name: item.name || item.key, head: item.head ?? 0, key: item.key });
    }
    return [];
  }
}

let parsed = null;
function patchHtml(node, html) {  // node's content becomes `html`, keeping every node that it already has in place
  parsed = parsed || document.createElement("template");
  parsed.innerHTML = html;
  morph(node, parsed.content);
}

function morph(into, from) {  // into's children made like from's: same-named nodes patched, the others replaced
  const want = [...from.childNodes];
  want.forEach((b, k) => {
    const a = into.childNodes[k];
    if (!a) into.append(b);
    else if (a.nodeName !== b.nodeName) into.replaceChild(b, a);
    else if (a.nodeType === Node.TEXT_NODE) {
      if (a.data !== b.data) a.data = b.data;
    } else {
      for (const { name, value } of b.attributes) if (a.getAttribute(name) !== value) a.setAttribute(name, value);
      for (const { name } of [...a.attributes]) if (!b.hasAttribute(name)) a.removeAttribute(name);
      morph(a, b);
    }
  });
  while (into.childNodes.length > want.length) into.lastChild.remove();
}

function place(parent, node, prev) {  // put node right after prev (or first), moving it only if needed
  const want = prev ? prev.nextSibling : parent.firstChild;
  if (want !== node) parent.insertBefore(node, want);
}
