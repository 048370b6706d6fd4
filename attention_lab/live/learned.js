// ---- learned.js: notebook 13's learned model as the explorer's source: an input → X → Q, K, V -------------------
//
// data.learned holds the trained weights (sent once, read from learned.npz) and data.own.tokens
// the input on screen. A typed input is read by one rule, sent as data (learned.reading); a good one becomes
// X = E_tok[x] + E_pos and Q, K, V = X W_Q, X W_K, X W_V, the explorer's own numbers, and every stage follows.

function parseTokens(typed, learned) {  // -> [letters, null] or [null, [message key, detail]]
  const { blank, readAs } = learned.reading, chars = [...String(typed)];
  let start = 0, end = chars.length;
  while (start < end && blank.includes(chars[start])) start += 1;
  while (end > start && blank.includes(chars[end - 1])) end -= 1;
  const letters = chars.slice(start, end).map((c) => readAs[c] ?? c);
  const bad = [...new Set(letters)].filter((c) => !learned.tokens.includes(c));
  if (bad.length) return [null, ["learned_letters", bad.join("")]];
  if (letters.length !== learned.T) return [null, ["learned_count", letters.length]];
  return [letters.join(""), null];
}

function learnedQKV(letters, learned) {  // "CABDDA" -> {Q, K, V}: (T, d) each
  const X = [...letters].map((c, t) => learned.E_tok[learned.tokens.indexOf(c)].map((x, k) => x + learned.E_pos[t][k]));
  return { Q: matmul(X, learned.W_Q), K: matmul(X, learned.W_K), V: matmul(X, learned.W_V) };
}

function learnTokens(ex, typed) {  // the input box committed: a new input on screen, or a line saying why not
  const learned = ex.data.learned, L = ex.L;
  const [letters, problem] = parseTokens(typed, learned);
  if (problem) {
    const [key, detail] = problem;
    ex.controls.say("tokens", "bad", fill(L[key], { bad: detail, n: detail, T: learned.T,
      letters: learned.tokens.join(" ") }));
    ex.controls.parts.tokens.input.value = ex.data.own.tokens;
    return;
  }
  const own = { ...ex.data.own, ...learnedQKV(letters, learned), tokens: letters };
  ex.data.own = own;
  ex.editKey = null;  // the row editor shows the new rows
  ex.controls.parts.tokens.input.value = letters;
  ex.controls.say("tokens", "ok", fill(L.learned_done, { tokens: letters }));
  ex.draw();
  ex.setting = true;
  try {
    ex.model.set("own", { Q: own.Q, K: own.K, V: own.V, tokens: letters });
    ex.model.save_changes();
  } finally {
    ex.setting = false;
  }
}
