"""What the evaluate metric scripts in ``metrics/`` share, so that each script holds only its
documentation, citation and the ngrameval function it calls. (No evaluate import here: the class
is a mixin placed before ``evaluate.Metric``.)"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ngrameval.engine.inputs import normalize_corpus, sampling_settings
from ngrameval.engine.token_ids import is_token_ids, read_token_ids
from ngrameval.errors import InputError

# sacrebleu's paper: cited by every script whose variants reproduce sacrebleu (BLEU, chrF, TER).
SACREBLEU_CITATION = """\
@inproceedings{post-2018-call,
    title = "A Call for Clarity in Reporting {BLEU} Scores",
    author = "Post, Matt",
    booktitle = "Proceedings of the Third Conference on Machine Translation: Research Papers",
    month = oct,
    year = "2018",
    address = "Belgium, Brussels",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/W18-6319",
    doi = "10.18653/v1/W18-6319",
    pages = "186--191",
}
"""


# For mypy: evaluate ships no type information, and at run time the mixin's base is ``object``.
_EvaluateMetric: Any = object


class ValidatedMetric(_EvaluateMetric):
    """Mixin for an ``evaluate.Metric``: validate with ngrameval before evaluate stores the data (its
    ValueErrors name the problem; evaluate's Arrow conversion would not), then call ``score``. A script writes
    ``class Bleu(ValidatedMetric, evaluate.Metric): score = staticmethod(ngrameval.bleu)``.

    In evaluate's distributed mode (``evaluate.load(path, num_process=N, process_id=i, experiment_id=...,
    timeout=...)``), process 0 scores the processes' data in process order (the single-process score of that
    corpus); the others return None. Added here: references stored as lists (one Arrow schema for all
    processes); a ``TimeoutError`` naming the processes that did not join; a ValueError on process 0 for a
    process that ended without calling compute; and process 0 removes every file of the run after scoring.
    Give each run its own ``experiment_id``: evaluate names its files after it.
    """

    score: Callable[..., Any]
    # evaluate.Metric's, which this mixin resets after a failed rendezvous (datasets' writer and file locks).
    writer: Any
    filelock: Any
    rendez_vous_lock: Any
    cache_file_name: str | None

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict[str, Any] | None:
        """Compute the metric (evaluate appends the metric's input description to this docstring)."""
        if predictions is not None or references is not None:
            if getattr(self, "num_process", 1) == 1 and getattr(self, "writer", None) is None:
                # One process and nothing added before: evaluate's Arrow round trip would only copy the
                # validated data (and cost half the scoring time), so it is scored as it is.
                if not is_token_ids(predictions, references):  # (token ids: checked by the metric, with its pad_id)
                    predictions, references, _ = normalize_corpus(predictions, references)
                return self._compute(predictions, references, **kwargs)
            self.add_batch(predictions=predictions, references=references)
        elif getattr(self, "writer", None) is None:
            if getattr(self, "num_process", 1) > 1:
                raise InputError(
                    f"process {self.process_id} of {self._describe_run()} has no data: in evaluate's "
                    "distributed mode every process must add at least one prediction (with add, "
                    "add_batch or compute) before compute"
                )
            # (evaluate itself would wait for other processes and fail with a TimeoutError)
            raise InputError(
                f"nothing to score: {self.name}'s compute got no predictions and references, and none "
                "were added before; give compute(predictions=..., references=...), or add them "
                "with add or add_batch first"
            )
        try:
            result = super().compute(**kwargs)
        except BaseException:
            self._remove_gathered_files()
            raise
        if self.process_id == 0 and self.num_process > 1:
            self._remove_run_files()
        return result

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Add a batch of predictions and references (evaluate appends the input description)."""
        hyps, refs = _stored(predictions, references)
        # References as lists: the one stored shape, whatever the input shape.
        super().add_batch(predictions=hyps, references=refs, **kwargs)

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Add one prediction and its references (evaluate appends the input description)."""
        hyps, refs = _stored([prediction], [reference])
        super().add(prediction=hyps[0], reference=refs[0], **kwargs)

    def _compute(
        self, predictions: list[Any], references: list[Any], confidence: Any = False, **options: Any
    ) -> dict[str, Any]:
        result = type(self).score(predictions, references, **options).as_dict()
        if confidence is not None and confidence is not False:
            result["confidence"] = _confidence_intervals(type(self).score, predictions, references, options, confidence)
        return result

    def _run_file(self, suffix: str) -> str:
        """One of evaluate's files of this run, named as FileLock names it (it shortens names too long)."""
        from datasets.utils.filelock import FileLock

        return FileLock.hash_filename_if_too_long(
            os.path.join(self.data_dir, f"{self.experiment_id}-{self.num_process}-{suffix}")
        )

    def _describe_run(self) -> str:
        return (
            f"{self.name} with num_process={self.num_process}, experiment_id={self.experiment_id!r} "
            f"and cache directory {self.data_dir}"
        )

    def _locked(self, process: int) -> bool:
        """Whether another holder has ``process``'s cache file lock (checked without waiting)."""
        from datasets.utils.filelock import FileLock, Timeout

        path = self._run_file(f"{process}.arrow.lock")
        if not os.path.exists(path):  # checked first, so that checking creates no lock file
            return False
        lock = FileLock(path)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            return True
        lock.release()
        return False

    def _check_all_processes_locks(self) -> None:
        # Process 0, on its first add: wait until every process has locked its cache file.
        try:
            super()._check_all_processes_locks()
        except ValueError:
            missing = ", ".join(str(process) for process in range(self.num_process) if not self._locked(process))
            raise self._join_failed(f"process(es) {missing} did not join within timeout={self.timeout} s") from None

    def _check_rendez_vous(self) -> None:
        # A process > 0, on its first add: wait for process 0 to see every process joined. Process 0 holds
        # its own lock until its compute ends, which waits for this process: when the rendezvous opens
        # and that lock is free, process 0 gave up (or ended) instead of letting the processes start.
        try:
            super()._check_rendez_vous()
            reason = (
                None
                if self._locked(0)
                else f"process 0 gave up: not every process joined within timeout={self.timeout} s"
            )
        except ValueError:
            reason = (
                f"not every process joined within timeout={self.timeout} s (process 0 waits for all of them)"
                if self._locked(0)
                else f"process 0 did not join within timeout={self.timeout} s"
            )
        if reason is not None:
            raise self._join_failed(reason)

    def _get_all_cache_files(self) -> tuple[list[str], list[Any]]:
        # Process 0, in compute: wait until every process has finished writing (called compute).
        try:
            file_paths, filelocks = super()._get_all_cache_files()
        except ValueError:
            late = ", ".join(str(process) for process in range(1, self.num_process) if self._locked(process))
            raise TimeoutError(
                f"process 0 of {self._describe_run()}: process(es) {late} joined but did not "
                f"call compute within timeout={self.timeout} s; every process must call compute"
            ) from None
        ended = [p for p in range(1, self.num_process) if not os.path.exists(self._run_file(f"{p}.done"))]
        if ended:
            self.filelocks, self.file_paths = filelocks, file_paths
            self._remove_gathered_files()
            raise InputError(
                f"process 0 of {self._describe_run()}: process(es) {', '.join(map(str, ended))} ended without "
                "calling compute (did they fail?), so their data may be incomplete; nothing was scored"
            )
        return file_paths, filelocks

    def _join_failed(self, reason: str) -> TimeoutError:
        """After a failed rendezvous: give up this process's cache file and locks (so that its files do not
        stay behind and the metric object can be used again), and say why."""
        if self.writer is not None:
            self.writer.finalize()
            self.writer = None
        for lock in (self.filelock, self.rendez_vous_lock):
            if lock is not None:
                lock.release()
        self.filelock = self.rendez_vous_lock = None
        if self.process_id == 0:
            Path(self._run_file("rdv.lock")).unlink(missing_ok=True)
        if self.cache_file_name is not None:
            for path in (self.cache_file_name, self.cache_file_name + ".lock"):
                Path(path).unlink(missing_ok=True)
            self.cache_file_name = None
        self.selected_feature_format = None
        return TimeoutError(
            f"process {self.process_id} of {self._describe_run()}: {reason}; every process must load the metric "
            "with the same num_process, experiment_id and cache_dir and then call add, add_batch or compute with "
            "its data (a larger timeout= in evaluate.load waits longer for processes that start late)"
        )

    def _remove_gathered_files(self) -> None:
        """After a compute that failed on process 0 once the data were gathered (a bad option): remove the
        processes' Arrow files and release their locks, as evaluate does after a successful compute."""
        if self.process_id != 0 or not self.filelocks:
            return
        assert self.file_paths is not None  # set with the locks, by _finalize or _get_all_cache_files
        self.data = None
        for lock, path in reversed(list(zip(self.filelocks, self.file_paths))):
            Path(path).unlink(missing_ok=True)
            lock.release()
        self.filelocks = None
        if self.num_process > 1:
            self._remove_run_files()

    def _remove_run_files(self) -> None:
        """Process 0, after compute: the run's lock files (filelock leaves them) and done files guard nothing
        any more. (Not with one process: there another metric instance may take the released name at once.)"""
        suffixes = [f"{process}.arrow.lock" for process in range(self.num_process)] + ["rdv.lock"]
        for suffix in suffixes + [f"{process}.done" for process in range(1, self.num_process)]:
            Path(self._run_file(suffix)).unlink(missing_ok=True)

    def _create_cache_file(self, timeout: float = 1) -> tuple[str, Any]:
        file_path, filelock = super()._create_cache_file(timeout)
        if self.num_process > 1 and self.process_id > 0:
            # A done file left by an earlier run of this experiment_id that failed is not this run's.
            Path(self._run_file(f"{self.process_id}.done")).unlink(missing_ok=True)
        return file_path, filelock

    def _finalize(self) -> None:
        # A process > 0 releases its lock when its data are complete, but also when it ends without
        # calling compute (an exception, a kill), leaving a partial Arrow file that evaluate would read
        # as if complete. A done file, written before the release, tells process 0 which case it is.
        if self.num_process > 1 and self.process_id > 0 and self.filelock is not None:
            if self.writer is not None:
                self.writer.finalize()
                self.writer = None
            with open(self._run_file(f"{self.process_id}.done"), "w"):
                pass
        super()._finalize()


def _confidence_intervals(
    function: Callable[..., Any], predictions: Any, references: Any, options: dict[str, Any], confidence: Any
) -> dict[str, dict[str, Any]]:
    """Bootstrap intervals of every output, through the metric protocol: output -> {"score", "mean", "low",
    "high"}. ``confidence``: True (1000 samples, 95%, sacrebleu's seed) or a dict of those settings."""
    from ngrameval.metric import family_of
    from ngrameval.significance import confidence_interval

    accepted = "True, False or a dict of n_samples, confidence and seed"
    settings = sampling_settings("confidence", {} if confidence is True else confidence, accepted)
    family = family_of(function)
    statistics_options = {
        name: value for name, value in options.items() if name not in family.options_not_for_statistics
    }
    stats = family.statistics(predictions, references, **statistics_options)
    intervals = {}
    for output, result in confidence_interval(stats, **settings).items():
        assert result.ci is not None  # confidence_interval gives every output its interval
        intervals[output] = {"score": result.score, "mean": result.mean, "low": result.ci[0], "high": result.ci[1]}
    return intervals


class CocoShapedMetric(ValidatedMetric):
    """A :class:`ValidatedMetric` that also takes pycocoevalcap's ``gts``/``res`` (image id ->
    reference captions, image id -> [caption] or a COCO results list); the result then carries the
    image ids in the order of its per-item scores."""

    def compute(
        self, *, predictions: Any = None, references: Any = None, gts: Any = None, res: Any = None, **kwargs: Any
    ) -> dict[str, Any] | None:
        """Compute the metric (evaluate appends the metric's input description to this docstring)."""
        if gts is None and res is None:
            return super().compute(predictions=predictions, references=references, **kwargs)
        if predictions is not None or references is not None:
            raise InputError("give either predictions/references or gts/res, not both")
        if self.num_process > 1 or self.writer is not None:
            # The image ids of the result would be this call's only, not those of the data added before
            # or of the other processes (evaluate stores predictions and references, not ids).
            raise InputError(
                "gts/res give the whole corpus in one compute call: not after add/add_batch, nor with "
                "num_process > 1; give predictions/references (in your image ids' order) instead"
            )
        from ngrameval.metrics.coco import from_coco

        image_ids, predictions, references = from_coco(gts if gts is not None else {}, res if res is not None else {})
        result = super().compute(predictions=predictions, references=references, **kwargs)
        assert result is not None  # one process (checked above): compute returns the result
        result["image_ids"] = image_ids
        return result


def variant_choices(variants: Sequence[str]) -> str:
    """A metric's variants as its evaluate script documents them, from the library's own ``VARIANTS`` (whose
    first is the default), so that the script lists every variant the library has.

    >>> variant_choices(("nltk", "mteval", "other"))
    '"nltk" (default), "mteval" or "other"'
    """
    named = [f'"{variant}"' for variant in variants]
    named[0] += " (default)"
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} or {named[-1]}"


def input_features(tokens: bool = True, ids: bool = False) -> list:
    """The input shapes a metric accepts, as evaluate Features alternatives: strings with several references or
    one, (unless ``tokens`` is False) token lists and (with ``ids``) int64 token ids, with lists of them."""
    import datasets

    text = datasets.Value("string", id="sequence")
    shapes = [(text, datasets.Sequence(text, id="references")), (text, text)]
    sequences = ([text] if tokens else []) + ([datasets.Value("int64")] if ids else [])
    shapes += [(datasets.Sequence(item), datasets.Sequence(datasets.Sequence(item))) for item in sequences]
    return [datasets.Features({"predictions": p, "references": r}) for p, r in shapes]


def _stored(predictions: Any, references: Any) -> tuple[list[Any], list[list[Any]]]:
    """Checked inputs in the shape evaluate stores: a list of references each (token ids as lists of ints, pads
    kept: the metric drops them at compute, with its pad_id)."""
    ids = read_token_ids(predictions, references)
    if ids is None:
        return normalize_corpus(predictions, references)[:2]  # (less the pretokenized flag)
    return [p.tolist() for p in ids.predictions()], [[r.tolist() for r in group] for group in ids.reference_groups()]
