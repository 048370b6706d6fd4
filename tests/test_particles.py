"""Korean particles after a word that is not Korean follow how it is read (issue 48, item 13): "softmax를" (소프트맥스),
"scale을" (스케일), "padding을" (패딩), by one table (look/particles.py) that the words' formatting and the page's use.

- the rule, held to particles written out by hand (letters, words, numbers);
- every particle field ({name:을}) of every word, rendered with every value it can be given (the catalogue below,
  from the registries), takes the particle that the value's reading calls for, read here from the reading's last
  syllable by Unicode's decomposition (not by particles.py's arithmetic); a value with no reading is an error here;
- no Korean word puts a particle straight after a plain {field} (it would not follow the value), and every particle
  after a Latin or code word written in a word agrees with the table;
- the page fills a word as Python does (picture.js's fill, in Node.js);
- a truth value in a word is {name:yes}: 예 / 아니요 in Korean, never True.
"""

import re
import unicodedata

import pytest
from frontend import page_picture

from attention_lab import exercises
from attention_lab.look import particles, words
from attention_lab.look.particles import FORMS, attach, particle, reading

WRITTEN = [  # (word, form asked, what Korean writes)
    ("softmax", "을", "softmax를"), ("softmax", "이", "softmax가"), ("scale", "을", "scale을"),
    ("scale", "으로", "scale로"), ("padding", "을", "padding을"), ("padding", "로", "padding으로"),
    ("causal_mask", "을", "causal_mask를"), ("Q", "을", "Q를"), ("K", "을", "K를"), ("V", "을", "V를"),
    ("S", "을", "S를"), ("P", "은", "P는"), ("O", "와", "O와"), ("M", "를", "M을"), ("M", "로", "M으로"),
    ("E", "을", "E를"), ("H", "을", "H를"), ("L", "로", "L로"), ("Softmax", "을", "Softmax를"),
    ("1", "을", "1을"), ("2", "을", "2를"), ("3", "을", "3을"), ("6", "이", "6이"), ("0", "는", "0은"),
    ("10", "를", "10을"), ("20", "가", "20이"), ("100", "와", "100과"), ("1000", "로", "1000으로"),
    ("10000", "은", "10000은"), ("1,000", "가", "1,000이"), ("2.5", "을", "2.5를"), ("−3", "이", "−3이"),
    ("1e9", "을", "1e9를"), ("al.softmax", "을", "al.softmax를"), ("np.exp", "로", "np.exp로"),
    ("토큰", "을", "토큰을"), ("가중치", "을", "가중치를"), ("Query 토큰", "이", "Query 토큰이"),
]


@pytest.mark.parametrize(("word", "form", "written"), WRITTEN)
def test_the_particle_follows_the_reading(word, form, written):
    assert attach(word, form) == written
    pair = next(p for p in particles.PAIRS if form in p)
    assert all(attach(word, other) == written for other in pair)  # either form names the pair


def test_a_word_with_no_reading_gets_both_forms_and_is_an_error_where_strict():
    assert particle("zorblax", "을") == "을(를)" and particle("zorblax", "로") == "으로(로)"
    with pytest.raises(KeyError, match="no reading of 'zorblax': add it to READINGS"):
        particle("zorblax", "을", strict=True)


# ---- every particle field, with every value it can be given --------------------------------------------------------

def _forbidden_names():  # every name an exercise forbids, as ex.forbidden's {name} says it (slips.public_name)
    from attention_lab.exercises.slips import public_name

    return sorted({public_name(f) for ex in exercises.EXERCISES.values() if ex.given is not None
                   for f in ex.given.forbid})


# (word key, field) -> the values it can be given. A new particle field needs its entry: the test below says so.
INSERTED = {
    ("ex.forbidden", "name"): _forbidden_names,
}


def final_consonant(syllable):  # -> the final jamo of a Hangul syllable, or None: Unicode's decomposition
    jamo = unicodedata.normalize("NFD", syllable)
    return jamo[2] if len(jamo) == 3 else None


def expected(value, form):  # -> the particle a value takes, from its reading's last syllable
    after_final, after_none = FORMS[form]
    last = final_consonant(reading(value, strict=True)[-1])
    if after_final == "으로":
        return after_none if last in (None, "\u11af") else after_final  # ᆯ (ㄹ) takes 로
    return after_none if last is None else after_final


def particle_fields():  # -> [(key, lang, name, closers, form)] of every word
    return [(key, lang, *field) for key, pair in words.WORDS.items()
            for lang, text in zip(words.LANGS, pair, strict=True) for field in particles.fields(text)]


def sample_values(text, given):  # -> a value for every plain field of a word, so that it can be rendered
    return {name: given.get(name, "1") for name in re.findall(r"\{(\w+)", text)}


def test_every_particle_field_takes_the_particle_its_values_are_read_with():
    found = particle_fields()
    assert ("ex.forbidden", "ko", "name", "`", "을") in found  # so this test can fail
    for key, lang, name, closers, form in found:
        assert (key, name) in INSERTED, f"{key}: say which values its {{{name}:…}} field can be given, in INSERTED"
        values = INSERTED[key, name]()
        assert values, (key, name)
        for value in values:
            text = words.say(key, lang, **sample_values(words.table(lang)[key], {name: value}))
            assert f"{value}{closers}{expected(value, form)}" in text, (key, value, text)


def test_the_catalogue_refuses_a_value_with_no_reading(monkeypatch):
    monkeypatch.setitem(INSERTED, ("ex.forbidden", "name"), lambda: ["softmax", "zorblax"])
    with pytest.raises(KeyError, match="zorblax"):
        test_every_particle_field_takes_the_particle_its_values_are_read_with()


def test_softmax_is_forbidden_with_reul_and_a_name_ending_in_a_consonant_with_eul():
    assert "`softmax`를 쓰지 않고" in words.say("ex.forbidden", "ko", name="softmax")
    assert "`scaled_dot_product_attention`을 쓰지 않고" in words.say("ex.forbidden", "ko",
                                                                  name="scaled_dot_product_attention")
    assert "without `softmax`:" in words.say("ex.forbidden", "en", name="softmax")


# ---- the particles written in the words ---------------------------------------------------------------------------

PARTICLE = "|".join(sorted(FORMS, key=len, reverse=True))
CLOSE = "[" + re.escape(particles.CLOSERS) + "]*"


def test_no_korean_word_puts_a_particle_straight_after_a_plain_field():
    """'{bad}'는, `{name}`을: the particle would be one form whatever the value; a field says which pair it is."""
    plain = re.compile(r"\{\w+\}" + CLOSE + f"({PARTICLE})(?![가-힣])")
    wrong = [(key, m[0]) for key, (ko, _) in words.WORDS.items() for m in plain.finditer(ko)]
    assert wrong == []
    assert plain.search("이 연습은 `{name}`을 쓰지") and not plain.search("인자(`{names}`)로")  # a gloss: 인자로


def test_every_particle_after_a_latin_or_code_word_agrees_with_the_table():
    """The words written in the templates themselves: M은, S를, Softmax는, padding을, attention_lab과, √dh로 …
    (a particle after a parenthesis follows the word before it, as in 인자(`x`)로, and is not read here)."""
    latin = re.compile(r"([A-Za-z0-9_·ᵀ.]*[A-Za-z0-9_ᵀ])" + CLOSE + f"({PARTICLE})(?![가-힣])")
    seen, wrong = 0, []
    for key, (ko, _) in words.WORDS.items():
        for m in latin.finditer(particles.FIELD.sub("", ko)):
            seen += 1
            if particle(m[1], m[2], strict=True) != m[2] or expected(m[1], m[2]) != m[2]:
                wrong.append((key, m[0]))
    assert seen > 100 and wrong == []


# ---- the page, and truth values -----------------------------------------------------------------------------------

@pytest.mark.slow  # Node.js
def test_the_page_fills_a_word_as_python_does():
    cases = [("`{name:`을} 쓰지 않고", value) for value in ["softmax", "scale", "padding", "M", "Q", "3", "10", "2.5",
                                                        "al.softmax", "1,000", "zorblax", "토큰"]]
    cases += [("{x:으로} 나누고 {y}", v) for v in ["scale", "M", "1", "6", "padding", "zorblax"]]
    cases += [("{x:이} {x:는} {x:와}", v) for v in ["Q", "M", "0", "100"]]
    python = [particles.fill(template, x=value, name=value, y="y") for template, value in cases]
    page = page_picture({"call": "([t, v]) => fill(String.fromCodePoint(...t), "
                                 "{ x: String.fromCodePoint(...v), name: String.fromCodePoint(...v), y: 'y' })",
                         "args": [[[ord(c) for c in t], [ord(c) for c in v]] for t, v in cases]})
    assert page == python
    assert python[0] == "`softmax`를 쓰지 않고" and python[10] == "`zorblax`을(를) 쓰지 않고"


def test_a_truth_value_is_said_in_the_words_language():
    ko, en = (words.Template("맞음: {right:yes}, {n:을}", "ko"), words.Template("right: {right:yes}", "en"))
    assert ko.format(right=True, n="M") == "맞음: 예, M을" and ko.format(right=False, n=2) == "맞음: 아니요, 2를"
    assert en.format(right=True) == "right: yes"
    with pytest.raises(ValueError, match="right: a {right:yes} field takes True or False"):
        ko.format(right="True", n=1)


def test_the_pages_words_have_no_field_the_page_cannot_fill():
    """The page's fill (picture.js) fills particle fields but not truth values ({x:yes}: Python's lines only), and
    the drills' script (drills.js) fills its words' {n} alone: no word sent to either has a field they cannot fill."""
    from attention_lab.live.data import _explorer_words

    yes = re.compile(r"\{\w+:yes\}")
    for lang in words.LANGS:
        table = words.table(lang)
        assert not [k for k in _explorer_words() if yes.search(table[k])], lang
        assert not [k for k in table if k.startswith("drill.") and re.search(r"\{\w+:", table[k])], lang
    assert yes.search("{right:yes}") and not yes.search("{right}")
