"""ngrameval.ter against sacrebleu 2.6.0's TER, run in each test: per-segment edits and average
reference lengths (exactly), corpus scores and their parts, sentence scores and signatures, on
WMT17, WMT22 (one and two references) and E2E (1 to 45 references), with every option."""

import itertools

import numpy as np
import pytest
from sacrebleu.metrics import TER

from ngrameval.metrics.ter import ter
from tests.data import (
    WMT17_SYSTEMS,
    WMT22,
    assert_close,
    e2e_outputs,
    e2e_references,
    read_lines,
    wmt17_slice,
    wmt22_references,
    wmt22_system,
)

OPTIONS = ("normalized", "no_punct", "asian_support", "case_sensitive")


def as_padded_streams(references):
    """References per segment (any count) -> sacrebleu's streams, None where a segment has fewer."""
    width = max(map(len, references))
    return [[group[k] if k < len(group) else None for group in references] for k in range(width)]


def assert_same_as_sacrebleu(hypotheses, references, sentences=0, **options):
    """Every segment's (edits, average reference length) exactly, the corpus score to 1e-12, the
    parts, the signature; and the sentence scores of the first ``sentences`` segments."""
    metric = TER(**options)
    streams = as_padded_streams(references)
    expected = np.array(metric._extract_corpus_statistics(hypotheses, streams), dtype=np.float64)
    score = metric.corpus_score(hypotheses, streams)
    result = ter(hypotheses, references, sentence_level=sentences > 0, **options)
    got = result.statistics.rows
    different = np.flatnonzero((got != expected).any(axis=1))
    assert different.size == 0, (
        f"{different.size} segments differ, first {different[0]}: "
        f"{got[different[0]].tolist()} != sacrebleu's {expected[different[0]].tolist()}"
    )
    assert abs(result.ter * 100 - score.score) <= 1e-12 * max(1.0, score.score)
    assert (result.num_edits, result.ref_length) == (score.num_edits, pytest.approx(score.ref_length, rel=1e-12))
    assert result.signature == str(metric.get_signature())
    if sentences:
        sentence_metric = TER(**options)
        peer = [
            sentence_metric.sentence_score(h, refs).score / 100
            for h, refs in zip(hypotheses[:sentences], references[:sentences])
        ]
        assert_close(result.sentence_scores[:sentences], peer, rel=1e-12, what="sentence TER")


@pytest.mark.slow
def test_wmt17_one_system_in_full(shared):
    hypotheses, references = wmt17_slice(shared, "uedin-nmt.4722")
    assert_same_as_sacrebleu(hypotheses, references, sentences=300)


@pytest.mark.parametrize("system", [s for s in WMT17_SYSTEMS if s != "uedin-nmt.4722"][::3])
@pytest.mark.slow
def test_wmt17_systems(shared, system):
    hypotheses, references = wmt17_slice(shared, system, 250)
    assert_same_as_sacrebleu(hypotheses, references, sentences=50)


@pytest.mark.parametrize(
    "pair, system, lines", [("de-en", "Online-B", 250), ("zh-en", "NiuTrans", 100), ("en-de", "PROMT", 250)]
)
@pytest.mark.parametrize("labels", [("A",), ("A", "B")])
@pytest.mark.slow
def test_wmt22(shared, pair, system, lines, labels):
    streams = wmt22_references(shared, pair, labels)
    start, stop = 200, 200 + lines  # past the first lines, which are short headlines in some pairs
    hypotheses = wmt22_system(shared, pair, system)[start:stop]
    references = [list(group) for group in zip(*(stream[start:stop] for stream in streams))]
    assert_same_as_sacrebleu(hypotheses, references, sentences=40)


@pytest.mark.slow
def test_e2e_many_references(shared):
    _, references = e2e_references(shared)
    hypotheses = e2e_outputs(shared, "tgen")
    keep = slice(0, 630, 10)
    assert_same_as_sacrebleu(hypotheses[keep], references[keep], sentences=30)


@pytest.mark.parametrize("flags", list(itertools.product([False, True], repeat=len(OPTIONS))))
@pytest.mark.slow
def test_every_option_combination(shared, flags):
    hypotheses, references = wmt17_slice(shared, "online-A.0", 120)
    assert_same_as_sacrebleu(hypotheses, references, sentences=20, **dict(zip(OPTIONS, flags)))


@pytest.mark.parametrize(
    "options",
    [
        {"normalized": True, "asian_support": True},
        {"no_punct": True, "asian_support": True},
        {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True},
    ],
)
@pytest.mark.slow
def test_chinese_with_asian_support(shared, options):
    # WMT22's Chinese sources as references, and as predictions with their halves swapped (shifts
    # of CJK characters, split one by one by the asian rules) and every fifth character dropped.
    sources = read_lines(shared(f"{WMT22}/txt/sources/generaltest2022.zh-en.src.zh"))[:40]
    hypotheses = [line[len(line) // 2 :] + line[: len(line) // 2] for line in sources]
    hypotheses = ["".join(c for k, c in enumerate(line) if k % 5 != 4) for line in hypotheses]
    assert_same_as_sacrebleu(hypotheses, [[line] for line in sources], sentences=10, **options)


def test_huggingface_option_names_are_sacrebleus(shared):
    hypotheses, references = wmt17_slice(shared, "KIT.4950", 80)
    hf = ter(hypotheses, references, normalized=True, ignore_punct=True, support_zh_ja_chars=True, case_sensitive=True)
    assert (
        hf.as_dict()
        == ter(
            hypotheses, references, normalized=True, no_punct=True, asian_support=True, case_sensitive=True
        ).as_dict()
    )
    assert_same_as_sacrebleu(
        hypotheses, references, normalized=True, no_punct=True, asian_support=True, case_sensitive=True
    )
