// ---- mount.js: what the bundle mounts, in a notebook (anywidget's render) or in any page (mountAll) ------------
//
// MOUNTS (defined first in the bundle): config.kind -> how to build it on a node with a model. In a notebook the model is anywidget's; in a
// page with no Python it is localModel's, which keeps the values in the page. Steppers add their kind here.

MOUNTS.explorer = (node, model) => new ExplorerView(node, model);
const mounted = [];

function localModel(config) {  // the part of anywidget's model the front-end uses, for a page with no kernel
  const values = { config, state: config.state, own: {}, message: {} }, handlers = {};
  return {
    get: (key) => values[key],
    set(key, value) {
      values[key] = value;
      for (const fn of handlers["change:" + key] || []) fn();
    },
    on(event, fn) { (handlers[event] = handlers[event] || []).push(fn); },
    off(event, fn) { handlers[event] = (handlers[event] || []).filter((f) => f !== fn); },
    save_changes() {},
    send() {},
  };
}

// Keys pressed inside a mounted view (.al-live) are the view's: a notebook's shortcuts must not see them (in
// command mode ↓ would move to the next cell). Notebook 7 reads keys on the document in the capture phase, so
// they are stopped first, on the window, where capturing starts; the element's own defaults (a range input's
// step, a select's choice, typing, Tab) still happen, and a node's `__alKeydown(e)` gets the keydowns it
// handles itself (a heatmap's arrow keys, Enter in a text box). Keys with Ctrl, Alt or ⌘ stay the page's.
let keysKept = false;
function keepKeys() {
  if (keysKept) return;
  keysKept = true;
  for (const type of ["keydown", "keyup", "keypress"]) {
    window.addEventListener(type, (e) => {
      const root = e.target instanceof Element ? e.target.closest(".al-live") : null;
      if (!root || e.ctrlKey || e.metaKey || e.altKey) return;
      e.stopImmediatePropagation();
      if (type !== "keydown") return;
      for (let node = e.target; node && node !== root.parentElement; node = node.parentElement) {
        if (node.__alKeydown) return node.__alKeydown(e);
      }
    }, true);
  }
}

function mount(node, config, model) {  // -> what was mounted (e.g. an ExplorerView)
  keepKeys();
  const make = MOUNTS[config.kind];
  if (!make) throw new Error(`attentionLab.mount: no front-end for kind ${JSON.stringify(config.kind)}`);
  const view = make(node, model || localModel(config));
  mounted.push(view);
  return view;
}

function mountAll(root = document) {  // every <div class="al-mount"> that page.mount_html wrote
  for (const node of root.querySelectorAll(".al-mount:not([data-mounted])")) {
    node.dataset.mounted = "1";
    try {
      mount(node, JSON.parse(node.querySelector("script.al-config").textContent));
    } catch (error) {  // one broken config costs its own place only: say so there, and mount the others
      const lang = (node.closest("[lang]")?.lang || "en").startsWith("ko") ? "ko" : "en";
      const said = document.createElement("p");
      said.className = "al-msg al-msg-bad";
      said.setAttribute("role", "alert");
      said.textContent = fill(LOOK.words[lang].mount_failed, { error: String(error.message || error) });
      for (const part of node.querySelectorAll(".al-live")) part.remove();  // what was built before it failed
      node.append(said);
    }
  }
  return mounted;
}

function render({ model, el }) {  // anywidget
  const view = mount(el, model.get("config"), model);
  return () => view.destroy && view.destroy();
}

// For tests and pages: what is mounted, and the formats and colours (to compare with Python's).
globalThis.attentionLab = { mount, mountAll, mounted, localModel, formatValue, formatApprox, formatRow, equalsSign,
  cellStyle, runPipeline, evaluate, stages: STAGE_LIST, parseRow, rowPieces, allowedOf, parseTokens, learnedQKV };
