"""Score corpora too large for one process or for memory: Ray Data, files, and Hugging Face datasets.

:func:`score_dataset` computes the statistics of each batch of rows where the rows are (Ray's workers,
or ``datasets``' processes), merges them in corpus order on the driver with
:class:`ngrameval.metric.RunningTotals` (memory bounded by a batch), and scores the sums there. A
metric whose statistics need every reference first (NIST's information weights, CIDEr's document
frequencies) takes two passes: the batches' reference counts are summed, then every batch's
statistics use that corpus-wide table.

>>> import datasets
>>> rows = datasets.Dataset.from_dict({"prediction": ["the cat sat on the mat", "a dog barks"],
...                                    "references": [["the cat sat on a mat"], ["the dog barks"]]})
>>> result = score_dataset(rows, "bleu", batch_size=1)
>>> import ngrameval
>>> result.as_dict() == ngrameval.bleu(rows["prediction"], rows["references"]).as_dict()
True
>>> result.statistics is None   # (the per-segment parts: see MetricFamily.result)
True
"""

from __future__ import annotations

import functools
import glob
import itertools
import os
import pickle
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from ngrameval.engine.inputs import check_positive_int
from ngrameval.errors import InputError
from ngrameval.leaderboard.reading import table_format, table_rows
from ngrameval.metric import ReferenceCounts, get_family, merged_result, summed_counts

Columns = Union[str, Sequence[str]]
# Parquet, and the tables ngrameval.leaderboard.reading reads (a .txt file there is plain text, with no rows)
FILE_FORMATS = (".parquet", ".jsonl", ".json", ".tsv")


def score_dataset(
    dataset: Any,
    metric: str,
    predictions: str = "prediction",
    references: Columns = "references",
    *,
    batch_size: int = 1000,
    num_proc: int | None = None,
    **options: Any,
) -> Any:
    """Score the rows of ``dataset`` with ``metric`` and ``options``: what ``ngrameval.<metric>(predictions,
    references, **options)`` returns for the same rows, to the last bit. Parts given only when asked for
    (``sentence_scores``, ``explanation``, ``statistics``) are None and options asking for them (``sentence_level``,
    ``explain``, ROUGE's ``use_aggregator=False`` or ``bootstrap``) refused; ROUGE-1.5.5 needs ``aggregate="mean"``.
    Per-segment parts a result always has (CIDEr's and METEOR's ``scores``, COCO's ``per_item``) are spooled to a
    temporary file.

    ``dataset``: a ``ray.data.Dataset``; paths or globs of ``.jsonl``, ``.json``, ``.parquet`` or ``.tsv`` files
    (``.gz`` but for Parquet), read by Ray tasks (one per file, in order) on the instance ``ray.init`` connected to;
    or a ``datasets.Dataset`` (``num_proc`` processes) or ``IterableDataset``. ``predictions`` names the column of
    predictions, ``references`` that of references (a string or list of strings per row) or a list of columns of
    one reference each. Rows are scored in order, ``batch_size`` at a time; NIST and CIDEr ``idf="corpus"`` read
    them twice.
    """
    family = get_family(metric)
    options = family.merged_options(options)
    batch_size = check_positive_int("batch_size", batch_size)
    if num_proc is not None:
        num_proc = check_positive_int("num_proc", num_proc)
    if not isinstance(predictions, str):
        raise InputError(f"predictions must name a column, got {predictions!r}")
    if not isinstance(references, str) and (
        not isinstance(references, (list, tuple)) or not references or not all(isinstance(c, str) for c in references)
    ):
        raise InputError(f"references must name a column or list columns, got {references!r}")
    job = _Job(family.name, predictions, references, options, batch_size)
    kind = type(dataset)
    if kind.__module__.startswith("datasets.") and kind.__name__ in ("Dataset", "IterableDataset"):
        return merged_result(family.name, map(_loaded, _hf_passes(dataset, job, num_proc)))
    if num_proc is not None:
        raise InputError("num_proc is for a datasets.Dataset; Ray runs as many tasks as its CPUs")
    if isinstance(dataset, (str, os.PathLike)) or (
        isinstance(dataset, (list, tuple)) and dataset and all(isinstance(p, (str, os.PathLike)) for p in dataset)
    ):
        return merged_result(family.name, map(_loaded, _ray_passes(_path_dataset(dataset), job, files=True)))
    if kind.__module__.startswith("ray.data"):
        return merged_result(family.name, map(_loaded, _ray_passes(dataset, job, files=False)))
    raise InputError(
        f"dataset must be a ray.data.Dataset, a datasets.Dataset or IterableDataset, or paths of "
        f"{', '.join(FILE_FORMATS)} files; got {type(dataset).__name__}"
    )


@dataclass
class _Job:
    """What every batch needs: the metric, the column names, the options, the batch size."""

    metric: str
    predictions: str
    references: Columns
    options: dict[str, Any]
    batch_size: int

    @property
    def columns(self) -> list[str]:
        return [self.predictions] + ([self.references] if isinstance(self.references, str) else list(self.references))

    def computed(self, counting: bool, table: ReferenceCounts | None, hyps: list[str], refs: list[list[str]]) -> Any:
        """A batch's reference counts (``counting``: a two-pass metric's first pass) or statistics."""
        family = get_family(self.metric)
        if counting:
            return family.reference_counts(hyps, refs, **self.options)
        return family.shard_statistics(hyps, refs, table, **self.options)


def _values(column: Any) -> list[Any]:
    return column.tolist() if isinstance(column, np.ndarray) else list(column)


def _segments(batch: dict[str, Any], job: _Job, where: Callable[[int], str]) -> tuple[list[str], list[list[str]]]:
    """(predictions, references per row) of a batch (a dict of columns), each row checked."""
    for column in job.columns:
        if column not in batch:
            raise InputError(f"{where(0)}: no column {column!r}; columns: {', '.join(batch)}")
    hyps = _values(batch[job.predictions])
    for i, hyp in enumerate(hyps):
        if not isinstance(hyp, str):
            raise InputError(f"{where(i)}: the prediction must be a string, got {hyp!r}")
    if isinstance(job.references, str):
        groups = _values(batch[job.references])
    else:
        groups = [list(row) for row in zip(*(_values(batch[c]) for c in job.references))]
    refs = []
    for i, group in enumerate(groups):
        group = group.tolist() if isinstance(group, np.ndarray) else group
        group = [group] if isinstance(group, str) else group
        if not (isinstance(group, (list, tuple)) and group and all(isinstance(r, str) for r in group)):
            raise InputError(f"{where(i)}: references must be a string or a non-empty list of strings, got {group!r}")
        refs.append(list(group))
    return hyps, refs


def _blob(compute: Callable[[], Any]) -> bytes:
    """The pickled result of ``compute``, or the error it raised: Ray Data wraps a task's error in its
    own exception types (and may drop the original), so the driver raises the error it finds here."""
    try:
        value = compute()
    except Exception as error:  # every kind: the driver raises it as it was
        value = error
    return pickle.dumps(value)


def _loaded(blob: bytes) -> Any:
    value = pickle.loads(blob)
    if isinstance(value, Exception):
        raise value
    return value


_TABLES: dict[str, Any] = {}  # per worker process: the corpus-wide counts, fetched once per object


def _table(reference: list[Any] | None) -> ReferenceCounts | None:
    if reference is None:
        return None
    import ray

    key = reference[0].hex()
    if key not in _TABLES:
        _TABLES.clear()
        _TABLES[key] = ray.get(reference[0])
    return _TABLES[key]


def _ray_blobs_of(
    batch: dict[str, Any], job: _Job, counting: bool, table: list[Any] | None, files: bool
) -> Iterator[dict[str, Any]]:
    """Ray Data's map function: the blob of a batch of rows, or with ``files`` one per batch of rows of each file
    the batch names (after an error, that error's blob and no more)."""
    if not files:
        rows = functools.partial(_segments, batch, job, lambda i: f"a row of a batch (row {i} of the batch)")
        yield _column(_blob(lambda: job.computed(counting, _table(table), *rows())))
        return
    for path in _values(batch["path"]):
        try:
            for hyps, refs, lines in _file_batches(path, job):
                try:
                    value = job.computed(counting, _table(table), hyps, refs)
                except InputError as error:  # name the rows the batch came from
                    raise InputError(f"{path}, lines {lines[0]}-{lines[1]}: {error}") from None
                yield _column(pickle.dumps(value))
        except Exception as error:  # the driver raises it as it was (a malformed row names its file and line)
            yield _column(pickle.dumps(error))
            return


def _column(blob: bytes) -> dict[str, Any]:
    return {"blob": np.array([blob], dtype=object)}


def _ray_passes(dataset: Any, job: _Job, files: bool) -> Iterator[bytes]:
    import ray

    dataset.context.execution_options.preserve_order = True  # segment order: NLTK BLEU reads the last one

    def blobs(counting: bool, table: list[Any] | None) -> Iterator[bytes]:
        settings = {"job": job, "counting": counting, "table": table, "files": files}
        size = 1 if files else job.batch_size  # a file task reads a whole file
        mapped = dataset.map_batches(_ray_blobs_of, batch_size=size, batch_format="numpy", fn_kwargs=settings)
        for batch in mapped.iter_batches(batch_size=None, batch_format="numpy"):
            yield from batch["blob"].tolist()

    needed = get_family(job.metric).needs_reference_counts(**job.options)
    return blobs(False, [ray.put(summed_counts(map(_loaded, blobs(True, None))))] if needed else None)


def _path_dataset(paths: Any) -> Any:
    files = []
    for pattern in [paths] if isinstance(paths, (str, os.PathLike)) else list(paths):
        pattern = os.fspath(pattern)
        matched = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not matched:
            raise InputError(f"no file matches {pattern!r}")
        for path in matched:
            if not os.path.isfile(path):
                raise InputError(f"no file {path!r}")
            if _format(path) is None:
                plain = (
                    " (a .txt file is plain text, one segment a line, with no columns)"
                    if path.lower().endswith((".txt", ".txt.gz"))
                    else ""
                )
                raise InputError(
                    f"{path}: unknown format{plain}; files of rows must end in "
                    f"{', '.join(FILE_FORMATS)} (gzip-compressed: .jsonl.gz, .json.gz, .tsv.gz)"
                )
            files.append(os.path.abspath(path))
    import ray  # (after the checks: a bad path fails at once)

    return ray.data.from_items([{"path": path} for path in files], override_num_blocks=len(files))


def _format(path: str) -> str | None:
    """ "parquet", or the :func:`~ngrameval.leaderboard.reading.table_format` of a file of rows; None otherwise."""
    return "parquet" if path.lower().endswith(".parquet") else table_format(path)


def _file_batches(path: str, job: _Job) -> Iterator[tuple[list[str], list[list[str]], tuple[int, int]]]:
    """(predictions, references, (first line, last line)) of each batch of rows of a file, streamed."""
    rows = _file_rows(path, job)
    while batch := list(itertools.islice(rows, job.batch_size)):
        lines = [line for line, _ in batch]
        columns = {name: [row.get(name) for _, row in batch] for name in batch[0][1]}
        hyps, refs = _segments(columns, job, lambda i: f"{path}, line {lines[i]}")  # noqa: B023 (used at once)
        yield hyps, refs, (lines[0], lines[-1])


def _file_rows(path: str, job: _Job) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, row) of every row of a file; a malformed row names its file and line."""
    wanted = job.columns
    if _format(path) != "parquet":
        yield from table_rows(path, wanted)
        return
    import pyarrow.parquet as pq

    source = pq.ParquetFile(path)
    absent = [c for c in wanted if c not in source.schema_arrow.names]
    if absent:
        raise InputError(
            f"{path}: no column {', '.join(map(repr, absent))}; columns: {', '.join(source.schema_arrow.names)}"
        )
    line = 0
    for table in source.iter_batches(batch_size=job.batch_size, columns=wanted):
        for row in table.to_pylist():
            line += 1
            yield line, row


def _hf_passes(dataset: Any, job: _Job, num_proc: int | None) -> Iterator[bytes]:
    import datasets

    streaming = isinstance(dataset, datasets.IterableDataset)
    if streaming and num_proc is not None:
        raise InputError("num_proc is for a datasets.Dataset; an IterableDataset streams in this process")

    def blobs(counting: bool, table: ReferenceCounts | None) -> Iterator[bytes]:
        def blob_of(batch: dict[str, Any], indices: list[int]) -> dict[str, list[bytes]]:
            rows = functools.partial(_segments, batch, job, lambda i: f"row {indices[i]}")
            return {"blob": [_blob(lambda: job.computed(counting, table, *rows()))]}

        settings: dict[str, Any] = {
            "batched": True,
            "batch_size": job.batch_size,
            "with_indices": True,
            "remove_columns": dataset.column_names,
        }
        if streaming:
            yield from (row["blob"] for row in dataset.map(blob_of, **settings))
            return
        # The blobs go to a temporary directory (not the dataset's cache, which would keep them), under a
        # new fingerprint: hashing the function would hash the corpus-wide table it carries.
        with tempfile.TemporaryDirectory(prefix="ngrameval-") as directory:
            result = dataset.map(
                blob_of,
                num_proc=num_proc,
                new_fingerprint=uuid.uuid4().hex,
                load_from_cache_file=False,
                cache_file_name=os.path.join(directory, "blobs.arrow"),
                **settings,
            )
            yield from (row["blob"] for row in result)
            del result

    needed = get_family(job.metric).needs_reference_counts(**job.options)
    return blobs(False, summed_counts(map(_loaded, blobs(True, None))) if needed else None)
