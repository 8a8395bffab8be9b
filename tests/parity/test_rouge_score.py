"""ngrameval.rouge (variant "rouge_score") against google-research rouge-score 0.1.2, run in each test.

REALSumm: every system output of ``selected_docs_for_human_eval`` (35 outputs x 100 documents)
against its own reference, sentences one per line, rouge1-4, rougeL and rougeLsum, with and
without the stemmer; and the first 300 rows of ``realsumm_abs.scores.jsonl`` (their accented
words, e.g. "café", are where the default tokenizer once differed). The default tokenizer gives
rouge-score's tokens on Latin-script text (accented letters separate, as in rouge-score) and keeps
the words of other scripts, which rouge-score deletes: it must agree with rouge-score on every pair
without such words, and on any text once those words are dropped; ``tokenizer="rouge_score"`` on
every pair.
"""

import dataclasses
import json
import random

import numpy as np
import pytest
from rouge_score import rouge_scorer
from rouge_score import tokenize as rouge_score_tokenize

import ngrameval
from ngrameval.engine.lcs import lcs_length, lcs_lengths, lcs_positions, lcs_union_mask
from ngrameval.metrics.rouge import RougeTokenizer
from tests.data import Memoized, read_lines, realsumm, wmt22_slice, wmt22_system
from tests.search import cases

TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum"]
MEASURES = ("precision", "recall", "fmeasure")
TOLERANCE = 1e-12


def expected_array(scores, types):
    """rouge-score Score tuples -> (types, predictions, 3)."""
    return np.array([[[getattr(score[t], m) for m in MEASURES] for score in scores] for t in types])


def peer_scorer(types, use_stemmer):
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    if use_stemmer:
        scorer._tokenizer._stemmer = Memoized(scorer._tokenizer._stemmer, "stem")
    return scorer


def max_difference(got, expected, rows=None):
    difference = np.abs(np.asarray(got) - np.asarray(expected))
    return float(difference.max() if rows is None else difference[..., rows, :].max())


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "stemmed"])
def realsumm_run(shared, request):
    """(use_stemmer, predictions, references, rouge-score's scores as an array)."""
    _, predictions, references = realsumm(shared)
    scorer = peer_scorer(TYPES, request.param)
    expected = expected_array([scorer.score(r, p) for p, r in zip(predictions, references)], TYPES)
    return request.param, predictions, references, expected


@pytest.mark.slow
def test_realsumm_every_prediction_rouge_score_tokenizer(realsumm_run):
    stem, predictions, references, expected = realsumm_run
    result = ngrameval.rouge(
        predictions, references, TYPES, use_stemmer=stem, tokenizer="rouge_score", use_aggregator=False
    )
    assert result.scores.shape == expected.shape == (len(TYPES), 3500, 3)
    for i, rouge_type in enumerate(TYPES):
        assert max_difference(result.scores[i], expected[i]) <= TOLERANCE, rouge_type
    # The per-prediction lists are the same numbers.
    assert max_difference(result.fmeasure["rougeLsum"], expected[TYPES.index("rougeLsum"), :, 2]) <= TOLERANCE


def test_realsumm_default_tokenizer_every_prediction(realsumm_run):
    """REALSumm's non-ASCII characters (é, è, a combining acute, dashes, quotes, £) are all Latin or
    punctuation: the default gives rouge-score's numbers on every pair."""
    stem, predictions, references, expected = realsumm_run
    assert sum(not (p.isascii() and r.isascii()) for p, r in zip(predictions, references)) > 100
    result = ngrameval.rouge(predictions, references, TYPES, use_stemmer=stem, use_aggregator=False)
    for i, rouge_type in enumerate(TYPES):
        assert max_difference(result.scores[i], expected[i]) <= TOLERANCE, rouge_type


def _realsumm_scored_rows(shared, count):
    """The first ``count`` rows of realsumm_abs.scores.jsonl: (system summary, reference summary), their
    sentences (``<t> ... </t>``) one per line."""
    rows = [json.loads(line) for line in read_lines(shared("data/realsumm/realsumm_abs.scores.jsonl"))[:count]]

    def sentences(text):
        return "\n".join(
            part.replace("<t>", "").strip() for part in text.split("</t>") if part.replace("<t>", "").strip()
        )

    return [sentences(row["system_summary"]) for row in rows], [sentences(row["ref_summ"]) for row in rows]


def test_realsumm_scored_rows_default_variant(shared):
    """The default variant on the first 300 scored REALSumm summaries, with stemming: rouge-score's
    numbers on every summary (14 of them hold accented words, where non-ASCII letters once were kept)."""
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    predictions, references = _realsumm_scored_rows(shared, 300)
    assert sum(not p.isascii() or not r.isascii() for p, r in zip(predictions, references)) >= 14
    scorer = peer_scorer(types, True)
    expected = expected_array([scorer.score(r, p) for p, r in zip(predictions, references)], types)
    result = ngrameval.rouge(predictions, references, types, use_stemmer=True, use_aggregator=False)
    assert max_difference(result.scores, expected) <= TOLERANCE
    aggregated = ngrameval.rouge(predictions, references, types, use_stemmer=True)
    for i, rouge_type in enumerate(types):
        assert abs(aggregated.fmeasure[rouge_type] - expected[i, :, 2].mean()) <= TOLERANCE


def test_realsumm_aggregate_is_the_mean(realsumm_run):
    stem, predictions, references, expected = realsumm_run
    result = ngrameval.rouge(
        predictions, references, ["rouge1", "rougeLsum"], use_stemmer=stem, tokenizer="rouge_score"
    )
    for rouge_type in ("rouge1", "rougeLsum"):
        means = expected[TYPES.index(rouge_type)].mean(axis=0)
        assert abs(result.precision[rouge_type] - means[0]) <= TOLERANCE
        assert abs(result.recall[rouge_type] - means[1]) <= TOLERANCE
        assert abs(result.fmeasure[rouge_type] - means[2]) <= TOLERANCE
        assert result.as_dict()[rouge_type] == result.fmeasure[rouge_type]


def _multi_reference_corpus(shared, stop=300):
    """wmt22 de-en Online-B against references A and B, plus (every third segment) Online-A's
    output as a third "reference": 2 or 3 references per prediction."""
    hypotheses, references = wmt22_slice(shared, "de-en", "Online-B", stop)
    third = wmt22_system(shared, "de-en", "Online-A")[:stop]
    references = [refs + ([third[i]] if i % 3 == 0 else []) for i, refs in enumerate(references)]
    return hypotheses, references


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
def test_multi_reference_best(shared, stem):
    hypotheses, references = _multi_reference_corpus(shared)
    scorer = peer_scorer(TYPES, stem)
    expected = expected_array([scorer.score_multi(r, h) for h, r in zip(hypotheses, references)], TYPES)
    result = ngrameval.rouge(
        hypotheses, references, TYPES, use_stemmer=stem, use_aggregator=False, tokenizer="rouge_score"
    )
    assert {"refs:best", "nrefs:var"} <= set(result.signature.split("|"))
    assert max_difference(result.scores, expected) <= TOLERANCE
    ascii_rows = [i for i, (h, r) in enumerate(zip(hypotheses, references)) if h.isascii() and all(map(str.isascii, r))]
    assert len(ascii_rows) > 100
    result = ngrameval.rouge(hypotheses, references, TYPES, use_stemmer=stem, use_aggregator=False)
    assert max_difference(result.scores, expected, ascii_rows) <= TOLERANCE


def _pooled_expected(hypothesis, references, rouge_type, tokenizer):
    """ROUGE-1.5.5's -f A from rouge-score's own building blocks: hits and counts summed over the
    references, then P = hits / peer counts, R = hits / model counts, F1."""
    prediction = tokenizer.tokenize(hypothesis)
    hits = hyp_total = ref_total = 0
    for reference in references:
        target = tokenizer.tokenize(reference)
        if rouge_type == "rougeL":
            hits += rouge_scorer._lcs_table(target, prediction)[-1][-1] if target and prediction else 0
            hyp_total += len(prediction)
            ref_total += len(target)
        else:
            n = int(rouge_type[5:])
            target_ngrams = rouge_scorer._create_ngrams(target, n)
            prediction_ngrams = rouge_scorer._create_ngrams(prediction, n)
            hits += sum(min(count, prediction_ngrams[gram]) for gram, count in target_ngrams.items())
            hyp_total += sum(prediction_ngrams.values())
            ref_total += sum(target_ngrams.values())
    precision = hits / hyp_total if hyp_total else 0.0
    recall = hits / ref_total if ref_total else 0.0
    return precision, recall, (2 * precision * recall / (precision + recall) if precision + recall else 0.0)


def test_multi_reference_pooled(shared):
    hypotheses, references = _multi_reference_corpus(shared, stop=150)
    types = ["rouge1", "rouge2", "rougeL"]
    tokenizer = rouge_scorer.RougeScorer(types)._tokenizer
    expected = np.array([[_pooled_expected(h, r, t, tokenizer) for h, r in zip(hypotheses, references)] for t in types])
    result = ngrameval.rouge(
        hypotheses, references, types, multi_ref="pooled", use_aggregator=False, tokenizer="rouge_score"
    )
    assert max_difference(result.scores, expected) <= TOLERANCE


EDGE_CASES = [
    ("", "a b"),
    ("a b", ""),
    ("", ""),
    ("\n\n", "a b"),
    ("a b\n\nc", "c\n a"),
    (" \n ", " "),
    ("!!! ???", "..."),
    ("a\nb\nc", "c\nb\na"),
    ("the the the", "the"),
    ("x", "x"),
]


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
def test_empty_and_degenerate_texts(stem):
    predictions, references = zip(*EDGE_CASES)
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    expected = expected_array([scorer.score(r, p) for p, r in zip(predictions, references)], TYPES)
    result = ngrameval.rouge(list(predictions), list(references), TYPES, use_stemmer=stem, use_aggregator=False)
    assert max_difference(result.scores, expected) <= TOLERANCE


_ASCII_WORDS = (
    "The cat cats sat sitting on a mat mats, running runs ran dog's DOGS happily happy 2024 "
    'x-ray e.g. U.S. it\'s -- ... ; (quoted) "words" #tag @user 3.14 a1b2'
).split()
# Latin-script words rouge-score cuts at every letter outside [a-z0-9] (precomposed and combining
# accents, ligatures, ß, dotted İ, the Kelvin sign, fullwidth letters and digits, Roman numerals),
# with typographic punctuation and spaces.
_LATIN_WORDS = (
    "café CAFÉ cafe\u0301 naïve résumés RÉSUMÉS Zürich straße STRASSE œuvre ﬁnancial İstanbul "
    "\u212aelvin ｆｕｌｌ ２０２４ Ⅻ façade piñata Ærøskøbing déjà-vu — – ‘quoted’ “words” … £5 €3 "
    "\u00a0 naïvely generalizations"
).split(" ")


def _random_latin_text(rng, words=_ASCII_WORDS):
    chosen = [rng.choice(words) for _ in range(rng.randrange(0, 40))]
    return "".join(word + rng.choice([" ", " ", " ", "\n", "  ", "\t"]) for word in chosen)


@pytest.mark.parametrize("words", [_ASCII_WORDS, _ASCII_WORDS + _LATIN_WORDS], ids=["ascii", "accented"])
@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
@pytest.mark.slow
def test_latin_text_equals_rouge_score(stem, words):
    rng = random.Random(7)
    for _ in range(cases(1)):  # corpora drawn one after the other
        predictions = [_random_latin_text(rng, words) for _ in range(400)]
        references = [[_random_latin_text(rng, words) for _ in range(rng.randrange(1, 4))] for _ in predictions]
        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
        expected = expected_array([scorer.score_multi(r, p) for p, r in zip(predictions, references)], TYPES)
        result = ngrameval.rouge(predictions, references, TYPES, use_stemmer=stem, use_aggregator=False)
        assert max_difference(result.scores, expected) <= TOLERANCE
        # The tokens themselves, against rouge-score's tokenizer.
        stemmer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=stem)._tokenizer._stemmer
        ours = RougeTokenizer(use_stemmer=stem)
        for text in predictions:
            assert ours(text) == rouge_score_tokenize.tokenize(text, stemmer)


def test_lcs_positions_equal_rouge_score_backtrace():
    rng = random.Random(3)
    for _ in range(cases(500)):
        alphabet = rng.choice([2, 3, 6, 30])
        a = [rng.randrange(alphabet) for _ in range(rng.randrange(1, 140))]
        b = [rng.randrange(alphabet) for _ in range(rng.randrange(1, 140))]
        assert lcs_length(a, b) == rouge_scorer._lcs_table(a, b)[-1][-1]
        assert lcs_positions(a, b) == rouge_scorer.lcs_ind(a, b)


@pytest.mark.parametrize("pairs", [200, 20], ids=["numpy", "few-pairs"])
def test_batched_lcs_equals_rouge_score(pairs):
    """The numpy kernels (several 64-bit words per row for long sequences), and the pure-Python rows of a
    few pairs (``engine.lcs._FEW_PAIRS``), against rouge-score's table and backtrace, pair by pair."""
    rng = random.Random(5 + pairs)
    for _ in range(cases(1)):  # batches drawn one after the other
        a_seqs = [[rng.randrange(4) for _ in range(rng.randrange(0, 200))] for _ in range(30)]
        b_seqs = [[rng.randrange(4) for _ in range(rng.randrange(0, 200))] for _ in range(25)]
        pair_a = [rng.randrange(len(a_seqs)) for _ in range(pairs)]
        pair_b = [rng.randrange(len(b_seqs)) for _ in range(pairs)]
        a_offsets = np.cumsum([0] + [len(s) for s in a_seqs])
        b_offsets = np.cumsum([0] + [len(s) for s in b_seqs])
        a_ids = np.array([x for s in a_seqs for x in s], np.int64)
        b_ids = np.array([x for s in b_seqs for x in s], np.int64)
        lengths = lcs_lengths(a_ids, a_offsets, b_ids, b_offsets, pair_a, pair_b)
        expected = [
            rouge_scorer._lcs_table(a_seqs[i], b_seqs[j])[-1][-1] if a_seqs[i] and b_seqs[j] else 0
            for i, j in zip(pair_a, pair_b)
        ]
        assert lengths.tolist() == expected
        mask = lcs_union_mask(a_ids, a_offsets, b_ids, b_offsets, pair_a, pair_b)
        expected_mask = np.zeros(len(a_ids), bool)
        for i, j in zip(pair_a, pair_b):
            if a_seqs[i] and b_seqs[j]:
                expected_mask[a_offsets[i] + np.array(rouge_scorer.lcs_ind(a_seqs[i], b_seqs[j]), np.int64)] = True
        assert mask.tolist() == expected_mask.tolist()


@pytest.mark.parametrize("length", [63, 64, 65, 128, 129])
def test_sentences_at_word_boundaries_equal_rouge_score(length):
    """Texts of one sentence whose length sits at a 64-bit word boundary of the LCS kernels: rougeL
    and rougeLsum (which takes a shortcut when each side has one sentence) against rouge-score."""
    rng = random.Random(length)
    words = "the cat sat on a mat dog ran far away".split()
    pairs = [
        (" ".join(rng.choice(words) for _ in range(length)), " ".join(rng.choice(words) for _ in range(n)))
        for n in (length - 1, length, length + 1, 2 * length)
    ]
    scorer = rouge_scorer.RougeScorer(["rougeL", "rougeLsum"])
    expected = [scorer.score(reference, prediction) for prediction, reference in pairs]
    got = ngrameval.rouge(
        [p for p, _ in pairs], [r for _, r in pairs], rouge_types=["rougeL", "rougeLsum"], use_aggregator=False
    )
    result = got.as_dict()
    for kind in ("rougeL", "rougeLsum"):
        assert result[f"{kind}_fmeasure"] == [score[kind].fmeasure for score in expected]


# --------------------------------------------------------------------------- other scripts
# rouge-score deletes the words of scripts other than Latin; the default tokenizer keeps them.


def test_chinese_and_japanese_are_split_into_characters():
    tokenizer = RougeTokenizer()
    assert tokenizer("今天天气很好") == list("今天天气很好")
    assert tokenizer("東京タワーは高い。") == list("東京タワーは高い")
    assert tokenizer("한국어 문장") == list("한국어문장")
    assert tokenizer("GPT-4は強い") == ["gpt", "4", "は", "強", "い"]
    assert rouge_score_tokenize.tokenize("今天天气很好", None) == []


def test_identical_cjk_texts_score_one_and_disjoint_zero():
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    same = ngrameval.rouge(["今天天气很好", "東京タワーは高い"], ["今天天气很好", "東京タワーは高い"], types)
    disjoint = ngrameval.rouge(["今天天气很好"], ["東京タワー"], types)
    for rouge_type in types:
        assert same.fmeasure[rouge_type] == 1.0
        assert disjoint.fmeasure[rouge_type] == 0.0
    # rouge-score sees no tokens at all in either.
    scorer = rouge_scorer.RougeScorer(types)
    assert all(score.fmeasure == 0.0 for score in scorer.score("今天天气很好", "今天天气很好").values())


def test_chinese_partial_overlap_counts_characters():
    # 6 characters each, 4 shared (今 天 天 好), LCS 今天天好 (4), bigrams shared: 今天 天天 (2 of 5).
    result = ngrameval.rouge(["今天天气很好"], ["今天天也好呀"], ["rouge1", "rouge2", "rougeL"])
    assert result.recall["rouge1"] == result.precision["rouge1"] == 4 / 6
    assert result.recall["rouge2"] == 2 / 5
    assert result.recall["rougeL"] == 4 / 6


def test_cyrillic_and_greek_words_are_kept():
    tokenizer = RougeTokenizer()
    assert tokenizer("Привет, мир!") == ["привет", "мир"]
    assert tokenizer("Καλημέρα κόσμε") == ["καλημέρα", "κόσμε"]
    assert tokenizer("café au lait") == ["caf", "au", "lait"] == rouge_score_tokenize.tokenize("café au lait", None)
    assert rouge_score_tokenize.tokenize("Привет, мир!", None) == []
    result = ngrameval.rouge(
        ["Привет мир", "Καλημέρα κόσμε"], ["привет", "καλημέρα κόσμε"], ["rouge1"], use_aggregator=False
    )
    assert result.precision["rouge1"] == [0.5, 1.0]
    assert result.recall["rouge1"] == [1.0, 1.0]
    # The rouge_score tokenizer reproduces rouge-score: nothing left to match.
    dropped = ngrameval.rouge(["Привет мир"], ["привет"], ["rouge1"], tokenizer="rouge_score")
    assert (
        dropped.fmeasure["rouge1"]
        == rouge_scorer.RougeScorer(["rouge1"]).score("привет", "Привет мир")["rouge1"].fmeasure
        == 0.0
    )


def test_non_ascii_stemming_leaves_non_ascii_words():
    stemmer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)._tokenizer._stemmer
    expected = rouge_score_tokenize.tokenize("Running dogs", stemmer) + ["бегущие", "собаки"]
    assert RougeTokenizer(use_stemmer=True)("Running dogs бегущие собаки") == expected


def test_mixed_scripts_never_join():
    """A Latin word with a Cyrillic letter inside is three tokens; digits next to other scripts are
    rouge-score's digits; a combining mark continues a word of another script but separates after
    [a-z0-9], as in rouge-score."""
    tokenizer = RougeTokenizer()
    assert tokenizer("cаt") == ["c", "а", "t"]  # Cyrillic а
    assert tokenizer("мир2024") == ["мир", "2024"]
    assert tokenizer("мо\u0301локо cafe\u0301") == ["мо\u0301локо", "cafe"]
    assert tokenizer("ΟΔΟΣ τοῦ") == ["οδος", "τοῦ"]


class _WithOtherScripts:
    """For rouge-score's ``tokenizer=``: ngrameval's default tokens (stemmed as asked)."""

    def __init__(self, use_stemmer):
        self.ours = RougeTokenizer(use_stemmer=use_stemmer)

    def tokenize(self, text):
        return self.ours(text)


_OTHER_SCRIPT_WORDS = "мир Мир ΚΌΣΜΟΣ κόσμος 東京 タワー 한국어 שָׁלוֹם مرحبا हिन्दी ภาษาไทย cаt мо\u0301локо".split()


@pytest.mark.parametrize("stem", [False, True], ids=["plain", "stemmed"])
@pytest.mark.slow
def test_mixed_script_text(stem):
    """On random text mixing Latin (accented too) with other scripts: (1) the default tokens without
    those of other scripts are rouge-score's tokens; (2) the scores are rouge-score's computed on the
    default tokens (rouge-score run with them as its tokenizer)."""
    rng = random.Random(11)
    words = _ASCII_WORDS + _LATIN_WORDS + _OTHER_SCRIPT_WORDS
    for _ in range(cases(1)):  # corpora drawn one after the other
        predictions = [_random_latin_text(rng, words) for _ in range(300)]
        references = [[_random_latin_text(rng, words) for _ in range(rng.randrange(1, 3))] for _ in predictions]
        stemmer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=stem)._tokenizer._stemmer
        ours = RougeTokenizer(use_stemmer=stem)
        kept = 0
        for text in predictions:
            tokens = ours(text)
            latin = [token for token in tokens if rouge_score_tokenize.VALID_TOKEN_RE.match(token)]
            assert latin == rouge_score_tokenize.tokenize(text, stemmer), text
            kept += len(tokens) - len(latin)
        assert kept > 100
        types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
        scorer = rouge_scorer.RougeScorer(types, tokenizer=_WithOtherScripts(stem))
        expected = expected_array([scorer.score_multi(r, p) for p, r in zip(predictions, references)], types)
        result = ngrameval.rouge(predictions, references, types, use_stemmer=stem, use_aggregator=False)
        assert max_difference(result.scores, expected) <= TOLERANCE


# --------------------------------------------------------------------------- callable tokenizers


@dataclasses.dataclass
class _SplitOn:
    """An unhashable callable tokenizer (a dataclass with __eq__ has no __hash__)."""

    separator: str = " "

    def __call__(self, text):
        return text.lower().split(self.separator)

    def tokenize(self, text):  # the same, for rouge-score's tokenizer=
        return self(text)


def test_unhashable_callable_tokenizer():
    tokenizer = _SplitOn("-")
    with pytest.raises(TypeError):
        hash(tokenizer)
    predictions, references = ["a-b-c\nd-a", "x-y"], [["a-c-d", "b-a"], ["x-y-z"]]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    expected = expected_array(
        [
            rouge_scorer.RougeScorer(types, tokenizer=tokenizer).score_multi(r, p)
            for p, r in zip(predictions, references)
        ],
        types,
    )
    for _ in range(2):  # twice: the second call must not find (or fail on) cached references
        result = ngrameval.rouge(predictions, references, types, tokenizer=tokenizer, use_aggregator=False)
        assert max_difference(result.scores, expected) <= TOLERANCE


class _MutableSplitOn(_SplitOn):
    """Hashable (by identity), so that a cache keyed on the tokenizer would hand back stale references."""

    __hash__ = object.__hash__


def test_callable_tokenizer_that_changes_between_calls():
    """References tokenized by a callable are not cached: a tokenizer whose behaviour changes between
    calls (here: the separator) scores each call with its current tokens, as rouge-score does."""
    tokenizer = _MutableSplitOn(" ")
    predictions, references = ["a b-c d", "b-c"], ["a b-c", "b c"]
    types = ["rouge1", "rougeL"]
    for separator in (" ", "-", " "):
        tokenizer.separator = separator
        expected = expected_array(
            [rouge_scorer.RougeScorer(types, tokenizer=tokenizer).score(r, p) for p, r in zip(predictions, references)],
            types,
        )
        result = ngrameval.rouge(predictions, references, types, tokenizer=tokenizer, use_aggregator=False)
        assert max_difference(result.scores, expected) <= TOLERANCE, separator
