// ---- formats.js: every number format, from the rules the bundle carries (LOOK.rules) ---------------------------
//
// A cell's label, a display number, a row, a dot product written out, and "=" or "≈". The rules round
// an exact tie half to even (0.0625 to 3 decimals is "0.062", 0.125 to 2 is "0.12"), where toFixed, toPrecision
// and toExponential round it away from zero: each rounding below asks for 21 more digits, and when those show an
// exact tie ("5" and twenty zeros; a double's tie at these digits is exact in far fewer) whose rounded-up last
// digit is odd, keeps the truncated digits instead. A number is first rounded to RULES.guardDigits
// more digits than its label shows (the sums' last bits differ between sides; the shown value must not).
// The parity tests hold every label to the figures' and the notebooks'.

const RULES = LOOK.rules;
const TIE = "5" + "0".repeat(20);
const DIGITS = "0123456789-";

function signed(text) {  // "-" as the typographic minus; "−0" is "0"
  text = text.replace(/-/g, RULES.minus);
  return text === RULES.minus + "0" ? "0" : text;
}

function oddEnd(text) {
  return Number(text[text.length - 1]) % 2 === 1;
}

function stripZeros(text) {  // Python's text.rstrip("0").rstrip(".") on a number with a decimal point
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

// The first n significant digits of a plain decimal string, the rest cut off (not rounded).
function cutSignificant(text, n) {
  let seen = 0, started = false, k = 0;
  for (; k < text.length && seen < n; k++) {
    const c = text[k];
    if (c >= "0" && c <= "9") {
      if (c !== "0") started = true;
      if (started) seen++;
    }
  }
  return text.slice(0, k);
}

function fixedPy(x, d) {  // Python's f"{x:.{d}f}" for a finite |x| < 1e21
  const a = Math.abs(x);
  let text = a.toFixed(d);
  const exact = a.toFixed(d + 21);
  if (exact.endsWith(TIE) && oddEnd(text)) text = exact.slice(0, exact.length - 21).replace(/\.$/, "");
  return (x < 0 ? "-" : "") + text;
}

function roundPy(x) {  // Python's round(x) to a whole number: half to even
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
}

function superscript(n) {
  return String(n).split("").map((c) => RULES.superscripts[DIGITS.indexOf(c)]).join("");
}

function exponentialPy(a, d) {  // Python's f"{a:.{d}e}" for a finite a ≥ 0, as [mantissa, exponent]
  let [mantissa, exponent] = a.toExponential(d).split("e");
  const [exactMantissa, exactExponent] = a.toExponential(Math.min(100, d + 21)).split("e");
  if (exactMantissa.replace(".", "").slice(d + 1) === TIE && oddEnd(mantissa)) {
    mantissa = exactMantissa.slice(0, d ? d + 2 : 1);
    exponent = exactExponent;
  }
  return [mantissa, exponent];
}

function powerOfTen(x, digits) {  // 8886110.52 -> "8.886×10⁶"; 2e300 -> "2×10³⁰⁰" (Python's f"{x:.3e}", then tidied)
  const guarded = exponentialPy(Math.abs(x), digits - 1 + RULES.guardDigits);
  const rounded = Number(guarded.join("e"));  // the largest floats round up past the largest float: keep them
  const [mantissa, exponent] = exponentialPy(Number.isFinite(rounded) ? rounded : Math.abs(x), digits - 1);
  return signed((x < 0 ? "-" : "") + stripZeros(mantissa)) + RULES.timesTen + superscript(Number(exponent));
}

// allowed: true where the cell's row sees its key, false where the mask hides it, undefined when not said: a weight
// of exactly 0 reads "0" only where it is not true (a gap of 745 in one row's scores underflows e^s to 0).
function formatValue(x, kind = "values", allowed = undefined) {  // one cell's label, in its kind's format
  if (Number.isNaN(x)) return RULES.nan;
  if (!Number.isFinite(x)) return x < 0 ? RULES.negInf : RULES.inf;
  if (Math.abs(x) >= RULES.powersFrom) return powerOfTen(x, RULES.approxDigits);
  x += 0;  // −0 is 0
  const whole = Math.round(x);  // within wholeWithin of a whole number there is no tie to break
  const keep = whole === 0 && (x > 0 || (x === 0 && allowed === true)) && RULES.keepZeros.includes(kind);
  if (Math.abs(x - whole) < RULES.wholeWithin && !keep) return signed(String(whole));  // 5e-10: "0.000", not "0"
  x = Number(fixedPy(x, RULES.decimals[kind] + RULES.guardDigits));
  let text = fixedPy(x, RULES.decimals[kind]);
  if (!RULES.keepZeros.includes(kind)) text = stripZeros(text);
  return signed(text);
}

function generalPy(x, p) {  // Python's f"{x:.{p}g}" for 1e-4 ≤ |x| < 10^p; null when Python would write an exponent
  const a = Math.abs(x);
  let text = a.toPrecision(p);
  const exact = a.toPrecision(p + 21);
  if (exact.replace(".", "").replace(/^0+/, "").slice(p) === TIE && oddEnd(text)) text = cutSignificant(exact, p);
  if (text.includes("e")) return null;  // 9999.7 rounds to 10⁴: format_approx writes it whole
  return (x < 0 ? "-" : "") + stripZeros(text);
}

function formatApprox(x, allowed = undefined) {  // 4 significant digits: 2.718, 20.09, 8.886×10⁶; e^s of 0: "0.000"
  if (!Number.isFinite(x) || x === 0) return formatValue(x, x === 0 ? "weights" : "values", allowed);
  const a = Math.abs(x);
  if (a >= RULES.powersFrom || a < RULES.approxSmallBelow) return powerOfTen(x, RULES.approxDigits);
  x = Number(generalPy(x, RULES.approxDigits + RULES.guardDigits));  // |x| < 10⁶: never an exponent at 10 digits
  const general = Math.abs(x) >= RULES.approxWholeFrom ? null : generalPy(x, RULES.approxDigits);
  return signed(general === null ? String(roundPy(x)) : general);
}

function formatRow(row, kind = "values", allowed = undefined) {  // [3, 1.5, −∞]; allowed: a row of formatValue's
  return "[" + Array.from(row, (x, j) => formatValue(x, kind, allowed && allowed[j])).join(", ") + "]";
}

function dotProductText(q, k) {  // −1·1 + 1·(−1) + 1·2 + 2·1
  const factor = (x, bracket) => {
    const text = formatValue(x);
    return bracket && x < 0 ? `(${text})` : text;
  };
  return Array.from(q, (a, n) => `${factor(a, n > 0)}\u00b7${factor(k[n], true)}`).join(" + ");
}

function parseLabel(text) {  // a label back to the number it shows
  if (text.includes(RULES.timesTen)) {
    const [mantissa, exponent] = text.split(RULES.timesTen);
    const e = Number(exponent.split("").map((c) => DIGITS[RULES.superscripts.indexOf(c)]).join(""));
    return parseLabel(mantissa) * 10 ** e;
  }
  return Number(text.replace(RULES.minus, "-").replace("∞", "Infinity").replace(/,/g, ""));
}

function equalsSign(x, text) {  // "=" when the label shows x exactly, "≈" when it is rounded
  const shown = parseLabel(text);
  if (shown === 0 && text.includes(".")) return "≈";  // a kept zero "0.000": a weight above 0, even 0.0 in floats
  const scale = shown !== 0 ? Math.abs(x) : 1;  // formats.equals: float noise is 1e-9 of the number; "0" also of 0
  return shown === x || Math.abs(shown - x) <= 1e-9 * scale ? "=" : "≈";
}
