// Drills: an exercise done by hand on a page with no Python. Every value was computed at build time and comes
// as each drill's data: the page shows an example, reads the fields and compares.
window.alDrills = window.alDrills || (function () {
  "use strict";

  // A typed answer: a number or −∞ by the drill's grammar (its data), after reading each full-width character and
  // the typographic minus as its ASCII twin; null if it is neither. "1 2" is not a number (not 12).
  function parse(text, grammar) {
    var t = Array.from(String(text), function (c) { return grammar.readAs[c] || c; }).join("").trim();
    if (new RegExp("^(?:" + grammar.minusInfinity + ")$").test(t)) return -Infinity;
    if (!new RegExp("^(?:" + grammar.number + ")$").test(t)) return null;
    var x = Number(t);
    return isFinite(x) ? x : null;
  }

  function value(x) { return x === "-inf" ? -Infinity : x; }

  // The rule: every entry within `within` (the drill's tol and edge), and −∞ exactly where −∞ is.
  function same(got, want, within) {
    if (got.length !== want.length) return false;
    for (var i = 0; i < want.length; i++) {
      var w = value(want[i]), g = got[i];
      if (w === -Infinity || g === -Infinity) { if (g !== w) return false; continue; }
      if (!(Math.abs(g - w) <= within)) return false;
    }
    return true;
  }

  // -> {kind: "right" | "slip" | "wrong", slip: index}
  function judge(got, example, within) {
    if (same(got, example.want, within)) return { kind: "right" };
    for (var i = 0; i < example.slips.length; i++) {
      if (same(got, example.slips[i][0], within)) return { kind: "slip", slip: example.slips[i][1] };
    }
    return { kind: "wrong" };
  }

  function show(x) { return x === "-inf" ? "−∞" : String(x).replace(/^-/, "−"); }

  function element(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function mount(section) {
    if (section.dataset.mounted) return;
    section.dataset.mounted = "1";
    var d = JSON.parse(section.dataset.drill), W = d.words, uid = "al-drill-" + d.id.replace(".", "-");
    var seed = 0, tries = 0;
    section.appendChild(element("h3", { id: uid + "-title" }, W.title));
    section.setAttribute("aria-labelledby", uid + "-title " + uid + "-task");
    var task = element("p", { "class": "al-drill-task", id: uid + "-task" });
    task.appendChild(element("strong", {}, d.task.charAt(0).toUpperCase() + d.task.slice(1)));
    task.appendChild(document.createTextNode(" — " + W.task));
    section.appendChild(task);
    var bar = element("div", { "class": "al-drill-bar" });
    var seedLabel = element("label", { "for": uid + "-seed" }, W.seed + " ");
    var seedInput = element("input", { id: uid + "-seed", type: "number", min: "0", max: String(d.seeds - 1),
                                       value: "0", inputmode: "numeric" });
    var another = element("button", { type: "button" }, W.new);
    bar.appendChild(seedLabel); bar.appendChild(seedInput); bar.appendChild(another);
    section.appendChild(bar);
    var given = element("dl", { "class": "al-drill-given" });
    section.appendChild(given);
    var form = element("form", { "class": "al-drill-form", novalidate: "" });
    var fields = element("div", { "class": "al-drill-fields", role: "group", "aria-label": W.answer });
    form.appendChild(fields);
    var check = element("button", { type: "submit" }, W.check);
    var hint = element("button", { type: "button", "class": "al-drill-hint" }, W.hint);
    form.appendChild(check); form.appendChild(hint);
    section.appendChild(form);
    var said = element("p", { "class": "al-drill-feedback", role: "status", "aria-live": "polite" });
    section.appendChild(said);
    var inputs = [];

    function load(n) {
      seed = Math.max(0, Math.min(d.seeds - 1, n | 0));
      seedInput.value = String(seed);
      tries = 0;
      said.textContent = "";
      said.className = "al-drill-feedback";
      var ex = d.examples[seed];
      given.textContent = "";
      ex.given.forEach(function (g) {
        given.appendChild(element("dt", {}, g.label));
        given.appendChild(element("dd", {}, g.values.length > 1 ? "[" + g.values.map(show).join(", ") + "]"
                                                                  : show(g.values[0])));
      });
      fields.textContent = "";
      inputs = ex.want.map(function (_, i) {
        var id = uid + "-f" + i;
        var label = element("label", { "for": id }, W.field + " " + (i + 1));
        var input = element("input", { id: id, type: "text", inputmode: "decimal", autocomplete: "off",
                                       spellcheck: "false", size: "7" });
        var wrap = element("span", { "class": "al-drill-field" });
        wrap.appendChild(label); wrap.appendChild(input);
        fields.appendChild(wrap);
        return input;
      });
    }

    function say(text, kind) {
      said.textContent = text;
      said.className = "al-drill-feedback al-drill-" + kind;
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var got = [];
      for (var i = 0; i < inputs.length; i++) {
        if (!inputs[i].value.trim()) { say(W.count, "wrong"); inputs[i].focus(); return; }
        var x = parse(inputs[i].value, d.grammar);
        if (x === null) { say(W.unreadable.replace("{n}", String(i + 1)), "wrong"); inputs[i].focus(); return; }
        got.push(x);
      }
      var verdict = judge(got, d.examples[seed], d.tol + d.edge);
      if (verdict.kind === "right") { tries = 0; say(W.right, "right"); return; }
      tries += 1;
      if (verdict.kind === "slip") { say("✗ " + d.slips[verdict.slip], "wrong"); return; }
      say(W.not_yet + " " + W.hint + ": " + d.hints[Math.min(tries, 2) - 1], "wrong");
    });
    hint.addEventListener("click", function () {
      tries = Math.min(tries + 1, 2);
      say(W.hint + ": " + d.hints[tries - 1], "hint");
    });
    another.addEventListener("click", function () { load((seed + 1) % d.seeds); });
    seedInput.addEventListener("change", function () { load(Number(seedInput.value)); });
    load(0);
  }

  function mountAll() {
    Array.prototype.forEach.call(document.querySelectorAll("section.al-drill"), mount);
  }

  return { parse: parse, same: same, judge: judge, mount: mount, mountAll: mountAll };
})();
if (typeof module !== "undefined") module.exports = window.alDrills;
if (typeof document !== "undefined") window.alDrills.mountAll();
