"""ROUGE: ngrameval against rouge-score 0.1.2 on REALSumm, both in this one process.

    NGRAMEVAL_SHARED=../shared python benchmarks/bench_rouge.py [--types rouge1 rouge2 rougeL rougeLsum] [--no-stem]

Every system output of REALSumm's ``selected_docs_for_human_eval`` (35 outputs x 100 documents)
against its own reference, one sentence per line. rouge-score's ``RougeScorer.score`` runs once
per pair, as its users run it; ngrameval scores all pairs in one call with
``tokenizer="rouge_score"`` (rouge-score's tokens, also on non-ASCII text), first cold (nothing
cached: the stemmer meets every word for the first time) and then warm (the same references
again: tokens, stems and the reference index cached). Times are CPU seconds
(``time.process_time``); the scores must agree to 1e-12.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.data import realsumm  # noqa: E402

MEASURES = ("precision", "recall", "fmeasure")


def shared(relative: str) -> Path:
    path = Path(os.environ.get("NGRAMEVAL_SHARED") or ROOT.parent / "shared") / relative
    if not path.exists():
        raise SystemExit(f"{path} is missing: set NGRAMEVAL_SHARED to the shared/ directory")
    return path


def cpu(function):
    start = time.process_time()
    result = function()
    return result, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", nargs="+", default=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    parser.add_argument("--no-stem", action="store_true", help="without the Porter stemmer")
    args = parser.parse_args()
    stem = not args.no_stem
    _, predictions, references = realsumm(shared)

    import ngrameval
    from rouge_score import rouge_scorer

    ours, cold = cpu(lambda: ngrameval.rouge(predictions, references, args.types, use_stemmer=stem,
                                             tokenizer="rouge_score", use_aggregator=False))
    _, warm = cpu(lambda: ngrameval.rouge(predictions, references, args.types, use_stemmer=stem,
                                          tokenizer="rouge_score", use_aggregator=False))
    scorer = rouge_scorer.RougeScorer(args.types, use_stemmer=stem)
    peer, peer_time = cpu(lambda: [scorer.score(r, p) for p, r in zip(predictions, references)])
    expected = np.array([[[getattr(s[t], m) for m in MEASURES] for s in peer] for t in args.types])
    difference = np.abs(ours.scores - expected).max(axis=(1, 2))
    print(f"REALSumm, {len(predictions)} pairs, types {' '.join(args.types)}, stemmer {'on' if stem else 'off'}")
    print("max |ngrameval - rouge-score| per type: " +
          ", ".join(f"{t} {d:.1e}" for t, d in zip(args.types, difference)))
    print(f"rouge-score 0.1.2: {peer_time:.2f} s CPU")
    print(f"ngrameval cold:    {cold:.3f} s CPU ({peer_time / cold:.1f}x)")
    print(f"ngrameval warm:    {warm:.3f} s CPU ({peer_time / warm:.1f}x)")
    return 0 if difference.max() <= 1e-12 else 1


if __name__ == "__main__":
    sys.exit(main())
