"""Sentence scores of small batches (a GRPO step's rewards): ngrameval's BLEU, ROUGE and chrF on 8 pairs per
call against the peers' loops over the same 8 pairs, on WMT22 de-en (the first system, JDExploreAcademy,
against reference A).

    python benchmarks/bench_small_batches.py [--quick] [--repeats N] [--only bleu-distinct ...] [--profile]

Each row makes the same number of calls, each on a batch of 8 consecutive (prediction, reference) lines, and
returns every sentence score in [0, 1]. The peers' objects are built once, outside the timing, as a user
builds them: sacrebleu ``BLEU(effective_order=True)`` and ``CHRF()`` (their ``sentence_score`` per pair),
rouge-score ``RougeScorer(["rouge1", "rouge2", "rougeL"])`` (its ``score`` per pair, F-measures compared;
ngrameval's ROUGE rows pass ``tokenizer="rouge_score"``, rouge-score's own tokens: the default tokenizer also
keeps words of other scripts, which a few of these lines have, and would score other numbers).
Every row first makes one untimed call on a toy pair (lazy imports, compiled patterns).

Three ways to pick the batches, one section each per metric:

- ``distinct``: the 248 batches of the 1,984 lines, each once: no cache holds anything of a call's texts,
  neither ngrameval's cache of reference indexes nor sacrebleu's ``lru_cache`` of tokenized lines;
- ``cycled``: the first 16 batches in turn, the same number of calls: more references than ngrameval's
  cache holds (4 sets), while sacrebleu's tokenizer cache (65,536 lines) keeps every line after the first
  round; a training loop that revisits its prompts sees this;
- ``same``: the first batch every call (every cache warm);
- ``group``: the outputs of 8 systems for one segment against its reference, a new segment each call, as a GRPO
  step scores the completions of one prompt (one reference 8 times; sacrebleu's tokenizer cache keeps it after
  the first pair).

The per-call times are the section's wall and CPU seconds divided by the calls.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from common import Corpus, Row, Section, Target, main, shared

BATCH = 8
CYCLED_BATCHES = 16
TOY = (["the cats were sitting on the mats"], ["the cat sat on the mat"])
ROUGE_TYPES = ["rouge1", "rouge2", "rougeL"]
BLEU_ENGINE = "ngrameval.bleu(sentence_level=True)"
ROUGE_ENGINE = "ngrameval.rouge(use_aggregator=False, tokenizer='rouge_score')"
CHRF_ENGINE = "ngrameval.chrf(sentence_level=True)"


def load_wmt22_de_en() -> Corpus:
    from tests.data import WMT22_SYSTEMS, wmt22_references, wmt22_system

    systems = WMT22_SYSTEMS["de-en"][:BATCH]
    reference = wmt22_references(shared, "de-en", ("A",))[0]
    return Corpus(
        f"WMT22 de-en, {systems[0]} against reference A, {len(reference)} lines in batches of {BATCH} (group: "
        f"the {BATCH} systems {', '.join(systems)} on one segment)",
        list(systems),
        [wmt22_system(shared, "de-en", system) for system in systems],
        [[line] for line in reference],
    )


def batches(corpus: Corpus, mode: str, calls: int) -> list[tuple[list[str], list[str]]]:
    """The ``calls`` batches of (predictions, references) a row scores, one per call, as the mode picks them."""
    references = [group[0] for group in corpus.references]
    if mode == "group":  # a GRPO step's completions of one prompt: BATCH systems' outputs of one segment
        return [
            ([system[segment] for system in corpus.systems], [references[segment]] * BATCH)
            for segment in (call % len(references) for call in range(calls))
        ]
    lines = list(zip(corpus.systems[0], references))
    every = [lines[start : start + BATCH] for start in range(0, len(lines) - BATCH + 1, BATCH)]
    pool = {"distinct": every, "cycled": every[:CYCLED_BATCHES], "same": every[:1]}[mode]
    chosen = [pool[call % len(pool)] for call in range(calls)]
    return [([p for p, _ in batch], [r for _, r in batch]) for batch in chosen]


def ngrameval_sentence_scores(corpus: Corpus, mode: str, calls: int, metric: str):
    """``ngrameval.bleu`` or ``ngrameval.chrf`` ``(predictions, references, sentence_level=True).sentence_scores``
    per batch."""
    import ngrameval

    work = batches(corpus, mode, calls)
    score = getattr(ngrameval, metric)
    score(*TOY, sentence_level=True)
    return lambda: [score(p, r, sentence_level=True).sentence_scores for p, r in work]


def sacrebleu_loop(corpus: Corpus, mode: str, calls: int, metric: str):
    """sacrebleu 2.6.0 ``BLEU(effective_order=True)`` or ``CHRF()``, built once: ``sentence_score`` per pair
    (scores / 100)."""
    from sacrebleu.metrics import BLEU, CHRF

    work = batches(corpus, mode, calls)
    scorer = BLEU(effective_order=True) if metric == "bleu" else CHRF()
    scorer.sentence_score(TOY[0][0], TOY[1])
    return lambda: [[scorer.sentence_score(h, [r]).score / 100 for h, r in zip(p, refs)] for p, refs in work]


def ngrameval_rouge(corpus: Corpus, mode: str, calls: int):
    """``ngrameval.rouge(predictions, references, rouge_types=[...], use_aggregator=False,
    tokenizer="rouge_score")`` per batch, F-measures per pair."""
    import ngrameval

    work = batches(corpus, mode, calls)
    options = dict(rouge_types=ROUGE_TYPES, use_aggregator=False, tokenizer="rouge_score")
    ngrameval.rouge(*TOY, **options)

    def run():
        results = [ngrameval.rouge(p, r, **options).fmeasure for p, r in work]
        return [[[f[t][i] for t in ROUGE_TYPES] for i in range(BATCH)] for f in results]

    return run


def rouge_score_loop(corpus: Corpus, mode: str, calls: int):
    """rouge-score 0.1.2 ``RougeScorer(["rouge1", "rouge2", "rougeL"]).score(reference, prediction)`` per pair."""
    from rouge_score.rouge_scorer import RougeScorer

    work = batches(corpus, mode, calls)
    scorer = RougeScorer(ROUGE_TYPES)
    scorer.score(TOY[1][0], TOY[0][0])

    def run():
        results = [[scorer.score(r, h) for h, r in zip(p, refs)] for p, refs in work]
        return [[[scores[t].fmeasure for t in ROUGE_TYPES] for scores in batch] for batch in results]

    return run


METRICS = {
    "bleu": (
        BLEU_ENGINE,
        ngrameval_sentence_scores,
        "sacrebleu BLEU(effective_order=True).sentence_score loop",
        sacrebleu_loop,
    ),
    "rouge": (ROUGE_ENGINE, ngrameval_rouge, "rouge-score RougeScorer.score loop", rouge_score_loop),
    "chrf": (CHRF_ENGINE, ngrameval_sentence_scores, "sacrebleu CHRF().sentence_score loop", sacrebleu_loop),
}
MODES = {
    "distinct": "every batch of the 1,984 lines once",
    "group": f"{BATCH} systems' outputs of one segment against its reference, a new segment each call",
    "cycled": f"the first {CYCLED_BATCHES} batches in turn",
    "same": "the first batch every call",
}


def section(metric: str, mode: str, calls: int) -> Section:
    engine, engine_factory, peer, peer_factory = METRICS[metric]
    options = {"mode": mode, "calls": calls}
    if metric != "rouge":
        options["metric"] = metric
    return Section(
        f"{metric}-{mode}",
        f"{metric}: {calls} calls of {BATCH} pairs, {MODES[mode]}",
        load_wmt22_de_en,
        [
            Row(engine, engine_factory, options),
            Row(peer, peer_factory, options, compare_to=engine),
        ],
        [Target(peer, engine, "time", 2.0)],
        calls=calls,
    )


def sections(quick: bool) -> Iterator[Section]:
    calls = 64 if quick else 248
    for metric in METRICS:
        for mode in MODES:
            yield section(metric, mode, calls)


if __name__ == "__main__":
    sys.exit(main("small batches", sections, packages=("ngrameval", "sacrebleu", "rouge-score", "numpy")))
