"""evaluate's distributed mode, as training code uses it: separate processes load each metric script with
``evaluate.load(path, num_process=N, process_id=i, experiment_id=...)`` and a shared temporary cache
directory, add their shares (``add_batch``, ``add`` or ``compute``), and process 0 gets exactly what one
process computing the whole corpus gets, for every metric, every variant and options given to compute.
A process that never joins, or that joins and never computes, ends in a clear error, not a hang; after
success no lock or Arrow file is left.

Each worker process (distributed_worker.py) runs every case in one go, so a run costs a few process
starts, not one per metric."""

import json
import os
import pickle
import re
import subprocess
import sys
import time
from pathlib import Path

import evaluate
import pytest

from ngrameval.metric import get_family, metric_names
from tests.frontends.distributed_worker import shard

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("distributed_worker.py")

PREDICTIONS = [
    "the cat sat on the mat",
    "a dog barks at the postman",
    "It is 3.5 km, not 4.",
    "",
    "Un café noir, très naïf.",
    "two dogs are playing in the grass",
    "he read the book because he was interested in world history",
    "the quick brown fox jumps over the lazy dog",
    "a man rides a horse on the beach",
]
# Reference shapes mixed across the shards (a string, lists of one to three), so that the processes'
# inputs differ in shape.
REFERENCES = [
    ["the cat sat on a mat", "a cat sat on the mat"],
    "the dog barks at the postman",
    ["It is 3.5 km, not 4 km.", "it's 3.5 km", "three and a half kilometres"],
    ["nothing here"],
    "un café noir",
    ["two dogs play in the grass", "dogs playing on a lawn"],
    "he was interested in world history because he read the book",
    ["a quick brown fox jumped over a lazy dog", "the fast fox jumps over the dog"],
    ["a man riding a horse on a beach", "a person rides a horse"],
]
CORPORA = {
    "strings": (PREDICTIONS, REFERENCES),
    "one reference": (PREDICTIONS, [refs if isinstance(refs, str) else refs[0] for refs in REFERENCES]),
    "token lists": (
        [p.split() for p in PREDICTIONS],
        [[r.split()] if isinstance(r, str) else [x.split() for x in r] for r in REFERENCES],
    ),
}
CONFIDENCE = {"n_samples": 20, "seed": 5}
# Per metric and variant (None: a metric without variants), options given to compute beyond the
# variant: the per-segment outputs (whose order is the processes' order), explanations, and on each
# metric's first variant bootstrap intervals (resampled by segment position).
OPTIONS = {
    ("bleu", "sacrebleu"): {"smooth": "floor", "sentence_level": True, "confidence": CONFIDENCE},
    ("bleu", "nltk"): {"smooth": "method4", "sentence_level": True, "explain": True},
    ("bleu", "mteval"): {"lowercase": True, "sentence_level": True},
    ("bleu", "nmt"): {"smooth": True, "explain": True},
    ("bleu", "d2l"): {"max_order": 2, "sentence_level": True},
    ("bleu", "coco"): {"sentence_level": True},
    ("nist", "nltk"): {"n": 3, "sentence_level": True, "explain": True, "confidence": CONFIDENCE},
    ("nist", "mteval"): {"sentence_level": True, "explain": True},
    ("rouge", "rouge_score"): {
        "rouge_types": ["rouge1", "rouge3", "rougeL", "rougeW", "rougeS4", "rougeSU*"],
        "use_stemmer": True,
        "multi_ref": "pooled",
        "use_aggregator": False,
        "confidence": CONFIDENCE,
    },
    # ROUGE-1.5.5's averages come with its bootstrap interval over evaluation ids 1..N.
    ("rouge", "rouge155"): {
        "rouge_types": ["rouge1", "rougeL", "rougeW", "rougeSU4"],
        "use_stemmer": True,
        "remove_stopwords": True,
    },
    ("cider", "cider-d"): {"explain": True, "confidence": CONFIDENCE},
    ("cider", "cider"): {"max_order": 3, "sigma": 3.0, "lowercase": True, "explain": True},
    ("meteor", "meteor15"): {"explain": True, "confidence": CONFIDENCE},
    ("meteor", "nltk"): {"alpha": 0.8, "explain": True},
    ("coco_caption", None): {"meteor_options": {"modules": ["exact", "stem"]}, "confidence": CONFIDENCE},
    ("chrf", "sacrebleu"): {"word_order": 2, "sentence_level": True, "confidence": CONFIDENCE},
    ("chrf", "nltk"): {"sentence_level": True},
    ("gleu", "nltk"): {"sentence_level": True, "confidence": CONFIDENCE},
    ("gleu", "google_bleu"): {"min_len": 2, "sentence_level": True},
    ("ter", None): {"normalized": True, "sentence_level": True, "explain": True, "confidence": CONFIDENCE},
}
CORPUS_OF = {("chrf", "nltk"): "one reference"}  # NLTK's chrF takes one reference per segment
FEEDS = ("add_batch", "add", "compute")


def variants(name):
    """The variants of metric ``name`` (its module's VARIANTS), or (None,) for a metric without."""
    return getattr(sys.modules[get_family(name).function.__module__], "VARIANTS", (None,))


def load_single(name):
    return evaluate.load(str(ROOT / "metrics" / name))


def takes_token_lists(name):
    return len(load_single(name).info.features) >= 3  # (a fourth: token ids)


def build_cases():
    """Every metric and variant with its options, on strings, and each metric's default on token lists
    where the script takes them."""
    cases = []
    for name in metric_names():
        for variant in variants(name):
            options = dict(OPTIONS[name, variant], **({} if variant is None else {"variant": variant}))
            cases.append({"metric": name, "corpus": CORPUS_OF.get((name, variant), "strings"), "options": options})
        if takes_token_lists(name):
            cases.append({"metric": name, "corpus": "token lists", "options": {}})
    for i, case in enumerate(cases):
        case["experiment_id"] = f"case{i}"
    return cases


def test_every_metric_and_variant_has_a_case():
    assert set(OPTIONS) == {(name, variant) for name in metric_names() for variant in variants(name)}


@pytest.fixture(scope="module")
def cases():
    return build_cases()


@pytest.fixture(scope="module")
def expected(cases):
    """Per case, the single-process compute of the whole corpus, checked against the ngrameval function."""
    results = {}
    for case in cases:
        predictions, references = CORPORA[case["corpus"]]
        result = load_single(case["metric"]).compute(predictions=predictions, references=references, **case["options"])
        options = {key: value for key, value in case["options"].items() if key != "confidence"}
        direct = get_family(case["metric"]).function(predictions, references, **options).as_dict()
        assert {key: value for key, value in result.items() if key != "confidence"} == direct
        assert ("confidence" in result) == ("confidence" in case["options"])
        results[case["experiment_id"]] = result
    return results


def worker_spec(tmp_path, num_process, process_id, cases, *, timeout, feeds=None, corpora=CORPORA):
    """The spec of worker ``process_id`` (distributed_worker.py), whose files go under ``tmp_path``. It
    feeds the k-th case with FEEDS[(k + process_id) % 3] (the processes of one case feed it in different
    ways), or with ``feeds[process_id]``."""
    process_cases = [
        dict(case, feed=feeds[process_id] if feeds and process_id in feeds else FEEDS[(k + process_id) % len(FEEDS)])
        for k, case in enumerate(cases)
    ]
    return {
        "num_process": num_process,
        "process_id": process_id,
        "cache_dir": str(tmp_path / "cache"),
        "timeout": timeout,
        "metrics_dir": str(ROOT / "metrics"),
        "corpora": corpora,
        "out": str(tmp_path / "results.pickle"),
        "cases": process_cases,
    }


def launch(
    tmp_path,
    num_process,
    cases,
    *,
    timeout,
    late,
    absent=(),
    feeds=None,
    stop_others=False,
    corpora=CORPORA,
    path_before_root=(),
):
    """Start worker processes 0..num_process-1 (except ``absent``; their specs: worker_spec), ``late`` a
    few seconds after the others, and wait for them (with ``stop_others``, stop the others once process
    0 has ended). ``path_before_root``: folders that the workers import from before the repository and
    the environment (test_evaluate_oldest.py's older evaluate). Returns {process id: (return code, stderr)}."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([*map(str, path_before_root), str(ROOT), os.environ.get("PYTHONPATH", "")]),
        HF_HOME=str(tmp_path / "hf_home"),
        HF_HUB_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_EVALUATE_OFFLINE="1",
    )
    processes = {}
    for process_id in sorted(set(range(num_process)) - set(absent), key=lambda i: i == late):
        spec = worker_spec(tmp_path, num_process, process_id, cases, timeout=timeout, feeds=feeds, corpora=corpora)
        spec_path = tmp_path / f"spec{process_id}.json"
        spec_path.write_text(json.dumps(spec), encoding="utf-8")
        if process_id == late:
            time.sleep(3)  # a process that starts late: the others wait for it at every rendezvous
        processes[process_id] = subprocess.Popen(
            [sys.executable, str(WORKER), str(spec_path)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
    outcome = {}
    for process_id, process in sorted(processes.items()):
        if stop_others and process_id > 0 and 0 in outcome:
            process.kill()
        try:
            _, stderr = process.communicate(timeout=900)  # a guard against a hang, far above any run
        except subprocess.TimeoutExpired:
            for other in processes.values():
                other.kill()
            pytest.fail(f"process {process_id} of {num_process} hung")
        outcome[process_id] = (process.returncode, stderr)
    return outcome


def files_under(directory):
    return sorted(str(path.relative_to(directory)) for path in directory.rglob("*") if path.is_file())


@pytest.mark.parametrize("num_process, late", [(2, 0), (4, 3)])
@pytest.mark.slow  # processes wait for each other
def test_process_0_gets_the_single_process_result(tmp_path, cases, expected, num_process, late):
    assert all(len(shard(PREDICTIONS, num_process, i)) > 0 for i in range(num_process))
    assert sum((shard(PREDICTIONS, num_process, i) for i in range(num_process)), []) == PREDICTIONS
    outcome = launch(tmp_path, num_process, cases, timeout=300, late=late)
    assert {process_id: code for process_id, (code, _) in outcome.items()} == dict.fromkeys(range(num_process), 0), (
        "\n".join(stderr for _, stderr in outcome.values())
    )
    results = pickle.loads((tmp_path / "results.pickle").read_bytes())["results"]
    for case in cases:
        assert results[case["experiment_id"]] == expected[case["experiment_id"]], case
    # evaluate's Arrow files and every lock file of the runs are gone; only the metrics' folders stay.
    assert files_under(tmp_path / "cache") == []


def last_line(stderr):
    return stderr.strip().splitlines()[-1]


@pytest.mark.slow  # processes wait for each other
def test_a_process_that_never_joins_is_a_timeout_error(tmp_path):
    case = {"metric": "bleu", "corpus": "strings", "options": {}, "experiment_id": "never"}
    outcome = launch(tmp_path, 3, [case], timeout=5, late=None, absent=[2])
    code, stderr = outcome[0]
    assert code != 0
    assert last_line(stderr).startswith("TimeoutError: process 0 of bleu with num_process=3, experiment_id='never'"), (
        stderr
    )
    # (Process 1 too, if it started more than the timeout after process 0.)
    assert re.search(
        r"process\(es\) (1, )?2 did not join within timeout=5 s; every process must load the metric "
        "with the same num_process, experiment_id and cache_dir",
        last_line(stderr),
    )
    code, stderr = outcome[1]
    assert code != 0
    assert last_line(stderr).startswith("TimeoutError: process 1 of bleu with num_process=3"), stderr
    assert "within timeout=5 s" in last_line(stderr)


@pytest.mark.slow  # processes wait for each other
def test_process_0_that_never_joins_is_a_timeout_error(tmp_path):
    case = {"metric": "gleu", "corpus": "strings", "options": {}, "experiment_id": "no-first"}
    code, stderr = launch(tmp_path, 2, [case], timeout=5, late=None, absent=[0])[1]
    assert code != 0
    assert "TimeoutError: process 1 of gleu with num_process=2, experiment_id='no-first'" in last_line(stderr), stderr
    assert "process 0 did not join within timeout=5 s" in last_line(stderr)


@pytest.mark.slow  # processes wait for each other
def test_a_process_that_joins_and_never_computes_is_a_timeout_error(tmp_path):
    case = {"metric": "chrf", "corpus": "strings", "options": {}, "experiment_id": "stalled"}
    # The timeout covers the two processes' start (they must join); process 1 then never computes.
    outcome = launch(tmp_path, 2, [case], timeout=12, late=None, feeds={1: "stall"}, stop_others=True)
    code, stderr = outcome[0]
    assert code != 0
    assert last_line(stderr).startswith("TimeoutError: process 0 of chrf with num_process=2"), stderr
    assert "process(es) 1 joined but did not call compute within timeout=12 s" in last_line(stderr)


@pytest.mark.slow  # processes wait for each other
def test_a_process_that_ends_without_compute_is_not_scored(tmp_path):
    """Its lock is released when it ends, as when it finishes: its Arrow file may be partial."""
    case = {"metric": "ter", "corpus": "strings", "options": {}, "experiment_id": "ended"}
    outcome = launch(tmp_path, 2, [case], timeout=60, late=None, feeds={0: "add_batch", 1: "exit"})
    assert outcome[1][0] == 0
    code, stderr = outcome[0]
    assert code != 0
    assert last_line(stderr) == (
        f"ngrameval.errors.InputError: process 0 of ter with num_process=2, experiment_id='ended' and cache directory "
        f"{tmp_path / 'cache' / 'ter' / 'default'}: process(es) 1 ended without calling compute (did they fail?), "
        "so their data may be incomplete; nothing was scored"
    ), stderr
    assert not (tmp_path / "results.pickle").exists()


@pytest.mark.slow  # processes wait for each other
def test_a_bad_option_fails_on_process_0_and_leaves_no_file(tmp_path):
    """Options reach the metric on process 0 only, after the gathering: the metric's own InputError then,
    and the gathered files are removed as after a success."""
    case = {"metric": "nist", "corpus": "strings", "options": {"variant": "bogus"}, "experiment_id": "bad"}
    outcome = launch(tmp_path, 2, [case], timeout=60, late=None)
    assert outcome[1][0] == 0
    code, stderr = outcome[0]
    assert code != 0
    assert last_line(stderr).startswith("ngrameval.errors.InputError: unknown variant 'bogus'"), stderr
    assert files_under(tmp_path / "cache") == []


def distributed(name, tmp_path, process_id=1):
    return evaluate.load(
        str(ROOT / "metrics" / name),
        num_process=2,
        process_id=process_id,
        experiment_id="x",
        cache_dir=str(tmp_path),
        timeout=1,
    )


def test_compute_without_data_in_a_process_is_refused_at_once(tmp_path):
    with pytest.raises(
        ValueError,
        match=re.escape(
            "process 1 of rouge with num_process=2, experiment_id='x' and "
            f"cache directory {tmp_path / 'rouge' / 'default'} has no data"
        ),
    ):
        distributed("rouge", tmp_path).compute(use_stemmer=True)
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("name", ["cider", "meteor", "coco_caption"])
def test_gts_res_are_refused_across_processes_and_after_add(tmp_path, name):
    """gts/res bring image ids, which evaluate cannot gather: refused before anything is stored."""
    gts, res = {"a": ["a cat sits"], "b": ["a dog runs"]}, {"a": ["a cat"], "b": ["a dog"]}
    with pytest.raises(ValueError, match="not after add/add_batch, nor with num_process > 1"):
        distributed(name, tmp_path).compute(gts=gts, res=res)
    assert files_under(tmp_path) == []
    metric = load_single(name)
    metric.add_batch(predictions=["a cat"], references=[["a cat sits"]])
    with pytest.raises(ValueError, match="not after add/add_batch, nor with num_process > 1"):
        metric.compute(gts=gts, res=res)


@pytest.mark.parametrize("name", ["bleu", "ter"])
def test_add_checks_and_normalizes_like_compute(name):
    """add and add_batch validate with ngrameval at once and store every reference shape as a list, so
    that string and list references can follow one another."""
    metric = load_single(name)
    with pytest.raises(ValueError, match=r"references\[0\] is None"):
        metric.add(prediction="a b", reference=None)
    with pytest.raises(ValueError, match="predictions and references differ in length"):
        metric.add_batch(predictions=["a b"], references=[])
    metric.add(prediction=PREDICTIONS[0], reference=REFERENCES[0])
    metric.add(prediction=PREDICTIONS[1], reference=REFERENCES[1])
    metric.add_batch(predictions=PREDICTIONS[2:], references=REFERENCES[2:])
    assert (
        metric.compute(sentence_level=True)
        == get_family(name).function(PREDICTIONS, REFERENCES, sentence_level=True).as_dict()
    )
