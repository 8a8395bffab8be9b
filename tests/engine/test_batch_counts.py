"""A few predictions counted in one pass (ngrameval.engine.batch): clipped counts equal to counting every
n-gram with Counters, and BLEU, chrF and ROUGE-N/L through that pass equal to sacrebleu, NLTK and rouge-score
run here, and to the same metrics through the reference index (the layout of larger corpora)."""

import random
from collections import Counter

import pytest
from nltk.translate.bleu_score import sentence_bleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF

import ngrameval
from ngrameval.engine import corpus as corpus_module
from ngrameval.engine.batch import FEW_PREDICTIONS, count_batch
from ngrameval.engine.cache import REFERENCE_CACHE
from ngrameval.metrics import chrf as chrf_module
from ngrameval.metrics import rouge as rouge_module
from tests.search import cases

WORDS = ["a", "b", "c", "the", "cat", "A", "dog", "猫", ".", ",", "..."]


def _counts(tokens, n):
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _random_batch(rng):
    sentences, max_order = rng.randint(1, 8), rng.randint(1, 6)
    alphabet = rng.sample(WORDS, rng.randint(1, len(WORDS)))
    hyps = [[rng.choice(alphabet) for _ in range(rng.randint(0, 9))] for _ in range(sentences)]
    per_sentence = [rng.randint(1, 3) for _ in range(sentences)]
    refs = [[rng.choice(alphabet) for _ in range(rng.randint(0, 9))] for _ in range(sum(per_sentence))]
    return hyps, refs, per_sentence, max_order


def test_clipped_counts_equal_counters_in_a_random_search():
    rng = random.Random(11)
    for _ in range(cases(300)):
        hyps, refs, per_sentence, max_order = _random_batch(rng)
        counted = count_batch(hyps, refs, per_sentence, max_order)
        start = 0
        for k, hyp in enumerate(hyps):
            group, start = refs[start : start + per_sentence[k]], start + per_sentence[k]
            for n in range(1, max_order + 1):
                hyp_counts, ref_counts = _counts(hyp, n), [_counts(ref, n) for ref in group]
                largest = Counter()
                for counts in ref_counts:
                    largest |= counts
                assert counted.clipped[k, n - 1] == sum((hyp_counts & largest).values())
                for slot, counts in enumerate(ref_counts):
                    assert counted.per_reference[k, slot, n - 1] == sum((hyp_counts & counts).values())
                assert not counted.per_reference[k, len(group) :, n - 1].any()
        assert counted.hyp_len.tolist() == list(map(len, hyps))
        assert counted.segment_len.tolist() == list(map(len, refs))


def test_keys_that_would_not_fit_are_left_to_the_index():
    distinct = [str(i) for i in range(65_535)]
    assert count_batch([distinct], [distinct[:10]], [1], 2) is None
    assert count_batch([distinct[:-1]], [distinct[:10]], [1], 2) is not None
    # BLEU of such a batch goes through the reference index: still NLTK's number.
    hypothesis, reference = distinct, distinct[500:1500] + distinct[:500]
    weights = (0.5, 0.5)
    expected = sentence_bleu([reference], hypothesis, weights=weights)
    assert ngrameval.bleu([hypothesis], [[reference]], variant="nltk", weights=weights).bleu == pytest.approx(
        expected, abs=1e-12
    )


def _random_texts(rng, count):
    def sentence():
        return " ".join(rng.choice(WORDS + ["cats", "sat", "mat", "on", "(", "'s"]) for _ in range(rng.randint(0, 12)))

    hyps = [sentence() for _ in range(count)]
    refs = [[sentence() for _ in range(rng.randint(1, 3))] for _ in range(count)]
    return hyps, refs


@pytest.mark.parametrize("seed", range(3))
def test_bleu_and_chrf_of_a_batch_equal_sacrebleu_and_the_indexed_path(seed, monkeypatch):
    rng = random.Random(seed)
    bleu_peer, chrf_peer, chrf_pp_peer = BLEU(effective_order=True), CHRF(), CHRF(word_order=2)
    for _ in range(cases(15)):
        hyps, refs = _random_texts(rng, rng.randint(1, FEW_PREDICTIONS))
        batched = [
            ngrameval.bleu(hyps, refs, sentence_level=True),
            ngrameval.chrf(hyps, refs, sentence_level=True),
            ngrameval.chrf(hyps, refs, word_order=2, sentence_level=True),
        ]
        for result, peer in zip(batched, (bleu_peer, chrf_peer, chrf_pp_peer)):
            expected = [peer.sentence_score(h, r).score / 100 for h, r in zip(hyps, refs)]
            assert result.sentence_scores == pytest.approx(expected, abs=1e-12)
        with monkeypatch.context() as patch:  # the same corpora through the reference index
            patch.setattr(corpus_module, "FEW_PREDICTIONS", 0)
            patch.setattr(chrf_module, "FEW_PREDICTIONS", 0)
            indexed = [
                ngrameval.bleu(hyps, refs, sentence_level=True),
                ngrameval.chrf(hyps, refs, sentence_level=True),
                ngrameval.chrf(hyps, refs, word_order=2, sentence_level=True),
            ]
        assert [r.as_dict() for r in batched] == [r.as_dict() for r in indexed]


def test_a_batch_is_not_kept_in_the_cache():
    ngrameval.clear_caches()
    ngrameval.bleu(["the cat sat"], [["the cat sat down"]])
    ngrameval.chrf(["the cat sat"], [["the cat sat down"]])
    assert len(REFERENCE_CACHE) == 0


@pytest.mark.parametrize("stem", [False, True])
def test_rouge_of_a_batch_equals_rouge_score_and_the_indexed_path(stem, monkeypatch):
    rng = random.Random(20 + stem)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], use_stemmer=stem)
    options = dict(rouge_types=["rouge1", "rouge2", "rougeL"], use_stemmer=stem, use_aggregator=False)
    for _ in range(cases(15)):
        hyps, refs = _random_texts(rng, rng.randint(1, FEW_PREDICTIONS))
        first = [group[0] for group in refs]
        batched = ngrameval.rouge(hyps, first, tokenizer="rouge_score", **options)
        for name in ("rouge1", "rouge2", "rougeL"):
            expected = [scorer.score(r, h)[name].fmeasure for h, r in zip(hyps, first)]
            assert batched.fmeasure[name] == pytest.approx(expected, abs=1e-12)
        several = ngrameval.rouge(hyps, refs, **options)
        with monkeypatch.context() as patch:  # the same corpora through the reference index
            patch.setattr(rouge_module, "FEW_PREDICTIONS", 0)
            assert ngrameval.rouge(hyps, first, tokenizer="rouge_score", **options).as_dict() == batched.as_dict()
            assert ngrameval.rouge(hyps, refs, **options).as_dict() == several.as_dict()


def test_a_group_of_completions_sharing_their_reference_equals_sacrebleu():
    """A GRPO step's completions of one prompt: one reference repeated (tokenized once), equal hypotheses too."""
    rng = random.Random(31)
    peer = BLEU(effective_order=True)
    for _ in range(cases(20)):
        reference = _random_texts(rng, 1)[1][0][0]
        completions = [rng.choice(_random_texts(rng, 3)[0] + [reference]) for _ in range(8)]
        result = ngrameval.bleu(completions, [[reference]] * 8, sentence_level=True)
        expected = [peer.sentence_score(c, [reference]).score / 100 for c in completions]
        assert result.sentence_scores == pytest.approx(expected, abs=1e-12)


def test_a_chrf_batch_whose_keys_would_not_fit_is_indexed_and_equals_sacrebleu():
    """More distinct characters than the 16-bit digits of a batch's sort hold (65,535), the references prepared
    once for the index."""
    rng = random.Random(41)
    characters = [chr(0x10000 + i) for i in range(65_535)]
    rng.shuffle(characters)
    hyps = ["".join(characters[:40_000]), "".join(rng.choice(characters) for _ in range(400))]
    refs = [["".join(characters[20_000:])], [hyps[1][:200] + "".join(rng.choice(characters) for _ in range(200))]]
    assert count_batch(hyps, [r for group in refs for r in group], [1, 1], 6) is None
    expected = [CHRF().sentence_score(h, r).score / 100 for h, r in zip(hyps, refs)]
    assert ngrameval.chrf(hyps, refs, sentence_level=True).sentence_scores == pytest.approx(expected, abs=1e-12)
