"""METEOR 1.5's statistics and scores (``MeteorStats`` / ``MeteorScorer.computeMetrics``), and its English
parameter presets (``Constants``). A segment's statistics are the 23 numbers of the jar's stats line:
hypothesis and reference lengths, their function-word counts, for each of four module slots the matched
content words of the hypothesis and of the reference and the matched function words of each, the chunk count
and the matched words of each side. They add up over a corpus (the jar's ``EVAL``), except that a segment
matched perfectly (all words of both sides, one chunk) does not add its chunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ngrameval.engine.inputs import check_choice, check_number
from ngrameval.errors import InputError

MODULES = ("exact", "stem", "synonym", "paraphrase")
STATS_LENGTH = 23
SCORE_PARTS = ("precision", "recall", "fmean", "fragmentation", "penalty", "score")

# Per task (English): (alpha, beta, gamma, delta), module weights by module *position*, default modules.
TASKS: dict[str, tuple[tuple[float, float, float, float], tuple[float, ...], tuple[str, ...]]] = {
    "rank": ((0.85, 0.20, 0.60, 0.75), (1.0, 0.6, 0.8, 0.6), MODULES),
    "adq": ((0.75, 1.40, 0.45, 0.70), (1.0, 1.0, 0.6, 0.8), MODULES),
    "hter": ((0.40, 1.50, 0.35, 0.55), (1.0, 0.2, 0.6, 0.8), MODULES),
    "li": ((0.75, 1.40, 0.70, 0.50), (1.0, 0.5, 0.5, 0.5), MODULES),
    "tune": ((0.5, 1.0, 0.5, 0.5), (1.0, 0.5, 0.5, 0.5), MODULES),
    "util": ((0.65, 0.1, 0.55, 0.65), (1.0, 0.0, 0.0, 0.8), MODULES),
    "universal": ((0.70, 1.40, 0.30, 0.70), (1.0, 0.6, 0.0, 0.0), ("exact", "paraphrase")),
}
DEFAULT_TASK = "rank"  # also the jar's "default"
# METEOR's definition (Denkowski and Lavie, 2014): alpha, gamma, delta and the module weights lie in
# [0, 1], beta >= 0. The jar takes any number (a NaN one makes every score NaN, which it reports as 0);
# here a value outside these ranges, NaN or infinite, is an error naming it.
PARAMETER_RANGES = {"alpha": (0.0, 1.0), "beta": (0.0, float("inf")), "gamma": (0.0, 1.0), "delta": (0.0, 1.0)}
WEIGHT_RANGE = (0.0, 1.0)

# Column indexes of the statistics; module slot m's matches are in columns 4 + 4 m + (0 hypothesis content,
# 1 reference content, 2 hypothesis function, 3 reference function).
TEST_LENGTH, REF_LENGTH, TEST_FUNCTION, REF_FUNCTION = 0, 1, 2, 3
CHUNKS, TEST_WORD_MATCHES, REF_WORD_MATCHES = 20, 21, 22


@dataclass(frozen=True)
class Parameters:
    """alpha (precision vs recall), beta and gamma (fragmentation penalty), delta (content vs function
    words), and the module weights by module position."""

    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: tuple[float, ...]


def compute(stats: np.ndarray, parameters: Parameters) -> dict[str, np.ndarray]:
    """``computeMetrics`` on each row of statistics, in the jar's order of operations: precision, recall,
    fmean, fragmentation, penalty, score (float64; NaN scores become 0, negative ones 0)."""
    s = np.asarray(stats, dtype=np.float64)
    delta = parameters.delta
    with np.errstate(divide="ignore", invalid="ignore"):
        test_length = delta * (s[:, TEST_LENGTH] - s[:, TEST_FUNCTION]) + (1.0 - delta) * s[:, TEST_FUNCTION]
        ref_length = delta * (s[:, REF_LENGTH] - s[:, REF_FUNCTION]) + (1.0 - delta) * s[:, REF_FUNCTION]
        matches = [np.zeros(len(s)), np.zeros(len(s))]  # of the hypothesis, of the reference
        for column, share in ((0, delta), (1, delta), (2, 1.0 - delta), (3, 1.0 - delta)):
            for slot, weight in enumerate(parameters.weights):
                matches[column % 2] = matches[column % 2] + s[:, 4 + 4 * slot + column] * weight * share
        test_matches, ref_matches = matches
        precision = test_matches / test_length
        recall = ref_matches / ref_length
        fmean = 1.0 / ((1.0 - parameters.alpha) / precision + parameters.alpha / recall)
        fragmentation = np.where(
            _perfect(s), 0.0, s[:, CHUNKS] / ((s[:, TEST_WORD_MATCHES] + s[:, REF_WORD_MATCHES]) / 2.0)
        )
        penalty = parameters.gamma * np.power(fragmentation, parameters.beta)
        score = fmean * (1.0 - penalty)
    score = np.where(np.isnan(score), 0.0, np.maximum(score, 0.0))
    return dict(zip(SCORE_PARTS, (precision, recall, fmean, fragmentation, penalty, score)))


def _perfect(s: np.ndarray) -> np.ndarray:
    """Every word of both sides matched, in one chunk (the jar's totals: content + function matches)."""
    test_total, ref_total = s[:, 4:20:2].sum(axis=1), s[:, 5:20:2].sum(axis=1)
    return (test_total == s[:, TEST_LENGTH]) & (ref_total == s[:, REF_LENGTH]) & (s[:, CHUNKS] == 1.0)


def summable(stats: np.ndarray) -> np.ndarray:
    """The rows with the chunks of perfectly matched segments set to 0, which the jar's ``addStats``
    leaves out of the corpus chunks: any sum of these rows is the jar's aggregate of those segments.

    >>> one = np.zeros(23); one[[0, 1, 4, 5, 20, 21, 22]] = [2, 2, 2, 2, 1, 2, 2]
    >>> summable(np.stack([one, one])).sum(axis=0)[[0, 20]].tolist()
    [4.0, 0.0]
    """
    s = np.array(stats, dtype=np.float64).reshape(-1, STATS_LENGTH)
    s[_perfect(s), CHUNKS] = 0.0
    return s


def _java_double(value: float) -> str:
    """``Double.toString`` of a whole number (statistics are whole numbers).

    >>> _java_double(12.0), _java_double(12345678.0), _java_double(10000000.0)
    ('12.0', '1.2345678E7', '1.0E7')
    """
    if abs(value) < 1e7:
        return f"{value:.1f}"
    digits = str(int(abs(value)))
    mantissa = digits[0] + "." + (digits[1:].rstrip("0") or "0")
    return ("-" if value < 0 else "") + f"{mantissa}E{len(digits) - 1}"


def stats_line(row: Sequence[float]) -> str:
    """The jar's stats line (``MeteorStats.toString``) for one row of statistics."""
    return " ".join(_java_double(float(value)) for value in row)


def resolve_parameters(
    task: str | None, modules: Sequence[str] | None, weights: Sequence[float] | None, parameters: Sequence[float] | None
) -> tuple[tuple[str, ...], Parameters]:
    """The modules and parameters the jar uses for ``[-t task] [-m modules] [-w weights] [-p parameters]``.

    As in the jar, weights belong to module *positions*: without ``weights``, the task's weights
    are cut (or padded with 0.0) to the number of modules, so ``modules=("exact", "synonym")``
    under ``rank`` weights synonym matches 0.6 (the stem slot's weight). Giving ``parameters``
    makes the jar's task "custom", which ignores ``-t`` and takes the English modules and the
    ``adq`` weights (1.0 1.0 0.6 0.8): a ``task`` with ``parameters`` is an error here.

    >>> resolve_parameters("rank", ["exact", "synonym"], None, None)[1].weights
    (1.0, 0.6)
    >>> resolve_parameters(None, None, None, (0.5, 1.0, 0.3, 0.6))[1].weights
    (1.0, 1.0, 0.6, 0.8)
    >>> resolve_parameters("fast", None, None, None)
    Traceback (most recent call last):
    ...
    ngrameval.errors.InputError: unknown task 'fast'; valid values: 'rank', 'adq', 'hter', 'li', 'tune', 'util', 'universal'
    """
    if parameters is not None:
        if task is not None:
            raise InputError(
                f"give task={task!r} or parameters, not both: with parameters the jar's task is "
                "'custom' (English modules, adq weights 1.0 1.0 0.6 0.8 unless weights are given)"
            )
        if isinstance(parameters, str) or not hasattr(parameters, "__len__") or len(parameters) != 4:
            raise InputError(f"parameters must be (alpha, beta, gamma, delta), got {parameters!r}")
        parameters = tuple(
            check_number(f"parameters[{index}] ({name})", value, *PARAMETER_RANGES[name])
            for index, (name, value) in enumerate(zip(PARAMETER_RANGES, parameters))
        )
        _, task_weights, task_modules = TASKS["adq"]
    else:
        task = DEFAULT_TASK if task is None else task
        check_choice("task", task, tuple(TASKS))
        parameters, task_weights, task_modules = TASKS[task]
    if modules is None:
        modules = task_modules
    if isinstance(modules, str) or not len(modules):
        raise InputError(f"modules must be a non-empty list of module names from {MODULES}, got {modules!r}")
    for module in modules:
        check_choice("module", module, MODULES)
    if len(set(modules)) != len(modules):
        raise InputError(f"modules must not repeat a module, got {list(modules)!r}")
    if weights is None:
        weights = tuple(task_weights[: len(modules)]) + (0.0,) * (len(modules) - len(task_weights))
    elif isinstance(weights, str) or not hasattr(weights, "__len__") or len(weights) != len(modules):
        raise InputError(f"weights must give one weight per module ({len(modules)}: {list(modules)}), got {weights!r}")
    else:
        weights = [check_number(f"weights[{index}]", weight, *WEIGHT_RANGE) for index, weight in enumerate(weights)]
    alpha, beta, gamma, delta = map(float, parameters)
    return tuple(modules), Parameters(alpha, beta, gamma, delta, tuple(map(float, weights)))
