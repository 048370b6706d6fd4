"""Breaking a figure's text into lines: as few lines as fit, of even length, and never inside a formula.

`wrap` measures each line with the figure font's own advance widths (`heatmap.width_em`), so a line it returns
fits the width it was given when matplotlib draws it.
"""

from .heatmap import width_em


def wrap(text, width_pt, size, family, terms=False):  # -> [str]: lines no wider than width_pt at `size` points
    """Break text at spaces into as few lines as fit width_pt, of even length: no word alone on the last line.

    An existing line break is kept. A single word wider than the line stays whole, and so does a part in
    parentheses that fits the line (a formula, a shape). terms=True (a slide's panel titles): of the breakings
    with that fewest number of lines, one with the fewest breaks inside a formula (`between_terms`).
    """
    if "\n" in text:
        return [line for part in text.split("\n") for line in wrap(part, width_pt, size, family, terms)]
    family = tuple(family)

    def width(s):
        return width_em(s, family) * size

    if terms and text.count(" ") < TERM_WORDS:
        return _term_lines(text.split(" "), width_pt, width)

    words = [word for unit in _units(text) for word in (unit.split(" ") if width(unit) > width_pt else [unit])]

    def greedy(limit):
        lines, line = [], ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if line and width(candidate) > limit:
                lines.append(line)
                candidate = word
            line = candidate
        return lines + [line]

    lines = greedy(width_pt)
    if len(lines) == 1:
        return lines
    # As narrow as it can be while taking no more lines: the lines come out of even length.
    target, n = width(text) / len(lines), len(lines)
    for step in range(41):
        limit = target * (1 + step / 40)
        even = greedy(min(limit, width_pt))
        if len(even) <= n:
            return even
    return lines


TERM_WORDS = 12  # a title of up to this many words is broken by trying every breaking (2¹¹ at most)
GLUE = ("/", "×", "·")  # "S / √dh", "3 × 4": a formula never breaks beside these


def between_terms(words):  # -> [bool], one per space: whether breaking there keeps every formula's terms whole
    """Inside parentheses only before a + or − term or after "="; outside them, never beside /, ×, · or before
    "=": "E = exp(S / √dh" ⏎ "+ M − row max)" breaks between terms, "E = exp(S /" ⏎ "√dh + M −" inside them."""
    good, depth = [], 0
    for left, right in zip(words, words[1:], strict=False):
        depth = max(depth + left.count("(") - left.count(")"), 0)
        if depth > 0:
            good.append(right in ("+", "−") or left.endswith("="))
        else:
            good.append(not (left.endswith((*GLUE, "(")) or right in (*GLUE, "=") or right.startswith(")")))
    return good


def _term_lines(words, width_pt, width):  # -> [str]: fewest lines, then fewest breaks inside formulas, then even
    good, best = between_terms(words), None
    for breaks in range(1 << (len(words) - 1)):
        lines, line, bad = [], [words[0]], 0
        for k, word in enumerate(words[1:]):
            if breaks >> k & 1:
                lines.append(" ".join(line))
                line, bad = [word], bad + (not good[k])
            else:
                line.append(word)
        lines.append(" ".join(line))
        if any(" " in line and width(line) > width_pt for line in lines):
            continue  # too wide (a single word wider than the line stays whole, as in wrap)
        key = (len(lines), bad, max(width(line) for line in lines))
        if best is None or key < best[0]:
            best = (key, lines)
    return best[1]


def _units(text):  # -> the pieces wrap breaks between: words, but "(…)" whole ("softmax(S / √dh + M)", "(3 × 4)")
    units, depth = [], 0
    for word in text.split(" "):
        units.append(f"{units.pop()} {word}" if depth > 0 and units else word)
        depth = max(depth + word.count("(") - word.count(")"), 0)
    return units
