"""BLEU: ngrameval against sacrebleu, bleuscore and fast-bleu on WMT17 and on a synthetic 4-reference corpus.

    python benchmarks/bench_bleu.py [--quick] [--repeats N] [--only corpus-13a ...] [--profile]

Every row scores every system of its section and returns the scores (in [0, 1]);
peers are checked against the ngrameval row they are compared with (1e-9).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from common import Corpus, Row, Section, Target, load_wmt17, main, pretokenize_13a, synthetic_corpus

FAST_BLEU_WEIGHTS = {4: (0.25, 0.25, 0.25, 0.25)}


# --------------------------------------------------------------------------- rows (run in a fresh process)


def ngrameval_bleu(corpus: Corpus, token_lists: bool = False, sentence_level: bool = False, **options):
    """``ngrameval.bleu`` once per system: its corpus score, or its sentence scores."""
    import ngrameval

    systems, references = corpus.token_lists() if token_lists else (corpus.systems, corpus.references)

    def run():
        results = [ngrameval.bleu(system, references, sentence_level=sentence_level, **options) for system in systems]
        return [r.sentence_scores if sentence_level else r.bleu for r in results]

    return run


def sacrebleu_corpus_bleu(corpus: Corpus, tokenize: str):
    """``sacrebleu.corpus_bleu`` once per system (references prepared again in every call)."""
    import sacrebleu

    streams = corpus.streams()
    return lambda: [sacrebleu.corpus_bleu(system, streams, tokenize=tokenize).score / 100 for system in corpus.systems]


def sacrebleu_reused(corpus: Corpus, tokenize: str):
    """One ``BLEU(references=...)`` object (sacrebleu's own reference cache), built inside the timing."""
    from sacrebleu.metrics import BLEU

    streams = corpus.streams()

    def run():
        metric = BLEU(tokenize=tokenize, references=streams)
        return [metric.corpus_score(system, None).score / 100 for system in corpus.systems]

    return run


def sacrebleu_sentence_bleu(corpus: Corpus):
    """``sacrebleu.sentence_bleu`` for every line of every system."""
    import sacrebleu

    return lambda: [
        [sacrebleu.sentence_bleu(line, refs).score / 100 for line, refs in zip(system, corpus.references)]
        for system in corpus.systems
    ]


def sacrebleu_sentence_reused(corpus: Corpus):
    """One ``BLEU(effective_order=True)`` object, ``sentence_score`` for every line of every system."""
    from sacrebleu.metrics import BLEU

    def run():
        metric = BLEU(effective_order=True)
        return [
            [metric.sentence_score(line, refs).score / 100 for line, refs in zip(system, corpus.references)]
            for system in corpus.systems
        ]

    return run


def bleuscore_compute(corpus: Corpus):
    """``bleuscore.compute`` once per system; it 13a-tokenizes its input itself."""
    import bleuscore

    return lambda: [
        bleuscore.compute(corpus.references, system, max_order=4, smooth=False, ref_len_method="closest")["bleu"]
        for system in corpus.systems
    ]


def fast_bleu_segments(corpus: Corpus):
    """fast-bleu has no corpus BLEU: its ``BLEU(references).get_score(hypotheses)`` scores each hypothesis
    against the whole reference set. So: one ``BLEU`` object per line (that line's references), scoring
    the line of every system at once -- NLTK sentence BLEU with smoothing method1."""
    from fast_bleu import BLEU

    systems, references = corpus.token_lists()

    def run():
        per_line = [
            BLEU(refs, FAST_BLEU_WEIGHTS, smoothing_func=1).get_score(list(lines))[4]
            for refs, lines in zip(references, zip(*systems))
        ]
        return [list(scores) for scores in zip(*per_line)]

    return run


# --------------------------------------------------------------------------- sections

ENGINE = "ngrameval.bleu"
ENGINE_NMT = "ngrameval.bleu variant=nmt bp=closest"
ENGINE_THREADS = "ngrameval.bleu threads=2"
ENGINE_NMT_THREADS = "ngrameval.bleu variant=nmt bp=closest threads=2"
ENGINE_NLTK = "ngrameval.bleu variant=nltk method1 sentence_level"
SACREBLEU = "sacrebleu.corpus_bleu"
SACREBLEU_NONE = "sacrebleu.corpus_bleu tokenize=none"
SACREBLEU_REUSED = "sacrebleu BLEU(references) reused"
SACREBLEU_SENTENCE = "sacrebleu.sentence_bleu loop"
SACREBLEU_SENTENCE_REUSED = "sacrebleu BLEU(effective_order) reused"
BLEUSCORE = "bleuscore.compute closest"
FAST_BLEU = "fast-bleu, one BLEU per line"

WHITESPACE_NOTES = [
    (
        "Input: the lines 13a-tokenized once beforehand (untimed), so bleuscore's own 13a pass finds the same "
        "tokens as the whitespace split of the others; bleuscore still spends time on that pass."
    ),
    (
        "bleuscore computes tensorflow/nmt BLEU (no smoothing), so it is checked against ngrameval variant=nmt "
        "with the closest reference length; the default ngrameval row matches sacrebleu's rule."
    ),
    (
        "fast-bleu cannot give a corpus score: it is compared per line with ngrameval's NLTK sentence BLEU "
        "(method1) on the same token lists."
    ),
]


def whitespace_rows() -> list[Row]:
    """Corpus BLEU on whitespace tokens: ngrameval with each peer's scoring rule, and the peers."""
    return [
        Row(ENGINE, ngrameval_bleu, {"tokenize": "none"}),
        Row(SACREBLEU_NONE, sacrebleu_corpus_bleu, {"tokenize": "none"}, ENGINE),
        Row(SACREBLEU_REUSED, sacrebleu_reused, {"tokenize": "none"}, ENGINE),
        Row(ENGINE_NMT, ngrameval_bleu, {"tokenize": "none", "variant": "nmt", "brevity_penalty": "closest"}),
        Row(BLEUSCORE, bleuscore_compute, compare_to=ENGINE_NMT, note="re-tokenizes with 13a; multithreaded"),
        Row(
            ENGINE_NLTK,
            ngrameval_bleu,
            {"token_lists": True, "variant": "nltk", "smooth": "method1", "sentence_level": True},
        ),
        Row(FAST_BLEU, fast_bleu_segments, compare_to=ENGINE_NLTK, note="sentence scores: no corpus mode"),
    ]


def sections(quick: bool) -> Iterator[Section]:
    def wmt() -> Corpus:
        return load_wmt17(systems=4, lines=500) if quick else load_wmt17()

    yield Section(
        "corpus-13a",
        "1. Corpus BLEU, 13a tokenization, one score per system",
        wmt,
        [
            Row(ENGINE, ngrameval_bleu),
            Row(SACREBLEU, sacrebleu_corpus_bleu, {"tokenize": "13a"}, ENGINE),
            Row(SACREBLEU_REUSED, sacrebleu_reused, {"tokenize": "13a"}, ENGINE),
        ],
        [Target(SACREBLEU, ENGINE, "time", 5), Target(SACREBLEU_REUSED, ENGINE, "time", 5)],
        [
            (
                "ngrameval: default variant (sacrebleu rule, 13a); references passed as plain lists every call "
                "(its reference cache indexes them once per process)."
            )
        ],
    )
    yield Section(
        "corpus-whitespace",
        "2. Corpus BLEU on whitespace tokens",
        lambda: pretokenize_13a(wmt()),
        whitespace_rows(),
        [Target(BLEUSCORE, ENGINE_NMT, "time", 1), Target(BLEUSCORE, ENGINE, "time", 1)],
        WHITESPACE_NOTES,
    )
    yield Section(
        "sentence-13a",
        "3. Sentence BLEU, 13a, every line of every system",
        wmt,
        [
            Row(ENGINE, ngrameval_bleu, {"sentence_level": True}),
            Row(SACREBLEU_SENTENCE, sacrebleu_sentence_bleu, compare_to=ENGINE),
            Row(SACREBLEU_SENTENCE_REUSED, sacrebleu_sentence_reused, compare_to=ENGINE),
        ],
        [Target(SACREBLEU_SENTENCE, ENGINE, "time", 5), Target(SACREBLEU_SENTENCE_REUSED, ENGINE, "time", 5)],
    )
    nmt = {"tokenize": "none", "variant": "nmt", "brevity_penalty": "closest"}
    yield Section(
        "synthetic-4ref",
        "4. Corpus BLEU, 4 references, whitespace tokens, synthetic corpus",
        lambda: synthetic_corpus(10_000 if quick else 100_000),
        [
            Row(ENGINE, ngrameval_bleu, {"tokenize": "none"}),
            Row(ENGINE_THREADS, ngrameval_bleu, {"tokenize": "none", "threads": 2}),
            Row(SACREBLEU_NONE, sacrebleu_corpus_bleu, {"tokenize": "none"}, ENGINE),
            Row(ENGINE_NMT, ngrameval_bleu, nmt),
            Row(ENGINE_NMT_THREADS, ngrameval_bleu, {**nmt, "threads": 2}),
            Row(BLEUSCORE, bleuscore_compute, compare_to=ENGINE_NMT, note="re-tokenizes with 13a; multithreaded"),
        ],
        [
            Target(SACREBLEU_NONE, ENGINE, "peak", 1),
            Target(SACREBLEU_NONE, ENGINE, "time", 1),
            Target(BLEUSCORE, ENGINE_NMT, "time", 1),
            Target(BLEUSCORE, ENGINE_NMT_THREADS, "time", 1),
            Target(BLEUSCORE, ENGINE_NMT, "peak", 0.5),
            Target(BLEUSCORE, ENGINE_NMT_THREADS, "peak", 0.5),
        ],
        [
            (
                "Peak memory is each row's own process (VmHWM), less a baseline process that loaded the same corpus; "
                "the peak targets: ngrameval's peak MB (Δ) no more than sacrebleu's and at most twice bleuscore's."
            ),
            (
                "Issue 13's goal: bleuscore's CPU time in one process (row variant=nmt), its wall time with both cores "
                "(threads=2: blocks of segments matched in two threads)."
            ),
        ]
        + WHITESPACE_NOTES[1:2],
    )


if __name__ == "__main__":
    sys.exit(main("BLEU", sections))
