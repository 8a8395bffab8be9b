"""Pairwise matrices for MBR decoding: ngrameval.pairwise / aggregate_chrf against fastChrF 0.2.1, and the BLEU
and TER fast paths against a loop of sacrebleu 2.6.0 sentence scores (for information).

    python benchmarks/bench_pairwise.py [--quick] [--repeats N] [--only pairwise-chrf ...] [--profile]

Data (:func:`mbr_candidates`): WMT22 en-de generaltest2022, the first source segments whose reference A
has 60 to 300 characters; per segment the outputs of its 9 systems and its 2 references (11 real,
near-duplicate translations), completed to 256 candidates by light perturbations of them (seeded): a
random one of the 11, each word dropped with probability 0.1 (never all), then adjacent words swapped with
probability 0.05. The candidates are their own pseudo-references (N = M = 256), as in MBR decoding.

Threads: fastChrF runs its Rust loops in rayon's thread pool (over the sources for ``pairwise_chrf``, over
the hypotheses for ``aggregate_chrf``), ngrameval's matrix products in OpenBLAS's. Both are held to one
thread here (``RAYON_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` set
to 1 by ``common.hold_to_one_thread``; the measuring processes inherit them): the same thread count.

chrF rows return scores on fastChrF's 0-100 scale (ngrameval's [0, 1] times 100, in the timed call);
fastChrF 0.2.1 computes in float64, as sacrebleu does: the scores are checked to 1e-9.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from common import SEED, Corpus, Row, Section, Target, hold_to_one_thread, main, shared

hold_to_one_thread()

PAIR = "en-de"
SYSTEMS = (
    "JDExploreAcademy",
    "Lan-Bridge",
    "Online-A",
    "Online-B",
    "Online-G",
    "Online-W",
    "Online-Y",
    "OpenNMT",
    "PROMT",
)


def mbr_candidates(sources: int, candidates: int, seed: int = SEED) -> Corpus:
    """``sources`` WMT22 en-de segments with ``candidates`` candidates each (see the module's docstring)."""
    import numpy as np

    root = shared("data/wmt22-news-systems/txt")
    read = lambda path: path.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    outputs = [read(root / f"system-outputs/generaltest2022.{PAIR}.hyp.{system}.de") for system in SYSTEMS]
    references = [read(root / f"references/generaltest2022.{PAIR}.ref.{label}.de") for label in "AB"]
    chosen = [i for i, line in enumerate(references[0]) if 60 <= len(line) <= 300][:sources]
    rng = np.random.default_rng(seed)
    lists: list[list[str]] = []
    for i in chosen:
        real = [stream[i] for stream in outputs + references]
        items = list(real)
        while len(items) < candidates:
            words = real[rng.integers(len(real))].split()
            kept = [w for w in words if rng.random() >= 0.1] or words[:1]
            for k in range(len(kept) - 1):
                if rng.random() < 0.05:
                    kept[k], kept[k + 1] = kept[k + 1], kept[k]
            items.append(" ".join(kept))
        lists.append(items[:candidates])
    return Corpus(
        f"WMT22 {PAIR}: {len(lists)} sources x {candidates} candidates (9 systems, 2 references, "
        f"perturbed copies; seed {seed}), the candidates as pseudo-references",
        [str(i + 1) for i in chosen],
        lists,
        lists,
    )


# --------------------------------------------------------------------------- rows (run in a fresh process)


def ngrameval_pairwise(corpus: Corpus, metric: str = "chrf", scale: float = 1.0, **options):
    """``ngrameval.pairwise(metric, candidates)`` of the batch (one matrix per source), stacked."""
    import numpy as np

    from ngrameval.training.pairwise import pairwise

    return lambda: scale * np.stack(pairwise(metric, corpus.systems, **options))


def ngrameval_aggregate_chrf(corpus: Corpus):
    """``ngrameval.aggregate_chrf(candidates)`` of the batch, on the 0-100 scale."""
    import numpy as np

    from ngrameval.training.pairwise import aggregate_chrf

    return lambda: 100 * np.stack(aggregate_chrf(corpus.systems))


def fastchrf_pairwise(corpus: Corpus):
    """fastChrF 0.2.1 ``pairwise_chrf(candidates, candidates)`` of the batch."""
    from fastchrf import pairwise_chrf

    return lambda: pairwise_chrf(corpus.systems, corpus.systems)


def fastchrf_aggregate(corpus: Corpus):
    """fastChrF 0.2.1 ``aggregate_chrf(candidates, candidates)`` of the batch."""
    from fastchrf import aggregate_chrf

    return lambda: aggregate_chrf(corpus.systems, corpus.systems)


def sacrebleu_sentence_loop(corpus: Corpus, metric: str = "bleu"):
    """One sacrebleu ``BLEU(effective_order=True)`` (sentence_bleu's) or ``TER()`` object, ``sentence_score``
    of every (candidate, candidate) pair of every source, / 100."""
    from sacrebleu.metrics import BLEU, TER

    scorer = BLEU(effective_order=True) if metric == "bleu" else TER()
    return lambda: [
        [[scorer.sentence_score(h, [r]).score / 100 for r in candidates] for h in candidates]
        for candidates in corpus.systems
    ]


# --------------------------------------------------------------------------- sections

CHRF = "ngrameval.pairwise chrf"
AGGREGATE = "ngrameval.aggregate_chrf"


def sections(quick: bool) -> Iterator[Section]:
    sources, candidates = (2, 128) if quick else (8, 256)
    load = lambda: mbr_candidates(sources, candidates)  # noqa: E731
    yield Section(
        "pairwise-chrf",
        f"pairwise chrF, {sources} sources x {candidates} x {candidates}",
        load,
        [
            Row(CHRF, ngrameval_pairwise, {"scale": 100.0}),
            Row("fastchrf pairwise_chrf", fastchrf_pairwise, compare_to=CHRF, tolerance=1e-9),
            Row(
                "ngrameval.pairwise chrf generic=True",
                ngrameval_pairwise,
                {"scale": 100.0, "generic": True},
                compare_to=CHRF,
                tolerance=0.0,
                note="every pair a segment of one chrf call",
            ),
        ],
        [Target("fastchrf pairwise_chrf", CHRF, "time", 1)],
    )
    yield Section(
        "aggregate-chrf",
        f"chrF with reference aggregation, {sources} sources x {candidates}",
        load,
        [
            Row(AGGREGATE, ngrameval_aggregate_chrf),
            Row("fastchrf aggregate_chrf", fastchrf_aggregate, compare_to=AGGREGATE, tolerance=1e-9),
        ],
        [Target("fastchrf aggregate_chrf", AGGREGATE, "time", 1)],
    )
    # sacrebleu's loop takes about a millisecond a pair: fewer pairs, for information.
    small = lambda: mbr_candidates(1 if quick else 2, 32 if quick else 64)  # noqa: E731
    for metric in ("bleu", "ter"):
        engine = f"ngrameval.pairwise {metric}"
        yield Section(
            f"pairwise-{metric}",
            f"pairwise {metric.upper()} against a sacrebleu loop (information)",
            small,
            [
                Row(engine, ngrameval_pairwise, {"metric": metric}),
                Row(
                    f"sacrebleu sentence_score loop ({metric})",
                    sacrebleu_sentence_loop,
                    {"metric": metric},
                    compare_to=engine,
                    tolerance=1e-12,
                ),
            ],
        )


if __name__ == "__main__":
    sys.exit(main("pairwise matrices for MBR", sections, packages=("ngrameval", "sacrebleu", "fastchrf", "numpy")))
