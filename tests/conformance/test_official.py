"""What the official programs print: mteval-v13a.pl (official_small.json) and tensorflow/nmt's
``compute_bleu`` (nmt_bleu.json). The pycocoevalcap cases of official_small.json belong to a later
issue and are not tested here.
"""

import re

import pytest

import ngrameval
from tests.data import assert_close, json_at_collection, load_json, wmt17_slice

OFFICIAL = "conformance/official_small.json"
NMT = "conformance/nmt_bleu.json"
MTEVAL_CASE = "mteval-v13a-nist-example"

# mteval-v13a.pl lowercases (ASCII letters) unless run with -c.
MTEVAL_MODES = {"case_preserving(-c)": False, "lowercased(default)": True}
HYPOTHESES = ("hypothesis1", "hypothesis2")
# Each hypothesis is scored alone against its 3 references. mteval prints 15 significant digits.
MTEVAL_SCORERS = {
    "nist": lambda prediction, references, lowercase: (
        ngrameval.nist([prediction], [references], variant="mteval", lowercase=lowercase).nist
    ),
    "bleu": lambda prediction, references, lowercase: (
        ngrameval.bleu([prediction], [references], variant="mteval", lowercase=lowercase).bleu
    ),
}


def _mteval_case(shared):
    (case,) = [case for case in load_json(shared, OFFICIAL)["cases"] if case["id"] == MTEVAL_CASE]
    return case


@pytest.fixture(scope="module")
def mteval_case(shared):
    return _mteval_case(shared)


def test_every_mteval_value_is_tested(mteval_case):
    expected = mteval_case["expected"]
    assert set(expected) == set(MTEVAL_MODES)
    for by_hypothesis in expected.values():
        assert set(by_hypothesis) == set(HYPOTHESES)
        assert all(set(values) == set(MTEVAL_SCORERS) for values in by_hypothesis.values())


@pytest.mark.parametrize("metric", MTEVAL_SCORERS)
@pytest.mark.parametrize("hypothesis", HYPOTHESES)
@pytest.mark.parametrize("mode", MTEVAL_MODES)
def test_mteval_v13a(mteval_case, mode, hypothesis, metric):
    got = MTEVAL_SCORERS[metric](mteval_case["predictions"][hypothesis], mteval_case["references"], MTEVAL_MODES[mode])
    assert_close(
        got,
        mteval_case["expected"][mode][hypothesis][metric],
        rel=1e-13,
        what=f"mteval-v13a {metric} {mode} {hypothesis}",
    )


# --------------------------------------------------------------------------- tensorflow/nmt

_NMT_JSON = json_at_collection(NMT)
NMT_CASES = range(len(_NMT_JSON["cases"]) if _NMT_JSON else 1)
NMT_FIELDS = ("bleu", "precisions", "brevity_penalty", "length_ratio", "translation_length", "reference_length")
_WMT17_DATA = re.compile(r"^wmt17-en-de/newstest2017\.(.+)\.en-de\[:(\d+)\]$")
_SEED_DATA = re.compile(r"^seed NIST example (hypothesis\d) vs 3 references \(whitespace tokens\)$")


def _nmt_inputs(shared, data):
    """(predictions, references, options) for a case's "data" description."""
    wmt17 = _WMT17_DATA.match(data)
    if wmt17:
        # Each line tokenized with sacrebleu's 13a: ngrameval's default tokenizer for variant="nmt".
        predictions, references = wmt17_slice(shared, wmt17.group(1), int(wmt17.group(2)))
        return predictions, references, {}
    seed = _SEED_DATA.match(data)
    assert seed, f"unknown data description {data!r}"
    case = _mteval_case(shared)
    return [case["predictions"][seed.group(1)]], [case["references"]], {"tokenize": "none"}


@pytest.mark.parametrize("index", NMT_CASES)
def test_nmt_compute_bleu(shared, index):
    case = load_json(shared, NMT)["cases"][index]
    predictions, references, options = _nmt_inputs(shared, case["data"])
    result = ngrameval.bleu(
        predictions, references, variant="nmt", max_order=case["max_order"], smooth=case["smooth"], **options
    )
    for name in NMT_FIELDS:
        assert_close(
            getattr(result, name),
            case[name],
            what=f"{name} of {case['data']} max_order={case['max_order']} smooth={case['smooth']}",
        )
