"""The evaluate front end's cost: ``evaluate.load("metrics/bleu").compute(...)`` against the direct call
``ngrameval.bleu(...)`` on the 16 WMT17 systems (and sacrebleu for scale).

    python benchmarks/bench_frontend.py [--quick] [--repeats N]

Given predictions and references in one process, the script validates them and scores them without
evaluate's Arrow storage (which ``add_batch`` and distributed runs keep): it may add at most 10% to
the direct call.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from common import ROOT, Corpus, Row, Section, Target, load_wmt17, main

ENGINE = "evaluate.load('metrics/bleu').compute"
DIRECT = "ngrameval.bleu"


def evaluate_compute(corpus: Corpus):
    """The evaluate script, loaded (untimed) from the checkout, once per system."""
    import evaluate

    metric = evaluate.load(str(ROOT / "metrics" / "bleu"))
    return lambda: [
        metric.compute(predictions=system, references=corpus.references)["bleu"] for system in corpus.systems
    ]


def direct_call(corpus: Corpus):
    """``ngrameval.bleu`` once per system."""
    import ngrameval

    return lambda: [ngrameval.bleu(system, corpus.references).bleu for system in corpus.systems]


def sacrebleu_corpus_bleu(corpus: Corpus):
    """sacrebleu 2.6.0 ``corpus_bleu`` once per system (scores / 100)."""
    import sacrebleu

    streams = corpus.streams()
    return lambda: [sacrebleu.corpus_bleu(system, streams).score / 100 for system in corpus.systems]


def frontend_section(key: str, systems: int, lines: int) -> Section:
    return Section(
        key,
        f"BLEU through evaluate, first {lines} lines of {systems} systems",
        lambda: load_wmt17(systems=systems, lines=lines),
        [
            Row(ENGINE, evaluate_compute),
            Row(DIRECT, direct_call, compare_to=ENGINE),
            Row("sacrebleu corpus_bleu", sacrebleu_corpus_bleu, compare_to=ENGINE),
        ],
        [Target(DIRECT, ENGINE, "time", 1 / 1.1)],
        [
            (
                "The target reads: the direct call's time over the evaluate path's is at least 1/1.1, i.e. the "
                "front end adds at most 10%."
            )
        ],
    )


def sections(quick: bool) -> Iterator[Section]:
    if quick:
        yield frontend_section("frontend-500x2", systems=2, lines=500)
        return
    yield frontend_section("frontend-3004x16", systems=16, lines=3004)


if __name__ == "__main__":
    sys.exit(main("evaluate front end", sections))
