"""Text contrast as a reader sees it: every piece of text inside a node, against what is painted behind it.

`LOW_CONTRAST(root selector)` is a script for page.evaluate: for each visible element with text of its own (a text
node, or an input's value), its computed colour composited over the first opaque background found walking up
(each translucent layer blended on the way), and the WCAG contrast ratio of the two. Text of font size 0 (the
compact heatmaps' cells, whose values are in their labels) is not drawn, so it is not measured; nor is a disabled
control's, which WCAG leaves out (text of an inactive user interface component).
"""

MIN_CONTRAST = 4.5  # WCAG AA, normal text

LOW_CONTRAST = """(selector) => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat([1]);
  const canvas = () => getComputedStyle(document.documentElement).colorScheme.includes('dark') &&
    !getComputedStyle(document.documentElement).colorScheme.includes('light') ? [18, 18, 18, 1] : [255, 255, 255, 1];
  const behind = (el) => { const layers = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const b = parse(getComputedStyle(n).backgroundColor);
      if (b && b[3] > 0) { layers.push(b); if (b[3] >= 1) break; } }
    let colour = layers.length && layers[layers.length - 1][3] >= 1 ? layers.pop() : canvas();
    while (layers.length) colour = over(layers.pop(), colour);
    return colour; };
  const lum = (c) => { const [r, g, b] = c.slice(0, 3).map((v) => { v /= 255;
    return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const found = [];
  for (const root of document.querySelectorAll(selector)) for (const el of [root, ...root.querySelectorAll('*')]) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) ||
      (el.tagName === 'INPUT' && el.type === 'text' && el.value.trim()) || el.tagName === 'SELECT';
    if (!own || ['SCRIPT', 'STYLE', 'OPTION'].includes(el.tagName) || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    if (style.visibility !== 'visible' || parseFloat(style.fontSize) === 0 || el.closest('[hidden]') ||
        el.matches(':disabled')) continue;
    const bg = behind(el), fg = over(parse(style.color), bg), r = ratio(fg, bg);
    found.push({text: (el.value || el.textContent).trim().slice(0, 40), tag: el.tagName, cls: String(el.className),
                ratio: Math.round(r * 100) / 100, fg: fg.map(Math.round).join(','), bg: bg.map(Math.round).join(',')});
  }
  return found;
}"""


def measure(page, selector):  # -> [(ratio, what)] for every piece of text under selector, and the lowest first
    found = page.evaluate(LOW_CONTRAST, selector)
    assert found, f"no text found under {selector}"
    return sorted(found, key=lambda f: f["ratio"])


def too_low(found):  # -> the entries below MIN_CONTRAST
    return [f for f in found if f["ratio"] < MIN_CONTRAST]
