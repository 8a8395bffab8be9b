"""ngrameval.bleu (variant "sacrebleu", the default) against sacrebleu 2.6.0, run in each test:
corpus scores and their parts, sentence scores, signatures."""

import pytest
from sacrebleu.metrics import BLEU

import ngrameval
from tests.data import WMT17_SYSTEMS, as_streams, assert_close, corpus_slice, wmt17_slice

TOKENIZERS = ("13a", "none", "intl", "char", "zh")
SMOOTHS = ("exp", "floor", "add-k", "none")
GRID_SYSTEMS = ("uedin-nmt.4722", "online-A.0")
# ngrameval's option name -> sacrebleu's BLEU() argument
PEER_NAMES = {"smooth": "smooth_method", "use_effective_order": "effective_order", "max_order": "max_ngram_order"}


def _selection(hypotheses, name):
    """Segment indices: the first 500, or those with at most 2 whitespace tokens: a corpus short
    enough for orders without matches (smoothing) or without any n-gram (effective order)."""
    if name == "first500":
        return range(500)
    return [i for i, hypothesis in enumerate(hypotheses) if len(hypothesis.split()) <= 2]


def _subset(shared, system, selection):
    hypotheses, references = wmt17_slice(shared, system)
    keep = _selection(hypotheses, selection)
    return [hypotheses[i] for i in keep], [references[i] for i in keep]


def _peer(options):
    return {PEER_NAMES.get(name, name): value for name, value in options.items()}


def assert_corpus_same_as_sacrebleu(hypotheses, references, check_signature=True, **options):
    metric = BLEU(**_peer(options))
    score = metric.corpus_score(hypotheses, as_streams(references))
    result = ngrameval.bleu(hypotheses, references, **options)
    assert_close(result.bleu * 100, score.score, what="BLEU")
    assert_close([p * 100 for p in result.precisions], score.precisions, what="precisions")
    assert_close(result.brevity_penalty, score.bp, what="brevity penalty")
    # The parts as sacrebleu reports them (add-k's k included); the raw sums are in the statistics.
    assert result.counts == score.counts and result.totals == score.totals
    assert (result.translation_length, result.reference_length) == (score.sys_len, score.ref_len)
    if check_signature:
        # sacrebleu's signature has no field for max_ngram_order; ngrameval adds "order:N" when it is
        # not 4 (so the score can be reproduced) and is otherwise sacrebleu's string, field for field.
        extra = f"|order:{options['max_order']}" if options.get("max_order", 4) != 4 else ""
        assert extra in result.signature
        assert result.signature.replace(extra, "") == str(metric.get_signature())


def assert_sentences_same_as_sacrebleu(hypotheses, references, use_effective_order=None, **options):
    # What sacrebleu.sentence_bleu does (BLEU(...).sentence_score), with one BLEU object for all
    # sentences. sentence_bleu turns effective order on by default; so does ngrameval for sentences.
    effective = True if use_effective_order is None else use_effective_order
    metric = BLEU(effective_order=effective, **_peer(options))
    expected = [metric.sentence_score(h, refs).score for h, refs in zip(hypotheses, references)]
    result = ngrameval.bleu(
        hypotheses, references, sentence_level=True, use_effective_order=use_effective_order, **options
    )
    assert_close([s * 100 for s in result.sentence_scores], expected, what="sentence BLEU")
    assert result.sentence_signature == str(metric.get_signature())


# --------------------------------------------------------------------------- corpus


@pytest.mark.parametrize("system", WMT17_SYSTEMS)
@pytest.mark.slow
def test_wmt17_corpus_default(shared, system):
    assert_corpus_same_as_sacrebleu(*wmt17_slice(shared, system))


@pytest.mark.parametrize("effective", [False, True], ids=["eff-no", "eff-yes"])
@pytest.mark.parametrize("smooth", SMOOTHS)
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@pytest.mark.parametrize("selection", ["first500", "short"])
@pytest.mark.parametrize("system", GRID_SYSTEMS)
@pytest.mark.slow
def test_wmt17_corpus_options(shared, system, selection, tokenize, smooth, effective):
    assert_corpus_same_as_sacrebleu(
        *_subset(shared, system, selection), tokenize=tokenize, smooth=smooth, use_effective_order=effective
    )


@pytest.mark.parametrize("lowercase", [False, True], ids=["mixed", "lc"])
@pytest.mark.parametrize("tokenize", TOKENIZERS)
@pytest.mark.slow
def test_wmt17_full_corpus_tokenizers(shared, tokenize, lowercase):
    assert_corpus_same_as_sacrebleu(*wmt17_slice(shared, "online-B.0"), tokenize=tokenize, lowercase=lowercase)


@pytest.mark.parametrize("selection", ["first500", "short"])
@pytest.mark.parametrize("smooth, value", [("floor", 0.01), ("floor", 0.5), ("add-k", 0.5), ("add-k", 2.0)])
def test_corpus_smooth_value(shared, smooth, value, selection):
    assert_corpus_same_as_sacrebleu(*_subset(shared, "C-3MA.4959", selection), smooth=smooth, smooth_value=value)


@pytest.mark.parametrize("selection", ["first500", "short"])
@pytest.mark.parametrize("max_order", [1, 2, 3, 5, 6])
def test_corpus_max_order(shared, max_order, selection):
    assert_corpus_same_as_sacrebleu(*_subset(shared, "xmu.4910", selection), max_order=max_order, check_signature=False)


def test_max_order_signature(shared):
    """sacrebleu 2.6.0's signature has no field for max_ngram_order; ngrameval's adds one."""
    assert_corpus_same_as_sacrebleu(*_subset(shared, "xmu.4910", "short"), max_order=3)


# Two references per prediction; zh-en's target is English, scored with the zh tokenizer too.
@pytest.mark.parametrize(
    "spec, tokenize",
    [
        (("wmt22", "de-en", "JDExploreAcademy"), "13a"),
        (("wmt22", "de-en", "LT22"), "13a"),
        (("wmt22", "zh-en", "HuaweiTSC"), "13a"),
        (("wmt22", "zh-en", "NiuTrans"), "13a"),
        (("wmt22", "zh-en", "HuaweiTSC"), "zh"),
        (("wmt22", "zh-en", "NiuTrans"), "zh"),
    ],
    ids=lambda value: "-".join(value) if isinstance(value, tuple) else value,
)
@pytest.mark.slow
def test_wmt22_two_references(shared, spec, tokenize):
    assert_corpus_same_as_sacrebleu(*corpus_slice(shared, spec), tokenize=tokenize)


# --------------------------------------------------------------------------- sentence


@pytest.mark.parametrize("effective", [None, False], ids=["eff-default", "eff-no"])
@pytest.mark.parametrize("smooth", SMOOTHS)
@pytest.mark.parametrize(
    "spec",
    [("wmt17", "uedin-nmt.4722", 500), ("wmt17", "PROMT-Rule-based.4735", 500), ("wmt22", "de-en", "Online-A", 500)],
    ids=lambda spec: "-".join(map(str, spec)),
)
@pytest.mark.slow
def test_sentence_bleu(shared, spec, smooth, effective):
    assert_sentences_same_as_sacrebleu(*corpus_slice(shared, spec), smooth=smooth, use_effective_order=effective)


@pytest.mark.parametrize("smooth, value", [("floor", 0.01), ("floor", 0.5), ("add-k", 0.5), ("add-k", 2.0)])
@pytest.mark.slow
def test_sentence_smooth_value(shared, smooth, value):
    assert_sentences_same_as_sacrebleu(*wmt17_slice(shared, "online-F.0", 500), smooth=smooth, smooth_value=value)


@pytest.mark.parametrize("effective", [None, False], ids=["eff-default", "eff-no"])
@pytest.mark.parametrize("smooth", SMOOTHS)
def test_short_sentences(shared, smooth, effective):
    """Hypotheses of at most 2 tokens: orders without any n-gram."""
    assert_sentences_same_as_sacrebleu(
        *_subset(shared, "online-A.0", "short"), smooth=smooth, use_effective_order=effective
    )


# --------------------------------------------------------------------------- ja-mecab

JAPANESE_HYPOTHESES = ["猫がマットの上に座っている。", "今日はとても良い天気ですね。", "彼は毎朝コーヒーを飲みます。"]
JAPANESE_REFERENCES = [
    ["猫はマットの上に座っていた。"],
    ["今日は本当にいい天気だね。"],
    ["彼は毎朝必ずコーヒーを飲む。"],
]


def test_ja_mecab_corpus():
    assert_corpus_same_as_sacrebleu(JAPANESE_HYPOTHESES, JAPANESE_REFERENCES, tokenize="ja-mecab")


def test_ja_mecab_sentences():
    assert_sentences_same_as_sacrebleu(JAPANESE_HYPOTHESES, JAPANESE_REFERENCES, tokenize="ja-mecab")
