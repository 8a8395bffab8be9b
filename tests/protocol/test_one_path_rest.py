"""The protocol is the only path (#25) for chrF, GLEU, METEOR, CIDEr and the COCO suite: each public function is its
family's ``compute``. For every variant and several option values, on a few real WMT22 segments, the result's
``statistics`` is the :class:`~ngrameval.Statistics` that ``ngrameval.statistics`` gives (rows, outputs, signature),
the family scores it as the result's score, and the per-segment parts are its rows scored alone; replacing the
family's ``statistics_and_seen`` changes what the public function returns (there is no second path), and the
statistics never call the public function. A seeded random search checks the public functions against sacrebleu's
chrF and NLTK's GLEU on the same path."""

import numpy as np
import pytest
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
from sacrebleu.metrics import CHRF

import ngrameval
from ngrameval.metric import Statistics, get_family
from ngrameval.metrics.cider import DocumentFrequency
from tests.data import assert_close, wmt22_slice
from tests.parity.test_chrf_gleu_random import random_corpus
from tests.search import cases

SEGMENTS = 4
# The first two segments' references: another corpus's document frequencies for CIDEr's idf option.
_TABLE_REFERENCES = [["the cat sat on the mat", "a cat is sitting"], ["A dog barks.", "the dog is barking"]]
CASES = [
    ("chrf", {}),
    ("chrf", {"word_order": 2, "beta": 1}),
    ("chrf", {"eps_smoothing": True, "lowercase": True, "whitespace": True}),
    ("chrf", {"variant": "nltk"}),
    ("chrf", {"variant": "nltk", "min_len": 2, "max_len": 5, "ignore_whitespace": False}),
    ("gleu", {}),
    ("gleu", {"variant": "google_bleu"}),
    ("gleu", {"min_len": 2, "max_len": 3, "tokenize": "13a"}),
    ("meteor", {}),
    ("meteor", {"task": "adq", "modules": ["exact", "stem"], "paraphrase_table": False}),
    ("meteor", {"parameters": [0.5, 1.0, 0.3, 0.6], "normalization": "lower"}),
    ("meteor", {"variant": "nltk"}),
    ("meteor", {"variant": "nltk", "tokenize": "whitespace", "alpha": 0.8, "beta": 2.0, "gamma": 0.4}),
    ("cider", {}),
    ("cider", {"variant": "cider"}),
    ("cider", {"max_order": 2, "sigma": 3.0, "tokenize": "13a", "lowercase": True}),
    ("cider", {"idf": "table"}),
    ("coco_caption", {}),
    ("coco_caption", {"tokenize": "none", "metrics": ("cider", "rouge_l", "bleu")}),
]


def _params():
    """The cases; those that run METEOR 1.5 marked slow (its first call in a process loads the jar's tables)."""

    def meteor15(metric, options):
        return options.get("variant", "meteor15") == "meteor15" and (
            metric == "meteor" or (metric == "coco_caption" and "meteor" in options.get("metrics", ("meteor",)))
        )

    return [
        pytest.param(
            metric, options, id=f"{metric}-{options}", marks=[pytest.mark.slow] if meteor15(metric, options) else []
        )
        for metric, options in CASES
    ]


@pytest.fixture(scope="module")
def corpus(shared):
    """(predictions, two references per segment) of the first WMT22 de-en segments of a system."""
    return wmt22_slice(shared, "de-en", "Online-B", SEGMENTS)


def _inputs(corpus, metric, options):
    """The text and the options of a case (NLTK's chrF takes one reference; a table stands for idf="table")."""
    predictions, references = corpus
    if (metric, options.get("variant")) == ("chrf", "nltk"):
        references = [group[:1] for group in references]
    if options.get("idf") == "table":
        options = {**options, "idf": DocumentFrequency.from_references(_TABLE_REFERENCES)}
    return predictions, references, options


def _scores(metric, result):
    """The result's corpus scores, in the order of its family's outputs."""
    return list(result.scores.values()) if metric == "coco_caption" else [result.score]


@pytest.mark.parametrize("metric, options", _params())
def test_result_statistics_are_the_protocols(corpus, metric, options):
    predictions, references, options = _inputs(corpus, metric, options)
    family = get_family(metric)
    result = getattr(ngrameval, metric)(predictions, references, **options, sentence_level=True)
    stats = result.statistics
    assert isinstance(stats, Statistics)
    expected = ngrameval.statistics(metric, predictions, references, **options)
    assert stats.rows.tolist() == expected.rows.tolist()
    assert (stats.outputs, stats.signature) == (expected.outputs, expected.signature)
    assert family.score(stats)[0].tolist() == _scores(metric, result)
    # The per-segment parts are the rows scored alone.
    segments = family.segment_scores(stats)
    if metric == "coco_caption":
        assert [result.per_item[name] for name in stats.outputs] == segments.T.tolist()
    else:
        assert result.sentence_scores == segments[:, 0].tolist()


@pytest.mark.parametrize("metric, options", _params())
def test_the_public_function_is_the_familys_compute(corpus, metric, options, monkeypatch):
    """The public function scores what the family's ``statistics_and_seen`` gives: the first segment alone here."""
    predictions, references, options = _inputs(corpus, metric, options)
    family = get_family(metric)
    given = type(family).statistics_and_seen
    first: list[Statistics] = []

    def first_segment(self, *args, **kwargs):
        stats, seen = given(self, *args, **kwargs)
        first.append(stats.take([0]))
        return first[-1], seen

    monkeypatch.setattr(type(family), "statistics_and_seen", first_segment)
    result = getattr(ngrameval, metric)(predictions, references, **options)
    assert len(first) == 1 and result.statistics is first[0]
    assert _scores(metric, result) == family.score(first[0])[0].tolist()
    monkeypatch.undo()
    assert _scores(metric, result) != _scores(metric, getattr(ngrameval, metric)(predictions, references, **options))


@pytest.mark.parametrize("metric", ["chrf", "gleu", "meteor", "cider", "coco_caption"])
def test_statistics_never_call_a_public_function(corpus, metric, monkeypatch):
    predictions, references = corpus
    expected = ngrameval.statistics(metric, predictions, references)

    def refused(*args, **kwargs):
        raise AssertionError("a family's statistics called a public metric function")

    for module, name in [
        ("chrf", "chrf"),
        ("gleu", "gleu"),
        ("meteor", "meteor"),
        ("cider", "cider"),
        ("bleu", "bleu"),
    ]:
        monkeypatch.setattr(f"ngrameval.metrics.{module}.{name}", refused)
    assert ngrameval.statistics(metric, predictions, references).rows.tolist() == expected.rows.tolist()


@pytest.mark.parametrize("seed", range(cases(2)))
def test_random_corpora_against_the_peers(seed):
    """Seeded random corpora (tests/parity/test_chrf_gleu_random.py's texts): chrF (corpus, sentences, and from the
    result's statistics) against sacrebleu's, GLEU against NLTK's."""
    rng = np.random.default_rng(1000 + seed)
    for _ in range(10):
        predictions, references = random_corpus(rng, 2)
        word_order = int(rng.integers(0, 3))
        result = ngrameval.chrf(predictions, references, word_order=word_order, sentence_level=True)
        peer = CHRF(word_order=word_order)
        streams = [list(stream) for stream in zip(*references)]
        assert_close(result.chrf * 100, peer.corpus_score(predictions, streams).score, rel=1e-12, what="chrF")
        assert_close(
            float(get_family("chrf").score(result.statistics)[0, 0]) * 100,
            peer.corpus_score(predictions, streams).score,
            rel=1e-12,
            what="chrF of the statistics",
        )
        assert_close(
            [s * 100 for s in result.sentence_scores],
            [peer.sentence_score(h, group).score for h, group in zip(predictions, references)],
            rel=1e-12,
            what="sentence chrF",
        )
        tokens = [[r.split() for r in group] for group in references]
        hypotheses = [p.split() for p in predictions]
        result = ngrameval.gleu(predictions, references, sentence_level=True)
        assert_close(
            [result.gleu] + result.sentence_scores,
            [corpus_gleu(tokens, hypotheses)] + [sentence_gleu(group, h) for group, h in zip(tokens, hypotheses)],
            rel=1e-12,
            what="GLEU",
        )
