"""CIDEr and CIDEr-D (Vedantam et al., 2015), exact to the reference code.

========== ===================================================================
variant    reproduces
========== ===================================================================
cider-d    pycocoevalcap 1.2 ``Cider`` (= vrama91/cider ``CiderD``): clipped
           tf-idf products, a Gaussian length penalty (sigma 6), times 10
cider      vrama91/cider ``Cider``: plain tf-idf cosine, no clipping, no length
           penalty (also times 10)
========== ===================================================================

Each text is a tf-idf vector per n-gram order: term frequency times ``log(D) - log(max(1, df))``, with
``df`` the number of items whose references contain the n-gram and ``D`` the number of items (or both from
another reference corpus: :class:`DocumentFrequency`). An item scores the mean over orders of the similarity
to each reference, averaged over its references, times 10; the corpus score is the mean over items. Every
n-gram gets a corpus-wide id, and a prediction meets its references by joining (text, id) pairs on (item, id).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

import numpy as np

from ngrameval._version import __version__
from ngrameval.engine.corpus import encode_texts
from ngrameval.engine.inputs import (
    check_choice,
    check_flag,
    check_number,
    check_order,
    normalize_corpus,
    strict_options,
)
from ngrameval.engine.ngrams import concatenated_ranges, corpus_ngram_ids, distinct
from ngrameval.engine.token_ids import check_text_options, encode_id_texts, is_token_ids, token_ids
from ngrameval.errors import InputError
from ngrameval.metric import MetricFamily, ReferenceCounts, ScoresAndSeen, Statistics, means, register, rows_with_count
from ngrameval.text.tokenizers import TokenizerSpec, get_tokenizer
from ngrameval.vocabulary import MetricResult, Predictions, References

VARIANTS = ("cider-d", "cider")
_FORMAT = "ngrameval-cider-document-frequency"


@dataclass
class DocumentFrequency:
    """Document frequencies from a reference corpus (as the original CIDEr code's ``coco-val-df``), to score a
    few items against stable idf weights: per n-gram (tokens joined by spaces), the number of items whose
    references contain it, and the number of items.

    >>> table = DocumentFrequency.from_references([["a cat", "the cat"], ["a dog"]], max_order=2)
    >>> table.num_documents, table.counts["a"], table.counts["cat"], table.counts["a cat"]
    (2, 2, 1, 1)
    """

    num_documents: int
    counts: dict[str, int]
    max_order: int = 4
    tokenize: str = "none"

    @classmethod
    def from_references(
        cls, references: Any, max_order: int = 4, tokenize: TokenizerSpec = "none", lowercase: bool = False
    ) -> DocumentFrequency:
        """Count, for every n-gram up to ``max_order``, the items whose references contain it."""
        max_order = check_order("max_order", max_order)
        lowercase = check_flag("lowercase", lowercase)
        references = list(references)
        first = references[0] if references else None
        tokenized = isinstance(first, (list, tuple)) and len(first) > 0 and isinstance(first[0], (list, tuple))
        _, refs, pretokenized = normalize_corpus([[] if tokenized else ""] * len(references), references)
        corpus = _Corpus(
            [], refs, max_order, *_text_encoding(get_tokenizer(tokenize, lowercase), pretokenized, lowercase)
        )
        counts: dict[str, int] = {}
        for n in range(1, max_order + 1):
            _, gram, _, starts = corpus.term_frequencies(n)
            df = corpus.document_frequency(n, gram, starts)
            present = np.flatnonzero(df)
            counts.update(zip(corpus.ngram_strings(n, present), df[present].astype(np.int64).tolist()))
        name = tokenize if isinstance(tokenize, str) else getattr(tokenize, "__name__", "callable")
        return cls(len(refs), counts, max_order, name)

    def save(self, path: str | os.PathLike) -> None:
        """Write the table as JSON (n-grams as space-joined strings)."""
        fields = ("num_documents", "max_order", "tokenize", "counts")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"format": _FORMAT, **{name: getattr(self, name) for name in fields}}, f, ensure_ascii=False)

    @classmethod
    def load(cls, path: str | os.PathLike) -> DocumentFrequency:
        """Read a table written by :meth:`save`."""
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise InputError(f"{path} is not a CIDEr document-frequency table written by DocumentFrequency.save")
        return cls(
            int(data["num_documents"]),
            {str(k): int(v) for k, v in data["counts"].items()},
            int(data["max_order"]),
            str(data.get("tokenize", "none")),
        )


_Key = TypeVar("_Key", bound=Hashable)


class _Corpus:
    """Distinct texts, tokenized once, with corpus-wide n-gram ids; per item the text of its prediction and its
    *reference group* (the tuple of its reference texts), so that what depends only on the references is done
    once per group (several systems scored on one test set). ``as_key`` makes a text hashable, ``encode`` turns
    the distinct texts' keys into ``(ids, lengths, words)``."""

    def __init__(
        self,
        hypotheses: Sequence[Any],
        references: Sequence[Sequence[Any]],
        max_order: int,
        as_key: Callable[[Any], _Key],
        encode: Callable[[list[_Key]], tuple[Any, Any, Any]],
    ) -> None:
        lookup: dict[Any, int] = {}

        def text_ids(texts):
            return np.fromiter((lookup.setdefault(as_key(t), len(lookup)) for t in texts), np.int64, len(texts))

        self.hyp_text = text_ids(hypotheses)
        self.refs_per_item = np.fromiter(map(len, references), np.int64, len(references))
        self.ref_text = text_ids([r for group in references for r in group])
        self.ref_item = np.repeat(np.arange(len(references)), self.refs_per_item)
        self.ref_start = np.cumsum(self.refs_per_item) - self.refs_per_item
        groups: dict[tuple, int] = {}
        bounds = np.r_[self.ref_start, len(self.ref_text)].tolist()
        texts_of_item = self.ref_text.tolist()
        self.group_of_item = np.array(
            [groups.setdefault(tuple(texts_of_item[a:b]), len(groups)) for a, b in zip(bounds, bounds[1:])], np.int64
        )
        self.group_multiplicity = np.bincount(self.group_of_item, minlength=len(groups))
        first_item = np.full(len(groups), -1, np.int64)
        first_item[self.group_of_item[::-1]] = np.arange(len(references))[::-1]
        members, self.member_group = concatenated_ranges(self.ref_start[first_item], self.refs_per_item[first_item])
        self.member_text = self.ref_text[members]
        self.member_slot = members - self.ref_start[first_item][self.member_group]

        self.ids, self.lengths, self.words = encode(list(lookup))
        self.text_of_position = np.repeat(np.arange(len(self.lengths)), self.lengths)
        self.ngram_ids = corpus_ngram_ids(self.ids, self.lengths, max_order)

    def num_ngrams(self, n: int) -> int:
        return max(int(self.ngram_ids[n - 1].max(initial=-1)) + 1, 1)

    def term_frequencies(self, n: int):
        """The distinct (text, n-gram) pairs of order n, their counts, and where each text's pairs start; a
        text's pairs in the order of first occurrence (pycocoevalcap's dict order), so that a text's sums do not
        depend on the other texts (a shard gives its items the scores the whole corpus gives them)."""
        grams = self.ngram_ids[n - 1]
        valid = grams >= 0
        keys, first, tf = np.unique(
            self.text_of_position[valid] * self.num_ngrams(n) + grams[valid], return_index=True, return_counts=True
        )
        # Positions run text by text, so the first positions order the pairs text by text too.
        order = np.argsort(first, kind="stable")
        keys, tf = keys[order], tf[order]
        text, gram = np.divmod(keys, self.num_ngrams(n))
        starts = np.searchsorted(text, np.arange(len(self.lengths) + 1))
        return text, gram, tf, starts

    def reference_pairs(self, starts: np.ndarray):
        """The (text, n-gram) pairs of every group's references: indexes into the pairs, and the
        member (group, slot, text) each belongs to."""
        return concatenated_ranges(starts[self.member_text], starts[self.member_text + 1] - starts[self.member_text])

    def document_frequency(self, n: int, gram: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """Per n-gram id of order n, the number of items whose references contain it."""
        pair, member = self.reference_pairs(starts)
        present = distinct(self.member_group[member] * self.num_ngrams(n) + gram[pair])
        group, present_gram = np.divmod(present, self.num_ngrams(n))
        return np.bincount(present_gram, weights=self.group_multiplicity[group], minlength=self.num_ngrams(n))

    def ngram_strings(self, n: int, grams: np.ndarray) -> list[str]:
        """The n-grams with the given ids, as space-joined tokens."""
        first = np.full(self.num_ngrams(n), -1, np.int64)
        positions = np.flatnonzero(self.ngram_ids[n - 1] >= 0)
        first[self.ngram_ids[n - 1][positions[::-1]]] = positions[::-1]
        words, ids = self.words, self.ids
        return [" ".join(words[i] for i in ids[p : p + n].tolist()) for p in first[grams].tolist()]


def _text_encoding(tokenizer: Any, pretokenized: bool, lowercase: bool):
    """``(as_key, encode)`` of :class:`_Corpus` for strings or token lists."""
    return (tuple if pretokenized else str), partial(
        encode_texts, tokenizer=tokenizer, pretokenized=pretokenized, lowercase=lowercase
    )


# ``(as_key, encode)`` of :class:`_Corpus` for token ids (int64 arrays): a text's key is its bytes.
_ID_ENCODING = (np.ndarray.tobytes, encode_id_texts)


@dataclass
class CiderResult(MetricResult):
    """A corpus CIDEr score (mean over items), per-item scores, and optionally an explanation."""

    headline = "cider"

    cider: float
    scores: list[float] | None
    variant: str
    signature: str
    explanation: list[dict[str, Any]] | None = None
    document_frequency: DocumentFrequency | None = field(default=None, repr=False)
    statistics: Statistics | None = field(default=None, repr=False)

    @property
    def sentence_scores(self) -> list[float] | None:
        """The score of every item (given unless ``sentence_level=False``); :attr:`scores` is its other name
        (pycocoevalcap's)."""
        return self.scores


def _resolve_idf(idf: Any) -> DocumentFrequency | None:
    if isinstance(idf, DocumentFrequency):
        return idf
    if idf == "corpus":
        return None
    if isinstance(idf, (str, os.PathLike)):
        if not os.path.isfile(idf):
            raise InputError(
                f"idf must be 'corpus', a DocumentFrequency or the path of a saved table; no file {str(idf)!r}"
            )
        return DocumentFrequency.load(idf)
    raise InputError(f"idf must be 'corpus', a DocumentFrequency or the path of a saved table, got {idf!r}")


@strict_options
def cider(
    predictions: Predictions,
    references: References,
    variant: str = "cider-d",
    max_order: int = 4,
    sigma: float = 6.0,
    idf: Any = "corpus",
    tokenize: TokenizerSpec = "none",
    lowercase: bool = False,
    explain: bool = False,
    pad_id: int | None = None,
    sentence_level: bool = True,
) -> CiderResult:
    """CIDEr-D (default, pycocoevalcap 1.2) or CIDEr (``variant="cider"``) of one prediction per item
    against its references (one string or a list of strings per prediction).

    pycocoevalcap splits texts on whitespace (``tokenize="none"``, the default): give it
    PTB-tokenized captions as COCO's evaluation does, or ``tokenize="ptb"``. Document frequencies
    come from the references themselves (``idf="corpus"``), so one item alone scores 0; pass a
    :class:`DocumentFrequency` (or the path of a saved one) to use another corpus's. Every item's score
    is given (``scores``, also named ``sentence_scores``) unless ``sentence_level=False``.

    Token ids are taken as :func:`ngrameval.bleu` takes them (``pad_id`` dropped; ``tokenize`` has nothing
    to do, ``lowercase=True`` is refused, the signature says ``tok:ids``); n-grams of a given table are
    matched as the ids' decimal strings joined by spaces.

    >>> result = cider(["a man rides a horse", "two dogs are playing in grass"],
    ...                [["a man riding a horse on a beach", "a person rides a horse"],
    ...                 ["two dogs play in the grass", "dogs playing on a lawn"]])
    >>> round(result.cider, 6), [round(s, 6) for s in result.scores]
    (2.313348, [2.962235, 1.664461])
    """
    return FAMILY.compute(**locals())


def _checked(settings: dict[str, Any], explain: Any = False) -> dict[str, Any]:
    """``settings`` (:func:`cider`'s options but its parts) and ``explain`` checked, ``idf`` resolved (None:
    "corpus")."""
    check_choice("variant", settings["variant"], VARIANTS)
    max_order = check_order("max_order", settings["max_order"])
    checked = {
        **settings,
        "max_order": max_order,
        "sigma": check_number("sigma", settings["sigma"], low=0.0, low_open=True),
        "lowercase": check_flag("lowercase", settings["lowercase"]),
        "explain": check_flag("explain", explain),
        "idf": _resolve_idf(settings["idf"]),
    }
    table = checked["idf"]
    if table is not None and table.max_order < max_order:
        raise InputError(
            f"the document-frequency table goes up to {table.max_order}-grams but max_order is {max_order}"
        )
    return checked


def _statistics(
    predictions: Any, references: Any, options: dict[str, Any], table: DocumentFrequency | None, idf_given: bool
) -> tuple[Statistics, list[dict[str, Any]] | None]:
    """The statistics of :func:`cider` (rows: the items' scores and a count) and, with ``explain``, the
    explanation. ``table``: the document frequencies, None to count them on these references; ``idf_given``:
    whether it is the ``idf`` option's (else a shard's whole corpus's: still ``idf:corpus``, not listed)."""
    variant, max_order, sigma, lowercase = (options[name] for name in ("variant", "max_order", "sigma", "lowercase"))
    ids = token_ids(predictions, references, options["pad_id"])
    if ids is None:
        hyps, refs, pretokenized = normalize_corpus(predictions, references)
        tokenizer = get_tokenizer(options["tokenize"], lowercase)
        corpus = _Corpus(hyps, refs, max_order, *_text_encoding(tokenizer, pretokenized, lowercase))
        tok_name = tokenizer.name + ("+lc" if lowercase else "")
    else:
        check_text_options(lowercase=lowercase)
        corpus = _Corpus(ids.predictions(), ids.reference_groups(), max_order, *_ID_ENCODING)
        tok_name = "ids"
    num_items, num_refs = len(corpus.hyp_text), len(corpus.ref_text)
    log_documents = np.log(float(table.num_documents if table is not None else num_items))
    similarity = np.zeros((num_refs, max_order))  # per reference, per order
    details = []
    for n in range(1, max_order + 1):
        text, gram, tf, starts = corpus.term_frequencies(n)
        if table is None:
            gram_df = corpus.document_frequency(n, gram, starts)[gram]
        else:
            unique_grams, where = np.unique(gram, return_inverse=True)
            known = np.array([table.counts.get(s, 0) for s in corpus.ngram_strings(n, unique_grams)], np.float64)
            gram_df = known[where]
        weight = tf * (log_documents - np.log(np.maximum(1.0, gram_df)))
        norm = np.sqrt(np.bincount(text, weight * weight, minlength=len(corpus.lengths)))
        # The references of each group, sorted by (group, n-gram); each prediction n-gram looks up
        # the range of its group's references that contain it.
        ref_pair, member = corpus.reference_pairs(starts)
        ref_keys = corpus.member_group[member] * corpus.num_ngrams(n) + gram[ref_pair]
        order = np.argsort(ref_keys)
        ref_keys, ref_pair, member = ref_keys[order], ref_pair[order], member[order]
        hyp_text = corpus.hyp_text
        hyp_pair, item = concatenated_ranges(starts[hyp_text], starts[hyp_text + 1] - starts[hyp_text])
        hyp_keys = corpus.group_of_item[item] * corpus.num_ngrams(n) + gram[hyp_pair]
        left = np.searchsorted(ref_keys, hyp_keys, "left")
        found, matched = concatenated_ranges(left, np.searchsorted(ref_keys, hyp_keys, "right") - left)
        hyp_weight, ref_weight = weight[hyp_pair[matched]], weight[ref_pair[found]]
        product = (np.minimum(hyp_weight, ref_weight) if variant == "cider-d" else hyp_weight) * ref_weight
        reference = corpus.ref_start[item[matched]] + corpus.member_slot[member[found]]
        dot = np.bincount(reference, product, minlength=num_refs)
        denominator = norm[hyp_text[corpus.ref_item]] * norm[corpus.ref_text]
        similarity[:, n - 1] = np.where(denominator != 0, dot / np.where(denominator != 0, denominator, 1), dot)
        if options["explain"]:
            details.append((text, gram, tf, gram_df, weight, starts))
    cosine = similarity.copy()
    if variant == "cider-d":
        # pycocoevalcap's length is the number of bigrams; with max_order 1 it counts none.
        bigrams = np.maximum(corpus.lengths - 1, 0) if max_order >= 2 else np.zeros(len(corpus.lengths), np.int64)
        delta = (bigrams[corpus.hyp_text[corpus.ref_item]] - bigrams[corpus.ref_text]).astype(np.float64)
        penalty = np.e ** (-(delta**2) / (2 * sigma**2))
        similarity *= penalty[:, None]
    else:
        penalty = np.ones(num_refs)
    per_item = np.zeros((num_items, max_order))
    np.add.at(per_item, corpus.ref_item, similarity)
    scores = per_item.mean(axis=1) / corpus.refs_per_item * 10.0
    idf_name = f"table({table.num_documents})" if idf_given and table is not None else "corpus"
    stats = Statistics(
        "cider",
        rows_with_count(scores),
        ("cider",),
        f"variant:{variant}|tok:{tok_name}|n:{max_order}|sigma:{sigma:g}|idf:{idf_name}|ngrameval:{__version__}",
        {"variant": variant, "document_frequency": table if idf_given else None},
    )
    if not options["explain"]:
        return stats, None
    return stats, _explain(corpus, details, cosine, penalty, scores, float(log_documents))


def _explain(corpus: _Corpus, details, cosine, penalty, scores, log_documents):
    """Per item: its score, per reference the (clipped) cosine per order and the length penalty, and the
    prediction's n-grams with their tf, df, idf and tf-idf weight."""
    names = []  # per order: the n-gram of each id the predictions use
    for n, (_, gram, _, _, _, starts) in enumerate(details, start=1):
        used = np.unique(
            np.concatenate([gram[starts[t] : starts[t + 1]] for t in corpus.hyp_text.tolist()] or [gram[:0]])
        )
        names.append(dict(zip(used.tolist(), corpus.ngram_strings(n, used))))
    explanation = []
    for i, text in enumerate(corpus.hyp_text.tolist()):
        first = corpus.ref_start[i]
        references = [
            {"cosine": cosine[r].tolist(), "length_penalty": float(penalty[r])}
            for r in range(first, first + corpus.refs_per_item[i])
        ]
        ngrams = [
            {
                "ngram": names[n - 1][int(gram[k])],
                "n": n,
                "tf": int(tf[k]),
                "df": int(df[k]),
                "idf": log_documents - math.log(max(1.0, float(df[k]))),
                "weight": float(weight[k]),
            }
            for n, (_, gram, tf, df, weight, starts) in enumerate(details, start=1)
            for k in range(starts[text], starts[text + 1])
        ]
        explanation.append({"score": float(scores[i]), "references": references, "ngrams": ngrams})
    return explanation


class CiderFamily(ScoresAndSeen, MetricFamily):
    """CIDEr on the metric protocol: rows are the items' scores and a count, and a sum of rows scores their
    mean; the document frequencies come from the whole reference set once (a resample keeps them, as the
    corpus score's idf)."""

    name = "cider"
    function = staticmethod(cider)

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, list[dict[str, Any]] | None]:
        # (the explanations come from the tf-idf vectors that make the scores)
        checked = _checked(self.with_defaults(options), parts.get("explain", False))
        check_flag("sentence_level", parts.get("sentence_level", True))
        return _statistics(predictions, references, checked, checked["idf"], True)

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return means(totals)

    def needs_reference_counts(self, **options: Any) -> bool:
        # idf="corpus": the document frequencies of every item's references; a given table fixes them already.
        idf = self.with_defaults(options)["idf"]
        return isinstance(idf, str) and idf == "corpus"

    def reference_counts(self, predictions: Any, references: Any, **options: Any) -> ReferenceCounts | None:
        if not self.needs_reference_counts(**options):
            return None
        if is_token_ids(predictions, references):
            raise InputError(
                "cider of token ids in shards: the corpus's document frequencies are counted on text "
                "only; score the ids in one call (ngrameval.cider), or pass idf= a DocumentFrequency"
            )
        normalize_corpus(predictions, references)  # bad predictions fail in this first pass already
        settings = self.with_defaults(options)
        table = DocumentFrequency.from_references(
            references, settings["max_order"], settings["tokenize"], settings["lowercase"]
        )
        return ReferenceCounts(table.counts, table.num_documents)

    def shard_statistics(
        self, predictions: Any, references: Any, counts: ReferenceCounts | None, **options: Any
    ) -> Statistics:
        if counts is None:
            return self.statistics(predictions, references, **options)
        checked = _checked(self.with_defaults(options))
        if checked["idf"] is not None:
            raise InputError("corpus-wide reference counts are for idf='corpus' only")
        # The whole corpus's document frequencies stand for those of idf="corpus".
        table = DocumentFrequency(counts.documents, counts.counts, checked["max_order"])
        return _statistics(predictions, references, checked, table, False)[0]

    def pairwise_columns(self, stats: Statistics) -> tuple[int, ...]:
        return (0,)  # cider() averages the item scores with np.mean, as pycocoevalcap does

    def segment_columns(self, stats: Statistics) -> tuple[int, ...]:
        return (0,)  # the items' scores

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> CiderResult:
        """The items' scores and their mean (``np.mean``, as pycocoevalcap), and the ``idf`` option's table."""
        scores = segments[:, 0]
        return CiderResult(
            cider=float(np.mean(scores)),
            scores=scores.tolist(),
            variant=stats.context["variant"],
            signature=stats.signature,
            document_frequency=stats.context["document_frequency"],
        )


FAMILY = register(CiderFamily())
