"""Properties that hold for any input: statistics add up, identity scores 1, the fast 13a
tokenizer equals the literal rules (and sacrebleu's tokenizer); ROUGE scores a prediction alike whether
or not others share its references, and cuts texts into the same tokens in chunks as all at once."""

from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacrebleuTokenizer13a

import ngrameval
from ngrameval.metrics import rouge
from ngrameval.text.tokenizers import get_tokenizer
from tests.search import cases

WORDS = st.sampled_from(["the", "cat", "sat", "on", "a", "mat", "dog", "0", "1", "."])
SENTENCE = st.lists(WORDS, max_size=12).map(" ".join)
PAIRS = st.lists(st.tuples(SENTENCE, st.lists(SENTENCE, min_size=1, max_size=3)), min_size=1, max_size=8)
# Characters that exercise every 13a rule: digits around periods, commas and dashes, runs of
# punctuation, entities, tags, non-ASCII letters, line breaks and odd spaces.
TRICKY_PIECES = list("ab1 2.,-.'\"&;<>?()/\\é\u00a0\nAZ") + ["&quot;", "&amp;", "&QUOT;", "<skipped>", "-\n", "É"]
TRICKY_TEXT = st.lists(st.sampled_from(TRICKY_PIECES), max_size=30).map("".join)


def _stats(pairs):
    return ngrameval.statistics("bleu", [p for p, _ in pairs], [r for _, r in pairs], tokenize="none")


@settings(max_examples=cases(60), deadline=None)
@given(PAIRS, PAIRS)
def test_statistics_of_a_concatenation_are_the_concatenated_statistics(first, second):
    joined, a, b = _stats(first + second), _stats(first), _stats(second)
    assert np.array_equal(joined.rows, np.concatenate([a.rows, b.rows]))
    assert np.array_equal(joined.totals(), a.totals() + b.totals())


@settings(max_examples=cases(60), deadline=None)
@given(st.lists(st.lists(WORDS, min_size=4, max_size=12).map(" ".join), min_size=1, max_size=6))
def test_identical_prediction_and_reference_score_one(sentences):
    for variant in ("sacrebleu", "nltk", "mteval", "nmt", "d2l"):
        assert abs(ngrameval.bleu(sentences, sentences, variant=variant, tokenize="none").bleu - 1.0) < 1e-12


@settings(max_examples=cases(300), deadline=None)
@given(st.lists(TRICKY_TEXT, min_size=1, max_size=5), st.booleans())
def test_fast_13a_equals_the_literal_rules_and_sacrebleu(lines, lowercase):
    tokenizer = get_tokenizer("13a", lowercase)
    sacrebleu_tokenizer = SacrebleuTokenizer13a()
    fast = tokenizer.tokenize(lines)
    for line, tokens in zip(lines, fast):
        assert tokens == tokenizer.tokenize_line(line)
        text = line.lower() if lowercase else line
        assert tokens == sacrebleu_tokenizer(text.rstrip()).split()


@settings(max_examples=cases(200), deadline=None)
@given(st.lists(TRICKY_TEXT, min_size=1, max_size=5))
def test_mteval_tokenizer_lowercases_ascii_only(lines):
    lowercased = get_tokenizer("mteval-v13a", lowercase=True)
    for line, tokens in zip(lines, lowercased.tokenize(lines)):
        assert tokens == lowercased.tokenize_line(line)
        assert not any("A" <= c <= "Z" for token in tokens for c in token)
        assert "É" not in line or any("É" in token for token in tokens)
    assert get_tokenizer("mteval-v13a").tokenize(lines) == get_tokenizer("13a").tokenize(lines)


@settings(max_examples=cases(60), deadline=None)
@given(PAIRS)
def test_pretokenized_input_equals_whitespace_tokenized_text(pairs):
    predictions = [p for p, _ in pairs]
    references = [r for _, r in pairs]
    tokens = ngrameval.bleu(
        [p.split() for p in predictions], [[r.split() for r in refs] for refs in references], sentence_level=True
    )
    text = ngrameval.bleu(predictions, references, tokenize="none", sentence_level=True)
    assert tokens.sentence_scores == text.sentence_scores and tokens.bleu == text.bleu


ROUGE_TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum", "rougeW", "rougeS4", "rougeSU*"]
LINES = st.lists(SENTENCE, min_size=1, max_size=3).map("\n".join)


@settings(max_examples=cases(40), deadline=None)
@given(
    st.lists(st.tuples(LINES, st.integers(0, 3)), min_size=1, max_size=10),
    st.lists(st.lists(LINES, min_size=1, max_size=3), min_size=1, max_size=4),
    st.sampled_from(
        [
            dict(),
            dict(use_stemmer=True),
            dict(remove_stopwords=True),
            dict(tokenizer=str.split),
            dict(tokenizer="whitespace", multi_ref="pooled"),
            dict(pretokenized=True),
        ]
    ),
)
def test_rouge_of_predictions_sharing_references_equals_each_pair_alone(predictions, groups, options):
    """Predictions that share their references are matched against one index of them (RepeatedIndex):
    each prediction scores as it does alone against its references."""
    options = dict(options)
    references = [groups[k % len(groups)] for _, k in predictions]
    predictions = [text for text, _ in predictions]
    if options.pop("pretokenized", False):
        predictions = [text.split() for text in predictions]
        references = [[text.split() for text in group] for group in references]
    together = ngrameval.rouge(predictions, references, ROUGE_TYPES, use_aggregator=False, **options).scores
    alone = [
        ngrameval.rouge([p], [r], ROUGE_TYPES, use_aggregator=False, **options).scores[:, 0]
        for p, r in zip(predictions, references)
    ]
    assert np.array_equal(together, np.stack(alone, axis=1))


@settings(max_examples=cases(30), deadline=None)
@given(
    texts=st.lists(
        st.lists(st.sampled_from(["the cats", "sat", "", "!!", "日本", "мир", "café", "a\u3000b"]), max_size=4).map(
            "\n".join
        ),
        max_size=9,
    ),
    tokenizer=st.sampled_from(["default", "rouge_score", "whitespace"]),
    stem=st.booleans(),
)
def test_rouge_tokens_of_texts_cut_in_chunks_are_the_tokens_of_all_at_once(texts, tokenizer, stem):
    """The named tokenizers cut and number texts a chunk at a time (a vocabulary across chunks)."""
    whole = rouge.RougeTokenizer(tokenizer, stem).tokenize(texts)
    with mock.patch.object(rouge, "_ID_CHUNK_TEXTS", 2):
        chunked = rouge.RougeTokenizer(tokenizer, stem).tokenize(texts)
    assert chunked.tokens == whole.tokens
    assert chunked.sentence_counts.tolist() == whole.sentence_counts.tolist()
    assert chunked.sentence_lengths.tolist() == whole.sentence_lengths.tolist()
