"""Both ends of setup.cfg's evaluate range. ValidatedMetric (ngrameval/frontends/evaluate.py) overrides
private methods of evaluate's EvaluationModule (the rendezvous, cache files and finalization of its
distributed mode) and relies on what evaluate's compute hands ``_compute``, so the range accepts only what
is tested. The environment runs the upper end (the [test] extra's pin). Here the lower end is installed
from the registry with ``pip install --no-deps --target`` into a temporary folder that worker processes
(distributed_worker.py) import before the environment, which gives everything else (datasets included);
every metric script, on every input shape it takes, fed with add_batch, add and compute, in one process
and in two, must return exactly what the same worker returns here, with the environment's evaluate."""

import configparser
import json
import pickle
import subprocess
import sys
from pathlib import Path

import evaluate
import pytest
from packaging.requirements import Requirement

from tests.frontends.distributed_worker import run
from tests.frontends.test_evaluate_distributed import CORPORA, FEEDS, files_under, launch, worker_spec

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(path.name for path in (ROOT / "metrics").iterdir() if (path / f"{path.name}.py").is_file())
# Token ids: stored by add/add_batch as int64 sequences, the path that evaluate before 0.4.5 broke with
# datasets 4 and later (its compute handed _compute datasets' lazy Column objects instead of lists).
TOKEN_IDS = (
    [[5, 6, 7, 8, 9, 5], [3, 4, 3], [9, 2, 2, 1], [7, 7]],
    [[[5, 6, 7, 9, 5]], [[3, 4], [4, 3, 4, 3]], [[9, 2, 1, 1]], [[7, 8, 7]]],
)
WORKER_CORPORA = dict(CORPORA, **{"token ids": TOKEN_IDS})
# The corpora a script takes, by its number of input shapes (input_features: text, then token lists,
# then token ids).
CORPORA_BY_SHAPES = {
    2: ["strings", "one reference"],
    3: ["strings", "one reference", "token lists"],
    4: ["strings", "one reference", "token lists", "token ids"],
}
# The metric run in two processes too (its cases only: evaluate's rendezvous costs a few tenths of a
# second a case; the rendezvous, cache files and done files are ValidatedMetric's, the same in every script).
DISTRIBUTED = "bleu"


def setup_cfg():
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    return config


def evaluate_requirement():
    """setup.cfg's install requirement on evaluate."""
    lines = setup_cfg()["options"]["install_requires"].splitlines()
    return next(requirement for requirement in map(Requirement, filter(None, lines)) if requirement.name == "evaluate")


def build_cases():
    """Every metric script on every input shape it takes, three times in a row: launch gives case k of
    process i the feed FEEDS[(k + i) % 3], so each shape is fed with add_batch, add and compute."""
    cases = []
    for name in SCRIPTS:
        shapes = len(evaluate.load(str(ROOT / "metrics" / name)).info.features)
        for corpus in CORPORA_BY_SHAPES[shapes]:
            cases += [{"metric": name, "corpus": corpus, "options": {}}] * len(FEEDS)
    return [dict(case, experiment_id=f"case{i}") for i, case in enumerate(cases)]


def results_of(tmp_path):
    """(evaluate version, results) of the worker run whose files are under ``tmp_path``."""
    out = pickle.loads((tmp_path / "results.pickle").read_bytes())
    return out["evaluate"], out["results"]


def run_here(tmp_path, cases):
    """The worker run in this process, with the environment's evaluate (its spec through JSON, as a
    worker process reads it)."""
    tmp_path.mkdir()
    run(json.loads(json.dumps(worker_spec(tmp_path, 1, 0, cases, timeout=120, corpora=WORKER_CORPORA))))
    return results_of(tmp_path)


def run_workers(tmp_path, num_process, cases, path_before_root):
    """What process 0 of ``num_process`` worker processes that import from ``path_before_root`` first got
    for ``cases``; a worker's error fails the test."""
    tmp_path.mkdir()
    outcome = launch(
        tmp_path, num_process, cases, timeout=120, late=None, corpora=WORKER_CORPORA, path_before_root=path_before_root
    )
    assert {process_id: code for process_id, (code, _) in outcome.items()} == dict.fromkeys(range(num_process), 0), (
        "\n".join(stderr for _, stderr in outcome.values())
    )
    if num_process > 1:  # (one process keeps evaluate's lock files: see ValidatedMetric._remove_run_files)
        assert files_under(tmp_path / "cache") == []
    return results_of(tmp_path)


def test_the_range_holds_the_tested_upper_end():
    """The environment's evaluate is the [test] extra's pin and in the range, and the range ends before
    the next minor release (untested)."""
    requirement = evaluate_requirement()
    assert f"evaluate=={evaluate.__version__}" in setup_cfg()["options.extras_require"]["test"].split()
    assert evaluate.__version__ in requirement.specifier
    assert sorted(spec.operator for spec in requirement.specifier) == ["<", ">="], requirement


@pytest.mark.slow
def test_the_lowest_evaluate_gives_what_the_environments_gives(tmp_path):
    """Three worker processes (evaluate's import takes seconds: it imports transformers) and one pip
    install: about 20 s."""
    lowest = next(spec.version for spec in evaluate_requirement().specifier if spec.operator == ">=")
    assert lowest != evaluate.__version__, "the range's ends are one version: there is no lower end to install"
    folder = tmp_path / "evaluate"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-compile",
            "--disable-pip-version-check",
            "--target",
            str(folder),
            f"evaluate=={lowest}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, (
        f"pip could not install evaluate=={lowest} (this test needs the registry):\n" + done.stderr
    )
    cases = build_cases()
    version, expected = run_here(tmp_path / "environment", cases)
    assert version == evaluate.__version__
    assert sorted(expected) == sorted(case["experiment_id"] for case in cases)
    for num_process, run_cases in ((1, cases), (2, [case for case in cases if case["metric"] == DISTRIBUTED])):
        version, results = run_workers(tmp_path / f"lowest-{num_process}", num_process, run_cases, [folder])
        assert version == lowest
        assert sorted(results) == sorted(case["experiment_id"] for case in run_cases)
        for experiment_id, result in results.items():
            assert result == expected[experiment_id], (num_process, experiment_id)
