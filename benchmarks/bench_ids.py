"""Sentence BLEU on token ids (ngrameval issue #26): ngrameval on ids against NLTK's ``sentence_bleu`` loop on the
same id lists and sacrebleu's ``sentence_bleu`` loop on the ids joined as strings (``tokenize="none"``).

    python benchmarks/bench_ids.py [--quick] [--repeats N] [--profile]

A batch as an RL fine-tuning step or a decoder gives it: 256 candidates x 1024 ids, drawn from a Zipf-like
distribution over a 32k vocabulary, one reference each, a noisy copy of its candidate (so that long n-grams
match). ngrameval takes the batch as a 2-D int64 numpy array and as lists of ints; its scores are checked
against each peer's (1e-9). One thread: nothing here starts threads.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import SimpleNamespace

import numpy as np
from common import SEED, Row, Section, Target, main

VOCABULARY = 32_000
# Every ngrameval row makes one untimed call on this toy batch first (its modules load on first use; the peers'
# factories import their functions before the timing too).
TOY_IDS = [[1, 2, 3, 4]]


# The data of a section: ``description``, ``candidates`` and ``references`` (one each), (N, L) int64 arrays (a
# SimpleNamespace: the worker process unpickles it without this script's module).
IdBatch = SimpleNamespace


def id_batch(count: int = 256, length: int = 1024, noise: float = 0.2, seed: int = SEED) -> IdBatch:
    """Ids of rank k drawn with probability proportional to 1 / (k + 2.7) (Zipf-Mandelbrot, as word
    frequencies run); each reference is its candidate with a fraction ``noise`` of the ids redrawn."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / (np.arange(VOCABULARY) + 2.7)
    probabilities = weights / weights.sum()
    candidates = rng.choice(VOCABULARY, size=(count, length), p=probabilities).astype(np.int64)
    references = candidates.copy()
    redrawn = rng.random(references.shape) < noise
    references[redrawn] = rng.choice(VOCABULARY, size=int(redrawn.sum()), p=probabilities)
    return IdBatch(
        description=f"{count} candidates x {length} ids (Zipf over {VOCABULARY} ids), one reference "
        f"each: the candidate with {noise:.0%} of its ids redrawn (seed {seed})",
        candidates=candidates,
        references=references,
    )


# --------------------------------------------------------------------------- rows (run in a fresh process)


def ngrameval_ids(batch: IdBatch, lists: bool = False, **options):
    """``ngrameval.bleu(..., sentence_level=True)`` on the ids: the 2-D arrays, or lists of ints."""
    import ngrameval

    candidates, references = (
        (batch.candidates.tolist(), batch.references.tolist()) if lists else (batch.candidates, batch.references)
    )
    bleu = ngrameval.bleu  # (imported here, as the peers' functions are: the first call is no import)
    bleu(TOY_IDS, TOY_IDS, sentence_level=True, **options)
    return lambda: bleu(candidates, references, sentence_level=True, **options).sentence_scores


def ngrameval_strings(batch: IdBatch, **options):
    """ngrameval on the ids joined as strings (the path before token ids were accepted)."""
    import ngrameval

    candidates, references = joined(batch.candidates), joined(batch.references)
    bleu = ngrameval.bleu
    bleu(joined(np.array(TOY_IDS)), joined(np.array(TOY_IDS)), tokenize="none", sentence_level=True, **options)
    return lambda: bleu(candidates, references, tokenize="none", sentence_level=True, **options).sentence_scores


def nltk_sentence_bleu(batch: IdBatch):
    """NLTK's ``sentence_bleu`` for every candidate, on lists of ints (NLTK takes any hashable token)."""
    from nltk.translate.bleu_score import sentence_bleu

    candidates, references = batch.candidates.tolist(), batch.references.tolist()
    return lambda: [sentence_bleu([reference], candidate) for candidate, reference in zip(candidates, references)]


def sacrebleu_sentence_bleu(batch: IdBatch):
    """sacrebleu's ``sentence_bleu`` for every candidate, on the ids joined by spaces (tokenize="none")."""
    import sacrebleu

    candidates, references = joined(batch.candidates), joined(batch.references)
    return lambda: [
        sacrebleu.sentence_bleu(candidate, [reference], tokenize="none").score / 100
        for candidate, reference in zip(candidates, references)
    ]


def joined(ids: np.ndarray):
    return [" ".join(map(str, row)) for row in ids.tolist()]


# --------------------------------------------------------------------------- sections

ENGINE_NLTK = "ngrameval.bleu variant=nltk, 2-D int64 array"
ENGINE_NLTK_LISTS = "ngrameval.bleu variant=nltk, lists of ints"
ENGINE_NLTK_STRINGS = "ngrameval.bleu variant=nltk, ids joined as strings"
ENGINE_SACREBLEU = "ngrameval.bleu (sacrebleu rule), 2-D int64 array"
ENGINE_SACREBLEU_LISTS = "ngrameval.bleu (sacrebleu rule), lists of ints"
NLTK = "nltk sentence_bleu loop"
SACREBLEU = "sacrebleu.sentence_bleu loop, tokenize=none"


def sections(quick: bool) -> Iterator[Section]:
    def batch() -> IdBatch:
        return id_batch(64 if quick else 256)

    yield Section(
        "ids-nltk",
        "1. Sentence BLEU on token ids: NLTK's rule (no smoothing)",
        batch,
        [
            Row(ENGINE_NLTK, ngrameval_ids, {"variant": "nltk"}),
            Row(ENGINE_NLTK_LISTS, ngrameval_ids, {"lists": True, "variant": "nltk"}),
            Row(ENGINE_NLTK_STRINGS, ngrameval_strings, {"variant": "nltk"}),
            Row(NLTK, nltk_sentence_bleu, compare_to=ENGINE_NLTK),
            Row(NLTK + " ", nltk_sentence_bleu, compare_to=ENGINE_NLTK_LISTS, note="the same, against the lists"),
        ],
        [Target(NLTK, ENGINE_NLTK, "time", 10), Target(NLTK + " ", ENGINE_NLTK_LISTS, "time", 10)],
        [
            "Issue 26's goal: 10x NLTK's loop in CPU time, the batch given as a 2-D array and as lists.",
            "The strings row is the path before ids were accepted (ids joined by spaces, then split), for comparison.",
        ],
    )
    yield Section(
        "ids-sacrebleu",
        "2. Sentence BLEU on token ids: sacrebleu's rule (exp smoothing, effective order)",
        batch,
        [
            Row(ENGINE_SACREBLEU, ngrameval_ids),
            Row(ENGINE_SACREBLEU_LISTS, ngrameval_ids, {"lists": True}),
            Row(SACREBLEU, sacrebleu_sentence_bleu, compare_to=ENGINE_SACREBLEU),
            Row(
                SACREBLEU + " ",
                sacrebleu_sentence_bleu,
                compare_to=ENGINE_SACREBLEU_LISTS,
                note="the same, against the lists",
            ),
        ],
        [Target(SACREBLEU, ENGINE_SACREBLEU, "time", 5), Target(SACREBLEU + " ", ENGINE_SACREBLEU_LISTS, "time", 5)],
        [
            (
                "Issue 26's goal: 5x sacrebleu's loop in CPU time. sacrebleu gets the ids as strings joined by spaces "
                "(made beforehand, untimed) and splits them (tokenize='none')."
            )
        ],
    )


if __name__ == "__main__":
    sys.exit(main("token ids", sections, packages=("ngrameval", "sacrebleu", "nltk", "numpy")))
