"""ngrameval.reward: TRL reward functions from any registered metric.

The call shapes TRL 1.16's GRPOTrainer uses (``_calculate_rewards``: prompts, completions plain or
conversational, completion_ids, every other dataset column and TRL's own objects, all by keyword),
checked against sacrebleu's ``sentence_bleu`` and rouge-score run here and against the public metric
functions; the errors at construction and at the call; and two GRPO steps on a tiny random model and a
tokenizer built here, whose logged reward must be the mean of the metric's sentence scores of the
completions TRL generated.
"""

import pickle
import random
import subprocess
import sys

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

import ngrameval
from ngrameval.metric import metric_names, sentence_scores
from tests.data import assert_close
from tests.search import cases

WORDS = "the a cat dog sat on mat rug ran big small red".split()
TRL_OBJECTS = {"trainer_state": None, "log_extra": print, "log_metric": print}  # what TRL adds to the columns


def random_sentence(rng, low=0):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(low, 8)))


def random_rows(seed, count):
    """(completions, references column): some rows one string, some a list of strings; some empty completions."""
    rng = random.Random(seed)
    completions = [random_sentence(rng) for _ in range(count)]
    references = [
        random_sentence(rng, 1) if rng.random() < 0.5 else [random_sentence(rng, 1) for _ in range(rng.randint(1, 3))]
        for _ in range(count)
    ]
    return completions, references


def as_list(references):
    return [[row] if isinstance(row, str) else row for row in references]


def conversation(text):
    """A tool-calling conversational completion as TRL builds it: the answer is the last assistant message."""
    return [
        {"role": "assistant", "content": "", "tool_calls": [{"type": "function"}]},
        {"role": "tool", "name": "lookup", "content": "the dog"},
        {"role": "assistant", "content": text},
    ]


@pytest.mark.parametrize("seed", range(cases(3)))
def test_plain_bleu_is_sacrebleu_sentence_bleu(seed):
    completions, references = random_rows(seed, 40)
    rewards = ngrameval.reward("bleu")(
        prompts=["p"] * len(completions),
        completions=completions,
        completion_ids=[[1]] * len(completions),
        references=references,
        **TRL_OBJECTS,
    )
    peer = BLEU(effective_order=True)
    expected = [peer.sentence_score(c, refs).score / 100 for c, refs in zip(completions, as_list(references))]
    assert all(type(r) is float for r in rewards)
    assert_close(rewards, expected, what="sentence BLEU reward")


@pytest.mark.parametrize("seed", range(cases(3)))
def test_conversational_rouge_is_rouge_score(seed):
    completions, references = random_rows(100 + seed, 40)
    reward = ngrameval.reward("rouge", output="rougeL", references="answers")
    rewards = reward(
        prompts=[[{"role": "user", "content": "p"}]] * len(completions),
        completions=[conversation(c) for c in completions],
        completion_ids=[[1]] * len(completions),
        answers=references,
        **TRL_OBJECTS,
    )
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    expected = [scorer.score_multi(refs, c)["rougeL"].fmeasure for c, refs in zip(completions, as_list(references))]
    assert reward.__name__ == "rouge_rougeL"
    assert_close(rewards, expected, what="rougeL reward")


# METEOR 1.5 builds its paraphrase index once per session (20 s): the fast tests score METEOR without it.
FAST_OPTIONS = {"meteor": {"variant": "nltk"}, "coco_caption": {"metrics": ("bleu", "rouge_l", "cider")}}


@pytest.mark.parametrize("metric", metric_names())
def test_every_metric_and_output_is_its_sentence_score(metric):
    completions, references = random_rows(7, 6)
    options = FAST_OPTIONS.get(metric, {})
    expected, stats = sentence_scores(metric, completions, references, **options)
    for column, output in enumerate(stats.outputs):
        reward = ngrameval.reward(metric, output=output, **options)
        variant = [options["variant"]] if "variant" in options else []
        assert reward.__name__ == "_".join([metric] + variant + [output])
        assert reward(completions=completions, references=references) == expected[:, column].tolist()
    assert (
        ngrameval.reward(metric, **options)(completions=completions, references=references) == expected[:, 0].tolist()
    )


def test_variant_name_and_other_columns():
    completions, references = random_rows(11, 10)
    reward = ngrameval.reward("bleu", references="target", variant="nltk", smooth="method1")
    assert reward.__name__ == reward.__qualname__ == "bleu_nltk"
    rewards = reward(
        prompts=["p"] * 10,
        completions=completions,
        completion_ids=[[1]] * 10,
        target=references,
        references=["not these"] * 10,
        difficulty=list(range(10)),
        **TRL_OBJECTS,
    )
    assert (
        rewards
        == ngrameval.bleu(
            completions, references, variant="nltk", smooth="method1", sentence_level=True
        ).sentence_scores
    )
    renamed = ngrameval.reward("bleu", name="my_bleu")
    assert renamed.__name__ == renamed.__qualname__ == "my_bleu"


def test_pickled_reward_scores_the_same():
    completions, references = random_rows(12, 10)
    reward = ngrameval.reward("rouge", output="rouge2", use_stemmer=True)
    copy = pickle.loads(pickle.dumps(reward))
    assert copy.__name__ == "rouge_rouge2"
    assert copy(completions=completions, references=references) == reward(
        completions=completions, references=references
    )


@pytest.mark.parametrize(
    "arguments, options, message",
    [
        (("blue",), {}, "unknown metric 'blue'"),
        (("bleu",), {"smoth": "exp"}, "unknown options for bleu: smoth"),
        (("bleu",), {"sentence_level": True}, "unknown options for bleu: sentence_level"),
        (("bleu",), {"variant": "sacrebleux"}, "sacrebleux"),
        (("chrf",), {"char_order": 0}, "char_order"),
        (("rouge",), {"output": "rougeX"}, "rouge gives no output 'rougeX'; its outputs with these options: rouge1, "),
        (("rouge",), {"output": "rouge1", "rouge_types": ["rouge2"]}, "no output 'rouge1'"),
        (("bleu", ["references"]), {}, "references must name a dataset column"),
        (("bleu",), {"name": ""}, "name must be a non-empty string"),
        (("bleu",), {"ids": 1}, "ids must be True or False"),
        (("bleu",), {"drop_ids": [2]}, "only ids=True scores"),
        (("bleu",), {"ids": True, "drop_ids": ["</s>"]}, "drop_ids must be token ids"),
        (("bleu",), {"ids": True, "drop_ids": 2}, "drop_ids must be a list or set of token ids, got int"),
        (
            ("chrf",),
            {"ids": True},
            "ids=True: chrf does not score token ids with these options (chrf counts characters",
        ),
        (("ter",), {"ids": True}, "ids=True: ter does not score token ids with these options"),
        (("meteor",), {"ids": True}, "ids=True: meteor does not score token ids with these options"),
    ],
)
def test_mistakes_fail_at_construction(arguments, options, message):
    with pytest.raises(ValueError) as error:
        ngrameval.reward(*arguments, **options)
    assert message in str(error.value)


def test_missing_column_names_it_and_the_columns():
    reward = ngrameval.reward("bleu", references="reference")
    with pytest.raises(ValueError) as error:
        reward(
            prompts=["p"],
            completions=["a cat"],
            completion_ids=[[1]],
            references=["a cat"],
            solution=["x"],
            environments=[None],
            **TRL_OBJECTS,
        )
    assert "no column 'reference' among the dataset's columns (references, solution)" in str(error.value)


@pytest.mark.parametrize(
    "completion, message",
    [
        (
            [{"role": "user", "content": "a cat"}],
            "completions[1]: a conversational completion needs an assistant message",
        ),
        ([{"role": "assistant", "content": [{"type": "text", "text": "a"}]}], "content must be a string, got list"),
        (7, "completions[1]: a completion must be a string or a list of messages, got int"),
    ],
)
def test_bad_completions(completion, message):
    with pytest.raises(ValueError) as error:
        ngrameval.reward("bleu")(completions=["a cat", completion], references=["a cat", "a cat"])
    assert message in str(error.value)


def test_a_non_finite_score_is_an_error(monkeypatch):
    """No metric gives NaN on any input we know of; should one, the reward refuses it rather than train on it."""
    import numpy as np

    import ngrameval.training.reward as module

    def nan_scores(metric, predictions, references, **options):
        scores, stats = sentence_scores(metric, predictions, references, **options)
        return np.full_like(scores, np.nan), stats

    reward = ngrameval.reward("bleu")
    monkeypatch.setattr(module, "sentence_scores", nan_scores)
    with pytest.raises(ValueError, match=r"completions\[0\] scored nan"):
        reward(completions=["a cat"], references=["a cat"])


def test_import_ngrameval_leaves_training_libraries_alone():
    """ngrameval.reward is exported, and importing ngrameval imports none of the libraries it serves."""
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import sys, ngrameval; assert callable(ngrameval.reward); "
                "print(sorted({'torch', 'trl', 'transformers'} & set(sys.modules)))"
            ),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert loaded.strip() == "[]"


@pytest.mark.parametrize("metric", ["bleu", "nist", "gleu", "rouge", "cider"])
def test_ids_score_completion_ids(metric):
    rng = random.Random(5)
    completion_ids = [[rng.randint(3, 9) for _ in range(rng.randint(1, 8))] + [2] for _ in range(20)]
    references = [
        [[rng.randint(3, 9) for _ in range(rng.randint(1, 8))] for _ in range(rng.randint(1, 2))] for _ in range(20)
    ]
    reward = ngrameval.reward(metric, ids=True, drop_ids=[2])
    rewards = reward(
        prompts=["p"] * 20,
        completions=["ignored"] * 20,
        completion_ids=completion_ids,
        references=references,
        **TRL_OBJECTS,
    )
    expected, _ = sentence_scores(metric, [ids[:-1] for ids in completion_ids], references)
    assert rewards == expected[:, 0].tolist()
    with pytest.raises(ValueError, match="scores token ids .ids=True. but was given no completion_ids"):
        reward(completions=["a"], references=[[[3]]])


# --------------------------------------------------------------------------- GRPO


def tiny_policy():
    """A word-level tokenizer over WORDS and a one-layer Llama of random weights over its vocabulary."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    vocabulary = {word: i for i, word in enumerate(["<pad>", "<eos>", "<unk>"] + WORDS)}
    words = Tokenizer(models.WordLevel(vocabulary, unk_token="<unk>"))
    words.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=words, pad_token="<pad>", eos_token="<eos>", unk_token="<unk>")
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(vocabulary),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=64,
        pad_token_id=vocabulary["<pad>"],
        eos_token_id=vocabulary["<eos>"],
        bos_token_id=None,
    )
    return LlamaForCausalLM(config), tokenizer


@pytest.mark.slow
@pytest.mark.parametrize("form", ["plain", "conversational", "ids"])
def test_grpo_logs_the_mean_sentence_score(tmp_path, form):
    import datasets
    import trl

    model, tokenizer = tiny_policy()
    prompts = ["the cat", "a dog", "the mat", "a rug"]
    references = [["the cat sat on the mat"], ["a dog ran"], ["the red mat"], ["a big rug", "a small rug"]]
    options = {}
    if form == "conversational":
        tokenizer.chat_template = "{% for message in messages %}{{ message['content'] }} {% endfor %}"
        prompts = [[{"role": "user", "content": prompt}] for prompt in prompts]
    if form == "ids":
        references = [[tokenizer(text, add_special_tokens=False)["input_ids"] for text in row] for row in references]
        options = {"ids": True, "drop_ids": [tokenizer.eos_token_id]}
    dataset = datasets.Dataset.from_dict({"prompt": prompts, "references": references})
    seen = []

    def recorder(completions, completion_ids, references, **_):
        """Records what TRL scored at each step (weight 0: no part of the training reward)."""
        seen.append((completions, completion_ids, references))
        return [0.0] * len(completions)

    rewards = [ngrameval.reward("bleu", **options), ngrameval.reward("rouge", output="rougeL", **options), recorder]
    config = trl.GRPOConfig(
        output_dir=str(tmp_path),
        max_steps=2,
        per_device_train_batch_size=4,
        num_generations=2,
        max_completion_length=8,
        report_to=[],
        use_cpu=True,
        logging_steps=1,
        save_strategy="no",
        seed=0,
        reward_weights=[1.0, 1.0, 0.0],
    )
    trainer = trl.GRPOTrainer(
        model=model, reward_funcs=rewards, args=config, train_dataset=dataset, processing_class=tokenizer
    )
    trainer.train()
    logged = [entry for entry in trainer.state.log_history if "rewards/bleu/mean" in entry]
    assert len(logged) == len(seen) == 2
    peer = BLEU(effective_order=True)
    for entry, (completions, completion_ids, references) in zip(logged, seen):
        if form == "conversational":
            completions = [completion[-1]["content"] for completion in completions]
        if form == "ids":
            eos = tokenizer.eos_token_id
            predictions = [[token for token in ids if token != eos] for ids in completion_ids]
        else:
            predictions = completions
            assert_close(
                ngrameval.bleu(predictions, references, sentence_level=True).sentence_scores,
                [peer.sentence_score(c, refs).score / 100 for c, refs in zip(completions, references)],
            )
        assert len(predictions) == 4 and any(predictions)
        bleu = ngrameval.bleu(predictions, references, sentence_level=True).sentence_scores
        rouge = ngrameval.rouge(predictions, references, use_aggregator=False).fmeasure["rougeL"]
        # TRL holds rewards as float32 and averages them so.
        assert entry["rewards/bleu/mean"] == pytest.approx(sum(bleu) / len(bleu), rel=1e-6)
        assert entry["rewards/rouge_rougeL/mean"] == pytest.approx(sum(rouge) / len(rouge), rel=1e-6)
