"""One process of a distributed evaluate run, as training code runs it: for every case of a spec, load
the metric script with ``evaluate.load(path, num_process=N, process_id=i, experiment_id=...)``, feed
this process's contiguous shard of the corpus and call ``compute``; process 0 pickles the results.

Run as ``python tests/frontends/distributed_worker.py SPEC.json`` (test_evaluate_distributed.py starts
several at once). The spec holds: num_process, process_id, cache_dir, timeout, metrics_dir (the
repository's metrics/), corpora (name -> [predictions, references]), out (process 0's pickle:
{"evaluate": the version that ran, "results": experiment_id -> result}) and
cases, a list of {"experiment_id", "metric", "corpus", "options", "feed"}; feed is "add_batch" (the
shard in batches), "add" (one segment at a time), "compute" (the shard given to compute), "exit"
(add_batch, then end without compute, as a process that fails) or "stall" (add_batch, then wait
without compute for three times the timeout, as a process that hangs).
"""

import json
import pickle
import sys
import time
from pathlib import Path


def shard(rows, num_process, process_id):
    """The process's contiguous share of ``rows`` (the first ``len(rows) % num_process`` shares one
    longer), so that the shards of processes 0..N-1, in that order, are ``rows``."""
    size, extra = divmod(len(rows), num_process)
    start = process_id * size + min(process_id, extra)
    return rows[start : start + size + (process_id < extra)]


def run(spec):
    import evaluate

    results = {}
    num_process, process_id = spec["num_process"], spec["process_id"]
    for case in spec["cases"]:
        predictions, references = (shard(rows, num_process, process_id) for rows in spec["corpora"][case["corpus"]])
        metric = evaluate.load(
            str(Path(spec["metrics_dir"]) / case["metric"]),
            num_process=num_process,
            process_id=process_id,
            experiment_id=case["experiment_id"],
            cache_dir=spec["cache_dir"],
            timeout=spec["timeout"],
        )
        options = case["options"]
        if case["feed"] in ("exit", "stall"):
            metric.add_batch(predictions=predictions, references=references)
            if case["feed"] == "stall":
                time.sleep(3 * spec["timeout"])
            return
        if case["feed"] == "compute":
            results[case["experiment_id"]] = metric.compute(predictions=predictions, references=references, **options)
            continue
        if case["feed"] == "add":
            for prediction, reference in zip(predictions, references):
                metric.add(prediction=prediction, reference=reference)
        else:
            for start in range(0, len(predictions), 2):
                metric.add_batch(predictions=predictions[start : start + 2], references=references[start : start + 2])
        results[case["experiment_id"]] = metric.compute(**options)
    if process_id == 0:
        Path(spec["out"]).write_bytes(pickle.dumps({"evaluate": evaluate.__version__, "results": results}))
    elif any(result is not None for result in results.values()):
        raise AssertionError(f"process {process_id} got a result; only process 0 should")


if __name__ == "__main__":
    run(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
