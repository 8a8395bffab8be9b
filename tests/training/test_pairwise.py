"""ngrameval.pairwise, aggregate_chrf and mbr against the peers, run in each test: fastChrF 0.2.1's
pairwise_chrf and aggregate_chrf, sacrebleu 2.6.0's sentence_chrf / CHRF, sentence_bleu and sentence_ter,
rouge-score 0.1.2 and NLTK 3.10.4's meteor_score for the generic path; and every fast path against the
generic path (each pair a segment of the metric's own protocol), exactly.

Candidates: WMT22 de-en outputs of one source segment (9 systems, 2 references) with perturbed copies, as
in MBR decoding; made-up edge cases (empty, punctuation only, repeats, case); and a seeded random search
over short strings of a small alphabet (many shared and repeated n-grams).
"""

from __future__ import annotations

import random

import fastchrf
import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

import ngrameval
from ngrameval.metric import get_family, metric_names
from ngrameval.training import pairwise as pairwise_module
from tests.data import wmt22_references, wmt22_system
from tests.search import cases

DE_EN_SYSTEMS = (
    "JDExploreAcademy",
    "LT22",
    "Lan-Bridge",
    "Online-A",
    "Online-B",
    "Online-G",
    "Online-W",
    "Online-Y",
    "PROMT",
)
EDGE = [
    "the cat sat on the mat.",
    "The cat sat on the mat.",
    "",
    "   ",
    "!!",
    "a a a a a a a a",
    "a a a b",
    "(hi) there.",
    "the cat sat on the mat.",
    "mat the on sat cat the",
    "x",
]


def _perturbed(real, count, seed):
    rng = random.Random(seed)
    items = list(real)
    while len(items) < count:
        words = rng.choice(real).split()
        kept = [w for w in words if rng.random() >= 0.15] or words[:1]
        for k in range(len(kept) - 1):
            if rng.random() < 0.1:
                kept[k], kept[k + 1] = kept[k + 1], kept[k]
        items.append(" ".join(kept))
    return items


@pytest.fixture(scope="module")
def candidates(shared):
    """Per source segment (three of WMT22 de-en), 9 system outputs, 2 references and perturbed copies: 16."""
    outputs = [wmt22_system(shared, "de-en", system) for system in DE_EN_SYSTEMS]
    references = wmt22_references(shared, "de-en")
    return [_perturbed([stream[i] for stream in outputs + references], 16, seed=i) for i in (3, 40, 77)]


def _random_strings(rng, count):
    alphabet = ["a", "b", "ab", "ba", "c", "A", ".", ",", "é", "ß", "aa"]
    return [
        "".join(rng.choice(alphabet) + (" " if rng.random() < 0.4 else "") for _ in range(rng.randint(0, 9)))
        for _ in range(count)
    ]


def _sacrebleu_matrix(scorer, hypotheses, references):
    return np.array([[scorer.sentence_score(h, [r]).score / 100 for r in references] for h in hypotheses])


def _assert_close(ours, peer, rel=1e-12):
    ours, peer = np.asarray(ours, np.float64), np.asarray(peer, np.float64)
    assert ours.shape == peer.shape
    np.testing.assert_allclose(ours, peer, rtol=rel, atol=1e-14)


# --------------------------------------------------------------------------- chrF

CHRF_OPTIONS = [
    ({}, {}),
    ({"char_order": 4, "beta": 1}, {"char_order": 4, "beta": 1.0}),
    ({"eps_smoothing": True}, {"eps_smoothing": True}),
    ({"whitespace": True}, {"remove_whitespace": False}),
]


@pytest.mark.parametrize("options, fastchrf_options", CHRF_OPTIONS)
def test_chrf_equals_fastchrf_and_sacrebleu(candidates, options, fastchrf_options):
    sacrebleu_options = {
        "char_order": options.get("char_order", 6),
        "beta": options.get("beta", 2),
        "whitespace": options.get("whitespace", False),
        "eps_smoothing": options.get("eps_smoothing", False),
    }
    references = EDGE + candidates[1][:5]
    for hypotheses in (candidates[0], EDGE):
        matrix = ngrameval.pairwise("chrf", hypotheses, references, **options)
        peer = np.array(fastchrf.pairwise_chrf([hypotheses], [references], **fastchrf_options)[0]) / 100
        _assert_close(matrix, peer)
        _assert_close(matrix, _sacrebleu_matrix(CHRF(**sacrebleu_options), hypotheses, references))


@pytest.mark.parametrize(
    "options", [{"word_order": 2}, {"word_order": 1, "lowercase": True}, {"lowercase": True, "char_order": 3}]
)
def test_chrf_plus_plus_and_lowercase_equal_sacrebleu(candidates, options):
    for hypotheses, references in ((candidates[2], None), (EDGE, candidates[0][:6] + EDGE)):
        matrix = ngrameval.pairwise("chrf", hypotheses, references, **options)
        _assert_close(matrix, _sacrebleu_matrix(CHRF(**options), hypotheses, references or hypotheses))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"word_order": 2},
        {"variant": "nltk"},
        {"variant": "nltk", "min_char_order": 2, "whitespace": True},
        {"eps_smoothing": True, "lowercase": True},
    ],
)
def test_chrf_fast_path_equals_generic_path(candidates, options):
    for hypotheses, references in ((candidates[0], None), (EDGE, candidates[1])):
        fast = ngrameval.pairwise("chrf", hypotheses, references, **options)
        assert np.array_equal(fast, ngrameval.pairwise("chrf", hypotheses, references, generic=True, **options))


def test_aggregate_chrf_equals_fastchrf(candidates):
    for options, fastchrf_options in CHRF_OPTIONS:
        for hypotheses, references in (
            (candidates[0], candidates[0]),
            (EDGE, candidates[1] + EDGE[:3]),
            (candidates[2], ["", ""]),
            (candidates[2][:3], [candidates[2][0]] * 3),
        ):
            ours = ngrameval.aggregate_chrf(hypotheses, references, **options)
            peer = np.array(fastchrf.aggregate_chrf([hypotheses], [references], **fastchrf_options)[0]) / 100
            _assert_close(ours, peer)
    batch = ngrameval.aggregate_chrf(candidates)
    peer = fastchrf.aggregate_chrf(candidates, candidates)
    for ours, theirs in zip(batch, peer):
        _assert_close(ours, np.array(theirs) / 100)


def test_aggregate_of_one_reference_is_the_pairwise_score(candidates):
    # (chrF++ has no peer with aggregation: with one reference, aggregation is the plain sentence score)
    for options in ({"word_order": 2}, {}):
        for reference in candidates[0][:3]:
            aggregated = ngrameval.aggregate_chrf(candidates[1], [reference], **options)
            assert np.array_equal(aggregated, ngrameval.pairwise("chrf", candidates[1], [reference], **options)[:, 0])


def test_random_search_against_fastchrf_and_sacrebleu():
    rng = random.Random(20240611)
    chrf, bleu = CHRF(), BLEU(effective_order=True, tokenize="none")
    for _ in range(cases(15)):
        hypotheses, references = _random_strings(rng, rng.randint(1, 7)), _random_strings(rng, rng.randint(1, 7))
        if rng.random() < 0.3:
            references = None
        refs = references or hypotheses
        order = rng.randint(1, 6)
        matrix = ngrameval.pairwise("chrf", hypotheses, references, char_order=order)
        _assert_close(matrix, np.array(fastchrf.pairwise_chrf([hypotheses], [refs], char_order=order)[0]) / 100)
        _assert_close(
            ngrameval.aggregate_chrf(hypotheses, references, char_order=order),
            np.array(fastchrf.aggregate_chrf([hypotheses], [refs], char_order=order)[0]) / 100,
        )
        _assert_close(ngrameval.pairwise("chrf", hypotheses, references), _sacrebleu_matrix(chrf, hypotheses, refs))
        _assert_close(
            ngrameval.pairwise("bleu", hypotheses, references, tokenize="none"),
            _sacrebleu_matrix(bleu, hypotheses, refs),
        )


# --------------------------------------------------------------------------- BLEU and TER


@pytest.mark.parametrize(
    "options, sacrebleu_options",
    [
        ({}, {}),
        ({"tokenize": "none", "smooth": "floor"}, {"tokenize": "none", "smooth_method": "floor"}),
        (
            {"lowercase": True, "smooth": "add-k", "max_order": 3},
            {"lowercase": True, "smooth_method": "add-k", "max_ngram_order": 3},
        ),
        ({"tokenize": "intl", "smooth": "none"}, {"tokenize": "intl", "smooth_method": "none"}),
    ],
)
def test_bleu_equals_sacrebleu_sentence_bleu(candidates, options, sacrebleu_options):
    scorer = BLEU(effective_order=True, **sacrebleu_options)
    for hypotheses, references in ((candidates[0], None), (EDGE, candidates[1][:6] + EDGE)):
        matrix = ngrameval.pairwise("bleu", hypotheses, references, **options)
        _assert_close(matrix, _sacrebleu_matrix(scorer, hypotheses, references or hypotheses))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "nltk", "smooth": "method7"},
        {"variant": "nltk", "smooth": "method4"},
        {"brevity_penalty": "average", "weights": [(0.5, 0.5), (0.25,) * 4], "max_order": 4, "variant": "nltk"},
        {"variant": "mteval"},
        {"variant": "coco", "weights": [(1,), (0.5, 0.5)]},
    ],
)
def test_bleu_fast_path_equals_generic_path(candidates, options):
    for hypotheses, references in ((candidates[1], None), (EDGE, candidates[2])):
        fast = ngrameval.pairwise("bleu", hypotheses, references, **options)
        assert np.array_equal(fast, ngrameval.pairwise("bleu", hypotheses, references, generic=True, **options))


def test_bleu_output_picks_a_weight_set(candidates):
    options = {"variant": "coco", "weights": [(1,), (0.5, 0.5)]}
    second = ngrameval.pairwise("bleu", candidates[0], output="bleu.2", **options)
    assert np.array_equal(second, ngrameval.pairwise("bleu", candidates[0], generic=True, output="bleu.2", **options))
    assert not np.array_equal(second, ngrameval.pairwise("bleu", candidates[0], **options))


@pytest.mark.parametrize(
    "options", [{}, {"normalized": True, "case_sensitive": True}, {"no_punct": True, "asian_support": True}]
)
def test_ter_equals_sacrebleu_sentence_ter_and_the_generic_path(candidates, options):
    scorer = TER(**options)
    for hypotheses, references in ((candidates[2][:10], None), (EDGE, candidates[0][:4] + EDGE[:4])):
        matrix = ngrameval.pairwise("ter", hypotheses, references, **options)
        _assert_close(matrix, _sacrebleu_matrix(scorer, hypotheses, references or hypotheses))
        assert np.array_equal(matrix, ngrameval.pairwise("ter", hypotheses, references, generic=True, **options))


def test_sacrebleu_sentence_functions(candidates):
    from sacrebleu import sentence_bleu, sentence_chrf, sentence_ter

    hypotheses, references = candidates[1][:8], candidates[1][4:12] + EDGE[:2]
    for metric, function in (("chrf", sentence_chrf), ("bleu", sentence_bleu), ("ter", sentence_ter)):
        peer = [[function(h, [r]).score / 100 for r in references] for h in hypotheses]
        _assert_close(ngrameval.pairwise(metric, hypotheses, references), peer)


# --------------------------------------------------------------------------- the generic path


def test_generic_path_rouge_equals_rouge_score(candidates):
    from rouge_score.rouge_scorer import RougeScorer

    hypotheses, references = candidates[0][:8], candidates[1][:5] + EDGE[:3]
    scorer = RougeScorer(["rouge1", "rouge2", "rougeL"])
    for output in ("rouge1", "rouge2", "rougeL", None):
        matrix = ngrameval.pairwise("rouge", hypotheses, references, output=output)
        peer = [[scorer.score(r, h)[output or "rouge1"].fmeasure for r in references] for h in hypotheses]
        _assert_close(matrix, peer)


@pytest.mark.slow  # (both WordNet readers load their files: about 10 s)
def test_generic_path_meteor_nltk_equals_nltk(candidates, tmp_path):
    import nltk
    from nltk.tokenize import word_tokenize
    from nltk.translate.meteor_score import meteor_score

    from tests.parity.test_meteor_nltk import nltk_wordnet_data, nltk_wordnet_reader

    saved = list(nltk.data.path)
    try:
        wordnet = nltk_wordnet_reader(nltk_wordnet_data(tmp_path))
        hypotheses, references = candidates[1][:4], candidates[2][:3]
        matrix = ngrameval.pairwise("meteor", hypotheses, references, variant="nltk")
        tokens = lambda line: word_tokenize(line, preserve_line=True)  # noqa: E731
        peer = [[meteor_score([tokens(r)], tokens(h), wordnet=wordnet) for r in references] for h in hypotheses]
        _assert_close(matrix, peer)
    finally:
        nltk.data.path[:] = saved


def test_every_metric_gives_each_pair_its_sentence_score():
    hypotheses, references = ["the cat sat on the mat", "a dog"], ["the cat sat", "a dog barks", "the mat"]
    for metric in ("chrf", "bleu", "ter", "gleu", "rouge", "nist"):
        matrix = ngrameval.pairwise(metric, hypotheses, references)
        for i, h in enumerate(hypotheses):
            for j, r in enumerate(references):
                scores, _ = ngrameval.metric.sentence_scores(metric, [h], [[r]])
                assert matrix[i, j] == scores[0, 0], (metric, i, j)


# --------------------------------------------------------------------------- batches, blocks, memory


def test_batches_are_the_sources_one_by_one(candidates):
    references = [c[:5] for c in candidates]
    for metric in ("chrf", "bleu", "ter"):
        batch = ngrameval.pairwise(metric, candidates, references)
        assert isinstance(batch, list) and len(batch) == len(candidates)
        for matrix, hypotheses, refs in zip(batch, candidates, references):
            assert np.array_equal(matrix, ngrameval.pairwise(metric, hypotheses, refs))
    ragged = [candidates[0], candidates[1][:3]]
    assert [m.shape for m in ngrameval.pairwise("chrf", ragged)] == [(16, 16), (3, 3)]


@pytest.mark.parametrize("metric", ["chrf", "bleu", "ter", "rouge"])
def test_blocks_give_the_same_matrix(candidates, metric, monkeypatch):
    whole = ngrameval.pairwise(metric, candidates[0])
    for block_rows in (1, 3, 7):
        assert np.array_equal(ngrameval.pairwise(metric, candidates[0], block_rows=block_rows), whole)
    # Dense blocks of a few level columns (the matrix products in pieces).
    monkeypatch.setattr(pairwise_module, "DENSE_ELEMENTS", 40)
    assert np.array_equal(ngrameval.pairwise(metric, candidates[0]), whole)


@pytest.mark.slow
def test_a_thousand_candidates_in_bounded_blocks(candidates, monkeypatch):
    pool = [c for group in candidates for c in group]
    many = [pool[i % len(pool)] + " " + "xyz"[i % 3] * (i % 5) for i in range(1024)]
    monkeypatch.setattr(pairwise_module, "BLOCK_PAIRS", 1 << 14)
    matrix = ngrameval.pairwise("chrf", many)
    assert matrix.shape == (1024, 1024)
    rng = np.random.default_rng(7)
    rows, cols = rng.integers(1024, size=20), rng.integers(1024, size=20)
    peer = fastchrf.pairwise_chrf([[many[i] for i in rows]], [[many[j] for j in cols]])[0]
    _assert_close(matrix[rows][:, cols], np.array(peer) / 100)


# --------------------------------------------------------------------------- MBR


def test_mbr_utilities_are_the_peers_mean_scores(candidates):
    results = ngrameval.mbr(candidates)
    for result, hypotheses, peer in zip(results, candidates, fastchrf.pairwise_chrf(candidates, candidates)):
        expected = np.array(peer).mean(axis=1) / 100  # every pseudo-reference, the candidate itself included
        _assert_close(result.utilities, expected)
        assert result.index == int(np.argmax(expected)) and result.best == hypotheses[result.index]
    aggregated = ngrameval.mbr(candidates[0], aggregate=True)
    expected = np.array(fastchrf.aggregate_chrf([candidates[0]], [candidates[0]])[0]) / 100
    _assert_close(aggregated.utilities, expected)
    assert aggregated.index == int(np.argmax(expected))


def test_mbr_with_ter_picks_the_fewest_edits(candidates):
    hypotheses = candidates[1][:8]
    result = ngrameval.mbr(hypotheses, metric="ter")
    expected = _sacrebleu_matrix(TER(), hypotheses, hypotheses).mean(axis=1)
    _assert_close(result.utilities, expected)
    assert result.index == int(np.argmin(expected))
    assert [get_family(name).lower_is_better for name in metric_names()].count(True) == 1
    assert get_family("ter").lower_is_better


def test_mbr_with_references_output_and_blocks(candidates):
    references = candidates[2][:5]
    result = ngrameval.mbr(candidates[0], references, metric="rouge", output="rougeL", block_rows=4)
    matrix = ngrameval.pairwise("rouge", candidates[0], references, output="rougeL")
    _assert_close(result.utilities, matrix.mean(axis=1))


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ngrameval.pairwise("chrf", []), "non-empty"),
        (lambda: ngrameval.pairwise("chrf", "a b"), "non-empty list"),
        (lambda: ngrameval.pairwise("chrf", ["a", 1]), r"hypotheses\[1\] must be a string"),
        (lambda: ngrameval.pairwise("chrf", [["a"], "b"]), "among lists"),
        (lambda: ngrameval.pairwise("chrf", [["a"], []]), r"hypotheses\[1\] is empty"),
        (lambda: ngrameval.pairwise("chrf", ["a"], []), "references is empty"),
        (lambda: ngrameval.pairwise("chrf", ["a"], "b"), "references must be a list"),
        (lambda: ngrameval.pairwise("chrf", [["a"], ["b"]], [["a"]]), "one list of strings per source"),
        (lambda: ngrameval.pairwise("chrf", [["a"], ["b"]], ["a", "b"]), r"references\[0\] must be a list"),
        (lambda: ngrameval.pairwise("chrf", [["a"]], [[None]]), r"references\[0\]\[0\] must be a string"),
        (lambda: ngrameval.pairwise("nope", ["a"]), "unknown metric"),
        (lambda: ngrameval.pairwise("chrf", ["a"], colour=1), "colour"),
        (lambda: ngrameval.pairwise("chrf", ["a"], char_order=0), "char_order"),
        (lambda: ngrameval.pairwise("chrf", ["a"], sentence_level=True), "sentence_level"),
        (lambda: ngrameval.pairwise("rouge", ["a"], output="rougeX"), "not one of rouge's outputs"),
        (lambda: ngrameval.pairwise("chrf", ["a"], block_rows=0), "block_rows"),
        (lambda: ngrameval.pairwise("chrf", ["a"], generic="yes"), "generic"),
        (lambda: ngrameval.aggregate_chrf(["a"], variant="nltk"), "sacrebleu"),
        (lambda: ngrameval.mbr(["a"], metric="bleu", aggregate=True), "aggregate=True"),
        (lambda: ngrameval.mbr(["a"], aggregate=1), "aggregate"),
    ],
)
def test_bad_input_is_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_columns_whose_key_sums_collide_are_kept_apart(candidates, monkeypatch):
    # Every string given the same random key: the sums of all columns of one size collide, and only the
    # entry-by-entry check keeps different columns apart.
    expected = {metric: ngrameval.pairwise(metric, candidates[0], candidates[1]) for metric in ("chrf", "bleu")}

    class SameKeys:
        def integers(self, low, high, size, dtype):
            return np.ones(size, dtype)

    monkeypatch.setattr(np.random, "default_rng", lambda seed: SameKeys())
    for metric, matrix in expected.items():
        assert np.array_equal(ngrameval.pairwise(metric, candidates[0], candidates[1]), matrix)
