"""Shards scored apart and merged in order give the in-memory score to the last bit, for every metric.

Each shard computes its statistics (NIST and CIDEr: with the summed reference counts of all shards),
RunningTotals merges them; the expected value is ngrameval.<metric>(...) on the whole corpus.
"""
import pytest

from ngrameval.metric import RunningTotals, get_family, metric_names, statistics
from tests.scale.common import CASES, corpus, in_memory

# Uneven shards, one of a single segment.
BOUNDS = [0, 7, 150, 151, 333, 400]


def test_every_registered_metric_is_covered():
    assert sorted({metric for metric, _ in CASES}) == sorted(metric_names())


def sharded_scores(metric, options, predictions, references, bounds):
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
    return running.scores()


@pytest.mark.parametrize("metric,options", CASES, ids=[f"{m}-{o}" for m, o in CASES])
def test_shards_give_the_in_memory_score(shared, metric, options):
    predictions, references = corpus(shared, metric, options)
    expected = in_memory(metric, options, predictions, references)
    got = sharded_scores(metric, options, predictions, references, BOUNDS)
    assert got == {name: expected[name] for name in got}
    assert len(got) == len(get_family(metric).statistics(predictions[:2], references[:2], **options).outputs)


@pytest.mark.parametrize("metric,options", [("nist", {"variant": "nltk"}), ("nist", {"variant": "mteval"}),
                                            ("cider", {"variant": "cider-d"}), ("coco_caption", {})])
def test_a_shard_without_the_corpus_counts_differs(shared, metric, options):
    """Why NIST and CIDEr take two passes: each shard's own references give other weights."""
    predictions, references = corpus(shared, metric, options)
    family = get_family(metric)
    running = RunningTotals(metric)
    for start, stop in zip(BOUNDS, BOUNDS[1:]):
        running.add(family.statistics(predictions[start:stop], references[start:stop], **options))
    key = "CIDEr" if metric == "coco_caption" else metric
    assert running.scores()[key] != pytest.approx(in_memory(metric, options, predictions, references)[key])


def test_statistics_of_another_metric_are_refused(shared):
    predictions, references = corpus(shared, "bleu", {})
    running = RunningTotals("bleu")
    with pytest.raises(ValueError, match="statistics of 'chrf' cannot be merged into 'bleu'"):
        running.add(statistics("chrf", predictions[:3], references[:3]))
    with pytest.raises(ValueError, match="no segment to score"):
        running.scores()


def test_shards_scored_with_other_options_are_refused(shared):
    predictions, references = corpus(shared, "bleu", {})
    running = RunningTotals("bleu")
    running.add(statistics("bleu", predictions[:3], references[:3]))
    with pytest.raises(ValueError, match="scored with different options"):
        running.add(statistics("bleu", predictions[3:6], references[3:6], max_order=2))
