"""BLEU (Papineni et al., 2002) as sufficient statistics plus one scoring rule per reference tool.

The statistics of each sentence (clipped matches and totals per order, hypothesis and chosen reference
length) add up: a corpus, a bootstrap sample or a distributed run sums the rows of :class:`BleuFamily`'s
:class:`~ngrameval.metric.Statistics`; each variant's rule is a vectorized function over rows:

- ``sacrebleu``: sacrebleu 2.6.0 ``BLEU.compute_bleu`` (none / floor / add-k / exp);
- ``nltk``: NLTK 3.10.4 ``corpus_bleu`` / ``sentence_bleu``, SmoothingFunction 0-7;
- ``mteval``: mteval-v13a.pl ``bleu_score`` (its smoothing; closest length);
- ``nmt``: tensorflow/nmt ``compute_bleu`` with HF evaluate's 13a (HF's ``bleu``);
- ``d2l``: Dive into Deep Learning 1.0.3's ``bleu`` (weights 1/2^n, orders up to the prediction's length, split on
  single spaces);
- ``coco``: pycocoevalcap 1.2 ``Bleu`` (COCO captions: tiny epsilons instead of smoothing, closest reference
  length, whitespace tokens).
"""

from __future__ import annotations

import inspect
import math
import sys
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ngrameval._version import __version__
from ngrameval.engine.batch import CountedBatch
from ngrameval.engine.corpus import IndexedCorpus, explain_matches, map_blocks
from ngrameval.engine.inputs import cached_by_value, check_choice, check_flag, check_number, check_order, strict_options
from ngrameval.engine.ngrams import ReferenceIndex, divide_or_zero
from ngrameval.engine.peers import NLTK_VERSION, SACREBLEU_VERSION
from ngrameval.errors import InputError
from ngrameval.metric import SACREBLEU_RESAMPLING, MetricFamily, Resampling, Statistics, last_weighted, register
from ngrameval.text.tokenizers import TokenizerSpec
from ngrameval.vocabulary import MetricResult, Predictions, References

VARIANTS = ("sacrebleu", "nltk", "mteval", "nmt", "d2l", "coco")
BREVITY_PENALTIES = ("closest", "shortest", "average")
_DEFAULTS = {
    #            tokenize       brevity     smooth     smooth values taken  the tool, as the signature names it
    "sacrebleu": ("13a", "closest", "exp", ("none", "floor", "add-k", "exp"), ""),
    "nltk": ("none", "closest", "method0", tuple(f"method{i}" for i in range(8)), f"nltk:{NLTK_VERSION}"),
    "mteval": ("mteval-v13a", "closest", "exp", ("exp",), "mteval:v13a"),
    "nmt": ("hf-13a", "shortest", False, (False, True), "nmt:hf-evaluate"),
    "d2l": ("space", "closest", None, (None,), "d2l:1.0.3"),
    "coco": ("none", "closest", None, (None,), "pycocoevalcap:1.2"),
}
SMOOTHING = {variant: defaults[3] for variant, defaults in _DEFAULTS.items()}
# NLTK's smoothing constants (SmoothingFunction's defaults).
_CONSTANTS = {"epsilon": 0.1, "alpha": 5.0, "k": 5.0}


@dataclass
class BleuStatistics:
    """The named columns of :class:`BleuFamily` rows (:func:`from_rows`), of a sentence or a sum of them."""

    hyp_len: np.ndarray  # (K,)
    ref_len: np.ndarray  # (K,) reference length chosen by the brevity rule (float: "average")
    matches: np.ndarray  # (K, N) clipped matches per order
    totals: np.ndarray  # (K, N) hypothesis n-grams per order
    clamped_totals: np.ndarray  # (K, N) max(1, totals) per sentence: NLTK's modified_precision denominators


def statistics_rows(hyp_len: np.ndarray, ref_len: np.ndarray, matches: np.ndarray) -> np.ndarray:
    """:class:`BleuFamily` rows of per-sentence lengths and clipped matches (K, N): hypothesis length, reference
    length, matches, then the totals and clamped totals per order, which follow from the lengths.

    >>> statistics_rows(np.array([2]), np.array([3.0]), np.array([[2, 1, 0]]))[0, 5:].tolist()   # totals, clamped
    [2.0, 1.0, 0.0, 2.0, 1.0, 1.0]
    """
    totals = np.maximum(hyp_len[:, None] - np.arange(matches.shape[1]), 0)
    parts = [hyp_len[:, None], ref_len[:, None], matches, totals, np.maximum(totals, 1)]
    return np.concatenate(parts, axis=1, dtype=np.float64)


def from_rows(rows: np.ndarray, order: int) -> BleuStatistics:
    """The named columns of :class:`BleuFamily` rows of orders 1..``order``, the counts as the integers they are."""
    counts = rows.astype(np.int64)
    return BleuStatistics(counts[:, 0], rows[:, 1], *(counts[:, 2 + k * order : 2 + (k + 1) * order] for k in range(3)))


def chosen_reference_lengths(
    lengths: np.ndarray, sentence: np.ndarray, refs_per_sentence: np.ndarray, hyp_len: np.ndarray, rule: str
) -> np.ndarray:
    """Per sentence, the reference length the brevity penalty uses, of the references' ``lengths``
    (``sentence``: the sentence of each, ``refs_per_sentence``: how many each has): ``closest`` (the shorter
    on ties: sacrebleu, NLTK, mteval-v13a), ``shortest`` (tensorflow/nmt) or ``average``.

    >>> chosen_reference_lengths(np.array([3, 5, 4]), np.array([0, 0, 1]), np.array([2, 1]), np.array([4, 1]),
    ...                          "closest").tolist()
    [3.0, 4.0]
    """
    starts = np.cumsum(refs_per_sentence) - refs_per_sentence
    if rule == "shortest":
        return np.minimum.reduceat(lengths, starts).astype(np.float64)
    if rule == "average":
        return np.add.reduceat(lengths, starts) / refs_per_sentence
    scale = int(lengths.max(initial=0)) + 1
    distance = np.abs(lengths - hyp_len[sentence])
    return (np.minimum.reduceat(distance * scale + lengths, starts) % scale).astype(np.float64)


def _matched(
    predictions: Any, references: Any, options: BleuOptions, threads: int, pad_id: int | None, explain: bool
) -> tuple[np.ndarray, list[dict[str, Any]], Any, Any]:
    """The one way BLEU's statistics are computed: per-sentence rows, the explanations (with ``explain``),
    nrefs and the tokenizer. A few predictions are counted in one pass unless explained (that reads the index)."""
    order = options.statistics_order

    def block(corpus: IndexedCorpus | CountedBatch) -> tuple[np.ndarray, list[dict[str, Any]]]:
        refs: ReferenceIndex | CountedBatch
        if isinstance(corpus, CountedBatch):
            hyp_len, clipped, refs = corpus.hyp_len, corpus.clipped, corpus
        else:
            refs = index = corpus.index
            matches = index.match(corpus.hypotheses, order)
            hyp_len = matches.hyp_len
            clipped = np.stack([index.per_sentence(index.clipped(matches, n), n) for n in range(1, order + 1)], axis=1)
        ref_len = chosen_reference_lengths(
            refs.segment_len, refs.segment_sentence, refs.refs_per_sentence, hyp_len, options.brevity_penalty
        )
        rows = statistics_rows(hyp_len, ref_len, clipped)
        if not explain:
            return rows, []
        assert isinstance(corpus, IndexedCorpus)
        return rows, explain_matches(corpus, matches, options.max_order, rows[:, 1])

    blocks, num_refs, tokenizer = map_blocks(
        predictions, references, options.tokenize, options.lowercase, order, block, threads, pad_id, few=not explain
    )
    rows = blocks[0][0] if len(blocks) == 1 else np.concatenate([rows for rows, _ in blocks])
    return rows, [item for _, explanation in blocks for item in explanation], num_refs, tokenizer


def _weighted_log_sum(precisions: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(K, W): sum of w_n * log(p_n) over the orders weighted (0 * log 0 is not NaN); ``weights`` (W, N) or
    (K, W, N)."""
    per_row = weights if weights.ndim == 3 else weights[None, :, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(per_row > 0, per_row * np.log(precisions)[:, None, :], 0.0)
    return terms.sum(axis=2)


def _bp_empty_zero(rows) -> np.ndarray:
    """exp(min(0, 1 - r/c)), 0 for an empty hypothesis (NLTK, mteval-v13a and d2l alike)."""
    hyp_len = rows.hyp_len
    with np.errstate(divide="ignore", invalid="ignore"):
        penalty = np.exp(np.minimum(0, 1 - rows.ref_len / np.where(hyp_len > 0, hyp_len, 1)))
    return np.where(hyp_len > 0, penalty, 0.0)


# Each rule: (K rows, the K rows of the last sentence (NLTK's smoothing reads them), (W, N) weights, options,
# sentence: whether each row is a sentence) -> (scores (K, W), precisions (K, N), bp (K,)).
def _score_sacrebleu(rows, last, weights, options, sentence):
    """sacrebleu 2.6.0 ``BLEU.compute_bleu``; weights generalize its uniform mean (renormalized over the
    orders used)."""
    smooth = options.smooth
    correct = rows.matches.astype(np.float64)
    total = rows.totals.astype(np.float64)
    if smooth == "add-k":
        correct[:, 1:] += options.smooth_value
        total[:, 1:] += options.smooth_value
    # sacrebleu stops at the first order without hypothesis n-grams.
    used = np.cumprod(total > 0, axis=1).astype(bool)
    zero = (correct == 0) & used
    if smooth == "exp":
        fallback = divide_or_zero(np.ones_like(total), 2.0 ** np.cumsum(zero, axis=1) * total)
    elif smooth == "floor":
        fallback = divide_or_zero(np.full_like(total, options.smooth_value), total)
    else:
        fallback = np.zeros_like(total)
    precisions = np.where(used, np.where(correct > 0, divide_or_zero(correct, total), fallback), 0.0)
    # Effective order (per row: a corpus row and sentence rows may be scored together): only the orders used.
    effective = np.asarray(_effective_order(options, sentence), bool).reshape(-1, 1)
    w = weights[None, :, :] * np.where(effective, used | ~used.any(axis=1, keepdims=True), True)[:, None, :]
    used_weight = w.sum(axis=2)
    with np.errstate(invalid="ignore"):
        mean = np.where(
            used_weight > 0, _weighted_log_sum(precisions, w) / np.where(used_weight > 0, used_weight, 1), -np.inf
        )
    # Papineni's exp(1 - r/c) when c < r; 0 for an empty hypothesis, unless its reference is empty too.
    bp = np.where(rows.hyp_len < rows.ref_len, _bp_empty_zero(rows), 1.0)
    scores = bp[:, None] * np.exp(mean)
    # sacrebleu returns 0, and reports precisions of 0, when nothing matches.
    nothing = ~(rows.matches > 0).any(axis=1)
    scores[nothing] = 0.0
    precisions[nothing] = 0.0
    return scores, precisions, bp


def _nltk_precisions(rows, last, options):
    """The p_n that NLTK 3.10.4 ``corpus_bleu`` hands to ``math.log`` after smoothing."""
    smooth = options.smooth
    num = rows.matches.astype(np.float64)
    den = rows.clamped_totals.astype(np.float64)
    n_orders = num.shape[1]
    zero = num == 0
    plain = num / den
    if smooth == "method0":
        return np.where(zero, sys.float_info.min, plain)
    if smooth == "method1":
        return np.where(zero, (num + options.epsilon) / den, plain)
    if smooth == "method2":
        return np.concatenate([plain[:, :1], ((num + 1) / (den + 1))[:, 1:]], axis=1)
    if smooth == "method3":
        return np.where(zero, 1 / (2.0 ** np.cumsum(zero, axis=1) * den), plain)
    if smooth in ("method4", "method7"):
        hyp_len = rows.hyp_len.astype(np.float64)[:, None]
        applies = zero & (hyp_len > 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            numerator = 1 / (2.0 ** np.cumsum(applies, axis=1) * options.k / np.log(hyp_len))
        p = np.where(applies, numerator / den, plain)
        if smooth == "method4":
            return p
        plain = p
    if smooth in ("method5", "method7"):
        # NLTK averages p_{n-1} (already smoothed), p_n and p_{n+1}; beyond the last order it
        # uses the 5-gram precision of the last hypothesis, whatever the order.
        next_p = np.concatenate(
            [plain[:, 1:n_orders], (last.matches[:, 4] / last.clamped_totals[:, 4])[:, None]], axis=1
        )
        p = plain.copy()
        previous = plain[:, 0] + 1
        for i in range(n_orders):
            p[:, i] = (previous + plain[:, i] + next_p[:, i]) / 3
            previous = p[:, i]
        return p
    # method6: interpolate with a prior p_{n-1}^2 / p_{n-2}; l counts the last hypothesis' n-grams. NLTK returns 0
    # when no unigram matches; else it needs p_3 (IndexError below 3 orders, an assertion when p_3 = 0): we refuse.
    scored = num[:, 0] > 0
    if scored.any() and (n_orders < 3 or (num[scored, 2] == 0).any()):
        raise InputError(
            "smooth='method6' needs a non-zero trigram precision for every score "
            "(NLTK asserts p_3 > 0), so max_order >= 3 and a matching trigram"
        )
    if n_orders < 3:
        return plain
    p = plain.copy()
    for i in range(2, n_orders):  # (rows without unigram matches score 0 whatever p is)
        prior = np.where(p[:, i - 2] == 0, 0.0, p[:, i - 1] ** 2 / np.where(p[:, i - 2] == 0, 1, p[:, i - 2]))
        ngrams_in_last = np.maximum(last.hyp_len - i, 0)
        p[:, i] = (num[:, i] + options.alpha * prior) / (ngrams_in_last + options.alpha)
    return p


def _score_nltk(rows, last, weights, options, sentence):
    """NLTK 3.10.4 ``corpus_bleu``: smoothed p_n, orders with p_n <= 0 left out of the sum."""
    precisions = _nltk_precisions(rows, last, options)
    hyp_len = rows.hyp_len
    bp = _bp_empty_zero(rows)
    log_p = np.where(precisions > 0, np.log(np.where(precisions > 0, precisions, 1)), 0.0)
    scores = np.empty((len(hyp_len), len(weights)))
    for j, w in enumerate(weights):
        w_rows = np.broadcast_to(w, log_p.shape).copy()
        if options.auto_reweigh[j]:
            for r in np.flatnonzero((hyp_len < 4) & (hyp_len > 0)):
                w_rows[r] = np.where(np.arange(w_rows.shape[1]) < hyp_len[r], 1 / hyp_len[r], 0.0)
        scores[:, j] = bp * np.exp((w_rows * log_p).sum(axis=1))
    scores[rows.matches[:, 0] == 0] = 0.0
    return scores, precisions, bp


def _score_mteval(rows, last, weights, *_):
    """mteval-v13a.pl ``bleu_score``: an order without matches scores 1/(2^k total), k counting such
    orders; an order without hypothesis n-grams counts as precision 1; BP 0 for an empty output."""
    correct = rows.matches.astype(np.float64)
    total = rows.totals.astype(np.float64)
    unmatched = (correct == 0) & (total > 0)
    smoothed = divide_or_zero(np.ones_like(total), 2.0 ** np.cumsum(unmatched, axis=1) * total)
    precisions = np.where(total == 0, 1.0, np.where(unmatched, smoothed, divide_or_zero(correct, total)))
    bp = _bp_empty_zero(rows)
    return bp[:, None] * np.exp(_weighted_log_sum(precisions, weights)), precisions, bp


def _score_nmt(rows, last, weights, options, sentence):
    """tensorflow/nmt ``compute_bleu``: add-one smoothing on every order when ``smooth``."""
    correct = rows.matches.astype(np.float64)
    total = rows.totals.astype(np.float64)
    precisions = (correct + 1) / (total + 1) if options.smooth else divide_or_zero(correct, total)
    # nmt returns 0 when any precision is 0; with zero weights, only weighted orders count.
    geo_mean = np.exp(_weighted_log_sum(precisions, weights))
    ratio = divide_or_zero(rows.hyp_len.astype(np.float64), rows.ref_len)
    with np.errstate(divide="ignore"):
        bp = np.where(ratio > 1.0, 1.0, np.where(ratio > 0, np.exp(1 - 1.0 / np.where(ratio > 0, ratio, 1)), 0.0))
    return geo_mean * bp[:, None], precisions, bp


def _score_d2l(rows, last, weights, *_):
    """d2l 1.0.3 ``bleu``: exp(min(0, 1 - r/c)) * prod p_n^(w_n), w_n = 1/2^n by default, over the
    orders n <= c only (the book's earlier code divided by zero on predictions shorter than k)."""
    precisions = divide_or_zero(rows.matches.astype(np.float64), rows.totals.astype(np.float64))
    bp = _bp_empty_zero(rows)
    counted = weights[None, :, :] * (rows.totals > 0)[:, None, :]
    return bp[:, None] * np.exp(_weighted_log_sum(precisions, counted)), precisions, bp


def _score_coco(rows, last, weights, *_):
    """pycocoevalcap 1.2 ``BleuScorer.compute_score``: p_n = (matches + 1e-15) / (totals + 1e-9), so
    an order without matches gives a tiny score instead of 0; BP exp(1 - 1/ratio) with
    ratio = (c + 1e-15) / (r + 1e-9) when it is below 1."""
    precisions = (rows.matches + 1e-15) / (rows.totals + 1e-9)
    ratio = (rows.hyp_len + 1e-15) / (rows.ref_len + 1e-9)
    bp = np.where(ratio < 1, np.exp(1 - 1 / ratio), 1.0)
    return bp[:, None] * np.exp(_weighted_log_sum(precisions, weights)), precisions, bp


_RULES = dict(zip(VARIANTS, (_score_sacrebleu, _score_nltk, _score_mteval, _score_nmt, _score_d2l, _score_coco)))


@dataclass(frozen=True)
class BleuOptions:
    """The resolved options of one BLEU computation (variant defaults filled in)."""

    variant: str = "sacrebleu"
    max_order: int = 4
    weights: tuple = ()  # one or more weight tuples
    several_weights: bool = False
    smooth: Any = "exp"
    smooth_value: float | None = None
    epsilon: float = 0.1
    alpha: float = 5.0
    k: float = 5.0
    use_effective_order: bool | None = None
    auto_reweigh: tuple = ()  # per weight set: NLTK re-weighs short hypotheses
    brevity_penalty: str = "closest"
    tokenize: TokenizerSpec = "13a"
    lowercase: bool = False

    @property
    def reads_last_sentence(self) -> bool:
        """Whether the rule reads the last sentence's statistics besides the summed ones (NLTK's methods 5-7)."""
        return self.variant == "nltk" and self.smooth in ("method5", "method6", "method7")

    @property
    def statistics_order(self) -> int:
        """NLTK's method 5 and 7 look at 5-gram precision whatever max_order is."""
        if self.variant == "nltk" and self.smooth in ("method5", "method7"):
            return max(self.max_order, 5)
        return self.max_order


@cached_by_value
def resolve_options(variant: str = "sacrebleu", **options: Any) -> BleuOptions:
    """Check the options of :func:`bleu` that change the numbers (named as it names them, its defaults for the
    others) and fill in the variant's defaults."""
    FAMILY.check_options(options)
    given = {**_DEFAULT_OPTIONS, **options, "variant": variant}
    check_choice("variant", variant, VARIANTS)
    default_tokenize, default_bp, default_smooth, _, _ = _DEFAULTS[variant]
    weight_sets, several, tuples = _weight_sets(given["weights"])
    max_order = given["max_order"]
    if max_order is None:
        max_order = max(len(w) for w in weight_sets) if weight_sets else 4
    check_order("max_order", max_order)
    if not weight_sets:
        d2l = variant == "d2l"
        weight_sets, tuples = [tuple(0.5**n if d2l else 1.0 / max_order for n in range(1, max_order + 1))], [True]
    for w in weight_sets:
        # NLTK and pycocoevalcap (its BLEU-1..3) also score with fewer weights than orders.
        if variant not in ("nltk", "coco") and len(w) != max_order:
            raise InputError(f"weights {w} have {len(w)} entries but max_order is {max_order}")
        if len(w) > max_order:
            raise InputError(f"weights {w} have more entries than max_order={max_order}")
        # sacrebleu's score is the mean of the log precisions, here weighted and renormalized over the
        # weighted orders: with none it has no value (the other rules give the brevity penalty, as NLTK does).
        if variant == "sacrebleu" and not any(w):
            raise InputError(
                f"weights {w} are all zero: variant 'sacrebleu' averages the log precisions of the "
                "weighted orders, and none is weighted (variant='nltk' scores the brevity penalty)"
            )
    smooth = default_smooth if given["smooth"] == "default" else given["smooth"]
    if smooth is None or (variant == "nmt" and smooth == "none"):
        smooth = {"sacrebleu": "none", "nltk": "method0", "nmt": False}.get(variant)
    check_choice(f"smooth for variant {variant!r}", smooth, SMOOTHING[variant])
    # The smoothing constants' domains (Chen and Cherry, 2014): NLTK divides by k and by
    # ln(c) * alpha terms, so 0 there gives inf or a ZeroDivisionError, never a score.
    for name in ("smooth_value", "epsilon", "alpha", "k"):
        if given[name] is not None:
            check_number(name, given[name], low=0, low_open=name in ("alpha", "k"))
    if given["use_effective_order"] is not None:
        check_flag("use_effective_order", given["use_effective_order"])
    check_flag("auto_reweigh", given["auto_reweigh"])
    check_flag("lowercase", given["lowercase"])
    smooth_value = given["smooth_value"]
    if smooth_value is None and smooth in ("floor", "add-k"):
        named = given["epsilon" if smooth == "floor" else "k"]
        smooth_value = {"floor": 0.1, "add-k": 1}[smooth] if named is None else named  # sacrebleu's SMOOTH_DEFAULTS
    brevity_penalty = given["brevity_penalty"] or default_bp
    check_choice("brevity_penalty", brevity_penalty, BREVITY_PENALTIES)
    if given["use_effective_order"] and variant != "sacrebleu":
        raise InputError("use_effective_order is sacrebleu's option; use variant='sacrebleu'")
    # NLTK compares each weight set with the tuple (0.25, 0.25, 0.25, 0.25): a list never equals it.
    reweigh = tuple(
        bool(given["auto_reweigh"]) and is_tuple and w == (0.25, 0.25, 0.25, 0.25)
        for w, is_tuple in zip(weight_sets, tuples)
    )
    epsilon, alpha, k = (default if given[name] is None else float(given[name]) for name, default in _CONSTANTS.items())
    resolved = (variant, max_order, tuple(weight_sets), several, smooth, smooth_value, epsilon, alpha, k)
    tokenize = default_tokenize if given["tokenize"] == "default" else given["tokenize"]
    return BleuOptions(
        *resolved, given["use_effective_order"], reweigh, brevity_penalty, tokenize, bool(given["lowercase"])
    )


def _weight_sets(weights: Any):
    if weights is None:
        return [], False, []
    if isinstance(weights, np.ndarray):
        weights = weights.tolist()
    if not isinstance(weights, (list, tuple)) or len(weights) == 0:
        raise InputError(f"weights must be a non-empty sequence of numbers (or of such sequences), got {weights!r}")
    several = isinstance(weights[0], (list, tuple, np.ndarray))
    given = list(weights) if several else [weights]
    sets = [tuple(w) for w in given]
    for w in sets:
        if len(w) == 0 or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in w):
            raise InputError(f"weights must contain numbers, got {w!r}")
        if not all(math.isfinite(x) and x >= 0 for x in w):
            raise InputError(f"weights must be finite and not negative, got {w!r}")
    return sets, several, [isinstance(w, tuple) for w in given]


def signature(options: BleuOptions, num_refs: Any, tokenizer_name: str, sentence: bool = False) -> str:
    """A reproducibility signature. The sacrebleu variant uses sacrebleu's own format."""
    case = "lc" if options.lowercase else "mixed"
    weights = ";".join(",".join(f"{x:g}" for x in w) for w in options.weights)
    if options.variant != "sacrebleu":
        smooth = {True: "add-one", False: "none", None: "none"}.get(options.smooth, options.smooth)
        return (
            f"variant:{options.variant}|nrefs:{num_refs}|case:{case}|tok:{tokenizer_name}|smooth:{smooth}|"
            f"order:{options.max_order}|weights:{weights}|bp:{options.brevity_penalty}|{_DEFAULTS[options.variant][4]}|"
            f"ngrameval:{__version__}"
        )
    smooth = options.smooth
    if smooth in ("floor", "add-k"):
        smooth += f"[{options.smooth_value:.2f}]"
    effective = "yes" if _effective_order(options, sentence) else "no"
    parts = [f"nrefs:{num_refs}|case:{case}|eff:{effective}|tok:{tokenizer_name}|smooth:{smooth}"]
    if options.max_order != 4:
        parts.append(f"order:{options.max_order}")
    if options.weights != ((1.0 / options.max_order,) * options.max_order,):
        parts.append(f"weights:{weights}")
    if options.brevity_penalty != "closest":
        parts.append(f"bp:{options.brevity_penalty}")
    return "|".join(parts + [f"version:{SACREBLEU_VERSION}"])


def _effective_order(options: BleuOptions, sentence: Any) -> Any:
    """Whether sacrebleu's effective order applies (per row when ``sentence`` is per row); by default as
    sacrebleu: off for corpus_bleu, on for sentence_bleu."""
    return sentence if options.use_effective_order is None else options.use_effective_order


def score_rows(
    rows: BleuStatistics, last: BleuStatistics | None, options: BleuOptions, sentence: Any = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The variant's rule on K rows: (scores (K, W), precisions (K, N), bp (K,)). ``last``: the K rows of the
    last sentence (:attr:`BleuOptions.reads_last_sentence`); ``sentence``: whether the rows are sentences
    (sacrebleu's sentence_bleu defaults), one flag or one per row."""
    n = options.max_order
    weights = np.array([w + (0,) * (n - len(w)) for w in options.weights], np.float64)
    head = BleuStatistics(
        rows.hyp_len, rows.ref_len, *(a[:, :n] for a in (rows.matches, rows.totals, rows.clamped_totals))
    )
    return _RULES[options.variant](head, last, weights, options, sentence)


@dataclass
class BleuResult(MetricResult):
    """A corpus BLEU score, its parts, and optionally per-sentence scores and an explanation."""

    headline = "bleu"

    bleu: float | list[float]
    precisions: list[float]
    counts: list[int]
    totals: list[int]
    brevity_penalty: float
    length_ratio: float
    translation_length: int
    reference_length: int | float
    signature: str
    sentence_scores: list[float] | list[list[float]] | None = None
    sentence_signature: str | None = None
    explanation: list[dict[str, Any]] | None = None
    statistics: Statistics | None = field(default=None, repr=False)


@strict_options
def bleu(
    predictions: Predictions,
    references: References,
    variant: str = "sacrebleu",
    max_order: int | None = None,
    weights: Any = None,
    smooth: Any = "default",
    smooth_value: float | None = None,
    epsilon: float | None = None,
    alpha: float | None = None,
    k: float | None = None,
    use_effective_order: bool | None = None,
    auto_reweigh: bool = False,
    brevity_penalty: str | None = None,
    tokenize: TokenizerSpec = "default",
    lowercase: bool = False,
    sentence_level: bool = False,
    explain: bool = False,
    threads: int = 1,
    pad_id: int | None = None,
) -> BleuResult:
    """Corpus BLEU in [0, 1], exact to the reference tool named by ``variant``.

    ``references`` holds one string or a list of strings per prediction.
    ``variant`` picks the defaults and the scoring rule: ``"sacrebleu"`` (13a,
    exp smoothing), ``"nltk"`` (whitespace tokens, ``smooth="method0"``..``"method7"``),
    ``"mteval"`` (mteval-v13a.pl), ``"nmt"`` (tensorflow/nmt, HF's ``bleu``;
    ``smooth=True`` adds one), ``"d2l"`` (weights 1/2^n) or ``"coco"`` (pycocoevalcap;
    ``weights=[(1,), (.5, .5), (1/3,) * 3, (.25,) * 4]`` gives its Bleu_1..Bleu_4).

    A corpus of more than :data:`~ngrameval.engine.corpus.BLOCK_SEGMENTS` predictions (token ids: about
    :data:`~ngrameval.engine.corpus.BLOCK_TOKENS` tokens) is matched block by block, so memory stays bounded;
    ``threads`` > 1 matches that many blocks at once in threads of this process (numpy releases the GIL in
    its sorts and searches; the texts are not copied and any tokenizer works). The result is identical
    whatever ``threads``: the per-sentence statistics are integers, summed in order.

    Predictions and references may be token ids: per prediction a list of ints, a 1-D integer numpy array or
    torch tensor, or the whole batch as a 2-D array or tensor (references also several per prediction, or a
    3-D batch ``(N, R, L)``); ``pad_id`` drops every position holding it. The ids are never decoded: the score
    is that of the ids written as decimal-string tokens (the signature says ``tok:ids``; ``lowercase=True`` is
    refused). See :mod:`ngrameval.engine.token_ids`.

    >>> bleu([[5, 6, 7, 8, 0]], [[5, 6, 7, 8]], variant="nltk", pad_id=0).bleu
    1.0
    >>> result = bleu(["the cat sat on the mat"], [["the cat sat on the mat", "a cat sat"]])
    >>> result.bleu, result.brevity_penalty
    (1.0, 1.0)
    >>> round(bleu(["A B B C D"], ["A B C D E F"], variant="d2l", max_order=2).bleu, 6)
    0.681477
    """
    return FAMILY.compute(**locals())


# bleu()'s options and their defaults, which complete the options resolve_options is given (binding the signature
# at each call costs 20 us, a tenth of an 8-sentence call, where tuple weights leave the options uncached).
_DEFAULT_OPTIONS = {name: parameter.default for name, parameter in inspect.signature(bleu).parameters.items()}

# What matching saw that the parts need: the explanations, the sentences' signature.
_Seen = tuple[list[dict[str, Any]] | None, str | None]


class BleuFamily(MetricFamily):
    """BLEU on the metric protocol: rows are hypothesis length, reference length, then matches,
    totals and NLTK's clamped totals per order; every variant's rule scores their sums."""

    name = "bleu"
    function = staticmethod(bleu)
    options_not_for_statistics = ("sentence_level", "explain")
    merged_option_values = {"sentence_level": False, "explain": False}

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, _Seen]:
        threads = options.pop("threads", 1)  # (how to compute, not what: not part of the signature)
        pad_id = options.pop("pad_id", None)  # (how to read the ids; the signature says tok:ids)
        resolved = resolve_options(**options)
        sentence_level = check_flag("sentence_level", parts.get("sentence_level", False))
        explain = check_flag("explain", parts.get("explain", False))
        rows, explanation, num_refs, tokenizer = _matched(predictions, references, resolved, threads, pad_id, explain)
        outputs = (
            tuple(f"bleu.{i + 1}" for i in range(len(resolved.weights))) if resolved.several_weights else ("bleu",)
        )
        stats = Statistics(
            self.name, rows, outputs, signature(resolved, num_refs, tokenizer.name), {"options": resolved}
        )
        sentence_signature = signature(resolved, num_refs, tokenizer.name, sentence=True) if sentence_level else None
        return stats, (explanation if explain else None, sentence_signature)

    def result_with_parts(
        self, stats: Statistics, seen: _Seen, predictions: Any, references: Any, **parts: Any
    ) -> BleuResult:
        result = self.result(stats, stats.totals(), stats.rows, parts.get("sentence_level", False))
        result.explanation, result.sentence_signature = seen
        return result

    def result(
        self, stats: Statistics, totals: np.ndarray, segments: np.ndarray, sentence_level: bool = False
    ) -> BleuResult:
        """The result of the summed rows ``totals``, with ``sentence_level`` the score of each of ``stats``' rows:
        the rule runs once over all (its fixed cost is most of the scoring of a few sentences)."""
        options: BleuOptions = stats.context["options"]
        order, n = options.statistics_order, options.max_order
        rows = np.concatenate([totals, stats.rows]) if sentence_level else totals
        last = None  # (no other rule reads it)
        if options.reads_last_sentence:
            last = from_rows(
                np.concatenate([stats.rows[-1:], stats.rows]) if sentence_level else stats.rows[-1:], order
            )
        scored = from_rows(rows, order)
        scores, precisions, bp = score_rows(scored, last, options, sentence=np.arange(len(rows)) > 0)
        listed = scores.tolist() if options.several_weights else scores[:, 0].tolist()
        ref_len, hyp_len = float(scored.ref_len[0]), int(scored.hyp_len[0])
        counts, reported_totals = scored.matches[0, :n].tolist(), scored.totals[0, :n].tolist()
        # sacrebleu reports its add-k smoothed counts (k added to orders 2..N in place), unless nothing matched.
        if options.variant == "sacrebleu" and options.smooth == "add-k" and any(counts):
            counts[1:] = [c + options.smooth_value for c in counts[1:]]
            reported_totals[1:] = [t + options.smooth_value for t in reported_totals[1:]]
        return BleuResult(
            bleu=listed[0],
            precisions=precisions[0].tolist(),
            counts=counts,
            totals=reported_totals,
            brevity_penalty=float(bp[0]),
            length_ratio=hyp_len / ref_len if ref_len else 0.0,
            translation_length=hyp_len,
            reference_length=int(ref_len) if ref_len.is_integer() else ref_len,
            signature=stats.signature,
            sentence_scores=listed[1:] if sentence_level else None,
        )

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        options: BleuOptions = stats.context["options"]
        last = from_rows(stats.rows[last_weighted(weights, len(stats))], options.statistics_order)
        return score_rows(from_rows(totals, options.statistics_order), last, options)[0]

    def segment_scores(self, stats: Statistics) -> np.ndarray:
        # As sacrebleu's sentence_bleu and NLTK's sentence_bleu score one sentence (its own last sentence).
        options: BleuOptions = stats.context["options"]
        sentences = from_rows(stats.rows, options.statistics_order)
        return score_rows(sentences, sentences, options, sentence=True)[0]

    def resampling(self, stats: Statistics) -> Resampling:
        return SACREBLEU_RESAMPLING if follows_sacrebleu_arithmetic(stats.context["options"]) else Resampling()

    def score_resampled(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        # The options sacrebleu computes: its own arithmetic, so that means, intervals and p-values are its.
        options: BleuOptions = stats.context["options"]
        if follows_sacrebleu_arithmetic(options):
            return sacrebleu_percent_scores(totals, options)[:, None]
        return self.score_totals(stats, totals, weights)

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        # The "average" rule's float reference lengths are summed pairwise, as NumPy sums one array (as bleu() did).
        return (1,) if stats.context["options"].brevity_penalty == "average" else ()


FAMILY = register(BleuFamily())


# sacrebleu's significance tests score on its 0-100 scale, its bootstrap on float32 sums of the
# statistics (under NumPy 2's NEP 50, ``100. * correct / total`` then stays float32), its corpus
# score and approximate randomization on integers. Reproducing their means, intervals and
# p-values bit for bit needs its arithmetic, not the [0, 1] rule above.


def follows_sacrebleu_arithmetic(options: BleuOptions) -> bool:
    """Whether sacrebleu itself computes these options (its variant, uniform weights, closest length)."""
    return (
        options.variant == "sacrebleu"
        and options.brevity_penalty == "closest"
        and options.weights == ((1.0 / options.max_order,) * options.max_order,)
    )


def sacrebleu_percent_scores(sums: np.ndarray, options: BleuOptions) -> np.ndarray:
    """(B,) sacrebleu 2.6.0 ``BLEU.compute_bleu`` scores (0-100) of (B, columns) sums of
    :class:`BleuFamily` rows, operation for operation in the dtype of ``sums`` (float32: its bootstrap;
    float64: its corpus score and AR). Logs and exponentials go through ``math`` element by element,
    as sacrebleu's do (NumPy's SIMD ``log``/``exp`` may differ from them in the last bit).

    >>> options = resolve_options(tokenize="none")
    >>> sums = BleuFamily().statistics(["a b c d e"], [["a b c d f"]], tokenize="none").rows
    >>> sacrebleu_percent_scores(sums, options).tolist()   # sacrebleu: 66.87403049764218
    [66.87403049764218]
    """
    dtype = sums.dtype.type
    n = options.max_order
    correct, total = sums[:, 2 : 2 + n].copy(), sums[:, 2 + n : 2 + 2 * n].copy()
    matched = (correct != 0).any(axis=1)  # checked before add-k, as sacrebleu does
    if options.smooth == "add-k":
        correct[:, 1:] += dtype(options.smooth_value)
        total[:, 1:] += dtype(options.smooth_value)
    used = np.cumprod(total > 0, axis=1).astype(bool)  # its loop breaks at the first empty order
    zero = used & (correct == 0)
    hundred = dtype(100.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions = hundred * correct / total
        if options.smooth == "exp":
            smoothed = hundred / ((2.0 ** np.cumsum(zero, axis=1)).astype(dtype) * total)
        elif options.smooth == "floor":
            smoothed = dtype(100.0 * cast(float, options.smooth_value)) / total  # (resolve_options sets it for "floor")
        else:
            smoothed = np.zeros_like(total)
    precisions = np.where(used, np.where(zero, smoothed, precisions), 0.0)
    logs = np.full(precisions.shape, -9999999999.0)  # sacrebleu's my_log: log(0) is this
    nonzero = precisions != 0.0
    logs[nonzero] = _elementwise(math.log, precisions[nonzero])
    order = used.sum(axis=1) if _effective_order(options, False) else np.full(len(sums), n)
    log_sum = logs[:, 0]
    for i in range(1, n):  # Python's sum(): left to right
        log_sum = log_sum + np.where(i < order, logs[:, i], 0.0)
    hyp_len, ref_len = sums[:, 0].astype(np.int64), sums[:, 1].astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):  # (rows without matches score 0 below)
        bp = np.where(hyp_len < ref_len, np.where(hyp_len > 0, _elementwise(math.exp, 1 - ref_len / hyp_len), 0.0), 1.0)
        mean_log = log_sum / order
    return np.where(matched, bp * _elementwise(math.exp, mean_log), 0.0)


def _elementwise(function, values: np.ndarray) -> np.ndarray:
    """``function`` of each element (Python floats in, float64 out), in the shape of ``values``."""
    return np.fromiter(map(function, values.ravel().tolist()), np.float64, values.size).reshape(values.shape)
