// The live explorer's picture (attention_lab/widgets.py, class StageView).
//
// Python sends `state`, a JSON string: sections of panels, each heatmap as numbers already styled by
// attention_lab.style (labels, #rrggbb fills, dark or light ink, masked flags). This module computes no
// attention and chooses no colour; it only puts them on screen, cheaply:
// - a heatmap whose numbers fit is a <table> built once; each later picture patches only the cells whose
//   text or colour changed;
// - a heatmap too wide for numbers is drawn as colours on a <canvas>, each value in a tooltip on hover;
// - the cells whose value changed since the previous picture get an outline that fades (the change marks);
// - pictures that arrive faster than frames are coalesced (only the latest is drawn), and a heatmap out of
//   sight keeps its last picture until it scrolls into view, so a step costs what is on screen.

const MASKED_HATCH = "rgba(0,0,0,0.16)";  // as html.CSS draws masked cells
const MARK = ["#111111", "#aaaaaa"];  // the change marks' outline: first dark, then faint
let inks = ["#ffffff", "#000000"];  // a cell's text on a dark fill ("0") and on a light one ("1"): from style
const MARK_STEP_MS = 900;

function make(tag, cls) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  return node;
}

// Put `node` right after `prev` (or first) in `parent`, moving it only if it is not there already.
function place(parent, node, prev) {
  const want = prev ? prev.nextSibling : parent.firstChild;
  if (want !== node) parent.insertBefore(node, want);
}

// Text widths, measured once per (font size, text) on a canvas in the page's own font.
const widths = new Map();
let ruler = null, family = "sans-serif";
function textWidth(text, px) {
  const key = px + "|" + text;
  let w = widths.get(key);
  if (w === undefined) {
    ruler = ruler || document.createElement("canvas").getContext("2d");
    ruler.font = `${px}px ${family}`;
    w = ruler.measureText(text).width;
    widths.set(key, w);
  }
  return w;
}

// How a heatmap fits in `width` pixels: the corner column (row labels, caption) and each cell column's width;
// `compact` when its numbers do not fit: then it is drawn as colours, each value in its cell's tooltip.
function columns(d, labels, width) {
  const px = d.font;
  const corner = Math.ceil(Math.max(2.2 * px, textWidth(String(d.rows), 0.9 * px) + 8,
                                    d.rowCap ? textWidth(d.rowCap + " ↓", 0.85 * px) + 8 : 0)) + 1;
  let widest = 0;
  for (const label of labels) if (label.length >= d.width - 1) widest = Math.max(widest, textWidth(label, px));
  const cell = Math.max(2.2 * px, widest + 7, textWidth(String(d.cols), 0.9 * px) + 7) + 1;
  const spare = width - 6 - corner;  // what the cell columns may take
  if (d.cols * cell <= spare) return { corner, cell, compact: false };
  return { corner, cell: Math.max(3, Math.min(14, Math.floor(spare / d.cols) - 1)), compact: true };
}

// ---- a heatmap: a table of numbers, or a canvas of colours ------------------------------------------------------

function makeHeatmap() {
  const node = make("div", "al-hm");
  const title = make("div", "al-title");
  const table = make("table", "al-grid");
  const thead = make("thead");
  const tbody = make("tbody");
  table.append(thead, tbody);
  node.append(title, table);
  return {
    type: "heatmap", node, title, table, thead, tbody, canvas: null, titleText: null, visible: true, pending: null,
    last: null,  // the last picture drawn: {rows, cols, labels, fill, ink, masked, compact}
    dom: null,  // what the table's cells show now (the same fields), or null when the table is not up to date
    rows: [], cells: [], headKey: null, hl: null, marked: [], geometry: null,
  };
}

function buildHead(p, d) {
  p.thead.textContent = "";
  if (d.colCap) {
    const tr = make("tr");
    const cap = make("th", "al-colcap");
    cap.colSpan = d.cols;
    cap.textContent = d.colCap + " →";
    tr.append(make("th"), cap);
    p.thead.append(tr);
  }
  if (d.bars) {
    const tr = make("tr");
    tr.append(make("th"));
    for (const color of d.bars) {
      const td = make("td", "al-bar");
      td.style.background = color;
      tr.append(td);
    }
    p.thead.append(tr);
  }
  const tr = make("tr");
  const cap = make("th", "al-rowcap");
  cap.textContent = d.rowCap ? d.rowCap + " ↓" : "";
  tr.append(cap);
  for (let j = 0; j < d.cols; j++) {
    const th = make("th", "al-col");
    th.textContent = String(j + 1);
    tr.append(th);
  }
  p.thead.append(tr);
}

// Grow or shrink the table's body to rows × cols cells (new cells are blank; the caller fills them).
function resize(p, nRows, nCols) {
  while (p.rows.length > nRows) { p.rows.pop().remove(); p.cells.pop(); }
  for (let i = 0; i < p.rows.length; i++) {
    const tr = p.rows[i], row = p.cells[i];
    while (row.length > nCols) row.pop().remove();
    while (row.length < nCols) { const td = make("td"); tr.append(td); row.push(td); }
  }
  while (p.rows.length < nRows) {
    const tr = make("tr"), th = make("th"), row = [];
    th.textContent = String(p.rows.length + 1);
    tr.append(th);
    for (let j = 0; j < nCols; j++) { const td = make("td"); tr.append(td); row.push(td); }
    p.tbody.append(tr);
    p.rows.push(tr);
    p.cells.push(row);
  }
}

// Write picture `now` into the table, touching only the cells that differ from what it shows.
function patchTable(p, d, now) {
  const headKey = JSON.stringify([d.cols, d.colCap, d.rowCap, d.bars]);
  if (headKey !== p.headKey) { buildHead(p, d); p.headKey = headKey; }
  const was = p.dom || { rows: 0, cols: 0 };
  resize(p, now.rows, now.cols);
  for (let i = 0; i < now.rows; i++) {
    const row = p.cells[i];
    for (let j = 0; j < now.cols; j++) {
      const k = i * now.cols + j, td = row[j];
      const had = i < was.rows && j < was.cols, o = i * was.cols + j;
      if (!had || was.labels[o] !== now.labels[k]) td.textContent = now.labels[k];
      const fill = now.fill.substr(6 * k, 6);
      if (!had || was.fill.substr(6 * o, 6) !== fill) td.style.backgroundColor = "#" + fill;
      if (!had || was.ink[o] !== now.ink[k]) td.style.color = inks[now.ink[k] === "1" ? 1 : 0];
      if (!had || was.masked[o] !== now.masked[k]) td.classList.toggle("al-masked", now.masked[k] === "1");
    }
  }
  // the highlighted cell or row: where the breakdowns below read from
  if (p.hl) {
    const [i, j] = p.hl;
    if (j === null) { if (p.rows[i]) p.rows[i].classList.remove("al-hlrow"); }
    else if (p.cells[i] && p.cells[i][j]) p.cells[i][j].classList.remove("al-hl");
  }
  if (d.hl) {
    const [i, j] = d.hl;
    if (j === null) p.rows[i].classList.add("al-hlrow");
    else p.cells[i][j].classList.add("al-hl");
  }
  p.hl = d.hl;
  p.dom = now;
}

// The canvas geometry of a compact heatmap, in CSS pixels.
function geometry(d, cols) {
  const cap = d.colCap ? 13 : 0, bars = d.bars ? 5 : 0, head = 12, row = 14;
  const top = cap + bars + head;
  const corner = Math.ceil(Math.max(cols.corner, textWidth(String(d.rows), 9) + 8,
                                    d.rowCap ? textWidth(d.rowCap + " ↓", 9) + 8 : 0));
  const cell = Math.min(cols.cell, Math.max(3, Math.floor((cols.corner + d.cols * (cols.cell + 1) - corner) / d.cols) - 1));
  return { corner, cell, cap, bars, head, top, row, width: corner + d.cols * (cell + 1) + 1, height: top + d.rows * (row + 1) + 1 };
}

// Draw picture `now` as colours on the panel's canvas; `level` is the change marks' step (0 dark, 1 faint, 2 none).
function paintCanvas(p, d, now, g, level) {
  const canvas = p.canvas, ratio = window.devicePixelRatio || 1;
  const w = Math.ceil(g.width * ratio), h = Math.ceil(g.height * ratio);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w; canvas.height = h;
    canvas.style.width = g.width + "px"; canvas.style.height = g.height + "px";
  }
  const c = canvas.getContext("2d");
  c.setTransform(ratio, 0, 0, ratio, 0, 0);
  c.clearRect(0, 0, g.width, g.height);
  c.textBaseline = "middle";
  c.fillStyle = "#888888";
  c.font = `9px ${family}`;
  if (d.colCap) { c.textAlign = "left"; c.fillText(d.colCap + " →", g.corner + 1, g.cap / 2 + 1); }
  if (d.rowCap) { c.textAlign = "right"; c.fillText(d.rowCap + " ↓", g.corner - 4, g.top - g.head / 2); }
  const x = (j) => g.corner + 1 + j * (g.cell + 1), y = (i) => g.top + 1 + i * (g.row + 1);
  if (d.bars) d.bars.forEach((color, j) => { c.fillStyle = color; c.fillRect(x(j), g.cap, g.cell, 4); });
  c.fillStyle = "#666666";
  c.textAlign = "left";
  const every = [1, 2, 4, 8, 16].find((n) => n * (g.cell + 1) >= 15) || 16;  // column numbers that do not collide
  for (let j = 0; j < now.cols; j += every) c.fillText(String(j + 1), x(j), g.top - g.head / 2);
  c.textAlign = "right";
  for (let i = 0; i < now.rows; i++) c.fillText(String(i + 1), g.corner - 4, y(i) + g.row / 2);
  for (let i = 0; i < now.rows; i++) {
    for (let j = 0; j < now.cols; j++) {
      const k = i * now.cols + j;
      c.fillStyle = "#" + now.fill.substr(6 * k, 6);
      c.fillRect(x(j), y(i), g.cell, g.row);
      if (now.masked[k] === "1") {  // the hatch of a masked (−∞) cell
        c.save();
        c.beginPath(); c.rect(x(j), y(i), g.cell, g.row); c.clip();
        c.strokeStyle = MASKED_HATCH; c.lineWidth = 1.5;
        for (let t = -g.row; t < g.cell; t += 5) { c.moveTo(x(j) + t, y(i) + g.row); c.lineTo(x(j) + t + g.row, y(i)); }
        c.stroke();
        c.restore();
      }
    }
  }
  const box = (i, j, color, lw) => {
    c.strokeStyle = color; c.lineWidth = lw;
    c.strokeRect(x(j) + lw / 2, y(i) + lw / 2, g.cell - lw, g.row - lw);
  };
  if (level < 2) for (const k of p.marked) box(Math.floor(k / now.cols), k % now.cols, MARK[level], 1.5);
  if (d.hl && d.hl[1] === null) {
    c.strokeStyle = "#111111"; c.lineWidth = 2;
    c.strokeRect(x(0), y(d.hl[0]), now.cols * (g.cell + 1) - 1, g.row);
  } else if (d.hl) box(d.hl[0], d.hl[1], "#111111", 2);
}

// Patch heatmap `p` to show `d`, from picture number `step`. Returns the indices (row-major) of the cells whose label changed since the
// panel's last picture, or that are new in it (a panel's first picture marks nothing).
function drawHeatmap(p, d, width, step) {
  if (p.titleText !== d.title) { p.title.textContent = d.title; p.titleText = d.title; }
  const labels = d.labels.split(" ");
  const cols = columns(d, labels, width);
  const now = { rows: d.rows, cols: d.cols, labels, fill: d.fill, ink: d.ink, masked: d.masked };
  const last = p.last, changed = [];
  if (last) {
    for (let i = 0; i < now.rows; i++) {
      for (let j = 0; j < now.cols; j++) {
        const k = i * now.cols + j;
        if (i >= last.rows || j >= last.cols || last.labels[i * last.cols + j] !== labels[k]) changed.push(k);
      }
    }
  }
  p.node.dataset.mode = cols.compact ? "colours" : "numbers";
  p.node.dataset.rows = d.rows;
  p.node.dataset.step = step;  // which picture this heatmap shows (one out of sight may show an older one)
  p.table.dataset.rows = d.rows;
  p.table.dataset.cols = d.cols;
  p.table.style.fontSize = d.font + "px";
  if (cols.compact) {
    if (!p.canvas) {
      p.canvas = make("canvas", "al-canvas");
      p.canvas.__alPanel = p;
      p.node.append(p.canvas);
    }
    p.table.style.display = "none";
    p.canvas.style.display = "";
    p.geometry = geometry(d, cols);
    p.d = d; p.now = now;
    paintCanvas(p, d, now, p.geometry, 2);
  } else {
    if (p.canvas) p.canvas.style.display = "none";
    p.table.style.display = "";
    patchTable(p, d, now);
  }
  p.compact = cols.compact;
  p.last = now;
  return changed;
}

// Where a pointer is on a compact heatmap: [row, col] or null.
function cellAt(p, event) {
  const g = p.geometry, r = p.canvas.getBoundingClientRect();
  const j = Math.floor((event.clientX - r.left - g.corner - 1) / (g.cell + 1));
  const i = Math.floor((event.clientY - r.top - g.top - 1) / (g.row + 1));
  return i >= 0 && j >= 0 && i < p.now.rows && j < p.now.cols ? [i, j] : null;
}

function makeHtml() {
  return { type: "html", node: make("div", "al-part"), html: null };
}

// ---- the widget -----------------------------------------------------------------------------------------------

function render({ model, el }) {
  const root = make("div", "al-view al-live");
  const note = make("div", "al-note al-source");
  const shape = make("div", "al-shape");
  const body = make("div", "al-body");
  root.append(note, shape, body);
  el.append(root);
  const sections = new Map();  // key -> {node, head, row, items: Map(key -> panel)}
  let marked = [], fading = 0, frame = 0, width = 0, drewThisFrame = false, marksOn = true;

  // Heatmaps out of sight (with a margin) keep their last picture and the data of the latest, drawn on sight.
  const sight = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      const p = entry.target.__alPanel;
      p.visible = entry.isIntersecting;
      if (p.visible && p.pending) {
        const [data, step] = p.pending;
        p.pending = null;
        p.marked = [];
        drawHeatmap(p, data, width || 900, step);
      }
    }
  }, { rootMargin: "400px 0px" });

  // A click on a cell picks it for the breakdowns (Python decides what a click on that stage means).
  body.addEventListener("click", (event) => {
    const hm = event.target.closest(".al-hm");
    if (!hm) return;
    let at = null;
    if (event.target.tagName === "CANVAS") at = cellAt(hm.__alPanel, event);
    else {
      const td = event.target.closest("td"), tr = td && td.parentElement;
      if (td && tr.parentElement.tagName === "TBODY") at = [[...tr.parentElement.children].indexOf(tr),
                                                            [...tr.children].indexOf(td) - 1];
    }
    if (at) model.send({ pick: [hm.dataset.name, at[0], at[1]] });
  });
  // A compact heatmap's value under the pointer, as its tooltip.
  body.addEventListener("mousemove", (event) => {
    if (event.target.tagName !== "CANVAS") return;
    const p = event.target.__alPanel, at = p && cellAt(p, event);
    event.target.title = at ? `${at[0] + 1}, ${at[1] + 1}: ${p.now.labels[at[0] * p.now.cols + at[1]]}` : "";
  });

  function draw() {
    frame = 0;
    const start = performance.now();
    const state = JSON.parse(model.get("state") || "{}");
    if (!state.sections) return;
    if (!width) {  // read once, and then from the ResizeObserver: reading layout here would force a layout
      width = body.clientWidth;
      family = getComputedStyle(root).fontFamily || family;
    }
    inks = state.inks || inks;
    if (note.textContent !== state.note) note.textContent = state.note;
    if (shape.textContent !== state.shape) shape.textContent = state.shape;
    unmark();
    marksOn = state.marks;
    const seen = new Set();
    let prev = null;
    for (const s of state.sections) {
      let sec = sections.get(s.key);
      if (!sec) {
        sec = { node: make("div", "al-part"), head: make("div", "al-section"), row: make("div", "al-row"),
                items: new Map(), title: null };
        sec.node.append(sec.head, sec.row);
        sections.set(s.key, sec);
      }
      const title = JSON.stringify([s.title, s.color]);
      if (sec.title !== title) {
        sec.head.textContent = "";
        if (s.color) {
          const swatch = make("span", "al-swatch");
          swatch.style.background = s.color;
          sec.head.append(swatch);
        }
        sec.head.append(document.createTextNode(s.title));
        sec.head.style.display = s.title ? "" : "none";
        sec.title = title;
      }
      sec.node.dataset.key = s.key;
      place(body, sec.node, prev);
      prev = sec.node;
      seen.add(s.key);
      drawItems(sec, s.items, state.step);
    }
    for (const [key, sec] of sections) {
      if (seen.has(key)) continue;
      for (const p of sec.items.values()) if (p.type === "heatmap") sight.unobserve(p.node);
      sec.node.remove();
      sections.delete(key);
    }
    mark(0);
    root.dataset.step = state.step;
    root.dataset.marked = marked.reduce((n, p) => n + p.marked.length, 0);
    if (window.__alDraws) window.__alDraws.push({ step: state.step, ms: performance.now() - start });  // benchmarks
  }

  function drawItems(sec, items, step) {
    const seen = new Set();
    let prev = null;
    for (const it of items) {
      let p = sec.items.get(it.key);
      if (!p || p.type !== it.type) {
        if (p) p.node.remove();
        p = it.type === "heatmap" ? makeHeatmap() : makeHtml();
        sec.items.set(it.key, p);
        if (p.type === "heatmap") {
          p.node.__alPanel = p;
          sight.observe(p.node);
        }
      }
      if (it.type === "heatmap") {
        if (!p.visible && p.last) p.pending = [it, step];
        else {
          p.pending = null;
          const changed = drawHeatmap(p, it, width || 900, step);
          p.marked = marksOn ? changed : [];
          if (p.marked.length) marked.push(p);
        }
      } else if (p.html !== it.html) { p.node.innerHTML = it.html; p.html = it.html; }
      p.node.dataset.name = it.name;
      p.node.dataset.key = it.key;
      place(sec.row, p.node, prev);
      prev = p.node;
      seen.add(it.key);
    }
    for (const [key, p] of sec.items) {
      if (!seen.has(key)) { if (p.type === "heatmap") sight.unobserve(p.node); p.node.remove(); sec.items.delete(key); }
    }
  }

  // Change marks: an outline on the changed cells, dark, then faint, then gone (a table cell's outline needs no
  // layout, only a repaint of that cell; a canvas is redrawn).
  function mark(level) {
    for (const p of marked) {
      if (p.compact) paintCanvas(p, p.d, p.now, p.geometry, level);
      else for (const k of p.marked) {
        const td = p.cells[Math.floor(k / p.last.cols)][k % p.last.cols];
        td.classList.toggle("al-chg", level < 2);
        td.classList.toggle("al-chg-faint", level === 1);
      }
    }
    if (level < 2 && marked.length) fading = setTimeout(() => mark(level + 1), MARK_STEP_MS);
    else marked = [];
  }

  function unmark() {
    clearTimeout(fading);
    for (const p of marked) {
      if (!p.compact) for (const k of p.marked) {
        const row = p.cells[Math.floor(k / p.last.cols)], td = row && row[k % p.last.cols];
        if (td) td.classList.remove("al-chg", "al-chg-faint");
      }
      p.marked = [];
    }
    marked = [];
  }

  function schedule() {
    if (!frame) frame = requestAnimationFrame(draw);
  }

  // A picture is drawn at once, unless one was drawn in this frame already: then the next frame draws the latest
  // (so a burst of pictures costs one draw per frame, and a lone picture is not held back a frame).
  function onState() {
    if (frame) return;  // a draw is already due, and it reads the latest picture
    if (drewThisFrame) return schedule();
    draw();
    drewThisFrame = true;
    requestAnimationFrame(() => { drewThisFrame = false; });
  }

  model.on("change:state", onState);
  // The output area's width decides which heatmaps show numbers: redraw when it changes.
  const observer = new ResizeObserver((entries) => {
    const now = entries[entries.length - 1].contentRect.width;
    if (now && Math.abs(now - width) > 1) {
      width = now;
      schedule();
    }
  });
  observer.observe(body);
  draw();
  return () => {
    clearTimeout(fading);
    model.off("change:state", onState);
    observer.disconnect();
    sight.disconnect();
    if (frame) cancelAnimationFrame(frame);
  };
}

export default { render };
