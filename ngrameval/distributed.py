"""Score a corpus split across the ranks of a ``torch.distributed`` job (``torchrun``, ``accelerate``).

Every rank calls :func:`score_across_ranks` with its own rows and gets the score of all of them, equal to
``ngrameval.<metric>(...)`` on the ranks' rows in rank order. Only statistics cross processes
(``all_gather_object``), never text; a metric that needs every reference first (NIST, CIDEr) gathers the ranks'
reference counts first. A rank whose input is bad makes every rank raise its error (none is left waiting). torch
is imported when called.

With ``accelerate``, call it on each process's own predictions, after building the ``Accelerator`` with
``dataloader_config=DataLoaderConfiguration(even_batches=False)`` (its sampler otherwise pads the last batch with
repeated rows, scored twice), instead of ``accelerator.gather_for_metrics(texts, use_gather_object=True)`` (which
orders rows batch by batch, not rank by rank: the same score only where the order does not count).

>>> score_across_ranks("bleu", ["a b c d"], [["a b c d"]]).bleu   # without a process group: this process alone
1.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ngrameval.errors import InputError
from ngrameval.metric import get_family, merged_result, summed_counts


def score_across_ranks(
    metric: str, predictions: Sequence[Any], references: Sequence[Any], group: Any = None, **options: Any
) -> Any:
    """What ``ngrameval.<metric>(...)`` returns (the same numbers to the last bit) for every rank's rows, in rank
    order (a collective call: every rank of ``group``, the default process group if None, must make it). Parts
    given only when asked for are None and the options asking for them refused, as in
    :func:`ngrameval.score_dataset`. Without an initialized process group, this process's rows alone are scored.
    A rank may have no rows."""
    family = get_family(metric)
    options = family.merged_options(options)
    gather = _gather_in(group)
    empty = len(predictions) == 0 and len(references) == 0

    def every_rank(compute: Callable[..., Any], *counts: Any) -> list[Any]:
        """Every rank's ``compute`` of its rows (None for a rank without rows), or the error of a rank that raised."""
        return _all_or_raise(gather, lambda: None if empty else compute(predictions, references, *counts, **options))

    table = summed_counts(every_rank(family.reference_counts)) if family.needs_reference_counts(**options) else None
    return merged_result(family.name, every_rank(family.shard_statistics, table))


def _gather_in(group: Any) -> Callable[[Any], list[Any]]:
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()):
        if group is not None:
            raise InputError("a process group was given but torch.distributed is not initialized")
        return lambda value: [value]

    def gather(value: Any) -> list[Any]:
        gathered: list[Any] = [None] * dist.get_world_size(group)
        dist.all_gather_object(gathered, value, group=group)
        return gathered

    return gather


_BAD_INPUT = "InputError"  # what a rank sends for an InputError, raised again on every rank


def _all_or_raise(gather: Callable[[Any], list[Any]], compute: Callable[[], Any]) -> list[Any]:
    """Every rank's result of ``compute``; if it raised on any rank, that rank's error on every rank
    (raised after the gather, so that no rank waits for one that failed)."""
    try:
        mine: Any = (None, compute())
    except Exception as error:  # every kind: a rank that raised alone would leave the others waiting
        mine = (_BAD_INPUT if isinstance(error, InputError) else type(error).__name__, str(error))
    gathered = gather(mine)
    for rank, (failure, value) in enumerate(gathered):
        if failure == _BAD_INPUT:
            raise InputError(f"rank {rank}: {value}")
        if failure is not None:  # a bug on that rank, shown as one
            raise RuntimeError(f"rank {rank}: {failure}: {value}")
    return [value for _, value in gathered]
