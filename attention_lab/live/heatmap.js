// ---- heatmap.js: one heatmap as a <table>, built once, then patched cell by cell ---------------------------------
//
// A move patches only what it changed: a cell's text, fill, ink and classes, and rows and columns only when the
// sizes change. A heatmap off screen is not patched in the move's frame: it keeps the latest picture of itself and
// draws it right after that frame if it is near the screen, else when it comes near (OnScreenPart).
// Each heatmap fits the width it is given: its numbers at the size look.tables.font_px gives (smaller while they
// do not fit, down to 9 px), else colours only (each value still in the cell's tooltip and its accessible name).
// The table is a grid: one cell takes the Tab focus, the arrow keys move it and pick the cell, a click picks it;
// a screen reader reads a cell as "Query 토큰 3, Key 토큰 1: 2".

const widths = new Map();
let ruler = null;
function textWidth(text, px) {  // in the page's own font, measured once per (size, text)
  const key = px + "|" + text;
  let w = widths.get(key);
  if (w === undefined) {
    ruler = ruler || document.createElement("canvas").getContext("2d");
    ruler.font = `${px}px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans KR", sans-serif`;
    w = ruler.measureText(text).width;
    if (widths.size > 20000) widths.clear();
    widths.set(key, w);
  }
  return w;
}

function setText(node, text) {  // a node's text, changed in its one Text node: layout keeps the node's boxes
  const t = node.firstChild;
  if (t && t === node.lastChild && t.nodeType === Node.TEXT_NODE) {
    if (t.data !== text) t.data = text;
  } else if (node.textContent !== text) node.textContent = text;
}

function fontPx(cols) {  // look.tables.font_px
  return LOOK.font.find(([upTo]) => cols <= upTo)[1];
}

// How a heatmap fits in `width` px: its font size, the corner column, each cell column, and whether it shows numbers.
// It depends on the widest labels, not on every label: a move that adds a row of labels no wider measures nothing.
const fits = new Map();
function fitOf(item, labels, width) {
  const cols = item.colLabels.length, corner = item.rowLabels[item.rowLabels.length - 1];
  let longest = 0;
  for (const l of labels) if (l.length > longest) longest = l.length;
  const wide = [...new Set(labels.filter((l) => l.length >= longest - 1))];
  const key = [width, cols, item.rowCap, corner, ...wide].join("|");
  let fit = fits.get(key);
  if (fit === undefined) {
    fit = fitFor(item.rowCap, corner, cols, wide, width);
    if (fits.size > 2000) fits.clear();
    fits.set(key, fit);
  }
  return fit;
}

function fitFor(rowCap, lastRow, cols, wide, width) {  // fitOf, measured
  for (let px = fontPx(cols); px >= 9; px--) {
    const corner = Math.ceil(Math.max(2.2 * px, textWidth(lastRow, 0.9 * px) + 8,
      rowCap ? textWidth(rowCap + " ↓", 0.85 * px) + 8 : 0));
    const cell = Math.ceil(Math.max(2.2 * px, Math.max(...wide.map((l) => textWidth(l, px))) + 8));
    if (corner + cols * (cell + 1) + 4 <= width) return { px, corner, cell, compact: false };
  }
  const corner = Math.ceil(Math.max(20, rowCap ? textWidth(rowCap + " ↓", 8) + 6 : 0));
  return { px: 9, corner, cell: Math.max(3, Math.min(14, Math.floor((width - corner - 4) / cols) - 1)), compact: true };
}

// A part of the picture that is patched in a move's frame only while it is on screen: off screen, it keeps the latest
// ask, and its owner has it done just after the frame if the part is near the screen (within AHEAD_PX), else when
// it comes near (the owner's IntersectionObservers set `visible` and call `near`). A heatmap, a breakdown.
class OnScreenPart {
  constructor() {
    this.node = document.createElement("div");
    this.node.alPart = this;
    this.visible = true;  // on screen; until the owner's IntersectionObserver says otherwise
    this.close = true;  // on screen or near it, likewise
    this.pending = null;  // what to draw when it can be seen: {draw, catchUp}
    this.drawn = false;
  }

  showOrKeep(now, draw, catchUp) {  // -> draw()'s result if drawn now (now, on screen, or never drawn), else []
    if (now || this.visible || !this.drawn) {
      this.pending = null;
      const drawn = draw();
      this.drawn = true;
      return drawn;
    }
    this.pending = { draw, catchUp };
    return [];
  }

  drawKept(marks) {  // -> draw()'s result: the kept ask done now, as in the move's frame (marks) or as a catch-up
    const { draw, catchUp } = this.pending;
    this.pending = null;
    return marks ? draw() : catchUp();
  }

  near(close) {  // it came near the screen (or left it): draw what it missed
    this.close = close;
    if (close && this.pending) this.drawKept(false);
  }
}

class Heatmap extends OnScreenPart {
  constructor(owner, id) {
    super();
    this.owner = owner;
    this.node.className = "al-hm";
    this.title = document.createElement("div");
    this.title.className = "al-title";
    this.title.id = id;
    this.table = document.createElement("table");
    this.table.className = "al-grid";
    this.table.setAttribute("role", "grid");
    this.table.setAttribute("aria-labelledby", id);
    this.thead = this.table.createTHead();
    this.tbody = this.table.createTBody();
    this.node.append(this.title, this.table);
    this.rows = [];  // the body's rows: {tr, cells}
    this.cells = [];  // every cell, row by row; each keeps what it shows (alLabel, alFill, alInk, alMasked)
    this.focusAt = [0, 0];
    this.table.addEventListener("click", (e) => this.clicked(e));
    // A cell's tooltip (its value) is set when the pointer comes over it, not at every move: Chromium restyles an
    // element whose title changes, and one press changed 70-130 cells' labels (a new token's row and column).
    this.table.addEventListener("pointerover", (e) => {
      const td = e.target.closest?.("td[data-i]");
      if (td && td.title !== td.alLabel) td.title = td.alLabel;
    });
    this.table.__alKeydown = (e) => this.key(e);  // mount.js routes the keys pressed in a view
  }

  header(item) {  // the caption row and the column labels, patched in place: T 5 → 6 adds one label, rebuilds none
    const caps = `${item.rowCap}|${item.colCap}`;
    if (caps !== this.caps) {  // the corner's kind and the caption row follow the captions: built again
      this.caps = caps;
      this.thead.textContent = "";
      if (item.colCap) {
        const tr = this.thead.insertRow();
        tr.insertCell().className = "al-corner";
        const th = document.createElement("th");
        th.className = "al-colcap";
        th.scope = "colgroup";
        th.textContent = item.colCap + " →";
        tr.append(th);
      }
      const corner = document.createElement(item.rowCap ? "th" : "td");
      corner.className = "al-rowcap";
      corner.textContent = item.rowCap ? item.rowCap + " ↓" : "";
      this.thead.insertRow().append(corner);
    }
    const cols = item.colLabels.length, head = this.thead.rows[this.thead.rows.length - 1];
    if (item.colCap) this.thead.rows[0].cells[1].colSpan = cols;
    while (head.cells.length > cols + 1) head.deleteCell(-1);
    while (head.cells.length < cols + 1) {
      const th = document.createElement("th");
      th.className = "al-col";
      th.scope = "col";
      head.append(th);
    }
    item.colLabels.forEach((label, j) => {
      const th = head.cells[j + 1], bar = item.bars ? `4px solid ${item.bars[j]}` : "";
      setText(th, label);
      if (th.style.borderTop !== bar) th.style.borderTop = bar;
    });
  }

  // As many rows and cells as the matrix has, adding or removing only what differs. The new rows and cells are made
  // outside the page and put in by place() once draw() has filled them: attributes set on a cell in the page cost
  // a style check each, in Chromium, where the new cell is styled once when it comes in.
  resize(item) {
    const rows = item.rowLabels.length, cols = item.colLabels.length;
    this.adding = [];  // [parent, nodes]: what place() puts in
    while (this.rows.length > rows) this.rows.pop().tr.remove();
    const fresh = [];
    while (this.rows.length < rows) {
      const tr = document.createElement("tr"), th = document.createElement("th");
      th.scope = "row";
      tr.append(th);
      fresh.push(tr);
      this.rows.push({ tr, cells: [] });
    }
    this.rows.forEach(({ tr, cells }, i) => {
      const added = [];
      setText(tr.cells[0], item.rowLabels[i]);
      while (cells.length > cols) cells.pop().remove();
      while (cells.length < cols) {
        const td = document.createElement("td");
        td.dataset.i = i;
        td.dataset.j = cells.length;
        td.tabIndex = -1;
        td.setAttribute("role", "gridcell");
        cells.push(td);
        added.push(td);
      }
      if (added.length) this.adding.push([tr, added]);
    });
    if (fresh.length) this.adding.push([this.tbody, fresh]);
    this.cells = this.rows.flatMap((row) => row.cells);
    this.hlKey = undefined;
  }

  place() {  // the rows and cells resize() made, into the table, filled
    for (const [parent, nodes] of this.adding || []) parent.append(...nodes);
    this.adding = null;
  }

  show(item, width, marks, now) {  // -> the cells changed (for the change marks); the catch-up marks none
    return this.showOrKeep(now, () => this.draw(item, width, marks), () => this.draw(item, width, false));
  }

  draw(item, width, marks) {  // -> the cells whose label changed since the last picture (for the change marks)
    const head = [item.colLabels.join(","), item.rowCap, item.colCap, (item.bars || []).join(",")].join("|");
    if (head !== this.head) {
      this.header(item);
      this.head = head;
    }
    if (this.cells.length !== item.rowLabels.length * item.colLabels.length
        || this.rows.length !== item.rowLabels.length || item.rowLabels.join(",") !== this.rowKey) {
      this.resize(item);
      this.rowKey = item.rowLabels.join(",");
    }
    if (this.node.dataset.key !== item.key) {  // the key names the stage and the head
      Object.assign(this.node.dataset, { name: item.name, head: item.head, key: item.key });
    }
    setText(this.title, item.title);
    const style = cellStyle(item.matrix, item.kind, item.range, item.allowed);
    const fit = fitOf(item, style.labels, width);
    const mode = fit.compact ? "colours" : "numbers";
    if (this.node.dataset.mode !== mode) {
      this.node.dataset.mode = mode;
      this.table.classList.toggle("al-compact", fit.compact);
    }
    this.table.classList.toggle("al-tiny", fit.compact && fit.cell < 11);  // too narrow for column numbers
    const sizes = `${fit.px}|${fit.cell}|${fit.corner}`;
    if (sizes !== this.sizes) {
      this.sizes = sizes;
      this.table.style.fontSize = fit.px + "px";
      this.table.style.setProperty("--al-cell", fit.cell + "px");
      this.table.style.setProperty("--al-corner", fit.corner + "px");
    }
    const changed = [], cols = item.colLabels.length, template = this.owner.L.cell;
    const rowWord = item.rowCap || this.owner.L.token, colWord = item.colCap || this.owner.L.component;
    for (let k = 0; k < this.cells.length; k++) {
      const td = this.cells[k], label = style.labels[k];
      const i = item.rowLabels[(k / cols) | 0], j = item.colLabels[k % cols];
      if (td.alLabel !== label || td.alRow !== i || td.alCol !== j) {
        if (marks && td.alLabel !== undefined && td.alLabel !== label) changed.push(td);
        if (marks && td.alLabel === undefined && this.drawn) changed.push(td);  // a new token's cell
        setText(td, label);
        td.setAttribute("aria-label", fill(template, { row: rowWord, i, col: colWord, j, value: label }));
        if (td.title) td.title = label;  // a tooltip is given on hover (below); one already given follows the value
        td.alLabel = label;
        td.alRow = i;
        td.alCol = j;
      }
      if (td.alFill !== style.fill[k]) {
        td.style.backgroundColor = "#" + style.fill[k];
        td.alFill = style.fill[k];
      }
      if (td.alInk !== style.ink[k]) {
        td.style.color = inkColour(style.ink[k]);
        td.alInk = style.ink[k];
      }
      if (td.alMasked !== style.masked[k]) {
        td.classList.toggle("al-masked", style.masked[k] === "1");
        td.alMasked = style.masked[k];
      }
    }
    this.place();
    this.highlight(item.hl);
    return changed;
  }

  highlight(hl) {  // the picked cell or row; a class moves only when the element it is on changes (no restyle)
    const key = JSON.stringify(hl);
    if (key === this.hlKey) return;
    this.hlKey = key;
    const cell = hl && hl[1] !== null ? this.rows[hl[0]]?.cells[hl[1]] : undefined;
    const row = hl && hl[1] === null ? this.rows[hl[0]]?.tr : undefined;
    for (const node of this.table.querySelectorAll(".al-hl, .al-hlrow")) {
      if (node !== cell && node !== row) node.classList.remove("al-hl", "al-hlrow");
    }
    if (cell && !cell.classList.contains("al-hl")) cell.classList.add("al-hl");
    if (row && !row.classList.contains("al-hlrow")) row.classList.add("al-hlrow");
    this.focusOn(hl ? [hl[0], hl[1] ?? this.focusAt[1]] : this.focusAt, false);
  }

  focusOn([i, j], move) {  // the one cell that takes the Tab focus (roving tabindex)
    i = Math.min(Math.max(i, 0), this.rows.length - 1);
    j = Math.min(Math.max(j, 0), this.rows[i].cells.length - 1);
    const td = this.rows[i].cells[j];
    if (this.tabCell && this.tabCell !== td) this.tabCell.tabIndex = -1;  // the cell that had it, whatever moved
    this.tabCell = td;
    this.focusAt = [i, j];
    if (td.tabIndex !== 0) td.tabIndex = 0;
    if (move) td.focus();
  }

  clicked(e) {
    const td = e.target.closest("td[data-i]");
    if (!td) return;
    this.focusOn([+td.dataset.i, +td.dataset.j], false);
    this.owner.pick(this.node.dataset.name, +td.dataset.i, +td.dataset.j);
  }

  key(e) {
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (!step && e.key !== "Enter" && e.key !== " ") return;
    e.preventDefault();
    const [i, j] = this.focusAt;
    if (step) this.focusOn([i + step[0], j + step[1]], true);
    this.owner.pick(this.node.dataset.name, ...this.focusAt);
  }
}
