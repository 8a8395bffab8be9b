"""The n-gram engine on large corpora: a corpus of more than BLOCK_SEGMENTS segments is matched block
by block (optionally in several threads), chrF's of more than BLOCK_CHARACTERS reference characters
too, and predictions are encoded in one join-and-split. Scores stay those of the peers (sacrebleu,
NLTK, run here), whatever the blocks and the threads; the ``threads`` option is checked like every
option. The block sizes are lowered in these tests so that small corpora span several blocks."""

import pytest
from nltk.translate.chrf_score import corpus_chrf, sentence_chrf
from nltk.translate.gleu_score import corpus_gleu
from sacrebleu.metrics import BLEU, CHRF

import ngrameval
from ngrameval.engine import corpus as engine_corpus
from ngrameval.metric import get_family
from ngrameval.metrics import chrf as chrf_module
from ngrameval.metrics.bleu import bleu
from ngrameval.metrics.gleu import gleu
from tests.data import as_streams, assert_close, wmt17_slice, wmt22_slice

BLOCK = 7  # segments per block in these tests


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(engine_corpus, "BLOCK_SEGMENTS", BLOCK)


def _varying_references(shared, stop):
    """WMT22 de-en segments with both references, except every third with only the first (so blocks
    differ in their reference counts)."""
    hypotheses, references = wmt22_slice(shared, "de-en", "JDExploreAcademy", stop)
    return hypotheses, [group if i % 3 else group[:1] for i, group in enumerate(references)]


@pytest.mark.parametrize("tokenize", ["13a", "none", "char"])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_blocks_score_as_sacrebleu(shared, small_blocks, tokenize, threads):
    hypotheses, references = wmt17_slice(shared, "uedin-nmt.4722", 100)
    peer = BLEU(tokenize=tokenize)
    score = peer.corpus_score(hypotheses, as_streams(references))
    result = bleu(hypotheses, references, tokenize=tokenize, threads=threads, sentence_level=True)
    assert_close(result.bleu * 100, score.score, what="BLEU")
    assert result.counts == score.counts and result.totals == score.totals
    assert (result.translation_length, result.reference_length) == (score.sys_len, score.ref_len)
    sentence_peer = BLEU(tokenize=tokenize, effective_order=True)
    assert_close(
        [s * 100 for s in result.sentence_scores],
        [sentence_peer.sentence_score(h, r).score for h, r in zip(hypotheses, references)],
        what="sentence BLEU",
    )


@pytest.mark.parametrize("lowercase", [False, True])
def test_blocks_with_varying_reference_counts(shared, small_blocks, lowercase):
    hypotheses, references = _varying_references(shared, 60)
    expected = BLEU(lowercase=lowercase).corpus_score(
        hypotheses, [[group[k] if k < len(group) else None for group in references] for k in range(2)]
    )
    result = bleu(hypotheses, references, lowercase=lowercase, threads=2)
    assert_close(result.bleu * 100, expected.score, what="BLEU")
    assert "nrefs:var" in result.signature


def test_threads_give_identical_results(shared, small_blocks):
    """Every part of the result, bit for bit, in one thread, in several, and in one block."""
    hypotheses, references = _varying_references(shared, 50)
    options = dict(variant="nltk", smooth="method7", sentence_level=True, explain=True)
    one = bleu(hypotheses, references, **options).as_dict()
    assert bleu(hypotheses, references, threads=4, **options).as_dict() == one
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine_corpus, "BLOCK_SEGMENTS", 10**6)
        assert bleu(hypotheses, references, **options).as_dict() == one
    family = get_family("bleu")
    assert (
        family.statistics(hypotheses, references, threads=2).rows == family.statistics(hypotheses, references).rows
    ).all()


def test_blocks_of_token_lists_and_a_callable_tokenizer(shared, small_blocks):
    """Token lists, and a tokenizer function (used from several threads), score as NLTK's corpus_bleu."""
    from nltk.translate.bleu_score import corpus_bleu

    hypotheses, references = wmt17_slice(shared, "online-A.0", 40)
    token_hyps, token_refs = [h.split() for h in hypotheses], [[r.split() for r in g] for g in references]
    expected = corpus_bleu(token_refs, token_hyps)
    assert_close(bleu(token_hyps, token_refs, variant="nltk", threads=2).bleu, expected, what="BLEU")
    assert_close(
        bleu(hypotheses, references, variant="nltk", tokenize=str.split, threads=2).bleu, expected, what="BLEU"
    )


@pytest.mark.parametrize(
    "texts",
    [
        ["a\x00b c", "c\x00 d", "e"],  # the character joining texts for one split, inside texts
        ["a\u3000b\x1cc", "d\xa0e\u2028f", "\x85g"],  # whitespace beyond ASCII, which str.split() splits on
        ["", "   ", "a"],  # empty texts
    ],
)
def test_encoding_in_one_split_matches_the_peers(texts):
    references = [[text, text + " x"] for text in reversed(texts)]
    score = BLEU(tokenize="none").corpus_score(texts, as_streams(references))
    assert_close(bleu(texts, references, tokenize="none").bleu * 100, score.score, what="BLEU")
    expected = corpus_gleu([[r.split() for r in group] for group in references], [t.split() for t in texts])
    assert_close(gleu(texts, references).gleu, expected, what="GLEU")


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_in_blocks_scores_as_sacrebleu(shared, monkeypatch, word_order):
    """Blocks of about 400 reference characters (several segments each, some segments alone), with
    one or two references per segment: corpus and sentence scores as sacrebleu's, and every part of
    the result the same as in one block."""
    hypotheses, references = _varying_references(shared, 60)
    whole = chrf_module.chrf(hypotheses, references, word_order=word_order, sentence_level=True)
    monkeypatch.setattr(chrf_module, "BLOCK_CHARACTERS", 400)
    assert len(engine_corpus.blocks_by_size([sum(map(len, group)) for group in references], 400)) > 10
    result = chrf_module.chrf(hypotheses, references, word_order=word_order, sentence_level=True)
    threaded = chrf_module.chrf(hypotheses, references, word_order=word_order, sentence_level=True, threads=3)
    assert threaded.as_dict() == result.as_dict() and (threaded.statistics.rows == result.statistics.rows).all()
    assert (
        get_family("chrf").statistics(hypotheses, references, word_order=word_order, threads=2).rows
        == result.statistics.rows
    ).all()
    peer = CHRF(word_order=word_order)
    expected = peer.corpus_score(
        hypotheses, [[group[k] if k < len(group) else None for group in references] for k in range(2)]
    )
    assert_close(result.chrf * 100, expected.score, rel=1e-12, what="chrF")
    assert_close(
        [s * 100 for s in result.sentence_scores],
        [peer.sentence_score(h, group).score for h, group in zip(hypotheses, references)],
        rel=1e-12,
        what="sentence chrF",
    )
    assert result.as_dict() == whole.as_dict() and (result.statistics.rows == whole.statistics.rows).all()


def test_chrf_nltk_in_blocks(shared, monkeypatch):
    hypotheses, references = wmt17_slice(shared, "online-A.0", 40)
    monkeypatch.setattr(chrf_module, "BLOCK_CHARACTERS", 300)
    result = chrf_module.chrf(hypotheses, references, variant="nltk", sentence_level=True)
    assert_close(result.chrf, corpus_chrf([r[0] for r in references], hypotheses), rel=1e-12, what="NLTK chrF")
    assert_close(
        result.sentence_scores,
        [sentence_chrf(r[0], h) for h, r in zip(hypotheses, references)],
        rel=1e-12,
        what="NLTK sentence chrF",
    )


@pytest.mark.parametrize("value", [0, -1, 2.0, True, "2", None])
def test_threads_option_is_checked(value):
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        ngrameval.bleu(["a b"], [["a b"]], threads=value)
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        get_family("bleu").statistics(["a b"], [["a b"]], threads=value)
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        ngrameval.chrf(["a b"], [["a b"]], threads=value)
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        get_family("chrf").statistics(["a b"], [["a b"]], threads=value)
