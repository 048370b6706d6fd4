// ---- url.js: a standalone page's state in its address, #T=6&mask=sliding:window=2&scale=1.5 -----------------------
//
// Only a standalone page follows its address (its script calls followLink), and only its first explorer: a widget
// in a notebook never touches the notebook's URL. A link's value is taken only where the control it names could
// show it (controlSpecs: a range's bounds, a select's choices, the seed box's rule), and is applied with `moved`, as
// that control's move would be; any other value keeps the page's own and is named in one line above the explorer.
// A move pushes the new address once the moves settle (SETTLE_MS without another), so the back button steps back
// through the moves a learner stopped at, and a held key writes it once, after its release, not once per press:
// writing an address (history.pushState, and the link field) costs a press as much as drawing it does. A reload
// before the moves settle still shows them: the address then due is kept for the next load (followLink, pagehide).
// The learned model's input is in the link too (input=DDCBAA), read by the rule that reads a typed one (learned.js
// parseTokens); an edited row is not, and the page says so next to the link field while the picture holds one.

const SETTLE_MS = 250;  // longer than a held key's auto-repeat (about 33 ms), shorter than a pause to look
// A link holds the state's keys (LOOK.live.state): not a button, nor the row editor's text; the learned model's input
// is in it as "input" (below).
const linkable = (spec) => spec.name in LOOK.live.state;

// A numbered control's choice is written as the number its label shows (head=1 is Head 1, query=3 is Query token 3,
// head=all is all heads: state.js pickNumber), read by the one rule of a typed number; the state keeps its index.
// An older link counted the picks from 0 (head=1 was Head 2): no link says which it is, so none is mapped; a 0 is
// refused with a line saying that the page counts from 1, and the page shows its own value.
function specsOf(ex, state) {  // the controls a state would show (controls.js), as a name -> spec map
  const resolved = resolve(state, ex.view, ex.data), context = controlContext({ ...ex, state, resolved });
  const numbered = (s) => ({ ...s, keys: s.options.map(([v]) => String(pickNumber(s.name, v, context))) });
  return Object.fromEntries(controlSpecs({ ...ex, state, resolved })
    .map((s) => [s.name, s.name in LOOK.live.numbered ? numbered(s) : s]));
}

const choiceKeys = (spec) => spec.options.map(([v], k) => (spec.keys ? spec.keys[k] : optionKey(v)));

function linkKey(spec) {  // how a link writes a control's value: a select's choice by its key (choiceKeys)
  if (spec.type === "check") return spec.value ? "1" : "0";
  if (!spec.options) return optionKey(spec.value);
  return choiceKeys(spec)[spec.options.findIndex(([v]) => optionKey(v) === optionKey(spec.value))];
}

function lengthsOf(raw) {  // "３＋２" -> "3+2": lengths read as --mask reads them (options.parse_mask), or null
  const parts = Array.from(String(raw), (c) => GRAMMAR.readAs[c] ?? c).join("").split("+").map(wholeOf);
  return parts.includes(null) ? null : parts.join("+");
}

function linkValue(spec, raw) {  // -> [value, null], or [null, what is allowed, the word that says so (or none)]
  const L = LOOK.words[spec.lang];
  if (spec.type === "range") {
    const n = wholeOf(raw) ?? NaN;
    return n >= spec.min && n <= spec.max ? [n, null] : [null, fill(L.link_range, { lo: spec.min, hi: spec.max })];
  }
  if (spec.type === "check") return raw === "1" || raw === "0" ? [raw === "1", null] : [null, "0, 1"];
  if (spec.type === "text") {  // the seed box
    const seed = seedOf(raw);
    return seed === null ? [null, fill(L.link_range, { lo: 0, hi: LOOK.maxSeed })] : [seed, null];
  }
  const lengths = spec.options.length > 0 && Array.isArray(spec.options[0][0]);  // a mask's lengths: "３＋３" is 3+3
  const keys = choiceKeys(spec), typed = spec.keys ? wholeOf(raw) : lengths ? lengthsOf(raw) : null;
  const k = keys.indexOf(typed === null ? raw : String(typed));
  if (k >= 0) return [spec.options[k][0], null];
  return [null, keys.join(", "), typed === 0 ? "link_from_one" : null];
}

function linkEntries(hash) {  // "#T=6&mask=sliding:window=2" -> [["T", "6"], ["mask", "sliding"], ["sliding.window", "2"]]
  const out = [];
  for (const part of hash.replace(/^#/, "").split("&").filter(Boolean)) {
    let text;
    try { text = decodeURIComponent(part); } catch (e) { text = part; }
    const at = text.indexOf("="), key = at < 0 ? text : text.slice(0, at), value = at < 0 ? "" : text.slice(at + 1);
    if (key !== "mask") {
      out.push([key, value]);
      continue;
    }
    const [name, ...params] = value.split(":");
    out.push(["mask", name]);
    for (const p of params) {
      const eq = p.indexOf("=");
      out.push([`${name}.${eq < 0 ? p : p.slice(0, eq)}`, eq < 0 ? "" : p.slice(eq + 1)]);
    }
  }
  return out;
}

// A link read against a page: the state it shows (from the page's own start), its scale, and what was refused.
function readLink(hash, ex, start, scale) {  // -> {state, scale, problems: [one line each]}
  const L = ex.L, first = specsOf(ex, start), order = Object.keys(first).filter((n) => linkable(first[n]));
  const entries = linkEntries(hash), problems = [];
  let state = { ...start }, shown = scale.start;
  let source, input;  // the source and the learned model's input the link names, if it does
  const own = ["scale", ...(ex.data.learned ? ["input"] : [])];  // keys of the page, not of a control
  for (const [key, raw] of entries) {
    if (!own.includes(key) && !order.includes(key)) {
      problems.push(fill(L.link_bad_key, { key, allowed: [...own, ...order].join(", ") }));
    }
  }
  const times = {};  // a key given twice has no one value to take: the page keeps its own and says so
  for (const [key] of entries) times[key] = (times[key] || 0) + 1;
  for (const [key, n] of Object.entries(times)) if (n > 1) problems.push(fill(L.link_twice, { key, n }));
  const scaleEntry = times.scale === 1 && entries.find(([key]) => key === "scale");
  if (scaleEntry) {
    const s = /^\d+(\.\d+)?$/.test(scaleEntry[1]) ? Number(scaleEntry[1]) : NaN;
    if (s >= scale.lo && s <= scale.hi) shown = s;
    else problems.push(fill(L.link_bad_value, { key: "scale", value: scaleEntry[1],
      allowed: fill(L.link_range, { lo: scale.lo, hi: scale.hi }) }));
  }
  const inputEntry = own.includes("input") && times.input === 1 && entries.find(([key]) => key === "input");
  if (inputEntry) {  // read as a typed input is (learned.js), so a link takes what the box takes
    const learned = ex.data.learned, [letters, problem] = parseTokens(inputEntry[1], learned);
    if (problem) {
      problems.push(fill(L.link_bad_value, { key: "input", value: inputEntry[1],
        allowed: fill(L.link_input, { T: learned.T, letters: learned.tokens.join(" ") }) }));
    } else input = letters;
  }
  for (const name of order) {  // in the controls' order: T before the picks and the mask's parameters it bounds
    const entry = times[name] === 1 && entries.find(([key]) => key === name);
    if (!entry) continue;
    // a mask's parameter counts only beside that mask (its control is hidden, or gone, under another): not taken
    const [mask, param] = name.split("."), chosen = state.mask;
    if (param !== undefined && mask !== chosen) {
      problems.push(fill(L.link_other_mask, { key: name, mask, param, chosen }));
      continue;
    }
    const spec = specsOf(ex, state)[name];
    if (!spec) {  // no such control once the link's earlier keys are taken (none is known): said, never dropped
      problems.push(fill(L.link_bad_key, { key: name, allowed: ["scale", ...order].join(", ") }));
      continue;
    }
    const [value, allowed, word] = linkValue({ ...spec, lang: ex.lang }, entry[1]);
    if (allowed !== null) {
      problems.push(fill(L[word || "link_bad_value"], { key: name, value: entry[1], allowed }));
      continue;
    }
    state = moved(state, name, value, resolve(state, ex.view, ex.data));
    // a seed alone picks the random example (moved); a link that names its source too is taken at its word
    if (name === "source") source = value;
    if (name === "seed" && source !== undefined) state = { ...state, source };
  }
  return { state, scale: shown, input, problems };
}

// -> "input=DDCBAA&T=6&mask=sliding:window=2": what differs from the page's start; page: {scale, startScale, input}
function linkOf(ex, state, start, page) {
  const now = specsOf(ex, state), was = specsOf(ex, start);
  const key = (spec) => (spec ? linkKey(spec) : null);
  const mask = now.mask, params = mask ? Object.keys(now).filter((n) => n.startsWith(`${mask.value}.`)) : [];
  const names = Object.keys(now).filter((n) => linkable(now[n]) && !n.includes("."));  // the mask's params: in mask
  const differs = (specs, n) => (n === "mask" ? [n, ...params] : [n]).some((m) => key(specs[m]) !== key(now[m]));
  const text = (named) => names.filter((n) => named.has(n)).map((n) => (n === "mask"
    ? `mask=${[mask.value, ...params.map((m) => `${m.split(".")[1]}=${key(now[m])}`)].join(":")}`
    : `${n}=${key(now[n])}`)).join("&");
  const named = new Set(names.filter((n) => differs(was, n)));
  if (named.has("seed")) named.add("source");  // a seed alone would read as the random example's
  // A value equal to the start's can still read back as another (queries = 3 is every token at T = 3, not at T = 9;
  // kv_heads = 2 is one K/V head per Query head at h = 2, not at h = 4): name each control the link would not give.
  for (let more = true; more;) {
    const read = specsOf(ex, readLink(text(named), ex, start, { start: page.startScale }).state);
    const missed = names.filter((n) => !named.has(n) && differs(read, n));
    missed.forEach((n) => named.add(n));
    more = missed.length > 0;
  }
  const input = ex.data.learned && ex.data.own.tokens !== page.input ? `input=${ex.data.own.tokens}` : "";
  return [input, text(named), page.scale === page.startScale ? "" : `scale=${page.scale}`].filter(Boolean).join("&");
}

function followLink(doc, scale) {  // the page's first explorer follows the address; scale: {lo, hi, start}
  const ex = mounted.find((v) => v instanceof ExplorerView);
  if (!ex) return;
  const start = { ...ex.state }, root = doc.documentElement, L = ex.L, input = ex.data.own?.tokens;
  const field = doc.querySelector(".al-link-field"), said = doc.querySelector(".al-link-said");
  const pick = doc.querySelector(".al-scale-pick");
  const msg = doc.createElement("p");
  msg.className = "al-msg al-link-msg";
  msg.setAttribute("role", "alert");
  msg.hidden = true;
  ex.root.before(msg);
  const edits = doc.createElement("span");  // while the picture holds an edited row: the link does not keep it
  edits.className = "al-msg al-link-edits";
  edits.textContent = L.link_no_edits;
  edits.hidden = true;
  (said || field)?.after(edits);
  let rows = ex.data.own && { ...ex.data.own };  // the rows as the page or an input gave them, before any edit
  const unedited = () => {  // an input (learned.js sends its letters) gives new rows; an edit sends rows alone
    if (!ex.data.own) return;
    if ((ex.model.get("own") || {}).tokens !== undefined) rows = { ...ex.data.own };
    edits.hidden = ["Q", "K", "V"].every((m) => JSON.stringify(ex.data.own[m]) === JSON.stringify(rows[m]));
  };
  let now = scale.start, applying = false, due = null;
  let written = null;  // the link of the state as the address last gave it or was given it: a move since differs
  const show = () => { if (field) field.value = location.href; };
  const zoom = (s) => {  // the page's scale, and the control's choice (a link's 1.3 becomes a choice of its own)
    now = s;
    root.style.setProperty("--al-scale", String(now));
    if (!pick) return;
    const options = [...pick.options];
    if (!options.some((o) => Number(o.value) === now)) {
      const option = new Option(`${now}×`, String(now));
      pick.add(option, options.find((o) => Number(o.value) > now) || null);
    }
    pick.value = [...pick.options].find((o) => Number(o.value) === now).value;
  };
  const linkNow = () => linkOf(ex, ex.state, start, { scale: now, startScale: scale.start, input });
  const address = (link) => (link ? `#${link}` : location.pathname + location.search);
  const push = () => {  // the moves settled: their link, pushed so that back steps back
    clearTimeout(due);
    due = null;
    const link = linkNow();
    written = link;
    if (link !== location.hash.replace(/^#/, "")) {
      history.pushState(null, "", address(link));
      msg.hidden = true;
      msg.classList.remove("al-msg-bad");
    }
    show();
  };
  const soon = () => {  // a move: its address once no other move follows within SETTLE_MS
    clearTimeout(due);
    due = setTimeout(push, SETTLE_MS);
  };
  const apply = () => {
    clearTimeout(due);  // back or forward within SETTLE_MS of a move: the address it goes to wins over the move
    due = null;
    const read = readLink(location.hash, ex, start, scale);
    zoom(read.scale);
    msg.textContent = read.problems.join(" ");
    msg.hidden = read.problems.length === 0;
    msg.classList.toggle("al-msg-bad", !msg.hidden);
    applying = true;
    try {
      const letters = read.input ?? input;
      if (ex.data.learned && letters !== ex.data.own.tokens) learnTokens(ex, letters);
      ex.setState(read.state);
    } finally { applying = false; }
    unedited();
    show();
    written = linkNow();
  };
  ex.model.on("change:state", () => { if (!applying) soon(); });
  ex.model.on("change:own", () => {  // a new input (learned.js) or an edited row (explorer.js)
    unedited();
    if (!applying) soon();
  });
  pick?.addEventListener("change", () => {
    zoom(Number(pick.value));
    push();
  });
  window.addEventListener("popstate", apply);
  // A reload within SETTLE_MS of a move loads the address from before the move, and so lost the move (issue 27). So on
  // leaving with a move not yet in the address, the page keeps the address it was due to write, for this tab, and its
  // next load takes it (once) if it starts at the address that move was made at.
  // Not "a push is due": a move reaches the model (and so soon) only a frame after it is on screen (explorer.js
  // syncSoon). In sessionStorage, keyed by the file (every file:// page shares one storage): a history call in
  // pagehide does not change what a reload loads (tried in Chromium: the reload keeps the address it began with).
  const kept = `al-due-link ${location.pathname}`;
  window.addEventListener("pagehide", () => {
    const link = linkNow();
    if (link === written) return;
    try {
      sessionStorage.setItem(kept, JSON.stringify({ from: location.hash, to: address(link) }));
    } catch (e) {  // no storage for this page (the browser blocks it): the move is lost, as without this
    }
  });
  window.addEventListener("pageshow", (event) => {  // back into a page kept whole (back/forward cache): its push is
    if (!event.persisted) return;                     // still due, and will be made; what pagehide kept is not for it
    try {
      sessionStorage.removeItem(kept);
    } catch (e) {  // no storage: nothing was kept
    }
  });
  doc.querySelector(".al-link-copy")?.addEventListener("click", async () => {
    if (due !== null || linkNow() !== written) push();  // what is on screen, even within a move's first frame
    show();
    try {
      await navigator.clipboard.writeText(field.value);
      said.textContent = L.link_copied;
    } catch (e) {  // no clipboard here (an older browser, or one that refuses a file:// page): select it instead
      field.focus();
      field.select();
      said.textContent = L.link_select;
    }
  });
  try {
    const left = JSON.parse(sessionStorage.getItem(kept));  // what the last pagehide kept, or null
    sessionStorage.removeItem(kept);  // taken once: a later load at the old address is that address
    if (left?.from === location.hash) history.replaceState(null, "", left.to);
  } catch (e) {  // no storage for this page, or not our record: the address as loaded
  }
  apply();
}
