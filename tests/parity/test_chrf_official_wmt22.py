"""Conformance: the WMT22 organisers' chrF (scores/automatic-scores.tsv: chrf-A, chrf-B, chrf-all,
computed with sacreBLEU 2.0.0's chrF2 defaults) is what ngrameval.chrf returns, wherever sacrebleu 2.6.0
reproduces it (SOURCE.md: every value but zh-en chrf-all, where multi-reference chrF changed between
sacrebleu versions)."""

import pytest

from ngrameval.metrics.chrf import chrf
from tests.data import WMT22, WMT22_SYSTEMS, assert_close, per_segment, read_tsv, wmt22_references, wmt22_system

METRICS = {"chrf-A": ("A",), "chrf-B": ("B",), "chrf-all": ("A", "B")}
NOT_REPRODUCED_BY_SACREBLEU_2_6 = {("zh-en", "chrf-all")}


@pytest.mark.parametrize("pair", sorted(WMT22_SYSTEMS))
def test_published_chrf(shared, pair):
    published = {
        (row["system"], row["metric"]): float(row["score"])
        for row in read_tsv(shared, f"{WMT22}/scores/automatic-scores.tsv")
        if row["pair"] == pair
    }
    checked = 0
    for system in WMT22_SYSTEMS[pair]:
        hypotheses = wmt22_system(shared, pair, system)
        for metric, labels in METRICS.items():
            if (pair, metric) in NOT_REPRODUCED_BY_SACREBLEU_2_6:
                continue
            references = per_segment(wmt22_references(shared, pair, labels))
            assert_close(
                chrf(hypotheses, references).chrf * 100,
                published[system, metric],
                rel=1e-12,
                what=f"{pair} {system} {metric}",
            )
            checked += 1
    assert checked >= 2 * len(WMT22_SYSTEMS[pair])
