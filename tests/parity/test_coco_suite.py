"""The COCO caption suite (:func:`ngrameval.coco_caption`) against pycocoevalcap 1.2 run whole, Java
included: its PTBTokenizer (stanford-corenlp-3.4.1.jar) on the raw captions, then Bleu(4), Meteor()
(meteor-1.5.jar), Rouge() and Cider() on the tokens, as ``COCOEvalCap.evaluate`` runs them (without
SPICE). Also nlg-eval's published scores (raw strings, no tokenizer) and the coco-caption demo's
printed BLEU, recomputed from its printed statistics.
"""

import ast
import csv

import numpy as np
import pytest
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from pycocoevalcap.meteor.meteor import Meteor
from pycocoevalcap.rouge.rouge import Rouge
from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

import ngrameval
from ngrameval.metrics.bleu import resolve_options
from tests.data import E2E_PRIMARY, assert_close, e2e_outputs, e2e_references, read_lines

TOLERANCE = 1e-9
NAMES = ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr"]


def pycocoevalcap_suite(gts, res, tokenize=True):
    """COCOEvalCap.evaluate's steps on gts/res of raw captions: {name: (corpus, per item)}."""
    if tokenize:
        tokenizer = PTBTokenizer()
        gts = tokenizer.tokenize({k: [{"caption": c} for c in v] for k, v in gts.items()})
        res = tokenizer.tokenize({k: [{"caption": c} for c in v] for k, v in res.items()})
    scores = {}
    bleu, bleu_items = Bleu(4).compute_score(gts, res, verbose=0)
    for n in range(4):
        scores[f"Bleu_{n + 1}"] = (bleu[n], bleu_items[n])
    meteor = Meteor()
    try:
        value, items = meteor.compute_score(gts, res)
    finally:
        del meteor
    scores["METEOR"] = (value, items)
    value, items = Rouge().compute_score(gts, res)
    scores["ROUGE_L"] = (value, list(items))
    value, items = Cider().compute_score(gts, res)
    scores["CIDEr"] = (value, list(items))
    return scores


def assert_suite_equal(result, expected):
    for name in NAMES:
        assert_close(result.scores[name], expected[name][0], rel=TOLERANCE, abs_tol=1e-12, what=f"corpus {name}")
        assert_close(
            result.per_item[name],
            [float(x) for x in expected[name][1]],
            rel=TOLERANCE,
            abs_tol=1e-12,
            what=f"per-item {name}",
        )


@pytest.mark.parametrize("system", [E2E_PRIMARY[0], "harv"])
@pytest.mark.slow
def test_e2e_with_java_tokenizer_and_jar(shared, system):
    """300 E2E items (1 to 45 references each) of a system, raw text: PTB tokens and all seven scores."""
    _, references = e2e_references(shared)
    predictions = e2e_outputs(shared, system)[:300]
    gts = {f"inst-{i}": refs for i, refs in enumerate(references[:300])}
    res = {f"inst-{i}": [p] for i, p in enumerate(predictions)}
    expected = pycocoevalcap_suite(gts, res)
    result = ngrameval.coco_caption(gts=gts, res=res)
    assert result.image_ids == list(gts)
    assert_suite_equal(result, expected)


@pytest.mark.slow
def test_nlg_eval_examples_through_pycocoevalcap(shared):
    """nlg-eval passes raw strings (no tokenizer): tokenize="none" gives pycocoevalcap's numbers."""
    folder = "data/nlg-eval-examples"
    hypotheses = read_lines(shared(f"{folder}/hyp.txt"))
    references = [
        list(group) for group in zip(read_lines(shared(f"{folder}/ref1.txt")), read_lines(shared(f"{folder}/ref2.txt")))
    ]
    gts = {i: refs for i, refs in enumerate(references)}
    res = {i: [h] for i, h in enumerate(hypotheses)}
    assert_suite_equal(
        ngrameval.coco_caption(gts=gts, res=res, tokenize="none"), pycocoevalcap_suite(gts, res, tokenize=False)
    )


def test_nlg_eval_published_scores(shared):
    """nlg-eval's README example: the printed scores (6 decimals) of its two hypotheses."""
    folder = "data/nlg-eval-examples"
    with open(shared(f"{folder}/expected_scores.tsv"), encoding="utf-8", newline="") as handle:
        (expected,) = [row for row in csv.DictReader(handle, delimiter="\t") if row["case"] == "examples_corpus"]
    hypotheses = read_lines(shared(f"{folder}/hyp.txt"))
    references = [
        list(group) for group in zip(read_lines(shared(f"{folder}/ref1.txt")), read_lines(shared(f"{folder}/ref2.txt")))
    ]
    result = ngrameval.coco_caption(hypotheses, references, tokenize="none")
    for name in NAMES:
        assert abs(result.scores[name] - float(expected[name])) < 5e-7, (name, result.scores[name], expected[name])


def test_coco_demo_bleu_from_its_printed_statistics(shared):
    """cocoEvalCapDemo prints BLEU's statistics and Bleu_1..4 with 3 decimals; the coco rule on those
    statistics gives the printed values."""
    text = shared("data/coco-caption/cocoEvalCapDemo.expected_output.txt").read_text(encoding="utf-8")
    start = text.index("{'reflen'")
    statistics = ast.literal_eval(text[start : text.index("}", start) + 1])
    printed = {
        line.split(":")[0].strip(): float(line.split(":")[1])
        for line in text.splitlines()
        if line.strip().startswith("Bleu_") and ":" in line
    }
    # One summed row of the BLEU family: lengths, then matches, totals and clamped totals per order.
    guess = statistics["guess"]
    row = np.array([[statistics["testlen"], statistics["reflen"], *statistics["correct"], *guess, *guess]], float)
    options = resolve_options("coco", weights=[(1.0,), (0.5, 0.5), (1 / 3,) * 3, (0.25,) * 4])
    stats = ngrameval.Statistics("bleu", row, ("bleu.1", "bleu.2", "bleu.3", "bleu.4"), "", {"options": options})
    scores = ngrameval.get_family("bleu").score(stats)[0].tolist()
    assert len(printed) == 4
    for n in range(4):
        assert round(scores[n], 3) == printed[f"Bleu_{n + 1}"], (n, scores[n], printed)
