"""Any registered metric as a reward function for TRL's trainers (``trl.GRPOTrainer(reward_funcs=...)``).

TRL calls a reward function with keyword arguments only: ``prompts``, ``completions`` (strings, or lists of
messages), ``completion_ids``, every other column of the dataset (one value per completion) and a few objects
of its own; it wants one float per completion and logs the function by ``__name__``. :func:`reward` builds one:
each completion's sentence score (:func:`ngrameval.metric.sentence_scores`) against its row's references.

>>> bleu_reward = reward("bleu")
>>> bleu_reward.__name__
'bleu'
>>> rewards = bleu_reward(prompts=["Translate: le chat"], completions=["the cat sat on the mat"],
...                       completion_ids=[[4, 5, 6]], references=[["the cat sat on a mat"]], trainer_state=None)
>>> import ngrameval
>>> rewards == ngrameval.bleu(["the cat sat on the mat"], [["the cat sat on a mat"]],
...                          sentence_level=True).sentence_scores
True
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import InitVar, dataclass
from typing import Any

from ngrameval.engine.inputs import check_flag
from ngrameval.errors import InputError
from ngrameval.metric import get_family, sentence_scores

# The keyword arguments of TRL's call besides completions, completion_ids and the dataset's columns.
_TRL_ARGUMENTS = ("prompts", "trainer_state", "log_extra", "log_metric", "environments")


def completion_text(completion: Any, index: int) -> str:
    """The text of one completion as TRL passes it: a string, or a conversation (a list of messages), whose last
    assistant message's content is scored (a tool-calling one ends with the assistant's answer after the tools').
    ``index``, its place in the batch, is for the error messages.

    >>> completion_text([{"role": "assistant", "content": "a cat"}], 0)
    'a cat'
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, (list, tuple)):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role") == "assistant":
                content = message.get("content")
                if not isinstance(content, str):
                    raise InputError(
                        f"completions[{index}]: the last assistant message's content must be a string, "
                        f"got {type(content).__name__}"
                    )
                return content
        raise InputError(
            f"completions[{index}]: a conversational completion needs an assistant message "
            f"({{'role': 'assistant', 'content': ...}}), got {completion!r}"
        )
    raise InputError(
        f"completions[{index}]: a completion must be a string or a list of messages, got {type(completion).__name__}"
    )


@dataclass(eq=False)
class MetricReward:
    """A reward function for TRL: one metric's sentence score per completion (see :func:`reward`, which
    builds and checks it). Picklable (a plain object of its options); ``__name__`` is what TRL logs."""

    metric: str
    references: str
    output_index: int
    ids: bool
    drop_ids: Collection[int]
    name: InitVar[str]
    options: dict[str, Any]

    def __post_init__(self, name: str) -> None:
        self.drop_ids = frozenset(self.drop_ids)
        self.__name__ = self.__qualname__ = name

    def __repr__(self) -> str:
        return f"<ngrameval reward {self.__name__!r}: {self.metric} against column {self.references!r}>"

    def __call__(
        self, completions: Sequence[Any], completion_ids: Sequence[Sequence[int]] | None = None, **columns: Any
    ) -> list[float]:
        """One float per completion: its sentence score against its row of the references column."""
        if self.references not in columns:
            present = [key for key in columns if key not in _TRL_ARGUMENTS]
            raise InputError(
                f"reward {self.__name__!r}: no column {self.references!r} among the dataset's columns "
                f"({', '.join(present) or 'none'}); name the column of references with "
                f"reward(..., references=...)"
            )
        predictions: list[list[int]] | list[str]
        if self.ids:
            if completion_ids is None:
                raise InputError(
                    f"reward {self.__name__!r} scores token ids (ids=True) but was given no completion_ids"
                )
            predictions = [[token for token in ids if token not in self.drop_ids] for ids in completion_ids]
        else:
            predictions = [completion_text(completion, i) for i, completion in enumerate(completions)]
        scores, _ = sentence_scores(self.metric, predictions, columns[self.references], **self.options)
        values = scores[:, self.output_index].tolist()
        for i, value in enumerate(values):
            if not math.isfinite(value):
                raise InputError(
                    f"reward {self.__name__!r}: completions[{i}] scored {value} ({self.metric} gave no "
                    f"number for {predictions[i]!r})"
                )
        return values


def reward(
    metric: str,
    references: str = "references",
    *,
    output: str | None = None,
    ids: bool = False,
    drop_ids: Collection[int] = (),
    name: str | None = None,
    **options: Any,
) -> MetricReward:
    """A reward function for ``trl.GRPOTrainer(reward_funcs=...)`` (and TRL's other trainers that take reward
    functions): each completion's sentence score under ``metric`` (any of :func:`ngrameval.metric_names`, with
    its options, e.g. ``variant="nltk"``) against its row of the dataset column ``references`` (a string or a
    list of strings per row); a conversational completion is scored by its last assistant message.

    ``output`` picks one score of a metric that gives several (ROUGE's ``"rougeL"``; default: the first).
    ``ids=True`` scores TRL's ``completion_ids`` against a column of token-id lists (same tokenizer), for the
    metrics that take token ids; ``drop_ids`` are removed from each completion first (TRL keeps the
    end-of-sequence token). ``name`` (default: the metric, its variant and output, e.g. ``rouge_rougeL``) is the
    function's ``__name__``: TRL logs ``rewards/<name>/mean``.

    Everything is checked here, on a one-pair probe, so that a mistake fails before training starts. Rewards
    are the metric's numbers as they are (TER is an error rate: weigh it -1 with ``GRPOConfig(reward_weights=...)``);
    an empty completion gets what the metric gives an empty prediction, never NaN. CIDEr's document
    frequencies come from the batch's references (give ``idf=`` to fix them).

    >>> rouge_l = reward("rouge", output="rougeL")
    >>> rouge_l.__name__
    'rouge_rougeL'
    >>> rewards = rouge_l(prompts=["p", "p"], completions=[[{"role": "assistant", "content": "a cat sat"}], "a dog"],
    ...                   completion_ids=[[1], [2]], references=["a cat sat down", "a dog"])
    >>> import ngrameval
    >>> scores = ngrameval.rouge(["a cat sat", "a dog"], ["a cat sat down", "a dog"], use_aggregator=False)
    >>> rewards == scores.fmeasure["rougeL"]
    True
    >>> reward("rouge", output="rougeX")
    Traceback (most recent call last):
    ...
    ngrameval.errors.InputError: rouge gives no output 'rougeX'; its outputs with these options: rouge1, rouge2, rougeL, rougeLsum
    """
    get_family(metric).check_options(options)
    if not isinstance(references, str) or not references:
        raise InputError(f"references must name a dataset column (a non-empty string), got {references!r}")
    ids = check_flag("ids", ids)
    if not isinstance(drop_ids, (list, tuple, set, frozenset)):
        raise InputError(f"drop_ids must be a list or set of token ids, got {type(drop_ids).__name__}")
    if drop_ids and not ids:
        raise InputError("drop_ids removes token ids from completion_ids, which only ids=True scores")
    if not all(isinstance(token, int) and not isinstance(token, bool) for token in drop_ids):
        raise InputError(f"drop_ids must be token ids (integers), got {list(drop_ids)!r}")
    if ids:
        try:
            _, stats = sentence_scores(metric, [[1]], [[[1]]], **options)
        except InputError as error:  # (the error names what is refused: the ids, or an option's value)
            raise InputError(f"ids=True: {metric} does not score token ids with these options ({error})") from None
    else:
        _, stats = sentence_scores(metric, ["a"], [["a"]], **options)
    if output is not None and output not in stats.outputs:
        raise InputError(
            f"{metric} gives no output {output!r}; its outputs with these options: {', '.join(stats.outputs)}"
        )
    if name is None:
        name = "_".join([metric] + [str(part) for part in (options.get("variant"), output) if part is not None])
    elif not isinstance(name, str) or not name:
        raise InputError(f"name must be a non-empty string, got {name!r}")
    return MetricReward(
        metric, references, stats.outputs.index(output) if output is not None else 0, ids, drop_ids, name, options
    )
