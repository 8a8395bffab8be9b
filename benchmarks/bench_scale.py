"""Large corpora: throughput (pairs per second) and the driver's peak memory of ngrameval.score_dataset.

    python benchmarks/bench_scale.py [--pairs 10000000] [--chunk 100000] [--metrics bleu chrf rouge]
                                     [--rows in-process ray-2 ...] [--batch 10000] [--peer-memory-gb 16]
                                     [--repeats N] [--directory DIR]

Writes ``--pairs`` synthetic sentence pairs (4 references each; benchmarks/common.py's seeded generator,
one seed per chunk of ``--chunk`` pairs) as Parquet files, once (kept in ``--directory`` for later
runs), then scores them with each metric: in one process (the files streamed batch by batch through
RunningTotals), with Ray Data on 1 and 2 CPUs, with ``datasets`` ``num_proc=2``, and with the peers on
the same pairs held in memory (sacrebleu and bleuscore for BLEU, sacrebleu for chrF, rouge-score-rs's
batch mode for ROUGE-1/2/L when installed). ngrameval's rows take ``--batch`` pairs at a time (the
``batch_size`` of ``score_dataset``; a call's fixed costs, ROUGE's loops over token positions above all,
are shared by more pairs in larger batches). Every row runs in a fresh process; its peak memory is that
process's (Ray's and datasets' workers not counted: the driver's). Times are the best of ``--repeats``.
ngrameval's rows must agree to the last bit, the peers with them to 1e-9. A peer holds the whole corpus
in memory: its process gets at most ``--peer-memory-gb`` of address space, so that one too large for
the machine fails with a MemoryError instead of bringing it down.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

OPTIONS: dict[str, dict[str, Any]] = {"bleu": {}, "chrf": {}, "rouge": {"rouge_types": ["rouge1", "rouge2", "rougeL"]}}
# ROUGE is scored against the first reference (rouge-score-rs's batch mode takes one per prediction).
REFERENCES = {"bleu": "references", "chrf": "references", "rouge": "reference"}


def write_corpus(directory: str, pairs: int, chunk: int) -> list[str]:
    """The Parquet files of the corpus (written only if missing). A file's pairs depend only on the chunk
    size and its place, so a smaller corpus is the first files of a larger one."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from common import SEED, synthetic_corpus

    paths = []
    for part, start in enumerate(range(0, pairs, chunk)):
        size = min(chunk, pairs - start)
        path = os.path.join(directory, f"pairs-{chunk}-part{part:05d}{'' if size == chunk else f'-{size}'}.parquet")
        if not os.path.exists(path):
            corpus = synthetic_corpus(size, seed=SEED + part)
            pq.write_table(
                pa.table(
                    {
                        "prediction": corpus.systems[0],
                        "references": corpus.references,
                        "reference": [group[0] for group in corpus.references],
                    }
                ),
                path,
            )
        paths.append(path)
    return paths


def read_pairs(paths: list[str], references_column: str):
    import pyarrow.parquet as pq

    predictions, references = [], []
    for path in paths:
        table = pq.read_table(path)
        predictions += table.column("prediction").to_pylist()
        references += table.column(references_column).to_pylist()
    return predictions, references


def headline(metric: str, result: Any) -> dict[str, float]:
    """Output name -> corpus score of a metric's result (ROUGE: each type's F-measure)."""
    return dict(result.fmeasure) if metric == "rouge" else {metric: getattr(result, metric)}


def run_row(row: str, metric: str, paths: list[str], batch: int) -> dict[str, float]:
    """One measurement in this process: output name -> score."""
    options, column = OPTIONS[metric], REFERENCES[metric]
    if row == "in-process":
        import pyarrow.parquet as pq

        from ngrameval.metric import RunningTotals, get_family

        family, running = get_family(metric), RunningTotals(metric)
        for path in paths:
            for record_batch in pq.ParquetFile(path).iter_batches(batch_size=batch):
                columns = record_batch.to_pydict()
                running.add(family.shard_statistics(columns["prediction"], columns[column], None, **options))
        return headline(metric, running.result())
    if row.startswith("ray-"):
        import ray

        import ngrameval

        ray.init(num_cpus=int(row.split("-")[1]), include_dashboard=False, log_to_driver=False, configure_logging=False)
        return headline(metric, ngrameval.score_dataset(paths, metric, references=column, batch_size=batch, **options))
    if row == "datasets-2":
        import datasets

        import ngrameval

        dataset = datasets.load_dataset("parquet", data_files=paths, split="train")
        return headline(
            metric, ngrameval.score_dataset(dataset, metric, references=column, batch_size=batch, num_proc=2, **options)
        )
    predictions, references = read_pairs(paths, column)
    streams = [list(stream) for stream in zip(*references)] if metric != "rouge" else []
    if row == "sacrebleu":
        import sacrebleu

        if metric == "bleu":
            return {"bleu": sacrebleu.corpus_bleu(predictions, streams).score / 100}
        return {"chrf": sacrebleu.corpus_chrf(predictions, streams).score / 100}
    if row == "bleuscore":
        import bleuscore

        return {
            "bleu": bleuscore.compute(references, predictions, max_order=4, smooth=False, ref_len_method="closest")[
                "bleu"
            ]
        }
    if row == "rouge-score-rs":
        from rouge_score_rs.rouge_scorer import RougeScorer

        types = options["rouge_types"]
        scores = RougeScorer(types).score_batch(references, predictions)
        return {name: sum(score[name].fmeasure for score in scores) / len(scores) for name in types}
    raise SystemExit(f"unknown row {row}")


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited from the parent)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise SystemExit("no VmHWM in /proc/self/status (Linux only)")


ENGINE_ROWS = ["in-process", "ray-1", "ray-2", "datasets-2"]
PEERS = {"bleu": ["sacrebleu", "bleuscore"], "chrf": ["sacrebleu"], "rouge": ["rouge-score-rs"]}


def measure(row: str, metric: str, paths: list[str], repeats: int, peer_memory_gb: float, batch: int) -> dict[str, Any]:
    best: dict[str, Any] = {}
    limit = [] if row in ENGINE_ROWS else ["--memory-limit-gb", str(peer_memory_gb)]
    for _ in range(repeats):
        done = subprocess.run(
            [
                sys.executable,
                __file__,
                "--row",
                row,
                "--metric",
                metric,
                *limit,
                "--batch",
                str(batch),
                "--paths",
                *paths,
            ],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
        result = json.loads(done.stdout.strip().splitlines()[-1])
        if not best or result["seconds"] < best["seconds"]:
            best = result
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=10_000_000)
    parser.add_argument("--chunk", type=int, default=100_000)
    parser.add_argument("--metrics", nargs="+", default=["bleu", "chrf", "rouge"], choices=sorted(OPTIONS))
    parser.add_argument(
        "--rows",
        nargs="+",
        help="rows to run (default: all): "
        + ", ".join(ENGINE_ROWS + sorted({p for peers in PEERS.values() for p in peers})),
    )
    parser.add_argument("--batch", type=int, default=10_000, help="pairs per batch of ngrameval's rows")
    parser.add_argument("--peer-memory-gb", type=float, default=16.0)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--directory", default=os.path.join(tempfile.gettempdir(), "ngrameval-bench-scale"))
    parser.add_argument("--row", help=argparse.SUPPRESS)
    parser.add_argument("--metric", help=argparse.SUPPRESS)
    parser.add_argument("--paths", nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--memory-limit-gb", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.row:  # a child process: one measurement, printed as JSON
        if args.memory_limit_gb:
            import resource

            limit = int(args.memory_limit_gb * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        start = time.perf_counter()
        scores = run_row(args.row, args.metric, args.paths, args.batch)
        seconds = time.perf_counter() - start
        print(json.dumps({"seconds": seconds, "peak_mb": peak_rss_mb(), "scores": scores}))
        return
    if args.pairs < 1 or args.chunk < 1 or args.batch < 1:
        raise SystemExit("--pairs, --chunk and --batch must be positive")
    unknown = set(args.rows or ()) - set(ENGINE_ROWS).union(*PEERS.values())
    if unknown:
        raise SystemExit(f"unknown rows: {', '.join(sorted(unknown))}")
    os.makedirs(args.directory, exist_ok=True)
    start = time.perf_counter()
    paths = write_corpus(args.directory, args.pairs, args.chunk)
    print(
        f"{args.pairs} pairs, 4 references each, in {len(paths)} Parquet files "
        f"({time.perf_counter() - start:.1f} s to write or find); {os.cpu_count()} CPUs; batches of {args.batch}"
    )
    for metric in args.metrics:
        print(f"\n{metric} {OPTIONS[metric] or ''}")
        print(f"{'row':<16}{'seconds':>10}{'pairs/s':>12}{'peak MB':>10}  score")
        reference = None
        for row in [row for row in ENGINE_ROWS + PEERS[metric] if not args.rows or row in args.rows]:
            result = measure(row, metric, paths, args.repeats, args.peer_memory_gb, args.batch)
            if "error" in result:
                print(f"{row:<16}  failed: {result['error']}")
                continue
            scores = result["scores"]
            if reference is None:
                reference = scores
            exact = row in ENGINE_ROWS
            agree = all(
                scores[k] == reference[k] if exact else abs(scores[k] - reference[k]) <= 1e-9
                for k in scores
                if k in reference
            )
            first = next(iter(scores.values()))
            print(
                f"{row:<16}{result['seconds']:>10.2f}{args.pairs / result['seconds']:>12.0f}"
                f"{result['peak_mb']:>10.0f}  {first:.12f}{'' if agree else '  DIFFERS'}"
            )


if __name__ == "__main__":
    main()
