"""ngrameval.text.ptb against Stanford's PTBTokenizer (CoreNLP 3.4.1, the jar of pycocoevalcap 1.2), run here.

The peer is pycocoevalcap's own ``PTBTokenizer.tokenize`` (one Java process per call, all texts of a
case at once: ``tests/ptb_java.py``), compared string for string with :func:`ptb_tokenize`; and Java's
raw output without ``-lowerCase`` (tokens before any removal, case kept) with :func:`ptb_token_lines`.

Compared (every text of each source, expecting no difference):

- the E2E NLG test references (4,693) and the outputs of the 21 primary systems (``primary/*.tsv``);
- the COCO fake-caption results (1,000), nlg-eval's example texts;
- the first 200 lines of every English WMT22 file (references and systems, de-en and zh-en: 5,000);
- hand-written hard cases: quotes, apostrophes and contractions, "cannot" and "gonna", abbreviations,
  acronyms and sentence ends, numbers, fractions, dates, phone numbers, entities, URLs and e-mail
  addresses, SGML, hyphens and dashes, brackets, smileys, currency, Unicode punctuation, non-ASCII
  letters, CJK, emoji, control characters, exotic spaces and line breaks, empty texts;
- lists where a text's tokens depend on its neighbours (abbreviations before a capital, acronyms
  before "The", the end of the input, line breaks inside texts that shift the following results);
- 3,000 random texts built from words, abbreviations and punctuation, and Hypothesis examples.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ngrameval.text.ptb import PUNCTUATIONS, ptb_token_lines, ptb_tokenize
from tests import ptb_java
from tests.data import E2E, WMT22, e2e_outputs, e2e_references, load_json, read_lines
from tests.search import cases


def _peer_tokenize(texts: Sequence[str]) -> list[str]:
    try:
        return ptb_java.pycocoevalcap_tokenize(texts)
    except ptb_java.PeerMissing as missing:
        pytest.fail(str(missing))


def _java_output(text: str, lowercase: bool) -> str:
    try:
        return ptb_java.java_output(text, lowercase=lowercase)[0]
    except ptb_java.PeerMissing as missing:
        pytest.fail(str(missing))


def assert_same_as_pycocoevalcap(texts: Sequence[str], what: str) -> None:
    expected = _peer_tokenize(texts)
    got = ptb_tokenize(texts)
    assert len(got) == len(expected) == len(texts), what
    wrong = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    assert not wrong, (
        f"{what}: {len(wrong)} of {len(texts)} texts differ; first, text {wrong[0]} "
        f"{texts[wrong[0]]!r}:\n ours {got[wrong[0]]!r}\n java {expected[wrong[0]]!r}"
    )


def assert_same_tokens_as_java(texts: Sequence[str], what: str) -> None:
    """The tokens before lowercasing and punctuation removal, line by line of Java's output."""
    joined = "\n".join(text.replace("\n", " ") for text in texts)
    expected = [line.split(" ") if line else [] for line in _java_output(joined, lowercase=False).split("\n")]
    got = ptb_token_lines(joined)
    assert len(got) == len(expected), f"{what}: {len(got)} lines, Java printed {len(expected)}"
    wrong = [i for i, (a, b) in enumerate(zip(got, expected)) if a != b]
    assert not wrong, (
        f"{what}: {len(wrong)} of {len(expected)} lines differ; first, line {wrong[0]}:\n"
        f" ours {got[wrong[0]]}\n java {expected[wrong[0]]}"
    )


# --------------------------------------------------------------------------- real data


def _e2e_references(shared) -> list[str]:
    return [reference for group in e2e_references(shared)[1] for reference in group]


def _e2e_outputs(shared) -> list[str]:
    folder = shared(f"{E2E}/e2e-eval/system_outputs/primary")
    return [line for path in sorted(folder.glob("*.tsv")) for line in e2e_outputs(shared, path.stem)]


def _coco(shared) -> list[str]:
    return [item["caption"] for item in load_json(shared, "data/coco-caption/captions_val2014_fakecap_results.json")]


def _nlg_eval(shared) -> list[str]:
    base = "data/nlg-eval-examples"
    texts = [line for name in ("hyp.txt", "ref1.txt", "ref2.txt") for line in read_lines(shared(f"{base}/{name}"))]
    # The individual cases' hypotheses and references, quoted in the "source" column.
    for row in read_lines(shared(f"{base}/expected_scores.tsv"))[1:]:
        texts += re.findall(r'"([^"]+)"', row.split("\t")[1])
    return texts


def _wmt22(shared) -> list[str]:
    folder = shared(f"{WMT22}/txt")
    return [line for path in sorted(folder.glob("*/*.en")) for line in read_lines(path)[:200]]


SOURCES = {
    "e2e-references": _e2e_references,
    "e2e-outputs": _e2e_outputs,
    "coco-fakecap": _coco,
    "nlg-eval": _nlg_eval,
    "wmt22-en": _wmt22,
}


@pytest.mark.parametrize("source", list(SOURCES))
def test_real_texts(shared, source):
    texts = SOURCES[source](shared)
    assert texts, f"{source}: no texts loaded"
    assert_same_as_pycocoevalcap(texts, source)


def test_real_tokens_case_kept(shared):
    texts = [text for load in SOURCES.values() for text in load(shared)]
    assert_same_tokens_as_java(texts, "all real texts, without -lowerCase")


# --------------------------------------------------------------------------- hand-written cases

HARD = [
    # quotes, apostrophes, contractions, assimilations
    "He said \"hello\" and 'bye'.",
    '"Quoted" text',
    '" spaced quotes "',
    "``latex'' quotes",
    "''",
    '"',
    "'",
    "it's isn't can't won't don't I'm you're we've they'll he'd y'all ma'am o'clock rock'n'roll 'n' 'em",
    "DON'T CAN'T Won't",
    "d'Avignon l'amour j'accuse O'Neil o'o",
    "goin' somethin' Dunkin' ol' li'l nat'l cont'd",
    "'90s '00s the '60s '99",
    "'til 'till 'cause 'twas 'tis 'Twas",
    "cannot Cannot CANNOT cannots",
    "gonna gotta wanna lemme gimme Gonna",
    "more'n e'er ev'ry s'mores c'mon nor'easter",
    "\u2018single\u2019 \u201cdouble\u201d \u201elow\u201f \u2039angle\u203a \u00abguillemets\u00bb",
    "it\u2019s don\u2019t I\u2019ll \u2019em \u201890s",
    "`backquote' and \x91cp1252\x92 \x93quotes\x94",
    "&quot;entity&quot; &apos;s &amp; &lt;b&gt; &nbsp; &mdash; &ndash; &eacute;t&eacute; &#1234; &HT;",
    # abbreviations, acronyms, sentence ends
    "Mr. Smith met Dr. Jones and Mrs. Brown at St. Paul's.",
    "He works for Acme Inc. and Foo Co. Ltd.",
    "Prices rose in Jan. and Feb. The end.",
    "Calif. Ark. ark. Mass. mass. Wash. Tex. tex. La. Pa. Del.",
    "etc. etc.  etc. Etc. ETC.",
    "I live in the U.S. He lives in the U.K. too.",
    "U.S.A. U.S. U.S U.S.-U.K. Canada-U.S.",
    "no. 5 No. 1 nos. 2 ca. 1850 fig. 3 pp. 12 art. 7 op. 9 no. x",
    "Ph.D. Ed.D. a.k.a. e.g. i.e. vs. cf. Jr. Sr.",
    "3 p.m. and 4 a.m. He left.",
    "A. B. C. I. X.",
    "It is Pty. Ltd. and Pte. Limited and Co. Ltd",
    "He said Mr. The end.",
    "The U.S. About face.",
    "The end.",
    "The end",
    "one. two. three...",
    # numbers, fractions, dates, money, phone numbers
    "1,000.50 1.5 .5 -3 +4 3:30 12,345,678 1.2.3",
    "3/4 1 1/2 2-3/4 \u00bd \u00bc \u00be \u2153 \u2154 1\u2044 2 5\u20447",
    "12/25/2014 2014-12-25 1/2/03",
    "$5 $5.00 US$5 \u00a35 \u20ac5 \u00a25 \u00a55 5% #1",
    "C# F# C++ c#",
    "(555) 555-1234 555-555-1234 +1 555 555 1234 555.555.1234",
    "\u00b2 x\u00b2 H\u2082O \u207a1",
    # URLs, e-mail, SGML, twitter
    "see http://example.com/a?b=c&d=e. and https://x.org/path_(1) or www.google.com.",
    "mail me at john.doe@example.com, or <john@example.com>.",
    "kitchenpoint.de example.org/path foo.com/bar.",
    '<b>bold</b> <a href="x y">link</a> <br/> <!-- comment --> <1> < spaced >',
    "@user #hashtag #1 @_x",
    "file.pdf report.docx data.tar.gz 2019.pdf a.c x.h",
    "a@b@c.d user@localhost",
    # hyphens, dashes, brackets, smileys, symbols
    "well-known state-of-the-art e-mail co-op x-ray T-shirt 1-2 10-20 mid-1990s pre- -post",
    "a - b -- c --- d ---- e ----- f \u2013 g \u2014 h \u2015 i \u2212 j \u2010 k \u2011 l",
    "(parens) [brackets] {braces} <angles> ((nested)) [[double]]",
    ":) :-) ;) :( :D :P =) :-( ^_^ (^_^) -_- x_x :)x",
    "a/b and/or 1/2/3 \\ back\\slash * ** *** \\* @ @@ _ __ # ## ~ ^ | = + < > << >>",
    "wait... really?! no!! what?? \u2026 . . . . .",
    "a;b:c,d",
    "\u00bfQu\u00e9? \u00a1Hola! \u3002\u3001",
    # non-ASCII, CJK, emoji, controls, spaces, line breaks
    "caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u00c9cole Stra\u00dfe \u0130stanbul \u0131 \u017f K",
    "\u4e00\u4e2a\u7537\u4eba\u5728\u8def\u4e0a \u30c6\u30b9\u30c8 \ud55c\uad6d\uc5b4",
    "\u0627\u0644\u0639\u0631\u0628\u064a\u0629 \u05e2\u05d1\u05e8\u05d9\u05ea",
    "\u041c\u043e\u0441\u043a\u0432\u0430 \u0391\u0398\u0397\u039d\u0391 \u039f\u0394\u039f\u03a3",
    "emoji \U0001f600 \u2764 \u2764\ufe0f \U0001f44d\U0001f3fd flags \U0001f1fa\U0001f1f8 \U0001d400",
    "tab\there  two  spaces\u00a0nbsp\u2009thin\u3000ideographic\u200bzero\u200dwidth\ufeffbom",
    "soft\u00adhyphen \u00ad co\u00adop",
    "\x00\x01\x7f\x85\x96\x97\x80 controls",
    "\u2028\u2029",
    "",
    " ",
    "   ",
    "a\x0bb\x0cc",
    "x\ry",
    "x\r\ny",
    "ends with cr\r",
    "...",
    "!?",
    ".,;:",
    "-",
    "--",
    "()",
    "''``",
    "MiXeD CaSe ALL CAPS",
    "IBM's AT&T S&P-500 S&Ls R&D Q&A",
    "-LRB- -RRB- -LSB-",
    "C.D.s pro- anti-",
]


def test_hard_cases():
    assert_same_as_pycocoevalcap(HARD, "hand-written cases")


def test_hard_cases_tokens_case_kept():
    assert_same_tokens_as_java(HARD, "hand-written cases, without -lowerCase")


# Lists whose tokens depend on where a text sits: the next text's start, the end of the input,
# line breaks inside texts (the following results shift, as in pycocoevalcap).
NEIGHBOURS = {
    "abbreviation-before-capital": ["He lives near Wash.", "The house is big", "It costs 5 etc.", "and more", "Inc."],
    "acronym-before-follower": ["Made in the U.S.", "The end", "Made in the U.S.", "the end", "Made in the U.S."],
    "abbreviation-at-end": ["a", "Co.", "It is Corp."],
    "ltd-across-texts": ["Acme Pty.", "Ltd is a firm", "co.", "lim"],
    "line-breaks-inside": ["one\rtwo", "three", "four\u2028five", "six\x0bseven\x0c", "eight\r", "nine", "ten\x85"],
    "newlines-replaced": ["first\nsecond", "third\n\nfourth", "\n", "fifth"],
    "empty-texts": ["", "", "a", "", " ", ""],
    "sgml-across-texts": ['<a b="x', 'y"> z', "w"],
    "spaced-across-texts": ["at 1", "1/2 mile", "call 555", "555-1234", "wait .", ". ."],
}


@pytest.mark.parametrize("case", list(NEIGHBOURS))
def test_neighbours(case):
    assert_same_as_pycocoevalcap(NEIGHBOURS[case], case)


def test_single_texts():
    for text in ["etc.", "U.S.", "Mr.", "I.", "x", "", "Ends with etc. X"]:
        assert_same_as_pycocoevalcap([text], f"only {text!r}")


# --------------------------------------------------------------------------- random texts

_PIECES = (
    "the a man dog is on in of and with two red sitting standing street table pizza cat woman's "
    "isn't can't cannot gonna it's they're U.S. Mr. Dr. St. Inc. Co. etc. e.g. i.e. a.m. p.m. No. ca. "
    "The He It A In . , ; : ! ? ... -- - ( ) [ ] { } \" ' ` '' `` & &amp; / $ % # @ * "
    "1 2 10 1,000 3.5 1/2 555-1234 http://x.com www.y.org a@b.com <b> :) \u2019 \u201c \u201d "
    "\u2013 \u2014 \u2026 caf\u00e9 \u00e9 \u00bd \u20ac \u00a3 \u4e2d\u6587 \U0001f600"
).split()
_GLUE = ["", "", " ", " ", " ", " ", "  ", ".", ",", "'", "-", "\u00a0", "\t"]


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(_PIECES) + rng.choice(_GLUE) for _ in range(rng.randint(0, 12)))


def test_random_texts():
    rng = random.Random(20141)
    texts = [_random_text(rng) for _ in range(cases(3000))]
    assert_same_as_pycocoevalcap(texts, "3,000 random texts (seed 20141)")


_ALPHABET = st.sampled_from(
    list("aAbBcCeEiInNsStTxXyYzZ019 .,;:!?'\"`-/()[]{}<>&@#$%*_=+~^|\\")
    + [
        "\u2019",
        "\u201c",
        "\u2013",
        "\u00e9",
        "\u00a0",
        "\u2026",
        "\u00bd",
        "\u4e2d",
        "\u00ad",
        "\t",
        "\r",
        "\u2028",
        "\U0001f600",
        "\u0130",
        "\u017f",
    ]
)
_TEXTS = st.lists(st.one_of(st.text(_ALPHABET, max_size=20), st.sampled_from(_PIECES)), min_size=1, max_size=40)


@settings(
    max_examples=cases(20), deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(_TEXTS)
@pytest.mark.slow
def test_hypothesis_texts(texts):
    assert_same_as_pycocoevalcap(texts, "Hypothesis texts")


# --------------------------------------------------------------------------- options and input checks


def test_options_keep_case_and_punctuation():
    texts = ["A (Big) Dog, isn't it?", "U.S. Navy etc.", "Hello World"]
    java_lines = _java_output("\n".join(texts), lowercase=False).split("\n")
    assert ptb_tokenize(texts, lowercase=False, remove_punctuation=False) == java_lines
    assert ptb_tokenize(texts, lowercase=False) == [
        " ".join(t for t in line.split(" ") if t not in PUNCTUATIONS) for line in java_lines
    ]


@pytest.mark.parametrize(
    "bad, message", [("a text", "list of strings"), (["ok", 3], r"texts\[1\]"), ([None], r"texts\[0\]")]
)
def test_bad_input(bad, message):
    with pytest.raises(ValueError, match=message):
        ptb_tokenize(bad)
