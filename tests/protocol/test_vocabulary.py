"""One public vocabulary (#25 item 4): every result has ``score``, ``signature``, ``scale`` and
``sentence_scores``; ``sentence_level``, ``tokenize``, ``lowercase`` and ``max_order`` are the options' names,
the peers' names (ROUGE's ``use_aggregator`` and ``tokenizer``, TER's ``case_sensitive``, NIST's ``n``; CIDEr's
and METEOR's ``scores``, COCO's ``per_item``) aliases that give the same result, and refused when they disagree."""

import math

import pytest
from sacrebleu.metrics import TER

import ngrameval
from ngrameval import InputError
from ngrameval.metric import RunningTotals, metric_names, statistics

PREDICTIONS = ["the cat sat on the mat", "a dog barks"]
REFERENCES = [["the cat sat on a mat", "The cat is on the mat"], ["a dog barks loudly", "A dog is barking"]]
# Options that keep every metric off Java (METEOR 1.5's jar, the PTB tokenizer).
FAST = {
    "meteor": {"variant": "nltk", "tokenize": "whitespace"},
    "coco_caption": {"tokenize": "none", "metrics": ("bleu", "rouge_l", "cider")},
}
# The metrics that give per-segment results unless told not to, as their peers always do.
ALWAYS = ("cider", "meteor", "coco_caption")


def _result(metric, **options):
    return getattr(ngrameval, metric)(PREDICTIONS, REFERENCES, **{**FAST.get(metric, {}), **options})


@pytest.mark.parametrize("metric", metric_names())
def test_every_result_says_score_signature_and_scale(metric):
    direct = _result(metric)
    merged = RunningTotals(metric)
    merged.add(statistics(metric, PREDICTIONS, REFERENCES, **FAST.get(metric, {})))
    for result in (direct, merged.result()):
        assert type(result.score) is float and math.isfinite(result.score)
        assert isinstance(result.signature, str) and result.signature
        assert result.scale == 1
    assert merged.result().score == direct.score and merged.result().signature == direct.signature


def test_score_is_the_documented_headline():
    assert _result("bleu").score == _result("bleu").bleu
    assert _result("ter").score == _result("ter").ter
    assert _result("rouge", rouge_types=["rougeL", "rouge1"]).score == _result("rouge").fmeasure["rougeL"]
    coco = _result("coco_caption")
    assert coco.score == coco.scores["CIDEr"] == _result("cider").score
    assert _result("coco_caption", metrics=("rouge_l",)).score == coco.scores["ROUGE_L"]
    per_segment = _result("rouge", rouge_types=["rouge2"], sentence_level=True)
    assert per_segment.score == pytest.approx(_result("rouge", rouge_types=["rouge2"]).score, abs=1e-15)


@pytest.mark.parametrize("metric", metric_names())
def test_sentence_level_gives_sentence_scores(metric):
    scores = _result(metric, sentence_level=True).sentence_scores
    for per_item in scores.values() if isinstance(scores, dict) else [scores]:
        assert len(per_item) == len(PREDICTIONS)
    assert _result(metric, sentence_level=False).sentence_scores is None
    assert (_result(metric).sentence_scores == scores) == (metric in ALWAYS)
    assert _result(metric, sentence_level=False).score == _result(metric).score
    with pytest.raises(InputError, match="sentence_level must be True or False"):
        _result(metric, sentence_level="yes")


def test_result_aliases_are_the_same_data():
    cider, meteor, coco = _result("cider"), _result("meteor"), _result("coco_caption")
    assert cider.sentence_scores is cider.scores and meteor.sentence_scores is meteor.scores
    assert coco.sentence_scores is coco.per_item
    rouge = _result("rouge", sentence_level=True)
    assert rouge.sentence_scores == rouge.fmeasure


@pytest.mark.parametrize(
    "metric, canonical, alias",
    [
        ("rouge", {"sentence_level": True}, {"use_aggregator": False}),
        ("rouge", {"sentence_level": False}, {"use_aggregator": True}),
        ("rouge", {"tokenize": "whitespace"}, {"tokenizer": "whitespace"}),
        ("rouge", {"tokenize": str.split}, {"tokenizer": str.split}),
        ("ter", {"lowercase": False}, {"case_sensitive": True}),
        ("ter", {"lowercase": True}, {"case_sensitive": False}),
        ("nist", {"max_order": 3}, {"n": 3}),
        ("nist", {"max_order": 3, "variant": "mteval"}, {"n": 3, "variant": "mteval"}),
    ],
)
def test_option_aliases_give_the_canonical_result(metric, canonical, alias):
    expected = _result(metric, **canonical).as_dict()
    assert _result(metric, **alias).as_dict() == expected
    assert _result(metric, **{**canonical, **alias}).as_dict() == expected  # both, agreeing
    if metric != "rouge" or "tokenize" in canonical:  # (sentence_level is not a statistics option)
        assert (
            statistics(metric, PREDICTIONS, REFERENCES, **alias).signature
            == statistics(metric, PREDICTIONS, REFERENCES, **canonical).signature
            == expected["signature"]
        )


@pytest.mark.parametrize(
    "metric, options, message",
    [
        (
            "rouge",
            {"sentence_level": True, "use_aggregator": True},
            "use_aggregator=True contradicts sentence_level=True",
        ),
        ("rouge", {"sentence_level": False, "use_aggregator": False}, "use_aggregator=False contradicts"),
        ("rouge", {"tokenize": "whitespace", "tokenizer": "default"}, "tokenizer='default' contradicts tokenize="),
        ("ter", {"lowercase": True, "case_sensitive": True}, "case_sensitive=True contradicts lowercase=True"),
        ("ter", {"case_sensitive": "yes"}, "case_sensitive must be True or False"),
        ("ter", {"lowercase": "no"}, "lowercase must be True or False"),
        ("nist", {"max_order": 4, "n": 5}, "n=5 contradicts max_order=4"),
        ("nist", {"n": 0}, "n must be an integer from 1"),
    ],
)
def test_conflicting_aliases_are_refused(metric, options, message):
    with pytest.raises(InputError, match=message):
        _result(metric, **options)


def test_ter_lowercase_is_sacrebleus_case_sensitive_negated():
    hypotheses = ["The Cat sat", "A dog BARKS"]
    references = [["the cat sat"], ["a dog barks"]]
    for lowercase in (True, False):
        metric = TER(case_sensitive=not lowercase)
        peer = metric.corpus_score(hypotheses, list(map(list, zip(*references))))
        result = ngrameval.ter(hypotheses, references, lowercase=lowercase)
        assert result.num_edits == peer.num_edits and abs(result.score * 100 - peer.score) <= 1e-12 * peer.score
        assert result.signature == str(metric.get_signature())  # sacrebleu's own signature, as it was
