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


class CocoShapedMetric(ValidatedMetric):
    """A :class:`ValidatedMetric` that also takes pycocoevalcap's ``gts``/``res`` (image id ->
    reference captions, image id -> [caption] or a COCO results list); the result then carries the
    image ids in the order of its per-item scores."""

    def compute(self, *, predictions: Any = None, references: Any = None, gts: Any = None, res: Any = None,
                **kwargs: Any) -> Dict[str, Any]:
        """Compute the metric (evaluate appends the metric's input description to this docstring)."""
        if gts is None and res is None:
            return super().compute(predictions=predictions, references=references, **kwargs)
        if predictions is not None or references is not None:
            raise ValueError("give either predictions/references or gts/res, not both")
        from .coco import from_coco
        image_ids, predictions, references = from_coco(gts if gts is not None else {}, res if res is not None else {})
        result = super().compute(predictions=predictions, references=references, **kwargs)
        result["image_ids"] = image_ids
        return result


def input_features(tokens: bool = True) -> list:
    """The input shapes a metric accepts, as evaluate Features alternatives: string predictions
    with several string references or one, and (unless ``tokens`` is False) token lists with
    token-list references."""
    import datasets

    text = datasets.Value("string", id="sequence")
    shapes = [(text, datasets.Sequence(text, id="references")), (text, text)]
    if tokens:
        shapes.append((datasets.Sequence(text), datasets.Sequence(datasets.Sequence(text))))
    return [datasets.Features({"predictions": p, "references": r}) for p, r in shapes]
