"""BLEU ``variant="coco"``, :func:`ngrameval.metrics.coco.rouge_l` and CIDEr against pycocoevalcap 1.2's
scorers (pure Python, run in each test) on E2E system outputs, nlg-eval's examples and the toy case.

pycocoevalcap's scorers take ``gts`` (id -> references) and ``res`` (id -> [prediction]) and split
on whitespace: the same strings go to both sides (tokenization is tested in test_ptb_java.py and
the whole suite with the Java tokenizer in test_coco_suite.py).
"""

import numpy as np
import pytest
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider import cider_scorer
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.rouge.rouge import Rouge

import ngrameval
from ngrameval.metrics.cider import DocumentFrequency, cider
from ngrameval.metrics.coco import coco_caption, rouge_l
from tests.data import E2E_PRIMARY, assert_close, e2e_outputs, e2e_references, load_json, read_lines

TOLERANCE = 1e-9
BLEU_WEIGHTS = [(1.0,), (0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4]
# Single systems, and several systems as one corpus (items then share reference groups).
E2E_CORPORA = [("tgen",), ("harv",), ("zhang",), E2E_PRIMARY[:3]]


def coco_shape(predictions, references):
    return ({i: list(refs) for i, refs in enumerate(references)}, {i: [p] for i, p in enumerate(predictions)})


@pytest.fixture(scope="module", params=E2E_CORPORA, ids="+".join)
def e2e(shared, request):
    _, references = e2e_references(shared)
    predictions, grouped = [], []
    for system in request.param:
        predictions += e2e_outputs(shared, system)
        grouped += references
    return predictions, grouped


@pytest.fixture(scope="module")
def nlg_eval(shared):
    base = "data/nlg-eval-examples"
    return (
        read_lines(shared(f"{base}/hyp.txt")),
        [list(refs) for refs in zip(read_lines(shared(f"{base}/ref1.txt")), read_lines(shared(f"{base}/ref2.txt")))],
    )


@pytest.fixture(scope="module")
def toy(shared):
    (case,) = [
        c for c in load_json(shared, "conformance/official_small.json")["cases"] if c["id"] == "pycocoevalcap-toy"
    ]
    ids = list(case["gts"])
    return [case["res"][i][0] for i in ids], [case["gts"][i] for i in ids], case["expected"]


def check_bleu(predictions, references):
    expected, expected_items = Bleu(4).compute_score(*coco_shape(predictions, references), verbose=0)
    result = ngrameval.bleu(predictions, references, variant="coco", weights=BLEU_WEIGHTS, sentence_level=True)
    assert_close(result.bleu, expected, rel=TOLERANCE, what="corpus Bleu_1..4")
    assert_close(np.array(result.sentence_scores).T.tolist(), expected_items, rel=TOLERANCE, what="per-item Bleu")


def check_rouge(predictions, references):
    expected, expected_items = Rouge().compute_score(*coco_shape(predictions, references))
    got = rouge_l(predictions, references)
    assert_close(float(got.mean()), expected, rel=TOLERANCE, what="ROUGE_L")
    assert_close(got.tolist(), expected_items.tolist(), rel=TOLERANCE, what="per-item ROUGE_L")


def check_cider(predictions, references):
    expected, expected_items = Cider().compute_score(*coco_shape(predictions, references))
    result = cider(predictions, references)
    assert_close(result.cider, expected, rel=TOLERANCE, what="CIDEr-D")
    assert_close(result.scores, expected_items.tolist(), rel=TOLERANCE, abs_tol=1e-12, what="per-item CIDEr-D")


@pytest.mark.parametrize("check", [check_bleu, check_rouge, check_cider])
@pytest.mark.slow
def test_e2e(e2e, check):
    check(*e2e)


@pytest.mark.parametrize("check", [check_bleu, check_rouge, check_cider])
def test_nlg_eval_examples(nlg_eval, check):
    check(*nlg_eval)


def test_toy_case_values(toy):
    """official_small.json: what pycocoevalcap printed for its toy case."""
    predictions, references, expected = toy
    result = coco_caption(predictions, references, tokenize="none", metrics=("bleu", "rouge_l", "cider"))
    assert_close([result.scores[f"Bleu_{n}"] for n in range(1, 5)], expected["Bleu"]["corpus"], rel=TOLERANCE)
    assert_close([result.per_item[f"Bleu_{n}"] for n in range(1, 5)], expected["Bleu"]["per_item"], rel=TOLERANCE)
    assert_close(result.scores["ROUGE_L"], expected["Rouge"]["corpus"], rel=TOLERANCE)
    assert_close(result.per_item["ROUGE_L"], expected["Rouge"]["per_item"], rel=TOLERANCE)
    assert_close(result.scores["CIDEr"], expected["Cider"]["corpus"], rel=TOLERANCE)
    assert [round(s, 8) for s in result.per_item["CIDEr"]] == expected["Cider"]["per_item_rounded_8"]
    stats = ngrameval.bleu(predictions, references, variant="coco")
    assert stats.counts == expected["Bleu"]["stats"]["correct"]
    assert stats.totals == expected["Bleu"]["stats"]["guess"]
    assert (stats.translation_length, stats.reference_length) == (
        expected["Bleu"]["stats"]["testlen"],
        expected["Bleu"]["stats"]["reflen"],
    )


@pytest.mark.slow
def test_coco_suite_equals_its_scorers(e2e):
    """The suite (tokenize="none") gives each scorer's own numbers, keyed as pycocoevalcap keys them."""
    predictions, references = e2e
    gts, res = coco_shape(predictions, references)
    result = coco_caption(gts=gts, res=res, tokenize="none", metrics=("bleu", "rouge_l", "cider"))
    bleu, _ = Bleu(4).compute_score(gts, res, verbose=0)
    assert_close([result.scores[f"Bleu_{n}"] for n in range(1, 5)], bleu, rel=TOLERANCE)
    assert_close(result.scores["ROUGE_L"], Rouge().compute_score(gts, res)[0], rel=TOLERANCE)
    assert_close(result.scores["CIDEr"], Cider().compute_score(gts, res)[0], rel=TOLERANCE)
    assert result.image_ids == list(gts)


@pytest.mark.slow
def test_original_cider(e2e, monkeypatch):
    """vrama91's original CIDEr differs from CIDEr-D in two places only: no clipping (pycocoevalcap's
    ``min(hyp, ref) * ref`` becomes ``hyp * ref``) and no Gaussian length penalty. The peer here is
    pycocoevalcap with its module-level ``min`` replaced by the first argument and sigma infinite
    (its penalty is then exactly e**-0 = 1)."""
    predictions, references = e2e
    monkeypatch.setattr(cider_scorer, "min", lambda hyp, ref: hyp, raising=False)
    scorer = cider_scorer.CiderScorer(n=4, sigma=float("inf"))
    for prediction, refs in zip(predictions, references):
        scorer += (prediction, refs)
    expected, expected_items = scorer.compute_score()
    result = cider(predictions, references, variant="cider")
    assert_close(result.cider, expected, rel=TOLERANCE)
    assert_close(result.scores, expected_items.tolist(), rel=TOLERANCE, abs_tol=1e-12)


@pytest.mark.slow
def test_document_frequency_table(e2e, tmp_path):
    """A table saved from the same references gives the corpus-idf scores; a table from another
    corpus changes the weights as the original CIDEr code's ``coco-val`` mode does (D and df from
    the table), checked against pycocoevalcap given that table's frequencies."""
    predictions, references = e2e
    path = tmp_path / "df.json"
    DocumentFrequency.from_references(references).save(path)
    assert_close(
        cider(predictions, references, idf=str(path)).scores,
        cider(predictions, references).scores,
        rel=1e-12,
        abs_tol=1e-15,
    )
    other = references[: len(references) // 2]
    table = DocumentFrequency.from_references(other)
    result = cider(predictions, references, idf=table)
    scorer = cider_scorer.CiderScorer(n=4, sigma=6.0)
    for prediction, refs in zip(predictions, references):
        scorer += (prediction, refs)
    frequencies = {tuple(ngram.split(" ")): float(count) for ngram, count in table.counts.items()}
    scorer.document_frequency = cider_scorer.defaultdict(float, frequencies)
    scorer.crefs = ReportedLength(scorer.crefs, table.num_documents)  # its D is len(crefs)
    assert_close(result.scores, list(scorer.compute_cider()), rel=TOLERANCE, abs_tol=1e-12)


class ReportedLength(list):
    """A list that reports another length: pycocoevalcap's ``compute_cider`` takes D from
    ``len(self.crefs)`` and pairs predictions with ``self.crefs`` by iterating it."""

    def __init__(self, items, length):
        super().__init__(items)
        self.length = length

    def __len__(self):
        return self.length
