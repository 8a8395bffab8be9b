"""METEOR, NLTK's variant: ngrameval.metrics.meteor_nltk against NLTK 3.10.4's ``meteor_score``.

    python benchmarks/bench_meteor_nltk.py [--quick] [--repeats N] [--only wmt22-3k e2e] [--profile]

Both rows get the same token lists (NLTK's word tokenizer on each line, i.e.
``word_tokenize(line, preserve_line=True)``, applied beforehand) and return one sentence score
per hypothesis (the best over its references), checked for exact equality. Both read WordNet 3.0
from Debian's files (``wordnet-base``, ``wordnet-sense-index``): ngrameval from /usr/share/wordnet,
NLTK from a copy laid out as an nltk_data directory with a generated ``lexnames`` (made before the
timing; see tests/parity/test_meteor_nltk.py). Loading WordNet is timed in both rows.
"""

from __future__ import annotations

import atexit
import importlib
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from common import Corpus, Row, Section, Target, main, shared

PACKAGES = ("ngrameval", "numpy", "nltk")
ENGINE = "ngrameval nltk_meteor"
PEER = "nltk meteor_score loop"
EXACT = 0.0


# --------------------------------------------------------------------------- data


def load_wmt22(count: int) -> Corpus:
    """The first ``count`` segments of WMT22 Online-B, de-en then zh-en (English), both references."""
    from tests.data import wmt22_slice

    hypotheses, references = [], []
    for pair in ("de-en", "zh-en"):
        h, r = wmt22_slice(shared, pair, "Online-B")
        hypotheses += h
        references += r
    hypotheses, references = hypotheses[:count], references[:count]
    return Corpus(
        f"WMT22 Online-B de-en then zh-en (English), {len(hypotheses)} segments x 2 references",
        ["Online-B"],
        [hypotheses],
        references,
    )


def load_e2e(systems: int) -> Corpus:
    """E2E test set: the first ``systems`` primary systems' 630 outputs, each against all references of its MR."""
    from tests.data import E2E_PRIMARY, e2e_outputs, e2e_references

    _, references = e2e_references(shared)
    names = list(E2E_PRIMARY[:systems])
    return Corpus(
        f"E2E NLG test set, {systems} system(s) x 630 outputs, "
        f"{sum(map(len, references))} references (1 to 45 per output)",
        names,
        [e2e_outputs(shared, name) for name in names],
        references,
    )


def token_lists(corpus: Corpus):
    from ngrameval.metrics.meteor_nltk import tokenize

    return [tokenize(system) for system in corpus.systems], [tokenize(group) for group in corpus.references]


# --------------------------------------------------------------------------- rows (run in a fresh process)


def ngrameval_meteor(corpus: Corpus):
    """``nltk_meteor`` once per system; WordNet's files are read inside the timing (first use)."""
    from ngrameval.metrics.meteor_nltk import nltk_meteor

    importlib.import_module("nltk.stem.porter")  # importing nltk takes ~1 s; the peer row imports it untimed too

    systems, references = token_lists(corpus)
    return lambda: [nltk_meteor(system, references).scores for system in systems]


def nltk_meteor_score(corpus: Corpus):
    """NLTK's ``meteor_score(references, hypothesis, wordnet=reader)`` per hypothesis, with its default
    PorterStemmer; the ``WordNetCorpusReader`` is built inside the timing."""
    from nltk.translate.meteor_score import meteor_score

    from tests.parity.test_meteor_nltk import nltk_wordnet_data, nltk_wordnet_reader

    scratch = Path(tempfile.mkdtemp(prefix="ngrameval-nltk-wordnet-"))
    atexit.register(shutil.rmtree, scratch, True)
    nltk_data = nltk_wordnet_data(scratch)
    systems, references = token_lists(corpus)

    def run():
        wordnet = nltk_wordnet_reader(nltk_data)
        return [
            [meteor_score(refs, hypothesis, wordnet=wordnet) for hypothesis, refs in zip(system, references)]
            for system in systems
        ]

    return run


# --------------------------------------------------------------------------- sections

NOTES = [
    (
        "Scores must be equal (max |difference| 0). Timed in both rows: loading WordNet (ngrameval: index, exception "
        "and data files read on first use; NLTK: WordNetCorpusReader, which also reads index.sense twice for its "
        "version mapping), stemming, synonym look-ups, alignment, scoring. Not timed: importing nltk (~1 s), "
        "tokenizing, copying WordNet's files for NLTK."
    ),
]


def sections(quick: bool) -> Iterator[Section]:
    rows = [Row(ENGINE, ngrameval_meteor), Row(PEER, nltk_meteor_score, compare_to=ENGINE, tolerance=EXACT)]
    targets = [Target(PEER, ENGINE, "time", 10)]
    count = 500 if quick else 3000
    yield Section(
        "wmt22-3k" if not quick else "wmt22-500",
        f"1. METEOR (NLTK) of {count} WMT22 segments, 2 references",
        lambda: load_wmt22(count),
        rows,
        targets,
        NOTES,
    )
    yield Section(
        "e2e",
        "2. METEOR (NLTK) on E2E, up to 45 references per output",
        lambda: load_e2e(1 if quick else 2),
        rows,
        targets,
        NOTES,
    )


if __name__ == "__main__":
    sys.exit(main("METEOR (NLTK)", sections, packages=PACKAGES))
