"""The evaluate scripts of the metrics that count tokens (metrics/bleu, nist, gleu, rouge, cider) take token ids,
loaded offline with ``evaluate.load``: ``compute`` on a padded batch and ``add_batch`` through evaluate's int64
features return what ngrameval returns on the id lists; chrF refuses ids by name."""

from pathlib import Path

import evaluate
import numpy as np
import pytest

import ngrameval

ROOT = Path(__file__).resolve().parents[2]
PREDICTIONS = [[5, 6, 7, 8, 9, 5], [3, 4, 3], [9, 2, 2, 1]]
REFERENCES = [[[5, 6, 7, 9, 5]], [[3, 4], [4, 3, 4, 3]], [[9, 2, 1, 1]]]
PAD = 0
PADDED = np.array([[5, 6, 7, 8, 9, 5], [PAD, PAD, PAD, 3, 4, 3], [9, 2, 2, 1, PAD, PAD]])
METRICS = {
    "bleu": (ngrameval.bleu, {"variant": "nltk", "sentence_level": True}),
    "nist": (ngrameval.nist, {"n": 3, "sentence_level": True}),
    "gleu": (ngrameval.gleu, {"sentence_level": True}),
    "rouge": (ngrameval.rouge, {"rouge_types": ["rouge1", "rouge2", "rougeL", "rougeLsum"]}),
    "cider": (ngrameval.cider, {}),
}


@pytest.fixture
def load(hf_home, tmp_path):
    def load_metric(name):
        return evaluate.load(str(ROOT / "metrics" / name), cache_dir=str(tmp_path / "cache"))

    return load_metric


def expected(name):
    function, options = METRICS[name]
    return function(PREDICTIONS, REFERENCES, **options).as_dict()


@pytest.mark.parametrize("name", sorted(METRICS))
def test_compute_takes_a_padded_batch(load, name):
    options = METRICS[name][1]
    result = load(name).compute(predictions=PADDED, references=REFERENCES, pad_id=PAD, **options)
    assert result == expected(name)
    assert "tok:ids" in result["signature"]


@pytest.mark.parametrize("name", sorted(METRICS))
def test_add_batch_stores_ids_as_int64_sequences(load, name):
    """Through evaluate's Arrow features (pads kept there, dropped at compute by pad_id)."""
    metric = load(name)
    metric.add_batch(predictions=PADDED[:1], references=REFERENCES[:1])
    metric.add_batch(predictions=[list(p) for p in PADDED[1:]], references=REFERENCES[1:])
    assert metric.compute(pad_id=PAD, **METRICS[name][1]) == expected(name)


def test_bad_ids_get_ngramevals_error(load):
    with pytest.raises(ValueError, match=r"predictions\[0\]\[1\] is float"):
        load("bleu").add_batch(predictions=[[1, 2.5]], references=[[1]])
    with pytest.raises(ValueError, match="^chrf counts characters: token ids are not accepted"):
        load("chrf").compute(predictions=[[1, 2]], references=[[1, 2]])
