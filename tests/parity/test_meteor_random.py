"""Seeded random searches for METEOR against its peers, run here: any corpus on which the peer returns
numbers must give the same numbers.

- the ``nltk`` variant against NLTK 3.10.4's ``meteor_score`` (exact float equality), on random
  corpora of 1 to 4 items and on one larger corpus: token lists drawn from words related by stem and
  by WordNet synonym, unrelated words, punctuation, CJK, with empty hypotheses and references and
  repeated tokens, 1 to 4 references per item;
- the default variant (METEOR 1.5) against the jar, one corpus of random texts sent in one jar run.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import ngrameval
from ngrameval.metrics.meteor15 import Meteor15
from tests import meteor_jar
from tests.parity.test_meteor15_jar import assert_same_as_jar
from tests.parity.test_meteor_nltk import nltk_wordnet, peer  # noqa: F401  (fixtures: NLTK on Debian's WordNet)
from tests.search import cases

# Words that match by stem (dog/dogs, run/running), by synonym (car/automobile, big/large), not at all,
# and tokens with no letters; case varies because both tools lowercase.
_WORDS = (
    "the a an dog dogs Dog canine cat cats run running ran runs car automobile auto big large huge "
    "small little man men person people sit sitting sat seated on in at of and with red crimson blue "
    "quick fast rapid . , ! ? ... ' \" -- ( ) 1 2 100 3.5 狗 猫 犬 é café naïve x y z"
).split()


def _tokens(rng: random.Random, most: int) -> list[str]:
    if rng.random() < 0.15:
        return []
    if rng.random() < 0.1:  # one token repeated
        return [rng.choice(_WORDS)] * rng.randint(1, most)
    return [rng.choice(_WORDS) for _ in range(rng.randint(1, most))]


def random_corpus(rng: random.Random, items: int, most: int = 8) -> tuple[list[list[str]], list[list[list[str]]]]:
    hypotheses = [_tokens(rng, most) for _ in range(items)]
    references = [[_tokens(rng, most) for _ in range(rng.randint(1, 4))] for _ in range(items)]
    return hypotheses, references


NLTK_SEED, SMALL_CORPORA, LARGE_CORPUS = 4711, 2000, 2000


@pytest.mark.slow
def test_nltk_variant_random_corpora(peer):  # noqa: F811
    """2,000 corpora of 1 to 4 items (small ones are where "no match anywhere" happens) and one corpus of
    2,000 items (seed 4711): the scores of every item and the mean, bit for bit."""
    rng = random.Random(NLTK_SEED)
    corpora = [random_corpus(rng, rng.randint(1, 4), most=4) for _ in range(cases(SMALL_CORPORA))]
    corpora.append(random_corpus(rng, LARGE_CORPUS))
    for number, (hypotheses, references) in enumerate(corpora):
        expected = peer(hypotheses, references)
        result = ngrameval.meteor(hypotheses, references, variant="nltk")
        assert result.scores == expected, f"corpus {number}: {hypotheses!r} / {references!r}"
        assert result.meteor == float(np.mean(expected)), f"corpus {number}"


def _text(rng: random.Random, most: int) -> str:
    return " ".join(_tokens(rng, most)) if rng.random() < 0.9 else rng.choice(["", " ", "  a  ", "A.B.", "'s"])


JAR_SEED, JAR_SEGMENTS = 1789, 200


def test_meteor15_random_corpus():
    """200 random segments of 1 to 4 references (seed 1789) in one jar run: stats lines, segment and
    corpus scores."""
    try:
        jar = meteor_jar.MeteorJar(["-norm"])
    except meteor_jar.PeerMissing as missing:
        pytest.fail(str(missing))
    try:
        rng = random.Random(JAR_SEED)
        for corpus in range(cases(1)):  # corpora of JAR_SEGMENTS segments drawn one after the other
            hypotheses = [_text(rng, 10) for _ in range(JAR_SEGMENTS)]
            references = [[_text(rng, 10) for _ in range(rng.randint(1, 4))] for _ in range(JAR_SEGMENTS)]
            assert_same_as_jar(
                jar,
                Meteor15(),
                hypotheses,
                references,
                f"{JAR_SEGMENTS} random segments (seed {JAR_SEED}, corpus {corpus})",
            )
    finally:
        jar.close()
