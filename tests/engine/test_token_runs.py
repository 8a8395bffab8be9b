"""Tokens cut and numbered by Arrow (ngrameval.engine.runs) against Python's own str.split and dicts,
which the whitespace tokenizer (GLEU, BLEU's "none") and ROUGE's tokenizers reproduce: every code point,
random texts of odd characters, real lines (German, Chinese) with random Unicode spaces against sacrebleu's
tokenize="none", and the texts Arrow cannot take (lone surrogates, NUL)."""

import random
import re
import sys

import numpy as np
import pyarrow as pa
import pytest
import sacrebleu
from nltk.translate.gleu_score import corpus_gleu

from ngrameval.engine.runs import byte_runs, distinct_ids, ids_in, whitespace_split
from ngrameval.metrics import rouge_common
from ngrameval.metrics.bleu import bleu
from ngrameval.metrics.gleu import gleu
from ngrameval.metrics.rouge import RougeTokenizer
from ngrameval.metrics.rouge_common import ascii_runs
from tests.data import WMT22, read_lines, wmt17_reference, wmt17_system
from tests.search import cases

CODE_POINTS = [c for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
SPACES = [chr(c) for c in CODE_POINTS if chr(c).isspace()]
WMT22_ZH_SOURCE = f"{WMT22}/txt/sources/generaltest2022.zh-en.src.zh"
ODD = SPACES + ["a", "b", "é", "東", "\x00", "\x1c", "\U0001f600", "-", "A", "İ", "\u212a", "ß"]


def cut(words, ids, lengths):
    """Token lists per text from (words, ids, tokens per text)."""
    tokens = [words[i] for i in ids.tolist()]
    ends = np.cumsum(lengths).tolist()
    return [tokens[end - n : end] for end, n in zip(ends, lengths.tolist())]


def split_lists(texts):
    tokens, lengths = whitespace_split(texts)
    return cut(*distinct_ids(tokens), lengths)


def test_every_code_point_splits_as_str_split():
    texts = [f"a{chr(c)}b{chr(c)}{chr(c)}c {chr(c)}" for c in CODE_POINTS]
    assert split_lists(texts) == [text.split() for text in texts]


def test_random_texts_split_and_number_as_python():
    rng = random.Random(20261125)
    for _ in range(cases(300)):
        texts = ["".join(rng.choice(ODD) for _ in range(rng.randint(0, 20))) for _ in range(rng.randint(0, 6))]
        assert split_lists(texts) == [text.split() for text in texts]
        flat = [token for text in texts for token in text.split()]
        words, ids = distinct_ids(flat)
        assert words == list(dict.fromkeys(flat)) and [words[i] for i in ids.tolist()] == flat
        known = words[: len(words) // 2]
        looked_up = ids_in(pa.array(flat, pa.large_string()), pa.array(known, pa.large_string())).tolist()
        assert looked_up == [known.index(token) if token in known else -1 for token in flat]


@pytest.mark.parametrize(
    "predictions", [["a \ud800 b c", "x\x00 y"], ["a b c", "x\x00 y"]], ids=["both sides", "references only"]
)
def test_lone_surrogate_is_refused_and_gleu_falls_back(predictions):
    assert whitespace_split(["a \ud800 b"]) is None
    references = [["a \ud800 b", "c"], ["x\x00 y z"]]
    expected = corpus_gleu([[r.split() for r in refs] for refs in references], [p.split() for p in predictions])
    assert gleu(predictions, references).gleu == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("few_bytes", [0, rouge_common._FEW_BYTES], ids=["arrow", "python"])
def test_ascii_runs_are_the_runs_of_a_regex(few_bytes, monkeypatch):
    """Both layouts of :func:`ascii_runs`: Arrow's runs (long texts) and Python's split (a batch's few texts)."""
    monkeypatch.setattr(rouge_common, "_FEW_BYTES", few_bytes)
    rng = random.Random(7)
    alphabet = b"ab09z-. \n\t\xe9\xff"
    for _ in range(cases(300)):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        lines = data.count(b"\n") + 1
        words, ids, counts = ascii_runs(data, lines)
        expected = [re.findall(rb"[a-z0-9]+", line) for line in data.split(b"\n")]
        assert cut(words, ids, counts) == [[run.decode() for run in line] for line in expected]
        text = data.decode("latin-1").encode()  # UTF-8: runs of non-space bytes never cut a character
        codes = np.frombuffer(text, np.uint8)
        runs, starts = byte_runs(codes, codes > 32)
        expected = list(re.finditer(rb"[^\x00-\x20]+", text))
        assert runs.to_pylist() == [m.group().decode() for m in expected]
        assert starts.tolist() == [m.start() for m in expected]


def test_rouge_whitespace_tokenizer_keeps_odd_spaces_and_surrogates():
    texts = ["A\u3000b\x1cc", "x \ud800 y", "\u2028"]
    assert RougeTokenizer("whitespace").tokenize(texts).tokens == [text.lower().split() for text in texts]


def test_real_lines_with_random_spaces_split_and_score_as_sacrebleu_none(shared):
    """WMT17 German lines and WMT22 Chinese sources, their spaces replaced at random by any Unicode space (one or
    several, at line ends too): whitespace_split cuts them as str.split, and BLEU with tokenize="none" is
    sacrebleu's (which splits with str.split)."""
    rng = random.Random(20261127)
    lines = wmt17_reference(shared)[:300] + read_lines(shared(WMT22_ZH_SOURCE))[: cases(150)]
    hypotheses = wmt17_system(shared, "xmu.4910")[:300] + read_lines(shared(WMT22_ZH_SOURCE))[1 : cases(150) + 1]

    def respaced(text):
        pieces = text.split(" ")
        return rng.choice(["", *SPACES]).join(
            [rng.choice(["", rng.choice(SPACES)])] + pieces + [rng.choice(["", "".join(rng.sample(SPACES, 3))])]
        )

    references, predictions = list(map(respaced, lines)), list(map(respaced, hypotheses))
    assert split_lists(references) == [text.split() for text in references]
    expected = sacrebleu.corpus_bleu(predictions, [references], tokenize="none").score
    assert bleu(predictions, [[r] for r in references], tokenize="none").bleu * 100 == pytest.approx(
        expected, rel=1e-12
    )
