"""chrF and GLEU: ngrameval against sacrebleu's corpus_chrf (and a reused CHRF object with cached
references) and NLTK's corpus_gleu, on the 16 WMT17 en-de systems.

    python benchmarks/bench_chrf_gleu.py [--quick] [--repeats N] [--only chrf-3004x16 ...] [--profile]

Every row returns one corpus score per system, in [0, 1] (sacrebleu's percentages divided by 100).

What a GLEU row times, per (fresh) process: 16 calls, one per system. The first tokenizes and indexes
the 3004 references (then cached: the other 15 calls reuse them); every call splits and encodes its
system's 3004 lines (about 56,000 tokens, cut and numbered by Arrow: ngrameval.engine.runs) and
matches them. NLTK's row is given its whitespace token lists made beforehand, untimed, while
``ngrameval.gleu`` splits its strings in the timed call; the row on token lists gives ngrameval the
very lists NLTK gets (informative: its input checks of token lists cost more than splitting strings).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from common import Corpus, Row, Section, Target, load_wmt17, main

CHRF_ENGINE = "ngrameval.chrf"
GLEU_ENGINE = "ngrameval.gleu"
GLEU_TOKENS = "ngrameval.gleu on token lists"


def ngrameval_chrf(corpus: Corpus, word_order: int = 0):
    """``ngrameval.chrf`` once per system (its reference index is cached after the first)."""
    from ngrameval.metrics.chrf import chrf

    return lambda: [chrf(system, corpus.references, word_order=word_order).chrf for system in corpus.systems]


def sacrebleu_corpus_chrf(corpus: Corpus, word_order: int = 0):
    """sacrebleu 2.6.0 ``corpus_chrf`` once per system."""
    from sacrebleu import corpus_chrf

    streams = corpus.streams()
    return lambda: [corpus_chrf(system, streams, word_order=word_order).score / 100 for system in corpus.systems]


def sacrebleu_reused_chrf(corpus: Corpus, word_order: int = 0):
    """One sacrebleu ``CHRF(references=...)`` (reference n-grams extracted once), ``corpus_score`` per system."""
    from sacrebleu.metrics import CHRF

    streams = corpus.streams()

    def run():
        metric = CHRF(word_order=word_order, references=streams)
        return [metric.corpus_score(system, None).score / 100 for system in corpus.systems]

    return run


def ngrameval_gleu(corpus: Corpus):
    """``ngrameval.gleu`` once per system, on strings (split on whitespace, as the peer's token lists)."""
    from ngrameval.metrics.gleu import gleu

    return lambda: [gleu(system, corpus.references).gleu for system in corpus.systems]


def ngrameval_gleu_tokens(corpus: Corpus):
    """``ngrameval.gleu`` once per system, on the whitespace token lists NLTK's row gets (made beforehand)."""
    from ngrameval.metrics.gleu import gleu

    systems, references = corpus.token_lists()
    return lambda: [gleu(system, references).gleu for system in systems]


def nltk_corpus_gleu(corpus: Corpus):
    """NLTK 3.10.4 ``corpus_gleu`` once per system, on whitespace token lists made beforehand."""
    from nltk.translate.gleu_score import corpus_gleu

    systems, references = corpus.token_lists()
    return lambda: [corpus_gleu(references, system) for system in systems]


def chrf_section(key: str, systems: int, lines: int) -> Section:
    plus = f"{CHRF_ENGINE} word_order=2"
    return Section(
        key,
        f"chrF and chrF++, first {lines} lines of {systems} systems",
        lambda: load_wmt17(systems=systems, lines=lines),
        [
            Row(CHRF_ENGINE, ngrameval_chrf),
            Row("sacrebleu corpus_chrf", sacrebleu_corpus_chrf, compare_to=CHRF_ENGINE, tolerance=1e-12),
            Row(
                "sacrebleu CHRF(references=...) reused", sacrebleu_reused_chrf, compare_to=CHRF_ENGINE, tolerance=1e-12
            ),
            Row(plus, ngrameval_chrf, {"word_order": 2}),
            Row(
                "sacrebleu corpus_chrf word_order=2",
                sacrebleu_corpus_chrf,
                {"word_order": 2},
                compare_to=plus,
                tolerance=1e-12,
            ),
        ],
        [
            Target("sacrebleu corpus_chrf", CHRF_ENGINE, "time", 5),
            Target("sacrebleu CHRF(references=...) reused", CHRF_ENGINE, "time", 5),
        ],
    )


def gleu_section(key: str, systems: int, lines: int) -> Section:
    return Section(
        key,
        f"GLEU (NLTK, orders 1-4), first {lines} lines of {systems} systems",
        lambda: load_wmt17(systems=systems, lines=lines),
        [
            Row(GLEU_ENGINE, ngrameval_gleu),
            Row(GLEU_TOKENS, ngrameval_gleu_tokens, compare_to=GLEU_ENGINE, tolerance=1e-12),
            Row("nltk corpus_gleu", nltk_corpus_gleu, compare_to=GLEU_ENGINE, tolerance=1e-12),
        ],
        [Target("nltk corpus_gleu", GLEU_ENGINE, "time", 10)],
    )


def sections(quick: bool) -> Iterator[Section]:
    if quick:
        yield chrf_section("chrf-500x4", systems=4, lines=500)
        yield gleu_section("gleu-500x4", systems=4, lines=500)
        return
    yield chrf_section("chrf-3004x16", systems=16, lines=3004)
    yield gleu_section("gleu-3004x16", systems=16, lines=3004)


if __name__ == "__main__":
    sys.exit(main("chrF and GLEU", sections))
