"""ROUGE against the seed documents (shared/conformance/documents.json), the worked examples of
Lin (2004), "ROUGE: A Package for Automatic Evaluation of Summaries", and ROUGE-1.5.5's stop word
list; every bad ROUGE option and its message; the dispatch to the rouge155 variant."""

import importlib
from collections import Counter

import numpy as np
import pytest

import ngrameval
from ngrameval.engine.lcs import lcs_positions, wlcs, wlcs_union_mask
from ngrameval.metrics import rouge155
from ngrameval.metrics.rouge155 import load_stopwords
from tests import search
from tests.data import load_json, read_lines

rouge_module = importlib.import_module("ngrameval.metrics.rouge")

DOCUMENTS = "conformance/documents.json"


def overlap_counts(predictions, references, rouge_types):
    """The hits and totals per (type, prediction, reference) that ROUGE's statistics are ratios of: what its
    family saw while counting them."""
    return (
        ngrameval.get_family("rouge")
        .statistics_and_seen(predictions, references, {}, rouge_types=rouge_types)[1]
        .overlaps
    )


@pytest.fixture(scope="module")
def cases(shared):
    return {case["id"]: case for case in load_json(shared, DOCUMENTS)["cases"]}


def test_skip_bigrams_of_the_document(cases):
    case = cases["rouge-s-skip-bigrams"]
    pairs = ngrameval.skip_bigrams(case["prediction"].split())
    assert [" ".join(pair) for pair in pairs] == case["expected"]["skip_bigrams"]


def test_skip_bigrams_of_the_document_score_rouge_s_one(cases):
    prediction = cases["rouge-s-skip-bigrams"]["prediction"]
    result = ngrameval.rouge([prediction], [prediction], ["rougeS*", "rougeSU*", "rougeS4"])
    assert result.fmeasure == {"rougeS*": 1.0, "rougeSU*": 1.0, "rougeS4": 1.0}
    pairs = len(cases["rouge-s-skip-bigrams"]["expected"]["skip_bigrams"])
    assert overlap_counts([prediction], [prediction], ["rougeS*"]).prediction_total[0, 0, 0] == pairs


# Lin (2004), section 3.1.1 and section 5 (ROUGE-S): S1 is the reference.
S1 = "police killed the gunman"
S2 = "police kill the gunman"
S3 = "the gunman kill police"
S4 = "the gunman police killed"


def test_lin_2004_rouge_l_example():
    # "S2 has a ROUGE-L score of 3/4 = 0.75 and S3 has a ROUGE-L score of 2/4 = 0.5, with beta = 1."
    result = ngrameval.rouge([S2, S3], [S1, S1], ["rougeL"], use_aggregator=False)
    assert result.fmeasure["rougeL"] == [0.75, 0.5]


def test_lin_2004_rouge_s_example():
    # "S2 has a ROUGE-S score of 0.5, S3 a score of 0.167 and S4 a score of 0.333" (3/6, 1/6, 2/6).
    result = ngrameval.rouge([S2, S3, S4], [S1, S1, S1], ["rougeS*"], use_aggregator=False)
    assert result.fmeasure["rougeS*"] == [3 / 6, 1 / 6, 2 / 6]


def test_lin_2004_rouge_w_example():
    # Section 3.3: X = A B C D E F G; Y1 = A B C D H I K has four consecutive matches, Y2 = A H B K C I D
    # four separate ones; with f(k) = k^2, WLCS(X, Y1) = 4^2 and WLCS(X, Y2) = 4 * 1^2.
    x, y1, y2 = "A B C D E F G".split(), "A B C D H I K".split(), "A H B K C I D".split()
    assert wlcs(x, y1, 2.0) == 16.0
    assert wlcs(x, y2, 2.0) == 4.0
    result = ngrameval.rouge(
        [" ".join(y1), " ".join(y2)], [" ".join(x)] * 2, ["rougeW", "rougeL"], w=2.0, use_aggregator=False
    )
    # R = f^-1(WLCS / f(m)) = sqrt(16 / 49) and sqrt(4 / 49); ROUGE-L cannot tell them apart.
    assert result.recall["rougeW"] == [(16 / 49) ** 0.5, (4 / 49) ** 0.5]
    assert result.recall["rougeL"] == [4 / 7, 4 / 7]


def test_wlcs_positions_follow_rouge_155_tie_rule():
    # Equal values go up (drop a token of the first sequence): the last "a" of x is marked.
    assert wlcs("a a".split(), "a".split(), 1.2) == 1.0
    assert wlcs_union_mask(np.array([0, 0]), [0, 2], np.array([0]), [0, 1], [0], [0], 1.2).tolist() == [False, True]
    assert lcs_positions("a a".split(), "a".split()) == [1]


def test_rouge_su_counts_unigrams_as_rouge_155():
    # ROUGE-1.5.5's createSkipBigram adds the unigrams of every token but the last.
    tokens = "cat in the hat".split()
    assert ngrameval.skip_bigrams(tokens, distance=0, unigrams=True) == [
        ("cat",),
        ("cat", "in"),
        ("in",),
        ("in", "the"),
        ("the",),
        ("the", "hat"),
    ]
    stats = overlap_counts(["cat in the hat"], ["the cat"], ["rougeSU*", "rougeSU1", "rougeS1"])
    assert stats.prediction_total[:, 0, 0].tolist() == [6 + 3, 5 + 3, 5]
    assert stats.reference_total[:, 0, 0].tolist() == [1 + 1, 1 + 1, 1]


def _clipped(a, b):
    return sum((Counter(a) & Counter(b)).values())


@pytest.mark.parametrize(
    "rouge_type,distance,unigrams",
    [("rougeS4", 4, False), ("rougeS*", None, False), ("rougeSU2", 2, True), ("rougeSU*", None, True)],
)
def test_skip_bigram_scores_are_clipped_counts(rouge_type, distance, unigrams):
    rng = np.random.default_rng(11)
    words = "a b c d e f".split()
    for corpus in range(search.cases(1)):  # corpora drawn one after the other
        predictions = [" ".join(rng.choice(words, rng.integers(0, 15))) for _ in range(60)]
        references = [
            [" ".join(rng.choice(words, rng.integers(0, 15))) for _ in range(rng.integers(1, 3))] for _ in predictions
        ]
        stats = overlap_counts(predictions, references, [rouge_type])
        for s, (prediction, refs) in enumerate(zip(predictions, references)):
            hyp = ngrameval.skip_bigrams(prediction.split(), distance, unigrams)
            for k, reference in enumerate(refs):
                ref = ngrameval.skip_bigrams(reference.split(), distance, unigrams)
                assert stats.hits[0, s, k] == _clipped(hyp, ref), (corpus, s, k)
                assert stats.prediction_total[0, s, k] == len(hyp)
                assert stats.reference_total[0, s, k] == len(ref)


def test_stop_words_are_rouge_155s_list(shared):
    listed = read_lines(shared("data/rouge-1.5.5-sample/data/smart_common_words.txt"))
    assert load_stopwords() == {word.strip() for word in listed if word.strip()}
    result = ngrameval.rouge(["the cat is on the mat"], ["a cat was on a mat"], ["rouge1"], remove_stopwords=True)
    assert result.fmeasure["rouge1"] == 1.0  # "cat" and "mat" are all that is left


def test_alpha_weights_recall_as_rouge_155():
    # P = 1/2, R = 1/4: F = P R / ((1 - alpha) P + alpha R).
    for alpha in (0.0, 0.25, 0.5, 0.9, 1.0):
        result = ngrameval.rouge(["a b"], ["a c d e"], ["rouge1"], alpha=alpha)
        assert result.fmeasure["rouge1"] == (0.5 * 0.25) / ((1 - alpha) * 0.5 + alpha * 0.25)


def test_bootstrap_is_seeded_and_brackets_the_mean():
    rng = np.random.default_rng(0)
    words = "a b c d e f g h".split()
    predictions = [" ".join(rng.choice(words, 8)) for _ in range(50)]
    references = [" ".join(rng.choice(words, 8)) for _ in range(50)]
    first = ngrameval.rouge(predictions, references, ["rouge1"], bootstrap={"n_samples": 300, "seed": 4})
    again = ngrameval.rouge(predictions, references, ["rouge1"], bootstrap={"n_samples": 300, "seed": 4})
    assert first.intervals == again.intervals
    for measure in ("precision", "recall", "fmeasure"):
        bounds = first.intervals["rouge1"][measure]
        assert bounds["low"] <= getattr(first, measure)["rouge1"] <= bounds["high"]
        assert bounds["low"] <= bounds["mid"] <= bounds["high"]
        assert first.as_dict()[f"rouge1_{measure}_low"] == bounds["low"]


def test_result_as_dict_keys():
    result = ngrameval.rouge(["a b"], ["a b c"], ["rouge1", "rougeLsum"])
    assert list(result.as_dict()) == [
        "rouge1",
        "rouge1_precision",
        "rouge1_recall",
        "rouge1_fmeasure",
        "rougeLsum",
        "rougeLsum_precision",
        "rougeLsum_recall",
        "rougeLsum_fmeasure",
        "signature",
    ]
    assert result["rouge1"] == result.fmeasure["rouge1"] == 0.8
    per_prediction = ngrameval.rouge(["a b", "c"], ["a b c", "c"], ["rouge1"], use_aggregator=False)
    assert per_prediction.as_dict()["rouge1"] == [0.8, 1.0]


# --------------------------------------------------------------------------- rouge155 dispatch


def test_rouge155_variant_is_called_with_the_options(monkeypatch):
    calls = []

    def score(
        predictions,
        references,
        rouge_types,
        use_stemmer,
        remove_stopwords,
        alpha,
        multi_ref,
        w,
        length_limit_words,
        length_limit_bytes,
    ):
        calls.append(
            dict(
                predictions=predictions,
                references=references,
                rouge_types=rouge_types,
                use_stemmer=use_stemmer,
                remove_stopwords=remove_stopwords,
                alpha=alpha,
                multi_ref=multi_ref,
                w=w,
                length_limit_words=length_limit_words,
                length_limit_bytes=length_limit_bytes,
            )
        )
        return {t: np.tile([0.5, 0.25, 1 / 3], (len(predictions), 1)) for t in rouge_types}

    monkeypatch.setattr(rouge155, "score", score)
    result = ngrameval.rouge(
        ["a b", "c"],
        ["a", ["c", "d"]],
        ["rouge1", "rougeW"],
        variant="rouge155",
        use_stemmer=True,
        remove_stopwords=True,
        alpha=0.8,
        multi_ref="pooled",
        w=1.5,
        limit_words=100,
        aggregate="mean",
        bootstrap={"seed": 1, "n_samples": 20},
    )
    assert calls == [
        dict(
            predictions=["a b", "c"],
            references=[["a"], ["c", "d"]],
            rouge_types=["rouge1", "rougeW"],
            use_stemmer=True,
            remove_stopwords=True,
            alpha=0.8,
            multi_ref="pooled",
            w=1.5,
            length_limit_words=100,
            length_limit_bytes=None,
        )
    ]
    assert result.precision == {"rouge1": 0.5, "rougeW": 0.5}
    assert result.intervals["rougeW"]["recall"] == {"low": 0.25, "mid": 0.25, "high": 0.25}
    assert {"variant:rouge155", "limit_words:100", "avg:mean"} <= set(result.signature.split("|"))


def test_rouge155_aggregate_is_the_printed_bootstrap_average():
    """variant="rouge155" aggregates as ROUGE-1.5.5.pl prints (rouge155.bootstrap of the per-prediction rows,
    keyed "<eval id>.1" as pyrouge writes them; the Perl parity tests compare with the script itself);
    aggregate="mean" is the plain mean; eval_ids reorder the bootstrap."""
    rng = np.random.default_rng(3)
    words = "a b c d e f g h".split()
    predictions = [" ".join(rng.choice(words, 6)) for _ in range(12)]
    references = [" ".join(rng.choice(words, 6)) for _ in range(12)]
    rows = ngrameval.rouge(predictions, references, ["rouge1"], variant="rouge155", use_aggregator=False).scores[0]
    for eval_ids in (None, list(range(12, 0, -1)), [f"d{i}" for i in range(12)]):
        keys = [f"{i}.1" for i in (eval_ids or range(1, 13))]
        printed = rouge155.bootstrap(rows, keys)
        result = ngrameval.rouge(predictions, references, ["rouge1"], variant="rouge155", eval_ids=eval_ids)
        for measure, name in (("precision", "precision"), ("recall", "recall"), ("fmeasure", "f")):
            average, low, high = printed[name]
            assert getattr(result, measure)["rouge1"] == average
            assert result.intervals["rouge1"][measure] == {"low": low, "high": high}
        assert {"avg:bootstrap", "r:1000", "c:0.95"} <= set(result.signature.split("|"))
    mean = ngrameval.rouge(predictions, references, ["rouge1"], variant="rouge155", aggregate="mean")
    assert mean.recall["rouge1"] == rows[:, 1].mean() and mean.intervals is None
    few = ngrameval.rouge(
        predictions, references, ["rouge1"], variant="rouge155", bootstrap={"n_samples": 50, "confidence": 0.9}
    )
    assert few.recall["rouge1"] == rouge155.bootstrap(rows, [f"{i}.1" for i in range(1, 13)], 50, 90.0)["recall"][0]
    assert "r:50" in few.signature.split("|")


def test_eval_ids_must_be_distinct():
    with pytest.raises(ValueError, match=r"eval_ids\[1\] repeats eval_ids\[0\] \('1'\)"):
        ngrameval.rouge(["a", "b"], ["a", "b"], variant="rouge155", eval_ids=[1, "1"])


# --------------------------------------------------------------------------- bad input

BAD_OPTIONS = [
    (dict(rouge_types=["rouge0"]), "n must be a positive integer"),
    (dict(rouge_types=["rouge01"]), "n must be a positive integer"),
    (dict(rouge_types=["rougeS0"]), "skip distance must be a positive integer"),
    (dict(rouge_types=["rougeSU0"]), "skip distance must be a positive integer"),
    (dict(rouge_types=["rougeS"]), "unknown rouge type 'rougeS'; valid forms: rouge1"),
    (dict(rouge_types=["rougeX"]), "unknown rouge type 'rougeX'; valid forms: rouge1 .. rouge100"),
    # Orders and skip distances are bounded: rouge10000000000 would run for ever.
    (dict(rouge_types=["rouge10000000000"]), "rouge10000000000'?: n must be an integer from 1 to 100"),
    (dict(rouge_types=["rouge101"]), "n must be an integer from 1 to 100, got 101"),
    (dict(rouge_types=["rouge" + "9" * 5000]), "n must be an integer from 1 to 100, got a 5000-digit number"),
    (dict(rouge_types=["rougeSU1000001"]), "skip distance must be a positive integer up to 1000000"),
    (dict(rouge_types=["ROUGE1"]), "unknown rouge type 'ROUGE1'"),
    (dict(rouge_types=["rougeS-1"]), "unknown rouge type 'rougeS-1'"),
    (dict(rouge_types=[1]), "rouge types must be strings"),
    (dict(rouge_types=[]), "rouge_types must be a non-empty list"),
    (dict(variant="pyrouge"), "unknown variant 'pyrouge'; valid values: 'rouge_score', 'rouge155'"),
    (dict(multi_ref="average"), "unknown multi_ref 'average'; valid values: 'best', 'pooled'"),
    (dict(alpha=1.5), r"alpha must be a finite number in \[0, 1\], got 1.5"),
    (dict(alpha=-0.1), r"alpha must be a finite number in \[0, 1\]"),
    (dict(alpha="0.5"), r"alpha must be a finite number in \[0, 1\]"),
    (dict(alpha=float("nan")), r"alpha must be a finite number in \[0, 1\], got nan"),
    (dict(w=0.5), "w must be a finite number >= 1"),
    (dict(w=float("inf")), "w must be a finite number >= 1, got inf"),
    (dict(variant="rouge155", w=float("nan")), "w must be a finite number >= 1, got nan"),
    (dict(use_stemmer="yes"), "use_stemmer must be True or False"),
    (dict(use_stemmer="no"), "use_stemmer must be True or False, got 'no'"),
    (dict(variant="rouge155", remove_stopwords="no"), "remove_stopwords must be True or False, got 'no'"),
    (dict(use_aggregator="yes"), "use_aggregator must be True or False"),  # None: not given (an alias)
    (dict(tokenizer="13a"), "unknown tokenizer '13a'; valid values: 'default', 'rouge_score', 'whitespace'"),
    (dict(tokenizer=str.split, use_stemmer=True), "use_stemmer=True works with the named tokenizers only"),
    (dict(tokenizer=lambda text: text), "the tokenizer must return a list of strings"),
    (dict(bootstrap={"samples": 10}), r"unknown bootstrap options \['samples'\]"),
    (dict(bootstrap={"n_samples": 0}), "bootstrap n_samples must be an integer from 1 to 100000, got 0"),
    (dict(bootstrap={"n_samples": 10**9}), "bootstrap n_samples must be an integer from 1 to 100000"),
    (dict(bootstrap={"confidence": 2}), r"bootstrap confidence must be a finite number in \[0, 1\]"),
    (dict(bootstrap={"confidence": float("nan")}), r"bootstrap confidence must be a finite number in \[0, 1\]"),
    (dict(variant="rouge155", bootstrap={"seed": 3}), r"bootstrap seed: ROUGE-1.5.5.pl seeds its i-th resample"),
    (dict(aggregate="median"), "unknown aggregate 'median'; valid values: 'mean', 'bootstrap'"),
    (dict(aggregate="bootstrap"), "aggregate='bootstrap' .* needs variant='rouge155'"),
    (dict(eval_ids=[1]), "eval_ids .* needs variant='rouge155' with aggregate='bootstrap'"),
    (dict(variant="rouge155", aggregate="mean", eval_ids=[1]), "eval_ids .* needs variant='rouge155' with agg"),
    (dict(variant="rouge155", eval_ids=[1, 2]), "eval_ids has 2 ids for 1 predictions"),
    (dict(variant="rouge155", eval_ids="1"), "eval_ids must be a list with one evaluation id"),
    (dict(variant="rouge155", eval_ids=[1.0]), r"eval_ids\[0\] must be an integer or a non-empty string, got 1.0"),
    (dict(variant="rouge155", eval_ids=[True]), r"eval_ids\[0\] must be an integer or a non-empty string"),
    (dict(variant="rouge155", eval_ids=[""]), r"eval_ids\[0\] must be an integer or a non-empty string"),
    (dict(bootstrap="yes"), "bootstrap must be None, True or a dict"),
    (dict(limit_words=10), "limit_words .* needs variant='rouge155'"),
    (dict(variant="rouge155", limit_bytes=0), "limit_bytes must be a positive integer"),
    (dict(variant="rouge155", limit_words=5, limit_bytes=5), "give limit_words or limit_bytes, not both"),
    (dict(variant="rouge155", tokenizer="whitespace"), "uses ROUGE-1.5.5's own tokenizer"),
    (dict(length=3), r"unknown options for rouge: length; valid options: "),
]


@pytest.mark.parametrize("options,message", BAD_OPTIONS, ids=[str(i) for i in range(len(BAD_OPTIONS))])
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        ngrameval.rouge(["the cat sat"], ["the cat sat down"], **options)


@pytest.mark.parametrize(
    "predictions,references,message",
    [
        (["a"], ["a", "b"], "predictions and references differ in length: 1 predictions, 2 references"),
        ([], [], "predictions and references are empty"),
        (["a"], [[]], r"references\[0\] is an empty list"),
        ("a", ["a"], "predictions must be a list"),
        ([None], ["a"], r"predictions\[0\] is None"),
    ],
)
def test_bad_corpus(predictions, references, message):
    with pytest.raises(ValueError, match=message):
        ngrameval.rouge(predictions, references)


def test_rouge155_takes_strings_only():
    with pytest.raises(ValueError, match="variant='rouge155' takes strings"):
        ngrameval.rouge([["a", "b"]], [[["a"]]], variant="rouge155")


def test_rouge_type_parsing():
    parse = rouge_module.parse_rouge_type
    assert parse("rouge12") == rouge_module.RougeType("rouge12", "n", 12)
    assert parse("rougeSU*") == rouge_module.RougeType("rougeSU*", "SU", None)
    assert parse("rougeS4") == rouge_module.RougeType("rougeS4", "S", 4)
    result = ngrameval.rouge(["a b c"], ["a b c"], "rouge12")
    assert result.fmeasure == {"rouge12": 0.0}  # no 12-grams: nothing to match, as rouge-score
