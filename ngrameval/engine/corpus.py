"""From raw input to an indexed corpus: validate, tokenize, index the references (cached)."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, List, Sequence, Tuple

import numpy as np

from ngrameval.engine.inputs import normalize_corpus
from ngrameval.engine.ngrams import ReferenceCache, ReferenceIndex
from ngrameval.text.tokenizers import (Tokenizer, TokenizerSpec, WhitespaceTokenizer, get_tokenizer, is_builtin,
                                       lowercase_tokens)

_REFERENCE_CACHE = ReferenceCache(size=4)


@dataclass
class IndexedCorpus:
    """Tokenized predictions and the index of their (tokenized) references."""

    hypotheses: List[List[str]]
    index: ReferenceIndex
    tokenizer: Tokenizer

    @property
    def num_refs(self) -> Any:
        """References per prediction, or ``"var"`` when the count varies (sacrebleu's notation)."""
        counts = set(self.index.refs_per_sentence.tolist())
        return counts.pop() if len(counts) == 1 else "var"


def index_corpus(predictions: Any, references: Any, tokenize: TokenizerSpec, lowercase: bool,
                 max_order: int) -> IndexedCorpus:
    """Validate, tokenize and index. References indexed earlier with the same tokenizer are reused."""
    hyps, refs, pretokenized = normalize_corpus(predictions, references)
    tokenizer = get_tokenizer(tokenize, lowercase)
    flat_refs = [r for group in refs for r in group]
    counts = tuple(len(group) for group in refs)
    if pretokenized:
        hyp_tokens = lowercase_tokens(hyps, tokenizer) if lowercase else hyps
        key = ("tokens", lowercase, type(tokenizer), counts, tuple(map(tuple, flat_refs)))

        def tokenize_references():
            return lowercase_tokens(flat_refs, tokenizer) if lowercase else flat_refs
    else:
        hyp_tokens = tokenizer.tokenize(hyps)
        # A user's callable may be unhashable or change between calls: its references are not cached.
        key = None if not is_builtin(tokenizer) else \
            (type(tokenizer), tokenizer.name, lowercase, counts, tuple(flat_refs))

        def tokenize_references():
            return tokenizer.tokenize(flat_refs)

    def build():
        flat = tokenize_references()
        bounds = np.cumsum((0,) + counts).tolist()
        return ReferenceIndex([flat[bounds[i]:bounds[i + 1]] for i in range(len(counts))], max_order)

    index = _REFERENCE_CACHE.get(key, build)
    index.extend(max_order)
    return IndexedCorpus(hyp_tokens, index, tokenizer)


# Joins the texts of a corpus so that one split() finds every token; it stands for a text boundary.
_BOUNDARY = "\x00"


def encode_texts(texts: Sequence[Any], tokenizer: Tokenizer, pretokenized: bool = False,
                 lowercase: bool = False) -> Tuple[np.ndarray, np.ndarray, List[str]]:
    """Tokenize texts straight to ``(ids, lengths, words)``: the token ids of all texts concatenated
    (``words[id]`` is the token; ids in order of first occurrence) and the tokens per text.

    Splitting on whitespace needs no token lists: the texts are joined with a boundary token and
    split once.

    >>> ids, lengths, words = encode_texts(["a b a", "", "b c"], get_tokenizer("none"))
    >>> ids.tolist(), lengths.tolist(), words
    ([0, 1, 0, 1, 2], [3, 0, 2], ['a', 'b', 'c'])
    """
    if not pretokenized and type(tokenizer) is WhitespaceTokenizer:
        joined = f" {_BOUNDARY} ".join(texts)
        if joined.count(_BOUNDARY) == max(len(texts) - 1, 0):   # no text holds the boundary character
            flat = (joined.lower() if tokenizer.lowercase else joined).split()
            distinct = dict.fromkeys(flat)
            distinct.pop(_BOUNDARY, None)
            vocabulary = {token: i for i, token in enumerate(distinct)}
            vocabulary[_BOUNDARY] = -1
            ids = np.fromiter(map(vocabulary.__getitem__, flat), np.int64, len(flat))
            boundaries = np.flatnonzero(ids < 0)
            lengths = np.diff(np.r_[-1, boundaries, len(ids)]) - 1
            return ids[ids >= 0], lengths, list(distinct)
    if pretokenized:
        tokens = lowercase_tokens(texts, tokenizer) if lowercase else texts
    else:
        tokens = tokenizer.tokenize(texts)
    vocabulary = {token: i for i, token in enumerate(dict.fromkeys(chain.from_iterable(tokens)))}
    lengths = np.fromiter(map(len, tokens), np.int64, len(tokens))
    ids = np.fromiter(map(vocabulary.__getitem__, chain.from_iterable(tokens)), np.int64, int(lengths.sum()))
    return ids, lengths, list(vocabulary)
