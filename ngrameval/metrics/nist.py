"""NIST (Doddington, 2002): information-weighted n-gram co-occurrence. Two reference tools disagree; both are offered:

- ``variant="nltk"`` reproduces NLTK 3.10.4 ``corpus_nist`` / ``sentence_nist``: for each sentence and order it picks
  the single reference with the best information-weighted precision (clipping against that reference only), and the
  length penalty compares the hypothesis length with those chosen references. ``sentence_nist`` computes
  information weights from that sentence's references.
- ``variant="mteval"`` reproduces mteval-v13a.pl: clipping against the maximum count over all references, the
  average reference length in the penalty, and information weights from all references of the whole test set (a
  segment's score uses them too). It keeps one Perl quirk: a bigram whose first word is the string ``0`` takes its
  weight against the total word count (Perl treats the prefix "0" as false).

info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)), with count() over the references and count() of the empty
prefix the number of reference words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ngrameval._version import __version__
from ngrameval.engine.corpus import IndexedCorpus, explain_matches, index_corpus
from ngrameval.engine.inputs import check_choice, check_flag, check_order, strict_options
from ngrameval.engine.ngrams import Matches, ReferenceIndex, corpus_ngram_ids, divide_or_zero, ngram_counts
from ngrameval.engine.peers import NLTK_VERSION
from ngrameval.metric import MetricFamily, ReferenceCounts, Statistics, columns, register
from ngrameval.text.tokenizers import TokenizerSpec
from ngrameval.vocabulary import MetricResult, Predictions, References, aliased

VARIANTS = ("nltk", "mteval")
_DEFAULT_TOKENIZE = {"nltk": "none", "mteval": "mteval-v13a"}
# beta makes the penalty 0.5 when the output is 2/3 of the reference length.
BETA = math.log(0.5) / math.log(1.5) ** 2


def length_penalty(ratio: np.ndarray) -> np.ndarray:
    """exp(beta * log(min(ratio, 1))^2), 0 for an empty output."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = np.exp(BETA * np.log(np.where(ratio > 0, ratio, 1)) ** 2)
    return np.where(ratio >= 1, 1.0, np.where(ratio > 0, inside, 0.0))


def _log2_ratio(numerator: np.ndarray, denominator: np.ndarray, perl: bool) -> np.ndarray:
    """log2(numerator / denominator) bit for bit as the reference tool computes it: NLTK's
    ``math.log(a / b, 2)`` or mteval's ``-log(b / a) / log 2`` (libm's log, not numpy's, which may differ
    in the last bit and so decide a tie between references). Distinct ratios are few, so this is cheap."""
    numerator, denominator = np.asarray(numerator, np.int64), np.asarray(denominator, np.int64)
    scale = int(denominator.max(initial=0)) + 1
    pairs, inverse = np.unique(numerator * scale + denominator, return_inverse=True)
    log2 = math.log(2)
    ratios = zip(*map(np.ndarray.tolist, np.divmod(pairs, scale)))
    values = [(-math.log(b / a) if perl else math.log(a / b)) / log2 for a, b in ratios]
    return np.array(values, dtype=np.float64)[inverse.reshape(-1)]


def information_weights(index: ReferenceIndex, max_order: int, scope: str, perl: bool = False):
    """Per order, the information weight of every reference entry, from the counts over all references
    (``scope="corpus"``: mteval, NLTK's corpus_nist) or the sentence's own (``"sentence"``: NLTK's
    sentence_nist); ``perl``: mteval-v13a.pl's arithmetic and its "0" quirk. Kept with the (cached) index."""
    return index.memo.get(
        ("nist-information", max_order, scope, perl), lambda: _information_weights(index, max_order, scope, perl)
    )


def _reference_ngrams(index: ReferenceIndex, max_order: int):
    """Per order: the positions where a reference n-gram starts, the distinct n-grams (token tuples), the
    distinct one at each position and how often each occurs."""
    words = index.words(index.ids)
    for n, ranks in enumerate(corpus_ngram_ids(index.ids, index.segment_len, max_order), start=1):
        valid = np.flatnonzero(ranks >= 0)
        _, first, inverse, count = np.unique(ranks[valid], return_index=True, return_inverse=True, return_counts=True)
        yield valid, [tuple(words[p : p + n]) for p in valid[first].tolist()], inverse.reshape(-1), count


def reference_ngram_counts(index: ReferenceIndex, max_order: int) -> ReferenceCounts:
    """How often each n-gram up to ``max_order`` occurs in these references, and their number of tokens:
    summed over the shards of a corpus, its information weights."""
    counts: dict[Any, int] = {}
    for _, ngrams, _, count in _reference_ngrams(index, max_order):
        counts.update(zip(ngrams, count.tolist()))
    return ReferenceCounts(counts, index.num_sentences, len(index.ids))


def _counts_at_positions(index: ReferenceIndex, max_order: int, table: ReferenceCounts) -> list[np.ndarray]:
    """As :meth:`ReferenceIndex.global_counts`, with the counts of a whole corpus's references."""
    result = []
    for valid, ngrams, inverse, _ in _reference_ngrams(index, max_order):
        result.append(np.zeros(len(index.ids), np.int64))
        result[-1][valid] = np.array([table.counts.get(ngram, 0) for ngram in ngrams], np.int64)[inverse]
    return result


def _information_weights(
    index: ReferenceIndex, max_order: int, scope: str, perl: bool, table: ReferenceCounts | None = None
):
    weights = []
    if scope == "corpus":
        # A shard of a larger corpus takes its counts from the summed table of all shards.
        counts = index.global_counts(max_order) if table is None else _counts_at_positions(index, max_order, table)
        total_words = len(index.ids) if table is None else table.words
        zero_id = index.vocabulary.get("0", -2)
        for n in range(1, max_order + 1):
            valid = counts[n - 1] > 0
            prefix = np.full(len(index.ids), total_words) if n == 1 else counts[n - 2]
            if n == 2 and perl:
                prefix = np.where(index.ids == zero_id, total_words, prefix)
            # (every position of an entry holds its n-gram: the same weight)
            order = index.orders[n - 1]
            weight = np.zeros(len(order.keys))
            weight[order.position_entry[valid]] = _log2_ratio(prefix[valid], counts[n - 1][valid], perl)
            weights.append(weight)
        return weights
    sentence_words = _reference_words_per_sentence(index)
    counts = []
    for n in range(1, max_order + 1):
        order = index.orders[n - 1]
        count = np.bincount(order.pair_entry, weights=order.pair_count, minlength=len(order.keys))
        prefix = sentence_words[order.sentence] if n == 1 else counts[-1][order.keys // index.base]
        weights.append(_log2_ratio(prefix, count, perl))
        counts.append(count)
    return weights


def _reference_words_per_sentence(index: ReferenceIndex) -> np.ndarray:
    return np.bincount(index.segment_sentence, weights=index.segment_len, minlength=index.num_sentences)


def _rows(information: np.ndarray, hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """:class:`NistFamily` rows: matched information and hypothesis n-grams per order, hypothesis length, and
    the reference length per order (NLTK's choice of reference differs by order)."""
    return columns(information, ngram_counts(hyp_len, information.shape[1]), hyp_len, ref_len)


def _order_in_hypotheses(matches: Matches, n: int, entries: int) -> np.ndarray:
    """Reference entries of order n by first position in the hypotheses (others last: they add 0), the order
    NLTK sums information in (its Counter); it depends on the sentence only, so shards sum as the corpus."""
    position_entry = matches.position_entry[n - 1]
    first = np.full(entries, len(position_entry), np.int64)
    found = np.flatnonzero(position_entry >= 0)
    np.minimum.at(first, position_entry[found], found)
    return np.argsort(first, kind="stable")


def _mteval_statistics(index: ReferenceIndex, matches: Matches, weights, max_order: int) -> np.ndarray:
    information = np.zeros((index.num_sentences, max_order))
    for n in range(1, max_order + 1):
        table = index.orders[n - 1]
        order = _order_in_hypotheses(matches, n, len(table.keys))
        values = index.clipped(matches, n) * weights[n - 1]
        information[:, n - 1] = np.bincount(table.sentence[order], weights=values[order], minlength=index.num_sentences)
    average = _reference_words_per_sentence(index) / index.refs_per_sentence
    return _rows(information, matches.hyp_len, np.repeat(average[:, None], max_order, axis=1))


def _information_per_reference(index: ReferenceIndex, matches: Matches, weights, n: int) -> np.ndarray:
    """(sentences, reference slots): the information matched against each reference alone, summed as
    NLTK sums it (hypothesis n-grams in order of first occurrence; the float rounding of the sum
    decides near-ties between references); -inf for slots a sentence does not have."""
    table = index.orders[n - 1]
    rank = np.argsort(_order_in_hypotheses(matches, n, len(table.keys)), kind="stable")  # entry -> its place
    order = np.argsort(rank[table.pair_entry], kind="stable")
    entry = table.pair_entry
    clipped = np.minimum(matches.hyp_count[n - 1][entry], table.pair_count) * weights[n - 1][entry]
    slots = max(index.max_slots, 1)
    result = np.bincount(table.pair_cell[order], weights=clipped[order], minlength=index.num_sentences * slots)
    return np.where(index.slots_present(), result.reshape(index.num_sentences, slots), -np.inf)


def _nltk_statistics(index: ReferenceIndex, matches: Matches, weights, max_order: int) -> np.ndarray:
    """For each sentence and order, the reference with the best precision (ties: larger
    information, then the longer reference), as NLTK's ``max`` over tuples picks it."""
    sentences = index.num_sentences
    ref_len = index.by_slot(index.segment_len, -1.0)
    information = np.zeros((sentences, max_order))
    chosen_len = np.zeros((sentences, max_order))
    for n in range(1, max_order + 1):
        per_reference = _information_per_reference(index, matches, weights, n)
        best = per_reference.max(axis=1)
        information[:, n - 1] = best
        chosen_len[:, n - 1] = np.where(per_reference == best[:, None], ref_len, -1).max(axis=1)
    return _rows(information, matches.hyp_len, chosen_len)


def _scores(rows: np.ndarray, n: int, variant: str):
    """Per row of :class:`NistFamily` rows (orders 1..``n``): individual and cumulative scores per order and the
    length penalty."""
    information, totals, hyp_len, ref_len = rows[:, :n], rows[:, n : 2 * n], rows[:, 2 * n], rows[:, 2 * n + 1 :]
    if variant == "mteval":
        precision = information / np.maximum(totals, 1)
        ratio = hyp_len / np.where(ref_len[:, 0] > 0, ref_len[:, 0], np.nan)
    else:
        precision = divide_or_zero(information, totals)
        reference = ref_len.sum(axis=1)
        ratio = n * hyp_len / np.where(reference > 0, reference, np.nan)
    ratio = np.where(np.isnan(ratio), np.where(hyp_len > 0, 1.0, 0.0), ratio)
    penalty = length_penalty(ratio)
    return precision * penalty[:, None], np.cumsum(precision, axis=1) * penalty[:, None], penalty


@dataclass
class NistResult(MetricResult):
    """A corpus NIST score with per-order individual and cumulative scores."""

    headline = "nist"

    nist: float
    individual: list[float]
    cumulative: list[float]
    length_penalty: float
    matched_information: list[float]
    totals: list[int]
    translation_length: int
    reference_length: float
    signature: str
    sentence_scores: list[float] | None = None
    explanation: list[dict[str, Any]] | None = None
    statistics: Statistics | None = field(default=None, repr=False)


def _indexed_corpus(predictions: Any, references: Any, settings: dict[str, Any]) -> IndexedCorpus:
    variant, tokenize, lowercase = settings["variant"], settings["tokenize"], settings["lowercase"]
    check_choice("variant", variant, VARIANTS)
    check_order("n", settings["n"])
    check_flag("lowercase", lowercase)
    tokenize = _DEFAULT_TOKENIZE[variant] if tokenize == "default" else tokenize
    return index_corpus(predictions, references, tokenize, lowercase, settings["n"], settings["pad_id"])


def _matched(predictions: Any, references: Any, settings: dict[str, Any]) -> tuple[IndexedCorpus, Matches]:
    corpus = _indexed_corpus(predictions, references, settings)
    return corpus, corpus.index.match(corpus.hypotheses, settings["n"])


@strict_options
def nist(
    predictions: Predictions,
    references: References,
    variant: str = "nltk",
    max_order: int | None = None,
    tokenize: TokenizerSpec = "default",
    lowercase: bool = False,
    sentence_level: bool = False,
    explain: bool = False,
    pad_id: int | None = None,
    n: int | None = None,
) -> NistResult:
    """Corpus NIST, exact to NLTK (``variant="nltk"``, default) or to mteval-v13a.pl (``"mteval"``), of
    n-grams up to ``max_order`` (default 5; ``n``, NLTK's name, is its alias, and the signature's ``n:``).
    Token ids are taken as :func:`ngrameval.bleu` takes them (``pad_id`` dropped; the signature says
    ``tok:ids``).

    >>> hyp = "It is a guide to action which ensures that the military always obeys the commands of the party"
    >>> refs = ["It is a guide to action that ensures that the military will forever heed Party commands",
    ...         "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    ...         "It is the practical guide for the army always to heed the directions of the party"]
    >>> round(nist([hyp], [refs]).nist, 4)
    3.371
    >>> round(nist([hyp], [refs], variant="mteval").nist, 4)
    5.0379
    """
    return FAMILY.compute(**locals())


_Matched = tuple[IndexedCorpus, Matches]  # (what the parts read: the sentences' own weights, the explanations)


class NistFamily(MetricFamily):
    """NIST on the metric protocol: rows are the matched information and the hypothesis n-grams per
    order, the hypothesis length and the reference length(s); the information weights come from the
    whole reference set once (a resample keeps them)."""

    name = "nist"
    function = staticmethod(nist)
    options_not_for_statistics = ("sentence_level", "explain")
    merged_option_values = {"sentence_level": False, "explain": False}

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, _Matched]:
        settings = self.with_defaults(options)
        check_flag("sentence_level", parts.get("sentence_level", False))
        check_flag("explain", parts.get("explain", False))
        corpus, matches = _matched(predictions, references, settings)
        return self._statistics(corpus, matches, settings, "corpus"), (corpus, matches)

    def add_parts(
        self, result: NistResult, stats: Statistics, seen: _Matched, predictions: Any, references: Any, **parts: Any
    ) -> NistResult:
        corpus, matches = seen
        settings = stats.context
        n, nltk = settings["n"], settings["variant"] == "nltk"
        if parts.get("sentence_level"):
            scope = _sentence_scope(settings)
            sentences = stats if scope == "corpus" else self._statistics(corpus, matches, settings, scope)
            result.sentence_scores = self.segment_scores(sentences)[:, 0].tolist()
        if parts.get("explain"):
            weights = information_weights(corpus.index, n, "corpus", perl=not nltk)
            result.explanation = explain_matches(corpus, matches, n, stats.rows[:, 2 * n + 1], entry_weights=weights)
            if nltk:  # NLTK scores each order against its best single reference: show all of them
                for order in range(1, n + 1):
                    per_reference = _information_per_reference(corpus.index, matches, weights, order)
                    for s, item in enumerate(result.explanation):
                        refs = int(corpus.index.refs_per_sentence[s])
                        item["orders"][order - 1]["reference_information"] = per_reference[s, :refs].tolist()
        return result

    def needs_reference_counts(self, **options: Any) -> bool:
        self.check_options(options)
        return True  # the information weights count n-grams over every reference

    def with_defaults(self, options: dict[str, Any]) -> dict[str, Any]:
        """As :meth:`MetricFamily.with_defaults`, the order under one name, ``n`` (its alias ``max_order`` resolved)."""
        settings = super().with_defaults(options)
        settings["n"] = aliased("max_order", settings.pop("max_order"), "n", settings["n"], default=5)
        return settings

    def reference_counts(self, predictions: Any, references: Any, **options: Any) -> ReferenceCounts:
        settings = self.with_defaults(options)
        return reference_ngram_counts(_indexed_corpus(predictions, references, settings).index, settings["n"])

    def sentence_statistics(self, predictions: Any, references: Any, **options: Any) -> Statistics:
        settings = self.with_defaults(options)
        return self._statistics(*_matched(predictions, references, settings), settings, _sentence_scope(settings))

    def sentence_scores(self, stats: Statistics, predictions: Any, references: Any) -> np.ndarray:
        if _sentence_scope(stats.context) == "sentence":
            stats = self.sentence_statistics(predictions, references, **stats.context)
        return self.segment_scores(stats)

    def shard_statistics(
        self, predictions: Any, references: Any, counts: ReferenceCounts | None, **options: Any
    ) -> Statistics:
        settings = self.with_defaults(options)
        return self._statistics(*_matched(predictions, references, settings), settings, "corpus", counts)

    def _statistics(
        self,
        corpus: IndexedCorpus,
        matches: Matches,
        settings: dict[str, Any],
        scope: str,
        counts: ReferenceCounts | None = None,
    ) -> Statistics:
        """The statistics of a matched corpus, its n-grams weighed by the references of ``scope``, or by ``counts``,
        those of the whole corpus it is a shard of."""
        n, perl = settings["n"], settings["variant"] == "mteval"
        if counts is None:
            weights = information_weights(corpus.index, n, scope, perl)
        else:
            weights = _information_weights(corpus.index, n, "corpus", perl, counts)
        rows = (_mteval_statistics if perl else _nltk_statistics)(corpus.index, matches, weights, n)
        case, peer = "lc" if settings["lowercase"] else "mixed", "mteval:v13a" if perl else f"nltk:{NLTK_VERSION}"
        signature = (
            f"variant:{settings['variant']}|nrefs:{corpus.num_refs}|case:{case}|tok:{corpus.tokenizer.name}|n:{n}|"
            f"{peer}|ngrameval:{__version__}"
        )
        return Statistics(self.name, rows, ("nist",), signature, settings)

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        # At one order, information and reference length are summed pairwise as NumPy sums one array (as nist() did).
        n = stats.context["n"]
        return (0, 2 * n + 1) if n == 1 else ()

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return _scores(totals, stats.context["n"], stats.context["variant"])[1][:, -1:]

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> NistResult:
        n, variant = stats.context["n"], stats.context["variant"]
        individual, cumulative, penalty = _scores(totals, n, variant)
        total, ref_len = totals[0], totals[0, 2 * n + 1 :]
        return NistResult(
            nist=float(cumulative[0, -1]),
            individual=individual[0].tolist(),
            cumulative=cumulative[0].tolist(),
            length_penalty=float(penalty[0]),
            matched_information=total[:n].tolist(),
            totals=total[n : 2 * n].astype(np.int64).tolist(),
            translation_length=int(total[2 * n]),
            reference_length=float(ref_len[0]) if variant == "mteval" else float(ref_len.sum()) / n,
            signature=stats.signature,
        )


def _sentence_scope(settings: dict[str, Any]) -> str:
    """The references weighing a sentence's matches: NLTK's ``sentence_nist`` its own; mteval's, the corpus's."""
    return "sentence" if settings["variant"] == "nltk" else "corpus"


FAMILY = register(NistFamily())
