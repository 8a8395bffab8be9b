"""chrF (Popović, 2015) and chrF++ (Popović, 2017): character (and word) n-gram F-scores, exact to (``variant``):

- ``sacrebleu``: sacrebleu 2.6.0 ``CHRF`` (``corpus_chrf``, ``sentence_chrf``): per segment the statistics of the
  reference with the best sentence F (the first on ties), summed over the corpus; F of the averaged per-order
  precision and recall (its "effective order"), or the mean of per-order F with ``eps_smoothing``;
- ``nltk``: NLTK 3.10.4 ``corpus_chrf`` / ``sentence_chrf``: one reference per prediction, per-order F per
  sentence, averaged over orders and sentences (a macro average).

Characters are the tokens of :class:`ngrameval.engine.ngrams.ReferenceIndex`: every segment's n-grams are matched
against each reference at once, and the references' index is cached (by blocks: :data:`BLOCK_CHARACTERS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from functools import partial
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from ngrameval._version import __version__
from ngrameval.engine.batch import FEW_PREDICTIONS, count_batch
from ngrameval.engine.cache import REFERENCE_CACHE
from ngrameval.engine.corpus import blocks_by_size, map_in_threads, references_label
from ngrameval.engine.inputs import (
    MAX_ORDER,
    cached_by_value,
    check_choice,
    check_flag,
    check_number,
    check_order,
    check_positive_int,
    normalize_corpus,
    strict_options,
)
from ngrameval.engine.ngrams import ReferenceIndex, SlotLayout, divide_or_zero, ngram_counts
from ngrameval.engine.peers import NLTK_VERSION, SACREBLEU_VERSION
from ngrameval.engine.token_ids import refuse_token_ids
from ngrameval.errors import InputError
from ngrameval.metric import (
    SACREBLEU_RESAMPLING,
    MetricFamily,
    Resampling,
    Statistics,
    array_of_scores,
    columns,
    register,
    rows_with_count,
)
from ngrameval.vocabulary import MetricResult, Predictions, References

VARIANTS = ("sacrebleu", "nltk")
DEFAULT_BETA = {"sacrebleu": 2, "nltk": 3.0}
# sacrebleu's and NLTK's stand-in for a precision, recall or F that would divide by zero.
EPSILON = 1e-16
# string.punctuation: what sacrebleu's chrF++ splits off the start or end of a word.
_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# NLTK removes whitespace with the `regex` engine's \s+ (Unicode White_Space), which unlike str.split
# keeps the information separators U+001C..U+001F.
_NLTK_WHITESPACE = re.compile("[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")

# Reference characters per block: a corpus of one block is indexed whole and cached, a larger one matched block
# by block, uncached. 20k pairs with 4 references of 120 characters: 10.5 s whole, 6.5 s in blocks of 2^18 to
# 2^20 characters (sorts that stay in cache); 2^20 keeps a batch of 2000 such pairs in one cached block.
BLOCK_CHARACTERS = 1 << 20


class ReferenceMatches(NamedTuple):
    """Per order n = 1..N, each hypothesis matched against each of its references alone."""

    matches: np.ndarray  # (sentences, reference slots, N) clipped matches; 0 for slots without a reference
    hyp_counts: np.ndarray  # (sentences, N) hypothesis n-grams
    ref_counts: np.ndarray  # (sentences, reference slots, N) reference n-grams; 0 for slots without a reference
    present: np.ndarray  # (sentences, reference slots) whether the slot holds a reference


def _matches_of(per_cell: np.ndarray, hyp_len: np.ndarray, references: SlotLayout, max_order: int) -> ReferenceMatches:
    present = references.slots_present()
    ref_counts = ngram_counts(references.by_slot(references.segment_len, 0), max_order) * present[:, :, None]
    return ReferenceMatches(per_cell, ngram_counts(hyp_len, max_order), ref_counts, present)


def _cached_matches(
    split: Callable[[str], Sequence[str]], hyps: list[str], refs: list[list[str]], max_order: int, cache_key: Any
) -> ReferenceMatches:
    """Each hypothesis's tokens (``split``) matched against each of its references alone, the references' index
    cached under ``cache_key`` (None: not cached); a few predictions are counted in one pass (no index)."""
    hypotheses = [split(h) for h in hyps]
    groups = None  # (the references split, once, when a batch needed them)
    if len(hypotheses) <= FEW_PREDICTIONS:
        groups = [[split(r) for r in group] for group in refs]
        batch = count_batch(hypotheses, list(chain.from_iterable(groups)), list(map(len, groups)), max_order)
        if batch is not None:
            return _matches_of(batch.per_reference, batch.hyp_len, batch, max_order)
    index = REFERENCE_CACHE.get(
        cache_key, lambda: ReferenceIndex(groups or [[split(r) for r in group] for group in refs], max_order)
    )
    matches = index.match(hypotheses, max_order)
    # Per order and cell (sentence, reference slot): the clipped matches, 0 in the cells of absent references.
    per_cell = np.stack([index.clipped_per_cell(n, matches.hyp_count[n - 1]) for n in range(1, max_order + 1)], axis=1)
    return _matches_of(per_cell.reshape(len(matches.hyp_len), -1, max_order), matches.hyp_len, index, max_order)


@dataclass(frozen=True)
class ChrfOptions:
    """The checked options of :func:`chrf` (``beta`` resolved to the variant's default)."""

    variant: str
    char_order: int
    word_order: int
    beta: float
    lowercase: bool
    whitespace: bool
    eps_smoothing: bool
    min_char_order: int


@cached_by_value
def resolve_options(variant: str = "sacrebleu", **options: Any) -> ChrfOptions:
    """Check the options of :func:`chrf` that change the numbers (named as it names them, its defaults for the
    others; one clear ValueError each) and fill in the variant's default beta. NLTK's ``min_len``, ``max_len`` and
    ``ignore_whitespace`` name ``min_char_order``, ``char_order`` and ``not whitespace`` (variant ``"nltk"``; given
    both ways, they must agree).

    >>> nltk_names = resolve_options("nltk", max_len=4, ignore_whitespace=False)
    >>> nltk_names == resolve_options("nltk", char_order=4, whitespace=True)
    True
    >>> resolve_options("nltk", word_order=2)
    Traceback (most recent call last):
    ...
    ngrameval.errors.InputError: word_order is sacrebleu's option (chrF++); NLTK's chrF counts characters only
    """
    given = FAMILY.with_defaults(dict(options, variant=variant))
    check_choice("variant", variant, VARIANTS)
    for alias, name, default in (("min_len", "min_char_order", 1), ("max_len", "char_order", 6)):
        if given[alias] is None:
            continue
        if variant != "nltk":
            raise InputError(f"{alias} is NLTK's name for {name}; use {name}, or variant='nltk'")
        value, ours = check_order(alias, given[alias]), given[name]
        if ours != default and ours != value:
            raise InputError(f"{alias}={value!r} contradicts {name}={ours!r} ({alias} is NLTK's name for {name})")
        given[name] = value
    ignore_whitespace, whitespace = given["ignore_whitespace"], given["whitespace"]
    if ignore_whitespace is not None:
        if variant != "nltk":
            raise InputError("ignore_whitespace is NLTK's option (not whitespace); use whitespace, or variant='nltk'")
        if check_flag("ignore_whitespace", ignore_whitespace) and check_flag("whitespace", whitespace):
            raise InputError(
                "ignore_whitespace=True contradicts whitespace=True (ignore_whitespace is NLTK's "
                "name for not whitespace)"
            )
        whitespace = not ignore_whitespace
    char_order, word_order = check_order("char_order", given["char_order"]), given["word_order"]
    if word_order == 0 and not isinstance(word_order, (bool, np.bool_, float)):
        word_order = 0
    else:
        try:
            word_order = check_order("word_order", word_order)
        except InputError:
            raise InputError(f"word_order must be an integer from 0 to {MAX_ORDER}, got {word_order!r}") from None
    beta = DEFAULT_BETA[variant] if given["beta"] is None else check_number("beta", given["beta"], low=0)
    lowercase, eps_smoothing = given["lowercase"], given["eps_smoothing"]
    for name, value in (("lowercase", lowercase), ("whitespace", whitespace), ("eps_smoothing", eps_smoothing)):
        check_flag(name, value)
    min_char_order = check_order("min_char_order", given["min_char_order"])
    if min_char_order > char_order:
        raise InputError(f"min_char_order ({min_char_order}) must not exceed char_order ({char_order})")
    if variant == "nltk":
        if word_order:
            raise InputError("word_order is sacrebleu's option (chrF++); NLTK's chrF counts characters only")
        for name, value in (("lowercase", lowercase), ("eps_smoothing", eps_smoothing)):
            if value:
                raise InputError(f"{name} is sacrebleu's option; use variant='sacrebleu'")
    elif min_char_order != 1:
        raise InputError("min_char_order is NLTK's option (its min_len); use variant='nltk'")
    return ChrfOptions(
        variant, char_order, word_order, beta, bool(lowercase), bool(whitespace), bool(eps_smoothing), min_char_order
    )


def signature(options: ChrfOptions, num_refs: Any) -> str:
    """sacrebleu's ``CHRF().get_signature()`` for the sacrebleu variant, character for character (beta is
    in the score's name, ``chrF2++``, as sacrebleu prints it); ngrameval's format for NLTK's.

    >>> signature(resolve_options(beta=3), 1)
    'nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0'
    """
    space = "yes" if options.whitespace else "no"
    if options.variant == "sacrebleu":
        case, effective = "lc" if options.lowercase else "mixed", "no" if options.eps_smoothing else "yes"
        return (
            f"nrefs:{num_refs}|case:{case}|eff:{effective}|nc:{options.char_order}|nw:{options.word_order}|"
            f"space:{space}|version:{SACREBLEU_VERSION}"
        )
    return (
        f"variant:nltk|nrefs:{num_refs}|min_len:{options.min_char_order}|max_len:{options.char_order}|"
        f"beta:{options.beta:g}|space:{space}|nltk:{NLTK_VERSION}|ngrameval:{__version__}"
    )


def words_without_punctuation(line: str) -> list[str]:
    """sacrebleu's chrF++ words: whitespace-separated, one punctuation character split off the end
    of a word, or else off its start (so "(hi)" gives "(hi" and ")", as in sacrebleu).

    >>> words_without_punctuation("(hi) there.")
    ['(hi', ')', 'there', '.']
    """
    words: list[str] = []
    for word in line.split():
        if len(word) > 1 and word[-1] in _PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif len(word) > 1 and word[0] in _PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


def character_text(line: str, options: ChrfOptions) -> str:
    r"""The characters whose n-grams count: whitespace removed unless ``whitespace``, each tool its way.

    >>> character_text("a b\x1c c", resolve_options()), character_text("a b\x1c c", resolve_options(variant="nltk"))
    ('abc', 'ab\x1cc')
    """
    if options.whitespace:
        return line
    if options.variant == "nltk":
        return _NLTK_WHITESPACE.sub("", line)
    return "".join(line.split())


def _prepared_corpus(predictions: Any, references: Any, options: ChrfOptions) -> tuple[list[str], list[list[str]]]:
    """Validated strings (token lists joined with spaces, as NLTK joins them), lowercased if asked."""
    refuse_token_ids(predictions, "chrf", "characters")
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    if pretokenized:
        hyps, refs = [" ".join(h) for h in hyps], [[" ".join(r) for r in group] for group in refs]
    if options.variant == "nltk":
        for i, group in enumerate(refs):
            if len(group) != 1:
                raise InputError(f"NLTK's chrF takes one reference per prediction; references[{i}] has {len(group)}")
    if options.lowercase:
        hyps, refs = [h.lower() for h in hyps], [[r.lower() for r in group] for group in refs]
    return hyps, refs


def _order_statistics(hyps: list[str], refs: list[list[str]], options: ChrfOptions, cache: bool) -> ReferenceMatches:
    """Matches per (segment, reference, order): character orders, then word orders. The references'
    indexes are cached if ``cache``."""
    corpus_key = (tuple(map(len, refs)), tuple(r for group in refs for r in group)) if cache else None

    def key(*parts: Any) -> tuple | None:
        return None if corpus_key is None else ("chrf", *parts, *corpus_key)

    texts = partial(character_text, options=options)
    characters = _cached_matches(
        texts, hyps, refs, options.char_order, key("characters", options.variant, options.whitespace)
    )
    if not options.word_order:
        return characters
    words = _cached_matches(words_without_punctuation, hyps, refs, options.word_order, key("words"))
    matches, hyp_counts, ref_counts = (np.concatenate(pair, axis=-1) for pair in zip(characters[:3], words[:3]))
    return ReferenceMatches(matches, hyp_counts, ref_counts, characters.present)


def sacrebleu_f_score(
    hyp: np.ndarray, ref: np.ndarray, match: np.ndarray, beta: float, eps_smoothing: bool
) -> np.ndarray:
    """sacrebleu 2.6.0 ``CHRF._compute_f_score`` on (..., orders) statistics, in [0, 100] (best-reference ties are
    decided on these very numbers), operation for operation, in the precision of ``match / hyp``: float64 for counts,
    float32 for sacrebleu's bootstrap sums, where NumPy 2 keeps float32 scalars float32 and its Python floats (the
    epsilon, ``return 0.0``) float64 until they meet a float32 (NEP 50); the scores come back in the array sacrebleu
    collects them in (:func:`ngrameval.metric.array_of_scores`).

    >>> float(sacrebleu_f_score(np.array([4.0]), np.array([5.0]), np.array([4.0]), 2, False)[()])
    83.33333333333334
    >>> score = sacrebleu_f_score(np.array([4.0], np.float32), np.array([5.0], np.float32),
    ...                           np.array([4.0], np.float32), 2, False)
    >>> score.dtype, float(score)   # sacrebleu on np.float32 statistics: np.float32(83.33333)
    (dtype('float32'), 83.33332824707031)
    """
    factor = beta**2
    with np.errstate(divide="ignore", invalid="ignore"):
        prec, rec = match / hyp, match / ref
        if eps_smoothing:
            return array_of_scores(*_mean_of_order_f(prec, rec, hyp > 0, ref > 0, factor))
        both = (hyp > 0) & (ref > 0)
        effective_order = both.sum(axis=-1).astype(prec.dtype)
        # (summed left to right as sacrebleu's loop adds: np.sum adds 8 or more values pairwise)
        avg_prec = divide_or_zero(np.cumsum(np.where(both, prec, 0), axis=-1)[..., -1], effective_order)
        avg_rec = divide_or_zero(np.cumsum(np.where(both, rec, 0), axis=-1)[..., -1], effective_order)
        f = (1 + factor) * avg_prec * avg_rec
        f /= factor * avg_prec + avg_rec
        nothing = avg_prec + avg_rec == 0  # sacrebleu returns a Python 0.0
    return array_of_scores(np.where(nothing, 0, 100 * f), nothing)


def _mean_of_order_f(
    prec: np.ndarray, rec: np.ndarray, hyp_present: np.ndarray, ref_present: np.ndarray, factor: float
) -> tuple[np.ndarray, np.ndarray]:
    """sacrebleu's ``eps_smoothing`` score (100 times the mean over orders of each order's F, epsilon for what
    divides by zero) and where it is a Python float. Each value is carried in float64 with whether sacrebleu holds it
    as a Python float (its epsilon, what only Python floats make) or a NumPy scalar of the statistics' dtype: an
    operation on two Python floats is float64, any other is in that dtype."""
    dtype = prec.dtype

    def operate(ufunc: np.ufunc, a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[np.ndarray, np.ndarray]:
        python = np.logical_and(a[1], b[1])
        narrow = ufunc(np.asarray(a[0]).astype(dtype), np.asarray(b[0]).astype(dtype))
        return np.where(python, ufunc(a[0], b[0]), narrow), python

    def python(value: float) -> tuple[float, bool]:
        return value, True

    # (prec and rec become (value, is Python float) pairs here, which mypy, holding them to their ndarray
    # parameter types, does not follow)
    prec = np.where(hyp_present, prec.astype(np.float64), EPSILON), ~hyp_present  # type: ignore[assignment]
    rec = np.where(ref_present, rec.astype(np.float64), EPSILON), ~ref_present  # type: ignore[assignment]
    denom = operate(np.add, operate(np.multiply, python(factor), prec), rec)  # type: ignore[arg-type]
    f = operate(np.divide, operate(np.multiply, operate(np.multiply, python(1 + factor), prec), rec), denom)  # type: ignore[arg-type]
    defined = denom[0] > 0
    f = np.where(defined, f[0], EPSILON), np.where(defined, f[1], True)
    total: tuple[Any, Any] = python(0.0)
    for order in range(prec[0].shape[-1]):  # sacrebleu's loop, left to right
        total = operate(np.add, total, (f[0][..., order], f[1][..., order]))
    score, is_python = operate(np.divide, operate(np.multiply, python(100), total), python(prec[0].shape[-1]))
    return (score if is_python.any() else score.astype(dtype)), is_python


def nltk_f_scores(hyp: np.ndarray, ref: np.ndarray, match: np.ndarray, beta: float) -> np.ndarray:
    """NLTK 3.10.4 ``chrf_precision_recall_fscore_support``'s F per order: epsilon wherever a division
    is by zero (no hypothesis or reference n-grams, or no match at all)."""
    factor = beta**2
    with np.errstate(divide="ignore", invalid="ignore"):
        prec, rec = match / hyp, match / ref
        denom = factor * prec + rec
        f = (1 + factor) * (prec * rec) / denom
    return np.where((hyp > 0) & (ref > 0) & (denom != 0), f, EPSILON)


def _statistics(predictions: Any, references: Any, options: ChrfOptions, threads: int) -> tuple[np.ndarray, Any]:
    """Protocol rows (:class:`ChrfFamily`) and nrefs; the blocks of a large corpus matched ``threads`` at a time
    (a corpus of one block has its references' indexes cached)."""
    hyps, refs = _prepared_corpus(predictions, references, options)
    blocks = blocks_by_size([sum(map(len, group)) for group in refs], BLOCK_CHARACTERS)

    def block_rows(block: tuple[int, int]) -> np.ndarray:
        start, end = block
        return rows_of_matches(_order_statistics(hyps[start:end], refs[start:end], options, len(blocks) == 1), options)

    return np.concatenate(map_in_threads(block_rows, blocks, threads)), references_label(map(len, refs))


def rows_of_matches(stats: ReferenceMatches, options: ChrfOptions) -> np.ndarray:
    """The protocol rows of segments matched against their references (see :class:`ChrfFamily`): the
    best reference's statistics (sacrebleu) or the per-order F (NLTK). Any statistics of that shape
    give rows, e.g. those of every (hypothesis, reference) pair (:mod:`ngrameval.training.pairwise`).

    >>> one = ReferenceMatches(np.array([[[2.0]]]), np.array([[3]]), np.array([[[4]]]), np.array([[True]]))
    >>> rows_of_matches(one, resolve_options(char_order=1)).tolist()
    [[3.0, 4.0, 2.0]]
    """
    if options.variant == "nltk":
        low = options.min_char_order - 1
        hyp, ref, match = stats.hyp_counts[:, low:], stats.ref_counts[:, 0, low:], stats.matches[:, 0, low:]
        return rows_with_count(nltk_f_scores(hyp, ref, match, options.beta))
    # sacrebleu counts no hypothesis n-grams of an order its reference has none of.
    hyp = np.where(stats.ref_counts > 0, stats.hyp_counts[:, None, :], 0)
    if stats.present.shape[1] == 1:  # one reference each: it is the best, no need to score it
        best = np.zeros(len(hyp), np.int64)
    else:
        f = sacrebleu_f_score(hyp, stats.ref_counts, stats.matches, options.beta, options.eps_smoothing)
        best = np.argmax(np.where(stats.present, f, -np.inf), axis=1)  # the first of equal scores
    take = np.arange(len(best))
    return columns(hyp[take, best], stats.ref_counts[take, best], stats.matches[take, best])


def score_rows(rows: np.ndarray, options: ChrfOptions) -> np.ndarray:
    """(K,) scores in [0, 1] of K rows (one per segment, or sums of them)."""
    if options.variant == "nltk":
        count = rows[:, -1]
        return divide_or_zero(rows[:, :-1].sum(axis=1) / (rows.shape[1] - 1), count)
    return sacrebleu_percent_scores(rows, options) / 100


def sacrebleu_percent_scores(rows: np.ndarray, options: ChrfOptions) -> np.ndarray:
    """(K,) sacrebleu's scores in [0, 100] of K rows of the sacrebleu variant, in the rows' precision
    (see :func:`sacrebleu_f_score`).

    >>> rows = np.array([[4.0, 5.0, 4.0]])       # one character order: hypothesis, reference n-grams, matches
    >>> sacrebleu_percent_scores(rows, resolve_options(char_order=1)).tolist()   # sacrebleu: 83.33333333333334
    [83.33333333333334]
    """
    n = rows.shape[1] // 3
    return sacrebleu_f_score(rows[:, :n], rows[:, n : 2 * n], rows[:, 2 * n :], options.beta, options.eps_smoothing)


@dataclass
class ChrfResult(MetricResult):
    """A corpus chrF score in [0, 1], its parts, and optionally per-segment scores."""

    headline = "chrf"

    chrf: float
    name: str
    signature: str
    char_precisions: list[float] | None = None
    char_recalls: list[float] | None = None
    word_precisions: list[float] | None = None
    word_recalls: list[float] | None = None
    char_fscores: list[float] | None = None
    sentence_scores: list[float] | None = None
    statistics: Statistics | None = field(default=None, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """The result as the dict the evaluate metric returns (parts the variant has not are left out)."""
        names = [f.name for f in fields(self) if f.repr and f.name != "signature"]
        names.insert(-1, "signature")  # (after the parts, before the sentence scores)
        return {name: getattr(self, name) for name in names if getattr(self, name) is not None}


@strict_options
def chrf(
    predictions: Predictions,
    references: References,
    variant: str = "sacrebleu",
    char_order: int = 6,
    word_order: int = 0,
    beta: float | None = None,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    min_char_order: int = 1,
    sentence_level: bool = False,
    threads: int = 1,
    min_len: int | None = None,
    max_len: int | None = None,
    ignore_whitespace: bool | None = None,
) -> ChrfResult:
    """Corpus chrF (``word_order=2``: chrF++) in [0, 1], exact to the tool named by ``variant``.

    ``"sacrebleu"`` (default; beta 2): sacrebleu 2.6.0 ``CHRF(char_order, word_order, beta, lowercase, whitespace,
    eps_smoothing)``, the options of HF evaluate's ``chrf``, under the same names. ``"nltk"`` (beta 3): NLTK 3.10.4
    ``corpus_chrf(min_len=min_char_order, max_len=char_order, ignore_whitespace=not whitespace)``, one reference per
    prediction; NLTK's names ``min_len``, ``max_len`` and ``ignore_whitespace`` work too. ``sentence_level`` adds
    ``sentence_chrf`` per prediction. Token lists are joined with spaces (as NLTK joins them). A corpus of more than
    :data:`BLOCK_CHARACTERS` reference characters is matched block by block, so memory stays bounded, ``threads``
    blocks at once (as :func:`ngrameval.bleu`'s); the result is the same.

    >>> result = chrf(["the cat sat on the mat"], [["the cat sat on a mat", "a cat sat on the mat"]])
    >>> round(result.chrf, 6), result.name
    (0.88957, 'chrF2')
    >>> round(chrf(["the cat"], ["the mat"], variant="nltk", sentence_level=True).sentence_scores[0], 6)
    0.280556
    """
    return FAMILY.compute(**locals())


class ChrfFamily(MetricFamily):
    """chrF on the metric protocol. sacrebleu: rows are, per order (characters, then words), the
    hypothesis n-grams, reference n-grams and matches of the chosen reference, and a sum of rows is
    scored as sacrebleu scores the corpus; NLTK: rows are the per-order F of each sentence and 1."""

    name = "chrf"
    function = staticmethod(chrf)
    options_not_for_statistics = ("sentence_level",)
    merged_option_values = {"sentence_level": False}

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, None]:
        threads = options.pop("threads", 1)  # (how, not what: not signed)
        resolved = resolve_options(**options)
        check_flag("sentence_level", parts.get("sentence_level", False))
        rows, num_refs = _statistics(predictions, references, resolved, check_positive_int("threads", threads))
        return Statistics(self.name, rows, ("chrf",), signature(resolved, num_refs), {"options": resolved}), None

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return score_rows(totals, stats.context["options"])[:, None]

    def resampling(self, stats: Statistics) -> Resampling:
        return SACREBLEU_RESAMPLING if stats.context["options"].variant == "sacrebleu" else Resampling()

    def score_resampled(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        options: ChrfOptions = stats.context["options"]
        if options.variant == "sacrebleu":  # sacrebleu's 0-100, in the precision of the sums (its float32)
            return sacrebleu_percent_scores(totals, options)[:, None]
        return self.score_totals(stats, totals, weights)

    def result_with_parts(
        self, stats: Statistics, seen: None, predictions: Any, references: Any, **parts: Any
    ) -> ChrfResult:
        # The rule runs once over the summed row and the segments' rows: its fixed cost is most of the scoring
        # of a few segments (a GRPO step's).
        totals = stats.totals()
        if not parts.get("sentence_level"):
            return self.result(stats, totals, stats.rows)
        scores = score_rows(np.concatenate([totals, stats.rows]), stats.context["options"])
        result = self.result(stats, totals, stats.rows, scores[0])
        result.sentence_scores = scores[1:].tolist()
        return result

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray, score: Any = None) -> ChrfResult:
        options: ChrfOptions = stats.context["options"]
        score = score_rows(totals, options)[0] if score is None else score
        # (the name as sacrebleu prints it: chrF2, chrF2++ with one + per word order)
        result = ChrfResult(float(score), f"chrF{options.beta:g}" + "+" * options.word_order, stats.signature)
        if options.variant == "nltk":
            result.char_fscores = (totals[0, :-1] / totals[0, -1]).tolist()
        else:
            n = totals.shape[1] // 3
            # (the matches over the prediction's, then the reference's n-grams, in one division)
            ratios = divide_or_zero(np.concatenate([totals[0, 2 * n :]] * 2), totals[0, : 2 * n])
            precisions, recalls = ratios[:n].tolist(), ratios[n:].tolist()
            c = options.char_order
            result.char_precisions, result.char_recalls = precisions[:c], recalls[:c]
            if options.word_order:
                result.word_precisions, result.word_recalls = precisions[c:], recalls[c:]
        return result


FAMILY = register(ChrfFamily())
