"""ngrameval.text.ptb against Stanford's PTBTokenizer (the jar of pycocoevalcap 1.2, run here) where a
token's period depends on what follows it: abbreviations and acronyms before markup tags, sentence
starters, capitals, numbers, symbols and line breaks.

The lexer's rules (CoreNLP 3.4.1's PTBLexer.flex) that look past an abbreviation's period:

- an acronym (``A.``, ``U.S.``, ``A.B.``) before spaces or line breaks and then a common sentence
  starter ("The", "He", ...) *or an SGML tag*, then a space or line break, ends a sentence: ``A.``
  becomes ``A`` and ``.``, ``U.S.`` becomes ``U.S.`` and ``.``;
- an ``ABBREV1`` abbreviation ("Jan.", "Inc.", "etc.") before a space and then a space, a capital or
  an SGML tag does too (``Inc.`` and ``.``);
- an ``ABBREV3`` one ("fig.", "No.") keeps its period only before a number.

Each case is compared with pycocoevalcap's ``PTBTokenizer.tokenize`` (all texts in one Java run) and
with Java's raw output (case and punctuation kept, one run), as in ``test_ptb_java.py``; then a seeded
random search over texts built from these pieces.
"""

from __future__ import annotations

import random

import pytest

from tests.parity.test_ptb_java import assert_same_as_pycocoevalcap, assert_same_tokens_as_java
from tests.search import cases

ABBREVIATIONS_BEFORE_MARKUP = [
    # one-letter and longer acronyms before tags of every SGML form, then a space, a line break or nothing
    "a A. <br/> b",
    "a A. <br/>b",
    "a A. <br/>\tb",
    "a A.  <br/> b",
    "a A.\u00a0<br/> b",
    "a A. <p>\u00a0b",
    "a A. <b> b",
    "a A. </b> b",
    "a A. <!-- x --> b",
    "a A. <!x> b",
    "a A. <?x> b",
    'a A. <a href="x"> b',
    "a A. <br/>? b",
    "a A. <br/>. b",
    "a A. <br/><br/> b",
    "a A. < br> b",
    "a A. <br/>",
    "A.<br/> b",
    "a I. <br/> b",
    "a z. <br/> b",
    "a U.S. <br/> b",
    "a U.S. </b> b",
    "a A.B. </b> b",
    "a a.k.a. <b> b",
    "a U.K. <b> b",
    "a A.B <br/> b",
    "a A <br/> b",
    # other abbreviations before tags
    "a Mr. <b> b",
    "a vs. <b> b",
    "a Inc. <b> b",
    "a Inc. <b>",
    "a Jan. <br/> b",
    "a etc. <b>x",
    "a etc. <b> x",
    "a fig. <b> 5",
    "a No. <b> 5",
    "a No. 5 <b>",
    "a Co. <b> Ltd",
    "a Calif. <i> b",
    # acronyms before sentence starters, capitals, symbols and numbers
    "a A. The b",
    "a A. The? b",
    "a A. B b",
    "a A. b",
    "a A.  b",
    "a U.S.  b",
    "a A. 5 b",
    "a A. $ b",
    "a A. ( b",
    'a A. " b',
    "a U.S. The b",
    "a U.S. Mr. b",
    "a I. It b",
    "a U.S. -- b",
]

# Line breaks inside the texts: pycocoevalcap turns them into spaces, the raw output keeps them.
LINE_BREAKS = ["a A.\n<br/> b", "a A. <br/>\nb", "a A. <br/>\n", "a U.S.\n<b>\nb", "a Inc.\n<b> b"]


def test_abbreviations_before_markup():
    assert_same_as_pycocoevalcap(ABBREVIATIONS_BEFORE_MARKUP + LINE_BREAKS, "abbreviations before markup")


def test_abbreviations_before_markup_tokens_case_kept():
    assert_same_tokens_as_java(ABBREVIATIONS_BEFORE_MARKUP, "abbreviations before markup, without -lowerCase")


@pytest.mark.parametrize("text", LINE_BREAKS)
def test_line_breaks_around_markup_tokens_case_kept(text):
    """Raw output of a text whose line breaks the lexer sees (so one Java run per text)."""
    from ngrameval.text.ptb import ptb_token_lines
    from tests.parity.test_ptb_java import _java_output

    expected = [line.split(" ") if line else [] for line in _java_output(text, lowercase=False).split("\n")]
    assert ptb_token_lines(text) == expected


# --------------------------------------------------------------------------- seeded random search

_ABBREVIATIONS = (
    "A. I. Z. x. U.S. U.K. A.B. a.b.c. a.k.a. U.S.S.R. Mr. Dr. Mrs. vs. St. Jan. Sept. Inc. Co. "
    "Corp. Ltd. etc. al. Calif. Ark. fig. No. nos. ca. pp. Pty. Jr. Ph.D. e.g. i.e. a.m. p.m. "
    "A B U.S A.B"
).split()
_TAGS = ('<b> </b> <br/> <br /> <p> <!-- c --> <!x> <?x?> <a href="u"> <i> < b> <b>x</b>').split(" ")
_FOLLOWERS = "The He It A In About Mr. Ms. Two the he it a b x Z 5 1,000 $ % ( ) [ \" ' `` '' -- - ...".split()
_PUNCTUATION = ". , ; : ! ? ?! .. ... & # * / @".split()
_GLUE = [" ", " ", " ", " ", "  ", "", "\u00a0", "\t", "\n", "\r\n"]


def _random_text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        source = _ABBREVIATIONS if kind < 0.35 else _TAGS if kind < 0.6 else _FOLLOWERS if kind < 0.85 else _PUNCTUATION
        parts.append(rng.choice(source) + rng.choice(_GLUE))
    return "".join(parts)


SEED, TEXTS = 90210, 3000


def test_random_abbreviations_tags_punctuation():
    """3,000 texts (seed 90210) of abbreviations, tags, sentence starters and punctuation, all in one
    Java run each way (a few seconds)."""
    rng = random.Random(SEED)
    texts = [_random_text(rng) for _ in range(cases(TEXTS))]
    assert_same_as_pycocoevalcap(texts, f"{len(texts)} random texts (seed {SEED})")
    assert_same_tokens_as_java(texts, f"{len(texts)} random texts (seed {SEED}), without -lowerCase")
