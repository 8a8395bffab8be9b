"""Per-sentence BLEU and ROUGE on token-id tensors (RL rewards): ngrameval's torch path against TensorBLEU,
NLTK and rouge-score.

    python benchmarks/bench_torch_path.py [--quick] [--repeats N] [--only bleu-cpu rouge-cpu ...] [--profile]

Data: seeded candidates of Zipf-distributed ids (s = 1.1 over a 32,000-id vocabulary, 1..32000; 0 is the
padding), one reference each: a noisy copy of its candidate (20% of the ids redrawn, 5% dropped, padded at
the end). BLEU: 256 candidates x 1024 ids (64 x 512 with --quick); ROUGE-1/2/L: 64 x 512 (32 x 256), since
rouge-score's LCS is a Python double loop. Every torch row runs with ``torch.set_num_threads(TORCH_THREADS)``
and is called once on the first 8 candidates before the timing (torch's one-time set-up, CUDA's context and
kernels). On CUDA, the run ends with ``torch.cuda.synchronize()``. The CUDA sections run only where
``torch.cuda.is_available()``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from types import SimpleNamespace

from common import SEED, Row, Section, Target, main

TORCH_THREADS = 1
VOCABULARY = 32_000
ZIPF_EXPONENT = 1.1
PAD = 0
ROUGE_TYPES = ["rouge1", "rouge2", "rougeL"]
PACKAGES = ("ngrameval", "torch", "rxlm", "nltk", "rouge-score", "numpy")
ENGINE = "ngrameval torch_sentence_bleu"
ROUGE_ENGINE = "ngrameval torch_sentence_rouge"
FLOAT32_TOLERANCE = 1e-6


def load_ids(size: int, length: int) -> SimpleNamespace:
    """``size`` candidates of ``length`` Zipf ids and their noisy copies, as (size, length) int64 arrays."""
    import numpy as np

    rng = np.random.default_rng(SEED)
    ranks = np.arange(1, VOCABULARY + 1)
    probabilities = ranks**-ZIPF_EXPONENT / (ranks**-ZIPF_EXPONENT).sum()
    candidates = rng.choice(ranks, size=(size, length), p=probabilities)
    redrawn = rng.random((size, length)) < 0.2
    noisy = np.where(redrawn, rng.choice(ranks, size=(size, length), p=probabilities), candidates)
    kept = rng.random((size, length)) >= 0.05
    references = np.full((size, length), PAD)
    for i in range(size):
        row = noisy[i][kept[i]]
        references[i, : len(row)] = row
    return SimpleNamespace(
        description=f"{size} candidates x {length} Zipf ids (s={ZIPF_EXPONENT}, vocabulary "
        f"{VOCABULARY}), 1 reference each (a noisy copy), seed {SEED}",
        candidates=candidates,
        references=references,
    )


# --------------------------------------------------------------------------- rows (run in a fresh process)


def _tensors(corpus: SimpleNamespace, device: str):
    import torch

    torch.set_num_threads(TORCH_THREADS)
    return torch.as_tensor(corpus.candidates, device=device), torch.as_tensor(corpus.references, device=device)


def _timed(function, device: str):
    """``function`` warmed up on a slice by the caller; the run synchronizes CUDA before it returns."""
    import torch

    def run():
        result = function()
        if device == "cuda":
            torch.cuda.synchronize()
        return result

    return run


def ngrameval_torch_bleu(corpus: SimpleNamespace, device: str = "cpu"):
    """``torch_sentence_bleu`` (sacrebleu's rule: exp smoothing, effective order) on the padded tensors."""
    from ngrameval import torch_sentence_bleu

    candidates, references = _tensors(corpus, device)
    torch_sentence_bleu(candidates[:8], references[:8], pad_id=PAD)
    return _timed(lambda: torch_sentence_bleu(candidates, references, pad_id=PAD), device)


def tensorbleu_bleu(corpus: SimpleNamespace, device: str = "cpu"):
    """rxlm's TensorBLEU ``tensor_sentence_bleu`` (exp smoothing: a 1e-12 floor; float32) on the same tensors."""
    from rxlm.metrics.tensorbleu import tensor_sentence_bleu

    candidates, references = _tensors(corpus, device)
    references = references[:, None, :]
    tensor_sentence_bleu(candidates[:8], references[:8], pad_token_id=PAD)
    return _timed(lambda: tensor_sentence_bleu(candidates, references, pad_token_id=PAD), device)


def nltk_bleu_loop(corpus: SimpleNamespace):
    """NLTK's ``sentence_bleu`` (method0) once per candidate, on lists of ids."""
    from nltk.translate.bleu_score import sentence_bleu

    candidates = [[x for x in row if x != PAD] for row in corpus.candidates.tolist()]
    references = [[[x for x in row if x != PAD]] for row in corpus.references.tolist()]
    return lambda: [sentence_bleu(refs, hyp) for hyp, refs in zip(candidates, references)]


def ngrameval_numpy_bleu(corpus: SimpleNamespace):
    """``ngrameval.bleu(..., sentence_level=True)`` on the ids written as decimal tokens (pre-tokenized lists)."""
    import ngrameval

    candidates = [[str(x) for x in row if x != PAD] for row in corpus.candidates.tolist()]
    references = [[[str(x) for x in row if x != PAD]] for row in corpus.references.tolist()]
    return lambda: ngrameval.bleu(candidates, references, sentence_level=True).sentence_scores


def ngrameval_torch_rouge(corpus: SimpleNamespace, device: str = "cpu"):
    """``torch_sentence_rouge`` for ROUGE-1/2/L, stacked as (types, B, 3)."""
    import torch

    from ngrameval import torch_sentence_rouge

    candidates, references = _tensors(corpus, device)
    torch_sentence_rouge(candidates[:8], references[:8], pad_id=PAD, rouge_types=ROUGE_TYPES)

    def scores():
        result = torch_sentence_rouge(candidates, references, pad_id=PAD, rouge_types=ROUGE_TYPES)
        return torch.stack([result[t] for t in ROUGE_TYPES])

    return _timed(scores, device)


def rouge_score_loop(corpus: SimpleNamespace):
    """rouge-score's ``RougeScorer.score`` once per pair, on the ids written as decimal strings."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(ROUGE_TYPES)
    pairs = [
        (" ".join(str(x) for x in ref if x != PAD), " ".join(str(x) for x in hyp if x != PAD))
        for hyp, ref in zip(corpus.candidates.tolist(), corpus.references.tolist())
    ]

    def run():
        results = [scorer.score(target, prediction) for target, prediction in pairs]
        return [[list(result[t]) for result in results] for t in ROUGE_TYPES]

    return run


# --------------------------------------------------------------------------- sections


def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def sections(quick: bool) -> Iterator[Section]:
    bleu_shape = (64, 512) if quick else (256, 1024)
    rouge_shape = (32, 256) if quick else (64, 512)
    threads = f"torch threads: {TORCH_THREADS} in every torch row (torch.set_num_threads)."
    yield Section(
        "bleu-cpu",
        "1. Sentence BLEU of token-id tensors on CPU",
        lambda: load_ids(*bleu_shape),
        [
            Row(ENGINE, ngrameval_torch_bleu),
            Row(
                "TensorBLEU tensor_sentence_bleu",
                tensorbleu_bleu,
                compare_to=ENGINE,
                tolerance=FLOAT32_TOLERANCE,
                note="float32",
            ),
            Row("NLTK sentence_bleu loop", nltk_bleu_loop, compare_to=ENGINE),
            Row("ngrameval.bleu (numpy, decimal tokens)", ngrameval_numpy_bleu, compare_to=ENGINE),
        ],
        [Target("TensorBLEU tensor_sentence_bleu", ENGINE, "time", 1)],
        [
            threads,
            (
                "Every sentence has n-grams and matches of every order, so no smoothing applies: sacrebleu's rule, "
                "NLTK's method0 and TensorBLEU agree (TensorBLEU to float32 precision)."
            ),
            "NLTK and the numpy path take Python lists of ids / decimal tokens, built before the timing.",
        ],
    )
    yield Section(
        "rouge-cpu",
        "2. Sentence ROUGE-1/2/L of token-id tensors on CPU",
        lambda: load_ids(*rouge_shape),
        [
            Row(ROUGE_ENGINE, ngrameval_torch_rouge),
            Row("rouge-score loop", rouge_score_loop, compare_to=ROUGE_ENGINE, tolerance=1e-12),
        ],
        notes=[threads, "rouge-score scores the ids written as decimal strings, prepared before the timing."],
    )
    if _cuda():
        yield Section(
            "bleu-cuda",
            "3. Sentence BLEU of token-id tensors on CUDA",
            lambda: load_ids(*bleu_shape),
            [
                Row(ENGINE, ngrameval_torch_bleu, {"device": "cuda"}),
                Row(
                    "TensorBLEU tensor_sentence_bleu",
                    tensorbleu_bleu,
                    {"device": "cuda"},
                    compare_to=ENGINE,
                    tolerance=FLOAT32_TOLERANCE,
                    note="float32",
                ),
            ],
            notes=["Both warmed up on 8 candidates; the timing ends with torch.cuda.synchronize()."],
        )
        yield Section(
            "rouge-cuda",
            "4. Sentence ROUGE-1/2/L on CUDA",
            lambda: load_ids(*bleu_shape),
            [
                Row(ROUGE_ENGINE, ngrameval_torch_rouge, {"device": "cuda"}),
                Row(f"{ROUGE_ENGINE} on CPU", ngrameval_torch_rouge, compare_to=ROUGE_ENGINE, tolerance=1e-12),
            ],
            notes=["The BLEU data (256 x 1024): CPU and CUDA give the same scores."],
        )


if __name__ == "__main__":
    sys.exit(main("torch path", sections, packages=PACKAGES))
