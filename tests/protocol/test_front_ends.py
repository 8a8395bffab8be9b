"""The metric protocol is the only path to a number (#25): for every registered family, every variant and every
option value that changes how it scores (every smoothing of every BLEU variant), on a few real WMT22 segments,
``ngrameval score --sentence-level --format json`` prints the protocol's corpus scores
(:meth:`~ngrameval.metric.MetricFamily.score` of the statistics) and its sentence scores
(:func:`ngrameval.metric.sentence_scores`), and :func:`ngrameval.confidence_interval` resamples those statistics.
The community board's segment scores are the protocol's too."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import ngrameval
from ngrameval.frontends.cli import main
from ngrameval.leaderboard.scoring import column_key
from ngrameval.metric import get_family, metric_names, sentence_scores
from ngrameval.metrics.bleu import SMOOTHING
from ngrameval.metrics.bleu import VARIANTS as BLEU_VARIANTS
from tests.data import wmt22_slice

SEGMENTS = 5
# Options besides the variants that change how a family scores (a sample of each kind).
MORE_OPTIONS = [
    ("bleu", {"variant": "nltk", "smooth": "method3", "weights": [[0.5, 0.5], [0.25, 0.25, 0.25, 0.25]]}),
    ("bleu", {"variant": "sacrebleu", "use_effective_order": False, "smooth": "floor"}),
    ("bleu", {"variant": "nltk", "smooth": "method5", "auto_reweigh": True, "max_order": 3}),
    ("chrf", {"word_order": 2}),
    ("chrf", {"variant": "nltk", "beta": 2}),
    ("nist", {"n": 3}),
    ("gleu", {"min_len": 2, "max_len": 3}),
    ("rouge", {"use_stemmer": True, "rouge_types": ["rouge1", "rougeL"]}),
    ("ter", {"case_sensitive": True}),
    ("ter", {"normalized": True, "no_punct": True}),
    ("cider", {"idf": "corpus", "sigma": 3.0}),
]


def _variants(metric):
    """The variants a family's module lists (its ``VARIANTS``), or [None] for a family with one."""
    return getattr(sys.modules[get_family(metric).function.__module__], "VARIANTS", (None,))


def _cases():
    cases = []
    for metric in metric_names():
        if metric == "bleu":
            cases += [
                ("bleu", {"variant": variant, "smooth": smooth})
                for variant in BLEU_VARIANTS
                for smooth in SMOOTHING[variant]
            ]
        else:
            cases += [(metric, {} if variant is None else {"variant": variant}) for variant in _variants(metric)]
    return cases + MORE_OPTIONS


CASES = _cases()


def _params():
    """The cases; those that run METEOR 1.5 marked slow (its first call in a process loads the jar's tables)."""

    def meteor15(metric, options):
        return metric == "coco_caption" or (metric == "meteor" and options.get("variant", "meteor15") == "meteor15")

    return [
        pytest.param(
            metric, options, id=f"{metric}-{options}", marks=[pytest.mark.slow] if meteor15(metric, options) else []
        )
        for metric, options in CASES
    ]


def test_every_registered_family_and_variant_is_a_case():
    covered = {(metric, options.get("variant")) for metric, options in CASES}
    assert covered >= {(metric, variant) for metric in metric_names() for variant in _variants(metric)}
    assert {("bleu", v, s) for v in BLEU_VARIANTS for s in SMOOTHING[v]} <= {
        ("bleu", o["variant"], o["smooth"]) for m, o in CASES if m == "bleu"
    }


def _one_reference(metric, options):
    # NLTK's chrF takes one reference per prediction.
    return (metric, options.get("variant")) == ("chrf", "nltk")


@pytest.fixture(scope="module")
def corpus(shared, tmp_path_factory):
    """(predictions, references per segment, reference files, system file): the first WMT22 de-en segments
    of a system, both references (trailing whitespace stripped, as the command line reads a line)."""
    predictions, references = wmt22_slice(shared, "de-en", "Online-B", SEGMENTS)
    predictions = [line.rstrip() for line in predictions]
    references = [[line.rstrip() for line in group] for group in references]
    folder = tmp_path_factory.mktemp("protocol")
    system = folder / "system.txt"
    system.write_text("".join(line + "\n" for line in predictions), encoding="utf-8")
    reference_files = []
    for index in range(len(references[0])):
        path = folder / f"ref{index}.txt"
        path.write_text("".join(group[index] + "\n" for group in references), encoding="utf-8")
        reference_files.append(str(path))
    return predictions, references, reference_files, str(system)


@pytest.mark.parametrize("metric, options", _params())
def test_the_command_line_and_intervals_give_the_protocols_numbers(corpus, capsys, metric, options):
    predictions, references, reference_files, system = corpus
    if _one_reference(metric, options):
        references, reference_files = [group[:1] for group in references], reference_files[:1]
    arguments = ["score", "-r", *reference_files, "-s", system, "-m", metric, "--sentence-level", "--format", "json"]
    for name, value in options.items():
        arguments += ["--option", f"{metric}.{name}={json.dumps(value)}"]
    assert main(arguments) == 0
    shown = json.loads(capsys.readouterr().out)["systems"][0]

    family = get_family(metric)
    stats = family.statistics(predictions, references, **options)
    expected_segments, sentence_stats = sentence_scores(metric, predictions, references, **options)
    assert sentence_stats.outputs == stats.outputs
    keys = [column_key(metric, output, len(stats.outputs) > 1) for output in stats.outputs]
    assert list(shown["scores"]) == keys
    corpus_scores = family.score(stats)[0]
    np.testing.assert_array_equal([shown["scores"][key]["score"] for key in keys], corpus_scores)
    assert all(shown["scores"][key]["signature"] == stats.signature for key in keys)
    np.testing.assert_array_equal([[segment[key] for key in keys] for segment in shown["segments"]], expected_segments)

    intervals = ngrameval.confidence_interval(stats, n_samples=20, seed=3)
    assert list(intervals) == list(stats.outputs)
    np.testing.assert_array_equal([intervals[output].score for output in stats.outputs], corpus_scores)
    for result in intervals.values():
        low, high = result.ci
        assert low <= high or np.isnan([low, high]).any()


@pytest.mark.parametrize(
    "metric, options", [("bleu", {"variant": "nltk", "smooth": "method5"}), ("nist", {}), ("bleu", {}), ("chrf", {})]
)
def test_the_boards_segment_scores_are_the_protocols(corpus, tmp_path, metric, options):
    """NLTK's sentence_nist weighs n-grams by the sentence's own references: the board reads the segments
    again for it, and scores the stored statistics of every other metric."""
    predictions, references, _, _ = corpus
    board = ngrameval.Board.create(tmp_path / "board", references, {metric: options})
    board.submit(predictions, "system")
    expected, _ = sentence_scores(metric, predictions, references, **options)
    np.testing.assert_array_equal(board.segment_scores("system"), expected)
    details = board.standings(n_samples=10, details=True).systems[0].segment_scores
    np.testing.assert_array_equal(details, expected)


def test_nltk_bleus_sentence_scores_are_nltks_sentence_bleu(corpus, capsys):
    """The peer: NLTK's own sentence_bleu with SmoothingFunction().method5 (the case the command line failed on
    with a NumPy error before #25), on the whitespace tokens the nltk variant scores."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    predictions, references, reference_files, system = corpus
    assert (
        main(
            [
                "score",
                "-r",
                *reference_files,
                "-s",
                system,
                "--option",
                "bleu.variant=nltk",
                "--option",
                "bleu.smooth=method5",
                "--sentence-level",
            ]
        )
        == 0
    )
    shown = [json.loads(line)["scores"]["bleu"] for line in capsys.readouterr().out.splitlines()]
    method5 = SmoothingFunction().method5
    expected = [
        sentence_bleu([r.split() for r in group], p.split(), smoothing_function=method5)
        for p, group in zip(predictions, references)
    ]
    assert shown == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_the_protocol_path_is_the_only_one():
    """No front end scores rows itself (``score_totals(stats, stats.rows, None)``, the corpus-of-one rule that
    broke NLTK's method5): per-segment scores come from MetricFamily.sentence_scores / segment_scores."""
    root = Path(ngrameval.__file__).parent
    front_ends = [
        *root.glob("frontends/*.py"),
        *root.glob("leaderboard/*.py"),
        *root.glob("ui/*.py"),
        root / "dataset.py",
        root / "distributed.py",
    ]
    for path in front_ends:
        assert "score_totals(" not in path.read_text(encoding="utf-8"), path
