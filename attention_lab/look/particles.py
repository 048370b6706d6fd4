"""Korean particles after a word that is not Korean: 을/를, 이/가, 은/는, 과/와, 으로/로 follow how the word is read.

"softmax를" (소프트맥스: no final consonant), "scale을" (스케일: ㄹ), "padding을" (패딩: ㅇ); "M은" (엠), "Q는" (큐);
"3을" (삼), "2를" (이), "10을" (십). A word's reading is in READINGS (Latin words, letters, code names), a number's
is read from its digits (DIGITS, PLACES), a word that ends in Hangul is its own reading. Where the words put a
particle after an inserted value, the template says so with its field: `{name:을}` is the value and then 을 or 를,
whichever its reading takes; closing marks may come between, as in "`{name:`을}" -> "`softmax`를". Any form of a
pair names the pair ({x:을} and {x:를} are the same field). A word with no known reading gets both forms, "을(를)",
the way Korean writes a particle it cannot choose; tests/test_particles.py makes every word the messages insert
known (a new one is added to READINGS).

    particle("softmax", "을")      # "를"
    attach("scale", "으로")        # "scale로" (ㄹ takes 로)
    fill("`{name:`을} 쓰지 않고", name="softmax")   # "`softmax`를 쓰지 않고"

The page fills its words with the same table (LOOK.particles, picture.js's fill).
"""

import re

# Each pair: (after a final consonant, after none)
PAIRS = (("을", "를"), ("이", "가"), ("은", "는"), ("과", "와"), ("으로", "로"))
FORMS = {form: pair for pair in PAIRS for form in pair}
CLOSERS = "`'\"’”]"  # marks that may stand between a value and its particle: the value's own closing quote or bracket

# How a word that is not Korean is read, by its spelling (matched without regard to case where no exact entry is).
READINGS = {
    # the letters of the article's vocabulary and of the exercises' names, read as letters
    "A": "에이", "B": "비", "C": "씨", "D": "디", "E": "이", "F": "에프", "G": "지", "H": "에이치", "I": "아이",
    "J": "제이", "K": "케이", "L": "엘", "M": "엠", "N": "엔", "O": "오", "P": "피", "Q": "큐", "R": "알", "S": "에스",
    "T": "티", "U": "유", "V": "브이", "W": "더블유", "X": "엑스", "Y": "와이", "Z": "지",
    "d": "디", "g": "지", "h": "에이치", "l": "엘", "m": "엠", "p": "피", "r": "알", "s": "에스", "w": "더블유",
    "x": "엑스", "dh": "디에이치", "T_q": "티 큐", "T_k": "티 케이", "W_O": "더블유 오", "Q·K·V": "큐 케이 브이",
    "QKᵀ": "큐 케이 트랜스포즈",
    # words and names
    "softmax": "소프트맥스", "scale": "스케일", "padding": "패딩", "mask": "마스크", "causal": "코잘",
    "causal_mask": "코잘 마스크", "batch": "배치", "head": "헤드", "Key": "키", "Query": "쿼리", "Value": "밸류",
    "Attention": "어텐션", "projection": "프로젝션", "Transformer": "트랜스포머", "attention_lab": "어텐션 랩",
    "SDPA": "에스디피에이", "attn_mask": "어텐션 마스크", "exp": "이엑스피", "seed": "시드", "answer": "앤서",
    "None": "논", "True": "트루", "False": "폴스", "NaN": "난", "inf": "인프", "float": "플로트", "PyTorch": "파이토치",
    "torch": "토치", "JupyterLab": "주피터랩", "JavaScript": "자바스크립트", "prefix": "프리픽스",
    "sliding": "슬라이딩",
    "window": "윈도", "packed": "팩트", "custom": "커스텀", "none": "논", "tr": "티알", "np": "엔피", "al": "에이엘",
    "max": "맥스", "sum": "섬", "sdpa": "에스디피에이", "scaled_dot_product_attention": "스케일드 닷 프로덕트 어텐션",
    "softmax_stable": "소프트맥스 스테이블", "log_softmax": "로그 소프트맥스", "einsum": "아인섬",
    "concatenate": "콘캐터네이트", "Concat": "콘캣",
    # the functions the exercises forbid (ex.forbidden)
    "additive_mask": "애디티브 마스크", "make_mask": "메이크 마스크", "row_exponentials": "로 익스포넨셜스",
    "normalize_rows": "노멀라이즈 로스", "softmax_backward": "소프트맥스 백워드",
    "core_attention_backward": "코어 어텐션 백워드", "allowed": "얼라우드", "key_padding_mask": "키 패딩 마스크",
    "secret": "시크릿", "store": "스토어", "psycopg": "사이코피지", "URL": "유알엘",
    # the gradients of notebook 13's backward pass, read as their letters
    "dQ": "디큐", "dK": "디케이", "dV": "디브이", "dS": "디에스", "dP": "디피", "dO": "디오", "dH": "디에이치",
}
DIGITS = "영일이삼사오육칠팔구"  # a digit read aloud
PLACES = {1: "십", 2: "백", 3: "천", 4: "만", 8: "억", 12: "조"}  # a whole number's trailing zeros: 10 십, 100 백, …
_NUMBER = re.compile(r"[+\-−]?[0-9][0-9,]*(\.[0-9]+)?(e[+-]?[0-9]+)?")
_HANGUL = re.compile(r"[가-힣]$")
FIELD = re.compile(r"\{(\w+):([" + re.escape(CLOSERS) + r"]*)(" + "|".join(sorted(FORMS, key=len, reverse=True))
                   + r")\}")


def reading(word, strict=False):  # -> how `word` is read, ending as it ends in Hangul; None if unknown (strict: raise)
    """A word's reading, as far as its particle needs it: its last syllable matters."""
    text = str(word).strip()
    if _HANGUL.search(text):
        return text
    if _NUMBER.fullmatch(text):
        return _number_reading(text)
    found = READINGS.get(text)
    if found is None:
        found = next((r for w, r in READINGS.items() if w.lower() == text.lower()), None)
    if found is None and re.search(r"[\s.(]", text):  # "al.softmax", "np.exp(x)": read by the last name in it
        last = re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text)
        found = reading(last[-1]) if last else None
    if found is None and strict:
        raise KeyError(f"particles: no reading of {text!r}: add it to READINGS in attention_lab/look/particles.py.")
    return found


def _number_reading(text):  # "3" -> "삼", "10" -> "십", "2.5" -> "오", "1,000" -> "천": the syllable it ends on
    digits = text.lstrip("+-−").replace(",", "")
    if "." in digits or "e" in digits:  # after the point each digit is read (2.50: 이 점 오 영), and 1e9: 일 이 구
        return DIGITS[int(digits[-1])]
    whole = digits.lstrip("0") or "0"
    zeros = len(whole) - len(whole.rstrip("0"))
    if whole == "0" or zeros == 0:
        return DIGITS[int(whole[-1])]
    return PLACES[max(p for p in PLACES if p <= zeros)]


def has_final(syllable):  # -> (a final consonant?, is it ㄹ?) of one Hangul syllable
    final = (ord(syllable) - 0xAC00) % 28
    return final != 0, final == 8


def particle(word, form, strict=False):  # -> the form of `form`'s pair that `word` takes, or "을(를)" if unknown
    """The particle after `word`: 을/를, 이/가, 은/는, 과/와, 으로/로 (any form names its pair)."""
    after_final, after_none = FORMS[form]
    read = reading(word, strict)
    if read is None:
        return f"{after_final}({after_none})"
    final, rieul = has_final(read[-1])
    if after_final == "으로":  # ㄹ takes 로, as a vowel does: 스케일로, 일로
        return after_none if not final or rieul else after_final
    return after_final if final else after_none


def attach(word, form, strict=False):  # -> word and its particle
    return f"{word}{particle(word, form, strict)}"


def fields(template):  # -> [(name, closers, form)]: the particle fields of a template
    return FIELD.findall(template)


def resolve(template, values, strict=False):  # -> the template with each particle field {name:…을} made plain
    """Each particle field becomes its plain field, its closing marks and the particle its value takes; the result
    is then an ordinary str.format template (the particles' own braces doubled, though they have none)."""
    return FIELD.sub(lambda m: "{" + m[1] + "}" + m[2] + particle(values[m[1]], m[3], strict), template)


def fill(template, strict=False, **values):  # -> the template filled, its particles chosen for the values
    return resolve(template, values, strict).format(**values)


def page_data():  # -> the table as the page gets it (LOOK.particles), for picture.js's fill
    return {"pairs": [list(p) for p in PAIRS], "closers": CLOSERS, "readings": READINGS, "digits": DIGITS,
            "places": {str(k): v for k, v in PLACES.items()}}
