"""Shards scored apart and merged in order give the in-memory result to the last bit, for every metric.

Each shard computes its statistics (NIST and CIDEr: with the summed reference counts of all shards),
RunningTotals merges them; the expected result is ngrameval.<metric>(...)'s on the whole corpus.
"""

import pytest

from ngrameval.metric import RunningTotals, get_family, metric_names, statistics
from tests.scale.common import CASES, assert_same_result, corpus, in_memory

# Uneven shards, one of a single segment.
BOUNDS = [0, 7, 150, 151, 333, 400]


def test_every_registered_metric_is_covered():
    assert sorted({metric for metric, _ in CASES}) == sorted(metric_names())


def sharded_result(metric, options, predictions, references, bounds):
    family = get_family(metric)
    shards = list(zip(bounds, bounds[1:]))
    counts = None
    for start, stop in shards:
        part = family.reference_counts(predictions[start:stop], references[start:stop], **options)
        if part is not None:
            if counts is None:
                counts = part
            else:
                counts.add(part)
    running = RunningTotals(metric)
    for start, stop in shards:
        running.add(family.shard_statistics(predictions[start:stop], references[start:stop], counts, **options))
    assert len(running) == len(predictions)
    return running.result()


@pytest.mark.parametrize("metric,options", CASES, ids=[f"{m}-{o}" for m, o in CASES])
def test_shards_give_the_in_memory_result(shared, metric, options):
    predictions, references = corpus(shared, metric, options)
    expected = in_memory(metric, options, predictions, references)
    assert_same_result(sharded_result(metric, options, predictions, references, BOUNDS), expected)


VARYING_REFERENCES = [
    case
    for case in CASES
    if case
    in [
        ("bleu", {"variant": "sacrebleu"}),
        ("nist", {"variant": "mteval"}),
        ("rouge", {"variant": "rouge_score"}),
        ("chrf", {"variant": "sacrebleu"}),
        ("gleu", {"variant": "nltk"}),
        ("ter", {}),
        ("coco_caption", {}),
    ]
]


@pytest.mark.parametrize("metric,options", VARYING_REFERENCES, ids=[f"{m}-{o}" for m, o in VARYING_REFERENCES])
def test_shards_with_other_reference_counts_give_the_in_memory_result(shared, metric, options):
    """Two references per segment in some shards, one in others: the signature's nrefs is "var", as in memory."""
    predictions, references = corpus(shared, metric, options)
    references = references[:151] + [group[:1] for group in references[151:]]
    expected = in_memory(metric, options, predictions, references)
    assert_same_result(sharded_result(metric, options, predictions, references, BOUNDS), expected)


def test_shards_with_other_signatures_are_refused(shared):
    predictions, references = corpus(shared, "bleu", {})
    running = RunningTotals("bleu")
    running.add(statistics("bleu", predictions[:3], references[:3]))
    with pytest.raises(ValueError, match=r"signature .*lc.* cannot be merged .*scored with different options"):
        running.add(statistics("bleu", predictions[3:6], references[3:6], lowercase=True))


@pytest.mark.parametrize(
    "metric,options",
    [
        ("nist", {"variant": "nltk"}),
        ("nist", {"variant": "mteval"}),
        ("cider", {"variant": "cider-d"}),
        ("coco_caption", {}),
    ],
)
def test_a_shard_without_the_corpus_counts_differs(shared, metric, options):
    """Why NIST and CIDEr take two passes: each shard's own references give other weights."""
    predictions, references = corpus(shared, metric, options)
    family = get_family(metric)
    running = RunningTotals(metric)
    for start, stop in zip(BOUNDS, BOUNDS[1:]):
        running.add(family.statistics(predictions[start:stop], references[start:stop], **options))

    def headline(result):
        return result.scores["CIDEr"] if metric == "coco_caption" else getattr(result, metric)

    assert headline(running.result()) != pytest.approx(headline(in_memory(metric, options, predictions, references)))


def test_statistics_of_another_metric_are_refused(shared):
    predictions, references = corpus(shared, "bleu", {})
    running = RunningTotals("bleu")
    with pytest.raises(ValueError, match="statistics of 'chrf' cannot be merged into 'bleu'"):
        running.add(statistics("chrf", predictions[:3], references[:3]))
    with pytest.raises(ValueError, match="no segment to score"):
        running.result()


def test_shards_scored_with_other_options_are_refused(shared):
    predictions, references = corpus(shared, "bleu", {})
    running = RunningTotals("bleu")
    running.add(statistics("bleu", predictions[:3], references[:3]))
    with pytest.raises(ValueError, match="scored with different options"):
        running.add(statistics("bleu", predictions[3:6], references[3:6], max_order=2))
