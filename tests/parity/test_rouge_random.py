"""A seeded random search: ngrameval.rouge (variant "rouge_score") against rouge-score 0.1.2, run here,
on random corpora of degenerate and mixed text: empty strings, whitespace only, punctuation only,
blank lines, long runs of one token, accented Latin, and words of other scripts (CJK, Cyrillic, Greek,
Arabic, Hebrew, Thai, Devanagari, Hangul).

- Latin-script corpora: the default tokenizer gives rouge-score's numbers.
- Any corpus: ``tokenizer="rouge_score"`` gives rouge-score's numbers; the default gives rouge-score's
  numbers computed on the default's tokens (rouge-score run with them as its tokenizer), and those
  tokens without the other scripts' are rouge-score's own (tests/parity/test_rouge_score.py checks
  that on its own corpora; here it is checked on every text).

rouge1, rouge2, rougeL and rougeLsum, with and without the stemmer, one to three references per
prediction (``score_multi``), many predictions sharing their references.
"""

import numpy as np
import pytest
from rouge_score import rouge_scorer
from rouge_score import tokenize as rouge_score_tokenize

import ngrameval
from ngrameval.metrics.rouge import RougeTokenizer
from tests.parity.test_rouge_score import TOLERANCE, expected_array, max_difference, peer_scorer
from tests.search import seeds

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PIECES = {
    "ascii": "the cat cats sat sitting on a mat running runs ran dog's DOGS happily 2024 x-ray U.S. a1b2 I".split(),
    "latin": "café CAFÉ cafe\u0301 naïve résumés straße œuvre ﬁnancial İstanbul \u212aelvin ｆｕｌｌ ２０ Ⅻ".split(),
    "punctuation": list("!?.,;:-—–'\"()[]{}…‘’“”£€$%&*#@/\\|<>~^_=+`"),
    "space": [" ", " ", " ", "  ", "\t", "\n", "\n\n", "\u00a0", "\r\n", "\u2003", "\x0b"],
    "other": "мир Мир ΚΌΣΜΟΣ κόσμος 東京 タワー ひらがな 한국어 שָׁלוֹם مرحبا हिन्दी ภาษาไทย cаt мо\u0301локо".split(),
}
LATIN = ("ascii", "latin", "punctuation", "space")


def random_text(rng: np.random.Generator, kinds) -> str:
    """One of: empty, whitespace only, punctuation only, a long run of one token, or a mix of ``kinds``."""
    shape = rng.random()
    if shape < 0.06:
        return ""
    if shape < 0.12:
        return "".join(rng.choice(PIECES["space"], rng.integers(1, 6)))
    if shape < 0.18:
        return " ".join(rng.choice(PIECES["punctuation"], rng.integers(1, 8)))
    if shape < 0.24:
        word = rng.choice(PIECES["ascii"] + PIECES[kinds[-1]])
        return " ".join([word] * int(rng.integers(20, 150)))
    words = []
    for _ in range(int(rng.integers(1, 40))):
        kind = kinds[int(rng.integers(len(kinds)))]
        words.append(rng.choice(PIECES[kind]))
        if kind != "space":
            words.append(rng.choice(PIECES["space"]))
    return "".join(words)


def random_corpus(seed: int, kinds, size: int = 400):
    """Predictions and one to three references each; a third of the predictions share the references of
    an earlier one (as every system's summary of a document shares its reference)."""
    rng = np.random.default_rng(seed)
    predictions = [random_text(rng, kinds) for _ in range(size)]
    references = [[random_text(rng, kinds) for _ in range(int(rng.integers(1, 4)))] for _ in range(size)]
    for k in np.flatnonzero(rng.random(size) < 1 / 3).tolist():
        if k:
            references[k] = list(references[int(rng.integers(k))])
    return predictions, references


def peer_scores(scorer, predictions, references):
    return expected_array([scorer.score_multi(r, p) for p, r in zip(predictions, references)], TYPES)


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
@pytest.mark.parametrize("seed", seeds([1, 2, 3]))
def test_latin_corpora_default_equals_rouge_score(seed, stem):
    predictions, references = random_corpus(seed, LATIN)
    expected = peer_scores(peer_scorer(TYPES, stem), predictions, references)
    for tokenizer in (None, "rouge_score"):
        result = ngrameval.rouge(
            predictions, references, TYPES, use_stemmer=stem, tokenizer=tokenizer, use_aggregator=False
        )
        assert max_difference(result.scores, expected) <= TOLERANCE, tokenizer
        aggregate = ngrameval.rouge(predictions, references, TYPES, use_stemmer=stem, tokenizer=tokenizer)
        assert max(abs(aggregate.fmeasure[t] - expected[i, :, 2].mean()) for i, t in enumerate(TYPES)) <= TOLERANCE


class _Default:
    """ngrameval's default tokens (stemmed as asked), for rouge-score's ``tokenizer=``."""

    def __init__(self, use_stemmer: bool) -> None:
        self.tokenizer = RougeTokenizer(use_stemmer=use_stemmer)

    def tokenize(self, text):
        return self.tokenizer(text)


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
@pytest.mark.parametrize("seed", seeds([4, 5, 6]))
@pytest.mark.slow
def test_mixed_script_corpora(seed, stem):
    predictions, references = random_corpus(seed, LATIN + ("other",))
    # rouge-score's own tokenizer: its numbers exactly (the words of other scripts vanish).
    result = ngrameval.rouge(
        predictions, references, TYPES, use_stemmer=stem, tokenizer="rouge_score", use_aggregator=False
    )
    assert max_difference(result.scores, peer_scores(peer_scorer(TYPES, stem), predictions, references)) <= TOLERANCE
    # The default: rouge-score's numbers on the default's tokens, which are rouge-score's plus other scripts'.
    stemmer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=stem)._tokenizer._stemmer
    ours = _Default(stem)
    for text in predictions + [r for group in references for r in group]:
        tokens = ours.tokenize(text)
        assert [t for t in tokens if rouge_score_tokenize.VALID_TOKEN_RE.match(t)] == rouge_score_tokenize.tokenize(
            text, stemmer
        ), repr(text)
    expected = peer_scores(rouge_scorer.RougeScorer(TYPES, tokenizer=ours), predictions, references)
    result = ngrameval.rouge(predictions, references, TYPES, use_stemmer=stem, use_aggregator=False)
    assert max_difference(result.scores, expected) <= TOLERANCE
