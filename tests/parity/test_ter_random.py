"""A seeded random search: ngrameval.ter against sacrebleu 2.6.0's TER, run here, on corpora of odd
text -- CJK and kana, punctuation runs, XML entities (lower and upper case), possessives, empty and
whitespace-only lines, very long lines, and few distinct words repeated many times (many shift
candidates, ties in the ranking and in the trace, the 1000-candidate limit, the beam) -- with random
options and one to three references. Every segment's edits and reference length are sacrebleu's.
Sized for CI (about 30 s); raise NGRAMEVAL_SEARCH_SCALE (tests/search.py) to search longer.

Also sacrebleu's edit distance itself (``lib_ter.BeamEditDistance``) against ours on random word
sequences long and unequal enough for its beam to cut the cheapest alignments.
"""

import numpy as np
import pytest
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import BeamEditDistance as PeerBeamEditDistance

from ngrameval.engine.editdistance import BeamEditDistance
from ngrameval.metrics.ter import ter
from tests.parity.test_ter_sacrebleu import OPTIONS, as_padded_streams
from tests.search import cases

PIECES = [
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "a",
    "The",
    "A",
    "CAT",
    ".",
    ",",
    "...",
    "!?",
    "-",
    "--",
    "3.5",
    "1,000",
    "(",
    ")",
    '"',
    "'s",
    "John's",
    "a.b",
    "&quot;",
    "&amp;",
    "&AMP;",
    "&lt;",
    "&amp;lt;",
    "&gt;",
    "\n",
    "\n-",
    "\t",
    "\u00a0",
    "  ",
    "\u3000",
    "東京",
    "猫",
    "が",
    "いる",
    "ひらがな",
    "カタカナ",
    "。",
    "、",
    "，",
    "（",
    "）",
    "中文測試",
    "ｆｕｌｌ",
    "привет",
    "É",
    "ß",
    "İ",
    "x" * 30,
    "",
]
FEW_WORDS = ["a", "b", "c", "a b", "b a", ".", "the"]


def random_text(rng: np.random.Generator, repetitive: bool) -> str:
    shape = rng.random()
    if shape < 0.05:
        return ""
    if shape < 0.08:
        return " \t"
    pieces = FEW_WORDS if repetitive else PIECES
    size = int(rng.integers(1, 35 if repetitive else 30))
    joins = rng.choice([" ", "", "  "], size=size, p=[0.85, 0.1, 0.05])
    return "".join(str(rng.choice(pieces)) + str(j) for j in joins)


def perturbed(rng: np.random.Generator, text: str) -> str:
    """The words of ``text`` with a block moved, some dropped, some doubled: a prediction that needs shifts."""
    words = text.split(" ")
    if len(words) > 3:
        start, length = int(rng.integers(len(words))), int(rng.integers(1, 6))
        block, words = words[start : start + length], words[:start] + words[start + length :]
        at = int(rng.integers(len(words) + 1))
        words = words[:at] + block + words[at:]
    words = [w for w in words if rng.random() > 0.1]
    return " ".join(w + " " + w if rng.random() < 0.05 else w for w in words)


def random_corpus(rng: np.random.Generator):
    repetitive = bool(rng.random() < 0.4)
    size = int(rng.integers(1, 5))
    refs_per_segment = int(rng.integers(1, 4))
    references = [[random_text(rng, repetitive) for _ in range(refs_per_segment)] for _ in range(size)]
    predictions = [
        perturbed(rng, group[0]) if rng.random() < 0.7 else random_text(rng, repetitive) for group in references
    ]
    return predictions, references


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.slow
def test_sacrebleu_on_random_corpora(seed):
    rng = np.random.default_rng(2006 + seed)
    for _ in range(cases(25)):
        predictions, references = random_corpus(rng)
        options = {name: bool(rng.random() < 0.4) for name in OPTIONS}
        peer = TER(**options)
        streams = as_padded_streams(references)
        expected = peer._extract_corpus_statistics(predictions, streams)
        score = peer.corpus_score(predictions, streams)
        result = ter(predictions, references, **options)
        case = (predictions, references, options)
        assert result.statistics.rows.tolist() == [[float(e), float(r)] for e, r in expected], case
        assert result.ter * 100 == pytest.approx(score.score, rel=1e-12, abs=1e-12), case
        assert result.signature == str(peer.get_signature()), case


@pytest.mark.slow
def test_very_long_lines_and_the_candidate_limit():
    # Hundreds of copies of a few words: thousands of shift candidates (sacrebleu stops at 1000) and
    # references far longer than the beam.
    rng = np.random.default_rng(7)
    references = [" ".join(rng.choice(["a", "b", "c", "d"], size=int(n))) for n in (160, 90, 40)]
    predictions = [perturbed(rng, reference) for reference in references] + [references[1]]
    references.append(" ".join(references[1].split()[::-1]))
    peer = TER()
    expected = peer._extract_corpus_statistics(predictions, [references])
    assert ter(predictions, references).statistics.rows.tolist() == [[float(e), float(r)] for e, r in expected]


@pytest.mark.parametrize("seed", range(2))
def test_edit_distance_inside_sacrebleus_beam(seed):
    rng = np.random.default_rng(seed)
    for _ in range(cases(100)):
        m, n = (int(x) for x in rng.choice([1, 5, 30, 60, 140], size=2))
        vocabulary = int(rng.choice([2, 6, 40]))
        reference = [str(w) for w in rng.integers(vocabulary, size=m)]
        hypothesis = [str(w) for w in rng.integers(vocabulary, size=n)]
        distances = BeamEditDistance(reference, n)
        alignment = distances.align(hypothesis)
        assert (alignment.distance, alignment.trace) == PeerBeamEditDistance(reference)(hypothesis)
        candidate = list(rng.permutation(hypothesis))
        start = next((i for i, (a, b) in enumerate(zip(candidate, hypothesis)) if a != b), n)
        expected = PeerBeamEditDistance(reference)(candidate)[0]
        lower, exact = distances.lower_bound(candidate, start, alignment)
        assert lower <= expected and (lower == expected or not exact)
        assert distances.beam_distance(candidate, start, alignment) == expected
