"""ngrameval.chrf(variant="nltk") against NLTK 3.10.4's corpus_chrf and sentence_chrf, run in each
test: WMT17, WMT22, E2E (first reference), every option (min_len, max_len, beta, ignore_whitespace),
token-list input, and NLTK's whitespace (the `regex` engine's \\s, which keeps U+001C..U+001F)."""

import re

import pytest
import regex
from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

from ngrameval.metrics.chrf import chrf
from tests.data import WMT17_SYSTEMS, assert_close, e2e_outputs, e2e_references, wmt17_slice, wmt22_slice

REL = 1e-12


def assert_same_as_nltk(hypotheses, references, min_len=1, max_len=6, beta=3.0, ignore_whitespace=True, sentences=True):
    result = chrf(
        hypotheses,
        [[r] for r in references],
        variant="nltk",
        min_char_order=min_len,
        char_order=max_len,
        beta=beta,
        whitespace=not ignore_whitespace,
        sentence_level=sentences,
    )
    expected = corpus_chrf(references, hypotheses, min_len, max_len, beta=beta, ignore_whitespace=ignore_whitespace)
    assert_close(result.chrf, expected, rel=REL, what="NLTK chrF")
    if sentences:
        peer = [
            sentence_chrf(r, h, min_len, max_len, beta=beta, ignore_whitespace=ignore_whitespace)
            for h, r in zip(hypotheses, references)
        ]
        assert_close(result.sentence_scores, peer, rel=REL, what="NLTK sentence chrF")


@pytest.mark.parametrize("system", WMT17_SYSTEMS[:2])
@pytest.mark.slow
def test_wmt17_full(shared, system):
    hypotheses, references = wmt17_slice(shared, system)
    assert_same_as_nltk(hypotheses, [r[0] for r in references], sentences=False)


@pytest.mark.parametrize("system", WMT17_SYSTEMS[2:8])
@pytest.mark.slow
def test_wmt17_sentences(shared, system):
    hypotheses, references = wmt17_slice(shared, system, 300)
    assert_same_as_nltk(hypotheses, [r[0] for r in references])


@pytest.mark.parametrize("pair, system", [("de-en", "Online-A"), ("zh-en", "NiuTrans"), ("en-de", "PROMT")])
@pytest.mark.slow
def test_wmt22(shared, pair, system):
    hypotheses, references = wmt22_slice(shared, pair, system, 300)
    assert_same_as_nltk(hypotheses, [r[1] for r in references])


@pytest.mark.slow
def test_e2e(shared):
    mrs, references = e2e_references(shared)
    assert_same_as_nltk(e2e_outputs(shared, "tgen"), [r[0] for r in references])


@pytest.mark.parametrize("min_len, max_len", [(1, 1), (2, 4), (3, 3), (1, 9)])
@pytest.mark.parametrize("beta", [3.0, 1, 0.5, 0])
@pytest.mark.parametrize("ignore_whitespace", [True, False])
@pytest.mark.slow
def test_every_option(shared, min_len, max_len, beta, ignore_whitespace):
    hypotheses, references = wmt22_slice(shared, "zh-en", "Online-B", 40)
    assert_same_as_nltk(
        hypotheses + ["", "a", " "],
        [r[0] for r in references] + ["x y", "", "a"],
        min_len,
        max_len,
        beta,
        ignore_whitespace,
    )


@pytest.mark.parametrize("min_len, max_len, ignore_whitespace", [(2, 4, True), (1, 3, False)])
def test_nltks_option_names(shared, min_len, max_len, ignore_whitespace):
    """NLTK's own names, with NLTK's meaning: the same keyword arguments to both."""
    hypotheses, references = wmt22_slice(shared, "de-en", "Online-A", 40)
    references = [r[0] for r in references]
    options = {"min_len": min_len, "max_len": max_len, "ignore_whitespace": ignore_whitespace}
    result = chrf(hypotheses, [[r] for r in references], variant="nltk", sentence_level=True, **options)
    assert_close(result.chrf, corpus_chrf(references, hypotheses, **options), rel=REL, what="NLTK chrF")
    assert_close(
        result.sentence_scores,
        [sentence_chrf(r, h, **options) for h, r in zip(hypotheses, references)],
        rel=REL,
        what="NLTK sentence chrF",
    )


@pytest.mark.parametrize(
    "options, message",
    [
        ({"max_len": 4, "char_order": 3}, "max_len=4 contradicts char_order=3 (max_len is NLTK's name for char_order)"),
        ({"min_len": 2, "min_char_order": 3}, "min_len=2 contradicts min_char_order=3"),
        ({"ignore_whitespace": True, "whitespace": True}, "ignore_whitespace=True contradicts whitespace=True"),
        ({"max_len": 0}, "max_len must be an integer from 1 to 100"),
        ({"ignore_whitespace": "yes"}, "ignore_whitespace must be True or False"),
    ],
)
def test_nltks_option_names_checked(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        chrf(["a b"], [["a c"]], variant="nltk", **options)


@pytest.mark.parametrize("name", ["min_len", "max_len", "ignore_whitespace"])
def test_nltks_option_names_belong_to_its_variant(name):
    with pytest.raises(ValueError, match=f"{name} is NLTK's"):
        chrf(["a b"], [["a c"]], **{name: True if name == "ignore_whitespace" else 2})


def test_token_lists_are_joined_with_spaces():
    hypotheses, references = [["the", "cat"], ["a", "dog"]], [["the", "mat"], ["dog"]]
    result = chrf(hypotheses, references, variant="nltk", whitespace=True, sentence_level=True)
    assert_close(result.chrf, corpus_chrf(references, hypotheses, ignore_whitespace=False), rel=REL)


def test_whitespace_is_nltks():
    # Every code point NLTK's \s+ removes, and only those (U+001C..U+001F stay, unlike str.split).
    from ngrameval.metrics.chrf import _NLTK_WHITESPACE

    text = "".join(map(chr, range(0x3001)))
    assert _NLTK_WHITESPACE.sub("", text) == regex.sub(r"\s+", "", text)
    assert_same_as_nltk(["a\x1cb c\x1f", "a\u3000b"], ["a\x1cbc", "ab"])
