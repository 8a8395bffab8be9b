"""TER: ngrameval against sacrebleu 2.6.0 (its ``TER``, the only peer HF evaluate's ``ter`` runs) on WMT17
and on a synthetic 2-reference corpus.

    python benchmarks/bench_ter.py [--quick] [--repeats N] [--only wmt17 ...] [--profile]

Every row scores every system of its section and returns the scores (TER as a fraction); sacrebleu is
checked against the ngrameval row it is compared with (1e-9).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from common import Corpus, Row, Section, Target, load_wmt17, main, synthetic_corpus

# --------------------------------------------------------------------------- rows (run in a fresh process)


def ngrameval_ter(corpus: Corpus, sentence_level: bool = False, **options):
    """``ngrameval.ter`` once per system: its corpus score, or its sentence scores."""
    from ngrameval.metrics.ter import ter

    def run():
        results = [
            ter(system, corpus.references, sentence_level=sentence_level, **options) for system in corpus.systems
        ]
        return [r.sentence_scores if sentence_level else r.ter for r in results]

    return run


def sacrebleu_ter(corpus: Corpus, **options):
    """One ``TER(references=...)`` object (sacrebleu's own reference cache), ``corpus_score`` per system."""
    from sacrebleu.metrics import TER

    streams = corpus.streams()

    def run():
        metric = TER(references=streams, **options)
        return [metric.corpus_score(system, None).score / 100 for system in corpus.systems]

    return run


def sacrebleu_sentence_ter(corpus: Corpus):
    """One ``TER()`` object, ``sentence_score`` for every line of every system."""
    from sacrebleu.metrics import TER

    def run():
        metric = TER()
        return [
            [metric.sentence_score(line, refs).score / 100 for line, refs in zip(system, corpus.references)]
            for system in corpus.systems
        ]

    return run


# --------------------------------------------------------------------------- sections

ENGINE = "ngrameval.ter"
SACREBLEU = "sacrebleu TER(references) reused"


def sections(quick: bool) -> Iterator[Section]:
    def wmt() -> Corpus:
        return load_wmt17(systems=4, lines=500) if quick else load_wmt17()

    yield Section(
        "wmt17",
        "1. Corpus TER, default options, one score per system",
        wmt,
        [Row(ENGINE, ngrameval_ter), Row(SACREBLEU, sacrebleu_ter, compare_to=ENGINE)],
        [Target(SACREBLEU, ENGINE, "time", 10)],
        [
            (
                "Both tokenize the references once for all systems (sacrebleu in its TER object, ngrameval in its "
                "tokenizer's cache)."
            )
        ],
    )
    yield Section(
        "wmt17-normalized",
        "2. Corpus TER, normalized=True (punctuation split: longer segments)",
        wmt,
        [Row(ENGINE, ngrameval_ter, {"normalized": True}), Row(SACREBLEU, sacrebleu_ter, {"normalized": True}, ENGINE)],
        [Target(SACREBLEU, ENGINE, "time", 10)],
    )
    yield Section(
        "wmt17-sentence",
        "3. Sentence TER, every line of every system",
        lambda: load_wmt17(systems=2, lines=500) if quick else load_wmt17(systems=4),
        [
            Row(ENGINE, ngrameval_ter, {"sentence_level": True}),
            Row("sacrebleu TER().sentence_score loop", sacrebleu_sentence_ter, compare_to=ENGINE),
        ],
        [Target("sacrebleu TER().sentence_score loop", ENGINE, "time", 10)],
    )
    yield Section(
        "synthetic-2ref",
        "4. Corpus TER, 2 references, synthetic corpus",
        lambda: synthetic_corpus(2_000 if quick else 20_000, references=2),
        [Row(ENGINE, ngrameval_ter), Row(SACREBLEU, sacrebleu_ter, compare_to=ENGINE)],
        [Target(SACREBLEU, ENGINE, "time", 10)],
        [
            (
                "Predictions and references are independent perturbations of WMT17 sentences (swaps, drops, "
                "replacements): many shift candidates per segment."
            )
        ],
    )


if __name__ == "__main__":
    sys.exit(main("TER", sections))
