"""Published scores of the shared data sets: WMT17 mteval-v13a BLEU (sacrebleu's test.sh), the
WMT22 organisers' BLEU, and mteval-v13a's full output on NLTK's wmt15_eval sample.
"""

import math
import re

import pytest
import sacrebleu

import ngrameval
from tests.data import (
    WMT15,
    WMT17,
    WMT17_SYSTEMS,
    WMT22,
    WMT22_SYSTEMS,
    assert_close,
    per_segment,
    read_lines,
    read_sgm,
    read_tsv,
    wmt17_reference,
    wmt17_system,
    wmt22_references,
    wmt22_system,
)

# --------------------------------------------------------------------------- WMT17, mteval-v13a -c

WMT17_TSV = f"{WMT17}/expected_official_scores_from_sacrebleu_test.sh.tsv"
# ngrameval's sacrebleu default, and the mteval rule with mteval's tokenizer, case-sensitive (-c).
WMT17_OPTIONS = {"sacrebleu-default": {}, "mteval-c": dict(variant="mteval", lowercase=False)}


def _wmt17_file(system):
    return f"newstest2017.{system}.en-de"


@pytest.fixture(scope="module")
def mteval13a_published(shared):
    """{system file: BLEU x 100} of the staged bleu_mteval13a rows."""
    return {
        row["system_file"]: float(row["value"])
        for row in read_tsv(shared, WMT17_TSV)
        if row["metric"] == "bleu_mteval13a" and row["staged_here"] == "yes"
    }


def test_every_staged_wmt17_row_is_tested(mteval13a_published):
    assert set(mteval13a_published) == {_wmt17_file(system) for system in WMT17_SYSTEMS}


@pytest.mark.parametrize("options", WMT17_OPTIONS)
@pytest.mark.parametrize("system", WMT17_SYSTEMS)
def test_wmt17_mteval13a(shared, mteval13a_published, system, options):
    got = ngrameval.bleu(wmt17_system(shared, system), wmt17_reference(shared), **WMT17_OPTIONS[options]).bleu
    published = mteval13a_published[_wmt17_file(system)]
    # sacrebleu's test.sh: `sacrebleu -w 2` (2 decimals) within 0.01 of mteval's 2-decimal value.
    assert abs(round(got * 100, 2) - published) <= 0.01 + 1e-9, f"{system}: got {got * 100}, published {published}"


def test_wmt17_online_a_byte_order_mark(shared, mteval13a_published):
    """online-A starts with U+FEFF. sacrebleu's command line (the published run) reads UTF-8
    without removing it; ngrameval, given the same lines, must give sacrebleu's number."""
    system = "online-A.0"
    hypotheses, reference = wmt17_system(shared, system), wmt17_reference(shared)
    assert hypotheses[0].startswith("\ufeff")
    peer = sacrebleu.corpus_bleu(hypotheses, [reference]).score
    assert abs(round(peer, 2) - mteval13a_published[_wmt17_file(system)]) <= 0.01 + 1e-9
    assert_close(ngrameval.bleu(hypotheses, reference).bleu * 100, peer, what="online-A BLEU")


# --------------------------------------------------------------------------- WMT22 organisers' BLEU

WMT22_TSV = f"{WMT22}/scores/automatic-scores.tsv"
# bleu-all: both references of every prediction.
WMT22_METRICS = {"bleu-A": ("A",), "bleu-B": ("B",), "bleu-all": ("A", "B")}
WMT22_CASES = [(pair, system) for pair, systems in WMT22_SYSTEMS.items() for system in systems]


@pytest.fixture(scope="module")
def wmt22_published(shared):
    """{(pair, system, metric): BLEU x 100} for the staged pairs."""
    return {
        (row["pair"], row["system"], row["metric"]): float(row["score"])
        for row in read_tsv(shared, WMT22_TSV)
        if row["pair"] in WMT22_SYSTEMS and row["metric"] in WMT22_METRICS
    }


def test_every_wmt22_bleu_is_tested(wmt22_published):
    assert set(wmt22_published) == {(pair, system, metric) for pair, system in WMT22_CASES for metric in WMT22_METRICS}


@pytest.mark.parametrize("metric", WMT22_METRICS)
@pytest.mark.parametrize("pair, system", WMT22_CASES)
def test_wmt22_organisers_bleu(shared, wmt22_published, pair, system, metric):
    # SOURCE.md: sacrebleu's default corpus_bleu (13a for every pair, zh-en included: its target
    # is English) reproduces these values exactly.
    references = per_segment(wmt22_references(shared, pair, WMT22_METRICS[metric]))
    got = ngrameval.bleu(wmt22_system(shared, pair, system), references).bleu * 100
    assert_close(got, wmt22_published[(pair, system, metric)], what=f"{pair} {system} {metric}")


# --------------------------------------------------------------------------- NLTK's wmt15_eval, mteval-13a

ORDERS = range(1, 10)
# mteval prints 4 decimals.
PRINTED = 0.00005 + 1e-12


def _parse_mteval_output(text):
    ratio = re.search(r"length ratio: (\S+) \((\d+)/(\d+)\), penalty \(log\): (\S+)", text)
    scores = re.search(r"NIST score = (\S+)\s+BLEU score = (\S+)", text)
    individual, cumulative = text.split("Cumulative N-gram scoring")

    def table(part):
        return {
            metric: [float(x) for x in values.split()]
            for metric, values in re.findall(r"^\s*(NIST|BLEU):((?:\s+[0-9.]+)+)", part, re.M)
        }

    return {
        "length_ratio": float(ratio.group(1)),
        "translation_length": int(ratio.group(2)),
        "reference_length": int(ratio.group(3)),
        "log_penalty": float(ratio.group(4)),
        "NIST": float(scores.group(1)),
        "BLEU": float(scores.group(2)),
        "individual": table(individual),
        "cumulative": table(cumulative),
    }


@pytest.fixture(scope="module")
def wmt15(shared):
    """(hypotheses, references, mteval's output) with the segments that mteval scored: the SGM
    files' texts as written (mteval's tokenizer replaces &quot; &amp; &lt; &gt;, as ngrameval's
    mteval-v13a tokenizer does), paired by document and segment id."""
    references = read_sgm(shared, f"{WMT15}/newstest2015-100sents-enru-ref.ru.sgm")
    hypotheses = read_sgm(shared, f"{WMT15}/newstest2015-100sents-enru-google.ru.sgm")
    assert set(hypotheses) == set(references) and len(references) == 100
    keys = list(references)
    output = _parse_mteval_output("\n".join(read_lines(shared(f"{WMT15}/mteval-13a.output"))))
    return [hypotheses[key] for key in keys], [references[key] for key in keys], output


def _mteval_bleu(hypotheses, references, max_order):
    # mteval-v13a.pl without -c: lowercase (ASCII letters, after unescaping).
    return ngrameval.bleu(hypotheses, references, variant="mteval", max_order=max_order, lowercase=True)


def _mteval_nist(hypotheses, references, n=5):
    return ngrameval.nist(hypotheses, references, variant="mteval", n=n, lowercase=True)


TABLES = {
    ("NIST", "individual"): lambda h, r: _mteval_nist(h, r, 9).individual,
    ("NIST", "cumulative"): lambda h, r: _mteval_nist(h, r, 9).cumulative,
    # mteval's individual BLEU is the (smoothed) precision; cumulative n is BLEU with max order n.
    ("BLEU", "individual"): lambda h, r: _mteval_bleu(h, r, 9).precisions,
    ("BLEU", "cumulative"): lambda h, r: [_mteval_bleu(h, r, n).bleu for n in ORDERS],
}


@pytest.mark.parametrize("metric, kind", TABLES, ids=[f"{m}-{k}" for m, k in TABLES])
def test_wmt15_mteval_tables(wmt15, metric, kind):
    hypotheses, references, output = wmt15
    got = TABLES[metric, kind](hypotheses, references)
    printed = output[kind][metric]
    assert len(printed) == len(ORDERS)
    bad = [(n, g, p) for n, g, p in zip(ORDERS, got, printed) if abs(g - p) > PRINTED]
    assert not bad, f"{metric} {kind}: (order, got, printed) {bad}"


def test_wmt15_mteval_scores(wmt15):
    hypotheses, references, output = wmt15
    assert abs(_mteval_nist(hypotheses, references).nist - output["NIST"]) <= PRINTED
    assert abs(_mteval_bleu(hypotheses, references, 4).bleu - output["BLEU"]) <= PRINTED


@pytest.mark.parametrize("metric", ["bleu", "nist"])
def test_wmt15_mteval_lengths(wmt15, metric):
    hypotheses, references, output = wmt15
    result = _mteval_bleu(hypotheses, references, 4) if metric == "bleu" else _mteval_nist(hypotheses, references)
    assert result.translation_length == output["translation_length"]
    assert result.reference_length == output["reference_length"]
    ratio = result.translation_length / result.reference_length
    assert_close(ratio, output["length_ratio"], rel=1e-13, what="length ratio")
    if metric == "bleu":
        assert_close(result.length_ratio, output["length_ratio"], rel=1e-13, what="BleuResult.length_ratio")
    else:  # mteval prints log(NIST length penalty)
        assert math.isclose(math.log(result.length_penalty), output["log_penalty"], abs_tol=1e-12)
