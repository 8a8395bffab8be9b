"""Token ids cut into blocks of about BLOCK_TOKENS tokens (ngrameval.engine.corpus.id_blocks): long sequences are
matched a few predictions at a time, and every sentence score is still NLTK's sentence_bleu on the same ids."""

import random

import pytest
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

import ngrameval
from ngrameval.engine import corpus as engine_corpus
from tests.search import cases


def _scores(predictions, references, **options):
    return ngrameval.bleu(
        predictions, references, variant="nltk", smooth="method1", sentence_level=True, **options
    ).sentence_scores


@pytest.mark.parametrize("block_tokens", [1, 7, 40])
def test_blocks_of_tokens_score_as_nltk(monkeypatch, block_tokens):
    """Seeded random corpora, 1-3 references of 0-30 small ids each: blocks of 1 (one prediction each), 7 and
    40 tokens, in one thread and two, against NLTK's sentence_bleu (smoothing method1) per prediction."""
    rng = random.Random(f"id-blocks-{block_tokens}")
    monkeypatch.setattr(engine_corpus, "BLOCK_TOKENS", block_tokens)
    method1 = SmoothingFunction().method1
    several = 0  # corpora cut into more than one block
    for _ in range(cases(6)):
        count = rng.randint(1, 12)
        predictions = [[rng.randrange(8) for _ in range(rng.randint(0, 30))] for _ in range(count)]
        references = [
            [[rng.randrange(8) for _ in range(rng.randint(0, 30))] for _ in range(rng.randint(1, 3))]
            for _ in range(count)
        ]
        # (A few predictions whose tokens before the last stay under 40 are one block, as id_blocks means.)
        several += len(engine_corpus.id_blocks(engine_corpus.token_ids(predictions, references))) > 1
        expected = [sentence_bleu(refs, hyp, smoothing_function=method1) for hyp, refs in zip(predictions, references)]
        for threads in (1, 2):
            assert _scores(predictions, references, threads=threads) == pytest.approx(expected, rel=1e-12, abs=1e-15)
    assert several >= cases(3)  # most corpora are scored in several blocks
