"""BLEU and NIST on the inputs where a tool's numbers, or its parts, are easy to get wrong: HF
evaluate's 13a tokenizer, d2l 1.0.3, sacrebleu's reported counts, NLTK's method6 without matches,
user callables as tokenizers. Every expected value comes from the peer run here."""

import ast
import collections
import dataclasses
import importlib.metadata
import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
from nltk.translate.nist_score import corpus_nist
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacrebleuTokenizer13a

import ngrameval
from ngrameval.text.tokenizers import get_tokenizer
from tests.engine.test_properties import TRICKY_TEXT
from tests.search import cases

D2L_VERSION = "1.0.3"


# --------------------------------------------------------------------------- HF evaluate's bleu


def hf_bleu_tokens(line):
    """HF evaluate's metrics/bleu/tokenizer_13a.py is sacrebleu's 13a tokenizer (its header says
    so; sacrebleu 2.6.0's rules are the same) called on the line as given and split on whitespace:
    HF's ``bleu.compute`` does not strip the line first, as sacrebleu's BLEU does."""
    return SacrebleuTokenizer13a()(line).split()


@settings(max_examples=cases(300), deadline=None)
@given(st.lists(TRICKY_TEXT, min_size=1, max_size=5))
def test_nmt_default_tokenizer_is_hf_bleus(lines):
    assert get_tokenizer("hf-13a").tokenize(lines) == [hf_bleu_tokens(line) for line in lines]


def test_nmt_scores_a_hyphen_at_a_line_break_as_hf_bleu():
    predictions, references = ["the cat-\n", "a dog -\n barks"], [["the cat"], ["a dog barks-\n"]]
    ours = ngrameval.bleu(predictions, references, variant="nmt", max_order=2, sentence_level=True)
    on_hf_tokens = ngrameval.bleu(
        [hf_bleu_tokens(p) for p in predictions],
        [[hf_bleu_tokens(r) for r in refs] for refs in references],
        variant="nmt",
        max_order=2,
        sentence_level=True,
    )
    assert ours.bleu == on_hf_tokens.bleu and ours.sentence_scores == on_hf_tokens.sentence_scores
    assert ours.sentence_scores[0] == 1.0


# --------------------------------------------------------------------------- d2l 1.0.3


@pytest.fixture(scope="module")
def d2l_bleu():
    """d2l 1.0.3's ``bleu``, read from the installed package's d2l/torch.py without importing it (the
    module imports torch, torchvision and matplotlib at the versions d2l pins, which the rest of the suite
    cannot share; so d2l is installed without them, ``pip install --no-deps d2l==1.0.3``): the function uses
    only math and collections, so it is compiled on its own. Nothing is fetched at test time."""
    spec = importlib.util.find_spec("d2l")
    # A peer that cannot be installed is a failing setup, not a skip (the README's test command installs it).
    assert spec is not None, (
        f"d2l is not installed: pip install --no-deps d2l=={D2L_VERSION} (only the source of its bleu function is read)"
    )
    installed = importlib.metadata.version("d2l")
    assert installed == D2L_VERSION, f"d2l {installed} is installed; these tests compare with d2l {D2L_VERSION}"
    source = (Path(spec.submodule_search_locations[0]) / "torch.py").read_text(encoding="utf-8")
    function = next(
        node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef) and node.name == "bleu"
    )
    namespace = {"math": math, "collections": collections}
    exec(compile(ast.Module(body=[function], type_ignores=[]), "d2l/torch.py", "exec"), namespace)
    return namespace["bleu"]


D2L_WORDS = st.sampled_from(["D", "the", "cat", "sat", "", "a", "mat"])
D2L_LINE = st.lists(D2L_WORDS, max_size=8).map(" ".join)


def test_d2l_skips_orders_longer_than_the_prediction(d2l_bleu):
    for prediction, reference, k in [("D", "D", 6), ("A B", "A B C", 4), ("", "the cat", 2), ("a  b", "a b", 3)]:
        expected = d2l_bleu(prediction, reference, k)
        assert ngrameval.bleu([prediction], [reference], variant="d2l", max_order=k).bleu == pytest.approx(
            expected, rel=1e-12, abs=1e-15
        )


@settings(max_examples=cases(200), deadline=None)
@given(st.lists(st.tuples(D2L_LINE, D2L_LINE), min_size=1, max_size=6), st.integers(1, 6))
def test_d2l_sentence_scores_equal_d2l(d2l_bleu, pairs, k):
    result = ngrameval.bleu(
        [p for p, _ in pairs], [r for _, r in pairs], variant="d2l", max_order=k, sentence_level=True
    )
    expected = [d2l_bleu(p, r, k) for p, r in pairs]
    assert np.allclose(result.sentence_scores, expected, rtol=1e-12, atol=1e-15)


# --------------------------------------------------------------------------- sacrebleu's parts


@pytest.mark.parametrize(
    "smooth, smooth_value",
    [("add-k", None), ("add-k", 2), ("add-k", 0.5), ("exp", None), ("floor", None), ("floor", 0.3), ("none", None)],
)
@pytest.mark.parametrize(
    "predictions, references",
    [
        (["a b c"], [["a b d"]]),
        (["x y z"], [["a b c"]]),  # nothing matches: sacrebleu reports zero precisions
        (["a"], [["a b"]]),  # orders without hypothesis n-grams
        (["", "a b c d e"], [["a"], ["a b c d e f"]]),
    ],
)
def test_sacrebleu_parts_are_sacrebleus(smooth, smooth_value, predictions, references):
    peer = BLEU(smooth_method=smooth, smooth_value=smooth_value, tokenize="13a")
    expected = peer.corpus_score(predictions, [list(r) for r in zip(*references)])
    result = ngrameval.bleu(predictions, references, smooth=smooth, smooth_value=smooth_value)
    assert result.counts == expected.counts and result.totals == expected.totals
    assert np.allclose(np.array(result.precisions) * 100, expected.precisions, rtol=1e-12, atol=0)
    assert result.brevity_penalty == pytest.approx(expected.bp, rel=1e-12)
    assert result.bleu * 100 == pytest.approx(expected.score, rel=1e-12, abs=1e-12)
    # the raw sums stay in the statistics (columns 2..5: the matches of orders 1..4)
    assert (
        result.statistics.totals()[0, 2:6].tolist()
        == ngrameval.statistics("bleu", predictions, references).totals()[0, 2:6].tolist()
    )


# --------------------------------------------------------------------------- NLTK method6


@pytest.mark.parametrize("weights", [(1.0,), (0.5, 0.5), (0.25,) * 4])
def test_method6_without_unigram_match_is_nltks_zero(weights):
    hypotheses, references = [["x", "y", "z"]], [[["a", "b", "c"]]]
    expected = corpus_bleu(references, hypotheses, weights=weights, smoothing_function=SmoothingFunction().method6)
    result = ngrameval.bleu(hypotheses, references, variant="nltk", smooth="method6", weights=weights)
    assert result.bleu == expected == 0


def test_method6_below_three_orders_with_a_match_is_a_clear_error_where_nltk_fails():
    with pytest.raises(IndexError):
        corpus_bleu([[["a", "b"]]], [["a", "b"]], weights=(0.5, 0.5), smoothing_function=SmoothingFunction().method6)
    with pytest.raises(ValueError, match="method6"):
        ngrameval.bleu([["a", "b"]], [[["a", "b"]]], variant="nltk", smooth="method6", weights=(0.5, 0.5))


# --------------------------------------------------------------------------- callables as tokenizers


@dataclasses.dataclass
class SplitOn:
    """An unhashable callable tokenizer (a dataclass with __call__ and eq=True)."""

    separator: str = " "

    def __call__(self, line):
        return [token for token in line.split(self.separator) if token]


class ChangingTokenizer:
    """A callable whose output changes between calls (here: it starts lowercasing)."""

    def __init__(self):
        self.lowercase = False

    def __call__(self, line):
        return (line.lower() if self.lowercase else line).split()


PREDICTIONS = ["The cat sat on the mat", "a dog barks"]
REFERENCES = [["The cat sat on the mat"], ["a dog barks loudly"]]


def test_unhashable_callable_tokenizers_work_everywhere():
    tokens_p = [p.split() for p in PREDICTIONS]
    tokens_r = [[r.split() for r in refs] for refs in REFERENCES]
    assert ngrameval.bleu(PREDICTIONS, REFERENCES, tokenize=SplitOn()).bleu == ngrameval.bleu(tokens_p, tokens_r).bleu
    stats = ngrameval.statistics("bleu", PREDICTIONS, REFERENCES, tokenize=SplitOn())
    assert stats.rows.tolist() == ngrameval.statistics("bleu", tokens_p, tokens_r).rows.tolist()
    expected_nist = corpus_nist([[r.split() for r in refs] for refs in REFERENCES], tokens_p, n=5)
    assert ngrameval.nist(PREDICTIONS, REFERENCES, tokenize=SplitOn()).nist == pytest.approx(expected_nist, rel=1e-12)


@pytest.mark.parametrize("metric", ["bleu", "nist"])
def test_a_callable_that_changes_never_sees_stale_references(metric):
    score = getattr(ngrameval, metric)
    tokenizer = ChangingTokenizer()
    predictions, references = ["The cat sat on the mat"], [["the cat sat on the mat"]]
    score(predictions, references, tokenize=tokenizer)
    tokenizer.lowercase = True
    again = score(predictions, references, tokenize=tokenizer)
    expected = score([p.lower() for p in predictions], references, tokenize="none")
    assert getattr(again, metric) == getattr(expected, metric)
    if metric == "bleu":
        assert again.bleu == 1.0
