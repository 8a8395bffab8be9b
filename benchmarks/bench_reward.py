"""Rewards for TRL: ``ngrameval.reward`` against the reward functions users write with the peers, step by step.

    python benchmarks/bench_reward.py [--quick] [--repeats N] [--only bleu rougeL] [--profile]

A GRPO run calls its reward function once per step with the step's completions: here 64 prompts x 8
generations = 512 completions a step, each prompt's reference repeated for its 8 completions (as TRL
repeats a prompt's row). The prompts are WMT17 en-de lines and their 8 "generations" the outputs of the
first 8 WMT17 systems for that line. Every row makes one call per step, with TRL's keyword arguments,
and returns the rewards of every step; the peers' rewards are checked against ngrameval's.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from common import Corpus, Row, Section, Target, load_wmt17, main

PACKAGES = ("ngrameval", "numpy", "sacrebleu", "rouge-score", "trl")
PROMPTS_PER_STEP = 64
GENERATIONS = 8
ENGINE_BLEU = "ngrameval.reward('bleu')"
ENGINE_ROUGE = "ngrameval.reward('rouge', output='rougeL')"


def steps(corpus: Corpus) -> list[dict[str, Any]]:
    """The keyword arguments of TRL's call at each step: completions grouped by prompt, and the references
    column repeated alongside."""
    calls = []
    for start in range(0, len(corpus.references), PROMPTS_PER_STEP):
        lines = range(start, min(start + PROMPTS_PER_STEP, len(corpus.references)))
        completions = [system[line] for line in lines for system in corpus.systems]
        references = [corpus.references[line] for line in lines for _ in corpus.systems]
        calls.append(
            {
                "prompts": ["(prompt)"] * len(completions),
                "completions": completions,
                "completion_ids": [[0]] * len(completions),
                "references": references,
                "trainer_state": None,
            }
        )
    return calls


def ngrameval_reward(corpus: Corpus, metric: str, **options: Any):
    import ngrameval

    calls, reward = steps(corpus), ngrameval.reward(metric, **options)

    def run():
        return [reward(**call) for call in calls]

    return run


def sacrebleu_reward(corpus: Corpus):
    """What a TRL user writes: sacrebleu's sentence BLEU of each completion, one BLEU object reused."""
    from sacrebleu.metrics import BLEU

    calls, bleu = steps(corpus), BLEU(effective_order=True)

    def reward(completions, references, **_):
        return [bleu.sentence_score(completion, refs).score / 100 for completion, refs in zip(completions, references)]

    def run():
        return [reward(**call) for call in calls]

    return run


def rouge_score_reward(corpus: Corpus):
    """rouge-score's ROUGE-L F-measure of each completion (one reference each), one scorer reused."""
    from rouge_score import rouge_scorer

    calls, scorer = steps(corpus), rouge_scorer.RougeScorer(["rougeL"])

    def reward(completions, references, **_):
        return [
            scorer.score(refs[0], completion)["rougeL"].fmeasure for completion, refs in zip(completions, references)
        ]

    def run():
        return [reward(**call) for call in calls]

    return run


def sections(quick: bool) -> Iterator[Section]:
    lines = 10 * PROMPTS_PER_STEP if quick else 46 * PROMPTS_PER_STEP

    def load():
        corpus = load_wmt17(GENERATIONS, lines)
        steps_count = -(-lines // PROMPTS_PER_STEP)
        corpus.description += (
            f"; {steps_count} steps of {PROMPTS_PER_STEP} prompts x {GENERATIONS} generations "
            f"(the {GENERATIONS} systems)"
        )
        return corpus

    yield Section(
        "bleu",
        "Sentence BLEU reward (sacrebleu's sentence_bleu, 13a), one call per GRPO step",
        load,
        [
            Row(ENGINE_BLEU, ngrameval_reward, {"metric": "bleu"}),
            Row("sacrebleu BLEU(effective_order=True).sentence_score loop", sacrebleu_reward, compare_to=ENGINE_BLEU),
        ],
        [Target("sacrebleu BLEU(effective_order=True).sentence_score loop", ENGINE_BLEU, "time", 3)],
    )
    yield Section(
        "rougeL",
        "ROUGE-L F reward (rouge-score's tokenizer), one call per GRPO step",
        load,
        [
            Row(
                ENGINE_ROUGE,
                ngrameval_reward,
                {"metric": "rouge", "output": "rougeL", "rouge_types": ["rougeL"], "tokenizer": "rouge_score"},
            ),
            Row(
                "rouge-score RougeScorer(['rougeL']).score loop",
                rouge_score_reward,
                compare_to=ENGINE_ROUGE,
                tolerance=1e-12,
            ),
        ],
        [Target("rouge-score RougeScorer(['rougeL']).score loop", ENGINE_ROUGE, "time", 3)],
    )


if __name__ == "__main__":
    sys.exit(main("Reward", sections, packages=PACKAGES))
