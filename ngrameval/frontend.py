"""What the evaluate metric scripts in ``metrics/`` share, so that each script holds only its
documentation, citation and the ngrameval function it calls. (No evaluate import here: the class
is a mixin placed before ``evaluate.Metric``.)"""
from __future__ import annotations

from typing import Any, Callable, Dict, List

from .inputs import normalize_corpus


class ValidatedMetric:
    """Mixin for an ``evaluate.Metric``: validate with ngrameval before evaluate stores the data (its
    ValueErrors name the problem; evaluate's Arrow conversion would not), then call ``score``.

    A script writes ``class Bleu(ValidatedMetric, evaluate.Metric): score = staticmethod(ngrameval.bleu)``.
    """

    score: Callable[..., Any]

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Dict[str, Any]:
        """Compute the metric (evaluate appends the metric's input description to this docstring)."""
        if predictions is None and references is None:     # data given earlier through add/add_batch
            return super().compute(**kwargs)
        hyps, refs, _ = normalize_corpus(predictions, references)
        # References come back as lists: the one shape `_compute` then sees, whatever the input shape.
        return super().compute(predictions=hyps, references=refs, **kwargs)

    def _compute(self, predictions: List[Any], references: List[Any], **options: Any) -> Dict[str, Any]:
        return type(self).score(predictions, references, **options).as_dict()


def input_features() -> list:
    """The input shapes every metric accepts, as evaluate Features alternatives: string predictions
    with several string references or one, and token lists with token-list references."""
    import datasets

    text = datasets.Value("string", id="sequence")
    tokens = datasets.Sequence(text)
    shapes = [(text, datasets.Sequence(text, id="references")), (text, text), (tokens, datasets.Sequence(tokens))]
    return [datasets.Features({"predictions": p, "references": r}) for p, r in shapes]
