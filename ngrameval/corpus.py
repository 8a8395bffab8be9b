"""From raw input to an indexed corpus: validate, tokenize, index the references (cached)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List

import numpy as np

from .inputs import normalize_corpus
from .ngrams import ReferenceCache, ReferenceIndex
from .tokenizers import Tokenizer, TokenizerSpec, get_tokenizer, lowercase_tokens

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
        key = (type(tokenizer), tokenizer.name, getattr(tokenizer, "function", None), lowercase,
               counts, tuple(flat_refs))

        def tokenize_references():
            return tokenizer.tokenize(flat_refs)

    def build():
        flat = tokenize_references()
        bounds = np.cumsum((0,) + counts).tolist()
        return ReferenceIndex([flat[bounds[i]:bounds[i + 1]] for i in range(len(counts))], max_order)

    index = _REFERENCE_CACHE.get(key, build)
    index.extend(max_order)
    return IndexedCorpus(hyp_tokens, index, tokenizer)
