"""score_dataset on Hugging Face datasets: a Dataset mapped by two processes and a streamed
IterableDataset give the in-memory result (ngrameval.<metric>(...)'s) to the last bit; a malformed row
is named by its index."""

import datasets
import pytest

from ngrameval.dataset import score_dataset
from tests.scale.common import assert_same_result, corpus, in_memory

HF_CASES = [
    ("bleu", {"variant": "nltk", "smooth": "method4"}),
    ("nist", {"variant": "mteval"}),
    ("cider", {"variant": "cider-d"}),
]


@pytest.mark.parametrize("metric,options", HF_CASES, ids=[f"{m}-{o}" for m, o in HF_CASES])
def test_a_dataset_in_two_processes(shared, metric, options):
    predictions, references = corpus(shared, metric, options)
    dataset = datasets.Dataset.from_dict({"prediction": predictions, "references": references})
    result = score_dataset(dataset, metric, batch_size=45, num_proc=2, **options)
    assert_same_result(result, in_memory(metric, options, predictions, references))


@pytest.mark.parametrize("metric,options", HF_CASES[:2], ids=[f"{m}-{o}" for m, o in HF_CASES[:2]])
def test_an_iterable_dataset(shared, metric, options):
    predictions, references = corpus(shared, metric, options)
    dataset = datasets.Dataset.from_dict({"prediction": predictions, "references": references}).to_iterable_dataset(
        num_shards=3
    )
    result = score_dataset(dataset, metric, batch_size=64, **options)
    assert_same_result(result, in_memory(metric, options, predictions, references))


def test_a_malformed_row_is_named_by_its_index():
    dataset = datasets.Dataset.from_dict({"prediction": ["a b", "a b", "c"], "references": [["a b"], ["a b"], []]})
    with pytest.raises(ValueError, match=r"row 2: references must be a string or a non-empty list of strings"):
        score_dataset(dataset, "bleu", batch_size=2)


def test_num_proc_is_refused_for_a_stream():
    dataset = datasets.Dataset.from_dict({"prediction": ["a"], "references": [["a"]]}).to_iterable_dataset()
    with pytest.raises(ValueError, match="num_proc is for a datasets.Dataset"):
        score_dataset(dataset, "bleu", num_proc=2)
