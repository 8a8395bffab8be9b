"""SACREBLEU_SEED and the signature fields, as sacrebleu 2.6.0 reads and writes them (run here)."""

import pytest
import sacrebleu.metrics as sacrebleu_metrics
import sacrebleu.significance as sacrebleu_significance

from ngrameval.metric import statistics
from ngrameval.significance import DEFAULT_SEED, paired_test, resolve_seed, signature_suffix, with_suffix

PREDICTIONS = ["the cat sat on the mat", "a dog barks", "it rains today", "we go home now"]
OTHER = ["the cat sat on a mat", "a dog", "it rains", "we go home"]
REFERENCES = ["the cat sat on a mat", "the dog barks", "it is raining today", "we go home"]


@pytest.mark.parametrize("value, seed", [("none", None), ("None", None), ("42", 42), ("0", 0)])
def test_environment_seed(monkeypatch, value, seed):
    monkeypatch.setenv("SACREBLEU_SEED", value)
    assert resolve_seed() == seed


def test_default_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    assert resolve_seed() == DEFAULT_SEED == 12345
    assert resolve_seed(7) == 7 and resolve_seed(None) is None


@pytest.mark.parametrize("value", ["abc", "-3", "1.5"])
def test_bad_environment_seed(monkeypatch, value):
    monkeypatch.setenv("SACREBLEU_SEED", value)
    with pytest.raises(ValueError, match="SACREBLEU_SEED|seed"):
        resolve_seed()


def test_environment_seed_drives_the_draws(monkeypatch):
    stats = [statistics("bleu", lines, [[r] for r in REFERENCES], tokenize="none") for lines in (PREDICTIONS, OTHER)]
    monkeypatch.setenv("SACREBLEU_SEED", "42")
    from_environment = paired_test(stats[0], stats[1:])
    assert from_environment == paired_test(stats[0], stats[1:], seed=42)


@pytest.mark.parametrize("seed", ["12345", "42", "none"])
@pytest.mark.parametrize("test, n_ar_confidence", [("bs", -1), ("ar", -1), ("ar", 0), ("ar", 300)])
def test_signature_as_sacrebleu(monkeypatch, seed, test, n_ar_confidence):
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    metric = sacrebleu_metrics.BLEU(tokenize="none", references=[REFERENCES])
    signatures, _ = sacrebleu_significance.PairedTest(
        [("a", PREDICTIONS), ("b", OTHER)],
        {"BLEU": metric},
        None,
        test_type=test,
        n_samples=50,
        n_ar_confidence=n_ar_confidence,
    )()
    ours = statistics("bleu", PREDICTIONS, [[r] for r in REFERENCES], tokenize="none").signature
    suffix = signature_suffix(test, 50, resolve_seed(), n_ar_confidence)
    assert with_suffix(ours, suffix) == signatures["BLEU"].format()


def test_interval_signature_as_sacrebleu(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    metric = sacrebleu_metrics.BLEU(tokenize="none")
    metric.corpus_score(PREDICTIONS, [REFERENCES], n_bootstrap=100)
    ours = statistics("bleu", PREDICTIONS, [[r] for r in REFERENCES], tokenize="none").signature
    assert with_suffix(ours, signature_suffix(None, 100, resolve_seed())) == metric.get_signature().format()
