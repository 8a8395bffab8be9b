"""The protocol's sentence scores (ngrameval.metric.sentence_scores: a family's sentence statistics, each row
scored alone) are the numbers each public function gives per segment, for every family and its variants --
the path rewards for RL and pairwise matrices take."""

import numpy as np
import pytest

import ngrameval
from ngrameval.metric import sentence_scores

PREDICTIONS = ["the cat sat on the mat", "a dog barks loudly at the moon", "", "Hello , world !"]
REFERENCES = [
    ["the cat sat on a mat", "a cat is on the mat"],
    ["the dog barks at the moon"],
    ["nothing here"],
    ["hello world", "Hello, world!"],
]


def _references(metric, options):
    # NLTK's chrF takes one reference per prediction.
    return [group[:1] for group in REFERENCES] if (metric, options.get("variant")) == ("chrf", "nltk") else REFERENCES


def _per_segment(metric, options):
    """What the public function gives per segment, as (segments, outputs)."""
    function = getattr(ngrameval, metric)
    references = _references(metric, options)
    if metric == "rouge":
        result = function(PREDICTIONS, references, use_aggregator=False, **options)
        return np.column_stack([result.fmeasure[name] for name in result.fmeasure])
    if metric in ("cider", "meteor"):
        return np.asarray(function(PREDICTIONS, references, **options).scores)[:, None]
    if metric == "coco_caption":
        return np.column_stack(list(function(PREDICTIONS, references, **options).per_item.values()))
    scores = np.asarray(function(PREDICTIONS, references, sentence_level=True, **options).sentence_scores)
    return scores.reshape(len(PREDICTIONS), -1)


CASES = [
    ("bleu", {}),
    ("bleu", {"variant": "nltk", "smooth": "method5"}),
    ("bleu", {"variant": "nltk"}),
    ("bleu", {"smooth": "floor", "use_effective_order": False}),
    ("bleu", {"variant": "mteval"}),
    ("bleu", {"variant": "nmt", "smooth": True}),
    ("bleu", {"variant": "d2l"}),
    ("bleu", {"variant": "coco", "weights": [(1,), (0.5, 0.5)]}),
    ("nist", {}),
    ("nist", {"variant": "mteval"}),
    ("gleu", {}),
    ("gleu", {"variant": "google_bleu"}),
    ("chrf", {}),
    ("chrf", {"word_order": 2}),
    ("chrf", {"variant": "nltk"}),
    ("ter", {}),
    ("ter", {"case_sensitive": True}),
    ("rouge", {}),
    ("rouge", {"use_stemmer": True, "rouge_types": ["rougeL"]}),
    ("cider", {}),
    ("cider", {"variant": "cider"}),
    ("meteor", {}),
    ("meteor", {"variant": "nltk"}),
    ("coco_caption", {}),
]


@pytest.mark.parametrize("metric, options", CASES, ids=[f"{m}-{o}" for m, o in CASES])
def test_sentence_scores_are_the_public_per_segment_scores(metric, options):
    scores, stats = sentence_scores(metric, PREDICTIONS, _references(metric, options), **options)
    assert scores.shape == (len(PREDICTIONS), len(stats.outputs))
    np.testing.assert_array_equal(scores, _per_segment(metric, options))


def test_unknown_metric_and_options_are_refused_by_name():
    with pytest.raises(ValueError, match="unknown metric 'blue'"):
        sentence_scores("blue", PREDICTIONS, REFERENCES)
    with pytest.raises(ValueError, match="unknown options for bleu: smoth"):
        sentence_scores("bleu", PREDICTIONS, REFERENCES, smoth="exp")
