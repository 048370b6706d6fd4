"""Breaking a figure's text into lines: as few lines as fit, of even length, and never inside a formula.

`wrap` measures each line with the figure font's own advance widths (`heatmap.width_em`), so a line it returns
fits the width it was given when matplotlib draws it.
"""

from .heatmap import width_em


def wrap(text, width_pt, size, family, terms=False):  # -> [str]: lines no wider than width_pt at `size` points
    """Break text at spaces into as few lines as fit width_pt, of even length: no word alone on the last line.

    An existing line break is kept. A single word wider than the line stays whole, and so does a part in
    parentheses that fits the line (a formula, a shape). terms=True (the titles of slides and their panels):
    never a break inside a formula (`between_terms`); a term wider than the line stays whole, on a line of its own.
    """
    if "\n" in text:
        return [line for part in text.split("\n") for line in wrap(part, width_pt, size, family, terms)]
    family = tuple(family)

    def width(s):
        return width_em(s, family) * size

    if terms:
        words = _terms(text.split(" "))
    else:
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


GLUE = ("/", "×", "·")  # "S / √dh", "3 × 4": a formula never breaks beside these


def between_terms(words):  # -> [bool], one per space: whether breaking there keeps every formula's terms whole
    """Inside parentheses only before a + or − term, after "=" or after a comma ("(output, 8 × 4)"); outside them,
    never beside /, ×, · or before "=": "E = exp(S / √dh" ⏎ "+ M − row max)" breaks between terms,
    "E = exp(S /" ⏎ "√dh + M −" inside them."""
    good, depth = [], 0
    for left, right in zip(words, words[1:], strict=False):
        depth = max(depth + left.count("(") - left.count(")"), 0)
        if depth > 0:
            good.append(right in ("+", "−") or left.endswith(("=", ",")))
        else:
            good.append(not (left.endswith((*GLUE, "(")) or right in (*GLUE, "=") or right.startswith(")")))
    return good


def _terms(words):  # -> the pieces a title breaks between: its words, joined where a break would split a formula
    units = [words[0]]
    for word, good in zip(words[1:], between_terms(words), strict=True):
        units.append(word if good else f"{units.pop()} {word}")
    return units


def _units(text):  # -> the pieces wrap breaks between: words, but "(…)" whole ("softmax(S / √dh + M)", "(3 × 4)")
    units, depth = [], 0
    for word in text.split(" "):
        units.append(f"{units.pop()} {word}" if depth > 0 and units else word)
        depth = max(depth + word.count("(") - word.count(")"), 0)
    return units
