"""From raw input to an indexed corpus: validate, tokenize, index the references (cached). A corpus of more than
:data:`BLOCK_SEGMENTS` segments is indexed block by block (n-gram keys are scoped to their sentence), in memory
bounded by the block, blocks possibly in several threads."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, count
from typing import Any, TypeVar, cast

import numpy as np

from ngrameval.engine.batch import FEW_PREDICTIONS, count_batch, count_ids
from ngrameval.engine.cache import REFERENCE_CACHE
from ngrameval.engine.inputs import check_positive_int, normalize_corpus
from ngrameval.engine.ngrams import EncodedSegments, Matches, ReferenceIndex
from ngrameval.engine.runs import distinct_ids, ids_in, offsets, run_starts, strings, vocabulary_ids, whitespace_split
from ngrameval.engine.token_ids import GivenIds, IdVocabulary, TokenIds, token_ids
from ngrameval.text.tokenizers import (
    Tokenizer,
    TokenizerSpec,
    WhitespaceTokenizer,
    get_tokenizer,
    is_builtin,
    lowercase_tokens,
)

# Segments per block of a large corpus: a corpus of one block is indexed whole and its references cached; larger
# ones block by block, not cached. Blocks of this size keep numpy's sorts in cache.
BLOCK_SEGMENTS = 4096
# Tokens per block of a token-id corpus: small enough for the processor's cache and for the C allocator to reuse
# memory the process holds (fresh pages fault). 256 x 1024 ids by count_ids: 0.029 s and 60 faults in
# blocks of 2**14 tokens, 0.042 s and 6,600 faults in blocks of 2**15, 0.035 s in blocks of 2**13.
BLOCK_TOKENS = 1 << 14

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass
class IndexedCorpus:
    """Predictions encoded in the vocabulary of the index of their references."""

    hypotheses: EncodedSegments
    index: ReferenceIndex
    tokenizer: Tokenizer

    @property
    def num_refs(self) -> Any:
        """References per prediction, or ``"var"`` when the count varies."""
        return references_label(self.index.refs_per_sentence.tolist())


def references_label(refs_per_sentence: Iterable[int]) -> Any:
    """The number of references of every prediction, or ``"var"`` when it varies (sacrebleu's notation)."""
    counts = set(refs_per_sentence)
    return counts.pop() if len(counts) == 1 else "var"


def index_corpus(
    predictions: Any,
    references: Any,
    tokenize: TokenizerSpec,
    lowercase: bool,
    max_order: int,
    pad_id: int | None = None,
) -> IndexedCorpus:
    """Validate, tokenize and index (references indexed earlier with the same tokenizer are reused)."""
    ids = token_ids(predictions, references, pad_id, lowercase=lowercase)
    if ids is not None:
        return _indexed_ids(ids, max_order, cache=True)
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    return _indexed(hyps, refs, pretokenized, get_tokenizer(tokenize, lowercase), lowercase, max_order, cache=True)


def map_blocks(
    predictions: Any,
    references: Any,
    tokenize: TokenizerSpec,
    lowercase: bool,
    max_order: int,
    function: Callable[[Any], Result],
    threads: int = 1,
    pad_id: int | None = None,
    few: bool = False,
) -> tuple[list[Result], Any, Tokenizer]:
    """Validate, then apply ``function`` to the indexed corpus; with ``few``, to a batch of at most
    :data:`~ngrameval.engine.batch.FEW_PREDICTIONS` predictions counted without an index
    (:class:`~ngrameval.engine.batch.CountedBatch`); to each block of a larger corpus (:func:`id_blocks` for
    token ids), ``threads`` at once (numpy releases the GIL in its sorts). Returns the results in block order,
    the references per prediction (or ``"var"``) and the tokenizer."""
    threads = check_positive_int("threads", threads)
    ids = token_ids(predictions, references, pad_id, lowercase=lowercase)
    if ids is not None:
        num_refs = references_label(ids.refs_per_sentence.tolist())
        bounds = id_blocks(ids)

        def id_block(bound: tuple[int, int]) -> Result:
            block = ids if len(bounds) == 1 else ids.block(*bound)
            if few:
                ids_of_block = np.concatenate([block.hyp_ids, block.ref_ids])
                counted = count_ids(ids_of_block, block.hyp_len, block.ref_len, block.refs_per_sentence, max_order)
                if counted is not None:
                    return function(counted)
            return function(_indexed_ids(block, max_order, cache=len(bounds) == 1))

        return map_in_threads(id_block, bounds, threads), num_refs, GivenIds()
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    tokenizer = get_tokenizer(tokenize, lowercase)
    num_refs = references_label(map(len, refs))
    if few and len(hyps) <= FEW_PREDICTIONS:
        tokens = _distinct_tokens([*hyps, *chain.from_iterable(refs)], tokenizer, pretokenized, lowercase)
        batch = count_batch(tokens[: len(hyps)], tokens[len(hyps) :], list(map(len, refs)), max_order)
        if batch is not None:
            return [function(batch)], num_refs, tokenizer
    cache = len(hyps) <= BLOCK_SEGMENTS

    def block(start: int) -> Result:
        end = start + BLOCK_SEGMENTS
        blocked = (hyps, refs) if cache else (hyps[start:end], refs[start:end])
        return function(_indexed(*blocked, pretokenized, tokenizer, lowercase, max_order, cache=cache))

    return map_in_threads(block, range(0, len(hyps), BLOCK_SEGMENTS), threads), num_refs, tokenizer


def id_blocks(ids: TokenIds) -> list[tuple[int, int]]:
    """The ``(start, end)`` blocks of a token-id corpus: about :data:`BLOCK_TOKENS` tokens each."""
    reference_tokens = np.add.reduceat(ids.ref_len, offsets(ids.refs_per_sentence)[:-1])  # (each has one)
    # A prediction counts as at least BLOCK_TOKENS / BLOCK_SEGMENTS tokens: no block holds more predictions.
    tokens = np.maximum(ids.hyp_len + reference_tokens, -(-BLOCK_TOKENS // BLOCK_SEGMENTS))
    return blocks_by_size(tokens, BLOCK_TOKENS)


def map_in_threads(function: Callable[[Item], Result], items: Sequence[Item], threads: int) -> list[Result]:
    """``list(map(function, items))``, up to ``threads`` items at once."""
    if threads == 1 or len(items) < 2:
        return list(map(function, items))
    # (Imported here: concurrent.futures and the logging it imports cost every process ~4 ms, most never use them.)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(threads, len(items))) as pool:
        return list(pool.map(function, items))


def blocks_by_size(sizes: Sequence[int], budget: int) -> list[tuple[int, int]]:
    """``(start, end)`` blocks of consecutive items of ``sizes``, each less than ``budget`` plus its last item.

    >>> blocks_by_size([3, 3, 3, 10, 1], 5)
    [(0, 2), (2, 4), (4, 5)]
    >>> blocks_by_size([], 5)
    []
    """
    size = np.asarray(sizes, np.int64)
    block = (np.cumsum(size) - size) // budget
    starts = np.flatnonzero(run_starts(block)).tolist()
    return list(zip(starts, starts[1:] + [len(size)]))


def _indexed(
    hyps: list[Any],
    refs: list[list[Any]],
    pretokenized: bool,
    tokenizer: Tokenizer,
    lowercase: bool,
    max_order: int,
    cache: bool,
) -> IndexedCorpus:
    """Index checked references (through the cache when ``cache``) and encode the predictions."""
    flat_refs = [r for group in refs for r in group]
    counts = tuple(map(len, refs))
    if pretokenized:
        key: tuple[Any, ...] | None = ("tokens", lowercase, type(tokenizer), counts, tuple(map(tuple, flat_refs)))
    else:  # a user's callable may be unhashable or change between calls: its references are not cached
        key = (type(tokenizer), tokenizer.name, lowercase, counts, tuple(flat_refs)) if is_builtin(tokenizer) else None

    def build() -> ReferenceIndex:
        ids, lengths, vocabulary = _encode(flat_refs, tokenizer, pretokenized, lowercase)
        return ReferenceIndex.from_ids(vocabulary, ids, lengths, np.array(counts, np.int64), max_order)

    index = REFERENCE_CACHE.get(key if cache else None, build)
    index.extend(max_order)
    return IndexedCorpus(encode_segments(hyps, index, tokenizer, pretokenized, lowercase), index, tokenizer)


def explain_matches(
    corpus: IndexedCorpus,
    matches: Matches,
    max_order: int,
    reference_length: np.ndarray,
    entry_weights: list[np.ndarray] | None = None,
) -> list[dict[str, Any]]:
    """BLEU's and NIST's explanations: per prediction its tokens, its references', the reference length, and per
    order the matched n-grams' counts, clipped counts, positions and (``entry_weights``) NIST weights.

    >>> corpus = index_corpus(["a b a"], [["a b"]], "none", False, 2)
    >>> explained, = explain_matches(corpus, corpus.index.match(corpus.hypotheses, 2), 2, np.array([2]))
    >>> [(order["n"], order["matches"], order["total"]) for order in explained["orders"]]
    [(1, 2, 3), (2, 1, 2)]
    """
    index = corpus.index
    explanation = []
    for s, (start, hypothesis) in enumerate(zip(offsets(matches.hyp_len).tolist(), corpus.hypotheses)):
        orders = []
        for n in range(1, max_order + 1):
            table = index.orders[n - 1]
            positions = matches.position_entry[n - 1][start : start + len(hypothesis)]
            found: dict[int, list[int]] = {}
            for position in np.flatnonzero(positions >= 0).tolist():
                found.setdefault(int(positions[position]), []).append(position)
            ngrams = []
            for entry, where in found.items():
                item: dict[str, Any] = {
                    "ngram": " ".join(hypothesis[where[0] : where[0] + n]),
                    "count": len(where),
                    "clipped": int(min(len(where), table.max_count[entry])),
                    "positions": where,
                }
                if entry_weights is not None:
                    item["weight"] = float(entry_weights[n - 1][entry])
                ngrams.append(item)
            matched = sum(item["clipped"] for item in ngrams)
            orders.append({"n": n, "matches": matched, "total": max(len(hypothesis) - n + 1, 0), "ngrams": ngrams})
        explanation.append(
            {
                "prediction_tokens": list(hypothesis),
                "reference_tokens": index.reference_tokens(s),
                "reference_length": float(reference_length[s]),
                "orders": orders,
            }
        )
    return explanation


def _indexed_ids(ids: TokenIds, max_order: int, cache: bool) -> IndexedCorpus:
    """Index token-id references (cached when ``cache``) and number the predictions' ids alike."""
    key = ("ids", ids.refs_per_sentence.tobytes(), ids.ref_len.tobytes(), ids.ref_ids.tobytes())

    def build() -> ReferenceIndex:
        vocabulary, numbers = IdVocabulary.of(ids.ref_ids)
        return ReferenceIndex.from_ids(vocabulary, numbers, ids.ref_len, ids.refs_per_sentence, max_order)

    index = REFERENCE_CACHE.get(key if cache else None, build)
    index.extend(max_order)
    hypotheses = EncodedSegments(
        index.vocabulary, cast(IdVocabulary, index.vocabulary).numbers(ids.hyp_ids), ids.hyp_len, ids.prediction_tokens
    )
    return IndexedCorpus(hypotheses, index, GivenIds())


def _whitespace_tokens(texts: Sequence[Any], tokenizer: Tokenizer, pretokenized: bool) -> tuple[Any, np.ndarray] | None:
    """:func:`whitespace_split` of the texts for the whitespace tokenizer; None where that does not apply."""
    if pretokenized or type(tokenizer) is not WhitespaceTokenizer:
        return None
    return whitespace_split(list(map(str.lower, texts)) if tokenizer.lowercase else texts)


def _tokens(texts: Sequence[Any], tokenizer: Tokenizer, pretokenized: bool, lowercase: bool) -> Sequence[Any]:
    return (lowercase_tokens(texts, tokenizer) if lowercase else texts) if pretokenized else tokenizer.tokenize(texts)


def _distinct_tokens(texts: list[Any], tokenizer: Tokenizer, pretokenized: bool, lowercase: bool) -> list[Any]:
    """:func:`_tokens` of texts of which many may be equal (a GRPO step's), each distinct one tokenized once."""
    # (token lists: not hashable, and no tokenizer runs on them)
    numbering = None if pretokenized else dict(zip(dict.fromkeys(texts), count()))
    if numbering is None or len(numbering) == len(texts):
        return list(_tokens(texts, tokenizer, pretokenized, lowercase))
    distinct = _tokens(list(numbering), tokenizer, pretokenized, lowercase)
    return [distinct[numbering[text]] for text in texts]


def _encode(
    texts: Sequence[Any], tokenizer: Tokenizer, pretokenized: bool, lowercase: bool
) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
    """:func:`encode_texts` with the vocabulary as a dict (token -> id)."""
    split = _whitespace_tokens(texts, tokenizer, pretokenized)
    if split is not None:
        words, ids = distinct_ids(split[0])
        return ids, split[1], dict(zip(words, range(len(words))))
    token_lists = _tokens(texts, tokenizer, pretokenized, lowercase)
    vocabulary, ids = vocabulary_ids(token_lists)
    return ids, np.fromiter(map(len, token_lists), np.int64, len(token_lists)), vocabulary


def encode_texts(
    texts: Sequence[Any], tokenizer: Tokenizer, pretokenized: bool = False, lowercase: bool = False
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Tokenize texts straight to ``(ids, lengths, words)``: the token ids of all texts concatenated (in order of
    first occurrence, ``words[id]`` the token) and the tokens per text.

    >>> ids, lengths, words = encode_texts(["a b a", "", "b c"], get_tokenizer("none"))
    >>> ids.tolist(), lengths.tolist(), words
    ([0, 1, 0, 1, 2], [3, 0, 2], ['a', 'b', 'c'])
    """
    ids, lengths, vocabulary = _encode(texts, tokenizer, pretokenized, lowercase)
    return ids, lengths, list(vocabulary)


def encode_segments(
    texts: Sequence[Any],
    index: ReferenceIndex,
    tokenizer: Tokenizer,
    pretokenized: bool = False,
    lowercase: bool = False,
) -> EncodedSegments:
    """Tokenize texts straight to ids of ``index``'s vocabulary (-1 for tokens it lacks); token lists if asked.

    >>> index = ReferenceIndex([[["a", "b"]]], 1)
    >>> segments = encode_segments(["b x a"], index, get_tokenizer("none"))
    >>> segments.ids.tolist(), segments.lengths.tolist(), segments[0]
    ([1, -1, 0], [3], ['b', 'x', 'a'])
    """
    tokens = partial(_tokens, texts, tokenizer, pretokenized, lowercase)
    split = _whitespace_tokens(texts, tokenizer, pretokenized)
    if split is not None:
        # The vocabulary's words as an Arrow array (None if one has no UTF-8 form: then a dict look-up per
        # distinct token), looked up as a set.
        words, ids = index.memo.get(
            ("vocabulary as arrays",),
            lambda: (
                strings(list(index.vocabulary)),
                np.r_[np.fromiter(index.vocabulary.values(), np.int64, len(index.vocabulary)), -1],
            ),
        )
        if words is None:
            distinct, positions = distinct_ids(split[0])
            return EncodedSegments(index.vocabulary, index.encode([distinct])[positions], split[1], tokens)
        return EncodedSegments(index.vocabulary, ids[ids_in(split[0], words)], split[1], tokens)
    token_lists = tokens()
    return EncodedSegments(
        index.vocabulary,
        index.encode(token_lists),
        np.fromiter(map(len, token_lists), np.int64, len(token_lists)),
        lambda: token_lists,
    )
