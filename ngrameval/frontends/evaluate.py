"""What the evaluate metric scripts in ``metrics/`` share, so that each script holds only its
documentation, citation and the ngrameval function it calls. (No evaluate import here: the class
is a mixin placed before ``evaluate.Metric``.)"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from ngrameval.engine.inputs import normalize_corpus


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
        if getattr(self, "num_process", 1) == 1 and getattr(self, "writer", None) is None:
            # One process and nothing added before: evaluate's Arrow round trip would only copy the
            # validated data (and cost half the scoring time), so it is scored as it is.
            return self._compute(hyps, refs, **kwargs)
        # References come back as lists: the one shape `_compute` then sees, whatever the input shape.
        return super().compute(predictions=hyps, references=refs, **kwargs)

    def _compute(self, predictions: List[Any], references: List[Any], confidence: Any = False,
                 **options: Any) -> Dict[str, Any]:
        result = type(self).score(predictions, references, **options).as_dict()
        settings = _confidence_settings(confidence)
        if settings is not None:
            result["confidence"] = confidence_intervals(type(self).score, predictions, references, options, settings)
        return result


def _confidence_settings(confidence: Any) -> Optional[Dict[str, Any]]:
    """``confidence=True`` (1000 bootstrap samples, 95%, sacrebleu's seed) or a dict of
    ``n_samples``, ``confidence`` and ``seed``; False or None: no intervals."""
    if confidence is None or confidence is False:
        return None
    if confidence is True:
        return {}
    if isinstance(confidence, dict):
        unknown = set(confidence) - {"n_samples", "confidence", "seed"}
        if unknown:
            raise ValueError(f"unknown confidence options {sorted(unknown)}; valid: n_samples, confidence, seed")
        return dict(confidence)
    raise ValueError(f"confidence must be True, False or a dict of n_samples, confidence and seed, got {confidence!r}")


def confidence_intervals(function: Callable[..., Any], predictions: Any, references: Any, options: Dict[str, Any],
                         settings: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """Bootstrap intervals of every output of the metric whose public function is ``function``, through
    the metric protocol (the same for every metric): output -> {"score", "mean", "low", "high"}."""
    from ngrameval.metric import family_of
    from ngrameval.significance import confidence_interval

    family = family_of(function)
    statistics_options = {name: value for name, value in options.items()
                          if name not in family.options_not_for_statistics}
    stats = family.statistics(predictions, references, **statistics_options)
    return {output: {"score": result.score, "mean": result.mean, "low": result.ci[0], "high": result.ci[1]}
            for output, result in confidence_interval(stats, **settings).items()}


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
        from ngrameval.metrics.coco import from_coco
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
