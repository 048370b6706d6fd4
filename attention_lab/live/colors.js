// ---- colors.js: each cell's fill and ink, from the colour tables the bundle carries -----------------------------
//
// The colour maps come as the tables they are (matplotlib's 256 colours of each map, and the ink that reads on
// each); a value picks entry min(floor(unit · 256), 255), the unit value made in the order of float operations
// that the parity tests hold to the figures' colours, then rounded to a step of 1 / unitSteps (the
// page's sums and NumPy's differ in their last bits; a colour must not). Masked (−∞) and NaN cells have their own
// colours.

const COLOURS = LOOK.colours;
const LUT_SIZE = COLOURS.weights.fill.length;  // 256
const UNIT_STEPS = COLOURS.unitSteps;  // 10⁹: every edge k/256 is a whole number of steps

function valueRange(kind, matrices) {  // (vmin, vmax) over every matrix given: a fixed one, or ±(largest |x|)
  if (COLOURS.fixedRanges[kind]) return COLOURS.fixedRanges[kind];
  let biggest = 0;
  for (const m of matrices) for (const row of m) for (const x of row) {
    if (Number.isFinite(x) && Math.abs(x) > biggest) biggest = Math.abs(x);
  }
  const vmax = Math.max(biggest, COLOURS.leastVmax);
  return [-vmax, vmax];
}

// One matrix's cells: {labels, fill (#rrggbb without #), ink ("1" dark, "0" light), masked} per cell, row-major.
// allowed: the mask's allowed matrix (true where a row sees its key) for a stage whose masked cells are 0, or none.
function cellStyle(matrix, kind, range, allowed) {
  const [vmin, vmax] = range || valueRange(kind, [matrix]);
  const scale = Math.max(Math.abs(vmin), Math.abs(vmax));  // divided first: the order fixes the last bit
  const lo = vmin / scale, span = vmax / scale - vmin / scale;
  const table = COLOURS[kind];
  const labels = [], fill = [], ink = [], masked = [];
  for (const [i, row] of matrix.entries()) for (const [j, x] of row.entries()) {
    labels.push(formatValue(x, kind, allowed ? allowed[i][j] : undefined));
    if (x === -Infinity || Number.isNaN(x)) {
      const own = x === -Infinity ? COLOURS.masked : COLOURS.nan;
      fill.push(own.fill);
      ink.push(own.ink);
      masked.push(x === -Infinity ? "1" : "0");
      continue;
    }
    const unit = Math.floor(Math.min(Math.max((x / scale - lo) / span, 0), 1) * UNIT_STEPS + 0.5) / UNIT_STEPS;
    const k = Math.min(Math.floor(unit * LUT_SIZE), LUT_SIZE - 1);
    fill.push(table.fill[k]);
    ink.push(table.ink[k]);
    masked.push("0");
  }
  return { labels, fill, ink, masked };
}

function inkColour(flag) {  // "1": dark text, "0": light text
  return COLOURS.inks[flag === "1" ? 1 : 0];
}

function headColour(i) {
  return COLOURS.heads[i % COLOURS.heads.length];
}

function kvHeadColour(j, h, g) {  // a K/V head's colour: that of the first Query head it serves
  return headColour(j * (h / g));
}
